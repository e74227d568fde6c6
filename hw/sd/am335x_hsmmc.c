/*
 * TI AM335x MMC/SD/SDIO host controller (MMCHS0-2)
 *
 * The MMCHS is an SD Host Controller 2.0 (the SD_* registers at 0x200) with
 * TI's registers in front of it (SD_SYSCONFIG to SD_PWCNT at 0x110).  The
 * SD host part is QEMU's SDHCI core; this wrapper forwards 0x200-0x2ff to
 * it and handles what the OMAP controller does differently:
 *
 * - SD_REV (0x2fc) reads 0x31010000: vendor version 0x31, SD host
 *   specification 2.0.  ti-sysc matches this value, sdhci reads its upper
 *   half as SDHCI_HOST_VERSION.
 * - SD_CAPA.VS18/VS30/VS33 are written by software to tell which bus
 *   voltages the board supplies; SD_CUR_CAPA likewise.
 * - SD_CON.INIT: with it set, a write to SD_CMD sends the 80-clock
 *   initialisation stream instead of a command, then sets SD_STAT.CC.
 * - SD_SYSCTL.SRA/SRC/SRD read 1 while the reset runs and 0 when it is
 *   over (Linux's sdhci-omap waits for both edges, SDHCI_OMAP_SPECIAL_RESET).
 * - SD_HCTL.SDBP stays set with no card: see am335x_hsmmc_write_hctl().
 * - SD_RSP10-76 hold an R2 response whole, R[127:0] with its CRC7 (Linux:
 *   SDHCI_QUIRK2_RSP_136_HAS_CRC), where SDHCI drops the CRC byte and
 *   shifts the rest down.
 * - DMA: this instance has no bus-master port (SD_HL_HWINFO.MADMA_EN = 0;
 *   the TRM makes SD_CON.DMA_MnS depend on it): with SD_CMD.DE set it
 *   requests the EDMA, one request per block, on the "dma-tx" and "dma-rx"
 *   lines, and the EDMA moves the block through SD_DATA.  The core never
 *   sees DE, so it never masters memory itself; it runs the transfer as
 *   PIO, and the data port works for the CPU too.
 *   A request goes up when a whole block can be read (BRR) or written
 *   (BWR).  With SD_CON.SDMA_LnE = 0 (edge, the reset value) it drops at
 *   the first access to that block, with SDMA_LnE = 1 (level) at its last;
 *   either way each block makes one rising edge.
 * - "card-detect" and "write-protect" outputs give the slot's switches to
 *   a GPIO, as the boards wire them.
 * - Timing (property "timing", the machine's timing=on): every command takes
 *   its time on the CMD line (48 bits, then N_CR and the response) before
 *   SD_STAT.CC shows, and a busy (R1b) command without data keeps DAT0 busy
 *   until the card has programmed what it was given; a transfer by the EDMA
 *   takes the time of the SD bus and the card.  The bus runs at the 96 MHz
 *   functional clock over SD_SYSCTL.CLKD, 1, 4 or 8 bits wide as SD_HCTL.DTW
 *   and SD_CON.DW8 say; each block adds its start bit, CRC16 and end bit.  A
 *   read's first block follows the command and the card's read access time;
 *   the next ones stream into the other half of the 1024-byte buffer (double
 *   buffering of 512-byte blocks, TRM 18.3.2.4).  A written block goes out on
 *   the bus when the card can take it, and the card programs it at its write
 *   rate, with an extra busy time on entering a new allocation unit; the
 *   transfer completes (SD_STAT.TC) when the card's busy after the last block
 *   ends.  The EDMA request of a block, and that TC, wait for those times, so
 *   that the guest's own clock measures them.  Timing=off keeps the instant
 *   transfers.  CPU (PIO) transfers are not timed.
 *
 * Not modelled: SYSTEST mode, the card-status check of SD_CSRE, boot and
 * CE-ATA modes, stream transfers, bus-master DMA, idle and wake-up; the
 * time of CPU (PIO) data transfers.
 *
 * Reference: AM335x Technical Reference Manual (SPRUH73), chapter 18,
 * MMC/SD/SDIO.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qemu/units.h"
#include "qemu/host-utils.h"
#include "qapi/error.h"
#include "hw/sd/am335x_hsmmc.h"
#include "hw/sd/sd.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "trace.h"

/*
 * The OMAP4-generation header (HL_REV, HL_HWINFO, HL_SYSCONFIG).  The
 * AM335x TRM documents the module from SD_SYSCONFIG on and ti-sysc uses
 * SD_REV and SD_SYSCONFIG, so these read 0.  sdhci-omap reads
 * HL_HWINFO.MADMA_EN to choose ADMA over the EDMA; 0 is right here.
 */
REG32(HL_REV, 0x000)
REG32(HL_HWINFO, 0x004)
    FIELD(HL_HWINFO, MADMA_EN, 0, 1)
REG32(HL_SYSCONFIG, 0x010)

/* The TI registers (TRM table "MMCHS registers") */
REG32(SYSCONFIG, 0x110)
    FIELD(SYSCONFIG, AUTOIDLE, 0, 1)
    FIELD(SYSCONFIG, SOFTRESET, 1, 1)
    FIELD(SYSCONFIG, ENAWAKEUP, 2, 1)
    FIELD(SYSCONFIG, SIDLEMODE, 3, 2)
    FIELD(SYSCONFIG, CLOCKACTIVITY, 8, 2)
REG32(SYSSTATUS, 0x114)
    FIELD(SYSSTATUS, RESETDONE, 0, 1)
REG32(CSRE, 0x124)
REG32(SYSTEST, 0x128)
REG32(CON, 0x12c)
    FIELD(CON, OD, 0, 1)
    FIELD(CON, INIT, 1, 1)
    FIELD(CON, HR, 2, 1)
    FIELD(CON, STR, 3, 1)
    FIELD(CON, MODE, 4, 1)
    FIELD(CON, DW8, 5, 1)
    FIELD(CON, MIT, 6, 1)
    FIELD(CON, CDP, 7, 1)
    FIELD(CON, WPP, 8, 1)
    FIELD(CON, DVAL, 9, 2)
    FIELD(CON, CTPL, 11, 1)
    FIELD(CON, CEATA, 12, 1)
    FIELD(CON, PADEN, 15, 1)
    FIELD(CON, CLKEXTFREE, 16, 1)
    FIELD(CON, BOOT_ACK, 17, 1)
    FIELD(CON, BOOT_CF0, 18, 1)
    FIELD(CON, DDR, 19, 1)
    FIELD(CON, DMA_MNS, 20, 1)
    FIELD(CON, SDMA_LNE, 21, 1)
REG32(PWCNT, 0x130)
    FIELD(PWCNT, PWRCNT, 0, 16)

/*
 * The SD host registers, SDHCI 2.0 at 0x200 (the bit positions are the
 * SDHCI ones, so they apply to the core's fields too).
 */
#define SD_HOST_BASE    0x200
#define SD_HOST_END     0x300

REG32(SDMASA, 0x200)
REG32(BLK, 0x204)
    FIELD(BLK, BLEN, 0, 12)
REG32(CMD, 0x20c)
    FIELD(CMD, DE, 0, 1)
    FIELD(CMD, BCE, 1, 1)
    FIELD(CMD, DDIR, 4, 1)
    FIELD(CMD, MSBS, 5, 1)
    FIELD(CMD, RSP_TYPE, 16, 2)
    FIELD(CMD, DP, 21, 1)
    FIELD(CMD, INDX, 24, 6)
