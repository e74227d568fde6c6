/*
 * QTest for the TI AM335x PRCM (power, reset and clock management)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "qobject/qdict.h"
#include "qobject/qnum.h"

#define PRCM_BASE                   0x44e00000
#define PRCM_PATH                   "/machine/soc/prcm"

/* CM_PER */
#define CM_PER_L3_CLKSTCTRL         0x00c
#define CM_PER_LCDC_CLKCTRL         0x018
#define CM_PER_TIMER3_CLKCTRL       0x084
#define CM_PER_GPIO1_CLKCTRL        0x0ac
#define CM_PER_L4HS_CLKSTCTRL       0x11c
#define CM_PER_L4HS_CLKCTRL         0x120
/* CM_WKUP */
#define CM_WKUP_L4WKUP_CLKCTRL      0x40c
#define CM_IDLEST_DPLL_MPU          0x420
#define CM_CLKSEL_DPLL_MPU          0x42c
#define CM_CLKSEL_DPLL_DDR          0x440
#define CM_IDLEST_DPLL_CORE         0x45c
#define CM_CLKSEL_DPLL_CORE         0x468
#define CM_IDLEST_DPLL_PER          0x470
#define CM_DIV_M4_DPLL_CORE         0x480
#define CM_DIV_M5_DPLL_CORE         0x484
#define CM_CLKMODE_DPLL_MPU         0x488
#define CM_CLKMODE_DPLL_PER         0x48c
#define CM_CLKMODE_DPLL_CORE        0x490
#define CM_CLKMODE_DPLL_DISP        0x498
#define CM_CLKSEL_DPLL_PERIPH       0x49c
#define CM_DIV_M2_DPLL_MPU          0x4a8
#define CM_DIV_M2_DPLL_PER          0x4ac
#define CM_WKUP_UART0_CLKCTRL       0x4b4
#define CM_WKUP_TIMER1_CLKCTRL      0x4c4
#define CM_DIV_M6_DPLL_CORE         0x4d8
/* CM_DPLL */
#define CLKSEL_TIMER2_CLK           0x508
#define CLKSEL_TIMER1MS_CLK         0x528
/* PRM */
#define RM_WKUP_RSTCTRL             0xd00
#define RM_WKUP_RSTST               0xd0c
#define PM_PER_PWRSTST              0xc08
#define PRM_RSTCTRL                 0xf00
#define PRM_RSTST                   0xf08
#define PM_GFX_PWRSTCTRL            0x1100
#define RM_GFX_RSTCTRL              0x1104
#define PM_GFX_PWRSTST              0x1110
#define RM_GFX_RSTST                0x1114

#define MODULEMODE_ENABLE           0x2
#define IDLEST_DISABLED             (3 << 16)
#define STBYST                      (1 << 18)
#define CLKTRCTRL_SW_SLEEP          0x1
#define CLKTRCTRL_SW_WKUP           0x2

#define DPLL_EN_MN_BYPASS           0x4
#define DPLL_EN_LOCK                0x7
#define ST_DPLL_CLK                 (1 << 0)
#define ST_MN_BYPASS                (1 << 8)
#define DIV_ST                      (1 << 9)
#define DIVCHACK                    (1 << 5)

#define RSTST_GLOBAL_COLD           (1 << 0)
#define RSTST_GLOBAL_WARM_SW        (1 << 1)
#define RSTST_WDT1                  (1 << 4)
#define RSTST_EXTERNAL_WARM         (1 << 5)

static uint32_t prcm_read(QTestState *qts, uint32_t reg)
{
    return qtest_readl(qts, PRCM_BASE + reg);
}

static void prcm_write(QTestState *qts, uint32_t reg, uint32_t value)
{
    qtest_writel(qts, PRCM_BASE + reg, value);
}

static uint64_t prcm_qom_get(QTestState *qts, const char *property)
{
    QDict *resp;
    uint64_t value;

    resp = qtest_qmp(qts, "{ 'execute': 'qom-get', 'arguments': "
                     "{ 'path': %s, 'property': %s } }", PRCM_PATH, property);
    g_assert_true(qdict_haskey(resp, "return"));
    value = qnum_get_uint(qobject_to(QNum, qdict_get(resp, "return")));
    qobject_unref(resp);
    return value;
}

