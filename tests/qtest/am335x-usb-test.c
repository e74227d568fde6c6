/*
 * QTest for the TI AM335x USB subsystem: the MUSB controllers (host
 * role) and the CPPI 4.1 DMA
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "libqtest.h"
#include "am335x-qtest.h"
#include "qobject/qdict.h"

#define USBSS_BASE          0x47400000
#define USB_WRAPPER(n)      (0x47401000 + 0x800 * (n))
#define USB_CORE(n)         (USB_WRAPPER(n) + 0x400)
#define CPPI_CTRL           0x47402000
#define CPPI_SCHED          0x47403000
#define CPPI_QMGR           0x47404000
#define DDR                 0x80000000

/* USBSS glue */
#define USBSS_REVREG        0x00
#define USBSS_SYSCONFIG     0x10
#define USBSS_IRQ_STATUS    0x28
#define USBSS_IRQ_ENABLE    0x2c
#define IRQ_PD_CMP          BIT(2)

/* Wrapper */
#define W_REV               0x00
#define W_STAT              0x18
#define W_IRQSTATRAW0       0x28
#define W_IRQSTATRAW1       0x2c
#define W_IRQSTAT0          0x30
#define W_IRQSTAT1          0x34
#define W_IRQENABLESET0     0x38
#define W_IRQENABLESET1     0x3c
#define W_UTMI              0xe0
#define W_MODE              0xe8

/* Core */
#define C_POWER             0x01
#define C_INDEX             0x0e
#define C_TXMAXP            0x10
#define C_CSR0              0x12
#define C_TXCSR             0x12
#define C_RXMAXP            0x14
#define C_RXCSR             0x16
#define C_COUNT0            0x18
#define C_TXTYPE            0x1a
#define C_RXTYPE            0x1c
#define C_CONFIGDATA        0x1f
#define C_FIFO(n)           (0x20 + 4 * (n))
#define C_DEVCTL            0x60
#define C_TXFIFOSZ          0x62
#define C_RXFIFOSZ          0x63
#define C_HWVERS            0x6c
#define C_TXFUNCADDR(n)     (0x80 + 8 * (n))
#define C_RXFUNCADDR(n)     (0x84 + 8 * (n))

#define POWER_RESET         0x08
#define POWER_HSMODE        0x10
#define POWER_HSENAB        0x20
#define CSR0_RXPKTRDY       0x0001
#define CSR0_TXPKTRDY       0x0002
#define CSR0_SETUPPKT       0x0008
#define CSR0_ERROR          0x0010
#define CSR0_REQPKT         0x0020
#define CSR0_STATUSPKT      0x0040
#define CSR0_DIS_PING       0x0800
#define TXCSR_DMAMODE       0x0400
#define TXCSR_DMAENAB       0x1000
#define TXCSR_MODE          0x2000
#define RXCSR_REQPKT        0x0020
#define RXCSR_DMAENAB       0x2000
#define IRQ1_CONNECT        BIT(4)
#define IRQ1_DISCONNECT     BIT(5)
#define IRQ1_DRVVBUS        BIT(8)

/* CPPI 4.1 */
#define DMA_REVID           0x000
#define DMA_TDFDQ           0x004
#define TXGCR(c)            (0x800 + 0x20 * (c))
#define RXGCR(c)            (0x808 + 0x20 * (c))
#define RXHPCRA(c)          (0x80c + 0x20 * (c))
#define SCHED_CTRL          0x000
#define QMGR_LRAM0_BASE     0x080
#define QMGR_LRAM_SIZE      0x084
#define QMGR_PEND(n)        (0x090 + 4 * (n))
#define QMGR_MEMBASE(r)     (0x1000 + 0x10 * (r))
#define QMGR_MEMCTRL(r)     (0x1004 + 0x10 * (r))
#define QUEUE_A(q)          (0x2000 + 0x10 * (q))
#define QUEUE_D(q)          (0x200c + 0x10 * (q))

