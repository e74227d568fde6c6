/*
 * TI AM335x UART (16C750-compatible core with the OMAP extensions)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_CHAR_AM335X_UART_H
#define HW_CHAR_AM335X_UART_H

#include "hw/sysbus.h"
#include "hw/char/serial.h"
#include "hw/clock.h"
#include "qom/object.h"

#define TYPE_AM335X_UART "am335x-uart"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xUartState, AM335X_UART)

#define AM335X_UART_MMIO_SIZE 0x1000

struct AM335xUartState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    /* The 16550 register file, FIFOs, IRQ logic and chardev live here. */
    SerialState serial;
    /* UARTn_GFCLK from the PRCM (48 MHz); the baud base follows it. */
    Clock *fclk;

    /* Bits of IER/MCR that the 16550 core does not keep (EFR[4] gated). */
    uint8_t ier_hi;
    uint8_t mcr_hi;
    uint8_t efr;
    uint8_t xon1;
    uint8_t xon2;
    uint8_t xoff1;
    uint8_t xoff2;
    uint8_t tcr;
    uint8_t tlr;
    uint8_t mdr1;
    uint8_t mdr2;
    uint8_t mdr3;
    uint8_t acreg;
    uint8_t scr;
    uint8_t ssr;
    uint8_t eblr;
    uint8_t wer;
    uint8_t cfps;
    uint8_t ier2;
    uint8_t isr2;
    uint8_t freq_sel;
    uint8_t tx_dma_threshold;
    uint32_t sysc;

    /* Properties */
    uint32_t revision;
};

#endif
