/*
 * TI AM335x EDMA3 transfer controller (TPTC)
 *
 * A transfer controller is the data mover of the EDMA3: the channel
 * controller (TPCC) hands it one transfer request (TR) at a time, an
 * array or a frame of arrays with source and destination B-indexes, and
 * the TC reads the data from the source and writes it to the destination
 * through its bus master port.  When a TR is done the TC returns the
 * TR's transfer completion code (TCC) to the TPCC, which turns it into an
 * interrupt or a chained event.
 *
 * Here a TR moves in bounded steps from a timer on the virtual clock, at
 * most AM335X_EDMA_TPTC_STEP_BYTES per step, so that a 4 GiB TR neither
 * stalls QEMU nor escapes a reset.  With the machine's timing=on each
 * step takes the time its bytes take on the TC's bus port (property
 * "bandwidth", see below) and the TR completes when its last step does;
 * otherwise the steps follow each other 1 ns apart.  Either way a TR
 * starts a cycle of the TC's clock after the channel controller hands it
 * over (AM335X_EDMA_TPTC_TR_START_NS).  Data goes through a
 * small bounce buffer with address_space_read/write on the "dma-mr"
 * region; between a device FIFO and RAM, the RAM side of several arrays
 * moves in one access (am335x_edma_tptc_fifo_arrays()).  A failed access
 * sets ERRSTAT.BUSERR and ERRDET; the TR then moves no more data but still
 * completes and returns its TCC, so that the channel controller and its
 * software do not wait forever.  (On the silicon the TC keeps issuing the
 * TR's accesses; their data is undefined.)
 *
 * Constant addressing mode (SAM/DAM) wraps the address within the FIFO
 * width; a TR that breaks its 32-byte alignment rule sets ERRSTAT.TRERR
 * and moves nothing.
 *
 * Not modelled: the program and destination FIFO register set pipeline
 * (one TR at a time; the destination FIFO registers show the TR in
 * progress), read rate throttling (RDRATE is kept), burst sizes, bus
 * priorities and the memory protection proxy (SAMPPRXY reads supervisor).
 *
 * Reference: AM335x Technical Reference Manual (SPRUH73), chapter 11
 * (11.3.1.2 and 11.4.2 for the transfer controller).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qapi/error.h"
#include "hw/dma/am335x_edma_tptc.h"
#include "hw/misc/am335x_timing.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "trace.h"

/* TRM 11.4.2 (EDMA3TC registers) */
REG32(PID, 0x00)
REG32(TCCFG, 0x04)
    FIELD(TCCFG, FIFOSIZE, 0, 3)
    FIELD(TCCFG, BUSWIDTH, 4, 2)
    FIELD(TCCFG, DREGDEPTH, 8, 2)
REG32(SYSCONFIG, 0x10)
    FIELD(SYSCONFIG, SOFTRESET, 0, 1)
    FIELD(SYSCONFIG, IDLEMODE, 2, 2)
    FIELD(SYSCONFIG, STANDBYMODE, 4, 2)
REG32(TCSTAT, 0x100)
    FIELD(TCSTAT, PROGBUSY, 0, 1)
    FIELD(TCSTAT, SRCACTV, 1, 1)
    FIELD(TCSTAT, WSACTV, 2, 1)
    FIELD(TCSTAT, DSTACTV, 4, 3)
    FIELD(TCSTAT, RSVD_ONE, 8, 1)
REG32(ERRSTAT, 0x120)
    FIELD(ERRSTAT, BUSERR, 0, 1)
    FIELD(ERRSTAT, TRERR, 2, 1)
    FIELD(ERRSTAT, MMRAERR, 3, 1)
REG32(ERREN, 0x124)
REG32(ERRCLR, 0x128)
REG32(ERRDET, 0x12c)
    FIELD(ERRDET, STAT, 0, 4)
    FIELD(ERRDET, TCC, 8, 6)
    FIELD(ERRDET, TCINTEN, 16, 1)
    FIELD(ERRDET, TCCHEN, 17, 1)
REG32(ERRCMD, 0x130)
    FIELD(ERRCMD, EVAL, 0, 1)
REG32(RDRATE, 0x140)
    FIELD(RDRATE, RDRATE, 0, 3)
REG32(SAOPT, 0x240)
    FIELD(XOPT, SAM, 0, 1)
    FIELD(XOPT, DAM, 1, 1)
    FIELD(XOPT, PRI, 4, 3)
    FIELD(XOPT, FWID, 8, 3)
    FIELD(XOPT, TCC, 12, 6)
    FIELD(XOPT, TCINTEN, 20, 1)
    FIELD(XOPT, TCCHEN, 22, 1)
REG32(SASRC, 0x244)
REG32(SACNT, 0x248)
REG32(SADST, 0x24c)
REG32(SABIDX, 0x250)
REG32(SAMPPRXY, 0x254)
    FIELD(SAMPPRXY, PRIV, 8, 1)
