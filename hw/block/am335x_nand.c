/*
 * ONFI 1.0 SLC NAND flash on an AM335x GPMC chip select
 *
 * The default geometry and identification are those of the AM335x EVM's
 * Micron MT29F2G08ABAEAWP: 2 Gbit, x8, 2048 + 64 byte pages, 64 pages per
 * block, 2048 blocks, READ ID 2Ch DAh 90h 95h 06h, and an ONFI 1.0
 * parameter page (Micron datasheet "2Gb, 4Gb, 8Gb: x8, x16 NAND Flash
 * Memory", READ ID and READ PARAMETER PAGE tables).  The optional ONFI
 * commands (GET/SET FEATURES, cache operations) are not advertised.
 *
 * Commands: RESET (FFh), READ ID (90h, address 00h or 20h for "ONFI"),
 * READ PARAMETER PAGE (ECh), READ STATUS (70h), READ PAGE (00h-30h),
 * CHANGE READ COLUMN (05h-E0h), PROGRAM PAGE (80h-10h) with CHANGE WRITE
 * COLUMN (85h), ERASE BLOCK (60h-D0h).  Programming clears bits (the page
 * is ANDed into the array), erasing sets a block to FFh.
 *
 * Backing store: the "drive" property, a raw image of every page with its
 * spare bytes (blocks * pages * (page + oob) bytes; 276824064 for the
 * default).  An image shorter than that is extended with FFh (erased) at
 * realize.  Without a drive the array lives in memory, erased at start;
 * it is not migrated (the page register and the interface state are).
 *
 * R/B#: the "rb" output; array operations take t-read-ns / t-prog-ns /
 * t-erase-ns of virtual time, 0 (instant) by default.
 *
 * Fault injection (also at run time, with qom-set):
 * - "bad-blocks": a comma-separated list of blocks whose first two pages
 *   get a non-FFh bad block marker (spare byte 0) at realize, as factory
 *   bad blocks have.
 * - "mark-bad": one block that goes bad now, as a worn-out block does:
 *   charge trapped in its cells, it no longer erases.  From then on every
 *   erase of it fails, READ STATUS showing FAIL (bit 0), and the block is
 *   left as it was; reads and programs (which only clear bits) still work,
 *   as they do on such a block, so the host can write its bad block marker
 *   (Linux does, and UBI counts the block in bad_peb_count).  The model
 *   writes no marker itself.  Not kept across a restart.
 * - "flip-bits": "PAGE:BIT[,BIT...]" inverts the given bits of the page
 *   in the array (BIT counts from the first data byte's bit 0, spare
 *   bytes following the data), as a worn cell would.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitmap.h"
#include "qemu/cutils.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hw/block/am335x_nand.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "migration/vmstate.h"
#include "system/block-backend.h"
#include "trace.h"

/* ONFI 1.0 command set */
enum {
    NAND_CMD_READ0          = 0x00,
    NAND_CMD_READ_START     = 0x30,
    NAND_CMD_RNDOUT         = 0x05,
    NAND_CMD_RNDOUT_START   = 0xe0,
    NAND_CMD_SEQIN          = 0x80,
    NAND_CMD_RNDIN          = 0x85,
    NAND_CMD_PAGEPROG       = 0x10,
    NAND_CMD_ERASE1         = 0x60,
    NAND_CMD_ERASE2         = 0xd0,
    NAND_CMD_STATUS         = 0x70,
    NAND_CMD_READID         = 0x90,
    NAND_CMD_PARAM          = 0xec,
    NAND_CMD_RESET          = 0xff,
};

/* READ STATUS bits */
#define NAND_STATUS_FAIL    0x01
#define NAND_STATUS_ARDY    0x20
#define NAND_STATUS_RDY     0x40
#define NAND_STATUS_WP      0x80

/* What a data read returns */
enum {
    NAND_OUT_NONE = 0,
    NAND_OUT_PAGE,
    NAND_OUT_ID,
    NAND_OUT_ONFI_ID,
    NAND_OUT_PARAM,
    NAND_OUT_STATUS,
};

/* Column (2) and row (3) address cycles */
#define NAND_COL_CYCLES     2
#define NAND_ROW_CYCLES     3

static uint32_t nand_full_page(AM335xNandState *s)
{
    return s->page_size + s->oob_size;
}

static uint32_t nand_num_pages(AM335xNandState *s)
{
    return s->pages_per_block * s->blocks;
}

