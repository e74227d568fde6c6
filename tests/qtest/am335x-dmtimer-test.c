/*
 * QTest for the TI AM335x DMTimer (DMTIMER0-7, including DMTIMER1_1MS)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "libqtest.h"

/* TRM table 2-2 and 2-3 */
static const uint64_t timer_base[] = {
    0x44e05000, 0x44e31000, 0x48040000, 0x48042000,
    0x48044000, 0x48046000, 0x48048000, 0x4804a000,
};

/* DMTIMER0, DMTIMER2-7 (TRM table 20-10) */
#define TIDR            0x00
#define TIOCP_CFG       0x10
#define IRQ_EOI         0x20
#define IRQSTATUS_RAW   0x24
#define IRQSTATUS       0x28
#define IRQENABLE_SET   0x2c
#define IRQENABLE_CLR   0x30
#define IRQWAKEEN       0x34
#define TCLR            0x38
#define TCRR            0x3c
#define TLDR            0x40
#define TTGR            0x44
#define TWPS            0x48
#define TMAR            0x4c
#define TCAR1           0x50
#define TSICR           0x54
#define TCAR2           0x58

/* DMTIMER1_1MS (TRM table 20-35) */
#define MS_TIOCP_CFG    0x10
#define MS_TISTAT       0x14
#define MS_TISR         0x18
#define MS_TIER         0x1c
#define MS_TWER         0x20
#define MS_TCLR         0x24
#define MS_TCRR         0x28
#define MS_TLDR         0x2c
#define MS_TTGR         0x30
#define MS_TWPS         0x34
#define MS_TMAR         0x38
#define MS_TCAR1        0x3c
#define MS_TSICR        0x40
#define MS_TCAR2        0x44
#define MS_TPIR         0x48
#define MS_TNIR         0x4c
#define MS_TCVR         0x50
#define MS_TOCR         0x54
#define MS_TOWR         0x58

/* TCLR */
#define ST              BIT(0)
#define AR              BIT(1)
#define PTV(n)          ((n) << 2)
#define PRE             BIT(5)
#define CE              BIT(6)
#define TCM_RISING      (1 << 8)
#define TCM_BOTH        (3 << 8)
#define CAPT_MODE       BIT(13)

/* Interrupt bits */
#define MAT             BIT(0)
#define OVF             BIT(1)
#define TCAR            BIT(2)

/* TSICR */
#define SFT             BIT(1)
#define POSTED          BIT(2)

#define AM335X_DMTIMER_REV      0x4fff1301
#define AM335X_DMTIMER_1MS_REV  0x00000015

/* CLK_M_OSC on the BeagleBone Black; timers 2-7 select it at reset. */
#define FCLK_HZ         24000000
#define MS              (1000 * 1000)
#define US              1000

static uint32_t tm_read(QTestState *qts, int t, uint32_t reg)
{
    return qtest_readl(qts, timer_base[t] + reg);
}

static void tm_write(QTestState *qts, int t, uint32_t reg, uint32_t value)
{
    qtest_writel(qts, timer_base[t] + reg, value);
}

static char *tm_path(int t)
{
    return g_strdup_printf("/machine/soc/timer[%d]", t);
}

/* PRCM CLKCTRL registers of DMTIMER0..7 (TRM chapter 8) */
static const uint32_t timer_clkctrl[8] = {
    0x44e00410, 0x44e004c4, 0x44e00080, 0x44e00084,
    0x44e00088, 0x44e000ec, 0x44e000f0, 0x44e0007c,
};

/* The PRCM gates each timer's clock until its MODULEMODE is enabled. */
static QTestState *start(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    for (int i = 0; i < 8; i++) {
        qtest_writel(qts, timer_clkctrl[i], 2);
    }
    return qts;
}

/* Nanoseconds for @ticks of @hz, plus a fraction of a tick as margin. */
static int64_t ticks_ns(uint64_t ticks, uint64_t hz)
{
    return (ticks * 1000000000ULL + 1000000000ULL / 4) / hz;
}

