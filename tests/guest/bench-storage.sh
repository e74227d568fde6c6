#!/bin/sh
# bench-storage.sh: the storage rows of scripts/bench, as TI's PSP
# performance guide ran them: dd of a file with bs=BUFFER onto a file
# system mounted async, then dd of it back to /dev/null with the page cache
# dropped.  Times come from the guest's own clock, CPU load from
# /proc/stat, as top and time do.
#
# Kernel command line (this runs from /init with am335x.test=bench-storage):
#   bench.fs=KEY:DEV:TYPE[,...]  e.g. sd_ext2:/dev/mmcblk0p1:ext2 or
#                                nand_ubifs:/dev/mtd9:ubifs (ubiformat,
#                                ubiattach and one volume on the MTD)
#   bench.sizes=B1,B2,...        buffer sizes in bytes
#   bench.total=BYTES            file size per run (rounded up to a buffer)
#
# Prints, per run:
#   BENCH KEY_write|KEY_read BUFFER bytes=N ns=T busy=J total=J
# with J the /proc/stat jiffies (busy, all) over the run.
set -u
fs_list= sizes=102400 total=10485760
for arg in $(cat /proc/cmdline); do
    case $arg in
        bench.fs=*) fs_list=${arg#bench.fs=} ;;
        bench.sizes=*) sizes=${arg#bench.sizes=} ;;
        bench.total=*) total=${arg#bench.total=} ;;
    esac
done
say() { echo "bench-storage: $*"; }
fail() { say "FAIL: $*"; exit 1; }

# The guest's monotonic clock in ns ("now at" of /proc/timer_list; busybox
# date has no %N, /proc/uptime only 10 ms).
now_ns() {
    if [ -r /proc/timer_list ]; then
        awk '/^now at/ { print $3; exit }' /proc/timer_list
    else
        awk '{ printf "%d0000000\n", $1 * 100 }' /proc/uptime
    fi
}
# busy and total jiffies of all CPUs (idle and iowait are not busy)
cpu_jiffies() {
    awk '/^cpu / { t = 0; for (i = 2; i <= NF; i++) t += $i;
                   print t - $5 - $6, t }' /proc/stat
}
measure() { # ROW BUFFER BYTES COMMAND...
    m_row=$1 m_buf=$2 m_bytes=$3
    shift 3
    set -- $(cpu_jiffies) "$@"
    m_b0=$1 m_j0=$2
    shift 2
    m_t0=$(now_ns)
    "$@" || fail "$m_row $m_buf: $*"
    m_t1=$(now_ns)
    set -- $(cpu_jiffies)
    echo "BENCH $m_row $m_buf bytes=$m_bytes ns=$((m_t1 - m_t0))" \
         "busy=$(($1 - m_b0)) total=$(($2 - m_j0))"
}
write_file() { # SRC DST BUFFER COUNT
    dd if="$1" of="$2" bs="$3" count="$4" 2>/dev/null && sync
}
read_file() { # SRC BUFFER
    dd if="$1" of=/dev/null bs="$2" 2>/dev/null
}
drop_caches() {
    sync
    echo 3 >/proc/sys/vm/drop_caches
}

# The data: incompressible (UBIFS compresses), made once, in RAM.
max=0
for b in $(echo "$sizes" | tr ',' ' '); do
    n=$(((total + b - 1) / b))
    [ $((n * b)) -gt $max ] && max=$((n * b))
done
dd if=/dev/urandom of=/tmp/src bs=65536 count=$(((max + 65535) / 65536)) \
    2>/dev/null || fail "no /tmp/src"

mount_fs() { # DEV TYPE DIR
    case $2 in
        ubifs)
            n=$(echo "$1" | sed 's,.*mtd,,')
            /usr/sbin/ubiformat -q -y "$1" &&
                /usr/sbin/ubiattach -p "$1" >/dev/null &&
                /usr/sbin/ubimkvol /dev/ubi0 -N bench -m >/dev/null &&
                mount -t ubifs -o async ubi0:bench "$3" ;;
        *)
            mount -t "$2" -o async "$1" "$3" ;;
    esac
}
umount_fs() { # DEV TYPE DIR
    umount "$3" || return 1
    [ "$2" = ubifs ] && /usr/sbin/ubidetach -p "$1"
    return 0
}

for entry in $(echo "$fs_list" | tr ',' ' '); do
    key=${entry%%:*}
    rest=${entry#*:}
    dev=${rest%%:*}
    type=${rest#*:}
    n=0
    while [ ! -e "$dev" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
    mnt=/mnt/$key
    mkdir -p "$mnt"
    mount_fs "$dev" "$type" "$mnt" || fail "mount $dev ($type)"
    for b in $(echo "$sizes" | tr ',' ' '); do
        count=$(((total + b - 1) / b))
        bytes=$((count * b))
        drop_caches
        measure "${key}_write" "$b" "$bytes" \
            write_file /tmp/src "$mnt/f" "$b" "$count"
        drop_caches
        measure "${key}_read" "$b" "$bytes" read_file "$mnt/f" "$b"
        rm -f "$mnt/f"
        sync
    done
    umount_fs "$dev" "$type" "$mnt" || fail "umount $mnt"
done
say "done"
