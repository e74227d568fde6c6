/*
 * TI AM335x (Sitara) system-on-chip
 *
 * The SoC container: one Cortex-A8, the on-chip ROM and RAMs, the
 * peripherals modelled so far, and every other block of the memory map as a
 * named unimplemented device, so that a guest access to it is logged with
 * the block's name instead of faulting.
 *
 * Reference: AM335x Technical Reference Manual (SPRUH73), chapter 2
 * (memory map) and chapter 6 (interrupts).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "hw/arm/am335x_soc.h"
#include "hw/misc/unimp.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "system/system.h"
#include "exec/address-spaces.h"
#include "hw/qdev-clock.h"
#include "net/net.h"

static const hwaddr am335x_memmap[] = {
    [AM335X_DEV_BOOT_ROM]   = 0x40000000,
    [AM335X_DEV_PUBLIC_ROM] = 0x40020000,
    [AM335X_DEV_SRAM]       = 0x402f0000,
    [AM335X_DEV_OCMC_RAM]   = 0x40300000,
    [AM335X_DEV_UART0]      = 0x44e09000,
    [AM335X_DEV_UART1]      = 0x48022000,
    [AM335X_DEV_UART2]      = 0x48024000,
    [AM335X_DEV_UART3]      = 0x481a6000,
    [AM335X_DEV_UART4]      = 0x481a8000,
    [AM335X_DEV_UART5]      = 0x481aa000,
    [AM335X_DEV_INTC]       = 0x48200000,
    [AM335X_DEV_PRCM]       = 0x44e00000,
    [AM335X_DEV_CONTROL]    = 0x44e10000,
    [AM335X_DEV_TIMER0]     = 0x44e05000,
    [AM335X_DEV_TIMER1]     = 0x44e31000,
    [AM335X_DEV_TIMER2]     = 0x48040000,
    [AM335X_DEV_TIMER3]     = 0x48042000,
    [AM335X_DEV_TIMER4]     = 0x48044000,
    [AM335X_DEV_TIMER5]     = 0x48046000,
    [AM335X_DEV_TIMER6]     = 0x48048000,
    [AM335X_DEV_TIMER7]     = 0x4804a000,
    [AM335X_DEV_GPIO0]      = 0x44e07000,
    [AM335X_DEV_GPIO1]      = 0x4804c000,
    [AM335X_DEV_GPIO2]      = 0x481ac000,
    [AM335X_DEV_GPIO3]      = 0x481ae000,
    [AM335X_DEV_I2C0]       = 0x44e0b000,
    [AM335X_DEV_I2C1]       = 0x4802a000,
    [AM335X_DEV_I2C2]       = 0x4819c000,
    [AM335X_DEV_RTC]        = 0x44e3e000,
    [AM335X_DEV_WDT1]       = 0x44e35000,
    [AM335X_DEV_TSCADC]     = 0x44e0d000,
    [AM335X_DEV_DCAN0]      = 0x481cc000,
    [AM335X_DEV_DCAN1]      = 0x481d0000,
    [AM335X_DEV_LCDC]       = 0x4830e000,
    [AM335X_DEV_MCASP0]     = 0x48038000,
    [AM335X_DEV_MCASP1]     = 0x4803c000,
    [AM335X_DEV_MCASP0_DATA] = 0x46000000,
    [AM335X_DEV_MCASP1_DATA] = 0x46400000,
    [AM335X_DEV_EDMA_TPCC]  = 0x49000000,
    [AM335X_DEV_EDMA_TPTC0] = 0x49800000,
    [AM335X_DEV_EDMA_TPTC1] = 0x49900000,
    [AM335X_DEV_EDMA_TPTC2] = 0x49a00000,
    [AM335X_DEV_MMC0]       = 0x48060000,
    [AM335X_DEV_MMC1]       = 0x481d8000,
    [AM335X_DEV_MMC2]       = 0x47810000,
    [AM335X_DEV_CPSW]       = 0x4a100000,
    [AM335X_DEV_GPMC]       = 0x50000000,
    /* The GPMC chip-select windows: TRM table 2-1, 0x00000000-0x1fffffff */
    [AM335X_DEV_GPMC_SPACE] = 0x00000000,
    [AM335X_DEV_ELM]        = 0x48080000,
    [AM335X_DEV_USBSS]      = 0x47400000,
    [AM335X_DEV_USB0]       = 0x47401000,
    [AM335X_DEV_USB1]       = 0x47401800,
    [AM335X_DEV_CPPI41_CONTROLLER] = 0x47402000,
    [AM335X_DEV_CPPI41_SCHEDULER]  = 0x47403000,
    [AM335X_DEV_CPPI41_QUEUEMGR]   = 0x47404000,
    [AM335X_DEV_DDR]        = 0x80000000,
};

