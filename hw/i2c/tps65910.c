/*
 * TI TPS65910 power management IC
 *
 * The AM335x EVM's PMIC, on I2C0 at address 0x2D (its control interface):
 * an RTC, three buck converters (VIO, VDD1 for the MPU, VDD2 for the core),
 * a boost converter (VDD3), eight LDOs, a backup-battery charger, GPIOs and
 * the device power state machine.  This model is its register bank, with
 * the defaults of the AM335x configuration (TPS65910A3) and the behaviour
 * software relies on:
 *
 * - the register protocol: the first byte of a write sets the register
 *   pointer, later bytes write registers and reads return them, the
 *   pointer advancing after each;
 * - voltage and state fields that read back what was written, so that the
 *   regulator drivers see the rails they program (Linux's tps65910
 *   regulators, U-Boot's VDD1/VDD2 OP voltage switch);
 * - the interrupt status (write 1 to clear) and mask registers and the
 *   INT1 output;
 * - DEVCTRL.DEV_OFF, which powers the board off, and DEV_OFF_RST, which
 *   power-cycles it.
 *
 * The RTC registers are storage only (the RTC does not count), the rails
 * never leave regulation and the SLEEP state is not modelled.
 *
 * Reference: TPS65910x datasheet (SWCS046), "Register Descriptions".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qapi/error.h"
#include "hw/i2c/tps65910.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "system/runstate.h"
#include "trace.h"

REG8(SECONDS, 0x00)
REG8(MINUTES, 0x01)
REG8(HOURS, 0x02)
REG8(DAYS, 0x03)
REG8(MONTHS, 0x04)
REG8(YEARS, 0x05)
REG8(WEEKS, 0x06)
REG8(ALARM_SECONDS, 0x08)
REG8(ALARM_MINUTES, 0x09)
REG8(ALARM_HOURS, 0x0a)
REG8(ALARM_DAYS, 0x0b)
REG8(ALARM_MONTHS, 0x0c)
REG8(ALARM_YEARS, 0x0d)
REG8(RTC_CTRL, 0x10)
    FIELD(RTC_CTRL, STOP_RTC, 0, 1)
    FIELD(RTC_CTRL, GET_TIME, 6, 1)
REG8(RTC_STATUS, 0x11)
    FIELD(RTC_STATUS, RUN, 1, 1)
    FIELD(RTC_STATUS, ALARM, 6, 1)
    FIELD(RTC_STATUS, POWER_UP, 7, 1)
REG8(RTC_INTERRUPTS, 0x12)
REG8(RTC_COMP_LSB, 0x13)
REG8(RTC_COMP_MSB, 0x14)
REG8(RTC_RES_PROG, 0x15)
REG8(RTC_RESET_STATUS, 0x16)
REG8(BCK1, 0x17)
REG8(BCK2, 0x18)
REG8(BCK3, 0x19)
REG8(BCK4, 0x1a)
REG8(BCK5, 0x1b)
REG8(PUADEN, 0x1c)
REG8(REF, 0x1d)
REG8(VRTC, 0x1e)
REG8(VIO, 0x20)
REG8(VDD1, 0x21)
REG8(VDD1_OP, 0x22)
REG8(VDD1_SR, 0x23)
REG8(VDD2, 0x24)
REG8(VDD2_OP, 0x25)
REG8(VDD2_SR, 0x26)
REG8(VDD3, 0x27)
REG8(VDIG1, 0x30)
REG8(VDIG2, 0x31)
REG8(VAUX1, 0x32)
REG8(VAUX2, 0x33)
REG8(VAUX33, 0x34)
REG8(VMMC, 0x35)
REG8(VPLL, 0x36)
REG8(VDAC, 0x37)
REG8(THERM, 0x38)
REG8(BBCH, 0x39)
REG8(DCDCCTRL, 0x3e)
REG8(DEVCTRL, 0x3f)
    FIELD(DEVCTRL, DEV_OFF, 0, 1)
    FIELD(DEVCTRL, DEV_SLP, 1, 1)
    FIELD(DEVCTRL, DEV_ON, 2, 1)
    FIELD(DEVCTRL, DEV_OFF_RST, 3, 1)
REG8(DEVCTRL2, 0x40)
REG8(SLEEP_KEEP_LDO_ON, 0x41)
REG8(SLEEP_KEEP_RES_ON, 0x42)
REG8(SLEEP_SET_LDO_OFF, 0x43)
REG8(SLEEP_SET_RES_OFF, 0x44)
REG8(EN1_LDO_ASS, 0x45)
REG8(EN1_SMPS_ASS, 0x46)
REG8(EN2_LDO_ASS, 0x47)
REG8(EN2_SMPS_ASS, 0x48)
REG8(EN3_LDO_ASS, 0x49)
REG8(SPARE, 0x4a)
REG8(INT_STS, 0x50)
REG8(INT_MSK, 0x51)
REG8(INT_STS2, 0x52)
REG8(INT_MSK2, 0x53)
REG8(INT_STS3, 0x54)
REG8(INT_MSK3, 0x55)
REG8(GPIO0, 0x60)
    FIELD(GPIO0, SET, 0, 1)
    FIELD(GPIO0, STS, 1, 1)
    FIELD(GPIO0, CFG, 2, 1)
    FIELD(GPIO0, PUEN, 3, 1)
REG8(GPIO8, 0x68)
REG8(JTAGVERNUM, 0x80)
    FIELD(JTAGVERNUM, VERNUM, 0, 4)

enum {
    KIND_RESERVED,  /* no register: reads 0, writes dropped */
    KIND_RW,        /* the writable bits keep what is written */
    KIND_W1C,       /* event bits: writing 1 clears */
    KIND_RO,
};

