/*
 * TI AM335x Power, Reset and Clock Management (PRCM)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_MISC_AM335X_PRCM_H
#define HW_MISC_AM335X_PRCM_H

#include "hw/sysbus.h"
#include "qom/object.h"

#define TYPE_AM335X_PRCM "am335x-prcm"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xPrcmState, AM335X_PRCM)

#define AM335X_PRCM_MMIO_SIZE   0x2000
#define AM335X_PRCM_NUM_REGS    (AM335X_PRCM_MMIO_SIZE / 4)

/* Input GPIO pulsed by WDT1 when it expires: logged in PRM_RSTST. */
#define AM335X_PRCM_WDT_RESET   "wdt-reset"

/*
 * Clock outputs, named "timer0-fclk".."timer7-fclk",
 * "uart0-fclk".."uart5-fclk", "wdt1-fclk", "gpio0-dbclk", "i2c-fclk",
 * "mpu-clk", "gpio1-dbclk".."gpio3-dbclk", "adc-tsc-fclk" and "lcdc-fclk".
 */
enum {
    AM335X_PRCM_CLK_TIMER0,
    AM335X_PRCM_CLK_TIMER7 = AM335X_PRCM_CLK_TIMER0 + 7,
    AM335X_PRCM_CLK_UART0,
    AM335X_PRCM_CLK_UART5 = AM335X_PRCM_CLK_UART0 + 5,
    AM335X_PRCM_CLK_WDT1,
    AM335X_PRCM_CLK_GPIO0_DB,
    AM335X_PRCM_CLK_I2C,
    AM335X_PRCM_CLK_MPU,
    AM335X_PRCM_CLK_GPIO1_DB,
    AM335X_PRCM_CLK_GPIO3_DB = AM335X_PRCM_CLK_GPIO1_DB + 2,
    AM335X_PRCM_CLK_ADC_TSC,
    AM335X_PRCM_CLK_LCDC,
    AM335X_PRCM_NUM_CLOCKS
};

struct AM335xPrcmState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    Clock *clk[AM335X_PRCM_NUM_CLOCKS];

    /*
     * Register file, one word per 32-bit offset.  Status fields (IDLEST,
     * STBYST, CLKACTIVITY, DPLL and power state status) are computed on
     * read and never stored here.
     */
    uint32_t regs[AM335X_PRCM_NUM_REGS];
    /* PRM_RSTST bits that the next machine reset will log. */
    uint32_t pending_rstst;
    bool pending_cold;
    bool powered_on;

    /* Rates exposed read-only through QOM, recomputed with the clocks. */
    uint32_t mpu_clk_hz;
    uint32_t core_m4_hz;
    uint32_t per_m2_hz;

    /* Register kind and table index per offset, built at instance_init. */
    uint8_t reg_kind[AM335X_PRCM_NUM_REGS];
    uint8_t reg_index[AM335X_PRCM_NUM_REGS];

    /* DPLL settings U-Boot's SPL would have left, derived at realize. */
    uint32_t spl_mpu_clksel;
    uint32_t spl_ddr_clksel;
    uint32_t spl_core_clksel;
    uint32_t spl_per_clksel;

    /* Properties */
    uint32_t sys_clk_hz;
    uint32_t mpu_mhz;
    uint32_t ddr_mhz;
};

#endif
