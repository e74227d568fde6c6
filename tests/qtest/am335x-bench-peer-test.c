/*
 * qtest for tcp-bench-peer (net/tcp_bench_peer.c), scripts/bench's PC at
 * the far end of the wire: ARP, the handshake's options, the source's
 * initial window and slow start, SACK recovery, the retransmission
 * timeout, the sink's delayed ACKs, resets, and malformed segments.
 *
 * The test stands where the board's MAC would, on a socket netdev.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "qemu/bswap.h"
#include "qemu/sockets.h"
#include <poll.h>
#include "qobject/qdict.h"

#define PEER_IP     0x0a000202u
#define GUEST_IP    0x0a00020fu
#define SINK_PORT   5001
#define SOURCE_PORT 5002

#define F_FIN   0x01
#define F_SYN   0x02
#define F_RST   0x04
#define F_ACK   0x10

static const uint8_t guest_mac[6] = { 0x02, 0, 0, 0, 0, 0x0f };

typedef struct Seg {
    uint8_t flags;
    uint32_t seq, ack;
    uint16_t win;
    size_t len;                 /* payload */
    int mss, wscale;            /* -1: absent */
    bool sack_ok, ts;
    uint32_t tsval, tsecr;
    int nsack;                  /* SACK blocks: start, end */
    uint32_t sack[4][2];
} Seg;

typedef struct Peer {
    QTestState *qts;
    int fd;
} Peer;

static Peer peer_start_with(const char *props)
{
    int sv[2];
    Peer p;

    g_assert_cmpint(socketpair(PF_UNIX, SOCK_STREAM, 0, sv), ==, 0);
    p.qts = qtest_initf("-M am335x-evm -netdev socket,fd=%d,id=s0 "
                        "-device tcp-bench-peer,id=pc,netdev=s0,"
                        "ip=10.0.2.2%s", sv[1], props);
    p.fd = sv[0];
    return p;
}

static Peer peer_start(void)
{
    return peer_start_with("");
}

static void peer_stop(Peer *p)
{
    qtest_quit(p->qts);
    close(p->fd);
}

/* A frame in the socket netdev's stream framing */
static void send_frame(Peer *p, const uint8_t *buf, uint32_t len)
{
    uint32_t be = cpu_to_be32(len);

    g_assert_cmpint(send(p->fd, &be, 4, 0), ==, 4);
    g_assert_cmpint(send(p->fd, buf, len, 0), ==, len);
}

static bool read_full(int fd, uint8_t *buf, size_t len, int timeout_ms)
{
    size_t got = 0;

    while (got < len) {
        struct pollfd pfd = { .fd = fd, .events = POLLIN };
        ssize_t n;

        if (poll(&pfd, 1, timeout_ms) <= 0) {
            g_assert_cmpuint(got, ==, 0);
            return false;
        }
        n = recv(fd, buf + got, len - got, 0);
        g_assert_cmpint(n, >, 0);
        got += n;
    }
    return true;
}

/* The next frame from the peer, or 0 when none comes in @timeout_ms */
static size_t recv_frame(Peer *p, uint8_t *buf, size_t size, int timeout_ms)
{
    uint32_t be, len;

    if (!read_full(p->fd, (uint8_t *)&be, 4, timeout_ms)) {
        return 0;
    }
    len = be32_to_cpu(be);
    g_assert_cmpuint(len, <=, size);
    g_assert_true(read_full(p->fd, buf, len, 5000));
    return len;
}

