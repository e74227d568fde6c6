/*
 * QTest: the AM335x's data paths against a hostile guest
 *
 * am335x-mmio-fuzz-test throws random values at every register; few of
 * them get a data path going.  Here each scenario first brings a device
 * up as a driver would, then drives its data path with commands and
 * descriptors that are mostly right and often wrong in one field:
 *   cpsw:  frames from a socket netdev into the CPSW's port 1 (runt,
 *          jumbo, any address), with RX and TX descriptor chains in CPPI
 *          RAM or DDR whose links loop, leave RAM or land mid-descriptor,
 *          whose buffers cross the end of DDR or point at registers,
 *          MAC loopback, teardowns, pacing, resets;
 *   mmc:   an initialised SD card in MMC0, data commands of any block
 *          size and count, by PIO or by the EDMA (its MMC0 channels'
 *          PaRAM sets mostly right), aborts and resets mid-transfer;
 *   nand:  the EVM's NAND behind the GPMC: reads, programs, erases and
 *          odd commands at any row and column, the prefetch engine, the
 *          BCH and the ELM;
 *   usb:   a usb-storage stick on USB1, addressed and configured, its
 *          bulk pipes fed by CPPI 4.1 descriptors whose lengths, buffers,
 *          links and queues go wrong, odd control requests, endpoint
 *          shapes, channel teardowns, queue manager regions, resets.
 *   usb-gadget: USB0 as the peripheral, with the PC on its socket: the
 *          PC's enumeration answered with descriptors now and then
 *          damaged or overlong, late or wrong addresses, stalls, EP1's
 *          packets by PIO and CPPI 4.1 DMA both ways while frames come
 *          from the PC's netdev, the pull-up, role and resets flipping,
 *          and time-outs that make the PC start over.
 *   mcasp: McASP0's transmitter and receiver fed and drained through
 *          the EDMA's cyclic PaRAM sets: any slot format, TDM, clock
 *          divider, FIFO level and serializer, buffers anywhere,
 *          loopback, the CPU at the data port, resets mid-stream;
 *   lcdc:  the raster DMA: panels tiny to huge, frame buffers anywhere
 *          (past the end of DDR, ceilings below their bases), palette
 *          modes, dual buffers, pixel clock dividers the TRM forbids,
 *          resets mid-frame.
 *   tscadc: the ADC's sequencer filling its FIFOs and the EDMA draining
 *          them: any step, delay, divider, FIFO and DMA request level,
 *          PaRAM sets gone wrong, the CPU reading the FIFOs too;
 *   tscadc-evm: the same on the EVM, with its touch panel touched, moved
 *          and lifted at any time while the TSC's mode, pen switches,
 *          idle and charge steps change;
 *   dcan:  DCAN0 and DCAN1 on one CAN bus, message objects written and
 *          read through IF1 and IF2 with any number, identifier, mask
 *          and DLC, remote frames answered, loopback and silent modes,
 *          bit rates, software resets and power-down mid-frame;
 *   i2c, i2c-evm: each board's I2C devices (PMIC, EEPROM, HDMI framer,
 *          codec) and absent addresses, written and read through the
 *          controllers' FIFOs with any register, length and threshold,
 *          repeated STARTs, messages given up half-way, resets;
 *   uart:  UART1 with a socket chardev behind it: bytes in both
 *          directions while LCR flips between the register modes, FIFO
 *          triggers, divisors (zero too), loopback, IrDA/CIR modes and
 *          resets change under them.
 * QEMU must live through it (libqtest reports its death), with the
 * timing models off and on, and the VM migrates mid-traffic.
 *
 * The same seed gives the same traffic.  AM335X_FUZZ_SEED, _OPS (per
 * case), _ARGS and _MIGRATIONS as in am335x-mmio-fuzz-test.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qemu/units.h"
#include "libqtest.h"
#include "am335x-qtest.h"
#include "qobject/qdict.h"
#include <sys/socket.h>

#define DDR_BASE        0x80000000u
#define DDR_WORK        (1 * MiB)       /* where descriptors and buffers go */
#define INTC_REVISION   0x48200000u

typedef struct Fuzz Fuzz;

typedef struct Scenario {
    const char *name;
    const char *machine;
    uint32_t ram_size;
    const char *devices;        /* more -device (and their backends) */
    void (*setup)(Fuzz *f);
    void (*step)(Fuzz *f);
    /* Options for a device on a socketpair: %d is QEMU's end; or NULL */
    const char *socket_backend;
} Scenario;

typedef struct FuzzCase {
    const Scenario *scenario;
    bool timing;
} FuzzCase;

struct Fuzz {
    const Scenario *sc;
    QTestState *qts;
    GRand *r;
    int sock[2];        /* cpsw, uart: [0] ours, [1] QEMU's; else -1 */
    GByteArray *out;    /* cpsw: frames not yet in the socket */
    char *card;         /* mmc: the SD card image */
};

static const char *const on_off[] = { "off", "on" };

static uint32_t rnd(Fuzz *f, uint32_t n)
{
    return g_rand_int_range(f->r, 0, n);
}

static bool one_in(Fuzz *f, uint32_t n)
{
    return rnd(f, n) == 0;
}

/*
 * A DMA address: mostly in the work area, else where no buffer should
 * be: the last bytes of DDR (a transfer runs off its end), past it, zero,
 * the device's own registers, the top of the address space.
 */
static uint32_t dma_addr(Fuzz *f, uint32_t own)
{
    switch (rnd(f, 12)) {
    case 0:
        return DDR_BASE + f->sc->ram_size - 1 - rnd(f, 2048);
    case 1:
        return DDR_BASE + f->sc->ram_size + rnd(f, 4096);
    case 2:
        return rnd(f, 4) ? 0 : rnd(f, 0x40000);
    case 3:
        return own + (rnd(f, 0x1000) & ~3u);
    case 4:
        return 0xffffffff - rnd(f, 64);
    default:
        return DDR_BASE + rnd(f, DDR_WORK);
    }
}

/* A count: small, a power of two, one off, or anything */
static uint32_t count(Fuzz *f, uint32_t max)
{
    uint32_t v;

    switch (rnd(f, 6)) {
    case 0:
        return 0;
    case 1:
        return max;
    case 2:
        v = 1u << rnd(f, 17);
        return (v + rnd(f, 3) - 1) & max;
    case 3:
        return rnd(f, 64);
    default:
        return g_rand_int(f->r) & max;
    }
}

/* ---- CPSW: frames in, descriptor chains out of shape ---- */

#define CPSW            0x4a100000u
#define SS_STAT_PORT_EN (CPSW + 0x00c)
#define CPDMA           (CPSW + 0x800)
#define TX_CONTROL      (CPDMA + 0x04)
#define TX_TEARDOWN     (CPDMA + 0x08)
#define RX_CONTROL      (CPDMA + 0x14)
#define RX_TEARDOWN     (CPDMA + 0x18)
#define CPDMA_SOFT_RESET (CPDMA + 0x1c)
#define DMACONTROL      (CPDMA + 0x20)
#define RX_BUFFER_OFFSET (CPDMA + 0x28)
#define TX_INTMASK_SET  (CPDMA + 0x88)
#define RX_INTMASK_SET  (CPDMA + 0xa8)
#define CPDMA_EOI       (CPDMA + 0x94)
#define RX_FREEBUFFER(n) (CPDMA + 0xe0 + 4 * (n))
#define TX_HDP(n)       (CPSW + 0xa00 + 4 * (n))
#define RX_HDP(n)       (CPSW + 0xa20 + 4 * (n))
#define TX_CP(n)        (CPSW + 0xa40 + 4 * (n))
#define RX_CP(n)        (CPSW + 0xa60 + 4 * (n))
#define ALE_CONTROL     (CPSW + 0xd08)
#define ALE_TBLCTL      (CPSW + 0xd20)
#define ALE_TBLW(n)     (CPSW + 0xd3c - 4 * (n))
#define ALE_PORTCTL(n)  (CPSW + 0xd40 + 4 * (n))
#define SL_MACCONTROL(n) (CPSW + 0xd84 + 0x40 * ((n) - 1))
#define SL_RX_MAXLEN(n) (CPSW + 0xd90 + 0x40 * ((n) - 1))
#define WR_C0_RX_EN     (CPSW + 0x1214)
#define WR_C0_TX_EN     (CPSW + 0x1218)
#define WR_INT_CONTROL  (CPSW + 0x120c)
#define WR_C0_RX_IMAX   (CPSW + 0x1270)
#define CPPI_RAM        (CPSW + 0x2000)
#define CPPI_RAM_SIZE   0x2000u

#define DESC_SOP        (1u << 31)
#define DESC_EOP        (1u << 30)
#define DESC_OWNER      (1u << 29)
#define DESC_EOQ        (1u << 28)
#define DESC_TO_PORT_EN (1u << 20)

/* MACCONTROL: full duplex, loopback, GMII_EN, GIG */
#define MAC_RUN         ((1u << 0) | (1u << 5) | (1u << 7))
#define MAC_LOOPBACK    (1u << 1)

/* Where the next descriptor of a chain goes, or a wrong link */
static uint32_t desc_link(Fuzz *f, uint32_t self, uint32_t next)
{
    switch (rnd(f, 16)) {
    case 0:
        return self;                            /* a loop */
    case 1:
        return CPPI_RAM + rnd(f, CPPI_RAM_SIZE); /* mid-descriptor */
    case 2:
        return dma_addr(f, CPSW);
    case 3:
        return CPPI_RAM + CPPI_RAM_SIZE - 4 * rnd(f, 4); /* off its end */
    default:
        return next;
    }
}

/* A chain of 1-6 descriptors for a frame or two; returns its head */
static uint32_t cpsw_chain(Fuzz *f, bool tx)
{
    bool in_ddr = one_in(f, 4);
    uint32_t n = 1 + rnd(f, 6);
    uint32_t head = in_ddr ? DDR_BASE + (rnd(f, DDR_WORK - 0x100) & ~15u)
                           : CPPI_RAM + (rnd(f, CPPI_RAM_SIZE - 16 * n) & ~15u);

    for (uint32_t i = 0; i < n; i++) {
        uint32_t d = head + 16 * i;
        uint32_t last = i + 1 == n;
        uint32_t len = one_in(f, 3) ? count(f, 0xffff) : 64 + rnd(f, 1500);
        uint32_t off = one_in(f, 4) ? count(f, 0xffff) : 0;
        uint32_t flags = DESC_OWNER;
        uint32_t words[4];

        if (tx) {
            flags |= i == 0 || one_in(f, 8) ? DESC_SOP : 0;
            flags |= last || one_in(f, 8) ? DESC_EOP : 0;
            flags |= one_in(f, 4) ? DESC_TO_PORT_EN | (1 + rnd(f, 3)) << 16
                                  : 0;
            flags |= one_in(f, 2) ? len * n : count(f, 0x7ff);
        } else if (one_in(f, 8)) {
            flags = g_rand_int(f->r);
        }
        if (one_in(f, 10)) {
            flags &= ~DESC_OWNER;
        }
        words[0] = cpu_to_le32(last && !one_in(f, 8) ? 0
                               : desc_link(f, d, d + 16));
        words[1] = cpu_to_le32(dma_addr(f, CPSW));
        words[2] = cpu_to_le32(off << 16 | len);
        words[3] = cpu_to_le32(flags);
        qtest_memwrite(f->qts, d, words, sizeof(words));
    }
    return head;
}

/*
 * Sends what it can of the frames queued for the netdev, never blocking:
 * while the NIC (the CPSW, the PC on USB0) takes no frames, the netdev
 * stops reading the socket.
 */
static void netdev_flush(Fuzz *f)
{
    while (f->out->len) {
        ssize_t n = send(f->sock[0], f->out->data, f->out->len, MSG_DONTWAIT);

        if (n <= 0) {
            break;
        }
        g_byte_array_remove_range(f->out, 0, n);
    }
}

/* One frame into the NIC, in the socket netdev's stream framing */
static void netdev_inject(Fuzz *f)
{
    uint32_t len = one_in(f, 6) ? rnd(f, 16384) : rnd(f, 1600);
    uint32_t be = cpu_to_be32(len);
    uint8_t *frame;

    if (f->out->len > 256 * KiB) {
        return;                 /* the wire is backed up: not this one */
    }
    g_byte_array_append(f->out, (uint8_t *)&be, 4);
    g_byte_array_set_size(f->out, f->out->len + len);
    frame = f->out->data + f->out->len - len;
    for (uint32_t i = 0; i < len; i++) {
        frame[i] = g_rand_int(f->r);
    }
    switch (rnd(f, 3)) {
    case 0:
        memset(frame, 0xff, MIN(len, 6));       /* broadcast */
        break;
    case 1:
        frame[0] &= len ? ~1 : 0xff;            /* unicast */
        break;
    }
}

/* Takes what the NIC sent, so that the netdev never stalls */
static void netdev_drain(Fuzz *f)
{
    static uint8_t buf[65536];

    ssize_t n;

    do {
        n = recv(f->sock[0], buf, sizeof(buf), MSG_DONTWAIT);
    } while (n > 0);
    netdev_flush(f);
}

static void cpsw_setup(Fuzz *f)
{
    QTestState *qts = f->qts;

    qtest_writel(qts, SS_STAT_PORT_EN, 7);
    for (int p = 1; p <= 2; p++) {
        qtest_writel(qts, SL_MACCONTROL(p), MAC_RUN);
    }
    qtest_writel(qts, ALE_CONTROL, (1u << 31) | (1u << 4));  /* bypass */
    for (int p = 0; p < 3; p++) {
        qtest_writel(qts, ALE_PORTCTL(p), 3);
    }
    qtest_writel(qts, TX_INTMASK_SET, 0xff);
    qtest_writel(qts, RX_INTMASK_SET, 0xffff);
    qtest_writel(qts, WR_C0_RX_EN, 0xff);
    qtest_writel(qts, WR_C0_TX_EN, 0xff);
    qtest_writel(qts, TX_CONTROL, 1);
    qtest_writel(qts, RX_CONTROL, 1);
}

