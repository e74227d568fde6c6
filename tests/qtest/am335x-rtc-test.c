/*
 * QTest for the TI AM335x real-time clock (RTCSS)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/timer.h"
#include "libqtest.h"

#define RTC_BASE            0x44e3e000
#define RTC_PATH            "/machine/soc/rtc"

/* TRM table 20-63 */
#define SECONDS             0x00
#define MINUTES             0x04
#define HOURS               0x08
#define DAYS                0x0c
#define MONTHS              0x10
#define YEARS               0x14
#define WEEKS               0x18
#define ALARM_SECONDS       0x20
#define ALARM_MINUTES       0x24
#define ALARM_HOURS         0x28
#define ALARM_DAYS          0x2c
#define ALARM_MONTHS        0x30
#define ALARM_YEARS         0x34
#define CTRL                0x40
#define STATUS              0x44
#define INTERRUPTS          0x48
#define COMP_LSB            0x4c
#define COMP_MSB            0x50
#define OSC                 0x54
#define SCRATCH0            0x60
#define SCRATCH1            0x64
#define SCRATCH2            0x68
#define KICK0R              0x6c
#define KICK1R              0x70
#define REVISION            0x74
#define SYSCONFIG           0x78
#define IRQWAKEEN           0x7c
#define ALARM2_SECONDS      0x80
#define ALARM2_MINUTES      0x84
#define ALARM2_HOURS        0x88
#define ALARM2_DAYS         0x8c
#define ALARM2_MONTHS       0x90
#define ALARM2_YEARS        0x94
#define PMIC                0x98
#define DEBOUNCE            0x9c

/* CTRL */
#define CTRL_STOP_RTC       BIT(0)
#define CTRL_ROUND_30S      BIT(1)
#define CTRL_MODE_12_24     BIT(3)
/* STATUS */
#define STATUS_BUSY         BIT(0)
#define STATUS_RUN          BIT(1)
#define STATUS_1S           BIT(2)
#define STATUS_1M           BIT(3)
#define STATUS_1H           BIT(4)
#define STATUS_1D           BIT(5)
#define STATUS_ALARM        BIT(6)
#define STATUS_ALARM2       BIT(7)
/* INTERRUPTS */
#define EVERY_SECOND        0
#define EVERY_MINUTE        1
#define IT_TIMER            BIT(2)
#define IT_ALARM            BIT(3)
#define IT_ALARM2           BIT(4)
/* PMIC */
#define PWR_ENABLE_EN       BIT(16)
#define PWR_ENABLE_SM(x)    ((x) << 17)

#define KICK0_KEY           0x83e70b13
#define KICK1_KEY           0x95a4f1e0
#define AM335X_RTC_REV      0x4eb01908

/* PRCM: CM_RTC_RTC_CLKCTRL */
#define CM_RTC_RTC_CLKCTRL  0x44e00800

/* The sysbus IRQs */
#define IRQ_TIMER           0
#define IRQ_ALARM           1

#define SEC                 NANOSECONDS_PER_SECOND
#define MS                  (1000 * 1000)
#define US                  1000

/* 2026-11-30 was a Monday. */
#define BASE_ARGS           "-rtc base=2026-11-30T12:00:00,clock=vm"

static uint32_t rtc_read(QTestState *qts, uint32_t reg)
{
    return qtest_readl(qts, RTC_BASE + reg);
}

static void rtc_write(QTestState *qts, uint32_t reg, uint32_t value)
{
    qtest_writel(qts, RTC_BASE + reg, value);
}

static void rtc_unlock(QTestState *qts)
{
    rtc_write(qts, KICK0R, KICK0_KEY);
    rtc_write(qts, KICK1R, KICK1_KEY);
}

static void rtc_lock(QTestState *qts)
{
    rtc_write(qts, KICK0R, 0);
    rtc_write(qts, KICK1R, 0);
}

static QTestState *start_machine(const char *machine, const char *extra)
{
    QTestState *qts = qtest_initf("-M %s " BASE_ARGS " %s", machine, extra);

    qtest_writel(qts, CM_RTC_RTC_CLKCTRL, 2);
    return qts;
}

static QTestState *start(void)
{
    return start_machine("beaglebone-black", "");
}

/* The TC registers, read the way rtc-omap does: SECONDS first. */
typedef struct {
    uint8_t sec, min, hour, day, mon, year, week;
} RtcTime;

