"""Guest test of the machines' migration state (every model's VMState): a
booted Linux guest is saved while its SD card and its Ethernet are busy,
and resumed in a new QEMU, which must carry on where the first stopped:
the same processes, the same clock, the card and the network working, no
driver complaining.  This is what a CI farm does when it boots a board
once and starts every run from the snapshot."""

import os
import re
import subprocess
import time

import guest as g
import net_tests
from net_tests import check
from mmc_tests import Card
from suite import test_pairs, booted, load_modules

# How long the guest's clock may run on across the save and the restore:
# it stops while the VM is stopped, so only the commands around them count
# (seconds, times the console waits' scale for slower builds).
MAX_CLOCK_STEP = 5.0 * g.TIMEOUT_SCALE
# Kernel messages that say a device lost a request or its state.
DRIVER_TROUBLE = re.compile(r"timed? ?out|watchdog|error|fail|lost|stuck",
                            re.I)


def uptime(vm):
    return float(check(vm, "cut -d' ' -f1 /proc/uptime").split()[0])


def mmc_interrupts(vm):
    """MMC0's interrupts so far, from /proc/interrupts."""
    out = check(vm, "grep mmc0 /proc/interrupts")
    return int(out.split()[1])


def wait_migration(vm, timeout=120):
    """Waits for an outgoing migration to end; fails unless it completed."""
    deadline = time.monotonic() + timeout * g.TIMEOUT_SCALE
    while time.monotonic() < deadline:
        info = vm.qmp("query-migrate")
        if info.get("status") == "completed":
            return
        if info.get("status") in ("failed", "cancelled"):
            raise g.GuestError("migration %s: %s"
                               % (info["status"], info.get("error-desc")))
        time.sleep(0.2)
    raise g.Timeout("migration still running after %ss" % timeout)


def wait_incoming(vm, timeout=120):
    """Waits until the destination has loaded the state (it stays paused,
    as the source was when it was saved)."""
    deadline = time.monotonic() + timeout * g.TIMEOUT_SCALE
    while time.monotonic() < deadline:
        try:
            status = vm.qmp("query-status")["status"]
        except (FileNotFoundError, ConnectionRefusedError):
            # QEMU has not opened its QMP socket yet
            time.sleep(0.2)
            continue
        if status == "paused":
            return
        if status != "inmigrate":
            raise g.GuestError("destination is %r, not paused" % status)
        time.sleep(0.2)
    raise g.Timeout("destination still loading after %ss" % timeout)