static uint64_t nand_size(AM335xNandState *s)
{
    return (uint64_t)nand_num_pages(s) * nand_full_page(s);
}

/* The array: the drive, or memory without one */

static void nand_array_read(AM335xNandState *s, uint32_t page, uint8_t *buf)
{
    uint32_t len = nand_full_page(s);

    if (s->blk) {
        if (blk_pread(s->blk, (uint64_t)page * len, len, buf, 0) < 0) {
            qemu_log_mask(LOG_GUEST_ERROR, "am335x-nand: read of page %u "
                          "failed on the drive\n", page);
            memset(buf, 0xff, len);
        }
        return;
    } else {
        uint8_t *blk = s->volatile_blocks[page / s->pages_per_block];

        if (blk) {
            memcpy(buf, blk + (page % s->pages_per_block) * len, len);
        } else {
            memset(buf, 0xff, len);
        }
    }
}

static bool nand_array_write(AM335xNandState *s, uint32_t page,
                             const uint8_t *buf)
{
    uint32_t len = nand_full_page(s);
    uint8_t **blk;

    if (s->blk) {
        return blk_pwrite(s->blk, (uint64_t)page * len, len, buf, 0) >= 0;
    }
    blk = &s->volatile_blocks[page / s->pages_per_block];
    if (!*blk) {
        *blk = g_malloc(len * s->pages_per_block);
        memset(*blk, 0xff, len * s->pages_per_block);
    }
    memcpy(*blk + (page % s->pages_per_block) * len, buf, len);
    return true;
}

static bool nand_array_erase(AM335xNandState *s, uint32_t block)
{
    uint32_t len = nand_full_page(s) * s->pages_per_block;

    if (s->blk) {
        g_autofree uint8_t *ff = g_malloc(len);

        memset(ff, 0xff, len);
        return blk_pwrite(s->blk, (uint64_t)block * len, len, ff, 0) >= 0;
    }
    g_free(s->volatile_blocks[block]);
    s->volatile_blocks[block] = NULL;
    return true;
}

/* Ready/busy */

static void nand_set_busy(AM335xNandState *s, uint32_t ns)
{
    if (!ns) {
        return;
    }
    s->busy = true;
    qemu_set_irq(s->rb, 0);
    timer_mod(&s->busy_timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + ns);
}

static void nand_busy_done(void *opaque)
{
    AM335xNandState *s = opaque;

    s->busy = false;
    trace_am335x_nand_ready();
    qemu_set_irq(s->rb, 1);
}

bool am335x_nand_ready(AM335xNandState *s)
{
    return !s->busy;
}

/* Operations */

static bool nand_row_valid(AM335xNandState *s, const char *op)
{
    if (s->row >= nand_num_pages(s)) {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-nand: %s of page %u beyond "
                      "the %u pages of the device\n", op, s->row,
                      nand_num_pages(s));
        return false;
    }
    return true;
}

static void nand_latch_address(AM335xNandState *s, bool with_column)
{
    if (with_column) {
        s->column = s->addr & 0xffff;
        s->row = (s->addr >> 16) & 0xffffff;
    } else {
        s->row = s->addr & 0xffffff;
    }
}

static void nand_do_read(AM335xNandState *s)
{
    nand_latch_address(s, true);
    trace_am335x_nand_op("read", s->row, s->column);
    if (nand_row_valid(s, "read")) {
        nand_array_read(s, s->row, s->page_buf);
    } else {
        memset(s->page_buf, 0xff, nand_full_page(s));
    }
    s->read_mode = NAND_OUT_PAGE;
    s->read_pos = s->column;
    nand_set_busy(s, s->t_read_ns);
}

static void nand_do_program(AM335xNandState *s)
{
    g_autofree uint8_t *cur = g_malloc(nand_full_page(s));

    trace_am335x_nand_op("program", s->row, 0);
    s->status &= ~NAND_STATUS_FAIL;
    if (!nand_row_valid(s, "program")) {
        s->status |= NAND_STATUS_FAIL;
        return;
    }
    nand_array_read(s, s->row, cur);
    /* Programming can only clear bits. */
    for (uint32_t i = 0; i < nand_full_page(s); i++) {
        cur[i] &= s->page_buf[i];
    }
    if (!nand_array_write(s, s->row, cur)) {
        s->status |= NAND_STATUS_FAIL;
    }
    nand_set_busy(s, s->t_prog_ns);
}

