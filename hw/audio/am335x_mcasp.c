/*
 * TI AM335x Multichannel Audio Serial Port (McASP)
 *
 * Four serializers (AXR0-3), each transmitting or receiving one word per
 * enabled time slot of a frame, with the clocks, frame sync and
 * formatting the X* and R* registers set; the 64-word write and read
 * FIFOs (AFIFO) beside the serializers' XBUF/RBUF registers; the data
 * port the EDMA writes and reads; the DMA requests and the two interrupts.
 *
 * Timing, on the virtual clock: a slot takes its XSSZ bits at the bit
 * clock ACLKX = AHCLKX / (CLKXDIV + 1), AHCLKX being AUXCLK /
 * (HCLKXDIV + 1) when internal or the board's AHCLKX pin (the BBB's
 * 24.576 MHz oscillator) when external; or ACLKX is the ACLKX pin's clock
 * (the "aclkx" clock input: the EVM's codec as the bit clock master).
 * Frames follow each other after their slots, or on the AFSX pin's frame
 * sync ("afsx") when the codec drives it; a frame sync before the last
 * slot is a sync error.  The receiver runs synchronously, on the transmit
 * side's clock and frame sync (ACLKXCTL.ASYNC = 0, as Linux sets it).
 * Each side starts on the first frame sync after its state machine leaves
 * reset.
 *
 * Transmit: at each enabled slot every transmitting serializer takes its
 * word from XBUF; an empty XBUF is an underrun (XUNDRN, and the slot
 * sends zeros).  The FIFO refills emptied XBUFs and asks the EDMA for
 * WNUMEVT more words whenever it has room for them; without the FIFO, an
 * empty XBUF (XDATA) is the DMA request.  Receive, the mirror image: each
 * receiving serializer puts the slot's word in RBUF (a full one is an
 * overrun, ROVRN); the read FIFO takes the RBUFs and asks the EDMA to
 * read RNUMEVT words once it holds them, or full RBUFs (RDATA) are the
 * request.
 *
 * What the serializers send goes to the board's codec; this model plays
 * it on the McASP's audiodev: per slot, the first 16 bits on the wire
 * (after XMASK/XPAD, XROT and XRVRS), as a signed 16-bit sample, at the
 * frame rate, one channel per enabled slot and serializer.  What they
 * receive is what the codec's ADC would send: the audiodev's recorded
 * samples, one 16-bit sample a slot and serializer as the first bits on
 * the wire, formatted by RRVRS, RROT and RMASK/RPAD (silence when the
 * audiodev records nothing).  In digital loopback (DLBCTL) a receiving
 * serializer hears its transmitting neighbour instead.
 *
 * Not modelled: a receiver on its own clocks (ASYNC = 1), DIT (S/PDIF)
 * mode, the clock checkers, mute, the data delay (XDATDLY/RDATDLY: each
 * slot's word is taken whole).
 *
 * Reference: AM335x Technical Reference Manual (SPRUH73), chapter 22.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/host-utils.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qapi/error.h"
#include "hw/audio/am335x_mcasp.h"
#include "hw/irq.h"
#include "hw/qdev-clock.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "trace.h"

/* TRM table 22-10 */
REG32(PID, 0x00)
REG32(PWRIDLESYSCONFIG, 0x04)
REG32(PFUNC, 0x10)
REG32(PDIR, 0x14)
REG32(PDOUT, 0x18)
REG32(PDSET, 0x1c)          /* reads as PDIN */
REG32(PDCLR, 0x20)
REG32(TLGC, 0x30)
REG32(TLMR, 0x34)
REG32(TLEC, 0x38)
REG32(GBLCTL, 0x44)
    FIELD(GBLCTL, RCV, 0, 5)
    FIELD(GBLCTL, XMT, 8, 5)
REG32(AMUTE, 0x48)
REG32(DLBCTL, 0x4c)
    FIELD(DLBCTL, DLBEN, 0, 1)
    FIELD(DLBCTL, ORD, 1, 1)
REG32(DITCTL, 0x50)
REG32(RGBLCTL, 0x60)
REG32(RMASK, 0x64)
REG32(RFMT, 0x68)
REG32(AFSRCTL, 0x6c)
REG32(ACLKRCTL, 0x70)
REG32(AHCLKRCTL, 0x74)
REG32(RTDM, 0x78)
REG32(RINTCTL, 0x7c)
REG32(RSTAT, 0x80)
REG32(RSLOT, 0x84)
REG32(RCLKCHK, 0x88)
REG32(REVTCTL, 0x8c)
    FIELD(REVTCTL, RDATDMA, 0, 1)
REG32(XGBLCTL, 0xa0)
REG32(XMASK, 0xa4)
REG32(XFMT, 0xa8)
    FIELD(XFMT, XROT, 0, 3)
    FIELD(XFMT, XBUSEL, 3, 1)
    FIELD(XFMT, XSSZ, 4, 4)
    FIELD(XFMT, XPBIT, 8, 5)
    FIELD(XFMT, XPAD, 13, 2)
    FIELD(XFMT, XRVRS, 15, 1)
REG32(AFSXCTL, 0xac)
    FIELD(AFSXCTL, FSXM, 1, 1)
    FIELD(AFSXCTL, XMOD, 7, 9)
REG32(ACLKXCTL, 0xb0)
    FIELD(ACLKXCTL, CLKXDIV, 0, 5)
    FIELD(ACLKXCTL, CLKXM, 5, 1)
    FIELD(ACLKXCTL, ASYNC, 6, 1)
REG32(AHCLKXCTL, 0xb4)
    FIELD(AHCLKXCTL, HCLKXDIV, 0, 12)
    FIELD(AHCLKXCTL, HCLKXM, 15, 1)
REG32(XTDM, 0xb8)
REG32(XINTCTL, 0xbc)
REG32(XSTAT, 0xc0)
REG32(XSLOT, 0xc4)
REG32(XCLKCHK, 0xc8)
REG32(XEVTCTL, 0xcc)
    FIELD(XEVTCTL, XDATDMA, 0, 1)
REG32(DIT0, 0x100)          /* DITCSRA0 .. DITUDRB5: 24 registers */
REG32(SRCTL0, 0x180)
    FIELD(SRCTL, SRMOD, 0, 2)
    FIELD(SRCTL, XRDY, 4, 1)
    FIELD(SRCTL, RRDY, 5, 1)
REG32(XBUF0, 0x200)
REG32(RBUF0, 0x280)
REG32(WFIFOCTL, 0x1000)
    FIELD(WFIFOCTL, WNUMDMA, 0, 8)
    FIELD(WFIFOCTL, WNUMEVT, 8, 8)
    FIELD(WFIFOCTL, WENA, 16, 1)
REG32(WFIFOSTS, 0x1004)
REG32(RFIFOCTL, 0x1008)
REG32(RFIFOSTS, 0x100c)

/* ti-sysc's "mcasp" revision */
#define MCASP_PID               0x44306302

/* GBLCTL's receive half */
#define GBL_RSRCLR              BIT(2)
#define GBL_RSMRST              BIT(3)

/* GBLCTL's transmit half */
#define GBL_XCLKRST             BIT(8)
#define GBL_XHCLKRST            BIT(9)
#define GBL_XSRCLR              BIT(10)
#define GBL_XSMRST              BIT(11)
#define GBL_XFRST               BIT(12)

/* XSTAT */
#define XSTAT_XUNDRN            BIT(0)
#define XSTAT_XSYNCERR          BIT(1)
#define XSTAT_XDATA             BIT(5)
#define XSTAT_XDMAERR           BIT(7)
#define XSTAT_XERR              BIT(8)
#define XSTAT_W1C               0xdf
#define XSTAT_ERRORS            0x87

/* RSTAT: the same bits for the receiver */
#define RSTAT_ROVRN             BIT(0)
#define RSTAT_RSYNCERR          BIT(1)
#define RSTAT_RDATA             BIT(5)
#define RSTAT_RDMAERR           BIT(7)
#define RSTAT_RERR              BIT(8)
#define RSTAT_W1C               0xdf
#define RSTAT_ERRORS            0x87