static QTestState *start(void)
{
    return qtest_init("-M beaglebone-black");
}

/*
 * The machine starts the kernel directly, so the PRCM resets to what
 * U-Boot's SPL leaves for a BeagleBone Black on a 24 MHz crystal.
 */
static void test_spl_dplls(void)
{
    QTestState *qts = start();

    /* CORE: M=125 N=2, DCO 2 GHz; M4=10, M5=8, M6=4 */
    g_assert_cmphex(prcm_read(qts, CM_CLKMODE_DPLL_CORE) & 7, ==,
                    DPLL_EN_LOCK);
    g_assert_cmphex(prcm_read(qts, CM_IDLEST_DPLL_CORE), ==, ST_DPLL_CLK);
    g_assert_cmphex(prcm_read(qts, CM_CLKSEL_DPLL_CORE), ==, (125 << 8) | 2);
    g_assert_cmphex(prcm_read(qts, CM_DIV_M4_DPLL_CORE), ==, DIV_ST | 10);
    g_assert_cmphex(prcm_read(qts, CM_DIV_M5_DPLL_CORE), ==, DIV_ST | 8);
    g_assert_cmphex(prcm_read(qts, CM_DIV_M6_DPLL_CORE), ==, DIV_ST | 4);

    /* MPU: 1 GHz, M=125 N=2 M2=1 */
    g_assert_cmphex(prcm_read(qts, CM_IDLEST_DPLL_MPU), ==, ST_DPLL_CLK);
    g_assert_cmphex(prcm_read(qts, CM_CLKSEL_DPLL_MPU), ==, (125 << 8) | 2);
    g_assert_cmphex(prcm_read(qts, CM_DIV_M2_DPLL_MPU), ==, DIV_ST | 1);

    /* PER: M=400 N=9 (960 MHz), SD_DIV=4, M2=5 */
    g_assert_cmphex(prcm_read(qts, CM_IDLEST_DPLL_PER), ==, ST_DPLL_CLK);
    g_assert_cmphex(prcm_read(qts, CM_CLKSEL_DPLL_PERIPH), ==,
                    (4 << 24) | (400 << 8) | 9);
    g_assert_cmphex(prcm_read(qts, CM_DIV_M2_DPLL_PER), ==, DIV_ST | 5);

    /* DDR3 at 400 MHz: M=50 N=2; DISP untouched, in bypass */
    g_assert_cmphex(prcm_read(qts, CM_CLKSEL_DPLL_DDR), ==, (50 << 8) | 2);
    g_assert_cmphex(prcm_read(qts, CM_CLKMODE_DPLL_DISP) & 7, ==,
                    DPLL_EN_MN_BYPASS);

    /* Clock selects: timers from the 24 MHz master oscillator */
    g_assert_cmphex(prcm_read(qts, CLKSEL_TIMER2_CLK), ==, 1);
    g_assert_cmphex(prcm_read(qts, CLKSEL_TIMER1MS_CLK), ==, 0);

    g_assert_cmpuint(prcm_qom_get(qts, "mpu-clk-hz"), ==, 1000000000);
    g_assert_cmpuint(prcm_qom_get(qts, "core-m4-hz"), ==, 200000000);
    g_assert_cmpuint(prcm_qom_get(qts, "per-m2-hz"), ==, 192000000);

    /* A power-on reset */
    g_assert_cmphex(prcm_read(qts, PRM_RSTST), ==, RSTST_GLOBAL_COLD);

    qtest_quit(qts);
}

