/*
 * TI AM335x CPSW communications port programming interface DMA (CPDMA)
 *
 * The CPSW host port's DMA: 8 TX and 8 RX channels, each a linked list of
 * 16-byte buffer descriptors (next, buffer, offset/length, flags/packet
 * length) in the CPPI RAM or in DDR, handed over with the OWNER bit and
 * started by writing the head descriptor pointer (HDP) in the state RAM.
 * For each packet done, the DMA clears OWNER in its SOP descriptor, sets
 * EOQ in its EOP descriptor if that ended the list (then HDP reads 0 and
 * the host must restart the channel: the "misqueue"), writes the EOP
 * descriptor's address to the channel's completion pointer (CP) and raises
 * the channel's interrupt, which stays raised until the host writes that
 * same address back to CP.  A teardown ends a channel's list at once and
 * completes with CP = 0xfffffffc.
 *
 * TX runs when HDP is written; RX fills the list as frames come in from
 * the switch.  Bad descriptors (no SOP, no OWNER, null buffer or length,
 * chains without EOP, a packet length that is not the sum of its buffers'
 * lengths, or addresses that decode to nothing) stop the DMA
 * with a host error in DMASTATUS and the HOST_ERR interrupt, as the
 * silicon does; only a soft reset restarts it.  Descriptor lists are
 * guest memory: every walk is bounded.
 *
 * With the machine's timing=on, one TX packet is on its way at a time
 * (see cpdma_tx_start): its buffers cross the L3 port at the port's
 * bandwidth after the memory's latency each, and it completes when the
 * CPSW says it has left the wire; the channels take turns.  RX frames
 * book the same port (am335x_cpdma_rx_book).  The fetch of the next
 * packet does not overlap the wire time of the one before, which the
 * silicon's FIFO allows: about 80 ns between frames.
 *
 * Not modelled: TX priorities and rate limiting (channels are served in
 * HDP-write order, or in turn with timing), RX flow control, the receive
 * threshold DMA stall, command IDLE, and the teardown-complete flag in a
 * pending SOP descriptor (the host frees what is left, as Linux does).
 *
 * Reference: AM335x TRM (SPRUH73), sections 14.3.2.7-14.3.2.10 and 14.5.5.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qapi/error.h"
#include "hw/net/am335x_cpdma.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "system/dma.h"
#include "trace.h"

REG32(TX_IDVER, 0x00)
REG32(TX_CONTROL, 0x04)
REG32(TX_TEARDOWN, 0x08)
REG32(RX_IDVER, 0x10)
REG32(RX_CONTROL, 0x14)
REG32(RX_TEARDOWN, 0x18)
REG32(SOFT_RESET, 0x1c)
REG32(DMACONTROL, 0x20)
REG32(DMASTATUS, 0x24)
    FIELD(DMASTATUS, RX_ERR_CH, 8, 3)
    FIELD(DMASTATUS, RX_HOST_ERR_CODE, 12, 4)
    FIELD(DMASTATUS, TX_ERR_CH, 16, 3)
    FIELD(DMASTATUS, TX_HOST_ERR_CODE, 20, 4)
    FIELD(DMASTATUS, IDLE, 31, 1)
REG32(RX_BUFFER_OFFSET, 0x28)
REG32(EMCONTROL, 0x2c)
REG32(TX_PRI0_RATE, 0x30)
REG32(TX_PRI7_RATE, 0x4c)
REG32(TX_INTSTAT_RAW, 0x80)
REG32(TX_INTSTAT_MASKED, 0x84)
REG32(TX_INTMASK_SET, 0x88)
REG32(TX_INTMASK_CLEAR, 0x8c)
REG32(IN_VECTOR, 0x90)
REG32(EOI_VECTOR, 0x94)
REG32(RX_INTSTAT_RAW, 0xa0)
REG32(RX_INTSTAT_MASKED, 0xa4)
REG32(RX_INTMASK_SET, 0xa8)
REG32(RX_INTMASK_CLEAR, 0xac)
REG32(DMA_INTSTAT_RAW, 0xb0)
REG32(DMA_INTSTAT_MASKED, 0xb4)
REG32(DMA_INTMASK_SET, 0xb8)
REG32(DMA_INTMASK_CLEAR, 0xbc)
    FIELD(DMA_INT, STAT, 0, 1)
    FIELD(DMA_INT, HOST_ERR, 1, 1)
REG32(RX0_PENDTHRESH, 0xc0)
REG32(RX7_PENDTHRESH, 0xdc)
REG32(RX0_FREEBUFFER, 0xe0)
REG32(RX7_FREEBUFFER, 0xfc)

/* State RAM: per-channel head and completion pointers */
#define SR_TX_HDP       0x00
#define SR_RX_HDP       0x20
#define SR_TX_CP        0x40
#define SR_RX_CP        0x60
#define SR_POINTERS_END 0x80

/* TX_IDVER and RX_IDVER (TRM 14.5.5) */
#define AM335X_CPDMA_IDVER      0x00180108

/* Descriptor words and flags */
#define DESC_SIZE       16
#define DESC_SOP        (1u << 31)
#define DESC_EOP        (1u << 30)
#define DESC_OWNER      (1u << 29)
#define DESC_EOQ        (1u << 28)
#define DESC_TD         (1u << 27)
#define DESC_PASS_CRC   (1u << 26)
#define DESC_TO_PORT_EN (1u << 20)
#define DESC_PORT_SHIFT 16
#define DESC_PKT_LEN    0x7ff

