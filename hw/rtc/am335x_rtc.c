/*
 * TI AM335x real-time clock subsystem (RTCSS)
 *
 * A BCD time-of-day and calendar clock (seconds to years, two-digit year,
 * day of the week) counted from a 32.768 kHz clock, with two alarms, a
 * periodic timer interrupt and the PMIC_POWER_EN pin that switches the
 * board's power supply.
 *
 * Timekeeping follows QEMU's RTC clock (-rtc base=..., clock=...): at power
 * on the counters hold QEMU's RTC time and run, as a battery-backed RTC
 * set by an earlier boot would; the registers keep counting seconds as the
 * RTC clock advances while CTRL.STOP_RTC is set, and the guest can set
 * them at any time.  Seconds are counted whole: the counters, not a host
 * time offset, are the state, so a guest writing one field after another
 * (the month 2 on January 31st, then the day) never sees its date
 * normalized half way.
 * Each counter update checks the EVERY period for the timer interrupt and
 * the two alarms; a QEMUTimer is armed only for the next event that drives
 * an output.
 *
 * The RTC lives in its own power domain, so the registers and the time
 * survive machine resets after the first; only the OCP interface (the
 * write-protection kicker) resets, and PMIC_POWER_EN reads high again
 * since the board is evidently powered.
 *
 * ALARM2 is the power-off alarm: with RTC_PMIC.PWR_ENABLE_EN set it drives
 * PMIC_POWER_EN low, and the PMIC cuts the power; this is how Linux powers
 * a BeagleBone off.  The "pmic-power-en" output follows the pin, and with
 * the "shutdown-on-power-off" property the device itself asks QEMU to shut
 * down when it falls.  ALARM (or an EXT_WAKEUP input) drives it high
 * again.
 *
 * Modelling choices:
 *  - the timer interrupt is a pulse one 32 kHz period wide, as on the
 *    silicon; the event bits of RTC_STATUS_REG hold the last event's
 *    flags until the next event of the EVERY period;
 *  - the ALARM and ALARM2 status bits are set when their time is reached,
 *    enabled or not; IT_ALARM/IT_ALARM2 gate the alarm interrupt;
 *  - BUSY reads 1 during the last 32 kHz period before each second;
 *  - CTRL.ROUND_30S rounds at the next read of SECONDS_REG.
 *
 * Not modelled: oscillator compensation (AUTO_COMP, COMP_*_REG, TEST_MODE
 * and SET_32_COUNTER are stored only), the oscillator and clock source
 * selection (RTC_OSC_REG is stored; time comes from QEMU's RTC clock
 * whatever it says), EXT_WAKEUP debouncing, wakeup generation
 * (RTC_IRQWAKEEN is stored) and idle modes.
 *
 * Reference: AM335x Technical Reference Manual (SPRUH73), chapter 20.3.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/cutils.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qapi/qapi-events-misc.h"
#include "hw/rtc/am335x_rtc.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "system/rtc.h"
#include "system/runstate.h"
#include "system/system.h"
#include "trace.h"

/* TRM table 20-63 */
REG32(SECONDS, 0x00)
REG32(MINUTES, 0x04)
REG32(HOURS, 0x08)
    FIELD(HOURS, PM_NAM, 7, 1)
REG32(DAYS, 0x0c)
REG32(MONTHS, 0x10)
REG32(YEARS, 0x14)
REG32(WEEKS, 0x18)
REG32(ALARM_SECONDS, 0x20)
REG32(ALARM_YEARS, 0x34)
REG32(CTRL, 0x40)
    FIELD(CTRL, STOP_RTC, 0, 1)
    FIELD(CTRL, ROUND_30S, 1, 1)
    FIELD(CTRL, AUTO_COMP, 2, 1)
    FIELD(CTRL, MODE_12_24, 3, 1)
    FIELD(CTRL, TEST_MODE, 4, 1)
    FIELD(CTRL, SET_32_COUNTER, 5, 1)
    FIELD(CTRL, RTC_DISABLE, 6, 1)
REG32(STATUS, 0x44)
    FIELD(STATUS, BUSY, 0, 1)
    FIELD(STATUS, RUN, 1, 1)
    FIELD(STATUS, ONE_SEC_EVENT, 2, 1)
    FIELD(STATUS, ONE_MIN_EVENT, 3, 1)
    FIELD(STATUS, ONE_HR_EVENT, 4, 1)
    FIELD(STATUS, ONE_DAY_EVENT, 5, 1)
    FIELD(STATUS, ALARM, 6, 1)
    FIELD(STATUS, ALARM2, 7, 1)
REG32(INTERRUPTS, 0x48)
    FIELD(INTERRUPTS, EVERY, 0, 2)
    FIELD(INTERRUPTS, IT_TIMER, 2, 1)
    FIELD(INTERRUPTS, IT_ALARM, 3, 1)
    FIELD(INTERRUPTS, IT_ALARM2, 4, 1)
REG32(COMP_LSB, 0x4c)
REG32(COMP_MSB, 0x50)
REG32(OSC, 0x54)
REG32(SCRATCH0, 0x60)
REG32(SCRATCH2, 0x68)
REG32(KICK0R, 0x6c)
REG32(KICK1R, 0x70)
REG32(REVISION, 0x74)
REG32(SYSCONFIG, 0x78)
    FIELD(SYSCONFIG, IDLEMODE, 0, 2)
REG32(IRQWAKEEN, 0x7c)
REG32(ALARM2_SECONDS, 0x80)
REG32(ALARM2_YEARS, 0x94)
REG32(PMIC, 0x98)
    FIELD(PMIC, EXT_WAKEUP_EN, 0, 4)
    FIELD(PMIC, EXT_WAKEUP_POL, 4, 4)
    FIELD(PMIC, EXT_WAKEUP_DB_EN, 8, 4)
    FIELD(PMIC, EXT_WAKEUP_STATUS, 12, 4)
    FIELD(PMIC, PWR_ENABLE_EN, 16, 1)
    FIELD(PMIC, PWR_ENABLE_SM, 17, 2)
