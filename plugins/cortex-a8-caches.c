/*
 * Memory stalls of the AM335x's Cortex-A8, for the timing model: a TCG
 * plugin that runs the guest's instruction fetches and data loads and
 * stores through models of the core's L1 caches and its L2, and charges
 * the latency of each miss to the vCPU's virtual time.  -icount gives
 * every instruction a fixed time (shift=1: 2 ns, a CPI of 1.44 at
 * 720 MHz); copies, checksums and the kernel's large code paths also wait
 * for the L2 and for DDR, and that wait is what this adds.
 *
 * The caches (AM335x datasheet SPRS717, 1.1 and 3.1; Cortex-A8 TRM
 * r3p2, chapters 7 and 8):
 * - L1 instruction and L1 data: 32 KiB each, 4-way, 64-byte lines.
 * - L2: 256 KiB, 8-way, 64-byte lines, unified.
 * - Replacement: least recently used (the A8 uses random or
 *   pseudo-random; LRU keeps the model deterministic and simple).
 * - The L1 data cache allocates on a read miss only: a store that misses
 *   goes to the L2 (allocating there) without a stall, as the A8's store
 *   buffer absorbs it (TRM 16.4.2, table 16-16: no stall unless the
 *   buffer is full, which is not modelled).
 *
 * The stalls (Cortex-A8 TRM 16.4.2, table 16-16):
 * - A load or fetch that misses L1 and hits L2: 8 cycles.
 * - A miss in L2 too: at least 25 cycles to the critical word from the
 *   memory system, plus the DDR2's own access: the PSP figures' boards
 *   ran DDR2 at 266 MHz, and the EVM's MT47H128M16RT-25E opens a row and
 *   returns data after tRCD 12.5 ns + CL 4 clocks (15 ns): 27.5 ns.
 * - A read of a device register waits for the interconnect: the load
 *   stalls until the target answers.  The figures are TI's "AM335x PRU
 *   Read Latencies" (processors wiki): best-case reads from the PRU, an
 *   L3 initiator like the MPU, in cycles of the 200 MHz L3F clock, of
 *   which 2 are the PRU's own load instruction.  A target with no
 *   published figure (the INTC, inside the MPU subsystem; USB; MMCHS2)
 *   costs nothing here.  Writes are posted: the store buffer takes
 *   them without a stall.  What a device does after the access (a
 *   transfer, an interrupt) it times itself.
 *
 * DMA coherency: the AM335x's DMA masters do not snoop the caches, so
 * software invalidates a buffer's lines before it reads what a device
 * wrote (DCIMVAC, and DCCIMVAC, by virtual address).  Those instructions
 * drop the line here from the L1D and the L2 alike, so that the next read
 * misses to memory as on the part.  The address is translated with the
 * mapping the data accesses last showed for its page (a direct-mapped
 * table of 4096 pages); a page the CPU has not touched lately has no
 * lines here anyway.
 *
 * Not modelled: the TLBs (the A8's 32-entry micro-TLBs, a 24-cycle walk
 * that hits L2), branch misprediction (13 cycles), the store buffer
 * filling, the L2's own write-back traffic, and cache maintenance by set
 * and way.
 *
 * Addresses are physical for data (guest physical, from the access) and
 * virtual for instructions: the kernel's text is mapped once; code of two
 * processes at the same address shares lines in this model.
 *
 * Arguments: shift=N, the -icount shift (time per instruction 2^N ns,
 * 1); cpu-mhz=N, the core clock (720); ddr-ns10=N, the DDR access in
 * tenths of a nanosecond (275); io-latency=0|1, whether device register
 * reads wait for the interconnect (1).
 *
 * With -d plugin, QEMU's exit prints what was charged.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define LINE_SHIFT          6           /* 64-byte lines */
#define L1_SETS             (32 * 1024 / 64 / 4)
#define L1_WAYS             4
#define L2_SETS             (256 * 1024 / 64 / 8)
#define L2_WAYS             8
#define L2_HIT_CYCLES       8
#define MEM_MIN_CYCLES      25

/*
 * Best-case read latency of each AM335x target, in 200 MHz L3F cycles,
 * from TI's "AM335x PRU Read Latencies" (tables 2 and 3 of that page);
 * addresses from the AM335x TRM (SPRUH73), tables 2-1 to 2-4.
 */
