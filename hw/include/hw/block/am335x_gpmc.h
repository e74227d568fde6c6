/*
 * TI AM335x general-purpose memory controller (GPMC)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_BLOCK_AM335X_GPMC_H
#define HW_BLOCK_AM335X_GPMC_H

#include "hw/sysbus.h"
#include "hw/block/am335x_bch.h"
#include "hw/block/am335x_nand.h"
#include "hw/misc/am335x_timing.h"
#include "qemu/timer.h"
#include "qom/object.h"

#define TYPE_AM335X_GPMC "am335x-gpmc"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xGpmcState, AM335X_GPMC)

#define AM335X_GPMC_NUM_CS          7
#define AM335X_GPMC_NUM_WAIT        2
#define AM335X_GPMC_FIFO_SIZE       64
#define AM335X_GPMC_BCH_SECTORS     8
#define AM335X_GPMC_NUM_ECC_RESULTS 9
/* The chip-select windows live in the first 512 MiB of the L3 map. */
#define AM335X_GPMC_SPACE_SIZE      0x20000000
#define AM335X_GPMC_MMIO_SIZE       0x01000000

/*
 * Sysbus: MMIO 0 is the register file, MMIO 1 the 512 MiB external
 * address space the chip-select windows are mapped into (the board maps
 * it at 0).  IRQ 0 goes to the INTC, the named GPIO output "dma" is the
 * prefetch engine's EDMA request, the named GPIO inputs "wait" are the
 * WAIT0/WAIT1 pins.
 */
#define AM335X_GPMC_DMA     "dma"
#define AM335X_GPMC_WAIT    "wait"

typedef struct AM335xGpmcWindow {
    struct AM335xGpmcState *gpmc;
    int cs;
} AM335xGpmcWindow;

struct AM335xGpmcState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    MemoryRegion space;
    MemoryRegion cs_mem[AM335X_GPMC_NUM_CS];
    AM335xGpmcWindow window[AM335X_GPMC_NUM_CS];
    qemu_irq irq;
    qemu_irq dma_req;
    /* Set by the board with am335x_gpmc_attach_nand() */
    AM335xNandState *nand[AM335X_GPMC_NUM_CS];

    uint32_t sysconfig;
    uint32_t irqstatus;
    uint32_t irqenable;
    uint32_t timeout_control;
    uint32_t config;
    uint32_t cs_config[AM335X_GPMC_NUM_CS][7];
    bool wait_level[AM335X_GPMC_NUM_WAIT];

    /* Prefetch and write-posting engine */
    uint32_t prefetch_config1;
    uint32_t prefetch_config2;
    bool engine_running;
    uint8_t fifo[AM335X_GPMC_FIFO_SIZE];
    uint32_t fifo_head;
    uint32_t fifo_level;
    uint32_t count;
    bool dma_signalled;
    uint32_t dma_chunk;

    /* ECC engine */
    uint32_t ecc_config;
    uint32_t ecc_control;
    uint32_t ecc_size_config;
    uint32_t ecc_result[AM335X_GPMC_NUM_ECC_RESULTS];
    uint32_t bch_swdata;
    /* Nibbles of the current page seen by the BCH engine */
    uint32_t ecc_nibbles;
    /* Bytes in the Hamming result being accumulated */
    uint32_t ham_pos;
    AM335xBchRem bch[AM335X_GPMC_BCH_SECTORS];

    /*
     * Timing (property "timing"): the engine's accesses on the NAND bus,
     * one byte per RDCYCLETIME/WRCYCLETIME; engine_timer runs the engine
     * when its FIFO reaches the next event.
     */
    AM335xTimingResource bus;
    QEMUTimer engine_timer;

    /* Properties */
    bool timing;
    uint32_t fclk_hz;
};

void am335x_gpmc_attach_nand(AM335xGpmcState *s, int cs,
                             AM335xNandState *nand);

#endif