REG32(DEBOUNCE, 0x9c)

#define STATUS_EVENTS \
    (R_STATUS_ONE_SEC_EVENT_MASK | R_STATUS_ONE_MIN_EVENT_MASK | \
     R_STATUS_ONE_HR_EVENT_MASK | R_STATUS_ONE_DAY_EVENT_MASK)
#define STATUS_ALARMS   (R_STATUS_ALARM_MASK | R_STATUS_ALARM2_MASK)
#define CTRL_WRITABLE   0x7f
#define INTERRUPTS_WRITABLE 0x1f
#define OSC_WRITABLE    0x5f
#define OSC_RESET       0x10
#define IRQWAKEEN_WRITABLE 0x03
#define DEBOUNCE_WRITABLE 0xff
#define COMP_WRITABLE   0xff
#define PMIC_WRITABLE \
    (R_PMIC_EXT_WAKEUP_EN_MASK | R_PMIC_EXT_WAKEUP_POL_MASK | \
     R_PMIC_EXT_WAKEUP_DB_EN_MASK | R_PMIC_PWR_ENABLE_EN_MASK)
/* TRM table 20-89: smart-idle at reset */
#define SYSCONFIG_RESET 2

/* PWR_ENABLE_SM (TRM table 20-97) */
#define PMIC_SM_IDLE            0
#define PMIC_SM_SHUTDOWN        1
#define PMIC_SM_ALARM_WAKEUP    2
#define PMIC_SM_EXT_WAKEUP      3

/*
 * RTC_REVISION as the silicon reports it; ti-sysc's "rtc" quirk matches it
 * (0x4eb01908 under mask 0xffff00f0).  The TRM's reset value differs.
 */
#define AM335X_RTC_REV          0x4eb01908

/* TRM 20.3.3.5.3: write-protection keys and kicker states */
#define KICK0_KEY               0x83e70b13
#define KICK1_KEY               0x95a4f1e0
enum {
    KICK_LOCKED,                /* S0 */
    KICK_HALF,                  /* S1: KICK0 key written */
    KICK_UNLOCKED,              /* S2 */
};

/* One period of the 32.768 kHz clock, rounded up */
#define RTC_32K_PERIOD_NS       30518
#define NS_PER_SEC              NANOSECONDS_PER_SECOND
#define SECS_PER_DAY            86400
/* 2000-01-01T00:00:00: the two-digit year counts 2000 to 2099. */
#define RTC_EPOCH_2000          INT64_C(946684800)
#define RTC_CENTURY             (INT64_C(36525) * SECS_PER_DAY)

/* Writable bits of the TC registers; HOURS as in 24-hour mode */
static const uint8_t am335x_rtc_tc_mask[AM335X_RTC_TC_NUM] = {
    [AM335X_RTC_TC_SEC] = 0x7f,
    [AM335X_RTC_TC_MIN] = 0x7f,
    [AM335X_RTC_TC_HOUR] = 0x3f,
    [AM335X_RTC_TC_DAY] = 0x3f,
    [AM335X_RTC_TC_MONTH] = 0x1f,
    [AM335X_RTC_TC_YEAR] = 0xff,
    [AM335X_RTC_TC_WEEK] = 0x07,
};
/* HOURS registers with the PM_nAM bit */
#define HOURS_12H_MASK          0xbf

static const char *const am335x_rtc_tc_name[AM335X_RTC_TC_NUM] = {
    "SECONDS", "MINUTES", "HOURS", "DAYS", "MONTHS", "YEARS", "WEEKS",
};

/* Valid ranges of the TC fields in binary, hours in 24-hour form */
static const uint8_t am335x_rtc_tc_min[AM335X_RTC_TC_NUM] = {
    0, 0, 0, 1, 1, 0, 0
};
static const uint8_t am335x_rtc_tc_max[AM335X_RTC_TC_NUM] = {
    59, 59, 23, 31, 12, 99, 6
};

/* The EVERY periods of the timer interrupt, in seconds */
static const int64_t am335x_rtc_every[4] = { 1, 60, 3600, SECS_PER_DAY };

static int64_t div_floor(int64_t a, int64_t b)
{
    return a / b - (a % b < 0);
}

static int64_t mod_floor(int64_t a, int64_t b)
{
    return a - div_floor(a, b) * b;
}

static bool bcd_valid(uint8_t v)
{
    return (v & 0xf) <= 9 && (v >> 4) <= 9;
}

static uint8_t from_bcd(uint8_t v)
{
    return (v >> 4) * 10 + (v & 0xf);
}

static uint8_t to_bcd(unsigned v)
{
    return ((v / 10 % 10) << 4) | (v % 10);
}

static unsigned days_in_month(unsigned month, unsigned year)
{
    static const uint8_t days[12] = {
        31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
    };

    if (month < 1 || month > 12) {
        return 31;
    }
    /* The two-digit year makes every fourth year a leap year. */
    if (month == 2 && year % 4 == 0) {
        return 29;
    }
    return days[month - 1];
}

static bool am335x_rtc_mode_12h(AM335xRtcState *s)
{
    return FIELD_EX32(s->ctrl, CTRL, MODE_12_24);
}

static bool am335x_rtc_counting(AM335xRtcState *s)
{
    return FIELD_EX32(s->ctrl, CTRL, STOP_RTC) &&
           !FIELD_EX32(s->ctrl, CTRL, RTC_DISABLE);
}

/*
 * An HOURS register value in the current mode to a binary 24-hour hour;
 * false if it is no valid hour.
 */
