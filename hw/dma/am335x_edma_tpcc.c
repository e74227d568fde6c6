/*
 * TI AM335x EDMA3 channel controller (TPCC)
 *
 * The channel controller is the EDMA3's user interface: 64 DMA channels
 * and 8 QDMA channels, each bound to one of 256 parameter RAM (PaRAM)
 * sets that describe a three-dimensional transfer (ACNT bytes per array,
 * BCNT arrays per frame, CCNT frames).  A DMA channel is triggered by its
 * peripheral's request line (ER, if enabled in EER), by software (ESR) or
 * by the completion of another transfer (CER, chaining); a QDMA channel by
 * a write to the trigger word of its PaRAM set.  Each trigger queues the
 * channel in one of three event queues; at the head of queue n it becomes
 * a transfer request (TR) for transfer controller n: one array
 * (A-synchronized) or one frame (AB-synchronized).  The TPCC then updates
 * the PaRAM set for the next trigger, or when it is exhausted, loads the
 * linked set.  A finished TR returns its transfer completion code (TCC),
 * which sets a bit in IPR (an interrupt, through the IER and the region's
 * DRAE) or in CER (a chained event).  Missed events, null sets and queue
 * threshold overruns are errors in EMR, QEMR and CCERR.
 *
 * Event inputs and register writes only latch; the queues are evaluated
 * from a timer on the virtual clock.  A peripheral may so raise its DMA
 * request from within the access a TC makes to it, and nothing runs
 * inside the MMIO handlers of other devices.  While the VM is stopped
 * nothing is evaluated.
 *
 * Interrupts are levels: completion while IPR & IER & DRAE0 is non-zero
 * (the AM335x wires region 0 to the MPU as EDMACOMPINT; the regions 1-7
 * interrupts go to the PRU-ICSS and the WKUP_M3 and are not wired here),
 * errors while EMR, QEMR or CCERR is non-zero.  IEVAL and EEVAL pulse them
 * again if still pending.
 *
 * Not modelled: memory protection (MPPAG/MPPAn are plain storage, MPFAR
 * and MPFSR read 0, the MPERR line never rises), queue priorities
 * (QUEPRI is kept and shown in the TCs' SAOPT; each queue has its own TC),
 * the event crossbar of the control module (the inputs are the direct
 * events), debug registers and SYSCONFIG idle behaviour.
 *
 * Reference: AM335x Technical Reference Manual (SPRUH73), chapter 11
 * (11.3 for the behaviour, 11.4.1 for the registers).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/host-utils.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qapi/error.h"
#include "hw/dma/am335x_edma_tpcc.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "trace.h"

/* TRM 11.4.1: global registers */
REG32(PID, 0x0000)
REG32(CCCFG, 0x0004)
    FIELD(CCCFG, NUM_DMACH, 0, 3)
    FIELD(CCCFG, NUM_QDMACH, 4, 3)
    FIELD(CCCFG, NUM_INTCH, 8, 3)
    FIELD(CCCFG, NUM_PAENTRY, 12, 3)
    FIELD(CCCFG, NUM_EVQUE, 16, 3)
    FIELD(CCCFG, NUM_REGN, 20, 2)
    FIELD(CCCFG, CHMAP_EXIST, 24, 1)
    FIELD(CCCFG, MP_EXIST, 25, 1)
REG32(SYSCONFIG, 0x0010)
    FIELD(SYSCONFIG, IDLEMODE, 2, 2)
REG32(DCHMAP0, 0x0100)
    FIELD(CHMAP, TRWORD, 2, 3)
    FIELD(CHMAP, PAENTRY, 5, 9)
REG32(DCHMAP63, 0x01fc)
REG32(QCHMAP0, 0x0200)
REG32(QCHMAP7, 0x021c)
REG32(DMAQNUM0, 0x0240)
REG32(DMAQNUM7, 0x025c)
REG32(QDMAQNUM, 0x0260)
REG32(QUEPRI, 0x0284)
REG32(EMR, 0x0300)
REG32(EMRH, 0x0304)
REG32(EMCR, 0x0308)
REG32(EMCRH, 0x030c)
REG32(QEMR, 0x0310)
REG32(QEMCR, 0x0314)
REG32(CCERR, 0x0318)
    FIELD(CCERR, QTHRXCD, 0, 3)
    FIELD(CCERR, TCCERR, 16, 1)
REG32(CCERRCLR, 0x031c)
REG32(EEVAL, 0x0320)
    FIELD(EVAL, EVAL, 0, 1)
REG32(DRAE0, 0x0340)
REG32(DRAEH7, 0x037c)
REG32(QRAE0, 0x0380)
REG32(QRAE7, 0x039c)
REG32(Q0E0, 0x0400)
REG32(Q2E15, 0x04bc)
REG32(QSTAT0, 0x0600)
    FIELD(QSTAT, STRTPTR, 0, 4)
    FIELD(QSTAT, NUMVAL, 8, 5)
    FIELD(QSTAT, WM, 16, 5)
    FIELD(QSTAT, THRXCD, 24, 1)
REG32(QSTAT2, 0x0608)
REG32(QWMTHRA, 0x0620)
REG32(CCSTAT, 0x0640)
    FIELD(CCSTAT, EVTACTV, 0, 1)
    FIELD(CCSTAT, QEVTACTV, 1, 1)
    FIELD(CCSTAT, TRACTV, 2, 1)
    FIELD(CCSTAT, ACTV, 4, 1)
    FIELD(CCSTAT, COMPACTV, 8, 6)
    FIELD(CCSTAT, QUEACTV, 16, 3)
REG32(MPFAR, 0x0800)
REG32(MPFSR, 0x0804)
REG32(MPFCR, 0x0808)
REG32(MPPAG, 0x080c)
REG32(MPPA0, 0x0810)
REG32(MPPA7, 0x082c)

/*
 * TRM 11.4.1: the channel registers, at 0x1000 for all channels and at
 * 0x2000 + 0x200 * n for shadow region n, which sees only the channels
 * that DRAEn/QRAEn give it.  Offsets within such a block; the 64-bit
 * registers are pairs, the high word (channels 32-63) at + 4.
 */
REG32(ER, 0x00)
REG32(ECR, 0x08)
REG32(ESR, 0x10)
REG32(CER, 0x18)
REG32(EER, 0x20)
REG32(EECR, 0x28)
REG32(EESR, 0x30)
REG32(SER, 0x38)
REG32(SECR, 0x40)
REG32(IER, 0x50)
REG32(IECR, 0x58)
REG32(IESR, 0x60)
REG32(IPR, 0x68)
REG32(ICR, 0x70)
REG32(IEVAL, 0x78)
REG32(QER, 0x80)
REG32(QEER, 0x84)
REG32(QEECR, 0x88)
REG32(QEESR, 0x8c)
REG32(QSER, 0x90)
REG32(QSECR, 0x94)

#define GLOBAL_CHANNELS         0x1000
#define SHADOW0                 0x2000
#define SHADOW_STRIDE           0x200
#define PARAM_BASE              0x4000
#define PARAM_SET_SIZE          32
#define PARAM_END               (PARAM_BASE + AM335X_EDMA_NUM_PARAM * \
                                 PARAM_SET_SIZE)

