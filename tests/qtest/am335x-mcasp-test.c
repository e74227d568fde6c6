/*
 * QTest for the TI AM335x McASP
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "libqtest.h"
#include "am335x-qtest.h"
#include "qobject/qdict.h"

#define MCASP0_BASE         0x48038000
#define MCASP0_DATA         0x46000000
#define MCASP0_PATH         "/machine/soc/mcasp[0]"

/* TRM table 22-10 */
#define PID                 0x00
#define GBLCTL              0x44
#define DLBCTL              0x4c
#define RGBLCTL             0x60
#define RMASK               0x64
#define RFMT                0x68
#define AFSRCTL             0x6c
#define RTDM                0x78
#define RINTCTL             0x7c
#define RSTAT               0x80
#define REVTCTL             0x8c
#define XGBLCTL             0xa0
#define XMASK               0xa4
#define XFMT                0xa8
#define AFSXCTL             0xac
#define ACLKXCTL            0xb0
#define AHCLKXCTL           0xb4
#define XTDM                0xb8
#define XINTCTL             0xbc
#define XSTAT               0xc0
#define XSLOT               0xc4
#define XEVTCTL             0xcc
#define SRCTL(n)            (0x180 + 4 * (n))
#define XBUF(n)             (0x200 + 4 * (n))
#define RBUF(n)             (0x280 + 4 * (n))
#define WFIFOCTL            0x1000
#define WFIFOSTS            0x1004

#define XCLKRST             BIT(8)
#define XHCLKRST            BIT(9)
#define XSRCLR              BIT(10)
#define XSMRST              BIT(11)
#define XFRST               BIT(12)
#define XUNDRN              BIT(0)
#define XDATA               BIT(5)
#define XERR                BIT(8)
#define WENA                BIT(16)
#define ROVRN               BIT(0)
#define RERR                BIT(8)
#define RRDY                BIT(5)

/*
 * What davinci-mcasp sets for I2S, 16-bit stereo at 48 kHz on the BBB:
 * AHCLKX from the board's 24.576 MHz, ACLKX = AHCLKX / 16 = 1.536 MHz,
 * two 16-bit slots: 48 kHz frames, a slot every 10417 ns.
 */
#define SLOT_NS             (16 * 1000000000LL / 1536000)

static uint32_t rd(QTestState *qts, uint32_t reg)
{
    return qtest_readl(qts, MCASP0_BASE + reg);
}

static void wr(QTestState *qts, uint32_t reg, uint32_t value)
{
    qtest_writel(qts, MCASP0_BASE + reg, value);
}

static void setup_i2s(QTestState *qts, bool fifo)
{
    wr(qts, XMASK, 0xffff);
    /* XRVRS (MSB first), 16-bit slots, rotate by 16 bits, data port */
    wr(qts, XFMT, BIT(15) | (7 << 4) | 4);
    wr(qts, AFSXCTL, (2 << 7) | BIT(4) | BIT(1));
    wr(qts, ACLKXCTL, BIT(5) | 15);
    wr(qts, AHCLKXCTL, 0);          /* external AHCLKX, 24.576 MHz */
    wr(qts, XTDM, 0x3);
    wr(qts, SRCTL(0), 1);           /* AXR0 transmits */
    wr(qts, XINTCTL, XUNDRN);
    if (fifo) {
        wr(qts, WFIFOCTL, (32 << 8) | 1);
        wr(qts, WFIFOCTL, WENA | (32 << 8) | 1);
    }
}

static void start_tx(QTestState *qts)
{
    wr(qts, XGBLCTL, XHCLKRST);
    wr(qts, XGBLCTL, XHCLKRST | XCLKRST);
    wr(qts, XSTAT, 0xffffffff);
    wr(qts, XGBLCTL, XHCLKRST | XCLKRST | XSRCLR);
}