static RtcTime rtc_get(QTestState *qts)
{
    RtcTime t;

    t.sec = rtc_read(qts, SECONDS);
    t.min = rtc_read(qts, MINUTES);
    t.hour = rtc_read(qts, HOURS);
    t.day = rtc_read(qts, DAYS);
    t.mon = rtc_read(qts, MONTHS);
    t.year = rtc_read(qts, YEARS);
    t.week = rtc_read(qts, WEEKS);
    return t;
}

/* As rtc-omap sets the time: byte writes, the year first. */
static void rtc_set(QTestState *qts, const RtcTime *t)
{
    qtest_writeb(qts, RTC_BASE + YEARS, t->year);
    qtest_writeb(qts, RTC_BASE + MONTHS, t->mon);
    qtest_writeb(qts, RTC_BASE + DAYS, t->day);
    qtest_writeb(qts, RTC_BASE + HOURS, t->hour);
    qtest_writeb(qts, RTC_BASE + MINUTES, t->min);
    qtest_writeb(qts, RTC_BASE + SECONDS, t->sec);
    qtest_writeb(qts, RTC_BASE + WEEKS, t->week);
}

/* ALARM2 at @hour:@min:@sec on the -rtc base day */
static void rtc_set_alarm2(QTestState *qts, uint8_t hour, uint8_t min,
                           uint8_t sec)
{
    qtest_writeb(qts, RTC_BASE + ALARM2_YEARS, 0x26);
    qtest_writeb(qts, RTC_BASE + ALARM2_MONTHS, 0x11);
    qtest_writeb(qts, RTC_BASE + ALARM2_DAYS, 0x30);
    qtest_writeb(qts, RTC_BASE + ALARM2_HOURS, hour);
    qtest_writeb(qts, RTC_BASE + ALARM2_MINUTES, min);
    qtest_writeb(qts, RTC_BASE + ALARM2_SECONDS, sec);
}

static void rtc_assert(QTestState *qts, uint8_t year, uint8_t mon,
                       uint8_t day, uint8_t hour, uint8_t min, uint8_t sec,
                       uint8_t week)
{
    RtcTime t = rtc_get(qts);

    g_assert_cmphex(t.year, ==, year);
    g_assert_cmphex(t.mon, ==, mon);
    g_assert_cmphex(t.day, ==, day);
    g_assert_cmphex(t.hour, ==, hour);
    g_assert_cmphex(t.min, ==, min);
    g_assert_cmphex(t.sec, ==, sec);
    g_assert_cmphex(t.week, ==, week);
}

static void test_reset_values(const void *data)
{
    QTestState *qts = start_machine(data, "");

    g_assert_cmphex(rtc_read(qts, REVISION), ==, AM335X_RTC_REV);
    g_assert_cmphex(rtc_read(qts, SYSCONFIG), ==, 2);
    /* Running, as a battery-backed RTC set by an earlier boot would be */
    g_assert_cmphex(rtc_read(qts, CTRL), ==, CTRL_STOP_RTC);
    g_assert_cmphex(rtc_read(qts, STATUS), ==, STATUS_RUN);
    g_assert_cmphex(rtc_read(qts, INTERRUPTS), ==, 0);
    g_assert_cmphex(rtc_read(qts, COMP_LSB), ==, 0);
    g_assert_cmphex(rtc_read(qts, COMP_MSB), ==, 0);
    g_assert_cmphex(rtc_read(qts, OSC), ==, 0x10);
    g_assert_cmphex(rtc_read(qts, SCRATCH0), ==, 0);
    g_assert_cmphex(rtc_read(qts, SCRATCH1), ==, 0);
    g_assert_cmphex(rtc_read(qts, SCRATCH2), ==, 0);
    g_assert_cmphex(rtc_read(qts, KICK0R), ==, 0);
    g_assert_cmphex(rtc_read(qts, KICK1R), ==, 0);
    g_assert_cmphex(rtc_read(qts, IRQWAKEEN), ==, 0);
    g_assert_cmphex(rtc_read(qts, PMIC), ==, 0);
    g_assert_cmphex(rtc_read(qts, DEBOUNCE), ==, 0);
    g_assert_cmphex(rtc_read(qts, ALARM_SECONDS), ==, 0);
    g_assert_cmphex(rtc_read(qts, ALARM_DAYS), ==, 1);
    g_assert_cmphex(rtc_read(qts, ALARM_MONTHS), ==, 1);
    g_assert_cmphex(rtc_read(qts, ALARM2_DAYS), ==, 1);
    g_assert_cmphex(rtc_read(qts, ALARM2_MONTHS), ==, 1);

    /* The time and date of -rtc base, in BCD */
    rtc_assert(qts, 0x26, 0x11, 0x30, 0x12, 0x00, 0x00, 1);

    qtest_quit(qts);
}

