"""Guest tests of the McASP and the boards' codecs.

audio: the BeagleBone Black's HDMI audio.  ALSA's aplay plays half a
second of random 16-bit stereo at 48 kHz through the real driver stack
(simple-audio-card, davinci-mcasp with the EDMA's cyclic DMA, tda998x's
hdmi-codec).  McASP0 is the clock master, its bit clock divided down from
the board's 24.576 MHz AHCLKX, and sends the samples to the TDA19988; the
model plays them on the machine's audiodev, here QEMU's wav backend.  The
samples in the wav file must be exactly those the guest played, in
order, none lost or repeated.

audio-duplex: the EVM's TLV320AIC3106, the bit clock and frame master of
McASP1, clocked by its PLL from the 12 MHz MCLK (tlv320aic3x programs
it).  arecord records two seconds while aplay plays half a second of
random samples; the recording must be exactly 96000 frames long.  QEMU
has no audio backend here that records anything but silence, so the test
turns on the McASP's digital loopback (DLBCTL: AXR2, the transmitter,
into AXR3, the receiver) behind the driver's back: the recording must
then hold the played samples, exactly and in order, between silence, and
the wav file must hold them too.  The am335x kernel only: Debian's has
no I2C driver for the codec."""

import hashlib
import os
import struct
import tempfile

import guest as g
from suite import test_pairs, booted, load_modules

BOARD = "beaglebone-black"
FRAMES = 24000          # 0.5 s at 48 kHz


