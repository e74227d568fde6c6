/*
 * TI AM335x control module (SCM)
 *
 * The control module holds what the SoC knows about itself and its board:
 * the SYSBOOT straps latched at power-on, the device identification and
 * feature e-fuses, the two Ethernet MAC addresses burnt in at the factory,
 * and the pad configuration (pin multiplexing) of every ball.  Around those
 * sit small pieces of SoC glue owned by other drivers: the USB PHY power
 * controls, the CPSW GMII/RMII/RGMII select, the D_CAN message RAM init
 * handshake, the EDMA event crossbar, DDR I/O and VTP calibration, and the
 * wakeup-M3 IPC message registers.
 *
 * The straps and e-fuses are read-only and computed from properties.  The
 * D_CAN RAM init and the VTP calibration finish as soon as they are started.
 * Everything else is storage: a value written reads back, which is all the
 * Linux drivers (pinctrl-single, phy-gmii-sel, phy-am335x-control,
 * ti-dma-crossbar, wkup_m3_ipc) need until a later model gives a register
 * an effect.
 *
 * Reference: AM335x Technical Reference Manual (SPRUH73), chapter 9
 * (control module); AM335x data sheet (SPRS717) for DEV_FEATURE.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qapi/error.h"
#include "hw/irq.h"
#include "hw/misc/am335x_control.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "trace.h"

REG32(CONTROL_REVISION, 0x000)
REG32(CONTROL_HWINFO, 0x004)
REG32(CONTROL_SYSCONFIG, 0x010)
    FIELD(CONTROL_SYSCONFIG, IDLEMODE, 2, 2)
REG32(CONTROL_STATUS, 0x040)
    FIELD(CONTROL_STATUS, SYSBOOT0, 0, 8)       /* SYSBOOT[7:0] */
    FIELD(CONTROL_STATUS, DEVTYPE, 8, 3)
    FIELD(CONTROL_STATUS, SYSBOOT_HI, 16, 8)    /* SYSBOOT[15:8] */
    FIELD(CONTROL_STATUS, SYSBOOT1, 22, 2)      /* crystal frequency */
REG32(DEVICE_ID, 0x600)
REG32(DEV_FEATURE, 0x604)
REG32(USB_CTRL0, 0x620)
REG32(USB_STS0, 0x624)
REG32(USB_CTRL1, 0x628)
REG32(USB_STS1, 0x62c)
REG32(MAC_ID0_LO, 0x630)
REG32(MAC_ID0_HI, 0x634)
REG32(MAC_ID1_LO, 0x638)
REG32(MAC_ID1_HI, 0x63c)
REG32(DCAN_RAMINIT, 0x644)
    FIELD(DCAN_RAMINIT, START, 0, 2)            /* one bit per instance */
    FIELD(DCAN_RAMINIT, DONE, 8, 2)
REG32(USB_VID_PID, 0x7f4)
REG32(EFUSE_SMA, 0x7fc)
/* The pad configuration registers, conf_gpmc_ad0 to conf_usb1_drvvbus. */
REG32(CONF_FIRST, 0x800)
REG32(CONF_LAST, 0xa34)
    FIELD(CONF, MMODE, 0, 3)
    FIELD(CONF, PUDEN, 3, 1)                    /* 1 = pull disabled */
    FIELD(CONF, PUTYPESEL, 4, 1)                /* 1 = pull-up */
    FIELD(CONF, RXACTIVE, 5, 1)
    FIELD(CONF, SLEWCTRL, 6, 1)
REG32(VTP_CTRL, 0xe0c)
    FIELD(VTP_CTRL, CLRZ, 0, 1)
    FIELD(VTP_CTRL, READY, 5, 1)
    FIELD(VTP_CTRL, ENABLE, 6, 1)
/* The EDMA event crossbar: one byte per channel, a 6-bit event select. */
REG32(TPCC_EVT_MUX_0_3, 0xf90)
REG32(TPCC_EVT_MUX_60_63, 0xfcc)