REG32(ARG, 0x208)
REG32(RSP10, 0x210)
REG32(RSP76, 0x21c)
REG32(DATA, 0x220)
REG32(PSTATE, 0x224)
    FIELD(PSTATE, CMDI, 0, 1)
    FIELD(PSTATE, DATI, 1, 1)
    FIELD(PSTATE, DLA, 2, 1)
    FIELD(PSTATE, WTA, 8, 1)
    FIELD(PSTATE, RTA, 9, 1)
    FIELD(PSTATE, BWE, 10, 1)
    FIELD(PSTATE, BRE, 11, 1)
REG32(HCTL, 0x228)
    FIELD(HCTL, DTW, 1, 1)
    FIELD(HCTL, SDBP, 8, 1)
    FIELD(HCTL, SDVS, 9, 3)
REG32(SYSCTL, 0x22c)
    FIELD(SYSCTL, CLKD, 6, 10)
    FIELD(SYSCTL, SRA, 24, 1)
    FIELD(SYSCTL, SRC, 25, 1)
    FIELD(SYSCTL, SRD, 26, 1)
    FIELD(SYSCTL, SRST, 24, 3)
REG32(STAT, 0x230)
    FIELD(STAT, CC, 0, 1)
    FIELD(STAT, TC, 1, 1)
REG32(IE, 0x234)
    FIELD(IE, CC_ENABLE, 0, 1)
REG32(ISE, 0x238)
REG32(CAPA, 0x240)
    FIELD(CAPA, VS33, 24, 1)
    FIELD(CAPA, VS30, 25, 1)
    FIELD(CAPA, VS18, 26, 1)
REG32(CUR_CAPA, 0x248)
REG32(REV, 0x2fc)
    FIELD(REV, SIS, 0, 1)

/* SDVS codes (TRM SD_HCTL): 1.8 V, 3.0 V, 3.3 V */
#define SDVS_1V8                5
#define SDVS_3V0                6
#define SDVS_3V3                7

#define SYSCONFIG_WRITABLE      (R_SYSCONFIG_AUTOIDLE_MASK | \
                                 R_SYSCONFIG_ENAWAKEUP_MASK | \
                                 R_SYSCONFIG_SIDLEMODE_MASK | \
                                 R_SYSCONFIG_CLOCKACTIVITY_MASK)
#define SYSTEST_WRITABLE        0x0001ffff
#define CON_WRITABLE            (MAKE_64BIT_MASK(0, 13) | \
                                 MAKE_64BIT_MASK(15, 7))
/* SD_CON modes this model does not have */
#define CON_UNIMP               (R_CON_HR_MASK | R_CON_STR_MASK | \
                                 R_CON_MODE_MASK | R_CON_CEATA_MASK | \
                                 R_CON_BOOT_ACK_MASK | R_CON_BOOT_CF0_MASK)
#define CAPA_VS_MASK            (R_CAPA_VS33_MASK | R_CAPA_VS30_MASK | \
                                 R_CAPA_VS18_MASK)
#define CUR_CAPA_WRITABLE       0x00ffffff

/* SD_CMD.RSP_TYPE: none, R2 (136 bits), 48 bits, 48 bits with busy */
#define RSP_TYPE_NONE           0
#define RSP_TYPE_136            1
#define RSP_TYPE_48_BUSY        3

/* SD_REV: VREV 0x31, SREV 1 (SD host specification 2.0); SIS below */
#define AM335X_HSMMC_REV        0x31010000

/*
 * SD_CAPA at power-on: timeout clock in MHz (TCU; its frequency field
 * is 0, Linux then times with the SD clock), 1024-byte blocks, high speed,
 * DMA, suspend/resume; no ADMA2.  The VS bits are software's to set to the
 * supplies the board gives the pads (U-Boot sets VS33 and VS18; Linux's
 * sdhci-omap whatever its pbias and vqmmc regulators allow, all three
 * with the dummy regulators of these boards).  They reset to what the
 * AM335x's VDDSHVx pads take: 3.3 V and 1.8 V.  Property "capa".
 */
#define AM335X_HSMMC_CAPA_RESET 0x05e10080

/*
 * How long SRA/SRC/SRD read 1.  The TRM gives no figure: the reset runs in
 * the 96 MHz functional clock domain and is synchronised back to the
 * interface clock.  10 us (about a thousand functional clocks) lets a
 * polling driver see the bit set, as sdhci_omap_reset() waits for before
 * waiting for it to clear; each wait gives up after 20 ms.
 *
 * On the chip the reset outlasts the CPU's next read of SD_SYSCTL, which
 * that driver relies on.  Without icount, host scheduling can stretch the
 * virtual time between the write and that read past 10 us (seen: the
 * eMMC's resets then cost the boot 20 ms each), so the bits end only on a
 * read after the 10 us that follows one that saw them set.
 */
#define AM335X_HSMMC_SRST_NS    (10 * SCALE_US)

/*
 * Timing.  The MMC functional clock is the peripheral PLL's 192 MHz
 * CLKOUTM2 over 2, 96 MHz (TRM 8.1.6.4, MMC_FCLK); SD_SYSCTL.CLKD divides
 * it (0 and 1 both pass it through, TRM 18.4.1.20).
 */
#define AM335X_HSMMC_FCLK_HZ    96000000

/*
 * A data block on each DAT line: start bit, CRC16, end bit (SD Physical
 * Layer Simplified Specification 3.01, 4.12.4 / figure 4-7); a command
 * with its response: 48 + N_CR (at least 2) + 48 or 136 clocks on CMD
 * (4.12.5).
 */
#define SD_BLOCK_FRAME_CLOCKS   18
#define SD_CMD_BITS             48
#define SD_NCR_CLOCKS           2

/*
 * The card, a SanDisk class 4 microSDHC (8 GB) like the one TI measured
 * with (AM335x PSP 04.06.00.06 performance guide):
 * - Read access time: an SDHC card's CSD has TAAC fixed at 1 ms and NSAC
 *   at 0 (SD Physical Layer Simplified Specification 3.01, 5.3.3, CSD
 *   version 2.0), the typical asynchronous part of the access time.
 * - Write rate: Speed Class 4, Pw >= 4 MB/s (MB = 1,000,000 bytes)
 *   writing sequentially within an allocation unit (same spec, 4.13.1).
 * - Allocation unit: 4 MiB, the AU_SIZE of SanDisk's 8 GB SDHC cards'
 *   SD Status (and the largest the spec allows an SDHC card up to
 *   32 GB, table 4-45).
 * - AU busy: the spec bounds the time a card may take on a new AU (it
 *   is part of its Pw measurement) but publishes no figure for a part;
 *   0 until one is measured.
 */
#define SD_READ_LATENCY_NS      (1 * SCALE_MS)
#define SD_WRITE_RATE           (4 * 1000 * 1000)
#define SD_AU_SIZE              (4 * MiB)
#define SD_AU_BUSY_NS           0

static const char *am335x_hsmmc_id(AM335xHsmmcState *s)
{
    return DEVICE(s)->canonical_path;
}

/* Accesses to the SDHCI core, at its own offsets */
static uint32_t am335x_hsmmc_core_read(AM335xHsmmcState *s, hwaddr offset,
                                       unsigned size)
{
    uint64_t value = 0;

    memory_region_dispatch_read(&s->sdhci.iomem, offset - SD_HOST_BASE,
                                &value, size_memop(size) | MO_LE,
                                MEMTXATTRS_UNSPECIFIED);
    return value;
}

