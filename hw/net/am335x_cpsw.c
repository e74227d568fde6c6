/*
 * TI AM335x 3-port Ethernet switch subsystem (CPSW)
 *
 * The container of the CPSW_3G at 0x4a100000: the subsystem (SS) and port
 * registers, the statistics, the CPTS time stamp counter, the two
 * CPGMAC_SL MACs, the wrapper (WR) that turns the CPDMA's per-channel
 * interrupts into the four INTC lines through its enables, and the 8 KiB
 * CPPI RAM for descriptors; with the CPDMA, ALE and MDIO as child devices
 * mapped over it, and the boards' PHYs behind the MDIO.  Each slave port
 * is a QEMU NIC.
 *
 * Frames from a slave port go where the ALE says: to the host (CPDMA RX,
 * channel by the host port's priority map) and/or out of the other slave
 * port.  Frames from the host go to the port the descriptor directs them
 * to, or where the ALE says.  A MAC passes frames only with GMII_EN set
 * and its PHY's link up.  The wrapper's CONTROL, IDVER and SOFT_RESET are
 * also what ti-sysc drives as this target module's SYSCONFIG, REV and
 * SYSSTATUS.
 *
 * The NICs' MAC addresses are those of the control module's e-fuses
 * (mac-base, +1 for port 2), which is where Linux gets them from.
 *
 * Interrupt pacing (TRM 14.3, "Interrupt Pacing", and the C0_RX_IMAX
 * pseudo-code of TI's EMAC control module, the same pacer): with
 * INT_PACE_EN set for C0_RX or C0_TX, the pacer runs in windows of 250
 * prescaled pulses (1 ms with the 4 us pulse the driver sets).  In each
 * it blocks that line for its first pace_counter pulses and lets it
 * through after; at the window's end a held interrupt goes out, and the
 * window's count of interrupt events (one per packet completion the
 * CPDMA's mask and C0_RX_EN/C0_TX_EN route to the line, counted whether
 * blocked or not) sets the next pace_counter against IMAX: above 2 IMAX, 255
 * (the whole window); above 1.5 IMAX, twice plus one; above IMAX, one
 * more; above IMAX / 2, one less; any, half; none, 0.  The pacers of
 * cores 1 and 2, whose lines go nowhere on the AM335x, only store their
 * registers.
 *
 * Bad frames from a netdev: undersized (shorter than 64 bytes with the
 * FCS) and oversized (longer than the port's RX_MAXLEN) frames are counted
 * in the statistics and dropped, as the MAC does.  Short frames from the
 * host are padded to the minimum on egress.
 *
 * In VLAN-aware mode (CONTROL.VLAN_AWARE), a frame leaves a port that its
 * VLAN's entry marks as force-untagged without a tag; leaving any other
 * port, an untagged frame gets the header VLAN (the ingress port's
 * PORT_VLAN) inserted.  With CONTROL.RX_VLAN_ENCAP the host port instead
 * receives the frame as it came in, behind a word that carries its header
 * VLAN and whether it was VLAN-, priority- or not tagged (descriptor flag
 * bit 19); the driver applies the host port's untag rule itself.
 *
 * Timing (the machine's timing=on): each slave port's wire runs at the
 * rate its MAC is set to (SL_MACCONTROL GIG, IFCTL_A, EXT_EN), at most
 * the PHY's resolved speed, and a frame takes its preamble and SFD, its
 * bytes with the FCS (64 at least) and the gap (SL_TX_GAP on TX) on it.
 * TX: the CPDMA completes a packet when it has left the wire; frames
 * queue behind each other.  The netdev gets the frame when it starts on
 * the wire.  RX: a frame from the netdev starts on the wire when it comes
 * (or after the one before) and reaches memory once its last byte is in;
 * meanwhile the port takes nothing else, and the net layer holds the
 * backend back (can_receive, flushed when the wire is free).  Nothing
 * else holds it back: a frame for the host that finds no RX buffer waits
 * in port 0's transmit FIFO (P0_MAX_BLKS) or, that full, is dropped and
 * counted, as on the silicon without flow control.  Without timing, the
 * backend is held back instead (QEMU's usual lossless NIC).
 *
 * Not modelled: flow control and pause frames, the slave ports' FIFOs,
 * the FIFOs' priorities, priority remapping of tagged frames on egress, the
 * CPTS's hardware push and Ethernet event time stamps, the RGMII status.
 *
 * Reference: AM335x TRM (SPRUH73), chapter 14.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/main-loop.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "hw/net/am335x_cpsw.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "net/eth.h"
#include "trace.h"

/* Offsets in the CPSW's window */
#define CPSW_PORT_BASE      0x100
#define CPSW_PORT_END       0x400
#define CPSW_CPDMA_BASE     0x800
#define CPSW_STATS_BASE     0x900
#define CPSW_STATERAM_BASE  0xa00
#define CPSW_CPTS_BASE      0xc00
#define CPSW_ALE_BASE       0xd00
#define CPSW_SL1_BASE       0xd80
#define CPSW_SL_SIZE        0x40
#define CPSW_MDIO_BASE      0x1000
#define CPSW_WR_BASE        0x1200
#define CPSW_WR_SIZE        0x90
#define CPSW_CPPI_RAM_BASE  0x2000
#define CPSW_CPPI_RAM_SIZE  0x2000

/* CPSW_SS */
REG32(SS_ID_VER, 0x00)
REG32(SS_CONTROL, 0x04)
    FIELD(SS_CONTROL, VLAN_AWARE, 1, 1)
    FIELD(SS_CONTROL, RX_VLAN_ENCAP, 2, 1)
REG32(SS_SOFT_RESET, 0x08)
REG32(SS_STAT_PORT_EN, 0x0c)
REG32(SS_PTYPE, 0x10)
REG32(SS_SOFT_IDLE, 0x14)
REG32(SS_THRU_RATE, 0x18)
REG32(SS_GAP_THRESH, 0x1c)
REG32(SS_TX_START_WDS, 0x20)
REG32(SS_FLOW_CONTROL, 0x24)
REG32(SS_VLAN_LTYPE, 0x28)
REG32(SS_TS_LTYPE, 0x2c)
REG32(SS_DLR_LTYPE, 0x30)

/* CPSW_PORT, relative to CPSW_PORT_BASE */
#define P0_MAX_BLKS         0x008
#define P0_PORT_VLAN        0x014
#define P0_CPDMA_RX_CH_MAP  0x020
#define PN_PORT_VLAN(n)     (0x100 * (n) + 0x014)
#define PN_MAX_BLKS(n)      (0x100 * (n) + 0x008)
/* Pn_MAX_BLKS: 1 KB FIFO blocks, receive 3:0 and transmit 8:4; reset 4/16 */
#define MAX_BLKS_TX_SHIFT   4
#define MAX_BLKS_TX_MASK    0x1f
#define MAX_BLKS_RESET      ((0x10 << MAX_BLKS_TX_SHIFT) | 0x4)

/* CPGMAC_SL */
REG32(SL_IDVER, 0x00)
REG32(SL_MACCONTROL, 0x04)
    FIELD(SL_MACCONTROL, GMII_EN, 5, 1)
    FIELD(SL_MACCONTROL, GIG, 7, 1)
    FIELD(SL_MACCONTROL, IFCTL_A, 15, 1)
    FIELD(SL_MACCONTROL, EXT_EN, 18, 1)
    FIELD(SL_MACCONTROL, RX_CSF_EN, 23, 1)
REG32(SL_MACSTATUS, 0x08)
    FIELD(SL_MACSTATUS, IDLE, 31, 1)
REG32(SL_SOFT_RESET, 0x0c)
REG32(SL_RX_MAXLEN, 0x10)
REG32(SL_BOFFTEST, 0x14)
REG32(SL_RX_PAUSE, 0x18)
REG32(SL_TX_PAUSE, 0x1c)
REG32(SL_EMCONTROL, 0x20)
REG32(SL_RX_PRI_MAP, 0x24)
REG32(SL_TX_GAP, 0x28)
    FIELD(SL_TX_GAP, TX_GAP, 0, 9)

/* CPTS */
REG32(CPTS_IDVER, 0x00)
REG32(CPTS_CONTROL, 0x04)
    FIELD(CPTS_CONTROL, CPTS_EN, 0, 1)
REG32(CPTS_TS_PUSH, 0x0c)
REG32(CPTS_TS_LOAD_VAL, 0x10)
REG32(CPTS_TS_LOAD_EN, 0x14)
REG32(CPTS_INTSTAT_RAW, 0x20)
REG32(CPTS_INTSTAT_MASKED, 0x24)
REG32(CPTS_INT_ENABLE, 0x28)
REG32(CPTS_EVENT_POP, 0x30)
REG32(CPTS_EVENT_LOW, 0x34)
REG32(CPTS_EVENT_HIGH, 0x38)

