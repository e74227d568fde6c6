/*
 * TI AM335x watchdog timer (WDT1)
 *
 * A 32-bit counter counts up from the load value (WLDR) at the 32 kHz
 * functional clock, optionally divided by 2^PTV.  When it overflows past
 * 0xFFFFFFFF the watchdog expires: it pulses its reset line to the PRCM,
 * which logs WDT1_RST in PRM_RSTST and warm-resets the device, raises the
 * overflow interrupt if enabled, and reloads the counter from WLDR.  Here
 * the reset is QEMU's watchdog action (-action watchdog=...), which resets
 * the machine by default.  Software keeps the watchdog from expiring by
 * writing a new value to WTGR, which reloads the counter; it starts and
 * stops the counter with two-word sequences written to WSPR.  A delay
 * event fires when the counter reaches WDLY.
 *
 * The counter is computed from the virtual clock when it is read; a
 * QEMUTimer is armed only for the next overflow or delay event.
 *
 * The silicon's watchdog runs out of reset; the boot ROM leaves it running
 * and U-Boot's SPL stops it.  This machine starts the kernel without ROM
 * code or SPL, so a machine reset leaves the watchdog stopped, as a kernel
 * started by the SPL finds it; the "start-on-reset" property gives the
 * silicon's behaviour instead.  A soft reset through WDSC.SOFTRESET
 * restarts it as the silicon does; Linux's ti-sysc driver knows this and
 * stops the watchdog again after each soft reset.
 *
 * Posted writes complete at once, so WWPS always reads 0.
 *
 * Not modelled: the WLDR = 0xFFFFFFFF trigger special case while stopped,
 * debug suspend (WDSC.EMUFREE), idle modes and the WSPR write latency.
 *
 * Reference: AM335x Technical Reference Manual (SPRUH73), chapter 20.4.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "hw/watchdog/am335x_wdt.h"
#include "hw/irq.h"
#include "hw/qdev-clock.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "system/watchdog.h"
#include "trace.h"

/* TRM table 20-111 */
REG32(WIDR, 0x00)
REG32(WDSC, 0x10)
    FIELD(WDSC, SOFTRESET, 1, 1)
    FIELD(WDSC, IDLEMODE, 3, 2)
    FIELD(WDSC, EMUFREE, 5, 1)
REG32(WDST, 0x14)
    FIELD(WDST, RESETDONE, 0, 1)
REG32(WISR, 0x18)
    FIELD(WISR, OVF_IT_FLAG, 0, 1)
    FIELD(WISR, DLY_IT_FLAG, 1, 1)
REG32(WIER, 0x1c)
REG32(WCLR, 0x24)
    FIELD(WCLR, PTV, 2, 3)
    FIELD(WCLR, PRE, 5, 1)
REG32(WCRR, 0x28)
REG32(WLDR, 0x2c)
REG32(WTGR, 0x30)
REG32(WWPS, 0x34)
REG32(WDLY, 0x44)
REG32(WSPR, 0x48)
REG32(WIRQSTATRAW, 0x54)
REG32(WIRQSTAT, 0x58)
REG32(WIRQENSET, 0x5c)
REG32(WIRQENCLR, 0x60)

/* The events, the same bits in every status and enable register */
#define IRQ_OVF     R_WISR_OVF_IT_FLAG_MASK
#define IRQ_DLY     R_WISR_DLY_IT_FLAG_MASK
#define IRQ_ALL     (IRQ_OVF | IRQ_DLY)

/*
 * WIDR as the silicon reports it: Linux's ti-sysc quirk table matches it
 * (0x502a0500 under mask 0xfffff0f0) and omap_wdt prints "Rev 0x01".
 */
#define AM335X_WDT_REV          0x502a0501

/* TRM table 20-113: IDLEMODE resets to smart-idle */
#define WDSC_RESET              (2 << R_WDSC_IDLEMODE_SHIFT)
#define WDSC_WRITABLE           (R_WDSC_IDLEMODE_MASK | R_WDSC_EMUFREE_MASK)
/* TRM table 20-117: the prescaler is enabled at reset, PTV = 0 */
#define WCLR_RESET              R_WCLR_PRE_MASK
#define WCLR_WRITABLE           (R_WCLR_PRE_MASK | R_WCLR_PTV_MASK)

