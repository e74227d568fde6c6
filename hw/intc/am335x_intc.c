/*
 * TI AM335x MPU interrupt controller (INTC)
 *
 * The INTC takes 128 level-sensitive interrupt lines, masks them (MIRn and a
 * priority threshold), steers each one to the Cortex-A8's IRQ or FIQ input
 * (ILRm.FIQNIRQ) and sorts the survivors by priority.  One sorter per
 * request type puts its winner in SIR_IRQ/SIR_FIQ and IRQ_/FIQ_PRIORITY and
 * asserts the output.  The result then stays frozen, and the output stays
 * asserted, until software writes NEWIRQAGR/NEWFIQAGR in INTC_CONTROL: only
 * then is the next pending interrupt sorted, or the output deasserted.
 *
 * Sorting takes ten functional clock cycles on the silicon, always done
 * before the CPU can read SIR; here it is instantaneous, so the spurious
 * flags only mean "no sort result since the last agreement".
 *
 * Reference: AM335x Technical Reference Manual (SPRUH73), chapter 6
 * (Interrupts): 6.1 for the behaviour, 6.6.1 for the registers.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/host-utils.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "hw/intc/am335x_intc.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "trace.h"

REG32(REVISION, 0x00)
REG32(SYSCONFIG, 0x10)
    FIELD(SYSCONFIG, AUTOIDLE, 0, 1)
    FIELD(SYSCONFIG, SOFTRESET, 1, 1)
REG32(SYSSTATUS, 0x14)
    FIELD(SYSSTATUS, RESETDONE, 0, 1)
/* SIR_IRQ/SIR_FIQ and IRQ_/FIQ_PRIORITY share this layout. */
REG32(SIR_IRQ, 0x40)
    FIELD(SIR, ACTIVE, 0, 7)
    FIELD(SIR, SPURIOUS, 7, 25)
REG32(SIR_FIQ, 0x44)
REG32(CONTROL, 0x48)
    FIELD(CONTROL, NEWIRQAGR, 0, 1)
    FIELD(CONTROL, NEWFIQAGR, 1, 1)
REG32(PROTECTION, 0x4c)
    FIELD(PROTECTION, PROTECTION, 0, 1)
REG32(IDLE, 0x50)
    FIELD(IDLE, FUNCIDLE, 0, 1)
    FIELD(IDLE, TURBO, 1, 1)
REG32(IRQ_PRIORITY, 0x60)
REG32(FIQ_PRIORITY, 0x64)
REG32(THRESHOLD, 0x68)
    FIELD(THRESHOLD, PRIORITYTHRESHOLD, 0, 8)
/* Bank n of these eight registers is at offset + 0x20 * n. */
REG32(ITR0, 0x80)
REG32(MIR0, 0x84)
REG32(MIR_CLEAR0, 0x88)
REG32(MIR_SET0, 0x8c)
REG32(ISR_SET0, 0x90)
REG32(ISR_CLEAR0, 0x94)
REG32(PENDING_IRQ0, 0x98)
REG32(PENDING_FIQ0, 0x9c)
/* ILRm is at 0x100 + 4 * m. */
REG32(ILR0, 0x100)
    FIELD(ILR, FIQNIRQ, 0, 1)
    FIELD(ILR, PRIORITY, 2, 6)

#define BANK_STRIDE         0x20
#define BANKS_END           (A_ITR0 + AM335X_INTC_NUM_BANKS * BANK_STRIDE)
#define ILR_END             (A_ILR0 + AM335X_INTC_NUM_IRQS * 4)

/* TRM 6.6.1.2: bits 4:3 read 0 and SOFTRESET always reads 0. */
#define SYSCONFIG_WRITABLE  R_SYSCONFIG_AUTOIDLE_MASK
#define IDLE_WRITABLE       (R_IDLE_FUNCIDLE_MASK | R_IDLE_TURBO_MASK)
/* TRM 6.6.1.44: bit 1 is a reserved but read/write bit. */
#define ILR_WRITABLE        0xff

/* TRM 6.6.1.11: the reset value, which disables priority masking. */
#define THRESHOLD_DISABLED  0xff
/*
 * TRM 6.6.1.9: IRQ_/FIQ_PRIORITY reset to 0x40, one below the lowest
 * priority an ILR can hold: no interrupt has been sorted yet.
 */
#define PRIORITY_NONE       0x40

