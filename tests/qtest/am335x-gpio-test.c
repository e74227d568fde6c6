/*
 * QTest for the TI AM335x GPIO modules (GPIO0-3)
 *
 * The tests drive the pins' external levels through the modules' unnamed
 * GPIO inputs and watch either the pin outputs or the two interrupt lines
 * (sysbus IRQs 0 and 1).  qtest intercepts one GPIO list per QEMU
 * instance, so each test watches one of them only.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "am335x-qtest.h"
#include "qobject/qdict.h"

/* TRM table 2-2 and 2-3 */
static const uint64_t gpio_base[] = {
    0x44e07000, 0x4804c000, 0x481ac000, 0x481ae000,
};

/* TRM 25.4.1 */
#define REVISION            0x000
#define SYSCONFIG           0x010
#define EOI                 0x020
#define IRQSTATUS_RAW(n)    (0x024 + 4 * (n))
#define IRQSTATUS(n)        (0x02c + 4 * (n))
#define IRQSTATUS_SET(n)    (0x034 + 4 * (n))
#define IRQSTATUS_CLR(n)    (0x03c + 4 * (n))
#define IRQWAKEN(n)         (0x044 + 4 * (n))
#define SYSSTATUS           0x114
#define CTRL                0x130
#define OE                  0x134
#define DATAIN              0x138
#define DATAOUT             0x13c
#define LEVELDETECT0        0x140
#define LEVELDETECT1        0x144
#define RISINGDETECT        0x148
#define FALLINGDETECT       0x14c
#define DEBOUNCENABLE       0x150
#define DEBOUNCINGTIME      0x154
#define CLEARDATAOUT        0x190
#define SETDATAOUT          0x194

#define GPIO_REV            0x50600801
#define SYSCONFIG_SOFTRESET (1u << 1)
#define SYSCONFIG_SMARTIDLE (2 << 3)
#define SYSSTATUS_RESETDONE (1u << 0)
#define CTRL_DISABLEMODULE  (1u << 0)
#define CTRL_RESET          (1 << 1)

/* A pin's bit in the 32-bit pin registers */
#define PIN(n)              (1u << (n))

/*
 * GPIO0_6 is the SD slot's card detect on both boards (low: card in); the
 * slot is empty in these tests, so it reads high.
 */
#define SD_CD               PIN(6)
/* GPIO1_25 on the BBB: the HDMI framer's INT, high while it is idle */
#define HDMI_INT            PIN(25)

/* The BeagleBone Black's user LEDs USR0..3: GPIO1_21..24 */
#define USR_LEDS            (0xfu << 21)

/*
 * The EVM's keys: the volume buttons on GPIO0_2-3 (pulled up, low while
 * pressed), the keypad's columns on GPIO1_21-22 and rows on GPIO1_25-27
 */
#define VOLUME_KEYS         (PIN(2) | PIN(3))
#define KEYPAD_COL(c)       PIN(21 + (c))
#define KEYPAD_ROWS         (0x7u << 25)
#define KEYPAD_ROW(r)       PIN(25 + (r))

/* PRCM: GPIO0's clocks, MODULEMODE enabled plus OPTFCLKEN_GPIO0_GDBCLK */
#define CM_WKUP_GPIO0_CLKCTRL   0x44e00408
#define CLKCTRL_ENABLE          0x2
#define CLKCTRL_DBCLK           (1u << 18)
/* CLKSEL_GPIO0_DBCLK resets to CLK_RC32K. */
#define DBCLK_HZ                32000

#define US                  1000

static const char *machines[] = { "beaglebone-black", "am335x-evm" };

static uint32_t gp_read(QTestState *qts, int m, uint32_t reg)
{
    return qtest_readl(qts, gpio_base[m] + reg);
}

static void gp_write(QTestState *qts, int m, uint32_t reg, uint32_t value)
{
    qtest_writel(qts, gpio_base[m] + reg, value);
}

static char *gp_path(int m)
{
    return g_strdup_printf("/machine/soc/gpio[%d]", m);
}

static void set_pin(QTestState *qts, int m, int pin, int level)
{
    g_autofree char *path = gp_path(m);

    qtest_set_irq_in(qts, path, NULL, pin, level);
}

static uint32_t qom_outputs(QTestState *qts, int m)
{
    g_autofree char *path = gp_path(m);
    QDict *resp = qtest_qmp(qts, "{ 'execute': 'qom-get', 'arguments': "
                            "{ 'path': %s, 'property': 'outputs' } }", path);
    uint32_t value;

    g_assert(qdict_haskey(resp, "return"));
    value = qdict_get_int(resp, "return");
    qobject_unref(resp);
    return value;
}

