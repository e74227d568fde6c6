/*
 * NXP TDA19988 HDMI transmitter
 *
 * The BeagleBone Black's HDMI framer: it takes the LCDC's parallel RGB and
 * sends it out as HDMI.  Software sees two I2C slaves on one chip:
 *  - the HDMI core (0x70 on the BBB): 8-bit registers in pages of 256,
 *    the page chosen by CURPAGE (0xff, in every page).  Page 0 holds the
 *    version, resets, the video input port and the timing generator, page
 *    2 the PLLs, page 9 the EDID buffer and the DDC master that fills it,
 *    pages 0x10-0x12 the info frames, audio and the transmitter;
 *  - the CEC core (0x34 + the address straps): the module enables, the
 *    hot-plug (HPD) and receiver-sense (RXSENS) levels and their change
 *    interrupts, and the interrupt status of both cores.
 *
 * This model keeps the registers, and models what software observes: the
 * version, the monitor on the connector (QOM property "connected",
 * settable at run time, which raises the HPD interrupt), the DDC master
 * reading the monitor's EDID into page 9 (a block takes its 100 kHz DDC
 * transfer, then INT_FLAGS_2.EDID_BLK_RD), and the INT output (active
 * low) with the interrupt flags (cleared by reading them) and enables.
 * The EDID is QEMU's generated one (properties xres, yres, xmax, ymax,
 * refresh_rate as for other QEMU displays).  The picture itself is the
 * LCDC's console: the transmitter passes it through.
 *
 * Not modelled: HDCP, the CEC bus, audio (the I2S/S/PDIF ports are
 * registers only), the colour space converter and the scaler.
 *
 * References: the tda998x and tda9950 drivers of Linux (register layout),
 * NXP TDA19988 product data sheet, VESA E-DDC.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hw/display/tda19988.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "trace.h"

/* HDMI core, page 0 */
#define REG_VERSION_LSB         0x00
#define REG_MAIN_CNTRL0         0x01
#define REG_VERSION_MSB         0x02
#define REG_INT_FLAGS_0         0x0f
#define REG_INT_FLAGS_2         0x11
#define REG_CURPAGE             0xff
#define INT_FLAGS_2_EDID_BLK_RD 0x02

/* HDMI core, page 9: the EDID buffer and the DDC master */
#define PAGE_EDID               0x09
#define REG_EDID_DATA_0         0x00
#define REG_EDID_CTRL           0xfa
#define REG_DDC_OFFS            0xfc
#define REG_DDC_SEGM            0xfe

/* CEC core */
#define REG_CEC_INTSTATUS       0xee
#define CEC_INTSTATUS_HDMI      0x02
#define REG_CEC_RXSHPDINTENA    0xfc
#define REG_CEC_RXSHPDINT       0xfd
#define REG_CEC_RXSHPDLEV       0xfe
#define REG_CEC_ENAMODS         0xff
#define CEC_RXSHPD_RXSENS       0x01
#define CEC_RXSHPD_HPD          0x02
#define CEC_ENAMODS_EN_HDMI     0x02

/*
 * Version 0x0301 is the TDA19988; bits 4-5 of the low byte flag the
 * absence of HDCP and of the scaler, features this model lacks.
 */
#define TDA19988_VERSION_LSB    0x31
#define TDA19988_VERSION_MSB    0x03

/*
 * A DDC block read at the 100 kHz of VESA E-DDC standard mode: the
 * segment pointer (2 bytes), the offset (2), the read address (1) and 128
 * data bytes, 9 bit times each.
 */
#define DDC_BIT_NS              10000
#define DDC_BLOCK_BITS          ((2 + 2 + 1 + TDA19988_EDID_BLOCK) * 9)

static uint8_t tda19988_cec_intstatus(TDA19988State *s)
{
    bool hdmi = s->hpd_int & s->hpd_int_enable;

    for (int i = 0; i < ARRAY_SIZE(s->int_flags); i++) {
        hdmi |= s->int_flags[i] & s->int_enable[i];
    }
    return hdmi ? CEC_INTSTATUS_HDMI : 0;
}

static void tda19988_update_irq(TDA19988State *s)
{
    bool pending = tda19988_cec_intstatus(s);

    trace_tda19988_irq(pending);
    qemu_set_irq(s->int_out, !pending);
}

static uint8_t tda19988_hpd_level(TDA19988State *s)
{
    return s->connected ? CEC_RXSHPD_HPD | CEC_RXSHPD_RXSENS : 0;
}

/* The DDC master has read the block: it is in page 9, the flag goes up */
static void tda19988_ddc_done(void *opaque)
{
    TDA19988State *s = TDA19988(opaque);

    s->int_flags[2] |= INT_FLAGS_2_EDID_BLK_RD;
    tda19988_update_irq(s);
}

