/*
 * QTest for the TI AM335x control module
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "am335x-qtest.h"
#include "qobject/qdict.h"

#define CONTROL_BASE        0x44e10000
#define CONTROL_SIZE        0x20000
#define CONTROL_PATH        "/machine/soc/control"

#define CONTROL_REVISION    0x000
#define CONTROL_SYSCONFIG   0x010
#define CONTROL_STATUS      0x040
#define DEVICE_ID           0x600
#define DEV_FEATURE         0x604
#define MAC_ID0_LO          0x630
#define MAC_ID0_HI          0x634
#define MAC_ID1_LO          0x638
#define MAC_ID1_HI          0x63c
#define DCAN_RAMINIT        0x644
#define EFUSE_SMA           0x7fc
#define CONF_GPMC_AD0       0x800
#define CONF_LCD_DATA0      0x8a0
#define CONF_UART0_RXD      0x970
#define CONF_USB1_DRVVBUS   0xa34
#define VTP_CTRL            0xe0c
#define TPCC_EVT_MUX_0_3    0xf90
#define IPC_MSG_REG0        0x1328

/* AM335x silicon revision 2.1 (TRM 9.3.1, device_id). */
#define AM335X_DEVICE_ID_ES2_1  0x2b94402e
#define CONTROL_REVISION_VALUE  0x4e8b0100
#define DEVTYPE_GP              3
#define SYSBOOT_24MHZ           1
#define DEV_FEATURE_SGX         (1u << 29)

#define DCAN0_START             (1u << 0)
#define DCAN1_START             (1u << 1)
#define DCAN0_DONE              (1u << 8)
#define DCAN1_DONE              (1u << 9)
#define VTP_CTRL_CLRZ           (1u << 0)
#define VTP_CTRL_READY          (1u << 5)
#define VTP_CTRL_ENABLE         (1u << 6)

static uint32_t ctrl_read(QTestState *qts, uint32_t offset)
{
    return qtest_readl(qts, CONTROL_BASE + offset);
}

static void ctrl_write(QTestState *qts, uint32_t offset, uint32_t value)
{
    qtest_writel(qts, CONTROL_BASE + offset, value);
}

static QDict *qom_get(QTestState *qts, const char *property)
{
    QDict *resp = qtest_qmp(qts, "{ 'execute': 'qom-get', 'arguments': "
                            "{ 'path': %s, 'property': %s } }",
                            CONTROL_PATH, property);

    g_assert(qdict_haskey(resp, "return"));
    return resp;
}

static uint32_t qom_get_uint(QTestState *qts, const char *property)
{
    QDict *resp = qom_get(qts, property);
    uint32_t value = qdict_get_int(resp, "return");

    qobject_unref(resp);
    return value;
}

static void qom_get_mac(QTestState *qts, uint8_t mac[6])
{
    QDict *resp = qom_get(qts, "mac-base");
    const char *str = qdict_get_str(resp, "return");

    g_assert_cmpint(sscanf(str, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0],
                           &mac[1], &mac[2], &mac[3], &mac[4], &mac[5]),
                    ==, 6);
    qobject_unref(resp);
}

static QTestState *start(const char *machine)
{
    return qtest_initf("-M %s", machine);
}

