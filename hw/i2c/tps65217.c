/*
 * TI TPS65217 power management IC
 *
 * The BeagleBone Black's PMIC (the TPS65217C), on I2C0 at address 0x24:
 * a battery charger and power path, three DC/DC converters, four LDOs and
 * load switches, a white-LED driver and a push-button monitor, configured
 * through a bank of 8-bit registers.  This model keeps the registers as the
 * datasheet defines them, with the part's default voltages, and models the
 * parts software can observe:
 *
 * - the register protocol: the first byte of a write sets the register
 *   pointer, later bytes write registers and reads return them, the
 *   pointer advancing after each;
 * - the password protection of registers 0x0D-0x1E: a level-1 register
 *   takes a write only in the I2C transaction that follows a write of its
 *   address XOR 0x7D to PASSWORD, a level-2 register only when two such
 *   password-and-write sequences carry the same value;
 * - the interrupt register (flags cleared on read, mask bits) and the nINT
 *   output, with the push-button as interrupt source;
 * - power-off: with STATUS.OFF set, PWR_EN going low switches the PMIC
 *   and so the board off (on the BeagleBone Black, the RTC drives PWR_EN
 *   from its PMIC_POWER_EN output when Linux powers off).
 *
 * Rails are always in regulation (PGOOD follows ENABLE); the charger, the
 * WLED driver, the multiplexer and the sequencer are registers only.
 *
 * Reference: TPS65217x datasheet (SLVSB64), "Register Maps" and
 * "Password Protection".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "hw/i2c/tps65217.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "system/runstate.h"
#include "trace.h"

REG8(CHIPID, 0x00)
    FIELD(CHIPID, REV, 0, 4)
    FIELD(CHIPID, CHIP, 4, 4)
REG8(PPATH, 0x01)
REG8(INT, 0x02)
    FIELD(INT, USBI, 0, 1)
    FIELD(INT, ACI, 1, 1)
    FIELD(INT, PBI, 2, 1)
    FIELD(INT, USBM, 4, 1)
    FIELD(INT, ACM, 5, 1)
    FIELD(INT, PBM, 6, 1)
REG8(CHGCONFIG0, 0x03)
REG8(CHGCONFIG1, 0x04)
REG8(CHGCONFIG2, 0x05)
REG8(CHGCONFIG3, 0x06)
REG8(WLEDCTRL1, 0x07)
REG8(WLEDCTRL2, 0x08)
REG8(MUXCTRL, 0x09)
REG8(STATUS, 0x0a)
    FIELD(STATUS, PB, 0, 1)
    FIELD(STATUS, USBPWR, 2, 1)
    FIELD(STATUS, ACPWR, 3, 1)
    FIELD(STATUS, OFF, 7, 1)
REG8(PASSWORD, 0x0b)
REG8(PGOOD, 0x0c)
REG8(DEFPG, 0x0d)
REG8(DEFDCDC1, 0x0e)
REG8(DEFDCDC2, 0x0f)
REG8(DEFDCDC3, 0x10)
REG8(DEFSLEW, 0x11)
    FIELD(DEFSLEW, GO, 7, 1)
REG8(DEFLDO1, 0x12)
REG8(DEFLDO2, 0x13)
REG8(DEFLS1, 0x14)
REG8(DEFLS2, 0x15)
REG8(ENABLE, 0x16)
REG8(DEFUVLO, 0x18)
REG8(SEQ1, 0x19)
REG8(SEQ2, 0x1a)
REG8(SEQ3, 0x1b)
REG8(SEQ4, 0x1c)
REG8(SEQ5, 0x1d)
REG8(SEQ6, 0x1e)
    FIELD(SEQ6, INSTDWN, 0, 1)
    FIELD(SEQ6, SEQDWN, 1, 1)
    FIELD(SEQ6, SEQUP, 2, 1)

/*
 * CHIPID of the BeagleBone Black's part: CHIP 0xE (TPS65217C), REV 2
 * (silicon 1.2); Linux prints "TPS65217 ID 0xe version 1.2" on the board.
 */
#define TPS65217C_CHIPID        0xe2

/* The protection password (datasheet "Password Protection") */
#define TPS65217_PASSWORD_XOR   0x7d

/* INT: each flag in [2:0] is masked by the bit four places up. */
#define INT_FLAGS   (R_INT_USBI_MASK | R_INT_ACI_MASK | R_INT_PBI_MASK)
#define INT_MASKS   (R_INT_USBM_MASK | R_INT_ACM_MASK | R_INT_PBM_MASK)
#define INT_MASK_SHIFT 4