static void cpsw_step(Fuzz *f)
{
    QTestState *qts = f->qts;
    uint32_t ch = rnd(f, 8), v;

    netdev_drain(f);
    switch (rnd(f, 24)) {
    case 0 ... 4:
        netdev_inject(f);
        break;
    case 5 ... 7:
        qtest_writel(qts, RX_HDP(ch), cpsw_chain(f, false));
        break;
    case 8 ... 10:
        qtest_writel(qts, TX_HDP(ch), cpsw_chain(f, true));
        break;
    case 11:
        /* Acknowledge what completed, or something else */
        v = qtest_readl(qts, one_in(f, 2) ? RX_CP(ch) : TX_CP(ch));
        qtest_writel(qts, one_in(f, 2) ? RX_CP(ch) : TX_CP(ch),
                     one_in(f, 4) ? g_rand_int(f->r) : v);
        qtest_writel(qts, CPDMA_EOI, rnd(f, 4));
        break;
    case 12:
        qtest_writel(qts, one_in(f, 2) ? RX_TEARDOWN : TX_TEARDOWN,
                     one_in(f, 4) ? g_rand_int(f->r) : ch);
        break;
    case 13:
        qtest_writel(qts, RX_FREEBUFFER(ch), count(f, 0xffffffff));
        break;
    case 14:
        v = MAC_RUN | (one_in(f, 3) ? MAC_LOOPBACK : 0);
        qtest_writel(qts, SL_MACCONTROL(1 + rnd(f, 2)),
                     one_in(f, 4) ? g_rand_int(f->r) : v);
        break;
    case 15:
        qtest_writel(qts, SL_RX_MAXLEN(1 + rnd(f, 2)), count(f, 0x3fff));
        break;
    case 16:
        /* Pacing on or off, at any rate */
        qtest_writel(qts, WR_INT_CONTROL, one_in(f, 2) ? 0x30000 | rnd(f, 0x800)
                                                      : 0);
        qtest_writel(qts, WR_C0_RX_IMAX + 4 * rnd(f, 2), count(f, 0x3f));
        break;
    case 17:
        qtest_writel(qts, one_in(f, 2) ? RX_BUFFER_OFFSET : DMACONTROL,
                     count(f, 0xffff));
        break;
    case 18:
        /* An ALE entry, of any type, at any index */
        for (int i = 0; i < 3; i++) {
            qtest_writel(qts, ALE_TBLW(i), g_rand_int(f->r));
        }
        qtest_writel(qts, ALE_TBLCTL, (1u << 31) | rnd(f, 1024));
        qtest_writel(qts, ALE_CONTROL, (1u << 31) |
                     (one_in(f, 2) ? 1u << 4 : 0) | (rnd(f, 4) << 29));
        break;
    case 19:
        if (one_in(f, 8)) {
            qtest_writel(qts, CPDMA_SOFT_RESET, 1);
            cpsw_setup(f);
        } else {
            qtest_writel(qts, one_in(f, 2) ? RX_CONTROL : TX_CONTROL,
                         rnd(f, 4));
        }
        break;
    default:
        qtest_clock_step(qts, 1 + rnd(f, 1000000));
        break;
    }
}

/* ---- MMC0 and the EDMA: data commands of every shape ---- */

#define MMC0            0x48060000u
#define MMC_SYSCONFIG   (MMC0 + 0x110)
#define MMC_BLK         (MMC0 + 0x204)
#define MMC_ARG         (MMC0 + 0x208)
#define MMC_CMD         (MMC0 + 0x20c)
#define MMC_RSP10       (MMC0 + 0x210)
#define MMC_DATA        (MMC0 + 0x220)
#define MMC_HCTL        (MMC0 + 0x228)
#define MMC_SYSCTL      (MMC0 + 0x22c)
#define MMC_STAT        (MMC0 + 0x230)
#define MMC_IE          (MMC0 + 0x234)
#define MMC_ISE         (MMC0 + 0x238)

#define CMD_DE          (1u << 0)
#define CMD_BCE         (1u << 1)
#define CMD_ACEN        (1u << 2)
#define CMD_DDIR_READ   (1u << 4)
#define CMD_MSBS        (1u << 5)
#define CMD_RSP_136     (1u << 16)
#define CMD_RSP_48      (2u << 16)
#define CMD_RSP_48_BUSY (3u << 16)
#define CMD_DP          (1u << 21)
#define CMD_INDX(n)     ((uint32_t)(n) << 24)

#define STAT_CC         (1u << 0)
#define STAT_ERRI       (1u << 15)

#define TPCC            0x49000000u
#define TPCC_EESR       (TPCC + 0x1030)
#define TPCC_ESR        (TPCC + 0x1010)
#define TPCC_IESR       (TPCC + 0x1060)
#define TPCC_ICR        (TPCC + 0x1070)
#define TPCC_EMCR       (TPCC + 0x308)
#define TPCC_CCERRCLR   (TPCC + 0x31c)
#define TPCC_DCHMAP(ch) (TPCC + 0x100 + 4 * (ch))
#define PARAM(set)      (TPCC + 0x4000 + 32 * (set))
#define MMC0_TX_EVENT   24      /* TRM table 11-23: MMCHS0's DMA events */
#define MMC0_RX_EVENT   25

static uint32_t mmc_cmd(Fuzz *f, int index, uint32_t arg, uint32_t flags)
{
    uint32_t stat = 0;

    qtest_writel(f->qts, MMC_ARG, arg);
    qtest_writel(f->qts, MMC_CMD, CMD_INDX(index) | flags);
    for (int i = 0; i < 16; i++) {
        stat = qtest_readl(f->qts, MMC_STAT);
        if (stat & (STAT_CC | STAT_ERRI)) {
            break;
        }
        qtest_clock_step(f->qts, 100000);
    }
    qtest_writel(f->qts, MMC_STAT, stat);
    return stat;
}

/* As the driver does: power, 400 kHz, the card to its transfer state */
static void mmc_setup(Fuzz *f)
{
    uint16_t rca;

    qtest_writel(f->qts, MMC_HCTL, 7u << 9);
    qtest_writel(f->qts, MMC_HCTL, 7u << 9 | 1u << 8);
    qtest_writel(f->qts, MMC_SYSCTL, 1 | 240 << 6);
    qtest_writel(f->qts, MMC_SYSCTL, 1 | 4 | 240 << 6);
    qtest_writel(f->qts, MMC_IE, 0x337f0033);
    qtest_writel(f->qts, MMC_ISE, 0x337f0033);
    mmc_cmd(f, 0, 0, 0);
    mmc_cmd(f, 8, 0x1aa, CMD_RSP_48);
    for (int i = 0; i < 10; i++) {
        mmc_cmd(f, 55, 0, CMD_RSP_48);
        mmc_cmd(f, 41, 0x40ff8000, CMD_RSP_48);
        if (qtest_readl(f->qts, MMC_RSP10) & (1u << 31)) {
            break;
        }
        qtest_clock_step(f->qts, 1000000);
    }
    mmc_cmd(f, 2, 0, CMD_RSP_136);
    mmc_cmd(f, 3, 0, CMD_RSP_48);
    rca = qtest_readl(f->qts, MMC_RSP10) >> 16;
    mmc_cmd(f, 7, (uint32_t)rca << 16, CMD_RSP_48_BUSY);
    /* 24 MHz, 4 bits, as the driver runs a card */
    qtest_writel(f->qts, MMC_SYSCTL, 1 | 4 | 4 << 6);
    /* As the driver maps them: channel n on PaRAM set n */
    qtest_writel(f->qts, TPCC_DCHMAP(MMC0_TX_EVENT), MMC0_TX_EVENT << 5);
    qtest_writel(f->qts, TPCC_DCHMAP(MMC0_RX_EVENT), MMC0_RX_EVENT << 5);
    qtest_writel(f->qts, TPCC_EESR, 3u << MMC0_TX_EVENT);
    qtest_writel(f->qts, TPCC_IESR, ~0u);
}

/* The PaRAM set of an MMC0 event: the driver's, with a field gone wrong */
static void mmc_param(Fuzz *f, bool rx, uint32_t blen, uint32_t nblk)
{
    uint32_t set = rx ? MMC0_RX_EVENT : MMC0_TX_EVENT;
    uint32_t mem = dma_addr(f, MMC0);
    uint32_t p[8] = {
        /* OPT: AB-synchronized, TCINTEN, TCC = the event */
        (1u << 2) | (1u << 20) | set << 12,
        rx ? MMC_DATA : mem,
        MAX(blen / 4, 1) << 16 | 4,
        rx ? mem : MMC_DATA,
        rx ? 4 << 16 : 4,                       /* BIDX: the next word */
        0xffff,                                 /* no link */
        rx ? blen << 16 : blen,                 /* CIDX: the next block */
        MAX(nblk, 1),
    };

    if (one_in(f, 3)) {
        uint32_t i = rnd(f, 8);

        p[i] = i == 5 ? (rnd(f, 256) * 32) | (count(f, 0xffff) << 16)
                      : g_rand_int(f->r);
    }
    for (int i = 0; i < 8; i++) {
        qtest_writel(f->qts, PARAM(set) + 4 * i, p[i]);
    }
}

static void mmc_step(Fuzz *f)
{
    QTestState *qts = f->qts;
    static const uint8_t data_cmds[] = { 17, 18, 24, 25, 6, 13, 51, 56, 53 };
    uint32_t blen, nblk, flags, index;
    bool read;

    switch (rnd(f, 16)) {
    case 0 ... 5:
        /* A data command, mostly with a sane block size */
        blen = one_in(f, 3) ? count(f, 0xfff) : 512;
        nblk = one_in(f, 2) ? 1 + rnd(f, 16) : count(f, 0xffff);
        index = one_in(f, 8) ? rnd(f, 64)
                             : data_cmds[rnd(f, sizeof(data_cmds))];
        read = index != 24 && index != 25 ? !one_in(f, 8) : one_in(f, 8);
        flags = CMD_DP | CMD_RSP_48 | (read ? CMD_DDIR_READ : 0) |
                (nblk > 1 || one_in(f, 4) ? CMD_MSBS | CMD_BCE : 0) |
                (one_in(f, 4) ? CMD_ACEN : 0) |
                (one_in(f, 3) ? 0 : CMD_DE);
        if (flags & CMD_DE) {
            mmc_param(f, read, blen, nblk);
        }
        qtest_writel(qts, MMC_BLK, nblk << 16 | blen);
        qtest_writel(qts, MMC_ARG, one_in(f, 4) ? g_rand_int(f->r)
                                                : rnd(f, 8192));
        qtest_writel(qts, MMC_CMD, CMD_INDX(index) |
                     (one_in(f, 8) ? g_rand_int(f->r) & 0x3f3b0037 : flags));
        break;
    case 6 ... 7:
        /* PIO: the data port, as far as the buffer lets it */
        for (uint32_t i = count(f, 0x3ff); i; i--) {
            if (one_in(f, 2)) {
                qtest_readl(qts, MMC_DATA);
            } else {
                qtest_writel(qts, MMC_DATA, g_rand_int(f->r));
            }
        }
        break;
    case 8:
        /* Stop, status, or any command with any response */
        switch (rnd(f, 3)) {
        case 0:
            mmc_cmd(f, 12, 0, CMD_RSP_48_BUSY | (3u << 22));
            break;
        case 1:
            mmc_cmd(f, 13, 0, CMD_RSP_48);
            break;
        default:
            mmc_cmd(f, rnd(f, 64), g_rand_int(f->r), rnd(f, 4) << 16);
            break;
        }
        break;
    case 9:
        /* The line resets (SRC, SRD, SRA) or a clock change */
        qtest_writel(qts, MMC_SYSCTL, 1 | 4 | (rnd(f, 1024) << 6) |
                     (one_in(f, 2) ? 1u << (24 + rnd(f, 3)) : 0));
        break;
    case 10:
        /* Clear statuses; trigger or clear the MMC0 events by hand */
        qtest_writel(qts, MMC_STAT, g_rand_int(f->r));
        qtest_writel(qts, TPCC_ICR, ~0u);
        qtest_writel(qts, TPCC_EMCR, ~0u);
        qtest_writel(qts, TPCC_CCERRCLR, ~0u);
        if (one_in(f, 2)) {
            qtest_writel(qts, TPCC_ESR, 1u << (MMC0_TX_EVENT + rnd(f, 2)));
        }
        break;
    case 11:
        if (one_in(f, 16)) {
            qtest_writel(qts, MMC_SYSCONFIG, 2);       /* SOFTRESET */
            qtest_clock_step(qts, 100000);
            mmc_setup(f);
        } else {
            qtest_writel(qts, MMC_HCTL, (7u << 9 | 1u << 8 | 2) ^
                         (one_in(f, 4) ? 1u << rnd(f, 32) : 0));
        }
        break;
    default:
        qtest_clock_step(qts, 1 + rnd(f, one_in(f, 4) ? 10000000 : 100000));
        break;
    }
}

/* ---- The EVM's NAND behind the GPMC ---- */

#define GPMC            0x50000000u
#define GPMC_NAND_CMD   (GPMC + 0x07c)
#define GPMC_NAND_ADDR  (GPMC + 0x080)
#define GPMC_NAND_DATA  (GPMC + 0x084)
#define PREFETCH_CONFIG1 (GPMC + 0x1e0)
#define PREFETCH_CONFIG2 (GPMC + 0x1e4)
#define PREFETCH_CONTROL (GPMC + 0x1ec)
#define PREFETCH_STATUS (GPMC + 0x1f0)
#define ECC_CONFIG      (GPMC + 0x1f4)
#define ECC_CONTROL     (GPMC + 0x1f8)
#define ECC_SIZE_CONFIG (GPMC + 0x1fc)
#define BCH_RESULT(n, k) (GPMC + 0x240 + 0x10 * (n) + 4 * (k))
#define CS0_WINDOW      0x08000000u
#define ELM             0x48080000u
#define ELM_LOCATION_CONFIG (ELM + 0x020)
#define ELM_PAGE_CTRL   (ELM + 0x080)
#define ELM_SYNDROME(n, k) (ELM + 0x400 + 0x40 * (n) + 4 * (k))

/* MT29F2G08ABAEAWP: 2048 + 64-byte pages, 64 a block, 2048 blocks */
#define NAND_PAGES      (64 * 2048)
#define NAND_FULL_PAGE  2112

static void nand_cmd(Fuzz *f, uint8_t c)
{
    qtest_writeb(f->qts, GPMC_NAND_CMD, c);
}

