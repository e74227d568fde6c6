/*
 * TI AM335x LCD controller (LCDC)
 *
 * The raster side of the LCDC: a DMA engine reads the frame buffer (one,
 * or two in turn) from memory and the raster engine sends it to an active
 * matrix (TFT) panel, line after line, with the horizontal and vertical
 * timings of RASTER_TIMING_0-2 at the pixel clock, LCD_CLK / CTRL.CLKDIV.
 * LCD_CLK is the functional clock the PRCM's CLKSEL_LCDC_PIXEL_CLK mux
 * selects (DPLL_DISP M2 on both boards).
 *
 * A frame, on the virtual clock, with htotal = PPL + HFP + HBP + HSW pixel
 * clocks per line:
 *  - at its start the DMA latches the frame buffer's base and ceiling and
 *    the format; with RASTER_CTRL.PALMODE asking for it, it first loads the
 *    palette from the start of the buffer (32 bytes, 512 at 8 bpp) and
 *    raises PL;
 *  - after VSW + VBP + LPP lines the DMA has fetched the frame's data and
 *    raises EOF0 (EOF1 for frame buffer 1 in dual frame buffer mode);
 *  - after VSW + VBP + LPP + VFP lines the frame ends: RASTER_DONE; if
 *    software has cleared LCDEN meanwhile, the raster stops and raises
 *    FRAME_DONE, otherwise the next frame starts.
 * A buffer shorter than the frame, or one outside RAM, underflows the
 * FIFO (FUF); the panel shows black where no data came.
 *
 * Pixel formats: entry 0 of the palette gives the bits per pixel (bits
 * 14:12); 8 bpp goes through the 256-entry palette of 12-bit colours,
 * "12/16/24 bpp" means 16-bit pixels, or 24 bpp (RASTER_CTRL.TFT24) packed
 * or unpacked in 32-bit words (TFT24UNPACKED).  The LCDC puts a 16-bit
 * pixel on LCD_DATA[15:0] as it is in memory, so bits 15:11 land on the
 * lines a panel wired for 16-bit colour takes as red; but in the 24-bit
 * modes the byte at the lowest address lands on those red lines (the
 * AM335x errata about its 24-bit colour wiring; Linux's tilcdc binding
 * describes it).  Boards wire the panel either "straight" or with red and
 * blue "crossed" to suit 24-bit colour; the rb-crossed property says
 * which, and the console shows what that panel would show.
 *
 * Not modelled: the LIDD (character LCD) interface, whose registers are
 * kept; passive (STN) panels, shown as TFT; 1, 2 and 4 bpp, shown black;
 * sub-panel mode; big-endian and byte-swapped DMA; AC bias.
 *
 * Reference: AM335x Technical Reference Manual (SPRUH73), chapter 13.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "exec/address-spaces.h"
#include "hw/display/am335x_lcdc.h"
#include "ui/console.h"
#include "hw/display/framebuffer.h"
#include "hw/irq.h"
#include "hw/qdev-clock.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "ui/pixel_ops.h"
#include "trace.h"

/* TRM table 13-13 */
REG32(PID, 0x00)
REG32(CTRL, 0x04)
    FIELD(CTRL, MODESEL, 0, 1)
    FIELD(CTRL, AUTO_UFLOW_RESTART, 1, 1)
    FIELD(CTRL, CLKDIV, 8, 8)
REG32(LIDD_CTRL, 0x0c)
REG32(LIDD_CS0_CONF, 0x10)
REG32(LIDD_CS0_ADDR, 0x14)
REG32(LIDD_CS0_DATA, 0x18)
REG32(LIDD_CS1_CONF, 0x1c)
REG32(LIDD_CS1_ADDR, 0x20)
REG32(LIDD_CS1_DATA, 0x24)
REG32(RASTER_CTRL, 0x28)
    FIELD(RASTER_CTRL, LCDEN, 0, 1)
    FIELD(RASTER_CTRL, LCDBW, 1, 1)
    FIELD(RASTER_CTRL, LCDTFT, 7, 1)
    FIELD(RASTER_CTRL, PALMODE, 20, 2)
    FIELD(RASTER_CTRL, TFT24, 25, 1)
    FIELD(RASTER_CTRL, TFT24UNPACKED, 26, 1)
REG32(RASTER_TIMING_0, 0x2c)
    FIELD(RASTER_TIMING_0, PPLMSB, 3, 1)
    FIELD(RASTER_TIMING_0, PPLLSB, 4, 6)
    FIELD(RASTER_TIMING_0, HSW, 10, 6)
    FIELD(RASTER_TIMING_0, HFP, 16, 8)
    FIELD(RASTER_TIMING_0, HBP, 24, 8)
REG32(RASTER_TIMING_1, 0x30)
    FIELD(RASTER_TIMING_1, LPP, 0, 10)
    FIELD(RASTER_TIMING_1, VSW, 10, 6)
    FIELD(RASTER_TIMING_1, VFP, 16, 8)
    FIELD(RASTER_TIMING_1, VBP, 24, 8)