def wav_samples(path):
    """The PCM bytes of a wav file QEMU wrote (its header is 44 bytes)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise g.GuestError("%s is not a wav file" % path)
    channels, rate = struct.unpack_from("<HI", data, 22)
    bits = struct.unpack_from("<H", data, 34)[0]
    return (channels, rate, bits), data[44:]


def after_silence(pcm):
    """The FRAMES stereo 16-bit frames after the leading silence (the
    McASP sends zeros before the first period reaches it), and how many
    silent frames there were."""
    start = 0
    while start + 4 <= len(pcm) and pcm[start:start + 4] == b"\0\0\0\0":
        start += 4
    return pcm[start:start + FRAMES * 4], start // 4


def card_and_samples(vm, card):
    """Waits for the sound card CARD; makes /tmp/a.raw, FRAMES frames of
    random 16-bit stereo, and returns its md5."""
    status, out = vm.shell(
        "for i in $(seq 100); do grep -q %s /proc/asound/cards && break; "
        "sleep 0.1; done; cat /proc/asound/cards" % card)
    if status != 0 or card not in out:
        raise g.GuestError("no sound card: %s" % out)
    status, out = vm.shell(
        "dd if=/dev/urandom of=/tmp/a.raw bs=4 count=%d 2>/dev/null "
        "&& md5sum /tmp/a.raw" % FRAMES)
    if status != 0:
        raise g.GuestError("test data: %s" % out)
    return out.split()[-2]


def irqs_and_errors(vm, drivers):
    """The McASP lines of /proc/interrupts; fails on the DRIVERS' (a
    grep -E pattern) errors in dmesg."""
    _, irqs = vm.shell("grep -i mcasp /proc/interrupts")
    status, out = vm.shell("dmesg | grep -i -E '%s' | grep -i -E "
                           "'overrun|underflow|error|fail'" % drivers)
    if status == 0:
        raise g.GuestError("driver errors in dmesg:\n" + out)
    return irqs


def check_playback(board, kernel, timeout):
    fd, wav = tempfile.mkstemp(prefix="am335x-audio-", suffix=".wav")
    os.close(fd)
    # icount, as in check_duplex: a busy host cannot starve the guest of
    # CPU while the McASP goes on playing (the driver would report
    # "Transmit buffer underflow"; seen with two more guests beside the
    # tests on a 2-core host)
    args = ["-audiodev", "wav,id=snd0,path=%s,out.frequency=48000,"
            "out.channels=2,out.format=s16" % wav, "-M", "audiodev=snd0",
            "-icount", "shift=1,sleep=off"]
    try:
        with booted(board, kernel, "audio", timeout, extra_args=args) as vm:
            load_modules(vm, "audio")
            want_md5 = card_and_samples(vm, "BeagleBone")
            status, out = vm.shell(
                "/usr/bin/aplay -q -D hw:0,0 -t raw -f S16_LE -r 48000 -c 2 "
                "/tmp/a.raw && sleep 0.5", 60)
            if status != 0:
                raise g.GuestError("aplay failed: %s" % out)
            irqs = irqs_and_errors(vm, "mcasp|tda998x")
        fmt, pcm = wav_samples(wav)
    finally:
        os.unlink(wav)
    if fmt != (2, 48000, 16):
        raise g.GuestError("wav format %s" % (fmt,))
    played, silent = after_silence(pcm)
    got_md5 = hashlib.md5(played).hexdigest()
    print("#   %d frames of silence, then %d frames; md5 %s (guest %s)"
          % (silent, len(played) // 4, got_md5, want_md5))
    print("#   %s" % " ".join(irqs.split()))
    if len(played) != FRAMES * 4 or got_md5 != want_md5:
        raise g.GuestError("the audio output is not what the guest played")


# McASP1's DLBCTL on the EVM: loopback on, even serializers (AXR2) into
# odd ones (AXR3), with the transmit clocks (MODE 1)
EVM_DLBCTL = "0x4803c04c"
EVM_DLB_ON = 0x7


def check_duplex(board, kernel, timeout):
    fd, wav = tempfile.mkstemp(prefix="am335x-audio-", suffix=".wav")
    os.close(fd)
    # icount: the audio clock and the guest's CPU share one virtual time,
    # so a busy host cannot starve the guest of CPU while the McASP goes on
    # recording (ALSA would see overruns)
    args = ["-audiodev", "wav,id=snd0,path=%s,out.frequency=48000,"
            "out.channels=2,out.format=s16" % wav, "-M", "audiodev=snd0",
            "-icount", "shift=1,sleep=off"]
    try:
        with booted(board, kernel, "audio-duplex", timeout,
                    extra_args=args) as vm:
            want_md5 = card_and_samples(vm, "AM335x-EVM")
            status, steps = vm.shell(
                "t() { echo $1 $(cut -d' ' -f1 /proc/uptime); }; t start; "
                "/usr/bin/arecord -q -D hw:0,0 -t raw -f S16_LE -r 48000 "
                "-c 2 -d 2 /tmp/c.raw & "
                "for i in $(seq 100); do grep -q RUNNING "
                "/proc/asound/card0/pcm0c/sub0/status && break; "
                "sleep 0.05; done; "
                "t recording; devmem %s 32 %d && "
                "/usr/bin/aplay -q -D hw:0,0 -t raw -f S16_LE -r 48000 -c 2 "
                "/tmp/a.raw; s=$?; t played; "
                "while pidof arecord >/dev/null; do sleep 0.1; done; "
                "t recorded; [ $s -eq 0 ]"
                % (EVM_DLBCTL, EVM_DLB_ON), 90)
            if status != 0:
                raise g.GuestError("aplay/arecord failed: %s" % steps)
            # The first frame that is not silence, and the md5 of the
            # FRAMES frames from there (od: one frame a line)
            status, out = vm.shell(
                "wc -c </tmp/c.raw; "
                "f=$(od -A n -t x4 -v -w4 /tmp/c.raw | "
                "awk '$1 != \"00000000\" { print NR - 1; exit }'); "
                "echo start=$f; "
                "dd if=/tmp/c.raw bs=4 skip=$f count=%d 2>/dev/null "
                "| md5sum" % FRAMES, 120)
            if status != 0:
                raise g.GuestError("recording: %s" % out)
            lines = out.split()
            rec_bytes, rec_md5 = int(lines[0]), lines[-2]
            _, gaps = vm.shell(
                "od -A n -t x4 -v -w4 /tmp/c.raw | awk '$1 == \"00000000\" "
                "{ z++; next } z { print z \" silent frames before frame \" "
                "NR - 1; z = 0 }'", 120)
            # The played data's md5 per 1000 frames, to tell what went
            # wrong in the wav file if something did
            _, blocks = vm.shell(
                "for i in $(seq 0 %d); do dd if=/tmp/a.raw bs=4000 skip=$i "
                "count=1 2>/dev/null | md5sum; done" % (FRAMES // 1000 - 1),
                120)
            irqs = irqs_and_errors(vm, "mcasp|aic3x")
        fmt, pcm = wav_samples(wav)
    finally:
        os.unlink(wav)
    print("#   recorded %d frames, from %s md5 %s (played %s)"
          % (rec_bytes // 4, lines[1], rec_md5, want_md5))
    print("#   %s" % " ".join(irqs.split()))
    if rec_bytes != 2 * 48000 * 4:
        raise g.GuestError("the recording is %d bytes, not 2 s" % rec_bytes)
    if rec_md5 != want_md5:
        raise g.GuestError("the loopback recording is not what was played; "
                           "silent stretches in it:\n%s\nsteps (guest "
                           "uptime):\n%s" % (gaps, steps))
    if fmt != (2, 48000, 16):
        raise g.GuestError("wav format %s" % (fmt,))
    played, _ = after_silence(pcm)
    if hashlib.md5(played).hexdigest() != want_md5:
        bad = [i for i, h in enumerate(blocks.split()[0::2])
               if hashlib.md5(played[i * 4000:(i + 1) * 4000]).hexdigest()
               != h]
        raise g.GuestError("the audio output is not what the guest played: "
                           "%d frames from the first sound; blocks of 1000 "
                           "frames that differ: %s" % (len(played) // 4, bad))


test_pairs({
    "audio": (check_playback, [(BOARD, k) for k in g.KERNELS]),
    # Debian's armmp kernel has no tlv320aic3x I2C driver
    # (CONFIG_SND_SOC_TLV320AIC3X_I2C is off): the am335x kernel only.
    "audio-duplex": (check_duplex, [("am335x-evm", "am335x")]),
}, 240)