static void nand_do_erase(AM335xNandState *s)
{
    uint32_t block;

    nand_latch_address(s, false);
    trace_am335x_nand_op("erase", s->row, 0);
    s->status &= ~NAND_STATUS_FAIL;
    if (!nand_row_valid(s, "erase")) {
        s->status |= NAND_STATUS_FAIL;
        return;
    }
    block = s->row / s->pages_per_block;
    if (test_bit(block, s->worn)) {
        /* The erase does not verify: the block keeps its contents. */
        trace_am335x_nand_worn("erase", block);
        s->status |= NAND_STATUS_FAIL;
    } else if (!nand_array_erase(s, block)) {
        s->status |= NAND_STATUS_FAIL;
        return;
    }
    nand_set_busy(s, s->t_erase_ns);
}

static void nand_reset_state(AM335xNandState *s)
{
    s->cmd = NAND_CMD_RESET;
    s->addr_cycles = 0;
    s->addr = 0;
    s->column = 0;
    s->row = 0;
    s->read_mode = NAND_OUT_NONE;
    s->read_pos = 0;
    s->status = NAND_STATUS_WP | NAND_STATUS_RDY | NAND_STATUS_ARDY;
}

void am335x_nand_command(AM335xNandState *s, uint8_t cmd)
{
    trace_am335x_nand_command(cmd);
    if (s->busy && cmd != NAND_CMD_STATUS && cmd != NAND_CMD_RESET) {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-nand: command 0x%02x while "
                      "busy ignored\n", cmd);
        return;
    }
    switch (cmd) {
    case NAND_CMD_READ0:
        /*
         * Also how a host leaves READ STATUS to resume the data output of
         * a page read: without an address, reads continue.
         */
        if (s->read_mode == NAND_OUT_STATUS) {
            s->read_mode = NAND_OUT_PAGE;
        }
        s->addr_cycles = 0;
        s->addr = 0;
        break;
    case NAND_CMD_READ_START:
        if (s->cmd != NAND_CMD_READ0) {
            goto sequence_error;
        }
        nand_do_read(s);
        break;
    case NAND_CMD_RNDOUT:
    case NAND_CMD_RNDIN:
        s->addr_cycles = 0;
        s->addr = 0;
        break;
    case NAND_CMD_RNDOUT_START:
        if (s->cmd != NAND_CMD_RNDOUT) {
            goto sequence_error;
        }
        s->column = s->addr & 0xffff;
        s->read_pos = s->column;
        s->read_mode = NAND_OUT_PAGE;
        break;
    case NAND_CMD_SEQIN:
        /* The data register is set to FFh for a new program. */
        memset(s->page_buf, 0xff, nand_full_page(s));
        s->addr_cycles = 0;
        s->addr = 0;
        s->read_mode = NAND_OUT_NONE;
        break;
    case NAND_CMD_PAGEPROG:
        if (s->cmd != NAND_CMD_SEQIN && s->cmd != NAND_CMD_RNDIN) {
            goto sequence_error;
        }
        nand_do_program(s);
        break;
    case NAND_CMD_ERASE1:
        s->addr_cycles = 0;
        s->addr = 0;
        s->read_mode = NAND_OUT_NONE;
        break;
    case NAND_CMD_ERASE2:
        if (s->cmd != NAND_CMD_ERASE1) {
            goto sequence_error;
        }
        nand_do_erase(s);
        break;
    case NAND_CMD_STATUS:
        s->read_mode = NAND_OUT_STATUS;
        break;
    case NAND_CMD_READID:
    case NAND_CMD_PARAM:
        s->addr_cycles = 0;
        s->addr = 0;
        s->read_mode = NAND_OUT_NONE;
        break;
    case NAND_CMD_RESET:
        timer_del(&s->busy_timer);
        nand_reset_state(s);
        if (s->busy) {
            s->busy = false;
            qemu_set_irq(s->rb, 1);
        }
        break;
    default:
        qemu_log_mask(LOG_UNIMP, "am335x-nand: command 0x%02x not "
                      "supported\n", cmd);
        s->read_mode = NAND_OUT_NONE;
        break;
    }
    s->cmd = cmd;
    return;

sequence_error:
    qemu_log_mask(LOG_GUEST_ERROR, "am335x-nand: command 0x%02x after 0x%02x"
                  " ignored\n", cmd, s->cmd);
    s->cmd = cmd;
}

