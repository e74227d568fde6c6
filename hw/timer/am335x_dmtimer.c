/*
 * TI AM335x DMTimer
 *
 * The AM335x has eight dual-mode timers of two kinds.  DMTIMER0 and
 * DMTIMER2-7 are the OMAP4-style IP: the interrupt registers follow the
 * OCP convention (IRQSTATUS_RAW, IRQSTATUS, IRQENABLE_SET/CLR) and the
 * functional registers start at 0x38.  DMTIMER1_1MS is the older OMAP3-style
 * IP: TISR/TIER, functional registers from 0x24, and extra logic that adjusts
 * the overflow period so that a 32768 Hz clock yields 1 ms ticks on average.
 *
 * Both count TCRR up from the functional clock, optionally divided by
 * 2^(PTV + 1).  On overflow the counter reloads from TLDR (auto-reload) or
 * stops at zero (one-shot); it raises a match event when it reaches TMAR and
 * latches TCAR1/TCAR2 on edges of the PIEVENTCAPT input.  The counter is
 * computed from the virtual clock when read; a QEMUTimer is armed only for
 * the next overflow or match, so a running timer costs one callback per
 * event, never one per tick.
 *
 * Reference: AM335x Technical Reference Manual (SPRUH73), chapter 20.1
 * (DMTimer) and chapter 20.2 (DMTimer 1ms).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "hw/timer/am335x_dmtimer.h"
#include "hw/irq.h"
#include "hw/qdev-clock.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "trace.h"

/* Registers at the same place in both layouts */
REG32(TIDR, 0x00)
REG32(TIOCP_CFG, 0x10)
    FIELD(TIOCP_CFG, SOFTRESET, 0, 1)
    FIELD(TIOCP_CFG, EMUFREE, 1, 1)
    FIELD(TIOCP_CFG, IDLEMODE, 2, 2)

/* DMTIMER0, DMTIMER2-7: TRM table 20-10 */
/*
 * Not a register in the TRM, but Linux's am33xx device tree names 0x14 the
 * "syss" register of these timers' ti-sysc wrapper, with an empty mask, so
 * ti-sysc reads it after a soft reset.  It reads as 0.
 */
REG32(SYSS_UNUSED, 0x14)
REG32(IRQ_EOI, 0x20)
REG32(IRQSTATUS_RAW, 0x24)
    FIELD(IRQSTATUS_RAW, MAT_IT_FLAG, 0, 1)
    FIELD(IRQSTATUS_RAW, OVF_IT_FLAG, 1, 1)
    FIELD(IRQSTATUS_RAW, TCAR_IT_FLAG, 2, 1)
REG32(IRQSTATUS, 0x28)
REG32(IRQENABLE_SET, 0x2c)
REG32(IRQENABLE_CLR, 0x30)
REG32(IRQWAKEEN, 0x34)
REG32(TCLR, 0x38)
    FIELD(TCLR, ST, 0, 1)
    FIELD(TCLR, AR, 1, 1)
    FIELD(TCLR, PTV, 2, 3)
    FIELD(TCLR, PRE, 5, 1)
    FIELD(TCLR, CE, 6, 1)
    FIELD(TCLR, SCPWM, 7, 1)
    FIELD(TCLR, TCM, 8, 2)
    FIELD(TCLR, TRG, 10, 2)
    FIELD(TCLR, PT, 12, 1)
    FIELD(TCLR, CAPT_MODE, 13, 1)
    FIELD(TCLR, GPO_CFG, 14, 1)
REG32(TCRR, 0x3c)
REG32(TLDR, 0x40)
REG32(TTGR, 0x44)
REG32(TWPS, 0x48)
REG32(TMAR, 0x4c)
REG32(TCAR1, 0x50)
REG32(TSICR, 0x54)
    FIELD(TSICR, SFT, 1, 1)
    FIELD(TSICR, POSTED, 2, 1)
REG32(TCAR2, 0x58)

/*
 * DMTIMER1_1MS: TRM table 20-35.  TCLR, TSICR and the interrupt bits have
 * the same fields as above; TIOCP_CFG is the older OCP layout.
 */
REG32(MS_TIOCP_CFG, 0x10)
    FIELD(MS_TIOCP_CFG, AUTOIDLE, 0, 1)
    FIELD(MS_TIOCP_CFG, SOFTRESET, 1, 1)
    FIELD(MS_TIOCP_CFG, ENAWAKEUP, 2, 1)
    FIELD(MS_TIOCP_CFG, IDLEMODE, 3, 2)
    FIELD(MS_TIOCP_CFG, EMUFREE, 5, 1)
    FIELD(MS_TIOCP_CFG, CLOCKACTIVITY, 8, 2)