static bool am335x_rtc_hour_in(AM335xRtcState *s, uint8_t reg,
                               unsigned *hour)
{
    uint8_t bcd = reg & 0x3f;
    unsigned h = from_bcd(bcd);

    if (!am335x_rtc_mode_12h(s)) {
        *hour = MIN(h, 23);
        return bcd_valid(bcd) && h <= 23;
    }
    *hour = h % 12 + (FIELD_EX32(reg, HOURS, PM_NAM) ? 12 : 0);
    return bcd_valid(bcd) && h >= 1 && h <= 12;
}

/* A binary 24-hour hour to an HOURS register value in the current mode */
static uint8_t am335x_rtc_hour_out(AM335xRtcState *s, unsigned hour)
{
    unsigned h12;

    if (!am335x_rtc_mode_12h(s)) {
        return to_bcd(hour);
    }
    h12 = hour % 12 ? hour % 12 : 12;
    return to_bcd(h12) | (hour >= 12 ? R_HOURS_PM_NAM_MASK : 0);
}

/*
 * The counters as seconds since 1970.  Out-of-range fields, which only a
 * guest writing nonsense produces, are clamped, and days past the end of
 * the month run into the next one: the next count normalizes them.
 */
static int64_t am335x_rtc_tc_time(AM335xRtcState *s)
{
    unsigned f[AM335X_RTC_TC_NUM];
    struct tm tm = { 0 };

    for (int i = 0; i < AM335X_RTC_TC_NUM; i++) {
        f[i] = MIN(MAX(from_bcd(s->tc[i]), am335x_rtc_tc_min[i]),
                   am335x_rtc_tc_max[i]);
    }
    tm.tm_sec = f[AM335X_RTC_TC_SEC];
    tm.tm_min = f[AM335X_RTC_TC_MIN];
    tm.tm_hour = f[AM335X_RTC_TC_HOUR];
    tm.tm_mday = f[AM335X_RTC_TC_DAY];
    tm.tm_mon = f[AM335X_RTC_TC_MONTH] - 1;
    tm.tm_year = 100 + f[AM335X_RTC_TC_YEAR];
    return mktimegm(&tm);
}

/* Set the counters to @t, wrapped into the century; WEEKS is left alone. */
static void am335x_rtc_set_tc_time(AM335xRtcState *s, int64_t t)
{
    time_t tt = RTC_EPOCH_2000 + mod_floor(t - RTC_EPOCH_2000, RTC_CENTURY);
    struct tm tm;

    gmtime_r(&tt, &tm);
    s->tc[AM335X_RTC_TC_SEC] = to_bcd(tm.tm_sec);
    s->tc[AM335X_RTC_TC_MIN] = to_bcd(tm.tm_min);
    s->tc[AM335X_RTC_TC_HOUR] = to_bcd(tm.tm_hour);
    s->tc[AM335X_RTC_TC_DAY] = to_bcd(tm.tm_mday);
    s->tc[AM335X_RTC_TC_MONTH] = to_bcd(tm.tm_mon + 1);
    s->tc[AM335X_RTC_TC_YEAR] = to_bcd(tm.tm_year - 100);
}

/* Move the counters from @t_old to @t_new, the day of the week included. */
static void am335x_rtc_move(AM335xRtcState *s, int64_t t_old, int64_t t_new)
{
    int64_t days = div_floor(t_new, SECS_PER_DAY) -
                   div_floor(t_old, SECS_PER_DAY);
    unsigned week = MIN(from_bcd(s->tc[AM335X_RTC_TC_WEEK]), 6);

    am335x_rtc_set_tc_time(s, t_new);
    s->tc[AM335X_RTC_TC_WEEK] = mod_floor(week + days, 7);
}

/*
 * The time an alarm register set describes; false if it is no valid date
 * and time, which the counters can never equal.
 */
static bool am335x_rtc_alarm_time(AM335xRtcState *s, const uint8_t *regs,
                                  int64_t *t)
{
    struct tm tm = { 0 };
    unsigned f[AM335X_RTC_ALARM_NUM];
    unsigned hour;

    for (int i = 0; i < AM335X_RTC_ALARM_NUM; i++) {
        if (i == AM335X_RTC_TC_HOUR) {
            continue;
        }
        if (!bcd_valid(regs[i])) {
            return false;
        }
        f[i] = from_bcd(regs[i]);
        if (f[i] < am335x_rtc_tc_min[i] || f[i] > am335x_rtc_tc_max[i]) {
            return false;
        }
    }
    if (!am335x_rtc_hour_in(s, regs[AM335X_RTC_TC_HOUR], &hour) ||
        f[AM335X_RTC_TC_DAY] > days_in_month(f[AM335X_RTC_TC_MONTH],
                                             f[AM335X_RTC_TC_YEAR])) {
        return false;
    }
    tm.tm_sec = f[AM335X_RTC_TC_SEC];
    tm.tm_min = f[AM335X_RTC_TC_MIN];
    tm.tm_hour = hour;
    tm.tm_mday = f[AM335X_RTC_TC_DAY];
    tm.tm_mon = f[AM335X_RTC_TC_MONTH] - 1;
    tm.tm_year = 100 + f[AM335X_RTC_TC_YEAR];
    *t = mktimegm(&tm);
    return true;
}

/*
 * Seconds from @t to the next time the counters equal alarm time @ta,
 * which comes round once a century.
 */
static int64_t am335x_rtc_secs_until(int64_t t, int64_t ta)
{
    return mod_floor(ta - t - 1, RTC_CENTURY) + 1;
}

/* Whether counting from @t_old to @t_new passed through alarm time @ta */
static bool am335x_rtc_passed(int64_t t_old, int64_t t_new, int64_t ta)
{
    return am335x_rtc_secs_until(t_old, ta) <= t_new - t_old;
}

static void am335x_rtc_set_power(AM335xRtcState *s, bool on, unsigned sm)
{
    s->pmic = FIELD_DP32(s->pmic, PMIC, PWR_ENABLE_SM, sm);
    if (on == s->power_en) {
        return;
    }
    trace_am335x_rtc_power(on, sm);
    s->power_en = on;
    qemu_set_irq(s->pmic_power_en, on);
    if (!on && s->shutdown_on_power_off) {
        /* What the PMIC does when PMIC_POWER_EN falls */
        qemu_system_shutdown_request(SHUTDOWN_CAUSE_GUEST_SHUTDOWN);
    }
}

