/*
 * TI AM335x CPSW address lookup engine (ALE)
 *
 * The switch's forwarding decision: a 1024-entry table of unicast and
 * multicast addresses and VLANs that software reads and writes one entry
 * at a time through TBLW0-2 and TBLCTL, and that the hardware searches for
 * every frame, learning the source addresses of the frames that come in
 * on ports in the learning or forwarding state.
 *
 * Each frame goes through the TRM's ingress filter, then its forwarding
 * rules (TRM 14.3.2.6, "Packet Forwarding Process"):
 *  - the receive port's state: disabled drops all; blocking and learning
 *    pass only supervisory multicast (learning still learns);
 *  - in VLAN-aware mode: untagged frames are dropped on DROP_UNTAGGED
 *    ports, frames of a VLAN with no table entry on DROP_UNKNOWN_VLAN
 *    ports, and frames from a port outside the VLAN's member list (the
 *    unknown-VLAN register stands in for a VLAN with no entry);
 *  - a secure source address seen on another port, and blocked source or
 *    destination addresses, drop the frame;
 *  - registered multicast goes to its entry's ports (in VLAN-aware mode
 *    also through the VLAN's registered-multicast mask) if its forward
 *    state admits the receive port's state; unregistered multicast goes to
 *    the VLAN's unregistered-multicast flood mask; a known unicast
 *    address goes to its port; unknown unicast floods the VLAN, but the
 *    host port only with P0_UNI_FLOOD (promiscuous mode);
 *  - the result is limited to the VLAN's members, never includes the
 *    receive port and only ports in the forwarding state;
 *  - in bypass mode, everything from a slave port goes to the host.
 * The VLAN's force-untagged-egress mask tells the switch which ports send
 * the frame without its tag.
 *
 * Ageing: AGE_OUT_NOW frees the ageable unicast entries not touched (seen
 * as a source) since the last one, and clears the touch of the others.
 * The AM335x's ALE has no ageing timer: software sets AGE_OUT_NOW
 * periodically.
 *
 * Not modelled: rate limiting, OUI deny, authentication mode,
 * VLAN_NOLEARN, MAC-only ports.
 *
 * Reference: AM335x TRM (SPRUH73), section 14.3.2.6 and 14.5.4.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "hw/net/am335x_cpsw_ale.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "trace.h"

REG32(IDVER, 0x00)
REG32(STATUS, 0x04)
REG32(CONTROL, 0x08)
    FIELD(CONTROL, ENABLE_RATE_LIMIT, 0, 1)
    FIELD(CONTROL, VLAN_AWARE, 2, 1)
    FIELD(CONTROL, BYPASS, 4, 1)
    FIELD(CONTROL, P0_UNI_FLOOD, 8, 1)
    FIELD(CONTROL, AGE_OUT_NOW, 29, 1)
    FIELD(CONTROL, CLEAR_TABLE, 30, 1)
    FIELD(CONTROL, ENABLE, 31, 1)
REG32(PRESCALE, 0x10)
REG32(UNKNOWN_VLAN, 0x18)
    FIELD(UNKNOWN_VLAN, MEMBER_LIST, 0, 6)
    FIELD(UNKNOWN_VLAN, UNREG_MCAST_FLOOD, 8, 6)
    FIELD(UNKNOWN_VLAN, REG_MCAST_FLOOD, 16, 6)
    FIELD(UNKNOWN_VLAN, FORCE_UNTAG_EGRESS, 24, 6)
REG32(TBLCTL, 0x20)
    FIELD(TBLCTL, ENTRY_POINTER, 0, 10)
    FIELD(TBLCTL, WRITE_RDZ, 31, 1)
REG32(TBLW2, 0x34)
REG32(TBLW0, 0x3c)
REG32(PORTCTL0, 0x40)
    FIELD(PORTCTL, PORT_STATE, 0, 2)
    FIELD(PORTCTL, DROP_UNTAGGED, 2, 1)
    FIELD(PORTCTL, DROP_UNKNOWN_VLAN, 3, 1)
    FIELD(PORTCTL, NO_LEARN, 4, 1)
    FIELD(PORTCTL, NO_SA_UPDATE, 5, 1)
REG32(PORTCTL5, 0x54)

/* "initialized cpsw ale version 1.4" on a BeagleBone Black */
#define AM335X_ALE_IDVER        0x00290104
#define PORT_STATE_DISABLED     0
#define PORT_STATE_BLOCKED      1
#define PORT_STATE_LEARN        2
#define PORT_STATE_FORWARD      3
#define PORTS_MASK              ((1u << AM335X_ALE_NUM_PORTS) - 1)

