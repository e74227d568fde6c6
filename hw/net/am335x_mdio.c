/*
 * TI AM335x CPSW MDIO controller (davinci MDIO)
 *
 * The management interface to the Ethernet PHYs.  A USERACCESSn write with
 * GO set runs one clause 22 frame to the PHY at PHYADR; here it completes
 * at once, GO clears and ACK tells whether a PHY answered.  The state
 * machine's polling of every PHY address is what ALIVE and LINK report; it
 * is redone on each access and on a PHY's link change, which latches
 * LINKINTRAW for the PHYs USERPHYSELn monitor.
 *
 * Not modelled: MDIO clock timing (CLKDIV), preamble suppression, fault
 * detection, the manual (bit-banged) interface.
 *
 * Reference: AM335x TRM (SPRUH73), section 14.3.9 and 14.5.10.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qapi/error.h"
#include "hw/net/am335x_mdio.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "trace.h"

REG32(VERSION, 0x00)
REG32(CONTROL, 0x04)
    FIELD(CONTROL, CLKDIV, 0, 16)
    FIELD(CONTROL, FAULTENB, 18, 1)
    FIELD(CONTROL, FAULT, 19, 1)
    FIELD(CONTROL, PREAMBLE, 20, 1)
    FIELD(CONTROL, HIGHEST_USER_CHANNEL, 24, 5)
    FIELD(CONTROL, ENABLE, 30, 1)
    FIELD(CONTROL, IDLE, 31, 1)
REG32(ALIVE, 0x08)
REG32(LINK, 0x0c)
REG32(LINKINTRAW, 0x10)
REG32(LINKINTMASKED, 0x14)
REG32(USERINTRAW, 0x20)
REG32(USERINTMASKED, 0x24)
REG32(USERINTMASKSET, 0x28)
REG32(USERINTMASKCLEAR, 0x2c)
REG32(USERACCESS0, 0x80)
    FIELD(USERACCESS, DATA, 0, 16)
    FIELD(USERACCESS, PHYADR, 16, 5)
    FIELD(USERACCESS, REGADR, 21, 5)
    FIELD(USERACCESS, ACK, 29, 1)
    FIELD(USERACCESS, WRITE, 30, 1)
    FIELD(USERACCESS, GO, 31, 1)
REG32(USERPHYSEL0, 0x84)
    FIELD(USERPHYSEL, PHYADDRMON, 0, 5)
    FIELD(USERPHYSEL, LINKINTENB, 6, 1)
    FIELD(USERPHYSEL, LINKSEL, 7, 1)
REG32(USERACCESS1, 0x88)
REG32(USERPHYSEL1, 0x8c)

/* "davinci mdio revision 1.6" on a BeagleBone Black */
#define AM335X_MDIO_VERSION     0x00070106
#define CONTROL_RESET           (0x1f << R_CONTROL_HIGHEST_USER_CHANNEL_SHIFT \
                                 | 0xff)

static AM335xEthPhyState *am335x_mdio_phy(AM335xMdioState *s, unsigned addr)
{
    for (int i = 0; i < AM335X_MDIO_NUM_PHYS; i++) {
        if (s->phy[i] && s->phy[i]->addr == addr) {
            return s->phy[i];
        }
    }
    return NULL;
}

static uint32_t am335x_mdio_alive(AM335xMdioState *s)
{
    uint32_t alive = 0;

    if (!FIELD_EX32(s->control, CONTROL, ENABLE)) {
        return 0;
    }
    for (int i = 0; i < AM335X_MDIO_NUM_PHYS; i++) {
        if (s->phy[i]) {
            alive |= 1u << (s->phy[i]->addr & 31);
        }
    }
    return alive;
}

static void am335x_mdio_update_irq(AM335xMdioState *s)
{
    uint32_t linkint = 0;

    for (int n = 0; n < 2; n++) {
        if (FIELD_EX32(s->userphysel[n], USERPHYSEL, LINKINTENB)) {
            linkint |= s->linkint_raw & (1u << n);
        }
    }
    qemu_set_irq(s->irq[AM335X_MDIO_IRQ_LINK], linkint != 0);
    qemu_set_irq(s->irq[AM335X_MDIO_IRQ_USER],
                 (s->userint_raw & s->userint_mask) != 0);
}

