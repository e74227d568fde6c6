/*
 * tcp-bench-peer: the PC at the far end of an Ethernet wire, for
 * scripts/bench's Ethernet part.  It answers ARP for its address and runs
 * two TCP services on QEMU_CLOCK_VIRTUAL:
 *   - a sink (sink-port, 5001): takes every byte at once, as `iperf -s`
 *     on a fast PC does, and acknowledges as Linux does (every second
 *     full segment, or after the delayed-ACK time);
 *   - a source: sends zeros for as long as the connection lives, on a
 *     connection the guest opens to source-port (5002), as the far end
 *     of `iperf -R` does, or, with connect-back-port, on one the peer
 *     opens back to the guest once a sink connection is up, as the
 *     server of `iperf -d` does (the guide's set-up).
 *
 * slirp, the usual peer, cannot stand in for the PSP guide's PC: its TCP
 * (4.4BSD's) has no window scaling, so no window exceeds 64 KB, and no
 * SACK, so more than one lost frame in a window waits for its 500 ms
 * retransmission timer.  This peer's TCP has what a Linux PC's had in
 * 2012 (RFC 7323 window scaling and timestamps, RFC 2018 SACK with RFC
 * 6675 loss recovery, RFC 6298 retransmission timer with Linux's 200 ms
 * floor, RFC 6928's initial window of 10 segments) and, for congestion
 * control, cubic as it behaves on a LAN, where its TCP-friendly region
 * rules: Reno's growth, cubic's decrease to 0.7 of the window
 * (tcp_cubic.c's beta 717/1024).
 *
 * It is a NIC on a hub port (-netdev hubport,id=pc,hubid=N -device
 * tcp-bench-peer,netdev=pc), so its frames reach the board's MAC at the
 * pace the MAC's wire model takes them: a frame the hub cannot pass on
 * waits, and nothing more is sent until it has gone.  Under -icount every
 * frame then leaves at the same instruction in every run.  The guest has
 * a static address: the peer has no DHCP.
 *
 * The PC's NIC (nic-irq=e1000e): the guide does not name its PC; this
 * takes it for one with an Intel gigabit NIC (82574L) under Linux's
 * e1000e at its defaults, the usual PC NIC of 2012.  Its host sees
 * received frames only at the NIC's interrupts, which the driver's
 * default InterruptThrottleRate=3 spaces by traffic class: 20000 a second
 * for light traffic, 4000 (250 us apart) for bulk, judged at each
 * interrupt from the frames and bytes moved since the last
 * (e1000_update_itr()).  Every reply (ACKs, data a window opens) waits
 * for that interrupt, so the PC adds to every round trip what a real
 * one did.  nic-irq=none (the default) takes each frame the moment it
 * arrives.
 *
 * Not modelled: IP options and fragments, urgent data, keeping data that
 * arrives out of order (the sink drops it and acknowledges what it has),
 * the PC's own CPU time, e1000e's receive delay timers (RDTR/RADV: none,
 * or some 33 us on parts it runs in DMA-burst mode), which the bulk
 * interval hides.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qemu/sockets.h"
#include "qapi/error.h"
#include "qemu/log.h"
#include "qemu/timer.h"
#include "qemu/module.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "migration/vmstate.h"
#include "net/net.h"
#include "net/checksum.h"
#include "net/eth.h"
#include "qom/object.h"
#include "trace.h"

#define TYPE_TCP_BENCH_PEER "tcp-bench-peer"
OBJECT_DECLARE_SIMPLE_TYPE(TcpBenchPeer, TCP_BENCH_PEER)

#define PEER_MAX_CONNS      8
#define PEER_MAX_SACK       16
#define PEER_MTU            1500
/* e1000e: RxDescriptors default; interrupts a second of its ITR classes */
#define PEER_RX_RING        256
#define PEER_ITR_LOW        20000
#define PEER_ITR_BULK       4000
/* Linux: TCP_DELACK_MIN, TCP_RTO_MIN, TCP_TIMEOUT_INIT */
#define PEER_DELACK_NS      (40 * SCALE_MS)
#define PEER_RTO_MIN_NS     (200 * SCALE_MS)
#define PEER_RTO_INIT_NS    (1000 * SCALE_MS)
#define PEER_RTO_MAX_NS     (120 * NANOSECONDS_PER_SECOND)
/* RFC 6928 */
#define PEER_INIT_CWND      10
/* tcp_cubic.c: beta = 717 / 1024 */
#define PEER_BETA_NUM       717
#define PEER_BETA_DEN       1024
/* A window the largest scaled window (65535 << 14) cannot exceed */
#define PEER_CWND_MAX       (1u << 30)

#define IP_HLEN             20
#define TCP_HLEN            20
#define TCP_MAX_OPTS        40

#define SEQ_LT(a, b)    ((int32_t)((a) - (b)) < 0)
#define SEQ_LEQ(a, b)   ((int32_t)((a) - (b)) <= 0)
#define SEQ_GT(a, b)    ((int32_t)((a) - (b)) > 0)
#define SEQ_GEQ(a, b)   ((int32_t)((a) - (b)) >= 0)

typedef enum {
    CONN_FREE,
    CONN_SYN_SENT,              /* the connection back (iperf -d) */
    CONN_SYN_RCVD,
    CONN_ESTABLISHED,
    CONN_LAST_ACK,              /* our FIN sent after the guest's */
} ConnState;

typedef struct SackBlock {
    uint32_t start, end;
} SackBlock;

typedef struct PeerConn {
    ConnState state;
    bool source;                /* sends zeros; else a sink */
    uint8_t mac[ETH_ALEN];      /* the guest's */
    uint32_t ip;                /* the guest's */
    uint16_t port;              /* the guest's */
    uint16_t local_port;

    /* options agreed in the handshake */
    uint16_t mss;               /* payload bytes per segment */
    uint8_t snd_wscale, rcv_wscale;
    bool ts_ok, sack_ok;
    uint32_t ts_recent;

    /* sending */
    uint32_t iss, snd_una, snd_max;
    uint32_t snd_wnd;           /* the guest's window, scaled */
    uint16_t last_win;          /* its window field, for dup-ACK checks */
    uint32_t cwnd, ssthresh;    /* bytes */
    unsigned dupacks;
    bool in_recovery;           /* fast recovery, or after a timeout */
    bool rto_loss;              /* the recovery began with a timeout */
    uint32_t recover;           /* snd_max when recovery began */
    uint32_t rtx_next;          /* retransmission cursor in recovery */
    SackBlock sack[PEER_MAX_SACK];
    int nsack;
    bool fin_sent;
    uint32_t fin_seq;

    /* RFC 6298 */
    int64_t srtt, rttvar, rto;
    bool rtt_active;
    uint32_t rtt_seq;
    int64_t rtt_start;
    int64_t rto_deadline;       /* 0: not armed */

    /* receiving */
    uint32_t rcv_nxt;
    uint32_t rcv_acked;         /* rcv_nxt as last acknowledged */
    int64_t delack_deadline;    /* 0: not armed */
} PeerConn;