/* TRM 11.3.3.1: the PaRAM set, eight words */
enum {
    PARAM_OPT,
    PARAM_SRC,
    PARAM_ABCNT,
    PARAM_DST,
    PARAM_BIDX,
    PARAM_LNK,
    PARAM_CIDX,
    PARAM_CCNT,
};
FIELD(OPT, SAM, 0, 1)
FIELD(OPT, DAM, 1, 1)
FIELD(OPT, SYNCDIM, 2, 1)
FIELD(OPT, STATIC, 3, 1)
FIELD(OPT, FWID, 8, 3)
FIELD(OPT, TCCMODE, 11, 1)
FIELD(OPT, TCC, 12, 6)
FIELD(OPT, TCINTEN, 20, 1)
FIELD(OPT, ITCINTEN, 21, 1)
FIELD(OPT, TCCHEN, 22, 1)
FIELD(OPT, ITCCHEN, 23, 1)
FIELD(OPT, PRIVID, 24, 4)
FIELD(OPT, PRIV, 31, 1)
FIELD(ABCNT, ACNT, 0, 16)
FIELD(ABCNT, BCNT, 16, 16)
FIELD(PAIR, LO, 0, 16)
FIELD(PAIR, HI, 16, 16)
FIELD(LNK, LINK, 0, 16)
FIELD(LNK, BCNTRLD, 16, 16)
FIELD(CCNT, CCNT, 0, 16)

/* TRM 11.4.1.4 (QxEy): an event queue entry */
FIELD(QE, ENUM, 0, 6)
FIELD(QE, ETYPE, 6, 2)
enum {
    ETYPE_EVENT,        /* ER */
    ETYPE_MANUAL,       /* ESR */
    ETYPE_CHAIN,        /* CER */
    ETYPE_QDMA,         /* QER */
};

/* PID as the silicon reports it (ti-sysc "tpcc" quirk) */
#define TPCC_PID                0x40014c00

/*
 * CCCFG, TRM 11.4.1 (CCCFG) encodings: 64 DMA channels (5), 8 QDMA
 * channels (4), 64 interrupt channels (4), 256 PaRAM sets (4), 3 event
 * queues (2), 8 shadow regions (3), DCHMAP and memory protection present.
 * Linux's edma_setup_from_hw() sizes itself from it.
 */
#define TPCC_CCCFG              ((5 << R_CCCFG_NUM_DMACH_SHIFT) | \
                                 (4 << R_CCCFG_NUM_QDMACH_SHIFT) | \
                                 (4 << R_CCCFG_NUM_INTCH_SHIFT) | \
                                 (4 << R_CCCFG_NUM_PAENTRY_SHIFT) | \
                                 (2 << R_CCCFG_NUM_EVQUE_SHIFT) | \
                                 (3 << R_CCCFG_NUM_REGN_SHIFT) | \
                                 R_CCCFG_CHMAP_EXIST_MASK | \
                                 R_CCCFG_MP_EXIST_MASK)

#define SYSCONFIG_WRITABLE      R_SYSCONFIG_IDLEMODE_MASK
#define DCHMAP_WRITABLE         R_CHMAP_PAENTRY_MASK
#define QCHMAP_WRITABLE         (R_CHMAP_PAENTRY_MASK | R_CHMAP_TRWORD_MASK)
/* One 3-bit queue number per nibble */
#define QNUM_WRITABLE           0x77777777
#define QUEPRI_WRITABLE         0x777
/* Q0-Q2 thresholds, 5 bits each; 16 at reset, 17 disables the check */
#define QWMTHRA_WRITABLE        0x1f1f1f
#define QWMTHRA_RESET           0x101010
#define CCERR_ALL               (R_CCERR_QTHRXCD_MASK | R_CCERR_TCCERR_MASK)
#define QDMA_ALL                MAKE_64BIT_MASK(0, AM335X_EDMA_NUM_QDMACH)
/*
 * MPPAG/MPPAn: the access IDs, EXT and the read/write permissions are
 * granted at reset; bits 8:6 are reserved (7:6 read 1).
 */
#define MPPA_RESET              0xfef6
#define MPPA_WRITABLE           0xfe3f

/* CCSTAT.COMPACTV saturates here; no TR is submitted until it drops. */
#define COMPACTV_MAX            63
/* The null link (TRM 11.3.3.1, LINK) */
#define LINK_NULL               0xffff

/*
 * Evaluations per timer run.  A guest can chain channels with no data to
 * move forever (a dummy set whose completion chains to its own channel);
 * past this, the rest waits until the batch's time has passed on the
 * virtual clock.  The TPCC runs on L3F_CLK, 200 MHz (TRM 8.1.6.1, as
 * the TPTC's timing notes), and takes at least a cycle per evaluation:
 * a batch is at least 5.12 us there.  QEMU then spends its host time on
 * such a loop at the part's pace, not 1024 evaluations a nanosecond.
 */
#define PROCESS_BATCH           1024
#define PROCESS_RETRY_NS        (PROCESS_BATCH * 5)

static const char * const etype_name[] = {
    [ETYPE_EVENT] = "event",
    [ETYPE_MANUAL] = "manual",
    [ETYPE_CHAIN] = "chain",
    [ETYPE_QDMA] = "qdma",
};

static void am335x_edma_tpcc_update_irq(AM335xEdmaTpccState *s)
{
    bool comp = (s->ipr & s->ier & s->drae[0]) != 0;
    bool err = s->emr || s->qemr || s->ccerr;

    trace_am335x_edma_tpcc_irq(comp, err);
    qemu_set_irq(s->irq[AM335X_EDMA_TPCC_IRQ_COMP], comp);
    qemu_set_irq(s->irq[AM335X_EDMA_TPCC_IRQ_ERR], err);
}

/* Evaluate the queues soon, from the timer. */
static void am335x_edma_tpcc_schedule(AM335xEdmaTpccState *s)
{
    if (!s->processing) {
        timer_mod(&s->process_timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
    }
}

static void am335x_edma_tpcc_missed(AM335xEdmaTpccState *s, bool qdma,
                                    unsigned ch, const char *why)
{
    trace_am335x_edma_tpcc_missed(qdma ? "QDMA" : "DMA", ch, why);
    if (qdma) {
        s->qemr |= BIT(ch);
    } else {
        s->emr |= BIT_ULL(ch);
    }
}

/*
 * TRM 11.3.4: a trigger sets its register bit; a trigger on a channel
 * whose bit of the same kind is still set is lost and recorded in EMR.
 */
static void am335x_edma_tpcc_trigger(AM335xEdmaTpccState *s, uint64_t *reg,
                                     uint64_t bits, const char *why)
{
    uint64_t missed = *reg & bits;

    while (missed) {
        am335x_edma_tpcc_missed(s, false, ctz64(missed), why);
        missed &= missed - 1;
    }
    *reg |= bits;
    am335x_edma_tpcc_schedule(s);
}

/* A QDMA event latches only while the channel is enabled (QEER). */
static void am335x_edma_tpcc_qdma_trigger(AM335xEdmaTpccState *s,
                                          unsigned qch)
{
    if (!(s->qeer & BIT(qch))) {
        return;
    }
    trace_am335x_edma_tpcc_qdma_trigger(qch);
    if (s->qer & BIT(qch)) {
        am335x_edma_tpcc_missed(s, true, qch, "QER already set");
    }
    s->qer |= BIT(qch);
    am335x_edma_tpcc_schedule(s);
}

/* TRM 11.3.4.1: a rising edge on a DMA request line sets ER. */
static void am335x_edma_tpcc_event(void *opaque, int n, int level)
{
    AM335xEdmaTpccState *s = AM335X_EDMA_TPCC(opaque);
    uint64_t bit = BIT_ULL(n);
    bool rising = level && !(s->event_level & bit);

    trace_am335x_edma_tpcc_event(n, level);
    s->event_level = level ? s->event_level | bit : s->event_level & ~bit;
    if (rising) {
        am335x_edma_tpcc_trigger(s, &s->er, bit, "ER already set");
        am335x_edma_tpcc_update_irq(s);
    }
}

static unsigned am335x_edma_tpcc_paentry(uint32_t chmap, const char *reg,
                                         unsigned ch)
{
    unsigned set = FIELD_EX32(chmap, CHMAP, PAENTRY);

    if (set >= AM335X_EDMA_NUM_PARAM) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s%u points to reserved PaRAM "
                      "set %u; using set %u\n", __func__, reg, ch, set,
                      set % AM335X_EDMA_NUM_PARAM);
    }
    return set % AM335X_EDMA_NUM_PARAM;
}

