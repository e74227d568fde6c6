/*
 * What the AM335x boards share: the SoC, DDR and the Linux boot path.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qom/object_interfaces.h"
#include "hw/arm/boot.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "hw/sd/sd.h"
#include "chardev/char.h"
#include "system/blockdev.h"
#include "system/block-backend.h"
#include "exec/address-spaces.h"
#include "am335x_board.h"
#include "am335x_rom_boot.h"

/* EMIF0 decodes up to 1 GiB of DDR from 0x80000000 (TRM table 2-1). */
#define AM335X_DDR_MAX (1 * GiB)

static struct arm_boot_info am335x_binfo;

/*
 * The machine property "timing" (-M beaglebone-black,timing=on): the
 * boards are plain MachineState instances (DEFINE_MACHINE), and a process
 * runs one machine, so the value lives here until the SoC is made.
 */
static bool am335x_board_timing;

bool am335x_board_timing_on(void)
{
    return am335x_board_timing;
}

static bool am335x_board_get_timing(Object *obj, Error **errp)
{
    return am335x_board_timing;
}

static void am335x_board_set_timing(Object *obj, bool value, Error **errp)
{
    am335x_board_timing = value;
}

/*
 * The machine property "sysboot": the SYSBOOT[15:0] straps, instead of
 * the board's own (a BeagleBone Black with its S2 boot button held, an
 * EVM with other SW3 switches).  They set the ROM's boot order.
 */
static bool am335x_board_sysboot_given;
static uint32_t am335x_board_sysboot;

static void am335x_board_get_sysboot(Object *obj, Visitor *v,
                                     const char *name, void *opaque,
                                     Error **errp)
{
    Object *soc = object_resolve_path_component(obj, "soc");
    uint32_t value = am335x_board_sysboot;

    if (soc) {
        value = object_property_get_uint(soc, "sysboot", &error_abort);
    }
    visit_type_uint32(v, name, &value, errp);
}

static void am335x_board_set_sysboot(Object *obj, Visitor *v,
                                     const char *name, void *opaque,
                                     Error **errp)
{
    uint32_t value;

    if (!visit_type_uint32(v, name, &value, errp)) {
        return;
    }
    if (value > 0xffff) {
        error_setg(errp, "sysboot: the straps are SYSBOOT[15:0], not "
                   "0x%" PRIx32, value);
        return;
    }
    am335x_board_sysboot = value;
    am335x_board_sysboot_given = true;
}

/*
 * The machine properties "canbus0" and "canbus1": the id of a can-bus
 * object (-object can-bus,id=...) for D_CAN0 and D_CAN1 to join.
 */
static char *am335x_board_canbus[AM335X_NUM_DCAN];

static char *am335x_board_get_canbus(Object *obj, Error **errp, int n)
{
    return g_strdup(am335x_board_canbus[n] ? am335x_board_canbus[n] : "");
}

static void am335x_board_set_canbus(Object *obj, const char *value,
                                    Error **errp, int n)
{
    g_free(am335x_board_canbus[n]);
    am335x_board_canbus[n] = *value ? g_strdup(value) : NULL;
}

static char *am335x_board_get_canbus0(Object *obj, Error **errp)
{
    return am335x_board_get_canbus(obj, errp, 0);
}

static void am335x_board_set_canbus0(Object *obj, const char *value,
                                     Error **errp)
{
    am335x_board_set_canbus(obj, value, errp, 0);
}

static char *am335x_board_get_canbus1(Object *obj, Error **errp)
{
    return am335x_board_get_canbus(obj, errp, 1);
}

static void am335x_board_set_canbus1(Object *obj, const char *value,
                                     Error **errp)
{
    am335x_board_set_canbus(obj, value, errp, 1);
}

/*
 * The machine property "usb-serial": the id of a chardev that the PC on
 * USB0's socket connects to the gadget's CDC ACM (serial) function.
 */
static char *am335x_board_usb_serial;

static char *am335x_board_get_usb_serial(Object *obj, Error **errp)
{
    return g_strdup(am335x_board_usb_serial ? am335x_board_usb_serial : "");
}

static void am335x_board_set_usb_serial(Object *obj, const char *value,
                                        Error **errp)
{
    g_free(am335x_board_usb_serial);
    am335x_board_usb_serial = *value ? g_strdup(value) : NULL;
}

static void am335x_board_connect_usb_serial(MachineState *machine,
                                            AM335xSoCState *soc)
{
    Chardev *chr;

    if (!am335x_board_usb_serial) {
        return;
    }
    chr = qemu_chr_find(am335x_board_usb_serial);
    if (!chr) {
        error_report("%s: usb-serial=%s: no chardev with that id "
                     "(-chardev ...,id=%s)", MACHINE_GET_CLASS(machine)->name,
                     am335x_board_usb_serial, am335x_board_usb_serial);
        exit(1);
    }
    qdev_prop_set_chr(DEVICE(&soc->usb[0]), "host-serial", chr);
}

