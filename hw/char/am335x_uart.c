/*
 * TI AM335x UART
 *
 * The AM335x UART is a 16C750-compatible core with TI's OMAP extensions:
 * a 64-byte FIFO, the EFR/XON/XOFF "configuration mode B" registers that
 * appear when LCR reads 0xBF, TCR/TLR trigger levels, MDR1 mode select and
 * an OCP SYSCONFIG/SYSSTATUS pair.  Registers are 32 bits apart.
 *
 * The 16550 part (RHR/THR, IER, IIR/FCR, LCR, MCR, LSR, MSR, SPR, divisor
 * latch) is QEMU's serial core, so character I/O, FIFOs, interrupts and
 * chardev flow control behave as in every other QEMU UART.  This file adds
 * the register modes and the OMAP-only registers around it.
 *
 * Reference: AM335x Technical Reference Manual (SPRUH73), chapter 19 (UART).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qapi/error.h"
#include "hw/char/am335x_uart.h"
#include "hw/irq.h"
#include "hw/qdev-clock.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "trace.h"

/* The 16550 registers, shared with the serial core (index = offset / 4). */
REG32(RHR_THR_DLL, 0x00)
REG32(IER_DLH, 0x04)
REG32(IIR_FCR_EFR, 0x08)
    FIELD(EFR, ENHANCED_EN, 4, 1)
REG32(LCR, 0x0c)
REG32(MCR_XON1, 0x10)
    FIELD(MCR, TCR_TLR, 6, 1)
REG32(LSR_XON2, 0x14)
REG32(MSR_TCR_XOFF1, 0x18)
REG32(SPR_TLR_XOFF2, 0x1c)
/* OMAP extensions */
REG32(MDR1, 0x20)
    FIELD(MDR1, MODE_SELECT, 0, 3)
REG32(MDR2, 0x24)
REG32(SFLSR_TXFLL, 0x28)
REG32(RESUME_TXFLH, 0x2c)
REG32(SFREGL_RXFLL, 0x30)
REG32(SFREGH_RXFLH, 0x34)
REG32(UASR_BLR, 0x38)
REG32(ACREG, 0x3c)
REG32(SCR, 0x40)
REG32(SSR, 0x44)
    FIELD(SSR, TX_FIFO_FULL, 0, 1)
    FIELD(SSR, RX_CTS_DSR_WAKE_UP_STS, 1, 1)
    FIELD(SSR, DMA_COUNTER_RST, 2, 1)
REG32(EBLR, 0x48)
REG32(MVR, 0x50)
REG32(SYSC, 0x54)
    FIELD(SYSC, AUTOIDLE, 0, 1)
    FIELD(SYSC, SOFTRESET, 1, 1)
    FIELD(SYSC, ENAWAKEUP, 2, 1)
    FIELD(SYSC, IDLEMODE, 3, 2)
REG32(SYSS, 0x58)
    FIELD(SYSS, RESETDONE, 0, 1)
REG32(WER, 0x5c)
REG32(CFPS, 0x60)
REG32(RXFIFO_LVL, 0x64)
REG32(TXFIFO_LVL, 0x68)
REG32(IER2, 0x6c)
REG32(ISR2, 0x70)
REG32(FREQ_SEL, 0x74)
REG32(MDR3, 0x80)
REG32(TX_DMA_THRESHOLD, 0x84)

#define LCR_DLAB            0x80
/* Writing this LCR value selects register configuration mode B. */
#define LCR_CONFIG_MODE_B   0xbf

#define SYSC_WRITABLE       0x1d
#define MDR1_RESET          0x07    /* TRM: module disabled after reset */
#define WER_RESET           0xff
#define CFPS_RESET          0x69
#define FREQ_SEL_RESET      0x1a

/*
 * The UART's functional clock is PER_CLKOUTM2 / 4 = 48 MHz and the default
 * mode divides it by 16, so a divisor of 26 gives 115200 baud.  The PRCM's
 * clock sets the real figure; this is the one without a clock connected.
 */
