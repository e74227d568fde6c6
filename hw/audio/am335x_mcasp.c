/*
 * TI AM335x Multichannel Audio Serial Port (McASP)
 *
 * The transmit side of a McASP: four serializers (AXR0-3), each sending
 * one word per enabled time slot of a frame, with the clocks, frame sync
 * and formatting the X* registers set; the 64-word write FIFO (AFIFO) in
 * front of the serializers' XBUF registers; the data port that the EDMA
 * writes; the DMA request and the transmit interrupt.
 *
 * Timing, on the virtual clock: a slot takes its XSSZ bits at the bit
 * clock ACLKX = AHCLKX / (CLKXDIV + 1), AHCLKX being AUXCLK /
 * (HCLKXDIV + 1) when internal or the board's AHCLKX pin (the BBB's
 * 24.576 MHz oscillator) when external.  At each enabled slot every
 * transmitting serializer takes its word from XBUF; an empty XBUF is an
 * underrun (XUNDRN, and the slot sends zeros).  The FIFO refills emptied
 * XBUFs and asks the EDMA for WNUMEVT more words whenever it has room for
 * them; without the FIFO, an empty XBUF (XDATA) is the DMA request.
 *
 * What the serializers send goes to the board's codec; this model plays
 * it on the McASP's audiodev: per slot, the first 16 bits on the wire
 * (after XMASK/XPAD, XROT and XRVRS), as a signed 16-bit sample, at the
 * frame rate, one channel per enabled slot and serializer.
 *
 * Not modelled: the receive side (registers kept; no samples arrive), an
 * external bit clock or frame sync (a codec as clock master: the
 * transmitter then never runs), DIT (S/PDIF) mode, the clock checkers,
 * mute, loopback.
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

/* GBLCTL's transmit half */
#define GBL_XCLKRST             BIT(8)
#define GBL_XHCLKRST            BIT(9)
#define GBL_XSRCLR              BIT(10)
#define GBL_XSMRST              BIT(11)
#define GBL_XFRST               BIT(12)
#define GBL_XRUN                (GBL_XCLKRST | GBL_XHCLKRST | GBL_XSMRST | \
                                 GBL_XFRST)
#define GBL_RRUN                0x1b

/* XSTAT */
#define XSTAT_XUNDRN            BIT(0)
#define XSTAT_XDATA             BIT(5)
#define XSTAT_XDMAERR           BIT(7)
#define XSTAT_XERR              BIT(8)
#define XSTAT_W1C               0xdf
#define XSTAT_ERRORS            0x87

#define SRMOD_TX                1

/*
 * How long a slot waits for data the DMA was asked for, and how often it
 * looks.  Not a property of the part (its EDMA answers within a
 * microsecond): the longest delay a loaded host may add to QEMU's timers
 * that the model hides, well inside ALSA's own timeouts.
 */
#define MCASP_DMA_GRACE_NS      (20 * SCALE_MS)
#define MCASP_DMA_RETRY_NS      (1 * SCALE_US)

static uint32_t am335x_mcasp_tx_sers(AM335xMcaspState *s)
{
    uint32_t mask = 0;

    for (int n = 0; n < AM335X_MCASP_NUM_SER; n++) {
        if (FIELD_EX32(s->srctl[n], SRCTL, SRMOD) == SRMOD_TX) {
            mask |= BIT(n);
        }
    }
    return mask;
}

/* Slots per frame: XMOD 0 is burst mode (one), 2-32 TDM */
static uint32_t am335x_mcasp_slots(AM335xMcaspState *s)
{
    uint32_t xmod = FIELD_EX32(s->afsxctl, AFSXCTL, XMOD);

    return xmod >= 2 && xmod <= 32 ? xmod : 1;
}

/* XSSZ: 8 to 32 bits a slot, (XSSZ + 1) * 2 */
static uint32_t am335x_mcasp_slot_bits(AM335xMcaspState *s)
{
    return MAX((FIELD_EX32(s->xfmt, XFMT, XSSZ) + 1) * 2, 8);
}

