/*
 * TI AM335x I2C controller
 *
 * The AM335x has three instances of TI's OMAP4-style multi-master I2C IP.
 * This model covers its master mode, the one the Linux (i2c-omap) and
 * U-Boot (omap24xx_i2c) drivers use: software programs the target address
 * (I2C_SA) and the byte count (I2C_CNT), then writes I2C_CON with STT and,
 * usually, STP.  The controller sends a START and the address, then moves
 * DCOUNT bytes through a 32-byte FIFO in each direction, raising XRDY/XDR
 * when software should feed the TX FIFO and RRDY/RDR when it should empty
 * the RX FIFO (each at a threshold programmed in I2C_BUF), and ARDY when
 * the transfer is over.  A target that does not acknowledge its address or
 * a byte gives NACK (with ARDY).
 *
 * Timing is instant: the bus side of a transfer runs within the register
 * access that allows it to progress, and stalls, as the real controller
 * does by holding SCL low, only when it waits for software: a TX FIFO to
 * feed or an RX FIFO to empty.  One access therefore moves at most a FIFO's
 * worth of bytes, whatever DCOUNT says.
 *
 * Slave mode, the DMA requests and the 10-bit address mode are not
 * modelled; the functional clock is only used to report the bus speed.
 *
 * Reference: AM335x Technical Reference Manual (SPRUH73), chapter 21.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qapi/error.h"
#include "hw/i2c/am335x_i2c.h"
#include "hw/irq.h"
#include "hw/qdev-clock.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "trace.h"

/* The register map (TRM, "I2C Registers") */
REG32(REVNB_LO, 0x00)
REG32(REVNB_HI, 0x04)
REG32(SYSC, 0x10)
    FIELD(SYSC, AUTOIDLE, 0, 1)
    FIELD(SYSC, SRST, 1, 1)
    FIELD(SYSC, ENAWAKEUP, 2, 1)
    FIELD(SYSC, IDLEMODE, 3, 2)
    FIELD(SYSC, CLKACTIVITY, 8, 2)
REG32(EOI, 0x20)
REG32(IRQSTATUS_RAW, 0x24)
    FIELD(IRQSTATUS_RAW, AL, 0, 1)
    FIELD(IRQSTATUS_RAW, NACK, 1, 1)
    FIELD(IRQSTATUS_RAW, ARDY, 2, 1)
    FIELD(IRQSTATUS_RAW, RRDY, 3, 1)
    FIELD(IRQSTATUS_RAW, XRDY, 4, 1)
    FIELD(IRQSTATUS_RAW, GC, 5, 1)
    FIELD(IRQSTATUS_RAW, STC, 6, 1)
    FIELD(IRQSTATUS_RAW, AERR, 7, 1)
    FIELD(IRQSTATUS_RAW, BF, 8, 1)
    FIELD(IRQSTATUS_RAW, AAS, 9, 1)
    FIELD(IRQSTATUS_RAW, XUDF, 10, 1)
    FIELD(IRQSTATUS_RAW, ROVR, 11, 1)
    FIELD(IRQSTATUS_RAW, BB, 12, 1)
    FIELD(IRQSTATUS_RAW, RDR, 13, 1)
    FIELD(IRQSTATUS_RAW, XDR, 14, 1)
REG32(IRQSTATUS, 0x28)
REG32(IRQENABLE_SET, 0x2c)
REG32(IRQENABLE_CLR, 0x30)
REG32(WE, 0x34)
REG32(DMARXENABLE_SET, 0x38)
REG32(DMATXENABLE_SET, 0x3c)
REG32(DMARXENABLE_CLR, 0x40)
REG32(DMATXENABLE_CLR, 0x44)
REG32(DMARXWAKE_EN, 0x48)
REG32(DMATXWAKE_EN, 0x4c)
REG32(SYSS, 0x90)
    FIELD(SYSS, RDONE, 0, 1)
REG32(BUF, 0x94)
    FIELD(BUF, TXTRSH, 0, 6)
    FIELD(BUF, TXFIFO_CLR, 6, 1)
    FIELD(BUF, XDMA_EN, 7, 1)
    FIELD(BUF, RXTRSH, 8, 6)
    FIELD(BUF, RXFIFO_CLR, 14, 1)
    FIELD(BUF, RDMA_EN, 15, 1)
REG32(CNT, 0x98)
REG32(DATA, 0x9c)
REG32(CON, 0xa4)
    FIELD(CON, STT, 0, 1)
    FIELD(CON, STP, 1, 1)
    FIELD(CON, XOA, 4, 4)
    FIELD(CON, XSA, 8, 1)
    FIELD(CON, TRX, 9, 1)
    FIELD(CON, MST, 10, 1)
    FIELD(CON, STB, 11, 1)
    FIELD(CON, OPMODE, 12, 2)
    FIELD(CON, I2C_EN, 15, 1)