typedef struct TPS65910Reg {
    uint8_t kind;
    uint8_t reset;
    uint8_t writable;
} TPS65910Reg;

#define RW(reset, mask)     { KIND_RW, (reset), (mask) }
#define W1C(reset, mask)    { KIND_W1C, (reset), (mask) }
#define RO(reset)           { KIND_RO, (reset), 0 }

/* A regulator control: SEL [3:2], ST [1:0] (01: on, high-power mode) */
#define LDO_ST_ON           0x01
#define LDO(sel)            RW(((sel) << 2) | LDO_ST_ON, 0x0f)

/*
 * VDD1/VDD2 OP and SR: SEL [6:0] selects 0.6 V + (SEL - 3) * 12.5 mV;
 * 0x2b is 1.1 V, the AM335x OPP100 voltage of both rails.
 */
#define VDD_SEL_1V1         0x2b

/* GPIOn: SET, CFG, PUEN, DEB and GPIO_SLEEP (bit 7); STS is the pad. */
#define GPIO_WRITABLE       0x9d

/*
 * Reset values and writable bits.  The field layouts are the datasheet's
 * (and Linux's and U-Boot's); the values are chosen for an AM335x board
 * and were not checked one by one against the TPS65910A3 defaults of
 * SWCS046.  The rails are on at the voltages the AM335x needs:
 * VIO 1.8 V, VDD1 and VDD2 1.1 V, VDIG1 and VDIG2 1.8 V, VPLL 1.8 V,
 * VDAC 1.8 V, VAUX1 1.8 V, VAUX2 3.3 V, VAUX33 3.3 V, VMMC 3.3 V; the
 * VDD3 boost converter is off.
 */
