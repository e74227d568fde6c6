/*
 * QTest for the TI AM335x MPU interrupt controller (INTC)
 *
 * The tests drive the INTC's input lines directly and watch its IRQ and FIQ
 * outputs.  They use lines that TRM table 6-1 lists as reserved (38, 84,
 * 85, 104-107, 116-119, 122, 126, 127), so that no modelled peripheral
 * drives them at the same time.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "libqtest.h"

#define INTC_BASE       0x48200000
#define INTC_PATH       "/machine/soc/intc"

#define REVISION        0x00
#define SYSCONFIG       0x10
#define SYSSTATUS       0x14
#define SIR_IRQ         0x40
#define SIR_FIQ         0x44
#define CONTROL         0x48
#define PROTECTION      0x4c
#define IDLE            0x50
#define IRQ_PRIORITY    0x60
#define FIQ_PRIORITY    0x64
#define THRESHOLD       0x68
#define ITR(n)          (0x80 + 0x20 * (n))
#define MIR(n)          (0x84 + 0x20 * (n))
#define MIR_CLEAR(n)    (0x88 + 0x20 * (n))
#define MIR_SET(n)      (0x8c + 0x20 * (n))
#define ISR_SET(n)      (0x90 + 0x20 * (n))
#define ISR_CLEAR(n)    (0x94 + 0x20 * (n))
#define PENDING_IRQ(n)  (0x98 + 0x20 * (n))
#define PENDING_FIQ(n)  (0x9c + 0x20 * (n))
#define ILR(m)          (0x100 + 4 * (m))

#define NUM_LINES       128
#define NUM_BANKS       4

#define SYSCONFIG_AUTOIDLE  0x1
#define SYSCONFIG_SOFTRESET 0x2
#define CONTROL_NEWIRQAGR   0x1
#define CONTROL_NEWFIQAGR   0x2
#define ILR_FIQNIRQ         0x1
#define ACTIVE_MASK         0x7f
#define SPURIOUS_MASK       0xffffff80u
/* TRM 6.6.1: reset values of the sort result registers. */
#define SIR_RESET           0xffffff80u
#define PRIORITY_RESET      0xffffffc0u

/* The outputs, as sysbus IRQs of the INTC. */
#define OUT_IRQ         0
#define OUT_FIQ         1

#define BANK(line)      ((line) / 32)
#define LINE_BIT(line)  (1u << ((line) % 32))

static uint32_t intc_read(QTestState *qts, uint32_t reg)
{
    return qtest_readl(qts, INTC_BASE + reg);
}

static void intc_write(QTestState *qts, uint32_t reg, uint32_t value)
{
    qtest_writel(qts, INTC_BASE + reg, value);
}

static QTestState *start(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    qtest_irq_intercept_out_named(qts, INTC_PATH, "sysbus-irq");
    return qts;
}

static void set_line(QTestState *qts, int line, int level)
{
    qtest_set_irq_in(qts, INTC_PATH, NULL, line, level);
}

static void unmask(QTestState *qts, int line)
{
    intc_write(qts, MIR_CLEAR(BANK(line)), LINE_BIT(line));
}

static void mask(QTestState *qts, int line)
{
    intc_write(qts, MIR_SET(BANK(line)), LINE_BIT(line));
}

static void set_ilr(QTestState *qts, int line, unsigned prio, bool fiq)
{
    intc_write(qts, ILR(line), (prio << 2) | (fiq ? ILR_FIQNIRQ : 0));
}

static void ack_irq(QTestState *qts)
{
    intc_write(qts, CONTROL, CONTROL_NEWIRQAGR);
}

static void ack_fiq(QTestState *qts)
{
    intc_write(qts, CONTROL, CONTROL_NEWFIQAGR);
}