/* INTC lines (TRM table 6-1) */
static const int am335x_uart_irq[AM335X_NUM_UARTS] = { 72, 73, 74, 44, 45, 46 };
static const int am335x_timer_irq[AM335X_NUM_TIMERS] = {
    66, 67, 68, 69, 92, 93, 94, 95
};
static const int am335x_i2c_irq[AM335X_NUM_I2C] = { 70, 71, 30 };
#define AM335X_IRQ_RTC_TIMER    75
#define AM335X_IRQ_RTC_ALARM    76
#define AM335X_IRQ_WDT1         91
#define AM335X_IRQ_TSCADC       16
#define AM335X_IRQ_LCDC         36
#define AM335X_IRQ_USBSS        17
static const int am335x_usb_irq[AM335X_NUM_USB] = { 18, 19 };
/* McASPn TX and RX interrupts, and their EDMA events (TRM 6-1, 11-23) */
static const int am335x_mcasp_irq[AM335X_NUM_MCASP][2] = { { 80, 81 },
                                                           { 82, 83 } };
static const int am335x_mcasp_dma[AM335X_NUM_MCASP][2] = { { 8, 9 },
                                                           { 10, 11 } };
/* DCANx_INT0 and DCANx_INT1 (the parity line is not modelled) */
static const int am335x_dcan_irq[AM335X_NUM_DCAN][AM335X_DCAN_NUM_IRQS] = {
    { 52, 53 }, { 55, 56 },
};
/* TRM table 11-23: the TSC_ADC FIFOs' DMA events (ADC_FIFO0, ADC_FIFO1) */
static const int am335x_tscadc_dma_event[AM335X_TSCADC_NUM_FIFOS] = { 53, 57 };
/* EDMACOMPINT, EDMAMPERR, EDMAERRINT, in the TPCC's sysbus IRQ order */
static const int am335x_edma_tpcc_irq[AM335X_EDMA_TPCC_NUM_IRQS] = {
    12, 13, 14
};
/* TPTC0-2 ERRINT */
static const int am335x_edma_tptc_irq[AM335X_NUM_EDMA_TPTC] = {
    112, 113, 114
};
static const int am335x_mmc_irq[AM335X_NUM_MMC] = { 64, 28, 29 };
/*
 * DMA requests of MMCHS0-2 TX and RX: direct EDMA events (TRM table 11-23),
 * or for MMCHS2 the event crossbar's inputs SDTXEVT2/SDRXEVT2 (table 11-24).
 */
static const struct {
    bool xbar;
    int tx, rx;
} am335x_mmc_dma[AM335X_NUM_MMC] = {
    { false, 24, 25 }, { false, 2, 3 }, { true, 1, 2 }
};
/* CPSW C0_RX_THRESH_PEND, C0_RX_PEND, C0_TX_PEND, C0_MISC_PEND */
static const int am335x_cpsw_irq[AM335X_CPSW_NUM_IRQS] = { 40, 41, 42, 43 };
#define AM335X_IRQ_GPMC         100
#define AM335X_IRQ_ELM          4
/* GPMC_SDMAREQ (TRM table 11-23) */
#define AM335X_DMA_EVENT_GPMC   52
/* POINTRPEND1 and POINTRPEND2 of each GPIO module */
static const int am335x_gpio_irq[AM335X_NUM_GPIOS][2] = {
    { 96, 97 }, { 98, 99 }, { 32, 33 }, { 62, 63 }
};

hwaddr am335x_soc_base(int dev)
{
    return am335x_memmap[dev];
}

qemu_irq am335x_soc_irq(AM335xSoCState *s, int line)
{
    return qdev_get_gpio_in(DEVICE(&s->intc), line);
}

qemu_irq am335x_soc_dma_event(AM335xSoCState *s, int event)
{
    return qdev_get_gpio_in_named(DEVICE(&s->control),
                                  AM335X_CONTROL_DMA_DIRECT, event);
}

qemu_irq am335x_soc_dma_xbar_event(AM335xSoCState *s, int input)
{
    return qdev_get_gpio_in_named(DEVICE(&s->control),
                                  AM335X_CONTROL_DMA_XBAR, input);
}

BusState *am335x_soc_sd_bus(AM335xSoCState *s, int n)
{
    return qdev_get_child_bus(DEVICE(&s->mmc[n].sdhci), "sd-bus");
}

/*
 * Blocks not modelled yet and without a ti-sysc wrapper of their own (those
 * are in am335x_sysc_modules.c), from TRM tables 2-1 to 2-4.  Each is its
 * own named region; the interconnect windows behind them catch the rest.
 */
static const struct {
    const char *name;
    hwaddr base;
    hwaddr size;
} am335x_unimplemented[] = {
    /* L4_WKUP */
    { "wkup-m3-dmem",   0x44d80000, 8 * KiB },
    { "smartreflex0",   0x44e37000, 4 * KiB },
    { "smartreflex1",   0x44e39000, 4 * KiB },
    { "debugss",        0x44e40000, 256 * KiB },
    /* L4_PER */
    { "ocp-wp",         0x4818c000, 4 * KiB },
    /* L3 */
    { "l3f-cfg",        0x44000000, 4 * MiB },
    { "l3s-cfg",        0x44800000, 4 * MiB },
    /* The TRM's 1 MiB EDMA3CC window beyond the DT's 64 KiB */
    { "edma-tpcc-rsvd", 0x49010000, 960 * KiB },
    { "l4-fast-cfg",    0x4a000000, 4 * KiB },
};