REG32(OA, 0xa8)
REG32(SA, 0xac)
REG32(PSC, 0xb0)
REG32(SCLL, 0xb4)
REG32(SCLH, 0xb8)
REG32(SYSTEST, 0xbc)
    FIELD(SYSTEST, SDA_O, 0, 1)
    FIELD(SYSTEST, SDA_I, 1, 1)
    FIELD(SYSTEST, SCL_O, 2, 1)
    FIELD(SYSTEST, SCL_I, 3, 1)
    FIELD(SYSTEST, SDA_O_FUNC, 5, 1)
    FIELD(SYSTEST, SDA_I_FUNC, 6, 1)
    FIELD(SYSTEST, SCL_O_FUNC, 7, 1)
    FIELD(SYSTEST, SCL_I_FUNC, 8, 1)
    FIELD(SYSTEST, SSB, 11, 1)
    FIELD(SYSTEST, TMODE, 12, 2)
    FIELD(SYSTEST, FREE, 14, 1)
    FIELD(SYSTEST, ST_EN, 15, 1)
REG32(BUFSTAT, 0xc0)
    FIELD(BUFSTAT, TXSTAT, 0, 6)
    FIELD(BUFSTAT, RXSTAT, 8, 6)
    FIELD(BUFSTAT, FIFODEPTH, 14, 2)
REG32(OA1, 0xc4)
REG32(OA2, 0xc8)
REG32(OA3, 0xcc)
REG32(ACTOA, 0xd0)
REG32(SBLOCK, 0xd4)

/*
 * I2C_REVNB_HI/LO as the silicon reports them: scheme 1 (IP v2 register
 * layout for i2c-omap), "rev0.11" in i2c-omap's boot message on a
 * BeagleBone Black; ti-sysc's "i2c" quirk matches 0x5040000a under mask
 * 0xfffff0f0.
 */
#define AM335X_I2C_REVNB_HI     0x5040
#define AM335X_I2C_REVNB_LO     0x000b

#define IRQ_AL      R_IRQSTATUS_RAW_AL_MASK
#define IRQ_NACK    R_IRQSTATUS_RAW_NACK_MASK
#define IRQ_ARDY    R_IRQSTATUS_RAW_ARDY_MASK
#define IRQ_RRDY    R_IRQSTATUS_RAW_RRDY_MASK
#define IRQ_XRDY    R_IRQSTATUS_RAW_XRDY_MASK
#define IRQ_AERR    R_IRQSTATUS_RAW_AERR_MASK
#define IRQ_BF      R_IRQSTATUS_RAW_BF_MASK
#define IRQ_BB      R_IRQSTATUS_RAW_BB_MASK
#define IRQ_RDR     R_IRQSTATUS_RAW_RDR_MASK
#define IRQ_XDR     R_IRQSTATUS_RAW_XDR_MASK
/*
 * The interrupt events: every status bit but BB, which shows the bus state
 * in both status registers but is no event (TRM, I2C_IRQSTATUS_RAW).
 */
#define IRQ_EVENTS  0x6fff

/* Writable bits, per the TRM's register descriptions */
#define SYSC_WRITABLE \
    (R_SYSC_AUTOIDLE_MASK | R_SYSC_ENAWAKEUP_MASK | R_SYSC_IDLEMODE_MASK | \
     R_SYSC_CLKACTIVITY_MASK)
#define WE_WRITABLE     0x636f
#define DMA_BIT         0x0001
#define CON_WRITABLE    0xbff3
#define ADDR10_MASK     0x03ff
#define SYSTEST_WRITABLE \
    (R_SYSTEST_SDA_O_MASK | R_SYSTEST_SCL_O_MASK | R_SYSTEST_TMODE_MASK | \
     R_SYSTEST_FREE_MASK | R_SYSTEST_ST_EN_MASK)
#define SBLOCK_WRITABLE 0x000f

/* I2C_SA resets to 0x3ff (TRM, I2C_SA). */
#define SA_RESET        0x03ff

/* SYSTEST.TMODE = 3: SDA/SCL driven from SDA_O/SCL_O (bus recovery) */
#define TMODE_SDA_SCL_IO    3

/* BUFSTAT.FIFODEPTH encoding of the 32-byte FIFOs (8 << 2 bytes) */
#define FIFODEPTH_32        2

/*
 * A DCOUNT of 0 is a transfer of 65536 bytes: the IP cannot do a transfer
 * of no data (TRM, I2C_CNT), hence Linux's I2C_AQ_NO_ZERO_LEN.
 */
#define DCOUNT_ZERO_LEN     65536

static const char *am335x_i2c_name(AM335xI2CState *s)
{
    return DEVICE(s)->canonical_path;
}

static void am335x_i2c_update_irq(AM335xI2CState *s)
{
    bool level = (s->irq_raw & s->irq_enable & IRQ_EVENTS) != 0;

    trace_am335x_i2c_irq(am335x_i2c_name(s), s->irq_raw, s->irq_enable,
                         level);
    qemu_set_irq(s->irq, level);
}

static bool am335x_i2c_enabled(AM335xI2CState *s)
{
    return FIELD_EX32(s->con, CON, I2C_EN);
}

/* FIFO thresholds, in bytes; a threshold past the FIFO acts as a full one */
static unsigned am335x_i2c_tx_threshold(AM335xI2CState *s)
{
    return MIN(FIELD_EX32(s->buf, BUF, TXTRSH) + 1, AM335X_I2C_FIFO_SIZE);
}