static void am335x_board_connect_can(MachineState *machine,
                                     AM335xSoCState *soc)
{
    for (int i = 0; i < AM335X_NUM_DCAN; i++) {
        Object *bus;

        if (!am335x_board_canbus[i]) {
            continue;
        }
        bus = object_resolve_path_component(object_get_objects_root(),
                                            am335x_board_canbus[i]);
        if (!bus || !object_dynamic_cast(bus, TYPE_CAN_BUS)) {
            error_report("%s: canbus%d=%s: no can-bus object with that id "
                         "(-object can-bus,id=%s)",
                         MACHINE_GET_CLASS(machine)->name, i,
                         am335x_board_canbus[i], am335x_board_canbus[i]);
            exit(1);
        }
        object_property_set_link(OBJECT(&soc->dcan[i]), "canbus", bus,
                                 &error_fatal);
    }
}

/*
 * EMIF0 decodes 1 GiB from 0x80000000 whatever DDR is fitted: the address
 * bits the DDR does not have are not driven, so smaller DDR repeats
 * through the window.  U-Boot's get_ram_size() counts on it to size DDR.
 * A size that is not a power of two leaves the rest of the window empty.
 */
static void am335x_board_ddr_aliases(MachineState *machine)
{
    uint64_t size = machine->ram_size;

    if (!is_power_of_2(size)) {
        return;
    }
    for (uint64_t at = size; at < AM335X_DDR_MAX; at += size) {
        MemoryRegion *alias = g_new(MemoryRegion, 1);
        g_autofree char *name = g_strdup_printf("am335x.ddr-alias@0x%"
                                                PRIx64, at);

        memory_region_init_alias(alias, OBJECT(machine), name, machine->ram,
                                 0, size);
        memory_region_add_subregion(get_system_memory(),
                                    am335x_soc_base(AM335X_DEV_DDR) + at,
                                    alias);
    }
}

AM335xSoCState *am335x_board_init(MachineState *machine,
                                  const AM335xBoardConfig *cfg)
{
    AM335xSoCState *soc;
    uint32_t sysboot = am335x_board_sysboot_given ? am335x_board_sysboot :
                       cfg->sysboot;

    if (machine->ram_size > AM335X_DDR_MAX) {
        error_report("%s: at most %" PRIu64 " MiB of DDR can be mapped "
                     "(-m %" PRIu64 "M was asked for)",
                     MACHINE_GET_CLASS(machine)->name, AM335X_DDR_MAX / MiB,
                     (uint64_t)(machine->ram_size / MiB));
        exit(1);
    }
    if (machine->firmware) {
        error_report("%s: -bios is not supported; boot with -kernel, or "
                     "without it from the MLO on an SD card or eMMC",
                     MACHINE_GET_CLASS(machine)->name);
        exit(1);
    }

    soc = AM335X_SOC(object_new(TYPE_AM335X_SOC));
    object_property_add_child(OBJECT(machine), "soc", OBJECT(soc));
    object_unref(OBJECT(soc));
    object_property_set_uint(OBJECT(soc), "sysboot", sysboot, &error_abort);
    object_property_set_uint(OBJECT(soc), "dev-feature", cfg->dev_feature,
                             &error_abort);
    object_property_set_str(OBJECT(soc), "mac-base", cfg->mac_base,
                            &error_abort);
    object_property_set_uint(OBJECT(soc), "eth-phy-id", cfg->eth_phy_id,
                             &error_abort);
    object_property_set_uint(OBJECT(soc), "mpu-mhz", cfg->mpu_mhz,
                             &error_abort);
    object_property_set_uint(OBJECT(soc), "ddr-mhz", cfg->ddr_mhz,
                             &error_abort);
    object_property_set_bool(OBJECT(soc), "timing", am335x_board_timing,
                             &error_abort);
    object_property_set_bool(OBJECT(&soc->rtc), "shutdown-on-power-off",
                             !cfg->pmic_power_en, &error_abort);
    object_property_set_bool(OBJECT(&soc->lcdc), "rb-crossed",
                             cfg->lcd_rb_crossed, &error_abort);
    object_property_set_bool(OBJECT(&soc->tscadc), "touch-panel",
                             cfg->touch_panel, &error_abort);
    qdev_prop_set_uint32(DEVICE(&soc->mcasp[cfg->audio_mcasp]), "ahclkx-hz",
                         cfg->audio_ahclkx_hz);
    if (machine->audiodev) {
        qdev_prop_set_string(DEVICE(&soc->mcasp[cfg->audio_mcasp]),
                             "audiodev", machine->audiodev);
    }
    am335x_board_connect_can(machine, soc);
    am335x_board_connect_usb_serial(machine, soc);
    qdev_realize(DEVICE(soc), NULL, &error_fatal);

    memory_region_add_subregion(get_system_memory(),
                                am335x_soc_base(AM335X_DEV_DDR),
                                machine->ram);
    am335x_board_ddr_aliases(machine);

    am335x_binfo.loader_start = am335x_soc_base(AM335X_DEV_DDR);
    am335x_binfo.ram_size = machine->ram_size;
    arm_load_kernel(&soc->cpu, machine, &am335x_binfo);
    if (!machine->kernel_filename) {
        am335x_rom_boot_init(&soc->cpu, sysboot);
    }
    return soc;
}