/* Interconnect windows: lower priority than the named blocks above. */
static const struct {
    const char *name;
    hwaddr base;
    hwaddr size;
} am335x_interconnect[] = {
    { "l4-wkup",        0x44c00000, 4 * MiB },
    { "l4-per",         0x48000000, 16 * MiB },
    { "l4-fast",        0x4a000000, 16 * MiB },
};

static void am335x_soc_init(Object *obj)
{
    AM335xSoCState *s = AM335X_SOC(obj);

    object_initialize_child(obj, "cpu", &s->cpu,
                            ARM_CPU_TYPE_NAME("cortex-a8"));
    object_initialize_child(obj, "intc", &s->intc, TYPE_AM335X_INTC);
    object_initialize_child(obj, "prcm", &s->prcm, TYPE_AM335X_PRCM);
    object_property_add_alias(obj, "mpu-mhz", OBJECT(&s->prcm), "mpu-mhz");
    object_property_add_alias(obj, "ddr-mhz", OBJECT(&s->prcm), "ddr-mhz");
    object_initialize_child(obj, "control", &s->control,
                            TYPE_AM335X_CONTROL);
    object_property_add_alias(obj, "sysboot", OBJECT(&s->control),
                              "sysboot");
    object_property_add_alias(obj, "dev-feature", OBJECT(&s->control),
                              "dev-feature");
    object_property_add_alias(obj, "mac-base", OBJECT(&s->control),
                              "mac-base");
    for (int i = 0; i < AM335X_NUM_UARTS; i++) {
        object_initialize_child(obj, "uart[*]", &s->uart[i],
                                TYPE_AM335X_UART);
    }
    for (int i = 0; i < AM335X_NUM_TIMERS; i++) {
        object_initialize_child(obj, "timer[*]", &s->timer[i],
                                TYPE_AM335X_DMTIMER);
    }
    for (int i = 0; i < AM335X_NUM_GPIOS; i++) {
        object_initialize_child(obj, "gpio[*]", &s->gpio[i],
                                TYPE_AM335X_GPIO);
    }
    for (int i = 0; i < AM335X_NUM_I2C; i++) {
        object_initialize_child(obj, "i2c[*]", &s->i2c[i], TYPE_AM335X_I2C);
    }
    object_initialize_child(obj, "rtc", &s->rtc, TYPE_AM335X_RTC);
    object_initialize_child(obj, "wdt", &s->wdt, TYPE_AM335X_WDT);
    object_initialize_child(obj, "tscadc", &s->tscadc, TYPE_AM335X_TSCADC);
    for (int i = 0; i < AM335X_NUM_DCAN; i++) {
        object_initialize_child(obj, "dcan[*]", &s->dcan[i], TYPE_AM335X_DCAN);
    }
    object_initialize_child(obj, "lcdc", &s->lcdc, TYPE_AM335X_LCDC);
    for (int i = 0; i < AM335X_NUM_MCASP; i++) {
        object_initialize_child(obj, "mcasp[*]", &s->mcasp[i],
                                TYPE_AM335X_MCASP);
    }
    object_initialize_child(obj, "usbss", &s->usbss, TYPE_AM335X_CPPI41);
    for (int i = 0; i < AM335X_NUM_USB; i++) {
        object_initialize_child(obj, "usb[*]", &s->usb[i], TYPE_AM335X_MUSB);
    }
    object_initialize_child(obj, "edma-tpcc", &s->edma_tpcc,
                            TYPE_AM335X_EDMA_TPCC);
    for (int i = 0; i < AM335X_NUM_EDMA_TPTC; i++) {
        object_initialize_child(obj, "edma-tptc[*]", &s->edma_tptc[i],
                                TYPE_AM335X_EDMA_TPTC);
    }
    for (int i = 0; i < AM335X_NUM_MMC; i++) {
        object_initialize_child(obj, "mmc[*]", &s->mmc[i], TYPE_AM335X_HSMMC);
    }
    object_initialize_child(obj, "cpsw", &s->cpsw, TYPE_AM335X_CPSW);
    object_property_add_alias(obj, "eth-phy-id", OBJECT(&s->cpsw), "phy-id");
    object_initialize_child(obj, "gpmc", &s->gpmc, TYPE_AM335X_GPMC);
    object_initialize_child(obj, "elm", &s->elm, TYPE_AM335X_ELM);
    for (int i = 0; i < AM335X_SYSC_NUM_MODULES; i++) {
        object_initialize_child(obj, "sysc[*]", &s->sysc[i],
                                TYPE_AM335X_SYSC);
    }
}