static unsigned am335x_i2c_rx_threshold(AM335xI2CState *s)
{
    return MIN(FIELD_EX32(s->buf, BUF, RXTRSH) + 1, AM335X_I2C_FIFO_SIZE);
}

/* Bytes of the current transmit that software has yet to write. */
static uint32_t am335x_i2c_tx_pending(AM335xI2CState *s)
{
    return s->count > s->tx_level ? s->count - s->tx_level : 0;
}

/*
 * Raise the FIFO events the transfer's state calls for.  They are sticky:
 * software clears them in I2C_IRQSTATUS, after which they come back at
 * once if the condition still holds, as on the silicon, where the FIFO
 * logic keeps requesting service.  XRDY when at least a
 * threshold's worth of bytes remains to be written and fits in the FIFO,
 * XDR ("draining") when fewer remain; RRDY when the RX FIFO holds a
 * threshold's worth, RDR when the transfer has received its last byte and
 * fewer remain in the FIFO.
 */
static void am335x_i2c_update_fifo_events(AM335xI2CState *s)
{
    if (!s->xfer) {
        return;
    }
    if (s->recv) {
        unsigned thr = am335x_i2c_rx_threshold(s);

        if (s->rx_level >= thr) {
            s->irq_raw |= IRQ_RRDY;
        } else if (s->count == 0 && s->rx_level > 0) {
            s->irq_raw |= IRQ_RDR;
        }
    } else {
        unsigned thr = am335x_i2c_tx_threshold(s);
        unsigned room = AM335X_I2C_FIFO_SIZE - s->tx_level;
        uint32_t pending = am335x_i2c_tx_pending(s);

        if (pending >= thr && room >= thr) {
            s->irq_raw |= IRQ_XRDY;
        } else if (pending > 0 && pending < thr && room >= pending) {
            s->irq_raw |= IRQ_XDR;
        }
    }
}

static void am335x_i2c_clear_tx_fifo(AM335xI2CState *s)
{
    s->tx_head = 0;
    s->tx_level = 0;
}

static void am335x_i2c_clear_rx_fifo(AM335xI2CState *s)
{
    s->rx_head = 0;
    s->rx_level = 0;
}

/* The serial clock the dividers give, for the trace only (TRM, I2C_PSC) */
static uint32_t am335x_i2c_scl_hz(AM335xI2CState *s)
{
    uint64_t div = ((uint64_t)s->psc + 1) *
                   ((s->scll & 0xff) + 7 + (s->sclh & 0xff) + 5);

    return clock_get_hz(s->fclk) / div;
}

/* A STOP condition: the bus becomes free (BF) and MST returns to 0. */
static void am335x_i2c_stop(AM335xI2CState *s)
{
    if (s->bus_busy) {
        trace_am335x_i2c_stop(am335x_i2c_name(s), s->bus_addr);
        i2c_end_transfer(s->bus);
        s->bus_busy = false;
        s->irq_raw |= IRQ_BF;
    }
    s->con &= ~(R_CON_STP_MASK | R_CON_MST_MASK);
}

/*
 * DCOUNT reached 0 on the bus.  With STP set the controller sends the
 * STOP; without it, it holds SCL low and keeps the bus for a repeated
 * START.
 */
static void am335x_i2c_bus_done(AM335xI2CState *s)
{
    if (FIELD_EX32(s->con, CON, STP)) {
        am335x_i2c_stop(s);
    }
}

/*
 * The transfer is over for software: ARDY tells it the registers may be
 * programmed for the next one.  A receive ends only when its last byte
 * has left the RX FIFO, so that drivers, which stop servicing RRDY/RDR
 * on ARDY, read every byte first.
 */
static void am335x_i2c_xfer_done(AM335xI2CState *s)
{
    s->xfer = false;
    s->irq_raw |= IRQ_ARDY;
    trace_am335x_i2c_done(am335x_i2c_name(s), s->bus_addr);
}

/* The target did not acknowledge: NACK and ARDY, then STOP if asked for. */
static void am335x_i2c_nack(AM335xI2CState *s)
{
    trace_am335x_i2c_nack(am335x_i2c_name(s), s->bus_addr);
    s->xfer = false;
    s->irq_raw |= IRQ_NACK | IRQ_ARDY;
    am335x_i2c_bus_done(s);
}

/*
 * Move bytes on the bus as far as the FIFOs allow: a transmit sends what
 * software has put in the TX FIFO, a receive fills the RX FIFO.  Bounded by
 * the FIFO size, whatever DCOUNT is.
 */