/* The bit clock ACLKX, 0 when it comes from outside (not modelled) */
static uint64_t am335x_mcasp_bclk_hz(AM335xMcaspState *s)
{
    uint64_t hclk;

    if (!FIELD_EX32(s->aclkxctl, ACLKXCTL, CLKXM)) {
        return 0;
    }
    if (FIELD_EX32(s->ahclkxctl, AHCLKXCTL, HCLKXM)) {
        hclk = s->auxclk_hz /
               (FIELD_EX32(s->ahclkxctl, AHCLKXCTL, HCLKXDIV) + 1);
    } else {
        hclk = s->ahclkx_hz;
    }
    return hclk / (FIELD_EX32(s->aclkxctl, ACLKXCTL, CLKXDIV) + 1);
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

static void am335x_mcasp_update(AM335xMcaspState *s)
{
    am335x_mcasp_dma_check(s);
    qemu_set_irq(s->irq[0], am335x_mcasp_xstat(s) & s->xintctl & 0xff);
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

/* The first 16 bits a slot puts on the wire, MSB first, as a sample */
static int16_t am335x_mcasp_sample(AM335xMcaspState *s, uint32_t w)
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
    return wire >> 16;
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

/* (Re)opens the audio voice at out_rate and out_channels, signed 16-bit */
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

static int64_t am335x_mcasp_slot_ns(AM335xMcaspState *s)
{
    uint64_t bclk = am335x_mcasp_bclk_hz(s);

    return muldiv64(am335x_mcasp_slot_bits(s), NANOSECONDS_PER_SECOND,
                    bclk);
}

/* One time slot: each transmitting serializer sends its XBUF word */
static void am335x_mcasp_slot(void *opaque)
{
    AM335xMcaspState *s = AM335X_MCASP(opaque);
    uint32_t tx = am335x_mcasp_tx_sers(s);
    uint32_t slots = am335x_mcasp_slots(s);

    if (!s->tx_running) {
        return;
    }
    if (!am335x_mcasp_bclk_hz(s)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: the bit clock went away while "
                      "transmitting\n", __func__);
        s->tx_running = false;
        return;
    }
    if ((s->xtdm & BIT(s->slot)) && (tx & ~s->xbuf_full) && s->dma_owed) {
        int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

        /*
         * The data is asked for but not there yet.  The EDMA answers
         * within a few L3 cycles, but here it runs from timers of its own,
         * which the host may run late: the slot waits for it, up to
         * MCASP_DMA_GRACE_NS, before this is an underrun.
         */
        if (s->stall_since < 0) {
            s->stall_since = now;
        }
        if (now - s->stall_since < MCASP_DMA_GRACE_NS) {
            s->next_slot = now + MCASP_DMA_RETRY_NS;
            timer_mod(&s->slot_timer, s->next_slot);
            return;
        }
    }
    if (s->stall_since >= 0) {
        /* The serial clock resumes from here */
        s->stall_since = -1;
        s->next_slot = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    }
    if (s->xtdm & BIT(s->slot)) {
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
            if (s->frame_chan < AM335X_MCASP_MAX_CHANNELS) {
                s->frame[s->frame_chan++] = am335x_mcasp_sample(s, w);
            }
        }
        am335x_mcasp_fifo_service(s);
    }
    if (++s->slot >= slots) {
        am335x_mcasp_frame_out(s);
        s->slot = 0;
        s->frame_chan = 0;
    }
    am335x_mcasp_update(s);
    s->next_slot += am335x_mcasp_slot_ns(s);
    timer_mod(&s->slot_timer, s->next_slot);
}

/* The transmitter starts: (re)open the audio voice in its format */
static void am335x_mcasp_tx_start(AM335xMcaspState *s)
{
    uint64_t bclk = am335x_mcasp_bclk_hz(s);
    uint32_t slots = am335x_mcasp_slots(s);
    uint32_t channels = ctpop32(s->xtdm & MAKE_64BIT_MASK(0, slots)) *
                        ctpop32(am335x_mcasp_tx_sers(s));
    uint32_t rate;

    if (!bclk) {
        qemu_log_mask(LOG_UNIMP, "%s: no internal bit clock; an external "
                      "ACLKX is not modelled\n", __func__);
        return;
    }
    rate = bclk / (slots * am335x_mcasp_slot_bits(s));
    channels = MIN(channels, AM335X_MCASP_MAX_CHANNELS);
    trace_am335x_mcasp_start(bclk, slots, rate, channels);
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
    s->tx_running = true;
    s->stall_since = -1;
    s->slot = 0;
    s->frame_chan = 0;
    s->next_slot = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                   am335x_mcasp_slot_ns(s);
    timer_mod(&s->slot_timer, s->next_slot);
}

