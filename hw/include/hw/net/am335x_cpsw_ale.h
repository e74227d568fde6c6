/*
 * TI AM335x CPSW address lookup engine (ALE)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_NET_AM335X_CPSW_ALE_H
#define HW_NET_AM335X_CPSW_ALE_H

#include "hw/sysbus.h"
#include "qom/object.h"

#define TYPE_AM335X_CPSW_ALE "am335x-cpsw-ale"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xCpswAleState, AM335X_CPSW_ALE)

#define AM335X_ALE_MMIO_SIZE    0x80
#define AM335X_ALE_ENTRIES      1024
#define AM335X_ALE_NUM_PORTS    3   /* host port 0, slave ports 1 and 2 */

struct AM335xCpswAleState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;

    uint32_t control;
    uint32_t prescale;
    uint32_t unknown_vlan;
    uint32_t tblctl;
    uint32_t tblw[3];
    uint32_t portctl[6];
    /* Each entry as the three TBLW words: [0] bits 95:64 .. [2] bits 31:0 */
    uint32_t table[AM335X_ALE_ENTRIES][3];
    /* Entries from this index on are free (derived, not migrated) */
    int used;
};

/*
 * The ports a frame that came in on @src_port goes out to (a mask of
 * ports 0-2, never @src_port), learning its source address on the way.
 * @vid is the VLAN the frame belongs to (its tag's or the port's);
 * @tagged, whether it came with a tag.  *@untag gets the ports that send
 * frames of that VLAN untagged.
 */
uint32_t am335x_cpsw_ale_forward(AM335xCpswAleState *s, int src_port,
                                 const uint8_t *frame, size_t len,
                                 unsigned vid, bool tagged, uint32_t *untag);
/* Whether a port is in the forwarding state. */
bool am335x_cpsw_ale_port_forwarding(AM335xCpswAleState *s, int port);

#endif