/* Watch the interrupt lines of module @m: IRQ 0 and 1 in qtest_get_irq. */
static void watch_lines(QTestState *qts, int m)
{
    g_autofree char *path = gp_path(m);

    qtest_irq_intercept_out_named(qts, path, "sysbus-irq");
}

/* Watch the pin outputs of module @m: pin n is qtest_get_irq(n). */
static void watch_pins(QTestState *qts, int m)
{
    g_autofree char *path = gp_path(m);

    qtest_irq_intercept_out(qts, path);
}

static void test_reset_values(const void *data)
{
    QTestState *qts = qtest_initf("-M %s", (const char *)data);

    for (int m = 0; m < ARRAY_SIZE(gpio_base); m++) {
        g_test_message("gpio%d", m);
        g_assert_cmphex(gp_read(qts, m, REVISION), ==, GPIO_REV);
        g_assert_cmphex(gp_read(qts, m, SYSCONFIG), ==, 0);
        g_assert_cmphex(gp_read(qts, m, EOI), ==, 0);
        for (int n = 0; n < 2; n++) {
            g_assert_cmphex(gp_read(qts, m, IRQSTATUS_RAW(n)), ==, 0);
            g_assert_cmphex(gp_read(qts, m, IRQSTATUS(n)), ==, 0);
            g_assert_cmphex(gp_read(qts, m, IRQSTATUS_SET(n)), ==, 0);
            g_assert_cmphex(gp_read(qts, m, IRQSTATUS_CLR(n)), ==, 0);
            g_assert_cmphex(gp_read(qts, m, IRQWAKEN(n)), ==, 0);
        }
        g_assert_cmphex(gp_read(qts, m, SYSSTATUS), ==, SYSSTATUS_RESETDONE);
        g_assert_cmphex(gp_read(qts, m, CTRL), ==, CTRL_RESET);
        g_assert_cmphex(gp_read(qts, m, OE), ==, 0xffffffff);
        g_assert_cmphex(gp_read(qts, m, DATAIN), ==,
                        m == 0 && !strcmp(data, "am335x-evm") ?
                        SD_CD | VOLUME_KEYS :
                        m == 0 ? SD_CD :
                        m == 1 && !strcmp(data, "beaglebone-black") ? HDMI_INT :
                        0);
        g_assert_cmphex(gp_read(qts, m, DATAOUT), ==, 0);
        g_assert_cmphex(gp_read(qts, m, LEVELDETECT0), ==, 0);
        g_assert_cmphex(gp_read(qts, m, LEVELDETECT1), ==, 0);
        g_assert_cmphex(gp_read(qts, m, RISINGDETECT), ==, 0);
        g_assert_cmphex(gp_read(qts, m, FALLINGDETECT), ==, 0);
        g_assert_cmphex(gp_read(qts, m, DEBOUNCENABLE), ==, 0);
        g_assert_cmphex(gp_read(qts, m, DEBOUNCINGTIME), ==, 0);
        g_assert_cmphex(gp_read(qts, m, CLEARDATAOUT), ==, 0);
        g_assert_cmphex(gp_read(qts, m, SETDATAOUT), ==, 0);
        g_assert_cmphex(qom_outputs(qts, m), ==, 0);
    }

    qtest_quit(qts);
}

/* What ti-sysc does at probe: idle mode, soft reset, RESETDONE. */
static void test_sysconfig(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    for (int m = 0; m < ARRAY_SIZE(gpio_base); m++) {
        gp_write(qts, m, SYSCONFIG, SYSCONFIG_SMARTIDLE);
        g_assert_cmphex(gp_read(qts, m, SYSCONFIG), ==, SYSCONFIG_SMARTIDLE);
        /* Reserved bits and SOFTRESET do not stick. */
        gp_write(qts, m, SYSCONFIG, 0xffffffe0);
        g_assert_cmphex(gp_read(qts, m, SYSCONFIG), ==, 0);
        gp_write(qts, m, SYSCONFIG, SYSCONFIG_SMARTIDLE | SYSCONFIG_SOFTRESET);
        g_assert_cmphex(gp_read(qts, m, SYSCONFIG), ==, 0);
        g_assert_cmphex(gp_read(qts, m, SYSSTATUS) & SYSSTATUS_RESETDONE, ==,
                        SYSSTATUS_RESETDONE);
    }

    qtest_quit(qts);
}

