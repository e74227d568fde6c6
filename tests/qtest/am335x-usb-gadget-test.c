/*
 * QTest: USB0 of the AM335x as the peripheral (gadget), with the PC that
 * "-net nic,model=usb-gadget" puts on its socket
 *
 * The test is the gadget's driver: it answers the PC's enumeration on
 * EP0 with a CDC ECM function's descriptors, as Linux's musb_gadget_ep0
 * does with the registers, then moves Ethernet frames through the bulk
 * endpoints while the other end of the netdev (a socket pair) checks
 * them.  As a mass storage function it serves the PC's SCSI commands
 * from a disk in the test's memory.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/bswap.h"
#include "qobject/qdict.h"
#include "am335x-qtest.h"

#define USB_WRAPPER         0x47401000
#define USB_CORE            (USB_WRAPPER + 0x400)

#define W_IRQSTATRAW0       0x28
#define W_IRQSTATRAW1       0x2c
#define W_IRQSTAT0          0x30
#define W_IRQSTAT1          0x34
#define W_MODE              0xe8
#define MODE_IDDIG          BIT(8)
#define MODE_IDDIG_MUX      BIT(7)
#define IRQ1_RESET          BIT(2)

#define C_FADDR             0x00
#define C_POWER             0x01
#define C_INDEX             0x0e
#define C_TXMAXP            0x10
#define C_CSR0              0x12
#define C_TXCSR             0x12
#define C_RXMAXP            0x14
#define C_RXCSR             0x16
#define C_COUNT0            0x18
#define C_FIFO(n)           (0x20 + 4 * (n))
#define C_DEVCTL            0x60
#define C_TXFIFOSZ          0x62
#define C_RXFIFOSZ          0x63

#define POWER_HSMODE        0x10
#define POWER_HSENAB        0x20
#define POWER_SOFTCONN      0x40
#define CSR0_RXPKTRDY       0x0001
#define CSR0_TXPKTRDY       0x0002
#define CSR0_SENTSTALL      0x0004
#define CSR0_DATAEND        0x0008
#define CSR0_SENDSTALL      0x0020
#define CSR0_SVDRXPKTRDY    0x0040
#define TXCSR_TXPKTRDY      0x0001
#define RXCSR_RXPKTRDY      0x0001
#define RXCSR_SENDSTALL     0x0020
#define RXCSR_SENTSTALL     0x0040

#define IRQ0_EP0            BIT(0)
#define IRQ0_TX1            BIT(1)
#define IRQ0_RX1            BIT(17)

#define FIFOSZ_512          6       /* 8 << 6 bytes */

static const uint8_t device_desc[18] = {
    18, 1, 0x00, 0x02, 2, 0, 0, 64, 0x6b, 0x1d, 0x04, 0x01, 0x00, 0x01,
    0, 0, 0, 1,
};

/* A CDC ECM function: control interface 0, data interface 1 (alt 1) */
static const uint8_t config_desc[80] = {
    9, 2, 80, 0, 2, 1, 0, 0xc0, 1,
    9, 4, 0, 0, 1, 2, 6, 0, 0,          /* communications, ECM */
    5, 0x24, 0x00, 0x10, 0x01,          /* CDC header */
    5, 0x24, 0x06, 0, 1,                /* Union: 0 controls 1 */
    13, 0x24, 0x0f, 4, 0, 0, 0, 0, 0xea, 0x05, 0, 0, 0,   /* Ethernet */
    7, 5, 0x82, 3, 16, 0, 9,            /* notifications */
    9, 4, 1, 0, 0, 0x0a, 0, 0, 0,       /* data, alt 0: no endpoints */
    9, 4, 1, 1, 2, 0x0a, 0, 0, 0,       /* data, alt 1 */
    7, 5, 0x81, 2, 0x00, 0x02, 0,       /* bulk IN 512 */
    7, 5, 0x01, 2, 0x00, 0x02, 0,       /* bulk OUT 512 */
};

/* A CDC ACM function: control interface 0 (ACM), data interface 1 */
static const uint8_t acm_config[67] = {
    9, 2, 67, 0, 2, 1, 0, 0xc0, 1,
    9, 4, 0, 0, 1, 2, 2, 1, 0,          /* communications, ACM */
    5, 0x24, 0x00, 0x10, 0x01,          /* CDC header */
    5, 0x24, 0x01, 0x00, 1,             /* call management */
    4, 0x24, 0x02, 0x02,                /* ACM */
    5, 0x24, 0x06, 0, 1,                /* Union: 0 controls 1 */
    7, 5, 0x82, 3, 10, 0, 9,            /* notifications */
    9, 4, 1, 0, 2, 0x0a, 0, 0, 0,       /* data */
    7, 5, 0x81, 2, 0x00, 0x02, 0,       /* bulk IN 512 */
    7, 5, 0x01, 2, 0x00, 0x02, 0,       /* bulk OUT 512 */
};

