/*
 * QTest for the TI AM335x D_CAN controllers
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "libqtest.h"
#include "am335x-qtest.h"
#include "qobject/qdict.h"

static const uint32_t dcan_base[2] = { 0x481cc000, 0x481d0000 };
#define DCAN0_PATH          "/machine/soc/dcan[0]"

/* TRM table 23-15 */
#define CTL                 0x00
#define ES                  0x04
#define ERRC                0x08
#define BTR                 0x0c
#define INT                 0x10
#define TEST                0x14
#define REL                 0x20
#define TXRQ12              0x88
#define NWDAT12             0x9c
#define NWDAT34             0xa0
#define INTPND12            0xb0
#define INTPND34            0xb4
#define MSGVAL_X            0xc0
#define MSGVAL12            0xc4
#define MSGVAL34            0xc8
#define INTMUX12            0xd8
#define IF_CMD(i)           (0x100 + (i) * 0x20)
#define IF_MSK(i)           (0x104 + (i) * 0x20)
#define IF_ARB(i)           (0x108 + (i) * 0x20)
#define IF_MCTL(i)          (0x10c + (i) * 0x20)
#define IF_DATA(i)          (0x110 + (i) * 0x20)
#define IF_DATB(i)          (0x114 + (i) * 0x20)

#define CTL_INIT            BIT(0)
#define CTL_IE0             BIT(1)
#define CTL_SIE             BIT(2)
#define CTL_CCE             BIT(6)
#define CTL_TEST            BIT(7)
#define CTL_SWR             BIT(15)
#define CTL_IE1             BIT(17)
#define CTL_PDR             BIT(24)
#define ES_TXOK             BIT(3)
#define ES_RXOK             BIT(4)
#define ES_PDA              BIT(10)
#define TEST_SILENT         BIT(3)
#define TEST_LBACK          BIT(4)
#define TEST_RX             BIT(7)

#define CMD_WR              BIT(23)
#define CMD_MASK            BIT(22)
#define CMD_ARB             BIT(21)
#define CMD_CONTROL         BIT(20)
#define CMD_CLRINTPND       BIT(19)
#define CMD_TXRQST_NEWDAT   BIT(18)
#define CMD_DATAA           BIT(17)
#define CMD_DATAB           BIT(16)
#define CMD_ALL             (CMD_MASK | CMD_ARB | CMD_CONTROL | CMD_DATAA | \
                             CMD_DATAB)

#define ARB_MSGVAL          BIT(31)
#define ARB_XTD             BIT(30)
#define ARB_DIR             BIT(29)
#define ARB_STD(id)         ((uint32_t)(id) << 18)
#define MSK_MXTD            BIT(31)
#define MSK_MDIR            BIT(30)

#define MCTL_EOB            BIT(7)
#define MCTL_TXRQST         BIT(8)
#define MCTL_RMTEN          BIT(9)
#define MCTL_RXIE           BIT(10)
#define MCTL_TXIE           BIT(11)
#define MCTL_UMASK          BIT(12)
#define MCTL_INTPND         BIT(13)
#define MCTL_MSGLST         BIT(14)
#define MCTL_NEWDAT         BIT(15)

static uint32_t rd(QTestState *qts, int n, uint32_t reg)
{
    return qtest_readl(qts, dcan_base[n] + reg);
}

static void wr(QTestState *qts, int n, uint32_t reg, uint32_t value)
{
    qtest_writel(qts, dcan_base[n] + reg, value);
}

/* Writes object @obj of controller @n through IF1 */
static void obj_put(QTestState *qts, int n, int obj, uint32_t msk,
                    uint32_t arb, uint32_t mctl, uint32_t da, uint32_t db)
{
    wr(qts, n, IF_MSK(0), msk);
    wr(qts, n, IF_ARB(0), arb);
    wr(qts, n, IF_MCTL(0), mctl);
    wr(qts, n, IF_DATA(0), da);
    wr(qts, n, IF_DATB(0), db);
    wr(qts, n, IF_CMD(0), CMD_WR | CMD_ALL | obj);
}

