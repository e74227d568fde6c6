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
    [AM335X_DEV_DDR]        = 0x80000000,
};

hwaddr am335x_soc_base(int dev)
{
    return am335x_memmap[dev];
}

/*
 * Blocks not modelled yet (TRM tables 2-1 to 2-4).  Each is its own named
 * region; the interconnect windows behind them catch whatever falls between.
 */
static const struct {
    const char *name;
    hwaddr base;
    hwaddr size;
} am335x_unimplemented[] = {
    /* L4_WKUP */
    { "wkup-m3-umem",   0x44d00000, 16 * KiB },
    { "wkup-m3-dmem",   0x44d80000, 8 * KiB },
    { "prcm",           0x44e00000, 8 * KiB },
    { "dmtimer0",       0x44e05000, 4 * KiB },
    { "gpio0",          0x44e07000, 4 * KiB },
    { "i2c0",           0x44e0b000, 4 * KiB },
    { "tscadc",         0x44e0d000, 8 * KiB },
    { "control",        0x44e10000, 128 * KiB },
    { "dmtimer1-1ms",   0x44e31000, 4 * KiB },
    { "wdt1",           0x44e35000, 4 * KiB },
    { "smartreflex0",   0x44e37000, 4 * KiB },
    { "smartreflex1",   0x44e39000, 4 * KiB },
    { "rtc",            0x44e3e000, 4 * KiB },
    { "debugss",        0x44e40000, 256 * KiB },
    /* L4_PER */
    { "i2c1",           0x4802a000, 4 * KiB },
    { "mcspi0",         0x48030000, 4 * KiB },
    { "mcasp0-cfg",     0x48038000, 8 * KiB },
    { "mcasp1-cfg",     0x4803c000, 8 * KiB },
    { "dmtimer2",       0x48040000, 4 * KiB },
    { "dmtimer3",       0x48042000, 4 * KiB },
    { "dmtimer4",       0x48044000, 4 * KiB },
    { "dmtimer5",       0x48046000, 4 * KiB },
    { "dmtimer6",       0x48048000, 4 * KiB },
    { "dmtimer7",       0x4804a000, 4 * KiB },
    { "gpio1",          0x4804c000, 4 * KiB },
    { "mmchs0",         0x48060000, 4 * KiB },
    { "elm",            0x48080000, 64 * KiB },
    { "mailbox",        0x480c8000, 4 * KiB },
    { "spinlock",       0x480ca000, 4 * KiB },
    { "ocp-wp",         0x4818c000, 4 * KiB },
    { "i2c2",           0x4819c000, 4 * KiB },
    { "mcspi1",         0x481a0000, 4 * KiB },
    { "gpio2",          0x481ac000, 4 * KiB },
    { "gpio3",          0x481ae000, 4 * KiB },
    { "dcan0",          0x481cc000, 8 * KiB },
    { "dcan1",          0x481d0000, 8 * KiB },
    { "mmchs1",         0x481d8000, 4 * KiB },
    { "intc",           0x48200000, 4 * KiB },
    { "pwmss0",         0x48300000, 4 * KiB },
    { "pwmss1",         0x48302000, 4 * KiB },
    { "pwmss2",         0x48304000, 4 * KiB },
    { "lcdc",           0x4830e000, 8 * KiB },
    { "rng",            0x48310000, 8 * KiB },
    /* L3 */
    { "l3f-cfg",        0x44000000, 4 * MiB },
    { "l3s-cfg",        0x44800000, 4 * MiB },
    { "mcasp0-data",    0x46000000, 4 * MiB },
    { "mcasp1-data",    0x46400000, 4 * MiB },
    { "usbss",          0x47400000, 32 * KiB },
    { "mmchs2",         0x47810000, 4 * KiB },
    { "tpcc",           0x49000000, 1 * MiB },
    { "tptc0",          0x49800000, 1 * MiB },
    { "tptc1",          0x49900000, 1 * MiB },
    { "tptc2",          0x49a00000, 1 * MiB },
    { "l4-fast-cfg",    0x4a000000, 4 * KiB },
    { "cpsw",           0x4a100000, 32 * KiB },
    { "pruss",          0x4a300000, 512 * KiB },
    { "emif0",          0x4c000000, 16 * MiB },
    { "gpmc",           0x50000000, 16 * MiB },
    { "sha",            0x53100000, 1 * MiB },
    { "aes",            0x53500000, 1 * MiB },
    { "sgx530",         0x56000000, 16 * MiB },
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
    for (int i = 0; i < AM335X_NUM_UARTS; i++) {
        object_initialize_child(obj, "uart[*]", &s->uart[i],
                                TYPE_AM335X_UART);
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

    for (int i = 0; i < AM335X_NUM_UARTS; i++) {
        SysBusDevice *sbd = SYS_BUS_DEVICE(&s->uart[i]);

        qdev_prop_set_chr(DEVICE(sbd), "chardev", serial_hd(i));
        if (!sysbus_realize(sbd, errp)) {
            return;
        }
        sysbus_mmio_map(sbd, 0, am335x_memmap[AM335X_DEV_UART0 + i]);
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

static void am335x_soc_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = am335x_soc_realize;
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