/* EDID_CTRL bit 0: read the block at DDC_SEGM/DDC_OFFS into page 9 */
static void tda19988_ddc_read(TDA19988State *s)
{
    unsigned start = s->regs[PAGE_EDID][REG_DDC_SEGM] * 256 +
                     s->regs[PAGE_EDID][REG_DDC_OFFS];

    for (unsigned i = 0; i < TDA19988_EDID_BLOCK; i++) {
        unsigned a = start + i;

        /* Without a monitor nothing drives the DDC data line: all ones */
        s->edid_block[i] = s->connected && a < TDA19988_EDID_SIZE ?
                           s->edid[a] : 0xff;
    }
    trace_tda19988_ddc_read(start, s->connected);
    timer_mod(&s->ddc_timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
              (int64_t)DDC_BLOCK_BITS * DDC_BIT_NS);
}

static uint8_t tda19988_read_reg(TDA19988State *s, uint8_t reg)
{
    uint8_t v;

    if (reg == REG_CURPAGE) {
        return s->page;
    }
    if (s->page >= TDA19988_NUM_PAGES) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: read of missing page 0x%02x\n",
                      __func__, s->page);
        return 0;
    }
    if (s->page == 0) {
        switch (reg) {
        case REG_VERSION_LSB:
            return TDA19988_VERSION_LSB;
        case REG_VERSION_MSB:
            return TDA19988_VERSION_MSB;
        case REG_INT_FLAGS_0 ... REG_INT_FLAGS_2:
            /* Reading the flags clears them */
            v = s->int_flags[reg - REG_INT_FLAGS_0];
            s->int_flags[reg - REG_INT_FLAGS_0] = 0;
            tda19988_update_irq(s);
            return v;
        }
    }
    if (s->page == PAGE_EDID && reg < TDA19988_EDID_BLOCK) {
        return s->edid_block[reg];
    }
    return s->regs[s->page][reg];
}

static void tda19988_write_reg(TDA19988State *s, uint8_t reg, uint8_t v)
{
    if (reg == REG_CURPAGE) {
        s->page = v;
        return;
    }
    if (s->page >= TDA19988_NUM_PAGES) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: write to missing page 0x%02x\n",
                      __func__, s->page);
        return;
    }
    if (s->page == 0) {
        switch (reg) {
        case REG_VERSION_LSB:
        case REG_VERSION_MSB:
            qemu_log_mask(LOG_GUEST_ERROR, "%s: version is read-only\n",
                          __func__);
            return;
        case REG_INT_FLAGS_0 ... REG_INT_FLAGS_2:
            /* Writes set which flags interrupt */
            s->int_enable[reg - REG_INT_FLAGS_0] = v;
            tda19988_update_irq(s);
            return;
        }
    }
    if (s->page == PAGE_EDID && reg < TDA19988_EDID_BLOCK) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: the EDID buffer is read-only\n",
                      __func__);
        return;
    }
    if (s->page == PAGE_EDID && reg == REG_EDID_CTRL &&
        (v & 1) && !(s->regs[PAGE_EDID][REG_EDID_CTRL] & 1)) {
        tda19988_ddc_read(s);
    }
    s->regs[s->page][reg] = v;
}

/* The first byte of a write sets the register pointer; it auto-increments */
static int tda19988_event(I2CSlave *i2c, enum i2c_event event)
{
    TDA19988State *s = TDA19988(i2c);

    if (event == I2C_START_SEND) {
        s->pointer_set = false;
    }
    return 0;
}

static uint8_t tda19988_recv(I2CSlave *i2c)
{
    TDA19988State *s = TDA19988(i2c);
    uint8_t v = tda19988_read_reg(s, s->pointer);

    trace_tda19988_read(s->page, s->pointer, v);
    s->pointer++;
    return v;
}

static int tda19988_send(I2CSlave *i2c, uint8_t data)
{
    TDA19988State *s = TDA19988(i2c);

    if (!s->pointer_set) {
        s->pointer = data;
        s->pointer_set = true;
        return 0;
    }
    trace_tda19988_write(s->page, s->pointer, data);
    tda19988_write_reg(s, s->pointer, data);
    s->pointer++;
    return 0;
}

/* The CEC core */

