"""Guest tests of the GPMC, ELM and the EVM's NAND (issue: NAND): the real
omap-gpmc, omap2-nand (BCH8 through the ELM, prefetch with the EDMA) and
omap_elm drivers, mtd-utils and UBI/UBIFS on an image file on the host.

Debian's kernel lacks MTD_NAND_OMAP_BCH, so these run on the am335x one."""

import hashlib
import os
import re
import shutil
import tempfile

import guest as g
import storage_bench
from suite import test, booted

BOARD, KERNEL = "am335x-evm", "am335x"
PAGE, OOB, PAGES_PER_BLOCK, BLOCKS = 2048, 64, 64, 2048
FULL = PAGE + OOB
IMAGE_BYTES = FULL * PAGES_PER_BLOCK * BLOCKS     # 276824064
PARTITIONS = ["NAND.SPL", "NAND.SPL.backup1", "NAND.SPL.backup2",
              "NAND.SPL.backup3", "NAND.u-boot-spl-os", "NAND.u-boot",
              "NAND.u-boot-env", "NAND.u-boot-env.backup1", "NAND.kernel",
              "NAND.file-system"]
# NAND.file-system, mtd9: 0xa00000 in the device (am335x-evm.dts)
FS_MTD = "/dev/mtd9"
FS_PAGE = 0xa00000 // PAGE


class NandImage:
    """A NAND image file in a temporary folder: empty at first, which the
    model extends to the whole array, erased."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="am335x-nand-")
        self.path = os.path.join(self.dir, "nand.img")
        open(self.path, "wb").close()

    def drive(self):
        return ["-drive", "if=mtd,format=raw,file=%s" % self.path]

    def page_data(self, page, count=1):
        """The data bytes (no spare) of COUNT pages from PAGE."""
        out = b""
        with open(self.path, "rb") as f:
            for p in range(page, page + count):
                f.seek(p * FULL)
                out += f.read(PAGE)
        return out

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def sh(vm, command, timeout=120):
    status, out = vm.shell(command, timeout)
    for line in out.splitlines():
        print("#   " + line)
    if status != 0:
        raise g.GuestError("%r exited with %d" % (command, status))
    return out


def quit_guest(vm):
    try:
        vm.qmp("quit")
    except (g.GuestError, OSError):
        pass
    vm.wait_exit(30)


def nand_guest(image, what, timeout, **kw):
    return booted(BOARD, KERNEL, what, timeout, extra_args=image.drive(), **kw)


def sysfs_counter(vm, name):
    out = sh(vm, "cat /sys/class/mtd/mtd9/%s" % name)
    return int(out.split()[-1])


def edma_completions(vm):
    """The EDMA3 completion interrupts the guest has taken so far."""
    out = sh(vm, "grep dma_ccint /proc/interrupts")
    return int(out.split()[1])


@test("nand-probe/%s/%s" % (BOARD, KERNEL), 240)
def nand_probe(timeout):
    """omap2-nand finds the Micron chip through the GPMC, uses BCH8 with
    the ELM, and registers the DT's ten partitions."""
    with NandImage() as image:
        if os.path.getsize(image.path) != 0:
            raise g.GuestError("image not empty")
        with nand_guest(image, "nand-probe", timeout) as vm:
            out = sh(vm, "dmesg | grep -E 'nand|omap-gpmc|elm'; cat /proc/mtd")
            for want in (r"Manufacturer ID: 0x2c, Chip ID: 0xda",
                         r"nand: Micron MT29F2G08ABAEAWP",
                         r"256 MiB, SLC, erase size: 128 KiB, page size: 2048, OOB size: 64",
                         r"using OMAP_ECC_BCH8_CODE_HW ECC scheme",
                         r"Creating 10 MTD partitions"):
                if not re.search(want, out):
                    raise g.GuestError("no %r in the kernel log" % want)
            names = re.findall(r'^mtd\d+: [0-9a-f]+ 00020000 "([^"]+)"', out, re.M)
            if names != PARTITIONS:
                raise g.GuestError("partitions %r" % names)
            if re.search(r"nand.*(error|fail)|elm.*(error|fail)", out, re.I):
                raise g.GuestError("NAND errors in the kernel log")
            if sysfs_counter(vm, "bad_blocks") != 0:
                raise g.GuestError("bad blocks on an erased device")
            quit_guest(vm)
        if os.path.getsize(image.path) != IMAGE_BYTES:
            raise g.GuestError("image of %d bytes" % os.path.getsize(image.path))


