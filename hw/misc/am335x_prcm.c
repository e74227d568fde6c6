/*
 * TI AM335x Power, Reset and Clock Management (PRCM)
 *
 * One 8 KiB block at 0x44E00000 holds the clock managers (CM_PER, CM_WKUP,
 * CM_DPLL, CM_MPU, CM_DEVICE, CM_RTC, CM_GFX, CM_CEFUSE) and the power and
 * reset managers (PRM_IRQ, PRM_PER, PRM_WKUP, PRM_MPU, PRM_DEVICE, PRM_RTC,
 * PRM_GFX, PRM_CEFUSE).
 *
 * What is modelled:
 *  - every module's CLKCTRL: MODULEMODE drives IDLEST and STBYST at once,
 *    so the clkctrl and ti-sysc drivers see modules enable and disable;
 *  - every clock domain's CLKSTCTRL: CLKTRCTRL is kept, and the
 *    CLKACTIVITY bits show running clocks unless the domain is forced to
 *    sleep;
 *  - the five DPLLs (lock/bypass, M/N, post-dividers with DIVCHACK and
 *    output status) and the clock muxes of CM_DPLL.  The resulting rates
 *    leave the device as QEMU Clocks that the timers, UARTs, watchdog,
 *    GPIO0 and I2C controllers consume; a module's functional clock is
 *    gated while its MODULEMODE is disabled;
 *  - power domain control and status, the domains' local reset lines with
 *    their status registers, and the global software resets with the
 *    PRM_RSTST reset log, which survives the reset it describes.
 *
 * The machine boots Linux directly, without ROM code or U-Boot, so the
 * reset state is not the TRM's power-on state but the state U-Boot's SPL
 * leaves behind: DPLLs locked at their operating points and the modules
 * the SPL enables switched on.  A kernel started by the SPL finds exactly
 * this, and relies on it (for instance the console UART is clocked before
 * any clock driver runs).
 *
 * Not modelled: transition delays (every request completes within the
 * access), PRCM interrupts (no event sets PRM_IRQSTATUS_*), spread
 * spectrum and DPLL auto-idle (stored only), the CLKINPULOW bypass clock,
 * the effect of a sleeping clock domain on its modules, clocks from the
 * TCLKIN pin, and the warm-reset-insensitive registers (a warm reset runs
 * the SPL again, which programs them back to the same values).
 *
 * Reference: AM335x Technical Reference Manual (SPRUH73), chapter 8
 * (PRCM), sections 8.1.6 (clock generation), 8.1.12 (CM registers) and
 * 8.1.13 (PRM registers).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/host-utils.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qapi/error.h"
#include "hw/clock.h"
#include "hw/misc/am335x_prcm.h"
#include "hw/qdev-clock.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "system/runstate.h"
#include "trace.h"

/* CM_PER: peripheral clock manager (TRM table 8-30) */
REG32(CM_PER_L4LS_CLKSTCTRL, 0x000)
REG32(CM_PER_L3S_CLKSTCTRL, 0x004)
REG32(CM_PER_L4FW_CLKSTCTRL, 0x008)
REG32(CM_PER_L3_CLKSTCTRL, 0x00c)
REG32(CM_PER_CPGMAC0_CLKCTRL, 0x014)
REG32(CM_PER_LCDC_CLKCTRL, 0x018)
REG32(CM_PER_USB0_CLKCTRL, 0x01c)
REG32(CM_PER_TPTC0_CLKCTRL, 0x024)
REG32(CM_PER_EMIF_CLKCTRL, 0x028)
REG32(CM_PER_OCMCRAM_CLKCTRL, 0x02c)
REG32(CM_PER_GPMC_CLKCTRL, 0x030)
REG32(CM_PER_MCASP0_CLKCTRL, 0x034)
REG32(CM_PER_UART5_CLKCTRL, 0x038)
REG32(CM_PER_MMC0_CLKCTRL, 0x03c)
REG32(CM_PER_ELM_CLKCTRL, 0x040)
REG32(CM_PER_I2C2_CLKCTRL, 0x044)
REG32(CM_PER_I2C1_CLKCTRL, 0x048)
REG32(CM_PER_SPI0_CLKCTRL, 0x04c)
REG32(CM_PER_SPI1_CLKCTRL, 0x050)
REG32(CM_PER_L4LS_CLKCTRL, 0x060)
REG32(CM_PER_L4FW_CLKCTRL, 0x064)
REG32(CM_PER_MCASP1_CLKCTRL, 0x068)
REG32(CM_PER_UART1_CLKCTRL, 0x06c)
REG32(CM_PER_UART2_CLKCTRL, 0x070)
REG32(CM_PER_UART3_CLKCTRL, 0x074)
REG32(CM_PER_UART4_CLKCTRL, 0x078)
REG32(CM_PER_TIMER7_CLKCTRL, 0x07c)
REG32(CM_PER_TIMER2_CLKCTRL, 0x080)
REG32(CM_PER_TIMER3_CLKCTRL, 0x084)
REG32(CM_PER_TIMER4_CLKCTRL, 0x088)
REG32(CM_PER_RNG_CLKCTRL, 0x090)
REG32(CM_PER_AES0_CLKCTRL, 0x094)
REG32(CM_PER_SHA0_CLKCTRL, 0x0a0)
REG32(CM_PER_GPIO1_CLKCTRL, 0x0ac)
REG32(CM_PER_GPIO2_CLKCTRL, 0x0b0)
REG32(CM_PER_GPIO3_CLKCTRL, 0x0b4)
REG32(CM_PER_TPCC_CLKCTRL, 0x0bc)
REG32(CM_PER_DCAN0_CLKCTRL, 0x0c0)
REG32(CM_PER_DCAN1_CLKCTRL, 0x0c4)
REG32(CM_PER_EPWMSS1_CLKCTRL, 0x0cc)
REG32(CM_PER_EMIF_FW_CLKCTRL, 0x0d0)
REG32(CM_PER_EPWMSS0_CLKCTRL, 0x0d4)
REG32(CM_PER_EPWMSS2_CLKCTRL, 0x0d8)
REG32(CM_PER_L3_INSTR_CLKCTRL, 0x0dc)
REG32(CM_PER_L3_CLKCTRL, 0x0e0)
REG32(CM_PER_IEEE5000_CLKCTRL, 0x0e4)
REG32(CM_PER_PRU_ICSS_CLKCTRL, 0x0e8)
REG32(CM_PER_TIMER5_CLKCTRL, 0x0ec)
REG32(CM_PER_TIMER6_CLKCTRL, 0x0f0)
REG32(CM_PER_MMC1_CLKCTRL, 0x0f4)
REG32(CM_PER_MMC2_CLKCTRL, 0x0f8)
REG32(CM_PER_TPTC1_CLKCTRL, 0x0fc)
REG32(CM_PER_TPTC2_CLKCTRL, 0x100)
REG32(CM_PER_SPINLOCK_CLKCTRL, 0x10c)
REG32(CM_PER_MAILBOX0_CLKCTRL, 0x110)
REG32(CM_PER_L4HS_CLKSTCTRL, 0x11c)
REG32(CM_PER_L4HS_CLKCTRL, 0x120)
REG32(CM_PER_OCPWP_L3_CLKSTCTRL, 0x12c)
REG32(CM_PER_OCPWP_CLKCTRL, 0x130)
REG32(CM_PER_PRU_ICSS_CLKSTCTRL, 0x140)
REG32(CM_PER_CPSW_CLKSTCTRL, 0x144)
REG32(CM_PER_LCDC_CLKSTCTRL, 0x148)
REG32(CM_PER_CLKDIV32K_CLKCTRL, 0x14c)
REG32(CM_PER_CLK_24MHZ_CLKSTCTRL, 0x150)

/* CM_WKUP: wakeup domain clock manager and the DPLLs (TRM table 8-89) */
REG32(CM_WKUP_CLKSTCTRL, 0x400)
REG32(CM_WKUP_CONTROL_CLKCTRL, 0x404)
REG32(CM_WKUP_GPIO0_CLKCTRL, 0x408)
REG32(CM_WKUP_L4WKUP_CLKCTRL, 0x40c)
REG32(CM_WKUP_TIMER0_CLKCTRL, 0x410)
REG32(CM_WKUP_DEBUGSS_CLKCTRL, 0x414)
REG32(CM_L3_AON_CLKSTCTRL, 0x418)
REG32(CM_AUTOIDLE_DPLL_MPU, 0x41c)
REG32(CM_IDLEST_DPLL_MPU, 0x420)
REG32(CM_SSC_DELTAMSTEP_DPLL_MPU, 0x424)
REG32(CM_SSC_MODFREQDIV_DPLL_MPU, 0x428)
REG32(CM_CLKSEL_DPLL_MPU, 0x42c)
REG32(CM_AUTOIDLE_DPLL_DDR, 0x430)
REG32(CM_IDLEST_DPLL_DDR, 0x434)
REG32(CM_SSC_DELTAMSTEP_DPLL_DDR, 0x438)
REG32(CM_SSC_MODFREQDIV_DPLL_DDR, 0x43c)
REG32(CM_CLKSEL_DPLL_DDR, 0x440)
REG32(CM_AUTOIDLE_DPLL_DISP, 0x444)
REG32(CM_IDLEST_DPLL_DISP, 0x448)
REG32(CM_SSC_DELTAMSTEP_DPLL_DISP, 0x44c)
REG32(CM_SSC_MODFREQDIV_DPLL_DISP, 0x450)
REG32(CM_CLKSEL_DPLL_DISP, 0x454)
REG32(CM_AUTOIDLE_DPLL_CORE, 0x458)
REG32(CM_IDLEST_DPLL_CORE, 0x45c)
REG32(CM_SSC_DELTAMSTEP_DPLL_CORE, 0x460)
REG32(CM_SSC_MODFREQDIV_DPLL_CORE, 0x464)
REG32(CM_CLKSEL_DPLL_CORE, 0x468)
REG32(CM_AUTOIDLE_DPLL_PER, 0x46c)
REG32(CM_IDLEST_DPLL_PER, 0x470)
REG32(CM_SSC_DELTAMSTEP_DPLL_PER, 0x474)
REG32(CM_SSC_MODFREQDIV_DPLL_PER, 0x478)
REG32(CM_CLKDCOLDO_DPLL_PER, 0x47c)
    FIELD(CM_CLKDCOLDO_DPLL_PER, ST, 9, 1)
    FIELD(CM_CLKDCOLDO_DPLL_PER, PWDN, 12, 1)
REG32(CM_DIV_M4_DPLL_CORE, 0x480)
REG32(CM_DIV_M5_DPLL_CORE, 0x484)
REG32(CM_CLKMODE_DPLL_MPU, 0x488)
REG32(CM_CLKMODE_DPLL_PER, 0x48c)
REG32(CM_CLKMODE_DPLL_CORE, 0x490)
REG32(CM_CLKMODE_DPLL_DDR, 0x494)
REG32(CM_CLKMODE_DPLL_DISP, 0x498)
REG32(CM_CLKSEL_DPLL_PERIPH, 0x49c)
    FIELD(CM_CLKSEL_DPLL_PERIPH, DIV, 0, 8)
    FIELD(CM_CLKSEL_DPLL_PERIPH, MULT, 8, 12)
    FIELD(CM_CLKSEL_DPLL_PERIPH, SD_DIV, 24, 8)
REG32(CM_DIV_M2_DPLL_DDR, 0x4a0)
REG32(CM_DIV_M2_DPLL_DISP, 0x4a4)
REG32(CM_DIV_M2_DPLL_MPU, 0x4a8)
REG32(CM_DIV_M2_DPLL_PER, 0x4ac)
    FIELD(CM_DIV_M2_DPLL_PER, DIV, 0, 7)
    FIELD(CM_DIV_M2_DPLL_PER, DIVCHACK, 7, 1)