/* USB1's EP1: DMA channel 15 and its queues (TRM 16.3.9.3) */
#define CH                  15
#define TX_SUBMIT_Q         (32 + 2 * CH)
#define TX_COMPLETE_Q       (110 + CH)
#define RX_FREE_Q           (1 + CH)
#define RX_COMPLETE_Q       (126 + CH)

/* 128 descriptors of 32 bytes at DDR; buffers after them */
#define DESC(i)             (DDR + 32 * (i))
#define BUF(i)              (DDR + 0x10000 + 0x1000 * (i))

/* port=1: on the socket itself, not behind the hub QEMU would add */
#define KBD_ARGS    "-M beaglebone-black " \
                    "-device usb-kbd,bus=usb-bus.1,port=1,id=kbd"
#define STICK_ARGS  "-M beaglebone-black " \
                    "-blockdev null-co,node-name=stick,size=1048576," \
                    "read-zeroes=on -device usb-storage,bus=usb-bus.1,port=1," \
                    "drive=stick,id=msd"

static uint32_t wrap_rd(QTestState *qts, int usb, uint32_t reg)
{
    return qtest_readl(qts, USB_WRAPPER(usb) + reg);
}

static void wrap_wr(QTestState *qts, int usb, uint32_t reg, uint32_t val)
{
    qtest_writel(qts, USB_WRAPPER(usb) + reg, val);
}

static uint8_t core_rdb(QTestState *qts, int usb, uint32_t reg)
{
    return qtest_readb(qts, USB_CORE(usb) + reg);
}

static void core_wrb(QTestState *qts, int usb, uint32_t reg, uint8_t val)
{
    qtest_writeb(qts, USB_CORE(usb) + reg, val);
}

static uint16_t core_rdw(QTestState *qts, int usb, uint32_t reg)
{
    return qtest_readw(qts, USB_CORE(usb) + reg);
}

static void core_wrw(QTestState *qts, int usb, uint32_t reg, uint16_t val)
{
    qtest_writew(qts, USB_CORE(usb) + reg, val);
}

/* USB1 as the A-device with a session: VBUS on, the device connects */
static void start_session(QTestState *qts)
{
    wrap_wr(qts, 1, W_IRQENABLESET0, 0xfffeffff);
    wrap_wr(qts, 1, W_IRQENABLESET1, 0x1f7);
    core_wrb(qts, 1, C_POWER, POWER_HSENAB);
    core_wrb(qts, 1, C_DEVCTL, 0x01);
}

static void port_reset(QTestState *qts)
{
    core_wrb(qts, 1, C_POWER, POWER_HSENAB | POWER_RESET);
    core_wrb(qts, 1, C_POWER, POWER_HSENAB);
}

/* Waits for EP0's interrupt (IRQSTAT0 bit 0) and clears it */
static void wait_ep0(QTestState *qts)
{
    for (int i = 0; i < 1000; i++) {
        if (wrap_rd(qts, 1, W_IRQSTAT0) & 1) {
            wrap_wr(qts, 1, W_IRQSTAT0, 1);
            return;
        }
        qtest_clock_step(qts, 125000);
    }
    g_assert_not_reached();
}

/*
 * A control transfer on EP0 to @addr: SETUP, an IN data stage of up to
 * @len bytes into @data (or none), then the status stage.
 */
