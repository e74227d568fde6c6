/*
 * TI AM335x touchscreen controller and ADC subsystem (TSC_ADC_SS)
 *
 * One 12-bit successive-approximation ADC behind an 8-input analog
 * multiplexer, driven by a sequencer of 16 programmable steps.  Each step
 * (STEPCONFIGn, STEPDELAYn) names the input to convert, how many samples to
 * average, the FIFO that takes the result and its mode: software-enabled
 * one-shot or continuous, or hardware-synchronized (started by a pen event
 * on the touchscreen or by an external trigger).  Software enables steps in
 * STEPENABLE; with the subsystem enabled (CTRL.Enable) the sequencer runs
 * the enabled steps in order from step 1, clears the enable bit of each
 * one-shot step it ran, raises END_OF_SEQUENCE after the last one and
 * starts over while continuous steps stay enabled.  Results go to one of
 * two 64-word FIFOs, tagged with their step number when CTRL.Step_ID_tag
 * is set; each FIFO has a threshold interrupt, a DMA request line with its
 * own threshold, and overrun and underflow interrupts.
 *
 * Timing, on the virtual clock: the ADC clock is the functional clock
 * (CLK_M_OSC, 24 MHz on both boards) divided by ADC_CLKDIV + 1.  A step
 * takes its open delay, then for each of the 2^AVG samples averaged its
 * sample delay + 1 clocks of sampling and 14 of conversion.  The 14 are
 * the AM335x datasheet's (SPRS717, 5.7.1: "12-bit SAR ADC, 200 kSPS", at
 * the 3 MHz maximum ADC clock: 15 clocks a sample with the shortest
 * sampling time).
 *
 * The inputs are properties "ain0".."ain7" holding the codes the converter
 * gives for them, settable at run time (qom-set), so that a test or a user
 * script can stand in for a sensor or a potentiometer.  VREFN as input
 * converts to 0.  Averaging a constant input gives the input.
 *
 * The touchscreen (a board with a panel: touch-panel=on): AIN0-3 are a
 * 4-wire resistive panel's XP, XN, YP and YN (touch_panel_4wire.c; QEMU's
 * absolute pointer is the finger).  With the TSC enabled in 4-wire mode
 * (CTRL.TSC_ENB, AFE_Pen_Ctrl), each step's pen switches (XPP, XNN,
 * YPP, YNN, XNP, YPN) drive the panel's terminals, and AIN0-3 convert the
 * voltage the panel then gives.  The pen-down detector watches XP (weakly
 * pulled up) while IDLECONFIG grounds the Y plate: a touch pulls it low,
 * which raises HW_PEN_EVENT (asynchronous) and, while the pen stays down,
 * starts sequences that run the enabled hardware-synchronized steps too,
 * then the charge step (TS_CHARGE_STEPCONFIG for TS_CHARGE_DELAY clocks,
 * enabled by STEPENABLE bit 0), after which the pen is checked: lifted,
 * PEN_UP is raised with END_OF_SEQUENCE.  Our choice where the TRM says
 * nothing: a pen lifted while no sequence runs raises PEN_UP at once, if
 * a pen sequence ran since the last one.
 *
 * Not modelled: 5- and 8-wire panels; the hardware event input;
 * differential conversion (the positive input is converted); the
 * reference selections (VDDA and VSSA are assumed); idle-mode wake-up.
 *
 * Reference: AM335x Technical Reference Manual (SPRUH73), chapter 12.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "hw/adc/am335x_tscadc.h"
#include "hw/irq.h"
#include "hw/qdev-clock.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "trace.h"

/* TRM table 12-4 */
REG32(REVISION, 0x00)
REG32(SYSCONFIG, 0x10)
    FIELD(SYSCONFIG, IDLEMODE, 2, 2)
REG32(IRQ_EOI, 0x20)
REG32(IRQSTATUS_RAW, 0x24)
REG32(IRQSTATUS, 0x28)
REG32(IRQENABLE_SET, 0x2c)
REG32(IRQENABLE_CLR, 0x30)
REG32(IRQWAKEUP, 0x34)
    FIELD(IRQWAKEUP, WAKEEN0, 0, 1)
REG32(DMAENABLE_SET, 0x38)
REG32(DMAENABLE_CLR, 0x3c)
REG32(CTRL, 0x40)
    FIELD(CTRL, ENABLE, 0, 1)
    FIELD(CTRL, STEP_ID_TAG, 1, 1)
    FIELD(CTRL, STEPCONFIG_WRITE, 2, 1)
    FIELD(CTRL, POWER_DOWN, 4, 1)
    FIELD(CTRL, AFE_PEN_CTRL, 5, 2)
    FIELD(CTRL, TSC_ENB, 7, 1)
    FIELD(CTRL, HW_EVENT_MAPPING, 8, 1)
REG32(ADCSTAT, 0x44)
    FIELD(ADCSTAT, STEP_ID, 0, 5)
    FIELD(ADCSTAT, FSM_BUSY, 5, 1)
    FIELD(ADCSTAT, PEN_IRQ0, 6, 1)
