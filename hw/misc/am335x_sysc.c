/*
 * TI AM335x OCP target-module wrapper (ti-sysc) registers
 *
 * Each AM335x peripheral sits in an OCP target module with a few standard
 * registers in front of it: REV identifies the IP block and its version,
 * SYSCONFIG selects the idle and standby protocols and holds a soft reset
 * bit, and SYSSTATUS, where there is one, reports when that reset is over.
 * Linux's ti-sysc bus driver probes every target module of the device tree,
 * also those whose child device is disabled: it matches quirks on the REV
 * value, soft-resets the module and polls RESETDONE (or, for OMAP4-style
 * wrappers without SYSSTATUS, polls until SOFTRESET reads back 0).  A
 * wrapper that never finishes its reset stalls the boot.
 *
 * This device stands in for a whole target module whose block has no model
 * yet.  It answers the wrapper registers as the silicon does: REV gives the
 * silicon's value, SYSCONFIG keeps its writable fields and a soft reset
 * completes within the write that starts it.  Everything else in the module
 * reads as zero and is logged as unimplemented, like an unimplemented-device
 * region named after the module.
 *
 * am335x_sysc_modules.c lists the modules and their wrapper layouts.
 *
 * Reference: AM335x Technical Reference Manual (SPRUH73), the SYSCONFIG and
 * SYSSTATUS descriptions of each module's chapter.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qapi/error.h"
#include "hw/misc/am335x_sysc.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "trace.h"

/* SOFTRESET in SYSCONFIG, per wrapper type. */
#define SYSC_OMAP2_SOFTRESET    BIT(1)
#define SYSC_OMAP4_SOFTRESET    BIT(0)
/* SOFT_RESET of a reset-control style SYSSTATUS (CPSW_WR). */
#define SYSS_RESET_CONTROL      BIT(0)

typedef enum AM335xSyscReg {
    SYSC_REG_OTHER,
    SYSC_REG_REV,
    SYSC_REG_REV_HI,
    SYSC_REG_SYSCONFIG,
    SYSC_REG_SYSSTATUS,
} AM335xSyscReg;

static AM335xSyscReg am335x_sysc_decode(AM335xSyscState *s, hwaddr reg)
{
    if (s->rev_offset >= 0) {
        if (reg == s->rev_offset) {
            return SYSC_REG_REV;
        }
        if (s->rev_split16 && reg == s->rev_offset + 4) {
            return SYSC_REG_REV_HI;
        }
    }
    if (s->sysc_offset >= 0 && reg == s->sysc_offset) {
        return SYSC_REG_SYSCONFIG;
    }
    if (s->syss_offset >= 0 && reg == s->syss_offset) {
        return SYSC_REG_SYSSTATUS;
    }
    return SYSC_REG_OTHER;
}

static uint32_t am335x_sysc_softreset_bit(AM335xSyscState *s)
{
    switch (s->sysc_type) {
    case AM335X_SYSC_TYPE_OMAP2:
        return SYSC_OMAP2_SOFTRESET;
    case AM335X_SYSC_TYPE_OMAP4:
        return SYSC_OMAP4_SOFTRESET;
    default:
        return 0;
    }
}

/* A soft reset is over as soon as it starts: RESETDONE always reads 1. */
static uint32_t am335x_sysc_sysstatus(AM335xSyscState *s)
{
    uint32_t value = s->syss_fixed;

    if (s->syss_resetdone_bit >= 0) {
        value |= BIT(s->syss_resetdone_bit);
    }
    return value;
}

static void am335x_sysc_softreset(AM335xSyscState *s)
{
    trace_am335x_sysc_softreset(s->name);
    s->sysconfig = 0;
}