/* BUSY: the last 32 kHz period before the counters change */
static void test_busy(void)
{
    QTestState *qts = start();

    g_assert_cmphex(rtc_read(qts, STATUS) & STATUS_BUSY, ==, 0);
    qtest_clock_step(qts, SEC - 10 * US);
    g_assert_cmphex(rtc_read(qts, STATUS) & STATUS_BUSY, ==, STATUS_BUSY);
    g_assert_cmphex(rtc_read(qts, SECONDS), ==, 0x00);
    qtest_clock_step(qts, 10 * US);
    g_assert_cmphex(rtc_read(qts, STATUS) & STATUS_BUSY, ==, 0);
    g_assert_cmphex(rtc_read(qts, SECONDS), ==, 0x01);

    qtest_quit(qts);
}

/* TRM 20.3.3.5.3: KICK0R then KICK1R unlock; anything else locks. */
static void test_kicker(void)
{
    QTestState *qts = start();

    /* Locked out of reset: writes are ignored */
    rtc_write(qts, SCRATCH0, 0x12345678);
    g_assert_cmphex(rtc_read(qts, SCRATCH0), ==, 0);
    rtc_write(qts, CTRL, 0);
    g_assert_cmphex(rtc_read(qts, CTRL), ==, CTRL_STOP_RTC);

    /* KICK0R alone is not enough */
    rtc_write(qts, KICK0R, KICK0_KEY);
    rtc_write(qts, SCRATCH0, 0x12345678);
    g_assert_cmphex(rtc_read(qts, SCRATCH0), ==, 0);

    /* Nor the keys the wrong way round */
    rtc_write(qts, KICK0R, 0);
    rtc_write(qts, KICK1R, KICK1_KEY);
    rtc_write(qts, KICK0R, KICK0_KEY);
    rtc_write(qts, SCRATCH0, 0x12345678);
    g_assert_cmphex(rtc_read(qts, SCRATCH0), ==, 0);

    /* A wrong KICK1R value goes back to the start */
    rtc_write(qts, KICK0R, KICK0_KEY);
    rtc_write(qts, KICK1R, 0);
    rtc_write(qts, KICK1R, KICK1_KEY);
    rtc_write(qts, SCRATCH0, 0x12345678);
    g_assert_cmphex(rtc_read(qts, SCRATCH0), ==, 0);

    rtc_unlock(qts);
    rtc_write(qts, SCRATCH0, 0x12345678);
    rtc_write(qts, SCRATCH1, 0x9abcdef0);
    rtc_write(qts, SCRATCH2, 0xffffffff);
    g_assert_cmphex(rtc_read(qts, SCRATCH0), ==, 0x12345678);
    g_assert_cmphex(rtc_read(qts, SCRATCH1), ==, 0x9abcdef0);
    g_assert_cmphex(rtc_read(qts, SCRATCH2), ==, 0xffffffff);
    /* Byte writes merge */
    qtest_writeb(qts, RTC_BASE + SCRATCH0 + 1, 0xaa);
    g_assert_cmphex(rtc_read(qts, SCRATCH0), ==, 0x1234aa78);

    /* The keys stay valid until a wrong KICK0R value or any KICK1R write */
    rtc_write(qts, KICK0R, 0);
    rtc_write(qts, SCRATCH0, 0);
    g_assert_cmphex(rtc_read(qts, SCRATCH0), ==, 0x1234aa78);
    rtc_unlock(qts);
    rtc_write(qts, KICK1R, KICK1_KEY);
    rtc_write(qts, SCRATCH0, 0);
    g_assert_cmphex(rtc_read(qts, SCRATCH0), ==, 0x1234aa78);

    /* KICK0R again from the unlocked state leaves the registers locked */
    rtc_unlock(qts);
    rtc_write(qts, KICK0R, KICK0_KEY);
    rtc_write(qts, SCRATCH0, 0);
    g_assert_cmphex(rtc_read(qts, SCRATCH0), ==, 0x1234aa78);

    /* Read-only registers */
    rtc_unlock(qts);
    rtc_write(qts, REVISION, 0);
    g_assert_cmphex(rtc_read(qts, REVISION), ==, AM335X_RTC_REV);

    qtest_quit(qts);
}