static void am335x_i2c_pump(AM335xI2CState *s)
{
    if (!s->xfer) {
        return;
    }
    if (s->recv) {
        while (s->count > 0 && s->rx_level < AM335X_I2C_FIFO_SIZE) {
            unsigned tail = (s->rx_head + s->rx_level) % AM335X_I2C_FIFO_SIZE;
            uint8_t data = i2c_recv(s->bus);

            s->rx_fifo[tail] = data;
            s->rx_level++;
            s->count--;
            trace_am335x_i2c_recv(am335x_i2c_name(s), data, s->count);
            if (s->count == 0) {
                /* The master does not acknowledge the last byte. */
                i2c_nack(s->bus);
                am335x_i2c_bus_done(s);
            }
        }
        if (s->count == 0 && s->rx_level == 0) {
            am335x_i2c_xfer_done(s);
        }
        return;
    }

    while (s->count > 0 && s->tx_level > 0) {
        uint8_t data = s->tx_fifo[s->tx_head];

        s->tx_head = (s->tx_head + 1) % AM335X_I2C_FIFO_SIZE;
        s->tx_level--;
        s->count--;
        trace_am335x_i2c_send(am335x_i2c_name(s), data, s->count);
        if (i2c_send(s->bus, data)) {
            am335x_i2c_nack(s);
            return;
        }
    }
    if (s->count == 0) {
        am335x_i2c_bus_done(s);
        am335x_i2c_xfer_done(s);
    }
}

/* A START condition and the address phase of a master transfer. */
static void am335x_i2c_start(AM335xI2CState *s)
{
    bool recv = !FIELD_EX32(s->con, CON, TRX);
    uint8_t addr = s->sa & 0x7f;

    s->con &= ~R_CON_STT_MASK;
    s->count = s->cnt ? s->cnt : DCOUNT_ZERO_LEN;
    s->recv = recv;
    trace_am335x_i2c_start(am335x_i2c_name(s), s->sa, recv, s->count,
                           am335x_i2c_scl_hz(s));

    if (FIELD_EX32(s->con, CON, STB)) {
        qemu_log_mask(LOG_UNIMP, "%s: %s: START byte not modelled\n",
                      __func__, am335x_i2c_name(s));
    }
    /*
     * QEMU's bus keeps the targets of an open transaction across a
     * repeated START, so one to another address first ends the old one.
     */
    if (s->bus_busy && addr != s->bus_addr) {
        i2c_end_transfer(s->bus);
    }
    s->bus_busy = true;
    s->bus_addr = addr;

    if (FIELD_EX32(s->con, CON, XSA)) {
        /* No QEMU I2C target answers a 10-bit address. */
        qemu_log_mask(LOG_UNIMP, "%s: %s: 10-bit address 0x%03x not "
                      "modelled\n", __func__, am335x_i2c_name(s), s->sa);
        i2c_end_transfer(s->bus);
        am335x_i2c_nack(s);
        return;
    }
    if (i2c_start_transfer(s->bus, addr, recv)) {
        am335x_i2c_nack(s);
        return;
    }
    s->xfer = true;
    am335x_i2c_pump(s);
}

/*
 * I2C_EN = 0 holds the functional part in reset: the transfer is
 * abandoned, the FIFOs are emptied and the status returns to its reset
 * value; the configuration registers keep their values (TRM, I2C_CON).
 */
static void am335x_i2c_disable(AM335xI2CState *s)
{
    if (s->bus_busy) {
        i2c_end_transfer(s->bus);
        s->bus_busy = false;
    }
    s->xfer = false;
    s->count = 0;
    am335x_i2c_clear_tx_fifo(s);
    am335x_i2c_clear_rx_fifo(s);
    s->irq_raw = 0;
}

static void am335x_i2c_write_con(AM335xI2CState *s, uint16_t value)
{
    if (value & ~CON_WRITABLE) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: reserved I2C_CON bits "
                      "0x%04x\n", __func__, am335x_i2c_name(s),
                      value & ~CON_WRITABLE);
    }
    s->con = value & CON_WRITABLE;

    if (!am335x_i2c_enabled(s)) {
        am335x_i2c_disable(s);
        return;
    }
    if (FIELD_EX32(s->con, CON, OPMODE) > 1) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: reserved OPMODE %u\n",
                      __func__, am335x_i2c_name(s),
                      (unsigned)FIELD_EX32(s->con, CON, OPMODE));
    }
    if (!FIELD_EX32(s->con, CON, MST)) {
        if (FIELD_EX32(s->con, CON, STT)) {
            qemu_log_mask(LOG_UNIMP, "%s: %s: slave mode not modelled\n",
                          __func__, am335x_i2c_name(s));
        }
        s->con &= ~(R_CON_STT_MASK | R_CON_STP_MASK);
        return;
    }
    if (FIELD_EX32(s->con, CON, STT)) {
        if (s->xfer) {
            /* The TRM (I2C_CNT): a new DCOUNT and STT wait for ARDY. */
            qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: START during a "
                          "transfer ignored\n", __func__,
                          am335x_i2c_name(s));
            s->con &= ~R_CON_STT_MASK;
        } else {
            am335x_i2c_start(s);
        }
        return;
    }
    /* STP alone: stops a bus held after a transfer without STP. */
    if (FIELD_EX32(s->con, CON, STP) && !s->xfer) {
        am335x_i2c_stop(s);
    }
}

