/*
 * The AM335x's public ROM code, for a memory boot from MMC: see
 * am335x_rom_boot.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef AM335X_ROM_BOOT_H
#define AM335X_ROM_BOOT_H

#include "hw/arm/am335x_soc.h"

/*
 * The medium on MMCHS@mmc, for the ROM to boot from: @blk, whose user area
 * (where the ROM looks) starts @offset bytes in.
 */
void am335x_rom_boot_set_medium(int mmc, BlockBackend *blk, uint64_t offset);

/*
 * From each system reset on, do what the ROM does before it starts the
 * first-stage loader: find it by the SYSBOOT straps @sysboot, copy it into
 * the SRAM and start @cpu there.  For a machine without -kernel; register
 * after arm_load_kernel(), whose CPU reset must come first.
 */
void am335x_rom_boot_init(ARMCPU *cpu, uint32_t sysboot);

#endif
