/*
 * QTest for the TI AM335x GPMC with the EVM's NAND on CS0, and the ELM
 *
 * The NAND is driven through GPMC_NAND_COMMAND/ADDRESS/DATA_0 and the
 * prefetch engine; BCH8 parity is checked against a bit-serial encoder
 * with the generator polynomial written out below, and against the
 * erased-sector parity Linux's omap2 driver knows; the ELM decodes
 * syndromes of pages with bits flipped through the NAND's "flip-bits".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "libqtest.h"
#include "qobject/qdict.h"

#define GPMC_BASE           0x50000000
#define GPMC_REVISION       0x000
#define GPMC_SYSSTATUS      0x014
#define GPMC_IRQSTATUS      0x018
#define GPMC_IRQENABLE      0x01c
#define GPMC_STATUS         0x054
#define GPMC_CONFIG7(cs)    (0x078 + 0x30 * (cs))
#define GPMC_NAND_CMD       0x07c
#define GPMC_NAND_ADDR      0x080
#define GPMC_NAND_DATA      0x084
#define PREFETCH_CONFIG1    0x1e0
#define PREFETCH_CONFIG2    0x1e4
#define PREFETCH_CONTROL    0x1ec
#define PREFETCH_STATUS     0x1f0
#define ECC_CONFIG          0x1f4
#define ECC_CONTROL         0x1f8
#define ECC_SIZE_CONFIG     0x1fc
#define BCH_RESULT(n, k)    (0x240 + 0x10 * (n) + 4 * (k))

#define ELM_BASE            0x48080000
#define ELM_REVISION        0x000
#define ELM_SYSSTATUS       0x014
#define ELM_IRQSTATUS       0x018
#define ELM_IRQENABLE       0x01c
#define ELM_LOCATION_CONFIG 0x020
#define ELM_PAGE_CTRL       0x080
#define ELM_SYNDROME(n, k)  (0x400 + 0x40 * (n) + 4 * (k))
#define ELM_LOC_STATUS(n)   (0x800 + 0x100 * (n))
#define ELM_ERR_LOC(n, k)   (0x880 + 0x100 * (n) + 4 * (k))

/* INTC raw inputs: GPMC is 100, ELM 4 */
#define INTC_ITR(bank)      (0x48200080 + 0x20 * (bank))

/* CS0 window where Linux puts it (am335x-evm.dts ranges) */
#define CS0_WINDOW          0x08000000

#define PAGE_SIZE           2048
#define OOB_SIZE            64
#define FULL_PAGE           (PAGE_SIZE + OOB_SIZE)
#define PAGES_PER_BLOCK     64
#define NAND_BYTES          (2048ULL * PAGES_PER_BLOCK * FULL_PAGE)

/*
 * BCH8 over GF(2^13) (x^13 + x^4 + x^3 + x + 1): the generator polynomial
 * g(x) of degree 104, its x^103..x^0 coefficients, most significant first.
 */
static const uint8_t bch8_gen[13] = {
    0x15, 0xf9, 0x14, 0xe0, 0x7b, 0x0c, 0x13, 0x87, 0x41, 0xc5, 0xc4, 0xfb,
    0x23,
};

/* Linux omap2.c: bch8_polynomial, the complement of the parity of 0xff */
static const uint8_t bch8_erased_parity_inv[13] = {
    0xef, 0x51, 0x2e, 0x09, 0xed, 0x93, 0x9a, 0xc2, 0x97, 0x79, 0xe5, 0x24,
    0xb5,
};

static uint32_t le32(const void *p)
{
    return (uint32_t)ldl_le_p(p);
}

static uint32_t be32(const void *p)
{
    return (uint32_t)ldl_be_p(p);
}

static void bch8_ref(const uint8_t *data, size_t len, uint8_t ecc[13])
{
    memset(ecc, 0, 13);
    for (size_t i = 0; i < len * 8; i++) {
        int bit = (data[i / 8] >> (7 - i % 8)) & 1;
        int fb = (ecc[0] >> 7) ^ bit;

        for (int k = 0; k < 12; k++) {
            ecc[k] = (ecc[k] << 1) | (ecc[k + 1] >> 7);
        }
        ecc[12] <<= 1;
        if (fb) {
            for (int k = 0; k < 13; k++) {
                ecc[k] ^= bch8_gen[k];
            }
        }
    }
}

static uint32_t gpmc_readl(QTestState *qts, uint32_t off)
{
    return qtest_readl(qts, GPMC_BASE + off);
}

static void gpmc_writel(QTestState *qts, uint32_t off, uint32_t v)
{
    qtest_writel(qts, GPMC_BASE + off, v);
}

static void nand_cmd(QTestState *qts, uint8_t c)
{
    qtest_writeb(qts, GPMC_BASE + GPMC_NAND_CMD, c);
}

static void nand_addr(QTestState *qts, uint8_t a)
{
    qtest_writeb(qts, GPMC_BASE + GPMC_NAND_ADDR, a);
}

static uint8_t nand_read8(QTestState *qts)
{
    return qtest_readb(qts, GPMC_BASE + GPMC_NAND_DATA);
}

static void nand_page_addr(QTestState *qts, uint32_t col, uint32_t page)
{
    nand_addr(qts, col);
    nand_addr(qts, col >> 8);
    nand_addr(qts, page);
    nand_addr(qts, page >> 8);
    nand_addr(qts, page >> 16);
}

static uint8_t nand_status(QTestState *qts)
{
    nand_cmd(qts, 0x70);
    return nand_read8(qts);
}

/* ERASE BLOCK, returning the READ STATUS after it */
static uint8_t nand_erase_status(QTestState *qts, uint32_t page)
{
    nand_cmd(qts, 0x60);
    nand_addr(qts, page);
    nand_addr(qts, page >> 8);
    nand_addr(qts, page >> 16);
    nand_cmd(qts, 0xd0);
    return nand_status(qts);
}

static void nand_erase(QTestState *qts, uint32_t page)
{
    g_assert_cmphex(nand_erase_status(qts, page), ==, 0xe0);
}

static void nand_write_buf(QTestState *qts, const uint8_t *buf, size_t len)
{
    for (size_t i = 0; i + 4 <= len; i += 4) {
        qtest_writel(qts, GPMC_BASE + GPMC_NAND_DATA, le32(buf + i));
    }
    for (size_t i = len & ~3; i < len; i++) {
        qtest_writeb(qts, GPMC_BASE + GPMC_NAND_DATA, buf[i]);
    }
}

static void nand_read_buf(QTestState *qts, uint8_t *buf, size_t len)
{
    for (size_t i = 0; i + 4 <= len; i += 4) {
        stl_le_p(buf + i, qtest_readl(qts, GPMC_BASE + GPMC_NAND_DATA));
    }
    for (size_t i = len & ~3; i < len; i++) {
        buf[i] = nand_read8(qts);
    }
}

/* PROGRAM PAGE, returning the READ STATUS after it */
static uint8_t nand_program_status(QTestState *qts, uint32_t page,
                                   uint32_t col, const uint8_t *buf,
                                   size_t len)
{
    nand_cmd(qts, 0x80);
    nand_page_addr(qts, col, page);
    nand_write_buf(qts, buf, len);
    nand_cmd(qts, 0x10);
    return nand_status(qts);
}

static void nand_program(QTestState *qts, uint32_t page, uint32_t col,
                         const uint8_t *buf, size_t len)
{
    g_assert_cmphex(nand_program_status(qts, page, col, buf, len), ==, 0xe0);
}

static void nand_start_read(QTestState *qts, uint32_t page, uint32_t col)
{
    nand_cmd(qts, 0x00);
    nand_page_addr(qts, col, page);
    nand_cmd(qts, 0x30);
}

static void nand_change_column(QTestState *qts, uint32_t col)
{
    nand_cmd(qts, 0x05);
    nand_addr(qts, col);
    nand_addr(qts, col >> 8);
    nand_cmd(qts, 0xe0);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

    return x < y ? -1 : x > y;
}

static void fill_pattern(uint8_t *buf, size_t len, uint32_t seed)
{
    for (size_t i = 0; i < len; i++) {
        seed = seed * 1103515245 + 12345;
        buf[i] = seed >> 16;
    }
}

static QTestState *start(void)
{
    QTestState *qts = qtest_init("-M am335x-evm");

    nand_cmd(qts, 0xff);
    return qts;
}