/* SETDATAOUT and CLEARDATAOUT change DATAOUT bits; OE selects outputs. */
static void test_outputs(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    watch_pins(qts, 1);

    /* As inputs, the pins keep DATAOUT to themselves. */
    gp_write(qts, 1, SETDATAOUT, PIN(21) | PIN(22));
    g_assert_cmphex(gp_read(qts, 1, DATAOUT), ==, PIN(21) | PIN(22));
    g_assert_cmphex(gp_read(qts, 1, SETDATAOUT), ==, PIN(21) | PIN(22));
    g_assert_cmphex(gp_read(qts, 1, CLEARDATAOUT), ==, PIN(21) | PIN(22));
    g_assert_cmphex(gp_read(qts, 1, DATAIN), ==, HDMI_INT);
    g_assert_false(qtest_get_irq(qts, 21));
    g_assert_cmphex(qom_outputs(qts, 1), ==, 0);

    /* Driving them: DATAIN and the outputs follow DATAOUT. */
    gp_write(qts, 1, OE, ~USR_LEDS);
    g_assert_cmphex(gp_read(qts, 1, DATAIN), ==,
                    PIN(21) | PIN(22) | HDMI_INT);
    g_assert_true(qtest_get_irq(qts, 21));
    g_assert_true(qtest_get_irq(qts, 22));
    g_assert_false(qtest_get_irq(qts, 23));
    g_assert_false(qtest_get_irq(qts, 24));

    gp_write(qts, 1, CLEARDATAOUT, PIN(21));
    g_assert_cmphex(gp_read(qts, 1, DATAOUT), ==, PIN(22));
    g_assert_false(qtest_get_irq(qts, 21));
    g_assert_true(qtest_get_irq(qts, 22));

    gp_write(qts, 1, SETDATAOUT, PIN(24));
    g_assert_cmphex(gp_read(qts, 1, DATAOUT), ==, PIN(22) | PIN(24));
    g_assert_true(qtest_get_irq(qts, 24));
    g_assert_cmphex(gp_read(qts, 1, DATAIN), ==,
                    PIN(22) | PIN(24) | HDMI_INT);

    /* A plain DATAOUT write sets every bit at once. */
    gp_write(qts, 1, DATAOUT, PIN(23));
    g_assert_false(qtest_get_irq(qts, 22));
    g_assert_true(qtest_get_irq(qts, 23));
    g_assert_false(qtest_get_irq(qts, 24));

    /* Back to input: the pin is released and DATAIN shows the outside. */
    gp_write(qts, 1, OE, 0xffffffff);
    g_assert_false(qtest_get_irq(qts, 23));
    g_assert_cmphex(gp_read(qts, 1, DATAIN), ==, HDMI_INT);
    g_assert_cmphex(gp_read(qts, 1, DATAOUT), ==, PIN(23));

    qtest_quit(qts);
}

/* The "outputs" property shows the pins driven high, e.g. USR0..3. */
static void test_outputs_property(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    gp_write(qts, 1, OE, ~USR_LEDS);
    g_assert_cmphex(qom_outputs(qts, 1), ==, 0);
    gp_write(qts, 1, SETDATAOUT, USR_LEDS);
    g_assert_cmphex(qom_outputs(qts, 1), ==, USR_LEDS);
    gp_write(qts, 1, CLEARDATAOUT, PIN(22) | PIN(24));
    g_assert_cmphex(qom_outputs(qts, 1), ==, PIN(21) | PIN(23));

    /* Set DATAOUT bits of input pins are not driven. */
    gp_write(qts, 1, SETDATAOUT, PIN(0));
    g_assert_cmphex(qom_outputs(qts, 1), ==, PIN(21) | PIN(23));
    gp_write(qts, 1, OE, ~(USR_LEDS | PIN(0)));
    g_assert_cmphex(qom_outputs(qts, 1), ==, PIN(0) | PIN(21) | PIN(23));

    /* The other modules are untouched. */
    g_assert_cmphex(qom_outputs(qts, 0), ==, 0);
    g_assert_cmphex(qom_outputs(qts, 2), ==, 0);
    g_assert_cmphex(qom_outputs(qts, 3), ==, 0);

    qtest_quit(qts);
}

/* DATAIN shows the external level of input pins only. */
static void test_datain(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    set_pin(qts, 1, 5, 1);
    set_pin(qts, 1, 31, 1);
    g_assert_cmphex(gp_read(qts, 1, DATAIN), ==,
                    PIN(5) | PIN(31) | HDMI_INT);
    g_assert_cmphex(gp_read(qts, 2, DATAIN), ==, 0);
    set_pin(qts, 1, 31, 0);
    g_assert_cmphex(gp_read(qts, 1, DATAIN), ==,
                    PIN(5) | HDMI_INT);

    /* As an output driven low, pin 5 reads DATAOUT, not the outside. */
    gp_write(qts, 1, OE, ~PIN(5));
    g_assert_cmphex(gp_read(qts, 1, DATAIN), ==, HDMI_INT);
    gp_write(qts, 1, SETDATAOUT, PIN(5));
    g_assert_cmphex(gp_read(qts, 1, DATAIN), ==,
                    PIN(5) | HDMI_INT);
    set_pin(qts, 1, 5, 0);
    g_assert_cmphex(gp_read(qts, 1, DATAIN), ==,
                    PIN(5) | HDMI_INT);
    gp_write(qts, 1, OE, 0xffffffff);
    g_assert_cmphex(gp_read(qts, 1, DATAIN), ==, HDMI_INT);

    qtest_quit(qts);
}