static void test_clkctrl(void)
{
    QTestState *qts = start();

    /* Enabled by the SPL: functional */
    g_assert_cmphex(prcm_read(qts, CM_WKUP_UART0_CLKCTRL), ==,
                    MODULEMODE_ENABLE);
    g_assert_cmphex(prcm_read(qts, CM_PER_L4HS_CLKCTRL), ==,
                    MODULEMODE_ENABLE);

    /* A slave-only module: IDLEST follows MODULEMODE */
    g_assert_cmphex(prcm_read(qts, CM_PER_TIMER3_CLKCTRL), ==,
                    IDLEST_DISABLED);
    prcm_write(qts, CM_PER_TIMER3_CLKCTRL, MODULEMODE_ENABLE);
    g_assert_cmphex(prcm_read(qts, CM_PER_TIMER3_CLKCTRL), ==,
                    MODULEMODE_ENABLE);
    prcm_write(qts, CM_PER_TIMER3_CLKCTRL, 0);
    g_assert_cmphex(prcm_read(qts, CM_PER_TIMER3_CLKCTRL), ==,
                    IDLEST_DISABLED);

    /* A module with an initiator port: STBYST too */
    g_assert_cmphex(prcm_read(qts, CM_PER_LCDC_CLKCTRL), ==,
                    STBYST | IDLEST_DISABLED);
    prcm_write(qts, CM_PER_LCDC_CLKCTRL, MODULEMODE_ENABLE);
    g_assert_cmphex(prcm_read(qts, CM_PER_LCDC_CLKCTRL), ==,
                    MODULEMODE_ENABLE);
    prcm_write(qts, CM_PER_LCDC_CLKCTRL, 0);
    g_assert_cmphex(prcm_read(qts, CM_PER_LCDC_CLKCTRL), ==,
                    STBYST | IDLEST_DISABLED);

    /* Status bits are read-only; the GPIO debounce clock gate is kept */
    prcm_write(qts, CM_PER_GPIO1_CLKCTRL, 0xffffffff);
    g_assert_cmphex(prcm_read(qts, CM_PER_GPIO1_CLKCTRL), ==,
                    (1 << 18) | 0x3);
    prcm_write(qts, CM_PER_GPIO1_CLKCTRL, MODULEMODE_ENABLE);
    g_assert_cmphex(prcm_read(qts, CM_PER_GPIO1_CLKCTRL), ==,
                    MODULEMODE_ENABLE);

    /* The L4_WKUP interconnect cannot be switched off */
    prcm_write(qts, CM_WKUP_L4WKUP_CLKCTRL, 0);
    g_assert_cmphex(prcm_read(qts, CM_WKUP_L4WKUP_CLKCTRL), ==,
                    MODULEMODE_ENABLE);

    qtest_quit(qts);
}

static void test_clkstctrl(void)
{
    QTestState *qts = start();

    /* L4HS: CPSW 5/50/250 MHz and L4HS clocks running */
    g_assert_cmphex(prcm_read(qts, CM_PER_L4HS_CLKSTCTRL), ==,
                    0x78 | CLKTRCTRL_SW_WKUP);
    prcm_write(qts, CM_PER_L4HS_CLKSTCTRL, CLKTRCTRL_SW_SLEEP);
    g_assert_cmphex(prcm_read(qts, CM_PER_L4HS_CLKSTCTRL), ==,
                    CLKTRCTRL_SW_SLEEP);
    prcm_write(qts, CM_PER_L4HS_CLKSTCTRL, 0xffffff03);
    g_assert_cmphex(prcm_read(qts, CM_PER_L4HS_CLKSTCTRL), ==, 0x78 | 0x3);

    g_assert_cmphex(prcm_read(qts, CM_PER_L3_CLKSTCTRL) & 0x10, ==, 0x10);

    qtest_quit(qts);
}

