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
 * Not modelled: TX priorities and rate limiting (channels are served in
 * HDP-write order), RX flow control, the receive threshold DMA stall,
 * command IDLE, and the teardown-complete flag in a pending SOP descriptor
 * (the host frees what is left, as Linux does).
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
 * Sends one packet from TX channel @ch's list; false when the channel
 * stopped (list done, error).
 */
static bool cpdma_tx_packet(AM335xCpdmaState *s, int ch)
{
    AM335xCpdmaChan *c = &s->tx[ch];
    uint32_t sop = c->hdp, addr = sop, sop_mode, eop_mode;
    size_t total = 0;
    int to_port = -1;
    CpdmaDesc d;

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
    sop_mode = d.mode;
    if (sop_mode & DESC_TO_PORT_EN) {
        to_port = (sop_mode >> DESC_PORT_SHIFT) & 3;
    }
    for (int n = 0; ; n++) {
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
    if ((sop_mode & DESC_PKT_LEN) != total) {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-cpdma: TX packet length %u "
                      "but buffers hold %zu\n", sop_mode & DESC_PKT_LEN,
                      total);
        cpdma_host_error(s, true, ch, TX_ERR_PKT_LEN, sop);
        return false;
    }
    trace_am335x_cpdma_tx(ch, sop, total, to_port);
    if (s->ops && s->ops->transmit) {
        s->ops->transmit(s->ops_opaque, to_port, s->frame, total);
    }

    /* Hand the descriptors back; the last one of the list gets EOQ. */
    cpdma_write_word(s, sop, 3, sop_mode & ~DESC_OWNER);
    eop_mode = d.mode & ~DESC_OWNER;
    if (!d.next) {
        eop_mode |= DESC_EOQ;
        if (addr == sop) {
            eop_mode = (sop_mode & ~DESC_OWNER) | DESC_EOQ;
        }
        cpdma_write_word(s, addr, 3, eop_mode);
    }
    c->hdp = d.next;
    c->cp = addr;
    s->tx_int_raw |= 1u << ch;
    return c->hdp != 0;
}

static void cpdma_tx_kick(AM335xCpdmaState *s, int ch)
{
    int n;

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
    s->rx_int_raw |= 1u << ch;
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
    c->hdp = 0;
    c->cp = CPDMA_TEARDOWN_CP;
    if (tx) {
        s->tx_int_raw |= 1u << ch;
    } else {
        s->rx_int_raw |= 1u << ch;
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
    }
};

static const Property am335x_cpdma_properties[] = {
    DEFINE_PROP_LINK("dma-mr", AM335xCpdmaState, dma_mr, TYPE_MEMORY_REGION,
                     MemoryRegion *),
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
