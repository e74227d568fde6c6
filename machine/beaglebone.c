/*
 * BeagleBone Black: AM3358, 512 MiB DDR3L, TPS65217C PMIC, LAN8710A PHY,
 * microSD slot and a 4 GB eMMC.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "hw/i2c/i2c.h"
#include "hw/i2c/tps65217.h"
#include "hw/i2c/am335x_board_eeprom.h"
#include "hw/display/tda19988.h"
#include "am335x_board.h"

static const AM335xBoardConfig beaglebone_black_config = {
    /* 24 MHz crystal; boot order MMC1 (eMMC), MMC0, UART0, USB0 */
    .sysboot = 0x401c,
    /* AM3358 */
    .dev_feature = 0x20fd0383,
    /* Locally chosen, in TI's OUI; -global am335x-control.mac-base= */
    .mac_base = "d0:39:72:33:5b:00",
    /* SMSC LAN8710A, MII, at MDIO address 0 */
    .eth_phy_id = AM335X_ETHPHY_ID_LAN8710A,
    /* U-Boot's SPL: MPU OPP Nitro 1 GHz, DDR3L at 400 MHz */
    .mpu_mhz = 1000,
    .ddr_mhz = 400,
    .pmic_power_en = true,
    /* HDMI audio: McASP0 to the TDA19988, AHCLKX from a 24.576 MHz clock */
    .audio_mcasp = 0,
    .audio_ahclkx_hz = 24576000,
};

static void beaglebone_black_init(MachineState *machine)
{
    AM335xSoCState *soc = am335x_board_init(machine,
                                            &beaglebone_black_config);
    I2CBus *i2c0 = soc->i2c[0].bus;
    I2CSlave *pmic = i2c_slave_new(TYPE_TPS65217, TPS65217_I2C_ADDR);
    TDA19988State *hdmi;

    /* TPS65217C on I2C0; its nINT goes to the INTC's NMI line 7 */
    object_property_add_child(OBJECT(machine), "pmic", OBJECT(pmic));
    i2c_slave_realize_and_unref(pmic, i2c0, &error_fatal);
    qdev_connect_gpio_out(DEVICE(pmic), 0, am335x_soc_irq(soc, 7));
    /* rtc-omap powers off through the PMIC: PMIC_POWER_EN -> PWR_EN */
    qdev_connect_gpio_out_named(DEVICE(&soc->rtc), AM335X_RTC_PMIC_POWER_EN,
                                0, qdev_get_gpio_in_named(DEVICE(pmic),
                                                          TPS65217_PWR_EN, 0));

    /*
     * The HDMI framer (TDA19988) on I2C0, fed by the LCDC; its INT output
     * is GPIO1_25, also the CEC calibration line
     */
    hdmi = tda19988_create(OBJECT(machine), "hdmi", i2c0, 0x70);
    qdev_connect_gpio_out_named(DEVICE(hdmi), TDA19988_INT, 0,
                                qdev_get_gpio_in(DEVICE(&soc->gpio[1]), 25));

    /* The board ID EEPROM that U-Boot and Linux read: a Rev C Black */
    am335x_board_eeprom_create(i2c0, AM335X_BOARD_EEPROM_ADDR, "A335BNLT",
                               "000C", "1813BBBK0000", &error_fatal);

    /* microSD slot on MMC0, its detect switch on GPIO0_6 (low: card in) */
    am335x_board_sd_slot(soc, 0, 0, 0, 6);
    /*
     * The 4 GB eMMC on MMC1, 8 bits wide.  The Rev C's (Kingston KE4CN2H5A
     * or Micron MTFC4GLDEA in its BOM) shows Linux two 2 MiB boot
     * partitions, mmcblk1boot0 and mmcblk1boot1.
     */
    am335x_board_emmc(soc, 1, 1, 2 * MiB);
}

static void beaglebone_black_machine_init(MachineClass *mc)
{
    am335x_board_class_init(mc);
    mc->desc = "BeagleBone Black (TI AM335x, Cortex-A8)";
    mc->init = beaglebone_black_init;
    mc->default_ram_size = 512 * MiB;
}

DEFINE_MACHINE("beaglebone-black", beaglebone_black_machine_init)
