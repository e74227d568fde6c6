/*
 * The AM335x's public ROM code, for a memory boot from MMC (AM335x TRM
 * SPRUH73, chapter 26, "Initialization"): what the ROM has done by the
 * time it starts the first-stage loader (MLO: U-Boot's SPL), done again at
 * each system reset of a machine started without -kernel.
 *
 * - SYSBOOT[4:0] gives the devices to try, in order.  MMC0 (the SD card
 *   slot) and MMC1 (the BeagleBone Black's eMMC) are the ones done here;
 *   the others on a list (NAND, SPI, UART, USB, Ethernet) are passed over.
 * - On an MMC device, raw mode first: a table of contents naming
 *   "CHSETTINGS" at byte 0, 128, 256 or 384 KiB of the user area, the
 *   image's GP header 512 bytes after it.  Then FS mode: the file MLO in
 *   the root directory of the active FAT12/16/32 primary partition (else
 *   the first one; else a FAT with no partition table), its GP header at
 *   its start or after a table of contents.
 * - The GP header gives the image's size and load address; the image must
 *   lie in the public SRAM, 0x402f0400 up to 0x4030b800 (109 KiB).
 * - The ROM starts the image in ARM state, supervisor mode, with r0
 *   pointing to its boot parameters: a reserved word, a pointer to the
 *   boot device's descriptor, the boot device's code and the reset reason.
 *   The descriptor's word at 0x18 points to the device's data, whose word
 *   at 8 is the boot mode (1 raw, 2 FS).  U-Boot's SPL reads them all
 *   (its arch/arm/mach-omap2/boot-common.c) to go on from the same device.
 *
 * The card's contents are the guest's: every offset, size and cluster
 * number read from it is checked before use.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qemu/error-report.h"
#include "qemu/log.h"
#include "qemu/units.h"
#include "system/block-backend.h"
#include "system/qtest.h"
#include "system/reset.h"
#include "exec/address-spaces.h"
#include "hw/core/generic-loader.h"
#include "target/arm/cpu.h"
#include "am335x_rom_boot.h"
#include "trace.h"

#define SECTOR                  512
#define PUBLIC_SRAM_START       0x402f0400
#define PUBLIC_SRAM_END         0x4030b800      /* the image's limit */
#define IMAGE_MAX               (PUBLIC_SRAM_END - PUBLIC_SRAM_START)
#define TOC_SIZE                0x200
#define GP_HEADER_SIZE          8
/* Where this model keeps the boot parameters: the ROM's RAM above */
#define BOOT_PARAMS             0x4030b800
#define BOOT_DEVICE_DESCRIPTOR  (BOOT_PARAMS + 0x20)
#define BOOT_DEVICE_DATA        (BOOT_PARAMS + 0x60)
/* Boot device codes (U-Boot's arch-am33xx/spl.h has the same) */
#define BOOT_DEVICE_MMC0        0x08
#define BOOT_DEVICE_MMC1        0x09
#define BOOT_MODE_RAW           1
#define BOOT_MODE_FS            2

typedef struct RomMedium {
    BlockBackend *blk;
    uint64_t offset;
} RomMedium;

static RomMedium rom_media[2];
static ARMCPU *rom_cpu;
static uint32_t rom_sysboot;

void am335x_rom_boot_set_medium(int mmc, BlockBackend *blk, uint64_t offset)
{
    if (mmc >= 0 && mmc < ARRAY_SIZE(rom_media)) {
        rom_media[mmc].blk = blk;
        rom_media[mmc].offset = offset;
    }
}

/*
 * The MMC devices on the boot list of SYSBOOT[4:0], in order (TRM table
 * 26-7); the list's other devices are not modelled.  Returns how many.
 * 11100b, the BeagleBone Black's: MMC1, MMC0, UART0, USB0.  The lists
 * with MMC0 alone include 11000b (the BBB with its S2 button held: SPI0,
 * MMC0, USB0, UART0), 10111b (the EVM's: MMC0 first), 10011b (NAND,
 * NANDI2C, MMC0, UART0), 10110b, 10101b, 00100b, 00011b and 00001b; the
 * other values are taken as MMC0 too.
 */
static int rom_mmc_list(uint32_t sysboot, int list[2])
{
    if ((sysboot & 0x1f) == 0x1c) {
        list[0] = 1;
        list[1] = 0;
        return 2;
    }
    list[0] = 0;
    return 1;
}

