/*
 * TI AM335x USB subsystem: glue and CPPI 4.1 DMA
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_DMA_AM335X_CPPI41_H
#define HW_DMA_AM335X_CPPI41_H

#include "hw/sysbus.h"
#include "qom/object.h"
#include "exec/memory.h"

#define TYPE_AM335X_CPPI41 "am335x-cppi41"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xCppi41State, AM335X_CPPI41)

typedef struct AM335xMusbState AM335xMusbState;

/* The MMIO regions, in the order of the DT's reg-names */
enum {
    AM335X_CPPI41_GLUE,         /* USBSS at 0x47400000 */
    AM335X_CPPI41_CONTROLLER,   /* 0x47402000 */
    AM335X_CPPI41_SCHEDULER,    /* 0x47403000 */
    AM335X_CPPI41_QUEUEMGR,     /* 0x47404000 */
};

/* 15 TX and 15 RX channels per USB port (one per endpoint 1-15) */
#define AM335X_CPPI41_PORTS         2
#define AM335X_CPPI41_NUM_CHANNELS  30
#define AM335X_CPPI41_NUM_QUEUES    156
/* Descriptor regions of the queue manager and its linking RAM entries */
#define AM335X_CPPI41_NUM_REGIONS   16
#define AM335X_CPPI41_MAX_DESCS     16384
#define AM335X_CPPI41_SCHED_WORDS   64

/* A TX channel's descriptor, while its data goes to the endpoint */
typedef struct AM335xCppi41Tx {
    uint32_t desc;          /* 0: none */
    uint32_t len;
    uint32_t buf;
    uint32_t done;
    uint32_t retq;          /* pd2's return queue */
} AM335xCppi41Tx;

struct AM335xCppi41State {
    SysBusDevice parent_obj;

    MemoryRegion glue_mem;
    MemoryRegion ctrl_mem;
    MemoryRegion sched_mem;
    MemoryRegion qmgr_mem;
    qemu_irq irq;
    AddressSpace dma_as;

    /* Glue */
    uint32_t sysconfig;
    uint32_t irq_enable;
    /* Interrupt pacing (thresholds and enables; not modelled) */
    uint32_t dma_threshold[4];
    uint32_t dma_enable[2];
    uint32_t frame_threshold[4];
    uint32_t frame_enable[2];

    /* DMA controller */
    uint32_t tdfdq;
    uint32_t emu;
    uint32_t txgcr[AM335X_CPPI41_NUM_CHANNELS];
    uint32_t rxgcr[AM335X_CPPI41_NUM_CHANNELS];
    uint32_t rxhpcra[AM335X_CPPI41_NUM_CHANNELS];
    uint32_t rxhpcrb[AM335X_CPPI41_NUM_CHANNELS];
    AM335xCppi41Tx tx[AM335X_CPPI41_NUM_CHANNELS];

    /* Scheduler */
    uint32_t sched_ctrl;
    uint32_t sched_word[AM335X_CPPI41_SCHED_WORDS];

    /* Queue manager: each queue a list through the linking RAM */
    uint32_t diversion;
    uint32_t lram0_base;
    uint32_t lram0_size;
    uint32_t lram1_base;
    uint32_t membase[AM335X_CPPI41_NUM_REGIONS];
    uint32_t memctrl[AM335X_CPPI41_NUM_REGIONS];
    uint32_t queue_c[AM335X_CPPI41_NUM_QUEUES];
    uint16_t head[AM335X_CPPI41_NUM_QUEUES];
    uint16_t tail[AM335X_CPPI41_NUM_QUEUES];
    uint32_t count[AM335X_CPPI41_NUM_QUEUES];
    uint16_t link[AM335X_CPPI41_MAX_DESCS];
    /* The value pushed (address and size code) for each descriptor */
    uint32_t entry[AM335X_CPPI41_MAX_DESCS];
    /* Free descriptor/buffer starvation counters of queues 0-31 */
    uint8_t starvation[32];

    /* Channels are run from kicks; a long chain goes on in @bh */
    QEMUBH *bh;
    bool running;
    bool rerun;

    /* Properties */
    MemoryRegion *dma_mr;
    AM335xMusbState *usb[AM335X_CPPI41_PORTS];
};

/* An endpoint's DMA state changed: move what can be moved */
void am335x_cppi41_kick(AM335xCppi41State *s);

#endif