/*
 * TRM table 20-97: with PWR_ENABLE_EN set, ALARM2 turns the power off and
 * ALARM or an EXT_WAKEUP event turns it back on.
 */
static void am335x_rtc_power_event(AM335xRtcState *s, bool on, unsigned sm)
{
    if (!FIELD_EX32(s->pmic, PMIC, PWR_ENABLE_EN) || on == s->power_en) {
        return;
    }
    am335x_rtc_set_power(s, on, sm);
}

/*
 * The events of counting from @t_old to @t_new at @now: the timer event of
 * the EVERY period and the alarms.
 */
static void am335x_rtc_events(AM335xRtcState *s, int64_t t_old,
                              int64_t t_new, int64_t now)
{
    int64_t unit = am335x_rtc_every[FIELD_EX32(s->interrupts, INTERRUPTS,
                                               EVERY)];
    int64_t on_at = 0, off_at = 0;
    int64_t ta;

    if (div_floor(t_new, unit) > div_floor(t_old, unit)) {
        /*
         * TRM table 20-60: the event bits tell which units the last event
         * completed; a second always is.
         */
        int64_t b = div_floor(t_new, unit) * unit;
        uint32_t ev = R_STATUS_ONE_SEC_EVENT_MASK;

        if (mod_floor(b, 60) == 0) {
            ev |= R_STATUS_ONE_MIN_EVENT_MASK;
        }
        if (mod_floor(b, 3600) == 0) {
            ev |= R_STATUS_ONE_HR_EVENT_MASK;
        }
        if (mod_floor(b, SECS_PER_DAY) == 0) {
            ev |= R_STATUS_ONE_DAY_EVENT_MASK;
        }
        s->status = (s->status & ~STATUS_EVENTS) | ev;
        if (FIELD_EX32(s->interrupts, INTERRUPTS, IT_TIMER)) {
            s->timer_pulse = true;
            s->pulse_end_ns = now + RTC_32K_PERIOD_NS;
        }
        trace_am335x_rtc_event(ev);
    }

    if (am335x_rtc_alarm_time(s, s->alarm, &ta) &&
        am335x_rtc_passed(t_old, t_new, ta)) {
        s->status |= R_STATUS_ALARM_MASK;
        on_at = am335x_rtc_secs_until(t_old, ta);
        trace_am335x_rtc_alarm(1);
    }
    if (am335x_rtc_alarm_time(s, s->alarm2, &ta) &&
        am335x_rtc_passed(t_old, t_new, ta)) {
        s->status |= R_STATUS_ALARM2_MASK;
        off_at = am335x_rtc_secs_until(t_old, ta);
        trace_am335x_rtc_alarm(2);
    }
    /* Both in one update: the later one wins. */
    if (off_at && on_at && off_at > on_at) {
        am335x_rtc_power_event(s, true, PMIC_SM_ALARM_WAKEUP);
        on_at = 0;
    }
    if (off_at) {
        am335x_rtc_power_event(s, false, PMIC_SM_SHUTDOWN);
    }
    if (on_at) {
        am335x_rtc_power_event(s, true, PMIC_SM_ALARM_WAKEUP);
    }
}

/* Count the whole seconds the RTC clock has run since the last update. */
static void am335x_rtc_advance(AM335xRtcState *s, int64_t now)
{
    int64_t n, t_old, t_new;

    if (!am335x_rtc_counting(s)) {
        return;
    }
    n = div_floor(now - s->tick_ns, NS_PER_SEC);
    if (!n) {
        return;
    }
    s->tick_ns += n * NS_PER_SEC;
    t_old = am335x_rtc_tc_time(s);
    t_new = t_old + n;
    am335x_rtc_move(s, t_old, t_new);
    /* A clock that went backwards moves the counters back, silently. */
    if (n > 0) {
        am335x_rtc_events(s, t_old, t_new, now);
    }
}

static void am335x_rtc_update_outputs(AM335xRtcState *s, int64_t now)
{
    bool alarm;

    if (s->timer_pulse && now >= s->pulse_end_ns) {
        s->timer_pulse = false;
    }
    alarm = (FIELD_EX32(s->status, STATUS, ALARM) &&
             FIELD_EX32(s->interrupts, INTERRUPTS, IT_ALARM)) ||
            (FIELD_EX32(s->status, STATUS, ALARM2) &&
             FIELD_EX32(s->interrupts, INTERRUPTS, IT_ALARM2));
    trace_am335x_rtc_irq(s->timer_pulse, alarm);
    qemu_set_irq(s->irq_timer, s->timer_pulse);
    qemu_set_irq(s->irq_alarm, alarm);
}

/* Arm the timer for the next event that changes an output. */
static void am335x_rtc_schedule(AM335xRtcState *s)
{
    int64_t deadline = INT64_MAX;

    if (s->timer_pulse) {
        deadline = s->pulse_end_ns;
    }
    if (am335x_rtc_counting(s)) {
        int64_t t = am335x_rtc_tc_time(s);
        int64_t secs = INT64_MAX;
        bool pwr = FIELD_EX32(s->pmic, PMIC, PWR_ENABLE_EN);
        int64_t ta;

        if (FIELD_EX32(s->interrupts, INTERRUPTS, IT_TIMER)) {
            int64_t unit = am335x_rtc_every[FIELD_EX32(s->interrupts,
                                                       INTERRUPTS, EVERY)];

            secs = unit - mod_floor(t, unit);
        }
        if ((FIELD_EX32(s->interrupts, INTERRUPTS, IT_ALARM) ||
             (pwr && !s->power_en)) &&
            am335x_rtc_alarm_time(s, s->alarm, &ta)) {
            secs = MIN(secs, am335x_rtc_secs_until(t, ta));
        }
        if ((FIELD_EX32(s->interrupts, INTERRUPTS, IT_ALARM2) ||
             (pwr && s->power_en)) &&
            am335x_rtc_alarm_time(s, s->alarm2, &ta)) {
            secs = MIN(secs, am335x_rtc_secs_until(t, ta));
        }
        if (secs != INT64_MAX &&
            secs <= (INT64_MAX - MAX(s->tick_ns, 0)) / NS_PER_SEC) {
            deadline = MIN(deadline, s->tick_ns + secs * NS_PER_SEC);
        }
    }
    if (deadline == INT64_MAX) {
        timer_del(&s->timer);
    } else {
        timer_mod(&s->timer, deadline);
    }
}