/* Column and row cycles; now and then past the page or the chip */
static void nand_address(Fuzz *f, bool column, bool row)
{
    uint32_t col = one_in(f, 4) ? rnd(f, 0x10000) : rnd(f, NAND_FULL_PAGE);
    uint32_t page = one_in(f, 8) ? g_rand_int(f->r) : rnd(f, NAND_PAGES);

    if (column) {
        qtest_writeb(f->qts, GPMC_NAND_ADDR, col);
        qtest_writeb(f->qts, GPMC_NAND_ADDR, col >> 8);
    }
    for (int i = 0; row && i < 3; i++) {
        qtest_writeb(f->qts, GPMC_NAND_ADDR, page >> (8 * i));
    }
    /* An extra cycle, or one short, sometimes */
    if (one_in(f, 16)) {
        qtest_writeb(f->qts, GPMC_NAND_ADDR, g_rand_int(f->r));
    }
}

static void nand_data(Fuzz *f, bool read, uint32_t n)
{
    bool window = one_in(f, 2);

    for (uint32_t i = 0; i < n; i += 4) {
        uint32_t a = window ? CS0_WINDOW + rnd(f, 0x100) * 4 : GPMC_NAND_DATA;

        if (read) {
            qtest_readl(f->qts, a);
        } else {
            qtest_writel(f->qts, a, g_rand_int(f->r));
        }
    }
}

static void nand_setup(Fuzz *f)
{
    nand_cmd(f, 0xff);
    qtest_clock_step(f->qts, 1000000);
}

static void nand_step(Fuzz *f)
{
    static const uint8_t odd_cmds[] = {
        0x70, 0x90, 0xec, 0xee, 0xef, 0x05, 0xff, 0xe0
    };
    QTestState *qts = f->qts;
    uint32_t n = one_in(f, 4) ? count(f, 0x1fff) : NAND_FULL_PAGE;

    switch (rnd(f, 16)) {
    case 0 ... 2:
        nand_cmd(f, 0x00);
        nand_address(f, true, true);
        nand_cmd(f, one_in(f, 8) ? g_rand_int(f->r) : 0x30);
        qtest_clock_step(qts, rnd(f, 100000));
        nand_data(f, true, n);
        break;
    case 3 ... 4:
        nand_cmd(f, 0x80);
        nand_address(f, true, true);
        nand_data(f, false, n);
        if (one_in(f, 4)) {
            nand_cmd(f, 0x85);                  /* change write column */
            nand_address(f, true, false);
            nand_data(f, false, count(f, 0xfff));
        }
        nand_cmd(f, one_in(f, 8) ? g_rand_int(f->r) : 0x10);
        break;
    case 5:
        nand_cmd(f, 0x60);
        nand_address(f, false, true);
        nand_cmd(f, one_in(f, 8) ? g_rand_int(f->r) : 0xd0);
        break;
    case 6:
        /* Status, ID, parameter page, features, random data out, reset */
        nand_cmd(f, odd_cmds[rnd(f, sizeof(odd_cmds))]);
        nand_address(f, one_in(f, 2), false);
        nand_data(f, !one_in(f, 4), count(f, 0x3ff));
        break;
    case 7:
        nand_cmd(f, g_rand_int(f->r));
        break;
    case 8 ... 9:
        /* The prefetch/write-posting engine, over any count */
        qtest_writel(qts, PREFETCH_CONTROL, 0);
        qtest_writel(qts, PREFETCH_CONFIG2, count(f, 0x3fff));
        /* CS0 mostly, any threshold, engine on, read or write */
        qtest_writel(qts, PREFETCH_CONFIG1,
                     (one_in(f, 8) ? rnd(f, 8) : 0) << 24 |
                     rnd(f, 0x80) << 8 | (1u << 7) | rnd(f, 2) |
                     (one_in(f, 4) ? g_rand_int(f->r) & 0x3333000c : 0));
        qtest_writel(qts, PREFETCH_CONTROL, 1);
        for (uint32_t i = count(f, 0x7ff); i; i--) {
            if (one_in(f, 4)) {
                qtest_readl(qts, PREFETCH_STATUS);
            } else if (one_in(f, 2)) {
                qtest_readl(qts, CS0_WINDOW + 4 * rnd(f, 0x100));
            } else {
                qtest_writel(qts, CS0_WINDOW, g_rand_int(f->r));
            }
        }
        break;
    case 10:
        /* ECC: BCH4/8/16 or Hamming, any sector count and sizes */
        qtest_writel(qts, ECC_CONTROL, 0x101);
        qtest_writel(qts, ECC_SIZE_CONFIG, g_rand_int(f->r));
        qtest_writel(qts, ECC_CONFIG, one_in(f, 4) ? g_rand_int(f->r)
                     : (1u << 16) | (rnd(f, 3) << 12) | (rnd(f, 16) << 8) |
                       (rnd(f, 8) << 4) | 1);
        break;
    case 11:
        for (int k = 0; k < 7; k++) {
            qtest_readl(qts, BCH_RESULT(rnd(f, 8), k));
        }
        break;
    case 12:
        /* The ELM: syndromes of any level for any of its 8 buffers */
        qtest_writel(qts, ELM_LOCATION_CONFIG,
                     count(f, 0x7ff) << 16 | rnd(f, 4));
        qtest_writel(qts, ELM_PAGE_CTRL, rnd(f, 256));
        for (int k = 0; k < 7; k++) {
            qtest_writel(qts, ELM_SYNDROME(rnd(f, 8), k), g_rand_int(f->r));
        }
        qtest_writel(qts, ELM_SYNDROME(rnd(f, 8), 6),
                     g_rand_int(f->r) | (1u << 16));
        break;
    default:
        qtest_clock_step(qts, 1 + rnd(f, 1000000));
        break;
    }
}

/* ---- MUSB USB1 with a usb-storage stick, CPPI 4.1 DMA ---- */

#define USBSS           0x47400000u
#define USBSS_SYSCONFIG (USBSS + 0x10)
#define USBSS_IRQ_STATUS (USBSS + 0x28)
#define USBSS_IRQ_ENABLE (USBSS + 0x2c)
#define USB1_WRAP       0x47401800u
#define W_IRQSTAT0      (USB1_WRAP + 0x30)
#define W_IRQSTAT1      (USB1_WRAP + 0x34)
#define W_IRQENABLESET0 (USB1_WRAP + 0x38)
#define W_IRQENABLESET1 (USB1_WRAP + 0x3c)
#define W_MODE          (USB1_WRAP + 0xe8)
#define USB1_CORE       (USB1_WRAP + 0x400)
#define C_POWER         (USB1_CORE + 0x01)
#define C_INDEX         (USB1_CORE + 0x0e)
#define C_TXMAXP        (USB1_CORE + 0x10)
#define C_CSR           (USB1_CORE + 0x12)      /* CSR0 or TXCSR */
#define C_RXMAXP        (USB1_CORE + 0x14)
#define C_RXCSR         (USB1_CORE + 0x16)
#define C_TXTYPE        (USB1_CORE + 0x1a)
#define C_RXTYPE        (USB1_CORE + 0x1c)
#define C_FIFO(n)       (USB1_CORE + 0x20 + 4 * (n))
#define C_DEVCTL        (USB1_CORE + 0x60)
#define C_TXFIFOSZ      (USB1_CORE + 0x62)
#define C_RXFIFOSZ      (USB1_CORE + 0x63)
#define C_TXFUNCADDR(n) (USB1_CORE + 0x80 + 8 * (n))
#define C_RXFUNCADDR(n) (USB1_CORE + 0x84 + 8 * (n))
#define CPPI_CTRL       0x47402000u
#define CPPI_TDFDQ      (CPPI_CTRL + 0x004)
#define CPPI_TXGCR(c)   (CPPI_CTRL + 0x800 + 0x20 * (c))
#define CPPI_RXGCR(c)   (CPPI_CTRL + 0x808 + 0x20 * (c))
#define CPPI_RXHPCRA(c) (CPPI_CTRL + 0x80c + 0x20 * (c))
#define CPPI_SCHED      0x47403000u
#define SCHED_CTRL      (CPPI_SCHED + 0x000)
#define SCHED_WORD(n)   (CPPI_SCHED + 0x800 + 4 * (n))
#define CPPI_QMGR       0x47404000u
#define QMGR_LRAM0_BASE (CPPI_QMGR + 0x080)
#define QMGR_LRAM_SIZE  (CPPI_QMGR + 0x084)
#define QMGR_MEMBASE(r) (CPPI_QMGR + 0x1000 + 0x10 * (r))
#define QMGR_MEMCTRL(r) (CPPI_QMGR + 0x1004 + 0x10 * (r))
#define QUEUE_D(q)      (CPPI_QMGR + 0x200c + 0x10 * (q))
#define QUEUES          156

/* USB1's endpoint 1 is DMA channel 15; its queues as Linux sets them */
#define USB_CH          15
#define TX_SUBMIT_Q(c)  (32 + 2 * (c))
#define TX_COMPLETE_Q(c) (110 + (c))
#define RX_FREE_Q(c)    (1 + (c))
#define RX_COMPLETE_Q(c) (126 + (c))
#define USB_DESC(i)     (DDR_BASE + 32 * (i))
#define USB_DESCS       128
#define USB_BUF(i)      (DDR_BASE + 0x10000 + 0x1000 * (i))

static void usb_wait_ep0(Fuzz *f)
{
    for (int i = 0; i < 64; i++) {
        if (qtest_readl(f->qts, W_IRQSTAT0) & 1) {
            qtest_writel(f->qts, W_IRQSTAT0, 1);
            return;
        }
        qtest_clock_step(f->qts, 125000);
    }
}

/* A control request with no data stage, as the driver sends one */
static void usb_control(Fuzz *f, uint8_t addr, const uint8_t setup[8])
{
    QTestState *qts = f->qts;

    qtest_writeb(qts, C_INDEX, 0);
    qtest_writeb(qts, C_TXFUNCADDR(0), addr);
    for (int i = 0; i < 8; i++) {
        qtest_writeb(qts, C_FIFO(0), setup[i]);
    }
    qtest_writew(qts, C_CSR, 0x0008 | 0x0002);          /* SETUPPKT, TXPKTRDY */
    usb_wait_ep0(f);
    qtest_writew(qts, C_CSR, 0x0040 | 0x0020 | 0x0800); /* status IN */
    usb_wait_ep0(f);
    qtest_writew(qts, C_CSR, 0);
}

/* The queue manager: 128 descriptors of 32 bytes at the bottom of DDR */
static void usb_qm_setup(Fuzz *f)
{
    QTestState *qts = f->qts;

    qtest_writel(qts, QMGR_LRAM0_BASE, DDR_BASE + 0x8000);
    qtest_writel(qts, QMGR_LRAM_SIZE, USB_DESCS);
    qtest_writel(qts, QMGR_MEMBASE(0), DDR_BASE);
    qtest_writel(qts, QMGR_MEMCTRL(0), 2);
    qtest_writel(qts, CPPI_TDFDQ, 31);
    qtest_writel(qts, SCHED_CTRL, 0x8000003b);
    qtest_writel(qts, CPPI_RXHPCRA(USB_CH), RX_FREE_Q(USB_CH));
    qtest_writel(qts, CPPI_RXGCR(USB_CH), 0x81004000 | RX_COMPLETE_Q(USB_CH));
    qtest_writel(qts, CPPI_TXGCR(USB_CH), 0x80000000);
}

/* A session, the stick addressed and configured, EP1 on its bulk pipes */
static void usb_setup(Fuzz *f)
{
    static const uint8_t set_address[8] = { 0x00, 5, 1, 0, 0, 0, 0, 0 };
    static const uint8_t set_config[8] = { 0x00, 9, 1, 0, 0, 0, 0, 0 };
    QTestState *qts = f->qts;
    uint16_t maxp;

    qtest_writel(qts, USBSS_IRQ_ENABLE, ~0u);
    qtest_writel(qts, W_IRQENABLESET0, 0xfffeffff);
    qtest_writel(qts, W_IRQENABLESET1, 0x1f7);
    qtest_writeb(qts, C_POWER, 0x20);                   /* HSENAB */
    qtest_writeb(qts, C_DEVCTL, 0x01);                  /* SESSION */
    qtest_writeb(qts, C_POWER, 0x20 | 0x08);            /* port reset */
    qtest_writeb(qts, C_POWER, 0x20);
    maxp = qtest_readb(qts, C_POWER) & 0x10 ? 512 : 64;
    usb_control(f, 0, set_address);
    usb_control(f, 1, set_config);
    qtest_writeb(qts, C_INDEX, 1);
    qtest_writeb(qts, C_TXFUNCADDR(1), 1);
    qtest_writeb(qts, C_RXFUNCADDR(1), 1);
    qtest_writeb(qts, C_TXTYPE, 0x20 | 2);
    qtest_writeb(qts, C_RXTYPE, 0x20 | 1);
    qtest_writew(qts, C_TXMAXP, maxp);
    qtest_writew(qts, C_RXMAXP, maxp);
    qtest_writeb(qts, C_TXFIFOSZ, 6);
    qtest_writeb(qts, C_RXFIFOSZ, 6);
    usb_qm_setup(f);
}

/* A bulk-only CBW the stick may act on: INQUIRY, READ(10) or WRITE(10) */
static void usb_cbw(Fuzz *f, uint32_t addr)
{
    static const uint8_t ops[] = { 0x12, 0x28, 0x2a, 0x00, 0x25 };
    uint32_t len = count(f, 0xffff);
    uint8_t cbw[31] = {
        'U', 'S', 'B', 'C', 1, 2, 3, 4,
        len, len >> 8, 0, 0, one_in(f, 2) ? 0x80 : 0, 0, 10,
    };

    cbw[15] = ops[rnd(f, sizeof(ops))];
    cbw[19] = rnd(f, 2048) >> 8;
    cbw[20] = rnd(f, 256);
    cbw[22] = 0;
    cbw[23] = MAX(len / 512, 1);
    if (one_in(f, 8)) {
        cbw[rnd(f, sizeof(cbw))] = g_rand_int(f->r);
    }
    qtest_memwrite(f->qts, addr, cbw, sizeof(cbw));
}

/*
 * A host packet descriptor at @i, sometimes with a host buffer descriptor
 * linked, with a field gone wrong now and then.
 */
