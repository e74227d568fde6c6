"""The storage workloads of scripts/bench (issue 7), shared with the
determinism smoke test: boot a board with timing=on under the bench's CPU
model and run tests/guest/bench-storage.sh on its SD card or NAND."""

import concurrent.futures
import os
import re
import shutil
import subprocess

import guest as g
import guest_profile

MiB = 1024 * 1024
# The CPU model of every timed run: 2 ns of virtual time per instruction
# (500 MIPS), plus the Cortex-A8's stalls: the plugin
# plugins/cortex-a8-timing.c runs every fetch, load and store through
# models of the L1s and the L2 and charges each miss its latency (L2 hit,
# or L2 miss to the DDR2), charges mispredicted branches and the cycles
# of load/store multiples beyond the first, charges device register
# reads the interconnect's round trip, and makes barriers and device reads
# wait for the device writes before them to complete.  An idle guest's clock jumps to its
# next timer (sleep=off); no host time reaches the guest (align=off).  For runs that
# repeat to the nanosecond nothing else from the host may reach it either:
# the RTC runs on virtual time from a fixed date (the kernel seeds its
# random pool, and so its hash tables, from the RTC's time), and QEMU's
# own guest random numbers come from a fixed seed.
CPU_PLUGIN = os.path.join(g.BUILD, "cortex-a8-timing.so")
# Without the cache stalls (tests compare the two)
ICOUNT_NO_CACHES = ["-icount", "shift=1,sleep=off,align=off",
                    "-rtc", "base=2024-01-01T00:00:00,clock=vm", "-seed", "1"]
ICOUNT = ICOUNT_NO_CACHES + ["-plugin", CPU_PLUGIN + ",shift=1"]
CPU_MODEL = ("icount shift=1 (2 ns/insn, 500 MIPS), sleep=off, align=off; "
             "Cortex-A8 cache stalls (L2 hit 8 cycles, L2 miss + 170 ns "
             "to DDR through the L3), branch mispredictions 13 cycles, "
             "load/store multiples 2 registers a cycle, "
             "device register reads 160-430 ns, barriers wait for "
             "device writes to complete; "
             "RTC on virtual time from a fixed date")
# scripts/bench --profile: a directory for each timed guest's profile
PROFILE_DIR = None
SD_EXT2 = "sd_ext2:/dev/mmcblk0p1:ext2"
SD_VFAT = "sd_vfat:/dev/mmcblk0p2:vfat"
NAND_UBIFS = "nand_ubifs:/dev/mtd9:ubifs"
USB_EXT2 = "usb_ext2:/dev/sda:ext2"
# The GPMC's node in the am335x kernel's DTBs (Linux 6.1), parent of the NAND
NAND_PARENT = "/ocp/target-module@50000000/gpmc@50000000"


# Card images made the same, byte for byte, every time: fixed disk label,
# UUIDs, hash seed, volume ID and timestamps (those of the guest's RTC).
FIXED_ID = "414d3335"
FIXED_UUID = "414d3335-0000-4000-8000-000000000001"
FIXED_TIME = {"E2FSPROGS_FAKE_TIME": "1704067200"}  # 2024-01-01T00:00:00Z


def at_once(run, n=2):
    """run(0), run(1) ... run(N - 1) at the same time, each guest on its
    own host thread (their figures are in virtual time, so running them
    side by side changes none); returns their results."""
    with concurrent.futures.ThreadPoolExecutor(n) as pool:
        return list(pool.map(run, range(n)))


def fixed_ext2(path, *size, offset=0):
    """ext2 on PATH (of SIZE, if given; OFFSET bytes into it), the same
    byte for byte every time."""
    subprocess.run(["mke2fs", "-q", "-F", "-t", "ext2", "-U", FIXED_UUID,
                    "-E", "hash_seed=%s,offset=%d" % (FIXED_UUID, offset),
                    path, *size],
                   check=True, capture_output=True,
                   env=dict(os.environ, **FIXED_TIME))


