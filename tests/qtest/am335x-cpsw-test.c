/*
 * QTest for the TI AM335x CPSW Ethernet switch subsystem: identification
 * values, MDIO and the PHYs, the ALE table, CPDMA transmit and receive
 * through a hub that loops port 1 to port 2, teardown and host errors.
 *
 * Interrupt lines are watched at the INTC's raw inputs (ITRn).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/sockets.h"
#include "libqtest.h"
#include "am335x-qtest.h"

#define CPSW            0x4a100000
#define SS_ID_VER       (CPSW + 0x000)
#define SS_CONTROL      (CPSW + 0x004)
#define P2_PORT_VLAN    (CPSW + 0x314)
#define SS_SOFT_RESET   (CPSW + 0x008)
#define SS_STAT_PORT_EN (CPSW + 0x00c)
#define P0_MAX_BLKS     (CPSW + 0x108)
#define P1_MAX_BLKS     (CPSW + 0x208)
#define CPDMA           (CPSW + 0x800)
#define TX_IDVER        (CPDMA + 0x00)
#define TX_CONTROL      (CPDMA + 0x04)
#define TX_TEARDOWN     (CPDMA + 0x08)
#define RX_CONTROL      (CPDMA + 0x14)
#define CPDMA_SOFT_RESET (CPDMA + 0x1c)
#define DMASTATUS       (CPDMA + 0x24)
#define TX_INTSTAT_RAW  (CPDMA + 0x80)
#define TX_INTMASK_SET  (CPDMA + 0x88)
#define RX_INTSTAT_RAW  (CPDMA + 0xa0)
#define RX_INTMASK_SET  (CPDMA + 0xa8)
#define DMA_INTSTAT_RAW (CPDMA + 0xb0)
#define DMA_INTMASK_SET (CPDMA + 0xb8)
#define RX_FREEBUFFER(n) (CPDMA + 0xe0 + 4 * (n))
#define STATS           (CPSW + 0x900)
#define RXGOODFRAMES    (STATS + 0x00)
#define RXBROADCAST     (STATS + 0x04)
#define RXOVERSIZED     (STATS + 0x18)
#define RXUNDERSIZED    (STATS + 0x20)
#define RXOCTETS        (STATS + 0x30)
#define TXGOODFRAMES    (STATS + 0x34)
#define RXSOFOVERRUNS   (STATS + 0x84)
#define RXDMAOVERRUNS   (STATS + 0x8c)
#define TX_HDP(n)       (CPSW + 0xa00 + 4 * (n))
#define RX_HDP(n)       (CPSW + 0xa20 + 4 * (n))
#define TX_CP(n)        (CPSW + 0xa40 + 4 * (n))
#define RX_CP(n)        (CPSW + 0xa60 + 4 * (n))
#define CPTS_IDVER      (CPSW + 0xc00)
#define CPTS_CONTROL    (CPSW + 0xc04)
#define CPTS_TS_PUSH    (CPSW + 0xc0c)
#define CPTS_INTSTAT_RAW (CPSW + 0xc20)
#define CPTS_EVENT_POP  (CPSW + 0xc30)
#define CPTS_EVENT_LOW  (CPSW + 0xc34)
#define ALE             (CPSW + 0xd00)
#define ALE_IDVER       (ALE + 0x00)
#define ALE_CONTROL     (ALE + 0x08)
#define ALE_UNKNOWN_VLAN (ALE + 0x18)
#define ALE_TBLCTL      (ALE + 0x20)
#define ALE_TBLW(n)     (ALE + 0x3c - 4 * (n))
#define ALE_PORTCTL(n)  (ALE + 0x40 + 4 * (n))
#define SL_MACCONTROL(n) (CPSW + 0xd84 + 0x40 * ((n) - 1))
#define SL_RX_MAXLEN(n) (CPSW + 0xd90 + 0x40 * ((n) - 1))
#define MDIO            (CPSW + 0x1000)
#define MDIO_VERSION    (MDIO + 0x00)
#define MDIO_CONTROL    (MDIO + 0x04)
#define MDIO_ALIVE      (MDIO + 0x08)
#define MDIO_LINK       (MDIO + 0x0c)
#define MDIO_USERACCESS0 (MDIO + 0x80)
#define WR              (CPSW + 0x1200)
#define WR_IDVER        (WR + 0x00)
#define WR_SOFT_RESET   (WR + 0x04)
#define WR_CONTROL      (WR + 0x08)
#define WR_INT_CONTROL  (WR + 0x0c)
#define WR_C0_RX_EN     (WR + 0x14)
#define WR_C0_TX_EN     (WR + 0x18)
#define WR_C0_MISC_EN   (WR + 0x1c)
#define WR_C0_RX_STAT   (WR + 0x44)
#define WR_C0_TX_STAT   (WR + 0x48)
#define WR_C0_TX_IMAX   (WR + 0x74)
#define CPPI_RAM        (CPSW + 0x2000)

#define IRQ_RX          41
#define IRQ_TX          42
#define IRQ_MISC        43
#define INTC_ITR(bank)  (0x48200080 + 0x20 * (bank))

#define DESC_SOP        (1u << 31)
#define DESC_EOP        (1u << 30)
#define DESC_OWNER      (1u << 29)
#define DESC_EOQ        (1u << 28)
#define DESC_TO_PORT_EN (1u << 20)
#define RX_VLAN_ENCAP_FLAG (1u << 19)

#define ALE_ENABLE      BIT(31)
#define ALE_AGE_OUT_NOW BIT(29)
#define ALE_P0_UNI_FLOOD BIT(8)
#define ALE_BYPASS      BIT(4)
#define ALE_VLAN_AWARE  BIT(2)
#define DROP_UNKNOWN_VLAN BIT(3)

#define DDR             0x80000000

static bool irq_line(QTestState *qts, int line)
{
    return qtest_readl(qts, INTC_ITR(line / 32)) & BIT(line % 32);
}

/*
 * The TX interrupt line stays low until the last microsecond before @us
 * from now and is high at @us.
 */
static void assert_tx_irq_at_us(QTestState *qts, int64_t us)
{
    g_assert_false(irq_line(qts, IRQ_TX));
    qtest_clock_step(qts, (us - 1) * 1000);
    g_assert_false(irq_line(qts, IRQ_TX));
    qtest_clock_step(qts, 1000);
    g_assert_true(irq_line(qts, IRQ_TX));
}

static void write_desc(QTestState *qts, uint32_t addr, uint32_t next,
                       uint32_t buf, uint32_t len, uint32_t mode)
{
    qtest_writel(qts, addr, next);
    qtest_writel(qts, addr + 4, buf);
    qtest_writel(qts, addr + 8, len);
    qtest_writel(qts, addr + 12, mode);
}

static uint16_t mdio_read(QTestState *qts, int phy, int reg)
{
    uint32_t v;

    qtest_writel(qts, MDIO_USERACCESS0,
                 BIT(31) | (reg << 21) | (phy << 16));
    v = qtest_readl(qts, MDIO_USERACCESS0);
    g_assert_false(v & BIT(31));            /* GO cleared: done */
    if (!(v & BIT(29))) {
        return 0xffff;                      /* no ACK: no PHY */
    }
    return v & 0xffff;
}