void am335x_nand_address(AM335xNandState *s, uint8_t addr)
{
    unsigned max_cycles;

    trace_am335x_nand_address(addr);
    switch (s->cmd) {
    case NAND_CMD_READ0:
    case NAND_CMD_SEQIN:
        max_cycles = NAND_COL_CYCLES + NAND_ROW_CYCLES;
        break;
    case NAND_CMD_RNDOUT:
    case NAND_CMD_RNDIN:
        max_cycles = NAND_COL_CYCLES;
        break;
    case NAND_CMD_ERASE1:
        max_cycles = NAND_ROW_CYCLES;
        break;
    case NAND_CMD_READID:
    case NAND_CMD_PARAM:
        max_cycles = 1;
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-nand: address cycle after "
                      "command 0x%02x ignored\n", s->cmd);
        return;
    }
    if (s->addr_cycles >= max_cycles) {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-nand: extra address cycle "
                      "ignored\n");
        return;
    }
    s->addr |= (uint64_t)addr << (8 * s->addr_cycles);
    s->addr_cycles++;

    if (s->cmd == NAND_CMD_READID) {
        s->read_mode = addr == 0x20 ? NAND_OUT_ONFI_ID : NAND_OUT_ID;
        s->read_pos = 0;
    } else if (s->cmd == NAND_CMD_PARAM) {
        s->read_mode = NAND_OUT_PARAM;
        s->read_pos = 0;
        nand_set_busy(s, s->t_read_ns);
    } else if (s->cmd == NAND_CMD_RNDIN && s->addr_cycles == max_cycles) {
        s->column = s->addr & 0xffff;
    } else if (s->cmd == NAND_CMD_SEQIN && s->addr_cycles == max_cycles) {
        nand_latch_address(s, true);
    }
}

void am335x_nand_write(AM335xNandState *s, uint8_t data)
{
    if (s->cmd != NAND_CMD_SEQIN && s->cmd != NAND_CMD_RNDIN) {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-nand: data write 0x%02x "
                      "outside a program ignored\n", data);
        return;
    }
    if (s->column >= nand_full_page(s)) {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-nand: data write beyond "
                      "column %u ignored\n", nand_full_page(s));
        return;
    }
    s->page_buf[s->column++] = data;
}

uint8_t am335x_nand_read(AM335xNandState *s)
{
    uint8_t v = 0xff;

    switch (s->read_mode) {
    case NAND_OUT_STATUS:
        v = s->status & ~(s->busy ? NAND_STATUS_RDY | NAND_STATUS_ARDY : 0);
        break;
    case NAND_OUT_PAGE:
        if (s->busy) {
            break;
        }
        if (s->read_pos < nand_full_page(s)) {
            v = s->page_buf[s->read_pos++];
        } else {
            qemu_log_mask(LOG_GUEST_ERROR, "am335x-nand: data read beyond "
                          "column %u\n", nand_full_page(s));
        }
        break;
    case NAND_OUT_ID:
        if (s->read_pos < 5) {
            const uint8_t id[5] = {
                s->manf_id, s->dev_id, s->id_bytes >> 16, s->id_bytes >> 8,
                s->id_bytes
            };

            v = id[s->read_pos];
        } else {
            v = 0;
        }
        s->read_pos = MIN(s->read_pos + 1, 8);
        break;
    case NAND_OUT_ONFI_ID:
        v = s->read_pos < 4 ? "ONFI"[s->read_pos] : 0;
        s->read_pos = MIN(s->read_pos + 1, 8);
        break;
    case NAND_OUT_PARAM:
        if (s->busy) {
            break;
        }
        /* The page repeats: ONFI requires at least three copies. */
        v = s->onfi_param[s->read_pos % AM335X_NAND_ONFI_PARAM_SIZE];
        s->read_pos = (s->read_pos + 1) % (16 * AM335X_NAND_ONFI_PARAM_SIZE);
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-nand: data read with no "
                      "data to output (command 0x%02x)\n", s->cmd);
        break;
    }
    return v;
}

/* ONFI 1.0 parameter page (ONFI specification 1.0, section 5.4.1) */