#define CPDMA_TEARDOWN_CP   0xfffffffc

/* Host error codes (TRM, DMASTATUS) */
enum {
    TX_ERR_SOP = 1,
    TX_ERR_OWNER = 2,
    TX_ERR_ZERO_NEXT = 3,
    TX_ERR_ZERO_BUF = 4,
    TX_ERR_ZERO_LEN = 5,
    TX_ERR_PKT_LEN = 6,
    RX_ERR_OWNER = 2,
    RX_ERR_ZERO_BUF = 4,
    RX_ERR_ZERO_LEN = 5,
    RX_ERR_SOP_LEN = 6,
};

/*
 * Timing (timing=on).  The CPDMA masters the L3 fast interconnect as the
 * EDMA's transfer controllers do: L3F_CLK = CORE_CLKOUTM4 = 200 MHz (TRM
 * 8.1.6.1) on a 128-bit port, 3.2 GB/s, the figure of the TPTC model.
 * Each TX buffer then costs a read's round trip to DDR before its first
 * data: TI's "AM335x PRU Read Latencies" (processors wiki) gives a read
 * of DDR through the EMIF from an L3 initiator 36 cycles of the 200 MHz
 * L3F clock, of which 2 are the PRU's own load: 170 ns, the interconnect
 * both ways, the EMIF and the DDR's row open and CAS latency together
 * (the CPU model's L2 miss takes the same figure).  RX data goes out as
 * posted writes, which do not wait for the memory.  The descriptors
 * themselves are in the CPSW's CPPI RAM (as Linux places them), next to
 * the DMA: their access is not counted.
 */
#define CPDMA_L3_BANDWIDTH      (16ULL * 200 * 1000 * 1000)
#define CPDMA_READ_LATENCY_NS   170

/* Bounds on a walk of guest descriptor lists */
#define TX_MAX_PACKETS_PER_KICK 4096
#define MAX_BUFS_PER_PACKET     64

typedef struct CpdmaDesc {
    uint32_t next;
    uint32_t buf;
    uint32_t len;
    uint32_t mode;
} CpdmaDesc;

static bool cpdma_halted(AM335xCpdmaState *s)
{
    return (s->dma_status & ~R_DMASTATUS_IDLE_MASK) != 0;
}

static void cpdma_irq_update(AM335xCpdmaState *s)
{
    if (s->ops && s->ops->irq_update) {
        s->ops->irq_update(s->ops_opaque);
    }
}

/*
 * A completion pointer written: channel @ch's interrupt, which is an
 * event for the wrapper's pacer when the channel's mask lets it through
 * (TRM 14.3.1.3.1: "the interrupt is generated by the write when enabled
 * by the interrupt mask"), one per packet.
 */
static void cpdma_int_event(AM335xCpdmaState *s, bool tx, int ch)
{
    uint32_t mask = tx ? s->tx_int_mask : s->rx_int_mask;

    if (tx) {
        s->tx_int_raw |= 1u << ch;
    } else {
        s->rx_int_raw |= 1u << ch;
    }
    if ((mask & (1u << ch)) && s->ops && s->ops->int_event) {
        s->ops->int_event(s->ops_opaque, tx, ch);
    }
}

uint32_t am335x_cpdma_rx_pending(AM335xCpdmaState *s)
{
    return s->rx_int_raw & s->rx_int_mask & 0xff;
}

static uint32_t cpdma_rx_thresh_raw(AM335xCpdmaState *s)
{
    uint32_t raw = 0;

    for (int ch = 0; ch < AM335X_CPDMA_NUM_CH; ch++) {
        if (s->rx_free[ch] < s->rx_thresh[ch]) {
            raw |= 1u << ch;
        }
    }
    return raw;
}

uint32_t am335x_cpdma_rx_thresh_pending(AM335xCpdmaState *s)
{
    return cpdma_rx_thresh_raw(s) & (s->rx_int_mask >> 8);
}

uint32_t am335x_cpdma_tx_pending(AM335xCpdmaState *s)
{
    return s->tx_int_raw & s->tx_int_mask;
}

bool am335x_cpdma_host_error_pending(AM335xCpdmaState *s)
{
    return (s->dma_int_raw & s->dma_int_mask) != 0;
}

static void cpdma_host_error(AM335xCpdmaState *s, bool tx, int ch, int code,
                             uint32_t desc)
{
    qemu_log_mask(LOG_GUEST_ERROR, "am335x-cpdma: %s channel %d descriptor "
                  "0x%08x: host error %d\n", tx ? "TX" : "RX", ch, desc, code);
    trace_am335x_cpdma_host_error(tx, ch, code, desc);
    if (tx) {
        s->dma_status = FIELD_DP32(s->dma_status, DMASTATUS,
                                   TX_HOST_ERR_CODE, code);
        s->dma_status = FIELD_DP32(s->dma_status, DMASTATUS, TX_ERR_CH, ch);
    } else {
        s->dma_status = FIELD_DP32(s->dma_status, DMASTATUS,
                                   RX_HOST_ERR_CODE, code);
        s->dma_status = FIELD_DP32(s->dma_status, DMASTATUS, RX_ERR_CH, ch);
    }
    s->dma_int_raw |= R_DMA_INT_HOST_ERR_MASK;
    cpdma_irq_update(s);
}