static void am335x_hsmmc_core_write(AM335xHsmmcState *s, hwaddr offset,
                                    uint32_t value, unsigned size)
{
    memory_region_dispatch_write(&s->sdhci.iomem, offset - SD_HOST_BASE,
                                 value, size_memop(size) | MO_LE,
                                 MEMTXATTRS_UNSPECIFIED);
}

/* A block waits in the buffer (RX) or the buffer can take one (TX). */
static bool am335x_hsmmc_block_ready(AM335xHsmmcState *s, int dir)
{
    SDHCIState *c = &s->sdhci;
    bool read = c->trnmod & R_CMD_DDIR_MASK;

    /* With timing the block is there only once the bus has moved it. */
    if (s->timing &&
        qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) < s->ready_at[dir]) {
        return false;
    }
    if (dir == AM335X_HSMMC_RX) {
        return read && (c->prnsts & R_PSTATE_BRE_MASK);
    }
    return !read && (c->prnsts & R_PSTATE_WTA_MASK) &&
           (c->prnsts & R_PSTATE_BWE_MASK);
}

/* The next time something waits for: a gated block or a held TC */
static void am335x_hsmmc_timing_arm(AM335xHsmmcState *s)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    int64_t next = INT64_MAX;

    for (int dir = 0; dir < AM335X_HSMMC_NUM_DMA; dir++) {
        if (s->ready_at[dir] > now) {
            next = MIN(next, s->ready_at[dir]);
        }
    }
    /* A held TC waits for a held CC (am335x_hsmmc_data_timer()). */
    if (s->tc_held && !s->cc_held) {
        next = MIN(next, s->tc_at);
    }
    if (s->cc_held) {
        next = MIN(next, s->cc_at);
    }
    if (next != INT64_MAX) {
        timer_mod(&s->data_timer, next);
    } else {
        timer_del(&s->data_timer);
    }
}

static void am335x_hsmmc_timing_reset(AM335xHsmmcState *s)
{
    timer_del(&s->data_timer);
    am335x_timing_reset(&s->bus);
    am335x_timing_reset(&s->card);
    for (int dir = 0; dir < AM335X_HSMMC_NUM_DMA; dir++) {
        s->ready_at[dir] = 0;
    }
    s->buf_free_at = 0;
    s->wr_addr = 0;
    s->tc_at = 0;
    s->tc_hold = false;
    s->tc_held = false;
    s->cc_at = 0;
    s->cc_hold = false;
    s->cc_held = false;
}

/* The SD clock: the functional clock over SD_SYSCTL.CLKD */
static uint64_t am335x_hsmmc_bus_hz(AM335xHsmmcState *s)
{
    uint32_t clkd = FIELD_EX32(s->sdhci.clkcon, SYSCTL, CLKD);

    return s->fclk_hz / MAX(clkd, 1);
}

static unsigned am335x_hsmmc_bus_width(AM335xHsmmcState *s)
{
    if (FIELD_EX32(s->con, CON, DW8)) {
        return 8;
    }
    return FIELD_EX32(s->sdhci.hostctl1, HCTL, DTW) ? 4 : 1;
}

static int64_t am335x_hsmmc_clocks_ns(AM335xHsmmcState *s, uint64_t clocks)
{
    return muldiv64(clocks, NANOSECONDS_PER_SECOND, am335x_hsmmc_bus_hz(s));
}

/* One block on the DAT lines, from @start or when the bus is free */
static int64_t am335x_hsmmc_bus_block(AM335xHsmmcState *s, int64_t start,
                                      uint32_t blen)
{
    s->bus.bandwidth = am335x_hsmmc_bus_hz(s) * am335x_hsmmc_bus_width(s) /
                       8;
    return am335x_timing_book_at(&s->bus, start, blen,
                                 am335x_hsmmc_clocks_ns(s,
                                     SD_BLOCK_FRAME_CLOCKS));
}

/* The block the buffer holds or takes now is the transfer's last. */
static bool am335x_hsmmc_last_block(AM335xHsmmcState *s)
{
    SDHCIState *c = &s->sdhci;

    return !(c->trnmod & R_CMD_MSBS_MASK) ||
           ((c->trnmod & R_CMD_BCE_MASK) && c->blkcnt <= 1);
}

/*
 * Any command (@cmd the SD_CMD value) is on the CMD line for its 48 bits,
 * then, with a response, N_CR and the 48 or 136 response bits: its
 * command complete waits for the end.  A command with busy (R1b) and no
 * data holds DAT0 until the card's programming, if any, ends too: its
 * transfer complete waits for that.
 */
static void am335x_hsmmc_timing_cmd_line(AM335xHsmmcState *s, uint32_t cmd)
{
    unsigned rsp = FIELD_EX32(cmd, CMD, RSP_TYPE);
    uint64_t clocks = SD_CMD_BITS;

    if (rsp != RSP_TYPE_NONE) {
        clocks += SD_NCR_CLOCKS + (rsp == RSP_TYPE_136 ? 136 : 48);
    }
    s->cc_at = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
               am335x_hsmmc_clocks_ns(s, clocks);
    s->cc_hold = true;
    if (rsp == RSP_TYPE_48_BUSY && !FIELD_EX32(cmd, CMD, DP)) {
        s->tc_at = MAX(s->cc_at, s->card.busy_until);
        s->tc_hold = true;
    }
}

/*
 * An SD_STAT event (@mask) the core raised early, with *@hold armed: keep
 * it back, in *@held, until @at.  Returns whether it was held.
 */
static bool am335x_hsmmc_timing_hold(AM335xHsmmcState *s, uint32_t mask,
                                     bool *hold, bool *held, int64_t at)
{
    SDHCIState *c = &s->sdhci;

    if (!*hold || !(c->norintsts & mask)) {
        return false;
    }
    *hold = false;
    if (qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) >= at) {
        return false;
    }
    c->norintsts &= ~mask;
    *held = true;
    am335x_hsmmc_timing_arm(s);
    return true;
}

/*
 * The core reports a command complete as soon as it has the response:
 * keep it back until the response has crossed the CMD line.
 */
static bool am335x_hsmmc_timing_hold_cc(AM335xHsmmcState *s)
{
    if (!am335x_hsmmc_timing_hold(s, R_STAT_CC_MASK, &s->cc_hold,
                                  &s->cc_held, s->cc_at)) {
        return false;
    }
    trace_am335x_hsmmc_timing_cc(am335x_hsmmc_id(s), s->cc_at);
    return true;
}

/*
 * A data command was issued (@cmd the SD_CMD value), and its time on the
 * CMD line set (cc_at): the first block of a read arrives after the
 * command, the card's access time and its own bus time; a write's first
 * block may enter the buffer after the command.
 */
