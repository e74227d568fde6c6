/*
 * The PC on the far side of a USB device (gadget) port
 *
 * A USB host in QEMU for a guest that is the USB device: it gives the
 * port VBUS, resets the device when its pull-up connects it, enumerates
 * it over EP0 and binds the first CDC Ethernet (ECM) function it finds,
 * as a PC's cdc_ether driver would, and the first CDC ACM (serial)
 * function, as its cdc_acm driver would.  Ethernet frames then cross
 * between the ECM function's bulk endpoints and a QEMU netdev, bytes
 * between the ACM function's and a chardev.  Given a size to test, it
 * binds a mass storage (Bulk-Only) function as a PC's usb-storage would,
 * and writes then reads back that many bytes of its disk, timing both in
 * virtual time, as a PC's disk benchmark does.
 *
 * The controller of the port (the device side) answers the host's
 * tokens through USBGadgetPortOps and calls usb_gadget_host_kick() when
 * an endpoint it NAKed may have changed, so the host need not poll.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_USB_USB_GADGET_HOST_H
#define HW_USB_USB_GADGET_HOST_H

#include "chardev/char-fe.h"
#include "net/net.h"
#include "qemu/timer.h"

/* A control transfer's data stage: the largest descriptor set we read */
#define USB_GADGET_HOST_CTRL_MAX    1024
/* An Ethernet frame, with room for a padding byte and VLAN tags */
#define USB_GADGET_HOST_FRAME_MAX   1536
/* Bytes from the chardev waiting for the ACM function's OUT endpoint */
#define USB_GADGET_HOST_SERIAL_MAX  512

typedef struct USBGadgetPortOps {
    /* Bus reset; the device chirps and runs at high speed if it can */
    void (*bus_reset)(void *opaque);
    /*
     * The host's transactions with the device at @addr.  @in returns the
     * bytes received (0: a zero-length packet), @setup and @out 0 for an
     * ACK; otherwise USB_RET_NAK, USB_RET_STALL or USB_RET_NODEV (nobody
     * answered).
     */
    int (*setup)(void *opaque, uint8_t addr, const uint8_t *req);
    int (*in)(void *opaque, uint8_t addr, int ep, uint8_t *buf, int max);
    int (*out)(void *opaque, uint8_t addr, int ep, const uint8_t *buf,
               int len);
} USBGadgetPortOps;

/* A CDC function: its control and data interfaces and endpoints */
typedef struct USBGadgetHostFunction {
    bool bound;
    uint8_t ctrl_iface;
    uint8_t data_iface;
    uint8_t data_alt;
    uint8_t ep_in;
    uint8_t ep_out;
    uint8_t ep_notify;
    uint16_t maxp_in;
    uint16_t maxp_out;
    uint16_t maxp_notify;
} USBGadgetHostFunction;

/* The mass storage test: the command in flight, then the outcome */
typedef enum USBGadgetHostMscStep {
    MSC_IDLE,
    MSC_INQUIRY,
    MSC_TEST_UNIT_READY,
    MSC_REQUEST_SENSE,
    MSC_READ_CAPACITY,
    MSC_WRITE,
    MSC_READ,
    MSC_DONE,
    MSC_FAILED,
} USBGadgetHostMscStep;

/* Bulk-Only Transport: the stage of the command in flight */
typedef enum USBGadgetHostMscPhase {
    MSC_PHASE_CBW,
    MSC_PHASE_DATA_OUT,
    MSC_PHASE_DATA_IN,
    MSC_PHASE_CSW,
} USBGadgetHostMscPhase;

/* A command that timed out: the Bulk-Only reset recovery (BOT 5.3.4) */
typedef enum USBGadgetHostMscRecovery {
    MSC_RECOVERY_NONE,
    MSC_RECOVERY_RESET,         /* Bulk-Only Mass Storage Reset */
    MSC_RECOVERY_CLEAR_IN,      /* CLEAR_FEATURE(ENDPOINT_HALT), bulk IN */
    MSC_RECOVERY_CLEAR_OUT,     /* ... and bulk OUT */
} USBGadgetHostMscRecovery;

#define USB_GADGET_HOST_CBW_LEN     31
#define USB_GADGET_HOST_CSW_LEN     13
/* INQUIRY's standard data, the longest reply the test reads */
#define USB_GADGET_HOST_MSC_REPLY   36

typedef enum USBGadgetHostState {
    GADGET_HOST_DETACHED,
    GADGET_HOST_DEBOUNCE,       /* the device pulled D+ up */
    GADGET_HOST_RECOVERY,       /* after the reset */
    GADGET_HOST_ENUMERATING,
    GADGET_HOST_RUNNING,        /* the functions' data interfaces are on */
    GADGET_HOST_FAILED,         /* nothing to bind, or it did not answer */
} USBGadgetHostState;