static bool cpdma_read_desc(AM335xCpdmaState *s, uint32_t addr, CpdmaDesc *d)
{
    uint32_t w[4];

    if (addr & 3) {
        return false;
    }
    if (dma_memory_read(&s->dma_as, addr, w, sizeof(w),
                        MEMTXATTRS_UNSPECIFIED) != MEMTX_OK) {
        return false;
    }
    d->next = le32_to_cpu(w[0]);
    d->buf = le32_to_cpu(w[1]);
    d->len = le32_to_cpu(w[2]);
    d->mode = le32_to_cpu(w[3]);
    return true;
}

static void cpdma_write_word(AM335xCpdmaState *s, uint32_t addr, int word,
                             uint32_t val)
{
    val = cpu_to_le32(val);
    dma_memory_write(&s->dma_as, addr + 4 * word, &val, 4,
                     MEMTXATTRS_UNSPECIFIED);
}

/*
 * Reads the packet at the head of TX channel @ch's list into s->frame;
 * false (with the host error raised) if its descriptors are bad.  *next is
 * the EOP's link as read, *nbufs the number of buffers.
 */
static bool cpdma_tx_fetch(AM335xCpdmaState *s, int ch,
                           AM335xCpdmaTxPacket *pkt, size_t *len,
                           uint32_t *next, int *to_port, int *nbufs)
{
    AM335xCpdmaChan *c = &s->tx[ch];
    uint32_t sop = c->hdp, addr = sop;
    size_t total = 0;
    CpdmaDesc d;
    int n;

    *to_port = -1;
    if (!cpdma_read_desc(s, addr, &d)) {
        cpdma_host_error(s, true, ch, TX_ERR_SOP, addr);
        return false;
    }
    if (!(d.mode & DESC_SOP)) {
        cpdma_host_error(s, true, ch, TX_ERR_SOP, addr);
        return false;
    }
    if (!(d.mode & DESC_OWNER)) {
        cpdma_host_error(s, true, ch, TX_ERR_OWNER, addr);
        return false;
    }
    pkt->ch = ch;
    pkt->sop = sop;
    pkt->sop_mode = d.mode;
    if (d.mode & DESC_TO_PORT_EN) {
        *to_port = (d.mode >> DESC_PORT_SHIFT) & 3;
    }
    for (n = 0; ; n++) {
        uint32_t off = n ? 0 : d.len >> 16;
        uint32_t blen = d.len & 0xffff;

        if (!d.buf) {
            cpdma_host_error(s, true, ch, TX_ERR_ZERO_BUF, addr);
            return false;
        }
        if (!blen) {
            cpdma_host_error(s, true, ch, TX_ERR_ZERO_LEN, addr);
            return false;
        }
        if (total + blen > AM335X_CPDMA_MAX_FRAME ||
            n >= MAX_BUFS_PER_PACKET) {
            cpdma_host_error(s, true, ch, TX_ERR_PKT_LEN, addr);
            return false;
        }
        if (dma_memory_read(&s->dma_as, (uint64_t)d.buf + off,
                            s->frame + total, blen,
                            MEMTXATTRS_UNSPECIFIED) != MEMTX_OK) {
            cpdma_host_error(s, true, ch, TX_ERR_ZERO_BUF, addr);
            return false;
        }
        total += blen;
        if (d.mode & DESC_EOP) {
            break;
        }
        if (!d.next) {
            cpdma_host_error(s, true, ch, TX_ERR_ZERO_NEXT, addr);
            return false;
        }
        addr = d.next;
        if (!cpdma_read_desc(s, addr, &d)) {
            cpdma_host_error(s, true, ch, TX_ERR_ZERO_NEXT, addr);
            return false;
        }
    }
    /* The SOP's packet length must be what the buffers add up to. */
    if ((pkt->sop_mode & DESC_PKT_LEN) != total) {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-cpdma: TX packet length %u "
                      "but buffers hold %zu\n", pkt->sop_mode & DESC_PKT_LEN,
                      total);
        cpdma_host_error(s, true, ch, TX_ERR_PKT_LEN, sop);
        return false;
    }
    pkt->eop = addr;
    pkt->eop_mode = d.mode;
    *len = total;
    *next = d.next;
    *nbufs = n + 1;
    return true;
}

/*
 * Hands a sent packet's descriptors back: OWNER cleared in the SOP, EOQ
 * set in the EOP if @next (its link) ended the list; the channel moves on
 * and its interrupt is raised.  Returns whether the list goes on.
 */
static bool cpdma_tx_complete(AM335xCpdmaState *s,
                              const AM335xCpdmaTxPacket *pkt, uint32_t next)
{
    AM335xCpdmaChan *c = &s->tx[pkt->ch];
    uint32_t eop_mode;

    cpdma_write_word(s, pkt->sop, 3, pkt->sop_mode & ~DESC_OWNER);
    eop_mode = pkt->eop_mode & ~DESC_OWNER;
    if (!next) {
        eop_mode |= DESC_EOQ;
        if (pkt->eop == pkt->sop) {
            eop_mode = (pkt->sop_mode & ~DESC_OWNER) | DESC_EOQ;
        }
        cpdma_write_word(s, pkt->eop, 3, eop_mode);
    }
    /* A host that rewrote HDP meanwhile has started a list of its own. */
    if (c->hdp == pkt->sop) {
        c->hdp = next;
    }
    c->cp = pkt->eop;
    cpdma_int_event(s, true, pkt->ch);
    trace_am335x_cpdma_tx_done(pkt->ch, pkt->eop, next);
    return c->hdp != 0;
}

