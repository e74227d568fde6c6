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
 * - A miss in L2 too: the TRM gives at least 25 cycles to the critical
 *   word, "much longer because of L3 memory latencies".  The AM335x's
 *   L3 latency to memory is in TI's PRU read latencies (below): a read
 *   of DDR through the EMIF takes 36 L3F cycles from an L3 initiator,
 *   less the PRU's own 2: 170 ns, the interconnect both ways, the EMIF
 *   and the DDR's row open and CAS latency together.  The miss costs
 *   the L2 lookup plus the larger of the two.
 * - A read of a device register waits for the interconnect: the load
 *   stalls until the target answers.  The figures are TI's "AM335x PRU
 *   Read Latencies" (processors wiki): best-case reads from the PRU, an
 *   L3 initiator like the MPU, in cycles of the 200 MHz L3F clock, of
 *   which 2 are the PRU's own load instruction.  A target with no
 *   published figure (the INTC, inside the MPU subsystem; USB; MMCHS2)
 *   costs nothing here.  A device's RAM (the CPSW's CPPI RAM, which
 *   holds the CPDMA's descriptors) is RAM to QEMU, but the same to the
 *   CPU as the device's registers: uncached, a round trip per read.
 *   What a device does after the access (a transfer, an interrupt) it
 *   times itself.
 * - A write of a device register does not stall by itself (the store
 *   buffer takes it), but it is complete only when the target has
 *   answered, the same round trip as a read.  A DSB or DMB waits until
 *   every earlier device write is complete (the A8 drains its write
 *   buffer for both), and so does a device read, which the A8 does not
 *   let pass the writes before it.  Linux's writel() puts a DSB before
 *   each write (__iowmb()), so a run of writel()s goes one round trip
 *   apart, and omap2-nand's FIFO writes (iowrite16) are paced by it.
 *   The BeagleBone Black's GPIO1, toggled from user space through
 *   /dev/mem (Strongly-ordered: each store waits for the one before),
 *   runs at 2.8 MHz, 178 ns a store, against the 160 ns of GPIO1's
 *   read round trip here.  The time kept here for this is the model's
 *   own: instructions at -icount's rate plus the stalls charged; an
 *   idle CPU does not count, which is right as Linux's idle loop runs a
 *   DSB before its WFI.
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
 * Branch prediction (Cortex-A8 TRM r2p2, chapter 5): a 512-entry 2-way
 * BTB, a 4096-entry global history buffer (GHB) of 2-bit counters and an
 * 8-entry return stack; a mispredicted branch costs 13 cycles.  A branch
 * whose address misses the BTB goes on as if predicted not taken; on a
 * hit, the GHB gives the direction and the BTB (or, for a return, the
 * return stack) the target.  The TRM gives the sizes, not the GHB's
 * index: here it is the last 10 outcomes XORed with the branch's address
 * (gshare).  The branches are the last instruction of each translated
 * block (TCG ends a block at every write of the PC); the next block to
 * run is the outcome.  An exception entry (the high vectors at
 * 0xffff0000) is not a branch outcome; exception returns are not
 * predicted.
 *
 * Load and store multiples (LDM, STM, PUSH, POP; Cortex-A8 TRM r3p2,
 * chapter 16): the A8 moves two registers a cycle from a 64-bit aligned
 * address, the first one alone from any other, so that a PUSH of nine
 * registers takes five cycles; all but the first stall here.  The
 * kernel's copy and checksum loops are made of them, and most functions
 * enter and return with them.
 *
 * Not modelled: the TLBs (a trial model of the A8's two 32-entry TLBs
 * with the guest's page and section sizes found about 160 thousand
 * misses, 5 ms at the TRM's 24-cycle walk, in eth-tx's boot and second
 * of sending: the kernel's 1 MiB sections cover it), the store buffer
 * filling (a trial that made a store missing the L2 wait for the
 * linefill of the one before moved eth-tx by nothing), the write-back
 * of dirty lines to DDR (a trial charging each L2 eviction or DMA clean
 * of a dirty line a serialised 60 ns took 1.7-3.7% off the Ethernet
 * bench's rows), barriers waiting for the linefills of normal memory
 * still in flight, unaligned accesses (the
 * TRM's 8-cycle replay of one crossing a 64- or 128-bit boundary: a
 * trial counted 33 thousand of them in eth-tx's boot and 2 s of sending,
 * 0.4 ms), cache maintenance by set and way, and preloads: TCG gives
 * PLD no memory access, so the plugin sees none, and every line a copy
 * reads from DDR stalls the whole round trip where the A8 overlaps it
 * with the PLDs Linux's copy routines issue ahead.  A trial (2026-12-03)
 * that decoded A32 PLD, read its base register and started an L2 line
 * fill, the DDR taking one line at a time at DDR2-533 x16's burst rate
 * (60 ns a line), moved eth-tx from 396.9 to 445.1 Mbit/s; with dirty
 * lines' write-backs (L2 evictions, DMA cleans) on the same DDR, 429.4;
 * with the L2's write-allocate line fills as well, 416.3.  The SD write's
 * CPU load hardly moved (6.97 -> 6.81% over 20 MiB), the read's fell
 * (18.95 -> 17.85%).  Which of those the A8 does (PLD into the L2
 * only?  a fill for a write-allocate that a full line of stores
 * overwrites?) and how much of DDR2's peak the EMIF delivers (row misses,
 * read/write turnarounds, refresh) are not settled; the serialised round
 * trip gives a large copy about what such a model does (200 against
 * 180-280 ns a line), so it stays until a DDR model can be built on
 * published figures.
 *
 * Addresses are physical for data (guest physical, from the access) and
 * virtual for instructions: the kernel's text is mapped once; code of two
 * processes at the same address shares lines in this model.
 *
 * Arguments: shift=N, the -icount shift (time per instruction 2^N ns,
 * 1); cpu-mhz=N, the core clock (720); mem-ns=N, the round trip of an
 * L2 miss to memory in ns (170); io-latency=0|1, whether device register
 * reads wait for the interconnect (1); branches=0|1, whether mispredicted
 * branches cost their cycles (1); multiple=0|1, whether load and store
 * multiples cost theirs (1); write-completion=0|1, whether barriers and
 * device reads wait for the device writes before them (1).
 *
 * profile=FILE: where the virtual time went, for performance work: FILE
 * gets, at exit, one line per translated block's start address with the
 * instructions its runs executed and the stall charged while it ran (a
 * mispredicted branch is charged to the block it went to).  The idle
 * CPU's waits (WFI) are nobody's.  scripts/profile names the addresses
 * with the guest kernel's symbols.  Profiling only counts: the guest's
 * timing is the same with it.
 *
 * With -d plugin, QEMU's exit prints what was charged.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <errno.h>
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
/* A DDR read from an L3 initiator: 36 L3F cycles less the PRU's own 2 */
#define MEM_ROUND_TRIP_NS   170

/*
 * Best-case read latency of each AM335x target, in 200 MHz L3F cycles,
 * from TI's "AM335x PRU Read Latencies" (tables 2 and 3 of that page);
 * addresses from the AM335x TRM (SPRUH73), tables 2-1 to 2-4.
 */
#define IO_CYCLE_PS         5000        /* the L3F clock, 200 MHz */
#define IO_PRU_LOAD_CYCLES  2           /* the PRU's own load, not the path */
#define DDR_BASE            0x80000000u /* EMIF0 SDRAM, above every target */

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
    /*
     * USBSS, MUSB0-1, CPPI 4.1: TI's table has no USB row; they sit on
     * L3S too, so they take the GPMC and McASP ports' 38.
     */
    { 0x47400000, 0x8000, 38 },
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

#define BTB_SETS            256         /* 512 entries, 2-way */
#define BTB_WAYS            2
#define GHB_ENTRIES         4096
#define HISTORY_BITS        10
#define RETURN_STACK        8
#define MISPREDICT_CYCLES   13
/* Architectural high vectors (SCTLR.V), where Linux takes its exceptions */
#define HIGH_VECTORS        0xffff0000u
#define HIGH_VECTORS_END    0xffff0020u

typedef enum BranchKind {
    BRANCH_NONE,        /* the block ends for another reason */
    BRANCH_JUMP,        /* B<c>, CBZ, or a write of the PC from a register */
    BRANCH_CALL,        /* BL, BLX: also pushes the return stack */
    BRANCH_RETURN,      /* BX LR, MOV PC, LR, POP {..., PC} */
} BranchKind;

/* What the callbacks need of a translated block, shared by equal blocks */
typedef struct BlockInfo {
    uint64_t start;
    uint64_t first_line;
    uint64_t nlines;
    uint64_t branch_pc;         /* its last instruction */
    uint64_t fallthrough;       /* the address after it */
    uint64_t kind;
    uint64_t ninsns;
} BlockInfo;

typedef struct Cache {
    unsigned sets;              /* a power of two */
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

/*
 * The model's clock, in ps: instructions and stalls, not idle time.  It
 * stands at the start of the running block, plus the stalls charged in
 * it so far; an instruction's time adds the block's instructions before
 * it (block_insns of them).  And when the device writes issued so far
 * will all be complete.
 */
static bool write_completion = true;
static uint64_t clock_ps;
static uint64_t block_insns;
static uint64_t writes_done_ps;
static uint64_t io_writes;
static uint64_t write_waits;
static uint64_t write_wait_ps;

/* A load/store multiple about to access memory: its register count */
static bool multiple_cycles = true;
static unsigned multiple_pending;
static uint64_t multiples;
static uint64_t multiple_extra_cycles;
static uint64_t cycle_ps;

static bool predict_branches = true;
static uint64_t mispredict_ps;
/* A set's ways, most recently used first; pc is the address + 1, 0 empty */
typedef struct BtbEntry {
    uint64_t pc;
    uint64_t target;
} BtbEntry;
static BtbEntry btb[BTB_SETS][BTB_WAYS];
static uint8_t ghb[GHB_ENTRIES];
static uint32_t history;
static uint64_t return_stack[RETURN_STACK];
static unsigned return_top, return_depth;
/* The block whose last branch waits for the next block to resolve it */
static const BlockInfo *unresolved;
static GHashTable *blocks;
static uint64_t branches;
static uint64_t mispredicts;

static void cache_init(Cache *c, unsigned sets, unsigned ways)
{
    g_assert(sets && !(sets & (sets - 1)));
    c->sets = sets;
    c->ways = ways;
    c->tags = g_new0(uint64_t, (size_t)sets * ways);
}

/* The ways of the set @line maps to */
static uint64_t *cache_set(Cache *c, uint64_t line)
{
    return &c->tags[(line & (c->sets - 1)) * c->ways];
}

/*
 * Looks @line (an address >> LINE_SHIFT) up; returns whether it hit.
 * With @allocate, a miss brings the line in, evicting the least recently
 * used one; a hit always makes the line the most recently used.
 */
static bool cache_access(Cache *c, uint64_t line, bool allocate)
{
    uint64_t tag = line + 1;
    uint64_t *set = cache_set(c, line);
    unsigned way;

    c->accesses++;
    /* Most accesses hit the most recently used line: nothing moves */
    if (set[0] == tag) {
        return true;
    }
    for (way = 1; way < c->ways; way++) {
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
    uint64_t *set = cache_set(c, line);

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
static struct qemu_plugin_register *cpsr_reg;

/* profile=FILE: per block start address, what its runs cost */
typedef struct ProfileEntry {
    uint64_t pc;
    uint64_t insns;
    uint64_t stall_ps;
} ProfileEntry;

static FILE *profile_file;
static GHashTable *profile;             /* pc -> ProfileEntry */
static ProfileEntry *profile_now;       /* the running block's */

static ProfileEntry *profile_entry(uint64_t pc)
{
    ProfileEntry *e = g_hash_table_lookup(profile, &pc);

    if (!e) {
        e = g_new0(ProfileEntry, 1);
        e->pc = pc;
        g_hash_table_insert(profile, &e->pc, e);
    }
    return e;
}

static gint profile_by_pc(gconstpointer a, gconstpointer b)
{
    const ProfileEntry *x = *(ProfileEntry *const *)a;
    const ProfileEntry *y = *(ProfileEntry *const *)b;

    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

static void profile_write(void)
{
    g_autoptr(GPtrArray) all = g_ptr_array_new();
    GHashTableIter it;
    gpointer entry;

    g_hash_table_iter_init(&it, profile);
    while (g_hash_table_iter_next(&it, NULL, &entry)) {
        g_ptr_array_add(all, entry);
    }
    g_ptr_array_sort(all, profile_by_pc);
    fprintf(profile_file, "# cortex-a8-timing profile: ps_per_insn=%" PRIu64
            "\npc\tinsns\tstall_ns\n", ps_per_insn);
    for (unsigned i = 0; i < all->len; i++) {
        const ProfileEntry *e = g_ptr_array_index(all, i);

        fprintf(profile_file, "%08" PRIx64 "\t%" PRIu64 "\t%" PRIu64 "\n",
                e->pc, e->insns, e->stall_ps / 1000);
    }
    if (fclose(profile_file) != 0) {
        fprintf(stderr, "cortex-a8-timing: cannot write the profile\n");
    }
    profile_file = NULL;
}

static void stall(uint64_t ps)
{
    uint64_t insns;

    if (profile_now) {
        profile_now->stall_ps += ps;
    }
    clock_ps += ps;
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

/* The target @addr is in, or NULL (all of them are below the DDR) */
static const IoTarget *io_target(uint64_t addr)
{
    if (addr >= DDR_BASE) {
        return NULL;
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(io_targets); i++) {
        const IoTarget *t = &io_targets[i];

        if (addr >= t->base && addr - t->base < t->size) {
            return t;
        }
    }
    return NULL;
}

/* The round trip to target @t, in ps */
static uint64_t io_round_trip_ps(const IoTarget *t)
{
    return (t->pru_cycles - IO_PRU_LOAD_CYCLES) * IO_CYCLE_PS;
}

/* The time of the running block's instruction @index */
static uint64_t insn_time_ps(unsigned index)
{
    return clock_ps + index * ps_per_insn;
}

/*
 * A barrier or a device read, the running block's instruction @index:
 * the device writes before it complete first
 */
static void wait_for_writes(unsigned index)
{
    uint64_t now = insn_time_ps(index);

    if (writes_done_ps > now) {
        uint64_t ps = writes_done_ps - now;

        write_waits++;
        write_wait_ps += ps;
        stall(ps);
    }
}

/* A load from a register of target @t: the interconnect's round trip */
static void io_read(const IoTarget *t)
{
    if (t) {
        uint64_t ps = io_round_trip_ps(t);

        io_reads++;
        io_stall_ps += ps;
        stall(ps);
    }
}

/*
 * A store to a register of target @t by the running block's instruction
 * @index: complete after its round trip
 */
static void io_write(const IoTarget *t, unsigned index)
{
    if (t) {
        io_writes++;
        writes_done_ps = MAX(writes_done_ps,
                             insn_time_ps(index) + io_round_trip_ps(t));
    }
}

/* A DSB or DMB, the running block's instruction @udata */
static void vcpu_barrier_exec(unsigned int vcpu_index, void *udata)
{
    wait_for_writes((uintptr_t)udata);
}

/* The BTB's target for the branch at @pc, or NULL */
/*
 * The BTB entry of the branch at @pc, made the set's most recently used;
 * with @insert, a miss takes the least recently used way for it.
 * NULL on a miss without @insert.
 */
static BtbEntry *btb_access(uint64_t pc, bool insert)
{
    BtbEntry *set = btb[(pc >> 2) % BTB_SETS];
    unsigned w = 0;
    BtbEntry e = { .pc = pc + 1 };

    while (w < BTB_WAYS - 1 && set[w].pc != pc + 1) {
        w++;
    }
    if (set[w].pc == pc + 1) {
        e = set[w];
    } else if (!insert) {
        return NULL;
    }
    memmove(&set[1], &set[0], w * sizeof(*set));
    set[0] = e;
    return &set[0];
}

/* The branch that ended block @b went to @next: predicted or not? */
static void branch_resolve(const BlockInfo *b, uint64_t next)
{
    bool taken = next != b->fallthrough;
    unsigned index = ((history << 2) ^ (b->branch_pc >> 2)) %
                     GHB_ENTRIES;
    BtbEntry *entry = btb_access(b->branch_pc, false);
    bool predicted_taken = entry && ghb[index] >= 2;
    uint64_t predicted = 0;

    if (entry) {
        predicted = entry->target;
        if (b->kind == BRANCH_RETURN && return_depth) {
            predicted = return_stack[return_top];
        }
    }
    branches++;
    if (predicted_taken != taken || (taken && predicted != next)) {
        mispredicts++;
        stall(mispredict_ps);
    }
    if (taken && ghb[index] < 3) {
        ghb[index]++;
    } else if (!taken && ghb[index] > 0) {
        ghb[index]--;
    }
    history = (history << 1 | taken) & ((1u << HISTORY_BITS) - 1);
    if (!taken) {
        return;
    }
    btb_access(b->branch_pc, true)->target = next;
    if (b->kind == BRANCH_RETURN && return_depth) {
        return_top = (return_top + RETURN_STACK - 1) % RETURN_STACK;
        return_depth--;
    } else if (b->kind == BRANCH_CALL) {
        return_top = (return_top + 1) % RETURN_STACK;
        return_stack[return_top] = b->fallthrough;
        return_depth = MIN(return_depth + 1, RETURN_STACK);
    }
}

/*
 * An LDM, STM, PUSH or POP of @n registers starting at @vaddr.  The A8
 * moves two registers a cycle from a 64-bit aligned address; from any
 * other, the first register takes a cycle alone (Cortex-A8 TRM r3p2,
 * chapter 16, instruction cycle timing: multi-cycle instructions issue in
 * pipeline 0 and pair with another only in their last cycle).  The
 * instruction's first cycle is in -icount's time per instruction; the
 * others stall.
 */
static void multiple_access(unsigned n, uint64_t vaddr)
{
    unsigned cycles = vaddr & 7 ? 1 + n / 2 : (n + 1) / 2;

    multiples++;
    if (cycles > 1) {
        multiple_extra_cycles += cycles - 1;
        stall((cycles - 1) * cycle_ps);
    }
}

/* An LDM, STM, PUSH or POP of @udata registers is about to run */
static void vcpu_multiple_exec(unsigned int vcpu_index, void *udata)
{
    multiple_pending = (uintptr_t)udata;
}

/*
 * A block starts: its instructions are consecutive, so its fetches are
 * the lines from its first to its last; and it is the outcome of the
 * branch that ended the block before.
 */
static void vcpu_block_exec(unsigned int vcpu_index, void *udata)
{
    const BlockInfo *b = udata;
    uint64_t line = b->first_line;
    uint64_t end = line + b->nlines;

    /* The block before has run: its instructions' time passes. */
    clock_ps += block_insns * ps_per_insn;
    block_insns = b->ninsns;
    if (profile) {
        profile_now = profile_entry(b->start);
        profile_now->insns += b->ninsns;
    }
    for (; line < end; line++) {
        if (!cache_access(&l1i, line, true)) {
            l1_read_miss(line);
        }
    }
    if (unresolved && (b->start < HIGH_VECTORS ||
                       b->start >= HIGH_VECTORS_END)) {
        branch_resolve(unresolved, b->start);
    }
    unresolved = predict_branches && b->kind != BRANCH_NONE ? b : NULL;
    /* A multiple that faulted before its first access charges nothing. */
    multiple_pending = 0;
}

static void vcpu_mem(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
                     uint64_t vaddr, void *udata)
{
    struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);
    const IoTarget *target;
    VmapEntry *slot;
    uint64_t line;

    if (multiple_pending) {
        multiple_access(multiple_pending, vaddr);
        multiple_pending = 0;
    }
    if (!hw) {
        return;
    }
    /*
     * A device's own RAM (the CPSW's CPPI RAM) is RAM to QEMU, but a
     * target behind the interconnect to the CPU, which Linux maps as
     * Device memory: uncached, each read a round trip.
     */
    target = io_target(qemu_plugin_hwaddr_phys_addr(hw));
    if (qemu_plugin_hwaddr_is_io(hw) || target) {
        if (qemu_plugin_mem_is_store(info)) {
            if (write_completion) {
                io_write(target, (uintptr_t)udata);
            }
            return;
        }
        if (write_completion) {
            wait_for_writes((uintptr_t)udata);
        }
        if (io_latency) {
            io_read(target);
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

/* Whether the 4 bytes at @insn are a DSB or a DMB (any option), A32 or T32 */
static bool is_barrier(const uint8_t *insn, bool t32)
{
    uint32_t w = insn[0] | insn[1] << 8 | insn[2] << 16 |
                 (uint32_t)insn[3] << 24;

    if (t32) {
        /* 1111 0011 1011 1111, 1000 1111 010x option */
        return (w & 0xffe0ffff) == 0x8f40f3bf;
    }
    /* 1111 0101 0111 1111 1111 0000 010x option */
    return (w & 0xffffffe0) == 0xf57ff040;
}

/*
 * The number of registers an LDM, STM, PUSH or POP moves, A32 (@size 4)
 * or T32 (@size 2 or 4), from its bytes at @b; 0 for anything else.
 */
static unsigned multiple_registers(const uint8_t *b, unsigned size, bool t32)
{
    uint32_t hw1 = b[0] | b[1] << 8;
    uint32_t hw2 = size == 4 ? b[2] | b[3] << 8 : 0;

    if (!t32) {
        uint32_t w = hw1 | hw2 << 16;

        /* cond 100 P U S W L Rn register_list */
        if ((w >> 28) != 0xf && (w & 0x0e000000) == 0x08000000) {
            return __builtin_popcount(w & 0xffff);
        }
        return 0;
    }
    if (size == 2) {
        if ((hw1 & 0xf600) == 0xb400) {             /* PUSH, POP */
            return __builtin_popcount(hw1 & 0x1ff);
        }
        if ((hw1 & 0xf000) == 0xc000) {             /* STM, LDM */
            return __builtin_popcount(hw1 & 0xff);
        }
        return 0;
    }
    /* 1110 100 op 0 W L Rn, op 01 (IA) or 10 (DB); 00 and 11 are SRS, RFE */
    if ((hw1 & 0xfe40) == 0xe800 &&
        (((hw1 >> 7) & 3) == 1 || ((hw1 >> 7) & 3) == 2)) {
        return __builtin_popcount(hw2 & 0xdfff);
    }
    return 0;
}

/* The kind of branch of the A32 instruction @w */
static BranchKind branch_kind_a32(uint32_t w)
{
    if ((w >> 28) == 0xf) {
        /* BLX (immediate); the rest of this space does not branch */
        return (w & 0x0e000000) == 0x0a000000 ? BRANCH_CALL : BRANCH_NONE;
    }
    if ((w & 0x0e000000) == 0x0a000000) {                   /* B, BL */
        return w & (1 << 24) ? BRANCH_CALL : BRANCH_JUMP;
    }
    if ((w & 0x0ffffff0) == 0x012fff10) {                   /* BX */
        return (w & 0xf) == 14 ? BRANCH_RETURN : BRANCH_JUMP;
    }
    if ((w & 0x0ffffff0) == 0x012fff30) {                   /* BLX (reg) */
        return BRANCH_CALL;
    }
    if ((w & 0x0e108000) == 0x08108000) {           /* LDM with the PC */
        if (w & (1 << 22)) {
            return BRANCH_NONE;         /* exception return */
        }
        return (w & 0x0fff8000) == 0x08bd8000 ? BRANCH_RETURN : BRANCH_JUMP;
    }
    if ((w & 0x0c50f000) == 0x0410f000 &&           /* LDR PC */
        (w & 0x02000010) != 0x02000010) {
        return (w & 0x0fff0000) == 0x049d0000 ? BRANCH_RETURN : BRANCH_JUMP;
    }
    if ((w & 0x0c00f000) == 0x0000f000 &&           /* data processing */
        (w & 0x0e000090) != 0x00000090 &&
        (w & 0x0f900000) != 0x01000000 &&
        ((w >> 21) & 0xc) != 0x8) {
        if (w & (1 << 20)) {
            return BRANCH_NONE;         /* exception return */
        }
        return (w & 0x0fffffff) == 0x01a0f00e ? BRANCH_RETURN : BRANCH_JUMP;
    }
    return BRANCH_NONE;
}

/* The kind of branch of the T32 instruction of @size bytes at @b */
static BranchKind branch_kind_t32(const uint8_t *b, unsigned size)
{
    uint32_t hw1 = b[0] | b[1] << 8;
    uint32_t hw2;

    if (size == 2) {
        if ((hw1 & 0xf000) == 0xd000) {                     /* B<c> */
            return ((hw1 >> 8) & 0xf) < 0xe ? BRANCH_JUMP : BRANCH_NONE;
        }
        if ((hw1 & 0xf800) == 0xe000 ||                     /* B */
            (hw1 & 0xf500) == 0xb100) {                     /* CBZ, CBNZ */
            return BRANCH_JUMP;
        }
        if ((hw1 & 0xff87) == 0x4700) {                     /* BX */
            return ((hw1 >> 3) & 0xf) == 14 ? BRANCH_RETURN : BRANCH_JUMP;
        }
        if ((hw1 & 0xff87) == 0x4780) {                     /* BLX (reg) */
            return BRANCH_CALL;
        }
        if ((hw1 & 0xff00) == 0xbd00) {                     /* POP {.., PC} */
            return BRANCH_RETURN;
        }
        if ((hw1 & 0xfc87) == 0x4487 && (hw1 & 0x0300) != 0x0100) {
            /* ADD PC, Rm or MOV PC, Rm */
            return (hw1 & 0xff78) == 0x4670 ? BRANCH_RETURN : BRANCH_JUMP;
        }
        return BRANCH_NONE;
    }
    hw2 = b[2] | b[3] << 8;
    if ((hw1 & 0xf800) == 0xf000 && (hw2 & 0x8000)) {
        if (hw2 & 0x4000) {
            return BRANCH_CALL;                             /* BL, BLX */
        }
        if (hw2 & 0x1000) {
            return BRANCH_JUMP;                             /* B.W */
        }
        return ((hw1 >> 6) & 0xf) < 0xe ? BRANCH_JUMP       /* B<c>.W */
                                         : BRANCH_NONE;
    }
    if ((hw1 & 0xff50) == 0xe810 && (hw2 & 0x8000)) {       /* LDM with PC */
        return hw1 == 0xe8bd ? BRANCH_RETURN : BRANCH_JUMP;
    }
    if ((hw1 & 0xfff0) == 0xe8d0 && (hw2 & 0xffe0) == 0xf000) {
        return BRANCH_JUMP;                                 /* TBB, TBH */
    }
    if ((hw1 & 0xfff0) == 0xf850 || (hw1 & 0xfff0) == 0xf8d0) {
        if ((hw2 >> 12) != 15) {
            return BRANCH_NONE;
        }
        return hw1 == 0xf85d && hw2 == 0xfb04 ? BRANCH_RETURN /* POP {PC} */
                                               : BRANCH_JUMP;  /* LDR PC */
    }
    return BRANCH_NONE;
}

static guint block_info_hash(gconstpointer p)
{
    const BlockInfo *b = p;

    return g_int64_hash(&b->start) ^ g_int64_hash(&b->branch_pc) ^ b->kind;
}

static gboolean block_info_equal(gconstpointer a, gconstpointer b)
{
    return memcmp(a, b, sizeof(BlockInfo)) == 0;
}

/* One BlockInfo for all blocks alike: retranslations take no memory. */
static const BlockInfo *block_info_intern(const BlockInfo *info)
{
    BlockInfo *b = g_hash_table_lookup(blocks, info);

    if (!b) {
        b = g_memdup2(info, sizeof(*info));
        g_hash_table_add(blocks, b);
    }
    return b;
}

/*
 * QEMU flushed its translated blocks: none refers to a BlockInfo any
 * more, so they go too (new processes' code would grow the table without
 * end otherwise).
 */
static void blocks_flushed(qemu_plugin_id_t id)
{
    unresolved = NULL;
    g_hash_table_remove_all(blocks);
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
        if (g_strcmp0(d->name, "cpsr") == 0) {
            cpsr_reg = d->handle;
        }
    }
}

/*
 * Whether the block being translated is T32.  A block is translated for
 * the state the vCPU is in when it is about to run it: CPSR.T is the
 * block's.
 */
static bool translating_t32(void)
{
    static GByteArray *buf;

    if (!buf) {
        buf = g_byte_array_new();
    }
    g_byte_array_set_size(buf, 0);
    return cpsr_reg && qemu_plugin_read_register(cpsr_reg, buf) >= 1 &&
           (buf->data[0] & 0x20);
}

static void vcpu_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);
    uint64_t start = qemu_plugin_tb_vaddr(tb);
    uint64_t end = start;
    BlockInfo info = { .start = start, .kind = BRANCH_NONE, .ninsns = n };
    bool t32 = translating_t32();

    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        size_t size = qemu_plugin_insn_size(insn);
        uint8_t bytes[4];
        bool decoded = (size == 2 || size == 4) &&
                       qemu_plugin_insn_data(insn, bytes, size) == size;
        unsigned nregs = 0;
        int rt = -1;

        end = qemu_plugin_insn_vaddr(insn) + size;
        if (decoded && multiple_cycles) {
            nregs = multiple_registers(bytes, size, t32);
        }
        if (nregs >= 2) {
            qemu_plugin_register_vcpu_insn_exec_cb(insn, vcpu_multiple_exec,
                                                   QEMU_PLUGIN_CB_NO_REGS,
                                                   (void *)(uintptr_t)nregs);
        }
        /* Both callbacks know the instruction's place in its block. */
        qemu_plugin_register_vcpu_mem_cb(insn, vcpu_mem,
                                         QEMU_PLUGIN_CB_NO_REGS,
                                         QEMU_PLUGIN_MEM_RW,
                                         (void *)(uintptr_t)i);
        if (decoded && size == 4) {
            rt = dc_invalidate_rt(bytes);
            if (write_completion && is_barrier(bytes, t32)) {
                qemu_plugin_register_vcpu_insn_exec_cb(
                    insn, vcpu_barrier_exec, QEMU_PLUGIN_CB_NO_REGS,
                    (void *)(uintptr_t)i);
            }
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
    info.first_line = start >> LINE_SHIFT;
    info.nlines = ((end - 1) >> LINE_SHIFT) - info.first_line + 1;
    if (n) {
        struct qemu_plugin_insn *last = qemu_plugin_tb_get_insn(tb, n - 1);
        size_t size = qemu_plugin_insn_size(last);
        uint8_t bytes[4];

        if ((size == 2 || size == 4) &&
            qemu_plugin_insn_data(last, bytes, size) == size) {
            if (t32) {
                info.kind = branch_kind_t32(bytes, size);
            } else if (size == 4) {
                info.kind = branch_kind_a32(bytes[0] | bytes[1] << 8 |
                                            bytes[2] << 16 |
                                            (uint32_t)bytes[3] << 24);
            }
        }
        info.branch_pc = qemu_plugin_insn_vaddr(last);
        info.fallthrough = end;
    }
    qemu_plugin_register_vcpu_tb_exec_cb(tb, vcpu_block_exec,
                                         QEMU_PLUGIN_CB_NO_REGS,
                                         (void *)block_info_intern(&info));
}

static void report(Cache *c, const char *name, GString *out)
{
    g_string_append_printf(out, "%s: %" PRIu64 " accesses, %" PRIu64
                           " misses\n", name, c->accesses, c->misses);
}

static void plugin_exit(qemu_plugin_id_t id, void *p)
{
    g_autoptr(GString) out = g_string_new("cortex-a8-timing:\n");

    report(&l1i, "  L1I", out);
    report(&l1d, "  L1D", out);
    report(&l2, "  L2", out);
    g_string_append_printf(out, "  stall charged: %" PRIu64
                           " instructions' time\n", charged_insns);
    g_string_append_printf(out, "  device register reads: %" PRIu64
                           ", %" PRIu64 " ns\n", io_reads,
                           io_stall_ps / 1000);
    g_string_append_printf(out, "  branches: %" PRIu64 ", mispredicted %"
                           PRIu64 "\n", branches, mispredicts);
    g_string_append_printf(out, "  load/store multiples: %" PRIu64
                           ", %" PRIu64 " cycles beyond the first\n",
                           multiples, multiple_extra_cycles);
    g_string_append_printf(out, "  device register writes: %" PRIu64
                           ", waited for %" PRIu64 " times, %" PRIu64
                           " ns\n", io_writes, write_waits,
                           write_wait_ps / 1000);
    g_string_append_printf(out, "  lines invalidated by DCIMVAC/DCCIMVAC: "
                           "%" PRIu64 "\n", invalidations);
    qemu_plugin_outs(out->str);
    if (profile_file) {
        profile_write();
    }
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info,
                                           int argc, char **argv)
{
    uint64_t shift = 1, cpu_mhz = 720, mem_ns = MEM_ROUND_TRIP_NS, io = 1;
    uint64_t bp = 1, multiple = 1, wc = 1;

    struct {
        const char *name;
        uint64_t *value;
        uint64_t min, max;
    } params[] = {
        { "shift", &shift, 0, 10 },
        { "cpu-mhz", &cpu_mhz, 1, 10000 },
        { "mem-ns", &mem_ns, 0, 10000 },
        { "io-latency", &io, 0, 1 },
        { "branches", &bp, 0, 1 },
        { "multiple", &multiple, 0, 1 },
        { "write-completion", &wc, 0, 1 },
    };

    for (int i = 0; i < argc; i++) {
        g_auto(GStrv) kv = g_strsplit(argv[i], "=", 2);
        unsigned p = G_N_ELEMENTS(params);
        char *end;
        uint64_t v;

        if (kv[0] && kv[1] && g_strcmp0(kv[0], "profile") == 0) {
            if (profile_file || !*kv[1]) {
                fprintf(stderr, "cortex-a8-timing: one profile=FILE\n");
                return -1;
            }
            profile_file = fopen(kv[1], "w");
            if (!profile_file) {
                fprintf(stderr, "cortex-a8-timing: cannot create %s: %s\n",
                        kv[1], g_strerror(errno));
                return -1;
            }
            continue;
        }
        if (kv[0] && kv[1]) {
            for (p = 0; p < G_N_ELEMENTS(params); p++) {
                if (g_strcmp0(kv[0], params[p].name) == 0) {
                    break;
                }
            }
        }
        if (p == G_N_ELEMENTS(params)) {
            fprintf(stderr, "cortex-a8-timing: unknown argument '%s' "
                    "(shift=, cpu-mhz=, mem-ns=, io-latency=, "
                    "branches=, multiple=, write-completion=, profile=)\n",
                    argv[i]);
            return -1;
        }
        v = g_ascii_strtoull(kv[1], &end, 10);
        if (*end || end == kv[1] || v < params[p].min || v > params[p].max) {
            fprintf(stderr, "cortex-a8-timing: '%s': a number from %" PRIu64
                    " to %" PRIu64 "\n", argv[i], params[p].min,
                    params[p].max);
            return -1;
        }
        *params[p].value = v;
    }
    if (!info->system_emulation || info->system.smp_vcpus != 1) {
        fprintf(stderr, "cortex-a8-timing: one vCPU, system emulation\n");
        return -1;
    }
    time_handle = qemu_plugin_request_time_control();
    if (!time_handle) {
        fprintf(stderr, "cortex-a8-timing: another plugin controls time\n");
        return -1;
    }
    io_latency = io;
    predict_branches = bp;
    multiple_cycles = multiple;
    write_completion = wc;
    ps_per_insn = 1000ull << shift;
    cycle_ps = 1000000ull / cpu_mhz;
    l2_hit_ps = L2_HIT_CYCLES * cycle_ps;
    /* The L2 lookup, then the round trip through the L3 to the DDR */
    l2_miss_ps = l2_hit_ps + MAX(MEM_MIN_CYCLES * cycle_ps, mem_ns * 1000);
    mispredict_ps = MISPREDICT_CYCLES * cycle_ps;
    blocks = g_hash_table_new_full(block_info_hash, block_info_equal, g_free,
                                   NULL);
    if (profile_file) {
        profile = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL,
                                        g_free);
    }
    cache_init(&l1i, L1_SETS, L1_WAYS);
    cache_init(&l1d, L1_SETS, L1_WAYS);
    cache_init(&l2, L2_SETS, L2_WAYS);
    qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
    qemu_plugin_register_vcpu_tb_trans_cb(id, vcpu_tb_trans);
    qemu_plugin_register_flush_cb(id, blocks_flushed);
    qemu_plugin_register_atexit_cb(id, plugin_exit, NULL);
    return 0;
}
