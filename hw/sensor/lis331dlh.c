/*
 * ST LIS331DLH three-axis accelerometer
 *
 * The AM335x EVM's accelerometer, on I2C1 at 0x18 (SA0 low).  Modelled:
 *
 * - the I2C protocol: the first byte of a write is the sub-address, whose
 *   bit 7 turns on auto-increment; later bytes write registers, reads
 *   return them, the address advancing after each only with
 *   auto-increment;
 * - WHO_AM_I (0x32), CTRL_REG1-5 with their reset values, REFERENCE, the
 *   interrupt generators' configuration, threshold and duration
 *   registers; CTRL_REG2.BOOT (the reload of the trimming values) is over
 *   at once;
 * - the outputs: the acceleration the part feels (the "x-mg", "y-mg" and
 *   "z-mg" properties, in mg; the board lies flat, +1 g on Z) as 12-bit
 *   two's complement values left-justified in 16 bits, at the full scale
 *   CTRL_REG4.FS selects (1, 2 or 3.9 mg a digit, saturating), in the
 *   byte order CTRL_REG4.BLE selects; an axis keeps its last sample while
 *   the part is powered down or the axis is off (CTRL_REG1.PM, Xen-Zen);
 *   with CTRL_REG4.BDU an axis's high byte holds its value from the low
 *   byte's read until it is read itself;
 * - the self-test (CTRL_REG4.ST): the electrostatic force adds the typical
 *   output change of the datasheet's table 3 at +-2 g, X +300, Y +300 and
 *   Z +350 mg, negated with CTRL_REG4.STsign;
 * - STATUS_REG: an axis has new data (xDA) once one output period (the
 *   data rate of CTRL_REG1.DR in normal mode, of PM in the low-power
 *   modes) has passed since its high byte was last read, and was overrun
 *   (xOR) after two; ZYXDA and ZYXOR join the three.
 *
 * Not modelled: the high-pass filter (CTRL_REG2.FDS: the outputs stay
 * unfiltered) and the interrupt generators' events (INTx_SOURCE reads 0;
 * the EVM wires neither INT pin to the SoC).
 *
 * Reference: LIS331DLH datasheet (ST, Doc ID 15094), "Register
 * description" and table 3.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hw/sensor/lis331dlh.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "trace.h"

REG8(WHO_AM_I, 0x0f)
REG8(CTRL_REG1, 0x20)
    FIELD(CTRL_REG1, XYZEN, 0, 3)
    FIELD(CTRL_REG1, DR, 3, 2)
    FIELD(CTRL_REG1, PM, 5, 3)
REG8(CTRL_REG2, 0x21)
    FIELD(CTRL_REG2, FDS, 4, 1)
    FIELD(CTRL_REG2, BOOT, 7, 1)
REG8(CTRL_REG3, 0x22)
REG8(CTRL_REG4, 0x23)
    FIELD(CTRL_REG4, ST, 1, 1)
    FIELD(CTRL_REG4, STSIGN, 3, 1)
    FIELD(CTRL_REG4, FS, 4, 2)
    FIELD(CTRL_REG4, BLE, 6, 1)
    FIELD(CTRL_REG4, BDU, 7, 1)
REG8(CTRL_REG5, 0x24)
REG8(HP_FILTER_RESET, 0x25)
REG8(REFERENCE, 0x26)
REG8(STATUS_REG, 0x27)
    FIELD(STATUS_REG, XYZDA, 0, 3)
    FIELD(STATUS_REG, ZYXDA, 3, 1)
    FIELD(STATUS_REG, XYZOR, 4, 3)
    FIELD(STATUS_REG, ZYXOR, 7, 1)
REG8(OUT_X_L, 0x28)
REG8(OUT_Z_H, 0x2d)
REG8(INT1_CFG, 0x30)
REG8(INT1_SOURCE, 0x31)
REG8(INT1_THS, 0x32)
REG8(INT1_DURATION, 0x33)
REG8(INT2_CFG, 0x34)
REG8(INT2_SOURCE, 0x35)
REG8(INT2_THS, 0x36)
REG8(INT2_DURATION, 0x37)

#define LIS331DLH_WHO_AM_I      0x32
/* The sub-address's auto-increment bit */
#define SUB_AUTO_INCREMENT      0x80
/* CTRL_REG1 at reset: powered down, all three axes on */
#define CTRL_REG1_RESET         0x07
/* LIS331DLHState.held: the output byte that keeps its sample for a read */
#define OUT_HELD_LSB            1
#define OUT_HELD_MSB            2