/* The queue of a channel: DMAQNUMn / QDMAQNUM hold a nibble each. */
static unsigned am335x_edma_tpcc_qnum(uint32_t reg, unsigned ch)
{
    unsigned q = extract32(reg, (ch % 8) * 4, 3);

    /* Queues 3-7 do not exist (TRM 11.4.1: undefined); use the last. */
    return MIN(q, AM335X_EDMA_NUM_QUEUES - 1);
}

/* TRM 11.3.3.1 (LINK): the byte address of a set in the PaRAM */
static unsigned am335x_edma_tpcc_link_set(uint16_t link)
{
    if (link < PARAM_BASE || link >= PARAM_END || link % PARAM_SET_SIZE) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: LINK 0x%04x is not a PaRAM "
                      "set address\n", __func__, link);
    }
    return (link / PARAM_SET_SIZE) % AM335X_EDMA_NUM_PARAM;
}

/* Queue watermarks and the threshold error (TRM 11.4.1, QWMTHRA/QSTATn) */
static void am335x_edma_tpcc_queue_level(AM335xEdmaTpccState *s,
                                         unsigned q)
{
    AM335xEdmaQueue *eq = &s->queue[q];
    unsigned threshold = extract32(s->qwmthra, q * 8, 5);

    eq->watermark = MAX(eq->watermark, eq->count);
    if (eq->count >= threshold) {
        s->ccerr |= BIT(q);
    }
}

static bool am335x_edma_tpcc_enqueue(AM335xEdmaTpccState *s, unsigned q,
                                     unsigned etype, unsigned ch)
{
    AM335xEdmaQueue *eq = &s->queue[q];
    uint8_t entry = 0;

    if (eq->count == AM335X_EDMA_QUEUE_DEPTH) {
        /* The event stays pending until there is room. */
        return false;
    }
    entry = FIELD_DP32(entry, QE, ENUM, ch);
    entry = FIELD_DP32(entry, QE, ETYPE, etype);
    eq->entry[(eq->start + eq->count) % AM335X_EDMA_QUEUE_DEPTH] = entry;
    eq->count++;
    trace_am335x_edma_tpcc_queue(q, etype_name[etype], ch, eq->count);
    am335x_edma_tpcc_queue_level(s, q);
    return true;
}

static unsigned am335x_edma_tpcc_dma_etype(AM335xEdmaTpccState *s,
                                           uint64_t bit)
{
    if (s->er & s->eer & bit) {
        return ETYPE_EVENT;
    }
    return (s->cer & bit) ? ETYPE_CHAIN : ETYPE_MANUAL;
}

/*
 * TRM 11.3.14: pending events are queued, the lowest channel first and
 * DMA before QDMA.  A channel with its SER/QSER bit set is in a queue
 * already and is not queued again.
 */
static bool am335x_edma_tpcc_prioritize(AM335xEdmaTpccState *s)
{
    uint64_t pending = ((s->er & s->eer) | s->esr | s->cer) & ~s->ser;
    uint32_t qpending = s->qer & ~s->qser & QDMA_ALL;
    bool progress = false;

    for (; pending; pending &= pending - 1) {
        unsigned ch = ctz64(pending);
        unsigned q = am335x_edma_tpcc_qnum(s->dmaqnum[ch / 8], ch);

        if (am335x_edma_tpcc_enqueue(s, q, am335x_edma_tpcc_dma_etype(s,
                                     BIT_ULL(ch)), ch)) {
            s->ser |= BIT_ULL(ch);
            progress = true;
        }
    }
    for (; qpending; qpending &= qpending - 1) {
        unsigned qch = ctz32(qpending);
        unsigned q = am335x_edma_tpcc_qnum(s->qdmaqnum, qch);

        if (am335x_edma_tpcc_enqueue(s, q, ETYPE_QDMA, qch)) {
            s->qser |= BIT(qch);
            progress = true;
        }
    }
    return progress;
}

/*
 * TRM 11.3.5: a transfer completion code sets IPR (interrupt) and/or CER
 * (chained event, lost into EMR if CER is still set).
 */
static void am335x_edma_tpcc_complete(AM335xEdmaTpccState *s, unsigned tcc,
                                      bool intr, bool chain, bool early)
{
    trace_am335x_edma_tpcc_complete(tcc, intr, chain, early);
    if (intr) {
        s->ipr |= BIT_ULL(tcc);
    }
    if (chain) {
        am335x_edma_tpcc_trigger(s, &s->cer, BIT_ULL(tcc), "CER already set");
    }
}

/*
 * TRM 11.3.3.1 (LINK): an exhausted set is overwritten by the linked one;
 * the null link leaves a null set (all zero, LINK = 0xFFFF).  A link
 * update of a QDMA channel's set triggers the channel (TRM 11.4.1, QER).
 */
static void am335x_edma_tpcc_link(AM335xEdmaTpccState *s, unsigned set)
{
    uint16_t link = FIELD_EX32(s->param[set][PARAM_LNK], LNK, LINK);

    trace_am335x_edma_tpcc_link(set, link);
    if (link == LINK_NULL) {
        memset(s->param[set], 0, sizeof(s->param[set]));
        s->param[set][PARAM_LNK] = LINK_NULL;
    } else {
        unsigned from = am335x_edma_tpcc_link_set(link);

        memmove(s->param[set], s->param[from], sizeof(s->param[set]));
    }
    for (unsigned qch = 0; qch < AM335X_EDMA_NUM_QDMACH; qch++) {
        if (FIELD_EX32(s->qchmap[qch], CHMAP, PAENTRY) == set) {
            am335x_edma_tpcc_qdma_trigger(s, qch);
        }
    }
}

/* Step SRC and DST by the signed B-indexes, or the C-indexes */
static void am335x_edma_tpcc_advance(uint32_t *p, bool cidx)
{
    uint32_t idx = p[cidx ? PARAM_CIDX : PARAM_BIDX];

    p[PARAM_SRC] += (int16_t)FIELD_EX32(idx, PAIR, LO);
    p[PARAM_DST] += (int16_t)FIELD_EX32(idx, PAIR, HI);
}

/*
 * TRM 11.3.3.6 (table 11-9): the set after a TR was submitted for it.
 * A-synchronized: next array (B update), next frame (C update, BCNT
 * reloaded) or link.  AB-synchronized: next frame or link.
 */
static void am335x_edma_tpcc_update_set(AM335xEdmaTpccState *s,
                                        unsigned set)
{
    uint32_t *p = s->param[set];
    bool absync = FIELD_EX32(p[PARAM_OPT], OPT, SYNCDIM);
    unsigned bcnt = FIELD_EX32(p[PARAM_ABCNT], ABCNT, BCNT);
    unsigned ccnt = FIELD_EX32(p[PARAM_CCNT], CCNT, CCNT);

    if (!absync && bcnt > 1) {
        am335x_edma_tpcc_advance(p, false);
        p[PARAM_ABCNT] = FIELD_DP32(p[PARAM_ABCNT], ABCNT, BCNT, bcnt - 1);
    } else if (ccnt > 1) {
        am335x_edma_tpcc_advance(p, true);
        p[PARAM_CCNT] = FIELD_DP32(p[PARAM_CCNT], CCNT, CCNT, ccnt - 1);
        if (!absync) {
            p[PARAM_ABCNT] = FIELD_DP32(p[PARAM_ABCNT], ABCNT, BCNT,
                                        FIELD_EX32(p[PARAM_LNK], LNK,
                                                   BCNTRLD));
        }
    } else {
        am335x_edma_tpcc_link(s, set);
    }
}