static void am335x_soc_map_unimplemented(const char *name, hwaddr base,
                                         hwaddr size, int priority)
{
    DeviceState *dev = qdev_new(TYPE_UNIMPLEMENTED_DEVICE);

    qdev_prop_set_string(dev, "name", name);
    qdev_prop_set_uint64(dev, "size", size);
    sysbus_realize_and_unref(SYS_BUS_DEVICE(dev), &error_fatal);
    sysbus_mmio_map_overlap(SYS_BUS_DEVICE(dev), 0, base, priority);
}

/*
 * The EDMA3: transfer controllers that move data on the L3 (the system
 * address space), and the channel controller that feeds queue n to TC n.
 */
static bool am335x_soc_realize_edma(AM335xSoCState *s, Error **errp)
{
    SysBusDevice *cc = SYS_BUS_DEVICE(&s->edma_tpcc);

    for (int i = 0; i < AM335X_NUM_EDMA_TPTC; i++) {
        SysBusDevice *tc = SYS_BUS_DEVICE(&s->edma_tptc[i]);
        g_autofree char *link = g_strdup_printf("tptc%d", i);

        object_property_set_link(OBJECT(tc), "dma-mr",
                                 OBJECT(get_system_memory()), &error_abort);
        qdev_prop_set_bit(DEVICE(tc), "timing", s->timing);
        if (!sysbus_realize(tc, errp)) {
            return false;
        }
        sysbus_mmio_map(tc, 0, am335x_memmap[AM335X_DEV_EDMA_TPTC0 + i]);
        sysbus_connect_irq(tc, 0, am335x_soc_irq(s, am335x_edma_tptc_irq[i]));
        object_property_set_link(OBJECT(cc), link, OBJECT(tc), &error_abort);
    }
    if (!sysbus_realize(cc, errp)) {
        return false;
    }
    sysbus_mmio_map(cc, 0, am335x_memmap[AM335X_DEV_EDMA_TPCC]);
    /* Peripheral requests reach it through the control module's crossbar */
    for (int i = 0; i < AM335X_CONTROL_NUM_DMA_EVENTS; i++) {
        qdev_connect_gpio_out_named(DEVICE(&s->control),
                                    AM335X_CONTROL_DMA_EVENT, i,
                                    qdev_get_gpio_in_named(DEVICE(cc),
                                        AM335X_EDMA_TPCC_EVENT, i));
    }
    for (int i = 0; i < AM335X_EDMA_TPCC_NUM_IRQS; i++) {
        sysbus_connect_irq(cc, i, am335x_soc_irq(s, am335x_edma_tpcc_irq[i]));
    }
    return true;
}

/*
 * The CPSW: slave port 1 gets the first -nic (or -net nic) without a model
 * or with model am335x-cpsw, port 2 the second.  The ports' MAC addresses
 * are the control module's e-fuses, which Linux programs.
 */
static bool am335x_soc_realize_cpsw(AM335xSoCState *s, Error **errp)
{
    SysBusDevice *sbd = SYS_BUS_DEVICE(&s->cpsw);
    static const char * const netdev_props[] = { "netdev", "netdev2" };

    for (int n = 0; n < AM335X_CPSW_NUM_SLAVES; n++) {
        NICInfo *nd = qemu_find_nic_info(TYPE_AM335X_CPSW, true, NULL);

        if (!nd) {
            break;
        }
        qdev_prop_set_netdev(DEVICE(sbd), netdev_props[n], nd->netdev);
        nd->instantiated = 1;
    }
    qdev_prop_set_macaddr(DEVICE(sbd), "mac-base", s->control.mac_base.a);
    qdev_prop_set_bit(DEVICE(sbd), "timing", s->timing);
    object_property_set_link(OBJECT(sbd), "dma-mr",
                             OBJECT(get_system_memory()), &error_abort);
    if (!sysbus_realize(sbd, errp)) {
        return false;
    }
    sysbus_mmio_map(sbd, 0, am335x_memmap[AM335X_DEV_CPSW]);
    for (int i = 0; i < AM335X_CPSW_NUM_IRQS; i++) {
        sysbus_connect_irq(sbd, i, am335x_soc_irq(s, am335x_cpsw_irq[i]));
    }
    return true;
}

