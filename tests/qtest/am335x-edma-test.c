/*
 * QTest for the TI AM335x EDMA3: channel controller (TPCC) and transfer
 * controllers (TPTC0-2)
 *
 * Transfers run on the virtual clock, so each test steps it after a
 * trigger.  Interrupt lines are watched at the INTC's raw inputs (ITRn).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "libqtest.h"
#include "qobject/qdict.h"

#define TPCC_BASE           0x49000000
#define TPCC_PATH           "/machine/soc/edma-tpcc"
#define TPTC_BASE(n)        (0x49800000 + (n) * 0x100000)

/* TPCC global registers (TRM 11.4.1) */
#define PID                 0x0000
#define CCCFG               0x0004
#define DCHMAP(n)           (0x0100 + 4 * (n))
#define QCHMAP(n)           (0x0200 + 4 * (n))
#define DMAQNUM(n)          (0x0240 + 4 * (n))
#define QDMAQNUM            0x0260
#define QUEPRI              0x0284
#define EMR                 0x0300
#define EMRH                0x0304
#define EMCR                0x0308
#define EMCRH               0x030c
#define QEMR                0x0310
#define QEMCR               0x0314
#define CCERR               0x0318
#define CCERRCLR            0x031c
#define EEVAL               0x0320
#define DRAE(n)             (0x0340 + 8 * (n))
#define DRAEH(n)            (0x0344 + 8 * (n))
#define QRAE(n)             (0x0380 + 4 * (n))
#define QE(q, e)            (0x0400 + 0x40 * (q) + 4 * (e))
#define QSTAT(q)            (0x0600 + 4 * (q))
#define QWMTHRA             0x0620
#define CCSTAT              0x0640
#define MPPAG               0x080c

/* Channel registers: global at 0x1000, shadow region n at 0x2000 + n*0x200 */
#define GLOBAL              0x1000
#define SHADOW(n)           (0x2000 + 0x200 * (n))
#define ER                  0x00
#define ERH                 0x04
#define ECR                 0x08
#define ESR                 0x10
#define ESRH                0x14
#define CER                 0x18
#define EER                 0x20
#define EECR                0x28
#define EESR                0x30
#define SER                 0x38
#define SECR                0x40
#define IER                 0x50
#define IECR                0x58
#define IESR                0x60
#define IPR                 0x68
#define IPRH                0x6c
#define ICR                 0x70
#define ICRH                0x74
#define IEVAL               0x78
#define QER                 0x80
#define QEER                0x84
#define QEECR               0x88
#define QEESR               0x8c
#define QSER                0x90
#define QSECR               0x94

#define PARAM(set)          (0x4000 + 32 * (set))

/* PaRAM OPT */
#define OPT_SAM             BIT(0)
#define OPT_SYNCDIM         BIT(2)
#define OPT_STATIC          BIT(3)
#define OPT_TCCMODE         BIT(11)
#define OPT_TCC(n)          ((n) << 12)
#define OPT_TCINTEN         BIT(20)
#define OPT_ITCINTEN        BIT(21)
#define OPT_TCCHEN          BIT(22)
#define OPT_ITCCHEN         BIT(23)
#define OPT_PRIV            BIT(31)
#define LINK_NULL           0xffff
#define LINK_TO(set)        (PARAM(set) & 0xffff)

/* TPTC registers (TRM 11.4.2) */
#define TC_PID              0x000
#define TC_TCCFG            0x004
#define TC_SYSCONFIG        0x010
#define TC_TCSTAT           0x100
#define TC_ERRSTAT          0x120
#define TC_ERREN            0x124
#define TC_ERRCLR           0x128
#define TC_ERRDET           0x12c
#define TC_ERRCMD           0x130
#define TC_RDRATE           0x140
#define TC_SAOPT            0x240
#define TC_SASRC            0x244
#define TC_SACNT            0x248
#define ERR_BUSERR          BIT(0)
#define ERR_TRERR           BIT(2)
#define ERR_MMRAERR         BIT(3)
#define TCSTAT_IDLE         0x100
#define TCSTAT_SRCACTV      BIT(1)

/* The INTC's raw inputs */
#define INTC_ITR(bank)      (0x48200080 + 0x20 * (bank))
#define IRQ_EDMACOMP        12
#define IRQ_EDMAMPERR       13
#define IRQ_EDMAERR         14
#define IRQ_TPTC0           112

#define DDR                 0x80000000ULL
/* Nothing answers here: a TC access to it is a bus error. */
#define BAD_ADDR            0x10000000ULL

/* Long enough for any of the small transfers below */
#define SETTLE_NS           100000

static uint32_t cc_read(QTestState *qts, uint32_t reg)
{
    return qtest_readl(qts, TPCC_BASE + reg);
}

static void cc_write(QTestState *qts, uint32_t reg, uint32_t value)
{
    qtest_writel(qts, TPCC_BASE + reg, value);
}

static uint32_t tc_read(QTestState *qts, int tc, uint32_t reg)
{
    return qtest_readl(qts, TPTC_BASE(tc) + reg);
}

static void tc_write(QTestState *qts, int tc, uint32_t reg, uint32_t value)
{
    qtest_writel(qts, TPTC_BASE(tc) + reg, value);
}

static bool irq_line(QTestState *qts, int line)
{
    return qtest_readl(qts, INTC_ITR(line / 32)) & BIT(line % 32);
}

typedef struct Set {
    uint32_t opt;
    uint32_t src;
    uint16_t acnt;
    uint16_t bcnt;
    uint32_t dst;
    int16_t src_bidx;
    int16_t dst_bidx;
    uint16_t link;
    uint16_t bcntrld;
    int16_t src_cidx;
    int16_t dst_cidx;
    uint16_t ccnt;
} Set;

static void set_write(QTestState *qts, unsigned set, const Set *p)
{
    uint32_t base = PARAM(set);

    cc_write(qts, base + 0x00, p->opt);
    cc_write(qts, base + 0x04, p->src);
    cc_write(qts, base + 0x08, (uint32_t)p->bcnt << 16 | p->acnt);
    cc_write(qts, base + 0x0c, p->dst);
    cc_write(qts, base + 0x10, (uint32_t)(uint16_t)p->dst_bidx << 16 |
                               (uint16_t)p->src_bidx);
    cc_write(qts, base + 0x14, (uint32_t)p->bcntrld << 16 | p->link);
    cc_write(qts, base + 0x18, (uint32_t)(uint16_t)p->dst_cidx << 16 |
                               (uint16_t)p->src_cidx);
    cc_write(qts, base + 0x1c, p->ccnt);
}

static uint32_t set_word(QTestState *qts, unsigned set, unsigned word)
{
    return cc_read(qts, PARAM(set) + 4 * word);
}

/* A channel bound to a set, enabled for region 0 with its interrupt on */
static void channel_setup(QTestState *qts, unsigned ch, unsigned set)
{
    uint32_t reg = ch < 32 ? DRAE(0) : DRAEH(0);

    cc_write(qts, DCHMAP(ch), set << 5);
    cc_write(qts, reg, cc_read(qts, reg) | BIT(ch % 32));
    cc_write(qts, SHADOW(0) + IESR + (ch / 32) * 4, BIT(ch % 32));
}

static void fill(QTestState *qts, uint64_t addr, size_t len, uint8_t seed)
{
    g_autofree uint8_t *buf = g_malloc(len);

    for (size_t i = 0; i < len; i++) {
        buf[i] = seed + i * 7;
    }
    qtest_memwrite(qts, addr, buf, len);
}

static void zero(QTestState *qts, uint64_t addr, size_t len)
{
    qtest_memset(qts, addr, 0, len);
}

static void assert_same(QTestState *qts, uint64_t a, uint64_t b, size_t len)
{
    g_autofree uint8_t *x = g_malloc(len);
    g_autofree uint8_t *y = g_malloc(len);

    qtest_memread(qts, a, x, len);
    qtest_memread(qts, b, y, len);
    g_assert_cmpmem(x, len, y, len);
}

