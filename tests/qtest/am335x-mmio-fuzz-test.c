/*
 * QTest: the AM335x's device models against a hostile guest
 *
 * Seeded random register traffic to every device of the SoC: writes of
 * random values (zero, all ones, single bits, small counts, addresses in
 * DDR, in the device's own window) at random offsets, reads, and time
 * passing, with DDR and the CPSW's CPPI RAM full of random words so that
 * whatever a DMA engine (EDMA, the CPSW's CPDMA, the USB's CPPI 4.1, the
 * LCDC, the HSMMC) is pointed at is garbage too; the registers that
 * start those engines are hit more often, and MMC0 has a card.  QEMU
 * must live through it: an assert, an abort or a crash fails the test
 * (libqtest reports QEMU's death).  Run on both boards, with the timing
 * models off and on.
 *
 * The same seed gives the same traffic.  AM335X_FUZZ_SEED and
 * AM335X_FUZZ_OPS in the environment choose others, for longer hunts
 * (a build with --enable-asan also catches accesses out of bounds);
 * AM335X_FUZZ_ARGS adds QEMU options (-trace, -d guest_errors, drives);
 * AM335X_FUZZ_MIGRATIONS (1) is how many times the traffic's VM migrates
 * to a new QEMU along the way, state in flight and all.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qemu/units.h"
#include "libqtest.h"
#include "am335x-qtest.h"

#define DDR_BASE        0x80000000u
#define DDR_GARBAGE     (1 * MiB)       /* filled with random words */
#define INTC_REVISION   0x48200000u     /* IP revision 5.0 (TRM 6.6.1.1) */

typedef struct Region {
    const char *name;
    uint32_t base;
    uint32_t size;
} Region;

/* AM335x TRM (SPRUH73) tables 2-1 to 2-4; sizes cover the registers */
static const Region regions[] = {
    { "prcm",           0x44e00000, 0x4000 },
    { "timer0",         0x44e05000, 0x1000 },
    { "gpio0",          0x44e07000, 0x1000 },
    { "uart0",          0x44e09000, 0x1000 },
    { "i2c0",           0x44e0b000, 0x1000 },
    { "tscadc",         0x44e0d000, 0x2000 },
    { "control",        0x44e10000, 0x2000 },
    { "timer1",         0x44e31000, 0x1000 },
    { "wdt1",           0x44e35000, 0x1000 },
    { "rtc",            0x44e3e000, 0x1000 },
    { "uart1",          0x48022000, 0x1000 },
    { "i2c1",           0x4802a000, 0x1000 },
    { "mcasp0",         0x48038000, 0x2000 },
    { "mcasp1",         0x4803c000, 0x2000 },
    { "timer2",         0x48040000, 0x1000 },
    { "timer7",         0x4804a000, 0x1000 },
    { "gpio1",          0x4804c000, 0x1000 },
    { "mmc0",           0x48060000, 0x1000 },
    { "elm",            0x48080000, 0x2000 },
    { "i2c2",           0x4819c000, 0x1000 },
    { "gpio2",          0x481ac000, 0x1000 },
    { "dcan0",          0x481cc000, 0x2000 },
    { "dcan1",          0x481d0000, 0x2000 },
    { "mmc1",           0x481d8000, 0x1000 },
    { "intc",           0x48200000, 0x1000 },
    { "lcdc",           0x4830e000, 0x1000 },
    { "mcasp0-data",    0x46000000, 0x1000 },
    { "mcasp1-data",    0x46400000, 0x1000 },
    { "usbss",          0x47400000, 0x1000 },
    { "usb0",           0x47401000, 0x800 },
    { "usb1",           0x47401800, 0x800 },
    { "cppi41",         0x47402000, 0x3000 },
    { "cppi41-queues",  0x47404000, 0x4000 },
    { "mmc2",           0x47810000, 0x1000 },
    { "edma-tpcc",      0x49000000, 0x6000 },
    { "edma-tptc0",     0x49800000, 0x400 },
    { "edma-tptc1",     0x49900000, 0x400 },
    { "edma-tptc2",     0x49a00000, 0x400 },
    { "cpsw",           0x4a100000, 0x4000 },
    { "gpmc",           0x50000000, 0x400 },
    /* What the GPMC's chip selects decode (the EVM's NAND) */
    { "gpmc-windows",   0x00000000, 0x20000000 },
};

/*
 * Registers that start the DMA engines, hit more often than chance would:
 * enables, and heads of descriptor chains (in the CPSW's CPPI RAM, which
 * is garbage too, or in DDR).
 */