/* Table entry fields (bit positions in the 68-bit entry) */
#define ENTRY_TYPE_FREE         0
#define ENTRY_TYPE_ADDR         1
#define ENTRY_TYPE_VLAN         2
#define ENTRY_TYPE_VLAN_ADDR    3

/* UNICAST_TYPE of an address entry */
#define UCAST_PERSISTENT        0
#define UCAST_UNTOUCHED         1
#define UCAST_OUI               2
#define UCAST_TOUCHED           3

/* MCAST_FWD_STATE: the receive port states that forward the entry's frames */
#define MCAST_FWD               0
#define MCAST_BLOCK_LEARN_FWD   1
#define MCAST_LEARN_FWD         2
#define MCAST_FWD_2             3

static uint32_t ale_get(const uint32_t *e, unsigned start, unsigned bits)
{
    uint32_t v = 0;

    if (start % 32 + bits <= 32) {
        return extract32(e[2 - start / 32], start % 32, bits);
    }

    for (unsigned i = 0; i < bits; i++) {
        unsigned b = start + i;
        v |= ((e[2 - b / 32] >> (b % 32)) & 1) << i;
    }
    return v;
}

static void ale_set(uint32_t *e, unsigned start, unsigned bits, uint32_t v)
{
    for (unsigned i = 0; i < bits; i++) {
        unsigned b = start + i;
        e[2 - b / 32] &= ~(1u << (b % 32));
        e[2 - b / 32] |= ((v >> i) & 1) << (b % 32);
    }
}

#define E_TYPE(e)           ale_get(e, 60, 2)
#define E_VID(e)            ale_get(e, 48, 12)
#define E_PORT_MASK(e)      ale_get(e, 66, AM335X_ALE_NUM_PORTS)
#define E_PORT_NUM(e)       ale_get(e, 66, 2)
#define E_BLOCKED(e)        ale_get(e, 65, 1)
#define E_SECURE(e)         ale_get(e, 64, 1)
#define E_SUPER(e)          ale_get(e, 65, 1)
#define E_MCAST(e)          ale_get(e, 40, 1)
#define E_UCAST_TYPE(e)     ale_get(e, 62, 2)
#define E_MCAST_STATE(e)    ale_get(e, 62, 2)
#define E_VLAN_MEMBERS(e)   ale_get(e, 0, AM335X_ALE_NUM_PORTS)
#define E_VLAN_UNREG(e)     ale_get(e, 8, AM335X_ALE_NUM_PORTS)
#define E_VLAN_REG(e)       ale_get(e, 16, AM335X_ALE_NUM_PORTS)
#define E_VLAN_UNTAG(e)     ale_get(e, 24, AM335X_ALE_NUM_PORTS)

static void ale_get_addr(const uint32_t *e, uint8_t addr[6])
{
    for (int i = 0; i < 6; i++) {
        addr[i] = ale_get(e, 40 - 8 * i, 8);
    }
}

/*
 * The hardware searches the whole table; entries past the last one in use
 * are free, so the model's searches stop there.  Called after any change
 * that may free or fill an entry at index @idx.
 */
static void ale_update_used(AM335xCpswAleState *s, int idx)
{
    if (E_TYPE(s->table[idx]) != ENTRY_TYPE_FREE) {
        s->used = MAX(s->used, idx + 1);
        return;
    }
    while (s->used > 0 && E_TYPE(s->table[s->used - 1]) == ENTRY_TYPE_FREE) {
        s->used--;
    }
}