static void test_reset_values(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    g_assert_cmphex(rd(qts, PID), ==, 0x44306302);
    g_assert_cmphex(rd(qts, GBLCTL), ==, 0);
    g_assert_cmphex(rd(qts, ACLKXCTL), ==, 0x60);
    g_assert_cmphex(rd(qts, AHCLKXCTL), ==, 0x8000);
    g_assert_cmphex(rd(qts, WFIFOCTL), ==, 0x1004);
    g_assert_cmphex(rd(qts, XSTAT), ==, 0);
    /* GBLCTLX sets and reads back the transmit half of GBLCTL */
    wr(qts, XGBLCTL, 0xffffffff);
    g_assert_cmphex(rd(qts, XGBLCTL), ==, 0x1f00);
    g_assert_cmphex(rd(qts, GBLCTL), ==, 0x1f00);
    qtest_quit(qts);
}

/*
 * Without the FIFO: XBUF empty is XDATA and the DMA request; each slot
 * takes a word; a slot finding XBUF empty is an underrun.
 */
static void test_xbuf_slots(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    qtest_irq_intercept_out_named(qts, MCASP0_PATH, "dma-request");
    setup_i2s(qts, false);
    start_tx(qts);
    g_assert_cmphex(rd(qts, XSTAT) & XDATA, ==, XDATA);
    g_assert_true(qtest_get_irq(qts, 0));
    qtest_writel(qts, MCASP0_DATA, 0x1234);
    g_assert_cmphex(rd(qts, XSTAT) & XDATA, ==, 0);
    g_assert_false(qtest_get_irq(qts, 0));

    /* Released: the first slot goes one slot time later */
    wr(qts, XGBLCTL, XHCLKRST | XCLKRST | XSRCLR | XSMRST | XFRST);
    qtest_clock_step(qts, SLOT_NS - 10);
    g_assert_cmphex(rd(qts, XSTAT) & XDATA, ==, 0);
    qtest_clock_step(qts, 20);
    g_assert_cmphex(rd(qts, XSTAT) & XDATA, ==, XDATA);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(rd(qts, XSLOT), ==, 1);

    qtest_quit(qts);
}

/*
 * A slot that finds XBUF empty: underrun, and the TX interrupt.  With the
 * DMA request off (the CPU writes XBUF) that is at once; with a request
 * the EDMA has not answered, after the model's grace time for it (20 ms).
 */
static void test_underrun(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    qtest_irq_intercept_out_named(qts, MCASP0_PATH, "sysbus-irq");
    setup_i2s(qts, false);
    wr(qts, XEVTCTL, 1);
    start_tx(qts);
    qtest_writel(qts, MCASP0_DATA, 0x1234);
    wr(qts, XGBLCTL, XHCLKRST | XCLKRST | XSRCLR | XSMRST | XFRST);
    qtest_clock_step(qts, SLOT_NS + 10);
    g_assert_cmphex(rd(qts, XSTAT) & XUNDRN, ==, 0);
    g_assert_false(qtest_get_irq(qts, 0));
    qtest_clock_step(qts, SLOT_NS);
    g_assert_cmphex(rd(qts, XSTAT) & (XUNDRN | XERR), ==, XUNDRN | XERR);
    g_assert_true(qtest_get_irq(qts, 0));
    wr(qts, XSTAT, XUNDRN);
    g_assert_cmphex(rd(qts, XSTAT) & (XUNDRN | XERR), ==, 0);
    g_assert_false(qtest_get_irq(qts, 0));

    /* The DMA asked but silent: the slot waits, then underruns */
    wr(qts, XEVTCTL, 0);
    qtest_clock_step(qts, 19 * 1000 * 1000);
    g_assert_cmphex(rd(qts, XSTAT) & XUNDRN, ==, 0);
    qtest_clock_step(qts, 2 * 1000 * 1000);
    g_assert_cmphex(rd(qts, XSTAT) & XUNDRN, ==, XUNDRN);
    qtest_quit(qts);
}

/*
 * With the FIFO: it asks for WNUMEVT (32) words while it has room for
 * them, fills XBUF, and drains one word per slot.
 */
