/*
 * TI AM335x timing models: the shared "resource"
 *
 * A completion lands at max(now, busy_until) + latency + bytes / bandwidth
 * on QEMU_CLOCK_VIRTUAL.  Every model that moves data (the EDMA transfer
 * controllers, the HSMMC bus and its card, the GPMC and its NAND) books
 * its operations here, so that one rule decides how long things take.
 * The parameters themselves (bandwidths, latencies) are the models' QOM
 * properties, taken from the parts' datasheets.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/host-utils.h"
#include "qemu/timer.h"
#include "hw/misc/am335x_timing.h"
#include "trace.h"

void am335x_timing_init(AM335xTimingResource *r, uint64_t bandwidth,
                        uint64_t latency_ns)
{
    r->bandwidth = bandwidth;
    r->latency_ns = latency_ns;
    r->busy_until = 0;
}

void am335x_timing_reset(AM335xTimingResource *r)
{
    r->busy_until = 0;
}

int64_t am335x_timing_bytes_ns(const AM335xTimingResource *r, uint64_t bytes)
{
    if (!r->bandwidth || !bytes) {
        return 0;
    }
    return muldiv64(bytes, NANOSECONDS_PER_SECOND, r->bandwidth);
}

int64_t am335x_timing_book_at(AM335xTimingResource *r, int64_t start,
                              uint64_t bytes, int64_t extra_ns)
{
    int64_t begin = MAX(start, r->busy_until);
    int64_t end = begin + r->latency_ns + am335x_timing_bytes_ns(r, bytes) +
                  MAX(extra_ns, 0);

    trace_am335x_timing_book(r, begin, bytes, end);
    r->busy_until = end;
    return end;
}

int64_t am335x_timing_book(AM335xTimingResource *r, uint64_t bytes)
{
    return am335x_timing_book_at(r, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL),
                                 bytes, 0);
}

bool am335x_timing_busy(const AM335xTimingResource *r)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) < r->busy_until;
}

const VMStateDescription vmstate_am335x_timing = {
    .name = "am335x-timing-resource",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(bandwidth, AM335xTimingResource),
        VMSTATE_UINT64(latency_ns, AM335xTimingResource),
        VMSTATE_INT64(busy_until, AM335xTimingResource),
        VMSTATE_END_OF_LIST()
    }
};