static void send_seg(Peer *p, uint16_t sport, uint16_t dport, const Seg *s)
{
    uint8_t f[1514] = { 0 };
    uint8_t *ip = f + 14, *tcp = ip + 20, *o = tcp + 20;
    size_t n = 0;

    memset(f, 0xff, 6);
    memcpy(f + 6, guest_mac, 6);
    stw_be_p(f + 12, 0x0800);
    if (s->mss >= 0) {
        o[n++] = 2;
        o[n++] = 4;
        stw_be_p(o + n, s->mss);
        n += 2;
    }
    if (s->sack_ok) {
        o[n++] = 1;
        o[n++] = 1;
        o[n++] = 4;
        o[n++] = 2;
    }
    if (s->ts) {
        o[n++] = 1;
        o[n++] = 1;
        o[n++] = 8;
        o[n++] = 10;
        stl_be_p(o + n, s->tsval);
        stl_be_p(o + n + 4, s->tsecr);
        n += 8;
    }
    if (s->wscale >= 0) {
        o[n++] = 1;
        o[n++] = 3;
        o[n++] = 3;
        o[n++] = s->wscale;
    }
    if (s->nsack) {
        o[n++] = 1;
        o[n++] = 1;
        o[n++] = 5;
        o[n++] = 2 + 8 * s->nsack;
        for (int i = 0; i < s->nsack; i++) {
            stl_be_p(o + n, s->sack[i][0]);
            stl_be_p(o + n + 4, s->sack[i][1]);
            n += 8;
        }
    }
    ip[0] = 0x45;
    stw_be_p(ip + 2, 40 + n + s->len);
    ip[8] = 64;
    ip[9] = 6;
    stl_be_p(ip + 12, GUEST_IP);
    stl_be_p(ip + 16, PEER_IP);
    stw_be_p(tcp, sport);
    stw_be_p(tcp + 2, dport);
    stl_be_p(tcp + 4, s->seq);
    stl_be_p(tcp + 8, s->ack);
    tcp[12] = ((20 + n) / 4) << 4;
    tcp[13] = s->flags;
    stw_be_p(tcp + 14, s->win);
    send_frame(p, f, MAX(14 + 40 + n + s->len, 60));
}

/* An ACK with one SACK block */
static void send_sack(Peer *p, uint16_t sport, uint16_t dport, uint32_t seq,
                      uint32_t ack, uint16_t win, uint32_t start,
                      uint32_t end)
{
    Seg s = { .flags = F_ACK, .seq = seq, .ack = ack, .win = win,
              .mss = -1, .wscale = -1, .nsack = 1,
              .sack = { { start, end } } };

    send_seg(p, sport, dport, &s);
}

/* The ones' complement sum of @len bytes */
static uint16_t ones_sum(const uint8_t *b, size_t len)
{
    uint32_t sum = 0;

    for (size_t i = 0; i + 1 < len; i += 2) {
        sum += lduw_be_p(b + i);
    }
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return sum;
}

/* Parses a TCP segment from the peer into @s; false if it is not one */
static bool parse_seg(const uint8_t *f, size_t len, Seg *s)
{
    const uint8_t *ip = f + 14, *tcp = ip + 20;
    size_t off, iplen;

    memset(s, 0, sizeof(*s));
    s->mss = s->wscale = -1;
    if (len < 54 || lduw_be_p(f + 12) != 0x0800 || ip[9] != 6) {
        return false;
    }
    g_assert_cmphex(ldl_be_p(ip + 12), ==, PEER_IP);
    g_assert_cmphex(ldl_be_p(ip + 16), ==, GUEST_IP);
    g_assert_cmpmem(f, 6, guest_mac, 6);
    /* the IP header's checksum sums to 0xffff */
    g_assert_cmphex(ones_sum(ip, 20), ==, 0xffff);
    iplen = lduw_be_p(ip + 2);
    off = (tcp[12] >> 4) * 4;
    s->flags = tcp[13];
    s->seq = ldl_be_p(tcp + 4);
    s->ack = ldl_be_p(tcp + 8);
    s->win = lduw_be_p(tcp + 14);
    s->len = iplen - 20 - off;
    for (size_t i = 20; i < off;) {
        const uint8_t *o = tcp + i;

        if (o[0] == 0) {
            break;
        }
        if (o[0] == 1) {
            i++;
            continue;
        }
        switch (o[0]) {
        case 2:
            s->mss = lduw_be_p(o + 2);
            break;
        case 3:
            s->wscale = o[2];
            break;
        case 4:
            s->sack_ok = true;
            break;
        case 8:
            s->ts = true;
            s->tsval = ldl_be_p(o + 2);
            s->tsecr = ldl_be_p(o + 6);
            break;
        }
        i += o[1];
    }
    return true;
}