def raw_round_trip(vm, pages):
    """flash_erase + nandwrite + nanddump of PAGES random pages on
    NAND.file-system; checks the guest read back what it wrote and returns
    the data's sha256 and the EDMA completions the transfer took."""
    before = edma_completions(vm)
    out = sh(vm, "dd if=/dev/urandom of=/tmp/data bs=2048 count=%d 2>/dev/null"
             " && /usr/sbin/flash_erase -q %s 0 %d"
             " && /usr/sbin/nandwrite -q %s /tmp/data"
             " && /usr/sbin/nanddump -q -l %d -f /tmp/back %s"
             " && sha256sum /tmp/data /tmp/back"
             % (pages, FS_MTD, -(-pages // PAGES_PER_BLOCK), FS_MTD,
                pages * PAGE, FS_MTD), 180)
    sums = re.findall(r"^([0-9a-f]{64})\s", out, re.M)
    if len(sums) != 2 or sums[0] != sums[1]:
        raise g.GuestError("round trip differs: %r" % sums)
    return sums[0], edma_completions(vm) - before


def check_image(image, pages, digest):
    """The host's image file holds what the guest wrote."""
    host = hashlib.sha256(image.page_data(FS_PAGE, pages)).hexdigest()
    if host != digest:
        raise g.GuestError("the image holds %s, the guest wrote %s" % (host, digest))
    print("#   host image: %s" % host[:16])


@test("nand-raw/%s/%s" % (BOARD, KERNEL), 240)
def nand_raw(timeout):
    """flash_erase + nandwrite + nanddump round trip on NAND.file-system
    verifies by sha256, in the guest and in the host's image file; the
    stock DT's "prefetch-dma" moves the pages with the EDMA."""
    pages = 256
    with NandImage() as image:
        with nand_guest(image, "nand-raw", timeout) as vm:
            digest, completions = raw_round_trip(vm, pages)
            if completions == 0:
                raise g.GuestError("no EDMA completion in prefetch-dma mode")
            if sysfs_counter(vm, "corrected_bits") or sysfs_counter(vm, "ecc_failures"):
                raise g.GuestError("ECC events on a clean device")
            quit_guest(vm)
        check_image(image, pages, digest)


@test("nand-polled/%s/%s" % (BOARD, KERNEL), 240)
def nand_polled(timeout):
    """With the DT's ti,nand-xfer-type set to "prefetch-polled", no
    rb-gpios and no ti,elm-id (as the PSP guide ran its UBIFS figures, and
    scripts/bench runs them: the driver waits a fixed 50 us after a
    page-read command and polls the status register after a program or
    erase, instead of watching R/B# on WAIT0, and runs the BCH8 engine
    per 512-byte sector), omap2-nand moves the pages through the GPMC
    prefetch and write-posting FIFO by CPU polling: a write/read round
    trip verifies by sha256 without one EDMA completion; the same transfer
    with the stock "prefetch-dma" and R/B# takes EDMA completions
    (nand-raw)."""
    pages = 128
    with NandImage() as image:
        dtb = storage_bench.nand_polled_dtb(BOARD, image.dir)
        with nand_guest(image, "nand-polled", timeout, dtb=dtb) as vm:
            nodes = sh(vm, "find /sys/firmware/devicetree/base -name 'nand@*'").split()
            if len(nodes) != 1:
                raise g.GuestError("NAND nodes in the guest's DT: %r" % nodes)
            props = sh(vm, "ls %s" % nodes[0]).split()
            if "rb-gpios" in props or "ti,elm-id" in props \
                    or "ti,nand-xfer-type" not in props:
                raise g.GuestError("the guest's NAND node has %r" % props)
            # No ELM: BCH8 one sector at a time, as the PSP's driver ran it
            sh(vm, "dmesg | grep 'using OMAP_ECC_BCH8_CODE_HW_DETECTION_SW'")
            digest, completions = raw_round_trip(vm, pages)
            if completions:
                raise g.GuestError("%d EDMA completions in polled mode"
                                   % completions)
            quit_guest(vm)
        check_image(image, pages, digest)


@test("nand-ecc/%s/%s" % (BOARD, KERNEL), 300)
def nand_ecc(timeout):
    """Bits flipped in the array (the NAND's flip-bits, through QMP): 1 to 8
    per 512-byte sector are corrected (corrected_bits grows by that many,
    the data reads back intact); 9 are not (ecc_failures grows)."""
    with NandImage() as image:
        with nand_guest(image, "nand-ecc", timeout) as vm:
            sh(vm, "dd if=/dev/urandom of=/tmp/data bs=2048 count=16 2>/dev/null"
               " && /usr/sbin/flash_erase -q %s 0 1"
               " && /usr/sbin/nandwrite -q %s /tmp/data" % (FS_MTD, FS_MTD))
            for nerr in range(1, 10):
                page = nerr - 1
                sector = nerr % 4
                bits = ",".join(str((512 * sector + (37 * i + 3) % 512) * 8 + i % 8)
                                for i in range(nerr))
                # Move the driver's page cache off the page first.
                sh(vm, "/usr/sbin/nanddump -q -s %d -l 2048 -f /dev/null %s"
                   % (15 * PAGE, FS_MTD))
                before = (sysfs_counter(vm, "corrected_bits"),
                          sysfs_counter(vm, "ecc_failures"))
                vm.qmp("qom-set", path="/machine/nand", property="flip-bits",
                       value="%d:%s" % (FS_PAGE + page, bits))
                status, out = vm.shell(
                    "/usr/sbin/nanddump -q -s %d -l 2048 -f /tmp/page %s;"
                    " dd if=/tmp/data bs=2048 skip=%d count=1 2>/dev/null | cmp - /tmp/page"
                    " && echo INTACT" % (page * PAGE, FS_MTD, page), 60)
                after = (sysfs_counter(vm, "corrected_bits"),
                         sysfs_counter(vm, "ecc_failures"))
                print("#   %d flipped bits: corrected %d -> %d, failed %d -> %d%s"
                      % (nerr, before[0], after[0], before[1], after[1],
                         ", data intact" if "INTACT" in out else ""))
                if nerr <= 8:
                    if after[0] - before[0] != nerr or after[1] != before[1] \
                            or "INTACT" not in out:
                        raise g.GuestError("%d bit flips not corrected: %r" % (nerr, out))
                elif after[1] <= before[1]:
                    raise g.GuestError("9 bit flips not reported as an ECC failure")


@test("nand-badblock/%s/%s" % (BOARD, KERNEL), 240)
def nand_badblock(timeout):
    """Factory bad blocks (the NAND's bad-blocks property) are found by the
    kernel's scan and skipped by nandwrite."""
    with NandImage() as image:
        # Blocks 80 and 81: the first two of NAND.file-system
        with nand_guest(image, "nand-badblock", timeout) as vm:
            pass
        with booted(BOARD, KERNEL, "nand-badblock", timeout,
                    extra_args=image.drive() +
                    ["-global", "am335x-nand.bad-blocks=80,81,2000"]) as vm:
            if sysfs_counter(vm, "bad_blocks") != 3:
                raise g.GuestError("the kernel does not see 3 bad blocks")
            out = sh(vm, "dd if=/dev/urandom of=/tmp/data bs=2048 count=64 2>/dev/null"
                     " && /usr/sbin/nandwrite -q %s /tmp/data"
                     " && /usr/sbin/nanddump -q --bb=skipbad -l 131072 -f /tmp/back %s"
                     " && sha256sum /tmp/data /tmp/back" % (FS_MTD, FS_MTD))
            sums = re.findall(r"^([0-9a-f]{64})\s", out, re.M)
            if len(sums) != 2 or sums[0] != sums[1]:
                raise g.GuestError("bad blocks not skipped: %r" % sums)
            quit_guest(vm)
        # The data went to block 82, the first good one.
        host = hashlib.sha256(image.page_data(82 * PAGES_PER_BLOCK, 64)).hexdigest()
        if host != sums[0]:
            raise g.GuestError("block 82 holds %s" % host)


@test("nand-ubifs/%s/%s" % (BOARD, KERNEL), 400)
def nand_ubifs(timeout):
    """UBI and UBIFS on NAND.file-system: files written in one QEMU run
    verify in the next, on the same image."""
    with NandImage() as image:
        with nand_guest(image, "nand-ubifs", timeout) as vm:
            out = sh(vm, "/usr/sbin/ubiformat -q -y %s"
                     " && /usr/sbin/ubiattach -p %s"
                     " && /usr/sbin/ubimkvol /dev/ubi0 -N data -s 24MiB"
                     " && mkdir -p /mnt/ubi && mount -t ubifs ubi0:data /mnt/ubi"
                     " && dd if=/dev/urandom of=/mnt/ubi/big bs=65536 count=64 2>/dev/null"
                     " && mkdir /mnt/ubi/dir && echo hello >/mnt/ubi/dir/small"
                     " && sync && sha256sum /mnt/ubi/big /mnt/ubi/dir/small"
                     " && umount /mnt/ubi && /usr/sbin/ubidetach -p %s"
                     % (FS_MTD, FS_MTD, FS_MTD), 300)
            first = re.findall(r"^([0-9a-f]{64})\s", out, re.M)
            quit_guest(vm)
        with nand_guest(image, "nand-ubifs-2", timeout) as vm:
            out = sh(vm, "/usr/sbin/ubiattach -p %s && mkdir -p /mnt/ubi"
                     " && mount -t ubifs ubi0:data /mnt/ubi"
                     " && sha256sum /mnt/ubi/big /mnt/ubi/dir/small"
                     % FS_MTD, 300)
            second = re.findall(r"^([0-9a-f]{64})\s", out, re.M)
            if len(first) != 2 or first != second:
                raise g.GuestError("files differ after the restart: %r %r" % (first, second))
            if sysfs_counter(vm, "ecc_failures"):
                raise g.GuestError("ECC failures")
            quit_guest(vm)


def ubi_pebs(image, vol_id, first_block=FS_PAGE // PAGES_PER_BLOCK):
    """{LEB: PEB} of volume VOL_ID, from the VID headers in the image (the
    data area of a page is stored as is, its ECC in the spare bytes)."""
    found = {}
    with open(image.path, "rb") as f:
        for block in range(first_block, BLOCKS):
            f.seek(block * PAGES_PER_BLOCK * FULL)
            head = f.read(2 * FULL)
            # The VID header: in a later subpage or page than the EC one
            for off in list(range(512, PAGE, 512)) + [FULL]:
                vid = head[off:off + 16]
                if vid[:4] == b"UBI!":
                    if int.from_bytes(vid[8:12], "big") == vol_id:
                        found[int.from_bytes(vid[12:16], "big")] = \
                            block - first_block
                    break
    return found


def ubi_counter(vm, name):
    return int(sh(vm, "cat /sys/class/ubi/ubi0/%s" % name).split()[-1])


@test("nand-ubi-runtime-bad/%s/%s" % (BOARD, KERNEL), 500)
def nand_ubi_runtime_bad(timeout):
    """A PEB holding UBI data goes bad at run time (the NAND's mark-bad,
    through QMP): its erase fails (READ STATUS FAIL), UBI marks it bad and
    carries on.  The volume's new data and another volume's old data verify,
    bad_peb_count grows by one and stays so after a re-attach and after a
    QEMU restart (the kernel's bad block marker is in the image)."""
    size = 16 * 126976
    with NandImage() as image:
        with nand_guest(image, "nand-ubi-runtime-bad", timeout) as vm:
            sh(vm, "/usr/sbin/ubiformat -q -y %s && /usr/sbin/ubiattach -p %s"
               " && /usr/sbin/ubimkvol /dev/ubi0 -N keep -s 4MiB"
               " && /usr/sbin/ubimkvol /dev/ubi0 -N scratch -s 4MiB"
               " && dd if=/dev/urandom of=/tmp/a bs=%d count=1 2>/dev/null"
               " && dd if=/dev/urandom of=/tmp/b bs=%d count=1 2>/dev/null"
               " && dd if=/dev/urandom of=/tmp/c bs=%d count=1 2>/dev/null"
               " && /usr/sbin/ubiupdatevol /dev/ubi0_0 /tmp/a"
               " && /usr/sbin/ubiupdatevol /dev/ubi0_1 /tmp/b && sync"
               % (FS_MTD, FS_MTD, size, size, size), 300)
            bad_before = ubi_counter(vm, "bad_peb_count")
            pebs = ubi_pebs(image, 1)
            if sorted(pebs) != list(range(16)):
                raise g.GuestError("scratch's LEBs in the image: %r" % pebs)
            peb = pebs[5]
            block = FS_PAGE // PAGES_PER_BLOCK + peb
            print("#   scratch LEB 5 is PEB %d, NAND block %d: bad now"
                  % (peb, block))
            vm.qmp("qom-set", path="/machine/nand", property="mark-bad",
                   value=block)
            # Reads still work; the update erases the old PEBs first.
            out = sh(vm, "head -c %d /dev/ubi0_1 | cmp - /tmp/b"
                     " && /usr/sbin/ubiupdatevol /dev/ubi0_1 /tmp/c"
                     " && head -c %d /dev/ubi0_1 | cmp - /tmp/c"
                     " && head -c %d /dev/ubi0_0 | cmp - /tmp/a && echo SAME"
                     " && dmesg | grep -E 'ubi0|nand' | tail -n 20"
                     % (size, size, size), 300)
            if "SAME" not in out:
                raise g.GuestError("data differs after the PEB went bad")
            if not re.search(r"mark PEB %d as bad" % peb, out):
                raise g.GuestError("UBI did not mark PEB %d bad" % peb)
            if ubi_counter(vm, "bad_peb_count") != bad_before + 1:
                raise g.GuestError("bad_peb_count did not grow by one")
            out = sh(vm, "/usr/sbin/ubidetach -p %s && /usr/sbin/ubiattach -p %s"
                     " && head -c %d /dev/ubi0_1 | cmp - /tmp/c"
                     " && head -c %d /dev/ubi0_0 | cmp - /tmp/a && echo SAME"
                     " && sha256sum /tmp/a /tmp/c"
                     % (FS_MTD, FS_MTD, size, size), 300)
            sums = re.findall(r"^([0-9a-f]{64})\s", out, re.M)
            if "SAME" not in out or len(sums) != 2:
                raise g.GuestError("data differs after the re-attach")
            bad = ubi_counter(vm, "bad_peb_count")
            print("#   bad_peb_count %d -> %d after the re-attach"
                  % (bad_before, bad))
            if bad != bad_before + 1:
                raise g.GuestError("the re-attach sees %d bad PEBs" % bad)
            quit_guest(vm)
        with open(image.path, "rb") as f:
            f.seek(block * PAGES_PER_BLOCK * FULL + PAGE)
            marker = f.read(1)[0]
        print("#   bad block marker in the image: 0x%02x" % marker)
        if marker == 0xff:
            raise g.GuestError("no bad block marker in block %d" % block)
        with nand_guest(image, "nand-ubi-runtime-bad-2", timeout) as vm:
            out = sh(vm, "/usr/sbin/ubiattach -p %s"
                     " && head -c %d /dev/ubi0_0 | sha256sum"
                     " && head -c %d /dev/ubi0_1 | sha256sum"
                     % (FS_MTD, size, size), 300)
            after = re.findall(r"^([0-9a-f]{64})\s", out, re.M)
            if after != sums:
                raise g.GuestError("data differs after the restart")
            if sysfs_counter(vm, "bad_blocks") != 1:
                raise g.GuestError("the kernel's scan does not find block %d"
                                   " bad" % block)
            if ubi_counter(vm, "bad_peb_count") != bad_before + 1:
                raise g.GuestError("UBI's bad_peb_count after the restart")
            quit_guest(vm)
