"""Guest tests of the CPSW Ethernet switch (issue 5): the real ti_cpsw_new,
davinci_mdio and PHY drivers get an address from QEMU's user-mode network
by DHCP, ping its gateway, and move data both ways over TCP, checked by
sha256 on both sides."""

import hashlib
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time

import guest as g
from suite import test, test_pairs, booted, load_modules, Skip, ALL_PAIRS, CROSS, CROSS_OTHER
from suite import data_server, fetch_sha256, free_port

MiB = 1024 * 1024
TCP_BYTES = 64 * MiB
PACING_DATAGRAMS = 4000
PACING_SIZE = 184         # UDP payload: 250 byte times on the wire
PACED_USECS = 500         # at most 2000 RX interrupts/s
STATS_BYTES = 2 * MiB
GUEST_PORT = 5001
SEND_TIMEOUT = 200        # s for the host's whole send to the guest
DEBUG_ARGS = os.environ.get("NET_TEST_QEMU_ARGS", "").split()

# udhcpc runs this with the lease in its environment: busybox has no
# default script in this root file system.
UDHCPC_SCRIPT = r"""#!/bin/sh
[ "$1" = bound ] || [ "$1" = renew ] || exit 0
ip addr flush dev $interface
ip addr add $ip/${mask:-24} dev $interface
[ -n "$router" ] && ip route add default via ${router%% *} dev $interface
exit 0
"""


def check(vm, command, timeout=60):
    status, out = vm.shell(command, timeout)
    for line in out.splitlines():
        print("#   " + line)
    if status != 0:
        raise g.GuestError("%r exited with %d" % (command, status))
    return out


def bring_up(vm, modules=True):
    """Loads the drivers, waits for the PHY's link and runs DHCP."""
    if modules:
        load_modules(vm, "net")
    vm.shell("cat > /tmp/udhcpc.sh << 'EOF'\n%sEOF\nchmod +x /tmp/udhcpc.sh"
             % UDHCPC_SCRIPT)
    check(vm, "ip link set eth0 up && for i in $(seq 50); do "
              "grep -q 1 /sys/class/net/eth0/carrier && break; sleep 0.2; "
              "done; cat /sys/class/net/eth0/carrier")
    out = check(vm, "udhcpc -i eth0 -n -q -t 5 -s /tmp/udhcpc.sh; "
                    "ip -4 addr show eth0", 90)
    if "inet 10.0.2.15/24" not in out:
        raise g.GuestError("eth0 did not get 10.0.2.15/24 by DHCP")
    status, out = vm.shell("dmesg | grep -E 'cpsw|mdio|4a10|eth0' | "
                           "grep -v 'error:0 nsec' | "
                           "grep -i -E 'error|fail|timeout|timed out|warn'")
    if status == 0:
        raise g.GuestError("driver errors in dmesg:\n" + out)


def check_dhcp_ping(board, kernel, timeout):
    with booted(board, kernel, "net-dhcp", timeout,
                extra_args=["-nic", "user"]) as vm:
        bring_up(vm)
        out = check(vm, "ping -c 3 -W 5 10.0.2.2", 60)
        if "3 packets received" not in out:
            raise g.GuestError("ping lost packets")
        # The switch's statistics count the traffic, as ethtool reads them.
        out = check(vm, "ethtool -S eth0")
        good = re.search(r"Good Rx Frames: (\d+)", out)
        if not good or int(good.group(1)) < 5:
            raise g.GuestError("ethtool -S: no received frames counted")


def send_to_guest(vm, fwd_port, data, path="/tmp/rx.bin"):
    """Sends DATA from the host to a guest nc listening behind the hostfwd
    to FWD_PORT, and checks its sha256 in the guest."""
    vm.send("nc -l -p %d < /dev/null > %s &\n" % (GUEST_PORT, path))
    check(vm, "sleep 1")
    with socket.create_connection(("127.0.0.1", fwd_port), 30) as c:
        # sendall's timeout bounds the whole transfer, which a loaded host
        # can stretch well past 30 s.
        c.settimeout(SEND_TIMEOUT)
        c.sendall(data)
    out = check(vm, "for i in $(seq 300); do [ $(stat -c %%s %s) -ge %d ] && "
                    "break; sleep 0.2; done; wait; ls -l %s; sha256sum %s"
                % (path, len(data), path, path), 120)
    if hashlib.sha256(data).hexdigest() not in out:
        raise g.GuestError("host->guest: sha256 mismatch")