REG32(CM_WKUP_WKUP_M3_CLKCTRL, 0x4b0)
REG32(CM_WKUP_UART0_CLKCTRL, 0x4b4)
REG32(CM_WKUP_I2C0_CLKCTRL, 0x4b8)
REG32(CM_WKUP_ADC_TSC_CLKCTRL, 0x4bc)
REG32(CM_WKUP_SMARTREFLEX0_CLKCTRL, 0x4c0)
REG32(CM_WKUP_TIMER1_CLKCTRL, 0x4c4)
REG32(CM_WKUP_SMARTREFLEX1_CLKCTRL, 0x4c8)
REG32(CM_L4_WKUP_AON_CLKSTCTRL, 0x4cc)
REG32(CM_WKUP_WDT1_CLKCTRL, 0x4d4)
REG32(CM_DIV_M6_DPLL_CORE, 0x4d8)

/* CM_DPLL: functional clock multiplexers (TRM table 8-144) */
REG32(CLKSEL_TIMER7_CLK, 0x504)
REG32(CLKSEL_TIMER2_CLK, 0x508)
REG32(CLKSEL_TIMER3_CLK, 0x50c)
REG32(CLKSEL_TIMER4_CLK, 0x510)
REG32(CM_MAC_CLKSEL, 0x514)
REG32(CLKSEL_TIMER5_CLK, 0x518)
REG32(CLKSEL_TIMER6_CLK, 0x51c)
REG32(CM_CPTS_RFT_CLKSEL, 0x520)
REG32(CLKSEL_TIMER1MS_CLK, 0x528)
REG32(CLKSEL_GFX_FCLK, 0x52c)
REG32(CLKSEL_PRU_ICSS_OCP_CLK, 0x530)
REG32(CLKSEL_LCDC_PIXEL_CLK, 0x534)
REG32(CLKSEL_WDT1_CLK, 0x538)
REG32(CLKSEL_GPIO0_DBCLK, 0x53c)

/* CM_MPU, CM_DEVICE, CM_RTC, CM_GFX, CM_CEFUSE */
REG32(CM_MPU_CLKSTCTRL, 0x600)
REG32(CM_MPU_MPU_CLKCTRL, 0x604)
REG32(CM_CLKOUT_CTRL, 0x700)
REG32(CM_RTC_RTC_CLKCTRL, 0x800)
REG32(CM_RTC_CLKSTCTRL, 0x804)
REG32(CM_GFX_L3_CLKSTCTRL, 0x900)
REG32(CM_GFX_GFX_CLKCTRL, 0x904)
REG32(CM_GFX_L4LS_GFX_CLKSTCTRL, 0x90c)
REG32(CM_GFX_MMUCFG_CLKCTRL, 0x910)
REG32(CM_GFX_MMUDATA_CLKCTRL, 0x914)
REG32(CM_CEFUSE_CLKSTCTRL, 0xa00)
REG32(CM_CEFUSE_CEFUSE_CLKCTRL, 0xa20)

/* PRM_IRQ (TRM table 8-176) */
REG32(REVISION_PRM, 0xb00)
REG32(PRM_IRQSTATUS_MPU, 0xb04)
REG32(PRM_IRQENABLE_MPU, 0xb08)
REG32(PRM_IRQSTATUS_M3, 0xb0c)
REG32(PRM_IRQENABLE_M3, 0xb10)

/* PRM_PER, PRM_WKUP, PRM_MPU */
REG32(RM_PER_RSTCTRL, 0xc00)
REG32(PM_PER_PWRSTST, 0xc08)
REG32(PM_PER_PWRSTCTRL, 0xc0c)
REG32(RM_WKUP_RSTCTRL, 0xd00)
    FIELD(RM_WKUP_RSTCTRL, WKUP_M3_LRST, 3, 1)
REG32(PM_WKUP_PWRSTCTRL, 0xd04)
REG32(PM_WKUP_PWRSTST, 0xd08)
REG32(RM_WKUP_RSTST, 0xd0c)
    FIELD(RM_WKUP_RSTST, WKUP_M3_LRST, 5, 1)
REG32(PM_MPU_PWRSTCTRL, 0xe00)
REG32(PM_MPU_PWRSTST, 0xe04)
REG32(RM_MPU_RSTST, 0xe08)

/* PRM_DEVICE: global resets (TRM table 8-195) */
REG32(PRM_RSTCTRL, 0xf00)
    FIELD(PRM_RSTCTRL, RST_GLOBAL_WARM_SW, 0, 1)
    FIELD(PRM_RSTCTRL, RST_GLOBAL_COLD_SW, 1, 1)
REG32(PRM_RSTTIME, 0xf04)
REG32(PRM_RSTST, 0xf08)
    FIELD(PRM_RSTST, GLOBAL_COLD_RST, 0, 1)
    FIELD(PRM_RSTST, GLOBAL_WARM_SW_RST, 1, 1)
    FIELD(PRM_RSTST, WDT1_RST, 4, 1)
    FIELD(PRM_RSTST, EXTERNAL_WARM_RST, 5, 1)
    FIELD(PRM_RSTST, ICEPICK_RST, 9, 1)
REG32(PRM_SRAM_COUNT, 0xf0c)
REG32(PRM_LDO_SRAM_CORE_SETUP, 0xf10)
REG32(PRM_LDO_SRAM_CORE_CTRL, 0xf14)
REG32(PRM_LDO_SRAM_MPU_SETUP, 0xf18)
REG32(PRM_LDO_SRAM_MPU_CTRL, 0xf1c)

/* PRM_RTC, PRM_GFX, PRM_CEFUSE */
REG32(PM_RTC_PWRSTCTRL, 0x1000)
REG32(PM_RTC_PWRSTST, 0x1004)
REG32(PM_GFX_PWRSTCTRL, 0x1100)
REG32(RM_GFX_RSTCTRL, 0x1104)
    FIELD(RM_GFX_RSTCTRL, GFX_RST, 0, 1)
REG32(PM_GFX_PWRSTST, 0x1110)
REG32(RM_GFX_RSTST, 0x1114)
    FIELD(RM_GFX_RSTST, GFX_RST, 0, 1)
REG32(PM_CEFUSE_PWRSTCTRL, 0x1200)
REG32(PM_CEFUSE_PWRSTST, 0x1204)

/* Fields shared by every register of one kind */
FIELD(CLKCTRL, MODULEMODE, 0, 2)
FIELD(CLKCTRL, IDLEST, 16, 2)
FIELD(CLKCTRL, STBYST, 18, 1)
FIELD(CLKSTCTRL, CLKTRCTRL, 0, 2)
FIELD(CLKMODE_DPLL, DPLL_EN, 0, 3)
FIELD(CLKMODE_DPLL, SSC_EN, 12, 1)
FIELD(CLKMODE_DPLL, SSC_ACK, 13, 1)
FIELD(IDLEST_DPLL, ST_DPLL_CLK, 0, 1)
FIELD(IDLEST_DPLL, ST_MN_BYPASS, 8, 1)
FIELD(CLKSEL_DPLL, DIV, 0, 7)
FIELD(CLKSEL_DPLL, MULT, 8, 11)
FIELD(CLKSEL_DPLL, BYP_CLKSEL, 23, 1)
FIELD(DIV_DPLL, DIV, 0, 5)
FIELD(DIV_DPLL, DIVCHACK, 5, 1)
FIELD(DIV_DPLL, ST, 9, 1)
FIELD(DIV_DPLL, PWDN, 12, 1)
FIELD(PWRSTCTRL, POWERSTATE, 0, 2)
FIELD(PWRSTCTRL, LOWPOWERSTATECHANGE, 4, 1)
FIELD(PWRSTST, POWERSTATEST, 0, 2)
FIELD(PWRSTST, LOGICSTATEST, 2, 1)

#define MODULEMODE_DISABLED     0
#define MODULEMODE_ENABLED      2
#define IDLEST_DISABLED         3
#define CLKTRCTRL_SW_SLEEP      1
#define CLKTRCTRL_SW_WKUP       2

/*
 * DPLL_EN encodings (TRM 8.1.12.2.35).  CM_IDLEST_DPLL_* shows ST_DPLL_CLK
 * when locked and ST_MN_BYPASS in MN bypass only; in the idle bypass modes
 * both read 0, which is all Linux waits for when it bypasses a DPLL.
 */
#define DPLL_EN_MN_BYPASS       4
#define DPLL_EN_LP_BYPASS       5
#define DPLL_EN_FR_BYPASS       6
#define DPLL_EN_LOCK            7

#define POWERSTATE_OFF          0
#define POWERSTATE_RET          1
#define POWERSTATE_INACT        2
#define POWERSTATE_ON           3

/*
 * Fixed sources (TRM 8.1.6.2): the on-chip RC oscillator, nominally
 * 32 kHz, and the RTC's 32.768 kHz crystal.  CLK_32KHZ is made in the PER
 * domain from CLK_24 (PER CLKOUT M2 / 8) divided by 732.4219, which gives
 * 32768 Hz when the PER DPLL runs at its 192 MHz operating point.
 */
#define CLK_RC32K_HZ            32000
#define CLK_32768_HZ            32768
#define CLK_32KHZ_HZ            32768
#define PER_M2_NOMINAL_HZ       192000000

/*
 * Lock range, as the rate ahead of the post-dividers: an ADPLLS (MPU,
 * CORE, DDR, DISP) locks up to 2 GHz at CLKDCOLDO, twice CLKOUT, and the
 * ADPLLLJ (PER) up to 2 GHz (TRM 8.1.6.3, 8.1.6.4; Linux's limits agree).
 */
#define ADPLLS_MAX_HZ           1000000000ULL
#define ADPLLLJ_MAX_HZ          2000000000ULL

enum {
    DPLL_MPU,
    DPLL_CORE,
    DPLL_PER,
    DPLL_DDR,
    DPLL_DISP,
    NUM_DPLLS
};

typedef enum {
    DPLL_STOPPED,
    DPLL_BYPASS,        /* MN bypass */
    DPLL_IDLE_BYPASS,   /* low-power or fast-relock idle bypass */
    DPLL_LOCKED,
    DPLL_UNLOCKED,      /* asked to lock outside its lock range */
} Am335xDpllState;

typedef struct Am335xDpll {
    const char *name;
    uint16_t clkmode;
    uint16_t clksel;
    bool jtype;         /* ADPLLLJ: 12-bit M, 8-bit N, no x2 output */
} Am335xDpll;

static const Am335xDpll am335x_dplls[NUM_DPLLS] = {
    [DPLL_MPU] = { "mpu", A_CM_CLKMODE_DPLL_MPU, A_CM_CLKSEL_DPLL_MPU, false },
    [DPLL_CORE] = { "core", A_CM_CLKMODE_DPLL_CORE, A_CM_CLKSEL_DPLL_CORE,
                    false },
    [DPLL_PER] = { "per", A_CM_CLKMODE_DPLL_PER, A_CM_CLKSEL_DPLL_PERIPH,
                   true },
    [DPLL_DDR] = { "ddr", A_CM_CLKMODE_DPLL_DDR, A_CM_CLKSEL_DPLL_DDR, false },
    [DPLL_DISP] = { "disp", A_CM_CLKMODE_DPLL_DISP, A_CM_CLKSEL_DPLL_DISP,
                    false },
};

/*
 * Module clock control.  MSTANDBY: the module has an initiator port and a
 * STBYST bit.  POR_ON: MODULEMODE resets to "enabled" (TRM).  SPL_ON: the
 * SPL enables it (U-Boot arch/arm/mach-omap2/am33xx/clock_am33xx.c,
 * setup_clocks_for_console() and enable_basic_clocks()).  MODE_RO: the
 * module cannot be disabled.  NO_IDLEST: no IDLEST field.
 */
#define CLKCTRL_MSTANDBY        (1 << 0)
#define CLKCTRL_POR_ON          (1 << 1)
#define CLKCTRL_SPL_ON          (1 << 2)
#define CLKCTRL_MODE_RO         (1 << 3)
#define CLKCTRL_NO_IDLEST       (1 << 4)

