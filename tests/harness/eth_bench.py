"""The Ethernet workloads of scripts/bench (issue 7), shared with the
determinism smoke tests: boot the AM335x EVM with timing=on under the
bench's CPU model and run tests/guest/bench-eth.sh, iperf 2 from the
guest against a peer inside QEMU, with no host socket involved.

The default peer, "pc", is tcp-bench-peer (net/tcp_bench_peer.c) on a hub
port next to the CPSW's port 1: a PC's TCP (window scaling, timestamps,
SACK recovery) with a sink on 5001 and, as iperf -d's server does, a
connection back to the guest's iperf -s -w WINDOW on 5003 that it sends
into.  "slirp", the earlier peer, is slirp's guestfwds: a sink (a null
chardev, which takes every byte at once) and a source (a zero-source
chardev, chardev/char-zero-source.c, which refills slirp's send buffer
every 10 us of virtual time) that iperf -R reads from; slirp's TCP has no
window scaling or SACK.  Both act at fixed points of the guest's virtual
time, so the figures repeat run after run."""

import os
import re

import guest as g
import storage_bench as sb

SINK = "guestfwd=tcp:10.0.2.100:5001-null"
SOURCE = "guestfwd=tcp:10.0.2.101:5001-zsrc"
SINK_ARGS = ["-nic", "user," + SINK]
PEERS_ARGS = ["-chardev", "zero-source,id=zsrc",
              "-nic", "user,%s,%s" % (SINK, SOURCE)]
# The PC peer (net/tcp_bench_peer.c): a TCP sink and source with window
# scaling and SACK, on a hub port next to the EVM's CPSW port 1.  The
# stream back comes as iperf -d's: the peer connects back to the guest's
# iperf -s on 5003 once the guest's stream to its sink is up.
PC_APPEND = " bench.ip=10.0.2.15/24 bench.sink=10.0.2.2:5001"


# The PC's NIC: an Intel 82574L under e1000e's default interrupt
# moderation (tcp-bench-peer's nic-irq), or "none", frames taken at once
PC_NIC = "e1000e"


# LINK: how the board reaches the PC.  "cpsw": the EVM's CPSW port 1 on
# the wire; "ecm": USB0's gadget, a CDC ECM function that the PC behind
# the USB cable (hw/usb/usb_gadget_host.c) hands its frames to
LINK_NIC = {"cpsw": "nic,netdev=wire",
            "ecm": "nic,netdev=wire,model=usb-gadget"}


def pc_args(rx, nic=PC_NIC, link="cpsw"):
    """QEMU arguments for the PC peer; RX: with the connection back; NIC,
    its nic-irq; LINK, as LINK_NIC."""
    return ["-netdev", "hubport,id=wire,hubid=0",
            "-netdev", "hubport,id=pc,hubid=0",
            "-net", LINK_NIC[link],
            "-device", "tcp-bench-peer,id=pc,netdev=pc,ip=10.0.2.2,"
            "nic-irq=" + nic + (",connect-back-port=5003" if rx else "")]


def run(windows, secs, name, timeout, **kwargs):
    """Returns {(pacing us, window KB): {"tx": [bytes in each second],
    "rx": [...] (with RX), "cpu": (busy, total ns), "stat": (busy, idle
    ticks of /proc/stat), "drops": frames the CPSW dropped for want of RX
    buffers}}; the keyword arguments as run_repeated's."""
    got = run_repeated(windows, secs, name, timeout, **kwargs)
    return {key: runs[0] for key, runs in got.items()}