static uint32_t usb_desc(Fuzz *f, uint32_t i, uint32_t ret_q)
{
    uint32_t len = one_in(f, 2) ? 31 : count(f, 0x3fffff);
    uint32_t buf = one_in(f, 2) ? USB_BUF(rnd(f, 16)) : dma_addr(f, USB1_WRAP);
    uint32_t next = 0;
    uint32_t pd[8];

    if (one_in(f, 4)) {
        next = one_in(f, 2) ? USB_DESC(rnd(f, USB_DESCS + 8))
                            : dma_addr(f, CPPI_QMGR);
    }
    pd[0] = (one_in(f, 8) ? rnd(f, 32) : 16u) << 27 | len;
    pd[1] = one_in(f, 8) ? g_rand_int(f->r) : 0;
    pd[2] = (one_in(f, 8) ? g_rand_int(f->r) & 0xfc000000 : 5u << 26) | ret_q;
    pd[3] = one_in(f, 4) ? count(f, 0x3fffff) : len;
    pd[4] = buf;
    pd[5] = next;
    pd[6] = (one_in(f, 4) ? 0 : 1u << 31) | (len & 0x3fffff);
    pd[7] = buf;
    if (one_in(f, 6)) {
        pd[rnd(f, 8)] = g_rand_int(f->r);
    }
    for (int w = 0; w < 8; w++) {
        qtest_writel(f->qts, USB_DESC(i % USB_DESCS) + 4 * w, pd[w]);
    }
    if (buf >= DDR_BASE && buf < DDR_BASE + DDR_WORK && one_in(f, 2)) {
        usb_cbw(f, buf);
    }
    return USB_DESC(i % USB_DESCS) | (one_in(f, 8) ? rnd(f, 32) : 2);
}

static uint32_t usb_queue(Fuzz *f, uint32_t q)
{
    return one_in(f, 8) ? rnd(f, one_in(f, 4) ? 512 : QUEUES) : q;
}

static void usb_step(Fuzz *f)
{
    QTestState *qts = f->qts;
    uint32_t ch = one_in(f, 6) ? rnd(f, 32) : USB_CH;
    uint32_t d;

    switch (rnd(f, 20)) {
    case 0 ... 2:
        /* A packet to send: the submit queue, its descriptor */
        d = usb_desc(f, rnd(f, USB_DESCS),
                     usb_queue(f, TX_COMPLETE_Q(USB_CH)));
        if (one_in(f, 16)) {
            d = dma_addr(f, CPPI_QMGR);
        }
        qtest_writel(qts, QUEUE_D(usb_queue(f, TX_SUBMIT_Q(ch))), d);
        break;
    case 3 ... 5:
        /* A free buffer to receive into */
        d = usb_desc(f, rnd(f, USB_DESCS),
                     usb_queue(f, RX_COMPLETE_Q(USB_CH)));
        qtest_writel(qts, QUEUE_D(usb_queue(f, RX_FREE_Q(ch))), d);
        break;
    case 6 ... 7:
        /* Completions popped, or any queue */
        qtest_readl(qts, QUEUE_D(usb_queue(f, one_in(f, 2) ?
                                           TX_COMPLETE_Q(USB_CH) :
                                           RX_COMPLETE_Q(USB_CH))));
        break;
    case 8 ... 9:
        /* EP1's CSRs: DMA on, IN tokens, flushes, or anything */
        qtest_writeb(qts, C_INDEX, one_in(f, 8) ? rnd(f, 16) : 1);
        if (one_in(f, 2)) {
            qtest_writew(qts, C_CSR, one_in(f, 4) ? g_rand_int(f->r)
                                                  : 0x2000 | 0x1000 | 0x0400);
        } else {
            qtest_writew(qts, C_RXCSR, one_in(f, 4) ? g_rand_int(f->r)
                                                    : 0x2000 | 0x0020);
        }
        break;
    case 10:
        /* A channel enabled, torn down, or written anyhow */
        switch (rnd(f, 4)) {
        case 0:
            qtest_writel(qts, CPPI_TXGCR(ch), 0x80000000 |
                         (one_in(f, 2) ? 0x40000000 : 0));
            break;
        case 1:
            qtest_writel(qts, CPPI_RXGCR(ch), 0x81004000 |
                         (one_in(f, 2) ? 0x40000000 : 0) |
                         usb_queue(f, RX_COMPLETE_Q(USB_CH)));
            break;
        case 2:
            qtest_writel(qts, CPPI_RXHPCRA(ch), g_rand_int(f->r) &
                         (one_in(f, 2) ? 0x3fff3fff : 0x3f));
            break;
        default:
            qtest_writel(qts, CPPI_CTRL + 0x800 + rnd(f, 0x400) * 4,
                         g_rand_int(f->r));
            break;
        }
        break;
    case 11:
        /* The queue manager's regions, its linking RAM, the scheduler */
        switch (rnd(f, 4)) {
        case 0:
            qtest_writel(qts, QMGR_MEMBASE(rnd(f, 16)),
                         dma_addr(f, CPPI_QMGR) & ~0x1fu);
            qtest_writel(qts, QMGR_MEMCTRL(rnd(f, 16)), g_rand_int(f->r) &
                         (one_in(f, 2) ? 0x3fff0f07 : ~0u));
            break;
        case 1:
            qtest_writel(qts, QMGR_LRAM0_BASE, dma_addr(f, CPPI_QMGR));
            qtest_writel(qts, QMGR_LRAM_SIZE, count(f, 0x3fff));
            break;
        case 2:
            qtest_writel(qts, SCHED_CTRL, 0x80000000 | rnd(f, 256));
            qtest_writel(qts, SCHED_WORD(rnd(f, 64)), g_rand_int(f->r));
            break;
        default:
            usb_qm_setup(f);
            break;
        }
        break;
    case 12:
        /* EP0: a random request, a stage, or bytes through its FIFO */
        qtest_writeb(qts, C_INDEX, 0);
        for (int i = 0; i < 8; i++) {
            qtest_writeb(qts, C_FIFO(0), g_rand_int(f->r));
        }
        if (one_in(f, 2)) {
            qtest_readb(qts, C_FIFO(0));
        }
        qtest_writew(qts, C_CSR, one_in(f, 2) ? 0x000a
                                              : g_rand_int(f->r) & 0xffff);
        break;
    case 13:
        /* Endpoint shapes: packet sizes, types, FIFO sizes, addresses */
        qtest_writeb(qts, C_INDEX, rnd(f, 16));
        qtest_writew(qts, C_TXMAXP, count(f, 0xffff));
        qtest_writew(qts, C_RXMAXP, count(f, 0xffff));
        qtest_writeb(qts, C_TXTYPE, g_rand_int(f->r));
        qtest_writeb(qts, C_RXTYPE, g_rand_int(f->r));
        qtest_writeb(qts, C_TXFIFOSZ, g_rand_int(f->r));
        qtest_writeb(qts, C_RXFIFOSZ, g_rand_int(f->r));
        qtest_writeb(qts, C_TXFUNCADDR(rnd(f, 16)),
                     rnd(f, 4) ? 1 : rnd(f, 128));
        qtest_writeb(qts, C_RXFUNCADDR(rnd(f, 16)),
                     rnd(f, 4) ? 1 : rnd(f, 128));
        break;
    case 14:
        /* Statuses cleared; rarely a port reset, session end, soft reset */
        qtest_writel(qts, W_IRQSTAT0, g_rand_int(f->r));
        qtest_writel(qts, W_IRQSTAT1, g_rand_int(f->r));
        qtest_writel(qts, USBSS_IRQ_STATUS, g_rand_int(f->r));
        switch (rnd(f, 32)) {
        case 0:
            qtest_writeb(qts, C_POWER, 0x20 | 0x08);
            qtest_writeb(qts, C_POWER, 0x20);
            break;
        case 1:
            qtest_writeb(qts, C_DEVCTL, rnd(f, 2));
            break;
        case 2:
            qtest_writel(qts, W_MODE, g_rand_int(f->r) & 0x1ff);
            break;
        case 3:
            qtest_writel(qts, USBSS_SYSCONFIG, 1);
            qtest_clock_step(qts, 100000);
            usb_setup(f);
            break;
        }
        break;
    default:
        qtest_clock_step(qts, 1 + rnd(f, one_in(f, 4) ? 10000000 : 200000));
        break;
    }
}

/* ---- MUSB USB0 as the gadget, with the PC on its socket ---- */

#define USB0_WRAP       0x47401000u
#define G_IRQSTAT0      (USB0_WRAP + 0x30)
#define G_IRQSTAT1      (USB0_WRAP + 0x34)
#define G_IRQENABLESET0 (USB0_WRAP + 0x38)
#define G_IRQENABLESET1 (USB0_WRAP + 0x3c)
#define G_CTRL          (USB0_WRAP + 0x14)
#define G_MODE          (USB0_WRAP + 0xe8)
#define USB0_CORE       (USB0_WRAP + 0x400)
#define G_FADDR         (USB0_CORE + 0x00)
#define G_POWER         (USB0_CORE + 0x01)
#define G_INDEX         (USB0_CORE + 0x0e)
#define G_TXMAXP        (USB0_CORE + 0x10)
#define G_CSR           (USB0_CORE + 0x12)      /* CSR0 or TXCSR */
#define G_RXMAXP        (USB0_CORE + 0x14)
#define G_RXCSR         (USB0_CORE + 0x16)
#define G_COUNT         (USB0_CORE + 0x18)
#define G_FIFO(n)       (USB0_CORE + 0x20 + 4 * (n))
#define G_TXFIFOSZ      (USB0_CORE + 0x62)
#define G_RXFIFOSZ      (USB0_CORE + 0x63)
/* USB0's endpoint 1 is DMA channel 0 */
#define G_CH            0

/* An ECM function's descriptors, which the fuzzer damages now and then */
static const uint8_t gadget_device[18] = {
    18, 1, 0x00, 0x02, 2, 0, 0, 64, 0x6b, 0x1d, 0x04, 0x01, 0x00, 0x01,
    0, 0, 0, 1,
};
static const uint8_t gadget_config[80] = {
    9, 2, 80, 0, 2, 1, 0, 0xc0, 1,
    9, 4, 0, 0, 1, 2, 6, 0, 0,
    5, 0x24, 0x00, 0x10, 0x01,
    5, 0x24, 0x06, 0, 1,
    13, 0x24, 0x0f, 4, 0, 0, 0, 0, 0xea, 0x05, 0, 0, 0,
    7, 5, 0x82, 3, 16, 0, 9,
    9, 4, 1, 0, 0, 0x0a, 0, 0, 0,
    9, 4, 1, 1, 2, 0x0a, 0, 0, 0,
    7, 5, 0x81, 2, 0x00, 0x02, 0,
    7, 5, 0x01, 2, 0x00, 0x02, 0,
};

/*
 * EP0 as musb_gadget_ep0 runs it: the PC's request answered with the
 * descriptors it asks for; unless @clean, now and then cut short,
 * damaged or overlong, with a late or wrong address, a stall, stray
 * CSR0 bits.  Returns the request it answered (0: none).
 */
static uint8_t gadget_ep0(Fuzz *f, bool clean)
{
    QTestState *qts = f->qts;
    uint8_t req[8], data[96];
    uint16_t csr;
    int len = 0;

    qtest_writeb(qts, G_INDEX, 0);
    csr = qtest_readw(qts, G_CSR);
    if (!clean && one_in(f, 8)) {
        qtest_writew(qts, G_CSR, g_rand_int(f->r));
        return 0;
    }
    if (!(csr & 0x0001)) {
        /* Between requests: now and then an address of its own */
        if (!clean && one_in(f, 16)) {
            qtest_writeb(qts, G_FADDR, rnd(f, 4) ? 1 : rnd(f, 128));
        }
        return 0;
    }
    for (int i = 0; i < 8; i++) {
        req[i] = qtest_readb(qts, G_FIFO(0));
    }
    if (req[0] == 0x80 && req[1] == 6) {
        if (req[3] == 1) {
            len = sizeof(gadget_device);
            memcpy(data, gadget_device, len);
        } else if (req[3] == 2) {
            len = sizeof(gadget_config);
            memcpy(data, gadget_config, len);
        }
        len = MIN(len, req[6] | req[7] << 8);
        if (!clean && one_in(f, 6)) {
            data[rnd(f, MAX(len, 1))] = g_rand_int(f->r);
        }
        if (!clean && one_in(f, 8)) {
            len = rnd(f, sizeof(data));
        }
    }
    if (!clean && one_in(f, 10)) {
        qtest_writew(qts, G_CSR, 0x0040 | 0x0020);      /* STALL */
        return req[1];
    }
    if (!len) {
        qtest_writew(qts, G_CSR, 0x0040 | 0x0008);      /* no data stage */
        if (req[1] == 5) {
            /* The address takes effect after the status stage, or late */
            qtest_clock_step(qts, clean ? 100000 : rnd(f, 3000000));
            qtest_writeb(qts, G_FADDR, req[2] & 0x7f);
        }
        return req[1];
    }
    qtest_writew(qts, G_CSR, 0x0040);
    for (int pos = 0; pos < len; pos += 64) {
        int n = MIN(64, len - pos);

        if (!clean && one_in(f, 16)) {
            n += rnd(f, 8);
        }
        for (int i = 0; i < n; i++) {
            qtest_writeb(qts, G_FIFO(0), data[(pos + i) % sizeof(data)]);
        }
        qtest_writew(qts, G_CSR, 0x0002 | (pos + 64 >= len ? 0x0008 : 0));
        qtest_clock_step(qts, clean ? 200000 : 1000 + rnd(f, 200000));
    }
    return req[1];
}

/* B-device with its pull-up on; the PC's enumeration answered */
static void gadget_setup(Fuzz *f)
{
    QTestState *qts = f->qts;

    qtest_writel(qts, USBSS_IRQ_ENABLE, ~0u);
    qtest_writel(qts, G_IRQENABLESET0, 0xfffeffff);
    qtest_writel(qts, G_IRQENABLESET1, 0x1f7);
    qtest_writel(qts, G_MODE, 0x180);                   /* B-device */
    qtest_writeb(qts, G_POWER, 0x20 | 0x40);            /* HSENAB, SOFTCONN */
    /* Up to the packet filter, the PC's last request */
    for (int i = 0; i < 2000; i++) {
        qtest_clock_step(qts, 1000000);
        if (gadget_ep0(f, true) == 0x43) {
            break;
        }
    }
    qtest_writeb(qts, G_INDEX, 1);
    qtest_writew(qts, G_TXMAXP, 512);
    qtest_writew(qts, G_RXMAXP, 512);
    qtest_writeb(qts, G_TXFIFOSZ, 6);
    qtest_writeb(qts, G_RXFIFOSZ, 6);
    usb_qm_setup(f);
    qtest_writel(qts, CPPI_RXHPCRA(G_CH), RX_FREE_Q(G_CH));
    qtest_writel(qts, CPPI_RXGCR(G_CH), 0x81004000 | RX_COMPLETE_Q(G_CH));
    qtest_writel(qts, CPPI_TXGCR(G_CH), 0x80000000);
    netdev_drain(f);
}

