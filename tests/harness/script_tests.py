"""Tests of the project's own scripts on bad input (issue 2): each must stop
early with a clear message and a non-zero exit, and leave nothing
half-written behind."""

import json
import os
import re
import shutil
import struct
import subprocess
import tempfile

import eth_bench
import guest as g
import storage_bench
from suite import test

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def run(argv, env=None, timeout=300):
    p = subprocess.run(argv, cwd=ROOT, env=dict(os.environ, **(env or {})),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=timeout)
    for line in p.stdout.splitlines()[-6:]:
        print("#   " + line)
    return p.returncode, p.stdout


def expect_error(argv, message, env=None):
    status, out = run(argv, env)
    if status == 0:
        raise g.GuestError("%s succeeded" % " ".join(argv))
    if message not in out:
        raise g.GuestError("%s: no %r in its output" % (" ".join(argv), message))


@test("scripts/setup-not-root", 30)
def check_setup_not_root(timeout):
    expect_error(["setpriv", "--reuid=65534", "--regid=65534",
                  "--clear-groups", "scripts/setup"], "must run as root")


@test("scripts/run-unknown-names", 30)
def check_run_unknown_names(timeout):
    expect_error(["scripts/run", "no-such-board", "debian"],
                 "unknown board 'no-such-board'")
    expect_error(["scripts/run", "beaglebone-black", "no-such-kernel"],
                 "unknown kernel 'no-such-kernel'")


def scratch_root():
    """A copy of scripts/ and patches/ in a new directory, so that
    scripts/build there starts from nothing: no build/, no cache."""
    top = tempfile.mkdtemp(prefix="am335x-scripts-")
    for d in ("scripts", "patches"):
        shutil.copytree(os.path.join(ROOT, d), os.path.join(top, d),
                        ignore=shutil.ignore_patterns("__pycache__"))
    return top


def check_build_fails(top, message, env):
    try:
        expect_error([os.path.join(top, "scripts", "build")], message,
                     dict(env, AM335X_CACHE=os.path.join(top, "cache")))
        # No build tree, and nothing (not even a partial tarball) in the
        # download cache.
        dl = os.path.join(top, "cache", "downloads")
        left = ["build"] if os.path.exists(os.path.join(top, "build")) else []
        left += os.listdir(dl) if os.path.isdir(dl) else []
        if left:
            raise g.GuestError("left behind: %s" % left)
    finally:
        shutil.rmtree(top, ignore_errors=True)


@test("scripts/build-archive-unreachable", 60)
def check_build_unreachable(timeout):
    top = scratch_root()
    conf = os.path.join(top, "apt.conf")
    with open(conf, "w") as f:
        # A proxy on a closed port: apt cannot reach any archive.
        f.write('Acquire::http::Proxy "http://127.0.0.1:9";\n'
                'Acquire::https::Proxy "http://127.0.0.1:9";\n')
    check_build_fails(top, "could not fetch the QEMU source",
                      {"APT_CONFIG": conf})


@test("scripts/build-checksum-mismatch", 300)
def check_build_checksum(timeout):
    top = scratch_root()
    path = os.path.join(top, "scripts", "qemu-version")
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write("\n".join("QEMU_ORIG_SHA256=" + "0" * 64
                          if line.startswith("QEMU_ORIG_SHA256=") else line
                          for line in text.splitlines()) + "\n")
    check_build_fails(top, "checksum mismatch", {})


