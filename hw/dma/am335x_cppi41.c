/*
 * TI AM335x USB subsystem: glue and CPPI 4.1 DMA
 *
 * The USBSS glue registers (revision, SYSCONFIG, the DMA interrupt) and
 * the Communications Port Programming Interface 4.1 DMA that moves the
 * USB endpoints' data: the DMA controller (15 TX and 15 RX channels per
 * USB port, one per endpoint 1-15), its scheduler and the queue manager
 * with 156 queues of descriptors.
 *
 * Software pushes host packet descriptors onto queues by writing
 * QUEUE_D.  A TX channel takes descriptors from its submit queue
 * (32 + 2c), feeds the data to its endpoint's FIFO one FIFO load at a
 * time while the endpoint's TXCSR.DMAENAB is set, and once its last
 * byte is in the FIFO pushes the descriptor, unchanged, onto the return
 * queue in its word 2: the completion comes while that last packet may
 * still be waiting in the FIFO for the host to take it (the "early TX
 * interrupt" Linux's musb_cppi41 polls TXCSR's FIFONOTEMPTY after).
 * An RX channel takes a free descriptor from its free-descriptor queue
 * for each packet the endpoint receives (the
 * transparent mode: one USB packet per descriptor), writes the packet to
 * the descriptor's buffer and its length to words 0 and 3, and pushes it
 * onto the channel's completion queue.  A non-empty completion queue
 * (93-155) is the glue's PD_CMP interrupt.  A teardown takes a
 * descriptor from the teardown free-descriptor queue and returns it,
 * marked with the channel, on the channel's default queue.
 *
 * Queues are lists through the linking RAM, one entry per descriptor
 * index; the index of a descriptor comes from the memory region that
 * holds it.  The model keeps the links itself rather than in the guest's
 * linking RAM.
 *
 * Not modelled: the RNDIS, CDC and generic RNDIS framing of RX (RX is
 * always transparent), linked buffer descriptors, monolithic
 * descriptors, queue diversion, interrupt pacing.
 *
 * Reference: AM335x Technical Reference Manual (SPRUH73), chapter 16.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/main-loop.h"
#include "qapi/error.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/dma/am335x_cppi41.h"
#include "hw/usb/am335x_musb.h"
#include "system/dma.h"
#include "migration/vmstate.h"
#include "trace.h"

/* Glue (USBSS) */
#define G_REVREG            0x00
#define G_SYSCONFIG         0x10
#define G_IRQ_EOI           0x20
#define G_IRQ_STATUS_RAW    0x24
#define G_IRQ_STATUS        0x28
#define G_IRQ_ENABLE_SET    0x2c
#define G_IRQ_ENABLE_CLR    0x30
#define G_DMA_THRESHOLD     0x100   /* TX0, RX0, TX1, RX1 */
#define G_DMA_ENABLE        0x140   /* USB0, USB1 */
#define G_FRAME_THRESHOLD   0x200
#define G_FRAME_ENABLE      0x220

/*
 * USBSS REVREG as the silicon reads it (ti-sysc's quirk table knows the
 * module by it; the TRM's reset value is 0x4ea20800)
 */
#define USBSS_REV_VALUE     0x4ea2080d
#define SYSCONFIG_SOFTRESET 0x01
#define SYSCONFIG_MASK      0x3f
#define IRQ_PD_CMP          (1u << 2)
#define IRQ_MASK            0x00000f05u

/* DMA controller */
#define D_REVID             0x000
#define D_TDFDQ             0x004
#define D_EMU               0x008
#define D_CHAN_BASE         0x800
#define D_CHAN_STRIDE       0x20
#define D_TXGCR             0x00
#define D_RXGCR             0x08
#define D_RXHPCRA           0x0c
#define D_RXHPCRB           0x10

#define GCR_ENABLE          (1u << 31)
#define GCR_TEARDOWN        (1u << 30)
#define RXGCR_STARV_RETRY   (1u << 24)
#define GCR_QNUM(g)         ((g) & 0xfff)

/* Scheduler */
#define S_CTRL              0x000
#define S_WORD0             0x800
#define SCHED_ENABLE        (1u << 31)

/* Queue manager */
#define Q_REVID             0x0000
#define Q_DIVERSION         0x0008
#define Q_FDBSC0            0x0020
#define Q_FDBSC7            0x003c
#define Q_LRAM0_BASE        0x0080
#define Q_LRAM0_SIZE        0x0084
#define Q_LRAM1_BASE        0x0088
#define Q_PEND0             0x0090
#define Q_PEND4             0x00a0
#define Q_MEM_BASE          0x1000
#define Q_MEM_END           0x1100
#define Q_QUEUE_BASE        0x2000
#define Q_STATUS_BASE       0x3000
#define Q_END               0x4000

/* Queue numbers (TRM 16.3.9.3) */
#define TX_SUBMIT_QUEUE(c)  (32 + 2 * (c))
#define FIRST_COMPLETION_Q  93
#define NO_DESC             0xffff