/* The trigger is evaluated at once, the data moves as the clock runs. */
static void trigger(QTestState *qts, unsigned ch)
{
    cc_write(qts, GLOBAL + ESR + (ch / 32) * 4, BIT(ch % 32));
}

static void manual_trigger(QTestState *qts, unsigned ch)
{
    trigger(qts, ch);
    qtest_clock_step(qts, SETTLE_NS);
}

static bool ipr_bit(QTestState *qts, unsigned tcc)
{
    return cc_read(qts, GLOBAL + IPR + (tcc / 32) * 4) & BIT(tcc % 32);
}

static QTestState *start(void)
{
    return qtest_init("-M beaglebone-black");
}

static void test_reset_values(void)
{
    QTestState *qts = start();

    g_assert_cmphex(cc_read(qts, PID), ==, 0x40014c00);
    /* 64 DMA, 8 QDMA, 64 interrupt channels, 256 sets, 3 queues, 8 regions */
    g_assert_cmphex(cc_read(qts, CCCFG), ==, 0x03324445);
    g_assert_cmphex(cc_read(qts, QWMTHRA), ==, 0x101010);
    g_assert_cmphex(cc_read(qts, CCSTAT), ==, 0);
    g_assert_cmphex(cc_read(qts, CCERR), ==, 0);
    g_assert_cmphex(cc_read(qts, DCHMAP(5)), ==, 0);
    g_assert_cmphex(cc_read(qts, GLOBAL + IPR), ==, 0);
    g_assert_cmphex(cc_read(qts, QSTAT(0)), ==, 0);
    for (int tc = 0; tc < 3; tc++) {
        g_assert_cmphex(tc_read(qts, tc, TC_PID) & 0xffffefff, ==,
                        0x40006c00);
        /* 512-byte FIFO, 16-byte bus, 4 destination register sets */
        g_assert_cmphex(tc_read(qts, tc, TC_TCCFG), ==, 0x224);
        g_assert_cmphex(tc_read(qts, tc, TC_TCSTAT), ==, TCSTAT_IDLE);
        g_assert_cmphex(tc_read(qts, tc, TC_SYSCONFIG), ==, 0);
        g_assert_cmphex(tc_read(qts, tc, TC_ERRSTAT), ==, 0);
    }
    g_assert_false(irq_line(qts, IRQ_EDMACOMP));
    g_assert_false(irq_line(qts, IRQ_EDMAMPERR));
    g_assert_false(irq_line(qts, IRQ_EDMAERR));
    qtest_quit(qts);
}

/* What ti-sysc does with each TPTC: SOFTRESET self-clears. */
static void test_tptc_softreset(void)
{
    QTestState *qts = start();

    for (int tc = 0; tc < 3; tc++) {
        tc_write(qts, tc, TC_SYSCONFIG, 0x28);
        g_assert_cmphex(tc_read(qts, tc, TC_SYSCONFIG), ==, 0x28);
        tc_write(qts, tc, TC_ERREN, ERR_BUSERR);
        tc_write(qts, tc, TC_SYSCONFIG, 0x29);
        g_assert_cmphex(tc_read(qts, tc, TC_SYSCONFIG), ==, 0);
        g_assert_cmphex(tc_read(qts, tc, TC_ERREN), ==, 0);
        g_assert_cmphex(tc_read(qts, tc, TC_PID) & 0xffffefff, ==,
                        0x40006c00);
    }
    /* An unknown TC offset is an MMRAERR. */
    tc_read(qts, 1, 0x400);
    g_assert_cmphex(tc_read(qts, 1, TC_ERRSTAT), ==, ERR_MMRAERR);
    tc_write(qts, 1, TC_ERRCLR, ERR_MMRAERR);
    g_assert_cmphex(tc_read(qts, 1, TC_ERRSTAT), ==, 0);
    qtest_quit(qts);
}

/* One array, manually triggered: data moves, IPR, the set is used up. */
static void test_manual_async(void)
{
    QTestState *qts = start();
    const Set p = {
        .opt = OPT_TCC(5) | OPT_TCINTEN, .src = DDR, .dst = DDR + 0x1000,
        .acnt = 100, .bcnt = 1, .ccnt = 1, .link = LINK_NULL,
    };

    fill(qts, DDR, 100, 1);
    zero(qts, DDR + 0x1000, 128);
    channel_setup(qts, 5, 5);
    set_write(qts, 5, &p);
    g_assert_cmphex(set_word(qts, 5, 0), ==, p.opt | OPT_PRIV);

    manual_trigger(qts, 5);
    assert_same(qts, DDR, DDR + 0x1000, 100);
    g_assert_cmphex(qtest_readb(qts, DDR + 0x1000 + 100), ==, 0);
    g_assert_true(ipr_bit(qts, 5));
    g_assert_cmphex(cc_read(qts, GLOBAL + ESR), ==, 0);
    g_assert_cmphex(cc_read(qts, GLOBAL + SER), ==, 0);
    /* Exhausted with a null link: a null set */
    for (int w = 0; w < 8; w++) {
        g_assert_cmphex(set_word(qts, 5, w), ==, w == 5 ? LINK_NULL : 0);
    }
    /* A trigger on the null set is an error: EMR, and SER stays set. */
    manual_trigger(qts, 5);
    g_assert_cmphex(cc_read(qts, EMR), ==, BIT(5));
    g_assert_cmphex(cc_read(qts, GLOBAL + SER), ==, BIT(5));
    g_assert_true(irq_line(qts, IRQ_EDMAERR));
    qtest_quit(qts);
}

/* A-sync, BCNT 3: one array per trigger, B-updates of the set. */
static void test_async_arrays(void)
{
    QTestState *qts = start();
    const Set p = {
        .opt = OPT_TCC(6) | OPT_TCINTEN | OPT_ITCINTEN, .src = DDR,
        .dst = DDR + 0x1000, .acnt = 4, .bcnt = 3, .ccnt = 1,
        .src_bidx = 16, .dst_bidx = 4, .link = LINK_NULL,
    };

    fill(qts, DDR, 64, 3);
    zero(qts, DDR + 0x1000, 16);
    channel_setup(qts, 6, 40);
    set_write(qts, 40, &p);

    manual_trigger(qts, 6);
    assert_same(qts, DDR, DDR + 0x1000, 4);
    g_assert_cmphex(qtest_readl(qts, DDR + 0x1004), ==, 0);
    g_assert_cmphex(set_word(qts, 40, 1), ==, DDR + 16);
    g_assert_cmphex(set_word(qts, 40, 2), ==, 2 << 16 | 4);
    /* Intermediate completion, with ITCINTEN */
    g_assert_true(ipr_bit(qts, 6));
    cc_write(qts, GLOBAL + ICR, BIT(6));

    manual_trigger(qts, 6);
    manual_trigger(qts, 6);
    assert_same(qts, DDR + 16, DDR + 0x1004, 4);
    assert_same(qts, DDR + 32, DDR + 0x1008, 4);
    g_assert_cmphex(qtest_readl(qts, DDR + 0x100c), ==, 0);
    g_assert_true(ipr_bit(qts, 6));
    g_assert_cmphex(set_word(qts, 40, 5), ==, LINK_NULL);
    qtest_quit(qts);
}

/* AB-sync: a whole frame per trigger, gathered with a source B-index. */
static void test_absync(void)
{
    QTestState *qts = start();
    const Set p = {
        .opt = OPT_SYNCDIM | OPT_TCC(7) | OPT_TCINTEN, .src = DDR,
        .dst = DDR + 0x1000, .acnt = 8, .bcnt = 4, .ccnt = 1,
        .src_bidx = 16, .dst_bidx = 8, .link = LINK_NULL,
    };

    fill(qts, DDR, 64, 5);
    zero(qts, DDR + 0x1000, 64);
    channel_setup(qts, 7, 7);
    set_write(qts, 7, &p);
    manual_trigger(qts, 7);
    for (int b = 0; b < 4; b++) {
        assert_same(qts, DDR + 16 * b, DDR + 0x1000 + 8 * b, 8);
    }
    g_assert_cmphex(qtest_readl(qts, DDR + 0x1020), ==, 0);
    g_assert_true(ipr_bit(qts, 7));
    qtest_quit(qts);
}