/*
 * The read FIFO's RFIFOCTL has the layout of WFIFOCTL (RNUMDMA, RNUMEVT,
 * RENA), and RFMT that of XFMT: the WFIFOCTL and XFMT fields serve both.
 */

#define SRMOD_TX                1
#define SRMOD_RX                2

/*
 * How long a slot waits for data the DMA was asked for, and how often it
 * looks.  Not a property of the part (its EDMA answers within a
 * microsecond): the longest delay a loaded host may add to QEMU's timers
 * that the model hides, well inside ALSA's own timeouts.
 */
#define MCASP_DMA_GRACE_NS      (20 * SCALE_MS)
#define MCASP_DMA_RETRY_NS      (1 * SCALE_US)

static uint32_t am335x_mcasp_sers(AM335xMcaspState *s, uint32_t mode)
{
    uint32_t mask = 0;

    for (int n = 0; n < AM335X_MCASP_NUM_SER; n++) {
        if (FIELD_EX32(s->srctl[n], SRCTL, SRMOD) == mode) {
            mask |= BIT(n);
        }
    }
    return mask;
}

static uint32_t am335x_mcasp_tx_sers(AM335xMcaspState *s)
{
    return am335x_mcasp_sers(s, SRMOD_TX);
}

static uint32_t am335x_mcasp_rx_sers(AM335xMcaspState *s)
{
    return am335x_mcasp_sers(s, SRMOD_RX);
}

/*
 * The frame's slots follow one format: the transmitter's (XMOD, XSSZ)
 * unless only the receiver runs, then its own (RMOD, RSSZ).  Linux gives
 * both the same when both run.
 */
static bool am335x_mcasp_rx_format(AM335xMcaspState *s)
{
    return !(s->gblctl & GBL_XSMRST) && (s->gblctl & GBL_RSMRST);
}

/* Slots per frame: MOD 0 is burst mode (one), 2-32 TDM */
static uint32_t am335x_mcasp_slots(AM335xMcaspState *s)
{
    uint32_t mod = FIELD_EX32(am335x_mcasp_rx_format(s) ? s->afsrctl :
                              s->afsxctl, AFSXCTL, XMOD);

    return mod >= 2 && mod <= 32 ? mod : 1;
}

/* XSSZ/RSSZ: 8 to 32 bits a slot, (SSZ + 1) * 2 */
static uint32_t am335x_mcasp_ssz_bits(uint32_t fmt)
{
    return MAX((FIELD_EX32(fmt, XFMT, XSSZ) + 1) * 2, 8);
}

static uint32_t am335x_mcasp_slot_bits(AM335xMcaspState *s)
{
    return am335x_mcasp_ssz_bits(am335x_mcasp_rx_format(s) ? s->rfmt :
                                 s->xfmt);
}

/*
 * The bit clock ACLKX: AHCLKX divided down when internal (each divider
 * runs once out of reset), else what the ACLKX pin brings (the codec)
 */
static uint64_t am335x_mcasp_bclk_hz(AM335xMcaspState *s)
{
    uint64_t hclk;

    if (!FIELD_EX32(s->aclkxctl, ACLKXCTL, CLKXM)) {
        return clock_get_hz(s->aclkx);
    }
    if (!(s->gblctl & GBL_XCLKRST)) {
        return 0;
    }
    if (FIELD_EX32(s->ahclkxctl, AHCLKXCTL, HCLKXM)) {
        if (!(s->gblctl & GBL_XHCLKRST)) {
            return 0;
        }
        hclk = s->auxclk_hz /
               (FIELD_EX32(s->ahclkxctl, AHCLKXCTL, HCLKXDIV) + 1);
    } else {
        hclk = s->ahclkx_hz;
    }
    return hclk / (FIELD_EX32(s->aclkxctl, ACLKXCTL, CLKXDIV) + 1);
}

static int64_t am335x_mcasp_slot_ns(AM335xMcaspState *s)
{
    uint64_t bclk = am335x_mcasp_bclk_hz(s);

    return bclk ? muldiv64(am335x_mcasp_slot_bits(s),
                           NANOSECONDS_PER_SECOND, bclk) : 0;
}

/*
 * Frames per second: the AFSX pin's rate, or the slots at the bit clock
 * once the frame sync generator is out of reset
 */
static uint32_t am335x_mcasp_frame_hz(AM335xMcaspState *s)
{
    if (!FIELD_EX32(s->afsxctl, AFSXCTL, FSXM)) {
        return clock_get_hz(s->afsx);
    }
    if (!(s->gblctl & GBL_XFRST)) {
        return 0;
    }
    return am335x_mcasp_bclk_hz(s) /
           (am335x_mcasp_slots(s) * am335x_mcasp_slot_bits(s));
}

/*
 * The frame engine runs while a state machine is out of reset and the bit
 * clock and the frame sync are there.  Both come from the transmit side
 * (ACLKX, AFSX), which is where a synchronous receiver takes them too.
 */
static bool am335x_mcasp_clocks_on(AM335xMcaspState *s)
{
    return (s->gblctl & (GBL_XSMRST | GBL_RSMRST)) &&
           am335x_mcasp_bclk_hz(s) && am335x_mcasp_frame_hz(s);
}

static bool am335x_mcasp_tx_on(AM335xMcaspState *s)
{
    return s->running && (s->gblctl & GBL_XSMRST);
}

/*
 * The receiver takes its slots from the transmit clock and frame sync
 * (ACLKXCTL.ASYNC = 0, as Linux sets it); its own clocks (ASYNC = 1) are
 * not modelled.
 */
static bool am335x_mcasp_rx_on(AM335xMcaspState *s)
{
    return s->running && !FIELD_EX32(s->aclkxctl, ACLKXCTL, ASYNC) &&
           (s->gblctl & (GBL_RSRCLR | GBL_RSMRST)) ==
           (GBL_RSRCLR | GBL_RSMRST);
}

static uint32_t am335x_mcasp_xstat(AM335xMcaspState *s)
{
    uint32_t v = s->xstat;
    uint32_t tx = am335x_mcasp_tx_sers(s);

    if ((s->gblctl & GBL_XSRCLR) && (tx & ~s->xbuf_full)) {
        v |= XSTAT_XDATA;
    }
    if (v & XSTAT_ERRORS) {
        v |= XSTAT_XERR;
    }
    return v;
}

static uint32_t am335x_mcasp_rstat(AM335xMcaspState *s)
{
    uint32_t v = s->rstat;
    uint32_t rx = am335x_mcasp_rx_sers(s);

    if ((s->gblctl & GBL_RSRCLR) && rx && (s->rbuf_full & rx) == rx) {
        v |= RSTAT_RDATA;
    }
    if (v & RSTAT_ERRORS) {
        v |= RSTAT_RERR;
    }
    return v;
}

/*
 * The transmit DMA request.  The EDMA takes an event on a rising edge and
 * then writes its burst: WNUMEVT words into the FIFO once it has room for
 * them, or a word for each transmitting serializer once their XBUFs are
 * empty.  The request stays up until that burst is written.
 */
static void am335x_mcasp_dma_check(AM335xMcaspState *s)
{
    uint32_t tx = am335x_mcasp_tx_sers(s);
    uint32_t words = 0;

    if (FIELD_EX32(s->xevtctl, XEVTCTL, XDATDMA) ||
        !(s->gblctl & GBL_XSRCLR) || !tx) {
        s->dma_owed = 0;
    } else if (!s->dma_owed) {
        if (FIELD_EX32(s->wfifoctl, WFIFOCTL, WENA)) {
            uint32_t numevt = FIELD_EX32(s->wfifoctl, WFIFOCTL, WNUMEVT);

            if (numevt && AM335X_MCASP_FIFO_WORDS - s->fifo_count >= numevt) {
                words = numevt;
            }
        } else if (!(s->xbuf_full & tx)) {
            words = ctpop32(tx);
        }
        s->dma_owed = words;
    }
    qemu_set_irq(s->dma_request[0], s->dma_owed > 0);
}

