/*
 * TI AM335x OCP target-module wrapper (ti-sysc) registers
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_MISC_AM335X_SYSC_H
#define HW_MISC_AM335X_SYSC_H

#include "hw/sysbus.h"
#include "qom/object.h"

#define TYPE_AM335X_SYSC "am335x-sysc"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xSyscState, AM335X_SYSC)

/*
 * Where SYSCONFIG keeps its SOFTRESET bit ("sysc-type").  The idle and
 * other writable fields are given by "sysc-mask", not by the type.
 */
typedef enum AM335xSyscType {
    /* OMAP2 style ("type 1"): AUTOIDLE 0, SOFTRESET 1, SIDLE [4:3]... */
    AM335X_SYSC_TYPE_OMAP2 = 0,
    /* OMAP4 style ("type 2"): SOFTRESET 0, SIDLE [3:2], MIDLE [5:4] */
    AM335X_SYSC_TYPE_OMAP4 = 1,
    /* No SOFTRESET bit: omap4-simple ("type 3"), PRUSS, McASP, RTC */
    AM335X_SYSC_TYPE_SIMPLE = 2,
} AM335xSyscType;

struct AM335xSyscState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    uint32_t sysconfig;

    /* Properties */
    char *name;
    uint64_t size;
    int32_t rev_offset;
    uint32_t revision;
    bool rev_split16;
    int32_t sysc_offset;
    uint8_t sysc_type;
    uint32_t sysc_mask;
    int32_t syss_offset;
    int32_t syss_resetdone_bit;
    uint32_t syss_fixed;
};

/*
 * One ti-sysc target module of the stock BeagleBone Black and EVM device
 * trees whose block has no model of its own.  Offsets are from the module
 * base, -1 when the wrapper has no such register.
 */
typedef struct AM335xSyscModule {
    const char *name;
    hwaddr base;
    uint64_t size;
    int32_t rev_offset;
    uint32_t revision;
    /* REV is two 16-bit halves, low at rev_offset, high at rev_offset + 4 */
    bool rev_split16;
    int32_t sysc_offset;
    AM335xSyscType sysc_type;
    uint32_t sysc_mask;
    int32_t syss_offset;
    /* RESETDONE position; -1: SYSSTATUS reads 0 once the reset is over. */
    int32_t syss_resetdone_bit;
    /* Read-only bits SYSSTATUS always shows (e.g. the spinlock count). */
    uint32_t syss_fixed;
} AM335xSyscModule;

#define AM335X_SYSC_NUM_MODULES 14

/* am335x_sysc_modules.c checks that it holds AM335X_SYSC_NUM_MODULES. */
extern const AM335xSyscModule am335x_sysc_modules[];

/* Sets the properties of an unrealized am335x-sysc device from @m. */
void am335x_sysc_set_module_props(DeviceState *dev,
                                  const AM335xSyscModule *m);

#endif
