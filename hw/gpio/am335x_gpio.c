/*
 * TI AM335x general-purpose I/O module
 *
 * Each of the four GPIO modules drives and samples 32 pins.  OE selects the
 * direction of every pin (1 = input, the reset state), DATAOUT holds the
 * levels driven on the output pins and SETDATAOUT/CLEARDATAOUT change single
 * bits of it atomically.  DATAIN shows the sampled pad levels: the driven
 * level of an output pin, the external level of an input pin.
 *
 * The sampled levels feed four event detectors per pin: low level, high
 * level, rising edge and falling edge.  An event sets its pin's bit in the
 * raw status of both interrupt lines; a line is asserted while its raw
 * status has bits that its enable register selects.  A level event keeps
 * setting its status bit for as long as the level lasts, so clearing the
 * bit while the level holds sets it again at once.  Optionally a pin's
 * input is debounced: a new level is only taken once it has been stable
 * for DEBOUNCINGTIME + 1 cycles of the debounce clock (31 us each at
 * 32 kHz).  CTRL.DISABLEMODULE gates the internal clocks: sampling and
 * event detection stop, and DATAIN keeps its last value.
 *
 * Towards the board, the device has 32 unnamed GPIO inputs (the external
 * levels of the pins) and 32 unnamed GPIO outputs, which follow DATAOUT on
 * output pins and are low on input pins (no pull-ups are modelled).  Every
 * change of an output is traced, and the read-only QOM property "outputs"
 * shows the pins currently driven high, for instance the BeagleBone's
 * user LEDs on GPIO1_21..24.
 *
 * Not modelled: the wake-up requests (IRQWAKEN_n and SYSCONFIG.ENAWAKEUP are
 * only stored), idle handshakes (AUTOIDLE and IDLEMODE are only stored),
 * the sampling precision set by CTRL.GATINGRATIO (events are seen at once),
 * the DMA event acknowledged through EOI, and clock gating by the PRCM.
 *
 * Reference: AM335x Technical Reference Manual (SPRUH73), chapter 25
 * (General-Purpose Input/Output).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "hw/gpio/am335x_gpio.h"
#include "hw/irq.h"
#include "hw/qdev-clock.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "trace.h"

/* TRM 25.4.1 */
REG32(REVISION, 0x000)
REG32(SYSCONFIG, 0x010)
    FIELD(SYSCONFIG, AUTOIDLE, 0, 1)
    FIELD(SYSCONFIG, SOFTRESET, 1, 1)
    FIELD(SYSCONFIG, ENAWAKEUP, 2, 1)
    FIELD(SYSCONFIG, IDLEMODE, 3, 2)
REG32(EOI, 0x020)
REG32(IRQSTATUS_RAW_0, 0x024)
REG32(IRQSTATUS_RAW_1, 0x028)
REG32(IRQSTATUS_0, 0x02c)
REG32(IRQSTATUS_1, 0x030)
REG32(IRQSTATUS_SET_0, 0x034)
REG32(IRQSTATUS_SET_1, 0x038)
REG32(IRQSTATUS_CLR_0, 0x03c)
REG32(IRQSTATUS_CLR_1, 0x040)
REG32(IRQWAKEN_0, 0x044)
REG32(IRQWAKEN_1, 0x048)
REG32(SYSSTATUS, 0x114)
    FIELD(SYSSTATUS, RESETDONE, 0, 1)
REG32(CTRL, 0x130)
    FIELD(CTRL, DISABLEMODULE, 0, 1)
    FIELD(CTRL, GATINGRATIO, 1, 2)
REG32(OE, 0x134)
REG32(DATAIN, 0x138)
REG32(DATAOUT, 0x13c)
REG32(LEVELDETECT0, 0x140)
REG32(LEVELDETECT1, 0x144)
REG32(RISINGDETECT, 0x148)
REG32(FALLINGDETECT, 0x14c)
REG32(DEBOUNCENABLE, 0x150)
REG32(DEBOUNCINGTIME, 0x154)
    FIELD(DEBOUNCINGTIME, DEBOUNCETIME, 0, 8)
REG32(CLEARDATAOUT, 0x190)
REG32(SETDATAOUT, 0x194)

/*
 * GPIO_REVISION as AM335x silicon reads it: the value Linux's ti-sysc
 * matches for "gpio" and from which gpio-omap prints version 0.1.
 */
