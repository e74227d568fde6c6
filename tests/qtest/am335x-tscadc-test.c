/*
 * QTest for the TI AM335x touchscreen controller and ADC (TSC_ADC_SS)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/timer.h"
#include "libqtest.h"
#include "am335x-qtest.h"
#include "qobject/qdict.h"

#define ADC_BASE            0x44e0d000
#define ADC_PATH            "/machine/soc/tscadc"

/* TRM table 12-4 */
#define REVISION            0x00
#define SYSCONFIG           0x10
#define IRQSTATUS_RAW       0x24
#define IRQSTATUS           0x28
#define IRQENABLE_SET       0x2c
#define IRQENABLE_CLR       0x30
#define DMAENABLE_SET       0x38
#define DMAENABLE_CLR       0x3c
#define CTRL                0x40
#define ADCSTAT             0x44
#define ADCRANGE            0x48
#define ADC_CLKDIV          0x4c
#define STEPENABLE          0x54
#define IDLECONFIG          0x58
#define TS_CHARGE_STEPCONFIG 0x5c
#define TS_CHARGE_DELAY     0x60
#define STEPCONFIG(n)       (0x64 + ((n) - 1) * 8)
#define STEPDELAY(n)        (0x68 + ((n) - 1) * 8)
#define FIFO0COUNT          0xe4
#define FIFO0THRESHOLD      0xe8
#define FIFO1COUNT          0xf0
#define FIFO1THRESHOLD      0xf4
#define DMA1REQ             0xf8
#define FIFO0DATA           0x100
#define FIFO1DATA           0x200

#define CTRL_ENABLE         BIT(0)
#define CTRL_STEP_ID_TAG    BIT(1)
#define CTRL_WRITE          BIT(2)
#define CTRL_RUN            (CTRL_ENABLE | CTRL_STEP_ID_TAG | CTRL_WRITE)

#define MODE_CONTINUOUS     1
#define MODE_HW_ONESHOT     2
#define AVG(n)              ((n) << 2)
#define INP(n)              ((n) << 19)
#define INP_VREFN           INP(8)
#define FIFO_1              BIT(26)
#define RANGE_CHECK         BIT(27)
#define OPENDELAY(n)        (n)
#define SAMPLEDELAY(n)      ((n) << 24)

#define IRQ_EOS             BIT(1)
#define IRQ_THRESHOLD(f)    BIT(2 + 3 * (f))
#define IRQ_OVERRUN(f)      BIT(3 + 3 * (f))
#define IRQ_UNDERFLOW(f)    BIT(4 + 3 * (f))
#define IRQ_OUT_OF_RANGE    BIT(8)

#define ADCSTAT_IDLE        0x10
#define ADCSTAT_BUSY        BIT(5)
#define ADCSTAT_PEN_IRQ0    BIT(6)

/* The touchscreen, as Linux's ti_am335x_tsc sets it up for the EVM */
#define IRQ_HW_PEN          BIT(0)
#define IRQ_PEN_UP          BIT(9)
#define IRQ_HW_PEN_SYNC     BIT(10)
#define CTRL_4WIRE          BIT(5)
#define CTRL_TSC_ENB        BIT(7)
#define SW_XPP              BIT(5)
#define SW_XNN              BIT(6)
#define SW_YPP              BIT(7)
#define SW_YNN              BIT(8)
#define SW_YPN              BIT(10)
#define INM_ADCREFM         (8 << 15)

#define CM_WKUP_ADC_TSC_CLKCTRL 0x44e004bc

/*
 * CLK_M_OSC is 24 MHz on the BeagleBone Black; Linux divides it by 8
 * (ADC_CLKDIV 7) for the 3 MHz ADC clock.  A sample takes its sampling
 * time (SampleDelay + 1 clocks) and 14 clocks of conversion.
 */
#define OSC_HZ              24000000
#define CLKDIV              7
#define SEC                 NANOSECONDS_PER_SECOND

static uint32_t adc_read(QTestState *qts, uint32_t reg)
{
    return qtest_readl(qts, ADC_BASE + reg);
}

static void adc_write(QTestState *qts, uint32_t reg, uint32_t value)
{
    qtest_writel(qts, ADC_BASE + reg, value);
}

/* Nanoseconds for @clocks ADC clocks at CLKDIV (rounded down) */
static int64_t adc_clocks_ns(uint64_t clocks)
{
    return clocks * (CLKDIV + 1) * SEC / OSC_HZ;
}