/* Host packet descriptor (words 0-7) */
#define PD0_TYPE(w)         ((w) >> 27)
#define PD0_LEN_MASK        0x3fffff
#define DESC_TYPE_HOST      16
#define DESC_TYPE_TEARDOWN  19
#define PD2_PKT_ERROR       (1u << 31)
#define PD2_PKT_TYPE_SHIFT  26
#define PD2_PKT_TYPE_USB    5
#define PD2_ZERO_LENGTH     (1u << 19)
#define PD2_RETQ(w)         ((w) & 0xfff)
#define TD_IS_RX            (1u << 16)

/* Descriptors one kick may complete before the rest waits for a BH */
#define RUN_BUDGET          256

/* DMAREVID and QMGRREVID reset values (TRM 16.4.5.1, 16.4.7.1) */
#define DMA_REVID_VALUE     0x00530901
#define QMGR_REVID_VALUE    0x4e530800

/* PD_CMP: a completion queue (93-155) holds a descriptor */
static uint32_t cppi41_irq_raw(AM335xCppi41State *s)
{
    for (int q = FIRST_COMPLETION_Q; q < AM335X_CPPI41_NUM_QUEUES; q++) {
        if (s->count[q]) {
            return IRQ_PD_CMP;
        }
    }
    return 0;
}

static void cppi41_update_irq(AM335xCppi41State *s)
{
    qemu_set_irq(s->irq, !!(cppi41_irq_raw(s) & s->irq_enable));
}

/* The descriptor index of an address, from the region holding it */
static int cppi41_desc_index(AM335xCppi41State *s, uint32_t addr)
{
    for (int r = 0; r < AM335X_CPPI41_NUM_REGIONS; r++) {
        uint32_t ctrl = s->memctrl[r];
        uint64_t dsize = 32u << ((ctrl >> 8) & 0xf);
        uint64_t ndesc = 32u << (ctrl & 0xf);
        uint32_t start = (ctrl >> 16) & 0x3fff;
        uint64_t index;

        if (!s->membase[r] || addr < s->membase[r] ||
            addr >= s->membase[r] + dsize * ndesc) {
            continue;
        }
        index = start + (addr - s->membase[r]) / dsize;
        if (index >= AM335X_CPPI41_MAX_DESCS) {
            break;
        }
        return index;
    }
    return -1;
}

static void cppi41_push(AM335xCppi41State *s, unsigned q, uint32_t val)
{
    int index;

    if (q >= AM335X_CPPI41_NUM_QUEUES) {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-cppi41: push to queue %u, "
                      "beyond the %d queues\n", q, AM335X_CPPI41_NUM_QUEUES);
        return;
    }
    index = cppi41_desc_index(s, val & ~0x1f);
    if (index < 0) {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-cppi41: descriptor 0x%08x "
                      "pushed to queue %u is in no descriptor region\n",
                      val, q);
        return;
    }
    trace_am335x_cppi41_push(q, val);
    s->entry[index] = val;
    s->link[index] = NO_DESC;
    if (s->count[q] && s->tail[q] < AM335X_CPPI41_MAX_DESCS) {
        s->link[s->tail[q]] = index;
    } else {
        s->head[q] = index;
    }
    s->tail[q] = index;
    s->count[q]++;
}

static uint32_t cppi41_pop(AM335xCppi41State *s, unsigned q)
{
    uint16_t index;

    if (q >= AM335X_CPPI41_NUM_QUEUES || !s->count[q]) {
        return 0;
    }
    index = s->head[q];
    if (index >= AM335X_CPPI41_MAX_DESCS) {
        /* A descriptor pushed twice broke the list, as on the hardware */
        s->count[q] = 0;
        return 0;
    }
    s->head[q] = s->link[index];
    if (!--s->count[q]) {
        s->head[q] = s->tail[q] = NO_DESC;
    }
    trace_am335x_cppi41_pop(q, s->entry[index]);
    return s->entry[index];
}

static bool cppi41_read_desc(AM335xCppi41State *s, uint32_t desc,
                             uint32_t pd[8])
{
    if (dma_memory_read(&s->dma_as, desc & ~0x1f, pd, 32,
                        MEMTXATTRS_UNSPECIFIED) != MEMTX_OK) {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-cppi41: descriptor 0x%08x "
                      "is outside RAM\n", desc);
        return false;
    }
    for (int i = 0; i < 8; i++) {
        pd[i] = le32_to_cpu(pd[i]);
    }
    return true;
}

static void cppi41_write_desc(AM335xCppi41State *s, uint32_t desc,
                              const uint32_t *pd, int words)
{
    uint32_t le[8];

    for (int i = 0; i < words; i++) {
        le[i] = cpu_to_le32(pd[i]);
    }
    dma_memory_write(&s->dma_as, desc & ~0x1f, le, 4 * words,
                     MEMTXATTRS_UNSPECIFIED);
}

static void cppi41_channel_port(int c, int *port, int *ep)
{
    *port = c / 15;
    *ep = c % 15 + 1;
}