REG32(TISTAT, 0x14)
    FIELD(TISTAT, RESETDONE, 0, 1)
REG32(TISR, 0x18)
REG32(TIER, 0x1c)
REG32(TWER, 0x20)
REG32(MS_TCLR, 0x24)
REG32(MS_TCRR, 0x28)
REG32(MS_TLDR, 0x2c)
REG32(MS_TTGR, 0x30)
REG32(MS_TWPS, 0x34)
REG32(MS_TMAR, 0x38)
REG32(MS_TCAR1, 0x3c)
REG32(MS_TSICR, 0x40)
REG32(MS_TCAR2, 0x44)
REG32(TPIR, 0x48)
REG32(TNIR, 0x4c)
REG32(TCVR, 0x50)
REG32(TOCR, 0x54)
    FIELD(TOCR, OVF_COUNTER_VALUE, 0, 24)
REG32(TOWR, 0x58)
    FIELD(TOWR, OVF_WRAPPING_VALUE, 0, 24)

/* Interrupt events, the same bits in every status/enable/wakeup register */
#define IRQ_MAT     R_IRQSTATUS_RAW_MAT_IT_FLAG_MASK
#define IRQ_OVF     R_IRQSTATUS_RAW_OVF_IT_FLAG_MASK
#define IRQ_TCAR    R_IRQSTATUS_RAW_TCAR_IT_FLAG_MASK
#define IRQ_ALL     (IRQ_MAT | IRQ_OVF | IRQ_TCAR)

/* TCLR.TCM: which PIEVENTCAPT transitions are captured */
#define TCM_RISING  1
#define TCM_FALLING 2

#define TCLR_WRITABLE   0x7fff
#define TIOCP_CFG_WRITABLE \
    (R_TIOCP_CFG_EMUFREE_MASK | R_TIOCP_CFG_IDLEMODE_MASK)
#define MS_TIOCP_CFG_WRITABLE \
    (R_MS_TIOCP_CFG_AUTOIDLE_MASK | R_MS_TIOCP_CFG_ENAWAKEUP_MASK | \
     R_MS_TIOCP_CFG_IDLEMODE_MASK | R_MS_TIOCP_CFG_EMUFREE_MASK | \
     R_MS_TIOCP_CFG_CLOCKACTIVITY_MASK)
/* TRM tables 20-26 and 20-49: POSTED resets to 1 on both IPs. */
#define TSICR_RESET     R_TSICR_POSTED_MASK
/* TRM tables 20-22 and 20-45: TTGR always reads all ones. */
#define TTGR_READ       0xffffffff

/*
 * TIDR as the silicon reports it.  The TRM gives 0x40000100 for the
 * OMAP4-style timers, but AM335x parts read 0x4fff1301, the value Linux's
 * ti-sysc quirk table matches; DMTIMER1_1MS reads 0x15 (TRM table 20-36).
 * Linux picks the register layout from TIDR[31:16] being zero or not.
 */
#define AM335X_DMTIMER_REV      0x4fff1301
#define AM335X_DMTIMER_1MS_REV  0x00000015

/*
 * Overflows handled one at a time per update.  A guest that programs a
 * period of a tick or two (TLDR = 0xffffffff is even documented as "not
 * recommended") would otherwise cost one loop iteration per tick after a
 * late update; past this many the rest are folded arithmetically.
 */
#define AM335X_DMTIMER_OVERFLOW_BATCH 64

static uint32_t am335x_dmtimer_tidr(AM335xDMTimerState *s)
{
    if (s->revision) {
        return s->revision;
    }
    return s->one_ms ? AM335X_DMTIMER_1MS_REV : AM335X_DMTIMER_REV;
}

static void am335x_dmtimer_update_irq(AM335xDMTimerState *s)
{
    bool level = (s->irq_raw & s->irq_enable) != 0;

    trace_am335x_dmtimer_irq(DEVICE(s)->canonical_path, s->irq_raw,
                             s->irq_enable, level);
    qemu_set_irq(s->irq, level);
}

/* Everything TSICR.SFT resets: the counter and its interrupt logic. */
static void am335x_dmtimer_reset_functional(AM335xDMTimerState *s)
{
    s->ref_ns = 0;
    s->count_tick = 0;
    s->count = 0;
    s->irq_raw = 0;
    s->irq_enable = 0;
    s->irq_wake = 0;
    s->tclr = 0;
    s->tldr = 0;
    s->tmar = 0;
    s->tcar1 = 0;
    s->tcar2 = 0;
    s->tpir = 0;
    s->tnir = 0;
    s->tcvr = 0;
    s->tocr = 0;
    s->towr = 0;
    s->captures = 0;
}