static void ale_recount_used(AM335xCpswAleState *s)
{
    s->used = AM335X_ALE_ENTRIES;
    ale_update_used(s, AM335X_ALE_ENTRIES - 1);
}

static bool ale_vlan_aware(AM335xCpswAleState *s)
{
    return FIELD_EX32(s->control, CONTROL, VLAN_AWARE);
}

/* The entry for an address in a VLAN, or -1 */
static int ale_find_addr(AM335xCpswAleState *s, const uint8_t *mac,
                         unsigned vid)
{
    for (int i = 0; i < s->used; i++) {
        const uint32_t *e = s->table[i];
        unsigned type = E_TYPE(e);
        uint8_t addr[6];

        if (type != ENTRY_TYPE_ADDR && type != ENTRY_TYPE_VLAN_ADDR) {
            continue;
        }
        /* OUI entries match only with OUI deny, which is not modelled */
        if (!E_MCAST(e) && E_UCAST_TYPE(e) == UCAST_OUI) {
            continue;
        }
        if (type == ENTRY_TYPE_VLAN_ADDR && ale_vlan_aware(s) &&
            E_VID(e) != vid) {
            continue;
        }
        ale_get_addr(e, addr);
        if (!memcmp(addr, mac, 6)) {
            return i;
        }
    }
    return -1;
}

static int ale_find_vlan(AM335xCpswAleState *s, unsigned vid)
{
    for (int i = 0; i < s->used; i++) {
        if (E_TYPE(s->table[i]) == ENTRY_TYPE_VLAN &&
            E_VID(s->table[i]) == vid) {
            return i;
        }
    }
    return -1;
}

bool am335x_cpsw_ale_port_forwarding(AM335xCpswAleState *s, int port)
{
    return FIELD_EX32(s->portctl[port], PORTCTL, PORT_STATE) ==
           PORT_STATE_FORWARD;
}

/*
 * Learns (or moves) a source address seen on @port; @i is its entry or
 * -1.  Seeing an address touches it, which keeps it from ageing out.  A
 * known address moves to the port it was seen on unless it is secure or
 * the port has NO_SA_UPDATE, static entries included (which is why Linux
 * sets NO_SA_UPDATE on the slave ports in switch mode).
 */
static void ale_learn(AM335xCpswAleState *s, int port, const uint8_t *mac,
                      unsigned vid, int i)
{
    uint32_t *e;

    if (i >= 0) {
        e = s->table[i];
        if (E_MCAST(e) || E_SECURE(e)) {
            return;
        }
        if (E_UCAST_TYPE(e) == UCAST_UNTOUCHED) {
            ale_set(e, 62, 2, UCAST_TOUCHED);
        }
        if (E_PORT_NUM(e) != (unsigned)port &&
            !FIELD_EX32(s->portctl[port], PORTCTL, NO_SA_UPDATE)) {
            ale_set(e, 66, 2, port);
        }
        return;
    }
    for (i = 0; i < AM335X_ALE_ENTRIES; i++) {
        if (E_TYPE(s->table[i]) == ENTRY_TYPE_FREE) {
            break;
        }
    }
    if (i == AM335X_ALE_ENTRIES) {
        return;     /* table full: the address is not learned */
    }
    e = s->table[i];
    memset(e, 0, sizeof(s->table[i]));
    for (int n = 0; n < 6; n++) {
        ale_set(e, 40 - 8 * n, 8, mac[n]);
    }
    if (ale_vlan_aware(s)) {
        ale_set(e, 60, 2, ENTRY_TYPE_VLAN_ADDR);
        ale_set(e, 48, 12, vid);
    } else {
        ale_set(e, 60, 2, ENTRY_TYPE_ADDR);
    }
    ale_set(e, 62, 2, UCAST_TOUCHED);
    ale_set(e, 66, 2, port);
    ale_update_used(s, i);
    trace_am335x_ale_learn(i, port, vid);
}