/* Edge events reach both raw status registers; each line has its enable. */
static void test_edge_irq(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    watch_lines(qts, 1);
    gp_write(qts, 1, RISINGDETECT, PIN(3));
    gp_write(qts, 1, FALLINGDETECT, PIN(4));
    gp_write(qts, 1, IRQSTATUS_SET(0), PIN(3));
    gp_write(qts, 1, IRQSTATUS_SET(1), PIN(4));
    g_assert_cmphex(gp_read(qts, 1, IRQSTATUS_SET(0)), ==, PIN(3));
    g_assert_cmphex(gp_read(qts, 1, IRQSTATUS_CLR(1)), ==, PIN(4));

    /* A falling edge on pin 3 and a rising one on pin 4 are no events. */
    set_pin(qts, 1, 4, 1);
    g_assert_cmphex(gp_read(qts, 1, IRQSTATUS_RAW(0)), ==, 0);
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_false(qtest_get_irq(qts, 1));

    /* Rising edge on pin 3: line 0 only, as only it enables pin 3. */
    set_pin(qts, 1, 3, 1);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_false(qtest_get_irq(qts, 1));
    g_assert_cmphex(gp_read(qts, 1, IRQSTATUS_RAW(0)), ==, PIN(3));
    g_assert_cmphex(gp_read(qts, 1, IRQSTATUS_RAW(1)), ==, PIN(3));
    g_assert_cmphex(gp_read(qts, 1, IRQSTATUS(0)), ==, PIN(3));
    g_assert_cmphex(gp_read(qts, 1, IRQSTATUS(1)), ==, 0);

    /* Holding the level is no new event: W1C releases the line. */
    gp_write(qts, 1, IRQSTATUS(0), PIN(3));
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_cmphex(gp_read(qts, 1, IRQSTATUS_RAW(0)), ==, 0);
    /* Line 1's raw status is its own. */
    g_assert_cmphex(gp_read(qts, 1, IRQSTATUS_RAW(1)), ==, PIN(3));
    gp_write(qts, 1, IRQSTATUS(1), PIN(3));
    g_assert_cmphex(gp_read(qts, 1, IRQSTATUS_RAW(1)), ==, 0);

    /* Falling edge on pin 4: line 1 only. */
    set_pin(qts, 1, 4, 0);
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_true(qtest_get_irq(qts, 1));
    g_assert_cmphex(gp_read(qts, 1, IRQSTATUS(1)), ==, PIN(4));
    g_assert_cmphex(gp_read(qts, 1, IRQSTATUS(0)), ==, 0);
    g_assert_cmphex(gp_read(qts, 1, IRQSTATUS_RAW(0)), ==, PIN(4));

    /* Masking releases the line; the status stays pending. */
    gp_write(qts, 1, IRQSTATUS_CLR(1), PIN(4));
    g_assert_false(qtest_get_irq(qts, 1));
    g_assert_cmphex(gp_read(qts, 1, IRQSTATUS_RAW(1)), ==, PIN(4));
    gp_write(qts, 1, IRQSTATUS_SET(1), PIN(4));
    g_assert_true(qtest_get_irq(qts, 1));
    gp_write(qts, 1, IRQSTATUS(1), PIN(4));
    g_assert_false(qtest_get_irq(qts, 1));

    /* Enabling line 0 for pin 4 shows the event it latched, too. */
    gp_write(qts, 1, IRQSTATUS_SET(0), PIN(4));
    g_assert_true(qtest_get_irq(qts, 0));
    gp_write(qts, 1, IRQSTATUS(0), PIN(4));
    g_assert_false(qtest_get_irq(qts, 0));

    /* IRQSTATUS_RAW writes set status bits, for debug. */
    gp_write(qts, 1, IRQSTATUS_RAW(1), PIN(4));
    g_assert_true(qtest_get_irq(qts, 1));
    gp_write(qts, 1, IRQSTATUS(1), PIN(4));
    g_assert_false(qtest_get_irq(qts, 1));

    /* A pin can detect both edges. */
    gp_write(qts, 1, RISINGDETECT, PIN(3) | PIN(4));
    set_pin(qts, 1, 4, 1);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(gp_read(qts, 1, IRQSTATUS(0)), ==, PIN(4));

    qtest_quit(qts);
}

