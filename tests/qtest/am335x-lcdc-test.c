/*
 * QTest for the TI AM335x LCD controller (LCDC)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "libqtest.h"
#include "am335x-qtest.h"
#include "qobject/qdict.h"

#define LCDC_BASE           0x4830e000
#define LCDC_PATH           "/machine/soc/lcdc"

/* TRM table 13-13 */
#define PID                 0x00
#define CTRL                0x04
#define RASTER_CTRL         0x28
#define RASTER_TIMING_0     0x2c
#define RASTER_TIMING_1     0x30
#define RASTER_TIMING_2     0x34
#define LCDDMA_CTRL         0x40
#define FB0_BASE            0x44
#define FB0_CEILING         0x48
#define FB1_BASE            0x4c
#define FB1_CEILING         0x50
#define SYSCONFIG           0x54
#define IRQSTATUS_RAW       0x58
#define IRQSTATUS           0x5c
#define IRQENABLE_SET       0x60
#define IRQENABLE_CLEAR     0x64
#define CLKC_ENABLE         0x6c
#define CLKC_RESET          0x70

#define CTRL_RASTER         BIT(0)
#define CLKDIV(n)           ((n) << 8)
#define LCDEN               BIT(0)
#define LCDTFT              BIT(7)
#define PALMODE(n)          ((n) << 20)
#define PAL_AND_DATA        0
#define PAL_ONLY            1
#define DATA_ONLY           2
#define TFT24               BIT(25)
#define TFT24UNPACKED       BIT(26)
#define DUAL_FB             BIT(0)
#define CLKC_ALL            0x7
#define CLKC_RESET_MAIN     BIT(3)

#define IRQ_FRAME_DONE      BIT(0)
#define IRQ_RASTER_DONE     BIT(1)
#define IRQ_FUF             BIT(5)
#define IRQ_PL              BIT(6)
#define IRQ_EOF0            BIT(8)
#define IRQ_EOF1            BIT(9)

#define CM_PER_LCDC_CLKCTRL     0x44e00018
#define CLKSEL_LCDC_PIXEL_CLK   0x44e00534

/*
 * LCD_CLK from PER CLKOUT M2, 192 MHz, divided by 2: 96 MHz pixels.  The
 * test panel: 64x16, HFP 8, HBP 8, HSW 4 (84 clocks a line), VSW 2,
 * VBP 2, VFP 4: the data ends after 20 lines, the frame after 24.
 */
#define COLS                64
#define ROWS                16
#define LINE_NS(lines)      ((lines) * 84 * 2 * 1000 / 192)
#define EOF_NS              LINE_NS(20)
#define FRAME_NS            LINE_NS(24)

/* Clock conversions round each frame's times down by up to 1 ns */
#define SLACK               10

#define FB_ADDR             0x80010000
#define PAL_ADDR            0x80001000

static uint32_t lcdc_read(QTestState *qts, uint32_t reg)
{
    return qtest_readl(qts, LCDC_BASE + reg);
}

static void lcdc_write(QTestState *qts, uint32_t reg, uint32_t value)
{
    qtest_writel(qts, LCDC_BASE + reg, value);
}

/* The timing registers for the test panel, as tilcdc encodes them */
static void program_panel(QTestState *qts)
{
    lcdc_write(qts, CTRL, CLKDIV(2) | CTRL_RASTER);
    lcdc_write(qts, CLKC_ENABLE, CLKC_ALL);
    lcdc_write(qts, RASTER_TIMING_0, ((COLS / 16 - 1) << 4) |
               ((4 - 1) << 10) | ((8 - 1) << 16) | ((8 - 1) << 24));
    lcdc_write(qts, RASTER_TIMING_1, (ROWS - 1) | ((2 - 1) << 10) |
               (4 << 16) | (2 << 24));
    lcdc_write(qts, RASTER_TIMING_2, 0);
}

static QTestState *start(const char *machine)
{
    QTestState *qts = qtest_initf("-M %s", machine);

    qtest_writel(qts, CLKSEL_LCDC_PIXEL_CLK, 2);
    qtest_writel(qts, CM_PER_LCDC_CLKCTRL, 2);
    program_panel(qts);
    return qts;
}

