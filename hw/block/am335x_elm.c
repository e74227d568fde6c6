/*
 * TI AM335x error location module (ELM)
 *
 * The ELM takes the BCH syndrome polynomials the GPMC computed while
 * reading NAND sectors (up to eight, SYNDROME_FRAGMENT_0-6 each) and
 * returns the bit positions of the errors in each codeword:
 * LOCATION_STATUS gives the count and ECC_CORRECTABLE, ERROR_LOCATION_0-15
 * the positions (0 is the last bit of the codeword, its last parity bit).
 * Setting SYNDROME_VALID starts the decoding of a vector, which here
 * completes at once.  In continuous mode each vector sets its LOC_VALID
 * interrupt status; the vectors selected in PAGE_CTRL form a page, which
 * sets PAGE_VALID when its last vector is done.
 *
 * LOCATION_CONFIG gives the code (BCH4, BCH8, BCH16, ECC_BCH_LEVEL) and
 * the codeword size in nibbles (ECC_SIZE): errors are searched in that
 * many bits only.  The decoding (am335x_bch.c): power sums of the
 * syndrome polynomial, Berlekamp-Massey and a Chien search.  More errors
 * than t, or a locator whose roots are not all in the codeword, read as
 * uncorrectable.
 *
 * Not modelled: idle modes.
 *
 * Reference: AM335x Technical Reference Manual (SPRUH73), chapter 7.4.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "hw/block/am335x_elm.h"
#include "hw/block/am335x_bch.h"
#include "hw/irq.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "trace.h"

/* TRM 7.4.5: ELM registers */
REG32(REVISION, 0x000)
REG32(SYSCONFIG, 0x010)
    FIELD(SYSCONFIG, SOFTRESET, 1, 1)
REG32(SYSSTATUS, 0x014)
    FIELD(SYSSTATUS, RESETDONE, 0, 1)
REG32(IRQSTATUS, 0x018)
    FIELD(IRQSTATUS, LOC_VALID, 0, 8)
    FIELD(IRQSTATUS, PAGE_VALID, 8, 1)
REG32(IRQENABLE, 0x01c)
REG32(LOCATION_CONFIG, 0x020)
    FIELD(LOCATION_CONFIG, ECC_BCH_LEVEL, 0, 2)
    FIELD(LOCATION_CONFIG, ECC_SIZE, 16, 11)
REG32(PAGE_CTRL, 0x080)
/* Vector i's registers at these + i * stride */
REG32(SYNDROME_FRAGMENT_0, 0x400)
#define SYNDROME_STRIDE     0x40
REG32(SYNDROME_FRAGMENT_6, 0x418)
    FIELD(SYNDROME_FRAGMENT_6, SYNDROME_6, 0, 16)
    FIELD(SYNDROME_FRAGMENT_6, SYNDROME_VALID, 16, 1)
REG32(LOCATION_STATUS, 0x800)
    FIELD(LOCATION_STATUS, ECC_NB_ERRORS, 0, 5)
    FIELD(LOCATION_STATUS, ECC_CORRECTABLE, 8, 1)
REG32(ERROR_LOCATION_0, 0x880)
#define LOCATION_STRIDE     0x100

#define ELM_REVISION        0x00000020
#define ELM_SYSCONFIG_MASK  0x319
#define IRQ_MASK            0x1ff

static void elm_update_irq(AM335xElmState *s)
{
    bool level = s->irqstatus & s->irqenable & IRQ_MASK;

    trace_am335x_elm_irq(level);
    qemu_set_irq(s->irq, level);
}

static unsigned elm_t(AM335xElmState *s)
{
    switch (FIELD_EX32(s->location_config, LOCATION_CONFIG, ECC_BCH_LEVEL)) {
    case 0:
        return 4;
    case 1:
        return 8;
    case 2:
        return 16;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-elm: ECC_BCH_LEVEL 3 is "
                      "reserved; using BCH16\n");
        return 16;
    }
}

