/*
 * TI AM335x DMTimer (dual-mode timer), both register layouts
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_TIMER_AM335X_DMTIMER_H
#define HW_TIMER_AM335X_DMTIMER_H

#include "hw/sysbus.h"
#include "qemu/timer.h"
#include "qom/object.h"

#define TYPE_AM335X_DMTIMER "am335x-dmtimer"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xDMTimerState, AM335X_DMTIMER)

#define AM335X_DMTIMER_MMIO_SIZE 0x1000

/* The functional clock input (a Clock) and the capture event input (GPIO). */
#define AM335X_DMTIMER_FCLK     "fclk"
#define AM335X_DMTIMER_CAPTURE  "capture"

struct AM335xDMTimerState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    QEMUTimer timer;
    Clock *fclk;
    qemu_irq irq;

    /*
     * While counting, TCRR held @count at prescaled tick @count_tick, ticks
     * being counted from @ref_ns on the virtual clock.  @ref_ns moves only
     * when the prescaler restarts or the clock period changes, so the
     * counter does not drift however often it is read.
     */
    int64_t ref_ns;
    uint64_t count_tick;
    uint32_t count;

    uint32_t tiocp_cfg;
    uint32_t irq_raw;
    uint32_t irq_enable;
    uint32_t irq_wake;
    uint32_t tclr;
    uint32_t tldr;
    uint32_t tmar;
    uint32_t tcar1;
    uint32_t tcar2;
    uint32_t tsicr;
    /* DMTIMER1_1MS tick generation */
    uint32_t tpir;
    uint32_t tnir;
    uint32_t tcvr;
    uint32_t tocr;
    uint32_t towr;
    /* Capture edge detection: events taken since the logic was re-armed */
    uint8_t captures;
    bool capture_level;

    /* Properties */
    bool one_ms;
    uint32_t revision;
};

#endif
