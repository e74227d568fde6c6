/*
 * TI AM335x boards: the Ethernet PHY on the CPSW's MDIO bus
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_NET_AM335X_ETHPHY_H
#define HW_NET_AM335X_ETHPHY_H

#include "hw/qdev-core.h"
#include "qom/object.h"

#define TYPE_AM335X_ETHPHY "am335x-ethphy"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xEthPhyState, AM335X_ETHPHY)

/* PHY identifiers (registers 2 and 3) of the boards' parts */
#define AM335X_ETHPHY_ID_LAN8710A   0x0007c0f1  /* SMSC/Microchip, BBB */
#define AM335X_ETHPHY_ID_AR8031     0x004dd074  /* Atheros, AM335x EVM */

struct AM335xEthPhyState {
    DeviceState parent_obj;

    uint16_t bmcr;
    uint16_t anar;
    uint16_t ctrl1000;
    uint16_t vendor[16];    /* registers 16-31, kept as written */
    bool link_up;           /* the wire (the netdev's link) */
    bool an_done;

    /* Properties */
    uint32_t phy_id;
    uint8_t addr;
    bool gigabit;
};

/*
 * Power-on reset, for the MAC that owns the PHY: the PHY is on no bus, so
 * a machine reset reaches it through its MAC.
 */
void am335x_ethphy_reset(AM335xEthPhyState *s);
/* MDIO register access; @reg is 0-31. */
uint16_t am335x_ethphy_read(AM335xEthPhyState *s, unsigned reg);
void am335x_ethphy_write(AM335xEthPhyState *s, unsigned reg, uint16_t val);
/* The link partner appears or goes away. */
void am335x_ethphy_set_link(AM335xEthPhyState *s, bool up);
/* Whether the PHY reports link up in BMSR. */
bool am335x_ethphy_link_ok(AM335xEthPhyState *s);
/* The speed resolved with the link partner, in Mbit/s; 0 without link. */
int am335x_ethphy_speed(AM335xEthPhyState *s);

#endif