static void test_reset_values(void)
{
    QTestState *qts = start();

    for (int t = 0; t < ARRAY_SIZE(timer_base); t++) {
        if (t == 1) {
            continue;
        }
        g_assert_cmphex(tm_read(qts, t, TIDR), ==, AM335X_DMTIMER_REV);
        g_assert_cmphex(tm_read(qts, t, TIOCP_CFG), ==, 0);
        g_assert_cmphex(tm_read(qts, t, IRQ_EOI), ==, 0);
        g_assert_cmphex(tm_read(qts, t, IRQSTATUS_RAW), ==, 0);
        g_assert_cmphex(tm_read(qts, t, IRQSTATUS), ==, 0);
        g_assert_cmphex(tm_read(qts, t, IRQENABLE_SET), ==, 0);
        g_assert_cmphex(tm_read(qts, t, IRQENABLE_CLR), ==, 0);
        g_assert_cmphex(tm_read(qts, t, IRQWAKEEN), ==, 0);
        g_assert_cmphex(tm_read(qts, t, TCLR), ==, 0);
        g_assert_cmphex(tm_read(qts, t, TCRR), ==, 0);
        g_assert_cmphex(tm_read(qts, t, TLDR), ==, 0);
        g_assert_cmphex(tm_read(qts, t, TTGR), ==, 0xffffffff);
        g_assert_cmphex(tm_read(qts, t, TWPS), ==, 0);
        g_assert_cmphex(tm_read(qts, t, TMAR), ==, 0);
        g_assert_cmphex(tm_read(qts, t, TCAR1), ==, 0);
        g_assert_cmphex(tm_read(qts, t, TSICR), ==, POSTED);
        g_assert_cmphex(tm_read(qts, t, TCAR2), ==, 0);
    }

    g_assert_cmphex(tm_read(qts, 1, TIDR), ==, AM335X_DMTIMER_1MS_REV);
    g_assert_cmphex(tm_read(qts, 1, MS_TIOCP_CFG), ==, 0);
    g_assert_cmphex(tm_read(qts, 1, MS_TISTAT), ==, 1);
    g_assert_cmphex(tm_read(qts, 1, MS_TISR), ==, 0);
    g_assert_cmphex(tm_read(qts, 1, MS_TIER), ==, 0);
    g_assert_cmphex(tm_read(qts, 1, MS_TWER), ==, 0);
    g_assert_cmphex(tm_read(qts, 1, MS_TCLR), ==, 0);
    g_assert_cmphex(tm_read(qts, 1, MS_TCRR), ==, 0);
    g_assert_cmphex(tm_read(qts, 1, MS_TLDR), ==, 0);
    g_assert_cmphex(tm_read(qts, 1, MS_TTGR), ==, 0xffffffff);
    g_assert_cmphex(tm_read(qts, 1, MS_TWPS), ==, 0);
    g_assert_cmphex(tm_read(qts, 1, MS_TMAR), ==, 0);
    g_assert_cmphex(tm_read(qts, 1, MS_TCAR1), ==, 0);
    g_assert_cmphex(tm_read(qts, 1, MS_TSICR), ==, POSTED);
    g_assert_cmphex(tm_read(qts, 1, MS_TCAR2), ==, 0);
    g_assert_cmphex(tm_read(qts, 1, MS_TPIR), ==, 0);
    g_assert_cmphex(tm_read(qts, 1, MS_TNIR), ==, 0);
    g_assert_cmphex(tm_read(qts, 1, MS_TCVR), ==, 0);
    g_assert_cmphex(tm_read(qts, 1, MS_TOCR), ==, 0);
    g_assert_cmphex(tm_read(qts, 1, MS_TOWR), ==, 0);

    qtest_quit(qts);
}

/* A stopped timer holds its count; a started one counts fclk ticks. */
static void test_count_rate(void)
{
    QTestState *qts = start();

    for (int t = 2; t < ARRAY_SIZE(timer_base); t++) {
        tm_write(qts, t, TCRR, 1000);
    }
    qtest_clock_step(qts, MS);
    for (int t = 2; t < ARRAY_SIZE(timer_base); t++) {
        g_assert_cmpuint(tm_read(qts, t, TCRR), ==, 1000);
        tm_write(qts, t, TCLR, ST);
    }
    qtest_clock_step(qts, MS);
    for (int t = 2; t < ARRAY_SIZE(timer_base); t++) {
        g_assert_cmpuint(tm_read(qts, t, TCRR), ==, 1000 + FCLK_HZ / 1000);
    }

    /* Stopping freezes the count; starting again continues from it. */
    tm_write(qts, 2, TCLR, 0);
    qtest_clock_step(qts, MS);
    g_assert_cmpuint(tm_read(qts, 2, TCRR), ==, 1000 + FCLK_HZ / 1000);
    tm_write(qts, 2, TCLR, ST);
    qtest_clock_step(qts, 10 * MS);
    g_assert_cmpuint(tm_read(qts, 2, TCRR), ==, 1000 + 11 * FCLK_HZ / 1000);

    qtest_quit(qts);
}