REG32(ADCRANGE, 0x48)
    FIELD(ADCRANGE, LOW, 0, 12)
    FIELD(ADCRANGE, HIGH, 16, 12)
REG32(ADC_CLKDIV, 0x4c)
    FIELD(ADC_CLKDIV, VALUE, 0, 16)
REG32(ADC_MISC, 0x50)
REG32(STEPENABLE, 0x54)
REG32(IDLECONFIG, 0x58)
REG32(TS_CHARGE_STEPCONFIG, 0x5c)
REG32(TS_CHARGE_DELAY, 0x60)
REG32(STEPCONFIG1, 0x64)
    FIELD(STEPCONFIG, MODE, 0, 2)
    FIELD(STEPCONFIG, AVERAGING, 2, 3)
    FIELD(STEPCONFIG, SEL_INP, 19, 4)
    FIELD(STEPCONFIG, FIFO_SELECT, 26, 1)
    FIELD(STEPCONFIG, RANGE_CHECK, 27, 1)
REG32(STEPDELAY1, 0x68)
    FIELD(STEPDELAY, OPENDELAY, 0, 18)
    FIELD(STEPDELAY, SAMPLEDELAY, 24, 8)
REG32(STEPDELAY16, 0xe0)
REG32(FIFO0COUNT, 0xe4)
REG32(FIFO0THRESHOLD, 0xe8)
REG32(DMA0REQ, 0xec)
REG32(FIFO1COUNT, 0xf0)
REG32(FIFO1THRESHOLD, 0xf4)
REG32(DMA1REQ, 0xf8)
/* Each FIFO reads at any word of its 256-byte window (DMA bursts) */
REG32(FIFO0DATA, 0x100)
REG32(FIFO1DATA, 0x200)
    FIELD(FIFODATA, ADCDATA, 0, 12)
    FIELD(FIFODATA, ADCCHNLID, 16, 4)

/* The events: the same bits in IRQSTATUS_RAW, IRQSTATUS and IRQENABLE */
#define IRQ_HW_PEN_ASYNC        BIT(0)
#define IRQ_END_OF_SEQUENCE     BIT(1)
#define IRQ_FIFO_THRESHOLD(f)   BIT(2 + 3 * (f))
#define IRQ_FIFO_OVERRUN(f)     BIT(3 + 3 * (f))
#define IRQ_FIFO_UNDERFLOW(f)   BIT(4 + 3 * (f))
#define IRQ_OUT_OF_RANGE        BIT(8)
#define IRQ_PEN_UP              BIT(9)
#define IRQ_HW_PEN_SYNC         BIT(10)
#define IRQ_ALL                 0x7ff

/* REVISION as the silicon reports it; ti-sysc's "adc" quirk matches it */
#define AM335X_TSCADC_REV       0x47300001

/* STEPCONFIG modes (TRM table 12-24) */
#define MODE_SW_ONESHOT         0
#define MODE_SW_CONTINUOUS      1
#define MODE_HW_ONESHOT         2

/* ADCSTAT.STEP_ID while the sequencer is idle, and in the charge step */
#define STEP_ID_IDLE            0x10
#define STEP_ID_CHARGE          0x11

/* STEPENABLE bit 0: the touchscreen's charge step */
#define STEPENABLE_CHARGE       BIT(0)

/* CTRL.AFE_Pen_Ctrl: a 4-wire panel */
#define AFE_4WIRE               1

/* The pen switches of STEPCONFIG, IDLECONFIG and TS_CHARGE_STEPCONFIG */
#define SW_XPP                  BIT(5)      /* XP (AIN0) to VDDA */
#define SW_XNN                  BIT(6)      /* XN (AIN1) to ground */
#define SW_YPP                  BIT(7)      /* YP (AIN2) to VDDA */
#define SW_YNN                  BIT(8)      /* YN (AIN3) to ground */
#define SW_XNP                  BIT(9)      /* XN (AIN1) to VDDA */
#define SW_YPN                  BIT(10)     /* YP (AIN2) to ground */

/* SEL_INP: AIN0-7, then VREFN */
#define INP_VREFN               8

/* Writable bits */
#define STEPENABLE_MASK         0x1ffff
#define STEPCONFIG_MASK         0x0fffffff
#define STEPDELAY_MASK          0xff03ffff
#define CTRL_MASK               0x3ff
#define ADCRANGE_MASK           0x0fff0fff
#define FIFO_LEVEL_MASK         0x3f
#define DMAENABLE_MASK          0x3

/* Clocks per sample after the sampling time (see the header comment) */
#define CONVERSION_CLOCKS       14

static void am335x_tscadc_update(AM335xTscAdcState *s)
{
    bool level = (s->irq_raw & s->irq_enable) != 0;

    trace_am335x_tscadc_irq(s->irq_raw, s->irq_enable, level);
    qemu_set_irq(s->irq, level);
    for (int f = 0; f < AM335X_TSCADC_NUM_FIFOS; f++) {
        bool req = (s->dma_enable & BIT(f)) &&
                   s->fifo[f].count > s->fifo[f].dma_req;

        qemu_set_irq(s->dma_request[f], req);
    }
}