REG32(RASTER_TIMING_2, 0x34)
    FIELD(RASTER_TIMING_2, HFP_HIGHBITS, 0, 2)
    FIELD(RASTER_TIMING_2, HBP_HIGHBITS, 4, 2)
    FIELD(RASTER_TIMING_2, LPP_B10, 26, 1)
    FIELD(RASTER_TIMING_2, HSW_HIGHBITS, 27, 4)
REG32(RASTER_SUBPANEL, 0x38)
REG32(RASTER_SUBPANEL2, 0x3c)
REG32(LCDDMA_CTRL, 0x40)
    FIELD(LCDDMA_CTRL, FRAME_MODE, 0, 1)
    FIELD(LCDDMA_CTRL, BIGENDIAN, 1, 1)
    FIELD(LCDDMA_CTRL, BYTE_SWAP, 3, 1)
REG32(LCDDMA_FB0_BASE, 0x44)
REG32(LCDDMA_FB0_CEILING, 0x48)
REG32(LCDDMA_FB1_BASE, 0x4c)
REG32(LCDDMA_FB1_CEILING, 0x50)
REG32(SYSCONFIG, 0x54)
REG32(IRQSTATUS_RAW, 0x58)
REG32(IRQSTATUS, 0x5c)
REG32(IRQENABLE_SET, 0x60)
REG32(IRQENABLE_CLEAR, 0x64)
REG32(IRQEOI_VECTOR, 0x68)
REG32(CLKC_ENABLE, 0x6c)
    FIELD(CLKC_ENABLE, CORE, 0, 1)
    FIELD(CLKC_ENABLE, LIDD, 1, 1)
    FIELD(CLKC_ENABLE, DMA, 2, 1)
REG32(CLKC_RESET, 0x70)
    FIELD(CLKC_RESET, CORE, 0, 1)
    FIELD(CLKC_RESET, LIDD, 1, 1)
    FIELD(CLKC_RESET, DMA, 2, 1)
    FIELD(CLKC_RESET, MAIN, 3, 1)

/* The AM335x LCDC's PID (tilcdc and ti-sysc know it as revision 2) */
#define LCDC_PID                0x4f201000

/* Interrupt bits of IRQSTATUS_RAW and the other interrupt registers */
#define IRQ_FRAME_DONE          BIT(0)
#define IRQ_RASTER_DONE         BIT(1)
#define IRQ_SYNC_LOST           BIT(2)
#define IRQ_ACB                 BIT(3)
#define IRQ_FUF                 BIT(5)
#define IRQ_PL                  BIT(6)
#define IRQ_EOF0                BIT(8)
#define IRQ_EOF1                BIT(9)
#define IRQ_ALL                 0x36f

/* Writable bits */
#define CTRL_MASK               0xff03
#define LIDD_CTRL_MASK          0x3ff
#define RASTER_CTRL_MASK        0x07fff383
#define RASTER_TIMING_0_MASK    0xfffffff8
#define RASTER_TIMING_2_MASK    0x7fffff33
#define LCDDMA_CTRL_MASK        0x0007077b
#define SYSCONFIG_MASK          0x3c
#define CLKC_ENABLE_MASK        0x7
#define CLKC_RESET_MASK         0xf

/* RASTER_CTRL.PALMODE */
#define PALMODE_PALETTE_AND_DATA    0
#define PALMODE_PALETTE_ONLY        1
#define PALMODE_DATA_ONLY           2

/* Palette entry 0, bits 14:12: the frame's bits per pixel */
#define PALETTE_BPP_SHIFT       12
#define PALETTE_BPP_MASK        0x7
/* Palette sizes in bytes (TRM 13.3.5.3) */
#define PALETTE_BYTES_8BPP      512
#define PALETTE_BYTES_OTHER     32

static bool am335x_lcdc_in_reset(AM335xLcdcState *s)
{
    return s->clkc_reset & (R_CLKC_RESET_MAIN_MASK | R_CLKC_RESET_CORE_MASK |
                            R_CLKC_RESET_DMA_MASK);
}

/* The raster runs in raster mode with its core clock on and out of reset */
static bool am335x_lcdc_can_run(AM335xLcdcState *s)
{
    return FIELD_EX32(s->ctrl, CTRL, MODESEL) &&
           FIELD_EX32(s->clkc_enable, CLKC_ENABLE, CORE) &&
           !am335x_lcdc_in_reset(s) && clock_is_enabled(s->fclk);
}

static void am335x_lcdc_update_irq(AM335xLcdcState *s)
{
    bool level = s->irq_raw & s->irq_enable;

    trace_am335x_lcdc_irq(s->irq_raw, s->irq_enable, level);
    qemu_set_irq(s->irq, level);
}

static void am335x_lcdc_raise(AM335xLcdcState *s, uint32_t bits)
{
    s->irq_raw |= bits;
    am335x_lcdc_update_irq(s);
}

/* The frame geometry, decoded from RASTER_TIMING_0-2 (TRM 13.5.1.10-12) */
static uint32_t am335x_lcdc_ppl(AM335xLcdcState *s)
{
    uint32_t t0 = s->raster_timing[0];

    return ((FIELD_EX32(t0, RASTER_TIMING_0, PPLLSB) |
             FIELD_EX32(t0, RASTER_TIMING_0, PPLMSB) << 6) + 1) * 16;
}