/*
 * Sends one packet from TX channel @ch's list at once (timing=off); false
 * when the channel stopped (list done, error).
 */
static bool cpdma_tx_packet(AM335xCpdmaState *s, int ch)
{
    AM335xCpdmaTxPacket pkt;
    uint32_t next;
    size_t total;
    int to_port, nbufs;

    if (!cpdma_tx_fetch(s, ch, &pkt, &total, &next, &to_port, &nbufs)) {
        return false;
    }
    trace_am335x_cpdma_tx(ch, pkt.sop, total, to_port);
    if (s->ops && s->ops->transmit) {
        s->ops->transmit(s->ops_opaque, to_port, s->frame, total, 0);
    }
    return cpdma_tx_complete(s, &pkt, next);
}

/*
 * With timing, one packet is on its way at a time.  Its buffers cross the
 * L3 port from now on, each after the memory's access latency; the MAC
 * starts it on the wire once its first tx_start_bytes are in the port's
 * FIFO, and the CPDMA completes it when it has left the wire (or
 * when its last byte was read, if that is later).  The channels take
 * turns.
 */
static void cpdma_tx_start(AM335xCpdmaState *s)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    if (s->tx_busy) {
        return;
    }
    for (int i = 1; i <= AM335X_CPDMA_NUM_CH; i++) {
        int ch = (s->tx_rr + i) % AM335X_CPDMA_NUM_CH;
        int64_t ready, fetched, sent = 0;
        uint32_t next;
        size_t total;
        int to_port, nbufs;

        if (!(s->tx_control & 1) || cpdma_halted(s)) {
            return;
        }
        if (!s->tx[ch].hdp) {
            continue;
        }
        if (!cpdma_tx_fetch(s, ch, &s->tx_pkt, &total, &next, &to_port,
                            &nbufs)) {
            return;
        }
        s->tx_rr = ch;
        ready = MAX(now, s->port.busy_until) + s->read_latency_ns +
                am335x_timing_bytes_ns(&s->port,
                                       MIN(total, s->tx_start_bytes));
        fetched = am335x_timing_book_at(&s->port, now, total,
                                        (int64_t)nbufs * s->read_latency_ns);
        trace_am335x_cpdma_tx(ch, s->tx_pkt.sop, total, to_port);
        if (s->ops && s->ops->transmit) {
            sent = s->ops->transmit(s->ops_opaque, to_port, s->frame, total,
                                    ready);
        }
        s->tx_busy = true;
        timer_mod(s->tx_timer, MAX(fetched, sent));
        return;
    }
}

static void cpdma_tx_timer(void *opaque)
{
    AM335xCpdmaState *s = opaque;
    uint32_t next = 0;

    if (s->tx_busy) {
        s->tx_busy = false;
        /* Read the link now: the host may have appended to the list. */
        if (dma_memory_read(&s->dma_as, s->tx_pkt.eop, &next, 4,
                            MEMTXATTRS_UNSPECIFIED) != MEMTX_OK) {
            next = 0;
        }
        cpdma_tx_complete(s, &s->tx_pkt, le32_to_cpu(next));
    }
    cpdma_tx_start(s);
    cpdma_irq_update(s);
}

static void cpdma_tx_kick(AM335xCpdmaState *s, int ch)
{
    int n;

    if (s->timing) {
        cpdma_tx_start(s);
        cpdma_irq_update(s);
        return;
    }
    for (n = 0; n < TX_MAX_PACKETS_PER_KICK; n++) {
        if (!(s->tx_control & 1) || cpdma_halted(s) || !s->tx[ch].hdp ||
            !cpdma_tx_packet(s, ch)) {
            break;
        }
    }
    if (n == TX_MAX_PACKETS_PER_KICK) {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-cpdma: TX channel %d: more "
                      "than %d packets in one go, stopping\n", ch, n);
    }
    cpdma_irq_update(s);
}

int64_t am335x_cpdma_rx_book(AM335xCpdmaState *s, int64_t start, size_t len)
{
    /* Posted writes: the frame's bytes cross the port without a wait. */
    return am335x_timing_book_at(&s->port, start, len, 0);
}

bool am335x_cpdma_can_receive(AM335xCpdmaState *s, int ch)
{
    return ch >= 0 && ch < AM335X_CPDMA_NUM_CH && (s->rx_control & 1) &&
           !cpdma_halted(s) && s->rx[ch].hdp != 0;
}

