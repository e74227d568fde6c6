/*
 * QTest for the TI AM335x MMC/SD/SDIO host controllers (MMCHS0-2)
 *
 * The BeagleBone Black's microSD slot (MMCHS0) holds a 1 MiB raw image with
 * a known pattern.  The tests bring the card up as a driver does, read and
 * write it with SD_CMD.DE set, and watch the EDMA request lines ("dma-rx",
 * "dma-tx"; qtest intercepts one GPIO list per QEMU, so one test watches
 * one of them).  Card detect is GPIO0_6, active low.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qemu/units.h"
#include "libqtest.h"
#include "am335x-qtest.h"
#include "qobject/qdict.h"

static const uint64_t mmc_base[] = { 0x48060000, 0x481d8000, 0x47810000 };
#define MMC0                0x48060000
#define MMC0_PATH           "/machine/soc/mmc[0]"

/* TRM chapter 18, MMCHS registers */
#define HL_REV              0x000
#define HL_HWINFO           0x004
#define HL_SYSCONFIG        0x010
#define SYSCONFIG           0x110
#define SYSSTATUS           0x114
#define CSRE                0x124
#define SYSTEST             0x128
#define CON                 0x12c
#define PWCNT               0x130
#define SDMASA              0x200
#define BLK                 0x204
#define ARG                 0x208
#define CMD                 0x20c
#define RSP10               0x210
#define RSP76               0x21c
#define DATA                0x220
#define PSTATE              0x224
#define HCTL                0x228
#define SYSCTL              0x22c
#define STAT                0x230
#define IE                  0x234
#define ISE                 0x238
#define CAPA                0x240
#define CUR_CAPA            0x248
#define REV                 0x2fc

#define SYSCONFIG_SOFTRESET (1u << 1)
#define SYSCONFIG_SMARTIDLE (2u << 3)
#define CON_INIT            (1u << 1)
#define CON_SDMA_LNE        (1u << 21)

#define CMD_DE              (1u << 0)
#define CMD_BCE             (1u << 1)
#define CMD_ACEN            (1u << 2)
#define CMD_DDIR_READ       (1u << 4)
#define CMD_MSBS            (1u << 5)
#define CMD_RSP_136         (1u << 16)
#define CMD_RSP_48          (2u << 16)
#define CMD_RSP_48_BUSY     (3u << 16)
#define CMD_DP              (1u << 21)
#define CMD_INDX(n)         ((uint32_t)(n) << 24)

#define PSTATE_CMDI         (1u << 0)
#define PSTATE_DATI         (1u << 1)
#define PSTATE_BWE          (1u << 10)
#define PSTATE_BRE          (1u << 11)
#define PSTATE_CINS         (1u << 16)

#define HCTL_SDBP           (1u << 8)
#define HCTL_SDVS_33        (7u << 9)

#define SYSCTL_ICE          (1u << 0)
#define SYSCTL_ICS          (1u << 1)
#define SYSCTL_CEN          (1u << 2)
#define SYSCTL_CLKD(n)      ((uint32_t)(n) << 6)
#define SYSCTL_SRA          (1u << 24)
#define SYSCTL_SRC          (1u << 25)
#define SYSCTL_SRD          (1u << 26)

#define STAT_CC             (1u << 0)
#define STAT_TC             (1u << 1)
#define STAT_BWR            (1u << 4)
#define STAT_BRR            (1u << 5)
#define STAT_ERRI           (1u << 15)
#define STAT_CTO            (1u << 16)
/* Command and transfer complete, buffer ready and every error */
#define IE_ALL              0x337f0033u

#define CAPA_RESET          0x05e10080u
#define CAPA_VS30           (1u << 25)
#define REV_RESET           0x31010000u

#define OCR_BUSY            (1u << 31)

/* GPIO0 DATAIN; the slot's card detect is pin 6 */
#define GPIO0_DATAIN        (0x44e07000 + 0x138)
#define CD_PIN              (1u << 6)

#define IMAGE_SIZE          (1 * MiB)
#define BLOCK               512
#define US                  1000
#define SRST_NS             (10 * US)

static char *image_path;

/* The image's byte at @offset, as the test writes it */
static uint8_t pattern(uint32_t offset)
{
    return (offset * 7 + (offset >> 9)) & 0xff;
}

static uint32_t pattern_word(uint32_t offset)
{
    return pattern(offset) | pattern(offset + 1) << 8 |
           pattern(offset + 2) << 16 | (uint32_t)pattern(offset + 3) << 24;
}

static void make_image(void)
{
    g_autofree uint8_t *buf = g_malloc(IMAGE_SIZE);
    int fd = g_file_open_tmp("am335x-hsmmc-XXXXXX.img", &image_path, NULL);

    g_assert(fd >= 0);
    for (uint32_t i = 0; i < IMAGE_SIZE; i++) {
        buf[i] = pattern(i);
    }
    g_assert_cmpint(write(fd, buf, IMAGE_SIZE), ==, IMAGE_SIZE);
    close(fd);
}

static QTestState *start(void)
{
    return qtest_initf("-M beaglebone-black "
                       "-drive if=sd,index=0,id=sd0,format=raw,file=%s",
                       image_path);
}

static uint32_t rd(QTestState *qts, uint32_t reg)
{
    return qtest_readl(qts, MMC0 + reg);
}

static void wr(QTestState *qts, uint32_t reg, uint32_t value)
{
    qtest_writel(qts, MMC0 + reg, value);
}

static void issue(QTestState *qts, int index, uint32_t arg, uint32_t flags)
{
    wr(qts, ARG, arg);
    wr(qts, CMD, CMD_INDX(index) | flags);
}

/*
 * Issues a command and, with timing=on, lets the clock run to its command
 * complete (or error); returns SD_STAT, with CC and the errors cleared.
 */
static uint32_t cmd(QTestState *qts, int index, uint32_t arg, uint32_t flags)
{
    uint32_t stat;

    issue(qts, index, arg, flags);
    for (int i = 0; i < 16 && !(rd(qts, STAT) & (STAT_CC | STAT_ERRI)); i++) {
        qtest_clock_step_next(qts);
    }
    stat = rd(qts, STAT);
    wr(qts, STAT, stat & (STAT_CC | 0xffff0000u));
    return stat;
}

/* The SD CRC7 */
static uint8_t crc7(const uint8_t *buf, size_t len)
{
    uint8_t crc = 0;

    for (size_t i = 0; i < len; i++) {
        for (int bit = 7; bit >= 0; bit--) {
            bool in = ((buf[i] >> bit) ^ (crc >> 6)) & 1;

            crc = ((crc << 1) & 0x7f) ^ (in ? 0x09 : 0);
        }
    }
    return crc;
}