static uint16_t onfi_crc16(const uint8_t *p, size_t len)
{
    uint16_t crc = 0x4f4e;

    for (size_t i = 0; i < len; i++) {
        crc ^= p[i] << 8;
        for (int b = 0; b < 8; b++) {
            crc = (crc << 1) ^ ((crc & 0x8000) ? 0x8005 : 0);
        }
    }
    return crc;
}

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = v;
    p[1] = v >> 8;
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, v);
    put16(p + 2, v >> 16);
}

static void nand_build_onfi_param(AM335xNandState *s)
{
    uint8_t *p = s->onfi_param;

    memset(p, 0, AM335X_NAND_ONFI_PARAM_SIZE);
    memcpy(p, "ONFI", 4);
    put16(p + 4, BIT(1));                   /* revision: ONFI 1.0 */
    put16(p + 6, 0);                        /* features: x8 */
    put16(p + 8, 0);                        /* optional commands: none */
    memcpy(p + 32, "MICRON      ", 12);
    memcpy(p + 44, "MT29F2G08ABAEAWP    ", 20);
    p[64] = s->manf_id;
    put32(p + 80, s->page_size);
    put16(p + 84, s->oob_size);
    put32(p + 86, 512);                     /* partial page data */
    put16(p + 90, s->oob_size / 4);         /* partial page spare */
    put32(p + 92, s->pages_per_block);
    put32(p + 96, s->blocks);
    p[100] = 1;                             /* LUNs */
    p[101] = (NAND_COL_CYCLES << 4) | NAND_ROW_CYCLES;
    p[102] = 1;                             /* bits per cell */
    put16(p + 103, 40);                     /* max bad blocks per LUN */
    p[105] = 1;                             /* block endurance 1 * 10^5 */
    p[106] = 5;
    p[107] = 1;                             /* good blocks at start */
    p[110] = 4;                             /* programs per page */
    p[112] = 4;                             /* ECC: 4 bits per 512 bytes */
    p[128] = 10;                            /* I/O capacitance, pF */
    put16(p + 129, 0x1f);                   /* timing modes 0-4 */
    put16(p + 133, 600);                    /* tPROG max, us */
    put16(p + 135, 3000);                   /* tBERS max, us */
    put16(p + 137, 25);                     /* tR max, us */
    put16(p + 139, 100);                    /* tCCS min, ns */
    put16(p + 254, onfi_crc16(p, 254));
}

/* Fault injection */

static void nand_factory_bad(AM335xNandState *s, uint32_t block, Error **errp)
{
    g_autofree uint8_t *buf = g_malloc(nand_full_page(s));

    if (block >= s->blocks) {
        error_setg(errp, "block %u beyond the %u blocks", block, s->blocks);
        return;
    }
    for (int i = 0; i < 2; i++) {
        uint32_t page = block * s->pages_per_block + i;

        nand_array_read(s, page, buf);
        buf[s->page_size] = 0x00;
        if (!nand_array_write(s, page, buf)) {
            error_setg(errp, "cannot write page %u", page);
            return;
        }
    }
}

static void nand_set_mark_bad(Object *obj, Visitor *v, const char *name,
                              void *opaque, Error **errp)
{
    AM335xNandState *s = AM335X_NAND(obj);
    uint32_t block;

    if (!visit_type_uint32(v, name, &block, errp)) {
        return;
    }
    if (!s->worn) {
        error_setg(errp, "mark-bad: the device is not realized");
        return;
    }
    if (block >= s->blocks) {
        error_setg(errp, "block %u beyond the %u blocks", block, s->blocks);
        return;
    }
    trace_am335x_nand_mark_bad(block);
    set_bit(block, s->worn);
}

static void nand_set_flip_bits(Object *obj, const char *value, Error **errp)
{
    AM335xNandState *s = AM335X_NAND(obj);
    g_autofree uint8_t *buf = g_malloc(nand_full_page(s));
    g_auto(GStrv) bits = NULL;
    const char *rest;
    uint64_t page;

    if (qemu_strtou64(value, &rest, 0, &page) || *rest != ':' ||
        page >= nand_num_pages(s)) {
        error_setg(errp, "flip-bits wants PAGE:BIT[,BIT...] with PAGE below "
                   "%u", nand_num_pages(s));
        return;
    }
    nand_array_read(s, page, buf);
    bits = g_strsplit(rest + 1, ",", -1);
    for (int i = 0; bits[i]; i++) {
        uint64_t bit;

        if (qemu_strtou64(bits[i], NULL, 0, &bit) ||
            bit >= 8ULL * nand_full_page(s)) {
            error_setg(errp, "flip-bits: bad bit '%s' (0..%u)", bits[i],
                       8 * nand_full_page(s) - 1);
            return;
        }
        buf[bit / 8] ^= BIT(bit % 8);
    }
    if (!nand_array_write(s, page, buf)) {
        error_setg(errp, "cannot write page %" PRIu64, page);
    }
}