/* CPSW_WR */
REG32(WR_IDVER, 0x00)
REG32(WR_SOFT_RESET, 0x04)
REG32(WR_CONTROL, 0x08)
REG32(WR_INT_CONTROL, 0x0c)
    FIELD(WR_INT_CONTROL, INT_PRESCALE, 0, 11)
    FIELD(WR_INT_CONTROL, INT_PACE_EN, 16, 6)   /* C0 RX, C0 TX, C1 RX, ... */
    FIELD(WR_INT_CONTROL, INT_TEST, 31, 1)
REG32(WR_C0_RX_THRESH_EN, 0x10)
REG32(WR_C0_RX_EN, 0x14)
REG32(WR_C0_TX_EN, 0x18)
REG32(WR_C0_MISC_EN, 0x1c)
REG32(WR_C2_MISC_EN, 0x3c)
REG32(WR_C0_RX_THRESH_STAT, 0x40)
REG32(WR_C2_MISC_STAT, 0x6c)
REG32(WR_C0_RX_IMAX, 0x70)
REG32(WR_C0_TX_IMAX, 0x74)
REG32(WR_C2_TX_IMAX, 0x84)
REG32(WR_RGMII_CTL, 0x88)

/* C0_MISC_STAT bits */
#define MISC_MDIO_USERINT   (1u << 0)
#define MISC_MDIO_LINKINT   (1u << 1)
#define MISC_HOST_PEND      (1u << 2)
#define MISC_STAT_PEND      (1u << 3)
#define MISC_EVNT_PEND      (1u << 4)

/* Identification values (TRM 14.5; Linux prints "cpsw version 1.12") */
#define CPSW_SS_IDVER       0x00190112
#define CPSW_SL_IDVER       0x00170112
#define CPSW_CPTS_IDVER     0x4e8a0101
/* ti-sysc "cpgmac" quirk: 0x4edb1902 under mask 0xffff00f0 */
#define CPSW_WR_IDVER       0x4edb1902
#define CPSW_WR_CONTROL_MASK 0xf    /* MMR_IDLEMODE, MMR_STDBYMODE */

/* STATS words */
enum {
    ST_RXGOODFRAMES = 0x00 / 4,
    ST_RXBROADCAST = 0x04 / 4,
    ST_RXMULTICAST = 0x08 / 4,
    ST_RXOVERSIZED = 0x18 / 4,
    ST_RXUNDERSIZED = 0x20 / 4,
    ST_RXOCTETS = 0x30 / 4,
    ST_TXGOODFRAMES = 0x34 / 4,
    ST_TXBROADCAST = 0x38 / 4,
    ST_TXMULTICAST = 0x3c / 4,
    ST_TXOCTETS = 0x64 / 4,
    ST_64 = 0x68 / 4,
    ST_65_127,
    ST_128_255,
    ST_256_511,
    ST_512_1023,
    ST_1024_UP,
    ST_NETOCTETS = 0x80 / 4,
    ST_RXSOFOVERRUNS = 0x84 / 4,
    ST_RXDMAOVERRUNS = 0x8c / 4,
};

/*
 * The pacer counts 4 us pulses of INT_PRESCALE main clocks; IMAX is per
 * 1 ms, that is per 250 pulses, and valid from 2 to 63 (TRM, CPSW_WR
 * C0_RX_IMAX).
 */
#define CPSW_PACE_PULSES_PER_MS 250
#define CPSW_PACE_COUNTER_MAX   255
#define CPSW_IMAX_MIN       2
#define CPSW_IMAX_MAX       0x3f

#define ETH_MIN_FRAME       60  /* without the FCS */
#define ETH_FCS_LEN         4

/*
 * Timing: the frame on the wire is preceded by the preamble and SFD, 8
 * bytes, and followed by the inter-frame gap, at least 12 byte times
 * (IEEE 802.3, 4.4.2 and 35.2.3.2); the MAC's own gap is SL_TX_GAP, 12 at
 * reset (TRM 14.5.7).
 */
#define ETH_PREAMBLE_SFD    8
#define ETH_IFG_MIN         12

/* The pacer's pulse: INT_PRESCALE main clocks */
static int64_t am335x_cpsw_pace_pulse_ns(AM335xCpswState *s)
{
    uint32_t prescale = FIELD_EX32(s->wr[R_WR_INT_CONTROL], WR_INT_CONTROL,
                                   INT_PRESCALE);

    return MAX(muldiv64(MAX(prescale, 1), NANOSECONDS_PER_SECOND,
                        s->main_hz), 1);
}

/* The pseudo-code's pace_counter after a window with @events events */
static uint32_t am335x_cpsw_pace_adapt(uint32_t counter, uint32_t events,
                                       uint32_t imax)
{
    if (events > 2 * imax) {
        return CPSW_PACE_COUNTER_MAX;
    } else if (2 * events > 3 * imax) {
        return MIN(2 * counter + 1, CPSW_PACE_COUNTER_MAX);
    } else if (events > imax) {
        return MIN(counter + 1, CPSW_PACE_COUNTER_MAX);
    } else if (2 * events > imax) {
        return counter ? counter - 1 : 0;
    }
    return events ? counter / 2 : 0;
}

static bool am335x_cpsw_paced(AM335xCpswState *s, int d)
{
    return FIELD_EX32(s->wr[R_WR_INT_CONTROL], WR_INT_CONTROL, INT_PACE_EN) &
           (1u << d);
}

/*
 * Ends paced line d's windows that are over by @now: each sets the next
 * one's block from its events, and a rise it held goes out at its end.
 */
static void am335x_cpsw_pace_windows(AM335xCpswState *s, int d, int64_t now)
{
    int64_t window = am335x_cpsw_pace_pulse_ns(s) * CPSW_PACE_PULSES_PER_MS;
    uint32_t imax = MAX(s->wr[R_WR_C0_RX_IMAX + d], CPSW_IMAX_MIN);

    while (now >= s->pace_window_ns[d] + window) {
        s->pace_counter[d] = am335x_cpsw_pace_adapt(s->pace_counter[d],
                                                    s->pace_events[d], imax);
        trace_am335x_cpsw_pace_window(d, s->pace_events[d],
                                      s->pace_counter[d]);
        s->pace_events[d] = 0;
        s->pace_window_ns[d] += window;
        if (s->pace_input[d]) {
            s->pace_level[d] = true;
        }
        if (s->pace_counter[d] == 0) {
            /* quiet windows change nothing: skip them */
            s->pace_window_ns[d] += (now - s->pace_window_ns[d]) / window *
                                    window;
        }
    }
}

/*
 * What paced line d drives for a pending status LEVEL: once up, it stays
 * up until the status clears; while the pacer blocks it, a rise waits for
 * the block's end (or the window's), which the timer brings in.
 */
static bool am335x_cpsw_pace(AM335xCpswState *s, int d, bool level)
{
    int64_t now, unblock;

    if (!am335x_cpsw_paced(s, d)) {
        s->pace_input[d] = s->pace_level[d] = level;
        return level;
    }
    now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    /* before the new level: only a rise held at a window's end goes out */
    am335x_cpsw_pace_windows(s, d, now);
    s->pace_input[d] = level;
    if (!level || s->pace_level[d]) {
        s->pace_level[d] = level;
        return level;
    }
    unblock = s->pace_window_ns[d] + am335x_cpsw_pace_pulse_ns(s) *
              MIN(s->pace_counter[d], CPSW_PACE_PULSES_PER_MS);
    if (now < unblock) {
        trace_am335x_cpsw_pace_hold(d, unblock - now);
        timer_mod_anticipate_ns(s->pace_timer, unblock);
        return false;
    }
    s->pace_level[d] = true;
    return true;
}

/*
 * A packet's completion interrupt from the CPDMA: an event for the pacer
 * of core 0's line when C0_RX_EN/C0_TX_EN routes the channel to it.
 */
