/*
 * TI AM335x D_CAN controller (Bosch D_CAN)
 *
 * A CAN 2.0B controller with a message RAM of 64 message objects.  The CPU
 * never touches the message RAM directly: it fills one of two interface
 * register sets (IF1, IF2) and writes a message number and a command mask
 * to IFxCMD, which copies the chosen parts (mask, arbitration, control,
 * data) between the interface registers and the object.  An object with
 * MsgVal set is a receive object (Dir 0) or a transmit object (Dir 1).
 * The controller sends the lowest-numbered object with TxRqst set;
 * received frames go to the first receive object whose identifier (under
 * its mask, with UMask) matches, or, for a FIFO of objects chained by
 * EoB = 0, to the first one without NewDat.  Status and error changes and
 * objects with IntPnd are reported in INT (Int0ID, Int1ID) and on the two
 * interrupt lines, objects being routed by INTMUX.  Test mode gives
 * loopback and silent operation.
 *
 * Here the CAN bus is QEMU's can-bus object ("canbus" link, the machines'
 * canbus0/canbus1 properties), which any number of controllers and the
 * host's SocketCAN (can-host-socketcan) can join.  A frame is always
 * acknowledged: the error counters stay 0 and LEC reports no error.  A
 * controller on no bus sends into the void.  Without timing a frame takes
 * no time on the bus; with timing (the machine's timing=on) it takes its
 * bits, stuff bits included, at the bit rate BTR programs from CAN_CLK,
 * and reaches the bus and the receivers when it ends.  Arbitration against
 * other controllers' frames is not modelled: each controller's frames
 * follow each other, those of two controllers may overlap.
 *
 * Not modelled: bus errors and
 * the error states, parity (PERR), the IF3 automatic update and the DMA
 * requests, the message RAM's test and debug modes, automatic bus-on
 * (ABOTR is kept), local power-down beyond PDR -> PDA.
 *
 * Reference: AM335x Technical Reference Manual (SPRUH73), chapter 23.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/bswap.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qapi/error.h"
#include "hw/net/am335x_dcan.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "trace.h"

/* TRM table 23-15 */
REG32(CTL, 0x00)
    FIELD(CTL, INIT, 0, 1)
    FIELD(CTL, IE0, 1, 1)
    FIELD(CTL, SIE, 2, 1)
    FIELD(CTL, EIE, 3, 1)
    FIELD(CTL, CCE, 6, 1)
    FIELD(CTL, TEST, 7, 1)
    FIELD(CTL, SWR, 15, 1)
    FIELD(CTL, IE1, 17, 1)
    FIELD(CTL, PDR, 24, 1)
REG32(ES, 0x04)
    FIELD(ES, LEC, 0, 3)
    FIELD(ES, TXOK, 3, 1)
    FIELD(ES, RXOK, 4, 1)
    FIELD(ES, PER, 8, 1)
    FIELD(ES, WAKEUPPND, 9, 1)
    FIELD(ES, PDA, 10, 1)
REG32(ERRC, 0x08)
REG32(BTR, 0x0c)
REG32(INT, 0x10)
    FIELD(INT, INT0ID, 0, 16)
    FIELD(INT, INT1ID, 16, 8)
REG32(TEST, 0x14)
    FIELD(TEST, SILENT, 3, 1)
    FIELD(TEST, LBACK, 4, 1)
    FIELD(TEST, TX, 5, 2)
    FIELD(TEST, RX, 7, 1)
REG32(PERR, 0x1c)
REG32(REL, 0x20)
REG32(ABOTR, 0x80)
REG32(TXRQ_X, 0x84)
REG32(TXRQ12, 0x88)
REG32(TXRQ78, 0x94)
REG32(NWDAT_X, 0x98)
REG32(NWDAT12, 0x9c)
REG32(NWDAT78, 0xa8)
REG32(INTPND_X, 0xac)
REG32(INTPND12, 0xb0)
REG32(INTPND78, 0xbc)
REG32(MSGVAL_X, 0xc0)
REG32(MSGVAL12, 0xc4)
REG32(MSGVAL78, 0xd0)
REG32(INTMUX12, 0xd8)
REG32(INTMUX78, 0xe4)
/* IF1 at 0x100, IF2 at 0x120: the same layout */
REG32(IFCMD, 0x100)
    FIELD(IFCMD, MESSAGE_NUMBER, 0, 8)
    FIELD(IFCMD, DATAB, 16, 1)
    FIELD(IFCMD, DATAA, 17, 1)
    FIELD(IFCMD, TXRQST_NEWDAT, 18, 1)
    FIELD(IFCMD, CLRINTPND, 19, 1)
    FIELD(IFCMD, CONTROL, 20, 1)
    FIELD(IFCMD, ARB, 21, 1)
    FIELD(IFCMD, MASK, 22, 1)
    FIELD(IFCMD, WR_RD, 23, 1)
REG32(IFMSK, 0x104)
    FIELD(IFMSK, MSK, 0, 29)
    FIELD(IFMSK, MDIR, 30, 1)
    FIELD(IFMSK, MXTD, 31, 1)
REG32(IFARB, 0x108)
    FIELD(IFARB, ID, 0, 29)
    FIELD(IFARB, DIR, 29, 1)
    FIELD(IFARB, XTD, 30, 1)
    FIELD(IFARB, MSGVAL, 31, 1)