static void test_reset_values(void)
{
    QTestState *qts = start();

    g_assert_cmphex(intc_read(qts, REVISION), ==, 0x50);
    g_assert_cmphex(intc_read(qts, SYSCONFIG), ==, 0);
    g_assert_cmphex(intc_read(qts, SYSSTATUS) & 1, ==, 1);
    g_assert_cmphex(intc_read(qts, SIR_IRQ), ==, SIR_RESET);
    g_assert_cmphex(intc_read(qts, SIR_FIQ), ==, SIR_RESET);
    g_assert_cmphex(intc_read(qts, CONTROL), ==, 0);
    g_assert_cmphex(intc_read(qts, PROTECTION), ==, 0);
    g_assert_cmphex(intc_read(qts, IDLE), ==, 0);
    g_assert_cmphex(intc_read(qts, IRQ_PRIORITY), ==, PRIORITY_RESET);
    g_assert_cmphex(intc_read(qts, FIQ_PRIORITY), ==, PRIORITY_RESET);
    g_assert_cmphex(intc_read(qts, THRESHOLD), ==, 0xff);
    for (int n = 0; n < NUM_BANKS; n++) {
        g_assert_cmphex(intc_read(qts, MIR(n)), ==, 0xffffffff);
        g_assert_cmphex(intc_read(qts, ISR_SET(n)), ==, 0);
        g_assert_cmphex(intc_read(qts, PENDING_IRQ(n)), ==, 0);
        g_assert_cmphex(intc_read(qts, PENDING_FIQ(n)), ==, 0);
    }
    for (int m = 0; m < NUM_LINES; m++) {
        g_assert_cmphex(intc_read(qts, ILR(m)), ==, 0);
    }
    g_assert_false(qtest_get_irq(qts, OUT_IRQ));
    g_assert_false(qtest_get_irq(qts, OUT_FIQ));

    qtest_quit(qts);
}

/* ITR shows the raw inputs, masked or not, ORed with ISR_SET. */
static void test_itr_raw_status(void)
{
    QTestState *qts = start();

    set_line(qts, 127, 1);
    set_line(qts, 84, 1);
    g_assert_cmphex(intc_read(qts, ITR(3)) & LINE_BIT(127), ==,
                    LINE_BIT(127));
    g_assert_cmphex(intc_read(qts, ITR(2)) & LINE_BIT(84), ==, LINE_BIT(84));
    g_assert_cmphex(intc_read(qts, PENDING_IRQ(3)), ==, 0);
    g_assert_false(qtest_get_irq(qts, OUT_IRQ));

    set_line(qts, 127, 0);
    g_assert_cmphex(intc_read(qts, ITR(3)) & LINE_BIT(127), ==, 0);
    g_assert_cmphex(intc_read(qts, ITR(2)) & LINE_BIT(84), ==, LINE_BIT(84));

    intc_write(qts, ISR_SET(3), LINE_BIT(126));
    g_assert_cmphex(intc_read(qts, ITR(3)) & LINE_BIT(126), ==,
                    LINE_BIT(126));
    intc_write(qts, ISR_CLEAR(3), LINE_BIT(126));
    g_assert_cmphex(intc_read(qts, ITR(3)) & LINE_BIT(126), ==, 0);

    qtest_quit(qts);
}

static void test_masking(void)
{
    QTestState *qts = start();

    /* Masked (the reset state): visible in ITR only. */
    set_line(qts, 85, 1);
    g_assert_cmphex(intc_read(qts, PENDING_IRQ(2)), ==, 0);
    g_assert_false(qtest_get_irq(qts, OUT_IRQ));

    /* MIR_CLEAR unmasks. */
    unmask(qts, 85);
    g_assert_cmphex(intc_read(qts, MIR(2)), ==, ~LINE_BIT(85));
    g_assert_cmphex(intc_read(qts, PENDING_IRQ(2)), ==, LINE_BIT(85));
    g_assert_true(qtest_get_irq(qts, OUT_IRQ));
    g_assert_cmphex(intc_read(qts, SIR_IRQ), ==, 85);

    /* MIR_SET masks again; the output drops at the next agreement. */
    mask(qts, 85);
    g_assert_cmphex(intc_read(qts, MIR(2)), ==, 0xffffffff);
    g_assert_cmphex(intc_read(qts, PENDING_IRQ(2)), ==, 0);
    ack_irq(qts);
    g_assert_false(qtest_get_irq(qts, OUT_IRQ));

    /* MIR can also be written directly. */
    intc_write(qts, MIR(2), ~LINE_BIT(85));
    g_assert_true(qtest_get_irq(qts, OUT_IRQ));
    g_assert_cmphex(intc_read(qts, SIR_IRQ), ==, 85);

    /* The set/clear registers are write-only. */
    g_assert_cmphex(intc_read(qts, MIR_CLEAR(2)), ==, 0);
    g_assert_cmphex(intc_read(qts, MIR_SET(2)), ==, 0);

    set_line(qts, 85, 0);
    ack_irq(qts);
    g_assert_false(qtest_get_irq(qts, OUT_IRQ));

    qtest_quit(qts);
}