static void am335x_cpsw_int_event(void *opaque, bool tx, int ch)
{
    AM335xCpswState *s = opaque;
    int d = tx ? 1 : 0;

    if (!(s->wr[tx ? R_WR_C0_TX_EN : R_WR_C0_RX_EN] & (1u << ch)) ||
        !am335x_cpsw_paced(s, d)) {
        return;
    }
    am335x_cpsw_pace_windows(s, d, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
    s->pace_events[d]++;
}

/* Pacing of line d turned on: its pacer starts afresh */
static void am335x_cpsw_pace_start(AM335xCpswState *s, int d)
{
    s->pace_window_ns[d] = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    s->pace_counter[d] = 0;
    s->pace_events[d] = 0;
}

static void am335x_cpsw_update_irq(void *opaque)
{
    AM335xCpswState *s = opaque;
    uint32_t *wr = s->wr;
    uint32_t misc = 0;

    if (s->cpts_int_raw & s->cpts_int_enable) {
        misc |= MISC_EVNT_PEND;
    }
    if (am335x_cpdma_host_error_pending(&s->cpdma)) {
        misc |= MISC_HOST_PEND;
    }
    if (s->mdio_irq[AM335X_MDIO_IRQ_LINK]) {
        misc |= MISC_MDIO_LINKINT;
    }
    if (s->mdio_irq[AM335X_MDIO_IRQ_USER]) {
        misc |= MISC_MDIO_USERINT;
    }
    /* C0-C2 status: the raw pending status through each core's enables */
    for (int c = 0; c < 3; c++) {
        wr[R_WR_C0_RX_THRESH_STAT + 4 * c] =
            am335x_cpdma_rx_thresh_pending(&s->cpdma) &
            wr[R_WR_C0_RX_THRESH_EN + 4 * c];
        wr[R_WR_C0_RX_THRESH_STAT + 4 * c + 1] =
            am335x_cpdma_rx_pending(&s->cpdma) & wr[R_WR_C0_RX_EN + 4 * c];
        wr[R_WR_C0_RX_THRESH_STAT + 4 * c + 2] =
            am335x_cpdma_tx_pending(&s->cpdma) & wr[R_WR_C0_TX_EN + 4 * c];
        wr[R_WR_C0_RX_THRESH_STAT + 4 * c + 3] =
            misc & wr[R_WR_C0_MISC_EN + 4 * c];
    }
    for (int i = 0; i < AM335X_CPSW_NUM_IRQS; i++) {
        bool level = wr[R_WR_C0_RX_THRESH_STAT + i] != 0;

        if (i == AM335X_CPSW_IRQ_RX || i == AM335X_CPSW_IRQ_TX) {
            level = am335x_cpsw_pace(s, i - AM335X_CPSW_IRQ_RX, level);
        }
        qemu_set_irq(s->irq[i], level);
    }
}

static void am335x_cpsw_mdio_irq(void *opaque, int n, int level)
{
    AM335xCpswState *s = opaque;

    s->mdio_irq[n] = level;
    am335x_cpsw_update_irq(s);
}

/* Statistics: the counters of the ports STAT_PORT_EN enables, summed. */
static void am335x_cpsw_count(AM335xCpswState *s, int port, bool rx,
                              const uint8_t *buf, size_t len)
{
    uint32_t *st = s->stats;
    size_t wire = MAX(len, ETH_MIN_FRAME) + ETH_FCS_LEN;

    if (!(s->ss[R_SS_STAT_PORT_EN] & (1u << port))) {
        return;
    }
    if (rx) {
        st[ST_RXGOODFRAMES]++;
        st[ST_RXOCTETS] += wire;
        if (is_broadcast_ether_addr(buf)) {
            st[ST_RXBROADCAST]++;
        } else if (is_multicast_ether_addr(buf)) {
            st[ST_RXMULTICAST]++;
        }
    } else {
        st[ST_TXGOODFRAMES]++;
        st[ST_TXOCTETS] += wire;
        if (is_broadcast_ether_addr(buf)) {
            st[ST_TXBROADCAST]++;
        } else if (is_multicast_ether_addr(buf)) {
            st[ST_TXMULTICAST]++;
        }
    }
    st[wire <= 64 ? ST_64 : wire <= 127 ? ST_65_127 :
       wire <= 255 ? ST_128_255 : wire <= 511 ? ST_256_511 :
       wire <= 1023 ? ST_512_1023 : ST_1024_UP]++;
    st[ST_NETOCTETS] += wire;
}

/* An error counter of a port's receive side */
static void am335x_cpsw_count_error(AM335xCpswState *s, int port, int word)
{
    if (s->ss[R_SS_STAT_PORT_EN] & (1u << port)) {
        s->stats[word]++;
    }
}

static bool am335x_cpsw_port_up(AM335xCpswState *s, int n)
{
    AM335xCpswPort *p = &s->port[n - 1];

    return p->nic && FIELD_EX32(p->sl[R_SL_MACCONTROL], SL_MACCONTROL,
                                GMII_EN) &&
           am335x_ethphy_link_ok(&s->phy[n - 1]);
}

/*
 * The rate of slave port @n's wire, in Mbit/s.  The MAC runs at 1000 with
 * MACCONTROL.GIG, else at 100 or 10 as IFCTL_A selects, or from the PHY's
 * in-band status with EXT_EN (TRM 14.5.7, SL_MACCONTROL); the PHY's
 * resolved speed bounds it (a MAC faster than its PHY passes nothing on
 * the silicon; here it is slowed down to the PHY).
 */
static int am335x_cpsw_port_mbps(AM335xCpswState *s, int n)
{
    uint32_t ctl = s->port[n - 1].sl[R_SL_MACCONTROL];
    int phy = am335x_ethphy_speed(&s->phy[n - 1]);
    int mac = FIELD_EX32(ctl, SL_MACCONTROL, GIG) ? 1000 :
              FIELD_EX32(ctl, SL_MACCONTROL, EXT_EN) ? phy :
              FIELD_EX32(ctl, SL_MACCONTROL, IFCTL_A) ? 100 : 10;

    return MAX(MIN(mac, phy), 10);
}

/* Byte times a frame of @len bytes (without FCS) takes on the wire */
static uint64_t am335x_cpsw_wire_bytes(AM335xCpswState *s, size_t len,
                                       uint32_t ifg)
{
    return s->preamble_bytes + MAX(len + ETH_FCS_LEN, 64) + ifg;
}

/*
 * Books @len bytes on port @n's TX wire from @ready on; returns when the
 * frame has left.
 */
static int64_t am335x_cpsw_wire_tx(AM335xCpswState *s, int n, size_t len,
                                   int64_t ready)
{
    AM335xCpswPort *p = &s->port[n - 1];
    int mbps = am335x_cpsw_port_mbps(s, n);
    uint32_t gap = MAX(FIELD_EX32(p->sl[R_SL_TX_GAP], SL_TX_GAP, TX_GAP),
                       ETH_IFG_MIN);
    uint64_t bytes = am335x_cpsw_wire_bytes(s, len, gap);
    int64_t start = MAX(ready, p->tx_wire.busy_until), end;

    p->tx_wire.bandwidth = (uint64_t)mbps * 1000 * 1000 / 8;
    end = am335x_timing_book_at(&p->tx_wire, ready, bytes, 0);
    trace_am335x_cpsw_wire_tx(n, mbps, bytes, start, end);
    return end;
}

static bool am335x_cpsw_tagged(const uint8_t *buf, size_t len)
{
    return len >= 18 && lduw_be_p(buf + 12) == ETH_P_VLAN;
}

/*
 * A frame's VLAN and priority: its tag's, or the ingress port's; returns
 * whether it has a tag.
 */
static bool am335x_cpsw_frame_vlan(AM335xCpswState *s, const uint8_t *buf,
                                   size_t len, uint32_t port_vlan,
                                   unsigned *vid, unsigned *pri)
{
    if (am335x_cpsw_tagged(buf, len)) {
        uint16_t tci = lduw_be_p(buf + 14);

        /* A priority tag (VID 0) leaves the VLAN to the port. */
        *vid = (tci & 0xfff) ?: port_vlan & 0xfff;
        *pri = tci >> 13;
        return true;
    }
    *vid = port_vlan & 0xfff;
    *pri = (port_vlan >> 13) & 7;
    return false;
}

/*
 * A VLAN-aware switch sends a frame out of a port in its VLAN's
 * force-untagged-egress mask without its tag, and out of any other port
 * with one: an untagged frame gets the header VLAN @vid/@pri inserted.
 * The result goes to @out (at least AM335X_CPDMA_MAX_FRAME + 1 bytes);
 * returns its length.
 */
static size_t am335x_cpsw_egress_tag(AM335xCpswState *s, int port,
                                     uint32_t untag, unsigned vid,
                                     unsigned pri, const uint8_t **buf,
                                     size_t len, uint8_t *out)
{
    bool tagged = am335x_cpsw_tagged(*buf, len);

    if (!FIELD_EX32(s->ss[R_SS_CONTROL], SS_CONTROL, VLAN_AWARE) ||
        len < 14 || len + 4 > AM335X_CPDMA_MAX_FRAME + 1) {
        return len;
    }
    if ((untag & (1u << port)) && tagged) {
        memcpy(out, *buf, 12);
        memcpy(out + 12, *buf + 16, len - 16);
        *buf = out;
        return len - 4;
    }
    if (!(untag & (1u << port)) && !tagged) {
        memcpy(out, *buf, 12);
        stw_be_p(out + 12, ETH_P_VLAN);
        stw_be_p(out + 14, pri << 13 | vid);
        memcpy(out + 16, *buf + 12, len - 12);
        *buf = out;
        return len + 4;
    }
    return len;
}

/*
 * The host port's receive VLAN encapsulation word (CONTROL.RX_VLAN_ENCAP):
 * priority 31:29, VID 27:16, packet type 9:8 (0 VLAN tagged, 2 priority
 * tagged, 3 untagged), put in front of the frame as it came in.
 */
static size_t am335x_cpsw_encap(const uint8_t **buf, size_t len,
                                unsigned vid, unsigned pri, uint8_t *out)
{
    uint32_t type = 3;

    if (len + 4 > AM335X_CPDMA_MAX_FRAME + 1) {
        return len;
    }
    if (am335x_cpsw_tagged(*buf, len)) {
        type = (lduw_be_p(*buf + 14) & 0xfff) ? 0 : 2;
    }
    stl_le_p(out, pri << 29 | vid << 16 | type << 8);
    memcpy(out + 4, *buf, len);
    *buf = out;
    return len + 4;
}

/*
 * Sends a frame out of the slave ports in @mask; @directed frames (from
 * the host, to one port) skip the ALE and leave as they are.
 */
static int64_t am335x_cpsw_egress(AM335xCpswState *s, uint32_t mask,
                                  bool directed, uint32_t untag, unsigned vid,
                                  unsigned pri, const uint8_t *frame,
                                  size_t size, int64_t ready)
{
    uint8_t out[AM335X_CPDMA_MAX_FRAME + 1];
    int64_t sent = 0;

    for (int n = 1; n <= AM335X_CPSW_NUM_SLAVES; n++) {
        const uint8_t *buf = frame;
        size_t len = size;

        if (!(mask & (1u << n)) || !am335x_cpsw_port_up(s, n)) {
            continue;
        }
        if (!directed) {
            len = am335x_cpsw_egress_tag(s, n, untag, vid, pri, &buf, len,
                                         out);
        }
        /* The MAC pads a short frame to the minimum on the wire. */
        if (len < ETH_MIN_FRAME) {
            if (buf != out) {
                memcpy(out, buf, len);
                buf = out;
            }
            memset(out + len, 0, ETH_MIN_FRAME - len);
            len = ETH_MIN_FRAME;
        }
        trace_am335x_cpsw_tx(n, len);
        am335x_cpsw_count(s, n, false, buf, len);
        if (s->timing) {
            sent = MAX(sent, am335x_cpsw_wire_tx(s, n, len, ready));
        }
        qemu_send_packet(qemu_get_queue(s->port[n - 1].nic), buf, len);
        /*
         * A reply the netdev gave at once was queued only if the ports
         * could not take it: waking the main loop for every frame sent
         * would cost more than the frame.
         */
        if (s->rx_held || s->rx_depth) {
            qemu_bh_schedule(s->flush_bh);
        }
    }
    return sent;
}

static int64_t am335x_cpsw_transmit(void *opaque, int to_port,
                                    const uint8_t *buf, size_t len,
                                    int64_t ready)
{
    AM335xCpswState *s = opaque;
    unsigned vid, pri;
    uint32_t mask, untag;
    bool tagged;

    am335x_cpsw_count(s, 0, true, buf, len);
    if (to_port >= 1 && to_port <= AM335X_CPSW_NUM_SLAVES) {
        return am335x_cpsw_egress(s, 1u << to_port, true, 0, 0, 0, buf, len,
                                  ready);
    }
    if (to_port == 0) {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-cpsw: frame directed to the "
                      "host port\n");
        return 0;
    }
    tagged = am335x_cpsw_frame_vlan(s, buf, len,
                                    s->portregs[P0_PORT_VLAN / 4], &vid,
                                    &pri);
    mask = am335x_cpsw_ale_forward(&s->ale, 0, buf, len, vid, tagged,
                                   &untag);
    return am335x_cpsw_egress(s, mask, false, untag, vid, pri, buf, len,
                              ready);
}