#define AM335X_GPIO_REV         0x50600801

#define SYSCONFIG_WRITABLE \
    (R_SYSCONFIG_AUTOIDLE_MASK | R_SYSCONFIG_ENAWAKEUP_MASK | \
     R_SYSCONFIG_IDLEMODE_MASK)
#define CTRL_WRITABLE \
    (R_CTRL_DISABLEMODULE_MASK | R_CTRL_GATINGRATIO_MASK)
/* GPIO_CTRL resets to GATINGRATIO = 1 (N = 2), the module enabled */
#define CTRL_RESET              (1 << R_CTRL_GATINGRATIO_SHIFT)
/* GPIO_OE: every pin is an input after reset */
#define OE_RESET                0xffffffff

static const char *am335x_gpio_id(AM335xGpioState *s)
{
    return DEVICE(s)->canonical_path;
}

static bool am335x_gpio_disabled(AM335xGpioState *s)
{
    return FIELD_EX32(s->ctrl, CTRL, DISABLEMODULE);
}

/* The pad levels: driven from DATAOUT where OE is 0, from outside elsewhere */
static uint32_t am335x_gpio_pad(AM335xGpioState *s)
{
    return (s->ext_in & s->oe) | (s->dataout & ~s->oe);
}

/* The pins whose input currently passes through the debounce filter. */
static uint32_t am335x_gpio_debounced(AM335xGpioState *s)
{
    if (!s->debounce_enable) {
        return 0;
    }
    if (!clock_is_enabled(s->dbclk)) {
        if (!s->db_unimp_logged) {
            qemu_log_mask(LOG_UNIMP, "%s: %s: debouncing without a "
                          "debounce clock; inputs are taken unfiltered\n",
                          __func__, am335x_gpio_id(s));
            s->db_unimp_logged = true;
        }
        return 0;
    }
    return s->debounce_enable;
}

static int64_t am335x_gpio_debounce_ns(AM335xGpioState *s)
{
    return clock_ticks_to_ns(s->dbclk, s->debouncing_time + 1);
}

/* Take a new sampled value: edges between the two are events. */
static void am335x_gpio_set_datain(AM335xGpioState *s, uint32_t value)
{
    uint32_t old = s->datain;
    uint32_t events = (~old & value & s->risingdetect) |
                      (old & ~value & s->fallingdetect);

    if (old == value) {
        return;
    }
    trace_am335x_gpio_datain(am335x_gpio_id(s), old, value, events);
    s->datain = value;
    for (int n = 0; n < AM335X_GPIO_NUM_LINES; n++) {
        s->irq_raw[n] |= events;
    }
}

/*
 * Sample the pads.  A pin without debouncing is taken as it is.  A debounced
 * pin whose pad differs from its sampled level starts a wait of the
 * debounce time, and is taken when the wait ends; a pad that returns to the
 * sampled level before that cancels the wait.
 */
static void am335x_gpio_sample(AM335xGpioState *s, int64_t now)
{
    uint32_t pad = am335x_gpio_pad(s);
    uint32_t debounced = am335x_gpio_debounced(s);
    uint32_t differ = (pad ^ s->datain) & debounced;
    uint32_t start, expired = 0, take;

    s->db_pending &= differ;
    start = differ & ~s->db_pending;
    if (start) {
        int64_t deadline = now + am335x_gpio_debounce_ns(s);

        for (int pin = 0; pin < AM335X_GPIO_NUM_PINS; pin++) {
            if (start & BIT(pin)) {
                s->db_deadline[pin] = deadline;
            }
        }
        s->db_pending |= start;
    }
    for (int pin = 0; pin < AM335X_GPIO_NUM_PINS; pin++) {
        if ((s->db_pending & BIT(pin)) && s->db_deadline[pin] <= now) {
            expired |= BIT(pin);
        }
    }
    s->db_pending &= ~expired;

    take = ~debounced | expired;
    am335x_gpio_set_datain(s, (s->datain & ~take) | (pad & take));
}

static void am335x_gpio_schedule(AM335xGpioState *s)
{
    int64_t next = INT64_MAX;

    for (int pin = 0; pin < AM335X_GPIO_NUM_PINS; pin++) {
        if (s->db_pending & BIT(pin)) {
            next = MIN(next, s->db_deadline[pin]);
        }
    }
    if (next == INT64_MAX) {
        timer_del(&s->debounce_timer);
    } else {
        timer_mod(&s->debounce_timer, next);
    }
}