/* The lower priority value wins, whatever the line numbers. */
static void test_priority(void)
{
    QTestState *qts = start();

    set_ilr(qts, 104, 10, false);
    set_ilr(qts, 105, 5, false);
    set_line(qts, 104, 1);
    set_line(qts, 105, 1);
    intc_write(qts, MIR_CLEAR(3), LINE_BIT(104) | LINE_BIT(105));
    g_assert_true(qtest_get_irq(qts, OUT_IRQ));
    g_assert_cmphex(intc_read(qts, SIR_IRQ), ==, 105);
    g_assert_cmphex(intc_read(qts, IRQ_PRIORITY), ==, 5);

    /* Linux's mask + ack: the other line is sorted next. */
    mask(qts, 105);
    ack_irq(qts);
    g_assert_true(qtest_get_irq(qts, OUT_IRQ));
    g_assert_cmphex(intc_read(qts, SIR_IRQ), ==, 104);
    g_assert_cmphex(intc_read(qts, IRQ_PRIORITY), ==, 10);

    /* Swap the priorities: now the lower-numbered line wins. */
    set_ilr(qts, 104, 3, false);
    set_ilr(qts, 105, 7, false);
    unmask(qts, 105);
    ack_irq(qts);
    g_assert_cmphex(intc_read(qts, SIR_IRQ), ==, 104);
    g_assert_cmphex(intc_read(qts, IRQ_PRIORITY), ==, 3);

    qtest_quit(qts);
}

/* TRM 6.1.1.3: among equal priorities the highest-numbered line wins. */
static void test_tie_break(void)
{
    QTestState *qts = start();

    set_line(qts, 116, 1);
    set_line(qts, 119, 1);
    intc_write(qts, MIR_CLEAR(3), LINE_BIT(116) | LINE_BIT(119));
    g_assert_cmphex(intc_read(qts, SIR_IRQ), ==, 119);
    g_assert_cmphex(intc_read(qts, IRQ_PRIORITY), ==, 0);
    mask(qts, 119);
    ack_irq(qts);
    g_assert_cmphex(intc_read(qts, SIR_IRQ), ==, 116);
    mask(qts, 116);
    ack_irq(qts);
    g_assert_false(qtest_get_irq(qts, OUT_IRQ));

    /* Across banks too. */
    set_line(qts, 38, 1);
    set_line(qts, 84, 1);
    unmask(qts, 38);
    g_assert_cmphex(intc_read(qts, SIR_IRQ), ==, 38);
    unmask(qts, 84);
    ack_irq(qts);
    g_assert_cmphex(intc_read(qts, SIR_IRQ), ==, 84);

    qtest_quit(qts);
}

/* SIR holds the winner until NEWIRQAGR, even if the line drops. */
static void test_newirqagr_handshake(void)
{
    QTestState *qts = start();

    set_ilr(qts, 84, 20, false);
    set_ilr(qts, 85, 0, false);
    unmask(qts, 84);
    unmask(qts, 85);
    set_line(qts, 84, 1);
    g_assert_true(qtest_get_irq(qts, OUT_IRQ));
    g_assert_cmphex(intc_read(qts, SIR_IRQ), ==, 84);
    g_assert_cmphex(intc_read(qts, IRQ_PRIORITY), ==, 20);

    /* A higher priority arrival does not preempt the frozen result. */
    set_line(qts, 85, 1);
    g_assert_cmphex(intc_read(qts, SIR_IRQ), ==, 84);
    g_assert_cmphex(intc_read(qts, PENDING_IRQ(2)), ==,
                    LINE_BIT(84) | LINE_BIT(85));

    /* Nor does the winner's line dropping: the output stays asserted. */
    set_line(qts, 84, 0);
    g_assert_true(qtest_get_irq(qts, OUT_IRQ));
    g_assert_cmphex(intc_read(qts, SIR_IRQ), ==, 84);

    /* The agreement sorts the next one; the output never drops. */
    ack_irq(qts);
    g_assert_true(qtest_get_irq(qts, OUT_IRQ));
    g_assert_cmphex(intc_read(qts, SIR_IRQ), ==, 85);
    g_assert_cmphex(intc_read(qts, IRQ_PRIORITY), ==, 0);

    /* Nothing left: the output drops and SIR reads as spurious. */
    set_line(qts, 85, 0);
    g_assert_true(qtest_get_irq(qts, OUT_IRQ));
    ack_irq(qts);
    g_assert_false(qtest_get_irq(qts, OUT_IRQ));
    g_assert_cmphex(intc_read(qts, SIR_IRQ) & SPURIOUS_MASK, ==,
                    SPURIOUS_MASK);
    g_assert_cmphex(intc_read(qts, IRQ_PRIORITY) & SPURIOUS_MASK, ==,
                    SPURIOUS_MASK);

    /* An agreement with nothing pending is harmless. */
    ack_irq(qts);
    g_assert_false(qtest_get_irq(qts, OUT_IRQ));

    qtest_quit(qts);
}

