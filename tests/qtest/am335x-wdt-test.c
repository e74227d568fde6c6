/*
 * QTest for the TI AM335x watchdog timer (WDT1)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/timer.h"
#include "libqtest.h"
#include "qobject/qdict.h"

#define WDT_BASE            0x44e35000
#define WDT_PATH            "/machine/soc/wdt"

/* TRM table 20-111 */
#define WIDR                0x00
#define WDSC                0x10
#define WDST                0x14
#define WISR                0x18
#define WIER                0x1c
#define WCLR                0x24
#define WCRR                0x28
#define WLDR                0x2c
#define WTGR                0x30
#define WWPS                0x34
#define WDLY                0x44
#define WSPR                0x48
#define WIRQSTATRAW         0x54
#define WIRQSTAT            0x58
#define WIRQENSET           0x5c
#define WIRQENCLR           0x60

#define WDSC_SOFTRESET      BIT(1)
#define WCLR_PRE            BIT(5)
#define WCLR_PTV(n)         ((n) << 2)
#define EVENT_OVF           BIT(0)
#define EVENT_DLY           BIT(1)

#define AM335X_WDT_REV      0x502a0501
#define WLDR_RESET          0xffff0000

/* PRCM */
#define CM_WKUP_WDT1_CLKCTRL 0x44e004d4
#define PRM_RSTST           0x44e00f08
#define RSTST_WDT1          BIT(4)

/* CLK_32KHZ, which CLKSEL_WDT1_CLK selects at reset */
#define FCLK_HZ             32768
#define SEC                 NANOSECONDS_PER_SECOND

static uint32_t wdt_read(QTestState *qts, uint32_t reg)
{
    return qtest_readl(qts, WDT_BASE + reg);
}

static void wdt_write(QTestState *qts, uint32_t reg, uint32_t value)
{
    qtest_writel(qts, WDT_BASE + reg, value);
}

static void wdt_start(QTestState *qts)
{
    wdt_write(qts, WSPR, 0xbbbb);
    wdt_write(qts, WSPR, 0x4444);
}

static void wdt_stop(QTestState *qts)
{
    wdt_write(qts, WSPR, 0xaaaa);
    wdt_write(qts, WSPR, 0x5555);
}

/* Nanoseconds for @ticks of the functional clock, plus a quarter tick. */
static int64_t ticks_ns(uint64_t ticks)
{
    return (ticks * SEC + SEC / 4) / FCLK_HZ;
}

static QTestState *start_args(const char *args)
{
    QTestState *qts = qtest_initf("-M beaglebone-black %s", args);

    /* The PRCM gates the functional clock until MODULEMODE is enabled. */
    qtest_writel(qts, CM_WKUP_WDT1_CLKCTRL, 2);
    return qts;
}

static QTestState *start(void)
{
    return start_args("-action watchdog=none");
}

static void test_reset_values(void)
{
    QTestState *qts = start();

    g_assert_cmphex(wdt_read(qts, WIDR), ==, AM335X_WDT_REV);
    g_assert_cmphex(wdt_read(qts, WDSC), ==, 0x10);
    g_assert_cmphex(wdt_read(qts, WDST), ==, 1);
    g_assert_cmphex(wdt_read(qts, WISR), ==, 0);
    g_assert_cmphex(wdt_read(qts, WIER), ==, 0);
    g_assert_cmphex(wdt_read(qts, WCLR), ==, WCLR_PRE);
    g_assert_cmphex(wdt_read(qts, WCRR), ==, WLDR_RESET);
    g_assert_cmphex(wdt_read(qts, WLDR), ==, WLDR_RESET);
    g_assert_cmphex(wdt_read(qts, WTGR), ==, 0);
    g_assert_cmphex(wdt_read(qts, WWPS), ==, 0);
    g_assert_cmphex(wdt_read(qts, WDLY), ==, 0);
    g_assert_cmphex(wdt_read(qts, WSPR), ==, 0);
    g_assert_cmphex(wdt_read(qts, WIRQSTATRAW), ==, 0);
    g_assert_cmphex(wdt_read(qts, WIRQSTAT), ==, 0);
    g_assert_cmphex(wdt_read(qts, WIRQENSET), ==, 0);
    g_assert_cmphex(wdt_read(qts, WIRQENCLR), ==, 0);

    /* Stopped, as the SPL leaves it: nothing counts, nothing expires. */
    qtest_clock_step(qts, 5 * SEC);
    g_assert_cmphex(wdt_read(qts, WCRR), ==, WLDR_RESET);
    g_assert_cmphex(wdt_read(qts, WISR), ==, 0);

    qtest_quit(qts);
}