static void set_input(QTestState *qts, int n, unsigned code)
{
    g_autofree char *name = g_strdup_printf("ain%d", n);
    QDict *resp = qtest_qmp(qts, "{ 'execute': 'qom-set', 'arguments': {"
                            " 'path': %s, 'property': %s, 'value': %u } }",
                            ADC_PATH, name, code);

    g_assert(qdict_haskey(resp, "return"));
    qobject_unref(resp);
}

static QTestState *start(void)
{
    QTestState *qts = qtest_init("-M am335x-evm");

    /* The PRCM gates CLK_M_OSC to the module until MODULEMODE is on */
    qtest_writel(qts, CM_WKUP_ADC_TSC_CLKCTRL, 2);
    adc_write(qts, ADC_CLKDIV, CLKDIV);
    return qts;
}

static void test_reset_values(void)
{
    QTestState *qts = start();

    g_assert_cmphex(adc_read(qts, REVISION), ==, 0x47300001);
    g_assert_cmphex(adc_read(qts, SYSCONFIG), ==, 0);
    g_assert_cmphex(adc_read(qts, CTRL), ==, 0);
    g_assert_cmphex(adc_read(qts, ADCSTAT), ==, ADCSTAT_IDLE);
    g_assert_cmphex(adc_read(qts, STEPENABLE), ==, 0);
    g_assert_cmphex(adc_read(qts, TS_CHARGE_DELAY), ==, 1);
    g_assert_cmphex(adc_read(qts, STEPCONFIG(1)), ==, 0);
    g_assert_cmphex(adc_read(qts, STEPDELAY(16)), ==, 0);
    g_assert_cmphex(adc_read(qts, FIFO0COUNT), ==, 0);
    g_assert_cmphex(adc_read(qts, FIFO1COUNT), ==, 0);
    g_assert_cmphex(adc_read(qts, IRQSTATUS_RAW), ==, 0);
    g_assert_cmphex(adc_read(qts, ADC_CLKDIV), ==, CLKDIV);
    qtest_quit(qts);
}

/*
 * A one-shot step, as Linux's in_voltageN_raw runs it: it converts once,
 * after its open delay and one sample, tags the word with its step number,
 * clears its enable bit and ends the sequence.
 */
static void test_one_shot(void)
{
    QTestState *qts = start();
    int64_t step_ns = adc_clocks_ns(0x98 + 1 + 14);

    set_input(qts, 3, 1234);
    qtest_irq_intercept_out_named(qts, ADC_PATH, "sysbus-irq");
    adc_write(qts, CTRL, CTRL_RUN);
    adc_write(qts, STEPCONFIG(5), INP(3) | FIFO_1);
    adc_write(qts, STEPDELAY(5), OPENDELAY(0x98));
    adc_write(qts, IRQENABLE_SET, IRQ_EOS);
    adc_write(qts, STEPENABLE, BIT(5));
    g_assert_cmphex(adc_read(qts, ADCSTAT), ==, ADCSTAT_BUSY | 4);

    qtest_clock_step(qts, step_ns - 100);
    g_assert_cmpuint(adc_read(qts, FIFO1COUNT), ==, 0);
    g_assert_false(qtest_get_irq(qts, 0));
    qtest_clock_step(qts, 200);
    g_assert_cmpuint(adc_read(qts, FIFO1COUNT), ==, 1);
    g_assert_cmpuint(adc_read(qts, FIFO0COUNT), ==, 0);
    g_assert_cmphex(adc_read(qts, STEPENABLE), ==, 0);
    g_assert_cmphex(adc_read(qts, ADCSTAT), ==, ADCSTAT_IDLE);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(adc_read(qts, IRQSTATUS), ==, IRQ_EOS);
    g_assert_cmphex(adc_read(qts, IRQSTATUS_RAW), ==,
                    IRQ_EOS | IRQ_THRESHOLD(1));
    g_assert_cmphex(adc_read(qts, FIFO1DATA), ==, (4 << 16) | 1234);
    g_assert_cmpuint(adc_read(qts, FIFO1COUNT), ==, 0);

    /* Writing 1 clears a status bit; the line follows */
    adc_write(qts, IRQSTATUS, IRQ_EOS);
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_cmphex(adc_read(qts, IRQSTATUS_RAW), ==, IRQ_THRESHOLD(1));

    /* Nothing more runs: the step was one-shot */
    qtest_clock_step(qts, SEC / 1000);
    g_assert_cmpuint(adc_read(qts, FIFO1COUNT), ==, 0);
    qtest_quit(qts);
}

