"""Guest tests of the CPSW Ethernet switch (issue 5): the real ti_cpsw_new,
davinci_mdio and PHY drivers get an address from QEMU's user-mode network
by DHCP, ping its gateway, and move data both ways over TCP, checked by
sha256 on both sides."""

import hashlib
import os
import re
import socket
import threading

import guest as g
from suite import test, booted, load_modules

MiB = 1024 * 1024
TCP_BYTES = 4 * MiB
GUEST_PORT = 5001
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


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def check(vm, command, timeout=60):
    status, out = vm.shell(command, timeout)
    for line in out.splitlines():
        print("#   " + line)
    if status != 0:
        raise g.GuestError("%r exited with %d" % (command, status))
    return out


def bring_up(vm):
    """Loads the drivers, waits for the PHY's link and runs DHCP."""
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


def check_tcp(board, kernel, timeout):
    """TCP both ways: the host sends TCP_BYTES to a guest listener through
    a hostfwd, then the guest sends them back to a host listener through
    the gateway 10.0.2.2; each side's sha256 must match."""
    data = os.urandom(TCP_BYTES)
    digest = hashlib.sha256(data).hexdigest()
    fwd_port, back_port = free_port(), free_port()
    received = {}

    def sink():
        with socket.socket() as srv:
            srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            srv.bind(("127.0.0.1", back_port))
            srv.listen(1)
            srv.settimeout(timeout)
            conn, _ = srv.accept()
            with conn:
                conn.settimeout(timeout)
                buf = bytearray()
                while len(buf) < TCP_BYTES:
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    buf += chunk
                received["data"] = bytes(buf)

    nic = "user,hostfwd=tcp:127.0.0.1:%d-:%d" % (fwd_port, GUEST_PORT)
    with booted(board, kernel, "net-tcp", timeout,
                extra_args=["-nic", nic] + DEBUG_ARGS) as vm:
        bring_up(vm)
        # Host -> guest
        vm.send("nc -l -p %d < /dev/null > /tmp/rx.bin &\n" % GUEST_PORT)
        check(vm, "sleep 1")
        with socket.create_connection(("127.0.0.1", fwd_port), 30) as c:
            c.sendall(data)
        out = check(vm, "for i in $(seq 300); do [ $(stat -c %%s /tmp/rx.bin) "
                        "-ge %d ] && break; sleep 0.2; done; wait; "
                        "ls -l /tmp/rx.bin; sha256sum /tmp/rx.bin" % TCP_BYTES, 120)
        if digest not in out:
            raise g.GuestError("host->guest: sha256 mismatch")
        # Guest -> host
        t = threading.Thread(target=sink, daemon=True)
        t.start()
        check(vm, "nc 10.0.2.2 %d < /tmp/rx.bin" % back_port, 120)
        t.join(timeout)
        got = received.get("data", b"")
        if hashlib.sha256(got).hexdigest() != digest:
            raise g.GuestError("guest->host: got %d bytes, sha256 mismatch"
                               % len(got))


NET_TESTS = {
    "net-dhcp": check_dhcp_ping,
    "net-tcp": check_tcp,
}
for _name, _fn in NET_TESTS.items():
    for _board in g.BOARDS:
        for _kernel in g.KERNELS:
            test("%s/%s/%s" % (_name, _board, _kernel), 240)(
                lambda t, f=_fn, b=_board, k=_kernel: f(b, k, t))