static void am335x_tscadc_fifo_push(AM335xTscAdcState *s, int f,
                                    uint32_t word)
{
    AM335xTscAdcFifo *fifo = &s->fifo[f];

    if (fifo->count == AM335X_TSCADC_FIFO_DEPTH) {
        /* Full: the sample is lost */
        s->irq_raw |= IRQ_FIFO_OVERRUN(f);
        return;
    }
    fifo->word[(fifo->head + fifo->count) % AM335X_TSCADC_FIFO_DEPTH] = word;
    fifo->count++;
    if (fifo->count > fifo->threshold) {
        s->irq_raw |= IRQ_FIFO_THRESHOLD(f);
    }
}

static uint32_t am335x_tscadc_fifo_pop(AM335xTscAdcState *s, int f)
{
    AM335xTscAdcFifo *fifo = &s->fifo[f];
    uint32_t word;

    if (fifo->count == 0) {
        s->irq_raw |= IRQ_FIFO_UNDERFLOW(f);
        return 0;
    }
    word = fifo->word[fifo->head];
    fifo->head = (fifo->head + 1) % AM335X_TSCADC_FIFO_DEPTH;
    fifo->count--;
    return word;
}

static void am335x_tscadc_fifo_clear(AM335xTscAdcFifo *fifo)
{
    fifo->head = 0;
    fifo->count = 0;
}

static bool am335x_tscadc_can_run(AM335xTscAdcState *s)
{
    return FIELD_EX32(s->ctrl, CTRL, ENABLE) &&
           !FIELD_EX32(s->ctrl, CTRL, POWER_DOWN) &&
           clock_is_enabled(s->fclk);
}

/*
 * The first step from @from on that software has enabled and that needs
 * no hardware event (or, in a sequence the pen started, any), or -1.
 */
static int am335x_tscadc_next_step(AM335xTscAdcState *s, int from)
{
    for (int i = from; i < AM335X_TSCADC_NUM_STEPS; i++) {
        unsigned mode = FIELD_EX32(s->stepconfig[i], STEPCONFIG, MODE);

        if ((s->stepenable & BIT(i + 1)) &&
            (mode == MODE_SW_ONESHOT || mode == MODE_SW_CONTINUOUS ||
             s->hw_sequence)) {
            return i;
        }
    }
    return -1;
}

static uint64_t am335x_tscadc_step_ns(AM335xTscAdcState *s, int step)
{
    uint32_t delay = s->stepdelay[step];
    unsigned avg = FIELD_EX32(s->stepconfig[step], STEPCONFIG, AVERAGING);
    uint64_t adc_clocks;

    /* TRM table 12-24: 0-4 average 1-16 samples; 5-7 are reserved */
    avg = MIN(avg, 4);
    adc_clocks = FIELD_EX32(delay, STEPDELAY, OPENDELAY) +
                 (((uint64_t)FIELD_EX32(delay, STEPDELAY, SAMPLEDELAY) + 1 +
                   CONVERSION_CLOCKS) << avg);
    return clock_ticks_to_ns(s->fclk, adc_clocks * (s->clkdiv + 1));
}

static void am335x_tscadc_begin_step(AM335xTscAdcState *s, int step)
{
    s->busy = true;
    s->step = step;
    timer_mod(&s->step_timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
              am335x_tscadc_step_ns(s, step));
}

static bool am335x_tscadc_tsc_on(AM335xTscAdcState *s)
{
    return s->touch_panel && FIELD_EX32(s->ctrl, CTRL, TSC_ENB) &&
           FIELD_EX32(s->ctrl, CTRL, AFE_PEN_CTRL) == AFE_4WIRE;
}

/*
 * The pen-down detector: XP weakly pulled up while the idle step grounds
 * the Y plate; a touch joins the plates and pulls XP low.
 */
static bool am335x_tscadc_pen_is_down(AM335xTscAdcState *s)
{
    return am335x_tscadc_tsc_on(s) && s->panel.touched &&
           (s->idleconfig & (SW_YNN | SW_YPN));
}

static bool am335x_tscadc_hw_steps_enabled(AM335xTscAdcState *s)
{
    for (int i = 0; i < AM335X_TSCADC_NUM_STEPS; i++) {
        unsigned mode = FIELD_EX32(s->stepconfig[i], STEPCONFIG, MODE);

        if ((s->stepenable & BIT(i + 1)) && mode >= MODE_HW_ONESHOT) {
            return true;
        }
    }
    return false;
}

/*
 * Starts a sequence if the sequencer is idle and has work: with the pen
 * down (the hardware event mapped to the pen), its HW-synchronized steps
 * too.
 */
