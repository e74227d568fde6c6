"""Guest tests of the USB subsystem: USB sticks on the host port.

usb-storage: QEMU's usb-storage in USB1's socket (the type-A socket of
both boards) enumerates at high speed through the real drivers:
musb-dsps and musb-hdrc as the host, the CPPI 4.1 DMA (cppi41) moving
the bulk data, usb-storage and sd.  The guest reads the whole stick and
checks it against the image; then it writes a MiB of random data, which
must be in the image when QEMU has exited, and reads it back past the
page cache.  The stick is then pulled out and plugged in again over QMP:
the disk goes and comes back.

usb-hub: two sticks behind the full-speed hub QEMU puts on the port
(no port=1): the hub's status endpoint is polled at its interval, both
sticks enumerate at 12 Mb/s and read back exactly.

usb-gadget-ecm: USB0 as the peripheral.  The guest makes a gadget with
a CDC ECM and a CDC ACM function with configfs and binds it to the MUSB
(musb-hdrc's gadget side, with the CPPI 4.1 DMA); the PC that
-nic user,model=usb-gadget and -M ...,usb-serial=CHARDEV put on the
socket enumerates it at high speed, bridges ECM to QEMU's user network
and ACM to a chardev.  The guest pings the gateway, fetches data from the
host over TCP and serves it back, both checked by sha256, and exchanges
lines with the host over /dev/ttyGS0; then it unbinds the gadget (the PC
sees it go) and binds it again (the PC enumerates it anew).

usb-gadget-msc: USB0 as a mass storage gadget (configfs mass_storage,
f_mass_storage) backed by a file in /dev/shm, as the PSP guide ran it.
Given -global am335x-musb.host-storage-bytes=N, the PC on the cable
binds it as usb-storage would, writes its pattern over the disk's first
N bytes in 120 KiB WRITE(10)s and reads them back; the test reads the
outcome over QMP (every packet read back as written) and checks that the
file in the guest holds the pattern."""

import array
import hashlib
import os
import random
import socket
import sys
import tempfile
import time

import guest as g
from suite import ALL_PAIRS, CROSS, test_pairs, booted, load_modules
from suite import data_server, fetch_sha256, free_port

STICK_BYTES = 4 * 1024 * 1024
MSC_BYTES = 4 * 1024 * 1024     # what the PC writes and reads back
MSC_FILE_MB = 8                 # the gadget's disk, a file in /dev/shm
GADGET_BYTES = 8 * 1024 * 1024
GADGET_PORT = 5001
ECM_FRAME = 1514
WRITE_OFFSET = 1024 * 1024      # where the guest writes its MiB
WRITE_BYTES = 1024 * 1024


def md5_of(data):
    return hashlib.md5(data).hexdigest()


def check_dmesg(vm):
    status, out = vm.shell("dmesg | grep -i -E 'musb|cppi|usb' | "
                           "grep -i -E 'error|fail|timeout|babble'")
    if status == 0:
        raise g.GuestError("driver errors in dmesg:\n" + out)