static void am335x_hsmmc_timing_command(AM335xHsmmcState *s, uint32_t cmd)
{
    int64_t issued = s->cc_at;
    uint32_t blen = FIELD_EX32(s->sdhci.blksize, BLK, BLEN);

    if (cmd & R_CMD_DDIR_MASK) {
        s->ready_at[AM335X_HSMMC_RX] =
            am335x_hsmmc_bus_block(s, issued + s->card_read_latency_ns,
                                   blen);
        s->buf_free_at = issued;
    } else {
        s->ready_at[AM335X_HSMMC_TX] = issued;
        s->wr_addr = s->card_block_addr ?
                     (uint64_t)s->sdhci.argument * 512 : s->sdhci.argument;
    }
    trace_am335x_hsmmc_timing_cmd(am335x_hsmmc_id(s),
                                  FIELD_EX32(cmd, CMD, INDX),
                                  am335x_hsmmc_bus_hz(s),
                                  am335x_hsmmc_bus_width(s));
}

/*
 * The EDMA took (read) or gave (write) a whole block.  A read's next block
 * crosses the bus into the buffer half this block's predecessor freed.
 * A written block crosses the bus once the card can take it (it holds one
 * block while it programs another), then the card programs it; the next
 * block may enter the buffer half the previous one left.
 */
static void am335x_hsmmc_timing_block(AM335xHsmmcState *s, int dir)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    uint32_t blen = FIELD_EX32(s->sdhci.blksize, BLK, BLEN);
    bool last = am335x_hsmmc_last_block(s);
    int64_t end, prev_end, prog_end, extra = 0;

    if (dir == AM335X_HSMMC_RX) {
        if (!last) {
            s->ready_at[dir] = am335x_hsmmc_bus_block(s, s->buf_free_at,
                                                      blen);
        }
        s->buf_free_at = now;
        return;
    }
    prev_end = s->bus.busy_until;
    end = am335x_hsmmc_bus_block(s, MAX(now, s->card.busy_until -
                                         am335x_timing_bytes_ns(&s->card,
                                                                blen)),
                                 blen);
    if (s->card_au_size && s->wr_addr % s->card_au_size == 0) {
        extra = s->card_au_busy_ns;
    }
    s->wr_addr += blen;
    prog_end = am335x_timing_book_at(&s->card, end, blen, extra);
    if (last) {
        s->tc_at = prog_end;
        s->tc_hold = true;
    } else {
        s->ready_at[dir] = prev_end;
    }
}

/*
 * The core reports a write's transfer complete as soon as it has the
 * last block: keep it back until the card's busy ends.
 */
static bool am335x_hsmmc_timing_hold_tc(AM335xHsmmcState *s)
{
    /* A transfer still on DAT has not raised its TC yet. */
    if ((s->sdhci.prnsts & R_PSTATE_DATI_MASK) ||
        !am335x_hsmmc_timing_hold(s, R_STAT_TC_MASK, &s->tc_hold,
                                  &s->tc_held, s->tc_at)) {
        return false;
    }
    trace_am335x_hsmmc_timing_tc(am335x_hsmmc_id(s), s->tc_at);
    return true;
}

static void am335x_hsmmc_update_dma(AM335xHsmmcState *s);

static void am335x_hsmmc_data_timer(void *opaque)
{
    AM335xHsmmcState *s = AM335X_HSMMC(opaque);
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    bool changed = false;

    if (s->cc_held && now >= s->cc_at) {
        s->cc_held = false;
        s->sdhci.norintsts |= R_STAT_CC_MASK;
        changed = true;
    }
    if (s->tc_held && !s->cc_held && now >= s->tc_at) {
        s->tc_held = false;
        s->sdhci.norintsts |= R_STAT_TC_MASK;
        changed = true;
    }
    if (changed) {
        /* The core recomputes its interrupt line on a write to SD_ISE. */
        am335x_hsmmc_core_write(s, A_ISE,
                                am335x_hsmmc_core_read(s, A_ISE, 4), 4);
    }
    am335x_hsmmc_update_dma(s);
}

static void am335x_hsmmc_set_dma(AM335xHsmmcState *s, int dir, bool level)
{
    if (s->dma_level[dir] == level) {
        return;
    }
    s->dma_level[dir] = level;
    trace_am335x_hsmmc_dma_request(am335x_hsmmc_id(s),
                                   dir == AM335X_HSMMC_RX ? "rx" : "tx",
                                   level);
    qemu_set_irq(s->dma_req[dir], level);
}

/*
 * Raise a request for each block that became ready since the last one was
 * taken.  The core fills the buffer synchronously (in the SD_CMD write or
 * in the data port access that empties the buffer), and every such change
 * reaches its interrupt line, so this runs from there and after each
 * access.
 */
static void am335x_hsmmc_update_dma(AM335xHsmmcState *s)
{
    for (int dir = 0; dir < AM335X_HSMMC_NUM_DMA; dir++) {
        if (!s->dma_enable || !am335x_hsmmc_block_ready(s, dir)) {
            s->dma_signalled[dir] = false;
            am335x_hsmmc_set_dma(s, dir, false);
        } else if (!s->dma_signalled[dir]) {
            /* A new block: a new edge, even if the line was still up */
            am335x_hsmmc_set_dma(s, dir, false);
            am335x_hsmmc_set_dma(s, dir, true);
            s->dma_signalled[dir] = true;
        }
    }
    if (s->timing) {
        am335x_hsmmc_timing_arm(s);
    }
}

/* The slot's switches, from the card on the SD bus */
static void am335x_hsmmc_update_card(AM335xHsmmcState *s, bool force)
{
    SDBus *bus = &s->sdhci.sdbus;
    bool inserted = sdbus_get_inserted(bus);
    bool readonly = inserted && sdbus_get_readonly(bus);

    if (force || s->cd_level != !inserted || s->wp_level != readonly) {
        trace_am335x_hsmmc_card(am335x_hsmmc_id(s), inserted, readonly);
    }
    if (force || s->cd_level != !inserted) {
        s->cd_level = !inserted;
        qemu_set_irq(s->card_detect, s->cd_level);
    }
    if (force || s->wp_level != readonly) {
        s->wp_level = readonly;
        qemu_set_irq(s->write_protect, s->wp_level);
    }
}

/*
 * The core's interrupt line.  It is recomputed on nearly every state
 * change of the core: command and transfer progress, and the card's
 * insertion and removal (sdhci_set_inserted()), which is where a QMP
 * eject or change shows.
 */
static void am335x_hsmmc_core_irq(void *opaque, int n, int level)
{
    AM335xHsmmcState *s = AM335X_HSMMC(opaque);
    SDHCIState *c = &s->sdhci;

    if (s->timing) {
        bool held = am335x_hsmmc_timing_hold_cc(s);

        if (am335x_hsmmc_timing_hold_tc(s) || held) {
            level = (c->norintsts & c->norintsigen) ||
                    (c->errintsts & c->errintsigen);
        }
    }
    trace_am335x_hsmmc_irq(am335x_hsmmc_id(s), level);
    qemu_set_irq(s->irq, level);
    am335x_hsmmc_update_dma(s);
    am335x_hsmmc_update_card(s, false);
}

static void am335x_hsmmc_apply_capa(AM335xHsmmcState *s)
{
    s->sdhci.capareg = deposit64(s->sdhci.capareg, 0, 32, s->capa);
    s->sdhci.maxcurr = deposit64(s->sdhci.maxcurr, 0, 32, s->cur_capa);
}

/*
 * What a software reset of the module clears besides the SD host core.
 * SD_CUR_CAPA keeps what software wrote, the TRM has it reinitialised by a
 * hard reset only; SD_CAPA's VS bits, set the same way, are taken to
 * behave alike.
 */
