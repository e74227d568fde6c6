/*
 * TI TLV320AIC3106 low-power stereo audio codec
 *
 * The AM335x EVM's codec, on I2C1 at 0x1b, wired to McASP1 as its bit
 * clock and frame (word clock) master.  Modelled:
 *
 * - the I2C register protocol: the first byte of a write sets the
 *   register pointer, later bytes write registers and reads return them,
 *   the pointer advancing after each;
 * - two pages of 128 registers, register 0 selecting the page; page 0's
 *   datasheet reset values; the read-only registers (the AGC gains 32-33,
 *   the status and flag registers 94-97, register 11's overflow flags);
 *   the self-clearing software reset (register 1);
 * - the clock tree: CLKDIV_IN and PLLCLK_IN from MCLK (register 102),
 *   CODEC_CLKIN from the PLL or the Q divider (register 101 bit 0).  With
 *   the PLL (register 3 bit 7) fsref = PLLCLK_IN * K * R / (2048 * P),
 *   K = J.D (registers 3-6, 11); without it fsref = CLKDIV_IN / (128 * Q).
 *   The DAC samples at fsref / NDAC (register 2), twice that in dual-rate
 *   mode (register 7);
 * - as the bit clock or word clock master (register 8 bits 7-6) it drives
 *   WCLK at the DAC's rate and BCLK at 2 x word length x WCLK, or 256 x
 *   WCLK in 256-clock mode (register 9): the "bclk" and "wclk" clock
 *   outputs, which the board wires to the McASP's ACLKX and AFSX pins.
 *
 * The samples themselves do not pass through this model: the McASP model
 * plays what it sends and records what it receives on its audiodev, as
 * the codec's DAC and ADC would.  Not modelled: the analog paths, volume
 * and mute, the AGC, headset detection, the GPIOs and the interrupt
 * flags (registers 94-97 read 0), the effects filters (page 1 is kept
 * but not applied, and resets to 0), GPIO2 or BCLK as a clock source
 * (there is no clock then).
 *
 * Reference: TLV320AIC3106 datasheet (SLAS509), "Audio Clock Generation"
 * and "Output Register Map".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/host-utils.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "hw/audio/tlv320aic3106.h"
#include "hw/qdev-clock.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "trace.h"

/* Page 0 */
REG8(PAGE_SELECT, 0)
REG8(RESET, 1)
    FIELD(RESET, SOFT_RESET, 7, 1)
REG8(SAMPLE_RATE, 2)
    FIELD(SAMPLE_RATE, DAC, 0, 4)
    FIELD(SAMPLE_RATE, ADC, 4, 4)
REG8(PLL_A, 3)
    FIELD(PLL_A, P, 0, 3)
    FIELD(PLL_A, Q, 3, 4)
    FIELD(PLL_A, ENABLE, 7, 1)
REG8(PLL_B, 4)
    FIELD(PLL_B, J, 2, 6)
REG8(PLL_C, 5)              /* D bits 13-6 */
REG8(PLL_D, 6)
    FIELD(PLL_D, D_LSB, 2, 6)
REG8(DATAPATH, 7)
    FIELD(DATAPATH, DAC_DUAL_RATE, 5, 1)
    FIELD(DATAPATH, ADC_DUAL_RATE, 6, 1)
    FIELD(DATAPATH, FSREF_44K1, 7, 1)
REG8(ASD_A, 8)
    FIELD(ASD_A, WCLK_MASTER, 6, 1)
    FIELD(ASD_A, BCLK_MASTER, 7, 1)
REG8(ASD_B, 9)
    FIELD(ASD_B, BCLK_256, 3, 1)
    FIELD(ASD_B, WORD_LENGTH, 4, 2)
REG8(OVERFLOW_PLL_R, 11)
    FIELD(OVERFLOW_PLL_R, R, 0, 4)