#define AM335X_UART_FCLK_HZ     48000000
#define AM335X_UART_BAUDBASE    (AM335X_UART_FCLK_HZ / 16)

/*
 * The 16550 core's baud base: the functional clock over the oversampling
 * of the mode (TRM 19.3.8.1: 16x or 13x).  A gated clock leaves the last
 * rate in place: Linux never writes a divisor while the module is off.
 */
static void am335x_uart_update_baudbase(AM335xUartState *s)
{
    uint64_t hz = clock_get_hz(s->fclk);
    unsigned oversampling =
        FIELD_EX32(s->mdr1, MDR1, MODE_SELECT) == 3 ? 13 : 16;

    if (!clock_has_source(s->fclk)) {
        hz = AM335X_UART_FCLK_HZ;
    }
    if (hz) {
        s->serial.baudbase = hz / oversampling;
    }
}

static void am335x_uart_clock_update(void *opaque, ClockEvent event)
{
    am335x_uart_update_baudbase(AM335X_UART(opaque));
}

static bool am335x_uart_mode_b(AM335xUartState *s)
{
    return s->serial.lcr == LCR_CONFIG_MODE_B;
}

/* TCR and TLR replace MSR/SPR (or XOFF1/2) when EFR[4] and MCR[6] are set. */
static bool am335x_uart_tcr_tlr(AM335xUartState *s)
{
    return FIELD_EX32(s->efr, EFR, ENHANCED_EN) &&
           FIELD_EX32(s->mcr_hi, MCR, TCR_TLR);
}

static uint8_t am335x_uart_core_read(AM335xUartState *s, hwaddr offset)
{
    return serial_io_ops.read(&s->serial, offset >> 2, 1);
}

static void am335x_uart_core_write(AM335xUartState *s, hwaddr offset,
                                   uint8_t value)
{
    serial_io_ops.write(&s->serial, offset >> 2, value, 1);
}

/*
 * The serial core resets only with the machine; SYSC.SOFTRESET must put the
 * 16550 part back to its reset state too, through its own register writes.
 */
static void am335x_uart_reset_core(AM335xUartState *s)
{
    am335x_uart_core_write(s, A_LCR, LCR_DLAB);
    am335x_uart_core_write(s, A_RHR_THR_DLL, 0);
    am335x_uart_core_write(s, A_IER_DLH, 0);
    am335x_uart_core_write(s, A_LCR, 0);
    am335x_uart_core_write(s, A_IER_DLH, 0);
    /* Clear both FIFOs, then leave FIFO mode off. */
    am335x_uart_core_write(s, A_IIR_FCR_EFR, 0x07);
    am335x_uart_core_write(s, A_IIR_FCR_EFR, 0x00);
    am335x_uart_core_write(s, A_MCR_XON1, 0);
    am335x_uart_core_write(s, A_SPR_TLR_XOFF2, 0);
}

static void am335x_uart_reset_regs(AM335xUartState *s)
{
    s->ier_hi = 0;
    s->mcr_hi = 0;
    s->efr = 0;
    s->xon1 = 0;
    s->xon2 = 0;
    s->xoff1 = 0;
    s->xoff2 = 0;
    s->tcr = 0x0f;
    s->tlr = 0;
    s->mdr1 = MDR1_RESET;
    s->mdr2 = 0;
    s->mdr3 = 0;
    s->acreg = 0;
    s->scr = 0;
    s->ssr = 0;
    s->eblr = 0;
    s->wer = WER_RESET;
    s->cfps = CFPS_RESET;
    s->ier2 = 0;
    s->isr2 = 0;
    s->freq_sel = FREQ_SEL_RESET;
    s->tx_dma_threshold = 0;
    s->sysc = 0;
}

