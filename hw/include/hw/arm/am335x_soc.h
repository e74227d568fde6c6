/*
 * TI AM335x (Sitara) system-on-chip
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_ARM_AM335X_SOC_H
#define HW_ARM_AM335X_SOC_H

#include "hw/sysbus.h"
#include "target/arm/cpu.h"
#include "hw/char/am335x_uart.h"
#include "hw/dma/am335x_edma_tpcc.h"
#include "hw/dma/am335x_edma_tptc.h"
#include "hw/intc/am335x_intc.h"
#include "hw/gpio/am335x_gpio.h"
#include "hw/i2c/am335x_i2c.h"
#include "hw/rtc/am335x_rtc.h"
#include "hw/sd/am335x_hsmmc.h"
#include "hw/block/am335x_gpmc.h"
#include "hw/block/am335x_elm.h"
#include "hw/watchdog/am335x_wdt.h"
#include "hw/adc/am335x_tscadc.h"
#include "hw/display/am335x_lcdc.h"
#include "hw/audio/am335x_mcasp.h"
#include "hw/net/am335x_dcan.h"
#include "hw/timer/am335x_dmtimer.h"
#include "hw/misc/am335x_control.h"
#include "hw/misc/am335x_prcm.h"
#include "hw/misc/am335x_sysc.h"
#include "hw/net/am335x_cpsw.h"
#include "hw/dma/am335x_cppi41.h"
#include "hw/usb/am335x_musb.h"
#include "qom/object.h"

#define TYPE_AM335X_SOC "am335x-soc"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xSoCState, AM335X_SOC)

#define AM335X_NUM_UARTS 6
#define AM335X_NUM_TIMERS 8
#define AM335X_NUM_GPIOS 4
#define AM335X_NUM_I2C 3
#define AM335X_NUM_DCAN 2
#define AM335X_NUM_MCASP 2
#define AM335X_NUM_EDMA_TPTC 3
#define AM335X_NUM_MMC 3
#define AM335X_NUM_USB 2

/* The blocks the SoC container itself maps (AM335x TRM, chapter 2). */
enum {
    AM335X_DEV_BOOT_ROM,
    AM335X_DEV_PUBLIC_ROM,
    AM335X_DEV_SRAM,
    AM335X_DEV_OCMC_RAM,
    AM335X_DEV_UART0,
    AM335X_DEV_UART1,
    AM335X_DEV_UART2,
    AM335X_DEV_UART3,
    AM335X_DEV_UART4,
    AM335X_DEV_UART5,
    AM335X_DEV_INTC,
    AM335X_DEV_PRCM,
    AM335X_DEV_CONTROL,
    AM335X_DEV_TIMER0,
    AM335X_DEV_TIMER1,
    AM335X_DEV_TIMER2,
    AM335X_DEV_TIMER3,
    AM335X_DEV_TIMER4,
    AM335X_DEV_TIMER5,
    AM335X_DEV_TIMER6,
    AM335X_DEV_TIMER7,
    AM335X_DEV_GPIO0,
    AM335X_DEV_GPIO1,
    AM335X_DEV_GPIO2,
    AM335X_DEV_GPIO3,
    AM335X_DEV_I2C0,
    AM335X_DEV_I2C1,
    AM335X_DEV_I2C2,
    AM335X_DEV_RTC,
    AM335X_DEV_WDT1,
    AM335X_DEV_TSCADC,
    AM335X_DEV_DCAN0,
    AM335X_DEV_DCAN1,
    AM335X_DEV_LCDC,
    AM335X_DEV_MCASP0,
    AM335X_DEV_MCASP1,
    AM335X_DEV_MCASP0_DATA,
    AM335X_DEV_MCASP1_DATA,
    AM335X_DEV_EDMA_TPCC,
    AM335X_DEV_EDMA_TPTC0,
    AM335X_DEV_EDMA_TPTC1,
    AM335X_DEV_EDMA_TPTC2,
    AM335X_DEV_MMC0,
    AM335X_DEV_MMC1,
    AM335X_DEV_MMC2,
    AM335X_DEV_CPSW,
    AM335X_DEV_GPMC,
    AM335X_DEV_GPMC_SPACE,
    AM335X_DEV_ELM,
    AM335X_DEV_USBSS,
    AM335X_DEV_USB0,
    AM335X_DEV_USB1,
    AM335X_DEV_CPPI41_CONTROLLER,
    AM335X_DEV_CPPI41_SCHEDULER,
    AM335X_DEV_CPPI41_QUEUEMGR,
    AM335X_DEV_DDR,
};

struct AM335xSoCState {
    DeviceState parent_obj;

    ARMCPU cpu;
    AM335xIntcState intc;
    AM335xPrcmState prcm;
    AM335xControlState control;
    AM335xUartState uart[AM335X_NUM_UARTS];
    AM335xDMTimerState timer[AM335X_NUM_TIMERS];
    AM335xGpioState gpio[AM335X_NUM_GPIOS];
    AM335xI2CState i2c[AM335X_NUM_I2C];
    AM335xRtcState rtc;
    AM335xWdtState wdt;
    AM335xTscAdcState tscadc;
    AM335xDcanState dcan[AM335X_NUM_DCAN];
    AM335xLcdcState lcdc;
    AM335xMcaspState mcasp[AM335X_NUM_MCASP];
    AM335xCppi41State usbss;
    AM335xMusbState usb[AM335X_NUM_USB];
    AM335xEdmaTpccState edma_tpcc;
    AM335xEdmaTptcState edma_tptc[AM335X_NUM_EDMA_TPTC];
    AM335xHsmmcState mmc[AM335X_NUM_MMC];
    AM335xCpswState cpsw;
    AM335xGpmcState gpmc;
    AM335xElmState elm;
    AM335xSyscState sysc[AM335X_SYSC_NUM_MODULES];

    MemoryRegion boot_rom;
    MemoryRegion public_rom;
    MemoryRegion sram;
    MemoryRegion ocmc_ram;

    /*
     * Property "timing": the data movers (EDMA TCs, MMCHS, GPMC) take the
     * time their datasheets give instead of completing at once.
     */
    bool timing;
};

/* INTC input of a block's interrupt (TRM table 6-1). */
qemu_irq am335x_soc_irq(AM335xSoCState *s, int line);

/*
 * The EDMA request input of DMA event @event (AM335x TRM table 11-23),
 * for a peripheral's DMA request line: a rising edge is an event.  It
 * reaches EDMA channel @event while that channel's crossbar mux is 0.
 */
qemu_irq am335x_soc_dma_event(AM335xSoCState *s, int event);

/* Event crossbar input @input (TRM table 11-24), for the other requests. */
qemu_irq am335x_soc_dma_xbar_event(AM335xSoCState *s, int input);

/* Physical base of a block in the memory map above. */
hwaddr am335x_soc_base(int dev);

/* The SD bus of MMCHS@n, where a board plugs its SD card or eMMC. */
BusState *am335x_soc_sd_bus(AM335xSoCState *s, int n);

#endif