REG32(IFMCTL, 0x10c)
    FIELD(IFMCTL, DLC, 0, 4)
    FIELD(IFMCTL, EOB, 7, 1)
    FIELD(IFMCTL, TXRQST, 8, 1)
    FIELD(IFMCTL, RMTEN, 9, 1)
    FIELD(IFMCTL, RXIE, 10, 1)
    FIELD(IFMCTL, TXIE, 11, 1)
    FIELD(IFMCTL, UMASK, 12, 1)
    FIELD(IFMCTL, INTPND, 13, 1)
    FIELD(IFMCTL, MSGLST, 14, 1)
    FIELD(IFMCTL, NEWDAT, 15, 1)
REG32(IFDATA, 0x110)
REG32(IFDATB, 0x114)
REG32(IF3OBS, 0x140)
REG32(IF3DATB, 0x154)
REG32(IF3UPD12, 0x160)
REG32(IF3UPD34, 0x164)
REG32(TIOC, 0x1e0)
REG32(RIOC, 0x1e4)

#define IF_STRIDE               0x20

/* Reset values (TRM table 23-15): Init set, parity disabled (PMD 0x5) */
#define CTL_RESET               0x00001401
#define CTL_WRITABLE            0x011f3fef
#define ES_RESET                0x00000007
#define BTR_RESET               0x00002301
#define BTR_WRITABLE            0x000f7fff
#define TEST_WRITABLE           0x00000678
#define MSK_RESET               0xe0000000
#define MCTL_WRITABLE           0x0000ff8f

/* LEC values */
#define LEC_NO_ERROR            0
#define LEC_NO_EVENT            7

/* ARB's identifier field holds a standard identifier in bits 28:18 */
#define STD_ID_SHIFT            18

/* BTR (TRM table 23-20) */
#define BTR_BRP(v)              extract32(v, 0, 6)
#define BTR_TSEG1(v)            extract32(v, 8, 4)
#define BTR_TSEG2(v)            extract32(v, 12, 3)
#define BTR_BRPE(v)             extract32(v, 16, 4)

/* After the CRC: its delimiter, ACK slot and delimiter, EOF, intermission */
#define FRAME_TAIL_BITS         (1 + 1 + 1 + 7 + 3)

/* The value ti-sysc reads as the module's revision (its "dcan" quirk) */
#define AM335X_DCAN_REL         0x4edb1902

static bool am335x_dcan_initialising(AM335xDcanState *s)
{
    return FIELD_EX32(s->ctl, CTL, INIT);
}

/* Int0ID and Int1ID: the status interrupt first, then the lowest object */
static uint32_t am335x_dcan_int(AM335xDcanState *s)
{
    uint32_t int0 = s->status_int ? 0x8000 : 0;
    uint32_t int1 = 0;

    for (int n = 0; n < AM335X_DCAN_NUM_OBJECTS; n++) {
        if (!FIELD_EX32(s->obj[n].mctl, IFMCTL, INTPND)) {
            continue;
        }
        if (s->intmux[n / 32] & BIT(n % 32)) {
            int1 = int1 ? int1 : n + 1;
        } else {
            int0 = int0 ? int0 : n + 1;
        }
    }
    return FIELD_DP32(int0, INT, INT1ID, int1);
}

static void am335x_dcan_update_irq(AM335xDcanState *s)
{
    uint32_t value = am335x_dcan_int(s);
    bool line0 = FIELD_EX32(s->ctl, CTL, IE0) &&
                 FIELD_EX32(value, INT, INT0ID);
    bool line1 = FIELD_EX32(s->ctl, CTL, IE1) &&
                 FIELD_EX32(value, INT, INT1ID);

    trace_am335x_dcan_irq(value, line0, line1);
    qemu_set_irq(s->irq[0], line0);
    qemu_set_irq(s->irq[1], line1);
}

/* A frame went out or came in without error */
static void am335x_dcan_transfer_ok(AM335xDcanState *s, bool tx)
{
    s->es = FIELD_DP32(s->es, ES, LEC, LEC_NO_ERROR);
    if (tx) {
        s->es = FIELD_DP32(s->es, ES, TXOK, 1);
    } else {
        s->es = FIELD_DP32(s->es, ES, RXOK, 1);
    }
    if (FIELD_EX32(s->ctl, CTL, SIE)) {
        s->status_int = true;
    }
}

/* The object's identifier, in ARB's layout, and whether it is extended */
static uint32_t am335x_dcan_frame_id(const qemu_can_frame *frame, bool *xtd)
{
    *xtd = frame->can_id & QEMU_CAN_EFF_FLAG;
    if (*xtd) {
        return frame->can_id & QEMU_CAN_EFF_MASK;
    }
    return (frame->can_id & QEMU_CAN_SFF_MASK) << STD_ID_SHIFT;
}

/*
 * Acceptance filtering (TRM 23.3.14.8): the identifier, its Xtd bit and
 * the frame's direction (a remote frame is Dir 1), each under the object's
 * mask when UMask is set.
 */
static bool am335x_dcan_accepts(AM335xDcanObject *o, uint32_t id, bool xtd,
                                bool remote)
{
    uint32_t obj_id = FIELD_EX32(o->arb, IFARB, ID);
    bool obj_xtd = FIELD_EX32(o->arb, IFARB, XTD);
    bool obj_dir = FIELD_EX32(o->arb, IFARB, DIR);
    uint32_t msk;

    if (!FIELD_EX32(o->mctl, IFMCTL, UMASK)) {
        return xtd == obj_xtd && remote == obj_dir && id == obj_id;
    }
    if (FIELD_EX32(o->mask, IFMSK, MXTD) && xtd != obj_xtd) {
        return false;
    }
    if (FIELD_EX32(o->mask, IFMSK, MDIR) && remote != obj_dir) {
        return false;
    }
    if (!remote && obj_dir) {
        /* A transmit object never takes a data frame */
        return false;
    }
    msk = FIELD_EX32(o->mask, IFMSK, MSK);
    if (!xtd) {
        /* A standard frame is compared on the standard identifier bits */
        msk &= MAKE_64BIT_MASK(STD_ID_SHIFT, 11);
    }
    return ((id ^ obj_id) & msk) == 0;
}

