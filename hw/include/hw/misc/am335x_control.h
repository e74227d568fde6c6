/*
 * TI AM335x control module (SCM)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_MISC_AM335X_CONTROL_H
#define HW_MISC_AM335X_CONTROL_H

#include "hw/sysbus.h"
#include "net/net.h"
#include "qom/object.h"

#define TYPE_AM335X_CONTROL "am335x-control"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xControlState, AM335X_CONTROL)

/* 0x44e10000-0x44e2ffff: the module's two 64 KiB L4_WKUP windows. */
#define AM335X_CONTROL_MMIO_SIZE    0x20000
#define AM335X_CONTROL_NUM_REGS     (AM335X_CONTROL_MMIO_SIZE / 4)

/*
 * Board and part values for the properties.
 *
 * SYSBOOT[15:0] is latched from the LCD_DATA pins at power-on reset.
 * SYSBOOT[15:14] = 01 selects the 24 MHz crystal on both boards.  The
 * BeagleBone Black straps boot order MMC1, MMC0, UART0, USB0 (11100b).  The
 * EVM's SYSBOOT DIP switches are set for boot order MMC0, SPI0, UART0, USB0
 * (10111b), the SD card boot this project uses.
 */
#define AM335X_SYSBOOT_BEAGLEBONE_BLACK 0x401c
#define AM335X_SYSBOOT_EVM_SD_BOOT      0x4017

/* DEVICE_ID of silicon revision 2.1: DEVREV [31:28] = 2, part 0xb944. */
#define AM335X_DEVICE_ID_ES2_1          0x2b94402e

/* DEV_FEATURE per part (AM335x data sheet SPRS717, "Device Comparison"). */
#define AM335X_DEV_FEATURE_AM3358       0x20fd0383
#define AM335X_DEV_FEATURE_AM3359       0x20ff0383

/*
 * EFUSE_SMA: package type [17:16] (1 = ZCZ) and the "OPP disabled" bits of
 * the MPU [12:0] that U-Boot and ti-cpufreq read; 0x1c2f is a 1 GHz part.
 */
#define AM335X_EFUSE_SMA_ZCZ_1GHZ       0x00011c2f

/*
 * The EDMA event crossbar (TRM 11.3.20): each of the 64 EDMA channels takes
 * its direct event ("dma-direct" input n) while its TPCC_EVT_MUX byte is 0,
 * else crossbar input number <byte> ("dma-xbar").  "dma-event" output n
 * goes to the EDMA's event input n.
 */
#define AM335X_CONTROL_DMA_DIRECT       "dma-direct"
#define AM335X_CONTROL_DMA_XBAR         "dma-xbar"
#define AM335X_CONTROL_DMA_EVENT        "dma-event"
#define AM335X_CONTROL_NUM_DMA_EVENTS   64

struct AM335xControlState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    /* Backing store for every register that is not computed on read. */
    uint32_t regs[AM335X_CONTROL_NUM_REGS];

    /* Properties */
    uint32_t sysboot;
    uint32_t device_id;
    uint32_t dev_feature;
    uint32_t efuse_sma;
    /* MAC_ID0 = mac-base, MAC_ID1 = mac-base with the last byte + 1. */
    MACAddr mac_base;

    /* Event crossbar input levels, one bit per line */
    uint64_t dma_direct;
    uint64_t dma_xbar;
    qemu_irq dma_event[AM335X_CONTROL_NUM_DMA_EVENTS];
};

#endif