/* A mass storage function (SCSI, Bulk-Only): interface 0 */
static const uint8_t msc_config[32] = {
    9, 2, 32, 0, 1, 1, 0, 0xc0, 1,
    9, 4, 0, 0, 2, 8, 6, 0x50, 0,       /* mass storage, SCSI, BOT */
    7, 5, 0x81, 2, 0x00, 0x02, 0,       /* bulk IN 512 */
    7, 5, 0x01, 2, 0x00, 0x02, 0,       /* bulk OUT 512 */
};

static uint8_t rdb(QTestState *qts, uint32_t reg)
{
    return qtest_readb(qts, USB_CORE + reg);
}

static void wrb(QTestState *qts, uint32_t reg, uint8_t val)
{
    qtest_writeb(qts, USB_CORE + reg, val);
}

static uint16_t rdw(QTestState *qts, uint32_t reg)
{
    return qtest_readw(qts, USB_CORE + reg);
}

static void wrw(QTestState *qts, uint32_t reg, uint16_t val)
{
    qtest_writew(qts, USB_CORE + reg, val);
}

/*
 * Steps virtual time until IRQSTATRAW@n has @bit, then clears it; in
 * steps of 10 us, or 1 ms when waiting for longer than 10 ms.
 */
static bool wait_irq(QTestState *qts, int n, uint32_t bit, int64_t max_ns)
{
    int64_t step = max_ns > 10000000 ? 1000000 : 10000;

    for (int64_t t = 0; t <= max_ns; t += step) {
        if (qtest_readl(qts, USB_WRAPPER + W_IRQSTATRAW0 + 4 * n) & bit) {
            qtest_writel(qts, USB_WRAPPER + W_IRQSTAT0 + 4 * n, bit);
            return true;
        }
        qtest_clock_step(qts, step);
    }
    return false;
}

/* EP0's interrupt, within 150 ms, in fine steps: no later one mixes in */
static void wait_ep0(QTestState *qts)
{
    for (int i = 0; i < 15; i++) {
        if (wait_irq(qts, 0, IRQ0_EP0, 10 * 1000 * 1000)) {
            return;
        }
    }
    g_assert_not_reached();
}

/* The next SETUP: it must be @want */
static void expect_setup(QTestState *qts, const uint8_t *want)
{
    uint8_t req[8];

    wait_ep0(qts);
    wrb(qts, C_INDEX, 0);
    g_assert_cmphex(rdw(qts, C_CSR0), ==, CSR0_RXPKTRDY);
    g_assert_cmpint(rdb(qts, C_COUNT0), ==, 8);
    for (int i = 0; i < 8; i++) {
        req[i] = rdb(qts, C_FIFO(0));
    }
    g_assert_cmpmem(req, 8, want, 8);
}

/* An IN data stage of @len bytes in 64-byte packets, then the status */
static void reply_in(QTestState *qts, const uint8_t *data, int len)
{
    int pos = 0;

    wrw(qts, C_CSR0, CSR0_SVDRXPKTRDY);
    g_assert_cmphex(rdw(qts, C_CSR0), ==, 0);
    for (;;) {
        int n = MIN(64, len - pos);
        bool last = n < 64 || pos + n == len;

        for (int i = 0; i < n; i++) {
            wrb(qts, C_FIFO(0), data[pos + i]);
        }
        pos += n;
        wrw(qts, C_CSR0, CSR0_TXPKTRDY | (last ? CSR0_DATAEND : 0));
        wait_ep0(qts);
        /*
         * Each packet the PC takes interrupts, and so does the status
         * stage: at once after the last packet, or (with timing) a wire
         * time later
         */
        if (last && rdw(qts, C_CSR0) == CSR0_DATAEND) {
            wait_ep0(qts);
        }
        g_assert_cmphex(rdw(qts, C_CSR0), ==, 0);
        if (last) {
            return;
        }
    }
}

/* An OUT data stage of @len bytes into @data, then the status */
static void reply_out(QTestState *qts, uint8_t *data, int len)
{
    int pos = 0;

    wrw(qts, C_CSR0, CSR0_SVDRXPKTRDY);
    while (pos < len) {
        int n;

        wait_ep0(qts);
        g_assert_cmphex(rdw(qts, C_CSR0), ==, CSR0_RXPKTRDY);
        n = rdb(qts, C_COUNT0);
        g_assert_cmpint(pos + n, <=, len);
        for (int i = 0; i < n; i++) {
            data[pos++] = rdb(qts, C_FIFO(0));
        }
        wrw(qts, C_CSR0, CSR0_SVDRXPKTRDY |
            (pos == len ? CSR0_DATAEND : 0));
    }
    wait_ep0(qts);
    g_assert_cmphex(rdw(qts, C_CSR0), ==, 0);
}