static const char *const am335x_intc_output_name[] = {
    [AM335X_INTC_OUT_IRQ] = "irq",
    [AM335X_INTC_OUT_FIQ] = "fiq",
};

/*
 * TRM 6.1.1.2.2: interrupts of lower or equal priority than the threshold
 * (a higher or equal value) are masked, but priority 0 never is, so a
 * threshold of 0 behaves as 1.  0xFF turns the mechanism off.  The
 * threshold applies to IRQ and FIQ alike (TRM 6.2.4).
 */
static bool am335x_intc_above_threshold(AM335xIntcState *s, unsigned prio)
{
    if (s->threshold == THRESHOLD_DISABLED) {
        return true;
    }
    return prio < MAX(s->threshold, 1);
}

/*
 * The lines of one bank that the sorter of one request type sees: raw
 * status, less MIR, less the threshold, steered by FIQNIRQ.  This is what
 * PENDING_IRQn/PENDING_FIQn show (TRM figure 6-1).
 */
static uint32_t am335x_intc_pending(AM335xIntcState *s, unsigned bank,
                                    unsigned type)
{
    uint32_t candidates = (s->input[bank] | s->isr[bank]) & ~s->mir[bank];
    uint32_t pending = 0;

    while (candidates) {
        unsigned bit = ctz32(candidates);
        uint8_t ilr = s->ilr[bank * 32 + bit];
        unsigned ilr_type = FIELD_EX32(ilr, ILR, FIQNIRQ) ?
                            AM335X_INTC_OUT_FIQ : AM335X_INTC_OUT_IRQ;

        candidates &= candidates - 1;
        if (ilr_type == type &&
            am335x_intc_above_threshold(s, FIELD_EX32(ilr, ILR, PRIORITY))) {
            pending |= BIT(bit);
        }
    }
    return pending;
}

/*
 * Priority 0 is the highest.  TRM 6.1.1.3: among equal priorities the
 * highest-numbered line is serviced first, hence "<=" while scanning up.
 */
static void am335x_intc_sort(AM335xIntcState *s, unsigned type)
{
    int winner = -1;
    unsigned winner_prio = UINT_MAX;

    for (unsigned bank = 0; bank < AM335X_INTC_NUM_BANKS; bank++) {
        uint32_t pending = am335x_intc_pending(s, bank, type);

        while (pending) {
            unsigned line = bank * 32 + ctz32(pending);
            unsigned prio = FIELD_EX32(s->ilr[line], ILR, PRIORITY);

            pending &= pending - 1;
            if (prio <= winner_prio) {
                winner = line;
                winner_prio = prio;
            }
        }
    }

    if (winner < 0) {
        return;
    }
    s->active[type] = true;
    s->active_line[type] = winner;
    s->active_prio[type] = winner_prio;
    trace_am335x_intc_sort(DEVICE(s)->canonical_path,
                           am335x_intc_output_name[type], winner, winner_prio);
}

static void am335x_intc_set_output(AM335xIntcState *s, unsigned type,
                                   bool level)
{
    trace_am335x_intc_output(DEVICE(s)->canonical_path,
                             am335x_intc_output_name[type], level);
    qemu_set_irq(s->out[type], level);
}

/*
 * TRM 6.1.1.3 and 6.2.2: a sorter runs only while its output is not
 * asserted.  Its result, and the asserted output, stay until the CPU agrees
 * to a new interrupt (NEWIRQAGR/NEWFIQAGR); then the next pending interrupt
 * is sorted, or the output drops.
 */
static void am335x_intc_update(AM335xIntcState *s, unsigned type,
                               bool new_agreement)
{
    bool was_asserted = s->active[type];

    if (new_agreement) {
        s->active[type] = false;
    }
    if (!s->active[type]) {
        am335x_intc_sort(s, type);
    }
    if (s->active[type] != was_asserted) {
        am335x_intc_set_output(s, type, s->active[type]);
    }
}

static void am335x_intc_update_all(AM335xIntcState *s)
{
    am335x_intc_update(s, AM335X_INTC_OUT_IRQ, false);
    am335x_intc_update(s, AM335X_INTC_OUT_FIQ, false);
}