static int control_in(QTestState *qts, uint8_t addr, const uint8_t setup[8],
                      uint8_t *data, int len)
{
    int got = 0;

    core_wrb(qts, 1, C_INDEX, 0);
    core_wrb(qts, 1, C_TXFUNCADDR(0), addr);
    for (int i = 0; i < 8; i++) {
        core_wrb(qts, 1, C_FIFO(0), setup[i]);
    }
    core_wrw(qts, 1, C_CSR0, CSR0_SETUPPKT | CSR0_TXPKTRDY);
    wait_ep0(qts);
    g_assert_cmphex(core_rdw(qts, 1, C_CSR0), ==, 0);

    while (got < len) {
        int n;

        core_wrw(qts, 1, C_CSR0, CSR0_REQPKT);
        wait_ep0(qts);
        g_assert_cmphex(core_rdw(qts, 1, C_CSR0), ==, CSR0_RXPKTRDY);
        n = core_rdb(qts, 1, C_COUNT0);
        for (int i = 0; i < n && got < len; i++) {
            data[got++] = core_rdb(qts, 1, C_FIFO(0));
        }
        core_wrw(qts, 1, C_CSR0, 0);
        if (n < 64) {
            break;
        }
    }
    if (len) {
        core_wrw(qts, 1, C_CSR0, CSR0_STATUSPKT | CSR0_TXPKTRDY |
                 CSR0_DIS_PING);
        wait_ep0(qts);
        g_assert_cmphex(core_rdw(qts, 1, C_CSR0) & CSR0_TXPKTRDY, ==, 0);
    } else {
        core_wrw(qts, 1, C_CSR0, CSR0_STATUSPKT | CSR0_REQPKT |
                 CSR0_DIS_PING);
        wait_ep0(qts);
        g_assert_cmphex(core_rdw(qts, 1, C_CSR0) & CSR0_RXPKTRDY, ==,
                        CSR0_RXPKTRDY);
        g_assert_cmpuint(core_rdb(qts, 1, C_COUNT0), ==, 0);
        core_wrw(qts, 1, C_CSR0, 0);
    }
    return got;
}

static void test_reset_values(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    g_assert_cmphex(qtest_readl(qts, USBSS_BASE + USBSS_REVREG), ==,
                    0x4ea2080d);
    g_assert_cmphex(qtest_readl(qts, CPPI_CTRL + DMA_REVID), ==, 0x00530901);
    for (int usb = 0; usb < 2; usb++) {
        g_assert_cmphex(wrap_rd(qts, usb, W_REV), ==, 0x4ea20800);
        g_assert_cmphex(wrap_rd(qts, usb, W_UTMI), ==, 0x00200002);
        g_assert_cmphex(wrap_rd(qts, usb, W_MODE), ==, 0x100);
        g_assert_cmphex(wrap_rd(qts, usb, W_STAT), ==, 0);
        core_wrb(qts, usb, C_INDEX, 0);
        g_assert_cmphex(core_rdb(qts, usb, C_CONFIGDATA), ==, 0xde);
        g_assert_cmphex(core_rdw(qts, usb, C_HWVERS), ==, 0x0800);
        g_assert_cmphex(core_rdb(qts, usb, C_POWER), ==, POWER_HSENAB);
    }
    /* USB0's ID pin floats (B-device), USB1's is grounded (A-device) */
    g_assert_cmphex(core_rdb(qts, 0, C_DEVCTL), ==, 0x80);
    g_assert_cmphex(core_rdb(qts, 1, C_DEVCTL), ==, 0x00);
    /* The ID mux: the wrapper's IDDIG instead of the pin */
    wrap_wr(qts, 0, W_MODE, 0x80);
    g_assert_cmphex(core_rdb(qts, 0, C_DEVCTL), ==, 0x00);
    qtest_quit(qts);
}

