/*
 * QTest for the TI AM335x I2C controllers and the boards' I2C devices
 * (board EEPROM, TPS65217 / TPS65910 PMIC, the BBB's TDA19988, the EVM's
 * TLV320AIC3106 and the clocks it gives McASP1, and its LIS331DLH,
 * TSL2550 and TMP275 sensors)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "am335x-qtest.h"
#include "qobject/qdict.h"

#define I2C0_BASE       0x44e0b000
#define I2C1_BASE       0x4802a000
#define I2C2_BASE       0x4819c000

#define REVNB_LO        0x00
#define REVNB_HI        0x04
#define SYSC            0x10
#define IRQSTATUS_RAW   0x24
#define IRQSTATUS       0x28
#define IRQENABLE_SET   0x2c
#define IRQENABLE_CLR   0x30
#define SYSS            0x90
#define BUF             0x94
#define CNT             0x98
#define DATA            0x9c
#define CON             0xa4
#define SA              0xac
#define PSC             0xb0
#define SCLL            0xb4
#define SCLH            0xb8
#define SYSTEST         0xbc
#define BUFSTAT         0xc0

#define SYSC_SRST       (1 << 1)
#define SYSC_SIDLE_SMART (2 << 3)

#define ST_NACK         (1 << 1)
#define ST_ARDY         (1 << 2)
#define ST_RRDY         (1 << 3)
#define ST_XRDY         (1 << 4)
#define ST_BF           (1 << 8)
#define ST_BB           (1 << 12)
#define ST_RDR          (1 << 13)
#define ST_XDR          (1 << 14)

#define CON_STT         (1 << 0)
#define CON_STP         (1 << 1)
#define CON_TRX         (1 << 9)
#define CON_MST         (1 << 10)
#define CON_EN          (1 << 15)

#define BUF_TXFIFO_CLR  (1 << 6)
#define BUF_RXFIFO_CLR  (1 << 14)

/* The silicon's I2C_REVNB_LO/HI and the 32-byte FIFOs' BUFSTAT.FIFODEPTH */
#define REV_LO          0x000b
#define REV_HI          0x5040
#define FIFODEPTH_32    (2 << 14)
/* SYSTEST with idle, pulled-up SCL and SDA */
#define SYSTEST_IDLE    0x01e0

#define EEPROM_ADDR     0x50
#define ABSENT_ADDR     0x42    /* nothing answers there on either board */
#define TDA_HDMI_ADDR   0x70    /* the BBB's TDA19988 HDMI core */
#define TDA_CEC_ADDR    0x34    /* and its CEC core */
#define TPS65217_ADDR   0x24
#define TPS65910_ADDR   0x2d
#define CODEC_ADDR      0x1b    /* the EVM's TLV320AIC3106, on I2C1 */
#define ACCEL_ADDR      0x18    /* and its LIS331DLH, */
#define LIGHT_ADDR      0x39    /* TSL2550 */
#define TEMP_ADDR       0x48    /* and TMP275 */

/* Where the boards are asked to put their PMIC in the QOM tree */
#define PMIC_PATH       "/machine/pmic"

typedef struct Board {
    const char *machine;
    const char *eeprom_name;
    uint8_t pmic_addr;
    uint8_t pmic_id_reg;
    uint8_t pmic_id;
    uint8_t pmic_scratch;       /* two consecutive plain registers */
} Board;

static const Board boards[] = {
    /* TPS65217C: CHIPID 0xe2; WLEDCTRL1/2 */
    { "beaglebone-black", "A335BNLT", TPS65217_ADDR, 0x00, 0xe2, 0x07 },
    /* TPS65910: VDD1_OP at 1.1 V; BCK1/2 */
    { "am335x-evm", "A33515BB", TPS65910_ADDR, 0x22, 0x2b, 0x17 },
};

static uint16_t rd(QTestState *qts, uint64_t base, uint32_t reg)
{
    return qtest_readw(qts, base + reg);
}

static void wr(QTestState *qts, uint64_t base, uint32_t reg, uint16_t value)
{
    qtest_writew(qts, base + reg, value);
}

/* What i2c-omap's probe does: reset, then 400 kHz from a 48 MHz clock. */
static void i2c_setup(QTestState *qts, uint64_t base)
{
    wr(qts, base, CON, 0);
    wr(qts, base, SYSC, SYSC_SRST);
    wr(qts, base, CON, CON_EN);
    g_assert_cmphex(rd(qts, base, SYSS) & 1, ==, 1);
    wr(qts, base, CON, 0);
    wr(qts, base, PSC, 4);
    wr(qts, base, SCLL, 13);
    wr(qts, base, SCLH, 15);
    wr(qts, base, CON, CON_EN);
    wr(qts, base, IRQSTATUS, 0xffff);
}

static void start(QTestState *qts, uint64_t base, uint8_t addr, int len,
                  uint16_t flags)
{
    wr(qts, base, SA, addr);
    wr(qts, base, CNT, len);
    wr(qts, base, CON, CON_EN | CON_MST | CON_STT | flags);
}

/*
 * A polled master write, one byte per XRDY (threshold 1, as after reset).
 * Returns false on NACK.
 */
static bool i2c_write(QTestState *qts, uint64_t base, uint8_t addr,
                      const uint8_t *data, int len, bool stop)
{
    uint16_t st;

    start(qts, base, addr, len, CON_TRX | (stop ? CON_STP : 0));
    for (int i = 0; i < len; i++) {
        st = rd(qts, base, IRQSTATUS_RAW);
        if (st & ST_NACK) {
            wr(qts, base, IRQSTATUS, 0xffff);
            return false;
        }
        g_assert_cmphex(st & (ST_XRDY | ST_BB), ==, ST_XRDY | ST_BB);
        wr(qts, base, DATA, data[i]);
        wr(qts, base, IRQSTATUS, ST_XRDY);
    }
    st = rd(qts, base, IRQSTATUS_RAW);
    g_assert_cmphex(st & ST_ARDY, ==, ST_ARDY);
    wr(qts, base, IRQSTATUS, 0xffff);
    return !(st & ST_NACK);
}

/* A polled master read with STOP, one byte per RRDY. */
static bool i2c_read(QTestState *qts, uint64_t base, uint8_t addr,
                     uint8_t *data, int len)
{
    uint16_t st;

    start(qts, base, addr, len, CON_STP);
    for (int i = 0; i < len; i++) {
        st = rd(qts, base, IRQSTATUS_RAW);
        if (st & ST_NACK) {
            wr(qts, base, IRQSTATUS, 0xffff);
            return false;
        }
        g_assert_cmphex(st & ST_RRDY, ==, ST_RRDY);
        data[i] = rd(qts, base, DATA);
        wr(qts, base, IRQSTATUS, ST_RRDY);
    }
    st = rd(qts, base, IRQSTATUS_RAW);
    g_assert_cmphex(st & (ST_ARDY | ST_BB), ==, ST_ARDY);
    wr(qts, base, IRQSTATUS, 0xffff);
    return true;
}

/*
 * A register of a target on the bus at @base, as i2c_smbus_read_byte_data
 * (through a repeated START) and i2c_smbus_write_byte_data
 */
static uint8_t bus_reg_read(QTestState *qts, uint64_t base, uint8_t addr,
                            uint8_t reg)
{
    uint8_t value;

    g_assert_true(i2c_write(qts, base, addr, &reg, 1, false));
    g_assert_true(i2c_read(qts, base, addr, &value, 1));
    return value;
}