/* The counters follow the RTC clock, here the virtual one. */
static void test_counting(void)
{
    QTestState *qts = start();

    qtest_clock_step(qts, SEC);
    rtc_assert(qts, 0x26, 0x11, 0x30, 0x12, 0x00, 0x01, 1);
    g_assert_cmphex(rtc_read(qts, STATUS), ==, STATUS_RUN | STATUS_1S);

    qtest_clock_step(qts, 59 * SEC);
    rtc_assert(qts, 0x26, 0x11, 0x30, 0x12, 0x01, 0x00, 1);
    /* The event bits tell what the last second completed */
    g_assert_cmphex(rtc_read(qts, STATUS), ==,
                    STATUS_RUN | STATUS_1S | STATUS_1M);

    /* To the end of the month and of the day */
    qtest_clock_step(qts, (11 * 3600 + 58 * 60 + 59) * SEC);
    rtc_assert(qts, 0x26, 0x11, 0x30, 0x23, 0x59, 0x59, 1);
    qtest_clock_step(qts, SEC);
    rtc_assert(qts, 0x26, 0x12, 0x01, 0x00, 0x00, 0x00, 2);
    g_assert_cmphex(rtc_read(qts, STATUS), ==, STATUS_RUN | STATUS_1S |
                    STATUS_1M | STATUS_1H | STATUS_1D);

    qtest_quit(qts);
}

static void test_set_time(void)
{
    QTestState *qts = start();
    /* 2024 is a leap year; 2024-02-28 was a Wednesday */
    RtcTime leap = { 0x59, 0x59, 0x23, 0x28, 0x02, 0x24, 3 };
    RtcTime century = { 0x59, 0x59, 0x23, 0x31, 0x12, 0x99, 4 };
    RtcTime jan31 = { 0x00, 0x00, 0x10, 0x31, 0x01, 0x26, 6 };

    /* Locked: nothing changes */
    rtc_set(qts, &leap);
    rtc_assert(qts, 0x26, 0x11, 0x30, 0x12, 0x00, 0x00, 1);

    rtc_unlock(qts);
    rtc_set(qts, &leap);
    rtc_assert(qts, 0x24, 0x02, 0x28, 0x23, 0x59, 0x59, 3);
    qtest_clock_step(qts, SEC);
    rtc_assert(qts, 0x24, 0x02, 0x29, 0x00, 0x00, 0x00, 4);
    qtest_clock_step(qts, SEC);
    rtc_assert(qts, 0x24, 0x02, 0x29, 0x00, 0x00, 0x01, 4);

    /* The two-digit year wraps; WEEKS just counts on */
    rtc_set(qts, &century);
    qtest_clock_step(qts, SEC);
    rtc_assert(qts, 0x00, 0x01, 0x01, 0x00, 0x00, 0x00, 5);

    /*
     * Fields written one by one are not normalized in between: January
     * 31st, then month 2, then day 15 gives February 15th.
     */
    rtc_set(qts, &jan31);
    qtest_writeb(qts, RTC_BASE + MONTHS, 0x02);
    qtest_writeb(qts, RTC_BASE + DAYS, 0x15);
    rtc_assert(qts, 0x26, 0x02, 0x15, 0x10, 0x00, 0x00, 6);
    qtest_clock_step(qts, SEC);
    rtc_assert(qts, 0x26, 0x02, 0x15, 0x10, 0x00, 0x01, 6);

    /* Reserved bits read as zero */
    rtc_write(qts, SECONDS, 0xffffff80);
    g_assert_cmphex(rtc_read(qts, SECONDS), ==, 0);
    rtc_write(qts, WEEKS, 0xff);
    rtc_read(qts, SECONDS);
    g_assert_cmphex(rtc_read(qts, WEEKS), ==, 7);

    qtest_quit(qts);
}

/* TRM 20.3.3.5.4: reading SECONDS latches the others. */
static void test_shadow(void)
{
    QTestState *qts = start();

    qtest_clock_step(qts, 59 * SEC);
    g_assert_cmphex(rtc_read(qts, SECONDS), ==, 0x59);
    qtest_clock_step(qts, SEC);
    /* MINUTES still reads what the SECONDS read latched */
    g_assert_cmphex(rtc_read(qts, MINUTES), ==, 0x00);
    g_assert_cmphex(rtc_read(qts, SECONDS), ==, 0x00);
    g_assert_cmphex(rtc_read(qts, MINUTES), ==, 0x01);

    qtest_quit(qts);
}