/* Device */

static void am335x_nand_reset_hold(Object *obj, ResetType type)
{
    AM335xNandState *s = AM335X_NAND(obj);

    timer_del(&s->busy_timer);
    s->busy = false;
    nand_reset_state(s);
}

static void am335x_nand_reset_exit(Object *obj, ResetType type)
{
    AM335xNandState *s = AM335X_NAND(obj);

    qemu_set_irq(s->rb, 1);
}

static bool nand_prepare_drive(AM335xNandState *s, Error **errp)
{
    bool ro = !blk_supports_write_perm(s->blk);
    uint64_t perm = BLK_PERM_CONSISTENT_READ | (ro ? 0 : BLK_PERM_WRITE);
    int64_t len;

    if (ro) {
        error_setg(errp, "the NAND drive must be writable");
        return false;
    }
    len = blk_getlength(s->blk);
    if (len < 0) {
        error_setg_errno(errp, -len, "cannot get the NAND drive's size");
        return false;
    }
    if (len < nand_size(s)) {
        /* A new (short) image: the rest of the array is erased. */
        g_autofree uint8_t *ff = g_malloc(MiB);

        if (blk_set_perm(s->blk, perm | BLK_PERM_RESIZE, BLK_PERM_ALL,
                         errp) < 0 ||
            blk_truncate(s->blk, nand_size(s), false, PREALLOC_MODE_OFF, 0,
                         errp) < 0) {
            return false;
        }
        memset(ff, 0xff, MiB);
        for (uint64_t off = len; off < nand_size(s); off += MiB) {
            if (blk_pwrite(s->blk, off, MIN(MiB, nand_size(s) - off), ff,
                           0) < 0) {
                error_setg(errp, "cannot erase the NAND drive");
                return false;
            }
        }
    } else if (len > nand_size(s)) {
        warn_report("am335x-nand: drive of %" PRId64 " bytes, the device "
                    "uses the first %" PRIu64, len, nand_size(s));
    }
    return blk_set_perm(s->blk, perm, BLK_PERM_ALL, errp) >= 0;
}

static void am335x_nand_realize(DeviceState *dev, Error **errp)
{
    AM335xNandState *s = AM335X_NAND(dev);

    if (!s->page_size || !s->pages_per_block || !s->blocks ||
        s->page_size > 16 * KiB || s->oob_size > 2 * KiB ||
        s->blocks > 65536 || s->pages_per_block > 1024) {
        error_setg(errp, "unsupported NAND geometry");
        return;
    }
    if (s->blk) {
        if (!nand_prepare_drive(s, errp)) {
            return;
        }
    } else {
        s->volatile_blocks = g_new0(uint8_t *, s->blocks);
    }
    s->full_page_size = nand_full_page(s);
    s->worn_nbits = s->blocks;
    s->worn = bitmap_new(s->blocks);
    s->page_buf = g_malloc(nand_full_page(s));
    memset(s->page_buf, 0xff, nand_full_page(s));
    nand_build_onfi_param(s);
    nand_reset_state(s);
    timer_init_ns(&s->busy_timer, QEMU_CLOCK_VIRTUAL, nand_busy_done, s);

    if (s->bad_blocks && *s->bad_blocks) {
        g_auto(GStrv) list = g_strsplit(s->bad_blocks, ",", -1);

        for (int i = 0; list[i]; i++) {
            uint64_t block;

            if (qemu_strtou64(list[i], NULL, 0, &block) ||
                block >= s->blocks) {
                error_setg(errp, "bad-blocks: '%s' is not a block number",
                           list[i]);
                return;
            }
            nand_factory_bad(s, block, errp);
            if (*errp) {
                return;
            }
        }
    }
}

static void am335x_nand_unrealize(DeviceState *dev)
{
    AM335xNandState *s = AM335X_NAND(dev);

    timer_del(&s->busy_timer);
    if (s->volatile_blocks) {
        for (uint32_t i = 0; i < s->blocks; i++) {
            g_free(s->volatile_blocks[i]);
        }
        g_free(s->volatile_blocks);
    }
    g_free(s->worn);
    s->worn = NULL;
    g_free(s->page_buf);
}