static void bus_reg_write(QTestState *qts, uint64_t base, uint8_t addr,
                          uint8_t reg, uint8_t value)
{
    uint8_t msg[2] = { reg, value };

    g_assert_true(i2c_write(qts, base, addr, msg, 2, true));
}

/* On I2C0 */
static uint8_t reg_read(QTestState *qts, uint8_t addr, uint8_t reg)
{
    return bus_reg_read(qts, I2C0_BASE, addr, reg);
}

static void reg_write(QTestState *qts, uint8_t addr, uint8_t reg,
                      uint8_t value)
{
    bus_reg_write(qts, I2C0_BASE, addr, reg, value);
}

static bool qom_exists(QTestState *qts, const char *path)
{
    QDict *resp = qtest_qmp(qts, "{ 'execute': 'qom-list', 'arguments': "
                            "{ 'path': %s } }", path);
    bool found = qdict_haskey(resp, "return");

    qobject_unref(resp);
    return found;
}

static void test_reset_values(const void *data)
{
    const Board *b = data;
    QTestState *qts = qtest_initf("-M %s", b->machine);
    static const uint64_t bases[] = { I2C0_BASE, I2C1_BASE, I2C2_BASE };

    for (int i = 0; i < ARRAY_SIZE(bases); i++) {
        uint64_t base = bases[i];

        /* ti-sysc and i2c-omap read REV in 16-bit halves. */
        g_assert_cmphex(rd(qts, base, REVNB_LO), ==, REV_LO);
        g_assert_cmphex(rd(qts, base, REVNB_HI), ==, REV_HI);
        g_assert_cmphex(qtest_readl(qts, base + REVNB_LO), ==, REV_LO);
        g_assert_cmphex(rd(qts, base, SYSC), ==, 0);
        /* Held in reset while I2C_EN = 0 */
        g_assert_cmphex(rd(qts, base, SYSS), ==, 0);
        g_assert_cmphex(rd(qts, base, CON), ==, 0);
        g_assert_cmphex(rd(qts, base, SA), ==, 0x3ff);
        g_assert_cmphex(rd(qts, base, CNT), ==, 0);
        g_assert_cmphex(rd(qts, base, IRQSTATUS_RAW), ==, 0);
        g_assert_cmphex(rd(qts, base, BUFSTAT), ==, FIFODEPTH_32);
        g_assert_cmphex(rd(qts, base, SYSTEST), ==, SYSTEST_IDLE);
    }
    qtest_quit(qts);
}

/* i2c-omap's reset: SRST, then RDONE only once I2C_EN is set. */
static void test_softreset(const void *data)
{
    const Board *b = data;
    QTestState *qts = qtest_initf("-M %s", b->machine);

    wr(qts, I2C1_BASE, SYSC, SYSC_SIDLE_SMART);
    g_assert_cmphex(rd(qts, I2C1_BASE, SYSC), ==, SYSC_SIDLE_SMART);
    wr(qts, I2C1_BASE, PSC, 5);
    wr(qts, I2C1_BASE, CON, CON_EN);
    g_assert_cmphex(rd(qts, I2C1_BASE, SYSS), ==, 1);

    wr(qts, I2C1_BASE, CON, 0);
    wr(qts, I2C1_BASE, SYSC, SYSC_SRST);
    g_assert_cmphex(rd(qts, I2C1_BASE, SYSC), ==, 0);
    g_assert_cmphex(rd(qts, I2C1_BASE, PSC), ==, 0);
    g_assert_cmphex(rd(qts, I2C1_BASE, SYSS), ==, 0);
    wr(qts, I2C1_BASE, CON, CON_EN);
    g_assert_cmphex(rd(qts, I2C1_BASE, SYSS), ==, 1);
    qtest_quit(qts);
}

/* What U-Boot's SPL reads first: TI's board header at 0x50. */
static void test_eeprom(const void *data)
{
    const Board *b = data;
    QTestState *qts = qtest_initf("-M %s", b->machine);
    static const uint8_t offset[2] = { 0x00, 0x00 };
    uint8_t hdr[16];

    i2c_setup(qts, I2C0_BASE);
    g_assert_true(i2c_write(qts, I2C0_BASE, EEPROM_ADDR, offset, 2, false));
    /* No STOP: the bus stays busy for the repeated START. */
    g_assert_cmphex(rd(qts, I2C0_BASE, IRQSTATUS_RAW) & ST_BB, ==, ST_BB);
    g_assert_true(i2c_read(qts, I2C0_BASE, EEPROM_ADDR, hdr, sizeof(hdr)));

    g_assert_cmphex(hdr[0], ==, 0xaa);
    g_assert_cmphex(hdr[1], ==, 0x55);
    g_assert_cmphex(hdr[2], ==, 0x33);
    g_assert_cmphex(hdr[3], ==, 0xee);
    g_assert_cmpmem(hdr + 4, 8, b->eeprom_name, 8);
    qtest_quit(qts);
}

/*
 * One byte of the two-byte word address, then STOP: the EEPROM's pointer
 * shifts that byte in (0x0080 -> 0x8000) and the read that follows must
 * wrap it into the 32 KiB array instead of reading past its end.
 */
static void test_eeprom_partial_address(const void *data)
{
    const Board *b = data;
    QTestState *qts = qtest_initf("-M %s", b->machine);
    static const uint8_t offset[2] = { 0x00, 0x80 };
    static const uint8_t half = 0x00;
    uint8_t hdr[4];

    i2c_setup(qts, I2C0_BASE);
    g_assert_true(i2c_write(qts, I2C0_BASE, EEPROM_ADDR, offset, 2, true));
    g_assert_true(i2c_write(qts, I2C0_BASE, EEPROM_ADDR, &half, 1, true));
    g_assert_true(i2c_read(qts, I2C0_BASE, EEPROM_ADDR, hdr, sizeof(hdr)));

    g_assert_cmphex(hdr[0], ==, 0xaa);
    g_assert_cmphex(hdr[1], ==, 0x55);
    g_assert_cmphex(hdr[2], ==, 0x33);
    g_assert_cmphex(hdr[3], ==, 0xee);
    qtest_quit(qts);
}

/* A read that goes on after a migration goes on where it stopped. */
static void test_eeprom_migration(const void *data)
{
    const Board *b = data;
    g_autofree char *args = g_strdup_printf("-M %s", b->machine);
    QTestState *qts = qtest_init(args);
    static const uint8_t offset[2] = { 0x00, 0x04 };
    uint8_t name[8];

    i2c_setup(qts, I2C0_BASE);
    g_assert_true(i2c_write(qts, I2C0_BASE, EEPROM_ADDR, offset, 2, true));
    g_assert_true(i2c_read(qts, I2C0_BASE, EEPROM_ADDR, name, 4));
    qts = am335x_migrate(qts, args);
    g_assert_true(i2c_read(qts, I2C0_BASE, EEPROM_ADDR, name + 4, 4));

    g_assert_cmpmem(name, 8, b->eeprom_name, 8);
    qtest_quit(qts);
}

static void test_pmic_id(const void *data)
{
    const Board *b = data;
    QTestState *qts = qtest_initf("-M %s", b->machine);

    i2c_setup(qts, I2C0_BASE);
    g_assert_cmphex(reg_read(qts, b->pmic_addr, b->pmic_id_reg), ==,
                    b->pmic_id);
    qtest_quit(qts);
}