def run_repeated(windows, secs, name, timeout, pacing=(0,), rx=True,
                 cpu_args=None, rx_ring=None, peer="pc", sysctls=(),
                 pc_nic=PC_NIC, repeats=1, link="cpsw"):
    """Runs the list of WINDOWS REPEATS times over in one boot; returns
    {(pacing us, window KB): [run's figures, as run() gives them, for each
    repeat in order]}; CPU_ARGS as storage_bench.run_timed's; RX_RING, the
    driver's RX descriptors; PEER, "slirp" (guestfwds) or "pc"
    (tcp-bench-peer); SYSCTLS, "name=value" strings the guest kernel sets
    at boot (sysctl.* on its command line); PC_NIC, the PC peer's
    nic-irq; LINK, as LINK_NIC (the PC peer only)."""
    append = ("bench.windows=%s bench.secs=%d bench.pacing=%s bench.rx=%d"
              % (",".join(map(str, windows)), secs,
                 ",".join(map(str, pacing)), 1 if rx else 0))
    if repeats != 1:
        append += " bench.repeats=%d" % repeats
    if rx_ring:
        append += " bench.rxring=%d" % rx_ring
    append += "".join(" sysctl." + kv for kv in sysctls)
    if peer == "pc":
        append += PC_APPEND + (" bench.listen=5003" if rx else "")
        if link != "cpsw":
            append += " bench.gadget=" + link
        args = pc_args(rx, pc_nic, link)
    else:
        args = PEERS_ARGS if rx else SINK_ARGS
    status, output = sb.run_timed("am335x-evm", "bench-eth.sh", append,
                                  args,
                                  name, timeout, cpu_args=cpu_args)
    runs = parse(output, windows, secs, pacing, rx, repeats)
    if status != "0" or runs is None:
        raise g.GuestError("bench-eth.sh failed; see %s" %
                           os.path.join(g.LOGDIR, name + ".log"))
    return runs


def parse(output, windows, secs, pacing=(0,), rx=True, repeats=1):
    """bench-eth.sh's lines in OUTPUT as run_repeated() returns them, or
    None when a run of a window is missing or incomplete."""
    got = {}

    def run_of(p, w, rep):
        return got.setdefault((int(p), int(w), int(rep)), {})

    # The one-second reports inside the run (the script kills iperf
    # before the peers' close, which never comes)
    for p, w, rep, way, t0, t1, nbytes in re.findall(
            r"^BENCH-ETH (\d+) (\d+) (\d+) (tx|rx) \[ *\*?\d+\]\s+"
            r"([\d.]+)-\s*([\d.]+) sec\s+([\d.]+) Bytes", output, re.M):
        if float(t1) - float(t0) == 1.0 and float(t1) <= secs:
            run_of(p, w, rep).setdefault(way, []).append(int(float(nbytes)))
    for p, w, rep, busy, total in re.findall(
            r"^BENCH-ETH-CPU (\d+) (\d+) (\d+) (\d+) (\d+)", output, re.M):
        run_of(p, w, rep)["cpu"] = (int(busy), int(total))
    for p, w, rep, busy, idle in re.findall(
            r"^BENCH-ETH-STAT (\d+) (\d+) (\d+) (\d+) (\d+)", output,
            re.M):
        run_of(p, w, rep)["stat"] = (int(busy), int(idle))
    for p, w, rep, drops in re.findall(
            r"^BENCH-ETH-DROPS (\d+) (\d+) (\d+) (\d+)", output, re.M):
        run_of(p, w, rep)["drops"] = int(drops)
    ways = ("tx", "rx") if rx else ("tx",)
    want = sorted((p, w, rep) for p in pacing for w in windows
                  for rep in range(1, repeats + 1))
    if sorted(got) != want or \
            any(len(r.get(way, [])) != secs or "cpu" not in r
                or "stat" not in r or "drops" not in r
                for r in got.values() for way in ways):
        return None
    runs = {}
    for p, w, rep in want:
        runs.setdefault((p, w), []).append(got[(p, w, rep)])
    return runs


def run_tx(windows, secs, name, timeout, cpu_args=None, peer="pc",
           pc_nic=PC_NIC):
    """One way only, guest to sink, without pacing: {window KB: [bytes in
    each second of the run]}."""
    got = run(windows, secs, name, timeout, rx=False, cpu_args=cpu_args,
              peer=peer, pc_nic=pc_nic)
    return {w: r["tx"] for (_, w), r in got.items()}