static void am335x_rtc_sync(AM335xRtcState *s)
{
    int64_t now = qemu_clock_get_ns(rtc_clock);

    am335x_rtc_advance(s, now);
    am335x_rtc_update_outputs(s, now);
    am335x_rtc_schedule(s);
}

static void am335x_rtc_timer_cb(void *opaque)
{
    am335x_rtc_sync(AM335X_RTC(opaque));
}

/* Latch the counters into what the TC registers read. */
static void am335x_rtc_latch(AM335xRtcState *s)
{
    unsigned hour = MIN(from_bcd(s->tc[AM335X_RTC_TC_HOUR]), 23);

    memcpy(s->tc_shadow, s->tc, sizeof(s->tc_shadow));
    s->tc_shadow[AM335X_RTC_TC_HOUR] = am335x_rtc_hour_out(s, hour);
}

/* TRM 20.3.3.5.4.1: to the nearest minute, 30 seconds rounding up */
static void am335x_rtc_round_30s(AM335xRtcState *s)
{
    int64_t t = am335x_rtc_tc_time(s);
    unsigned sec = from_bcd(s->tc[AM335X_RTC_TC_SEC]);

    am335x_rtc_move(s, t, sec >= 30 ? t + 60 - sec : t - sec);
    s->ctrl = FIELD_DP32(s->ctrl, CTRL, ROUND_30S, 0);
}

/* Tell QEMU how far the guest's RTC now is from the host's. */
static void am335x_rtc_report_time(AM335xRtcState *s)
{
    g_autofree char *path = object_get_canonical_path(OBJECT(s));
    time_t t = am335x_rtc_tc_time(s);
    struct tm tm;

    gmtime_r(&t, &tm);
    qapi_event_send_rtc_change(qemu_timedate_diff(&tm), path);
}

static uint32_t am335x_rtc_status(AM335xRtcState *s, int64_t now)
{
    uint32_t v = s->status;

    if (am335x_rtc_counting(s)) {
        v |= R_STATUS_RUN_MASK;
        /* The counters update at the end of this 32 kHz period. */
        if (s->tick_ns + NS_PER_SEC - now <= RTC_32K_PERIOD_NS) {
            v |= R_STATUS_BUSY_MASK;
        }
    }
    return v;
}

static uint32_t am335x_rtc_read_reg(AM335xRtcState *s, hwaddr reg,
                                    int64_t now, bool *ok)
{
    *ok = true;
    switch (reg) {
    case A_SECONDS:
        /* TRM 20.3.3.5.4: reading SECONDS latches the whole TC set. */
        if (FIELD_EX32(s->ctrl, CTRL, ROUND_30S)) {
            am335x_rtc_round_30s(s);
        }
        am335x_rtc_latch(s);
        return s->tc_shadow[AM335X_RTC_TC_SEC];
    case A_MINUTES ... A_WEEKS:
        return s->tc_shadow[reg / 4];
    case A_ALARM_SECONDS ... A_ALARM_YEARS:
        return s->alarm[(reg - A_ALARM_SECONDS) / 4];
    case A_ALARM2_SECONDS ... A_ALARM2_YEARS:
        return s->alarm2[(reg - A_ALARM2_SECONDS) / 4];
    case A_CTRL:
        return s->ctrl;
    case A_STATUS:
        return am335x_rtc_status(s, now);
    case A_INTERRUPTS:
        return s->interrupts;
    case A_COMP_LSB:
        return s->comp_lsb;
    case A_COMP_MSB:
        return s->comp_msb;
    case A_OSC:
        return s->osc;
    case A_SCRATCH0 ... A_SCRATCH2:
        return s->scratch[(reg - A_SCRATCH0) / 4];
    case A_KICK0R:
    case A_KICK1R:
        /* Write-only */
        return 0;
    case A_REVISION:
        return AM335X_RTC_REV;
    case A_SYSCONFIG:
        return s->sysconfig;
    case A_IRQWAKEEN:
        return s->irqwakeen;
    case A_PMIC:
        return s->pmic;
    case A_DEBOUNCE:
        return s->debounce;
    default:
        *ok = false;
        return 0;
    }
}

static uint64_t am335x_rtc_read(void *opaque, hwaddr offset, unsigned size)
{
    AM335xRtcState *s = AM335X_RTC(opaque);
    int64_t now = qemu_clock_get_ns(rtc_clock);
    uint32_t value;
    bool ok;

    am335x_rtc_advance(s, now);
    value = am335x_rtc_read_reg(s, offset & ~3, now, &ok);
    if (!ok) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: bad read offset 0x%" HWADDR_PRIx
                      "\n", __func__, offset);
    }
    value = extract32(value, (offset & 3) * 8, size * 8);
    am335x_rtc_update_outputs(s, now);
    am335x_rtc_schedule(s);
    trace_am335x_rtc_read(offset, size, value);
    return value;
}

