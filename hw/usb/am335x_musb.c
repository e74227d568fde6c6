/*
 * TI AM335x USB controller: a Mentor MUSBMHDRC core behind TI's wrapper
 *
 * One of the two USB ports of the AM335x's USB subsystem (USBSS): the
 * wrapper (USBnCTRL/STAT, its interrupt registers, the CPPI 4.1 modes of
 * the endpoints, the ID and UTMI controls) and the dual-role MUSB core with
 * 16 endpoints in dynamic FIFO mode.  The core works as the host: it
 * drives VBUS while it holds a session as the A-device, sees the device
 * on its port connect, resets it, and runs the SETUP/IN/OUT transactions
 * that its EP0 CSR and the endpoints' TXCSR/RXCSR ask for, on QEMU's USB
 * device at the endpoint's function address.  The CPPI 4.1 DMA
 * (am335x_cppi41.c) loads and unloads the FIFOs of the endpoints whose
 * DMAENAB is set.
 *
 * The wrapper reads the core's interrupt registers itself (USBnCTRL.UINT
 * = 0): endpoint and USB events land in IRQSTATRAW0/1, and the line is
 * the OR of IRQSTAT0/1 (raw & enable).
 *
 * As the B-device (ID floating) the core is the peripheral (gadget): a
 * PC on the port (usb_gadget_host.c, when the port has a netdev, a
 * chardev for its serial port or a mass storage test size) gives
 * it VBUS, sees its soft connect (POWER.SOFTCONN), resets the bus and
 * sends its SETUP, IN and OUT tokens, which the core answers from EP0's
 * CSR0 state and the endpoints' TXCSR/RXCSR and FIFOs.
 *
 * Not modelled: isochronous transfers are run like bulk ones; SOF
 * interrupts; the ULPI and PHY test registers; suspend signalling
 * (POWER.SUSPENDM is kept); double-buffered FIFOs; HNP and SRP.
 *
 * References: AM335x Technical Reference Manual (SPRUH73), chapter 16;
 * the Mentor MUSBMHDRC register set as Linux's musb driver uses it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/host-utils.h"
#include "qapi/error.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "hw/usb/am335x_musb.h"
#include "hw/usb/msd.h"
#include "block/aio-wait.h"
#include "hw/dma/am335x_cppi41.h"
#include "migration/vmstate.h"
#include "trace.h"

/* Wrapper registers (USBnCTRL block) */
#define W_REV               0x00
#define W_CTRL              0x14
#define W_STAT              0x18
#define W_IRQMSTAT          0x20
#define W_IRQEOI            0x24
#define W_IRQSTATRAW0       0x28
#define W_IRQSTATRAW1       0x2c
#define W_IRQSTAT0          0x30
#define W_IRQSTAT1          0x34
#define W_IRQENABLESET0     0x38
#define W_IRQENABLESET1     0x3c
#define W_IRQENABLECLR0     0x40
#define W_IRQENABLECLR1     0x44
#define W_TXMODE            0x70
#define W_RXMODE            0x74
#define W_GENRNDISEP1       0x80
#define W_GENRNDISEP15      0xb8
#define W_AUTOREQ           0xd0
#define W_SRPFIXTIME        0xd4
#define W_TDOWN             0xd8
#define W_UTMI              0xe0
#define W_MGCUTMILB         0xe4
#define W_MODE              0xe8

/* USBnREV, USBnUTMI, USBnMODE, USBnSRPFIXTIME reset values (TRM 16.5) */
#define USB_REV_VALUE       0x4ea20800
#define UTMI_RESET          0x00200002
#define MODE_RESET          0x00000100
#define SRPFIXTIME_RESET    0x0280de80

#define CTRL_SOFT_RESET     (1u << 0)
#define STAT_DRVVBUS        (1u << 0)
#define MODE_IDDIG          (1u << 8)
#define MODE_IDDIG_MUX      (1u << 7)
/* IRQSTAT0: TX EPs in bits 0-15, RX EPs 1-15 in bits 17-31 */
#define IRQ0_RX_SHIFT       16
#define IRQ0_MASK           0xfffeffffu
/* IRQSTAT1: the core's INTRUSB in bits 0-7, a DRVVBUS change in bit 8 */
#define IRQ1_DRVVBUS        (1u << 8)
#define IRQ1_MASK           0x000001ffu

/* The core, at 0x400 */
#define CORE_BASE           0x400
#define PHY_BASE            0x300

#define C_FADDR             0x00
#define C_POWER             0x01
#define C_INTRTX            0x02
#define C_INTRRX            0x04
#define C_INTRTXE           0x06
#define C_INTRRXE           0x08
#define C_INTRUSB           0x0a
#define C_INTRUSBE          0x0b
#define C_FRAME             0x0c
#define C_INDEX             0x0e
#define C_TESTMODE          0x0f
#define C_EP_WINDOW         0x10    /* the INDEXed endpoint's registers */
#define C_FIFO0             0x20
#define C_FIFO_END          0x60
#define C_DEVCTL            0x60
#define C_MISC              0x61    /* BABBLE_CTL on the AM335x */
#define C_TXFIFOSZ          0x62
#define C_RXFIFOSZ          0x63
#define C_TXFIFOADD         0x64
#define C_RXFIFOADD         0x66
#define C_HWVERS            0x6c
#define C_ULPI              0x70
#define C_EPINFO            0x78
#define C_RAMINFO           0x79
#define C_LINKINFO          0x7a
#define C_VPLEN             0x7b
#define C_HS_EOF1           0x7c
#define C_FS_EOF1           0x7d
#define C_LS_EOF1           0x7e
#define C_SOFT_RST          0x7f
#define C_BUSCTL            0x80    /* 8 bytes of target address per EP */
#define C_FLAT_EP           0x100   /* 16 bytes of registers per EP */
#define C_FLAT_EP_END       0x200

/* Endpoint window offsets */
#define E_TXMAXP            0x0
#define E_TXCSR             0x2
#define E_RXMAXP            0x4
#define E_RXCSR             0x6
#define E_RXCOUNT           0x8
#define E_TXTYPE            0xa
#define E_TXINTERVAL        0xb
#define E_RXTYPE            0xc
#define E_RXINTERVAL        0xd
#define E_CONFIGDATA        0xf

#define POWER_SUSPENDM      0x02
#define POWER_RESET         0x08
#define POWER_HSMODE        0x10
#define POWER_HSENAB        0x20
#define POWER_SOFTCONN      0x40
#define POWER_WRITABLE      0xef

#define INTRUSB_RESUME      0x02
#define INTRUSB_RESET       0x04    /* peripheral: reset signalling seen */
#define INTRUSB_CONNECT     0x10
#define INTRUSB_DISCONNECT  0x20

#define DEVCTL_SESSION      0x01
#define DEVCTL_HR           0x02
#define DEVCTL_HM           0x04
#define DEVCTL_VBUS_VALID   0x18
#define DEVCTL_LSDEV        0x20
#define DEVCTL_FSDEV        0x40
#define DEVCTL_BDEVICE      0x80

#define CSR0_RXPKTRDY       0x0001
#define CSR0_TXPKTRDY       0x0002
#define CSR0_RXSTALL        0x0004
#define CSR0_SETUPPKT       0x0008
#define CSR0_ERROR          0x0010
#define CSR0_REQPKT         0x0020
#define CSR0_STATUSPKT      0x0040
#define CSR0_NAKTIMEOUT     0x0080
#define CSR0_FLUSHFIFO      0x0100
#define CSR0_DIS_PING       0x0800
/* Bits a 0 clears and a 1 leaves as they are */
#define CSR0_W0C            (CSR0_RXPKTRDY | CSR0_RXSTALL | CSR0_ERROR | \
                             CSR0_NAKTIMEOUT)
#define CSR0_RW             (CSR0_TXPKTRDY | CSR0_SETUPPKT | CSR0_REQPKT | \
                             CSR0_STATUSPKT | CSR0_DIS_PING)

/* CSR0 in peripheral mode */
#define CSR0_P_SENTSTALL    0x0004
#define CSR0_P_DATAEND      0x0008
#define CSR0_P_SETUPEND     0x0010
#define CSR0_P_SENDSTALL    0x0020
#define CSR0_P_SVDRXPKTRDY  0x0040
#define CSR0_P_SVDSETUPEND  0x0080

#define TXCSR_TXPKTRDY      0x0001
#define TXCSR_FIFONOTEMPTY  0x0002
#define TXCSR_ERROR         0x0004
#define TXCSR_FLUSHFIFO     0x0008
#define TXCSR_RXSTALL       0x0020
#define TXCSR_CLRDATATOG    0x0040
#define TXCSR_NAKTIMEOUT    0x0080
#define TXCSR_DATATOGGLE    0x0100
#define TXCSR_WR_DATATOGGLE 0x0200
#define TXCSR_DMAENAB       0x1000
#define TXCSR_DMAMODE       0x0400
#define TXCSR_W0C           (TXCSR_ERROR | TXCSR_RXSTALL | TXCSR_NAKTIMEOUT)
/* DMAMODE, FRCDATATOG, DMAENAB, MODE, ISO, AUTOSET */
#define TXCSR_RW            0xfc00
/* Peripheral mode: UNDERRUN, SENTSTALL, INCOMPTX are ERROR, RXSTALL, NAKTO */
#define TXCSR_P_SENDSTALL   0x0010
#define TXCSR_P_SENTSTALL   0x0020

#define RXCSR_RXPKTRDY      0x0001
#define RXCSR_FIFOFULL      0x0002
#define RXCSR_ERROR         0x0004
#define RXCSR_DATAERROR     0x0008  /* a NAK time-out in host mode */
#define RXCSR_FLUSHFIFO     0x0010
#define RXCSR_REQPKT        0x0020
#define RXCSR_RXSTALL       0x0040
#define RXCSR_CLRDATATOG    0x0080
#define RXCSR_DATATOGGLE    0x0200
#define RXCSR_WR_DATATOGGLE 0x0400
#define RXCSR_DMAENAB       0x2000
#define RXCSR_AUTOREQ       0x4000
#define RXCSR_W0C           (RXCSR_RXPKTRDY | RXCSR_ERROR | RXCSR_DATAERROR | \
                             RXCSR_RXSTALL)
/* DMAMODE, DISNYET, DMAENAB, AUTOREQ, AUTOCLEAR */
#define RXCSR_RW            0xf800
/* Peripheral mode */
#define RXCSR_P_OVERRUN     0x0004
#define RXCSR_P_SENDSTALL   0x0020
#define RXCSR_P_SENTSTALL   0x0040
#define RXCSR_P_INCOMPRX    0x0100
#define RXCSR_P_W0C         (RXCSR_RXPKTRDY | RXCSR_P_OVERRUN | \
                             RXCSR_P_SENTSTALL | RXCSR_P_INCOMPRX)
#define RXCSR_AUTOCLEAR     0x8000

