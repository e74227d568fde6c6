/*
 * TI TPS65217 power management IC (I2C)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_I2C_TPS65217_H
#define HW_I2C_TPS65217_H

#include "hw/i2c/i2c.h"
#include "qom/object.h"

#define TYPE_TPS65217 "tps65217"
OBJECT_DECLARE_SIMPLE_TYPE(TPS65217State, TPS65217)

/* Its fixed I2C address (datasheet SLVSB64, "I2C interface") */
#define TPS65217_I2C_ADDR       0x24

#define TPS65217_NUM_REGS       0x1f

/*
 * GPIO inputs: PWR_EN (high: stay on; falling with STATUS.OFF set: power
 * off) and the PB_IN push-button (1: pressed).  The one unnamed GPIO
 * output is nINT, 1 while an unmasked interrupt is pending.
 */
#define TPS65217_PWR_EN         "pwr_en"
#define TPS65217_PUSH_BUTTON    "power-button"

struct TPS65217State {
    I2CSlave parent_obj;

    qemu_irq irq;

    uint8_t regs[TPS65217_NUM_REGS];
    /* The register pointer, and whether this write set it yet */
    uint8_t pointer;
    bool have_pointer;
    /*
     * Password protection: PASSWORD as last written, and whether it was
     * written in the transaction under way (it survives only the next
     * one); a level-2 write waiting for its confirming second half.
     */
    bool password_fresh;
    bool l2_pending;
    uint8_t l2_reg;
    uint8_t l2_value;

    bool pwr_en;
    bool push_button;

    /* Properties: the power sources present (STATUS.ACPWR, USBPWR) */
    bool ac_power;
    bool usb_power;
};

#endif