/* control_revision of silicon 2.x; ti-sysc reads it as the module REV. */
#define CONTROL_REVISION_VALUE      0x4e8b0100
/* DEVTYPE: 3 = GP (general purpose, no secure boot). */
#define CONTROL_STATUS_DEVTYPE_GP   3
/* IDLEMODE = smart idle, read-only FREEEMU and STANDBYMODE = 2. */
#define CONTROL_SYSCONFIG_RESET     0x0000002a
/* USB_VID_PID e-fuse: TI's vendor ID and the AM335x ROM's product ID. */
#define USB_VID_PID_VALUE           0x04516141
/* Bits [31:24] must stay 0x3c; both PHYs come out of reset powered down. */
#define USB_CTRL_RESET              0x3c000003
#define CONF_WRITABLE               0x7f
#define TPCC_EVT_MUX_WRITABLE       0x3f3f3f3f

/*
 * Pad reset state.  Pads 0-109 (the peripheral balls) come up in mode 7,
 * GPIO; the rest (reset, JTAG, oscillator, USB, RTC... balls) in mode 0.
 * The receiver is on for every pad.  The LCD_DATA balls (pads 40-55) carry
 * the SYSBOOT straps and so reset with the pull disabled; pad 108
 * (xdma_event_intr0) starts as CLKOUT1 (mode 3) when SYSBOOT[5] is set.
 * Which of the remaining pads pull up and which pull down is not modelled:
 * they all reset pulling down.
 */
#define PAD_GPIO_LAST               109
#define PAD_SYSBOOT_FIRST           40
#define PAD_SYSBOOT_LAST            55
#define PAD_CLKOUT1                 108
#define PAD_CLKOUT1_MODE            3
#define SYSBOOT_CLKOUT1_EN          BIT(5)

/* Register blocks of the TRM's control module register table. */
static const struct {
    hwaddr first;
    hwaddr last;
} am335x_control_documented[] = {
    { 0x000, 0x007 },   /* control_revision, control_hwinfo */
    { 0x010, 0x013 },   /* control_sysconfig */
    { 0x040, 0x043 },   /* control_status */
    { 0x110, 0x113 },   /* control_emif_sdram_config */
    { 0x1bc, 0x1bf },   /* sec_clk_ctrl */
    { 0x41c, 0x41f },   /* cortex_vbbldo_ctrl */
    { 0x428, 0x42f },   /* core_sldo_ctrl, mpu_sldo_ctrl */
    { 0x444, 0x44f },   /* clk32kdivratio_ctrl, bandgap_ctrl/trim */
    { 0x458, 0x45b },   /* pll_clkinpulow_ctrl */
    { 0x468, 0x473 },   /* mosc_ctrl, rcosc_ctrl, deepsleep_ctrl */
    { 0x50c, 0x50f },   /* dpll_pwr_sw_status */
    { 0x600, 0x617 },   /* device_id ... tptc_cfg */
    { 0x620, 0x63f },   /* usb_ctrl/sts0/1, mac_id0/1_lo/hi */
    { 0x644, 0x64b },   /* dcan_raminit, usb_wkup_ctrl */
    { 0x650, 0x653 },   /* gmii_sel */
    { 0x664, 0x667 },   /* pwmss_ctrl */
    { 0x670, 0x677 },   /* mreqprio_0/1 */
    { 0x690, 0x6ab },   /* hw_event_sel_grp1-4 ... mpuss_hw_dbg_info */
    { 0x770, 0x77f },   /* vdd_mpu_opp_050 ... vdd_mpu_opp_turbo */
    { 0x7b8, 0x7bf },   /* vdd_core_opp_050/100 */
    { 0x7d0, 0x7d3 },   /* bb_scale */
    { 0x7f4, 0x7f7 },   /* usb_vid_pid */
    { 0x7fc, 0x7ff },   /* efuse_sma */
    { 0x800, 0xa37 },   /* conf_* pad configuration */
    { 0xe00, 0xe07 },   /* cqdetect_status, ddr_io_ctrl */
    { 0xe0c, 0xe0f },   /* vtp_ctrl */
    { 0xe14, 0xe17 },   /* vref_ctrl */
    { 0xf90, 0xfdb },   /* tpcc_evt_mux_*, timer/ecap/adc_evt_capt */
    { 0x1000, 0x1003 }, /* reset_iso */
    { 0x1318, 0x1347 }, /* dpll_pwr_sw_ctrl ... ipc_msg_reg7 */
    { 0x1404, 0x140f }, /* ddr_cmd0-2_ioctrl */
    { 0x1440, 0x1447 }, /* ddr_data0/1_ioctrl */
};

