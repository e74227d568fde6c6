"""Guest tests of the D_CAN controllers: the real c_can_platform driver on
both controllers, joined on one QEMU can-bus, sends and receives frames
with can-utils.

Both stock device trees leave D_CAN0 and D_CAN1 disabled (their pins go
to other uses on the boards), so the tests enable them in a copy of the
DTB, as a cape or an overlay would."""

import os
import re
import shutil
import subprocess
import tempfile

import guest as g
from suite import test_pairs, booted, load_modules, CROSS

DCAN_MODULES = ("/ocp/interconnect@48000000/segment@100000/"
                "target-module@cc000/can@0",
                "/ocp/interconnect@48000000/segment@100000/"
                "target-module@d0000/can@0")
CAN_ARGS = ["-object", "can-bus,id=canbus",
            "-machine", "canbus0=canbus,canbus1=canbus"]
# iproute2's ip (busybox's applet knows no CAN options)
IP = "/bin/ip"

# cansend's frames and how candump prints them
FRAMES = [
    ("123#DEADBEEF", r"123\s+\[4\]\s+DE AD BE EF"),
    ("1ABCDEF0#0102030405060708",
     r"1ABCDEF0\s+\[8\]\s+01 02 03 04 05 06 07 08"),
    ("7FF#R", r"7FF\s+\[0\]\s+remote request"),
    ("000#", r"000\s+\[0\]\s*$"),
]


def can_dtb(board, kernel, path):
    """The board's stock DTB with both D_CAN controllers enabled."""
    shutil.copy(os.path.join(g.kernel_dir(kernel), "dtbs", g.BOARDS[board]),
                path)
    for node in DCAN_MODULES:
        subprocess.run(["fdtput", "-t", "s", path, node, "status", "okay"],
                       check=True)
    return path


def check(vm, command, timeout=60):
    status, out = vm.shell(command, timeout)
    if status != 0:
        raise g.GuestError("%s: exit %d\n%s" % (command, status, out))
    return out


def stats(vm, dev):
    """(rx packets, tx packets, rx errors + dropped) of @dev"""
    out = check(vm, "%s -s link show %s" % (IP, dev))
    nums = [[int(x) for x in line.split()] for line in out.splitlines()
            if re.match(r"^\s+\d+(\s+\d+)+\s*$", line)]
    rx, tx = nums[0], nums[1]
    return rx[1], tx[1], rx[2] + rx[3]


def check_can(board, kernel, timeout):
    """can0 (D_CAN0) sends standard, extended, remote and empty frames and a
    burst of 100; can1 (D_CAN1) receives each as sent, and the interface
    counters agree."""
    tmp = tempfile.mkdtemp(prefix="am335x-can-")
    try:
        dtb = can_dtb(board, kernel, os.path.join(tmp, "can.dtb"))
        with booted(board, kernel, "can", timeout, dtb=dtb,
                    extra_args=CAN_ARGS) as vm:
            load_modules(vm, "can")
            for dev in ("can0", "can1"):
                check(vm, "%s link set %s type can bitrate 500000 && "
                          "%s link set %s up" % (IP, dev, IP, dev))
            out = check(vm, "%s -d link show can0" % IP)
            if "ERROR-ACTIVE" not in out or "bitrate 500000" not in out:
                raise g.GuestError("can0 not up at 500 kbit/s:\n" + out)
            check(vm, "(candump -n %d can1 > /tmp/dump.txt 2>&1 &); sleep 0.5"
                  % len(FRAMES))
            for frame, _ in FRAMES:
                check(vm, "cansend can0 %s" % frame)
            out = check(vm, "sleep 0.5; cat /tmp/dump.txt")
            got = [line for line in out.splitlines() if "can1" in line]
            print("#   received:\n#     " + "\n#     ".join(got))
            if len(got) != len(FRAMES):
                raise g.GuestError("can1 received %d of %d frames:\n%s"
                                   % (len(got), len(FRAMES), out))
            for line, (frame, want) in zip(got, FRAMES):
                if not re.search(want, line):
                    raise g.GuestError("sent %s, received %r" % (frame, line))

            check(vm, "(candump -n 100 can1 > /tmp/burst.txt 2>&1 &); "
                      "sleep 0.5")
            check(vm, "cangen can0 -n 100 -g 1 -I i -L 8 -D i", 120)
            out = check(vm, "sleep 1; grep -c can1 /tmp/burst.txt; "
                            "tail -1 /tmp/burst.txt")
            count = int(out.split()[0])
            if count != 100:
                raise g.GuestError("can1 received %d of 100:\n%s"
                                   % (count, out))
            rx0, tx0, _ = stats(vm, "can0")
            rx1, tx1, bad1 = stats(vm, "can1")
            print("#   can0 tx %d, can1 rx %d (errors+dropped %d)"
                  % (tx0, rx1, bad1))
            if tx0 != 104 or rx1 != 104 or bad1 or rx0 or tx1:
                raise g.GuestError("counters: can0 rx %d tx %d, can1 rx %d "
                                   "tx %d, can1 errors %d"
                                   % (rx0, tx0, rx1, tx1, bad1))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


test_pairs({"can": (check_can, CROSS)}, 180)