/* TX channel @c: descriptors from its submit queue to the endpoint */
static bool cppi41_run_tx(AM335xCppi41State *s, int c, int *budget)
{
    AM335xCppi41Tx *t = &s->tx[c];
    int port, ep;

    cppi41_channel_port(c, &port, &ep);
    if (!(s->sched_ctrl & SCHED_ENABLE) || !(s->txgcr[c] & GCR_ENABLE) ||
        !s->usb[port]) {
        return true;
    }
    for (;;) {
        uint8_t data[AM335X_MUSB_FIFO_MAX];
        uint32_t psize, n;

        if (!t->desc) {
            uint32_t pd[8];
            uint32_t desc;

            if (*budget <= 0) {
                return false;
            }
            desc = cppi41_pop(s, TX_SUBMIT_QUEUE(c));
            if (!desc) {
                desc = cppi41_pop(s, TX_SUBMIT_QUEUE(c) + 1);
            }
            if (!desc) {
                return true;
            }
            (*budget)--;
            if (!cppi41_read_desc(s, desc, pd)) {
                continue;
            }
            t->desc = desc;
            t->retq = PD2_RETQ(pd[2]);
            t->buf = pd[4];
            t->len = MIN(pd[0] & PD0_LEN_MASK, pd[3] & PD0_LEN_MASK);
            t->done = 0;
            if (PD0_TYPE(pd[0]) != DESC_TYPE_HOST) {
                qemu_log_mask(LOG_GUEST_ERROR, "am335x-cppi41: TX channel "
                              "%d: descriptor 0x%08x is not a host packet "
                              "descriptor\n", c, desc);
                t->len = 0;
            } else if ((pd[3] & PD0_LEN_MASK) < (pd[0] & PD0_LEN_MASK)) {
                qemu_log_mask(LOG_UNIMP, "am335x-cppi41: TX channel %d: "
                              "linked buffer descriptors\n", c);
            }
            trace_am335x_cppi41_tx_start(c, desc, t->buf, t->len);
        }
        while (t->done < t->len) {
            if (!am335x_musb_dma_tx_free(s->usb[port], ep, &psize)) {
                return true;
            }
            n = MIN(MIN(psize, t->len - t->done), sizeof(data));
            if (dma_memory_read(&s->dma_as, (uint64_t)t->buf + t->done, data,
                                n, MEMTXATTRS_UNSPECIFIED) != MEMTX_OK) {
                qemu_log_mask(LOG_GUEST_ERROR, "am335x-cppi41: TX channel "
                              "%d: buffer 0x%08x is outside RAM\n", c, t->buf);
                t->done = t->len;
                break;
            }
            t->done += n;
            am335x_musb_dma_tx_load(s->usb[port], ep, data, n);
        }
        trace_am335x_cppi41_tx_done(c, t->desc);
        cppi41_push(s, t->retq, t->desc);
        t->desc = 0;
    }
}

/* RX channel @c: each packet of the endpoint into a free descriptor */
static bool cppi41_run_rx(AM335xCppi41State *s, int c, int *budget)
{
    int port, ep;
    uint32_t len;

    cppi41_channel_port(c, &port, &ep);
    if (!(s->sched_ctrl & SCHED_ENABLE) || !(s->rxgcr[c] & GCR_ENABLE) ||
        !s->usb[port]) {
        return true;
    }
    while (am335x_musb_dma_rx_ready(s->usb[port], ep, &len)) {
        uint8_t data[AM335X_MUSB_FIFO_MAX];
        unsigned fdq = GCR_QNUM(s->rxhpcra[c]);
        uint32_t pd[8];
        uint32_t desc, n;

        if (*budget <= 0) {
            return false;
        }
        (*budget)--;
        desc = cppi41_pop(s, fdq);
        if (!desc) {
            if (fdq < ARRAY_SIZE(s->starvation) &&
                s->starvation[fdq] < 0xff) {
                s->starvation[fdq]++;
            }
            if (s->rxgcr[c] & RXGCR_STARV_RETRY) {
                /* The packet waits for a free descriptor */
                return true;
            }
            qemu_log_mask(LOG_GUEST_ERROR, "am335x-cppi41: RX channel %d: "
                          "free descriptor queue %u empty, packet dropped\n",
                          c, fdq);
            am335x_musb_dma_rx_take(s->usb[port], ep, data, sizeof(data));
            continue;
        }
        len = MIN(len, sizeof(data));
        am335x_musb_dma_rx_take(s->usb[port], ep, data, len);
        if (!cppi41_read_desc(s, desc, pd)) {
            continue;
        }
        n = MIN(len, pd[6] & PD0_LEN_MASK);
        if (n < len) {
            qemu_log_mask(LOG_GUEST_ERROR, "am335x-cppi41: RX channel %d: "
                          "%u-byte packet in a %u-byte buffer\n", c, len, n);
        }
        if (n && dma_memory_write(&s->dma_as, pd[7], data, n,
                                  MEMTXATTRS_UNSPECIFIED) != MEMTX_OK) {
            qemu_log_mask(LOG_GUEST_ERROR, "am335x-cppi41: RX channel %d: "
                          "buffer 0x%08x is outside RAM\n", c, pd[7]);
            pd[2] |= PD2_PKT_ERROR;
        }
        pd[0] = (DESC_TYPE_HOST << 27) | n;
        pd[2] = (pd[2] & ~((0x1fu << PD2_PKT_TYPE_SHIFT) | PD2_ZERO_LENGTH)) |
                (PD2_PKT_TYPE_USB << PD2_PKT_TYPE_SHIFT) |
                (n ? 0 : PD2_ZERO_LENGTH);
        pd[3] = n;
        pd[4] = pd[7];
        pd[5] = 0;
        cppi41_write_desc(s, desc, pd, 6);
        trace_am335x_cppi41_rx_done(c, desc, n);
        cppi41_push(s, GCR_QNUM(s->rxgcr[c]), desc);
    }
    return true;
}