static uint64_t am335x_sysc_read(void *opaque, hwaddr offset, unsigned size)
{
    AM335xSyscState *s = AM335X_SYSC(opaque);
    uint32_t reg;
    uint64_t value;

    switch (am335x_sysc_decode(s, offset & ~3)) {
    case SYSC_REG_REV:
        reg = s->rev_split16 ? extract32(s->revision, 0, 16) : s->revision;
        break;
    case SYSC_REG_REV_HI:
        reg = extract32(s->revision, 16, 16);
        break;
    case SYSC_REG_SYSCONFIG:
        reg = s->sysconfig;
        break;
    case SYSC_REG_SYSSTATUS:
        reg = am335x_sysc_sysstatus(s);
        break;
    default:
        qemu_log_mask(LOG_UNIMP, "%s: unimplemented device read  "
                      "(size %u, offset 0x%" HWADDR_PRIx ")\n",
                      s->name, size, offset);
        reg = 0;
        break;
    }
    value = extract32(reg, (offset & 3) * 8, size * 8);
    trace_am335x_sysc_read(s->name, offset, size, value);
    return value;
}

static void am335x_sysc_write(void *opaque, hwaddr offset, uint64_t value,
                              unsigned size)
{
    AM335xSyscState *s = AM335X_SYSC(opaque);
    unsigned shift = (offset & 3) * 8;
    uint32_t mask = MAKE_64BIT_MASK(shift, size * 8);
    uint32_t data = ((uint32_t)value << shift) & mask;
    uint32_t srst = am335x_sysc_softreset_bit(s);
    uint32_t sysconfig;

    trace_am335x_sysc_write(s->name, offset, size, value);

    switch (am335x_sysc_decode(s, offset & ~3)) {
    case SYSC_REG_SYSCONFIG:
        sysconfig = (s->sysconfig & ~mask) | data;
        if (sysconfig & srst) {
            /* SYSCONFIG itself returns to its reset value. */
            am335x_sysc_softreset(s);
            break;
        }
        s->sysconfig = sysconfig & s->sysc_mask & ~srst;
        break;
    case SYSC_REG_SYSSTATUS:
        if (s->syss_resetdone_bit < 0) {
            /* A reset-control register: SOFT_RESET reads 0 when done. */
            if (data & SYSS_RESET_CONTROL) {
                am335x_sysc_softreset(s);
            }
            break;
        }
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: write to read-only "
                      "SYSSTATUS at offset 0x%" HWADDR_PRIx "\n",
                      __func__, s->name, offset);
        break;
    case SYSC_REG_REV:
    case SYSC_REG_REV_HI:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s: write to read-only "
                      "REV at offset 0x%" HWADDR_PRIx "\n",
                      __func__, s->name, offset);
        break;
    default:
        qemu_log_mask(LOG_UNIMP, "%s: unimplemented device write "
                      "(size %u, offset 0x%" HWADDR_PRIx
                      ", value 0x%" PRIx64 ")\n",
                      s->name, size, offset, value);
        break;
    }
}

static const MemoryRegionOps am335x_sysc_ops = {
    .read = am335x_sysc_read,
    .write = am335x_sysc_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    /*
     * ti-sysc reads 16-bit wrappers (I2C) with 16-bit accesses, and some
     * drivers read REV with readw; sub-word accesses are exact.
     */
    .valid.min_access_size = 1,
    .valid.max_access_size = 4,
    .impl.min_access_size = 1,
    .impl.max_access_size = 4,
};

/* A register offset must be a word inside the module, or -1 for none. */
static bool am335x_sysc_check_offset(AM335xSyscState *s, const char *prop,
                                     int32_t offset, Error **errp)
{
    if (offset == -1) {
        return true;
    }
    if (offset < 0 || (offset & 3) || (uint64_t)offset + 4 > s->size) {
        error_setg(errp, "%s %s: %s %" PRId32 " is not a word offset inside "
                   "the 0x%" PRIx64 "-byte module", TYPE_AM335X_SYSC,
                   s->name, prop, offset, s->size);
        return false;
    }
    return true;
}