@test("scripts/profile-bad-input", 30)
def check_profile_bad_input(timeout):
    """scripts/profile names what it cannot read, and a file that is not
    the plugin's profile or has no kernel symbols."""
    tmp = tempfile.mkdtemp(prefix="am335x-profile-")
    try:
        good = os.path.join(tmp, "profile.tsv")
        with open(good, "w") as f:
            f.write("# cortex-a8-timing profile: ps_per_insn=2000\n"
                    "pc\tinsns\tstall_ns\nc0100000\t10000000\t5000000\n")
        syms = os.path.join(tmp, "kallsyms")
        with open(syms, "w") as f:
            f.write("c0100000 T stext\n")
        expect_error(["scripts/profile", os.path.join(tmp, "none"), syms],
                     "No such file or directory")
        expect_error(["scripts/profile", syms, syms],
                     "not a cortex-a8-timing profile")
        expect_error(["scripts/profile", good, good], "no text symbols")
        status, out = run(["scripts/profile", good, syms])
        if status != 0 or not re.search(r"25\.000\s+100\.00\s+10000000\s+"
                                         r"5\.000\s+stext", out):
            raise g.GuestError("scripts/profile: 10^7 instructions (20 ms) "
                               "and 5 ms of stall in stext not as 25 ms: "
                               "%r" % out)
        base = os.path.join(tmp, "baseline.tsv")
        with open(base, "w") as f:
            f.write("# cortex-a8-timing profile: ps_per_insn=2000\n"
                    "pc\tinsns\tstall_ns\nc0100010\t4000000\t1000000\n")
        status, out = run(["scripts/profile", good, syms, "--minus", base])
        if status != 0 or not re.search(r"16\.000\s+100\.00\s+6000000\s+"
                                         r"4\.000\s+stext", out):
            raise g.GuestError("scripts/profile --minus: 25 ms less 9 ms "
                               "not as 16 ms: %r" % out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def eth_lines(rep, tx, rx, secs=2):
    """bench-eth.sh's lines for one run of the 16 KB window, paced, with
    TX and RX bytes in each second."""
    out = []
    for way, n in (("tx", tx), ("rx", rx)):
        for i in range(secs):
            out.append("BENCH-ETH 500 16 %d %s [  1] %d.0000-%d.0000 sec  "
                       "%d Bytes  %d Bytes/sec" % (rep, way, i, i + 1, n + i,
                                                   n + i))
    out += ["BENCH-ETH-CPU 500 16 %d %d 3000" % (rep, 1000 * rep),
            "BENCH-ETH-STAT 500 16 %d %d 10" % (rep, 90 + rep),
            "BENCH-ETH-DROPS 500 16 %d %d" % (rep, 5 * rep)]
    return out


@test("scripts/bench-eth-repeats", 60)
def check_bench_eth_repeats(timeout):
    """scripts/bench refuses fewer than one run of each Ethernet window;
    the Ethernet part reads every run of a window from the guest's
    output, in order, and takes a run with a line missing as a failure."""
    expect_error(["scripts/bench", "--part", "eth", "--eth-repeats", "0"],
                 "--eth-repeats and --eth-secs must be at least 1")
    lines = eth_lines(1, 100, 200) + eth_lines(2, 300, 400)
    # Interleaved with the guest's other output, as on its console
    out = "\n".join(["[   12.5] random kernel line"] + lines + ["# done"])
    got = eth_bench.parse(out, [16], 2, pacing=(500,), repeats=2)
    print("#   %r" % got)
    want = {(500, 16): [
        {"tx": [100, 101], "rx": [200, 201], "cpu": (1000, 3000),
         "stat": (91, 10), "drops": 5},
        {"tx": [300, 301], "rx": [400, 401], "cpu": (2000, 3000),
         "stat": (92, 10), "drops": 10}]}
    if got != want:
        raise g.GuestError("two runs read as %r" % got)
    one = eth_bench.parse("\n".join(eth_lines(1, 100, 200)), [16], 2,
                          pacing=(500,))
    if one != {(500, 16): want[(500, 16)][:1]}:
        raise g.GuestError("one run read as %r" % one)
    for i in range(len(lines)):
        cut = "\n".join(lines[:i] + lines[i + 1:])
        if eth_bench.parse(cut, [16], 2, pacing=(500,), repeats=2):
            raise g.GuestError("read without %r" % lines[i])


@test("scripts/bench-report", 60)
def check_bench_report(timeout):
    """scripts/bench --report prints the rows of a results.tsv against the
    reference with their errors and draws report.png from them, without
    running a guest; it names a results.tsv it cannot read."""
    out_dir = tempfile.mkdtemp(prefix="am335x-bench-report-")
    try:
        results = os.path.join(out_dir, "results.tsv")
        expect_error(["scripts/bench", "--report", "--out", out_dir],
                     "no %s: run a part first" % results)
        with open(results, "w") as f:
            f.write("key\tparam\tvalue\tunit\n"
                    "sd_ext2_write\t102400\t4.200\tMB/s\n"
                    "sd_ext2_write_cpu\t102400\t3.519\t%\n"
                    "sd_vfat_write\t102400\t3.700\tMB/s\n")
        status, out = run(["scripts/bench", "--report", "--out", out_dir])
        if status != 0:
            raise g.GuestError("scripts/bench --report exited with %d" % status)
        # 4.2 against the guide's 4.00, 3.519 against 3.91; vfat has none
        for pattern in (r"sd_ext2_write\s+102400\s+4\.20\s+4\.00\s+\+5\.0%",
                        r"sd_ext2_write_cpu\s+102400\s+3\.52\s+3\.91\s+-10\.0%",
                        r"sd_vfat_write\s+102400\s+3\.70\s+-\s+-",
                        r"throughput rows with a reference: 1, median "
                        r"\|error\| 5\.0%, beyond \+-10%: 0"):
            if not re.search(pattern, out):
                raise g.GuestError("no %r in the table" % pattern)
        png = os.path.join(out_dir, "report.png")
        if shutil.which("gnuplot"):
            with open(png, "rb") as f:
                if f.read(8) != b"\x89PNG\r\n\x1a\n":
                    raise g.GuestError("report.png is not a PNG")
        with open(results, "a") as f:
            f.write("sd_ext2_read\t102400\n")
        expect_error(["scripts/bench", "--report", "--out", out_dir],
                     "results.tsv, line 5: not key<TAB>param<TAB>value<TAB>unit")
    finally:
        shutil.rmtree(out_dir, ignore_errors=True)


@test("scripts/bench-sd-card", 60)
def check_bench_sd_card(timeout):
    """The storage bench's SD card is laid out as the guide's was made:
    partitions above mke2fs's 512 MiB "small" limit, aligned to the card's
    4 MiB allocation unit, ext2 with 4 KiB blocks and vfat as FAT32; the
    image stays sparse."""
    out_dir = tempfile.mkdtemp(prefix="am335x-bench-card-")
    try:
        card = os.path.join(out_dir, "card.img")
        storage_bench.sd_card(card)
        if os.stat(card).st_blocks * 512 > 64 * 1024 * 1024:
            raise g.GuestError("the card image is not sparse")
        p = subprocess.run(["sfdisk", "--json", card], check=True,
                           capture_output=True, text=True)
        parts = json.loads(p.stdout)["partitiontable"]["partitions"]
        if len(parts) != 2:
            raise g.GuestError("%d partitions, not 2" % len(parts))
        for part in parts:
            if part["start"] % 8192 or part["size"] < 1024 * 2048:
                raise g.GuestError("partition %r: not 4 MiB aligned, or "
                                   "below 512 MiB" % part)
        with open(card, "rb") as f:
            # ext2's superblock: 1 KiB into the partition
            f.seek(parts[0]["start"] * 512 + 1024)
            sb = f.read(1024)
            magic, = struct.unpack_from("<H", sb, 56)
            log_size, = struct.unpack_from("<I", sb, 24)
            if magic != 0xef53 or 1024 << log_size != 4096:
                raise g.GuestError("partition 1: no ext2 with 4 KiB blocks "
                                   "(magic %#x, %d-byte blocks)"
                                   % (magic, 1024 << log_size))
            f.seek(parts[1]["start"] * 512)
            boot = f.read(512)
            if boot[82:90] != b"FAT32   " or boot[510:] != b"\x55\xaa":
                raise g.GuestError("partition 2: no FAT32 boot sector")
    finally:
        shutil.rmtree(out_dir, ignore_errors=True)
