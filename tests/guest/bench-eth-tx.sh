#!/bin/sh
# bench-eth-tx.sh: one-way TCP from the guest into a sink that QEMU's slirp
# feeds without any host socket (-nic user,guestfwd=tcp:10.0.2.100:5001-null),
# run from /init so that nothing from the host's console reaches the guest
# meanwhile: with a peer that lives only in QEMU, the CPSW's timing model
# gives the same figures, to the byte, run after run.
#
# Kernel command line: am335x.test=bench-eth-tx.sh [bench.windows=KB,...]
#                      [bench.secs=N]
# Prints iperf 2's one-second reports, in bytes:
#   BENCH-ETH-TX WINDOW [  1] 0.0000-1.0000 sec  N Bytes  N Bytes/sec
# The last report of each run runs into iperf's wait for the sink to
# close the connection, which never comes (the null chardev stays open).
set -u
windows=64 secs=2
for arg in $(cat /proc/cmdline); do
    case $arg in
        bench.windows=*) windows=${arg#bench.windows=} ;;
        bench.secs=*) secs=${arg#bench.secs=} ;;
    esac
done
cat > /tmp/udhcpc.sh << 'EOS'
#!/bin/sh
[ "$1" = bound ] || exit 0
ip addr add $ip/${mask:-24} dev $interface
exit 0
EOS
chmod +x /tmp/udhcpc.sh
ip link set eth0 up || exit 1
for i in $(seq 50); do
    grep -q 1 /sys/class/net/eth0/carrier && break
    sleep 0.2
done
udhcpc -i eth0 -n -q -t 5 -s /tmp/udhcpc.sh > /dev/null 2>&1 || exit 1
for w in $(echo "$windows" | tr , ' '); do
    iperf -c 10.0.2.100 -p 5001 -w "${w}K" -f B -i 1 -t "$secs" 2>&1 |
        grep -E '^\[ *[0-9]+\] +[0-9.]+-' | sed "s/^/BENCH-ETH-TX $w /"
done
