/*
 * A chardev that sends its frontend an endless stream of zero bytes on the
 * virtual clock: scripts/bench's peer for the Ethernet stream into the
 * guest (-chardev zero-source,id=src with -nic user,guestfwd=...-src).
 *
 * Every ZERO_SOURCE_PERIOD_NS of QEMU_CLOCK_VIRTUAL it gives the frontend
 * as many bytes as the frontend can take.  Under -icount the stream thus
 * reaches the guest at the same instructions in every run.  A file or a
 * command behind a guestfwd is read whenever the host's main loop gets to
 * it, which changes from run to run.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "chardev/char.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qom/object.h"

#define TYPE_CHARDEV_ZERO_SOURCE "chardev-zero-source"
OBJECT_DECLARE_SIMPLE_TYPE(ZeroSourceChardev, CHARDEV_ZERO_SOURCE)

/*
 * 10 us: 1250 bytes' time at 1 Gbit/s, so that a peer behind it refills
 * its send buffer long before a gigabit link could drain it.
 */
#define ZERO_SOURCE_PERIOD_NS   10000
#define ZERO_SOURCE_CHUNK       4096
/* At most this much per period, in case a frontend never says "full" */
#define ZERO_SOURCE_MAX_CHUNKS  64

struct ZeroSourceChardev {
    Chardev parent;
    QEMUTimer *timer;
};

static void zero_source_tick(void *opaque)
{
    static const uint8_t zeros[ZERO_SOURCE_CHUNK];
    ZeroSourceChardev *s = opaque;
    Chardev *chr = CHARDEV(s);

    for (int i = 0; i < ZERO_SOURCE_MAX_CHUNKS; i++) {
        int room = qemu_chr_be_can_write(chr);

        if (room <= 0) {
            break;
        }
        qemu_chr_be_write(chr, zeros, MIN(room, ZERO_SOURCE_CHUNK));
    }
    timer_mod(s->timer,
              qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + ZERO_SOURCE_PERIOD_NS);
}

static void zero_source_open(Chardev *chr, ChardevBackend *backend,
                             bool *be_opened, Error **errp)
{
    ZeroSourceChardev *s = CHARDEV_ZERO_SOURCE(chr);

    *be_opened = false;
    s->timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, zero_source_tick, s);
    timer_mod(s->timer,
              qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + ZERO_SOURCE_PERIOD_NS);
}

/* What the frontend writes is dropped, as by the null chardev. */
static int zero_source_write(Chardev *chr, const uint8_t *buf, int len)
{
    return len;
}

static void zero_source_finalize(Object *obj)
{
    ZeroSourceChardev *s = CHARDEV_ZERO_SOURCE(obj);

    if (s->timer) {
        timer_free(s->timer);
    }
}

static void zero_source_class_init(ObjectClass *oc, void *data)
{
    ChardevClass *cc = CHARDEV_CLASS(oc);

    cc->open = zero_source_open;
    cc->chr_write = zero_source_write;
}

static const TypeInfo zero_source_type_info = {
    .name = TYPE_CHARDEV_ZERO_SOURCE,
    .parent = TYPE_CHARDEV,
    .instance_size = sizeof(ZeroSourceChardev),
    .instance_finalize = zero_source_finalize,
    .class_init = zero_source_class_init,
};

static void zero_source_register_types(void)
{
    type_register_static(&zero_source_type_info);
}

type_init(zero_source_register_types)
