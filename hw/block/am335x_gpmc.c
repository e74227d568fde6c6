/*
 * TI AM335x general-purpose memory controller (GPMC)
 *
 * The GPMC drives up to seven external devices on chip selects 0-6, each
 * with a window in the first 512 MiB of the L3 map given by its CONFIG7
 * (BASEADDRESS, MASKADDRESS, CSVALID).  This model serves NAND flash:
 *
 * - GPMC_NAND_COMMAND_i/ADDRESS_i/DATA_i drive the command latch, the
 *   address latch and data cycles of the NAND on CS i; a data access to
 *   the CS window is a data cycle too.  An access wider than the 8-bit
 *   device is split into byte cycles, least significant byte first.
 * - The prefetch and write-posting engine moves TRANSFERCOUNT bytes
 *   between the NAND of ENGINECSSELECTOR and a 64-byte FIFO that the CPU
 *   or the EDMA (event 52, DMAMODE) empties or fills through the CS
 *   window.  PREFETCH_STATUS shows COUNTVALUE (bytes the engine has still
 *   to move on the NAND side) and FIFOPOINTER (bytes available to read,
 *   or free places to write).  FIFOEVENT is raised when the FIFO reaches
 *   FIFOTHRESHOLD, TERMINALCOUNT when COUNTVALUE reaches 0, which also
 *   clears STARTENGINE.  In DMA mode every FIFOTHRESHOLD bytes ready
 *   (read) or wanted (write) make one request edge.
 * - The ECC engine sees the bytes of the data cycles of ECCCS.  BCH
 *   (ECCALGORITHM = 1, t = 4, 8 or 16 by ECCBCHTSEL) keeps one remainder
 *   per sector, up to ECCTOPSECTOR + 1 sectors: the data bytes of the
 *   sectors come first, 512 bytes each, then each sector's spare area of
 *   ECCSIZE0 nibbles included in its codeword followed by ECCSIZE1
 *   nibbles left out.  This is the page layout Linux's omap2 driver uses
 *   with wrap modes 1 (read: ECC included, syndrome results) and 6
 *   (write: parity results); the other wrap modes are taken to arrange
 *   the spare area the same way.  See am335x_bch.c for the code.
 * - WAIT0/WAIT1 levels show in GPMC_STATUS; an edge of the polarity
 *   chosen in GPMC_CONFIG sets WAITnEDGEDETECTIONSTATUS.
 * - The Hamming code (ECCALGORITHM = 0) fills ECC1-9_RESULT in turn, see
 *   gpmc_hamming_byte().
 *
 * - Timing (property "timing", the machine's timing=on): the engine moves
 *   one byte per access cycle of the chip select, RDCYCLETIME (prefetch)
 *   or WRCYCLETIME (write posting) GPMC_FCLK cycles from its CONFIG5, plus
 *   CYCLE2CYCLEDELAY when CONFIG6 enables it for the same chip select.
 *   Prefetched bytes enter the FIFO only as their cycles end, and posted
 *   bytes leave it for the NAND likewise, so FIFOPOINTER, COUNTVALUE,
 *   FIFOEVENT, TERMINALCOUNT and the DMA requests follow the NAND bus
 *   and a driver polling them waits as long as the silicon makes it.
 *   The engine stalls while the FIFO is full (prefetch) or empty (write
 *   posting).  A timer wakes the engine only while its interrupts or the
 *   EDMA follow it; otherwise each guest access to the GPMC first brings
 *   it up to now, which the guest cannot tell from a timer.
 *
 * Not modelled: NOR/SRAM devices (their windows read 0 and log), the
 * time of data cycles outside the engine (NAND_DATA_i, or the window with
 * the engine off: a device cannot stall the CPU's access under icount,
 * see docs), the other CONFIG1-6 timings (stored only), 16-bit devices,
 * the timeout counter, synchronous bursts.
 *
 * Reference: AM335x Technical Reference Manual (SPRUH73), chapter 7.1.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/host-utils.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "hw/block/am335x_gpmc.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "trace.h"

/* TRM 7.1.5: GPMC registers */
REG32(REVISION, 0x000)
REG32(SYSCONFIG, 0x010)
    FIELD(SYSCONFIG, AUTOIDLE, 0, 1)
    FIELD(SYSCONFIG, SOFTRESET, 1, 1)
    FIELD(SYSCONFIG, SIDLEMODE, 3, 2)
REG32(SYSSTATUS, 0x014)
    FIELD(SYSSTATUS, RESETDONE, 0, 1)
REG32(IRQSTATUS, 0x018)
    FIELD(IRQSTATUS, FIFOEVENT, 0, 1)
    FIELD(IRQSTATUS, TERMINALCOUNT, 1, 1)
    FIELD(IRQSTATUS, WAIT0EDGE, 8, 1)
    FIELD(IRQSTATUS, WAIT1EDGE, 9, 1)
REG32(IRQENABLE, 0x01c)
REG32(TIMEOUT_CONTROL, 0x040)
REG32(ERR_ADDRESS, 0x044)
REG32(ERR_TYPE, 0x048)
REG32(CONFIG, 0x050)
    FIELD(CONFIG, WAIT0PINPOLARITY, 8, 1)
    FIELD(CONFIG, WAIT1PINPOLARITY, 9, 1)
REG32(STATUS, 0x054)
    FIELD(STATUS, EMPTYWRITEBUFFER, 0, 1)
    FIELD(STATUS, WAIT0, 8, 1)
    FIELD(STATUS, WAIT1, 9, 1)

/* Chip-select registers: CS i at CS_BASE + i * CS_STRIDE */
#define CS_BASE         0x060
#define CS_STRIDE       0x030
#define CS_END          (CS_BASE + AM335X_GPMC_NUM_CS * CS_STRIDE)
REG32(CONFIG1, 0x00)
    FIELD(CONFIG1, GPMCFCLKDIVIDER, 0, 2)
    FIELD(CONFIG1, DEVICESIZE, 12, 2)
    FIELD(CONFIG1, DEVICETYPE, 10, 2)
REG32(CONFIG5, 0x10)
    FIELD(CONFIG5, RDCYCLETIME, 0, 5)
    FIELD(CONFIG5, WRCYCLETIME, 8, 5)
REG32(CONFIG6, 0x14)
    FIELD(CONFIG6, CYCLE2CYCLESAMECSEN, 7, 1)
    FIELD(CONFIG6, CYCLE2CYCLEDELAY, 8, 4)
REG32(CONFIG7, 0x18)
    FIELD(CONFIG7, BASEADDRESS, 0, 6)
    FIELD(CONFIG7, CSVALID, 6, 1)
    FIELD(CONFIG7, MASKADDRESS, 8, 4)
REG32(NAND_COMMAND, 0x1c)
REG32(NAND_ADDRESS, 0x20)
REG32(NAND_DATA, 0x24)