static const TPS65910Reg tps65910_regs[TPS65910_NUM_REGS] = {
    /* RTC: BCD time and alarm, 1 January 2000 */
    [A_SECONDS]         = RW(0x00, 0x7f),
    [A_MINUTES]         = RW(0x00, 0x7f),
    [A_HOURS]           = RW(0x00, 0xbf),
    [A_DAYS]            = RW(0x01, 0x3f),
    [A_MONTHS]          = RW(0x01, 0x1f),
    [A_YEARS]           = RW(0x00, 0xff),
    [A_WEEKS]           = RW(0x00, 0x07),
    [A_ALARM_SECONDS]   = RW(0x00, 0x7f),
    [A_ALARM_MINUTES]   = RW(0x00, 0x7f),
    [A_ALARM_HOURS]     = RW(0x00, 0xbf),
    [A_ALARM_DAYS]      = RW(0x01, 0x3f),
    [A_ALARM_MONTHS]    = RW(0x01, 0x1f),
    [A_ALARM_YEARS]     = RW(0x00, 0xff),
    [A_RTC_CTRL]        = RW(0x00, 0xff),
    /* POWER_UP is set after the RTC domain powers up. */
    [A_RTC_STATUS]      = W1C(R_RTC_STATUS_POWER_UP_MASK,
                              R_RTC_STATUS_ALARM_MASK |
                              R_RTC_STATUS_POWER_UP_MASK),
    [A_RTC_INTERRUPTS]  = RW(0x00, 0x0f),
    [A_RTC_COMP_LSB]    = RW(0x00, 0xff),
    [A_RTC_COMP_MSB]    = RW(0x00, 0xff),
    [A_RTC_RES_PROG]    = RW(0x27, 0x3f),
    [A_RTC_RESET_STATUS] = RW(0x00, 0x01),
    [A_BCK1]            = RW(0x00, 0xff),
    [A_BCK2]            = RW(0x00, 0xff),
    [A_BCK3]            = RW(0x00, 0xff),
    [A_BCK4]            = RW(0x00, 0xff),
    [A_BCK5]            = RW(0x00, 0xff),
    [A_PUADEN]          = RW(0x00, 0xff),
    [A_REF]             = RW(0x01, 0x0f),
    [A_VRTC]            = RW(0x01, 0x0b),
    /* ILMAX [7:6], SEL [3:2] (1.8 V), ST [1:0] */
    [A_VIO]             = RW(0x05, 0xcf),
    /* VGAIN_SEL [7:6], ILMAX 5, TSTEP [4:2], ST [1:0] */
    [A_VDD1]            = RW(0x0d, 0xff),
    [A_VDD1_OP]         = RW(VDD_SEL_1V1, 0xff),
    [A_VDD1_SR]         = RW(VDD_SEL_1V1, 0x7f),
    [A_VDD2]            = RW(0x0d, 0xff),
    [A_VDD2_OP]         = RW(VDD_SEL_1V1, 0xff),
    [A_VDD2_SR]         = RW(VDD_SEL_1V1, 0x7f),
    /* CKINEN 2, ST [1:0]: off */
    [A_VDD3]            = RW(0x00, 0x07),
    [A_VDIG1]           = LDO(2),
    [A_VDIG2]           = LDO(3),
    [A_VAUX1]           = LDO(0),
    [A_VAUX2]           = LDO(3),
    [A_VAUX33]          = LDO(3),
    [A_VMMC]            = LDO(3),
    [A_VPLL]            = LDO(2),
    [A_VDAC]            = LDO(0),
    /* THERM_HD (5) is the hot-die detector output: never hot here. */
    [A_THERM]           = RW(0x0d, 0x1d),
    [A_BBCH]            = RW(0x00, 0x07),
    [A_DCDCCTRL]        = RW(0x00, 0x3f),
    [A_DEVCTRL]         = RW(0x00, 0xff),
    [A_DEVCTRL2]        = RW(0x00, 0x3f),
    [A_SLEEP_KEEP_LDO_ON] = RW(0x00, 0xff),
    [A_SLEEP_KEEP_RES_ON] = RW(0x00, 0xff),
    [A_SLEEP_SET_LDO_OFF] = RW(0x00, 0xff),
    [A_SLEEP_SET_RES_OFF] = RW(0x00, 0xff),
    [A_EN1_LDO_ASS]     = RW(0x00, 0xff),
    [A_EN1_SMPS_ASS]    = RW(0x00, 0x1f),
    [A_EN2_LDO_ASS]     = RW(0x00, 0xff),
    [A_EN2_SMPS_ASS]    = RW(0x00, 0x1f),
    [A_EN3_LDO_ASS]     = RW(0x00, 0xff),
    [A_SPARE]           = RW(0x00, 0xff),
    [A_INT_STS]         = W1C(0x00, 0xff),
    [A_INT_MSK]         = RW(0x00, 0xff),
    [A_INT_STS2]        = W1C(0x00, 0xff),
    [A_INT_MSK2]        = RW(0x00, 0xff),
    [A_INT_STS3]        = W1C(0x00, 0xff),
    [A_INT_MSK3]        = RW(0x00, 0xff),
    [A_GPIO0 ... A_GPIO8] = RW(0x00, GPIO_WRITABLE),
    [A_JTAGVERNUM]      = RO(0x00),
};

