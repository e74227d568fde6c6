/*
 * BeagleBone Black: AM3358, 512 MiB DDR3L, TPS65217C PMIC, LAN8710A PHY,
 * microSD slot and a 4 GB eMMC.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "am335x_board.h"

static void beaglebone_black_init(MachineState *machine)
{
    am335x_board_init(machine);
}

static void beaglebone_black_machine_init(MachineClass *mc)
{
    am335x_board_class_init(mc);
    mc->desc = "BeagleBone Black (TI AM335x, Cortex-A8)";
    mc->init = beaglebone_black_init;
    mc->default_ram_size = 512 * MiB;
}

DEFINE_MACHINE("beaglebone-black", beaglebone_black_machine_init)