REG32(PREFETCH_CONFIG1, 0x1e0)
    FIELD(PREFETCH_CONFIG1, ACCESSMODE, 0, 1)
    FIELD(PREFETCH_CONFIG1, DMAMODE, 2, 1)
    FIELD(PREFETCH_CONFIG1, ENABLEENGINE, 7, 1)
    FIELD(PREFETCH_CONFIG1, FIFOTHRESHOLD, 8, 7)
    FIELD(PREFETCH_CONFIG1, ENGINECSSELECTOR, 24, 3)
REG32(PREFETCH_CONFIG2, 0x1e4)
    FIELD(PREFETCH_CONFIG2, TRANSFERCOUNT, 0, 14)
REG32(PREFETCH_CONTROL, 0x1ec)
    FIELD(PREFETCH_CONTROL, STARTENGINE, 0, 1)
REG32(PREFETCH_STATUS, 0x1f0)
    FIELD(PREFETCH_STATUS, COUNTVALUE, 0, 14)
    FIELD(PREFETCH_STATUS, FIFOTHRESHOLDSTATUS, 16, 1)
    FIELD(PREFETCH_STATUS, FIFOPOINTER, 24, 7)
REG32(ECC_CONFIG, 0x1f4)
    FIELD(ECC_CONFIG, ECCENABLE, 0, 1)
    FIELD(ECC_CONFIG, ECCCS, 1, 3)
    FIELD(ECC_CONFIG, ECCTOPSECTOR, 4, 3)
    FIELD(ECC_CONFIG, ECC16B, 7, 1)
    FIELD(ECC_CONFIG, ECCWRAPMODE, 8, 4)
    FIELD(ECC_CONFIG, ECCBCHTSEL, 12, 2)
    FIELD(ECC_CONFIG, ECCALGORITHM, 16, 1)
REG32(ECC_CONTROL, 0x1f8)
    FIELD(ECC_CONTROL, ECCPOINTER, 0, 4)
    FIELD(ECC_CONTROL, ECCCLEAR, 8, 1)
REG32(ECC_SIZE_CONFIG, 0x1fc)
    FIELD(ECC_SIZE_CONFIG, ECCSIZE0, 12, 8)
    FIELD(ECC_SIZE_CONFIG, ECCSIZE1, 22, 8)
REG32(ECC1_RESULT, 0x200)
#define ECC_RESULT_END  (A_ECC1_RESULT + 4 * AM335X_GPMC_NUM_ECC_RESULTS)
/* BCH_RESULT0-3 of sector n at 0x240 + 0x10 * n, RESULT4-6 at 0x300 */
#define BCH_RESULT_LO   0x240
#define BCH_RESULT_HI   0x300
#define BCH_SECTOR_STRIDE 0x10
REG32(BCH_SWDATA, 0x2d0)

/*
 * Revision 6.0: omap-gpmc enables the WR_ACCESS/WR_DATA_MUX_BUS timings
 * for major > 5.
 */
#define GPMC_REVISION       0x00000060
#define IRQ_MASK            (R_IRQSTATUS_FIFOEVENT_MASK | \
                             R_IRQSTATUS_TERMINALCOUNT_MASK | \
                             R_IRQSTATUS_WAIT0EDGE_MASK | \
                             R_IRQSTATUS_WAIT1EDGE_MASK)
#define SECTOR_NIBBLES      (2 * 512)

/*
 * GPMC_FCLK: the L3 slow clock, CORE_CLKOUTM4 / 2 = 100 MHz (TRM 8.1.6.1;
 * Linux's omap-gpmc reads it as the "fck" of the gpmc hwmod, l3s_gclk).
 */
#define GPMC_FCLK_HZ        (100 * 1000 * 1000)

/* TRM 7.1.5: reset values of CONFIG1-7 */
static const uint32_t cs_config_reset[7] = {
    0x00000000, 0x00101001, 0x00020201, 0x10031003,
    0x010f1111, 0x0f070707, 0x00000f00,
};

static void gpmc_update_irq(AM335xGpmcState *s)
{
    bool level = s->irqstatus & s->irqenable & IRQ_MASK;

    trace_am335x_gpmc_irq(level);
    qemu_set_irq(s->irq, level);
}

/* Chip-select windows */

static void gpmc_map_cs(AM335xGpmcState *s, int cs)
{
    uint32_t c7 = s->cs_config[cs][6];
    MemoryRegion *mr = &s->cs_mem[cs];
    uint32_t mask = FIELD_EX32(c7, CONFIG7, MASKADDRESS);
    uint64_t base = (uint64_t)FIELD_EX32(c7, CONFIG7, BASEADDRESS) << 24;
    uint64_t size;

    /* TRM: only 0, 8, 0xc, 0xe, 0xf are valid masks (256 to 16 MiB) */
    switch (mask) {
    case 0x0:
    case 0x8:
    case 0xc:
    case 0xe:
    case 0xf:
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: CS%d MASKADDRESS 0x%x is not "
                      "a valid mask\n", __func__, cs, mask);
        break;
    }
    size = (uint64_t)(((~mask) & 0xf) + 1) << 24;
    /* The window is aligned on its size (the mask ignores the low bits). */
    base &= ~(size - 1);
    base &= AM335X_GPMC_SPACE_SIZE - 1;
    size = MIN(size, AM335X_GPMC_SPACE_SIZE - base);

    memory_region_transaction_begin();
    memory_region_set_enabled(mr, false);
    memory_region_set_size(mr, size);
    memory_region_set_address(mr, base);
    memory_region_set_enabled(mr, FIELD_EX32(c7, CONFIG7, CSVALID));
    memory_region_transaction_commit();
    trace_am335x_gpmc_cs_map(cs, base, size,
                             FIELD_EX32(c7, CONFIG7, CSVALID));
}

/* ECC engine */

static bool gpmc_ecc_on(AM335xGpmcState *s, int cs)
{
    return FIELD_EX32(s->ecc_config, ECC_CONFIG, ECCENABLE) &&
           FIELD_EX32(s->ecc_config, ECC_CONFIG, ECCCS) == cs;
}

static void gpmc_ecc_clear(AM335xGpmcState *s)
{
    memset(s->ecc_result, 0, sizeof(s->ecc_result));
    memset(s->bch, 0, sizeof(s->bch));
    s->ecc_nibbles = 0;
    s->ham_pos = 0;
}

static unsigned gpmc_bch_t(AM335xGpmcState *s)
{
    switch (FIELD_EX32(s->ecc_config, ECC_CONFIG, ECCBCHTSEL)) {
    case 0:
        return 4;
    case 1:
        return 8;
    default:
        return 16;
    }
}