static void test_dpll_relock(void)
{
    QTestState *qts = start();
    uint32_t m2;

    /*
     * PER to MN bypass: CLKOUT is the 24 MHz reference, M2 not applied.
     * MN bypass clears DPLL_MULT, so relocking alone stays in bypass.
     */
    prcm_write(qts, CM_CLKMODE_DPLL_PER, DPLL_EN_MN_BYPASS);
    g_assert_cmphex(prcm_read(qts, CM_IDLEST_DPLL_PER), ==, ST_MN_BYPASS);
    g_assert_cmphex(prcm_read(qts, CM_CLKSEL_DPLL_PERIPH), ==, (4 << 24) | 9);
    g_assert_cmpuint(prcm_qom_get(qts, "per-m2-hz"), ==, 24000000);
    prcm_write(qts, CM_CLKMODE_DPLL_PER, DPLL_EN_LOCK);
    g_assert_cmphex(prcm_read(qts, CM_IDLEST_DPLL_PER), ==, ST_MN_BYPASS);

    /* Relock at new settings: M=500 N=11, 1 GHz / 5 */
    prcm_write(qts, CM_CLKSEL_DPLL_PERIPH, (500 << 8) | 11);
    prcm_write(qts, CM_CLKMODE_DPLL_PER, DPLL_EN_LOCK);
    g_assert_cmphex(prcm_read(qts, CM_IDLEST_DPLL_PER), ==, ST_DPLL_CLK);
    g_assert_cmpuint(prcm_qom_get(qts, "per-m2-hz"), ==, 200000000);

    /* MPU: M2 change toggles DIVCHACK, rate follows */
    m2 = prcm_read(qts, CM_DIV_M2_DPLL_MPU);
    prcm_write(qts, CM_DIV_M2_DPLL_MPU, 2);
    g_assert_cmphex(prcm_read(qts, CM_DIV_M2_DPLL_MPU), ==,
                    ((m2 & DIVCHACK) ^ DIVCHACK) | DIV_ST | 2);
    g_assert_cmpuint(prcm_qom_get(qts, "mpu-clk-hz"), ==, 500000000);
    /* The same divider again: no toggle */
    prcm_write(qts, CM_DIV_M2_DPLL_MPU, 2);
    g_assert_cmphex(prcm_read(qts, CM_DIV_M2_DPLL_MPU) & DIVCHACK, ==,
                    (m2 & DIVCHACK) ^ DIVCHACK);

    /* MPU to 600 MHz the way Linux does it: bypass, program, lock */
    prcm_write(qts, CM_CLKMODE_DPLL_MPU, 0x5);
    g_assert_cmphex(prcm_read(qts, CM_IDLEST_DPLL_MPU), ==, 0);
    g_assert_cmpuint(prcm_qom_get(qts, "mpu-clk-hz"), ==, 24000000);
    prcm_write(qts, CM_CLKSEL_DPLL_MPU, (25 << 8) | 0);
    prcm_write(qts, CM_DIV_M2_DPLL_MPU, 1);
    prcm_write(qts, CM_CLKMODE_DPLL_MPU, DPLL_EN_LOCK);
    g_assert_cmphex(prcm_read(qts, CM_IDLEST_DPLL_MPU), ==, ST_DPLL_CLK);
    g_assert_cmpuint(prcm_qom_get(qts, "mpu-clk-hz"), ==, 600000000);

    /* Outside the lock range (> 1 GHz): the DPLL never reports lock */
    prcm_write(qts, CM_CLKSEL_DPLL_MPU, (2000 << 8) | 0);
    g_assert_cmphex(prcm_read(qts, CM_IDLEST_DPLL_MPU), ==, 0);
    g_assert_cmpuint(prcm_qom_get(qts, "mpu-clk-hz"), ==, 0);

    /* CORE in idle bypass: the HSDIVIDER passes the reference through */
    prcm_write(qts, CM_CLKMODE_DPLL_CORE, 0x6);
    g_assert_cmphex(prcm_read(qts, CM_IDLEST_DPLL_CORE), ==, 0);
    g_assert_cmpuint(prcm_qom_get(qts, "core-m4-hz"), ==, 24000000);

    qtest_quit(qts);
}