/*
 * Load value at reset.  TRM table 20-102 prints FFFF FFBEh, but table
 * 20-105 gives a 2 s default period at 32 kHz, which is FFFF 0000h; the
 * latter is used.  (66 ticks would also expire 2 ms after every soft reset,
 * a race against ti-sysc stopping the watchdog that the silicon does not
 * show.)  The counter is loaded with it too.
 */
#define WLDR_RESET              0xffff0000

/* TRM 20.4.3.8: start and stop sequences, in the low 16 bits of WSPR */
#define WSPR_START1             0xbbbb
#define WSPR_START2             0x4444
#define WSPR_STOP1              0xaaaa
#define WSPR_STOP2              0x5555

/*
 * Overflows handled one by one per update.  A load value of 0xFFFFFFFF
 * gives a one-tick period; past this many after a late update the rest
 * are folded arithmetically.
 */
#define AM335X_WDT_OVERFLOW_BATCH 64

static void am335x_wdt_update_irq(AM335xWdtState *s)
{
    bool level = (s->irq_raw & s->irq_enable) != 0;

    trace_am335x_wdt_irq(s->irq_raw, s->irq_enable, level);
    qemu_set_irq(s->irq, level);
}

static bool am335x_wdt_counting(AM335xWdtState *s)
{
    return s->running && clock_is_enabled(s->fclk);
}

/* TRM table 20-103: the counter advances every 2^PTV clocks with PRE set */
static uint8_t am335x_wdt_wclr_shift(uint32_t wclr)
{
    return FIELD_EX32(wclr, WCLR, PRE) ? FIELD_EX32(wclr, WCLR, PTV) : 0;
}

/* Prescaled ticks since ref_ns. */
static uint64_t am335x_wdt_ticks_at(AM335xWdtState *s, int64_t now)
{
    if (now <= s->ref_ns) {
        return 0;
    }
    return clock_ns_to_ticks(s->fclk, now - s->ref_ns) >> s->ps_shift;
}

/* The first virtual time at which prescaled tick @tick has been reached. */
static int64_t am335x_wdt_tick_time(AM335xWdtState *s, uint64_t tick)
{
    uint64_t ns;

    if (tick > (INT64_MAX >> s->ps_shift)) {
        return INT64_MAX;
    }
    ns = clock_ticks_to_ns(s->fclk, tick << s->ps_shift);
    /* clock_ticks_to_ns() rounds down; one more ns rounds the deadline up */
    if (ns >= (uint64_t)(INT64_MAX - 1 - s->ref_ns)) {
        return INT64_MAX;
    }
    return s->ref_ns + ns + 1;
}

/* The prescaler restarts: count afresh from @now. */
static void am335x_wdt_rebase(AM335xWdtState *s, int64_t now)
{
    s->ref_ns = now;
    s->count_tick = 0;
}

/*
 * TRM 20.4.3.11: the delay event fires when the counter reaches WDLY, and
 * never when WDLY is below the load value.
 */
static bool am335x_wdt_delay_armed(AM335xWdtState *s)
{
    return s->wdly > s->count && s->wdly >= s->wldr;
}

/* Ticks from the current count to the next event, and which it is. */
static uint64_t am335x_wdt_next_event(AM335xWdtState *s, bool *delay)
{
    *delay = am335x_wdt_delay_armed(s);
    if (*delay) {
        return s->wdly - s->count;
    }
    return (1ULL << 32) - s->count;
}

/*
 * TRM 20.4.3.5: the counter reloads from WLDR and the prescaler restarts,
 * now with the ratio WCLR holds (TRM 20.4.3.9).  @tick is the prescaled
 * tick of the overflow, @now the present.  Returns the present tick in the
 * new time base.
 */
static uint64_t am335x_wdt_overflow(AM335xWdtState *s, uint64_t tick,
                                    int64_t now)
{
    uint8_t shift = am335x_wdt_wclr_shift(s->wclr);

    s->irq_raw |= IRQ_OVF;
    s->count = s->wldr;
    if (shift != s->ps_shift) {
        am335x_wdt_rebase(s, am335x_wdt_tick_time(s, s->count_tick));
        s->ps_shift = shift;
        return am335x_wdt_ticks_at(s, now);
    }
    return tick;
}

/*
 * Fold the overflows still due at @tick without visiting each one, the
 * next one being due; the sticky status bits are set if their events
 * happened.  Returns how many overflows there were.
 */
