"""Guest tests of the TSC_ADC: the real ti_am335x_tscadc and ti_am335x_adc
drivers read the analog inputs that QMP sets (qom-set on the SoC's tscadc,
properties ain0-7), one conversion at a time and as a buffered stream.

touchscreen: the EVM's 4-wire panel on AIN0-3, touched through QMP's
input-send-event (QEMU's absolute pointer is the finger): the real
ti_am335x_tsc driver reports the touch, the positions and the release as
input events, which the guest records from its evdev node.

The stock am335x-evm device tree enables the ADC with AIN4-7 (AIN0-3 are
the touchscreen's); the BeagleBone Black's leaves the block disabled, so
the tests run on the EVM."""

import re
import struct

import guest as g
from suite import test_pairs, booted, load_modules

BOARD = "am335x-evm"
IIO = "/sys/bus/iio/devices/iio:device0"
# The EVM tree's ti,adc-channels
CHANNELS = (4, 5, 6, 7)


def set_inputs(vm, codes):
    for ch, code in codes.items():
        vm.qmp("qom-set", path="/machine/soc/tscadc",
               property="ain%d" % ch, value=code)


def read_raw(vm, ch):
    status, out = vm.shell("cat %s/in_voltage%d_raw" % (IIO, ch))
    if status != 0:
        raise g.GuestError("in_voltage%d_raw: %s" % (ch, out))
    return int(out.split()[-1])


def check_one_shot(board, kernel, timeout):
    """in_voltageN_raw: one software one-shot step per read, the driver
    matching the FIFO word's step ID tag.  Two rounds of distinct values,
    so that a read can only pass by converting the input as it is now."""
    with booted(board, kernel, "adc-one-shot", timeout) as vm:
        load_modules(vm, "adc")
        status, out = vm.shell("cat %s/name; ls %s" % (IIO, IIO))
        if status != 0 or "TI-am335x-adc" not in out:
            raise g.GuestError("no TI-am335x-adc IIO device: %s" % out)
        got = sorted(int(c) for c in re.findall(r"in_voltage(\d+)_raw", out))
        if got != list(CHANNELS):
            raise g.GuestError("channels %s, the DT has %s" % (got, CHANNELS))
        for rnd in (0, 1):
            want = {ch: (ch * 613 + rnd * 1500) % 4096 for ch in CHANNELS}
            set_inputs(vm, want)
            read = {ch: read_raw(vm, ch) for ch in CHANNELS}
            print("#   round %d: set %s, read %s" % (rnd, want, read))
            if read != want:
                raise g.GuestError("read %s, inputs %s" % (read, want))
        status, out = vm.shell("dmesg | grep -i -E 'tscadc|am335x-adc' | "
                               "grep -i -E 'error|fail|timeout|warn'")
        if status == 0:
            raise g.GuestError("driver errors in dmesg:\n" + out)


def check_buffered(board, kernel, timeout):
    """The IIO buffer: continuous steps for the enabled channels, drained
    from FIFO1 by the EDMA (the driver's cyclic DMA, EDMA event 57).  The
    samples come in scan order with each channel's input, and the EDMA's
    completion interrupt counts the periods."""
    with booted(board, kernel, "adc-buffered", timeout) as vm:
        load_modules(vm, "adc")
        want = {4: 111, 5: 2222, 6: 3333, 7: 4095}
        set_inputs(vm, want)
        ccint = ("grep dma_ccint /proc/interrupts | "
                 "awk '{ n += $2 } END { print n + 0 }'")
        _, before = vm.shell(ccint)
        status, out = vm.shell(
            "cd %s && echo 1 > scan_elements/in_voltage5_en && "
            "echo 1 > scan_elements/in_voltage7_en && "
            "echo 256 > buffer/length && echo 1 > buffer/enable && "
            "dd if=/dev/iio:device0 bs=4 count=64 2>/dev/null | "
            "od -An -v -tu2; echo 0 > buffer/enable" % IIO, 60)
        if status != 0:
            raise g.GuestError("buffered read failed: %s" % out)
        samples = [int(v) for v in re.findall(r"\d+", out)]
        if len(samples) != 128:
            raise g.GuestError("%d samples, wanted 128: %s"
                               % (len(samples), out))
        expect = [want[5], want[7]] * 64
        if samples != expect:
            raise g.GuestError("samples %s, wanted pairs of %d, %d"
                               % (samples[:16], want[5], want[7]))
        _, after = vm.shell(ccint)
        periods = int(after.split()[-1]) - int(before.split()[-1])
        print("#   128 samples; %d EDMA completion interrupts" % periods)
        if periods <= 0:
            raise g.GuestError("the EDMA did not move the samples")


EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
ABS_X, ABS_Y, ABS_PRESSURE, BTN_TOUCH = 0, 1, 24, 330
ABS_MAX = 0x7fff        # QEMU's absolute axes


def touch(vm, down, x=None, y=None):
    events = []
    for axis, value in (("x", x), ("y", y)):
        if value is not None:
            events.append({"type": "abs",
                           "data": {"axis": axis,
                                    "value": round(value * ABS_MAX)}})
    if down is not None:
        events.append({"type": "btn",
                       "data": {"down": down, "button": "left"}})
    vm.qmp("input-send-event", events=events)
    # The driver samples the panel several hundred times a second
    vm.shell("sleep 0.5")


def read_events(vm, path):
    """The input events the guest recorded: [(type, code, value)]."""
    status, out = vm.shell("od -An -v -tx1 -w16 %s" % path, 60)
    if status != 0:
        raise g.GuestError("od %s: %s" % (path, out))
    events = []
    for line in out.splitlines():
        b = bytes.fromhex("".join(line.split()))
        if len(b) == 16:
            events.append(struct.unpack("<HHi", b[8:]))
    return events


def check_touchscreen(board, kernel, timeout):
    """A touch at (1/4, 3/4) of the panel, a move to the middle, a lift:
    the driver's X and Y are the plates' voltage dividers (a quarter of
    4095 is 1024), its pressure positive while touched, its BTN_TOUCH 1
    then 0."""
    with booted(board, kernel, "touchscreen", timeout) as vm:
        load_modules(vm, "adc")
        if g.debian(kernel):
            for module in ("ti_am335x_tsc", "evdev"):
                vm.shell("modprobe %s" % module)
        status, out = vm.shell("for i in $(seq 50); do grep -q ti-tsc "
                               "/proc/bus/input/devices && break; "
                               "sleep 0.1; done; cat /proc/bus/input/devices")
        m = re.search(r'Name="ti-tsc".*?Handlers=[^\n]*?(event\d+)', out,
                      re.S)
        if not m:
            raise g.GuestError("no ti-tsc event device:\n" + out)
        _, before = vm.shell("grep -E 'INTC  16 ' /proc/interrupts")
        vm.send("cat /dev/input/%s > /tmp/ev &\n" % m.group(1))
        vm.shell("sleep 0.5")
        touch(vm, True, 0.25, 0.75)
        first = read_events(vm, "/tmp/ev")
        touch(vm, None, 0.5, 0.5)
        # Read before the lift: a lift between a sequence's Z2 and X steps
        # reports one sample of X 0 (the sense line floats) with valid
        # Z1/Z2, as the driver reads the FIFO (Y, Z1, Z2, X) on a board too
        moved = read_events(vm, "/tmp/ev")
        touch(vm, False)
        events = read_events(vm, "/tmp/ev")
        _, after = vm.shell("grep -E 'INTC  16 ' /proc/interrupts")
        print("#   %d input events; interrupts: %s -> %s"
              % (len(events), before.split()[1:2], after.split()[1:2]))

        def last(evs, code, kind=EV_ABS):
            vals = [v for t, c, v in evs if t == kind and c == code]
            return vals[-1] if vals else None
        got = (last(first, ABS_X), last(first, ABS_Y))
        print("#   at (1/4, 3/4): X %s Y %s pressure %s" %
              (got + (last(first, ABS_PRESSURE),)))
        if None in got or abs(got[0] - 1024) > 2 or abs(got[1] - 3071) > 2:
            raise g.GuestError("touch at (1/4, 3/4) read as %s" % (got,))
        if not last(first, ABS_PRESSURE) or \
                last(first, BTN_TOUCH, EV_KEY) != 1:
            raise g.GuestError("no touch reported: %s" % first[:12])
        got = (last(moved, ABS_X), last(moved, ABS_Y))
        print("#   moved to the middle: X %s Y %s" % got)
        if abs(got[0] - 2048) > 2 or abs(got[1] - 2048) > 2:
            raise g.GuestError("the middle read as %s" % (got,))
        keys = [v for t, c, v in events if t == EV_KEY and c == BTN_TOUCH]
        if keys[-1:] != [0] or last(events, ABS_PRESSURE) != 0:
            raise g.GuestError("no release reported: %s" % events[-6:])
        status, out = vm.shell("dmesg | grep -i -E 'tsc|tscadc' | "
                               "grep -i -E 'error|fail|timeout|warn'")
        if status == 0:
            raise g.GuestError("driver errors in dmesg:\n" + out)


test_pairs({
    "adc-one-shot": (check_one_shot, [(BOARD, "debian"), (BOARD, "am335x")]),
    "adc-buffered": (check_buffered, [(BOARD, "debian")]),
    "touchscreen": (check_touchscreen, [(BOARD, "debian"), (BOARD, "am335x")]),
}, 180)