/* A request without data: the status stage (a zero-length IN) follows */
static void reply_none(QTestState *qts)
{
    wrw(qts, C_CSR0, CSR0_SVDRXPKTRDY | CSR0_DATAEND);
    wait_ep0(qts);
    g_assert_cmphex(rdw(qts, C_CSR0), ==, 0);
}

static const uint8_t get_device_64[8] = { 0x80, 6, 0, 1, 0, 0, 64, 0 };
static const uint8_t get_device_18[8] = { 0x80, 6, 0, 1, 0, 0, 18, 0 };
static const uint8_t set_address_1[8] = { 0x00, 5, 1, 0, 0, 0, 0, 0 };
static const uint8_t get_config_9[8] = { 0x80, 6, 0, 2, 0, 0, 9, 0 };
static const uint8_t set_config_1[8] = { 0x00, 9, 1, 0, 0, 0, 0, 0 };
static const uint8_t set_interface[8] = { 0x01, 11, 1, 0, 1, 0, 0, 0 };
static const uint8_t set_filter[8] = { 0x21, 0x43, 0x0e, 0, 0, 0, 0, 0 };
static const uint8_t get_max_lun[8] = { 0xa1, 0xfe, 0, 0, 0, 0, 1, 0 };
static const uint8_t bulk_reset[8] = { 0x21, 0xff, 0, 0, 0, 0, 0, 0 };
static const uint8_t clear_halt_in[8] = { 0x02, 1, 0, 0, 0x81, 0, 0, 0 };
static const uint8_t clear_halt_out[8] = { 0x02, 1, 0, 0, 0x01, 0, 0, 0 };

/* B-device with the pull-up on: the PC resets the bus after debounce */
static void plug_in(QTestState *qts)
{
    qtest_writel(qts, USB_WRAPPER + W_MODE, MODE_IDDIG | MODE_IDDIG_MUX);
    /* The PC powers VBUS: a session as the B-device */
    g_assert_cmphex(rdb(qts, C_DEVCTL), ==, 0x99);
    wrb(qts, C_POWER, POWER_HSENAB | POWER_SOFTCONN);
    /* USB 2.0 7.1.7.3: the 100 ms debounce comes first */
    g_assert_false(wait_irq(qts, 1, IRQ1_RESET, 90 * 1000 * 1000));
    g_assert_true(wait_irq(qts, 1, IRQ1_RESET, 20 * 1000 * 1000));
    g_assert_cmphex(rdb(qts, C_POWER) & POWER_HSMODE, ==, POWER_HSMODE);
    g_assert_cmphex(rdb(qts, C_FADDR), ==, 0);
}

/* Linux's answers to the PC's enumeration, up to SET_CONFIGURATION */
static void enumerate_config(QTestState *qts, const uint8_t *config,
                             uint16_t len)
{
    const uint8_t get_config[8] = { 0x80, 6, 0, 2, 0, 0, len, len >> 8 };

    expect_setup(qts, get_device_64);
    reply_in(qts, device_desc, sizeof(device_desc));
    expect_setup(qts, set_address_1);
    reply_none(qts);
    /* The address takes effect after the status stage */
    wrb(qts, C_FADDR, 1);
    expect_setup(qts, get_device_18);
    reply_in(qts, device_desc, sizeof(device_desc));
    expect_setup(qts, get_config_9);
    reply_in(qts, config, 9);
    expect_setup(qts, get_config);
    reply_in(qts, config, len);
    expect_setup(qts, set_config_1);
    reply_none(qts);
}

/* ... and for the ECM function, up to the packet filter */
static void enumerate(QTestState *qts)
{
    enumerate_config(qts, config_desc, sizeof(config_desc));
    expect_setup(qts, set_interface);
    reply_none(qts);
    expect_setup(qts, set_filter);
}

/* EP1 both ways, 512-byte FIFOs, as the ECM function enables them */
static void enable_ep1(QTestState *qts)
{
    wrb(qts, C_INDEX, 1);
    wrw(qts, C_TXMAXP, 512);
    wrb(qts, C_TXFIFOSZ, FIFOSZ_512);
    wrw(qts, C_RXMAXP, 512);
    wrb(qts, C_RXFIFOSZ, FIFOSZ_512);
}