static void test_ident(const void *data)
{
    QTestState *qts = start(data);
    uint32_t id = ctrl_read(qts, DEVICE_ID);

    g_assert_cmphex(id, ==, AM335X_DEVICE_ID_ES2_1);
    g_assert_cmphex(id, ==, qom_get_uint(qts, "device-id"));
    /* What arch/arm/mach-omap2/id.c decodes: rev 2 (2.1), part 0xb944. */
    g_assert_cmphex(id >> 28, ==, 2);
    g_assert_cmphex((id >> 12) & 0xffff, ==, 0xb944);
    g_assert_cmphex(qtest_readw(qts, CONTROL_BASE + DEVICE_ID + 2), ==,
                    0x2b94);

    g_assert_cmphex(ctrl_read(qts, CONTROL_REVISION), ==,
                    CONTROL_REVISION_VALUE);
    g_assert_cmphex(ctrl_read(qts, DEV_FEATURE), ==,
                    qom_get_uint(qts, "dev-feature"));
    g_assert_cmphex(ctrl_read(qts, DEV_FEATURE) & DEV_FEATURE_SGX, ==,
                    DEV_FEATURE_SGX);
    g_assert_cmphex(ctrl_read(qts, EFUSE_SMA), ==,
                    qom_get_uint(qts, "efuse-sma"));

    /* Straps and e-fuses ignore writes. */
    ctrl_write(qts, DEVICE_ID, 0);
    ctrl_write(qts, DEV_FEATURE, 0);
    g_assert_cmphex(ctrl_read(qts, DEVICE_ID), ==, AM335X_DEVICE_ID_ES2_1);
    g_assert_cmphex(ctrl_read(qts, DEV_FEATURE), ==,
                    qom_get_uint(qts, "dev-feature"));

    qtest_quit(qts);
}

static void test_status(const void *data)
{
    QTestState *qts = start(data);
    uint32_t sysboot = qom_get_uint(qts, "sysboot");
    uint32_t status = ctrl_read(qts, CONTROL_STATUS);

    /* Linux's sys_clkin mux: index 1 of 19.2/24/25/26 MHz. */
    g_assert_cmphex((status >> 22) & 3, ==, SYSBOOT_24MHZ);
    g_assert_cmphex((status >> 8) & 7, ==, DEVTYPE_GP);
    g_assert_cmphex(status & 0xff, ==, sysboot & 0xff);
    g_assert_cmphex((status >> 16) & 0xff, ==, sysboot >> 8);
    g_assert_cmphex(status >> 24, ==, 0);

    ctrl_write(qts, CONTROL_STATUS, 0);
    g_assert_cmphex(ctrl_read(qts, CONTROL_STATUS), ==, status);

    qtest_quit(qts);
}

static void test_mac(const void *data)
{
    QTestState *qts = start(data);
    uint8_t mac[6];
    uint8_t last;

    qom_get_mac(qts, mac);

    /* ti_cm_get_macid(): HI holds bytes 0-3, LO bytes 4-5, LSB first. */
    g_assert_cmphex(ctrl_read(qts, MAC_ID0_HI), ==,
                    mac[0] | mac[1] << 8 | mac[2] << 16 |
                    (uint32_t)mac[3] << 24);
    g_assert_cmphex(ctrl_read(qts, MAC_ID0_LO), ==, mac[4] | mac[5] << 8);

    /* The second port's address is the next one. */
    last = mac[5] + 1;
    g_assert_cmphex(ctrl_read(qts, MAC_ID1_HI), ==,
                    ctrl_read(qts, MAC_ID0_HI));
    g_assert_cmphex(ctrl_read(qts, MAC_ID1_LO), ==, mac[4] | last << 8);

    ctrl_write(qts, MAC_ID0_LO, 0);
    g_assert_cmphex(ctrl_read(qts, MAC_ID0_LO), ==, mac[4] | mac[5] << 8);

    qtest_quit(qts);
}

static void test_pinmux(const void *data)
{
    QTestState *qts = start(data);

    /* Reset: GPIO mode (7), receiver on, pulling down... */
    g_assert_cmphex(ctrl_read(qts, CONF_GPMC_AD0), ==, 0x27);
    /* ...except the SYSBOOT balls, whose pull is off. */
    g_assert_cmphex(ctrl_read(qts, CONF_LCD_DATA0), ==, 0x2f);

    /* What pinctrl-single writes for the UART0 RXD pin. */
    ctrl_write(qts, CONF_UART0_RXD, 0x30);
    g_assert_cmphex(ctrl_read(qts, CONF_UART0_RXD), ==, 0x30);
    ctrl_write(qts, CONF_GPMC_AD0, 0x31);
    g_assert_cmphex(ctrl_read(qts, CONF_GPMC_AD0), ==, 0x31);

    /* Only bits [6:0] exist. */
    ctrl_write(qts, CONF_USB1_DRVVBUS, 0xffffffff);
    g_assert_cmphex(ctrl_read(qts, CONF_USB1_DRVVBUS), ==, 0x7f);

    /* The EDMA crossbar driver writes single bytes. */
    qtest_writeb(qts, CONTROL_BASE + TPCC_EVT_MUX_0_3 + 1, 0x1c);
    qtest_writeb(qts, CONTROL_BASE + TPCC_EVT_MUX_0_3 + 3, 0xff);
    g_assert_cmphex(ctrl_read(qts, TPCC_EVT_MUX_0_3), ==, 0x3f001c00);

    /* Plain storage, e.g. the wakeup-M3 IPC registers. */
    ctrl_write(qts, IPC_MSG_REG0, 0xdeadbeef);
    g_assert_cmphex(ctrl_read(qts, IPC_MSG_REG0), ==, 0xdeadbeef);

    qtest_quit(qts);
}