#define IO_CYCLE_PS         5000        /* the L3F clock, 200 MHz */
#define IO_PRU_LOAD_CYCLES  2           /* the PRU's own load, not the path */

typedef struct IoTarget {
    uint32_t base;
    uint32_t size;
    uint32_t pru_cycles;
} IoTarget;

static const IoTarget io_targets[] = {
    /* L3F */
    { 0x49000000, 0x100000, 41 },       /* EDMA3CC */
    { 0x49800000, 0x300000, 34 },       /* EDMA3TC0-2 */
    { 0x4c000000, 0x1000000, 36 },      /* EMIF registers */
    /* L3S */
    { 0x00000000, 0x20000000, 38 },     /* GPMC chip-select windows */
    { 0x50000000, 0x1000000, 38 },      /* GPMC registers */
    { 0x46000000, 0x800000, 38 },       /* McASP0-1 data ports */
    { 0x54c00000, 0x100000, 42 },       /* TSC_ADC FIFO port */
    /* L4_PER */
    { 0x48022000, 0x3000, 34 },         /* UART1-2 */
    { 0x4802a000, 0x1000, 34 },         /* I2C1 */
    { 0x48030000, 0x1000, 34 },         /* McSPI0 */
    { 0x48038000, 0x6000, 38 },         /* McASP0-1 configuration */
    { 0x48040000, 0xc000, 38 },         /* DMTIMER2-7 */
    { 0x4804c000, 0x1000, 34 },         /* GPIO1 */
    { 0x48060000, 0x1000, 34 },         /* MMCHS0 */
    { 0x48080000, 0x10000, 34 },        /* ELM */
    { 0x480c8000, 0x1000, 38 },         /* Mailbox */
    { 0x480ca000, 0x1000, 38 },         /* Spinlock */
    { 0x4819c000, 0x1000, 34 },         /* I2C2 */
    { 0x481a0000, 0x1000, 34 },         /* McSPI1 */
    { 0x481a6000, 0x5000, 34 },         /* UART3-5 */
    { 0x481ac000, 0x3000, 34 },         /* GPIO2-3 */
    { 0x481cc000, 0x6000, 40 },         /* DCAN0-1 */
    { 0x481d8000, 0x1000, 34 },         /* MMCHS1 */
    { 0x48300000, 0x6000, 38 },         /* PWMSS0-2 */
    { 0x4830e000, 0x1000, 38 },         /* LCDC */
    /* L4_FAST */
    { 0x4a100000, 0x8000, 41 },         /* CPSW, its CPDMA, CPPI RAM, MDIO */
    /* L4_WKUP */
    { 0x44e00000, 0x4000, 88 },         /* PRCM */
    { 0x44e05000, 0x1000, 38 },         /* DMTIMER0 */
    { 0x44e07000, 0x1000, 38 },         /* GPIO0 */
    { 0x44e09000, 0x1000, 38 },         /* UART0 */
    { 0x44e0b000, 0x1000, 38 },         /* I2C0 */
    { 0x44e0d000, 0x2000, 41 },         /* TSC_ADC */
    { 0x44e10000, 0x20000, 41 },        /* Control module */
    { 0x44e31000, 0x1000, 38 },         /* DMTIMER1_1MS */
    { 0x44e35000, 0x1000, 38 },         /* WDT1 */
    { 0x44e3e000, 0x1000, 62 },         /* RTC */
};

typedef struct Cache {
    unsigned sets;
    unsigned ways;
    /* tags[set * ways + way], most recently used first; 0 is empty */
    uint64_t *tags;
    uint64_t accesses;
    uint64_t misses;
} Cache;

static Cache l1i, l1d, l2;
static const void *time_handle;
/* Stall not yet charged, in picoseconds */
static uint64_t pending_ps;
static uint64_t ps_per_insn = 2000;
static uint64_t l2_hit_ps;
static uint64_t l2_miss_ps;
static uint64_t charged_insns;
static uint64_t io_reads;
static uint64_t io_stall_ps;
static bool io_latency = true;

static void cache_init(Cache *c, unsigned sets, unsigned ways)
{
    c->sets = sets;
    c->ways = ways;
    c->tags = g_new0(uint64_t, (size_t)sets * ways);
}