/* Reads @len bytes at @pos of the medium's user area; false past its end */
static bool rom_read(const RomMedium *m, uint64_t pos, void *buf, size_t len)
{
    int64_t size = blk_getlength(m->blk);

    if (size < 0 || (uint64_t)size < m->offset ||
        pos > (uint64_t)size - m->offset ||
        len > (uint64_t)size - m->offset - pos) {
        return false;
    }
    return blk_pread(m->blk, m->offset + pos, len, buf, 0) >= 0;
}

static bool rom_has_toc(const uint8_t *buf)
{
    return memcmp(buf + 0x14, "CHSETTINGS", 10) == 0;
}

/*
 * An image at @buf (@len bytes read), with its GP header at the start or
 * after a table of contents: copies it into the SRAM, returns its load
 * address, or 0 if it is none the ROM would start.
 */
static uint32_t rom_load_image(const uint8_t *buf, size_t len)
{
    size_t gp = rom_has_toc(buf) ? TOC_SIZE : 0;
    uint32_t size, load;

    if (len < gp + GP_HEADER_SIZE) {
        return 0;
    }
    size = ldl_le_p(buf + gp);
    load = ldl_le_p(buf + gp + 4);
    if (size == 0 || load < PUBLIC_SRAM_START || load >= PUBLIC_SRAM_END ||
        size > PUBLIC_SRAM_END - load || len == gp + GP_HEADER_SIZE) {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x ROM: a boot image of 0x%"
                      PRIx32 " bytes at 0x%08" PRIx32 " does not fit the "
                      "public SRAM (0x%08x-0x%08x): passed over\n", size,
                      load, PUBLIC_SRAM_START, PUBLIC_SRAM_END);
        return 0;
    }
    /*
     * U-Boot's omapimage counts the GP header in the size, so an MLO file
     * ends 8 bytes short of it: what the ROM reads past the end is slack.
     */
    address_space_write(&address_space_memory, load, MEMTXATTRS_UNSPECIFIED,
                        buf + gp + GP_HEADER_SIZE,
                        MIN(size, len - gp - GP_HEADER_SIZE));
    return load;
}

/* Raw mode: a table of contents at one of the four places. */
static uint32_t rom_boot_raw(const RomMedium *m)
{
    static const uint64_t places[] = { 0, 128 * KiB, 256 * KiB, 384 * KiB };
    g_autofree uint8_t *buf = g_malloc(TOC_SIZE + GP_HEADER_SIZE + IMAGE_MAX);

    for (int i = 0; i < ARRAY_SIZE(places); i++) {
        uint32_t size;

        if (!rom_read(m, places[i], buf, TOC_SIZE + GP_HEADER_SIZE) ||
            !rom_has_toc(buf)) {
            continue;
        }
        size = MIN(ldl_le_p(buf + TOC_SIZE), IMAGE_MAX);
        if (!rom_read(m, places[i], buf, TOC_SIZE + GP_HEADER_SIZE + size)) {
            continue;
        }
        size = rom_load_image(buf, TOC_SIZE + GP_HEADER_SIZE + size);
        if (size) {
            trace_am335x_rom_boot_raw(places[i]);
            return size;
        }
    }
    return 0;
}

/* A FAT volume starting @base bytes into the user area */
typedef struct RomFat {
    const RomMedium *m;
    uint64_t base;
    uint32_t cluster_bytes;
    uint64_t fat_pos;           /* the first FAT, bytes from base */
    uint64_t data_pos;          /* cluster 2 */
    uint32_t clusters;          /* data clusters, numbered 2.. */
    int bits;                   /* 12, 16 or 32 */
    uint64_t root_pos;          /* FAT12/16: the root directory */
    uint32_t root_entries;
    uint32_t root_cluster;      /* FAT32 */
} RomFat;