/* The c_can driver's RAMINIT handshake for both instances. */
static void test_dcan_raminit(const void *data)
{
    QTestState *qts = start(data);

    g_assert_cmphex(ctrl_read(qts, DCAN_RAMINIT), ==, 0);
    ctrl_write(qts, DCAN_RAMINIT, DCAN0_START | DCAN0_DONE);
    g_assert_cmphex(ctrl_read(qts, DCAN_RAMINIT), ==,
                    DCAN0_START | DCAN0_DONE);

    /* Clearing START keeps DONE; a new rising edge of START1 adds DONE1. */
    ctrl_write(qts, DCAN_RAMINIT, DCAN1_START);
    g_assert_cmphex(ctrl_read(qts, DCAN_RAMINIT), ==,
                    DCAN1_START | DCAN0_DONE | DCAN1_DONE);

    /* DONE clears on writing 1. */
    ctrl_write(qts, DCAN_RAMINIT, DCAN1_START | DCAN0_DONE | DCAN1_DONE);
    g_assert_cmphex(ctrl_read(qts, DCAN_RAMINIT), ==, DCAN1_START);

    qtest_quit(qts);
}

/* U-Boot's config_vtp(): enable, pulse CLRZ, wait for READY. */
static void test_vtp(const void *data)
{
    QTestState *qts = start(data);

    g_assert_cmphex(ctrl_read(qts, VTP_CTRL) & VTP_CTRL_READY, ==, 0);
    ctrl_write(qts, VTP_CTRL, VTP_CTRL_ENABLE);
    ctrl_write(qts, VTP_CTRL, VTP_CTRL_ENABLE | VTP_CTRL_CLRZ);
    g_assert_cmphex(ctrl_read(qts, VTP_CTRL) & VTP_CTRL_READY, ==,
                    VTP_CTRL_READY);

    qtest_quit(qts);
}

static void test_bad_offsets(const void *data)
{
    QTestState *qts = start(data);

    /* Undocumented offsets are logged but behave as storage. */
    ctrl_write(qts, 0x1f000, 0x12345678);
    g_assert_cmphex(ctrl_read(qts, 0x1f000), ==, 0x12345678);
    ctrl_write(qts, CONTROL_SIZE - 4, 0xffffffff);
    g_assert_cmphex(ctrl_read(qts, CONTROL_SIZE - 4), ==, 0xffffffff);
    qtest_writeb(qts, CONTROL_BASE + CONTROL_SIZE - 1, 0x5a);
    g_assert_cmphex(qtest_readb(qts, CONTROL_BASE + CONTROL_SIZE - 1), ==,
                    0x5a);

    /*
     * The bus splits an unaligned word into aligned pieces: the high half
     * of device_id and the low half of dev_feature; on writes, bytes 1-3 of
     * conf_gpmc_ad0 (not writable) and byte 0 of conf_gpmc_ad1.
     */
    g_assert_cmphex(qtest_readl(qts, CONTROL_BASE + DEVICE_ID + 2), ==,
                    (qom_get_uint(qts, "dev-feature") << 16) | 0x2b94);
    qtest_writel(qts, CONTROL_BASE + CONF_GPMC_AD0 + 1, 0);
    g_assert_cmphex(ctrl_read(qts, CONF_GPMC_AD0), ==, 0x27);
    g_assert_cmphex(ctrl_read(qts, CONF_GPMC_AD0 + 4), ==, 0);

    /* Only IDLEMODE of control_sysconfig is writable. */
    ctrl_write(qts, CONTROL_SYSCONFIG, 0xffffffff);
    g_assert_cmphex(ctrl_read(qts, CONTROL_SYSCONFIG), ==, 0x2e);

    /* Still alive. */
    g_assert_cmphex(ctrl_read(qts, DEVICE_ID), ==, AM335X_DEVICE_ID_ES2_1);
    qtest_quit(qts);
}

