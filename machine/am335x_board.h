/*
 * What the AM335x boards share: the SoC, DDR and the Linux boot path.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef AM335X_BOARD_H
#define AM335X_BOARD_H

#include "hw/boards.h"
#include "hw/arm/am335x_soc.h"

/* What differs between the boards' SoCs: straps, part and boot clocks. */
typedef struct AM335xBoardConfig {
    uint32_t sysboot;       /* SYSBOOT[15:0] pin straps */
    uint32_t dev_feature;   /* DEV_FEATURE: which AM335x part */
    const char *mac_base;   /* MAC ID efuses: MAC0, MAC1 = MAC0 + 1 */
    uint32_t mpu_mhz;       /* MPU DPLL as the bootloader leaves it */
    uint32_t ddr_mhz;       /* DDR DPLL as the bootloader leaves it */
    /*
     * The RTC's PMIC_POWER_EN pin goes to a PMIC that decides about power
     * off; otherwise the pin dropping ends the machine directly.
     */
    bool pmic_power_en;
} AM335xBoardConfig;

/* Creates and realizes the SoC, maps DDR and loads -kernel/-dtb/-initrd. */
AM335xSoCState *am335x_board_init(MachineState *machine,
                                  const AM335xBoardConfig *cfg);

/* Machine-class defaults common to both boards. */
void am335x_board_class_init(MachineClass *mc);

#endif