REG32(SACNTRLD, 0x258)
REG32(SASRCBREF, 0x25c)
REG32(SADSTBREF, 0x260)
REG32(DFCNTRLD, 0x280)
REG32(DFSRCBREF, 0x284)
REG32(DFDSTBREF, 0x288)
/* Destination FIFO register set n at + 0x40 * n, n = 0..3 */
REG32(DFOPT0, 0x300)
REG32(DFSRC0, 0x304)
REG32(DFCNT0, 0x308)
REG32(DFDST0, 0x30c)
REG32(DFBIDX0, 0x310)
REG32(DFMPPRXY0, 0x314)
REG32(DFOPT3, 0x3c0)
REG32(DFMPPRXY3, 0x3d4)

/* The PaRAM OPT fields a TR carries (TRM 11.3.3.1) */
FIELD(OPT, SAM, 0, 1)
FIELD(OPT, DAM, 1, 1)
FIELD(OPT, FWID, 8, 3)
FIELD(OPT, TCC, 12, 6)

/* PID as the silicon reports it; ti-sysc matches it under 0xffffefff */
#define TPTC_PID                0x40006c00
/*
 * TRM 11.4.2 (TCCFG) for the AM335x TCs: a 512-byte data
 * FIFO, a 128-bit (16-byte) bus and four destination FIFO register sets.
 */
#define TPTC_TCCFG              ((4 << R_TCCFG_FIFOSIZE_SHIFT) | \
                                 (2 << R_TCCFG_BUSWIDTH_SHIFT) | \
                                 (2 << R_TCCFG_DREGDEPTH_SHIFT))
#define DF_STRIDE               0x40

/* Idle and standby modes; SOFTRESET self-clears (ti-sysc polls it) */
#define SYSCONFIG_WRITABLE      (R_SYSCONFIG_IDLEMODE_MASK | \
                                 R_SYSCONFIG_STANDBYMODE_MASK)
#define ERR_ALL                 (R_ERRSTAT_BUSERR_MASK | \
                                 R_ERRSTAT_TRERR_MASK | \
                                 R_ERRSTAT_MMRAERR_MASK)

/* TRM 11.4.2 (ERRDET): STAT is 1-7 for a read error, 8-F for a write */
#define ERRDET_STAT_READ        0x1
#define ERRDET_STAT_WRITE       0x8

/* TRM 11.3 (constant addressing mode): 32-byte aligned addresses */
#define CONST_ALIGN             32

/*
 * The TC's throughput with timing=on: its read and write ports are
 * 128 bits wide (TCCFG.BUSWIDTH, TRM 11.4.2) and run on the L3 fast clock,
 * L3F_CLK = CORE_CLKOUTM4 = 200 MHz (TRM 8.1.6.1, figure "Core PLL"; the
 * datasheet SPRS717 gives L3F at 200 MHz for OPP100): one 16-byte word
 * per clock, 3.2 GB/s.  Read and write overlap through the TC's FIFO, so
 * a byte costs one beat, not two.  The DDR behind the port is not the
 * limit for the transfers modelled (an SD or NAND FIFO on one side).
 */
#define AM335X_EDMA_TPTC_BANDWIDTH  (16ULL * 200 * 1000 * 1000)

/* Work per timer step, and the virtual time between steps. */
#define AM335X_EDMA_TPTC_STEP_BYTES (64 * 1024)
#define AM335X_EDMA_TPTC_STEP_NS    1

/*
 * A TR starts one cycle of the TC's clock (L3F_CLK, 200 MHz) after the
 * channel controller hands it over.  Without it a TR that moves its few
 * bytes in one step (timing off) or nothing at all (a failed TR) ends at
 * the instant it began, and a channel chained to itself, or a device
 * request that never drops, ran TRs forever at one instant of virtual
 * time: the timer list never returned and QEMU hung.
 */
#define AM335X_EDMA_TPTC_TR_START_NS 5

/* Arrays up to this size to or from a FIFO move in batches (see below) */
#define AM335X_EDMA_TPTC_FIFO_ACNT  64

static void am335x_edma_tptc_update_irq(AM335xEdmaTptcState *s)
{
    bool level = (s->errstat & s->erren) != 0;

    trace_am335x_edma_tptc_irq(s->id, level);
    qemu_set_irq(s->irq, level);
}

static void am335x_edma_tptc_error(AM335xEdmaTptcState *s, uint32_t bit)
{
    s->errstat |= bit;
    am335x_edma_tptc_update_irq(s);
}

/* FIFO width in bytes: OPT.FWID 0-5 is 8 to 256 bits (TRM 11.3.3.1) */
static uint32_t am335x_edma_tptc_fwid(const AM335xEdmaTR *tr)
{
    unsigned fwid = FIELD_EX32(tr->opt, OPT, FWID);

    return fwid <= 5 ? 1u << fwid : CONST_ALIGN;
}