/*
 * The receive DMA request, the mirror image: RNUMEVT words wait in the
 * read FIFO, or every receiving serializer's RBUF is full.  It stays up
 * until the EDMA has read that burst.
 */
static void am335x_mcasp_rx_dma_check(AM335xMcaspState *s)
{
    uint32_t rx = am335x_mcasp_rx_sers(s);
    uint32_t words = 0;

    if (FIELD_EX32(s->revtctl, REVTCTL, RDATDMA) ||
        !(s->gblctl & GBL_RSRCLR) || !rx) {
        s->rx_dma_owed = 0;
    } else if (!s->rx_dma_owed) {
        if (FIELD_EX32(s->rfifoctl, WFIFOCTL, WENA)) {
            uint32_t numevt = FIELD_EX32(s->rfifoctl, WFIFOCTL, WNUMEVT);

            if (numevt && s->rfifo_count >= numevt) {
                words = numevt;
            }
        } else if ((s->rbuf_full & rx) == rx) {
            words = ctpop32(rx);
        }
        s->rx_dma_owed = words;
    }
    qemu_set_irq(s->dma_request[1], s->rx_dma_owed > 0);
}

static void am335x_mcasp_update(AM335xMcaspState *s)
{
    am335x_mcasp_dma_check(s);
    am335x_mcasp_rx_dma_check(s);
    qemu_set_irq(s->irq[0], am335x_mcasp_xstat(s) & s->xintctl & 0xff);
    qemu_set_irq(s->irq[1], am335x_mcasp_rstat(s) & s->rintctl & 0xff);
}

/* The FIFO fills the transmitting serializers' XBUFs once they are empty */
static void am335x_mcasp_fifo_service(AM335xMcaspState *s)
{
    uint32_t tx = am335x_mcasp_tx_sers(s);

    if (!FIELD_EX32(s->wfifoctl, WFIFOCTL, WENA) || !tx ||
        !(s->gblctl & GBL_XSRCLR) || (s->xbuf_full & tx) ||
        s->fifo_count < ctpop32(tx)) {
        return;
    }
    for (int n = 0; n < AM335X_MCASP_NUM_SER; n++) {
        if (tx & BIT(n)) {
            s->xbuf[n] = s->fifo[s->fifo_head];
            s->fifo_head = (s->fifo_head + 1) % AM335X_MCASP_FIFO_WORDS;
            s->fifo_count--;
            s->xbuf_full |= BIT(n);
        }
    }
}

/* The read FIFO takes the receiving serializers' RBUFs once all are full */
static void am335x_mcasp_rfifo_service(AM335xMcaspState *s)
{
    uint32_t rx = am335x_mcasp_rx_sers(s);

    if (!FIELD_EX32(s->rfifoctl, WFIFOCTL, WENA) || !rx ||
        !(s->gblctl & GBL_RSRCLR) || (s->rbuf_full & rx) != rx ||
        AM335X_MCASP_FIFO_WORDS - s->rfifo_count < ctpop32(rx)) {
        return;
    }
    for (int n = 0; n < AM335X_MCASP_NUM_SER; n++) {
        if (rx & BIT(n)) {
            s->rfifo[(s->rfifo_head + s->rfifo_count) %
                     AM335X_MCASP_FIFO_WORDS] = s->rbuf[n];
            s->rfifo_count++;
            s->rbuf_full &= ~BIT(n);
        }
    }
}

/* A word from the EDMA (or the CPU) through the data port */
static void am335x_mcasp_port_write(AM335xMcaspState *s, uint32_t v)
{
    uint32_t tx = am335x_mcasp_tx_sers(s);

    if (s->dma_owed && !--s->dma_owed) {
        /* The burst is written: the request drops (the next one rises) */
        qemu_set_irq(s->dma_request[0], 0);
    }

    if (FIELD_EX32(s->wfifoctl, WFIFOCTL, WENA)) {
        if (s->fifo_count == AM335X_MCASP_FIFO_WORDS) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: write FIFO overflow\n",
                          __func__);
            s->xstat |= XSTAT_XDMAERR;
        } else {
            s->fifo[(s->fifo_head + s->fifo_count) %
                    AM335X_MCASP_FIFO_WORDS] = v;
            s->fifo_count++;
        }
        am335x_mcasp_fifo_service(s);
        return;
    }
    /* Without the FIFO the port feeds the serializers' XBUFs in turn */
    for (int i = 0; i < AM335X_MCASP_NUM_SER; i++) {
        uint32_t n = (s->port_ser + i) % AM335X_MCASP_NUM_SER;

        if ((tx & BIT(n)) && !(s->xbuf_full & BIT(n))) {
            s->xbuf[n] = v;
            s->xbuf_full |= BIT(n);
            s->port_ser = (n + 1) % AM335X_MCASP_NUM_SER;
            return;
        }
    }
    qemu_log_mask(LOG_GUEST_ERROR, "%s: data port write with no empty "
                  "XBUF\n", __func__);
    s->xstat |= XSTAT_XDMAERR;
}

/* A word to the EDMA (or the CPU) through the data port */
static uint32_t am335x_mcasp_port_read(AM335xMcaspState *s)
{
    uint32_t rx = am335x_mcasp_rx_sers(s);
    uint32_t v = 0;

    if (s->rx_dma_owed && !--s->rx_dma_owed) {
        qemu_set_irq(s->dma_request[1], 0);
    }

    if (FIELD_EX32(s->rfifoctl, WFIFOCTL, WENA)) {
        if (!s->rfifo_count) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: read FIFO underflow\n",
                          __func__);
            s->rstat |= RSTAT_RDMAERR;
            return 0;
        }
        v = s->rfifo[s->rfifo_head];
        s->rfifo_head = (s->rfifo_head + 1) % AM335X_MCASP_FIFO_WORDS;
        s->rfifo_count--;
        am335x_mcasp_rfifo_service(s);
        return v;
    }
    /* Without the FIFO the port reads the serializers' RBUFs in turn */
    for (int i = 0; i < AM335X_MCASP_NUM_SER; i++) {
        uint32_t n = (s->rport_ser + i) % AM335X_MCASP_NUM_SER;

        if ((rx & BIT(n)) && (s->rbuf_full & BIT(n))) {
            s->rbuf_full &= ~BIT(n);
            s->rport_ser = (n + 1) % AM335X_MCASP_NUM_SER;
            return s->rbuf[n];
        }
    }
    qemu_log_mask(LOG_GUEST_ERROR, "%s: data port read with no full RBUF\n",
                  __func__);
    s->rstat |= RSTAT_RDMAERR;
    return 0;
}

/*
 * A transmitted word as it goes on the wire, MSB first from bit 31, the
 * bits past the slot zero
 */
static uint32_t am335x_mcasp_tx_wire(AM335xMcaspState *s, uint32_t w)
{
    uint32_t bits = am335x_mcasp_slot_bits(s);
    uint32_t pad = 0, v, wire;

    switch (FIELD_EX32(s->xfmt, XFMT, XPAD)) {
    case 1:
        pad = ~0u;
        break;
    case 2:
        pad = (w >> FIELD_EX32(s->xfmt, XFMT, XPBIT)) & 1 ? ~0u : 0;
        break;
    }
    v = (w & s->xmask) | (pad & ~s->xmask);
    v = ror32(v, FIELD_EX32(s->xfmt, XFMT, XROT) * 4);
    /* The serializer shifts out bit 0 first; XRVRS reverses the word */
    wire = FIELD_EX32(s->xfmt, XFMT, XRVRS) ? v : revbit32(v);
    if (bits < 32) {
        wire &= ~0u << (32 - bits);
    }
    return wire;
}

/*
 * The word a receiving serializer puts in its RBUF from what came on the
 * wire (MSB first from bit 31): reversal (RRVRS), rotation (RROT), then
 * RMASK with RPAD's padding, the transmitter's steps in reverse
 */