/* GPIOn_CLKCTRL: OPTFCLKEN_GPIOn_GDBCLK, the debounce clock gate */
#define CLKCTRL_GPIO_DBCLK      (1 << 18)
/* DEBUGSS_CLKCTRL: trace/STM clock selects and optional clocks */
#define CLKCTRL_DEBUGSS_OPT     0x7ff80000
#define CLKCTRL_DEBUGSS_RESET   0x52580000

typedef struct Am335xClkctrl {
    uint16_t offset;
    uint8_t flags;
    uint32_t opt_mask;  /* R/W fields other than MODULEMODE */
    uint32_t opt_reset;
    const char *name;
} Am335xClkctrl;

#define CLKCTRL(reg, fl)    { A_##reg, (fl), 0, 0, #reg }

/*
 * Every module of the TRM's CM tables, plus four that revision Q of the
 * TRM dropped but Linux and U-Boot still use: L4FW and EMIF_FW (U-Boot
 * enables them) and RNG, AES0 and SHA0 (am3.h clkctrl indexes).
 */
static const Am335xClkctrl am335x_clkctrl[] = {
    /* CM_PER */
    CLKCTRL(CM_PER_CPGMAC0_CLKCTRL, CLKCTRL_MSTANDBY | CLKCTRL_SPL_ON),
    CLKCTRL(CM_PER_LCDC_CLKCTRL, CLKCTRL_MSTANDBY),
    CLKCTRL(CM_PER_USB0_CLKCTRL, CLKCTRL_MSTANDBY | CLKCTRL_SPL_ON),
    CLKCTRL(CM_PER_TPTC0_CLKCTRL, CLKCTRL_MSTANDBY),
    CLKCTRL(CM_PER_EMIF_CLKCTRL, CLKCTRL_SPL_ON),
    CLKCTRL(CM_PER_OCMCRAM_CLKCTRL, 0),
    CLKCTRL(CM_PER_GPMC_CLKCTRL, CLKCTRL_POR_ON | CLKCTRL_SPL_ON),
    CLKCTRL(CM_PER_MCASP0_CLKCTRL, 0),
    CLKCTRL(CM_PER_UART5_CLKCTRL, CLKCTRL_SPL_ON),
    CLKCTRL(CM_PER_MMC0_CLKCTRL, CLKCTRL_SPL_ON),
    CLKCTRL(CM_PER_ELM_CLKCTRL, CLKCTRL_SPL_ON),
    CLKCTRL(CM_PER_I2C2_CLKCTRL, CLKCTRL_SPL_ON),
    CLKCTRL(CM_PER_I2C1_CLKCTRL, CLKCTRL_SPL_ON),
    CLKCTRL(CM_PER_SPI0_CLKCTRL, CLKCTRL_SPL_ON),
    CLKCTRL(CM_PER_SPI1_CLKCTRL, 0),
    CLKCTRL(CM_PER_L4LS_CLKCTRL, CLKCTRL_POR_ON | CLKCTRL_SPL_ON),
    CLKCTRL(CM_PER_L4FW_CLKCTRL, CLKCTRL_POR_ON | CLKCTRL_SPL_ON),
    CLKCTRL(CM_PER_MCASP1_CLKCTRL, 0),
    CLKCTRL(CM_PER_UART1_CLKCTRL, CLKCTRL_SPL_ON),
    CLKCTRL(CM_PER_UART2_CLKCTRL, CLKCTRL_SPL_ON),
    CLKCTRL(CM_PER_UART3_CLKCTRL, CLKCTRL_SPL_ON),
    CLKCTRL(CM_PER_UART4_CLKCTRL, CLKCTRL_SPL_ON),
    CLKCTRL(CM_PER_TIMER7_CLKCTRL, 0),
    CLKCTRL(CM_PER_TIMER2_CLKCTRL, CLKCTRL_SPL_ON),
    CLKCTRL(CM_PER_TIMER3_CLKCTRL, 0),
    CLKCTRL(CM_PER_TIMER4_CLKCTRL, 0),
    CLKCTRL(CM_PER_RNG_CLKCTRL, 0),
    CLKCTRL(CM_PER_AES0_CLKCTRL, 0),
    CLKCTRL(CM_PER_SHA0_CLKCTRL, 0),
    { A_CM_PER_GPIO1_CLKCTRL, CLKCTRL_SPL_ON, CLKCTRL_GPIO_DBCLK, 0,
      "CM_PER_GPIO1_CLKCTRL" },
    { A_CM_PER_GPIO2_CLKCTRL, CLKCTRL_SPL_ON, CLKCTRL_GPIO_DBCLK, 0,
      "CM_PER_GPIO2_CLKCTRL" },
    { A_CM_PER_GPIO3_CLKCTRL, CLKCTRL_SPL_ON, CLKCTRL_GPIO_DBCLK, 0,
      "CM_PER_GPIO3_CLKCTRL" },
    CLKCTRL(CM_PER_TPCC_CLKCTRL, 0),
    CLKCTRL(CM_PER_DCAN0_CLKCTRL, 0),
    CLKCTRL(CM_PER_DCAN1_CLKCTRL, 0),
    CLKCTRL(CM_PER_EPWMSS1_CLKCTRL, 0),
    CLKCTRL(CM_PER_EMIF_FW_CLKCTRL, CLKCTRL_POR_ON | CLKCTRL_SPL_ON),
    CLKCTRL(CM_PER_EPWMSS0_CLKCTRL, 0),
    CLKCTRL(CM_PER_EPWMSS2_CLKCTRL, 0),
    CLKCTRL(CM_PER_L3_INSTR_CLKCTRL, CLKCTRL_POR_ON | CLKCTRL_SPL_ON),
    CLKCTRL(CM_PER_L3_CLKCTRL, CLKCTRL_POR_ON | CLKCTRL_SPL_ON),
    CLKCTRL(CM_PER_IEEE5000_CLKCTRL, CLKCTRL_MSTANDBY | CLKCTRL_POR_ON),
    CLKCTRL(CM_PER_PRU_ICSS_CLKCTRL, CLKCTRL_MSTANDBY),
    CLKCTRL(CM_PER_TIMER5_CLKCTRL, 0),
    CLKCTRL(CM_PER_TIMER6_CLKCTRL, 0),
    CLKCTRL(CM_PER_MMC1_CLKCTRL, CLKCTRL_SPL_ON),
    CLKCTRL(CM_PER_MMC2_CLKCTRL, 0),
    CLKCTRL(CM_PER_TPTC1_CLKCTRL, CLKCTRL_MSTANDBY),
    CLKCTRL(CM_PER_TPTC2_CLKCTRL, CLKCTRL_MSTANDBY),
    CLKCTRL(CM_PER_SPINLOCK_CLKCTRL, 0),
    CLKCTRL(CM_PER_MAILBOX0_CLKCTRL, 0),
    CLKCTRL(CM_PER_L4HS_CLKCTRL, CLKCTRL_POR_ON | CLKCTRL_SPL_ON),
    CLKCTRL(CM_PER_OCPWP_CLKCTRL, CLKCTRL_MSTANDBY | CLKCTRL_POR_ON),
    CLKCTRL(CM_PER_CLKDIV32K_CLKCTRL, 0),
    /* CM_WKUP */
    CLKCTRL(CM_WKUP_CONTROL_CLKCTRL, CLKCTRL_SPL_ON),
    { A_CM_WKUP_GPIO0_CLKCTRL, CLKCTRL_SPL_ON, CLKCTRL_GPIO_DBCLK, 0,
      "CM_WKUP_GPIO0_CLKCTRL" },
    CLKCTRL(CM_WKUP_L4WKUP_CLKCTRL, CLKCTRL_POR_ON | CLKCTRL_MODE_RO),
    CLKCTRL(CM_WKUP_TIMER0_CLKCTRL, CLKCTRL_POR_ON),
    { A_CM_WKUP_DEBUGSS_CLKCTRL, CLKCTRL_MSTANDBY | CLKCTRL_POR_ON,
      CLKCTRL_DEBUGSS_OPT, CLKCTRL_DEBUGSS_RESET, "CM_WKUP_DEBUGSS_CLKCTRL" },
    CLKCTRL(CM_WKUP_WKUP_M3_CLKCTRL, CLKCTRL_MSTANDBY | CLKCTRL_POR_ON |
                                     CLKCTRL_MODE_RO | CLKCTRL_NO_IDLEST),
    CLKCTRL(CM_WKUP_UART0_CLKCTRL, CLKCTRL_SPL_ON),
    CLKCTRL(CM_WKUP_I2C0_CLKCTRL, CLKCTRL_SPL_ON),
    CLKCTRL(CM_WKUP_ADC_TSC_CLKCTRL, 0),
    CLKCTRL(CM_WKUP_SMARTREFLEX0_CLKCTRL, 0),
    CLKCTRL(CM_WKUP_TIMER1_CLKCTRL, 0),
    CLKCTRL(CM_WKUP_SMARTREFLEX1_CLKCTRL, 0),
    CLKCTRL(CM_WKUP_WDT1_CLKCTRL, CLKCTRL_POR_ON),
    /* CM_MPU, CM_RTC, CM_GFX, CM_CEFUSE */
    CLKCTRL(CM_MPU_MPU_CLKCTRL, CLKCTRL_MSTANDBY | CLKCTRL_POR_ON),
    CLKCTRL(CM_RTC_RTC_CLKCTRL, CLKCTRL_POR_ON | CLKCTRL_SPL_ON),
    CLKCTRL(CM_GFX_GFX_CLKCTRL, CLKCTRL_MSTANDBY),
    CLKCTRL(CM_GFX_MMUCFG_CLKCTRL, 0),
    CLKCTRL(CM_GFX_MMUDATA_CLKCTRL, 0),
    CLKCTRL(CM_CEFUSE_CEFUSE_CLKCTRL, 0),
};

/* Clock domains: the CLKACTIVITY_* bits each CLKSTCTRL has (TRM 8.1.12) */
typedef struct Am335xClkstctrl {
    uint16_t offset;
    bool ro;            /* CLKTRCTRL is fixed at SW_WKUP */
    uint32_t activity;
    const char *name;
} Am335xClkstctrl;

#define CLKSTCTRL(reg, ro, act) { A_##reg, (ro), (act), #reg }

static const Am335xClkstctrl am335x_clkstctrl[] = {
    CLKSTCTRL(CM_PER_L4LS_CLKSTCTRL, false, 0x1b3bed00),
    CLKSTCTRL(CM_PER_L3S_CLKSTCTRL, false, 0x00000008),
    CLKSTCTRL(CM_PER_L4FW_CLKSTCTRL, false, 0x00000100),
    CLKSTCTRL(CM_PER_L3_CLKSTCTRL, false, 0x000000dc),
    CLKSTCTRL(CM_PER_L4HS_CLKSTCTRL, false, 0x00000078),
    CLKSTCTRL(CM_PER_OCPWP_L3_CLKSTCTRL, false, 0x00000030),
    CLKSTCTRL(CM_PER_PRU_ICSS_CLKSTCTRL, false, 0x00000070),
    CLKSTCTRL(CM_PER_CPSW_CLKSTCTRL, false, 0x00000000),
    CLKSTCTRL(CM_PER_LCDC_CLKSTCTRL, false, 0x00000030),
    CLKSTCTRL(CM_PER_CLK_24MHZ_CLKSTCTRL, false, 0x00000010),
    CLKSTCTRL(CM_WKUP_CLKSTCTRL, false, 0x00007d1c),
    CLKSTCTRL(CM_L3_AON_CLKSTCTRL, false, 0x0000001c),
    CLKSTCTRL(CM_L4_WKUP_AON_CLKSTCTRL, true, 0x00000004),
    CLKSTCTRL(CM_MPU_CLKSTCTRL, false, 0x00000004),
    CLKSTCTRL(CM_RTC_CLKSTCTRL, false, 0x00000300),
    CLKSTCTRL(CM_GFX_L3_CLKSTCTRL, false, 0x00000300),
    CLKSTCTRL(CM_GFX_L4LS_GFX_CLKSTCTRL, false, 0x00000100),
    CLKSTCTRL(CM_CEFUSE_CLKSTCTRL, false, 0x00000300),
};