static void test_session_without_device(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");
    static const uint8_t get_status[8] = { 0x80, 0, 0, 0, 0, 0, 2, 0 };

    start_session(qts);
    /* VBUS comes up: DRVVBUS and its change interrupt, no connect */
    g_assert_cmphex(wrap_rd(qts, 1, W_STAT), ==, 1);
    g_assert_cmphex(wrap_rd(qts, 1, W_IRQSTAT1), ==, IRQ1_DRVVBUS);
    g_assert_cmphex(core_rdb(qts, 1, C_DEVCTL), ==, 0x19);
    wrap_wr(qts, 1, W_IRQSTAT1, IRQ1_DRVVBUS);
    g_assert_cmphex(wrap_rd(qts, 1, W_IRQSTATRAW1), ==, 0);

    /* Nobody answers a SETUP: ERROR */
    core_wrb(qts, 1, C_INDEX, 0);
    for (int i = 0; i < 8; i++) {
        core_wrb(qts, 1, C_FIFO(0), get_status[i]);
    }
    core_wrw(qts, 1, C_CSR0, CSR0_SETUPPKT | CSR0_TXPKTRDY);
    g_assert_cmphex(wrap_rd(qts, 1, W_IRQSTAT0), ==, 1);
    g_assert_cmphex(core_rdw(qts, 1, C_CSR0), ==, CSR0_ERROR);
    /* ERROR clears on a 0, not on a 1 */
    core_wrw(qts, 1, C_CSR0, CSR0_ERROR);
    g_assert_cmphex(core_rdw(qts, 1, C_CSR0), ==, CSR0_ERROR);
    core_wrw(qts, 1, C_CSR0, 0);
    g_assert_cmphex(core_rdw(qts, 1, C_CSR0), ==, 0);

    /* The session ends: VBUS off, with its change interrupt */
    core_wrb(qts, 1, C_DEVCTL, 0);
    g_assert_cmphex(wrap_rd(qts, 1, W_STAT), ==, 0);
    g_assert_cmphex(core_rdb(qts, 1, C_DEVCTL), ==, 0);
    g_assert_cmphex(wrap_rd(qts, 1, W_IRQSTAT1) & IRQ1_DRVVBUS, ==,
                    IRQ1_DRVVBUS);
    qtest_quit(qts);
}

static void test_enumerate(void)
{
    QTestState *qts = qtest_init(KBD_ARGS);
    static const uint8_t get_device[8] = { 0x80, 6, 0, 1, 0, 0, 18, 0 };
    static const uint8_t set_address[8] = { 0x00, 5, 3, 0, 0, 0, 0, 0 };
    uint8_t desc[18];

    start_session(qts);
    g_assert_cmphex(wrap_rd(qts, 1, W_IRQSTAT1), ==,
                    IRQ1_DRVVBUS | IRQ1_CONNECT);
    /* Host mode, VBUS valid, a full/high-speed device, session */
    g_assert_cmphex(core_rdb(qts, 1, C_DEVCTL), ==, 0x5d);
    wrap_wr(qts, 1, W_IRQSTAT1, 0x1ff);

    port_reset(qts);
    /* usb-kbd runs at high speed: HSMODE after the reset */
    g_assert_cmphex(core_rdb(qts, 1, C_POWER) & POWER_HSMODE, ==,
                    POWER_HSMODE);

    g_assert_cmpint(control_in(qts, 0, get_device, desc, 18), ==, 18);
    g_assert_cmpuint(desc[0], ==, 18);
    g_assert_cmpuint(desc[1], ==, 1);
    /* QEMU's vendor ID and the keyboard's product ID */
    g_assert_cmphex(desc[8] | desc[9] << 8, ==, 0x0627);
    g_assert_cmphex(desc[10] | desc[11] << 8, ==, 0x0001);

    /* At its new address only */
    control_in(qts, 0, set_address, NULL, 0);
    g_assert_cmpint(control_in(qts, 3, get_device, desc, 8), ==, 8);
    g_assert_cmpuint(desc[1], ==, 1);
    core_wrb(qts, 1, C_TXFUNCADDR(0), 0);
    for (int i = 0; i < 8; i++) {
        core_wrb(qts, 1, C_FIFO(0), get_device[i]);
    }
    core_wrw(qts, 1, C_CSR0, CSR0_SETUPPKT | CSR0_TXPKTRDY);
    wait_ep0(qts);
    g_assert_cmphex(core_rdw(qts, 1, C_CSR0), ==, CSR0_ERROR);
    core_wrw(qts, 1, C_CSR0, 0);

    /* Unplugged: DISCONNECT, and DEVCTL back to "session, no device" */
    qtest_qmp_device_del(qts, "kbd");
    g_assert_cmphex(wrap_rd(qts, 1, W_IRQSTAT1), ==, IRQ1_DISCONNECT);
    g_assert_cmphex(core_rdb(qts, 1, C_DEVCTL), ==, 0x19);
    g_assert_cmphex(core_rdb(qts, 1, C_POWER) & POWER_HSMODE, ==, 0);
    qtest_quit(qts);
}