void am335x_board_sd_slot(AM335xSoCState *soc, int mmc, int index,
                          int cd_gpio, int cd_pin)
{
    DriveInfo *di = drive_get(IF_SD, 0, index);
    BlockBackend *blk = di ? blk_by_legacy_dinfo(di) : NULL;
    DeviceState *card = qdev_new(TYPE_SD_CARD);

    /*
     * Without a drive the slot stays empty for good; -drive if=sd,index=N
     * without file= gives an empty slot that blockdev-change-medium fills.
     */
    qdev_prop_set_drive_err(card, "drive", blk, &error_fatal);
    qdev_realize_and_unref(card, am335x_soc_sd_bus(soc, mmc), &error_fatal);
    if (blk) {
        am335x_rom_boot_set_medium(mmc, blk, 0);
    }
    qdev_connect_gpio_out_named(DEVICE(&soc->mmc[mmc]),
                                AM335X_HSMMC_CARD_DETECT, 0,
                                qdev_get_gpio_in(DEVICE(&soc->gpio[cd_gpio]),
                                                 cd_pin));
}

void am335x_board_emmc(AM335xSoCState *soc, int mmc, int index,
                       uint64_t boot_size)
{
    DriveInfo *di = drive_get(IF_SD, 0, index);
    BlockBackend *blk;
    DeviceState *card;
    int64_t len;

    if (!di) {
        return;
    }
    blk = blk_by_legacy_dinfo(di);
    len = blk_getlength(blk);
    /* The card's user area is what follows the boot partitions. */
    if (len <= (int64_t)(2 * boot_size)) {
        error_report("-drive if=sd,index=%d: the eMMC image must be larger "
                     "than its two %" PRIu64 " KiB boot partitions",
                     index, boot_size / KiB);
        exit(1);
    }
    card = qdev_new(TYPE_EMMC);
    qdev_prop_set_drive_err(card, "drive", blk, &error_fatal);
    qdev_prop_set_uint64(card, "boot-partition-size", boot_size);
    qdev_realize_and_unref(card, am335x_soc_sd_bus(soc, mmc), &error_fatal);
    am335x_rom_boot_set_medium(mmc, blk, 2 * boot_size);
}

void am335x_board_class_init(MachineClass *mc)
{
    static const char * const valid_cpu_types[] = {
        ARM_CPU_TYPE_NAME("cortex-a8"),
        NULL
    };

    mc->default_cpu_type = ARM_CPU_TYPE_NAME("cortex-a8");
    mc->valid_cpu_types = valid_cpu_types;
    mc->min_cpus = 1;
    mc->max_cpus = 1;
    mc->default_cpus = 1;
    mc->default_ram_id = "am335x.ddr";
    mc->block_default_type = IF_SD;
    mc->no_parallel = 1;
    mc->no_floppy = 1;
    mc->no_cdrom = 1;
    /*
     * The Cortex-A8's VMSAv7 has no 1 KiB tiny pages, so the TLB can work
     * in 4 KiB pages; with QEMU's default of 1 KiB for 32-bit Arm, every
     * page the guest maps takes four entries, four walks to fill them,
     * and four flushes.
     */
    mc->minimum_page_bits = 12;
    /* -M <board>,audiodev=ID: where the board's audio output plays */
    machine_add_audiodev_property(mc);

    object_class_property_add_bool(OBJECT_CLASS(mc), "timing",
                                   am335x_board_get_timing,
                                   am335x_board_set_timing);
    object_class_property_set_description(OBJECT_CLASS(mc), "timing",
        "on: devices take the time the real parts take (virtual time); "
        "off (default): they complete at once");
    object_class_property_add(OBJECT_CLASS(mc), "sysboot", "uint32",
                              am335x_board_get_sysboot,
                              am335x_board_set_sysboot, NULL, NULL);
    object_class_property_set_description(OBJECT_CLASS(mc), "sysboot",
        "the SYSBOOT[15:0] pin straps (default: the board's, 0x401c on the "
        "BeagleBone Black, 0x4017 on the EVM); they set the ROM's boot "
        "order: 0x4018 is the BBB with its S2 button held, SD card first");
    object_class_property_add_str(OBJECT_CLASS(mc), "canbus0",
                                  am335x_board_get_canbus0,
                                  am335x_board_set_canbus0);
    object_class_property_set_description(OBJECT_CLASS(mc), "canbus0",
        "id of the can-bus object D_CAN0 joins");
    object_class_property_add_str(OBJECT_CLASS(mc), "canbus1",
                                  am335x_board_get_canbus1,
                                  am335x_board_set_canbus1);
    object_class_property_set_description(OBJECT_CLASS(mc), "canbus1",
        "id of the can-bus object D_CAN1 joins");
    object_class_property_add_str(OBJECT_CLASS(mc), "usb-serial",
                                  am335x_board_get_usb_serial,
                                  am335x_board_set_usb_serial);
    object_class_property_set_description(OBJECT_CLASS(mc), "usb-serial",
        "id of the chardev the PC on USB0 connects to the gadget's CDC ACM "
        "serial function");
}