static void am335x_hsmmc_reset_regs(AM335xHsmmcState *s)
{
    am335x_hsmmc_timing_reset(s);
    s->srst_pending = 0;
    s->srst_seen = false;
    s->srst_deadline = 0;
    s->sysconfig = 0;
    s->csre = 0;
    s->systest = 0;
    s->con = 0;
    s->pwcnt = 0;
    s->sdmasa = 0;
    s->dma_enable = false;
    s->bus_power = false;
}

/* SD_SYSCONFIG.SOFTRESET: the whole module, done within the write */
static void am335x_hsmmc_softreset(AM335xHsmmcState *s)
{
    trace_am335x_hsmmc_reset(am335x_hsmmc_id(s), "SYSCONFIG.SOFTRESET");
    am335x_hsmmc_reset_regs(s);
    am335x_hsmmc_core_write(s, A_SYSCTL + 3, R_SYSCTL_SRA_MASK >> 24, 1);
    am335x_hsmmc_update_dma(s);
}

/* SD_SYSCTL as read: a reset seen running and past its time ends here. */
static void am335x_hsmmc_srst_read(AM335xHsmmcState *s)
{
    if (!s->srst_pending) {
        return;
    }
    if (s->srst_seen &&
        qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) >= s->srst_deadline) {
        trace_am335x_hsmmc_srst(am335x_hsmmc_id(s), s->srst_pending, 0);
        s->srst_pending = 0;
        s->srst_seen = false;
        return;
    }
    s->srst_seen = true;
}

/*
 * SD_SYSCTL SRA/SRC/SRD.  The core resets at once, and one line at a time
 * (it ignores a write with several bits), so each is passed on alone;
 * the bits read 1 until am335x_hsmmc_srst_read() ends the reset.
 */
static void am335x_hsmmc_srst(AM335xHsmmcState *s, uint8_t bits)
{
    trace_am335x_hsmmc_srst(am335x_hsmmc_id(s), bits, 1);
    if (bits & ((R_SYSCTL_SRA_MASK | R_SYSCTL_SRD_MASK) >> 24)) {
        am335x_hsmmc_timing_reset(s);
    } else if (bits & (R_SYSCTL_SRC_MASK >> 24)) {
        /* The CMD line's reset drops the command in flight. */
        s->cc_hold = false;
        s->cc_held = false;
        am335x_hsmmc_timing_arm(s);
    }
    if (bits & (R_SYSCTL_SRA_MASK >> 24)) {
        /*
         * The SD host registers (the core's; SDMASA, DE and SDBP kept
         * here) and, of the TI ones, SD_SYSCONFIG: sdhci-omap saves it
         * before SRA and restores it after.  The capabilities stay.
         */
        s->sysconfig = 0;
        s->sdmasa = 0;
        s->dma_enable = false;
        s->bus_power = false;
        am335x_hsmmc_core_write(s, A_SYSCTL + 3, R_SYSCTL_SRA_MASK >> 24, 1);
    } else {
        if (bits & (R_SYSCTL_SRC_MASK >> 24)) {
            am335x_hsmmc_core_write(s, A_SYSCTL + 3,
                                    R_SYSCTL_SRC_MASK >> 24, 1);
        }
        if (bits & (R_SYSCTL_SRD_MASK >> 24)) {
            am335x_hsmmc_core_write(s, A_SYSCTL + 3,
                                    R_SYSCTL_SRD_MASK >> 24, 1);
        }
    }
    s->srst_pending |= bits;
    s->srst_seen = false;
    s->srst_deadline = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                       AM335X_HSMMC_SRST_NS;
    am335x_hsmmc_update_dma(s);
}

/*
 * SD_CON.INIT and a write to SD_CMD: the card gets 80 clocks and no
 * command, then SD_STAT.CC is set as for a command.
 */
static void am335x_hsmmc_init_stream(AM335xHsmmcState *s)
{
    SDHCIState *c = &s->sdhci;

    trace_am335x_hsmmc_init_stream(am335x_hsmmc_id(s));
    if (c->norintstsen & R_IE_CC_ENABLE_MASK) {
        c->norintsts |= R_STAT_CC_MASK;
    }
    /* The core recomputes its interrupt line on a write to SD_ISE. */
    am335x_hsmmc_core_write(s, A_ISE, am335x_hsmmc_core_read(s, A_ISE, 4), 4);
}

static bool am335x_hsmmc_sdvs_supported(AM335xHsmmcState *s, unsigned sdvs)
{
    switch (sdvs) {
    case SDVS_1V8:
        return FIELD_EX32(s->capa, CAPA, VS18);
    case SDVS_3V0:
        return FIELD_EX32(s->capa, CAPA, VS30);
    case SDVS_3V3:
        return FIELD_EX32(s->capa, CAPA, VS33);
    default:
        return false;
    }
}

/*
 * SD_HCTL.  The core drops SDBP whenever its card-present bit is clear.
 * On both boards the slot's detect switch goes to a GPIO, not to the
 * controller (nor has the BBB's eMMC any), and Linux powers the bus and
 * waits for SDBP at probe, card or not; so SDBP follows the writes, and
 * as the SD specification wants, only with a supported SDVS.
 */
static void am335x_hsmmc_write_hctl(AM335xHsmmcState *s, hwaddr offset,
                                    uint32_t value, unsigned size)
{
    unsigned shift = (offset & 3) * 8;
    uint32_t mask = MAKE_64BIT_MASK(shift, size * 8);
    uint32_t v = value << shift;

    am335x_hsmmc_core_write(s, offset, value, size);
    if (mask & R_HCTL_SDBP_MASK) {
        s->bus_power = FIELD_EX32(v, HCTL, SDBP) &&
            am335x_hsmmc_sdvs_supported(s, FIELD_EX32(v, HCTL, SDVS));
    }
}

static void am335x_hsmmc_write_cmd(AM335xHsmmcState *s, hwaddr offset,
                                   uint32_t value, unsigned size)
{
    unsigned shift = (offset & 3) * 8;
    uint32_t mask = MAKE_64BIT_MASK(shift, size * 8);
    uint32_t cmd;

    /* As in SDHCI, the write to the top byte issues the command. */
    if (FIELD_EX32(s->con, CON, INIT) && (mask & 0xff000000)) {
        am335x_hsmmc_init_stream(s);
        return;
    }
    cmd = (am335x_hsmmc_core_read(s, A_CMD, 4) & ~mask) |
          ((uint32_t)value << shift);
    if (mask & R_CMD_DE_MASK) {
        /* The transfer mode half is ignored while DAT is busy. */
        if (!(s->sdhci.prnsts & R_PSTATE_DATI_MASK)) {
            s->dma_enable = value & R_CMD_DE_MASK;
        }
        if ((value & R_CMD_DE_MASK) && FIELD_EX32(s->con, CON, DMA_MNS)) {
            /*
             * What Linux asks for when it finds no EDMA channel: the
             * transfer then waits for an EDMA that never comes.
             */
            qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: SD_CMD.DE with "
                          "SD_CON.DMA_MnS: there is no bus-master DMA "
                          "(SD_HL_HWINFO.MADMA_EN = 0), the transfer waits "
                          "for the EDMA\n", __func__, am335x_hsmmc_id(s));
        }
        value &= ~R_CMD_DE_MASK;
    }
    /* The timing is set before the core moves (and shows) a block. */
    if (s->timing && (mask & 0xff000000)) {
        s->tc_hold = false;
        am335x_hsmmc_timing_cmd_line(s, cmd);
        if (s->dma_enable && FIELD_EX32(cmd, CMD, DP) &&
            !(s->sdhci.prnsts & R_PSTATE_DATI_MASK)) {
            am335x_hsmmc_timing_command(s, cmd);
        }
    }
    am335x_hsmmc_core_write(s, offset, value, size);
    /* The card's OCR: CCS says whether it takes block addresses. */
    if ((mask & 0xff000000) &&
        (FIELD_EX32(cmd, CMD, INDX) == 41 || FIELD_EX32(cmd, CMD, INDX) == 1) &&
        (s->sdhci.rspreg[0] & BIT(31))) {
        s->card_block_addr = s->sdhci.rspreg[0] & BIT(30);
    }
    am335x_hsmmc_update_dma(s);
}