static void am335x_intc_set_irq(void *opaque, int line, int level)
{
    AM335xIntcState *s = opaque;

    if (line < 0 || line >= AM335X_INTC_NUM_IRQS) {
        return;
    }
    if (!!(s->input[line / 32] & BIT(line % 32)) == !!level) {
        /* Peripherals restate their lines; nothing changes then. */
        return;
    }
    trace_am335x_intc_set_irq(DEVICE(s)->canonical_path, line, level);
    if (level) {
        s->input[line / 32] |= BIT(line % 32);
    } else {
        s->input[line / 32] &= ~BIT(line % 32);
    }
    am335x_intc_update_all(s);
}

/*
 * The input levels are not registers: they follow the peripherals' wires
 * through a reset, so only the registers go back to their reset values.
 */
static void am335x_intc_reset_regs(AM335xIntcState *s)
{
    for (unsigned bank = 0; bank < AM335X_INTC_NUM_BANKS; bank++) {
        s->isr[bank] = 0;
        s->mir[bank] = UINT32_MAX;      /* TRM 6.2.1: all lines masked */
    }
    memset(s->ilr, 0, sizeof(s->ilr));
    s->sysconfig = 0;
    s->protection = 0;
    s->idle = 0;
    s->threshold = THRESHOLD_DISABLED;
    for (unsigned type = 0; type < AM335X_INTC_NUM_OUTPUTS; type++) {
        s->active[type] = false;
        s->active_line[type] = 0;
        s->active_prio[type] = PRIORITY_NONE;
    }
}

static void am335x_intc_reset(AM335xIntcState *s)
{
    am335x_intc_reset_regs(s);
    /* Everything is masked now, so nothing is asserted. */
    for (unsigned type = 0; type < AM335X_INTC_NUM_OUTPUTS; type++) {
        am335x_intc_set_output(s, type, false);
    }
}

/* SIR_IRQ/SIR_FIQ; the spurious flags mark a result no longer current. */
static uint32_t am335x_intc_sir(AM335xIntcState *s, unsigned type)
{
    uint32_t value = FIELD_DP32(0, SIR, ACTIVE, s->active_line[type]);

    if (!s->active[type]) {
        value |= R_SIR_SPURIOUS_MASK;
    }
    return value;
}

/* IRQ_PRIORITY/FIQ_PRIORITY; the flags are a copy of SIR's (TRM 6.2.5). */
static uint32_t am335x_intc_priority(AM335xIntcState *s, unsigned type)
{
    uint32_t value = FIELD_DP32(0, SIR, ACTIVE, s->active_prio[type]);

    if (!s->active[type]) {
        value |= R_SIR_SPURIOUS_MASK;
    }
    return value;
}

/*
 * TRM 6.1.2 and 6.1.4: with PROTECTION set, only privileged accesses
 * reach the registers, and INTC_PROTECTION itself is always privileged.
 * A violation gets an error response.
 */
static bool am335x_intc_access_ok(AM335xIntcState *s, hwaddr offset,
                                  MemTxAttrs attrs)
{
    if (!attrs.user) {
        return true;
    }
    if (offset != A_PROTECTION &&
        !FIELD_EX32(s->protection, PROTECTION, PROTECTION)) {
        return true;
    }
    qemu_log_mask(LOG_GUEST_ERROR, "%s: user-mode access to offset 0x%"
                  HWADDR_PRIx " refused\n", __func__, offset);
    return false;
}

static uint32_t am335x_intc_bank_read(AM335xIntcState *s, hwaddr offset)
{
    unsigned bank = (offset - A_ITR0) / BANK_STRIDE;

    switch (A_ITR0 + (offset - A_ITR0) % BANK_STRIDE) {
    case A_ITR0:
        /* Raw status: inputs ORed with the software interrupts. */
        return s->input[bank] | s->isr[bank];
    case A_MIR0:
        return s->mir[bank];
    case A_ISR_SET0:
        return s->isr[bank];
    case A_PENDING_IRQ0:
        return am335x_intc_pending(s, bank, AM335X_INTC_OUT_IRQ);
    case A_PENDING_FIQ0:
        return am335x_intc_pending(s, bank, AM335X_INTC_OUT_FIQ);
    default:
        /* MIR_CLEAR, MIR_SET and ISR_CLEAR are write-only and read 0. */
        return 0;
    }
}

