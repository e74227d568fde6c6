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
    uint32_t eth_phy_id;    /* the Ethernet PHY at MDIO address 0 */
    uint32_t mpu_mhz;       /* MPU DPLL as the bootloader leaves it */
    uint32_t ddr_mhz;       /* DDR DPLL as the bootloader leaves it */
    /*
     * The RTC's PMIC_POWER_EN pin goes to a PMIC that decides about power
     * off; otherwise the pin dropping ends the machine directly.
     */
    bool pmic_power_en;
    /*
     * The LCD panel takes red from LCD_DATA[4:0] and blue from [15:11],
     * the wiring that suits the LCDC's 24-bit modes (the DT's
     * blue-and-red-wiring = "crossed").
     */
    bool lcd_rb_crossed;
    /* A 4-wire resistive touch panel on the TSC's AIN0-3 */
    bool touch_panel;
    /* The McASP whose serializers feed the board's audio output */
    int audio_mcasp;
    /* A clock on that McASP's AHCLKX pin, in Hz (0: none) */
    uint32_t audio_ahclkx_hz;
} AM335xBoardConfig;

/*
 * Creates and realizes the SoC, maps DDR and loads -kernel/-dtb/-initrd;
 * without -kernel, the ROM's MMC boot runs at each reset instead.
 */
AM335xSoCState *am335x_board_init(MachineState *machine,
                                  const AM335xBoardConfig *cfg);

/*
 * An SD card slot on MMCHS@mmc holding -drive if=sd,index=@index (an empty
 * slot without one), its card-detect switch on pin @cd_pin of GPIO
 * module @cd_gpio.
 */
void am335x_board_sd_slot(AM335xSoCState *soc, int mmc, int index,
                          int cd_gpio, int cd_pin);

/*
 * An eMMC on MMCHS@mmc from -drive if=sd,index=@index, whose image holds
 * the two boot partitions of @boot_size bytes each, then the user area;
 * nothing without the drive.
 */
void am335x_board_emmc(AM335xSoCState *soc, int mmc, int index,
                       uint64_t boot_size);

/* The machine's timing=on|off, for devices the boards make themselves */
bool am335x_board_timing_on(void);

/* Machine-class defaults common to both boards. */
void am335x_board_class_init(MachineClass *mc);

#endif
