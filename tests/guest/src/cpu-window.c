/*
 * cpu-window SECS: the guest's CPU load over the next SECS seconds, for
 * the benches that watch a workload run in the background (audio capture,
 * iperf).  Prints "ns=N busy=N cpus=N stat_busy=N stat_idle=N": the
 * time that passed on the kernel's monotonic clock and how much of it the
 * CPUs (one on the AM335x; summed on others) were not idle, both in ns,
 * from /proc/timer_list ("now at", the tick's idle_sleeptime and
 * iowait_sleeptime; iowait counts as idle, as top has it); then, for
 * comparison, the busy and idle USER_HZ ticks of /proc/stat as TI's
 * LTP-DDT script counted them for the PSP guide.
 *
 * One process reads the clocks, sleeps and reads them again, so that the
 * window holds nothing of the measurement but the two reads: measured in
 * the shell (an awk, a sleep, another awk), the window also held a
 * process exit and two process starts, about 10 ms of CPU each time on
 * the emulated EVM, half a point of a 2 s audio row.
 *
 * Built for the guest by scripts/images (arm-linux-gnueabihf-gcc).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct clocks {
    unsigned long long now;     /* "now at N nsecs" */
    unsigned long long idle;    /* idle_sleeptime + iowait_sleeptime */
    unsigned cpus;              /* tick devices with an idle time */
    unsigned long long stat_busy;   /* /proc/stat, USER_HZ ticks */
    unsigned long long stat_idle;   /* its idle + iowait */
};

/*
 * The "cpu " line of /proc/stat, read as TI's LTP-DDT cpu load script
 * reads it for the PSP guide: idle and iowait are idle, every other
 * field is busy.
 */
static int read_stat(struct clocks *c)
{
    unsigned long long v[10] = { 0 };
    FILE *f = fopen("/proc/stat", "r");
    int n, i;

    if (!f) {
        perror("cpu-window: /proc/stat");
        return -1;
    }
    n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
               &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
               &v[8], &v[9]);
    fclose(f);
    if (n < 5) {
        fprintf(stderr, "cpu-window: /proc/stat has no cpu line\n");
        return -1;
    }
    c->stat_idle = v[3] + v[4];
    for (i = 0; i < 10; i++) {
        if (i != 3 && i != 4) {
            c->stat_busy += v[i];
        }
    }
    return 0;
}

/* /proc/timer_list of a one-CPU system is a few KiB. */
static char text[1 << 16];

static int read_clocks(struct clocks *c)
{
    FILE *f = fopen("/proc/timer_list", "r");
    size_t len;
    const char *p;
    int found = 0;

    if (!f) {
        perror("cpu-window: /proc/timer_list");
        return -1;
    }
    len = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    text[len] = '\0';

    memset(c, 0, sizeof(*c));
    for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        unsigned long long v;

        while (*p == ' ') {
            p++;
        }
        if (sscanf(p, "now at %llu nsecs", &v) == 1) {
            c->now = v;
            found |= 1;
        } else if (sscanf(p, ".idle_sleeptime : %llu nsecs", &v) == 1) {
            c->idle += v;
            c->cpus++;
            found |= 2;
        } else if (sscanf(p, ".iowait_sleeptime: %llu nsecs", &v) == 1) {
            c->idle += v;
            found |= 4;
        }
    }
    if (found != 7) {
        fprintf(stderr, "cpu-window: /proc/timer_list has no %s\n",
                !(found & 1) ? "\"now at\"" : "idle and iowait times");
        return -1;
    }
    return read_stat(c);
}

int main(int argc, char **argv)
{
    struct clocks before, after;
    unsigned long long ns, idle, cpu_ns;
    struct timespec ts;
    double secs;
    char extra;

    if (argc != 2 || sscanf(argv[1], "%lf%c", &secs, &extra) != 1 ||
        !(secs > 0 && secs < 86400)) {
        fprintf(stderr, "usage: cpu-window SECS (0 < SECS < 86400)\n");
        return 2;
    }
    ts.tv_sec = (time_t)secs;
    ts.tv_nsec = (long)((secs - (double)ts.tv_sec) * 1e9);

    if (read_clocks(&before) < 0) {
        return 1;
    }
    while (nanosleep(&ts, &ts) < 0) {
        if (errno != EINTR) {
            perror("cpu-window: nanosleep");
            return 1;
        }
    }
    if (read_clocks(&after) < 0) {
        return 1;
    }
    ns = after.now - before.now;
    idle = after.idle - before.idle;
    cpu_ns = ns * after.cpus;
    printf("ns=%llu busy=%llu cpus=%u stat_busy=%llu stat_idle=%llu\n", ns,
           cpu_ns > idle ? cpu_ns - idle : 0, after.cpus,
           after.stat_busy - before.stat_busy,
           after.stat_idle - before.stat_idle);
    return 0;
}