static void am335x_hsmmc_write_sysctl(AM335xHsmmcState *s, hwaddr offset,
                                      uint32_t value, unsigned size)
{
    unsigned shift = (offset & 3) * 8;
    uint32_t mask = MAKE_64BIT_MASK(shift, size * 8);
    uint32_t v = value << shift;
    uint8_t bits = 0;

    if (mask & R_SYSCTL_SRST_MASK) {
        bits = FIELD_EX32(v, SYSCTL, SRST);
        /* The rest of the top byte is reserved. */
        v &= ~0xff000000u;
    }
    if (bits) {
        am335x_hsmmc_srst(s, bits);
    }
    if (mask & 0x00ffffff) {
        am335x_hsmmc_core_write(s, offset, v >> shift, size);
    }
}

/*
 * SD_DATA, by the CPU or the EDMA.  The core accepts an access when its
 * buffer is ready and the access continues where the last one ended; an
 * accepted access that reaches the block length completes the block.
 */
static uint32_t am335x_hsmmc_data_access(AM335xHsmmcState *s, hwaddr offset,
                                         uint32_t value, unsigned size,
                                         bool write)
{
    SDHCIState *c = &s->sdhci;
    int dir = write ? AM335X_HSMMC_TX : AM335X_HSMMC_RX;
    uint32_t blen = FIELD_EX32(c->blksize, BLK, BLEN);
    bool accepted = s->dma_enable && am335x_hsmmc_block_ready(s, dir) &&
                    (c->data_count & 3) == (offset & 3);
    uint32_t ret = 0;

    if (accepted) {
        bool last = c->data_count + size >= blen;

        /* SD_CON.SDMA_LnE: edge requests drop early, level ones late */
        if (!FIELD_EX32(s->con, CON, SDMA_LNE) || last) {
            am335x_hsmmc_set_dma(s, dir, false);
        }
        if (last) {
            s->dma_signalled[dir] = false;
            if (s->timing) {
                am335x_hsmmc_timing_block(s, dir);
            }
        }
    }
    if (write) {
        am335x_hsmmc_core_write(s, offset, value, size);
    } else {
        ret = am335x_hsmmc_core_read(s, offset, size);
    }
    /* A TC to hold comes within the access that completes the transfer. */
    s->tc_hold = false;
    am335x_hsmmc_update_dma(s);
    return ret;
}

/* The SD CRC7 (x^7 + x^3 + 1), as the card sends it */
static uint8_t am335x_hsmmc_crc7(const uint8_t *buf, size_t len)
{
    uint8_t crc = 0;

    for (size_t i = 0; i < len; i++) {
        for (int bit = 7; bit >= 0; bit--) {
            bool in = ((buf[i] >> bit) ^ (crc >> 6)) & 1;

            crc = (crc << 1) & 0x7f;
            if (in) {
                crc ^= 0x09;
            }
        }
    }
    return crc;
}

/*
 * SD_RSP10-76 after an R2: R[127:0], where the core holds R[127:8] in its
 * response registers' low 120 bits.
 */
static uint32_t am335x_hsmmc_rsp136(AM335xHsmmcState *s, int n)
{
    const uint32_t *r = s->sdhci.rspreg;
    uint8_t bytes[15];

    if (n > 0) {
        return r[n] << 8 | r[n - 1] >> 24;
    }
    for (int i = 0; i < 15; i++) {
        /* R[127:120] first, which is byte 2 of the core's RSP76 */
        int bit = (14 - i) * 8;

        bytes[i] = r[bit / 32] >> (bit % 32);
    }
    return r[0] << 8 | am335x_hsmmc_crc7(bytes, sizeof(bytes)) << 1 | 1;
}

static uint64_t am335x_hsmmc_host_read(AM335xHsmmcState *s, hwaddr offset,
                                       unsigned size)
{
    hwaddr reg = offset & ~3;
    uint32_t word;

    switch (reg) {
    case A_SDMASA:
        word = s->sdmasa;
        break;
    case A_CMD:
        word = am335x_hsmmc_core_read(s, reg, 4);
        word = FIELD_DP32(word, CMD, DE, s->dma_enable);
        break;
    case A_RSP10 ... A_RSP76:
        word = am335x_hsmmc_core_read(s, reg, 4);
        if (extract32(s->sdhci.cmdreg, R_CMD_RSP_TYPE_SHIFT - 16,
                      R_CMD_RSP_TYPE_LENGTH) == RSP_TYPE_136) {
            word = am335x_hsmmc_rsp136(s, (reg - A_RSP10) / 4);
        }
        break;
    case A_DATA:
        return am335x_hsmmc_data_access(s, offset, 0, size, false);
    case A_PSTATE:
        word = am335x_hsmmc_core_read(s, reg, 4);
        if (s->tc_held) {
            /* The card still holds DAT0 low: busy programming */
            word |= R_PSTATE_DATI_MASK | R_PSTATE_DLA_MASK;
        }
        if (s->cc_held) {
            /* The command or its response is still on the CMD line */
            word |= R_PSTATE_CMDI_MASK;
        }
        break;
    case A_HCTL:
        word = am335x_hsmmc_core_read(s, reg, 4);
        word = FIELD_DP32(word, HCTL, SDBP, s->bus_power);
        break;
    case A_SYSCTL:
        am335x_hsmmc_srst_read(s);
        word = am335x_hsmmc_core_read(s, reg, 4);
        word = FIELD_DP32(word, SYSCTL, SRST, s->srst_pending);
        break;
    case A_REV:
        word = am335x_hsmmc_core_read(s, reg, 4) & R_REV_SIS_MASK;
        word |= AM335X_HSMMC_REV;
        break;
    default:
        return am335x_hsmmc_core_read(s, offset, size);
    }
    return extract32(word, (offset & 3) * 8, size * 8);
}