static void elm_process(AM335xElmState *s, int n)
{
    unsigned t = elm_t(s);
    unsigned parity = am335x_bch_parity_bits(t);
    unsigned cw_bits = 4 * FIELD_EX32(s->location_config, LOCATION_CONFIG,
                                      ECC_SIZE);
    uint16_t loc[AM335X_BCH_MAX_T];
    AM335xBchRem rem = { 0 };
    int nerr;

    for (unsigned k = 0; k < AM335X_BCH_WORDS; k++) {
        rem.w[k] = s->syndrome[n][k];
        if (parity <= 32 * k) {
            rem.w[k] = 0;
        } else if (parity < 32 * (k + 1)) {
            rem.w[k] &= MAKE_64BIT_MASK(0, parity - 32 * k);
        }
    }
    if (cw_bits < parity) {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-elm: ECC_SIZE of %u nibbles "
                      "is shorter than the parity\n", cw_bits / 4);
    }
    nerr = am335x_bch_decode(&rem, t, cw_bits, loc);
    trace_am335x_elm_decode(n, nerr);

    memset(s->error_location[n], 0, sizeof(s->error_location[n]));
    s->location_status[n] = 0;
    if (nerr >= 0) {
        s->location_status[n] =
            FIELD_DP32(0, LOCATION_STATUS, ECC_NB_ERRORS, nerr) |
            R_LOCATION_STATUS_ECC_CORRECTABLE_MASK;
        for (int i = 0; i < nerr; i++) {
            s->error_location[n][i] = loc[i];
        }
    }
    s->syndrome[n][6] &= ~R_SYNDROME_FRAGMENT_6_SYNDROME_VALID_MASK;

    if (s->page_ctrl & BIT(n)) {
        s->page_done |= BIT(n);
        if (!(s->page_ctrl & ~s->page_done)) {
            s->irqstatus |= R_IRQSTATUS_PAGE_VALID_MASK;
            s->page_done = 0;
        }
    } else {
        s->irqstatus |= BIT(n);
    }
    elm_update_irq(s);
}

static void elm_reset_regs(AM335xElmState *s)
{
    s->sysconfig = 0;
    s->irqstatus = 0;
    s->irqenable = 0;
    s->location_config = 0x07ff0000;
    s->page_ctrl = 0;
    s->page_done = 0;
    memset(s->syndrome, 0, sizeof(s->syndrome));
    memset(s->location_status, 0, sizeof(s->location_status));
    memset(s->error_location, 0, sizeof(s->error_location));
}

static uint64_t elm_read(void *opaque, hwaddr addr, unsigned size)
{
    AM335xElmState *s = opaque;
    uint64_t v = 0;

    switch (addr) {
    case A_REVISION:
        v = ELM_REVISION;
        break;
    case A_SYSCONFIG:
        v = s->sysconfig;
        break;
    case A_SYSSTATUS:
        v = R_SYSSTATUS_RESETDONE_MASK;
        break;
    case A_IRQSTATUS:
        v = s->irqstatus;
        break;
    case A_IRQENABLE:
        v = s->irqenable;
        break;
    case A_LOCATION_CONFIG:
        v = s->location_config;
        break;
    case A_PAGE_CTRL:
        v = s->page_ctrl;
        break;
    case A_SYNDROME_FRAGMENT_0 ...
         A_SYNDROME_FRAGMENT_0 + AM335X_ELM_NUM_SYNDROMES * SYNDROME_STRIDE
         - 1:
    {
        unsigned n = (addr - A_SYNDROME_FRAGMENT_0) / SYNDROME_STRIDE;
        unsigned k = (addr - A_SYNDROME_FRAGMENT_0) % SYNDROME_STRIDE / 4;

        if (k < AM335X_ELM_NUM_FRAGMENTS) {
            v = s->syndrome[n][k];
        } else {
            goto bad;
        }
        break;
    }
    case A_LOCATION_STATUS ...
         A_LOCATION_STATUS + AM335X_ELM_NUM_SYNDROMES * LOCATION_STRIDE - 1:
    {
        unsigned n = (addr - A_LOCATION_STATUS) / LOCATION_STRIDE;
        hwaddr reg = (addr - A_LOCATION_STATUS) % LOCATION_STRIDE;

        if (reg == 0) {
            v = s->location_status[n];
        } else if (reg >= A_ERROR_LOCATION_0 - A_LOCATION_STATUS &&
                   reg < A_ERROR_LOCATION_0 - A_LOCATION_STATUS +
                   4 * AM335X_ELM_NUM_LOCATIONS) {
            v = s->error_location[n][(reg - (A_ERROR_LOCATION_0 -
                                             A_LOCATION_STATUS)) / 4];
        } else {
            goto bad;
        }
        break;
    }
    default:
        goto bad;
    }
    trace_am335x_elm_read(addr, v);
    return v;

bad:
    qemu_log_mask(LOG_GUEST_ERROR, "%s: bad offset 0x%" HWADDR_PRIx "\n",
                  __func__, addr);
    return 0;
}

