#!/usr/bin/env python3
"""Guest tests: boot each board with each kernel and check what the real
Linux drivers do, through the serial console.

Prints TAP ("ok N - name" / "not ok N - name"), the QEMU command line of
every test so a failure can be reproduced by hand, and a last line
"N passed, N failed".  Console logs land in build/test-logs/.

    tests/harness/run_guest_tests.py [--list] [-k SUBSTRING]...
"""

import argparse
import os
import re
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import guest as g  # noqa: E402

TESTS = []


def test(name, timeout):
    def register(fn):
        TESTS.append((name, timeout, fn))
        return fn
    return register


def early_console(board, kernel, timeout):
    """The kernel's own log lines arrive through UART0 (earlycon on the
    8250 core at 0x44e09000).  Checked against the kernel version and the
    DTB's model string, so nothing but real UART output can pass."""
    with g.Guest(board, kernel, name="early-console-%s-%s" % (board, kernel)) as vm:
        print("# " + vm.command_line(), flush=True)
        version = g.kernel_version(kernel)
        model = g.dtb_model(vm.dtb)
        vm.expect(r"\] Booting Linux on physical CPU", timeout)
        vm.expect(r"Linux version %s " % re.escape(version), timeout)
        vm.expect(r"Machine model: %s$" % re.escape(model),
                  timeout)
        vm.expect(r"earlycon: uart8250 at MMIO32 0x44e09000", timeout)


for _board in g.BOARDS:
    for _kernel in g.KERNELS:
        test("early-console/%s/%s" % (_board, _kernel), 60)(
            lambda t, b=_board, k=_kernel: early_console(b, k, t))


def boot_shell(board, kernel, timeout):
    """Boots to the busybox shell with the kernel's own console driver
    (omap-serial or 8250_omap, interrupt-driven RX) and runs a command
    typed on the serial console."""
    with g.Guest(board, kernel, earlycon=False,
                 name="boot-shell-%s-%s" % (board, kernel)) as vm:
        print("# " + vm.command_line(), flush=True)
        vm.wait_ready(timeout)
        status, out = vm.shell("echo $((6 * 7))-answer; cat /proc/device-tree/model")
        if status != 0 or "42-answer" not in out:
            raise g.GuestError("shell did not run the command: %r" % out)
        model = g.dtb_model(vm.dtb)
        if model not in out:
            raise g.GuestError("model %r not in %r" % (model, out))


for _board in g.BOARDS:
    for _kernel in g.KERNELS:
        test("boot-shell/%s/%s" % (_board, _kernel), 180)(
            lambda t, b=_board, k=_kernel: boot_shell(b, k, t))


def guest_script(script, board, kernel, timeout, dtb=None):
    """Boots to the shell and runs tests/guest/SCRIPT inside the guest; the
    script's exit status is the verdict and its output explains a failure."""
    name = "%s-%s-%s" % (script, board, kernel)
    if dtb:
        dtb = os.path.join(g.kernel_dir(kernel), "dtbs", dtb)
    with g.Guest(board, kernel, earlycon=False, dtb=dtb, name=name) as vm:
        print("# " + vm.command_line(), flush=True)
        vm.wait_ready(timeout)
        status, out = vm.shell("/tests/%s" % script, timeout)
        for line in out.splitlines():
            print("#   " + line)
        if status != 0:
            raise g.GuestError("/tests/%s exited with %d" % (script, status))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--list", action="store_true", help="list the tests")
    ap.add_argument("-k", action="append", default=[],
                    help="run the tests whose name contains this")
    args = ap.parse_args()

    selected = [t for t in TESTS if not args.k or any(k in t[0] for k in args.k)]
    if args.list:
        for name, _, _ in selected:
            print(name)
        return 0

    print("TAP version 13")
    print("1..%d" % len(selected), flush=True)
    passed = failed = 0
    for n, (name, timeout, fn) in enumerate(selected, 1):
        start = time.monotonic()
        try:
            fn(timeout)
        except Exception as e:  # one test's failure never stops the others
            failed += 1
            print("not ok %d - %s (%.1fs)" % (n, name, time.monotonic() - start))
            for line in traceback.format_exception_only(type(e), e):
                print("#   " + line.rstrip())
        else:
            passed += 1
            print("ok %d - %s (%.1fs)" % (n, name, time.monotonic() - start))
        sys.stdout.flush()
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