/*
 * Looks @line (an address >> LINE_SHIFT) up; returns whether it hit.
 * With @allocate, a miss brings the line in, evicting the least recently
 * used one; a hit always makes the line the most recently used.
 */
static bool cache_access(Cache *c, uint64_t line, bool allocate)
{
    uint64_t tag = line + 1;
    uint64_t *set = &c->tags[(line % c->sets) * c->ways];
    unsigned way;

    c->accesses++;
    for (way = 0; way < c->ways; way++) {
        if (set[way] == tag) {
            memmove(&set[1], &set[0], way * sizeof(set[0]));
            set[0] = tag;
            return true;
        }
    }
    c->misses++;
    if (allocate) {
        memmove(&set[1], &set[0], (c->ways - 1) * sizeof(set[0]));
        set[0] = tag;
    }
    return false;
}

/* Drops @line, if present; the freed way becomes the least recently used. */
static void cache_invalidate(Cache *c, uint64_t line)
{
    uint64_t tag = line + 1;
    uint64_t *set = &c->tags[(line % c->sets) * c->ways];

    for (unsigned way = 0; way < c->ways; way++) {
        if (set[way] == tag) {
            memmove(&set[way], &set[way + 1],
                    (c->ways - 1 - way) * sizeof(set[0]));
            set[c->ways - 1] = 0;
            return;
        }
    }
}

/* Virtual to physical page, as the data accesses last showed it */
#define PAGE_SHIFT          12
#define VMAP_ENTRIES        4096
typedef struct VmapEntry {
    uint64_t vpage;     /* virtual page + 1; 0 is empty */
    uint64_t ppage;
} VmapEntry;
static VmapEntry vmap[VMAP_ENTRIES];

/* The core registers r0-r15 (r13-r15 as sp, lr, pc), for Rt */
static struct qemu_plugin_register *core_regs[16];
static uint64_t invalidations;

static void stall(uint64_t ps)
{
    uint64_t insns;

    pending_ps += ps;
    if (pending_ps < ps_per_insn) {
        return;
    }
    insns = pending_ps / ps_per_insn;
    pending_ps -= insns * ps_per_insn;
    /* What the budget could not take waits for the next charge. */
    insns -= qemu_plugin_icount_stall(time_handle, insns);
    charged_insns += insns;
}

/* A read (fetch or load) of @line that missed its L1 */
static void l1_read_miss(uint64_t line)
{
    if (cache_access(&l2, line, true)) {
        stall(l2_hit_ps);
    } else {
        stall(l2_miss_ps);
    }
}

/* A load from the device register at @addr: the interconnect's round trip */
static void io_read(uint64_t addr)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(io_targets); i++) {
        const IoTarget *t = &io_targets[i];

        if (addr >= t->base && addr - t->base < t->size) {
            uint64_t ps = (t->pru_cycles - IO_PRU_LOAD_CYCLES) * IO_CYCLE_PS;

            io_reads++;
            io_stall_ps += ps;
            stall(ps);
            return;
        }
    }
}

/*
 * A translated block's instructions are consecutive: its fetches are the
 * lines from its first to its last, packed in the callback's data as
 * first line << 8 | number of lines.
 */
static void vcpu_block_exec(unsigned int vcpu_index, void *udata)
{
    uintptr_t packed = (uintptr_t)udata;
    uint64_t line = packed >> 8;
    uint64_t end = line + (packed & 0xff);

    for (; line < end; line++) {
        if (!cache_access(&l1i, line, true)) {
            l1_read_miss(line);
        }
    }
}

static void vcpu_mem(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
                     uint64_t vaddr, void *udata)
{
    struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);
    VmapEntry *slot;
    uint64_t line;

    if (!hw) {
        return;
    }
    if (qemu_plugin_hwaddr_is_io(hw)) {
        if (io_latency && !qemu_plugin_mem_is_store(info)) {
            io_read(qemu_plugin_hwaddr_phys_addr(hw));
        }
        return;
    }
    line = qemu_plugin_hwaddr_phys_addr(hw) >> LINE_SHIFT;
    slot = &vmap[(vaddr >> PAGE_SHIFT) % VMAP_ENTRIES];
    slot->vpage = (vaddr >> PAGE_SHIFT) + 1;
    slot->ppage = line >> (PAGE_SHIFT - LINE_SHIFT);
    if (qemu_plugin_mem_is_store(info)) {
        /* Write hit in L1, or to L2 through the store buffer */
        if (!cache_access(&l1d, line, false)) {
            cache_access(&l2, line, true);
        }
        return;
    }
    if (!cache_access(&l1d, line, true)) {
        l1_read_miss(line);
    }
}