static void gpmc_ecc_nibble(AM335xGpmcState *s, uint8_t nibble)
{
    unsigned sectors = FIELD_EX32(s->ecc_config, ECC_CONFIG,
                                  ECCTOPSECTOR) + 1;
    unsigned size0 = FIELD_EX32(s->ecc_size_config, ECC_SIZE_CONFIG,
                                ECCSIZE0);
    unsigned size1 = FIELD_EX32(s->ecc_size_config, ECC_SIZE_CONFIG,
                                ECCSIZE1);
    uint32_t pos = s->ecc_nibbles;
    int sector = -1;

    if (pos < sectors * SECTOR_NIBBLES) {
        sector = pos / SECTOR_NIBBLES;
    } else if (size0 + size1) {
        uint32_t spare = pos - sectors * SECTOR_NIBBLES;

        if (spare / (size0 + size1) < sectors &&
            spare % (size0 + size1) < size0) {
            sector = spare / (size0 + size1);
        }
    }
    if (sector >= 0) {
        am335x_bch_feed(&s->bch[sector], gpmc_bch_t(s), nibble, 4);
    }
    /* Past the page the counter stops: nothing more is processed. */
    if (pos < sectors * (SECTOR_NIBBLES + size0 + size1)) {
        s->ecc_nibbles++;
    }
}

/*
 * Hamming code: ECCj_RESULT accumulates the two-dimensional parity of
 * 2 * (ECCSIZE0 or ECCSIZE1 + 1) bytes (ECCjRESULTSIZE chooses), then
 * ECCPOINTER moves to the next result; past ECC9 the engine stops.  Bit k
 * (0-11) is P(2^k)e, bit 16 + k P(2^k)o: P1, P2, P4 are column parities
 * (the XOR of the bits whose bit number has bit k clear, or set), P8 to
 * P2048 row parities (the XOR of the bytes whose offset has bit k - 3
 * clear, or set).
 */
static void gpmc_hamming_byte(AM335xGpmcState *s, uint8_t byte)
{
    unsigned ptr = FIELD_EX32(s->ecc_control, ECC_CONTROL, ECCPOINTER);
    unsigned size_sel, size;
    uint32_t *res;

    if (ptr < 1 || ptr > AM335X_GPMC_NUM_ECC_RESULTS) {
        return;
    }
    res = &s->ecc_result[ptr - 1];
    size_sel = extract32(s->ecc_size_config, ptr - 1, 1);
    size = 2 * ((size_sel ? FIELD_EX32(s->ecc_size_config, ECC_SIZE_CONFIG,
                                       ECCSIZE1)
                          : FIELD_EX32(s->ecc_size_config, ECC_SIZE_CONFIG,
                                       ECCSIZE0)) + 1);
    for (unsigned k = 0; k < 3; k++) {
        uint8_t odd_bits = 0;

        for (unsigned b = 0; b < 8; b++) {
            if (b & BIT(k)) {
                odd_bits |= BIT(b);
            }
        }
        *res ^= (ctpop8(byte & odd_bits) & 1) << (16 + k);
        *res ^= (ctpop8(byte & ~odd_bits) & 1) << k;
    }
    if (ctpop8(byte) & 1) {
        for (unsigned k = 3; k < 12; k++) {
            *res ^= BIT((s->ham_pos & BIT(k - 3)) ? 16 + k : k);
        }
    }
    if (++s->ham_pos >= size) {
        s->ham_pos = 0;
        s->ecc_control = FIELD_DP32(s->ecc_control, ECC_CONTROL, ECCPOINTER,
                                    ptr + 1);
    }
}

static void gpmc_ecc_byte(AM335xGpmcState *s, int cs, uint8_t byte)
{
    if (!gpmc_ecc_on(s, cs)) {
        return;
    }
    if (!FIELD_EX32(s->ecc_config, ECC_CONFIG, ECCALGORITHM)) {
        gpmc_hamming_byte(s, byte);
        return;
    }
    gpmc_ecc_nibble(s, byte >> 4);
    gpmc_ecc_nibble(s, byte & 0xf);
}

/* NAND bus cycles */

static AM335xNandState *gpmc_nand(AM335xGpmcState *s, int cs)
{
    if (!s->nand[cs]) {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-gpmc: no NAND device on "
                      "CS%d\n", cs);
    }
    return s->nand[cs];
}

static uint8_t gpmc_data_in(AM335xGpmcState *s, int cs)
{
    AM335xNandState *nand = gpmc_nand(s, cs);
    uint8_t v = nand ? am335x_nand_read(nand) : 0xff;

    gpmc_ecc_byte(s, cs, v);
    return v;
}

static void gpmc_data_out(AM335xGpmcState *s, int cs, uint8_t v)
{
    AM335xNandState *nand = gpmc_nand(s, cs);

    gpmc_ecc_byte(s, cs, v);
    if (nand) {
        am335x_nand_write(nand, v);
    }
}

/* Prefetch and write-posting engine */

static int gpmc_engine_cs(AM335xGpmcState *s)
{
    return MIN(FIELD_EX32(s->prefetch_config1, PREFETCH_CONFIG1,
                          ENGINECSSELECTOR), AM335X_GPMC_NUM_CS - 1);
}

static bool gpmc_engine_write(AM335xGpmcState *s)
{
    return FIELD_EX32(s->prefetch_config1, PREFETCH_CONFIG1, ACCESSMODE);
}

static uint32_t gpmc_threshold(AM335xGpmcState *s)
{
    uint32_t th = FIELD_EX32(s->prefetch_config1, PREFETCH_CONFIG1,
                             FIFOTHRESHOLD);

    return MAX(1, MIN(th, AM335X_GPMC_FIFO_SIZE));
}

/* FIFOPOINTER: bytes to read, or places to write */
static uint32_t gpmc_fifo_pointer(AM335xGpmcState *s)
{
    if (gpmc_engine_write(s)) {
        return AM335X_GPMC_FIFO_SIZE - s->fifo_level;
    }
    return s->fifo_level;
}

static bool gpmc_fifo_ready(AM335xGpmcState *s)
{
    uint32_t th = gpmc_threshold(s);

    if (gpmc_engine_write(s)) {
        /*
         * Write posting wants data while bytes remain to be written
         * (COUNTVALUE counts the bytes in the FIFO too).
         */
        uint32_t wanted = s->count - MIN(s->count, s->fifo_level);

        return s->engine_running && wanted > 0 &&
               gpmc_fifo_pointer(s) >= MIN(th, wanted);
    }
    return s->fifo_level >= th || (s->count == 0 && s->fifo_level > 0);
}

/*
 * One access cycle of the engine's chip select, in ns: RDCYCLETIME or
 * WRCYCLETIME (0 reads as 1) of CONFIG5, and CYCLE2CYCLEDELAY if CONFIG6
 * asks for it between accesses to the same chip select (TRM 7.1.3.3.8).
 */
