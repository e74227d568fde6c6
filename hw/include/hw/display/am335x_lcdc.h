/*
 * TI AM335x LCD controller (LCDC)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_DISPLAY_AM335X_LCDC_H
#define HW_DISPLAY_AM335X_LCDC_H

#include "hw/sysbus.h"
#include "qemu/timer.h"
#include "qom/object.h"

#define TYPE_AM335X_LCDC "am335x-lcdc"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xLcdcState, AM335X_LCDC)

#define AM335X_LCDC_MMIO_SIZE       0x1000

/* The functional clock input (a Clock): LCD_PCLK from the PRCM's mux */
#define AM335X_LCDC_FCLK            "fclk"

/* The palette RAM: 256 entries of 12 bits (TRM 13.3.5.3) */
#define AM335X_LCDC_PALETTE_SIZE    256

/* Where the raster engine is in the current frame */
typedef enum {
    AM335X_LCDC_IDLE,       /* raster off, or the last frame has ended */
    AM335X_LCDC_ACTIVE,     /* fetching the frame's data */
    AM335X_LCDC_BLANK,      /* data fetched, waiting for the frame's end */
} AM335xLcdcPhase;

struct AM335xLcdcState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    QEMUTimer frame_timer;
    Clock *fclk;
    qemu_irq irq;
    QemuConsole *con;
    MemoryRegionSection fbsection;

    /* Board wiring: the panel has LCD_DATA's red and blue lines swapped */
    bool rb_crossed;

    uint32_t ctrl;
    uint32_t lidd_ctrl;
    uint32_t lidd_cs_conf[2];
    uint32_t lidd_cs_addr[2];
    uint32_t lidd_cs_data[2];
    uint32_t raster_ctrl;
    uint32_t raster_timing[3];
    uint32_t subpanel;
    uint32_t subpanel2;
    uint32_t dma_ctrl;
    uint32_t fb_base[2];
    uint32_t fb_ceiling[2];
    uint32_t sysconfig;
    uint32_t irq_raw;
    uint32_t irq_enable;
    uint32_t clkc_enable;
    uint32_t clkc_reset;
    uint16_t palette[AM335X_LCDC_PALETTE_SIZE];

    /* The raster engine */
    uint32_t phase;
    int64_t frame_start;        /* virtual ns */
    uint8_t next_fb;            /* the frame buffer the next frame reads */
    /* What the current frame shows, latched at its start */
    bool scan_valid;
    uint32_t scan_base;
    uint32_t scan_len;          /* bytes the DMA may read from scan_base */
    uint32_t scan_bpp;
    uint32_t scan_cols;
    uint32_t scan_rows;

    bool invalidate;            /* redraw everything on the next update */
};

#endif