/* The writable bits of each read/write register; 0: not writable */
static const uint8_t lis331dlh_write_mask[LIS331DLH_NUM_REGS] = {
    [A_CTRL_REG1] = 0xff, [A_CTRL_REG2] = 0xff, [A_CTRL_REG3] = 0xff,
    [A_CTRL_REG4] = 0xfb, [A_CTRL_REG5] = 0x03, [A_REFERENCE] = 0xff,
    [A_INT1_CFG] = 0xff, [A_INT1_THS] = 0x7f, [A_INT1_DURATION] = 0x7f,
    [A_INT2_CFG] = 0xff, [A_INT2_THS] = 0x7f, [A_INT2_DURATION] = 0x7f,
};

/* Self-test output change at +-2 g, typical (table 3), in mg */
static const int32_t lis331dlh_self_test_mg[3] = { 300, 300, 350 };

/* mg a digit, times 10, for CTRL_REG4.FS 0-3 (FS = 10 is not allowed) */
static const int32_t lis331dlh_sensitivity_x10[4] = { 10, 20, 20, 39 };

/*
 * Output data rates in mHz: normal mode by DR, low-power modes by PM
 * (0.5-10 Hz; the datasheet defines no PM = 111: no data then)
 */
static const uint32_t lis331dlh_normal_mhz[4] = {
    50000, 100000, 400000, 1000000,
};
static const uint32_t lis331dlh_low_power_mhz[8] = {
    0, 0, 500, 1000, 2000, 5000, 10000,
};

static const char *const lis331dlh_axis_names[3] = { "x-mg", "y-mg", "z-mg" };

static bool lis331dlh_powered(LIS331DLHState *s)
{
    return FIELD_EX8(s->regs[A_CTRL_REG1], CTRL_REG1, PM) != 0;
}

static bool lis331dlh_axis_on(LIS331DLHState *s, int axis)
{
    return lis331dlh_powered(s) &&
           (FIELD_EX8(s->regs[A_CTRL_REG1], CTRL_REG1, XYZEN) & (1 << axis));
}

/* One output period in ns */
static int64_t lis331dlh_period_ns(LIS331DLHState *s)
{
    uint8_t ctrl1 = s->regs[A_CTRL_REG1];
    uint32_t pm = FIELD_EX8(ctrl1, CTRL_REG1, PM);
    uint32_t mhz = pm == 1 ?
                   lis331dlh_normal_mhz[FIELD_EX8(ctrl1, CTRL_REG1, DR)] :
                   lis331dlh_low_power_mhz[pm];

    return mhz ? NANOSECONDS_PER_SECOND * 1000 / mhz : INT64_MAX;
}

/* What an axis measures now, as the 16-bit output word */
static int16_t lis331dlh_measure(LIS331DLHState *s, int axis)
{
    uint8_t ctrl4 = s->regs[A_CTRL_REG4];
    int64_t mg = s->accel_mg[axis];
    int64_t digits;

    if (FIELD_EX8(ctrl4, CTRL_REG4, ST)) {
        mg += FIELD_EX8(ctrl4, CTRL_REG4, STSIGN) ?
              -lis331dlh_self_test_mg[axis] : lis331dlh_self_test_mg[axis];
    }
    digits = mg * 10 /
             lis331dlh_sensitivity_x10[FIELD_EX8(ctrl4, CTRL_REG4, FS)];
    digits = MIN(MAX(digits, -2048), 2047);
    return digits * 16;
}

static uint8_t lis331dlh_status(LIS331DLHState *s)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    int64_t period = lis331dlh_period_ns(s);
    uint8_t da = 0, overrun = 0, status;

    for (int axis = 0; axis < 3; axis++) {
        if (!lis331dlh_axis_on(s, axis) || period == INT64_MAX) {
            continue;
        }
        if (now - s->sampled_ns[axis] >= period) {
            da |= 1 << axis;
        }
        if (now - s->sampled_ns[axis] >= 2 * period) {
            overrun |= 1 << axis;
        }
    }
    status = FIELD_DP8(0, STATUS_REG, XYZDA, da);
    status = FIELD_DP8(status, STATUS_REG, XYZOR, overrun);
    status = FIELD_DP8(status, STATUS_REG, ZYXDA, da != 0);
    return FIELD_DP8(status, STATUS_REG, ZYXOR, overrun != 0);
}