/* e1000e's latency classes, in the order max() ranks them */
typedef enum {
    ITR_LOWEST_LATENCY,
    ITR_LOW_LATENCY,
    ITR_BULK_LATENCY,
} PeerItrClass;

/* A frame the PC's NIC holds until its next interrupt */
typedef struct PeerRxFrame {
    QSIMPLEQ_ENTRY(PeerRxFrame) next;
    size_t len;
    uint8_t data[];
} PeerRxFrame;

struct TcpBenchPeer {
    DeviceState parent_obj;

    NICState *nic;
    NICConf conf;
    QEMUTimer *timer;
    bool tx_blocked;            /* a frame waits for the wire */
    uint16_t ip_id;
    PeerConn conn[PEER_MAX_CONNS];

    /* the NIC's interrupt moderation (nic-irq=e1000e) */
    QEMUTimer *irq_timer;
    int64_t irq_next;           /* no interrupt before this */
    QSIMPLEQ_HEAD(, PeerRxFrame) rx_held;
    unsigned rx_held_count;
    uint32_t itr;               /* interrupts a second */
    PeerItrClass rx_class, tx_class;
    uint32_t rx_packets, rx_bytes, tx_packets, tx_bytes;  /* this interval */

    /* properties */
    char *ip_str;
    uint32_t ip;
    uint16_t sink_port;
    uint16_t source_port;
    uint16_t connect_back_port;
    uint32_t rcv_window;
    char *nic_irq;
    bool moderated;             /* nic-irq=e1000e */
    uint64_t retransmits;
};

static int64_t peer_now(void)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

/* ------------------------------------------------------------ frames */

static void peer_sent(NetClientState *nc, ssize_t len);

/*
 * Hands a frame to the hub.  When the board's MAC cannot take it yet, the
 * net layer keeps it and calls peer_sent() once it has gone; until then
 * the peer sends nothing new (ACKs still queue behind it).
 */
static void peer_send_frame(TcpBenchPeer *s, uint8_t *frame, size_t len)
{
    s->tx_packets++;
    s->tx_bytes += len;
    if (qemu_send_packet_async(qemu_get_queue(s->nic), frame, len,
                               peer_sent) == 0) {
        s->tx_blocked = true;
    }
}

static void peer_arp_reply(TcpBenchPeer *s, const uint8_t *req)
{
    uint8_t f[60] = { 0 };

    memcpy(f, req + 6, ETH_ALEN);
    memcpy(f + 6, s->conf.macaddr.a, ETH_ALEN);
    stw_be_p(f + 12, ETH_P_ARP);
    stw_be_p(f + 14, 1);                /* Ethernet */
    stw_be_p(f + 16, ETH_P_IP);
    f[18] = ETH_ALEN;
    f[19] = 4;
    stw_be_p(f + 20, 2);                /* reply */
    memcpy(f + 22, s->conf.macaddr.a, ETH_ALEN);
    stl_be_p(f + 28, s->ip);
    memcpy(f + 32, req + 22, ETH_ALEN + 4);
    peer_send_frame(s, f, sizeof(f));
}

/* TCP options for a segment of @c (@syn: the SYN-ACK's set) */
static size_t peer_tcp_options(TcpBenchPeer *s, PeerConn *c, bool syn,
                               uint8_t *o)
{
    size_t n = 0;

    if (syn) {
        o[n++] = 2;                     /* MSS */
        o[n++] = 4;
        stw_be_p(o + n, PEER_MTU - IP_HLEN - TCP_HLEN);
        n += 2;
        if (c->sack_ok) {
            o[n++] = 1;
            o[n++] = 1;
            o[n++] = 4;                 /* SACK permitted */
            o[n++] = 2;
        }
        if (c->rcv_wscale || c->snd_wscale) {
            o[n++] = 1;
            o[n++] = 3;                 /* window scale */
            o[n++] = 3;
            o[n++] = c->rcv_wscale;
        }
    }
    if (c->ts_ok) {
        o[n++] = 1;
        o[n++] = 1;
        o[n++] = 8;                     /* timestamps */
        o[n++] = 10;
        stl_be_p(o + n, peer_now() / SCALE_MS);
        stl_be_p(o + n + 4, c->ts_recent);
        n += 8;
    }
    return n;
}

/* The window field: what the sink can take, scaled */
static uint16_t peer_window(TcpBenchPeer *s, PeerConn *c)
{
    return MIN(s->rcv_window >> c->rcv_wscale, 0xffff);
}

/*
 * Sends a segment of @c: @len zero bytes from @seq with @flags (ACK
 * always but on a bare RST).
 */