# The CPSW's C0_RX_PEND line: INTC input 41 (am33xx-l4.dtsi)
RX_IRQ_RE = re.compile(r"^\s*\d+:\s+(\d+)\s+\S+\s+41\s+.*4a10", re.M)


def rx_interrupts(vm):
    out = check(vm, "cat /proc/interrupts")
    m = RX_IRQ_RE.search(out)
    if not m:
        raise g.GuestError("no CPSW RX line (INTC 41) in /proc/interrupts")
    return int(m.group(1))


def udp_burst(port, count, size, batch=200, gap=0.02):
    """Sends COUNT datagrams of SIZE bytes to 127.0.0.1:PORT, BATCH at a
    time GAP apart: 10000/s offered, twice what a 10 Mbit/s wire takes."""
    payload = bytes(size)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for i in range(0, count, batch):
            for _ in range(min(batch, count - i)):
                s.sendto(payload, ("127.0.0.1", port))
            time.sleep(gap)


def guest_counter(vm, path):
    return int(check(vm, "cat %s" % path).split()[-1])


def check_pacing(board, kernel, timeout):
    """ethtool -C rx-usecs 500 turns on the wrapper's interrupt pacing, and
    the same stream of datagrams then takes fewer RX interrupts per MiB.

    The stream has to arrive evenly and faster than the pacing's 2000
    interrupts/s, whatever the host's load.  So the machine runs with
    timing=on and the link forced to 10 Mbit/s: the host's datagrams queue
    in QEMU and the port lets one in per wire time, 250 byte times (200 us)
    for a 184-byte datagram, 5000 frames/s in the guest's clock.  Under
    icount the guest's speed is fixed in that clock, too (a loaded host
    otherwise slows it until NAPI takes several frames per interrupt).
    Unpaced, the guest takes each frame in its own interrupt; paced
    (IMAX 2), the 5 completions of each 1 ms window are above 2 IMAX, so
    the pacer blocks the next window whole and lets one interrupt out at
    its end: about one interrupt a ms.  Measured (2026-12-03): 4000-4001
    interrupts for 4001 frames unpaced, 979-1024 for 4000 paced."""
    fwd_port = free_port()
    nic = "user,hostfwd=udp:127.0.0.1:%d-:%d" % (fwd_port, GUEST_PORT)
    per_mib = {}
    with booted(board, kernel, "net-pacing", timeout, timing=True,
                extra_args=["-icount", "shift=1", "-nic", nic] +
                DEBUG_ARGS) as vm:
        bring_up(vm)
        check(vm, "ethtool -s eth0 speed 10 duplex full autoneg off; "
                  "sleep 1")
        wait_carrier(vm, 1)
        check(vm, "ethtool eth0 | grep -E 'Speed|Duplex|Link detected'")
        vm.send("nc -u -l -p %d > /dev/null &\n" % GUEST_PORT)
        check(vm, "sleep 1")
        for usecs in (0, PACED_USECS):
            # ethtool fails when nothing changes: -c is the verdict.
            vm.shell("ethtool -C eth0 rx-usecs %d" % usecs)
            out = check(vm, "ethtool -c eth0")
            if not re.search(r"rx-usecs:\s*%d\b" % usecs, out):
                raise g.GuestError("ethtool -c: rx-usecs is not %d" % usecs)
            rx = "/sys/class/net/eth0/statistics/rx_packets"
            frames, before = guest_counter(vm, rx), rx_interrupts(vm)
            udp_burst(fwd_port, PACING_DATAGRAMS, PACING_SIZE)
            # Until the queue in QEMU has drained into the guest.
            check(vm, "n=0; while [ $n != $(cat %s) ]; do n=$(cat %s); "
                      "sleep 0.5; done" % (rx, rx), 120)
            frames = guest_counter(vm, rx) - frames
            irqs = rx_interrupts(vm) - before
            if frames < PACING_DATAGRAMS // 2:
                raise g.GuestError("only %d of %d datagrams arrived"
                                   % (frames, PACING_DATAGRAMS))
            per_mib[usecs] = irqs / (frames * PACING_SIZE / MiB)
            print("# rx-usecs %d: %d frames, %d RX interrupts, %.1f per MiB"
                  % (usecs, frames, irqs, per_mib[usecs]))
        # 5 completions a ms keep the pacer's block whole: 1 interrupt a ms.
        if not per_mib[PACED_USECS] < 0.75 * per_mib[0]:
            raise g.GuestError("pacing at %d us did not lower the RX "
                               "interrupts per MiB by a quarter"
                               % PACED_USECS)


