/*
 * TI AM335x timing models: the shared "resource"
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_MISC_AM335X_TIMING_H
#define HW_MISC_AM335X_TIMING_H

#include "migration/vmstate.h"

/*
 * One thing that moves data at a finite rate: a bus, a DMA port, a card's
 * flash array.  An operation on it starts when both it and the resource
 * are free, takes a fixed latency plus its bytes at the resource's
 * bandwidth, and leaves the resource busy until then.  The models compute
 * completion times with it on QEMU_CLOCK_VIRTUAL and raise their status
 * bits and requests at those times (see ARCHITECTURE.md, section 5).
 *
 * With the machine's timing=off every model skips this and completes at
 * once, as before.
 */
typedef struct AM335xTimingResource {
    /* Bytes per second; 0 is unlimited (the bytes take no time) */
    uint64_t bandwidth;
    /* Fixed cost of each operation, in ns */
    uint64_t latency_ns;
    /* QEMU_CLOCK_VIRTUAL ns at which the last booked operation ends */
    int64_t busy_until;
} AM335xTimingResource;

void am335x_timing_init(AM335xTimingResource *r, uint64_t bandwidth,
                        uint64_t latency_ns);
void am335x_timing_reset(AM335xTimingResource *r);

/* The time @bytes take at the resource's bandwidth, without latency */
int64_t am335x_timing_bytes_ns(const AM335xTimingResource *r,
                               uint64_t bytes);

/*
 * Books an operation of @bytes that may start at @start (or when the
 * resource is free, if later), with the resource's latency plus
 * @extra_ns of its own: returns, and keeps as busy_until, its end.
 */
int64_t am335x_timing_book_at(AM335xTimingResource *r, int64_t start,
                              uint64_t bytes, int64_t extra_ns);

/* The same from now: max(now, busy_until) + latency + bytes/bandwidth */
int64_t am335x_timing_book(AM335xTimingResource *r, uint64_t bytes);

/* True while an operation booked on the resource has not ended */
bool am335x_timing_busy(const AM335xTimingResource *r);

extern const VMStateDescription vmstate_am335x_timing;

#define VMSTATE_AM335X_TIMING(_f, _s)                                   \
    VMSTATE_STRUCT(_f, _s, 1, vmstate_am335x_timing, AM335xTimingResource)

#endif