/* An absent target: NACK with ARDY, the STOP asked for, and the IRQ. */
static void test_nack(const void *data)
{
    const Board *b = data;
    QTestState *qts = qtest_initf("-M %s", b->machine);
    uint8_t byte = 0;

    qtest_irq_intercept_out_named(qts, "/machine/soc/i2c[0]", "sysbus-irq");
    i2c_setup(qts, I2C0_BASE);
    wr(qts, I2C0_BASE, IRQENABLE_SET, ST_NACK | ST_ARDY);
    g_assert_false(qtest_get_irq(qts, 0));

    start(qts, I2C0_BASE, ABSENT_ADDR, 1, CON_TRX | CON_STP);
    g_assert_cmphex(rd(qts, I2C0_BASE, IRQSTATUS_RAW) &
                    (ST_NACK | ST_ARDY | ST_XRDY | ST_BB), ==,
                    ST_NACK | ST_ARDY);
    g_assert_cmphex(rd(qts, I2C0_BASE, IRQSTATUS) & ST_NACK, ==, ST_NACK);
    g_assert_true(qtest_get_irq(qts, 0));
    /* STP is done: the bus is free again and MST back to 0. */
    g_assert_cmphex(rd(qts, I2C0_BASE, CON) & (CON_STP | CON_MST), ==, 0);

    wr(qts, I2C0_BASE, IRQSTATUS, ST_NACK | ST_ARDY);
    g_assert_false(qtest_get_irq(qts, 0));

    /* Masked events do not reach the line. */
    wr(qts, I2C0_BASE, IRQENABLE_CLR, ST_NACK | ST_ARDY);
    g_assert_false(i2c_write(qts, I2C0_BASE, ABSENT_ADDR, &byte, 1, true));
    g_assert_false(qtest_get_irq(qts, 0));

    /* The cape EEPROMs of the BeagleBone's DT are not fitted. */
    i2c_setup(qts, I2C2_BASE);
    for (uint8_t addr = 0x54; addr <= 0x57; addr++) {
        g_assert_false(i2c_read(qts, I2C2_BASE, addr, &byte, 1));
    }
    qtest_quit(qts);
}

/* BB from START to STOP, CNT counting down, a STOP written on its own */
static void test_bus_busy(const void *data)
{
    const Board *b = data;
    QTestState *qts = qtest_initf("-M %s", b->machine);

    i2c_setup(qts, I2C0_BASE);
    g_assert_cmphex(rd(qts, I2C0_BASE, IRQSTATUS_RAW) & ST_BB, ==, 0);

    start(qts, I2C0_BASE, EEPROM_ADDR, 2, CON_TRX);
    g_assert_cmphex(rd(qts, I2C0_BASE, IRQSTATUS_RAW) & (ST_BB | ST_XRDY),
                    ==, ST_BB | ST_XRDY);
    /* BB shows in IRQSTATUS too, though it is no interrupt event. */
    g_assert_cmphex(rd(qts, I2C0_BASE, IRQSTATUS), ==, ST_BB);
    g_assert_cmphex(rd(qts, I2C0_BASE, CNT), ==, 2);
    wr(qts, I2C0_BASE, DATA, 0x00);
    g_assert_cmphex(rd(qts, I2C0_BASE, CNT), ==, 1);
    wr(qts, I2C0_BASE, DATA, 0x04);
    /* Done, CNT back to its programmed value, the bus still held */
    g_assert_cmphex(rd(qts, I2C0_BASE, IRQSTATUS_RAW) &
                    (ST_ARDY | ST_BB | ST_BF), ==, ST_ARDY | ST_BB);
    g_assert_cmphex(rd(qts, I2C0_BASE, CNT), ==, 2);

    wr(qts, I2C0_BASE, IRQSTATUS, 0xffff);
    wr(qts, I2C0_BASE, CON, CON_EN | CON_MST | CON_STP);
    g_assert_cmphex(rd(qts, I2C0_BASE, IRQSTATUS_RAW) & (ST_BB | ST_BF), ==,
                    ST_BF);
    g_assert_cmphex(rd(qts, I2C0_BASE, CON), ==, CON_EN);
    qtest_quit(qts);
}

/* RRDY/RDR and XRDY/XDR at the I2C_BUF thresholds, BUFSTAT levels */
static void test_fifo_threshold(const void *data)
{
    const Board *b = data;
    QTestState *qts = qtest_initf("-M %s", b->machine);
    static const uint8_t offset[2] = { 0x00, 0x00 };
    uint8_t msg[3] = { b->pmic_scratch, 0x01, 0x02 };
    uint8_t byte;

    i2c_setup(qts, I2C0_BASE);
    g_assert_true(i2c_write(qts, I2C0_BASE, EEPROM_ADDR, offset, 2, false));

    /* RX threshold 4, 6 bytes: RRDY, then RDR for the last 2 */
    wr(qts, I2C0_BASE, BUF, (3 << 8) | BUF_RXFIFO_CLR | BUF_TXFIFO_CLR);
    g_assert_cmphex(rd(qts, I2C0_BASE, BUF), ==, 3 << 8);
    start(qts, I2C0_BASE, EEPROM_ADDR, 6, CON_STP);
    g_assert_cmphex(rd(qts, I2C0_BASE, IRQSTATUS_RAW) &
                    (ST_RRDY | ST_RDR | ST_ARDY), ==, ST_RRDY);
    g_assert_cmphex(rd(qts, I2C0_BASE, BUFSTAT), ==, FIFODEPTH_32 | 6 << 8);
    g_assert_cmphex(rd(qts, I2C0_BASE, DATA), ==, 0xaa);
    g_assert_cmphex(rd(qts, I2C0_BASE, DATA), ==, 0x55);
    g_assert_cmphex(rd(qts, I2C0_BASE, DATA), ==, 0x33);
    g_assert_cmphex(rd(qts, I2C0_BASE, DATA), ==, 0xee);
    wr(qts, I2C0_BASE, IRQSTATUS, ST_RRDY);
    g_assert_cmphex(rd(qts, I2C0_BASE, IRQSTATUS_RAW) &
                    (ST_RRDY | ST_RDR | ST_ARDY), ==, ST_RDR);
    g_assert_cmphex(rd(qts, I2C0_BASE, DATA), ==, b->eeprom_name[0]);
    g_assert_cmphex(rd(qts, I2C0_BASE, DATA), ==, b->eeprom_name[1]);
    g_assert_cmphex(rd(qts, I2C0_BASE, IRQSTATUS_RAW) &
                    (ST_ARDY | ST_BB), ==, ST_ARDY);
    wr(qts, I2C0_BASE, IRQSTATUS, 0xffff);

    /* TX threshold 2, 3 bytes: XRDY for 2, then XDR for the last one */
    wr(qts, I2C0_BASE, BUF, 1 | BUF_RXFIFO_CLR | BUF_TXFIFO_CLR);
    start(qts, I2C0_BASE, b->pmic_addr, 3, CON_TRX | CON_STP);
    g_assert_cmphex(rd(qts, I2C0_BASE, IRQSTATUS_RAW) & (ST_XRDY | ST_XDR),
                    ==, ST_XRDY);
    g_assert_cmphex(rd(qts, I2C0_BASE, BUFSTAT), ==, FIFODEPTH_32 | 3);
    wr(qts, I2C0_BASE, DATA, msg[0]);
    wr(qts, I2C0_BASE, DATA, msg[1]);
    wr(qts, I2C0_BASE, IRQSTATUS, ST_XRDY);
    g_assert_cmphex(rd(qts, I2C0_BASE, IRQSTATUS_RAW) & (ST_XRDY | ST_XDR),
                    ==, ST_XDR);
    wr(qts, I2C0_BASE, DATA, msg[2]);
    g_assert_cmphex(rd(qts, I2C0_BASE, IRQSTATUS_RAW) & (ST_ARDY | ST_BB),
                    ==, ST_ARDY);
    wr(qts, I2C0_BASE, IRQSTATUS, 0xffff);

    wr(qts, I2C0_BASE, BUF, BUF_RXFIFO_CLR | BUF_TXFIFO_CLR);
    g_assert_cmphex(reg_read(qts, b->pmic_addr, msg[0]), ==, msg[1]);
    g_assert_cmphex(reg_read(qts, b->pmic_addr, msg[0] + 1), ==, msg[2]);

    /* Reading an empty RX FIFO gives 0 and changes nothing else. */
    byte = rd(qts, I2C0_BASE, DATA);
    g_assert_cmphex(byte, ==, 0);
    qtest_quit(qts);
}