static void test_stop(void)
{
    QTestState *qts = start();

    rtc_unlock(qts);
    rtc_write(qts, CTRL, 0);
    g_assert_cmphex(rtc_read(qts, STATUS) & STATUS_RUN, ==, 0);
    qtest_clock_step(qts, 3 * SEC);
    rtc_assert(qts, 0x26, 0x11, 0x30, 0x12, 0x00, 0x00, 1);
    /* Never busy while stopped */
    qtest_clock_step(qts, SEC - 10 * US);
    g_assert_cmphex(rtc_read(qts, STATUS), ==, 0);
    qtest_clock_step(qts, 10 * US);

    rtc_write(qts, CTRL, CTRL_STOP_RTC);
    g_assert_cmphex(rtc_read(qts, STATUS) & STATUS_RUN, ==, STATUS_RUN);
    qtest_clock_step(qts, SEC);
    rtc_assert(qts, 0x26, 0x11, 0x30, 0x12, 0x00, 0x01, 1);

    /* Stopped half way through a second, the rest of it follows a restart */
    qtest_clock_step(qts, SEC / 2);
    rtc_write(qts, CTRL, 0);
    qtest_clock_step(qts, 5 * SEC);
    rtc_write(qts, CTRL, CTRL_STOP_RTC);
    qtest_clock_step(qts, SEC / 2 - US);
    g_assert_cmphex(rtc_read(qts, SECONDS), ==, 0x01);
    qtest_clock_step(qts, US);
    g_assert_cmphex(rtc_read(qts, SECONDS), ==, 0x02);

    /* RTC_DISABLE freezes it as well */
    rtc_write(qts, CTRL, CTRL_STOP_RTC | BIT(6));
    g_assert_cmphex(rtc_read(qts, STATUS) & STATUS_RUN, ==, 0);
    qtest_clock_step(qts, 2 * SEC);
    g_assert_cmphex(rtc_read(qts, SECONDS), ==, 0x02);

    qtest_quit(qts);
}

static void test_12_hour(void)
{
    QTestState *qts = start();

    rtc_unlock(qts);
    rtc_write(qts, CTRL, CTRL_STOP_RTC | CTRL_MODE_12_24);
    /* Noon is 12 PM */
    rtc_read(qts, SECONDS);
    g_assert_cmphex(rtc_read(qts, HOURS), ==, 0x92);

    /* 1 PM in 12-hour mode is 13:00 in 24-hour mode */
    qtest_writeb(qts, RTC_BASE + HOURS, 0x81);
    rtc_read(qts, SECONDS);
    g_assert_cmphex(rtc_read(qts, HOURS), ==, 0x81);
    rtc_write(qts, CTRL, CTRL_STOP_RTC);
    rtc_read(qts, SECONDS);
    g_assert_cmphex(rtc_read(qts, HOURS), ==, 0x13);

    /* Midnight is 12 AM */
    qtest_writeb(qts, RTC_BASE + HOURS, 0x00);
    rtc_write(qts, CTRL, CTRL_STOP_RTC | CTRL_MODE_12_24);
    rtc_read(qts, SECONDS);
    g_assert_cmphex(rtc_read(qts, HOURS), ==, 0x12);

    qtest_quit(qts);
}

static void test_round_30s(void)
{
    QTestState *qts = start();

    rtc_unlock(qts);
    qtest_writeb(qts, RTC_BASE + MINUTES, 0x59);
    qtest_writeb(qts, RTC_BASE + SECONDS, 0x45);
    rtc_write(qts, CTRL, CTRL_STOP_RTC | CTRL_ROUND_30S);
    g_assert_cmphex(rtc_read(qts, CTRL), ==, CTRL_STOP_RTC | CTRL_ROUND_30S);
    /* 12:59:45 rounds up to 13:00:00 at the next SECONDS read */
    rtc_assert(qts, 0x26, 0x11, 0x30, 0x13, 0x00, 0x00, 1);
    g_assert_cmphex(rtc_read(qts, CTRL), ==, CTRL_STOP_RTC);

    /* 13:10:29 rounds down */
    qtest_writeb(qts, RTC_BASE + MINUTES, 0x10);
    qtest_writeb(qts, RTC_BASE + SECONDS, 0x29);
    rtc_write(qts, CTRL, CTRL_STOP_RTC | CTRL_ROUND_30S);
    rtc_assert(qts, 0x26, 0x11, 0x30, 0x13, 0x10, 0x00, 1);

    qtest_quit(qts);
}