static bool am335x_edma_tptc_const_ok(uint32_t addr, int16_t bidx)
{
    return !(addr % CONST_ALIGN) && !(bidx % CONST_ALIGN);
}

/* The TC, not the TPCC, checks the constant addressing rules. */
static bool am335x_edma_tptc_check_tr(AM335xEdmaTptcState *s)
{
    const AM335xEdmaTR *tr = &s->tr;

    if (FIELD_EX32(tr->opt, OPT, FWID) > 5 &&
        (FIELD_EX32(tr->opt, OPT, SAM) || FIELD_EX32(tr->opt, OPT, DAM))) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: TC%u: reserved FWID %u\n",
                      __func__, s->id, FIELD_EX32(tr->opt, OPT, FWID));
    }
    if ((FIELD_EX32(tr->opt, OPT, SAM) &&
         !am335x_edma_tptc_const_ok(tr->src, tr->src_bidx)) ||
        (FIELD_EX32(tr->opt, OPT, DAM) &&
         !am335x_edma_tptc_const_ok(tr->dst, tr->dst_bidx))) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: TC%u: constant addressing TR "
                      "not 32-byte aligned (src 0x%08x dst 0x%08x); "
                      "TRERR\n", __func__, s->id, tr->src, tr->dst);
        am335x_edma_tptc_error(s, R_ERRSTAT_TRERR_MASK);
        return false;
    }
    return true;
}

/*
 * The address of the next byte on one side of the TR: the array start
 * moves by the B-index; within an array the address increments, or in
 * constant mode wraps at the FIFO width.  Addresses are 32-bit.
 */
static uint32_t am335x_edma_tptc_addr(const AM335xEdmaTptcState *s,
                                      uint32_t base, int16_t bidx, bool cnst)
{
    uint32_t fwid = am335x_edma_tptc_fwid(&s->tr);
    uint32_t offset = cnst ? s->bytes_done % fwid : s->bytes_done;

    return base + (uint32_t)((int64_t)s->arrays_done * bidx) + offset;
}

/* Bytes from @addr to the end of the 32-bit space, at most @n. */
static uint32_t am335x_edma_tptc_clip(uint32_t addr, uint32_t n)
{
    return MIN((uint64_t)n, (1ULL << 32) - addr);
}

static void am335x_edma_tptc_bus_error(AM335xEdmaTptcState *s, bool write,
                                       uint32_t addr)
{
    qemu_log_mask(LOG_GUEST_ERROR, "%s: TC%u: %s error at 0x%08x "
                  "(channel %u, TCC %u); the TR moves no more data\n",
                  __func__, s->id, write ? "write" : "read", addr,
                  s->tr.channel, FIELD_EX32(s->tr.opt, OPT, TCC));
    trace_am335x_edma_tptc_bus_error(s->id, write, addr,
                                     FIELD_EX32(s->tr.opt, OPT, TCC));
    /* ERRDET describes the error that set BUSERR (TRM 11.4.2). */
    if (!(s->errstat & R_ERRSTAT_BUSERR_MASK)) {
        s->errdet = 0;
        s->errdet = FIELD_DP32(s->errdet, ERRDET, STAT,
                               write ? ERRDET_STAT_WRITE : ERRDET_STAT_READ);
        s->errdet = FIELD_DP32(s->errdet, ERRDET, TCC,
                               FIELD_EX32(s->tr.opt, OPT, TCC));
        s->errdet = FIELD_DP32(s->errdet, ERRDET, TCINTEN, s->tr.tcinten);
        s->errdet = FIELD_DP32(s->errdet, ERRDET, TCCHEN, s->tr.tcchen);
    }
    s->tr_failed = true;
    am335x_edma_tptc_error(s, R_ERRSTAT_BUSERR_MASK);
}

/* Whether [addr, addr + len) is all memory with no device behind it */
static bool am335x_edma_tptc_is_ram(AM335xEdmaTptcState *s, uint32_t addr,
                                    uint32_t len, bool write)
{
    hwaddr xlat, plen = len;
    MemoryRegion *mr;

    RCU_READ_LOCK_GUARD();
    mr = address_space_translate(&s->dma_as, addr, &xlat, &plen, write,
                                 MEMTXATTRS_UNSPECIFIED);
    return plen >= len &&
           memory_access_is_direct(mr, write, MEMTXATTRS_UNSPECIFIED);
}

/*
 * A device FIFO drained into memory (the source's B-index 0, the
 * destination's arrays back to back) or filled from it (the other way
 * round): the memory side of several arrays moves in one access, the
 * FIFO side array by array as before.  The device sees the same accesses
 * in the same order and the memory the same bytes; QEMU saves an access
 * per array.  Only when the memory side is RAM throughout and does not
 * hold the FIFO.  Returns how many arrays to move so, 0 for none.
 */