/* SD_RSP76..10 after CMD2 hold the whole CID, R[127:0]. */
static void check_cid(QTestState *qts)
{
    uint8_t cid[16];

    for (int i = 0; i < 4; i++) {
        stl_be_p(&cid[i * 4], rd(qts, RSP76 - i * 4));
    }
    g_assert_cmphex(cid[0], ==, 0xaa);
    g_assert_cmpmem(&cid[3], 5, "QEMU!", 5);
    g_assert_cmphex(cid[15], ==, crc7(cid, 15) << 1 | 1);
}

/* Powers the bus at 3.3 V, starts the clock and enables the events. */
static void power_up(QTestState *qts)
{
    wr(qts, HCTL, HCTL_SDVS_33);
    wr(qts, HCTL, HCTL_SDVS_33 | HCTL_SDBP);
    g_assert_cmphex(rd(qts, HCTL) & HCTL_SDBP, ==, HCTL_SDBP);
    /* 96 MHz / 240 = 400 kHz */
    wr(qts, SYSCTL, SYSCTL_ICE | SYSCTL_CLKD(240));
    g_assert_cmphex(rd(qts, SYSCTL) & SYSCTL_ICS, ==, SYSCTL_ICS);
    wr(qts, SYSCTL, SYSCTL_ICE | SYSCTL_CEN | SYSCTL_CLKD(240));
    wr(qts, IE, IE_ALL);
}

/*
 * CMD0, CMD8, ACMD41 until ready, CMD2, CMD3, CMD7: the card ends in the
 * transfer state.  Returns its RCA.
 */
static uint16_t card_init(QTestState *qts)
{
    uint32_t stat;
    uint16_t rca;
    int tries;

    power_up(qts);
    g_assert_cmphex(cmd(qts, 0, 0, 0), ==, STAT_CC);

    /* CMD8: R7 echoes the voltage and check pattern */
    g_assert_cmphex(cmd(qts, 8, 0x1aa, CMD_RSP_48), ==, STAT_CC);
    g_assert_cmphex(rd(qts, RSP10), ==, 0x1aa);

    for (tries = 0; tries < 10; tries++) {
        g_assert_cmphex(cmd(qts, 55, 0, CMD_RSP_48), ==, STAT_CC);
        g_assert_cmphex(cmd(qts, 41, 0x40ff8000, CMD_RSP_48), ==, STAT_CC);
        if (rd(qts, RSP10) & OCR_BUSY) {
            break;
        }
        qtest_clock_step(qts, 1000 * US);
    }
    g_assert_cmpint(tries, <, 10);
    g_assert_cmphex(rd(qts, RSP10) & 0x00ff8000, ==, 0x00ff8000);

    /*
     * CMD2: the CID, R[127:0] with its CRC.  The first byte, the
     * manufacturer, is QEMU's 0xaa; the product name is "QEMU!".
     */
    g_assert_cmphex(cmd(qts, 2, 0, CMD_RSP_136), ==, STAT_CC);
    check_cid(qts);

    /* CMD3: R6, the RCA the card chose */
    g_assert_cmphex(cmd(qts, 3, 0, CMD_RSP_48), ==, STAT_CC);
    rca = rd(qts, RSP10) >> 16;
    g_assert_cmphex(rca, !=, 0);

    /* CMD7 selects it; R1b */
    stat = cmd(qts, 7, (uint32_t)rca << 16, CMD_RSP_48_BUSY);
    g_assert_cmphex(stat & ~STAT_TC, ==, STAT_CC);
    wr(qts, STAT, STAT_TC);
    return rca;
}

static uint32_t gpio0_datain(QTestState *qts)
{
    return qtest_readl(qts, GPIO0_DATAIN);
}

static void test_reset_values(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    for (int m = 0; m < ARRAY_SIZE(mmc_base); m++) {
        uint64_t base = mmc_base[m];

        g_test_message("mmc%d", m);
        g_assert_cmphex(qtest_readl(qts, base + HL_REV), ==, 0);
        /* No bus-master DMA: Linux takes the EDMA */
        g_assert_cmphex(qtest_readl(qts, base + HL_HWINFO), ==, 0);
        g_assert_cmphex(qtest_readl(qts, base + HL_SYSCONFIG), ==, 0);
        g_assert_cmphex(qtest_readl(qts, base + SYSCONFIG), ==, 0);
        g_assert_cmphex(qtest_readl(qts, base + SYSSTATUS), ==, 1);
        g_assert_cmphex(qtest_readl(qts, base + CSRE), ==, 0);
        g_assert_cmphex(qtest_readl(qts, base + SYSTEST), ==, 0);
        g_assert_cmphex(qtest_readl(qts, base + CON), ==, 0);
        g_assert_cmphex(qtest_readl(qts, base + PWCNT), ==, 0);
        g_assert_cmphex(qtest_readl(qts, base + REV), ==, REV_RESET);
        /* sdhci reads SDHCI_HOST_VERSION: vendor 0x31, spec 2.0 */
        g_assert_cmphex(qtest_readw(qts, base + REV + 2), ==, 0x3101);
        g_assert_cmphex(qtest_readl(qts, base + CAPA), ==, CAPA_RESET);
        g_assert_cmphex(qtest_readl(qts, base + CUR_CAPA), ==, 0);
        g_assert_cmphex(qtest_readl(qts, base + CMD), ==, 0);
        g_assert_cmphex(qtest_readl(qts, base + HCTL), ==, 0);
        g_assert_cmphex(qtest_readl(qts, base + SYSCTL), ==, 0);
        g_assert_cmphex(qtest_readl(qts, base + STAT), ==, 0);
        g_assert_cmphex(qtest_readl(qts, base + IE), ==, 0);
        /* Empty slots: no card anywhere */
        g_assert_cmphex(qtest_readl(qts, base + PSTATE) & PSTATE_CINS, ==, 0);
    }
    /* No card in the slot: the detect switch is open, GPIO0_6 high */
    g_assert_cmphex(gpio0_datain(qts) & CD_PIN, ==, CD_PIN);

    qtest_quit(qts);
}