static void qm_setup(QTestState *qts)
{
    /* 128 descriptors of 32 bytes at DDR (REG_SIZE 2: 32 << 2) */
    qtest_writel(qts, CPPI_QMGR + QMGR_LRAM0_BASE, DDR + 0x8000);
    qtest_writel(qts, CPPI_QMGR + QMGR_LRAM_SIZE, 128);
    qtest_writel(qts, CPPI_QMGR + QMGR_MEMBASE(0), DDR);
    qtest_writel(qts, CPPI_QMGR + QMGR_MEMCTRL(0), 2);
    qtest_writel(qts, CPPI_CTRL + DMA_TDFDQ, 31);
    qtest_writel(qts, CPPI_SCHED + SCHED_CTRL, 0x8000003b);
}

static void test_queues(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    qm_setup(qts);
    qtest_writel(qts, USBSS_BASE + USBSS_IRQ_ENABLE, IRQ_PD_CMP);
    qtest_irq_intercept_in(qts, "/machine/soc/intc");

    /* Three descriptors on queue 5, popped in order with their sizes */
    qtest_writel(qts, CPPI_QMGR + QUEUE_D(5), DESC(3) | 2);
    qtest_writel(qts, CPPI_QMGR + QUEUE_D(5), DESC(1) | 2);
    qtest_writel(qts, CPPI_QMGR + QUEUE_D(5), DESC(7) | 5);
    g_assert_cmpuint(qtest_readl(qts, CPPI_QMGR + QUEUE_A(5)), ==, 3);
    g_assert_cmphex(qtest_readl(qts, CPPI_QMGR + QMGR_PEND(0)), ==, BIT(5));
    /* Outside every descriptor region: not queued */
    qtest_writel(qts, CPPI_QMGR + QUEUE_D(5), DDR + 0x100000);
    g_assert_cmpuint(qtest_readl(qts, CPPI_QMGR + QUEUE_A(5)), ==, 3);
    g_assert_cmphex(qtest_readl(qts, CPPI_QMGR + QUEUE_D(5)), ==,
                    DESC(3) | 2);
    g_assert_cmphex(qtest_readl(qts, CPPI_QMGR + QUEUE_D(5)), ==,
                    DESC(1) | 2);
    g_assert_cmphex(qtest_readl(qts, CPPI_QMGR + QUEUE_D(5)), ==,
                    DESC(7) | 5);
    g_assert_cmphex(qtest_readl(qts, CPPI_QMGR + QUEUE_D(5)), ==, 0);
    g_assert_cmphex(qtest_readl(qts, CPPI_QMGR + QMGR_PEND(0)), ==, 0);

    /* A completion queue with a descriptor is the PD_CMP interrupt */
    g_assert_false(qtest_get_irq(qts, 17));
    qtest_writel(qts, CPPI_QMGR + QUEUE_D(TX_COMPLETE_Q), DESC(4) | 2);
    g_assert_cmphex(qtest_readl(qts, CPPI_QMGR + QMGR_PEND(3)), ==,
                    BIT(TX_COMPLETE_Q - 96));
    g_assert_cmphex(qtest_readl(qts, USBSS_BASE + USBSS_IRQ_STATUS), ==,
                    IRQ_PD_CMP);
    g_assert_true(qtest_get_irq(qts, 17));
    /* A write to the status does not clear it while the queue holds one */
    qtest_writel(qts, USBSS_BASE + USBSS_IRQ_STATUS, IRQ_PD_CMP);
    g_assert_true(qtest_get_irq(qts, 17));
    qtest_readl(qts, CPPI_QMGR + QUEUE_D(TX_COMPLETE_Q));
    g_assert_false(qtest_get_irq(qts, 17));
    g_assert_cmphex(qtest_readl(qts, USBSS_BASE + USBSS_IRQ_STATUS), ==, 0);

    /* Teardown: the descriptor from queue 31 comes back on queue 0 */
    qtest_writel(qts, CPPI_QMGR + QUEUE_D(31), DESC(60) | 2);
    qtest_writel(qts, CPPI_CTRL + RXGCR(CH), 0xc1004000);
    g_assert_cmphex(qtest_readl(qts, CPPI_QMGR + QUEUE_D(0)), ==,
                    DESC(60) | 2);
    g_assert_cmphex(qtest_readl(qts, DESC(60)), ==,
                    (19u << 27) | BIT(16) | CH);
    g_assert_cmphex(qtest_readl(qts, CPPI_CTRL + RXGCR(CH)), ==, 0x01004000);
    qtest_quit(qts);
}