/* TRM figure 20-58 */
static void am335x_rtc_kick(AM335xRtcState *s, hwaddr reg, uint32_t value,
                            bool whole)
{
    if (reg == A_KICK0R) {
        s->kick_state = whole && value == KICK0_KEY ? KICK_HALF : KICK_LOCKED;
    } else {
        s->kick_state = whole && value == KICK1_KEY &&
                        s->kick_state == KICK_HALF ?
                        KICK_UNLOCKED : KICK_LOCKED;
    }
    trace_am335x_rtc_kick(s->kick_state);
}

static void am335x_rtc_write_tc(AM335xRtcState *s, unsigned i, uint8_t value)
{
    uint8_t mask = am335x_rtc_tc_mask[i];
    uint8_t v;
    unsigned hour;
    bool valid;

    if (i == AM335X_RTC_TC_HOUR && am335x_rtc_mode_12h(s)) {
        /* Kept in 24-hour form */
        valid = am335x_rtc_hour_in(s, value, &hour);
        v = to_bcd(hour);
    } else {
        v = value & mask;
        valid = bcd_valid(v) && from_bcd(v) >= am335x_rtc_tc_min[i] &&
                from_bcd(v) <= am335x_rtc_tc_max[i];
    }
    if (!valid) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s_REG set to invalid value "
                      "0x%02x\n", __func__, am335x_rtc_tc_name[i], value);
    }
    s->tc[i] = v;
    /* The next read returns what was written. */
    am335x_rtc_latch(s);
    trace_am335x_rtc_set(am335x_rtc_tc_name[i], v);
    am335x_rtc_report_time(s);
}

static void am335x_rtc_write_ctrl(AM335xRtcState *s, uint32_t value,
                                  int64_t now)
{
    bool was_counting = am335x_rtc_counting(s);
    uint32_t unimp = R_CTRL_AUTO_COMP_MASK | R_CTRL_TEST_MODE_MASK |
                     R_CTRL_SET_32_COUNTER_MASK;

    if (value & ~s->ctrl & unimp) {
        qemu_log_mask(LOG_UNIMP, "%s: compensation and test modes "
                      "(CTRL 0x%02x) not modelled\n", __func__, value);
    }
    if (FIELD_EX32(s->ctrl, CTRL, RTC_DISABLE) &&
        !FIELD_EX32(value, CTRL, RTC_DISABLE)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: RTC_DISABLE cleared (TRM "
                      "20.3.3.2: unexpected behaviour)\n", __func__);
    }
    /* ROUND_30S: software sets it, the RTC clears it. */
    value |= s->ctrl & R_CTRL_ROUND_30S_MASK;
    s->ctrl = value & CTRL_WRITABLE;

    if (was_counting && !am335x_rtc_counting(s)) {
        s->phase_ns = MIN(MAX(now - s->tick_ns, 0), NS_PER_SEC - 1);
    } else if (!was_counting && am335x_rtc_counting(s)) {
        s->tick_ns = now - s->phase_ns;
    }
}

static void am335x_rtc_write_pmic(AM335xRtcState *s, uint32_t value,
                                  uint32_t mask)
{
    uint32_t clear = value & mask & R_PMIC_EXT_WAKEUP_STATUS_MASK;
    uint32_t keep = R_PMIC_EXT_WAKEUP_STATUS_MASK | R_PMIC_PWR_ENABLE_SM_MASK;
    uint32_t v = ((s->pmic & ~mask) | (value & mask)) & PMIC_WRITABLE;

    if (FIELD_EX32(v, PMIC, EXT_WAKEUP_DB_EN) &
        ~FIELD_EX32(s->pmic, PMIC, EXT_WAKEUP_DB_EN)) {
        qemu_log_mask(LOG_UNIMP, "%s: EXT_WAKEUP debouncing not modelled\n",
                      __func__);
    }
    s->pmic = v | (s->pmic & keep & ~clear);
    if (!FIELD_EX32(s->pmic, PMIC, PWR_ENABLE_EN)) {
        /* TRM table 20-97: disabled, the pin is driven high. */
        am335x_rtc_set_power(s, true, PMIC_SM_IDLE);
    }
}

static void am335x_rtc_read_only(hwaddr offset)
{
    qemu_log_mask(LOG_GUEST_ERROR, "%s: write to read-only offset 0x%"
                  HWADDR_PRIx "\n", __func__, offset);
}

/* @value holds the written bytes in place, @mask says which they are. */
static bool am335x_rtc_write_reg(AM335xRtcState *s, hwaddr reg,
                                 uint32_t value, uint32_t mask, int64_t now)
{
    uint32_t merged;
    /* Most registers are 8 bits wide: only their low byte matters. */
    bool low = mask & 0xff;

    switch (reg) {
    case A_SECONDS ... A_WEEKS:
        if (low) {
            am335x_rtc_write_tc(s, reg / 4, value);
        }
        return true;
    case A_ALARM_SECONDS ... A_ALARM_YEARS:
        if (low) {
            unsigned i = (reg - A_ALARM_SECONDS) / 4;

            s->alarm[i] = value & (i == AM335X_RTC_TC_HOUR ?
                                   HOURS_12H_MASK : am335x_rtc_tc_mask[i]);
        }
        return true;
    case A_ALARM2_SECONDS ... A_ALARM2_YEARS:
        if (low) {
            unsigned i = (reg - A_ALARM2_SECONDS) / 4;

            s->alarm2[i] = value & (i == AM335X_RTC_TC_HOUR ?
                                    HOURS_12H_MASK : am335x_rtc_tc_mask[i]);
        }
        return true;
    case A_SCRATCH0 ... A_SCRATCH2:
        merged = (s->scratch[(reg - A_SCRATCH0) / 4] & ~mask) |
                 (value & mask);
        s->scratch[(reg - A_SCRATCH0) / 4] = merged;
        return true;
    case A_PMIC:
        am335x_rtc_write_pmic(s, value, mask);
        return true;
    case A_REVISION:
        am335x_rtc_read_only(reg);
        return true;
    default:
        break;
    }

    /* The rest are 8-bit registers. */
    if (!low) {
        return reg == A_CTRL || reg == A_STATUS || reg == A_INTERRUPTS ||
               reg == A_COMP_LSB || reg == A_COMP_MSB || reg == A_OSC ||
               reg == A_SYSCONFIG || reg == A_IRQWAKEEN || reg == A_DEBOUNCE;
    }
    value &= 0xff;
    switch (reg) {
    case A_CTRL:
        am335x_rtc_write_ctrl(s, value, now);
        break;
    case A_STATUS:
        /* ALARM and ALARM2 are write-1-to-clear; the rest is read-only. */
        s->status &= ~(value & STATUS_ALARMS);
        break;
    case A_INTERRUPTS:
        s->interrupts = value & INTERRUPTS_WRITABLE;
        break;
    case A_COMP_LSB:
        s->comp_lsb = value & COMP_WRITABLE;
        break;
    case A_COMP_MSB:
        s->comp_msb = value & COMP_WRITABLE;
        break;
    case A_OSC:
        s->osc = value & OSC_WRITABLE;
        break;
    case A_SYSCONFIG:
        s->sysconfig = value & R_SYSCONFIG_IDLEMODE_MASK;
        break;
    case A_IRQWAKEEN:
        s->irqwakeen = value & IRQWAKEEN_WRITABLE;
        break;
    case A_DEBOUNCE:
        s->debounce = value & DEBOUNCE_WRITABLE;
        break;
    default:
        return false;
    }
    return true;
}