bool am335x_cpdma_receive(AM335xCpdmaState *s, int ch, int from_port,
                          uint32_t flags, const uint8_t *buf, size_t len)
{
    AM335xCpdmaChan *c;
    uint32_t addr, sop, boff = s->rx_buffer_offset & 0x7ff;
    size_t done = 0;
    CpdmaDesc d;
    int n;

    if (!am335x_cpdma_can_receive(s, ch) || len > AM335X_CPDMA_MAX_FRAME) {
        return false;
    }
    c = &s->rx[ch];
    sop = addr = c->hdp;
    for (n = 0; ; n++) {
        uint32_t off = n ? 0 : boff, blen, chunk, mode;

        if (n >= MAX_BUFS_PER_PACKET || !cpdma_read_desc(s, addr, &d)) {
            cpdma_host_error(s, false, ch, RX_ERR_OWNER, addr);
            return false;
        }
        if (!(d.mode & DESC_OWNER)) {
            cpdma_host_error(s, false, ch, RX_ERR_OWNER, addr);
            return false;
        }
        if (!d.buf) {
            cpdma_host_error(s, false, ch, RX_ERR_ZERO_BUF, addr);
            return false;
        }
        blen = d.len & 0x7ff;
        if (n == 0 && blen <= off) {
            cpdma_host_error(s, false, ch, RX_ERR_SOP_LEN, addr);
            return false;
        }
        if (!blen) {
            cpdma_host_error(s, false, ch, RX_ERR_ZERO_LEN, addr);
            return false;
        }
        chunk = MIN(blen - off, len - done);
        if (dma_memory_write(&s->dma_as, (uint64_t)d.buf + off, buf + done,
                             chunk, MEMTXATTRS_UNSPECIFIED) != MEMTX_OK) {
            cpdma_host_error(s, false, ch, RX_ERR_ZERO_BUF, addr);
            return false;
        }
        done += chunk;
        cpdma_write_word(s, addr, 2, (off << 16) | chunk);
        mode = 0;
        if (n == 0) {
            mode |= DESC_SOP | len | (from_port & 7) << DESC_PORT_SHIFT |
                    (flags & AM335X_CPDMA_RX_VLAN_ENCAP);
        }
        if (done == len) {
            mode |= DESC_EOP;
            /* Read the link now: the host may have just appended to it. */
            if (!cpdma_read_desc(s, addr, &d)) {
                d.next = 0;
            }
            if (!d.next) {
                mode |= DESC_EOQ;
            }
            cpdma_write_word(s, addr, 3, mode);
            break;
        }
        cpdma_write_word(s, addr, 3, mode);
        if (!d.next) {
            /* Out of buffers mid-frame: the rest of the frame is lost. */
            qemu_log_mask(LOG_GUEST_ERROR, "am335x-cpdma: RX channel %d ran "
                          "out of buffers mid-frame\n", ch);
            cpdma_write_word(s, addr, 3, mode | DESC_EOP | DESC_EOQ);
            break;
        }
        addr = d.next;
    }
    trace_am335x_cpdma_rx(ch, sop, len, from_port);
    c->hdp = d.next;
    c->cp = addr;
    s->rx_free[ch] = s->rx_free[ch] > (uint32_t)n + 1 ?
                     s->rx_free[ch] - n - 1 : 0;
    cpdma_int_event(s, false, ch);
    cpdma_irq_update(s);
    return true;
}

static void cpdma_teardown(AM335xCpdmaState *s, bool tx, uint32_t val)
{
    int ch = val & 7;
    AM335xCpdmaChan *c = tx ? &s->tx[ch] : &s->rx[ch];

    if (val >= AM335X_CPDMA_NUM_CH) {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-cpdma: teardown of channel "
                      "%u\n", val);
        return;
    }
    trace_am335x_cpdma_teardown(tx, ch);
    if (tx && s->tx_busy && s->tx_pkt.ch == ch) {
        /* The packet on the wire is dropped with the rest of the list. */
        s->tx_busy = false;
        timer_del(s->tx_timer);
    }
    c->hdp = 0;
    c->cp = CPDMA_TEARDOWN_CP;
    cpdma_int_event(s, tx, ch);
    if (tx && s->timing) {
        cpdma_tx_start(s);
    }
    cpdma_irq_update(s);
}

static void cpdma_soft_reset(AM335xCpdmaState *s)
{
    s->tx_control = 0;
    s->rx_control = 0;
    s->dma_control = 0;
    s->dma_status = R_DMASTATUS_IDLE_MASK;
    s->rx_buffer_offset = 0;
    s->em_control = 0;
    memset(s->tx_pri_rate, 0, sizeof(s->tx_pri_rate));
    s->tx_int_raw = 0;
    s->tx_int_mask = 0;
    s->rx_int_raw = 0;
    s->rx_int_mask = 0;
    s->dma_int_raw = 0;
    s->dma_int_mask = 0;
    memset(s->rx_thresh, 0, sizeof(s->rx_thresh));
    memset(s->rx_free, 0, sizeof(s->rx_free));
    memset(s->tx, 0, sizeof(s->tx));
    memset(s->rx, 0, sizeof(s->rx));
    s->tx_busy = false;
    s->tx_rr = 0;
    if (s->tx_timer) {
        timer_del(s->tx_timer);
    }
}