/* A host packet descriptor for @len bytes of @buf, returning to @q */
static void write_desc(QTestState *qts, int i, uint32_t buf, uint32_t len,
                       int q)
{
    uint32_t pd[8] = {
        (16u << 27) | len, 0, (5u << 26) | q, len, buf, 0,
        BIT(31) | len, buf,
    };

    for (int w = 0; w < 8; w++) {
        qtest_writel(qts, DESC(i) + 4 * w, pd[w]);
    }
}

/* Waits for a descriptor on completion queue @q and pops it */
static uint32_t wait_completion(QTestState *qts, int q)
{
    for (int i = 0; i < 1000; i++) {
        uint32_t d = qtest_readl(qts, CPPI_QMGR + QUEUE_D(q));

        if (d) {
            return d & ~0x1f;
        }
        qtest_clock_step(qts, 125000);
    }
    g_assert_not_reached();
}

static void test_bulk_dma(void)
{
    QTestState *qts = qtest_init(STICK_ARGS);
    static const uint8_t set_address[8] = { 0x00, 5, 1, 0, 0, 0, 0, 0 };
    static const uint8_t set_config[8] = { 0x00, 9, 1, 0, 0, 0, 0, 0 };
    /* CBW: INQUIRY, 36 bytes in */
    uint8_t cbw[31] = {
        'U', 'S', 'B', 'C', 0x78, 0x56, 0x34, 0x12, 36, 0, 0, 0, 0x80, 0, 6,
        0x12, 0, 0, 0, 36, 0,
    };
    uint8_t inquiry[36];
    uint32_t d, pd0;
    uint16_t maxp;

    start_session(qts);
    port_reset(qts);
    maxp = core_rdb(qts, 1, C_POWER) & POWER_HSMODE ? 512 : 64;
    control_in(qts, 0, set_address, NULL, 0);
    control_in(qts, 1, set_config, NULL, 0);

    /* EP1 TX to the stick's bulk OUT (2), EP1 RX from its bulk IN (1) */
    core_wrb(qts, 1, C_INDEX, 1);
    core_wrb(qts, 1, C_TXFUNCADDR(1), 1);
    core_wrb(qts, 1, C_RXFUNCADDR(1), 1);
    core_wrb(qts, 1, C_TXTYPE, 0x20 | 2);
    core_wrb(qts, 1, C_RXTYPE, 0x20 | 1);
    core_wrw(qts, 1, C_TXMAXP, maxp);
    core_wrw(qts, 1, C_RXMAXP, maxp);
    /* 512-byte FIFOs, as Linux's FIFO table gives EP1 */
    core_wrb(qts, 1, C_TXFIFOSZ, 6);
    core_wrb(qts, 1, C_RXFIFOSZ, 6);

    qm_setup(qts);
    qtest_writel(qts, CPPI_CTRL + RXHPCRA(CH), RX_FREE_Q);
    qtest_writel(qts, CPPI_CTRL + RXGCR(CH), 0x81004000 | RX_COMPLETE_Q);

    /* The CBW by TX DMA: complete once it is on the bus */
    qtest_memwrite(qts, BUF(0), cbw, sizeof(cbw));
    write_desc(qts, 1, BUF(0), sizeof(cbw), TX_COMPLETE_Q);
    qtest_writel(qts, CPPI_CTRL + TXGCR(CH), 0x80000000);
    qtest_writel(qts, CPPI_QMGR + QUEUE_D(TX_SUBMIT_Q), DESC(1) | 2);
    /* No data moves before the endpoint's DMAENAB */
    g_assert_cmpuint(qtest_readl(qts, CPPI_QMGR + QUEUE_A(TX_COMPLETE_Q)), ==,
                     0);
    g_assert_cmphex(core_rdw(qts, 1, C_TXCSR) & 3, ==, 0);
    core_wrw(qts, 1, C_TXCSR, TXCSR_MODE | TXCSR_DMAENAB | TXCSR_DMAMODE);
    g_assert_cmphex(wait_completion(qts, TX_COMPLETE_Q), ==, DESC(1));
    /* The TX descriptor comes back unchanged; no EP1 TX interrupt */
    g_assert_cmphex(qtest_readl(qts, DESC(1)), ==, (16u << 27) | 31);
    g_assert_cmphex(wrap_rd(qts, 1, W_IRQSTAT0) & BIT(1), ==, 0);

    /* The data by RX DMA: one packet, its length in words 0 and 3 */
    write_desc(qts, 2, BUF(1), maxp, RX_COMPLETE_Q);
    qtest_writel(qts, CPPI_QMGR + QUEUE_D(RX_FREE_Q), DESC(2) | 2);
    core_wrw(qts, 1, C_RXCSR, RXCSR_DMAENAB | RXCSR_REQPKT);
    g_assert_cmphex(wait_completion(qts, RX_COMPLETE_Q), ==, DESC(2));
    pd0 = qtest_readl(qts, DESC(2));
    g_assert_cmphex(pd0, ==, (16u << 27) | 36);
    g_assert_cmpuint(qtest_readl(qts, DESC(2) + 12), ==, 36);
    qtest_memread(qts, BUF(1), inquiry, sizeof(inquiry));
    g_assert_cmpmem(inquiry + 8, 4, "QEMU", 4);
    /* The DMA took the packet: RXPKTRDY is clear, no RX interrupt */
    g_assert_cmphex(core_rdw(qts, 1, C_RXCSR) & 1, ==, 0);
    g_assert_cmphex(wrap_rd(qts, 1, W_IRQSTAT0) & BIT(17), ==, 0);

    /* The CSW, with the tag of the CBW */
    write_desc(qts, 3, BUF(2), maxp, RX_COMPLETE_Q);
    qtest_writel(qts, CPPI_QMGR + QUEUE_D(RX_FREE_Q), DESC(3) | 2);
    core_wrw(qts, 1, C_RXCSR, RXCSR_DMAENAB | RXCSR_REQPKT);
    d = wait_completion(qts, RX_COMPLETE_Q);
    g_assert_cmphex(d, ==, DESC(3));
    g_assert_cmphex(qtest_readl(qts, DESC(3)), ==, (16u << 27) | 13);
    g_assert_cmphex(qtest_readl(qts, BUF(2)), ==, 0x53425355);
    g_assert_cmphex(qtest_readl(qts, BUF(2) + 4), ==, 0x12345678);
    g_assert_cmpuint(qtest_readb(qts, BUF(2) + 12), ==, 0);

    /* A packet with no free descriptor waits (starvation retry) */
    core_wrw(qts, 1, C_RXCSR, 0);
    qtest_quit(qts);
}

