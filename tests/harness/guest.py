"""Boots an AM335x board in QEMU and talks to it over the serial console.

Used by run_guest_tests.py; also usable by hand:

    from guest import Guest
    with Guest("beaglebone-black", "debian") as g:
        g.expect(r"Booting Linux")
"""

import ctypes
import json
import os
import re
import select
import shlex
import signal
import socket
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(ROOT, "build")
IMAGES = os.path.join(BUILD, "images")
# AM335X_QEMU runs the guest tests on another build of the same tree,
# e.g. one configured with --enable-asan.
QEMU = os.environ.get("AM335X_QEMU") or os.path.join(BUILD, "qemu-system-arm")
# Such a build runs several times slower: AM335X_TIMEOUT_SCALE multiplies
# every console wait.
try:
    TIMEOUT_SCALE = float(os.environ.get("AM335X_TIMEOUT_SCALE") or 1)
except ValueError:
    TIMEOUT_SCALE = 0
if not 0 < TIMEOUT_SCALE < 1000:
    raise SystemExit("AM335X_TIMEOUT_SCALE must be a number above 0 and "
                     "below 1000, not %r"
                     % os.environ.get("AM335X_TIMEOUT_SCALE"))
LOGDIR = os.path.join(BUILD, "test-logs")

BOARDS = {
    # board: default stock DTB
    "beaglebone-black": "am335x-boneblack.dtb",
    "am335x-evm": "am335x-evm.dtb",
}
KERNELS = ("debian", "am335x")
# Debian's newest armmp kernel for this release (bookworm-backports), with
# its own DTBs: backports_tests.py boots it for one test of each model.
BACKPORTS = "debian-backports"
UART0 = 0x44E09000
# Console device name of UART0 per kernel: omap-serial vs 8250_omap.
CONSOLE = {"debian": "ttyO0", "am335x": "ttyS0", BACKPORTS: "ttyO0"}


def debian(kernel):
    """Whether KERNEL is one of Debian's builds, whose drivers are modules
    (the am335x kernel has them built in)."""
    return kernel in ("debian", BACKPORTS)


def _own_session_dying_with_parent():
    """Runs in the child: its own process group, killed if the harness dies,
    so that no QEMU outlives an interrupted test run."""
    os.setsid()
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


class GuestError(Exception):
    pass


class Timeout(GuestError):
    pass


def kernel_dir(kernel):
    return os.path.join(IMAGES, kernel)


def kernel_version(kernel):
    with open(os.path.join(kernel_dir(kernel), "version")) as f:
        return f.read().strip()


