/*
 * TI AM335x boards: the Ethernet PHY on the CPSW's MDIO bus
 *
 * A clause 22 10/100(/1000) PHY whose wire is a QEMU netdev: BMSR's link
 * status follows the netdev's link, and autonegotiation completes at once
 * against a link partner that offers everything, so the result is the
 * best mode both advertise.  The identifier is a property: the BeagleBone
 * Black's SMSC LAN8710A (10/100) or the AM335x EVM's Atheros AR8031
 * (10/100/1000, with its PHY-specific status register, which at803x reads
 * for the resolved speed).  Vendor registers otherwise keep what is
 * written; the LAN8710A's mode control/status reads back ENERGYON.
 *
 * Not modelled: loopback, isolate, power down, next pages, cable tests,
 * the vendors' interrupt sources (Linux polls both PHYs on these boards).
 *
 * References: IEEE 802.3 clause 22; SMSC LAN8710A/LAN8720A datasheet,
 * section 4; Atheros AR8031 datasheet, section 10.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "hw/net/am335x_ethphy.h"
#include "hw/net/mii.h"
#include "hw/qdev-properties.h"
#include "hw/resettable.h"
#include "migration/vmstate.h"
#include "trace.h"

/* LAN8710A mode control/status (17): ENERGYON, bit 1 */
#define LAN8710_MCSR            17
#define LAN8710_MCSR_ENERGYON   (1 << 1)
/* AR8031 PHY-specific status (17) */
#define AR8031_SSR              17
#define AR8031_SSR_SPEED_1000   (2 << 14)
#define AR8031_SSR_SPEED_100    (1 << 14)
#define AR8031_SSR_DUPLEX       (1 << 13)
#define AR8031_SSR_RESOLVED     (1 << 11)
#define AR8031_SSR_LINK         (1 << 10)

#define ANAR_ABILITIES  (MII_ANAR_TXFD | MII_ANAR_TX | MII_ANAR_10FD | \
                         MII_ANAR_10 | MII_ANAR_CSMACD)

static bool am335x_ethphy_is_ar8031(AM335xEthPhyState *s)
{
    return (s->phy_id & 0xfffffff0) == (AM335X_ETHPHY_ID_AR8031 & 0xfffffff0);
}

static bool am335x_ethphy_is_lan8710(AM335xEthPhyState *s)
{
    return (s->phy_id & 0xfffffff0) ==
           (AM335X_ETHPHY_ID_LAN8710A & 0xfffffff0);
}

bool am335x_ethphy_link_ok(AM335xEthPhyState *s)
{
    return s->link_up && s->an_done && !(s->bmcr & MII_BMCR_PDOWN);
}

static void am335x_ethphy_autoneg(AM335xEthPhyState *s)
{
    s->an_done = s->link_up;
}

/* The speed and duplex resolved: with autonegotiation, the best common. */
static void am335x_ethphy_resolved(AM335xEthPhyState *s, int *speed,
                                   bool *fd)
{
    if (!(s->bmcr & MII_BMCR_AUTOEN)) {
        *speed = (s->bmcr & MII_BMCR_SPEED1000) ? 1000 :
                 (s->bmcr & MII_BMCR_SPEED100) ? 100 : 10;
        *fd = s->bmcr & MII_BMCR_FD;
    } else if (s->gigabit && (s->ctrl1000 & MII_CTRL1000_FULL)) {
        *speed = 1000;
        *fd = true;
    } else if (s->anar & (MII_ANAR_TXFD | MII_ANAR_TX)) {
        *speed = 100;
        *fd = s->anar & MII_ANAR_TXFD;
    } else {
        *speed = 10;
        *fd = s->anar & MII_ANAR_10FD;
    }
}

int am335x_ethphy_speed(AM335xEthPhyState *s)
{
    int speed;
    bool fd;

    if (!am335x_ethphy_link_ok(s)) {
        return 0;
    }
    am335x_ethphy_resolved(s, &speed, &fd);
    return speed;
}

uint16_t am335x_ethphy_read(AM335xEthPhyState *s, unsigned reg)
{
    uint16_t val = 0;
    int speed;
    bool fd;

    switch (reg & 31) {
    case MII_BMCR:
        val = s->bmcr;
        break;
    case MII_BMSR:
        val = MII_BMSR_100TX_FD | MII_BMSR_100TX_HD | MII_BMSR_10T_FD |
              MII_BMSR_10T_HD | MII_BMSR_MFPS | MII_BMSR_AUTONEG |
              MII_BMSR_EXTCAP;
        if (s->gigabit) {
            val |= MII_BMSR_EXTSTAT;
        }
        if (am335x_ethphy_link_ok(s)) {
            val |= MII_BMSR_LINK_ST;
        }
        if (s->an_done && (s->bmcr & MII_BMCR_AUTOEN)) {
            val |= MII_BMSR_AN_COMP;
        }
        break;
    case MII_PHYID1:
        val = s->phy_id >> 16;
        break;
    case MII_PHYID2:
        val = s->phy_id & 0xffff;
        break;
    case MII_ANAR:
        val = s->anar;
        break;
    case MII_ANLPAR:
        if (s->an_done) {
            val = ANAR_ABILITIES | MII_ANLPAR_ACK;
        }
        break;
    case MII_ANER:
        val = s->an_done ? MII_ANER_NWAY : 0;
        break;
    case MII_CTRL1000:
        val = s->gigabit ? s->ctrl1000 : 0;
        break;
    case MII_STAT1000:
        if (s->gigabit && s->an_done) {
            val = MII_STAT1000_FULL | MII_STAT1000_HALF;
        }
        break;
    case 15:    /* Extended status */
        val = s->gigabit ? 0x3000 : 0;
        break;
    default:
        val = s->vendor[reg & 15];
        if (am335x_ethphy_is_lan8710(s) && reg == LAN8710_MCSR &&
            s->link_up) {
            val |= LAN8710_MCSR_ENERGYON;
        }
        if (am335x_ethphy_is_ar8031(s) && reg == AR8031_SSR) {
            val = 0;
            if (am335x_ethphy_link_ok(s)) {
                am335x_ethphy_resolved(s, &speed, &fd);
                val = AR8031_SSR_RESOLVED | AR8031_SSR_LINK |
                      (fd ? AR8031_SSR_DUPLEX : 0) |
                      (speed == 1000 ? AR8031_SSR_SPEED_1000 :
                       speed == 100 ? AR8031_SSR_SPEED_100 : 0);
            }
        }
        break;
    }
    trace_am335x_ethphy_read(s->addr, reg, val);
    return val;
}