static void cppi41_run(AM335xCppi41State *s)
{
    int budget = RUN_BUDGET;
    bool finished = true;

    if (s->running) {
        s->rerun = true;
        return;
    }
    s->running = true;
    do {
        s->rerun = false;
        for (int c = 0; c < AM335X_CPPI41_NUM_CHANNELS; c++) {
            finished &= cppi41_run_tx(s, c, &budget);
            finished &= cppi41_run_rx(s, c, &budget);
        }
    } while (s->rerun && finished);
    s->running = false;
    if (!finished) {
        qemu_bh_schedule(s->bh);
    }
    cppi41_update_irq(s);
}

void am335x_cppi41_kick(AM335xCppi41State *s)
{
    cppi41_run(s);
}

static void cppi41_bh(void *opaque)
{
    cppi41_run(opaque);
}

/* GCR.TEARDOWN: stop the channel, report it with a teardown descriptor */
static void cppi41_teardown(AM335xCppi41State *s, int c, bool rx)
{
    uint32_t *gcr = rx ? &s->rxgcr[c] : &s->txgcr[c];
    uint32_t td;

    trace_am335x_cppi41_teardown(c, rx);
    if (!rx && s->tx[c].desc) {
        /* The descriptor in progress returns, partly sent */
        cppi41_push(s, s->tx[c].retq, s->tx[c].desc);
        s->tx[c].desc = 0;
    }
    td = cppi41_pop(s, GCR_QNUM(s->tdfdq));
    if (!td) {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-cppi41: teardown of channel "
                      "%d with no descriptor on the teardown queue %u\n",
                      c, GCR_QNUM(s->tdfdq));
    } else {
        uint32_t pd0 = (DESC_TYPE_TEARDOWN << 27) | (rx ? TD_IS_RX : 0) | c;

        cppi41_write_desc(s, td, &pd0, 1);
        cppi41_push(s, GCR_QNUM(*gcr), td);
    }
    *gcr &= ~(GCR_ENABLE | GCR_TEARDOWN);
}

static void cppi41_reset_state(AM335xCppi41State *s)
{
    s->sysconfig = 0;
    s->irq_enable = 0;
    memset(s->dma_threshold, 0, sizeof(s->dma_threshold));
    memset(s->dma_enable, 0, sizeof(s->dma_enable));
    memset(s->frame_threshold, 0, sizeof(s->frame_threshold));
    memset(s->frame_enable, 0, sizeof(s->frame_enable));
    s->tdfdq = 0;
    s->emu = 0;
    memset(s->txgcr, 0, sizeof(s->txgcr));
    memset(s->rxgcr, 0, sizeof(s->rxgcr));
    memset(s->rxhpcra, 0, sizeof(s->rxhpcra));
    memset(s->rxhpcrb, 0, sizeof(s->rxhpcrb));
    memset(s->tx, 0, sizeof(s->tx));
    s->sched_ctrl = 0;
    memset(s->sched_word, 0, sizeof(s->sched_word));
    s->diversion = 0;
    s->lram0_base = 0;
    s->lram0_size = 0;
    s->lram1_base = 0;
    memset(s->membase, 0, sizeof(s->membase));
    memset(s->memctrl, 0, sizeof(s->memctrl));
    memset(s->queue_c, 0, sizeof(s->queue_c));
    memset(s->count, 0, sizeof(s->count));
    memset(s->head, 0xff, sizeof(s->head));
    memset(s->tail, 0xff, sizeof(s->tail));
    memset(s->link, 0xff, sizeof(s->link));
    memset(s->entry, 0, sizeof(s->entry));
    memset(s->starvation, 0, sizeof(s->starvation));
}

static uint64_t cppi41_glue_read(void *opaque, hwaddr addr, unsigned size)
{
    AM335xCppi41State *s = opaque;
    uint32_t val = 0;

    switch (addr) {
    case G_REVREG:
        val = USBSS_REV_VALUE;
        break;
    case G_SYSCONFIG:
        val = s->sysconfig;
        break;
    case G_IRQ_EOI:
        break;
    case G_IRQ_STATUS_RAW:
        val = cppi41_irq_raw(s);
        break;
    case G_IRQ_STATUS:
        val = cppi41_irq_raw(s) & s->irq_enable;
        break;
    case G_IRQ_ENABLE_SET:
    case G_IRQ_ENABLE_CLR:
        val = s->irq_enable;
        break;
    case G_DMA_THRESHOLD ... G_DMA_THRESHOLD + 0xc:
        val = s->dma_threshold[(addr - G_DMA_THRESHOLD) >> 2];
        break;
    case G_DMA_ENABLE ... G_DMA_ENABLE + 4:
        val = s->dma_enable[(addr - G_DMA_ENABLE) >> 2];
        break;
    case G_FRAME_THRESHOLD ... G_FRAME_THRESHOLD + 0xc:
        val = s->frame_threshold[(addr - G_FRAME_THRESHOLD) >> 2];
        break;
    case G_FRAME_ENABLE ... G_FRAME_ENABLE + 4:
        val = s->frame_enable[(addr - G_FRAME_ENABLE) >> 2];
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-cppi41: read of reserved "
                      "glue offset 0x%" HWADDR_PRIx "\n", addr);
        break;
    }
    trace_am335x_cppi41_glue_read(addr, val);
    return val;
}