#define TYPE_PROTO(t)       (((t) >> 4) & 3)
#define TYPE_TARGET_EP(t)   ((t) & 0xf)
#define PROTO_ISO           1
#define PROTO_INT           3
#define TYPE_SPEED_MASK     0xc0
#define TYPE_SPEED_HIGH     0x40
#define TYPE_SPEED_FULL     0x80

/* Signalling rates (USB 2.0, 7.1.11) */
#define USB_HS_BIT_RATE     480000000
#define USB_FS_BIT_RATE     12000000
#define USB_LS_BIT_RATE     1500000
#define MAXP_PAYLOAD(m)     ((m) & 0x7ff)
#define MAXP_MULT(m)        ((((m) >> 11) & 0x1f) + 1)

#define EP0_FIFO_SIZE       64
/* CONFIGDATA: MPRXE, MPTXE, HBRXE, HBTXE, DYNFIFO, SOFTCONE */
#define CONFIGDATA_VALUE    0xde
/* HWVERS: RTL 2.0 */
#define HWVERS_VALUE        0x0800
/* 16 TX/RX endpoint pairs; 16 KiB of FIFO RAM (ram-bits 12) */
#define EPINFO_VALUE        0xff
#define RAMINFO_VALUE       0x0c

/* A (micro)frame: the NAK retry and NAK limit unit */
#define HS_MICROFRAME_NS    125000
#define FS_FRAME_NS         1000000

static bool musb_is_a_device(AM335xMusbState *s)
{
    if (s->mode & MODE_IDDIG_MUX) {
        return !(s->mode & MODE_IDDIG);
    }
    return s->id_grounded;
}

static void musb_update_irq(AM335xMusbState *s)
{
    bool level = (s->irq_raw[0] & s->irq_enable[0]) ||
                 (s->irq_raw[1] & s->irq_enable[1]);

    qemu_set_irq(s->irq, level);
}

static void musb_raise_usb(AM335xMusbState *s, uint32_t bits)
{
    trace_am335x_musb_usb_event(s->instance, bits);
    s->irq_raw[1] |= bits;
    musb_update_irq(s);
}

static void musb_raise_ep(AM335xMusbState *s, int epn, bool rx)
{
    s->irq_raw[0] |= 1u << (epn + (rx ? IRQ0_RX_SHIFT : 0));
    musb_update_irq(s);
}

static void musb_dma_kick(AM335xMusbState *s)
{
    if (s->dma) {
        am335x_cppi41_kick(s->dma);
    }
}

static uint32_t musb_fifo_size(AM335xMusbState *s, int epn, bool rx)
{
    uint8_t sz = rx ? s->ep[epn].rxfifosz : s->ep[epn].txfifosz;
    uint32_t size = 8u << MIN(sz & 0xf, 9);

    if (epn == 0) {
        return EP0_FIFO_SIZE;
    }
    return MIN(size, AM335X_MUSB_FIFO_MAX);
}

/* The packet on the bus, if any, goes away (the CPU or a reset took it) */
static void musb_pipe_cancel(AM335xMusbPipe *p)
{
    if (p->async && usb_packet_is_inflight(&p->packet)) {
        usb_cancel_packet(&p->packet);
    }
    p->async = false;
    p->pending = false;
    p->retry_ns = 0;
    p->done_ns = 0;
}

static void musb_retry_rearm(AM335xMusbState *s)
{
    int64_t next = INT64_MAX;

    for (int i = 0; i < AM335X_MUSB_NUM_EPS; i++) {
        AM335xMusbPipe *pipes[2] = { &s->ep[i].tx, &s->ep[i].rx };

        for (int j = 0; j < 2; j++) {
            if (pipes[j]->pending && pipes[j]->retry_ns) {
                next = MIN(next, pipes[j]->retry_ns);
            }
            if (pipes[j]->done_ns) {
                next = MIN(next, pipes[j]->done_ns);
            }
        }
    }
    if (next == INT64_MAX) {
        timer_del(&s->retry_timer);
    } else {
        timer_mod(&s->retry_timer, next);
    }
}

static int64_t musb_frame_ns(AM335xMusbState *s)
{
    return (s->power & POWER_HSMODE) ? HS_MICROFRAME_NS : FS_FRAME_NS;
}

/* The transaction ended: its CSR bits, the toggle, the interrupt */
static void musb_pipe_done(AM335xMusbState *s, int epn, bool in,
                           int status, uint32_t actual)
{
    AM335xMusbEndpoint *e = &s->ep[epn];
    AM335xMusbPipe *p = in ? &e->rx : &e->tx;
    bool dma;

    p->pending = false;
    p->retry_ns = 0;
    trace_am335x_musb_done(s->instance, epn, in, status, actual);

    if (epn == 0) {
        e->txcsr &= ~(CSR0_TXPKTRDY | CSR0_SETUPPKT | CSR0_REQPKT);
        if (status == USB_RET_SUCCESS) {
            if (in) {
                e->rx.len = actual;
                e->rx.pos = 0;
                e->txcsr |= CSR0_RXPKTRDY;
            } else {
                e->tx.len = 0;
                e->txcsr &= ~CSR0_STATUSPKT;
            }
        } else if (status == USB_RET_STALL) {
            e->txcsr |= CSR0_RXSTALL;
        } else {
            e->txcsr |= CSR0_ERROR;
        }
        musb_raise_ep(s, 0, false);
        return;
    }

    if (!in) {
        uint32_t maxp = MAX(MAXP_PAYLOAD(e->txmaxp), 1);

        e->txcsr &= ~TXCSR_TXPKTRDY;
        if (status == USB_RET_SUCCESS) {
            /* One toggle per max-packet the load was split into */
            uint32_t packets = MAX(DIV_ROUND_UP(p->len, maxp), 1);

            p->toggle ^= packets & 1;
            p->len = 0;
            p->sent = 0;
        } else if (status == USB_RET_STALL) {
            e->txcsr |= TXCSR_RXSTALL;
        } else {
            e->txcsr |= TXCSR_ERROR;
        }
        dma = (e->txcsr & TXCSR_DMAENAB) && (e->txcsr & TXCSR_DMAMODE);
        if (!dma || status != USB_RET_SUCCESS) {
            musb_raise_ep(s, epn, false);
        }
        if (e->txcsr & TXCSR_DMAENAB) {
            musb_dma_kick(s);
        }
        return;
    }

    e->rxcsr &= ~RXCSR_REQPKT;
    if (status == USB_RET_SUCCESS) {
        p->len = actual;
        p->pos = 0;
        p->toggle ^= 1;
        e->rxcsr |= RXCSR_RXPKTRDY;
        if (actual >= musb_fifo_size(s, epn, true)) {
            e->rxcsr |= RXCSR_FIFOFULL;
        }
    } else if (status == USB_RET_STALL) {
        e->rxcsr |= RXCSR_RXSTALL;
    } else {
        e->rxcsr |= RXCSR_ERROR;
    }
    if ((e->rxcsr & RXCSR_DMAENAB) && status == USB_RET_SUCCESS) {
        /* The CPPI 4.1 DMA unloads it, without an endpoint interrupt */
        musb_dma_kick(s);
    } else {
        musb_raise_ep(s, epn, true);
    }
}

/*
 * The polling interval of a periodic (interrupt or isochronous) endpoint,
 * 0 for bulk and control: RXINTERVAL/TXINTERVAL in frames (full/low
 * speed interrupt) or 2^(m-1) (micro)frames, at the target's speed.
 */
static int64_t musb_poll_interval_ns(AM335xMusbState *s, int epn, bool in)
{
    AM335xMusbEndpoint *e = &s->ep[epn];
    uint8_t type = in ? e->rxtype : e->txtype;
    uint8_t m = MAX(in ? e->rxinterval : e->txinterval, 1);
    int proto = TYPE_PROTO(type);
    bool hs = (type & TYPE_SPEED_MASK) ? (type & TYPE_SPEED_MASK) ==
              TYPE_SPEED_HIGH : !!(s->power & POWER_HSMODE);

    if (epn == 0 || (proto != PROTO_INT && proto != PROTO_ISO)) {
        return 0;
    }
    if (hs) {
        return (int64_t)HS_MICROFRAME_NS << MIN(m - 1, 15);
    }
    if (proto == PROTO_INT) {
        return (int64_t)FS_FRAME_NS * m;
    }
    return (int64_t)FS_FRAME_NS << MIN(m - 1, 15);
}

/* The device NAKed: try again later, or give up at the NAK limit */
static void musb_pipe_nak(AM335xMusbState *s, int epn, bool in)
{
    AM335xMusbEndpoint *e = &s->ep[epn];
    AM335xMusbPipe *p = in ? &e->rx : &e->tx;
    uint8_t interval = in && epn ? e->rxinterval : e->txinterval;
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    int64_t frame = musb_frame_ns(s);
    int64_t wait = musb_poll_interval_ns(s, epn, in && epn);

    if (!p->nak_start_ns) {
        p->nak_start_ns = now;
    }
    if (!wait && interval >= 2 &&
        now - p->nak_start_ns >= (frame << MIN(interval - 1, 15))) {
        /* Bulk and control: NAK limit of 2^(m-1) (micro)frames */
        p->pending = false;
        p->retry_ns = 0;
        if (epn == 0) {
            e->txcsr |= CSR0_NAKTIMEOUT;
        } else if (in) {
            e->rxcsr |= RXCSR_DATAERROR;
        } else {
            e->txcsr |= TXCSR_NAKTIMEOUT;
        }
        trace_am335x_musb_nak_timeout(s->instance, epn, in);
        musb_raise_ep(s, epn, in && epn);
        return;
    }
    /* A periodic endpoint is polled once each interval */
    p->retry_ns = now + (wait ? wait : frame);
    musb_retry_rearm(s);
}

/*
 * The wire time of a transaction with @bytes of data at the target's
 * speed: the data plus the protocol overhead of a bulk transaction
 * (token, data packet framing and CRC, handshake, inter-packet gaps:
 * 55 bytes at high speed, 13 at full and low speed; USB 2.0, tables 5-9
 * and 5-10).  Bit stuffing is not counted.
 */
static int64_t musb_wire_ns(AM335xMusbState *s, int epn, bool in,
                            uint32_t bytes)
{
    uint8_t type = in && epn ? s->ep[epn].rxtype : s->ep[epn].txtype;
    uint8_t speed = type & TYPE_SPEED_MASK;
    uint64_t bits;

    if (!speed) {
        speed = (s->power & POWER_HSMODE) ? TYPE_SPEED_HIGH : TYPE_SPEED_FULL;
    }
    switch (speed) {
    case TYPE_SPEED_HIGH:
        bits = (bytes + 55) * 8ull;
        return muldiv64(bits, NANOSECONDS_PER_SECOND, USB_HS_BIT_RATE);
    case TYPE_SPEED_FULL:
        bits = (bytes + 13) * 8ull;
        return muldiv64(bits, NANOSECONDS_PER_SECOND, USB_FS_BIT_RATE);
    default:
        bits = (bytes + 13) * 8ull;
        return muldiv64(bits, NANOSECONDS_PER_SECOND, USB_LS_BIT_RATE);
    }
}