static void test_start_stop(void)
{
    QTestState *qts = start();

    /* Divide by 4; the counter is writable while stopped */
    wdt_write(qts, WCLR, WCLR_PRE | WCLR_PTV(2));
    wdt_write(qts, WCRR, 0);
    g_assert_cmphex(wdt_read(qts, WCRR), ==, 0);

    wdt_start(qts);
    g_assert_cmphex(wdt_read(qts, WSPR), ==, 0x4444);
    qtest_clock_step(qts, SEC);
    g_assert_cmphex(wdt_read(qts, WCRR), ==, FCLK_HZ / 4);

    wdt_stop(qts);
    qtest_clock_step(qts, SEC);
    g_assert_cmphex(wdt_read(qts, WCRR), ==, FCLK_HZ / 4);

    /* Other sequences do nothing */
    wdt_write(qts, WSPR, 0xbbbb);
    wdt_write(qts, WSPR, 0x1234);
    wdt_write(qts, WSPR, 0x4444);
    qtest_clock_step(qts, SEC);
    g_assert_cmphex(wdt_read(qts, WCRR), ==, FCLK_HZ / 4);

    /* The upper half of WSPR is don't care */
    wdt_write(qts, WSPR, 0xffffbbbb);
    wdt_write(qts, WSPR, 0x00014444);
    qtest_clock_step(qts, SEC);
    g_assert_cmphex(wdt_read(qts, WCRR), ==, FCLK_HZ / 2);

    /* A stop sequence interrupted by another write does not stop it */
    wdt_write(qts, WSPR, 0xaaaa);
    wdt_write(qts, WSPR, 0);
    wdt_write(qts, WSPR, 0x5555);
    qtest_clock_step(qts, SEC);
    g_assert_cmphex(wdt_read(qts, WCRR), ==, 3 * FCLK_HZ / 4);

    qtest_quit(qts);
}

/* TRM table 20-103 */
static void test_prescaler(void)
{
    static const struct {
        uint32_t wclr;
        uint32_t per_sec;
    } cases[] = {
        { 0, FCLK_HZ },
        { WCLR_PTV(7), FCLK_HZ },
        { WCLR_PRE, FCLK_HZ },
        { WCLR_PRE | WCLR_PTV(1), FCLK_HZ / 2 },
        { WCLR_PRE | WCLR_PTV(7), FCLK_HZ / 128 },
    };
    QTestState *qts = start();

    for (int i = 0; i < ARRAY_SIZE(cases); i++) {
        wdt_stop(qts);
        wdt_write(qts, WCLR, cases[i].wclr);
        g_assert_cmphex(wdt_read(qts, WCLR), ==, cases[i].wclr);
        wdt_write(qts, WCRR, 0);
        wdt_start(qts);
        qtest_clock_step(qts, SEC);
        g_assert_cmphex(wdt_read(qts, WCRR), ==, cases[i].per_sec);
    }

    qtest_quit(qts);
}

/* TRM 20.4.3.7: a WTGR value that differs from the last one reloads. */
static void test_trigger(void)
{
    QTestState *qts = start();

    wdt_write(qts, WLDR, 0x1000);
    g_assert_cmphex(wdt_read(qts, WCRR), ==, WLDR_RESET);
    wdt_write(qts, WTGR, 1);
    g_assert_cmphex(wdt_read(qts, WTGR), ==, 1);
    g_assert_cmphex(wdt_read(qts, WCRR), ==, 0x1000);

    wdt_start(qts);
    qtest_clock_step(qts, SEC);
    g_assert_cmphex(wdt_read(qts, WCRR), ==, 0x1000 + FCLK_HZ);
    /* The same value again does nothing */
    wdt_write(qts, WTGR, 1);
    g_assert_cmphex(wdt_read(qts, WCRR), ==, 0x1000 + FCLK_HZ);
    wdt_write(qts, WTGR, 2);
    g_assert_cmphex(wdt_read(qts, WCRR), ==, 0x1000);
    qtest_clock_step(qts, SEC / 2);
    g_assert_cmphex(wdt_read(qts, WCRR), ==, 0x1000 + FCLK_HZ / 2);

    qtest_quit(qts);
}