typedef enum KickValue {
    KICK_ONE,           /* 1: enable */
    KICK_DESC,          /* a descriptor address */
    KICK_ANY,           /* random_value() */
} KickValue;

typedef struct Kick {
    uint32_t addr;
    uint32_t count;     /* registers, 4 bytes apart */
    KickValue value;
} Kick;

#define CPPI_RAM        0x4a102000u
#define CPPI_RAM_SIZE   0x2000u

static const Kick kicks[] = {
    /* CPDMA (TRM 14.5.10): TX_CONTROL, RX_CONTROL, teardowns */
    { 0x4a100804, 1, KICK_ONE },
    { 0x4a100814, 1, KICK_ONE },
    { 0x4a100808, 1, KICK_ANY },
    { 0x4a100818, 1, KICK_ANY },
    { 0x4a1008e0, 8, KICK_ANY },        /* RX free buffers */
    { 0x4a100a00, 32, KICK_DESC },      /* TX/RX HDPs and CPs */
    /* CPPI 4.1 (TRM 16.3.x): channel enables, queue manager set-up, pushes */
    { 0x47402800, 240, KICK_ANY },
    { 0x47404080, 3, KICK_DESC },
    { 0x47405000, 64, KICK_DESC },
    { 0x4740600c, 624, KICK_DESC },
    /* LCDC: frame buffer 0 base and ceiling, DMA and raster on */
    { 0x4830e040, 3, KICK_DESC },
    { 0x4830e028, 1, KICK_ANY },
    { 0x4830e06c, 1, KICK_ANY },
    /* GPMC (TRM 7.1.5): CS0's NAND command/address/data, prefetch, ECC */
    { 0x5000007c, 3, KICK_ANY },
    { 0x500001e0, 8, KICK_ANY },
    /* ELM (TRM 7.4.4): location config, page control, syndromes */
    { 0x48080010, 1, KICK_ANY },
    { 0x48080080, 1, KICK_ANY },
    { 0x48080400, 128, KICK_ANY },
    /* MMCHS0 (TRM 18.4): block, argument, command, data, host, clock */
    { 0x48060204, 4, KICK_ANY },
    { 0x48060228, 2, KICK_ANY },
    /* EDMA: event set, chained and QDMA events, PaRAM */
    { 0x49001010, 2, KICK_ANY },
    { 0x49001080, 1, KICK_ANY },
    { 0x49004000, 2048, KICK_ANY },
};

static const char *const on_off[] = { "off", "on" };

typedef struct FuzzCase {
    const char *machine;
    bool timing;
} FuzzCase;

/* A value a driver might write, or one no driver would */
static uint32_t random_value(GRand *r, const Region *reg)
{
    switch (g_rand_int_range(r, 0, 8)) {
    case 0:
        return 0;
    case 1:
        return 0xffffffff;
    case 2:
        return 1u << g_rand_int_range(r, 0, 32);
    case 3:
        return g_rand_int_range(r, 0, 64);
    case 4:
        return DDR_BASE + (g_rand_int_range(r, 0, DDR_GARBAGE) & ~3u);
    case 5:
        return reg->base + (g_rand_int_range(r, 0, reg->size) & ~3u);
    default:
        return g_rand_int(r);
    }
}

static void fill_garbage(QTestState *qts, GRand *r, uint32_t base,
                         uint32_t size)
{
    g_autofree uint32_t *words = g_new(uint32_t, size / 4);
    Region reg = { "garbage", base, size };

    for (size_t i = 0; i < size / 4; i++) {
        words[i] = cpu_to_le32(random_value(r, &reg));
    }
    qtest_memwrite(qts, base, words, size);
}

static void kick(QTestState *qts, GRand *r, const Kick *k)
{
    uint32_t addr = k->addr + 4 * g_rand_int_range(r, 0, k->count);
    Region any = { "kick", k->addr, 4 * k->count };
    uint32_t v;

    switch (k->value) {
    case KICK_ONE:
        v = 1;
        break;
    case KICK_DESC:
        if (g_rand_int_range(r, 0, 8) == 0) {
            v = random_value(r, &any);
        } else if (g_rand_boolean(r)) {
            v = CPPI_RAM + (g_rand_int_range(r, 0, CPPI_RAM_SIZE) & ~3u);
        } else {
            v = DDR_BASE + (g_rand_int_range(r, 0, DDR_GARBAGE) & ~3u);
        }
        break;
    default:
        v = random_value(r, &any);
        break;
    }
    qtest_writel(qts, addr, v);
}