REG8(LAGC_GAIN, 32)
REG8(RAGC_GAIN, 33)
REG8(MODULE_POWER_STATUS, 94)
REG8(RT_IRQ_FLAGS, 97)
REG8(GPIO_B, 101)
    FIELD(GPIO_B, CODEC_CLKIN_CLKDIV, 0, 1)
REG8(CLKGEN, 102)
    FIELD(CLKGEN, PLLCLK_IN, 4, 2)
    FIELD(CLKGEN, CLKDIV_IN, 6, 2)

/* Register 11's overflow flags (bits 7-4) are read-only */
#define OVERFLOW_FLAGS          0xf0

/* CLKDIV_IN and PLLCLK_IN sources: 0 is MCLK (GPIO2 and BCLK unmodelled) */
#define CLKIN_MCLK              0

/* Page 0 reset values (SLAS509, output register map); the rest are 0 */
static const struct {
    uint8_t reg;
    uint8_t value;
} tlv320aic3106_defaults[] = {
    { 3, 0x10 }, { 4, 0x04 }, { 11, 0x01 }, { 15, 0x80 }, { 16, 0x80 },
    { 17, 0xff }, { 18, 0xff }, { 19, 0x78 }, { 20, 0x78 }, { 21, 0x78 },
    { 22, 0x78 }, { 23, 0x78 }, { 24, 0x78 }, { 27, 0xfe }, { 30, 0xfe },
    { 32, 0x18 }, { 33, 0x18 }, { 43, 0x80 }, { 44, 0x80 }, { 51, 0x04 },
    { 58, 0x04 }, { 65, 0x04 }, { 72, 0x04 }, { 102, 0x02 },
};

static void tlv320aic3106_set_clock(Clock *clk, uint64_t mhz, bool propagate)
{
    uint64_t lo = 0, hi = 0;

    /* The period in 2^-32 ns: 2^32 * 10^9 * 1000 / mHz */
    if (mhz) {
        mulu64(&lo, &hi, CLOCK_PERIOD_1SEC, 1000);
        divu128(&lo, &hi, mhz);
    }
    if (propagate) {
        clock_update(clk, hi ? 0 : lo);
    } else {
        clock_set(clk, hi ? 0 : lo);
    }
}

/* The DAC's sampling rate in mHz, 0 when its clock does not run */
static uint64_t tlv320aic3106_dac_mhz(TLV320AIC3106State *s)
{
    const uint8_t *r = s->regs[0];
    uint32_t ndac = FIELD_EX8(r[R_SAMPLE_RATE], SAMPLE_RATE, DAC);
    uint64_t fsref_mhz;

    if (FIELD_EX8(r[R_GPIO_B], GPIO_B, CODEC_CLKIN_CLKDIV)) {
        /* CLKDIV_OUT: fsref = CLKDIV_IN / (128 * Q), Q 2-17 */
        uint32_t q = FIELD_EX8(r[R_PLL_A], PLL_A, Q);

        if (FIELD_EX8(r[R_CLKGEN], CLKGEN, CLKDIV_IN) != CLKIN_MCLK) {
            return 0;
        }
        q = q < 2 ? q + 16 : q;
        fsref_mhz = (uint64_t)s->mclk_hz * 1000 / (128 * q);
    } else {
        /* PLLDIV_OUT: fsref = PLLCLK_IN * (J.D) * R / (2048 * P) */
        uint32_t p = FIELD_EX8(r[R_PLL_A], PLL_A, P);
        uint32_t j = FIELD_EX8(r[R_PLL_B], PLL_B, J);
        uint32_t d = (r[R_PLL_C] << 6) | FIELD_EX8(r[R_PLL_D], PLL_D, D_LSB);
        uint32_t rr = FIELD_EX8(r[R_OVERFLOW_PLL_R], OVERFLOW_PLL_R, R);

        if (!FIELD_EX8(r[R_PLL_A], PLL_A, ENABLE) || !j ||
            FIELD_EX8(r[R_CLKGEN], CLKGEN, PLLCLK_IN) != CLKIN_MCLK) {
            return 0;
        }
        p = p ? p : 8;
        rr = rr ? rr : 16;
        fsref_mhz = (uint64_t)s->mclk_hz * (j * 10000ULL + d) * rr /
                    (2048ULL * p * 10);
    }
    /* NDAC: fsref / (1 + n / 2); codes past 10 (fsref / 6) are reserved */
    ndac = MIN(ndac, 10);
    return fsref_mhz * 2 *
           (FIELD_EX8(r[R_DATAPATH], DATAPATH, DAC_DUAL_RATE) ? 2 : 1) /
           (2 + ndac);
}