static void am335x_dcan_store(AM335xDcanState *s, int n,
                              const qemu_can_frame *frame, uint32_t id,
                              bool xtd, bool remote)
{
    AM335xDcanObject *o = &s->obj[n];
    uint8_t len = MIN(frame->can_dlc, 8);

    trace_am335x_dcan_rx(DEVICE(s)->canonical_path, n + 1, frame->can_id,
                         len);
    if (FIELD_EX32(o->mctl, IFMCTL, NEWDAT)) {
        o->mctl = FIELD_DP32(o->mctl, IFMCTL, MSGLST, 1);
    }
    /* The object keeps the frame's arbitration field */
    o->arb = FIELD_DP32(o->arb, IFARB, ID, id);
    o->arb = FIELD_DP32(o->arb, IFARB, XTD, xtd);
    o->arb = FIELD_DP32(o->arb, IFARB, DIR, remote);
    o->mctl = FIELD_DP32(o->mctl, IFMCTL, DLC, len);
    o->mctl = FIELD_DP32(o->mctl, IFMCTL, NEWDAT, 1);
    if (FIELD_EX32(o->mctl, IFMCTL, RXIE)) {
        o->mctl = FIELD_DP32(o->mctl, IFMCTL, INTPND, 1);
    }
    o->data[0] = ldl_le_p(&frame->data[0]);
    o->data[1] = ldl_le_p(&frame->data[4]);
}

static void am335x_dcan_transmit_pending(AM335xDcanState *s);

/*
 * A frame on the bus (or looped back) goes to the first object that
 * accepts it: a remote frame to a transmit object sets its TxRqst if RmtEn
 * allows; otherwise the frame is stored, in a FIFO (objects chained by
 * EoB = 0) in the first object without NewDat.
 */
static void am335x_dcan_receive_frame(AM335xDcanState *s,
                                      const qemu_can_frame *frame)
{
    bool remote = frame->can_id & QEMU_CAN_RTR_FLAG;
    bool xtd;
    uint32_t id = am335x_dcan_frame_id(frame, &xtd);

    for (int n = 0; n < AM335X_DCAN_NUM_OBJECTS; n++) {
        AM335xDcanObject *o = &s->obj[n];

        if (!FIELD_EX32(o->arb, IFARB, MSGVAL) ||
            !am335x_dcan_accepts(o, id, xtd, remote)) {
            continue;
        }
        if (remote && FIELD_EX32(o->arb, IFARB, DIR)) {
            if (FIELD_EX32(o->mctl, IFMCTL, RMTEN)) {
                o->mctl = FIELD_DP32(o->mctl, IFMCTL, TXRQST, 1);
                am335x_dcan_transfer_ok(s, false);
                am335x_dcan_transmit_pending(s);
            }
            return;
        }
        if (FIELD_EX32(o->mctl, IFMCTL, NEWDAT) &&
            !FIELD_EX32(o->mctl, IFMCTL, EOB)) {
            /* Full FIFO entry: the next object of the FIFO takes it */
            continue;
        }
        am335x_dcan_store(s, n, frame, id, xtd, remote);
        am335x_dcan_transfer_ok(s, false);
        return;
    }
}

/* The frame object @n sends: a data frame, or from Dir 0 a remote frame */
static void am335x_dcan_make_frame(AM335xDcanState *s, int n,
                                   qemu_can_frame *frame)
{
    AM335xDcanObject *o = &s->obj[n];

    memset(frame, 0, sizeof(*frame));
    if (FIELD_EX32(o->arb, IFARB, XTD)) {
        frame->can_id = FIELD_EX32(o->arb, IFARB, ID) | QEMU_CAN_EFF_FLAG;
    } else {
        frame->can_id = FIELD_EX32(o->arb, IFARB, ID) >> STD_ID_SHIFT;
    }
    if (!FIELD_EX32(o->arb, IFARB, DIR)) {
        /* A receive object with TxRqst asks for the data: a remote frame */
        frame->can_id |= QEMU_CAN_RTR_FLAG;
    }
    /* Classic CAN: DLC 9-15 carry 8 bytes */
    frame->can_dlc = MIN(FIELD_EX32(o->mctl, IFMCTL, DLC), 8);
    stl_le_p(&frame->data[0], o->data[0]);
    stl_le_p(&frame->data[4], o->data[1]);
}

static void am335x_dcan_put_bits(uint8_t *bits, int *n, uint32_t value,
                                 int width)
{
    for (int i = width - 1; i >= 0; i--) {
        bits[(*n)++] = (value >> i) & 1;
    }
}

/*
 * The bits a frame takes on the bus (CAN 2.0B): start of frame to CRC,
 * with the stuff bits the transmitter adds after five equal bits, and the
 * fixed tail.  @dlc is the field as sent, which may exceed 8.
 */