static void cppi41_glue_write(void *opaque, hwaddr addr, uint64_t val64,
                              unsigned size)
{
    AM335xCppi41State *s = opaque;
    uint32_t val = val64;

    trace_am335x_cppi41_glue_write(addr, val);
    switch (addr) {
    case G_SYSCONFIG:
        if (val & SYSCONFIG_SOFTRESET) {
            /* The whole subsystem: the DMA and both USB controllers */
            for (int i = 0; i < AM335X_CPPI41_PORTS; i++) {
                if (s->usb[i]) {
                    device_cold_reset(DEVICE(s->usb[i]));
                }
            }
            cppi41_reset_state(s);
            qemu_bh_cancel(s->bh);
        } else {
            s->sysconfig = val & SYSCONFIG_MASK;
        }
        break;
    case G_IRQ_EOI:
        break;
    case G_IRQ_STATUS:
        /* PD_CMP stays while a completion queue holds a descriptor */
        break;
    case G_IRQ_ENABLE_SET:
        s->irq_enable |= val & IRQ_MASK;
        break;
    case G_IRQ_ENABLE_CLR:
        s->irq_enable &= ~val;
        break;
    case G_DMA_THRESHOLD ... G_DMA_THRESHOLD + 0xc:
        s->dma_threshold[(addr - G_DMA_THRESHOLD) >> 2] = val;
        break;
    case G_DMA_ENABLE ... G_DMA_ENABLE + 4:
        s->dma_enable[(addr - G_DMA_ENABLE) >> 2] = val;
        if (val) {
            qemu_log_mask(LOG_UNIMP, "am335x-cppi41: interrupt pacing\n");
        }
        break;
    case G_FRAME_THRESHOLD ... G_FRAME_THRESHOLD + 0xc:
        s->frame_threshold[(addr - G_FRAME_THRESHOLD) >> 2] = val;
        break;
    case G_FRAME_ENABLE ... G_FRAME_ENABLE + 4:
        s->frame_enable[(addr - G_FRAME_ENABLE) >> 2] = val;
        if (val) {
            qemu_log_mask(LOG_UNIMP, "am335x-cppi41: interrupt pacing\n");
        }
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-cppi41: write to %s glue "
                      "offset 0x%" HWADDR_PRIx "\n",
                      addr == G_REVREG || addr == G_IRQ_STATUS_RAW ?
                      "read-only" : "reserved", addr);
        break;
    }
    cppi41_update_irq(s);
}

static uint64_t cppi41_ctrl_read(void *opaque, hwaddr addr, unsigned size)
{
    AM335xCppi41State *s = opaque;

    if (addr >= D_CHAN_BASE &&
        addr < D_CHAN_BASE + D_CHAN_STRIDE * AM335X_CPPI41_NUM_CHANNELS) {
        int c = (addr - D_CHAN_BASE) / D_CHAN_STRIDE;

        switch ((addr - D_CHAN_BASE) % D_CHAN_STRIDE) {
        case D_TXGCR:
            return s->txgcr[c];
        case D_RXGCR:
            return s->rxgcr[c];
        case D_RXHPCRA:
            return s->rxhpcra[c];
        case D_RXHPCRB:
            return s->rxhpcrb[c];
        }
        return 0;
    }
    switch (addr) {
    case D_REVID:
        return DMA_REVID_VALUE;
    case D_TDFDQ:
        return s->tdfdq;
    case D_EMU:
        return s->emu;
    }
    qemu_log_mask(LOG_GUEST_ERROR, "am335x-cppi41: read of reserved DMA "
                  "controller offset 0x%" HWADDR_PRIx "\n", addr);
    return 0;
}