static void expect_seg(Peer *p, Seg *s)
{
    uint8_t f[1600];
    size_t len = recv_frame(p, f, sizeof(f), 5000);

    g_assert_true(parse_seg(f, len, s));
}

static bool no_frame(Peer *p)
{
    uint8_t f[1600];

    return recv_frame(p, f, sizeof(f), 200) == 0;
}

static int64_t retransmits(Peer *p)
{
    QDict *r = qtest_qmp(p->qts, "{'execute': 'qom-get', 'arguments': "
                         "{'path': '/machine/peripheral/pc', "
                         "'property': 'retransmits'}}");
    int64_t n = qdict_get_int(r, "return");

    qobject_unref(r);
    return n;
}

/* The guest's ARP request for @ip */
static void arp_request(uint8_t *f, uint32_t ip)
{
    memset(f, 0, 60);
    memset(f, 0xff, 6);
    memcpy(f + 6, guest_mac, 6);
    stw_be_p(f + 12, 0x0806);
    stw_be_p(f + 14, 1);
    stw_be_p(f + 16, 0x0800);
    f[18] = 6;
    f[19] = 4;
    stw_be_p(f + 20, 1);
    memcpy(f + 22, guest_mac, 6);
    stl_be_p(f + 28, GUEST_IP);
    stl_be_p(f + 38, ip);
}

static void test_arp(void)
{
    Peer p = peer_start();
    uint8_t f[60], r[1600];
    size_t len;

    arp_request(f, 0x0a000209);         /* somebody else: no answer */
    send_frame(&p, f, sizeof(f));
    g_assert_true(no_frame(&p));
    arp_request(f, PEER_IP);
    send_frame(&p, f, sizeof(f));
    len = recv_frame(&p, r, sizeof(r), 5000);
    g_assert_cmpuint(len, ==, 60);
    g_assert_cmpmem(r, 6, guest_mac, 6);
    g_assert_cmphex(lduw_be_p(r + 12), ==, 0x0806);
    g_assert_cmphex(lduw_be_p(r + 20), ==, 2);
    g_assert_cmpmem(r + 22, 6, r + 6, 6);
    g_assert_cmphex(ldl_be_p(r + 28), ==, PEER_IP);
    g_assert_cmpmem(r + 32, 6, guest_mac, 6);
    g_assert_cmphex(ldl_be_p(r + 38), ==, GUEST_IP);
    peer_stop(&p);
}

/*
 * nic-irq=e1000e: the PC's NIC takes frames at its interrupts, at most
 * 20000 a second at first (e1000e's low-latency class, a 195 x 256 ns
 * interval) and 4000 (976 x 256 ns) once an interval has brought more
 * than 10000 bytes in frames larger than 1200 bytes (bulk).
 */
static void test_interrupt_moderation(void)
{
    Peer p = peer_start_with(",nic-irq=e1000e");
    uint8_t f[1514] = { 0 }, arp[60], r[1600];

    /* the first frame finds no interrupt in the last interval */
    arp_request(arp, PEER_IP);
    send_frame(&p, arp, sizeof(arp));
    g_assert_cmpuint(recv_frame(&p, r, sizeof(r), 5000), ==, 60);

    /* the next waits for the interval to end: 49.92 us */
    send_frame(&p, arp, sizeof(arp));
    g_assert_true(no_frame(&p));
    qtest_clock_step(p.qts, 49 * 1000);
    g_assert_true(no_frame(&p));
    qtest_clock_step(p.qts, 1000);
    g_assert_cmpuint(recv_frame(&p, r, sizeof(r), 5000), ==, 60);

    /* 7 full frames for somebody else in one interval: bulk from then on */
    memcpy(f, guest_mac, 6);
    memcpy(f + 6, guest_mac, 6);
    stw_be_p(f + 12, 0x0800);
    for (int i = 0; i < 7; i++) {
        send_frame(&p, f, sizeof(f));
    }
    qtest_clock_step(p.qts, 50 * 1000);
    g_assert_true(no_frame(&p));
    send_frame(&p, arp, sizeof(arp));
    qtest_clock_step(p.qts, 150 * 1000);
    g_assert_true(no_frame(&p));
    qtest_clock_step(p.qts, 100 * 1000);
    g_assert_cmpuint(recv_frame(&p, r, sizeof(r), 5000), ==, 60);
    peer_stop(&p);
}