/*
 * With timing=on a transaction ends when its packets have crossed the
 * wire: at 480 Mb/s, a SETUP's 8 bytes plus the 55 bytes of protocol
 * overhead take 1050 ns, the descriptor's 18 bytes 1216 ns.
 */
static void test_bus_timing(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black,timing=on "
                                 "-device usb-kbd,bus=usb-bus.1,port=1");
    static const uint8_t get_device[8] = { 0x80, 6, 0, 1, 0, 0, 18, 0 };

    start_session(qts);
    port_reset(qts);
    wrap_wr(qts, 1, W_IRQSTAT1, 0x1ff);
    core_wrb(qts, 1, C_INDEX, 0);
    for (int i = 0; i < 8; i++) {
        core_wrb(qts, 1, C_FIFO(0), get_device[i]);
    }
    core_wrw(qts, 1, C_CSR0, CSR0_SETUPPKT | CSR0_TXPKTRDY);
    qtest_clock_step(qts, 1049);
    g_assert_cmphex(core_rdw(qts, 1, C_CSR0) & CSR0_TXPKTRDY, ==,
                    CSR0_TXPKTRDY);
    g_assert_cmphex(wrap_rd(qts, 1, W_IRQSTAT0), ==, 0);
    qtest_clock_step(qts, 1);
    g_assert_cmphex(core_rdw(qts, 1, C_CSR0), ==, 0);
    g_assert_cmphex(wrap_rd(qts, 1, W_IRQSTAT0), ==, 1);
    wrap_wr(qts, 1, W_IRQSTAT0, 1);

    core_wrw(qts, 1, C_CSR0, CSR0_REQPKT);
    qtest_clock_step(qts, 1215);
    g_assert_cmphex(core_rdw(qts, 1, C_CSR0), ==, CSR0_REQPKT);
    qtest_clock_step(qts, 1);
    g_assert_cmphex(core_rdw(qts, 1, C_CSR0), ==, CSR0_RXPKTRDY);
    g_assert_cmpuint(core_rdb(qts, 1, C_COUNT0), ==, 18);
    qtest_quit(qts);
}