static void am335x_dmtimer_reset_regs(AM335xDMTimerState *s)
{
    am335x_dmtimer_reset_functional(s);
    s->tiocp_cfg = 0;
    s->tsicr = TSICR_RESET;
}

static bool am335x_dmtimer_running(AM335xDMTimerState *s)
{
    return FIELD_EX32(s->tclr, TCLR, ST) && clock_is_enabled(s->fclk);
}

/* TRM table 20-7: with PRE set the counter advances every 2^(PTV+1) clocks */
static unsigned am335x_dmtimer_prescale_shift(AM335xDMTimerState *s)
{
    if (!FIELD_EX32(s->tclr, TCLR, PRE)) {
        return 0;
    }
    return FIELD_EX32(s->tclr, TCLR, PTV) + 1;
}

/* Prescaled ticks since ref_ns. */
static uint64_t am335x_dmtimer_ticks_at(AM335xDMTimerState *s, int64_t now)
{
    if (now <= s->ref_ns) {
        return 0;
    }
    return clock_ns_to_ticks(s->fclk, now - s->ref_ns) >>
           am335x_dmtimer_prescale_shift(s);
}

/* The first virtual time at which prescaled tick @tick has been reached. */
static int64_t am335x_dmtimer_tick_time(AM335xDMTimerState *s, uint64_t tick)
{
    unsigned shift = am335x_dmtimer_prescale_shift(s);
    uint64_t ns;

    if (tick > (INT64_MAX >> shift)) {
        return INT64_MAX;
    }
    ns = clock_ticks_to_ns(s->fclk, tick << shift);
    /* clock_ticks_to_ns() rounds down; one more ns rounds the deadline up */
    if (ns >= (uint64_t)(INT64_MAX - 1 - s->ref_ns)) {
        return INT64_MAX;
    }
    return s->ref_ns + ns + 1;
}

/* The prescaler restarts: count afresh from @now. */
static void am335x_dmtimer_rebase(AM335xDMTimerState *s, int64_t now)
{
    s->ref_ns = now;
    s->count_tick = 0;
}

/* Ticks from the current count to the next event, and which event it is. */
static uint64_t am335x_dmtimer_next_event(AM335xDMTimerState *s, bool *match)
{
    if (FIELD_EX32(s->tclr, TCLR, CE) && s->tmar > s->count) {
        *match = true;
        return s->tmar - s->count;
    }
    *match = false;
    return (1ULL << 32) - s->count;
}

/*
 * DMTIMER1_1MS overflow masking (TRM figure 20-29): TOCR counts overflows
 * and the tick interrupt is raised only on the one after TOWR masked ones,
 * when TOCR restarts from zero.  Accounts for @n overflows at once and
 * returns whether the interrupt fired among them.
 */
static bool am335x_dmtimer_1ms_filter(AM335xDMTimerState *s, uint64_t n)
{
    uint64_t masked = (s->towr - s->tocr) & R_TOCR_OVF_COUNTER_VALUE_MASK;

    if (n <= masked) {
        s->tocr = (s->tocr + n) & R_TOCR_OVF_COUNTER_VALUE_MASK;
        return false;
    }
    s->tocr = (n - masked - 1) % ((uint64_t)s->towr + 1);
    return true;
}

/*
 * DMTIMER1_1MS reload value (TRM table 20-30).  Add1 = TCVR + TPIR and
 * Add2 = TCVR + TNIR are the accumulated error after an over-period
 * (TLDR - 1, one tick longer) and after a sub-period (TLDR); Add3 = Add1 +
 * Add2 compares their magnitudes when their signs differ.  The period that
 * keeps the error nearer zero is loaded, and its error becomes the new TCVR.
 * With TPIR = TNIR = 0, as after reset, this is a plain TLDR reload.
 */
static uint32_t am335x_dmtimer_1ms_reload(AM335xDMTimerState *s)
{
    uint32_t add1 = s->tcvr + s->tpir;
    uint32_t add2 = s->tcvr + s->tnir;
    uint32_t add3 = add1 + add2;
    bool neg1 = add1 >> 31;
    bool neg2 = add2 >> 31;
    bool over;

    if (neg1) {
        /* Add1 < 0 with Add2 >= 0 is "N.A." in the TRM: take the TLDR path */
        over = neg2;
    } else {
        over = neg2 && (add3 >> 31);
    }
    s->tcvr = over ? add1 : add2;
    return over ? s->tldr - 1 : s->tldr;
}

