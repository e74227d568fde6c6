"""Guest tests of the HSMMC and EDMA (issue 4): the real sdhci-omap and
ti-edma drivers move data between the guest and the host's image files."""

import hashlib
import os
import re
import shutil
import subprocess
import tempfile

import guest as g
from suite import test_pairs, booted, run_script, load_modules, CROSS

MiB = 1024 * 1024


class Card:
    """A raw SD/eMMC image in a temporary folder, removed afterwards."""

    def __init__(self, size_mib, partitions=None, copy_of=None):
        self.dir = tempfile.mkdtemp(prefix="am335x-card-")
        self.path = os.path.join(self.dir, "card.img")
        if copy_of:
            shutil.copyfile(copy_of, self.path)
        else:
            with open(self.path, "wb") as f:
                f.truncate(size_mib * MiB)
        if partitions:
            # sfdisk script lines, e.g. "start=2048, size=40960, type=83"
            subprocess.run(["sfdisk", "--quiet", "--no-reread", "--no-tell-kernel",
                            self.path], input="label: dos\n" + "\n".join(partitions) + "\n",
                           text=True, check=True, capture_output=True)

    def drive(self, index, drive_id=None, **opts):
        spec = "if=sd,index=%d,format=raw,file=%s" % (index, self.path)
        if drive_id:
            spec += ",id=%s" % drive_id
        for k, v in opts.items():
            spec += ",%s=%s" % (k, v)
        return ["-drive", spec]

    def partition(self, n):
        """(offset, size) in bytes of partition N, as sfdisk reads it."""
        out = subprocess.run(["sfdisk", "--dump", self.path], capture_output=True,
                             text=True, check=True).stdout
        for line in out.splitlines():
            m = re.match(r"\S+?(\d+) : start=\s*(\d+), size=\s*(\d+)", line)
            if m and int(m.group(1)) == n:
                return int(m.group(2)) * 512, int(m.group(3)) * 512
        raise g.GuestError("no partition %d in %s" % (n, self.path))

    def extract(self, n):
        offset, size = self.partition(n)
        part = os.path.join(self.dir, "p%d.img" % n)
        with open(self.path, "rb") as src, open(part, "wb") as dst:
            src.seek(offset)
            dst.write(src.read(size))
        return part

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def host_file_sha256(card, n, fs, name):
    """sha256 of a file inside partition N of the image, read on the host
    with debugfs (ext2/ext4) or mtools (vfat), not through QEMU."""
    part = card.extract(n)
    if fs == "vfat":
        cmd = ["mcopy", "-n", "-i", part, "::" + name, "-"]
    else:
        cmd = ["debugfs", "-R", "cat /" + name, part]
    data = subprocess.run(cmd, capture_output=True, check=True).stdout
    return hashlib.sha256(data).hexdigest()


def quit_guest(vm):
    """Ends QEMU through QMP (the EVM has no power-off path); QEMU flushes
    its block devices on the way out."""
    try:
        vm.qmp("quit")
    except (g.GuestError, OSError):
        pass
    vm.wait_exit(30)


def wait_guest(vm, condition, what, timeout=20):
    """Polls a shell condition in the guest until it holds."""
    status, out = vm.shell("n=0; until %s; do n=$((n + 1)); [ $n -gt %d ] && break;"
                           " sleep 0.25; done; %s" % (condition, timeout * 4, condition),
                           timeout + 30)
    if status != 0:
        raise g.GuestError("guest never saw %s: %s" % (what, out))