/*
 * Connects to @port as Linux does (MSS 1460, SACK, timestamps, window
 * scale 7); returns the peer's ISS + 1.
 */
static uint32_t connect_to(Peer *p, uint16_t sport, uint16_t port,
                           uint32_t iss, uint16_t win, Seg *synack)
{
    Seg syn = { .flags = F_SYN, .seq = iss, .win = 64240, .mss = 1460,
                .wscale = 7, .sack_ok = true, .ts = true, .tsval = 1000 };
    Seg ack = { .flags = F_ACK, .seq = iss + 1, .win = win, .mss = -1,
                .wscale = -1, .ts = true, .tsval = 1001 };

    send_seg(p, sport, port, &syn);
    expect_seg(p, synack);
    g_assert_cmphex(synack->flags, ==, F_SYN | F_ACK);
    g_assert_cmphex(synack->ack, ==, iss + 1);
    ack.ack = synack->seq + 1;
    ack.tsecr = synack->tsval;
    send_seg(p, sport, port, &ack);
    return synack->seq + 1;
}

static void test_source(void)
{
    Peer p = peer_start();
    Seg sa, s, ack = { .flags = F_ACK, .seq = 101, .mss = -1, .wscale = -1,
                       .ts = true, .tsval = 1002 };
    uint32_t next;

    /* the guest's window: 512 x 128 = 64 KB */
    next = connect_to(&p, 40000, SOURCE_PORT, 100, 512, &sa);
    g_assert_cmpint(sa.mss, ==, 1460);
    g_assert_true(sa.sack_ok);
    g_assert_true(sa.ts);
    g_assert_cmpuint(sa.tsecr, ==, 1000);
    /* 4 MiB in the window field takes a scale of 7 */
    g_assert_cmpint(sa.wscale, ==, 7);
    g_assert_cmpuint(sa.win, ==, 65535);

    /* RFC 6928: ten segments, 1448 bytes each with timestamps */
    for (int i = 0; i < 10; i++) {
        expect_seg(&p, &s);
        g_assert_cmphex(s.flags & ~0x08, ==, F_ACK);
        g_assert_cmphex(s.seq, ==, next + i * 1448);
        g_assert_cmpuint(s.len, ==, 1448);
        g_assert_cmpuint(s.ack, ==, 101);
        g_assert_cmpuint(s.tsecr, ==, 1001);
        g_assert_cmpuint(s.win, ==, 32768);
    }
    g_assert_true(no_frame(&p));

    /* Slow start: two segments acknowledged, four more go */
    ack.ack = next + 2 * 1448;
    ack.win = 512;
    send_seg(&p, 40000, SOURCE_PORT, &ack);
    for (int i = 10; i < 14; i++) {
        expect_seg(&p, &s);
        g_assert_cmphex(s.seq, ==, next + i * 1448);
    }
    g_assert_true(no_frame(&p));

    /*
     * Segments 2 and 3 lost: SACKs for 4, 4..5, 4..6 are three duplicate
     * ACKs.  The first two each let a new segment go (the pipe shrank by
     * the SACKed one); the third starts recovery, which retransmits the
     * first hole as far as the reduced window (0.7 of the flight) lets it.
     */
    for (int i = 0; i < 3; i++) {
        send_sack(&p, 40000, SOURCE_PORT, 101, next + 2 * 1448, 512,
                  next + 4 * 1448, next + (5 + i) * 1448);
        expect_seg(&p, &s);
        g_assert_cmphex(s.seq, ==, next + (i < 2 ? 14 + i : 2) * 1448);
        g_assert_cmpuint(s.len, ==, 1448);
    }
    g_assert_true(no_frame(&p));
    g_assert_cmpint(retransmits(&p), ==, 1);
    /* one more SACKed segment: the next hole */
    send_sack(&p, 40000, SOURCE_PORT, 101, next + 2 * 1448, 512,
              next + 4 * 1448, next + 8 * 1448);
    expect_seg(&p, &s);
    g_assert_cmphex(s.seq, ==, next + 3 * 1448);
    g_assert_true(no_frame(&p));
    g_assert_cmpint(retransmits(&p), ==, 2);

    /* Everything acknowledged: recovery ends, new data goes */
    ack.ack = next + 16 * 1448;
    send_seg(&p, 40000, SOURCE_PORT, &ack);
    expect_seg(&p, &s);
    g_assert_cmphex(s.seq, ==, next + 16 * 1448);
    while (!no_frame(&p)) {
        /* the rest of the window */
    }

    /*
     * Nothing acknowledged from now: after the retransmission timeout
     * (at least Linux's 200 ms floor) the peer starts again at the first
     * unacknowledged byte, with one segment.
     */
    qtest_clock_step(p.qts, 150 * 1000 * 1000);
    g_assert_true(no_frame(&p));
    qtest_clock_step(p.qts, 60 * 1000 * 1000);
    expect_seg(&p, &s);
    g_assert_cmphex(s.seq, ==, next + 16 * 1448);
    g_assert_true(no_frame(&p));

    /*
     * After the timeout, in slow start from one segment: the guest has
     * 16 and, out of order, 20..25.  Each ACK lets the window grow; the
     * holes go again, the SACKed segments do not, then new data (26...).
     */
    {
        uint32_t b0 = next + 20 * 1448, b1 = next + 26 * 1448;
        static const int want[] = { 17, 18, 19, 26, 27, 28 };

        send_sack(&p, 40000, SOURCE_PORT, 101, next + 17 * 1448, 512, b0, b1);
        for (int i = 0; i < 2; i++) {
            expect_seg(&p, &s);
            g_assert_cmphex(s.seq, ==, next + want[i] * 1448);
        }
        g_assert_true(no_frame(&p));
        send_sack(&p, 40000, SOURCE_PORT, 101, next + 19 * 1448, 512, b0, b1);
        for (int i = 2; i < 6; i++) {
            expect_seg(&p, &s);
            g_assert_cmphex(s.seq, ==, next + want[i] * 1448);
        }
        g_assert_true(no_frame(&p));
    }

    /* The guest resets the connection: the peer sends nothing more */
    ack.flags = F_RST;
    send_seg(&p, 40000, SOURCE_PORT, &ack);
    qtest_clock_step(p.qts, 5ll * 1000 * 1000 * 1000);
    g_assert_true(no_frame(&p));
    peer_stop(&p);
}