static void am335x_dmtimer_overflow(AM335xDMTimerState *s)
{
    if (!s->one_ms || am335x_dmtimer_1ms_filter(s, 1)) {
        s->irq_raw |= IRQ_OVF;
    }
    if (FIELD_EX32(s->tclr, TCLR, AR)) {
        s->count = s->one_ms ? am335x_dmtimer_1ms_reload(s) : s->tldr;
        /* Reloading straight onto TMAR is a match like any other. */
        if (FIELD_EX32(s->tclr, TCLR, CE) && s->count == s->tmar) {
            s->irq_raw |= IRQ_MAT;
        }
    } else {
        /* TRM 20.1.5.9: one-shot mode stops at 0 and clears ST by itself */
        s->count = 0;
        s->tclr = FIELD_DP32(s->tclr, TCLR, ST, 0);
    }
    trace_am335x_dmtimer_overflow(DEVICE(s)->canonical_path, s->count);
}

/*
 * Fold the overflows still due at @tick without visiting each one: the
 * period is taken as the plain TLDR one (the 1 ms correction is skipped)
 * and the sticky status bits are set if any of their events happened.
 * Called at an auto-reload overflow that is due.
 */
static void am335x_dmtimer_skip_periods(AM335xDMTimerState *s, uint64_t tick)
{
    uint64_t period = (1ULL << 32) - s->tldr;
    uint64_t after = tick - s->count_tick - ((1ULL << 32) - s->count);
    uint64_t periods = after / period;
    uint32_t count = s->tldr + after % period;

    if (FIELD_EX32(s->tclr, TCLR, CE) && s->tmar >= s->tldr &&
        (periods || s->tmar <= count)) {
        s->irq_raw |= IRQ_MAT;
    }
    if (!s->one_ms || am335x_dmtimer_1ms_filter(s, periods + 1)) {
        s->irq_raw |= IRQ_OVF;
    }
    s->count = count;
    s->count_tick = tick;
    trace_am335x_dmtimer_overflow(DEVICE(s)->canonical_path, s->count);
}

/*
 * Bring TCRR and the status bits up to @now.  Returns true if any event
 * happened, in which case the IRQ and the QEMUTimer need updating.
 */
static bool am335x_dmtimer_advance(AM335xDMTimerState *s, int64_t now)
{
    unsigned overflows = 0;
    bool events = false;
    uint64_t tick;

    if (!am335x_dmtimer_running(s)) {
        return false;
    }
    tick = am335x_dmtimer_ticks_at(s, now);
    if (tick < s->count_tick) {
        return false;
    }

    for (;;) {
        bool match;
        uint64_t delta = am335x_dmtimer_next_event(s, &match);

        if (tick - s->count_tick < delta) {
            break;
        }
        events = true;
        if (!match && FIELD_EX32(s->tclr, TCLR, AR) &&
            ++overflows > AM335X_DMTIMER_OVERFLOW_BATCH) {
            am335x_dmtimer_skip_periods(s, tick);
            return true;
        }
        s->count_tick += delta;
        if (match) {
            s->count = s->tmar;
            s->irq_raw |= IRQ_MAT;
        } else {
            am335x_dmtimer_overflow(s);
            if (!FIELD_EX32(s->tclr, TCLR, ST)) {
                return true;
            }
        }
    }
    s->count += tick - s->count_tick;
    s->count_tick = tick;
    return events;
}

static void am335x_dmtimer_schedule(AM335xDMTimerState *s)
{
    bool match;
    uint64_t delta;

    if (!am335x_dmtimer_running(s)) {
        timer_del(&s->timer);
        return;
    }
    delta = am335x_dmtimer_next_event(s, &match);
    timer_mod(&s->timer, am335x_dmtimer_tick_time(s, s->count_tick + delta));
}

