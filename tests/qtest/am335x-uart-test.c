/*
 * QTest for the TI AM335x UART
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include <sys/socket.h>
#include "libqtest.h"
#include "am335x-qtest.h"

#define UART0_BASE      0x44e09000

#define RHR_THR         0x00
#define IER             0x04
#define IIR_FCR_EFR     0x08
#define LCR             0x0c
#define MCR_XON1        0x10
#define LSR_XON2        0x14
#define MSR_TCR         0x18
#define SPR_TLR         0x1c
#define MDR1            0x20
#define SCR             0x40
#define SSR             0x44
#define MVR             0x50
#define SYSC            0x54
#define SYSS            0x58
#define WER             0x5c
#define RXFIFO_LVL      0x64

#define LSR_DR          0x01
#define LSR_THRE        0x20
#define LSR_TEMT        0x40
#define IIR_NO_INT      0x01
#define IIR_RDI         0x04

/* The real silicon's MVR; 8250_omap and ti-sysc key quirks on it. */
#define AM335X_UART_MVR 0x47422e03

static uint32_t uart_read(QTestState *qts, uint32_t reg)
{
    return qtest_readl(qts, UART0_BASE + reg);
}

static void uart_write(QTestState *qts, uint32_t reg, uint32_t value)
{
    qtest_writel(qts, UART0_BASE + reg, value);
}

static QTestState *start(const char *machine, int *sock_fd)
{
    g_autofree char *args = g_strdup_printf("-M %s", machine);

    return qtest_init_with_serial(args, sock_fd);
}

static void test_reset_values(const void *data)
{
    int sock;
    QTestState *qts = start(data, &sock);

    g_assert_cmphex(uart_read(qts, MVR), ==, AM335X_UART_MVR);
    g_assert_cmphex(uart_read(qts, MDR1), ==, 0x07);
    g_assert_cmphex(uart_read(qts, SYSS) & 1, ==, 1);
    g_assert_cmphex(uart_read(qts, SYSC), ==, 0);
    g_assert_cmphex(uart_read(qts, LCR), ==, 0);
    g_assert_cmphex(uart_read(qts, IER), ==, 0);
    g_assert_cmphex(uart_read(qts, IIR_FCR_EFR), ==, IIR_NO_INT);
    g_assert_cmphex(uart_read(qts, LSR_XON2), ==, LSR_THRE | LSR_TEMT);
    g_assert_cmphex(uart_read(qts, WER), ==, 0xff);
    g_assert_cmphex(uart_read(qts, SCR), ==, 0);
    g_assert_cmphex(uart_read(qts, RXFIFO_LVL), ==, 0);

    close(sock);
    qtest_quit(qts);
}

/* LCR = 0xBF swaps in EFR/XON/XOFF; EFR[4] + MCR[6] expose TCR/TLR. */
static void test_config_modes(const void *data)
{
    int sock;
    QTestState *qts = start(data, &sock);

    uart_write(qts, LCR, 0xbf);
    g_assert_cmphex(uart_read(qts, IIR_FCR_EFR), ==, 0);
    uart_write(qts, IIR_FCR_EFR, 0x10);
    uart_write(qts, MCR_XON1, 0x11);
    uart_write(qts, LSR_XON2, 0x13);
    g_assert_cmphex(uart_read(qts, IIR_FCR_EFR), ==, 0x10);
    g_assert_cmphex(uart_read(qts, MCR_XON1), ==, 0x11);
    g_assert_cmphex(uart_read(qts, LSR_XON2), ==, 0x13);

    /* Back in operational mode the same offsets are IIR/MCR/LSR again. */
    uart_write(qts, LCR, 0x03);
    g_assert_cmphex(uart_read(qts, IIR_FCR_EFR), ==, IIR_NO_INT);
    g_assert_cmphex(uart_read(qts, LSR_XON2), ==, LSR_THRE | LSR_TEMT);

    /* MCR[6] with EFR[4] set selects TCR/TLR instead of MSR/SPR. */
    uart_write(qts, MCR_XON1, 0x40);
    uart_write(qts, MSR_TCR, 0x35);
    uart_write(qts, SPR_TLR, 0x82);
    g_assert_cmphex(uart_read(qts, MSR_TCR), ==, 0x35);
    g_assert_cmphex(uart_read(qts, SPR_TLR), ==, 0x82);
    uart_write(qts, MCR_XON1, 0x00);
    uart_write(qts, SPR_TLR, 0x5a);
    g_assert_cmphex(uart_read(qts, SPR_TLR), ==, 0x5a);

    close(sock);
    qtest_quit(qts);
}

static void test_softreset(const void *data)
{
    int sock;
    QTestState *qts = start(data, &sock);

    uart_write(qts, MDR1, 0x00);
    uart_write(qts, SCR, 0xc8);
    uart_write(qts, LCR, 0x03);
    uart_write(qts, IER, 0x01);
    uart_write(qts, SYSC, 0x02);
    g_assert_cmphex(uart_read(qts, SYSS) & 1, ==, 1);
    g_assert_cmphex(uart_read(qts, SYSC) & 0x02, ==, 0);
    g_assert_cmphex(uart_read(qts, MDR1), ==, 0x07);
    g_assert_cmphex(uart_read(qts, SCR), ==, 0);
    g_assert_cmphex(uart_read(qts, LCR), ==, 0);
    g_assert_cmphex(uart_read(qts, IER), ==, 0);

    close(sock);
    qtest_quit(qts);
}