/* Everything else: the DPLLs, the muxes and the PRM */
typedef enum {
    REG_PLAIN,          /* storage with a writable mask */
    REG_RO,             /* constant */
    REG_W1C,            /* write 1 to clear */
    REG_MUX,            /* CM_DPLL clock select */
    REG_DPLL_CLKMODE,
    REG_DPLL_IDLEST,
    REG_DPLL_CLKSEL,
    REG_DPLL_DIV,       /* M2, M4, M5, M6 post-dividers */
    REG_DPLL_DCOLDO,
    REG_PWRSTCTRL,
    REG_PWRSTST,
    REG_RM_RSTCTRL,
    REG_PRM_RSTCTRL,
} Am335xPrcmRegType;

typedef struct Am335xPrcmReg {
    uint16_t offset;
    uint8_t type;
    uint8_t unit;       /* DPLL or power domain the register belongs to */
    uint32_t reset;     /* TRM power-on value */
    uint32_t wmask;
    const char *name;
} Am335xPrcmReg;

#define PRCM_REG(reg, type, unit, rst, wm) \
    { A_##reg, (type), (unit), (rst), (wm), #reg }

enum {
    PD_PER,
    PD_WKUP,
    PD_MPU,
    PD_RTC,
    PD_GFX,
    PD_CEFUSE,
    NUM_PDS
};

static const Am335xPrcmReg am335x_prcm_regs[] = {
    /* CM_WKUP: DPLL control */
    PRCM_REG(CM_AUTOIDLE_DPLL_MPU, REG_PLAIN, DPLL_MPU, 0, 0x7),
    PRCM_REG(CM_IDLEST_DPLL_MPU, REG_DPLL_IDLEST, DPLL_MPU, 0, 0),
    PRCM_REG(CM_SSC_DELTAMSTEP_DPLL_MPU, REG_PLAIN, DPLL_MPU, 0, 0xfffff),
    PRCM_REG(CM_SSC_MODFREQDIV_DPLL_MPU, REG_PLAIN, DPLL_MPU, 0, 0x77f),
    PRCM_REG(CM_CLKSEL_DPLL_MPU, REG_DPLL_CLKSEL, DPLL_MPU, 0, 0x0087ff7f),
    PRCM_REG(CM_AUTOIDLE_DPLL_DDR, REG_PLAIN, DPLL_DDR, 0, 0x7),
    PRCM_REG(CM_IDLEST_DPLL_DDR, REG_DPLL_IDLEST, DPLL_DDR, 0, 0),
    PRCM_REG(CM_SSC_DELTAMSTEP_DPLL_DDR, REG_PLAIN, DPLL_DDR, 0, 0xfffff),
    PRCM_REG(CM_SSC_MODFREQDIV_DPLL_DDR, REG_PLAIN, DPLL_DDR, 0, 0x77f),
    PRCM_REG(CM_CLKSEL_DPLL_DDR, REG_DPLL_CLKSEL, DPLL_DDR, 0, 0x0087ff7f),
    PRCM_REG(CM_AUTOIDLE_DPLL_DISP, REG_PLAIN, DPLL_DISP, 0, 0x7),
    PRCM_REG(CM_IDLEST_DPLL_DISP, REG_DPLL_IDLEST, DPLL_DISP, 0, 0),
    PRCM_REG(CM_SSC_DELTAMSTEP_DPLL_DISP, REG_PLAIN, DPLL_DISP, 0, 0xfffff),
    PRCM_REG(CM_SSC_MODFREQDIV_DPLL_DISP, REG_PLAIN, DPLL_DISP, 0, 0x77f),
    PRCM_REG(CM_CLKSEL_DPLL_DISP, REG_DPLL_CLKSEL, DPLL_DISP, 0, 0x0087ff7f),
    PRCM_REG(CM_AUTOIDLE_DPLL_CORE, REG_PLAIN, DPLL_CORE, 0, 0x7),
    PRCM_REG(CM_IDLEST_DPLL_CORE, REG_DPLL_IDLEST, DPLL_CORE, 0, 0),
    PRCM_REG(CM_SSC_DELTAMSTEP_DPLL_CORE, REG_PLAIN, DPLL_CORE, 0, 0xfffff),
    PRCM_REG(CM_SSC_MODFREQDIV_DPLL_CORE, REG_PLAIN, DPLL_CORE, 0, 0x77f),
    PRCM_REG(CM_CLKSEL_DPLL_CORE, REG_DPLL_CLKSEL, DPLL_CORE, 0, 0x0007ff7f),
    PRCM_REG(CM_AUTOIDLE_DPLL_PER, REG_PLAIN, DPLL_PER, 0, 0x7),
    PRCM_REG(CM_IDLEST_DPLL_PER, REG_DPLL_IDLEST, DPLL_PER, 0, 0),
    PRCM_REG(CM_SSC_DELTAMSTEP_DPLL_PER, REG_PLAIN, DPLL_PER, 0, 0xfffff),
    PRCM_REG(CM_SSC_MODFREQDIV_DPLL_PER, REG_PLAIN, DPLL_PER, 0, 0x77f),
    PRCM_REG(CM_CLKDCOLDO_DPLL_PER, REG_DPLL_DCOLDO, DPLL_PER, 0, 0x1100),
    PRCM_REG(CM_DIV_M4_DPLL_CORE, REG_DPLL_DIV, DPLL_CORE, 0x4, 0x111f),
    PRCM_REG(CM_DIV_M5_DPLL_CORE, REG_DPLL_DIV, DPLL_CORE, 0x4, 0x111f),
    PRCM_REG(CM_CLKMODE_DPLL_MPU, REG_DPLL_CLKMODE, DPLL_MPU, 0x4, 0xd7ff),
    PRCM_REG(CM_CLKMODE_DPLL_PER, REG_DPLL_CLKMODE, DPLL_PER, 0x4, 0xd007),
    PRCM_REG(CM_CLKMODE_DPLL_CORE, REG_DPLL_CLKMODE, DPLL_CORE, 0x4, 0xd7ff),
    PRCM_REG(CM_CLKMODE_DPLL_DDR, REG_DPLL_CLKMODE, DPLL_DDR, 0x4, 0xd7ff),
    PRCM_REG(CM_CLKMODE_DPLL_DISP, REG_DPLL_CLKMODE, DPLL_DISP, 0x4, 0xd7ff),
    PRCM_REG(CM_CLKSEL_DPLL_PERIPH, REG_DPLL_CLKSEL, DPLL_PER, 0, 0xff0fffff),
    PRCM_REG(CM_DIV_M2_DPLL_DDR, REG_DPLL_DIV, DPLL_DDR, 0x1, 0x11f),
    PRCM_REG(CM_DIV_M2_DPLL_DISP, REG_DPLL_DIV, DPLL_DISP, 0x1, 0x11f),
    PRCM_REG(CM_DIV_M2_DPLL_MPU, REG_DPLL_DIV, DPLL_MPU, 0x1, 0x11f),
    PRCM_REG(CM_DIV_M2_DPLL_PER, REG_DPLL_DIV, DPLL_PER, 0x1, 0x17f),
    PRCM_REG(CM_DIV_M6_DPLL_CORE, REG_DPLL_DIV, DPLL_CORE, 0x4, 0x111f),
    /* CM_DPLL: clock selects */
    PRCM_REG(CLKSEL_TIMER7_CLK, REG_MUX, 0, 0x1, 0x3),
    PRCM_REG(CLKSEL_TIMER2_CLK, REG_MUX, 0, 0x1, 0x3),
    PRCM_REG(CLKSEL_TIMER3_CLK, REG_MUX, 0, 0x1, 0x3),
    PRCM_REG(CLKSEL_TIMER4_CLK, REG_MUX, 0, 0x1, 0x3),
    PRCM_REG(CM_MAC_CLKSEL, REG_PLAIN, 0, 0x4, 0x4),
    PRCM_REG(CLKSEL_TIMER5_CLK, REG_MUX, 0, 0x1, 0x3),
    PRCM_REG(CLKSEL_TIMER6_CLK, REG_MUX, 0, 0x1, 0x3),
    PRCM_REG(CM_CPTS_RFT_CLKSEL, REG_PLAIN, 0, 0, 0x1),
    PRCM_REG(CLKSEL_TIMER1MS_CLK, REG_MUX, 0, 0, 0x7),
    PRCM_REG(CLKSEL_GFX_FCLK, REG_PLAIN, 0, 0, 0x3),
    PRCM_REG(CLKSEL_PRU_ICSS_OCP_CLK, REG_PLAIN, 0, 0, 0x1),
    PRCM_REG(CLKSEL_LCDC_PIXEL_CLK, REG_PLAIN, 0, 0, 0x3),
    PRCM_REG(CLKSEL_WDT1_CLK, REG_MUX, 0, 0x1, 0x1),
    PRCM_REG(CLKSEL_GPIO0_DBCLK, REG_MUX, 0, 0, 0x3),
    /* CM_DEVICE */
    PRCM_REG(CM_CLKOUT_CTRL, REG_PLAIN, 0, 0, 0xbf),
    /* PRM_IRQ: no event is ever raised, so status stays clear */
    PRCM_REG(REVISION_PRM, REG_RO, 0, 0, 0),
    PRCM_REG(PRM_IRQSTATUS_MPU, REG_W1C, 0, 0, 0xfd00),
    PRCM_REG(PRM_IRQENABLE_MPU, REG_PLAIN, 0, 0, 0xfd00),
    PRCM_REG(PRM_IRQSTATUS_M3, REG_W1C, 0, 0, 0xfd00),
    PRCM_REG(PRM_IRQENABLE_M3, REG_PLAIN, 0, 0, 0xfd00),
    /* PRM_PER */
    PRCM_REG(RM_PER_RSTCTRL, REG_RM_RSTCTRL, PD_PER, 0x2, 0x2),
    PRCM_REG(PM_PER_PWRSTST, REG_PWRSTST, PD_PER, 0, 0),
    PRCM_REG(PM_PER_PWRSTCTRL, REG_PWRSTCTRL, PD_PER, 0xee0000eb, 0xee0000fb),
    /* PRM_WKUP */
    PRCM_REG(RM_WKUP_RSTCTRL, REG_RM_RSTCTRL, PD_WKUP, 0x8, 0x8),
    PRCM_REG(PM_WKUP_PWRSTCTRL, REG_PWRSTCTRL, PD_WKUP, 0x8, 0x18),
    PRCM_REG(PM_WKUP_PWRSTST, REG_PWRSTST, PD_WKUP, 0, 0),
    PRCM_REG(RM_WKUP_RSTST, REG_W1C, PD_WKUP, 0, 0xe0),
    /* PRM_MPU */
    PRCM_REG(PM_MPU_PWRSTCTRL, REG_PWRSTCTRL, PD_MPU, 0x01ff0007, 0x01c30017),
    PRCM_REG(PM_MPU_PWRSTST, REG_PWRSTST, PD_MPU, 0, 0),
    PRCM_REG(RM_MPU_RSTST, REG_W1C, PD_MPU, 0, 0x60),
    /* PRM_DEVICE */
    PRCM_REG(PRM_RSTCTRL, REG_PRM_RSTCTRL, 0, 0, 0x3),
    PRCM_REG(PRM_RSTTIME, REG_PLAIN, 0, 0x1006, 0x1fff),
    PRCM_REG(PRM_RSTST, REG_W1C, 0, 0x1, 0x233),
    PRCM_REG(PRM_SRAM_COUNT, REG_PLAIN, 0, 0x78000017, 0x00ffff3f),
    PRCM_REG(PRM_LDO_SRAM_CORE_SETUP, REG_PLAIN, 0, 0, 0x1ff),
    PRCM_REG(PRM_LDO_SRAM_CORE_CTRL, REG_PLAIN, 0, 0, 0x1),
    PRCM_REG(PRM_LDO_SRAM_MPU_SETUP, REG_PLAIN, 0, 0, 0x1ff),
    PRCM_REG(PRM_LDO_SRAM_MPU_CTRL, REG_PLAIN, 0, 0, 0x1),
    /* PRM_RTC */
    PRCM_REG(PM_RTC_PWRSTCTRL, REG_PWRSTCTRL, PD_RTC, 0x4, 0x14),
    PRCM_REG(PM_RTC_PWRSTST, REG_PWRSTST, PD_RTC, 0, 0),
    /* PRM_GFX */
    PRCM_REG(PM_GFX_PWRSTCTRL, REG_PWRSTCTRL, PD_GFX, 0x00060044, 0x57),
    PRCM_REG(RM_GFX_RSTCTRL, REG_RM_RSTCTRL, PD_GFX, 0x1, 0x1),
    PRCM_REG(PM_GFX_PWRSTST, REG_PWRSTST, PD_GFX, 0, 0),
    PRCM_REG(RM_GFX_RSTST, REG_W1C, PD_GFX, 0, 0x1),
    /* PRM_CEFUSE */
    PRCM_REG(PM_CEFUSE_PWRSTCTRL, REG_PWRSTCTRL, PD_CEFUSE, 0, 0x13),
    PRCM_REG(PM_CEFUSE_PWRSTST, REG_PWRSTST, PD_CEFUSE, 0, 0),
};

/*
 * Power domains (TRM 8.1.13).  Domains with a POWERSTATE field reach the
 * state PWRSTCTRL asks for at once; their memories follow the ONSTATE or
 * RETSTATE fields of PWRSTCTRL.  WKUP and RTC are always on and have a
 * constant status.
 */
typedef struct Am335xPdMem {
    uint8_t on_shift;   /* 2-bit ONSTATE in PWRSTCTRL */
    uint8_t ret_bit;    /* RETSTATE bit in PWRSTCTRL */
    uint8_t st_shift;   /* 2-bit STATEST in PWRSTST */
} Am335xPdMem;

typedef struct Am335xPowerDomain {
    const char *name;
    uint16_t pwrstctrl;
    uint32_t fixed_st;  /* non-zero: always-on domain with this status */
    uint32_t logicret;  /* LOGICRETSTATE bit in PWRSTCTRL */
    bool inact_ok;      /* ON_INACTIVE is a valid state */
    unsigned nmem;
    Am335xPdMem mem[3];
} Am335xPowerDomain;

static const Am335xPowerDomain am335x_pds[NUM_PDS] = {
    [PD_PER] = { "per", A_PM_PER_PWRSTCTRL, 0, 1 << 3, false, 3,
                 { { 5, 7, 23 }, { 25, 29, 17 }, { 30, 27, 21 } } },
    [PD_WKUP] = { "wkup", A_PM_WKUP_PWRSTCTRL, 0x00060004, 0, false, 0 },
    [PD_MPU] = { "mpu", A_PM_MPU_PWRSTCTRL, 0, 1 << 2, false, 3,
                 { { 16, 24, 4 }, { 18, 22, 6 }, { 20, 23, 8 } } },
    [PD_RTC] = { "rtc", A_PM_RTC_PWRSTCTRL, 0x00000004, 0, false, 0 },
    [PD_GFX] = { "gfx", A_PM_GFX_PWRSTCTRL, 0, 1 << 2, false, 1,
                 { { 17, 6, 4 } } },
    [PD_CEFUSE] = { "cefuse", A_PM_CEFUSE_PWRSTCTRL, 0, 0, true, 0 },
};

/* LastPowerStateEntered, the only writable field of a PWRSTST */
#define PWRSTST_LASTPOWERSTATE  (3u << 24)

enum {
    KIND_NONE,
    KIND_CLKCTRL,
    KIND_CLKSTCTRL,
    KIND_REG,
};

static const char *const am335x_prcm_clk_names[AM335X_PRCM_NUM_CLOCKS] = {
    "timer0-fclk", "timer1-fclk", "timer2-fclk", "timer3-fclk",
    "timer4-fclk", "timer5-fclk", "timer6-fclk", "timer7-fclk",
    "uart0-fclk", "uart1-fclk", "uart2-fclk", "uart3-fclk",
    "uart4-fclk", "uart5-fclk",
    "wdt1-fclk", "gpio0-dbclk", "i2c-fclk", "mpu-clk",
    "gpio1-dbclk", "gpio2-dbclk", "gpio3-dbclk", "adc-tsc-fclk",
    "lcdc-fclk",
};

/* DMTimer n: its CLKCTRL and, for timers 1-7, its CM_DPLL clock select */
static const uint16_t am335x_timer_clkctrl[8] = {
    A_CM_WKUP_TIMER0_CLKCTRL, A_CM_WKUP_TIMER1_CLKCTRL,
    A_CM_PER_TIMER2_CLKCTRL, A_CM_PER_TIMER3_CLKCTRL,
    A_CM_PER_TIMER4_CLKCTRL, A_CM_PER_TIMER5_CLKCTRL,
    A_CM_PER_TIMER6_CLKCTRL, A_CM_PER_TIMER7_CLKCTRL,
};

static const uint16_t am335x_timer_clksel[8] = {
    0, A_CLKSEL_TIMER1MS_CLK,
    A_CLKSEL_TIMER2_CLK, A_CLKSEL_TIMER3_CLK, A_CLKSEL_TIMER4_CLK,
    A_CLKSEL_TIMER5_CLK, A_CLKSEL_TIMER6_CLK, A_CLKSEL_TIMER7_CLK,
};

static const uint16_t am335x_uart_clkctrl[6] = {
    A_CM_WKUP_UART0_CLKCTRL, A_CM_PER_UART1_CLKCTRL, A_CM_PER_UART2_CLKCTRL,
    A_CM_PER_UART3_CLKCTRL, A_CM_PER_UART4_CLKCTRL, A_CM_PER_UART5_CLKCTRL,
};

/*
 * The PER DPLL settings of U-Boot's SPL (dpll_per_192MHz[] in
 * arch/arm/mach-omap2/am33xx/clock_am33xx.c), one per crystal SYSBOOT[15:14]
 * can declare (TRM 26.1.6: 19.2, 24, 25 or 26 MHz): DCO 960 MHz, M2 = 5,
 * 192 MHz out.
 */
static const struct {
    uint32_t sys_hz;
    uint16_t m;
    uint8_t n;
} am335x_spl_per[] = {
    { 19200000, 400, 7 },
    { 24000000, 400, 9 },
    { 25000000, 384, 9 },
    { 26000000, 480, 12 },
};

#define SPL_PER_M2              5
/* CORE DPLL: CLKOUT 1 GHz, DCO 2 GHz; M4 200 MHz, M5 250 MHz, M6 500 MHz */
#define SPL_CORE_MHZ            1000
#define SPL_CORE_M4             10
#define SPL_CORE_M5             8
#define SPL_CORE_M6             4
/* ADPLLLJ sigma-delta divider: ceil(DCO / 250 MHz) (TRM 8.1.12.2.40) */
#define PER_SD_DIV_STEP_HZ      250000000ULL

static uint32_t am335x_prcm_reg(AM335xPrcmState *s, hwaddr offset)
{
    return s->regs[offset / 4];
}

static bool am335x_prcm_module_on(AM335xPrcmState *s, hwaddr clkctrl)
{
    return FIELD_EX32(am335x_prcm_reg(s, clkctrl), CLKCTRL, MODULEMODE) !=
           MODULEMODE_DISABLED;
}

static void am335x_prcm_dpll_mn(AM335xPrcmState *s, int d, uint32_t *m,
                                uint32_t *n)
{
    uint32_t v = am335x_prcm_reg(s, am335x_dplls[d].clksel);

    if (am335x_dplls[d].jtype) {
        *m = FIELD_EX32(v, CM_CLKSEL_DPLL_PERIPH, MULT);
        *n = FIELD_EX32(v, CM_CLKSEL_DPLL_PERIPH, DIV);
    } else {
        *m = FIELD_EX32(v, CLKSEL_DPLL, MULT);
        *n = FIELD_EX32(v, CLKSEL_DPLL, DIV);
    }
}

/*
 * The DPLL's state and its rate ahead of the post-dividers.  Locked, this
 * is CLKINP * M / (N + 1): CLKOUT before M2 for the ADPLLS, CLKDCOLDO for
 * the ADPLLLJ, and what Linux computes for both.  In bypass it is the
 * bypass clock, CLKINP.  M below 2 forces bypass even when lock is asked.
 */
static Am335xDpllState am335x_prcm_dpll(AM335xPrcmState *s, int d,
                                        uint64_t *hz)
{
    const Am335xDpll *dpll = &am335x_dplls[d];
    uint32_t mode = FIELD_EX32(am335x_prcm_reg(s, dpll->clkmode),
                               CLKMODE_DPLL, DPLL_EN);
    uint64_t max = dpll->jtype ? ADPLLLJ_MAX_HZ : ADPLLS_MAX_HZ;
    uint32_t m, n;
    uint64_t rate;

    *hz = 0;
    switch (mode) {
    case DPLL_EN_LOCK:
        am335x_prcm_dpll_mn(s, d, &m, &n);
        if (m < 2) {
            break;
        }
        rate = (uint64_t)s->sys_clk_hz * m / (n + 1);
        if (rate > max) {
            return DPLL_UNLOCKED;
        }
        *hz = rate;
        return DPLL_LOCKED;
    case DPLL_EN_MN_BYPASS:
        break;
    case DPLL_EN_LP_BYPASS:
    case DPLL_EN_FR_BYPASS:
        *hz = s->sys_clk_hz;
        return DPLL_IDLE_BYPASS;
    default:
        return DPLL_STOPPED;
    }
    *hz = s->sys_clk_hz;
    return DPLL_BYPASS;
}

static uint32_t am335x_prcm_div_value(hwaddr offset, uint32_t v)
{
    if (offset == A_CM_DIV_M2_DPLL_PER) {
        return FIELD_EX32(v, CM_DIV_M2_DPLL_PER, DIV);
    }
    return FIELD_EX32(v, DIV_DPLL, DIV);
}

/*
 * Output of a post-divider (TRM 8.1.6.3 to 8.1.6.8).  Locked, M2 divides
 * CLKOUT, and the CORE DPLL's HSDIVIDER (M4, M5, M6) divides CLKDCOLDO,
 * twice CLKOUT.  In bypass the DPLL drives CLKINP / (N2 + 1) on CLKOUT, N2
 * being 0 on this SoC, and the HSDIVIDER passes its bypass clock through
 * undivided (tables 8-18 and 8-20).  Linux's clock tree divides the bypass
 * clock by the divider all the same; both agree for the divider of 1 that
 * the MPU and DISP DPLLs use when Linux bypasses them.
 */
static uint64_t am335x_prcm_div_output(AM335xPrcmState *s,
                                       const Am335xPrcmReg *r)
{
    uint32_t v = am335x_prcm_reg(s, r->offset);
    uint32_t div = am335x_prcm_div_value(r->offset, v);
    uint64_t hz;

    /* PWDN only exists in the HSDIVIDER registers. */
    if (FIELD_EX32(v, DIV_DPLL, PWDN)) {
        return 0;
    }
    switch (am335x_prcm_dpll(s, r->unit, &hz)) {
    case DPLL_LOCKED:
        /* DIV = 0 is reserved: no output. */
        if (div == 0) {
            return 0;
        }
        if (r->unit == DPLL_CORE) {
            hz *= 2;
        }
        return hz / div;
    case DPLL_BYPASS:
    case DPLL_IDLE_BYPASS:
        return hz;
    default:
        return 0;
    }
}

static const Am335xPrcmReg *am335x_prcm_find_reg(AM335xPrcmState *s,
                                                 hwaddr offset)
{
    unsigned r = offset / 4;

    if (s->reg_kind[r] != KIND_REG) {
        return NULL;
    }
    return &am335x_prcm_regs[s->reg_index[r]];
}

static uint64_t am335x_prcm_divider_hz(AM335xPrcmState *s, hwaddr offset)
{
    const Am335xPrcmReg *r = am335x_prcm_find_reg(s, offset);

    return r ? am335x_prcm_div_output(s, r) : 0;
}

/* CLK_32KHZ follows the PER DPLL; 32768 Hz at its 192 MHz operating point */
static uint32_t am335x_prcm_clk_32khz(uint64_t per_m2_hz)
{
    return muldiv64(per_m2_hz, CLK_32KHZ_HZ, PER_M2_NOMINAL_HZ);
}

/* CLKSEL_TIMER1MS_CLK: M_OSC, CLK_32KHZ, TCLKIN, CLK_RC32K, CLK_32768 */
static uint32_t am335x_prcm_timer1_src(AM335xPrcmState *s, uint32_t clk32k)
{
    switch (am335x_prcm_reg(s, A_CLKSEL_TIMER1MS_CLK) & 0x7) {
    case 0:
        return s->sys_clk_hz;
    case 1:
        return clk32k;
    case 3:
        return CLK_RC32K_HZ;
    case 4:
        return CLK_32768_HZ;
    default:
        /* TCLKIN (no external clock is wired) or a reserved value */
        return 0;
    }
}

/* CLKSEL_TIMERn_CLK, n = 2..7: TCLKIN, M_OSC, CLK_32KHZ */
static uint32_t am335x_prcm_timer_src(AM335xPrcmState *s, hwaddr clksel,
                                      uint32_t clk32k)
{
    switch (am335x_prcm_reg(s, clksel) & 0x3) {
    case 1:
        return s->sys_clk_hz;
    case 2:
        return clk32k;
    default:
        return 0;
    }
}

static void am335x_prcm_compute(AM335xPrcmState *s,
                                uint32_t hz[AM335X_PRCM_NUM_CLOCKS])
{
    uint64_t per_m2 = am335x_prcm_divider_hz(s, A_CM_DIV_M2_DPLL_PER);
    uint64_t mpu = am335x_prcm_divider_hz(s, A_CM_DIV_M2_DPLL_MPU);
    uint32_t clk32k = am335x_prcm_clk_32khz(per_m2);
    uint32_t src;

    for (int i = 0; i < 8; i++) {
        if (i == 0) {
            src = CLK_RC32K_HZ;
        } else if (i == 1) {
            src = am335x_prcm_timer1_src(s, clk32k);
        } else {
            src = am335x_prcm_timer_src(s, am335x_timer_clksel[i], clk32k);
        }
        hz[AM335X_PRCM_CLK_TIMER0 + i] =
            am335x_prcm_module_on(s, am335x_timer_clkctrl[i]) ? src : 0;
    }

    /* UARTs and I2C run from PER CLKOUT M2 / 4, nominally 48 MHz. */
    for (int i = 0; i < 6; i++) {
        hz[AM335X_PRCM_CLK_UART0 + i] =
            am335x_prcm_module_on(s, am335x_uart_clkctrl[i]) ? per_m2 / 4 : 0;
    }
    hz[AM335X_PRCM_CLK_I2C] = per_m2 / 4;

    /* CLKSEL_WDT1_CLK: CLK_RC32K or CLK_32KHZ */
    src = (am335x_prcm_reg(s, A_CLKSEL_WDT1_CLK) & 1) ? clk32k : CLK_RC32K_HZ;
    hz[AM335X_PRCM_CLK_WDT1] =
        am335x_prcm_module_on(s, A_CM_WKUP_WDT1_CLKCTRL) ? src : 0;

    /*
     * CLKSEL_GPIO0_DBCLK: CLK_RC32K, CLK_32768 or CLK_32KHZ.  The debounce
     * clock is an optional clock, gated by OPTFCLKEN_GPIO0_GDBCLK.
     */
    switch (am335x_prcm_reg(s, A_CLKSEL_GPIO0_DBCLK) & 0x3) {
    case 0:
        src = CLK_RC32K_HZ;
        break;
    case 1:
        src = CLK_32768_HZ;
        break;
    case 2:
        src = clk32k;
        break;
    default:
        src = 0;
        break;
    }
    hz[AM335X_PRCM_CLK_GPIO0_DB] =
        (am335x_prcm_reg(s, A_CM_WKUP_GPIO0_CLKCTRL) & CLKCTRL_GPIO_DBCLK) ?
        src : 0;

    /* GPIO1-3 debounce: CLK_32KHZ, gated by OPTFCLKEN_GPIOn_GDBCLK */
    for (int i = 0; i < 3; i++) {
        static const uint16_t clkctrl[3] = {
            A_CM_PER_GPIO1_CLKCTRL, A_CM_PER_GPIO2_CLKCTRL,
            A_CM_PER_GPIO3_CLKCTRL,
        };

        hz[AM335X_PRCM_CLK_GPIO1_DB + i] =
            (am335x_prcm_reg(s, clkctrl[i]) & CLKCTRL_GPIO_DBCLK) ? clk32k : 0;
    }

    hz[AM335X_PRCM_CLK_MPU] = mpu;

    /* The TSC_ADC's functional clock is CLK_M_OSC (TRM 8.1.6.2) */
    hz[AM335X_PRCM_CLK_ADC_TSC] =
        am335x_prcm_module_on(s, A_CM_WKUP_ADC_TSC_CLKCTRL) ? s->sys_clk_hz : 0;

    /*
     * CLKSEL_LCDC_PIXEL_CLK: DISP M2, CORE M5 or PER M2 (TRM 8.1.6.5),
     * gated by the LCDC's module mode.
     */
    switch (am335x_prcm_reg(s, A_CLKSEL_LCDC_PIXEL_CLK) & 0x3) {
    case 0:
        src = am335x_prcm_divider_hz(s, A_CM_DIV_M2_DPLL_DISP);
        break;
    case 1:
        src = am335x_prcm_divider_hz(s, A_CM_DIV_M5_DPLL_CORE);
        break;
    case 2:
        src = per_m2;
        break;
    default:
        src = 0;
        break;
    }
    hz[AM335X_PRCM_CLK_LCDC] =
        am335x_prcm_module_on(s, A_CM_PER_LCDC_CLKCTRL) ? src : 0;

    s->mpu_clk_hz = mpu;
    s->core_m4_hz = am335x_prcm_divider_hz(s, A_CM_DIV_M4_DPLL_CORE);
    s->per_m2_hz = per_m2;
}

/*
 * Recompute every output.  During migration the new values are only set:
 * the consumers restore their own input clocks (docs/devel/clocks.rst).
 */
static void am335x_prcm_update_clocks(AM335xPrcmState *s, bool propagate)
{
    uint32_t hz[AM335X_PRCM_NUM_CLOCKS];

    am335x_prcm_compute(s, hz);
    for (int i = 0; i < AM335X_PRCM_NUM_CLOCKS; i++) {
        if (clock_get(s->clk[i]) != CLOCK_PERIOD_FROM_HZ(hz[i])) {
            trace_am335x_prcm_clock(am335x_prcm_clk_names[i], hz[i]);
        }
        if (propagate) {
            clock_update_hz(s->clk[i], hz[i]);
        } else {
            clock_set_hz(s->clk[i], hz[i]);
        }
    }
}

/* CLKCTRL: IDLEST and STBYST follow MODULEMODE without delay. */
static uint32_t am335x_prcm_clkctrl_read(AM335xPrcmState *s,
                                         const Am335xClkctrl *c)
{
    uint32_t v = am335x_prcm_reg(s, c->offset);
    bool on = FIELD_EX32(v, CLKCTRL, MODULEMODE) != MODULEMODE_DISABLED;

    if (!on && !(c->flags & CLKCTRL_NO_IDLEST)) {
        v = FIELD_DP32(v, CLKCTRL, IDLEST, IDLEST_DISABLED);
    }
    if (!on && (c->flags & CLKCTRL_MSTANDBY)) {
        v = FIELD_DP32(v, CLKCTRL, STBYST, 1);
    }
    return v;
}

static void am335x_prcm_clkctrl_write(AM335xPrcmState *s,
                                      const Am335xClkctrl *c, uint32_t value)
{
    uint32_t wmask = c->opt_mask;
    uint32_t mode = FIELD_EX32(value, CLKCTRL, MODULEMODE);

    if (!(c->flags & CLKCTRL_MODE_RO)) {
        wmask |= R_CLKCTRL_MODULEMODE_MASK;
        if (mode != MODULEMODE_DISABLED && mode != MODULEMODE_ENABLED) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: reserved MODULEMODE %u\n",
                          __func__, c->name, mode);
        }
    }
    s->regs[c->offset / 4] = (s->regs[c->offset / 4] & ~wmask) |
                             (value & wmask);
}