/*
 * 3D: AB-sync with CCNT 3 and C-indexes, self-chained on intermediate
 * completions (ITCCHEN), as Linux's memcpy does: one trigger runs it all,
 * and only the final completion interrupts.
 */
static void test_3d_chained(void)
{
    QTestState *qts = start();
    const Set p = {
        .opt = OPT_SYNCDIM | OPT_TCC(10) | OPT_TCINTEN | OPT_ITCCHEN,
        .src = DDR, .dst = DDR + 0x1000, .acnt = 4, .bcnt = 2, .ccnt = 3,
        .src_bidx = 4, .dst_bidx = 8, .src_cidx = 32, .dst_cidx = 64,
        .link = LINK_NULL,
    };

    fill(qts, DDR, 128, 9);
    zero(qts, DDR + 0x1000, 256);
    channel_setup(qts, 10, 10);
    set_write(qts, 10, &p);
    manual_trigger(qts, 10);
    for (int c = 0; c < 3; c++) {
        for (int b = 0; b < 2; b++) {
            assert_same(qts, DDR + 32 * c + 4 * b,
                        DDR + 0x1000 + 64 * c + 8 * b, 4);
        }
    }
    g_assert_cmphex(qtest_readl(qts, DDR + 0x1004), ==, 0);
    g_assert_true(ipr_bit(qts, 10));
    g_assert_cmphex(cc_read(qts, GLOBAL + CER), ==, 0);
    g_assert_cmphex(cc_read(qts, EMR), ==, 0);
    qtest_quit(qts);
}

/* A-sync 3D: BCNT arrays per frame, BCNT reloaded from BCNTRLD. */
static void test_async_3d(void)
{
    QTestState *qts = start();
    const Set p = {
        .opt = OPT_TCC(11) | OPT_TCINTEN | OPT_ITCCHEN, .src = DDR,
        .dst = DDR + 0x1000, .acnt = 2, .bcnt = 1, .ccnt = 3,
        .src_bidx = 2, .dst_bidx = 2, .src_cidx = 2, .dst_cidx = 2,
        .bcntrld = 2, .link = LINK_NULL,
    };

    /* Frames of 1, 2 and 2 arrays: 10 bytes */
    fill(qts, DDR, 16, 11);
    zero(qts, DDR + 0x1000, 16);
    channel_setup(qts, 11, 11);
    set_write(qts, 11, &p);
    manual_trigger(qts, 11);
    assert_same(qts, DDR, DDR + 0x1000, 10);
    g_assert_cmphex(qtest_readw(qts, DDR + 0x100a), ==, 0);
    g_assert_true(ipr_bit(qts, 11));
    qtest_quit(qts);
}

/* Linking: the exhausted set is reloaded from the linked one. */
static void test_link(void)
{
    QTestState *qts = start();
    const Set first = {
        .opt = OPT_TCC(12) | OPT_TCINTEN, .src = DDR, .dst = DDR + 0x1000,
        .acnt = 16, .bcnt = 1, .ccnt = 1, .link = LINK_TO(100),
    };
    const Set second = {
        .opt = OPT_TCC(13) | OPT_TCINTEN, .src = DDR + 0x100,
        .dst = DDR + 0x2000, .acnt = 32, .bcnt = 1, .ccnt = 1,
        .link = LINK_NULL,
    };

    fill(qts, DDR, 0x200, 13);
    zero(qts, DDR + 0x1000, 0x2000);
    channel_setup(qts, 12, 12);
    set_write(qts, 12, &first);
    set_write(qts, 100, &second);

    manual_trigger(qts, 12);
    assert_same(qts, DDR, DDR + 0x1000, 16);
    g_assert_true(ipr_bit(qts, 12));
    for (int w = 0; w < 8; w++) {
        g_assert_cmphex(set_word(qts, 12, w), ==, set_word(qts, 100, w));
    }
    /* The next trigger runs the linked set, with its own TCC. */
    manual_trigger(qts, 12);
    assert_same(qts, DDR + 0x100, DDR + 0x2000, 32);
    g_assert_true(ipr_bit(qts, 13));
    qtest_quit(qts);
}

/* Chaining: channel 8's completion triggers channel 9 through CER. */
static void test_chain(void)
{
    QTestState *qts = start();
    const Set a = {
        .opt = OPT_TCC(9) | OPT_TCCHEN, .src = DDR, .dst = DDR + 0x1000,
        .acnt = 16, .bcnt = 1, .ccnt = 1, .link = LINK_NULL,
    };
    const Set b = {
        .opt = OPT_TCC(9) | OPT_TCINTEN, .src = DDR + 0x1000,
        .dst = DDR + 0x2000, .acnt = 16, .bcnt = 1, .ccnt = 1,
        .link = LINK_NULL,
    };

    fill(qts, DDR, 16, 17);
    zero(qts, DDR + 0x1000, 0x1100);
    channel_setup(qts, 8, 8);
    channel_setup(qts, 9, 9);
    set_write(qts, 8, &a);
    set_write(qts, 9, &b);
    manual_trigger(qts, 8);
    assert_same(qts, DDR, DDR + 0x2000, 16);
    g_assert_false(ipr_bit(qts, 8));
    g_assert_true(ipr_bit(qts, 9));
    g_assert_cmphex(cc_read(qts, GLOBAL + CER), ==, 0);
    qtest_quit(qts);
}

/*
 * A dummy set (ACNT 0) whose completion chains to its own channel loops
 * for ever, on the part too.  The TPCC goes on serving the channels
 * above it, and the loop's evaluations take the TPCC's clock cycles: a
 * millisecond of it is a millisecond's work, not minutes of host time.
 */
static void test_self_chained_dummy(void)
{
    QTestState *qts = start();
    const Set loop = {
        .opt = OPT_STATIC | OPT_TCC(8) | OPT_TCCHEN, .acnt = 0, .bcnt = 1,
        .ccnt = 1, .link = LINK_NULL,
    };
    const Set copy = {
        .opt = OPT_TCC(5) | OPT_TCINTEN, .src = DDR, .dst = DDR + 0x1000,
        .acnt = 64, .bcnt = 1, .ccnt = 1, .link = LINK_NULL,
    };

    channel_setup(qts, 8, 8);
    set_write(qts, 8, &loop);
    manual_trigger(qts, 8);
    qtest_clock_step(qts, 10 * 1000 * 1000);
    fill(qts, DDR, 64, 29);
    zero(qts, DDR + 0x1000, 64);
    channel_setup(qts, 5, 5);
    set_write(qts, 5, &copy);
    manual_trigger(qts, 5);
    assert_same(qts, DDR, DDR + 0x1000, 64);
    g_assert_true(ipr_bit(qts, 5));
    /* The loop ends once its set no longer chains. */
    cc_write(qts, PARAM(8), OPT_STATIC | OPT_TCC(8));
    qtest_clock_step(qts, SETTLE_NS);
    g_assert_cmphex(cc_read(qts, GLOBAL + CER), ==, 0);
    g_assert_false(ipr_bit(qts, 8));
    qtest_quit(qts);
}

/*
 * A set that moves a few words a frame and chains each frame to its own
 * channel: the TC runs one small TR after another.  Each must start a TC
 * cycle after the one before ended, or they all ran at one instant of
 * virtual time and QEMU never answered again (found by the DMA fuzzer,
 * seed 62).
 */