def check_root_on_sd(board, kernel, timeout):
    """The board boots from the SD card's ext4 partition: the am335x kernel
    mounts root=/dev/mmcblk0p2 itself; the Debian kernel's initramfs loads
    sdhci-omap and ext4 and switches to it."""
    sd = os.path.join(g.IMAGES, "sd-%s.img" % board)
    with Card(0, copy_of=sd) as card:
        if kernel == "am335x":
            kw = dict(initrd="", append="root=/dev/mmcblk0p2 rootwait rw init=/init")
        else:
            kw = dict(append="am335x.modules=sdhci-omap,crc32c_generic,ext4 am335x.root=/dev/mmcblk0p2")
        with booted(board, kernel, "mmc-root", timeout,
                    extra_args=card.drive(0), **kw) as vm:
            status, out = vm.shell("grep ' / ' /proc/mounts; cat /etc/hostname 2>/dev/null;"
                                   " echo written >/sd-root-check && sync && cat /sd-root-check")
            root = re.search(r"^(\S+) / (\S+) (\S+)", out, re.M)
            if not root or root.group(2) != "ext4" or "written" not in out:
                raise g.GuestError("root is not the SD card's ext4: %r" % out)
            print("#   root: %s" % root.group(0))


def expect_stages(vm, stages, timeout):
    """Waits for each regex of STAGES in turn, printing what matched."""
    for stage in stages:
        print("#   " + vm.expect(stage, timeout).group(0))


def check_rom_boot(board, kernel, timeout):
    """No -kernel: the board boots as the part does, from the SD card.  Its
    ROM code starts the MLO (U-Boot's SPL, Debian's u-boot-omap), which
    loads U-Boot; U-Boot finds the board in the ID EEPROM, reads the FAT
    partition's extlinux.conf and starts the am335x kernel on the ext4
    root."""
    model = {"beaglebone-black": "TI AM335x BeagleBone Black",
             "am335x-evm": "TI AM335x EVM"}[board]
    sd = os.path.join(g.IMAGES, "sd-%s.img" % board)
    with Card(0, copy_of=sd) as card:
        with booted(board, kernel, "rom-boot", timeout, rom_boot=True,
                    extra_args=card.drive(0) + ["-nic", "none"]) as vm:
            expect_stages(vm, (r"U-Boot SPL \S+", r"Trying to boot from MMC1",
                               r"^U-Boot \d{4}\.\S+", r"^DRAM:\s+\S+ MiB",
                               r"^Model: " + re.escape(model),
                               r"Found /extlinux/extlinux.conf",
                               r"Machine model: " + re.escape(model)), 5)
            status, out = vm.shell("cat /proc/cmdline; grep ' / ' /proc/mounts")
            root = re.search(r"^(\S+) / (\S+)", out, re.M)
            if status != 0 or "root=/dev/mmcblk0p2" not in out or not root \
                    or root.group(2) != "ext4":
                raise g.GuestError("not on the SD card's ext4 root: %r" % out)
            print("#   root: %s" % root.group(0))


def check_rom_boot_emmc(board, kernel, timeout):
    """The BeagleBone Black's straps put the eMMC first: with the card's
    image in the eMMC's user area (after its two 2 MiB boot partitions)
    and no SD card, the SPL comes from MMC1, and U-Boot finds
    extlinux.conf on the eMMC (its mmc 1) and starts the kernel.  The
    kernel's root is the SD card's, so the test ends there."""
    sd = os.path.join(g.IMAGES, "sd-%s.img" % board)
    with Card(512) as emmc:
        with open(sd, "rb") as src, open(emmc.path, "r+b") as dst:
            dst.seek(4 * MiB)
            shutil.copyfileobj(src, dst, 16 * MiB)
        vm = g.Guest(board, kernel, name="rom-boot-emmc-%s" % board,
                     rom_boot=True,
                     extra_args=emmc.drive(1) + ["-nic", "none"])
        print("# " + vm.command_line(), flush=True)
        with vm.start():
            expect_stages(vm, (r"U-Boot SPL \S+", r"Trying to boot from MMC2",
                               r"Scanning mmc 1:1",
                               r"Found /extlinux/extlinux.conf",
                               r"Starting kernel", r"Machine model: \S.*"),
                          timeout)