#ifndef _WIN32
static void sock_send(int fd, const uint8_t *buf, uint32_t len)
{
    uint32_t be = cpu_to_be32(len);

    g_assert_cmpint(send(fd, &be, 4, 0), ==, 4);
    g_assert_cmpint(send(fd, buf, len, 0), ==, len);
}

/*
 * One frame from the socket netdev's stream framing, stepping time; the
 * RARP announcements QEMU sends after a migration are skipped.
 */
static uint32_t sock_recv(QTestState *qts, int fd, uint8_t *buf,
                          uint32_t max)
{
    uint32_t be, len;

    for (int i = 0; i < 1000; i++) {
        if (recv(fd, &be, 4, MSG_DONTWAIT) == 4) {
            len = be32_to_cpu(be);
            g_assert_cmpuint(len, <=, max);
            g_assert_cmpint(recv(fd, buf, len, MSG_WAITALL), ==, len);
            if (len >= 14 && buf[12] == 0x80 && buf[13] == 0x35) {
                continue;
            }
            return len;
        }
        qtest_clock_step(qts, 10000);
        g_usleep(1000);
    }
    g_assert_not_reached();
}

/* One packet the PC sent to EP1 OUT; returns its length */
static int rx_packet(QTestState *qts, uint8_t *buf)
{
    int n;

    for (int i = 0; i < 1000; i++) {
        if (wait_irq(qts, 0, IRQ0_RX1, 0)) {
            break;
        }
        qtest_clock_step(qts, 10000);
        g_usleep(500);
    }
    wrb(qts, C_INDEX, 1);
    g_assert_cmphex(rdw(qts, C_RXCSR) & RXCSR_RXPKTRDY, ==, RXCSR_RXPKTRDY);
    n = rdw(qts, 0x18);
    for (int i = 0; i < n; i++) {
        buf[i] = rdb(qts, C_FIFO(1));
    }
    wrw(qts, C_RXCSR, 0);
    return n;
}

static void make_frame(uint8_t *f, int len, uint8_t seed)
{
    for (int i = 0; i < len; i++) {
        f[i] = seed + i * 7;
    }
}

/* Frames of @len bytes both ways, checked */
static void frames_both_ways(QTestState *qts, int fd, int len, uint8_t seed)
{
    uint8_t frame[1600], got[1600];
    int pos = 0, n;

    /* PC -> gadget: max-packets, then a short or a zero-length one */
    make_frame(frame, len, seed);
    sock_send(fd, frame, len);
    do {
        n = rx_packet(qts, got + pos);
        pos += n;
    } while (n == 512);
    g_assert_cmpint(pos, ==, len);
    g_assert_cmpmem(got, len, frame, len);

    /* Gadget -> PC, one max-packet at a time */
    make_frame(frame, len, seed + 1);
    wrb(qts, C_INDEX, 1);
    for (pos = 0; pos < len; pos += 512) {
        n = MIN(512, len - pos);
        for (int i = 0; i < n; i++) {
            wrb(qts, C_FIFO(1), frame[pos + i]);
        }
        wrw(qts, C_TXCSR, TXCSR_TXPKTRDY);
        g_assert_true(wait_irq(qts, 0, IRQ0_TX1, 10 * 1000 * 1000));
        g_assert_cmphex(rdw(qts, C_TXCSR) & TXCSR_TXPKTRDY, ==, 0);
    }
    if (len % 512 == 0) {
        wrw(qts, C_TXCSR, TXCSR_TXPKTRDY);
        g_assert_true(wait_irq(qts, 0, IRQ0_TX1, 10 * 1000 * 1000));
    }
    g_assert_cmpuint(sock_recv(qts, fd, got, sizeof(got)), ==, len);
    g_assert_cmpmem(got, len, frame, len);
}

static QTestState *start_timing(int *peer, bool timing)
{
    int sv[2];
    QTestState *qts;

    g_assert_cmpint(socketpair(PF_UNIX, SOCK_STREAM, 0, sv), ==, 0);
    qts = qtest_initf("-M beaglebone-black,timing=%s -netdev socket,fd=%d,"
                      "id=pc -net nic,netdev=pc,model=usb-gadget",
                      timing ? "on" : "off", sv[1]);
    *peer = sv[0];
    return qts;
}

static QTestState *start(int *peer)
{
    return start_timing(peer, false);
}

/*
 * The whole path: reset, enumeration (with a STALLed class request, which
 * the PC takes as cdc_ether does), then frames both ways, the one of
 * whole packets with its zero-length end.
 */