static uint64_t am335x_wdt_skip_periods(AM335xWdtState *s, uint64_t tick)
{
    uint64_t period = (1ULL << 32) - s->wldr;
    uint64_t after = tick - s->count_tick - ((1ULL << 32) - s->count);
    uint64_t periods = after / period;
    uint32_t count = s->wldr + after % period;

    if (s->wdly >= s->wldr && (periods || s->wdly <= count)) {
        s->irq_raw |= IRQ_DLY;
    }
    s->irq_raw |= IRQ_OVF;
    s->count = count;
    s->count_tick = tick;
    return periods + 1;
}

/*
 * Bring WCRR and the status bits up to @now; returns the number of times
 * the watchdog expired on the way.
 */
static uint64_t am335x_wdt_advance(AM335xWdtState *s, int64_t now)
{
    uint64_t expiries = 0;
    uint64_t tick;

    if (!am335x_wdt_counting(s)) {
        return 0;
    }
    tick = am335x_wdt_ticks_at(s, now);
    if (tick < s->count_tick) {
        return 0;
    }

    for (;;) {
        bool delay;
        uint64_t delta = am335x_wdt_next_event(s, &delay);

        if (tick - s->count_tick < delta) {
            break;
        }
        if (!delay && expiries >= AM335X_WDT_OVERFLOW_BATCH) {
            /* Past the batch the prescaler can no longer change. */
            expiries += am335x_wdt_skip_periods(s, tick);
            return expiries;
        }
        s->count_tick += delta;
        if (delay) {
            s->count = s->wdly;
            s->irq_raw |= IRQ_DLY;
            trace_am335x_wdt_delay(s->count);
        } else {
            expiries++;
            tick = am335x_wdt_overflow(s, tick, now);
        }
    }
    s->count += tick - s->count_tick;
    s->count_tick = tick;
    return expiries;
}

/*
 * The expiry reaches the PRCM first, so that its reset log is ready when
 * QEMU's watchdog action resets the machine.  Several expiries in one
 * update make one action.
 */
static void am335x_wdt_expire(AM335xWdtState *s, uint64_t expiries)
{
    if (!expiries) {
        return;
    }
    trace_am335x_wdt_expire(expiries, s->count);
    qemu_irq_pulse(s->reset_cause);
    watchdog_perform_action();
}

static void am335x_wdt_schedule(AM335xWdtState *s)
{
    bool delay;
    uint64_t delta;

    if (!am335x_wdt_counting(s)) {
        timer_del(&s->timer);
        return;
    }
    delta = am335x_wdt_next_event(s, &delay);
    timer_mod(&s->timer, am335x_wdt_tick_time(s, s->count_tick + delta));
}