static void am335x_dmtimer_expired(void *opaque)
{
    AM335xDMTimerState *s = AM335X_DMTIMER(opaque);

    am335x_dmtimer_advance(s, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
    am335x_dmtimer_update_irq(s);
    am335x_dmtimer_schedule(s);
}

static void am335x_dmtimer_clock_event(void *opaque, ClockEvent event)
{
    AM335xDMTimerState *s = AM335X_DMTIMER(opaque);
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    if (!DEVICE(s)->realized) {
        return;
    }
    if (event == ClockPreUpdate) {
        /* Count what the old period produced before it changes. */
        am335x_dmtimer_advance(s, now);
        return;
    }
    trace_am335x_dmtimer_clock(DEVICE(s)->canonical_path,
                               clock_get_hz(s->fclk));
    /* A gated clock (period 0) freezes the counter where it is. */
    am335x_dmtimer_rebase(s, now);
    am335x_dmtimer_update_irq(s);
    am335x_dmtimer_schedule(s);
}

/* W1C of the status bits; clearing TCAR_IT_FLAG re-arms the capture logic. */
static void am335x_dmtimer_clear_status(AM335xDMTimerState *s, uint32_t value)
{
    value &= IRQ_ALL;
    s->irq_raw &= ~value;
    if (value & IRQ_TCAR) {
        s->captures = 0;
    }
}

static void am335x_dmtimer_write_tclr(AM335xDMTimerState *s, uint32_t value,
                                      int64_t now)
{
    uint32_t old = s->tclr;
    uint32_t restart = R_TCLR_ST_MASK | R_TCLR_PRE_MASK | R_TCLR_PTV_MASK;

    if (value & ~TCLR_WRITABLE) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: reserved TCLR bits 0x%08x\n",
                      __func__, value & ~TCLR_WRITABLE);
    }
    value &= TCLR_WRITABLE;
    /* TRM 20.1.5.9: leaving TCM = 0 clears TCAR_IT_FLAG and edge detection */
    if (!FIELD_EX32(old, TCLR, TCM) && FIELD_EX32(value, TCLR, TCM)) {
        am335x_dmtimer_clear_status(s, IRQ_TCAR);
    }
    if (!FIELD_EX32(old, TCLR, TRG) && FIELD_EX32(value, TCLR, TRG)) {
        qemu_log_mask(LOG_UNIMP, "%s: PORTIMERPWM output not modelled\n",
                      __func__);
    }
    s->tclr = value;
    /* Starting, stopping or re-dividing restarts the prescaler. */
    if ((old ^ value) & restart) {
        am335x_dmtimer_rebase(s, now);
    }
}

static void am335x_dmtimer_load(AM335xDMTimerState *s, uint32_t value,
                                int64_t now)
{
    s->count = value;
    am335x_dmtimer_rebase(s, now);
}

static void am335x_dmtimer_write_tsicr(AM335xDMTimerState *s, uint32_t value)
{
    if (FIELD_EX32(value, TSICR, SFT)) {
        trace_am335x_dmtimer_reset(DEVICE(s)->canonical_path, "TSICR.SFT");
        am335x_dmtimer_reset_functional(s);
    }
    /* Posted writes complete at once here, so POSTED is only remembered. */
    s->tsicr = value & R_TSICR_POSTED_MASK;
}

static void am335x_dmtimer_softreset(AM335xDMTimerState *s)
{
    trace_am335x_dmtimer_reset(DEVICE(s)->canonical_path,
                               "TIOCP_CFG.SOFTRESET");
    am335x_dmtimer_reset_regs(s);
}

static void am335x_dmtimer_read_only(hwaddr offset)
{
    qemu_log_mask(LOG_GUEST_ERROR, "%s: write to read-only offset 0x%"
                  HWADDR_PRIx "\n", __func__, offset);
}

static bool am335x_dmtimer_read_reg(AM335xDMTimerState *s, hwaddr offset,
                                    uint32_t *value)
{
    switch (offset) {
    case A_TIDR:
        *value = am335x_dmtimer_tidr(s);
        break;
    case A_TIOCP_CFG:
        *value = s->tiocp_cfg;
        break;
    case A_SYSS_UNUSED:
    case A_IRQ_EOI:
        /* TRM table 20-13: IRQ_EOI reads always return 0 */
        *value = 0;
        break;
    case A_IRQSTATUS_RAW:
        *value = s->irq_raw;
        break;
    case A_IRQSTATUS:
        *value = s->irq_raw & s->irq_enable;
        break;
    case A_IRQENABLE_SET:
    case A_IRQENABLE_CLR:
        *value = s->irq_enable;
        break;
    case A_IRQWAKEEN:
        *value = s->irq_wake;
        break;
    case A_TCLR:
        *value = s->tclr;
        break;
    case A_TCRR:
        *value = s->count;
        break;
    case A_TLDR:
        *value = s->tldr;
        break;
    case A_TTGR:
        *value = TTGR_READ;
        break;
    case A_TWPS:
        /* No write is ever pending. */
        *value = 0;
        break;
    case A_TMAR:
        *value = s->tmar;
        break;
    case A_TCAR1:
        *value = s->tcar1;
        break;
    case A_TSICR:
        *value = s->tsicr;
        break;
    case A_TCAR2:
        *value = s->tcar2;
        break;
    default:
        return false;
    }
    return true;
}