/* The TR for a set with nothing zero in its counts. */
static void am335x_edma_tpcc_make_tr(AM335xEdmaTpccState *s, unsigned q,
                                     unsigned ch, const uint32_t *p,
                                     AM335xEdmaTR *tr)
{
    bool absync = FIELD_EX32(p[PARAM_OPT], OPT, SYNCDIM);

    memset(tr, 0, sizeof(*tr));
    tr->opt = p[PARAM_OPT];
    tr->src = p[PARAM_SRC];
    tr->dst = p[PARAM_DST];
    tr->acnt = FIELD_EX32(p[PARAM_ABCNT], ABCNT, ACNT);
    tr->bcnt = absync ? FIELD_EX32(p[PARAM_ABCNT], ABCNT, BCNT) : 1;
    tr->src_bidx = FIELD_EX32(p[PARAM_BIDX], PAIR, LO);
    tr->dst_bidx = FIELD_EX32(p[PARAM_BIDX], PAIR, HI);
    tr->pri = extract32(s->quepri, q * 4, 3);
    tr->channel = ch;
}

/* Whether this TR is the set's last (TRM 11.3.5, final vs intermediate) */
static bool am335x_edma_tpcc_final(const uint32_t *p)
{
    unsigned bcnt = FIELD_EX32(p[PARAM_ABCNT], ABCNT, BCNT);
    unsigned ccnt = FIELD_EX32(p[PARAM_CCNT], CCNT, CCNT);

    if (FIELD_EX32(p[PARAM_OPT], OPT, SYNCDIM)) {
        return ccnt <= 1;
    }
    return bcnt <= 1 && ccnt <= 1;
}

static void am335x_edma_tpcc_clear_ser(AM335xEdmaTpccState *s, bool qdma,
                                       unsigned ch)
{
    if (qdma) {
        s->qser &= ~BIT(ch);
    } else {
        s->ser &= ~BIT_ULL(ch);
    }
}

/*
 * TRM 11.3.3.3-5: a null set (all counts 0) is an error: EMR/QEMR, and
 * SER/QSER stays set; a dummy set (some count 0) is a transfer of nothing.
 * Either completes at once (early completion) and links.
 */
static void am335x_edma_tpcc_empty_set(AM335xEdmaTpccState *s, bool qdma,
                                       unsigned ch, unsigned set, bool null)
{
    uint32_t opt = s->param[set][PARAM_OPT];

    if (null) {
        am335x_edma_tpcc_missed(s, qdma, ch, "null PaRAM set");
    } else {
        am335x_edma_tpcc_clear_ser(s, qdma, ch);
    }
    if (!FIELD_EX32(opt, OPT, STATIC)) {
        am335x_edma_tpcc_link(s, set);
    }
    am335x_edma_tpcc_complete(s, FIELD_EX32(opt, OPT, TCC),
                              FIELD_EX32(opt, OPT, TCINTEN),
                              FIELD_EX32(opt, OPT, TCCHEN), true);
}

/* TRM 11.3.5: normal completion comes from the TC, early from here. */
static void am335x_edma_tpcc_send_tr(AM335xEdmaTpccState *s, unsigned q,
                                     AM335xEdmaTR *tr, bool intr, bool chain)
{
    bool early = FIELD_EX32(tr->opt, OPT, TCCMODE);

    if (!early) {
        tr->tcinten = intr;
        tr->tcchen = chain;
        if (intr || chain) {
            s->comp_active++;
            if (s->comp_active >= COMPACTV_MAX) {
                s->ccerr |= R_CCERR_TCCERR_MASK;
            }
        }
    }
    am335x_edma_tptc_submit(s->tc[q], tr);
    if (early) {
        am335x_edma_tpcc_complete(s, FIELD_EX32(tr->opt, OPT, TCC), intr,
                                  chain, true);
    }
}

static void am335x_edma_tpcc_clear_trigger(AM335xEdmaTpccState *s,
                                           unsigned etype, unsigned ch)
{
    switch (etype) {
    case ETYPE_EVENT:
        s->er &= ~BIT_ULL(ch);
        break;
    case ETYPE_MANUAL:
        s->esr &= ~BIT_ULL(ch);
        break;
    case ETYPE_CHAIN:
        s->cer &= ~BIT_ULL(ch);
        break;
    default:
        s->qer &= ~BIT(ch);
        break;
    }
}

/* TRM 11.3.13: the queue head becomes a TR for the queue's TC. */
static void am335x_edma_tpcc_submit(AM335xEdmaTpccState *s, unsigned q,
                                    uint8_t entry)
{
    unsigned etype = FIELD_EX32(entry, QE, ETYPE);
    unsigned ch = FIELD_EX32(entry, QE, ENUM);
    bool qdma = etype == ETYPE_QDMA;
    unsigned set = qdma ?
        am335x_edma_tpcc_paentry(s->qchmap[ch % 8], "QCHMAP", ch % 8) :
        am335x_edma_tpcc_paentry(s->dchmap[ch], "DCHMAP", ch);
    uint32_t *p = s->param[set];
    uint32_t opt = p[PARAM_OPT];
    unsigned acnt = FIELD_EX32(p[PARAM_ABCNT], ABCNT, ACNT);
    unsigned bcnt = FIELD_EX32(p[PARAM_ABCNT], ABCNT, BCNT);
    unsigned ccnt = FIELD_EX32(p[PARAM_CCNT], CCNT, CCNT);
    AM335xEdmaTR tr;
    bool final;

    am335x_edma_tpcc_clear_trigger(s, etype, ch);
    if (!acnt || !bcnt || !ccnt) {
        trace_am335x_edma_tpcc_submit(q, etype_name[etype], ch, set,
                                      acnt || bcnt || ccnt ? "dummy" :
                                      "null");
        am335x_edma_tpcc_empty_set(s, qdma, ch, set,
                                   !acnt && !bcnt && !ccnt);
        return;
    }
    trace_am335x_edma_tpcc_submit(q, etype_name[etype], ch, set, "TR");
    am335x_edma_tpcc_make_tr(s, q, ch, p, &tr);
    final = am335x_edma_tpcc_final(p);
    if (!FIELD_EX32(opt, OPT, STATIC)) {
        am335x_edma_tpcc_update_set(s, set);
    }
    am335x_edma_tpcc_clear_ser(s, qdma, ch);
    if (final) {
        am335x_edma_tpcc_send_tr(s, q, &tr, FIELD_EX32(opt, OPT, TCINTEN),
                                 FIELD_EX32(opt, OPT, TCCHEN));
    } else {
        am335x_edma_tpcc_send_tr(s, q, &tr, FIELD_EX32(opt, OPT, ITCINTEN),
                                 FIELD_EX32(opt, OPT, ITCCHEN));
    }
}

static bool am335x_edma_tpcc_service(AM335xEdmaTpccState *s, unsigned q)
{
    AM335xEdmaQueue *eq = &s->queue[q];
    uint8_t entry;

    if (!eq->count || !am335x_edma_tptc_idle(s->tc[q]) ||
        s->comp_active >= COMPACTV_MAX) {
        return false;
    }
    entry = eq->entry[eq->start];
    eq->start = (eq->start + 1) % AM335X_EDMA_QUEUE_DEPTH;
    eq->count--;
    am335x_edma_tpcc_submit(s, q, entry);
    return true;
}