static void am335x_hsmmc_host_write(AM335xHsmmcState *s, hwaddr offset,
                                    uint32_t value, unsigned size)
{
    hwaddr reg = offset & ~3;
    unsigned shift = (offset & 3) * 8;
    uint32_t mask = MAKE_64BIT_MASK(shift, size * 8);
    uint32_t v = value << shift;

    switch (reg) {
    case A_SDMASA:
        /* Kept from the core: it would start an SDMA transfer. */
        s->sdmasa = (s->sdmasa & ~mask) | v;
        break;
    case A_CMD:
        am335x_hsmmc_write_cmd(s, offset, value, size);
        break;
    case A_DATA:
        am335x_hsmmc_data_access(s, offset, value, size, true);
        break;
    case A_HCTL:
        am335x_hsmmc_write_hctl(s, offset, value, size);
        break;
    case A_SYSCTL:
        am335x_hsmmc_write_sysctl(s, offset, value, size);
        break;
    case A_CAPA:
        if ((v ^ s->capa) & mask & ~CAPA_VS_MASK) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: SD_CAPA bits other than "
                          "VS18/VS30/VS33 are read-only\n", __func__,
                          am335x_hsmmc_id(s));
        }
        s->capa = (s->capa & ~(mask & CAPA_VS_MASK)) | (v & CAPA_VS_MASK);
        am335x_hsmmc_apply_capa(s);
        break;
    case A_CUR_CAPA:
        s->cur_capa = ((s->cur_capa & ~mask) | v) & CUR_CAPA_WRITABLE;
        am335x_hsmmc_apply_capa(s);
        break;
    case A_REV:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: SD_REV is read-only\n",
                      __func__, am335x_hsmmc_id(s));
        break;
    default:
        am335x_hsmmc_core_write(s, offset, value, size);
        am335x_hsmmc_update_dma(s);
        break;
    }
}

static bool am335x_hsmmc_read_reg(AM335xHsmmcState *s, hwaddr reg,
                                  uint32_t *value)
{
    switch (reg) {
    case A_HL_REV:
    case A_HL_HWINFO:
    case A_HL_SYSCONFIG:
        *value = 0;
        break;
    case A_SYSCONFIG:
        *value = s->sysconfig;
        break;
    case A_SYSSTATUS:
        /* SOFTRESET completes within the write that starts it. */
        *value = R_SYSSTATUS_RESETDONE_MASK;
        break;
    case A_CSRE:
        *value = s->csre;
        break;
    case A_SYSTEST:
        *value = s->systest;
        break;
    case A_CON:
        *value = s->con;
        break;
    case A_PWCNT:
        *value = s->pwcnt;
        break;
    default:
        return false;
    }
    return true;
}

/* @v holds the written bytes in place, @mask says which they are. */
static bool am335x_hsmmc_write_reg(AM335xHsmmcState *s, hwaddr reg,
                                   uint32_t v, uint32_t mask)
{
    uint32_t old;

    switch (reg) {
    case A_HL_SYSCONFIG:
        qemu_log_mask(LOG_UNIMP, "%s: %s: SD_HL_SYSCONFIG is not "
                      "implemented on AM335x; write ignored\n", __func__,
                      am335x_hsmmc_id(s));
        break;
    case A_SYSCONFIG:
        v |= s->sysconfig & ~mask;
        if (FIELD_EX32(v, SYSCONFIG, SOFTRESET)) {
            am335x_hsmmc_softreset(s);
        } else {
            s->sysconfig = v & SYSCONFIG_WRITABLE;
        }
        break;
    case A_CSRE:
        s->csre = (s->csre & ~mask) | v;
        if (s->csre) {
            qemu_log_mask(LOG_UNIMP, "%s: %s: SD_CSRE card status checks "
                          "are not modelled\n", __func__, am335x_hsmmc_id(s));
        }
        break;
    case A_SYSTEST:
        s->systest = ((s->systest & ~mask) | v) & SYSTEST_WRITABLE;
        break;
    case A_CON:
        old = s->con;
        s->con = ((s->con & ~mask) | v) & CON_WRITABLE;
        if (s->con & ~old & CON_UNIMP) {
            qemu_log_mask(LOG_UNIMP, "%s: %s: SD_CON 0x%08" PRIx32 ": "
                          "modes in 0x%08" PRIx32 " are not modelled\n",
                          __func__, am335x_hsmmc_id(s), s->con,
                          s->con & CON_UNIMP);
        }
        break;
    case A_PWCNT:
        s->pwcnt = ((s->pwcnt & ~mask) | v) & R_PWCNT_PWRCNT_MASK;
        break;
    case A_HL_REV:
    case A_HL_HWINFO:
    case A_SYSSTATUS:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: write to read-only offset "
                      "0x%" HWADDR_PRIx "\n", __func__, am335x_hsmmc_id(s),
                      reg);
        break;
    default:
        return false;
    }
    return true;
}

static uint64_t am335x_hsmmc_read(void *opaque, hwaddr offset, unsigned size)
{
    AM335xHsmmcState *s = AM335X_HSMMC(opaque);
    uint64_t value;
    uint32_t word;

    if (offset >= SD_HOST_BASE && offset < SD_HOST_END) {
        value = am335x_hsmmc_host_read(s, offset, size);
    } else {
        if (!am335x_hsmmc_read_reg(s, offset & ~3, &word)) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: bad read offset 0x%"
                          HWADDR_PRIx "\n", __func__, am335x_hsmmc_id(s),
                          offset);
            word = 0;
        }
        value = extract32(word, (offset & 3) * 8, size * 8);
    }
    trace_am335x_hsmmc_read(am335x_hsmmc_id(s), offset, size, value);
    return value;
}

static void am335x_hsmmc_write(void *opaque, hwaddr offset, uint64_t value,
                               unsigned size)
{
    AM335xHsmmcState *s = AM335X_HSMMC(opaque);
    unsigned shift = (offset & 3) * 8;

    trace_am335x_hsmmc_write(am335x_hsmmc_id(s), offset, size, value);
    if (offset >= SD_HOST_BASE && offset < SD_HOST_END) {
        am335x_hsmmc_host_write(s, offset, value, size);
        return;
    }
    if (!am335x_hsmmc_write_reg(s, offset & ~3, (uint32_t)value << shift,
                                MAKE_64BIT_MASK(shift, size * 8))) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: bad write offset 0x%"
                      HWADDR_PRIx "\n", __func__, am335x_hsmmc_id(s), offset);
    }
}

static const MemoryRegionOps am335x_hsmmc_ops = {
    .read = am335x_hsmmc_read,
    .write = am335x_hsmmc_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    /* sdhci-omap uses 32-bit accesses, the sdhci core 8 and 16 as well. */
    .valid.min_access_size = 1,
    .valid.max_access_size = 4,
    .valid.unaligned = false,
    .impl.min_access_size = 1,
    .impl.max_access_size = 4,
};

static void am335x_hsmmc_reset_enter(Object *obj, ResetType type)
{
    AM335xHsmmcState *s = AM335X_HSMMC(obj);

    am335x_hsmmc_reset_regs(s);
    s->capa = s->capa_reset;
    s->cur_capa = 0;
    am335x_hsmmc_apply_capa(s);
    for (int dir = 0; dir < AM335X_HSMMC_NUM_DMA; dir++) {
        s->dma_level[dir] = false;
        s->dma_signalled[dir] = false;
    }
}

static void am335x_hsmmc_reset_exit(Object *obj, ResetType type)
{
    AM335xHsmmcState *s = AM335X_HSMMC(obj);

    /* The core and the card have been reset by now. */
    for (int dir = 0; dir < AM335X_HSMMC_NUM_DMA; dir++) {
        qemu_set_irq(s->dma_req[dir], false);
    }
    am335x_hsmmc_update_card(s, true);
}

