/*
 * QTest of the boot without -kernel: the ROM's MMC boot (raw mode, FS
 * mode), its boot parameters, the order of the devices, images it must
 * refuse, and DDR repeating through EMIF0's window.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "qobject/qdict.h"
#include "am335x-qtest.h"

#define SRAM_IMAGE          0x402f0400u
#define SRAM_IMAGE_END      0x4030b800u
#define BOOT_PARAMS         0x4030b800u
#define DDR                 0x80000000u
#define KiB                 1024
#define MiB                 (1024 * 1024)
#define EMMC_BOOT_AREA      (2 * 2 * MiB)   /* the BBB's two boot partitions */

/* A card image in a temporary file, removed by card_free() */
typedef struct Card {
    char *path;
    int fd;
} Card;

static Card card_new(size_t size)
{
    Card c;

    c.fd = g_file_open_tmp("am335x-rom-XXXXXX", &c.path, NULL);
    g_assert(c.fd >= 0);
    g_assert(ftruncate(c.fd, size) == 0);
    return c;
}

static void card_write(Card *c, off_t at, const void *buf, size_t len)
{
    g_assert(pwrite(c->fd, buf, len, at) == (ssize_t)len);
}

static void card_free(Card *c)
{
    close(c->fd);
    unlink(c->path);
    g_free(c->path);
}

/*
 * An MLO as U-Boot's omapimage makes it: a table of contents naming
 * CHSETTINGS, then at 0x200 the GP header (@size, @load), then @len bytes
 * of a pattern from @seed.  Returns the file, of 0x208 + @len bytes.
 */
static uint8_t *mlo_new(uint32_t size, uint32_t load, size_t len,
                        uint8_t seed)
{
    uint8_t *m = g_malloc0(0x208 + len);

    stl_le_p(m, 0x40);                  /* the TOC item: offset, size */
    stl_le_p(m + 4, 0x0c);
    memcpy(m + 0x14, "CHSETTINGS", 10);
    memset(m + 0x20, 0xff, 0x20);       /* the TOC's end */
    stl_le_p(m + 0x200, size);
    stl_le_p(m + 0x204, load);
    for (size_t i = 0; i < len; i++) {
        m[0x208 + i] = seed + i * 7;
    }
    return m;
}

/* Whether the SRAM holds the pattern of @seed, @len bytes from @load */
static bool sram_has(QTestState *qts, uint32_t load, size_t len, uint8_t seed)
{
    g_autofree uint8_t *buf = g_malloc(len);

    qtest_memread(qts, load, buf, len);
    for (size_t i = 0; i < len; i++) {
        if (buf[i] != (uint8_t)(seed + i * 7)) {
            return false;
        }
    }
    return true;
}

/* The boot parameters: device code and boot mode, or false if none */
static bool boot_params(QTestState *qts, uint8_t *device, uint32_t *mode)
{
    uint32_t descriptor = qtest_readl(qts, BOOT_PARAMS + 4);
    uint32_t data;

    if (descriptor < 0x402f0400 || descriptor >= 0x40310000) {
        return false;
    }
    *device = qtest_readb(qts, BOOT_PARAMS + 8);
    data = qtest_readl(qts, descriptor + 0x18);
    g_assert_cmphex(data, >=, 0x402f0400);
    g_assert_cmphex(data, <, 0x40310000);
    *mode = qtest_readl(qts, data + 8);
    return true;
}

static QTestState *boot(const char *machine, const Card *sd,
                        const Card *emmc)
{
    g_autofree char *sd_arg = sd ? g_strdup_printf(
        "-drive if=sd,index=0,format=raw,file=%s ", sd->path) : g_strdup("");
    g_autofree char *emmc_arg = emmc ? g_strdup_printf(
        "-drive if=sd,index=1,format=raw,file=%s ", emmc->path) :
        g_strdup("");

    return qtest_initf("-M %s %s%s", machine, sd_arg, emmc_arg);
}