static void am335x_edma_tpcc_process(void *opaque)
{
    AM335xEdmaTpccState *s = AM335X_EDMA_TPCC(opaque);
    bool progress = true;

    s->processing = true;
    for (int i = 0; i < PROCESS_BATCH && progress; i++) {
        progress = am335x_edma_tpcc_prioritize(s);
        for (unsigned q = 0; q < AM335X_EDMA_NUM_QUEUES; q++) {
            progress |= am335x_edma_tpcc_service(s, q);
        }
    }
    s->processing = false;
    if (progress) {
        timer_mod(&s->process_timer,
                  qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + PROCESS_RETRY_NS);
    }
    am335x_edma_tpcc_update_irq(s);
}

/* A TC is done with a TR: its completion code, and room for the next. */
static void am335x_edma_tpcc_tc_done(void *opaque, unsigned tc,
                                     const AM335xEdmaTR *tr, bool aborted)
{
    AM335xEdmaTpccState *s = AM335X_EDMA_TPCC(opaque);

    if ((tr->tcinten || tr->tcchen) && s->comp_active) {
        s->comp_active--;
    }
    if (!aborted) {
        am335x_edma_tpcc_complete(s, FIELD_EX32(tr->opt, OPT, TCC),
                                  tr->tcinten, tr->tcchen, false);
        am335x_edma_tpcc_update_irq(s);
    }
    am335x_edma_tpcc_schedule(s);
}

static uint32_t am335x_edma_tpcc_qstat(AM335xEdmaTpccState *s, unsigned q)
{
    uint32_t v = 0;

    v = FIELD_DP32(v, QSTAT, STRTPTR, s->queue[q].start);
    v = FIELD_DP32(v, QSTAT, NUMVAL, s->queue[q].count);
    v = FIELD_DP32(v, QSTAT, WM, s->queue[q].watermark);
    v = FIELD_DP32(v, QSTAT, THRXCD, extract32(s->ccerr, q, 1));
    return v;
}

static uint32_t am335x_edma_tpcc_ccstat(AM335xEdmaTpccState *s)
{
    bool evt = ((s->er & s->eer) | s->esr | s->cer) != 0;
    bool tr = false;
    uint32_t queues = 0;
    uint32_t v = 0;

    for (unsigned q = 0; q < AM335X_EDMA_NUM_QUEUES; q++) {
        tr |= !am335x_edma_tptc_idle(s->tc[q]);
        queues |= s->queue[q].count ? BIT(q) : 0;
    }
    v = FIELD_DP32(v, CCSTAT, EVTACTV, evt);
    v = FIELD_DP32(v, CCSTAT, QEVTACTV, s->qer != 0);
    v = FIELD_DP32(v, CCSTAT, TRACTV, tr);
    v = FIELD_DP32(v, CCSTAT, COMPACTV, s->comp_active);
    v = FIELD_DP32(v, CCSTAT, QUEACTV, queues);
    v = FIELD_DP32(v, CCSTAT, ACTV, evt || s->qer || tr || queues ||
                   s->comp_active);
    return v;
}

static uint32_t am335x_edma_tpcc_read_array(AM335xEdmaTpccState *s,
                                            hwaddr reg, bool *ok)
{
    switch (reg) {
    case A_DCHMAP0 ... A_DCHMAP63:
        return s->dchmap[(reg - A_DCHMAP0) / 4];
    case A_QCHMAP0 ... A_QCHMAP7:
        return s->qchmap[(reg - A_QCHMAP0) / 4];
    case A_DMAQNUM0 ... A_DMAQNUM7:
        return s->dmaqnum[(reg - A_DMAQNUM0) / 4];
    case A_DRAE0 ... A_DRAEH7:
        return s->drae[(reg - A_DRAE0) / 8] >> (reg & 4 ? 32 : 0);
    case A_QRAE0 ... A_QRAE7:
        return s->qrae[(reg - A_QRAE0) / 4];
    case A_Q0E0 ... A_Q2E15:
        return s->queue[(reg - A_Q0E0) / 64].entry[(reg - A_Q0E0) / 4 % 16];
    case A_QSTAT0 ... A_QSTAT2:
        return am335x_edma_tpcc_qstat(s, (reg - A_QSTAT0) / 4);
    case A_MPPA0 ... A_MPPA7:
        return s->mppa[(reg - A_MPPA0) / 4];
    default:
        *ok = false;
        return 0;
    }
}

static uint32_t am335x_edma_tpcc_read_global(AM335xEdmaTpccState *s,
                                             hwaddr reg, bool *ok)
{
    *ok = true;
    switch (reg) {
    case A_PID:
        return TPCC_PID;
    case A_CCCFG:
        return TPCC_CCCFG;
    case A_SYSCONFIG:
        return s->sysconfig;
    case A_QDMAQNUM:
        return s->qdmaqnum;
    case A_QUEPRI:
        return s->quepri;
    case A_EMR:
        return s->emr;
    case A_EMRH:
        return s->emr >> 32;
    case A_QEMR:
        return s->qemr;
    case A_CCERR:
        return s->ccerr;
    case A_QWMTHRA:
        return s->qwmthra;
    case A_CCSTAT:
        return am335x_edma_tpcc_ccstat(s);
    case A_MPPAG:
        return s->mppag;
    case A_EMCR:
    case A_EMCRH:
    case A_QEMCR:
    case A_CCERRCLR:
    case A_EEVAL:
    case A_MPFAR:
    case A_MPFSR:
    case A_MPFCR:
        /* Write-only, or no memory protection fault ever */
        return 0;
    default:
        return am335x_edma_tpcc_read_array(s, reg, ok);
    }
}

/* The 64-bit channel registers, whole */
static bool am335x_edma_tpcc_read_pair(AM335xEdmaTpccState *s, hwaddr reg,
                                       uint64_t *v)
{
    switch (reg) {
    case A_ER:
        *v = s->er;
        break;
    case A_ESR:
        *v = s->esr;
        break;
    case A_CER:
        *v = s->cer;
        break;
    case A_EER:
        *v = s->eer;
        break;
    case A_SER:
        *v = s->ser;
        break;
    case A_IER:
        *v = s->ier;
        break;
    case A_IPR:
        *v = s->ipr;
        break;
    case A_ECR:
    case A_EECR:
    case A_EESR:
    case A_SECR:
    case A_IECR:
    case A_IESR:
    case A_ICR:
        /* Write-only */
        *v = 0;
        break;
    default:
        *v = 0;
        return false;
    }
    return true;
}

/* A channel register block, as a region with @dmask/@qmask sees it */
static uint32_t am335x_edma_tpcc_read_channels(AM335xEdmaTpccState *s,
                                               hwaddr reg, uint64_t dmask,
                                               uint32_t qmask, bool *ok)
{
    uint64_t v;

    *ok = true;
    if (reg < A_IEVAL) {
        *ok = am335x_edma_tpcc_read_pair(s, reg & ~4, &v);
        return (v & dmask) >> (reg & 4 ? 32 : 0);
    }
    switch (reg) {
    case A_QER:
        return s->qer & qmask;
    case A_QEER:
        return s->qeer & qmask;
    case A_QSER:
        return s->qser & qmask;
    case A_IEVAL:
    case A_QEECR:
    case A_QEESR:
    case A_QSECR:
        /* Write-only */
        return 0;
    default:
        *ok = false;
        return 0;
    }
}

static uint32_t am335x_edma_tpcc_read_param(AM335xEdmaTpccState *s,
                                            hwaddr offset)
{
    hwaddr rel = offset - PARAM_BASE;

    return s->param[rel / PARAM_SET_SIZE][rel % PARAM_SET_SIZE / 4];
}