static uint32_t am335x_lcdc_lpp(AM335xLcdcState *s)
{
    return (FIELD_EX32(s->raster_timing[1], RASTER_TIMING_1, LPP) |
            FIELD_EX32(s->raster_timing[2], RASTER_TIMING_2, LPP_B10) << 10)
           + 1;
}

static uint64_t am335x_lcdc_htotal(AM335xLcdcState *s)
{
    uint32_t t0 = s->raster_timing[0], t2 = s->raster_timing[2];
    uint32_t hfp = FIELD_EX32(t0, RASTER_TIMING_0, HFP) |
                   FIELD_EX32(t2, RASTER_TIMING_2, HFP_HIGHBITS) << 8;
    uint32_t hbp = FIELD_EX32(t0, RASTER_TIMING_0, HBP) |
                   FIELD_EX32(t2, RASTER_TIMING_2, HBP_HIGHBITS) << 8;
    uint32_t hsw = FIELD_EX32(t0, RASTER_TIMING_0, HSW) |
                   FIELD_EX32(t2, RASTER_TIMING_2, HSW_HIGHBITS) << 6;

    /* Each field holds its width minus one */
    return am335x_lcdc_ppl(s) + hfp + 1 + hbp + 1 + hsw + 1;
}

/* Lines from the frame's start to the end of its data, and to its end */
static uint64_t am335x_lcdc_active_lines(AM335xLcdcState *s)
{
    uint32_t t1 = s->raster_timing[1];

    return FIELD_EX32(t1, RASTER_TIMING_1, VSW) + 1 +
           FIELD_EX32(t1, RASTER_TIMING_1, VBP) + am335x_lcdc_lpp(s);
}

static uint64_t am335x_lcdc_total_lines(AM335xLcdcState *s)
{
    return am335x_lcdc_active_lines(s) +
           FIELD_EX32(s->raster_timing[1], RASTER_TIMING_1, VFP);
}

/* Virtual time of @lines lines at the current pixel clock */
static int64_t am335x_lcdc_lines_ns(AM335xLcdcState *s, uint64_t lines)
{
    /* CLKDIV 0 and 1 are not valid in raster mode; the divider is >= 1 */
    uint64_t div = MAX(FIELD_EX32(s->ctrl, CTRL, CLKDIV), 1);

    return clock_ticks_to_ns(s->fclk, div * am335x_lcdc_htotal(s) * lines);
}

static uint32_t am335x_lcdc_bpp(AM335xLcdcState *s)
{
    switch ((s->palette[0] >> PALETTE_BPP_SHIFT) & PALETTE_BPP_MASK) {
    case 0:
        return 1;
    case 1:
        return 2;
    case 2:
        return 4;
    case 3:
        return 8;
    default:
        if (!FIELD_EX32(s->raster_ctrl, RASTER_CTRL, TFT24)) {
            return 16;
        }
        return FIELD_EX32(s->raster_ctrl, RASTER_CTRL, TFT24UNPACKED) ? 32
                                                                      : 24;
    }
}

/* Whether [addr, addr + len) is all RAM, where the DMA can read it */
static bool am335x_lcdc_ram(hwaddr addr, uint64_t len)
{
    MemoryRegionSection sec;
    bool ok;

    if (len == 0) {
        return true;
    }
    sec = memory_region_find(get_system_memory(), addr, len);
    ok = sec.mr && memory_region_is_ram(sec.mr) &&
         int128_get64(sec.size) >= len;
    if (sec.mr) {
        memory_region_unref(sec.mr);
    }
    return ok;
}

/*
 * The DMA loads the palette from the start of the frame buffer.  Entry 0
 * says the bits per pixel, which say how many entries there are.
 */
static bool am335x_lcdc_load_palette(AM335xLcdcState *s, uint32_t base,
                                     uint32_t avail, uint32_t *bytes)
{
    uint16_t entries[AM335X_LCDC_PALETTE_SIZE];
    uint32_t len = PALETTE_BYTES_OTHER;

    if (avail < 2 || address_space_read(&address_space_memory, base,
                                        MEMTXATTRS_UNSPECIFIED, entries, 2)) {
        return false;
    }
    if (((le16_to_cpu(entries[0]) >> PALETTE_BPP_SHIFT) &
         PALETTE_BPP_MASK) == 3) {
        len = PALETTE_BYTES_8BPP;
    }
    if (avail < len || address_space_read(&address_space_memory, base,
                                          MEMTXATTRS_UNSPECIFIED, entries,
                                          len)) {
        return false;
    }
    for (uint32_t i = 0; i < len / 2; i++) {
        s->palette[i] = le16_to_cpu(entries[i]);
    }
    *bytes = len;
    return true;
}

static void am335x_lcdc_stop(AM335xLcdcState *s)
{
    timer_del(&s->frame_timer);
    s->phase = AM335X_LCDC_IDLE;
    if (s->scan_valid) {
        s->scan_valid = false;
        s->invalidate = true;
    }
}