/* DCIMVAC or DCCIMVAC with the address in core register @udata */
static void vcpu_dc_invalidate(unsigned int vcpu_index, void *udata)
{
    /* One buffer for every read: this runs for each line invalidated. */
    static GByteArray *buf;
    struct qemu_plugin_register *reg = core_regs[(uintptr_t)udata];
    VmapEntry *slot;
    uint64_t vaddr;

    if (!buf) {
        buf = g_byte_array_new();
    }
    g_byte_array_set_size(buf, 0);
    if (!reg || qemu_plugin_read_register(reg, buf) < 4) {
        return;
    }
    vaddr = buf->data[0] | buf->data[1] << 8 | buf->data[2] << 16 |
            (uint64_t)buf->data[3] << 24;
    slot = &vmap[(vaddr >> PAGE_SHIFT) % VMAP_ENTRIES];
    if (slot->vpage == (vaddr >> PAGE_SHIFT) + 1) {
        uint64_t line = slot->ppage << (PAGE_SHIFT - LINE_SHIFT) |
                        ((vaddr & ((1 << PAGE_SHIFT) - 1)) >> LINE_SHIFT);

        cache_invalidate(&l1d, line);
        cache_invalidate(&l2, line);
        invalidations++;
    }
}

/*
 * The register number of a DCIMVAC or DCCIMVAC (MCR p15, 0, Rt, c7, c6
 * or c14, 1) in the 4 bytes at @insn, A32 or T32; -1 for anything else.
 */
static int dc_invalidate_rt(const uint8_t *insn)
{
    uint32_t w = insn[0] | insn[1] << 8 | insn[2] << 16 |
                 (uint32_t)insn[3] << 24;
    uint32_t hw1 = w & 0xffff, hw2 = w >> 16;

    /* A32: cond 1110 000 0 0111 Rt 1111 001 1 CRm */
    if ((w >> 28) != 0xf && ((w & 0x0fff0fff) == 0x0e070f36 ||
                             (w & 0x0fff0fff) == 0x0e070f3e)) {
        return (w >> 12) & 0xf;
    }
    /* T32: 1110 1110 000 0 0111, Rt 1111 001 1 CRm */
    if (hw1 == 0xee07 && ((hw2 & 0x0fff) == 0x0f36 ||
                          (hw2 & 0x0fff) == 0x0f3e)) {
        return hw2 >> 12;
    }
    return -1;
}

static void vcpu_init(qemu_plugin_id_t id, unsigned int vcpu_index)
{
    static const char *const names[16] = {
        "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10",
        "r11", "r12", "sp", "lr", "pc",
    };
    g_autoptr(GArray) regs = qemu_plugin_get_registers();

    for (guint i = 0; i < regs->len; i++) {
        qemu_plugin_reg_descriptor *d =
            &g_array_index(regs, qemu_plugin_reg_descriptor, i);

        for (int r = 0; r < 16; r++) {
            if (g_strcmp0(d->name, names[r]) == 0) {
                core_regs[r] = d->handle;
            }
        }
    }
}

static void vcpu_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);
    uint64_t start = qemu_plugin_tb_vaddr(tb);
    uint64_t end = start;
    uint64_t first, nlines;

    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint8_t bytes[4];
        int rt = -1;

        end = qemu_plugin_insn_vaddr(insn) + qemu_plugin_insn_size(insn);
        qemu_plugin_register_vcpu_mem_cb(insn, vcpu_mem,
                                         QEMU_PLUGIN_CB_NO_REGS,
                                         QEMU_PLUGIN_MEM_RW, NULL);
        if (qemu_plugin_insn_size(insn) == 4 &&
            qemu_plugin_insn_data(insn, bytes, 4) == 4) {
            rt = dc_invalidate_rt(bytes);
        }
        if (rt >= 0 && rt < 15) {
            qemu_plugin_register_vcpu_insn_exec_cb(insn, vcpu_dc_invalidate,
                                                   QEMU_PLUGIN_CB_R_REGS,
                                                   (void *)(uintptr_t)rt);
        }
    }
    if (end == start) {
        return;
    }
    first = start >> LINE_SHIFT;
    nlines = MIN(((end - 1) >> LINE_SHIFT) - first + 1, 0xff);
    qemu_plugin_register_vcpu_tb_exec_cb(tb, vcpu_block_exec,
                                         QEMU_PLUGIN_CB_NO_REGS,
                                         (void *)(uintptr_t)(first << 8 |
                                                             nlines));
}