/*
 * The device answered: the transaction ends now, or with timing when its
 * packets have crossed the wire (the bus carries one at a time).
 */
static void musb_pipe_finish(AM335xMusbState *s, int epn, bool in,
                             int status, uint32_t len)
{
    AM335xMusbPipe *p = in ? &s->ep[epn].rx : &s->ep[epn].tx;

    if (!s->timing || status == USB_RET_NODEV) {
        musb_pipe_done(s, epn, in, status, len);
        return;
    }
    p->done_ns = am335x_timing_book_at(&s->bus,
                                       qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL),
                                       0, musb_wire_ns(s, epn, in, len));
    p->done_status = status;
    p->done_len = len;
    musb_retry_rearm(s);
}

/*
 * A mass storage device answers once the host's disk I/O is done, at a
 * moment of the guest's time that depends on the host.  With timing on,
 * the model waits for it on the spot, as the SD card's blocks are read,
 * so that a run repeats on any host.  Only the host's I/O completes such
 * a packet, never the guest, so the wait always ends.
 */
static bool musb_waits_for_host_io(AM335xMusbPipe *p)
{
    USBEndpoint *uep = p->packet.ep;

    return uep && uep->dev &&
           object_dynamic_cast(OBJECT(uep->dev), TYPE_USB_STORAGE);
}

static void musb_pipe_result(AM335xMusbState *s, int epn, bool in)
{
    AM335xMusbPipe *p = in ? &s->ep[epn].rx : &s->ep[epn].tx;
    USBPacket *pk = &p->packet;

    switch (pk->status) {
    case USB_RET_ASYNC:
        p->async = true;
        if (s->timing && musb_waits_for_host_io(p)) {
            /* musb_port_complete() clears it, and takes the result */
            AIO_WAIT_WHILE(NULL, p->async);
        }
        break;
    case USB_RET_NAK:
        musb_pipe_nak(s, epn, in);
        break;
    case USB_RET_SUCCESS:
        p->nak_start_ns = 0;
        musb_pipe_finish(s, epn, in, USB_RET_SUCCESS, pk->actual_length);
        break;
    default:
        p->nak_start_ns = 0;
        musb_pipe_finish(s, epn, in, pk->status, 0);
        break;
    }
}

/* Put the transaction the CSR asks for on the bus */
static void musb_pipe_run(AM335xMusbState *s, int epn, bool in)
{
    AM335xMusbEndpoint *e = &s->ep[epn];
    AM335xMusbPipe *p = in ? &e->rx : &e->tx;
    uint8_t addr = in && epn ? e->rxfuncaddr : e->txfuncaddr;
    uint8_t type = in && epn ? e->rxtype : e->txtype;
    int target = epn ? TYPE_TARGET_EP(type) : 0;
    USBDevice *dev = NULL;
    USBEndpoint *uep;
    int pid;
    uint8_t *buf;
    uint32_t len;

    if (!p->pending || p->async) {
        return;
    }
    p->retry_ns = 0;
    if (s->connected) {
        dev = usb_find_device(&s->port, addr & 0x7f);
    }
    if (!dev) {
        /* Nobody answers: three strikes, then ERROR */
        trace_am335x_musb_no_device(s->instance, epn, addr);
        musb_pipe_done(s, epn, in, USB_RET_NODEV, 0);
        return;
    }

    if (in) {
        pid = USB_TOKEN_IN;
        buf = p->fifo;
        if (epn == 0) {
            len = EP0_FIFO_SIZE;
        } else {
            len = MAXP_PAYLOAD(e->rxmaxp) * MAXP_MULT(e->rxmaxp);
            len = MIN(MAX(len, 1), AM335X_MUSB_FIFO_MAX);
        }
    } else {
        if (epn == 0 && (e->txcsr & CSR0_SETUPPKT)) {
            pid = USB_TOKEN_SETUP;
        } else {
            pid = USB_TOKEN_OUT;
        }
        buf = p->fifo;
        len = (epn == 0 && (e->txcsr & CSR0_STATUSPKT)) ? 0 : p->len;
    }
    uep = usb_ep_get(dev, pid, target);
    trace_am335x_musb_run(s->instance, epn, pid, addr, target, len);
    usb_packet_setup(&p->packet, pid, uep, 0,
                     ((uint64_t)s->instance << 16) | (epn << 1) | in,
                     false, false);
    usb_packet_addbuf(&p->packet, buf, len);
    usb_handle_packet(dev, &p->packet);
    musb_pipe_result(s, epn, in);
}

static void musb_pipe_start(AM335xMusbState *s, int epn, bool in)
{
    AM335xMusbPipe *p = in ? &s->ep[epn].rx : &s->ep[epn].tx;

    if (p->pending || p->async) {
        return;
    }
    p->pending = true;
    p->nak_start_ns = 0;
    if (musb_poll_interval_ns(s, epn, in && epn)) {
        /* A periodic endpoint's transaction waits for its next poll */
        p->retry_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                      musb_poll_interval_ns(s, epn, in && epn);
        musb_retry_rearm(s);
        return;
    }
    musb_pipe_run(s, epn, in);
}

static void musb_gadget_transfer_done(AM335xMusbState *s, int epn, bool rx);

static void musb_retry_timer_cb(void *opaque)
{
    AM335xMusbState *s = opaque;
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    for (int i = 0; i < AM335X_MUSB_NUM_EPS; i++) {
        for (int in = 0; in < 2; in++) {
            AM335xMusbPipe *p = in ? &s->ep[i].rx : &s->ep[i].tx;

            if (p->done_ns && p->done_ns <= now) {
                p->done_ns = 0;
                if (musb_is_a_device(s)) {
                    musb_pipe_done(s, i, in, p->done_status, p->done_len);
                } else {
                    musb_gadget_transfer_done(s, i, in);
                }
            }
            if (p->pending && p->retry_ns && p->retry_ns <= now) {
                musb_pipe_run(s, i, in);
            }
        }
    }
    musb_retry_rearm(s);
}

/* Every transaction fails, as on a port with nothing behind it */
static void musb_abort_all(AM335xMusbState *s)
{
    for (int i = 0; i < AM335X_MUSB_NUM_EPS; i++) {
        bool tx = s->ep[i].tx.pending || s->ep[i].tx.async;
        bool rx = s->ep[i].rx.pending || s->ep[i].rx.async;

        musb_pipe_cancel(&s->ep[i].tx);
        musb_pipe_cancel(&s->ep[i].rx);
        if (tx) {
            musb_pipe_done(s, i, false, USB_RET_NODEV, 0);
        }
        if (rx) {
            musb_pipe_done(s, i, i != 0, USB_RET_NODEV, 0);
        }
    }
    musb_retry_rearm(s);
}

/*
 * The session: as the A-device holding SESSION, the port drives VBUS and
 * the device on it connects; otherwise VBUS is off (a B-device has no
 * host to give it VBUS here).
 */
static void musb_gadget_update(AM335xMusbState *s);

static void musb_update_session_with(AM335xMusbState *s, bool attached)
{
    bool a_device = musb_is_a_device(s);
    bool vbus = a_device && (s->devctl & DEVCTL_SESSION);
    /* A PC on the port powers VBUS: the B-device's session runs */
    bool host_vbus = !a_device && usb_gadget_host_present(&s->gadget_host);

    s->devctl &= DEVCTL_SESSION | DEVCTL_HR;
    if (!a_device) {
        s->devctl |= DEVCTL_BDEVICE;
    }
    if (host_vbus) {
        s->devctl |= DEVCTL_VBUS_VALID | DEVCTL_SESSION;
    }
    if (vbus != s->drvvbus) {
        s->drvvbus = vbus;
        musb_raise_usb(s, IRQ1_DRVVBUS);
    }
    if (vbus) {
        s->devctl |= DEVCTL_VBUS_VALID;
    }
    if (vbus && attached && !s->connected) {
        s->connected = true;
        musb_raise_usb(s, INTRUSB_CONNECT);
    } else if (s->connected && !(vbus && attached)) {
        s->connected = false;
        s->power &= ~POWER_HSMODE;
        musb_abort_all(s);
        musb_raise_usb(s, INTRUSB_DISCONNECT);
    }
    if (s->connected) {
        s->devctl |= DEVCTL_HM;
        s->devctl |= s->port.dev->speed == USB_SPEED_LOW ? DEVCTL_LSDEV
                                                         : DEVCTL_FSDEV;
    }
    trace_am335x_musb_session(s->instance, s->devctl);
    musb_gadget_update(s);
}

static void musb_update_session(AM335xMusbState *s)
{
    musb_update_session_with(s, s->port.dev && s->port.dev->attached);
}

static void musb_port_attach(USBPort *port)
{
    musb_update_session(port->opaque);
}

static void musb_port_detach(USBPort *port)
{
    AM335xMusbState *s = port->opaque;

    /* The device is still marked attached while its port is told */
    musb_abort_all(s);
    musb_update_session_with(s, false);
}

static void musb_port_child_detach(USBPort *port, USBDevice *child)
{
    AM335xMusbState *s = port->opaque;

    /* A device behind a hub went: its endpoints' packets with it */
    for (int i = 0; i < AM335X_MUSB_NUM_EPS; i++) {
        AM335xMusbPipe *pipes[2] = { &s->ep[i].tx, &s->ep[i].rx };

        for (int j = 0; j < 2; j++) {
            if (pipes[j]->async && pipes[j]->packet.ep &&
                pipes[j]->packet.ep->dev == child) {
                musb_pipe_cancel(pipes[j]);
                musb_pipe_done(s, i, j && i, USB_RET_NODEV, 0);
            }
        }
    }
}

static void musb_port_wakeup(USBPort *port)
{
    AM335xMusbState *s = port->opaque;

    /*
     * Remote wakeup of a suspended bus: the RESUME interrupt.  (A waiting
     * endpoint is polled at its next interval anyway.)
     */
    if (s->power & POWER_SUSPENDM) {
        musb_raise_usb(s, INTRUSB_RESUME);
    }
}

static void musb_port_complete(USBPort *port, USBPacket *packet)
{
    AM335xMusbState *s = port->opaque;

    for (int i = 0; i < AM335X_MUSB_NUM_EPS; i++) {
        if (packet == &s->ep[i].tx.packet || packet == &s->ep[i].rx.packet) {
            bool in = packet == &s->ep[i].rx.packet;
            AM335xMusbPipe *p = in ? &s->ep[i].rx : &s->ep[i].tx;

            p->async = false;
            if (packet->status == USB_RET_REMOVE_FROM_QUEUE) {
                return;
            }
            musb_pipe_result(s, i, in);
            return;
        }
    }
}

static USBPortOps musb_port_ops = {
    .attach = musb_port_attach,
    .detach = musb_port_detach,
    .child_detach = musb_port_child_detach,
    .wakeup = musb_port_wakeup,
    .complete = musb_port_complete,
};

static void musb_bus_wakeup_endpoint(USBBus *bus, USBEndpoint *ep,
                                     unsigned int stream)
{
    AM335xMusbState *s = container_of(bus, AM335xMusbState, usb_bus);

    musb_port_wakeup(&s->port);
}