static void test_ids(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    g_assert_cmphex(qtest_readl(qts, SS_ID_VER), ==, 0x00190112);
    g_assert_cmphex(qtest_readl(qts, WR_IDVER), ==, 0x4edb1902);
    g_assert_cmphex(qtest_readl(qts, ALE_IDVER), ==, 0x00290104);
    g_assert_cmphex(qtest_readl(qts, MDIO_VERSION), ==, 0x00070106);
    g_assert_cmphex(qtest_readl(qts, TX_IDVER), ==, 0x00180108);
    g_assert_cmphex(qtest_readl(qts, CPTS_IDVER), ==, 0x4e8a0101);

    /* The target module's SYSCONFIG keeps its idle modes; resets finish. */
    qtest_writel(qts, WR_CONTROL, 0xa);
    g_assert_cmphex(qtest_readl(qts, WR_CONTROL), ==, 0xa);
    qtest_writel(qts, WR_SOFT_RESET, 1);
    g_assert_cmphex(qtest_readl(qts, WR_SOFT_RESET), ==, 0);
    qtest_writel(qts, CPDMA_SOFT_RESET, 1);
    g_assert_cmphex(qtest_readl(qts, CPDMA_SOFT_RESET), ==, 0);
    g_assert_cmphex(qtest_readl(qts, DMASTATUS), ==, 0x80000000);

    /* The CPTS counts once enabled; a push lands in the event FIFO. */
    qtest_writel(qts, CPTS_CONTROL, 1);
    qtest_clock_step(qts, 1000);
    qtest_writel(qts, CPTS_TS_PUSH, 1);
    g_assert_cmphex(qtest_readl(qts, CPTS_INTSTAT_RAW), ==, 1);
    g_assert_cmpuint(qtest_readl(qts, CPTS_EVENT_LOW), >=, 250);
    qtest_writel(qts, CPTS_EVENT_POP, 1);
    g_assert_cmphex(qtest_readl(qts, CPTS_INTSTAT_RAW), ==, 0);
    qtest_quit(qts);
}

static void test_mdio(const void *data)
{
    const char *machine = data;
    bool evm = !strcmp(machine, "am335x-evm");
    QTestState *qts = qtest_initf("-M %s -nic none", machine);

    g_assert_cmphex(qtest_readl(qts, MDIO_ALIVE), ==, 0);
    qtest_writel(qts, MDIO_CONTROL, BIT(30) | 0xff);
    g_assert_cmphex(qtest_readl(qts, MDIO_ALIVE), ==, 1);
    g_assert_cmphex(mdio_read(qts, 0, 2), ==, evm ? 0x004d : 0x0007);
    g_assert_cmphex(mdio_read(qts, 0, 3), ==, evm ? 0xd074 : 0xc0f1);
    g_assert_cmphex(mdio_read(qts, 5, 2), ==, 0xffff);
    /* No netdev: no link.  BMSR: autonegotiation able, 100BASE-TX. */
    g_assert_cmphex(mdio_read(qts, 0, 1) & 0x6028, ==, 0x6008);
    g_assert_cmphex(qtest_readl(qts, MDIO_LINK), ==, 0);
    qtest_quit(qts);
}

static void test_mdio_link(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black "
                                 "-netdev hubport,hubid=0,id=h0 "
                                 "-net nic,netdev=h0");

    qtest_writel(qts, MDIO_CONTROL, BIT(30) | 0xff);
    g_assert_cmphex(mdio_read(qts, 0, 1) & 0x24, ==, 0x24);
    g_assert_cmphex(qtest_readl(qts, MDIO_LINK), ==, 1);
    qtest_qmp_assert_success(qts, "{ 'execute': 'set_link', 'arguments': "
                             "{ 'name': 'h0', 'up': false } }");
    g_assert_cmphex(mdio_read(qts, 0, 1) & 0x4, ==, 0);
    g_assert_cmphex(qtest_readl(qts, MDIO_LINK), ==, 0);
    qtest_quit(qts);
}

static void test_ale_table(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    qtest_writel(qts, ALE_TBLW(0), 0xdeadbeef);
    qtest_writel(qts, ALE_TBLW(1), 0x10203040);
    qtest_writel(qts, ALE_TBLW(2), 0xffffffff);
    qtest_writel(qts, ALE_TBLCTL, BIT(31) | 1000);
    qtest_writel(qts, ALE_TBLW(0), 0);
    qtest_writel(qts, ALE_TBLW(1), 0);
    qtest_writel(qts, ALE_TBLW(2), 0);
    qtest_writel(qts, ALE_TBLCTL, 1000);
    g_assert_cmphex(qtest_readl(qts, ALE_TBLW(0)), ==, 0xdeadbeef);
    g_assert_cmphex(qtest_readl(qts, ALE_TBLW(1)), ==, 0x10203040);
    g_assert_cmphex(qtest_readl(qts, ALE_TBLW(2)), ==, 0xff); /* 68 bits */
    /* Another entry is untouched; CLEAR_TABLE empties them all. */
    qtest_writel(qts, ALE_TBLCTL, 999);
    g_assert_cmphex(qtest_readl(qts, ALE_TBLW(0)), ==, 0);
    qtest_writel(qts, ALE_CONTROL, BIT(31) | BIT(30));
    g_assert_cmphex(qtest_readl(qts, ALE_CONTROL), ==, BIT(31));
    qtest_writel(qts, ALE_TBLCTL, 1000);
    g_assert_cmphex(qtest_readl(qts, ALE_TBLW(0)), ==, 0);
    qtest_quit(qts);
}

/* Ports 1 and 2 on one hub: what port 1 sends, port 2 receives. */
#define LOOP_ARGS "-netdev hubport,hubid=0,id=h1 " \
                  "-netdev hubport,hubid=0,id=h2 " \
                  "-net nic,netdev=h1 -net nic,netdev=h2"

static QTestState *start_loop_on(const char *machine)
{
    QTestState *qts = qtest_initf("-M %s " LOOP_ARGS, machine);

    qtest_writel(qts, SS_STAT_PORT_EN, 7);
    qtest_writel(qts, SL_MACCONTROL(1), BIT(5));
    qtest_writel(qts, SL_MACCONTROL(2), BIT(5));
    /* ALE on, in bypass: every frame from a slave port goes to the host */
    qtest_writel(qts, ALE_CONTROL, BIT(31) | BIT(4));
    for (int p = 0; p < 3; p++) {
        qtest_writel(qts, ALE_PORTCTL(p), 3);
    }
    qtest_writel(qts, TX_CONTROL, 1);
    qtest_writel(qts, RX_CONTROL, 1);
    qtest_writel(qts, TX_INTMASK_SET, 0xff);
    qtest_writel(qts, RX_INTMASK_SET, 0xff);
    qtest_writel(qts, DMA_INTMASK_SET, 2);
    qtest_writel(qts, WR_C0_RX_EN, 0xff);
    qtest_writel(qts, WR_C0_TX_EN, 0xff);
    qtest_writel(qts, WR_C0_MISC_EN, 0x4);
    return qts;
}

static QTestState *start_loop(void)
{
    return start_loop_on("beaglebone-black");
}