static uint64_t am335x_cpdma_read(void *opaque, hwaddr offset, unsigned size)
{
    AM335xCpdmaState *s = opaque;
    uint32_t val = 0;

    switch (offset) {
    case A_TX_IDVER:
    case A_RX_IDVER:
        val = AM335X_CPDMA_IDVER;
        break;
    case A_TX_CONTROL:
        val = s->tx_control;
        break;
    case A_RX_CONTROL:
        val = s->rx_control;
        break;
    case A_TX_TEARDOWN:
    case A_RX_TEARDOWN:
    case A_SOFT_RESET:
    case A_EOI_VECTOR:
        break;
    case A_DMACONTROL:
        val = s->dma_control;
        break;
    case A_DMASTATUS:
        val = s->dma_status;
        break;
    case A_RX_BUFFER_OFFSET:
        val = s->rx_buffer_offset;
        break;
    case A_EMCONTROL:
        val = s->em_control;
        break;
    case A_TX_PRI0_RATE ... A_TX_PRI7_RATE:
        val = s->tx_pri_rate[(offset - A_TX_PRI0_RATE) / 4];
        break;
    case A_TX_INTSTAT_RAW:
        val = s->tx_int_raw;
        break;
    case A_TX_INTSTAT_MASKED:
        val = am335x_cpdma_tx_pending(s);
        break;
    case A_TX_INTMASK_SET:
    case A_TX_INTMASK_CLEAR:
        val = s->tx_int_mask;
        break;
    case A_IN_VECTOR:
        val = am335x_cpdma_tx_pending(s) |
              am335x_cpdma_rx_pending(s) << 8 |
              am335x_cpdma_rx_thresh_pending(s) << 16 |
              (s->dma_int_raw & s->dma_int_mask) << 24;
        break;
    case A_RX_INTSTAT_RAW:
        val = s->rx_int_raw | cpdma_rx_thresh_raw(s) << 8;
        break;
    case A_RX_INTSTAT_MASKED:
        val = am335x_cpdma_rx_pending(s) |
              am335x_cpdma_rx_thresh_pending(s) << 8;
        break;
    case A_RX_INTMASK_SET:
    case A_RX_INTMASK_CLEAR:
        val = s->rx_int_mask;
        break;
    case A_DMA_INTSTAT_RAW:
        val = s->dma_int_raw;
        break;
    case A_DMA_INTSTAT_MASKED:
        val = s->dma_int_raw & s->dma_int_mask;
        break;
    case A_DMA_INTMASK_SET:
    case A_DMA_INTMASK_CLEAR:
        val = s->dma_int_mask;
        break;
    case A_RX0_PENDTHRESH ... A_RX7_PENDTHRESH:
        val = s->rx_thresh[(offset - A_RX0_PENDTHRESH) / 4];
        break;
    case A_RX0_FREEBUFFER ... A_RX7_FREEBUFFER:
        val = s->rx_free[(offset - A_RX0_FREEBUFFER) / 4];
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-cpdma: bad read offset 0x%"
                      HWADDR_PRIx "\n", offset);
        break;
    }
    trace_am335x_cpdma_reg_read(offset, val);
    return val;
}

static void am335x_cpdma_write(void *opaque, hwaddr offset, uint64_t value,
                               unsigned size)
{
    AM335xCpdmaState *s = opaque;
    uint32_t v = value;
    int ch;

    trace_am335x_cpdma_reg_write(offset, v);
    switch (offset) {
    case A_TX_CONTROL:
        s->tx_control = v & 1;
        for (ch = 0; ch < AM335X_CPDMA_NUM_CH; ch++) {
            cpdma_tx_kick(s, ch);
        }
        break;
    case A_RX_CONTROL:
        s->rx_control = v & 1;
        if (s->ops && s->ops->rx_ready) {
            s->ops->rx_ready(s->ops_opaque);
        }
        break;
    case A_TX_TEARDOWN:
        cpdma_teardown(s, true, v);
        break;
    case A_RX_TEARDOWN:
        cpdma_teardown(s, false, v);
        break;
    case A_SOFT_RESET:
        if (v & 1) {
            cpdma_soft_reset(s);
            cpdma_irq_update(s);
        }
        break;
    case A_DMACONTROL:
        s->dma_control = v & 0xff1f;
        break;
    case A_RX_BUFFER_OFFSET:
        s->rx_buffer_offset = v & 0x7ff;
        break;
    case A_EMCONTROL:
        s->em_control = v & 3;
        break;
    case A_TX_PRI0_RATE ... A_TX_PRI7_RATE:
        s->tx_pri_rate[(offset - A_TX_PRI0_RATE) / 4] = v & 0x3fff3fff;
        break;
    case A_TX_INTMASK_SET:
        s->tx_int_mask |= v & 0xff;
        cpdma_irq_update(s);
        break;
    case A_TX_INTMASK_CLEAR:
        s->tx_int_mask &= ~v;
        cpdma_irq_update(s);
        break;
    case A_RX_INTMASK_SET:
        s->rx_int_mask |= v & 0xffff;
        cpdma_irq_update(s);
        break;
    case A_RX_INTMASK_CLEAR:
        s->rx_int_mask &= ~v;
        cpdma_irq_update(s);
        break;
    case A_DMA_INTMASK_SET:
        s->dma_int_mask |= v & 3;
        cpdma_irq_update(s);
        break;
    case A_DMA_INTMASK_CLEAR:
        s->dma_int_mask &= ~v;
        cpdma_irq_update(s);
        break;
    case A_EOI_VECTOR:
        /* The wrapper's levels are recomputed: nothing is lost. */
        cpdma_irq_update(s);
        break;
    case A_RX0_PENDTHRESH ... A_RX7_PENDTHRESH:
        s->rx_thresh[(offset - A_RX0_PENDTHRESH) / 4] = v & 0xff;
        cpdma_irq_update(s);
        break;
    case A_RX0_FREEBUFFER ... A_RX7_FREEBUFFER:
        /* A write adds to the count of free buffers. */
        ch = (offset - A_RX0_FREEBUFFER) / 4;
        s->rx_free[ch] = MIN(s->rx_free[ch] + (v & 0xffff), 0xffff);
        cpdma_irq_update(s);
        break;
    case A_TX_IDVER:
    case A_RX_IDVER:
    case A_DMASTATUS:
    case A_TX_INTSTAT_RAW:
    case A_TX_INTSTAT_MASKED:
    case A_IN_VECTOR:
    case A_RX_INTSTAT_RAW:
    case A_RX_INTSTAT_MASKED:
    case A_DMA_INTSTAT_RAW:
    case A_DMA_INTSTAT_MASKED:
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-cpdma: bad write offset 0x%"
                      HWADDR_PRIx "\n", offset);
        break;
    }
}