def check_uboot_shell(board, kernel, timeout):
    """U-Boot's own drivers on the models: stopped at its prompt, it lists
    the MMC controllers, probes I2C0 (the PMIC and the board's EEPROM
    answer), gets an address by DHCP through the CPSW from QEMU's user
    network, and its reset runs the ROM again."""
    devices = {"beaglebone-black": ("24", "50"), "am335x-evm": ("2d", "50")}
    # U-Boot's DT for the EVM has no MMC1 (the EVM's is on its add-on)
    last_mmc = {"beaglebone-black": 1, "am335x-evm": 0}[board]
    sd = os.path.join(g.IMAGES, "sd-%s.img" % board)
    with Card(0, copy_of=sd) as card:
        vm = g.Guest(board, kernel, name="uboot-shell-%s" % board,
                     rom_boot=True, reboot=True,
                     extra_args=card.drive(0) + ["-nic", "user"])
        print("# " + vm.command_line(), flush=True)
        with vm.start():
            vm.expect(r"Hit any key to stop autoboot", timeout)
            vm.send("\n")
            prompt = vm.expect(r"^=> ", 10).end()
            vm.send("mmc list\n")
            m = vm.expect(r"OMAP SD/MMC: %d.*\n=> " % last_mmc, 10, prompt)
            print("#   mmc list: " + " ".join(
                vm.output[prompt:m.end()].split()))
            start = m.end()
            vm.send("i2c dev 0; i2c probe\n")
            m = vm.expect(r"Valid chip addresses:([0-9A-Fa-f ]*)\n", 10,
                          start)
            found = m.group(1).lower().split()
            print("#   i2c probe: " + " ".join(found))
            for addr in devices[board]:
                if addr not in found:
                    raise g.GuestError("I2C0 0x%s did not answer" % addr)
            vm.expect(r"^=> ", 10, m.end())
            start = len(vm.output)
            vm.send("setenv autoload no; dhcp\n")
            # to the line's "(N ms)": a read can end inside the address
            m = vm.expect(r"DHCP client bound to address (\S+) \(", 30,
                          start)
            print("#   dhcp: " + m.group(1))
            if m.group(1) != "10.0.2.15":
                raise g.GuestError("DHCP gave %s, not slirp's 10.0.2.15"
                                   % m.group(1))
            vm.expect(r"^=> ", 10, m.end())
            start = len(vm.output)
            vm.send("reset\n")
            vm.expect(r"U-Boot SPL \S+", 30, start)
            print("#   reset: the ROM started the SPL again")


def check_data(board, kernel, timeout):
    """ext4, ext2 and vfat round trips on the SD card verify by sha256 and
    fsck; what the guest synced is in the host's image file afterwards."""
    layout = ["start=2048, size=49152, type=83",
              "start=51200, size=32768, type=83",
              "start=83968, type=c"]
    with Card(64, layout) as card:
        with booted(board, kernel, "mmc-data", timeout,
                    extra_args=card.drive(0)) as vm:
            load_modules(vm, "mmc", "fs")
            out = run_script(vm, "mmc-data.sh", "mmcblk0", 300)
            quit_guest(vm)
        guest_sums = dict(re.findall(r"HOST-CHECK (\S+) ([0-9a-f]{64})", out))
        for n, fs in ((1, "ext4"), (2, "ext2"), (3, "vfat")):
            host = host_file_sha256(card, n, fs, "host-check.bin")
            if guest_sums.get(fs) != host:
                raise g.GuestError("%s: guest wrote %s, the image holds %s"
                                   % (fs, guest_sums.get(fs), host))
            print("#   host image: %s host-check.bin %s" % (fs, host[:16]))


def check_emmc(board, kernel, timeout):
    """The BBB's eMMC is its own mmcblk device with boot partitions, and
    reads and writes verify."""
    with Card(4096) as emmc:
        with booted(board, kernel, "mmc-emmc", timeout,
                    extra_args=emmc.drive(1)) as vm:
            load_modules(vm, "mmc")
            # Linux adds the boot partitions' disks after the user area's
            wait_guest(vm, "[ -b /dev/mmcblk1 ] && [ -b /dev/mmcblk1boot1 ]",
                       "/dev/mmcblk1 and its boot partitions")
            run_script(vm, "mmc-emmc.sh", "mmcblk1", 120)


