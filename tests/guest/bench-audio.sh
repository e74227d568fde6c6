#!/bin/sh
# bench-audio.sh: the audio row of scripts/bench, as TI measured it for the
# PSP guide: capture on the EVM's codec (McASP1, the TLV320AIC3106 as the
# clock master) with RW_INTERLEAVED access, 2 channels, S16_LE and a
# period of 64 frames, at each rate; the CPU load is the share of the
# capture the CPU was not idle (idle and iowait are idle) while the stream
# runs, from the guest kernel's own clocks (cpu-window, src/).  The samples
# go to /dev/null: the load is the driver's, ALSA's and arecord's reading
# them, and whatever else the system does meanwhile.
#
# Kernel command line (this runs from /init with am335x.test=bench-audio.sh):
#   bench.rates=R1,R2,...        sample rates in Hz
#   bench.secs=N                 seconds measured per rate
#
# Prints, per rate:
#   BENCH audio_capture RATE frames=N ns=T busy=B total=T
# (frames: those of the measured seconds)
set -u
rates=48000 secs=2
for arg in $(cat /proc/cmdline); do
    case $arg in
        bench.rates=*) rates=${arg#bench.rates=} ;;
        bench.secs=*) secs=${arg#bench.secs=} ;;
    esac
done
say() { echo "bench-audio: $*"; }
fail() { say "FAIL: $*"; exit 1; }

for i in $(seq 100); do
    grep -q AM335x-EVM /proc/asound/cards && break
    sleep 0.1
done
grep -q AM335x-EVM /proc/asound/cards || fail "no sound card"

# The load while capturing, as top shows it: from when the stream runs,
# over SECS seconds, without arecord's start (the codec's power-up waits
# 50 ms busy) and end
status=/proc/asound/card0/pcm0c/sub0/status
for rate in $(echo "$rates" | tr , ' '); do
    /usr/bin/arecord -q -D hw:0,0 -t raw -f S16_LE -c 2 -r "$rate" \
        --period-size=64 -d $((secs + 2)) /dev/null &
    pid=$!
    for i in $(seq 200); do
        grep -q RUNNING $status && break
        sleep 0.01
    done
    grep -q RUNNING $status || fail "arecord at $rate Hz does not run"
    window=$(cpu-window "$secs") || fail "cpu-window at $rate Hz"
    grep -q RUNNING $status || fail "arecord at $rate Hz stopped early"
    # window: ns=N busy=N cpus=1
    set -- $(echo "$window" | tr = ' ')
    echo "BENCH audio_capture $rate frames=$((rate * secs))" \
         "ns=$2 busy=$4 total=$2"
    wait $pid || fail "arecord at $rate Hz"
done
