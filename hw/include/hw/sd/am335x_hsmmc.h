/*
 * TI AM335x MMC/SD/SDIO host controller (MMCHS0-2)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_SD_AM335X_HSMMC_H
#define HW_SD_AM335X_HSMMC_H

#include "hw/sysbus.h"
#include "hw/sd/sdhci.h"
#include "qemu/timer.h"
#include "hw/misc/am335x_timing.h"
#include "qom/object.h"

#define TYPE_AM335X_HSMMC "am335x-hsmmc"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xHsmmcState, AM335X_HSMMC)

#define AM335X_HSMMC_MMIO_SIZE  0x1000

/*
 * Named GPIO outputs, one line each:
 * - "dma-tx", "dma-rx": the EDMA event requests, a rising edge for every
 *   block the buffer can take (write) or holds (read) while SD_CMD.DE is
 *   set.
 * - "card-detect": the slot's card-detect switch, low while a card is in
 *   the slot (the boards' DTs: cd-gpios = <&gpio0 6 GPIO_ACTIVE_LOW>).
 * - "write-protect": high while the card is write-protected.
 */
#define AM335X_HSMMC_DMA_TX         "dma-tx"
#define AM335X_HSMMC_DMA_RX         "dma-rx"
#define AM335X_HSMMC_CARD_DETECT    "card-detect"
#define AM335X_HSMMC_WRITE_PROTECT  "write-protect"

/* Index of the EDMA request lines in the state below */
enum {
    AM335X_HSMMC_TX = 0,
    AM335X_HSMMC_RX = 1,
    AM335X_HSMMC_NUM_DMA = 2,
};

struct AM335xHsmmcState {
    SysBusDevice parent_obj;

    /* QEMU's SD host controller core, behind the OMAP registers */
    SDHCIState sdhci;

    MemoryRegion iomem;
    qemu_irq irq;
    qemu_irq dma_req[AM335X_HSMMC_NUM_DMA];
    qemu_irq card_detect;
    qemu_irq write_protect;

    /* The OMAP registers in front of the SD host registers */
    uint32_t sysconfig;
    uint32_t csre;
    uint32_t systest;
    uint32_t con;
    uint32_t pwcnt;
    uint32_t sdmasa;
    /* SD_CAPA as software set it (VS18/VS30/VS33); mirrored in the core */
    uint32_t capa;
    /* SD_CUR_CAPA; mirrored in the core's maxcurr */
    uint32_t cur_capa;
    /* SD_CMD.DE, which the core never sees: it would do SDMA itself */
    bool dma_enable;
    /* SD_HCTL.SDBP, kept here: see am335x_hsmmc_write_hctl() */
    bool bus_power;
    /* SD_SYSCTL SRA/SRC/SRD still reading 1 */
    uint8_t srst_pending;
    /* QEMU_CLOCK_VIRTUAL ns from which they may read 0 */
    int64_t srst_deadline;
    /* A read has returned them set since the write */
    bool srst_seen;

    /* Levels of the outputs */
    bool dma_level[AM335X_HSMMC_NUM_DMA];
    /* The block ready in the buffer has had its DMA request edge */
    bool dma_signalled[AM335X_HSMMC_NUM_DMA];
    bool cd_level;
    bool wp_level;

    /*
     * Timing (property "timing"): the SD bus (its bandwidth follows
     * SD_SYSCTL.CLKD and the bus width) and the card's flash (its write
     * rate).  A block in the buffer shows to the EDMA only from
     * ready_at[dir] on; a write's transfer complete waits in tc_held
     * until tc_at, the end of the card's busy.
     */
    AM335xTimingResource bus;
    AM335xTimingResource card;
    QEMUTimer data_timer;
    int64_t ready_at[AM335X_HSMMC_NUM_DMA];
    /* When the buffer half the next read block goes into was freed */
    int64_t buf_free_at;
    /* The card address of the next written byte, for allocation units */
    uint64_t wr_addr;
    int64_t tc_at;
    bool tc_hold;
    bool tc_held;
    /* A command complete waits in cc_held until cc_at, its response's end */
    int64_t cc_at;
    bool cc_hold;
    bool cc_held;
    /* The card takes block addresses (OCR CCS, from ACMD41/CMD1) */
    bool card_block_addr;

    /* Properties */
    uint32_t capa_reset;
    bool timing;
    uint32_t fclk_hz;
    uint64_t card_read_latency_ns;
    uint64_t card_write_rate;
    uint64_t card_au_size;
    uint64_t card_au_busy_ns;
};

#endif