/* Loads a palette whose entry 0 says "16 bpp" (or 8 bpp with @bpp8) */
static void load_palette(QTestState *qts, bool bpp8)
{
    uint16_t pal[16] = { cpu_to_le16(bpp8 ? 0x3000 : 0x4000) };

    qtest_memwrite(qts, PAL_ADDR, pal, sizeof(pal));
    lcdc_write(qts, FB0_BASE, PAL_ADDR);
    lcdc_write(qts, FB0_CEILING, PAL_ADDR + sizeof(pal) - 1);
    lcdc_write(qts, IRQSTATUS, ~0u);
    lcdc_write(qts, RASTER_CTRL, LCDTFT | PALMODE(PAL_ONLY) | LCDEN);
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW) & IRQ_PL, ==, IRQ_PL);
    lcdc_write(qts, RASTER_CTRL, LCDTFT | PALMODE(PAL_ONLY));
    /* The palette-only frame runs to its end */
    qtest_clock_step(qts, FRAME_NS + 1);
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW) & IRQ_FRAME_DONE, ==,
                    IRQ_FRAME_DONE);
    lcdc_write(qts, IRQSTATUS, ~0u);
}

/* The raster on, 16 bpp from FB0 at FB_ADDR */
static void start_16bpp(QTestState *qts)
{
    load_palette(qts, false);
    lcdc_write(qts, FB0_BASE, FB_ADDR);
    lcdc_write(qts, FB0_CEILING, FB_ADDR + COLS * ROWS * 2);
    lcdc_write(qts, RASTER_CTRL, LCDTFT | PALMODE(DATA_ONLY) | LCDEN);
}

static void test_reset_values(void)
{
    QTestState *qts = qtest_init("-M beaglebone-black");

    g_assert_cmphex(lcdc_read(qts, PID), ==, 0x4f201000);
    g_assert_cmphex(lcdc_read(qts, CTRL), ==, 0);
    g_assert_cmphex(lcdc_read(qts, RASTER_CTRL), ==, 0);
    g_assert_cmphex(lcdc_read(qts, LCDDMA_CTRL), ==, 0);
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW), ==, 0);
    g_assert_cmphex(lcdc_read(qts, CLKC_ENABLE), ==, 0);
    lcdc_write(qts, SYSCONFIG, 0xffffffff);
    g_assert_cmphex(lcdc_read(qts, SYSCONFIG), ==, 0x3c);
    lcdc_write(qts, FB0_BASE, 0x80000003);
    g_assert_cmphex(lcdc_read(qts, FB0_BASE), ==, 0x80000000);
    qtest_quit(qts);
}

/* EOF0 when the data is fetched, RASTER_DONE at the frame's end */
static void test_frame_timing(void)
{
    QTestState *qts = start("beaglebone-black");

    start_16bpp(qts);

    qtest_clock_step(qts, EOF_NS - SLACK);
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW), ==, 0);
    qtest_clock_step(qts, 2 * SLACK);
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW), ==, IRQ_EOF0);
    qtest_clock_step(qts, FRAME_NS - EOF_NS - 2 * SLACK);
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW), ==, IRQ_EOF0);
    qtest_clock_step(qts, 2 * SLACK);
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW), ==,
                    IRQ_EOF0 | IRQ_RASTER_DONE);

    /* The next frame starts at once: its EOF0 one EOF time later */
    lcdc_write(qts, IRQSTATUS, ~0u);
    qtest_clock_step(qts, EOF_NS - 3 * SLACK);
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW), ==, 0);
    qtest_clock_step(qts, 3 * SLACK);
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW), ==, IRQ_EOF0);

    /* Cleared LCDEN: this frame ends, then FRAME_DONE, and no more */
    lcdc_write(qts, RASTER_CTRL, LCDTFT | PALMODE(DATA_ONLY));
    lcdc_write(qts, IRQSTATUS, ~0u);
    qtest_clock_step(qts, FRAME_NS - EOF_NS);
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW), ==,
                    IRQ_RASTER_DONE | IRQ_FRAME_DONE);
    lcdc_write(qts, IRQSTATUS, ~0u);
    qtest_clock_step(qts, 3 * FRAME_NS);
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW), ==, 0);
    qtest_quit(qts);
}

