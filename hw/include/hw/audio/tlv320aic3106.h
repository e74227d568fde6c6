/*
 * TI TLV320AIC3106 low-power stereo audio codec (I2C)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_AUDIO_TLV320AIC3106_H
#define HW_AUDIO_TLV320AIC3106_H

#include "hw/clock.h"
#include "hw/i2c/i2c.h"
#include "qom/object.h"

#define TYPE_TLV320AIC3106 "tlv320aic3106"
OBJECT_DECLARE_SIMPLE_TYPE(TLV320AIC3106State, TLV320AIC3106)

/* Two pages of 128 8-bit registers, register 0 of each selecting the page */
#define TLV320AIC3106_PAGE_REGS     128

/*
 * Clock outputs: the BCLK and WCLK pins it drives as the bit clock and
 * word clock master (0 Hz when it does not)
 */
#define TLV320AIC3106_BCLK          "bclk"
#define TLV320AIC3106_WCLK          "wclk"

struct TLV320AIC3106State {
    I2CSlave parent_obj;

    Clock *bclk;
    Clock *wclk;

    uint8_t regs[2][TLV320AIC3106_PAGE_REGS];
    /* The register pointer, and whether this write set it yet */
    uint8_t pointer;
    bool have_pointer;

    /* Property: the MCLK pin's frequency */
    uint32_t mclk_hz;
};

#endif