/* Reads object @obj of controller @n into IF2 with command mask @cmd */
static void obj_get(QTestState *qts, int n, int obj, uint32_t cmd)
{
    wr(qts, n, IF_CMD(1), cmd | obj);
    g_assert_cmphex(rd(qts, n, IF_CMD(1)) & BIT(15), ==, 0);
}

static QTestState *start_bus(void)
{
    return qtest_init("-object can-bus,id=cb "
                      "-M beaglebone-black,canbus0=cb,canbus1=cb");
}

/* Out of Init, with the object interrupts and the status interrupt on */
static void run(QTestState *qts, int n)
{
    wr(qts, n, CTL, CTL_IE0 | CTL_SIE);
}

static void test_reset_values(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    for (int n = 0; n < 2; n++) {
        g_assert_cmphex(rd(qts, n, CTL), ==, 0x1401);
        g_assert_cmphex(rd(qts, n, ES), ==, 7);
        g_assert_cmphex(rd(qts, n, ERRC), ==, 0);
        g_assert_cmphex(rd(qts, n, BTR), ==, 0x2301);
        g_assert_cmphex(rd(qts, n, INT), ==, 0);
        g_assert_cmphex(rd(qts, n, TEST), ==, TEST_RX);
        g_assert_cmphex(rd(qts, n, REL), ==, 0x4edb1902);
        g_assert_cmphex(rd(qts, n, MSGVAL_X), ==, 0);
        g_assert_cmphex(rd(qts, n, IF_MSK(0)), ==, 0xe0000000);
    }
    qtest_quit(qts);
}

/*
 * D_CAN0 sends a standard and an extended data frame; D_CAN1's receive
 * FIFO (objects 1-2, EoB on 2) takes them, with NewDat, IntPnd, Int0ID and
 * the interrupt line; reading with ClrIntPnd and NewDat clears both.
 */
static void test_send_receive(void)
{
    QTestState *qts = start_bus();

    qtest_irq_intercept_out_named(qts, DCAN0_PATH, "sysbus-irq");
    for (int obj = 1; obj <= 2; obj++) {
        obj_put(qts, 1, obj, 0, ARB_MSGVAL,
                MCTL_UMASK | MCTL_RXIE | (obj == 2 ? MCTL_EOB : 0), 0, 0);
    }
    g_assert_cmphex(rd(qts, 1, MSGVAL12), ==, 0x3);
    g_assert_cmphex(rd(qts, 1, MSGVAL_X), ==, 0x1);
    run(qts, 0);
    run(qts, 1);

    obj_put(qts, 0, 33, 0, ARB_MSGVAL | ARB_DIR | ARB_STD(0x123),
            MCTL_TXIE | MCTL_EOB | 4, 0xefbeadde, 0);
    g_assert_cmphex(rd(qts, 0, TXRQ12 + 4), ==, 0);
    wr(qts, 0, IF_CMD(0), CMD_WR | CMD_TXRQST_NEWDAT | 33);
    /* Sent at once: TxRqst gone, IntPnd, TxOK, the status interrupt */
    g_assert_cmphex(rd(qts, 0, TXRQ12 + 4), ==, 0);
    g_assert_cmphex(rd(qts, 0, INTPND34), ==, BIT(0));
    g_assert_cmphex(rd(qts, 0, INT), ==, 0x8000);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(rd(qts, 0, ES) & ES_TXOK, ==, ES_TXOK);
    g_assert_cmphex(rd(qts, 0, ES) & ES_TXOK, ==, 0);
    g_assert_cmphex(rd(qts, 0, INT), ==, 33);
    g_assert_true(qtest_get_irq(qts, 0));
    obj_get(qts, 0, 33, CMD_CONTROL | CMD_CLRINTPND);
    g_assert_cmphex(rd(qts, 0, IF_MCTL(1)) & MCTL_INTPND, ==, MCTL_INTPND);
    g_assert_cmphex(rd(qts, 0, INT), ==, 0);
    g_assert_false(qtest_get_irq(qts, 0));

    obj_put(qts, 0, 34, 0, ARB_MSGVAL | ARB_DIR | ARB_XTD | 0x1abcdef0,
            MCTL_EOB | 8, 0x04030201, 0x08070605);
    wr(qts, 0, IF_CMD(0), CMD_WR | CMD_TXRQST_NEWDAT | 34);

    g_assert_cmphex(rd(qts, 1, NWDAT12), ==, 0x3);
    g_assert_cmphex(rd(qts, 1, INTPND12), ==, 0x3);
    g_assert_cmphex(rd(qts, 1, ES) & ES_RXOK, ==, ES_RXOK);
    g_assert_cmphex(rd(qts, 1, INT), ==, 1);
    obj_get(qts, 1, 1, CMD_ALL | CMD_CLRINTPND | CMD_TXRQST_NEWDAT);
    g_assert_cmphex(rd(qts, 1, IF_ARB(1)), ==, ARB_MSGVAL | ARB_STD(0x123));
    g_assert_cmphex(rd(qts, 1, IF_MCTL(1)), ==,
                    MCTL_NEWDAT | MCTL_INTPND | MCTL_UMASK | MCTL_RXIE | 4);
    g_assert_cmphex(rd(qts, 1, IF_DATA(1)), ==, 0xefbeadde);
    obj_get(qts, 1, 2, CMD_ALL | CMD_CLRINTPND | CMD_TXRQST_NEWDAT);
    g_assert_cmphex(rd(qts, 1, IF_ARB(1)), ==,
                    ARB_MSGVAL | ARB_XTD | 0x1abcdef0);
    g_assert_cmphex(rd(qts, 1, IF_MCTL(1)) & 0xf, ==, 8);
    g_assert_cmphex(rd(qts, 1, IF_DATA(1)), ==, 0x04030201);
    g_assert_cmphex(rd(qts, 1, IF_DATB(1)), ==, 0x08070605);
    /* A 16-bit read of the upper half */
    g_assert_cmphex(qtest_readw(qts, dcan_base[1] + IF_DATB(1) + 2), ==,
                    0x0807);
    g_assert_cmphex(rd(qts, 1, NWDAT12), ==, 0);
    g_assert_cmphex(rd(qts, 1, INT), ==, 0);
    qtest_quit(qts);
}