static void am335x_intc_bank_write(AM335xIntcState *s, hwaddr offset,
                                   uint32_t value)
{
    unsigned bank = (offset - A_ITR0) / BANK_STRIDE;

    switch (A_ITR0 + (offset - A_ITR0) % BANK_STRIDE) {
    case A_MIR0:
        s->mir[bank] = value;
        break;
    case A_MIR_CLEAR0:
        s->mir[bank] &= ~value;
        break;
    case A_MIR_SET0:
        s->mir[bank] |= value;
        break;
    case A_ISR_SET0:
        s->isr[bank] |= value;
        break;
    case A_ISR_CLEAR0:
        s->isr[bank] &= ~value;
        break;
    default:
        /* ITR, PENDING_IRQ and PENDING_FIQ */
        qemu_log_mask(LOG_GUEST_ERROR, "%s: write to read-only offset 0x%"
                      HWADDR_PRIx "\n", __func__, offset);
        return;
    }
    am335x_intc_update_all(s);
}

static MemTxResult am335x_intc_read(void *opaque, hwaddr offset,
                                    uint64_t *data, unsigned size,
                                    MemTxAttrs attrs)
{
    AM335xIntcState *s = opaque;
    uint32_t value = 0;

    if (!am335x_intc_access_ok(s, offset, attrs)) {
        *data = 0;
        return MEMTX_ERROR;
    }

    switch (offset) {
    case A_REVISION:
        value = s->revision;
        break;
    case A_SYSCONFIG:
        value = s->sysconfig;
        break;
    case A_SYSSTATUS:
        /* A soft reset completes within the access that requested it. */
        value = R_SYSSTATUS_RESETDONE_MASK;
        break;
    case A_SIR_IRQ:
        value = am335x_intc_sir(s, AM335X_INTC_OUT_IRQ);
        break;
    case A_SIR_FIQ:
        value = am335x_intc_sir(s, AM335X_INTC_OUT_FIQ);
        break;
    case A_CONTROL:
        /* Write-only bits; drivers read-modify-write this register. */
        value = 0;
        break;
    case A_PROTECTION:
        value = s->protection;
        break;
    case A_IDLE:
        value = s->idle;
        break;
    case A_IRQ_PRIORITY:
        value = am335x_intc_priority(s, AM335X_INTC_OUT_IRQ);
        break;
    case A_FIQ_PRIORITY:
        value = am335x_intc_priority(s, AM335X_INTC_OUT_FIQ);
        break;
    case A_THRESHOLD:
        value = s->threshold;
        break;
    case A_ITR0 ... BANKS_END - 1:
        value = am335x_intc_bank_read(s, offset);
        break;
    case A_ILR0 ... ILR_END - 1:
        value = s->ilr[(offset - A_ILR0) / 4];
        break;
    default:
        /* TRM 6.1.4: a non-decoded address gets no error response. */
        qemu_log_mask(LOG_GUEST_ERROR, "%s: bad read offset 0x%" HWADDR_PRIx
                      "\n", __func__, offset);
        break;
    }

    trace_am335x_intc_read(DEVICE(s)->canonical_path, offset, value);
    *data = value;
    return MEMTX_OK;
}

static MemTxResult am335x_intc_write(void *opaque, hwaddr offset,
                                     uint64_t data, unsigned size,
                                     MemTxAttrs attrs)
{
    AM335xIntcState *s = opaque;
    uint32_t value = data;

    trace_am335x_intc_write(DEVICE(s)->canonical_path, offset, value);

    if (!am335x_intc_access_ok(s, offset, attrs)) {
        return MEMTX_ERROR;
    }

    switch (offset) {
    case A_SYSCONFIG:
        if (FIELD_EX32(value, SYSCONFIG, SOFTRESET)) {
            am335x_intc_reset(s);
            break;
        }
        s->sysconfig = value & SYSCONFIG_WRITABLE;
        break;
    case A_CONTROL:
        if (FIELD_EX32(value, CONTROL, NEWIRQAGR)) {
            am335x_intc_update(s, AM335X_INTC_OUT_IRQ, true);
        }
        if (FIELD_EX32(value, CONTROL, NEWFIQAGR)) {
            am335x_intc_update(s, AM335X_INTC_OUT_FIQ, true);
        }
        break;
    case A_PROTECTION:
        s->protection = value & R_PROTECTION_PROTECTION_MASK;
        break;
    case A_IDLE:
        /* Clock gating only changes latency and power on the silicon. */
        s->idle = value & IDLE_WRITABLE;
        break;
    case A_THRESHOLD:
        /* Takes effect at the next sort, not on the one in progress. */
        s->threshold = FIELD_EX32(value, THRESHOLD, PRIORITYTHRESHOLD);
        am335x_intc_update_all(s);
        break;
    case A_ITR0 ... BANKS_END - 1:
        am335x_intc_bank_write(s, offset, value);
        break;
    case A_ILR0 ... ILR_END - 1:
        s->ilr[(offset - A_ILR0) / 4] = value & ILR_WRITABLE;
        am335x_intc_update_all(s);
        break;
    case A_REVISION:
    case A_SYSSTATUS:
    case A_SIR_IRQ:
    case A_SIR_FIQ:
    case A_IRQ_PRIORITY:
    case A_FIQ_PRIORITY:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: write to read-only offset 0x%"
                      HWADDR_PRIx "\n", __func__, offset);
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: bad write offset 0x%"
                      HWADDR_PRIx "\n", __func__, offset);
        break;
    }
    return MEMTX_OK;
}

