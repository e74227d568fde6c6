/*
 * TI AM335x USB controller: a Mentor MUSBMHDRC core behind TI's wrapper
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_USB_AM335X_MUSB_H
#define HW_USB_AM335X_MUSB_H

#include "hw/sysbus.h"
#include "hw/usb.h"
#include "hw/usb/usb_gadget_host.h"
#include "net/net.h"
#include "hw/misc/am335x_timing.h"
#include "qemu/timer.h"
#include "qom/object.h"

#define TYPE_AM335X_MUSB "am335x-musb"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xMusbState, AM335X_MUSB)

/* The wrapper (0x000), the PHY (0x300) and the core (0x400) of one USBn */
#define AM335X_MUSB_MMIO_SIZE       0x800
/* 16 endpoints: EP0 (control) and 15 TX/RX pairs (num-eps in the DT) */
#define AM335X_MUSB_NUM_EPS         16
/* The largest FIFO a 16 KiB FIFO RAM (ram-bits 12) gives one endpoint */
#define AM335X_MUSB_FIFO_MAX        4096

typedef struct AM335xCppi41State AM335xCppi41State;

/* One direction of an endpoint: its FIFO and the packet on the bus */
typedef struct AM335xMusbPipe {
    uint8_t fifo[AM335X_MUSB_FIFO_MAX];
    /* TX: bytes loaded; RX: bytes received and the read position */
    uint32_t len;
    uint32_t pos;
    /* TX with bulk split: bytes of the load already sent */
    uint32_t sent;
    bool toggle;
    /*
     * The transaction the CSR asked for: waiting to (re)try at
     * @retry_ns after a NAK (0: not waiting), since @nak_start_ns.
     */
    bool pending;
    int64_t retry_ns;
    int64_t nak_start_ns;
    /* The packet QEMU's USB device is completing asynchronously */
    USBPacket packet;
    bool async;
    /* With timing: the transaction's result, due when the bus is done */
    int64_t done_ns;
    int32_t done_status;
    uint32_t done_len;
} AM335xMusbPipe;

typedef struct AM335xMusbEndpoint {
    uint16_t txmaxp;
    uint16_t txcsr;         /* CSR0 for EP0 */
    uint16_t rxmaxp;
    uint16_t rxcsr;
    uint8_t txtype;         /* TYPE0 for EP0 */
    uint8_t txinterval;     /* NAKLIMIT0 for EP0 */
    uint8_t rxtype;
    uint8_t rxinterval;
    uint8_t txfifosz;
    uint8_t rxfifosz;
    uint16_t txfifoadd;
    uint16_t rxfifoadd;
    uint8_t txfuncaddr;
    uint8_t txhubaddr;
    uint8_t txhubport;
    uint8_t rxfuncaddr;
    uint8_t rxhubaddr;
    uint8_t rxhubport;
    AM335xMusbPipe tx;      /* OUT and SETUP (EP0: both directions' CSR) */
    AM335xMusbPipe rx;      /* IN */
} AM335xMusbEndpoint;

struct AM335xMusbState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    qemu_irq irq;
    USBBus usb_bus;
    USBPort port;
    QEMUTimer retry_timer;

    /* Wrapper */
    uint32_t ctrl;
    uint32_t irq_raw[2];
    uint32_t irq_enable[2];
    uint32_t tx_mode;
    uint32_t rx_mode;
    uint32_t genrndis[15];
    uint32_t autoreq;
    uint32_t srpfixtime;
    uint32_t utmi;
    uint32_t mode;
    bool drvvbus;

    /* Core */
    uint8_t faddr;
    uint8_t power;
    uint16_t intrtxe;
    uint16_t intrrxe;
    uint8_t intrusbe;
    uint8_t index;
    uint8_t testmode;
    uint8_t devctl;
    uint8_t misc;
    uint8_t ulpi[8];
    /* A device is connected as far as the core (and its driver) knows */
    bool connected;
    AM335xMusbEndpoint ep[AM335X_MUSB_NUM_EPS];

    /* With timing: the bus, busy while a transaction is on the wire */
    AM335xTimingResource bus;

    /* The B-device's side: a PC on the port, with a netdev behind it */
    NICConf host_conf;
    CharBackend host_serial;
    uint64_t host_storage_bytes;
    USBGadgetHost gadget_host;

    /* Properties */
    bool timing;
    uint32_t instance;          /* USB0 or USB1: its CPPI 4.1 channels */
    bool id_grounded;           /* the ID pin: an A plug (host) */
    AM335xCppi41State *dma;
};

/*
 * The CPPI 4.1 DMA's side of an endpoint (1-15), with DMAENAB set:
 * TX takes packets of *@packet_size bytes while the endpoint is free,
 * RX hands over the packet the endpoint received.
 */
bool am335x_musb_dma_tx_free(AM335xMusbState *s, int ep,
                             uint32_t *packet_size);
void am335x_musb_dma_tx_load(AM335xMusbState *s, int ep,
                             const uint8_t *data, uint32_t len);
bool am335x_musb_dma_rx_ready(AM335xMusbState *s, int ep, uint32_t *len);
void am335x_musb_dma_rx_take(AM335xMusbState *s, int ep, uint8_t *data,
                             uint32_t len);

#endif