static const char *tps65910_name(TPS65910State *s)
{
    return DEVICE(s)->canonical_path;
}

static void tps65910_update_irq(TPS65910State *s)
{
    bool level = (s->regs[A_INT_STS] & ~s->regs[A_INT_MSK]) ||
                 (s->regs[A_INT_STS2] & ~s->regs[A_INT_MSK2]) ||
                 (s->regs[A_INT_STS3] & ~s->regs[A_INT_MSK3]);

    qemu_set_irq(s->irq, level);
}

static uint8_t tps65910_read_reg(TPS65910State *s, uint8_t reg)
{
    uint8_t value;

    if (reg >= TPS65910_NUM_REGS ||
        tps65910_regs[reg].kind == KIND_RESERVED) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: read of undefined register "
                      "0x%02x\n", __func__, tps65910_name(s), reg);
        return 0;
    }
    value = s->regs[reg];
    switch (reg) {
    case A_RTC_STATUS:
        value = FIELD_DP8(value, RTC_STATUS, RUN,
                          FIELD_EX8(s->regs[A_RTC_CTRL], RTC_CTRL,
                                    STOP_RTC));
        break;
    case A_GPIO0 ... A_GPIO8:
        /* The pad: the output level, or the pull-up of an idle input */
        value = FIELD_DP8(value, GPIO0, STS,
                          FIELD_EX8(value, GPIO0, CFG) ?
                          FIELD_EX8(value, GPIO0, SET) :
                          FIELD_EX8(value, GPIO0, PUEN));
        break;
    case A_JTAGVERNUM:
        value = FIELD_DP8(0, JTAGVERNUM, VERNUM, s->vernum);
        break;
    default:
        break;
    }
    trace_tps65910_read(tps65910_name(s), reg, value);
    return value;
}

static void tps65910_write_devctrl(TPS65910State *s, uint8_t value)
{
    if (FIELD_EX8(value, DEVCTRL, DEV_OFF)) {
        /* The switch-off event: ACTIVE to OFF, the board loses power. */
        trace_tps65910_power(tps65910_name(s), "off");
        qemu_system_shutdown_request(SHUTDOWN_CAUSE_GUEST_SHUTDOWN);
    } else if (FIELD_EX8(value, DEVCTRL, DEV_OFF_RST)) {
        /* Switch off, then on again as soon as OFF is reached */
        trace_tps65910_power(tps65910_name(s), "off and on");
        qemu_system_reset_request(SHUTDOWN_CAUSE_GUEST_RESET);
    }
    if (FIELD_EX8(value, DEVCTRL, DEV_SLP)) {
        qemu_log_mask(LOG_UNIMP, "%s: %s: SLEEP state not modelled\n",
                      __func__, tps65910_name(s));
    }
    /* The transition requests read back 0 once taken. */
    s->regs[A_DEVCTRL] = value & ~(R_DEVCTRL_DEV_OFF_MASK |
                                   R_DEVCTRL_DEV_OFF_RST_MASK);
}

static void tps65910_write_reg(TPS65910State *s, uint8_t reg, uint8_t value)
{
    const TPS65910Reg *r;

    if (reg >= TPS65910_NUM_REGS) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: write to undefined register "
                      "0x%02x\n", __func__, tps65910_name(s), reg);
        return;
    }
    r = &tps65910_regs[reg];
    trace_tps65910_write(tps65910_name(s), reg, value);

    switch (r->kind) {
    case KIND_RW:
        break;
    case KIND_W1C:
        s->regs[reg] &= ~(value & r->writable);
        tps65910_update_irq(s);
        return;
    case KIND_RO:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: write to read-only register "
                      "0x%02x\n", __func__, tps65910_name(s), reg);
        return;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: write to undefined register "
                      "0x%02x\n", __func__, tps65910_name(s), reg);
        return;
    }

    switch (reg) {
    case A_DEVCTRL:
        tps65910_write_devctrl(s, value);
        return;
    case A_RTC_CTRL:
        if (value & (R_RTC_CTRL_STOP_RTC_MASK | R_RTC_CTRL_GET_TIME_MASK)) {
            qemu_log_mask(LOG_UNIMP, "%s: %s: the RTC does not count\n",
                          __func__, tps65910_name(s));
        }
        break;
    default:
        break;
    }
    s->regs[reg] = (s->regs[reg] & ~r->writable) | (value & r->writable);
    if (reg == A_INT_MSK || reg == A_INT_MSK2 || reg == A_INT_MSK3) {
        tps65910_update_irq(s);
    }
}