static bool am335x_dmtimer_1ms_read_reg(AM335xDMTimerState *s, hwaddr offset,
                                        uint32_t *value)
{
    switch (offset) {
    case A_TIDR:
        *value = am335x_dmtimer_tidr(s);
        break;
    case A_MS_TIOCP_CFG:
        *value = s->tiocp_cfg;
        break;
    case A_TISTAT:
        /* A reset completes within the access that requested it. */
        *value = R_TISTAT_RESETDONE_MASK;
        break;
    case A_TISR:
        *value = s->irq_raw;
        break;
    case A_TIER:
        *value = s->irq_enable;
        break;
    case A_TWER:
        *value = s->irq_wake;
        break;
    case A_MS_TCLR:
        *value = s->tclr;
        break;
    case A_MS_TCRR:
        *value = s->count;
        break;
    case A_MS_TLDR:
        *value = s->tldr;
        break;
    case A_MS_TTGR:
        *value = TTGR_READ;
        break;
    case A_MS_TWPS:
        *value = 0;
        break;
    case A_MS_TMAR:
        *value = s->tmar;
        break;
    case A_MS_TCAR1:
        *value = s->tcar1;
        break;
    case A_MS_TSICR:
        *value = s->tsicr;
        break;
    case A_MS_TCAR2:
        *value = s->tcar2;
        break;
    case A_TPIR:
        *value = s->tpir;
        break;
    case A_TNIR:
        *value = s->tnir;
        break;
    case A_TCVR:
        *value = s->tcvr;
        break;
    case A_TOCR:
        *value = s->tocr;
        break;
    case A_TOWR:
        *value = s->towr;
        break;
    default:
        return false;
    }
    return true;
}

static uint64_t am335x_dmtimer_read(void *opaque, hwaddr offset,
                                    unsigned size)
{
    AM335xDMTimerState *s = AM335X_DMTIMER(opaque);
    uint32_t value = 0;
    bool ok;

    if (am335x_dmtimer_advance(s, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL))) {
        am335x_dmtimer_update_irq(s);
        am335x_dmtimer_schedule(s);
    }
    if (s->one_ms) {
        ok = am335x_dmtimer_1ms_read_reg(s, offset, &value);
    } else {
        ok = am335x_dmtimer_read_reg(s, offset, &value);
    }
    if (!ok) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: bad read offset 0x%" HWADDR_PRIx
                      "\n", __func__, offset);
    }

    trace_am335x_dmtimer_read(DEVICE(s)->canonical_path, offset, value);
    return value;
}

static bool am335x_dmtimer_write_reg(AM335xDMTimerState *s, hwaddr offset,
                                     uint32_t value, int64_t now)
{
    switch (offset) {
    case A_TIOCP_CFG:
        if (FIELD_EX32(value, TIOCP_CFG, SOFTRESET)) {
            am335x_dmtimer_softreset(s);
        } else {
            s->tiocp_cfg = value & TIOCP_CFG_WRITABLE;
        }
        break;
    case A_IRQ_EOI:
        /* DMA event acknowledge: this model raises no DMA events. */
        break;
    case A_IRQSTATUS_RAW:
        /* TRM table 20-14: writing 1 sets a raw status bit, for debug */
        s->irq_raw |= value & IRQ_ALL;
        break;
    case A_IRQSTATUS:
        am335x_dmtimer_clear_status(s, value);
        break;
    case A_IRQENABLE_SET:
        s->irq_enable |= value & IRQ_ALL;
        break;
    case A_IRQENABLE_CLR:
        s->irq_enable &= ~(value & IRQ_ALL);
        break;
    case A_IRQWAKEEN:
        s->irq_wake = value & IRQ_ALL;
        break;
    case A_TCLR:
        am335x_dmtimer_write_tclr(s, value, now);
        break;
    case A_TCRR:
        am335x_dmtimer_load(s, value, now);
        break;
    case A_TLDR:
        s->tldr = value;
        break;
    case A_TTGR:
        /* Any value reloads TCRR from TLDR, whatever AR says. */
        am335x_dmtimer_load(s, s->tldr, now);
        break;
    case A_TMAR:
        s->tmar = value;
        break;
    case A_TCAR1:
        s->tcar1 = value;
        break;
    case A_TSICR:
        am335x_dmtimer_write_tsicr(s, value);
        break;
    case A_TCAR2:
        s->tcar2 = value;
        break;
    case A_TIDR:
    case A_SYSS_UNUSED:
    case A_TWPS:
        am335x_dmtimer_read_only(offset);
        break;
    default:
        return false;
    }
    return true;
}