/* Raw mode: an MLO at 128 KiB; the image, then boot device and mode */
static void test_raw(const void *data)
{
    const char *machine = data;
    Card sd = card_new(4 * MiB);
    g_autofree uint8_t *mlo = mlo_new(0x1000, SRAM_IMAGE, 0x1000, 3);
    QTestState *qts;
    uint8_t device;
    uint32_t mode;

    card_write(&sd, 128 * KiB, mlo, 0x208 + 0x1000);
    qts = boot(machine, &sd, NULL);
    g_assert_true(sram_has(qts, SRAM_IMAGE, 0x1000, 3));
    g_assert_true(boot_params(qts, &device, &mode));
    g_assert_cmphex(device, ==, 0x08);          /* MMC0 */
    g_assert_cmpuint(mode, ==, 1);              /* raw */
    qtest_quit(qts);
    card_free(&sd);
}

static bool have_tools(void)
{
    g_autofree char *mkfs = g_find_program_in_path("mkfs.vfat");
    g_autofree char *mcopy = g_find_program_in_path("mcopy");

    return mkfs && mcopy;
}

static void run(const char *cmd)
{
    g_autofree char *quiet = g_strdup_printf("%s >/dev/null 2>&1", cmd);

    g_assert_cmpint(system(quiet), ==, 0);
}

/*
 * FS mode: a FAT12 partition (2048 sectors in, active) whose root
 * directory holds MLO after another file; an image in raw mode's places
 * too would be found first, so there is none.
 */
static void test_fat(const void *data)
{
    const char *machine = data;
    Card sd;
    g_autofree uint8_t *mlo = mlo_new(0x3000, SRAM_IMAGE + 0x100, 0x2ff8, 9);
    g_autofree char *mlo_path = NULL;
    g_autofree char *cmd = NULL;
    uint8_t mbr[512] = { 0 };
    QTestState *qts;
    uint8_t device;
    uint32_t mode;
    int fd;

    if (!have_tools()) {
        g_test_skip("mkfs.vfat or mcopy missing (dosfstools, mtools)");
        return;
    }
    sd = card_new(8 * MiB);
    /* partition 1: active, FAT16 < 32 MiB, from sector 2048 to the end */
    mbr[446] = 0x80;
    mbr[446 + 4] = 0x01;                /* FAT12 */
    stl_le_p(mbr + 446 + 8, 2048);
    stl_le_p(mbr + 446 + 12, 8 * MiB / 512 - 2048);
    mbr[510] = 0x55;
    mbr[511] = 0xaa;
    card_write(&sd, 0, mbr, sizeof(mbr));

    fd = g_file_open_tmp("am335x-mlo-XXXXXX", &mlo_path, NULL);
    g_assert(fd >= 0);
    g_assert(write(fd, mlo, 0x208 + 0x2ff8) == 0x208 + 0x2ff8);
    close(fd);
    cmd = g_strdup_printf("mkfs.vfat -F 12 -s 4 --offset 2048 %s %d",
                          sd.path, (8 * MiB / 512 - 2048) / 2);
    run(cmd);
    g_free(cmd);
    /* another file first, so MLO is not the directory's first entry */
    cmd = g_strdup_printf("mcopy -i %s@@1M %s ::README.TXT", sd.path,
                          mlo_path);
    run(cmd);
    g_free(cmd);
    cmd = g_strdup_printf("mcopy -i %s@@1M %s ::MLO", sd.path, mlo_path);
    run(cmd);

    qts = boot(machine, &sd, NULL);
    /* the GP size counts its own 8 bytes: the file ends 8 short of it */
    g_assert_true(sram_has(qts, SRAM_IMAGE + 0x100, 0x2ff8, 9));
    g_assert_true(boot_params(qts, &device, &mode));
    g_assert_cmphex(device, ==, 0x08);
    g_assert_cmpuint(mode, ==, 2);              /* FS */
    qtest_quit(qts);
    unlink(mlo_path);
    card_free(&sd);
}