static void test_sink(void)
{
    Peer p = peer_start();
    Seg sa, s, d = { .flags = F_ACK, .seq = 501, .win = 512, .mss = -1,
                     .wscale = -1, .ts = true, .tsval = 2000 };
    uint32_t next = connect_to(&p, 40001, SINK_PORT, 500, 512, &sa);

    d.ack = next;
    d.len = 1448;
    send_seg(&p, 40001, SINK_PORT, &d);
    g_assert_true(no_frame(&p));
    d.seq += 1448;
    send_seg(&p, 40001, SINK_PORT, &d);
    /* every second full segment is acknowledged at once */
    expect_seg(&p, &s);
    g_assert_cmphex(s.flags, ==, F_ACK);
    g_assert_cmpuint(s.ack, ==, 501 + 2 * 1448);
    g_assert_cmpuint(s.len, ==, 0);
    g_assert_cmpuint(s.tsecr, ==, 2000);

    /* one more: acknowledged after the 40 ms delayed-ACK time */
    d.seq += 1448;
    send_seg(&p, 40001, SINK_PORT, &d);
    qtest_clock_step(p.qts, 30 * 1000 * 1000);
    g_assert_true(no_frame(&p));
    qtest_clock_step(p.qts, 10 * 1000 * 1000);
    expect_seg(&p, &s);
    g_assert_cmpuint(s.ack, ==, 501 + 3 * 1448);

    /* out of order: dropped, and what the sink has is said at once */
    d.seq += 2 * 1448;
    send_seg(&p, 40001, SINK_PORT, &d);
    expect_seg(&p, &s);
    g_assert_cmpuint(s.ack, ==, 501 + 3 * 1448);

    /* the guest closes: the peer acknowledges its FIN with its own */
    d.seq = 501 + 3 * 1448;
    d.len = 0;
    d.flags = F_ACK | F_FIN;
    send_seg(&p, 40001, SINK_PORT, &d);
    expect_seg(&p, &s);
    g_assert_cmphex(s.flags, ==, F_ACK | F_FIN);
    g_assert_cmpuint(s.ack, ==, d.seq + 1);
    g_assert_cmpuint(s.seq, ==, next);
    d.flags = F_ACK;
    d.seq++;
    d.ack = next + 1;
    send_seg(&p, 40001, SINK_PORT, &d);
    qtest_clock_step(p.qts, 5ll * 1000 * 1000 * 1000);
    g_assert_true(no_frame(&p));
    peer_stop(&p);
}