static bool am335x_control_is_documented(hwaddr offset, unsigned size)
{
    for (int i = 0; i < ARRAY_SIZE(am335x_control_documented); i++) {
        if (offset >= am335x_control_documented[i].first &&
            offset + size - 1 <= am335x_control_documented[i].last) {
            return true;
        }
    }
    return false;
}

/*
 * CONTROL_STATUS: SYSBOOT[7:0] in bits [7:0], the device type in [10:8],
 * and SYSBOOT[15:8] in [23:16] (GPMC CS0 bus width, wait enable, address
 * mux, test mode and, in [23:22], the crystal frequency select that Linux
 * reads as the sys_clkin mux).
 */
static uint32_t am335x_control_status(AM335xControlState *s)
{
    uint32_t value = 0;

    value = FIELD_DP32(value, CONTROL_STATUS, SYSBOOT0, s->sysboot);
    value = FIELD_DP32(value, CONTROL_STATUS, DEVTYPE,
                       CONTROL_STATUS_DEVTYPE_GP);
    value = FIELD_DP32(value, CONTROL_STATUS, SYSBOOT_HI, s->sysboot >> 8);
    return value;
}

/*
 * The MAC e-fuses as Linux (ti_cm_get_macid) and U-Boot read them:
 * MAC_IDn_HI holds address bytes 0-3 with byte 0 in bits [7:0], MAC_IDn_LO
 * holds bytes 4-5 with byte 4 in bits [7:0].  MAC_ID1 is the next address.
 */
static void am335x_control_mac(AM335xControlState *s, unsigned n,
                               uint8_t mac[6])
{
    memcpy(mac, s->mac_base.a, 6);
    mac[5] += n;
}

static uint32_t am335x_control_mac_hi(AM335xControlState *s, unsigned n)
{
    uint8_t mac[6];

    am335x_control_mac(s, n, mac);
    return mac[0] | mac[1] << 8 | mac[2] << 16 | (uint32_t)mac[3] << 24;
}

static uint32_t am335x_control_mac_lo(AM335xControlState *s, unsigned n)
{
    uint8_t mac[6];

    am335x_control_mac(s, n, mac);
    return mac[4] | mac[5] << 8;
}

static uint32_t am335x_control_pad_reset(AM335xControlState *s,
                                         unsigned pad)
{
    uint32_t value = R_CONF_RXACTIVE_MASK;

    if (pad <= PAD_GPIO_LAST) {
        value = FIELD_DP32(value, CONF, MMODE, 7);
    }
    if (pad == PAD_CLKOUT1 && (s->sysboot & SYSBOOT_CLKOUT1_EN)) {
        value = FIELD_DP32(value, CONF, MMODE, PAD_CLKOUT1_MODE);
    }
    if (pad >= PAD_SYSBOOT_FIRST && pad <= PAD_SYSBOOT_LAST) {
        value = FIELD_DP32(value, CONF, PUDEN, 1);
    }
    return value;
}