static void am335x_sysc_realize(DeviceState *dev, Error **errp)
{
    AM335xSyscState *s = AM335X_SYSC(dev);
    int32_t rev_hi = s->rev_offset >= 0 && s->rev_split16 ?
                     s->rev_offset + 4 : -1;

    if (!s->name) {
        error_setg(errp, "%s: property \"name\" is required",
                   TYPE_AM335X_SYSC);
        return;
    }
    if (s->size < 4 || (s->size & 3) || s->size > UINT32_MAX) {
        error_setg(errp, "%s %s: size 0x%" PRIx64 " is not a word multiple "
                   "between 4 bytes and 4 GiB", TYPE_AM335X_SYSC, s->name,
                   s->size);
        return;
    }
    if (!am335x_sysc_check_offset(s, "rev-offset", s->rev_offset, errp) ||
        !am335x_sysc_check_offset(s, "rev-offset + 4", rev_hi, errp) ||
        !am335x_sysc_check_offset(s, "sysc-offset", s->sysc_offset, errp) ||
        !am335x_sysc_check_offset(s, "syss-offset", s->syss_offset, errp)) {
        return;
    }
    if ((s->sysc_offset >= 0 && (s->sysc_offset == s->rev_offset ||
                                 s->sysc_offset == rev_hi ||
                                 s->sysc_offset == s->syss_offset)) ||
        (s->syss_offset >= 0 && (s->syss_offset == s->rev_offset ||
                                 s->syss_offset == rev_hi))) {
        error_setg(errp, "%s %s: REV, SYSCONFIG and SYSSTATUS overlap",
                   TYPE_AM335X_SYSC, s->name);
        return;
    }
    if (s->sysc_type > AM335X_SYSC_TYPE_SIMPLE) {
        error_setg(errp, "%s %s: unknown sysc-type %u", TYPE_AM335X_SYSC,
                   s->name, s->sysc_type);
        return;
    }
    if (s->syss_resetdone_bit < -1 || s->syss_resetdone_bit > 31) {
        error_setg(errp, "%s %s: syss-resetdone-bit %" PRId32 " is not a "
                   "bit number or -1", TYPE_AM335X_SYSC, s->name,
                   s->syss_resetdone_bit);
        return;
    }

    memory_region_init_io(&s->iomem, OBJECT(s), &am335x_sysc_ops, s,
                          s->name, s->size);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->iomem);
}

static void am335x_sysc_reset_hold(Object *obj, ResetType type)
{
    AM335X_SYSC(obj)->sysconfig = 0;
}

static const VMStateDescription vmstate_am335x_sysc = {
    .name = TYPE_AM335X_SYSC,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(sysconfig, AM335xSyscState),
        VMSTATE_END_OF_LIST()
    }
};

static const Property am335x_sysc_properties[] = {
    /* The module's name, for the unimplemented-access log. */
    DEFINE_PROP_STRING("name", AM335xSyscState, name),
    DEFINE_PROP_UINT64("size", AM335xSyscState, size, 0),
    DEFINE_PROP_INT32("rev-offset", AM335xSyscState, rev_offset, 0),
    DEFINE_PROP_UINT32("revision", AM335xSyscState, revision, 0),
    DEFINE_PROP_BOOL("rev-split16", AM335xSyscState, rev_split16, false),
    DEFINE_PROP_INT32("sysc-offset", AM335xSyscState, sysc_offset, -1),
    DEFINE_PROP_UINT8("sysc-type", AM335xSyscState, sysc_type,
                      AM335X_SYSC_TYPE_OMAP2),
    /* The SYSCONFIG bits that keep a written value. */
    DEFINE_PROP_UINT32("sysc-mask", AM335xSyscState, sysc_mask, 0),
    DEFINE_PROP_INT32("syss-offset", AM335xSyscState, syss_offset, -1),
    DEFINE_PROP_INT32("syss-resetdone-bit", AM335xSyscState,
                      syss_resetdone_bit, 0),
    DEFINE_PROP_UINT32("syss-fixed", AM335xSyscState, syss_fixed, 0),
};

static void am335x_sysc_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->realize = am335x_sysc_realize;
    dc->vmsd = &vmstate_am335x_sysc;
    dc->desc = "TI AM335x OCP target-module wrapper registers";
    rc->phases.hold = am335x_sysc_reset_hold;
    device_class_set_props(dc, am335x_sysc_properties);
    set_bit(DEVICE_CATEGORY_MISC, dc->categories);
}

static const TypeInfo am335x_sysc_info = {
    .name = TYPE_AM335X_SYSC,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AM335xSyscState),
    .class_init = am335x_sysc_class_init,
};

static void am335x_sysc_register_types(void)
{
    type_register_static(&am335x_sysc_info);
}

type_init(am335x_sysc_register_types)