/* The interrupt line follows IRQSTATUS = IRQSTATUS_RAW & IRQENABLE */
static void test_irq(void)
{
    QTestState *qts = start("beaglebone-black");

    qtest_irq_intercept_out_named(qts, LCDC_PATH, "sysbus-irq");
    lcdc_write(qts, IRQSTATUS_RAW, IRQ_EOF0 | IRQ_PL | BIT(4));
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW), ==, IRQ_EOF0 | IRQ_PL);
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS), ==, 0);
    g_assert_false(qtest_get_irq(qts, 0));

    lcdc_write(qts, IRQENABLE_SET, IRQ_EOF0 | IRQ_FUF);
    g_assert_cmphex(lcdc_read(qts, IRQENABLE_SET), ==, IRQ_EOF0 | IRQ_FUF);
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS), ==, IRQ_EOF0);
    g_assert_true(qtest_get_irq(qts, 0));

    lcdc_write(qts, IRQENABLE_CLEAR, IRQ_EOF0);
    g_assert_false(qtest_get_irq(qts, 0));
    lcdc_write(qts, IRQENABLE_SET, IRQ_EOF0);
    g_assert_true(qtest_get_irq(qts, 0));

    lcdc_write(qts, IRQSTATUS, IRQ_EOF0);
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW), ==, IRQ_PL);
    qtest_quit(qts);
}

/* Dual frame buffer mode: FB0 and FB1 in turn, EOF0 and EOF1 */
static void test_dual_fb(void)
{
    QTestState *qts = start("beaglebone-black");

    load_palette(qts, false);
    lcdc_write(qts, LCDDMA_CTRL, DUAL_FB);
    lcdc_write(qts, FB0_BASE, FB_ADDR);
    lcdc_write(qts, FB0_CEILING, FB_ADDR + COLS * ROWS * 2);
    lcdc_write(qts, FB1_BASE, FB_ADDR + 0x10000);
    lcdc_write(qts, FB1_CEILING, FB_ADDR + 0x10000 + COLS * ROWS * 2);
    lcdc_write(qts, RASTER_CTRL, LCDTFT | PALMODE(DATA_ONLY) | LCDEN);

    for (int frame = 0; frame < 4; frame++) {
        uint32_t eof = (frame & 1) ? IRQ_EOF1 : IRQ_EOF0;

        qtest_clock_step(qts, EOF_NS + 2);
        g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW) & (IRQ_EOF0 | IRQ_EOF1),
                        ==, eof);
        lcdc_write(qts, IRQSTATUS, ~0u);
        qtest_clock_step(qts, FRAME_NS - EOF_NS - 2);
    }
    qtest_quit(qts);
}

/* Palette and data mode loads the palette each frame and raises PL */
static void test_palette_and_data(void)
{
    QTestState *qts = start("beaglebone-black");
    uint16_t pal[16] = { cpu_to_le16(0x4000) };

    qtest_memwrite(qts, FB_ADDR, pal, sizeof(pal));
    lcdc_write(qts, FB0_BASE, FB_ADDR);
    lcdc_write(qts, FB0_CEILING, FB_ADDR + 32 + COLS * ROWS * 2 - 1);
    lcdc_write(qts, RASTER_CTRL, LCDTFT | PALMODE(PAL_AND_DATA) | LCDEN);
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW), ==, IRQ_PL);
    qtest_clock_step(qts, EOF_NS + 2);
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW), ==, IRQ_PL | IRQ_EOF0);
    lcdc_write(qts, IRQSTATUS, ~0u);
    qtest_clock_step(qts, FRAME_NS - EOF_NS);
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW), ==,
                    IRQ_RASTER_DONE | IRQ_PL);
    qtest_quit(qts);
}

/* A short buffer, one outside RAM, or a ceiling below the base: FUF */
static void test_underflow(void)
{
    static const uint32_t bad[][2] = {
        { FB_ADDR, FB_ADDR + 100 },             /* shorter than the frame */
        { 0x4a100000, 0x4a100000 + 4096 },      /* the CPSW's registers */
        { FB_ADDR + 4096, FB_ADDR },            /* ceiling below base */
    };

    for (int i = 0; i < ARRAY_SIZE(bad); i++) {
        QTestState *qts = start("beaglebone-black");

        load_palette(qts, false);
        lcdc_write(qts, FB0_BASE, bad[i][0]);
        lcdc_write(qts, FB0_CEILING, bad[i][1]);
        lcdc_write(qts, RASTER_CTRL, LCDTFT | PALMODE(DATA_ONLY) | LCDEN);
        g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW) & IRQ_FUF, ==, IRQ_FUF);
        /* The raster keeps its timing */
        qtest_clock_step(qts, FRAME_NS + 1);
        g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW) & IRQ_RASTER_DONE, ==,
                        IRQ_RASTER_DONE);
        qtest_quit(qts);
    }
}