def check_hub(board, kernel, timeout):
    images = []
    args = []
    try:
        for i in range(2):
            fd, img = tempfile.mkstemp(prefix="am335x-usb-", suffix=".img")
            data = random.Random(i).randbytes(STICK_BYTES // 2)
            os.write(fd, data)
            os.close(fd)
            images.append((img, md5_of(data)))
            args += ["-drive", "if=none,id=stick%d,format=raw,file=%s"
                     % (i, img),
                     "-device", "usb-storage,bus=usb-bus.1,drive=stick%d" % i]
        with booted(board, kernel, "usb", timeout, extra_args=args) as vm:
            load_modules(vm, "usb")
            for name in ("sda", "sdb"):
                wait_disk(vm, name, STICK_BYTES // 2 // 512)
            status, out = vm.shell(
                "for d in /sys/bus/usb/devices/*; do "
                "[ \"$(cat $d/idVendor 2>/dev/null)\" = 46f4 ] && "
                "cat $d/speed; done; true")
            if out.split() != ["12", "12"]:
                raise g.GuestError("the sticks' speeds: %r" % out)
            status, out = vm.shell("for d in sda sdb; do dd if=/dev/$d "
                                   "bs=64k 2>/dev/null | md5sum; done", 120)
            got = sorted(w for w in out.split() if len(w) == 32)
            if status != 0 or got != sorted(m for _, m in images):
                raise g.GuestError("read the sticks: %r" % out)
            check_dmesg(vm)
    finally:
        for img, _ in images:
            os.unlink(img)


def wait_disk(vm, name, sectors):
    status, out = vm.shell(
        "for i in $(seq 300); do [ -e /sys/block/%s ] && break; "
        "sleep 0.1; done; cat /sys/block/%s/size" % (name, name), 60)
    if status != 0 or out.split()[-1] != str(sectors):
        _, log = vm.shell("dmesg | grep -i -E 'usb|musb|cppi|hub'")
        raise g.GuestError("no /dev/%s of %d sectors: %r\n%s"
                           % (name, sectors, out, log))


def check_storage(board, kernel, timeout):
    fd, img = tempfile.mkstemp(prefix="am335x-usb-", suffix=".img")
    data = random.Random(335).randbytes(STICK_BYTES)
    os.write(fd, data)
    os.close(fd)
    # A -blockdev, not a -drive: it stays when its device is unplugged
    args = ["-blockdev", "driver=raw,node-name=stick,file.driver=file,"
            "file.filename=%s" % img,
            "-device", "usb-storage,bus=usb-bus.1,port=1,drive=stick,id=stick0"]
    try:
        with booted(board, kernel, "usb", timeout, extra_args=args) as vm:
            load_modules(vm, "usb")
            wait_disk(vm, "sda", STICK_BYTES // 512)
            status, out = vm.shell(
                "for d in /sys/bus/usb/devices/*; do "
                "[ \"$(cat $d/idVendor 2>/dev/null)\" = 46f4 ] && "
                "cat $d/speed; done; true")
            if status != 0 or out.split()[-1:] != ["480"]:
                raise g.GuestError("the stick is not at 480 Mb/s: %r" % out)
            status, out = vm.shell("dd if=/dev/sda bs=64k 2>/dev/null | "
                                   "md5sum", 120)
            if status != 0 or out.split()[0] != md5_of(data):
                raise g.GuestError("read the stick: %r, want %s"
                                   % (out, md5_of(data)))
            status, out = vm.shell(
                "dd if=/dev/urandom of=/tmp/w bs=64k count=%d 2>/dev/null && "
                "md5sum /tmp/w && dd if=/tmp/w of=/dev/sda bs=64k seek=%d "
                "conv=fsync 2>/dev/null && echo 3 > /proc/sys/vm/drop_caches "
                "&& dd if=/dev/sda bs=64k skip=%d count=%d 2>/dev/null | "
                "md5sum" % (WRITE_BYTES // 65536, WRITE_OFFSET // 65536,
                            WRITE_OFFSET // 65536, WRITE_BYTES // 65536), 120)
            sums = [w for w in out.split() if len(w) == 32]
            if status != 0 or len(sums) != 2 or sums[0] != sums[1]:
                raise g.GuestError("write and read back: %r" % out)
            _, irqs = vm.shell("grep -E 'INTC  1[789] ' /proc/interrupts")
            print("#   %s" % " | ".join(l.strip() for l in irqs.splitlines()))
            # The bulk data went by DMA: a completion interrupt per packet
            dma = [l.split()[1] for l in irqs.splitlines()
                   if "INTC  17 " in l]
            if not dma or int(dma[0]) < STICK_BYTES // 512:
                raise g.GuestError("too few CPPI 4.1 interrupts: %s" % irqs)
            check_dmesg(vm)

            # Pulled out: the disk goes; plugged in again: it comes back
            vm.qmp("device_del", id="stick0")
            status, out = vm.shell(
                "for i in $(seq 100); do [ -e /sys/block/sda ] || break; "
                "sleep 0.1; done; ls /sys/block", 30)
            if "sda" in out.split():
                raise g.GuestError("the disk stayed after the unplug: %r"
                                   % out)
            vm.qmp("device_add", driver="usb-storage", bus="usb-bus.1",
                   port="1", drive="stick", id="stick1")
            wait_disk(vm, "sd[a-z]", STICK_BYTES // 512)
            check_dmesg(vm)
        with open(img, "rb") as f:
            f.seek(WRITE_OFFSET)
            written = f.read(WRITE_BYTES)
    finally:
        os.unlink(img)
    if md5_of(written) != sums[0]:
        raise g.GuestError("the image does not hold what the guest wrote")


# A configfs gadget "g" with one configuration, c.1; the functions follow
GADGET_HEAD = (
    "mount -t configfs none /sys/kernel/config 2>/dev/null; "
    "cd /sys/kernel/config/usb_gadget && mkdir g && cd g && "
    "echo 0x1d6b > idVendor && echo 0x0104 > idProduct && ")
GADGET_SETUP = GADGET_HEAD + (
    "mkdir strings/0x409 && echo am335x > strings/0x409/product && "
    "mkdir configs/c.1 && mkdir functions/ecm.usb0 && "
    "mkdir functions/acm.gs0 && "
    "ln -s functions/ecm.usb0 configs/c.1/ && "
    "ln -s functions/acm.gs0 configs/c.1/")
GADGET = "/sys/kernel/config/usb_gadget/g"


def make_gadget(vm, setup, what):
    """Runs SETUP (a configfs gadget) in the guest.  The gadget falls back
    to PIO for good on an endpoint whose first request finds the CPPI 4.1
    runtime-suspended (its prep_slave_sg fails): keep the DMA awake, as a
    user would."""
    status, out = vm.shell(
        "echo on > /sys/bus/platform/devices/47400000.dma-controller/"
        "power/control && " + setup)
    if status != 0:
        raise g.GuestError("%s: %r" % (what, out))


def gadget_bind(vm):
    """Binds the gadget to the UDC and waits for the PC to configure it."""
    status, out = vm.shell(
        "ls /sys/class/udc > %s/UDC && u=/sys/class/udc/$(ls /sys/class/udc)"
        " && for i in $(seq 100); do [ \"$(cat $u/state)\" = configured ] "
        "&& break; sleep 0.1; done; cat $u/state $u/current_speed" % GADGET,
        60)
    if status != 0 or out.split() != ["configured", "high-speed"]:
        _, log = vm.shell("dmesg | grep -i -E 'musb|gadget|usb0' | tail -20")
        raise g.GuestError("the PC did not configure the gadget: %r\n%s"
                           % (out, log))


def cppi41_interrupts(vm):
    _, out = vm.shell("grep -E 'INTC  17 ' /proc/interrupts")
    fields = out.split()
    return int(fields[1]) if len(fields) > 1 else 0


def check_serial(vm, port):
    """Lines both ways between the host's socket chardev and ttyGS0."""
    vm.shell("stty -F /dev/ttyGS0 raw -echo")
    vm.send("cat /dev/ttyGS0 > /tmp/ser &\n")
    vm.shell("sleep 0.5")
    with socket.create_connection(("127.0.0.1", port), 30) as c:
        c.sendall(b"from the pc\n")
        status, out = vm.shell("for i in $(seq 50); do grep -q pc /tmp/ser "
                               "&& break; sleep 0.1; done; cat /tmp/ser")
        if status != 0 or "from the pc" not in out:
            raise g.GuestError("PC->ttyGS0: %r" % out)
        vm.shell("printf 'from the board' > /dev/ttyGS0")
        c.settimeout(30)
        got = b""
        deadline = time.monotonic() + 30
        while b"from the board" not in got and time.monotonic() < deadline:
            got += c.recv(256)
        if b"from the board" not in got:
            raise g.GuestError("ttyGS0->PC: %r" % got)


def check_gadget(board, kernel, timeout):
    data = random.Random(7).randbytes(GADGET_BYTES)
    digest = hashlib.sha256(data).hexdigest()
    fwd_port = free_port()
    serial_port = free_port()
    server = data_server(data)
    nic = "user,model=usb-gadget,hostfwd=tcp:127.0.0.1:%d-:%d" % (
        fwd_port, GADGET_PORT)
    serial = ["-chardev", "socket,id=usbser,host=127.0.0.1,port=%d,"
              "server=on,wait=off" % serial_port,
              "-machine", "usb-serial=usbser"]
    try:
        with booted(board, kernel, "usb-gadget", timeout,
                    extra_args=["-nic", nic] + serial) as vm:
            load_modules(vm, "pmic", "gadget")
            make_gadget(vm, GADGET_SETUP, "configfs gadget")
            gadget_bind(vm)
            status, out = vm.shell("ip addr add 10.0.2.15/24 dev usb0 && "
                                   "ip link set usb0 up && "
                                   "ping -c 2 -W 5 10.0.2.2")
            if status != 0:
                raise g.GuestError("ping over the gadget: %r" % out)
            check_serial(vm, serial_port)
            irqs = cppi41_interrupts(vm)
            status, out = vm.shell(
                "wget -q -O /tmp/rx.bin http://10.0.2.2:%d/data && "
                "sha256sum /tmp/rx.bin" % server.server_address[1], 240)
            if status != 0 or digest not in out:
                raise g.GuestError("PC->gadget: %r" % out)
            vm.shell("busybox httpd -p %d -h /tmp" % GADGET_PORT)
            got, got_digest = fetch_sha256("http://127.0.0.1:%d/rx.bin"
                                           % fwd_port, 240)
            if got != len(data) or got_digest != digest:
                raise g.GuestError("gadget->PC: %d bytes, sha256 mismatch"
                                   % got)
            # The gadget's frames went by DMA (its OUT endpoint is PIO:
            # Linux's AM335x advisory 1.0.13): a completion per frame
            irqs = cppi41_interrupts(vm) - irqs
            print("#   %d CPPI 4.1 interrupts for %d MiB each way"
                  % (irqs, GADGET_BYTES >> 20))
            if irqs < GADGET_BYTES // ECM_FRAME:
                raise g.GuestError("too few CPPI 4.1 interrupts: %d" % irqs)

            # Unbound, the gadget leaves the bus; bound again, it is back
            status, out = vm.shell(
                "echo > %s/UDC && sleep 0.5 && cat /sys/class/udc/*/state"
                % GADGET)
            if status != 0 or out.strip().splitlines()[-1:] != [
                    "not attached"]:
                raise g.GuestError("unbound gadget: %r" % out)
            gadget_bind(vm)
            status, out = vm.shell("ip link set usb0 up; "
                                   "ping -c 2 -W 5 10.0.2.2")
            if status != 0:
                raise g.GuestError("ping after the rebind: %r" % out)
            check_dmesg(vm)
    finally:
        server.shutdown()
        server.server_close()


def msc_pattern(n):
    """What the PC writes (hw/usb/usb_gadget_host.c): each 32-bit
    little-endian word holds its index times 0x9e3779b1."""
    words = array.array("I", ((i * 0x9E3779B1) & 0xFFFFFFFF
                              for i in range(n // 4)))
    if sys.byteorder != "little":
        words.byteswap()
    return words.tobytes()


def storage_prop(vm, name):
    return vm.qmp("qom-get", path="/machine/soc/usb[0]", property=name)


MSC_SETUP = (
    "mkdir -p /dev/shm && (grep -q ' /dev/shm ' /proc/mounts || "
    "mount -t tmpfs shm /dev/shm) && "
    "dd if=/dev/zero of=/dev/shm/lun bs=1M count=%d 2>/dev/null && "
    % MSC_FILE_MB) + GADGET_HEAD + (
    "mkdir configs/c.1 && mkdir functions/mass_storage.0 && "
    "echo /dev/shm/lun > functions/mass_storage.0/lun.0/file && "
    "ln -s functions/mass_storage.0 configs/c.1/")


def check_gadget_msc(board, kernel, timeout):
    digest = md5_of(msc_pattern(MSC_BYTES))
    # Timing on and icount: the PC sends at the wire's pace, and the
    # guest's CPU keeps its speed in virtual time.  A PC faster than the
    # gadget's thread would lose packets: Linux's musb gadget flushes an
    # OUT endpoint's FIFO when a request is queued on the idle endpoint
    # (musb_ep_restart()).
    with booted(board, kernel, "usb-gadget-msc", timeout, timing=True,
                extra_args=["-global", "am335x-musb.host-storage-bytes=%d"
                            % MSC_BYTES, "-icount", "shift=1,sleep=off"]
                ) as vm:
        load_modules(vm, "pmic", "gadget-msc")
        make_gadget(vm, MSC_SETUP, "configfs mass storage gadget")
        if storage_prop(vm, "host-storage-state") != "idle":
            raise g.GuestError("the PC's test ran before the gadget was bound")
        gadget_bind(vm)
        deadline = time.monotonic() + timeout
        state = storage_prop(vm, "host-storage-state")
        while state == "running" and time.monotonic() < deadline:
            time.sleep(0.5)
            state = storage_prop(vm, "host-storage-state")
        tested = storage_prop(vm, "host-storage-tested-bytes")
        bad = storage_prop(vm, "host-storage-bad-packets")
        print("#   PC: %s, %d bytes, written in %.1f ms, read in %.1f ms, "
              "%d resets" % (state, tested,
                             storage_prop(vm, "host-storage-write-ns") / 1e6,
                             storage_prop(vm, "host-storage-read-ns") / 1e6,
                             storage_prop(vm, "host-storage-resets")))
        if state != "done" or tested != MSC_BYTES or bad != 0:
            _, log = vm.shell("dmesg | grep -i -E 'musb|gadget|lun' | "
                              "tail -20")
            raise g.GuestError("the PC's test: %s, %d bytes, %d bad packets"
                               "\n%s" % (state, tested, bad, log))
        status, out = vm.shell("head -c %d /dev/shm/lun | md5sum" % MSC_BYTES)
        if status != 0 or digest not in out:
            raise g.GuestError("the gadget's file does not hold what the PC"
                               " wrote: %r" % out)
        check_dmesg(vm)


test_pairs({
    "usb-storage": (check_storage, ALL_PAIRS),
    "usb-hub": (check_hub, CROSS),
    "usb-gadget-ecm": (check_gadget, CROSS),
    "usb-gadget-msc": (check_gadget_msc, CROSS),
}, 240)
