/*
 * TAOS TSL2550 ambient light sensor (SMBus)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_SENSOR_TSL2550_H
#define HW_SENSOR_TSL2550_H

#include "hw/i2c/i2c.h"
#include "qom/object.h"

#define TYPE_TSL2550 "tsl2550"
OBJECT_DECLARE_SIMPLE_TYPE(TSL2550State, TSL2550)

struct TSL2550State {
    I2CSlave parent_obj;

    /* The last command byte: what a read returns */
    uint8_t command;
    bool powered;
    bool extended_range;
    /* When the ADCs last powered up (both integrate from then on) */
    int64_t power_up_ns;

    /*
     * The light on the two photodiodes, as each channel's count in the
     * standard range ("adc0-count": visible and infrared, "adc1-count":
     * infrared only)
     */
    uint32_t count[2];
};

#endif