static void test_tx_rx(void)
{
    QTestState *qts = start_loop();
    uint32_t txd = CPPI_RAM, rxd = CPPI_RAM + 0x100, rxd2 = CPPI_RAM + 0x110;
    uint8_t frame[100], got[100];
    uint32_t mode;

    for (int i = 0; i < sizeof(frame); i++) {
        frame[i] = i < 6 ? 0xff : i * 7;
    }
    qtest_memwrite(qts, DDR, frame, sizeof(frame));

    /* Two RX buffers in the CPPI RAM, the first too short for the frame */
    write_desc(qts, rxd, rxd2, DDR + 0x1000, 64, DESC_OWNER);
    write_desc(qts, rxd2, 0, DDR + 0x2000, 1520, DESC_OWNER);
    qtest_writel(qts, RX_FREEBUFFER(0), 2);
    qtest_writel(qts, RX_HDP(0), rxd);

    /* One frame to port 1, from a descriptor in the CPPI RAM */
    write_desc(qts, txd, 0, DDR, sizeof(frame), DESC_SOP | DESC_EOP |
               DESC_OWNER | DESC_TO_PORT_EN | (1 << 16) | sizeof(frame));
    qtest_writel(qts, TX_HDP(0), txd);

    g_assert_cmphex(qtest_readl(qts, TX_CP(0)), ==, txd);
    g_assert_cmphex(qtest_readl(qts, TX_HDP(0)), ==, 0);
    mode = qtest_readl(qts, txd + 12);
    g_assert_false(mode & DESC_OWNER);
    g_assert_true(mode & DESC_EOQ);
    g_assert_cmphex(qtest_readl(qts, TX_INTSTAT_RAW), ==, 1);
    g_assert_true(irq_line(qts, IRQ_TX));
    qtest_writel(qts, TX_CP(0), txd);
    g_assert_cmphex(qtest_readl(qts, TX_INTSTAT_RAW), ==, 0);
    g_assert_false(irq_line(qts, IRQ_TX));

    /* The hub delivers it to port 2 from a bottom half. */
    for (int i = 0; i < 100 && !qtest_readl(qts, RX_INTSTAT_RAW); i++) {
        qtest_clock_step(qts, 1000);
    }
    g_assert_cmphex(qtest_readl(qts, RX_INTSTAT_RAW), ==, 1);
    g_assert_true(irq_line(qts, IRQ_RX));
    g_assert_cmphex(qtest_readl(qts, WR_C0_RX_STAT), ==, 1);
    g_assert_cmphex(qtest_readl(qts, RX_CP(0)), ==, rxd2);
    g_assert_cmphex(qtest_readl(qts, RX_HDP(0)), ==, 0);
    mode = qtest_readl(qts, rxd + 12);
    g_assert_cmphex(mode, ==, DESC_SOP | (2 << 16) | sizeof(frame));
    g_assert_cmphex(qtest_readl(qts, rxd + 8), ==, 64);
    mode = qtest_readl(qts, rxd2 + 12);
    g_assert_cmphex(mode, ==, DESC_EOP | DESC_EOQ);
    g_assert_cmphex(qtest_readl(qts, rxd2 + 8), ==, sizeof(frame) - 64);
    qtest_memread(qts, DDR + 0x1000, got, 64);
    qtest_memread(qts, DDR + 0x2000, got + 64, sizeof(frame) - 64);
    g_assert_cmpmem(got, sizeof(got), frame, sizeof(frame));
    g_assert_cmpuint(qtest_readl(qts, RX_FREEBUFFER(0)), ==, 0);

    /* Acknowledging an older descriptor leaves the interrupt raised. */
    qtest_writel(qts, RX_CP(0), rxd);
    g_assert_true(irq_line(qts, IRQ_RX));
    qtest_writel(qts, RX_CP(0), rxd2);
    g_assert_false(irq_line(qts, IRQ_RX));
    /* The wrapper's enable gates the line. */
    qtest_writel(qts, WR_C0_TX_EN, 0);

    /* Statistics: port 1 sent, port 2 received, the host both. */
    g_assert_cmpuint(qtest_readl(qts, TXGOODFRAMES), ==, 2);
    g_assert_cmpuint(qtest_readl(qts, RXGOODFRAMES), ==, 2);
    g_assert_cmpuint(qtest_readl(qts, RXBROADCAST), ==, 2);
    g_assert_cmpuint(qtest_readl(qts, RXOCTETS), ==, 2 * 104);
    qtest_writel(qts, RXGOODFRAMES, 2);     /* write to decrement */
    g_assert_cmpuint(qtest_readl(qts, RXGOODFRAMES), ==, 0);
    qtest_quit(qts);
}

static void send_one(QTestState *qts, uint32_t txd)
{
    write_desc(qts, txd, 0, DDR, 64, DESC_SOP | DESC_EOP | DESC_OWNER |
               DESC_TO_PORT_EN | (1 << 16) | 64);
    qtest_writel(qts, TX_HDP(0), txd);
    g_assert_cmphex(qtest_readl(qts, TX_INTSTAT_RAW), ==, 1);
}

/* A TX packet sent and acknowledged: one interrupt event for the pacer */
static void send_and_ack(QTestState *qts, uint32_t txd)
{
    send_one(qts, txd);
    qtest_writel(qts, TX_CP(0), txd);
}

/*
 * TX pacing on with IMAX 4, and a first window of 9 events (above 2 IMAX):
 * the next window blocks the line whole.
 */
static QTestState *start_tx_paced_busy(uint32_t txd)
{
    QTestState *qts = start_loop();

    qtest_writel(qts, WR_C0_TX_IMAX, 4);
    qtest_writel(qts, WR_INT_CONTROL, BIT(17) | 500);
    for (int i = 0; i < 9; i++) {
        send_and_ack(qts, txd);
    }
    return qts;
}

/*
 * Pacing C0_TX with IMAX 4, in windows of 250 pulses of 500 main clocks
 * (4 us at 125 MHz, so 1 ms): the pacer blocks the line for the first
 * pace_counter pulses of each window, lets a held interrupt out at the
 * window's end, and sets the next counter from the window's events, one
 * per packet completion routed to the line: above 2 IMAX, 255; any at or
 * below IMAX / 2, half; none, 0.
 */
static void test_pacing(void)
{
    QTestState *qts = start_loop();
    uint32_t txd = CPPI_RAM;

    qtest_writel(qts, WR_C0_TX_IMAX, 4);
    qtest_writel(qts, WR_INT_CONTROL, BIT(17) | 500);

    /* window 1: nothing blocked; 9 events (above 8) */
    for (int i = 0; i < 9; i++) {
        send_one(qts, txd);
        g_assert_true(irq_line(qts, IRQ_TX));
        qtest_writel(qts, TX_CP(0), txd);
        g_assert_false(irq_line(qts, IRQ_TX));
    }

    /* window 2 blocks all of its 250 pulses: out at its end */
    qtest_clock_step(qts, 1000 * 1000);
    send_one(qts, txd);
    g_assert_cmphex(qtest_readl(qts, WR_C0_TX_STAT), ==, 1);
    assert_tx_irq_at_us(qts, 1000);
    qtest_writel(qts, TX_CP(0), txd);

    /* window 2 had 1 event: window 3 blocks 127 pulses, 508 us */
    send_one(qts, txd);
    assert_tx_irq_at_us(qts, 508);
    qtest_writel(qts, TX_CP(0), txd);

    /* quiet windows: the block falls to 0 */
    qtest_clock_step(qts, 3 * 1000 * 1000);
    send_one(qts, txd);
    g_assert_true(irq_line(qts, IRQ_TX));
    qtest_writel(qts, TX_CP(0), txd);

    /*
     * Completions the wrapper does not route to the line (C0_TX_EN
     * clear) are no events: 9 of them leave the next window open.
     */
    qtest_writel(qts, WR_INT_CONTROL, 0);
    qtest_writel(qts, WR_INT_CONTROL, BIT(17) | 500);
    qtest_writel(qts, WR_C0_TX_EN, 0);
    for (int i = 0; i < 9; i++) {
        send_and_ack(qts, txd);
    }
    qtest_writel(qts, WR_C0_TX_EN, 0xff);
    qtest_clock_step(qts, 1000 * 1000);
    send_one(qts, txd);
    g_assert_true(irq_line(qts, IRQ_TX));
    qtest_writel(qts, TX_CP(0), txd);

    /* Pacing off for TX (RX's enable alone): no hold. */
    for (int i = 0; i < 9; i++) {
        send_and_ack(qts, txd);
    }
    qtest_writel(qts, WR_INT_CONTROL, BIT(16) | 500);
    qtest_clock_step(qts, 1000 * 1000);
    send_one(qts, txd);
    g_assert_true(irq_line(qts, IRQ_TX));
    qtest_quit(qts);
}