static void am335x_gpio_update_outputs(AM335xGpioState *s)
{
    uint32_t value = s->dataout & ~s->oe;
    uint32_t changed = value ^ s->outputs;

    /*
     * Record the new levels before driving them: a device on an output may
     * drive one of this module's inputs back from its handler.
     */
    s->outputs = value;
    for (int pin = 0; pin < AM335X_GPIO_NUM_PINS; pin++) {
        if (changed & BIT(pin)) {
            int level = extract32(value, pin, 1);

            trace_am335x_gpio_out(am335x_gpio_id(s), pin, level);
            qemu_set_irq(s->out[pin], level);
        }
    }
}

static void am335x_gpio_update_irqs(AM335xGpioState *s)
{
    for (int n = 0; n < AM335X_GPIO_NUM_LINES; n++) {
        uint32_t status = s->irq_raw[n] & s->irq_enable[n];

        trace_am335x_gpio_irq(am335x_gpio_id(s), n, status, status != 0);
        qemu_set_irq(s->irq[n], status != 0);
    }
}

/*
 * Bring everything up to date after a register write or a pin change:
 * the outputs, the sampled inputs and their edge events, the level events
 * (which re-set their status bits for as long as the level holds) and the
 * interrupt lines.
 */
static void am335x_gpio_update(AM335xGpioState *s)
{
    am335x_gpio_update_outputs(s);
    if (am335x_gpio_disabled(s)) {
        /* Filter waits resume, or have ended, when the module is back. */
        timer_del(&s->debounce_timer);
    } else {
        uint32_t level;

        am335x_gpio_sample(s, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
        am335x_gpio_schedule(s);
        level = (~s->datain & s->leveldetect0) |
                (s->datain & s->leveldetect1);
        for (int n = 0; n < AM335X_GPIO_NUM_LINES; n++) {
            s->irq_raw[n] |= level;
        }
    }
    am335x_gpio_update_irqs(s);
}

static void am335x_gpio_debounce_expired(void *opaque)
{
    am335x_gpio_update(AM335X_GPIO(opaque));
}

static void am335x_gpio_dbclk_update(void *opaque, ClockEvent event)
{
    AM335xGpioState *s = AM335X_GPIO(opaque);

    if (!DEVICE(s)->realized) {
        return;
    }
    trace_am335x_gpio_dbclk(am335x_gpio_id(s), clock_get_hz(s->dbclk));
    /* Without a clock, pins waiting for the filter are taken at once. */
    am335x_gpio_update(s);
}

/* The external level of @pin changes. */
static void am335x_gpio_set_input(void *opaque, int pin, int level)
{
    AM335xGpioState *s = AM335X_GPIO(opaque);
    bool high = level != 0;

    if (extract32(s->ext_in, pin, 1) == high) {
        return;
    }
    trace_am335x_gpio_in(am335x_gpio_id(s), pin, high);
    s->ext_in = deposit32(s->ext_in, pin, 1, high);
    am335x_gpio_update(s);
}

/* The module's registers after a hardware or software reset. */
static void am335x_gpio_reset_regs(AM335xGpioState *s)
{
    timer_del(&s->debounce_timer);
    s->sysconfig = 0;
    memset(s->irq_raw, 0, sizeof(s->irq_raw));
    memset(s->irq_enable, 0, sizeof(s->irq_enable));
    memset(s->irq_wake, 0, sizeof(s->irq_wake));
    s->ctrl = CTRL_RESET;
    s->oe = OE_RESET;
    s->dataout = 0;
    s->leveldetect0 = 0;
    s->leveldetect1 = 0;
    s->risingdetect = 0;
    s->fallingdetect = 0;
    s->debounce_enable = 0;
    s->debouncing_time = 0;
    s->db_pending = 0;
    memset(s->db_deadline, 0, sizeof(s->db_deadline));
    /* Every pin is an unfiltered input again: sample what is outside. */
    s->datain = am335x_gpio_pad(s);
}

static void am335x_gpio_read_only(AM335xGpioState *s, hwaddr offset)
{
    qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: write to read-only offset 0x%"
                  HWADDR_PRIx "\n", __func__, am335x_gpio_id(s), offset);
}