/*
 * Acceptance: an object without UMask takes only its identifier; a
 * masked one the identifiers under its mask; a full FIFO end (EoB)
 * overwrites and flags MsgLst.
 */
static void test_filtering(void)
{
    QTestState *qts = start_bus();

    /* Object 1: exactly 0x100; object 2: 0x200-0x20f, EoB */
    obj_put(qts, 1, 1, 0, ARB_MSGVAL | ARB_STD(0x100), MCTL_EOB, 0, 0);
    obj_put(qts, 1, 2, MSK_MXTD | ARB_STD(0x7f0), ARB_MSGVAL | ARB_STD(0x200),
            MCTL_UMASK | MCTL_EOB, 0, 0);
    run(qts, 0);
    run(qts, 1);
    obj_put(qts, 0, 40, 0, ARB_MSGVAL | ARB_DIR | ARB_STD(0x101), 1, 1, 0);
    wr(qts, 0, IF_CMD(0), CMD_WR | CMD_TXRQST_NEWDAT | 40);
    g_assert_cmphex(rd(qts, 1, NWDAT12), ==, 0);
    obj_put(qts, 0, 40, 0, ARB_MSGVAL | ARB_DIR | ARB_STD(0x100), 1, 0x11,
            0);
    wr(qts, 0, IF_CMD(0), CMD_WR | CMD_TXRQST_NEWDAT | 40);
    g_assert_cmphex(rd(qts, 1, NWDAT12), ==, 0x1);
    /* Extended 0x200 << 18 does not pass MXtd */
    obj_put(qts, 0, 40, 0, ARB_MSGVAL | ARB_DIR | ARB_XTD | ARB_STD(0x20a),
            1, 0x22, 0);
    wr(qts, 0, IF_CMD(0), CMD_WR | CMD_TXRQST_NEWDAT | 40);
    g_assert_cmphex(rd(qts, 1, NWDAT12), ==, 0x1);
    for (int i = 0; i < 2; i++) {
        obj_put(qts, 0, 40, 0, ARB_MSGVAL | ARB_DIR | ARB_STD(0x20a + i), 1,
                0x33 + i, 0);
        wr(qts, 0, IF_CMD(0), CMD_WR | CMD_TXRQST_NEWDAT | 40);
    }
    g_assert_cmphex(rd(qts, 1, NWDAT12), ==, 0x3);
    obj_get(qts, 1, 2, CMD_ALL);
    g_assert_cmphex(rd(qts, 1, IF_ARB(1)), ==, ARB_MSGVAL | ARB_STD(0x20b));
    g_assert_cmphex(rd(qts, 1, IF_DATA(1)) & 0xff, ==, 0x34);
    g_assert_cmphex(rd(qts, 1, IF_MCTL(1)) & MCTL_MSGLST, ==, MCTL_MSGLST);
    qtest_quit(qts);
}