/*
 * A rise that comes after a window has ended unseen (no event since) is
 * paced by the window it falls in: here a completion left pending while
 * C0_TX_EN was clear, routed to the line in the middle of a whole-window
 * block, waits for that window's end.
 */
static void test_pacing_late_rise(void)
{
    uint32_t txd = CPPI_RAM;
    QTestState *qts = start_tx_paced_busy(txd);

    qtest_writel(qts, WR_C0_TX_EN, 0);
    send_one(qts, txd);
    g_assert_false(irq_line(qts, IRQ_TX));
    qtest_clock_step(qts, 1500 * 1000);
    qtest_writel(qts, WR_C0_TX_EN, 0xff);
    assert_tx_irq_at_us(qts, 500);
    qtest_quit(qts);
}

/*
 * The pacer's state migrates: an interrupt held by a whole-window block
 * before the migration goes out at that window's end after it.
 */
static void test_pacing_migration(void)
{
    uint32_t txd = CPPI_RAM;
    QTestState *qts = start_tx_paced_busy(txd);
    int64_t now;

    qtest_clock_step(qts, 1000 * 1000);
    send_one(qts, txd);
    now = qtest_clock_step(qts, 400 * 1000);
    g_assert_false(irq_line(qts, IRQ_TX));

    qts = am335x_migrate(qts, "-M beaglebone-black " LOOP_ARGS);
    /*
     * qtest's virtual clock starts again at 0 in the destination (a real
     * migration carries it): bring it back to where the source's was.
     */
    qtest_clock_step(qts, now);
    g_assert_cmphex(qtest_readl(qts, WR_C0_TX_STAT), ==, 1);
    assert_tx_irq_at_us(qts, 600);
    qtest_quit(qts);
}

/*
 * timing=on: a 1514-byte frame (1518 with its FCS) takes 8 + 1518 + 12
 * byte times on the wire with preamble, SFD and inter-frame gap.  Its TX
 * completion comes when it has left the wire, not before; the frame the
 * loop brings into port 2 reaches memory once its last byte has come in.
 * The EVM's AR8031 resolves 1000 Mbit/s; MACCONTROL picks the MAC's rate.
 */
typedef struct WireCase {
    uint32_t maccontrol;
    int64_t wire_ns;            /* (8 + 1518 + 12) * 8 bits at the rate */
    int64_t rx_ns;              /* (8 + 1518) * 8: the frame's last bit */
} WireCase;

static const WireCase wire_100 = { BIT(5) | BIT(15), 123040, 122080 };
static const WireCase wire_1000 = { BIT(5) | BIT(7), 12304, 12208 };

static void test_wire_timing(const void *data)
{
    const WireCase *wc = data;
    QTestState *qts = start_loop_on("am335x-evm,timing=on");
    uint32_t txd = CPPI_RAM, rxd = CPPI_RAM + 0x100;
    const uint32_t len = 1514;
    /*
     * Slack for the CPDMA's fetch before the MAC starts the frame (TX),
     * and for its last write (RX; less than the gap at 1000 Mbit/s)
     */
    const int64_t slack = 1000, rx_slack = 50;
    int64_t t;

    qtest_writel(qts, SL_MACCONTROL(1), wc->maccontrol);
    qtest_writel(qts, SL_MACCONTROL(2), wc->maccontrol);
    write_desc(qts, rxd, 0, DDR + 0x1000, 1520, DESC_OWNER);
    qtest_writel(qts, RX_HDP(0), rxd);

    write_desc(qts, txd, 0, DDR, len, DESC_SOP | DESC_EOP | DESC_OWNER |
               DESC_TO_PORT_EN | (1 << 16) | len);
    qtest_writel(qts, TX_HDP(0), txd);

    /* Nothing is done before the frame's last bit is in. */
    qtest_clock_step(qts, wc->rx_ns - 1);
    t = wc->rx_ns - 1;
    g_assert_cmphex(qtest_readl(qts, RX_INTSTAT_RAW), ==, 0);
    g_assert_cmphex(qtest_readl(qts, TX_INTSTAT_RAW), ==, 0);
    g_assert_true(qtest_readl(qts, txd + 12) & DESC_OWNER);
    g_assert_cmphex(qtest_readl(qts, TX_HDP(0)), ==, txd);
    g_assert_false(irq_line(qts, IRQ_TX));
    /* The MAC is busy while the frame is on the wire. */
    g_assert_false(qtest_readl(qts, CPSW + 0xd88) & BIT(31));

    /* Port 2 has it in memory right after its last bit. */
    qtest_clock_step(qts, rx_slack);
    t += rx_slack;
    g_assert_cmphex(qtest_readl(qts, RX_INTSTAT_RAW), ==, 1);
    g_assert_cmphex(qtest_readl(qts, rxd + 12) & 0x7ff, ==, len);

    /* TX completes after the gap too has passed, not before. */
    qtest_clock_step(qts, wc->wire_ns - 1 - t);
    g_assert_cmphex(qtest_readl(qts, TX_INTSTAT_RAW), ==, 0);
    g_assert_true(qtest_readl(qts, txd + 12) & DESC_OWNER);
    qtest_clock_step(qts, slack);
    g_assert_cmphex(qtest_readl(qts, TX_INTSTAT_RAW), ==, 1);
    g_assert_cmphex(qtest_readl(qts, TX_CP(0)), ==, txd);
    g_assert_cmphex(qtest_readl(qts, TX_HDP(0)), ==, 0);
    g_assert_true(qtest_readl(qts, txd + 12) & DESC_EOQ);
    g_assert_false(qtest_readl(qts, txd + 12) & DESC_OWNER);
    g_assert_true(irq_line(qts, IRQ_TX));
    g_assert_true(qtest_readl(qts, CPSW + 0xd88) & BIT(31));
    qtest_writel(qts, TX_CP(0), txd);

    /* Two frames queue behind each other on the wire. */
    write_desc(qts, txd, txd + 0x10, DDR, len, DESC_SOP | DESC_EOP |
               DESC_OWNER | DESC_TO_PORT_EN | (1 << 16) | len);
    write_desc(qts, txd + 0x10, 0, DDR, len, DESC_SOP | DESC_EOP |
               DESC_OWNER | DESC_TO_PORT_EN | (1 << 16) | len);
    qtest_writel(qts, TX_HDP(0), txd);
    qtest_clock_step(qts, wc->wire_ns + slack);
    g_assert_cmphex(qtest_readl(qts, TX_CP(0)), ==, txd);
    qtest_clock_step(qts, wc->wire_ns - 2 * slack);
    g_assert_cmphex(qtest_readl(qts, TX_CP(0)), ==, txd);
    qtest_clock_step(qts, 2 * slack);
    g_assert_cmphex(qtest_readl(qts, TX_CP(0)), ==, txd + 0x10);
    g_assert_true(qtest_readl(qts, txd + 0x1c) & DESC_EOQ);
    qtest_quit(qts);
}