/* Enabled steps run in order; without the tag the ID bits are 0 */
static void test_sequence(void)
{
    QTestState *qts = start();

    set_input(qts, 0, 11);
    set_input(qts, 5, 4095);
    set_input(qts, 7, 0xffff);          /* beyond 12 bits: full scale */
    adc_write(qts, CTRL, CTRL_ENABLE | CTRL_WRITE);
    adc_write(qts, STEPCONFIG(2), INP(5));
    adc_write(qts, STEPCONFIG(7), INP(0));
    adc_write(qts, STEPCONFIG(9), INP_VREFN);
    adc_write(qts, STEPCONFIG(16), INP(7));
    adc_write(qts, STEPENABLE, BIT(2) | BIT(7) | BIT(9) | BIT(16));
    qtest_clock_step(qts, 4 * adc_clocks_ns(15) + 1000);
    g_assert_cmpuint(adc_read(qts, FIFO0COUNT), ==, 4);
    g_assert_cmphex(adc_read(qts, FIFO0DATA), ==, 4095);
    g_assert_cmphex(adc_read(qts, FIFO0DATA), ==, 11);
    g_assert_cmphex(adc_read(qts, FIFO0DATA), ==, 0);
    g_assert_cmphex(adc_read(qts, FIFO0DATA), ==, 4095);
    g_assert_cmphex(adc_read(qts, IRQSTATUS_RAW) & IRQ_UNDERFLOW(0), ==, 0);
    qtest_quit(qts);
}

/*
 * Averaging: 2^AVG samples, each SampleDelay + 1 + 14 clocks.  A reserved
 * input converts to 0.
 */
static void test_averaging(void)
{
    QTestState *qts = start();
    int64_t step_ns = adc_clocks_ns(10 + 16 * (3 + 1 + 14));

    adc_write(qts, CTRL, CTRL_RUN);
    adc_write(qts, STEPCONFIG(1), AVG(4) | INP(12));
    adc_write(qts, STEPDELAY(1), OPENDELAY(10) | SAMPLEDELAY(3));
    adc_write(qts, STEPENABLE, BIT(1));
    qtest_clock_step(qts, step_ns - 100);
    g_assert_cmpuint(adc_read(qts, FIFO0COUNT), ==, 0);
    qtest_clock_step(qts, 200);
    g_assert_cmpuint(adc_read(qts, FIFO0COUNT), ==, 1);
    g_assert_cmphex(adc_read(qts, FIFO0DATA), ==, 0);
    qtest_quit(qts);
}

/* The step registers are protected until CTRL.StepConfig_WriteProtect_n */
static void test_write_protect(void)
{
    QTestState *qts = start();

    adc_write(qts, STEPCONFIG(3), INP(2));
    adc_write(qts, STEPDELAY(3), OPENDELAY(5));
    g_assert_cmphex(adc_read(qts, STEPCONFIG(3)), ==, 0);
    g_assert_cmphex(adc_read(qts, STEPDELAY(3)), ==, 0);
    adc_write(qts, CTRL, CTRL_WRITE);
    adc_write(qts, STEPCONFIG(3), 0xffffffff);
    adc_write(qts, STEPDELAY(3), 0xffffffff);
    g_assert_cmphex(adc_read(qts, STEPCONFIG(3)), ==, 0x0fffffff);
    g_assert_cmphex(adc_read(qts, STEPDELAY(3)), ==, 0xff03ffff);
    qtest_quit(qts);
}

/*
 * A continuous step fills its FIFO: the threshold interrupt at
 * FIFOxTHRESHOLD + 1 words, an overrun past 64 (the sample is lost), an
 * underflow when software reads an empty FIFO.  Clearing CTRL.Enable stops
 * the sequencer.
 */
