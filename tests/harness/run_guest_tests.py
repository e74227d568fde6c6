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
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from suite import TESTS, Skip  # noqa: E402
import soc_tests  # noqa: E402,F401
import mmc_tests  # noqa: E402,F401
import net_tests  # noqa: E402,F401
import nand_tests  # noqa: E402,F401
import timing_tests  # noqa: E402,F401


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
        except Skip as e:
            passed += 1
            print("ok %d - %s # SKIP %s" % (n, name, e))
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