static void cppi41_ctrl_write(void *opaque, hwaddr addr, uint64_t val64,
                              unsigned size)
{
    AM335xCppi41State *s = opaque;
    uint32_t val = val64;

    trace_am335x_cppi41_ctrl_write(addr, val);
    if (addr >= D_CHAN_BASE &&
        addr < D_CHAN_BASE + D_CHAN_STRIDE * AM335X_CPPI41_NUM_CHANNELS) {
        int c = (addr - D_CHAN_BASE) / D_CHAN_STRIDE;

        switch ((addr - D_CHAN_BASE) % D_CHAN_STRIDE) {
        case D_TXGCR:
            s->txgcr[c] = val & (GCR_ENABLE | GCR_TEARDOWN | 0x3fff);
            if ((val & GCR_TEARDOWN) && (val & GCR_ENABLE)) {
                cppi41_teardown(s, c, false);
            }
            break;
        case D_RXGCR:
            s->rxgcr[c] = val & 0xc1ffffff;
            if ((val & GCR_TEARDOWN) && (val & GCR_ENABLE)) {
                cppi41_teardown(s, c, true);
            }
            break;
        case D_RXHPCRA:
            s->rxhpcra[c] = val & 0x3fff3fff;
            break;
        case D_RXHPCRB:
            s->rxhpcrb[c] = val & 0x3fff3fff;
            break;
        default:
            qemu_log_mask(LOG_GUEST_ERROR, "am335x-cppi41: write to reserved "
                          "channel offset 0x%" HWADDR_PRIx "\n", addr);
            break;
        }
        cppi41_run(s);
        return;
    }
    switch (addr) {
    case D_TDFDQ:
        s->tdfdq = val & 0x3fff;
        break;
    case D_EMU:
        s->emu = val & 3;
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-cppi41: write to %s DMA "
                      "controller offset 0x%" HWADDR_PRIx "\n",
                      addr == D_REVID ? "read-only" : "reserved", addr);
        break;
    }
}

static uint64_t cppi41_sched_read(void *opaque, hwaddr addr, unsigned size)
{
    AM335xCppi41State *s = opaque;

    if (addr == S_CTRL) {
        return s->sched_ctrl;
    }
    if (addr >= S_WORD0 && addr < S_WORD0 + 4 * AM335X_CPPI41_SCHED_WORDS) {
        return s->sched_word[(addr - S_WORD0) >> 2];
    }
    qemu_log_mask(LOG_GUEST_ERROR, "am335x-cppi41: read of reserved "
                  "scheduler offset 0x%" HWADDR_PRIx "\n", addr);
    return 0;
}

static void cppi41_sched_write(void *opaque, hwaddr addr, uint64_t val,
                               unsigned size)
{
    AM335xCppi41State *s = opaque;

    if (addr == S_CTRL) {
        s->sched_ctrl = val & (SCHED_ENABLE | 0xff);
        cppi41_run(s);
    } else if (addr >= S_WORD0 &&
               addr < S_WORD0 + 4 * AM335X_CPPI41_SCHED_WORDS) {
        s->sched_word[(addr - S_WORD0) >> 2] = val;
    } else {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-cppi41: write to reserved "
                      "scheduler offset 0x%" HWADDR_PRIx "\n", addr);
    }
}

static uint64_t cppi41_qmgr_read(void *opaque, hwaddr addr, unsigned size)
{
    AM335xCppi41State *s = opaque;
    uint32_t val = 0;

    if (addr >= Q_QUEUE_BASE && addr < Q_END) {
        unsigned q = ((addr - Q_QUEUE_BASE) & 0xfff) >> 4;
        bool status = addr >= Q_STATUS_BASE;

        if (q >= AM335X_CPPI41_NUM_QUEUES) {
            qemu_log_mask(LOG_GUEST_ERROR, "am335x-cppi41: queue %u "
                          "does not exist\n", q);
            return 0;
        }
        switch (addr & 0xc) {
        case 0x0:   /* A: entry count */
            val = s->count[q];
            break;
        case 0x8:   /* C: the packet size written for pushes */
            val = status ? 0 : s->queue_c[q];
            break;
        case 0xc:   /* D: a read pops */
            if (!status) {
                val = cppi41_pop(s, q);
                cppi41_update_irq(s);
                cppi41_run(s);
            }
            break;
        }
        return val;
    }
    if (addr >= Q_MEM_BASE && addr < Q_MEM_END) {
        int r = (addr - Q_MEM_BASE) >> 4;

        switch (addr & 0xc) {
        case 0x0:
            return s->membase[r];
        case 0x4:
            return s->memctrl[r];
        }
        return 0;
    }
    switch (addr) {
    case Q_REVID:
        return QMGR_REVID_VALUE;
    case Q_DIVERSION:
        return s->diversion;
    case Q_FDBSC0 ... Q_FDBSC7:
        /* Four 8-bit counters a register, cleared by the read */
        for (int i = 0; i < 4; i++) {
            int q = ((addr - Q_FDBSC0) & ~3) + i;

            val |= (uint32_t)s->starvation[q] << (8 * i);
            s->starvation[q] = 0;
        }
        return val;
    case Q_LRAM0_BASE:
        return s->lram0_base;
    case Q_LRAM0_SIZE:
        return s->lram0_size;
    case Q_LRAM1_BASE:
        return s->lram1_base;
    case Q_PEND0 ... Q_PEND4:
        for (int i = 0; i < 32; i++) {
            int q = ((addr - Q_PEND0) >> 2) * 32 + i;

            if (q < AM335X_CPPI41_NUM_QUEUES && s->count[q]) {
                val |= 1u << i;
            }
        }
        return val;
    }
    qemu_log_mask(LOG_GUEST_ERROR, "am335x-cppi41: read of reserved queue "
                  "manager offset 0x%" HWADDR_PRIx "\n", addr);
    return 0;
}