def sd_card(path):
    """An 8 GiB sparse card image like the SanDisk microSDHC (block
    addressed, as SDHC cards are): ext2 on partition 1 and vfat on
    partition 2, 4 GiB each, 4 MiB aligned (the card's allocation unit).
    TI's LTP-DDT formatted the card's first partition (later, its largest)
    with the mkfs's defaults (blk_device_erase_format_part.sh: `mkfs.ext2
    DEV`), a partition of an 8 GB card, so mke2fs gave it 4 KiB blocks.
    Below 512 MiB mke2fs takes its "small" type, 1 KiB blocks: four block
    lookups a page, indirect blocks four times as often and a bitmap every
    8 MiB (the bench's earlier 128 MiB partitions cost 40% more CPU a
    page written).  mkfs.vfat makes 4 GiB FAT32, as the later script's
    `mkfs.vfat -F 32` did."""
    # (start, size) in 512-byte sectors: ext2, then vfat to the card's end
    ext, fat = (8192, 8388608), (8396800, 8380416)
    with open(path, "wb") as f:
        f.truncate(8 * 1024 * MiB)
    subprocess.run(["sfdisk", "--quiet", "--no-reread", "--no-tell-kernel",
                    path], check=True, capture_output=True, text=True,
                   input="label: dos\nlabel-id: 0x%s\n" % FIXED_ID +
                         "start=%d, size=%d, type=83\n" % ext +
                         "start=%d, size=%d, type=c\n" % fat)
    fixed_ext2(path, "%dk" % (ext[1] // 2), offset=ext[0] * 512)
    subprocess.run(["mkfs.vfat", "--invariant", "-i", FIXED_ID,
                    "--offset=%d" % fat[0], path, str(fat[1] // 2)],
                   check=True, capture_output=True)


def sd_drive(path):
    return ["-drive", "if=sd,index=0,format=raw,file=%s" % path]


def usb_disk(path):
    """A 1 GiB sparse disk image with ext2 on the whole disk, made the
    same every time, for a stick on the host port."""
    with open(path, "wb") as f:
        f.truncate(1024 * MiB)
    fixed_ext2(path)


def usb_drive(path):
    """QEMU's usb-storage in USB1's socket (the boards' type-A host port),
    a high-speed bulk-only mass storage device."""
    return ["-drive", "if=none,id=usbdisk,format=raw,file=%s" % path,
            "-device", "usb-storage,bus=usb-bus.1,port=1,drive=usbdisk"]


def nand_drive(path):
    """An empty NAND image file: the model extends it, erased."""
    open(path, "wb").close()
    return ["-drive", "if=mtd,format=raw,file=%s" % path]


def nand_polled_dtb(board, directory):
    """A copy of @board's am335x-kernel DTB in DIRECTORY whose NAND node
    asks for "prefetch-polled" transfers instead of the stock DT's
    "prefetch-dma": the PSP guide measured UBIFS with the CPU polling the
    GPMC prefetch FIFO, no DMA, and its CPU load (100%) is that polling.

    The node also loses its rb-gpios (the NAND's R/B#
    on GPMC WAIT0), as the guide's kernel ran it: the PSP 3.2 board file
    gave omap2-nand no dev_ready, so the driver waited a fixed chip_delay
    of 50 us after each page-read command (nand_command_lp's udelay)
    instead of watching R/B# go high after tR, and polled the status
    register after programs and erases.  6.1's omap2-nand does the same
    when the DT has no rb-gpios.

    And it loses ti,elm-id: the PSP 3.2 omap2-nand ran the GPMC's BCH8
    engine one 512-byte sector at a time (enable, move the sector,
    read its result, for each of the page's four sectors, through
    nand_base's per-sector page functions), and the NAND bus waits while
    the CPU does that between sectors.  6.1 moves a whole page per engine
    run when it has the ELM, and per sector, as 3.2 did, in "bch8" without
    one (OMAP_ECC_BCH8_CODE_HW_DETECTION_SW: the same hardware BCH8
    parity; errors, which the bench never has, are located in software
    instead of by the ELM)."""
    stock = os.path.join(g.kernel_dir("am335x"), "dtbs", g.BOARDS[board])
    path = os.path.join(directory, "polled-" + g.BOARDS[board])
    shutil.copyfile(stock, path)
    nodes = subprocess.run(["fdtget", "-l", path, NAND_PARENT],
                           capture_output=True, text=True)
    names = [n for n in nodes.stdout.split() if n.startswith("nand@")]
    if nodes.returncode != 0 or len(names) != 1:
        raise g.GuestError("%s: no single NAND node under %s" %
                           (stock, NAND_PARENT))
    node = NAND_PARENT + "/" + names[0]
    subprocess.run(["fdtput", "-t", "s", path, node,
                    "ti,nand-xfer-type", "prefetch-polled"], check=True)
    if subprocess.run(
            ["fdtget", path, node, "rb-gpios"], capture_output=True
            ).returncode == 0:
        subprocess.run(["fdtput", "-d", path, node, "rb-gpios"], check=True)
    if subprocess.run(
            ["fdtget", path, node, "ti,elm-id"], capture_output=True
            ).returncode == 0:
        subprocess.run(["fdtput", "-d", path, node, "ti,elm-id"], check=True)
    return path


def run(board, drive_args, fs_list, sizes, total, name, timeout, dtb=None):
    """Boots @board with timing=on (and DTB, if given, instead of the
    stock one), runs bench-storage.sh; returns its records,
    [(row, buffer, bytes, ns, busy ns, ns, /proc/stat busy ticks, its idle
    ticks)], in the order the guest printed them."""
    append = ("bench.fs=%s bench.sizes=%s bench.total=%d"
              % (fs_list, ",".join(map(str, sizes)), total))
    # No network backend: nothing from the host reaches the guest.
    status, output = run_timed(board, "bench-storage.sh", append,
                               ["-nic", "none"] + drive_args, name, timeout,
                               dtb=dtb)
    if status != "0":
        raise g.GuestError("bench-storage.sh failed (exit %s); see %s" %
                           (status, os.path.join(g.LOGDIR, name + ".log")))
    return [(r, int(b), int(n), int(ns), int(busy), int(tot), int(sbusy),
             int(sidle))
            for r, b, n, ns, busy, tot, sbusy, sidle in
            re.findall(r"^BENCH (\S+) (\d+) bytes=(\d+) ns=(\d+) "
                       r"busy=(\d+) total=(\d+) stat_busy=(\d+) "
                       r"stat_idle=(\d+)", output, re.M)]


def run_timed(board, script, append, extra_args, name, timeout, dtb=None,
              cpu_args=None):
    """Boots @board's am335x kernel with timing=on under the CPU model
    (CPU_ARGS, ICOUNT by default), running tests/guest/SCRIPT from /init;
    returns (its exit status as printed, the console output)."""
    if cpu_args is None:
        cpu_args = ICOUNT
    if PROFILE_DIR:
        # The plugin counts where the time went; /init names the addresses.
        os.makedirs(PROFILE_DIR, exist_ok=True)
        base = os.path.join(PROFILE_DIR, name)
        cpu_args = [a + ",profile=%s.tsv" % base if a.startswith(CPU_PLUGIN)
                    else a for a in cpu_args]
    vm = g.Guest(board, "am335x", append="am335x.test=%s %s" % (script, append),
                 dtb=dtb,
                 earlycon=False, extra_args=cpu_args + extra_args, name=name,
                 timing=True)
    print("# " + vm.command_line(), flush=True)
    vm.start()
    try:
        m = vm.expect(r"AM335X-TEST: %s exit=(\d+)" % re.escape(script),
                      timeout)
    finally:
        vm.close()
    if PROFILE_DIR:
        write_profile(base)
    return m.group(1), vm.output


def write_profile(base):
    """BASE.txt: the profile BASE.tsv by function of the am335x kernel."""
    symbols = guest_profile.kernel_symbols(
        "am335x", os.path.join(PROFILE_DIR, "am335x.symbols"))
    try:
        with open(base + ".tsv") as f, open(symbols) as s:
            text = guest_profile.report(f.read(), s.read())
    except (OSError, guest_profile.ProfileError) as e:
        raise g.GuestError("no profile of %s: %s" % (base, e))
    with open(base + ".txt", "w") as f:
        f.write(text)
    print("# profile: %s.txt" % base, flush=True)