static void gadget_step(Fuzz *f)
{
    QTestState *qts = f->qts;
    uint32_t ch = one_in(f, 6) ? rnd(f, 32) : G_CH;
    uint32_t d, n;

    netdev_drain(f);
    switch (rnd(f, 20)) {
    case 0 ... 2:
        gadget_ep0(f, false);
        break;
    case 3 ... 5:
        /* EP1 IN by PIO: a packet of any size, or a zero-length one */
        qtest_writeb(qts, G_INDEX, one_in(f, 8) ? rnd(f, 16) : 1);
        n = one_in(f, 8) ? count(f, 0x1fff) : rnd(f, 513);
        for (uint32_t i = 0; i < n; i += 4) {
            qtest_writel(qts, G_FIFO(1), g_rand_int(f->r));
        }
        qtest_writew(qts, G_CSR, one_in(f, 6) ? g_rand_int(f->r)
                                              : 0x2000 | 0x0001);
        break;
    case 6:
        /* EP1 IN by DMA: TXCSR as txstate sets it, a descriptor queued */
        qtest_writeb(qts, G_INDEX, 1);
        qtest_writew(qts, G_CSR, 0x2000 | 0x1000 | 0x0400);
        d = usb_desc(f, rnd(f, USB_DESCS), usb_queue(f, TX_COMPLETE_Q(G_CH)));
        qtest_writel(qts, QUEUE_D(usb_queue(f, TX_SUBMIT_Q(ch))), d);
        break;
    case 7 ... 8:
        /* EP1 OUT: the packet read and released, or the CSR anyhow */
        qtest_writeb(qts, G_INDEX, one_in(f, 8) ? rnd(f, 16) : 1);
        n = qtest_readw(qts, G_COUNT);
        for (uint32_t i = 0; i < MIN(n, 600); i += 4) {
            qtest_readl(qts, G_FIFO(1));
        }
        qtest_writew(qts, G_RXCSR, one_in(f, 4) ? g_rand_int(f->r) : 0);
        break;
    case 9:
        /* RX by DMA (Linux does not, the hardware can) and completions */
        qtest_writeb(qts, G_INDEX, 1);
        qtest_writew(qts, G_RXCSR, 0x2000);
        d = usb_desc(f, rnd(f, USB_DESCS), usb_queue(f, RX_COMPLETE_Q(G_CH)));
        qtest_writel(qts, QUEUE_D(usb_queue(f, RX_FREE_Q(ch))), d);
        qtest_readl(qts, QUEUE_D(usb_queue(f, one_in(f, 2) ?
                                           TX_COMPLETE_Q(G_CH) :
                                           RX_COMPLETE_Q(G_CH))));
        break;
    case 10:
        /* A channel torn down or enabled again */
        qtest_writel(qts, one_in(f, 2) ? CPPI_TXGCR(ch) : CPPI_RXGCR(ch),
                     0x80000000 | (one_in(f, 2) ? 0x40000000 : 0) |
                     (one_in(f, 2) ? 0x01004000 | RX_COMPLETE_Q(G_CH) : 0));
        break;
    case 11 ... 12:
        /* Frames from the PC's netdev: the PC sends them to the gadget */
        netdev_inject(f);
        break;
    case 13:
        /* Endpoint shapes: packet and FIFO sizes, at any index */
        qtest_writeb(qts, G_INDEX, rnd(f, 16));
        qtest_writew(qts, G_TXMAXP, count(f, 0xffff));
        qtest_writew(qts, G_RXMAXP, count(f, 0xffff));
        qtest_writeb(qts, G_TXFIFOSZ, g_rand_int(f->r));
        qtest_writeb(qts, G_RXFIFOSZ, g_rand_int(f->r));
        break;
    case 14:
        /* Statuses cleared; rarely the pull-up, the role, a soft reset */
        qtest_writel(qts, G_IRQSTAT0, g_rand_int(f->r));
        qtest_writel(qts, G_IRQSTAT1, g_rand_int(f->r));
        switch (rnd(f, 32)) {
        case 0:
            qtest_writeb(qts, G_POWER, 0x20 | (one_in(f, 2) ? 0x40 : 0));
            break;
        case 1:
            qtest_writel(qts, G_MODE, one_in(f, 4) ? 0x080 : 0x180);
            break;
        case 2:
            qtest_writel(qts, G_CTRL, 1);
            gadget_setup(f);
            break;
        case 3:
            qtest_writeb(qts, G_FADDR, g_rand_int(f->r));
            break;
        }
        break;
    default:
        /* Time: mostly short; now and then past the PC's time-outs */
        qtest_clock_step(qts, one_in(f, 200) ? 6000000000LL
                              : 1 + rnd(f, one_in(f, 4) ? 10000000 : 200000));
        break;
    }
}

/* ---- McASP0 fed and drained by the EDMA ---- */

#define MCASP0          0x48038000u
#define MCASP_GBLCTL    (MCASP0 + 0x44)
#define MCASP_DLBCTL    (MCASP0 + 0x4c)
#define MCASP_SIDE(rx)  (MCASP0 + ((rx) ? 0x60 : 0xa0))  /* [RX]GBLCTL */
#define SIDE_MASK       0x04
#define SIDE_FMT        0x08
#define SIDE_AFSCTL     0x0c
#define SIDE_ACLKCTL    0x10
#define SIDE_AHCLKCTL   0x14
#define SIDE_TDM        0x18
#define SIDE_INTCTL     0x1c
#define SIDE_STAT       0x20
#define SIDE_EVTCTL     0x2c
#define MCASP_SRCTL(n)  (MCASP0 + 0x180 + 4 * (n))
#define MCASP_XBUF(n)   (MCASP0 + 0x200 + 4 * (n))
#define MCASP_RBUF(n)   (MCASP0 + 0x280 + 4 * (n))
#define MCASP_FIFOCTL(rx) (MCASP0 + ((rx) ? 0x1008 : 0x1000))
#define MCASP_FIFOSTS(rx) (MCASP0 + ((rx) ? 0x100c : 0x1004))
#define MCASP0_DATA     0x46000000u
#define MCASP0_TX_EVENT 8       /* TRM table 11-23: McASP0's DMA events */
#define MCASP0_RX_EVENT 9
#define TPCC_SECR       (TPCC + 0x1040)

/* One side as davinci-mcasp sets I2S up, with a field gone wrong */
static void mcasp_format(Fuzz *f, bool rx)
{
    uint32_t side = MCASP_SIDE(rx);
    uint32_t r[] = {
        /* MASK, FMT (MSB first, 16-bit slots, data port), AFSCTL */
        0xffff, (1u << 15) | (7u << 4) | 4, (2u << 7) | (1u << 4) | 2,
        /* ACLKCTL (internal, /16), AHCLKCTL, TDM, INTCTL */
        (1u << 5) | 15, 0, 3, 0xff,
    };
    uint32_t i;

    if (one_in(f, 2)) {
        i = rnd(f, G_N_ELEMENTS(r));
        /* Slot sizes, TDM slots, dividers: the small and the extreme */
        r[i] = one_in(f, 2) ? g_rand_int(f->r) : count(f, 0xffff);
    }
    for (i = 0; i < G_N_ELEMENTS(r); i++) {
        qtest_writel(f->qts, side + SIDE_MASK + 4 * i, r[i]);
    }
    qtest_writel(f->qts, side + SIDE_EVTCTL, one_in(f, 8));
}

/*
 * The PaRAM set of a McASP0 event, as the cyclic DMA of the ALSA driver
 * makes it: A-synchronized words between a DDR ring and the data port,
 * linked to a copy of itself in set 64 + the event; a field gone wrong.
 */
static void mcasp_param(Fuzz *f, bool rx)
{
    uint32_t ev = rx ? MCASP0_RX_EVENT : MCASP0_TX_EVENT;
    uint32_t mem = dma_addr(f, MCASP0);
    uint32_t words = one_in(f, 4) ? count(f, 0xffff) : 1 + rnd(f, 64);
    uint32_t periods = one_in(f, 4) ? count(f, 0xffff) : 1 + rnd(f, 4);
    uint32_t port = one_in(f, 8) ? (rx ? MCASP_RBUF(0) : MCASP_XBUF(0))
                                 : MCASP0_DATA;
    uint32_t link = PARAM(64 + ev) & 0xffff;
    uint32_t p[8] = {
        (1u << 20) | ev << 12,                  /* TCINTEN, TCC */
        rx ? port : mem,
        words << 16 | 4,
        rx ? mem : port,
        rx ? 4u << 16 : 4,
        link | (words << 16),                   /* BCNTRLD */
        0,
        periods,
    };

    if (one_in(f, 3)) {
        uint32_t i = rnd(f, 8);

        p[i] = i == 5 ? (rnd(f, 256) * 32) | (count(f, 0xffff) << 16)
                      : g_rand_int(f->r);
    }
    for (int i = 0; i < 8; i++) {
        qtest_writel(f->qts, PARAM(ev) + 4 * i, p[i]);
        qtest_writel(f->qts, PARAM(64 + ev) + 4 * i, p[i]);
    }
}

/* Out of reset, the TX and RX clocks, serializers and frame syncs going */
static void mcasp_start(Fuzz *f, bool rx)
{
    static const uint32_t steps[] = {
        1u << 1, 1u << 0, 1u << 2, 1u << 3, 1u << 4,    /* HCLK .. FSRST */
    };
    uint32_t v = 0;
    uint32_t n = one_in(f, 4) ? rnd(f, 6) : 5;

    for (uint32_t i = 0; i < n; i++) {
        v |= steps[i] << (rx ? 0 : 8);           /* RGBLCTL, XGBLCTL */
        if (i == 3) {
            /* Before the state machine starts, the data is there */
            qtest_writel(f->qts, MCASP_SIDE(rx) + SIDE_STAT, ~0u);
        }
        qtest_writel(f->qts, MCASP_SIDE(rx), v);
    }
}

static void mcasp_setup(Fuzz *f)
{
    mcasp_format(f, false);
    mcasp_format(f, true);
    qtest_writel(f->qts, MCASP_SRCTL(0), 1);    /* AXR0 transmits */
    qtest_writel(f->qts, MCASP_SRCTL(1), 2);    /* AXR1 receives */
    qtest_writel(f->qts, TPCC_DCHMAP(MCASP0_TX_EVENT), MCASP0_TX_EVENT << 5);
    qtest_writel(f->qts, TPCC_DCHMAP(MCASP0_RX_EVENT), MCASP0_RX_EVENT << 5);
    qtest_writel(f->qts, TPCC_EESR, 3u << MCASP0_TX_EVENT);
    qtest_writel(f->qts, TPCC_IESR, ~0u);
    mcasp_param(f, false);
    mcasp_param(f, true);
}

static void mcasp_step(Fuzz *f)
{
    QTestState *qts = f->qts;
    bool rx = one_in(f, 2);

    switch (rnd(f, 16)) {
    case 0:
        mcasp_format(f, rx);
        break;
    case 1:
        /* Serializers: any mode, any of the 16 the register map has */
        qtest_writel(qts, MCASP_SRCTL(rnd(f, 16)),
                     one_in(f, 4) ? g_rand_int(f->r) : rnd(f, 3));
        break;
    case 2:
        /* The FIFOs: any event size, on and off */
        qtest_writel(qts, MCASP_FIFOCTL(rx), count(f, 0xffff));
        qtest_writel(qts, MCASP_FIFOCTL(rx),
                     (one_in(f, 4) ? g_rand_int(f->r) : count(f, 0xffff)) |
                     (one_in(f, 4) ? 0 : 1u << 16));
        break;
    case 3 ... 4:
        mcasp_start(f, rx);
        break;
    case 5 ... 6:
        mcasp_param(f, rx);
        if (one_in(f, 4)) {
            qtest_writel(qts, TPCC_ESR, 1u << (MCASP0_TX_EVENT + rx));
        }
        break;
    case 7:
        /* The CPU at the data port or the buffers */
        for (uint32_t i = count(f, 0x7f); i; i--) {
            uint32_t a = one_in(f, 4) ? MCASP0 + 0x200 + 4 * rnd(f, 64)
                                      : MCASP0_DATA + 4 * rnd(f, 0x400);

            if (one_in(f, 2)) {
                qtest_readl(qts, a);
            } else {
                qtest_writel(qts, a, g_rand_int(f->r));
            }
        }
        qtest_readl(qts, MCASP_FIFOSTS(rx));
        break;
    case 8:
        /* Statuses cleared; loopback; the whole McASP in or out of reset */
        qtest_writel(qts, MCASP_SIDE(rx) + SIDE_STAT, g_rand_int(f->r));
        qtest_writel(qts, TPCC_ICR, ~0u);
        qtest_writel(qts, TPCC_EMCR, ~0u);
        qtest_writel(qts, TPCC_SECR, ~0u);
        qtest_writel(qts, TPCC_CCERRCLR, ~0u);
        if (one_in(f, 2)) {
            qtest_writel(qts, MCASP_DLBCTL, rnd(f, 16));
        }
        if (one_in(f, 4)) {
            qtest_writel(qts, MCASP_GBLCTL,
                         one_in(f, 2) ? 0 : g_rand_int(f->r));
        }
        break;
    default:
        qtest_clock_step(qts, 1 + rnd(f, one_in(f, 4) ? 10000000 : 100000));
        break;
    }
}

/* ---- The LCDC's raster DMA ---- */

#define LCDC            0x4830e000u
#define LCDC_CTRL       (LCDC + 0x04)
#define LCDC_RASTER_CTRL (LCDC + 0x28)
#define LCDC_TIMING(n)  (LCDC + 0x2c + 4 * (n))
#define LCDC_DMA_CTRL   (LCDC + 0x40)
#define LCDC_FB_BASE(n) (LCDC + 0x44 + 8 * (n))
#define LCDC_FB_CEILING(n) (LCDC + 0x48 + 8 * (n))
#define LCDC_IRQSTATUS  (LCDC + 0x5c)
#define LCDC_IRQENABLE_SET (LCDC + 0x60)
#define LCDC_CLKC_ENABLE (LCDC + 0x6c)
#define LCDC_CLKC_RESET (LCDC + 0x70)
#define CLKSEL_LCDC_PIXEL_CLK 0x44e00534u

/*
 * A panel's timings as tilcdc encodes them, mostly a small one (so that
 * frames come often), sometimes the largest the fields hold, sometimes
 * anything.
 */
static uint32_t lcdc_field(Fuzz *f, uint32_t max)
{
    return one_in(f, 4) ? rnd(f, max + 1) : rnd(f, 4);
}