/*
 * Whether a frame from port @p must wait for RX buffers: only while the
 * host is receiving at all; what a stopped DMA would not take is dropped,
 * as a real switch would.
 */
static bool am335x_cpsw_rx_wait(AM335xCpswState *s, AM335xCpswPort *p)
{
    AM335xCpdmaState *dma = &s->cpdma;

    for (int ch = 0; ch < AM335X_CPDMA_NUM_CH; ch++) {
        if (am335x_cpdma_can_receive(dma, ch)) {
            return false;
        }
    }
    return (dma->rx_control & 1) && am335x_cpsw_port_up(s, p->num);
}

static bool am335x_cpsw_can_receive(NetClientState *nc)
{
    AM335xCpswPort *p = qemu_get_nic_opaque(nc);

    /*
     * With timing, the wire carries one frame at a time, and nothing holds
     * back the far end: what the host has no room for is dropped.
     */
    if (p->rx_pending) {
        return false;
    }
    if (p->cpsw->timing || !am335x_cpsw_rx_wait(p->cpsw, p)) {
        return true;
    }
    p->cpsw->rx_held = true;    /* the net layer queues what comes now */
    return false;
}

/* A frame from slave port @p's wire, through the MAC and the ALE */
static void am335x_cpsw_rx_frame(AM335xCpswState *s, AM335xCpswPort *p,
                                 const uint8_t *buf, size_t size)
{
    uint8_t out[AM335X_CPDMA_MAX_FRAME + 1];
    const uint8_t *hbuf = buf;
    unsigned vid, pri, ch;
    uint32_t mask, untag, flags = 0;
    size_t hlen;
    bool tagged;

    /*
     * The frame on the wire is the netdev's plus its FCS.  Shorter than 64
     * bytes, it is an undersized frame (its CRC is good), which the MAC
     * drops unless RX_CSF_EN asks for short frames; longer than RX_MAXLEN,
     * an oversized one, always dropped.  Both are counted (TRM 14.3.2.9).
     * QEMU's slirp and tap backends pad what they send to the minimum.
     */
    if (size + ETH_FCS_LEN > (p->sl[R_SL_RX_MAXLEN] & 0x3fff)) {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-cpsw: port %d: oversized "
                      "frame of %zu bytes dropped\n", p->num, size);
        am335x_cpsw_count_error(s, p->num, ST_RXOVERSIZED);
        return;
    }
    if (size < ETH_MIN_FRAME &&
        (size < 14 || !FIELD_EX32(p->sl[R_SL_MACCONTROL], SL_MACCONTROL,
                                  RX_CSF_EN))) {
        am335x_cpsw_count_error(s, p->num, ST_RXUNDERSIZED);
        return;
    }
    am335x_cpsw_count(s, p->num, true, buf, size);
    tagged = am335x_cpsw_frame_vlan(s, buf, size,
                                    s->portregs[PN_PORT_VLAN(p->num) / 4],
                                    &vid, &pri);
    mask = am335x_cpsw_ale_forward(&s->ale, p->num, buf, size, vid, tagged,
                                   &untag);
    trace_am335x_cpsw_rx(p->num, size, vid, mask);
    if (mask & 1) {
        ch = (s->portregs[P0_CPDMA_RX_CH_MAP / 4] >> (4 * pri)) & 7;
        if (FIELD_EX32(s->ss[R_SS_CONTROL], SS_CONTROL, VLAN_AWARE) &&
            FIELD_EX32(s->ss[R_SS_CONTROL], SS_CONTROL, RX_VLAN_ENCAP)) {
            hlen = am335x_cpsw_encap(&hbuf, size, vid, pri, out);
            flags = hlen != size ? AM335X_CPDMA_RX_VLAN_ENCAP : 0;
        } else {
            hlen = am335x_cpsw_egress_tag(s, 0, untag, vid, pri, &hbuf, size,
                                          out);
        }
        if (am335x_cpdma_receive(&s->cpdma, ch, p->num, flags, hbuf, hlen)) {
            /* The statistics count the frame, not the word before it. */
            am335x_cpsw_count(s, 0, false, flags ? hbuf + 4 : hbuf,
                              flags ? hlen - 4 : hlen);
        } else if (s->ss[R_SS_STAT_PORT_EN] & 1) {
            s->stats[ST_RXDMAOVERRUNS]++;
        }
    }
    am335x_cpsw_egress(s, mask & ~1u, false, untag, vid, pri, buf, size,
                       qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
}

/*
 * With timing, a frame from the netdev starts on port @p's wire when it
 * comes (or when the frame before it has passed) and reaches the host when
 * its last byte has come in and been written to memory: the CPDMA writes
 * it as it arrives, behind the MAC's FIFO.  Until then the port takes no
 * other frame, and the net layer holds the backend back, as the far end
 * of a real wire is paced by it.
 */