static int64_t gpmc_cycle_ns(AM335xGpmcState *s)
{
    const uint32_t *cfg = s->cs_config[gpmc_engine_cs(s)];
    uint32_t ticks = gpmc_engine_write(s) ?
                     FIELD_EX32(cfg[4], CONFIG5, WRCYCLETIME) :
                     FIELD_EX32(cfg[4], CONFIG5, RDCYCLETIME);

    ticks = MAX(ticks, 1);
    if (FIELD_EX32(cfg[5], CONFIG6, CYCLE2CYCLESAMECSEN)) {
        ticks += FIELD_EX32(cfg[5], CONFIG6, CYCLE2CYCLEDELAY);
    }
    return muldiv64(ticks, NANOSECONDS_PER_SECOND, s->fclk_hz);
}

static void gpmc_terminal_count(AM335xGpmcState *s)
{
    s->engine_running = false;
    s->irqstatus |= R_IRQSTATUS_TERMINALCOUNT_MASK;
    trace_am335x_gpmc_prefetch_done();
}

/*
 * With timing, the bytes whose cycles have ended by now: into the FIFO
 * (prefetch) or out of it to the NAND (write posting).
 */
static void gpmc_engine_advance(AM335xGpmcState *s)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    int cs = gpmc_engine_cs(s);

    if (!s->timing || !s->engine_running) {
        return;
    }
    s->bus.latency_ns = gpmc_cycle_ns(s);
    if (!gpmc_engine_write(s)) {
        while (s->count > 0 && s->fifo_level < AM335X_GPMC_FIFO_SIZE &&
               s->bus.busy_until + (int64_t)s->bus.latency_ns <= now) {
            uint32_t tail = (s->fifo_head + s->fifo_level) %
                            AM335X_GPMC_FIFO_SIZE;

            am335x_timing_book_at(&s->bus, 0, 0, 0);
            s->fifo[tail] = gpmc_data_in(s, cs);
            s->fifo_level++;
            s->count--;
        }
        if (s->count == 0) {
            gpmc_terminal_count(s);
        }
        return;
    }
    while (s->fifo_level > 0 &&
           s->bus.busy_until + (int64_t)s->bus.latency_ns <= now) {
        am335x_timing_book_at(&s->bus, 0, 0, 0);
        gpmc_data_out(s, cs, s->fifo[s->fifo_head]);
        s->fifo_head = (s->fifo_head + 1) % AM335X_GPMC_FIFO_SIZE;
        s->fifo_level--;
        s->count--;
    }
    if (s->count == 0) {
        gpmc_terminal_count(s);
    }
}

/*
 * Whether anything but the guest's own GPMC accesses follows the engine:
 * its interrupts or the EDMA's requests.  If not, no timer runs: every
 * access first catches the engine up to now (gpmc_engine_catch_up), which
 * gives the state a timer would have made, without stopping the vCPU at
 * each byte's cycle.
 */
static bool gpmc_engine_watched(AM335xGpmcState *s)
{
    return (s->irqenable & (R_IRQSTATUS_FIFOEVENT_MASK |
                            R_IRQSTATUS_TERMINALCOUNT_MASK)) ||
           FIELD_EX32(s->prefetch_config1, PREFETCH_CONFIG1, DMAMODE);
}

/* With timing, wake the engine when its FIFO reaches its next event. */
static void gpmc_engine_arm(AM335xGpmcState *s)
{
    uint32_t want, bytes;

    if (!s->timing || !s->engine_running || !gpmc_engine_watched(s)) {
        timer_del(&s->engine_timer);
        return;
    }
    if (!gpmc_engine_write(s)) {
        /* The threshold (or the last bytes), or a full FIFO */
        want = MIN(gpmc_threshold(s), s->fifo_level + s->count);
        if (s->fifo_level >= want) {
            want = MIN(AM335X_GPMC_FIFO_SIZE, s->fifo_level + s->count);
        }
        bytes = want - MIN(want, s->fifo_level);
    } else {
        /* Places for the next threshold's worth of bytes, else all out */
        want = MIN(gpmc_threshold(s),
                   s->count - MIN(s->count, s->fifo_level));
        bytes = want - MIN(want, gpmc_fifo_pointer(s));
        if (!bytes) {
            bytes = s->fifo_level;
        }
    }
    if (!bytes) {
        timer_del(&s->engine_timer);
        return;
    }
    timer_mod(&s->engine_timer,
              s->bus.busy_until + bytes * (int64_t)s->bus.latency_ns);
}

static void gpmc_engine_update(AM335xGpmcState *s)
{
    int cs = gpmc_engine_cs(s);

    gpmc_engine_advance(s);
    /* Prefetch: the FIFO is kept full while bytes remain. */
    if (s->engine_running && !gpmc_engine_write(s) && !s->timing) {
        while (s->count > 0 && s->fifo_level < AM335X_GPMC_FIFO_SIZE) {
            uint32_t tail = (s->fifo_head + s->fifo_level) %
                            AM335X_GPMC_FIFO_SIZE;

            s->fifo[tail] = gpmc_data_in(s, cs);
            s->fifo_level++;
            s->count--;
        }
        if (s->count == 0) {
            gpmc_terminal_count(s);
        }
    }
    if ((s->engine_running || s->fifo_level) && gpmc_fifo_ready(s)) {
        s->irqstatus |= R_IRQSTATUS_FIFOEVENT_MASK;
        if (FIELD_EX32(s->prefetch_config1, PREFETCH_CONFIG1, DMAMODE) &&
            !s->dma_signalled) {
            s->dma_signalled = true;
            s->dma_chunk = 0;
            trace_am335x_gpmc_dma_request();
            qemu_irq_pulse(s->dma_req);
        }
    }
    gpmc_update_irq(s);
    gpmc_engine_arm(s);
}

static void gpmc_engine_timer(void *opaque)
{
    gpmc_engine_update(AM335X_GPMC(opaque));
}

/* Before a guest access: the engine's cycles that have ended by now */
static void gpmc_engine_catch_up(AM335xGpmcState *s)
{
    if (s->timing && s->engine_running) {
        gpmc_engine_update(s);
    }
}

/* A byte the CPU or the EDMA took from or gave to the FIFO */
static void gpmc_fifo_moved(AM335xGpmcState *s)
{
    if (++s->dma_chunk >= gpmc_threshold(s)) {
        s->dma_signalled = false;
    }
}

