/*
 * TI AM335x EVM (TMDXEVM3358): AM3359, 256 MiB DDR2 in the stock DT's
 * memory node, TPS65910 PMIC, AR8031 PHY, SD slot, 2 Gbit NAND on GPMC.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "hw/audio/tlv320aic3106.h"
#include "hw/i2c/i2c.h"
#include "hw/i2c/tps65910.h"
#include "hw/i2c/am335x_board_eeprom.h"
#include "hw/block/am335x_nand.h"
#include "hw/input/am335x_evm_keys.h"
#include "hw/sensor/lis331dlh.h"
#include "hw/sensor/tmp105.h"
#include "hw/sensor/tsl2550.h"
#include "hw/qdev-clock.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "system/blockdev.h"
#include "system/reset.h"
#include "am335x_board.h"

static const AM335xBoardConfig am335x_evm_config = {
    /* 24 MHz crystal; DIP switches set to boot MMC0, SPI0, UART0, USB0 */
    .sysboot = 0x4017,
    /* AM3359 */
    .dev_feature = 0x20ff0383,
    .mac_base = "c8:a0:30:33:5e:00",
    /* Atheros AR8031, RGMII, at MDIO address 0 */
    .eth_phy_id = AM335X_ETHPHY_ID_AR8031,
    /* U-Boot's SPL: MPU OPP120 720 MHz, DDR2 at 266 MHz */
    .mpu_mhz = 720,
    .ddr_mhz = 266,
    /* The 7" panel's red and blue lines are swapped (crossed) */
    .lcd_rb_crossed = true,
    /* The LCD's 4-wire touch panel, on AIN0-3 */
    .touch_panel = true,
    /* McASP1 to the TLV320AIC3106 codec, the bit clock master */
    .audio_mcasp = 1,
};

/*
 * 2 Gbit x8 NAND (Micron MT29F2G08ABAEAWP) on GPMC CS0, its R/B# on
 * WAIT0, backed by -drive if=mtd (a raw image with the spare bytes).
 */
static void am335x_evm_nand(MachineState *machine, AM335xSoCState *soc)
{
    DriveInfo *dinfo = drive_get(IF_MTD, 0, 0);
    DeviceState *nand = qdev_new(TYPE_AM335X_NAND);

    if (dinfo) {
        qdev_prop_set_drive_err(nand, "drive", blk_by_legacy_dinfo(dinfo),
                                &error_fatal);
    }
    if (am335x_board_timing_on()) {
        /*
         * The array times of the MT29F2G08ABAEAWP (Micron "2Gb, 4Gb, 8Gb:
         * x8, x16 NAND Flash Memory" M68A datasheet, features and AC
         * characteristics): READ PAGE tR 25 us (max), PROGRAM PAGE tPROG
         * 200 us (typ), ERASE BLOCK tBERS 700 us (typ).  A -global that
         * set one already wins.
         */
        static const struct {
            const char *name;
            uint32_t ns;
        } t[] = {
            { "t-read-ns", 25000 },
            { "t-prog-ns", 200000 },
            { "t-erase-ns", 700000 },
        };

        for (int i = 0; i < ARRAY_SIZE(t); i++) {
            if (!object_property_get_uint(OBJECT(nand), t[i].name,
                                          &error_abort)) {
                qdev_prop_set_uint32(nand, t[i].name, t[i].ns);
            }
        }
    }
    object_property_add_child(OBJECT(machine), "nand", OBJECT(nand));
    qdev_realize_and_unref(nand, NULL, &error_fatal);
    /* Not on a bus: the machine's reset reaches it through this. */
    qemu_register_resettable(OBJECT(nand));
    am335x_gpmc_attach_nand(&soc->gpmc, 0, AM335X_NAND(nand));
}

/*
 * The TLV320AIC3106 on I2C1 at 0x1b, its MCLK from the board's 12 MHz
 * audio oscillator (the stock DT's system-clock-frequency), its BCLK and
 * WCLK driving McASP1's ACLKX and AFSX pins when it is the master, as the
 * stock DT's sound card makes it.
 */
static void am335x_evm_codec(MachineState *machine, AM335xSoCState *soc)
{
    I2CBus *i2c1 = soc->i2c[1].bus;
    I2CSlave *codec = i2c_slave_new(TYPE_TLV320AIC3106, 0x1b);
    DeviceState *mcasp = DEVICE(&soc->mcasp[1]);

    qdev_prop_set_uint32(DEVICE(codec), "mclk-hz", 12000000);
    object_property_add_child(OBJECT(machine), "codec", OBJECT(codec));
    i2c_slave_realize_and_unref(codec, i2c1, &error_fatal);
    clock_set_source(qdev_get_clock_in(mcasp, AM335X_MCASP_ACLKX),
                     qdev_get_clock_out(DEVICE(codec), TLV320AIC3106_BCLK));
    clock_set_source(qdev_get_clock_in(mcasp, AM335X_MCASP_AFSX),
                     qdev_get_clock_out(DEVICE(codec), TLV320AIC3106_WCLK));
}