def wait_carrier(vm, value, seconds=10):
    out = check(vm, "for i in $(seq %d); do grep -q %d "
                    "/sys/class/net/eth0/carrier && break; sleep 0.2; done; "
                    "cat /sys/class/net/eth0/carrier; ip link show eth0"
                % (seconds * 5, value))
    if not re.search(r"^%d$" % value, out, re.M):
        raise g.GuestError("eth0 carrier is not %d after %ds"
                           % (value, seconds))
    return out


def check_carrier(board, kernel, timeout):
    """QMP set_link takes the cable out and puts it back: the PHY's link
    status reaches the guest's phylib, which reports the carrier."""
    with booted(board, kernel, "net-carrier", timeout,
                extra_args=["-nic", "user,id=n0"] + DEBUG_ARGS) as vm:
        bring_up(vm)
        check(vm, "dmesg -c > /dev/null")
        vm.qmp("set_link", name="n0", up=False)
        out = wait_carrier(vm, 0)
        if "NO-CARRIER" not in out:
            raise g.GuestError("ip link does not show NO-CARRIER")
        check(vm, "dmesg | grep 'Link is Down'")
        status, out = vm.shell("dmesg | grep -i -E 'cpsw.*(fail|error)'")
        if status == 0:
            raise g.GuestError("driver errors at link down:\n" + out)
        vm.qmp("set_link", name="n0", up=True)
        wait_carrier(vm, 1)
        check(vm, "dmesg | grep 'Link is Up'")
        out = check(vm, "ping -c 3 -W 5 10.0.2.2", 60)
        if "3 packets received" not in out:
            raise g.GuestError("ping lost packets after the link came back")


STATS = ("Good Rx Frames", "Rx Octets", "Good Tx Frames", "Tx Octets")


def switch_stats(vm):
    out = check(vm, "ethtool -S eth0 | grep -E '^ +(%s):'" % "|".join(STATS))
    # Only whole counter lines: the console may echo the command wrapped.
    stats = dict((m.group(1), int(m.group(2))) for m in re.finditer(
        r"^ +(%s): (\d+)$" % "|".join(STATS), out, re.M))
    if set(stats) != set(STATS):
        raise g.GuestError("ethtool -S lacks some of %s" % ", ".join(STATS))
    return stats


def check_stats(board, kernel, timeout):
    """The switch's statistics, as ethtool -S reads them, count at least
    the bytes and full-size frames of a transfer each way."""
    data = os.urandom(STATS_BYTES)
    fwd_port = free_port()
    nic = "user,hostfwd=tcp:127.0.0.1:%d-:%d" % (fwd_port, GUEST_PORT)
    with booted(board, kernel, "net-stats", timeout,
                extra_args=["-nic", nic] + DEBUG_ARGS) as vm:
        bring_up(vm)
        before = switch_stats(vm)
        send_to_guest(vm, fwd_port, data)
        mid = switch_stats(vm)
        with socket.socket() as srv:
            srv.bind(("127.0.0.1", 0))
            srv.listen(1)
            vm.send("nc 10.0.2.2 %d < /tmp/rx.bin > /dev/null &\n"
                    % srv.getsockname()[1])
            srv.settimeout(60)
            conn, _ = srv.accept()
            with conn:
                conn.settimeout(60)
                got = 0
                while got < len(data):
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    got += len(chunk)
        # nc may see the host's close as an error: the byte count counts.
        vm.shell("wait")
        if got != len(data):
            raise g.GuestError("guest->host: %d of %d bytes" % (got, len(data)))
        after = switch_stats(vm)
        frames = len(data) // 1514
        for name, start, end, least in (
                ("Rx Octets", before, mid, len(data)),
                ("Good Rx Frames", before, mid, frames),
                ("Tx Octets", mid, after, len(data)),
                ("Good Tx Frames", mid, after, frames)):
            grew = end[name] - start[name]
            print("# %s grew by %d (at least %d expected)"
                  % (name, grew, least))
            if grew < least:
                raise g.GuestError("%s grew by %d < %d" % (name, grew, least))