/* The enable bits of ENABLE and the power-good bits share positions. */
#define ENABLE_RAILS    0x7f

enum {
    PW_NONE,
    PW_L1,
    PW_L2,
    PW_RO,        /* read-only or reserved: writes are dropped */
};

typedef struct TPS65217Reg {
    uint8_t reset;
    uint8_t writable;
    uint8_t prot;
} TPS65217Reg;

/*
 * Reset values and writable bits.  The rails are as the TPS65217C's
 * power-up sequence leaves them: all enabled, DCDC1 1.5 V (the BeagleBone
 * Black's DDR3L), DCDC2 and DCDC3 1.1 V, LDO1 1.8 V, LDO2 3.3 V, LS1/LDO3
 * 1.8 V and LS2/LDO4 3.3 V in LDO mode; the voltage codes are those of
 * Linux's tps65217 regulator tables.  PPATH is the value read on boards.
 * The charger, DEFPG, DEFSLEW, DEFUVLO and SEQ defaults are plausible
 * values that were not checked against the datasheet's tables; software
 * only reads them back.
 */
static const TPS65217Reg tps65217_regs[TPS65217_NUM_REGS] = {
    [A_CHIPID]      = { TPS65217C_CHIPID, 0x00, PW_RO },
    /* AC and USB inputs enabled, 2.5 A AC, 500 mA USB */
    [A_PPATH]       = { 0x3d, 0xff, PW_NONE },
    [A_INT]         = { 0x00, INT_MASKS, PW_NONE },
    [A_CHGCONFIG0]  = { 0x00, 0x00, PW_RO },
    [A_CHGCONFIG1]  = { 0xb1, 0xff, PW_NONE },
    [A_CHGCONFIG2]  = { 0x80, 0xf0, PW_NONE },
    [A_CHGCONFIG3]  = { 0xb2, 0xff, PW_NONE },
    [A_WLEDCTRL1]   = { 0x00, 0x0f, PW_NONE },
    [A_WLEDCTRL2]   = { 0x00, 0x7f, PW_NONE },
    [A_MUXCTRL]     = { 0x00, 0x07, PW_NONE },
    [A_STATUS]      = { 0x00, R_STATUS_OFF_MASK, PW_NONE },
    [A_PASSWORD]    = { 0x00, 0xff, PW_NONE },
    [A_PGOOD]       = { 0x00, 0x00, PW_RO },
    [A_DEFPG]       = { 0x0c, 0x0f, PW_L2 },
    [A_DEFDCDC1]    = { 0x18, 0xbf, PW_L2 },  /* 1.5 V */
    [A_DEFDCDC2]    = { 0x08, 0xbf, PW_L2 },  /* 1.1 V */
    [A_DEFDCDC3]    = { 0x08, 0xbf, PW_L2 },  /* 1.1 V */
    [A_DEFSLEW]     = { 0x06, 0xff, PW_L2 },
    [A_DEFLDO1]     = { 0x09, 0x0f, PW_L2 },  /* 1.8 V */
    [A_DEFLDO2]     = { 0x38, 0x7f, PW_L2 },  /* 3.3 V */
    [A_DEFLS1]      = { 0x26, 0x3f, PW_L2 },  /* LDO3 1.8 V */
    [A_DEFLS2]      = { 0x3f, 0x3f, PW_L2 },  /* LDO4 3.3 V */
    [A_ENABLE]      = { ENABLE_RAILS, ENABLE_RAILS, PW_L1 },
    [0x17]          = { 0x00, 0x00, PW_RO },
    [A_DEFUVLO]     = { 0x03, 0x07, PW_L1 },
    [A_SEQ1]        = { 0x15, 0xff, PW_L1 },
    [A_SEQ2]        = { 0x4f, 0xff, PW_L1 },
    [A_SEQ3]        = { 0x32, 0xff, PW_L1 },
    [A_SEQ4]        = { 0x30, 0xf0, PW_L1 },
    [A_SEQ5]        = { 0x00, 0xff, PW_L1 },
    [A_SEQ6]        = { 0x00, 0xf7, PW_L1 },
};

static const char *tps65217_name(TPS65217State *s)
{
    return DEVICE(s)->canonical_path;
}

static void tps65217_update_irq(TPS65217State *s)
{
    uint8_t pending = s->regs[A_INT] & INT_FLAGS &
                      ~(s->regs[A_INT] >> INT_MASK_SHIFT);

    qemu_set_irq(s->irq, pending != 0);
}