/*
 * A remote frame: D_CAN0's receive object with TxRqst sends it; D_CAN1's
 * transmit object with RmtEn answers with its data frame, which D_CAN0's
 * object then receives.
 */
static void test_remote_frame(void)
{
    QTestState *qts = start_bus();

    obj_put(qts, 1, 40, 0, ARB_MSGVAL | ARB_DIR | ARB_STD(0x55),
            MCTL_RMTEN | MCTL_EOB | 2, 0xbeef, 0);
    obj_put(qts, 0, 1, 0, ARB_MSGVAL | ARB_STD(0x55), MCTL_EOB, 0, 0);
    run(qts, 0);
    run(qts, 1);
    wr(qts, 0, IF_CMD(0), CMD_WR | CMD_TXRQST_NEWDAT | 1);
    g_assert_cmphex(rd(qts, 0, NWDAT12), ==, 0x1);
    obj_get(qts, 0, 1, CMD_ALL);
    g_assert_cmphex(rd(qts, 0, IF_MCTL(1)) & 0xf, ==, 2);
    g_assert_cmphex(rd(qts, 0, IF_DATA(1)), ==, 0xbeef);
    g_assert_cmphex(rd(qts, 0, IF_ARB(1)), ==, ARB_MSGVAL | ARB_STD(0x55));
    qtest_quit(qts);
}

/*
 * Test mode, alone on no bus: loopback receives the controller's own
 * frame; Init holds transmissions until it is cleared.
 */
static void test_loopback(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    wr(qts, 0, CTL, CTL_INIT | CTL_TEST);
    wr(qts, 0, TEST, TEST_LBACK | TEST_SILENT);
    g_assert_cmphex(rd(qts, 0, TEST), ==, TEST_LBACK | TEST_SILENT | TEST_RX);
    obj_put(qts, 0, 1, 0, ARB_MSGVAL, MCTL_UMASK | MCTL_EOB, 0, 0);
    obj_put(qts, 0, 33, 0, ARB_MSGVAL | ARB_DIR | ARB_STD(0x7ff),
            MCTL_EOB | 3, 0xabcdef, 0);
    wr(qts, 0, IF_CMD(0), CMD_WR | CMD_TXRQST_NEWDAT | 33);
    g_assert_cmphex(rd(qts, 0, TXRQ12 + 4), ==, BIT(0));
    g_assert_cmphex(rd(qts, 0, NWDAT12), ==, 0);
    wr(qts, 0, CTL, CTL_TEST);
    g_assert_cmphex(rd(qts, 0, TXRQ12 + 4), ==, 0);
    g_assert_cmphex(rd(qts, 0, NWDAT12), ==, 0x1);
    obj_get(qts, 0, 1, CMD_ALL);
    g_assert_cmphex(rd(qts, 0, IF_DATA(1)), ==, 0xabcdef);
    g_assert_cmphex(rd(qts, 0, IF_ARB(1)), ==, ARB_MSGVAL | ARB_STD(0x7ff));

    /* Without CTL.Test the TEST register keeps its value, write-protected */
    wr(qts, 0, CTL, 0);
    wr(qts, 0, TEST, 0);
    g_assert_cmphex(rd(qts, 0, TEST), ==, TEST_LBACK | TEST_SILENT | TEST_RX);
    qtest_quit(qts);
}