static void am335x_cpsw_rx_start(AM335xCpswState *s, AM335xCpswPort *p,
                                 const uint8_t *buf, size_t size)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    int64_t start = MAX(now, p->rx_wire.busy_until), end, done;
    int mbps = am335x_cpsw_port_mbps(s, p->num);
    uint64_t bytes = am335x_cpsw_wire_bytes(s, size, s->rx_ifg_bytes);

    p->rx_wire.bandwidth = (uint64_t)mbps * 1000 * 1000 / 8;
    end = am335x_timing_book_at(&p->rx_wire, now, bytes, 0);
    /* The gap after the frame is the wire's, not the DMA's. */
    done = am335x_cpdma_rx_book(&s->cpdma, start + am335x_timing_bytes_ns(
                                    &p->rx_wire, s->preamble_bytes), size);
    done = MAX(done, end - am335x_timing_bytes_ns(&p->rx_wire,
                                                  s->rx_ifg_bytes));
    trace_am335x_cpsw_wire_rx(p->num, mbps, bytes, end, done);
    memcpy(p->rx_buf, buf, size);
    p->rx_len = size;
    p->rx_pending = true;
    p->rx_done_ns = done;
    timer_mod(p->rx_timer, done);
}

/*
 * Timing: a frame for the host that finds no RX buffer waits in port 0's
 * transmit FIFO, P0_MAX_BLKS's TX_MAX_BLKS blocks of 1 KB (16 at reset);
 * when those are taken, the frame is dropped at the start, as the silicon
 * does without flow control (Linux leaves it off), and counted in
 * RXSOFOVERRUNS (TRM 14.3.2.9, 14.5.4).  The FIFO keeps the frame as it
 * came from the wire: the ALE sees it when it leaves.
 */
static uint32_t am335x_cpsw_host_fifo_cap(AM335xCpswState *s)
{
    uint32_t blks = (s->portregs[P0_MAX_BLKS / 4] >> MAX_BLKS_TX_SHIFT) &
                    MAX_BLKS_TX_MASK;

    return blks * AM335X_CPSW_FIFO_BLOCK;
}

static void am335x_cpsw_host_fifo_push(AM335xCpswState *s, AM335xCpswPort *p,
                                       const uint8_t *buf, size_t size)
{
    uint8_t *rec = s->host_fifo + s->host_fifo_len;

    if (s->host_fifo_bytes + size > am335x_cpsw_host_fifo_cap(s) ||
        s->host_fifo_len + 3 + size > sizeof(s->host_fifo)) {
        trace_am335x_cpsw_rx_overrun(p->num, size, s->host_fifo_bytes);
        am335x_cpsw_count_error(s, p->num, ST_RXSOFOVERRUNS);
        return;
    }
    rec[0] = size;
    rec[1] = size >> 8;
    rec[2] = p->num;
    memcpy(rec + 3, buf, size);
    s->host_fifo_len += 3 + size;
    s->host_fifo_bytes += size;
}

/* The frames waiting in the FIFO are lost (reset). */
static void am335x_cpsw_host_fifo_clear(AM335xCpswState *s)
{
    s->host_fifo_len = 0;
    s->host_fifo_bytes = 0;
}

/* Frames out of the FIFO for as long as the host has buffers */
static void am335x_cpsw_host_fifo_drain(AM335xCpswState *s)
{
    while (s->host_fifo_len) {
        size_t size = s->host_fifo[0] | (s->host_fifo[1] << 8);
        AM335xCpswPort *p = &s->port[s->host_fifo[2] - 1];
        uint8_t frame[AM335X_CPDMA_MAX_FRAME + 1];

        if (am335x_cpsw_rx_wait(s, p)) {
            return;
        }
        memcpy(frame, s->host_fifo + 3, size);
        s->host_fifo_len -= 3 + size;
        s->host_fifo_bytes -= size;
        memmove(s->host_fifo, s->host_fifo + 3 + size, s->host_fifo_len);
        s->rx_depth++;
        am335x_cpsw_rx_frame(s, p, frame, size);
        s->rx_depth--;
    }
}

/* The frame on port @p's wire has come in: to the MAC and the ALE. */
static void am335x_cpsw_rx_deliver(AM335xCpswState *s, AM335xCpswPort *p)
{
    if (!p->rx_pending ||
        p->rx_done_ns > qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL)) {
        return;
    }
    p->rx_pending = false;
    trace_am335x_cpsw_rx_deliver(p->num, p->rx_len);
    am335x_cpsw_host_fifo_drain(s);
    if (am335x_cpsw_port_up(s, p->num)) {
        if (s->host_fifo_len || am335x_cpsw_rx_wait(s, p)) {
            am335x_cpsw_host_fifo_push(s, p, p->rx_buf, p->rx_len);
        } else {
            s->rx_depth++;
            am335x_cpsw_rx_frame(s, p, p->rx_buf, p->rx_len);
            s->rx_depth--;
        }
    }
    qemu_flush_queued_packets(qemu_get_queue(p->nic));
}

static void am335x_cpsw_rx_timer(void *opaque)
{
    AM335xCpswPort *p = opaque;

    am335x_cpsw_rx_deliver(p->cpsw, p);
}

static ssize_t am335x_cpsw_receive(NetClientState *nc, const uint8_t *buf,
                                   size_t size)
{
    AM335xCpswPort *p = qemu_get_nic_opaque(nc);
    AM335xCpswState *s = p->cpsw;

    if (!am335x_cpsw_port_up(s, p->num)) {
        return size;
    }
    if (s->timing && size <= sizeof(p->rx_buf)) {
        if (p->rx_pending) {
            return 0;           /* queued until the wire is free */
        }
        am335x_cpsw_rx_start(s, p, buf, size);
        return size;
    }
    s->rx_depth++;
    am335x_cpsw_rx_frame(s, p, buf, size);
    s->rx_depth--;
    return size;
}

/*
 * Frames held back while the host had no RX buffers (the net layer queues
 * what a port cannot take, and what a netdev answers while that port is
 * still delivering), are delivered from a bottom half, outside the access.
 */
static void am335x_cpsw_flush(void *opaque)
{
    AM335xCpswState *s = opaque;

    s->rx_held = false;
    am335x_cpsw_host_fifo_drain(s);
    for (int n = 0; n < AM335X_CPSW_NUM_SLAVES; n++) {
        if (s->port[n].nic) {
            am335x_cpsw_rx_deliver(s, &s->port[n]);
            qemu_flush_queued_packets(qemu_get_queue(s->port[n].nic));
        }
    }
}

/*
 * New RX buffers.  With timing, the FIFO's frames go to them on the
 * virtual clock, at the time of the access: a bottom half would run when
 * the host gets to it, and the figures would no longer repeat.
 */
static void am335x_cpsw_rx_ready(void *opaque)
{
    AM335xCpswState *s = opaque;

    if (s->timing) {
        timer_mod(s->fifo_timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
    } else {
        qemu_bh_schedule(s->flush_bh);
    }
}

static void am335x_cpsw_set_link(NetClientState *nc)
{
    AM335xCpswPort *p = qemu_get_nic_opaque(nc);
    AM335xCpswState *s = p->cpsw;

    am335x_ethphy_set_link(&s->phy[p->num - 1], !nc->link_down);
    am335x_mdio_poll(&s->mdio);
}

static NetClientInfo am335x_cpsw_net_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .can_receive = am335x_cpsw_can_receive,
    .receive = am335x_cpsw_receive,
    .link_status_changed = am335x_cpsw_set_link,
};

static const AM335xCpdmaOps am335x_cpsw_cpdma_ops = {
    .transmit = am335x_cpsw_transmit,
    .rx_ready = am335x_cpsw_rx_ready,
    .irq_update = am335x_cpsw_update_irq,
    .int_event = am335x_cpsw_int_event,
};

/* CPTS: the counter runs at cpts-hz while CPTS_EN is set. */
static uint32_t am335x_cpsw_cpts_counter(AM335xCpswState *s)
{
    int64_t ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) - s->cpts_ref_ns;

    if (!FIELD_EX32(s->cpts_control, CPTS_CONTROL, CPTS_EN)) {
        return s->cpts_load_val;
    }
    return s->cpts_load_val +
           (uint32_t)muldiv64(ns, s->cpts_hz, NANOSECONDS_PER_SECOND);
}

