/*
 * TI AM335x general-purpose I/O module (GPIO0-3)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPIO_AM335X_GPIO_H
#define HW_GPIO_AM335X_GPIO_H

#include "hw/sysbus.h"
#include "qemu/timer.h"
#include "qom/object.h"

#define TYPE_AM335X_GPIO "am335x-gpio"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xGpioState, AM335X_GPIO)

#define AM335X_GPIO_MMIO_SIZE   0x1000
/* Pins per module; also the unnamed GPIO inputs and outputs of the device */
#define AM335X_GPIO_NUM_PINS    32
/* Interrupt lines POINTRPEND1 and POINTRPEND2: sysbus IRQs 0 and 1 */
#define AM335X_GPIO_NUM_LINES   2

/* The debounce clock input (a Clock); unconnected means no debouncing. */
#define AM335X_GPIO_DBCLK       "dbclk"

struct AM335xGpioState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    QEMUTimer debounce_timer;
    Clock *dbclk;
    qemu_irq irq[AM335X_GPIO_NUM_LINES];
    qemu_irq out[AM335X_GPIO_NUM_PINS];

    uint32_t sysconfig;
    /* Each interrupt line has its own raw status and enable registers. */
    uint32_t irq_raw[AM335X_GPIO_NUM_LINES];
    uint32_t irq_enable[AM335X_GPIO_NUM_LINES];
    uint32_t irq_wake[AM335X_GPIO_NUM_LINES];
    uint32_t ctrl;
    uint32_t oe;
    uint32_t dataout;
    uint32_t leveldetect0;
    uint32_t leveldetect1;
    uint32_t risingdetect;
    uint32_t fallingdetect;
    uint32_t debounce_enable;
    uint32_t debouncing_time;

    /* Levels that other devices drive onto the pins (the GPIO inputs). */
    uint32_t ext_in;
    /*
     * The pin levels as the module has sampled them, after debouncing:
     * what DATAIN reads and what the event detectors compare against.
     */
    uint32_t datain;
    /* Debounced pins whose new level has not been stable long enough yet */
    uint32_t db_pending;
    int64_t db_deadline[AM335X_GPIO_NUM_PINS];

    /*
     * Levels of the GPIO outputs: DATAOUT where OE selects output, low
     * elsewhere.  Read-only QOM property "outputs".
     */
    uint32_t outputs;
    bool db_unimp_logged;
};

#endif