static USBBusOps musb_bus_ops = {
    .wakeup_endpoint = musb_bus_wakeup_endpoint,
};

/*
 * The peripheral role: the core as the B-device, with a PC on the port.
 * The PC sees the device while the core pulls D+ up (POWER.SOFTCONN).
 */
static bool musb_gadget_on(AM335xMusbState *s)
{
    return !musb_is_a_device(s) && s->gadget_host.connected;
}

static void musb_gadget_update(AM335xMusbState *s)
{
    usb_gadget_host_set_connected(&s->gadget_host,
        !musb_is_a_device(s) &&
        usb_gadget_host_present(&s->gadget_host) &&
        (s->power & POWER_SOFTCONN));
}

static void musb_gadget_kick(AM335xMusbState *s)
{
    if (musb_gadget_on(s)) {
        usb_gadget_host_kick(&s->gadget_host);
    }
}

/*
 * Reset signalling: the core takes address 0, empties its FIFOs and
 * drops the endpoints' packet and handshake state, chirps to high speed
 * if HSENAB allows, and raises the RESET interrupt.
 */
static void musb_gadget_bus_reset(void *opaque)
{
    AM335xMusbState *s = opaque;

    if (!musb_gadget_on(s)) {
        return;
    }
    s->faddr = 0;
    for (int i = 0; i < AM335X_MUSB_NUM_EPS; i++) {
        AM335xMusbEndpoint *e = &s->ep[i];

        e->txcsr &= i ? TXCSR_RW : 0;
        e->rxcsr &= RXCSR_RW;
        e->tx.len = e->tx.sent = 0;
        e->rx.len = e->rx.pos = 0;
        e->rx.pending = false;
        e->tx.done_ns = e->rx.done_ns = 0;
        e->tx.toggle = e->rx.toggle = false;
    }
    s->power &= ~POWER_HSMODE;
    if (s->power & POWER_HSENAB) {
        s->power |= POWER_HSMODE;
    }
    trace_am335x_musb_gadget_reset(s->instance, s->power);
    musb_raise_usb(s, INTRUSB_RESET);
}

/* Does the token reach this device's endpoint? */
static bool musb_gadget_addressed(AM335xMusbState *s, uint8_t addr, int epn)
{
    return musb_gadget_on(s) && addr == s->faddr &&
           epn >= 0 && epn < AM335X_MUSB_NUM_EPS;
}

/* The STALL handshake the CPU asked for (SENDSTALL), and its SENTSTALL */
static int musb_gadget_stall(AM335xMusbState *s, int epn, bool in)
{
    AM335xMusbEndpoint *e = &s->ep[epn];

    trace_am335x_musb_gadget_stall(s->instance, epn, in);
    if (epn == 0) {
        /* EP0's stall lasts one transaction and ends the transfer */
        e->txcsr &= ~(CSR0_P_SENDSTALL | CSR0_P_DATAEND | CSR0_TXPKTRDY);
        e->txcsr |= CSR0_P_SENTSTALL;
        e->tx.len = 0;
        musb_raise_ep(s, 0, false);
    } else if (in) {
        e->txcsr |= TXCSR_P_SENTSTALL;
        musb_raise_ep(s, epn, false);
    } else {
        e->rxcsr |= RXCSR_P_SENTSTALL;
        musb_raise_ep(s, epn, true);
    }
    return USB_RET_STALL;
}

static int musb_gadget_setup(void *opaque, uint8_t addr, const uint8_t *req)
{
    AM335xMusbState *s = opaque;
    AM335xMusbEndpoint *e = &s->ep[0];

    if (!musb_gadget_addressed(s, addr, 0)) {
        return USB_RET_NODEV;
    }
    /* A SETUP before the last transfer's end ends it: SETUPEND */
    if (e->txcsr & (CSR0_TXPKTRDY | CSR0_P_DATAEND | CSR0_RXPKTRDY)) {
        e->txcsr |= CSR0_P_SETUPEND;
    }
    e->txcsr &= ~(CSR0_TXPKTRDY | CSR0_P_DATAEND | CSR0_P_SENDSTALL);
    e->tx.len = 0;
    memcpy(e->rx.fifo, req, 8);
    e->rx.len = 8;
    e->rx.pos = 0;
    e->txcsr |= CSR0_RXPKTRDY;
    trace_am335x_musb_gadget_token(s->instance, 0, USB_TOKEN_SETUP, 8);
    musb_raise_ep(s, 0, false);
    return USB_RET_SUCCESS;
}

static int musb_gadget_in(void *opaque, uint8_t addr, int epn, uint8_t *buf,
                          int max)
{
    AM335xMusbState *s = opaque;
    AM335xMusbEndpoint *e;
    uint32_t n;

    if (!musb_gadget_addressed(s, addr, epn)) {
        return USB_RET_NODEV;
    }
    e = &s->ep[epn];
    if (epn == 0) {
        if (e->txcsr & CSR0_P_SENDSTALL) {
            return musb_gadget_stall(s, 0, true);
        }
        if (e->txcsr & CSR0_TXPKTRDY) {
            n = MIN(e->tx.len, max);
            memcpy(buf, e->tx.fifo, n);
            e->tx.len = 0;
            e->txcsr &= ~CSR0_TXPKTRDY;
        } else if ((e->txcsr & CSR0_P_DATAEND) &&
                   !(e->txcsr & CSR0_RXPKTRDY)) {
            /* The status stage of a transfer with no IN data */
            n = 0;
            e->txcsr &= ~CSR0_P_DATAEND;
        } else {
            return USB_RET_NAK;
        }
        trace_am335x_musb_gadget_token(s->instance, 0, USB_TOKEN_IN, n);
        musb_raise_ep(s, 0, false);
        return n;
    }
    if (e->txcsr & TXCSR_P_SENDSTALL) {
        return musb_gadget_stall(s, epn, true);
    }
    if (!(e->txcsr & TXCSR_TXPKTRDY) || e->tx.done_ns) {
        return USB_RET_NAK;
    }
    /* A load of several max-packets (bulk split) goes one per IN */
    n = MIN(e->tx.len - e->tx.sent, max);
    memcpy(buf, e->tx.fifo + e->tx.sent, n);
    e->tx.sent += n;
    e->tx.toggle ^= 1;
    trace_am335x_musb_gadget_token(s->instance, epn, USB_TOKEN_IN, n);
    if (s->timing) {
        /* The FIFO empties as the packet crosses the wire */
        e->tx.done_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                        musb_wire_ns(s, epn, false, n);
        musb_retry_rearm(s);
        return n;
    }
    musb_gadget_transfer_done(s, epn, false);
    return n;
}

static int musb_gadget_out(void *opaque, uint8_t addr, int epn,
                           const uint8_t *buf, int len)
{
    AM335xMusbState *s = opaque;
    AM335xMusbEndpoint *e;
    uint32_t cap;

    if (!musb_gadget_addressed(s, addr, epn)) {
        return USB_RET_NODEV;
    }
    e = &s->ep[epn];
    if (epn == 0) {
        if (e->txcsr & CSR0_P_SENDSTALL) {
            return musb_gadget_stall(s, 0, false);
        }
        if (e->txcsr & CSR0_RXPKTRDY) {
            return USB_RET_NAK;
        }
        if (len == 0) {
            /* The status stage of an IN transfer: early if no DATAEND */
            if (!(e->txcsr & CSR0_P_DATAEND)) {
                e->txcsr |= CSR0_P_SETUPEND;
            }
            e->txcsr &= ~(CSR0_P_DATAEND | CSR0_TXPKTRDY);
            e->tx.len = 0;
        } else {
            len = MIN(len, EP0_FIFO_SIZE);
            memcpy(e->rx.fifo, buf, len);
            e->rx.len = len;
            e->rx.pos = 0;
            e->txcsr |= CSR0_RXPKTRDY;
        }
        trace_am335x_musb_gadget_token(s->instance, 0, USB_TOKEN_OUT, len);
        musb_raise_ep(s, 0, false);
        return USB_RET_SUCCESS;
    }
    if (e->rxcsr & RXCSR_P_SENDSTALL) {
        return musb_gadget_stall(s, epn, false);
    }
    if ((e->rxcsr & RXCSR_RXPKTRDY) || e->rx.pending || e->rx.done_ns) {
        return USB_RET_NAK;
    }
    cap = musb_fifo_size(s, epn, true);
    if (len > cap) {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-musb%u: EP%d RX FIFO of %u "
                      "bytes, packet of %d: truncated\n", s->instance, epn,
                      cap, len);
        len = cap;
    }
    memcpy(e->rx.fifo, buf, len);
    e->rx.len = len;
    e->rx.pos = 0;
    e->rx.toggle ^= 1;
    trace_am335x_musb_gadget_token(s->instance, epn, USB_TOKEN_OUT, len);
    if (s->timing) {
        /* The packet is in the FIFO once it has crossed the wire */
        e->rx.done_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                        musb_wire_ns(s, epn, false, len);
        musb_retry_rearm(s);
        return USB_RET_SUCCESS;
    }
    musb_gadget_transfer_done(s, epn, true);
    return USB_RET_SUCCESS;
}

/*
 * A bulk or interrupt packet has crossed the wire: an IN packet has left
 * the TX FIFO (the rest of a bulk split load goes with the next IN), an
 * OUT packet is in the RX FIFO.
 */
static void musb_gadget_transfer_done(AM335xMusbState *s, int epn, bool rx)
{
    AM335xMusbEndpoint *e = &s->ep[epn];

    if (epn == 0) {
        return;
    }
    if (rx) {
        if (!musb_gadget_on(s) || (e->rxcsr & RXCSR_RXPKTRDY)) {
            return;
        }
        e->rx.pending = true;       /* the DMA has not taken it */
        e->rxcsr |= RXCSR_RXPKTRDY;
        if (e->rx.len >= musb_fifo_size(s, epn, true)) {
            e->rxcsr |= RXCSR_FIFOFULL;
        }
        if (e->rxcsr & RXCSR_DMAENAB) {
            musb_dma_kick(s);
        } else {
            musb_raise_ep(s, epn, true);
        }
        return;
    }
    if (!(e->txcsr & TXCSR_TXPKTRDY)) {
        return;                     /* flushed meanwhile */
    }
    if (e->tx.sent < e->tx.len) {
        musb_gadget_kick(s);
        return;
    }
    e->tx.len = e->tx.sent = 0;
    e->txcsr &= ~TXCSR_TXPKTRDY;
    if (!((e->txcsr & TXCSR_DMAENAB) && (e->txcsr & TXCSR_DMAMODE))) {
        musb_raise_ep(s, epn, false);
    }
    if (e->txcsr & TXCSR_DMAENAB) {
        musb_dma_kick(s);
    }
    musb_gadget_kick(s);
}

static const USBGadgetPortOps musb_gadget_port_ops = {
    .bus_reset = musb_gadget_bus_reset,
    .setup = musb_gadget_setup,
    .in = musb_gadget_in,
    .out = musb_gadget_out,
};