static uint64_t am335x_uart_read(void *opaque, hwaddr offset, unsigned size)
{
    AM335xUartState *s = AM335X_UART(opaque);
    bool mode_b = am335x_uart_mode_b(s);
    uint32_t value = 0;

    switch (offset) {
    case A_RHR_THR_DLL:
    case A_LCR:
        value = am335x_uart_core_read(s, offset);
        break;
    case A_IER_DLH:
        value = am335x_uart_core_read(s, offset);
        if (!(s->serial.lcr & LCR_DLAB)) {
            value |= s->ier_hi;
        }
        break;
    case A_IIR_FCR_EFR:
        value = mode_b ? s->efr : am335x_uart_core_read(s, offset);
        break;
    case A_MCR_XON1:
        value = mode_b ? s->xon1 : am335x_uart_core_read(s, offset) | s->mcr_hi;
        break;
    case A_LSR_XON2:
        value = mode_b ? s->xon2 : am335x_uart_core_read(s, offset);
        break;
    case A_MSR_TCR_XOFF1:
        if (am335x_uart_tcr_tlr(s)) {
            value = s->tcr;
        } else {
            value = mode_b ? s->xoff1 : am335x_uart_core_read(s, offset);
        }
        break;
    case A_SPR_TLR_XOFF2:
        if (am335x_uart_tcr_tlr(s)) {
            value = s->tlr;
        } else {
            value = mode_b ? s->xoff2 : am335x_uart_core_read(s, offset);
        }
        break;
    case A_MDR1:
        value = s->mdr1;
        break;
    case A_MDR2:
        value = s->mdr2;
        break;
    case A_SFLSR_TXFLL:
    case A_RESUME_TXFLH:
    case A_SFREGL_RXFLL:
    case A_SFREGH_RXFLH:
    case A_UASR_BLR:
        /* IrDA/CIR status and autobaud: nothing received in those modes. */
        value = 0;
        break;
    case A_ACREG:
        value = s->acreg;
        break;
    case A_SCR:
        value = s->scr;
        break;
    case A_SSR:
        value = s->ssr;
        value = FIELD_DP32(value, SSR, TX_FIFO_FULL,
                           fifo8_is_full(&s->serial.xmit_fifo));
        break;
    case A_EBLR:
        value = s->eblr;
        break;
    case A_MVR:
        value = s->revision;
        break;
    case A_SYSC:
        value = s->sysc;
        break;
    case A_SYSS:
        /* A soft reset completes within the access that requested it. */
        value = R_SYSS_RESETDONE_MASK;
        break;
    case A_WER:
        value = s->wer;
        break;
    case A_CFPS:
        value = s->cfps;
        break;
    case A_RXFIFO_LVL:
        value = fifo8_num_used(&s->serial.recv_fifo);
        break;
    case A_TXFIFO_LVL:
        value = fifo8_num_used(&s->serial.xmit_fifo);
        break;
    case A_IER2:
        value = s->ier2;
        break;
    case A_ISR2:
        value = s->isr2;
        break;
    case A_FREQ_SEL:
        value = s->freq_sel;
        break;
    case A_MDR3:
        value = s->mdr3;
        break;
    case A_TX_DMA_THRESHOLD:
        value = s->tx_dma_threshold;
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: bad read offset 0x%" HWADDR_PRIx
                      "\n", __func__, offset);
        break;
    }

    trace_am335x_uart_read(DEVICE(s)->canonical_path, offset, value);
    return value;
}