/*
 * A read of one output byte: @high is the axis's MSB.  With BDU, reading
 * either byte holds the other at the same sample until it is read.
 */
static uint8_t lis331dlh_read_output(LIS331DLHState *s, int axis, bool high)
{
    uint8_t byte;

    if (FIELD_EX8(s->regs[A_CTRL_REG4], CTRL_REG4, BLE)) {
        high = !high;   /* big endian: the MSB at the lower address */
    }
    byte = high ? OUT_HELD_MSB : OUT_HELD_LSB;
    if (s->held[axis] & byte) {
        s->held[axis] = 0;
    } else {
        if (lis331dlh_axis_on(s, axis)) {
            s->out[axis] = lis331dlh_measure(s, axis);
        }
        s->held[axis] = FIELD_EX8(s->regs[A_CTRL_REG4], CTRL_REG4, BDU) ?
                        (OUT_HELD_MSB | OUT_HELD_LSB) & ~byte : 0;
    }
    if (high) {
        /* the axis's data-ready flag clears with its MSB's read */
        s->sampled_ns[axis] = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
        return (uint16_t)s->out[axis] >> 8;
    }
    return s->out[axis] & 0xff;
}

static uint8_t lis331dlh_read(LIS331DLHState *s, uint8_t reg)
{
    uint8_t value;

    switch (reg) {
    case A_WHO_AM_I:
        value = LIS331DLH_WHO_AM_I;
        break;
    case A_STATUS_REG:
        value = lis331dlh_status(s);
        break;
    case A_OUT_X_L ... A_OUT_Z_H:
        value = lis331dlh_read_output(s, (reg - A_OUT_X_L) / 2,
                                      (reg - A_OUT_X_L) & 1);
        break;
    case A_HP_FILTER_RESET:         /* a dummy read that zeroes the filter */
    case A_INT1_SOURCE:
    case A_INT2_SOURCE:
        value = 0;
        break;
    default:
        if (!lis331dlh_write_mask[reg]) {
            qemu_log_mask(LOG_GUEST_ERROR, "lis331dlh: read of reserved "
                          "register 0x%02x\n", reg);
        }
        value = s->regs[reg];
        break;
    }
    trace_lis331dlh_read(reg, value);
    return value;
}

static void lis331dlh_write(LIS331DLHState *s, uint8_t reg, uint8_t value)
{
    bool was_powered = lis331dlh_powered(s);

    trace_lis331dlh_write(reg, value);
    if (!lis331dlh_write_mask[reg]) {
        qemu_log_mask(LOG_GUEST_ERROR, "lis331dlh: write of 0x%02x to %s "
                      "register 0x%02x\n", value,
                      reg == A_WHO_AM_I || reg == A_STATUS_REG ||
                      (reg >= A_OUT_X_L && reg <= A_OUT_Z_H) ?
                      "read-only" : "reserved", reg);
        return;
    }
    s->regs[reg] = value & lis331dlh_write_mask[reg];
    switch (reg) {
    case A_CTRL_REG1:
        if (!was_powered && lis331dlh_powered(s)) {
            /* the first samples come one period after power-up */
            for (int axis = 0; axis < 3; axis++) {
                s->sampled_ns[axis] = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
            }
        }
        break;
    case A_CTRL_REG2:
        if (FIELD_EX8(value, CTRL_REG2, FDS)) {
            qemu_log_mask(LOG_UNIMP, "lis331dlh: high-pass filtered "
                          "outputs (FDS) are not modelled\n");
        }
        /* the trimming values reload at once */
        s->regs[reg] = FIELD_DP8(s->regs[reg], CTRL_REG2, BOOT, 0);
        break;
    case A_CTRL_REG4:
        if (FIELD_EX8(value, CTRL_REG4, FS) == 2) {
            qemu_log_mask(LOG_GUEST_ERROR, "lis331dlh: full scale FS = 10 "
                          "is not allowed\n");
        }
        break;
    }
}

static int lis331dlh_event(I2CSlave *i2c, enum i2c_event event)
{
    LIS331DLHState *s = LIS331DLH(i2c);

    if (event == I2C_START_SEND) {
        s->have_pointer = false;
    }
    return 0;
}

static void lis331dlh_advance(LIS331DLHState *s)
{
    if (s->auto_increment) {
        s->pointer = (s->pointer + 1) % LIS331DLH_NUM_REGS;
    }
}

static uint8_t lis331dlh_recv(I2CSlave *i2c)
{
    LIS331DLHState *s = LIS331DLH(i2c);
    uint8_t value = lis331dlh_read(s, s->pointer);

    lis331dlh_advance(s);
    return value;
}