static void test_prescaler(void)
{
    QTestState *qts = start();

    /* PRE with PTV = n divides by 2^(n + 1) (TRM table 20-7). */
    for (int n = 0; n < 6; n++) {
        tm_write(qts, 2 + n, TCLR, ST | PRE | PTV(n));
    }
    qtest_clock_step(qts, 4 * MS);
    for (int n = 0; n < 6; n++) {
        g_assert_cmpuint(tm_read(qts, 2 + n, TCRR), ==,
                         (4 * FCLK_HZ / 1000) >> (n + 1));
    }

    /* Changing the divisor on the fly keeps the count reached so far. */
    tm_write(qts, 2, TCLR, ST);
    qtest_clock_step(qts, MS);
    g_assert_cmpuint(tm_read(qts, 2, TCRR), ==,
                     (4 * FCLK_HZ / 1000) / 2 + FCLK_HZ / 1000);

    qtest_quit(qts);
}

/* Auto-reload: an overflow interrupt every (2^32 - TLDR) ticks. */
static void test_periodic(void)
{
    QTestState *qts = start();
    g_autofree char *path = tm_path(2);
    const uint32_t period = FCLK_HZ / 1000;
    int64_t t0;

    qtest_irq_intercept_out_named(qts, path, "sysbus-irq");
    tm_write(qts, 2, TLDR, -period);
    tm_write(qts, 2, TTGR, 0);
    g_assert_cmphex(tm_read(qts, 2, TCRR), ==, -period);
    tm_write(qts, 2, IRQENABLE_SET, OVF);
    tm_write(qts, 2, TCLR, ST | AR);
    t0 = qtest_clock_step(qts, 1);

    for (int i = 1; i <= 8; i++) {
        qtest_clock_set(qts, t0 + i * MS - 2 * US);
        g_assert_false(qtest_get_irq(qts, 0));
        g_assert_cmphex(tm_read(qts, 2, IRQSTATUS_RAW), ==, 0);
        qtest_clock_step(qts, 4 * US);
        g_assert_true(qtest_get_irq(qts, 0));
        g_assert_cmphex(tm_read(qts, 2, IRQSTATUS), ==, OVF);
        /* Reloaded from TLDR, then 2 us of counting */
        g_assert_cmphex(tm_read(qts, 2, TCRR), ==, -period + 2 * FCLK_HZ / MS);
        tm_write(qts, 2, IRQSTATUS, OVF);
        g_assert_false(qtest_get_irq(qts, 0));
    }

    qtest_quit(qts);
}

/* One-shot: the counter stops at 0 on overflow and ST clears itself. */
static void test_one_shot(void)
{
    QTestState *qts = start();
    g_autofree char *path = tm_path(4);

    qtest_irq_intercept_out_named(qts, path, "sysbus-irq");
    tm_write(qts, 4, TLDR, 0x12345678);
    tm_write(qts, 4, TCRR, -(FCLK_HZ / 10000));      /* 100 us */
    tm_write(qts, 4, IRQENABLE_SET, OVF);
    tm_write(qts, 4, TCLR, ST);
    qtest_clock_step(qts, 99 * US);
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_cmphex(tm_read(qts, 4, TCLR), ==, ST);
    qtest_clock_step(qts, 2 * US);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(tm_read(qts, 4, TCLR), ==, 0);
    g_assert_cmphex(tm_read(qts, 4, TCRR), ==, 0);
    qtest_clock_step(qts, 10 * MS);
    g_assert_cmphex(tm_read(qts, 4, TCRR), ==, 0);
    g_assert_cmphex(tm_read(qts, 4, IRQSTATUS_RAW), ==, OVF);

    /* Re-arming the way Linux's clockevent does: TCRR, then TCLR = ST. */
    tm_write(qts, 4, IRQSTATUS, OVF);
    g_assert_false(qtest_get_irq(qts, 0));
    tm_write(qts, 4, TCRR, -(FCLK_HZ / 1000));
    tm_write(qts, 4, TCLR, ST);
    qtest_clock_step(qts, MS - US);
    g_assert_false(qtest_get_irq(qts, 0));
    qtest_clock_step(qts, 2 * US);
    g_assert_true(qtest_get_irq(qts, 0));

    qtest_quit(qts);
}

