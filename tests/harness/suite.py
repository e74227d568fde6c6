"""The guest-test registry and the helpers the test modules share.

A test module registers each test with @test(name, timeout); the runner
(run_guest_tests.py) runs them in registration order.
"""

import hashlib
import http.server
import os
import socket
import threading
import urllib.request

import guest as g

TESTS = []


class Skip(Exception):
    """Raised by a test that cannot run here; the runner reports a TAP SKIP."""


# Tests that must have the host to themselves (they compare runs made
# under icount, which host load still reaches): the runner runs them last,
# one at a time, after the others.
EXCLUSIVE = set()


def test(name, timeout, exclusive=False):
    def register(fn):
        TESTS.append((name, timeout, fn))
        if exclusive:
            EXCLUSIVE.add(name)
        return fn
    return register


# Board x kernel pairs.  ALL_PAIRS for what differs per board and per
# kernel build (boot, probing, the core networking criteria).  A test whose
# driver is the same source in both kernels runs on one of the two CROSS
# sets instead: each board once and each kernel once, so a family of such
# tests still covers all four pairs between them, in half the boots.
ALL_PAIRS = [(b, k) for b in g.BOARDS for k in g.KERNELS]
CROSS = [("beaglebone-black", "debian"), ("am335x-evm", "am335x")]
CROSS_OTHER = [("beaglebone-black", "am335x"), ("am335x-evm", "debian")]


def test_pairs(tests, timeout):
    """Registers each of TESTS, {name: (fn(board, kernel, timeout), pairs)},
    once per board x kernel pair, as "name/board/kernel"."""
    for name, (fn, pairs) in tests.items():
        for board, kernel in pairs:
            test("%s/%s/%s" % (name, board, kernel), timeout)(
                lambda t, f=fn, b=board, k=kernel: f(b, k, t))


def booted(board, kernel, what, timeout, **kw):
    """Starts a guest and waits for its shell; the caller closes it (use it
    in a with statement).  The QEMU command line is printed first, so any
    failure can be reproduced by hand."""
    kw.setdefault("earlycon", False)
    vm = g.Guest(board, kernel, name="%s-%s-%s" % (what, board, kernel), **kw)
    print("# " + vm.command_line(), flush=True)
    vm.start()
    try:
        vm.wait_ready(timeout)
    except Exception:
        vm.close()
        raise
    return vm


def run_script(vm, script, args="", timeout=120):
    """Runs tests/guest/SCRIPT in the guest; its exit status is the verdict
    and its output, printed as TAP comments, explains a failure."""
    status, out = vm.shell("/tests/%s %s" % (script, args), timeout)
    for line in out.splitlines():
        print("#   " + line)
    if status != 0:
        raise g.GuestError("/tests/%s exited with %d" % (script, status))
    return out


def guest_script(script, board, kernel, timeout, dtb=None, args="", **kw):
    """Boots to the shell and runs tests/guest/SCRIPT."""
    if dtb:
        dtb = os.path.join(g.kernel_dir(kernel), "dtbs", dtb)
    with booted(board, kernel, script, timeout, dtb=dtb, **kw) as vm:
        return run_script(vm, script, args, timeout)


# Drivers that Debian builds as modules; udev would load them on a distro.
# The am335x kernel has them built in.
DEBIAN_MODULES = {
    "pmic": ["tps65217"],
    "leds": ["leds-gpio", "ledtrig-heartbeat"],
    "wdt": ["omap_wdt"],
    "i2c": ["i2c-dev"],
    "sensors": ["lm75", "tsl2550", "lis3lv02d_i2c"],
    "keys": ["evdev"],
    "mmc": ["sdhci-omap"],
    "net": ["davinci_mdio", "phy_gmii_sel", "smsc", "at803x", "ti_cpsw_new"],
    "fs": ["crc32c_generic", "ext4", "vfat", "nls_cp437", "nls_ascii"],
    "adc": ["ti_am335x_adc"],
    "can": ["c_can_platform", "can_raw"],
    "lcd": ["pwm_tiecap", "pwm_bl", "panel_simple", "tda998x", "tilcdc"],
    "audio": ["snd_soc_hdmi_codec", "tda998x", "snd_soc_davinci_mcasp",
              "snd_soc_simple_card"],
    "usb": ["phy_am335x", "cppi41", "musb_dsps", "usb_storage", "sd_mod"],
    "gadget": ["phy_am335x", "cppi41", "musb_dsps", "libcomposite",
               "usb_f_ecm", "usb_f_acm"],
    "gadget-msc": ["phy_am335x", "cppi41", "musb_dsps", "libcomposite",
                   "usb_f_mass_storage"],
}


def load_modules(vm, *features):
    if not g.debian(vm.kernel):
        return
    for feature in features:
        for module in DEBIAN_MODULES[feature]:
            status, out = vm.shell("modprobe %s" % module)
            if status != 0:
                raise g.GuestError("modprobe %s: %s" % (module, out))


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _DataHandler(http.server.BaseHTTPRequestHandler):
    """Answers every GET with the server's DATA."""

    def do_GET(self):
        data = self.server.data
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def data_server(data):
    """An HTTP server on 127.0.0.1, in a thread, that answers every GET
    with DATA; the guest reaches it at 10.0.2.2:server.server_address[1]
    through QEMU's user network.  Call shutdown() and server_close()."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _DataHandler)
    server.data = data
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def fetch_sha256(url, timeout=60):
    """GETs URL: the number of bytes and their sha256."""
    h = hashlib.sha256()
    got = 0
    with urllib.request.urlopen(url, timeout=timeout) as r:
        while True:
            chunk = r.read(1 << 20)
            if not chunk:
                break
            h.update(chunk)
            got += len(chunk)
    return got, h.hexdigest()