static uint32_t am335x_control_reg_read(AM335xControlState *s, hwaddr reg)
{
    uint32_t value;

    switch (reg) {
    case A_CONTROL_REVISION:
        return CONTROL_REVISION_VALUE;
    case A_CONTROL_HWINFO:
        return 0;
    case A_CONTROL_STATUS:
        return am335x_control_status(s);
    case A_DEVICE_ID:
        return s->device_id;
    case A_DEV_FEATURE:
        return s->dev_feature;
    case A_USB_STS0:
    case A_USB_STS1:
        /* No charger detection: nothing attached to report. */
        return 0;
    case A_MAC_ID0_LO:
        return am335x_control_mac_lo(s, 0);
    case A_MAC_ID0_HI:
        return am335x_control_mac_hi(s, 0);
    case A_MAC_ID1_LO:
        return am335x_control_mac_lo(s, 1);
    case A_MAC_ID1_HI:
        return am335x_control_mac_hi(s, 1);
    case A_USB_VID_PID:
        return USB_VID_PID_VALUE;
    case A_EFUSE_SMA:
        return s->efuse_sma;
    case A_VTP_CTRL:
        /* Calibration of the DDR I/O impedance is done once enabled. */
        value = s->regs[R_VTP_CTRL];
        return FIELD_DP32(value, VTP_CTRL, READY,
                          FIELD_EX32(value, VTP_CTRL, ENABLE));
    default:
        return s->regs[reg / 4];
    }
}

/*
 * D_CAN RAMINIT: a rising edge of an instance's START bit initialises its
 * message RAM, which sets its DONE bit; DONE is cleared by writing 1.
 */
static void am335x_control_dcan_raminit(AM335xControlState *s,
                                        uint32_t value, uint32_t mask)
{
    uint32_t old = s->regs[R_DCAN_RAMINIT];
    uint32_t written = value & mask;
    uint32_t start_old = old & R_DCAN_RAMINIT_START_MASK;
    uint32_t start = (start_old & ~mask) |
                     (written & R_DCAN_RAMINIT_START_MASK);
    uint32_t done = old & R_DCAN_RAMINIT_DONE_MASK & ~written;
    uint32_t rising = start & ~start_old;

    for (unsigned i = 0; i < R_DCAN_RAMINIT_START_LENGTH; i++) {
        if (rising & BIT(i)) {
            trace_am335x_control_dcan_raminit(i);
        }
    }
    done |= rising << R_DCAN_RAMINIT_DONE_SHIFT;
    s->regs[R_DCAN_RAMINIT] = start | done;
}

/* The crossbar input channel @ch listens to: 0 is its direct event. */
static unsigned am335x_control_evt_mux(AM335xControlState *s, unsigned ch)
{
    return extract32(s->regs[R_TPCC_EVT_MUX_0_3 + ch / 4], (ch % 4) * 8, 6);
}

static void am335x_control_route_event(AM335xControlState *s, unsigned ch)
{
    unsigned sel = am335x_control_evt_mux(s, ch);
    bool level = sel ? extract64(s->dma_xbar, sel, 1)
                     : extract64(s->dma_direct, ch, 1);

    qemu_set_irq(s->dma_event[ch], level);
}

static void am335x_control_dma_direct(void *opaque, int n, int level)
{
    AM335xControlState *s = AM335X_CONTROL(opaque);

    s->dma_direct = deposit64(s->dma_direct, n, 1, !!level);
    if (am335x_control_evt_mux(s, n) == 0) {
        am335x_control_route_event(s, n);
    }
}

static void am335x_control_dma_xbar(void *opaque, int n, int level)
{
    AM335xControlState *s = AM335X_CONTROL(opaque);

    s->dma_xbar = deposit64(s->dma_xbar, n, 1, !!level);
    for (unsigned ch = 0; ch < AM335X_CONTROL_NUM_DMA_EVENTS; ch++) {
        if (n && am335x_control_evt_mux(s, ch) == n) {
            am335x_control_route_event(s, ch);
        }
    }
}