/* Linux omap2.c omap_enable_hwecc_bch() for BCH8 with the ELM */
static void ecc_bch8_enable(QTestState *qts, bool read, int sectors)
{
    uint32_t size = read ? (2 << 22) | (26 << 12) : (32 << 22);
    uint32_t mode = read ? 1 : 6;

    gpmc_writel(qts, ECC_CONTROL, 1);
    gpmc_writel(qts, ECC_SIZE_CONFIG, size);
    gpmc_writel(qts, ECC_CONFIG, BIT(16) | (1 << 12) | (mode << 8) |
                ((sectors - 1) << 4) | 1);
    gpmc_writel(qts, ECC_CONTROL, 0x101);
}

static void ecc_bch8_result(QTestState *qts, int n, uint8_t ecc[13])
{
    uint32_t r[4];

    for (int k = 0; k < 4; k++) {
        r[k] = gpmc_readl(qts, BCH_RESULT(n, k));
    }
    ecc[0] = r[3];
    stl_be_p(ecc + 1, r[2]);
    stl_be_p(ecc + 5, r[1]);
    stl_be_p(ecc + 9, r[0]);
}

static void test_regs(void)
{
    QTestState *qts = start();

    g_assert_cmphex(gpmc_readl(qts, GPMC_REVISION), ==, 0x60);
    g_assert_cmphex(gpmc_readl(qts, GPMC_SYSSTATUS), ==, 1);
    g_assert_cmphex(gpmc_readl(qts, GPMC_CONFIG7(0)), ==, 0xf40);
    g_assert_cmphex(gpmc_readl(qts, GPMC_CONFIG7(1)), ==, 0xf00);
    /* WAIT0: the NAND's R/B#, ready */
    g_assert_cmphex(gpmc_readl(qts, GPMC_STATUS) & 0x101, ==, 0x101);
    g_assert_cmphex(qtest_readl(qts, ELM_BASE + ELM_REVISION), ==, 0x20);
    g_assert_cmphex(qtest_readl(qts, ELM_BASE + ELM_SYSSTATUS), ==, 1);
    qtest_quit(qts);
}

static void test_read_id(void)
{
    QTestState *qts = start();
    static const uint8_t id[5] = { 0x2c, 0xda, 0x90, 0x95, 0x06 };
    uint8_t param[3 * 256];
    uint16_t crc = 0x4f4e;

    nand_cmd(qts, 0x90);
    nand_addr(qts, 0x00);
    for (int i = 0; i < 5; i++) {
        g_assert_cmphex(nand_read8(qts), ==, id[i]);
    }
    nand_cmd(qts, 0x90);
    nand_addr(qts, 0x20);
    g_assert_cmphex(qtest_readl(qts, GPMC_BASE + GPMC_NAND_DATA), ==,
                    le32("ONFI"));

    nand_cmd(qts, 0xec);
    nand_addr(qts, 0x00);
    nand_read_buf(qts, param, sizeof(param));
    g_assert(!memcmp(param, "ONFI", 4));
    g_assert(!memcmp(param, param + 256, 256));
    g_assert(!memcmp(param, param + 512, 256));
    g_assert_cmpuint(le32(param + 80), ==, PAGE_SIZE);
    g_assert_cmpuint(lduw_le_p(param + 84), ==, OOB_SIZE);
    g_assert_cmpuint(le32(param + 92), ==, PAGES_PER_BLOCK);
    g_assert_cmpuint(le32(param + 96), ==, 2048);
    for (int i = 0; i < 254; i++) {
        crc ^= param[i] << 8;
        for (int b = 0; b < 8; b++) {
            crc = (crc << 1) ^ ((crc & 0x8000) ? 0x8005 : 0);
        }
    }
    g_assert_cmphex(lduw_le_p(param + 254), ==, crc);
    qtest_quit(qts);
}

static void test_program_erase(void)
{
    QTestState *qts = start();
    g_autofree uint8_t *buf = g_malloc(FULL_PAGE);
    g_autofree uint8_t *rd = g_malloc(FULL_PAGE);
    uint32_t page = 5 * PAGES_PER_BLOCK + 3;

    /* Erased */
    nand_start_read(qts, page, 0);
    nand_read_buf(qts, rd, FULL_PAGE);
    for (int i = 0; i < FULL_PAGE; i++) {
        g_assert_cmphex(rd[i], ==, 0xff);
    }

    fill_pattern(buf, FULL_PAGE, 1);
    nand_program(qts, page, 0, buf, FULL_PAGE);
    nand_start_read(qts, page, 0);
    nand_read_buf(qts, rd, FULL_PAGE);
    g_assert(!memcmp(buf, rd, FULL_PAGE));

    /* Change read column, into the spare area */
    nand_change_column(qts, PAGE_SIZE + 7);
    g_assert_cmphex(nand_read8(qts), ==, buf[PAGE_SIZE + 7]);

    /* Programming again only clears bits. */
    memset(rd, 0x0f, FULL_PAGE);
    nand_program(qts, page, 0, rd, 16);
    nand_start_read(qts, page, 0);
    for (int i = 0; i < 16; i++) {
        g_assert_cmphex(nand_read8(qts), ==, buf[i] & 0x0f);
    }

    nand_erase(qts, page);
    nand_start_read(qts, page, 0);
    nand_read_buf(qts, rd, 64);
    for (int i = 0; i < 64; i++) {
        g_assert_cmphex(rd[i], ==, 0xff);
    }
    qtest_quit(qts);
}

static void test_prefetch(void)
{
    QTestState *qts = start();
    g_autofree uint8_t *buf = g_malloc(PAGE_SIZE);
    uint32_t page = 7, st;

    fill_pattern(buf, PAGE_SIZE, 7);
    nand_program(qts, page, 0, buf, PAGE_SIZE);

    /* CS0 at 0x08000000, 16 MiB, as Linux maps it */
    gpmc_writel(qts, GPMC_CONFIG7(0), 0xf48);
    gpmc_writel(qts, GPMC_IRQENABLE, 3);
    nand_start_read(qts, page, 0);
    gpmc_writel(qts, PREFETCH_CONFIG2, 512);
    gpmc_writel(qts, PREFETCH_CONFIG1, (0 << 24) | (0x40 << 8) | BIT(7));
    gpmc_writel(qts, PREFETCH_CONTROL, 1);
    st = gpmc_readl(qts, PREFETCH_STATUS);
    g_assert_cmpuint(st >> 24, ==, 64);
    g_assert_cmpuint(st & 0x3fff, ==, 512 - 64);
    g_assert_cmphex(gpmc_readl(qts, PREFETCH_CONTROL), ==, 1);
    g_assert(gpmc_readl(qts, GPMC_IRQSTATUS) & 1);

    for (int i = 0; i < 512; i += 4) {
        g_assert_cmphex(qtest_readl(qts, CS0_WINDOW + (i & 0xff)), ==,
                        le32(buf + i));
        if (i == 508 - 64) {
            /* The last FIFO load: the NAND side is done. */
            st = gpmc_readl(qts, PREFETCH_STATUS);
            g_assert_cmpuint(st & 0x3fff, ==, 0);
        }
    }
    st = gpmc_readl(qts, PREFETCH_STATUS);
    g_assert_cmpuint(st >> 24, ==, 0);
    g_assert_cmphex(gpmc_readl(qts, PREFETCH_CONTROL), ==, 0);
    g_assert(gpmc_readl(qts, GPMC_IRQSTATUS) & 2);
    /* GPMC interrupt 100: INTC bank 3, bit 4 */
    g_assert(qtest_readl(qts, INTC_ITR(3)) & BIT(4));
    gpmc_writel(qts, GPMC_IRQSTATUS, 3);
    g_assert_cmphex(gpmc_readl(qts, GPMC_IRQSTATUS), ==, 0);
    gpmc_writel(qts, PREFETCH_CONTROL, 0);
    gpmc_writel(qts, PREFETCH_CONFIG1, 0);

    /* The rest of the page without the engine: data cycles on the window */
    g_assert_cmphex(qtest_readb(qts, CS0_WINDOW), ==, buf[512]);

    /* Write posting: a page through the FIFO */
    fill_pattern(buf, PAGE_SIZE, 8);
    nand_cmd(qts, 0x80);
    nand_page_addr(qts, 0, page + 1);
    gpmc_writel(qts, PREFETCH_CONFIG2, PAGE_SIZE);
    gpmc_writel(qts, PREFETCH_CONFIG1, (0x40 << 8) | BIT(7) | 1);
    gpmc_writel(qts, PREFETCH_CONTROL, 1);
    g_assert_cmpuint(gpmc_readl(qts, PREFETCH_STATUS) >> 24, ==, 64);
    for (int i = 0; i < PAGE_SIZE; i += 2) {
        qtest_writew(qts, CS0_WINDOW, lduw_le_p(buf + i));
    }
    g_assert_cmpuint(gpmc_readl(qts, PREFETCH_STATUS) & 0x3fff, ==, 0);
    g_assert_cmphex(gpmc_readl(qts, PREFETCH_CONTROL), ==, 0);
    gpmc_writel(qts, PREFETCH_CONFIG1, 0);
    nand_cmd(qts, 0x10);
    nand_start_read(qts, page + 1, 0);
    for (int i = 0; i < PAGE_SIZE; i += 4) {
        g_assert_cmphex(qtest_readl(qts, GPMC_BASE + GPMC_NAND_DATA), ==,
                        le32(buf + i));
    }
    qtest_quit(qts);
}