/* BCLK and WCLK follow the clock tree and the master bits */
static void tlv320aic3106_update_clocks(TLV320AIC3106State *s, bool propagate)
{
    const uint8_t *r = s->regs[0];
    uint64_t wclk = tlv320aic3106_dac_mhz(s);
    static const uint32_t word_bits[] = { 16, 20, 24, 32 };
    uint64_t bclk = FIELD_EX8(r[R_ASD_B], ASD_B, BCLK_256) ? 256 * wclk :
        2 * word_bits[FIELD_EX8(r[R_ASD_B], ASD_B, WORD_LENGTH)] * wclk;

    if (!FIELD_EX8(r[R_ASD_A], ASD_A, BCLK_MASTER)) {
        bclk = 0;
    }
    if (!FIELD_EX8(r[R_ASD_A], ASD_A, WCLK_MASTER)) {
        wclk = 0;
    }
    trace_tlv320aic3106_clocks(bclk, wclk);
    tlv320aic3106_set_clock(s->bclk, bclk, propagate);
    tlv320aic3106_set_clock(s->wclk, wclk, propagate);
}

static void tlv320aic3106_reset_regs(TLV320AIC3106State *s)
{
    memset(s->regs, 0, sizeof(s->regs));
    for (int i = 0; i < ARRAY_SIZE(tlv320aic3106_defaults); i++) {
        s->regs[0][tlv320aic3106_defaults[i].reg] =
            tlv320aic3106_defaults[i].value;
    }
}

static bool tlv320aic3106_read_only(uint8_t page, uint8_t reg)
{
    return page == 0 && (reg == R_LAGC_GAIN || reg == R_RAGC_GAIN ||
                         (reg >= R_MODULE_POWER_STATUS &&
                          reg <= R_RT_IRQ_FLAGS));
}

static void tlv320aic3106_write(TLV320AIC3106State *s, uint8_t reg,
                                uint8_t value)
{
    uint8_t page = s->regs[0][R_PAGE_SELECT] & 1;

    trace_tlv320aic3106_write(page, reg, value);
    if (reg >= TLV320AIC3106_PAGE_REGS) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: no register %u\n", __func__, reg);
        return;
    }
    if (reg == R_PAGE_SELECT) {
        /* The page register is on both pages */
        s->regs[0][R_PAGE_SELECT] = s->regs[1][R_PAGE_SELECT] = value & 1;
        return;
    }
    if (tlv320aic3106_read_only(page, reg)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: register %u is read-only\n",
                      __func__, reg);
        return;
    }
    if (page == 0 && reg == R_RESET) {
        if (FIELD_EX8(value, RESET, SOFT_RESET)) {
            tlv320aic3106_reset_regs(s);
            tlv320aic3106_update_clocks(s, true);
        }
        return;
    }
    if (page == 0 && reg == R_OVERFLOW_PLL_R) {
        value = (s->regs[0][reg] & OVERFLOW_FLAGS) | (value & ~OVERFLOW_FLAGS);
    }
    s->regs[page][reg] = value;
    if (page == 0) {
        tlv320aic3106_update_clocks(s, true);
    }
}

static uint8_t tlv320aic3106_read(TLV320AIC3106State *s, uint8_t reg)
{
    uint8_t page = s->regs[0][R_PAGE_SELECT] & 1;
    uint8_t value = 0;

    if (reg < TLV320AIC3106_PAGE_REGS) {
        value = s->regs[page][reg];
    } else {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: no register %u\n", __func__, reg);
    }
    trace_tlv320aic3106_read(page, reg, value);
    return value;
}