static void peer_tcp_send(TcpBenchPeer *s, PeerConn *c, uint32_t seq,
                          uint8_t flags, size_t len)
{
    /*
     * Two bytes ahead of the frame put its IP header on a 4-byte boundary,
     * where net_checksum_calculate() reads it as a struct.
     */
    QEMU_ALIGNED(4) uint8_t buf[2 + ETH_HLEN + PEER_MTU] = { 0 };
    uint8_t *f = buf + 2;
    uint8_t *ip = f + ETH_HLEN;
    uint8_t *tcp = ip + IP_HLEN;
    size_t optlen = peer_tcp_options(s, c, flags & TH_SYN, tcp + TCP_HLEN);
    size_t tcplen = TCP_HLEN + optlen + len;
    size_t total = ETH_HLEN + IP_HLEN + tcplen;

    assert(total <= sizeof(buf) - 2);
    memcpy(f, c->mac, ETH_ALEN);
    memcpy(f + 6, s->conf.macaddr.a, ETH_ALEN);
    stw_be_p(f + 12, ETH_P_IP);
    ip[0] = 0x45;
    stw_be_p(ip + 2, IP_HLEN + tcplen);
    stw_be_p(ip + 4, s->ip_id++);
    stw_be_p(ip + 6, 0x4000);           /* DF */
    ip[8] = 64;
    ip[9] = IP_PROTO_TCP;
    stl_be_p(ip + 12, s->ip);
    stl_be_p(ip + 16, c->ip);
    stw_be_p(tcp, c->local_port);
    stw_be_p(tcp + 2, c->port);
    stl_be_p(tcp + 4, seq);
    stl_be_p(tcp + 8, c->rcv_nxt);
    tcp[12] = ((TCP_HLEN + optlen) / 4) << 4;
    tcp[13] = flags;
    /* RFC 7323 2.2: a SYN's window is never scaled */
    stw_be_p(tcp + 14, flags & TH_SYN ? MIN(s->rcv_window, 0xffff) :
             peer_window(s, c));
    net_checksum_calculate(f, MAX(total, 60), CSUM_IP | CSUM_TCP);
    if (flags & TH_ACK) {
        c->rcv_acked = c->rcv_nxt;
        c->delack_deadline = 0;
    }
    peer_send_frame(s, f, MAX(total, 60));
}

/* An RST for a segment that belongs to no connection (RFC 9293 3.10.7.1) */
static void peer_tcp_reset(TcpBenchPeer *s, const uint8_t *eth,
                           const uint8_t *ip, const uint8_t *tcp,
                           size_t datalen)
{
    PeerConn c = { 0 };
    uint8_t flags = tcp[13];

    memcpy(c.mac, eth + 6, ETH_ALEN);
    c.ip = ldl_be_p(ip + 12);
    c.port = lduw_be_p(tcp);
    c.local_port = lduw_be_p(tcp + 2);
    if (flags & TH_ACK) {
        peer_tcp_send(s, &c, ldl_be_p(tcp + 8), TH_RST, 0);
    } else {
        c.rcv_nxt = ldl_be_p(tcp + 4) + datalen + !!(flags & TH_SYN) +
                    !!(flags & TH_FIN);
        peer_tcp_send(s, &c, 0, TH_RST | TH_ACK, 0);
    }
}

/* ------------------------------------------------------------ timers */

static void peer_timer_update(TcpBenchPeer *s)
{
    int64_t next = INT64_MAX;

    for (int i = 0; i < PEER_MAX_CONNS; i++) {
        PeerConn *c = &s->conn[i];

        if (c->state == CONN_FREE) {
            continue;
        }
        if (c->rto_deadline) {
            next = MIN(next, c->rto_deadline);
        }
        if (c->delack_deadline) {
            next = MIN(next, c->delack_deadline);
        }
    }
    if (next == INT64_MAX) {
        timer_del(s->timer);
    } else {
        timer_mod(s->timer, next);
    }
}

static void peer_rto_arm(PeerConn *c)
{
    c->rto_deadline = peer_now() + c->rto;
}

/* ------------------------------------------------------------ sending */

/* Bytes SACKed above snd_una, and the highest SACKed sequence */
static uint32_t peer_sacked(PeerConn *c, uint32_t *high)
{
    uint32_t n = 0;

    *high = c->snd_una;
    for (int i = 0; i < c->nsack; i++) {
        n += c->sack[i].end - c->sack[i].start;
        if (SEQ_GT(c->sack[i].end, *high)) {
            *high = c->sack[i].end;
        }
    }
    return n;
}

/* The SACK block that holds @seq, or NULL */
static SackBlock *peer_sack_at(PeerConn *c, uint32_t seq)
{
    for (int i = 0; i < c->nsack; i++) {
        if (SEQ_GEQ(seq, c->sack[i].start) && SEQ_LT(seq, c->sack[i].end)) {
            return &c->sack[i];
        }
    }
    return NULL;
}

/* The start of the first SACK block above @seq, or @limit */
static uint32_t peer_sack_next(PeerConn *c, uint32_t seq, uint32_t limit)
{
    uint32_t next = limit;

    for (int i = 0; i < c->nsack; i++) {
        if (SEQ_GT(c->sack[i].start, seq) && SEQ_LT(c->sack[i].start, next)) {
            next = c->sack[i].start;
        }
    }
    return next;
}

/*
 * In recovery, the un-SACKed bytes below this are taken as lost: those
 * below the highest SACK (RFC 6675's IsLost, at its most eager), or after
 * a timeout everything that was in flight (RFC 5681 3.1).
 */
static uint32_t peer_lost_limit(PeerConn *c)
{
    uint32_t high;

    peer_sacked(c, &high);
    if (c->rto_loss && SEQ_GT(c->recover, high)) {
        high = c->recover;
    }
    return SEQ_GT(high, c->snd_max) ? c->snd_max : high;
}

/*
 * RFC 6675's pipe: outside recovery, what was sent and not SACKed; in
 * recovery, what was sent above the lost region plus the holes already
 * retransmitted.
 */
static uint32_t peer_pipe(PeerConn *c)
{
    uint32_t high, sacked = peer_sacked(c, &high);
    uint32_t limit, pipe;

    if (!c->in_recovery) {
        return c->snd_max - c->snd_una - sacked;
    }
    limit = peer_lost_limit(c);
    pipe = c->snd_max - limit;
    for (uint32_t seq = c->snd_una; SEQ_LT(seq, c->rtx_next);) {
        SackBlock *b = peer_sack_at(c, seq);

        if (b) {
            seq = b->end;
        } else {
            uint32_t end = peer_sack_next(c, seq, c->rtx_next);

            pipe += end - seq;
            seq = end;
        }
    }
    return pipe;
}

