"""Guest tests of the SoC core (issue 3): console, boot, clean probe, power,
watchdog, RTC, I2C and GPIO, on every board and kernel."""

import re
import time

import guest as g
from suite import test, test_pairs, booted, guest_script, load_modules, ALL_PAIRS, CROSS, CROSS_OTHER


def early_console(board, kernel, timeout):
    """The kernel's own log lines arrive through UART0 (earlycon on the
    8250 core at 0x44e09000).  Checked against the kernel version and the
    DTB's model string, so nothing but real UART output can pass."""
    with g.Guest(board, kernel, name="early-console-%s-%s" % (board, kernel),
                 as_shipped=True) as vm:
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
    typed on the serial console.  The zImage and initramfs.cpio.gz as
    shipped, decompressors included (the other tests boot their
    uncompressed copies)."""
    with booted(board, kernel, "boot-shell", timeout, as_shipped=True) as vm:
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


# Devices whose blocks are not modelled yet, as an extended regex: the
# clean-probe test reports their failures as "known" instead of failing.
# Each entry goes when its model lands; none is left.
UNMODELLED = "|".join([
])


def check_poweroff(board, kernel, timeout):
    """poweroff: rtc-omap's ALARM2 drops PMIC_POWER_EN, the PMIC (told by
    its driver to turn off) cuts power, and QEMU exits with status 0."""
    with booted(board, kernel, "poweroff", timeout) as vm:
        load_modules(vm, "pmic")
        vm.send("poweroff\n")
        vm.expect(r"reboot: Power down", 60)
        status = vm.wait_exit(60)
        if status != 0:
            raise g.GuestError("QEMU exited with %d" % status)


def check_reboot(board, kernel, timeout):
    """reboot: the PRM_RSTCTRL warm reset restarts the machine, which boots
    to the shell again."""
    with booted(board, kernel, "reboot", timeout, reboot=True) as vm:
        vm.send("reboot\n")
        vm.expect(r"reboot: Restarting system", 60)
        first = vm.output.index("AM335X-ROOTFS: ready")
        vm.expect(r"AM335X-ROOTFS: ready", timeout, first + 1)
        vm.shell("true")


def check_watchdog(board, kernel, timeout):
    """A watchdog nobody kicks resets the machine (QEMU runs with
    -no-reboot, so the reset ends it) without the kernel asking for it."""
    with booted(board, kernel, "watchdog", timeout) as vm:
        load_modules(vm, "wdt")
        vm.send("watchdog -F -T 3 -t 1000 /dev/watchdog\n")
        start = time.monotonic()
        status = vm.wait_exit(60)
        elapsed = time.monotonic() - start
        if status != 0:
            raise g.GuestError("QEMU exited with %d" % status)
        if re.search(r"reboot: (Restarting|Power down)", vm.output):
            raise g.GuestError("the kernel restarted, not the watchdog")
        print("#   reset %.1f s after the last kick" % elapsed)


def check_rtc(board, kernel, timeout):
    """The RTC holds the host's time, hwclock reads it, and a wakealarm
    raises the alarm interrupt."""
    with booted(board, kernel, "rtc", timeout) as vm:
        status, out = vm.shell("date +%s")
        guest = int(out.split()[-1])
        if abs(guest - time.time()) > 10:
            raise g.GuestError("guest time %d, host %d" % (guest, time.time()))
        status, out = vm.shell("hwclock -r")
        if status != 0:
            raise g.GuestError("hwclock -r: %s" % out)
        count = "grep -i rtc /proc/interrupts | awk '{ n += $2 } END { print n }'"
        _, before = vm.shell(count)
        status, out = vm.shell("echo +2 > /sys/class/rtc/rtc0/wakealarm && sleep 4")
        if status != 0:
            raise g.GuestError("wakealarm: %s" % out)
        _, after = vm.shell(count)
        if int(after.split()[-1]) <= int(before.split()[-1]):
            raise g.GuestError("no RTC interrupt: %s -> %s" % (before, after))


def i2cdetect(vm, bus):
    """Addresses that answer on a bus (or are claimed by a driver)."""
    status, out = vm.shell("/usr/sbin/i2cdetect -y -r %d" % bus)
    if status != 0:
        raise g.GuestError("i2cdetect: %s" % out)
    found = set()
    for line in out.splitlines():
        m = re.match(r"^([0-7])0:\s+(.*)$", line)
        if not m:
            continue
        cells = m.group(2).split()
        for col, cell in enumerate(cells):
            if cell != "--":
                found.add(int(m.group(1)) * 16 + col + (3 if m.group(1) == "0" else 0))
    return found


def check_i2c(board, kernel, timeout):
    """i2cdetect on I2C0 finds the PMIC, the board EEPROM and (on the BBB)
    the HDMI framer's two cores, and nothing that the board does not have;
    with the am335x kernel, at24 reads the board ID header."""
    devices = {"beaglebone-black": {0x24, 0x50, 0x34, 0x70},
               "am335x-evm": {0x2d, 0x50}}[board]
    name = {"beaglebone-black": "A335BNLT", "am335x-evm": "A33515BB"}[board]
    with booted(board, kernel, "i2c", timeout) as vm:
        load_modules(vm, "i2c")
        found = i2cdetect(vm, 0)
        if found != devices:
            raise g.GuestError("I2C0 answers at %s" % sorted(hex(a) for a in found))
        # The ID header, read through omap-i2c with i2c-dev (-f: at24 may own it)
        status, out = vm.shell("/usr/sbin/i2ctransfer -f -y 0 w2@0x50 0 0 r12@0x50")
        header = [int(x, 16) for x in out.split()[-12:]] if status == 0 else []
        if header[:4] != [0xaa, 0x55, 0x33, 0xee] or \
                bytes(header[4:12]).decode("ascii", "replace") != name:
            raise g.GuestError("EEPROM header: %s" % out)
        # ... and through at24, where the DT describes the EEPROM
        if kernel == "am335x" and board == "beaglebone-black":
            status, out = vm.shell("hexdump -C /sys/bus/i2c/devices/0-0050/eeprom | head -2")
            if "aa 55 33 ee" not in out or name not in out.replace("|", ""):
                raise g.GuestError("at24 EEPROM: %s" % out)


def read_sysfs(vm, path):
    """The value a sysfs attribute gives, or None if reading it fails."""
    status, out = vm.shell("cat %s" % path)
    return out.strip().splitlines()[-1] if status == 0 and out.strip() else None


def check_sensors(board, kernel, timeout):
    """The EVM's I2C1 sensors through their Linux drivers, each reading what
    the host sets on the model: the TMP275 through lm75's hwmon (12-bit
    resolution, 1/16 degC steps), the TSL2550 through tsl2550's lux (about
    0.39 lux a count of channel 0 without infrared, as the datasheet has
    it; a fifth of the counts in the extended range, which the driver
    multiplies back; no reading while powered down or before the first
    conversions), and the LIS331DLH through lis3lv02d's position (mg,
    which the driver scales by 1000/1024) and its self-test."""
    temp = "/sys/bus/i2c/devices/1-0048/hwmon/hwmon*/temp1_input"
    light = "/sys/bus/i2c/devices/1-0039"
    accel = "/sys/devices/platform/lis3lv02d"
    with booted(board, kernel, "sensors", timeout) as vm:
        load_modules(vm, "sensors")
        # the TSL2550's first conversions take 800 ms from its probe
        vm.shell("sleep 1")
        got = read_sysfs(vm, temp)
        if got != "25000":
            raise g.GuestError("TMP275 at power-up: %r, not 25000" % got)
        for mdeg in (37500, -5250):
            vm.qmp("qom-set", path="/machine/temperature-sensor",
                   property="temperature", value=mdeg)
            got = read_sysfs(vm, temp)
            if got != str(mdeg):
                raise g.GuestError("TMP275 at %d m degC: %r" % (mdeg, got))

        for count, mode in ((1000, 0), (200, 0), (1000, 1)):
            vm.qmp("qom-set", path="/machine/light-sensor",
                   property="adc0-count", value=count)
            vm.qmp("qom-set", path="/machine/light-sensor",
                   property="adc1-count", value=0)
            status, out = vm.shell("echo %d > %s/operating_mode" % (mode, light))
            got = read_sysfs(vm, light + "/lux1_input")
            if status != 0 or got is None or \
                    abs(int(got) - 0.39 * count) > 0.04 * 0.39 * count:
                raise g.GuestError("TSL2550 at %d counts, mode %d: %r lux"
                                   % (count, mode, got))
        vm.shell("echo 0 > %s/operating_mode" % light)
        vm.shell("echo 0 > %s/power_state" % light)
        if read_sysfs(vm, light + "/lux1_input") is not None:
            raise g.GuestError("TSL2550 gave a reading while powered down")
        vm.shell("echo 1 > %s/power_state" % light)
        if read_sysfs(vm, light + "/lux1_input") is not None:
            raise g.GuestError("TSL2550 gave a reading before its conversions")
        vm.shell("sleep 1")
        if read_sysfs(vm, light + "/lux1_input") is None:
            raise g.GuestError("TSL2550: no reading 1 s after power-up")

        for x, y, z in ((0, 0, 1000), (500, -250, 980)):
            for axis, mg in zip("xyz", (x, y, z)):
                vm.qmp("qom-set", path="/machine/accelerometer",
                       property="%s-mg" % axis, value=mg)
            got = read_sysfs(vm, accel + "/position")
            want = tuple(int(mg * 1000 / 1024) for mg in (x, y, z))
            m = re.match(r"\((-?\d+),(-?\d+),(-?\d+)\)", got or "")
            if not m or any(abs(int(v) - w) > 1 for v, w in zip(m.groups(), want)):
                raise g.GuestError("LIS331DLH at %s mg: position %r, not %s"
                                   % ((x, y, z), got, want))
        got = read_sysfs(vm, accel + "/selftest")
        if not got or not got.startswith("OK "):
            raise g.GuestError("LIS331DLH self-test: %r" % got)


def input_event_device(vm, name):
    """/dev/input/eventN of the input device called NAME."""
    status, out = vm.shell("cat /proc/bus/input/devices")
    m = re.search(r'N: Name="%s"\n(?:[^\n]+\n)*?H: Handlers=[^\n]*?(event\d+)'
                  % re.escape(name), out)
    if status != 0 or not m:
        raise g.GuestError("no input device %r: %s" % (name, out))
    return "/dev/input/" + m.group(1)


def key_down(vm, device, key):
    """Whether evdev says KEY is down on DEVICE (evtest --query: 10)."""
    status, out = vm.shell("evtest --query %s EV_KEY %s" % (device, key))
    if status not in (0, 10):
        raise g.GuestError("evtest --query %s %s: %d %s"
                           % (device, key, status, out))
    return status == 10


def check_keys(board, kernel, timeout):
    """The EVM's keys through gpio-keys and (am335x kernel; Debian's has no
    matrix_keypad) gpio-matrix-keypad: up at boot, and each key QEMU's
    input presses is down in Linux until it is let go, the others up."""
    keys = [("volumeup", "volume-keys", "KEY_VOLUMEUP"),
            ("volumedown", "volume-keys", "KEY_VOLUMEDOWN")]
    if kernel == "am335x":
        keys += [("menu", "matrix_keypad0", "KEY_MENU"),
                 ("esc", "matrix_keypad0", "KEY_BACK"),
                 ("left", "matrix_keypad0", "KEY_LEFT"),
                 ("right", "matrix_keypad0", "KEY_RIGHT"),
                 ("ret", "matrix_keypad0", "KEY_ENTER"),
                 ("down", "matrix_keypad0", "KEY_DOWN")]
    with booted(board, kernel, "keys", timeout) as vm:
        load_modules(vm, "keys")
        devices = {name: input_event_device(vm, name) for _, name, _ in keys}
        for qcode, name, key in keys:
            if key_down(vm, devices[name], key):
                raise g.GuestError("%s is down at boot" % key)
        for qcode, name, key in keys:
            for down in (True, False):
                vm.qmp("input-send-event", events=[
                    {"type": "key", "data": {
                        "down": down, "key": {"type": "qcode", "data": qcode}}}])
                # the keypad's debounce (5 ms) and scan
                vm.shell("sleep 0.05")
                for _, other_name, other in keys:
                    want = down and other == key
                    if key_down(vm, devices[other_name], other) != want:
                        raise g.GuestError("after %s %s, %s is %s"
                                           % (qcode, "down" if down else "up",
                                              other, "down" if not want else "up"))


def check_user_i2c_device(board, kernel, timeout):
    """A QEMU I2C device the user puts on a bus by name (-device
    tmp105,bus=i2c2): Linux instantiates it from sysfs, as for a cape
    without a DT overlay, and lm75 reads the temperature QMP sets."""
    args = ("-device", "tmp105,bus=i2c2,address=0x48,id=cape-temp")
    with booted(board, kernel, "user-i2c", timeout, extra_args=args) as vm:
        load_modules(vm, "sensors")
        status, out = vm.shell("echo tmp105 0x48 > "
                               "/sys/bus/i2c/devices/i2c-2/new_device")
        if status != 0:
            raise g.GuestError("new_device: %s" % out)
        for mdeg in (21500, -40000):
            vm.qmp("qom-set", path="/machine/peripheral/cape-temp",
                   property="temperature", value=mdeg)
            got = read_sysfs(vm, "/sys/bus/i2c/devices/2-0048/hwmon/hwmon*/"
                             "temp1_input")
            if got != str(mdeg):
                raise g.GuestError("TMP105 at %d m degC: %r" % (mdeg, got))


def check_led(board, kernel, timeout):
    """Setting USR3's brightness from Linux drives GPIO1_24, which the host
    sees in the GPIO module's "outputs" property."""
    led = "/sys/class/leds/beaglebone:green:usr3"
    with booted(board, kernel, "led", timeout) as vm:
        load_modules(vm, "leds")
        for level in (1, 0):
            status, out = vm.shell("echo none > %s/trigger && echo %d > %s/brightness"
                                   % (led, level, led))
            if status != 0:
                raise g.GuestError("LED: %s" % out)
            outputs = vm.qmp("qom-get", path="/machine/soc/gpio[1]",
                             property="outputs")
            if bool(outputs & (1 << 24)) != bool(level):
                raise g.GuestError("brightness %d but GPIO1 outputs 0x%x"
                                   % (level, outputs))


