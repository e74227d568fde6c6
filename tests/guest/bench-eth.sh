#!/bin/sh
# bench-eth.sh: the PSP guide's Ethernet workload, TCP both ways at once as
# `iperf -d` runs it, against a peer that lives only inside QEMU.  With the
# PC peer (net/tcp_bench_peer.c, a TCP sink and source with window scaling
# and SACK on a hub port), the guest takes a static address (bench.ip),
# sends into the peer's sink (bench.sink) and, as iperf -d's listener does,
# takes the peer's connection back on an `iperf -s -w WINDOW`
# (bench.listen).  With slirp's guestfwds:
#   -chardev zero-source,id=zsrc
#   -nic user,guestfwd=tcp:10.0.2.100:5001-null,guestfwd=tcp:10.0.2.101:5001-zsrc
# the guest sends into the null chardev, which takes every byte at once,
# and receives (iperf -R) from the zero-source chardev, which refills
# slirp's send buffer on the virtual clock.  It runs from /init, so that
# nothing from the host's console reaches the guest meanwhile: with peers
# that act at fixed points of the guest's time, the CPSW's timing model
# gives the same figures, to the byte, run after run.
#
# Kernel command line: am335x.test=bench-eth.sh [bench.windows=KB,...]
#                      [bench.secs=N] [bench.pacing=USECS,...] [bench.rx=0|1]
#                      [bench.rxring=N] [bench.ip=ADDR/LEN
#                      bench.sink=IP:PORT bench.source=IP:PORT]
#                      [bench.listen=PORT] [bench.features=NAME:on|off,...]
#                      [bench.repeats=N] [bench.gadget=ecm]
# bench.features: offload settings for ethtool -K eth0 (e.g. gso:off), for
# experiments; the guide's rows are run with the driver's defaults.
# bench.listen: the receiving stream comes as iperf -d's does, from the peer
# connecting back to an `iperf -s -w WINDOW` on PORT, so that the window
# is the listener's, as in the guide (instead of iperf -R to the source).
# bench.rx=0 leaves out the receiving stream (one way only); bench.rxring
# sets the driver's number of RX descriptors (ethtool -G eth0 rx N).
# bench.repeats runs the list of windows N times over, one after another:
# each run of a window then starts from a different history (see the
# README's Ethernet bench), and the spread of its figures shows how much
# that history moves them.
# For each pacing interval (ethtool -C eth0 rx-usecs) and window, prints
# iperf 2's one-second reports, in bytes, and the guest's CPU time over the
# first bench.secs seconds, busy and in all, in ns (cpu-window, src/), and
# the busy and idle ticks of /proc/stat's cpu line over the same window:
#   BENCH-ETH PACING WINDOW REPEAT tx|rx [  1] 0.0000-1.0000 sec  N Bytes  N Bytes/sec
#   BENCH-ETH-CPU PACING WINDOW REPEAT BUSY TOTAL
#   BENCH-ETH-STAT PACING WINDOW REPEAT BUSY IDLE
#   BENCH-ETH-DROPS PACING WINDOW REPEAT N
# (N: frames the CPSW dropped for want of RX buffers, ethtool -S's
# overrun counters, over the run)
# bench.gadget=ecm runs the streams over USB0 instead: a configfs gadget
# with one CDC ECM function (usb0), bound to the MUSB's UDC and configured
# by the PC behind the board's USB cable (hw/usb/usb_gadget_host.c); no
# interrupt pacing (bench.pacing=0) and no ethtool settings there.
# Half a second after the last one-second report, the streams are killed:
# neither peer ever closes its end.
set -u
windows=64 secs=2 pacing=0 rx=1 rxring= ip= listen= features= repeats=1
gadget=
sink=10.0.2.100:5001 source=10.0.2.101:5001
for arg in $(cat /proc/cmdline); do
    case $arg in
        bench.windows=*) windows=${arg#bench.windows=} ;;
        bench.secs=*) secs=${arg#bench.secs=} ;;
        bench.pacing=*) pacing=${arg#bench.pacing=} ;;
        bench.rx=*) rx=${arg#bench.rx=} ;;
        bench.rxring=*) rxring=${arg#bench.rxring=} ;;
        bench.ip=*) ip=${arg#bench.ip=} ;;
        bench.sink=*) sink=${arg#bench.sink=} ;;
        bench.source=*) source=${arg#bench.source=} ;;
        bench.listen=*) listen=${arg#bench.listen=} ;;
        bench.features=*) features=${arg#bench.features=} ;;
        bench.repeats=*) repeats=${arg#bench.repeats=} ;;
        bench.gadget=*) gadget=${arg#bench.gadget=} ;;
    esac
done
cat > /tmp/udhcpc.sh << 'EOS'
#!/bin/sh
[ "$1" = bound ] || exit 0
ip addr add $ip/${mask:-24} dev $interface
exit 0
EOS
chmod +x /tmp/udhcpc.sh
# A gadget with one ECM function, configured by the PC on the USB cable.
# The CPPI 4.1 is kept awake: the gadget's IN endpoint uses the DMA only
# if the DMA controller is awake when its first request comes.
ecm_gadget() {
    mount -t configfs none /sys/kernel/config 2> /dev/null
    echo on > /sys/bus/platform/devices/47400000.dma-controller/power/control
    cd /sys/kernel/config/usb_gadget && mkdir g && cd g &&
        echo 0x1d6b > idVendor && echo 0x0104 > idProduct &&
        mkdir configs/c.1 functions/ecm.usb0 &&
        ln -s functions/ecm.usb0 configs/c.1/ &&
        ls /sys/class/udc > UDC || return 1
    cd /
    for i in $(seq 100); do
        [ "$(cat /sys/class/udc/*/state)" = configured ] && return 0
        sleep 0.1
    done
    return 1
}
dev=eth0
case $gadget in
    '') ;;
    ecm) ecm_gadget || exit 1; dev=usb0 ;;
    *) echo "bench-eth: no gadget function '$gadget'"; exit 1 ;;