static uint32_t am335x_edma_tptc_fifo_arrays(AM335xEdmaTptcState *s,
                                             uint32_t max, uint32_t fifo,
                                             uint32_t mem, bool mem_written)
{
    const AM335xEdmaTR *tr = &s->tr;
    uint32_t arrays, len;

    if (am335x_edma_tptc_clip(fifo, tr->acnt) != tr->acnt) {
        return 0;
    }
    arrays = MIN(tr->bcnt - s->arrays_done,
                 MIN(max, sizeof(s->bounce)) / tr->acnt);
    arrays = am335x_edma_tptc_clip(mem, arrays * tr->acnt) / tr->acnt;
    len = arrays * tr->acnt;
    if (arrays < 2 ||
        ((uint64_t)fifo + tr->acnt > mem && fifo < (uint64_t)mem + len) ||
        !am335x_edma_tptc_is_ram(s, mem, len, mem_written)) {
        return 0;
    }
    return arrays;
}

/* FIFO to memory: the reads gathered, then one write */
static uint32_t am335x_edma_tptc_gather(AM335xEdmaTptcState *s, uint32_t dst,
                                        uint32_t arrays)
{
    const AM335xEdmaTR *tr = &s->tr;
    uint32_t n = 0;
    MemTxResult r = MEMTX_OK;

    while (n < arrays * tr->acnt) {
        r = address_space_read(&s->dma_as, tr->src, MEMTXATTRS_UNSPECIFIED,
                               s->bounce + n, tr->acnt);
        if (r != MEMTX_OK) {
            break;
        }
        n += tr->acnt;
    }
    /* What was read before a failed read is written, as array by array */
    if (n && address_space_write(&s->dma_as, dst, MEMTXATTRS_UNSPECIFIED,
                                 s->bounce, n) != MEMTX_OK) {
        am335x_edma_tptc_bus_error(s, true, dst);
        return 0;
    }
    s->arrays_done += n / tr->acnt;
    if (r != MEMTX_OK) {
        am335x_edma_tptc_bus_error(s, false, tr->src);
        return 0;
    }
    return n;
}

/* Memory to FIFO: one read, then the writes scattered */
static uint32_t am335x_edma_tptc_scatter(AM335xEdmaTptcState *s,
                                         uint32_t src, uint32_t arrays)
{
    const AM335xEdmaTR *tr = &s->tr;
    uint32_t n;

    if (address_space_read(&s->dma_as, src, MEMTXATTRS_UNSPECIFIED,
                           s->bounce, arrays * tr->acnt) != MEMTX_OK) {
        am335x_edma_tptc_bus_error(s, false, src);
        return 0;
    }
    for (n = 0; n < arrays * tr->acnt; n += tr->acnt) {
        if (address_space_write(&s->dma_as, tr->dst, MEMTXATTRS_UNSPECIFIED,
                                s->bounce + n, tr->acnt) != MEMTX_OK) {
            s->arrays_done += n / tr->acnt;
            am335x_edma_tptc_bus_error(s, true, tr->dst);
            return 0;
        }
    }
    s->arrays_done += arrays;
    return n;
}

/* Moves one piece of the current TR; returns its size, 0 on error. */
static uint32_t am335x_edma_tptc_move(AM335xEdmaTptcState *s, uint32_t max)
{
    const AM335xEdmaTR *tr = &s->tr;
    bool sam = FIELD_EX32(tr->opt, OPT, SAM);
    bool dam = FIELD_EX32(tr->opt, OPT, DAM);
    uint32_t src = am335x_edma_tptc_addr(s, tr->src, tr->src_bidx, sam);
    uint32_t dst = am335x_edma_tptc_addr(s, tr->dst, tr->dst_bidx, dam);
    uint32_t n = MIN(MIN(tr->acnt - s->bytes_done, max), sizeof(s->bounce));
    uint32_t arrays;
    MemTxResult r;

    if (!sam && !dam && !s->bytes_done &&
        tr->acnt && tr->acnt <= AM335X_EDMA_TPTC_FIFO_ACNT) {
        if (!tr->src_bidx && tr->dst_bidx == tr->acnt) {
            arrays = am335x_edma_tptc_fifo_arrays(s, max, tr->src, dst, true);
            if (arrays) {
                return am335x_edma_tptc_gather(s, dst, arrays);
            }
        } else if (!tr->dst_bidx && tr->src_bidx == tr->acnt) {
            arrays = am335x_edma_tptc_fifo_arrays(s, max, tr->dst, src,
                                                  false);
            if (arrays) {
                return am335x_edma_tptc_scatter(s, src, arrays);
            }
        }
    }

    if (sam || dam) {
        uint32_t fwid = am335x_edma_tptc_fwid(tr);

        n = MIN(n, fwid - s->bytes_done % fwid);
    }
    n = am335x_edma_tptc_clip(dst, am335x_edma_tptc_clip(src, n));

    r = address_space_read(&s->dma_as, src, MEMTXATTRS_UNSPECIFIED,
                           s->bounce, n);
    if (r != MEMTX_OK) {
        am335x_edma_tptc_bus_error(s, false, src);
        return 0;
    }
    r = address_space_write(&s->dma_as, dst, MEMTXATTRS_UNSPECIFIED,
                            s->bounce, n);
    if (r != MEMTX_OK) {
        am335x_edma_tptc_bus_error(s, true, dst);
        return 0;
    }
    s->bytes_done += n;
    if (s->bytes_done == tr->acnt) {
        s->bytes_done = 0;
        s->arrays_done++;
    }
    return n;
}