static bool am335x_gpio_read_reg(AM335xGpioState *s, hwaddr offset,
                                 uint32_t *value)
{
    switch (offset) {
    case A_REVISION:
        *value = AM335X_GPIO_REV;
        break;
    case A_SYSCONFIG:
        *value = s->sysconfig;
        break;
    case A_EOI:
        /* GPIO_EOI reads always return 0 */
        *value = 0;
        break;
    case A_IRQSTATUS_RAW_0:
    case A_IRQSTATUS_RAW_1:
        *value = s->irq_raw[(offset - A_IRQSTATUS_RAW_0) / 4];
        break;
    case A_IRQSTATUS_0:
    case A_IRQSTATUS_1: {
        int n = (offset - A_IRQSTATUS_0) / 4;

        *value = s->irq_raw[n] & s->irq_enable[n];
        break;
    }
    case A_IRQSTATUS_SET_0:
    case A_IRQSTATUS_SET_1:
        *value = s->irq_enable[(offset - A_IRQSTATUS_SET_0) / 4];
        break;
    case A_IRQSTATUS_CLR_0:
    case A_IRQSTATUS_CLR_1:
        *value = s->irq_enable[(offset - A_IRQSTATUS_CLR_0) / 4];
        break;
    case A_IRQWAKEN_0:
    case A_IRQWAKEN_1:
        *value = s->irq_wake[(offset - A_IRQWAKEN_0) / 4];
        break;
    case A_SYSSTATUS:
        /* A soft reset is over within the write that starts it. */
        *value = R_SYSSTATUS_RESETDONE_MASK;
        break;
    case A_CTRL:
        *value = s->ctrl;
        break;
    case A_OE:
        *value = s->oe;
        break;
    case A_DATAIN:
        *value = s->datain;
        break;
    case A_DATAOUT:
    case A_CLEARDATAOUT:
    case A_SETDATAOUT:
        /* GPIO_CLEARDATAOUT and GPIO_SETDATAOUT read as DATAOUT */
        *value = s->dataout;
        break;
    case A_LEVELDETECT0:
        *value = s->leveldetect0;
        break;
    case A_LEVELDETECT1:
        *value = s->leveldetect1;
        break;
    case A_RISINGDETECT:
        *value = s->risingdetect;
        break;
    case A_FALLINGDETECT:
        *value = s->fallingdetect;
        break;
    case A_DEBOUNCENABLE:
        *value = s->debounce_enable;
        break;
    case A_DEBOUNCINGTIME:
        *value = s->debouncing_time;
        break;
    default:
        return false;
    }
    return true;
}

static uint64_t am335x_gpio_read(void *opaque, hwaddr offset, unsigned size)
{
    AM335xGpioState *s = AM335X_GPIO(opaque);
    uint32_t reg = 0;
    uint64_t value;

    if (!am335x_gpio_read_reg(s, offset & ~3, &reg)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: bad read offset 0x%"
                      HWADDR_PRIx "\n", __func__, am335x_gpio_id(s), offset);
    }
    value = extract32(reg, (offset & 3) * 8, size * 8);
    trace_am335x_gpio_read(am335x_gpio_id(s), offset, size, value);
    return value;
}

/* The bytes @mask of a plain register take @data, the others stay. */
static uint32_t am335x_gpio_merge(uint32_t old, uint32_t data, uint32_t mask)
{
    return (old & ~mask) | (data & mask);
}

/*
 * @data holds the written bytes in place, zero elsewhere; @mask marks the
 * written bytes.  Registers whose bits act when written as 1 use @data
 * alone, so that the bytes not written change nothing.
 */