static void test_continuous(void)
{
    QTestState *qts = start();
    int64_t sample_ns = adc_clocks_ns(1 + 14);

    set_input(qts, 6, 777);
    adc_write(qts, CTRL, CTRL_RUN);
    adc_write(qts, FIFO1THRESHOLD, 9);
    adc_write(qts, STEPCONFIG(1), MODE_CONTINUOUS | INP(6) | FIFO_1);
    adc_write(qts, STEPENABLE, BIT(1));

    qtest_clock_step(qts, 9 * sample_ns + sample_ns / 2);
    g_assert_cmpuint(adc_read(qts, FIFO1COUNT), ==, 9);
    g_assert_cmphex(adc_read(qts, IRQSTATUS_RAW) & IRQ_THRESHOLD(1), ==, 0);
    qtest_clock_step(qts, sample_ns);
    g_assert_cmpuint(adc_read(qts, FIFO1COUNT), ==, 10);
    g_assert_cmphex(adc_read(qts, IRQSTATUS_RAW) & IRQ_THRESHOLD(1), !=, 0);
    g_assert_cmphex(adc_read(qts, STEPENABLE), ==, BIT(1));

    qtest_clock_step(qts, 54 * sample_ns);
    g_assert_cmpuint(adc_read(qts, FIFO1COUNT), ==, 64);
    g_assert_cmphex(adc_read(qts, IRQSTATUS_RAW) & IRQ_OVERRUN(1), ==, 0);
    qtest_clock_step(qts, sample_ns);
    g_assert_cmpuint(adc_read(qts, FIFO1COUNT), ==, 64);
    g_assert_cmphex(adc_read(qts, IRQSTATUS_RAW) & IRQ_OVERRUN(1), !=, 0);

    adc_write(qts, CTRL, CTRL_STEP_ID_TAG | CTRL_WRITE);
    g_assert_cmphex(adc_read(qts, ADCSTAT), ==, ADCSTAT_IDLE);
    for (int i = 0; i < 64; i++) {
        g_assert_cmphex(adc_read(qts, FIFO1DATA), ==, 777);
    }
    g_assert_cmphex(adc_read(qts, IRQSTATUS_RAW) & IRQ_UNDERFLOW(1), ==, 0);
    g_assert_cmphex(adc_read(qts, FIFO1DATA), ==, 0);
    g_assert_cmphex(adc_read(qts, IRQSTATUS_RAW) & IRQ_UNDERFLOW(1), !=, 0);
    qtest_clock_step(qts, 10 * sample_ns);
    g_assert_cmpuint(adc_read(qts, FIFO1COUNT), ==, 0);

    /* Enabled again, it goes on where it stopped */
    adc_write(qts, CTRL, CTRL_RUN);
    qtest_clock_step(qts, sample_ns + 100);
    g_assert_cmpuint(adc_read(qts, FIFO1COUNT), ==, 1);
    /* A 16-bit read (the EDMA's) takes a word off too */
    g_assert_cmphex(qtest_readw(qts, ADC_BASE + FIFO1DATA), ==, 777);
    g_assert_cmpuint(adc_read(qts, FIFO1COUNT), ==, 0);
    qtest_quit(qts);
}

/* Hardware-synchronized steps wait for a pen event, which never comes */
static void test_hw_synchronized(void)
{
    QTestState *qts = start();

    adc_write(qts, CTRL, CTRL_RUN);
    adc_write(qts, STEPCONFIG(1), MODE_HW_ONESHOT | INP(1));
    adc_write(qts, STEPENABLE, BIT(1));
    qtest_clock_step(qts, SEC / 100);
    g_assert_cmpuint(adc_read(qts, FIFO0COUNT), ==, 0);
    g_assert_cmphex(adc_read(qts, ADCSTAT), ==, ADCSTAT_IDLE);
    g_assert_cmphex(adc_read(qts, STEPENABLE), ==, BIT(1));
    qtest_quit(qts);
}

/*
 * The touchscreen as ti_am335x_tsc programs it for the EVM: five Y
 * readouts (steps 5-9), Z1 and Z2 (10, 11), five X readouts (12-16), the
 * charge step, FIFO0's threshold at 12 words.
 */
static void tsc_setup(QTestState *qts)
{
    uint32_t hw = MODE_HW_ONESHOT | AVG(4) | INM_ADCREFM;

    adc_write(qts, CTRL, CTRL_STEP_ID_TAG | CTRL_WRITE | CTRL_4WIRE |
              CTRL_TSC_ENB);
    adc_write(qts, IDLECONFIG, SW_YNN | SW_YPN | INM_ADCREFM | INP(8));
    adc_write(qts, CTRL, CTRL_RUN | CTRL_4WIRE | CTRL_TSC_ENB);
    for (int n = 5; n <= 9; n++) {
        adc_write(qts, STEPCONFIG(n), hw | SW_YPP | SW_YNN | INP(0));
    }
    adc_write(qts, STEPCONFIG(10), hw | SW_YPP | SW_XNN | INP(0));
    adc_write(qts, STEPCONFIG(11), hw | SW_YPP | SW_XNN | INP(3));
    for (int n = 12; n <= 16; n++) {
        adc_write(qts, STEPCONFIG(n), hw | SW_XPP | SW_XNN | INP(2));
    }
    adc_write(qts, TS_CHARGE_STEPCONFIG, SW_YNN | SW_YPN | INM_ADCREFM |
              INP(8));
    adc_write(qts, TS_CHARGE_DELAY, 0x400);
    adc_write(qts, FIFO0THRESHOLD, 11);
    adc_write(qts, IRQENABLE_SET, IRQ_THRESHOLD(0) | IRQ_EOS);
    adc_write(qts, STEPENABLE, 0x1ffe1);
}