static void am335x_uart_write(void *opaque, hwaddr offset, uint64_t value,
                              unsigned size)
{
    AM335xUartState *s = AM335X_UART(opaque);
    bool mode_b = am335x_uart_mode_b(s);
    bool enhanced = FIELD_EX32(s->efr, EFR, ENHANCED_EN);

    trace_am335x_uart_write(DEVICE(s)->canonical_path, offset, value);

    switch (offset) {
    case A_RHR_THR_DLL:
    case A_LCR:
        am335x_uart_core_write(s, offset, value);
        break;
    case A_IER_DLH:
        if (!(s->serial.lcr & LCR_DLAB) && enhanced) {
            /* Sleep mode, XOFF, RTS and CTS interrupt enables. */
            s->ier_hi = value & 0xf0;
        }
        am335x_uart_core_write(s, offset, value);
        break;
    case A_IIR_FCR_EFR:
        if (mode_b) {
            s->efr = value;
        } else {
            am335x_uart_core_write(s, offset, value);
        }
        break;
    case A_MCR_XON1:
        if (mode_b) {
            s->xon1 = value;
        } else {
            if (enhanced) {
                s->mcr_hi = value & 0xe0;
            }
            am335x_uart_core_write(s, offset, value);
        }
        break;
    case A_LSR_XON2:
        if (mode_b) {
            s->xon2 = value;
        }
        /* LSR is read-only */
        break;
    case A_MSR_TCR_XOFF1:
        if (am335x_uart_tcr_tlr(s)) {
            s->tcr = value;
        } else if (mode_b) {
            s->xoff1 = value;
        }
        /* MSR is read-only */
        break;
    case A_SPR_TLR_XOFF2:
        if (am335x_uart_tcr_tlr(s)) {
            s->tlr = value;
        } else if (mode_b) {
            s->xoff2 = value;
        } else {
            am335x_uart_core_write(s, offset, value);
        }
        break;
    case A_MDR1:
        s->mdr1 = value;
        am335x_uart_update_baudbase(s);
        switch (FIELD_EX32(value, MDR1, MODE_SELECT)) {
        case 0: /* UART 16x */
        case 2: /* UART 16x auto-baud */
        case 3: /* UART 13x */
        case 7: /* disabled */
            break;
        default:
            qemu_log_mask(LOG_UNIMP, "%s: IrDA/CIR mode %u not modelled\n",
                          __func__, (unsigned)FIELD_EX32(value, MDR1,
                                                         MODE_SELECT));
            break;
        }
        break;
    case A_MDR2:
        s->mdr2 = value;
        break;
    case A_SFLSR_TXFLL:
    case A_RESUME_TXFLH:
    case A_SFREGL_RXFLL:
    case A_SFREGH_RXFLH:
    case A_UASR_BLR:
        /* IrDA frame length and autobaud registers: no effect in UART mode */
        break;
    case A_ACREG:
        s->acreg = value;
        break;
    case A_SCR:
        s->scr = value;
        break;
    case A_SSR:
        s->ssr = value & R_SSR_DMA_COUNTER_RST_MASK;
        break;
    case A_EBLR:
        s->eblr = value;
        break;
    case A_SYSC:
        if (FIELD_EX32(value, SYSC, SOFTRESET)) {
            am335x_uart_reset_regs(s);
            am335x_uart_reset_core(s);
            break;
        }
        s->sysc = value & SYSC_WRITABLE;
        break;
    case A_WER:
        s->wer = value;
        break;
    case A_CFPS:
        s->cfps = value;
        break;
    case A_IER2:
        s->ier2 = value & 0x3;
        break;
    case A_ISR2:
        s->isr2 &= ~(value & 0x3);
        break;
    case A_FREQ_SEL:
        s->freq_sel = value;
        break;
    case A_MDR3:
        s->mdr3 = value & 0x7;
        break;
    case A_TX_DMA_THRESHOLD:
        s->tx_dma_threshold = value & 0x3f;
        break;
    case A_MVR:
    case A_SYSS:
    case A_RXFIFO_LVL:
    case A_TXFIFO_LVL:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: write to read-only offset 0x%"
                      HWADDR_PRIx "\n", __func__, offset);
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: bad write offset 0x%"
                      HWADDR_PRIx "\n", __func__, offset);
        break;
    }
}

static const MemoryRegionOps am335x_uart_ops = {
    .read = am335x_uart_read,
    .write = am335x_uart_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    /* Drivers use both byte (omap-serial) and word (8250_omap) accesses. */
    .valid.min_access_size = 1,
    .valid.max_access_size = 4,
    .impl.min_access_size = 4,
    .impl.max_access_size = 4,
};

static void am335x_uart_reset_hold(Object *obj, ResetType type)
{
    am335x_uart_reset_regs(AM335X_UART(obj));
}