/*
 * CNT = 0 means 65536 bytes: the receive goes only as far as the FIFO
 * lets it, and I2C_EN = 0 abandons it.
 */
static void test_hostile_count(const void *data)
{
    const Board *b = data;
    QTestState *qts = qtest_initf("-M %s", b->machine);
    uint8_t hdr[4];

    i2c_setup(qts, I2C0_BASE);
    start(qts, I2C0_BASE, EEPROM_ADDR, 0, CON_STP);
    g_assert_cmphex(rd(qts, I2C0_BASE, BUFSTAT), ==,
                    FIFODEPTH_32 | 32 << 8);
    for (int i = 0; i < 40; i++) {
        rd(qts, I2C0_BASE, DATA);
    }
    /* 32 in the FIFO, then one more for each byte taken out */
    g_assert_cmphex(rd(qts, I2C0_BASE, CNT), ==, 65536 - 32 - 40);
    g_assert_cmphex(rd(qts, I2C0_BASE, IRQSTATUS_RAW) & ST_BB, ==, ST_BB);

    wr(qts, I2C0_BASE, CON, 0);
    g_assert_cmphex(rd(qts, I2C0_BASE, IRQSTATUS_RAW), ==, 0);
    g_assert_cmphex(rd(qts, I2C0_BASE, BUFSTAT), ==, FIFODEPTH_32);

    /* The controller and the bus work again after that. */
    i2c_setup(qts, I2C0_BASE);
    hdr[0] = hdr[1] = 0;
    g_assert_true(i2c_write(qts, I2C0_BASE, EEPROM_ADDR, hdr, 2, false));
    g_assert_true(i2c_read(qts, I2C0_BASE, EEPROM_ADDR, hdr, 4));
    g_assert_cmphex(hdr[0], ==, 0xaa);
    g_assert_cmphex(hdr[3], ==, 0xee);
    qtest_quit(qts);
}

static void test_bad_offsets(const void *data)
{
    const Board *b = data;
    QTestState *qts = qtest_initf("-M %s", b->machine);

    i2c_setup(qts, I2C0_BASE);
    qtest_writel(qts, I2C0_BASE + 0x200, 0xffffffff);
    g_assert_cmphex(qtest_readl(qts, I2C0_BASE + 0x200), ==, 0);
    g_assert_cmphex(qtest_readl(qts, I2C0_BASE + 0xffc), ==, 0);
    /* REV is read-only; the upper half of each word is reserved. */
    wr(qts, I2C0_BASE, REVNB_LO, 0x1234);
    g_assert_cmphex(rd(qts, I2C0_BASE, REVNB_LO), ==, REV_LO);
    qtest_writew(qts, I2C0_BASE + CON + 2, 0xffff);
    g_assert_cmphex(qtest_readl(qts, I2C0_BASE + CON), ==, CON_EN);
    /* A byte read of DATA's upper half does not consume a byte. */
    g_assert_cmphex(qtest_readb(qts, I2C0_BASE + DATA + 1), ==, 0);
    qtest_quit(qts);
}

/* TPS65217 password protection (datasheet SLVSB64, level 1 and 2) */
static void test_tps65217_password(const void *data)
{
    const Board *b = data;
    QTestState *qts = qtest_initf("-M %s", b->machine);
    const uint8_t password = 0x0b, pgood = 0x0c, defdcdc2 = 0x0f;
    const uint8_t enable = 0x16, xor = 0x7d;

    i2c_setup(qts, I2C0_BASE);
    g_assert_cmphex(reg_read(qts, TPS65217_ADDR, enable), ==, 0x7f);
    g_assert_cmphex(reg_read(qts, TPS65217_ADDR, pgood), ==, 0x7f);

    /* Level 1: no password, a wrong one, then the right one */
    reg_write(qts, TPS65217_ADDR, enable, 0x3f);
    g_assert_cmphex(reg_read(qts, TPS65217_ADDR, enable), ==, 0x7f);
    reg_write(qts, TPS65217_ADDR, password, 0x00);
    reg_write(qts, TPS65217_ADDR, enable, 0x3f);
    g_assert_cmphex(reg_read(qts, TPS65217_ADDR, enable), ==, 0x7f);
    reg_write(qts, TPS65217_ADDR, password, enable ^ xor);
    reg_write(qts, TPS65217_ADDR, enable, 0x3f);
    g_assert_cmphex(reg_read(qts, TPS65217_ADDR, enable), ==, 0x3f);
    g_assert_cmphex(reg_read(qts, TPS65217_ADDR, pgood), ==, 0x3f);
    /* The password served one transaction and is gone. */
    g_assert_cmphex(reg_read(qts, TPS65217_ADDR, password), ==, 0);
    reg_write(qts, TPS65217_ADDR, enable, 0x7f);
    g_assert_cmphex(reg_read(qts, TPS65217_ADDR, enable), ==, 0x3f);

    /* Any transaction in between uses the password up. */
    reg_write(qts, TPS65217_ADDR, password, enable ^ xor);
    reg_read(qts, TPS65217_ADDR, pgood);
    reg_write(qts, TPS65217_ADDR, enable, 0x7f);
    g_assert_cmphex(reg_read(qts, TPS65217_ADDR, enable), ==, 0x3f);

    /* Level 2: the value lands only with the second sequence. */
    g_assert_cmphex(reg_read(qts, TPS65217_ADDR, defdcdc2), ==, 0x08);
    reg_write(qts, TPS65217_ADDR, password, defdcdc2 ^ xor);
    reg_write(qts, TPS65217_ADDR, defdcdc2, 0x0c);
    g_assert_cmphex(reg_read(qts, TPS65217_ADDR, defdcdc2), ==, 0x08);
    reg_write(qts, TPS65217_ADDR, password, defdcdc2 ^ xor);
    reg_write(qts, TPS65217_ADDR, defdcdc2, 0x0c);
    g_assert_cmphex(reg_read(qts, TPS65217_ADDR, defdcdc2), ==, 0x0c);
    qtest_quit(qts);
}

