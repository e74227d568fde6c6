/*
 * TI AM335x MPU interrupt controller (INTC)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_INTC_AM335X_INTC_H
#define HW_INTC_AM335X_INTC_H

#include "hw/sysbus.h"
#include "qom/object.h"

#define TYPE_AM335X_INTC "am335x-intc"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xIntcState, AM335X_INTC)

#define AM335X_INTC_MMIO_SIZE   0x1000
/* TRM 6.1.1.1: 128 level-sensitive inputs in four banks of 32. */
#define AM335X_INTC_NUM_IRQS    128
#define AM335X_INTC_NUM_BANKS   (AM335X_INTC_NUM_IRQS / 32)

/* The two request types, also the sysbus IRQ indexes of the outputs. */
enum {
    AM335X_INTC_OUT_IRQ = 0,
    AM335X_INTC_OUT_FIQ = 1,
    AM335X_INTC_NUM_OUTPUTS
};

struct AM335xIntcState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    qemu_irq out[AM335X_INTC_NUM_OUTPUTS];

    /* Levels of the input lines, as driven by the peripherals. */
    uint32_t input[AM335X_INTC_NUM_BANKS];
    /* ISR_SETn: software-asserted lines, ORed with the inputs. */
    uint32_t isr[AM335X_INTC_NUM_BANKS];
    uint32_t mir[AM335X_INTC_NUM_BANKS];
    uint8_t ilr[AM335X_INTC_NUM_IRQS];
    uint32_t sysconfig;
    uint32_t protection;
    uint32_t idle;
    uint32_t threshold;

    /*
     * Per request type: whether a sorted interrupt is being processed (the
     * output is asserted and the sorter frozen until NEWIRQAGR/NEWFIQAGR),
     * and the latest sort result that SIR and *_PRIORITY report.
     */
    bool active[AM335X_INTC_NUM_OUTPUTS];
    uint8_t active_line[AM335X_INTC_NUM_OUTPUTS];
    uint8_t active_prio[AM335X_INTC_NUM_OUTPUTS];

    /* Properties */
    uint32_t revision;
};

#endif