/* The finger: QEMU's absolute pointer, @x and @y in 0..1 */
static void finger(QTestState *qts, bool down, double x, double y)
{
    qtest_qmp_assert_success(qts, "{ 'execute': 'input-send-event', "
        "'arguments': { 'events': ["
        " { 'type': 'abs', 'data': { 'axis': 'x', 'value': %d } },"
        " { 'type': 'abs', 'data': { 'axis': 'y', 'value': %d } },"
        " { 'type': 'btn', 'data': { 'down': %i, 'button': 'left' } } ] } }",
        (int)(x * 0x7fff + 0.5), (int)(y * 0x7fff + 0.5),
        down);
}

/*
 * One sequence's 12 words, as an ideal panel gives them (200-ohm plates,
 * 400-ohm touch): X and Y are the dividers; Z1 (XP) and Z2 (YN) the
 * touch's share of the current from YP to XN.
 */
static void check_sequence(QTestState *qts, double x, double y)
{
    uint32_t want[12];
    double d;

    /* Where the finger is: QEMU's axes have 0x7fff steps */
    x = (int)(x * 0x7fff + 0.5) / (double)0x7fff;
    y = (int)(y * 0x7fff + 0.5) / (double)0x7fff;
    d = 200 * (1 - y) + 400 + 200 * x;

    for (int i = 0; i < 5; i++) {
        want[i] = (uint32_t)(y * 4095 + 0.5);
        want[7 + i] = (uint32_t)(x * 4095 + 0.5);
    }
    want[5] = (uint32_t)(200 * x / d * 4095 + 0.5);
    want[6] = (uint32_t)((400 + 200 * x) / d * 4095 + 0.5);
    g_assert_cmpuint(adc_read(qts, FIFO0COUNT), ==, 12);
    for (int i = 0; i < 12; i++) {
        uint32_t word = adc_read(qts, FIFO0DATA);

        /* Tagged with its step: 5-16, counted from 0 */
        g_assert_cmpuint(word >> 16, ==, 4 + i);
        g_assert_cmpuint(word & 0xfff, ==, want[i]);
    }
}

/* A touch: HW_PEN, then pen sequences until the pen lifts: PEN_UP */
static void test_touch(void)
{
    QTestState *qts = start();
    uint32_t raw;

    tsc_setup(qts);
    qtest_clock_step(qts, SEC / 100);
    /* Nobody touches: the hardware-synchronized steps wait */
    g_assert_cmpuint(adc_read(qts, FIFO0COUNT), ==, 0);
    g_assert_cmphex(adc_read(qts, IRQSTATUS_RAW), ==, 0);
    g_assert_cmphex(adc_read(qts, ADCSTAT), ==, ADCSTAT_IDLE);

    finger(qts, true, 0.25, 0.75);
    g_assert_cmphex(adc_read(qts, IRQSTATUS_RAW) & IRQ_HW_PEN, ==,
                    IRQ_HW_PEN);
    g_assert_cmphex(adc_read(qts, ADCSTAT) & (ADCSTAT_BUSY |
                    ADCSTAT_PEN_IRQ0), ==, ADCSTAT_BUSY | ADCSTAT_PEN_IRQ0);
    qtest_clock_step(qts, SEC / 500);
    raw = adc_read(qts, IRQSTATUS_RAW);
    g_assert_cmphex(raw, ==, IRQ_HW_PEN | IRQ_HW_PEN_SYNC | IRQ_EOS |
                    IRQ_THRESHOLD(0));
    /* The one-shot steps and the charge step ran; the driver re-arms */
    g_assert_cmphex(adc_read(qts, STEPENABLE), ==, 0);
    g_assert_cmphex(adc_read(qts, ADCSTAT), ==,
                    ADCSTAT_IDLE | ADCSTAT_PEN_IRQ0);
    check_sequence(qts, 0.25, 0.75);
    adc_write(qts, IRQSTATUS, raw);

    /* Moved: the next sequence reads the new place */
    finger(qts, true, 0.5, 0.5);
    adc_write(qts, STEPENABLE, 0x1ffe1);
    qtest_clock_step(qts, SEC / 500);
    check_sequence(qts, 0.5, 0.5);
    adc_write(qts, IRQSTATUS, adc_read(qts, IRQSTATUS_RAW));

    /* Lifted mid-sequence: the charge step's pen check says so */
    adc_write(qts, STEPENABLE, 0x1ffe1);
    qtest_clock_step(qts, SEC / 2000);
    finger(qts, false, 0.5, 0.5);
    qtest_clock_step(qts, SEC / 500);
    raw = adc_read(qts, IRQSTATUS_RAW);
    g_assert_cmphex(raw & (IRQ_PEN_UP | IRQ_EOS), ==, IRQ_PEN_UP | IRQ_EOS);
    g_assert_cmphex(adc_read(qts, ADCSTAT), ==, ADCSTAT_IDLE);
    adc_write(qts, IRQSTATUS, raw);
    /* Re-armed with the pen up: nothing runs */
    adc_write(qts, STEPENABLE, 0x1ffe1);
    qtest_clock_step(qts, SEC / 100);
    g_assert_cmphex(adc_read(qts, IRQSTATUS_RAW), ==, 0);
    qtest_quit(qts);
}

