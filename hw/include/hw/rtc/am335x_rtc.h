/*
 * TI AM335x real-time clock subsystem (RTCSS)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_RTC_AM335X_RTC_H
#define HW_RTC_AM335X_RTC_H

#include "hw/sysbus.h"
#include "qemu/timer.h"
#include "qom/object.h"

#define TYPE_AM335X_RTC "am335x-rtc"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xRtcState, AM335X_RTC)

#define AM335X_RTC_MMIO_SIZE 0x1000

/* Sysbus IRQs: the timer interrupt (RTCINT) and the alarm one (RTCALARMINT) */
#define AM335X_RTC_IRQ_TIMER    0
#define AM335X_RTC_IRQ_ALARM    1

/*
 * The PMIC_POWER_EN output (1 while the board should stay powered) and the
 * four EXT_WAKEUP inputs, as named GPIOs.
 */
#define AM335X_RTC_PMIC_POWER_EN    "pmic-power-en"
#define AM335X_RTC_EXT_WAKEUP       "ext-wakeup"
#define AM335X_RTC_NUM_EXT_WAKEUP   4

/* The time/calendar (TC) registers, SECONDS_REG to WEEKS_REG */
enum {
    AM335X_RTC_TC_SEC,
    AM335X_RTC_TC_MIN,
    AM335X_RTC_TC_HOUR,
    AM335X_RTC_TC_DAY,
    AM335X_RTC_TC_MONTH,
    AM335X_RTC_TC_YEAR,
    AM335X_RTC_TC_WEEK,
    AM335X_RTC_TC_NUM
};
/* The alarm registers have all of them but WEEKS. */
#define AM335X_RTC_ALARM_NUM    AM335X_RTC_TC_WEEK

struct AM335xRtcState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    /* On QEMU's RTC clock (-rtc clock=...) */
    QEMUTimer timer;
    qemu_irq irq_timer;
    qemu_irq irq_alarm;
    qemu_irq pmic_power_en;

    /*
     * The counters, BCD as the registers hold them, but HOURS always in
     * 24-hour form whatever CTRL.MODE_12_24 says.  While the RTC runs, the
     * second they hold began at @tick_ns on the RTC clock; while it is
     * stopped, @phase_ns is how far into that second it stopped.
     */
    uint8_t tc[AM335X_RTC_TC_NUM];
    int64_t tick_ns;
    int64_t phase_ns;
    /* What the TC registers read, latched by a read of SECONDS_REG */
    uint8_t tc_shadow[AM335X_RTC_TC_NUM];
    /* ALARM and ALARM2 registers, as written */
    uint8_t alarm[AM335X_RTC_ALARM_NUM];
    uint8_t alarm2[AM335X_RTC_ALARM_NUM];

    uint32_t ctrl;
    /* RTC_STATUS_REG bits 2-7; RUN and BUSY are computed */
    uint32_t status;
    uint32_t interrupts;
    uint32_t comp_lsb;
    uint32_t comp_msb;
    uint32_t osc;
    uint32_t scratch[3];
    uint32_t sysconfig;
    uint32_t irqwakeen;
    /* RTC_PMIC, PWR_ENABLE_SM and EXT_WAKEUP_STATUS included */
    uint32_t pmic;
    uint32_t debounce;
    /* Write-protection state machine (TRM figure 20-58) */
    uint8_t kick_state;

    /* The timer interrupt is a pulse, high until @pulse_end_ns. */
    bool timer_pulse;
    int64_t pulse_end_ns;
    /* Level of PMIC_POWER_EN and of the EXT_WAKEUP inputs */
    bool power_en;
    uint8_t ext_wakeup;
    /* The RTC domain keeps its state across all but the first reset. */
    bool powered_on;

    /* Properties */
    bool shutdown_on_power_off;
};

#endif