static bool am335x_edma_tptc_tr_over(AM335xEdmaTptcState *s)
{
    return s->tr_failed || !s->tr.acnt || s->arrays_done >= s->tr.bcnt;
}

/* The TR leaves the TC; the channel controller gets its TCC. */
static void am335x_edma_tptc_finish(AM335xEdmaTptcState *s, bool aborted)
{
    AM335xEdmaTR tr = s->tr;

    s->busy = false;
    timer_del(&s->timer);
    trace_am335x_edma_tptc_tr_end(s->id, tr.channel,
                                  FIELD_EX32(tr.opt, OPT, TCC),
                                  s->tr_failed, aborted);
    if (s->done) {
        s->done(s->done_opaque, s->id, &tr, aborted);
    }
}

static void am335x_edma_tptc_run(void *opaque)
{
    AM335xEdmaTptcState *s = AM335X_EDMA_TPTC(opaque);
    uint32_t budget = AM335X_EDMA_TPTC_STEP_BYTES;
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    /*
     * The TC may write its own SYSCONFIG: a soft reset then ends the TR
     * from within the move.
     */
    while (budget && s->busy && !am335x_edma_tptc_tr_over(s)) {
        budget -= am335x_edma_tptc_move(s, budget);
    }
    if (!s->busy) {
        return;
    }
    if (s->timing && budget < AM335X_EDMA_TPTC_STEP_BYTES) {
        /* The step's bytes take their time; the TR ends with its last. */
        int64_t end = am335x_timing_book(&s->port,
                                         AM335X_EDMA_TPTC_STEP_BYTES - budget);

        if (end > now) {
            timer_mod(&s->timer, end);
            return;
        }
    }
    if (am335x_edma_tptc_tr_over(s)) {
        am335x_edma_tptc_finish(s, false);
        return;
    }
    timer_mod(&s->timer, now + AM335X_EDMA_TPTC_STEP_NS);
}

void am335x_edma_tptc_connect(AM335xEdmaTptcState *s, unsigned id,
                              AM335xEdmaTptcDoneFn done, void *opaque)
{
    s->id = id;
    s->done = done;
    s->done_opaque = opaque;
}

bool am335x_edma_tptc_idle(AM335xEdmaTptcState *s)
{
    return !s->busy;
}

void am335x_edma_tptc_submit(AM335xEdmaTptcState *s, const AM335xEdmaTR *tr)
{
    if (s->busy) {
        /* The channel controller checks am335x_edma_tptc_idle() first. */
        qemu_log_mask(LOG_GUEST_ERROR, "%s: TC%u busy; TR of channel %u "
                      "dropped\n", __func__, s->id, tr->channel);
        return;
    }
    s->tr = *tr;
    s->busy = true;
    s->arrays_done = 0;
    s->bytes_done = 0;
    s->tr_failed = !am335x_edma_tptc_check_tr(s);
    trace_am335x_edma_tptc_tr_start(s->id, tr->channel, tr->src, tr->dst,
                                    tr->acnt, tr->bcnt, tr->src_bidx,
                                    tr->dst_bidx, tr->opt);
    timer_mod(&s->timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
              AM335X_EDMA_TPTC_TR_START_NS);
}

/* SAOPT and DFOPTn: the TR's options as the TC holds them */
static uint32_t am335x_edma_tptc_xopt(AM335xEdmaTptcState *s)
{
    uint32_t v = 0;

    v = FIELD_DP32(v, XOPT, SAM, FIELD_EX32(s->tr.opt, OPT, SAM));
    v = FIELD_DP32(v, XOPT, DAM, FIELD_EX32(s->tr.opt, OPT, DAM));
    v = FIELD_DP32(v, XOPT, PRI, s->tr.pri);
    v = FIELD_DP32(v, XOPT, FWID, FIELD_EX32(s->tr.opt, OPT, FWID));
    v = FIELD_DP32(v, XOPT, TCC, FIELD_EX32(s->tr.opt, OPT, TCC));
    v = FIELD_DP32(v, XOPT, TCINTEN, s->tr.tcinten);
    v = FIELD_DP32(v, XOPT, TCCHEN, s->tr.tcchen);
    return v;
}

