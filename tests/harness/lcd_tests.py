"""Guest test of the LCDC: the real tilcdc driver drives the AM335x EVM's
800x480 panel (tfc,s9700rtwv43tr-01b through panel-simple, its backlight
on eCAP0's PWM).  The guest draws into /dev/fb0, the DRM fbdev emulation
over tilcdc's scan-out buffer, and QMP's screendump must show exactly that
picture as the EVM's panel would, red and blue lines crossed as its DT
says.  Blanking stops the raster (tilcdc waits for FRAME_DONE), and the
picture comes back on unblank.

The BeagleBone Black's LCDC feeds an HDMI framer (TDA19988) that is not
modelled, so tilcdc does not bind there."""

import os
import tempfile

import guest as g
from suite import test_pairs, booted, load_modules

BOARD = "am335x-evm"
FB = "/sys/class/graphics/fb0"
WIDTH, HEIGHT = 800, 480

# XRGB8888 as the fbdev stores it (little endian: B, G, R, X) and the
# colour the panel shows for it
COLOURS = {
    "red": (b"\x00\x00\xff\x00", (255, 0, 0)),
    "green": (b"\x00\xff\x00\x00", (0, 255, 0)),
    "blue": (b"\xff\x00\x00\x00", (0, 0, 255)),
    "white": (b"\xff\xff\xff\x00", (255, 255, 255)),
}
# Quadrants: top left, top right, bottom left, bottom right
QUADRANTS = ("red", "green", "blue", "white")


def octal(data):
    return "".join("\\%03o" % b for b in data)


def half_row_cmd(name):
    """Shell commands writing /tmp/NAME: WIDTH/2 pixels of one colour, by
    doubling a 4-byte file up to 2 KiB and cutting it."""
    return ("printf '%s' > /tmp/%s.px && "
            "for i in 1 2 3 4 5 6 7 8 9; do cat /tmp/%s.px /tmp/%s.px "
            "> /tmp/%s.t && mv /tmp/%s.t /tmp/%s.px; done && "
            "head -c %d /tmp/%s.px > /tmp/%s"
            % ((octal(COLOURS[name][0]),) + (name,) * 6 +
               (WIDTH // 2 * 4, name, name)))


def band_cmd(out, left, right):
    """/tmp/OUT: HEIGHT/2 rows of LEFT | RIGHT, doubled up from one row
    (240 = 128 + 64 + 32 + 16 rows)."""
    return ("cat /tmp/{l} /tmp/{r} > /tmp/r1 && "
            "for n in 2 4 8 16 32 64 128; do cat /tmp/r$((n/2)) "
            "/tmp/r$((n/2)) > /tmp/r$n; done && "
            "cat /tmp/r128 /tmp/r64 /tmp/r32 /tmp/r16 > /tmp/{o} && "
            "rm /tmp/r*").format(l=left, r=right, o=out)


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


def check_picture(vm, want):
    """WANT(x, y) gives the colour every pixel must show."""
    w, h, rgb = screendump(vm)
    if (w, h) != (WIDTH, HEIGHT):
        raise g.GuestError("the panel shows %dx%d, not %dx%d"
                           % (w, h, WIDTH, HEIGHT))
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


def pattern(x, y):
    quadrant = (2 if y >= HEIGHT // 2 else 0) + (1 if x >= WIDTH // 2 else 0)
    return COLOURS[QUADRANTS[quadrant]][1]


def lcdc_interrupts(vm):
    _, out = vm.shell("grep -i lcdc /proc/interrupts | "
                      "awk '{ n += $2 } END { print n + 0 }'")
    return int(out.split()[-1])


def check_lcd(board, kernel, timeout):
    with booted(board, kernel, "lcd", timeout) as vm:
        load_modules(vm, "lcd")
        status, out = vm.shell(
            "for i in $(seq 100); do [ -e /dev/fb0 ] && break; sleep 0.1; "
            "done; cat %s/name %s/virtual_size %s/bits_per_pixel %s/stride"
            % (FB, FB, FB, FB))
        if status != 0:
            _, log = vm.shell("dmesg | grep -i -E 'lcdc|drm|panel|backl'")
            raise g.GuestError("no /dev/fb0: %s\n%s" % (out, log))
        name, size, bpp, stride = out.split()[-4:]
        print("#   fb0: %s %s, %s bpp, stride %s" % (name, size, bpp, stride))
        if (size != "%d,%d" % (WIDTH, HEIGHT) or bpp != "32" or
                int(stride) != WIDTH * 4):
            raise g.GuestError("fb0 is %s at %s bpp, stride %s" %
                               (size, bpp, stride))
        # fbcon would draw its text and cursor over the picture
        vm.shell("for c in /sys/class/vtconsole/vtcon*; do "
                 "grep -q 'frame buffer' $c/name && echo 0 > $c/bind; done")
        for name in COLOURS:
            status, out = vm.shell(half_row_cmd(name))
            if status != 0:
                raise g.GuestError("pattern: %s" % out)
        status, out = vm.shell(
            band_cmd("top", "red", "green") + " && " +
            band_cmd("bottom", "blue", "white") +
            " && cat /tmp/top /tmp/bottom > /dev/fb0", 120)
        if status != 0:
            raise g.GuestError("writing /dev/fb0: %s" % out)
        check_picture(vm, pattern)
        print("#   %dx%d picture shown exactly" % (WIDTH, HEIGHT))

        before = lcdc_interrupts(vm)
        status, out = vm.shell("echo 1 > %s/blank" % FB)
        if status != 0:
            raise g.GuestError("blank: %s" % out)
        check_picture(vm, lambda x, y: (0, 0, 0))
        status, out = vm.shell("echo 0 > %s/blank" % FB)
        if status != 0:
            raise g.GuestError("unblank: %s" % out)
        check_picture(vm, pattern)
        after = lcdc_interrupts(vm)
        print("#   blank: black; unblank: the picture again; "
              "%d LCDC interrupts meanwhile" % (after - before))
        if after <= before:
            raise g.GuestError("no LCDC interrupt (FRAME_DONE, PL) seen")

        status, out = vm.shell(
            "dmesg | grep -i -E 'tilcdc|lcdc' | grep -i -E "
            "'timeout|underflow|sync lost|error|fail'")
        if status == 0:
            raise g.GuestError("tilcdc errors in dmesg:\n" + out)


test_pairs({
    "lcd": (check_lcd, [(BOARD, "debian"), (BOARD, "am335x")]),
}, 240)