void am335x_mdio_poll(AM335xMdioState *s)
{
    uint32_t link = 0;

    if (FIELD_EX32(s->control, CONTROL, ENABLE)) {
        for (int i = 0; i < AM335X_MDIO_NUM_PHYS; i++) {
            if (s->phy[i] && am335x_ethphy_link_ok(s->phy[i])) {
                link |= 1u << (s->phy[i]->addr & 31);
            }
        }
    }
    /* A change on a monitored PHY latches that USERPHYSELn's LINKINT. */
    for (int n = 0; n < 2; n++) {
        uint32_t bit = 1u << FIELD_EX32(s->userphysel[n], USERPHYSEL,
                                        PHYADDRMON);
        if ((link ^ s->link) & bit) {
            s->linkint_raw |= 1u << n;
        }
    }
    s->link = link;
    am335x_mdio_update_irq(s);
}

static void am335x_mdio_go(AM335xMdioState *s, int n)
{
    uint32_t v = s->useraccess[n];
    unsigned phyadr = FIELD_EX32(v, USERACCESS, PHYADR);
    unsigned regadr = FIELD_EX32(v, USERACCESS, REGADR);
    AM335xEthPhyState *phy = am335x_mdio_phy(s, phyadr);

    v = FIELD_DP32(v, USERACCESS, GO, 0);
    v = FIELD_DP32(v, USERACCESS, ACK, 0);
    if (!FIELD_EX32(s->control, CONTROL, ENABLE)) {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-mdio: GO while disabled\n");
    } else if (FIELD_EX32(v, USERACCESS, WRITE)) {
        if (phy) {
            am335x_ethphy_write(phy, regadr,
                                FIELD_EX32(v, USERACCESS, DATA));
        }
    } else {
        v = FIELD_DP32(v, USERACCESS, DATA, 0xffff);
        if (phy) {
            v = FIELD_DP32(v, USERACCESS, DATA,
                           am335x_ethphy_read(phy, regadr));
            v = FIELD_DP32(v, USERACCESS, ACK, 1);
        }
    }
    trace_am335x_mdio_access(n, phyadr, regadr,
                             FIELD_EX32(v, USERACCESS, WRITE),
                             FIELD_EX32(v, USERACCESS, DATA), phy != NULL);
    s->useraccess[n] = v;
    s->userint_raw |= 1u << n;
    am335x_mdio_poll(s);
}

static uint64_t am335x_mdio_read(void *opaque, hwaddr offset, unsigned size)
{
    AM335xMdioState *s = opaque;
    uint32_t val = 0;

    switch (offset) {
    case A_VERSION:
        val = AM335X_MDIO_VERSION;
        break;
    case A_CONTROL:
        /* The state machine is idle between (instant) frames. */
        val = s->control | R_CONTROL_IDLE_MASK;
        break;
    case A_ALIVE:
        val = am335x_mdio_alive(s);
        break;
    case A_LINK:
        am335x_mdio_poll(s);
        val = s->link;
        break;
    case A_LINKINTRAW:
        val = s->linkint_raw;
        break;
    case A_LINKINTMASKED:
        for (int n = 0; n < 2; n++) {
            if (FIELD_EX32(s->userphysel[n], USERPHYSEL, LINKINTENB)) {
                val |= s->linkint_raw & (1u << n);
            }
        }
        break;
    case A_USERINTRAW:
        val = s->userint_raw;
        break;
    case A_USERINTMASKED:
        val = s->userint_raw & s->userint_mask;
        break;
    case A_USERINTMASKSET:
    case A_USERINTMASKCLEAR:
        val = s->userint_mask;
        break;
    case A_USERACCESS0:
    case A_USERACCESS1:
        val = s->useraccess[(offset - A_USERACCESS0) / 8];
        break;
    case A_USERPHYSEL0:
    case A_USERPHYSEL1:
        val = s->userphysel[(offset - A_USERPHYSEL0) / 8];
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-mdio: bad read offset 0x%"
                      HWADDR_PRIx "\n", offset);
        break;
    }
    trace_am335x_mdio_reg_read(offset, val);
    return val;
}