static uint8_t tps65217_read_reg(TPS65217State *s, uint8_t reg)
{
    uint8_t value;

    if (reg >= TPS65217_NUM_REGS) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: read of undefined register "
                      "0x%02x\n", __func__, tps65217_name(s), reg);
        return 0;
    }
    switch (reg) {
    case A_INT:
        /* The flags clear when read. */
        value = s->regs[A_INT];
        s->regs[A_INT] &= ~INT_FLAGS;
        tps65217_update_irq(s);
        break;
    case A_STATUS:
        value = s->regs[A_STATUS];
        value = FIELD_DP8(value, STATUS, PB, s->push_button);
        value = FIELD_DP8(value, STATUS, USBPWR, s->usb_power);
        value = FIELD_DP8(value, STATUS, ACPWR, s->ac_power);
        break;
    case A_PGOOD:
        /* Every enabled rail is in regulation. */
        value = s->regs[A_ENABLE] & ENABLE_RAILS;
        break;
    default:
        value = s->regs[reg];
        break;
    }
    trace_tps65217_read(tps65217_name(s), reg, value);
    return value;
}

/* A write that passed the protection check. */
static void tps65217_apply(TPS65217State *s, uint8_t reg, uint8_t value)
{
    const TPS65217Reg *r = &tps65217_regs[reg];

    trace_tps65217_write(tps65217_name(s), reg, value);
    s->regs[reg] = (s->regs[reg] & ~r->writable) | (value & r->writable);

    switch (reg) {
    case A_INT:
        tps65217_update_irq(s);
        break;
    case A_DEFSLEW:
        /* The new DCDC voltages apply at once; GO clears when they have. */
        s->regs[A_DEFSLEW] &= ~R_DEFSLEW_GO_MASK;
        break;
    case A_SEQ6:
        if (value & (R_SEQ6_SEQUP_MASK | R_SEQ6_SEQDWN_MASK)) {
            qemu_log_mask(LOG_UNIMP, "%s: %s: sequencer triggers not "
                          "modelled\n", __func__, tps65217_name(s));
        }
        /* SEQUP and SEQDWN clear when the sequence is over. */
        s->regs[A_SEQ6] &= ~(R_SEQ6_SEQUP_MASK | R_SEQ6_SEQDWN_MASK);
        break;
    default:
        break;
    }
}

static void tps65217_write_reg(TPS65217State *s, uint8_t reg, uint8_t value)
{
    bool unlocked;

    if (reg >= TPS65217_NUM_REGS) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: write to undefined register "
                      "0x%02x\n", __func__, tps65217_name(s), reg);
        return;
    }
    if (reg == A_PASSWORD) {
        s->regs[A_PASSWORD] = value;
        s->password_fresh = true;
        return;
    }

    unlocked = (s->regs[A_PASSWORD] ^ reg) == TPS65217_PASSWORD_XOR;
    switch (tps65217_regs[reg].prot) {
    case PW_NONE:
        tps65217_apply(s, reg, value);
        break;
    case PW_L1:
        if (unlocked) {
            tps65217_apply(s, reg, value);
        } else {
            trace_tps65217_locked(tps65217_name(s), reg, value);
        }
        break;
    case PW_L2:
        if (!unlocked) {
            trace_tps65217_locked(tps65217_name(s), reg, value);
            s->l2_pending = false;
        } else if (s->l2_pending && s->l2_reg == reg &&
                   s->l2_value == value) {
            /* The second, confirming half of the sequence */
            s->l2_pending = false;
            tps65217_apply(s, reg, value);
        } else {
            /* The first half: the value is only held. */
            s->l2_pending = true;
            s->l2_reg = reg;
            s->l2_value = value;
        }
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: write to read-only register "
                      "0x%02x\n", __func__, tps65217_name(s), reg);
        break;
    }
}

static int tps65217_event(I2CSlave *i2c, enum i2c_event event)
{
    TPS65217State *s = TPS65217(i2c);

    switch (event) {
    case I2C_START_SEND:
        s->have_pointer = false;
        break;
    case I2C_START_RECV:
        break;
    case I2C_FINISH:
        /*
         * PASSWORD is valid for the one transaction after the one that
         * wrote it, then returns to 0 whatever that transaction was.
         */
        if (s->password_fresh) {
            s->password_fresh = false;
        } else {
            s->regs[A_PASSWORD] = 0;
        }
        break;
    case I2C_NACK:
        break;
    default:
        return -1;
    }
    return 0;
}

static uint8_t tps65217_recv(I2CSlave *i2c)
{
    TPS65217State *s = TPS65217(i2c);

    return tps65217_read_reg(s, s->pointer++);
}