static void am335x_rtc_write(void *opaque, hwaddr offset, uint64_t value,
                             unsigned size)
{
    AM335xRtcState *s = AM335X_RTC(opaque);
    int64_t now = qemu_clock_get_ns(rtc_clock);
    hwaddr reg = offset & ~3;
    unsigned shift = (offset & 3) * 8;
    uint32_t mask = MAKE_64BIT_MASK(shift, size * 8);
    uint32_t data = (uint32_t)value << shift;

    trace_am335x_rtc_write(offset, size, value);

    /* Registers change at @now, after whatever the counters did before. */
    am335x_rtc_advance(s, now);
    if (reg == A_KICK0R || reg == A_KICK1R) {
        am335x_rtc_kick(s, reg, data, mask == UINT32_MAX);
    } else if (s->kick_state != KICK_UNLOCKED) {
        /* TRM 20.3.3.5.3: locked, the registers ignore writes. */
        qemu_log_mask(LOG_GUEST_ERROR, "%s: write to offset 0x%" HWADDR_PRIx
                      " while write-protected (KICK0R/KICK1R); ignored\n",
                      __func__, offset);
    } else if (!am335x_rtc_write_reg(s, reg, data, mask, now)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: bad write offset 0x%"
                      HWADDR_PRIx "\n", __func__, offset);
    }
    am335x_rtc_update_outputs(s, now);
    am335x_rtc_schedule(s);
}

static const MemoryRegionOps am335x_rtc_ops = {
    .read = am335x_rtc_read,
    .write = am335x_rtc_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    /* rtc-omap accesses the 8-bit registers with readb/writeb. */
    .valid.min_access_size = 1,
    .valid.max_access_size = 4,
    .impl.min_access_size = 1,
    .impl.max_access_size = 4,
};

static bool am335x_rtc_ext_active(AM335xRtcState *s, int n)
{
    bool level = extract32(s->ext_wakeup, n, 1);

    /* EXT_WAKEUP_POL: 1 = active low */
    return level != extract32(s->pmic, R_PMIC_EXT_WAKEUP_POL_SHIFT + n, 1);
}

/* An EXT_WAKEUP input: an enabled one becoming active is a wakeup event. */
static void am335x_rtc_ext_wakeup(void *opaque, int n, int level)
{
    AM335xRtcState *s = AM335X_RTC(opaque);
    bool was_active;

    if (n < 0 || n >= AM335X_RTC_NUM_EXT_WAKEUP) {
        return;
    }
    was_active = am335x_rtc_ext_active(s, n);
    s->ext_wakeup = deposit32(s->ext_wakeup, n, 1, level != 0);
    if (!extract32(s->pmic, R_PMIC_EXT_WAKEUP_EN_SHIFT + n, 1) ||
        was_active || !am335x_rtc_ext_active(s, n)) {
        return;
    }
    trace_am335x_rtc_ext_wakeup(n);
    s->pmic |= BIT(R_PMIC_EXT_WAKEUP_STATUS_SHIFT + n);
    am335x_rtc_power_event(s, true, PMIC_SM_EXT_WAKEUP);
}

/*
 * Power-on reset of the RTC domain: the counters take QEMU's RTC time and
 * run, as though an earlier boot had set and started them.
 */
static void am335x_rtc_power_on(AM335xRtcState *s)
{
    int64_t now = qemu_clock_get_ns(rtc_clock);
    struct tm tm;

    qemu_get_timedate(&tm, 0);
    am335x_rtc_set_tc_time(s, mktimegm(&tm));
    s->tc[AM335X_RTC_TC_WEEK] = tm.tm_wday;
    /* QEMU's RTC time changes second at whole seconds of its clock. */
    s->tick_ns = now - mod_floor(now, NS_PER_SEC);
    s->phase_ns = 0;
    /* TRM table 20-74 and the like: the alarm days and months reset to 1 */
    memset(s->alarm, 0, sizeof(s->alarm));
    memset(s->alarm2, 0, sizeof(s->alarm2));
    s->alarm[AM335X_RTC_TC_DAY] = s->alarm[AM335X_RTC_TC_MONTH] = 1;
    s->alarm2[AM335X_RTC_TC_DAY] = s->alarm2[AM335X_RTC_TC_MONTH] = 1;
    s->ctrl = R_CTRL_STOP_RTC_MASK;
    s->status = 0;
    s->interrupts = 0;
    s->comp_lsb = 0;
    s->comp_msb = 0;
    s->osc = OSC_RESET;
    memset(s->scratch, 0, sizeof(s->scratch));
    s->sysconfig = SYSCONFIG_RESET;
    s->irqwakeen = 0;
    s->pmic = 0;
    s->debounce = 0;
    am335x_rtc_latch(s);
    s->powered_on = true;
}