/* A level event sets its status again for as long as the level holds. */
static void test_level_irq(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    watch_lines(qts, 1);
    gp_write(qts, 1, IRQSTATUS_SET(0), PIN(7) | PIN(8));

    gp_write(qts, 1, LEVELDETECT1, PIN(7));
    g_assert_false(qtest_get_irq(qts, 0));
    set_pin(qts, 1, 7, 1);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(gp_read(qts, 1, IRQSTATUS(0)), ==, PIN(7));

    /* W1C while the level holds: still pending. */
    gp_write(qts, 1, IRQSTATUS(0), PIN(7));
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(gp_read(qts, 1, IRQSTATUS(0)), ==, PIN(7));

    /* The status is latched after the level goes; W1C then clears it. */
    set_pin(qts, 1, 7, 0);
    g_assert_true(qtest_get_irq(qts, 0));
    gp_write(qts, 1, IRQSTATUS(0), PIN(7));
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_cmphex(gp_read(qts, 1, IRQSTATUS_RAW(0)), ==, 0);

    /* Low-level detection on a pin that is already low fires at once. */
    gp_write(qts, 1, LEVELDETECT0, PIN(8));
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(gp_read(qts, 1, IRQSTATUS(0)), ==, PIN(8));
    /* Linux's mask: detection off, then W1C. */
    gp_write(qts, 1, LEVELDETECT0, 0);
    gp_write(qts, 1, IRQSTATUS(0), PIN(8));
    g_assert_false(qtest_get_irq(qts, 0));

    qtest_quit(qts);
}

/* CTRL.DISABLEMODULE freezes sampling and event detection. */
static void test_disable_module(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    watch_lines(qts, 1);
    gp_write(qts, 1, RISINGDETECT, PIN(9));
    gp_write(qts, 1, IRQSTATUS_SET(0), PIN(9));

    gp_write(qts, 1, CTRL, CTRL_RESET | CTRL_DISABLEMODULE);
    g_assert_cmphex(gp_read(qts, 1, CTRL), ==,
                    CTRL_RESET | CTRL_DISABLEMODULE);
    set_pin(qts, 1, 9, 1);
    g_assert_cmphex(gp_read(qts, 1, DATAIN), ==, HDMI_INT);
    g_assert_false(qtest_get_irq(qts, 0));

    /* Enabled again, the module samples the pin and sees the edge. */
    gp_write(qts, 1, CTRL, CTRL_RESET);
    g_assert_cmphex(gp_read(qts, 1, DATAIN), ==,
                    PIN(9) | HDMI_INT);
    g_assert_true(qtest_get_irq(qts, 0));

    qtest_quit(qts);
}

/*
 * Debouncing on GPIO0, whose debounce clock the PRCM provides: a new level
 * counts once stable for DEBOUNCINGTIME + 1 debounce clock cycles.
 */
#define CM_PER_GPIO1_CLKCTRL    0x44e000ac

/*
 * GPIO1's debounce clock is CLK_32KHZ through its PRCM optional clock
 * OPTFCLKEN_GPIO_1_GDBCLK: with the gate open, a new input level is only
 * taken after the debounce time; with it closed, at once (unfiltered).
 */
static void test_debounce_gpio1(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");
    const uint32_t cycles = 10;
    const int64_t wait = cycles * 1000000000LL / DBCLK_HZ;

    qtest_writel(qts, CM_PER_GPIO1_CLKCTRL, CLKCTRL_ENABLE | CLKCTRL_DBCLK);
    gp_write(qts, 1, DEBOUNCINGTIME, cycles - 1);
    gp_write(qts, 1, DEBOUNCENABLE, PIN(3));
    set_pin(qts, 1, 3, 1);
    g_assert_cmphex(gp_read(qts, 1, DATAIN) & PIN(3), ==, 0);
    qtest_clock_step(qts, wait - 20 * US);
    g_assert_cmphex(gp_read(qts, 1, DATAIN) & PIN(3), ==, 0);
    qtest_clock_step(qts, 40 * US);
    g_assert_cmphex(gp_read(qts, 1, DATAIN) & PIN(3), ==, PIN(3));

    qtest_writel(qts, CM_PER_GPIO1_CLKCTRL, CLKCTRL_ENABLE);
    set_pin(qts, 1, 3, 0);
    g_assert_cmphex(gp_read(qts, 1, DATAIN) & PIN(3), ==, 0);
    qtest_quit(qts);
}