/* What ti-sysc and sdhci-omap do at probe, and SOFTRESET. */
static void test_softreset(void)
{
    QTestState *qts = start();

    wr(qts, SYSCONFIG, SYSCONFIG_SMARTIDLE);
    g_assert_cmphex(rd(qts, SYSCONFIG), ==, SYSCONFIG_SMARTIDLE);
    /* Reserved bits do not stick. */
    wr(qts, SYSCONFIG, 0xfffffce0);
    g_assert_cmphex(rd(qts, SYSCONFIG), ==, 0);

    wr(qts, SYSCONFIG, SYSCONFIG_SMARTIDLE);
    wr(qts, CON, CON_SDMA_LNE | (2u << 9));
    wr(qts, PWCNT, 0x12345);
    g_assert_cmphex(rd(qts, PWCNT), ==, 0x2345);
    wr(qts, CSRE, 0xfdffa080);
    wr(qts, SDMASA, 0x80001000);
    g_assert_cmphex(rd(qts, SDMASA), ==, 0x80001000);
    wr(qts, IE, IE_ALL);
    wr(qts, HCTL, HCTL_SDVS_33 | HCTL_SDBP);
    /* Software sets the supported voltages; the rest is read-only */
    wr(qts, CAPA, CAPA_RESET | CAPA_VS30 | 0xff);
    g_assert_cmphex(rd(qts, CAPA), ==, CAPA_RESET | CAPA_VS30);
    wr(qts, CUR_CAPA, 0xffffffff);
    g_assert_cmphex(rd(qts, CUR_CAPA), ==, 0x00ffffff);

    wr(qts, SYSCONFIG, SYSCONFIG_SMARTIDLE | SYSCONFIG_SOFTRESET);
    g_assert_cmphex(rd(qts, SYSSTATUS), ==, 1);
    g_assert_cmphex(rd(qts, SYSCONFIG), ==, 0);
    g_assert_cmphex(rd(qts, CON), ==, 0);
    g_assert_cmphex(rd(qts, PWCNT), ==, 0);
    g_assert_cmphex(rd(qts, CSRE), ==, 0);
    g_assert_cmphex(rd(qts, SDMASA), ==, 0);
    g_assert_cmphex(rd(qts, IE), ==, 0);
    g_assert_cmphex(rd(qts, HCTL), ==, 0);
    g_assert_cmphex(rd(qts, REV), ==, REV_RESET);
    /* The capabilities are reinitialised by a hard reset only. */
    g_assert_cmphex(rd(qts, CAPA), ==, CAPA_RESET | CAPA_VS30);
    g_assert_cmphex(rd(qts, CUR_CAPA), ==, 0x00ffffff);
    /* The card is still there. */
    g_assert_cmphex(rd(qts, PSTATE) & PSTATE_CINS, ==, PSTATE_CINS);

    qtest_quit(qts);
}

/* SDBP sticks with no card, but only with a voltage SD_CAPA offers. */
static void test_bus_power(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");
    uint64_t hctl = mmc_base[2] + HCTL;

    qtest_writel(qts, hctl, HCTL_SDVS_33 | HCTL_SDBP);
    g_assert_cmphex(qtest_readl(qts, hctl), ==, HCTL_SDVS_33 | HCTL_SDBP);
    qtest_writel(qts, hctl, HCTL_SDVS_33);
    g_assert_cmphex(qtest_readl(qts, hctl), ==, HCTL_SDVS_33);
    /* 3.0 V is not in SD_CAPA until software says so */
    qtest_writel(qts, hctl, (6u << 9) | HCTL_SDBP);
    g_assert_cmphex(qtest_readl(qts, hctl), ==, 6u << 9);
    qtest_writel(qts, mmc_base[2] + CAPA, CAPA_RESET | CAPA_VS30);
    qtest_writel(qts, hctl, (6u << 9) | HCTL_SDBP);
    g_assert_cmphex(qtest_readl(qts, hctl), ==, (6u << 9) | HCTL_SDBP);
    /* sdhci-omap's 16-bit view: the power control byte */
    g_assert_cmphex(qtest_readb(qts, hctl + 1), ==, 0x0d);

    qtest_quit(qts);
}

/* SD_SYSCTL SRA/SRC/SRD read 1 for a while, then 0. */
static void test_special_reset(void)
{
    QTestState *qts = start();

    power_up(qts);
    wr(qts, SYSCONFIG, SYSCONFIG_SMARTIDLE);

    /* sdhci_omap_reset(): byte writes to SDHCI_SOFTWARE_RESET */
    qtest_writeb(qts, MMC0 + SYSCTL + 3, (SYSCTL_SRC | SYSCTL_SRD) >> 24);
    g_assert_cmphex(qtest_readb(qts, MMC0 + SYSCTL + 3), ==, 0x06);
    qtest_clock_step(qts, SRST_NS / 2);
    g_assert_cmphex(qtest_readb(qts, MMC0 + SYSCTL + 3), ==, 0x06);
    qtest_clock_step(qts, SRST_NS);
    g_assert_cmphex(qtest_readb(qts, MMC0 + SYSCTL + 3), ==, 0);
    /* The line resets left the clock and the interrupt enables alone. */
    g_assert_cmphex(rd(qts, IE), ==, IE_ALL);
    g_assert_cmphex(rd(qts, SYSCTL) & SYSCTL_CEN, ==, SYSCTL_CEN);

    /* SRA resets the host, SD_SYSCONFIG included, at once */
    qtest_writeb(qts, MMC0 + SYSCTL + 3, SYSCTL_SRA >> 24);
    g_assert_cmphex(rd(qts, SYSCTL), ==, SYSCTL_SRA);
    g_assert_cmphex(rd(qts, IE), ==, 0);
    g_assert_cmphex(rd(qts, HCTL), ==, 0);
    g_assert_cmphex(rd(qts, SYSCONFIG), ==, 0);
    qtest_clock_step(qts, SRST_NS);
    g_assert_cmphex(rd(qts, SYSCTL), ==, 0);
    g_assert_cmphex(rd(qts, CAPA), ==, CAPA_RESET);

    /*
     * A first read that comes long after the write still sees the reset
     * running, as the driver's wait for the bit to rise needs; the next
     * one, the time being up, sees it done.
     */
    qtest_writeb(qts, MMC0 + SYSCTL + 3, SYSCTL_SRC >> 24);
    qtest_clock_step(qts, 3 * SRST_NS);
    g_assert_cmphex(qtest_readb(qts, MMC0 + SYSCTL + 3), ==, 0x02);
    g_assert_cmphex(qtest_readb(qts, MMC0 + SYSCTL + 3), ==, 0);

    qtest_quit(qts);
}

/*
 * The card comes up; SD_CON.INIT's initialisation stream in the middle
 * of it sets SD_STAT.CC without sending a command (a CMD0 would send the
 * card back to idle, where CMD3 is illegal).
 */
static void test_card_init(void)
{
    QTestState *qts = start();
    uint32_t stat;

    power_up(qts);
    g_assert_cmphex(cmd(qts, 0, 0, 0), ==, STAT_CC);
    g_assert_cmphex(cmd(qts, 8, 0x1aa, CMD_RSP_48), ==, STAT_CC);
    g_assert_cmphex(cmd(qts, 55, 0, CMD_RSP_48), ==, STAT_CC);
    g_assert_cmphex(cmd(qts, 41, 0x40ff8000, CMD_RSP_48), ==, STAT_CC);
    g_assert_cmphex(rd(qts, RSP10) & OCR_BUSY, ==, OCR_BUSY);
    g_assert_cmphex(cmd(qts, 2, 0, CMD_RSP_136), ==, STAT_CC);
    check_cid(qts);

    /* sdhci_omap_init_74_clocks() */
    wr(qts, CON, rd(qts, CON) | CON_INIT);
    wr(qts, CMD, 0);
    g_assert_cmphex(rd(qts, STAT), ==, STAT_CC);
    wr(qts, CON, rd(qts, CON) & ~CON_INIT);
    wr(qts, STAT, STAT_CC);
    g_assert_cmphex(rd(qts, STAT), ==, 0);

    /* Still in identification: CMD3 gets its RCA */
    g_assert_cmphex(cmd(qts, 3, 0, CMD_RSP_48), ==, STAT_CC);
    g_assert_cmphex(rd(qts, RSP10) >> 16, !=, 0);

    /* A command the card does not answer times out. */
    stat = cmd(qts, 5, 0, CMD_RSP_48);
    g_assert_cmphex(stat & (STAT_CTO | STAT_ERRI), ==, STAT_CTO | STAT_ERRI);

    qtest_quit(qts);
}