static int tps65910_event(I2CSlave *i2c, enum i2c_event event)
{
    TPS65910State *s = TPS65910(i2c);

    switch (event) {
    case I2C_START_SEND:
        s->have_pointer = false;
        break;
    case I2C_START_RECV:
    case I2C_FINISH:
    case I2C_NACK:
        break;
    default:
        return -1;
    }
    return 0;
}

static uint8_t tps65910_recv(I2CSlave *i2c)
{
    TPS65910State *s = TPS65910(i2c);

    return tps65910_read_reg(s, s->pointer++);
}

static int tps65910_send(I2CSlave *i2c, uint8_t data)
{
    TPS65910State *s = TPS65910(i2c);

    if (!s->have_pointer) {
        s->pointer = data;
        s->have_pointer = true;
        return 0;
    }
    tps65910_write_reg(s, s->pointer++, data);
    return 0;
}

static void tps65910_reset_hold(Object *obj, ResetType type)
{
    TPS65910State *s = TPS65910(obj);

    for (int i = 0; i < TPS65910_NUM_REGS; i++) {
        s->regs[i] = tps65910_regs[i].reset;
    }
    s->pointer = 0;
    s->have_pointer = false;
    tps65910_update_irq(s);
}

static void tps65910_init(Object *obj)
{
    TPS65910State *s = TPS65910(obj);

    qdev_init_gpio_out(DEVICE(obj), &s->irq, 1);
}

static const VMStateDescription vmstate_tps65910 = {
    .name = TYPE_TPS65910,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_I2C_SLAVE(parent_obj, TPS65910State),
        VMSTATE_UINT8_ARRAY(regs, TPS65910State, TPS65910_NUM_REGS),
        VMSTATE_UINT8(pointer, TPS65910State),
        VMSTATE_BOOL(have_pointer, TPS65910State),
        VMSTATE_END_OF_LIST()
    }
};

static const Property tps65910_properties[] = {
    /*
     * JTAGVERNUM.VERNUM [3:0]; the silicon revision is not documented in a
     * form this model could check, so 0 (the first revision) by default.
     */
    DEFINE_PROP_UINT8("vernum", TPS65910State, vernum, 0),
};

static void tps65910_realize(DeviceState *dev, Error **errp)
{
    TPS65910State *s = TPS65910(dev);

    if (s->vernum > R_JTAGVERNUM_VERNUM_MASK) {
        error_setg(errp, "%s: vernum 0x%x does not fit in 4 bits",
                   TYPE_TPS65910, s->vernum);
    }
}

static void tps65910_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);
    I2CSlaveClass *sc = I2C_SLAVE_CLASS(klass);

    dc->desc = "TI TPS65910 PMIC";
    dc->realize = tps65910_realize;
    dc->vmsd = &vmstate_tps65910;
    rc->phases.hold = tps65910_reset_hold;
    sc->event = tps65910_event;
    sc->recv = tps65910_recv;
    sc->send = tps65910_send;
    device_class_set_props(dc, tps65910_properties);
}

static const TypeInfo tps65910_info = {
    .name = TYPE_TPS65910,
    .parent = TYPE_I2C_SLAVE,
    .instance_size = sizeof(TPS65910State),
    .instance_init = tps65910_init,
    .class_init = tps65910_class_init,
};

static void tps65910_register_types(void)
{
    type_register_static(&tps65910_info);
}

type_init(tps65910_register_types)
