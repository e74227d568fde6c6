/*
 * TI AM335x error location module (ELM)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_BLOCK_AM335X_ELM_H
#define HW_BLOCK_AM335X_ELM_H

#include "hw/sysbus.h"
#include "qom/object.h"

#define TYPE_AM335X_ELM "am335x-elm"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xElmState, AM335X_ELM)

#define AM335X_ELM_NUM_SYNDROMES    8
#define AM335X_ELM_NUM_FRAGMENTS    7
#define AM335X_ELM_NUM_LOCATIONS    16
#define AM335X_ELM_MMIO_SIZE        0x2000

struct AM335xElmState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    qemu_irq irq;

    uint32_t sysconfig;
    uint32_t irqstatus;
    uint32_t irqenable;
    uint32_t location_config;
    uint32_t page_ctrl;
    /* Vectors of the current page (PAGE_CTRL) processed so far */
    uint32_t page_done;
    uint32_t syndrome[AM335X_ELM_NUM_SYNDROMES][AM335X_ELM_NUM_FRAGMENTS];
    uint32_t location_status[AM335X_ELM_NUM_SYNDROMES];
    uint32_t error_location[AM335X_ELM_NUM_SYNDROMES]
                           [AM335X_ELM_NUM_LOCATIONS];
};

#endif
