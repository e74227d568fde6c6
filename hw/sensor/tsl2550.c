/*
 * TAOS TSL2550 ambient light sensor
 *
 * The AM335x EVM's light sensor, on I2C1 at 0x39.  An SMBus device driven
 * by command bytes (Send Byte, or the command of a Read Byte):
 *
 * - 0x00 powers the part down, 0x03 powers it up; 0x18 selects the
 *   standard range, 0x1d the extended range (five times shorter
 *   integration, so a fifth of the counts); 0x43 and 0x83 select ADC
 *   channel 0 (visible and infrared) and 1 (infrared only);
 * - a read returns the selected channel's ADC register, or else the last
 *   command (so 0x03 after a power-up, which is how drivers find the
 *   part); any other command is refused and logged;
 * - an ADC register holds VALID (bit 7), the chord C (bits 6-4) and the
 *   step S (bits 3-0) of the count, count = floor(16.5 (2^C - 1)) + S 2^C,
 *   saturating at 4015.  The channels integrate one after the other, 400
 *   ms each in the standard range and 80 ms in the extended one (the
 *   datasheet's integration times), so channel 0 is VALID one integration
 *   after the power-up and channel 1 two after it; powered down, neither
 *   is.
 *
 * The light is the "adc0-count" and "adc1-count" properties: what each
 * channel counts in the standard range (settable at run time).
 *
 * Reference: TSL2550 datasheet (TAOS029), "Command Register", "ADC
 * Register" and "Calculating Lux".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "hw/sensor/tsl2550.h"
#include "qapi/visitor.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "trace.h"

/* Command bytes */
#define CMD_POWER_DOWN          0x00
#define CMD_POWER_UP            0x03
#define CMD_STANDARD_RANGE      0x18
#define CMD_EXTENDED_RANGE      0x1d
#define CMD_READ_ADC0           0x43
#define CMD_READ_ADC1           0x83

FIELD(ADC, STEP, 0, 4)
FIELD(ADC, CHORD, 4, 3)
FIELD(ADC, VALID, 7, 1)

/* The largest count an ADC register can hold: chord 7, step 15 */
#define TSL2550_MAX_COUNT       4015

/* Integration time of one channel (datasheet, operating characteristics) */
#define TSL2550_STANDARD_NS     (400 * SCALE_MS)
#define TSL2550_EXTENDED_NS     (80 * SCALE_MS)
/* The extended range's shorter integration divides the counts by this */
#define TSL2550_EXTENDED_RATIO  5

/* The first count of chord @c: floor(16.5 (2^c - 1)) */
static uint32_t tsl2550_chord_base(int c)
{
    return (33 * ((1u << c) - 1)) / 2;
}

/* A count as the ADC register's chord and step */
static uint8_t tsl2550_encode(uint32_t count)
{
    int c = 7;
    uint32_t step;

    count = MIN(count, TSL2550_MAX_COUNT);
    while (c > 0 && tsl2550_chord_base(c) > count) {
        c--;
    }
    step = MIN((count - tsl2550_chord_base(c)) >> c, 15);
    return FIELD_DP8(FIELD_DP8(0, ADC, CHORD, c), ADC, STEP, step);
}

static uint8_t tsl2550_read_adc(TSL2550State *s, int channel)
{
    int64_t integration = s->extended_range ? TSL2550_EXTENDED_NS :
                          TSL2550_STANDARD_NS;
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    uint32_t count = s->count[channel];
    uint8_t value;

    if (s->extended_range) {
        count /= TSL2550_EXTENDED_RATIO;
    }
    value = tsl2550_encode(count);
    if (s->powered && now - s->power_up_ns >= (channel + 1) * integration) {
        value = FIELD_DP8(value, ADC, VALID, 1);
    }
    return value;
}