static uint32_t am335x_mcasp_rx_word(AM335xMcaspState *s, uint32_t wire)
{
    uint32_t bits = am335x_mcasp_ssz_bits(s->rfmt);
    uint32_t pad = 0, v;

    if (bits < 32) {
        wire &= ~0u << (32 - bits);
    }
    /* Shifted in MSB first (RRVRS) the word ends in bits bits-1..0 */
    if (FIELD_EX32(s->rfmt, XFMT, XRVRS)) {
        v = bits < 32 ? wire >> (32 - bits) : wire;
    } else {
        v = revbit32(wire);
    }
    v = ror32(v, FIELD_EX32(s->rfmt, XFMT, XROT) * 4);
    switch (FIELD_EX32(s->rfmt, XFMT, XPAD)) {
    case 1:
        pad = ~0u;
        break;
    case 2:
        pad = (v >> FIELD_EX32(s->rfmt, XFMT, XPBIT)) & 1 ? ~0u : 0;
        break;
    }
    return (v & s->rmask) | (pad & ~s->rmask);
}

static void am335x_mcasp_audio_out(void *opaque, int avail)
{
    AM335xMcaspState *s = AM335X_MCASP(opaque);
    uint32_t cap = ARRAY_SIZE(s->out);

    while (avail >= 2 && s->out_count) {
        uint32_t n = MIN(s->out_count, MIN(cap - s->out_head, avail / 2));
        size_t done = AUD_write(s->voice, &s->out[s->out_head], n * 2) / 2;

        if (!done) {
            break;
        }
        s->out_head = (s->out_head + done) % cap;
        s->out_count -= done;
        avail -= done * 2;
    }
}

/* The audio backend has captured samples: keep what there is room for */
static void am335x_mcasp_audio_in(void *opaque, int avail)
{
    AM335xMcaspState *s = AM335X_MCASP(opaque);
    uint32_t cap = ARRAY_SIZE(s->in);

    while (avail >= 2 && s->in_count < cap) {
        uint32_t tail = (s->in_head + s->in_count) % cap;
        uint32_t n = MIN(cap - s->in_count, MIN(cap - tail, avail / 2));
        size_t done = AUD_read(s->voice_in, &s->in[tail], n * 2) / 2;

        if (!done) {
            break;
        }
        s->in_count += done;
        avail -= done * 2;
    }
}

/* A frame is complete: queue it for the audio backend */
static void am335x_mcasp_frame_out(AM335xMcaspState *s)
{
    uint32_t cap = ARRAY_SIZE(s->out);

    if (!s->voice || s->frame_chan != s->out_channels) {
        return;
    }
    if (s->out_count + s->frame_chan > cap) {
        /* The backend is behind: the oldest frame goes */
        s->out_head = (s->out_head + s->frame_chan) % cap;
        s->out_count -= s->frame_chan;
    }
    for (uint32_t i = 0; i < s->frame_chan; i++) {
        s->out[(s->out_head + s->out_count) % cap] = s->frame[i];
        s->out_count++;
    }
}

/*
 * A frame begins: the samples the codec sends in it, one a receiving
 * slot and serializer, from the audio backend (silence when it has none)
 */
static void am335x_mcasp_frame_in(AM335xMcaspState *s)
{
    uint32_t cap = ARRAY_SIZE(s->in);
    uint32_t n = MIN(s->in_channels, AM335X_MCASP_MAX_CHANNELS);

    memset(s->in_frame, 0, sizeof(s->in_frame));
    s->in_chan = 0;
    if (s->in_count < n) {
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        s->in_frame[i] = s->in[s->in_head];
        s->in_head = (s->in_head + 1) % cap;
        s->in_count--;
    }
}

/* (Re)opens the audio output at out_rate and out_channels, signed 16-bit */
static void am335x_mcasp_open_voice(AM335xMcaspState *s)
{
    struct audsettings as = {
        .freq = s->out_rate,
        .nchannels = s->out_channels,
        .fmt = AUDIO_FORMAT_S16,
        .endianness = HOST_BIG_ENDIAN,
    };

    if (s->card.state) {
        s->voice = AUD_open_out(&s->card, s->voice, "am335x-mcasp", s,
                                am335x_mcasp_audio_out, &as);
    }
}

/* The same for the audio input, at in_rate and in_channels */
static void am335x_mcasp_open_voice_in(AM335xMcaspState *s)
{
    struct audsettings as = {
        .freq = s->in_rate,
        .nchannels = s->in_channels,
        .fmt = AUDIO_FORMAT_S16,
        .endianness = HOST_BIG_ENDIAN,
    };

    if (s->card.state) {
        s->voice_in = AUD_open_in(&s->card, s->voice_in, "am335x-mcasp.in",
                                  s, am335x_mcasp_audio_in, &as);
    }
}

/* Channels of a direction: its enabled slots times its serializers */
static uint32_t am335x_mcasp_channels(AM335xMcaspState *s, uint32_t tdm,
                                      uint32_t sers)
{
    uint32_t slots = am335x_mcasp_slots(s);

    return MIN(ctpop32(tdm & MAKE_64BIT_MASK(0, slots)) * ctpop32(sers),
               AM335X_MCASP_MAX_CHANNELS);
}

/* The transmitter starts: (re)open the audio output in its format */
static void am335x_mcasp_tx_start(AM335xMcaspState *s)
{
    uint32_t rate = am335x_mcasp_frame_hz(s);
    uint32_t channels = am335x_mcasp_channels(s, s->xtdm,
                                              am335x_mcasp_tx_sers(s));

    trace_am335x_mcasp_start("tx", am335x_mcasp_bclk_hz(s),
                             am335x_mcasp_slots(s), rate, channels);
    if (channels && rate && (!s->voice || rate != s->out_rate ||
                             channels != s->out_channels)) {
        s->out_rate = rate;
        s->out_channels = channels;
        am335x_mcasp_open_voice(s);
        s->out_head = 0;
        s->out_count = 0;
    }
    if (s->voice) {
        AUD_set_active_out(s->voice, 1);
    }
}

/* The receiver starts: (re)open the audio input in its format */
static void am335x_mcasp_rx_start(AM335xMcaspState *s)
{
    uint32_t rate = am335x_mcasp_frame_hz(s);
    uint32_t channels = am335x_mcasp_channels(s, s->rtdm,
                                              am335x_mcasp_rx_sers(s));

    trace_am335x_mcasp_start("rx", am335x_mcasp_bclk_hz(s),
                             am335x_mcasp_slots(s), rate, channels);
    /* A backend that cannot record (wav) is asked once per format */
    if (channels && rate && (rate != s->in_rate ||
                             channels != s->in_channels)) {
        s->in_rate = rate;
        s->in_channels = channels;
        am335x_mcasp_open_voice_in(s);
        s->in_head = 0;
        s->in_count = 0;
    }
    if (s->voice_in) {
        AUD_set_active_in(s->voice_in, 1);
    }
}

/*
 * The frame engine follows GBLCTL and the clocks: it runs while the
 * frame sync is out of reset and has its clocks; the transmitter and the
 * receiver come and go on it.
 */
static void am335x_mcasp_engine_update(AM335xMcaspState *s)
{
    bool on = am335x_mcasp_clocks_on(s);
    bool rx;

    if (on && !s->running) {
        int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

        s->running = true;
        s->stall_since = -1;
        s->slot = 0;
        s->frame_chan = 0;
        s->frame_start = now;
        s->next_slot = now + am335x_mcasp_slot_ns(s);
        timer_mod(&s->slot_timer, s->next_slot);
    } else if (!on && s->running) {
        s->running = false;
        timer_del(&s->slot_timer);
    }
    if (am335x_mcasp_tx_on(s) && !s->tx_was_on) {
        am335x_mcasp_tx_start(s);
    }
    s->tx_was_on = am335x_mcasp_tx_on(s);
    s->tx_active &= s->tx_was_on;

    if ((s->gblctl & GBL_RSMRST) && s->running &&
        FIELD_EX32(s->aclkxctl, ACLKXCTL, ASYNC) && !s->rx_was_on) {
        qemu_log_mask(LOG_UNIMP, "%s: a receiver on its own clocks "
                      "(ACLKXCTL.ASYNC) is not modelled\n", __func__);
    }
    rx = am335x_mcasp_rx_on(s);
    if (rx && !s->rx_was_on) {
        am335x_mcasp_rx_start(s);
    } else if (!rx && s->rx_was_on && s->voice_in) {
        AUD_set_active_in(s->voice_in, 0);
    }
    s->rx_was_on = rx;
    s->rx_active &= rx;
}

