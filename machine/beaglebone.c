/*
 * BeagleBone Black: AM3358, 512 MiB DDR3L, TPS65217C PMIC, LAN8710A PHY,
 * microSD slot and a 4 GB eMMC.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "am335x_board.h"

static const AM335xBoardConfig beaglebone_black_config = {
    /* 24 MHz crystal; boot order MMC1 (eMMC), MMC0, UART0, USB0 */
    .sysboot = 0x401c,
    /* AM3358 */
    .dev_feature = 0x20fd0383,
    /* Locally chosen, in TI's OUI; -global am335x-control.mac-base= */
    .mac_base = "d0:39:72:33:5b:00",
    /* U-Boot's SPL: MPU OPP Nitro 1 GHz, DDR3L at 400 MHz */
    .mpu_mhz = 1000,
    .ddr_mhz = 400,
};

static void beaglebone_black_init(MachineState *machine)
{
    am335x_board_init(machine, &beaglebone_black_config);
}

static void beaglebone_black_machine_init(MachineClass *mc)
{
    am335x_board_class_init(mc);
    mc->desc = "BeagleBone Black (TI AM335x, Cortex-A8)";
    mc->init = beaglebone_black_init;
    mc->default_ram_size = 512 * MiB;
}

DEFINE_MACHINE("beaglebone-black", beaglebone_black_machine_init)
