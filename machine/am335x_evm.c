/*
 * TI AM335x EVM (TMDXEVM3358): AM3359, 256 MiB DDR2 in the stock DT's
 * memory node, TPS65910 PMIC, AR8031 PHY, SD slot, 2 Gbit NAND on GPMC.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "am335x_board.h"

static const AM335xBoardConfig am335x_evm_config = {
    /* 24 MHz crystal; DIP switches set to boot MMC0, SPI0, UART0, USB0 */
    .sysboot = 0x4017,
    /* AM3359 */
    .dev_feature = 0x20ff0383,
    .mac_base = "c8:a0:30:33:5e:00",
    /* U-Boot's SPL: MPU OPP120 720 MHz, DDR2 at 266 MHz */
    .mpu_mhz = 720,
    .ddr_mhz = 266,
};

static void am335x_evm_init(MachineState *machine)
{
    am335x_board_init(machine, &am335x_evm_config);
}

static void am335x_evm_machine_init(MachineClass *mc)
{
    am335x_board_class_init(mc);
    mc->desc = "TI AM335x EVM (Cortex-A8)";
    mc->init = am335x_evm_init;
    mc->default_ram_size = 256 * MiB;
}

DEFINE_MACHINE("am335x-evm", am335x_evm_machine_init)
