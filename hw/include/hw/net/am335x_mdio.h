/*
 * TI AM335x CPSW MDIO controller (davinci MDIO)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_NET_AM335X_MDIO_H
#define HW_NET_AM335X_MDIO_H

#include "hw/sysbus.h"
#include "hw/net/am335x_ethphy.h"
#include "qom/object.h"

#define TYPE_AM335X_MDIO "am335x-mdio"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xMdioState, AM335X_MDIO)

#define AM335X_MDIO_MMIO_SIZE   0x100
#define AM335X_MDIO_NUM_PHYS    2

/* Output GPIOs: MDIO_LINKINT and MDIO_USERINT (to the CPSW's MISC). */
#define AM335X_MDIO_IRQ_LINK    0
#define AM335X_MDIO_IRQ_USER    1

struct AM335xMdioState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    qemu_irq irq[2];

    uint32_t control;
    uint32_t link;          /* last link state seen by the poll */
    uint32_t linkint_raw;
    uint32_t userint_raw;
    uint32_t userint_mask;
    uint32_t useraccess[2];
    uint32_t userphysel[2];

    /* Links */
    AM335xEthPhyState *phy[AM335X_MDIO_NUM_PHYS];
};

/* A PHY's link changed: update LINK and the link interrupt. */
void am335x_mdio_poll(AM335xMdioState *s);

#endif
