/*
 * TI AM335x watchdog timer (WDT1)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_WATCHDOG_AM335X_WDT_H
#define HW_WATCHDOG_AM335X_WDT_H

#include "hw/sysbus.h"
#include "qemu/timer.h"
#include "qom/object.h"

#define TYPE_AM335X_WDT "am335x-wdt"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xWdtState, AM335X_WDT)

#define AM335X_WDT_MMIO_SIZE 0x1000

/* The functional clock input (a Clock). */
#define AM335X_WDT_FCLK         "fclk"
/* Output GPIO pulsed on expiry, for the PRCM's reset log (PRM_RSTST). */
#define AM335X_WDT_RESET_CAUSE  "reset-cause"

struct AM335xWdtState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    QEMUTimer timer;
    Clock *fclk;
    qemu_irq irq;
    qemu_irq reset_cause;

    /*
     * While counting, WCRR held @count at prescaled tick @count_tick, the
     * ticks being counted from @ref_ns on the virtual clock at one per
     * 2^@ps_shift functional clock cycles.  @ps_shift is the prescaler in
     * effect, which follows WCLR only at a reload or a start.
     */
    int64_t ref_ns;
    uint64_t count_tick;
    uint32_t count;
    uint8_t ps_shift;
    bool running;

    uint32_t wdsc;
    uint32_t wclr;
    uint32_t wldr;
    uint32_t wtgr;
    uint32_t wdly;
    uint32_t wspr;
    uint32_t irq_raw;
    uint32_t irq_enable;
    /* WCRR as latched by a 16-bit read of its low half */
    uint32_t wcrr_shadow;

    /* Properties */
    bool start_on_reset;
};

#endif