/* AGE_OUT_NOW: free what was not touched since the last time, untouch. */
static void ale_age_out(AM335xCpswAleState *s)
{
    for (int i = 0; i < s->used; i++) {
        uint32_t *e = s->table[i];
        unsigned type = E_TYPE(e);

        if ((type != ENTRY_TYPE_ADDR && type != ENTRY_TYPE_VLAN_ADDR) ||
            E_MCAST(e)) {
            continue;
        }
        if (E_UCAST_TYPE(e) == UCAST_UNTOUCHED) {
            memset(e, 0, sizeof(s->table[i]));
            trace_am335x_ale_age_out(i);
        } else if (E_UCAST_TYPE(e) == UCAST_TOUCHED) {
            ale_set(e, 62, 2, UCAST_UNTOUCHED);
        }
    }
    ale_recount_used(s);
}

static unsigned ale_port_state(AM335xCpswAleState *s, int port)
{
    return FIELD_EX32(s->portctl[port], PORTCTL, PORT_STATE);
}

/* Whether a multicast entry's forward state admits a receive port state */
static bool ale_mcast_state_ok(unsigned fwd_state, unsigned port_state)
{
    switch (port_state) {
    case PORT_STATE_FORWARD:
        return true;
    case PORT_STATE_LEARN:
        return fwd_state == MCAST_BLOCK_LEARN_FWD ||
               fwd_state == MCAST_LEARN_FWD;
    case PORT_STATE_BLOCKED:
        return fwd_state == MCAST_BLOCK_LEARN_FWD;
    default:
        return false;
    }
}

uint32_t am335x_cpsw_ale_forward(AM335xCpswAleState *s, int src_port,
                                 const uint8_t *frame, size_t len,
                                 unsigned vid, bool tagged, uint32_t *untag)
{
    uint32_t members = PORTS_MASK, unreg = PORTS_MASK, reg = PORTS_MASK;
    const uint8_t *dst = frame, *src = frame + 6;
    unsigned state;
    uint32_t mask;
    bool known_vlan = true;
    int i, si;

    *untag = 0;
    if (len < 14 || src_port < 0 || src_port >= AM335X_ALE_NUM_PORTS ||
        !FIELD_EX32(s->control, CONTROL, ENABLE)) {
        return 0;
    }
    state = ale_port_state(s, src_port);
    if (state == PORT_STATE_DISABLED) {
        return 0;
    }
    if (FIELD_EX32(s->control, CONTROL, BYPASS)) {
        return src_port ? 1 : PORTS_MASK & ~1u;
    }
    if (ale_vlan_aware(s)) {
        i = ale_find_vlan(s, vid);
        if (i >= 0) {
            members = E_VLAN_MEMBERS(s->table[i]);
            unreg = E_VLAN_UNREG(s->table[i]);
            reg = E_VLAN_REG(s->table[i]);
            *untag = E_VLAN_UNTAG(s->table[i]);
        } else {
            known_vlan = false;
            members = FIELD_EX32(s->unknown_vlan, UNKNOWN_VLAN, MEMBER_LIST);
            unreg = FIELD_EX32(s->unknown_vlan, UNKNOWN_VLAN,
                               UNREG_MCAST_FLOOD);
            reg = FIELD_EX32(s->unknown_vlan, UNKNOWN_VLAN,
                             REG_MCAST_FLOOD);
            *untag = FIELD_EX32(s->unknown_vlan, UNKNOWN_VLAN,
                                FORCE_UNTAG_EGRESS);
        }
        /* Ingress filtering */
        if ((!tagged && FIELD_EX32(s->portctl[src_port], PORTCTL,
                                   DROP_UNTAGGED)) ||
            (!known_vlan && FIELD_EX32(s->portctl[src_port], PORTCTL,
                                       DROP_UNKNOWN_VLAN)) ||
            !(members & (1u << src_port))) {
            trace_am335x_ale_drop(src_port, vid, "vlan");
            return 0;
        }
    }
    si = ale_find_addr(s, src, vid);
    if (si >= 0 && !E_MCAST(s->table[si]) &&
        ((E_SECURE(s->table[si]) &&
          E_PORT_NUM(s->table[si]) != (unsigned)src_port) ||
         E_BLOCKED(s->table[si]))) {
        trace_am335x_ale_drop(src_port, vid, "source");
        return 0;
    }
    if (state >= PORT_STATE_LEARN && !(src[0] & 1) &&
        !FIELD_EX32(s->portctl[src_port], PORTCTL, NO_LEARN)) {
        ale_learn(s, src_port, src, vid, si);
    }

    i = ale_find_addr(s, dst, vid);
    if (dst[0] & 1) {
        if (i >= 0) {
            const uint32_t *e = s->table[i];

            if (state != PORT_STATE_FORWARD && !E_SUPER(e)) {
                mask = 0;
            } else if (!ale_mcast_state_ok(E_MCAST_STATE(e), state)) {
                mask = 0;
            } else {
                mask = E_PORT_MASK(e) & reg;
            }
        } else {
            mask = state == PORT_STATE_FORWARD ? unreg : 0;
        }
    } else if (state != PORT_STATE_FORWARD) {
        mask = 0;
    } else if (i >= 0) {
        mask = E_BLOCKED(s->table[i]) ? 0 : 1u << E_PORT_NUM(s->table[i]);
    } else {
        /* Unknown unicast floods the VLAN, the host only if it asked to. */
        mask = members;
        if (!FIELD_EX32(s->control, CONTROL, P0_UNI_FLOOD)) {
            mask &= ~1u;
        }
    }
    mask &= members & PORTS_MASK & ~(1u << src_port);
    for (int p = 0; p < AM335X_ALE_NUM_PORTS; p++) {
        if (!am335x_cpsw_ale_port_forwarding(s, p)) {
            mask &= ~(1u << p);
        }
    }
    trace_am335x_ale_forward(src_port, vid, i, mask);
    return mask;
}