def check_hotplug(board, kernel, timeout):
    """Ejecting the SD card through QMP takes it away from the guest (card
    detect on GPIO0_6); changing the medium brings it back, writable."""
    layout = ["start=2048, type=83"]
    with Card(16, layout) as card:
        with booted(board, kernel, "mmc-hotplug", timeout,
                    extra_args=card.drive(0, "sd0")) as vm:
            load_modules(vm, "mmc", "fs")
            wait_guest(vm, "[ -b /dev/mmcblk0p1 ]", "the card")
            vm.qmp("eject", device="sd0", force=True)
            wait_guest(vm, "[ ! -e /sys/block/mmcblk0 ]", "the card leave")
            vm.qmp("blockdev-change-medium", device="sd0", filename=card.path,
                   format="raw")
            wait_guest(vm, "[ -b /dev/mmcblk0p1 ]", "the card return")
            status, out = vm.shell("/sbin/mke2fs -q -F -t ext4 /dev/mmcblk0p1 && mount /dev/mmcblk0p1 /mnt"
                                   " && echo ok >/mnt/f && umount /mnt && echo ro=$(cat /sys/block/mmcblk0/ro)")
            if status != 0 or "ro=0" not in out:
                raise g.GuestError("writable card after re-insertion: %r" % out)


def check_readonly(board, kernel, timeout):
    """A read-only drive is a write-protected card (CSD PERM_WRITE_PROTECT):
    the guest registers the disk read-only and mounts it read-only."""
    layout = ["start=2048, type=83"]
    with Card(16, layout) as card:
        subprocess.run(["/sbin/mke2fs", "-q", "-F", "-t", "ext4", "-d", os.path.dirname(__file__),
                        "-E", "offset=%d" % (2048 * 512), card.path, "8M"],
                       check=True, capture_output=True)
        with booted(board, kernel, "mmc-readonly", timeout,
                    extra_args=card.drive(0, readonly="on")) as vm:
            load_modules(vm, "mmc", "fs")
            wait_guest(vm, "[ -b /dev/mmcblk0p1 ]", "the card")
            status, out = vm.shell("echo ro=$(cat /sys/block/mmcblk0/ro); mount /dev/mmcblk0p1 /mnt;"
                                   " grep ' /mnt ' /proc/mounts; ls /mnt; touch /mnt/x;"
                                   " umount /mnt")
            mount = re.search(r"^/dev/mmcblk0p1 /mnt \S+ (\S+)", out, re.M)
            if "ro=1" not in out or not mount or not mount.group(1).startswith("ro") \
                    or "suite.py" not in out:
                raise g.GuestError("write-protected card not mounted read-only: %r" % out)
            print("#   " + mount.group(0))


def check_dmatest(board, kernel, timeout):
    """Linux's dmatest copies and verifies through the EDMA's memcpy
    channels, several threads, several iterations."""
    with booted(board, kernel, "dmatest", timeout) as vm:
        run_script(vm, "dmatest.sh", "50 2", 300)


# Debian's kernel lacks MFD_TPS65910, so the EVM's SD slot (vmmc-supply from
# the TPS65910) defers forever there: the EVM runs these with the am335x
# kernel only.  The eMMC is the BBB's.
BOTH = [(b, k) for b in g.BOARDS for k in g.KERNELS
        if not (b == "am335x-evm" and k == "debian")]
BBB = [("beaglebone-black", k) for k in g.KERNELS]
# Debian's kernel is built without dmatest.
AM335X_KERNEL = [(b, "am335x") for b in g.BOARDS]
MMC_TESTS = {
    "mmc-root": (check_root_on_sd, BOTH),
    # The SD images hold the am335x kernel.
    "rom-boot": (check_rom_boot, AM335X_KERNEL),
    "rom-boot-emmc": (check_rom_boot_emmc, [("beaglebone-black", "am335x")]),
    "uboot-shell": (check_uboot_shell, AM335X_KERNEL),
    # The same sdhci-omap source in both kernels: one pair per board.
    "mmc-data": (check_data, CROSS),
    "mmc-emmc": (check_emmc, BBB),
    "mmc-hotplug": (check_hotplug, CROSS),
    "mmc-readonly": (check_readonly, BOTH),
    "edma-dmatest": (check_dmatest, AM335X_KERNEL),
}
test_pairs(MMC_TESTS, 300)
