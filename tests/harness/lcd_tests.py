"""Guest tests of the LCDC and the BeagleBone Black's HDMI framer.

The real tilcdc driver drives:
 - on the AM335x EVM, its 800x480 panel (tfc,s9700rtwv43tr-01b through
   panel-simple, the backlight on eCAP0's PWM), red and blue lines crossed
   as its DT says: the frame buffer is XRGB8888;
 - on the BeagleBone Black, the TDA19988 HDMI transmitter (tda998x), which
   reads the monitor's EDID over DDC; the mode is the EDID's preferred one
   and the straight wiring makes the frame buffer RGB565.
The guest draws four coloured quadrants into /dev/fb0, the DRM fbdev
emulation over tilcdc's scan-out buffer, and QMP's screendump must show
exactly that picture.  Blanking stops the raster (tilcdc waits for
FRAME_DONE) and the picture comes back on unblank.  On the BBB, pulling
the monitor out (QOM property "connected" of /machine/hdmi) reaches the
driver through the framer's HPD interrupt on GPIO1_25."""

import os
import tempfile
import time

import guest as g
from suite import test_pairs, booted, load_modules

FB = "/sys/class/graphics/fb0"
CONNECTOR = "/sys/class/drm/card0-HDMI-A-1"

# Per board: the picture's size, and each quadrant's pixel as the fbdev
# stores it (little endian) with the colour the display shows for it
PANEL = {
    "am335x-evm": {
        "size": (800, 480),
        "bpp": 32,
        "colours": [        # XRGB8888: B, G, R, X in memory
            (b"\x00\x00\xff\x00", (255, 0, 0)),
            (b"\x00\xff\x00\x00", (0, 255, 0)),
            (b"\xff\x00\x00\x00", (0, 0, 255)),
            (b"\xff\xff\xff\x00", (255, 255, 255)),
        ],
    },
    "beaglebone-black": {
        # QEMU's EDID prefers 1280x800
        "size": (1280, 800),
        "bpp": 16,
        "colours": [        # RGB565, red in bits 15:11
            (b"\x00\xf8", (255, 0, 0)),
            (b"\xe0\x07", (0, 255, 0)),
            (b"\x1f\x00", (0, 0, 255)),
            (b"\xff\xff", (255, 255, 255)),
        ],
    },
}


def octal(data):
    return "".join("\\%03o" % b for b in data)


def repeat_cmd(src, count, out):
    """Shell commands writing OUT: COUNT copies of file SRC, by doubling
    (powers of two, then concatenating the ones COUNT is made of)."""
    cmds = ["cp %s /tmp/d1" % src]
    n = 1
    while n * 2 <= count:
        cmds.append("cat /tmp/d%d /tmp/d%d > /tmp/d%d" % (n, n, n * 2))
        n *= 2
    parts = ["/tmp/d%d" % (1 << i) for i in range(n.bit_length())
             if count & (1 << i)]
    cmds.append("cat %s > %s" % (" ".join(parts), out))
    cmds.append("rm /tmp/d*")
    return " && ".join(cmds)


def draw_cmds(panel):
    """Shell command lines (each short enough for the serial console's
    line discipline) drawing the four quadrants into /dev/fb0."""
    width, height = panel["size"]
    cmds = []
    for i, (pixel, _) in enumerate(panel["colours"]):
        cmds.append("printf '%s' > /tmp/px%d && %s"
                    % (octal(pixel), i, repeat_cmd("/tmp/px%d" % i,
                                                   width // 2,
                                                   "/tmp/half%d" % i)))
    for band, (left, right) in enumerate(((0, 1), (2, 3))):
        cmds.append("cat /tmp/half%d /tmp/half%d > /tmp/row%d && %s"
                    % (left, right, band,
                       repeat_cmd("/tmp/row%d" % band, height // 2,
                                  "/tmp/band%d" % band)))
    cmds.append("cat /tmp/band0 /tmp/band1 > /dev/fb0")
    return cmds


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    fields = data.split(maxsplit=4)
    if fields[0] != b"P6" or int(fields[3]) != 255:
        raise g.GuestError("screendump is not a binary PPM: %r" % data[:20])
    return int(fields[1]), int(fields[2]), fields[4]


def screendump(vm):
    fd, path = tempfile.mkstemp(prefix="am335x-lcd-", suffix=".ppm")
    os.close(fd)
    try:
        vm.qmp("screendump", filename=path)
        return read_ppm(path)
    finally:
        os.unlink(path)


def check_picture(vm, panel, want):
    """WANT(x, y) gives the colour every pixel must show."""
    width, height = panel["size"]
    w, h, rgb = screendump(vm)
    if (w, h) != (width, height):
        raise g.GuestError("the display shows %dx%d, not %dx%d"
                           % (w, h, width, height))
    bad = 0
    first = None
    for y in range(h):
        row = rgb[y * w * 3:(y + 1) * w * 3]
        for x in range(w):
            px = tuple(row[x * 3:x * 3 + 3])
            if px != want(x, y):
                bad += 1
                if first is None:
                    first = (x, y, px, want(x, y))
    if bad:
        raise g.GuestError("%d pixels differ; first at (%d, %d): %s, "
                           "wanted %s" % ((bad,) + first))