/* CSR0 as the peripheral: the CPU's side of a control transfer */
static void musb_gadget_write_csr0(AM335xMusbState *s, uint16_t val)
{
    AM335xMusbEndpoint *e = &s->ep[0];

    if (val & CSR0_FLUSHFIFO) {
        e->tx.len = 0;
        e->rx.len = e->rx.pos = 0;
        e->txcsr &= ~(CSR0_TXPKTRDY | CSR0_RXPKTRDY);
    }
    if (val & CSR0_P_SVDRXPKTRDY) {
        e->txcsr &= ~CSR0_RXPKTRDY;
        e->rx.len = e->rx.pos = 0;
    }
    if (val & CSR0_P_SVDSETUPEND) {
        e->txcsr &= ~CSR0_P_SETUPEND;
    }
    if (!(val & CSR0_P_SENTSTALL)) {
        e->txcsr &= ~CSR0_P_SENTSTALL;
    }
    e->txcsr |= val & (CSR0_TXPKTRDY | CSR0_P_DATAEND | CSR0_P_SENDSTALL);
    musb_gadget_kick(s);
}

static void musb_gadget_write_txcsr(AM335xMusbState *s, int epn,
                                    uint16_t val)
{
    AM335xMusbEndpoint *e = &s->ep[epn];
    uint16_t old = e->txcsr;

    if (val & TXCSR_FLUSHFIFO) {
        e->tx.len = e->tx.sent = 0;
        e->tx.done_ns = 0;
        val &= ~TXCSR_TXPKTRDY;
        old &= ~TXCSR_TXPKTRDY;
    }
    if (val & TXCSR_CLRDATATOG) {
        e->tx.toggle = false;
    }
    e->txcsr = (old & TXCSR_W0C & val) |
               (val & (TXCSR_RW | TXCSR_P_SENDSTALL)) |
               ((old | val) & TXCSR_TXPKTRDY);
    if ((e->txcsr & TXCSR_DMAENAB) && !(old & TXCSR_DMAENAB)) {
        musb_dma_kick(s);
    }
    musb_gadget_kick(s);
}

static void musb_gadget_rx_unloaded(AM335xMusbState *s, int epn)
{
    AM335xMusbEndpoint *e = &s->ep[epn];

    e->rx.len = e->rx.pos = 0;
    e->rx.pending = false;
    e->rxcsr &= ~(RXCSR_RXPKTRDY | RXCSR_FIFOFULL);
    musb_gadget_kick(s);
}

static void musb_gadget_write_rxcsr(AM335xMusbState *s, int epn,
                                    uint16_t val)
{
    AM335xMusbEndpoint *e = &s->ep[epn];
    uint16_t old = e->rxcsr;

    if (val & RXCSR_FLUSHFIFO) {
        e->rx.len = e->rx.pos = 0;
        e->rx.pending = false;
        e->rx.done_ns = 0;
        old &= ~(RXCSR_RXPKTRDY | RXCSR_FIFOFULL);
    }
    if (val & RXCSR_CLRDATATOG) {
        e->rx.toggle = false;
    }
    e->rxcsr = (old & RXCSR_P_W0C & val) |
               (val & (RXCSR_RW | RXCSR_P_SENDSTALL)) |
               (old & RXCSR_FIFOFULL);
    if ((old & RXCSR_RXPKTRDY) && !(e->rxcsr & RXCSR_RXPKTRDY)) {
        musb_gadget_rx_unloaded(s, epn);
    }
    if ((e->rxcsr & RXCSR_DMAENAB) && e->rx.pending) {
        musb_dma_kick(s);
    }
    musb_gadget_kick(s);
}

/* POWER: a port reset resets the device; HSMODE says it runs at 480 Mb/s */
static void musb_write_power(AM335xMusbState *s, uint8_t val)
{
    bool reset = (val & POWER_RESET) && !(s->power & POWER_RESET);

    s->power = (s->power & POWER_HSMODE) | (val & POWER_WRITABLE);
    musb_gadget_update(s);
    if (reset && s->connected) {
        musb_abort_all(s);
        usb_device_reset(s->port.dev);
        s->power &= ~POWER_HSMODE;
        if ((s->power & POWER_HSENAB) &&
            s->port.dev->speed == USB_SPEED_HIGH) {
            s->power |= POWER_HSMODE;
        }
        trace_am335x_musb_port_reset(s->instance, s->power, s->port.dev->speed);
    }
}

static void musb_write_devctl(AM335xMusbState *s, uint8_t val)
{
    s->devctl = (s->devctl & ~(DEVCTL_SESSION | DEVCTL_HR)) |
                (val & (DEVCTL_SESSION | DEVCTL_HR));
    musb_update_session(s);
}

static void musb_write_csr0(AM335xMusbState *s, uint16_t val)
{
    AM335xMusbEndpoint *e = &s->ep[0];
    uint16_t old = e->txcsr;

    if (val & CSR0_FLUSHFIFO) {
        musb_pipe_cancel(&e->tx);
        musb_pipe_cancel(&e->rx);
        e->tx.len = 0;
        e->rx.len = 0;
        e->rx.pos = 0;
        e->txcsr &= ~(CSR0_TXPKTRDY | CSR0_RXPKTRDY);
        musb_retry_rearm(s);
        return;
    }
    e->txcsr = (old & CSR0_W0C & val) | (val & CSR0_RW);
    if ((old & CSR0_RXPKTRDY) && !(e->txcsr & CSR0_RXPKTRDY)) {
        e->rx.len = 0;
        e->rx.pos = 0;
    }
    /* Clearing a request takes its retrying transaction off the bus */
    if ((old & CSR0_TXPKTRDY) && !(val & CSR0_TXPKTRDY)) {
        musb_pipe_cancel(&e->tx);
    }
    if ((old & CSR0_REQPKT) && !(val & CSR0_REQPKT)) {
        musb_pipe_cancel(&e->rx);
    }
    if ((val & CSR0_TXPKTRDY) && !(old & CSR0_TXPKTRDY)) {
        musb_pipe_start(s, 0, false);
    } else if ((val & CSR0_REQPKT) && !(old & CSR0_REQPKT)) {
        musb_pipe_start(s, 0, true);
    }
    musb_retry_rearm(s);
}

static void musb_write_txcsr(AM335xMusbState *s, int epn, uint16_t val)
{
    AM335xMusbEndpoint *e = &s->ep[epn];
    uint16_t old = e->txcsr;

    if (val & TXCSR_FLUSHFIFO) {
        musb_pipe_cancel(&e->tx);
        e->tx.len = 0;
        e->tx.sent = 0;
        val &= ~TXCSR_TXPKTRDY;
        old &= ~TXCSR_TXPKTRDY;
    }
    if (val & TXCSR_CLRDATATOG) {
        e->tx.toggle = false;
    }
    if (val & TXCSR_WR_DATATOGGLE) {
        e->tx.toggle = !!(val & TXCSR_DATATOGGLE);
    }
    e->txcsr = (old & TXCSR_W0C & val) | (val & TXCSR_RW) |
               (old & TXCSR_TXPKTRDY);
    if ((old & TXCSR_NAKTIMEOUT) && !(e->txcsr & TXCSR_NAKTIMEOUT) &&
        (e->txcsr & TXCSR_TXPKTRDY)) {
        /* The halted endpoint starts again */
        musb_pipe_start(s, epn, false);
    }
    if ((val & TXCSR_TXPKTRDY) && !(old & TXCSR_TXPKTRDY)) {
        e->txcsr |= TXCSR_TXPKTRDY;
        musb_pipe_start(s, epn, false);
    }
    if ((e->txcsr & TXCSR_DMAENAB) && !(old & TXCSR_DMAENAB)) {
        musb_dma_kick(s);
    }
    musb_retry_rearm(s);
}

static void musb_rx_unloaded(AM335xMusbState *s, int epn)
{
    AM335xMusbEndpoint *e = &s->ep[epn];

    e->rx.len = 0;
    e->rx.pos = 0;
    e->rxcsr &= ~(RXCSR_RXPKTRDY | RXCSR_FIFOFULL);
    if (e->rxcsr & RXCSR_AUTOREQ) {
        e->rxcsr |= RXCSR_REQPKT;
        musb_pipe_start(s, epn, true);
    }
}

static void musb_write_rxcsr(AM335xMusbState *s, int epn, uint16_t val)
{
    AM335xMusbEndpoint *e = &s->ep[epn];
    uint16_t old = e->rxcsr;

    if (val & RXCSR_FLUSHFIFO) {
        e->rx.len = 0;
        e->rx.pos = 0;
        old &= ~(RXCSR_RXPKTRDY | RXCSR_FIFOFULL);
    }
    if (val & RXCSR_CLRDATATOG) {
        e->rx.toggle = false;
    }
    if (val & RXCSR_WR_DATATOGGLE) {
        e->rx.toggle = !!(val & RXCSR_DATATOGGLE);
    }
    e->rxcsr = (old & RXCSR_W0C & val) | (val & RXCSR_RW) |
               (val & RXCSR_REQPKT) | (old & RXCSR_FIFOFULL);
    if ((old & RXCSR_REQPKT) && !(val & RXCSR_REQPKT)) {
        musb_pipe_cancel(&e->rx);
    }
    if ((old & RXCSR_RXPKTRDY) && !(e->rxcsr & RXCSR_RXPKTRDY)) {
        musb_rx_unloaded(s, epn);
    }
    if ((e->rxcsr & RXCSR_REQPKT) && !(e->rxcsr & RXCSR_RXPKTRDY) &&
        !(e->rxcsr & (RXCSR_DATAERROR | RXCSR_RXSTALL | RXCSR_ERROR))) {
        musb_pipe_start(s, epn, true);
    }
    if ((e->rxcsr & RXCSR_DMAENAB) && (e->rxcsr & RXCSR_RXPKTRDY)) {
        musb_dma_kick(s);
    }
    musb_retry_rearm(s);
}

/* The FIFOs: each access moves as many bytes as it is wide */
static uint32_t musb_fifo_read(AM335xMusbState *s, int epn, unsigned size)
{
    AM335xMusbPipe *p = &s->ep[epn].rx;
    uint32_t val = 0;

    for (unsigned i = 0; i < size; i++) {
        if (p->pos < p->len) {
            val |= (uint32_t)p->fifo[p->pos++] << (8 * i);
        }
    }
    return val;
}

static void musb_fifo_write(AM335xMusbState *s, int epn, uint32_t val,
                            unsigned size)
{
    AM335xMusbPipe *p = &s->ep[epn].tx;
    uint32_t cap = musb_fifo_size(s, epn, false);

    for (unsigned i = 0; i < size; i++) {
        if (p->len >= cap) {
            qemu_log_mask(LOG_GUEST_ERROR,
                          "am335x-musb%u: EP%d TX FIFO overflow (%u bytes)\n",
                          s->instance, epn, cap);
            return;
        }
        p->fifo[p->len++] = val >> (8 * i);
    }
}