static void test_threshold(void)
{
    QTestState *qts = start();

    set_ilr(qts, 104, 4, false);
    set_ilr(qts, 105, 8, false);
    set_ilr(qts, 106, 0, false);
    intc_write(qts, MIR_CLEAR(3),
               LINE_BIT(104) | LINE_BIT(105) | LINE_BIT(106));
    intc_write(qts, THRESHOLD, 8);
    g_assert_cmphex(intc_read(qts, THRESHOLD), ==, 8);

    /* Priority 8 is not above a threshold of 8. */
    set_line(qts, 105, 1);
    g_assert_false(qtest_get_irq(qts, OUT_IRQ));
    g_assert_cmphex(intc_read(qts, PENDING_IRQ(3)), ==, 0);
    g_assert_cmphex(intc_read(qts, ITR(3)) & LINE_BIT(105), ==,
                    LINE_BIT(105));

    /* Priority 4 is. */
    set_line(qts, 104, 1);
    g_assert_true(qtest_get_irq(qts, OUT_IRQ));
    g_assert_cmphex(intc_read(qts, SIR_IRQ), ==, 104);
    set_line(qts, 104, 0);
    ack_irq(qts);
    g_assert_false(qtest_get_irq(qts, OUT_IRQ));

    /* Priority 0 is never masked, even by a threshold of 0. */
    intc_write(qts, THRESHOLD, 0);
    set_line(qts, 106, 1);
    g_assert_true(qtest_get_irq(qts, OUT_IRQ));
    g_assert_cmphex(intc_read(qts, SIR_IRQ), ==, 106);
    set_line(qts, 106, 0);
    ack_irq(qts);
    g_assert_false(qtest_get_irq(qts, OUT_IRQ));

    /* 0xFF disables the threshold: the waiting line gets through. */
    intc_write(qts, THRESHOLD, 0xff);
    g_assert_true(qtest_get_irq(qts, OUT_IRQ));
    g_assert_cmphex(intc_read(qts, SIR_IRQ), ==, 105);
    g_assert_cmphex(intc_read(qts, IRQ_PRIORITY), ==, 8);

    qtest_quit(qts);
}

static void test_software_interrupts(void)
{
    QTestState *qts = start();

    intc_write(qts, ISR_SET(3), LINE_BIT(118));
    g_assert_cmphex(intc_read(qts, ISR_SET(3)), ==, LINE_BIT(118));
    g_assert_false(qtest_get_irq(qts, OUT_IRQ));

    unmask(qts, 118);
    g_assert_true(qtest_get_irq(qts, OUT_IRQ));
    g_assert_cmphex(intc_read(qts, SIR_IRQ), ==, 118);
    g_assert_cmphex(intc_read(qts, PENDING_IRQ(3)), ==, LINE_BIT(118));

    /* Setting more bits keeps the old ones. */
    intc_write(qts, ISR_SET(3), LINE_BIT(117));
    g_assert_cmphex(intc_read(qts, ISR_SET(3)), ==,
                    LINE_BIT(117) | LINE_BIT(118));
    intc_write(qts, ISR_CLEAR(3), LINE_BIT(117) | LINE_BIT(118));
    g_assert_cmphex(intc_read(qts, ISR_SET(3)), ==, 0);
    g_assert_cmphex(intc_read(qts, ISR_CLEAR(3)), ==, 0);
    ack_irq(qts);
    g_assert_false(qtest_get_irq(qts, OUT_IRQ));

    qtest_quit(qts);
}

