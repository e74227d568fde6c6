/*
 * NXP TDA19988 HDMI transmitter
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_DISPLAY_TDA19988_H
#define HW_DISPLAY_TDA19988_H

#include "hw/display/edid.h"
#include "hw/i2c/i2c.h"
#include "qemu/timer.h"
#include "qom/object.h"

#define TYPE_TDA19988 "tda19988"
OBJECT_DECLARE_SIMPLE_TYPE(TDA19988State, TDA19988)

#define TYPE_TDA19988_CEC "tda19988-cec"
OBJECT_DECLARE_SIMPLE_TYPE(TDA19988CecState, TDA19988_CEC)

/* The HDMI core's pages, each 256 registers (CURPAGE at 0xff selects) */
#define TDA19988_NUM_PAGES      0x13
/* E-EDID: up to 2 segments of 256 bytes */
#define TDA19988_EDID_SIZE      512
#define TDA19988_EDID_BLOCK     128

/*
 * The INT output, active low (the board's pull-up keeps it high while no
 * interrupt is pending).
 */
#define TDA19988_INT            "int"

/* The CEC core: hot-plug detection, the module enables, interrupts */
struct TDA19988CecState {
    I2CSlave parent_obj;

    TDA19988State *hdmi;
    uint8_t regs[256];
    uint8_t pointer;
    bool pointer_set;
};

struct TDA19988State {
    I2CSlave parent_obj;

    QEMUTimer ddc_timer;
    qemu_irq int_out;

    uint8_t regs[TDA19988_NUM_PAGES][256];
    uint8_t page;
    uint8_t pointer;
    bool pointer_set;
    uint8_t int_flags[3];
    uint8_t int_enable[3];
    uint8_t edid_block[TDA19988_EDID_BLOCK];

    /* CEC core state that the HDMI side drives */
    uint8_t hpd_int;            /* RXSHPDINT: changes since the last read */
    uint8_t hpd_int_enable;     /* RXSHPDINTENA */

    /* The sink: a monitor on the HDMI connector, and its EDID */
    bool connected;
    qemu_edid_info edid_info;
    uint8_t edid[TDA19988_EDID_SIZE];
};

/*
 * Creates a TDA19988, child @name of @parent, at @addr on @bus, with its
 * CEC core at the address its strapping gives (0x34 + (@addr & 3)).
 */
TDA19988State *tda19988_create(Object *parent, const char *name,
                               I2CBus *bus, uint8_t addr);

#endif
