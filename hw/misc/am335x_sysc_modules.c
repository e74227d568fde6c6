/*
 * TI AM335x: the ti-sysc target modules without a model of their own
 *
 * Every target module that the stock am335x-boneblack and am335x-evm device
 * trees enable (the two trees enable the same set; some with their child
 * device disabled, which ti-sysc probes all the same), less the blocks that
 * have their own models: UART0-5, DMTIMER0-7, INTC, PRCM, the control
 * module, the EDMA (TPCC, TPTC0-2), MMCHS0-2, the CPSW, the TSC_ADC and
 * D_CAN0-1.
 *
 * Layout: REV/SYSCONFIG/SYSSTATUS offsets and the wrapper type come from the
 * target-module nodes (reg, reg-names, compatible).  sysc_mask is the node's
 * ti,sysc-mask plus the SIDLE field when it lists ti,sysc-sidle modes and
 * the MIDLE field when it lists ti,sysc-midle modes.  The size is the
 * module's window: the L4 access-point window around the child's reg, or
 * the TRM memory-map region for modules on L3.
 *
 * REV values: ti-sysc (drivers/bus/ti-sysc.c, sysc_revision_quirks[]) and
 * several drivers key on them, so they are the silicon's.  The source of
 * each is given next to it: a quirk entry (value, and its mask when it has
 * one), a driver's check or message on a real BeagleBone Black, or the TRM
 * reset value.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "hw/misc/am335x_sysc.h"
#include "hw/qdev-properties.h"

#define NONE    (-1)
#define OMAP2   AM335X_SYSC_TYPE_OMAP2
#define OMAP4   AM335X_SYSC_TYPE_OMAP4
#define SIMPLE  AM335X_SYSC_TYPE_SIMPLE

/* SPINLOCK SYSSTATUS.NUMLOCKS [31:24] = 4: 128 locks. */
#define SPINLOCK_NUMLOCKS_128   (4u << 24)