/*
 * timing=on: frames for the host that find no RX buffer wait in port 0's
 * transmit FIFO, P0_MAX_BLKS.TX_MAX_BLKS blocks of 1 KB (16 at reset);
 * the ones that find it full are dropped and counted in RXSOFOVERRUNS.
 * A buffer posted later takes the waiting frames, in order.
 */
static void test_host_fifo(void)
{
    QTestState *qts = start_loop_on("am335x-evm,timing=on");
    const uint32_t len = 1514, nframes = 12, fit = 16 * 1024 / len;
    uint32_t txd = CPPI_RAM, rxd = CPPI_RAM + 0x400;
    uint8_t frame[1514];

    g_assert_cmphex(qtest_readl(qts, P0_MAX_BLKS), ==, 0x104);
    g_assert_cmphex(qtest_readl(qts, P1_MAX_BLKS), ==, 0x104);
    qtest_writel(qts, SL_MACCONTROL(1), BIT(5) | BIT(7));
    qtest_writel(qts, SL_MACCONTROL(2), BIT(5) | BIT(7));
    for (uint32_t i = 0; i < nframes; i++) {
        memset(frame, 0xff, 6);
        memset(frame + 6, i + 1, sizeof(frame) - 6);
        qtest_memwrite(qts, DDR + i * 0x800, frame, len);
        write_desc(qts, txd + 0x10 * i,
                   i + 1 < nframes ? txd + 0x10 * (i + 1) : 0,
                   DDR + i * 0x800, len, DESC_SOP | DESC_EOP | DESC_OWNER |
                   DESC_TO_PORT_EN | (1 << 16) | len);
    }
    qtest_writel(qts, TX_HDP(0), txd);
    /* All of them have crossed both wires (12.3 us each at 1000 Mbit/s). */
    qtest_clock_step(qts, (nframes + 2) * 12304);
    g_assert_cmphex(qtest_readl(qts, TX_CP(0)), ==, txd + 0x10 * (nframes - 1));
    g_assert_cmpuint(qtest_readl(qts, RXSOFOVERRUNS), ==, nframes - fit);
    g_assert_cmphex(qtest_readl(qts, RX_INTSTAT_RAW), ==, 0);

    /* Buffers for all: the FIFO's frames come in, in order, and no more. */
    for (uint32_t i = 0; i < nframes; i++) {
        write_desc(qts, rxd + 0x10 * i,
                   i + 1 < nframes ? rxd + 0x10 * (i + 1) : 0,
                   DDR + 0x10000 + i * 0x800, 1520, DESC_OWNER);
    }
    qtest_writel(qts, RX_HDP(0), rxd);
    for (int i = 0; i < 200 && !qtest_readl(qts, RX_INTSTAT_RAW); i++) {
        qtest_clock_step(qts, 1000);
        g_usleep(1000);
    }
    qtest_clock_step(qts, 10000);
    g_assert_cmphex(qtest_readl(qts, RX_CP(0)), ==, rxd + 0x10 * (fit - 1));
    for (uint32_t i = 0; i < nframes; i++) {
        uint32_t mode = qtest_readl(qts, rxd + 0x10 * i + 12);

        if (i < fit) {
            g_assert_false(mode & DESC_OWNER);
            g_assert_cmpuint(mode & 0x7ff, ==, len);
            g_assert_cmpuint(qtest_readb(qts, DDR + 0x10000 + i * 0x800 + 6),
                             ==, i + 1);
        } else {
            g_assert_true(mode & DESC_OWNER);
        }
    }
    g_assert_cmpuint(qtest_readl(qts, RXDMAOVERRUNS), ==, 0);

    /*
     * Four more: two take the buffers left, two wait in the FIFO.  A soft
     * reset of the switch drops those: a buffer posted after it stays free.
     */
    qtest_writel(qts, RX_CP(0), rxd + 0x10 * (fit - 1));
    qtest_writel(qts, TX_CP(0), txd + 0x10 * (nframes - 1));
    write_desc(qts, txd + 0x10 * (nframes - 1), 0, DDR, len, DESC_SOP |
               DESC_EOP | DESC_OWNER | DESC_TO_PORT_EN | (1 << 16) | len);
    for (uint32_t i = 0; i < 3; i++) {
        write_desc(qts, txd + 0x10 * i, txd + 0x10 * (i + 1), DDR, len,
                   DESC_SOP | DESC_EOP | DESC_OWNER | DESC_TO_PORT_EN |
                   (1 << 16) | len);
    }
    write_desc(qts, txd + 0x30, 0, DDR, len, DESC_SOP | DESC_EOP |
               DESC_OWNER | DESC_TO_PORT_EN | (1 << 16) | len);
    qtest_writel(qts, TX_HDP(0), txd);
    qtest_clock_step(qts, 6 * 12304);
    g_assert_cmphex(qtest_readl(qts, TX_CP(0)), ==, txd + 0x30);
    g_assert_cmphex(qtest_readl(qts, RX_CP(0)), ==, rxd + 0x10 * (nframes - 1));
    g_assert_cmpuint(qtest_readl(qts, RXSOFOVERRUNS), ==, nframes - fit);
    qtest_writel(qts, RX_CP(0), rxd + 0x10 * (nframes - 1));
    qtest_writel(qts, SS_SOFT_RESET, 1);
    write_desc(qts, rxd, 0, DDR + 0x10000, 1520, DESC_OWNER);
    qtest_writel(qts, RX_HDP(0), rxd);
    qtest_clock_step(qts, 10000);
    g_assert_true(qtest_readl(qts, rxd + 12) & DESC_OWNER);
    g_assert_cmphex(qtest_readl(qts, RX_HDP(0)), ==, rxd);
    qtest_quit(qts);
}

static void test_teardown(void)
{
    QTestState *qts = start_loop();
    uint32_t rxd = CPPI_RAM + 0x100;

    write_desc(qts, rxd, 0, DDR + 0x1000, 1520, DESC_OWNER);
    qtest_writel(qts, RX_HDP(1), rxd);
    qtest_writel(qts, CPDMA + 0x18, 1);     /* RX_TEARDOWN channel 1 */
    g_assert_cmphex(qtest_readl(qts, RX_HDP(1)), ==, 0);
    g_assert_cmphex(qtest_readl(qts, RX_CP(1)), ==, 0xfffffffc);
    g_assert_cmphex(qtest_readl(qts, RX_INTSTAT_RAW), ==, 2);
    qtest_writel(qts, RX_CP(1), 0xfffffffc);
    g_assert_cmphex(qtest_readl(qts, RX_INTSTAT_RAW), ==, 0);

    qtest_writel(qts, TX_TEARDOWN, 3);
    g_assert_cmphex(qtest_readl(qts, TX_CP(3)), ==, 0xfffffffc);
    g_assert_true(irq_line(qts, IRQ_TX));
    qtest_writel(qts, TX_CP(3), 0xfffffffc);
    g_assert_false(irq_line(qts, IRQ_TX));
    /* A channel number out of range is ignored. */
    qtest_writel(qts, TX_TEARDOWN, 8);
    g_assert_cmphex(qtest_readl(qts, TX_INTSTAT_RAW), ==, 0);
    qtest_quit(qts);
}