static void am335x_cpsw_cpts_load(AM335xCpswState *s, uint32_t val)
{
    s->cpts_load_val = val;
    s->cpts_ref_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

static uint32_t am335x_cpsw_cpts_read(AM335xCpswState *s, hwaddr offset)
{
    switch (offset) {
    case A_CPTS_IDVER:
        return CPSW_CPTS_IDVER;
    case A_CPTS_CONTROL:
        return s->cpts_control;
    case A_CPTS_TS_LOAD_VAL:
        return s->cpts_load_val;
    case A_CPTS_INTSTAT_RAW:
        return s->cpts_int_raw;
    case A_CPTS_INTSTAT_MASKED:
        return s->cpts_int_raw & s->cpts_int_enable;
    case A_CPTS_INT_ENABLE:
        return s->cpts_int_enable;
    case A_CPTS_EVENT_LOW:
        return s->cpts_event[0];
    case A_CPTS_EVENT_HIGH:
        return s->cpts_event[1];
    default:
        return 0;
    }
}

static void am335x_cpsw_cpts_write(AM335xCpswState *s, hwaddr offset,
                                   uint32_t v)
{
    switch (offset) {
    case A_CPTS_CONTROL:
        if ((v ^ s->cpts_control) & R_CPTS_CONTROL_CPTS_EN_MASK) {
            am335x_cpsw_cpts_load(s, am335x_cpsw_cpts_counter(s));
        }
        s->cpts_control = v & 0xfff;
        break;
    case A_CPTS_TS_PUSH:
        if ((v & 1) && FIELD_EX32(s->cpts_control, CPTS_CONTROL, CPTS_EN)) {
            /* A one-deep event FIFO: a push event, type 0, port 0 */
            s->cpts_event[0] = am335x_cpsw_cpts_counter(s);
            s->cpts_event[1] = 0;
            s->cpts_int_raw = 1;
        }
        break;
    case A_CPTS_TS_LOAD_VAL:
        s->cpts_load_val = v;
        break;
    case A_CPTS_TS_LOAD_EN:
        if (v & 1) {
            am335x_cpsw_cpts_load(s, s->cpts_load_val);
        }
        break;
    case A_CPTS_INT_ENABLE:
        s->cpts_int_enable = v & 1;
        break;
    case A_CPTS_EVENT_POP:
        if (v & 1) {
            s->cpts_int_raw = 0;
        }
        break;
    default:
        break;
    }
    am335x_cpsw_update_irq(s);
}

/*
 * The MAC starts a frame on the wire once TX_START_WDS words of it are in
 * its FIFO (TRM 14.5.1, CPSW_SS TX_START_WDS: 0x20 at reset, which Linux
 * keeps); the CPDMA, which fills the FIFO, times that.
 */
static void am335x_cpsw_tx_start_update(AM335xCpswState *s)
{
    s->cpdma.tx_start_bytes = (s->ss[R_SS_TX_START_WDS] & 0x7ff) * 4;
}

static uint64_t am335x_cpsw_read(void *opaque, hwaddr offset, unsigned size)
{
    AM335xCpswState *s = opaque;
    uint32_t val = 0;

    if (offset < 0x34) {
        val = offset == A_SS_ID_VER ? CPSW_SS_IDVER : s->ss[offset / 4];
    } else if (offset >= CPSW_PORT_BASE && offset < CPSW_PORT_END) {
        val = s->portregs[(offset - CPSW_PORT_BASE) / 4];
    } else if (offset >= CPSW_STATS_BASE &&
               offset < CPSW_STATS_BASE + 4 * AM335X_CPSW_STATS_WORDS) {
        val = s->stats[(offset - CPSW_STATS_BASE) / 4];
    } else if (offset >= CPSW_CPTS_BASE && offset < CPSW_CPTS_BASE + 0x40) {
        val = am335x_cpsw_cpts_read(s, offset - CPSW_CPTS_BASE);
    } else if (offset >= CPSW_SL1_BASE &&
               offset < CPSW_SL1_BASE + 2 * CPSW_SL_SIZE) {
        int n = (offset - CPSW_SL1_BASE) / CPSW_SL_SIZE;
        hwaddr r = (offset - CPSW_SL1_BASE) % CPSW_SL_SIZE;

        if (r == A_SL_IDVER) {
            val = CPSW_SL_IDVER;
        } else if (r == A_SL_MACSTATUS) {
            /*
             * Idle between frames, which Linux waits for when the link
             * goes down; with timing, busy while a frame is on the wire.
             */
            val = am335x_timing_busy(&s->port[n].tx_wire) ? 0 :
                  R_SL_MACSTATUS_IDLE_MASK;
        } else {
            val = r < 0x30 ? s->port[n].sl[r / 4] : 0;
        }
    } else if (offset >= CPSW_WR_BASE &&
               offset < CPSW_WR_BASE + CPSW_WR_SIZE) {
        hwaddr r = offset - CPSW_WR_BASE;

        am335x_cpsw_update_irq(s);
        val = r == A_WR_IDVER ? CPSW_WR_IDVER : s->wr[r / 4];
    } else {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-cpsw: bad read offset 0x%"
                      HWADDR_PRIx "\n", offset);
    }
    trace_am335x_cpsw_reg_read(offset, val);
    return val;
}

static void am335x_cpsw_write(void *opaque, hwaddr offset, uint64_t value,
                              unsigned size)
{
    AM335xCpswState *s = opaque;
    uint32_t v = value;

    trace_am335x_cpsw_reg_write(offset, v);
    if (offset < 0x34) {
        switch (offset) {
        case A_SS_ID_VER:
            break;
        case A_SS_SOFT_RESET:
            /*
             * Completes at once; the register state is kept, the frames
             * in the FIFOs are not.
             */
            if (v & 1) {
                am335x_cpsw_host_fifo_clear(s);
            }
            break;
        case A_SS_TX_START_WDS:
            s->ss[offset / 4] = v;
            am335x_cpsw_tx_start_update(s);
            break;
        default:
            s->ss[offset / 4] = v;
            break;
        }
    } else if (offset >= CPSW_PORT_BASE && offset < CPSW_PORT_END) {
        s->portregs[(offset - CPSW_PORT_BASE) / 4] = v;
    } else if (offset >= CPSW_STATS_BASE &&
               offset < CPSW_STATS_BASE + 4 * AM335X_CPSW_STATS_WORDS) {
        /* Write to decrement */
        s->stats[(offset - CPSW_STATS_BASE) / 4] -= v;
    } else if (offset >= CPSW_CPTS_BASE && offset < CPSW_CPTS_BASE + 0x40) {
        am335x_cpsw_cpts_write(s, offset - CPSW_CPTS_BASE, v);
    } else if (offset >= CPSW_SL1_BASE &&
               offset < CPSW_SL1_BASE + 2 * CPSW_SL_SIZE) {
        AM335xCpswPort *p = &s->port[(offset - CPSW_SL1_BASE) / CPSW_SL_SIZE];
        hwaddr r = (offset - CPSW_SL1_BASE) % CPSW_SL_SIZE;

        if (r == A_SL_SOFT_RESET) {
            if (v & 1) {
                p->sl[R_SL_MACCONTROL] = 0;
            }
        } else if (r != A_SL_IDVER && r != A_SL_MACSTATUS && r < 0x30) {
            p->sl[r / 4] = v;
        }
    } else if (offset >= CPSW_WR_BASE &&
               offset < CPSW_WR_BASE + CPSW_WR_SIZE) {
        hwaddr r = offset - CPSW_WR_BASE;

        switch (r) {
        case A_WR_IDVER:
        case A_WR_SOFT_RESET:    /* completes at once: reads 0 */
        case A_WR_C0_RX_THRESH_STAT ... A_WR_C2_MISC_STAT:
            break;
        case A_WR_CONTROL:
            s->wr[r / 4] = v & CPSW_WR_CONTROL_MASK;
            break;
        case A_WR_C0_RX_THRESH_EN ... A_WR_C2_MISC_EN:
            s->wr[r / 4] = v & 0xff;
            break;
        case A_WR_INT_CONTROL:
            for (int d = 0; d < 2; d++) {
                uint32_t bit = 1u << (R_WR_INT_CONTROL_INT_PACE_EN_SHIFT + d);

                if (v & bit & ~s->wr[r / 4]) {
                    am335x_cpsw_pace_start(s, d);
                }
            }
            s->wr[r / 4] = v & (R_WR_INT_CONTROL_INT_PRESCALE_MASK |
                                R_WR_INT_CONTROL_INT_PACE_EN_MASK |
                                R_WR_INT_CONTROL_INT_TEST_MASK);
            if (FIELD_EX32(v, WR_INT_CONTROL, INT_PACE_EN) &&
                !FIELD_EX32(v, WR_INT_CONTROL, INT_PRESCALE)) {
                qemu_log_mask(LOG_GUEST_ERROR, "am335x-cpsw: interrupt "
                              "pacing enabled with a zero prescaler\n");
            }
            break;
        case A_WR_C0_RX_IMAX ... A_WR_C2_TX_IMAX:
            s->wr[r / 4] = v & CPSW_IMAX_MAX;
            if (s->wr[r / 4] < CPSW_IMAX_MIN) {
                qemu_log_mask(LOG_GUEST_ERROR, "am335x-cpsw: IMAX 0x%"
                              HWADDR_PRIx " = %u is below %d\n", r,
                              s->wr[r / 4], CPSW_IMAX_MIN);
            }
            break;
        default:
            s->wr[r / 4] = v;
            break;
        }
        am335x_cpsw_update_irq(s);
    } else {
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-cpsw: bad write offset 0x%"
                      HWADDR_PRIx "\n", offset);
    }
}