static void peer_send_data(TcpBenchPeer *s, PeerConn *c, uint32_t seq,
                           size_t len)
{
    /* the first in flight: the timer starts now (not a probe's deadline) */
    if (c->snd_una == c->snd_max) {
        c->rto_deadline = 0;
    }
    if (SEQ_LT(seq, c->snd_max)) {
        trace_tcp_bench_peer_retransmit(c->port, seq, len);
        s->retransmits++;
    } else if (!c->rtt_active) {
        c->rtt_active = true;           /* Karn: new data only */
        c->rtt_seq = seq + len;
        c->rtt_start = peer_now();
    }
    peer_tcp_send(s, c, seq, TH_ACK | (len == c->mss ? 0 : TH_PUSH), len);
    if (SEQ_GT(seq + len, c->snd_max)) {
        c->snd_max = seq + len;
    }
    if (!c->rto_deadline) {
        peer_rto_arm(c);
    }
}

/* A source's next segment, if the windows and the wire allow one */
static bool peer_output_one(TcpBenchPeer *s, PeerConn *c)
{
    uint32_t wnd_end = c->snd_una + c->snd_wnd;
    uint32_t len;

    if (peer_pipe(c) >= c->cwnd) {
        return false;
    }
    if (c->in_recovery) {
        /* the first hole not yet retransmitted, a segment at most */
        uint32_t limit = peer_lost_limit(c);

        if (SEQ_LT(c->rtx_next, c->snd_una)) {
            c->rtx_next = c->snd_una;
        }
        while (SEQ_LT(c->rtx_next, limit)) {
            SackBlock *b = peer_sack_at(c, c->rtx_next);
            uint32_t end;

            if (b) {
                c->rtx_next = b->end;
                continue;
            }
            end = peer_sack_next(c, c->rtx_next, limit);
            end = MIN(end - c->rtx_next, c->mss) + c->rtx_next;
            peer_send_data(s, c, c->rtx_next, end - c->rtx_next);
            c->rtx_next = end;
            return true;
        }
    }
    /* New data: full segments only (Nagle), unless the window is smaller */
    if (SEQ_GT(c->snd_max + c->mss, wnd_end) &&
        !(c->snd_wnd < c->mss && c->snd_max == c->snd_una && c->snd_wnd)) {
        return false;
    }
    len = MIN(c->mss, c->snd_wnd);
    peer_send_data(s, c, c->snd_max, len);
    return true;
}

static void peer_output(TcpBenchPeer *s)
{
    bool more = true;

    /* Round robin over the sources, a segment each, while the wire takes */
    while (more && !s->tx_blocked) {
        more = false;
        for (int i = 0; i < PEER_MAX_CONNS && !s->tx_blocked; i++) {
            PeerConn *c = &s->conn[i];

            if (c->state == CONN_ESTABLISHED && c->source) {
                more |= peer_output_one(s, c);
            }
        }
    }
    /* A window too small to send into: probe it when the timer runs out */
    for (int i = 0; i < PEER_MAX_CONNS && !s->tx_blocked; i++) {
        PeerConn *c = &s->conn[i];

        if (c->state == CONN_ESTABLISHED && c->source &&
            c->snd_una == c->snd_max && !c->rto_deadline) {
            peer_rto_arm(c);
        }
    }
    peer_timer_update(s);
}

static void peer_sent(NetClientState *nc, ssize_t len)
{
    TcpBenchPeer *s = qemu_get_nic_opaque(nc);

    s->tx_blocked = false;
    peer_output(s);
}

/* ------------------------------------------------------------ receiving */

typedef struct TcpOpts {
    int mss;                    /* -1: absent */
    int wscale;                 /* -1: absent */
    bool sack_ok;
    bool ts;
    uint32_t tsval;
    int nsack;
    SackBlock sack[4];
} TcpOpts;

static void peer_parse_options(const uint8_t *o, size_t len, TcpOpts *t)
{
    size_t i = 0;

    memset(t, 0, sizeof(*t));
    t->mss = -1;
    t->wscale = -1;
    while (i < len) {
        uint8_t kind = o[i], olen;

        if (kind == 0) {
            break;
        }
        if (kind == 1) {
            i++;
            continue;
        }
        if (i + 1 >= len || o[i + 1] < 2 || i + o[i + 1] > len) {
            break;                      /* malformed: ignore the rest */
        }
        olen = o[i + 1];
        switch (kind) {
        case 2:
            if (olen == 4) {
                t->mss = lduw_be_p(o + i + 2);
            }
            break;
        case 3:
            if (olen == 3) {
                t->wscale = MIN(o[i + 2], 14);
            }
            break;
        case 4:
            t->sack_ok = true;
            break;
        case 5:
            for (int n = 0; n < (olen - 2) / 8 && n < 4; n++) {
                t->sack[n].start = ldl_be_p(o + i + 2 + n * 8);
                t->sack[n].end = ldl_be_p(o + i + 6 + n * 8);
                t->nsack = n + 1;
            }
            break;
        case 8:
            if (olen == 10) {
                t->ts = true;
                t->tsval = ldl_be_p(o + i + 2);
            }
            break;
        }
        i += olen;
    }
}

/* Adds a SACK block to @c's scoreboard, merged, above snd_una */
static void peer_sack_add(PeerConn *c, uint32_t start, uint32_t end)
{
    int n = 0;

    if (SEQ_LT(start, c->snd_una)) {
        start = c->snd_una;
    }
    if (SEQ_GT(end, c->snd_max)) {
        end = c->snd_max;
    }
    if (SEQ_GEQ(start, end)) {
        return;
    }
    /* swallow every block it overlaps or touches */
    for (int i = 0; i < c->nsack; i++) {
        SackBlock *b = &c->sack[i];

        if (SEQ_LEQ(b->start, end) && SEQ_GEQ(b->end, start)) {
            start = SEQ_LT(b->start, start) ? b->start : start;
            end = SEQ_GT(b->end, end) ? b->end : end;
        } else {
            c->sack[n++] = *b;
        }
    }
    c->nsack = n;
    if (c->nsack < PEER_MAX_SACK) {
        c->sack[c->nsack++] = (SackBlock) { start, end };
    }
}

/* Drops the scoreboard below snd_una */
static void peer_sack_trim(PeerConn *c)
{
    int n = 0;

    for (int i = 0; i < c->nsack; i++) {
        SackBlock b = c->sack[i];

        if (SEQ_LEQ(b.end, c->snd_una)) {
            continue;
        }
        if (SEQ_LT(b.start, c->snd_una)) {
            b.start = c->snd_una;
        }
        c->sack[n++] = b;
    }
    c->nsack = n;
}