/*
 * The sensors on I2C1, where the stock DT lists them: the LIS331DLH
 * accelerometer at 0x18, the TSL2550 light sensor at 0x39 and the TMP275
 * temperature sensor at 0x48.  The TMP275 has the TMP105's registers and
 * configuration bits (a finer accuracy is all that tells them apart), so
 * QEMU's TMP105 stands for it; its "temperature" property is in m degC.
 * None of their interrupt or alert pins reaches the SoC in the DT.
 */
static void am335x_evm_sensors(MachineState *machine, AM335xSoCState *soc)
{
    I2CBus *i2c1 = soc->i2c[1].bus;
    static const struct {
        const char *type;
        uint8_t addr;
        const char *name;
    } sensors[] = {
        { TYPE_LIS331DLH, 0x18, "accelerometer" },
        { TYPE_TSL2550, 0x39, "light-sensor" },
        { TYPE_TMP105, 0x48, "temperature-sensor" },
    };

    for (int i = 0; i < ARRAY_SIZE(sensors); i++) {
        I2CSlave *dev = i2c_slave_new(sensors[i].type, sensors[i].addr);

        object_property_add_child(OBJECT(machine), sensors[i].name,
                                  OBJECT(dev));
        i2c_slave_realize_and_unref(dev, i2c1, &error_fatal);
    }
    /* a room at 25 degC */
    object_property_set_int(object_resolve_path_component(
                                OBJECT(machine), "temperature-sensor"),
                            "temperature", 25000, &error_fatal);
}

/*
 * The keypad's columns on GPIO1_21-22 and rows on GPIO1_25-27, the volume
 * keys on GPIO0_2-3, as the stock DT's matrix_keypad0 and volume-keys
 */
static void am335x_evm_keys(MachineState *machine, AM335xSoCState *soc)
{
    DeviceState *keys = qdev_new(TYPE_AM335X_EVM_KEYS);

    object_property_add_child(OBJECT(machine), "keys", OBJECT(keys));
    sysbus_realize_and_unref(SYS_BUS_DEVICE(keys), &error_fatal);
    for (int c = 0; c < AM335X_EVM_KEYPAD_COLS; c++) {
        qdev_connect_gpio_out(DEVICE(&soc->gpio[1]), 21 + c,
                              qdev_get_gpio_in_named(keys,
                                                     AM335X_EVM_KEYS_COL, c));
    }
    for (int r = 0; r < AM335X_EVM_KEYPAD_ROWS; r++) {
        qdev_connect_gpio_out_named(keys, AM335X_EVM_KEYS_ROW, r,
                                    qdev_get_gpio_in(DEVICE(&soc->gpio[1]),
                                                     25 + r));
    }
    for (int n = 0; n < AM335X_EVM_VOLUME_KEYS; n++) {
        qdev_connect_gpio_out_named(keys, AM335X_EVM_KEYS_VOLUME, n,
                                    qdev_get_gpio_in(DEVICE(&soc->gpio[0]),
                                                     2 + n));
    }
}

static void am335x_evm_init(MachineState *machine)
{
    AM335xSoCState *soc = am335x_board_init(machine, &am335x_evm_config);
    I2CBus *i2c0 = soc->i2c[0].bus;
    I2CSlave *pmic = i2c_slave_new(TYPE_TPS65910, TPS65910_I2C_ADDR);

    /* TPS65910 on I2C0; the stock DT gives it no interrupt */
    object_property_add_child(OBJECT(machine), "pmic", OBJECT(pmic));
    i2c_slave_realize_and_unref(pmic, i2c0, &error_fatal);

    /* Board ID EEPROM: a GP EVM 1.1A, which has DDR2 (see ddr_mhz) */
    am335x_board_eeprom_create(i2c0, AM335X_BOARD_EEPROM_ADDR, "A33515BB",
                               "1.1A", "0000EVM00000", &error_fatal);

    /* SD slot on MMC0, its detect switch on GPIO0_6 (low: card in) */
    am335x_board_sd_slot(soc, 0, 0, 0, 6);

    am335x_evm_nand(machine, soc);
    am335x_evm_codec(machine, soc);
    am335x_evm_sensors(machine, soc);
    am335x_evm_keys(machine, soc);
}

static void am335x_evm_machine_init(MachineClass *mc)
{
    am335x_board_class_init(mc);
    mc->desc = "TI AM335x EVM (Cortex-A8)";
    mc->init = am335x_evm_init;
    mc->default_ram_size = 256 * MiB;
}

DEFINE_MACHINE("am335x-evm", am335x_evm_machine_init)