/* Counter, status and outputs brought up to date with the virtual clock. */
static void am335x_wdt_sync(AM335xWdtState *s)
{
    uint64_t expiries;

    expiries = am335x_wdt_advance(s, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
    am335x_wdt_update_irq(s);
    am335x_wdt_schedule(s);
    am335x_wdt_expire(s, expiries);
}

static void am335x_wdt_timer_cb(void *opaque)
{
    am335x_wdt_sync(AM335X_WDT(opaque));
}

static void am335x_wdt_clock_event(void *opaque, ClockEvent event)
{
    AM335xWdtState *s = AM335X_WDT(opaque);
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    if (!DEVICE(s)->realized) {
        return;
    }
    if (event == ClockPreUpdate) {
        /* Count what the old period produced before it changes. */
        am335x_wdt_expire(s, am335x_wdt_advance(s, now));
        return;
    }
    trace_am335x_wdt_clock(clock_get_hz(s->fclk));
    /* A gated clock (period 0) freezes the counter where it is. */
    am335x_wdt_rebase(s, now);
    am335x_wdt_update_irq(s);
    am335x_wdt_schedule(s);
}

static void am335x_wdt_reset_regs(AM335xWdtState *s, bool running)
{
    s->wdsc = WDSC_RESET;
    s->wclr = WCLR_RESET;
    s->wldr = WLDR_RESET;
    s->wtgr = 0;
    s->wdly = 0;
    s->wspr = 0;
    s->irq_raw = 0;
    s->irq_enable = 0;
    s->wcrr_shadow = 0;
    s->count = WLDR_RESET;
    s->ps_shift = am335x_wdt_wclr_shift(WCLR_RESET);
    s->running = running;
    am335x_wdt_rebase(s, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
}

static void am335x_wdt_set_running(AM335xWdtState *s, bool running,
                                   int64_t now)
{
    if (running == s->running) {
        return;
    }
    trace_am335x_wdt_run(running, s->count);
    if (running) {
        /* The counter resumes from WCRR with the ratio WCLR holds now. */
        s->ps_shift = am335x_wdt_wclr_shift(s->wclr);
        am335x_wdt_rebase(s, now);
    }
    s->running = running;
}

/* TRM 20.4.3.8: only the two-write sequences start or stop the counter. */
static void am335x_wdt_write_wspr(AM335xWdtState *s, uint32_t value,
                                  int64_t now)
{
    uint16_t prev = s->wspr;
    uint16_t cur = value;

    s->wspr = value;
    if (prev == WSPR_START1 && cur == WSPR_START2) {
        am335x_wdt_set_running(s, true, now);
    } else if (prev == WSPR_STOP1 && cur == WSPR_STOP2) {
        am335x_wdt_set_running(s, false, now);
    }
}

/* TRM 20.4.3.7: a WTGR value that differs from the last one reloads. */
static void am335x_wdt_write_wtgr(AM335xWdtState *s, uint32_t value,
                                  int64_t now)
{
    if (value == s->wtgr) {
        return;
    }
    s->wtgr = value;
    s->count = s->wldr;
    s->ps_shift = am335x_wdt_wclr_shift(s->wclr);
    am335x_wdt_rebase(s, now);
    trace_am335x_wdt_reload(s->count);
    if (s->wldr == UINT32_MAX && !s->running) {
        qemu_log_mask(LOG_UNIMP, "%s: trigger with WLDR = 0xffffffff while "
                      "stopped does not expire\n", __func__);
    }
}

static void am335x_wdt_softreset(AM335xWdtState *s)
{
    trace_am335x_wdt_softreset();
    am335x_wdt_reset_regs(s, true);
}

static uint32_t am335x_wdt_read_reg(AM335xWdtState *s, hwaddr reg,
                                    bool *ok)
{
    *ok = true;
    switch (reg) {
    case A_WIDR:
        return AM335X_WDT_REV;
    case A_WDSC:
        return s->wdsc;
    case A_WDST:
        /* A reset completes within the access that requested it. */
        return R_WDST_RESETDONE_MASK;
    case A_WISR:
    case A_WIRQSTATRAW:
        return s->irq_raw;
    case A_WIER:
    case A_WIRQENSET:
    case A_WIRQENCLR:
        return s->irq_enable;
    case A_WIRQSTAT:
        return s->irq_raw & s->irq_enable;
    case A_WCLR:
        return s->wclr;
    case A_WCRR:
        return s->count;
    case A_WLDR:
        return s->wldr;
    case A_WTGR:
        return s->wtgr;
    case A_WWPS:
        return 0;
    case A_WDLY:
        return s->wdly;
    case A_WSPR:
        return s->wspr;
    default:
        *ok = false;
        return 0;
    }
}

static uint64_t am335x_wdt_read(void *opaque, hwaddr offset, unsigned size)
{
    AM335xWdtState *s = AM335X_WDT(opaque);
    hwaddr reg = offset & ~3;
    unsigned shift = (offset & 3) * 8;
    uint32_t value;
    bool ok;

    am335x_wdt_sync(s);
    if (size == 1) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: 8-bit read at offset 0x%"
                      HWADDR_PRIx " (TRM 20.4.4: not allowed)\n",
                      __func__, offset);
    }
    if (reg == A_WCRR && size == 2) {
        /*
         * TRM 20.4.3.10: a 16-bit read of the low half latches the counter
         * in a shadow register, whose high half the next read returns.
         */
        if (shift == 0) {
            s->wcrr_shadow = s->count;
        }
        value = extract32(s->wcrr_shadow, shift, 16);
        trace_am335x_wdt_read(offset, size, value);
        return value;
    }

    value = am335x_wdt_read_reg(s, reg, &ok);
    if (!ok) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: bad read offset 0x%" HWADDR_PRIx
                      "\n", __func__, offset);
    }
    value = extract32(value, shift, size * 8);
    trace_am335x_wdt_read(offset, size, value);
    return value;
}