static void am335x_tscadc_kick(AM335xTscAdcState *s)
{
    int step;

    if (s->busy || !am335x_tscadc_can_run(s)) {
        return;
    }
    s->hw_sequence = am335x_tscadc_pen_is_down(s) &&
                     !FIELD_EX32(s->ctrl, CTRL, HW_EVENT_MAPPING) &&
                     am335x_tscadc_hw_steps_enabled(s);
    step = am335x_tscadc_next_step(s, 0);
    if (step < 0) {
        s->hw_sequence = false;
        return;
    }
    if (s->hw_sequence) {
        s->irq_raw |= IRQ_HW_PEN_SYNC;
        s->pen_sampled = true;
    }
    am335x_tscadc_begin_step(s, step);
}

/* The pen went down or up, or the detector was armed or disarmed */
static void am335x_tscadc_pen_update(AM335xTscAdcState *s)
{
    bool down = am335x_tscadc_pen_is_down(s);

    if (down && !s->pen_down) {
        s->irq_raw |= IRQ_HW_PEN_ASYNC;
    }
    if (!down && s->pen_down && !s->busy && s->pen_sampled) {
        s->irq_raw |= IRQ_PEN_UP;
        s->pen_sampled = false;
    }
    s->pen_down = down;
    am335x_tscadc_kick(s);
}

static void am335x_tscadc_stop(AM335xTscAdcState *s)
{
    timer_del(&s->step_timer);
    s->busy = false;
    s->hw_sequence = false;
    s->charging = false;
}

/* AIN0-3 with the TSC on: the panel's terminals as @config drives them */
static uint16_t am335x_tscadc_panel_code(AM335xTscAdcState *s,
                                         uint32_t config, unsigned inp)
{
    TouchPanelDrive drive[TOUCH_PANEL_TERMINALS] = { TOUCH_PANEL_OPEN };
    double v;

    if ((config & SW_XNN) && (config & SW_XNP)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: XNN and XNP short XN\n",
                      __func__);
    }
    if ((config & SW_YPP) && (config & SW_YPN)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: YPP and YPN short YP\n",
                      __func__);
    }
    drive[TOUCH_PANEL_XP] = config & SW_XPP ? TOUCH_PANEL_VDD
                                            : TOUCH_PANEL_OPEN;
    drive[TOUCH_PANEL_XN] = config & SW_XNN ? TOUCH_PANEL_GND :
                            config & SW_XNP ? TOUCH_PANEL_VDD
                                            : TOUCH_PANEL_OPEN;
    drive[TOUCH_PANEL_YP] = config & SW_YPN ? TOUCH_PANEL_GND :
                            config & SW_YPP ? TOUCH_PANEL_VDD
                                            : TOUCH_PANEL_OPEN;
    drive[TOUCH_PANEL_YN] = config & SW_YNN ? TOUCH_PANEL_GND
                                            : TOUCH_PANEL_OPEN;
    /* AIN0-3 are XP, XN, YP, YN in the panel's terminal order */
    v = touch_panel_4wire_sense(&s->panel, drive, inp);
    /* A floating input: the sampling capacitor drains to 0 */
    return v < 0 ? 0 : lround(v * R_FIFODATA_ADCDATA_MASK);
}

static uint16_t am335x_tscadc_convert(AM335xTscAdcState *s, int step)
{
    uint32_t config = s->stepconfig[step];
    unsigned inp = FIELD_EX32(config, STEPCONFIG, SEL_INP);

    if (inp < TOUCH_PANEL_TERMINALS && am335x_tscadc_tsc_on(s)) {
        return am335x_tscadc_panel_code(s, config, inp);
    }
    if (inp < AM335X_TSCADC_NUM_INPUTS) {
        return MIN(s->ain[inp], R_FIFODATA_ADCDATA_MASK);
    }
    if (inp != INP_VREFN) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: step %d selects reserved input "
                      "%u; converting 0\n", __func__, step + 1, inp);
    }
    return 0;
}

/* The sequence is over: END_OF_SEQUENCE, and the next may start */
static void am335x_tscadc_end_sequence(AM335xTscAdcState *s)
{
    s->irq_raw |= IRQ_END_OF_SEQUENCE;
    s->busy = false;
    s->hw_sequence = false;
    /* Continuous steps still enabled, or the pen still down, go on */
    am335x_tscadc_kick(s);
}

/* The charge step ended: the pen check, then the end of the sequence */
static void am335x_tscadc_charge_done(AM335xTscAdcState *s)
{
    s->charging = false;
    s->stepenable &= ~STEPENABLE_CHARGE;
    s->pen_down = am335x_tscadc_pen_is_down(s);
    if (!s->pen_down) {
        s->irq_raw |= IRQ_PEN_UP;
        s->pen_sampled = false;
    }
    trace_am335x_tscadc_charge(s->pen_down);
    am335x_tscadc_end_sequence(s);
    am335x_tscadc_update(s);
}