static void test_ecm(void)
{
    int fd;
    QTestState *qts = start(&fd);

    plug_in(qts);
    enumerate(qts);
    /* This gadget does not know the filter: a STALL */
    wrw(qts, C_CSR0, CSR0_SVDRXPKTRDY | CSR0_SENDSTALL | CSR0_DATAEND);
    wait_ep0(qts);
    g_assert_cmphex(rdw(qts, C_CSR0) & CSR0_SENTSTALL, ==, CSR0_SENTSTALL);
    wrw(qts, C_CSR0, 0);
    g_assert_cmphex(rdw(qts, C_CSR0), ==, 0);

    enable_ep1(qts);
    frames_both_ways(qts, fd, 98, 1);
    frames_both_ways(qts, fd, 1024, 2);
    frames_both_ways(qts, fd, 1514, 3);

    /* A halted OUT endpoint STALLs the PC's packet */
    wrb(qts, C_INDEX, 1);
    wrw(qts, C_RXCSR, RXCSR_SENDSTALL);
    sock_send(fd, (const uint8_t *)"stalled frame", 13);
    g_assert_true(wait_irq(qts, 0, IRQ0_RX1, 10 * 1000 * 1000));
    g_assert_cmphex(rdw(qts, C_RXCSR) & RXCSR_SENTSTALL, ==, RXCSR_SENTSTALL);
    wrw(qts, C_RXCSR, 0);
    qtest_quit(qts);
    close(fd);
}

/*
 * A device that does not take its new address answers nobody: the PC
 * times out (5 s) and resets the bus to try again.
 */
static void test_address_timeout(void)
{
    int fd;
    QTestState *qts = start(&fd);

    plug_in(qts);
    expect_setup(qts, get_device_64);
    reply_in(qts, device_desc, sizeof(device_desc));
    expect_setup(qts, set_address_1);
    reply_none(qts);
    /* No FADDR write: the next SETUP, to address 1, finds nobody */
    g_assert_false(wait_irq(qts, 0, IRQ0_EP0, 4 * 1000 * 1000 * 1000LL));
    g_assert_true(wait_irq(qts, 1, IRQ1_RESET, 2 * 1000 * 1000 * 1000LL));
    g_assert_cmphex(rdb(qts, C_FADDR), ==, 0);
    expect_setup(qts, get_device_64);
    qtest_quit(qts);
    close(fd);
}

/* The pull-up off: the PC sees the device go; on again, a new reset */
static void test_reconnect(void)
{
    int fd;
    QTestState *qts = start(&fd);

    plug_in(qts);
    expect_setup(qts, get_device_64);
    wrb(qts, C_POWER, POWER_HSENAB);
    g_assert_false(wait_irq(qts, 1, IRQ1_RESET, 200 * 1000 * 1000));
    wrb(qts, C_POWER, POWER_HSENAB | POWER_SOFTCONN);
    g_assert_true(wait_irq(qts, 1, IRQ1_RESET, 200 * 1000 * 1000));
    /* The stale SETUP went with the reset; the enumeration starts over */
    expect_setup(qts, get_device_64);
    qtest_quit(qts);
    close(fd);
}

/*
 * With timing, a packet takes its wire time at 480 Mb/s, its data and
 * 55 bytes of protocol: the FIFO keeps an IN packet until it has crossed
 * (TXPKTRDY, FIFONOTEMPTY), and an OUT packet is there only after.
 */
static void test_wire_time(void)
{
    /* (512 + 55) bytes * 8 / 480 Mb/s */
    const int64_t wire_ns = 9450;
    uint8_t frame[600], got[600];
    int fd, n;
    QTestState *qts = start_timing(&fd, true);

    plug_in(qts);
    enumerate(qts);
    reply_none(qts);
    enable_ep1(qts);

    make_frame(frame, 600, 9);
    wrb(qts, C_INDEX, 1);
    for (int i = 0; i < 512; i++) {
        wrb(qts, C_FIFO(1), frame[i]);
    }
    wrw(qts, C_TXCSR, TXCSR_TXPKTRDY);
    /* The PC's IN comes at once; the packet is on the wire */
    qtest_clock_step(qts, wire_ns / 2);
    g_assert_cmphex(rdw(qts, C_TXCSR) & (TXCSR_TXPKTRDY | 0x2), ==,
                    TXCSR_TXPKTRDY | 0x2);
    g_assert_false(wait_irq(qts, 0, IRQ0_TX1, 0));
    qtest_clock_step(qts, wire_ns / 2 + 100);
    g_assert_cmphex(rdw(qts, C_TXCSR) & (TXCSR_TXPKTRDY | 0x2), ==, 0);
    g_assert_true(wait_irq(qts, 0, IRQ0_TX1, 0));
    for (int i = 512; i < 600; i++) {
        wrb(qts, C_FIFO(1), frame[i]);
    }
    wrw(qts, C_TXCSR, TXCSR_TXPKTRDY);
    g_assert_true(wait_irq(qts, 0, IRQ0_TX1, 10 * 1000 * 1000));
    g_assert_cmpuint(sock_recv(qts, fd, got, sizeof(got)), ==, 600);
    g_assert_cmpmem(got, 600, frame, 600);

    /* OUT: a full packet is in the FIFO a wire time after it started */
    sock_send(fd, frame, 600);
    n = rx_packet(qts, got);
    g_assert_cmpint(n, ==, 512);
    g_assert_cmpint(rx_packet(qts, got + 512), ==, 88);
    g_assert_cmpmem(got, 600, frame, 600);
    qtest_quit(qts);
    close(fd);
}