static uint8_t tda19988_cec_read_reg(TDA19988CecState *c, uint8_t reg)
{
    TDA19988State *s = c->hdmi;
    uint8_t v;

    switch (reg) {
    case REG_CEC_INTSTATUS:
        return tda19988_cec_intstatus(s);
    case REG_CEC_RXSHPDINTENA:
        return s->hpd_int_enable;
    case REG_CEC_RXSHPDINT:
        /* Reading the changes clears them */
        v = s->hpd_int;
        s->hpd_int = 0;
        tda19988_update_irq(s);
        return v;
    case REG_CEC_RXSHPDLEV:
        return tda19988_hpd_level(s);
    default:
        return c->regs[reg];
    }
}

static void tda19988_cec_write_reg(TDA19988CecState *c, uint8_t reg,
                                   uint8_t v)
{
    TDA19988State *s = c->hdmi;

    switch (reg) {
    case REG_CEC_INTSTATUS:
    case REG_CEC_RXSHPDINT:
    case REG_CEC_RXSHPDLEV:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: CEC register 0x%02x is "
                      "read-only\n", __func__, reg);
        break;
    case REG_CEC_RXSHPDINTENA:
        s->hpd_int_enable = v & (CEC_RXSHPD_HPD | CEC_RXSHPD_RXSENS);
        tda19988_update_irq(s);
        break;
    default:
        c->regs[reg] = v;
        break;
    }
}

static int tda19988_cec_event(I2CSlave *i2c, enum i2c_event event)
{
    TDA19988CecState *c = TDA19988_CEC(i2c);

    if (event == I2C_START_SEND) {
        c->pointer_set = false;
    }
    return 0;
}

static uint8_t tda19988_cec_recv(I2CSlave *i2c)
{
    TDA19988CecState *c = TDA19988_CEC(i2c);
    uint8_t v = tda19988_cec_read_reg(c, c->pointer);

    trace_tda19988_cec_read(c->pointer, v);
    c->pointer++;
    return v;
}

static int tda19988_cec_send(I2CSlave *i2c, uint8_t data)
{
    TDA19988CecState *c = TDA19988_CEC(i2c);

    if (!c->pointer_set) {
        c->pointer = data;
        c->pointer_set = true;
        return 0;
    }
    trace_tda19988_cec_write(c->pointer, data);
    tda19988_cec_write_reg(c, c->pointer, data);
    c->pointer++;
    return 0;
}

/* "connected": a monitor plugged in or pulled out changes HPD and RXSENS */
static void tda19988_get_connected(Object *obj, Visitor *v, const char *name,
                                   void *opaque, Error **errp)
{
    TDA19988State *s = TDA19988(obj);

    visit_type_bool(v, name, &s->connected, errp);
}

static void tda19988_set_connected(Object *obj, Visitor *v, const char *name,
                                   void *opaque, Error **errp)
{
    TDA19988State *s = TDA19988(obj);
    bool connected;

    if (!visit_type_bool(v, name, &connected, errp)) {
        return;
    }
    if (connected != s->connected) {
        s->connected = connected;
        s->hpd_int |= CEC_RXSHPD_HPD | CEC_RXSHPD_RXSENS;
        trace_tda19988_hotplug(connected);
        tda19988_update_irq(s);
    }
}

static void tda19988_reset_enter(Object *obj, ResetType type)
{
    TDA19988State *s = TDA19988(obj);

    timer_del(&s->ddc_timer);
    memset(s->regs, 0, sizeof(s->regs));
    memset(s->int_flags, 0, sizeof(s->int_flags));
    memset(s->int_enable, 0, sizeof(s->int_enable));
    memset(s->edid_block, 0, sizeof(s->edid_block));
    s->page = 0;
    s->pointer = 0;
    s->pointer_set = false;
    s->hpd_int = 0;
    s->hpd_int_enable = 0;
}

static void tda19988_reset_hold(Object *obj, ResetType type)
{
    tda19988_update_irq(TDA19988(obj));
}

static void tda19988_realize(DeviceState *dev, Error **errp)
{
    TDA19988State *s = TDA19988(dev);

    s->edid_info.vendor = "NXP";
    s->edid_info.name = "QEMU HDMI";
    qemu_edid_generate(s->edid, sizeof(s->edid), &s->edid_info);
}

static void tda19988_init(Object *obj)
{
    TDA19988State *s = TDA19988(obj);

    timer_init_ns(&s->ddc_timer, QEMU_CLOCK_VIRTUAL, tda19988_ddc_done, s);
    qdev_init_gpio_out_named(DEVICE(obj), &s->int_out, TDA19988_INT, 1);
    s->connected = true;
    object_property_add(obj, "connected", "bool", tda19988_get_connected,
                        tda19988_set_connected, NULL, NULL);
}