/* CLKSTCTRL: clocks show activity unless the domain is forced asleep. */
static uint32_t am335x_prcm_clkstctrl_read(AM335xPrcmState *s,
                                           const Am335xClkstctrl *c)
{
    uint32_t v = am335x_prcm_reg(s, c->offset);

    if (FIELD_EX32(v, CLKSTCTRL, CLKTRCTRL) != CLKTRCTRL_SW_SLEEP) {
        v |= c->activity;
    }
    return v;
}

static uint32_t am335x_prcm_pwrstst(AM335xPrcmState *s, int pd,
                                    uint32_t stored)
{
    const Am335xPowerDomain *p = &am335x_pds[pd];
    uint32_t ctrl = am335x_prcm_reg(s, p->pwrstctrl);
    uint32_t state = FIELD_EX32(ctrl, PWRSTCTRL, POWERSTATE);
    uint32_t v = stored & PWRSTST_LASTPOWERSTATE;

    if (p->fixed_st) {
        return v | p->fixed_st;
    }
    if (state == POWERSTATE_INACT && !p->inact_ok) {
        /* Reserved request: the domain stays on. */
        state = POWERSTATE_ON;
    }
    switch (state) {
    case POWERSTATE_ON:
    case POWERSTATE_INACT:
        v = FIELD_DP32(v, PWRSTST, POWERSTATEST, state);
        v = FIELD_DP32(v, PWRSTST, LOGICSTATEST, 1);
        for (unsigned i = 0; i < p->nmem; i++) {
            v |= ((ctrl >> p->mem[i].on_shift) & 3) << p->mem[i].st_shift;
        }
        break;
    case POWERSTATE_RET:
        v = FIELD_DP32(v, PWRSTST, POWERSTATEST, POWERSTATE_RET);
        v = FIELD_DP32(v, PWRSTST, LOGICSTATEST, !!(ctrl & p->logicret));
        for (unsigned i = 0; i < p->nmem; i++) {
            /* 1 = retained, 0 = off */
            v |= ((ctrl >> p->mem[i].ret_bit) & 1) << p->mem[i].st_shift;
        }
        break;
    default:
        /* OFF: logic and memories off */
        break;
    }
    return v;
}