static uint8_t tsl2550_recv(I2CSlave *i2c)
{
    TSL2550State *s = TSL2550(i2c);
    uint8_t value;

    switch (s->command) {
    case CMD_READ_ADC0:
        value = tsl2550_read_adc(s, 0);
        break;
    case CMD_READ_ADC1:
        value = tsl2550_read_adc(s, 1);
        break;
    default:
        value = s->command;
        break;
    }
    trace_tsl2550_read(s->command, value);
    return value;
}

static int tsl2550_send(I2CSlave *i2c, uint8_t data)
{
    TSL2550State *s = TSL2550(i2c);

    trace_tsl2550_command(data);
    switch (data) {
    case CMD_POWER_DOWN:
        s->powered = false;
        break;
    case CMD_POWER_UP:
        if (!s->powered) {
            s->powered = true;
            s->power_up_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
        }
        break;
    case CMD_STANDARD_RANGE:
    case CMD_EXTENDED_RANGE:
        s->extended_range = data == CMD_EXTENDED_RANGE;
        break;
    case CMD_READ_ADC0:
    case CMD_READ_ADC1:
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "tsl2550: unknown command 0x%02x\n",
                      data);
        return 0;
    }
    s->command = data;
    return 0;
}

static void tsl2550_reset_enter(Object *obj, ResetType type)
{
    TSL2550State *s = TSL2550(obj);

    /* powered down, standard range (the part's power-on state) */
    s->command = CMD_POWER_DOWN;
    s->powered = false;
    s->extended_range = false;
    s->power_up_ns = 0;
}

static const VMStateDescription vmstate_tsl2550 = {
    .name = TYPE_TSL2550,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_I2C_SLAVE(parent_obj, TSL2550State),
        VMSTATE_UINT8(command, TSL2550State),
        VMSTATE_BOOL(powered, TSL2550State),
        VMSTATE_BOOL(extended_range, TSL2550State),
        VMSTATE_INT64(power_up_ns, TSL2550State),
        VMSTATE_UINT32_ARRAY(count, TSL2550State, 2),
        VMSTATE_END_OF_LIST()
    }
};

static const char *const tsl2550_count_names[2] = {
    "adc0-count", "adc1-count",
};

static void tsl2550_get_count(Object *obj, Visitor *v, const char *name,
                              void *opaque, Error **errp)
{
    TSL2550State *s = TSL2550(obj);

    visit_type_uint32(v, name, &s->count[!!strcmp(name, "adc0-count")],
                      errp);
}

static void tsl2550_set_count(Object *obj, Visitor *v, const char *name,
                              void *opaque, Error **errp)
{
    TSL2550State *s = TSL2550(obj);
    uint32_t count;

    if (visit_type_uint32(v, name, &count, errp)) {
        s->count[!!strcmp(name, "adc0-count")] = count;
    }
}

static void tsl2550_init(Object *obj)
{
    TSL2550State *s = TSL2550(obj);

    /* an office under fluorescent tubes: about 280 lux */
    s->count[0] = 800;
    s->count[1] = 80;
    for (int i = 0; i < 2; i++) {
        object_property_add(obj, tsl2550_count_names[i], "uint32",
                            tsl2550_get_count, tsl2550_set_count, NULL, NULL);
    }
}

static void tsl2550_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    I2CSlaveClass *sc = I2C_SLAVE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->desc = "TAOS TSL2550 ambient light sensor";
    dc->vmsd = &vmstate_tsl2550;
    rc->phases.enter = tsl2550_reset_enter;
    sc->recv = tsl2550_recv;
    sc->send = tsl2550_send;
}

static const TypeInfo tsl2550_info = {
    .name = TYPE_TSL2550,
    .parent = TYPE_I2C_SLAVE,
    .instance_size = sizeof(TSL2550State),
    .instance_init = tsl2550_init,
    .class_init = tsl2550_class_init,
};

static void tsl2550_register_types(void)
{
    type_register_static(&tsl2550_info);
}

type_init(tsl2550_register_types)