static void am335x_hsmmc_realize(DeviceState *dev, Error **errp)
{
    AM335xHsmmcState *s = AM335X_HSMMC(dev);
    Object *core = OBJECT(&s->sdhci);

    /*
     * The core gets SD_CAPA but never SD_CMD.DE, and never SD_SDMASA,
     * so its SDMA engine stays idle; without ADMA2 in SD_CAPA it has no
     * other.
     */
    if (!object_property_set_uint(core, "sd-spec-version", 2, errp) ||
        !object_property_set_uint(core, "capareg", s->capa_reset, errp) ||
        !sysbus_realize(SYS_BUS_DEVICE(core), errp)) {
        return;
    }
    sysbus_connect_irq(SYS_BUS_DEVICE(core), 0,
                       qdev_get_gpio_in_named(dev, "sdhci-irq", 0));

    if (!s->fclk_hz) {
        error_setg(errp, "%s: fclk-hz must not be 0", TYPE_AM335X_HSMMC);
        return;
    }
    /* The bus's bandwidth follows the clock the driver programs. */
    am335x_timing_init(&s->bus, 0, 0);
    am335x_timing_init(&s->card, s->card_write_rate, 0);

    memory_region_init_io(&s->iomem, OBJECT(s), &am335x_hsmmc_ops, s,
                          TYPE_AM335X_HSMMC, AM335X_HSMMC_MMIO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->iomem);
}

static void am335x_hsmmc_init(Object *obj)
{
    AM335xHsmmcState *s = AM335X_HSMMC(obj);
    DeviceState *dev = DEVICE(obj);

    object_initialize_child(obj, "sdhci", &s->sdhci, TYPE_SYSBUS_SDHCI);
    timer_init_ns(&s->data_timer, QEMU_CLOCK_VIRTUAL,
                  am335x_hsmmc_data_timer, s);
    sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq);
    qdev_init_gpio_in_named(dev, am335x_hsmmc_core_irq, "sdhci-irq", 1);
    qdev_init_gpio_out_named(dev, &s->dma_req[AM335X_HSMMC_TX],
                             AM335X_HSMMC_DMA_TX, 1);
    qdev_init_gpio_out_named(dev, &s->dma_req[AM335X_HSMMC_RX],
                             AM335X_HSMMC_DMA_RX, 1);
    qdev_init_gpio_out_named(dev, &s->card_detect, AM335X_HSMMC_CARD_DETECT,
                             1);
    qdev_init_gpio_out_named(dev, &s->write_protect,
                             AM335X_HSMMC_WRITE_PROTECT, 1);
}

static int am335x_hsmmc_post_load(void *opaque, int version_id)
{
    AM335xHsmmcState *s = AM335X_HSMMC(opaque);

    if (s->srst_pending & ~(R_SYSCTL_SRST_MASK >> R_SYSCTL_SRST_SHIFT)) {
        return -EINVAL;
    }
    /* The core does not migrate its capability registers. */
    am335x_hsmmc_apply_capa(s);
    return 0;
}

static const VMStateDescription vmstate_am335x_hsmmc = {
    .name = TYPE_AM335X_HSMMC,
    .version_id = 3,
    .minimum_version_id = 3,
    .post_load = am335x_hsmmc_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(sysconfig, AM335xHsmmcState),
        VMSTATE_UINT32(csre, AM335xHsmmcState),
        VMSTATE_UINT32(systest, AM335xHsmmcState),
        VMSTATE_UINT32(con, AM335xHsmmcState),
        VMSTATE_UINT32(pwcnt, AM335xHsmmcState),
        VMSTATE_UINT32(sdmasa, AM335xHsmmcState),
        VMSTATE_UINT32(capa, AM335xHsmmcState),
        VMSTATE_UINT32(cur_capa, AM335xHsmmcState),
        VMSTATE_BOOL(dma_enable, AM335xHsmmcState),
        VMSTATE_BOOL(bus_power, AM335xHsmmcState),
        VMSTATE_UINT8(srst_pending, AM335xHsmmcState),
        VMSTATE_INT64(srst_deadline, AM335xHsmmcState),
        VMSTATE_BOOL(srst_seen, AM335xHsmmcState),
        VMSTATE_BOOL_ARRAY(dma_level, AM335xHsmmcState,
                           AM335X_HSMMC_NUM_DMA),
        VMSTATE_BOOL_ARRAY(dma_signalled, AM335xHsmmcState,
                           AM335X_HSMMC_NUM_DMA),
        VMSTATE_BOOL(cd_level, AM335xHsmmcState),
        VMSTATE_BOOL(wp_level, AM335xHsmmcState),
        VMSTATE_AM335X_TIMING(bus, AM335xHsmmcState),
        VMSTATE_AM335X_TIMING(card, AM335xHsmmcState),
        VMSTATE_TIMER(data_timer, AM335xHsmmcState),
        VMSTATE_INT64_ARRAY(ready_at, AM335xHsmmcState,
                            AM335X_HSMMC_NUM_DMA),
        VMSTATE_INT64(buf_free_at, AM335xHsmmcState),
        VMSTATE_UINT64(wr_addr, AM335xHsmmcState),
        VMSTATE_INT64(tc_at, AM335xHsmmcState),
        VMSTATE_BOOL(tc_hold, AM335xHsmmcState),
        VMSTATE_BOOL(tc_held, AM335xHsmmcState),
        VMSTATE_INT64(cc_at, AM335xHsmmcState),
        VMSTATE_BOOL(cc_hold, AM335xHsmmcState),
        VMSTATE_BOOL(cc_held, AM335xHsmmcState),
        VMSTATE_BOOL(card_block_addr, AM335xHsmmcState),
        VMSTATE_END_OF_LIST()
    }
};

static const Property am335x_hsmmc_properties[] = {
    DEFINE_PROP_UINT32("capa", AM335xHsmmcState, capa_reset,
                       AM335X_HSMMC_CAPA_RESET),
    /* The machine's timing=on|off, set by the SoC */
    DEFINE_PROP_BOOL("timing", AM335xHsmmcState, timing, false),
    /* MMC functional clock, before SD_SYSCTL.CLKD */
    DEFINE_PROP_UINT32("fclk-hz", AM335xHsmmcState, fclk_hz,
                       AM335X_HSMMC_FCLK_HZ),
    /* The card's figures; defaults: the SD card above */
    DEFINE_PROP_UINT64("card-read-latency-ns", AM335xHsmmcState,
                       card_read_latency_ns, SD_READ_LATENCY_NS),
    DEFINE_PROP_UINT64("card-write-rate", AM335xHsmmcState,
                       card_write_rate, SD_WRITE_RATE),
    DEFINE_PROP_UINT64("card-au-size", AM335xHsmmcState, card_au_size,
                       SD_AU_SIZE),
    DEFINE_PROP_UINT64("card-au-busy-ns", AM335xHsmmcState,
                       card_au_busy_ns, SD_AU_BUSY_NS),
};

static void am335x_hsmmc_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->realize = am335x_hsmmc_realize;
    dc->vmsd = &vmstate_am335x_hsmmc;
    dc->desc = "TI AM335x MMC/SD/SDIO host controller";
    set_bit(DEVICE_CATEGORY_STORAGE, dc->categories);
    rc->phases.enter = am335x_hsmmc_reset_enter;
    rc->phases.exit = am335x_hsmmc_reset_exit;
    device_class_set_props(dc, am335x_hsmmc_properties);
}

static const TypeInfo am335x_hsmmc_info = {
    .name = TYPE_AM335X_HSMMC,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AM335xHsmmcState),
    .instance_init = am335x_hsmmc_init,
    .class_init = am335x_hsmmc_class_init,
};

static void am335x_hsmmc_register_types(void)
{
    type_register_static(&am335x_hsmmc_info);
}

type_init(am335x_hsmmc_register_types)