static void am335x_i2c_write_buf(AM335xI2CState *s, uint16_t value)
{
    if (value & R_BUF_TXFIFO_CLR_MASK) {
        am335x_i2c_clear_tx_fifo(s);
    }
    if (value & R_BUF_RXFIFO_CLR_MASK) {
        am335x_i2c_clear_rx_fifo(s);
    }
    /* The clear bits trigger and read back as 0. */
    s->buf = value & ~(R_BUF_TXFIFO_CLR_MASK | R_BUF_RXFIFO_CLR_MASK);
    if (s->buf & (R_BUF_XDMA_EN_MASK | R_BUF_RDMA_EN_MASK)) {
        qemu_log_mask(LOG_UNIMP, "%s: %s: DMA requests not modelled\n",
                      __func__, am335x_i2c_name(s));
    }
    am335x_i2c_pump(s);
}

static uint16_t am335x_i2c_read_data(AM335xI2CState *s)
{
    uint8_t data;

    if (!am335x_i2c_enabled(s)) {
        return 0;
    }
    if (s->rx_level == 0) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: read from an empty RX "
                      "FIFO\n", __func__, am335x_i2c_name(s));
        s->irq_raw |= IRQ_AERR;
        return 0;
    }
    data = s->rx_fifo[s->rx_head];
    s->rx_head = (s->rx_head + 1) % AM335X_I2C_FIFO_SIZE;
    s->rx_level--;
    /* The freed slot lets a stalled receive take its next byte. */
    am335x_i2c_pump(s);
    return data;
}

static void am335x_i2c_write_data(AM335xI2CState *s, uint8_t data)
{
    unsigned tail;

    if (!am335x_i2c_enabled(s)) {
        /* The FIFOs are held cleared while the module is disabled. */
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: I2C_DATA written with "
                      "I2C_EN = 0\n", __func__, am335x_i2c_name(s));
        return;
    }
    if (s->tx_level == AM335X_I2C_FIFO_SIZE) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: write to a full TX FIFO\n",
                      __func__, am335x_i2c_name(s));
        s->irq_raw |= IRQ_AERR;
        return;
    }
    tail = (s->tx_head + s->tx_level) % AM335X_I2C_FIFO_SIZE;
    s->tx_fifo[tail] = data;
    s->tx_level++;
    am335x_i2c_pump(s);
}

/* SYSTEST: the SCL and SDA lines, pulled up unless test mode drives them */
static uint16_t am335x_i2c_read_systest(AM335xI2CState *s)
{
    uint16_t value = s->systest;
    bool scl = true;
    bool sda = true;

    if (FIELD_EX32(s->systest, SYSTEST, ST_EN) &&
        FIELD_EX32(s->systest, SYSTEST, TMODE) == TMODE_SDA_SCL_IO) {
        /* The lines follow SCL_O/SDA_O, and SCL_I/SDA_I sense them. */
        scl = FIELD_EX32(s->systest, SYSTEST, SCL_O);
        sda = FIELD_EX32(s->systest, SYSTEST, SDA_O);
        value = FIELD_DP32(value, SYSTEST, SCL_I, scl);
        value = FIELD_DP32(value, SYSTEST, SDA_I, sda);
    }
    value = FIELD_DP32(value, SYSTEST, SCL_I_FUNC, scl);
    value = FIELD_DP32(value, SYSTEST, SCL_O_FUNC, scl);
    value = FIELD_DP32(value, SYSTEST, SDA_I_FUNC, sda);
    value = FIELD_DP32(value, SYSTEST, SDA_O_FUNC, sda);
    return value;
}

static void am335x_i2c_write_systest(AM335xI2CState *s, uint16_t value)
{
    s->systest = value & SYSTEST_WRITABLE;
    if (!FIELD_EX32(value, SYSTEST, ST_EN)) {
        return;
    }
    switch (FIELD_EX32(value, SYSTEST, TMODE)) {
    case 0:
    case TMODE_SDA_SCL_IO:
        break;
    default:
        qemu_log_mask(LOG_UNIMP, "%s: %s: SYSTEST.TMODE %u not modelled\n",
                      __func__, am335x_i2c_name(s),
                      (unsigned)FIELD_EX32(value, SYSTEST, TMODE));
        break;
    }
    /* SSB sets every interrupt status bit, to test the interrupt path. */
    if (FIELD_EX32(value, SYSTEST, SSB)) {
        s->irq_raw |= IRQ_EVENTS;
    }
}

/* Every register back to its reset value: power-on and SYSC.SRST. */
static void am335x_i2c_reset_regs(AM335xI2CState *s)
{
    if (s->bus_busy) {
        i2c_end_transfer(s->bus);
    }
    s->bus_busy = false;
    s->xfer = false;
    s->recv = false;
    s->bus_addr = 0;
    s->count = 0;
    am335x_i2c_clear_tx_fifo(s);
    am335x_i2c_clear_rx_fifo(s);
    memset(s->tx_fifo, 0, sizeof(s->tx_fifo));
    memset(s->rx_fifo, 0, sizeof(s->rx_fifo));

    s->sysc = 0;
    s->irq_raw = 0;
    s->irq_enable = 0;
    s->we = 0;
    s->dma_rx_enable = 0;
    s->dma_tx_enable = 0;
    s->dma_rx_wake = 0;
    s->dma_tx_wake = 0;
    s->buf = 0;
    s->cnt = 0;
    s->con = 0;
    memset(s->oa, 0, sizeof(s->oa));
    s->sa = SA_RESET;
    s->psc = 0;
    s->scll = 0;
    s->sclh = 0;
    s->systest = 0;
    s->sblock = 0;
}

