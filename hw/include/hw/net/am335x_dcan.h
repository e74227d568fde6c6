/*
 * TI AM335x D_CAN controller (Bosch D_CAN)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_NET_AM335X_DCAN_H
#define HW_NET_AM335X_DCAN_H

#include "hw/sysbus.h"
#include "net/can_emu.h"
#include "qemu/timer.h"
#include "qom/object.h"

#define TYPE_AM335X_DCAN "am335x-dcan"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xDcanState, AM335X_DCAN)

#define AM335X_DCAN_MMIO_SIZE       0x2000
/* The AM335x's D_CAN instances have 64 message objects (TRM 23.3.1) */
#define AM335X_DCAN_NUM_OBJECTS     64
/* The interrupt lines: DCANx_INT0 and DCANx_INT1 */
#define AM335X_DCAN_NUM_IRQS        2

/* One message object of the message RAM, in the IFx register layout */
typedef struct AM335xDcanObject {
    uint32_t mask;
    uint32_t arb;
    uint32_t mctl;
    uint32_t data[2];
} AM335xDcanObject;

/* IF1 and IF2: command, then the object's registers */
typedef struct AM335xDcanIface {
    uint32_t cmd;
    AM335xDcanObject obj;
} AM335xDcanIface;

struct AM335xDcanState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    qemu_irq irq[AM335X_DCAN_NUM_IRQS];
    CanBusClientState bus_client;

    uint32_t ctl;
    uint32_t es;
    uint32_t btr;
    uint32_t test;
    uint32_t abotr;
    uint32_t intmux[2];
    uint32_t if3_obs;
    uint32_t if3_upd[2];
    uint32_t tioc;
    uint32_t rioc;
    /* A status change (Int0ID 0x8000) not yet seen by a read of ES */
    bool status_int;
    AM335xDcanIface iface[2];
    AM335xDcanObject obj[AM335X_DCAN_NUM_OBJECTS];

    /*
     * With timing: the frame on the bus, from object @tx_obj (1-64, 0 for
     * none) until @tx_timer fires at its end.
     */
    QEMUTimer tx_timer;
    uint8_t tx_obj;
    qemu_can_frame tx_frame;

    /* Properties */
    CanBusState *canbus;
    bool timing;
    /* CAN_CLK: DCANx_FCLK is CLK_M_OSC (TRM 23.2.2) */
    uint32_t clock_hz;
};

#endif
