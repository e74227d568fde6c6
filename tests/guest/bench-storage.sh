#!/bin/sh
# bench-storage.sh: the storage rows of scripts/bench, run as TI ran them for
# the PSP performance guide.  TI's LTP-DDT script
# blk_device_filesystem_perf_test.sh runs, per buffer size, its
# filesystem_tests tool on a file system mounted async: a timed loop of
# write()s of BUFFER bytes from a 10 MB source file, over and over up to
# the file size (100 MB by default), ended by fsync() inside the timed
# window (st_filesystem_write_to_file.c); then, after unmounting or
# dropping the caches, a timed loop of read()s of the file.  Here
# bench-write (tests/guest/src/bench-write.c) makes the same system calls
# for the write, from a mapping of the source as the tool does, and dd
# those of the read.  Times and CPU load (the share of the run the CPU was not
# idle, as the tool's /proc/stat reading: idle and iowait are idle) come
# from the guest kernel's own clocks, /proc/timer_list.
#
# Kernel command line (this runs from /init with am335x.test=bench-storage.sh):
#   bench.fs=KEY:DEV:TYPE[,...]  e.g. sd_ext2:/dev/mmcblk0p1:ext2 or
#                                nand_ubifs:/dev/mtd9:ubifs (ubiformat,
#                                ubiattach and one volume on the MTD)
#   bench.sizes=B1,B2,...        buffer sizes in bytes
#   bench.total=BYTES            file size per run: a whole number of
#                                passes over the source (10 MiB, or BYTES
#                                if smaller)
#
# Prints, per run:
#   BENCH KEY_write|KEY_read BUFFER bytes=N ns=T busy=B total=T
# with B the ns of the run's T the CPU was not idle.
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

# clock_idle: the guest's clock and the CPU's idle time, in ns
. /tests/clock-idle.sh
measure() { # ROW BUFFER BYTES COMMAND...
    m_row=$1 m_buf=$2 m_bytes=$3
    shift 3
    set -- $(clock_idle) "$@"
    m_t0=$1 m_i0=$(($2 + $3)) m_sb0=$4 m_si0=$5
    shift 5
    "$@" || fail "$m_row $m_buf: $*"
    set -- $(clock_idle)
    echo "BENCH $m_row $m_buf bytes=$m_bytes ns=$(($1 - m_t0))" \
         "busy=$(($1 - m_t0 - ($2 + $3 - m_i0))) total=$(($1 - m_t0))" \
         "stat_busy=$(($4 - m_sb0)) stat_idle=$(($5 - m_si0))"
}
read_file() { # SRC BUFFER
    dd if="$1" of=/dev/null bs="$2" 2>/dev/null
}
drop_caches() {
    sync
    echo 3 >/proc/sys/vm/drop_caches
}

# The source: incompressible (UBIFS compresses), made once, in RAM; the
# tool's is 10 MB (its -srcfile_size default, MB = 2^20).
src_bytes=$((10 * 1048576))
[ "$total" -lt $src_bytes ] && src_bytes=$total
passes=$(((total + src_bytes - 1) / src_bytes))
bytes=$((passes * src_bytes))
dd if=/dev/urandom of=/tmp/src bs=$src_bytes count=1 2>/dev/null &&
    [ "$(wc -c </tmp/src)" -eq $src_bytes ] || fail "no /tmp/src"
say "files of $bytes bytes: $passes passes over a $src_bytes-byte source"

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
# The PSP's 3.2 kernel read a file in requests of at most its readahead
# window, 128 KiB (mm/readahead.c get_init_ra_size() caps at ra_pages),
# and wrote in requests of up to max_sectors_kb.  6.1 also reads in
# requests of up to max_sectors_kb when one read() asks for more than the
# window (ondemand_readahead() grows to bdi->io_pages, which follows
# max_sectors_kb).  So for the read runs, the block device's max_sectors_kb
# is set to the window, as the 3.2 kernel issued them; writes keep it.
# A device that takes less in one request (usb-storage: 120 KiB) gets
# its own limit, as it did under 3.2.
queue_dir() { # DEV: its disk's queue directory, if it is a block device
    d=/sys/class/block/${1#/dev/}
    [ -e "$d/partition" ] && d=$d/..
    [ -d "$d/queue" ] && echo "$d/queue"
}
read_requests_as_3_2() { # DEV on|off
    q=$(queue_dir "$1") || return 0
    if [ "$2" = on ]; then
        write_kb=$(cat "$q/max_sectors_kb")
        read_kb=$(cat "$q/read_ahead_kb")
        hw_kb=$(cat "$q/max_hw_sectors_kb")
        [ "$read_kb" -gt "$hw_kb" ] && read_kb=$hw_kb
        [ -n "${told_requests:-}" ] ||
            say "reads in requests of $read_kb KiB" \
                "(max_sectors_kb $write_kb for writes)"
        told_requests=1
        echo "$read_kb" >"$q/max_sectors_kb"
    else
        echo "$write_kb" >"$q/max_sectors_kb"
    fi
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
        drop_caches
        measure "${key}_write" "$b" "$bytes" \
            bench-write /tmp/src "$mnt/f" "$b" "$passes"
        drop_caches
        read_requests_as_3_2 "$dev" on
        measure "${key}_read" "$b" "$bytes" read_file "$mnt/f" "$b"
        read_requests_as_3_2 "$dev" off
        # Not measured: the data came back as written (from the cache):
        # its size, its first pass and its last.
        [ "$(wc -c <"$mnt/f")" -eq "$bytes" ] &&
            head -c $src_bytes "$mnt/f" | cmp -s - /tmp/src &&
            tail -c $src_bytes "$mnt/f" | cmp -s - /tmp/src ||
            fail "$key $b: the file read back differs from what was written"
        rm -f "$mnt/f"
        sync
    done
    umount_fs "$dev" "$type" "$mnt" || fail "umount $mnt"
done
say "done"