static uint8_t gpmc_fifo_read(AM335xGpmcState *s)
{
    uint8_t v;

    if (gpmc_engine_write(s)) {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-gpmc: read of the FIFO in "
                      "write-posting mode\n");
        return 0;
    }
    gpmc_engine_advance(s);
    if (!s->fifo_level) {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-gpmc: prefetch FIFO "
                      "underflow\n");
        return 0;
    }
    if (s->timing && s->fifo_level == AM335X_GPMC_FIFO_SIZE) {
        /* The engine stalled on the full FIFO until now. */
        s->bus.busy_until = MAX(s->bus.busy_until,
                                qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
    }
    v = s->fifo[s->fifo_head];
    s->fifo_head = (s->fifo_head + 1) % AM335X_GPMC_FIFO_SIZE;
    s->fifo_level--;
    gpmc_fifo_moved(s);
    return v;
}

static void gpmc_fifo_write(AM335xGpmcState *s, uint8_t v)
{
    if (!gpmc_engine_write(s)) {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-gpmc: write to the FIFO in "
                      "prefetch mode\n");
        return;
    }
    if (!s->engine_running || !s->count) {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-gpmc: write-posting FIFO "
                      "write beyond TRANSFERCOUNT dropped\n");
        return;
    }
    if (s->timing) {
        /* The byte waits in the FIFO for its cycle on the NAND bus. */
        gpmc_engine_advance(s);
        if (s->fifo_level >= MIN(AM335X_GPMC_FIFO_SIZE, s->count)) {
            qemu_log_mask(LOG_GUEST_ERROR, "am335x-gpmc: write-posting FIFO "
                          "overflow; byte dropped\n");
            return;
        }
        if (!s->fifo_level) {
            /* The engine waited for data until now. */
            s->bus.busy_until = MAX(s->bus.busy_until,
                                    qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
        }
        s->fifo[(s->fifo_head + s->fifo_level) % AM335X_GPMC_FIFO_SIZE] = v;
        s->fifo_level++;
        gpmc_fifo_moved(s);
        return;
    }
    /* The NAND takes each byte at once: the FIFO never fills. */
    gpmc_data_out(s, gpmc_engine_cs(s), v);
    s->count--;
    gpmc_fifo_moved(s);
    if (!s->count) {
        gpmc_terminal_count(s);
    }
}

static void gpmc_engine_start(AM335xGpmcState *s)
{
    if (!FIELD_EX32(s->prefetch_config1, PREFETCH_CONFIG1, ENABLEENGINE)) {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-gpmc: STARTENGINE with the "
                      "engine disabled\n");
        return;
    }
    s->count = FIELD_EX32(s->prefetch_config2, PREFETCH_CONFIG2,
                          TRANSFERCOUNT);
    s->fifo_head = 0;
    s->fifo_level = 0;
    s->dma_signalled = false;
    s->dma_chunk = 0;
    s->engine_running = true;
    /* The engine's first cycle starts now. */
    s->bus.busy_until = MAX(s->bus.busy_until,
                            qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
    trace_am335x_gpmc_prefetch_start(gpmc_engine_cs(s),
                                     gpmc_engine_write(s), s->count);
    if (!s->count) {
        gpmc_terminal_count(s);
    }
}

static void gpmc_engine_stop(AM335xGpmcState *s)
{
    timer_del(&s->engine_timer);
    s->engine_running = false;
    s->fifo_head = 0;
    s->fifo_level = 0;
    s->dma_signalled = false;
}

/* Chip-select window: the FIFO, or data cycles */

static bool gpmc_window_is_fifo(AM335xGpmcState *s, int cs)
{
    return FIELD_EX32(s->prefetch_config1, PREFETCH_CONFIG1, ENABLEENGINE) &&
           gpmc_engine_cs(s) == cs;
}

static uint64_t gpmc_cs_read(AM335xGpmcState *s, int cs, unsigned size)
{
    uint64_t v = 0;

    for (unsigned i = 0; i < size; i++) {
        uint8_t b = gpmc_window_is_fifo(s, cs) ? gpmc_fifo_read(s)
                                                : gpmc_data_in(s, cs);

        v |= (uint64_t)b << (8 * i);
    }
    if (gpmc_window_is_fifo(s, cs)) {
        gpmc_engine_update(s);
    }
    return v;
}

static void gpmc_cs_write(AM335xGpmcState *s, int cs, uint64_t v,
                          unsigned size)
{
    for (unsigned i = 0; i < size; i++) {
        if (gpmc_window_is_fifo(s, cs)) {
            gpmc_fifo_write(s, v >> (8 * i));
        } else {
            gpmc_data_out(s, cs, v >> (8 * i));
        }
    }
    if (gpmc_window_is_fifo(s, cs)) {
        gpmc_engine_update(s);
    }
}

static uint64_t gpmc_window_read(void *opaque, hwaddr addr, unsigned size)
{
    AM335xGpmcWindow *w = opaque;
    AM335xGpmcState *s = w->gpmc;
    uint64_t v;

    if (!s->nand[w->cs]) {
        qemu_log_mask(LOG_UNIMP, "am335x-gpmc: CS%d: read of 0x%" HWADDR_PRIx
                      ", no device model\n", w->cs, addr);
        return 0;
    }
    gpmc_engine_catch_up(s);
    v = gpmc_cs_read(s, w->cs, size);
    trace_am335x_gpmc_window_read(w->cs, addr, size, v);
    return v;
}

static void gpmc_window_write(void *opaque, hwaddr addr, uint64_t v,
                              unsigned size)
{
    AM335xGpmcWindow *w = opaque;
    AM335xGpmcState *s = w->gpmc;

    if (!s->nand[w->cs]) {
        qemu_log_mask(LOG_UNIMP, "am335x-gpmc: CS%d: write to 0x%"
                      HWADDR_PRIx ", no device model\n", w->cs, addr);
        return;
    }
    trace_am335x_gpmc_window_write(w->cs, addr, size, v);
    gpmc_engine_catch_up(s);
    gpmc_cs_write(s, w->cs, v, size);
}

static const MemoryRegionOps gpmc_window_ops = {
    .read = gpmc_window_read,
    .write = gpmc_window_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 1,
    .valid.max_access_size = 4,
};

/* Register file */

static bool gpmc_bch_reg(hwaddr addr, unsigned *sector, unsigned *word)
{
    if (addr >= BCH_RESULT_LO &&
        addr < BCH_RESULT_LO + AM335X_GPMC_BCH_SECTORS * BCH_SECTOR_STRIDE) {
        *sector = (addr - BCH_RESULT_LO) / BCH_SECTOR_STRIDE;
        *word = (addr - BCH_RESULT_LO) % BCH_SECTOR_STRIDE / 4;
        return true;
    }
    if (addr >= BCH_RESULT_HI &&
        addr < BCH_RESULT_HI + AM335X_GPMC_BCH_SECTORS * BCH_SECTOR_STRIDE &&
        (addr - BCH_RESULT_HI) % BCH_SECTOR_STRIDE < 12) {
        *sector = (addr - BCH_RESULT_HI) / BCH_SECTOR_STRIDE;
        *word = 4 + (addr - BCH_RESULT_HI) % BCH_SECTOR_STRIDE / 4;
        return true;
    }
    return false;
}