static void test_self_chained_copy(void)
{
    QTestState *qts = start();
    const Set loop = {
        .opt = OPT_SYNCDIM | OPT_TCC(9) | OPT_ITCCHEN, .src = DDR,
        .dst = DDR + 0x1000, .acnt = 4, .bcnt = 25, .src_bidx = 4,
        .dst_bidx = 4, .ccnt = 0xffff, .link = LINK_NULL,
    };

    fill(qts, DDR, 100, 31);
    channel_setup(qts, 9, 9);
    set_write(qts, 9, &loop);
    trigger(qts, 9);
    qtest_clock_step(qts, 1000);
    assert_same(qts, DDR, DDR + 0x1000, 100);
    /* Frames went by in virtual time, and the loop goes on. */
    g_assert_cmphex(set_word(qts, 9, 7) & 0xffff, <, 0xffff - 10);
    g_assert_cmphex(set_word(qts, 9, 7) & 0xffff, >, 0);
    g_assert_cmphex(tc_read(qts, 0, TC_ERRSTAT), ==, 0);
    /* The loop ends once its set no longer chains. */
    cc_write(qts, PARAM(9), OPT_SYNCDIM | OPT_TCC(9));
    qtest_clock_step(qts, SETTLE_NS);
    g_assert_cmphex(tc_read(qts, 0, TC_TCSTAT), ==, TCSTAT_IDLE);
    g_assert_cmphex(cc_read(qts, GLOBAL + CER), ==, 0);
    qtest_quit(qts);
}

/* Early completion: the chained channel needs no TC completion. */
static void test_early_completion(void)
{
    QTestState *qts = start();
    const Set p = {
        .opt = OPT_TCC(3) | OPT_TCINTEN | OPT_TCCMODE, .src = DDR,
        .dst = DDR + 0x1000, .acnt = 8, .bcnt = 1, .ccnt = 1,
        .link = LINK_NULL,
    };

    fill(qts, DDR, 8, 21);
    channel_setup(qts, 3, 3);
    set_write(qts, 3, &p);
    manual_trigger(qts, 3);
    assert_same(qts, DDR, DDR + 0x1000, 8);
    g_assert_true(ipr_bit(qts, 3));
    g_assert_cmphex(cc_read(qts, CCSTAT), ==, 0);
    qtest_quit(qts);
}

/* QDMA: a write to the trigger word starts the channel. */
static void test_qdma(void)
{
    QTestState *qts = start();
    const Set p = {
        .opt = OPT_STATIC | OPT_TCC(20) | OPT_TCINTEN, .src = DDR,
        .dst = DDR + 0x1000, .acnt = 64, .bcnt = 1, .ccnt = 1,
        .link = LINK_NULL,
    };

    fill(qts, DDR, 64, 23);
    zero(qts, DDR + 0x1000, 64);
    channel_setup(qts, 20, 0);
    /* QDMA channel 1 on set 50, trigger word 7 (CCNT), queue 1 */
    cc_write(qts, QCHMAP(1), 50 << 5 | 7 << 2);
    cc_write(qts, QDMAQNUM, 1 << 4);
    cc_write(qts, QRAE(0), BIT(1));
    /* Disabled, a trigger word write is no event. */
    set_write(qts, 50, &p);
    qtest_clock_step(qts, SETTLE_NS);
    g_assert_cmphex(qtest_readl(qts, DDR + 0x1000), ==, 0);
    g_assert_cmphex(cc_read(qts, GLOBAL + QER), ==, 0);

    cc_write(qts, SHADOW(0) + QEESR, BIT(1));
    g_assert_cmphex(cc_read(qts, SHADOW(0) + QEER), ==, BIT(1));
    cc_write(qts, PARAM(50) + 0x1c, 1);
    qtest_clock_step(qts, SETTLE_NS);
    assert_same(qts, DDR, DDR + 0x1000, 64);
    g_assert_true(ipr_bit(qts, 20));
    g_assert_cmphex(cc_read(qts, GLOBAL + QER), ==, 0);
    g_assert_cmphex(cc_read(qts, GLOBAL + QSER), ==, 0);
    /* Static: the set is unchanged and can run again. */
    g_assert_cmphex(set_word(qts, 50, 7), ==, 1);
    g_assert_cmphex(cc_read(qts, QEMR), ==, 0);
    qtest_quit(qts);
}

/* A DMA request line: a rising edge sets ER; EER gates the transfer. */
static void test_event(void)
{
    QTestState *qts = start();
    const Set p = {
        .opt = OPT_SYNCDIM | OPT_TCC(25) | OPT_TCINTEN, .src = DDR,
        .dst = DDR + 0x1000, .acnt = 4, .bcnt = 128, .ccnt = 2,
        .src_bidx = 4, .dst_bidx = 4, .src_cidx = 512, .dst_cidx = 512,
        .link = LINK_NULL,
    };

    fill(qts, DDR, 1024, 29);
    zero(qts, DDR + 0x1000, 1024);
    channel_setup(qts, 25, 25);
    set_write(qts, 25, &p);

    /* Disabled: the event is latched in ER only. */
    qtest_set_irq_in(qts, TPCC_PATH, "dma-event", 25, 1);
    qtest_set_irq_in(qts, TPCC_PATH, "dma-event", 25, 0);
    qtest_clock_step(qts, SETTLE_NS);
    g_assert_cmphex(cc_read(qts, GLOBAL + ER), ==, BIT(25));
    g_assert_cmphex(qtest_readl(qts, DDR + 0x1000), ==, 0);

    /* Enabled, the pending event runs: one 512-byte frame. */
    cc_write(qts, SHADOW(0) + EESR, BIT(25));
    qtest_clock_step(qts, SETTLE_NS);
    g_assert_cmphex(cc_read(qts, GLOBAL + ER), ==, 0);
    assert_same(qts, DDR, DDR + 0x1000, 512);
    g_assert_cmphex(qtest_readl(qts, DDR + 0x1200), ==, 0);
    g_assert_false(ipr_bit(qts, 25));

    /* The second frame on the next edge; a held line is one event. */
    qtest_set_irq_in(qts, TPCC_PATH, "dma-event", 25, 1);
    qtest_clock_step(qts, SETTLE_NS);
    qtest_set_irq_in(qts, TPCC_PATH, "dma-event", 25, 1);
    qtest_clock_step(qts, SETTLE_NS);
    assert_same(qts, DDR + 512, DDR + 0x1200, 512);
    g_assert_true(ipr_bit(qts, 25));
    g_assert_cmphex(cc_read(qts, EMR), ==, 0);
    qtest_quit(qts);
}

/* Completion interrupt: IPR & IER & DRAE0 drives INTC line 12. */
static void test_completion_irq(void)
{
    QTestState *qts = start();
    const Set p = {
        .opt = OPT_TCC(40) | OPT_TCINTEN, .src = DDR, .dst = DDR + 0x1000,
        .acnt = 4, .bcnt = 1, .ccnt = 1, .link = LINK_NULL,
    };

    fill(qts, DDR, 4, 31);
    channel_setup(qts, 40, 40);
    set_write(qts, 40, &p);
    g_assert_cmphex(cc_read(qts, SHADOW(0) + IER + 4), ==, BIT(8));
    cc_write(qts, SHADOW(0) + ESRH, BIT(8));
    qtest_clock_step(qts, SETTLE_NS);
    g_assert_cmphex(cc_read(qts, SHADOW(0) + IPRH), ==, BIT(8));
    g_assert_true(irq_line(qts, IRQ_EDMACOMP));

    /* IEVAL keeps it asserted while pending; ICR clears it. */
    cc_write(qts, SHADOW(0) + IEVAL, 1);
    g_assert_true(irq_line(qts, IRQ_EDMACOMP));
    cc_write(qts, SHADOW(0) + ICRH, BIT(8));
    g_assert_false(irq_line(qts, IRQ_EDMACOMP));
    g_assert_cmphex(cc_read(qts, GLOBAL + IPRH), ==, 0);

    /* Disabled in IER, a completion sets IPR but no interrupt. */
    set_write(qts, 40, &p);
    cc_write(qts, SHADOW(0) + IECR + 4, BIT(8));
    cc_write(qts, SHADOW(0) + ESRH, BIT(8));
    qtest_clock_step(qts, SETTLE_NS);
    g_assert_true(ipr_bit(qts, 40));
    g_assert_false(irq_line(qts, IRQ_EDMACOMP));
    cc_write(qts, GLOBAL + IESR + 4, BIT(8));
    g_assert_true(irq_line(qts, IRQ_EDMACOMP));
    qtest_quit(qts);
}