/* Lifted between sequences: PEN_UP at once */
static void test_touch_release_idle(void)
{
    QTestState *qts = start();

    tsc_setup(qts);
    finger(qts, true, 0.1, 0.9);
    qtest_clock_step(qts, SEC / 500);
    g_assert_cmphex(adc_read(qts, STEPENABLE), ==, 0);
    adc_write(qts, IRQSTATUS, adc_read(qts, IRQSTATUS_RAW));
    finger(qts, false, 0.1, 0.9);
    g_assert_cmphex(adc_read(qts, IRQSTATUS_RAW), ==, IRQ_PEN_UP);
    g_assert_cmphex(adc_read(qts, ADCSTAT), ==, ADCSTAT_IDLE);
    qtest_quit(qts);
}

/*
 * Untouched, the plates do not meet: a step that drives one plate and
 * senses the other reads a floating input, 0; one that senses a driven
 * terminal reads its level.  With the TSC off AIN0-3 are plain inputs.
 */
static void test_touch_panel_open(void)
{
    QTestState *qts = start();

    set_input(qts, 2, 1234);
    adc_write(qts, CTRL, CTRL_RUN | CTRL_4WIRE | CTRL_TSC_ENB);
    adc_write(qts, STEPCONFIG(1), SW_XPP | SW_XNN | INP(2));
    adc_write(qts, STEPCONFIG(2), SW_XPP | SW_XNN | INP(0));
    adc_write(qts, STEPENABLE, BIT(1) | BIT(2));
    qtest_clock_step(qts, SEC / 1000);
    g_assert_cmphex(adc_read(qts, FIFO0DATA) & 0xfff, ==, 0);
    g_assert_cmphex(adc_read(qts, FIFO0DATA) & 0xfff, ==, 4095);
    adc_write(qts, CTRL, CTRL_RUN);
    adc_write(qts, STEPENABLE, BIT(1));
    qtest_clock_step(qts, SEC / 1000);
    g_assert_cmphex(adc_read(qts, FIFO0DATA) & 0xfff, ==, 1234);
    qtest_quit(qts);
}

/*
 * The BeagleBone Black has no panel, so no absolute pointer: QMP says so,
 * and the TSC set up as on the EVM sees no pen.
 */
static void test_touch_no_panel(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");
    QDict *resp;

    qtest_writel(qts, CM_WKUP_ADC_TSC_CLKCTRL, 2);
    adc_write(qts, ADC_CLKDIV, CLKDIV);
    tsc_setup(qts);
    resp = qtest_qmp(qts, "{ 'execute': 'input-send-event', 'arguments': {"
                     " 'events': [ { 'type': 'btn', 'data': {"
                     " 'down': true, 'button': 'left' } } ] } }");
    g_assert_true(qdict_haskey(resp, "error"));
    qobject_unref(resp);
    qtest_clock_step(qts, SEC / 100);
    g_assert_cmphex(adc_read(qts, IRQSTATUS_RAW), ==, 0);
    g_assert_cmpuint(adc_read(qts, FIFO0COUNT), ==, 0);
    qtest_quit(qts);
}

/* Migrated with the finger down mid-sequence: the sequence goes on */
static void test_touch_migration(void)
{
    QTestState *src = start(), *dst;

    tsc_setup(src);
    finger(src, true, 0.75, 0.25);
    qtest_clock_step(src, SEC / 2000);
    g_assert_cmphex(adc_read(src, ADCSTAT) & ADCSTAT_BUSY, ==, ADCSTAT_BUSY);
    dst = am335x_migrate(src, "-M am335x-evm");
    qtest_clock_step(dst, SEC / 500);
    check_sequence(dst, 0.75, 0.25);
    g_assert_cmphex(adc_read(dst, ADCSTAT), ==,
                    ADCSTAT_IDLE | ADCSTAT_PEN_IRQ0);
    qtest_quit(dst);
}