/* Boots @machine with @mlo (@len bytes) at the start of a @size card */
static void check_refused(const char *machine, size_t size,
                          const uint8_t *mlo, size_t len)
{
    Card sd = card_new(size);
    QTestState *qts;
    uint8_t device;
    uint32_t mode;

    card_write(&sd, 0, mlo, len);
    qts = boot(machine, &sd, NULL);
    g_assert_false(sram_has(qts, SRAM_IMAGE, 0x100, 5));
    g_assert_false(boot_params(qts, &device, &mode));
    qtest_quit(qts);
    card_free(&sd);
}

/*
 * What the ROM must not start: a load address outside the public SRAM, an
 * image that would run past its end, an empty one, one that runs past the
 * end of the card.  Nothing is copied, no parameters.
 */
static void test_refused(const void *data)
{
    const char *machine = data;
    static const struct {
        uint32_t size, load;
    } bad[] = {
        { 0x100, DDR },
        { 0x100, SRAM_IMAGE - 0x100 },
        { SRAM_IMAGE_END - SRAM_IMAGE + 4, SRAM_IMAGE },
        { 0xffffffff, SRAM_IMAGE },
        { 0, SRAM_IMAGE },
    };
    g_autofree uint8_t *cut = mlo_new(0x1b000, SRAM_IMAGE, 0x100, 5);

    for (int i = 0; i < ARRAY_SIZE(bad); i++) {
        g_autofree uint8_t *mlo = mlo_new(bad[i].size, bad[i].load, 0x100, 5);

        check_refused(machine, 1 * MiB, mlo, 0x208 + 0x100);
    }
    /* a 64 KiB card ends before the 108 KiB the header announces */
    check_refused(machine, 64 * KiB, cut, 0x208 + 0x100);
}

/*
 * The BeagleBone Black's SYSBOOT (11100b) tries MMC1, its eMMC, before
 * the SD card; the eMMC's raw places are in its user area, after the boot
 * partitions.
 */
static void test_emmc_first(void)
{
    Card sd = card_new(1 * MiB);
    Card emmc = card_new(8 * MiB);     /* the size QEMU wants: 2^n */
    g_autofree uint8_t *a = mlo_new(0x800, SRAM_IMAGE, 0x800, 1);
    g_autofree uint8_t *b = mlo_new(0x800, SRAM_IMAGE, 0x800, 2);
    QTestState *qts;
    uint8_t device;
    uint32_t mode;

    card_write(&sd, 0, a, 0x208 + 0x800);
    card_write(&emmc, EMMC_BOOT_AREA + 256 * KiB, b, 0x208 + 0x800);
    /* an MLO in the boot partition is not where this ROM looks */
    card_write(&emmc, 0, a, 0x208 + 0x800);
    qts = boot("beaglebone-black", &sd, &emmc);
    g_assert_true(sram_has(qts, SRAM_IMAGE, 0x800, 2));
    g_assert_true(boot_params(qts, &device, &mode));
    g_assert_cmphex(device, ==, 0x09);          /* MMC1 */
    qtest_quit(qts);

    /* An eMMC with no image: on to the SD card */
    memset(b, 0, 0x208);
    card_write(&emmc, EMMC_BOOT_AREA + 256 * KiB, b, 0x208);
    qts = boot("beaglebone-black", &sd, &emmc);
    g_assert_true(sram_has(qts, SRAM_IMAGE, 0x800, 1));
    g_assert_true(boot_params(qts, &device, &mode));
    g_assert_cmphex(device, ==, 0x08);
    qtest_quit(qts);
    card_free(&sd);
    card_free(&emmc);
}

/*
 * -M beaglebone-black,sysboot=0x4018, the BBB with its S2 button held
 * (11000b: SPI0, MMC0, USB0, UART0): the SD card before the eMMC.  The
 * straps read back from CONTROL_STATUS and the machine property.
 */