static uint64_t am335x_cpsw_ale_read(void *opaque, hwaddr offset,
                                     unsigned size)
{
    AM335xCpswAleState *s = opaque;
    uint32_t val = 0;

    switch (offset) {
    case A_IDVER:
        val = AM335X_ALE_IDVER;
        break;
    case A_STATUS:
        break;
    case A_CONTROL:
        val = s->control;
        break;
    case A_PRESCALE:
        val = s->prescale;
        break;
    case A_UNKNOWN_VLAN:
        val = s->unknown_vlan;
        break;
    case A_TBLCTL:
        val = s->tblctl;
        break;
    case A_TBLW2 ... A_TBLW0:
        val = s->tblw[(offset - A_TBLW2) / 4];
        break;
    case A_PORTCTL0 ... A_PORTCTL5:
        val = s->portctl[(offset - A_PORTCTL0) / 4];
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-cpsw-ale: bad read offset 0x%"
                      HWADDR_PRIx "\n", offset);
        break;
    }
    return val;
}

static void am335x_cpsw_ale_write(void *opaque, hwaddr offset,
                                  uint64_t value, unsigned size)
{
    AM335xCpswAleState *s = opaque;
    uint32_t v = value;
    unsigned idx;

    switch (offset) {
    case A_CONTROL:
        if (v & R_CONTROL_CLEAR_TABLE_MASK) {
            memset(s->table, 0, sizeof(s->table));
            s->used = 0;
        }
        if (v & R_CONTROL_AGE_OUT_NOW_MASK) {
            ale_age_out(s);
        }
        /* CLEAR_TABLE and AGE_OUT_NOW complete at once. */
        s->control = v & ~(R_CONTROL_CLEAR_TABLE_MASK |
                           R_CONTROL_AGE_OUT_NOW_MASK);
        break;
    case A_PRESCALE:
        s->prescale = v & 0xfffff;
        break;
    case A_UNKNOWN_VLAN:
        s->unknown_vlan = v & 0x3f3f3f3f;
        break;
    case A_TBLCTL:
        idx = FIELD_EX32(v, TBLCTL, ENTRY_POINTER);
        s->tblctl = idx;
        if (v & R_TBLCTL_WRITE_RDZ_MASK) {
            memcpy(s->table[idx], s->tblw, sizeof(s->tblw));
            s->table[idx][0] &= 0xff;    /* an entry has 68 bits */
            ale_update_used(s, idx);
        } else {
            memcpy(s->tblw, s->table[idx], sizeof(s->tblw));
        }
        trace_am335x_ale_table(idx, !!(v & R_TBLCTL_WRITE_RDZ_MASK),
                               s->tblw[0], s->tblw[1], s->tblw[2]);
        break;
    case A_TBLW2 ... A_TBLW0:
        s->tblw[(offset - A_TBLW2) / 4] = v;
        break;
    case A_PORTCTL0 ... A_PORTCTL5:
        s->portctl[(offset - A_PORTCTL0) / 4] = v & 0xffff3bff;
        break;
    case A_IDVER:
    case A_STATUS:
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "am335x-cpsw-ale: bad write offset 0x%"
                      HWADDR_PRIx "\n", offset);
        break;
    }
}