static bool am335x_dmtimer_1ms_write_reg(AM335xDMTimerState *s, hwaddr offset,
                                         uint32_t value, int64_t now)
{
    switch (offset) {
    case A_MS_TIOCP_CFG:
        if (FIELD_EX32(value, MS_TIOCP_CFG, SOFTRESET)) {
            am335x_dmtimer_softreset(s);
        } else {
            s->tiocp_cfg = value & MS_TIOCP_CFG_WRITABLE;
        }
        break;
    case A_TISR:
        am335x_dmtimer_clear_status(s, value);
        break;
    case A_TIER:
        s->irq_enable = value & IRQ_ALL;
        break;
    case A_TWER:
        s->irq_wake = value & IRQ_ALL;
        break;
    case A_MS_TCLR:
        am335x_dmtimer_write_tclr(s, value, now);
        break;
    case A_MS_TCRR:
        am335x_dmtimer_load(s, value, now);
        break;
    case A_MS_TLDR:
        s->tldr = value;
        break;
    case A_MS_TTGR:
        am335x_dmtimer_load(s, s->tldr, now);
        break;
    case A_MS_TMAR:
        s->tmar = value;
        break;
    case A_MS_TSICR:
        am335x_dmtimer_write_tsicr(s, value);
        break;
    case A_TPIR:
        s->tpir = value;
        break;
    case A_TNIR:
        s->tnir = value;
        break;
    case A_TCVR:
        s->tcvr = value;
        break;
    case A_TOCR:
        s->tocr = value & R_TOCR_OVF_COUNTER_VALUE_MASK;
        break;
    case A_TOWR:
        s->towr = value & R_TOWR_OVF_WRAPPING_VALUE_MASK;
        break;
    case A_TIDR:
    case A_TISTAT:
    case A_MS_TWPS:
    case A_MS_TCAR1:
    case A_MS_TCAR2:
        am335x_dmtimer_read_only(offset);
        break;
    default:
        return false;
    }
    return true;
}

static void am335x_dmtimer_write(void *opaque, hwaddr offset, uint64_t value,
                                 unsigned size)
{
    AM335xDMTimerState *s = AM335X_DMTIMER(opaque);
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    bool ok;

    trace_am335x_dmtimer_write(DEVICE(s)->canonical_path, offset, value);

    /* Registers change at @now, after whatever the counter did before. */
    am335x_dmtimer_advance(s, now);
    if (s->one_ms) {
        ok = am335x_dmtimer_1ms_write_reg(s, offset, value, now);
    } else {
        ok = am335x_dmtimer_write_reg(s, offset, value, now);
    }
    if (!ok) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: bad write offset 0x%"
                      HWADDR_PRIx "\n", __func__, offset);
    }
    am335x_dmtimer_update_irq(s);
    am335x_dmtimer_schedule(s);
}

static const MemoryRegionOps am335x_dmtimer_ops = {
    .read = am335x_dmtimer_read,
    .write = am335x_dmtimer_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 4,
    .valid.max_access_size = 4,
    .impl.min_access_size = 4,
    .impl.max_access_size = 4,
};

/*
 * PIEVENTCAPT.  With CAPT_MODE = 0 the first selected edge latches TCAR1 and
 * raises TCAR_IT_FLAG; with CAPT_MODE = 1 the first latches TCAR1 and the
 * second TCAR2 and the flag.  Later edges are ignored until software clears
 * the flag (or moves TCM away from 0), which re-arms the edge detector.
 */
static void am335x_dmtimer_capture(void *opaque, int n, int level)
{
    AM335xDMTimerState *s = AM335X_DMTIMER(opaque);
    unsigned tcm = FIELD_EX32(s->tclr, TCLR, TCM);
    bool high = level != 0;
    bool rising = high && !s->capture_level;
    bool falling = !high && s->capture_level;

    s->capture_level = high;
    if (!(rising && (tcm & TCM_RISING)) && !(falling && (tcm & TCM_FALLING))) {
        return;
    }

    am335x_dmtimer_advance(s, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
    trace_am335x_dmtimer_capture(DEVICE(s)->canonical_path, high, s->count);
    if (s->captures == 0) {
        s->tcar1 = s->count;
        s->captures = 1;
        if (!FIELD_EX32(s->tclr, TCLR, CAPT_MODE)) {
            s->irq_raw |= IRQ_TCAR;
        }
    } else if (s->captures == 1 && FIELD_EX32(s->tclr, TCLR, CAPT_MODE)) {
        s->tcar2 = s->count;
        s->captures = 2;
        s->irq_raw |= IRQ_TCAR;
    }
    am335x_dmtimer_update_irq(s);
    am335x_dmtimer_schedule(s);
}

static void am335x_dmtimer_reset_enter(Object *obj, ResetType type)
{
    AM335xDMTimerState *s = AM335X_DMTIMER(obj);

    timer_del(&s->timer);
    am335x_dmtimer_reset_regs(s);
    s->capture_level = false;
}

static void am335x_dmtimer_reset_hold(Object *obj, ResetType type)
{
    am335x_dmtimer_update_irq(AM335X_DMTIMER(obj));
}

static void am335x_dmtimer_realize(DeviceState *dev, Error **errp)
{
    AM335xDMTimerState *s = AM335X_DMTIMER(dev);

    if (!clock_has_source(s->fclk)) {
        error_setg(errp, "%s: clock input '%s' is not connected",
                   TYPE_AM335X_DMTIMER, AM335X_DMTIMER_FCLK);
        return;
    }
    memory_region_init_io(&s->iomem, OBJECT(s), &am335x_dmtimer_ops, s,
                          TYPE_AM335X_DMTIMER, AM335X_DMTIMER_MMIO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->iomem);
}

static void am335x_dmtimer_init(Object *obj)
{
    AM335xDMTimerState *s = AM335X_DMTIMER(obj);
    DeviceState *dev = DEVICE(obj);

    timer_init_ns(&s->timer, QEMU_CLOCK_VIRTUAL, am335x_dmtimer_expired, s);
    s->fclk = qdev_init_clock_in(dev, AM335X_DMTIMER_FCLK,
                                 am335x_dmtimer_clock_event, s,
                                 ClockPreUpdate | ClockUpdate);
    qdev_init_gpio_in_named(dev, am335x_dmtimer_capture,
                            AM335X_DMTIMER_CAPTURE, 1);
    sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq);
}