/* Write a page as Linux's omap_write_page_bch() does; returns the ECC. */
static void write_page_bch8(QTestState *qts, uint32_t page,
                            const uint8_t *data, uint8_t *oob)
{
    memset(oob, 0xff, OOB_SIZE);
    nand_cmd(qts, 0x80);
    nand_page_addr(qts, 0, page);
    ecc_bch8_enable(qts, false, 4);
    nand_write_buf(qts, data, PAGE_SIZE);
    for (int n = 0; n < 4; n++) {
        ecc_bch8_result(qts, n, oob + 2 + 14 * n);
        oob[2 + 14 * n + 13] = 0;
    }
    nand_write_buf(qts, oob, OOB_SIZE);
    nand_cmd(qts, 0x10);
    g_assert_cmphex(nand_status(qts), ==, 0xe0);
}

/* Read as omap_read_page_bch() does; returns the 4 syndromes. */
static void read_page_bch8(QTestState *qts, uint32_t page, uint8_t *data,
                           uint8_t syn[4][13])
{
    uint8_t oob[56];

    nand_start_read(qts, page, 0);
    ecc_bch8_enable(qts, true, 4);
    nand_change_column(qts, 0);
    nand_read_buf(qts, data, PAGE_SIZE);
    nand_change_column(qts, PAGE_SIZE + 2);
    nand_read_buf(qts, oob, sizeof(oob));
    for (int n = 0; n < 4; n++) {
        ecc_bch8_result(qts, n, syn[n]);
    }
}

static void test_bch8(void)
{
    QTestState *qts = start();
    g_autofree uint8_t *data = g_malloc(PAGE_SIZE);
    g_autofree uint8_t *rd = g_malloc(PAGE_SIZE);
    uint8_t oob[OOB_SIZE], ref[13], syn[4][13];
    static const uint8_t zero[13];

    /* An erased sector: the complement of Linux's bch8_polynomial */
    memset(data, 0xff, PAGE_SIZE);
    nand_start_read(qts, 9, 0);
    ecc_bch8_enable(qts, true, 1);
    nand_read_buf(qts, rd, 512);
    ecc_bch8_result(qts, 0, ref);
    for (int i = 0; i < 13; i++) {
        g_assert_cmphex(ref[i], ==, bch8_erased_parity_inv[i] ^ 0xff);
    }

    fill_pattern(data, PAGE_SIZE, 3);
    write_page_bch8(qts, 10, data, oob);
    for (int n = 0; n < 4; n++) {
        bch8_ref(data + 512 * n, 512, ref);
        g_assert(!memcmp(ref, oob + 2 + 14 * n, 13));
    }
    read_page_bch8(qts, 10, rd, syn);
    g_assert(!memcmp(rd, data, PAGE_SIZE));
    for (int n = 0; n < 4; n++) {
        g_assert(!memcmp(syn[n], zero, 13));
    }
    qtest_quit(qts);
}

/*
 * Hamming code as Linux's omap2 HAM1 uses it: 512-byte sectors.  The
 * parity of a page with one bit flipped differs, for each k, in P(2^k)o
 * (bit 16 + k) if bit k of the error's position (bit number for k < 3,
 * byte offset bit k - 3 above) is set, else in P(2^k)e (bit k).
 */
static void test_hamming(void)
{
    QTestState *qts = start();
    uint8_t data[512];
    uint32_t good[2], bad;

    fill_pattern(data, sizeof(data), 5);
    nand_program(qts, 20, 0, data, sizeof(data));
    for (int pass = 0; pass < 2; pass++) {
        nand_start_read(qts, 20, 0);
        gpmc_writel(qts, ECC_CONTROL, 0x101);
        gpmc_writel(qts, ECC_SIZE_CONFIG, (255 << 22) | 1);
        gpmc_writel(qts, ECC_CONFIG, 1);
        nand_read_buf(qts, data, sizeof(data));
        good[pass] = gpmc_readl(qts, 0x200);
        g_assert_cmphex(gpmc_readl(qts, ECC_CONTROL) & 0xf, ==, 2);
    }
    g_assert_cmphex(good[0], ==, good[1]);
    g_assert_cmphex(good[0] & ~0x0fff0fff, ==, 0);

    for (int t = 0; t < 4; t++) {
        uint32_t byte = (t * 173 + 9) % 512, bit = (t * 5 + 2) % 8;
        uint32_t flip = byte * 8 + bit, pos = (byte << 3) | bit, want = 0;
        g_autofree char *val = g_strdup_printf("20:%u", flip);
        QDict *resp;

        resp = qtest_qmp(qts, "{ 'execute': 'qom-set', 'arguments': "
                         "{ 'path': '/machine/nand', 'property': "
                         "'flip-bits', 'value': %s } }", val);
        qobject_unref(resp);
        nand_start_read(qts, 20, 0);
        gpmc_writel(qts, ECC_CONTROL, 0x101);
        gpmc_writel(qts, ECC_CONFIG, 1);
        nand_read_buf(qts, data, sizeof(data));
        bad = gpmc_readl(qts, 0x200);
        for (int k = 0; k < 12; k++) {
            want |= BIT((pos & BIT(k)) ? 16 + k : k);
        }
        g_assert_cmphex(good[0] ^ bad, ==, want);
        /* flip it back */
        resp = qtest_qmp(qts, "{ 'execute': 'qom-set', 'arguments': "
                         "{ 'path': '/machine/nand', 'property': "
                         "'flip-bits', 'value': %s } }", val);
        qobject_unref(resp);
    }
    gpmc_writel(qts, ECC_CONFIG, 0);
    qtest_quit(qts);
}

/*
 * BCH4 and BCH16 read an erased sector (512 + parity bytes of 0xff) as
 * the syndromes Linux's omap2 driver knows as "erased" (bch4_vector,
 * bch16_vector), with its ECC_SIZE settings: BCH4 13 nibbles in, 3 out.
 */
static void test_bch4_bch16_erased(void)
{
    QTestState *qts = start();
    static const uint8_t bch4_erased[7] = {
        0x00, 0x6b, 0x31, 0xdd, 0x41, 0xbc, 0x10,
    };
    static const uint8_t bch16_erased[26] = {
        0xf5, 0x24, 0x1c, 0xd0, 0x61, 0xb3, 0xf1, 0x55, 0x2e, 0x2c, 0x86,
        0xa3, 0xed, 0x36, 0x1b, 0x78, 0x48, 0x76, 0xa9, 0x3b, 0x97, 0xd1,
        0x7a, 0x93, 0x07, 0x0e,
    };
    uint8_t buf[512 + 26], ecc[26];
    uint32_t r[7];

    /* BCH4: wrap mode 1, size0 13, size1 3, 8 spare bytes per sector */
    nand_start_read(qts, 40, 0);
    gpmc_writel(qts, ECC_CONTROL, 1);
    gpmc_writel(qts, ECC_SIZE_CONFIG, (3 << 22) | (13 << 12));
    gpmc_writel(qts, ECC_CONFIG, BIT(16) | (0 << 12) | (1 << 8) | 1);
    gpmc_writel(qts, ECC_CONTROL, 0x101);
    nand_read_buf(qts, buf, 512 + 8);
    r[0] = gpmc_readl(qts, BCH_RESULT(0, 0));
    r[1] = gpmc_readl(qts, BCH_RESULT(0, 1));
    ecc[0] = r[1] >> 12;
    ecc[1] = r[1] >> 4;
    ecc[2] = ((r[1] & 0xf) << 4) | (r[0] >> 28);
    ecc[3] = r[0] >> 20;
    ecc[4] = r[0] >> 12;
    ecc[5] = r[0] >> 4;
    ecc[6] = (r[0] & 0xf) << 4;
    g_assert(!memcmp(ecc, bch4_erased, 7));

    /* BCH16: wrap mode 1, size0 52, size1 0 */
    nand_start_read(qts, 40, 0);
    gpmc_writel(qts, ECC_CONTROL, 1);
    gpmc_writel(qts, ECC_SIZE_CONFIG, 52 << 12);
    gpmc_writel(qts, ECC_CONFIG, BIT(16) | (2 << 12) | (1 << 8) | 1);
    gpmc_writel(qts, ECC_CONTROL, 0x101);
    nand_read_buf(qts, buf, 512 + 26);
    for (int k = 0; k < 4; k++) {
        r[k] = gpmc_readl(qts, BCH_RESULT(0, k));
    }
    for (int k = 4; k < 7; k++) {
        r[k] = gpmc_readl(qts, 0x300 + 4 * (k - 4));
    }
    ecc[0] = r[6] >> 8;
    ecc[1] = r[6];
    for (int k = 5; k >= 0; k--) {
        stl_be_p(ecc + 2 + 4 * (5 - k), r[k]);
    }
    g_assert(!memcmp(ecc, bch16_erased, 26));
    qtest_quit(qts);
}