/* Reads @n blocks from @addr into the pattern check, watching "dma-rx". */
static void read_blocks(QTestState *qts, uint32_t addr, int n, bool dma)
{
    uint32_t flags = CMD_DP | CMD_RSP_48 | CMD_DDIR_READ |
                     (dma ? CMD_DE : 0);

    if (n > 1) {
        flags |= CMD_MSBS | CMD_BCE | CMD_ACEN;
    }
    wr(qts, BLK, (n << 16) | BLOCK);
    g_assert_cmphex(cmd(qts, n > 1 ? 18 : 17, addr, flags) & ~STAT_BRR, ==,
                    STAT_CC);
    g_assert_cmphex(rd(qts, CMD) & CMD_DE, ==, dma ? CMD_DE : 0);

    for (int b = 0; b < n; b++) {
        /* A block is in the buffer: one request for it */
        g_assert_cmphex(rd(qts, PSTATE) & PSTATE_BRE, ==, PSTATE_BRE);
        g_assert_cmpint(qtest_get_irq(qts, 0), ==, dma);
        for (int w = 0; w < BLOCK / 4; w++) {
            uint32_t offset = addr + b * BLOCK + w * 4;

            g_assert_cmphex(rd(qts, DATA), ==, pattern_word(offset));
            /* Edge requests drop at the first access to the block. */
            if (w < BLOCK / 4 - 1) {
                g_assert_false(qtest_get_irq(qts, 0));
            }
        }
    }
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_cmphex(rd(qts, STAT) & STAT_TC, ==, STAT_TC);
    g_assert_cmphex(rd(qts, PSTATE) & (PSTATE_BRE | PSTATE_DATI), ==, 0);
    wr(qts, STAT, 0xffffffff);
}

static void test_dma_read(void)
{
    QTestState *qts = start();

    qtest_irq_intercept_out_named(qts, MMC0_PATH, "dma-rx");
    card_init(qts);
    g_assert_false(qtest_get_irq(qts, 0));

    read_blocks(qts, 0x1000, 1, true);
    read_blocks(qts, 0x8000, 3, true);
    /* PIO with DE clear: no requests, the same data */
    read_blocks(qts, 0x2000, 2, false);
    /* A data port read with nothing in the buffer */
    g_assert_cmphex(rd(qts, DATA), ==, 0);

    qtest_quit(qts);
}

/* SD_CON.SDMA_LnE: the request stays up until the block is read. */
static void test_dma_read_level(void)
{
    QTestState *qts = start();

    qtest_irq_intercept_out_named(qts, MMC0_PATH, "dma-rx");
    card_init(qts);
    wr(qts, CON, CON_SDMA_LNE);

    wr(qts, BLK, (2 << 16) | BLOCK);
    cmd(qts, 18, 0x400, CMD_DP | CMD_RSP_48 | CMD_DDIR_READ | CMD_DE |
        CMD_MSBS | CMD_BCE | CMD_ACEN);
    for (int b = 0; b < 2; b++) {
        for (int w = 0; w < BLOCK / 4; w++) {
            g_assert_true(qtest_get_irq(qts, 0));
            g_assert_cmphex(rd(qts, DATA), ==,
                            pattern_word(0x400 + b * BLOCK + w * 4));
        }
    }
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_cmphex(rd(qts, STAT) & STAT_TC, ==, STAT_TC);

    qtest_quit(qts);
}

static uint32_t new_word(uint32_t offset)
{
    return ~pattern_word(offset) ^ 0x5a5a0000;
}

/*
 * The image's words from @addr + @from to @addr + @to: new_word() from
 * @addr to @addr + @written_end, the pattern around them
 */
static void check_written(uint32_t addr, int32_t from, int32_t to,
                          uint32_t written_end)
{
    g_autofree char *contents = NULL;
    gsize len;

    g_assert_true(g_file_get_contents(image_path, &contents, &len, NULL));
    g_assert_cmpuint(len, ==, IMAGE_SIZE);
    for (uint32_t off = addr + from; off < addr + to; off += 4) {
        uint32_t word = ldl_le_p(contents + off);
        bool written = off >= addr && off < addr + written_end;

        g_assert_cmphex(word, ==, written ? new_word(off) : pattern_word(off));
    }
}

/* A fresh image with the pattern, after a test that wrote to it */
static void remake_image(void)
{
    unlink(image_path);
    g_free(image_path);
    make_image();
}

static void test_dma_write(void)
{
    QTestState *qts = start();
    const uint32_t addr = 0x3000;
    const int n = 3;

    qtest_irq_intercept_out_named(qts, MMC0_PATH, "dma-tx");
    card_init(qts);

    wr(qts, BLK, (n << 16) | BLOCK);
    g_assert_cmphex(cmd(qts, 25, addr, CMD_DP | CMD_RSP_48 | CMD_DE |
                        CMD_MSBS | CMD_BCE | CMD_ACEN) & ~STAT_BWR, ==,
                    STAT_CC);
    for (int b = 0; b < n; b++) {
        g_assert_cmphex(rd(qts, PSTATE) & PSTATE_BWE, ==, PSTATE_BWE);
        g_assert_true(qtest_get_irq(qts, 0));
        for (int w = 0; w < BLOCK / 4; w++) {
            wr(qts, DATA, new_word(addr + b * BLOCK + w * 4));
            if (w < BLOCK / 4 - 1) {
                g_assert_false(qtest_get_irq(qts, 0));
            }
        }
    }
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_cmphex(rd(qts, STAT) & STAT_TC, ==, STAT_TC);
    g_assert_cmphex(rd(qts, PSTATE) & (PSTATE_BWE | PSTATE_DATI), ==, 0);
    wr(qts, STAT, 0xffffffff);

    /* The data is in the image, and reads back through the controller */
    check_written(addr, -4, n * BLOCK + 4, n * BLOCK);
    wr(qts, BLK, (1 << 16) | BLOCK);
    cmd(qts, 17, addr + BLOCK, CMD_DP | CMD_RSP_48 | CMD_DDIR_READ);
    g_assert_cmphex(rd(qts, DATA), ==, new_word(addr + BLOCK));

    qtest_quit(qts);

    remake_image();
}