/* A receiving serializer has shifted in a slot's word */
static void am335x_mcasp_receive(AM335xMcaspState *s, int n, uint32_t wire)
{
    if (s->rbuf_full & BIT(n)) {
        s->rstat |= RSTAT_ROVRN;
        trace_am335x_mcasp_overrun(n, s->slot);
    }
    s->rbuf[n] = am335x_mcasp_rx_word(s, wire);
    s->rbuf_full |= BIT(n);
}

/*
 * The serializer a receiving one hears in loopback: DLBCTL.ORD 0 has the
 * odd serializers (N + 1) send to the even ones (N), 1 the even ones to
 * the odd ones; -1 for a serializer that hears none
 */
static int am335x_mcasp_dlb_peer(AM335xMcaspState *s, int n)
{
    if (FIELD_EX32(s->dlbctl, DLBCTL, ORD)) {
        return n & 1 ? n - 1 : -1;
    }
    return n & 1 ? -1 : n + 1;
}

/*
 * One time slot: each transmitting serializer sends its XBUF word, each
 * receiving one takes a word from the wire (the codec's sample, or its
 * transmitting pair's word in loopback)
 */
static void am335x_mcasp_slot(void *opaque)
{
    AM335xMcaspState *s = AM335X_MCASP(opaque);
    uint32_t slots = am335x_mcasp_slots(s);
    uint32_t wire[AM335X_MCASP_NUM_SER] = { 0 };
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    uint32_t tx, rx;
    bool tx_slot, rx_slot;
    int64_t slot_ns;

    if (!s->running) {
        return;
    }
    /* A state machine out of reset starts on the next frame sync */
    if (s->slot == 0) {
        s->tx_active = am335x_mcasp_tx_on(s);
        s->rx_active = am335x_mcasp_rx_on(s);
    }
    tx = s->tx_active ? am335x_mcasp_tx_sers(s) : 0;
    rx = s->rx_active ? am335x_mcasp_rx_sers(s) : 0;
    tx_slot = tx && (s->xtdm & BIT(s->slot));
    rx_slot = rx && (s->rtdm & BIT(s->slot));
    slot_ns = am335x_mcasp_slot_ns(s);
    if (!slot_ns || !am335x_mcasp_frame_hz(s)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: the bit clock or the frame "
                      "sync went away while running\n", __func__);
        s->running = false;
        return;
    }
    if ((tx_slot && (tx & ~s->xbuf_full) && s->dma_owed) ||
        (rx_slot && (rx & s->rbuf_full) && s->rx_dma_owed)) {
        /*
         * The data is asked for (or asked to be taken) but the DMA has
         * not moved it yet.  The EDMA answers within a few L3 cycles, but
         * here it runs from timers of its own, which the host may run
         * late: the slot waits for it, up to MCASP_DMA_GRACE_NS, before
         * this is an underrun or an overrun.
         */
        if (s->stall_since < 0) {
            /* From when the slot was due, however late its timer ran */
            s->stall_since = s->next_slot;
        }
        if (now - s->stall_since < MCASP_DMA_GRACE_NS) {
            s->next_slot = now + MCASP_DMA_RETRY_NS;
            timer_mod(&s->slot_timer, s->next_slot);
            return;
        }
    }
    if (s->stall_since >= 0) {
        /* The serial clock resumes from here */
        s->frame_start += now - s->stall_since;
        s->stall_since = -1;
        s->next_slot = now;
    }
    if (s->slot == 0 && rx && !FIELD_EX32(s->dlbctl, DLBCTL, DLBEN)) {
        am335x_mcasp_frame_in(s);
    }
    if (tx_slot) {
        for (int n = 0; n < AM335X_MCASP_NUM_SER; n++) {
            uint32_t w = 0;

            if (!(tx & BIT(n))) {
                continue;
            }
            if (s->xbuf_full & BIT(n)) {
                w = s->xbuf[n];
                s->xbuf_full &= ~BIT(n);
            } else {
                s->xstat |= XSTAT_XUNDRN;
                trace_am335x_mcasp_underrun(n, s->slot);
            }
            wire[n] = am335x_mcasp_tx_wire(s, w);
            if (s->frame_chan < AM335X_MCASP_MAX_CHANNELS) {
                /* The sample: the first 16 bits on the wire */
                s->frame[s->frame_chan++] = wire[n] >> 16;
            }
        }
        am335x_mcasp_fifo_service(s);
    }
    if (rx_slot) {
        for (int n = 0; n < AM335X_MCASP_NUM_SER; n++) {
            uint32_t in;

            if (!(rx & BIT(n))) {
                continue;
            }
            if (FIELD_EX32(s->dlbctl, DLBCTL, DLBEN)) {
                int peer = am335x_mcasp_dlb_peer(s, n);

                in = peer >= 0 ? wire[peer] : 0;
            } else {
                in = s->in_chan < AM335X_MCASP_MAX_CHANNELS ?
                     (uint32_t)(uint16_t)s->in_frame[s->in_chan++] << 16 : 0;
            }
            am335x_mcasp_receive(s, n, in);
        }
        am335x_mcasp_rfifo_service(s);
    }

    s->slot++;
    if (!FIELD_EX32(s->afsxctl, AFSXCTL, FSXM)) {
        /* The codec's frame sync starts the next frame */
        int64_t fs_next = s->frame_start +
                          clock_ticks_to_ns(s->afsx, 1);

        if (s->slot < slots && s->next_slot + slot_ns > fs_next) {
            /* A frame sync before the frame's last slot */
            if (tx) {
                s->xstat |= XSTAT_XSYNCERR;
            }
            if (rx) {
                s->rstat |= RSTAT_RSYNCERR;
            }
            s->slot = slots;
        }
        if (s->slot >= slots) {
            if (tx) {
                am335x_mcasp_frame_out(s);
            }
            s->slot = 0;
            s->frame_chan = 0;
            s->frame_start = fs_next;
            s->next_slot = MAX(fs_next, s->next_slot) + slot_ns;
        } else {
            s->next_slot += slot_ns;
        }
    } else {
        if (s->slot >= slots) {
            if (tx) {
                am335x_mcasp_frame_out(s);
            }
            s->slot = 0;
            s->frame_chan = 0;
            s->frame_start = s->next_slot;
        }
        s->next_slot += slot_ns;
    }
    am335x_mcasp_update(s);
    timer_mod(&s->slot_timer, s->next_slot);
}

static void am335x_mcasp_write_gblctl(AM335xMcaspState *s, uint32_t v)
{
    uint32_t old = s->gblctl;

    s->gblctl = v & 0x1f1f;
    if ((s->gblctl & GBL_XSRCLR) && !(old & GBL_XSRCLR)) {
        /* Serializers out of clear: their XBUFs are empty */
        s->xbuf_full &= ~am335x_mcasp_tx_sers(s);
        am335x_mcasp_fifo_service(s);
    }
    if ((s->gblctl & GBL_RSRCLR) && !(old & GBL_RSRCLR)) {
        s->rbuf_full &= ~am335x_mcasp_rx_sers(s);
    }
    /* The frame engine follows in am335x_mcasp_write(), after any write */
}