static uint32_t am335x_prcm_dpll_idlest(AM335xPrcmState *s, int d)
{
    uint64_t hz;

    switch (am335x_prcm_dpll(s, d, &hz)) {
    case DPLL_LOCKED:
        return R_IDLEST_DPLL_ST_DPLL_CLK_MASK;
    case DPLL_BYPASS:
        return R_IDLEST_DPLL_ST_MN_BYPASS_MASK;
    default:
        return 0;
    }
}

static uint32_t am335x_prcm_reg_read(AM335xPrcmState *s,
                                     const Am335xPrcmReg *r)
{
    uint32_t v = am335x_prcm_reg(s, r->offset);
    uint64_t hz;

    switch (r->type) {
    case REG_PRM_RSTCTRL:
        /* The reset request bits read as 0. */
        return 0;
    case REG_DPLL_CLKMODE:
        /* Spread spectrum is acknowledged at once (U-Boot polls SSC_ACK). */
        return FIELD_DP32(v, CLKMODE_DPLL, SSC_ACK,
                          FIELD_EX32(v, CLKMODE_DPLL, SSC_EN));
    case REG_DPLL_IDLEST:
        return am335x_prcm_dpll_idlest(s, r->unit);
    case REG_DPLL_DIV:
        return FIELD_DP32(v, DIV_DPLL, ST, am335x_prcm_div_output(s, r) != 0);
    case REG_DPLL_DCOLDO:
        return FIELD_DP32(v, CM_CLKDCOLDO_DPLL_PER, ST,
                          am335x_prcm_dpll(s, DPLL_PER, &hz) == DPLL_LOCKED &&
                          !FIELD_EX32(v, CM_CLKDCOLDO_DPLL_PER, PWDN));
    case REG_PWRSTST:
        return am335x_prcm_pwrstst(s, r->unit, v);
    default:
        return v;
    }
}