static void peer_rtt_sample(PeerConn *c, int64_t r)
{
    if (!c->srtt) {
        c->srtt = r;
        c->rttvar = r / 2;
    } else {
        int64_t err = c->srtt > r ? c->srtt - r : r - c->srtt;

        c->rttvar = (3 * c->rttvar + err) / 4;
        c->srtt = (7 * c->srtt + r) / 8;
    }
    c->rto = MAX(c->srtt + 4 * c->rttvar, PEER_RTO_MIN_NS);
    c->rto = MIN(c->rto, PEER_RTO_MAX_NS);
}

/* cubic's decrease of what is in flight, two segments at least */
static uint32_t peer_reduced_ssthresh(PeerConn *c)
{
    return MAX((uint64_t)(c->snd_max - c->snd_una) * PEER_BETA_NUM /
               PEER_BETA_DEN, 2u * c->mss);
}

static void peer_enter_recovery(PeerConn *c)
{
    c->ssthresh = peer_reduced_ssthresh(c);
    c->cwnd = c->ssthresh;
    c->in_recovery = true;
    c->rto_loss = false;
    c->recover = c->snd_max;
    c->rtx_next = c->snd_una;
}

/* The ACK field and window of a segment from the guest */
static void peer_ack(TcpBenchPeer *s, PeerConn *c, uint32_t ack,
                     uint16_t win, const TcpOpts *t, size_t datalen)
{
    uint32_t high, sacked_before;
    bool new_sack;

    if (SEQ_GT(ack, c->snd_max) || SEQ_LT(ack, c->snd_una)) {
        return;
    }
    c->snd_wnd = (uint32_t)win << c->snd_wscale;
    sacked_before = peer_sacked(c, &high);
    for (int i = 0; c->sack_ok && i < t->nsack; i++) {
        peer_sack_add(c, t->sack[i].start, t->sack[i].end);
    }
    new_sack = peer_sacked(c, &high) != sacked_before;
    if (c->fin_sent && SEQ_GT(ack, c->fin_seq)) {
        trace_tcp_bench_peer_close(c->port, "closed");
        c->state = CONN_FREE;           /* our FIN is acknowledged */
        return;
    }
    if (SEQ_GT(ack, c->snd_una)) {
        uint32_t acked = ack - c->snd_una;

        c->snd_una = ack;
        peer_sack_trim(c);
        if (c->rtt_active && SEQ_GEQ(ack, c->rtt_seq)) {
            c->rtt_active = false;
            peer_rtt_sample(c, peer_now() - c->rtt_start);
        }
        if (c->in_recovery && SEQ_GEQ(ack, c->recover)) {
            c->in_recovery = false;
            if (!c->rto_loss) {
                c->cwnd = c->ssthresh;
            }
            c->rto_loss = false;
            trace_tcp_bench_peer_recovered(c->port, ack, c->cwnd);
        } else if (c->in_recovery && !c->rto_loss) {
            /* fast recovery: the window stays at ssthresh */
        } else if (c->cwnd < c->ssthresh) {
            c->cwnd += acked;                           /* slow start */
        } else {
            c->cwnd += MAX((uint64_t)c->mss * acked / c->cwnd, 1);
        }
        /* it grows while the guest's window limits the flow: no wrap */
        c->cwnd = MIN(c->cwnd, PEER_CWND_MAX);
        c->dupacks = 0;
        c->rto_deadline = 0;
        if (c->snd_una != c->snd_max) {
            peer_rto_arm(c);
        }
    } else if (c->snd_una != c->snd_max && !datalen &&
               (win == c->last_win || new_sack)) {
        c->dupacks++;
        if (!c->in_recovery &&
            (c->dupacks >= 3 || peer_sacked(c, &high) >= 3u * c->mss)) {
            peer_enter_recovery(c);
            trace_tcp_bench_peer_recovery(c->port, c->snd_una, c->snd_max,
                                          c->cwnd, c->dupacks);
        }
    }
    c->last_win = win;
}

/* A free connection slot, cleared, with its fixed ISS: the runs repeat */
static PeerConn *peer_conn_alloc(TcpBenchPeer *s)
{
    for (int i = 0; i < PEER_MAX_CONNS; i++) {
        PeerConn *c = &s->conn[i];

        if (c->state == CONN_FREE) {
            memset(c, 0, sizeof(*c));
            c->iss = 0x10000000u * (i + 1);
            c->rto = PEER_RTO_INIT_NS;
            c->snd_una = c->iss;
            c->snd_max = c->iss + 1;
            c->ssthresh = UINT32_MAX;
            return c;
        }
    }
    qemu_log_mask(LOG_UNIMP, "tcp-bench-peer: more than %d connections\n",
                  PEER_MAX_CONNS);
    return NULL;
}

/* The smallest window scale that carries the receive window */
static uint8_t peer_rcv_wscale(TcpBenchPeer *s)
{
    uint8_t ws = 0;

    while (ws < 14 && (s->rcv_window >> ws) > 0xffff) {
        ws++;
    }
    return ws;
}

/* What the guest's SYN or SYN-ACK @t and window @win settle */
static void peer_conn_options(TcpBenchPeer *s, PeerConn *c, const TcpOpts *t,
                              uint16_t win)
{
    c->sack_ok = t->sack_ok;
    c->ts_ok = t->ts;
    c->ts_recent = t->tsval;
    if (t->wscale >= 0) {
        c->snd_wscale = t->wscale;
        c->rcv_wscale = peer_rcv_wscale(s);
    } else {
        c->snd_wscale = c->rcv_wscale = 0;
    }
    /* RFC 9293's default of 536; no less than Linux's floor of 88 */
    c->mss = MIN(MAX(t->mss > 0 ? t->mss : 536, 88),
                 PEER_MTU - IP_HLEN - TCP_HLEN) - (c->ts_ok ? 12 : 0);
    c->snd_wnd = win;                   /* never scaled in a SYN */
    c->last_win = win;
    c->cwnd = PEER_INIT_CWND * c->mss;
    trace_tcp_bench_peer_open(c->port, c->local_port, c->source, c->mss,
                              c->snd_wscale, c->rcv_wscale, c->sack_ok,
                              c->ts_ok);
}

