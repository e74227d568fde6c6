"""Guest test of the McASP: the BeagleBone Black's HDMI audio.

ALSA's aplay plays half a second of random 16-bit stereo at 48 kHz
through the real driver stack (simple-audio-card, davinci-mcasp with the
EDMA's cyclic DMA, tda998x's hdmi-codec).  McASP0 is the clock master,
its bit clock divided down from the board's 24.576 MHz AHCLKX, and sends
the samples to the TDA19988; the model plays them on the machine's
audiodev, here QEMU's wav backend.  The samples in the wav file must be
exactly those the guest played, in order, none lost or repeated."""

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


def check_playback(board, kernel, timeout):
    fd, wav = tempfile.mkstemp(prefix="am335x-audio-", suffix=".wav")
    os.close(fd)
    args = ["-audiodev", "wav,id=snd0,path=%s,out.frequency=48000,"
            "out.channels=2,out.format=s16" % wav, "-M", "audiodev=snd0"]
    try:
        with booted(board, kernel, "audio", timeout, extra_args=args) as vm:
            load_modules(vm, "audio")
            status, out = vm.shell(
                "for i in $(seq 100); do grep -q BeagleBone "
                "/proc/asound/cards && break; sleep 0.1; done; "
                "cat /proc/asound/cards")
            if status != 0 or "BeagleBone" not in out:
                raise g.GuestError("no sound card: %s" % out)
            status, out = vm.shell(
                "dd if=/dev/urandom of=/tmp/a.raw bs=4 count=%d 2>/dev/null "
                "&& md5sum /tmp/a.raw" % FRAMES)
            if status != 0:
                raise g.GuestError("test data: %s" % out)
            want_md5 = out.split()[-2]
            status, out = vm.shell(
                "/usr/bin/aplay -q -D hw:0,0 -t raw -f S16_LE -r 48000 -c 2 "
                "/tmp/a.raw && sleep 0.5", 60)
            if status != 0:
                raise g.GuestError("aplay failed: %s" % out)
            _, irqs = vm.shell("grep -i mcasp /proc/interrupts")
            status, out = vm.shell("dmesg | grep -i -E 'mcasp|tda998x' | "
                                   "grep -i -E 'underflow|error|fail'")
            if status == 0:
                raise g.GuestError("driver errors in dmesg:\n" + out)
        fmt, pcm = wav_samples(wav)
    finally:
        os.unlink(wav)
    if fmt != (2, 48000, 16):
        raise g.GuestError("wav format %s" % (fmt,))
    # The McASP sends silence before the first period reaches it
    start = 0
    while start + 4 <= len(pcm) and pcm[start:start + 4] == b"\0\0\0\0":
        start += 4
    played = pcm[start:start + FRAMES * 4]
    got_md5 = hashlib.md5(played).hexdigest()
    print("#   %d frames of silence, then %d frames; md5 %s (guest %s)"
          % (start // 4, len(played) // 4, got_md5, want_md5))
    print("#   %s" % " ".join(irqs.split()))
    if len(played) != FRAMES * 4 or got_md5 != want_md5:
        raise g.GuestError("the audio output is not what the guest played")


test_pairs({
    "audio": (check_playback, [(BOARD, k) for k in g.KERNELS]),
}, 240)