static unsigned am335x_dcan_frame_bits(const qemu_can_frame *frame,
                                       unsigned dlc)
{
    uint8_t bits[128];
    int n = 0, run = 0, stuff = 0;
    bool rtr = frame->can_id & QEMU_CAN_RTR_FLAG;
    uint32_t id = frame->can_id & QEMU_CAN_EFF_MASK;
    uint16_t crc = 0;
    int prev = -1;

    am335x_dcan_put_bits(bits, &n, 0, 1);                   /* SOF */
    if (frame->can_id & QEMU_CAN_EFF_FLAG) {
        am335x_dcan_put_bits(bits, &n, id >> 18, 11);
        am335x_dcan_put_bits(bits, &n, 3, 2);               /* SRR, IDE */
        am335x_dcan_put_bits(bits, &n, id & 0x3ffff, 18);
        am335x_dcan_put_bits(bits, &n, rtr, 1);
        am335x_dcan_put_bits(bits, &n, 0, 2);               /* r1, r0 */
    } else {
        am335x_dcan_put_bits(bits, &n, id & QEMU_CAN_SFF_MASK, 11);
        am335x_dcan_put_bits(bits, &n, rtr, 1);
        am335x_dcan_put_bits(bits, &n, 0, 2);               /* IDE, r0 */
    }
    am335x_dcan_put_bits(bits, &n, dlc, 4);
    for (int i = 0; !rtr && i < frame->can_dlc; i++) {
        am335x_dcan_put_bits(bits, &n, frame->data[i], 8);
    }
    /* CRC-15, x^15 + x^14 + x^10 + x^8 + x^7 + x^4 + x^3 + 1 */
    for (int i = 0; i < n; i++) {
        bool feedback = bits[i] ^ ((crc >> 14) & 1);

        crc = (crc << 1) & 0x7fff;
        if (feedback) {
            crc ^= 0x4599;
        }
    }
    am335x_dcan_put_bits(bits, &n, crc, 15);
    for (int i = 0; i < n; i++) {
        run = bits[i] == prev ? run + 1 : 1;
        prev = bits[i];
        if (run == 5) {
            /* The stuff bit, the complement, starts the next run */
            stuff++;
            prev = !bits[i];
            run = 1;
        }
    }
    return n + stuff + FRAME_TAIL_BITS;
}

/* A bit's time: 1 + (TSeg1 + 1) + (TSeg2 + 1) quanta of BRPE:BRP + 1 clocks */
static uint64_t am335x_dcan_bit_ns(AM335xDcanState *s)
{
    uint64_t prescaler = (BTR_BRPE(s->btr) << 6 | BTR_BRP(s->btr)) + 1;
    uint64_t quanta = 1 + BTR_TSEG1(s->btr) + 1 + BTR_TSEG2(s->btr) + 1;

    return muldiv64(prescaler * quanta, NANOSECONDS_PER_SECOND,
                    s->clock_hz);
}

/* Object @n's frame has gone out: the bus, loopback, the flags */
static void am335x_dcan_sent(AM335xDcanState *s, int n,
                             const qemu_can_frame *frame)
{
    AM335xDcanObject *o = &s->obj[n];
    bool silent, loopback;

    o->mctl = FIELD_DP32(o->mctl, IFMCTL, TXRQST, 0);
    if (FIELD_EX32(o->mctl, IFMCTL, TXIE)) {
        o->mctl = FIELD_DP32(o->mctl, IFMCTL, INTPND, 1);
    }
    am335x_dcan_transfer_ok(s, true);

    silent = FIELD_EX32(s->ctl, CTL, TEST) &&
             (FIELD_EX32(s->test, TEST, SILENT) ||
              FIELD_EX32(s->test, TEST, TX));
    loopback = FIELD_EX32(s->ctl, CTL, TEST) &&
               FIELD_EX32(s->test, TEST, LBACK);
    trace_am335x_dcan_tx(DEVICE(s)->canonical_path, n + 1, frame->can_id,
                         frame->can_dlc, silent, loopback);
    if (!silent && s->bus_client.bus) {
        can_bus_client_send(&s->bus_client, frame, 1);
    }
    if (loopback) {
        am335x_dcan_receive_frame(s, frame);
    }
}

static void am335x_dcan_tx_done(void *opaque)
{
    AM335xDcanState *s = AM335X_DCAN(opaque);
    int n = s->tx_obj - 1;

    if (n < 0) {
        return;
    }
    s->tx_obj = 0;
    am335x_dcan_sent(s, n, &s->tx_frame);
    am335x_dcan_transmit_pending(s);
    am335x_dcan_update_irq(s);
}

/*
 * Send every object with TxRqst, lowest number first.  A remote frame
 * looped back can request another transmission; the bound keeps that from
 * going on forever within one call.
 */
static void am335x_dcan_transmit_pending(AM335xDcanState *s)
{
    for (int sent = 0; sent < 2 * AM335X_DCAN_NUM_OBJECTS; sent++) {
        qemu_can_frame frame;
        int n;

        if (am335x_dcan_initialising(s) || s->tx_obj) {
            return;
        }
        for (n = 0; n < AM335X_DCAN_NUM_OBJECTS; n++) {
            if (FIELD_EX32(s->obj[n].arb, IFARB, MSGVAL) &&
                FIELD_EX32(s->obj[n].mctl, IFMCTL, TXRQST)) {
                break;
            }
        }
        if (n == AM335X_DCAN_NUM_OBJECTS) {
            return;
        }
        am335x_dcan_make_frame(s, n, &frame);
        if (s->timing) {
            /* On the bus until its last bit; the rest then */
            s->tx_obj = n + 1;
            s->tx_frame = frame;
            timer_mod(&s->tx_timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                      am335x_dcan_frame_bits(&frame,
                          FIELD_EX32(s->obj[n].mctl, IFMCTL, DLC)) *
                      am335x_dcan_bit_ns(s));
            return;
        }
        am335x_dcan_sent(s, n, &frame);
    }
}