static void qmp_ok(QTestState *qts, const char *fmt, const char *arg)
{
    QDict *resp = qtest_qmp(qts, fmt, arg);

    g_assert(qdict_haskey(resp, "return"));
    qobject_unref(resp);
}

/*
 * Card detect follows the medium: QMP eject opens the switch (GPIO0_6
 * high), blockdev-change-medium closes it.  The SD card takes no
 * read-only medium, so the change with read-only-mode=read-only fails.
 */
static void test_card_detect(void)
{
    QTestState *qts = start();
    QDict *resp;

    g_assert_cmphex(gpio0_datain(qts) & CD_PIN, ==, 0);
    g_assert_cmphex(rd(qts, PSTATE) & PSTATE_CINS, ==, PSTATE_CINS);

    qmp_ok(qts, "{'execute': 'eject', 'arguments': "
           "{'device': %s, 'force': true}}", "sd0");
    g_assert_cmphex(gpio0_datain(qts) & CD_PIN, ==, CD_PIN);
    g_assert_cmphex(rd(qts, PSTATE) & PSTATE_CINS, ==, 0);

    resp = qtest_qmp(qts, "{'execute': 'blockdev-change-medium', "
                     "'arguments': {'device': 'sd0', 'filename': %s, "
                     "'format': 'raw', 'read-only-mode': 'read-only'}}",
                     image_path);
    g_assert(qdict_haskey(resp, "error"));
    qobject_unref(resp);
    g_assert_cmphex(gpio0_datain(qts) & CD_PIN, ==, CD_PIN);

    qmp_ok(qts, "{'execute': 'blockdev-change-medium', 'arguments': "
           "{'device': 'sd0', 'filename': %s, 'format': 'raw'}}", image_path);
    g_assert_cmphex(gpio0_datain(qts) & CD_PIN, ==, 0);
    g_assert_cmphex(rd(qts, PSTATE) & PSTATE_CINS, ==, PSTATE_CINS);
    /* Writable: SDHCI's write-protect pin level reads 1 */
    g_assert_cmphex(rd(qts, PSTATE) & (1u << 19), ==, 1u << 19);

    /* A freshly inserted card comes up from idle. */
    card_init(qts);
    read_blocks(qts, 0x200, 1, false);

    qtest_quit(qts);
}

/* CMD9 in the standby state: the CSD, R[127:0] with its CRC. */
static void read_csd(QTestState *qts, uint16_t rca, uint8_t *csd)
{
    /* CMD7 with RCA 0 deselects the card: back to standby */
    cmd(qts, 7, 0, CMD_RSP_48);
    g_assert_cmphex(cmd(qts, 9, (uint32_t)rca << 16, CMD_RSP_136), ==,
                    STAT_CC);
    for (int i = 0; i < 4; i++) {
        stl_be_p(&csd[i * 4], rd(qts, RSP76 - i * 4));
    }
    g_assert_cmphex(csd[15], ==, crc7(csd, 15) << 1 | 1);
}

/*
 * A readonly=on drive is a card with CSD PERM_WRITE_PROTECT (bit 13) set,
 * which Linux registers read-only; a write gets WP_VIOLATION (R1 bit 26).
 * A writable drive has the bit clear.
 */
static void test_read_only(void)
{
    QTestState *qts;
    uint8_t csd[16];
    uint16_t rca;

    qts = start();
    rca = card_init(qts);
    read_csd(qts, rca, csd);
    g_assert_cmphex(csd[14] & 0x30, ==, 0);
    qtest_quit(qts);

    qts = qtest_initf("-M beaglebone-black -drive if=sd,index=0,id=sd0,"
                      "format=raw,readonly=on,file=%s", image_path);
    rca = card_init(qts);
    wr(qts, BLK, (1 << 16) | BLOCK);
    cmd(qts, 24, 0, CMD_DP | CMD_RSP_48);
    g_assert_cmphex(rd(qts, RSP10) & (1u << 26), ==, 1u << 26);
    qtest_quit(qts);

    qts = qtest_initf("-M beaglebone-black -drive if=sd,index=0,id=sd0,"
                      "format=raw,readonly=on,file=%s", image_path);
    rca = card_init(qts);
    read_csd(qts, rca, csd);
    g_assert_cmphex(csd[14] & 0x30, ==, 0x20);
    qtest_quit(qts);
}

/*
 * Migrated in the middle of a DMA read of two blocks, the controller goes
 * on where it was: the rest of the first block, then a request for the
 * second.  The source is gone before the destination opens the image.
 */
static void test_migration(void)
{
    g_autofree char *dst_args = g_strdup_printf(
        "-M beaglebone-black -drive if=sd,index=0,id=sd0,format=raw,file=%s",
        image_path);
    const uint32_t addr = 0x600;
    QTestState *src, *dst;

    src = start();
    qtest_irq_intercept_out_named(src, MMC0_PATH, "dma-rx");
    card_init(src);
    wr(src, CON, CON_SDMA_LNE);
    wr(src, BLK, (2 << 16) | BLOCK);
    cmd(src, 18, addr, CMD_DP | CMD_RSP_48 | CMD_DDIR_READ | CMD_DE |
        CMD_MSBS | CMD_BCE | CMD_ACEN);
    for (int w = 0; w < 10; w++) {
        g_assert_cmphex(rd(src, DATA), ==, pattern_word(addr + w * 4));
    }
    g_assert_true(qtest_get_irq(src, 0));
    dst = am335x_migrate(src, dst_args);
    qtest_irq_intercept_out_named(dst, MMC0_PATH, "dma-rx");

    g_assert_cmphex(rd(dst, CON), ==, CON_SDMA_LNE);
    g_assert_cmphex(rd(dst, CMD) & CMD_DE, ==, CMD_DE);
    g_assert_cmphex(rd(dst, HCTL) & HCTL_SDBP, ==, HCTL_SDBP);
    g_assert_cmphex(rd(dst, PSTATE) & PSTATE_BRE, ==, PSTATE_BRE);
    for (int w = 10; w < 2 * BLOCK / 4; w++) {
        g_assert_cmphex(rd(dst, DATA), ==, pattern_word(addr + w * 4));
        if (w == BLOCK / 4 - 1) {
            /* The second block: a new request */
            g_assert_true(qtest_get_irq(dst, 0));
        }
    }
    g_assert_false(qtest_get_irq(dst, 0));
    g_assert_cmphex(rd(dst, STAT) & STAT_TC, ==, STAT_TC);

    qtest_quit(dst);
}