/* Shadow region 0 sees and touches only the channels DRAE0 gives it. */
static void test_shadow_region(void)
{
    QTestState *qts = start();
    Set p = {
        .opt = OPT_TCC(1) | OPT_TCINTEN, .src = DDR, .dst = DDR + 0x1000,
        .acnt = 4, .bcnt = 1, .ccnt = 1, .link = LINK_NULL,
    };

    fill(qts, DDR, 4, 37);
    cc_write(qts, DCHMAP(1), 1 << 5);
    cc_write(qts, DCHMAP(2), 2 << 5);
    set_write(qts, 1, &p);
    p.opt = OPT_TCC(2) | OPT_TCINTEN;
    set_write(qts, 2, &p);
    cc_write(qts, DRAE(0), BIT(2));

    /* Channel 1 is not region 0's: its ESR bit is ignored there. */
    cc_write(qts, SHADOW(0) + ESR, BIT(1));
    qtest_clock_step(qts, SETTLE_NS);
    g_assert_cmphex(qtest_readl(qts, DDR + 0x1000), ==, 0);
    cc_write(qts, GLOBAL + ESR, BIT(1));
    qtest_clock_step(qts, SETTLE_NS);
    g_assert_cmphex(qtest_readl(qts, DDR + 0x1000), ==,
                    qtest_readl(qts, DDR));
    /* Its IPR bit is set but region 0 neither shows nor signals it. */
    cc_write(qts, GLOBAL + IESR, BIT(1) | BIT(2));
    g_assert_true(ipr_bit(qts, 1));
    g_assert_cmphex(cc_read(qts, SHADOW(0) + IPR), ==, 0);
    g_assert_cmphex(cc_read(qts, SHADOW(0) + IER), ==, BIT(2));
    g_assert_false(irq_line(qts, IRQ_EDMACOMP));
    /* Region 1 with the same channel sees it. */
    cc_write(qts, DRAE(1), BIT(1));
    g_assert_cmphex(cc_read(qts, SHADOW(1) + IPR), ==, BIT(1));

    cc_write(qts, SHADOW(0) + ESR, BIT(2));
    qtest_clock_step(qts, SETTLE_NS);
    g_assert_cmphex(cc_read(qts, SHADOW(0) + IPR), ==, BIT(2));
    g_assert_true(irq_line(qts, IRQ_EDMACOMP));
    /* Region 0 cannot clear channel 1's IPR bit. */
    cc_write(qts, SHADOW(0) + ICR, BIT(1) | BIT(2));
    g_assert_cmphex(cc_read(qts, GLOBAL + IPR), ==, BIT(1));
    g_assert_false(irq_line(qts, IRQ_EDMACOMP));
    qtest_quit(qts);
}

/* A second event while ER is set is missed: EMR and EDMAERRINT. */
static void test_missed_event(void)
{
    QTestState *qts = start();

    channel_setup(qts, 33, 33);
    for (int i = 0; i < 2; i++) {
        qtest_set_irq_in(qts, TPCC_PATH, "dma-event", 33, 1);
        qtest_set_irq_in(qts, TPCC_PATH, "dma-event", 33, 0);
    }
    g_assert_cmphex(cc_read(qts, GLOBAL + ERH), ==, BIT(1));
    g_assert_cmphex(cc_read(qts, EMRH), ==, BIT(1));
    g_assert_cmphex(cc_read(qts, EMR), ==, 0);
    g_assert_true(irq_line(qts, IRQ_EDMAERR));

    /* EEVAL keeps it pending; EMCR clears it. */
    cc_write(qts, EEVAL, 1);
    g_assert_true(irq_line(qts, IRQ_EDMAERR));
    cc_write(qts, EMCRH, BIT(1));
    g_assert_cmphex(cc_read(qts, EMRH), ==, 0);
    g_assert_false(irq_line(qts, IRQ_EDMAERR));

    /* A trigger of a null set (channel 34 on set 0) is an error... */
    cc_write(qts, GLOBAL + ESRH, BIT(2));
    g_assert_cmphex(cc_read(qts, EMRH), ==, BIT(2));
    g_assert_cmphex(cc_read(qts, GLOBAL + SER + 4), ==, BIT(2));
    cc_write(qts, EMCRH, BIT(2));
    /* ...and SER holds the next one back; a third is missed. */
    cc_write(qts, GLOBAL + ESRH, BIT(2));
    g_assert_cmphex(cc_read(qts, GLOBAL + ESRH), ==, BIT(2));
    g_assert_cmphex(cc_read(qts, EMRH), ==, 0);
    cc_write(qts, GLOBAL + ESRH, BIT(2));
    g_assert_cmphex(cc_read(qts, EMRH), ==, BIT(2));
    cc_write(qts, EMCRH, BIT(2));
    g_assert_false(irq_line(qts, IRQ_EDMAERR));

    /*
     * The same for a QDMA channel: QEMR, QSER.  The set is static, as the
     * link update of a QDMA channel's set triggers the channel again.
     */
    cc_write(qts, QCHMAP(3), 60 << 5 | 7 << 2);
    cc_write(qts, GLOBAL + QEESR, BIT(3));
    cc_write(qts, PARAM(60) + 0x00, OPT_STATIC);
    cc_write(qts, PARAM(60) + 0x1c, 0);
    g_assert_cmphex(cc_read(qts, QEMR), ==, BIT(3));
    g_assert_cmphex(cc_read(qts, GLOBAL + QSER), ==, BIT(3));
    g_assert_true(irq_line(qts, IRQ_EDMAERR));
    cc_write(qts, QEMCR, BIT(3));
    cc_write(qts, PARAM(60) + 0x1c, 0);
    g_assert_cmphex(cc_read(qts, GLOBAL + QER), ==, BIT(3));
    g_assert_cmphex(cc_read(qts, QEMR), ==, 0);
    cc_write(qts, PARAM(60) + 0x1c, 0);
    g_assert_cmphex(cc_read(qts, QEMR), ==, BIT(3));
    /* A dummy set (ACNT 1) takes the pending event without an error. */
    cc_write(qts, PARAM(60) + 0x08, 1);
    cc_write(qts, QEMCR, BIT(3));
    cc_write(qts, GLOBAL + QSECR, BIT(3));
    qtest_clock_step(qts, SETTLE_NS);
    g_assert_cmphex(cc_read(qts, GLOBAL + QER), ==, 0);
    g_assert_cmphex(cc_read(qts, GLOBAL + QSER), ==, 0);
    g_assert_cmphex(cc_read(qts, QEMR), ==, 0);
    g_assert_false(irq_line(qts, IRQ_EDMAERR));
    qtest_quit(qts);
}