static void test_compare_match(void)
{
    QTestState *qts = start();
    g_autofree char *path = tm_path(5);

    qtest_irq_intercept_out_named(qts, path, "sysbus-irq");
    tm_write(qts, 5, TMAR, FCLK_HZ / 1000);
    tm_write(qts, 5, IRQENABLE_SET, MAT);
    tm_write(qts, 5, TCLR, ST | CE);
    qtest_clock_step(qts, MS - US);
    g_assert_false(qtest_get_irq(qts, 0));
    qtest_clock_step(qts, 2 * US);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(tm_read(qts, 5, IRQSTATUS), ==, MAT);
    tm_write(qts, 5, IRQSTATUS, MAT);
    g_assert_false(qtest_get_irq(qts, 0));

    /* The counter runs on past TMAR without matching again. */
    qtest_clock_step(qts, 10 * MS);
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_cmpuint(tm_read(qts, 5, TCRR), ==, 11 * FCLK_HZ / 1000 + 24);

    /* Without CE, reaching TMAR does nothing. */
    tm_write(qts, 5, TCLR, ST);
    tm_write(qts, 5, TMAR, 12 * FCLK_HZ / 1000);
    qtest_clock_step(qts, 2 * MS);
    g_assert_cmphex(tm_read(qts, 5, IRQSTATUS_RAW), ==, 0);

    qtest_quit(qts);
}

static void test_status_w1c(void)
{
    QTestState *qts = start();
    g_autofree char *path = tm_path(3);

    qtest_irq_intercept_out_named(qts, path, "sysbus-irq");

    /* IRQSTATUS_RAW: write 1 to set, for debug (TRM table 20-14) */
    tm_write(qts, 3, IRQSTATUS_RAW, 0xffffffff);
    g_assert_cmphex(tm_read(qts, 3, IRQSTATUS_RAW), ==, MAT | OVF | TCAR);
    g_assert_cmphex(tm_read(qts, 3, IRQSTATUS), ==, 0);
    g_assert_false(qtest_get_irq(qts, 0));

    tm_write(qts, 3, IRQENABLE_SET, OVF);
    g_assert_cmphex(tm_read(qts, 3, IRQENABLE_SET), ==, OVF);
    g_assert_cmphex(tm_read(qts, 3, IRQENABLE_CLR), ==, OVF);
    g_assert_cmphex(tm_read(qts, 3, IRQSTATUS), ==, OVF);
    g_assert_true(qtest_get_irq(qts, 0));

    /* Writing 0 clears nothing; writing 1 clears the raw bit too. */
    tm_write(qts, 3, IRQSTATUS, 0);
    g_assert_true(qtest_get_irq(qts, 0));
    tm_write(qts, 3, IRQSTATUS, MAT);
    g_assert_cmphex(tm_read(qts, 3, IRQSTATUS_RAW), ==, OVF | TCAR);
    g_assert_true(qtest_get_irq(qts, 0));
    tm_write(qts, 3, IRQ_EOI, 0);
    g_assert_cmphex(tm_read(qts, 3, IRQ_EOI), ==, 0);
    g_assert_true(qtest_get_irq(qts, 0));
    tm_write(qts, 3, IRQSTATUS, OVF);
    g_assert_false(qtest_get_irq(qts, 0));

    /* Masking and unmasking a pending event */
    tm_write(qts, 3, IRQENABLE_SET, TCAR);
    g_assert_true(qtest_get_irq(qts, 0));
    tm_write(qts, 3, IRQENABLE_CLR, TCAR | OVF);
    g_assert_cmphex(tm_read(qts, 3, IRQENABLE_SET), ==, 0);
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_cmphex(tm_read(qts, 3, IRQSTATUS_RAW), ==, TCAR);
    tm_write(qts, 3, IRQSTATUS, 0xffffffff);
    g_assert_cmphex(tm_read(qts, 3, IRQSTATUS_RAW), ==, 0);

    /* Read-only and write-only registers */
    tm_write(qts, 3, TIDR, 0);
    g_assert_cmphex(tm_read(qts, 3, TIDR), ==, AM335X_DMTIMER_REV);
    tm_write(qts, 3, TWPS, 0x1f);
    g_assert_cmphex(tm_read(qts, 3, TWPS), ==, 0);
    tm_write(qts, 3, IRQWAKEEN, 0xff);
    g_assert_cmphex(tm_read(qts, 3, IRQWAKEEN), ==, MAT | OVF | TCAR);

    qtest_quit(qts);
}