static int tps65217_send(I2CSlave *i2c, uint8_t data)
{
    TPS65217State *s = TPS65217(i2c);

    if (!s->have_pointer) {
        s->pointer = data;
        s->have_pointer = true;
        return 0;
    }
    tps65217_write_reg(s, s->pointer++, data);
    return 0;
}

/*
 * PWR_EN low takes the PMIC from ACTIVE to OFF when STATUS.OFF is set
 * (Linux sets it for "ti,pmic-shutdown-controller"), otherwise to SLEEP.
 */
static void tps65217_set_pwr_en(void *opaque, int n, int level)
{
    TPS65217State *s = TPS65217(opaque);
    bool high = level != 0;
    bool falling = s->pwr_en && !high;

    s->pwr_en = high;
    trace_tps65217_pwr_en(tps65217_name(s), high);
    if (!falling) {
        return;
    }
    if (FIELD_EX8(s->regs[A_STATUS], STATUS, OFF)) {
        qemu_system_shutdown_request(SHUTDOWN_CAUSE_GUEST_SHUTDOWN);
    } else {
        qemu_log_mask(LOG_UNIMP, "%s: %s: SLEEP state not modelled\n",
                      __func__, tps65217_name(s));
    }
}

/* PB_IN: any change of the push-button raises PBI. */
static void tps65217_set_push_button(void *opaque, int n, int level)
{
    TPS65217State *s = TPS65217(opaque);
    bool pressed = level != 0;

    if (pressed == s->push_button) {
        return;
    }
    s->push_button = pressed;
    s->regs[A_INT] |= R_INT_PBI_MASK;
    trace_tps65217_push_button(tps65217_name(s), pressed);
    tps65217_update_irq(s);
}

static void tps65217_reset_hold(Object *obj, ResetType type)
{
    TPS65217State *s = TPS65217(obj);

    for (int i = 0; i < TPS65217_NUM_REGS; i++) {
        s->regs[i] = tps65217_regs[i].reset;
    }
    s->pointer = 0;
    s->have_pointer = false;
    s->password_fresh = false;
    s->l2_pending = false;
    s->l2_reg = 0;
    s->l2_value = 0;
    s->pwr_en = true;
    s->push_button = false;
    tps65217_update_irq(s);
}

static void tps65217_init(Object *obj)
{
    DeviceState *dev = DEVICE(obj);
    TPS65217State *s = TPS65217(obj);

    qdev_init_gpio_out(dev, &s->irq, 1);
    qdev_init_gpio_in_named(dev, tps65217_set_pwr_en, TPS65217_PWR_EN, 1);
    qdev_init_gpio_in_named(dev, tps65217_set_push_button,
                            TPS65217_PUSH_BUTTON, 1);
}

static const VMStateDescription vmstate_tps65217 = {
    .name = TYPE_TPS65217,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_I2C_SLAVE(parent_obj, TPS65217State),
        VMSTATE_UINT8_ARRAY(regs, TPS65217State, TPS65217_NUM_REGS),
        VMSTATE_UINT8(pointer, TPS65217State),
        VMSTATE_BOOL(have_pointer, TPS65217State),
        VMSTATE_BOOL(password_fresh, TPS65217State),
        VMSTATE_BOOL(l2_pending, TPS65217State),
        VMSTATE_UINT8(l2_reg, TPS65217State),
        VMSTATE_UINT8(l2_value, TPS65217State),
        VMSTATE_BOOL(pwr_en, TPS65217State),
        VMSTATE_BOOL(push_button, TPS65217State),
        VMSTATE_END_OF_LIST()
    }
};

static const Property tps65217_properties[] = {
    DEFINE_PROP_BOOL("ac-power", TPS65217State, ac_power, false),
    DEFINE_PROP_BOOL("usb-power", TPS65217State, usb_power, true),
};

static void tps65217_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);
    I2CSlaveClass *sc = I2C_SLAVE_CLASS(klass);

    dc->desc = "TI TPS65217 PMIC";
    dc->vmsd = &vmstate_tps65217;
    rc->phases.hold = tps65217_reset_hold;
    sc->event = tps65217_event;
    sc->recv = tps65217_recv;
    sc->send = tps65217_send;
    device_class_set_props(dc, tps65217_properties);
}

static const TypeInfo tps65217_info = {
    .name = TYPE_TPS65217,
    .parent = TYPE_I2C_SLAVE,
    .instance_size = sizeof(TPS65217State),
    .instance_init = tps65217_init,
    .class_init = tps65217_class_init,
};

static void tps65217_register_types(void)
{
    type_register_static(&tps65217_info);
}

type_init(tps65217_register_types)