static void test_alarm(void)
{
    QTestState *qts = start();

    qtest_irq_intercept_out_named(qts, RTC_PATH, "sysbus-irq");
    rtc_unlock(qts);
    /* 12:00:03 on the same day */
    qtest_writeb(qts, RTC_BASE + ALARM_YEARS, 0x26);
    qtest_writeb(qts, RTC_BASE + ALARM_MONTHS, 0x11);
    qtest_writeb(qts, RTC_BASE + ALARM_DAYS, 0x30);
    qtest_writeb(qts, RTC_BASE + ALARM_HOURS, 0x12);
    qtest_writeb(qts, RTC_BASE + ALARM_MINUTES, 0x00);
    qtest_writeb(qts, RTC_BASE + ALARM_SECONDS, 0x03);
    g_assert_cmphex(rtc_read(qts, ALARM_SECONDS), ==, 0x03);
    rtc_write(qts, INTERRUPTS, IT_ALARM);

    qtest_clock_step(qts, 2 * SEC);
    g_assert_false(qtest_get_irq(qts, IRQ_ALARM));
    g_assert_cmphex(rtc_read(qts, STATUS) & STATUS_ALARM, ==, 0);
    qtest_clock_step(qts, SEC);
    g_assert_true(qtest_get_irq(qts, IRQ_ALARM));
    g_assert_cmphex(rtc_read(qts, STATUS) & STATUS_ALARM, ==, STATUS_ALARM);
    g_assert_false(qtest_get_irq(qts, IRQ_TIMER));

    /* The alarm interrupt is a level until ALARM is cleared (W1C) */
    qtest_clock_step(qts, SEC);
    g_assert_true(qtest_get_irq(qts, IRQ_ALARM));
    rtc_write(qts, STATUS, STATUS_ALARM);
    g_assert_false(qtest_get_irq(qts, IRQ_ALARM));
    g_assert_cmphex(rtc_read(qts, STATUS) & STATUS_ALARM, ==, 0);

    /* Not enabled, the status is still set but the line stays low */
    rtc_write(qts, INTERRUPTS, 0);
    qtest_writeb(qts, RTC_BASE + ALARM_SECONDS, 0x06);
    qtest_clock_step(qts, 2 * SEC);
    g_assert_cmphex(rtc_read(qts, SECONDS), ==, 0x06);
    g_assert_cmphex(rtc_read(qts, STATUS) & STATUS_ALARM, ==, STATUS_ALARM);
    g_assert_false(qtest_get_irq(qts, IRQ_ALARM));
    /* ...and enabling the interrupt then raises it */
    rtc_write(qts, INTERRUPTS, IT_ALARM);
    g_assert_true(qtest_get_irq(qts, IRQ_ALARM));
    rtc_write(qts, STATUS, STATUS_ALARM);
    g_assert_false(qtest_get_irq(qts, IRQ_ALARM));

    /* An impossible date never matches */
    qtest_writeb(qts, RTC_BASE + ALARM_DAYS, 0x31);
    qtest_writeb(qts, RTC_BASE + ALARM_SECONDS, 0x08);
    qtest_clock_step(qts, 3 * SEC);
    g_assert_cmphex(rtc_read(qts, STATUS) & STATUS_ALARM, ==, 0);
    g_assert_false(qtest_get_irq(qts, IRQ_ALARM));

    qtest_quit(qts);
}

/* ALARM2 raises the alarm interrupt too, when IT_ALARM2 is set. */
static void test_alarm2_irq(void)
{
    QTestState *qts = start();

    qtest_irq_intercept_out_named(qts, RTC_PATH, "sysbus-irq");
    rtc_unlock(qts);
    rtc_set_alarm2(qts, 0x12, 0x00, 0x02);
    rtc_write(qts, INTERRUPTS, IT_ALARM2);
    qtest_clock_step(qts, SEC);
    g_assert_false(qtest_get_irq(qts, IRQ_ALARM));
    qtest_clock_step(qts, SEC);
    g_assert_true(qtest_get_irq(qts, IRQ_ALARM));
    g_assert_cmphex(rtc_read(qts, STATUS) & (STATUS_ALARM | STATUS_ALARM2),
                    ==, STATUS_ALARM2);
    /* Without PWR_ENABLE_EN the power stays on. */
    g_assert_cmphex(rtc_read(qts, PMIC), ==, 0);
    rtc_write(qts, STATUS, STATUS_ALARM2);
    g_assert_false(qtest_get_irq(qts, IRQ_ALARM));

    qtest_quit(qts);
}

