# clock-idle.sh: sourced by the bench scripts.
#
# The guest's monotonic clock and the CPU's idle time, both in ns, from
# /proc/timer_list ("now at", and the tick's idle_sleeptime and
# iowait_sleeptime): busybox date has no %N, and /proc/stat counts in
# 10 ms ticks, too coarse for runs of a fraction of a second.  CPU load
# is then the share of the run the CPU was not idle, as top shows it.
clock_idle() {
    # Field values as strings: busybox awk's numbers are doubles.
    awk '/^now at/ { now = $3 }
         /^ *\.idle_sleeptime/ { idle = $(NF - 1) }
         /^ *\.iowait_sleeptime/ { iowait = $(NF - 1) }
         /^cpu / { for (i = 2; i <= NF; i++)
                       if (i == 5 || i == 6) si += $i; else sb += $i }
         END { print now, idle, iowait, sb, si }' /proc/timer_list /proc/stat
}