static void test_warm_reset(void)
{
    QTestState *qts = start();

    /* Clear the power-on log, change some state */
    prcm_write(qts, PRM_RSTST, 0xffffffff);
    g_assert_cmphex(prcm_read(qts, PRM_RSTST), ==, 0);
    prcm_write(qts, CM_PER_TIMER3_CLKCTRL, MODULEMODE_ENABLE);
    prcm_write(qts, CM_DIV_M2_DPLL_MPU, 2);

    /* RST_GLOBAL_WARM_SW resets the machine and is logged across it */
    prcm_write(qts, PRM_RSTCTRL, 0x1);
    qtest_qmp_eventwait(qts, "RESET");
    g_assert_cmphex(prcm_read(qts, PRM_RSTST), ==, RSTST_GLOBAL_WARM_SW);
    g_assert_cmphex(prcm_read(qts, PRM_RSTCTRL), ==, 0);
    g_assert_cmphex(prcm_read(qts, CM_PER_TIMER3_CLKCTRL), ==,
                    IDLEST_DISABLED);
    g_assert_cmpuint(prcm_qom_get(qts, "mpu-clk-hz"), ==, 1000000000);

    /* A watchdog expiry is logged by the reset that follows it */
    qtest_set_irq_in(qts, PRCM_PATH, "wdt-reset", 0, 1);
    qtest_set_irq_in(qts, PRCM_PATH, "wdt-reset", 0, 0);
    qtest_qmp_assert_success(qts, "{ 'execute': 'system_reset' }");
    qtest_qmp_eventwait(qts, "RESET");
    g_assert_cmphex(prcm_read(qts, PRM_RSTST), ==,
                    RSTST_GLOBAL_WARM_SW | RSTST_WDT1);

    /* A reset from outside the SoC is the external warm reset input */
    qtest_qmp_assert_success(qts, "{ 'execute': 'system_reset' }");
    qtest_qmp_eventwait(qts, "RESET");
    g_assert_cmphex(prcm_read(qts, PRM_RSTST), ==,
                    RSTST_GLOBAL_WARM_SW | RSTST_WDT1 | RSTST_EXTERNAL_WARM);

    /* RST_GLOBAL_COLD_SW starts the log afresh */
    prcm_write(qts, PRM_RSTCTRL, 0x2);
    qtest_qmp_eventwait(qts, "RESET");
    g_assert_cmphex(prcm_read(qts, PRM_RSTST), ==, RSTST_GLOBAL_COLD);

    qtest_quit(qts);
}

static void test_rstst_w1c(void)
{
    QTestState *qts = start();

    g_assert_cmphex(prcm_read(qts, PRM_RSTST), ==, RSTST_GLOBAL_COLD);
    prcm_write(qts, PRM_RSTST, 0);
    g_assert_cmphex(prcm_read(qts, PRM_RSTST), ==, RSTST_GLOBAL_COLD);
    prcm_write(qts, PRM_RSTST, RSTST_GLOBAL_COLD);
    g_assert_cmphex(prcm_read(qts, PRM_RSTST), ==, 0);

    qtest_quit(qts);
}

/* Linux's omap_prm: clear RSTST, release the line, poll RSTST. */
static void test_local_resets(void)
{
    QTestState *qts = start();

    g_assert_cmphex(prcm_read(qts, RM_GFX_RSTCTRL), ==, 0x1);
    g_assert_cmphex(prcm_read(qts, RM_GFX_RSTST), ==, 0);
    prcm_write(qts, RM_GFX_RSTST, 0x1);
    prcm_write(qts, RM_GFX_RSTCTRL, 0);
    g_assert_cmphex(prcm_read(qts, RM_GFX_RSTCTRL), ==, 0);
    g_assert_cmphex(prcm_read(qts, RM_GFX_RSTST), ==, 0x1);
    prcm_write(qts, RM_GFX_RSTST, 0x1);
    g_assert_cmphex(prcm_read(qts, RM_GFX_RSTST), ==, 0);

    /* WKUP_M3: line 3, status bit 5 */
    g_assert_cmphex(prcm_read(qts, RM_WKUP_RSTCTRL), ==, 0x8);
    prcm_write(qts, RM_WKUP_RSTCTRL, 0);
    g_assert_cmphex(prcm_read(qts, RM_WKUP_RSTST), ==, 0x20);

    qtest_quit(qts);
}