static void am335x_rtc_reset_enter(Object *obj, ResetType type)
{
    AM335xRtcState *s = AM335X_RTC(obj);

    timer_del(&s->timer);
    if (!s->powered_on) {
        am335x_rtc_power_on(s);
    }
    /* The OCP interface resets: registers are write-protected again. */
    s->kick_state = KICK_LOCKED;
    s->timer_pulse = false;
    /* The board is powered, since it is being reset. */
    s->pmic = FIELD_DP32(s->pmic, PMIC, PWR_ENABLE_SM, PMIC_SM_IDLE);
    s->power_en = true;
}

static void am335x_rtc_reset_hold(Object *obj, ResetType type)
{
    AM335xRtcState *s = AM335X_RTC(obj);

    qemu_set_irq(s->pmic_power_en, s->power_en);
    am335x_rtc_sync(s);
}

static void am335x_rtc_realize(DeviceState *dev, Error **errp)
{
    AM335xRtcState *s = AM335X_RTC(dev);

    memory_region_init_io(&s->iomem, OBJECT(s), &am335x_rtc_ops, s,
                          TYPE_AM335X_RTC, AM335X_RTC_MMIO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->iomem);
}

static void am335x_rtc_init(Object *obj)
{
    AM335xRtcState *s = AM335X_RTC(obj);
    DeviceState *dev = DEVICE(obj);

    timer_init_ns(&s->timer, rtc_clock, am335x_rtc_timer_cb, s);
    sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq_timer);
    sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq_alarm);
    qdev_init_gpio_out_named(dev, &s->pmic_power_en,
                             AM335X_RTC_PMIC_POWER_EN, 1);
    qdev_init_gpio_in_named(dev, am335x_rtc_ext_wakeup,
                            AM335X_RTC_EXT_WAKEUP,
                            AM335X_RTC_NUM_EXT_WAKEUP);
}

static void am335x_rtc_finalize(Object *obj)
{
    AM335xRtcState *s = AM335X_RTC(obj);

    timer_del(&s->timer);
}

static int am335x_rtc_post_load(void *opaque, int version_id)
{
    AM335xRtcState *s = AM335X_RTC(opaque);

    if (s->kick_state > KICK_UNLOCKED ||
        s->phase_ns < 0 || s->phase_ns >= NS_PER_SEC) {
        return -EINVAL;
    }
    /* The timer runs on the RTC clock, which is not migrated: re-arm it. */
    am335x_rtc_schedule(s);
    return 0;
}

static const VMStateDescription vmstate_am335x_rtc = {
    .name = TYPE_AM335X_RTC,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = am335x_rtc_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT8_ARRAY(tc, AM335xRtcState, AM335X_RTC_TC_NUM),
        VMSTATE_INT64(tick_ns, AM335xRtcState),
        VMSTATE_INT64(phase_ns, AM335xRtcState),
        VMSTATE_UINT8_ARRAY(tc_shadow, AM335xRtcState, AM335X_RTC_TC_NUM),
        VMSTATE_UINT8_ARRAY(alarm, AM335xRtcState, AM335X_RTC_ALARM_NUM),
        VMSTATE_UINT8_ARRAY(alarm2, AM335xRtcState, AM335X_RTC_ALARM_NUM),
        VMSTATE_UINT32(ctrl, AM335xRtcState),
        VMSTATE_UINT32(status, AM335xRtcState),
        VMSTATE_UINT32(interrupts, AM335xRtcState),
        VMSTATE_UINT32(comp_lsb, AM335xRtcState),
        VMSTATE_UINT32(comp_msb, AM335xRtcState),
        VMSTATE_UINT32(osc, AM335xRtcState),
        VMSTATE_UINT32_ARRAY(scratch, AM335xRtcState, 3),
        VMSTATE_UINT32(sysconfig, AM335xRtcState),
        VMSTATE_UINT32(irqwakeen, AM335xRtcState),
        VMSTATE_UINT32(pmic, AM335xRtcState),
        VMSTATE_UINT32(debounce, AM335xRtcState),
        VMSTATE_UINT8(kick_state, AM335xRtcState),
        VMSTATE_BOOL(timer_pulse, AM335xRtcState),
        VMSTATE_INT64(pulse_end_ns, AM335xRtcState),
        VMSTATE_BOOL(power_en, AM335xRtcState),
        VMSTATE_UINT8(ext_wakeup, AM335xRtcState),
        VMSTATE_BOOL(powered_on, AM335xRtcState),
        VMSTATE_END_OF_LIST()
    }
};

static const Property am335x_rtc_properties[] = {
    /*
     * Shut QEMU down when PMIC_POWER_EN falls, as the PMIC would, for
     * boards that do not wire the pin to a PMIC model.
     */
    DEFINE_PROP_BOOL("shutdown-on-power-off", AM335xRtcState,
                     shutdown_on_power_off, true),
};

static void am335x_rtc_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->realize = am335x_rtc_realize;
    dc->vmsd = &vmstate_am335x_rtc;
    dc->desc = "TI AM335x real-time clock";
    rc->phases.enter = am335x_rtc_reset_enter;
    rc->phases.hold = am335x_rtc_reset_hold;
    device_class_set_props(dc, am335x_rtc_properties);
}

static const TypeInfo am335x_rtc_info = {
    .name = TYPE_AM335X_RTC,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AM335xRtcState),
    .instance_init = am335x_rtc_init,
    .instance_finalize = am335x_rtc_finalize,
    .class_init = am335x_rtc_class_init,
};

static void am335x_rtc_register_types(void)
{
    type_register_static(&am335x_rtc_info);
}

type_init(am335x_rtc_register_types)