/*
 * Sends a 64-byte frame from DDR, directed to port 1, by the TX descriptor
 * at @txd, and waits for the DMA's host-error interrupt.
 */
static void send_to_port1_until_host_error(QTestState *qts, uint32_t txd)
{
    write_desc(qts, txd, 0, DDR, 64,
               DESC_SOP | DESC_EOP | DESC_OWNER | DESC_TO_PORT_EN |
               (1 << 16) | 64);
    qtest_writel(qts, TX_HDP(0), txd);
    for (int i = 0; i < 100 && !qtest_readl(qts, DMA_INTSTAT_RAW); i++) {
        qtest_clock_step(qts, 1000);
    }
}

static void test_host_error(void)
{
    QTestState *qts = start_loop();
    uint32_t txd = CPPI_RAM;

    /* A descriptor the host does not own: TX host error 2 on channel 5 */
    write_desc(qts, txd, 0, DDR, 64, DESC_SOP | DESC_EOP | 64);
    qtest_writel(qts, TX_HDP(5), txd);
    g_assert_cmphex(qtest_readl(qts, DMASTATUS), ==,
                    0x80000000 | (2 << 20) | (5 << 16));
    g_assert_cmphex(qtest_readl(qts, DMA_INTSTAT_RAW), ==, 2);
    g_assert_true(irq_line(qts, IRQ_MISC));
    /* The DMA stays stopped until a soft reset. */
    write_desc(qts, txd, 0, DDR, 64, DESC_SOP | DESC_EOP | DESC_OWNER | 64);
    qtest_writel(qts, TX_HDP(0), txd);
    g_assert_cmphex(qtest_readl(qts, TX_CP(0)), ==, 0);
    qtest_writel(qts, CPDMA_SOFT_RESET, 1);
    g_assert_cmphex(qtest_readl(qts, DMASTATUS), ==, 0x80000000);
    g_assert_false(irq_line(qts, IRQ_MISC));

    /* Pointers to nowhere, misaligned, or into a loop: no crash. */
    qtest_writel(qts, TX_CONTROL, 1);
    qtest_writel(qts, TX_HDP(1), 0xfffffff0);
    g_assert_cmphex(qtest_readl(qts, DMASTATUS) >> 20 & 0xf, ==, 1);
    qtest_writel(qts, CPDMA_SOFT_RESET, 1);
    qtest_writel(qts, TX_CONTROL, 1);
    qtest_writel(qts, TX_HDP(1), CPPI_RAM + 2);
    g_assert_cmphex(qtest_readl(qts, DMASTATUS) >> 20 & 0xf, ==, 1);
    qtest_writel(qts, CPDMA_SOFT_RESET, 1);
    qtest_writel(qts, TX_CONTROL, 1);
    /* A chain without EOP that points back at itself */
    write_desc(qts, txd, txd, DDR, 64, DESC_SOP | DESC_OWNER | 64);
    qtest_writel(qts, TX_HDP(2), txd);
    g_assert_cmphex(qtest_readl(qts, DMASTATUS) >> 20 & 0xf, ==, 6);
    qtest_writel(qts, CPDMA_SOFT_RESET, 1);
    qtest_writel(qts, TX_CONTROL, 1);
    /* A packet length beyond what its buffer holds: packet length error */
    write_desc(qts, txd, 0, DDR, 64, DESC_SOP | DESC_EOP | DESC_OWNER | 100);
    qtest_writel(qts, TX_HDP(3), txd);
    g_assert_cmphex(qtest_readl(qts, DMASTATUS), ==,
                    0x80000000 | (6 << 20) | (3 << 16));
    g_assert_cmphex(qtest_readl(qts, TX_CP(3)), ==, 0);
    qtest_writel(qts, CPDMA_SOFT_RESET, 1);
    qtest_writel(qts, TX_CONTROL, 1);
    /*
     * A buffer that runs off the end of EMIF0's 1 GiB window (the 512 MiB
     * of DDR repeat through it; nothing answers after it)
     */
    write_desc(qts, txd, 0, DDR + 0x40000000 - 16, 64,
               DESC_SOP | DESC_EOP | DESC_OWNER | 64);
    qtest_writel(qts, TX_HDP(4), txd);
    g_assert_cmphex(qtest_readl(qts, DMASTATUS) >> 16 & 0xff, ==, 0x44);
    g_assert_cmphex(qtest_readl(qts, DMA_INTSTAT_RAW), ==, 2);
    qtest_writel(qts, CPDMA_SOFT_RESET, 1);

    /* RX into a buffer that is not there */
    qtest_writel(qts, RX_CONTROL, 1);
    write_desc(qts, txd, 0, 0, 1520, DESC_OWNER);
    qtest_writel(qts, RX_HDP(0), txd);
    qtest_writel(qts, TX_CONTROL, 1);
    send_to_port1_until_host_error(qts, txd + 0x40);
    g_assert_cmphex(qtest_readl(qts, DMASTATUS) >> 12 & 0xf, ==, 4);

    /*
     * An RX list that loops on itself, its buffer too short for the
     * frame: the DMA comes back to the descriptor it just filled, which
     * the host no longer owns.
     */
    qtest_writel(qts, CPDMA_SOFT_RESET, 1);
    qtest_writel(qts, DMA_INTMASK_SET, 2);
    qtest_writel(qts, RX_CONTROL, 1);
    qtest_writel(qts, TX_CONTROL, 1);
    write_desc(qts, txd, txd, DDR + 0x1000, 32, DESC_OWNER);
    qtest_writel(qts, RX_HDP(1), txd);
    qtest_writel(qts, CPSW + 0x120, 0x11111111);    /* P0_CPDMA_RX_CH_MAP */
    send_to_port1_until_host_error(qts, txd + 0x40);
    g_assert_cmphex(qtest_readl(qts, DMASTATUS) >> 8 & 0xff, ==, 0x21);
    g_assert_true(irq_line(qts, IRQ_MISC));
    qtest_quit(qts);
}

/* An ALE table entry as its three TBLW words, w[0] = bits 95:64 */
static void ale_write(QTestState *qts, int idx, const uint32_t w[3])
{
    for (int i = 0; i < 3; i++) {
        qtest_writel(qts, ALE + 0x34 + 4 * i, w[i]);
    }
    qtest_writel(qts, ALE_TBLCTL, BIT(31) | idx);
}

static void ale_read(QTestState *qts, int idx, uint32_t w[3])
{
    qtest_writel(qts, ALE_TBLCTL, idx);
    for (int i = 0; i < 3; i++) {
        w[i] = qtest_readl(qts, ALE + 0x34 + 4 * i);
    }
}

/* A VLAN entry: members, unregistered/registered multicast, untagged */
static void ale_vlan(QTestState *qts, int idx, int vid, uint32_t members,
                     uint32_t unreg, uint32_t reg, uint32_t untag)
{
    uint32_t w[3] = { 0, (2u << 28) | (vid << 16),
                      members | unreg << 8 | reg << 16 | untag << 24 };

    ale_write(qts, idx, w);
}

/* A multicast address entry, in VLAN @vid, to the ports in @mask */
static void ale_mcast(QTestState *qts, int idx, const uint8_t *mac, int vid,
                      uint32_t mask)
{
    uint32_t w[3] = { mask << 2, (3u << 28) | (vid << 16) | mac[0] << 8 |
                      mac[1], ldl_be_p(mac + 2) };

    ale_write(qts, idx, w);
}

/*
 * Port 1 sends @frame, directed, to the hub; port 2 receives it and the
 * ALE decides whether the host gets it.  Returns the received length, or
 * 0 when nothing arrived.
 */