static bool am335x_i2c_read_reg(AM335xI2CState *s, hwaddr reg,
                                uint16_t *value)
{
    switch (reg) {
    case A_REVNB_LO:
        *value = AM335X_I2C_REVNB_LO;
        break;
    case A_REVNB_HI:
        *value = AM335X_I2C_REVNB_HI;
        break;
    case A_SYSC:
        *value = s->sysc;
        break;
    case A_EOI:
        *value = 0;
        break;
    case A_IRQSTATUS_RAW:
        *value = s->irq_raw | (s->bus_busy ? IRQ_BB : 0);
        break;
    case A_IRQSTATUS:
        *value = (s->irq_raw & s->irq_enable & IRQ_EVENTS) |
                 (s->bus_busy ? IRQ_BB : 0);
        break;
    case A_IRQENABLE_SET:
    case A_IRQENABLE_CLR:
        *value = s->irq_enable;
        break;
    case A_WE:
        *value = s->we;
        break;
    case A_DMARXENABLE_SET:
    case A_DMARXENABLE_CLR:
        *value = s->dma_rx_enable;
        break;
    case A_DMATXENABLE_SET:
    case A_DMATXENABLE_CLR:
        *value = s->dma_tx_enable;
        break;
    case A_DMARXWAKE_EN:
        *value = s->dma_rx_wake;
        break;
    case A_DMATXWAKE_EN:
        *value = s->dma_tx_wake;
        break;
    case A_SYSS:
        /*
         * With I2C_EN = 0 the module is held in reset, so RESETDONE reads
         * 0 until software sets I2C_EN after SRST (TRM, I2C_SYSS; the
         * reason for ti-sysc's I2C reset quirk).
         */
        *value = am335x_i2c_enabled(s) ? R_SYSS_RDONE_MASK : 0;
        break;
    case A_BUF:
        *value = s->buf;
        break;
    case A_CNT:
        /* During a transfer, the bytes left; else the value programmed */
        *value = s->xfer ? (uint16_t)s->count : s->cnt;
        break;
    case A_DATA:
        *value = am335x_i2c_read_data(s);
        break;
    case A_CON:
        *value = s->con;
        break;
    case A_OA:
        *value = s->oa[0];
        break;
    case A_SA:
        *value = s->sa;
        break;
    case A_PSC:
        *value = s->psc;
        break;
    case A_SCLL:
        *value = s->scll;
        break;
    case A_SCLH:
        *value = s->sclh;
        break;
    case A_SYSTEST:
        *value = am335x_i2c_read_systest(s);
        break;
    case A_BUFSTAT:
        *value = FIELD_DP32(0, BUFSTAT, FIFODEPTH, FIFODEPTH_32);
        *value = FIELD_DP32(*value, BUFSTAT, RXSTAT, s->rx_level);
        if (s->xfer && !s->recv) {
            *value = FIELD_DP32(*value, BUFSTAT, TXSTAT,
                                MIN(am335x_i2c_tx_pending(s),
                                    R_BUFSTAT_TXSTAT_MASK));
        }
        break;
    case A_OA1:
        *value = s->oa[1];
        break;
    case A_OA2:
        *value = s->oa[2];
        break;
    case A_OA3:
        *value = s->oa[3];
        break;
    case A_ACTOA:
        /* No own address is ever addressed: slave mode is not modelled. */
        *value = 0;
        break;
    case A_SBLOCK:
        *value = s->sblock;
        break;
    default:
        return false;
    }
    return true;
}

static void am335x_i2c_read_only(AM335xI2CState *s, hwaddr reg)
{
    qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: write to read-only register "
                  "0x%" HWADDR_PRIx "\n", __func__, am335x_i2c_name(s), reg);
}