static void uart_setup_115200_8n1(QTestState *qts)
{
    uart_write(qts, MDR1, 0x07);
    uart_write(qts, LCR, 0x83);
    uart_write(qts, RHR_THR, 26);   /* 48 MHz / 16 / 26 = 115200 */
    uart_write(qts, IER, 0);
    uart_write(qts, LCR, 0x03);
    uart_write(qts, IIR_FCR_EFR, 0x07);
    uart_write(qts, MDR1, 0x00);
}

static void test_tx_to_chardev(const void *data)
{
    int sock;
    QTestState *qts = start(data, &sock);
    const char *msg = "am335x";
    char buf[16] = { 0 };
    size_t got = 0;

    uart_setup_115200_8n1(qts);
    for (size_t i = 0; i < strlen(msg); i++) {
        uart_write(qts, RHR_THR, msg[i]);
    }
    while (got < strlen(msg)) {
        ssize_t n = recv(sock, buf + got, sizeof(buf) - 1 - got, 0);
        g_assert_cmpint(n, >, 0);
        got += n;
    }
    g_assert_cmpstr(buf, ==, msg);

    close(sock);
    qtest_quit(qts);
}

static void wait_for_rx(QTestState *qts)
{
    for (int i = 0; i < 5000; i++) {
        if (uart_read(qts, LSR_XON2) & LSR_DR) {
            return;
        }
        g_usleep(1000);
    }
    g_assert_not_reached();
}

static void test_rx_irq(const void *data)
{
    int sock;
    QTestState *qts = start(data, &sock);

    qtest_irq_intercept_out_named(qts, "/machine/soc/uart[0]", "sysbus-irq");
    uart_setup_115200_8n1(qts);
    uart_write(qts, IER, 0x01);         /* RHR interrupt */
    g_assert_false(qtest_get_irq(qts, 0));

    g_assert_cmpint(send(sock, "xy", 2, 0), ==, 2);
    wait_for_rx(qts);
    g_assert_cmpuint(uart_read(qts, RXFIFO_LVL), >=, 1);
    /* The FIFO trigger level is one byte, so data alone raises the IRQ. */
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(uart_read(qts, IIR_FCR_EFR) & 0x0f, ==, IIR_RDI);
    g_assert_cmphex(uart_read(qts, RHR_THR), ==, 'x');
    wait_for_rx(qts);
    g_assert_cmphex(uart_read(qts, RHR_THR), ==, 'y');
    g_assert_cmphex(uart_read(qts, LSR_XON2) & LSR_DR, ==, 0);
    g_assert_cmpuint(uart_read(qts, RXFIFO_LVL), ==, 0);
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_cmphex(uart_read(qts, IIR_FCR_EFR) & 0x0f, ==, IIR_NO_INT);

    close(sock);
    qtest_quit(qts);
}

#define PRCM_CM_DIV_M2_DPLL_PER 0x44e004ac

static uint32_t baudbase(QTestState *qts)
{
    QDict *resp = qtest_qmp(qts, "{ 'execute': 'qom-get', 'arguments': "
                            "{ 'path': '/machine/soc/uart[0]/serial', "
                            "'property': 'baudbase' } }");
    uint32_t value = qdict_get_int(resp, "return");

    qobject_unref(resp);
    return value;
}

/*
 * The 16550 core's baud base is UART0's PRCM clock (PER DPLL M2 / 4,
 * 48 MHz as the SPL leaves it) over the mode's oversampling: 16, or 13 in
 * the 13x mode.  A slower PER M2 output slows it down.
 */
static void test_fclk(const void *data)
{
    int sock;
    QTestState *qts = start(data, &sock);

    g_assert_cmpuint(baudbase(qts), ==, 48000000 / 16);
    uart_write(qts, MDR1, 0x03);
    g_assert_cmpuint(baudbase(qts), ==, 48000000 / 13);
    uart_write(qts, MDR1, 0x00);
    g_assert_cmpuint(baudbase(qts), ==, 48000000 / 16);

    /* M2 from 5 to 10: PER CLKOUT 192 -> 96 MHz, the UART clock 24 MHz */
    qtest_writel(qts, PRCM_CM_DIV_M2_DPLL_PER, 10);
    g_assert_cmpuint(baudbase(qts), ==, 24000000 / 16);

    close(sock);
    qtest_quit(qts);
}

static void add(const char *machine, const char *name, GTestDataFunc fn)
{
    am335x_add_machine_test("uart", machine, name, fn);
}

int main(int argc, char **argv)
{
    static const char * const machines[] = { "beaglebone-black",
                                             "am335x-evm" };

    g_test_init(&argc, &argv, NULL);
    for (int i = 0; i < ARRAY_SIZE(machines); i++) {
        add(machines[i], "reset-values", test_reset_values);
        add(machines[i], "config-modes", test_config_modes);
        add(machines[i], "softreset", test_softreset);
        add(machines[i], "tx-to-chardev", test_tx_to_chardev);
        add(machines[i], "rx-irq", test_rx_irq);
        add(machines[i], "fclk", test_fclk);
    }
    return g_test_run();
}