static int am335x_dmtimer_post_load(void *opaque, int version_id)
{
    AM335xDMTimerState *s = AM335X_DMTIMER(opaque);

    if (s->captures > 2) {
        return -EINVAL;
    }
    return 0;
}

static const VMStateDescription vmstate_am335x_dmtimer = {
    .name = TYPE_AM335X_DMTIMER,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = am335x_dmtimer_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_TIMER(timer, AM335xDMTimerState),
        VMSTATE_CLOCK(fclk, AM335xDMTimerState),
        VMSTATE_INT64(ref_ns, AM335xDMTimerState),
        VMSTATE_UINT64(count_tick, AM335xDMTimerState),
        VMSTATE_UINT32(count, AM335xDMTimerState),
        VMSTATE_UINT32(tiocp_cfg, AM335xDMTimerState),
        VMSTATE_UINT32(irq_raw, AM335xDMTimerState),
        VMSTATE_UINT32(irq_enable, AM335xDMTimerState),
        VMSTATE_UINT32(irq_wake, AM335xDMTimerState),
        VMSTATE_UINT32(tclr, AM335xDMTimerState),
        VMSTATE_UINT32(tldr, AM335xDMTimerState),
        VMSTATE_UINT32(tmar, AM335xDMTimerState),
        VMSTATE_UINT32(tcar1, AM335xDMTimerState),
        VMSTATE_UINT32(tcar2, AM335xDMTimerState),
        VMSTATE_UINT32(tsicr, AM335xDMTimerState),
        VMSTATE_UINT32(tpir, AM335xDMTimerState),
        VMSTATE_UINT32(tnir, AM335xDMTimerState),
        VMSTATE_UINT32(tcvr, AM335xDMTimerState),
        VMSTATE_UINT32(tocr, AM335xDMTimerState),
        VMSTATE_UINT32(towr, AM335xDMTimerState),
        VMSTATE_UINT8(captures, AM335xDMTimerState),
        VMSTATE_BOOL(capture_level, AM335xDMTimerState),
        VMSTATE_END_OF_LIST()
    }
};

static const Property am335x_dmtimer_properties[] = {
    /* DMTIMER1_1MS: the OMAP3-style register layout and 1 ms tick logic */
    DEFINE_PROP_BOOL("one-ms", AM335xDMTimerState, one_ms, false),
    /* TIDR; 0 selects the silicon's value for the layout chosen */
    DEFINE_PROP_UINT32("revision", AM335xDMTimerState, revision, 0),
};

static void am335x_dmtimer_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->realize = am335x_dmtimer_realize;
    dc->vmsd = &vmstate_am335x_dmtimer;
    dc->desc = "TI AM335x DMTimer";
    rc->phases.enter = am335x_dmtimer_reset_enter;
    rc->phases.hold = am335x_dmtimer_reset_hold;
    device_class_set_props(dc, am335x_dmtimer_properties);
}

static const TypeInfo am335x_dmtimer_info = {
    .name = TYPE_AM335X_DMTIMER,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AM335xDMTimerState),
    .instance_init = am335x_dmtimer_init,
    .class_init = am335x_dmtimer_class_init,
};

static void am335x_dmtimer_register_types(void)
{
    type_register_static(&am335x_dmtimer_info);
}

type_init(am335x_dmtimer_register_types)