/* A frame starts at @now: latch the buffer, load the palette, fetch */
static void am335x_lcdc_frame_begin(AM335xLcdcState *s, int64_t now)
{
    uint32_t fb = FIELD_EX32(s->dma_ctrl, LCDDMA_CTRL, FRAME_MODE) ?
                  s->next_fb : 0;
    uint32_t palmode = FIELD_EX32(s->raster_ctrl, RASTER_CTRL, PALMODE);
    uint32_t base = s->fb_base[fb], ceiling = s->fb_ceiling[fb];
    uint32_t avail = 0, pal_bytes = 0, bpp, cols, rows;
    uint64_t need;
    bool underflow = false;

    if (!FIELD_EX32(s->clkc_enable, CLKC_ENABLE, DMA)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: raster enabled with the DMA "
                      "clock off (CLKC_ENABLE.DMA)\n", __func__);
        underflow = true;
    } else if (ceiling < base) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: FB%u ceiling 0x%08x below its "
                      "base 0x%08x\n", __func__, fb, ceiling, base);
        underflow = true;
    } else {
        /* The ceiling is the address of the buffer's last word */
        avail = ceiling - base + 4;
    }
    if (FIELD_EX32(s->dma_ctrl, LCDDMA_CTRL, BIGENDIAN) ||
        FIELD_EX32(s->dma_ctrl, LCDDMA_CTRL, BYTE_SWAP)) {
        qemu_log_mask(LOG_UNIMP, "%s: big-endian or byte-swapped DMA\n",
                      __func__);
    }

    if (!underflow && palmode != PALMODE_DATA_ONLY) {
        if (am335x_lcdc_load_palette(s, base, avail, &pal_bytes)) {
            s->irq_raw |= IRQ_PL;
            s->invalidate = true;
        } else {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: cannot load the palette "
                          "from 0x%08x\n", __func__, base);
            underflow = true;
        }
    }

    s->frame_start = now;
    if (palmode == PALMODE_PALETTE_ONLY) {
        /* No data: the raster sends the frame's timing only */
        if (s->scan_valid) {
            s->scan_valid = false;
            s->invalidate = true;
        }
        s->phase = AM335X_LCDC_BLANK;
        if (underflow) {
            s->irq_raw |= IRQ_FUF;
        }
        am335x_lcdc_update_irq(s);
        timer_mod(&s->frame_timer,
                  now + am335x_lcdc_lines_ns(s, am335x_lcdc_total_lines(s)));
        return;
    }

    bpp = am335x_lcdc_bpp(s);
    cols = am335x_lcdc_ppl(s);
    rows = am335x_lcdc_lpp(s);
    need = (uint64_t)cols * rows * bpp / 8;
    if (bpp < 8) {
        qemu_log_mask(LOG_UNIMP, "%s: %u bits per pixel, shown black\n",
                      __func__, bpp);
    }
    if (!FIELD_EX32(s->raster_ctrl, RASTER_CTRL, LCDTFT)) {
        qemu_log_mask(LOG_UNIMP, "%s: passive (STN) panel, shown as TFT\n",
                      __func__);
    }
    if (!underflow) {
        avail -= pal_bytes;
        base += pal_bytes;
        if (avail < need) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: FB%u holds %u bytes, the "
                          "frame needs %" PRIu64 "\n", __func__, fb, avail,
                          need);
            underflow = true;
        }
        if (!am335x_lcdc_ram(base, MIN(avail, need))) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: FB%u at 0x%08x is not in "
                          "RAM\n", __func__, fb, base);
            underflow = true;
            avail = 0;
        }
    }
    if (!s->scan_valid || s->scan_base != base || s->scan_bpp != bpp ||
        s->scan_cols != cols || s->scan_rows != rows ||
        s->scan_len != MIN(avail, need)) {
        s->invalidate = true;
    }
    s->scan_valid = avail > 0 && bpp >= 8;
    s->scan_base = base;
    s->scan_len = MIN(avail, need);
    s->scan_bpp = bpp;
    s->scan_cols = cols;
    s->scan_rows = rows;
    s->phase = AM335X_LCDC_ACTIVE;
    if (underflow) {
        s->irq_raw |= IRQ_FUF;
    }
    am335x_lcdc_update_irq(s);
    trace_am335x_lcdc_frame(fb, base, bpp, cols, rows);
    timer_mod(&s->frame_timer,
              now + am335x_lcdc_lines_ns(s, am335x_lcdc_active_lines(s)));
}

/* End of the data (EOF) or of the frame */
static void am335x_lcdc_timer(void *opaque)
{
    AM335xLcdcState *s = AM335X_LCDC(opaque);
    int64_t end;

    switch (s->phase) {
    case AM335X_LCDC_ACTIVE:
        if (FIELD_EX32(s->dma_ctrl, LCDDMA_CTRL, FRAME_MODE)) {
            s->irq_raw |= s->next_fb ? IRQ_EOF1 : IRQ_EOF0;
            s->next_fb ^= 1;
        } else {
            s->irq_raw |= IRQ_EOF0;
        }
        s->phase = AM335X_LCDC_BLANK;
        am335x_lcdc_update_irq(s);
        timer_mod(&s->frame_timer, s->frame_start +
                  am335x_lcdc_lines_ns(s, am335x_lcdc_total_lines(s)));
        break;
    case AM335X_LCDC_BLANK:
        end = s->frame_start +
              am335x_lcdc_lines_ns(s, am335x_lcdc_total_lines(s));
        s->irq_raw |= IRQ_RASTER_DONE;
        if (FIELD_EX32(s->raster_ctrl, RASTER_CTRL, LCDEN) &&
            am335x_lcdc_can_run(s)) {
            am335x_lcdc_frame_begin(s, end);
        } else {
            am335x_lcdc_stop(s);
            s->irq_raw |= IRQ_FRAME_DONE;
            am335x_lcdc_update_irq(s);
        }
        break;
    default:
        break;
    }
}