/* IFxCMD written with a message number: the transfer it asks for */
static void am335x_dcan_if_transfer(AM335xDcanState *s, int i)
{
    AM335xDcanIface *ifc = &s->iface[i];
    uint32_t cmd = ifc->cmd;
    unsigned num = FIELD_EX32(cmd, IFCMD, MESSAGE_NUMBER);
    AM335xDcanObject *o;

    if (num < 1 || num > AM335X_DCAN_NUM_OBJECTS) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: IF%d command for message "
                      "object %u (valid: 1-%d); ignored\n", __func__, i + 1,
                      num, AM335X_DCAN_NUM_OBJECTS);
        return;
    }
    o = &s->obj[num - 1];
    trace_am335x_dcan_if_transfer(DEVICE(s)->canonical_path, i + 1, num,
                                  extract32(cmd, 16, 8));
    if (FIELD_EX32(cmd, IFCMD, WR_RD)) {
        if (FIELD_EX32(cmd, IFCMD, MASK)) {
            o->mask = ifc->obj.mask;
        }
        if (FIELD_EX32(cmd, IFCMD, ARB)) {
            o->arb = ifc->obj.arb;
        }
        if (FIELD_EX32(cmd, IFCMD, CONTROL)) {
            o->mctl = ifc->obj.mctl & MCTL_WRITABLE;
        }
        if (FIELD_EX32(cmd, IFCMD, DATAA)) {
            o->data[0] = ifc->obj.data[0];
        }
        if (FIELD_EX32(cmd, IFCMD, DATAB)) {
            o->data[1] = ifc->obj.data[1];
        }
        if (FIELD_EX32(cmd, IFCMD, TXRQST_NEWDAT)) {
            o->mctl = FIELD_DP32(o->mctl, IFMCTL, TXRQST, 1);
        }
        am335x_dcan_transmit_pending(s);
    } else {
        if (FIELD_EX32(cmd, IFCMD, MASK)) {
            ifc->obj.mask = o->mask;
        }
        if (FIELD_EX32(cmd, IFCMD, ARB)) {
            ifc->obj.arb = o->arb;
        }
        if (FIELD_EX32(cmd, IFCMD, CONTROL)) {
            ifc->obj.mctl = o->mctl;
        }
        if (FIELD_EX32(cmd, IFCMD, DATAA)) {
            ifc->obj.data[0] = o->data[0];
        }
        if (FIELD_EX32(cmd, IFCMD, DATAB)) {
            ifc->obj.data[1] = o->data[1];
        }
        /* The interface registers keep the flags as they were before */
        if (FIELD_EX32(cmd, IFCMD, CLRINTPND)) {
            o->mctl = FIELD_DP32(o->mctl, IFMCTL, INTPND, 0);
        }
        if (FIELD_EX32(cmd, IFCMD, TXRQST_NEWDAT)) {
            o->mctl = FIELD_DP32(o->mctl, IFMCTL, NEWDAT, 0);
        }
    }
}

/* One flag of every object, as the 32-object registers show them */
static uint32_t am335x_dcan_flags(AM335xDcanState *s, int first,
                                  uint32_t reg, uint32_t mask)
{
    uint32_t value = 0;

    for (int n = 0; n < 32 && first + n < AM335X_DCAN_NUM_OBJECTS; n++) {
        uint32_t word = reg == A_IFARB ? s->obj[first + n].arb :
                                         s->obj[first + n].mctl;

        if (word & mask) {
            value |= BIT(n);
        }
    }
    return value;
}

/* The _X registers: a bit for each group of 8 objects (a register byte) */
static uint32_t am335x_dcan_flags_x(AM335xDcanState *s, uint32_t reg,
                                    uint32_t mask)
{
    uint32_t value = 0;

    for (int group = 0; group < AM335X_DCAN_NUM_OBJECTS / 8; group++) {
        if (extract32(am335x_dcan_flags(s, group / 4 * 32, reg, mask),
                      (group % 4) * 8, 8)) {
            value |= BIT(group);
        }
    }
    return value;
}

static uint32_t am335x_dcan_if_read(AM335xDcanIface *ifc, hwaddr reg)
{
    switch (reg) {
    case A_IFCMD:
        /* Transfers complete at once: Busy is never seen */
        return ifc->cmd;
    case A_IFMSK:
        return ifc->obj.mask;
    case A_IFARB:
        return ifc->obj.arb;
    case A_IFMCTL:
        return ifc->obj.mctl;
    case A_IFDATA:
        return ifc->obj.data[0];
    default:
        return ifc->obj.data[1];
    }
}

