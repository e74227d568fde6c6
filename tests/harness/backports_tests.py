"""Debian's newest kernel for this release, bookworm-backports' armmp
(build/images/debian-backports, with its own DTBs): one test of each
model's driver on it, on the board whose test covers the most of it.
The full matrix runs on the two other kernels; this catches what a newer
kernel's drivers and device trees do differently (6.1 -> 6.12: all 42 of
the debian tests passed on it when it came in)."""

import guest as g
from suite import test_pairs
import adc_tests
import audio_tests
import can_tests
import lcd_tests
import mmc_tests
import net_tests
import soc_tests
import usb_tests

BBB = "beaglebone-black"
EVM = "am335x-evm"

# The other kernels' tests, as their modules register them
probe_clean = soc_tests.SOC_TESTS["probe-clean"][0]


test_pairs({
    # The zImage and the gzip'ed initramfs as Debian ships them
    "boot-shell": (soc_tests.boot_shell, [(BBB, g.BACKPORTS)]),
    "probe-clean": (probe_clean, [(BBB, g.BACKPORTS), (EVM, g.BACKPORTS)]),
    "mmc-data": (mmc_tests.check_data, [(BBB, g.BACKPORTS)]),
    # 1000 Mbit/s through the EVM's AR8031
    "net-tcp": (net_tests.check_tcp, [(EVM, g.BACKPORTS)]),
    "usb-storage": (usb_tests.check_storage, [(BBB, g.BACKPORTS)]),
    "usb-gadget-ecm": (usb_tests.check_gadget, [(BBB, g.BACKPORTS)]),
    "can": (can_tests.check_can, [(BBB, g.BACKPORTS)]),
    "lcd": (lcd_tests.check_lcd, [(EVM, g.BACKPORTS)]),
    "audio": (audio_tests.check_playback, [(BBB, g.BACKPORTS)]),
    "adc-one-shot": (adc_tests.check_one_shot, [(EVM, g.BACKPORTS)]),
}, 240)
