/*
 * TI AM335x EDMA3 channel controller (TPCC)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_DMA_AM335X_EDMA_TPCC_H
#define HW_DMA_AM335X_EDMA_TPCC_H

#include "hw/sysbus.h"
#include "hw/dma/am335x_edma_tptc.h"
#include "qemu/timer.h"
#include "qom/object.h"

#define TYPE_AM335X_EDMA_TPCC "am335x-edma-tpcc"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xEdmaTpccState, AM335X_EDMA_TPCC)

/* The target-module window of the device tree (am33xx.dtsi) */
#define AM335X_EDMA_TPCC_MMIO_SIZE      0x10000

/* The AM335x configuration (TRM 11.2): what CCCFG reports */
#define AM335X_EDMA_NUM_DMACH           64
#define AM335X_EDMA_NUM_QDMACH          8
#define AM335X_EDMA_NUM_PARAM           256
#define AM335X_EDMA_NUM_QUEUES          3
#define AM335X_EDMA_QUEUE_DEPTH         16
#define AM335X_EDMA_NUM_REGIONS         8
#define AM335X_EDMA_PARAM_WORDS         8

/*
 * The 64 DMA request inputs, numbered as the EDMA events of TRM table
 * 11-23 (e.g. MMCHS0 TX 24 and RX 25, MMCHS1 TX 2 and RX 3).  A rising
 * edge is an event.
 */
#define AM335X_EDMA_TPCC_EVENT          "dma-event"

/* Sysbus IRQs, in order */
enum {
    AM335X_EDMA_TPCC_IRQ_COMP,      /* region 0 completion: EDMACOMPINT */
    AM335X_EDMA_TPCC_IRQ_MPERR,     /* memory protection: EDMAMPERR */
    AM335X_EDMA_TPCC_IRQ_ERR,       /* errors: EDMAERRINT (CCERRINT) */
    AM335X_EDMA_TPCC_NUM_IRQS,
};

/* An event queue: a ring of QxEy entries (ETYPE and ENUM) */
typedef struct AM335xEdmaQueue {
    uint8_t entry[AM335X_EDMA_QUEUE_DEPTH];
    uint8_t start;
    uint8_t count;
    uint8_t watermark;
} AM335xEdmaQueue;

struct AM335xEdmaTpccState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    /* Evaluates events and queues outside the MMIO and event handlers */
    QEMUTimer process_timer;
    bool processing;
    qemu_irq irq[AM335X_EDMA_TPCC_NUM_IRQS];

    uint32_t param[AM335X_EDMA_NUM_PARAM][AM335X_EDMA_PARAM_WORDS];

    uint32_t sysconfig;
    uint32_t dchmap[AM335X_EDMA_NUM_DMACH];
    uint32_t qchmap[AM335X_EDMA_NUM_QDMACH];
    uint32_t dmaqnum[AM335X_EDMA_NUM_DMACH / 8];
    uint32_t qdmaqnum;
    uint32_t quepri;
    uint32_t qwmthra;
    uint64_t drae[AM335X_EDMA_NUM_REGIONS];
    uint32_t qrae[AM335X_EDMA_NUM_REGIONS];
    uint32_t mppag;
    uint32_t mppa[AM335X_EDMA_NUM_REGIONS];

    /* DMA channel bits, channel n at bit n */
    uint64_t er;
    uint64_t esr;
    uint64_t cer;
    uint64_t eer;
    uint64_t ser;
    uint64_t ier;
    uint64_t ipr;
    uint64_t emr;
    /* QDMA channel bits */
    uint32_t qer;
    uint32_t qeer;
    uint32_t qser;
    uint32_t qemr;
    uint32_t ccerr;

    /* The request inputs' levels, for edge detection */
    uint64_t event_level;
    AM335xEdmaQueue queue[AM335X_EDMA_NUM_QUEUES];
    /* TRs out with a completion to report (CCSTAT.COMPACTV) */
    uint32_t comp_active;

    /* Properties: the transfer controller of each queue */
    AM335xEdmaTptcState *tc[AM335X_EDMA_NUM_QUEUES];
};

#endif