/* Each line lands in its own bank bit and sorts to its own number. */
static void test_all_lines(void)
{
    QTestState *qts = start();

    for (int line = 0; line < NUM_LINES; line++) {
        intc_write(qts, ISR_SET(BANK(line)), LINE_BIT(line));
        unmask(qts, line);
        g_assert_true(qtest_get_irq(qts, OUT_IRQ));
        g_assert_cmphex(intc_read(qts, SIR_IRQ), ==, line);
        g_assert_cmphex(intc_read(qts, PENDING_IRQ(BANK(line))), ==,
                        LINE_BIT(line));
        mask(qts, line);
        intc_write(qts, ISR_CLEAR(BANK(line)), LINE_BIT(line));
        ack_irq(qts);
        g_assert_false(qtest_get_irq(qts, OUT_IRQ));
    }

    qtest_quit(qts);
}

static void test_fiq_routing(void)
{
    QTestState *qts = start();

    set_ilr(qts, 122, 6, true);
    g_assert_cmphex(intc_read(qts, ILR(122)), ==, (6 << 2) | ILR_FIQNIRQ);
    unmask(qts, 122);
    set_line(qts, 122, 1);
    g_assert_true(qtest_get_irq(qts, OUT_FIQ));
    g_assert_false(qtest_get_irq(qts, OUT_IRQ));
    g_assert_cmphex(intc_read(qts, SIR_FIQ), ==, 122);
    g_assert_cmphex(intc_read(qts, FIQ_PRIORITY), ==, 6);
    g_assert_cmphex(intc_read(qts, PENDING_FIQ(3)), ==, LINE_BIT(122));
    g_assert_cmphex(intc_read(qts, PENDING_IRQ(3)), ==, 0);
    g_assert_cmphex(intc_read(qts, SIR_IRQ) & SPURIOUS_MASK, ==,
                    SPURIOUS_MASK);

    /* The IRQ sorter runs independently. */
    unmask(qts, 126);
    set_line(qts, 126, 1);
    g_assert_true(qtest_get_irq(qts, OUT_IRQ));
    g_assert_cmphex(intc_read(qts, SIR_IRQ), ==, 126);
    g_assert_cmphex(intc_read(qts, SIR_FIQ), ==, 122);

    /* NEWIRQAGR leaves the FIQ alone, and vice versa. */
    set_line(qts, 122, 0);
    set_line(qts, 126, 0);
    ack_irq(qts);
    g_assert_false(qtest_get_irq(qts, OUT_IRQ));
    g_assert_true(qtest_get_irq(qts, OUT_FIQ));
    ack_fiq(qts);
    g_assert_false(qtest_get_irq(qts, OUT_FIQ));

    /* Both agreements in one write, as TRM 6.2.4 asks for FIQ handlers. */
    set_line(qts, 122, 1);
    set_line(qts, 126, 1);
    g_assert_true(qtest_get_irq(qts, OUT_FIQ));
    g_assert_true(qtest_get_irq(qts, OUT_IRQ));
    set_line(qts, 122, 0);
    set_line(qts, 126, 0);
    intc_write(qts, CONTROL, CONTROL_NEWIRQAGR | CONTROL_NEWFIQAGR);
    g_assert_false(qtest_get_irq(qts, OUT_IRQ));
    g_assert_false(qtest_get_irq(qts, OUT_FIQ));

    qtest_quit(qts);
}

static void test_softreset(void)
{
    QTestState *qts = start();

    intc_write(qts, SYSCONFIG, SYSCONFIG_AUTOIDLE);
    intc_write(qts, IDLE, 0x3);
    intc_write(qts, PROTECTION, 1);
    intc_write(qts, THRESHOLD, 0x20);
    set_ilr(qts, 107, 9, false);
    set_ilr(qts, 0, 1, true);
    intc_write(qts, ISR_SET(0), 0x8);
    unmask(qts, 3);
    unmask(qts, 107);
    set_line(qts, 107, 1);
    g_assert_true(qtest_get_irq(qts, OUT_IRQ));
    g_assert_cmphex(intc_read(qts, SYSCONFIG), ==, SYSCONFIG_AUTOIDLE);
    g_assert_cmphex(intc_read(qts, IDLE), ==, 0x3);
    g_assert_cmphex(intc_read(qts, PROTECTION), ==, 1);

    intc_write(qts, SYSCONFIG, SYSCONFIG_SOFTRESET);
    g_assert_cmphex(intc_read(qts, SYSSTATUS) & 1, ==, 1);
    g_assert_cmphex(intc_read(qts, SYSCONFIG), ==, 0);
    g_assert_false(qtest_get_irq(qts, OUT_IRQ));
    g_assert_cmphex(intc_read(qts, SIR_IRQ), ==, SIR_RESET);
    g_assert_cmphex(intc_read(qts, IRQ_PRIORITY), ==, PRIORITY_RESET);
    g_assert_cmphex(intc_read(qts, THRESHOLD), ==, 0xff);
    g_assert_cmphex(intc_read(qts, IDLE), ==, 0);
    g_assert_cmphex(intc_read(qts, PROTECTION), ==, 0);
    g_assert_cmphex(intc_read(qts, ILR(107)), ==, 0);
    g_assert_cmphex(intc_read(qts, ILR(0)), ==, 0);
    for (int n = 0; n < NUM_BANKS; n++) {
        g_assert_cmphex(intc_read(qts, MIR(n)), ==, 0xffffffff);
        g_assert_cmphex(intc_read(qts, ISR_SET(n)), ==, 0);
    }
    /* The input wire is still high; unmasking it raises the IRQ again. */
    g_assert_cmphex(intc_read(qts, ITR(3)) & LINE_BIT(107), ==,
                    LINE_BIT(107));
    unmask(qts, 107);
    g_assert_true(qtest_get_irq(qts, OUT_IRQ));
    g_assert_cmphex(intc_read(qts, SIR_IRQ), ==, 107);

    qtest_quit(qts);
}