#define TPCC_ER             0x49001000
#define TPCC_ECR            0x49001008
#define TPCC_EVT_MUX_12_15  0xf9c
#define CONTROL_PATH        "/machine/soc/control"

/*
 * The EDMA event crossbar: channel 12 takes its direct event while its
 * TPCC_EVT_MUX byte is 0, crossbar input <byte> otherwise.  A rising level
 * at the chosen source sets the channel's bit in the TPCC's ER.
 */
static void test_dma_crossbar(const void *data)
{
    QTestState *qts = start(data);

    g_assert_cmphex(qtest_readl(qts, TPCC_ER), ==, 0);
    qtest_set_irq_in(qts, CONTROL_PATH, "dma-direct", 12, 1);
    g_assert_cmphex(qtest_readl(qts, TPCC_ER), ==, (1u << 12));
    qtest_set_irq_in(qts, CONTROL_PATH, "dma-direct", 12, 0);
    qtest_writel(qts, TPCC_ECR, (1u << 12));

    /* Channel 12 from crossbar input 1 (SDTXEVT2): one byte per channel */
    qtest_writeb(qts, CONTROL_BASE + TPCC_EVT_MUX_12_15, 1);
    g_assert_cmphex(ctrl_read(qts, TPCC_EVT_MUX_12_15), ==, 1);
    qtest_set_irq_in(qts, CONTROL_PATH, "dma-direct", 12, 1);
    g_assert_cmphex(qtest_readl(qts, TPCC_ER), ==, 0);
    qtest_set_irq_in(qts, CONTROL_PATH, "dma-xbar", 2, 1);
    g_assert_cmphex(qtest_readl(qts, TPCC_ER), ==, 0);
    qtest_set_irq_in(qts, CONTROL_PATH, "dma-xbar", 1, 1);
    g_assert_cmphex(qtest_readl(qts, TPCC_ER), ==, (1u << 12));
    qtest_set_irq_in(qts, CONTROL_PATH, "dma-xbar", 1, 0);
    qtest_writel(qts, TPCC_ECR, (1u << 12));

    /* Back to the direct event, whose request is still up: an edge */
    qtest_writeb(qts, CONTROL_BASE + TPCC_EVT_MUX_12_15, 0);
    g_assert_cmphex(qtest_readl(qts, TPCC_ER), ==, (1u << 12));

    /* Only the 6-bit selects are writable. */
    ctrl_write(qts, TPCC_EVT_MUX_12_15, 0xffffffff);
    g_assert_cmphex(ctrl_read(qts, TPCC_EVT_MUX_12_15), ==, 0x3f3f3f3f);
    qtest_quit(qts);
}

static void add(const char *machine, const char *name, GTestDataFunc fn)
{
    am335x_add_machine_test("control", machine, name, fn);
}

int main(int argc, char **argv)
{
    static const char * const machines[] = { "beaglebone-black",
                                             "am335x-evm" };

    g_test_init(&argc, &argv, NULL);
    for (int i = 0; i < ARRAY_SIZE(machines); i++) {
        add(machines[i], "ident", test_ident);
        add(machines[i], "status", test_status);
        add(machines[i], "mac", test_mac);
        add(machines[i], "pinmux", test_pinmux);
        add(machines[i], "dcan-raminit", test_dcan_raminit);
        add(machines[i], "vtp", test_vtp);
        add(machines[i], "bad-offsets", test_bad_offsets);
        add(machines[i], "dma-crossbar", test_dma_crossbar);
    }
    return g_test_run();
}