/* Single capture: the first rising edge latches TCAR1 until W1C. */
static void test_capture(void)
{
    QTestState *qts = start();
    g_autofree char *path = tm_path(6);
    const uint32_t ticks_100us = FCLK_HZ / 10000;

    qtest_irq_intercept_out_named(qts, path, "sysbus-irq");
    tm_write(qts, 6, IRQENABLE_SET, TCAR);
    tm_write(qts, 6, TCLR, ST | TCM_RISING);
    qtest_clock_step(qts, 100 * US);
    qtest_set_irq_in(qts, path, "capture", 0, 1);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(tm_read(qts, 6, IRQSTATUS), ==, TCAR);
    g_assert_cmpuint(tm_read(qts, 6, TCAR1), ==, ticks_100us);

    /* A falling edge is not selected; later rising edges wait for W1C. */
    qtest_clock_step(qts, 100 * US);
    qtest_set_irq_in(qts, path, "capture", 0, 0);
    qtest_clock_step(qts, 100 * US);
    qtest_set_irq_in(qts, path, "capture", 0, 1);
    g_assert_cmpuint(tm_read(qts, 6, TCAR1), ==, ticks_100us);

    tm_write(qts, 6, IRQSTATUS, TCAR);
    g_assert_false(qtest_get_irq(qts, 0));
    qtest_set_irq_in(qts, path, "capture", 0, 0);
    g_assert_false(qtest_get_irq(qts, 0));
    qtest_clock_step(qts, 100 * US);
    qtest_set_irq_in(qts, path, "capture", 0, 1);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmpuint(tm_read(qts, 6, TCAR1), ==, 4 * ticks_100us);
    g_assert_cmpuint(tm_read(qts, 6, TCAR2), ==, 0);

    /* With TCM = 0 no edge is captured. */
    tm_write(qts, 6, IRQSTATUS, TCAR);
    tm_write(qts, 6, TCLR, ST);
    qtest_set_irq_in(qts, path, "capture", 0, 0);
    qtest_set_irq_in(qts, path, "capture", 0, 1);
    g_assert_cmphex(tm_read(qts, 6, IRQSTATUS_RAW), ==, 0);

    qtest_quit(qts);
}

/* CAPT_MODE: TCAR1 on the first edge, TCAR2 and the flag on the second. */
static void test_capture_second_event(void)
{
    QTestState *qts = start();
    g_autofree char *path = tm_path(7);
    const uint32_t ticks_10us = FCLK_HZ / 100000;

    qtest_irq_intercept_out_named(qts, path, "sysbus-irq");
    tm_write(qts, 7, IRQENABLE_SET, TCAR);
    tm_write(qts, 7, TCLR, ST | TCM_BOTH | CAPT_MODE);
    qtest_clock_step(qts, 10 * US);
    qtest_set_irq_in(qts, path, "capture", 0, 1);
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_cmpuint(tm_read(qts, 7, TCAR1), ==, ticks_10us);
    qtest_clock_step(qts, 20 * US);
    qtest_set_irq_in(qts, path, "capture", 0, 0);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmpuint(tm_read(qts, 7, TCAR1), ==, ticks_10us);
    g_assert_cmpuint(tm_read(qts, 7, TCAR2), ==, 3 * ticks_10us);

    /* Held until the flag is cleared */
    qtest_clock_step(qts, 10 * US);
    qtest_set_irq_in(qts, path, "capture", 0, 1);
    g_assert_cmpuint(tm_read(qts, 7, TCAR1), ==, ticks_10us);
    tm_write(qts, 7, IRQSTATUS, TCAR);
    g_assert_false(qtest_get_irq(qts, 0));

    qtest_quit(qts);
}