static uint32_t am335x_edma_tpcc_read_reg(AM335xEdmaTpccState *s,
                                          hwaddr reg, bool *ok)
{
    unsigned region;

    if (reg < GLOBAL_CHANNELS) {
        return am335x_edma_tpcc_read_global(s, reg, ok);
    }
    if (reg < GLOBAL_CHANNELS + SHADOW_STRIDE) {
        return am335x_edma_tpcc_read_channels(s, reg - GLOBAL_CHANNELS,
                                              UINT64_MAX, QDMA_ALL, ok);
    }
    if (reg >= SHADOW0 &&
        reg < SHADOW0 + AM335X_EDMA_NUM_REGIONS * SHADOW_STRIDE) {
        region = (reg - SHADOW0) / SHADOW_STRIDE;
        return am335x_edma_tpcc_read_channels(s, (reg - SHADOW0) %
                                              SHADOW_STRIDE,
                                              s->drae[region],
                                              s->qrae[region], ok);
    }
    if (reg >= PARAM_BASE && reg < PARAM_END) {
        *ok = true;
        return am335x_edma_tpcc_read_param(s, reg);
    }
    *ok = false;
    return 0;
}

static uint64_t am335x_edma_tpcc_read(void *opaque, hwaddr offset,
                                      unsigned size)
{
    AM335xEdmaTpccState *s = AM335X_EDMA_TPCC(opaque);
    uint32_t value;
    bool ok;

    value = am335x_edma_tpcc_read_reg(s, offset & ~3, &ok);
    if (!ok) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: bad read offset 0x%" HWADDR_PRIx
                      "\n", __func__, offset);
    }
    value = extract32(value, (offset & 3) * 8, size * 8);
    trace_am335x_edma_tpcc_read(offset, size, value);
    return value;
}

static void am335x_edma_tpcc_read_only(hwaddr offset)
{
    qemu_log_mask(LOG_GUEST_ERROR, "%s: write to read-only offset 0x%"
                  HWADDR_PRIx "\n", __func__, offset);
}

static uint32_t am335x_edma_tpcc_merge(uint32_t old, uint32_t value,
                                       uint32_t mask, uint32_t writable)
{
    return ((old & ~mask) | (value & mask)) & writable;
}

static void am335x_edma_tpcc_write_dmaqnum(AM335xEdmaTpccState *s,
                                           uint32_t *reg, uint32_t value,
                                           uint32_t mask)
{
    *reg = am335x_edma_tpcc_merge(*reg, value, mask, QNUM_WRITABLE);
    for (unsigned i = 0; i < 8; i++) {
        if (extract32(*reg, i * 4, 3) >= AM335X_EDMA_NUM_QUEUES) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: queue %u does not exist\n",
                          __func__, extract32(*reg, i * 4, 3));
        }
    }
}

static bool am335x_edma_tpcc_write_array(AM335xEdmaTpccState *s,
                                         hwaddr reg, uint32_t value,
                                         uint32_t mask)
{
    uint64_t *drae;

    switch (reg) {
    case A_DCHMAP0 ... A_DCHMAP63:
        s->dchmap[(reg - A_DCHMAP0) / 4] = am335x_edma_tpcc_merge(
            s->dchmap[(reg - A_DCHMAP0) / 4], value, mask, DCHMAP_WRITABLE);
        break;
    case A_QCHMAP0 ... A_QCHMAP7:
        s->qchmap[(reg - A_QCHMAP0) / 4] = am335x_edma_tpcc_merge(
            s->qchmap[(reg - A_QCHMAP0) / 4], value, mask, QCHMAP_WRITABLE);
        break;
    case A_DMAQNUM0 ... A_DMAQNUM7:
        am335x_edma_tpcc_write_dmaqnum(s, &s->dmaqnum[(reg - A_DMAQNUM0) / 4],
                                       value, mask);
        break;
    case A_DRAE0 ... A_DRAEH7:
        drae = &s->drae[(reg - A_DRAE0) / 8];
        if (reg & 4) {
            *drae = deposit64(*drae, 32, 32, am335x_edma_tpcc_merge(
                              *drae >> 32, value, mask, UINT32_MAX));
        } else {
            *drae = deposit64(*drae, 0, 32, am335x_edma_tpcc_merge(
                              *drae, value, mask, UINT32_MAX));
        }
        break;
    case A_QRAE0 ... A_QRAE7:
        s->qrae[(reg - A_QRAE0) / 4] = am335x_edma_tpcc_merge(
            s->qrae[(reg - A_QRAE0) / 4], value, mask, QDMA_ALL);
        break;
    case A_MPPA0 ... A_MPPA7:
        s->mppa[(reg - A_MPPA0) / 4] = am335x_edma_tpcc_merge(
            s->mppa[(reg - A_MPPA0) / 4], value, mask, MPPA_WRITABLE) |
            (MPPA_RESET & ~MPPA_WRITABLE);
        break;
    case A_Q0E0 ... A_Q2E15:
    case A_QSTAT0 ... A_QSTAT2:
        am335x_edma_tpcc_read_only(reg);
        break;
    default:
        return false;
    }
    return true;
}

/* CCERRCLR also clears the queues' watermarks (TRM 11.4.1, QSTATn.WM) */
static void am335x_edma_tpcc_ccerrclr(AM335xEdmaTpccState *s,
                                      uint32_t written)
{
    for (unsigned q = 0; q < AM335X_EDMA_NUM_QUEUES; q++) {
        if (written & BIT(q)) {
            s->queue[q].watermark = s->queue[q].count;
        }
    }
    s->ccerr &= ~(written & CCERR_ALL);
}

/* IEVAL/EEVAL: pulse the line again if its condition still holds. */
static void am335x_edma_tpcc_eval(AM335xEdmaTpccState *s, unsigned irq)
{
    qemu_irq_lower(s->irq[irq]);
}

static bool am335x_edma_tpcc_write_global(AM335xEdmaTpccState *s,
                                          hwaddr reg, uint32_t value,
                                          uint32_t mask)
{
    uint32_t written = value & mask;

    switch (reg) {
    case A_SYSCONFIG:
        s->sysconfig = am335x_edma_tpcc_merge(s->sysconfig, value, mask,
                                              SYSCONFIG_WRITABLE);
        break;
    case A_QDMAQNUM:
        am335x_edma_tpcc_write_dmaqnum(s, &s->qdmaqnum, value, mask);
        break;
    case A_QUEPRI:
        s->quepri = am335x_edma_tpcc_merge(s->quepri, value, mask,
                                           QUEPRI_WRITABLE);
        break;
    case A_EMCR:
        s->emr &= ~(uint64_t)written;
        break;
    case A_EMCRH:
        s->emr &= ~((uint64_t)written << 32);
        break;
    case A_QEMCR:
        s->qemr &= ~written;
        break;
    case A_CCERRCLR:
        am335x_edma_tpcc_ccerrclr(s, written);
        break;
    case A_EEVAL:
        if (FIELD_EX32(written, EVAL, EVAL)) {
            am335x_edma_tpcc_eval(s, AM335X_EDMA_TPCC_IRQ_ERR);
        }
        break;
    case A_QWMTHRA:
        s->qwmthra = am335x_edma_tpcc_merge(s->qwmthra, value, mask,
                                            QWMTHRA_WRITABLE);
        break;
    case A_MPPAG:
        s->mppag = am335x_edma_tpcc_merge(s->mppag, value, mask,
                                          MPPA_WRITABLE) |
                   (MPPA_RESET & ~MPPA_WRITABLE);
        break;
    case A_MPFCR:
        /* There is never a fault to clear. */
        break;
    case A_PID:
    case A_CCCFG:
    case A_EMR:
    case A_EMRH:
    case A_QEMR:
    case A_CCERR:
    case A_CCSTAT:
    case A_MPFAR:
    case A_MPFSR:
        am335x_edma_tpcc_read_only(reg);
        break;
    default:
        return am335x_edma_tpcc_write_array(s, reg, value, mask);
    }
    return true;
}