static int tlv320aic3106_event(I2CSlave *i2c, enum i2c_event event)
{
    TLV320AIC3106State *s = TLV320AIC3106(i2c);

    if (event == I2C_START_SEND) {
        s->have_pointer = false;
    }
    return 0;
}

static uint8_t tlv320aic3106_recv(I2CSlave *i2c)
{
    TLV320AIC3106State *s = TLV320AIC3106(i2c);

    return tlv320aic3106_read(s, s->pointer++);
}

static int tlv320aic3106_send(I2CSlave *i2c, uint8_t data)
{
    TLV320AIC3106State *s = TLV320AIC3106(i2c);

    if (!s->have_pointer) {
        s->pointer = data;
        s->have_pointer = true;
    } else {
        tlv320aic3106_write(s, s->pointer++, data);
    }
    return 0;
}

static void tlv320aic3106_reset_enter(Object *obj, ResetType type)
{
    TLV320AIC3106State *s = TLV320AIC3106(obj);

    tlv320aic3106_reset_regs(s);
    s->pointer = 0;
    s->have_pointer = false;
}

static void tlv320aic3106_reset_hold(Object *obj, ResetType type)
{
    tlv320aic3106_update_clocks(TLV320AIC3106(obj), true);
}

static int tlv320aic3106_post_load(void *opaque, int version_id)
{
    /*
     * The clock outputs follow the registers; the McASP has its pins'
     * clocks in its own state, so nothing propagates here.
     */
    tlv320aic3106_update_clocks(TLV320AIC3106(opaque), false);
    return 0;
}

static const VMStateDescription vmstate_tlv320aic3106 = {
    .name = TYPE_TLV320AIC3106,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = tlv320aic3106_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_I2C_SLAVE(parent_obj, TLV320AIC3106State),
        VMSTATE_UINT8_2DARRAY(regs, TLV320AIC3106State, 2,
                              TLV320AIC3106_PAGE_REGS),
        VMSTATE_UINT8(pointer, TLV320AIC3106State),
        VMSTATE_BOOL(have_pointer, TLV320AIC3106State),
        VMSTATE_END_OF_LIST()
    }
};

static const Property tlv320aic3106_properties[] = {
    /* MCLK: nothing unless the board says what drives it */
    DEFINE_PROP_UINT32("mclk-hz", TLV320AIC3106State, mclk_hz, 0),
};

static void tlv320aic3106_init(Object *obj)
{
    TLV320AIC3106State *s = TLV320AIC3106(obj);

    s->bclk = qdev_init_clock_out(DEVICE(obj), TLV320AIC3106_BCLK);
    s->wclk = qdev_init_clock_out(DEVICE(obj), TLV320AIC3106_WCLK);
}

static void tlv320aic3106_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    I2CSlaveClass *sc = I2C_SLAVE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->desc = "TI TLV320AIC3106 audio codec";
    dc->vmsd = &vmstate_tlv320aic3106;
    device_class_set_props(dc, tlv320aic3106_properties);
    rc->phases.enter = tlv320aic3106_reset_enter;
    rc->phases.hold = tlv320aic3106_reset_hold;
    sc->event = tlv320aic3106_event;
    sc->recv = tlv320aic3106_recv;
    sc->send = tlv320aic3106_send;
}

static const TypeInfo tlv320aic3106_info = {
    .name = TYPE_TLV320AIC3106,
    .parent = TYPE_I2C_SLAVE,
    .instance_size = sizeof(TLV320AIC3106State),
    .instance_init = tlv320aic3106_init,
    .class_init = tlv320aic3106_class_init,
};

static void tlv320aic3106_register_types(void)
{
    type_register_static(&tlv320aic3106_info);
}

type_init(tlv320aic3106_register_types)