/* Reserved offsets read 0 and ignore writes; read-only registers stay. */
static void test_bad_offsets(void)
{
    static const uint32_t reserved[] = {
        0x04, 0x08, 0x0c, 0x18, 0x3c, 0x54, 0x5c, 0x6c, 0x7c, 0x300, 0x400,
        0xffc,
    };
    QTestState *qts = start();

    for (int i = 0; i < ARRAY_SIZE(reserved); i++) {
        intc_write(qts, reserved[i], 0xffffffff);
        g_assert_cmphex(intc_read(qts, reserved[i]), ==, 0);
    }

    intc_write(qts, REVISION, 0x12345678);
    intc_write(qts, SYSSTATUS, 0);
    intc_write(qts, SIR_IRQ, 5);
    intc_write(qts, SIR_FIQ, 5);
    intc_write(qts, IRQ_PRIORITY, 5);
    intc_write(qts, FIQ_PRIORITY, 5);
    for (int n = 0; n < NUM_BANKS; n++) {
        intc_write(qts, ITR(n), 0xffffffff);
        intc_write(qts, PENDING_IRQ(n), 0xffffffff);
        intc_write(qts, PENDING_FIQ(n), 0xffffffff);
    }
    g_assert_cmphex(intc_read(qts, REVISION), ==, 0x50);
    g_assert_cmphex(intc_read(qts, SYSSTATUS) & 1, ==, 1);
    g_assert_cmphex(intc_read(qts, SIR_IRQ), ==, SIR_RESET);
    g_assert_cmphex(intc_read(qts, SIR_FIQ), ==, SIR_RESET);
    g_assert_cmphex(intc_read(qts, IRQ_PRIORITY), ==, PRIORITY_RESET);
    g_assert_cmphex(intc_read(qts, ITR(3)) & LINE_BIT(127), ==, 0);
    g_assert_cmphex(intc_read(qts, PENDING_IRQ(3)), ==, 0);

    /* Only ILR bits 7:0 exist. */
    intc_write(qts, ILR(127), 0xffffffff);
    g_assert_cmphex(intc_read(qts, ILR(127)), ==, 0xff);

    g_assert_false(qtest_get_irq(qts, OUT_IRQ));
    g_assert_false(qtest_get_irq(qts, OUT_FIQ));

    qtest_quit(qts);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);

    qtest_add_func("am335x/intc/reset-values", test_reset_values);
    qtest_add_func("am335x/intc/itr-raw-status", test_itr_raw_status);
    qtest_add_func("am335x/intc/masking", test_masking);
    qtest_add_func("am335x/intc/priority", test_priority);
    qtest_add_func("am335x/intc/tie-break", test_tie_break);
    qtest_add_func("am335x/intc/newirqagr-handshake",
                   test_newirqagr_handshake);
    qtest_add_func("am335x/intc/threshold", test_threshold);
    qtest_add_func("am335x/intc/software-interrupts",
                   test_software_interrupts);
    qtest_add_func("am335x/intc/all-lines", test_all_lines);
    qtest_add_func("am335x/intc/fiq-routing", test_fiq_routing);
    qtest_add_func("am335x/intc/softreset", test_softreset);
    qtest_add_func("am335x/intc/bad-offsets", test_bad_offsets);

    return g_test_run();
}