/* The 64-bit channel registers; @bits already masked by the region. */
static bool am335x_edma_tpcc_write_pair(AM335xEdmaTpccState *s, hwaddr reg,
                                        uint64_t bits)
{
    switch (reg) {
    case A_ECR:
        s->er &= ~bits;
        break;
    case A_ESR:
        am335x_edma_tpcc_trigger(s, &s->esr, bits, "ESR already set");
        break;
    case A_EECR:
        s->eer &= ~bits;
        break;
    case A_EESR:
        /* An event latched while disabled is now evaluated. */
        s->eer |= bits;
        am335x_edma_tpcc_schedule(s);
        break;
    case A_SECR:
        s->ser &= ~bits;
        am335x_edma_tpcc_schedule(s);
        break;
    case A_IECR:
        s->ier &= ~bits;
        break;
    case A_IESR:
        s->ier |= bits;
        break;
    case A_ICR:
        s->ipr &= ~bits;
        break;
    case A_ER:
    case A_CER:
    case A_EER:
    case A_SER:
    case A_IER:
    case A_IPR:
        am335x_edma_tpcc_read_only(reg);
        break;
    default:
        return false;
    }
    return true;
}

static bool am335x_edma_tpcc_write_channels(AM335xEdmaTpccState *s,
                                            hwaddr reg, uint32_t written,
                                            uint64_t dmask, uint32_t qmask,
                                            int region)
{
    uint32_t qbits = written & qmask;

    if (reg < A_IEVAL) {
        uint64_t bits = (uint64_t)written << (reg & 4 ? 32 : 0);

        return am335x_edma_tpcc_write_pair(s, reg & ~4, bits & dmask);
    }
    switch (reg) {
    case A_IEVAL:
        /* Only region 0's interrupt leaves the TPCC (EDMACOMPINT). */
        if (FIELD_EX32(written, EVAL, EVAL) && region <= 0) {
            am335x_edma_tpcc_eval(s, AM335X_EDMA_TPCC_IRQ_COMP);
        }
        break;
    case A_QEECR:
        s->qeer &= ~qbits;
        break;
    case A_QEESR:
        s->qeer |= qbits;
        break;
    case A_QSECR:
        s->qser &= ~qbits;
        am335x_edma_tpcc_schedule(s);
        break;
    case A_QER:
    case A_QEER:
    case A_QSER:
        am335x_edma_tpcc_read_only(reg);
        break;
    default:
        return false;
    }
    return true;
}

/*
 * A PaRAM write: PRIV records who wrote the set (TRM 11.3.3.1, OPT), and
 * a write to a QDMA channel's trigger word triggers it (TRM 11.3.4.2).
 */
static void am335x_edma_tpcc_write_param(AM335xEdmaTpccState *s,
                                         hwaddr offset, uint32_t value,
                                         uint32_t mask, MemTxAttrs attrs)
{
    hwaddr rel = offset - PARAM_BASE;
    unsigned set = rel / PARAM_SET_SIZE;
    unsigned word = rel % PARAM_SET_SIZE / 4;
    uint32_t *p = s->param[set];
    uint32_t fixed = R_OPT_PRIV_MASK | R_OPT_PRIVID_MASK;

    if (word == PARAM_OPT) {
        p[word] = (p[word] & fixed) |
                  am335x_edma_tpcc_merge(p[word], value, mask, ~fixed);
    } else {
        p[word] = am335x_edma_tpcc_merge(p[word], value, mask, UINT32_MAX);
    }
    p[PARAM_OPT] = FIELD_DP32(p[PARAM_OPT], OPT, PRIV, !attrs.user);
    p[PARAM_OPT] = FIELD_DP32(p[PARAM_OPT], OPT, PRIVID, 0);

    for (unsigned qch = 0; qch < AM335X_EDMA_NUM_QDMACH; qch++) {
        if (FIELD_EX32(s->qchmap[qch], CHMAP, PAENTRY) == set &&
            FIELD_EX32(s->qchmap[qch], CHMAP, TRWORD) == word) {
            am335x_edma_tpcc_qdma_trigger(s, qch);
        }
    }
}

static bool am335x_edma_tpcc_write_reg(AM335xEdmaTpccState *s, hwaddr reg,
                                       uint32_t value, uint32_t mask,
                                       MemTxAttrs attrs)
{
    unsigned region;

    if (reg < GLOBAL_CHANNELS) {
        return am335x_edma_tpcc_write_global(s, reg, value, mask);
    }
    if (reg < GLOBAL_CHANNELS + SHADOW_STRIDE) {
        return am335x_edma_tpcc_write_channels(s, reg - GLOBAL_CHANNELS,
                                               value & mask, UINT64_MAX,
                                               QDMA_ALL, -1);
    }
    if (reg >= SHADOW0 &&
        reg < SHADOW0 + AM335X_EDMA_NUM_REGIONS * SHADOW_STRIDE) {
        region = (reg - SHADOW0) / SHADOW_STRIDE;
        return am335x_edma_tpcc_write_channels(s, (reg - SHADOW0) %
                                               SHADOW_STRIDE, value & mask,
                                               s->drae[region],
                                               s->qrae[region], region);
    }
    if (reg >= PARAM_BASE && reg < PARAM_END) {
        am335x_edma_tpcc_write_param(s, reg, value, mask, attrs);
        return true;
    }
    return false;
}

static MemTxResult am335x_edma_tpcc_write(void *opaque, hwaddr offset,
                                          uint64_t value, unsigned size,
                                          MemTxAttrs attrs)
{
    AM335xEdmaTpccState *s = AM335X_EDMA_TPCC(opaque);
    unsigned shift = (offset & 3) * 8;
    uint32_t mask = MAKE_64BIT_MASK(shift, size * 8);

    trace_am335x_edma_tpcc_write(offset, size, value);
    if (!am335x_edma_tpcc_write_reg(s, offset & ~3, (uint32_t)value << shift,
                                    mask, attrs)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: bad write offset 0x%"
                      HWADDR_PRIx "\n", __func__, offset);
    }
    am335x_edma_tpcc_update_irq(s);
    return MEMTX_OK;
}

static const MemoryRegionOps am335x_edma_tpcc_ops = {
    .read = am335x_edma_tpcc_read,
    .write_with_attrs = am335x_edma_tpcc_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 1,
    .valid.max_access_size = 4,
    .impl.min_access_size = 1,
    .impl.max_access_size = 4,
};

static void am335x_edma_tpcc_reset_enter(Object *obj, ResetType type)
{
    AM335xEdmaTpccState *s = AM335X_EDMA_TPCC(obj);

    timer_del(&s->process_timer);
    s->processing = false;
    memset(s->param, 0, sizeof(s->param));
    memset(s->dchmap, 0, sizeof(s->dchmap));
    memset(s->qchmap, 0, sizeof(s->qchmap));
    memset(s->dmaqnum, 0, sizeof(s->dmaqnum));
    memset(s->drae, 0, sizeof(s->drae));
    memset(s->qrae, 0, sizeof(s->qrae));
    memset(s->queue, 0, sizeof(s->queue));
    s->sysconfig = 0;
    s->qdmaqnum = 0;
    s->quepri = 0;
    s->qwmthra = QWMTHRA_RESET;
    s->mppag = MPPA_RESET;
    for (unsigned i = 0; i < AM335X_EDMA_NUM_REGIONS; i++) {
        s->mppa[i] = MPPA_RESET;
    }
    s->er = s->esr = s->cer = s->eer = s->ser = 0;
    s->ier = s->ipr = s->emr = 0;
    s->qer = s->qeer = s->qser = s->qemr = s->ccerr = 0;
    s->comp_active = 0;
    /* The request lines keep their levels; only edges are events. */
}

