/*
 * TI AM335x touchscreen controller and ADC subsystem (TSC_ADC_SS)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_ADC_AM335X_TSCADC_H
#define HW_ADC_AM335X_TSCADC_H

#include "hw/sysbus.h"
#include "hw/adc/touch_panel_4wire.h"
#include "qemu/timer.h"
#include "qom/object.h"

#define TYPE_AM335X_TSCADC "am335x-tscadc"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xTscAdcState, AM335X_TSCADC)

/* The module's two 4 KiB L4 windows */
#define AM335X_TSCADC_MMIO_SIZE     0x2000

/* The functional clock input (a Clock): CLK_M_OSC, gated by the PRCM */
#define AM335X_TSCADC_FCLK          "fclk"
/* DMA request outputs, one per FIFO, to the EDMA's events */
#define AM335X_TSCADC_DMA_REQUEST   "dma-request"

#define AM335X_TSCADC_NUM_INPUTS    8
#define AM335X_TSCADC_NUM_STEPS     16
#define AM335X_TSCADC_NUM_FIFOS     2
/* TRM 12.3.4: each FIFO holds 64 words */
#define AM335X_TSCADC_FIFO_DEPTH    64

typedef struct AM335xTscAdcFifo {
    uint32_t word[AM335X_TSCADC_FIFO_DEPTH];
    uint8_t head;
    uint8_t count;
    uint32_t threshold;
    uint32_t dma_req;
} AM335xTscAdcFifo;

struct AM335xTscAdcState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    QEMUTimer step_timer;
    Clock *fclk;
    qemu_irq irq;
    qemu_irq dma_request[AM335X_TSCADC_NUM_FIFOS];

    uint32_t sysconfig;
    uint32_t irq_raw;
    uint32_t irq_enable;
    uint32_t irq_wakeup;
    uint32_t dma_enable;
    uint32_t ctrl;
    uint32_t adcrange;
    uint32_t clkdiv;
    uint32_t misc;
    uint32_t stepenable;
    uint32_t idleconfig;
    uint32_t charge_config;
    uint32_t charge_delay;
    uint32_t stepconfig[AM335X_TSCADC_NUM_STEPS];
    uint32_t stepdelay[AM335X_TSCADC_NUM_STEPS];
    AM335xTscAdcFifo fifo[AM335X_TSCADC_NUM_FIFOS];

    /* The sequencer: converting step @step (0-15) while @busy */
    bool busy;
    uint8_t step;
    /* A sequence the pen started: its HW-synchronized steps run */
    bool hw_sequence;
    /* The touchscreen's charge step is running (after the steps) */
    bool charging;
    /* The pen-down detector's output, as last seen */
    bool pen_down;
    /* A pen sequence ran and no PEN_UP has followed yet */
    bool pen_sampled;

    /* The 4-wire panel on AIN0-3 (XP, XN, YP, YN), if the board has one */
    bool touch_panel;
    TouchPanel4Wire panel;
    QemuInputHandlerState *input;

    /*
     * The analog inputs AIN0-7, as the 12-bit codes the converter gives
     * for them (code = 4095 * V / VREFP, VREFP = VDDA_ADC = 1.8 V on both
     * boards).  Settable at any time: qom-set or -global.
     */
    uint16_t ain[AM335X_TSCADC_NUM_INPUTS];
};

#endif