static void am335x_wdt_read_only(hwaddr offset)
{
    qemu_log_mask(LOG_GUEST_ERROR, "%s: write to read-only offset 0x%"
                  HWADDR_PRIx "\n", __func__, offset);
}

/* @value holds the written bytes in place, @mask says which they are. */
static bool am335x_wdt_write_reg(AM335xWdtState *s, hwaddr reg,
                                 uint32_t value, uint32_t mask, int64_t now)
{
    uint32_t written = value & mask;

    switch (reg) {
    case A_WDSC:
        value = (s->wdsc & ~mask) | written;
        if (FIELD_EX32(value, WDSC, SOFTRESET)) {
            am335x_wdt_softreset(s);
        } else {
            s->wdsc = value & WDSC_WRITABLE;
        }
        break;
    case A_WISR:
    case A_WIRQSTAT:
        /* Clears the raw status, enabled or not (TRM table 20-125). */
        s->irq_raw &= ~(written & IRQ_ALL);
        break;
    case A_WIRQSTATRAW:
        /* TRM table 20-124: writing 1 sets a raw status bit, for debug */
        s->irq_raw |= written & IRQ_ALL;
        break;
    case A_WIER:
        s->irq_enable = ((s->irq_enable & ~mask) | written) & IRQ_ALL;
        break;
    case A_WIRQENSET:
        s->irq_enable |= written & IRQ_ALL;
        break;
    case A_WIRQENCLR:
        s->irq_enable &= ~(written & IRQ_ALL);
        break;
    case A_WCLR:
        /* TRM 20.4.3.9: taken into account at the next reload or start */
        s->wclr = ((s->wclr & ~mask) | written) & WCLR_WRITABLE;
        break;
    case A_WCRR:
        if (s->running) {
            /* TRM 20.4.3.9: the watchdog must be stopped to change WCRR */
            qemu_log_mask(LOG_GUEST_ERROR, "%s: WCRR written while the "
                          "watchdog runs; ignored\n", __func__);
            break;
        }
        s->count = (s->count & ~mask) | written;
        am335x_wdt_rebase(s, now);
        break;
    case A_WLDR:
        /* Used from the next reload on. */
        s->wldr = (s->wldr & ~mask) | written;
        break;
    case A_WTGR:
        am335x_wdt_write_wtgr(s, (s->wtgr & ~mask) | written, now);
        break;
    case A_WDLY:
        s->wdly = (s->wdly & ~mask) | written;
        break;
    case A_WSPR:
        if (mask & 0xffff) {
            am335x_wdt_write_wspr(s, (s->wspr & ~mask) | written, now);
        } else {
            s->wspr = (s->wspr & ~mask) | written;
        }
        break;
    case A_WIDR:
    case A_WDST:
    case A_WWPS:
        am335x_wdt_read_only(reg);
        break;
    default:
        return false;
    }
    return true;
}

static void am335x_wdt_write(void *opaque, hwaddr offset, uint64_t value,
                             unsigned size)
{
    AM335xWdtState *s = AM335X_WDT(opaque);
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    unsigned shift = (offset & 3) * 8;
    uint32_t mask = MAKE_64BIT_MASK(shift, size * 8);
    uint64_t expiries;

    trace_am335x_wdt_write(offset, size, value);
    if (size == 1) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: 8-bit write at offset 0x%"
                      HWADDR_PRIx " (TRM 20.4.4: not allowed); ignored\n",
                      __func__, offset);
        return;
    }

    /* Registers change at @now, after whatever the counter did before. */
    expiries = am335x_wdt_advance(s, now);
    if (!am335x_wdt_write_reg(s, offset & ~3, (uint32_t)value << shift,
                              mask, now)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: bad write offset 0x%"
                      HWADDR_PRIx "\n", __func__, offset);
    }
    am335x_wdt_update_irq(s);
    am335x_wdt_schedule(s);
    am335x_wdt_expire(s, expiries);
}

static const MemoryRegionOps am335x_wdt_ops = {
    .read = am335x_wdt_read,
    .write = am335x_wdt_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    /* TRM 20.4.4: 32- and 16-bit accesses; 8-bit ones are logged. */
    .valid.min_access_size = 1,
    .valid.max_access_size = 4,
    .impl.min_access_size = 1,
    .impl.max_access_size = 4,
};