static uint64_t gpmc_cs_reg_read(AM335xGpmcState *s, int cs, hwaddr reg,
                                 unsigned size)
{
    uint64_t v = 0;

    switch (reg) {
    case A_NAND_DATA:
        for (unsigned i = 0; i < size; i++) {
            v |= (uint64_t)gpmc_data_in(s, cs) << (8 * i);
        }
        return v;
    case A_NAND_COMMAND:
    case A_NAND_ADDRESS:
        /* write-only */
        return 0;
    default:
        if (reg <= A_CONFIG7) {
            return s->cs_config[cs][reg / 4];
        }
        qemu_log_mask(LOG_GUEST_ERROR, "%s: bad CS%d offset 0x%" HWADDR_PRIx
                      "\n", __func__, cs, reg);
        return 0;
    }
}

static uint64_t gpmc_read(void *opaque, hwaddr addr, unsigned size)
{
    AM335xGpmcState *s = opaque;
    unsigned sector, word;
    uint64_t v = 0;

    gpmc_engine_catch_up(s);
    if (addr >= CS_BASE && addr < CS_END) {
        int cs = (addr - CS_BASE) / CS_STRIDE;
        hwaddr reg = (addr - CS_BASE) % CS_STRIDE;

        if (reg == A_NAND_DATA || size == 4) {
            v = gpmc_cs_reg_read(s, cs, reg, size);
            trace_am335x_gpmc_read(addr, size, v);
            return v;
        }
    }
    if (size != 4) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %u-byte read of 0x%" HWADDR_PRIx
                      "\n", __func__, size, addr);
        return 0;
    }

    switch (addr) {
    case A_REVISION:
        v = GPMC_REVISION;
        break;
    case A_SYSCONFIG:
        v = s->sysconfig;
        break;
    case A_SYSSTATUS:
        v = R_SYSSTATUS_RESETDONE_MASK;
        break;
    case A_IRQSTATUS:
        v = s->irqstatus;
        break;
    case A_IRQENABLE:
        v = s->irqenable;
        break;
    case A_TIMEOUT_CONTROL:
        v = s->timeout_control;
        break;
    case A_ERR_ADDRESS:
    case A_ERR_TYPE:
        break;
    case A_CONFIG:
        v = s->config;
        break;
    case A_STATUS:
        v = R_STATUS_EMPTYWRITEBUFFER_MASK;
        v = FIELD_DP32(v, STATUS, WAIT0, s->wait_level[0]);
        v = FIELD_DP32(v, STATUS, WAIT1, s->wait_level[1]);
        break;
    case A_PREFETCH_CONFIG1:
        v = s->prefetch_config1;
        break;
    case A_PREFETCH_CONFIG2:
        v = s->prefetch_config2;
        break;
    case A_PREFETCH_CONTROL:
        v = s->engine_running;
        break;
    case A_PREFETCH_STATUS:
        if (s->timing) {
            gpmc_engine_update(s);
        }
        v = FIELD_DP32(v, PREFETCH_STATUS, COUNTVALUE, s->count);
        v = FIELD_DP32(v, PREFETCH_STATUS, FIFOTHRESHOLDSTATUS,
                       gpmc_fifo_pointer(s) >= gpmc_threshold(s));
        v = FIELD_DP32(v, PREFETCH_STATUS, FIFOPOINTER, gpmc_fifo_pointer(s));
        break;
    case A_ECC_CONFIG:
        v = s->ecc_config;
        break;
    case A_ECC_CONTROL:
        v = s->ecc_control;
        break;
    case A_ECC_SIZE_CONFIG:
        v = s->ecc_size_config;
        break;
    case A_ECC1_RESULT ... ECC_RESULT_END - 1:
        v = s->ecc_result[(addr - A_ECC1_RESULT) / 4];
        break;
    case A_BCH_SWDATA:
        v = s->bch_swdata;
        break;
    default:
        if (gpmc_bch_reg(addr, &sector, &word)) {
            v = s->bch[sector].w[word];
            break;
        }
        if (addr >= CS_BASE && addr < CS_END) {
            /* handled above */
            break;
        }
        qemu_log_mask(LOG_GUEST_ERROR, "%s: bad offset 0x%" HWADDR_PRIx "\n",
                      __func__, addr);
        break;
    }
    trace_am335x_gpmc_read(addr, size, v);
    return v;
}

static void gpmc_reset_regs(AM335xGpmcState *s);

static void gpmc_cs_reg_write(AM335xGpmcState *s, int cs, hwaddr reg,
                              uint64_t v, unsigned size)
{
    AM335xNandState *nand;

    switch (reg) {
    case A_NAND_COMMAND:
    case A_NAND_ADDRESS:
        nand = gpmc_nand(s, cs);
        for (unsigned i = 0; nand && i < size; i++) {
            if (reg == A_NAND_COMMAND) {
                am335x_nand_command(nand, v >> (8 * i));
            } else {
                am335x_nand_address(nand, v >> (8 * i));
            }
        }
        break;
    case A_NAND_DATA:
        for (unsigned i = 0; i < size; i++) {
            gpmc_data_out(s, cs, v >> (8 * i));
        }
        break;
    default:
        if (size != 4 || reg > A_CONFIG7) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: bad CS%d access at 0x%"
                          HWADDR_PRIx "\n", __func__, cs, reg);
            break;
        }
        s->cs_config[cs][reg / 4] = v;
        if (reg == A_CONFIG7) {
            s->cs_config[cs][6] &= R_CONFIG7_BASEADDRESS_MASK |
                                   R_CONFIG7_CSVALID_MASK |
                                   R_CONFIG7_MASKADDRESS_MASK;
            gpmc_map_cs(s, cs);
        } else if (reg == A_CONFIG1 &&
                   FIELD_EX32(v, CONFIG1, DEVICESIZE) != 0 && s->nand[cs]) {
            qemu_log_mask(LOG_UNIMP, "am335x-gpmc: CS%d: 16-bit device "
                          "width not modelled; the NAND is x8\n", cs);
        }
        break;
    }
}

