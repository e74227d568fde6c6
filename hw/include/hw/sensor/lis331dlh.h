/*
 * ST LIS331DLH three-axis accelerometer (I2C)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_SENSOR_LIS331DLH_H
#define HW_SENSOR_LIS331DLH_H

#include "hw/i2c/i2c.h"
#include "qom/object.h"

#define TYPE_LIS331DLH "lis331dlh"
OBJECT_DECLARE_SIMPLE_TYPE(LIS331DLHState, LIS331DLH)

/* Register addresses 0x00-0x3f (the sub-address's low 7 bits) */
#define LIS331DLH_NUM_REGS  0x40

struct LIS331DLHState {
    I2CSlave parent_obj;

    /* The read/write registers, by address; the others are computed */
    uint8_t regs[LIS331DLH_NUM_REGS];
    /* The sub-address, whether this write set it, and auto-increment */
    uint8_t pointer;
    bool have_pointer;
    bool auto_increment;

    /* Each axis's last sample (left-justified 12 bits) and its time */
    int16_t out[3];
    int64_t sampled_ns[3];
    /* With CTRL_REG4.BDU: the output byte that keeps its sample */
    uint8_t held[3];

    /* The acceleration the part feels, in mg ("x-mg", "y-mg", "z-mg") */
    int32_t accel_mg[3];
};

#endif