/* ADCRANGE and a step's range check: OUT_OF_RANGE */
static void test_range_check(void)
{
    QTestState *qts = start();

    set_input(qts, 2, 1000);
    adc_write(qts, CTRL, CTRL_RUN);
    adc_write(qts, ADCRANGE, (2000 << 16) | 500);
    adc_write(qts, STEPCONFIG(1), RANGE_CHECK | INP(2));
    adc_write(qts, STEPENABLE, BIT(1));
    qtest_clock_step(qts, adc_clocks_ns(15) + 1000);
    g_assert_cmphex(adc_read(qts, IRQSTATUS_RAW) & IRQ_OUT_OF_RANGE, ==, 0);

    set_input(qts, 2, 2001);
    adc_write(qts, STEPENABLE, BIT(1));
    qtest_clock_step(qts, adc_clocks_ns(15) + 1000);
    g_assert_cmphex(adc_read(qts, IRQSTATUS_RAW) & IRQ_OUT_OF_RANGE, !=, 0);
    g_assert_cmpuint(adc_read(qts, FIFO0COUNT), ==, 2);
    qtest_quit(qts);
}

/* A FIFO's DMA request: up at DMAxREQ + 1 words while enabled */
static void test_dma_request(void)
{
    QTestState *qts = start();
    int64_t sample_ns = adc_clocks_ns(1 + 14);

    qtest_irq_intercept_out_named(qts, ADC_PATH, "dma-request");
    adc_write(qts, CTRL, CTRL_RUN);
    adc_write(qts, DMA1REQ, 2);
    adc_write(qts, STEPCONFIG(1), INP(4) | FIFO_1);
    adc_write(qts, STEPCONFIG(2), INP(4) | FIFO_1);
    adc_write(qts, STEPCONFIG(3), INP(4) | FIFO_1);
    adc_write(qts, STEPENABLE, BIT(1) | BIT(2) | BIT(3));
    qtest_clock_step(qts, 3 * sample_ns + 100);
    g_assert_cmpuint(adc_read(qts, FIFO1COUNT), ==, 3);
    g_assert_false(qtest_get_irq(qts, 1));
    adc_write(qts, DMAENABLE_SET, BIT(1));
    g_assert_cmphex(adc_read(qts, DMAENABLE_CLR), ==, BIT(1));
    g_assert_true(qtest_get_irq(qts, 1));
    g_assert_false(qtest_get_irq(qts, 0));
    adc_read(qts, FIFO1DATA);
    g_assert_false(qtest_get_irq(qts, 1));
    adc_write(qts, DMAENABLE_CLR, BIT(1));
    g_assert_cmphex(adc_read(qts, DMAENABLE_SET), ==, 0);
    qtest_quit(qts);
}

/* With the PRCM's clock gated nothing converts; ungated, the step runs */
static void test_gated_clock(void)
{
    QTestState *qts = start();

    qtest_writel(qts, CM_WKUP_ADC_TSC_CLKCTRL, 0);
    adc_write(qts, CTRL, CTRL_RUN);
    adc_write(qts, STEPCONFIG(1), INP(0));
    adc_write(qts, STEPENABLE, BIT(1));
    qtest_clock_step(qts, SEC / 100);
    g_assert_cmpuint(adc_read(qts, FIFO0COUNT), ==, 0);
    qtest_writel(qts, CM_WKUP_ADC_TSC_CLKCTRL, 2);
    qtest_clock_step(qts, adc_clocks_ns(15) + 1000);
    g_assert_cmpuint(adc_read(qts, FIFO0COUNT), ==, 1);
    qtest_quit(qts);
}

/* Reset: a system reset empties the FIFOs and stops the sequencer */
static void test_reset(void)
{
    QTestState *qts = start();
    QDict *resp;

    adc_write(qts, CTRL, CTRL_RUN);
    adc_write(qts, STEPCONFIG(1), MODE_CONTINUOUS | INP(0));
    adc_write(qts, IRQENABLE_SET, IRQ_EOS);
    adc_write(qts, STEPENABLE, BIT(1));
    qtest_clock_step(qts, 5 * adc_clocks_ns(15));
    g_assert_cmpuint(adc_read(qts, FIFO0COUNT), >, 0);
    resp = qtest_qmp(qts, "{ 'execute': 'system_reset' }");
    qobject_unref(resp);
    qtest_qmp_eventwait(qts, "RESET");
    qtest_writel(qts, CM_WKUP_ADC_TSC_CLKCTRL, 2);
    g_assert_cmpuint(adc_read(qts, FIFO0COUNT), ==, 0);
    g_assert_cmphex(adc_read(qts, CTRL), ==, 0);
    g_assert_cmphex(adc_read(qts, STEPENABLE), ==, 0);
    g_assert_cmphex(adc_read(qts, IRQENABLE_CLR), ==, 0);
    g_assert_cmphex(adc_read(qts, ADCSTAT), ==, ADCSTAT_IDLE);
    qtest_quit(qts);
}