static void test_softreset(void)
{
    QTestState *qts = start();
    g_autofree char *path = tm_path(2);

    qtest_irq_intercept_out_named(qts, path, "sysbus-irq");
    tm_write(qts, 2, TIOCP_CFG, 0x8);        /* smart-idle */
    g_assert_cmphex(tm_read(qts, 2, TIOCP_CFG), ==, 0x8);
    tm_write(qts, 2, TLDR, 0x1234);
    tm_write(qts, 2, TMAR, 0x5678);
    tm_write(qts, 2, IRQENABLE_SET, OVF);
    tm_write(qts, 2, IRQSTATUS_RAW, OVF);
    g_assert_true(qtest_get_irq(qts, 0));
    tm_write(qts, 2, TCLR, ST | AR);
    tm_write(qts, 2, TSICR, 0);
    qtest_clock_step(qts, MS);

    /* TSICR.SFT resets the counter side but not the OCP configuration. */
    tm_write(qts, 2, TSICR, SFT);
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_cmphex(tm_read(qts, 2, TSICR), ==, 0);
    g_assert_cmphex(tm_read(qts, 2, TIOCP_CFG), ==, 0x8);
    g_assert_cmphex(tm_read(qts, 2, TCLR), ==, 0);
    g_assert_cmphex(tm_read(qts, 2, TCRR), ==, 0);
    g_assert_cmphex(tm_read(qts, 2, TLDR), ==, 0);
    g_assert_cmphex(tm_read(qts, 2, TMAR), ==, 0);
    g_assert_cmphex(tm_read(qts, 2, IRQENABLE_SET), ==, 0);
    g_assert_cmphex(tm_read(qts, 2, IRQSTATUS_RAW), ==, 0);

    /* TIOCP_CFG.SOFTRESET resets everything and reads back done (0). */
    tm_write(qts, 2, TLDR, 0x1234);
    tm_write(qts, 2, TCLR, ST);
    qtest_clock_step(qts, MS);
    tm_write(qts, 2, TIOCP_CFG, 0x1);
    g_assert_cmphex(tm_read(qts, 2, TIOCP_CFG), ==, 0);
    g_assert_cmphex(tm_read(qts, 2, TSICR), ==, POSTED);
    g_assert_cmphex(tm_read(qts, 2, TCLR), ==, 0);
    g_assert_cmphex(tm_read(qts, 2, TLDR), ==, 0);
    qtest_clock_step(qts, MS);
    g_assert_cmphex(tm_read(qts, 2, TCRR), ==, 0);

    /* Linux's type 1 reset of the 1 ms timer: TSICR = SFT | POSTED. */
    tm_write(qts, 1, MS_TIOCP_CFG, 0x215);
    tm_write(qts, 1, MS_TLDR, 0x1234);
    tm_write(qts, 1, MS_TPIR, 0x5678);
    tm_write(qts, 1, MS_TCLR, ST);
    tm_write(qts, 1, MS_TSICR, SFT | POSTED);
    g_assert_cmphex(tm_read(qts, 1, MS_TISTAT), ==, 1);
    g_assert_cmphex(tm_read(qts, 1, MS_TSICR), ==, POSTED);
    g_assert_cmphex(tm_read(qts, 1, MS_TIOCP_CFG), ==, 0x215);
    g_assert_cmphex(tm_read(qts, 1, MS_TCLR), ==, 0);
    g_assert_cmphex(tm_read(qts, 1, MS_TLDR), ==, 0);
    g_assert_cmphex(tm_read(qts, 1, MS_TPIR), ==, 0);
    /* ... and its OCP soft reset, bit 1 on this IP */
    tm_write(qts, 1, MS_TIOCP_CFG, 0x2);
    g_assert_cmphex(tm_read(qts, 1, MS_TIOCP_CFG), ==, 0);
    g_assert_cmphex(tm_read(qts, 1, MS_TISTAT), ==, 1);

    qtest_quit(qts);
}

/* The 1 ms timer's frequency, whichever source the PRCM selects. */
static uint64_t ms_timer_hz(QTestState *qts)
{
    uint64_t hz;

    tm_write(qts, 1, MS_TCRR, 0);
    tm_write(qts, 1, MS_TCLR, ST);
    qtest_clock_step(qts, 1000 * MS);
    tm_write(qts, 1, MS_TCLR, 0);
    hz = tm_read(qts, 1, MS_TCRR);
    g_assert_cmpuint(hz, >=, 32000);
    return hz;
}

static void test_1ms_registers(void)
{
    QTestState *qts = start();
    g_autofree char *path = tm_path(1);

    qtest_irq_intercept_out_named(qts, path, "sysbus-irq");

    tm_write(qts, 1, MS_TIOCP_CFG, 0xfffffffd);
    g_assert_cmphex(tm_read(qts, 1, MS_TIOCP_CFG), ==, 0x33d);
    tm_write(qts, 1, MS_TPIR, 232000);
    tm_write(qts, 1, MS_TNIR, -768000);
    tm_write(qts, 1, MS_TCVR, 0x87654321);
    tm_write(qts, 1, MS_TOCR, 0xffffffff);
    tm_write(qts, 1, MS_TOWR, 0xffffffff);
    g_assert_cmphex(tm_read(qts, 1, MS_TPIR), ==, 232000);
    g_assert_cmphex(tm_read(qts, 1, MS_TNIR), ==, (uint32_t)-768000);
    g_assert_cmphex(tm_read(qts, 1, MS_TCVR), ==, 0x87654321);
    g_assert_cmphex(tm_read(qts, 1, MS_TOCR), ==, 0xffffff);
    g_assert_cmphex(tm_read(qts, 1, MS_TOWR), ==, 0xffffff);
    tm_write(qts, 1, MS_TMAR, 0xabcd);
    g_assert_cmphex(tm_read(qts, 1, MS_TMAR), ==, 0xabcd);
    tm_write(qts, 1, MS_TWER, 0xff);
    g_assert_cmphex(tm_read(qts, 1, MS_TWER), ==, MAT | OVF | TCAR);

    /* TISR/TIER: the OMAP3-style interrupt pair */
    tm_write(qts, 1, MS_TIER, 0xff);
    g_assert_cmphex(tm_read(qts, 1, MS_TIER), ==, MAT | OVF | TCAR);
    tm_write(qts, 1, MS_TIER, OVF);
    tm_write(qts, 1, MS_TOWR, 0);
    tm_write(qts, 1, MS_TOCR, 0);
    tm_write(qts, 1, MS_TCRR, 0xfffffff0);
    tm_write(qts, 1, MS_TCLR, ST);
    qtest_clock_step(qts, 10 * MS);
    g_assert_cmphex(tm_read(qts, 1, MS_TISR), ==, OVF);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(tm_read(qts, 1, MS_TCLR), ==, 0);
    tm_write(qts, 1, MS_TISR, OVF);
    g_assert_false(qtest_get_irq(qts, 0));

    /* Read-only registers */
    tm_write(qts, 1, TIDR, 0);
    tm_write(qts, 1, MS_TISTAT, 0);
    tm_write(qts, 1, MS_TWPS, 0x3ff);
    tm_write(qts, 1, MS_TCAR1, 1);
    g_assert_cmphex(tm_read(qts, 1, TIDR), ==, AM335X_DMTIMER_1MS_REV);
    g_assert_cmphex(tm_read(qts, 1, MS_TISTAT), ==, 1);
    g_assert_cmphex(tm_read(qts, 1, MS_TWPS), ==, 0);
    g_assert_cmphex(tm_read(qts, 1, MS_TCAR1), ==, 0);

    qtest_quit(qts);
}