/* TPS65217 push-button: STATUS.PB, INT.PBI cleared on read, nINT */
static void test_tps65217_button(const void *data)
{
    const Board *b = data;
    QTestState *qts = qtest_initf("-M %s", b->machine);
    const uint8_t reg_int = 0x02, status = 0x0a;

    if (!qom_exists(qts, PMIC_PATH)) {
        g_test_skip("the board has no " PMIC_PATH);
        qtest_quit(qts);
        return;
    }
    qtest_irq_intercept_out(qts, PMIC_PATH);
    i2c_setup(qts, I2C0_BASE);
    g_assert_false(qtest_get_irq(qts, 0));

    qtest_set_irq_in(qts, PMIC_PATH, "power-button", 0, 1);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(reg_read(qts, TPS65217_ADDR, status) & 1, ==, 1);
    g_assert_cmphex(reg_read(qts, TPS65217_ADDR, reg_int), ==, 0x04);
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_cmphex(reg_read(qts, TPS65217_ADDR, reg_int), ==, 0x00);

    /* PBM masks the line, not the flag. */
    reg_write(qts, TPS65217_ADDR, reg_int, 0x40);
    qtest_set_irq_in(qts, PMIC_PATH, "power-button", 0, 0);
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_cmphex(reg_read(qts, TPS65217_ADDR, status) & 1, ==, 0);
    g_assert_cmphex(reg_read(qts, TPS65217_ADDR, reg_int), ==, 0x44);
    qtest_quit(qts);
}

/* TPS65910: regulator fields read back, events clear by writing 1 */
static void test_tps65910(const void *data)
{
    const Board *b = data;
    QTestState *qts = qtest_initf("-M %s", b->machine);
    const uint8_t vmmc = 0x35, vdd1_op = 0x22, int_msk = 0x51;
    const uint8_t jtagvernum = 0x80;

    i2c_setup(qts, I2C0_BASE);
    g_assert_cmphex(reg_read(qts, TPS65910_ADDR, jtagvernum) & 0xf0, ==, 0);
    /* VMMC: 3.3 V, on */
    g_assert_cmphex(reg_read(qts, TPS65910_ADDR, vmmc), ==, 0x0d);
    reg_write(qts, TPS65910_ADDR, vmmc, 0x04);
    g_assert_cmphex(reg_read(qts, TPS65910_ADDR, vmmc), ==, 0x04);
    reg_write(qts, TPS65910_ADDR, vmmc, 0x0d);
    /* U-Boot's OPP switch: VDD1 to 1.2625 V */
    reg_write(qts, TPS65910_ADDR, vdd1_op, 0x38);
    g_assert_cmphex(reg_read(qts, TPS65910_ADDR, vdd1_op), ==, 0x38);
    reg_write(qts, TPS65910_ADDR, int_msk, 0xff);
    g_assert_cmphex(reg_read(qts, TPS65910_ADDR, int_msk), ==, 0xff);
    /* JTAGVERNUM is read-only */
    reg_write(qts, TPS65910_ADDR, jtagvernum, 0x0f);
    g_assert_cmphex(reg_read(qts, TPS65910_ADDR, jtagvernum), ==, 0x00);
    qtest_quit(qts);
}

/* A TDA19988 register: page @page, register @reg (CURPAGE first) */
static uint8_t tda_read(QTestState *qts, uint8_t page, uint8_t reg)
{
    reg_write(qts, TDA_HDMI_ADDR, 0xff, page);
    return reg_read(qts, TDA_HDMI_ADDR, reg);
}

static void tda_write(QTestState *qts, uint8_t page, uint8_t reg,
                      uint8_t value)
{
    reg_write(qts, TDA_HDMI_ADDR, 0xff, page);
    reg_write(qts, TDA_HDMI_ADDR, reg, value);
}

/*
 * The BBB's HDMI framer: its version, the monitor's hot-plug level, an
 * EDID block read over DDC into page 9 (12 ms at 100 kHz), the INT output
 * (active low) for EDID_BLK_RD and for a hot-plug change.
 */
static void test_tda19988(const void *data)
{
    QTestState *qts = qtest_init("-M beaglebone-black");
    uint8_t ptr = 0, edid[8];
    static const uint8_t header[8] = {
        0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00
    };

    qtest_irq_intercept_out_named(qts, "/machine/hdmi", "int");
    i2c_setup(qts, I2C0_BASE);
    g_assert_cmphex(tda_read(qts, 0, 0x00) | tda_read(qts, 0, 0x02) << 8,
                    ==, 0x0331);
    /* CEC: RXSHPDLEV says a monitor is there (HPD, RXSENS) */
    g_assert_cmphex(reg_read(qts, TDA_CEC_ADDR, 0xfe), ==, 0x03);

    /* EDID_BLK_RD interrupts once enabled (writing INT_FLAGS_2) */
    tda_write(qts, 0, 0x11, 0x02);
    tda_write(qts, 9, 0xfb, 0xa0);
    tda_write(qts, 9, 0xfc, 0);
    tda_write(qts, 9, 0xfd, 0x60);
    tda_write(qts, 9, 0xfe, 0);
    tda_write(qts, 9, 0xfa, 1);
    tda_write(qts, 9, 0xfa, 0);
    qtest_clock_step(qts, 11 * 1000 * 1000);
    g_assert_true(qtest_get_irq(qts, 0));
    qtest_clock_step(qts, 1 * 1000 * 1000);
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_cmphex(reg_read(qts, TDA_CEC_ADDR, 0xee), ==, 0x02);
    /* Reading the flags clears them and releases INT */
    g_assert_cmphex(tda_read(qts, 0, 0x11), ==, 0x02);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(tda_read(qts, 0, 0x11), ==, 0);

    reg_write(qts, TDA_HDMI_ADDR, 0xff, 9);
    g_assert_true(i2c_write(qts, I2C0_BASE, TDA_HDMI_ADDR, &ptr, 1, false));
    g_assert_true(i2c_read(qts, I2C0_BASE, TDA_HDMI_ADDR, edid, 8));
    g_assert_cmpmem(edid, 8, header, 8);

    /* The monitor pulled out: HPD change, INT if enabled */
    reg_write(qts, TDA_CEC_ADDR, 0xfc, 0x02);
    qtest_qmp_assert_success(qts, "{'execute': 'qom-set', 'arguments': "
                             "{'path': '/machine/hdmi', 'property': "
                             "'connected', 'value': false}}");
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_cmphex(reg_read(qts, TDA_CEC_ADDR, 0xfe), ==, 0);
    g_assert_cmphex(reg_read(qts, TDA_CEC_ADDR, 0xfd), ==, 0x03);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(reg_read(qts, TDA_CEC_ADDR, 0xfd), ==, 0);

    /* With no monitor the DDC reads all ones */
    tda_write(qts, 9, 0xfa, 1);
    tda_write(qts, 9, 0xfa, 0);
    qtest_clock_step(qts, 12 * 1000 * 1000);
    g_assert_cmphex(tda_read(qts, 9, 0x00), ==, 0xff);
    g_assert_cmphex(tda_read(qts, 9, 0x01), ==, 0xff);
    qtest_quit(qts);
}

/* On I2C1 */
static uint8_t i2c1_read(QTestState *qts, uint8_t addr, uint8_t reg)
{
    return bus_reg_read(qts, I2C1_BASE, addr, reg);
}

static void i2c1_write(QTestState *qts, uint8_t addr, uint8_t reg,
                       uint8_t value)
{
    bus_reg_write(qts, I2C1_BASE, addr, reg, value);
}

/* The EVM's TLV320AIC3106 on I2C1 */
static uint8_t codec_read(QTestState *qts, uint8_t reg)
{
    return i2c1_read(qts, CODEC_ADDR, reg);
}