static void am335x_tscadc_step_done(void *opaque)
{
    AM335xTscAdcState *s = AM335X_TSCADC(opaque);
    uint32_t config = s->stepconfig[s->step];
    int f = FIELD_EX32(config, STEPCONFIG, FIFO_SELECT);
    unsigned mode = FIELD_EX32(config, STEPCONFIG, MODE);
    uint16_t value;
    uint32_t word;
    int next;

    if (!s->busy) {
        return;
    }
    if (s->charging) {
        am335x_tscadc_charge_done(s);
        return;
    }
    value = am335x_tscadc_convert(s, s->step);
    word = value;
    if (FIELD_EX32(s->ctrl, CTRL, STEP_ID_TAG)) {
        word = FIELD_DP32(word, FIFODATA, ADCCHNLID, s->step);
    }
    trace_am335x_tscadc_step(s->step + 1, value, f, s->fifo[f].count);
    am335x_tscadc_fifo_push(s, f, word);
    if (FIELD_EX32(config, STEPCONFIG, RANGE_CHECK) &&
        (value < FIELD_EX32(s->adcrange, ADCRANGE, LOW) ||
         value > FIELD_EX32(s->adcrange, ADCRANGE, HIGH))) {
        s->irq_raw |= IRQ_OUT_OF_RANGE;
    }
    if (mode == MODE_SW_ONESHOT || mode == MODE_HW_ONESHOT) {
        s->stepenable &= ~BIT(s->step + 1);
    }

    next = am335x_tscadc_next_step(s, s->step + 1);
    if (next >= 0) {
        am335x_tscadc_begin_step(s, next);
    } else if (s->hw_sequence && (s->stepenable & STEPENABLE_CHARGE)) {
        /* The pen's sequence ends with the charge step */
        s->charging = true;
        timer_mod(&s->step_timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                  clock_ticks_to_ns(s->fclk, (uint64_t)s->charge_delay *
                                    (s->clkdiv + 1)));
    } else {
        am335x_tscadc_end_sequence(s);
    }
    am335x_tscadc_update(s);
}

static uint32_t am335x_tscadc_read_reg(AM335xTscAdcState *s, hwaddr addr)
{
    switch (addr) {
    case A_REVISION:
        return AM335X_TSCADC_REV;
    case A_SYSCONFIG:
        return s->sysconfig;
    case A_IRQ_EOI:
        return 0;
    case A_IRQSTATUS_RAW:
        return s->irq_raw;
    case A_IRQSTATUS:
        return s->irq_raw & s->irq_enable;
    case A_IRQENABLE_SET:
    case A_IRQENABLE_CLR:
        return s->irq_enable;
    case A_IRQWAKEUP:
        return s->irq_wakeup;
    case A_DMAENABLE_SET:
    case A_DMAENABLE_CLR:
        return s->dma_enable;
    case A_CTRL:
        return s->ctrl;
    case A_ADCSTAT:
        return (!s->busy ? STEP_ID_IDLE :
                FIELD_DP32(s->charging ? STEP_ID_CHARGE : s->step,
                           ADCSTAT, FSM_BUSY, 1)) |
               (am335x_tscadc_pen_is_down(s) ? R_ADCSTAT_PEN_IRQ0_MASK : 0);
    case A_ADCRANGE:
        return s->adcrange;
    case A_ADC_CLKDIV:
        return s->clkdiv;
    case A_ADC_MISC:
        return s->misc;
    case A_STEPENABLE:
        return s->stepenable;
    case A_IDLECONFIG:
        return s->idleconfig;
    case A_TS_CHARGE_STEPCONFIG:
        return s->charge_config;
    case A_TS_CHARGE_DELAY:
        return s->charge_delay;
    case A_STEPCONFIG1 ... A_STEPDELAY16:
        if ((addr - A_STEPCONFIG1) & 4) {
            return s->stepdelay[(addr - A_STEPCONFIG1) / 8];
        }
        return s->stepconfig[(addr - A_STEPCONFIG1) / 8];
    case A_FIFO0COUNT:
        return s->fifo[0].count;
    case A_FIFO0THRESHOLD:
        return s->fifo[0].threshold;
    case A_DMA0REQ:
        return s->fifo[0].dma_req;
    case A_FIFO1COUNT:
        return s->fifo[1].count;
    case A_FIFO1THRESHOLD:
        return s->fifo[1].threshold;
    case A_DMA1REQ:
        return s->fifo[1].dma_req;
    case A_FIFO0DATA ... A_FIFO0DATA + 0xfc:
        return am335x_tscadc_fifo_pop(s, 0);
    case A_FIFO1DATA ... A_FIFO1DATA + 0xfc:
        return am335x_tscadc_fifo_pop(s, 1);
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: bad read offset 0x%" HWADDR_PRIx
                      "\n", __func__, addr);
        return 0;
    }
}

static uint64_t am335x_tscadc_read(void *opaque, hwaddr offset, unsigned size)
{
    AM335xTscAdcState *s = AM335X_TSCADC(opaque);
    uint32_t value = am335x_tscadc_read_reg(s, offset & ~3);

    /* A 16-bit read (the EDMA's, of a FIFO) takes its half of the word */
    value >>= (offset & 3) * 8;
    trace_am335x_tscadc_read(offset, size, value);
    am335x_tscadc_update(s);
    return value;
}