/* TOWR = n masks n overflow interrupts out of every n + 1 (TOCR counts). */
static void test_1ms_overflow_mask(void)
{
    QTestState *qts = start();
    g_autofree char *path = tm_path(1);
    uint64_t hz = ms_timer_hz(qts);
    const uint32_t period = 100;

    qtest_irq_intercept_out_named(qts, path, "sysbus-irq");
    tm_write(qts, 1, MS_TOWR, 2);
    tm_write(qts, 1, MS_TIER, OVF);
    tm_write(qts, 1, MS_TLDR, -period);
    tm_write(qts, 1, MS_TTGR, 1);
    tm_write(qts, 1, MS_TCLR, ST | AR);

    for (int round = 0; round < 3; round++) {
        qtest_clock_step(qts, ticks_ns(period, hz));
        g_assert_false(qtest_get_irq(qts, 0));
        g_assert_cmpuint(tm_read(qts, 1, MS_TOCR), ==, 1);
        qtest_clock_step(qts, ticks_ns(period, hz));
        g_assert_false(qtest_get_irq(qts, 0));
        g_assert_cmpuint(tm_read(qts, 1, MS_TOCR), ==, 2);
        qtest_clock_step(qts, ticks_ns(period, hz));
        g_assert_true(qtest_get_irq(qts, 0));
        g_assert_cmpuint(tm_read(qts, 1, MS_TOCR), ==, 0);
        tm_write(qts, 1, MS_TISR, OVF);
        g_assert_false(qtest_get_irq(qts, 0));
        /* Each step overshoots a quarter tick; take it back out. */
        tm_write(qts, 1, MS_TCLR, 0);
        tm_write(qts, 1, MS_TTGR, 1);
        tm_write(qts, 1, MS_TOCR, 0);
        tm_write(qts, 1, MS_TCLR, ST | AR);
    }

    qtest_quit(qts);
}

/*
 * 1 ms tick correction (TRM 20.2.3, table 20-30).  For a 10.5-tick period,
 * TPIR = 11e6 - 10.5e6 and TNIR = 10e6 - 10.5e6: the reloads alternate
 * between TLDR (10 ticks) and TLDR - 1 (11 ticks), starting with TLDR.
 */
static void test_1ms_tick_generation(void)
{
    QTestState *qts = start();
    uint64_t hz = ms_timer_hz(qts);

    tm_write(qts, 1, MS_TPIR, 500000);
    tm_write(qts, 1, MS_TNIR, -500000);
    tm_write(qts, 1, MS_TOWR, 0xffffff);   /* TOCR counts every overflow */
    tm_write(qts, 1, MS_TLDR, -10);
    tm_write(qts, 1, MS_TTGR, 1);
    tm_write(qts, 1, MS_TCLR, ST | AR);

    /* Overflows at ticks 10, 20, 31, 41, 52 */
    qtest_clock_step(qts, ticks_ns(30, hz));
    g_assert_cmpuint(tm_read(qts, 1, MS_TOCR), ==, 2);
    g_assert_cmphex(tm_read(qts, 1, MS_TCRR), ==, (uint32_t)-1);
    g_assert_cmphex(tm_read(qts, 1, MS_TCVR), ==, 0);
    qtest_clock_step(qts, ticks_ns(1, hz) - ticks_ns(0, hz));
    g_assert_cmpuint(tm_read(qts, 1, MS_TOCR), ==, 3);
    g_assert_cmphex(tm_read(qts, 1, MS_TCRR), ==, (uint32_t)-10);
    g_assert_cmphex(tm_read(qts, 1, MS_TCVR), ==, (uint32_t)-500000);
    qtest_clock_step(qts, ticks_ns(21, hz) - ticks_ns(0, hz));
    g_assert_cmpuint(tm_read(qts, 1, MS_TOCR), ==, 5);
    g_assert_cmphex(tm_read(qts, 1, MS_TCRR), ==, (uint32_t)-10);

    qtest_quit(qts);
}