static void test_migration(void)
{
    QTestState *qts = qtest_init(KBD_ARGS);
    static const uint8_t get_device[8] = { 0x80, 6, 0, 1, 0, 0, 18, 0 };
    uint8_t desc[18];

    start_session(qts);
    port_reset(qts);
    wrap_wr(qts, 1, W_IRQSTAT1, 0x1ff);
    qm_setup(qts);
    qtest_writel(qts, CPPI_QMGR + QUEUE_D(9), DESC(5) | 2);

    qts = am335x_migrate(qts, KBD_ARGS);
    g_assert_cmphex(core_rdb(qts, 1, C_DEVCTL), ==, 0x5d);
    g_assert_cmphex(wrap_rd(qts, 1, W_STAT), ==, 1);
    g_assert_cmpuint(qtest_readl(qts, CPPI_QMGR + QUEUE_A(9)), ==, 1);
    g_assert_cmphex(qtest_readl(qts, CPPI_QMGR + QUEUE_D(9)), ==,
                    DESC(5) | 2);
    g_assert_cmpint(control_in(qts, 0, get_device, desc, 18), ==, 18);
    g_assert_cmphex(desc[8] | desc[9] << 8, ==, 0x0627);
    qtest_quit(qts);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);

    qtest_add_func("/am335x-usb/reset-values", test_reset_values);
    qtest_add_func("/am335x-usb/session-without-device",
                   test_session_without_device);
    qtest_add_func("/am335x-usb/enumerate", test_enumerate);
    qtest_add_func("/am335x-usb/queues", test_queues);
    qtest_add_func("/am335x-usb/bulk-dma", test_bulk_dma);
    qtest_add_func("/am335x-usb/bus-timing", test_bus_timing);
    qtest_add_func("/am335x-usb/migration", test_migration);
    return g_test_run();
}