static const MemoryRegionOps am335x_intc_ops = {
    .read_with_attrs = am335x_intc_read,
    .write_with_attrs = am335x_intc_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    /* TRM 6.6.1: 32-bit registers, accessed as whole aligned words. */
    .valid.min_access_size = 4,
    .valid.max_access_size = 4,
    .impl.min_access_size = 4,
    .impl.max_access_size = 4,
};

static void am335x_intc_reset_hold(Object *obj, ResetType type)
{
    am335x_intc_reset(AM335X_INTC(obj));
}

static void am335x_intc_init(Object *obj)
{
    AM335xIntcState *s = AM335X_INTC(obj);
    SysBusDevice *sbd = SYS_BUS_DEVICE(obj);

    memory_region_init_io(&s->iomem, obj, &am335x_intc_ops, s,
                          TYPE_AM335X_INTC, AM335X_INTC_MMIO_SIZE);
    sysbus_init_mmio(sbd, &s->iomem);
    for (unsigned type = 0; type < AM335X_INTC_NUM_OUTPUTS; type++) {
        sysbus_init_irq(sbd, &s->out[type]);
    }
    qdev_init_gpio_in(DEVICE(obj), am335x_intc_set_irq, AM335X_INTC_NUM_IRQS);
}

static const VMStateDescription vmstate_am335x_intc = {
    .name = TYPE_AM335X_INTC,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_ARRAY(input, AM335xIntcState, AM335X_INTC_NUM_BANKS),
        VMSTATE_UINT32_ARRAY(isr, AM335xIntcState, AM335X_INTC_NUM_BANKS),
        VMSTATE_UINT32_ARRAY(mir, AM335xIntcState, AM335X_INTC_NUM_BANKS),
        VMSTATE_UINT8_ARRAY(ilr, AM335xIntcState, AM335X_INTC_NUM_IRQS),
        VMSTATE_UINT32(sysconfig, AM335xIntcState),
        VMSTATE_UINT32(protection, AM335xIntcState),
        VMSTATE_UINT32(idle, AM335xIntcState),
        VMSTATE_UINT32(threshold, AM335xIntcState),
        VMSTATE_BOOL_ARRAY(active, AM335xIntcState, AM335X_INTC_NUM_OUTPUTS),
        VMSTATE_UINT8_ARRAY(active_line, AM335xIntcState,
                            AM335X_INTC_NUM_OUTPUTS),
        VMSTATE_UINT8_ARRAY(active_prio, AM335xIntcState,
                            AM335X_INTC_NUM_OUTPUTS),
        VMSTATE_END_OF_LIST()
    }
};

static const Property am335x_intc_properties[] = {
    /* INTC_REVISION: IP revision 5.0 (TRM 6.6.1.1). */
    DEFINE_PROP_UINT32("revision", AM335xIntcState, revision, 0x50),
};

static void am335x_intc_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->vmsd = &vmstate_am335x_intc;
    dc->desc = "TI AM335x MPU interrupt controller";
    rc->phases.hold = am335x_intc_reset_hold;
    device_class_set_props(dc, am335x_intc_properties);
}

static const TypeInfo am335x_intc_info = {
    .name = TYPE_AM335X_INTC,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AM335xIntcState),
    .instance_init = am335x_intc_init,
    .class_init = am335x_intc_class_init,
};

static void am335x_intc_register_types(void)
{
    type_register_static(&am335x_intc_info);
}

type_init(am335x_intc_register_types)