static void am335x_control_reg_write(AM335xControlState *s, hwaddr reg,
                                     uint32_t value, uint32_t mask)
{
    uint32_t writable;

    switch (reg) {
    case A_CONTROL_REVISION:
    case A_CONTROL_HWINFO:
    case A_CONTROL_STATUS:
    case A_DEVICE_ID:
    case A_DEV_FEATURE:
    case A_USB_STS0:
    case A_USB_STS1:
    case A_MAC_ID0_LO:
    case A_MAC_ID0_HI:
    case A_MAC_ID1_LO:
    case A_MAC_ID1_HI:
    case A_USB_VID_PID:
    case A_EFUSE_SMA:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: write to read-only offset 0x%"
                      HWADDR_PRIx "\n", __func__, reg);
        return;
    case A_CONTROL_SYSCONFIG:
        writable = R_CONTROL_SYSCONFIG_IDLEMODE_MASK;
        break;
    case A_DCAN_RAMINIT:
        am335x_control_dcan_raminit(s, value, mask);
        return;
    case A_VTP_CTRL:
        writable = ~R_VTP_CTRL_READY_MASK;
        break;
    case A_CONF_FIRST ... A_CONF_LAST:
        writable = CONF_WRITABLE;
        break;
    case A_TPCC_EVT_MUX_0_3 ... A_TPCC_EVT_MUX_60_63:
        writable = TPCC_EVT_MUX_WRITABLE;
        break;
    default:
        writable = UINT32_MAX;
        break;
    }
    mask &= writable;
    s->regs[reg / 4] = (s->regs[reg / 4] & ~mask) | (value & mask);
    if (reg >= A_TPCC_EVT_MUX_0_3 && reg <= A_TPCC_EVT_MUX_60_63) {
        for (unsigned i = 0; i < 4; i++) {
            am335x_control_route_event(s, (reg - A_TPCC_EVT_MUX_0_3) + i);
        }
    }
}

static uint64_t am335x_control_read(void *opaque, hwaddr offset,
                                    unsigned size)
{
    AM335xControlState *s = AM335X_CONTROL(opaque);
    uint64_t value;

    if (!am335x_control_is_documented(offset, size)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: read of undocumented offset 0x%"
                      HWADDR_PRIx "\n", __func__, offset);
    }
    value = extract32(am335x_control_reg_read(s, offset & ~3),
                      (offset & 3) * 8, size * 8);
    trace_am335x_control_read(offset, size, value);
    return value;
}

static void am335x_control_write(void *opaque, hwaddr offset, uint64_t value,
                                 unsigned size)
{
    AM335xControlState *s = AM335X_CONTROL(opaque);
    unsigned shift = (offset & 3) * 8;

    trace_am335x_control_write(offset, size, value);
    if (!am335x_control_is_documented(offset, size)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: write to undocumented offset 0x%"
                      HWADDR_PRIx "\n", __func__, offset);
    }
    am335x_control_reg_write(s, offset & ~3, (uint32_t)value << shift,
                             MAKE_64BIT_MASK(shift, size * 8));
}

static const MemoryRegionOps am335x_control_ops = {
    .read = am335x_control_read,
    .write = am335x_control_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    /* The EDMA crossbar driver writes one byte per channel. */
    .valid.min_access_size = 1,
    .valid.max_access_size = 4,
    .impl.min_access_size = 1,
    .impl.max_access_size = 4,
};

static void am335x_control_reset_hold(Object *obj, ResetType type)
{
    AM335xControlState *s = AM335X_CONTROL(obj);

    memset(s->regs, 0, sizeof(s->regs));
    s->regs[R_CONTROL_SYSCONFIG] = CONTROL_SYSCONFIG_RESET;
    s->regs[R_USB_CTRL0] = USB_CTRL_RESET;
    s->regs[R_USB_CTRL1] = USB_CTRL_RESET;
    for (unsigned i = 0; i <= R_CONF_LAST - R_CONF_FIRST; i++) {
        s->regs[R_CONF_FIRST + i] = am335x_control_pad_reset(s, i);
    }
}