static bool rom_fat_open(RomFat *f, const RomMedium *m, uint64_t base)
{
    uint8_t bs[SECTOR];
    uint32_t per_cluster, reserved, fats, fat_sectors, total, root_sectors;

    if (!rom_read(m, base, bs, SECTOR) || bs[510] != 0x55 || bs[511] != 0xaa ||
        lduw_le_p(bs + 11) != SECTOR) {
        return false;
    }
    per_cluster = bs[13];
    reserved = lduw_le_p(bs + 14);
    fats = bs[16];
    f->root_entries = lduw_le_p(bs + 17);
    total = lduw_le_p(bs + 19) ?: ldl_le_p(bs + 32);
    fat_sectors = lduw_le_p(bs + 22) ?: ldl_le_p(bs + 36);
    if (!is_power_of_2(per_cluster) || reserved == 0 || fats == 0 ||
        fat_sectors == 0) {
        return false;
    }
    root_sectors = DIV_ROUND_UP(f->root_entries * 32, SECTOR);
    if ((uint64_t)reserved + fats * (uint64_t)fat_sectors + root_sectors >=
        total) {
        return false;
    }
    f->m = m;
    f->base = base;
    f->cluster_bytes = per_cluster * SECTOR;
    f->fat_pos = (uint64_t)reserved * SECTOR;
    f->root_pos = f->fat_pos + (uint64_t)fats * fat_sectors * SECTOR;
    f->data_pos = f->root_pos + (uint64_t)root_sectors * SECTOR;
    f->clusters = (total - reserved - fats * fat_sectors - root_sectors) /
                  per_cluster;
    /* The FAT type follows from the cluster count alone (FAT spec 3.5) */
    f->bits = f->clusters < 4085 ? 12 : f->clusters < 65525 ? 16 : 32;
    f->root_cluster = f->bits == 32 ? ldl_le_p(bs + 44) : 0;
    return true;
}

/* The cluster after @c, or 0 at the chain's end or on a bad entry */
static uint32_t rom_fat_next(const RomFat *f, uint32_t c)
{
    uint8_t e[4] = { 0 };
    uint64_t pos = f->fat_pos + (uint64_t)c * f->bits / 8;
    uint32_t next;

    if (!rom_read(f->m, f->base + pos, e, f->bits == 32 ? 4 : 2)) {
        return 0;
    }
    switch (f->bits) {
    case 12:
        next = lduw_le_p(e);
        next = (c & 1) ? next >> 4 : next & 0xfff;
        break;
    case 16:
        next = lduw_le_p(e);
        break;
    default:
        next = ldl_le_p(e) & 0x0fffffff;
        break;
    }
    return next >= 2 && next < f->clusters + 2 ? next : 0;
}

static bool rom_fat_cluster_read(const RomFat *f, uint32_t c, uint8_t *buf)
{
    if (c < 2 || c >= f->clusters + 2) {
        return false;
    }
    return rom_read(f->m, f->base + f->data_pos +
                    (uint64_t)(c - 2) * f->cluster_bytes, buf,
                    f->cluster_bytes);
}

/* Looks for MLO in @n directory entries at @dir; true when found */
static bool rom_fat_find(const uint8_t *dir, size_t n, uint32_t *cluster,
                         uint32_t *size, bool *end)
{
    for (size_t i = 0; i < n; i++) {
        const uint8_t *d = dir + i * 32;

        if (d[0] == 0) {
            *end = true;
            return false;
        }
        /* skip deleted entries, long names, volume labels, directories */
        if (d[0] == 0xe5 || (d[11] & 0x18)) {
            continue;
        }
        if (memcmp(d, "MLO        ", 11) == 0) {
            *cluster = lduw_le_p(d + 26) | (uint32_t)lduw_le_p(d + 20) << 16;
            *size = ldl_le_p(d + 28);
            return true;
        }
    }
    return false;
}

/* FS mode on the FAT volume at @base: MLO from its root directory */
static uint32_t rom_boot_fat(const RomMedium *m, uint64_t base)
{
    RomFat f;
    uint32_t cluster = 0, size = 0, done = 0;
    bool found = false, end = false;
    g_autofree uint8_t *buf = NULL;
    g_autofree uint8_t *image = NULL;

    if (!rom_fat_open(&f, m, base)) {
        return 0;
    }
    buf = g_malloc(MAX(f.cluster_bytes, f.root_entries * 32u));
    if (f.bits != 32) {
        if (rom_read(m, base + f.root_pos, buf, f.root_entries * 32u)) {
            found = rom_fat_find(buf, f.root_entries, &cluster, &size, &end);
        }
    } else {
        uint32_t c = f.root_cluster;

        /*
         * A chain longer than the volume loops; no root directory needs
         * 64 Ki clusters: stop there.
         */
        for (uint32_t hops = 0; c && !found && !end &&
             hops < MIN(f.clusters, 65536); hops++) {
            if (!rom_fat_cluster_read(&f, c, buf)) {
                break;
            }
            found = rom_fat_find(buf, f.cluster_bytes / 32, &cluster, &size,
                                 &end);
            c = rom_fat_next(&f, c);
        }
    }
    if (!found) {
        return 0;
    }
    size = MIN(size, TOC_SIZE + GP_HEADER_SIZE + IMAGE_MAX);
    image = g_malloc0(ROUND_UP(size, f.cluster_bytes) + f.cluster_bytes);
    while (cluster && done < size) {
        if (!rom_fat_cluster_read(&f, cluster, image + done)) {
            return 0;
        }
        done += f.cluster_bytes;
        cluster = rom_fat_next(&f, cluster);
    }
    if (done < size) {
        return 0;
    }
    return rom_load_image(image, size);
}