esac
ip link set $dev up || exit 1
if [ -n "$rxring" ]; then
    ethtool -G $dev rx "$rxring" 2> /dev/null
    # "Current hardware settings:" come second
    [ "$(ethtool -g $dev | awk '/^RX:/ { n = $2 } END { print n }')" = \
        "$rxring" ] || exit 1
fi
for f in $(echo "$features" | tr , ' '); do
    ethtool -K $dev "${f%:*}" "${f#*:}" || exit 1
done
for i in $(seq 50); do
    grep -q 1 /sys/class/net/$dev/carrier && break
    sleep 0.2
done
if [ -n "$ip" ]; then
    ip addr add "$ip" dev $dev || exit 1
else
    udhcpc -i $dev -n -q -t 5 -s /tmp/udhcpc.sh > /dev/null 2>&1 || exit 1
fi

# The CPSW's overrun counters (frames dropped for want of room), summed
# (none on usb0)
overruns() {
    ethtool -S $dev 2> /dev/null |
        awk '/[Oo]verruns:/ { n += $NF } END { print n + 0 }'
}

reports() {
    grep -E '^\[ *\*?[0-9]+\] +[0-9.]+-' "$1" | sed "s/^/BENCH-ETH $2 /"
}

for p in $(echo "$pacing" | tr , ' '); do
    # ethtool fails when nothing changes; what counts is the value after
    if [ $dev = eth0 ]; then
        ethtool -C $dev rx-usecs "$p" 2> /dev/null
        ethtool -c $dev | grep -q "^rx-usecs: *$p\$" || exit 1
    elif [ "$p" != 0 ]; then
        echo "bench-eth: no interrupt pacing on $dev"
        exit 1
    fi
    for rep in $(seq "$repeats"); do
        for w in $(echo "$windows" | tr , ' '); do
            pids=
            if [ "$rx" = 1 ] && [ -n "$listen" ]; then
                iperf -s -p "$listen" -w "${w}K" -f B -i 1 > /tmp/rx.out 2>&1 &
                pids=$!
                sleep 0.2
            fi
            iperf -c "${sink%:*}" -p "${sink#*:}" -w "${w}K" -f B -i 1 \
                -t "$secs" > /tmp/tx.out 2>&1 &
            pids="$pids $!"
            if [ "$rx" = 1 ] && [ -z "$listen" ]; then
                iperf -c "${source%:*}" -p "${source#*:}" -R -w "${w}K" -f B \
                    -i 1 -t "$secs" > /tmp/rx.out 2>&1 &
                pids="$pids $!"
            fi
            drops=$(overruns)
            # ns=N busy=N cpus=1 (iowait counts as idle)
            window=$(cpu-window "$secs") || exit 1
            set -- $(echo "$window" | tr = ' ')
            drops=$(($(overruns) - drops))
            # The last one-second report is out by now.  iperf would then wait
            # seconds for the peers to close, which they never do, and SIGINT
            # or SIGTERM do not cut that short; its reports are written out a
            # line at a time, so SIGKILL loses none.
            sleep 0.5
            kill -KILL $pids 2> /dev/null
            wait
            echo "BENCH-ETH-CPU $p $w $rep $4 $2"
            echo "BENCH-ETH-STAT $p $w $rep $8 ${10}"
            echo "BENCH-ETH-DROPS $p $w $rep $drops"
            reports /tmp/tx.out "$p $w $rep tx"
            [ "$rx" = 1 ] && reports /tmp/rx.out "$p $w $rep rx"
        done
    done
done
exit 0