static void test_boot_button(void)
{
    Card sd = card_new(1 * MiB);
    Card emmc = card_new(8 * MiB);
    g_autofree uint8_t *a = mlo_new(0x800, SRAM_IMAGE, 0x800, 1);
    g_autofree uint8_t *b = mlo_new(0x800, SRAM_IMAGE, 0x800, 2);
    g_autofree char *args = NULL;
    QTestState *qts;
    QDict *resp;
    uint8_t device;
    uint32_t mode;

    card_write(&sd, 0, a, 0x208 + 0x800);
    card_write(&emmc, EMMC_BOOT_AREA, b, 0x208 + 0x800);
    args = g_strdup_printf("-M beaglebone-black,sysboot=0x4018 "
                           "-drive if=sd,index=0,format=raw,file=%s "
                           "-drive if=sd,index=1,format=raw,file=%s",
                           sd.path, emmc.path);
    qts = qtest_init(args);
    g_assert_true(sram_has(qts, SRAM_IMAGE, 0x800, 1));
    g_assert_true(boot_params(qts, &device, &mode));
    g_assert_cmphex(device, ==, 0x08);
    g_assert_cmphex(qtest_readl(qts, 0x44e10040) & 0xff, ==, 0x18);
    resp = qtest_qmp(qts, "{'execute': 'qom-get', 'arguments': "
                     "{'path': '/machine', 'property': 'sysboot'}}");
    g_assert_cmpint(qdict_get_int(resp, "return"), ==, 0x4018);
    qobject_unref(resp);
    qtest_quit(qts);
    card_free(&sd);
    card_free(&emmc);
}

/* Each system reset runs the ROM again, with what the card holds then. */
static void test_reset(const void *data)
{
    const char *machine = data;
    Card sd = card_new(1 * MiB);
    g_autofree uint8_t *a = mlo_new(0x400, SRAM_IMAGE, 0x400, 1);
    g_autofree uint8_t *b = mlo_new(0x400, SRAM_IMAGE, 0x400, 2);
    QTestState *qts;

    card_write(&sd, 0, a, 0x208 + 0x400);
    qts = boot(machine, &sd, NULL);
    g_assert_true(sram_has(qts, SRAM_IMAGE, 0x400, 1));
    card_write(&sd, 0, b, 0x208 + 0x400);
    qtest_qmp_assert_success(qts, "{'execute': 'system_reset'}");
    qtest_qmp_eventwait(qts, "RESET");
    g_assert_true(sram_has(qts, SRAM_IMAGE, 0x400, 2));
    qtest_quit(qts);
    card_free(&sd);
}

/* DDR repeats through EMIF0's 1 GiB from 0x80000000. */
static void test_ddr_alias(const void *data)
{
    const char *machine = data;
    QTestState *qts = qtest_initf("-M %s", machine);
    uint32_t size = strcmp(machine, "am335x-evm") ? 512 * MiB : 256 * MiB;

    qtest_writel(qts, DDR + 0x100, 0x12345678);
    for (uint32_t at = size; at < 1024u * MiB; at += size) {
        g_assert_cmphex(qtest_readl(qts, DDR + at + 0x100), ==, 0x12345678);
    }
    qtest_writel(qts, DDR + 1024u * MiB - 4, 0xcafef00d);
    g_assert_cmphex(qtest_readl(qts, DDR + size - 4), ==, 0xcafef00d);
    qtest_quit(qts);
}

static void add(const char *machine, const char *name, GTestDataFunc fn)
{
    am335x_add_machine_test("rom-boot", machine, name, fn);
}

int main(int argc, char **argv)
{
    static const char * const machines[] = { "beaglebone-black",
                                             "am335x-evm" };

    g_test_init(&argc, &argv, NULL);
    /* mtools: an image file has no disk geometry to check */
    g_setenv("MTOOLS_SKIP_CHECK", "1", true);
    for (int i = 0; i < ARRAY_SIZE(machines); i++) {
        add(machines[i], "raw", test_raw);
        add(machines[i], "fat", test_fat);
        add(machines[i], "refused", test_refused);
        add(machines[i], "reset", test_reset);
        add(machines[i], "ddr-alias", test_ddr_alias);
    }
    qtest_add_func("am335x/rom-boot/beaglebone-black/emmc-first",
                   test_emmc_first);
    qtest_add_func("am335x/rom-boot/beaglebone-black/boot-button",
                   test_boot_button);
    return g_test_run();
}