/* The queue threshold error, and queue state while a TC is busy */
static void test_queue(void)
{
    QTestState *qts = start();
    const Set big = {
        .opt = OPT_SYNCDIM | OPT_TCC(0), .src = DDR, .dst = DDR + 0x100000,
        .acnt = 0xffff, .bcnt = 0xffff, .ccnt = 1, .link = LINK_NULL,
    };
    const Set small = {
        .opt = OPT_TCC(4) | OPT_TCINTEN, .src = DDR, .dst = DDR + 0x1000,
        .acnt = 4, .bcnt = 1, .ccnt = 1, .link = LINK_NULL,
    };
    uint32_t qstat;

    channel_setup(qts, 0, 0);
    channel_setup(qts, 4, 4);
    set_write(qts, 0, &big);
    set_write(qts, 4, &small);
    cc_write(qts, QWMTHRA, 0x101001);
    /* Channel 0 keeps TC0 busy; channel 4 waits in queue 0. */
    trigger(qts, 0);
    g_assert_cmphex(tc_read(qts, 0, TC_TCSTAT) & TCSTAT_SRCACTV, ==,
                    TCSTAT_SRCACTV);
    trigger(qts, 4);
    qtest_clock_step(qts, 2);
    qstat = cc_read(qts, QSTAT(0));
    g_assert_cmphex(qstat >> 8 & 0x1f, ==, 1);
    g_assert_cmphex(cc_read(qts, QE(0, qstat & 0xf)), ==, 1 << 6 | 4);
    g_assert_cmphex(cc_read(qts, GLOBAL + SER), ==, BIT(4));
    g_assert_cmphex(cc_read(qts, GLOBAL + ESR), ==, BIT(4));
    g_assert_cmphex(cc_read(qts, CCSTAT) & 0x70017, ==, 0x10015);
    /* Threshold 1 reached */
    g_assert_cmphex(cc_read(qts, CCERR), ==, BIT(0));
    g_assert_true(qstat & BIT(24));
    g_assert_true(irq_line(qts, IRQ_EDMAERR));
    cc_write(qts, CCERRCLR, BIT(0));
    g_assert_cmphex(cc_read(qts, CCERR), ==, 0);
    g_assert_false(irq_line(qts, IRQ_EDMAERR));

    /* A reset stops the 4 GiB transfer. */
    qtest_qmp_assert_success(qts, "{ 'execute': 'system_reset' }");
    qtest_qmp_eventwait(qts, "RESET");
    g_assert_cmphex(tc_read(qts, 0, TC_TCSTAT), ==, TCSTAT_IDLE);
    g_assert_cmphex(cc_read(qts, QSTAT(0)), ==, 0);
    qtest_quit(qts);
}

/* A bus error: ERRSTAT.BUSERR, ERRDET, TPTC0's interrupt, completion. */
static void test_bus_error(void)
{
    QTestState *qts = start();
    const Set p = {
        .opt = OPT_TCC(14) | OPT_TCINTEN, .src = BAD_ADDR,
        .dst = DDR + 0x1000, .acnt = 64, .bcnt = 1, .ccnt = 1,
        .link = LINK_NULL,
    };

    tc_write(qts, 0, TC_ERREN, ERR_BUSERR);
    channel_setup(qts, 14, 14);
    set_write(qts, 14, &p);
    manual_trigger(qts, 14);
    g_assert_cmphex(tc_read(qts, 0, TC_ERRSTAT), ==, ERR_BUSERR);
    /* A read error (STAT 1-7), TCC 14, TCINTEN */
    g_assert_cmphex(tc_read(qts, 0, TC_ERRDET), ==, 1 | 14 << 8 | BIT(16));
    g_assert_true(irq_line(qts, IRQ_TPTC0));
    g_assert_true(ipr_bit(qts, 14));
    g_assert_cmphex(tc_read(qts, 0, TC_TCSTAT), ==, TCSTAT_IDLE);

    /* ERRCMD re-evaluates; ERRCLR clears ERRSTAT and ERRDET. */
    tc_write(qts, 0, TC_ERRCMD, 1);
    g_assert_true(irq_line(qts, IRQ_TPTC0));
    tc_write(qts, 0, TC_ERRCLR, ERR_BUSERR);
    g_assert_cmphex(tc_read(qts, 0, TC_ERRSTAT), ==, 0);
    g_assert_cmphex(tc_read(qts, 0, TC_ERRDET), ==, 0);
    g_assert_false(irq_line(qts, IRQ_TPTC0));

    /* A write error, with the interrupt disabled */
    tc_write(qts, 0, TC_ERREN, 0);
    cc_write(qts, GLOBAL + ICR, BIT(14));
    set_write(qts, 14, &(Set) {
        .opt = OPT_TCC(14) | OPT_TCINTEN, .src = DDR, .dst = BAD_ADDR,
        .acnt = 64, .bcnt = 1, .ccnt = 1, .link = LINK_NULL,
    });
    manual_trigger(qts, 14);
    g_assert_cmphex(tc_read(qts, 0, TC_ERRSTAT), ==, ERR_BUSERR);
    g_assert_cmphex(tc_read(qts, 0, TC_ERRDET) & 0xf, >=, 8);
    g_assert_false(irq_line(qts, IRQ_TPTC0));
    g_assert_true(ipr_bit(qts, 14));
    qtest_quit(qts);
}

/*
 * A FIFO drained into memory or filled from it (a B-index of 0 on one side,
 * arrays back to back on the other) gives what array by array gives: where
 * the FIFO word lies in the memory the TR reads, a later array reads what
 * an earlier one wrote; where the memory runs past the end of EMIF0's
 * window, the arrays before the end land and the rest is a write error.
 */
static void test_fifo_memory(void)
{
    QTestState *qts = start();
    const uint64_t mem = DDR + 0x2000, end = DDR + 0x40000000;
    Set p = {
        .opt = OPT_SYNCDIM | OPT_TCC(7) | OPT_TCINTEN, .acnt = 4, .bcnt = 4,
        .ccnt = 1, .link = LINK_NULL,
    };

    channel_setup(qts, 7, 7);
    tc_write(qts, 0, TC_ERREN, ERR_BUSERR);

    /* Memory into a FIFO word that is the memory's last word */
    for (int i = 0; i < 4; i++) {
        qtest_writel(qts, mem + 4 * i, 10 + i);
    }
    p.src = mem;
    p.dst = mem + 12;
    p.src_bidx = 4;
    set_write(qts, 7, &p);
    manual_trigger(qts, 7);
    /* The last array read what the one before wrote there */
    g_assert_cmphex(qtest_readl(qts, mem + 12), ==, 12);
    g_assert_cmphex(qtest_readl(qts, mem), ==, 10);

    /* A FIFO word into memory that ends where EMIF0's window does */
    qtest_writel(qts, mem, 0xf1f0);
    cc_write(qts, GLOBAL + ICR, BIT(7));
    p.src = mem;
    p.dst = end - 8;
    p.src_bidx = 0;
    p.dst_bidx = 4;
    set_write(qts, 7, &p);
    manual_trigger(qts, 7);
    g_assert_cmphex(tc_read(qts, 0, TC_ERRSTAT), ==, ERR_BUSERR);
    g_assert_cmphex(tc_read(qts, 0, TC_ERRDET) & 0xf, >=, 8);
    g_assert_true(ipr_bit(qts, 7));
    /* DDR repeats through the window: its last two words */
    g_assert_cmphex(qtest_readl(qts, end - 8), ==, 0xf1f0);
    g_assert_cmphex(qtest_readl(qts, end - 4), ==, 0xf1f0);
    qtest_quit(qts);
}

/* SAM: the source address wraps at the FIFO width; alignment is checked. */
static void test_constant_addressing(void)
{
    QTestState *qts = start();
    Set p = {
        .opt = OPT_SAM | 2 << 8 | OPT_TCC(18) | OPT_TCINTEN, .src = DDR,
        .dst = DDR + 0x1000, .acnt = 16, .bcnt = 1, .ccnt = 1,
        .link = LINK_NULL,
    };

    qtest_writel(qts, DDR, 0xcafef00d);
    qtest_writel(qts, DDR + 4, 0x12345678);
    channel_setup(qts, 18, 18);
    set_write(qts, 18, &p);
    manual_trigger(qts, 18);
    for (int i = 0; i < 4; i++) {
        g_assert_cmphex(qtest_readl(qts, DDR + 0x1000 + 4 * i), ==,
                        0xcafef00d);
    }
    g_assert_cmphex(tc_read(qts, 0, TC_ERRSTAT), ==, 0);

    /* Not 32-byte aligned: TRERR, no data, but the TCC is returned. */
    cc_write(qts, GLOBAL + ICR, BIT(18));
    p.src = DDR + 4;
    p.dst = DDR + 0x2000;
    set_write(qts, 18, &p);
    manual_trigger(qts, 18);
    g_assert_cmphex(tc_read(qts, 0, TC_ERRSTAT), ==, ERR_TRERR);
    g_assert_cmphex(qtest_readl(qts, DDR + 0x2000), ==, 0);
    g_assert_true(ipr_bit(qts, 18));
    qtest_quit(qts);
}