/* Migrated once the function is running: frames still flow */
static void test_migration(void)
{
    int fd, sv[2];
    QTestState *qts = start(&fd);
    g_autofree char *dst_args = NULL;

    plug_in(qts);
    enumerate(qts);
    reply_none(qts);
    enable_ep1(qts);
    frames_both_ways(qts, fd, 200, 4);

    g_assert_cmpint(socketpair(PF_UNIX, SOCK_STREAM, 0, sv), ==, 0);
    dst_args = g_strdup_printf("-M beaglebone-black -netdev socket,fd=%d,"
                               "id=pc -net nic,netdev=pc,model=usb-gadget",
                               sv[1]);
    qts = am335x_migrate(qts, dst_args);
    close(fd);
    fd = sv[0];
    frames_both_ways(qts, fd, 1514, 5);
    qtest_quit(qts);
    close(fd);
}
#endif

#ifndef _WIN32
/*
 * A serial gadget: with -M ...,usb-serial=CHARDEV the PC binds its CDC
 * ACM function as cdc_acm does when its tty opens (115200 8N1, DTR and
 * RTS), then bytes cross both ways.
 */
static void test_acm(void)
{
    static const uint8_t line_coding[8] = { 0x21, 0x20, 0, 0, 0, 0, 7, 0 };
    static const uint8_t line_state[8] = { 0x21, 0x22, 3, 0, 0, 0, 0, 0 };
    static const uint8_t coding_115200_8n1[7] = { 0, 0xc2, 1, 0, 0, 0, 8 };
    uint8_t got[64];
    int sv[2];
    QTestState *qts;

    g_assert_cmpint(socketpair(PF_UNIX, SOCK_STREAM, 0, sv), ==, 0);
    qts = qtest_initf("-M beaglebone-black,usb-serial=ser "
                      "-chardev socket,id=ser,fd=%d", sv[1]);
    plug_in(qts);
    enumerate_config(qts, acm_config, sizeof(acm_config));
    expect_setup(qts, line_coding);
    reply_out(qts, got, 7);
    g_assert_cmpmem(got, 7, coding_115200_8n1, 7);
    expect_setup(qts, line_state);
    reply_none(qts);
    enable_ep1(qts);

    /* The gadget's bytes reach the chardev */
    wrb(qts, C_INDEX, 1);
    for (int i = 0; i < 5; i++) {
        wrb(qts, C_FIFO(1), "hello"[i]);
    }
    wrw(qts, C_TXCSR, TXCSR_TXPKTRDY);
    g_assert_true(wait_irq(qts, 0, IRQ0_TX1, 10 * 1000 * 1000));
    for (int i = 0; i < 1000; i++) {
        if (recv(sv[0], got, 5, MSG_DONTWAIT | MSG_PEEK) == 5) {
            break;
        }
        qtest_clock_step(qts, 10000);
        g_usleep(1000);
    }
    g_assert_cmpint(recv(sv[0], got, sizeof(got), MSG_DONTWAIT), ==, 5);
    g_assert_cmpmem(got, 5, "hello", 5);

    /* The chardev's bytes reach the gadget */
    g_assert_cmpint(send(sv[0], "world!", 6, 0), ==, 6);
    g_assert_cmpint(rx_packet(qts, got), ==, 6);
    g_assert_cmpmem(got, 6, "world!", 6);
    qtest_quit(qts);
    close(sv[0]);
}
#endif

#ifndef _WIN32
/* The PC's mass storage test: a disk of 1024 blocks, 192 KiB tested */
#define MSC_BLOCKS          1024
#define MSC_TEST_BYTES      (192 * 1024)