/* @peek: a read for a partial write, without the read's side effects */
static uint32_t am335x_dcan_read_reg(AM335xDcanState *s, hwaddr addr,
                                     bool peek)
{
    uint32_t value;

    switch (addr) {
    case A_CTL:
        return s->ctl;
    case A_ES:
        value = s->es;
        if (!peek) {
            /* TxOK, RxOK, PER and WakeUpPnd reset when ES is read */
            s->es &= ~(R_ES_TXOK_MASK | R_ES_RXOK_MASK | R_ES_PER_MASK |
                       R_ES_WAKEUPPND_MASK);
            s->status_int = false;
        }
        return value;
    case A_ERRC:
    case A_PERR:
        return 0;
    case A_BTR:
        return s->btr;
    case A_INT:
        return am335x_dcan_int(s);
    case A_TEST:
        /* Rx: the CAN_RX pin, recessive */
        return s->test | R_TEST_RX_MASK;
    case A_REL:
        return AM335X_DCAN_REL;
    case A_ABOTR:
        return s->abotr;
    case A_TXRQ_X:
        return am335x_dcan_flags_x(s, A_IFMCTL, R_IFMCTL_TXRQST_MASK);
    case A_NWDAT_X:
        return am335x_dcan_flags_x(s, A_IFMCTL, R_IFMCTL_NEWDAT_MASK);
    case A_INTPND_X:
        return am335x_dcan_flags_x(s, A_IFMCTL, R_IFMCTL_INTPND_MASK);
    case A_MSGVAL_X:
        return am335x_dcan_flags_x(s, A_IFARB, R_IFARB_MSGVAL_MASK);
    case A_TXRQ12 ... A_TXRQ78:
        return am335x_dcan_flags(s, (addr - A_TXRQ12) * 8, A_IFMCTL,
                                 R_IFMCTL_TXRQST_MASK);
    case A_NWDAT12 ... A_NWDAT78:
        return am335x_dcan_flags(s, (addr - A_NWDAT12) * 8, A_IFMCTL,
                                 R_IFMCTL_NEWDAT_MASK);
    case A_INTPND12 ... A_INTPND78:
        return am335x_dcan_flags(s, (addr - A_INTPND12) * 8, A_IFMCTL,
                                 R_IFMCTL_INTPND_MASK);
    case A_MSGVAL12 ... A_MSGVAL78:
        return am335x_dcan_flags(s, (addr - A_MSGVAL12) * 8, A_IFARB,
                                 R_IFARB_MSGVAL_MASK);
    case A_INTMUX12 ... A_INTMUX78:
        return addr - A_INTMUX12 < sizeof(s->intmux) ?
               s->intmux[(addr - A_INTMUX12) / 4] : 0;
    case A_IFCMD ... A_IFDATB:
        return am335x_dcan_if_read(&s->iface[0], addr);
    case A_IFCMD + IF_STRIDE ... A_IFDATB + IF_STRIDE:
        return am335x_dcan_if_read(&s->iface[1], addr - IF_STRIDE);
    case A_IF3OBS:
        return s->if3_obs;
    case A_IF3OBS + 4 ... A_IF3DATB:
        /* IF3 is updated only by the automatic update, not modelled */
        return 0;
    case A_IF3UPD12:
    case A_IF3UPD34:
        return s->if3_upd[(addr - A_IF3UPD12) / 4];
    case A_TIOC:
        return s->tioc;
    case A_RIOC:
        return s->rioc;
    default:
        if (!peek) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: bad read offset 0x%"
                          HWADDR_PRIx "\n", __func__, addr);
        }
        return 0;
    }
}

static void am335x_dcan_reset_regs(AM335xDcanState *s)
{
    /* A frame being sent is cut off */
    timer_del(&s->tx_timer);
    s->tx_obj = 0;
    s->ctl = CTL_RESET;
    s->es = ES_RESET;
    s->btr = BTR_RESET;
    s->test = 0;
    s->abotr = 0;
    memset(s->intmux, 0, sizeof(s->intmux));
    s->if3_obs = 0;
    memset(s->if3_upd, 0, sizeof(s->if3_upd));
    s->tioc = 0;
    s->rioc = 0;
    s->status_int = false;
    memset(s->iface, 0, sizeof(s->iface));
    for (int i = 0; i < 2; i++) {
        s->iface[i].obj.mask = MSK_RESET;
    }
}

static void am335x_dcan_write_ctl(AM335xDcanState *s, uint32_t value)
{
    bool was_init = am335x_dcan_initialising(s);

    if (FIELD_EX32(value, CTL, SWR)) {
        /*
         * Software reset: the registers take their reset values (the
         * message RAM keeps its contents) and SWR clears itself.
         */
        am335x_dcan_reset_regs(s);
        return;
    }
    s->ctl = value & CTL_WRITABLE;
    /* Local power-down: acknowledged at once, no transfer being under way */
    s->es = FIELD_DP32(s->es, ES, PDA, FIELD_EX32(s->ctl, CTL, PDR));
    if (was_init && !am335x_dcan_initialising(s)) {
        am335x_dcan_transmit_pending(s);
    }
}

static void am335x_dcan_if_write(AM335xDcanState *s, int i, hwaddr reg,
                                 uint32_t value, uint32_t mask)
{
    AM335xDcanIface *ifc = &s->iface[i];
    uint32_t *field;

    switch (reg) {
    case A_IFCMD:
        field = &ifc->cmd;
        break;
    case A_IFMSK:
        field = &ifc->obj.mask;
        break;
    case A_IFARB:
        field = &ifc->obj.arb;
        break;
    case A_IFMCTL:
        field = &ifc->obj.mctl;
        break;
    case A_IFDATA:
        field = &ifc->obj.data[0];
        break;
    default:
        field = &ifc->obj.data[1];
        break;
    }
    *field = (*field & ~mask) | (value & mask);
    /* Writing the message number starts the transfer */
    if (reg == A_IFCMD && (mask & R_IFCMD_MESSAGE_NUMBER_MASK)) {
        am335x_dcan_if_transfer(s, i);
    }
}