/* STEPCONFIGn, STEPDELAYn and the idle and charge steps' registers */
static bool am335x_tscadc_step_regs_writable(AM335xTscAdcState *s,
                                             hwaddr addr)
{
    if (FIELD_EX32(s->ctrl, CTRL, STEPCONFIG_WRITE)) {
        return true;
    }
    qemu_log_mask(LOG_GUEST_ERROR, "%s: write at offset 0x%" HWADDR_PRIx
                  " while CTRL.StepConfig_WriteProtect_n is 0; ignored\n",
                  __func__, addr);
    return false;
}

static void am335x_tscadc_write_reg(AM335xTscAdcState *s, hwaddr addr,
                                    uint32_t value)
{
    switch (addr) {
    case A_SYSCONFIG:
        s->sysconfig = value & R_SYSCONFIG_IDLEMODE_MASK;
        break;
    case A_IRQ_EOI:
        /* The line is a level here: nothing to end */
        break;
    case A_IRQSTATUS_RAW:
        /* Sets events, for software testing */
        s->irq_raw |= value & IRQ_ALL;
        break;
    case A_IRQSTATUS:
        s->irq_raw &= ~value;
        break;
    case A_IRQENABLE_SET:
        s->irq_enable |= value & IRQ_ALL;
        break;
    case A_IRQENABLE_CLR:
        s->irq_enable &= ~value;
        break;
    case A_IRQWAKEUP:
        s->irq_wakeup = value & R_IRQWAKEUP_WAKEEN0_MASK;
        break;
    case A_DMAENABLE_SET:
        s->dma_enable |= value & DMAENABLE_MASK;
        break;
    case A_DMAENABLE_CLR:
        s->dma_enable &= ~value;
        break;
    case A_CTRL:
        s->ctrl = value & CTRL_MASK;
        if (!am335x_tscadc_can_run(s)) {
            /* Disabling the subsystem stops the sequencer at once */
            am335x_tscadc_stop(s);
        }
        am335x_tscadc_pen_update(s);
        break;
    case A_ADCRANGE:
        s->adcrange = value & ADCRANGE_MASK;
        break;
    case A_ADC_CLKDIV:
        s->clkdiv = value & R_ADC_CLKDIV_VALUE_MASK;
        break;
    case A_ADC_MISC:
        s->misc = value & 0xff;
        break;
    case A_STEPENABLE:
        s->stepenable = value & STEPENABLE_MASK;
        am335x_tscadc_kick(s);
        break;
    case A_IDLECONFIG:
        if (am335x_tscadc_step_regs_writable(s, addr)) {
            s->idleconfig = value & STEPCONFIG_MASK;
            am335x_tscadc_pen_update(s);
        }
        break;
    case A_TS_CHARGE_STEPCONFIG:
        if (am335x_tscadc_step_regs_writable(s, addr)) {
            s->charge_config = value & STEPCONFIG_MASK;
        }
        break;
    case A_TS_CHARGE_DELAY:
        if (am335x_tscadc_step_regs_writable(s, addr)) {
            s->charge_delay = value & R_STEPDELAY_OPENDELAY_MASK;
        }
        break;
    case A_STEPCONFIG1 ... A_STEPDELAY16:
        if (!am335x_tscadc_step_regs_writable(s, addr)) {
            break;
        }
        if ((addr - A_STEPCONFIG1) & 4) {
            s->stepdelay[(addr - A_STEPCONFIG1) / 8] = value & STEPDELAY_MASK;
        } else {
            s->stepconfig[(addr - A_STEPCONFIG1) / 8] =
                value & STEPCONFIG_MASK;
        }
        /* A step turned from hardware- to software-started may run now */
        am335x_tscadc_kick(s);
        break;
    case A_FIFO0THRESHOLD:
        s->fifo[0].threshold = value & FIFO_LEVEL_MASK;
        break;
    case A_DMA0REQ:
        s->fifo[0].dma_req = value & FIFO_LEVEL_MASK;
        break;
    case A_FIFO1THRESHOLD:
        s->fifo[1].threshold = value & FIFO_LEVEL_MASK;
        break;
    case A_DMA1REQ:
        s->fifo[1].dma_req = value & FIFO_LEVEL_MASK;
        break;
    case A_REVISION:
    case A_ADCSTAT:
    case A_FIFO0COUNT:
    case A_FIFO1COUNT:
    case A_FIFO0DATA ... A_FIFO0DATA + 0xfc:
    case A_FIFO1DATA ... A_FIFO1DATA + 0xfc:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: write to read-only offset 0x%"
                      HWADDR_PRIx "\n", __func__, addr);
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: bad write offset 0x%"
                      HWADDR_PRIx "\n", __func__, addr);
        break;
    }
}

static void am335x_tscadc_write(void *opaque, hwaddr offset, uint64_t value,
                                unsigned size)
{
    AM335xTscAdcState *s = AM335X_TSCADC(opaque);

    trace_am335x_tscadc_write(offset, size, value);
    if (size != 4 || (offset & 3)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %u-bit write at offset 0x%"
                      HWADDR_PRIx " (32-bit registers); ignored\n",
                      __func__, size * 8, offset);
        return;
    }
    am335x_tscadc_write_reg(s, offset, value);
    am335x_tscadc_update(s);
}

