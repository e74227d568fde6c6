#!/bin/sh
# mmc-emmc.sh DISK: the eMMC is an MMC device (not SD) with two boot
# partitions; data written to the user area and to boot0 reads back
# identical with the page cache dropped.
set -u
disk=${1:-mmcblk1}
fail=0
say() { echo "mmc-emmc: $*"; }
bad() { say "FAIL: $*"; fail=1; }

for d in $disk ${disk}boot0 ${disk}boot1; do
    [ -b /dev/$d ] || bad "no /dev/$d"
done
[ $fail = 0 ] || exit 1
type=$(cat /sys/block/$disk/device/type)
[ "$type" = MMC ] || bad "device type is $type, not MMC"
say "$(cat /sys/block/$disk/device/name) $(($(cat /sys/block/$disk/size) / 2048)) MiB," \
    "boot0 $(($(cat /sys/block/${disk}boot0/size) / 2)) KiB," \
    "bus width: $(cat /sys/kernel/debug/mmc1/ios 2>/dev/null | grep 'bus width' | cut -d: -f2)"

check() { # DEV OFFSET_BLOCKS SIZE_KIB
    head -c $(($3 * 1024)) /dev/urandom >/tmp/emmc.in
    dd if=/tmp/emmc.in of=$1 bs=1024 seek=$2 conv=fsync 2>/dev/null ||
        { bad "write $1"; return; }
    echo 3 >/proc/sys/vm/drop_caches
    dd if=$1 of=/tmp/emmc.out bs=1024 skip=$2 count=$3 2>/dev/null ||
        { bad "read $1"; return; }
    a=$(sha256sum </tmp/emmc.in | cut -d' ' -f1)
    b=$(sha256sum </tmp/emmc.out | cut -d' ' -f1)
    [ "$a" = "$b" ] && say "$1: $3 KiB at $2 KiB verified" || bad "$1: data differs"
    rm -f /tmp/emmc.in /tmp/emmc.out
}
check /dev/$disk 1024 4096
check /dev/$disk $((1024 * 1024)) 1024
echo 0 >/sys/block/${disk}boot0/force_ro
check /dev/${disk}boot0 0 64
exit $fail
