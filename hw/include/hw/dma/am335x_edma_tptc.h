/*
 * TI AM335x EDMA3 transfer controller (TPTC)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_DMA_AM335X_EDMA_TPTC_H
#define HW_DMA_AM335X_EDMA_TPTC_H

#include "hw/sysbus.h"
#include "exec/memory.h"
#include "qemu/timer.h"
#include "hw/misc/am335x_timing.h"
#include "qom/object.h"

#define TYPE_AM335X_EDMA_TPTC "am335x-edma-tptc"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xEdmaTptcState, AM335X_EDMA_TPTC)

/* The target-module window of the device tree (am33xx.dtsi) */
#define AM335X_EDMA_TPTC_MMIO_SIZE      0x100000

/* Bytes moved through the bounce buffer per access pair */
#define AM335X_EDMA_TPTC_BOUNCE_SIZE    4096

/*
 * A transfer request (TR): what the channel controller hands a transfer
 * controller for one trigger (AM335x TRM 11.3.12).  A-synchronized
 * transfers send one array (bcnt 1), AB-synchronized ones one frame.
 */
typedef struct AM335xEdmaTR {
    /* The PaRAM OPT word: SAM, DAM, FWID and TCC are what the TC uses */
    uint32_t opt;
    uint32_t src;
    uint32_t dst;
    uint16_t acnt;
    uint16_t bcnt;
    int16_t src_bidx;
    int16_t dst_bidx;
    /* The queue's priority (QUEPRI), shown in SAOPT */
    uint8_t pri;
    /* The channel that submitted the TR, for traces */
    uint8_t channel;
    /* What to report with the TCC when the TR is done */
    bool tcinten;
    bool tcchen;
} AM335xEdmaTR;

/*
 * Called when @tr leaves the TC, which is idle again: done, or @aborted
 * by a soft reset of the TC, which returns no completion code.
 */
typedef void (*AM335xEdmaTptcDoneFn)(void *opaque, unsigned tc,
                                     const AM335xEdmaTR *tr, bool aborted);

struct AM335xEdmaTptcState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    AddressSpace dma_as;
    QEMUTimer timer;
    qemu_irq irq;

    /* The channel controller, set by am335x_edma_tptc_connect() */
    AM335xEdmaTptcDoneFn done;
    void *done_opaque;
    unsigned id;

    /*
     * The TR in progress (the source active set) and how far it got:
     * @arrays_done whole arrays, then @bytes_done bytes of the next one.
     * After a bus or TR error the rest of the TR moves no data.
     */
    bool busy;
    AM335xEdmaTR tr;
    uint32_t arrays_done;
    uint32_t bytes_done;
    bool tr_failed;

    uint32_t sysconfig;
    uint32_t errstat;
    uint32_t erren;
    uint32_t errdet;
    uint32_t rdrate;

    /* Not migrated: it holds data only within one access pair. */
    uint8_t bounce[AM335X_EDMA_TPTC_BOUNCE_SIZE];

    /* The bus port's time, with timing=on */
    AM335xTimingResource port;

    /* Properties */
    MemoryRegion *dma_mr;
    bool timing;
    uint64_t bandwidth;
};

/*
 * The channel controller's side.  A TC takes one TR at a time; @done is
 * called from the TC's timer when it is finished.
 */
void am335x_edma_tptc_connect(AM335xEdmaTptcState *s, unsigned id,
                              AM335xEdmaTptcDoneFn done, void *opaque);
bool am335x_edma_tptc_idle(AM335xEdmaTptcState *s);
void am335x_edma_tptc_submit(AM335xEdmaTptcState *s, const AM335xEdmaTR *tr);

extern const VMStateDescription vmstate_am335x_edma_tr;

#endif