static void cppi41_qmgr_write(void *opaque, hwaddr addr, uint64_t val64,
                              unsigned size)
{
    AM335xCppi41State *s = opaque;
    uint32_t val = val64;

    if (addr >= Q_QUEUE_BASE && addr < Q_STATUS_BASE) {
        unsigned q = (addr - Q_QUEUE_BASE) >> 4;

        if (q >= AM335X_CPPI41_NUM_QUEUES) {
            qemu_log_mask(LOG_GUEST_ERROR, "am335x-cppi41: queue %u "
                          "does not exist\n", q);
            return;
        }
        switch (addr & 0xc) {
        case 0x8:
            s->queue_c[q] = val & 0x80003fff;
            break;
        case 0xc:
            cppi41_push(s, q, val);
            cppi41_run(s);
            break;
        default:
            qemu_log_mask(LOG_GUEST_ERROR, "am335x-cppi41: write to "
                          "read-only register of queue %u\n", q);
            break;
        }
        return;
    }
    if (addr >= Q_MEM_BASE && addr < Q_MEM_END) {
        int r = (addr - Q_MEM_BASE) >> 4;

        switch (addr & 0xc) {
        case 0x0:
            s->membase[r] = val & ~0x1fu;
            break;
        case 0x4:
            s->memctrl[r] = val & 0x3fff0f0f;
            break;
        }
        return;
    }
    switch (addr) {
    case Q_DIVERSION:
        s->diversion = val;
        qemu_log_mask(LOG_UNIMP, "am335x-cppi41: queue diversion\n");
        break;
    case Q_LRAM0_BASE:
        s->lram0_base = val & ~3u;
        break;
    case Q_LRAM0_SIZE:
        s->lram0_size = val & 0x3fff;
        break;
    case Q_LRAM1_BASE:
        s->lram1_base = val & ~3u;
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-cppi41: write to read-only or "
                      "reserved queue manager offset 0x%" HWADDR_PRIx "\n",
                      addr);
        break;
    }
}

#define CPPI41_OPS(name)                                    \
    static const MemoryRegionOps cppi41_##name##_ops = {    \
        .read = cppi41_##name##_read,                       \
        .write = cppi41_##name##_write,                     \
        .endianness = DEVICE_LITTLE_ENDIAN,                 \
        .valid = { .min_access_size = 4, .max_access_size = 4 }, \
    }

CPPI41_OPS(glue);
CPPI41_OPS(ctrl);
CPPI41_OPS(sched);
CPPI41_OPS(qmgr);

static void cppi41_reset_hold(Object *obj, ResetType type)
{
    AM335xCppi41State *s = AM335X_CPPI41(obj);

    cppi41_reset_state(s);
    if (s->bh) {
        qemu_bh_cancel(s->bh);
    }
}

static void cppi41_reset_exit(Object *obj, ResetType type)
{
    cppi41_update_irq(AM335X_CPPI41(obj));
}

static void cppi41_realize(DeviceState *dev, Error **errp)
{
    AM335xCppi41State *s = AM335X_CPPI41(dev);

    if (!s->dma_mr) {
        error_setg(errp, TYPE_AM335X_CPPI41 ": 'dma-mr' link not set");
        return;
    }
    address_space_init(&s->dma_as, s->dma_mr, TYPE_AM335X_CPPI41);
    s->bh = qemu_bh_new_guarded(cppi41_bh, s, &dev->mem_reentrancy_guard);
}

static void cppi41_init(Object *obj)
{
    AM335xCppi41State *s = AM335X_CPPI41(obj);
    SysBusDevice *sbd = SYS_BUS_DEVICE(obj);

    memory_region_init_io(&s->glue_mem, obj, &cppi41_glue_ops, s,
                          TYPE_AM335X_CPPI41 "-glue", 0x1000);
    memory_region_init_io(&s->ctrl_mem, obj, &cppi41_ctrl_ops, s,
                          TYPE_AM335X_CPPI41 "-controller", 0x1000);
    memory_region_init_io(&s->sched_mem, obj, &cppi41_sched_ops, s,
                          TYPE_AM335X_CPPI41 "-scheduler", 0x1000);
    memory_region_init_io(&s->qmgr_mem, obj, &cppi41_qmgr_ops, s,
                          TYPE_AM335X_CPPI41 "-queuemgr", Q_END);
    sysbus_init_mmio(sbd, &s->glue_mem);
    sysbus_init_mmio(sbd, &s->ctrl_mem);
    sysbus_init_mmio(sbd, &s->sched_mem);
    sysbus_init_mmio(sbd, &s->qmgr_mem);
    sysbus_init_irq(sbd, &s->irq);
}

static int cppi41_post_load(void *opaque, int version_id)
{
    AM335xCppi41State *s = opaque;

    for (int q = 0; q < AM335X_CPPI41_NUM_QUEUES; q++) {
        if (s->count[q] > AM335X_CPPI41_MAX_DESCS) {
            return -EINVAL;
        }
    }
    qemu_bh_schedule(s->bh);
    return 0;
}