/*
 * LCDEN or a condition of the raster changed.  Setting LCDEN starts a
 * frame unless one is still under way; clearing it lets the current frame
 * finish.  Losing the clock or entering reset stops the raster at once.
 */
static void am335x_lcdc_kick(AM335xLcdcState *s)
{
    bool run = am335x_lcdc_can_run(s);

    if (!run) {
        if (s->phase != AM335X_LCDC_IDLE) {
            am335x_lcdc_stop(s);
        }
        return;
    }
    if (FIELD_EX32(s->raster_ctrl, RASTER_CTRL, LCDEN) &&
        s->phase == AM335X_LCDC_IDLE) {
        s->next_fb = 0;
        am335x_lcdc_frame_begin(s, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
    }
}

static uint64_t am335x_lcdc_read(void *opaque, hwaddr offset, unsigned size)
{
    AM335xLcdcState *s = AM335X_LCDC(opaque);
    uint32_t v;

    switch (offset) {
    case A_PID:
        v = LCDC_PID;
        break;
    case A_CTRL:
        v = s->ctrl;
        break;
    case A_LIDD_CTRL:
        v = s->lidd_ctrl;
        break;
    case A_LIDD_CS0_CONF:
    case A_LIDD_CS1_CONF:
        v = s->lidd_cs_conf[(offset - A_LIDD_CS0_CONF) / 12];
        break;
    case A_LIDD_CS0_ADDR:
    case A_LIDD_CS1_ADDR:
        v = s->lidd_cs_addr[(offset - A_LIDD_CS0_ADDR) / 12];
        break;
    case A_LIDD_CS0_DATA:
    case A_LIDD_CS1_DATA:
        v = s->lidd_cs_data[(offset - A_LIDD_CS0_DATA) / 12];
        break;
    case A_RASTER_CTRL:
        v = s->raster_ctrl;
        break;
    case A_RASTER_TIMING_0:
    case A_RASTER_TIMING_1:
    case A_RASTER_TIMING_2:
        v = s->raster_timing[(offset - A_RASTER_TIMING_0) / 4];
        break;
    case A_RASTER_SUBPANEL:
        v = s->subpanel;
        break;
    case A_RASTER_SUBPANEL2:
        v = s->subpanel2;
        break;
    case A_LCDDMA_CTRL:
        v = s->dma_ctrl;
        break;
    case A_LCDDMA_FB0_BASE:
    case A_LCDDMA_FB1_BASE:
        v = s->fb_base[(offset - A_LCDDMA_FB0_BASE) / 8];
        break;
    case A_LCDDMA_FB0_CEILING:
    case A_LCDDMA_FB1_CEILING:
        v = s->fb_ceiling[(offset - A_LCDDMA_FB0_CEILING) / 8];
        break;
    case A_SYSCONFIG:
        v = s->sysconfig;
        break;
    case A_IRQSTATUS_RAW:
        v = s->irq_raw;
        break;
    case A_IRQSTATUS:
        v = s->irq_raw & s->irq_enable;
        break;
    case A_IRQENABLE_SET:
    case A_IRQENABLE_CLEAR:
        v = s->irq_enable;
        break;
    case A_IRQEOI_VECTOR:
        v = 0;
        break;
    case A_CLKC_ENABLE:
        v = s->clkc_enable;
        break;
    case A_CLKC_RESET:
        v = s->clkc_reset;
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: bad offset 0x%" HWADDR_PRIx "\n",
                      __func__, offset);
        v = 0;
        break;
    }
    trace_am335x_lcdc_read(offset, v);
    return v;
}