def check_iperf(board, kernel, timeout):
    """iperf 2 in the guest against the host's: 3 s each way through the
    gateway; both report the bandwidth, which must be more than zero."""
    if not shutil.which("iperf"):
        raise Skip("no iperf on the host")
    port = free_port()
    server = subprocess.Popen(["iperf", "-s", "-B", "127.0.0.1", "-p",
                               str(port)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        with booted(board, kernel, "net-iperf", timeout,
                    extra_args=["-nic", "user"] + DEBUG_ARGS) as vm:
            bring_up(vm)
            for flags, what in (("", "guest->host"), ("-R", "host->guest")):
                out = check(vm, "iperf -c 10.0.2.2 -p %d -t 3 %s"
                            % (port, flags), 60)
                m = re.search(r"([\d.]+) ([KMG])bits/sec", out)
                if not m or float(m.group(1)) <= 0:
                    raise g.GuestError("iperf %s: no bandwidth" % what)
                print("# iperf %s: %s %sbit/s" % (what, m.group(1),
                                                  m.group(2)))
    finally:
        server.kill()
        server.wait()


def check_tcp(board, kernel, timeout):
    """TCP both ways, TCP_BYTES of random data, checked by sha256 on the
    receiving side: the guest's wget fetches them from an HTTP server on
    the host through the gateway 10.0.2.2, then the host fetches the
    guest's copy from busybox httpd through a hostfwd.  (busybox nc moves
    well under 1 MiB/s; wget and httpd, with sendfile, several.)"""
    data = os.urandom(TCP_BYTES)
    digest = hashlib.sha256(data).hexdigest()
    fwd_port = free_port()
    server = data_server(data)
    nic = "user,hostfwd=tcp:127.0.0.1:%d-:%d" % (fwd_port, GUEST_PORT)
    try:
        with booted(board, kernel, "net-tcp", timeout,
                    extra_args=["-nic", nic] + DEBUG_ARGS) as vm:
            bring_up(vm)
            # Host -> guest
            start = time.monotonic()
            out = check(vm, "wget -q -O /tmp/rx.bin http://10.0.2.2:%d/data "
                            "&& ls -l /tmp/rx.bin && sha256sum /tmp/rx.bin"
                        % server.server_address[1], timeout)
            if digest not in out:
                raise g.GuestError("host->guest: sha256 mismatch")
            print("# host->guest: %d MiB in %.1f s (with the sha256)"
                  % (len(data) // MiB, time.monotonic() - start))
            # Guest -> host
            check(vm, "busybox httpd -p %d -h /tmp" % GUEST_PORT)
            start = time.monotonic()
            got, got_digest = fetch_sha256("http://127.0.0.1:%d/rx.bin"
                                           % fwd_port)
            if got != len(data) or got_digest != digest:
                raise g.GuestError("guest->host: got %d bytes, sha256 "
                                   "mismatch" % got)
            print("# guest->host: %d MiB in %.1f s"
                  % (len(data) // MiB, time.monotonic() - start))
    finally:
        server.shutdown()
        server.server_close()


# Filtering: frames a host-side peer sends through a UDP socket netdev
FILTER_NET = "192.168.76"
FILTER_COUNT = 4          # frames per probe
FILTER_ETHERTYPE = 0x88b5  # IEEE 802 local experimental: no stack takes it
FILTER_PEER_MAC = bytes.fromhex("020000000001")
OTHER_MAC = bytes.fromhex("02000000a0b0")
GROUP = "239.1.2.3"       # its MAC: 01:00:5e:01:02:03
GROUP_MAC = bytes.fromhex("01005e010203")
GROUP_IGMP = "030201EF"   # as /proc/net/igmp shows it on a little-endian CPU
OTHER_GROUP_MAC = bytes.fromhex("01005e010204")
VLAN_ID, OTHER_VLAN_ID = 100, 200


def frame(dst, vid=None, src=FILTER_PEER_MAC):
    """An Ethernet frame without FCS, padded to the minimum of 60 bytes
    (64 on the wire), with an 802.1Q tag if VID is given."""
    head = dst + src
    if vid is not None:
        head += (0x8100).to_bytes(2, "big") + vid.to_bytes(2, "big")
    head += FILTER_ETHERTYPE.to_bytes(2, "big") + b"am335x-filter"
    return head + bytes(max(0, 60 - len(head)))


class Wire:
    """The host end of a -nic socket,udp=... cable: each UDP datagram is
    one Ethernet frame."""

    def __init__(self):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            udp.bind(("127.0.0.1", 0))
            self.qemu_port = udp.getsockname()[1]

    def nic(self):
        return "socket,udp=127.0.0.1:%d,localaddr=127.0.0.1:%d" % (
            self.sock.getsockname()[1], self.qemu_port)

    def send(self, data, count=FILTER_COUNT):
        for _ in range(count):
            self.sock.sendto(data, ("127.0.0.1", self.qemu_port))

    def close(self):
        self.sock.close()


def rx_packets(vm, dev):
    status, out = vm.shell("cat /sys/class/net/%s/statistics/rx_packets"
                           % dev)
    m = re.search(r"^(\d+)$", out, re.M)
    if status != 0 or not m:
        raise g.GuestError("no rx_packets for %s: %s" % (dev, out))
    return int(m.group(1))


def probe(vm, wire, what, data, expect, devs=("eth0",)):
    """Sends FILTER_COUNT copies of DATA; each device in DEVS must count
    EXPECT of them received (0 or all)."""
    before = dict((d, rx_packets(vm, d)) for d in devs)
    want = FILTER_COUNT if expect else 0
    wire.send(data)
    # Frames that pass arrive within a few ms: wait up to 2 s for them.
    # Those that should not pass get 0.3 s to show up all the same.
    last = "/sys/class/net/%s/statistics/rx_packets" % devs[-1]
    if expect:
        vm.shell("for i in $(seq 20); do [ $(cat %s) -ge %d ] && break; "
                 "sleep 0.1; done" % (last, before[devs[-1]] + want))
    else:
        vm.shell("sleep 0.3")
    got = dict((d, rx_packets(vm, d) - before[d]) for d in devs)
    print("# %s: %s received (%d expected)" % (
        what, ", ".join("%s %d" % kv for kv in sorted(got.items())), want))
    for d, n in got.items():
        if n != want:
            raise g.GuestError("%s: %s received %d frames, not %d"
                               % (what, d, n, want))


SWITCH_DEVLINK = "platform/4a100000.switch"
SECOND_PHY_PHANDLE = 0xc5e1


def two_port_dtb(board, kernel, path):
    """The stock DTB with slave port 2 enabled, its PHY at MDIO address 1
    (where the model fits one when port 2 has a netdev).  6.1's
    ti_cpsw_new oopses when a port joins a bridge while the other port is
    disabled in the DT (cpsw_port_offload_fwd_mark_update() takes the
    missing port's netdev), as on both stock DTBs."""
    stock = os.path.join(g.kernel_dir(kernel), "dtbs", g.BOARDS[board])
    shutil.copy(stock, path)
    sw = CPSW_MODULE + "/switch@0"
    phy, port = sw + "/mdio@1000/ethernet-phy@1", sw + "/ethernet-ports/port@2"

    def fdtput(*args):
        subprocess.run(["fdtput", path] + list(args), check=True)

    fdtput("-c", phy)
    fdtput("-t", "x", phy, "reg", "1")
    fdtput("-t", "x", phy, "phandle", "%x" % SECOND_PHY_PHANDLE)
    fdtput("-t", "s", port, "status", "okay")
    fdtput("-t", "x", port, "phy-handle", "%x" % SECOND_PHY_PHANDLE)
    fdtput("-t", "s", port, "phy-mode", PHY_MODE[board])
    return path


def probe_vlan(vm, wire, mac, vlan_dev, label, leave, left_label):
    """Frames tagged for VLAN_ID reach VLAN_DEV, those for OTHER_VLAN_ID
    are dropped; after the LEAVE command, VLAN_ID is dropped too."""
    probe(vm, wire, "%stagged for VLAN %d" % (label, VLAN_ID),
          frame(mac, VLAN_ID), True, ("eth0", vlan_dev))
    probe(vm, wire, "%stagged for VLAN %d" % (label, OTHER_VLAN_ID),
          frame(mac, OTHER_VLAN_ID), False)
    check(vm, leave)
    probe(vm, wire, label + left_label, frame(mac, VLAN_ID), False)


def check_switch_vlan(vm, wire, mac):
    """Switch mode (devlink switch_mode), the port in a VLAN-filtering
    bridge, as cpsw_switchdev.rst describes: VLAN 100 added to the port and
    to the bridge itself (the host port) reaches br0.100; frames tagged for
    VLAN 200, which no port is a member of, are dropped; so is VLAN 100
    once the port leaves it."""
    status, _ = vm.shell("which devlink bridge && modprobe bridge")
    if status != 0:
        print("# no devlink, bridge tool or bridge module: switch mode "
              "part skipped")
        return
    check(vm, "ip link set eth0 down && devlink dev param set %s "
              "name switch_mode value true cmode runtime && "
              "devlink dev param show %s name switch_mode"
          % (SWITCH_DEVLINK, SWITCH_DEVLINK))
    check(vm, "ip link add name br0 type bridge vlan_filtering 1 && "
              "ip link set dev eth0 master br0 && "
              "ip link set dev eth0 up && ip link set dev br0 up && "
              "bridge vlan add dev eth0 vid %d master && "
              "bridge vlan add dev br0 vid %d self && "
              "ip link add link br0 name br0.%d type vlan id %d && "
              "ip link set br0.%d up && bridge vlan show"
          % ((VLAN_ID,) * 5))
    # The bridge forwards only once the port is in the forwarding state
    # (3), which follows the carrier.
    check(vm, "for i in $(seq 50); do grep -q 3 "
              "/sys/class/net/eth0/brport/state && break; sleep 0.2; done; "
              "grep 3 /sys/class/net/eth0/brport/state")
    probe_vlan(vm, wire, mac, "br0.%d" % VLAN_ID, "switch mode: ",
               "bridge vlan del dev eth0 vid %d master" % VLAN_ID,
               "VLAN %d without the port" % VLAN_ID)


def check_filtering(board, kernel, timeout):
    """The ALE's filtering, as ti_cpsw_new programs it (dual-MAC mode, the
    default): frames from a host-side peer reach the stack only if the ALE
    forwards them to the host port.
    - unicast to another MAC: only in promiscuous mode (P0_UNI_FLOOD),
      which also lets unregistered multicast through (the VLAN's
      unregistered-multicast flood mask gets the host port);
    - multicast: only for a group the guest joined (a multicast entry),
      not before the join nor after the leave (unregistered multicast
      floods nowhere), and never for another group;
    - with the 8021q module: frames tagged for a VLAN the guest added
      reach eth0.100, and those tagged for another VLAN are dropped
      (unknown VLAN); after the VLAN is deleted, its frames are too;
    - with devlink, bridge and the bridge module: the same in switch
      mode, through a VLAN-filtering bridge (check_switch_vlan)."""
    wire = Wire()
    tmp = tempfile.mkdtemp(prefix="am335x-filter-")
    kw = {}
    if g.debian(kernel):
        # Room for the switch mode part: a second port, its PHY and netdev
        kw = dict(dtb=two_port_dtb(board, kernel,
                                   os.path.join(tmp, "two-port.dtb")))
        kw["extra_args"] = ["-nic", wire.nic(), "-nic", "user"] + DEBUG_ARGS
    else:
        kw["extra_args"] = ["-nic", wire.nic()] + DEBUG_ARGS
    try:
        with booted(board, kernel, "net-filter", timeout, **kw) as vm:
            load_modules(vm, "net")
            check(vm, "ip link set eth0 up && for i in $(seq 50); do "
                      "grep -q 1 /sys/class/net/eth0/carrier && break; "
                      "sleep 0.2; done; cat /sys/class/net/eth0/carrier")
            check(vm, "ip addr add %s.2/24 dev eth0 && "
                      "ip route add 224.0.0.0/4 dev eth0" % FILTER_NET)
            out = check(vm, "cat /sys/class/net/eth0/address")
            m = re.search(r"^([0-9a-f:]{17})$", out, re.M)
            mac = bytes.fromhex(m.group(1).replace(":", ""))

            # The guest's own address passes: the wire works.
            probe(vm, wire, "unicast to eth0", frame(mac), True)
            probe(vm, wire, "unicast to another MAC", frame(OTHER_MAC), False)
            check(vm, "ip link set eth0 promisc on")
            probe(vm, wire, "promisc: unicast to another MAC",
                  frame(OTHER_MAC), True)
            probe(vm, wire, "promisc: a group nobody joined",
                  frame(OTHER_GROUP_MAC), True)
            check(vm, "ip link set eth0 promisc off")
            probe(vm, wire, "promisc off: unicast to another MAC",
                  frame(OTHER_MAC), False)

            probe(vm, wire, "group before the join", frame(GROUP_MAC), False)
            # iperf 2 bound to a group address joins it (IGMP, and the
            # driver's multicast list); killing it leaves.
            vm.send("iperf -s -u -B %s -p 5009 > /dev/null 2>&1 &\n" % GROUP)
            check(vm, "for i in $(seq 25); do grep -q %s /proc/net/igmp "
                      "&& break; sleep 0.2; done; grep %s /proc/net/igmp"
                  % (GROUP_IGMP, GROUP_IGMP))
            probe(vm, wire, "joined group", frame(GROUP_MAC), True)
            probe(vm, wire, "another group", frame(OTHER_GROUP_MAC), False)
            check(vm, "kill $!; wait; for i in $(seq 25); do "
                      "grep -q %s /proc/net/igmp || break; sleep 0.2; "
                      "done; ! grep %s /proc/net/igmp"
                  % (GROUP_IGMP, GROUP_IGMP))
            probe(vm, wire, "group after the leave", frame(GROUP_MAC), False)

            if g.debian(kernel):
                status, _ = vm.shell("modprobe 8021q")
            else:
                status, _ = vm.shell("test -d /proc/net/vlan")
            if status != 0:
                print("# no 802.1Q support in the %s kernel: VLAN part skipped"
                      % kernel)
                return
            check(vm, "ip link add link eth0 name eth0.%d type vlan id %d && "
                      "ip link set eth0.%d up" % ((VLAN_ID,) * 3))
            probe_vlan(vm, wire, mac, "eth0.%d" % VLAN_ID, "",
                       "ip link del eth0.%d" % VLAN_ID,
                       "tagged for the deleted VLAN %d" % VLAN_ID)
            check_switch_vlan(vm, wire, mac)
    finally:
        wire.close()
        shutil.rmtree(tmp, ignore_errors=True)


CPSW_MODULE = ("/ocp/interconnect@4a000000/segment@0/"
               "target-module@100000")
PHY_MODE = {"beaglebone-black": "mii", "am335x-evm": "rgmii-id"}
LEGACY_PHY_PHANDLE = 0xc5e0


def legacy_dtb(board, kernel, path):
    """The board's stock DTB turned to the legacy CPSW binding, as the
    4.x-5.x device trees had it: the "ti,cpsw" node (kept, disabled, in
    am33xx-l4.dtsi) enabled with one slave and its PHY on the legacy
    node's MDIO; the "ti,cpsw-switch" node disabled."""
    stock = os.path.join(g.kernel_dir(kernel), "dtbs", g.BOARDS[board])
    shutil.copy(stock, path)
    mac, sw = CPSW_MODULE + "/ethernet@0", CPSW_MODULE + "/switch@0"
    phy = mac + "/mdio@1000/ethernet-phy@0"

    def fdtput(*args):
        subprocess.run(["fdtput", path] + list(args), check=True)

    fdtput("-t", "s", sw, "status", "disabled")
    fdtput("-t", "s", mac, "status", "okay")
    fdtput("-t", "x", mac, "slaves", "1")
    fdtput("-r", mac + "/slave@300")
    fdtput("-t", "s", mac + "/mdio@1000", "status", "okay")
    fdtput("-c", phy)
    fdtput("-t", "x", phy, "reg", "0")
    fdtput("-t", "x", phy, "phandle", "%x" % LEGACY_PHY_PHANDLE)
    fdtput("-t", "x", mac + "/slave@200", "phy-handle",
           "%x" % LEGACY_PHY_PHANDLE)
    fdtput("-t", "s", mac + "/slave@200", "phy-mode", PHY_MODE[board])
    return path


def check_legacy(board, kernel, timeout):
    """The legacy ti_cpsw driver (single-MAC switch mode: the host's frames
    go through the ALE, undirected) on a DTB with the old binding gets its
    address by DHCP and pings the gateway."""
    tmp = tempfile.mkdtemp(prefix="am335x-legacy-")
    try:
        dtb = legacy_dtb(board, kernel, os.path.join(tmp, "legacy.dtb"))
        with booted(board, kernel, "net-legacy", timeout, dtb=dtb,
                    extra_args=["-nic", "user"] + DEBUG_ARGS) as vm:
            if g.debian(kernel):
                for module in ("davinci_mdio", "phy_gmii_sel", "smsc",
                               "at803x", "ti_cpsw"):
                    check(vm, "modprobe %s" % module)
            out = check(vm, "basename $(readlink "
                            "/sys/class/net/eth0/device/driver)")
            if not re.search(r"^cpsw$", out, re.M):
                raise g.GuestError("eth0 is not driven by the legacy cpsw")
            bring_up(vm, modules=False)
            out = check(vm, "ping -c 3 -W 5 10.0.2.2", 60)
            if "3 packets received" not in out:
                raise g.GuestError("ping lost packets")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def phc_times(out):
    return [float(t) for t in re.findall(r"clock time is (-?[0-9.]+)", out)]


def check_ptp(board, kernel, timeout):
    """The CPTS as the PTP hardware clock: ethtool names it, phc_ctl sets
    it, and it then counts at the rate of the guest's own clock."""
    with booted(board, kernel, "net-ptp", timeout,
                extra_args=["-nic", "user"]) as vm:
        load_modules(vm, "net")
        # cpsw_new registers the PTP clock when the first port opens.
        check(vm, "ip link set eth0 up")
        out = check(vm, "ethtool -T eth0")
        m = re.search(r"PTP Hardware Clock: (\d+)", out)
        if not m:
            raise g.GuestError("eth0 reports no PTP hardware clock")
        dev = "/dev/ptp" + m.group(1)
        check(vm, "cat /sys/class/ptp/ptp%s/clock_name" % m.group(1))
        out = check(vm, "phc_ctl %s set 1000 get cmp wait 2 get cmp"
                    % dev, 30)
        times = phc_times(out)
        offsets = [int(o) for o in
                   re.findall(r"offset from CLOCK_REALTIME is (-?\d+)ns", out)]
        if len(times) != 2 or len(offsets) != 2:
            raise g.GuestError("phc_ctl printed %d clock times and %d "
                               "offsets, not 2 each" % (len(times),
                                                       len(offsets)))
        if not 1000.0 <= times[0] < 1000.5:
            raise g.GuestError("PHC read %.9f just after set 1000" % times[0])
        # A loaded host can stretch the wait, never shorten it.
        if not times[1] - times[0] >= 1.95:
            raise g.GuestError("PHC advanced %.9f s over a 2 s wait"
                               % (times[1] - times[0]))
        # The rate: against the system clock, read in the same ioctl, the
        # PHC drifts less than 1 ms over the wait, however long it took.
        drift = offsets[1] - offsets[0]
        print("#   PHC - CLOCK_REALTIME drifted %d ns over %.3f s"
              % (drift, times[1] - times[0]))
        if abs(drift) > 1000000:
            raise g.GuestError("the PHC drifted %d ns from the system clock"
                               % drift)


# DHCP and the 64 MiB transfers on every pair; the rest on half of them.
NET_TESTS = {
    "net-dhcp": (check_dhcp_ping, CROSS),
    "net-tcp": (check_tcp, ALL_PAIRS),
    "net-pacing": (check_pacing, CROSS_OTHER),
    "net-carrier": (check_carrier, CROSS),
    "net-stats": (check_stats, CROSS_OTHER),
    "net-iperf": (check_iperf, CROSS),
}
test_pairs(NET_TESTS, 240)

for _board, _kernel in (("beaglebone-black", "am335x"),
                        ("am335x-evm", "debian")):
    test("net-ptp/%s/%s" % (_board, _kernel), 120)(
        lambda t, b=_board, k=_kernel: check_ptp(b, k, t))

test("net-legacy/beaglebone-black/am335x", 240)(
    lambda t: check_legacy("beaglebone-black", "am335x", t))

# One boot checks all the filtering; two pairs cover both kernels and boards.
for _board, _kernel in (("beaglebone-black", "am335x"),
                        ("am335x-evm", "debian")):
    test("net-filter/%s/%s" % (_board, _kernel), 240)(
        lambda t, b=_board, k=_kernel: check_filtering(b, k, t))