static int lis331dlh_send(I2CSlave *i2c, uint8_t data)
{
    LIS331DLHState *s = LIS331DLH(i2c);

    if (!s->have_pointer) {
        s->pointer = data & (LIS331DLH_NUM_REGS - 1);
        s->auto_increment = data & SUB_AUTO_INCREMENT;
        s->have_pointer = true;
    } else {
        lis331dlh_write(s, s->pointer, data);
        lis331dlh_advance(s);
    }
    return 0;
}

static int lis331dlh_axis(const char *name)
{
    for (int axis = 0; axis < 3; axis++) {
        if (!strcmp(name, lis331dlh_axis_names[axis])) {
            return axis;
        }
    }
    g_assert_not_reached();
}

static void lis331dlh_get_accel(Object *obj, Visitor *v, const char *name,
                                void *opaque, Error **errp)
{
    LIS331DLHState *s = LIS331DLH(obj);

    visit_type_int32(v, name, &s->accel_mg[lis331dlh_axis(name)], errp);
}

static void lis331dlh_set_accel(Object *obj, Visitor *v, const char *name,
                                void *opaque, Error **errp)
{
    LIS331DLHState *s = LIS331DLH(obj);
    int32_t mg;

    if (!visit_type_int32(v, name, &mg, errp)) {
        return;
    }
    /* the part survives 10000 g (absolute maximum ratings) */
    if (mg < -10000000 || mg > 10000000) {
        error_setg(errp, "%s: %" PRId32 " mg is out of range", name, mg);
        return;
    }
    s->accel_mg[lis331dlh_axis(name)] = mg;
}

static void lis331dlh_reset_enter(Object *obj, ResetType type)
{
    LIS331DLHState *s = LIS331DLH(obj);

    memset(s->regs, 0, sizeof(s->regs));
    s->regs[A_CTRL_REG1] = CTRL_REG1_RESET;
    memset(s->out, 0, sizeof(s->out));
    memset(s->sampled_ns, 0, sizeof(s->sampled_ns));
    memset(s->held, 0, sizeof(s->held));
    s->pointer = 0;
    s->have_pointer = false;
    s->auto_increment = false;
}

static const VMStateDescription vmstate_lis331dlh = {
    .name = TYPE_LIS331DLH,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_I2C_SLAVE(parent_obj, LIS331DLHState),
        VMSTATE_UINT8_ARRAY(regs, LIS331DLHState, LIS331DLH_NUM_REGS),
        VMSTATE_UINT8(pointer, LIS331DLHState),
        VMSTATE_BOOL(have_pointer, LIS331DLHState),
        VMSTATE_BOOL(auto_increment, LIS331DLHState),
        VMSTATE_INT16_ARRAY(out, LIS331DLHState, 3),
        VMSTATE_INT64_ARRAY(sampled_ns, LIS331DLHState, 3),
        VMSTATE_UINT8_ARRAY(held, LIS331DLHState, 3),
        VMSTATE_INT32_ARRAY(accel_mg, LIS331DLHState, 3),
        VMSTATE_END_OF_LIST()
    }
};

static void lis331dlh_init(Object *obj)
{
    LIS331DLHState *s = LIS331DLH(obj);

    /* lying flat: 1 g up the Z axis */
    s->accel_mg[2] = 1000;
    for (int axis = 0; axis < 3; axis++) {
        object_property_add(obj, lis331dlh_axis_names[axis], "int32",
                            lis331dlh_get_accel, lis331dlh_set_accel,
                            NULL, NULL);
    }
}

static void lis331dlh_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    I2CSlaveClass *sc = I2C_SLAVE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->desc = "ST LIS331DLH accelerometer";
    dc->vmsd = &vmstate_lis331dlh;
    rc->phases.enter = lis331dlh_reset_enter;
    sc->event = lis331dlh_event;
    sc->recv = lis331dlh_recv;
    sc->send = lis331dlh_send;
}

static const TypeInfo lis331dlh_info = {
    .name = TYPE_LIS331DLH,
    .parent = TYPE_I2C_SLAVE,
    .instance_size = sizeof(LIS331DLHState),
    .instance_init = lis331dlh_init,
    .class_init = lis331dlh_class_init,
};

static void lis331dlh_register_types(void)
{
    type_register_static(&lis331dlh_info);
}

type_init(lis331dlh_register_types)