/* Linux omap2.c's ECC bytes of sector 0 for BCH4 (7) or BCH16 (26) */
static int bch_bytes(QTestState *qts, int t, uint8_t *ecc)
{
    uint32_t r[7];

    for (int k = 0; k < 7; k++) {
        r[k] = gpmc_readl(qts, k < 4 ? BCH_RESULT(0, k) : 0x300 + 4 * (k - 4));
    }
    if (t == 4) {
        ecc[0] = r[1] >> 12;
        ecc[1] = r[1] >> 4;
        ecc[2] = ((r[1] & 0xf) << 4) | (r[0] >> 28);
        ecc[3] = r[0] >> 20;
        ecc[4] = r[0] >> 12;
        ecc[5] = r[0] >> 4;
        ecc[6] = (r[0] & 0xf) << 4;
        return 7;
    }
    ecc[0] = r[6] >> 8;
    ecc[1] = r[6];
    for (int k = 5; k >= 0; k--) {
        stl_be_p(ecc + 2 + 4 * (5 - k), r[k]);
    }
    return 26;
}

static void flip_bits(QTestState *qts, uint32_t page, const uint32_t *bits,
                      int n);

/*
 * BCH4 and BCH16 through the ELM, one sector: up to t flipped bits are
 * located (Linux adds BCH4's 4 pad bits to the location), t + 1 are
 * uncorrectable.
 */
static void test_elm_bch4_bch16(void)
{
    QTestState *qts = start();
    uint8_t data[512], ecc[26], buf[512 + 26], oob[OOB_SIZE];

    for (int level = 0; level < 2; level++) {
        int t = level ? 16 : 4;
        int bytes = level ? 26 : 7;
        uint32_t sel = level ? 2 : 0;

        for (int nerr = t; nerr <= t + 1; nerr++) {
            uint32_t page = 100 + 2 * level + nerr - t;
            uint32_t bits[17], want[17], got[16], st;

            fill_pattern(data, sizeof(data), page);
            /* write: wrap mode 1 (BCH16) or 6 (BCH4), parity only */
            nand_cmd(qts, 0x80);
            nand_page_addr(qts, 0, page);
            gpmc_writel(qts, ECC_CONTROL, 1);
            gpmc_writel(qts, ECC_SIZE_CONFIG, level ? 52 << 22 : 32 << 22);
            gpmc_writel(qts, ECC_CONFIG, BIT(16) | (sel << 12) |
                        ((level ? 1 : 6) << 8) | 1);
            gpmc_writel(qts, ECC_CONTROL, 0x101);
            nand_write_buf(qts, data, sizeof(data));
            g_assert_cmpint(bch_bytes(qts, t, ecc), ==, bytes);
            memset(oob, 0xff, sizeof(oob));
            memcpy(oob + 2, ecc, bytes);
            oob[2 + bytes] = 0;
            nand_cmd(qts, 0x85);
            nand_addr(qts, PAGE_SIZE & 0xff);
            nand_addr(qts, PAGE_SIZE >> 8);
            nand_write_buf(qts, oob, sizeof(oob));
            nand_cmd(qts, 0x10);

            for (int i = 0; i < nerr; i++) {
                uint32_t byte = (i * 29 + 3) % 512, bit = i % 8;

                bits[i] = byte * 8 + bit;
                want[i] = 8 * (512 + bytes - 1 - byte) + bit - (t == 4 ? 4 : 0);
            }
            flip_bits(qts, page, bits, nerr);

            /* read: wrap mode 1, the parity in, the pad out */
            nand_start_read(qts, page, 0);
            gpmc_writel(qts, ECC_CONTROL, 1);
            gpmc_writel(qts, ECC_SIZE_CONFIG,
                        level ? 52 << 12 : (3 << 22) | (13 << 12));
            gpmc_writel(qts, ECC_CONFIG, BIT(16) | (sel << 12) | (1 << 8) | 1);
            gpmc_writel(qts, ECC_CONTROL, 0x101);
            nand_read_buf(qts, buf, 512);
            nand_change_column(qts, PAGE_SIZE + 2);
            nand_read_buf(qts, buf, level ? 26 : 8);
            bch_bytes(qts, t, ecc);

            /* omap_elm.c elm_load_syndrome() */
            qtest_writel(qts, ELM_BASE + ELM_LOCATION_CONFIG,
                         sel | (0x7ff << 16));
            if (t == 4) {
                qtest_writel(qts, ELM_BASE + ELM_SYNDROME(0, 0),
                             (be32(ecc + 3) >> 4) | ((ecc[2] & 0xf) << 28));
                qtest_writel(qts, ELM_BASE + ELM_SYNDROME(0, 1),
                             be32(ecc) >> 12);
            } else {
                for (int k = 0; k < 6; k++) {
                    qtest_writel(qts, ELM_BASE + ELM_SYNDROME(0, k),
                                 be32(ecc + 22 - 4 * k));
                }
                qtest_writel(qts, ELM_BASE + ELM_SYNDROME(0, 6),
                             (ecc[0] << 8) | ecc[1]);
            }
            qtest_writel(qts, ELM_BASE + ELM_SYNDROME(0, 6),
                         qtest_readl(qts, ELM_BASE + ELM_SYNDROME(0, 6)) |
                         BIT(16));
            g_assert_cmphex(qtest_readl(qts, ELM_BASE + ELM_IRQSTATUS) & 1,
                            ==, 1);
            qtest_writel(qts, ELM_BASE + ELM_IRQSTATUS, 1);
            st = qtest_readl(qts, ELM_BASE + ELM_LOC_STATUS(0));
            if (nerr > t) {
                g_assert_cmphex(st & 0x100, ==, 0);
                continue;
            }
            g_assert_cmphex(st, ==, 0x100 | nerr);
            for (int i = 0; i < nerr; i++) {
                got[i] = qtest_readl(qts, ELM_BASE + ELM_ERR_LOC(0, i));
            }
            qsort(got, nerr, sizeof(got[0]), cmp_u32);
            qsort(want, nerr, sizeof(want[0]), cmp_u32);
            for (int i = 0; i < nerr; i++) {
                g_assert_cmpuint(got[i], ==, want[i]);
            }
        }
    }
    qtest_quit(qts);
}

static void flip_bits(QTestState *qts, uint32_t page, const uint32_t *bits,
                      int n)
{
    g_autoptr(GString) s = g_string_new(NULL);
    QDict *resp;

    g_string_printf(s, "%u:", page);
    for (int i = 0; i < n; i++) {
        g_string_append_printf(s, "%s%u", i ? "," : "", bits[i]);
    }
    resp = qtest_qmp(qts, "{ 'execute': 'qom-set', 'arguments': "
                     "{ 'path': '/machine/nand', 'property': 'flip-bits', "
                     "'value': %s } }", s->str);
    g_assert(qdict_haskey(resp, "return"));
    qobject_unref(resp);
}