/*
 * With connect-back-port, a connection to the sink brings one back to the
 * guest, as iperf -d's server makes: a SYN with Linux's options, and once
 * the guest accepts, the initial window of data.
 */
static void test_connect_back(void)
{
    Peer p = peer_start_with(",connect-back-port=5003");
    Seg sa, syn, s, synack = { .flags = F_SYN | F_ACK, .seq = 9000,
                               .win = 16384, .mss = 1460, .wscale = 0,
                               .sack_ok = true, .ts = true, .tsval = 3000 };

    connect_to(&p, 40010, SINK_PORT, 800, 512, &sa);
    expect_seg(&p, &syn);
    g_assert_cmphex(syn.flags, ==, F_SYN);
    g_assert_cmpint(syn.mss, ==, 1460);
    g_assert_cmpint(syn.wscale, ==, 7);
    g_assert_true(syn.sack_ok);
    g_assert_true(syn.ts);
    /* the guest answers from 5003 to the peer's port, 40000 + its slot */
    synack.ack = syn.seq + 1;
    synack.tsecr = syn.tsval;
    send_seg(&p, 5003, 40001, &synack);
    expect_seg(&p, &s);
    g_assert_cmphex(s.flags, ==, F_ACK);
    g_assert_cmpuint(s.ack, ==, 9001);
    g_assert_cmpuint(s.seq, ==, syn.seq + 1);
    g_assert_cmpuint(s.tsecr, ==, 3000);
    /* ten segments: the initial window, inside the guest's 16 KB */
    for (int i = 0; i < 10; i++) {
        expect_seg(&p, &s);
        g_assert_cmpuint(s.seq, ==, syn.seq + 1 + i * 1448);
        g_assert_cmpuint(s.len, ==, 1448);
    }
    g_assert_true(no_frame(&p));
    peer_stop(&p);
}

/* No service, no connection, or a segment that makes no sense */
static void test_resets(void)
{
    Peer p = peer_start();
    Seg s, syn = { .flags = F_SYN, .seq = 7000, .win = 1000, .mss = -1,
                   .wscale = -1 };
    Seg stray = { .flags = F_ACK, .seq = 1, .ack = 12345, .win = 1000,
                  .mss = -1, .wscale = -1 };

    send_seg(&p, 40002, 80, &syn);
    expect_seg(&p, &s);
    g_assert_cmphex(s.flags, ==, F_RST | F_ACK);
    g_assert_cmpuint(s.ack, ==, 7001);

    send_seg(&p, 40003, SINK_PORT, &stray);
    expect_seg(&p, &s);
    g_assert_cmphex(s.flags, ==, F_RST);
    g_assert_cmpuint(s.seq, ==, 12345);

    /* without options: MSS 536, no scaling, SACK or timestamps */
    send_seg(&p, 40004, SOURCE_PORT, &syn);
    expect_seg(&p, &s);
    g_assert_cmphex(s.flags, ==, F_SYN | F_ACK);
    g_assert_cmpint(s.wscale, ==, -1);
    g_assert_false(s.sack_ok);
    g_assert_false(s.ts);
    g_assert_cmpuint(s.win, ==, 65535);
    peer_stop(&p);
}