typedef enum USBGadgetHostStage {
    GADGET_CTRL_IDLE,
    GADGET_CTRL_SETUP,
    GADGET_CTRL_DATA_IN,
    GADGET_CTRL_DATA_OUT,
    GADGET_CTRL_STATUS_IN,
    GADGET_CTRL_STATUS_OUT,
} USBGadgetHostStage;

typedef struct USBGadgetHost {
    NICState *nic;
    CharBackend *serial;        /* the owner's; NULL: no chardev */
    const USBGadgetPortOps *ops;
    void *opaque;
    QEMUTimer timer;
    bool timing;                /* packets take their wire time */
    uint64_t storage_bytes;     /* mass storage test size, 0: none */

    /* Migrated */
    uint32_t state;             /* USBGadgetHostState */
    bool connected;             /* the device's pull-up is on */
    uint8_t addr;               /* the device's address */
    uint8_t attempts;           /* enumerations tried since the connect */
    uint8_t step;               /* enumeration: the request in flight */
    uint8_t config_index;
    uint8_t config_count;
    uint8_t config_value;
    USBGadgetHostFunction ecm;
    USBGadgetHostFunction acm;
    int64_t wake_ns;            /* the next time-out or delay, 0: none */

    /* The control transfer in flight */
    uint32_t stage;             /* USBGadgetHostStage */
    uint8_t req[8];
    uint8_t ctrl_buf[USB_GADGET_HOST_CTRL_MAX];
    uint32_t ctrl_len;
    uint32_t ctrl_pos;
    int64_t ctrl_deadline_ns;

    /* A frame from the device, and one to it */
    uint8_t in_frame[USB_GADGET_HOST_FRAME_MAX];
    uint32_t in_len;
    bool in_overflow;
    uint8_t out_frame[USB_GADGET_HOST_FRAME_MAX];
    uint32_t out_len;
    uint32_t out_pos;
    bool out_zlp;
    uint8_t notify[16];
    /* Bytes from the chardev for the ACM function */
    uint8_t serial_out[USB_GADGET_HOST_SERIAL_MAX];
    uint32_t serial_len;

    /* The mass storage function and its test (a VMState subsection) */
    USBGadgetHostFunction msc;
    uint32_t msc_step;          /* USBGadgetHostMscStep */
    uint32_t msc_phase;         /* USBGadgetHostMscPhase */
    uint32_t msc_tag;
    uint32_t msc_tries;         /* TEST UNIT READYs that failed */
    uint8_t msc_cbw[USB_GADGET_HOST_CBW_LEN];
    uint32_t msc_data_len;      /* the command's data stage */
    uint32_t msc_data_pos;
    uint8_t msc_reply[USB_GADGET_HOST_MSC_REPLY];
    uint32_t msc_block_size;
    uint64_t msc_lba;           /* the next block to write or read */
    uint64_t msc_end_lba;
    int64_t msc_start_ns;
    int64_t msc_deadline_ns;    /* the command in flight times out */
    uint32_t msc_recovery;      /* USBGadgetHostMscRecovery */
    uint32_t msc_retries;       /* of the command in flight */
    /* The outcome, QOM properties of the port's owner */
    uint64_t msc_write_ns;
    uint64_t msc_read_ns;
    uint64_t msc_tested_bytes;
    uint64_t msc_bad_packets;   /* read back unlike what was written */
    uint64_t msc_resets;        /* commands that timed out */
} USBGadgetHost;

extern const VMStateDescription vmstate_usb_gadget_host;

/*
 * A host with a netdev (@conf's peer) and a chardev (@serial, if it has
 * one) behind it; with neither, the port has nothing plugged in and
 * usb_gadget_host_present() is false.
 */
void usb_gadget_host_init(USBGadgetHost *h, NICConf *conf,
                          CharBackend *serial, DeviceState *dev,
                          const USBGadgetPortOps *ops, void *opaque);
bool usb_gadget_host_present(USBGadgetHost *h);
/* The mass storage test: "idle", "running", "done" or "failed" */
const char *usb_gadget_host_storage_state(USBGadgetHost *h);
/* The device's pull-up: the host sees it connect or go */
void usb_gadget_host_set_connected(USBGadgetHost *h, bool connected);
/* The device changed an endpoint: the host tries its transactions again */
void usb_gadget_host_kick(USBGadgetHost *h);
void usb_gadget_host_reset(USBGadgetHost *h);

#endif