static void lcdc_panel(Fuzz *f)
{
    uint32_t ppl = lcdc_field(f, 0x7ff);
    uint32_t lpp = lcdc_field(f, 0x7ff);
    uint32_t t[3] = {
        (ppl & 0x3f) << 4 | (ppl >> 6 & 1) << 3 | lcdc_field(f, 63) << 10 |
            lcdc_field(f, 255) << 16 | lcdc_field(f, 255) << 24,
        (lpp & 0x3ff) | lcdc_field(f, 63) << 10 | lcdc_field(f, 255) << 16 |
            lcdc_field(f, 255) << 24,
        (lpp >> 10 & 1) << 26 | (ppl >> 7 & 0xf) << 27 |
            (one_in(f, 4) ? g_rand_int(f->r) & 0x03f0ff00 : 0),
    };

    if (one_in(f, 8)) {
        t[rnd(f, 3)] = g_rand_int(f->r);
    }
    for (int i = 0; i < 3; i++) {
        qtest_writel(f->qts, LCDC_TIMING(i), t[i]);
    }
    /* CLKDIV 0 and 1 are not allowed in raster mode: a guest may try */
    qtest_writel(f->qts, LCDC_CTRL, lcdc_field(f, 255) << 8 | 1);
}

static void lcdc_setup(Fuzz *f)
{
    qtest_writel(f->qts, CLKSEL_LCDC_PIXEL_CLK, 2);
    qtest_writel(f->qts, LCDC_CLKC_ENABLE, 7);
    qtest_writel(f->qts, LCDC_IRQENABLE_SET, 0x3ff);
    lcdc_panel(f);
}

static void lcdc_step(Fuzz *f)
{
    QTestState *qts = f->qts;
    uint32_t fb = rnd(f, 2);
    uint32_t base, size;
    uint8_t junk[64];

    switch (rnd(f, 12)) {
    case 0:
        lcdc_panel(f);
        break;
    case 1 ... 2:
        /* A frame buffer anywhere, its ceiling mostly after its base */
        base = dma_addr(f, LCDC);
        size = one_in(f, 4) ? g_rand_int(f->r) : count(f, 0xfffff);
        qtest_writel(qts, LCDC_FB_BASE(fb), base);
        qtest_writel(qts, LCDC_FB_CEILING(fb),
                     one_in(f, 8) ? base - size : base + size);
        break;
    case 3:
        /* DMA: single or dual frame buffers, any burst and threshold */
        qtest_writel(qts, LCDC_DMA_CTRL,
                     one_in(f, 4) ? g_rand_int(f->r) : rnd(f, 2) |
                     rnd(f, 8) << 4 | rnd(f, 8) << 8);
        break;
    case 4 ... 5:
        /* The raster on or off: TFT, palette modes, 24-bit, any bits */
        qtest_writel(qts, LCDC_RASTER_CTRL, one_in(f, 4) ? g_rand_int(f->r)
                     : (1u << 7) | rnd(f, 3) << 20 | rnd(f, 4) << 25 |
                       rnd(f, 2));
        break;
    case 6:
        /* Palettes and pixels: whatever is in the work area */
        for (size_t i = 0; i < sizeof(junk); i++) {
            junk[i] = g_rand_int(f->r);
        }
        qtest_memwrite(qts, DDR_BASE + (rnd(f, DDR_WORK) & ~63u), junk,
                       sizeof(junk));
        break;
    case 7:
        qtest_writel(qts, LCDC_IRQSTATUS, g_rand_int(f->r));
        qtest_writel(qts, LCDC_IRQENABLE_SET, g_rand_int(f->r));
        if (one_in(f, 4)) {
            /* Resets of the core, DMA or LIDD/raster, mostly let go */
            qtest_writel(qts, LCDC_CLKC_RESET, rnd(f, 16));
            if (!one_in(f, 4)) {
                qtest_writel(qts, LCDC_CLKC_RESET, 0);
            }
            qtest_writel(qts, LCDC_CLKC_ENABLE, one_in(f, 4) ? rnd(f, 8) : 7);
        }
        if (one_in(f, 8)) {
            qtest_writel(qts, CLKSEL_LCDC_PIXEL_CLK, rnd(f, 4));
        }
        break;
    default:
        qtest_clock_step(qts, 1 + rnd(f, one_in(f, 4) ? 20000000 : 200000));
        break;
    }
}

/* ---- The TSC_ADC's FIFOs drained by the EDMA ---- */

#define TSCADC          0x44e0d000u
#define ADC_IRQSTATUS   (TSCADC + 0x28)
#define ADC_IRQENABLE_SET (TSCADC + 0x2c)
#define ADC_DMAENABLE_SET (TSCADC + 0x38)
#define ADC_DMAENABLE_CLR (TSCADC + 0x3c)
#define ADC_CTRL        (TSCADC + 0x40)
#define ADC_RANGE       (TSCADC + 0x48)
#define ADC_CLKDIV      (TSCADC + 0x4c)
#define ADC_STEPENABLE  (TSCADC + 0x54)
#define ADC_IDLECONFIG  (TSCADC + 0x58)
#define ADC_CHARGECONFIG (TSCADC + 0x5c)
#define ADC_CHARGEDELAY (TSCADC + 0x60)
#define ADC_STEPCONFIG(n) (TSCADC + 0x64 + 8 * ((n) - 1))
#define ADC_STEPDELAY(n) (TSCADC + 0x68 + 8 * ((n) - 1))
#define ADC_FIFOTHRESHOLD(n) (TSCADC + 0xe8 + 12 * (n))
#define ADC_DMAREQ(n)   (TSCADC + 0xec + 12 * (n))
#define ADC_FIFODATA(n) (TSCADC + 0x100 * ((n) + 1))
#define ADC_FIFO0_EVENT 53      /* am33xx.dtsi: the tscadc's dmas */
#define ADC_FIFO1_EVENT 57
#define TPCC_EESRH      (TPCC + 0x1034)
#define TPCC_ESRH       (TPCC + 0x1014)
#define TPCC_IESRH      (TPCC + 0x1064)

static uint32_t adc_event(uint32_t fifo)
{
    return fifo ? ADC_FIFO1_EVENT : ADC_FIFO0_EVENT;
}

/* A step: a software-started input to a FIFO, mostly sane */
static void adc_step_config(Fuzz *f, uint32_t n)
{
    qtest_writel(f->qts, ADC_STEPCONFIG(n), one_in(f, 4) ? g_rand_int(f->r)
                 : rnd(f, 2) | rnd(f, 5) << 2 | rnd(f, 9) << 19 |
                   rnd(f, 2) << 26 | (one_in(f, 4) ? 1u << 27 : 0));
    qtest_writel(f->qts, ADC_STEPDELAY(n), one_in(f, 8) ? g_rand_int(f->r)
                 : rnd(f, 256) | rnd(f, 4) << 24);
}

/*
 * The PaRAM set of a FIFO's event, as the ADC driver's cyclic DMA makes
 * it: a burst of words from the FIFO's window into a DDR ring, linked to
 * a copy of itself; a field gone wrong.
 */
static void adc_param(Fuzz *f, uint32_t fifo)
{
    uint32_t ev = adc_event(fifo);
    uint32_t words = one_in(f, 4) ? count(f, 0xffff) : 1 + rnd(f, 64);
    uint32_t p[8] = {
        (1u << 2) | (1u << 20) | ev << 12,      /* AB-sync, TCINTEN, TCC */
        one_in(f, 8) ? dma_addr(f, TSCADC) : ADC_FIFODATA(fifo),
        words << 16 | 4,
        dma_addr(f, TSCADC),
        4u << 16 | (one_in(f, 4) ? 4 : 0),      /* the FIFO's window */
        (PARAM(64 + ev) & 0xffff) | (words << 16),
        4 * words << 16,
        one_in(f, 4) ? count(f, 0xffff) : 1 + rnd(f, 8),
    };

    if (one_in(f, 3)) {
        uint32_t i = rnd(f, 8);

        /*
         * Any ACNT, but at most 255 arrays: 4 GiB read from registers
         * would be a minute of host time (the TC does move it, in steps)
         */
        p[i] = i == 5 ? (rnd(f, 256) * 32) | (count(f, 0xffff) << 16)
             : i == 2 ? count(f, 0xff) << 16 | count(f, 0xffff)
                      : g_rand_int(f->r);
    }
    for (int i = 0; i < 8; i++) {
        qtest_writel(f->qts, PARAM(ev) + 4 * i, p[i]);
        qtest_writel(f->qts, PARAM(64 + ev) + 4 * i, p[i]);
    }
}

static void adc_setup(Fuzz *f)
{
    /* STEPCONFIG writable, step ID tags, the subsystem off for now */
    qtest_writel(f->qts, ADC_CTRL, 0x6);
    for (uint32_t n = 1; n <= 16; n++) {
        adc_step_config(f, n);
    }
    qtest_writel(f->qts, ADC_IRQENABLE_SET, 0x7ff);
    for (uint32_t fifo = 0; fifo < 2; fifo++) {
        qtest_writel(f->qts, TPCC_DCHMAP(adc_event(fifo)),
                     adc_event(fifo) << 5);
        qtest_writel(f->qts, ADC_FIFOTHRESHOLD(fifo), 31);
        qtest_writel(f->qts, ADC_DMAREQ(fifo), 15);
        adc_param(f, fifo);
    }
    qtest_writel(f->qts, TPCC_EESRH, 1u << (ADC_FIFO0_EVENT - 32) |
                 1u << (ADC_FIFO1_EVENT - 32));
    qtest_writel(f->qts, TPCC_IESRH, ~0u);
    qtest_writel(f->qts, ADC_DMAENABLE_SET, 3);
    qtest_writel(f->qts, ADC_STEPENABLE, 0x1fffe);
    qtest_writel(f->qts, ADC_CTRL, 0x7);
}

static void adc_step(Fuzz *f)
{
    QTestState *qts = f->qts;
    uint32_t fifo = rnd(f, 2);

    switch (rnd(f, 14)) {
    case 0 ... 1:
        /* Steps rewritten (CTRL.StepConfig_WriteProtect_n mostly set) */
        if (one_in(f, 8)) {
            qtest_writel(qts, ADC_CTRL, 0x3);
        }
        adc_step_config(f, 1 + rnd(f, 16));
        break;
    case 2:
        qtest_writel(qts, ADC_STEPENABLE, one_in(f, 4) ? g_rand_int(f->r)
                                                       : rnd(f, 0x20000));
        break;
    case 3:
        /* Enabled or not, tags, power-down, or anything */
        qtest_writel(qts, ADC_CTRL, one_in(f, 4) ? g_rand_int(f->r)
                                                 : 0x6 | rnd(f, 2));
        if (one_in(f, 4)) {
            qtest_writel(qts, ADC_CLKDIV, count(f, 0xffff));
        }
        break;
    case 4:
        /* FIFO and DMA request levels: any, above 63 too */
        qtest_writel(qts, ADC_FIFOTHRESHOLD(fifo), count(f, 0xff));
        qtest_writel(qts, ADC_DMAREQ(fifo), count(f, 0xff));
        qtest_writel(qts, ADC_RANGE, g_rand_int(f->r));
        break;
    case 5:
        qtest_writel(qts, one_in(f, 3) ? ADC_DMAENABLE_CLR : ADC_DMAENABLE_SET,
                     rnd(f, 4));
        break;
    case 6 ... 7:
        adc_param(f, fifo);
        if (one_in(f, 4)) {
            qtest_writel(qts, TPCC_ESRH, 1u << (adc_event(fifo) - 32));
        }
        break;
    case 8:
        /* The CPU reading the FIFOs, anywhere in their windows */
        for (uint32_t i = count(f, 0x7f); i; i--) {
            qtest_readl(qts, ADC_FIFODATA(fifo) + 4 * rnd(f, 64));
        }
        break;
    case 9:
        qtest_writel(qts, ADC_IRQSTATUS, g_rand_int(f->r));
        qtest_writel(qts, TPCC_ICR, ~0u);
        qtest_writel(qts, TPCC_EMCR, ~0u);
        qtest_writel(qts, TPCC_CCERRCLR, ~0u);
        break;
    default:
        qtest_clock_step(qts, 1 + rnd(f, one_in(f, 4) ? 10000000 : 100000));
        break;
    }
}

/*
 * The EVM's touchscreen too: the finger (QEMU's absolute pointer, through
 * QMP) down, moving and up at any time, the TSC switched on and off in
 * 4-wire mode or another, steps with the pen switches (hardware-
 * synchronized ones among them), the idle and charge steps anyhow.
 */
/* The finger at @x, @y (QEMU's absolute axes), down or up */
static void adc_finger(Fuzz *f, int x, int y, bool down)
{
    QDict *resp = qtest_qmp(f->qts, "{ 'execute': 'input-send-event', "
        "'arguments': { 'events': ["
        " { 'type': 'abs', 'data': { 'axis': 'x', 'value': %d } },"
        " { 'type': 'abs', 'data': { 'axis': 'y', 'value': %d } },"
        " { 'type': 'btn', 'data': { 'down': %i, 'button': 'left' } }"
        " ] } }", x, y, down);

    qobject_unref(resp);
}