static void am335x_lcdc_write(void *opaque, hwaddr offset, uint64_t value,
                              unsigned size)
{
    AM335xLcdcState *s = AM335X_LCDC(opaque);
    uint32_t v = value;

    trace_am335x_lcdc_write(offset, v);
    switch (offset) {
    case A_PID:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: PID is read-only\n", __func__);
        break;
    case A_CTRL:
        s->ctrl = v & CTRL_MASK;
        if (!FIELD_EX32(s->ctrl, CTRL, MODESEL)) {
            qemu_log_mask(LOG_UNIMP, "%s: LIDD mode is not modelled\n",
                          __func__);
        }
        am335x_lcdc_kick(s);
        break;
    case A_LIDD_CTRL:
        s->lidd_ctrl = v & LIDD_CTRL_MASK;
        break;
    case A_LIDD_CS0_CONF:
    case A_LIDD_CS1_CONF:
        s->lidd_cs_conf[(offset - A_LIDD_CS0_CONF) / 12] = v;
        break;
    case A_LIDD_CS0_ADDR:
    case A_LIDD_CS1_ADDR:
        s->lidd_cs_addr[(offset - A_LIDD_CS0_ADDR) / 12] = v & 0xffff;
        break;
    case A_LIDD_CS0_DATA:
    case A_LIDD_CS1_DATA:
        s->lidd_cs_data[(offset - A_LIDD_CS0_DATA) / 12] = v & 0xffff;
        break;
    case A_RASTER_CTRL:
        s->raster_ctrl = v & RASTER_CTRL_MASK;
        am335x_lcdc_kick(s);
        break;
    case A_RASTER_TIMING_0:
        s->raster_timing[0] = v & RASTER_TIMING_0_MASK;
        break;
    case A_RASTER_TIMING_1:
        s->raster_timing[1] = v;
        break;
    case A_RASTER_TIMING_2:
        s->raster_timing[2] = v & RASTER_TIMING_2_MASK;
        break;
    case A_RASTER_SUBPANEL:
        s->subpanel = v & 0xffff0ffb;
        break;
    case A_RASTER_SUBPANEL2:
        s->subpanel2 = v & 0x1ff;
        break;
    case A_LCDDMA_CTRL:
        s->dma_ctrl = v & LCDDMA_CTRL_MASK;
        break;
    case A_LCDDMA_FB0_BASE:
    case A_LCDDMA_FB1_BASE:
        s->fb_base[(offset - A_LCDDMA_FB0_BASE) / 8] = v & ~3u;
        break;
    case A_LCDDMA_FB0_CEILING:
    case A_LCDDMA_FB1_CEILING:
        s->fb_ceiling[(offset - A_LCDDMA_FB0_CEILING) / 8] = v & ~3u;
        break;
    case A_SYSCONFIG:
        s->sysconfig = v & SYSCONFIG_MASK;
        break;
    case A_IRQSTATUS_RAW:
        /* Writing 1 sets a bit, for software to test its handler */
        am335x_lcdc_raise(s, v & IRQ_ALL);
        break;
    case A_IRQSTATUS:
        s->irq_raw &= ~(v & IRQ_ALL);
        am335x_lcdc_update_irq(s);
        break;
    case A_IRQENABLE_SET:
        s->irq_enable |= v & IRQ_ALL;
        am335x_lcdc_update_irq(s);
        break;
    case A_IRQENABLE_CLEAR:
        s->irq_enable &= ~(v & IRQ_ALL);
        am335x_lcdc_update_irq(s);
        break;
    case A_IRQEOI_VECTOR:
        /* The interrupt output is a level: nothing to re-arm */
        break;
    case A_CLKC_ENABLE:
        s->clkc_enable = v & CLKC_ENABLE_MASK;
        am335x_lcdc_kick(s);
        break;
    case A_CLKC_RESET:
        s->clkc_reset = v & CLKC_RESET_MASK;
        if (FIELD_EX32(s->clkc_reset, CLKC_RESET, MAIN)) {
            /* The whole module in reset: no frame, nothing pending */
            s->irq_raw = 0;
            am335x_lcdc_update_irq(s);
        }
        am335x_lcdc_kick(s);
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: bad offset 0x%" HWADDR_PRIx "\n",
                      __func__, offset);
        break;
    }
}

static const MemoryRegionOps am335x_lcdc_ops = {
    .read = am335x_lcdc_read,
    .write = am335x_lcdc_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 4,
    .valid.max_access_size = 4,
};

/* Output components, 8 bits each, as the board's panel sees them */
static inline uint32_t am335x_lcdc_rgb(AM335xLcdcState *s, unsigned r,
                                       unsigned g, unsigned b)
{
    return s->rb_crossed ? rgb_to_pixel32(b, g, r) : rgb_to_pixel32(r, g, b);
}

static void am335x_lcdc_draw_8(void *opaque, uint8_t *d, const uint8_t *src,
                               int width, int deststep)
{
    AM335xLcdcState *s = opaque;
    uint32_t *dst = (uint32_t *)d;

    for (int x = 0; x < width; x++) {
        uint16_t e = s->palette[src[x]];

        /* 12-bit entries: red 11:8, green 7:4, blue 3:0 */
        dst[x] = am335x_lcdc_rgb(s, ((e >> 8) & 0xf) * 0x11,
                                 ((e >> 4) & 0xf) * 0x11, (e & 0xf) * 0x11);
    }
}

static void am335x_lcdc_draw_16(void *opaque, uint8_t *d, const uint8_t *src,
                                int width, int deststep)
{
    AM335xLcdcState *s = opaque;
    uint32_t *dst = (uint32_t *)d;

    for (int x = 0; x < width; x++) {
        uint16_t p = lduw_le_p(src + 2 * x);
        unsigned r = (p >> 11) & 0x1f, g = (p >> 5) & 0x3f, b = p & 0x1f;

        dst[x] = am335x_lcdc_rgb(s, (r << 3) | (r >> 2), (g << 2) | (g >> 4),
                                 (b << 3) | (b >> 2));
    }
}