/* WRITE_MULTIPLE_BLOCK of @n blocks at @addr, by PIO, with auto CMD12 */
static void start_multiple_write(QTestState *qts, uint32_t addr, int n)
{
    wr(qts, BLK, (n << 16) | BLOCK);
    g_assert_cmphex(cmd(qts, 25, addr, CMD_DP | CMD_RSP_48 | CMD_DE |
                        CMD_MSBS | CMD_BCE | CMD_ACEN) & STAT_ERRI, ==, 0);
}

/* new_word() through the data port, for @addr + @from to @addr + @to */
static void write_words(QTestState *qts, uint32_t addr, uint32_t from,
                        uint32_t to)
{
    for (uint32_t off = from; off < to; off += 4) {
        wr(qts, DATA, new_word(addr + off));
    }
}

/*
 * The card holds a WRITE_MULTIPLE_BLOCK's blocks before it writes them to
 * the image, but a machine that stops has them all in its image: QMP stop
 * in the middle of a write, then the rest of the write after cont.
 */
static void test_write_stop(void)
{
    const uint32_t addr = 0x20000;
    const int n = 40, stopped_at = 20;
    QTestState *qts = start();

    card_init(qts);
    start_multiple_write(qts, addr, n);
    write_words(qts, addr, 0, stopped_at * BLOCK);
    qtest_qmp_assert_success(qts, "{'execute': 'stop'}");
    check_written(addr, -BLOCK, (n + 1) * BLOCK, stopped_at * BLOCK);
    qtest_qmp_assert_success(qts, "{'execute': 'cont'}");
    write_words(qts, addr, stopped_at * BLOCK, n * BLOCK);
    g_assert_cmphex(rd(qts, STAT) & (STAT_TC | STAT_ERRI), ==, STAT_TC);
    check_written(addr, -BLOCK, (n + 1) * BLOCK, n * BLOCK);
    qtest_quit(qts);

    remake_image();
}

/*
 * A WRITE_MULTIPLE_BLOCK longer than the card model's 64 KiB write-behind
 * window, saved in the middle and finished in a new QEMU: every block
 * reaches the image once the command ends, and the blocks around it keep
 * their pattern.
 */
static void test_long_write_migration(void)
{
    g_autofree char *dst_args = g_strdup_printf(
        "-M beaglebone-black -drive if=sd,index=0,id=sd0,format=raw,file=%s",
        image_path);
    const uint32_t addr = 0x10000;
    const int n = 160, saved_at = 140;
    QTestState *src, *dst;

    src = start();
    card_init(src);
    start_multiple_write(src, addr, n);
    write_words(src, addr, 0, saved_at * BLOCK);
    dst = am335x_migrate(src, dst_args);
    write_words(dst, addr, saved_at * BLOCK, n * BLOCK);
    g_assert_cmphex(rd(dst, STAT) & (STAT_TC | STAT_ERRI), ==, STAT_TC);
    g_assert_cmphex(rd(dst, PSTATE) & (PSTATE_BWE | PSTATE_DATI), ==, 0);

    check_written(addr, -BLOCK, (n + 1) * BLOCK, n * BLOCK);
    qtest_quit(dst);

    remake_image();
}

/* The BBB's eMMC on MMCHS1 answers MMC's CMD1 with its OCR. */
static void test_emmc(void)
{
    g_autofree char *path = NULL;
    int fd = g_file_open_tmp("am335x-emmc-XXXXXX.img", &path, NULL);
    uint64_t base = mmc_base[1];
    QTestState *qts;
    int tries;

    g_assert(fd >= 0);
    g_assert_cmpint(ftruncate(fd, 8 * MiB), ==, 0);
    close(fd);
    qts = qtest_initf("-M beaglebone-black "
                      "-drive if=sd,index=1,format=raw,file=%s", path);

    g_assert_cmphex(qtest_readl(qts, base + PSTATE) & PSTATE_CINS, ==,
                    PSTATE_CINS);
    /* MMCHS0's slot is empty and says so. */
    g_assert_cmphex(gpio0_datain(qts) & CD_PIN, ==, CD_PIN);

    qtest_writel(qts, base + HCTL, HCTL_SDVS_33 | HCTL_SDBP);
    qtest_writel(qts, base + SYSCTL, SYSCTL_ICE | SYSCTL_CEN |
                 SYSCTL_CLKD(240));
    qtest_writel(qts, base + IE, IE_ALL);
    qtest_writel(qts, base + CMD, CMD_INDX(0));
    qtest_writel(qts, base + STAT, 0xffffffff);
    for (tries = 0; tries < 10; tries++) {
        qtest_writel(qts, base + ARG, 0x40ff8080);
        qtest_writel(qts, base + CMD, CMD_INDX(1) | CMD_RSP_48);
        g_assert_cmphex(qtest_readl(qts, base + STAT), ==, STAT_CC);
        qtest_writel(qts, base + STAT, STAT_CC);
        if (qtest_readl(qts, base + RSP10) & OCR_BUSY) {
            break;
        }
        qtest_clock_step(qts, 1000 * US);
    }
    g_assert_cmpint(tries, <, 10);

    qtest_quit(qts);
    unlink(path);
}

/* Unknown offsets, odd sizes and read-only registers: logged, no harm. */
static void test_bad_access(void)
{
    QTestState *qts = start();

    g_assert_cmphex(rd(qts, 0x300), ==, 0);
    g_assert_cmphex(rd(qts, 0x134), ==, 0);
    g_assert_cmphex(rd(qts, 0xffc), ==, 0);
    g_assert_cmphex(qtest_readb(qts, MMC0 + 0x51), ==, 0);
    wr(qts, 0x300, 0xffffffff);
    wr(qts, 0xffc, 0xffffffff);
    wr(qts, 0x040, 0xffffffff);
    wr(qts, HL_REV, 0xffffffff);
    wr(qts, HL_HWINFO, 0xffffffff);
    wr(qts, HL_SYSCONFIG, 0xffffffff);
    wr(qts, SYSSTATUS, 0);
    wr(qts, REV, 0);
    qtest_writew(qts, MMC0 + REV + 2, 0);
    g_assert_cmphex(rd(qts, REV), ==, REV_RESET);
    g_assert_cmphex(rd(qts, HL_HWINFO), ==, 0);
    g_assert_cmphex(rd(qts, SYSSTATUS), ==, 1);

    /* Data port accesses with no transfer, out of order, or too large */
    wr(qts, DATA, 0x12345678);
    qtest_writeb(qts, MMC0 + DATA + 3, 0x12);
    g_assert_cmphex(qtest_readw(qts, MMC0 + DATA + 2), ==, 0);
    wr(qts, BLK, 0xffffffff);
    g_assert_cmphex(rd(qts, BLK) & 0xfff, <=, 0x400);
    /* A command without a clock does nothing. */
    wr(qts, CMD, CMD_INDX(17) | CMD_DP | CMD_RSP_48 | CMD_DE);
    g_assert_cmphex(rd(qts, STAT), ==, 0);
    /* All the software resets at once */
    wr(qts, SYSCTL, 0xffffffff);
    g_assert_cmphex(rd(qts, SYSCTL) & 0xff000000, ==, SYSCTL_SRA |
                    SYSCTL_SRC | SYSCTL_SRD);
    qtest_clock_step(qts, SRST_NS);
    g_assert_cmphex(rd(qts, SYSCTL) & 0xff000000, ==, 0);
    g_assert_cmphex(rd(qts, REV), ==, REV_RESET);

    qtest_quit(qts);
}