static uint32_t musb_ep_read(AM335xMusbState *s, int epn, hwaddr off)
{
    AM335xMusbEndpoint *e = &s->ep[epn];
    /* The data toggle bits are the host's; a peripheral reads 0 there */
    bool host = musb_is_a_device(s);

    switch (off) {
    case E_TXMAXP:
        return e->txmaxp;
    case E_TXCSR:
        if (epn == 0) {
            return e->txcsr;
        }
        return e->txcsr | (host && e->tx.toggle ? TXCSR_DATATOGGLE : 0) |
               (e->tx.len || (e->txcsr & TXCSR_TXPKTRDY) ?
                TXCSR_FIFONOTEMPTY : 0);
    case E_RXMAXP:
        return e->rxmaxp;
    case E_RXCSR:
        return epn ? e->rxcsr |
                     (host && e->rx.toggle ? RXCSR_DATATOGGLE : 0) : 0;
    case E_RXCOUNT:
        return (e->rxcsr & RXCSR_RXPKTRDY) || (epn == 0 &&
               (e->txcsr & CSR0_RXPKTRDY)) ? e->rx.len - e->rx.pos : 0;
    case E_TXTYPE:
        return e->txtype;
    case E_TXINTERVAL:
        return e->txinterval;
    case E_RXTYPE:
        return epn ? e->rxtype : 0;
    case E_RXINTERVAL:
        return epn ? e->rxinterval : 0;
    case E_CONFIGDATA:
        /* EP0's is CONFIGDATA; the others' FIFOSIZE (dynamic: 0) */
        return epn ? 0 : CONFIGDATA_VALUE;
    default:
        return 0;
    }
}

static void musb_ep_write(AM335xMusbState *s, int epn, hwaddr off,
                          uint32_t val)
{
    AM335xMusbEndpoint *e = &s->ep[epn];

    switch (off) {
    case E_TXMAXP:
        e->txmaxp = val;
        break;
    case E_TXCSR:
        if (!musb_is_a_device(s)) {
            if (epn == 0) {
                musb_gadget_write_csr0(s, val);
            } else {
                musb_gadget_write_txcsr(s, epn, val);
            }
        } else if (epn == 0) {
            musb_write_csr0(s, val);
        } else {
            musb_write_txcsr(s, epn, val);
        }
        break;
    case E_RXMAXP:
        e->rxmaxp = val;
        break;
    case E_RXCSR:
        if (epn && !musb_is_a_device(s)) {
            musb_gadget_write_rxcsr(s, epn, val);
        } else if (epn) {
            musb_write_rxcsr(s, epn, val);
        }
        break;
    case E_TXTYPE:
        e->txtype = val;
        break;
    case E_TXINTERVAL:
        e->txinterval = val;
        break;
    case E_RXTYPE:
        e->rxtype = val;
        break;
    case E_RXINTERVAL:
        e->rxinterval = val;
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR,
                      "am335x-musb%u: write to read-only EP%d register "
                      "0x%" HWADDR_PRIx "\n", s->instance, epn, off);
        break;
    }
}

/*
 * The core's registers are 8 or 16 bits wide: an access touches each
 * register it covers (a narrower one merges with the register's value).
 */
static unsigned musb_core_reg_width(hwaddr off)
{
    switch (off) {
    case C_INTRTX:
    case C_INTRRX:
    case C_INTRTXE:
    case C_INTRRXE:
    case C_FRAME:
    case C_TXFIFOADD:
    case C_RXFIFOADD:
    case C_HWVERS:
        return 2;
    }
    if (off >= C_EP_WINDOW && off < C_FIFO0) {
        return (off & 0xf) < E_TXTYPE ? 2 : 1;
    }
    if (off >= C_FLAT_EP && off < C_FLAT_EP_END) {
        return (off & 0xf) < E_TXTYPE ? 2 : 1;
    }
    return 1;
}

static uint32_t musb_core_reg_read(AM335xMusbState *s, hwaddr off)
{
    int epn = s->index & 0xf;

    if (off >= C_EP_WINDOW && off < C_FIFO0) {
        return musb_ep_read(s, epn, off - C_EP_WINDOW);
    }
    if (off >= C_FLAT_EP && off < C_FLAT_EP_END) {
        return musb_ep_read(s, (off - C_FLAT_EP) >> 4, off & 0xf);
    }
    if (off >= C_BUSCTL && off < C_FLAT_EP) {
        AM335xMusbEndpoint *e = &s->ep[(off - C_BUSCTL) >> 3];

        switch (off & 7) {
        case 0:
            return e->txfuncaddr;
        case 2:
            return e->txhubaddr;
        case 3:
            return e->txhubport;
        case 4:
            return e->rxfuncaddr;
        case 6:
            return e->rxhubaddr;
        case 7:
            return e->rxhubport;
        }
        return 0;
    }
    if (off >= C_ULPI && off < C_EPINFO) {
        return s->ulpi[off - C_ULPI];
    }

    switch (off) {
    case C_FADDR:
        return s->faddr;
    case C_POWER:
        return s->power;
    case C_INTRTX:
    case C_INTRRX:
    case C_INTRUSB:
        /* The wrapper read them already (USBnCTRL.UINT = 0) */
        return 0;
    case C_INTRTXE:
        return s->intrtxe;
    case C_INTRRXE:
        return s->intrrxe;
    case C_INTRUSBE:
        return s->intrusbe;
    case C_FRAME:
        if (!s->connected) {
            return 0;
        }
        return (qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) / FS_FRAME_NS) & 0x7ff;
    case C_INDEX:
        return s->index;
    case C_TESTMODE:
        return s->testmode;
    case C_DEVCTL:
        return s->devctl;
    case C_MISC:
        return s->misc;
    case C_TXFIFOSZ:
        return s->ep[epn].txfifosz;
    case C_RXFIFOSZ:
        return s->ep[epn].rxfifosz;
    case C_TXFIFOADD:
        return s->ep[epn].txfifoadd;
    case C_RXFIFOADD:
        return s->ep[epn].rxfifoadd;
    case C_HWVERS:
        return HWVERS_VALUE;
    case C_EPINFO:
        return EPINFO_VALUE;
    case C_RAMINFO:
        return RAMINFO_VALUE;
    case C_LINKINFO:
    case C_VPLEN:
    case C_HS_EOF1:
    case C_FS_EOF1:
    case C_LS_EOF1:
    case C_SOFT_RST:
        return 0;
    }
    qemu_log_mask(LOG_UNIMP, "am335x-musb%u: core register 0x%" HWADDR_PRIx
                  " not modelled\n", s->instance, off);
    return 0;
}

static void musb_core_reg_write(AM335xMusbState *s, hwaddr off, uint32_t val)
{
    int epn = s->index & 0xf;

    if (off >= C_EP_WINDOW && off < C_FIFO0) {
        musb_ep_write(s, epn, off - C_EP_WINDOW, val);
        return;
    }
    if (off >= C_FLAT_EP && off < C_FLAT_EP_END) {
        musb_ep_write(s, (off - C_FLAT_EP) >> 4, off & 0xf, val);
        return;
    }
    if (off >= C_BUSCTL && off < C_FLAT_EP) {
        AM335xMusbEndpoint *e = &s->ep[(off - C_BUSCTL) >> 3];

        switch (off & 7) {
        case 0:
            e->txfuncaddr = val & 0x7f;
            break;
        case 2:
            e->txhubaddr = val;
            break;
        case 3:
            e->txhubport = val & 0x7f;
            break;
        case 4:
            e->rxfuncaddr = val & 0x7f;
            break;
        case 6:
            e->rxhubaddr = val;
            break;
        case 7:
            e->rxhubport = val & 0x7f;
            break;
        }
        return;
    }
    if (off >= C_ULPI && off < C_EPINFO) {
        s->ulpi[off - C_ULPI] = val;
        return;
    }

    switch (off) {
    case C_FADDR:
        s->faddr = val & 0x7f;
        musb_gadget_kick(s);
        break;
    case C_POWER:
        musb_write_power(s, val);
        break;
    case C_INTRTXE:
        s->intrtxe = val;
        break;
    case C_INTRRXE:
        s->intrrxe = val & 0xfffe;
        break;
    case C_INTRUSBE:
        s->intrusbe = val;
        break;
    case C_INDEX:
        s->index = val & 0xf;
        break;
    case C_TESTMODE:
        s->testmode = val;
        break;
    case C_DEVCTL:
        musb_write_devctl(s, val);
        break;
    case C_MISC:
        s->misc = val;
        break;
    case C_TXFIFOSZ:
        s->ep[epn].txfifosz = val & 0x1f;
        break;
    case C_RXFIFOSZ:
        s->ep[epn].rxfifosz = val & 0x1f;
        break;
    case C_TXFIFOADD:
        s->ep[epn].txfifoadd = val & 0x1fff;
        break;
    case C_RXFIFOADD:
        s->ep[epn].rxfifoadd = val & 0x1fff;
        break;
    case C_INTRTX:
    case C_INTRRX:
    case C_INTRUSB:
    case C_FRAME:
    case C_HWVERS:
    case C_EPINFO:
    case C_RAMINFO:
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-musb%u: write to read-only "
                      "register 0x%" HWADDR_PRIx "\n", s->instance, off);
        break;
    default:
        qemu_log_mask(LOG_UNIMP, "am335x-musb%u: core register 0x%"
                      HWADDR_PRIx " not modelled\n", s->instance, off);
        break;
    }
}

static uint32_t musb_core_read(AM335xMusbState *s, hwaddr off, unsigned size)
{
    uint32_t val = 0;
    hwaddr start = off;
    hwaddr end = off + size;

    if (off >= C_FIFO0 && off < C_FIFO_END) {
        return musb_fifo_read(s, (off - C_FIFO0) >> 2, size);
    }
    while (off < end) {
        unsigned width = musb_core_reg_width(off & ~1);
        hwaddr base = width == 2 ? off & ~1 : off;
        uint32_t reg = musb_core_reg_read(s, base);

        for (hwaddr b = off; b < base + width && b < end; b++) {
            val |= ((reg >> (8 * (b - base))) & 0xff) << (8 * (b - start));
        }
        off = base + width;
    }
    return val;
}

static void musb_core_write(AM335xMusbState *s, hwaddr off, uint32_t val,
                            unsigned size)
{
    hwaddr start = off;
    hwaddr end = off + size;

    if (off >= C_FIFO0 && off < C_FIFO_END) {
        musb_fifo_write(s, (off - C_FIFO0) >> 2, val, size);
        return;
    }
    while (off < end) {
        unsigned width = musb_core_reg_width(off & ~1);
        hwaddr base = width == 2 ? off & ~1 : off;
        uint32_t reg = 0;

        if (base < start || base + width > end) {
            /* A byte of a 16-bit register: merge with the other byte */
            reg = musb_core_reg_read(s, base);
        }
        for (hwaddr b = MAX(base, start); b < base + width && b < end; b++) {
            uint32_t byte = (val >> (8 * (b - start))) & 0xff;

            reg &= ~(0xffu << (8 * (b - base)));
            reg |= byte << (8 * (b - base));
        }
        musb_core_reg_write(s, base, reg);
        off = base + width;
    }
}