static const MemoryRegionOps am335x_cpsw_ale_ops = {
    .read = am335x_cpsw_ale_read,
    .write = am335x_cpsw_ale_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

static void am335x_cpsw_ale_reset_hold(Object *obj, ResetType type)
{
    AM335xCpswAleState *s = AM335X_CPSW_ALE(obj);

    s->control = 0;
    s->prescale = 0;
    s->unknown_vlan = 0;
    s->tblctl = 0;
    memset(s->tblw, 0, sizeof(s->tblw));
    memset(s->portctl, 0, sizeof(s->portctl));
    memset(s->table, 0, sizeof(s->table));
    s->used = 0;
}

static int am335x_cpsw_ale_post_load(void *opaque, int version_id)
{
    ale_recount_used(opaque);
    return 0;
}

static void am335x_cpsw_ale_init(Object *obj)
{
    AM335xCpswAleState *s = AM335X_CPSW_ALE(obj);

    memory_region_init_io(&s->iomem, obj, &am335x_cpsw_ale_ops, s,
                          TYPE_AM335X_CPSW_ALE, AM335X_ALE_MMIO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(obj), &s->iomem);
}

static const VMStateDescription vmstate_am335x_cpsw_ale = {
    .name = TYPE_AM335X_CPSW_ALE,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = am335x_cpsw_ale_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(control, AM335xCpswAleState),
        VMSTATE_UINT32(prescale, AM335xCpswAleState),
        VMSTATE_UINT32(unknown_vlan, AM335xCpswAleState),
        VMSTATE_UINT32(tblctl, AM335xCpswAleState),
        VMSTATE_UINT32_ARRAY(tblw, AM335xCpswAleState, 3),
        VMSTATE_UINT32_ARRAY(portctl, AM335xCpswAleState, 6),
        VMSTATE_UINT32_2DARRAY(table, AM335xCpswAleState,
                               AM335X_ALE_ENTRIES, 3),
        VMSTATE_END_OF_LIST()
    }
};

static void am335x_cpsw_ale_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->vmsd = &vmstate_am335x_cpsw_ale;
    dc->desc = "TI AM335x CPSW address lookup engine";
    dc->user_creatable = false;
    rc->phases.hold = am335x_cpsw_ale_reset_hold;
}

static const TypeInfo am335x_cpsw_ale_info = {
    .name = TYPE_AM335X_CPSW_ALE,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AM335xCpswAleState),
    .instance_init = am335x_cpsw_ale_init,
    .class_init = am335x_cpsw_ale_class_init,
};

static void am335x_cpsw_ale_register_types(void)
{
    type_register_static(&am335x_cpsw_ale_info);
}

type_init(am335x_cpsw_ale_register_types)