/* Load sector syndromes into the ELM (omap_elm.c), page mode, and run. */
static void elm_decode(QTestState *qts, uint8_t syn[4][13], int sectors)
{
    qtest_writel(qts, ELM_BASE + ELM_LOCATION_CONFIG, 1 | (0x7ff << 16));
    qtest_writel(qts, ELM_BASE + ELM_IRQENABLE, BIT(8));
    for (int n = 0; n < sectors; n++) {
        qtest_writel(qts, ELM_BASE + ELM_PAGE_CTRL,
                     qtest_readl(qts, ELM_BASE + ELM_PAGE_CTRL) | BIT(n));
        qtest_writel(qts, ELM_BASE + ELM_SYNDROME(n, 0), be32(syn[n] + 9));
        qtest_writel(qts, ELM_BASE + ELM_SYNDROME(n, 1), be32(syn[n] + 5));
        qtest_writel(qts, ELM_BASE + ELM_SYNDROME(n, 2), be32(syn[n] + 1));
        qtest_writel(qts, ELM_BASE + ELM_SYNDROME(n, 3), syn[n][0]);
    }
    for (int n = 0; n < sectors; n++) {
        uint32_t v = qtest_readl(qts, ELM_BASE + ELM_SYNDROME(n, 6));

        g_assert_cmphex(qtest_readl(qts, ELM_BASE + ELM_IRQSTATUS) & BIT(8),
                        ==, 0);
        qtest_writel(qts, ELM_BASE + ELM_SYNDROME(n, 6), v | BIT(16));
    }
    g_assert_cmphex(qtest_readl(qts, ELM_BASE + ELM_IRQSTATUS) & BIT(8), ==,
                    BIT(8));
    /* ELM interrupt 4: INTC bank 0, bit 4 */
    g_assert(qtest_readl(qts, INTC_ITR(0)) & BIT(4));
    qtest_writel(qts, ELM_BASE + ELM_IRQSTATUS, BIT(8));
    g_assert(!(qtest_readl(qts, INTC_ITR(0)) & BIT(4)));
    qtest_writel(qts, ELM_BASE + ELM_PAGE_CTRL, 0);
}

static void test_elm(void)
{
    QTestState *qts = start();
    g_autofree uint8_t *data = g_malloc(PAGE_SIZE);
    g_autofree uint8_t *rd = g_malloc(PAGE_SIZE);
    uint8_t oob[OOB_SIZE], syn[4][13];

    for (int nerr = 1; nerr <= 9; nerr++) {
        uint32_t page = 64 + nerr;
        uint32_t bits[9], want[9];
        uint32_t got[16];

        fill_pattern(data, PAGE_SIZE, nerr);
        write_page_bch8(qts, page, data, oob);
        /*
         * Errors in sector 1: data bits, and for 4 and more one in its
         * stored parity too.  Bit b of data byte B of the sector is ELM
         * location 8 * (524 - B) + b; parity byte P: 8 * (12 - P) + b.
         */
        for (int i = 0; i < nerr; i++) {
            uint32_t byte = (i * 61 + 5) % 512, bit = (i * 3) % 8;

            if (i == 3) {
                bits[i] = (PAGE_SIZE + 2 + 14 + 6) * 8 + 1;
                want[i] = 8 * (12 - 6) + 1;
                continue;
            }
            bits[i] = (512 + byte) * 8 + bit;
            want[i] = 8 * (524 - byte) + bit;
        }
        flip_bits(qts, page, bits, nerr);
        read_page_bch8(qts, page, rd, syn);
        elm_decode(qts, syn, 4);
        for (int n = 0; n < 4; n++) {
            uint32_t st = qtest_readl(qts, ELM_BASE + ELM_LOC_STATUS(n));

            if (n != 1) {
                g_assert_cmphex(st, ==, 0x100);
                continue;
            }
            if (nerr > 8) {
                g_assert_cmphex(st & 0x100, ==, 0);
                continue;
            }
            g_assert_cmphex(st, ==, 0x100 | nerr);
            for (int i = 0; i < nerr; i++) {
                got[i] = qtest_readl(qts, ELM_BASE + ELM_ERR_LOC(n, i));
            }
            qsort(got, nerr, sizeof(got[0]), cmp_u32);
            qsort(want, nerr, sizeof(want[0]), cmp_u32);
            for (int i = 0; i < nerr; i++) {
                g_assert_cmpuint(got[i], ==, want[i]);
            }
        }
    }
    qtest_quit(qts);
}

/* Continuous mode: a vector's own LOC_VALID */
static void test_elm_continuous(void)
{
    QTestState *qts = start();

    qtest_writel(qts, ELM_BASE + ELM_LOCATION_CONFIG, 1 | (0x7ff << 16));
    qtest_writel(qts, ELM_BASE + ELM_IRQENABLE, BIT(2));
    for (int k = 0; k < 4; k++) {
        qtest_writel(qts, ELM_BASE + ELM_SYNDROME(2, k), 0);
    }
    qtest_writel(qts, ELM_BASE + ELM_SYNDROME(2, 6), BIT(16));
    g_assert_cmphex(qtest_readl(qts, ELM_BASE + ELM_IRQSTATUS), ==, BIT(2));
    g_assert_cmphex(qtest_readl(qts, ELM_BASE + ELM_LOC_STATUS(2)), ==,
                    0x100);
    g_assert(qtest_readl(qts, INTC_ITR(0)) & BIT(4));
    qtest_writel(qts, ELM_BASE + ELM_IRQSTATUS, BIT(2));
    g_assert(!(qtest_readl(qts, INTC_ITR(0)) & BIT(4)));
    qtest_quit(qts);
}

/* Hostile programming: nothing crashes, the model logs. */
static void test_bad_input(void)
{
    QTestState *qts = start();

    /* Page beyond the device */
    nand_start_read(qts, 0xffffff, 0xffff);
    nand_read8(qts);
    nand_cmd(qts, 0x80);
    nand_page_addr(qts, 0xffff, 0xffffff);
    nand_write_buf(qts, (const uint8_t *)"abcd", 4);
    nand_cmd(qts, 0x10);
    g_assert_cmphex(nand_status(qts) & 1, ==, 1);
    nand_cmd(qts, 0x60);
    for (int i = 0; i < 6; i++) {
        nand_addr(qts, 0xff);
    }
    nand_cmd(qts, 0xd0);
    /* Column past the page */
    nand_start_read(qts, 0, 5000);
    nand_read8(qts);
    /* Unknown commands, data with no command */
    nand_cmd(qts, 0x42);
    nand_read8(qts);
    qtest_writeb(qts, GPMC_BASE + GPMC_NAND_DATA, 1);
    /* Prefetch: bad CS, huge threshold, read of an empty FIFO */
    gpmc_writel(qts, GPMC_CONFIG7(0), 0xf48);
    gpmc_writel(qts, PREFETCH_CONFIG2, 0x3fff);
    gpmc_writel(qts, PREFETCH_CONFIG1, (7 << 24) | (0x7f << 8) | BIT(7) |
                BIT(2));
    gpmc_writel(qts, PREFETCH_CONTROL, 1);
    gpmc_writel(qts, PREFETCH_CONFIG1, (0x7f << 8) | BIT(7));
    for (int i = 0; i < 40; i++) {
        qtest_readl(qts, CS0_WINDOW);
    }
    gpmc_writel(qts, PREFETCH_CONTROL, 0);
    gpmc_writel(qts, PREFETCH_CONFIG1, BIT(7));
    qtest_readl(qts, CS0_WINDOW);
    /* ECC with every field at its maximum, then data through it */
    gpmc_writel(qts, ECC_SIZE_CONFIG, 0xffffffff);
    gpmc_writel(qts, ECC_CONFIG, 0xffffffff);
    gpmc_writel(qts, ECC_CONTROL, 0xffffffff);
    gpmc_writel(qts, ECC_CONFIG, 0x13ff1);
    for (int i = 0; i < 300; i++) {
        qtest_readl(qts, GPMC_BASE + GPMC_NAND_DATA);
    }
    /* Windows: odd masks and bases, then CS registers at every offset */
    for (int cs = 0; cs < 7; cs++) {
        gpmc_writel(qts, GPMC_CONFIG7(cs), 0xffffffff);
        gpmc_writel(qts, GPMC_CONFIG7(cs), 0x00000d7f);
    }
    qtest_readl(qts, 0x1f000000);
    for (uint32_t off = 0; off < 0x400; off += 4) {
        qtest_readl(qts, GPMC_BASE + off);
    }
    /* ELM: reserved level, tiny ECC size, every vector */
    qtest_writel(qts, ELM_BASE + ELM_LOCATION_CONFIG, 0xffffffff);
    for (int n = 0; n < 8; n++) {
        for (int k = 0; k < 6; k++) {
            qtest_writel(qts, ELM_BASE + ELM_SYNDROME(n, k), 0xffffffff);
        }
        qtest_writel(qts, ELM_BASE + ELM_SYNDROME(n, 6), 0xffffffff);
    }
    qtest_writel(qts, ELM_BASE + ELM_LOCATION_CONFIG, 1);
    qtest_writel(qts, ELM_BASE + ELM_SYNDROME(0, 6), 0xffffffff);
    for (uint32_t off = 0; off < 0x2000; off += 4) {
        qtest_readl(qts, ELM_BASE + off);
    }
    /* Still alive */
    g_assert_cmphex(gpmc_readl(qts, GPMC_REVISION), ==, 0x60);
    qtest_quit(qts);
}