/* SACNT/DFCNT: what is left, ACNT of the current array and BCNT */
static uint32_t am335x_edma_tptc_cnt(AM335xEdmaTptcState *s)
{
    uint32_t arrays = s->tr.bcnt - MIN(s->arrays_done, s->tr.bcnt);

    return ((uint32_t)arrays << 16) | (uint16_t)(s->tr.acnt - s->bytes_done);
}

static uint32_t am335x_edma_tptc_tcstat(AM335xEdmaTptcState *s)
{
    uint32_t v = R_TCSTAT_RSVD_ONE_MASK;

    if (s->busy) {
        v = FIELD_DP32(v, TCSTAT, SRCACTV, 1);
        v = FIELD_DP32(v, TCSTAT, DSTACTV, 1);
    }
    return v;
}

/* The active sets show the TR in progress, or the last one. */
static uint32_t am335x_edma_tptc_read_active(AM335xEdmaTptcState *s,
                                             hwaddr reg, bool *ok)
{
    const AM335xEdmaTR *tr = &s->tr;
    bool sam = FIELD_EX32(tr->opt, OPT, SAM);
    bool dam = FIELD_EX32(tr->opt, OPT, DAM);
    uint32_t bidx = ((uint32_t)(uint16_t)tr->dst_bidx << 16) |
                    (uint16_t)tr->src_bidx;

    *ok = true;
    switch (reg) {
    case A_SAOPT:
    case A_DFOPT0:
        return am335x_edma_tptc_xopt(s);
    case A_SASRC:
        return am335x_edma_tptc_addr(s, tr->src, tr->src_bidx, sam);
    case A_SACNT:
    case A_DFCNT0:
        return am335x_edma_tptc_cnt(s);
    case A_DFDST0:
        return am335x_edma_tptc_addr(s, tr->dst, tr->dst_bidx, dam);
    case A_SABIDX:
    case A_DFBIDX0:
        return bidx;
    case A_SAMPPRXY:
    case A_DFMPPRXY0:
        return R_SAMPPRXY_PRIV_MASK;
    case A_SACNTRLD:
    case A_DFCNTRLD:
        return tr->acnt;
    case A_SASRCBREF:
        return tr->src + (uint32_t)((int64_t)s->arrays_done * tr->src_bidx);
    case A_DFDSTBREF:
        return tr->dst + (uint32_t)((int64_t)s->arrays_done * tr->dst_bidx);
    case A_SADST:
    case A_SADSTBREF:
    case A_DFSRCBREF:
    case A_DFSRC0:
        /* The other side's address is not held in these sets. */
        return 0;
    case A_DFOPT0 + DF_STRIDE ... A_DFMPPRXY3:
        /* Only one TR is ever in the destination FIFO. */
        *ok = ((reg - A_DFOPT0) % DF_STRIDE) <= (A_DFMPPRXY0 - A_DFOPT0);
        return 0;
    default:
        *ok = false;
        return 0;
    }
}

static uint32_t am335x_edma_tptc_read_reg(AM335xEdmaTptcState *s,
                                          hwaddr reg, bool *ok)
{
    *ok = true;
    switch (reg) {
    case A_PID:
        return TPTC_PID;
    case A_TCCFG:
        return TPTC_TCCFG;
    case A_SYSCONFIG:
        return s->sysconfig;
    case A_TCSTAT:
        return am335x_edma_tptc_tcstat(s);
    case A_ERRSTAT:
        return s->errstat;
    case A_ERREN:
        return s->erren;
    case A_ERRDET:
        return s->errdet;
    case A_RDRATE:
        return s->rdrate;
    case A_ERRCLR:
    case A_ERRCMD:
        /* Write-only */
        return 0;
    default:
        return am335x_edma_tptc_read_active(s, reg, ok);
    }
}

/* TRM 11.4.2 (ERRSTAT): MMRAERR flags an access to a bad register. */
static void am335x_edma_tptc_bad_offset(AM335xEdmaTptcState *s,
                                        const char *what, hwaddr offset)
{
    qemu_log_mask(LOG_GUEST_ERROR, "%s: TC%u: bad %s offset 0x%"
                  HWADDR_PRIx "; MMRAERR\n", __func__, s->id, what, offset);
    am335x_edma_tptc_error(s, R_ERRSTAT_MMRAERR_MASK);
}

static uint64_t am335x_edma_tptc_read(void *opaque, hwaddr offset,
                                      unsigned size)
{
    AM335xEdmaTptcState *s = AM335X_EDMA_TPTC(opaque);
    uint32_t value;
    bool ok;

    value = am335x_edma_tptc_read_reg(s, offset & ~3, &ok);
    if (!ok) {
        am335x_edma_tptc_bad_offset(s, "read", offset);
    }
    value = extract32(value, (offset & 3) * 8, size * 8);
    trace_am335x_edma_tptc_read(s->id, offset, size, value);
    return value;
}

static void am335x_edma_tptc_reset_regs(AM335xEdmaTptcState *s)
{
    s->sysconfig = 0;
    s->errstat = 0;
    s->erren = 0;
    s->errdet = 0;
    s->rdrate = 0;
}

