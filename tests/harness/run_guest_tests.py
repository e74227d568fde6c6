#!/usr/bin/env python3
"""Guest tests: boot each board with each kernel and check what the real
Linux drivers do, through the serial console.

Prints TAP ("ok N - name" / "not ok N - name"), the QEMU command line of
every test so a failure can be reproduced by hand, and a last line
"N passed, N failed".  Console logs land in build/test-logs/.

    tests/harness/run_guest_tests.py [--list] [-j JOBS] [-k SUBSTRING]...

With -j 2 (the default; AM335X_TEST_JOBS overrides it) two guests run at
once, each test in its own worker process; a test's output is printed as
one block when it is done.  The tests with the longest timeouts (the
longest tests) start first, so that short ones fill the end and no guest
runs alone for long; results are printed as they finish.  Tests
registered as exclusive (timing comparisons) run last, alone.
"""

import argparse
import io
import multiprocessing
import os
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from suite import TESTS, EXCLUSIVE, Skip  # noqa: E402
import soc_tests  # noqa: E402,F401
import mmc_tests  # noqa: E402,F401
import net_tests  # noqa: E402,F401
import nand_tests  # noqa: E402,F401
import timing_tests  # noqa: E402,F401
import script_tests  # noqa: E402,F401
import adc_tests  # noqa: E402,F401
import can_tests  # noqa: E402,F401
import lcd_tests  # noqa: E402,F401
import audio_tests  # noqa: E402,F401
import usb_tests  # noqa: E402,F401
import migration_tests  # noqa: E402,F401
import backports_tests  # noqa: E402,F401


def run_one(index):
    """Runs one test in a worker process; returns (index, verdict, its
    output, the reason it failed, seconds).  verdict is "ok", "skip:
    REASON" or "fail"."""
    name, timeout, fn = TESTS[index]  # by index: lambdas do not pickle
    out = io.StringIO()
    sys.stdout = sys.stderr = out
    start = time.monotonic()
    verdict, why = "ok", ""
    try:
        fn(timeout)
    except Skip as e:
        verdict = "skip: %s" % e
    except Exception as e:  # one test's failure never stops the others
        verdict = "fail"
        why = "".join("#   " + line.rstrip() + "\n" for line in
                      traceback.format_exception_only(type(e), e))
    finally:
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    return index, verdict, out.getvalue(), why, time.monotonic() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--list", action="store_true", help="list the tests")
    ap.add_argument("-j", type=int, metavar="JOBS",
                    default=int(os.environ.get("AM335X_TEST_JOBS", "2")),
                    help="guests run at once (default 2)")
    ap.add_argument("-k", action="append", default=[],
                    help="run the tests whose name contains this")
    args = ap.parse_args()

    selected = [i for i, t in enumerate(TESTS)
                if not args.k or any(k in t[0] for k in args.k)]
    if args.list:
        for i in selected:
            print(TESTS[i][0])
        return 0

    print("TAP version 13")
    print("1..%d" % len(selected), flush=True)
    # The tests that need the host to themselves go last, one at a time.
    shared = [i for i in selected if TESTS[i][0] not in EXCLUSIVE]
    shared.sort(key=lambda i: -TESTS[i][1])  # stable: same timeout, same order
    alone = [i for i in selected if TESTS[i][0] in EXCLUSIVE]
    passed = failed = 0
    n = 0
    # maxtasksperchild: a fresh worker per test, so no state leaks between
    # tests; fork keeps the registry without re-importing.
    ctx = multiprocessing.get_context("fork")
    for batch, jobs in ((shared, max(1, args.j)), (alone, 1)):
        if not batch:
            continue
        with ctx.Pool(jobs, maxtasksperchild=1) as pool:
            for i, verdict, output, why, elapsed in pool.imap_unordered(
                    run_one, batch, chunksize=1):
                n += 1
                name = TESTS[i][0]
                sys.stdout.write(output)
                if verdict == "fail":
                    failed += 1
                    print("not ok %d - %s (%.1fs)" % (n, name, elapsed))
                    sys.stdout.write(why)
                elif verdict.startswith("skip: "):
                    passed += 1
                    print("ok %d - %s # SKIP %s" % (n, name, verdict[6:]))
                else:
                    passed += 1
                    print("ok %d - %s (%.1fs)" % (n, name, elapsed))
                sys.stdout.flush()
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