static uint64_t am335x_cpdma_sr_read(void *opaque, hwaddr offset,
                                     unsigned size)
{
    AM335xCpdmaState *s = opaque;
    int ch = (offset & 0x1f) / 4;

    switch (offset & ~0x1f) {
    case SR_TX_HDP:
        return s->tx[ch].hdp;
    case SR_RX_HDP:
        return s->rx[ch].hdp;
    case SR_TX_CP:
        return s->tx[ch].cp;
    case SR_RX_CP:
        return s->rx[ch].cp;
    default:
        return s->stateram_other[(offset - SR_POINTERS_END) / 4];
    }
}

static void am335x_cpdma_sr_write(void *opaque, hwaddr offset,
                                  uint64_t value, unsigned size)
{
    AM335xCpdmaState *s = opaque;
    int ch = (offset & 0x1f) / 4;
    uint32_t v = value;

    trace_am335x_cpdma_sr_write(offset, v);
    switch (offset & ~0x1f) {
    case SR_TX_HDP:
        s->tx[ch].hdp = v;
        cpdma_tx_kick(s, ch);
        break;
    case SR_RX_HDP:
        s->rx[ch].hdp = v;
        if (s->ops && s->ops->rx_ready) {
            s->ops->rx_ready(s->ops_opaque);
        }
        break;
    case SR_TX_CP:
        s->tx[ch].cp_ack = v;
        if (v == s->tx[ch].cp) {
            s->tx_int_raw &= ~(1u << ch);
        }
        cpdma_irq_update(s);
        break;
    case SR_RX_CP:
        s->rx[ch].cp_ack = v;
        if (v == s->rx[ch].cp) {
            s->rx_int_raw &= ~(1u << ch);
        }
        cpdma_irq_update(s);
        break;
    default:
        s->stateram_other[(offset - SR_POINTERS_END) / 4] = v;
        break;
    }
}