static void peer_conn_open(TcpBenchPeer *s, const uint8_t *eth,
                           const uint8_t *ip, const uint8_t *tcp,
                           const TcpOpts *t)
{
    uint16_t dport = lduw_be_p(tcp + 2);
    PeerConn *c;

    if (dport != s->sink_port && dport != s->source_port) {
        peer_tcp_reset(s, eth, ip, tcp, 0);
        return;
    }
    c = peer_conn_alloc(s);
    if (!c) {
        peer_tcp_reset(s, eth, ip, tcp, 0);
        return;
    }
    c->state = CONN_SYN_RCVD;
    c->source = dport == s->source_port;
    memcpy(c->mac, eth + 6, ETH_ALEN);
    c->ip = ldl_be_p(ip + 12);
    c->port = lduw_be_p(tcp);
    c->local_port = dport;
    c->rcv_nxt = ldl_be_p(tcp + 4) + 1;
    peer_conn_options(s, c, t, lduw_be_p(tcp + 14));
    peer_tcp_send(s, c, c->iss, TH_SYN | TH_ACK, 0);
    peer_rto_arm(c);
}

/*
 * As iperf -d's server does once the client's stream is up: a connection
 * back to the guest (connect-back-port), which the peer then sends into.
 * Its SYN offers what Linux's does: MSS, SACK, timestamps, window scale.
 */
static void peer_connect_back(TcpBenchPeer *s, PeerConn *sink)
{
    PeerConn *c = peer_conn_alloc(s);

    if (!c) {
        return;
    }
    c->state = CONN_SYN_SENT;
    c->source = true;
    memcpy(c->mac, sink->mac, ETH_ALEN);
    c->ip = sink->ip;
    c->port = s->connect_back_port;
    c->local_port = 40000 + (c - s->conn);
    c->sack_ok = c->ts_ok = true;
    c->rcv_wscale = peer_rcv_wscale(s);
    c->mss = PEER_MTU - IP_HLEN - TCP_HLEN;
    peer_tcp_send(s, c, c->iss, TH_SYN, 0);
    peer_rto_arm(c);
}

static void peer_tcp_input(TcpBenchPeer *s, const uint8_t *eth, size_t len)
{
    const uint8_t *ip = eth + ETH_HLEN;
    const uint8_t *tcp;
    size_t ihl, iplen, off, datalen;
    uint32_t src, seq;
    uint16_t sport, dport;
    uint8_t flags;
    PeerConn *c = NULL;
    TcpOpts t;

    ihl = (ip[0] & 0xf) * 4;
    iplen = lduw_be_p(ip + 2);
    if ((ip[0] >> 4) != 4 || ihl < IP_HLEN || iplen < ihl + TCP_HLEN ||
        ETH_HLEN + iplen > len || (lduw_be_p(ip + 6) & 0x3fff)) {
        return;                         /* not for us, or a fragment */
    }
    tcp = ip + ihl;
    off = (tcp[12] >> 4) * 4;
    if (off < TCP_HLEN || ihl + off > iplen) {
        return;
    }
    datalen = iplen - ihl - off;
    src = ldl_be_p(ip + 12);
    sport = lduw_be_p(tcp);
    dport = lduw_be_p(tcp + 2);
    seq = ldl_be_p(tcp + 4);
    flags = tcp[13];
    peer_parse_options(tcp + TCP_HLEN, off - TCP_HLEN, &t);

    for (int i = 0; i < PEER_MAX_CONNS; i++) {
        PeerConn *k = &s->conn[i];

        if (k->state != CONN_FREE && k->ip == src && k->port == sport &&
            k->local_port == dport) {
            c = k;
            break;
        }
    }
    if (flags & TH_RST) {
        if (c) {
            trace_tcp_bench_peer_close(c->port, "reset");
            c->state = CONN_FREE;
        }
        return;
    }
    if (!c) {
        if ((flags & (TH_SYN | TH_ACK)) == TH_SYN) {
            peer_conn_open(s, eth, ip, tcp, &t);
        } else {
            peer_tcp_reset(s, eth, ip, tcp, datalen);
        }
        return;
    }
    if (c->state == CONN_SYN_SENT) {
        if ((flags & (TH_SYN | TH_ACK)) != (TH_SYN | TH_ACK) ||
            ldl_be_p(tcp + 8) != c->iss + 1) {
            return;
        }
        c->state = CONN_ESTABLISHED;
        c->rcv_nxt = seq + 1;
        c->snd_una = c->iss + 1;
        c->rto_deadline = 0;
        peer_conn_options(s, c, &t, lduw_be_p(tcp + 14));
        peer_tcp_send(s, c, c->snd_max, TH_ACK, 0);
        peer_output(s);
        return;
    }
    if (flags & TH_SYN) {
        if (c->state == CONN_SYN_RCVD && seq + 1 == c->rcv_nxt) {
            peer_tcp_send(s, c, c->iss, TH_SYN | TH_ACK, 0);
        }
        return;
    }
    if (!(flags & TH_ACK)) {
        return;
    }
    if (c->ts_ok && t.ts && SEQ_LEQ(seq, c->rcv_nxt)) {
        c->ts_recent = t.tsval;
    }
    if (c->state == CONN_SYN_RCVD) {
        if (ldl_be_p(tcp + 8) != c->iss + 1) {
            peer_tcp_reset(s, eth, ip, tcp, datalen);
            return;
        }
        c->state = CONN_ESTABLISHED;
        c->snd_una = c->iss + 1;
        c->rto_deadline = 0;
        c->rto = PEER_RTO_INIT_NS;
        if (!c->source && s->connect_back_port) {
            peer_connect_back(s, c);
        }
    }
    peer_ack(s, c, ldl_be_p(tcp + 8), lduw_be_p(tcp + 14), &t, datalen);
    if (c->state == CONN_FREE) {
        return;
    }

    if (datalen || (flags & TH_FIN)) {
        if (seq == c->rcv_nxt) {
            c->rcv_nxt += datalen;
            if (flags & TH_FIN) {
                c->rcv_nxt++;
                /* the guest closes: we close too, with nothing more sent */
                c->state = CONN_LAST_ACK;
                c->fin_sent = true;
                c->fin_seq = c->snd_max;
                c->snd_max = c->fin_seq + 1;
                peer_tcp_send(s, c, c->fin_seq, TH_FIN | TH_ACK, 0);
                peer_rto_arm(c);
            } else if (c->rcv_nxt - c->rcv_acked >= 2u * c->mss) {
                peer_tcp_send(s, c, c->snd_max, TH_ACK, 0);
            } else if (!c->delack_deadline) {
                c->delack_deadline = peer_now() + PEER_DELACK_NS;
            }
        } else {
            /* out of order or old: say at once what we have */
            peer_tcp_send(s, c, c->snd_max, TH_ACK, 0);
        }
    }
    peer_output(s);
}