static void am335x_wdt_reset_enter(Object *obj, ResetType type)
{
    AM335xWdtState *s = AM335X_WDT(obj);

    timer_del(&s->timer);
    am335x_wdt_reset_regs(s, s->start_on_reset);
}

static void am335x_wdt_reset_hold(Object *obj, ResetType type)
{
    AM335xWdtState *s = AM335X_WDT(obj);

    am335x_wdt_update_irq(s);
    am335x_wdt_schedule(s);
}

static void am335x_wdt_realize(DeviceState *dev, Error **errp)
{
    AM335xWdtState *s = AM335X_WDT(dev);

    if (!clock_has_source(s->fclk)) {
        error_setg(errp, "%s: clock input '%s' is not connected",
                   TYPE_AM335X_WDT, AM335X_WDT_FCLK);
        return;
    }
    memory_region_init_io(&s->iomem, OBJECT(s), &am335x_wdt_ops, s,
                          TYPE_AM335X_WDT, AM335X_WDT_MMIO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->iomem);
}

static void am335x_wdt_init(Object *obj)
{
    AM335xWdtState *s = AM335X_WDT(obj);
    DeviceState *dev = DEVICE(obj);

    timer_init_ns(&s->timer, QEMU_CLOCK_VIRTUAL, am335x_wdt_timer_cb, s);
    s->fclk = qdev_init_clock_in(dev, AM335X_WDT_FCLK,
                                 am335x_wdt_clock_event, s,
                                 ClockPreUpdate | ClockUpdate);
    sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq);
    qdev_init_gpio_out_named(dev, &s->reset_cause, AM335X_WDT_RESET_CAUSE, 1);
}

static int am335x_wdt_post_load(void *opaque, int version_id)
{
    AM335xWdtState *s = AM335X_WDT(opaque);

    if (s->ps_shift > R_WCLR_PTV_MASK >> R_WCLR_PTV_SHIFT) {
        return -EINVAL;
    }
    return 0;
}

static const VMStateDescription vmstate_am335x_wdt = {
    .name = TYPE_AM335X_WDT,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = am335x_wdt_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_TIMER(timer, AM335xWdtState),
        VMSTATE_CLOCK(fclk, AM335xWdtState),
        VMSTATE_INT64(ref_ns, AM335xWdtState),
        VMSTATE_UINT64(count_tick, AM335xWdtState),
        VMSTATE_UINT32(count, AM335xWdtState),
        VMSTATE_UINT8(ps_shift, AM335xWdtState),
        VMSTATE_BOOL(running, AM335xWdtState),
        VMSTATE_UINT32(wdsc, AM335xWdtState),
        VMSTATE_UINT32(wclr, AM335xWdtState),
        VMSTATE_UINT32(wldr, AM335xWdtState),
        VMSTATE_UINT32(wtgr, AM335xWdtState),
        VMSTATE_UINT32(wdly, AM335xWdtState),
        VMSTATE_UINT32(wspr, AM335xWdtState),
        VMSTATE_UINT32(irq_raw, AM335xWdtState),
        VMSTATE_UINT32(irq_enable, AM335xWdtState),
        VMSTATE_UINT32(wcrr_shadow, AM335xWdtState),
        VMSTATE_END_OF_LIST()
    }
};

static const Property am335x_wdt_properties[] = {
    /* Run from reset as the silicon does, instead of as the SPL leaves it */
    DEFINE_PROP_BOOL("start-on-reset", AM335xWdtState, start_on_reset, false),
};

static void am335x_wdt_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->realize = am335x_wdt_realize;
    dc->vmsd = &vmstate_am335x_wdt;
    dc->desc = "TI AM335x watchdog timer";
    set_bit(DEVICE_CATEGORY_WATCHDOG, dc->categories);
    rc->phases.enter = am335x_wdt_reset_enter;
    rc->phases.hold = am335x_wdt_reset_hold;
    device_class_set_props(dc, am335x_wdt_properties);
}

static const TypeInfo am335x_wdt_info = {
    .name = TYPE_AM335X_WDT,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AM335xWdtState),
    .instance_init = am335x_wdt_init,
    .class_init = am335x_wdt_class_init,
};

static void am335x_wdt_register_types(void)
{
    type_register_static(&am335x_wdt_info);
}

type_init(am335x_wdt_register_types)