static void am335x_ethphy_soft_reset(AM335xEthPhyState *s)
{
    s->bmcr = MII_BMCR_AUTOEN | MII_BMCR_SPEED100 | MII_BMCR_FD;
    if (s->gigabit) {
        s->bmcr |= MII_BMCR_SPEED1000;
        s->bmcr &= ~MII_BMCR_SPEED100;
    }
    s->anar = ANAR_ABILITIES;
    s->ctrl1000 = s->gigabit ? MII_CTRL1000_FULL : 0;
    am335x_ethphy_autoneg(s);
}

void am335x_ethphy_write(AM335xEthPhyState *s, unsigned reg, uint16_t val)
{
    trace_am335x_ethphy_write(s->addr, reg, val);
    switch (reg & 31) {
    case MII_BMCR:
        if (val & MII_BMCR_RESET) {
            am335x_ethphy_soft_reset(s);
            return;
        }
        s->bmcr = val & (MII_BMCR_LOOPBACK | MII_BMCR_SPEED100 |
                         MII_BMCR_AUTOEN | MII_BMCR_PDOWN | MII_BMCR_ISOLATE |
                         MII_BMCR_FD | MII_BMCR_SPEED1000);
        if (val & (MII_BMCR_ANRESTART | MII_BMCR_AUTOEN)) {
            am335x_ethphy_autoneg(s);
        }
        break;
    case MII_ANAR:
        s->anar = (val & (ANAR_ABILITIES | MII_ANAR_PAUSE |
                          MII_ANAR_PAUSE_ASYM)) | MII_ANAR_CSMACD;
        break;
    case MII_CTRL1000:
        s->ctrl1000 = val;
        break;
    case MII_BMSR:
    case MII_PHYID1:
    case MII_PHYID2:
    case MII_ANLPAR:
    case MII_ANER:
    case MII_STAT1000:
    case 15:
        break;
    default:
        if (reg >= 16) {
            s->vendor[reg & 15] = val;
        }
        break;
    }
}

void am335x_ethphy_set_link(AM335xEthPhyState *s, bool up)
{
    trace_am335x_ethphy_link(s->addr, up);
    s->link_up = up;
    am335x_ethphy_autoneg(s);
}

void am335x_ethphy_reset(AM335xEthPhyState *s)
{
    memset(s->vendor, 0, sizeof(s->vendor));
    am335x_ethphy_soft_reset(s);
}

static void am335x_ethphy_reset_hold(Object *obj, ResetType type)
{
    am335x_ethphy_reset(AM335X_ETHPHY(obj));
}

static void am335x_ethphy_init(Object *obj)
{
    AM335X_ETHPHY(obj)->link_up = true;
}

static const VMStateDescription vmstate_am335x_ethphy = {
    .name = TYPE_AM335X_ETHPHY,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT16(bmcr, AM335xEthPhyState),
        VMSTATE_UINT16(anar, AM335xEthPhyState),
        VMSTATE_UINT16(ctrl1000, AM335xEthPhyState),
        VMSTATE_UINT16_ARRAY(vendor, AM335xEthPhyState, 16),
        VMSTATE_BOOL(link_up, AM335xEthPhyState),
        VMSTATE_BOOL(an_done, AM335xEthPhyState),
        VMSTATE_END_OF_LIST()
    }
};

static const Property am335x_ethphy_properties[] = {
    DEFINE_PROP_UINT32("phy-id", AM335xEthPhyState, phy_id,
                       AM335X_ETHPHY_ID_LAN8710A),
    DEFINE_PROP_UINT8("addr", AM335xEthPhyState, addr, 0),
    DEFINE_PROP_BOOL("gigabit", AM335xEthPhyState, gigabit, false),
};

static void am335x_ethphy_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->vmsd = &vmstate_am335x_ethphy;
    dc->desc = "AM335x board Ethernet PHY";
    dc->user_creatable = false;
    rc->phases.hold = am335x_ethphy_reset_hold;
    device_class_set_props(dc, am335x_ethphy_properties);
}

static const TypeInfo am335x_ethphy_info = {
    .name = TYPE_AM335X_ETHPHY,
    .parent = TYPE_DEVICE,
    .instance_size = sizeof(AM335xEthPhyState),
    .instance_init = am335x_ethphy_init,
    .class_init = am335x_ethphy_class_init,
};

static void am335x_ethphy_register_types(void)
{
    type_register_static(&am335x_ethphy_info);
}

type_init(am335x_ethphy_register_types)