static void am335x_mcasp_tx_stop(AM335xMcaspState *s)
{
    s->tx_running = false;
    timer_del(&s->slot_timer);
}

static void am335x_mcasp_write_gblctl(AM335xMcaspState *s, uint32_t v)
{
    uint32_t old = s->gblctl;

    s->gblctl = v & 0x1f1f;
    if ((s->gblctl & GBL_XSRCLR) && !(old & GBL_XSRCLR)) {
        /* Serializers out of clear: their XBUFs are empty */
        s->xbuf_full = 0;
        am335x_mcasp_fifo_service(s);
    }
    if ((s->gblctl & GBL_XRUN) == GBL_XRUN &&
        (old & GBL_XRUN) != GBL_XRUN) {
        am335x_mcasp_tx_start(s);
    } else if ((s->gblctl & GBL_XRUN) != GBL_XRUN && s->tx_running) {
        am335x_mcasp_tx_stop(s);
    }
    if ((s->gblctl & GBL_RRUN) == GBL_RRUN && (old & GBL_RRUN) != GBL_RRUN) {
        qemu_log_mask(LOG_UNIMP, "%s: the receiver is not modelled\n",
                      __func__);
    }
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
        v = s->rstat;
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
        /* XRDY: the serializer's XBUF is empty */
        if (FIELD_EX32(v, SRCTL, SRMOD) == SRMOD_TX &&
            !(s->xbuf_full & BIT((offset - A_SRCTL0) / 4))) {
            v |= R_SRCTL_XRDY_MASK;
        }
        break;
    case A_XBUF0 ... A_XBUF0 + 4 * (AM335X_MCASP_NUM_SER - 1):
        v = s->xbuf[(offset - A_XBUF0) / 4];
        break;
    case A_RBUF0 ... A_RBUF0 + 4 * (AM335X_MCASP_NUM_SER - 1):
        v = 0;
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
        v = 0;
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
        s->rstat &= ~(v & 0xff);
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
        s->rfifoctl = v & 0x1ffff;
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: bad offset 0x%" HWADDR_PRIx "\n",
                      __func__, offset);
        break;
    }
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
    qemu_log_mask(LOG_UNIMP, "%s: the receiver is not modelled\n", __func__);
    return 0;
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

    am335x_mcasp_tx_stop(s);
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

static void am335x_mcasp_init(Object *obj)
{
    AM335xMcaspState *s = AM335X_MCASP(obj);

    timer_init_ns(&s->slot_timer, QEMU_CLOCK_VIRTUAL, am335x_mcasp_slot, s);
    for (int i = 0; i < 2; i++) {
        sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq[i]);
    }
    qdev_init_gpio_out_named(DEVICE(obj), s->dma_request,
                             AM335X_MCASP_DMA_REQUEST, 2);
}

static int am335x_mcasp_post_load(void *opaque, int version_id)
{
    AM335xMcaspState *s = AM335X_MCASP(opaque);

    if (s->fifo_head >= AM335X_MCASP_FIFO_WORDS ||
        s->fifo_count > AM335X_MCASP_FIFO_WORDS ||
        s->dma_owed > AM335X_MCASP_FIFO_WORDS ||
        s->frame_chan > AM335X_MCASP_MAX_CHANNELS || s->slot >= 32 ||
        s->out_head >= ARRAY_SIZE(s->out) ||
        s->out_count > ARRAY_SIZE(s->out) ||
        s->out_channels > AM335X_MCASP_MAX_CHANNELS) {
        return -EINVAL;
    }
    /* The audio voice is the destination's: reopen it */
    if (s->card.state && s->tx_running && s->out_rate && s->out_channels) {
        am335x_mcasp_open_voice(s);
        if (s->voice) {
            AUD_set_active_out(s->voice, 1);
        }
    }
    return 0;
}

static const VMStateDescription vmstate_am335x_mcasp = {
    .name = TYPE_AM335X_MCASP,
    .version_id = 1,
    .minimum_version_id = 1,
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
        VMSTATE_BOOL(tx_running, AM335xMcaspState),
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
