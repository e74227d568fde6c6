"""The one-way Ethernet workload of scripts/bench (issue 7), shared with
the determinism smoke test: boot the AM335x EVM with timing=on under the
bench's CPU model and run tests/guest/bench-eth-tx.sh, iperf 2 from the
guest into a sink inside QEMU (slirp's guestfwd to a null chardev, which
takes every byte at once; no host socket is involved)."""

import os
import re

import guest as g
import storage_bench as sb

SINK_NIC = "user,guestfwd=tcp:10.0.2.100:5001-null"


def run_tx(windows, secs, name, timeout, cpu_args=None):
    """Returns {window KB: [bytes in each second of the run]}; CPU_ARGS as
    storage_bench.run_timed's."""
    append = ("bench.windows=%s bench.secs=%d"
              % (",".join(map(str, windows)), secs))
    status, output = sb.run_timed("am335x-evm", "bench-eth-tx.sh", append,
                                  ["-nic", SINK_NIC], name, timeout,
                                  cpu_args=cpu_args)
    got = {}
    # The one-second reports inside the run; the last report waits for
    # the sink's close, which never comes.
    for w, t0, t1, nbytes in re.findall(
            r"^BENCH-ETH-TX (\d+) \[\s*\d+\]\s+([\d.]+)-\s*([\d.]+) sec"
            r"\s+(\d+) Bytes", output, re.M):
        if float(t1) - float(t0) == 1.0 and float(t1) <= secs:
            got.setdefault(int(w), []).append(int(nbytes))
    if status != "0" or sorted(got) != sorted(windows) or \
            any(len(v) != secs for v in got.values()):
        raise g.GuestError("bench-eth-tx.sh failed; see %s" %
                           os.path.join(g.LOGDIR, name + ".log"))
    return got
