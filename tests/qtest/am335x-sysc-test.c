/*
 * QTest for the TI AM335x OCP target-module wrappers (am335x-sysc)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "am335x-qtest.h"
#include "qobject/qdict.h"

#define GPIO1_BASE      0x4804c000
#define MCSPI0_BASE     0x48030000
#define MAILBOX_BASE    0x480c8000
#define SPINLOCK_BASE   0x480ca000
#define MMC0_BASE       0x48060000
#define CPSW_BASE       0x4a100000
#define TPTC0_BASE      0x49800000

/* The wrapper layouts ti-sysc gets from the device tree. */
typedef struct Module {
    const char *name;
    uint64_t base;
    uint32_t rev_offset;
    uint32_t rev;
    uint32_t rev_mask;      /* the bits ti-sysc's quirk table compares */
    int32_t sysc_offset;
    uint32_t srst;          /* SOFTRESET bit, 0 if none */
    uint32_t sidle_smart;   /* SIDLE = smart idle */
    int32_t syss_offset;    /* -1: SOFTRESET itself reads back 0 */
} Module;

static const Module modules[] = {
    { "gpio1", GPIO1_BASE, 0x0, 0x50600801, 0xffff00ff,
      0x10, 1u << 1, 2u << 3, 0x114 },
    { "mmc0", MMC0_BASE, 0x2fc, 0x31010000, 0xffffffff,
      0x110, 1u << 1, 2u << 3, 0x114 },
    { "spinlock", SPINLOCK_BASE, 0x0, 0x50020000, 0xffffffff,
      0x10, 1u << 1, 2u << 3, 0x14 },
    { "mailbox", MAILBOX_BASE, 0x0, 0x00000400, 0xffffffff,
      0x10, 1u << 0, 2u << 2, -1 },
    { "tptc0", TPTC0_BASE, 0x0, 0x40006c00, 0xffffefff,
      0x10, 1u << 0, 2u << 2, -1 },
};

static QTestState *start(const char *machine)
{
    return qtest_initf("-M %s", machine);
}

/* What ti-sysc does at probe: read REV, soft-reset, wait for the reset. */
static void test_probe_sequence(const void *data)
{
    QTestState *qts = start(data);

    for (int i = 0; i < ARRAY_SIZE(modules); i++) {
        const Module *m = &modules[i];
        uint64_t sysc = m->base + m->sysc_offset;

        g_test_message("%s", m->name);
        g_assert_cmphex(qtest_readl(qts, m->base + m->rev_offset) &
                        m->rev_mask, ==, m->rev & m->rev_mask);

        /* The idle mode fields keep what is written. */
        qtest_writel(qts, sysc, m->sidle_smart);
        g_assert_cmphex(qtest_readl(qts, sysc), ==, m->sidle_smart);

        /* SOFTRESET completes at once and clears SYSCONFIG. */
        qtest_writel(qts, sysc, m->sidle_smart | m->srst);
        g_assert_cmphex(qtest_readl(qts, sysc), ==, 0);
        if (m->syss_offset >= 0) {
            g_assert_cmphex(qtest_readl(qts, m->base + m->syss_offset) & 1,
                            ==, 1);
        }
    }
    qtest_quit(qts);
}

static void test_special_status(const void *data)
{
    QTestState *qts = start(data);

    /* omap_hwspinlock needs NUMLOCKS: 128 locks. */
    g_assert_cmphex(qtest_readl(qts, SPINLOCK_BASE + 0x14) >> 24, ==, 4);

    /* CPSW_WR: IDVER at 0x1200, SOFT_RESET at 0x1204 reads 0 when done. */
    g_assert_cmphex(qtest_readl(qts, CPSW_BASE + 0x1200) & 0xffff00f0, ==,
                    0x4edb1902 & 0xffff00f0);
    qtest_writel(qts, CPSW_BASE + 0x1204, 1);
    g_assert_cmphex(qtest_readl(qts, CPSW_BASE + 0x1204), ==, 0);

    qtest_quit(qts);
}

static void test_unknown_offsets(const void *data)
{
    QTestState *qts = start(data);

    /* MCSPI channel registers of the unmodelled McSPI0 block. */
    qtest_writel(qts, MCSPI0_BASE + 0x13c, 0xffffffff);
    g_assert_cmphex(qtest_readl(qts, MCSPI0_BASE + 0x13c), ==, 0);
    g_assert_cmphex(qtest_readl(qts, MCSPI0_BASE + 0x134), ==, 0);
    g_assert_cmphex(qtest_readb(qts, MCSPI0_BASE + 0xfff), ==, 0);
    g_assert_cmphex(qtest_readl(qts, MAILBOX_BASE + 0x40), ==, 0);

    /* REV and SYSSTATUS ignore writes. */
    qtest_writel(qts, MCSPI0_BASE, 0);
    qtest_writel(qts, MCSPI0_BASE + 0x114, 0);
    g_assert_cmphex(qtest_readl(qts, MCSPI0_BASE), ==, 0x40300a0b);
    g_assert_cmphex(qtest_readl(qts, MCSPI0_BASE + 0x114) & 1, ==, 1);

    /* Bits outside the wrapper's mask do not stick. */
    qtest_writel(qts, MCSPI0_BASE + 0x110, 0xfffff000);
    g_assert_cmphex(qtest_readl(qts, MCSPI0_BASE + 0x110), ==, 0);

    qtest_quit(qts);
}

/* Every am335x-sysc child of the SoC reports its REV through QOM too. */
static void test_qom(const void *data)
{
    QTestState *qts = start(data);
    int n;

    for (n = 0; ; n++) {
        g_autofree char *path = g_strdup_printf("/machine/soc/sysc[%d]", n);
        QDict *resp = qtest_qmp(qts, "{ 'execute': 'qom-get', 'arguments': "
                                "{ 'path': %s, 'property': 'name' } }", path);

        if (!qdict_haskey(resp, "return")) {
            qobject_unref(resp);
            break;
        }
        g_assert_cmpstr(qdict_get_str(resp, "return"), !=, "");
        qobject_unref(resp);
    }
    g_assert_cmpint(n, ==, 14);

    qtest_quit(qts);
}

static void add(const char *machine, const char *name, GTestDataFunc fn)
{
    am335x_add_machine_test("sysc", machine, name, fn);
}

int main(int argc, char **argv)
{
    static const char * const machines[] = { "beaglebone-black",
                                             "am335x-evm" };

    g_test_init(&argc, &argv, NULL);
    for (int i = 0; i < ARRAY_SIZE(machines); i++) {
        add(machines[i], "probe-sequence", test_probe_sequence);
        add(machines[i], "special-status", test_special_status);
        add(machines[i], "unknown-offsets", test_unknown_offsets);
        add(machines[i], "qom", test_qom);
    }
    return g_test_run();
}