static void gpmc_write(void *opaque, hwaddr addr, uint64_t v, unsigned size)
{
    AM335xGpmcState *s = opaque;
    bool was_on;

    trace_am335x_gpmc_write(addr, size, v);
    gpmc_engine_catch_up(s);
    if (addr >= CS_BASE && addr < CS_END) {
        gpmc_cs_reg_write(s, (addr - CS_BASE) / CS_STRIDE,
                          (addr - CS_BASE) % CS_STRIDE, v, size);
        return;
    }
    if (size != 4) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %u-byte write to 0x%" HWADDR_PRIx
                      "\n", __func__, size, addr);
        return;
    }

    switch (addr) {
    case A_SYSCONFIG:
        if (v & R_SYSCONFIG_SOFTRESET_MASK) {
            gpmc_reset_regs(s);
            break;
        }
        s->sysconfig = v & (R_SYSCONFIG_AUTOIDLE_MASK |
                            R_SYSCONFIG_SIDLEMODE_MASK);
        break;
    case A_IRQSTATUS:
        s->irqstatus &= ~(v & IRQ_MASK);
        gpmc_engine_update(s);
        break;
    case A_IRQENABLE:
        s->irqenable = v & IRQ_MASK;
        gpmc_update_irq(s);
        /* The interrupts may now need the engine's timer, or no more. */
        gpmc_engine_arm(s);
        break;
    case A_TIMEOUT_CONTROL:
        s->timeout_control = v & 0x1ff1;
        break;
    case A_CONFIG:
        s->config = v & 0x313;
        break;
    case A_PREFETCH_CONFIG1:
        if (extract32(v, 24, 3) >= AM335X_GPMC_NUM_CS) {
            qemu_log_mask(LOG_GUEST_ERROR, "am335x-gpmc: ENGINECSSELECTOR %u"
                          " is not a chip select\n", extract32(v, 24, 3));
        }
        if (FIELD_EX32(v, PREFETCH_CONFIG1, FIFOTHRESHOLD) >
            AM335X_GPMC_FIFO_SIZE) {
            qemu_log_mask(LOG_GUEST_ERROR, "am335x-gpmc: FIFOTHRESHOLD %u "
                          "beyond the FIFO\n",
                          FIELD_EX32(v, PREFETCH_CONFIG1, FIFOTHRESHOLD));
        }
        s->prefetch_config1 = v & 0xff8f7fbd;
        if (!FIELD_EX32(v, PREFETCH_CONFIG1, ENABLEENGINE)) {
            gpmc_engine_stop(s);
        }
        gpmc_engine_arm(s);
        break;
    case A_PREFETCH_CONFIG2:
        s->prefetch_config2 = v & R_PREFETCH_CONFIG2_TRANSFERCOUNT_MASK;
        break;
    case A_PREFETCH_CONTROL:
        if (v & R_PREFETCH_CONTROL_STARTENGINE_MASK) {
            gpmc_engine_start(s);
        } else {
            gpmc_engine_stop(s);
        }
        gpmc_engine_update(s);
        break;
    case A_ECC_CONFIG:
        was_on = FIELD_EX32(s->ecc_config, ECC_CONFIG, ECCENABLE);
        s->ecc_config = v & 0x13fff;
        if (!was_on && FIELD_EX32(v, ECC_CONFIG, ECCENABLE)) {
            s->ecc_nibbles = 0;
        }
        break;
    case A_ECC_CONTROL:
        if (v & R_ECC_CONTROL_ECCCLEAR_MASK) {
            gpmc_ecc_clear(s);
        }
        if (FIELD_EX32(v, ECC_CONTROL, ECCPOINTER) >
            AM335X_GPMC_NUM_ECC_RESULTS) {
            qemu_log_mask(LOG_GUEST_ERROR, "am335x-gpmc: ECCPOINTER %u "
                          "beyond the results\n",
                          (unsigned)FIELD_EX32(v, ECC_CONTROL, ECCPOINTER));
        }
        s->ecc_control = v & R_ECC_CONTROL_ECCPOINTER_MASK;
        s->ham_pos = 0;
        break;
    case A_ECC_SIZE_CONFIG:
        s->ecc_size_config = v & 0x3fcff1ff;
        break;
    case A_BCH_SWDATA:
        s->bch_swdata = v & 0xffff;
        break;
    case A_REVISION:
    case A_SYSSTATUS:
    case A_STATUS:
    case A_PREFETCH_STATUS:
    case A_ERR_ADDRESS:
    case A_ERR_TYPE:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: write to read-only 0x%"
                      HWADDR_PRIx "\n", __func__, addr);
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: bad offset 0x%" HWADDR_PRIx "\n",
                      __func__, addr);
        break;
    }
}

static const MemoryRegionOps gpmc_ops = {
    .read = gpmc_read,
    .write = gpmc_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 1,
    .valid.max_access_size = 4,
};

/* WAIT pins: levels, and edges of the polarity chosen in GPMC_CONFIG */
static void gpmc_wait_in(void *opaque, int n, int level)
{
    AM335xGpmcState *s = opaque;
    bool falling = s->config & BIT(R_CONFIG_WAIT0PINPOLARITY_SHIFT + n);

    if (s->wait_level[n] == !!level) {
        return;
    }
    s->wait_level[n] = level;
    trace_am335x_gpmc_wait(n, level);
    if (!!level != falling) {
        s->irqstatus |= BIT(R_IRQSTATUS_WAIT0EDGE_SHIFT + n);
        gpmc_update_irq(s);
    }
}

void am335x_gpmc_attach_nand(AM335xGpmcState *s, int cs,
                             AM335xNandState *nand)
{
    s->nand[cs] = nand;
    qdev_connect_gpio_out_named(DEVICE(nand), AM335X_NAND_RB, 0,
                                qdev_get_gpio_in_named(DEVICE(s),
                                                       AM335X_GPMC_WAIT, 0));
}

static void gpmc_reset_regs(AM335xGpmcState *s)
{
    s->sysconfig = 0;
    s->irqstatus = 0;
    s->irqenable = 0;
    s->timeout_control = 0x1ff0;
    s->config = 0x00000a00;
    for (int cs = 0; cs < AM335X_GPMC_NUM_CS; cs++) {
        memcpy(s->cs_config[cs], cs_config_reset, sizeof(cs_config_reset));
    }
    /* CS0 is valid out of reset, 16 MiB at 0, for booting from it. */
    s->cs_config[0][6] |= R_CONFIG7_CSVALID_MASK;
    s->prefetch_config1 = 0x00004000;
    s->prefetch_config2 = 0;
    gpmc_engine_stop(s);
    am335x_timing_reset(&s->bus);
    s->count = 0;
    s->dma_chunk = 0;
    s->ecc_config = 0;
    s->ecc_control = 0;
    s->ecc_size_config = 0x3fcff000;
    s->bch_swdata = 0;
    gpmc_ecc_clear(s);
    for (int cs = 0; cs < AM335X_GPMC_NUM_CS; cs++) {
        gpmc_map_cs(s, cs);
    }
}

static void am335x_gpmc_reset_hold(Object *obj, ResetType type)
{
    gpmc_reset_regs(AM335X_GPMC(obj));
}

static void am335x_gpmc_reset_exit(Object *obj, ResetType type)
{
    AM335xGpmcState *s = AM335X_GPMC(obj);

    gpmc_update_irq(s);
    qemu_set_irq(s->dma_req, 0);
}