/* The muxes are back to the direct events; the outputs follow. */
static void am335x_control_reset_exit(Object *obj, ResetType type)
{
    AM335xControlState *s = AM335X_CONTROL(obj);

    for (unsigned ch = 0; ch < AM335X_CONTROL_NUM_DMA_EVENTS; ch++) {
        am335x_control_route_event(s, ch);
    }
}

static void am335x_control_realize(DeviceState *dev, Error **errp)
{
    AM335xControlState *s = AM335X_CONTROL(dev);

    if (s->sysboot > UINT16_MAX) {
        error_setg(errp, "%s: sysboot 0x%" PRIx32 " has more than 16 bits",
                   TYPE_AM335X_CONTROL, s->sysboot);
        return;
    }
}

static void am335x_control_init(Object *obj)
{
    AM335xControlState *s = AM335X_CONTROL(obj);

    memory_region_init_io(&s->iomem, obj, &am335x_control_ops, s,
                          TYPE_AM335X_CONTROL, AM335X_CONTROL_MMIO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(obj), &s->iomem);
    qdev_init_gpio_in_named(DEVICE(obj), am335x_control_dma_direct,
                            AM335X_CONTROL_DMA_DIRECT,
                            AM335X_CONTROL_NUM_DMA_EVENTS);
    qdev_init_gpio_in_named(DEVICE(obj), am335x_control_dma_xbar,
                            AM335X_CONTROL_DMA_XBAR,
                            AM335X_CONTROL_NUM_DMA_EVENTS);
    qdev_init_gpio_out_named(DEVICE(obj), s->dma_event,
                             AM335X_CONTROL_DMA_EVENT,
                             AM335X_CONTROL_NUM_DMA_EVENTS);
}

static const VMStateDescription vmstate_am335x_control = {
    .name = TYPE_AM335X_CONTROL,
    .version_id = 2,
    .minimum_version_id = 2,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_ARRAY(regs, AM335xControlState,
                             AM335X_CONTROL_NUM_REGS),
        VMSTATE_UINT64(dma_direct, AM335xControlState),
        VMSTATE_UINT64(dma_xbar, AM335xControlState),
        VMSTATE_END_OF_LIST()
    }
};

static const Property am335x_control_properties[] = {
    /* SYSBOOT[15:0] as strapped on the board. */
    DEFINE_PROP_UINT32("sysboot", AM335xControlState, sysboot,
                       AM335X_SYSBOOT_BEAGLEBONE_BLACK),
    DEFINE_PROP_UINT32("device-id", AM335xControlState, device_id,
                       AM335X_DEVICE_ID_ES2_1),
    DEFINE_PROP_UINT32("dev-feature", AM335xControlState, dev_feature,
                       AM335X_DEV_FEATURE_AM3358),
    DEFINE_PROP_UINT32("efuse-sma", AM335xControlState, efuse_sma,
                       AM335X_EFUSE_SMA_ZCZ_1GHZ),
    DEFINE_PROP_MACADDR("mac-base", AM335xControlState, mac_base),
};

static void am335x_control_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->realize = am335x_control_realize;
    dc->vmsd = &vmstate_am335x_control;
    dc->desc = "TI AM335x control module";
    rc->phases.hold = am335x_control_reset_hold;
    rc->phases.exit = am335x_control_reset_exit;
    device_class_set_props(dc, am335x_control_properties);
    set_bit(DEVICE_CATEGORY_MISC, dc->categories);
}

static const TypeInfo am335x_control_info = {
    .name = TYPE_AM335X_CONTROL,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AM335xControlState),
    .instance_init = am335x_control_init,
    .class_init = am335x_control_class_init,
};

static void am335x_control_register_types(void)
{
    type_register_static(&am335x_control_info);
}

type_init(am335x_control_register_types)