# name: (function, board x kernel pairs)
SOC_TESTS = {
    "probe-clean": (lambda b, k, t: guest_script("probe-clean.sh", b, k, t,
                                                 args="'%s'" % UNMODELLED),
                    ALL_PAIRS),
    # Only the BBB's DT makes the RTC the system power controller.
    "poweroff": (check_poweroff, [("beaglebone-black", k) for k in g.KERNELS]),
    "reboot": (check_reboot, CROSS),
    "watchdog": (check_watchdog, CROSS_OTHER),
    "rtc": (check_rtc, CROSS),
    "i2c": (check_i2c, CROSS_OTHER),
    "sensors": (check_sensors, [("am335x-evm", k) for k in g.KERNELS]),
    "keys": (check_keys, [("am335x-evm", k) for k in g.KERNELS]),
    "user-i2c-device": (check_user_i2c_device,
                        [("beaglebone-black", k) for k in g.KERNELS]),
    "led": (check_led, [("beaglebone-black", k) for k in g.KERNELS]),
}
test_pairs(SOC_TESTS, 180)

# The same tests are not tuned to one DT: the BeagleBone Green's runs too.
for _kernel in g.KERNELS:
    test("probe-clean/beaglebone-black+bonegreen-dtb/%s" % _kernel, 180)(
        lambda t, k=_kernel: guest_script("probe-clean.sh", "beaglebone-black",
                                          k, t, dtb="am335x-bonegreen.dtb",
                                          args="'%s'" % UNMODELLED))