static void am335x_prcm_check_mux(const Am335xPrcmReg *r, uint32_t sel)
{
    bool tclkin = false;
    bool reserved = false;

    switch (r->offset) {
    case A_CLKSEL_TIMER1MS_CLK:
        tclkin = sel == 2;
        reserved = sel > 4;
        break;
    case A_CLKSEL_GPIO0_DBCLK:
        reserved = sel == 3;
        break;
    case A_CLKSEL_WDT1_CLK:
        break;
    default:
        /* CLKSEL_TIMER2..7_CLK */
        tclkin = sel == 0;
        reserved = sel == 3;
        break;
    }
    if (tclkin) {
        qemu_log_mask(LOG_UNIMP, "%s: %s: TCLKIN is not connected, the timer "
                      "gets no clock\n", __func__, r->name);
    }
    if (reserved) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: reserved clock select %u\n",
                      __func__, r->name, sel);
    }
}

static void am335x_prcm_check_dpll(AM335xPrcmState *s, int d)
{
    uint32_t clkmode = am335x_prcm_reg(s, am335x_dplls[d].clkmode);
    uint32_t mode = FIELD_EX32(clkmode, CLKMODE_DPLL, DPLL_EN);
    Am335xDpllState state;
    uint64_t hz;

    if (mode < DPLL_EN_MN_BYPASS) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: DPLL %s: reserved DPLL_EN %u, "
                      "DPLL stopped\n", __func__, am335x_dplls[d].name, mode);
    }
    if (!am335x_dplls[d].jtype &&
        FIELD_EX32(am335x_prcm_reg(s, am335x_dplls[d].clksel), CLKSEL_DPLL,
                   BYP_CLKSEL)) {
        qemu_log_mask(LOG_UNIMP, "%s: DPLL %s: CLKINPULOW bypass clock not "
                      "modelled, bypassing with CLKINP\n", __func__,
                      am335x_dplls[d].name);
    }
    state = am335x_prcm_dpll(s, d, &hz);
    if (state == DPLL_UNLOCKED) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: DPLL %s: M/N outside the lock "
                      "range, DPLL does not lock\n", __func__,
                      am335x_dplls[d].name);
    }
    trace_am335x_prcm_dpll(am335x_dplls[d].name, state, hz);
}

/*
 * Entering MN bypass clears DPLL_MULT (TRM 8.1.12.2.35, DPLL_EN = 4), so
 * software must program M again before it relocks, as U-Boot does.  The
 * idle bypass modes keep it (Linux uses those).
 */
static void am335x_prcm_mn_bypass(AM335xPrcmState *s, int d)
{
    const Am335xDpll *dpll = &am335x_dplls[d];
    uint32_t *clksel = &s->regs[dpll->clksel / 4];

    if (FIELD_EX32(am335x_prcm_reg(s, dpll->clkmode), CLKMODE_DPLL,
                   DPLL_EN) != DPLL_EN_MN_BYPASS) {
        return;
    }
    if (dpll->jtype) {
        *clksel = FIELD_DP32(*clksel, CM_CLKSEL_DPLL_PERIPH, MULT, 0);
    } else {
        *clksel = FIELD_DP32(*clksel, CLKSEL_DPLL, MULT, 0);
    }
}

/*
 * A global software reset: PRM_RSTST logs it once the machine reset that
 * follows has happened, in the hold phase below.
 */
static void am335x_prcm_global_reset(AM335xPrcmState *s, uint32_t value)
{
    if (FIELD_EX32(value, PRM_RSTCTRL, RST_GLOBAL_COLD_SW)) {
        s->pending_cold = true;
        trace_am335x_prcm_reset_request("cold");
    } else if (FIELD_EX32(value, PRM_RSTCTRL, RST_GLOBAL_WARM_SW)) {
        s->pending_rstst |= R_PRM_RSTST_GLOBAL_WARM_SW_RST_MASK;
        trace_am335x_prcm_reset_request("warm");
    } else {
        return;
    }
    qemu_system_reset_request(SHUTDOWN_CAUSE_GUEST_RESET);
}

/*
 * Releasing a local reset line completes the reset of that part at once,
 * which sets its RSTST bit: Linux's omap_prm driver clears the status,
 * releases the line and polls for the status (WKUP_M3, GFX).  PRU-ICSS has
 * no status bit.
 */
static void am335x_prcm_rm_rstctrl_write(AM335xPrcmState *s,
                                         const Am335xPrcmReg *r,
                                         uint32_t value)
{
    uint32_t old = am335x_prcm_reg(s, r->offset);
    uint32_t val = (old & ~r->wmask) | (value & r->wmask);
    uint32_t released = old & ~val;

    s->regs[r->offset / 4] = val;
    if (r->offset == A_RM_WKUP_RSTCTRL &&
        (released & R_RM_WKUP_RSTCTRL_WKUP_M3_LRST_MASK)) {
        s->regs[R_RM_WKUP_RSTST] |= R_RM_WKUP_RSTST_WKUP_M3_LRST_MASK;
    }
    if (r->offset == A_RM_GFX_RSTCTRL &&
        (released & R_RM_GFX_RSTCTRL_GFX_RST_MASK)) {
        s->regs[R_RM_GFX_RSTST] |= R_RM_GFX_RSTST_GFX_RST_MASK;
    }
}

static void am335x_prcm_div_write(AM335xPrcmState *s, const Am335xPrcmReg *r,
                                  uint32_t value)
{
    uint32_t old = am335x_prcm_reg(s, r->offset);
    uint32_t val = (old & ~r->wmask) | (value & r->wmask);
    uint32_t chack = r->offset == A_CM_DIV_M2_DPLL_PER ?
                     R_CM_DIV_M2_DPLL_PER_DIVCHACK_MASK :
                     R_DIV_DPLL_DIVCHACK_MASK;

    if (am335x_prcm_div_value(r->offset, val) == 0) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: reserved divider 0, output "
                      "stopped\n", __func__, r->name);
    }
    /* DIVCHACK toggles once the new ratio is in effect, here at once. */
    if (am335x_prcm_div_value(r->offset, val) !=
        am335x_prcm_div_value(r->offset, old)) {
        val ^= chack;
    }
    s->regs[r->offset / 4] = val;
}

static void am335x_prcm_reg_write(AM335xPrcmState *s, const Am335xPrcmReg *r,
                                  uint32_t value)
{
    uint32_t *reg = &s->regs[r->offset / 4];

    switch (r->type) {
    case REG_RO:
    case REG_DPLL_IDLEST:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: write to read-only %s\n",
                      __func__, r->name);
        break;
    case REG_PWRSTST:
        /* Only LastPowerStateEntered is writable (Linux clears it). */
        *reg = (*reg & ~PWRSTST_LASTPOWERSTATE) |
               (value & PWRSTST_LASTPOWERSTATE);
        break;
    case REG_W1C:
        *reg &= ~(value & r->wmask);
        break;
    case REG_PRM_RSTCTRL:
        am335x_prcm_global_reset(s, value);
        break;
    case REG_RM_RSTCTRL:
        am335x_prcm_rm_rstctrl_write(s, r, value);
        break;
    case REG_DPLL_DIV:
        am335x_prcm_div_write(s, r, value);
        break;
    case REG_PWRSTCTRL:
        /* A low-power state change request completes at once. */
        *reg = (*reg & ~r->wmask) | (value & r->wmask);
        *reg = FIELD_DP32(*reg, PWRSTCTRL, LOWPOWERSTATECHANGE, 0);
        break;
    case REG_MUX:
        *reg = (*reg & ~r->wmask) | (value & r->wmask);
        am335x_prcm_check_mux(r, value & r->wmask);
        break;
    case REG_DPLL_CLKMODE:
        *reg = (*reg & ~r->wmask) | (value & r->wmask);
        am335x_prcm_mn_bypass(s, r->unit);
        am335x_prcm_check_dpll(s, r->unit);
        break;
    case REG_DPLL_CLKSEL:
        *reg = (*reg & ~r->wmask) | (value & r->wmask);
        am335x_prcm_check_dpll(s, r->unit);
        break;
    default:
        *reg = (*reg & ~r->wmask) | (value & r->wmask);
        break;
    }
}

static uint64_t am335x_prcm_read(void *opaque, hwaddr offset, unsigned size)
{
    AM335xPrcmState *s = AM335X_PRCM(opaque);
    unsigned r = offset / 4;
    uint32_t value = 0;

    switch (s->reg_kind[r]) {
    case KIND_CLKCTRL:
        value = am335x_prcm_clkctrl_read(s, &am335x_clkctrl[s->reg_index[r]]);
        break;
    case KIND_CLKSTCTRL:
        value = am335x_prcm_clkstctrl_read(s,
                                           &am335x_clkstctrl[s->reg_index[r]]);
        break;
    case KIND_REG:
        value = am335x_prcm_reg_read(s, &am335x_prcm_regs[s->reg_index[r]]);
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: bad read offset 0x%" HWADDR_PRIx
                      "\n", __func__, offset);
        break;
    }

    trace_am335x_prcm_read(offset, value);
    return value;
}

static void am335x_prcm_write(void *opaque, hwaddr offset, uint64_t value,
                              unsigned size)
{
    AM335xPrcmState *s = AM335X_PRCM(opaque);
    unsigned r = offset / 4;
    const Am335xClkstctrl *c;

    trace_am335x_prcm_write(offset, value);

    switch (s->reg_kind[r]) {
    case KIND_CLKCTRL:
        am335x_prcm_clkctrl_write(s, &am335x_clkctrl[s->reg_index[r]], value);
        break;
    case KIND_CLKSTCTRL:
        c = &am335x_clkstctrl[s->reg_index[r]];
        if (!c->ro) {
            s->regs[r] = FIELD_DP32(s->regs[r], CLKSTCTRL, CLKTRCTRL,
                                    FIELD_EX32(value, CLKSTCTRL, CLKTRCTRL));
        }
        break;
    case KIND_REG:
        am335x_prcm_reg_write(s, &am335x_prcm_regs[s->reg_index[r]], value);
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: bad write offset 0x%"
                      HWADDR_PRIx "\n", __func__, offset);
        return;
    }

    am335x_prcm_update_clocks(s, true);
}

static const MemoryRegionOps am335x_prcm_ops = {
    .read = am335x_prcm_read,
    .write = am335x_prcm_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 4,
    .valid.max_access_size = 4,
    .impl.min_access_size = 4,
    .impl.max_access_size = 4,
};

/* The power-on register values of the TRM */
static void am335x_prcm_reset_regs(AM335xPrcmState *s)
{
    memset(s->regs, 0, sizeof(s->regs));
    for (int i = 0; i < ARRAY_SIZE(am335x_clkctrl); i++) {
        const Am335xClkctrl *c = &am335x_clkctrl[i];
        uint32_t v = c->opt_reset;

        if (c->flags & CLKCTRL_POR_ON) {
            v = FIELD_DP32(v, CLKCTRL, MODULEMODE, MODULEMODE_ENABLED);
        }
        s->regs[c->offset / 4] = v;
    }
    for (int i = 0; i < ARRAY_SIZE(am335x_clkstctrl); i++) {
        s->regs[am335x_clkstctrl[i].offset / 4] = CLKTRCTRL_SW_WKUP;
    }
    for (int i = 0; i < ARRAY_SIZE(am335x_prcm_regs); i++) {
        s->regs[am335x_prcm_regs[i].offset / 4] = am335x_prcm_regs[i].reset;
    }
}