/* INTMUX routes an object's interrupt to Int1ID and the INT1 line */
static void test_intmux(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    qtest_irq_intercept_out_named(qts, DCAN0_PATH, "sysbus-irq");
    wr(qts, 0, INTMUX12, BIT(4));
    wr(qts, 0, CTL, CTL_IE0 | CTL_IE1);
    obj_put(qts, 0, 5, 0, 0, MCTL_INTPND, 0, 0);
    g_assert_cmphex(rd(qts, 0, INT), ==, 5 << 16);
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_true(qtest_get_irq(qts, 1));
    obj_put(qts, 0, 7, 0, 0, MCTL_INTPND, 0, 0);
    g_assert_cmphex(rd(qts, 0, INT), ==, (5 << 16) | 7);
    g_assert_true(qtest_get_irq(qts, 0));
    wr(qts, 0, CTL, CTL_IE1);
    g_assert_false(qtest_get_irq(qts, 0));
    qtest_quit(qts);
}

/*
 * BTR only under CCE and Init; SWR resets the registers, not the message
 * RAM, and clears itself; PDR gives PDA; a bad message number is ignored;
 * the driver's 16-bit writes reach the upper half of BTR.
 */
static void test_control(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    wr(qts, 0, BTR, 0x1c02);
    g_assert_cmphex(rd(qts, 0, BTR), ==, 0x2301);
    wr(qts, 0, CTL, CTL_INIT | CTL_CCE);
    qtest_writew(qts, dcan_base[0] + BTR, 0x1c02);
    qtest_writew(qts, dcan_base[0] + BTR + 2, 0x3);
    g_assert_cmphex(rd(qts, 0, BTR), ==, 0x31c02);

    obj_put(qts, 0, 64, 0, ARB_MSGVAL, 0, 0, 0);
    wr(qts, 0, IF_CMD(0), CMD_WR | CMD_ALL | 0);
    wr(qts, 0, IF_CMD(0), CMD_WR | CMD_ALL | 65);
    g_assert_cmphex(rd(qts, 0, MSGVAL34), ==, BIT(31));

    qtest_writew(qts, dcan_base[0] + CTL + 2, CTL_PDR >> 16);
    g_assert_cmphex(rd(qts, 0, ES) & ES_PDA, ==, ES_PDA);

    wr(qts, 0, CTL, CTL_SWR | CTL_INIT);
    g_assert_cmphex(rd(qts, 0, CTL), ==, 0x1401);
    g_assert_cmphex(rd(qts, 0, BTR), ==, 0x2301);
    g_assert_cmphex(rd(qts, 0, ES), ==, 7);
    g_assert_cmphex(rd(qts, 0, MSGVAL34), ==, BIT(31));
    qtest_quit(qts);
}

/*
 * Migrated with a received frame waiting in an object and IF2 loaded, the
 * destination shows the same object, interface and interrupt state.
 */
static void test_migration(void)
{
    QTestState *src, *dst;

    src = qtest_init("-M beaglebone-black");
    wr(src, 0, CTL, CTL_INIT | CTL_TEST);
    wr(src, 0, TEST, TEST_LBACK | TEST_SILENT);
    obj_put(src, 0, 3, 0, ARB_MSGVAL, MCTL_UMASK | MCTL_RXIE | MCTL_EOB, 0,
            0);
    obj_put(src, 0, 40, 0, ARB_MSGVAL | ARB_DIR | ARB_STD(0x42),
            MCTL_EOB | 2, 0x5a5a, 0);
    wr(src, 0, IF_CMD(0), CMD_WR | CMD_TXRQST_NEWDAT | 40);
    wr(src, 0, CTL, CTL_TEST | CTL_IE0);
    obj_get(src, 0, 40, CMD_ALL);
    g_assert_cmphex(rd(src, 0, INT), ==, 3);
    dst = am335x_migrate(src, "-M beaglebone-black");
    g_assert_cmphex(rd(dst, 0, CTL), ==, CTL_TEST | CTL_IE0);
    g_assert_cmphex(rd(dst, 0, TEST), ==, TEST_LBACK | TEST_SILENT | TEST_RX);
    g_assert_cmphex(rd(dst, 0, INT), ==, 3);
    g_assert_cmphex(rd(dst, 0, IF_ARB(1)), ==,
                    ARB_MSGVAL | ARB_DIR | ARB_STD(0x42));
    obj_get(dst, 0, 3, CMD_ALL | CMD_CLRINTPND | CMD_TXRQST_NEWDAT);
    g_assert_cmphex(rd(dst, 0, IF_DATA(1)), ==, 0x5a5a);
    g_assert_cmphex(rd(dst, 0, INT), ==, 0);
    qtest_quit(dst);
}

