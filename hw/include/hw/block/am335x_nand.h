/*
 * ONFI 1.0 SLC NAND flash on an AM335x GPMC chip select (the AM335x EVM's
 * Micron MT29F2G08ABAEAWP by default)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_BLOCK_AM335X_NAND_H
#define HW_BLOCK_AM335X_NAND_H

#include "hw/qdev-core.h"
#include "hw/block/block.h"
#include "qemu/timer.h"
#include "qom/object.h"

#define TYPE_AM335X_NAND "am335x-nand"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xNandState, AM335X_NAND)

/* Named GPIO output: R/B#, high while the device is ready */
#define AM335X_NAND_RB  "rb"

#define AM335X_NAND_ONFI_PARAM_SIZE 256

struct AM335xNandState {
    DeviceState parent_obj;

    BlockBackend *blk;
    qemu_irq rb;
    QEMUTimer busy_timer;
    /* Without a drive: the array, one lazily allocated buffer per block */
    uint8_t **volatile_blocks;

    /* The page register (the cache of the array page being accessed) */
    uint8_t *page_buf;
    uint8_t onfi_param[AM335X_NAND_ONFI_PARAM_SIZE];

    /* Interface state */
    uint8_t cmd;
    uint8_t addr_cycles;
    uint64_t addr;
    uint32_t column;
    uint32_t row;
    /* What a data read returns */
    uint8_t read_mode;
    uint32_t read_pos;
    uint8_t status;
    bool busy;

    /* page_size + oob_size, for the migration of page_buf */
    uint32_t full_page_size;

    /*
     * Blocks gone bad at run time ("mark-bad"): their programs and erases
     * fail.  worn_nbits is blocks, for the migration of the bitmap.
     */
    unsigned long *worn;
    int32_t worn_nbits;

    /* Properties */
    char *bad_blocks;
    uint32_t page_size;
    uint32_t oob_size;
    uint32_t pages_per_block;
    uint32_t blocks;
    uint8_t manf_id;
    uint8_t dev_id;
    uint32_t id_bytes;
    uint32_t t_read_ns;
    uint32_t t_prog_ns;
    uint32_t t_erase_ns;
};

/* The GPMC side of the bus: command latch, address latch, data. */
void am335x_nand_command(AM335xNandState *s, uint8_t cmd);
void am335x_nand_address(AM335xNandState *s, uint8_t addr);
void am335x_nand_write(AM335xNandState *s, uint8_t data);
uint8_t am335x_nand_read(AM335xNandState *s);
bool am335x_nand_ready(AM335xNandState *s);

#endif