static void test_debounce(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");
    /* 10 cycles: 312.5 us at 32 kHz */
    const uint32_t cycles = 10;
    const int64_t wait = cycles * 1000000000LL / DBCLK_HZ;

    qtest_writel(qts, CM_WKUP_GPIO0_CLKCTRL, CLKCTRL_ENABLE | CLKCTRL_DBCLK);
    watch_lines(qts, 0);
    gp_write(qts, 0, DEBOUNCINGTIME, cycles - 1);
    gp_write(qts, 0, DEBOUNCENABLE, PIN(2));
    gp_write(qts, 0, RISINGDETECT, PIN(2) | PIN(7));
    gp_write(qts, 0, FALLINGDETECT, PIN(2));
    gp_write(qts, 0, IRQSTATUS_SET(0), PIN(2) | PIN(7));
    /* DEBOUNCINGTIME has 8 bits. */
    g_assert_cmphex(gp_read(qts, 0, DEBOUNCINGTIME), ==, cycles - 1);

    /* A stable new level is taken after the debounce time. */
    set_pin(qts, 0, 2, 1);
    g_assert_cmphex(gp_read(qts, 0, DATAIN) & ~SD_CD, ==, 0);
    qtest_clock_step(qts, wait - 20 * US);
    g_assert_cmphex(gp_read(qts, 0, DATAIN) & ~SD_CD, ==, 0);
    g_assert_false(qtest_get_irq(qts, 0));
    qtest_clock_step(qts, 40 * US);
    g_assert_cmphex(gp_read(qts, 0, DATAIN) & ~SD_CD, ==, PIN(2));
    g_assert_true(qtest_get_irq(qts, 0));
    gp_write(qts, 0, IRQSTATUS(0), PIN(2));
    g_assert_false(qtest_get_irq(qts, 0));

    /* A glitch shorter than the debounce time is filtered out. */
    set_pin(qts, 0, 2, 0);
    qtest_clock_step(qts, wait / 2);
    set_pin(qts, 0, 2, 1);
    qtest_clock_step(qts, 2 * wait);
    g_assert_cmphex(gp_read(qts, 0, DATAIN) & ~SD_CD, ==, PIN(2));
    g_assert_false(qtest_get_irq(qts, 0));

    /* A bounce restarts the wait. */
    set_pin(qts, 0, 2, 0);
    qtest_clock_step(qts, wait / 2);
    set_pin(qts, 0, 2, 1);
    set_pin(qts, 0, 2, 0);
    qtest_clock_step(qts, wait - 20 * US);
    g_assert_cmphex(gp_read(qts, 0, DATAIN) & ~SD_CD, ==, PIN(2));
    qtest_clock_step(qts, 40 * US);
    g_assert_cmphex(gp_read(qts, 0, DATAIN) & ~SD_CD, ==, 0);
    g_assert_true(qtest_get_irq(qts, 0));
    gp_write(qts, 0, IRQSTATUS(0), PIN(2));

    /* Pins without DEBOUNCENABLE are taken at once. */
    set_pin(qts, 0, 7, 1);
    g_assert_cmphex(gp_read(qts, 0, DATAIN) & ~SD_CD, ==, PIN(7));
    g_assert_true(qtest_get_irq(qts, 0));
    gp_write(qts, 0, IRQSTATUS(0), PIN(7));

    /* Without the debounce clock the filter is bypassed. */
    qtest_writel(qts, CM_WKUP_GPIO0_CLKCTRL, CLKCTRL_ENABLE);
    set_pin(qts, 0, 2, 1);
    g_assert_cmphex(gp_read(qts, 0, DATAIN) & ~SD_CD, ==, PIN(2) | PIN(7));
    g_assert_true(qtest_get_irq(qts, 0));

    qtest_quit(qts);
}