/* One access to @reg, or time passing */
static void one_op(QTestState *qts, GRand *r, const Region *reg)
{
    /* Registers crowd the start of a window: half the offsets go there. */
    uint32_t span = g_rand_boolean(r) ? MIN(reg->size, 0x400) : reg->size;
    uint32_t addr = reg->base + g_rand_int_range(r, 0, span);
    int kind = g_rand_int_range(r, 0, 20);

    if (kind < 12) {
        uint32_t v = random_value(r, reg);

        switch (g_rand_int_range(r, 0, 8)) {
        case 0:
            qtest_writeb(qts, addr, v);
            break;
        case 1:
            qtest_writew(qts, addr & ~1u, v);
            break;
        default:
            qtest_writel(qts, addr & ~3u, v);
            break;
        }
    } else if (kind < 18) {
        switch (g_rand_int_range(r, 0, 8)) {
        case 0:
            qtest_readb(qts, addr);
            break;
        case 1:
            qtest_readw(qts, addr & ~1u);
            break;
        default:
            qtest_readl(qts, addr & ~3u);
            break;
        }
    } else {
        /* Up to 2 ms: timers expire, DMA moves, pacers release */
        qtest_clock_step(qts, g_rand_int_range(r, 1, 2000000));
    }
}

static void test_fuzz(const void *data)
{
    const FuzzCase *c = data;
    uint64_t seed = am335x_env_number("AM335X_FUZZ_SEED", 1);
    uint64_t ops = am335x_env_number("AM335X_FUZZ_OPS", 20000);
    uint64_t migrations = am335x_env_number("AM335X_FUZZ_MIGRATIONS", 1);
    g_autofree char *args = NULL;
    g_autoptr(GRand) r = g_rand_new_with_seed(seed);
    g_autofree char *card = NULL;
    QTestState *qts;

    /*
     * -no-shutdown: a power-off the traffic asks for (the PMIC, the RTC's
     * PMIC_PWR_ENABLE) stops the VM instead of ending QEMU.
     */
    int fd = g_file_open_tmp("am335x-fuzz-sd-XXXXXX", &card, NULL);

    /* A blank 4 MiB card in MMC0, for the commands to read and write */
    g_assert(fd >= 0);
    g_assert(ftruncate(fd, 4 * MiB) == 0);
    close(fd);
    args = g_strdup_printf("-machine %s,timing=%s -no-shutdown -nic none "
                           "-drive if=sd,index=0,format=raw,file=%s %s",
                           c->machine, on_off[c->timing], card,
                           g_getenv("AM335X_FUZZ_ARGS") ?: "");
    qts = qtest_init(args);
    fill_garbage(qts, r, DDR_BASE, DDR_GARBAGE);
    fill_garbage(qts, r, CPPI_RAM, CPPI_RAM_SIZE);
    am335x_enable_modules(qts);
    /*
     * In bursts of 200 on one device, with a tenth of the traffic to any
     * other: a device sees runs of its own registers, as from a driver.
     */
    for (uint64_t i = 0; i < ops; i++) {
        const Region *focus = &regions[(i / 200 + seed) %
                                       G_N_ELEMENTS(regions)];

        /* Mid-traffic, the state (DMA in flight) must migrate too. */
        if (migrations && i && i % (ops / (migrations + 1) + 1) == 0) {
            qts = am335x_migrate(qts, args);
        }

        if (g_rand_int_range(r, 0, 10) == 0) {
            focus = &regions[g_rand_int_range(r, 0, G_N_ELEMENTS(regions))];
        } else if (g_rand_int_range(r, 0, 10) == 0) {
            kick(qts, r, &kicks[g_rand_int_range(r, 0, G_N_ELEMENTS(kicks))]);
            continue;
        }
        one_op(qts, r, focus);
    }
    /* Still answering, and a read-only register is still what it was */
    g_assert_cmphex(qtest_readl(qts, INTC_REVISION), ==, 0x50);
    qtest_quit(qts);
    unlink(card);
}

int main(int argc, char **argv)
{
    static const FuzzCase cases[] = {
        { "beaglebone-black", false },
        { "beaglebone-black", true },
        { "am335x-evm", false },
        { "am335x-evm", true },
    };

    g_test_init(&argc, &argv, NULL);
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *path = g_strdup_printf("am335x/mmio-fuzz/%s/timing-%s",
                                                cases[i].machine,
                                                on_off[cases[i].timing]);

        qtest_add_data_func(path, &cases[i], test_fuzz);
    }
    return g_test_run();
}