static void report(Cache *c, const char *name, GString *out)
{
    g_string_append_printf(out, "%s: %" PRIu64 " accesses, %" PRIu64
                           " misses\n", name, c->accesses, c->misses);
}

static void plugin_exit(qemu_plugin_id_t id, void *p)
{
    g_autoptr(GString) out = g_string_new("cortex-a8-caches:\n");

    report(&l1i, "  L1I", out);
    report(&l1d, "  L1D", out);
    report(&l2, "  L2", out);
    g_string_append_printf(out, "  stall charged: %" PRIu64
                           " instructions' time\n", charged_insns);
    g_string_append_printf(out, "  device register reads: %" PRIu64
                           ", %" PRIu64 " ns\n", io_reads,
                           io_stall_ps / 1000);
    g_string_append_printf(out, "  lines invalidated by DCIMVAC/DCCIMVAC: "
                           "%" PRIu64 "\n", invalidations);
    qemu_plugin_outs(out->str);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info,
                                           int argc, char **argv)
{
    uint64_t shift = 1, cpu_mhz = 720, ddr_ns10 = 275, io = 1;
    uint64_t cycle_ps;

    struct {
        const char *name;
        uint64_t *value;
        uint64_t min, max;
    } params[] = {
        { "shift", &shift, 0, 10 },
        { "cpu-mhz", &cpu_mhz, 1, 10000 },
        { "ddr-ns10", &ddr_ns10, 0, 100000 },
        { "io-latency", &io, 0, 1 },
    };

    for (int i = 0; i < argc; i++) {
        g_auto(GStrv) kv = g_strsplit(argv[i], "=", 2);
        unsigned p = G_N_ELEMENTS(params);
        char *end;
        uint64_t v;

        if (kv[0] && kv[1]) {
            for (p = 0; p < G_N_ELEMENTS(params); p++) {
                if (g_strcmp0(kv[0], params[p].name) == 0) {
                    break;
                }
            }
        }
        if (p == G_N_ELEMENTS(params)) {
            fprintf(stderr, "cortex-a8-caches: unknown argument '%s' "
                    "(shift=, cpu-mhz=, ddr-ns10=, io-latency=)\n",
                    argv[i]);
            return -1;
        }
        v = g_ascii_strtoull(kv[1], &end, 10);
        if (*end || end == kv[1] || v < params[p].min || v > params[p].max) {
            fprintf(stderr, "cortex-a8-caches: '%s': a number from %" PRIu64
                    " to %" PRIu64 "\n", argv[i], params[p].min,
                    params[p].max);
            return -1;
        }
        *params[p].value = v;
    }
    if (!info->system_emulation || info->system.smp_vcpus != 1) {
        fprintf(stderr, "cortex-a8-caches: one vCPU, system emulation\n");
        return -1;
    }
    time_handle = qemu_plugin_request_time_control();
    if (!time_handle) {
        fprintf(stderr, "cortex-a8-caches: another plugin controls time\n");
        return -1;
    }
    io_latency = io;
    ps_per_insn = 1000ull << shift;
    cycle_ps = 1000000ull / cpu_mhz;
    l2_hit_ps = L2_HIT_CYCLES * cycle_ps;
    /* The L2 lookup, then the memory system and the DDR itself */
    l2_miss_ps = l2_hit_ps + MEM_MIN_CYCLES * cycle_ps + ddr_ns10 * 100;
    cache_init(&l1i, L1_SETS, L1_WAYS);
    cache_init(&l1d, L1_SETS, L1_WAYS);
    cache_init(&l2, L2_SETS, L2_WAYS);
    qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
    qemu_plugin_register_vcpu_tb_trans_cb(id, vcpu_tb_trans);
    qemu_plugin_register_atexit_cb(id, plugin_exit, NULL);
    return 0;
}