/* SOFTRESET puts every register back and releases the outputs. */
static void test_softreset(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    watch_pins(qts, 1);
    gp_write(qts, 1, OE, ~USR_LEDS);
    gp_write(qts, 1, SETDATAOUT, USR_LEDS);
    gp_write(qts, 1, RISINGDETECT, PIN(1));
    gp_write(qts, 1, LEVELDETECT1, PIN(1));
    gp_write(qts, 1, IRQSTATUS_SET(0), PIN(1));
    gp_write(qts, 1, IRQWAKEN(0), PIN(1));
    gp_write(qts, 1, DEBOUNCINGTIME, 0x55);
    gp_write(qts, 1, CTRL, 0x7);
    gp_write(qts, 1, IRQSTATUS_RAW(1), PIN(30));
    g_assert_true(qtest_get_irq(qts, 21));
    g_assert_cmphex(qom_outputs(qts, 1), ==, USR_LEDS);

    gp_write(qts, 1, SYSCONFIG, SYSCONFIG_SOFTRESET);
    g_assert_cmphex(gp_read(qts, 1, SYSSTATUS), ==, SYSSTATUS_RESETDONE);
    g_assert_cmphex(gp_read(qts, 1, OE), ==, 0xffffffff);
    g_assert_cmphex(gp_read(qts, 1, DATAOUT), ==, 0);
    g_assert_cmphex(gp_read(qts, 1, RISINGDETECT), ==, 0);
    g_assert_cmphex(gp_read(qts, 1, LEVELDETECT1), ==, 0);
    g_assert_cmphex(gp_read(qts, 1, IRQSTATUS_SET(0)), ==, 0);
    g_assert_cmphex(gp_read(qts, 1, IRQWAKEN(0)), ==, 0);
    g_assert_cmphex(gp_read(qts, 1, IRQSTATUS_RAW(1)), ==, 0);
    g_assert_cmphex(gp_read(qts, 1, DEBOUNCINGTIME), ==, 0);
    g_assert_cmphex(gp_read(qts, 1, CTRL), ==, CTRL_RESET);
    for (int pin = 21; pin <= 24; pin++) {
        g_assert_false(qtest_get_irq(qts, pin));
    }
    g_assert_cmphex(qom_outputs(qts, 1), ==, 0);

    qtest_quit(qts);
}

/* 8- and 16-bit accesses reach the bytes they address. */
static void test_subword(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");
    uint64_t base = gpio_base[2];

    g_assert_cmphex(qtest_readw(qts, base + REVISION), ==, 0x0801);
    g_assert_cmphex(qtest_readw(qts, base + REVISION + 2), ==, 0x5060);
    g_assert_cmphex(qtest_readb(qts, base + OE + 1), ==, 0xff);

    gp_write(qts, 2, DATAOUT, 0x11223344);
    qtest_writeb(qts, base + DATAOUT + 2, 0xaa);
    g_assert_cmphex(gp_read(qts, 2, DATAOUT), ==, 0x11aa3344);
    qtest_writew(qts, base + DATAOUT, 0xbeef);
    g_assert_cmphex(gp_read(qts, 2, DATAOUT), ==, 0x11aabeef);

    /* The bytes not written of a set/clear register change nothing. */
    qtest_writeb(qts, base + CLEARDATAOUT + 3, 0x10);
    g_assert_cmphex(gp_read(qts, 2, DATAOUT), ==, 0x01aabeef);
    qtest_writeb(qts, base + SETDATAOUT + 1, 0x01);
    g_assert_cmphex(gp_read(qts, 2, DATAOUT), ==, 0x01aabfef);

    qtest_quit(qts);
}

/* Offsets outside the register map read 0 and ignore writes. */
static void test_bad_offsets(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");
    /* Holes, and OMAP4 legacy registers that the AM335x does not have */
    static const uint32_t holes[] = {
        0x004, 0x014, 0x04c, 0x100, 0x118, 0x11c, 0x120, 0x12c,
        0x158, 0x160, 0x180, 0x184, 0x198, 0xffc,
    };

    for (int i = 0; i < ARRAY_SIZE(holes); i++) {
        gp_write(qts, 3, holes[i], 0xffffffff);
        g_assert_cmphex(gp_read(qts, 3, holes[i]), ==, 0);
    }

    /* Read-only registers keep their values. */
    gp_write(qts, 3, REVISION, 0);
    g_assert_cmphex(gp_read(qts, 3, REVISION), ==, GPIO_REV);
    gp_write(qts, 3, SYSSTATUS, 0);
    g_assert_cmphex(gp_read(qts, 3, SYSSTATUS), ==, SYSSTATUS_RESETDONE);
    gp_write(qts, 3, DATAIN, 0xffffffff);
    g_assert_cmphex(gp_read(qts, 3, DATAIN), ==, 0);

    /* Nothing else changed. */
    g_assert_cmphex(gp_read(qts, 3, OE), ==, 0xffffffff);
    g_assert_cmphex(gp_read(qts, 3, DATAOUT), ==, 0);
    g_assert_cmphex(gp_read(qts, 3, IRQSTATUS_RAW(0)), ==, 0);

    qtest_quit(qts);
}

/* A key of QEMU's keyboard input, down or up */
static void send_key(QTestState *qts, const char *qcode, bool down)
{
    qtest_qmp_assert_success(qts, "{ 'execute': 'input-send-event', "
                             "'arguments': { 'events': [ { 'type': 'key', "
                             "'data': { 'down': %i, 'key': { 'type': "
                             "'qcode', 'data': %s } } } ] } }", down, qcode);
}

