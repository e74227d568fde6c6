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
 * Not modelled: the touchscreen's analog front end and pen detection, so
 * hardware-synchronized steps and the charge step never run (as on a
 * board with no panel touched); the hardware event input; differential
 * conversion (the positive input is converted); idle-mode wake-up.
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
REG32(ADCSTAT, 0x44)
    FIELD(ADCSTAT, STEP_ID, 0, 5)
    FIELD(ADCSTAT, FSM_BUSY, 5, 1)
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
#define IRQ_END_OF_SEQUENCE     BIT(1)
#define IRQ_FIFO_THRESHOLD(f)   BIT(2 + 3 * (f))
#define IRQ_FIFO_OVERRUN(f)     BIT(3 + 3 * (f))
#define IRQ_FIFO_UNDERFLOW(f)   BIT(4 + 3 * (f))
#define IRQ_OUT_OF_RANGE        BIT(8)
#define IRQ_ALL                 0x7ff

/* REVISION as the silicon reports it; ti-sysc's "adc" quirk matches it */
#define AM335X_TSCADC_REV       0x47300001

/* STEPCONFIG modes (TRM table 12-24) */
#define MODE_SW_ONESHOT         0
#define MODE_SW_CONTINUOUS      1

/* ADCSTAT.STEP_ID while the sequencer is idle */
#define STEP_ID_IDLE            0x10

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
 * no hardware event, or -1.
 */
static int am335x_tscadc_next_step(AM335xTscAdcState *s, int from)
{
    for (int i = from; i < AM335X_TSCADC_NUM_STEPS; i++) {
        unsigned mode = FIELD_EX32(s->stepconfig[i], STEPCONFIG, MODE);

        if ((s->stepenable & BIT(i + 1)) &&
            (mode == MODE_SW_ONESHOT || mode == MODE_SW_CONTINUOUS)) {
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

/* Starts a sequence if the sequencer is idle and has work. */
static void am335x_tscadc_kick(AM335xTscAdcState *s)
{
    int step;

    if (s->busy || !am335x_tscadc_can_run(s)) {
        return;
    }
    step = am335x_tscadc_next_step(s, 0);
    if (step >= 0) {
        am335x_tscadc_begin_step(s, step);
    }
}

static void am335x_tscadc_stop(AM335xTscAdcState *s)
{
    timer_del(&s->step_timer);
    s->busy = false;
}

static uint16_t am335x_tscadc_convert(AM335xTscAdcState *s, int step)
{
    unsigned inp = FIELD_EX32(s->stepconfig[step], STEPCONFIG, SEL_INP);

    if (inp < AM335X_TSCADC_NUM_INPUTS) {
        return MIN(s->ain[inp], R_FIFODATA_ADCDATA_MASK);
    }
    if (inp != INP_VREFN) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: step %d selects reserved input "
                      "%u; converting 0\n", __func__, step + 1, inp);
    }
    return 0;
}

static void am335x_tscadc_step_done(void *opaque)
{
    AM335xTscAdcState *s = AM335X_TSCADC(opaque);
    uint32_t config = s->stepconfig[s->step];
    int f = FIELD_EX32(config, STEPCONFIG, FIFO_SELECT);
    uint16_t value;
    uint32_t word;
    int next;

    if (!s->busy) {
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
    if (FIELD_EX32(config, STEPCONFIG, MODE) == MODE_SW_ONESHOT) {
        s->stepenable &= ~BIT(s->step + 1);
    }

    next = am335x_tscadc_next_step(s, s->step + 1);
    if (next >= 0) {
        am335x_tscadc_begin_step(s, next);
    } else {
        s->irq_raw |= IRQ_END_OF_SEQUENCE;
        s->busy = false;
        /* Continuous steps still enabled start the next sequence */
        am335x_tscadc_kick(s);
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
        return s->busy ?
            FIELD_DP32(s->step, ADCSTAT, FSM_BUSY, 1) : STEP_ID_IDLE;
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
        am335x_tscadc_kick(s);
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
}

static void am335x_tscadc_reset_hold(Object *obj, ResetType type)
{
    am335x_tscadc_update(AM335X_TSCADC(obj));
}

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
    .version_id = 1,
    .minimum_version_id = 1,
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
        VMSTATE_END_OF_LIST()
    }
};

static void am335x_tscadc_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

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