static void test_fifo(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    qtest_irq_intercept_out_named(qts, MCASP0_PATH, "dma-request");
    setup_i2s(qts, true);
    start_tx(qts);
    g_assert_true(qtest_get_irq(qts, 0));
    for (int i = 0; i < 32; i++) {
        qtest_writel(qts, MCASP0_DATA, i);
    }
    /* One word went on to XBUF: 31 in the FIFO, room for 33: asking */
    g_assert_cmpuint(rd(qts, WFIFOSTS), ==, 31);
    g_assert_cmphex(rd(qts, XBUF(0)), ==, 0);
    g_assert_true(qtest_get_irq(qts, 0));
    for (int i = 32; i < 64; i++) {
        qtest_writel(qts, MCASP0_DATA, i);
    }
    g_assert_cmpuint(rd(qts, WFIFOSTS), ==, 63);
    g_assert_false(qtest_get_irq(qts, 0));

    wr(qts, XGBLCTL, XHCLKRST | XCLKRST | XSRCLR | XSMRST | XFRST);
    qtest_clock_step(qts, 2 * SLOT_NS + 10);
    /* Two slots sent: words 0 and 1 gone, 2 in XBUF, 61 in the FIFO */
    g_assert_cmpuint(rd(qts, WFIFOSTS), ==, 61);
    g_assert_cmphex(rd(qts, XBUF(0)), ==, 2);
    g_assert_false(qtest_get_irq(qts, 0));
    qtest_clock_step(qts, 29 * SLOT_NS);
    g_assert_cmpuint(rd(qts, WFIFOSTS), ==, 32);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(rd(qts, XSTAT) & XUNDRN, ==, 0);

    /* Writing more than it holds is a DMA error */
    for (int i = 0; i < 33; i++) {
        qtest_writel(qts, MCASP0_DATA, i);
    }
    g_assert_cmphex(rd(qts, XSTAT) & (BIT(7) | XERR), ==, BIT(7) | XERR);
    qtest_quit(qts);
}

/* The DMA request is off with XEVTCTL.XDATDMA, the clocks stopped: no slot */
static void test_dma_disable_and_stop(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    qtest_irq_intercept_out_named(qts, MCASP0_PATH, "dma-request");
    setup_i2s(qts, false);
    wr(qts, XEVTCTL, 1);
    start_tx(qts);
    g_assert_false(qtest_get_irq(qts, 0));
    wr(qts, XEVTCTL, 0);
    g_assert_true(qtest_get_irq(qts, 0));

    /* The CPU feeds XBUF from here: no DMA request, slots on time */
    wr(qts, XEVTCTL, 1);
    wr(qts, XGBLCTL, XHCLKRST | XCLKRST | XSRCLR | XSMRST | XFRST);
    qtest_clock_step(qts, 3 * SLOT_NS + 10);
    g_assert_cmphex(rd(qts, XSLOT), ==, 1);
    wr(qts, XGBLCTL, 0);
    wr(qts, XSTAT, 0xff);
    qtest_clock_step(qts, 10 * SLOT_NS);
    g_assert_cmphex(rd(qts, XSTAT) & XUNDRN, ==, 0);
    qtest_quit(qts);
}

/*
 * The receiver, through the digital loopback (DLBCTL: DLBEN, ORD 1: the
 * even serializers into the odd ones, MODE 1: the transmit clocks): each
 * slot AXR1 takes the word AXR0 sent, formatted back by RFMT/RMASK into
 * RBUF1 (RRDY); a word not read before the next one is an overrun (ROVRN,
 * the RX interrupt).
 */