/* The gadget sends @len bytes on EP1 IN, a max-packet at a time */
static void tx_bytes(QTestState *qts, const uint8_t *buf, int len)
{
    wrb(qts, C_INDEX, 1);
    for (int pos = 0; pos < len; pos += 512) {
        int n = MIN(512, len - pos);

        for (int i = 0; i < n; i++) {
            wrb(qts, C_FIFO(1), buf[pos + i]);
        }
        wrw(qts, C_TXCSR, TXCSR_TXPKTRDY);
        g_assert_true(wait_irq(qts, 0, IRQ0_TX1, 10 * 1000 * 1000));
    }
}

static void tx_csw(QTestState *qts, uint32_t tag, uint8_t status)
{
    uint8_t csw[13] = { 'U', 'S', 'B', 'S' };

    stl_le_p(csw + 4, tag);
    csw[12] = status;
    tx_bytes(qts, csw, sizeof(csw));
}

static char *storage_prop(QTestState *qts, const char *name)
{
    QDict *r = qtest_qmp(qts, "{'execute': 'qom-get', 'arguments': "
                         "{'path': '/machine/soc/usb[0]', 'property': %s}}",
                         name);
    QObject *ret = qdict_get(r, "return");
    char *val;

    g_assert(ret);
    val = qobject_type(ret) == QTYPE_QSTRING ?
          g_strdup(qdict_get_str(r, "return")) :
          g_strdup_printf("%" PRId64, qdict_get_int(r, "return"));
    qobject_unref(r);
    return val;
}

/*
 * With -global am335x-musb.host-storage-bytes=N the PC binds a mass
 * storage function: GET MAX LUN, a second's wait (usb-storage's
 * delay_use), INQUIRY, TEST UNIT READY until the unit attention is
 * cleared by REQUEST SENSE, READ CAPACITY(10), then WRITE(10)s of at most
 * 120 KiB over the first N bytes and READ(10)s of them, its pattern
 * checked: one corrupted block is one bad packet.  A command left
 * unanswered times out after 30 s: the Bulk-Only reset recovery, then
 * the command again.  The test survives a migration between commands.
 */