static void codec_write(QTestState *qts, uint8_t reg, uint8_t value)
{
    i2c1_write(qts, CODEC_ADDR, reg, value);
}

/*
 * Reset values, the page register, read-only registers and flags, the
 * pointer's auto-increment and the software reset
 */
static void test_codec_registers(const void *data)
{
    QTestState *qts = qtest_init("-M am335x-evm");
    uint8_t burst[3] = { 3, 0x81, 0x20 };

    i2c_setup(qts, I2C1_BASE);
    g_assert_cmphex(codec_read(qts, 3), ==, 0x10);
    g_assert_cmphex(codec_read(qts, 4), ==, 0x04);
    g_assert_cmphex(codec_read(qts, 11), ==, 0x01);
    g_assert_cmphex(codec_read(qts, 43), ==, 0x80);
    g_assert_cmphex(codec_read(qts, 102), ==, 0x02);

    codec_write(qts, 7, 0x0a);
    g_assert_cmphex(codec_read(qts, 7), ==, 0x0a);
    codec_write(qts, 94, 0xff);
    g_assert_cmphex(codec_read(qts, 94), ==, 0);
    codec_write(qts, 11, 0xf2);
    g_assert_cmphex(codec_read(qts, 11), ==, 0x02);
    g_assert_true(i2c_write(qts, I2C1_BASE, CODEC_ADDR, burst, 3, true));
    g_assert_cmphex(codec_read(qts, 3), ==, 0x81);
    g_assert_cmphex(codec_read(qts, 4), ==, 0x20);

    /* Page 1 has registers of its own */
    codec_write(qts, 0, 1);
    codec_write(qts, 5, 0x5a);
    g_assert_cmphex(codec_read(qts, 5), ==, 0x5a);
    g_assert_cmphex(codec_read(qts, 0), ==, 1);
    codec_write(qts, 0, 0);
    g_assert_cmphex(codec_read(qts, 5), ==, 0);

    codec_write(qts, 1, 0x80);
    g_assert_cmphex(codec_read(qts, 1), ==, 0);
    g_assert_cmphex(codec_read(qts, 7), ==, 0);
    g_assert_cmphex(codec_read(qts, 3), ==, 0x10);
    qtest_quit(qts);
}

#define MCASP1_BASE     0x4803c000
#define MCASP_RFIFOSTS  0x100c

/* McASP1 receives two 16-bit slots a frame on the codec's clocks */
static void mcasp1_receive(QTestState *qts)
{
    qtest_writel(qts, MCASP1_BASE + 0x64, 0xffff);          /* RMASK */
    qtest_writel(qts, MCASP1_BASE + 0x68, (1 << 15) | (7 << 4));
    qtest_writel(qts, MCASP1_BASE + 0x6c, 2 << 7);          /* AFSRCTL */
    qtest_writel(qts, MCASP1_BASE + 0xb0, 0);   /* ACLKX external, sync */
    qtest_writel(qts, MCASP1_BASE + 0xac, 0);   /* AFSX external */
    qtest_writel(qts, MCASP1_BASE + 0x78, 3);               /* RTDM */
    qtest_writel(qts, MCASP1_BASE + 0x180 + 4 * 3, 2);      /* AXR3: RX */
    qtest_writel(qts, MCASP1_BASE + 0x8c, 1);   /* no DMA: words stay */
    qtest_writel(qts, MCASP1_BASE + 0x1008, (1 << 16) | (64 << 8) | 1);
    qtest_writel(qts, MCASP1_BASE + 0x60, 0x1f);            /* RGBLCTL */
}

/*
 * The codec's PLL as tlv320aic3x sets it from the EVM's 12 MHz MCLK:
 * fsref = 12 MHz * 8.1920 / 2048 = 48 kHz, or * 7.5264 = 44.1 kHz
 */
static void codec_master(QTestState *qts, uint8_t j, uint16_t d, bool fs44k)
{
    codec_write(qts, 3, 0x81);                  /* PLL on, P = 1 */
    codec_write(qts, 4, j << 2);
    codec_write(qts, 5, d >> 6);
    codec_write(qts, 6, (d & 0x3f) << 2);
    codec_write(qts, 11, 1);                    /* R = 1 */
    codec_write(qts, 101, 0);                   /* CODEC_CLKIN: PLL */
    codec_write(qts, 7, (fs44k ? 0x80 : 0) | 0x0a);
    codec_write(qts, 2, 0);                     /* fs = fsref */
    codec_write(qts, 9, 0x40);                  /* DSP, 16-bit words */
    codec_write(qts, 8, 0xc0);                  /* BCLK, WCLK master */
}

/*
 * As the bit clock and frame master the codec clocks McASP1: its
 * receiver takes a word a slot, 2 a frame, at the codec's rate; the
 * McASP stops when the codec stops being the master
 */
static void test_codec_clocks(const void *data)
{
    QTestState *qts = qtest_init("-M am335x-evm");
    int64_t t;

    i2c_setup(qts, I2C1_BASE);
    /* Not yet the master: no clock, nothing received */
    mcasp1_receive(qts);
    qtest_clock_step(qts, 1000 * 1000);
    g_assert_cmpuint(qtest_readl(qts, MCASP1_BASE + MCASP_RFIFOSTS), ==, 0);

    /* 48 kHz: in 500 us 24 frames, 48 words */
    codec_master(qts, 8, 1920, false);
    t = qtest_clock_step(qts, 500 * 1000);
    g_assert_cmpuint(qtest_readl(qts, MCASP1_BASE + MCASP_RFIFOSTS), ==, 48);

    /* Migrated, the codec still clocks the McASP: 5 frames more */
    qts = am335x_migrate(qts, "-M am335x-evm");
    g_assert_cmpuint(qtest_readl(qts, MCASP1_BASE + MCASP_RFIFOSTS), ==, 48);
    qtest_clock_step(qts, t + 5 * 20833);
    g_assert_cmpuint(qtest_readl(qts, MCASP1_BASE + MCASP_RFIFOSTS), ==, 58);
    i2c_setup(qts, I2C1_BASE);

    /* Not the master any more: the McASP's frames stop */
    codec_write(qts, 8, 0);
    qtest_clock_step(qts, 500 * 1000);
    g_assert_cmpuint(qtest_readl(qts, MCASP1_BASE + MCASP_RFIFOSTS), ==, 58);
    qtest_quit(qts);

    /* 44.1 kHz: in 500 us 22 whole frames, 44 words */
    qts = qtest_init("-M am335x-evm");
    i2c_setup(qts, I2C1_BASE);
    mcasp1_receive(qts);
    codec_master(qts, 7, 5264, true);
    qtest_clock_step(qts, 500 * 1000);
    g_assert_cmpuint(qtest_readl(qts, MCASP1_BASE + MCASP_RFIFOSTS), ==, 44);
    qtest_quit(qts);
}

/* The EVM's LIS331DLH accelerometer */
#define LIS_WHO_AM_I    0x0f
#define LIS_CTRL_REG1   0x20
#define LIS_CTRL_REG2   0x21
#define LIS_CTRL_REG4   0x23
#define LIS_STATUS      0x27
#define LIS_OUT_X_L     0x28
#define LIS_INT1_THS    0x32
#define LIS_AUTO_INC    0x80
#define ACCEL_PATH      "/machine/accelerometer"