static void musb_soft_reset(AM335xMusbState *s);

static uint64_t musb_read(void *opaque, hwaddr addr, unsigned size)
{
    AM335xMusbState *s = opaque;
    uint32_t val = 0;

    if (addr >= CORE_BASE) {
        val = musb_core_read(s, addr - CORE_BASE, size);
        trace_am335x_musb_core_read(s->instance, addr - CORE_BASE, val, size);
        return val;
    }
    if (addr >= PHY_BASE) {
        qemu_log_mask(LOG_UNIMP, "am335x-musb%u: PHY register 0x%"
                      HWADDR_PRIx " not modelled\n", s->instance, addr);
        return 0;
    }

    switch (addr & ~3) {
    case W_REV:
        val = USB_REV_VALUE;
        break;
    case W_CTRL:
        val = s->ctrl;
        break;
    case W_STAT:
        val = s->drvvbus ? STAT_DRVVBUS : 0;
        break;
    case W_IRQMSTAT:
        val = ((s->irq_raw[0] & s->irq_enable[0]) ? 1 : 0) |
              ((s->irq_raw[1] & s->irq_enable[1]) ? 2 : 0);
        break;
    case W_IRQEOI:
        val = 0;
        break;
    case W_IRQSTATRAW0:
    case W_IRQSTATRAW1:
        val = s->irq_raw[(addr - W_IRQSTATRAW0) >> 2];
        break;
    case W_IRQSTAT0:
    case W_IRQSTAT1:
        val = s->irq_raw[(addr - W_IRQSTAT0) >> 2] &
              s->irq_enable[(addr - W_IRQSTAT0) >> 2];
        break;
    case W_IRQENABLESET0:
    case W_IRQENABLESET1:
        val = s->irq_enable[(addr - W_IRQENABLESET0) >> 2];
        break;
    case W_IRQENABLECLR0:
    case W_IRQENABLECLR1:
        val = s->irq_enable[(addr - W_IRQENABLECLR0) >> 2];
        break;
    case W_TXMODE:
        val = s->tx_mode;
        break;
    case W_RXMODE:
        val = s->rx_mode;
        break;
    case W_GENRNDISEP1 ... W_GENRNDISEP15:
        val = s->genrndis[(addr - W_GENRNDISEP1) >> 2];
        break;
    case W_AUTOREQ:
        val = s->autoreq;
        break;
    case W_SRPFIXTIME:
        val = s->srpfixtime;
        break;
    case W_TDOWN:
        val = 0;
        break;
    case W_UTMI:
        val = s->utmi;
        break;
    case W_MGCUTMILB:
        val = 0;
        break;
    case W_MODE:
        val = s->mode;
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-musb%u: read of reserved "
                      "wrapper offset 0x%" HWADDR_PRIx "\n", s->instance,
                      addr);
        break;
    }
    trace_am335x_musb_wrapper_read(s->instance, addr, val);
    return val;
}

static void musb_write(void *opaque, hwaddr addr, uint64_t val64,
                       unsigned size)
{
    AM335xMusbState *s = opaque;
    uint32_t val = val64;

    if (addr >= CORE_BASE) {
        trace_am335x_musb_core_write(s->instance, addr - CORE_BASE, val, size);
        musb_core_write(s, addr - CORE_BASE, val, size);
        return;
    }
    if (addr >= PHY_BASE) {
        qemu_log_mask(LOG_UNIMP, "am335x-musb%u: PHY register 0x%"
                      HWADDR_PRIx " not modelled\n", s->instance, addr);
        return;
    }

    trace_am335x_musb_wrapper_write(s->instance, addr, val);
    switch (addr & ~3) {
    case W_CTRL:
        s->ctrl = val & ~CTRL_SOFT_RESET;
        if (val & CTRL_SOFT_RESET) {
            musb_soft_reset(s);
        }
        break;
    case W_IRQEOI:
        break;
    case W_IRQSTATRAW0:
        s->irq_raw[0] |= val & IRQ0_MASK;
        break;
    case W_IRQSTATRAW1:
        s->irq_raw[1] |= val & IRQ1_MASK;
        break;
    case W_IRQSTAT0:
    case W_IRQSTAT1:
        s->irq_raw[(addr - W_IRQSTAT0) >> 2] &= ~val;
        break;
    case W_IRQENABLESET0:
        s->irq_enable[0] |= val & IRQ0_MASK;
        break;
    case W_IRQENABLESET1:
        s->irq_enable[1] |= val & IRQ1_MASK;
        break;
    case W_IRQENABLECLR0:
    case W_IRQENABLECLR1:
        s->irq_enable[(addr - W_IRQENABLECLR0) >> 2] &= ~val;
        break;
    case W_TXMODE:
        s->tx_mode = val;
        break;
    case W_RXMODE:
        s->rx_mode = val;
        break;
    case W_GENRNDISEP1 ... W_GENRNDISEP15:
        s->genrndis[(addr - W_GENRNDISEP1) >> 2] = val & 0x1ffff;
        break;
    case W_AUTOREQ:
        s->autoreq = val & 0x3fffffff;
        break;
    case W_SRPFIXTIME:
        s->srpfixtime = val;
        break;
    case W_TDOWN:
        /* The CPPI 4.1 channel's teardown does the work */
        break;
    case W_UTMI:
        s->utmi = val;
        break;
    case W_MODE:
        s->mode = val & (MODE_IDDIG | MODE_IDDIG_MUX);
        musb_update_session(s);
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-musb%u: write to %s "
                      "wrapper offset 0x%" HWADDR_PRIx "\n", s->instance,
                      addr == W_REV || addr == W_STAT || addr == W_IRQMSTAT ?
                      "read-only" : "reserved", addr);
        break;
    }
    musb_update_irq(s);
}

static const MemoryRegionOps musb_ops = {
    .read = musb_read,
    .write = musb_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 1,
        .max_access_size = 4,
    },
};

/* The DMA's view of an endpoint */
bool am335x_musb_dma_tx_free(AM335xMusbState *s, int ep,
                             uint32_t *packet_size)
{
    AM335xMusbEndpoint *e;
    uint32_t maxp;

    if (ep < 1 || ep >= AM335X_MUSB_NUM_EPS) {
        return false;
    }
    e = &s->ep[ep];
    if (!(e->txcsr & TXCSR_DMAENAB) || (e->txcsr & TXCSR_TXPKTRDY) ||
        e->tx.pending || e->tx.async ||
        (e->txcsr & (TXCSR_ERROR | TXCSR_RXSTALL | TXCSR_NAKTIMEOUT))) {
        return false;
    }
    /* One FIFO load: max-packet times the bulk-split multiplier */
    maxp = MAXP_PAYLOAD(e->txmaxp) * MAXP_MULT(e->txmaxp);
    *packet_size = MIN(MAX(maxp, 1), musb_fifo_size(s, ep, false));
    return true;
}

void am335x_musb_dma_tx_load(AM335xMusbState *s, int ep, const uint8_t *data,
                             uint32_t len)
{
    AM335xMusbEndpoint *e = &s->ep[ep];

    len = MIN(len, AM335X_MUSB_FIFO_MAX);
    memcpy(e->tx.fifo, data, len);
    e->tx.len = len;
    e->tx.sent = 0;
    e->txcsr |= TXCSR_TXPKTRDY;
    if (!musb_is_a_device(s)) {
        /* The PC takes it with its next IN */
        musb_gadget_kick(s);
        return;
    }
    musb_pipe_start(s, ep, false);
    musb_retry_rearm(s);
}

bool am335x_musb_dma_rx_ready(AM335xMusbState *s, int ep, uint32_t *len)
{
    AM335xMusbEndpoint *e;

    if (ep < 1 || ep >= AM335X_MUSB_NUM_EPS) {
        return false;
    }
    e = &s->ep[ep];
    if (!(e->rxcsr & RXCSR_DMAENAB) || !(e->rxcsr & RXCSR_RXPKTRDY)) {
        return false;
    }
    /* A peripheral's packet stays until the CPU clears RXPKTRDY */
    if (!musb_is_a_device(s) && !e->rx.pending) {
        return false;
    }
    *len = e->rx.len - e->rx.pos;
    return true;
}

void am335x_musb_dma_rx_take(AM335xMusbState *s, int ep, uint8_t *data,
                             uint32_t len)
{
    AM335xMusbEndpoint *e = &s->ep[ep];
    uint32_t autoreq = (s->autoreq >> (2 * (ep - 1))) & 3;
    bool full = e->rx.len >= MAXP_PAYLOAD(e->rxmaxp);

    len = MIN(len, e->rx.len - e->rx.pos);
    memcpy(data, e->rx.fifo + e->rx.pos, len);
    if (!musb_is_a_device(s)) {
        /* Unloaded; RXPKTRDY clears now only with AUTOCLEAR */
        e->rx.pos += len;
        e->rx.pending = false;
        if (e->rxcsr & RXCSR_AUTOCLEAR) {
            musb_gadget_rx_unloaded(s, ep);
        }
        return;
    }
    musb_rx_unloaded(s, ep);
    /* The wrapper's AUTOREQ asks for the next packet itself */
    if (autoreq == 3 || (autoreq == 1 && full)) {
        e->rxcsr |= RXCSR_REQPKT;
        musb_pipe_start(s, ep, true);
    }
    musb_retry_rearm(s);
}

/* An empty FIFO, nothing on the bus, toggle DATA0 */
static void musb_pipe_reset(AM335xMusbPipe *p)
{
    musb_pipe_cancel(p);
    p->len = p->pos = p->sent = 0;
    p->toggle = false;
    p->nak_start_ns = 0;
}

static void musb_core_reset(AM335xMusbState *s)
{
    timer_del(&s->retry_timer);
    am335x_timing_reset(&s->bus);
    for (int i = 0; i < AM335X_MUSB_NUM_EPS; i++) {
        AM335xMusbEndpoint *e = &s->ep[i];

        memset(e, 0, offsetof(AM335xMusbEndpoint, tx));
        musb_pipe_reset(&e->tx);
        musb_pipe_reset(&e->rx);
    }
    s->faddr = 0;
    s->power = POWER_HSENAB;
    s->intrtxe = 0xffff;
    s->intrrxe = 0xfffe;
    s->intrusbe = 0x06;
    s->index = 0;
    s->testmode = 0;
    s->devctl = 0;
    s->misc = 0;
    memset(s->ulpi, 0, sizeof(s->ulpi));
    s->connected = false;
}

static void musb_wrapper_reset(AM335xMusbState *s)
{
    s->ctrl = 0;
    s->irq_raw[0] = s->irq_raw[1] = 0;
    s->irq_enable[0] = s->irq_enable[1] = 0;
    s->tx_mode = 0;
    s->rx_mode = 0;
    memset(s->genrndis, 0, sizeof(s->genrndis));
    s->autoreq = 0;
    s->srpfixtime = SRPFIXTIME_RESET;
    s->utmi = UTMI_RESET;
    s->mode = MODE_RESET;
    s->drvvbus = false;
}