/*
 * A TR that soft-resets its own TC: the TR ends without a completion code
 * and the next TR of the queue still runs.
 */
static void test_tc_self_reset(void)
{
    QTestState *qts = start();
    const Set reset = {
        .opt = OPT_TCC(19) | OPT_TCINTEN, .src = DDR,
        .dst = TPTC_BASE(0) + TC_SYSCONFIG, .acnt = 4, .bcnt = 1,
        .ccnt = 1, .link = LINK_NULL,
    };
    const Set copy = {
        .opt = OPT_TCC(21) | OPT_TCINTEN, .src = DDR + 4,
        .dst = DDR + 0x1000, .acnt = 4, .bcnt = 1, .ccnt = 1,
        .link = LINK_NULL,
    };

    qtest_writel(qts, DDR, 1);
    qtest_writel(qts, DDR + 4, 0x5a5a5a5a);
    tc_write(qts, 0, TC_SYSCONFIG, 0x28);
    channel_setup(qts, 19, 19);
    channel_setup(qts, 21, 21);
    set_write(qts, 19, &reset);
    set_write(qts, 21, &copy);
    cc_write(qts, GLOBAL + ESR, BIT(19) | BIT(21));
    qtest_clock_step(qts, SETTLE_NS);
    g_assert_cmphex(tc_read(qts, 0, TC_SYSCONFIG), ==, 0);
    g_assert_false(ipr_bit(qts, 19));
    g_assert_true(ipr_bit(qts, 21));
    g_assert_cmphex(qtest_readl(qts, DDR + 0x1000), ==, 0x5a5a5a5a);
    g_assert_cmphex(cc_read(qts, CCSTAT), ==, 0);
    qtest_quit(qts);
}

/*
 * What Linux's edma_prep_dma_memcpy() and edma_execute() program for a
 * 200000-byte copy: two slots, A-sync arrays of 32764 bytes self-chained
 * by ITCCHEN, the first slot chained (TCCHEN) into the second through its
 * link, the second linked to the driver's dummy slot.  Then what
 * dma_irq_handler() does.
 */
static void test_linux_memcpy(void)
{
    QTestState *qts = start();
    const unsigned ch = 20, slot1 = 70, dummy = 255;
    const uint32_t len = 200000, width = 32764, len0 = 6 * 32764;
    const Set dummy_set = { .link = LINK_NULL, .ccnt = 1 };
    const Set pset0 = {
        .opt = OPT_TCC(ch) | OPT_ITCCHEN | OPT_TCCHEN, .src = DDR,
        .dst = DDR + 0x100000, .acnt = width, .bcnt = 6, .ccnt = 1,
        .src_bidx = width, .dst_bidx = width, .src_cidx = width,
        .dst_cidx = width, .link = LINK_TO(slot1), .bcntrld = 0xffff,
    };
    const Set pset1 = {
        .opt = OPT_TCC(ch) | OPT_ITCCHEN | OPT_TCINTEN, .src = DDR + len0,
        .dst = DDR + 0x100000 + len0, .acnt = len - len0, .bcnt = 1,
        .ccnt = 1, .src_bidx = len - len0, .dst_bidx = len - len0,
        .src_cidx = len - len0, .dst_cidx = len - len0,
        .link = LINK_TO(dummy), .bcntrld = 0xffff,
    };

    fill(qts, DDR, len, 47);
    set_write(qts, dummy, &dummy_set);
    channel_setup(qts, ch, ch);
    set_write(qts, ch, &pset0);
    set_write(qts, slot1, &pset1);
    cc_write(qts, SHADOW(0) + ESR, BIT(ch));
    qtest_clock_step(qts, SETTLE_NS);

    assert_same(qts, DDR, DDR + 0x100000, len);
    g_assert_cmphex(qtest_readl(qts, DDR + 0x100000 + len), ==, 0);
    /* The entry slot now holds the dummy set: SRC 0 means done. */
    for (int w = 0; w < 8; w++) {
        g_assert_cmphex(set_word(qts, ch, w) & ~OPT_PRIV, ==,
                        set_word(qts, dummy, w) & ~OPT_PRIV);
    }
    g_assert_cmphex(cc_read(qts, EMR), ==, 0);

    /* dma_irq_handler(): shadow IPR & IER, ICR, IEVAL */
    g_assert_true(irq_line(qts, IRQ_EDMACOMP));
    g_assert_cmphex(cc_read(qts, SHADOW(0) + IPR) &
                    cc_read(qts, SHADOW(0) + IER), ==, BIT(ch));
    cc_write(qts, SHADOW(0) + ICR, BIT(ch));
    cc_write(qts, SHADOW(0) + IEVAL, 1);
    g_assert_false(irq_line(qts, IRQ_EDMACOMP));
    qtest_quit(qts);
}

/*
 * What Linux programs for a slave SG read from a FIFO (sdhci's external
 * DMA on MMCHS0, event 25): AB-sync, ACNT 4, BCNT 128 (one 512-byte block
 * per event), source B-index 0, three SG entries in linked slots, the last
 * linked to the dummy slot and interrupting.
 */
static void test_linux_slave_sg(void)
{
    QTestState *qts = start();
    const unsigned ch = 25, dummy = 255;
    const unsigned slots[3] = { 25, 80, 81 };
    const unsigned blocks[3] = { 2, 1, 3 };
    const uint64_t fifo = DDR + 0x10;
    const Set dummy_set = { .link = LINK_NULL, .ccnt = 1 };
    uint64_t dst = DDR + 0x100000;
    unsigned n = 0;

    set_write(qts, dummy, &dummy_set);
    channel_setup(qts, ch, ch);
    for (int i = 0; i < 3; i++) {
        Set p = {
            .opt = OPT_SYNCDIM | OPT_TCC(ch) | (i == 2 ? OPT_TCINTEN : 0),
            .src = fifo, .dst = dst + 0x1000 * i, .acnt = 4, .bcnt = 128,
            .ccnt = blocks[i], .src_bidx = 0, .dst_bidx = 4,
            .src_cidx = 0, .dst_cidx = 512, .bcntrld = 0xffff,
            .link = i == 2 ? LINK_TO(dummy) : LINK_TO(slots[i + 1]),
        };
        set_write(qts, slots[i], &p);
    }
    /* edma_start() for a hardware-triggered channel */
    cc_write(qts, GLOBAL + ECR, BIT(ch));
    cc_write(qts, EMCR, BIT(ch));
    cc_write(qts, SHADOW(0) + SECR, BIT(ch));
    cc_write(qts, SHADOW(0) + EESR, BIT(ch));

    /* One request per block; the FIFO word changes in between. */
    for (int i = 0; i < 3; i++) {
        for (unsigned b = 0; b < blocks[i]; b++) {
            qtest_writel(qts, fifo, 0x1000 + n++);
            g_assert_false(ipr_bit(qts, ch));
            qtest_set_irq_in(qts, TPCC_PATH, "dma-event", ch, 1);
            qtest_set_irq_in(qts, TPCC_PATH, "dma-event", ch, 0);
            qtest_clock_step(qts, SETTLE_NS);
        }
    }
    n = 0;
    for (int i = 0; i < 3; i++) {
        for (unsigned b = 0; b < blocks[i]; b++, n++) {
            uint64_t block = dst + 0x1000 * i + 512 * b;

            g_assert_cmphex(qtest_readl(qts, block), ==, 0x1000 + n);
            g_assert_cmphex(qtest_readl(qts, block + 508), ==, 0x1000 + n);
        }
        g_assert_cmphex(qtest_readl(qts, dst + 0x1000 * i +
                                    512 * blocks[i]), ==, 0);
    }
    g_assert_true(ipr_bit(qts, ch));
    g_assert_cmphex(cc_read(qts, EMR), ==, 0);
    g_assert_cmphex(cc_read(qts, GLOBAL + SER), ==, 0);
    qtest_quit(qts);
}