/*
 * The EVM's keys: the volume buttons pull their pins low while down; a
 * keypad key joins its row to its column, so its row follows that column
 * while the key is down; other keys change nothing; a key's state
 * migrates
 */
static void test_evm_keys(void)
{
    QTestState *qts = qtest_init("-M am335x-evm");

    send_key(qts, "volumedown", true);
    g_assert_cmphex(gp_read(qts, 0, DATAIN) & VOLUME_KEYS, ==, PIN(2));
    send_key(qts, "volumeup", true);
    g_assert_cmphex(gp_read(qts, 0, DATAIN) & VOLUME_KEYS, ==, 0);
    send_key(qts, "volumedown", false);
    send_key(qts, "volumeup", false);
    g_assert_cmphex(gp_read(qts, 0, DATAIN) & VOLUME_KEYS, ==, VOLUME_KEYS);

    /* The columns as outputs, both low: no row rises */
    gp_write(qts, 1, OE, ~(KEYPAD_COL(0) | KEYPAD_COL(1)));
    send_key(qts, "left", true);                /* row 2, column 0 */
    g_assert_cmphex(gp_read(qts, 1, DATAIN) & KEYPAD_ROWS, ==, 0);
    gp_write(qts, 1, SETDATAOUT, KEYPAD_COL(0));
    g_assert_cmphex(gp_read(qts, 1, DATAIN) & KEYPAD_ROWS, ==, KEYPAD_ROW(2));
    /* Scanning column 1 only: its keys alone */
    gp_write(qts, 1, CLEARDATAOUT, KEYPAD_COL(0));
    gp_write(qts, 1, SETDATAOUT, KEYPAD_COL(1));
    g_assert_cmphex(gp_read(qts, 1, DATAIN) & KEYPAD_ROWS, ==, 0);
    send_key(qts, "ret", true);                 /* row 1, column 1 */
    send_key(qts, "a", true);                   /* not on the board */
    g_assert_cmphex(gp_read(qts, 1, DATAIN) & KEYPAD_ROWS, ==, KEYPAD_ROW(1));
    /* Both columns high, as the driver waits for a key */
    gp_write(qts, 1, SETDATAOUT, KEYPAD_COL(0));
    g_assert_cmphex(gp_read(qts, 1, DATAIN) & KEYPAD_ROWS, ==,
                    KEYPAD_ROW(1) | KEYPAD_ROW(2));
    send_key(qts, "left", false);
    g_assert_cmphex(gp_read(qts, 1, DATAIN) & KEYPAD_ROWS, ==, KEYPAD_ROW(1));

    /* Migrated with "ret" down */
    qts = am335x_migrate(qts, "-M am335x-evm");
    g_assert_cmphex(gp_read(qts, 1, DATAIN) & KEYPAD_ROWS, ==, KEYPAD_ROW(1));
    send_key(qts, "ret", false);
    g_assert_cmphex(gp_read(qts, 1, DATAIN) & KEYPAD_ROWS, ==, 0);
    g_assert_cmphex(gp_read(qts, 0, DATAIN) & VOLUME_KEYS, ==, VOLUME_KEYS);
    qtest_quit(qts);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);

    for (int i = 0; i < ARRAY_SIZE(machines); i++) {
        g_autofree char *path = g_strdup_printf("am335x/gpio/%s/reset-values",
                                                machines[i]);

        qtest_add_data_func(path, machines[i], test_reset_values);
    }
    qtest_add_func("am335x/gpio/sysconfig", test_sysconfig);
    qtest_add_func("am335x/gpio/outputs", test_outputs);
    qtest_add_func("am335x/gpio/outputs-property", test_outputs_property);
    qtest_add_func("am335x/gpio/debounce-gpio1", test_debounce_gpio1);
    qtest_add_func("am335x/gpio/datain", test_datain);
    qtest_add_func("am335x/gpio/edge-irq", test_edge_irq);
    qtest_add_func("am335x/gpio/level-irq", test_level_irq);
    qtest_add_func("am335x/gpio/disable-module", test_disable_module);
    qtest_add_func("am335x/gpio/debounce", test_debounce);
    qtest_add_func("am335x/gpio/softreset", test_softreset);
    qtest_add_func("am335x/gpio/subword", test_subword);
    qtest_add_func("am335x/gpio/bad-offsets", test_bad_offsets);
    qtest_add_func("am335x/gpio/evm-keys", test_evm_keys);

    return g_test_run();
}