/* 24-bit modes: the byte at the lowest address drives LCD_DATA[7:0] */
static void am335x_lcdc_draw_24(void *opaque, uint8_t *d, const uint8_t *src,
                                int width, int deststep)
{
    AM335xLcdcState *s = opaque;
    uint32_t *dst = (uint32_t *)d;

    for (int x = 0; x < width; x++, src += 3) {
        dst[x] = am335x_lcdc_rgb(s, src[0], src[1], src[2]);
    }
}

static void am335x_lcdc_draw_32(void *opaque, uint8_t *d, const uint8_t *src,
                                int width, int deststep)
{
    AM335xLcdcState *s = opaque;
    uint32_t *dst = (uint32_t *)d;

    for (int x = 0; x < width; x++, src += 4) {
        dst[x] = am335x_lcdc_rgb(s, src[0], src[1], src[2]);
    }
}

static void am335x_lcdc_blank(AM335xLcdcState *s, DisplaySurface *surface)
{
    memset(surface_data(surface), 0,
           surface_stride(surface) * surface_height(surface));
    dpy_gfx_update_full(s->con);
}

static void am335x_lcdc_update_display(void *opaque)
{
    AM335xLcdcState *s = AM335X_LCDC(opaque);
    DisplaySurface *surface = qemu_console_surface(s->con);
    uint32_t src_width, rows;
    int first = 0, last;
    drawfn fn;

    if (!s->scan_valid) {
        if (s->invalidate) {
            am335x_lcdc_blank(s, surface);
            s->invalidate = false;
        }
        return;
    }
    if (surface_width(surface) != s->scan_cols ||
        surface_height(surface) != s->scan_rows) {
        qemu_console_resize(s->con, s->scan_cols, s->scan_rows);
        surface = qemu_console_surface(s->con);
        s->invalidate = true;
    }
    switch (s->scan_bpp) {
    case 8:
        fn = am335x_lcdc_draw_8;
        break;
    case 16:
        fn = am335x_lcdc_draw_16;
        break;
    case 24:
        fn = am335x_lcdc_draw_24;
        break;
    default:
        fn = am335x_lcdc_draw_32;
        break;
    }
    src_width = s->scan_cols * s->scan_bpp / 8;
    /* A short buffer shows its whole lines; the rest stays black */
    rows = s->scan_len / src_width;
    if (s->invalidate) {
        am335x_lcdc_blank(s, surface);
        if (rows) {
            framebuffer_update_memory_section(&s->fbsection,
                                              get_system_memory(),
                                              s->scan_base, rows, src_width);
        }
    }
    if (rows) {
        framebuffer_update_display(surface, &s->fbsection, s->scan_cols, rows,
                                   src_width, surface_stride(surface), 4,
                                   s->invalidate, fn, s, &first, &last);
        if (first >= 0) {
            dpy_gfx_update(s->con, 0, first, s->scan_cols, last - first + 1);
        }
    }
    s->invalidate = false;
}

static void am335x_lcdc_invalidate_display(void *opaque)
{
    AM335xLcdcState *s = AM335X_LCDC(opaque);

    s->invalidate = true;
}

static const GraphicHwOps am335x_lcdc_gfx_ops = {
    .invalidate = am335x_lcdc_invalidate_display,
    .gfx_update = am335x_lcdc_update_display,
};

/* The PRCM gated, ungated or changed LCD_CLK */
static void am335x_lcdc_clock_event(void *opaque, ClockEvent event)
{
    am335x_lcdc_kick(AM335X_LCDC(opaque));
}

static void am335x_lcdc_reset_enter(Object *obj, ResetType type)
{
    AM335xLcdcState *s = AM335X_LCDC(obj);

    am335x_lcdc_stop(s);
    s->ctrl = 0;
    s->lidd_ctrl = 0;
    memset(s->lidd_cs_conf, 0, sizeof(s->lidd_cs_conf));
    memset(s->lidd_cs_addr, 0, sizeof(s->lidd_cs_addr));
    memset(s->lidd_cs_data, 0, sizeof(s->lidd_cs_data));
    s->raster_ctrl = 0;
    memset(s->raster_timing, 0, sizeof(s->raster_timing));
    s->subpanel = 0;
    s->subpanel2 = 0;
    s->dma_ctrl = 0;
    memset(s->fb_base, 0, sizeof(s->fb_base));
    memset(s->fb_ceiling, 0, sizeof(s->fb_ceiling));
    s->sysconfig = 0;
    s->irq_raw = 0;
    s->irq_enable = 0;
    s->clkc_enable = 0;
    s->clkc_reset = 0;
    memset(s->palette, 0, sizeof(s->palette));
    s->frame_start = 0;
    s->next_fb = 0;
    s->scan_base = 0;
    s->scan_len = 0;
    s->scan_bpp = 0;
    s->scan_cols = 0;
    s->scan_rows = 0;
    s->invalidate = true;
}

static void am335x_lcdc_reset_hold(Object *obj, ResetType type)
{
    am335x_lcdc_update_irq(AM335X_LCDC(obj));
}