/* Writes @value under @mask (the bytes written) to the register at @addr */
static void am335x_dcan_write_reg(AM335xDcanState *s, hwaddr addr,
                                  uint32_t value, uint32_t mask)
{
    uint32_t merged = (am335x_dcan_read_reg(s, addr, true) & ~mask) |
                      (value & mask);

    switch (addr) {
    case A_CTL:
        am335x_dcan_write_ctl(s, merged);
        break;
    case A_ES:
        /* Software may set LEC to 7 to see whether it changes */
        s->es = FIELD_DP32(s->es, ES, LEC, FIELD_EX32(merged, ES, LEC));
        break;
    case A_BTR:
        if (FIELD_EX32(s->ctl, CTL, CCE) && am335x_dcan_initialising(s)) {
            s->btr = merged & BTR_WRITABLE;
        } else {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: BTR written without "
                          "CTL.CCE and CTL.Init; ignored\n", __func__);
        }
        break;
    case A_TEST:
        if (FIELD_EX32(s->ctl, CTL, TEST)) {
            s->test = merged & TEST_WRITABLE;
        } else {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: TEST written without "
                          "CTL.Test; ignored\n", __func__);
        }
        break;
    case A_ABOTR:
        s->abotr = merged;
        break;
    case A_INTMUX12:
    case A_INTMUX12 + 4:
        s->intmux[(addr - A_INTMUX12) / 4] = merged;
        break;
    case A_IFCMD ... A_IFDATB:
        am335x_dcan_if_write(s, 0, addr, value, mask);
        break;
    case A_IFCMD + IF_STRIDE ... A_IFDATB + IF_STRIDE:
        am335x_dcan_if_write(s, 1, addr - IF_STRIDE, value, mask);
        break;
    case A_IF3OBS:
        s->if3_obs = merged & 0x1f;
        break;
    case A_IF3UPD12:
    case A_IF3UPD34:
        s->if3_upd[(addr - A_IF3UPD12) / 4] = merged;
        break;
    case A_TIOC:
        s->tioc = merged;
        break;
    case A_RIOC:
        s->rioc = merged;
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: write to read-only or unknown "
                      "offset 0x%" HWADDR_PRIx "\n", __func__, addr);
        break;
    }
}

static uint64_t am335x_dcan_read(void *opaque, hwaddr offset, unsigned size)
{
    AM335xDcanState *s = AM335X_DCAN(opaque);
    uint32_t value = am335x_dcan_read_reg(s, offset & ~3, false);

    value = extract32(value, (offset & 3) * 8, size * 8);
    trace_am335x_dcan_read(DEVICE(s)->canonical_path, offset, size, value);
    am335x_dcan_update_irq(s);
    return value;
}

static void am335x_dcan_write(void *opaque, hwaddr offset, uint64_t value,
                              unsigned size)
{
    AM335xDcanState *s = AM335X_DCAN(opaque);
    unsigned shift = (offset & 3) * 8;

    trace_am335x_dcan_write(DEVICE(s)->canonical_path, offset, size, value);
    am335x_dcan_write_reg(s, offset & ~3, value << shift,
                          MAKE_64BIT_MASK(shift, size * 8));
    am335x_dcan_update_irq(s);
}

static const MemoryRegionOps am335x_dcan_ops = {
    .read = am335x_dcan_read,
    .write = am335x_dcan_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    /* Linux's c_can mixes 16- and 32-bit accesses */
    .valid.min_access_size = 1,
    .valid.max_access_size = 4,
    .impl.min_access_size = 1,
    .impl.max_access_size = 4,
    .valid.unaligned = false,
};

static bool am335x_dcan_can_receive(CanBusClientState *client)
{
    AM335xDcanState *s = container_of(client, AM335xDcanState, bus_client);

    return !am335x_dcan_initialising(s) && !FIELD_EX32(s->ctl, CTL, PDR);
}

static ssize_t am335x_dcan_receive(CanBusClientState *client,
                                   const qemu_can_frame *frames,
                                   size_t frames_cnt)
{
    AM335xDcanState *s = container_of(client, AM335xDcanState, bus_client);

    for (size_t i = 0; i < frames_cnt; i++) {
        if (frames[i].flags & QEMU_CAN_FRMF_TYPE_FD) {
            /* A CAN FD frame is a form error to a CAN 2.0 controller */
            continue;
        }
        if (FIELD_EX32(s->ctl, CTL, TEST) &&
            FIELD_EX32(s->test, TEST, LBACK) &&
            FIELD_EX32(s->test, TEST, SILENT)) {
            /* Internal loopback: the bus is not listened to */
            continue;
        }
        am335x_dcan_receive_frame(s, &frames[i]);
    }
    am335x_dcan_update_irq(s);
    return frames_cnt;
}

static CanBusClientInfo am335x_dcan_bus_client_info = {
    .can_receive = am335x_dcan_can_receive,
    .receive = am335x_dcan_receive,
};

static void am335x_dcan_reset_enter(Object *obj, ResetType type)
{
    AM335xDcanState *s = AM335X_DCAN(obj);

    am335x_dcan_reset_regs(s);
    memset(s->obj, 0, sizeof(s->obj));
}

static void am335x_dcan_reset_hold(Object *obj, ResetType type)
{
    am335x_dcan_update_irq(AM335X_DCAN(obj));
}