/*
 * With timing=on a frame takes its bits at the bit rate BTR sets: at
 * 500 kbit/s (BRP 2, TSeg1 12, TSeg2 1 from 24 MHz: 16 quanta of 125 ns)
 * a standard frame of 4 data bytes is 79 bits before stuffing, at most 95
 * with it (one stuff bit per 4 after the first 5 of the 66 stuffed bits).
 * The receiver has it when it ends; the next one follows.
 */
static void test_bus_timing(void)
{
    QTestState *qts = qtest_init("-object can-bus,id=cb "
                                 "-M beaglebone-black,timing=on,"
                                 "canbus0=cb,canbus1=cb");
    const int64_t bit_ns = 2000;

    for (int n = 0; n < 2; n++) {
        wr(qts, n, CTL, CTL_INIT | CTL_CCE);
        wr(qts, n, BTR, 0x1c02);
    }
    obj_put(qts, 1, 1, 0, ARB_MSGVAL, MCTL_UMASK, 0, 0);
    obj_put(qts, 1, 2, 0, ARB_MSGVAL, MCTL_UMASK | MCTL_EOB, 0, 0);
    run(qts, 0);
    run(qts, 1);
    obj_put(qts, 0, 33, 0, ARB_MSGVAL | ARB_DIR | ARB_STD(0x123),
            MCTL_EOB | 4, 0xefbeadde, 0);
    obj_put(qts, 0, 34, 0, ARB_MSGVAL | ARB_DIR | ARB_STD(0x124),
            MCTL_EOB | 4, 0xefbeadde, 0);
    wr(qts, 0, IF_CMD(0), CMD_WR | CMD_TXRQST_NEWDAT | 33);
    wr(qts, 0, IF_CMD(0), CMD_WR | CMD_TXRQST_NEWDAT | 34);
    g_assert_cmphex(rd(qts, 0, TXRQ12 + 4), ==, 0x3);

    qtest_clock_step(qts, 79 * bit_ns - 1);
    g_assert_cmphex(rd(qts, 0, TXRQ12 + 4), ==, 0x3);
    g_assert_cmphex(rd(qts, 1, NWDAT12), ==, 0);
    qtest_clock_step(qts, 16 * bit_ns + 1);
    g_assert_cmphex(rd(qts, 0, TXRQ12 + 4), ==, 0x2);
    g_assert_cmphex(rd(qts, 1, NWDAT12), ==, 0x1);
    qtest_clock_step(qts, 95 * bit_ns);
    g_assert_cmphex(rd(qts, 0, TXRQ12 + 4), ==, 0);
    g_assert_cmphex(rd(qts, 1, NWDAT12), ==, 0x3);

    /* A quarter of the bit rate: four times as long */
    wr(qts, 0, CTL, CTL_INIT | CTL_CCE);
    wr(qts, 0, BTR, 0x1c0b);
    run(qts, 0);
    wr(qts, 0, IF_CMD(0), CMD_WR | CMD_TXRQST_NEWDAT | 33);
    qtest_clock_step(qts, 4 * 79 * bit_ns - 1);
    g_assert_cmphex(rd(qts, 0, TXRQ12 + 4), ==, 0x1);
    qtest_clock_step(qts, 4 * 16 * bit_ns + 1);
    g_assert_cmphex(rd(qts, 0, TXRQ12 + 4), ==, 0);
    qtest_quit(qts);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);

    qtest_add_func("am335x/dcan/reset-values", test_reset_values);
    qtest_add_func("am335x/dcan/send-receive", test_send_receive);
    qtest_add_func("am335x/dcan/filtering", test_filtering);
    qtest_add_func("am335x/dcan/remote-frame", test_remote_frame);
    qtest_add_func("am335x/dcan/loopback", test_loopback);
    qtest_add_func("am335x/dcan/intmux", test_intmux);
    qtest_add_func("am335x/dcan/control", test_control);
    qtest_add_func("am335x/dcan/migration", test_migration);
    qtest_add_func("am335x/dcan/bus-timing", test_bus_timing);

    return g_test_run();
}