static void am335x_uart_realize(DeviceState *dev, Error **errp)
{
    AM335xUartState *s = AM335X_UART(dev);

    if (!qdev_realize(DEVICE(&s->serial), NULL, errp)) {
        return;
    }
    am335x_uart_update_baudbase(s);
    memory_region_init_io(&s->iomem, OBJECT(s), &am335x_uart_ops, s,
                          TYPE_AM335X_UART, AM335X_UART_MMIO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->iomem);
    sysbus_init_irq(SYS_BUS_DEVICE(s), &s->serial.irq);
}

static void am335x_uart_init(Object *obj)
{
    AM335xUartState *s = AM335X_UART(obj);

    object_initialize_child(obj, "serial", &s->serial, TYPE_SERIAL);
    qdev_prop_set_uint32(DEVICE(&s->serial), "baudbase",
                         AM335X_UART_BAUDBASE);
    s->fclk = qdev_init_clock_in(DEVICE(obj), "fclk",
                                 am335x_uart_clock_update, s, ClockUpdate);
    /* "chardev" is set on the UART itself, as for any QEMU serial port. */
    object_property_add_alias(obj, "chardev", OBJECT(&s->serial), "chardev");
}

static const VMStateDescription vmstate_am335x_uart = {
    .name = TYPE_AM335X_UART,
    .version_id = 2,
    .minimum_version_id = 2,
    .fields = (const VMStateField[]) {
        VMSTATE_STRUCT(serial, AM335xUartState, 0, vmstate_serial,
                       SerialState),
        VMSTATE_CLOCK(fclk, AM335xUartState),
        VMSTATE_UINT8(ier_hi, AM335xUartState),
        VMSTATE_UINT8(mcr_hi, AM335xUartState),
        VMSTATE_UINT8(efr, AM335xUartState),
        VMSTATE_UINT8(xon1, AM335xUartState),
        VMSTATE_UINT8(xon2, AM335xUartState),
        VMSTATE_UINT8(xoff1, AM335xUartState),
        VMSTATE_UINT8(xoff2, AM335xUartState),
        VMSTATE_UINT8(tcr, AM335xUartState),
        VMSTATE_UINT8(tlr, AM335xUartState),
        VMSTATE_UINT8(mdr1, AM335xUartState),
        VMSTATE_UINT8(mdr2, AM335xUartState),
        VMSTATE_UINT8(mdr3, AM335xUartState),
        VMSTATE_UINT8(acreg, AM335xUartState),
        VMSTATE_UINT8(scr, AM335xUartState),
        VMSTATE_UINT8(ssr, AM335xUartState),
        VMSTATE_UINT8(eblr, AM335xUartState),
        VMSTATE_UINT8(wer, AM335xUartState),
        VMSTATE_UINT8(cfps, AM335xUartState),
        VMSTATE_UINT8(ier2, AM335xUartState),
        VMSTATE_UINT8(isr2, AM335xUartState),
        VMSTATE_UINT8(freq_sel, AM335xUartState),
        VMSTATE_UINT8(tx_dma_threshold, AM335xUartState),
        VMSTATE_UINT32(sysc, AM335xUartState),
        VMSTATE_END_OF_LIST()
    }
};

static const Property am335x_uart_properties[] = {
    /* MVR: the silicon's module revision, which drivers key quirks on. */
    DEFINE_PROP_UINT32("revision", AM335xUartState, revision, 0x47422e03),
};

static void am335x_uart_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->realize = am335x_uart_realize;
    dc->vmsd = &vmstate_am335x_uart;
    dc->desc = "TI AM335x UART";
    rc->phases.hold = am335x_uart_reset_hold;
    device_class_set_props(dc, am335x_uart_properties);
    set_bit(DEVICE_CATEGORY_INPUT, dc->categories);
}

static const TypeInfo am335x_uart_info = {
    .name = TYPE_AM335X_UART,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AM335xUartState),
    .instance_init = am335x_uart_init,
    .class_init = am335x_uart_class_init,
};

static void am335x_uart_register_types(void)
{
    type_register_static(&am335x_uart_info);
}

type_init(am335x_uart_register_types)