/*
 * A command the card takes while a write waits for its data (CMD13, which
 * is legal then, or one that is illegal then) does not take the data phase
 * over: the block that follows still lands where CMD24 said.  QEMU's card
 * model used to abort here (patches/qemu/0009).
 */
static void test_command_during_write(void)
{
    const uint32_t addr = 0x2000;
    QTestState *qts = start();
    uint16_t rca = card_init(qts);
    uint32_t stat;

    wr(qts, BLK, (1 << 16) | BLOCK);
    g_assert_cmphex(cmd(qts, 24, addr, CMD_DP | CMD_RSP_48) & STAT_ERRI,
                    ==, 0);
    g_assert_cmphex(rd(qts, STAT) & STAT_BWR, ==, STAT_BWR);
    wr(qts, STAT, STAT_BWR);
    /* SEND_STATUS: the card is in its receive-data state (6) */
    g_assert_cmphex(cmd(qts, 13, (uint32_t)rca << 16, CMD_RSP_48), ==,
                    STAT_CC);
    g_assert_cmpuint((rd(qts, RSP10) >> 9) & 0xf, ==, 6);
    /* READ_SINGLE_BLOCK is illegal in that state: no response */
    stat = cmd(qts, 17, addr, CMD_RSP_48);
    g_assert_cmphex(stat & STAT_CTO, ==, STAT_CTO);
    wr(qts, SYSCTL, rd(qts, SYSCTL) | SYSCTL_SRC);
    qtest_clock_step(qts, SRST_NS);

    for (uint32_t w = 0; w < BLOCK / 4; w++) {
        wr(qts, DATA, ~pattern_word(addr + w * 4));
    }
    qtest_clock_step(qts, 1000 * US);
    g_assert_cmphex(rd(qts, STAT) & STAT_TC, ==, STAT_TC);
    wr(qts, STAT, STAT_TC);

    /* Read back: the inverted pattern went to @addr */
    g_assert_cmphex(cmd(qts, 17, addr, CMD_DP | CMD_RSP_48 | CMD_DDIR_READ) &
                    STAT_ERRI, ==, 0);
    for (uint32_t w = 0; w < BLOCK / 4; w++) {
        g_assert_cmphex(rd(qts, DATA), ==, ~pattern_word(addr + w * 4));
    }
    /* Leave the image as make_image() wrote it for the other tests */
    wr(qts, STAT, ~0u);
    g_assert_cmphex(cmd(qts, 24, addr, CMD_DP | CMD_RSP_48) & STAT_ERRI,
                    ==, 0);
    for (uint32_t w = 0; w < BLOCK / 4; w++) {
        wr(qts, DATA, pattern_word(addr + w * 4));
    }
    qtest_clock_step(qts, 1000 * US);
    g_assert_cmphex(rd(qts, STAT) & STAT_TC, ==, STAT_TC);
    qtest_quit(qts);
}

/*
 * timing=on: a 4-bit bus at 96 MHz / 2 and the SD card's figures (1 ms
 * read access, 4 MB/s programming).  Its numbers, from the model's rules:
 * a command with a 48-bit response is 98 bus clocks (48 + N_CR 2 + 48),
 * with a 136-bit one 186, with none 48; a block 512 * 2 + 18 clocks.
 */
#define T_CLK_HZ            48000000ull
#define T_CMD_NS            (98 * 1000000000ull / T_CLK_HZ)
#define T_CMD_R2_NS         (186 * 1000000000ull / T_CLK_HZ)
#define T_CMD_NORSP_NS      (48 * 1000000000ull / T_CLK_HZ)
#define T_BLOCK_NS          ((512 * 2 + 18) * 1000000000ull / T_CLK_HZ)
#define T_READ_LATENCY_NS   (1000 * US)
#define T_PROG_NS           (512 * 1000000000ull / 4000000)
#define HCTL_DTW            (1u << 1)

/* Starts the timed machine with the card initialised; @rca gets its RCA. */
static QTestState *start_timed(uint16_t *rca)
{
    QTestState *qts = qtest_initf("-M beaglebone-black,timing=on "
                                  "-drive if=sd,index=0,id=sd0,format=raw,"
                                  "file=%s", image_path);
    uint16_t card = card_init(qts);

    if (rca) {
        *rca = card;
    }
    wr(qts, SYSCTL, SYSCTL_ICE | SYSCTL_CEN | SYSCTL_CLKD(2));
    wr(qts, HCTL, HCTL_SDVS_33 | HCTL_SDBP | HCTL_DTW);
    return qts;
}

/* A read's block reaches the EDMA after the card's access time and the bus. */
static void test_timing_read(void)
{
    QTestState *qts = start_timed(NULL);
    uint64_t due = T_CMD_NS + T_READ_LATENCY_NS + T_BLOCK_NS;

    qtest_irq_intercept_out_named(qts, MMC0_PATH, "dma-rx");
    wr(qts, BLK, (2 << 16) | BLOCK);
    cmd(qts, 18, 0x800, CMD_DP | CMD_RSP_48 | CMD_DDIR_READ | CMD_DE |
        CMD_MSBS | CMD_BCE | CMD_ACEN);
    g_assert_false(qtest_get_irq(qts, 0));
    qtest_clock_step(qts, due - T_CMD_NS - 1000);
    g_assert_false(qtest_get_irq(qts, 0));
    qtest_clock_step(qts, 1000);
    g_assert_true(qtest_get_irq(qts, 0));
    for (int w = 0; w < BLOCK / 4; w++) {
        g_assert_cmphex(rd(qts, DATA), ==, pattern_word(0x800 + w * 4));
    }
    /* The second block streamed in behind the first. */
    qtest_clock_step(qts, T_BLOCK_NS);
    g_assert_true(qtest_get_irq(qts, 0));
    for (int w = 0; w < BLOCK / 4; w++) {
        g_assert_cmphex(rd(qts, DATA), ==,
                        pattern_word(0x800 + BLOCK + w * 4));
    }
    g_assert_cmphex(rd(qts, STAT) & STAT_TC, ==, STAT_TC);
    qtest_quit(qts);
}