/* The three axes' output words, read in one auto-incrementing burst */
static void accel_read_xyz(QTestState *qts, int16_t xyz[3])
{
    uint8_t sub = LIS_OUT_X_L | LIS_AUTO_INC, raw[6];

    g_assert_true(i2c_write(qts, I2C1_BASE, ACCEL_ADDR, &sub, 1, false));
    g_assert_true(i2c_read(qts, I2C1_BASE, ACCEL_ADDR, raw, 6));
    for (int i = 0; i < 3; i++) {
        xyz[i] = raw[2 * i] | raw[2 * i + 1] << 8;
    }
}

static void accel_set(QTestState *qts, const char *axis, int mg)
{
    am335x_qom_set_int(qts, ACCEL_PATH, axis, mg);
}

/*
 * Identity and reset values, power-up and the data-ready and overrun
 * flags at the output data rate, the outputs at each full scale (with
 * saturation), the self-test, big-endian outputs, the block data update,
 * reserved and read-only registers, and migration
 */
static void test_lis331dlh(const void *data)
{
    QTestState *qts = qtest_init("-M am335x-evm");
    int16_t xyz[3];

    i2c_setup(qts, I2C1_BASE);
    g_assert_cmphex(i2c1_read(qts, ACCEL_ADDR, LIS_WHO_AM_I), ==, 0x32);
    g_assert_cmphex(i2c1_read(qts, ACCEL_ADDR, LIS_CTRL_REG1), ==, 0x07);

    /* Powered down: no new data, the outputs keep their (reset) value */
    qtest_clock_step(qts, 100 * 1000 * 1000);
    g_assert_cmphex(i2c1_read(qts, ACCEL_ADDR, LIS_STATUS), ==, 0);
    accel_read_xyz(qts, xyz);
    g_assert_cmpint(xyz[2], ==, 0);

    /* Normal mode at 100 Hz: new data after 10 ms, overrun after 20 */
    i2c1_write(qts, ACCEL_ADDR, LIS_CTRL_REG1, 0x2f);
    qtest_clock_step(qts, 9 * 1000 * 1000);
    g_assert_cmphex(i2c1_read(qts, ACCEL_ADDR, LIS_STATUS), ==, 0);
    qtest_clock_step(qts, 1000 * 1000);
    g_assert_cmphex(i2c1_read(qts, ACCEL_ADDR, LIS_STATUS), ==, 0x0f);
    qtest_clock_step(qts, 10 * 1000 * 1000);
    g_assert_cmphex(i2c1_read(qts, ACCEL_ADDR, LIS_STATUS), ==, 0xff);

    /* Flat on the bench: +1 g on Z, 1 mg a digit, left-justified */
    accel_read_xyz(qts, xyz);
    g_assert_cmpint(xyz[0], ==, 0);
    g_assert_cmpint(xyz[1], ==, 0);
    g_assert_cmpint(xyz[2], ==, 1000 * 16);
    g_assert_cmphex(i2c1_read(qts, ACCEL_ADDR, LIS_STATUS), ==, 0);

    /* +-2 g saturates; +-8 g takes 3.9 mg a digit */
    accel_set(qts, "x-mg", 3000);
    accel_set(qts, "y-mg", -2500);
    accel_read_xyz(qts, xyz);
    g_assert_cmpint(xyz[0], ==, 2047 * 16);
    g_assert_cmpint(xyz[1], ==, -2048 * 16);
    i2c1_write(qts, ACCEL_ADDR, LIS_CTRL_REG4, 0x30);
    accel_read_xyz(qts, xyz);
    g_assert_cmpint(xyz[0], ==, 769 * 16);
    g_assert_cmpint(xyz[1], ==, -641 * 16);
    g_assert_cmpint(xyz[2], ==, 256 * 16);

    /* Self-test at +-2 g: +300, +300, +350 mg; STsign negates it */
    accel_set(qts, "x-mg", 0);
    accel_set(qts, "y-mg", 0);
    i2c1_write(qts, ACCEL_ADDR, LIS_CTRL_REG4, 0x02);
    accel_read_xyz(qts, xyz);
    g_assert_cmpint(xyz[0], ==, 300 * 16);
    g_assert_cmpint(xyz[1], ==, 300 * 16);
    g_assert_cmpint(xyz[2], ==, 1350 * 16);
    i2c1_write(qts, ACCEL_ADDR, LIS_CTRL_REG4, 0x0a);
    accel_read_xyz(qts, xyz);
    g_assert_cmpint(xyz[0], ==, -300 * 16);
    g_assert_cmpint(xyz[2], ==, 650 * 16);

    /* Big endian: the MSB at the lower address */
    i2c1_write(qts, ACCEL_ADDR, LIS_CTRL_REG4, 0x40);
    g_assert_cmphex(i2c1_read(qts, ACCEL_ADDR, LIS_OUT_X_L + 4), ==,
                    (1000 * 16) >> 8);
    g_assert_cmphex(i2c1_read(qts, ACCEL_ADDR, LIS_OUT_X_L + 5), ==,
                    (1000 * 16) & 0xff);

    /* Block data update: the MSB keeps the sample of the LSB's read */
    i2c1_write(qts, ACCEL_ADDR, LIS_CTRL_REG4, 0x80);
    accel_set(qts, "x-mg", 1);
    g_assert_cmphex(i2c1_read(qts, ACCEL_ADDR, LIS_OUT_X_L), ==, 16);
    accel_set(qts, "x-mg", -1);
    g_assert_cmphex(i2c1_read(qts, ACCEL_ADDR, LIS_OUT_X_L + 1), ==, 0);
    g_assert_cmphex(i2c1_read(qts, ACCEL_ADDR, LIS_OUT_X_L + 1), ==, 0xff);

    /* BOOT is over at once; reserved bits and read-only registers hold */
    i2c1_write(qts, ACCEL_ADDR, LIS_CTRL_REG2, 0x80);
    g_assert_cmphex(i2c1_read(qts, ACCEL_ADDR, LIS_CTRL_REG2), ==, 0);
    i2c1_write(qts, ACCEL_ADDR, LIS_INT1_THS, 0xff);
    g_assert_cmphex(i2c1_read(qts, ACCEL_ADDR, LIS_INT1_THS), ==, 0x7f);
    i2c1_write(qts, ACCEL_ADDR, LIS_WHO_AM_I, 0);
    g_assert_cmphex(i2c1_read(qts, ACCEL_ADDR, LIS_WHO_AM_I), ==, 0x32);

    /* Migrated: the settings and the felt acceleration */
    accel_set(qts, "y-mg", 123);
    qts = am335x_migrate(qts, "-M am335x-evm");
    i2c_setup(qts, I2C1_BASE);
    g_assert_cmphex(i2c1_read(qts, ACCEL_ADDR, LIS_CTRL_REG4), ==, 0x80);
    g_assert_cmphex(i2c1_read(qts, ACCEL_ADDR, LIS_INT1_THS), ==, 0x7f);
    g_assert_cmpint(am335x_qom_get_int(qts, ACCEL_PATH, "y-mg"), ==, 123);
    accel_read_xyz(qts, xyz);
    g_assert_cmpint(xyz[1], ==, 123 * 16);
    qtest_quit(qts);
}

/* The EVM's TSL2550 light sensor: commands, then a read */
#define TSL_POWER_DOWN  0x00
#define TSL_POWER_UP    0x03
#define TSL_STANDARD    0x18
#define TSL_EXTENDED    0x1d
#define TSL_ADC0        0x43
#define TSL_ADC1        0x83
#define LIGHT_PATH      "/machine/light-sensor"