static void test_mass_storage(void)
{
    g_autofree uint8_t *disk = g_malloc0(MSC_BLOCKS * 512);
    uint8_t cbw[64], reply[36] = { 0 };
    int writes = 0, reads = 0, tries = 0, capacities = 0;
    uint64_t written = 0;
    g_autofree char *dst_args = NULL;
    QTestState *qts;
    char *val;

    dst_args = g_strdup_printf("-M beaglebone-black,timing=on -global "
                               "am335x-musb.host-storage-bytes=%d",
                               MSC_TEST_BYTES);
    qts = qtest_init(dst_args);
    val = storage_prop(qts, "host-storage-state");
    g_assert_cmpstr(val, ==, "idle");
    g_free(val);
    /* Linux enables the endpoints before SET_CONFIGURATION's status */
    enable_ep1(qts);
    plug_in(qts);
    enumerate_config(qts, msc_config, sizeof(msc_config));
    expect_setup(qts, get_max_lun);
    reply_in(qts, reply, 1);
    /* usb-storage's delay_use: no command for a second */
    qtest_clock_step(qts, 990 * 1000 * 1000);
    g_assert_false(wait_irq(qts, 0, IRQ0_RX1, 0));

    while (reads < 2) {
        uint32_t tag, len, lba, blocks;

        g_assert_cmpint(rx_packet(qts, cbw), ==, 31);
        g_assert_cmphex(ldl_le_p(cbw), ==, 0x43425355);
        tag = ldl_le_p(cbw + 4);
        len = ldl_le_p(cbw + 8);
        lba = ldl_be_p(cbw + 17);
        blocks = lduw_be_p(cbw + 22);
        switch (cbw[15]) {
        case 0x12:          /* INQUIRY */
            g_assert_cmpuint(len, ==, 36);
            g_assert_cmphex(cbw[12], ==, 0x80);
            tx_bytes(qts, reply, 36);
            tx_csw(qts, tag, 0);
            break;
        case 0x00:          /* TEST UNIT READY: a unit attention first */
            g_assert_cmpuint(len, ==, 0);
            tx_csw(qts, tag, tries++ == 0 ? 1 : 0);
            break;
        case 0x03:          /* REQUEST SENSE */
            g_assert_cmpuint(len, ==, 18);
            reply[0] = 0x70;
            reply[2] = 0x06;
            tx_bytes(qts, reply, 18);
            tx_csw(qts, tag, 0);
            break;
        case 0x25:          /* READ CAPACITY(10): the first is lost */
            if (capacities++ == 0) {
                qtest_clock_step(qts, 29000000000LL);
                g_assert_false(wait_irq(qts, 0, IRQ0_EP0, 0));
                qtest_clock_step(qts, 1000000000LL);
                expect_setup(qts, bulk_reset);
                reply_none(qts);
                expect_setup(qts, clear_halt_in);
                reply_none(qts);
                expect_setup(qts, clear_halt_out);
                reply_none(qts);
                break;
            }
            stl_be_p(reply, MSC_BLOCKS - 1);
            stl_be_p(reply + 4, 512);
            tx_bytes(qts, reply, 8);
            tx_csw(qts, tag, 0);
            break;
        case 0x2a:          /* WRITE(10) */
            g_assert_cmphex(cbw[12], ==, 0);
            g_assert_cmpuint(len, ==, blocks * 512);
            g_assert_cmpuint(len, <=, 120 * 1024);
            g_assert_cmpuint(lba * 512, ==, written);
            for (uint32_t pos = 0; pos < len; ) {
                pos += rx_packet(qts, disk + lba * 512 + pos);
            }
            written += len;
            writes++;
            tx_csw(qts, tag, 0);
            if (writes == 1) {
                /*
                 * Migrated between two commands: the test goes on (the
                 * qtest clock does not migrate: it is set as it was)
                 */
                int64_t now = qtest_clock_step(qts, 1);

                qts = am335x_migrate(qts, dst_args);
                qtest_clock_set(qts, now);
            }
            break;
        case 0x28:          /* READ(10): the first block comes back bad */
            g_assert_cmpuint(written, ==, MSC_TEST_BYTES);
            g_assert_cmphex(cbw[12], ==, 0x80);
            g_assert_cmpuint((lba + blocks) * 512, <=, MSC_TEST_BYTES);
            if (reads == 0) {
                disk[lba * 512 + 100] ^= 1;
            }
            tx_bytes(qts, disk + lba * 512, len);
            reads++;
            tx_csw(qts, tag, 0);
            break;
        default:
            g_assert_not_reached();
        }
    }
    g_assert_cmpint(writes, ==, 2);
    g_assert_cmpint(tries, ==, 2);
    /* Each command started only after the last one's status */
    qtest_clock_step(qts, 1000000);
    val = storage_prop(qts, "host-storage-state");
    g_assert_cmpstr(val, ==, "done");
    g_free(val);
    val = storage_prop(qts, "host-storage-tested-bytes");
    g_assert_cmpint(atoll(val), ==, MSC_TEST_BYTES);
    g_free(val);
    val = storage_prop(qts, "host-storage-bad-packets");
    g_assert_cmpstr(val, ==, "1");
    g_free(val);
    val = storage_prop(qts, "host-storage-resets");
    g_assert_cmpstr(val, ==, "1");
    g_free(val);
    g_assert_cmpint(capacities, ==, 2);
    /* With timing, no faster than the data's 384 packets on the wire */
    val = storage_prop(qts, "host-storage-write-ns");
    g_assert_cmpint(atoll(val), >=, 384 * (512 + 55) * 8 * 1000ll / 480);
    g_free(val);
    val = storage_prop(qts, "host-storage-read-ns");
    g_assert_cmpint(atoll(val), >=, 384 * (512 + 55) * 8 * 1000ll / 480);
    g_free(val);
    qtest_quit(qts);
}
#endif

/* Nobody on the port: a B-device without VBUS, and no reset ever */
static void test_no_host(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    qtest_writel(qts, USB_WRAPPER + W_MODE, MODE_IDDIG | MODE_IDDIG_MUX);
    g_assert_cmphex(rdb(qts, C_DEVCTL), ==, 0x80);
    wrb(qts, C_POWER, POWER_HSENAB | POWER_SOFTCONN);
    g_assert_false(wait_irq(qts, 1, IRQ1_RESET, 300 * 1000 * 1000));
    qtest_quit(qts);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);

    qtest_add_func("/am335x/usb-gadget/no-host", test_no_host);
#ifndef _WIN32
    qtest_add_func("/am335x/usb-gadget/ecm", test_ecm);
    qtest_add_func("/am335x/usb-gadget/address-timeout",
                   test_address_timeout);
    qtest_add_func("/am335x/usb-gadget/reconnect", test_reconnect);
    qtest_add_func("/am335x/usb-gadget/migration", test_migration);
    qtest_add_func("/am335x/usb-gadget/acm", test_acm);
    qtest_add_func("/am335x/usb-gadget/wire-time", test_wire_time);
    qtest_add_func("/am335x/usb-gadget/mass-storage", test_mass_storage);
#endif
    return g_test_run();
}