/* Truncated frames and malformed options: ignored, no crash */
static void test_bad_input(void)
{
    Peer p = peer_start();
    uint8_t f[1514] = { 0 };
    uint8_t *ip = f + 14, *tcp = ip + 20;
    Seg sa;

    memcpy(f + 6, guest_mac, 6);
    stw_be_p(f + 12, 0x0800);
    ip[0] = 0x45;
    ip[9] = 6;
    stl_be_p(ip + 12, GUEST_IP);
    stl_be_p(ip + 16, PEER_IP);
    stw_be_p(tcp, 40005);
    stw_be_p(tcp + 2, SOURCE_PORT);
    tcp[13] = F_SYN;
    /* IP length beyond the frame, header lengths beyond the packet */
    stw_be_p(ip + 2, 1400);
    tcp[12] = 0x50;
    send_frame(&p, f, 60);
    stw_be_p(ip + 2, 40);
    tcp[12] = 0xf0;
    send_frame(&p, f, 60);
    ip[0] = 0x4f;
    send_frame(&p, f, 60);
    g_assert_true(no_frame(&p));
    ip[0] = 0x45;
    /*
     * A SYN whose options are an option of length 0, one past the
     * header, a lone kind byte: the options end there, and the SYN is
     * answered (again, for the same SYN).
     */
    stw_be_p(ip + 2, 48);
    tcp[12] = 0x70;
    memcpy(tcp + 20, (uint8_t[]) { 2, 0, 3, 3, 5, 40, 0, 0 }, 8);
    send_frame(&p, f, 62);
    expect_seg(&p, &sa);
    g_assert_cmphex(sa.flags, ==, F_SYN | F_ACK);
    memcpy(tcp + 20, (uint8_t[]) { 1, 1, 5, 40, 0, 0, 0, 0 }, 8);
    send_frame(&p, f, 62);
    expect_seg(&p, &sa);
    g_assert_cmphex(sa.flags, ==, F_SYN | F_ACK);
    memcpy(tcp + 20, (uint8_t[]) { 1, 1, 1, 1, 1, 1, 1, 8 }, 8);
    send_frame(&p, f, 62);
    expect_seg(&p, &sa);
    g_assert_cmphex(sa.flags, ==, F_SYN | F_ACK);
    /* a fragment, a short frame */
    stw_be_p(ip + 6, 0x2000);
    send_frame(&p, f, 62);
    send_frame(&p, f, 20);
    g_assert_true(no_frame(&p));
    /* a tiny MSS is raised to 88 */
    {
        Seg syn = { .flags = F_SYN, .seq = 1, .win = 1000, .mss = 1,
                    .wscale = 14, .sack_ok = true };
        Seg ack = { .flags = F_ACK, .seq = 2, .win = 1000, .mss = -1,
                    .wscale = -1 };
        Seg s;

        send_seg(&p, 40006, SOURCE_PORT, &syn);
        expect_seg(&p, &sa);
        ack.ack = sa.seq + 1;
        send_seg(&p, 40006, SOURCE_PORT, &ack);
        expect_seg(&p, &s);
        g_assert_cmpuint(s.len, ==, 88);
    }
    peer_stop(&p);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);

#ifndef _WIN32
    qtest_add_func("/am335x-bench-peer/arp", test_arp);
    qtest_add_func("/am335x-bench-peer/source", test_source);
    qtest_add_func("/am335x-bench-peer/sink", test_sink);
    qtest_add_func("/am335x-bench-peer/connect-back", test_connect_back);
    qtest_add_func("/am335x-bench-peer/resets", test_resets);
    qtest_add_func("/am335x-bench-peer/bad-input", test_bad_input);
    qtest_add_func("/am335x-bench-peer/interrupt-moderation",
                   test_interrupt_moderation);
#endif
    return g_test_run();
}