static void test_loopback_receive(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    qtest_irq_intercept_out_named(qts, MCASP0_PATH, "sysbus-irq");
    setup_i2s(qts, false);
    wr(qts, XEVTCTL, 1);
    wr(qts, RMASK, 0xffff);
    /* RRVRS (MSB first), 16-bit slots, no rotation */
    wr(qts, RFMT, BIT(15) | (7 << 4));
    wr(qts, AFSRCTL, (2 << 7) | BIT(4) | BIT(1));
    wr(qts, RTDM, 0x3);
    wr(qts, SRCTL(1), 2);           /* AXR1 receives */
    wr(qts, REVTCTL, 1);            /* the CPU reads RBUF */
    wr(qts, RINTCTL, ROVRN);
    wr(qts, DLBCTL, 0x7);
    start_tx(qts);
    qtest_writel(qts, MCASP0_DATA, 0x1234);
    wr(qts, RGBLCTL, 0x1f);
    wr(qts, XGBLCTL, XHCLKRST | XCLKRST | XSRCLR | XSMRST | XFRST);

    qtest_clock_step(qts, SLOT_NS + 10);
    g_assert_cmphex(rd(qts, SRCTL(1)) & RRDY, ==, RRDY);
    g_assert_cmphex(rd(qts, RBUF(1)), ==, 0x1234);
    g_assert_cmphex(rd(qts, SRCTL(1)) & RRDY, ==, 0);

    /* Slot 1: 0xbeef, left in RBUF1; slot 0 of the next frame overruns */
    qtest_writel(qts, MCASP0_DATA, 0xbeef);
    qtest_clock_step(qts, SLOT_NS);
    g_assert_cmphex(rd(qts, RSTAT) & ROVRN, ==, 0);
    g_assert_false(qtest_get_irq(qts, 1));
    qtest_writel(qts, MCASP0_DATA, 0x5678);
    qtest_clock_step(qts, SLOT_NS);
    g_assert_cmphex(rd(qts, RSTAT) & (ROVRN | RERR), ==, ROVRN | RERR);
    g_assert_true(qtest_get_irq(qts, 1));
    g_assert_cmphex(rd(qts, RBUF(1)), ==, 0x5678);
    wr(qts, RSTAT, ROVRN);
    g_assert_false(qtest_get_irq(qts, 1));

    /* Loopback off: the codec's side, silence without an audiodev */
    wr(qts, DLBCTL, 0);
    qtest_writel(qts, MCASP0_DATA, 0x9abc);
    qtest_clock_step(qts, SLOT_NS);
    g_assert_cmphex(rd(qts, RBUF(1)), ==, 0);
    qtest_quit(qts);
}

/* Migrated mid-stream, the FIFO and the slot timing carry on */
static void test_migration(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");
    int64_t t;

    setup_i2s(qts, true);
    start_tx(qts);
    for (int i = 0; i < 64; i++) {
        qtest_writel(qts, MCASP0_DATA, i);
    }
    wr(qts, XGBLCTL, XHCLKRST | XCLKRST | XSRCLR | XSMRST | XFRST);
    t = qtest_clock_step(qts, 4 * SLOT_NS + 10);
    g_assert_cmpuint(rd(qts, WFIFOSTS), ==, 59);

    qts = am335x_migrate(qts, "-M beaglebone-black");
    g_assert_cmpuint(rd(qts, WFIFOSTS), ==, 59);
    g_assert_cmphex(rd(qts, XBUF(0)), ==, 4);
    /* The destination's clock starts at 0; the next slot keeps its time */
    qtest_clock_step(qts, t + SLOT_NS);
    g_assert_cmpuint(rd(qts, WFIFOSTS), ==, 58);
    g_assert_cmphex(rd(qts, XBUF(0)), ==, 5);
    qtest_quit(qts);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/am335x-mcasp/reset-values", test_reset_values);
    qtest_add_func("/am335x-mcasp/xbuf-slots", test_xbuf_slots);
    qtest_add_func("/am335x-mcasp/underrun", test_underrun);
    qtest_add_func("/am335x-mcasp/fifo", test_fifo);
    qtest_add_func("/am335x-mcasp/dma-disable-and-stop",
                   test_dma_disable_and_stop);
    qtest_add_func("/am335x-mcasp/loopback-receive", test_loopback_receive);
    qtest_add_func("/am335x-mcasp/migration", test_migration);
    return g_test_run();
}