static const MemoryRegionOps am335x_cpdma_ops = {
    .read = am335x_cpdma_read,
    .write = am335x_cpdma_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

static const MemoryRegionOps am335x_cpdma_sr_ops = {
    .read = am335x_cpdma_sr_read,
    .write = am335x_cpdma_sr_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

static void am335x_cpdma_reset_hold(Object *obj, ResetType type)
{
    AM335xCpdmaState *s = AM335X_CPDMA(obj);

    cpdma_soft_reset(s);
    memset(s->stateram_other, 0, sizeof(s->stateram_other));
    am335x_timing_reset(&s->port);
}

static void am335x_cpdma_reset_exit(Object *obj, ResetType type)
{
    cpdma_irq_update(AM335X_CPDMA(obj));
}

static void am335x_cpdma_init(Object *obj)
{
    AM335xCpdmaState *s = AM335X_CPDMA(obj);

    memory_region_init_io(&s->regs, obj, &am335x_cpdma_ops, s,
                          TYPE_AM335X_CPDMA, AM335X_CPDMA_REGS_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(obj), &s->regs);
    memory_region_init_io(&s->stateram, obj, &am335x_cpdma_sr_ops, s,
                          TYPE_AM335X_CPDMA ".stateram",
                          AM335X_CPDMA_STATERAM_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(obj), &s->stateram);
}

static void am335x_cpdma_realize(DeviceState *dev, Error **errp)
{
    AM335xCpdmaState *s = AM335X_CPDMA(dev);

    if (!s->dma_mr) {
        error_setg(errp, TYPE_AM335X_CPDMA ": 'dma-mr' link not set");
        return;
    }
    address_space_init(&s->dma_as, s->dma_mr, TYPE_AM335X_CPDMA);
    am335x_timing_init(&s->port, s->bandwidth, 0);
    s->tx_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, cpdma_tx_timer, s);
}

static const VMStateDescription vmstate_am335x_cpdma_chan = {
    .name = TYPE_AM335X_CPDMA "-chan",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(hdp, AM335xCpdmaChan),
        VMSTATE_UINT32(cp, AM335xCpdmaChan),
        VMSTATE_UINT32(cp_ack, AM335xCpdmaChan),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_am335x_cpdma_tx_packet = {
    .name = TYPE_AM335X_CPDMA "-tx-packet",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_INT32(ch, AM335xCpdmaTxPacket),
        VMSTATE_UINT32(sop, AM335xCpdmaTxPacket),
        VMSTATE_UINT32(eop, AM335xCpdmaTxPacket),
        VMSTATE_UINT32(sop_mode, AM335xCpdmaTxPacket),
        VMSTATE_UINT32(eop_mode, AM335xCpdmaTxPacket),
        VMSTATE_END_OF_LIST()
    }
};

static bool am335x_cpdma_timing_needed(void *opaque)
{
    return AM335X_CPDMA(opaque)->timing;
}

static int am335x_cpdma_timing_post_load(void *opaque, int version_id)
{
    AM335xCpdmaState *s = opaque;

    if (s->tx_pkt.ch < 0 || s->tx_pkt.ch >= AM335X_CPDMA_NUM_CH ||
        s->tx_rr >= AM335X_CPDMA_NUM_CH) {
        return -EINVAL;
    }
    return 0;
}

static const VMStateDescription vmstate_am335x_cpdma_timing = {
    .name = TYPE_AM335X_CPDMA "/timing",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = am335x_cpdma_timing_needed,
    .post_load = am335x_cpdma_timing_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_AM335X_TIMING(port, AM335xCpdmaState),
        VMSTATE_TIMER_PTR(tx_timer, AM335xCpdmaState),
        VMSTATE_BOOL(tx_busy, AM335xCpdmaState),
        VMSTATE_STRUCT(tx_pkt, AM335xCpdmaState, 1,
                       vmstate_am335x_cpdma_tx_packet, AM335xCpdmaTxPacket),
        VMSTATE_UINT32(tx_rr, AM335xCpdmaState),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_am335x_cpdma = {
    .name = TYPE_AM335X_CPDMA,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(tx_control, AM335xCpdmaState),
        VMSTATE_UINT32(rx_control, AM335xCpdmaState),
        VMSTATE_UINT32(dma_control, AM335xCpdmaState),
        VMSTATE_UINT32(dma_status, AM335xCpdmaState),
        VMSTATE_UINT32(rx_buffer_offset, AM335xCpdmaState),
        VMSTATE_UINT32(em_control, AM335xCpdmaState),
        VMSTATE_UINT32_ARRAY(tx_pri_rate, AM335xCpdmaState,
                             AM335X_CPDMA_NUM_CH),
        VMSTATE_UINT32(tx_int_raw, AM335xCpdmaState),
        VMSTATE_UINT32(tx_int_mask, AM335xCpdmaState),
        VMSTATE_UINT32(rx_int_raw, AM335xCpdmaState),
        VMSTATE_UINT32(rx_int_mask, AM335xCpdmaState),
        VMSTATE_UINT32(dma_int_raw, AM335xCpdmaState),
        VMSTATE_UINT32(dma_int_mask, AM335xCpdmaState),
        VMSTATE_UINT32_ARRAY(rx_thresh, AM335xCpdmaState,
                             AM335X_CPDMA_NUM_CH),
        VMSTATE_UINT32_ARRAY(rx_free, AM335xCpdmaState, AM335X_CPDMA_NUM_CH),
        VMSTATE_STRUCT_ARRAY(tx, AM335xCpdmaState, AM335X_CPDMA_NUM_CH, 1,
                             vmstate_am335x_cpdma_chan, AM335xCpdmaChan),
        VMSTATE_STRUCT_ARRAY(rx, AM335xCpdmaState, AM335X_CPDMA_NUM_CH, 1,
                             vmstate_am335x_cpdma_chan, AM335xCpdmaChan),
        VMSTATE_UINT32_ARRAY(stateram_other, AM335xCpdmaState,
                             (AM335X_CPDMA_STATERAM_SIZE - 0x80) / 4),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * const []) {
        &vmstate_am335x_cpdma_timing,
        NULL
    }
};

static const Property am335x_cpdma_properties[] = {
    DEFINE_PROP_LINK("dma-mr", AM335xCpdmaState, dma_mr, TYPE_MEMORY_REGION,
                     MemoryRegion *),
    /* The machine's timing=on|off, set by the CPSW */
    DEFINE_PROP_BOOL("timing", AM335xCpdmaState, timing, false),
    /* The L3 master port: 128 bits at L3F_CLK 200 MHz (TRM 8.1.6.1) */
    DEFINE_PROP_UINT64("bandwidth", AM335xCpdmaState, bandwidth,
                       CPDMA_L3_BANDWIDTH),
    /* Per TX buffer: a DDR read from the L3 (TI's AM335x PRU latencies) */
    DEFINE_PROP_UINT32("read-latency-ns", AM335xCpdmaState, read_latency_ns,
                       CPDMA_READ_LATENCY_NS),
};

static void am335x_cpdma_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->realize = am335x_cpdma_realize;
    dc->vmsd = &vmstate_am335x_cpdma;
    dc->desc = "TI AM335x CPSW CPDMA";
    dc->user_creatable = false;
    rc->phases.hold = am335x_cpdma_reset_hold;
    rc->phases.exit = am335x_cpdma_reset_exit;
    device_class_set_props(dc, am335x_cpdma_properties);
}

static const TypeInfo am335x_cpdma_info = {
    .name = TYPE_AM335X_CPDMA,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AM335xCpdmaState),
    .instance_init = am335x_cpdma_init,
    .class_init = am335x_cpdma_class_init,
};

static void am335x_cpdma_register_types(void)
{
    type_register_static(&am335x_cpdma_info);
}

type_init(am335x_cpdma_register_types)