/* TRM 20.4.3.9: the watchdog must be stopped to change its counter. */
static void test_write_while_running(void)
{
    QTestState *qts = start();

    wdt_write(qts, WCRR, 0);
    wdt_start(qts);
    wdt_write(qts, WCRR, 0x12345678);
    qtest_clock_step(qts, SEC);
    g_assert_cmphex(wdt_read(qts, WCRR), ==, FCLK_HZ);

    /* A new prescaler ratio waits for the next reload */
    wdt_write(qts, WLDR, 0);
    wdt_write(qts, WCLR, WCLR_PRE | WCLR_PTV(1));
    g_assert_cmphex(wdt_read(qts, WCLR), ==, WCLR_PRE | WCLR_PTV(1));
    qtest_clock_step(qts, SEC);
    g_assert_cmphex(wdt_read(qts, WCRR), ==, 2 * FCLK_HZ);
    wdt_write(qts, WTGR, 0x5a5a);
    qtest_clock_step(qts, SEC);
    g_assert_cmphex(wdt_read(qts, WCRR), ==, FCLK_HZ / 2);

    qtest_quit(qts);
}

/* Expiry: the overflow interrupt, the QMP event, a reload from WLDR */
static void test_expiry(void)
{
    QTestState *qts = start();
    uint32_t one_sec = 0u - FCLK_HZ;
    QDict *event;

    qtest_irq_intercept_out_named(qts, WDT_PATH, "sysbus-irq");
    wdt_write(qts, WLDR, one_sec);
    wdt_write(qts, WTGR, 0x1234);
    wdt_write(qts, WIRQENSET, EVENT_OVF);
    g_assert_cmphex(wdt_read(qts, WIER), ==, EVENT_OVF);
    wdt_start(qts);

    qtest_clock_step(qts, ticks_ns(FCLK_HZ - 1));
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_cmphex(wdt_read(qts, WCRR), ==, 0xffffffff);
    qtest_clock_step(qts, ticks_ns(1));

    event = qtest_qmp_eventwait_ref(qts, "WATCHDOG");
    g_assert_cmpstr(qdict_get_str(qdict_get_qdict(event, "data"), "action"),
                    ==, "none");
    qobject_unref(event);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(wdt_read(qts, WISR), ==, EVENT_OVF);
    g_assert_cmphex(wdt_read(qts, WIRQSTATRAW), ==, EVENT_OVF);
    g_assert_cmphex(wdt_read(qts, WIRQSTAT), ==, EVENT_OVF);
    /* Reloaded, and counting again */
    g_assert_cmphex(wdt_read(qts, WCRR), ==, one_sec);
    qtest_clock_step(qts, SEC / 2);
    g_assert_cmphex(wdt_read(qts, WCRR), ==, one_sec + FCLK_HZ / 2);

    /* WIRQSTAT and WISR clear the raw status */
    wdt_write(qts, WIRQSTAT, EVENT_OVF);
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_cmphex(wdt_read(qts, WIRQSTATRAW), ==, 0);

    /* Masked, the status is set but the line stays low */
    wdt_write(qts, WIRQENCLR, EVENT_OVF);
    g_assert_cmphex(wdt_read(qts, WIRQENSET), ==, 0);
    qtest_clock_step(qts, SEC / 2);
    qtest_qmp_eventwait(qts, "WATCHDOG");
    g_assert_cmphex(wdt_read(qts, WIRQSTATRAW), ==, EVENT_OVF);
    g_assert_cmphex(wdt_read(qts, WIRQSTAT), ==, 0);
    g_assert_false(qtest_get_irq(qts, 0));
    wdt_write(qts, WISR, EVENT_OVF);
    g_assert_cmphex(wdt_read(qts, WIRQSTATRAW), ==, 0);

    /* WIRQSTATRAW sets status bits, for debug */
    wdt_write(qts, WIER, EVENT_OVF | EVENT_DLY);
    wdt_write(qts, WIRQSTATRAW, EVENT_DLY);
    g_assert_true(qtest_get_irq(qts, 0));
    wdt_write(qts, WIRQSTAT, EVENT_DLY);
    g_assert_false(qtest_get_irq(qts, 0));

    qtest_quit(qts);
}