static size_t loop_frame(QTestState *qts, const uint8_t *frame, size_t len,
                         uint8_t *got)
{
    uint32_t txd = CPPI_RAM, rxd = CPPI_RAM + 0x100, cp;
    size_t n = 0;

    qtest_memwrite(qts, DDR, frame, len);
    write_desc(qts, rxd, 0, DDR + 0x1000, 1520, DESC_OWNER);
    qtest_writel(qts, RX_HDP(0), rxd);
    write_desc(qts, txd, 0, DDR, len, DESC_SOP | DESC_EOP | DESC_OWNER |
               DESC_TO_PORT_EN | (1 << 16) | len);
    qtest_writel(qts, TX_HDP(0), txd);
    g_assert_cmphex(qtest_readl(qts, TX_INTSTAT_RAW), ==, 1);
    qtest_writel(qts, TX_CP(0), txd);
    for (int i = 0; i < 20 && !qtest_readl(qts, RX_INTSTAT_RAW); i++) {
        qtest_clock_step(qts, 1000);
    }
    if (qtest_readl(qts, RX_INTSTAT_RAW)) {
        cp = qtest_readl(qts, RX_CP(0));
        g_assert_cmphex(cp, ==, rxd);
        n = qtest_readl(qts, rxd + 12) & 0x7ff;
        qtest_memread(qts, DDR + 0x1000, got, n);
        qtest_writel(qts, RX_CP(0), cp);
    } else {
        /* Take the unused buffer back for the next frame. */
        qtest_writel(qts, CPDMA + 0x18, 0);
        qtest_writel(qts, RX_CP(0), 0xfffffffc);
    }
    return n;
}

/*
 * The ALE's forwarding rules in VLAN-aware mode, as the receiving port 2
 * and the host port see them: VLAN ingress filtering, unknown unicast
 * flooding the host only with P0_UNI_FLOOD, unregistered multicast going
 * by the VLAN's mask and registered multicast by its entry, the egress
 * untag of the VLAN, and ageing of the learned source address.
 */
static void test_ale_forward(void)
{
    QTestState *qts = start_loop();
    static const uint8_t group[6] = { 0x01, 0x00, 0x5e, 0x01, 0x02, 0x03 };
    static const uint8_t host[6] = { 0x02, 0, 0, 0, 0, 0x10 };
    uint8_t frame[64] = { 0 }, got[1520];
    uint32_t w[3];
    int learned = -1;

    /* Ports 0 and 2 in VLAN 5, the host untagged; nothing else known */
    qtest_writel(qts, ALE_CONTROL, ALE_ENABLE | ALE_VLAN_AWARE);
    qtest_writel(qts, SS_CONTROL, BIT(1));
    qtest_writel(qts, ALE_PORTCTL(2), 3 | DROP_UNKNOWN_VLAN);
    ale_vlan(qts, 0, 5, 0x5, 0, 0x5, 0x1);

    /* Unknown unicast, tagged for VLAN 5, from 02:00:00:00:00:22 */
    memcpy(frame, host, 6);
    memcpy(frame + 6, (uint8_t[]){ 0x02, 0, 0, 0, 0, 0x22 }, 6);
    stw_be_p(frame + 12, 0x8100);
    stw_be_p(frame + 14, 5);
    stw_be_p(frame + 16, 0x88b5);
    g_assert_cmpuint(loop_frame(qts, frame, 64, got), ==, 0);
    qtest_writel(qts, ALE_CONTROL, ALE_ENABLE | ALE_VLAN_AWARE |
                 ALE_P0_UNI_FLOOD);
    g_assert_cmpuint(loop_frame(qts, frame, 64, got), ==, 60);
    /* ... untagged on the way to the host */
    g_assert_cmpmem(got, 12, frame, 12);
    g_assert_cmphex(lduw_be_p(got + 12), ==, 0x88b5);

    /*
     * With RX_VLAN_ENCAP the host gets the frame as it came, tag and all,
     * behind a word with its VLAN and type (0: VLAN tagged), and the
     * descriptor says so.
     */
    qtest_writel(qts, SS_CONTROL, BIT(1) | BIT(2));
    g_assert_cmpuint(loop_frame(qts, frame, 64, got), ==, 68);
    g_assert_cmphex(ldl_le_p(got), ==, 5 << 16 | 0 << 8);
    g_assert_cmpmem(got + 4, 64, frame, 64);
    g_assert_cmphex(qtest_readl(qts, CPPI_RAM + 0x100 + 12) &
                    RX_VLAN_ENCAP_FLAG, ==, RX_VLAN_ENCAP_FLAG);

    /*
     * Untagged from port 2, whose port VLAN is 5 (priority 3): the word
     * says untagged (3); without the word, the host port, not in VLAN 5's
     * untagged mask now, gets the tag inserted.
     */
    qtest_writel(qts, P2_PORT_VLAN, 3 << 13 | 5);
    stw_be_p(frame + 12, 0x88b5);
    g_assert_cmpuint(loop_frame(qts, frame, 60, got), ==, 64);
    g_assert_cmphex(ldl_le_p(got), ==, 3u << 29 | 5 << 16 | 3 << 8);
    qtest_writel(qts, SS_CONTROL, BIT(1));
    ale_vlan(qts, 0, 5, 0x5, 0, 0x5, 0x0);
    g_assert_cmpuint(loop_frame(qts, frame, 60, got), ==, 64);
    g_assert_cmpmem(got, 12, frame, 12);
    g_assert_cmphex(lduw_be_p(got + 12), ==, 0x8100);
    g_assert_cmphex(lduw_be_p(got + 14), ==, 3 << 13 | 5);
    g_assert_cmphex(lduw_be_p(got + 16), ==, 0x88b5);
    ale_vlan(qts, 0, 5, 0x5, 0, 0x5, 0x1);
    qtest_writel(qts, P2_PORT_VLAN, 0);
    stw_be_p(frame + 12, 0x8100);

    /* VLAN 6 has no entry: dropped at ingress, even when flooding */
    stw_be_p(frame + 14, 6);
    g_assert_cmpuint(loop_frame(qts, frame, 64, got), ==, 0);
    /* The same without DROP_UNKNOWN_VLAN: the unknown-VLAN members rule */
    qtest_writel(qts, ALE_PORTCTL(2), 3);
    qtest_writel(qts, ALE_UNKNOWN_VLAN, 0x3);
    g_assert_cmpuint(loop_frame(qts, frame, 64, got), ==, 0);
    qtest_writel(qts, ALE_UNKNOWN_VLAN, 0x5);
    g_assert_cmpuint(loop_frame(qts, frame, 64, got), ==, 64);

    /* VLAN 7 without port 2: dropped at ingress */
    ale_vlan(qts, 1, 7, 0x3, 0x3, 0x3, 0);
    stw_be_p(frame + 14, 7);
    g_assert_cmpuint(loop_frame(qts, frame, 64, got), ==, 0);

    /* Multicast in VLAN 5: unregistered floods per the VLAN's mask (none) */
    memcpy(frame, group, 6);
    stw_be_p(frame + 14, 5);
    g_assert_cmpuint(loop_frame(qts, frame, 64, got), ==, 0);
    ale_mcast(qts, 2, group, 5, 0x1);
    g_assert_cmpuint(loop_frame(qts, frame, 64, got), ==, 60);
    /* Registered, but the VLAN's registered mask leaves the host out */
    ale_vlan(qts, 0, 5, 0x5, 0, 0x4, 0x1);
    g_assert_cmpuint(loop_frame(qts, frame, 64, got), ==, 0);
    /* Port 2 not forwarding (learning): not even registered multicast */
    ale_vlan(qts, 0, 5, 0x5, 0, 0x5, 0x1);
    qtest_writel(qts, ALE_PORTCTL(2), 2);
    g_assert_cmpuint(loop_frame(qts, frame, 64, got), ==, 0);
    qtest_writel(qts, ALE_PORTCTL(2), 3);

    /* The source 02:..:22 was learned on port 2 in VLAN 5; it ages out. */
    for (int i = 0; i < 1024 && learned < 0; i++) {
        ale_read(qts, i, w);
        if ((w[1] >> 28 & 3) == 3 && (w[1] >> 16 & 0xfff) == 5 &&
            w[2] == 0x00000022 && (w[1] & 0xffff) == 0x0200) {
            learned = i;
        }
    }
    g_assert_cmpint(learned, >=, 0);
    g_assert_cmphex(w[0] >> 2 & 3, ==, 2);      /* port 2 */
    g_assert_cmphex(w[1] >> 30, ==, 3);         /* ageable, touched */
    qtest_writel(qts, ALE_CONTROL, ALE_ENABLE | ALE_AGE_OUT_NOW);
    ale_read(qts, learned, w);
    g_assert_cmphex(w[1] >> 30, ==, 1);         /* ageable, not touched */
    qtest_writel(qts, ALE_CONTROL, ALE_ENABLE | ALE_AGE_OUT_NOW);
    ale_read(qts, learned, w);
    g_assert_cmphex(w[1] >> 28 & 3, ==, 0);     /* free */
    /* The multicast entry does not age. */
    ale_read(qts, 2, w);
    g_assert_cmphex(w[1] >> 28 & 3, ==, 3);
    qtest_quit(qts);
}