static const MemoryRegionOps am335x_tscadc_ops = {
    .read = am335x_tscadc_read,
    .write = am335x_tscadc_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 2,
    .valid.max_access_size = 4,
    .impl.min_access_size = 2,
    .impl.max_access_size = 4,
};

/* The PRCM gated or ungated the functional clock */
static void am335x_tscadc_clock_event(void *opaque, ClockEvent event)
{
    AM335xTscAdcState *s = AM335X_TSCADC(opaque);

    if (!clock_is_enabled(s->fclk)) {
        am335x_tscadc_stop(s);
    }
    am335x_tscadc_kick(s);
}

static void am335x_tscadc_reset_enter(Object *obj, ResetType type)
{
    AM335xTscAdcState *s = AM335X_TSCADC(obj);

    am335x_tscadc_stop(s);
    s->sysconfig = 0;
    s->irq_raw = 0;
    s->irq_enable = 0;
    s->irq_wakeup = 0;
    s->dma_enable = 0;
    s->ctrl = 0;
    s->adcrange = 0;
    s->clkdiv = 0;
    s->misc = 0;
    s->stepenable = 0;
    s->idleconfig = 0;
    s->charge_config = 0;
    s->charge_delay = 1;    /* its OpenDelay resets to 1 */
    memset(s->stepconfig, 0, sizeof(s->stepconfig));
    memset(s->stepdelay, 0, sizeof(s->stepdelay));
    for (int f = 0; f < AM335X_TSCADC_NUM_FIFOS; f++) {
        am335x_tscadc_fifo_clear(&s->fifo[f]);
        s->fifo[f].threshold = 0;
        s->fifo[f].dma_req = 0;
    }
    s->step = 0;
    s->pen_down = false;
    s->pen_sampled = false;
}

static void am335x_tscadc_reset_hold(Object *obj, ResetType type)
{
    am335x_tscadc_update(AM335X_TSCADC(obj));
}

static void am335x_tscadc_input_event(DeviceState *dev, QemuConsole *src,
                                      InputEvent *evt)
{
    touch_panel_4wire_event(&AM335X_TSCADC(dev)->panel, evt);
}

static void am335x_tscadc_input_sync(DeviceState *dev)
{
    AM335xTscAdcState *s = AM335X_TSCADC(dev);

    if (touch_panel_4wire_sync(&s->panel)) {
        am335x_tscadc_pen_update(s);
        am335x_tscadc_update(s);
    }
}

static const QemuInputHandler am335x_tscadc_input = {
    .name = "AM335x touch panel",
    .mask = TOUCH_PANEL_INPUT_MASK,
    .event = am335x_tscadc_input_event,
    .sync = am335x_tscadc_input_sync,
};

static void am335x_tscadc_realize(DeviceState *dev, Error **errp)
{
    AM335xTscAdcState *s = AM335X_TSCADC(dev);

    if (!clock_has_source(s->fclk)) {
        error_setg(errp, "%s: clock input '%s' is not connected",
                   TYPE_AM335X_TSCADC, AM335X_TSCADC_FCLK);
        return;
    }
    memory_region_init_io(&s->iomem, OBJECT(s), &am335x_tscadc_ops, s,
                          TYPE_AM335X_TSCADC, AM335X_TSCADC_MMIO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->iomem);
    if (s->touch_panel) {
        s->input = qemu_input_handler_register(dev, &am335x_tscadc_input);
        qemu_input_handler_activate(s->input);
    }
}

static void am335x_tscadc_init(Object *obj)
{
    AM335xTscAdcState *s = AM335X_TSCADC(obj);
    DeviceState *dev = DEVICE(obj);

    timer_init_ns(&s->step_timer, QEMU_CLOCK_VIRTUAL, am335x_tscadc_step_done,
                  s);
    s->fclk = qdev_init_clock_in(dev, AM335X_TSCADC_FCLK,
                                 am335x_tscadc_clock_event, s, ClockUpdate);
    sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq);
    qdev_init_gpio_out_named(dev, s->dma_request, AM335X_TSCADC_DMA_REQUEST,
                             AM335X_TSCADC_NUM_FIFOS);
    for (int i = 0; i < AM335X_TSCADC_NUM_INPUTS; i++) {
        g_autofree char *name = g_strdup_printf("ain%d", i);

        object_property_add_uint16_ptr(obj, name, &s->ain[i],
                                       OBJ_PROP_FLAG_READWRITE);
    }
}

static int am335x_tscadc_post_load(void *opaque, int version_id)
{
    AM335xTscAdcState *s = AM335X_TSCADC(opaque);

    for (int f = 0; f < AM335X_TSCADC_NUM_FIFOS; f++) {
        if (s->fifo[f].head >= AM335X_TSCADC_FIFO_DEPTH ||
            s->fifo[f].count > AM335X_TSCADC_FIFO_DEPTH) {
            return -EINVAL;
        }
    }
    if (s->step >= AM335X_TSCADC_NUM_STEPS) {
        return -EINVAL;
    }
    if (!s->touch_panel && s->panel.touched) {
        return -EINVAL;
    }
    return 0;
}