/* The wrapper and the core, at once (both reset VBUS: no event stays) */
static void musb_reset_state(AM335xMusbState *s)
{
    musb_core_reset(s);
    musb_wrapper_reset(s);
    musb_update_session(s);
    s->irq_raw[1] = 0;
}

/* USBnCTRL.SOFT_RESET */
static void musb_soft_reset(AM335xMusbState *s)
{
    musb_reset_state(s);
    musb_update_irq(s);
}

static void musb_reset_hold(Object *obj, ResetType type)
{
    AM335xMusbState *s = AM335X_MUSB(obj);

    usb_gadget_host_reset(&s->gadget_host);
    musb_reset_state(s);
}

static void musb_reset_exit(Object *obj, ResetType type)
{
    musb_update_irq(AM335X_MUSB(obj));
}

static void musb_realize(DeviceState *dev, Error **errp)
{
    AM335xMusbState *s = AM335X_MUSB(dev);

    am335x_timing_init(&s->bus, 0, 0);
    usb_bus_new(&s->usb_bus, sizeof(s->usb_bus), &musb_bus_ops, dev);
    usb_register_port(&s->usb_bus, &s->port, s, 0, &musb_port_ops,
                      USB_SPEED_MASK_LOW | USB_SPEED_MASK_FULL |
                      USB_SPEED_MASK_HIGH);
    for (int i = 0; i < AM335X_MUSB_NUM_EPS; i++) {
        usb_packet_init(&s->ep[i].tx.packet);
        usb_packet_init(&s->ep[i].rx.packet);
    }
    s->gadget_host.storage_bytes = s->host_storage_bytes;
    usb_gadget_host_init(&s->gadget_host, &s->host_conf, &s->host_serial,
                         dev, &musb_gadget_port_ops, s);
    s->gadget_host.timing = s->timing;
}

static char *musb_get_host_storage_state(Object *obj, Error **errp)
{
    AM335xMusbState *s = AM335X_MUSB(obj);

    return g_strdup(usb_gadget_host_storage_state(&s->gadget_host));
}

static void musb_init(Object *obj)
{
    AM335xMusbState *s = AM335X_MUSB(obj);
    SysBusDevice *sbd = SYS_BUS_DEVICE(obj);

    /* The outcome of the PC's mass storage test (host-storage-bytes) */
    const struct {
        const char *name;
        uint64_t *value;
    } outcome[] = {
        { "host-storage-write-ns", &s->gadget_host.msc_write_ns },
        { "host-storage-read-ns", &s->gadget_host.msc_read_ns },
        { "host-storage-tested-bytes", &s->gadget_host.msc_tested_bytes },
        { "host-storage-bad-packets", &s->gadget_host.msc_bad_packets },
        { "host-storage-resets", &s->gadget_host.msc_resets },
    };

    object_property_add_str(obj, "host-storage-state",
                            musb_get_host_storage_state, NULL);
    for (int i = 0; i < ARRAY_SIZE(outcome); i++) {
        object_property_add_uint64_ptr(obj, outcome[i].name, outcome[i].value,
                                       OBJ_PROP_FLAG_READ);
    }
    memory_region_init_io(&s->iomem, obj, &musb_ops, s, TYPE_AM335X_MUSB,
                          AM335X_MUSB_MMIO_SIZE);
    sysbus_init_mmio(sbd, &s->iomem);
    sysbus_init_irq(sbd, &s->irq);
    timer_init_ns(&s->retry_timer, QEMU_CLOCK_VIRTUAL, musb_retry_timer_cb, s);
}

static int musb_post_load(void *opaque, int version_id)
{
    AM335xMusbState *s = opaque;

    for (int i = 0; i < AM335X_MUSB_NUM_EPS; i++) {
        AM335xMusbPipe *pipes[2] = { &s->ep[i].tx, &s->ep[i].rx };

        for (int j = 0; j < 2; j++) {
            AM335xMusbPipe *p = pipes[j];

            if (p->len > AM335X_MUSB_FIFO_MAX || p->pos > p->len) {
                return -EINVAL;
            }
            /* A packet that was on the bus goes again */
            if (p->async) {
                p->async = false;
                p->pending = true;
                p->retry_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
            }
        }
    }
    s->index &= 0xf;
    musb_retry_rearm(s);
    return 0;
}

static const VMStateDescription vmstate_musb_pipe = {
    .name = "am335x-musb-pipe",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT8_ARRAY(fifo, AM335xMusbPipe, AM335X_MUSB_FIFO_MAX),
        VMSTATE_UINT32(len, AM335xMusbPipe),
        VMSTATE_UINT32(pos, AM335xMusbPipe),
        VMSTATE_UINT32(sent, AM335xMusbPipe),
        VMSTATE_BOOL(toggle, AM335xMusbPipe),
        VMSTATE_BOOL(pending, AM335xMusbPipe),
        VMSTATE_INT64(retry_ns, AM335xMusbPipe),
        VMSTATE_INT64(nak_start_ns, AM335xMusbPipe),
        VMSTATE_BOOL(async, AM335xMusbPipe),
        VMSTATE_INT64(done_ns, AM335xMusbPipe),
        VMSTATE_INT32(done_status, AM335xMusbPipe),
        VMSTATE_UINT32(done_len, AM335xMusbPipe),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_musb_ep = {
    .name = "am335x-musb-ep",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT16(txmaxp, AM335xMusbEndpoint),
        VMSTATE_UINT16(txcsr, AM335xMusbEndpoint),
        VMSTATE_UINT16(rxmaxp, AM335xMusbEndpoint),
        VMSTATE_UINT16(rxcsr, AM335xMusbEndpoint),
        VMSTATE_UINT8(txtype, AM335xMusbEndpoint),
        VMSTATE_UINT8(txinterval, AM335xMusbEndpoint),
        VMSTATE_UINT8(rxtype, AM335xMusbEndpoint),
        VMSTATE_UINT8(rxinterval, AM335xMusbEndpoint),
        VMSTATE_UINT8(txfifosz, AM335xMusbEndpoint),
        VMSTATE_UINT8(rxfifosz, AM335xMusbEndpoint),
        VMSTATE_UINT16(txfifoadd, AM335xMusbEndpoint),
        VMSTATE_UINT16(rxfifoadd, AM335xMusbEndpoint),
        VMSTATE_UINT8(txfuncaddr, AM335xMusbEndpoint),
        VMSTATE_UINT8(txhubaddr, AM335xMusbEndpoint),
        VMSTATE_UINT8(txhubport, AM335xMusbEndpoint),
        VMSTATE_UINT8(rxfuncaddr, AM335xMusbEndpoint),
        VMSTATE_UINT8(rxhubaddr, AM335xMusbEndpoint),
        VMSTATE_UINT8(rxhubport, AM335xMusbEndpoint),
        VMSTATE_STRUCT(tx, AM335xMusbEndpoint, 1, vmstate_musb_pipe,
                       AM335xMusbPipe),
        VMSTATE_STRUCT(rx, AM335xMusbEndpoint, 1, vmstate_musb_pipe,
                       AM335xMusbPipe),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_am335x_musb = {
    .name = TYPE_AM335X_MUSB,
    .version_id = 2,
    .minimum_version_id = 2,
    .post_load = musb_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(ctrl, AM335xMusbState),
        VMSTATE_UINT32_ARRAY(irq_raw, AM335xMusbState, 2),
        VMSTATE_UINT32_ARRAY(irq_enable, AM335xMusbState, 2),
        VMSTATE_UINT32(tx_mode, AM335xMusbState),
        VMSTATE_UINT32(rx_mode, AM335xMusbState),
        VMSTATE_UINT32_ARRAY(genrndis, AM335xMusbState, 15),
        VMSTATE_UINT32(autoreq, AM335xMusbState),
        VMSTATE_UINT32(srpfixtime, AM335xMusbState),
        VMSTATE_UINT32(utmi, AM335xMusbState),
        VMSTATE_UINT32(mode, AM335xMusbState),
        VMSTATE_BOOL(drvvbus, AM335xMusbState),
        VMSTATE_UINT8(faddr, AM335xMusbState),
        VMSTATE_UINT8(power, AM335xMusbState),
        VMSTATE_UINT16(intrtxe, AM335xMusbState),
        VMSTATE_UINT16(intrrxe, AM335xMusbState),
        VMSTATE_UINT8(intrusbe, AM335xMusbState),
        VMSTATE_UINT8(index, AM335xMusbState),
        VMSTATE_UINT8(testmode, AM335xMusbState),
        VMSTATE_UINT8(devctl, AM335xMusbState),
        VMSTATE_UINT8(misc, AM335xMusbState),
        VMSTATE_UINT8_ARRAY(ulpi, AM335xMusbState, 8),
        VMSTATE_BOOL(connected, AM335xMusbState),
        VMSTATE_STRUCT_ARRAY(ep, AM335xMusbState, AM335X_MUSB_NUM_EPS, 1,
                             vmstate_musb_ep, AM335xMusbEndpoint),
        VMSTATE_TIMER(retry_timer, AM335xMusbState),
        VMSTATE_AM335X_TIMING(bus, AM335xMusbState),
        VMSTATE_STRUCT(gadget_host, AM335xMusbState, 2,
                       vmstate_usb_gadget_host, USBGadgetHost),
        VMSTATE_END_OF_LIST()
    }
};

static const Property musb_properties[] = {
    DEFINE_PROP_BOOL("timing", AM335xMusbState, timing, false),
    DEFINE_PROP_UINT32("instance", AM335xMusbState, instance, 0),
    DEFINE_PROP_BOOL("id-grounded", AM335xMusbState, id_grounded, false),
    DEFINE_PROP_LINK("dma", AM335xMusbState, dma, TYPE_AM335X_CPPI41,
                     AM335xCppi41State *),
    /* The netdev of the PC on the port, as the B-device sees it */
    DEFINE_NIC_PROPERTIES(AM335xMusbState, host_conf),
    /* The chardev of the PC's serial port (the gadget's CDC ACM) */
    DEFINE_PROP_CHR("host-serial", AM335xMusbState, host_serial),
    /*
     * Bytes of the gadget's mass storage disk the PC writes and reads
     * back, timed (0: the PC binds no mass storage function)
     */
    DEFINE_PROP_UINT64("host-storage-bytes", AM335xMusbState,
                       host_storage_bytes, 0),
};

static void musb_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->desc = "TI AM335x USB controller (MUSBMHDRC)";
    dc->realize = musb_realize;
    dc->vmsd = &vmstate_am335x_musb;
    rc->phases.hold = musb_reset_hold;
    rc->phases.exit = musb_reset_exit;
    device_class_set_props(dc, musb_properties);
    set_bit(DEVICE_CATEGORY_USB, dc->categories);
}

static const TypeInfo musb_info = {
    .name = TYPE_AM335X_MUSB,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AM335xMusbState),
    .instance_init = musb_init,
    .class_init = musb_class_init,
};

static void musb_register_types(void)
{
    type_register_static(&musb_info);
}

type_init(musb_register_types)