static const VMStateDescription vmstate_cppi41_tx = {
    .name = "am335x-cppi41-tx",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(desc, AM335xCppi41Tx),
        VMSTATE_UINT32(len, AM335xCppi41Tx),
        VMSTATE_UINT32(buf, AM335xCppi41Tx),
        VMSTATE_UINT32(done, AM335xCppi41Tx),
        VMSTATE_UINT32(retq, AM335xCppi41Tx),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_am335x_cppi41 = {
    .name = TYPE_AM335X_CPPI41,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = cppi41_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(sysconfig, AM335xCppi41State),
        VMSTATE_UINT32(irq_enable, AM335xCppi41State),
        VMSTATE_UINT32_ARRAY(dma_threshold, AM335xCppi41State, 4),
        VMSTATE_UINT32_ARRAY(dma_enable, AM335xCppi41State, 2),
        VMSTATE_UINT32_ARRAY(frame_threshold, AM335xCppi41State, 4),
        VMSTATE_UINT32_ARRAY(frame_enable, AM335xCppi41State, 2),
        VMSTATE_UINT32(tdfdq, AM335xCppi41State),
        VMSTATE_UINT32(emu, AM335xCppi41State),
        VMSTATE_UINT32_ARRAY(txgcr, AM335xCppi41State,
                             AM335X_CPPI41_NUM_CHANNELS),
        VMSTATE_UINT32_ARRAY(rxgcr, AM335xCppi41State,
                             AM335X_CPPI41_NUM_CHANNELS),
        VMSTATE_UINT32_ARRAY(rxhpcra, AM335xCppi41State,
                             AM335X_CPPI41_NUM_CHANNELS),
        VMSTATE_UINT32_ARRAY(rxhpcrb, AM335xCppi41State,
                             AM335X_CPPI41_NUM_CHANNELS),
        VMSTATE_STRUCT_ARRAY(tx, AM335xCppi41State,
                             AM335X_CPPI41_NUM_CHANNELS, 1,
                             vmstate_cppi41_tx, AM335xCppi41Tx),
        VMSTATE_UINT32(sched_ctrl, AM335xCppi41State),
        VMSTATE_UINT32_ARRAY(sched_word, AM335xCppi41State,
                             AM335X_CPPI41_SCHED_WORDS),
        VMSTATE_UINT32(diversion, AM335xCppi41State),
        VMSTATE_UINT32(lram0_base, AM335xCppi41State),
        VMSTATE_UINT32(lram0_size, AM335xCppi41State),
        VMSTATE_UINT32(lram1_base, AM335xCppi41State),
        VMSTATE_UINT32_ARRAY(membase, AM335xCppi41State,
                             AM335X_CPPI41_NUM_REGIONS),
        VMSTATE_UINT32_ARRAY(memctrl, AM335xCppi41State,
                             AM335X_CPPI41_NUM_REGIONS),
        VMSTATE_UINT32_ARRAY(queue_c, AM335xCppi41State,
                             AM335X_CPPI41_NUM_QUEUES),
        VMSTATE_UINT16_ARRAY(head, AM335xCppi41State,
                             AM335X_CPPI41_NUM_QUEUES),
        VMSTATE_UINT16_ARRAY(tail, AM335xCppi41State,
                             AM335X_CPPI41_NUM_QUEUES),
        VMSTATE_UINT32_ARRAY(count, AM335xCppi41State,
                             AM335X_CPPI41_NUM_QUEUES),
        VMSTATE_UINT16_ARRAY(link, AM335xCppi41State,
                             AM335X_CPPI41_MAX_DESCS),
        VMSTATE_UINT32_ARRAY(entry, AM335xCppi41State,
                             AM335X_CPPI41_MAX_DESCS),
        VMSTATE_UINT8_ARRAY(starvation, AM335xCppi41State, 32),
        VMSTATE_END_OF_LIST()
    }
};

static const Property cppi41_properties[] = {
    DEFINE_PROP_LINK("dma-mr", AM335xCppi41State, dma_mr, TYPE_MEMORY_REGION,
                     MemoryRegion *),
    DEFINE_PROP_LINK("usb0", AM335xCppi41State, usb[0], TYPE_AM335X_MUSB,
                     AM335xMusbState *),
    DEFINE_PROP_LINK("usb1", AM335xCppi41State, usb[1], TYPE_AM335X_MUSB,
                     AM335xMusbState *),
};

static void cppi41_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->desc = "TI AM335x USB subsystem glue and CPPI 4.1 DMA";
    dc->realize = cppi41_realize;
    dc->vmsd = &vmstate_am335x_cppi41;
    rc->phases.hold = cppi41_reset_hold;
    rc->phases.exit = cppi41_reset_exit;
    device_class_set_props(dc, cppi41_properties);
}

static const TypeInfo cppi41_info = {
    .name = TYPE_AM335X_CPPI41,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AM335xCppi41State),
    .instance_init = cppi41_init,
    .class_init = cppi41_class_init,
};

static void cppi41_register_types(void)
{
    type_register_static(&cppi41_info);
}

type_init(cppi41_register_types)