const AM335xSyscModule am335x_sysc_modules[] = {
    /* L4_WKUP */
    {
        /*
         * ti-sysc "m3": 0x5f580105 under mask 0x0fff0f00.  REV is the first
         * word of the wakeup-M3's UMEM (RAM); its DMEM at 0x44d80000 is not
         * covered here.
         */
        .name = "wkup-m3", .base = 0x44d00000, .size = 16 * KiB,
        .rev_offset = 0x0, .revision = 0x5f580105,
        .sysc_offset = NONE, .sysc_type = OMAP4, .sysc_mask = 0,
        .syss_offset = NONE,
    },
    /* L4_PER */
    {
        /* ti-sysc "mcspi" (SYSCONFIG at 0x110): 0x40300a0b. */
        .name = "mcspi0", .base = 0x48030000, .size = 4 * KiB,
        .rev_offset = 0x0, .revision = 0x40300a0b,
        .sysc_offset = 0x110, .sysc_type = OMAP2, .sysc_mask = 0x31b,
        .syss_offset = 0x114,
    }, {
        /*
         * ti-sysc "mailbox": 0x00000400 (omap-mailbox prints "rev 0x400"
         * on a BeagleBone Black).  No SYSSTATUS: SOFTRESET self-clears.
         */
        .name = "mailbox", .base = 0x480c8000, .size = 4 * KiB,
        .rev_offset = 0x0, .revision = 0x00000400,
        .sysc_offset = 0x10, .sysc_type = OMAP4, .sysc_mask = 0x0d,
        .syss_offset = NONE,
    }, {
        /*
         * ti-sysc "spinlock": 0x50020000.  omap_hwspinlock sizes the bank
         * from SYSSTATUS.NUMLOCKS and fails to probe if it is 0.
         */
        .name = "spinlock", .base = 0x480ca000, .size = 4 * KiB,
        .rev_offset = 0x0, .revision = 0x50020000,
        .sysc_offset = 0x10, .sysc_type = OMAP2, .sysc_mask = 0x31f,
        .syss_offset = 0x14, .syss_fixed = SPINLOCK_NUMLOCKS_128,
    }, {
        /* As mcspi0. */
        .name = "mcspi1", .base = 0x481a0000, .size = 4 * KiB,
        .rev_offset = 0x0, .revision = 0x40300a0b,
        .sysc_offset = 0x110, .sysc_type = OMAP2, .sysc_mask = 0x31b,
        .syss_offset = 0x114,
    }, {
        /* ti-sysc "epwmss": 0x47400001 (PWMSS IDVER). */
        .name = "pwmss0", .base = 0x48300000, .size = 4 * KiB,
        .rev_offset = 0x0, .revision = 0x47400001,
        .sysc_offset = 0x4, .sysc_type = OMAP4, .sysc_mask = 0x3c,
        .syss_offset = NONE,
    }, {
        /* As pwmss0. */
        .name = "pwmss1", .base = 0x48302000, .size = 4 * KiB,
        .rev_offset = 0x0, .revision = 0x47400001,
        .sysc_offset = 0x4, .sysc_type = OMAP4, .sysc_mask = 0x3c,
        .syss_offset = NONE,
    }, {
        /* As pwmss0. */
        .name = "pwmss2", .base = 0x48304000, .size = 4 * KiB,
        .rev_offset = 0x0, .revision = 0x47400001,
        .sysc_offset = 0x4, .sysc_type = OMAP4, .sysc_mask = 0x3c,
        .syss_offset = NONE,
    }, {
        /* ti-sysc "rng": 0x00000020 (omap_rng prints "ver. 20"). */
        .name = "rng", .base = 0x48310000, .size = 8 * KiB,
        .rev_offset = 0x1fe0, .revision = 0x00000020,
        .sysc_offset = 0x1fe4, .sysc_type = OMAP2, .sysc_mask = 0x19,
        .syss_offset = NONE,
    },
    /* L4_FAST (the CPSW at 0x4a100000 has its own model) */
    {
        /*
         * ti-sysc "pruss": 0x47000000 under mask 0xff000000.  SYSCFG bit 5
         * (SUB_MWAIT) is a status bit: it reads 0, "ready".
         */
        .name = "pruss", .base = 0x4a300000, .size = 512 * KiB,
        .rev_offset = 0x26000, .revision = 0x47000000,
        .sysc_offset = 0x26004, .sysc_type = SIMPLE, .sysc_mask = 0x1f,
        .syss_offset = NONE,
    },
    /* L3 (the USB subsystem at 0x47400000 has its own model) */
    {
        /* ti-sysc "emif": 0x40441403 under mask 0xffff0fff (EMIF4D). */
        .name = "emif", .base = 0x4c000000, .size = 16 * MiB,
        .rev_offset = 0x0, .revision = 0x40441403,
        .sysc_offset = NONE, .sysc_type = SIMPLE, .sysc_mask = 0,
        .syss_offset = NONE,
    }, {
        /* ti-sysc "sham": 0x40000c03 (omap-sham prints "rev 4.3"). */
        .name = "sham", .base = 0x53100000, .size = 1 * MiB,
        .rev_offset = 0x100, .revision = 0x40000c03,
        .sysc_offset = 0x110, .sysc_type = OMAP2, .sysc_mask = 0x33,
        .syss_offset = 0x114,
    }, {
        /*
         * No ti-sysc entry.  omap-aes prints "rev: 3.2" on a BeagleBone
         * Black: major [10:8] = 3, minor [5:0] = 2; the scheme bits [31:30]
         * = 01 are those of the other TI revision registers.
         */
        .name = "aes", .base = 0x53500000, .size = 1 * MiB,
        .rev_offset = 0x80, .revision = 0x40000302,
        .sysc_offset = 0x84, .sysc_type = OMAP2, .sysc_mask = 0x1b,
        .syss_offset = 0x88,
    }, {
        /* ti-sysc "gpu" (REV at 0xfe00): 0x40000000 (SGX530 OCP wrapper). */
        .name = "sgx", .base = 0x56000000, .size = 16 * MiB,
        .rev_offset = 0xfe00, .revision = 0x40000000,
        .sysc_offset = 0xfe10, .sysc_type = OMAP4, .sysc_mask = 0x3c,
        .syss_offset = NONE,
    },
};

QEMU_BUILD_BUG_ON(ARRAY_SIZE(am335x_sysc_modules) != AM335X_SYSC_NUM_MODULES);

void am335x_sysc_set_module_props(DeviceState *dev, const AM335xSyscModule *m)
{
    qdev_prop_set_string(dev, "name", m->name);
    qdev_prop_set_uint64(dev, "size", m->size);
    qdev_prop_set_int32(dev, "rev-offset", m->rev_offset);
    qdev_prop_set_uint32(dev, "revision", m->revision);
    qdev_prop_set_bit(dev, "rev-split16", m->rev_split16);
    qdev_prop_set_int32(dev, "sysc-offset", m->sysc_offset);
    qdev_prop_set_uint8(dev, "sysc-type", m->sysc_type);
    qdev_prop_set_uint32(dev, "sysc-mask", m->sysc_mask);
    qdev_prop_set_int32(dev, "syss-offset", m->syss_offset);
    qdev_prop_set_int32(dev, "syss-resetdone-bit", m->syss_resetdone_bit);
    qdev_prop_set_uint32(dev, "syss-fixed", m->syss_fixed);
}