static void am335x_lcdc_realize(DeviceState *dev, Error **errp)
{
    AM335xLcdcState *s = AM335X_LCDC(dev);

    if (!clock_has_source(s->fclk)) {
        error_setg(errp, "%s: clock input '%s' is not connected",
                   TYPE_AM335X_LCDC, AM335X_LCDC_FCLK);
        return;
    }
    memory_region_init_io(&s->iomem, OBJECT(s), &am335x_lcdc_ops, s,
                          TYPE_AM335X_LCDC, AM335X_LCDC_MMIO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->iomem);
    s->con = graphic_console_init(dev, 0, &am335x_lcdc_gfx_ops, s);
}

static void am335x_lcdc_init(Object *obj)
{
    AM335xLcdcState *s = AM335X_LCDC(obj);

    timer_init_ns(&s->frame_timer, QEMU_CLOCK_VIRTUAL, am335x_lcdc_timer, s);
    s->fclk = qdev_init_clock_in(DEVICE(obj), AM335X_LCDC_FCLK,
                                 am335x_lcdc_clock_event, s, ClockUpdate);
    sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq);
}

static int am335x_lcdc_post_load(void *opaque, int version_id)
{
    AM335xLcdcState *s = AM335X_LCDC(opaque);

    if (s->phase > AM335X_LCDC_BLANK || s->next_fb > 1) {
        return -EINVAL;
    }
    if (s->scan_valid &&
        (s->scan_cols > 2048 || s->scan_rows > 2048 ||
         (s->scan_bpp != 8 && s->scan_bpp != 16 && s->scan_bpp != 24 &&
          s->scan_bpp != 32))) {
        return -EINVAL;
    }
    s->invalidate = true;
    return 0;
}

static const VMStateDescription vmstate_am335x_lcdc = {
    .name = TYPE_AM335X_LCDC,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = am335x_lcdc_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_TIMER(frame_timer, AM335xLcdcState),
        VMSTATE_CLOCK(fclk, AM335xLcdcState),
        VMSTATE_UINT32(ctrl, AM335xLcdcState),
        VMSTATE_UINT32(lidd_ctrl, AM335xLcdcState),
        VMSTATE_UINT32_ARRAY(lidd_cs_conf, AM335xLcdcState, 2),
        VMSTATE_UINT32_ARRAY(lidd_cs_addr, AM335xLcdcState, 2),
        VMSTATE_UINT32_ARRAY(lidd_cs_data, AM335xLcdcState, 2),
        VMSTATE_UINT32(raster_ctrl, AM335xLcdcState),
        VMSTATE_UINT32_ARRAY(raster_timing, AM335xLcdcState, 3),
        VMSTATE_UINT32(subpanel, AM335xLcdcState),
        VMSTATE_UINT32(subpanel2, AM335xLcdcState),
        VMSTATE_UINT32(dma_ctrl, AM335xLcdcState),
        VMSTATE_UINT32_ARRAY(fb_base, AM335xLcdcState, 2),
        VMSTATE_UINT32_ARRAY(fb_ceiling, AM335xLcdcState, 2),
        VMSTATE_UINT32(sysconfig, AM335xLcdcState),
        VMSTATE_UINT32(irq_raw, AM335xLcdcState),
        VMSTATE_UINT32(irq_enable, AM335xLcdcState),
        VMSTATE_UINT32(clkc_enable, AM335xLcdcState),
        VMSTATE_UINT32(clkc_reset, AM335xLcdcState),
        VMSTATE_UINT16_ARRAY(palette, AM335xLcdcState,
                             AM335X_LCDC_PALETTE_SIZE),
        VMSTATE_UINT32(phase, AM335xLcdcState),
        VMSTATE_INT64(frame_start, AM335xLcdcState),
        VMSTATE_UINT8(next_fb, AM335xLcdcState),
        VMSTATE_BOOL(scan_valid, AM335xLcdcState),
        VMSTATE_UINT32(scan_base, AM335xLcdcState),
        VMSTATE_UINT32(scan_len, AM335xLcdcState),
        VMSTATE_UINT32(scan_bpp, AM335xLcdcState),
        VMSTATE_UINT32(scan_cols, AM335xLcdcState),
        VMSTATE_UINT32(scan_rows, AM335xLcdcState),
        VMSTATE_END_OF_LIST()
    }
};

static const Property am335x_lcdc_properties[] = {
    DEFINE_PROP_BOOL("rb-crossed", AM335xLcdcState, rb_crossed, false),
};

static void am335x_lcdc_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->realize = am335x_lcdc_realize;
    dc->vmsd = &vmstate_am335x_lcdc;
    dc->desc = "TI AM335x LCD controller";
    device_class_set_props(dc, am335x_lcdc_properties);
    rc->phases.enter = am335x_lcdc_reset_enter;
    rc->phases.hold = am335x_lcdc_reset_hold;
}

static const TypeInfo am335x_lcdc_info = {
    .name = TYPE_AM335X_LCDC,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AM335xLcdcState),
    .instance_init = am335x_lcdc_init,
    .class_init = am335x_lcdc_class_init,
};

static void am335x_lcdc_register_types(void)
{
    type_register_static(&am335x_lcdc_info);
}

type_init(am335x_lcdc_register_types)
