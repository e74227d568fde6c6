#!/bin/sh
# mmc-data.sh DISK: on a card whose partitions 1, 2 and 3 the host made,
# make ext4, ext2 and vfat, and check that files written through each read
# back identical after a remount (page cache dropped) and that fsck finds
# nothing wrong.  Leaves /host-check.bin on each, synced and unmounted, and
# prints "HOST-CHECK <fs> <sha256>" for the host to compare with the image.
set -u
disk=/dev/${1:-mmcblk0}
fail=0
say() { echo "mmc-data: $*"; }
bad() { say "FAIL: $*"; fail=1; }

for p in 1 2 3; do
    n=0
    while [ ! -b "${disk}p$p" ] && [ $n -lt 50 ]; do sleep 0.2; n=$((n + 1)); done
    [ -b "${disk}p$p" ] || { bad "no ${disk}p$p"; exit 1; }
done

mkfs_for() {
    case $1 in
        ext4) /sbin/mke2fs -q -F -t ext4 "$2" ;;
        ext2) /sbin/mke2fs -q -F -t ext2 "$2" ;;
        vfat) /sbin/mkfs.fat "$2" >/dev/null ;;
    esac
}
fsck_for() {
    case $1 in
        ext4|ext2) /sbin/e2fsck -fn "$2" ;;
        vfat) /sbin/fsck.fat -n "$2" ;;
    esac
}

mkdir -p /mnt/card
p=0
for fs in ext4 ext2 vfat; do
    p=$((p + 1))
    part=${disk}p$p
    mkfs_for $fs "$part" || { bad "mkfs $fs on $part"; continue; }
    mount -t $fs "$part" /mnt/card || { bad "mount $fs"; continue; }
    # Sizes that cross block, cluster and request boundaries.
    for size in 1 4095 65536 1000000 3145728; do
        head -c $size /dev/urandom >/tmp/data.$size
        cp /tmp/data.$size /mnt/card/file.$size
    done
    head -c 2097152 /dev/urandom >/mnt/card/host-check.bin
    sync
    umount /mnt/card
    echo 3 >/proc/sys/vm/drop_caches
    mount -t $fs "$part" /mnt/card || { bad "remount $fs"; continue; }
    for size in 1 4095 65536 1000000 3145728; do
        a=$(sha256sum </tmp/data.$size | cut -d' ' -f1)
        b=$(sha256sum </mnt/card/file.$size | cut -d' ' -f1)
        [ "$a" = "$b" ] || bad "$fs: file.$size differs after remount"
        rm -f /tmp/data.$size
    done
    echo "HOST-CHECK $fs $(sha256sum </mnt/card/host-check.bin | cut -d' ' -f1)"
    umount /mnt/card
    if out=$(fsck_for $fs "$part" 2>&1); then
        say "$fs: fsck clean"
    else
        bad "$fs: fsck: $out"
    fi
    say "$fs: round trip done"
done
sync
exit $fail