def dtb_model(dtb_path):
    """The DTB's top-level model string, as the kernel will print it."""
    out = subprocess.run(["fdtget", dtb_path, "/", "model"],
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


class Guest:
    """One QEMU instance with its UART0 on a pipe."""

    def __init__(self, board, kernel, dtb=None, initrd=None, append="",
                 earlycon=True, extra_args=(), name=None, reboot=False,
                 as_shipped=False, timing=False, rom_boot=False):
        """TIMING turns on the machine's timing models (timing=on).
        ROM_BOOT starts the board without -kernel, as the part does: its
        ROM code boots the MLO of the SD card or eMMC in EXTRA_ARGS, and
        what that loads is the guest (KERNEL names what the card holds).
        AS_SHIPPED boots the zImage and the gzip'ed initramfs; otherwise
        their uncompressed copies (uImage, initramfs.cpio), which skip
        seconds of decompression under emulation, run the same kernel
        code and unpack the same files."""
        if board not in BOARDS:
            raise GuestError("unknown board %r" % board)
        if kernel not in KERNELS + (BACKPORTS,):
            raise GuestError("unknown kernel %r" % kernel)
        kdir = kernel_dir(kernel)
        self.board = board
        self.kernel = kernel
        self.dtb = dtb or os.path.join(kdir, "dtbs", BOARDS[board])
        unpacked = not as_shipped and \
            os.path.exists(os.path.join(kdir, "uImage")) and \
            os.path.exists(os.path.join(kdir, "initramfs.cpio"))
        if initrd is None:
            initrd = os.path.join(kdir, "initramfs.cpio" if unpacked
                                  else "initramfs.cpio.gz")
        cmdline = "console=%s,115200n8" % CONSOLE[kernel]
        if earlycon:
            cmdline += " earlycon=uart8250,mmio32,0x%x,115200n8" % UART0
        if append:
            cmdline += " " + append
        self.tmpdir = tempfile.mkdtemp(prefix="am335x-guest-")
        self.qmp_path = os.path.join(self.tmpdir, "qmp.sock")
        machine = board + (",timing=on" if timing else "")
        self.argv = [QEMU, "-M", machine, "-nographic",
                     "-monitor", "none", "-serial", "stdio",
                     "-qmp", "unix:%s,server=on,wait=off" % self.qmp_path]
        self.kernel_path = None
        if not rom_boot:
            self.kernel_path = os.path.join(kdir, "uImage" if unpacked
                                            else "zImage")
            self.argv += ["-kernel", self.kernel_path, "-dtb", self.dtb]
            if initrd:
                self.argv += ["-initrd", initrd]
            self.argv += ["-append", cmdline]
        self.argv += list(extra_args)
        if not reboot:
            # A guest reset ends QEMU, so a test sees it as an exit.
            self.argv.append("-no-reboot")
        self.name = name or "%s-%s" % (board, kernel)
        self.output = ""
        self.proc = None
        self.log = None

    def command_line(self):
        return " ".join(shlex.quote(a) for a in self.argv)

    def start(self):
        if self.proc:
            return self
        for path in (QEMU, self.kernel_path, self.dtb):
            if path and not os.path.exists(path):
                raise GuestError("missing %s (run scripts/build and scripts/images)" % path)
        os.makedirs(LOGDIR, exist_ok=True)
        self.log = open(os.path.join(LOGDIR, self.name + ".log"), "w")
        self.log.write("# " + self.command_line() + "\n")
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT,
                                     preexec_fn=_own_session_dying_with_parent)
        return self

    def _read(self, deadline):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        ready, _, _ = select.select([self.proc.stdout], [], [], min(remaining, 1.0))
        if not ready:
            return True
        data = os.read(self.proc.stdout.fileno(), 65536)
        if not data:
            raise GuestError("QEMU exited (status %s)" % self.proc.wait())
        text = data.decode("utf-8", "replace").replace("\r", "")
        self.output += text
        self.log.write(text)
        self.log.flush()
        return True

    def expect(self, pattern, timeout=60, start=0):
        """Waits for a regex in the console output; returns the match."""
        regex = re.compile(pattern, re.M)
        deadline = time.monotonic() + timeout * TIMEOUT_SCALE
        while True:
            m = regex.search(self.output, start)
            if m:
                return m
            if not self._read(deadline):
                raise Timeout("no %r within %ss" % (pattern, timeout))

    def send(self, text):
        self.proc.stdin.write(text.encode())
        self.proc.stdin.flush()

    def wait_ready(self, timeout=120):
        """Waits for the rootfs's /init to reach its shell."""
        self.expect(r"AM335X-ROOTFS: ready", timeout)
        # Only errors and worse on the console from now on; the rest stays
        # in dmesg.  The console is also the shell's output, and a loaded
        # host makes the kernel warn (e.g. "hrtimer: interrupt took N ns")
        # in the middle of a command's output.
        self.shell("echo 4 > /proc/sys/kernel/printk", timeout)

    def shell(self, command, timeout=60):
        """Runs a shell command on the console; returns (status, output).

        The end marker carries $?, which the echoed command line shows
        unexpanded, so only the real end of the command matches."""
        self._serial = getattr(self, "_serial", 0) + 1
        marker = "__AM335X_DONE_%d_" % self._serial
        start = len(self.output)
        self.send("%s; echo %s$?\n" % (command, marker))
        # The status ends with its line: a read can end between two of its
        # digits (10 would read as 1)
        m = self.expect(r"%s(\d+)\r?\n" % marker, timeout, start)
        body = self.output[start:m.start()]
        # Drop the echoed command line, which the console may have wrapped
        # (line editing can put escape sequences anywhere in it, even
        # between the marker and its "$?").
        gap = r"(?:\n|\x1b\[[0-9;]*[A-Za-z])*"
        echoed = None
        for echoed in re.finditer(gap.join(map(re.escape, marker + "$?")),
                                  body):
            pass
        if echoed:
            body = body[echoed.end():].split("\n", 1)[1] \
                if "\n" in body[echoed.end():] else ""
        return int(m.group(1)), body

    def wait_exit(self, timeout=60):
        deadline = time.monotonic() + timeout * TIMEOUT_SCALE
        while self.proc.poll() is None:
            try:
                if not self._read(deadline):
                    raise Timeout("QEMU still running after %ss" % timeout)
            except GuestError:
                break
        return self.proc.wait()

    def qmp(self, command, **arguments):
        """Runs one QMP command on a fresh connection; returns "return"."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(30)
            sock.connect(self.qmp_path)
            f = sock.makefile("rw")
            json.loads(f.readline())             # greeting
            for cmd, args in (("qmp_capabilities", {}), (command, arguments)):
                f.write(json.dumps({"execute": cmd, "arguments": args}) + "\n")
                f.flush()
                while True:
                    reply = json.loads(f.readline())
                    if "event" not in reply:
                        break
                if "error" in reply:
                    raise GuestError("QMP %s: %s" % (cmd, reply["error"]))
            return reply["return"]

    def close(self):
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        if self.log:
            self.log.close()
            self.log = None
        if os.path.isdir(self.tmpdir):
            for f in os.listdir(self.tmpdir):
                os.unlink(os.path.join(self.tmpdir, f))
            os.rmdir(self.tmpdir)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()