static bool am335x_gpio_write_reg(AM335xGpioState *s, hwaddr offset,
                                  uint32_t data, uint32_t mask)
{
    switch (offset) {
    case A_SYSCONFIG:
        if (FIELD_EX32(data, SYSCONFIG, SOFTRESET)) {
            trace_am335x_gpio_reset(am335x_gpio_id(s), "SYSCONFIG.SOFTRESET");
            am335x_gpio_reset_regs(s);
            break;
        }
        s->sysconfig = am335x_gpio_merge(s->sysconfig, data, mask) &
                       SYSCONFIG_WRITABLE;
        break;
    case A_EOI:
        /* DMAEvent_Ack: this model raises no DMA event to acknowledge. */
        break;
    case A_IRQSTATUS_RAW_0:
    case A_IRQSTATUS_RAW_1:
        /* Writing 1 sets a raw status bit, for debug */
        s->irq_raw[(offset - A_IRQSTATUS_RAW_0) / 4] |= data;
        break;
    case A_IRQSTATUS_0:
    case A_IRQSTATUS_1:
        /* W1C, whether or not the event is enabled on this line */
        s->irq_raw[(offset - A_IRQSTATUS_0) / 4] &= ~data;
        break;
    case A_IRQSTATUS_SET_0:
    case A_IRQSTATUS_SET_1:
        s->irq_enable[(offset - A_IRQSTATUS_SET_0) / 4] |= data;
        break;
    case A_IRQSTATUS_CLR_0:
    case A_IRQSTATUS_CLR_1:
        s->irq_enable[(offset - A_IRQSTATUS_CLR_0) / 4] &= ~data;
        break;
    case A_IRQWAKEN_0:
    case A_IRQWAKEN_1: {
        int n = (offset - A_IRQWAKEN_0) / 4;

        s->irq_wake[n] = am335x_gpio_merge(s->irq_wake[n], data, mask);
        break;
    }
    case A_CTRL:
        s->ctrl = am335x_gpio_merge(s->ctrl, data, mask) & CTRL_WRITABLE;
        break;
    case A_OE:
        s->oe = am335x_gpio_merge(s->oe, data, mask);
        break;
    case A_DATAOUT:
        s->dataout = am335x_gpio_merge(s->dataout, data, mask);
        break;
    case A_LEVELDETECT0:
        s->leveldetect0 = am335x_gpio_merge(s->leveldetect0, data, mask);
        break;
    case A_LEVELDETECT1:
        s->leveldetect1 = am335x_gpio_merge(s->leveldetect1, data, mask);
        break;
    case A_RISINGDETECT:
        s->risingdetect = am335x_gpio_merge(s->risingdetect, data, mask);
        break;
    case A_FALLINGDETECT:
        s->fallingdetect = am335x_gpio_merge(s->fallingdetect, data, mask);
        break;
    case A_DEBOUNCENABLE:
        s->debounce_enable = am335x_gpio_merge(s->debounce_enable, data,
                                               mask);
        break;
    case A_DEBOUNCINGTIME:
        /* A new time applies to the waits that start after it. */
        s->debouncing_time = am335x_gpio_merge(s->debouncing_time, data,
                                               mask) &
                             R_DEBOUNCINGTIME_DEBOUNCETIME_MASK;
        break;
    case A_CLEARDATAOUT:
        s->dataout &= ~data;
        break;
    case A_SETDATAOUT:
        s->dataout |= data;
        break;
    case A_REVISION:
    case A_SYSSTATUS:
    case A_DATAIN:
        am335x_gpio_read_only(s, offset);
        break;
    default:
        return false;
    }
    return true;
}

static void am335x_gpio_write(void *opaque, hwaddr offset, uint64_t value,
                              unsigned size)
{
    AM335xGpioState *s = AM335X_GPIO(opaque);
    unsigned shift = (offset & 3) * 8;
    uint32_t mask = MAKE_64BIT_MASK(shift, size * 8);
    uint32_t data = ((uint32_t)value << shift) & mask;

    trace_am335x_gpio_write(am335x_gpio_id(s), offset, size, value);
    if (!am335x_gpio_write_reg(s, offset & ~3, data, mask)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: bad write offset 0x%"
                      HWADDR_PRIx "\n", __func__, am335x_gpio_id(s), offset);
        return;
    }
    am335x_gpio_update(s);
}

static const MemoryRegionOps am335x_gpio_ops = {
    .read = am335x_gpio_read,
    .write = am335x_gpio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    /* TRM 25.3.1: every register is 8-, 16- and 32-bit accessible */
    .valid.min_access_size = 1,
    .valid.max_access_size = 4,
    .impl.min_access_size = 1,
    .impl.max_access_size = 4,
};

static void am335x_gpio_reset_enter(Object *obj, ResetType type)
{
    am335x_gpio_reset_regs(AM335X_GPIO(obj));
}

