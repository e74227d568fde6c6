/*
 * TI AM335x 3-port Ethernet switch subsystem (CPSW)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_NET_AM335X_CPSW_H
#define HW_NET_AM335X_CPSW_H

#include "hw/sysbus.h"
#include "net/net.h"
#include "qemu/timer.h"
#include "hw/net/am335x_cpdma.h"
#include "hw/misc/am335x_timing.h"
#include "hw/net/am335x_cpsw_ale.h"
#include "hw/net/am335x_mdio.h"
#include "hw/net/am335x_ethphy.h"
#include "qom/object.h"

#define TYPE_AM335X_CPSW "am335x-cpsw"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xCpswState, AM335X_CPSW)

#define AM335X_CPSW_MMIO_SIZE   0x8000  /* the target module's window */
#define AM335X_CPSW_NUM_SLAVES  2
#define AM335X_CPSW_STATS_WORDS 36

/* Output IRQs in sysbus order: C0_RX_THRESH_PEND, C0_RX_PEND, ... */
enum {
    AM335X_CPSW_IRQ_RX_THRESH,
    AM335X_CPSW_IRQ_RX,
    AM335X_CPSW_IRQ_TX,
    AM335X_CPSW_IRQ_MISC,
    AM335X_CPSW_NUM_IRQS,
};

typedef struct AM335xCpswState AM335xCpswState;

/* Port 0's transmit FIFO: at most 31 blocks of 1 KB (P0_MAX_BLKS) */
#define AM335X_CPSW_FIFO_BLOCK      1024
#define AM335X_CPSW_FIFO_MAX_BLKS   31
#define AM335X_CPSW_HOST_FIFO_BUF \
    (AM335X_CPSW_FIFO_MAX_BLKS * AM335X_CPSW_FIFO_BLOCK + \
     AM335X_CPDMA_MAX_FRAME + 1 + 3 * 1024)

typedef struct AM335xCpswPort {
    AM335xCpswState *cpsw;
    int num;                /* 1 or 2 */
    NICState *nic;
    NICConf conf;
    uint32_t sl[16];        /* CPGMAC_SL registers */

    /* Timing (the machine's timing=on): the two directions of the wire */
    AM335xTimingResource tx_wire;
    AM335xTimingResource rx_wire;
    /* The frame coming in on the wire, delivered at rx_timer */
    QEMUTimer *rx_timer;
    bool rx_pending;
    int64_t rx_done_ns;
    uint32_t rx_len;
    uint8_t rx_buf[AM335X_CPDMA_MAX_FRAME + 1];
} AM335xCpswPort;

struct AM335xCpswState {
    SysBusDevice parent_obj;

    MemoryRegion container;
    MemoryRegion iomem;
    MemoryRegion cppi_ram;
    qemu_irq irq[AM335X_CPSW_NUM_IRQS];
    QEMUBH *flush_bh;
    bool rx_held;               /* a port said it could not receive */
    /*
     * Timing: frames for the host that came in while it had no RX buffer,
     * waiting in port 0's transmit FIFO (each: length, 2 bytes LE, ingress
     * port, 1 byte, then the frame), and their bytes.
     */
    uint8_t host_fifo[AM335X_CPSW_HOST_FIFO_BUF];
    uint32_t host_fifo_len;
    uint32_t host_fifo_bytes;
    QEMUTimer *fifo_timer;      /* drains it when RX buffers come */
    int rx_depth;               /* inside a port's receive */

    AM335xCpdmaState cpdma;
    AM335xCpswAleState ale;
    AM335xMdioState mdio;
    AM335xEthPhyState phy[AM335X_CPSW_NUM_SLAVES];
    AM335xCpswPort port[AM335X_CPSW_NUM_SLAVES];

    uint32_t ss[16];            /* CPSW_SS */
    uint32_t portregs[0x300 / 4]; /* CPSW_PORT, 0x100-0x3ff */
    uint32_t stats[AM335X_CPSW_STATS_WORDS];
    uint32_t wr[0x90 / 4];      /* CPSW_WR */
    bool mdio_irq[2];

    /* Interrupt pacing of C0_RX_PEND and C0_TX_PEND (0: RX, 1: TX) */
    QEMUTimer *pace_timer;
    int64_t pace_window_ns[2];  /* start of the pacer's current 1 ms */
    uint32_t pace_counter[2];   /* pulses blocked at the start of each 1 ms */
    uint32_t pace_events[2];    /* interrupt events in this 1 ms */
    bool pace_input[2];         /* the pending status, for its rises */
    bool pace_level[2];         /* what the paced lines drive */

    /* CPTS */
    uint32_t cpts_control;
    uint32_t cpts_load_val;
    uint32_t cpts_int_raw;
    uint32_t cpts_int_enable;
    uint32_t cpts_event[2];     /* one-deep event FIFO: low, high */
    int64_t cpts_ref_ns;        /* virtual time of counter value 0 */

    /* Properties */
    MACAddr mac_base;
    uint32_t phy_id;
    uint32_t cpts_hz;
    uint32_t main_hz;
    MemoryRegion *dma_mr;
    bool timing;
    uint32_t preamble_bytes;
    uint32_t rx_ifg_bytes;
};

#endif