/* Read-only and unknown offsets: logged, no effect */
static void test_bad_offsets(void)
{
    QTestState *qts = start();

    adc_write(qts, REVISION, 0);
    adc_write(qts, ADCSTAT, 0xff);
    adc_write(qts, FIFO0DATA, 0x55);
    adc_write(qts, 0xffc, 0xffffffff);
    qtest_writew(qts, ADC_BASE + CTRL, CTRL_ENABLE);
    g_assert_cmphex(adc_read(qts, REVISION), ==, 0x47300001);
    g_assert_cmphex(adc_read(qts, ADCSTAT), ==, ADCSTAT_IDLE);
    g_assert_cmpuint(adc_read(qts, FIFO0COUNT), ==, 0);
    g_assert_cmphex(adc_read(qts, 0xffc), ==, 0);
    g_assert_cmphex(adc_read(qts, CTRL), ==, 0);
    qtest_quit(qts);
}

/*
 * Migrated with two words in FIFO0 and a step half done, the destination
 * keeps the words, the inputs and the step, which then ends.
 */
static void test_migration(void)
{
    int64_t step_ns = adc_clocks_ns(100 + 1 + 14);
    QTestState *src, *dst;

    src = start();
    set_input(src, 1, 321);
    adc_write(src, CTRL, CTRL_RUN);
    adc_write(src, STEPCONFIG(1), INP(1));
    adc_write(src, STEPDELAY(1), OPENDELAY(100));
    adc_write(src, STEPENABLE, BIT(1));
    qtest_clock_step(src, step_ns + 100);
    adc_write(src, STEPENABLE, BIT(1));
    qtest_clock_step(src, step_ns + 100);
    adc_write(src, STEPENABLE, BIT(1));
    qtest_clock_step(src, step_ns / 2);
    g_assert_cmpuint(adc_read(src, FIFO0COUNT), ==, 2);
    g_assert_cmphex(adc_read(src, ADCSTAT), ==, ADCSTAT_BUSY | 0);
    dst = am335x_migrate(src, "-M am335x-evm");
    g_assert_cmpuint(adc_read(dst, FIFO0COUNT), ==, 2);
    g_assert_cmphex(adc_read(dst, ADCSTAT), ==, ADCSTAT_BUSY | 0);
    /* qtest's virtual clock starts again from 0 on the destination */
    qtest_clock_step(dst, 3 * step_ns + 1000);
    g_assert_cmpuint(adc_read(dst, FIFO0COUNT), ==, 3);
    for (int i = 0; i < 3; i++) {
        g_assert_cmphex(adc_read(dst, FIFO0DATA), ==, 321);
    }
    g_assert_cmphex(adc_read(dst, ADCSTAT), ==, ADCSTAT_IDLE);
    qtest_quit(dst);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);

    qtest_add_func("am335x/tscadc/reset-values", test_reset_values);
    qtest_add_func("am335x/tscadc/one-shot", test_one_shot);
    qtest_add_func("am335x/tscadc/sequence", test_sequence);
    qtest_add_func("am335x/tscadc/averaging", test_averaging);
    qtest_add_func("am335x/tscadc/write-protect", test_write_protect);
    qtest_add_func("am335x/tscadc/continuous", test_continuous);
    qtest_add_func("am335x/tscadc/hw-synchronized", test_hw_synchronized);
    qtest_add_func("am335x/tscadc/range-check", test_range_check);
    qtest_add_func("am335x/tscadc/dma-request", test_dma_request);
    qtest_add_func("am335x/tscadc/gated-clock", test_gated_clock);
    qtest_add_func("am335x/tscadc/reset", test_reset);
    qtest_add_func("am335x/tscadc/bad-offsets", test_bad_offsets);
    qtest_add_func("am335x/tscadc/migration", test_migration);
    qtest_add_func("am335x/tscadc/touch", test_touch);
    qtest_add_func("am335x/tscadc/touch-release-idle",
                   test_touch_release_idle);
    qtest_add_func("am335x/tscadc/touch-panel-open", test_touch_panel_open);
    qtest_add_func("am335x/tscadc/touch-no-panel", test_touch_no_panel);
    qtest_add_func("am335x/tscadc/touch-migration", test_touch_migration);

    return g_test_run();
}