def quadrants(panel):
    width, height = panel["size"]

    def want(x, y):
        quadrant = (2 if y >= height // 2 else 0) + (1 if x >= width // 2
                                                     else 0)
        return panel["colours"][quadrant][1]
    return want


def interrupts(vm, name):
    _, out = vm.shell("grep -i %s /proc/interrupts | "
                      "awk '{ n += $2 } END { print n + 0 }'" % name)
    return int(out.split()[-1])


def check_hotplug(vm):
    """The monitor pulled out and plugged back: HPD interrupts, and the
    connector's status follows."""
    for connected in (False, True):
        before = interrupts(vm, "tda998x")
        vm.qmp("qom-set", path="/machine/hdmi", property="connected",
               value=connected)
        want = "connected" if connected else "disconnected"
        deadline = time.time() + 30
        while True:
            _, out = vm.shell("sleep 0.2; cat %s/status" % CONNECTOR)
            after = interrupts(vm, "tda998x")
            if out.split()[-1] == want and after > before:
                break
            if time.time() > deadline:
                raise g.GuestError("connector %s, %d HPD interrupts after "
                                   "the monitor was %s" %
                                   (out.split()[-1], after - before,
                                    "plugged in" if connected else
                                    "pulled out"))
        print("#   monitor %s: %s, %d tda998x interrupts"
              % ("plugged in" if connected else "pulled out", want,
                 after - before))


def check_lcd(board, kernel, timeout):
    panel = PANEL[board]
    width, height = panel["size"]
    with booted(board, kernel, "lcd", timeout) as vm:
        load_modules(vm, "lcd")
        status, out = vm.shell(
            "for i in $(seq 100); do [ -e /dev/fb0 ] && break; sleep 0.1; "
            "done; cat %s/name %s/virtual_size %s/bits_per_pixel %s/stride"
            % (FB, FB, FB, FB))
        if status != 0:
            _, log = vm.shell("dmesg | grep -i -E "
                              "'lcdc|drm|panel|backl|tda'")
            raise g.GuestError("no /dev/fb0: %s\n%s" % (out, log))
        name, size, bpp, stride = out.split()[-4:]
        print("#   fb0: %s %s, %s bpp, stride %s" % (name, size, bpp, stride))
        if (size != "%d,%d" % (width, height) or
                int(bpp) != panel["bpp"] or
                int(stride) != width * panel["bpp"] // 8):
            raise g.GuestError("fb0 is %s at %s bpp, stride %s" %
                               (size, bpp, stride))
        if board == "beaglebone-black":
            status, out = vm.shell("cat %s/status; head -1 %s/modes; "
                                   "od -An -tx1 -N8 %s/edid"
                                   % (CONNECTOR, CONNECTOR, CONNECTOR))
            lines = out.splitlines()
            print("#   HDMI: %s" % " | ".join(lines))
            if (status != 0 or lines[0] != "connected" or
                    lines[1] != "%dx%d" % (width, height) or
                    lines[2].split() != ["00"] + ["ff"] * 6 + ["00"]):
                raise g.GuestError("HDMI connector: %s" % out)
        # fbcon would draw its text and cursor over the picture
        vm.shell("for c in /sys/class/vtconsole/vtcon*; do "
                 "grep -q 'frame buffer' $c/name && echo 0 > $c/bind; done")
        for cmd in draw_cmds(panel):
            status, out = vm.shell(cmd, 120)
            if status != 0:
                raise g.GuestError("drawing into /dev/fb0: %s" % out)
        check_picture(vm, panel, quadrants(panel))
        print("#   %dx%d picture shown exactly" % (width, height))

        before = interrupts(vm, "lcdc")
        status, out = vm.shell("echo 1 > %s/blank" % FB)
        if status != 0:
            raise g.GuestError("blank: %s" % out)
        check_picture(vm, panel, lambda x, y: (0, 0, 0))
        status, out = vm.shell("echo 0 > %s/blank" % FB)
        if status != 0:
            raise g.GuestError("unblank: %s" % out)
        check_picture(vm, panel, quadrants(panel))
        after = interrupts(vm, "lcdc")
        print("#   blank: black; unblank: the picture again; "
              "%d LCDC interrupts meanwhile" % (after - before))
        if after <= before:
            raise g.GuestError("no LCDC interrupt (FRAME_DONE, PL) seen")

        if board == "beaglebone-black":
            check_hotplug(vm)

        status, out = vm.shell(
            "dmesg | grep -i -E 'tilcdc|lcdc|tda998x' | grep -i -E "
            "'timeout|underflow|sync lost|error|fail'")
        if status == 0:
            raise g.GuestError("driver errors in dmesg:\n" + out)


test_pairs({
    "lcd": (check_lcd, [(b, k) for b in PANEL for k in g.KERNELS]),
}, 240)