/*
 * Bad input, what comes of it: out-of-range pages and columns, prefetch and
 * write-posting counts beyond what the FIFO holds or is owed, and ELM
 * programming that makes no sense each have a defined result.
 */
static void test_bad_input_results(void)
{
    QTestState *qts = start();
    uint8_t zeros[8] = { 0 }, rd[8];

    /* A page beyond the device reads erased; programs and erases fail. */
    nand_start_read(qts, 0x800000, 0);
    g_assert_cmphex(nand_read8(qts), ==, 0xff);
    g_assert_cmphex(nand_program_status(qts, 2048 * PAGES_PER_BLOCK, 0,
                                        zeros, 4), ==, 0xe1);
    g_assert_cmphex(nand_erase_status(qts, 2048 * PAGES_PER_BLOCK), ==, 0xe1);
    /* The next good operation clears FAIL. */
    nand_erase(qts, 0);

    /* Data past the page's last column is dropped, the page programs. */
    g_assert_cmphex(nand_program_status(qts, 4, FULL_PAGE - 2, zeros, 8),
                    ==, 0xe0);
    nand_start_read(qts, 4, FULL_PAGE - 3);
    g_assert_cmphex(nand_read8(qts), ==, 0xff);
    g_assert_cmphex(nand_read8(qts), ==, 0);
    g_assert_cmphex(nand_read8(qts), ==, 0);
    /* ... and reads past it return FFh. */
    g_assert_cmphex(nand_read8(qts), ==, 0xff);
    nand_start_read(qts, 4, 0x8000);
    g_assert_cmphex(nand_read8(qts), ==, 0xff);

    /* Prefetch of 8 bytes, 12 read: the underflowing word reads 0. */
    fill_pattern(rd, sizeof(rd), 3);
    nand_program(qts, 5, 0, rd, sizeof(rd));
    gpmc_writel(qts, GPMC_CONFIG7(0), 0xf48);
    nand_start_read(qts, 5, 0);
    gpmc_writel(qts, PREFETCH_CONFIG2, 8);
    /* FIFOTHRESHOLD 127: beyond the 64-byte FIFO */
    gpmc_writel(qts, PREFETCH_CONFIG1, (0x7f << 8) | BIT(7));
    gpmc_writel(qts, PREFETCH_CONTROL, 1);
    g_assert_cmpuint(gpmc_readl(qts, PREFETCH_STATUS) >> 24, ==, 8);
    g_assert_cmphex(qtest_readl(qts, CS0_WINDOW), ==, le32(rd));
    g_assert_cmphex(qtest_readl(qts, CS0_WINDOW), ==, le32(rd + 4));
    g_assert_cmphex(qtest_readl(qts, CS0_WINDOW), ==, 0);
    g_assert_cmphex(gpmc_readl(qts, PREFETCH_CONTROL), ==, 0);
    gpmc_writel(qts, PREFETCH_CONFIG1, 0);

    /* STARTENGINE with the engine disabled does not start it. */
    gpmc_writel(qts, PREFETCH_CONFIG2, 64);
    gpmc_writel(qts, PREFETCH_CONTROL, 1);
    g_assert_cmphex(gpmc_readl(qts, PREFETCH_CONTROL), ==, 0);
    g_assert_cmphex(gpmc_readl(qts, PREFETCH_STATUS) >> 24, ==, 0);

    /* Write posting of 4 bytes, 8 written: the last 4 are dropped. */
    nand_cmd(qts, 0x80);
    nand_page_addr(qts, 0, 6);
    gpmc_writel(qts, PREFETCH_CONFIG2, 4);
    gpmc_writel(qts, PREFETCH_CONFIG1, (0x40 << 8) | BIT(7) | 1);
    gpmc_writel(qts, PREFETCH_CONTROL, 1);
    qtest_writel(qts, CS0_WINDOW, 0);
    qtest_writel(qts, CS0_WINDOW, 0);
    gpmc_writel(qts, PREFETCH_CONFIG1, 0);
    nand_cmd(qts, 0x10);
    g_assert_cmphex(nand_status(qts), ==, 0xe0);
    nand_start_read(qts, 6, 0);
    nand_read_buf(qts, rd, sizeof(rd));
    g_assert_cmphex(le32(rd), ==, 0);
    g_assert_cmphex(le32(rd + 4), ==, 0xffffffff);

    /*
     * ELM: the reserved BCH level decodes as BCH16; a zero syndrome has
     * no errors, a nonsense one is uncorrectable.
     */
    qtest_writel(qts, ELM_BASE + ELM_LOCATION_CONFIG, 0x07ff0003);
    for (int k = 0; k < 6; k++) {
        qtest_writel(qts, ELM_BASE + ELM_SYNDROME(0, k), 0);
        qtest_writel(qts, ELM_BASE + ELM_SYNDROME(1, k), 0xffffffff);
    }
    qtest_writel(qts, ELM_BASE + ELM_SYNDROME(0, 6), BIT(16));
    qtest_writel(qts, ELM_BASE + ELM_SYNDROME(1, 6), 0xffffffff);
    g_assert_cmphex(qtest_readl(qts, ELM_BASE + ELM_IRQSTATUS) & 3, ==, 3);
    g_assert_cmphex(qtest_readl(qts, ELM_BASE + ELM_LOC_STATUS(0)), ==,
                    0x100);
    g_assert_cmphex(qtest_readl(qts, ELM_BASE + ELM_LOC_STATUS(1)) & 0x100,
                    ==, 0);
    /*
     * A BCH8 remainder of a single bit: one error, found in a full-size
     * codeword at a location beyond the first 4 bits; with an ECC size of
     * 4 bits (shorter than the parity) it is outside the codeword,
     * uncorrectable.
     */
    qtest_writel(qts, ELM_BASE + ELM_IRQSTATUS, 3);
    for (int size = 0x7ff; size; size = size == 1 ? 0 : 1) {
        qtest_writel(qts, ELM_BASE + ELM_LOCATION_CONFIG, (size << 16) | 1);
        qtest_writel(qts, ELM_BASE + ELM_SYNDROME(1, 0), 0x20);
        for (int k = 1; k < 6; k++) {
            qtest_writel(qts, ELM_BASE + ELM_SYNDROME(1, k), 0);
        }
        qtest_writel(qts, ELM_BASE + ELM_SYNDROME(1, 6), BIT(16));
        g_assert_cmphex(qtest_readl(qts, ELM_BASE + ELM_IRQSTATUS) & 3, ==,
                        2);
        qtest_writel(qts, ELM_BASE + ELM_IRQSTATUS, 2);
        if (size == 1) {
            g_assert_cmphex(qtest_readl(qts, ELM_BASE + ELM_LOC_STATUS(1)) &
                            0x100, ==, 0);
        } else {
            g_assert_cmphex(qtest_readl(qts, ELM_BASE + ELM_LOC_STATUS(1)),
                            ==, 0x101);
            g_assert_cmpuint(qtest_readl(qts, ELM_BASE + ELM_ERR_LOC(1, 0)),
                             >=, 4);
            g_assert_cmpuint(qtest_readl(qts, ELM_BASE + ELM_ERR_LOC(1, 0)),
                             <, 0x7ff * 4);
        }
    }
    qtest_quit(qts);
}

/* R/B# on WAIT0: low while the array is busy, its rising edge an IRQ */
static void test_wait0(void)
{
    QTestState *qts = qtest_init("-M am335x-evm "
                                 "-global am335x-nand.t-read-ns=25000 "
                                 "-global am335x-nand.t-erase-ns=700000");
    uint8_t buf[4];

    gpmc_writel(qts, GPMC_IRQENABLE, BIT(8));
    nand_start_read(qts, 3, 0);
    g_assert_cmphex(gpmc_readl(qts, GPMC_STATUS) & BIT(8), ==, 0);
    g_assert_cmphex(nand_status(qts) & 0x60, ==, 0);
    qtest_clock_step(qts, 24000);
    g_assert_cmphex(gpmc_readl(qts, GPMC_IRQSTATUS) & BIT(8), ==, 0);
    qtest_clock_step(qts, 2000);
    g_assert_cmphex(gpmc_readl(qts, GPMC_STATUS) & BIT(8), ==, BIT(8));
    g_assert_cmphex(gpmc_readl(qts, GPMC_IRQSTATUS) & BIT(8), ==, BIT(8));
    g_assert(qtest_readl(qts, INTC_ITR(3)) & BIT(4));
    gpmc_writel(qts, GPMC_IRQSTATUS, BIT(8));
    g_assert(!(qtest_readl(qts, INTC_ITR(3)) & BIT(4)));
    g_assert_cmphex(nand_status(qts), ==, 0xe0);
    nand_cmd(qts, 0x00);
    nand_read_buf(qts, buf, 4);
    g_assert_cmphex(le32(buf), ==, 0xffffffff);

    /* Falling edge selected: the erase's start */
    gpmc_writel(qts, 0x050, BIT(8));
    nand_cmd(qts, 0x60);
    nand_addr(qts, 0);
    nand_addr(qts, 0);
    nand_addr(qts, 0);
    nand_cmd(qts, 0xd0);
    g_assert_cmphex(gpmc_readl(qts, GPMC_IRQSTATUS) & BIT(8), ==, BIT(8));
    gpmc_writel(qts, GPMC_IRQSTATUS, BIT(8));
    qtest_clock_step(qts, 700000);
    g_assert_cmphex(gpmc_readl(qts, GPMC_IRQSTATUS) & BIT(8), ==, 0);
    g_assert_cmphex(nand_status(qts), ==, 0xe0);
    qtest_quit(qts);
}