/* The timer interrupt: one 32 kHz period wide, every EVERY period */
static void test_timer_interrupt(void)
{
    QTestState *qts = start();

    qtest_irq_intercept_out_named(qts, RTC_PATH, "sysbus-irq");
    rtc_unlock(qts);
    rtc_write(qts, INTERRUPTS, IT_TIMER | EVERY_SECOND);
    g_assert_false(qtest_get_irq(qts, IRQ_TIMER));

    qtest_clock_step(qts, SEC - US);
    g_assert_false(qtest_get_irq(qts, IRQ_TIMER));
    qtest_clock_step(qts, US);
    g_assert_true(qtest_get_irq(qts, IRQ_TIMER));
    g_assert_cmphex(rtc_read(qts, STATUS) & STATUS_1S, ==, STATUS_1S);
    qtest_clock_step(qts, 20 * US);
    g_assert_true(qtest_get_irq(qts, IRQ_TIMER));
    qtest_clock_step(qts, 20 * US);
    g_assert_false(qtest_get_irq(qts, IRQ_TIMER));
    g_assert_false(qtest_get_irq(qts, IRQ_ALARM));

    /* Again a second later */
    qtest_clock_step(qts, SEC - 40 * US);
    g_assert_true(qtest_get_irq(qts, IRQ_TIMER));
    qtest_clock_step(qts, MS);
    g_assert_false(qtest_get_irq(qts, IRQ_TIMER));

    /* Every minute: nothing until 12:01:00 */
    rtc_write(qts, INTERRUPTS, IT_TIMER | EVERY_MINUTE);
    qtest_clock_step(qts, 57 * SEC);
    g_assert_cmphex(rtc_read(qts, SECONDS), ==, 0x59);
    g_assert_false(qtest_get_irq(qts, IRQ_TIMER));
    qtest_clock_step(qts, SEC - MS);
    g_assert_true(qtest_get_irq(qts, IRQ_TIMER));
    g_assert_cmphex(rtc_read(qts, STATUS) & (STATUS_1S | STATUS_1M |
                                             STATUS_1H | STATUS_1D), ==,
                    STATUS_1S | STATUS_1M);
    qtest_clock_step(qts, MS);
    g_assert_false(qtest_get_irq(qts, IRQ_TIMER));

    /* IT_TIMER clear: no pulse */
    rtc_write(qts, INTERRUPTS, EVERY_SECOND);
    qtest_clock_step(qts, SEC);
    g_assert_false(qtest_get_irq(qts, IRQ_TIMER));

    qtest_quit(qts);
}

/*
 * Linux's poweroff through the RTC: PWR_ENABLE_EN and ALARM2 a second or
 * two ahead.  PMIC_POWER_EN falls and, with "shutdown-on-power-off", QEMU
 * shuts down.  On the EVM, whose PMIC_POWER_EN drives no PMIC model.
 */
static void test_power_off(void)
{
    QTestState *qts = start_machine("am335x-evm", "-no-shutdown "
                        "-global am335x-rtc.shutdown-on-power-off=true");

    rtc_unlock(qts);
    rtc_write(qts, PMIC, PWR_ENABLE_EN);
    rtc_write(qts, STATUS, STATUS_ALARM2);
    rtc_set_alarm2(qts, 0x12, 0x00, 0x02);
    rtc_write(qts, INTERRUPTS, IT_ALARM2);
    rtc_lock(qts);

    qtest_clock_step(qts, SEC);
    g_assert_cmphex(rtc_read(qts, PMIC), ==, PWR_ENABLE_EN);
    qtest_clock_step(qts, SEC);
    qtest_qmp_eventwait(qts, "SHUTDOWN");
    g_assert_cmphex(rtc_read(qts, PMIC), ==,
                    PWR_ENABLE_EN | PWR_ENABLE_SM(1));
    g_assert_cmphex(rtc_read(qts, STATUS) & STATUS_ALARM2, ==, STATUS_ALARM2);

    qtest_quit(qts);
}

/*
 * The PMIC_POWER_EN pin itself (TRM table 20-97): ALARM2 turns it off,
 * ALARM back on, and only with PWR_ENABLE_EN.  Without the built-in
 * shutdown, the machine keeps running to show it.
 */