static void am335x_mdio_write(void *opaque, hwaddr offset, uint64_t value,
                              unsigned size)
{
    AM335xMdioState *s = opaque;
    uint32_t v = value;
    int n;

    trace_am335x_mdio_reg_write(offset, v);
    switch (offset) {
    case A_CONTROL:
        s->control = v & (R_CONTROL_CLKDIV_MASK | R_CONTROL_FAULTENB_MASK |
                          R_CONTROL_PREAMBLE_MASK | R_CONTROL_ENABLE_MASK);
        s->control |= 0x1f << R_CONTROL_HIGHEST_USER_CHANNEL_SHIFT;
        am335x_mdio_poll(s);
        break;
    case A_LINKINTRAW:
        s->linkint_raw &= ~(v & 3);
        am335x_mdio_update_irq(s);
        break;
    case A_LINKINTMASKED:
        s->linkint_raw &= ~(v & 3);
        am335x_mdio_update_irq(s);
        break;
    case A_USERINTRAW:
    case A_USERINTMASKED:
        s->userint_raw &= ~(v & 3);
        am335x_mdio_update_irq(s);
        break;
    case A_USERINTMASKSET:
        s->userint_mask |= v & 3;
        am335x_mdio_update_irq(s);
        break;
    case A_USERINTMASKCLEAR:
        s->userint_mask &= ~(v & 3);
        am335x_mdio_update_irq(s);
        break;
    case A_USERACCESS0:
    case A_USERACCESS1:
        n = (offset - A_USERACCESS0) / 8;
        /* Writes are ignored while a frame is in flight (never, here). */
        s->useraccess[n] = v & ~R_USERACCESS_ACK_MASK;
        if (v & R_USERACCESS_GO_MASK) {
            am335x_mdio_go(s, n);
        }
        break;
    case A_USERPHYSEL0:
    case A_USERPHYSEL1:
        n = (offset - A_USERPHYSEL0) / 8;
        s->userphysel[n] = v & (R_USERPHYSEL_PHYADDRMON_MASK |
                                R_USERPHYSEL_LINKINTENB_MASK |
                                R_USERPHYSEL_LINKSEL_MASK);
        am335x_mdio_update_irq(s);
        break;
    case A_VERSION:
    case A_ALIVE:
    case A_LINK:
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-mdio: bad write offset 0x%"
                      HWADDR_PRIx "\n", offset);
        break;
    }
}

static const MemoryRegionOps am335x_mdio_ops = {
    .read = am335x_mdio_read,
    .write = am335x_mdio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

static void am335x_mdio_reset_hold(Object *obj, ResetType type)
{
    AM335xMdioState *s = AM335X_MDIO(obj);

    s->control = CONTROL_RESET;
    s->link = 0;
    s->linkint_raw = 0;
    s->userint_raw = 0;
    s->userint_mask = 0;
    memset(s->useraccess, 0, sizeof(s->useraccess));
    memset(s->userphysel, 0, sizeof(s->userphysel));
}

static void am335x_mdio_reset_exit(Object *obj, ResetType type)
{
    am335x_mdio_update_irq(AM335X_MDIO(obj));
}

static void am335x_mdio_init(Object *obj)
{
    AM335xMdioState *s = AM335X_MDIO(obj);

    memory_region_init_io(&s->iomem, obj, &am335x_mdio_ops, s,
                          TYPE_AM335X_MDIO, AM335X_MDIO_MMIO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(obj), &s->iomem);
    sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq[AM335X_MDIO_IRQ_LINK]);
    sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq[AM335X_MDIO_IRQ_USER]);
}

static const VMStateDescription vmstate_am335x_mdio = {
    .name = TYPE_AM335X_MDIO,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(control, AM335xMdioState),
        VMSTATE_UINT32(link, AM335xMdioState),
        VMSTATE_UINT32(linkint_raw, AM335xMdioState),
        VMSTATE_UINT32(userint_raw, AM335xMdioState),
        VMSTATE_UINT32(userint_mask, AM335xMdioState),
        VMSTATE_UINT32_ARRAY(useraccess, AM335xMdioState, 2),
        VMSTATE_UINT32_ARRAY(userphysel, AM335xMdioState, 2),
        VMSTATE_END_OF_LIST()
    }
};

static const Property am335x_mdio_properties[] = {
    DEFINE_PROP_LINK("phy0", AM335xMdioState, phy[0], TYPE_AM335X_ETHPHY,
                     AM335xEthPhyState *),
    DEFINE_PROP_LINK("phy1", AM335xMdioState, phy[1], TYPE_AM335X_ETHPHY,
                     AM335xEthPhyState *),
};

static void am335x_mdio_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->vmsd = &vmstate_am335x_mdio;
    dc->desc = "TI AM335x CPSW MDIO controller";
    dc->user_creatable = false;
    rc->phases.hold = am335x_mdio_reset_hold;
    rc->phases.exit = am335x_mdio_reset_exit;
    device_class_set_props(dc, am335x_mdio_properties);
}

static const TypeInfo am335x_mdio_info = {
    .name = TYPE_AM335X_MDIO,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AM335xMdioState),
    .instance_init = am335x_mdio_init,
    .class_init = am335x_mdio_class_init,
};

static void am335x_mdio_register_types(void)
{
    type_register_static(&am335x_mdio_info);
}

type_init(am335x_mdio_register_types)