static uint64_t am335x_mcasp_read(void *opaque, hwaddr offset, unsigned size)
{
    AM335xMcaspState *s = AM335X_MCASP(opaque);
    uint32_t v = 0;

    switch (offset) {
    case A_PID:
        v = MCASP_PID;
        break;
    case A_PWRIDLESYSCONFIG:
        v = s->pwridle;
        break;
    case A_PFUNC:
        v = s->pfunc;
        break;
    case A_PDIR:
        v = s->pdir;
        break;
    case A_PDOUT:
        v = s->pdout;
        break;
    case A_PDSET:
        /* PDIN: the pins driven as outputs read back; inputs read 0 */
        v = s->pdout & s->pdir;
        break;
    case A_TLGC:
        v = s->tlgc;
        break;
    case A_TLMR:
        v = s->tlmr;
        break;
    case A_GBLCTL:
        v = s->gblctl;
        break;
    case A_AMUTE:
        v = s->amute;
        break;
    case A_DLBCTL:
        v = s->dlbctl;
        break;
    case A_DITCTL:
        v = s->ditctl;
        break;
    case A_RGBLCTL:
        v = FIELD_EX32(s->gblctl, GBLCTL, RCV);
        break;
    case A_RMASK:
        v = s->rmask;
        break;
    case A_RFMT:
        v = s->rfmt;
        break;
    case A_AFSRCTL:
        v = s->afsrctl;
        break;
    case A_ACLKRCTL:
        v = s->aclkrctl;
        break;
    case A_AHCLKRCTL:
        v = s->ahclkrctl;
        break;
    case A_RTDM:
        v = s->rtdm;
        break;
    case A_RINTCTL:
        v = s->rintctl;
        break;
    case A_RSTAT:
        v = am335x_mcasp_rstat(s);
        break;
    case A_RSLOT:
        v = s->slot;
        break;
    case A_RCLKCHK:
        v = s->rclkchk;
        break;
    case A_REVTCTL:
        v = s->revtctl;
        break;
    case A_XGBLCTL:
        v = s->gblctl & 0x1f00;
        break;
    case A_XMASK:
        v = s->xmask;
        break;
    case A_XFMT:
        v = s->xfmt;
        break;
    case A_AFSXCTL:
        v = s->afsxctl;
        break;
    case A_ACLKXCTL:
        v = s->aclkxctl;
        break;
    case A_AHCLKXCTL:
        v = s->ahclkxctl;
        break;
    case A_XTDM:
        v = s->xtdm;
        break;
    case A_XINTCTL:
        v = s->xintctl;
        break;
    case A_XSTAT:
        v = am335x_mcasp_xstat(s);
        break;
    case A_XSLOT:
        v = s->slot;
        break;
    case A_XCLKCHK:
        v = s->xclkchk;
        break;
    case A_XEVTCTL:
        v = s->xevtctl;
        break;
    case A_DIT0 ... A_DIT0 + 4 * 23:
        v = s->dit[(offset - A_DIT0) / 4];
        break;
    case A_SRCTL0 ... A_SRCTL0 + 4 * (AM335X_MCASP_NUM_SER - 1):
        v = s->srctl[(offset - A_SRCTL0) / 4];
        /* XRDY: the XBUF is empty; RRDY: the RBUF is full */
        if (FIELD_EX32(v, SRCTL, SRMOD) == SRMOD_TX &&
            !(s->xbuf_full & BIT((offset - A_SRCTL0) / 4))) {
            v |= R_SRCTL_XRDY_MASK;
        }
        if (FIELD_EX32(v, SRCTL, SRMOD) == SRMOD_RX &&
            (s->rbuf_full & BIT((offset - A_SRCTL0) / 4))) {
            v |= R_SRCTL_RRDY_MASK;
        }
        break;
    case A_XBUF0 ... A_XBUF0 + 4 * (AM335X_MCASP_NUM_SER - 1):
        v = s->xbuf[(offset - A_XBUF0) / 4];
        break;
    case A_RBUF0 ... A_RBUF0 + 4 * (AM335X_MCASP_NUM_SER - 1):
        /* The CPU's (or the EDMA's, RBUSEL) read of the word empties it */
        v = s->rbuf[(offset - A_RBUF0) / 4];
        s->rbuf_full &= ~BIT((offset - A_RBUF0) / 4);
        am335x_mcasp_update(s);
        break;
    case A_WFIFOCTL:
        v = s->wfifoctl;
        break;
    case A_WFIFOSTS:
        v = s->fifo_count;
        break;
    case A_RFIFOCTL:
        v = s->rfifoctl;
        break;
    case A_RFIFOSTS:
        v = s->rfifo_count;
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: bad offset 0x%" HWADDR_PRIx "\n",
                      __func__, offset);
        break;
    }
    trace_am335x_mcasp_read(offset, v);
    return v;
}

static void am335x_mcasp_write(void *opaque, hwaddr offset, uint64_t value,
                               unsigned size)
{
    AM335xMcaspState *s = AM335X_MCASP(opaque);
    uint32_t v = value;

    trace_am335x_mcasp_write(offset, v);
    switch (offset) {
    case A_PID:
        break;
    case A_PWRIDLESYSCONFIG:
        s->pwridle = v & 0x3;
        break;
    case A_PFUNC:
        s->pfunc = v;
        break;
    case A_PDIR:
        s->pdir = v;
        break;
    case A_PDOUT:
        s->pdout = v;
        break;
    case A_PDSET:
        s->pdout |= v;
        break;
    case A_PDCLR:
        s->pdout &= ~v;
        break;
    case A_TLGC:
        s->tlgc = v;
        break;
    case A_TLMR:
        s->tlmr = v;
        break;
    case A_TLEC:
        break;
    case A_GBLCTL:
        am335x_mcasp_write_gblctl(s, v);
        break;
    case A_AMUTE:
        s->amute = v & 0x1fff;
        break;
    case A_DLBCTL:
        s->dlbctl = v & 0xf;
        break;
    case A_DITCTL:
        s->ditctl = v & 0xd;
        if (v & 1) {
            qemu_log_mask(LOG_UNIMP, "%s: DIT mode\n", __func__);
        }
        break;
    case A_RGBLCTL:
        am335x_mcasp_write_gblctl(s, (s->gblctl & 0x1f00) | (v & 0x1f));
        break;
    case A_RMASK:
        s->rmask = v;
        break;
    case A_RFMT:
        s->rfmt = v & 0x3ffff;
        break;
    case A_AFSRCTL:
        s->afsrctl = v & 0xff93;
        break;
    case A_ACLKRCTL:
        s->aclkrctl = v & 0xbf;
        break;
    case A_AHCLKRCTL:
        s->ahclkrctl = v & 0xcfff;
        break;
    case A_RTDM:
        s->rtdm = v;
        break;
    case A_RINTCTL:
        s->rintctl = v & 0xff;
        break;
    case A_RSTAT:
        s->rstat &= ~(v & RSTAT_W1C);
        break;
    case A_RCLKCHK:
        s->rclkchk = v & 0xffff0f;
        break;
    case A_REVTCTL:
        s->revtctl = v & 1;
        break;
    case A_XGBLCTL:
        am335x_mcasp_write_gblctl(s, (s->gblctl & 0x1f) | (v & 0x1f00));
        break;
    case A_XMASK:
        s->xmask = v;
        break;
    case A_XFMT:
        s->xfmt = v & 0x3ffff;
        break;
    case A_AFSXCTL:
        s->afsxctl = v & 0xff93;
        break;
    case A_ACLKXCTL:
        s->aclkxctl = v & 0xff;
        break;
    case A_AHCLKXCTL:
        s->ahclkxctl = v & 0xcfff;
        break;
    case A_XTDM:
        s->xtdm = v;
        break;
    case A_XINTCTL:
        s->xintctl = v & 0xff;
        break;
    case A_XSTAT:
        s->xstat &= ~(v & XSTAT_W1C);
        break;
    case A_XCLKCHK:
        s->xclkchk = v & 0xffff0f;
        break;
    case A_XEVTCTL:
        s->xevtctl = v & 1;
        break;
    case A_DIT0 ... A_DIT0 + 4 * 23:
        s->dit[(offset - A_DIT0) / 4] = v;
        break;
    case A_SRCTL0 ... A_SRCTL0 + 4 * (AM335X_MCASP_NUM_SER - 1):
        s->srctl[(offset - A_SRCTL0) / 4] = v & 0xf;
        break;
    case A_XBUF0 ... A_XBUF0 + 4 * (AM335X_MCASP_NUM_SER - 1):
        s->xbuf[(offset - A_XBUF0) / 4] = v;
        s->xbuf_full |= BIT((offset - A_XBUF0) / 4);
        break;
    case A_RBUF0 ... A_RBUF0 + 4 * (AM335X_MCASP_NUM_SER - 1):
        break;
    case A_WFIFOCTL:
        if (!(v & R_WFIFOCTL_WENA_MASK)) {
            /* Disabling the FIFO empties it */
            s->fifo_head = 0;
            s->fifo_count = 0;
        }
        s->wfifoctl = v & 0x1ffff;
        am335x_mcasp_fifo_service(s);
        break;
    case A_RFIFOCTL:
        if (!(v & R_WFIFOCTL_WENA_MASK)) {
            s->rfifo_head = 0;
            s->rfifo_count = 0;
        }
        s->rfifoctl = v & 0x1ffff;
        am335x_mcasp_rfifo_service(s);
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: bad offset 0x%" HWADDR_PRIx "\n",
                      __func__, offset);
        break;
    }
    /* A clock, a frame format or a reset bit may have changed */
    am335x_mcasp_engine_update(s);
    am335x_mcasp_update(s);
}