static void test_power_domains(void)
{
    QTestState *qts = start();

    /* PER on, logic and the three memory banks on */
    g_assert_cmphex(prcm_read(qts, PM_PER_PWRSTST), ==, 0x01e60007);

    /* GFX resets to OFF; switching it on completes at once */
    g_assert_cmphex(prcm_read(qts, PM_GFX_PWRSTCTRL), ==, 0x00060044);
    g_assert_cmphex(prcm_read(qts, PM_GFX_PWRSTST), ==, 0);
    prcm_write(qts, PM_GFX_PWRSTCTRL, 0x00060044 | 0x3);
    g_assert_cmphex(prcm_read(qts, PM_GFX_PWRSTST), ==, 0x37);
    /* RET with logic retained, memory retained */
    prcm_write(qts, PM_GFX_PWRSTCTRL, 0x00060044 | 0x1);
    g_assert_cmphex(prcm_read(qts, PM_GFX_PWRSTST), ==, 0x15);
    /* LOWPOWERSTATECHANGE reads back 0 once done */
    prcm_write(qts, PM_GFX_PWRSTCTRL, 0x00060044 | 0x10);
    g_assert_cmphex(prcm_read(qts, PM_GFX_PWRSTCTRL), ==, 0x00060044);

    qtest_quit(qts);
}

static void test_bad_offsets(void)
{
    QTestState *qts = start();

    /* Holes in a documented block and in the reserved space */
    g_assert_cmphex(prcm_read(qts, 0x010), ==, 0);
    g_assert_cmphex(prcm_read(qts, 0x5fc), ==, 0);
    g_assert_cmphex(prcm_read(qts, 0x1300), ==, 0);
    g_assert_cmphex(prcm_read(qts, 0x1ffc), ==, 0);
    prcm_write(qts, 0x010, 0xffffffff);
    prcm_write(qts, 0x1ffc, 0xffffffff);
    g_assert_cmphex(prcm_read(qts, 0x010), ==, 0);

    /* Read-only registers stay put */
    prcm_write(qts, CM_IDLEST_DPLL_CORE, 0);
    g_assert_cmphex(prcm_read(qts, CM_IDLEST_DPLL_CORE), ==, ST_DPLL_CLK);

    /* Reserved and hostile DPLL settings do not crash the model */
    prcm_write(qts, CM_CLKMODE_DPLL_MPU, 0x1);
    g_assert_cmphex(prcm_read(qts, CM_IDLEST_DPLL_MPU), ==, 0);
    prcm_write(qts, CM_CLKSEL_DPLL_MPU, 0xffffffff);
    prcm_write(qts, CM_CLKMODE_DPLL_MPU, DPLL_EN_LOCK);
    prcm_write(qts, CM_DIV_M2_DPLL_MPU, 0);
    g_assert_cmpuint(prcm_qom_get(qts, "mpu-clk-hz"), ==, 0);
    prcm_write(qts, CM_CLKSEL_DPLL_PERIPH, 0xffffffff);
    prcm_write(qts, CLKSEL_TIMER1MS_CLK, 0x7);
    prcm_write(qts, CM_WKUP_TIMER1_CLKCTRL, 0x3);

    /* The block still answers */
    g_assert_cmphex(prcm_read(qts, CM_IDLEST_DPLL_CORE), ==, ST_DPLL_CLK);

    qtest_quit(qts);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);

    qtest_add_func("am335x/prcm/spl_dplls", test_spl_dplls);
    qtest_add_func("am335x/prcm/clkctrl", test_clkctrl);
    qtest_add_func("am335x/prcm/clkstctrl", test_clkstctrl);
    qtest_add_func("am335x/prcm/dpll_relock", test_dpll_relock);
    qtest_add_func("am335x/prcm/warm_reset", test_warm_reset);
    qtest_add_func("am335x/prcm/rstst_w1c", test_rstst_w1c);
    qtest_add_func("am335x/prcm/local_resets", test_local_resets);
    qtest_add_func("am335x/prcm/power_domains", test_power_domains);
    qtest_add_func("am335x/prcm/bad_offsets", test_bad_offsets);

    return g_test_run();
}
