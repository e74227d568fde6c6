/*
 * TI AM335x I2C controller (the OMAP4-style "HS I2C" IP)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_I2C_AM335X_I2C_H
#define HW_I2C_AM335X_I2C_H

#include "hw/sysbus.h"
#include "hw/i2c/i2c.h"
#include "qom/object.h"

#define TYPE_AM335X_I2C "am335x-i2c"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xI2CState, AM335X_I2C)

#define AM335X_I2C_MMIO_SIZE    0x1000

/* I2C_BUFSTAT.FIFODEPTH: 32 bytes each way */
#define AM335X_I2C_FIFO_SIZE    32

/*
 * The functional clock input (a Clock), and the child bus' name when the
 * "bus-name" property gives none.
 */
#define AM335X_I2C_FCLK         "fclk"
#define AM335X_I2C_BUS_NAME     "i2c"

struct AM335xI2CState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    I2CBus *bus;
    char *bus_name;
    Clock *fclk;
    qemu_irq irq;

    /* Registers, 16 bits wide each */
    uint16_t sysc;
    uint16_t irq_raw;       /* event bits of I2C_IRQSTATUS_RAW, BB apart */
    uint16_t irq_enable;
    uint16_t we;
    uint16_t dma_rx_enable;
    uint16_t dma_tx_enable;
    uint16_t dma_rx_wake;
    uint16_t dma_tx_wake;
    uint16_t buf;
    uint16_t cnt;           /* DCOUNT as programmed */
    uint16_t con;
    uint16_t oa[4];         /* I2C_OA and I2C_OA1-3 */
    uint16_t sa;
    uint16_t psc;
    uint16_t scll;
    uint16_t sclh;
    uint16_t systest;
    uint16_t sblock;

    /*
     * Master transfer state.  @bus_busy is the bus between a START and
     * its STOP (the BB bit): the QEMU I2C transaction to @bus_addr is open.
     * @xfer is a DCOUNT transfer in progress, @count the bytes it still has
     * to move on the bus (1..65536 until done), @recv its direction.  A
     * receive stays in progress, with the bus side over, until the CPU has
     * emptied the RX FIFO.
     */
    bool bus_busy;
    bool xfer;
    bool recv;
    uint8_t bus_addr;
    uint32_t count;

    uint8_t tx_fifo[AM335X_I2C_FIFO_SIZE];
    uint8_t tx_head;
    uint8_t tx_level;
    uint8_t rx_fifo[AM335X_I2C_FIFO_SIZE];
    uint8_t rx_head;
    uint8_t rx_level;
};

#endif