static bool am335x_i2c_write_reg(AM335xI2CState *s, hwaddr reg,
                                 uint16_t value)
{
    switch (reg) {
    case A_SYSC:
        if (FIELD_EX32(value, SYSC, SRST)) {
            trace_am335x_i2c_softreset(am335x_i2c_name(s));
            am335x_i2c_reset_regs(s);
        } else {
            s->sysc = value & SYSC_WRITABLE;
        }
        break;
    case A_EOI:
        /* The interrupt line is a level: nothing to acknowledge. */
        break;
    case A_IRQSTATUS_RAW:
        /* Writing 1 sets an event, for software testing */
        s->irq_raw |= value & IRQ_EVENTS;
        break;
    case A_IRQSTATUS:
        s->irq_raw &= ~(value & IRQ_EVENTS);
        break;
    case A_IRQENABLE_SET:
        s->irq_enable |= value & IRQ_EVENTS;
        break;
    case A_IRQENABLE_CLR:
        s->irq_enable &= ~(value & IRQ_EVENTS);
        break;
    case A_WE:
        s->we = value & WE_WRITABLE;
        break;
    case A_DMARXENABLE_SET:
        s->dma_rx_enable |= value & DMA_BIT;
        break;
    case A_DMATXENABLE_SET:
        s->dma_tx_enable |= value & DMA_BIT;
        break;
    case A_DMARXENABLE_CLR:
        s->dma_rx_enable &= ~(value & DMA_BIT);
        break;
    case A_DMATXENABLE_CLR:
        s->dma_tx_enable &= ~(value & DMA_BIT);
        break;
    case A_DMARXWAKE_EN:
        s->dma_rx_wake = value & DMA_BIT;
        break;
    case A_DMATXWAKE_EN:
        s->dma_tx_wake = value & DMA_BIT;
        break;
    case A_BUF:
        am335x_i2c_write_buf(s, value);
        break;
    case A_CNT:
        if (s->xfer) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: I2C_CNT written during "
                          "a transfer\n", __func__, am335x_i2c_name(s));
        }
        s->cnt = value;
        break;
    case A_DATA:
        am335x_i2c_write_data(s, value);
        break;
    case A_CON:
        am335x_i2c_write_con(s, value);
        break;
    case A_OA:
        s->oa[0] = value & ADDR10_MASK;
        break;
    case A_SA:
        s->sa = value & ADDR10_MASK;
        break;
    case A_PSC:
        s->psc = value & 0xff;
        break;
    case A_SCLL:
        s->scll = value;
        break;
    case A_SCLH:
        s->sclh = value;
        break;
    case A_SYSTEST:
        am335x_i2c_write_systest(s, value);
        break;
    case A_OA1:
        s->oa[1] = value & ADDR10_MASK;
        break;
    case A_OA2:
        s->oa[2] = value & ADDR10_MASK;
        break;
    case A_OA3:
        s->oa[3] = value & ADDR10_MASK;
        break;
    case A_SBLOCK:
        s->sblock = value & SBLOCK_WRITABLE;
        break;
    case A_REVNB_LO:
    case A_REVNB_HI:
    case A_SYSS:
    case A_BUFSTAT:
    case A_ACTOA:
        am335x_i2c_read_only(s, reg);
        break;
    default:
        return false;
    }
    return true;
}

/*
 * The registers are 16 bits wide at a 4-byte stride.  i2c-omap and
 * ti-sysc use 16-bit accesses, other software 32-bit ones; the upper half
 * of each word reads as 0.  Byte accesses are accepted as well (old U-Boot
 * reads I2C_DATA that way).
 */
static uint64_t am335x_i2c_read(void *opaque, hwaddr offset, unsigned size)
{
    AM335xI2CState *s = AM335X_I2C(opaque);
    hwaddr reg = offset & ~3;
    unsigned shift = (offset & 3) * 8;
    uint16_t value = 0;
    uint64_t ret;

    if (shift >= 16 || (reg == A_DATA && shift)) {
        /* Reserved bits; reading them has no side effect. */
        ret = 0;
    } else if (!am335x_i2c_read_reg(s, reg, &value)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: bad read offset 0x%"
                      HWADDR_PRIx "\n", __func__, am335x_i2c_name(s),
                      offset);
        ret = 0;
    } else {
        ret = extract32(value, shift, MIN(size * 8, 16 - shift));
    }
    am335x_i2c_update_fifo_events(s);
    am335x_i2c_update_irq(s);
    trace_am335x_i2c_read(am335x_i2c_name(s), offset, size, ret);
    return ret;
}

static void am335x_i2c_write(void *opaque, hwaddr offset, uint64_t value,
                             unsigned size)
{
    AM335xI2CState *s = AM335X_I2C(opaque);
    hwaddr reg = offset & ~3;

    trace_am335x_i2c_write(am335x_i2c_name(s), offset, size, value);

    if (offset & 3) {
        /* Only the low half of a word holds a register. */
        if ((offset & 3) >= 2 && (value & MAKE_64BIT_MASK(0, size * 8))) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: write to reserved bits "
                          "at offset 0x%" HWADDR_PRIx "\n", __func__,
                          am335x_i2c_name(s), offset);
        } else if ((offset & 3) < 2) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: misaligned write at "
                          "offset 0x%" HWADDR_PRIx " ignored\n", __func__,
                          am335x_i2c_name(s), offset);
        }
        return;
    }
    if (size == 4 && (value >> 16)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: write to reserved bits "
                      "0x%08" PRIx64 " at offset 0x%" HWADDR_PRIx "\n",
                      __func__, am335x_i2c_name(s), value, offset);
    }
    if (!am335x_i2c_write_reg(s, reg, value & 0xffff)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: bad write offset 0x%"
                      HWADDR_PRIx "\n", __func__, am335x_i2c_name(s),
                      offset);
    }
    am335x_i2c_update_fifo_events(s);
    am335x_i2c_update_irq(s);
}

static const MemoryRegionOps am335x_i2c_ops = {
    .read = am335x_i2c_read,
    .write = am335x_i2c_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 1,
    .valid.max_access_size = 4,
    .impl.min_access_size = 1,
    .impl.max_access_size = 4,
};

static void am335x_i2c_clock_update(void *opaque, ClockEvent event)
{
    AM335xI2CState *s = AM335X_I2C(opaque);

    trace_am335x_i2c_clock(am335x_i2c_name(s), clock_get_hz(s->fclk));
}