static void am335x_soc_realize(DeviceState *dev, Error **errp)
{
    AM335xSoCState *s = AM335X_SOC(dev);
    MemoryRegion *sysmem = get_system_memory();

    /*
     * The Cortex-A8 of a GP (general purpose) device; the kernel is entered
     * directly, without TI's secure ROM monitor.
     */
    object_property_set_bool(OBJECT(&s->cpu), "has_el3", false,
                             &error_abort);
    /*
     * The AM335x's core is a Cortex-A8 r3p2 (MIDR 0x413fc082).  QEMU's
     * default r0p0 is what Linux takes for an OMAP3430 ES1.0.
     */
    object_property_set_uint(OBJECT(&s->cpu), "midr", 0x413fc082,
                             &error_abort);
    if (!qdev_realize(DEVICE(&s->cpu), NULL, errp)) {
        return;
    }

    /* On-chip memories.  The ROM content is not shipped (yet). */
    if (!memory_region_init_rom(&s->boot_rom, OBJECT(s), "am335x.boot-rom",
                                128 * KiB, errp) ||
        !memory_region_init_rom(&s->public_rom, OBJECT(s),
                                "am335x.public-rom", 48 * KiB, errp) ||
        !memory_region_init_ram(&s->sram, OBJECT(s), "am335x.sram",
                                64 * KiB, errp) ||
        !memory_region_init_ram(&s->ocmc_ram, OBJECT(s), "am335x.ocmc-ram",
                                64 * KiB, errp)) {
        return;
    }
    memory_region_add_subregion(sysmem, am335x_memmap[AM335X_DEV_BOOT_ROM],
                                &s->boot_rom);
    memory_region_add_subregion(sysmem, am335x_memmap[AM335X_DEV_PUBLIC_ROM],
                                &s->public_rom);
    memory_region_add_subregion(sysmem, am335x_memmap[AM335X_DEV_SRAM],
                                &s->sram);
    memory_region_add_subregion(sysmem, am335x_memmap[AM335X_DEV_OCMC_RAM],
                                &s->ocmc_ram);

    /* The interrupt controller drives the Cortex-A8's nIRQ and nFIQ. */
    if (!sysbus_realize(SYS_BUS_DEVICE(&s->intc), errp)) {
        return;
    }
    sysbus_mmio_map(SYS_BUS_DEVICE(&s->intc), 0,
                    am335x_memmap[AM335X_DEV_INTC]);
    sysbus_connect_irq(SYS_BUS_DEVICE(&s->intc), AM335X_INTC_OUT_IRQ,
                       qdev_get_gpio_in(DEVICE(&s->cpu), ARM_CPU_IRQ));
    sysbus_connect_irq(SYS_BUS_DEVICE(&s->intc), AM335X_INTC_OUT_FIQ,
                       qdev_get_gpio_in(DEVICE(&s->cpu), ARM_CPU_FIQ));

    /* Clocks, resets and power: its clock outputs feed the modules below. */
    if (!sysbus_realize(SYS_BUS_DEVICE(&s->prcm), errp)) {
        return;
    }
    sysbus_mmio_map(SYS_BUS_DEVICE(&s->prcm), 0,
                    am335x_memmap[AM335X_DEV_PRCM]);

    if (!sysbus_realize(SYS_BUS_DEVICE(&s->control), errp)) {
        return;
    }
    sysbus_mmio_map(SYS_BUS_DEVICE(&s->control), 0,
                    am335x_memmap[AM335X_DEV_CONTROL]);

    for (int i = 0; i < AM335X_NUM_UARTS; i++) {
        SysBusDevice *sbd = SYS_BUS_DEVICE(&s->uart[i]);
        g_autofree char *fclk = g_strdup_printf("uart%d-fclk", i);

        qdev_prop_set_chr(DEVICE(sbd), "chardev", serial_hd(i));
        qdev_connect_clock_in(DEVICE(sbd), "fclk",
                              qdev_get_clock_out(DEVICE(&s->prcm), fclk));
        if (!sysbus_realize(sbd, errp)) {
            return;
        }
        sysbus_mmio_map(sbd, 0, am335x_memmap[AM335X_DEV_UART0 + i]);
        sysbus_connect_irq(sbd, 0, am335x_soc_irq(s, am335x_uart_irq[i]));
    }

    /* Each timer's clock is its PRCM mux and gate; DMTIMER1 is the 1 ms one */
    for (int i = 0; i < AM335X_NUM_TIMERS; i++) {
        SysBusDevice *sbd = SYS_BUS_DEVICE(&s->timer[i]);
        g_autofree char *fclk = g_strdup_printf("timer%d-fclk", i);

        qdev_prop_set_bit(DEVICE(sbd), "one-ms", i == 1);
        qdev_connect_clock_in(DEVICE(sbd), "fclk",
                              qdev_get_clock_out(DEVICE(&s->prcm), fclk));
        if (!sysbus_realize(sbd, errp)) {
            return;
        }
        sysbus_mmio_map(sbd, 0, am335x_memmap[AM335X_DEV_TIMER0 + i]);
        sysbus_connect_irq(sbd, 0, am335x_soc_irq(s, am335x_timer_irq[i]));
    }

    /* Each GPIO module's debounce clock is its PRCM optional clock. */
    for (int i = 0; i < AM335X_NUM_GPIOS; i++) {
        SysBusDevice *sbd = SYS_BUS_DEVICE(&s->gpio[i]);
        g_autofree char *dbclk = g_strdup_printf("gpio%d-dbclk", i);

        qdev_connect_clock_in(DEVICE(sbd), "dbclk",
                              qdev_get_clock_out(DEVICE(&s->prcm), dbclk));
        if (!sysbus_realize(sbd, errp)) {
            return;
        }
        sysbus_mmio_map(sbd, 0, am335x_memmap[AM335X_DEV_GPIO0 + i]);
        for (int n = 0; n < 2; n++) {
            sysbus_connect_irq(sbd, n, am335x_soc_irq(s,
                                                      am335x_gpio_irq[i][n]));
        }
    }

    for (int i = 0; i < AM335X_NUM_I2C; i++) {
        SysBusDevice *sbd = SYS_BUS_DEVICE(&s->i2c[i]);
        g_autofree char *bus_name = g_strdup_printf("i2c%d", i);

        /* i2c0-i2c2, as the TRM and the DTs' aliases call them */
        qdev_prop_set_string(DEVICE(sbd), "bus-name", bus_name);
        qdev_connect_clock_in(DEVICE(sbd), "fclk",
                              qdev_get_clock_out(DEVICE(&s->prcm),
                                                 "i2c-fclk"));
        if (!sysbus_realize(sbd, errp)) {
            return;
        }
        sysbus_mmio_map(sbd, 0, am335x_memmap[AM335X_DEV_I2C0 + i]);
        sysbus_connect_irq(sbd, 0, am335x_soc_irq(s, am335x_i2c_irq[i]));
    }

    if (!sysbus_realize(SYS_BUS_DEVICE(&s->rtc), errp)) {
        return;
    }
    sysbus_mmio_map(SYS_BUS_DEVICE(&s->rtc), 0, am335x_memmap[AM335X_DEV_RTC]);
    sysbus_connect_irq(SYS_BUS_DEVICE(&s->rtc), AM335X_RTC_IRQ_TIMER,
                       am335x_soc_irq(s, AM335X_IRQ_RTC_TIMER));
    sysbus_connect_irq(SYS_BUS_DEVICE(&s->rtc), AM335X_RTC_IRQ_ALARM,
                       am335x_soc_irq(s, AM335X_IRQ_RTC_ALARM));

    /* WDT1 counts the PRCM's 32 kHz clock; its expiry is a PRM_RSTST cause */
    qdev_connect_clock_in(DEVICE(&s->wdt), AM335X_WDT_FCLK,
                          qdev_get_clock_out(DEVICE(&s->prcm), "wdt1-fclk"));
    if (!sysbus_realize(SYS_BUS_DEVICE(&s->wdt), errp)) {
        return;
    }
    sysbus_mmio_map(SYS_BUS_DEVICE(&s->wdt), 0,
                    am335x_memmap[AM335X_DEV_WDT1]);
    sysbus_connect_irq(SYS_BUS_DEVICE(&s->wdt), 0,
                       am335x_soc_irq(s, AM335X_IRQ_WDT1));
    qdev_connect_gpio_out_named(DEVICE(&s->wdt), AM335X_WDT_RESET_CAUSE, 0,
                                qdev_get_gpio_in_named(DEVICE(&s->prcm),
                                                       AM335X_PRCM_WDT_RESET,
                                                       0));

    if (!am335x_soc_realize_edma(s, errp)) {
        return;
    }

    /* The TSC_ADC converts at CLK_M_OSC; its FIFOs request EDMA events */
    qdev_connect_clock_in(DEVICE(&s->tscadc), AM335X_TSCADC_FCLK,
                          qdev_get_clock_out(DEVICE(&s->prcm),
                                             "adc-tsc-fclk"));
    if (!sysbus_realize(SYS_BUS_DEVICE(&s->tscadc), errp)) {
        return;
    }
    sysbus_mmio_map(SYS_BUS_DEVICE(&s->tscadc), 0,
                    am335x_memmap[AM335X_DEV_TSCADC]);
    sysbus_connect_irq(SYS_BUS_DEVICE(&s->tscadc), 0,
                       am335x_soc_irq(s, AM335X_IRQ_TSCADC));
    for (int i = 0; i < AM335X_TSCADC_NUM_FIFOS; i++) {
        qdev_connect_gpio_out_named(DEVICE(&s->tscadc),
                                    AM335X_TSCADC_DMA_REQUEST, i,
                                    am335x_soc_dma_event(s,
                                        am335x_tscadc_dma_event[i]));
    }

    /* The LCDC's pixel clock source is the PRCM's LCD_CLK mux */
    qdev_connect_clock_in(DEVICE(&s->lcdc), AM335X_LCDC_FCLK,
                          qdev_get_clock_out(DEVICE(&s->prcm), "lcdc-fclk"));
    if (!sysbus_realize(SYS_BUS_DEVICE(&s->lcdc), errp)) {
        return;
    }
    sysbus_mmio_map(SYS_BUS_DEVICE(&s->lcdc), 0,
                    am335x_memmap[AM335X_DEV_LCDC]);
    sysbus_connect_irq(SYS_BUS_DEVICE(&s->lcdc), 0,
                       am335x_soc_irq(s, AM335X_IRQ_LCDC));

    /* McASP0-1: configuration port on L4_PER, data port on L3 */
    for (int i = 0; i < AM335X_NUM_MCASP; i++) {
        SysBusDevice *sbd = SYS_BUS_DEVICE(&s->mcasp[i]);

        qdev_prop_set_uint32(DEVICE(sbd), "auxclk-hz", s->prcm.sys_clk_hz);
        if (!sysbus_realize(sbd, errp)) {
            return;
        }
        sysbus_mmio_map(sbd, 0, am335x_memmap[AM335X_DEV_MCASP0 + i]);
        sysbus_mmio_map(sbd, 1, am335x_memmap[AM335X_DEV_MCASP0_DATA + i]);
        for (int j = 0; j < 2; j++) {
            sysbus_connect_irq(sbd, j, am335x_soc_irq(s,
                                                      am335x_mcasp_irq[i][j]));
            qdev_connect_gpio_out_named(DEVICE(sbd), AM335X_MCASP_DMA_REQUEST,
                                        j, am335x_soc_dma_event(s,
                                            am335x_mcasp_dma[i][j]));
        }
    }

    /*
     * The USB subsystem: USB0-1 (MUSB cores behind their wrappers) and
     * the CPPI 4.1 DMA that serves their endpoints.  Both boards have
     * USB1 on a type-A socket (its ID pin grounded: the host) and USB0
     * on a mini-B/AB one (ID floating until an A plug goes in).
     */
    for (int i = 0; i < AM335X_NUM_USB; i++) {
        SysBusDevice *sbd = SYS_BUS_DEVICE(&s->usb[i]);

        qdev_prop_set_uint32(DEVICE(sbd), "instance", i);
        qdev_prop_set_bit(DEVICE(sbd), "id-grounded", i == 1);
        qdev_prop_set_bit(DEVICE(sbd), "timing", s->timing);
        if (i == 0) {
            /* -nic ...,model=usb-gadget: a PC on USB0's socket */
            qemu_configure_nic_device(DEVICE(sbd), false, "usb-gadget");
        }
        object_property_set_link(OBJECT(sbd), "dma", OBJECT(&s->usbss),
                                 &error_abort);
        if (!sysbus_realize(sbd, errp)) {
            return;
        }
        sysbus_mmio_map(sbd, 0, am335x_memmap[AM335X_DEV_USB0 + i]);
        sysbus_connect_irq(sbd, 0, am335x_soc_irq(s, am335x_usb_irq[i]));
    }
    object_property_set_link(OBJECT(&s->usbss), "dma-mr",
                             OBJECT(get_system_memory()), &error_abort);
    object_property_set_link(OBJECT(&s->usbss), "usb0", OBJECT(&s->usb[0]),
                             &error_abort);
    object_property_set_link(OBJECT(&s->usbss), "usb1", OBJECT(&s->usb[1]),
                             &error_abort);
    if (!sysbus_realize(SYS_BUS_DEVICE(&s->usbss), errp)) {
        return;
    }
    sysbus_mmio_map(SYS_BUS_DEVICE(&s->usbss), AM335X_CPPI41_GLUE,
                    am335x_memmap[AM335X_DEV_USBSS]);
    sysbus_mmio_map(SYS_BUS_DEVICE(&s->usbss), AM335X_CPPI41_CONTROLLER,
                    am335x_memmap[AM335X_DEV_CPPI41_CONTROLLER]);
    sysbus_mmio_map(SYS_BUS_DEVICE(&s->usbss), AM335X_CPPI41_SCHEDULER,
                    am335x_memmap[AM335X_DEV_CPPI41_SCHEDULER]);
    sysbus_mmio_map(SYS_BUS_DEVICE(&s->usbss), AM335X_CPPI41_QUEUEMGR,
                    am335x_memmap[AM335X_DEV_CPPI41_QUEUEMGR]);
    sysbus_connect_irq(SYS_BUS_DEVICE(&s->usbss), 0,
                       am335x_soc_irq(s, AM335X_IRQ_USBSS));

    /* D_CAN0-1, each on the CAN bus the board gives it, if any */
    for (int i = 0; i < AM335X_NUM_DCAN; i++) {
        SysBusDevice *sbd = SYS_BUS_DEVICE(&s->dcan[i]);

        qdev_prop_set_bit(DEVICE(sbd), "timing", s->timing);
        qdev_prop_set_uint32(DEVICE(sbd), "clock-hz", s->prcm.sys_clk_hz);
        if (!sysbus_realize(sbd, errp)) {
            return;
        }
        sysbus_mmio_map(sbd, 0, am335x_memmap[AM335X_DEV_DCAN0 + i]);
        for (int j = 0; j < AM335X_DCAN_NUM_IRQS; j++) {
            sysbus_connect_irq(sbd, j,
                               am335x_soc_irq(s, am335x_dcan_irq[i][j]));
        }
    }

    /*
     * MMCHS0-2, with their DMA requests on the EDMA's events, MMCHS2's
     * through the event crossbar.
     * Card-detect and write-protect are the boards' to wire.
     */
    for (int i = 0; i < AM335X_NUM_MMC; i++) {
        SysBusDevice *sbd = SYS_BUS_DEVICE(&s->mmc[i]);

        qdev_prop_set_bit(DEVICE(sbd), "timing", s->timing);
        if (!sysbus_realize(sbd, errp)) {
            return;
        }
        sysbus_mmio_map(sbd, 0, am335x_memmap[AM335X_DEV_MMC0 + i]);
        sysbus_connect_irq(sbd, 0, am335x_soc_irq(s, am335x_mmc_irq[i]));
        qdev_connect_gpio_out_named(DEVICE(sbd), AM335X_HSMMC_DMA_TX, 0,
            am335x_mmc_dma[i].xbar ?
            am335x_soc_dma_xbar_event(s, am335x_mmc_dma[i].tx) :
            am335x_soc_dma_event(s, am335x_mmc_dma[i].tx));
        qdev_connect_gpio_out_named(DEVICE(sbd), AM335X_HSMMC_DMA_RX, 0,
            am335x_mmc_dma[i].xbar ?
            am335x_soc_dma_xbar_event(s, am335x_mmc_dma[i].rx) :
            am335x_soc_dma_event(s, am335x_mmc_dma[i].rx));
    }

    if (!am335x_soc_realize_cpsw(s, errp)) {
        return;
    }

    /*
     * The GPMC: its chip-select windows below everything else in the
     * first 512 MiB, its prefetch engine's DMA request on EDMA event 52.
     */
    qdev_prop_set_bit(DEVICE(&s->gpmc), "timing", s->timing);
    if (!sysbus_realize(SYS_BUS_DEVICE(&s->gpmc), errp)) {
        return;
    }
    sysbus_mmio_map(SYS_BUS_DEVICE(&s->gpmc), 0,
                    am335x_memmap[AM335X_DEV_GPMC]);
    sysbus_mmio_map_overlap(SYS_BUS_DEVICE(&s->gpmc), 1,
                            am335x_memmap[AM335X_DEV_GPMC_SPACE], -500);
    sysbus_connect_irq(SYS_BUS_DEVICE(&s->gpmc), 0,
                       am335x_soc_irq(s, AM335X_IRQ_GPMC));
    qdev_connect_gpio_out_named(DEVICE(&s->gpmc), AM335X_GPMC_DMA, 0,
                                am335x_soc_dma_event(s,
                                                     AM335X_DMA_EVENT_GPMC));

    if (!sysbus_realize(SYS_BUS_DEVICE(&s->elm), errp)) {
        return;
    }
    sysbus_mmio_map(SYS_BUS_DEVICE(&s->elm), 0, am335x_memmap[AM335X_DEV_ELM]);
    sysbus_connect_irq(SYS_BUS_DEVICE(&s->elm), 0,
                       am335x_soc_irq(s, AM335X_IRQ_ELM));

    /* The OCP wrappers of the target modules not modelled in full yet */
    for (int i = 0; i < AM335X_SYSC_NUM_MODULES; i++) {
        const AM335xSyscModule *m = &am335x_sysc_modules[i];
        SysBusDevice *sbd = SYS_BUS_DEVICE(&s->sysc[i]);

        am335x_sysc_set_module_props(DEVICE(sbd), m);
        if (!sysbus_realize(sbd, errp)) {
            return;
        }
        sysbus_mmio_map(sbd, 0, m->base);
    }

    for (int i = 0; i < ARRAY_SIZE(am335x_unimplemented); i++) {
        am335x_soc_map_unimplemented(am335x_unimplemented[i].name,
                                     am335x_unimplemented[i].base,
                                     am335x_unimplemented[i].size, -1000);
    }
    for (int i = 0; i < ARRAY_SIZE(am335x_interconnect); i++) {
        am335x_soc_map_unimplemented(am335x_interconnect[i].name,
                                     am335x_interconnect[i].base,
                                     am335x_interconnect[i].size, -2000);
    }
}

static const Property am335x_soc_properties[] = {
    /* Passed on to the data movers at realize; see AM335xSoCState. */
    DEFINE_PROP_BOOL("timing", AM335xSoCState, timing, false),
};

static void am335x_soc_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = am335x_soc_realize;
    device_class_set_props(dc, am335x_soc_properties);
    /* Wired up by a board; not creatable with -device. */
    dc->user_creatable = false;
}

static const TypeInfo am335x_soc_type_info = {
    .name = TYPE_AM335X_SOC,
    .parent = TYPE_DEVICE,
    .instance_size = sizeof(AM335xSoCState),
    .instance_init = am335x_soc_init,
    .class_init = am335x_soc_class_init,
};

static void am335x_soc_register_types(void)
{
    type_register_static(&am335x_soc_type_info);
}

type_init(am335x_soc_register_types)