/* The most a set can ask for does not stall QEMU. */
static void test_huge(void)
{
    QTestState *qts = start();
    Set p = {
        .opt = OPT_SYNCDIM | OPT_TCC(15) | OPT_TCINTEN, .src = BAD_ADDR,
        .dst = DDR, .acnt = 0xffff, .bcnt = 0xffff, .ccnt = 0xffff,
        .src_bidx = 0x7fff, .dst_bidx = 0, .link = LINK_NULL,
    };
    uint32_t sacnt;

    /* 4 GiB from a bad address: a bus error, then done */
    cc_write(qts, DMAQNUM(1), 2 << 28);
    channel_setup(qts, 15, 15);
    set_write(qts, 15, &p);
    manual_trigger(qts, 15);
    g_assert_cmphex(tc_read(qts, 2, TC_ERRSTAT), ==, ERR_BUSERR);
    g_assert_cmphex(tc_read(qts, 2, TC_TCSTAT), ==, TCSTAT_IDLE);
    g_assert_false(ipr_bit(qts, 15));
    g_assert_cmphex(set_word(qts, 15, 7), ==, 0xfffe);

    /* 4 GiB within the RAM: it moves in steps while QEMU answers. */
    p.src = DDR;
    p.dst = DDR + 0x100000;
    p.src_bidx = 0;
    set_write(qts, 15, &p);
    trigger(qts, 15);
    /* The TR starts a TC cycle (5 ns) after the trigger, then steps. */
    qtest_clock_step(qts, 10);
    sacnt = tc_read(qts, 2, TC_SACNT);
    g_assert_cmphex(tc_read(qts, 2, TC_TCSTAT) & TCSTAT_SRCACTV, ==,
                    TCSTAT_SRCACTV);
    g_assert_cmphex(sacnt >> 16, <, 0xffff);
    qtest_writel(qts, DDR + 0x200000, 0x12345678);
    g_assert_cmphex(qtest_readl(qts, DDR + 0x200000), ==, 0x12345678);
    qtest_clock_step(qts, 100);
    g_assert_cmphex(tc_read(qts, 2, TC_SACNT) >> 16, <, sacnt >> 16);
    g_assert_cmphex(tc_read(qts, 2, TC_SAOPT) >> 12 & 0x3f, ==, 15);
    g_assert_cmphex(tc_read(qts, 2, TC_SASRC) - DDR, <, 0xffff);
    /* Quitting with the transfer in progress tears it down. */
    qtest_quit(qts);
}

/* Migration with a TR half done and another TR queued behind it */
static void test_migration(void)
{
    g_autofree char *sock = g_strdup_printf("%s/am335x-edma-%d.sock",
                                            g_get_tmp_dir(), getpid());
    g_autofree char *uri = g_strdup_printf("unix:%s", sock);
    QTestState *src = start();
    QTestState *dst = qtest_initf("-M beaglebone-black -incoming %s", uri);
    const Set big = {
        .opt = OPT_SYNCDIM | OPT_TCC(16) | OPT_TCINTEN, .src = DDR,
        .dst = DDR + 0x400000, .acnt = 4096, .bcnt = 64, .ccnt = 1,
        .src_bidx = 4096, .dst_bidx = 4096, .link = LINK_NULL,
    };
    const Set small = {
        .opt = OPT_TCC(17) | OPT_TCINTEN, .src = DDR, .dst = DDR + 0x800000,
        .acnt = 64, .bcnt = 1, .ccnt = 1, .link = LINK_NULL,
    };
    uint32_t sacnt;

    fill(src, DDR, 0x40000, 43);
    channel_setup(src, 16, 16);
    channel_setup(src, 17, 17);
    set_write(src, 16, &big);
    set_write(src, 17, &small);
    trigger(src, 16);
    trigger(src, 17);
    /* The TR's first step, a TC cycle after the trigger: 64 KiB of 256 */
    qtest_clock_step(src, 5);
    sacnt = tc_read(src, 0, TC_SACNT);
    g_assert_cmphex(sacnt >> 16, <, 64);
    g_assert_cmphex(cc_read(src, QSTAT(0)) >> 8 & 0x1f, ==, 1);

    qtest_qmp_assert_success(src, "{ 'execute': 'migrate', "
                             "'arguments': { 'uri': %s } }", uri);
    qtest_qmp_eventwait(src, "STOP");
    qtest_qmp_eventwait(dst, "RESUME");
    qtest_quit(src);

    g_assert_cmphex(tc_read(dst, 0, TC_SACNT), ==, sacnt);
    g_assert_cmphex(cc_read(dst, QSTAT(0)) >> 8 & 0x1f, ==, 1);
    qtest_clock_step(dst, SETTLE_NS);
    assert_same(dst, DDR, DDR + 0x400000, 0x40000);
    assert_same(dst, DDR, DDR + 0x800000, 64);
    g_assert_true(ipr_bit(dst, 16));
    g_assert_true(ipr_bit(dst, 17));
    g_assert_cmphex(tc_read(dst, 0, TC_TCSTAT), ==, TCSTAT_IDLE);
    g_assert_cmphex(cc_read(dst, CCSTAT), ==, 0);
    qtest_quit(dst);
    unlink(sock);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);

    qtest_add_func("am335x/edma/reset-values", test_reset_values);
    qtest_add_func("am335x/edma/tptc-softreset", test_tptc_softreset);
    qtest_add_func("am335x/edma/manual-async", test_manual_async);
    qtest_add_func("am335x/edma/async-arrays", test_async_arrays);
    qtest_add_func("am335x/edma/absync", test_absync);
    qtest_add_func("am335x/edma/3d-chained", test_3d_chained);
    qtest_add_func("am335x/edma/async-3d", test_async_3d);
    qtest_add_func("am335x/edma/link", test_link);
    qtest_add_func("am335x/edma/chain", test_chain);
    qtest_add_func("am335x/edma/self-chained-dummy", test_self_chained_dummy);
    qtest_add_func("am335x/edma/self-chained-copy", test_self_chained_copy);
    qtest_add_func("am335x/edma/early-completion", test_early_completion);
    qtest_add_func("am335x/edma/qdma", test_qdma);
    qtest_add_func("am335x/edma/event", test_event);
    qtest_add_func("am335x/edma/completion-irq", test_completion_irq);
    qtest_add_func("am335x/edma/shadow-region", test_shadow_region);
    qtest_add_func("am335x/edma/missed-event", test_missed_event);
    qtest_add_func("am335x/edma/queue", test_queue);
    qtest_add_func("am335x/edma/bus-error", test_bus_error);
    qtest_add_func("am335x/edma/fifo-memory", test_fifo_memory);
    qtest_add_func("am335x/edma/constant-addressing",
                   test_constant_addressing);
    qtest_add_func("am335x/edma/tc-self-reset", test_tc_self_reset);
    qtest_add_func("am335x/edma/linux-memcpy", test_linux_memcpy);
    qtest_add_func("am335x/edma/linux-slave-sg", test_linux_slave_sg);
    qtest_add_func("am335x/edma/huge", test_huge);
    qtest_add_func("am335x/edma/migration", test_migration);
    return g_test_run();
}