static const VMStateDescription vmstate_am335x_tscadc_fifo = {
    .name = "am335x-tscadc-fifo",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_ARRAY(word, AM335xTscAdcFifo,
                             AM335X_TSCADC_FIFO_DEPTH),
        VMSTATE_UINT8(head, AM335xTscAdcFifo),
        VMSTATE_UINT8(count, AM335xTscAdcFifo),
        VMSTATE_UINT32(threshold, AM335xTscAdcFifo),
        VMSTATE_UINT32(dma_req, AM335xTscAdcFifo),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_am335x_tscadc = {
    .name = TYPE_AM335X_TSCADC,
    .version_id = 2,
    .minimum_version_id = 2,
    .post_load = am335x_tscadc_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_TIMER(step_timer, AM335xTscAdcState),
        VMSTATE_CLOCK(fclk, AM335xTscAdcState),
        VMSTATE_UINT32(sysconfig, AM335xTscAdcState),
        VMSTATE_UINT32(irq_raw, AM335xTscAdcState),
        VMSTATE_UINT32(irq_enable, AM335xTscAdcState),
        VMSTATE_UINT32(irq_wakeup, AM335xTscAdcState),
        VMSTATE_UINT32(dma_enable, AM335xTscAdcState),
        VMSTATE_UINT32(ctrl, AM335xTscAdcState),
        VMSTATE_UINT32(adcrange, AM335xTscAdcState),
        VMSTATE_UINT32(clkdiv, AM335xTscAdcState),
        VMSTATE_UINT32(misc, AM335xTscAdcState),
        VMSTATE_UINT32(stepenable, AM335xTscAdcState),
        VMSTATE_UINT32(idleconfig, AM335xTscAdcState),
        VMSTATE_UINT32(charge_config, AM335xTscAdcState),
        VMSTATE_UINT32(charge_delay, AM335xTscAdcState),
        VMSTATE_UINT32_ARRAY(stepconfig, AM335xTscAdcState,
                             AM335X_TSCADC_NUM_STEPS),
        VMSTATE_UINT32_ARRAY(stepdelay, AM335xTscAdcState,
                             AM335X_TSCADC_NUM_STEPS),
        VMSTATE_STRUCT_ARRAY(fifo, AM335xTscAdcState,
                             AM335X_TSCADC_NUM_FIFOS, 1,
                             vmstate_am335x_tscadc_fifo, AM335xTscAdcFifo),
        VMSTATE_BOOL(busy, AM335xTscAdcState),
        VMSTATE_UINT8(step, AM335xTscAdcState),
        VMSTATE_UINT16_ARRAY(ain, AM335xTscAdcState,
                             AM335X_TSCADC_NUM_INPUTS),
        VMSTATE_BOOL(hw_sequence, AM335xTscAdcState),
        VMSTATE_BOOL(charging, AM335xTscAdcState),
        VMSTATE_BOOL(pen_down, AM335xTscAdcState),
        VMSTATE_BOOL(pen_sampled, AM335xTscAdcState),
        VMSTATE_STRUCT(panel, AM335xTscAdcState, 2, vmstate_touch_panel_4wire,
                       TouchPanel4Wire),
        VMSTATE_END_OF_LIST()
    }
};

static const Property am335x_tscadc_properties[] = {
    /* The board has a 4-wire panel on AIN0-3 (the EVM's LCD has one) */
    DEFINE_PROP_BOOL("touch-panel", AM335xTscAdcState, touch_panel, false),
    /* ti,x-plate-resistance in the AM335x EVM's device tree */
    DEFINE_PROP_UINT32("x-plate-ohms", AM335xTscAdcState, panel.x_plate_ohms,
                       200),
    /* Not in the DT: taken as the X plate's */
    DEFINE_PROP_UINT32("y-plate-ohms", AM335xTscAdcState, panel.y_plate_ohms,
                       200),
    /* A finger's contact, of the order of the plates' */
    DEFINE_PROP_UINT32("touch-ohms", AM335xTscAdcState, panel.touch_ohms,
                       400),
};

static void am335x_tscadc_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    device_class_set_props(dc, am335x_tscadc_properties);
    dc->realize = am335x_tscadc_realize;
    dc->vmsd = &vmstate_am335x_tscadc;
    dc->desc = "TI AM335x touchscreen controller and ADC";
    rc->phases.enter = am335x_tscadc_reset_enter;
    rc->phases.hold = am335x_tscadc_reset_hold;
}

static const TypeInfo am335x_tscadc_info = {
    .name = TYPE_AM335X_TSCADC,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AM335xTscAdcState),
    .instance_init = am335x_tscadc_init,
    .class_init = am335x_tscadc_class_init,
};

static void am335x_tscadc_register_types(void)
{
    type_register_static(&am335x_tscadc_info);
}

type_init(am335x_tscadc_register_types)