static const MemoryRegionOps am335x_mcasp_ops = {
    .read = am335x_mcasp_read,
    .write = am335x_mcasp_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 4,
    .valid.max_access_size = 4,
};

static uint64_t am335x_mcasp_data_read(void *opaque, hwaddr offset,
                                       unsigned size)
{
    AM335xMcaspState *s = AM335X_MCASP(opaque);
    uint32_t v = am335x_mcasp_port_read(s);

    am335x_mcasp_update(s);
    return v;
}

static void am335x_mcasp_data_write(void *opaque, hwaddr offset,
                                    uint64_t value, unsigned size)
{
    AM335xMcaspState *s = AM335X_MCASP(opaque);

    am335x_mcasp_port_write(s, value);
    am335x_mcasp_update(s);
}

/*
 * Each access to the data port is one word, whatever its width: the EDMA
 * moves 16-bit samples as 16-bit elements (ACNT 2), right-justified in
 * the serializer's word.
 */
static const MemoryRegionOps am335x_mcasp_data_ops = {
    .read = am335x_mcasp_data_read,
    .write = am335x_mcasp_data_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 1,
    .valid.max_access_size = 4,
    .impl.min_access_size = 1,
    .impl.max_access_size = 4,
};

static void am335x_mcasp_reset_enter(Object *obj, ResetType type)
{
    AM335xMcaspState *s = AM335X_MCASP(obj);

    s->running = false;
    s->tx_was_on = s->tx_active = false;
    s->rx_was_on = s->rx_active = false;
    timer_del(&s->slot_timer);
    s->pwridle = 0;
    s->pfunc = s->pdir = s->pdout = 0;
    s->tlgc = s->tlmr = 0;
    s->gblctl = s->amute = s->dlbctl = s->ditctl = 0;
    s->rmask = s->rfmt = s->afsrctl = s->rtdm = s->rintctl = 0;
    s->aclkrctl = 0x60;         /* CLKRM internal, ASYNC */
    s->ahclkrctl = 0x8000;      /* HCLKRM internal */
    s->rstat = s->rclkchk = s->revtctl = 0;
    s->xmask = s->xfmt = s->afsxctl = s->xtdm = s->xintctl = 0;
    s->aclkxctl = 0x60;
    s->ahclkxctl = 0x8000;
    s->xstat = s->xclkchk = s->xevtctl = 0;
    memset(s->dit, 0, sizeof(s->dit));
    memset(s->srctl, 0, sizeof(s->srctl));
    memset(s->xbuf, 0, sizeof(s->xbuf));
    s->xbuf_full = 0;
    s->rfifoctl = s->wfifoctl = 0x1004;     /* NUMEVT 16, NUMDMA 4 */
    s->fifo_head = s->fifo_count = 0;
    s->port_ser = 0;
    s->dma_owed = 0;
    s->stall_since = -1;
    s->slot = 0;
    s->frame_chan = 0;
    s->out_head = s->out_count = 0;
    memset(s->rbuf, 0, sizeof(s->rbuf));
    s->rbuf_full = 0;
    s->rfifo_head = s->rfifo_count = 0;
    s->rport_ser = 0;
    s->rx_dma_owed = 0;
    s->frame_start = 0;
    s->in_chan = 0;
    memset(s->in_frame, 0, sizeof(s->in_frame));
    s->in_head = s->in_count = 0;
}

static void am335x_mcasp_reset_hold(Object *obj, ResetType type)
{
    am335x_mcasp_update(AM335X_MCASP(obj));
}

static void am335x_mcasp_realize(DeviceState *dev, Error **errp)
{
    AM335xMcaspState *s = AM335X_MCASP(dev);

    /*
     * Only the McASP the board wires to its audio output has an audiodev
     * (-M <board>,audiodev=ID, or -audio); the other one plays nowhere.
     */
    if (s->card.state && !AUD_register_card("am335x-mcasp", &s->card,
                                            errp)) {
        return;
    }
    memory_region_init_io(&s->iomem, OBJECT(s), &am335x_mcasp_ops, s,
                          TYPE_AM335X_MCASP, AM335X_MCASP_CFG_SIZE);
    memory_region_init_io(&s->data, OBJECT(s), &am335x_mcasp_data_ops, s,
                          TYPE_AM335X_MCASP ".data", AM335X_MCASP_DATA_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->iomem);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->data);
}

/* The codec started or stopped its bit clock or frame sync */
static void am335x_mcasp_pin_clock(void *opaque, ClockEvent event)
{
    AM335xMcaspState *s = AM335X_MCASP(opaque);

    am335x_mcasp_engine_update(s);
    am335x_mcasp_update(s);
}

static void am335x_mcasp_init(Object *obj)
{
    AM335xMcaspState *s = AM335X_MCASP(obj);

    timer_init_ns(&s->slot_timer, QEMU_CLOCK_VIRTUAL, am335x_mcasp_slot, s);
    for (int i = 0; i < 2; i++) {
        sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq[i]);
    }
    qdev_init_gpio_out_named(DEVICE(obj), s->dma_request,
                             AM335X_MCASP_DMA_REQUEST, 2);
    s->aclkx = qdev_init_clock_in(DEVICE(obj), AM335X_MCASP_ACLKX,
                                  am335x_mcasp_pin_clock, s, ClockUpdate);
    s->afsx = qdev_init_clock_in(DEVICE(obj), AM335X_MCASP_AFSX,
                                 am335x_mcasp_pin_clock, s, ClockUpdate);
}

static int am335x_mcasp_post_load(void *opaque, int version_id)
{
    AM335xMcaspState *s = AM335X_MCASP(opaque);

    if (s->fifo_head >= AM335X_MCASP_FIFO_WORDS ||
        s->fifo_count > AM335X_MCASP_FIFO_WORDS ||
        s->dma_owed > AM335X_MCASP_FIFO_WORDS ||
        s->frame_chan > AM335X_MCASP_MAX_CHANNELS || s->slot >= 32 ||
        s->rfifo_head >= AM335X_MCASP_FIFO_WORDS ||
        s->rfifo_count > AM335X_MCASP_FIFO_WORDS ||
        s->rx_dma_owed > AM335X_MCASP_FIFO_WORDS ||
        s->in_chan > AM335X_MCASP_MAX_CHANNELS ||
        s->in_head >= ARRAY_SIZE(s->in) || s->in_count > ARRAY_SIZE(s->in) ||
        s->in_channels > AM335X_MCASP_MAX_CHANNELS ||
        s->out_head >= ARRAY_SIZE(s->out) ||
        s->out_count > ARRAY_SIZE(s->out) ||
        s->out_channels > AM335X_MCASP_MAX_CHANNELS) {
        return -EINVAL;
    }
    /* The audio voices are the destination's: reopen them */
    if (s->card.state && s->tx_was_on && s->out_rate && s->out_channels) {
        am335x_mcasp_open_voice(s);
        if (s->voice) {
            AUD_set_active_out(s->voice, 1);
        }
    }
    if (s->card.state && s->rx_was_on && s->in_rate && s->in_channels) {
        am335x_mcasp_open_voice_in(s);
        if (s->voice_in) {
            AUD_set_active_in(s->voice_in, 1);
        }
    }
    return 0;
}