static void peer_input(TcpBenchPeer *s, const uint8_t *buf, size_t size);

/*
 * e1000e's dynamic interrupt moderation (e1000_update_itr()): the class
 * of the next interval from the frames and bytes of the one just ended
 */
static PeerItrClass peer_itr_class(PeerItrClass c, uint32_t packets,
                                   uint32_t bytes)
{
    if (packets == 0) {
        return c;
    }
    switch (c) {
    case ITR_LOWEST_LATENCY:
        if (bytes / packets > 8000) {
            return ITR_BULK_LATENCY;
        }
        if (packets < 5 && bytes > 512) {
            return ITR_LOW_LATENCY;
        }
        return c;
    case ITR_LOW_LATENCY:
        if (bytes > 10000) {
            if (bytes / packets > 8000 || packets < 10 ||
                bytes / packets > 1200) {
                return ITR_BULK_LATENCY;
            }
            return packets > 35 ? ITR_LOWEST_LATENCY : c;
        }
        if (bytes / packets > 2000) {
            return ITR_BULK_LATENCY;
        }
        return packets <= 2 && bytes < 512 ? ITR_LOWEST_LATENCY : c;
    default:
        if (bytes > 25000) {
            return packets > 35 ? ITR_LOW_LATENCY : c;
        }
        return bytes < 6000 ? ITR_LOW_LATENCY : c;
    }
}

/*
 * e1000_set_itr() in InterruptThrottleRate mode 3, "dynamic
 * conservative", the driver's default: no lowest-latency class; 20000
 * interrupts a second for low latency, 4000 for bulk; a rate that rises
 * does so by a quarter of its target at a time.
 */
static void peer_itr_update(TcpBenchPeer *s, uint32_t tx_packets,
                            uint32_t tx_bytes)
{
    PeerItrClass c;
    uint32_t target;

    s->rx_class = peer_itr_class(s->rx_class, s->rx_packets, s->rx_bytes);
    s->tx_class = peer_itr_class(s->tx_class, tx_packets, tx_bytes);
    s->rx_class = MAX(s->rx_class, ITR_LOW_LATENCY);
    s->tx_class = MAX(s->tx_class, ITR_LOW_LATENCY);
    c = MAX(s->rx_class, s->tx_class);
    target = c == ITR_BULK_LATENCY ? PEER_ITR_BULK : PEER_ITR_LOW;
    s->itr = target > s->itr ? MIN(s->itr + target / 4, target) : target;
    trace_tcp_bench_peer_itr(s->rx_packets, s->rx_bytes, tx_packets,
                             tx_bytes, s->itr);
    s->rx_packets = s->rx_bytes = 0;
}

/* The NIC's interrupt: the host takes every frame the NIC holds */
static void peer_irq(void *opaque)
{
    TcpBenchPeer *s = opaque;
    /* the frames sent since the last interrupt, which this one cleans */
    uint32_t tx_packets = s->tx_packets, tx_bytes = s->tx_bytes;
    PeerRxFrame *f;

    s->tx_packets = s->tx_bytes = 0;
    while ((f = QSIMPLEQ_FIRST(&s->rx_held))) {
        QSIMPLEQ_REMOVE_HEAD(&s->rx_held, next);
        s->rx_held_count--;
        s->rx_packets++;
        s->rx_bytes += f->len;
        peer_input(s, f->data, f->len);
        g_free(f);
    }
    peer_itr_update(s, tx_packets, tx_bytes);
    /* ITR counts in 256 ns units: 10^9 / (itr * 256) of them */
    s->irq_next = peer_now() +
        (int64_t)(NANOSECONDS_PER_SECOND / ((uint64_t)s->itr * 256)) * 256;
}

static ssize_t peer_receive(NetClientState *nc, const uint8_t *buf,
                            size_t size)
{
    TcpBenchPeer *s = qemu_get_nic_opaque(nc);
    PeerRxFrame *f;

    if (!s->moderated) {
        peer_input(s, buf, size);
        return size;
    }
    if (s->rx_held_count >= PEER_RX_RING) {
        trace_tcp_bench_peer_rx_ring_full(s->rx_held_count);
        return size;            /* no free descriptor: dropped */
    }
    f = g_malloc(sizeof(*f) + size);
    f->len = size;
    memcpy(f->data, buf, size);
    QSIMPLEQ_INSERT_TAIL(&s->rx_held, f, next);
    s->rx_held_count++;
    if (peer_now() >= s->irq_next) {
        peer_irq(s);
    } else {
        timer_mod_anticipate_ns(s->irq_timer, s->irq_next);
    }
    return size;
}

static void peer_input(TcpBenchPeer *s, const uint8_t *buf, size_t size)
{
    uint16_t type;

    if (size < ETH_HLEN + 28) {
        return;
    }
    type = lduw_be_p(buf + 12);
    if (type == ETH_P_ARP && lduw_be_p(buf + 20) == 1 &&
        ldl_be_p(buf + 38) == s->ip) {
        peer_arp_reply(s, buf);
    } else if (type == ETH_P_IP && buf[ETH_HLEN + 9] == IP_PROTO_TCP &&
               ldl_be_p(buf + ETH_HLEN + 16) == s->ip) {
        peer_tcp_input(s, buf, size);
    }
}