def check_migration(board, kernel, timeout, timing=False):
    extra = ["-nic", "user"]
    if timing:
        # The bench's set-up: the timing models' completions are pending
        # on the virtual clock at the save
        extra += ["-icount", "shift=1"]
    with Card(64) as card:
        subprocess.run(["mkfs.ext4", "-q", "-F", card.path], check=True,
                       capture_output=True)
        extra = card.drive(0) + extra
        state = os.path.join(card.dir, "state")
        with booted(board, kernel, "migration-src", timeout,
                    extra_args=extra, timing=timing) as src:
            load_modules(src, "mmc", "fs")
            net_tests.bring_up(src)
            check(src, "mount /dev/mmcblk0 /mnt && "
                       "dd if=/dev/urandom of=/mnt/before bs=64k count=16 "
                       "2>/dev/null && sync")
            written = check(src, "sha256sum /mnt/before").split()[0]
            # Traffic in flight at the save: card reads through the EDMA
            # (the page cache dropped before each pass, so that they reach
            # the card), a file written again and again (its blocks freed
            # and taken anew, so the file system's own blocks are written
            # too), a ping every 10 ms through the CPSW
            check(src, "dd if=/dev/urandom of=/tmp/pattern bs=64k count=32 "
                       "2>/dev/null")
            check(src, "{ (while true; do "
                       "echo 1 > /proc/sys/vm/drop_caches; "
                       "dd if=/dev/mmcblk0 of=/dev/null "
                       "bs=64k count=256 2>/dev/null; done) & } ; "
                       "echo $! > /tmp/reader.pid; "
                       "{ (while true; do dd if=/tmp/pattern of=/mnt/rewritten "
                       "bs=64k conv=fsync 2>/dev/null; done) & } ; "
                       "echo $! > /tmp/writer.pid; "
                       "{ ping -i 0.01 10.0.2.2 > /tmp/ping.log & } ; "
                       "echo $! > /tmp/ping.pid; sleep 1")
            # The loop drops the page cache between its passes, so a short
            # look may fall between two: look a few times
            for _ in range(5):
                first = mmc_interrupts(src)
                check(src, "sleep 0.2")
                second = mmc_interrupts(src)
                print("# MMC0 interrupts: %d, then %d" % (first, second))
                if second > first:
                    break
            else:
                raise g.GuestError("the card is idle: no read in flight")
            before = uptime(src)
            src.qmp("stop")
            src.qmp("migrate", uri="exec:cat > %s" % state)
            wait_migration(src)
            print("# saved %d bytes at uptime %.2f s"
                  % (os.path.getsize(state), before), flush=True)
        dst = g.Guest(board, kernel, extra_args=extra +
                      ["-incoming", "exec:cat %s" % state],
                      name="migration-dst-%s-%s" % (board, kernel),
                      earlycon=False, timing=timing)
        print("# " + dst.command_line(), flush=True)
        with dst.start():
            wait_incoming(dst)
            dst.qmp("cont")
            after = uptime(dst)
            print("# resumed at uptime %.2f s" % after, flush=True)
            if not before <= after <= before + MAX_CLOCK_STEP:
                raise g.GuestError("the clock went from %.2f to %.2f s"
                                   % (before, after))
            # The processes running at the save run on
            check(dst, "kill -0 $(cat /tmp/reader.pid) && "
                       "kill -0 $(cat /tmp/writer.pid) && "
                       "kill -0 $(cat /tmp/ping.pid)")
            check(dst, "kill $(cat /tmp/reader.pid) $(cat /tmp/writer.pid) "
                       "$(cat /tmp/ping.pid); sleep 1")
            # The network: new traffic both ways
            out = check(dst, "ping -c 3 -W 5 10.0.2.2", 60)
            if "3 packets received" not in out:
                raise g.GuestError("ping after the restore: %s" % out)
            # The card: what was written before reads back, and a new
            # file survives a remount
            if written not in check(dst, "sha256sum /mnt/before"):
                raise g.GuestError("/mnt/before changed across the restore")
            check(dst, "dd if=/dev/urandom of=/mnt/after bs=64k count=16 "
                       "2>/dev/null && "
                       "dd if=/tmp/pattern of=/mnt/rewritten bs=64k "
                       "2>/dev/null && sync")
            new = check(dst, "sha256sum /mnt/after").split()[0]
            pattern = check(dst, "sha256sum /tmp/pattern").split()[0]
            # The writes in flight at the save reached the card: its file
            # system checks clean (e2fsck -n changes nothing)
            check(dst, "umount /mnt && e2fsck -fn /dev/mmcblk0 2>&1", 120)
            out = check(dst, "mount /dev/mmcblk0 /mnt && "
                             "sha256sum /mnt/before /mnt/after "
                             "/mnt/rewritten")
            if written not in out or new not in out or pattern not in out:
                raise g.GuestError("the card after a remount: %s" % out)
            # Time runs at its rate: a 2 s sleep takes 2 s of uptime
            t0 = uptime(dst)
            check(dst, "sleep 2")
            slept = uptime(dst) - t0
            # /proc/uptime counts hundredths: a 2 s sleep may read 1.99
            if not 1.98 <= slept < 3.0:
                raise g.GuestError("sleep 2 took %.2f s of uptime" % slept)
            # No driver lost a request across the save
            out = check(dst, "dmesg | sed -n 's/^\\[ *\\([0-9.]*\\)\\] /\\1 /p' | "
                             "awk '$1 + 0 >= %f' | grep -v 'EXT4-fs' || true"
                        % before)
            for line in out.splitlines():
                print("#   " + line)
                if DRIVER_TROUBLE.search(line):
                    raise g.GuestError("after the restore: " + line)


MIGRATION_TESTS = {
    "migration": (check_migration, [("beaglebone-black", "am335x")]),
    "migration-timing": (
        lambda b, k, t: check_migration(b, k, t, timing=True),
        [("am335x-evm", "am335x")]),
}

test_pairs(MIGRATION_TESTS, 240)