static void light_command(QTestState *qts, uint8_t command)
{
    g_assert_true(i2c_write(qts, I2C1_BASE, LIGHT_ADDR, &command, 1, true));
}

static uint8_t light_receive(QTestState *qts)
{
    uint8_t value;

    g_assert_true(i2c_read(qts, I2C1_BASE, LIGHT_ADDR, &value, 1));
    return value;
}

/*
 * The power-up echo drivers probe with, the chord/step encoding of the
 * counts, VALID one and two integrations after power-up, the extended
 * range's fifth, saturation, power-down, a refused command, migration
 */
static void test_tsl2550(const void *data)
{
    QTestState *qts = qtest_init("-M am335x-evm");
    int64_t t;

    i2c_setup(qts, I2C1_BASE);
    g_assert_cmphex(i2c1_read(qts, LIGHT_ADDR, TSL_POWER_UP), ==, 0x03);

    /* 800 counts: chord 5, step 9; 80: chord 2, step 7; not yet VALID */
    g_assert_cmphex(i2c1_read(qts, LIGHT_ADDR, TSL_ADC0), ==, 0x59);
    qtest_clock_step(qts, 400 * 1000 * 1000);
    g_assert_cmphex(i2c1_read(qts, LIGHT_ADDR, TSL_ADC0), ==, 0xd9);
    g_assert_cmphex(i2c1_read(qts, LIGHT_ADDR, TSL_ADC1), ==, 0x27);
    qtest_clock_step(qts, 400 * 1000 * 1000);
    g_assert_cmphex(i2c1_read(qts, LIGHT_ADDR, TSL_ADC1), ==, 0xa7);
    /* Receive Byte repeats the selected register */
    g_assert_cmphex(light_receive(qts), ==, 0xa7);

    /* Extended range: 160 counts, chord 3, step 5; past 4015, all ones */
    light_command(qts, TSL_EXTENDED);
    g_assert_cmphex(light_receive(qts), ==, TSL_EXTENDED);
    g_assert_cmphex(i2c1_read(qts, LIGHT_ADDR, TSL_ADC0), ==, 0xb5);
    light_command(qts, TSL_STANDARD);
    am335x_qom_set_int(qts, LIGHT_PATH, "adc0-count", 5000);
    g_assert_cmphex(i2c1_read(qts, LIGHT_ADDR, TSL_ADC0), ==, 0xff);

    /* A refused command leaves the last one selected */
    light_command(qts, 0x55);
    g_assert_cmphex(light_receive(qts), ==, 0xff);

    /* Migrated: powered, its light, still VALID (qtest's clock stays) */
    am335x_qom_set_int(qts, LIGHT_PATH, "adc1-count", 0);
    t = qtest_clock_step(qts, 1);
    qts = am335x_migrate(qts, "-M am335x-evm");
    qtest_clock_set(qts, t);
    i2c_setup(qts, I2C1_BASE);
    g_assert_cmphex(i2c1_read(qts, LIGHT_ADDR, TSL_ADC1), ==, 0x80);
    g_assert_cmphex(i2c1_read(qts, LIGHT_ADDR, TSL_ADC0), ==, 0xff);

    /* Powered down: nothing is VALID; powered up, it integrates anew */
    light_command(qts, TSL_POWER_DOWN);
    g_assert_cmphex(light_receive(qts), ==, TSL_POWER_DOWN);
    g_assert_cmphex(i2c1_read(qts, LIGHT_ADDR, TSL_ADC0), ==, 0x7f);
    light_command(qts, TSL_POWER_UP);
    g_assert_cmphex(i2c1_read(qts, LIGHT_ADDR, TSL_ADC0), ==, 0x7f);
    qtest_quit(qts);
}

/* The EVM's TMP275 (QEMU's TMP105): 25 degC, 12-bit when asked */
static void test_tmp275(const void *data)
{
    QTestState *qts = qtest_init("-M am335x-evm");
    uint8_t reg = 0, temp[2];

    i2c_setup(qts, I2C1_BASE);
    i2c1_write(qts, TEMP_ADDR, 1, 0x60);        /* R1:R0 = 12 bits */
    am335x_qom_set_int(qts, "/machine/temperature-sensor", "temperature",
                      -5250);
    g_assert_true(i2c_write(qts, I2C1_BASE, TEMP_ADDR, &reg, 1, false));
    g_assert_true(i2c_read(qts, I2C1_BASE, TEMP_ADDR, temp, 2));
    /* -5.25 degC: -84 sixteenths, left-justified */
    g_assert_cmphex(temp[0] << 8 | temp[1], ==, (uint16_t)(-84 * 16));
    qtest_quit(qts);

    qts = qtest_init("-M am335x-evm");
    g_assert_cmpint(am335x_qom_get_int(qts, "/machine/temperature-sensor",
                                      "temperature"), ==, 25000);
    qtest_quit(qts);
}

/*
 * The buses are named i2c0-i2c2, so that -device puts a target of the
 * user's on one: here a TMP105 on I2C2 (the BBB's cape bus), at 21.5 degC
 */
static void test_user_device(const void *data)
{
    const Board *b = data;
    QTestState *qts = qtest_initf("-M %s -device tmp105,bus=i2c2,"
                                  "address=0x48,id=cape-temp", b->machine);
    uint8_t reg = 0, temp[2];

    am335x_qom_set_int(qts, "/machine/peripheral/cape-temp", "temperature",
                       21500);
    i2c_setup(qts, I2C2_BASE);
    g_assert_true(i2c_write(qts, I2C2_BASE, 0x48, &reg, 1, false));
    g_assert_true(i2c_read(qts, I2C2_BASE, 0x48, temp, 2));
    g_assert_cmphex(temp[0] << 8 | temp[1], ==, 0x1580);
    /* Not on the other buses */
    i2c_setup(qts, I2C0_BASE);
    g_assert_false(i2c_write(qts, I2C0_BASE, 0x48, &reg, 1, true));
    qtest_quit(qts);
}

static void add(const Board *b, const char *name, GTestDataFunc fn)
{
    g_autofree char *path = g_strdup_printf("am335x/i2c/%s/%s", b->machine,
                                            name);
    qtest_add_data_func(path, b, fn);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    for (int i = 0; i < ARRAY_SIZE(boards); i++) {
        const Board *b = &boards[i];

        add(b, "reset-values", test_reset_values);
        add(b, "softreset", test_softreset);
        add(b, "eeprom", test_eeprom);
        add(b, "eeprom-partial-address", test_eeprom_partial_address);
        add(b, "eeprom-migration", test_eeprom_migration);
        add(b, "pmic-id", test_pmic_id);
        add(b, "nack", test_nack);
        add(b, "bus-busy", test_bus_busy);
        add(b, "fifo-threshold", test_fifo_threshold);
        add(b, "hostile-count", test_hostile_count);
        add(b, "bad-offsets", test_bad_offsets);
        add(b, "user-device", test_user_device);
        if (b->pmic_addr == TPS65217_ADDR) {
            add(b, "tps65217-password", test_tps65217_password);
            add(b, "tps65217-button", test_tps65217_button);
            add(b, "tda19988", test_tda19988);
        } else {
            add(b, "tps65910", test_tps65910);
            add(b, "codec-registers", test_codec_registers);
            add(b, "codec-clocks", test_codec_clocks);
            add(b, "lis331dlh", test_lis331dlh);
            add(b, "tsl2550", test_tsl2550);
            add(b, "tmp275", test_tmp275);
        }
    }
    return g_test_run();
}