static void am335x_i2c_reset_hold(Object *obj, ResetType type)
{
    AM335xI2CState *s = AM335X_I2C(obj);

    am335x_i2c_reset_regs(s);
    am335x_i2c_update_irq(s);
}

static void am335x_i2c_realize(DeviceState *dev, Error **errp)
{
    AM335xI2CState *s = AM335X_I2C(dev);

    if (!clock_has_source(s->fclk)) {
        error_setg(errp, "%s: clock input '%s' is not connected",
                   TYPE_AM335X_I2C, AM335X_I2C_FCLK);
        return;
    }
    memory_region_init_io(&s->iomem, OBJECT(s), &am335x_i2c_ops, s,
                          TYPE_AM335X_I2C, AM335X_I2C_MMIO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->iomem);
    /* Named, so that -device can put a target on it (bus=i2c2) */
    s->bus = i2c_init_bus(dev, s->bus_name ? s->bus_name :
                               AM335X_I2C_BUS_NAME);
}

static void am335x_i2c_init(Object *obj)
{
    AM335xI2CState *s = AM335X_I2C(obj);
    DeviceState *dev = DEVICE(obj);

    s->fclk = qdev_init_clock_in(dev, AM335X_I2C_FCLK,
                                 am335x_i2c_clock_update, s, ClockUpdate);
    sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq);
}

static int am335x_i2c_post_load(void *opaque, int version_id)
{
    AM335xI2CState *s = AM335X_I2C(opaque);

    if (s->tx_head >= AM335X_I2C_FIFO_SIZE ||
        s->tx_level > AM335X_I2C_FIFO_SIZE ||
        s->rx_head >= AM335X_I2C_FIFO_SIZE ||
        s->rx_level > AM335X_I2C_FIFO_SIZE ||
        s->count > DCOUNT_ZERO_LEN || s->bus_addr > 0x7f) {
        return -EINVAL;
    }
    return 0;
}

static const VMStateDescription vmstate_am335x_i2c = {
    .name = TYPE_AM335X_I2C,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = am335x_i2c_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_CLOCK(fclk, AM335xI2CState),
        VMSTATE_UINT16(sysc, AM335xI2CState),
        VMSTATE_UINT16(irq_raw, AM335xI2CState),
        VMSTATE_UINT16(irq_enable, AM335xI2CState),
        VMSTATE_UINT16(we, AM335xI2CState),
        VMSTATE_UINT16(dma_rx_enable, AM335xI2CState),
        VMSTATE_UINT16(dma_tx_enable, AM335xI2CState),
        VMSTATE_UINT16(dma_rx_wake, AM335xI2CState),
        VMSTATE_UINT16(dma_tx_wake, AM335xI2CState),
        VMSTATE_UINT16(buf, AM335xI2CState),
        VMSTATE_UINT16(cnt, AM335xI2CState),
        VMSTATE_UINT16(con, AM335xI2CState),
        VMSTATE_UINT16_ARRAY(oa, AM335xI2CState, 4),
        VMSTATE_UINT16(sa, AM335xI2CState),
        VMSTATE_UINT16(psc, AM335xI2CState),
        VMSTATE_UINT16(scll, AM335xI2CState),
        VMSTATE_UINT16(sclh, AM335xI2CState),
        VMSTATE_UINT16(systest, AM335xI2CState),
        VMSTATE_UINT16(sblock, AM335xI2CState),
        VMSTATE_BOOL(bus_busy, AM335xI2CState),
        VMSTATE_BOOL(xfer, AM335xI2CState),
        VMSTATE_BOOL(recv, AM335xI2CState),
        VMSTATE_UINT8(bus_addr, AM335xI2CState),
        VMSTATE_UINT32(count, AM335xI2CState),
        VMSTATE_UINT8_ARRAY(tx_fifo, AM335xI2CState, AM335X_I2C_FIFO_SIZE),
        VMSTATE_UINT8(tx_head, AM335xI2CState),
        VMSTATE_UINT8(tx_level, AM335xI2CState),
        VMSTATE_UINT8_ARRAY(rx_fifo, AM335xI2CState, AM335X_I2C_FIFO_SIZE),
        VMSTATE_UINT8(rx_head, AM335xI2CState),
        VMSTATE_UINT8(rx_level, AM335xI2CState),
        VMSTATE_END_OF_LIST()
    }
};

static const Property am335x_i2c_properties[] = {
    /* The child bus' name; the SoC names them i2c0-i2c2 */
    DEFINE_PROP_STRING("bus-name", AM335xI2CState, bus_name),
};

static void am335x_i2c_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    device_class_set_props(dc, am335x_i2c_properties);
    dc->realize = am335x_i2c_realize;
    dc->vmsd = &vmstate_am335x_i2c;
    dc->desc = "TI AM335x I2C controller";
    rc->phases.hold = am335x_i2c_reset_hold;
}

static const TypeInfo am335x_i2c_info = {
    .name = TYPE_AM335X_I2C,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AM335xI2CState),
    .instance_init = am335x_i2c_init,
    .class_init = am335x_i2c_class_init,
};

static void am335x_i2c_register_types(void)
{
    type_register_static(&am335x_i2c_info);
}

type_init(am335x_i2c_register_types)