/* The delay event: the counter reaching WDLY */
static void test_delay(void)
{
    QTestState *qts = start();
    uint32_t one_sec = 0u - FCLK_HZ;

    qtest_irq_intercept_out_named(qts, WDT_PATH, "sysbus-irq");
    wdt_write(qts, WLDR, one_sec);
    wdt_write(qts, WDLY, one_sec + FCLK_HZ / 2);
    wdt_write(qts, WTGR, 1);
    wdt_write(qts, WIRQENSET, EVENT_DLY);
    wdt_start(qts);

    qtest_clock_step(qts, ticks_ns(FCLK_HZ / 2 - 1));
    g_assert_false(qtest_get_irq(qts, 0));
    qtest_clock_step(qts, ticks_ns(1));
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(wdt_read(qts, WISR), ==, EVENT_DLY);
    wdt_write(qts, WISR, EVENT_DLY);
    g_assert_false(qtest_get_irq(qts, 0));

    /* A reload before WDLY is reached means no event */
    wdt_write(qts, WTGR, 2);
    qtest_clock_step(qts, ticks_ns(FCLK_HZ / 4));
    wdt_write(qts, WTGR, 3);
    qtest_clock_step(qts, ticks_ns(FCLK_HZ / 4));
    g_assert_cmphex(wdt_read(qts, WISR), ==, 0);
    g_assert_false(qtest_get_irq(qts, 0));

    /* Nor is there one with WDLY below WLDR */
    wdt_write(qts, WDLY, one_sec - 1);
    qtest_clock_step(qts, SEC);
    g_assert_cmphex(wdt_read(qts, WISR) & EVENT_DLY, ==, 0);

    qtest_quit(qts);
}

/*
 * The default action resets the machine; the PRCM logs WDT1_RST, and the
 * watchdog comes back stopped.
 */
static void test_reset(void)
{
    QTestState *qts = start_args("");
    QDict *event;

    qtest_writel(qts, PRM_RSTST, 0xffffffff);
    g_assert_cmphex(qtest_readl(qts, PRM_RSTST), ==, 0);

    wdt_write(qts, WLDR, 0u - FCLK_HZ);
    wdt_write(qts, WTGR, 1);
    wdt_start(qts);
    qtest_clock_step(qts, SEC / 2);
    g_assert_cmphex(qtest_readl(qts, PRM_RSTST), ==, 0);
    qtest_clock_step(qts, SEC / 2 + ticks_ns(1));

    event = qtest_qmp_eventwait_ref(qts, "WATCHDOG");
    g_assert_cmpstr(qdict_get_str(qdict_get_qdict(event, "data"), "action"),
                    ==, "reset");
    qobject_unref(event);
    qtest_qmp_eventwait(qts, "RESET");

    g_assert_cmphex(qtest_readl(qts, PRM_RSTST), ==, RSTST_WDT1);
    g_assert_cmphex(wdt_read(qts, WLDR), ==, WLDR_RESET);
    g_assert_cmphex(wdt_read(qts, WSPR), ==, 0);
    qtest_writel(qts, CM_WKUP_WDT1_CLKCTRL, 2);
    qtest_clock_step(qts, SEC);
    g_assert_cmphex(wdt_read(qts, WCRR), ==, WLDR_RESET);

    qtest_quit(qts);
}

/*
 * A soft reset restores the reset values and, as on the silicon, leaves the
 * watchdog running: ti-sysc stops it again after each soft reset.
 */
static void test_softreset(void)
{
    QTestState *qts = start();

    wdt_write(qts, WLDR, 0x1000);
    wdt_write(qts, WCLR, 0);
    wdt_write(qts, WIER, EVENT_OVF);
    wdt_write(qts, WDSC, 0x28);
    g_assert_cmphex(wdt_read(qts, WDSC), ==, 0x28);

    wdt_write(qts, WDSC, WDSC_SOFTRESET);
    g_assert_cmphex(wdt_read(qts, WDST), ==, 1);
    g_assert_cmphex(wdt_read(qts, WDSC), ==, 0x10);
    g_assert_cmphex(wdt_read(qts, WLDR), ==, WLDR_RESET);
    g_assert_cmphex(wdt_read(qts, WCLR), ==, WCLR_PRE);
    g_assert_cmphex(wdt_read(qts, WIER), ==, 0);
    qtest_clock_step(qts, SEC / 4);
    g_assert_cmphex(wdt_read(qts, WCRR), ==, WLDR_RESET + FCLK_HZ / 4);

    /* What ti-sysc does next */
    wdt_stop(qts);
    qtest_clock_step(qts, 4 * SEC);
    g_assert_cmphex(wdt_read(qts, WCRR), ==, WLDR_RESET + FCLK_HZ / 4);

    qtest_quit(qts);
}

