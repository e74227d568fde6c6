/*
 * TI TPS65910 power management IC (I2C control interface)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_I2C_TPS65910_H
#define HW_I2C_TPS65910_H

#include "hw/i2c/i2c.h"
#include "qom/object.h"

#define TYPE_TPS65910 "tps65910"
OBJECT_DECLARE_SIMPLE_TYPE(TPS65910State, TPS65910)

/*
 * The control interface's I2C address (datasheet SWCS046, "I2C
 * interface"); the SmartReflex interface at 0x12 is not modelled.
 */
#define TPS65910_I2C_ADDR       0x2d

/* Registers 0x00-0x80 (JTAGVERNUM is the last) */
#define TPS65910_NUM_REGS       0x81

/* The one unnamed GPIO output is INT1, 1 while an unmasked event is set. */

struct TPS65910State {
    I2CSlave parent_obj;

    qemu_irq irq;

    uint8_t regs[TPS65910_NUM_REGS];
    uint8_t pointer;
    bool have_pointer;

    /* Property: JTAGVERNUM.VERNUM, the silicon revision */
    uint8_t vernum;
};

#endif