static void am335x_gpio_reset_hold(Object *obj, ResetType type)
{
    AM335xGpioState *s = AM335X_GPIO(obj);

    trace_am335x_gpio_reset(am335x_gpio_id(s), "device reset");
    am335x_gpio_update(s);
}

static void am335x_gpio_realize(DeviceState *dev, Error **errp)
{
    AM335xGpioState *s = AM335X_GPIO(dev);

    memory_region_init_io(&s->iomem, OBJECT(s), &am335x_gpio_ops, s,
                          TYPE_AM335X_GPIO, AM335X_GPIO_MMIO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->iomem);
}

static void am335x_gpio_init(Object *obj)
{
    AM335xGpioState *s = AM335X_GPIO(obj);
    DeviceState *dev = DEVICE(obj);

    timer_init_ns(&s->debounce_timer, QEMU_CLOCK_VIRTUAL,
                  am335x_gpio_debounce_expired, s);
    s->dbclk = qdev_init_clock_in(dev, AM335X_GPIO_DBCLK,
                                  am335x_gpio_dbclk_update, s, ClockUpdate);
    qdev_init_gpio_in(dev, am335x_gpio_set_input, AM335X_GPIO_NUM_PINS);
    qdev_init_gpio_out(dev, s->out, AM335X_GPIO_NUM_PINS);
    for (int n = 0; n < AM335X_GPIO_NUM_LINES; n++) {
        sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq[n]);
    }
    object_property_add_uint32_ptr(obj, "outputs", &s->outputs,
                                   OBJ_PROP_FLAG_READ);
}

static int am335x_gpio_post_load(void *opaque, int version_id)
{
    AM335xGpioState *s = AM335X_GPIO(opaque);

    /* The devices on the outputs restore their own view of the levels. */
    s->outputs = s->dataout & ~s->oe;
    s->db_pending &= s->debounce_enable;
    return 0;
}

static const VMStateDescription vmstate_am335x_gpio = {
    .name = TYPE_AM335X_GPIO,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = am335x_gpio_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_TIMER(debounce_timer, AM335xGpioState),
        VMSTATE_CLOCK(dbclk, AM335xGpioState),
        VMSTATE_UINT32(sysconfig, AM335xGpioState),
        VMSTATE_UINT32_ARRAY(irq_raw, AM335xGpioState,
                             AM335X_GPIO_NUM_LINES),
        VMSTATE_UINT32_ARRAY(irq_enable, AM335xGpioState,
                             AM335X_GPIO_NUM_LINES),
        VMSTATE_UINT32_ARRAY(irq_wake, AM335xGpioState,
                             AM335X_GPIO_NUM_LINES),
        VMSTATE_UINT32(ctrl, AM335xGpioState),
        VMSTATE_UINT32(oe, AM335xGpioState),
        VMSTATE_UINT32(dataout, AM335xGpioState),
        VMSTATE_UINT32(leveldetect0, AM335xGpioState),
        VMSTATE_UINT32(leveldetect1, AM335xGpioState),
        VMSTATE_UINT32(risingdetect, AM335xGpioState),
        VMSTATE_UINT32(fallingdetect, AM335xGpioState),
        VMSTATE_UINT32(debounce_enable, AM335xGpioState),
        VMSTATE_UINT32(debouncing_time, AM335xGpioState),
        VMSTATE_UINT32(ext_in, AM335xGpioState),
        VMSTATE_UINT32(datain, AM335xGpioState),
        VMSTATE_UINT32(db_pending, AM335xGpioState),
        VMSTATE_INT64_ARRAY(db_deadline, AM335xGpioState,
                            AM335X_GPIO_NUM_PINS),
        VMSTATE_END_OF_LIST()
    }
};

static void am335x_gpio_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->realize = am335x_gpio_realize;
    dc->vmsd = &vmstate_am335x_gpio;
    dc->desc = "TI AM335x GPIO module";
    rc->phases.enter = am335x_gpio_reset_enter;
    rc->phases.hold = am335x_gpio_reset_hold;
}

static const TypeInfo am335x_gpio_info = {
    .name = TYPE_AM335X_GPIO,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AM335xGpioState),
    .instance_init = am335x_gpio_init,
    .class_init = am335x_gpio_class_init,
};

static void am335x_gpio_register_types(void)
{
    type_register_static(&am335x_gpio_info);
}

type_init(am335x_gpio_register_types)