/* Gating LCD_CLK or a main reset stops the raster */
static void test_clock_and_reset(void)
{
    QTestState *qts = start("beaglebone-black");

    start_16bpp(qts);
    qtest_clock_step(qts, EOF_NS / 2);
    qtest_writel(qts, CM_PER_LCDC_CLKCTRL, 0);
    qtest_clock_step(qts, 4 * FRAME_NS);
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW), ==, 0);

    /* The clock back with LCDEN still set: a new frame */
    qtest_writel(qts, CM_PER_LCDC_CLKCTRL, 2);
    qtest_clock_step(qts, EOF_NS + 2);
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW), ==, IRQ_EOF0);

    lcdc_write(qts, CLKC_RESET, CLKC_RESET_MAIN);
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW), ==, 0);
    qtest_clock_step(qts, 4 * FRAME_NS);
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW), ==, 0);
    lcdc_write(qts, CLKC_RESET, 0);
    qtest_clock_step(qts, EOF_NS + 2);
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW), ==, IRQ_EOF0);
    qtest_quit(qts);
}

/* Reads a binary PPM (P6) screendump into a newly allocated RGB array */
static uint8_t *read_ppm(const char *path, int *w, int *h)
{
    g_autofree char *data = NULL;
    gsize len;
    int maxval, hdr = 0;

    g_assert(g_file_get_contents(path, &data, &len, NULL));
    g_assert_cmpint(sscanf(data, "P6 %d %d %d%n", w, h, &maxval, &hdr), ==, 3);
    g_assert_cmpint(maxval, ==, 255);
    hdr++;      /* the single whitespace after maxval */
    g_assert_cmpint(len, ==, hdr + *w * *h * 3);
    return g_memdup2(data + hdr, *w * *h * 3);
}

static uint8_t *screendump(QTestState *qts, int *w, int *h)
{
    g_autofree char *file = NULL;
    int fd = g_file_open_tmp("am335x-lcdc-XXXXXX.ppm", &file, NULL);
    uint8_t *rgb;

    g_assert(fd >= 0);
    close(fd);
    qtest_qmp_assert_success(qts, "{'execute': 'screendump', 'arguments': "
                             "{'filename': %s}}", file);
    rgb = read_ppm(file, w, h);
    unlink(file);
    return rgb;
}

static void check_pixel(const uint8_t *rgb, int w, int x, int y,
                        uint8_t r, uint8_t g, uint8_t b)
{
    const uint8_t *p = rgb + (y * w + x) * 3;

    g_assert_cmphex(p[0], ==, r);
    g_assert_cmphex(p[1], ==, g);
    g_assert_cmphex(p[2], ==, b);
}

/*
 * The console shows the frame buffer as the board's panel would: 16-bit
 * pixels with bits 15:11 on the lines a straight-wired panel takes as red,
 * the first byte of 24-bit pixels on those same lines, red and blue
 * swapped on the EVM's crossed panel.
 */
static void test_display(gconstpointer data)
{
    const char *machine = data;
    bool crossed = !strcmp(machine, "am335x-evm");
    QTestState *qts = start(machine);
    uint16_t px16[COLS * ROWS];
    uint32_t px32[COLS * ROWS];
    uint8_t *rgb;
    int w, h;

    /* 16 bpp: left half 0xf800, right half 0x07e0, last row 0x001f */
    for (int i = 0; i < COLS * ROWS; i++) {
        uint16_t v = (i % COLS) < COLS / 2 ? 0xf800 : 0x07e0;

        px16[i] = cpu_to_le16(i >= COLS * (ROWS - 1) ? 0x001f : v);
    }
    qtest_memwrite(qts, FB_ADDR, px16, sizeof(px16));
    load_palette(qts, false);
    lcdc_write(qts, FB0_BASE, FB_ADDR);
    lcdc_write(qts, FB0_CEILING, FB_ADDR + sizeof(px16));
    lcdc_write(qts, RASTER_CTRL, LCDTFT | PALMODE(DATA_ONLY) | LCDEN);
    qtest_clock_step(qts, EOF_NS + 2);

    rgb = screendump(qts, &w, &h);
    g_assert_cmpint(w, ==, COLS);
    g_assert_cmpint(h, ==, ROWS);
    check_pixel(rgb, w, 0, 0, crossed ? 0 : 0xff, 0, crossed ? 0xff : 0);
    check_pixel(rgb, w, COLS - 1, ROWS - 2, 0, 0xff, 0);
    check_pixel(rgb, w, 5, ROWS - 1, crossed ? 0xff : 0, 0,
                crossed ? 0 : 0xff);
    g_free(rgb);

    /* 24 bpp unpacked: bytes 0x11, 0x22, 0x33 in each word */
    for (int i = 0; i < COLS * ROWS; i++) {
        px32[i] = cpu_to_le32(0x00332211);
    }
    qtest_memwrite(qts, FB_ADDR, px32, sizeof(px32));
    lcdc_write(qts, FB0_CEILING, FB_ADDR + sizeof(px32));
    lcdc_write(qts, RASTER_CTRL, LCDTFT | PALMODE(DATA_ONLY) | TFT24 |
               TFT24UNPACKED | LCDEN);
    qtest_clock_step(qts, 2 * FRAME_NS);
    rgb = screendump(qts, &w, &h);
    check_pixel(rgb, w, 7, 9, crossed ? 0x33 : 0x11, 0x22,
                crossed ? 0x11 : 0x33);
    g_free(rgb);

    /* The raster stopped: the panel goes black */
    lcdc_write(qts, RASTER_CTRL, LCDTFT);
    qtest_clock_step(qts, 2 * FRAME_NS);
    rgb = screendump(qts, &w, &h);
    check_pixel(rgb, w, 7, 9, 0, 0, 0);
    g_free(rgb);
    qtest_quit(qts);
}