static const MemoryRegionOps am335x_cpsw_ops = {
    .read = am335x_cpsw_read,
    .write = am335x_cpsw_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

static void am335x_cpsw_reset_hold(Object *obj, ResetType type)
{
    AM335xCpswState *s = AM335X_CPSW(obj);

    memset(s->ss, 0, sizeof(s->ss));
    s->ss[R_SS_THRU_RATE] = 0x3003;
    s->ss[R_SS_GAP_THRESH] = 0xb;
    s->ss[R_SS_TX_START_WDS] = 0x20;
    am335x_cpsw_tx_start_update(s);
    s->ss[R_SS_FLOW_CONTROL] = 0x1;
    s->ss[R_SS_VLAN_LTYPE] = 0x81008100;
    memset(s->portregs, 0, sizeof(s->portregs));
    s->portregs[P0_MAX_BLKS / 4] = MAX_BLKS_RESET;
    for (int n = 1; n <= AM335X_CPSW_NUM_SLAVES; n++) {
        s->portregs[PN_MAX_BLKS(n) / 4] = MAX_BLKS_RESET;
    }
    am335x_cpsw_host_fifo_clear(s);
    if (s->fifo_timer) {
        timer_del(s->fifo_timer);
    }
    memset(s->stats, 0, sizeof(s->stats));
    for (int n = 0; n < AM335X_CPSW_NUM_SLAVES; n++) {
        am335x_ethphy_reset(&s->phy[n]);
        memset(s->port[n].sl, 0, sizeof(s->port[n].sl));
        s->port[n].sl[R_SL_RX_MAXLEN] = 1518;
        s->port[n].sl[R_SL_RX_PAUSE] = 0xffff;
        s->port[n].sl[R_SL_TX_PAUSE] = 0xffff;
        s->port[n].sl[R_SL_TX_GAP] = 0xc;
        am335x_timing_reset(&s->port[n].tx_wire);
        am335x_timing_reset(&s->port[n].rx_wire);
        s->port[n].rx_pending = false;
        if (s->port[n].rx_timer) {
            timer_del(s->port[n].rx_timer);
        }
    }
    memset(s->wr, 0, sizeof(s->wr));
    timer_del(s->pace_timer);
    memset(s->pace_window_ns, 0, sizeof(s->pace_window_ns));
    memset(s->pace_counter, 0, sizeof(s->pace_counter));
    memset(s->pace_events, 0, sizeof(s->pace_events));
    memset(s->pace_input, 0, sizeof(s->pace_input));
    memset(s->pace_level, 0, sizeof(s->pace_level));
    s->cpts_control = 0;
    s->cpts_load_val = 0;
    s->cpts_int_raw = 0;
    s->cpts_int_enable = 0;
    memset(s->cpts_event, 0, sizeof(s->cpts_event));
    s->cpts_ref_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

static void am335x_cpsw_reset_exit(Object *obj, ResetType type)
{
    am335x_cpsw_update_irq(AM335X_CPSW(obj));
}

static void am335x_cpsw_init(Object *obj)
{
    AM335xCpswState *s = AM335X_CPSW(obj);

    object_initialize_child(obj, "cpdma", &s->cpdma, TYPE_AM335X_CPDMA);
    object_initialize_child(obj, "ale", &s->ale, TYPE_AM335X_CPSW_ALE);
    object_initialize_child(obj, "mdio", &s->mdio, TYPE_AM335X_MDIO);
    for (int n = 0; n < AM335X_CPSW_NUM_SLAVES; n++) {
        object_initialize_child(obj, "phy[*]", &s->phy[n],
                                TYPE_AM335X_ETHPHY);
        s->port[n].cpsw = s;
        s->port[n].num = n + 1;
    }
    memory_region_init(&s->container, obj, TYPE_AM335X_CPSW,
                       AM335X_CPSW_MMIO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(obj), &s->container);
    memory_region_init_io(&s->iomem, obj, &am335x_cpsw_ops, s,
                          TYPE_AM335X_CPSW ".regs", AM335X_CPSW_MMIO_SIZE);
    memory_region_add_subregion(&s->container, 0, &s->iomem);
    for (int i = 0; i < AM335X_CPSW_NUM_IRQS; i++) {
        sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq[i]);
    }
    qdev_init_gpio_in_named(DEVICE(obj), am335x_cpsw_mdio_irq, "mdio-irq", 2);
}

static void am335x_cpsw_map(AM335xCpswState *s, SysBusDevice *sbd, int n,
                            hwaddr offset)
{
    memory_region_add_subregion_overlap(&s->container, offset,
                                        sysbus_mmio_get_region(sbd, n), 1);
}

static void am335x_cpsw_realize(DeviceState *dev, Error **errp)
{
    AM335xCpswState *s = AM335X_CPSW(dev);
    static const char * const netdev_props[] = { "netdev", "netdev2" };

    if (!s->dma_mr) {
        error_setg(errp, TYPE_AM335X_CPSW ": 'dma-mr' link not set");
        return;
    }
    if (!s->main_hz) {
        error_setg(errp, TYPE_AM335X_CPSW ": 'main-hz' must not be 0");
        return;
    }
    s->pace_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, am335x_cpsw_update_irq,
                                 s);
    for (int n = 0; n < AM335X_CPSW_NUM_SLAVES; n++) {
        /* The wire's rate is set per frame from the port's speed. */
        am335x_timing_init(&s->port[n].tx_wire, 0, 0);
        am335x_timing_init(&s->port[n].rx_wire, 0, 0);
        s->port[n].rx_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL,
                                           am335x_cpsw_rx_timer, &s->port[n]);
    }
    if (!memory_region_init_ram(&s->cppi_ram, OBJECT(s),
                                TYPE_AM335X_CPSW ".cppi-ram",
                                CPSW_CPPI_RAM_SIZE, errp)) {
        return;
    }
    memory_region_add_subregion_overlap(&s->container, CPSW_CPPI_RAM_BASE,
                                        &s->cppi_ram, 1);

    /* Unguarded: the net layer checks the guard on delivery itself. */
    s->flush_bh = qemu_bh_new(am335x_cpsw_flush, s);
    s->fifo_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, am335x_cpsw_flush, s);
    s->cpdma.ops = &am335x_cpsw_cpdma_ops;
    s->cpdma.ops_opaque = s;
    object_property_set_link(OBJECT(&s->cpdma), "dma-mr", OBJECT(s->dma_mr),
                             &error_abort);
    qdev_prop_set_bit(DEVICE(&s->cpdma), "timing", s->timing);
    if (!sysbus_realize(SYS_BUS_DEVICE(&s->cpdma), errp) ||
        !sysbus_realize(SYS_BUS_DEVICE(&s->ale), errp)) {
        return;
    }
    am335x_cpsw_map(s, SYS_BUS_DEVICE(&s->cpdma), 0, CPSW_CPDMA_BASE);
    am335x_cpsw_map(s, SYS_BUS_DEVICE(&s->cpdma), 1, CPSW_STATERAM_BASE);
    am335x_cpsw_map(s, SYS_BUS_DEVICE(&s->ale), 0, CPSW_ALE_BASE);

    /*
     * Port 1's PHY answers at MDIO address 0 (both boards' DTs); port 2's,
     * at address 1, is fitted only when port 2 has a netdev.
     */
    for (int n = 0; n < AM335X_CPSW_NUM_SLAVES; n++) {
        g_autofree char *link = g_strdup_printf("phy%d", n);

        qdev_prop_set_uint32(DEVICE(&s->phy[n]), "phy-id", s->phy_id);
        qdev_prop_set_uint8(DEVICE(&s->phy[n]), "addr", n);
        qdev_prop_set_bit(DEVICE(&s->phy[n]), "gigabit",
                          (s->phy_id & 0xfffffff0) ==
                          (AM335X_ETHPHY_ID_AR8031 & 0xfffffff0));
        if (!qdev_realize(DEVICE(&s->phy[n]), NULL, errp)) {
            return;
        }
        if (n == 0 || s->port[n].conf.peers.ncs[0]) {
            object_property_set_link(OBJECT(&s->mdio), link,
                                     OBJECT(&s->phy[n]), &error_abort);
        }
    }
    if (!sysbus_realize(SYS_BUS_DEVICE(&s->mdio), errp)) {
        return;
    }
    am335x_cpsw_map(s, SYS_BUS_DEVICE(&s->mdio), 0, CPSW_MDIO_BASE);
    for (int i = 0; i < 2; i++) {
        sysbus_connect_irq(SYS_BUS_DEVICE(&s->mdio), i,
                           qdev_get_gpio_in_named(dev, "mdio-irq", i));
    }

    for (int n = 0; n < AM335X_CPSW_NUM_SLAVES; n++) {
        AM335xCpswPort *p = &s->port[n];

        /* The e-fuse MAC address: what Linux will program */
        memcpy(p->conf.macaddr.a, s->mac_base.a, 6);
        p->conf.macaddr.a[5] += n;
        if (!p->conf.peers.ncs[0]) {
            am335x_ethphy_set_link(&s->phy[n], false);  /* no cable */
            continue;
        }
        p->nic = qemu_new_nic(&am335x_cpsw_net_info, &p->conf,
                              object_get_typename(OBJECT(s)),
                              netdev_props[n], &dev->mem_reentrancy_guard, p);
        qemu_format_nic_info_str(qemu_get_queue(p->nic), p->conf.macaddr.a);
        am335x_ethphy_set_link(&s->phy[n],
                               !qemu_get_queue(p->nic)->link_down);
    }
}