static void adc_touch_step(Fuzz *f)
{
    QTestState *qts = f->qts;

    switch (rnd(f, 7)) {
    case 6:
        /* ti_am335x_tsc's set-up for the EVM: Y x5, Z1, Z2, X x5 */
        qtest_writel(qts, ADC_CTRL, 0xa6);
        qtest_writel(qts, ADC_IDLECONFIG, 0x440500);
        qtest_writel(qts, ADC_CTRL, 0xa7);
        for (uint32_t n = 5; n <= 16; n++) {
            qtest_writel(qts, ADC_STEPCONFIG(n),
                         n <= 9 ? 0x440192 : n == 10 ? 0x4400d2 :
                         n == 11 ? 0x5c00d2 : 0x540072);
        }
        qtest_writel(qts, ADC_CHARGECONFIG, 0x440500);
        qtest_writel(qts, ADC_CHARGEDELAY, 0x400);
        qtest_writel(qts, ADC_STEPENABLE, 0x1ffe1);
        /* Its sequences run while the finger moves, as the driver reads */
        for (int i = rnd(f, 8); i; i--) {
            adc_finger(f, rnd(f, 0x8000), rnd(f, 0x8000), !one_in(f, 4));
            qtest_clock_step(qts, rnd(f, 3000000));
            qtest_readl(qts, ADC_FIFODATA(0));
            qtest_writel(qts, ADC_IRQSTATUS, g_rand_int(f->r));
            qtest_writel(qts, ADC_STEPENABLE, 0x1ffe1);
        }
        break;
    case 0 ... 2:
        adc_finger(f, rnd(f, 0x8000), rnd(f, 0x8000), !one_in(f, 3));
        break;
    case 3:
        qtest_writel(qts, ADC_CTRL, one_in(f, 4) ? g_rand_int(f->r)
                     : 0x6 | rnd(f, 2) | (rnd(f, 4) << 5) | (rnd(f, 4) << 7));
        break;
    case 4:
        /* A step with pen switches: X, Y or Z as Linux's, or any */
        qtest_writel(qts, ADC_STEPCONFIG(1 + rnd(f, 16)),
                     rnd(f, 4) | rnd(f, 5) << 2 |
                     (one_in(f, 2) ? rnd(f, 128) << 5 : 0x60) |
                     rnd(f, 9) << 19 | rnd(f, 2) << 26);
        qtest_writel(qts, ADC_STEPENABLE, rnd(f, 0x20000));
        break;
    default:
        qtest_writel(qts, one_in(f, 2) ? ADC_IDLECONFIG : ADC_CHARGECONFIG,
                     one_in(f, 2) ? 0x440500 : g_rand_int(f->r));
        qtest_writel(qts, ADC_CHARGEDELAY, count(f, 0x3ffff));
        break;
    }
}

static void adc_evm_step(Fuzz *f)
{
    if (one_in(f, 4)) {
        adc_touch_step(f);
    } else {
        adc_step(f);
    }
}

/* ---- DCAN: two controllers on one CAN bus ---- */

static const uint32_t dcan_base[2] = { 0x481cc000u, 0x481d0000u };
#define DCAN_CTL        0x00
#define DCAN_ES         0x04
#define DCAN_BTR        0x0c
#define DCAN_INT        0x10
#define DCAN_TEST       0x14
#define DCAN_ABOTR      0x80
#define DCAN_INTMUX(n)  (0xd8 + 4 * (n))
#define DCAN_IF(i, reg) (0x100 + 0x20 * (i) + (reg))
#define DCAN_IFCMD      0x00
#define DCAN_IFMSK      0x04
#define DCAN_IFARB      0x08
#define DCAN_IFMCTL     0x0c
#define DCAN_IFDATA     0x10
#define DCAN_IFDATB     0x14
#define DCAN_IF3OBS     0x140
#define DCAN_IF3UPD(n)  (0x160 + 4 * (n))
#define DCAN_CTL_INIT   (1u << 0)
#define DCAN_CTL_RUN    0x0002000eu     /* IE0, SIE, EIE, IE1 */
#define DCAN_CTL_CCE    (1u << 6)
#define DCAN_CTL_TEST   (1u << 7)
#define DCAN_CTL_SWR    (1u << 15)
#define DCAN_CTL_PDR    (1u << 24)
#define DCAN_CMD_WR     (1u << 23)
#define DCAN_CMD_ALL    0x00770000u     /* mask, arb, control, data A/B */
#define DCAN_CMD_CLRINTPND (1u << 19)
#define DCAN_CMD_TXRQST_NEWDAT (1u << 18)
#define DCAN_ARB_MSGVAL (1u << 31)
#define DCAN_ARB_XTD    (1u << 30)
#define DCAN_ARB_DIR    (1u << 29)
#define DCAN_MCTL_EOB   (1u << 7)
#define DCAN_MCTL_TXRQST (1u << 8)
#define DCAN_MCTL_RMTEN (1u << 9)
#define DCAN_MCTL_RXIE  (1u << 10)
#define DCAN_MCTL_TXIE  (1u << 11)
#define DCAN_MCTL_UMASK (1u << 12)
#define DCAN_OBJECTS    64
/* 500 kbit/s from the 24 MHz CAN_CLK: BRP 2, TSeg1 10, TSeg2 3 (16 tq) */
#define DCAN_BTR_500K   (2u | 2u << 6 | 10u << 8 | 3u << 12)

static void dcan_wr(Fuzz *f, int n, uint32_t reg, uint32_t value)
{
    qtest_writel(f->qts, dcan_base[n] + reg, value);
}

/* A message number: mostly an object's, else 0 or beyond the 64 */
static uint32_t dcan_object(Fuzz *f)
{
    return one_in(f, 16) ? (one_in(f, 2) ? 0 : DCAN_OBJECTS + 1 +
                            rnd(f, 255 - DCAN_OBJECTS))
                         : 1 + rnd(f, DCAN_OBJECTS);
}

/*
 * Object @obj through interface @i as c_can sets its objects up: the
 * lower half receive objects chained in a FIFO taking every identifier,
 * the upper half transmit objects; a field gone wrong.
 */
static void dcan_put(Fuzz *f, int n, int i, uint32_t obj, bool tx)
{
    uint32_t id = one_in(f, 2) ? rnd(f, 0x800) << 18
                               : g_rand_int(f->r) & 0x1fffffff;
    uint32_t v[5] = {
        one_in(f, 2) ? 0 : g_rand_int(f->r),
        DCAN_ARB_MSGVAL | (id >> 18 << 18 == id ? 0 : DCAN_ARB_XTD) |
            (tx ? DCAN_ARB_DIR : 0) | id,
        rnd(f, 16) | (tx ? DCAN_MCTL_TXIE | DCAN_MCTL_TXRQST
                         : DCAN_MCTL_RXIE | DCAN_MCTL_UMASK |
                           (one_in(f, 4) ? DCAN_MCTL_EOB : 0)) |
            (one_in(f, 4) ? DCAN_MCTL_RMTEN : 0),
        g_rand_int(f->r),
        g_rand_int(f->r),
    };
    uint32_t cmd = DCAN_CMD_WR | DCAN_CMD_ALL;

    if (one_in(f, 4)) {
        v[rnd(f, 5)] = g_rand_int(f->r);
    }
    if (one_in(f, 4)) {
        cmd = g_rand_int(f->r) & 0x00ff0000;
    }
    for (int r = 0; r < 5; r++) {
        dcan_wr(f, n, DCAN_IF(i, DCAN_IFMSK + 4 * r), v[r]);
    }
    dcan_wr(f, n, DCAN_IF(i, DCAN_IFCMD), cmd | obj);
}

static void dcan_start(Fuzz *f, int n)
{
    dcan_wr(f, n, DCAN_CTL, DCAN_CTL_INIT | DCAN_CTL_CCE);
    dcan_wr(f, n, DCAN_BTR, one_in(f, 4) ? g_rand_int(f->r) : DCAN_BTR_500K);
    dcan_wr(f, n, DCAN_CTL, DCAN_CTL_RUN);
}

static void dcan_setup(Fuzz *f)
{
    /* The control module's RAMINIT, as c_can_platform starts each one */
    qtest_writel(f->qts, 0x44e10644, 3);
    for (int n = 0; n < 2; n++) {
        dcan_wr(f, n, DCAN_CTL, DCAN_CTL_INIT | DCAN_CTL_CCE);
        for (uint32_t obj = 1; obj <= DCAN_OBJECTS; obj++) {
            dcan_put(f, n, 0, obj, obj > DCAN_OBJECTS / 2);
        }
        dcan_start(f, n);
    }
}

static void dcan_step(Fuzz *f)
{
    QTestState *qts = f->qts;
    int n = rnd(f, 2), i = rnd(f, 2);
    uint32_t obj = dcan_object(f);

    switch (rnd(f, 14)) {
    case 0 ... 3:
        /* A frame to send, or a receive object set up again */
        dcan_put(f, n, i, obj, obj > DCAN_OBJECTS / 2 || one_in(f, 4));
        break;
    case 4 ... 5:
        /* c_can's reads: an object out, its flags cleared */
        dcan_wr(f, n, DCAN_IF(i, DCAN_IFCMD), (one_in(f, 4) ?
                g_rand_int(f->r) & 0x007f0000 : DCAN_CMD_ALL |
                DCAN_CMD_CLRINTPND | DCAN_CMD_TXRQST_NEWDAT) | obj);
        for (int r = 0; r < 6; r++) {
            qtest_readl(qts, dcan_base[n] + DCAN_IF(i, 4 * r));
        }
        break;
    case 6:
        /* A transmission requested from the object as it is */
        dcan_wr(f, n, DCAN_IF(i, DCAN_IFCMD), DCAN_CMD_WR |
                DCAN_CMD_TXRQST_NEWDAT | obj);
        break;
    case 7:
        /* Status and interrupts read as the ISR reads them */
        qtest_readl(qts, dcan_base[n] + DCAN_INT);
        qtest_readl(qts, dcan_base[n] + DCAN_ES);
        for (uint32_t r = 0x84; r < 0xd4; r += 4) {
            qtest_readl(qts, dcan_base[n] + r);
        }
        break;
    case 8:
        /* Loopback, silent, or both; sometimes test mode left */
        dcan_wr(f, n, DCAN_CTL, DCAN_CTL_RUN | DCAN_CTL_TEST |
                (one_in(f, 4) ? DCAN_CTL_INIT : 0));
        dcan_wr(f, n, DCAN_TEST, g_rand_int(f->r) & 0x1f8);
        if (one_in(f, 2)) {
            dcan_wr(f, n, DCAN_CTL, DCAN_CTL_RUN);
        }
        break;
    case 9:
        /* Init, a new bit rate, software reset or power-down mid-frame */
        switch (rnd(f, 4)) {
        case 0:
            dcan_start(f, n);
            break;
        case 1:
            dcan_wr(f, n, DCAN_CTL, DCAN_CTL_SWR);
            dcan_start(f, n);
            break;
        case 2:
            dcan_wr(f, n, DCAN_CTL, DCAN_CTL_RUN | DCAN_CTL_PDR);
            dcan_wr(f, n, DCAN_CTL, DCAN_CTL_RUN);
            break;
        default:
            dcan_wr(f, n, DCAN_CTL, g_rand_int(f->r));
            break;
        }
        break;
    case 10:
        dcan_wr(f, n, DCAN_INTMUX(rnd(f, 2)), g_rand_int(f->r));
        dcan_wr(f, n, one_in(f, 2) ? DCAN_ABOTR : DCAN_IF3OBS,
                g_rand_int(f->r));
        dcan_wr(f, n, DCAN_IF3UPD(rnd(f, 2)), g_rand_int(f->r));
        break;
    case 11:
        /* Byte and half-word writes to the interface registers */
        qtest_writeb(qts, dcan_base[n] + DCAN_IF(i, rnd(f, 0x18)),
                     one_in(f, 2) ? obj : rnd(f, 256));
        qtest_writew(qts, dcan_base[n] + DCAN_IF(i, rnd(f, 0x0c) * 2),
                     rnd(f, 0x10000));
        break;
    default:
        qtest_clock_step(qts, 1 + rnd(f, one_in(f, 4) ? 10000000 : 500000));
        break;
    }
}

/* ---- I2C: the boards' PMICs, EEPROMs, HDMI framer and codec ---- */

static const uint32_t i2c_base[3] = { 0x44e0b000u, 0x4802a000u, 0x4819c000u };
#define I2C_SYSC        0x10
#define I2C_IRQSTATUS_RAW 0x24
#define I2C_IRQSTATUS   0x28
#define I2C_IRQENABLE_SET 0x2c
#define I2C_BUF         0x94
#define I2C_CNT         0x98
#define I2C_DATA        0x9c
#define I2C_CON         0xa4
#define I2C_SA          0xac
#define I2C_PSC         0xb0
#define I2C_SCLL        0xb4
#define I2C_SCLH        0xb8
#define I2C_ST_NACK     (1u << 1)
#define I2C_ST_ARDY     (1u << 2)
#define I2C_ST_RRDY     (1u << 3)
#define I2C_ST_XRDY     (1u << 4)
#define I2C_ST_RDR      (1u << 13)
#define I2C_ST_XDR      (1u << 14)
#define I2C_CON_STT     (1u << 0)
#define I2C_CON_STP     (1u << 1)
#define I2C_CON_TRX     (1u << 9)
#define I2C_CON_MST     (1u << 10)
#define I2C_CON_EN      (1u << 15)

/*
 * Who answers where: the BBB's TPS65217, board EEPROM, TDA19988 (HDMI
 * and CEC) on I2C0; the EVM's TPS65910 and EEPROM on I2C0, its
 * TLV320AIC3106, LIS331DLH, TSL2550 and TMP275 on I2C1.  The address list
 * of the scenario's board.
 */
static const uint8_t i2c_bbb_targets[] = { 0x24, 0x50, 0x70, 0x34 };
static const uint8_t i2c_evm_targets[] = {
    0x2d, 0x50, 0x1b, 0x18, 0x39, 0x48,
};

static bool i2c_is_evm(Fuzz *f)
{
    return !strcmp(f->sc->machine, "am335x-evm");
}

static void i2c_setup_bus(Fuzz *f, int bus)
{
    QTestState *qts = f->qts;
    uint32_t base = i2c_base[bus];

    qtest_writew(qts, base + I2C_CON, 0);
    qtest_writew(qts, base + I2C_SYSC, 2);
    qtest_writew(qts, base + I2C_PSC, 4);
    qtest_writew(qts, base + I2C_SCLL, 13);
    qtest_writew(qts, base + I2C_SCLH, 15);
    qtest_writew(qts, base + I2C_CON, I2C_CON_EN);
    qtest_writew(qts, base + I2C_IRQSTATUS, 0xffff);
    qtest_writew(qts, base + I2C_IRQENABLE_SET, 0x6fff);
}

static void i2c_setup(Fuzz *f)
{
    for (int bus = 0; bus < 3; bus++) {
        i2c_setup_bus(f, bus);
    }
}

/*
 * One message as i2c-omap moves it: START (repeated or not), @len bytes
 * fed to or drained from the FIFO at the thresholds BUF sets, polled; the
 * guest may feed too much or too little, or give up half-way.
 */