/* 8 bpp through the palette loaded with the frame's data */
static void test_display_8bpp(void)
{
    QTestState *qts = start("beaglebone-black");
    uint8_t buf[512 + COLS * ROWS];
    uint16_t *pal = (uint16_t *)buf;
    uint8_t *rgb;
    int w, h;

    memset(buf, 0, sizeof(buf));
    pal[0] = cpu_to_le16(0x3000);               /* 8 bpp, black */
    pal[7] = cpu_to_le16(0x0f80);               /* red 15, green 8 */
    for (int i = 0; i < COLS * ROWS; i++) {
        buf[512 + i] = (i / COLS) == 3 ? 7 : 0;
    }
    qtest_memwrite(qts, FB_ADDR, buf, sizeof(buf));
    lcdc_write(qts, FB0_BASE, FB_ADDR);
    lcdc_write(qts, FB0_CEILING, FB_ADDR + sizeof(buf) - 1);
    lcdc_write(qts, RASTER_CTRL, LCDTFT | PALMODE(PAL_AND_DATA) | LCDEN);
    qtest_clock_step(qts, EOF_NS + 2);
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW) & IRQ_FUF, ==, 0);
    rgb = screendump(qts, &w, &h);
    check_pixel(rgb, w, 10, 3, 0xff, 0x88, 0);
    check_pixel(rgb, w, 10, 4, 0, 0, 0);
    g_free(rgb);
    qtest_quit(qts);
}

/* A frame under way when the machine migrates ends on time */
static void test_migration(void)
{
    QTestState *qts = start("beaglebone-black");
    int64_t eof;

    lcdc_write(qts, IRQENABLE_SET, IRQ_EOF0);
    start_16bpp(qts);
    /* The clock after the step, less the half EOF time, is the start */
    eof = qtest_clock_step(qts, EOF_NS / 2) - EOF_NS / 2 + EOF_NS;

    qts = am335x_migrate(qts, "-M beaglebone-black");
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW), ==, 0);
    /*
     * qtest's virtual clock starts again from 0 on the destination, where
     * the frame's timer keeps its deadline.
     */
    qtest_clock_step(qts, eof - SLACK);
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS_RAW), ==, 0);
    qtest_clock_step(qts, 2 * SLACK);
    g_assert_cmphex(lcdc_read(qts, IRQSTATUS), ==, IRQ_EOF0);
    g_assert_cmphex(lcdc_read(qts, RASTER_CTRL) & LCDEN, ==, LCDEN);
    qtest_quit(qts);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/am335x-lcdc/reset-values", test_reset_values);
    qtest_add_func("/am335x-lcdc/frame-timing", test_frame_timing);
    qtest_add_func("/am335x-lcdc/irq", test_irq);
    qtest_add_func("/am335x-lcdc/dual-fb", test_dual_fb);
    qtest_add_func("/am335x-lcdc/palette-and-data", test_palette_and_data);
    qtest_add_func("/am335x-lcdc/underflow", test_underflow);
    qtest_add_func("/am335x-lcdc/clock-and-reset", test_clock_and_reset);
    qtest_add_data_func("/am335x-lcdc/display/beaglebone-black",
                        "beaglebone-black", test_display);
    qtest_add_data_func("/am335x-lcdc/display/am335x-evm", "am335x-evm",
                        test_display);
    qtest_add_func("/am335x-lcdc/display-8bpp", test_display_8bpp);
    qtest_add_func("/am335x-lcdc/migration", test_migration);
    return g_test_run();
}