/* FS mode: the active FAT partition, else the first, else no table. */
static uint32_t rom_boot_fs(const RomMedium *m)
{
    uint8_t mbr[SECTOR];
    int first = -1, active = -1;

    if (!rom_read(m, 0, mbr, SECTOR) || mbr[510] != 0x55 ||
        mbr[511] != 0xaa) {
        return 0;
    }
    for (int i = 0; i < 4; i++) {
        const uint8_t *p = mbr + 446 + i * 16;

        switch (p[4]) {
        case 0x01: case 0x04: case 0x06: case 0x0b: case 0x0c: case 0x0e:
            if (first < 0) {
                first = i;
            }
            if (p[0] == 0x80 && active < 0) {
                active = i;
            }
            break;
        }
    }
    if (active >= 0 || first >= 0) {
        const uint8_t *p = mbr + 446 + (active >= 0 ? active : first) * 16;

        return rom_boot_fat(m, (uint64_t)ldl_le_p(p + 8) * SECTOR);
    }
    return rom_boot_fat(m, 0);
}

static void rom_boot_params(int mmc, uint32_t mode)
{
    uint8_t params[0x70] = { 0 };

    stl_le_p(params + 4, BOOT_DEVICE_DESCRIPTOR);
    params[8] = mmc ? BOOT_DEVICE_MMC1 : BOOT_DEVICE_MMC0;
    stl_le_p(params + BOOT_DEVICE_DESCRIPTOR - BOOT_PARAMS + 0x18,
             BOOT_DEVICE_DATA);
    stl_le_p(params + BOOT_DEVICE_DATA - BOOT_PARAMS + 8, mode);
    address_space_write(&address_space_memory, BOOT_PARAMS,
                        MEMTXATTRS_UNSPECIFIED, params, sizeof(params));
}

static bool rom_loader_present(void)
{
    bool ambiguous = false;

    return object_resolve_path_type("", TYPE_GENERIC_LOADER, &ambiguous) ||
           ambiguous;
}

static void rom_boot_reset(void *opaque)
{
    int list[2];
    int n = rom_mmc_list(rom_sysboot, list);
    bool any = false;

    for (int i = 0; i < n; i++) {
        const RomMedium *m = &rom_media[list[i]];
        uint32_t mode = BOOT_MODE_RAW, entry;

        if (!m->blk || !blk_is_available(m->blk)) {
            continue;
        }
        any = true;
        entry = rom_boot_raw(m);
        if (!entry) {
            mode = BOOT_MODE_FS;
            entry = rom_boot_fs(m);
        }
        if (entry) {
            trace_am335x_rom_boot(list[i], mode, entry);
            rom_boot_params(list[i], mode);
            rom_cpu->env.regs[0] = BOOT_PARAMS;
            cpu_set_pc(CPU(rom_cpu), entry);
            return;
        }
    }
    /* -device loader may have given the CPU something to run */
    if (!qtest_enabled() && !rom_loader_present()) {
        warn_report("am335x ROM: %s, and no -kernel: the CPU starts in "
                    "the empty boot ROM", any ?
                    "no boot image (MLO) on the SD card or eMMC" :
                    "no SD card or eMMC to boot from");
    }
}

void am335x_rom_boot_init(ARMCPU *cpu, uint32_t sysboot)
{
    rom_cpu = cpu;
    rom_sysboot = sysboot;
    qemu_register_reset(rom_boot_reset, NULL);
}