static void elm_write(void *opaque, hwaddr addr, uint64_t v, unsigned size)
{
    AM335xElmState *s = opaque;

    trace_am335x_elm_write(addr, v);
    switch (addr) {
    case A_SYSCONFIG:
        if (v & R_SYSCONFIG_SOFTRESET_MASK) {
            elm_reset_regs(s);
            elm_update_irq(s);
            break;
        }
        s->sysconfig = v & ELM_SYSCONFIG_MASK;
        break;
    case A_IRQSTATUS:
        s->irqstatus &= ~(v & IRQ_MASK);
        elm_update_irq(s);
        break;
    case A_IRQENABLE:
        s->irqenable = v & IRQ_MASK;
        elm_update_irq(s);
        break;
    case A_LOCATION_CONFIG:
        s->location_config = v & (R_LOCATION_CONFIG_ECC_BCH_LEVEL_MASK |
                                  R_LOCATION_CONFIG_ECC_SIZE_MASK);
        break;
    case A_PAGE_CTRL:
        s->page_ctrl = v & 0xff;
        s->page_done &= s->page_ctrl;
        break;
    case A_SYNDROME_FRAGMENT_0 ...
         A_SYNDROME_FRAGMENT_0 + AM335X_ELM_NUM_SYNDROMES * SYNDROME_STRIDE
         - 1:
    {
        unsigned n = (addr - A_SYNDROME_FRAGMENT_0) / SYNDROME_STRIDE;
        unsigned k = (addr - A_SYNDROME_FRAGMENT_0) % SYNDROME_STRIDE / 4;

        if (k >= AM335X_ELM_NUM_FRAGMENTS) {
            goto bad;
        }
        if (k == 6) {
            s->syndrome[n][6] = v & (R_SYNDROME_FRAGMENT_6_SYNDROME_6_MASK |
                                 R_SYNDROME_FRAGMENT_6_SYNDROME_VALID_MASK);
            if (v & R_SYNDROME_FRAGMENT_6_SYNDROME_VALID_MASK) {
                elm_process(s, n);
            }
        } else {
            s->syndrome[n][k] = v;
        }
        break;
    }
    case A_REVISION:
    case A_SYSSTATUS:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: write to read-only 0x%"
                      HWADDR_PRIx "\n", __func__, addr);
        break;
    default:
        if (addr >= A_LOCATION_STATUS &&
            addr < A_LOCATION_STATUS +
                   AM335X_ELM_NUM_SYNDROMES * LOCATION_STRIDE) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: write to read-only 0x%"
                          HWADDR_PRIx "\n", __func__, addr);
            break;
        }
        goto bad;
    }
    return;

bad:
    qemu_log_mask(LOG_GUEST_ERROR, "%s: bad offset 0x%" HWADDR_PRIx "\n",
                  __func__, addr);
}

static const MemoryRegionOps elm_ops = {
    .read = elm_read,
    .write = elm_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 4,
    .valid.max_access_size = 4,
};

static void am335x_elm_reset_hold(Object *obj, ResetType type)
{
    elm_reset_regs(AM335X_ELM(obj));
}

static void am335x_elm_reset_exit(Object *obj, ResetType type)
{
    elm_update_irq(AM335X_ELM(obj));
}

static void am335x_elm_init(Object *obj)
{
    AM335xElmState *s = AM335X_ELM(obj);

    memory_region_init_io(&s->iomem, obj, &elm_ops, s, TYPE_AM335X_ELM,
                          AM335X_ELM_MMIO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(obj), &s->iomem);
    sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq);
}

static const VMStateDescription vmstate_am335x_elm = {
    .name = TYPE_AM335X_ELM,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(sysconfig, AM335xElmState),
        VMSTATE_UINT32(irqstatus, AM335xElmState),
        VMSTATE_UINT32(irqenable, AM335xElmState),
        VMSTATE_UINT32(location_config, AM335xElmState),
        VMSTATE_UINT32(page_ctrl, AM335xElmState),
        VMSTATE_UINT32(page_done, AM335xElmState),
        VMSTATE_UINT32_2DARRAY(syndrome, AM335xElmState,
                               AM335X_ELM_NUM_SYNDROMES,
                               AM335X_ELM_NUM_FRAGMENTS),
        VMSTATE_UINT32_ARRAY(location_status, AM335xElmState,
                             AM335X_ELM_NUM_SYNDROMES),
        VMSTATE_UINT32_2DARRAY(error_location, AM335xElmState,
                               AM335X_ELM_NUM_SYNDROMES,
                               AM335X_ELM_NUM_LOCATIONS),
        VMSTATE_END_OF_LIST()
    }
};

static void am335x_elm_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    ResettableClass *rc = RESETTABLE_CLASS(oc);

    dc->vmsd = &vmstate_am335x_elm;
    dc->desc = "TI AM335x error location module";
    dc->user_creatable = false;
    rc->phases.hold = am335x_elm_reset_hold;
    rc->phases.exit = am335x_elm_reset_exit;
}

static const TypeInfo am335x_elm_info = {
    .name = TYPE_AM335X_ELM,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AM335xElmState),
    .instance_init = am335x_elm_init,
    .class_init = am335x_elm_class_init,
};

static void am335x_elm_register_types(void)
{
    type_register_static(&am335x_elm_info);
}

type_init(am335x_elm_register_types)