/* Guest errors are logged, never fatal; the device keeps working. */
static void test_bad_offsets(void)
{
    QTestState *qts = start();

    for (int t = 0; t < ARRAY_SIZE(timer_base); t++) {
        g_assert_cmphex(tm_read(qts, t, 0x5c), ==, 0);
        g_assert_cmphex(tm_read(qts, t, 0xffc), ==, 0);
        tm_write(qts, t, 0x5c, 0xffffffff);
        tm_write(qts, t, 0x800, 0xffffffff);
        tm_write(qts, t, 0xffc, 0xffffffff);
    }
    /* 0x14 is TISTAT on the 1 ms timer, unused (reads 0) on the others */
    g_assert_cmphex(tm_read(qts, 2, 0x14), ==, 0);
    tm_write(qts, 2, 0x14, 0xffffffff);
    tm_write(qts, 2, TCLR, 0xffffffff);
    g_assert_cmphex(tm_read(qts, 2, TCLR), ==, 0x7fff);
    tm_write(qts, 2, TCLR, 0);

    for (int t = 0; t < ARRAY_SIZE(timer_base); t++) {
        g_assert_cmphex(tm_read(qts, t, TIDR), ==,
                        t == 1 ? AM335X_DMTIMER_1MS_REV : AM335X_DMTIMER_REV);
    }

    qtest_quit(qts);
}

/* TLDR = 0xffffffff: a one-tick period must not stall QEMU. */
static void test_tiny_period(void)
{
    QTestState *qts = start();
    g_autofree char *path = tm_path(3);

    qtest_irq_intercept_out_named(qts, path, "sysbus-irq");
    tm_write(qts, 3, TLDR, 0xffffffff);
    tm_write(qts, 3, TTGR, 0);
    tm_write(qts, 3, TMAR, 0xffffffff);
    tm_write(qts, 3, IRQENABLE_SET, OVF | MAT);
    tm_write(qts, 3, TCLR, ST | AR | CE);
    qtest_clock_step(qts, MS);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(tm_read(qts, 3, IRQSTATUS_RAW), ==, OVF | MAT);
    g_assert_cmphex(tm_read(qts, 3, TCRR), ==, 0xffffffff);
    tm_write(qts, 3, TCLR, 0);
    tm_write(qts, 3, IRQSTATUS, OVF | MAT);
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_cmphex(tm_read(qts, 3, TIDR), ==, AM335X_DMTIMER_REV);

    qtest_quit(qts);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);

    qtest_add_func("am335x/dmtimer/reset-values", test_reset_values);
    qtest_add_func("am335x/dmtimer/count-rate", test_count_rate);
    qtest_add_func("am335x/dmtimer/prescaler", test_prescaler);
    qtest_add_func("am335x/dmtimer/periodic", test_periodic);
    qtest_add_func("am335x/dmtimer/one-shot", test_one_shot);
    qtest_add_func("am335x/dmtimer/compare-match", test_compare_match);
    qtest_add_func("am335x/dmtimer/status-w1c", test_status_w1c);
    qtest_add_func("am335x/dmtimer/capture", test_capture);
    qtest_add_func("am335x/dmtimer/capture-second-event",
                   test_capture_second_event);
    qtest_add_func("am335x/dmtimer/softreset", test_softreset);
    qtest_add_func("am335x/dmtimer/1ms-registers", test_1ms_registers);
    qtest_add_func("am335x/dmtimer/1ms-overflow-mask",
                   test_1ms_overflow_mask);
    qtest_add_func("am335x/dmtimer/1ms-tick-generation",
                   test_1ms_tick_generation);
    qtest_add_func("am335x/dmtimer/bad-offsets", test_bad_offsets);
    qtest_add_func("am335x/dmtimer/tiny-period", test_tiny_period);

    return g_test_run();
}