/* MODULEMODE disabled gates the functional clock: the counter freezes. */
static void test_gated_clock(void)
{
    QTestState *qts = start();

    wdt_write(qts, WCRR, 0);
    wdt_start(qts);
    qtest_clock_step(qts, SEC);
    g_assert_cmphex(wdt_read(qts, WCRR), ==, FCLK_HZ);

    qtest_writel(qts, CM_WKUP_WDT1_CLKCTRL, 0);
    qtest_clock_step(qts, SEC);
    g_assert_cmphex(wdt_read(qts, WCRR), ==, FCLK_HZ);

    qtest_writel(qts, CM_WKUP_WDT1_CLKCTRL, 2);
    qtest_clock_step(qts, SEC);
    g_assert_cmphex(wdt_read(qts, WCRR), ==, 2 * FCLK_HZ);

    qtest_quit(qts);
}

/* TRM 20.4.3.10: 16-bit reads of WCRR go through a shadow register. */
static void test_16bit_access(void)
{
    QTestState *qts = start();
    uint16_t hi;

    wdt_write(qts, WCRR, 0x1234fff0);
    wdt_start(qts);
    g_assert_cmphex(qtest_readw(qts, WDT_BASE + WCRR), ==, 0xfff0);
    /* The counter carries into the upper half meanwhile... */
    qtest_clock_step(qts, ticks_ns(0x20));
    /* ...but the shadow keeps the value the low-half read latched */
    hi = qtest_readw(qts, WDT_BASE + WCRR + 2);
    g_assert_cmphex(hi, ==, 0x1234);
    g_assert_cmphex(wdt_read(qts, WCRR), ==, 0x12350010);

    g_assert_cmphex(qtest_readw(qts, WDT_BASE + WIDR), ==, 0x0501);
    g_assert_cmphex(qtest_readw(qts, WDT_BASE + WIDR + 2), ==, 0x502a);

    /* The start/stop sequence in 16-bit writes */
    qtest_writew(qts, WDT_BASE + WSPR, 0xaaaa);
    qtest_writew(qts, WDT_BASE + WSPR, 0x5555);
    qtest_clock_step(qts, SEC);
    g_assert_cmphex(wdt_read(qts, WCRR), ==, 0x12350010);

    /* 8-bit writes are not allowed: ignored */
    qtest_writeb(qts, WDT_BASE + WLDR, 0x55);
    g_assert_cmphex(wdt_read(qts, WLDR), ==, WLDR_RESET);

    qtest_quit(qts);
}

static void test_bad_offsets(void)
{
    QTestState *qts = start();

    g_assert_cmphex(wdt_read(qts, 0x04), ==, 0);
    g_assert_cmphex(wdt_read(qts, 0x20), ==, 0);
    g_assert_cmphex(wdt_read(qts, 0x50), ==, 0);
    g_assert_cmphex(wdt_read(qts, 0xffc), ==, 0);
    wdt_write(qts, 0x20, 0xffffffff);
    wdt_write(qts, WIDR, 0);
    wdt_write(qts, WWPS, 0xff);
    g_assert_cmphex(wdt_read(qts, WIDR), ==, AM335X_WDT_REV);
    g_assert_cmphex(wdt_read(qts, WWPS), ==, 0);

    qtest_quit(qts);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);

    qtest_add_func("am335x/wdt/reset-values", test_reset_values);
    qtest_add_func("am335x/wdt/start-stop", test_start_stop);
    qtest_add_func("am335x/wdt/prescaler", test_prescaler);
    qtest_add_func("am335x/wdt/trigger", test_trigger);
    qtest_add_func("am335x/wdt/write-while-running",
                   test_write_while_running);
    qtest_add_func("am335x/wdt/expiry", test_expiry);
    qtest_add_func("am335x/wdt/delay", test_delay);
    qtest_add_func("am335x/wdt/reset", test_reset);
    qtest_add_func("am335x/wdt/softreset", test_softreset);
    qtest_add_func("am335x/wdt/gated-clock", test_gated_clock);
    qtest_add_func("am335x/wdt/16bit-access", test_16bit_access);
    qtest_add_func("am335x/wdt/bad-offsets", test_bad_offsets);

    return g_test_run();
}