static void am335x_nand_init(Object *obj)
{
    AM335xNandState *s = AM335X_NAND(obj);

    qdev_init_gpio_out_named(DEVICE(obj), &s->rb, AM335X_NAND_RB, 1);
    object_property_add(obj, "mark-bad", "uint32", NULL, nand_set_mark_bad,
                        NULL, NULL);
    object_property_add_str(obj, "flip-bits", NULL, nand_set_flip_bits);
}

static bool nand_worn_needed(void *opaque)
{
    AM335xNandState *s = opaque;

    return !bitmap_empty(s->worn, s->blocks);
}

static const VMStateDescription vmstate_am335x_nand_worn = {
    .name = TYPE_AM335X_NAND "/worn",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = nand_worn_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_BITMAP(worn, AM335xNandState, 0, worn_nbits),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_am335x_nand = {
    .name = TYPE_AM335X_NAND,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_VBUFFER_UINT32(page_buf, AM335xNandState, 0, NULL,
                               full_page_size),
        VMSTATE_UINT8(cmd, AM335xNandState),
        VMSTATE_UINT8(addr_cycles, AM335xNandState),
        VMSTATE_UINT64(addr, AM335xNandState),
        VMSTATE_UINT32(column, AM335xNandState),
        VMSTATE_UINT32(row, AM335xNandState),
        VMSTATE_UINT8(read_mode, AM335xNandState),
        VMSTATE_UINT32(read_pos, AM335xNandState),
        VMSTATE_UINT8(status, AM335xNandState),
        VMSTATE_BOOL(busy, AM335xNandState),
        VMSTATE_TIMER(busy_timer, AM335xNandState),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * const []) {
        &vmstate_am335x_nand_worn,
        NULL
    }
};

static const Property am335x_nand_properties[] = {
    DEFINE_PROP_DRIVE("drive", AM335xNandState, blk),
    DEFINE_PROP_STRING("bad-blocks", AM335xNandState, bad_blocks),
    DEFINE_PROP_UINT32("page-size", AM335xNandState, page_size, 2048),
    DEFINE_PROP_UINT32("oob-size", AM335xNandState, oob_size, 64),
    DEFINE_PROP_UINT32("pages-per-block", AM335xNandState, pages_per_block,
                       64),
    DEFINE_PROP_UINT32("blocks", AM335xNandState, blocks, 2048),
    DEFINE_PROP_UINT8("manufacturer-id", AM335xNandState, manf_id, 0x2c),
    DEFINE_PROP_UINT8("device-id", AM335xNandState, dev_id, 0xda),
    /* READ ID bytes 3-5 */
    DEFINE_PROP_UINT32("id-bytes", AM335xNandState, id_bytes, 0x909506),
    /*
     * Array times; 0 is instant.  MT29F2G08ABAEA: tR 25 us, tPROG 200 us
     * typical, tBERS 700 us typical.
     */
    DEFINE_PROP_UINT32("t-read-ns", AM335xNandState, t_read_ns, 0),
    DEFINE_PROP_UINT32("t-prog-ns", AM335xNandState, t_prog_ns, 0),
    DEFINE_PROP_UINT32("t-erase-ns", AM335xNandState, t_erase_ns, 0),
};

static void am335x_nand_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    ResettableClass *rc = RESETTABLE_CLASS(oc);

    dc->realize = am335x_nand_realize;
    dc->unrealize = am335x_nand_unrealize;
    dc->vmsd = &vmstate_am335x_nand;
    dc->desc = "ONFI SLC NAND flash (Micron MT29F2G08ABAEAWP)";
    set_bit(DEVICE_CATEGORY_STORAGE, dc->categories);
    device_class_set_props(dc, am335x_nand_properties);
    rc->phases.hold = am335x_nand_reset_hold;
    rc->phases.exit = am335x_nand_reset_exit;
}

static const TypeInfo am335x_nand_info = {
    .name = TYPE_AM335X_NAND,
    .parent = TYPE_DEVICE,
    .instance_size = sizeof(AM335xNandState),
    .instance_init = am335x_nand_init,
    .class_init = am335x_nand_class_init,
};

static void am335x_nand_register_types(void)
{
    type_register_static(&am335x_nand_info);
}

type_init(am335x_nand_register_types)