#ifndef _WIN32
/* One frame into port 1 through the socket netdev's stream framing */
static void sock_send(int fd, const uint8_t *buf, uint32_t len)
{
    uint32_t be = cpu_to_be32(len);

    g_assert_cmpint(send(fd, &be, 4, 0), ==, 4);
    g_assert_cmpint(send(fd, buf, len, 0), ==, len);
}

static uint32_t wait_stat(QTestState *qts, uint32_t reg, uint32_t old)
{
    for (int i = 0; i < 200 && qtest_readl(qts, reg) == old; i++) {
        qtest_clock_step(qts, 10000);
        g_usleep(1000);
    }
    return qtest_readl(qts, reg);
}

/*
 * Frames from the backend that no wire carries: shorter than 64 bytes
 * with the FCS (undersized) or longer than RX_MAXLEN (oversized) are
 * counted and dropped by the MAC; short ones pass with RX_CSF_EN.
 */
static void test_bad_frames(void)
{
    int sv[2];
    QTestState *qts;
    uint8_t buf[1600];
    uint32_t rxd = CPPI_RAM + 0x100;

    g_assert_cmpint(socketpair(PF_UNIX, SOCK_STREAM, 0, sv), ==, 0);
    qts = qtest_initf("-M beaglebone-black -netdev socket,fd=%d,id=s0 "
                      "-net nic,netdev=s0", sv[1]);
    qtest_writel(qts, SS_STAT_PORT_EN, 7);
    qtest_writel(qts, SL_MACCONTROL(1), BIT(5));
    qtest_writel(qts, ALE_CONTROL, ALE_ENABLE | ALE_BYPASS);
    for (int p = 0; p < 3; p++) {
        qtest_writel(qts, ALE_PORTCTL(p), 3);
    }
    qtest_writel(qts, RX_CONTROL, 1);
    write_desc(qts, rxd, 0, DDR + 0x1000, 1520, DESC_OWNER);
    qtest_writel(qts, RX_HDP(0), rxd);
    memset(buf, 0xff, 6);
    memset(buf + 6, 0x02, sizeof(buf) - 6);

    sock_send(sv[0], buf, 59);
    g_assert_cmpuint(wait_stat(qts, RXUNDERSIZED, 0), ==, 1);
    sock_send(sv[0], buf, 1515);    /* 1519 bytes with the FCS */
    g_assert_cmpuint(wait_stat(qts, RXOVERSIZED, 0), ==, 1);
    g_assert_cmpuint(qtest_readl(qts, RXGOODFRAMES), ==, 0);
    g_assert_cmphex(qtest_readl(qts, RX_INTSTAT_RAW), ==, 0);

    /* A longer RX_MAXLEN takes it; a good frame reaches the host. */
    qtest_writel(qts, SL_RX_MAXLEN(1), 1522);
    sock_send(sv[0], buf, 1515);
    g_assert_cmpuint(wait_stat(qts, RXGOODFRAMES, 0), ==, 1);
    g_assert_cmphex(qtest_readl(qts, RX_INTSTAT_RAW), ==, 1);
    g_assert_cmpuint(qtest_readl(qts, rxd + 12) & 0x7ff, ==, 1515);
    qtest_writel(qts, RX_CP(0), rxd);

    /* With RX_CSF_EN, a short frame is kept, as it is. */
    qtest_writel(qts, SL_MACCONTROL(1), BIT(5) | BIT(23));
    write_desc(qts, rxd, 0, DDR + 0x1000, 1520, DESC_OWNER);
    qtest_writel(qts, RX_HDP(0), rxd);
    sock_send(sv[0], buf, 42);
    g_assert_cmpuint(wait_stat(qts, RXGOODFRAMES, 1), ==, 2);
    g_assert_cmpuint(qtest_readl(qts, rxd + 12) & 0x7ff, ==, 42);
    g_assert_cmpuint(qtest_readl(qts, RXUNDERSIZED), ==, 1);
    g_assert_cmpuint(qtest_readl(qts, RXOVERSIZED), ==, 1);
    qtest_quit(qts);
    close(sv[0]);
}
#endif

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);

    qtest_add_func("/am335x-cpsw/ids", test_ids);
    qtest_add_data_func("/am335x-cpsw/mdio/beaglebone-black",
                        "beaglebone-black", test_mdio);
    qtest_add_data_func("/am335x-cpsw/mdio/am335x-evm", "am335x-evm",
                        test_mdio);
    qtest_add_func("/am335x-cpsw/mdio-link", test_mdio_link);
    qtest_add_func("/am335x-cpsw/ale-table", test_ale_table);
    qtest_add_func("/am335x-cpsw/tx-rx", test_tx_rx);
    qtest_add_func("/am335x-cpsw/pacing", test_pacing);
    qtest_add_func("/am335x-cpsw/pacing-late-rise", test_pacing_late_rise);
    qtest_add_func("/am335x-cpsw/pacing-migration", test_pacing_migration);
    qtest_add_data_func("/am335x-cpsw/wire-timing/100", &wire_100,
                        test_wire_timing);
    qtest_add_data_func("/am335x-cpsw/wire-timing/1000", &wire_1000,
                        test_wire_timing);
    qtest_add_func("/am335x-cpsw/host-fifo", test_host_fifo);
    qtest_add_func("/am335x-cpsw/teardown", test_teardown);
    qtest_add_func("/am335x-cpsw/host-error", test_host_error);
    qtest_add_func("/am335x-cpsw/ale-forward", test_ale_forward);
#ifndef _WIN32
    qtest_add_func("/am335x-cpsw/bad-frames", test_bad_frames);
#endif
    return g_test_run();
}