/*
 * timing=on: the EVM's NAND takes its datasheet tR, and the prefetch
 * engine moves one byte per RDCYCLETIME (9 GPMC_FCLK cycles of 10 ns,
 * what Linux programs from the DT's 82 ns rd-cycle) into the FIFO,
 * stalling while it is full; write posting drains one per WRCYCLETIME.
 */
#define T_CYCLE_NS      90
#define GPMC_CONFIG5(cs) (0x070 + 0x30 * (cs))

static void test_timing(void)
{
    QTestState *qts = qtest_init("-M am335x-evm,timing=on");
    g_autofree uint8_t *buf = g_malloc(PAGE_SIZE);
    uint32_t page = 9, st;

    nand_cmd(qts, 0xff);
    fill_pattern(buf, PAGE_SIZE, 9);
    /* tPROG: 200 us (typ) */
    g_assert_cmphex(nand_program_status(qts, page, 0, buf, PAGE_SIZE) & 0x60,
                    ==, 0);
    qtest_clock_step(qts, 199999);
    g_assert_cmphex(nand_status(qts) & 0x60, ==, 0);
    qtest_clock_step(qts, 1);
    g_assert_cmphex(nand_status(qts), ==, 0xe0);
    gpmc_writel(qts, GPMC_CONFIG7(0), 0xf48);
    gpmc_writel(qts, GPMC_CONFIG5(0), (9 << 8) | 9);

    /* tR of the MT29F2G08ABAEAWP: 25 us */
    nand_start_read(qts, page, 0);
    g_assert_cmphex(gpmc_readl(qts, GPMC_STATUS) & BIT(8), ==, 0);
    qtest_clock_step(qts, 24999);
    g_assert_cmphex(gpmc_readl(qts, GPMC_STATUS) & BIT(8), ==, 0);
    qtest_clock_step(qts, 1);
    g_assert_cmphex(gpmc_readl(qts, GPMC_STATUS) & BIT(8), ==, BIT(8));
    nand_cmd(qts, 0x00);

    gpmc_writel(qts, PREFETCH_CONFIG2, 512);
    gpmc_writel(qts, PREFETCH_CONFIG1, (0x40 << 8) | BIT(7));
    gpmc_writel(qts, PREFETCH_CONTROL, 1);
    g_assert_cmpuint(gpmc_readl(qts, PREFETCH_STATUS) >> 24, ==, 0);
    qtest_clock_step(qts, 10 * T_CYCLE_NS);
    g_assert_cmpuint(gpmc_readl(qts, PREFETCH_STATUS) >> 24, ==, 10);
    g_assert_cmphex(gpmc_readl(qts, GPMC_IRQSTATUS) & 1, ==, 0);
    /* Full at 64 bytes, and the FIFO event on its own (the timer) */
    qtest_clock_step(qts, 60 * T_CYCLE_NS);
    g_assert_cmphex(gpmc_readl(qts, GPMC_IRQSTATUS) & 1, ==, 1);
    st = gpmc_readl(qts, PREFETCH_STATUS);
    g_assert_cmpuint(st >> 24, ==, 64);
    g_assert_cmpuint(st & 0x3fff, ==, 512 - 64);
    for (int i = 0; i < 64; i += 4) {
        g_assert_cmphex(qtest_readl(qts, CS0_WINDOW), ==, le32(buf + i));
    }
    /* It stalled while full: it resumes from now. */
    g_assert_cmpuint(gpmc_readl(qts, PREFETCH_STATUS) >> 24, ==, 0);
    qtest_clock_step(qts, 5 * T_CYCLE_NS);
    g_assert_cmpuint(gpmc_readl(qts, PREFETCH_STATUS) >> 24, ==, 5);
    gpmc_writel(qts, PREFETCH_CONTROL, 0);
    gpmc_writel(qts, PREFETCH_CONFIG1, 0);

    /* Write posting: the FIFO fills at once and drains at WRCYCLETIME. */
    nand_cmd(qts, 0x80);
    nand_page_addr(qts, 0, page + 1);
    gpmc_writel(qts, PREFETCH_CONFIG2, 128);
    gpmc_writel(qts, PREFETCH_CONFIG1, (0x40 << 8) | BIT(7) | 1);
    gpmc_writel(qts, PREFETCH_CONTROL, 1);
    for (int i = 0; i < 64; i += 4) {
        qtest_writel(qts, CS0_WINDOW, le32(buf + i));
    }
    st = gpmc_readl(qts, PREFETCH_STATUS);
    g_assert_cmpuint(st >> 24, ==, 0);
    g_assert_cmpuint(st & 0x3fff, ==, 128);
    qtest_clock_step(qts, 64 * T_CYCLE_NS);
    st = gpmc_readl(qts, PREFETCH_STATUS);
    g_assert_cmpuint(st >> 24, ==, 64);
    g_assert_cmpuint(st & 0x3fff, ==, 64);
    for (int i = 64; i < 128; i += 4) {
        qtest_writel(qts, CS0_WINDOW, le32(buf + i));
    }
    qtest_clock_step(qts, 64 * T_CYCLE_NS - 1);
    g_assert_cmphex(gpmc_readl(qts, PREFETCH_CONTROL), ==, 1);
    qtest_clock_step(qts, 1);
    g_assert_cmphex(gpmc_readl(qts, PREFETCH_CONTROL), ==, 0);
    g_assert_cmphex(gpmc_readl(qts, GPMC_IRQSTATUS) & 2, ==, 2);
    gpmc_writel(qts, PREFETCH_CONFIG1, 0);

    /*
     * With FIFOEVENT enabled, the interrupt comes on time by itself: no
     * access to the GPMC between the start and the INTC's raw input.
     */
    gpmc_writel(qts, GPMC_IRQSTATUS, 3);
    gpmc_writel(qts, GPMC_IRQENABLE, 1);
    nand_start_read(qts, page, 0);
    qtest_clock_step(qts, 25000);
    nand_cmd(qts, 0x00);
    gpmc_writel(qts, PREFETCH_CONFIG2, 512);
    gpmc_writel(qts, PREFETCH_CONFIG1, (0x40 << 8) | BIT(7));
    gpmc_writel(qts, PREFETCH_CONTROL, 1);
    qtest_clock_step(qts, 64 * T_CYCLE_NS - 1);
    g_assert(!(qtest_readl(qts, INTC_ITR(3)) & BIT(4)));
    qtest_clock_step(qts, 1);
    g_assert(qtest_readl(qts, INTC_ITR(3)) & BIT(4));
    qtest_quit(qts);
}

/*
 * mark-bad at run time: the block goes bad as a worn-out one does.  Its
 * erases fail (FAIL, bit 0 of READ STATUS) and leave it as it was; reads
 * and programs still work, so the host can write a marker; the other
 * blocks are untouched.  No marker appears by itself.
 */