static const VMStateDescription vmstate_am335x_mcasp = {
    .name = TYPE_AM335X_MCASP,
    .version_id = 2,
    .minimum_version_id = 2,
    .post_load = am335x_mcasp_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_TIMER(slot_timer, AM335xMcaspState),
        VMSTATE_UINT32(pwridle, AM335xMcaspState),
        VMSTATE_UINT32(pfunc, AM335xMcaspState),
        VMSTATE_UINT32(pdir, AM335xMcaspState),
        VMSTATE_UINT32(pdout, AM335xMcaspState),
        VMSTATE_UINT32(tlgc, AM335xMcaspState),
        VMSTATE_UINT32(tlmr, AM335xMcaspState),
        VMSTATE_UINT32(gblctl, AM335xMcaspState),
        VMSTATE_UINT32(amute, AM335xMcaspState),
        VMSTATE_UINT32(dlbctl, AM335xMcaspState),
        VMSTATE_UINT32(ditctl, AM335xMcaspState),
        VMSTATE_UINT32(rmask, AM335xMcaspState),
        VMSTATE_UINT32(rfmt, AM335xMcaspState),
        VMSTATE_UINT32(afsrctl, AM335xMcaspState),
        VMSTATE_UINT32(aclkrctl, AM335xMcaspState),
        VMSTATE_UINT32(ahclkrctl, AM335xMcaspState),
        VMSTATE_UINT32(rtdm, AM335xMcaspState),
        VMSTATE_UINT32(rintctl, AM335xMcaspState),
        VMSTATE_UINT32(rstat, AM335xMcaspState),
        VMSTATE_UINT32(rclkchk, AM335xMcaspState),
        VMSTATE_UINT32(revtctl, AM335xMcaspState),
        VMSTATE_UINT32(xmask, AM335xMcaspState),
        VMSTATE_UINT32(xfmt, AM335xMcaspState),
        VMSTATE_UINT32(afsxctl, AM335xMcaspState),
        VMSTATE_UINT32(aclkxctl, AM335xMcaspState),
        VMSTATE_UINT32(ahclkxctl, AM335xMcaspState),
        VMSTATE_UINT32(xtdm, AM335xMcaspState),
        VMSTATE_UINT32(xintctl, AM335xMcaspState),
        VMSTATE_UINT32(xstat, AM335xMcaspState),
        VMSTATE_UINT32(xclkchk, AM335xMcaspState),
        VMSTATE_UINT32(xevtctl, AM335xMcaspState),
        VMSTATE_UINT32_ARRAY(dit, AM335xMcaspState, 24),
        VMSTATE_UINT32_ARRAY(srctl, AM335xMcaspState, AM335X_MCASP_NUM_SER),
        VMSTATE_UINT32_ARRAY(xbuf, AM335xMcaspState, AM335X_MCASP_NUM_SER),
        VMSTATE_UINT32(xbuf_full, AM335xMcaspState),
        VMSTATE_UINT32(rfifoctl, AM335xMcaspState),
        VMSTATE_UINT32(wfifoctl, AM335xMcaspState),
        VMSTATE_UINT32_ARRAY(fifo, AM335xMcaspState,
                             AM335X_MCASP_FIFO_WORDS),
        VMSTATE_UINT32(fifo_head, AM335xMcaspState),
        VMSTATE_UINT32(fifo_count, AM335xMcaspState),
        VMSTATE_UINT32(port_ser, AM335xMcaspState),
        VMSTATE_UINT32(dma_owed, AM335xMcaspState),
        VMSTATE_UINT32_ARRAY(rbuf, AM335xMcaspState, AM335X_MCASP_NUM_SER),
        VMSTATE_UINT32(rbuf_full, AM335xMcaspState),
        VMSTATE_UINT32_ARRAY(rfifo, AM335xMcaspState,
                             AM335X_MCASP_FIFO_WORDS),
        VMSTATE_UINT32(rfifo_head, AM335xMcaspState),
        VMSTATE_UINT32(rfifo_count, AM335xMcaspState),
        VMSTATE_UINT32(rport_ser, AM335xMcaspState),
        VMSTATE_UINT32(rx_dma_owed, AM335xMcaspState),
        VMSTATE_CLOCK(aclkx, AM335xMcaspState),
        VMSTATE_CLOCK(afsx, AM335xMcaspState),
        VMSTATE_BOOL(running, AM335xMcaspState),
        VMSTATE_BOOL(tx_was_on, AM335xMcaspState),
        VMSTATE_BOOL(rx_was_on, AM335xMcaspState),
        VMSTATE_BOOL(tx_active, AM335xMcaspState),
        VMSTATE_BOOL(rx_active, AM335xMcaspState),
        VMSTATE_INT64(frame_start, AM335xMcaspState),
        VMSTATE_INT64(next_slot, AM335xMcaspState),
        VMSTATE_INT64(stall_since, AM335xMcaspState),
        VMSTATE_UINT32(slot, AM335xMcaspState),
        VMSTATE_UINT32(frame_chan, AM335xMcaspState),
        VMSTATE_INT16_ARRAY(frame, AM335xMcaspState,
                            AM335X_MCASP_MAX_CHANNELS),
        VMSTATE_INT16_ARRAY(out, AM335xMcaspState,
                            AM335X_MCASP_OUT_FRAMES *
                            AM335X_MCASP_MAX_CHANNELS),
        VMSTATE_UINT32(out_head, AM335xMcaspState),
        VMSTATE_UINT32(out_count, AM335xMcaspState),
        VMSTATE_UINT32(out_rate, AM335xMcaspState),
        VMSTATE_UINT32(out_channels, AM335xMcaspState),
        VMSTATE_UINT32(in_chan, AM335xMcaspState),
        VMSTATE_INT16_ARRAY(in_frame, AM335xMcaspState,
                            AM335X_MCASP_MAX_CHANNELS),
        VMSTATE_INT16_ARRAY(in, AM335xMcaspState,
                            AM335X_MCASP_OUT_FRAMES *
                            AM335X_MCASP_MAX_CHANNELS),
        VMSTATE_UINT32(in_head, AM335xMcaspState),
        VMSTATE_UINT32(in_count, AM335xMcaspState),
        VMSTATE_UINT32(in_rate, AM335xMcaspState),
        VMSTATE_UINT32(in_channels, AM335xMcaspState),
        VMSTATE_END_OF_LIST()
    }
};

static const Property am335x_mcasp_properties[] = {
    DEFINE_AUDIO_PROPERTIES(AM335xMcaspState, card),
    /* AUXCLK is CLK_M_OSC: 24 MHz on both boards */
    DEFINE_PROP_UINT32("auxclk-hz", AM335xMcaspState, auxclk_hz, 24000000),
    /* The AHCLKX pin: nothing unless the board drives it */
    DEFINE_PROP_UINT32("ahclkx-hz", AM335xMcaspState, ahclkx_hz, 0),
};

static void am335x_mcasp_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->realize = am335x_mcasp_realize;
    dc->vmsd = &vmstate_am335x_mcasp;
    dc->desc = "TI AM335x McASP";
    device_class_set_props(dc, am335x_mcasp_properties);
    rc->phases.enter = am335x_mcasp_reset_enter;
    rc->phases.hold = am335x_mcasp_reset_hold;
}

static const TypeInfo am335x_mcasp_info = {
    .name = TYPE_AM335X_MCASP,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AM335xMcaspState),
    .instance_init = am335x_mcasp_init,
    .class_init = am335x_mcasp_class_init,
};

static void am335x_mcasp_register_types(void)
{
    type_register_static(&am335x_mcasp_info);
}

type_init(am335x_mcasp_register_types)