/* The TR in progress is lost without a completion code. */
static void am335x_edma_tptc_abort(AM335xEdmaTptcState *s)
{
    if (s->busy) {
        am335x_edma_tptc_finish(s, true);
    }
}

static void am335x_edma_tptc_softreset(AM335xEdmaTptcState *s)
{
    trace_am335x_edma_tptc_softreset(s->id);
    am335x_edma_tptc_reset_regs(s);
    am335x_edma_tptc_abort(s);
}

static void am335x_edma_tptc_read_only(AM335xEdmaTptcState *s, hwaddr reg)
{
    qemu_log_mask(LOG_GUEST_ERROR, "%s: TC%u: write to read-only offset "
                  "0x%" HWADDR_PRIx "\n", __func__, s->id, reg);
}

/* @value holds the written bytes in place, @mask says which they are. */
static bool am335x_edma_tptc_write_reg(AM335xEdmaTptcState *s, hwaddr reg,
                                       uint32_t value, uint32_t mask)
{
    uint32_t written = value & mask;
    bool ok;

    switch (reg) {
    case A_SYSCONFIG:
        if (FIELD_EX32(written, SYSCONFIG, SOFTRESET)) {
            am335x_edma_tptc_softreset(s);
            break;
        }
        s->sysconfig = ((s->sysconfig & ~mask) | written) &
                       SYSCONFIG_WRITABLE;
        break;
    case A_ERREN:
        s->erren = ((s->erren & ~mask) | written) & ERR_ALL;
        break;
    case A_ERRCLR:
        /* TRM 11.4.2 (ERRCLR): clearing BUSERR also clears ERRDET */
        if (written & R_ERRSTAT_BUSERR_MASK) {
            s->errdet = 0;
        }
        s->errstat &= ~(written & ERR_ALL);
        break;
    case A_ERRCMD:
        /* TRM 11.4.2 (ERRCMD): re-pulse the interrupt if errors remain */
        if (FIELD_EX32(written, ERRCMD, EVAL) && (s->errstat & s->erren)) {
            qemu_irq_lower(s->irq);
        }
        break;
    case A_RDRATE:
        s->rdrate = ((s->rdrate & ~mask) | written) & R_RDRATE_RDRATE_MASK;
        break;
    default:
        am335x_edma_tptc_read_reg(s, reg, &ok);
        if (!ok) {
            return false;
        }
        am335x_edma_tptc_read_only(s, reg);
        break;
    }
    return true;
}

static void am335x_edma_tptc_write(void *opaque, hwaddr offset,
                                   uint64_t value, unsigned size)
{
    AM335xEdmaTptcState *s = AM335X_EDMA_TPTC(opaque);
    unsigned shift = (offset & 3) * 8;
    uint32_t mask = MAKE_64BIT_MASK(shift, size * 8);

    trace_am335x_edma_tptc_write(s->id, offset, size, value);
    if (!am335x_edma_tptc_write_reg(s, offset & ~3, (uint32_t)value << shift,
                                    mask)) {
        am335x_edma_tptc_bad_offset(s, "write", offset);
    }
    am335x_edma_tptc_update_irq(s);
}

static const MemoryRegionOps am335x_edma_tptc_ops = {
    .read = am335x_edma_tptc_read,
    .write = am335x_edma_tptc_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 1,
    .valid.max_access_size = 4,
    .impl.min_access_size = 1,
    .impl.max_access_size = 4,
};

static void am335x_edma_tptc_reset_enter(Object *obj, ResetType type)
{
    AM335xEdmaTptcState *s = AM335X_EDMA_TPTC(obj);

    /* The channel controller resets too: no completion for it. */
    timer_del(&s->timer);
    s->busy = false;
    s->tr_failed = false;
    s->arrays_done = 0;
    s->bytes_done = 0;
    memset(&s->tr, 0, sizeof(s->tr));
    am335x_edma_tptc_reset_regs(s);
    am335x_timing_reset(&s->port);
}

static void am335x_edma_tptc_reset_hold(Object *obj, ResetType type)
{
    am335x_edma_tptc_update_irq(AM335X_EDMA_TPTC(obj));
}

static void am335x_edma_tptc_realize(DeviceState *dev, Error **errp)
{
    AM335xEdmaTptcState *s = AM335X_EDMA_TPTC(dev);

    if (!s->dma_mr) {
        error_setg(errp, "%s: link 'dma-mr' is not set",
                   TYPE_AM335X_EDMA_TPTC);
        return;
    }
    address_space_init(&s->dma_as, s->dma_mr, "am335x-edma-tptc");
    am335x_timing_init(&s->port, s->bandwidth, 0);
    memory_region_init_io(&s->iomem, OBJECT(s), &am335x_edma_tptc_ops, s,
                          TYPE_AM335X_EDMA_TPTC, AM335X_EDMA_TPTC_MMIO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->iomem);
}