static void am335x_edma_tpcc_reset_hold(Object *obj, ResetType type)
{
    am335x_edma_tpcc_update_irq(AM335X_EDMA_TPCC(obj));
}

static void am335x_edma_tpcc_realize(DeviceState *dev, Error **errp)
{
    AM335xEdmaTpccState *s = AM335X_EDMA_TPCC(dev);

    for (unsigned i = 0; i < AM335X_EDMA_NUM_QUEUES; i++) {
        if (!s->tc[i]) {
            error_setg(errp, "%s: link 'tptc%u' is not set",
                       TYPE_AM335X_EDMA_TPCC, i);
            return;
        }
    }
    /* TRM 11.3.11: queue n is served by TC n. */
    for (unsigned i = 0; i < AM335X_EDMA_NUM_QUEUES; i++) {
        am335x_edma_tptc_connect(s->tc[i], i, am335x_edma_tpcc_tc_done, s);
    }
    memory_region_init_io(&s->iomem, OBJECT(s), &am335x_edma_tpcc_ops, s,
                          TYPE_AM335X_EDMA_TPCC, AM335X_EDMA_TPCC_MMIO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->iomem);
}

static void am335x_edma_tpcc_unrealize(DeviceState *dev)
{
    timer_del(&AM335X_EDMA_TPCC(dev)->process_timer);
}

static void am335x_edma_tpcc_init(Object *obj)
{
    AM335xEdmaTpccState *s = AM335X_EDMA_TPCC(obj);

    timer_init_ns(&s->process_timer, QEMU_CLOCK_VIRTUAL,
                  am335x_edma_tpcc_process, s);
    for (unsigned i = 0; i < AM335X_EDMA_TPCC_NUM_IRQS; i++) {
        sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq[i]);
    }
    qdev_init_gpio_in_named(DEVICE(obj), am335x_edma_tpcc_event,
                            AM335X_EDMA_TPCC_EVENT, AM335X_EDMA_NUM_DMACH);
}

static const VMStateDescription vmstate_am335x_edma_queue = {
    .name = "am335x-edma-queue",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT8_ARRAY(entry, AM335xEdmaQueue, AM335X_EDMA_QUEUE_DEPTH),
        VMSTATE_UINT8(start, AM335xEdmaQueue),
        VMSTATE_UINT8(count, AM335xEdmaQueue),
        VMSTATE_UINT8(watermark, AM335xEdmaQueue),
        VMSTATE_END_OF_LIST()
    }
};

static int am335x_edma_tpcc_post_load(void *opaque, int version_id)
{
    AM335xEdmaTpccState *s = AM335X_EDMA_TPCC(opaque);

    for (unsigned q = 0; q < AM335X_EDMA_NUM_QUEUES; q++) {
        if (s->queue[q].start >= AM335X_EDMA_QUEUE_DEPTH ||
            s->queue[q].count > AM335X_EDMA_QUEUE_DEPTH) {
            return -EINVAL;
        }
    }
    return 0;
}

static const VMStateDescription vmstate_am335x_edma_tpcc = {
    .name = TYPE_AM335X_EDMA_TPCC,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = am335x_edma_tpcc_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_TIMER(process_timer, AM335xEdmaTpccState),
        VMSTATE_UINT32_2DARRAY(param, AM335xEdmaTpccState,
                               AM335X_EDMA_NUM_PARAM,
                               AM335X_EDMA_PARAM_WORDS),
        VMSTATE_UINT32(sysconfig, AM335xEdmaTpccState),
        VMSTATE_UINT32_ARRAY(dchmap, AM335xEdmaTpccState,
                             AM335X_EDMA_NUM_DMACH),
        VMSTATE_UINT32_ARRAY(qchmap, AM335xEdmaTpccState,
                             AM335X_EDMA_NUM_QDMACH),
        VMSTATE_UINT32_ARRAY(dmaqnum, AM335xEdmaTpccState,
                             AM335X_EDMA_NUM_DMACH / 8),
        VMSTATE_UINT32(qdmaqnum, AM335xEdmaTpccState),
        VMSTATE_UINT32(quepri, AM335xEdmaTpccState),
        VMSTATE_UINT32(qwmthra, AM335xEdmaTpccState),
        VMSTATE_UINT64_ARRAY(drae, AM335xEdmaTpccState,
                             AM335X_EDMA_NUM_REGIONS),
        VMSTATE_UINT32_ARRAY(qrae, AM335xEdmaTpccState,
                             AM335X_EDMA_NUM_REGIONS),
        VMSTATE_UINT32(mppag, AM335xEdmaTpccState),
        VMSTATE_UINT32_ARRAY(mppa, AM335xEdmaTpccState,
                             AM335X_EDMA_NUM_REGIONS),
        VMSTATE_UINT64(er, AM335xEdmaTpccState),
        VMSTATE_UINT64(esr, AM335xEdmaTpccState),
        VMSTATE_UINT64(cer, AM335xEdmaTpccState),
        VMSTATE_UINT64(eer, AM335xEdmaTpccState),
        VMSTATE_UINT64(ser, AM335xEdmaTpccState),
        VMSTATE_UINT64(ier, AM335xEdmaTpccState),
        VMSTATE_UINT64(ipr, AM335xEdmaTpccState),
        VMSTATE_UINT64(emr, AM335xEdmaTpccState),
        VMSTATE_UINT32(qer, AM335xEdmaTpccState),
        VMSTATE_UINT32(qeer, AM335xEdmaTpccState),
        VMSTATE_UINT32(qser, AM335xEdmaTpccState),
        VMSTATE_UINT32(qemr, AM335xEdmaTpccState),
        VMSTATE_UINT32(ccerr, AM335xEdmaTpccState),
        VMSTATE_UINT64(event_level, AM335xEdmaTpccState),
        VMSTATE_STRUCT_ARRAY(queue, AM335xEdmaTpccState,
                             AM335X_EDMA_NUM_QUEUES, 1,
                             vmstate_am335x_edma_queue, AM335xEdmaQueue),
        VMSTATE_UINT32(comp_active, AM335xEdmaTpccState),
        VMSTATE_END_OF_LIST()
    }
};

static const Property am335x_edma_tpcc_properties[] = {
    DEFINE_PROP_LINK("tptc0", AM335xEdmaTpccState, tc[0],
                     TYPE_AM335X_EDMA_TPTC, AM335xEdmaTptcState *),
    DEFINE_PROP_LINK("tptc1", AM335xEdmaTpccState, tc[1],
                     TYPE_AM335X_EDMA_TPTC, AM335xEdmaTptcState *),
    DEFINE_PROP_LINK("tptc2", AM335xEdmaTpccState, tc[2],
                     TYPE_AM335X_EDMA_TPTC, AM335xEdmaTptcState *),
};

static void am335x_edma_tpcc_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->realize = am335x_edma_tpcc_realize;
    dc->unrealize = am335x_edma_tpcc_unrealize;
    dc->vmsd = &vmstate_am335x_edma_tpcc;
    dc->desc = "TI AM335x EDMA3 channel controller";
    /* Wired to its transfer controllers by the SoC */
    dc->user_creatable = false;
    rc->phases.enter = am335x_edma_tpcc_reset_enter;
    rc->phases.hold = am335x_edma_tpcc_reset_hold;
    device_class_set_props(dc, am335x_edma_tpcc_properties);
}

static const TypeInfo am335x_edma_tpcc_info = {
    .name = TYPE_AM335X_EDMA_TPCC,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AM335xEdmaTpccState),
    .instance_init = am335x_edma_tpcc_init,
    .class_init = am335x_edma_tpcc_class_init,
};

static void am335x_edma_tpcc_register_types(void)
{
    type_register_static(&am335x_edma_tpcc_info);
}

type_init(am335x_edma_tpcc_register_types)
