/*
 * TI AM335x CPSW communications port programming interface DMA (CPDMA)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_NET_AM335X_CPDMA_H
#define HW_NET_AM335X_CPDMA_H

#include "hw/sysbus.h"
#include "hw/misc/am335x_timing.h"
#include "qemu/timer.h"
#include "qom/object.h"

#define TYPE_AM335X_CPDMA "am335x-cpdma"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xCpdmaState, AM335X_CPDMA)

#define AM335X_CPDMA_NUM_CH         8
#define AM335X_CPDMA_REGS_SIZE      0x100   /* at CPSW + 0x800 */
#define AM335X_CPDMA_STATERAM_SIZE  0x200   /* at CPSW + 0xa00 */
/* Largest frame a descriptor chain may carry (11-bit packet length) */
#define AM335X_CPDMA_MAX_FRAME      2047

typedef struct AM335xCpdmaChan {
    uint32_t hdp;
    uint32_t cp;            /* the last completion written by the DMA */
    uint32_t cp_ack;        /* what the host last wrote */
} AM335xCpdmaChan;

/* With timing: the TX packet on its way, completed when it has left */
typedef struct AM335xCpdmaTxPacket {
    int32_t ch;
    uint32_t sop;           /* its SOP descriptor */
    uint32_t eop;           /* its EOP descriptor */
    uint32_t sop_mode;      /* the SOP's flags word as fetched */
    uint32_t eop_mode;      /* the EOP's, when it is not the SOP */
} AM335xCpdmaTxPacket;

/*
 * The CPSW's side, set before realize: where transmitted frames go (@to_port
 * -1 unless the descriptor directs the frame to a port), a hook for when RX
 * buffers were queued, and one for when the interrupt status changed (the
 * CPSW wrapper reads it with the functions below).  With timing, transmit
 * gets the virtual time at which the frame's first words are in the port's
 * FIFO (@ready_ns) and returns the time at which it has left the last wire
 * it went out on (0 if none, or untimed).
 */
typedef struct AM335xCpdmaOps {
    int64_t (*transmit)(void *opaque, int to_port, const uint8_t *buf,
                        size_t len, int64_t ready_ns);
    void (*rx_ready)(void *opaque);
    void (*irq_update)(void *opaque);
    /* a completion interrupt of channel @ch that its mask lets through */
    void (*int_event)(void *opaque, bool tx, int ch);
} AM335xCpdmaOps;

struct AM335xCpdmaState {
    SysBusDevice parent_obj;

    MemoryRegion regs;
    MemoryRegion stateram;
    AddressSpace dma_as;

    uint32_t tx_control;
    uint32_t rx_control;
    uint32_t dma_control;
    uint32_t dma_status;
    uint32_t rx_buffer_offset;
    uint32_t em_control;
    uint32_t tx_pri_rate[AM335X_CPDMA_NUM_CH];
    uint32_t tx_int_raw;
    uint32_t tx_int_mask;
    uint32_t rx_int_raw;        /* 7:0 RX, 15:8 RX threshold */
    uint32_t rx_int_mask;
    uint32_t dma_int_raw;
    uint32_t dma_int_mask;
    uint32_t rx_thresh[AM335X_CPDMA_NUM_CH];
    uint32_t rx_free[AM335X_CPDMA_NUM_CH];
    AM335xCpdmaChan tx[AM335X_CPDMA_NUM_CH];
    AM335xCpdmaChan rx[AM335X_CPDMA_NUM_CH];
    uint32_t stateram_other[(AM335X_CPDMA_STATERAM_SIZE - 0x80) / 4];

    /* Timing (the machine's timing=on): the L3 master port, TX in flight */
    AM335xTimingResource port;
    QEMUTimer *tx_timer;
    bool tx_busy;
    AM335xCpdmaTxPacket tx_pkt;
    uint32_t tx_rr;         /* the channel served last */

    /* The CPSW's TX_START_WDS in bytes: what the MAC waits for in its FIFO */
    uint32_t tx_start_bytes;

    const AM335xCpdmaOps *ops;
    void *ops_opaque;
    uint8_t frame[AM335X_CPDMA_MAX_FRAME + 1];

    /* Properties */
    MemoryRegion *dma_mr;
    bool timing;
    uint64_t bandwidth;
    uint32_t read_latency_ns;
};

/* Masked interrupt status, per channel: RX (bits 7:0), TX, and MISC. */
uint32_t am335x_cpdma_rx_pending(AM335xCpdmaState *s);
uint32_t am335x_cpdma_rx_thresh_pending(AM335xCpdmaState *s);
uint32_t am335x_cpdma_tx_pending(AM335xCpdmaState *s);
bool am335x_cpdma_host_error_pending(AM335xCpdmaState *s);
/* Whether RX channel @ch has a buffer for a frame. */
bool am335x_cpdma_can_receive(AM335xCpdmaState *s, int ch);
/* SOP descriptor flag: the frame starts with a VLAN encapsulation word */
#define AM335X_CPDMA_RX_VLAN_ENCAP  (1u << 19)

/*
 * Writes a received frame into RX channel @ch's buffers, from slave port
 * @from_port, with @flags (AM335X_CPDMA_RX_*) in its SOP descriptor.
 * Returns false if it had to be dropped.
 */
bool am335x_cpdma_receive(AM335xCpdmaState *s, int ch, int from_port,
                          uint32_t flags, const uint8_t *buf, size_t len);
/*
 * With timing: books the L3 port for a received frame of @len bytes whose
 * first words reach the RX FIFO at @start; returns when its last are
 * written.
 */
int64_t am335x_cpdma_rx_book(AM335xCpdmaState *s, int64_t start, size_t len);

#endif