static const VMStateDescription vmstate_tda19988 = {
    .name = TYPE_TDA19988,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_I2C_SLAVE(parent_obj, TDA19988State),
        VMSTATE_TIMER(ddc_timer, TDA19988State),
        VMSTATE_UINT8_2DARRAY(regs, TDA19988State, TDA19988_NUM_PAGES, 256),
        VMSTATE_UINT8(page, TDA19988State),
        VMSTATE_UINT8(pointer, TDA19988State),
        VMSTATE_BOOL(pointer_set, TDA19988State),
        VMSTATE_UINT8_ARRAY(int_flags, TDA19988State, 3),
        VMSTATE_UINT8_ARRAY(int_enable, TDA19988State, 3),
        VMSTATE_UINT8_ARRAY(edid_block, TDA19988State, TDA19988_EDID_BLOCK),
        VMSTATE_UINT8(hpd_int, TDA19988State),
        VMSTATE_UINT8(hpd_int_enable, TDA19988State),
        VMSTATE_BOOL(connected, TDA19988State),
        VMSTATE_END_OF_LIST()
    }
};

static const Property tda19988_properties[] = {
    DEFINE_EDID_PROPERTIES(TDA19988State, edid_info),
};

static void tda19988_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    I2CSlaveClass *sc = I2C_SLAVE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->realize = tda19988_realize;
    dc->vmsd = &vmstate_tda19988;
    dc->desc = "NXP TDA19988 HDMI transmitter";
    device_class_set_props(dc, tda19988_properties);
    rc->phases.enter = tda19988_reset_enter;
    rc->phases.hold = tda19988_reset_hold;
    sc->event = tda19988_event;
    sc->recv = tda19988_recv;
    sc->send = tda19988_send;
}

static void tda19988_cec_reset_enter(Object *obj, ResetType type)
{
    TDA19988CecState *c = TDA19988_CEC(obj);

    memset(c->regs, 0, sizeof(c->regs));
    c->pointer = 0;
    c->pointer_set = false;
}

static void tda19988_cec_realize(DeviceState *dev, Error **errp)
{
    TDA19988CecState *c = TDA19988_CEC(dev);

    if (!c->hdmi) {
        error_setg(errp, "%s: link 'hdmi' is not set", TYPE_TDA19988_CEC);
    }
}

static const VMStateDescription vmstate_tda19988_cec = {
    .name = TYPE_TDA19988_CEC,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_I2C_SLAVE(parent_obj, TDA19988CecState),
        VMSTATE_UINT8_ARRAY(regs, TDA19988CecState, 256),
        VMSTATE_UINT8(pointer, TDA19988CecState),
        VMSTATE_BOOL(pointer_set, TDA19988CecState),
        VMSTATE_END_OF_LIST()
    }
};

static const Property tda19988_cec_properties[] = {
    DEFINE_PROP_LINK("hdmi", TDA19988CecState, hdmi, TYPE_TDA19988,
                     TDA19988State *),
};

static void tda19988_cec_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    I2CSlaveClass *sc = I2C_SLAVE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->realize = tda19988_cec_realize;
    dc->vmsd = &vmstate_tda19988_cec;
    dc->desc = "NXP TDA19988 HDMI transmitter, CEC core";
    device_class_set_props(dc, tda19988_cec_properties);
    rc->phases.enter = tda19988_cec_reset_enter;
    sc->event = tda19988_cec_event;
    sc->recv = tda19988_cec_recv;
    sc->send = tda19988_cec_send;
}

TDA19988State *tda19988_create(Object *parent, const char *name,
                               I2CBus *bus, uint8_t addr)
{
    I2CSlave *hdmi = i2c_slave_new(TYPE_TDA19988, addr);
    I2CSlave *cec = i2c_slave_new(TYPE_TDA19988_CEC, 0x34 + (addr & 3));

    object_property_add_child(parent, name, OBJECT(hdmi));
    i2c_slave_realize_and_unref(hdmi, bus, &error_fatal);
    object_property_set_link(OBJECT(cec), "hdmi", OBJECT(hdmi),
                             &error_abort);
    object_property_add_child(OBJECT(hdmi), "cec", OBJECT(cec));
    i2c_slave_realize_and_unref(cec, bus, &error_fatal);
    return TDA19988(hdmi);
}

static const TypeInfo tda19988_types[] = {
    {
        .name = TYPE_TDA19988,
        .parent = TYPE_I2C_SLAVE,
        .instance_size = sizeof(TDA19988State),
        .instance_init = tda19988_init,
        .class_init = tda19988_class_init,
    }, {
        .name = TYPE_TDA19988_CEC,
        .parent = TYPE_I2C_SLAVE,
        .instance_size = sizeof(TDA19988CecState),
        .class_init = tda19988_cec_class_init,
    },
};

DEFINE_TYPES(tda19988_types)