/* A write completes when the card's programming of the block ends. */
static void test_timing_write(void)
{
    QTestState *qts = start_timed(NULL);
    uint64_t busy = T_BLOCK_NS + T_PROG_NS;

    qtest_irq_intercept_out_named(qts, MMC0_PATH, "dma-tx");
    wr(qts, BLK, (1 << 16) | BLOCK);
    issue(qts, 24, 0x1000, CMD_DP | CMD_RSP_48 | CMD_DE);
    g_assert_false(qtest_get_irq(qts, 0));
    qtest_clock_step(qts, T_CMD_NS);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(rd(qts, STAT) & STAT_CC, ==, STAT_CC);
    for (int w = 0; w < BLOCK / 4; w++) {
        wr(qts, DATA, pattern_word(0x1000 + w * 4));
    }
    g_assert_cmphex(rd(qts, STAT) & STAT_TC, ==, 0);
    g_assert_cmphex(rd(qts, PSTATE) & PSTATE_DATI, ==, PSTATE_DATI);
    qtest_clock_step(qts, busy - 1000);
    g_assert_cmphex(rd(qts, STAT) & STAT_TC, ==, 0);
    qtest_clock_step(qts, 1000);
    g_assert_cmphex(rd(qts, STAT) & STAT_TC, ==, STAT_TC);
    g_assert_cmphex(rd(qts, PSTATE) & PSTATE_DATI, ==, 0);
    qtest_quit(qts);
}

/*
 * A write's TC, held for the card's busy, waits for the command complete
 * of a slow CMD13 sent meanwhile; QEMU used to spin at the TC's time.
 */
static void test_timing_status_during_busy(void)
{
    uint16_t rca;
    QTestState *qts = start_timed(&rca);
    uint64_t busy = T_BLOCK_NS + T_PROG_NS;
    /* CMD13 at 400 kHz: 98 clocks, longer than the busy */
    uint64_t slow_cmd = 98 * 1000000000ull / 400000;

    g_assert_cmpuint(slow_cmd, >, busy + 1000);
    wr(qts, BLK, (1 << 16) | BLOCK);
    /* By the EDMA's path: the model holds TC for a DMA transfer */
    issue(qts, 24, 0x1000, CMD_DP | CMD_RSP_48 | CMD_DE);
    qtest_clock_step(qts, T_CMD_NS);
    wr(qts, STAT, STAT_CC);
    for (int w = 0; w < BLOCK / 4; w++) {
        wr(qts, DATA, pattern_word(0x1000 + w * 4));
    }
    g_assert_cmphex(rd(qts, STAT) & STAT_TC, ==, 0);
    wr(qts, SYSCTL, SYSCTL_ICE | SYSCTL_CEN | SYSCTL_CLKD(240));
    issue(qts, 13, (uint32_t)rca << 16, CMD_RSP_48);
    qtest_clock_step(qts, busy + 1000);
    g_assert_cmphex(rd(qts, STAT) & (STAT_CC | STAT_TC), ==, 0);
    qtest_clock_step(qts, slow_cmd - busy - 1000);
    g_assert_cmphex(rd(qts, STAT) & (STAT_CC | STAT_TC | STAT_ERRI), ==,
                    STAT_CC | STAT_TC);
    g_assert_cmphex(rd(qts, PSTATE) & (PSTATE_CMDI | PSTATE_DATI), ==, 0);
    qtest_quit(qts);
}

/* Command complete waits for the command and its response on CMD. */
static void check_cmd_time(QTestState *qts, int index, uint32_t arg,
                           uint32_t flags, uint64_t ns)
{
    issue(qts, index, arg, flags);
    g_assert_cmphex(rd(qts, STAT) & STAT_CC, ==, 0);
    g_assert_cmphex(rd(qts, PSTATE) & PSTATE_CMDI, ==, PSTATE_CMDI);
    qtest_clock_step(qts, ns - 1);
    g_assert_cmphex(rd(qts, STAT) & STAT_CC, ==, 0);
    qtest_clock_step(qts, 1);
    g_assert_cmphex(rd(qts, STAT) & (STAT_CC | STAT_ERRI), ==, STAT_CC);
    g_assert_cmphex(rd(qts, PSTATE) & PSTATE_CMDI, ==, 0);
    wr(qts, STAT, STAT_CC | STAT_TC);
}

static void test_timing_command(void)
{
    uint16_t rca;
    QTestState *qts = start_timed(&rca);
    uint32_t status;
    uint8_t csd[16];

    /* CMD13 (R1): the card, selected, is in the transfer state. */
    check_cmd_time(qts, 13, (uint32_t)rca << 16, CMD_RSP_48, T_CMD_NS);
    status = rd(qts, RSP10);
    g_assert_cmpuint((status >> 9) & 0xf, ==, 4);
    /* CMD7 with RCA 0 deselects, with no response; CMD9 (R2): the CSD */
    check_cmd_time(qts, 7, 0, 0, T_CMD_NORSP_NS);
    check_cmd_time(qts, 9, (uint32_t)rca << 16, CMD_RSP_136, T_CMD_R2_NS);
    for (int i = 0; i < 4; i++) {
        stl_be_p(&csd[i * 4], rd(qts, RSP76 - i * 4));
    }
    g_assert_cmphex(csd[15], ==, crc7(csd, 15) << 1 | 1);
    qtest_quit(qts);
}

int main(int argc, char **argv)
{
    int ret;

    g_test_init(&argc, &argv, NULL);
    make_image();

    qtest_add_func("am335x/hsmmc/reset-values", test_reset_values);
    qtest_add_func("am335x/hsmmc/softreset", test_softreset);
    qtest_add_func("am335x/hsmmc/bus-power", test_bus_power);
    qtest_add_func("am335x/hsmmc/special-reset", test_special_reset);
    qtest_add_func("am335x/hsmmc/card-init", test_card_init);
    qtest_add_func("am335x/hsmmc/dma-read", test_dma_read);
    qtest_add_func("am335x/hsmmc/dma-read-level", test_dma_read_level);
    qtest_add_func("am335x/hsmmc/dma-write", test_dma_write);
    qtest_add_func("am335x/hsmmc/card-detect", test_card_detect);
    qtest_add_func("am335x/hsmmc/read-only", test_read_only);
    qtest_add_func("am335x/hsmmc/migration", test_migration);
    qtest_add_func("am335x/hsmmc/write-stop", test_write_stop);
    qtest_add_func("am335x/hsmmc/long-write-migration",
                   test_long_write_migration);
    qtest_add_func("am335x/hsmmc/emmc", test_emmc);
    qtest_add_func("am335x/hsmmc/bad-access", test_bad_access);
    qtest_add_func("am335x/hsmmc/command-during-write",
                   test_command_during_write);
    qtest_add_func("am335x/hsmmc/timing-read", test_timing_read);
    qtest_add_func("am335x/hsmmc/timing-write", test_timing_write);
    qtest_add_func("am335x/hsmmc/timing-status-during-busy",
                   test_timing_status_during_busy);
    qtest_add_func("am335x/hsmmc/timing-command", test_timing_command);

    ret = g_test_run();
    unlink(image_path);
    g_free(image_path);
    return ret;
}