/* The delayed ACKs and retransmission timeouts that are due */
static void peer_timer(void *opaque)
{
    TcpBenchPeer *s = opaque;
    int64_t now = peer_now();

    for (int i = 0; i < PEER_MAX_CONNS; i++) {
        PeerConn *c = &s->conn[i];

        if (c->state == CONN_FREE) {
            continue;
        }
        if (c->delack_deadline && c->delack_deadline <= now) {
            peer_tcp_send(s, c, c->snd_max, TH_ACK, 0);
        }
        if (!c->rto_deadline || c->rto_deadline > now) {
            continue;
        }
        c->rto_deadline = 0;
        if (c->state == CONN_SYN_SENT) {
            peer_tcp_send(s, c, c->iss, TH_SYN, 0);
        } else if (c->state == CONN_SYN_RCVD) {
            peer_tcp_send(s, c, c->iss, TH_SYN | TH_ACK, 0);
        } else if (c->state == CONN_LAST_ACK) {
            peer_tcp_send(s, c, c->fin_seq, TH_FIN | TH_ACK, 0);
        } else if (c->snd_una != c->snd_max) {
            /* RFC 5681 3.1 after a timeout; go back to snd_una */
            c->ssthresh = peer_reduced_ssthresh(c);
            c->cwnd = c->mss;
            c->in_recovery = true;
            c->rto_loss = true;
            c->recover = c->snd_max;
            c->rtx_next = c->snd_una;
            c->dupacks = 0;
            c->rtt_active = false;
            trace_tcp_bench_peer_rto(c->port, c->snd_una, c->snd_max,
                                     MIN(c->rto * 2, PEER_RTO_MAX_NS),
                                     c->snd_wnd);
        } else {
            /* zero window: a probe, which the guest answers with its window */
            peer_tcp_send(s, c, c->snd_una - 1, TH_ACK, 0);
        }
        c->rto = MIN(c->rto * 2, PEER_RTO_MAX_NS);
        peer_rto_arm(c);
    }
    peer_output(s);
}

/* ------------------------------------------------------------ device */

static NetClientInfo peer_net_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .receive = peer_receive,
};

static void peer_realize(DeviceState *dev, Error **errp)
{
    TcpBenchPeer *s = TCP_BENCH_PEER(dev);
    struct in_addr addr;

    if (!s->ip_str || !inet_aton(s->ip_str, &addr)) {
        error_setg(errp, "tcp-bench-peer: ip must be an IPv4 address");
        return;
    }
    s->ip = be32_to_cpu(addr.s_addr);
    if (!s->conf.peers.ncs[0]) {
        error_setg(errp, "tcp-bench-peer: netdev is required");
        return;
    }
    if (!s->nic_irq || !strcmp(s->nic_irq, "none")) {
        s->moderated = false;
    } else if (!strcmp(s->nic_irq, "e1000e")) {
        s->moderated = true;
    } else {
        error_setg(errp, "tcp-bench-peer: nic-irq must be none or e1000e");
        return;
    }
    /* e1000e_check_options(): mode 3 starts at 20000 interrupts a second */
    s->itr = PEER_ITR_LOW;
    s->rx_class = s->tx_class = ITR_LOW_LATENCY;
    if (s->rcv_window < 1024 || s->rcv_window > (0xffffu << 14)) {
        error_setg(errp, "tcp-bench-peer: rcv-window must be 1024 .. 1 GiB");
        return;
    }
    qemu_macaddr_default_if_unset(&s->conf.macaddr);
    s->nic = qemu_new_nic(&peer_net_info, &s->conf, object_get_typename(
                              OBJECT(dev)), dev->id,
                          &dev->mem_reentrancy_guard, s);
    s->timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, peer_timer, s);
    s->irq_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, peer_irq, s);
    QSIMPLEQ_INIT(&s->rx_held);
}

static void peer_unrealize(DeviceState *dev)
{
    TcpBenchPeer *s = TCP_BENCH_PEER(dev);
    PeerRxFrame *f;

    timer_free(s->timer);
    timer_free(s->irq_timer);
    while ((f = QSIMPLEQ_FIRST(&s->rx_held))) {
        QSIMPLEQ_REMOVE_HEAD(&s->rx_held, next);
        g_free(f);
    }
    qemu_del_nic(s->nic);
}

/* Its TCP state is not migrated: a bench tool, not a part of the board */
static const VMStateDescription vmstate_tcp_bench_peer = {
    .name = TYPE_TCP_BENCH_PEER,
    .unmigratable = 1,
};

static const Property peer_properties[] = {
    DEFINE_NIC_PROPERTIES(TcpBenchPeer, conf),
    DEFINE_PROP_STRING("ip", TcpBenchPeer, ip_str),
    DEFINE_PROP_UINT16("sink-port", TcpBenchPeer, sink_port, 5001),
    DEFINE_PROP_UINT16("source-port", TcpBenchPeer, source_port, 5002),
    /* 0: none; else, the guest's port a sink connection brings a source on */
    DEFINE_PROP_UINT16("connect-back-port", TcpBenchPeer, connect_back_port,
                       0),
    /*
     * What the sink advertises: Linux's tcp_rmem maximum of 4 MiB (the
     * PSP era's default), which autotuning reaches on a fast LAN
     */
    DEFINE_PROP_UINT32("rcv-window", TcpBenchPeer, rcv_window, 4 * MiB),
    /*
     * none: every frame is taken the moment it arrives; e1000e: the PC's
     * NIC interrupts as an Intel 82574L under Linux's e1000e with its
     * default InterruptThrottleRate=3 does
     */
    DEFINE_PROP_STRING("nic-irq", TcpBenchPeer, nic_irq),
};

static void peer_instance_init(Object *obj)
{
    TcpBenchPeer *s = TCP_BENCH_PEER(obj);

    /* segments sent again, over all connections (qom-get) */
    object_property_add_uint64_ptr(obj, "retransmits", &s->retransmits,
                                   OBJ_PROP_FLAG_READ);
}

static void peer_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->desc = "A PC's TCP sink and source at the far end of a wire "
               "(scripts/bench)";
    dc->realize = peer_realize;
    dc->unrealize = peer_unrealize;
    dc->vmsd = &vmstate_tcp_bench_peer;
    dc->user_creatable = true;
    set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
    device_class_set_props(dc, peer_properties);
}

static const TypeInfo peer_type_info = {
    .name = TYPE_TCP_BENCH_PEER,
    .parent = TYPE_DEVICE,
    .instance_size = sizeof(TcpBenchPeer),
    .instance_init = peer_instance_init,
    .class_init = peer_class_init,
};

static void peer_register_types(void)
{
    type_register_static(&peer_type_info);
}

type_init(peer_register_types)