static void am335x_edma_tptc_unrealize(DeviceState *dev)
{
    AM335xEdmaTptcState *s = AM335X_EDMA_TPTC(dev);

    timer_del(&s->timer);
    address_space_destroy(&s->dma_as);
}

static void am335x_edma_tptc_init(Object *obj)
{
    AM335xEdmaTptcState *s = AM335X_EDMA_TPTC(obj);

    timer_init_ns(&s->timer, QEMU_CLOCK_VIRTUAL, am335x_edma_tptc_run, s);
    sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq);
}

const VMStateDescription vmstate_am335x_edma_tr = {
    .name = "am335x-edma-tr",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(opt, AM335xEdmaTR),
        VMSTATE_UINT32(src, AM335xEdmaTR),
        VMSTATE_UINT32(dst, AM335xEdmaTR),
        VMSTATE_UINT16(acnt, AM335xEdmaTR),
        VMSTATE_UINT16(bcnt, AM335xEdmaTR),
        VMSTATE_INT16(src_bidx, AM335xEdmaTR),
        VMSTATE_INT16(dst_bidx, AM335xEdmaTR),
        VMSTATE_UINT8(pri, AM335xEdmaTR),
        VMSTATE_UINT8(channel, AM335xEdmaTR),
        VMSTATE_BOOL(tcinten, AM335xEdmaTR),
        VMSTATE_BOOL(tcchen, AM335xEdmaTR),
        VMSTATE_END_OF_LIST()
    }
};

static int am335x_edma_tptc_post_load(void *opaque, int version_id)
{
    AM335xEdmaTptcState *s = AM335X_EDMA_TPTC(opaque);

    /* The cursor must lie within the TR. */
    if (s->arrays_done > s->tr.bcnt ||
        (s->tr.acnt && s->bytes_done >= s->tr.acnt)) {
        return -EINVAL;
    }
    return 0;
}

static const VMStateDescription vmstate_am335x_edma_tptc = {
    .name = TYPE_AM335X_EDMA_TPTC,
    .version_id = 2,
    .minimum_version_id = 2,
    .post_load = am335x_edma_tptc_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_TIMER(timer, AM335xEdmaTptcState),
        VMSTATE_BOOL(busy, AM335xEdmaTptcState),
        VMSTATE_STRUCT(tr, AM335xEdmaTptcState, 1, vmstate_am335x_edma_tr,
                       AM335xEdmaTR),
        VMSTATE_UINT32(arrays_done, AM335xEdmaTptcState),
        VMSTATE_UINT32(bytes_done, AM335xEdmaTptcState),
        VMSTATE_BOOL(tr_failed, AM335xEdmaTptcState),
        VMSTATE_UINT32(sysconfig, AM335xEdmaTptcState),
        VMSTATE_UINT32(errstat, AM335xEdmaTptcState),
        VMSTATE_UINT32(erren, AM335xEdmaTptcState),
        VMSTATE_UINT32(errdet, AM335xEdmaTptcState),
        VMSTATE_UINT32(rdrate, AM335xEdmaTptcState),
        VMSTATE_AM335X_TIMING(port, AM335xEdmaTptcState),
        VMSTATE_END_OF_LIST()
    }
};

static const Property am335x_edma_tptc_properties[] = {
    DEFINE_PROP_LINK("dma-mr", AM335xEdmaTptcState, dma_mr,
                     TYPE_MEMORY_REGION, MemoryRegion *),
    /* The machine's timing=on|off, set by the SoC */
    DEFINE_PROP_BOOL("timing", AM335xEdmaTptcState, timing, false),
    /* Bytes per second of the bus port with timing=on (see above) */
    DEFINE_PROP_UINT64("bandwidth", AM335xEdmaTptcState, bandwidth,
                       AM335X_EDMA_TPTC_BANDWIDTH),
};

static void am335x_edma_tptc_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->realize = am335x_edma_tptc_realize;
    dc->unrealize = am335x_edma_tptc_unrealize;
    dc->vmsd = &vmstate_am335x_edma_tptc;
    dc->desc = "TI AM335x EDMA3 transfer controller";
    /* Wired to its channel controller by the SoC */
    dc->user_creatable = false;
    rc->phases.enter = am335x_edma_tptc_reset_enter;
    rc->phases.hold = am335x_edma_tptc_reset_hold;
    device_class_set_props(dc, am335x_edma_tptc_properties);
}

static const TypeInfo am335x_edma_tptc_info = {
    .name = TYPE_AM335X_EDMA_TPTC,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AM335xEdmaTptcState),
    .instance_init = am335x_edma_tptc_init,
    .class_init = am335x_edma_tptc_class_init,
};

static void am335x_edma_tptc_register_types(void)
{
    type_register_static(&am335x_edma_tptc_info);
}

type_init(am335x_edma_tptc_register_types)