/*
 * What U-Boot's SPL changes before it starts the kernel: the modules it
 * enables, and the DPLLs (do_setup_dpll() for CORE, MPU, PER and DDR; the
 * DISP DPLL stays in bypass until the LCDC driver programs it).
 */
static void am335x_prcm_apply_spl(AM335xPrcmState *s)
{
    for (int i = 0; i < ARRAY_SIZE(am335x_clkctrl); i++) {
        const Am335xClkctrl *c = &am335x_clkctrl[i];

        if (c->flags & CLKCTRL_SPL_ON) {
            s->regs[c->offset / 4] = FIELD_DP32(s->regs[c->offset / 4],
                                                CLKCTRL, MODULEMODE,
                                                MODULEMODE_ENABLED);
        }
    }

    s->regs[R_CM_CLKSEL_DPLL_CORE] = s->spl_core_clksel;
    s->regs[R_CM_DIV_M4_DPLL_CORE] = SPL_CORE_M4;
    s->regs[R_CM_DIV_M5_DPLL_CORE] = SPL_CORE_M5;
    s->regs[R_CM_DIV_M6_DPLL_CORE] = SPL_CORE_M6;
    s->regs[R_CM_CLKMODE_DPLL_CORE] = DPLL_EN_LOCK;

    s->regs[R_CM_CLKSEL_DPLL_MPU] = s->spl_mpu_clksel;
    s->regs[R_CM_DIV_M2_DPLL_MPU] = 1;
    s->regs[R_CM_CLKMODE_DPLL_MPU] = DPLL_EN_LOCK;

    s->regs[R_CM_CLKSEL_DPLL_PERIPH] = s->spl_per_clksel;
    s->regs[R_CM_DIV_M2_DPLL_PER] = SPL_PER_M2;
    s->regs[R_CM_CLKMODE_DPLL_PER] = DPLL_EN_LOCK;
    /* The SPL also forces the PER DCO output (USB PHY clock) on. */
    s->regs[R_CM_CLKDCOLDO_DPLL_PER] = 0x100;

    s->regs[R_CM_CLKSEL_DPLL_DDR] = s->spl_ddr_clksel;
    s->regs[R_CM_DIV_M2_DPLL_DDR] = 1;
    s->regs[R_CM_CLKMODE_DPLL_DDR] = DPLL_EN_LOCK;

    /* DMTIMER2 from the master oscillator, as the SPL's timer uses it. */
    s->regs[R_CLKSEL_TIMER2_CLK] = 1;
}

static void am335x_prcm_reset_hold(Object *obj, ResetType type)
{
    AM335xPrcmState *s = AM335X_PRCM(obj);
    uint32_t rstst = s->regs[R_PRM_RSTST];

    /*
     * PRM_RSTST keeps its bits across warm resets and logs the new cause;
     * a power-on or cold software reset starts the log afresh.  A machine
     * reset nobody in the SoC asked for (the monitor's system_reset, the
     * board's reset button) is the external warm reset input.
     */
    if (!s->powered_on || s->pending_cold) {
        rstst = R_PRM_RSTST_GLOBAL_COLD_RST_MASK;
    } else if (s->pending_rstst) {
        rstst |= s->pending_rstst;
    } else {
        rstst |= R_PRM_RSTST_EXTERNAL_WARM_RST_MASK;
    }

    am335x_prcm_reset_regs(s);
    am335x_prcm_apply_spl(s);
    s->regs[R_PRM_RSTST] = rstst;
    s->pending_rstst = 0;
    s->pending_cold = false;
    s->powered_on = true;
    trace_am335x_prcm_reset_cause(rstst);
}

static void am335x_prcm_reset_exit(Object *obj, ResetType type)
{
    am335x_prcm_update_clocks(AM335X_PRCM(obj), true);
}

/* WDT1 expired: log it; the watchdog's own action resets the machine. */
static void am335x_prcm_wdt_reset(void *opaque, int n, int level)
{
    AM335xPrcmState *s = AM335X_PRCM(opaque);

    if (level) {
        s->pending_rstst |= R_PRM_RSTST_WDT1_RST_MASK;
        trace_am335x_prcm_wdt_reset();
    }
}

static uint64_t am335x_prcm_gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;

        a = b;
        b = t;
    }
    return a;
}

/*
 * M and N for an ADPLLS CLKOUT of @mhz with M2 = 1: the smallest N whose
 * reference divides the target.  For a 24 MHz crystal this gives U-Boot's
 * own values: MPU 1000 MHz M=125 N=2, 720 MHz M=30 N=0, 600 MHz M=25 N=0;
 * DDR 400 MHz M=50 N=2, 266 MHz M=133 N=11; CORE 1000 MHz M=125 N=2.
 */
static bool am335x_prcm_adplls_clksel(AM335xPrcmState *s, uint32_t mhz,
                                      uint32_t *clksel, Error **errp,
                                      const char *what)
{
    uint64_t target = (uint64_t)mhz * 1000000;
    uint64_t g, m, n;

    if (mhz == 0 || target > ADPLLS_MAX_HZ) {
        error_setg(errp, "%s: %" PRIu32 " MHz is outside the DPLL's range",
                   what, mhz);
        return false;
    }
    g = am335x_prcm_gcd(s->sys_clk_hz, target);
    m = target / g;
    n = s->sys_clk_hz / g;
    if (m < 2 || m > R_CLKSEL_DPLL_MULT_MASK >> R_CLKSEL_DPLL_MULT_SHIFT ||
        n > R_CLKSEL_DPLL_DIV_MASK + 1) {
        error_setg(errp, "%s: %" PRIu32 " MHz cannot be made from a %" PRIu32
                   " Hz reference", what, mhz, s->sys_clk_hz);
        return false;
    }
    *clksel = FIELD_DP32(0, CLKSEL_DPLL, MULT, m);
    *clksel = FIELD_DP32(*clksel, CLKSEL_DPLL, DIV, n - 1);
    return true;
}

static void am335x_prcm_realize(DeviceState *dev, Error **errp)
{
    AM335xPrcmState *s = AM335X_PRCM(dev);
    uint64_t dco;
    int i;

    for (i = 0; i < ARRAY_SIZE(am335x_spl_per); i++) {
        if (am335x_spl_per[i].sys_hz == s->sys_clk_hz) {
            break;
        }
    }
    if (i == ARRAY_SIZE(am335x_spl_per)) {
        error_setg(errp, "sys-clk-hz must be 19200000, 24000000, 25000000 "
                   "or 26000000, not %" PRIu32, s->sys_clk_hz);
        return;
    }
    dco = (uint64_t)s->sys_clk_hz * am335x_spl_per[i].m /
          (am335x_spl_per[i].n + 1);
    s->spl_per_clksel =
        FIELD_DP32(0, CM_CLKSEL_DPLL_PERIPH, MULT, am335x_spl_per[i].m);
    s->spl_per_clksel =
        FIELD_DP32(s->spl_per_clksel, CM_CLKSEL_DPLL_PERIPH, DIV,
                   am335x_spl_per[i].n);
    s->spl_per_clksel =
        FIELD_DP32(s->spl_per_clksel, CM_CLKSEL_DPLL_PERIPH, SD_DIV,
                   DIV_ROUND_UP(dco, PER_SD_DIV_STEP_HZ));

    if (!am335x_prcm_adplls_clksel(s, SPL_CORE_MHZ, &s->spl_core_clksel,
                                   errp, "CORE DPLL") ||
        !am335x_prcm_adplls_clksel(s, s->mpu_mhz, &s->spl_mpu_clksel,
                                   errp, "mpu-mhz") ||
        !am335x_prcm_adplls_clksel(s, s->ddr_mhz, &s->spl_ddr_clksel,
                                   errp, "ddr-mhz")) {
        return;
    }
}

static void am335x_prcm_init(Object *obj)
{
    AM335xPrcmState *s = AM335X_PRCM(obj);
    DeviceState *dev = DEVICE(obj);

    memory_region_init_io(&s->iomem, obj, &am335x_prcm_ops, s,
                          TYPE_AM335X_PRCM, AM335X_PRCM_MMIO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(obj), &s->iomem);

    for (int i = 0; i < AM335X_PRCM_NUM_CLOCKS; i++) {
        s->clk[i] = qdev_init_clock_out(dev, am335x_prcm_clk_names[i]);
    }
    qdev_init_gpio_in_named(dev, am335x_prcm_wdt_reset,
                            AM335X_PRCM_WDT_RESET, 1);

    object_property_add_uint32_ptr(obj, "mpu-clk-hz", &s->mpu_clk_hz,
                                   OBJ_PROP_FLAG_READ);
    object_property_add_uint32_ptr(obj, "core-m4-hz", &s->core_m4_hz,
                                   OBJ_PROP_FLAG_READ);
    object_property_add_uint32_ptr(obj, "per-m2-hz", &s->per_m2_hz,
                                   OBJ_PROP_FLAG_READ);

    /* Which table describes each offset; the rest is undocumented. */
    for (int i = 0; i < ARRAY_SIZE(am335x_clkctrl); i++) {
        s->reg_kind[am335x_clkctrl[i].offset / 4] = KIND_CLKCTRL;
        s->reg_index[am335x_clkctrl[i].offset / 4] = i;
    }
    for (int i = 0; i < ARRAY_SIZE(am335x_clkstctrl); i++) {
        s->reg_kind[am335x_clkstctrl[i].offset / 4] = KIND_CLKSTCTRL;
        s->reg_index[am335x_clkstctrl[i].offset / 4] = i;
    }
    for (int i = 0; i < ARRAY_SIZE(am335x_prcm_regs); i++) {
        s->reg_kind[am335x_prcm_regs[i].offset / 4] = KIND_REG;
        s->reg_index[am335x_prcm_regs[i].offset / 4] = i;
    }
}

static int am335x_prcm_post_load(void *opaque, int version_id)
{
    am335x_prcm_update_clocks(AM335X_PRCM(opaque), false);
    return 0;
}

static const VMStateDescription vmstate_am335x_prcm = {
    .name = TYPE_AM335X_PRCM,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = am335x_prcm_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_ARRAY(regs, AM335xPrcmState, AM335X_PRCM_NUM_REGS),
        VMSTATE_UINT32(pending_rstst, AM335xPrcmState),
        VMSTATE_BOOL(pending_cold, AM335xPrcmState),
        VMSTATE_BOOL(powered_on, AM335xPrcmState),
        VMSTATE_END_OF_LIST()
    }
};

static const Property am335x_prcm_properties[] = {
    /* The crystal on SYSBOOT[15:14]'s choice: 24 MHz on BBB and EVM. */
    DEFINE_PROP_UINT32("sys-clk-hz", AM335xPrcmState, sys_clk_hz, 24000000),
    /* MPU and DDR DPLL rates the SPL picks for the board: BBB defaults. */
    DEFINE_PROP_UINT32("mpu-mhz", AM335xPrcmState, mpu_mhz, 1000),
    DEFINE_PROP_UINT32("ddr-mhz", AM335xPrcmState, ddr_mhz, 400),
};

static void am335x_prcm_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->realize = am335x_prcm_realize;
    dc->vmsd = &vmstate_am335x_prcm;
    dc->desc = "TI AM335x PRCM";
    rc->phases.hold = am335x_prcm_reset_hold;
    rc->phases.exit = am335x_prcm_reset_exit;
    device_class_set_props(dc, am335x_prcm_properties);
}

static const TypeInfo am335x_prcm_info = {
    .name = TYPE_AM335X_PRCM,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AM335xPrcmState),
    .instance_init = am335x_prcm_init,
    .class_init = am335x_prcm_class_init,
};

static void am335x_prcm_register_types(void)
{
    type_register_static(&am335x_prcm_info);
}

type_init(am335x_prcm_register_types)