static void test_mark_bad(void)
{
    QTestState *qts = start();
    g_autofree uint8_t *buf = g_malloc(FULL_PAGE);
    g_autofree uint8_t *rd = g_malloc(FULL_PAGE);
    uint32_t page = 17 * PAGES_PER_BLOCK + 2;
    QDict *resp;

    fill_pattern(buf, FULL_PAGE, 17);
    nand_program(qts, page, 0, buf, FULL_PAGE);

    resp = qtest_qmp(qts, "{ 'execute': 'qom-set', 'arguments': "
                     "{ 'path': '/machine/nand', 'property': 'mark-bad', "
                     "'value': 17 } }");
    g_assert(qdict_haskey(resp, "return"));
    qobject_unref(resp);
    resp = qtest_qmp(qts, "{ 'execute': 'qom-set', 'arguments': "
                     "{ 'path': '/machine/nand', 'property': 'mark-bad', "
                     "'value': 5000 } }");
    g_assert(qdict_haskey(resp, "error"));
    qobject_unref(resp);
    resp = qtest_qmp(qts, "{ 'execute': 'qom-set', 'arguments': "
                     "{ 'path': '/machine/nand', 'property': 'flip-bits', "
                     "'value': '1:99999999' } }");
    g_assert(qdict_haskey(resp, "error"));
    qobject_unref(resp);

    /* No marker, the data still reads */
    nand_start_read(qts, 17 * PAGES_PER_BLOCK, PAGE_SIZE);
    g_assert_cmphex(nand_read8(qts), ==, 0xff);
    nand_start_read(qts, page, 0);
    nand_read_buf(qts, rd, FULL_PAGE);
    g_assert(!memcmp(buf, rd, FULL_PAGE));

    /* The erase fails and the block keeps its contents. */
    g_assert_cmphex(nand_erase_status(qts, page), ==, 0xe1);
    nand_start_read(qts, page, 0);
    nand_read_buf(qts, rd, FULL_PAGE);
    g_assert(!memcmp(buf, rd, FULL_PAGE));

    /* FAIL stays until the next program or erase */
    g_assert_cmphex(nand_status(qts), ==, 0xe1);
    /* Programs still clear bits: the host's marker, spare byte 0 */
    memset(rd, 0x0f, 16);
    nand_program(qts, page, 0, rd, 16);
    nand_start_read(qts, page, 0);
    for (int i = 0; i < 16; i++) {
        g_assert_cmphex(nand_read8(qts), ==, buf[i] & 0x0f);
    }
    rd[0] = 0;
    nand_program(qts, 17 * PAGES_PER_BLOCK, PAGE_SIZE, rd, 1);
    nand_start_read(qts, 17 * PAGES_PER_BLOCK, PAGE_SIZE);
    g_assert_cmphex(nand_read8(qts), ==, 0);
    g_assert_cmphex(nand_erase_status(qts, 17 * PAGES_PER_BLOCK), ==, 0xe1);

    /* Its neighbours work. */
    nand_program(qts, 16 * PAGES_PER_BLOCK, 0, buf, 16);
    nand_erase(qts, 16 * PAGES_PER_BLOCK);
    nand_erase(qts, 18 * PAGES_PER_BLOCK);
    qtest_quit(qts);
}

/*
 * Migration in the middle of a prefetch with the BCH engine running: the
 * FIFO, the count, the NAND's page register, the remainders and a block
 * gone bad move.
 */
static void test_migration(void)
{
    g_autofree char *sock = g_strdup_printf("%s/am335x-gpmc-%d.sock",
                                            g_get_tmp_dir(), getpid());
    g_autofree char *uri = g_strdup_printf("unix:%s", sock);
    QTestState *src = start();
    QTestState *dst = qtest_initf("-M am335x-evm -incoming %s", uri);
    uint8_t data[512], oob[OOB_SIZE], ref[13], syn[13];
    static const uint8_t zero[13];
    uint32_t st;

    fill_pattern(data, sizeof(data), 77);
    bch8_ref(data, sizeof(data), ref);
    memset(oob, 0xff, sizeof(oob));
    memcpy(oob + 2, ref, 13);
    nand_program(src, 30, 0, data, sizeof(data));
    nand_program(src, 30, PAGE_SIZE, oob, sizeof(oob));

    gpmc_writel(src, GPMC_CONFIG7(0), 0xf48);
    nand_start_read(src, 30, 0);
    ecc_bch8_enable(src, true, 1);
    gpmc_writel(src, PREFETCH_CONFIG2, 512);
    gpmc_writel(src, PREFETCH_CONFIG1, (0x40 << 8) | BIT(7));
    gpmc_writel(src, PREFETCH_CONTROL, 1);
    for (int i = 0; i < 200; i += 4) {
        g_assert_cmphex(qtest_readl(src, CS0_WINDOW), ==, le32(data + i));
    }
    st = gpmc_readl(src, PREFETCH_STATUS);
    /* A block gone bad moves too. */
    qtest_qmp_assert_success(src, "{ 'execute': 'qom-set', 'arguments': "
                             "{ 'path': '/machine/nand', "
                             "'property': 'mark-bad', 'value': 40 } }");

    qtest_qmp_assert_success(src, "{ 'execute': 'migrate', "
                             "'arguments': { 'uri': %s } }", uri);
    qtest_qmp_eventwait(src, "STOP");
    qtest_qmp_eventwait(dst, "RESUME");
    qtest_quit(src);

    g_assert_cmphex(gpmc_readl(dst, PREFETCH_STATUS), ==, st);
    for (int i = 200; i < 512; i += 4) {
        g_assert_cmphex(qtest_readl(dst, CS0_WINDOW), ==, le32(data + i));
    }
    gpmc_writel(dst, PREFETCH_CONTROL, 0);
    gpmc_writel(dst, PREFETCH_CONFIG1, 0);
    nand_change_column(dst, PAGE_SIZE + 2);
    nand_read_buf(dst, oob, 14);
    ecc_bch8_result(dst, 0, syn);
    g_assert(!memcmp(syn, zero, 13));
    g_assert_cmphex(nand_erase_status(dst, 40 * PAGES_PER_BLOCK), ==, 0xe1);
    nand_erase(dst, 41 * PAGES_PER_BLOCK);
    qtest_quit(dst);
    unlink(sock);
}

/* A drive: pages persist across QEMU runs; a new image reads erased. */
static void test_drive(void)
{
    g_autofree char *path = NULL;
    g_autofree uint8_t *buf = g_malloc(FULL_PAGE);
    QTestState *qts;
    int fd = g_file_open_tmp("am335x-nand-XXXXXX", &path, NULL);
    struct stat st;

    g_assert(fd >= 0);
    close(fd);
    fill_pattern(buf, FULL_PAGE, 11);
    qts = qtest_initf("-M am335x-evm -drive if=mtd,format=raw,file=%s",
                      path);
    g_assert(stat(path, &st) == 0);
    g_assert_cmpuint(st.st_size, ==, NAND_BYTES);
    nand_cmd(qts, 0xff);
    nand_start_read(qts, 2047 * PAGES_PER_BLOCK + 63, 0);
    g_assert_cmphex(qtest_readl(qts, GPMC_BASE + GPMC_NAND_DATA), ==,
                    0xffffffff);
    nand_program(qts, 2047 * PAGES_PER_BLOCK + 63, 0, buf, FULL_PAGE);
    qtest_quit(qts);

    qts = qtest_initf("-M am335x-evm -drive if=mtd,format=raw,file=%s "
                      "-global am335x-nand.bad-blocks=3,9", path);
    nand_cmd(qts, 0xff);
    nand_start_read(qts, 2047 * PAGES_PER_BLOCK + 63, 0);
    for (int i = 0; i < FULL_PAGE; i++) {
        g_assert_cmphex(nand_read8(qts), ==, buf[i]);
    }
    nand_start_read(qts, 9 * PAGES_PER_BLOCK, PAGE_SIZE);
    g_assert_cmphex(nand_read8(qts), !=, 0xff);
    nand_start_read(qts, 4 * PAGES_PER_BLOCK, PAGE_SIZE);
    g_assert_cmphex(nand_read8(qts), ==, 0xff);
    qtest_quit(qts);
    unlink(path);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("am335x/gpmc/regs", test_regs);
    qtest_add_func("am335x/gpmc/nand-read-id", test_read_id);
    qtest_add_func("am335x/gpmc/nand-program-erase", test_program_erase);
    qtest_add_func("am335x/gpmc/prefetch", test_prefetch);
    qtest_add_func("am335x/gpmc/bch8", test_bch8);
    qtest_add_func("am335x/gpmc/bch4-bch16-erased", test_bch4_bch16_erased);
    qtest_add_func("am335x/gpmc/hamming", test_hamming);
    qtest_add_func("am335x/gpmc/elm-page", test_elm);
    qtest_add_func("am335x/gpmc/elm-continuous", test_elm_continuous);
    qtest_add_func("am335x/gpmc/elm-bch4-bch16", test_elm_bch4_bch16);
    qtest_add_func("am335x/gpmc/bad-input", test_bad_input);
    qtest_add_func("am335x/gpmc/bad-input-results", test_bad_input_results);
    qtest_add_func("am335x/gpmc/wait0", test_wait0);
    qtest_add_func("am335x/gpmc/timing", test_timing);
    qtest_add_func("am335x/gpmc/mark-bad", test_mark_bad);
    qtest_add_func("am335x/gpmc/migration", test_migration);
    qtest_add_func("am335x/gpmc/drive", test_drive);
    return g_test_run();
}