static void am335x_dcan_realize(DeviceState *dev, Error **errp)
{
    AM335xDcanState *s = AM335X_DCAN(dev);

    if (!s->clock_hz) {
        error_setg(errp, "%s: clock-hz must not be 0", TYPE_AM335X_DCAN);
        return;
    }
    memory_region_init_io(&s->iomem, OBJECT(s), &am335x_dcan_ops, s,
                          TYPE_AM335X_DCAN, AM335X_DCAN_MMIO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->iomem);

    s->bus_client.info = &am335x_dcan_bus_client_info;
    if (s->canbus && can_bus_insert_client(s->canbus, &s->bus_client) < 0) {
        error_setg(errp, "%s: cannot join CAN bus %s", TYPE_AM335X_DCAN,
                   object_get_canonical_path_component(OBJECT(s->canbus)));
    }
}

static void am335x_dcan_init(Object *obj)
{
    AM335xDcanState *s = AM335X_DCAN(obj);

    for (int i = 0; i < AM335X_DCAN_NUM_IRQS; i++) {
        sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq[i]);
    }
    timer_init_ns(&s->tx_timer, QEMU_CLOCK_VIRTUAL, am335x_dcan_tx_done, s);
}

static const VMStateDescription vmstate_am335x_dcan_object = {
    .name = "am335x-dcan-object",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(mask, AM335xDcanObject),
        VMSTATE_UINT32(arb, AM335xDcanObject),
        VMSTATE_UINT32(mctl, AM335xDcanObject),
        VMSTATE_UINT32_ARRAY(data, AM335xDcanObject, 2),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_am335x_dcan_iface = {
    .name = "am335x-dcan-iface",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(cmd, AM335xDcanIface),
        VMSTATE_STRUCT(obj, AM335xDcanIface, 1, vmstate_am335x_dcan_object,
                       AM335xDcanObject),
        VMSTATE_END_OF_LIST()
    }
};

static bool am335x_dcan_tx_needed(void *opaque)
{
    return AM335X_DCAN(opaque)->tx_obj != 0;
}

static int am335x_dcan_post_load(void *opaque, int version_id)
{
    AM335xDcanState *s = AM335X_DCAN(opaque);

    if (s->tx_obj > AM335X_DCAN_NUM_OBJECTS || s->tx_frame.can_dlc > 8) {
        return -EINVAL;
    }
    return 0;
}

/* A frame on the bus (timing=on) */
static const VMStateDescription vmstate_am335x_dcan_tx = {
    .name = TYPE_AM335X_DCAN "/tx",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = am335x_dcan_tx_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_TIMER(tx_timer, AM335xDcanState),
        VMSTATE_UINT8(tx_obj, AM335xDcanState),
        VMSTATE_UINT32(tx_frame.can_id, AM335xDcanState),
        VMSTATE_UINT8(tx_frame.can_dlc, AM335xDcanState),
        VMSTATE_UINT8_SUB_ARRAY(tx_frame.data, AM335xDcanState, 0, 8),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_am335x_dcan = {
    .name = TYPE_AM335X_DCAN,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = am335x_dcan_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(ctl, AM335xDcanState),
        VMSTATE_UINT32(es, AM335xDcanState),
        VMSTATE_UINT32(btr, AM335xDcanState),
        VMSTATE_UINT32(test, AM335xDcanState),
        VMSTATE_UINT32(abotr, AM335xDcanState),
        VMSTATE_UINT32_ARRAY(intmux, AM335xDcanState, 2),
        VMSTATE_UINT32(if3_obs, AM335xDcanState),
        VMSTATE_UINT32_ARRAY(if3_upd, AM335xDcanState, 2),
        VMSTATE_UINT32(tioc, AM335xDcanState),
        VMSTATE_UINT32(rioc, AM335xDcanState),
        VMSTATE_BOOL(status_int, AM335xDcanState),
        VMSTATE_STRUCT_ARRAY(iface, AM335xDcanState, 2, 1,
                             vmstate_am335x_dcan_iface, AM335xDcanIface),
        VMSTATE_STRUCT_ARRAY(obj, AM335xDcanState, AM335X_DCAN_NUM_OBJECTS,
                             1, vmstate_am335x_dcan_object,
                             AM335xDcanObject),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * const []) {
        &vmstate_am335x_dcan_tx,
        NULL
    }
};

static const Property am335x_dcan_properties[] = {
    DEFINE_PROP_LINK("canbus", AM335xDcanState, canbus, TYPE_CAN_BUS,
                     CanBusState *),
    DEFINE_PROP_BOOL("timing", AM335xDcanState, timing, false),
    /* CLK_M_OSC: 24 MHz on the BeagleBone Black and the EVM */
    DEFINE_PROP_UINT32("clock-hz", AM335xDcanState, clock_hz, 24000000),
};

static void am335x_dcan_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->realize = am335x_dcan_realize;
    dc->vmsd = &vmstate_am335x_dcan;
    dc->desc = "TI AM335x D_CAN controller";
    set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
    rc->phases.enter = am335x_dcan_reset_enter;
    rc->phases.hold = am335x_dcan_reset_hold;
    device_class_set_props(dc, am335x_dcan_properties);
}

static const TypeInfo am335x_dcan_info = {
    .name = TYPE_AM335X_DCAN,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AM335xDcanState),
    .instance_init = am335x_dcan_init,
    .class_init = am335x_dcan_class_init,
};

static void am335x_dcan_register_types(void)
{
    type_register_static(&am335x_dcan_info);
}

type_init(am335x_dcan_register_types)