static void test_power_pin(void)
{
    QTestState *qts = start_machine("beaglebone-black",
                        "-global am335x-rtc.shutdown-on-power-off=false");

    qtest_irq_intercept_out_named(qts, RTC_PATH, "pmic-power-en");
    rtc_unlock(qts);

    /* Disabled, ALARM2 does not touch the pin. */
    rtc_set_alarm2(qts, 0x12, 0x00, 0x01);
    qtest_clock_step(qts, SEC);
    g_assert_cmphex(rtc_read(qts, STATUS) & STATUS_ALARM2, ==, STATUS_ALARM2);
    g_assert_cmphex(rtc_read(qts, PMIC), ==, 0);

    /* 12:00:03 off, 12:00:05 on again */
    rtc_write(qts, PMIC, PWR_ENABLE_EN);
    rtc_set_alarm2(qts, 0x12, 0x00, 0x03);
    qtest_writeb(qts, RTC_BASE + ALARM_YEARS, 0x26);
    qtest_writeb(qts, RTC_BASE + ALARM_MONTHS, 0x11);
    qtest_writeb(qts, RTC_BASE + ALARM_DAYS, 0x30);
    qtest_writeb(qts, RTC_BASE + ALARM_HOURS, 0x12);
    qtest_writeb(qts, RTC_BASE + ALARM_MINUTES, 0x00);
    qtest_writeb(qts, RTC_BASE + ALARM_SECONDS, 0x05);

    qtest_clock_step(qts, 2 * SEC);
    g_assert_cmphex(rtc_read(qts, PMIC), ==,
                    PWR_ENABLE_EN | PWR_ENABLE_SM(1));
    g_assert_false(qtest_get_irq(qts, 0));
    qtest_clock_step(qts, SEC);
    g_assert_cmphex(rtc_read(qts, PMIC), ==,
                    PWR_ENABLE_EN | PWR_ENABLE_SM(1));
    qtest_clock_step(qts, SEC);
    g_assert_cmphex(rtc_read(qts, PMIC), ==,
                    PWR_ENABLE_EN | PWR_ENABLE_SM(2));
    g_assert_true(qtest_get_irq(qts, 0));

    /* Off again; clearing PWR_ENABLE_EN drives the pin high */
    rtc_set_alarm2(qts, 0x12, 0x00, 0x06);
    qtest_clock_step(qts, SEC);
    g_assert_false(qtest_get_irq(qts, 0));
    rtc_write(qts, PMIC, 0);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(rtc_read(qts, PMIC), ==, 0);

    qtest_quit(qts);
}

/* Byte, halfword and word reads see the same registers. */
static void test_access_sizes(void)
{
    QTestState *qts = start();

    g_assert_cmphex(qtest_readb(qts, RTC_BASE + REVISION), ==, 0x08);
    g_assert_cmphex(qtest_readb(qts, RTC_BASE + REVISION + 3), ==, 0x4e);
    g_assert_cmphex(qtest_readw(qts, RTC_BASE + REVISION + 2), ==, 0x4eb0);
    g_assert_cmphex(qtest_readb(qts, RTC_BASE + SECONDS), ==, 0x00);
    g_assert_cmphex(qtest_readb(qts, RTC_BASE + HOURS), ==, 0x12);

    /* Unlisted offsets read as zero */
    g_assert_cmphex(rtc_read(qts, 0x1c), ==, 0);
    g_assert_cmphex(rtc_read(qts, 0x58), ==, 0);
    g_assert_cmphex(rtc_read(qts, 0xa0), ==, 0);
    g_assert_cmphex(rtc_read(qts, 0xffc), ==, 0);

    qtest_quit(qts);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);

    qtest_add_data_func("am335x/rtc/reset-values/beaglebone-black",
                        "beaglebone-black", test_reset_values);
    qtest_add_data_func("am335x/rtc/reset-values/am335x-evm",
                        "am335x-evm", test_reset_values);
    qtest_add_func("am335x/rtc/busy", test_busy);
    qtest_add_func("am335x/rtc/kicker", test_kicker);
    qtest_add_func("am335x/rtc/counting", test_counting);
    qtest_add_func("am335x/rtc/set-time", test_set_time);
    qtest_add_func("am335x/rtc/shadow", test_shadow);
    qtest_add_func("am335x/rtc/stop", test_stop);
    qtest_add_func("am335x/rtc/12-hour", test_12_hour);
    qtest_add_func("am335x/rtc/round-30s", test_round_30s);
    qtest_add_func("am335x/rtc/alarm", test_alarm);
    qtest_add_func("am335x/rtc/alarm2-irq", test_alarm2_irq);
    qtest_add_func("am335x/rtc/timer-interrupt", test_timer_interrupt);
    qtest_add_func("am335x/rtc/power-off", test_power_off);
    qtest_add_func("am335x/rtc/power-pin", test_power_pin);
    qtest_add_func("am335x/rtc/access-sizes", test_access_sizes);

    return g_test_run();
}