static void am335x_gpmc_init(Object *obj)
{
    AM335xGpmcState *s = AM335X_GPMC(obj);
    SysBusDevice *sbd = SYS_BUS_DEVICE(obj);

    memory_region_init_io(&s->iomem, obj, &gpmc_ops, s, "am335x-gpmc",
                          AM335X_GPMC_MMIO_SIZE);
    sysbus_init_mmio(sbd, &s->iomem);
    memory_region_init(&s->space, obj, "am335x-gpmc.space",
                       AM335X_GPMC_SPACE_SIZE);
    sysbus_init_mmio(sbd, &s->space);
    for (int cs = 0; cs < AM335X_GPMC_NUM_CS; cs++) {
        g_autofree char *name = g_strdup_printf("am335x-gpmc.cs%d", cs);

        s->window[cs].gpmc = s;
        s->window[cs].cs = cs;
        memory_region_init_io(&s->cs_mem[cs], obj, &gpmc_window_ops,
                              &s->window[cs], name, 16 * MiB);
        memory_region_set_enabled(&s->cs_mem[cs], false);
        memory_region_add_subregion(&s->space, 0, &s->cs_mem[cs]);
    }
    sysbus_init_irq(sbd, &s->irq);
    qdev_init_gpio_out_named(DEVICE(obj), &s->dma_req, AM335X_GPMC_DMA, 1);
    qdev_init_gpio_in_named(DEVICE(obj), gpmc_wait_in, AM335X_GPMC_WAIT,
                            AM335X_GPMC_NUM_WAIT);
    timer_init_ns(&s->engine_timer, QEMU_CLOCK_VIRTUAL, gpmc_engine_timer, s);
    /* The pins are pulled up: a NAND is ready, or nothing is there. */
    for (int i = 0; i < AM335X_GPMC_NUM_WAIT; i++) {
        s->wait_level[i] = true;
    }
}

static int am335x_gpmc_post_load(void *opaque, int version_id)
{
    AM335xGpmcState *s = opaque;

    for (int cs = 0; cs < AM335X_GPMC_NUM_CS; cs++) {
        gpmc_map_cs(s, cs);
    }
    if (s->fifo_head >= AM335X_GPMC_FIFO_SIZE ||
        s->fifo_level > AM335X_GPMC_FIFO_SIZE) {
        return -EINVAL;
    }
    return 0;
}

static const VMStateDescription vmstate_am335x_bch_rem = {
    .name = "am335x-bch-rem",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_ARRAY(w, AM335xBchRem, AM335X_BCH_WORDS),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_am335x_gpmc = {
    .name = TYPE_AM335X_GPMC,
    .version_id = 2,
    .minimum_version_id = 2,
    .post_load = am335x_gpmc_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(sysconfig, AM335xGpmcState),
        VMSTATE_UINT32(irqstatus, AM335xGpmcState),
        VMSTATE_UINT32(irqenable, AM335xGpmcState),
        VMSTATE_UINT32(timeout_control, AM335xGpmcState),
        VMSTATE_UINT32(config, AM335xGpmcState),
        VMSTATE_UINT32_2DARRAY(cs_config, AM335xGpmcState,
                               AM335X_GPMC_NUM_CS, 7),
        VMSTATE_BOOL_ARRAY(wait_level, AM335xGpmcState,
                           AM335X_GPMC_NUM_WAIT),
        VMSTATE_UINT32(prefetch_config1, AM335xGpmcState),
        VMSTATE_UINT32(prefetch_config2, AM335xGpmcState),
        VMSTATE_BOOL(engine_running, AM335xGpmcState),
        VMSTATE_UINT8_ARRAY(fifo, AM335xGpmcState, AM335X_GPMC_FIFO_SIZE),
        VMSTATE_UINT32(fifo_head, AM335xGpmcState),
        VMSTATE_UINT32(fifo_level, AM335xGpmcState),
        VMSTATE_UINT32(count, AM335xGpmcState),
        VMSTATE_BOOL(dma_signalled, AM335xGpmcState),
        VMSTATE_UINT32(dma_chunk, AM335xGpmcState),
        VMSTATE_UINT32(ecc_config, AM335xGpmcState),
        VMSTATE_UINT32(ecc_control, AM335xGpmcState),
        VMSTATE_UINT32(ecc_size_config, AM335xGpmcState),
        VMSTATE_UINT32_ARRAY(ecc_result, AM335xGpmcState,
                             AM335X_GPMC_NUM_ECC_RESULTS),
        VMSTATE_UINT32(bch_swdata, AM335xGpmcState),
        VMSTATE_UINT32(ecc_nibbles, AM335xGpmcState),
        VMSTATE_UINT32(ham_pos, AM335xGpmcState),
        VMSTATE_STRUCT_ARRAY(bch, AM335xGpmcState, AM335X_GPMC_BCH_SECTORS,
                             1, vmstate_am335x_bch_rem, AM335xBchRem),
        VMSTATE_AM335X_TIMING(bus, AM335xGpmcState),
        VMSTATE_TIMER(engine_timer, AM335xGpmcState),
        VMSTATE_END_OF_LIST()
    }
};

static const Property am335x_gpmc_properties[] = {
    /* The machine's timing=on|off, set by the SoC */
    DEFINE_PROP_BOOL("timing", AM335xGpmcState, timing, false),
    /* GPMC_FCLK, the unit of the CONFIG1-6 timings */
    DEFINE_PROP_UINT32("fclk-hz", AM335xGpmcState, fclk_hz, GPMC_FCLK_HZ),
};

static void am335x_gpmc_realize(DeviceState *dev, Error **errp)
{
    AM335xGpmcState *s = AM335X_GPMC(dev);

    if (!s->fclk_hz) {
        error_setg(errp, "%s: fclk-hz must not be 0", TYPE_AM335X_GPMC);
        return;
    }
    am335x_timing_init(&s->bus, 0, 0);
}

static void am335x_gpmc_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    ResettableClass *rc = RESETTABLE_CLASS(oc);

    dc->realize = am335x_gpmc_realize;
    device_class_set_props(dc, am335x_gpmc_properties);
    dc->vmsd = &vmstate_am335x_gpmc;
    dc->desc = "TI AM335x general-purpose memory controller";
    /* Part of the SoC */
    dc->user_creatable = false;
    rc->phases.hold = am335x_gpmc_reset_hold;
    rc->phases.exit = am335x_gpmc_reset_exit;
}

static const TypeInfo am335x_gpmc_info = {
    .name = TYPE_AM335X_GPMC,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AM335xGpmcState),
    .instance_init = am335x_gpmc_init,
    .class_init = am335x_gpmc_class_init,
};

static void am335x_gpmc_register_types(void)
{
    type_register_static(&am335x_gpmc_info);
}

type_init(am335x_gpmc_register_types)