static void i2c_message(Fuzz *f, int bus, uint8_t addr, bool tx, uint32_t len,
                        bool stop)
{
    QTestState *qts = f->qts;
    uint32_t base = i2c_base[bus];
    uint32_t moved = 0;

    qtest_writew(qts, base + I2C_SA, one_in(f, 16) ? rnd(f, 0x10000) : addr);
    qtest_writew(qts, base + I2C_CNT, len);
    qtest_writew(qts, base + I2C_CON, I2C_CON_EN | I2C_CON_MST |
                 I2C_CON_STT | (tx ? I2C_CON_TRX : 0) |
                 (stop ? I2C_CON_STP : 0));
    for (int polls = 0;; polls++) {
        uint32_t st = qtest_readw(qts, base + I2C_IRQSTATUS_RAW);

        if (st & (I2C_ST_NACK | I2C_ST_ARDY)) {
            break;
        }
        if (polls == 16 || one_in(f, 64)) {
            /* Given up: i2c-omap's time-out resets the controller */
            if (!one_in(f, 4)) {
                i2c_setup_bus(f, bus);
            }
            break;
        }
        if (st & (I2C_ST_XRDY | I2C_ST_XDR)) {
            uint32_t n = one_in(f, 8) ? rnd(f, 40)
                                      : MIN(len - MIN(moved, len), 32);

            for (uint32_t i = 0; i < n; i++, moved++) {
                qtest_writeb(qts, base + I2C_DATA, one_in(f, 2) ?
                             rnd(f, 256) : (moved == 0 ? rnd(f, 8) : 0));
            }
        }
        if (st & (I2C_ST_RRDY | I2C_ST_RDR)) {
            uint32_t n = one_in(f, 8) ? rnd(f, 40)
                                      : MIN(len - MIN(moved, len), 32);

            for (uint32_t i = 0; i < n; i++, moved++) {
                qtest_readb(qts, base + I2C_DATA);
            }
        }
        qtest_writew(qts, base + I2C_IRQSTATUS, st & 0x6fff);
        if (one_in(f, 32)) {
            qtest_clock_step(qts, rnd(f, 100000));
        }
    }
    qtest_writew(qts, base + I2C_IRQSTATUS, 0xffff);
}

static void i2c_step(Fuzz *f)
{
    QTestState *qts = f->qts;
    bool evm = i2c_is_evm(f);
    const uint8_t *targets = evm ? i2c_evm_targets : i2c_bbb_targets;
    size_t n_targets = evm ? G_N_ELEMENTS(i2c_evm_targets)
                           : G_N_ELEMENTS(i2c_bbb_targets);
    uint8_t addr = one_in(f, 8) ? rnd(f, 128) : targets[rnd(f, n_targets)];
    /* The codec is on I2C1, the rest on I2C0 */
    int bus = one_in(f, 8) ? rnd(f, 3) : addr == 0x1b ? 1 : 0;
    uint32_t base = i2c_base[bus];

    switch (rnd(f, 10)) {
    case 0 ... 3:
        /* A register (or EEPROM offset) written, then data */
        i2c_message(f, bus, addr, true, one_in(f, 4) ? count(f, 0xffff)
                    : 1 + rnd(f, 40), true);
        break;
    case 4 ... 6:
        /* A register read through a repeated START, as SMBus does */
        i2c_message(f, bus, addr, true, 1 + rnd(f, 2), false);
        i2c_message(f, bus, addr, false, one_in(f, 4) ? count(f, 0xffff)
                    : 1 + rnd(f, 64), !one_in(f, 8));
        break;
    case 7:
        /* FIFO thresholds and clears, DMA enables (not wired) */
        qtest_writew(qts, base + I2C_BUF, rnd(f, 0x10000));
        break;
    case 8:
        /* CON anything, a reset, or the bus set up again */
        if (one_in(f, 2)) {
            qtest_writew(qts, base + I2C_CON, rnd(f, 0x10000));
        } else {
            i2c_setup_bus(f, bus);
        }
        break;
    default:
        qtest_clock_step(qts, 1 + rnd(f, one_in(f, 4) ? 10000000 : 100000));
        break;
    }
}

/* ---- uart: UART1 with a socket chardev behind it ---- */

#define UART1_BASE      0x48022000u
#define UART_RHR_THR    0x00
#define UART_IER        0x04
#define UART_FCR        0x08
#define UART_LCR        0x0c
#define UART_MCR        0x10
#define UART_LSR        0x14
#define UART_TLR        0x1c
#define UART_MDR1       0x20
#define UART_SCR        0x40
#define UART_SYSC       0x54
#define UART_SYSS       0x58
#define UART_LSR_DR     0x01
#define UART_LSR_THRE   0x20

static void uart_wr(Fuzz *f, uint32_t reg, uint32_t value)
{
    qtest_writel(f->qts, UART1_BASE + reg, value);
}

static uint32_t uart_rd(Fuzz *f, uint32_t reg)
{
    return qtest_readl(f->qts, UART1_BASE + reg);
}

/* What omap-serial and 8250_omap do: reset, 16x mode, FIFOs, 115200 8N1 */
static void uart_setup(Fuzz *f)
{
    uart_wr(f, UART_SYSC, 2);
    for (int i = 0; i < 10 && !(uart_rd(f, UART_SYSS) & 1); i++) {
        qtest_clock_step(f->qts, 1000);
    }
    uart_wr(f, UART_MDR1, 7);
    uart_wr(f, UART_LCR, 0xbf);
    uart_wr(f, UART_FCR, 0x10);                 /* EFR: enhanced */
    uart_wr(f, UART_LCR, 0x80);
    uart_wr(f, UART_MCR, 0x40);                 /* TCR/TLR visible */
    uart_wr(f, UART_TLR, 0);
    uart_wr(f, UART_FCR, 0x51);                 /* FIFOs, triggers */
    uart_wr(f, UART_SCR, 0xc0 | (rnd(f, 2) << 3));
    uart_wr(f, UART_RHR_THR, 26);               /* DLL: 115200 baud */
    uart_wr(f, UART_IER, 0);                    /* DLH */
    uart_wr(f, UART_LCR, 0x03);
    uart_wr(f, UART_MCR, 0x03);
    uart_wr(f, UART_IER, 0x07);
    uart_wr(f, UART_MDR1, 0);
}

/* Bytes from the far end, as many as the socket takes now */
static void uart_inject(Fuzz *f)
{
    uint8_t buf[512];
    uint32_t len = 1 + rnd(f, one_in(f, 8) ? sizeof(buf) : 80);

    for (uint32_t i = 0; i < len; i++) {
        buf[i] = g_rand_int(f->r);
    }
    /* Dropped when the socket is full: the UART is not reading */
    send(f->sock[0], buf, len, MSG_DONTWAIT);
}

static void uart_drain(Fuzz *f)
{
    uint8_t buf[4096];

    while (recv(f->sock[0], buf, sizeof(buf), MSG_DONTWAIT) > 0) {
        continue;
    }
}

static void uart_step(Fuzz *f)
{
    static const uint32_t lcr_values[] = { 0x03, 0x80, 0xbf, 0x1f, 0x83 };
    uint32_t n;

    switch (rnd(f, 12)) {
    case 0:
    case 1:
        uart_inject(f);
        break;
    case 2:
    case 3:
        /* The RX interrupt handler: read while data is ready */
        n = 1 + rnd(f, 80);
        for (uint32_t i = 0; i < n &&
             (one_in(f, 16) || (uart_rd(f, UART_LSR) & UART_LSR_DR)); i++) {
            uart_rd(f, UART_RHR_THR);
        }
        break;
    case 4:
    case 5:
        /* The TX path: fill the FIFO, sometimes past full */
        n = 1 + rnd(f, one_in(f, 4) ? 200 : 64);
        if (!one_in(f, 4) && !(uart_rd(f, UART_LSR) & UART_LSR_THRE)) {
            break;
        }
        for (uint32_t i = 0; i < n; i++) {
            uart_wr(f, UART_RHR_THR, g_rand_int(f->r) & 0xff);
        }
        break;
    case 6:
        uart_drain(f);
        break;
    case 7:
        /* Register modes: operational, A, B, and DLAB with any divisor */
        uart_wr(f, UART_LCR, one_in(f, 4) ? rnd(f, 256) :
                lcr_values[rnd(f, G_N_ELEMENTS(lcr_values))]);
        break;
    case 8:
        /* Any register in whatever mode LCR left the UART in */
        uart_wr(f, 4 * rnd(f, 0x88 / 4), one_in(f, 2) ? rnd(f, 256) :
                g_rand_int(f->r));
        break;
    case 9:
        switch (rnd(f, 6)) {
        case 0:
            uart_wr(f, UART_FCR, rnd(f, 256));  /* clear, triggers, DMA */
            break;
        case 1:
            uart_wr(f, UART_MCR, rnd(f, 2) ? 0x13 : rnd(f, 256)); /* loop */
            break;
        case 2:
            uart_wr(f, UART_MDR1, rnd(f, 8));   /* IrDA, CIR, disabled */
            break;
        case 3:
            uart_wr(f, UART_SYSC, 2);           /* reset mid-stream */
            break;
        case 4:
            uart_setup(f);
            break;
        default:
            uart_wr(f, UART_IER, rnd(f, 256));
            break;
        }
        break;
    case 10:
        uart_rd(f, 4 * rnd(f, 0x88 / 4));
        break;
    default:
        qtest_clock_step(f->qts, 1 + rnd(f, one_in(f, 4) ? 10000000 : 200000));
        uart_drain(f);
        break;
    }
}

/* ---- The harness ---- */

static char *fuzz_args(Fuzz *f, bool timing)
{
    const char *extra = g_getenv("AM335X_FUZZ_ARGS") ?: "";

    if (f->sock[0] >= 0) {
        /* A new pair for each QEMU: a migration cuts no frame in two */
        close(f->sock[0]);
        close(f->sock[1]);
        g_byte_array_set_size(f->out, 0);
    }
    if (f->sc->socket_backend) {
        g_autofree char *backend = NULL;

        g_assert_cmpint(socketpair(PF_UNIX, SOCK_STREAM, 0, f->sock), ==, 0);
        backend = g_strdup_printf(f->sc->socket_backend, f->sock[1]);
        return g_strdup_printf("-machine %s,timing=%s -no-shutdown %s %s",
                               f->sc->machine, on_off[timing], backend,
                               extra);
    }
    f->sock[0] = f->sock[1] = -1;
    return g_strdup_printf("-machine %s,timing=%s -no-shutdown -nic none "
                           "%s%s %s %s", f->sc->machine, on_off[timing],
                           f->card ? "-drive if=sd,index=0,format=raw,file="
                                   : "",
                           f->card ?: "", f->sc->devices ?: "", extra);
}

static void test_fuzz(const void *data)
{
    const FuzzCase *c = data;
    uint64_t seed = am335x_env_number("AM335X_FUZZ_SEED", 1);
    uint64_t ops = am335x_env_number("AM335X_FUZZ_OPS", 5000);
    uint64_t migrations = am335x_env_number("AM335X_FUZZ_MIGRATIONS", 1);
    g_autoptr(GRand) r = g_rand_new_with_seed(seed);
    g_autoptr(GByteArray) out = g_byte_array_new();
    Fuzz f = { .sc = c->scenario, .r = r, .sock = { -1, -1 }, .out = out };
    g_autofree char *args = NULL;

    if (!strcmp(f.sc->name, "mmc")) {
        /* A blank 4 MiB card */
        int fd = g_file_open_tmp("am335x-fuzz-sd-XXXXXX", &f.card, NULL);

        g_assert(fd >= 0);
        g_assert(ftruncate(fd, 4 * MiB) == 0);
        close(fd);
    }
    args = fuzz_args(&f, c->timing);
    f.qts = qtest_init(args);
    am335x_enable_modules(f.qts);
    f.sc->setup(&f);
    for (uint64_t i = 0; i < ops; i++) {
        if (migrations && i && i % (ops / (migrations + 1) + 1) == 0) {
            g_free(args);
            args = fuzz_args(&f, c->timing);
            f.qts = am335x_migrate(f.qts, args);
        }
        f.sc->step(&f);
    }
    g_assert_cmphex(qtest_readl(f.qts, INTC_REVISION), ==, 0x50);
    qtest_quit(f.qts);
    if (f.sock[0] >= 0) {
        close(f.sock[0]);
        close(f.sock[1]);
    }
    if (f.card) {
        unlink(f.card);
        g_free(f.card);
    }
}

int main(int argc, char **argv)
{
    static const Scenario scenarios[] = {
        { "cpsw", "beaglebone-black", 512 * MiB, NULL,
          cpsw_setup, cpsw_step,
          "-netdev socket,fd=%d,id=s0 -net nic,netdev=s0" },
        { "mmc", "beaglebone-black", 512 * MiB, NULL, mmc_setup, mmc_step },
        { "nand", "am335x-evm", 256 * MiB, NULL, nand_setup, nand_step },
        /* port=1: on USB1's socket itself, not behind a hub */
        { "usb", "beaglebone-black", 512 * MiB,
          "-blockdev null-co,node-name=stick,size=4194304,read-zeroes=on "
          "-device usb-storage,bus=usb-bus.1,port=1,drive=stick",
          usb_setup, usb_step },
        { "usb-gadget", "beaglebone-black", 512 * MiB, NULL,
          gadget_setup, gadget_step,
          "-netdev socket,fd=%d,id=s0 -net nic,netdev=s0,model=usb-gadget" },
        { "mcasp", "beaglebone-black", 512 * MiB, NULL,
          mcasp_setup, mcasp_step },
        { "lcdc", "beaglebone-black", 512 * MiB, NULL,
          lcdc_setup, lcdc_step },
        { "tscadc", "beaglebone-black", 512 * MiB, NULL,
          adc_setup, adc_step },
        { "tscadc-evm", "am335x-evm", 256 * MiB, NULL,
          adc_setup, adc_evm_step },
        { "dcan", "beaglebone-black", 512 * MiB,
          "-object can-bus,id=can -machine canbus0=can,canbus1=can",
          dcan_setup, dcan_step },
        { "i2c", "beaglebone-black", 512 * MiB, NULL, i2c_setup, i2c_step },
        { "i2c-evm", "am335x-evm", 256 * MiB, NULL, i2c_setup, i2c_step },
        { "uart", "beaglebone-black", 512 * MiB, NULL,
          uart_setup, uart_step,
          "-nic none -chardev socket,id=u1,fd=%d "
          "-serial null -serial chardev:u1" },
    };
    static FuzzCase cases[G_N_ELEMENTS(scenarios) * 2];

    g_test_init(&argc, &argv, NULL);
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *path = NULL;

        cases[i].scenario = &scenarios[i / 2];
        cases[i].timing = i & 1;
        path = g_strdup_printf("am335x/dma-fuzz/%s/timing-%s",
                               cases[i].scenario->name,
                               on_off[cases[i].timing]);
        qtest_add_data_func(path, &cases[i], test_fuzz);
    }
    return g_test_run();
}