static int am335x_cpsw_post_load(void *opaque, int version_id)
{
    AM335xCpswState *s = opaque;

    am335x_cpsw_tx_start_update(s);

    for (int n = 0; n < AM335X_CPSW_NUM_SLAVES; n++) {
        if (s->port[n].nic) {
            am335x_ethphy_set_link(&s->phy[n],
                                   !qemu_get_queue(s->port[n].nic)->link_down);
        }
    }
    return 0;
}

static bool am335x_cpsw_port_timing_needed(void *opaque)
{
    AM335xCpswPort *p = opaque;

    return p->cpsw->timing;
}

static int am335x_cpsw_port_timing_post_load(void *opaque, int version_id)
{
    AM335xCpswPort *p = opaque;

    return p->rx_len <= sizeof(p->rx_buf) ? 0 : -EINVAL;
}

static const VMStateDescription vmstate_am335x_cpsw_port_timing = {
    .name = TYPE_AM335X_CPSW "-port/timing",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = am335x_cpsw_port_timing_needed,
    .post_load = am335x_cpsw_port_timing_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_AM335X_TIMING(tx_wire, AM335xCpswPort),
        VMSTATE_AM335X_TIMING(rx_wire, AM335xCpswPort),
        VMSTATE_TIMER_PTR(rx_timer, AM335xCpswPort),
        VMSTATE_BOOL(rx_pending, AM335xCpswPort),
        VMSTATE_INT64(rx_done_ns, AM335xCpswPort),
        VMSTATE_UINT32(rx_len, AM335xCpswPort),
        VMSTATE_UINT8_ARRAY(rx_buf, AM335xCpswPort,
                            AM335X_CPDMA_MAX_FRAME + 1),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_am335x_cpsw_port = {
    .name = TYPE_AM335X_CPSW "-port",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_ARRAY(sl, AM335xCpswPort, 16),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * const []) {
        &vmstate_am335x_cpsw_port_timing,
        NULL
    }
};

static bool am335x_cpsw_host_fifo_needed(void *opaque)
{
    AM335xCpswState *s = AM335X_CPSW(opaque);

    return s->host_fifo_len != 0 || timer_pending(s->fifo_timer);
}

/* Every record must lie inside the buffer and name a slave port. */
static int am335x_cpsw_host_fifo_post_load(void *opaque, int version_id)
{
    AM335xCpswState *s = opaque;
    uint32_t pos = 0, bytes = 0;

    if (s->host_fifo_len > sizeof(s->host_fifo)) {
        return -EINVAL;
    }
    while (pos < s->host_fifo_len) {
        uint32_t size;

        if (pos + 3 > s->host_fifo_len) {
            return -EINVAL;
        }
        size = s->host_fifo[pos] | (s->host_fifo[pos + 1] << 8);
        if (size > AM335X_CPDMA_MAX_FRAME ||
            s->host_fifo[pos + 2] < 1 ||
            s->host_fifo[pos + 2] > AM335X_CPSW_NUM_SLAVES ||
            pos + 3 + size > s->host_fifo_len) {
            return -EINVAL;
        }
        pos += 3 + size;
        bytes += size;
    }
    return bytes == s->host_fifo_bytes ? 0 : -EINVAL;
}

static const VMStateDescription vmstate_am335x_cpsw_host_fifo = {
    .name = TYPE_AM335X_CPSW "/host-fifo",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = am335x_cpsw_host_fifo_needed,
    .post_load = am335x_cpsw_host_fifo_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_TIMER_PTR(fifo_timer, AM335xCpswState),
        VMSTATE_UINT32(host_fifo_len, AM335xCpswState),
        VMSTATE_UINT32(host_fifo_bytes, AM335xCpswState),
        VMSTATE_UINT8_ARRAY(host_fifo, AM335xCpswState,
                            AM335X_CPSW_HOST_FIFO_BUF),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_am335x_cpsw = {
    .name = TYPE_AM335X_CPSW,
    .version_id = 3,
    .minimum_version_id = 3,
    .post_load = am335x_cpsw_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_ARRAY(ss, AM335xCpswState, 16),
        VMSTATE_UINT32_ARRAY(portregs, AM335xCpswState, 0x300 / 4),
        VMSTATE_UINT32_ARRAY(stats, AM335xCpswState,
                             AM335X_CPSW_STATS_WORDS),
        VMSTATE_UINT32_ARRAY(wr, AM335xCpswState, 0x90 / 4),
        VMSTATE_BOOL_ARRAY(mdio_irq, AM335xCpswState, 2),
        VMSTATE_TIMER_PTR(pace_timer, AM335xCpswState),
        VMSTATE_INT64_ARRAY(pace_window_ns, AM335xCpswState, 2),
        VMSTATE_UINT32_ARRAY(pace_counter, AM335xCpswState, 2),
        VMSTATE_UINT32_ARRAY(pace_events, AM335xCpswState, 2),
        VMSTATE_BOOL_ARRAY(pace_input, AM335xCpswState, 2),
        VMSTATE_BOOL_ARRAY(pace_level, AM335xCpswState, 2),
        VMSTATE_STRUCT_ARRAY(port, AM335xCpswState, AM335X_CPSW_NUM_SLAVES,
                             1, vmstate_am335x_cpsw_port, AM335xCpswPort),
        VMSTATE_UINT32(cpts_control, AM335xCpswState),
        VMSTATE_UINT32(cpts_load_val, AM335xCpswState),
        VMSTATE_UINT32(cpts_int_raw, AM335xCpswState),
        VMSTATE_UINT32(cpts_int_enable, AM335xCpswState),
        VMSTATE_UINT32_ARRAY(cpts_event, AM335xCpswState, 2),
        VMSTATE_INT64(cpts_ref_ns, AM335xCpswState),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * const []) {
        &vmstate_am335x_cpsw_host_fifo,
        NULL
    }
};

static const Property am335x_cpsw_properties[] = {
    DEFINE_PROP_MACADDR("mac-base", AM335xCpswState, mac_base),
    DEFINE_PROP_NETDEV("netdev", AM335xCpswState, port[0].conf.peers),
    DEFINE_PROP_NETDEV("netdev2", AM335xCpswState, port[1].conf.peers),
    DEFINE_PROP_UINT32("phy-id", AM335xCpswState, phy_id,
                       AM335X_ETHPHY_ID_LAN8710A),
    /* CPTS_RFT_CLK: the 250 MHz CORE_CLKOUTM5 (TRM 14.2.3) */
    DEFINE_PROP_UINT32("cpts-hz", AM335xCpswState, cpts_hz, 250000000),
    /* MAIN_CLK: CPSW_125MHZ_GCLK, CORE_CLKOUTM5 / 2 (TRM 14.2.3) */
    DEFINE_PROP_UINT32("main-hz", AM335xCpswState, main_hz, 125000000),
    DEFINE_PROP_LINK("dma-mr", AM335xCpswState, dma_mr, TYPE_MEMORY_REGION,
                     MemoryRegion *),
    /* The machine's timing=on|off, set by the SoC */
    DEFINE_PROP_BOOL("timing", AM335xCpswState, timing, false),
    /* Preamble and SFD before each frame: 7 + 1 bytes (IEEE 802.3 4.2.5) */
    DEFINE_PROP_UINT32("preamble-bytes", AM335xCpswState, preamble_bytes,
                       ETH_PREAMBLE_SFD),
    /*
     * The gap the link partner leaves between frames it sends: the
     * minimum, 96 bit times (IEEE 802.3 4.4.2)
     */
    DEFINE_PROP_UINT32("rx-ifg-bytes", AM335xCpswState, rx_ifg_bytes,
                       ETH_IFG_MIN),
};

static void am335x_cpsw_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->realize = am335x_cpsw_realize;
    dc->vmsd = &vmstate_am335x_cpsw;
    dc->desc = "TI AM335x CPSW 3-port Ethernet switch";
    dc->user_creatable = false;
    set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
    rc->phases.hold = am335x_cpsw_reset_hold;
    rc->phases.exit = am335x_cpsw_reset_exit;
    device_class_set_props(dc, am335x_cpsw_properties);
}

static const TypeInfo am335x_cpsw_info = {
    .name = TYPE_AM335X_CPSW,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AM335xCpswState),
    .instance_init = am335x_cpsw_init,
    .class_init = am335x_cpsw_class_init,
};

static void am335x_cpsw_register_types(void)
{
    type_register_static(&am335x_cpsw_info);
}

type_init(am335x_cpsw_register_types)
