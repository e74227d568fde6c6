/*
 * The PC on the far side of a USB device (gadget) port
 *
 * What a PC does when a board's USB device port is plugged into it: it
 * powers VBUS, waits for the device to pull D+ up, resets the bus and
 * enumerates the device on EP0 (GET_DESCRIPTOR, SET_ADDRESS,
 * SET_CONFIGURATION) and binds a CDC Ethernet (ECM) function as Linux's
 * cdc_ether would: SET_INTERFACE on the data interface's alternate
 * setting with the bulk endpoints, a packet filter, then bulk IN and OUT
 * for frames and the notification endpoint for the link state; the
 * frames go to and come from a QEMU netdev.  With a chardev, it binds a
 * CDC ACM (serial) function too, as cdc_acm does when its tty opens:
 * SET_LINE_CODING (115200 8N1), SET_CONTROL_LINE_STATE (DTR and RTS),
 * then bytes both ways on its bulk endpoints.  Given a test size
 * (storage_bytes), it binds a mass storage function (Bulk-Only Transport
 * 1.0, SCSI) as usb-storage and sd would: GET MAX LUN, usb-storage's
 * delay_use (1 s) before it uses the device, INQUIRY, TEST UNIT READY and
 * REQUEST SENSE until the device is ready, READ CAPACITY(10); then it
 * writes the disk's first storage_bytes with WRITE(10) commands of
 * 120 KiB, as Linux's usb-storage splits a large write, reads them back
 * with READ(10) and checks the pattern, timing each pass from its first
 * command block to its last status.  A command without its status after
 * 30 s (sd's timeout) is retried after the Bulk-Only reset recovery, as
 * usb-storage's error handling does, five times at most.  The
 * configuration it takes is the first with a function it has a backend
 * for.
 *
 * The device side answers each transaction at once (data, ACK, NAK,
 * STALL or no answer); a NAKed transaction waits for the device's kick.
 * Time-outs and the bus's delays are in virtual time: the connect
 * debounce (USB 2.0 7.1.7.3, 100 ms), the reset recovery (7.1.7.5,
 * 10 ms), the SET_ADDRESS recovery (9.2.6.3, 2 ms) and Linux's 5 s
 * control time-out; each control transfer starts in a new microframe.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/bswap.h"
#include "qemu/host-utils.h"
#include "hw/usb.h"
#include "chardev/char-fe.h"
#include "net/eth.h"
#include "hw/usb/usb_gadget_host.h"
#include "migration/vmstate.h"
#include "trace.h"

#define DEBOUNCE_NS         (100 * SCALE_MS)
#define RESET_RECOVERY_NS   (10 * SCALE_MS)
#define SET_ADDRESS_NS      (2 * SCALE_MS)
#define CTRL_TIMEOUT_NS     (5 * NANOSECONDS_PER_SECOND)
/* A host schedules a new control transfer in a later (micro)frame */
#define MICROFRAME_NS       125000
#define MAX_ATTEMPTS        3
#define DEVICE_ADDRESS      1
#define EP0_MAXP            64
/* Transactions per run without timing before the host yields */
#define RUN_BUDGET          256
#define USB_HS_BIT_RATE     480000000

/* CDC (USB CDC 1.2): ECM control interface, data interface, Union */
#define CDC_CLASS_COMM          0x02
#define CDC_SUBCLASS_ACM        0x02
#define CDC_SUBCLASS_ECM        0x06
#define CDC_CLASS_DATA          0x0a
#define CDC_UNION_TYPE          0x06
#define CDC_SET_PACKET_FILTER   0x43
#define CDC_SET_LINE_CODING     0x20
#define CDC_SET_CONTROL_LINE_STATE 0x22
#define CDC_LINE_DTR_RTS        0x0003
#define CDC_NOTIFY_NETWORK_CONNECTION   0x00
/* DIRECTED | BROADCAST | ALL_MULTICAST, as cdc_ether asks */
#define CDC_FILTER_DEFAULT      0x000e

/* Mass storage: SCSI transparent command set, Bulk-Only Transport */
#define MSC_CLASS               0x08
#define MSC_SUBCLASS_SCSI       0x06
#define MSC_PROTOCOL_BOT        0x50
#define MSC_CBW_SIGNATURE       0x43425355
#define MSC_CSW_SIGNATURE       0x53425355
#define MSC_CBW_DATA_IN         0x80
#define MSC_GET_MAX_LUN         0xfe
/*
 * usb-storage submits a command's CBW, data and CSW as three URBs, each
 * once the last completed; the PC learns of a completion from its EHCI's
 * interrupt, raised at the end of the microframe (EHCI 1.0, 2.3.1,
 * USBCMD's interrupt threshold: ehci-hcd's log2_irq_thresh 0, one
 * microframe), so each stage starts at a microframe boundary.
 */
static int64_t host_next_microframe(int64_t now)
{
    return (now / MICROFRAME_NS + 1) * MICROFRAME_NS;
}

/* usb-storage's delay_use: a new device is left alone for 1 s */
#define MSC_DELAY_USE_NS        NANOSECONDS_PER_SECOND
#define SCSI_TEST_UNIT_READY    0x00
#define SCSI_REQUEST_SENSE      0x03
#define SCSI_INQUIRY            0x12
#define SCSI_READ_CAPACITY_10   0x25
#define SCSI_READ_10            0x28
#define SCSI_WRITE_10           0x2a
#define SCSI_SENSE_LEN          18
#define SCSI_CAPACITY_LEN       8
/* Linux's usb-storage: at most 240 sectors (120 KiB) per command */
#define MSC_COMMAND_MAX         (120 * 1024)
/* A unit that stays not ready after this many TEST UNIT READYs fails */
#define MSC_READY_TRIES         20
/* sd's command time-out (SD_TIMEOUT) and the SCSI layer's retries */
#define MSC_COMMAND_TIMEOUT_NS  (30 * NANOSECONDS_PER_SECOND)
#define MSC_COMMAND_RETRIES     5
#define MSC_BULK_RESET          0xff

enum {
    STEP_DEVICE_64,
    STEP_SET_ADDRESS,
    STEP_DEVICE,
    STEP_CONFIG_HEAD,
    STEP_CONFIG,
    STEP_SET_CONFIG,
    STEP_SET_INTERFACE,
    STEP_SET_FILTER,
    STEP_SET_LINE_CODING,
    STEP_SET_LINE_STATE,
    STEP_GET_MAX_LUN,
    STEP_COUNT
};

/* 115200 baud, 1 stop bit, no parity, 8 data bits (CDC 1.2, 6.3.11) */
static const uint8_t line_coding_115200_8n1[7] = { 0x00, 0xc2, 0x01, 0x00,
                                                   0, 0, 8 };

static void host_arm(USBGadgetHost *h, int64_t when)
{
    if (!timer_pending(&h->timer) || timer_expire_time_ns(&h->timer) > when) {
        timer_mod(&h->timer, when);
    }
}

static int64_t host_now(void)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

/* A high-speed bulk transaction: data plus 55 bytes of protocol */
static int64_t host_wire_ns(uint32_t bytes)
{
    return muldiv64((bytes + 55) * 8ull, NANOSECONDS_PER_SECOND,
                    USB_HS_BIT_RATE);
}

static void host_request(USBGadgetHost *h, uint8_t type, uint8_t request,
                         uint16_t value, uint16_t index, uint16_t length)
{
    h->req[0] = type;
    h->req[1] = request;
    stw_le_p(&h->req[2], value);
    stw_le_p(&h->req[4], index);
    stw_le_p(&h->req[6], length);
    h->ctrl_len = MIN(length, USB_GADGET_HOST_CTRL_MAX);
    h->ctrl_pos = 0;
    h->stage = GADGET_CTRL_SETUP;
    h->ctrl_deadline_ns = host_now() + CTRL_TIMEOUT_NS;
    trace_usb_gadget_host_request(h->addr, type, request, value, index,
                                  length);
}

static void host_start_step(USBGadgetHost *h)
{
    switch (h->step) {
    case STEP_DEVICE_64:
        host_request(h, USB_DIR_IN, USB_REQ_GET_DESCRIPTOR,
                     USB_DT_DEVICE << 8, 0, 64);
        break;
    case STEP_SET_ADDRESS:
        host_request(h, USB_DIR_OUT, USB_REQ_SET_ADDRESS, DEVICE_ADDRESS,
                     0, 0);
        break;
    case STEP_DEVICE:
        host_request(h, USB_DIR_IN, USB_REQ_GET_DESCRIPTOR,
                     USB_DT_DEVICE << 8, 0, 18);
        break;
    case STEP_CONFIG_HEAD:
        host_request(h, USB_DIR_IN, USB_REQ_GET_DESCRIPTOR,
                     USB_DT_CONFIG << 8 | h->config_index, 0, 9);
        break;
    case STEP_CONFIG:
        host_request(h, USB_DIR_IN, USB_REQ_GET_DESCRIPTOR,
                     USB_DT_CONFIG << 8 | h->config_index, 0,
                     MIN(lduw_le_p(&h->ctrl_buf[2]),
                         USB_GADGET_HOST_CTRL_MAX));
        break;
    case STEP_SET_CONFIG:
        host_request(h, USB_DIR_OUT, USB_REQ_SET_CONFIGURATION,
                     h->config_value, 0, 0);
        break;
    case STEP_SET_INTERFACE:
        host_request(h, USB_DIR_OUT | USB_RECIP_INTERFACE,
                     USB_REQ_SET_INTERFACE, h->ecm.data_alt,
                     h->ecm.data_iface, 0);
        break;
    case STEP_SET_FILTER:
        host_request(h, USB_DIR_OUT | USB_TYPE_CLASS | USB_RECIP_INTERFACE,
                     CDC_SET_PACKET_FILTER, CDC_FILTER_DEFAULT,
                     h->ecm.ctrl_iface, 0);
        break;
    case STEP_SET_LINE_CODING:
        host_request(h, USB_DIR_OUT | USB_TYPE_CLASS | USB_RECIP_INTERFACE,
                     CDC_SET_LINE_CODING, 0, h->acm.ctrl_iface,
                     sizeof(line_coding_115200_8n1));
        memcpy(h->ctrl_buf, line_coding_115200_8n1,
               sizeof(line_coding_115200_8n1));
        break;
    case STEP_SET_LINE_STATE:
        host_request(h, USB_DIR_OUT | USB_TYPE_CLASS | USB_RECIP_INTERFACE,
                     CDC_SET_CONTROL_LINE_STATE, CDC_LINE_DTR_RTS,
                     h->acm.ctrl_iface, 0);
        break;
    case STEP_GET_MAX_LUN:
        host_request(h, USB_DIR_IN | USB_TYPE_CLASS | USB_RECIP_INTERFACE,
                     MSC_GET_MAX_LUN, 0, h->msc.data_iface, 1);
        break;
    }
}

/* Does this step of the enumeration concern a function that is bound? */
static bool host_step_applies(USBGadgetHost *h, int step)
{
    switch (step) {
    case STEP_SET_INTERFACE:
    case STEP_SET_FILTER:
        return h->ecm.bound;
    case STEP_SET_LINE_CODING:
    case STEP_SET_LINE_STATE:
        return h->acm.bound;
    case STEP_GET_MAX_LUN:
        return h->msc.bound;
    default:
        return true;
    }
}

/* An endpoint descriptor @d (7 bytes): a usable bulk one is @fn's */
static void host_take_bulk_endpoint(USBGadgetHostFunction *fn,
                                    const uint8_t *d)
{
    uint8_t ep = d[2] & 0xf;
    uint16_t maxp = lduw_le_p(&d[4]) & 0x7ff;

    if ((d[3] & 3) != USB_ENDPOINT_XFER_BULK || !ep || !maxp) {
        return;
    }
    if (d[2] & USB_DIR_IN) {
        fn->ep_in = ep;
        fn->maxp_in = maxp;
    } else {
        fn->ep_out = ep;
        fn->maxp_out = maxp;
    }
}

/*
 * Finds the first CDC function of @subclass (ECM or ACM) in the
 * configuration descriptor set in ctrl_buf: its control interface, the
 * data interface its Union names, and that interface's alternate setting
 * with a bulk IN and a bulk OUT endpoint.  Every length is the guest's,
 * so each descriptor is checked against the bytes received.
 */
static bool host_find_function(USBGadgetHost *h, uint8_t subclass,
                               USBGadgetHostFunction *fn)
{
    const uint8_t *d = h->ctrl_buf;
    uint32_t len = h->ctrl_pos;
    int comm = -1, data = -1;
    int iface = -1, alt = 0, class = 0, sub = 0;

    memset(fn, 0, sizeof(*fn));
    /* The control interface, its Union and its notification endpoint */
    for (uint32_t pos = 0; pos + 2 <= len; pos += d[pos]) {
        uint8_t blen = d[pos], type = d[pos + 1];

        if (blen < 2 || pos + blen > len) {
            qemu_log_mask(LOG_GUEST_ERROR, "usb-gadget-host: bad descriptor "
                          "length %u at offset %u\n", blen, pos);
            return false;
        }
        if (type == USB_DT_INTERFACE && blen >= 9) {
            iface = d[pos + 2];
            class = d[pos + 5];
            sub = d[pos + 6];
            if (comm < 0 && class == CDC_CLASS_COMM && sub == subclass) {
                comm = iface;
            }
        } else if (type == USB_DT_CS_INTERFACE && blen >= 5 &&
                   d[pos + 2] == CDC_UNION_TYPE && iface >= 0 &&
                   iface == comm && d[pos + 3] == comm && data < 0) {
            data = d[pos + 4];
        } else if (type == USB_DT_ENDPOINT && blen >= 7 && iface >= 0 &&
                   iface == comm && !fn->ep_notify &&
                   (d[pos + 3] & 3) == USB_ENDPOINT_XFER_INT &&
                   (d[pos + 2] & USB_DIR_IN) && (d[pos + 2] & 0xf)) {
            fn->ep_notify = d[pos + 2] & 0xf;
            fn->maxp_notify = MIN(lduw_le_p(&d[pos + 4]) & 0x7ff,
                                  sizeof(h->notify));
        }
    }
    if (data < 0) {
        return false;
    }
    /* The data interface's setting with both endpoints (lengths checked) */
    iface = -1;
    for (uint32_t pos = 0; pos + 2 <= len; pos += d[pos]) {
        uint8_t type = d[pos + 1];

        if (type == USB_DT_INTERFACE && d[pos] >= 9) {
            if (iface == data && fn->ep_in && fn->ep_out) {
                break;
            }
            iface = d[pos + 2];
            alt = d[pos + 3];
            class = d[pos + 5];
            fn->ep_in = fn->ep_out = 0;
        } else if (type == USB_DT_ENDPOINT && d[pos] >= 7 && iface == data &&
                   class == CDC_CLASS_DATA) {
            host_take_bulk_endpoint(fn, d + pos);
        }
    }
    if (iface != data || !fn->ep_in || !fn->ep_out) {
        return false;
    }
    fn->ctrl_iface = comm;
    fn->data_iface = data;
    fn->data_alt = alt;
    return true;
}

/*
 * Finds the first mass storage interface (SCSI, Bulk-Only) with a bulk IN
 * and a bulk OUT endpoint in the configuration descriptor set in
 * ctrl_buf.  Every length is the guest's: the walk ends at a descriptor
 * that does not fit in the bytes received.
 */
static bool host_find_msc(USBGadgetHost *h, USBGadgetHostFunction *fn)
{
    const uint8_t *d = h->ctrl_buf;
    uint32_t len = h->ctrl_pos;
    bool in_msc = false;

    memset(fn, 0, sizeof(*fn));
    for (uint32_t pos = 0; pos + 2 <= len && d[pos] >= 2 &&
         pos + d[pos] <= len; pos += d[pos]) {
        uint8_t type = d[pos + 1];

        if (type == USB_DT_INTERFACE && d[pos] >= 9) {
            if (in_msc && fn->ep_in && fn->ep_out) {
                break;
            }
            in_msc = d[pos + 5] == MSC_CLASS &&
                     d[pos + 6] == MSC_SUBCLASS_SCSI &&
                     d[pos + 7] == MSC_PROTOCOL_BOT;
            if (in_msc) {
                fn->data_iface = d[pos + 2];
                fn->data_alt = d[pos + 3];
            }
            fn->ep_in = fn->ep_out = 0;
        } else if (type == USB_DT_ENDPOINT && d[pos] >= 7 && in_msc) {
            host_take_bulk_endpoint(fn, d + pos);
        }
    }
    return in_msc && fn->ep_in && fn->ep_out;
}

static bool host_has_serial(USBGadgetHost *h)
{
    return h->serial && qemu_chr_fe_backend_connected(h->serial);
}

/* The functions of the configuration in ctrl_buf that we can serve */
static bool host_parse_config(USBGadgetHost *h)
{
    if (h->ctrl_pos < 9) {
        return false;
    }
    h->config_value = h->ctrl_buf[5];
    h->ecm.bound = h->nic && host_find_function(h, CDC_SUBCLASS_ECM,
                                                &h->ecm);
    h->acm.bound = host_has_serial(h) &&
                   host_find_function(h, CDC_SUBCLASS_ACM, &h->acm);
    h->msc.bound = h->storage_bytes && host_find_msc(h, &h->msc);
    return h->ecm.bound || h->acm.bound || h->msc.bound;
}

static void host_bus_reset(USBGadgetHost *h)
{
    trace_usb_gadget_host_reset(h->attempts);
    h->addr = 0;
    h->stage = GADGET_CTRL_IDLE;
    h->state = GADGET_HOST_RECOVERY;
    h->wake_ns = host_now() + RESET_RECOVERY_NS;
    h->in_len = 0;
    h->out_len = 0;
    h->ops->bus_reset(h->opaque);
}

/* The enumeration failed: reset and start again, a few times */
static void host_enum_failed(USBGadgetHost *h, const char *why)
{
    trace_usb_gadget_host_failed(h->step, why);
    if (++h->attempts < MAX_ATTEMPTS) {
        host_bus_reset(h);
        return;
    }
    qemu_log_mask(LOG_GUEST_ERROR, "usb-gadget-host: the device did not "
                  "enumerate (request %d: %s); giving up until it "
                  "reconnects\n", h->step, why);
    h->state = GADGET_HOST_FAILED;
}

static void host_msc_start(USBGadgetHost *h);
static void host_msc_recovered(USBGadgetHost *h, int status);

/* A control transfer ended: of the enumeration, or of a reset recovery */
static void host_step_done(USBGadgetHost *h, int status)
{
    if (h->state == GADGET_HOST_RUNNING) {
        /* The only control transfers once running: a recovery's */
        h->stage = GADGET_CTRL_IDLE;
        host_msc_recovered(h, status);
        return;
    }
    h->stage = GADGET_CTRL_IDLE;
    h->wake_ns = host_now() + MICROFRAME_NS;
    if (status != USB_RET_SUCCESS) {
        if (h->step == STEP_SET_FILTER || h->step == STEP_GET_MAX_LUN) {
            /*
             * The filter is optional: a STALL leaves the default; a
             * device with one LUN may STALL GET MAX LUN (BOT 3.2)
             */
            status = USB_RET_SUCCESS;
        } else {
            host_enum_failed(h, status == USB_RET_STALL ? "stalled"
                                                        : "timed out");
            return;
        }
    }
    switch (h->step) {
    case STEP_DEVICE_64:
        if (h->ctrl_pos < 8 || h->ctrl_buf[1] != USB_DT_DEVICE) {
            host_enum_failed(h, "bad device descriptor");
            return;
        }
        break;
    case STEP_SET_ADDRESS:
        h->addr = DEVICE_ADDRESS;
        h->wake_ns = host_now() + SET_ADDRESS_NS;
        break;
    case STEP_DEVICE:
        if (h->ctrl_pos < 18 || h->ctrl_buf[1] != USB_DT_DEVICE ||
            h->ctrl_buf[17] == 0) {
            host_enum_failed(h, "bad device descriptor");
            return;
        }
        h->config_count = h->ctrl_buf[17];
        h->config_index = 0;
        break;
    case STEP_CONFIG_HEAD:
        if (h->ctrl_pos < 9 || h->ctrl_buf[1] != USB_DT_CONFIG ||
            lduw_le_p(&h->ctrl_buf[2]) < 9) {
            host_enum_failed(h, "bad configuration descriptor");
            return;
        }
        break;
    case STEP_CONFIG:
        if (!host_parse_config(h)) {
            if (++h->config_index < h->config_count) {
                h->step = STEP_CONFIG_HEAD;
                return;
            }
            qemu_log_mask(LOG_UNIMP, "usb-gadget-host: the device offers "
                          "no function the PC has a backend for (%s%s%s) "
                          "in its %u configuration(s); nothing to bind\n",
                          h->nic ? "CDC ECM " : "",
                          host_has_serial(h) ? "CDC ACM " : "",
                          h->storage_bytes ? "mass storage " : "",
                          h->config_count);
            h->state = GADGET_HOST_FAILED;
            return;
        }
        if (h->ecm.bound) {
            trace_usb_gadget_host_function("ECM", h->config_value,
                                           h->ecm.data_iface, h->ecm.data_alt,
                                           h->ecm.ep_in, h->ecm.ep_out,
                                           h->ecm.maxp_in);
        }
        if (h->acm.bound) {
            trace_usb_gadget_host_function("ACM", h->config_value,
                                           h->acm.data_iface, h->acm.data_alt,
                                           h->acm.ep_in, h->acm.ep_out,
                                           h->acm.maxp_in);
        }
        if (h->msc.bound) {
            trace_usb_gadget_host_function("mass storage", h->config_value,
                                           h->msc.data_iface, h->msc.data_alt,
                                           h->msc.ep_in, h->msc.ep_out,
                                           h->msc.maxp_in);
        }
        break;
    }
    do {
        h->step++;
    } while (h->step < STEP_COUNT && !host_step_applies(h, h->step));
    if (h->step == STEP_COUNT) {
        h->state = GADGET_HOST_RUNNING;
        trace_usb_gadget_host_running(h->addr);
        if (h->ecm.bound) {
            qemu_flush_queued_packets(qemu_get_queue(h->nic));
        }
        if (h->acm.bound) {
            qemu_chr_fe_accept_input(h->serial);
        }
        if (h->msc.bound) {
            host_msc_start(h);
        }
    }
}

/*
 * One transaction of the control transfer in flight: true if the device
 * answered it (the next may follow at once), false on a NAK or silence.
 */
static bool host_ctrl_run(USBGadgetHost *h, uint32_t *bytes)
{
    uint8_t packet[EP0_MAXP];
    uint32_t n;
    int r;

    switch (h->stage) {
    case GADGET_CTRL_SETUP:
        r = h->ops->setup(h->opaque, h->addr, h->req);
        if (r != USB_RET_SUCCESS) {
            return false;
        }
        *bytes = 8;
        if (!lduw_le_p(&h->req[6])) {
            h->stage = GADGET_CTRL_STATUS_IN;
        } else {
            h->stage = (h->req[0] & USB_DIR_IN) ? GADGET_CTRL_DATA_IN
                                               : GADGET_CTRL_DATA_OUT;
        }
        return true;
    case GADGET_CTRL_DATA_IN:
        r = h->ops->in(h->opaque, h->addr, 0, packet, EP0_MAXP);
        if (r >= 0) {
            n = MIN(r, h->ctrl_len - h->ctrl_pos);
            memcpy(h->ctrl_buf + h->ctrl_pos, packet, n);
            h->ctrl_pos += n;
            *bytes = r;
            if (r < EP0_MAXP || h->ctrl_pos >= h->ctrl_len) {
                h->stage = GADGET_CTRL_STATUS_OUT;
            }
            return true;
        }
        break;
    case GADGET_CTRL_DATA_OUT:
        n = MIN(EP0_MAXP, h->ctrl_len - h->ctrl_pos);
        r = h->ops->out(h->opaque, h->addr, 0, h->ctrl_buf + h->ctrl_pos, n);
        if (r == USB_RET_SUCCESS) {
            h->ctrl_pos += n;
            *bytes = n;
            if (h->ctrl_pos >= h->ctrl_len) {
                h->stage = GADGET_CTRL_STATUS_IN;
            }
            return true;
        }
        break;
    case GADGET_CTRL_STATUS_IN:
        r = h->ops->in(h->opaque, h->addr, 0, packet, EP0_MAXP);
        if (r >= 0) {
            host_step_done(h, USB_RET_SUCCESS);
            return true;
        }
        break;
    case GADGET_CTRL_STATUS_OUT:
        r = h->ops->out(h->opaque, h->addr, 0, NULL, 0);
        if (r == USB_RET_SUCCESS) {
            host_step_done(h, USB_RET_SUCCESS);
            return true;
        }
        break;
    default:
        return false;
    }
    if (r == USB_RET_STALL) {
        host_step_done(h, USB_RET_STALL);
        return true;
    }
    return false;
}

static void host_frame_in_done(USBGadgetHost *h)
{
    if (h->in_overflow) {
        qemu_log_mask(LOG_GUEST_ERROR, "usb-gadget-host: a frame from the "
                      "device is longer than %d bytes; dropped\n",
                      USB_GADGET_HOST_FRAME_MAX);
    } else if (h->in_len < ETH_HLEN) {
        /* Shorter than an Ethernet header: usbnet drops it too */
        trace_usb_gadget_host_runt(h->in_len);
    } else {
        trace_usb_gadget_host_frame_in(h->in_len);
        qemu_send_packet(qemu_get_queue(h->nic), h->in_frame, h->in_len);
    }
    h->in_len = 0;
    h->in_overflow = false;
}

/* A function's notification: taken, and the link state traced */
static bool host_notify_run(USBGadgetHost *h, USBGadgetHostFunction *fn,
                            uint32_t *bytes)
{
    int r;

    if (!fn->ep_notify) {
        return false;
    }
    r = h->ops->in(h->opaque, h->addr, fn->ep_notify, h->notify,
                   fn->maxp_notify);
    if (r < 0) {
        return false;
    }
    if (r >= 8 && h->notify[1] == CDC_NOTIFY_NETWORK_CONNECTION) {
        trace_usb_gadget_host_link(lduw_le_p(&h->notify[2]));
    }
    *bytes = r;
    return true;
}

/* One round of the ECM function's endpoints: true if any answered */
static bool host_ecm_run(USBGadgetHost *h, uint32_t *bytes)
{
    USBGadgetHostFunction *fn = &h->ecm;
    uint8_t packet[512];
    uint32_t maxp = MIN(fn->maxp_in, sizeof(packet));
    int r;

    r = h->ops->in(h->opaque, h->addr, fn->ep_in, packet, maxp);
    if (r >= 0) {
        if (h->in_len + r > USB_GADGET_HOST_FRAME_MAX) {
            h->in_overflow = true;
        } else {
            memcpy(h->in_frame + h->in_len, packet, r);
            h->in_len += r;
        }
        /* A short packet ends the frame */
        if (r < maxp) {
            host_frame_in_done(h);
        }
        *bytes = r;
        return true;
    }
    if (host_notify_run(h, fn, bytes)) {
        return true;
    }
    if (h->out_len) {
        uint32_t n = MIN(fn->maxp_out, h->out_len - h->out_pos);

        if (n == 0 && !h->out_zlp) {
            return false;
        }
        r = h->ops->out(h->opaque, h->addr, fn->ep_out,
                        h->out_frame + h->out_pos, n);
        if (r != USB_RET_SUCCESS) {
            return false;
        }
        h->out_pos += n;
        if (n == 0) {
            h->out_zlp = false;
        }
        if (h->out_pos == h->out_len && !h->out_zlp) {
            h->out_len = 0;
            h->out_pos = 0;
            qemu_flush_queued_packets(qemu_get_queue(h->nic));
        }
        *bytes = n;
        return true;
    }
    return false;
}

/* One round of the ACM function's endpoints: true if any answered */
static bool host_acm_run(USBGadgetHost *h, uint32_t *bytes)
{
    USBGadgetHostFunction *fn = &h->acm;
    uint8_t packet[512];
    int r;

    r = h->ops->in(h->opaque, h->addr, fn->ep_in, packet,
                   MIN(fn->maxp_in, sizeof(packet)));
    if (r >= 0) {
        if (r) {
            /* As a UART model does: the chardev takes it all */
            qemu_chr_fe_write_all(h->serial, packet, r);
        }
        *bytes = r;
        return true;
    }
    if (host_notify_run(h, fn, bytes)) {
        return true;
    }
    if (h->serial_len) {
        uint32_t n = MIN(fn->maxp_out, h->serial_len);

        r = h->ops->out(h->opaque, h->addr, fn->ep_out, h->serial_out, n);
        if (r != USB_RET_SUCCESS) {
            return false;
        }
        h->serial_len -= n;
        memmove(h->serial_out, h->serial_out + n, h->serial_len);
        qemu_chr_fe_accept_input(h->serial);
        *bytes = n;
        return true;
    }
    return false;
}

/* ------------------------------------------------ mass storage test */

/* What the test writes: a word's value follows its offset on the disk */
static void host_msc_pattern(uint64_t offset, uint8_t *buf, uint32_t len)
{
    for (uint32_t i = 0; i < len; i += 4) {
        stl_le_p(buf + i, (uint32_t)((offset + i) / 4) * 0x9e3779b1u);
    }
}

static void host_msc_fail(USBGadgetHost *h, const char *why)
{
    qemu_log_mask(LOG_GUEST_ERROR, "usb-gadget-host: mass storage test "
                  "failed: %s\n", why);
    trace_usb_gadget_host_msc_failed(h->msc_step, why);
    h->msc_step = MSC_FAILED;
}

/* Builds the command block of the step the test is at */
static void host_msc_command(USBGadgetHost *h)
{
    uint8_t *cbw = h->msc_cbw;
    uint8_t *cdb = cbw + 15;
    uint32_t len = 0, blocks = 0;
    bool in = true;

    memset(cbw, 0, USB_GADGET_HOST_CBW_LEN);
    switch (h->msc_step) {
    case MSC_INQUIRY:
        cdb[0] = SCSI_INQUIRY;
        cdb[4] = len = USB_GADGET_HOST_MSC_REPLY;
        cbw[14] = 6;
        break;
    case MSC_TEST_UNIT_READY:
        cdb[0] = SCSI_TEST_UNIT_READY;
        cbw[14] = 6;
        in = false;
        break;
    case MSC_REQUEST_SENSE:
        cdb[0] = SCSI_REQUEST_SENSE;
        cdb[4] = len = SCSI_SENSE_LEN;
        cbw[14] = 6;
        break;
    case MSC_READ_CAPACITY:
        cdb[0] = SCSI_READ_CAPACITY_10;
        len = SCSI_CAPACITY_LEN;
        cbw[14] = 10;
        break;
    case MSC_WRITE:
    case MSC_READ:
        blocks = MIN(MSC_COMMAND_MAX / h->msc_block_size,
                     h->msc_end_lba - h->msc_lba);
        len = blocks * h->msc_block_size;
        in = h->msc_step == MSC_READ;
        cdb[0] = in ? SCSI_READ_10 : SCSI_WRITE_10;
        stl_be_p(&cdb[2], h->msc_lba);
        stw_be_p(&cdb[7], blocks);
        cbw[14] = 10;
        break;
    default:
        return;
    }
    stl_le_p(cbw, MSC_CBW_SIGNATURE);
    stl_le_p(cbw + 4, ++h->msc_tag);
    stl_le_p(cbw + 8, len);
    cbw[12] = in ? MSC_CBW_DATA_IN : 0;
    h->msc_data_len = len;
    h->msc_data_pos = 0;
    h->msc_phase = MSC_PHASE_CBW;
    h->msc_deadline_ns = host_now() + MSC_COMMAND_TIMEOUT_NS;
    trace_usb_gadget_host_msc_command(h->msc_tag, cdb[0], len);
}

static void host_msc_start(USBGadgetHost *h)
{
    h->msc_write_ns = h->msc_read_ns = 0;
    h->msc_tested_bytes = h->msc_bad_packets = 0;
    h->msc_resets = 0;
    h->msc_retries = 0;
    h->msc_recovery = MSC_RECOVERY_NONE;
    h->msc_tries = 0;
    h->msc_step = MSC_INQUIRY;
    h->wake_ns = host_now() + MSC_DELAY_USE_NS;
    host_msc_command(h);
}

/* A command's status came: on to the next */
static void host_msc_status(USBGadgetHost *h, uint8_t status)
{
    uint32_t last_lba;

    h->msc_retries = 0;
    switch (h->msc_step) {
    case MSC_INQUIRY:
        if (status) {
            host_msc_fail(h, "INQUIRY failed");
            return;
        }
        h->msc_step = MSC_TEST_UNIT_READY;
        break;
    case MSC_TEST_UNIT_READY:
        if (!status) {
            h->msc_step = MSC_READ_CAPACITY;
        } else if (++h->msc_tries >= MSC_READY_TRIES) {
            host_msc_fail(h, "the unit never became ready");
            return;
        } else {
            /* A UNIT ATTENTION (or NOT READY) holds its sense data */
            h->msc_step = MSC_REQUEST_SENSE;
        }
        break;
    case MSC_REQUEST_SENSE:
        h->msc_step = MSC_TEST_UNIT_READY;
        break;
    case MSC_READ_CAPACITY:
        if (status || h->msc_data_pos < SCSI_CAPACITY_LEN) {
            host_msc_fail(h, "READ CAPACITY failed");
            return;
        }
        last_lba = ldl_be_p(h->msc_reply);
        h->msc_block_size = ldl_be_p(h->msc_reply + 4);
        if (h->msc_block_size < 512 || h->msc_block_size > 4096 ||
            !is_power_of_2(h->msc_block_size)) {
            host_msc_fail(h, "unusable block size");
            return;
        }
        h->msc_end_lba = MIN((uint64_t)last_lba + 1,
                             h->storage_bytes / h->msc_block_size);
        if (!h->msc_end_lba) {
            host_msc_fail(h, "the disk is smaller than a block");
            return;
        }
        h->msc_tested_bytes = h->msc_end_lba * h->msc_block_size;
        h->msc_lba = 0;
        h->msc_step = MSC_WRITE;
        h->msc_start_ns = host_now();
        break;
    case MSC_WRITE:
    case MSC_READ:
        if (status) {
            host_msc_fail(h, h->msc_step == MSC_WRITE ? "WRITE(10) failed"
                                                      : "READ(10) failed");
            return;
        }
        h->msc_lba += h->msc_data_len / h->msc_block_size;
        if (h->msc_lba < h->msc_end_lba) {
            break;
        }
        if (h->msc_step == MSC_WRITE) {
            h->msc_write_ns = host_now() - h->msc_start_ns;
            h->msc_step = MSC_READ;
            h->msc_lba = 0;
            h->msc_start_ns = host_now();
            break;
        }
        h->msc_read_ns = host_now() - h->msc_start_ns;
        h->msc_step = MSC_DONE;
        trace_usb_gadget_host_msc_done(h->msc_tested_bytes, h->msc_write_ns,
                                       h->msc_read_ns, h->msc_bad_packets);
        return;
    default:
        return;
    }
    host_msc_command(h);
}

/* The control request of the recovery's stage */
static void host_msc_recovery_request(USBGadgetHost *h)
{
    switch (h->msc_recovery) {
    case MSC_RECOVERY_RESET:
        host_request(h, USB_DIR_OUT | USB_TYPE_CLASS | USB_RECIP_INTERFACE,
                     MSC_BULK_RESET, 0, h->msc.data_iface, 0);
        break;
    case MSC_RECOVERY_CLEAR_IN:
        host_request(h, USB_DIR_OUT | USB_RECIP_ENDPOINT,
                     USB_REQ_CLEAR_FEATURE, 0 /* ENDPOINT_HALT */,
                     USB_DIR_IN | h->msc.ep_in, 0);
        break;
    case MSC_RECOVERY_CLEAR_OUT:
        host_request(h, USB_DIR_OUT | USB_RECIP_ENDPOINT,
                     USB_REQ_CLEAR_FEATURE, 0 /* ENDPOINT_HALT */,
                     h->msc.ep_out, 0);
        break;
    }
}

/*
 * The command in flight timed out: usb-storage's error handling resets
 * the function (the Bulk-Only reset recovery) and sd retries it.
 */
static void host_msc_timed_out(USBGadgetHost *h)
{
    trace_usb_gadget_host_msc_timeout(h->msc_tag, h->msc_phase,
                                      h->msc_data_pos);
    h->msc_resets++;
    if (++h->msc_retries > MSC_COMMAND_RETRIES) {
        host_msc_fail(h, "a command timed out too many times");
        return;
    }
    h->msc_recovery = MSC_RECOVERY_RESET;
    host_msc_recovery_request(h);
}

/* A control transfer of the recovery ended (STALLs and all: go on) */
static void host_msc_recovered(USBGadgetHost *h, int status)
{
    if (status == USB_RET_NODEV) {
        host_msc_fail(h, "no answer to the reset recovery");
        h->msc_recovery = MSC_RECOVERY_NONE;
        return;
    }
    if (h->msc_recovery == MSC_RECOVERY_CLEAR_OUT) {
        /* The same command again, with a new tag */
        h->msc_recovery = MSC_RECOVERY_NONE;
        host_msc_command(h);
        h->wake_ns = host_next_microframe(host_now());
        return;
    }
    h->msc_recovery++;
    host_msc_recovery_request(h);
}

/* One transaction of the command in flight: true if the device answered */
static bool host_msc_run(USBGadgetHost *h, uint32_t *bytes)
{
    USBGadgetHostFunction *fn = &h->msc;
    uint8_t packet[512];
    uint8_t expect[512];
    uint32_t n;
    int r;

    if (h->msc_step == MSC_IDLE || h->msc_step >= MSC_DONE) {
        return false;
    }
    if (host_now() < h->wake_ns) {
        host_arm(h, h->wake_ns);
        return false;
    }
    if (host_now() >= h->msc_deadline_ns) {
        host_msc_timed_out(h);
        return true;
    }
    switch (h->msc_phase) {
    case MSC_PHASE_CBW:
        r = h->ops->out(h->opaque, h->addr, fn->ep_out, h->msc_cbw,
                        USB_GADGET_HOST_CBW_LEN);
        if (r != USB_RET_SUCCESS) {
            break;
        }
        *bytes = USB_GADGET_HOST_CBW_LEN;
        if (!h->msc_data_len) {
            h->msc_phase = MSC_PHASE_CSW;
        } else {
            h->msc_phase = (h->msc_cbw[12] & MSC_CBW_DATA_IN) ?
                           MSC_PHASE_DATA_IN : MSC_PHASE_DATA_OUT;
        }
        h->wake_ns = host_next_microframe(host_now());
        return true;
    case MSC_PHASE_DATA_OUT:
        n = MIN(MIN(fn->maxp_out, sizeof(packet)),
                h->msc_data_len - h->msc_data_pos);
        host_msc_pattern((uint64_t)h->msc_lba * h->msc_block_size +
                         h->msc_data_pos, packet, n);
        r = h->ops->out(h->opaque, h->addr, fn->ep_out, packet, n);
        if (r != USB_RET_SUCCESS) {
            break;
        }
        h->msc_data_pos += n;
        if (h->msc_data_pos >= h->msc_data_len) {
            h->msc_phase = MSC_PHASE_CSW;
            h->wake_ns = host_next_microframe(host_now());
        }
        *bytes = n;
        return true;
    case MSC_PHASE_DATA_IN:
        n = MIN(MIN(fn->maxp_in, sizeof(packet)),
                h->msc_data_len - h->msc_data_pos);
        r = h->ops->in(h->opaque, h->addr, fn->ep_in, packet, n);
        if (r < 0) {
            break;
        }
        if (h->msc_step == MSC_READ) {
            host_msc_pattern((uint64_t)h->msc_lba * h->msc_block_size +
                             h->msc_data_pos, expect, r);
            if (r != n || memcmp(packet, expect, r)) {
                h->msc_bad_packets++;
            }
        } else if (h->msc_data_pos < sizeof(h->msc_reply)) {
            memcpy(h->msc_reply + h->msc_data_pos, packet,
                   MIN(r, sizeof(h->msc_reply) - h->msc_data_pos));
        }
        h->msc_data_pos += r;
        /* A short packet ends the data stage early */
        if (r < n || h->msc_data_pos >= h->msc_data_len) {
            h->msc_phase = MSC_PHASE_CSW;
            h->wake_ns = host_next_microframe(host_now());
        }
        *bytes = r;
        return true;
    case MSC_PHASE_CSW:
        r = h->ops->in(h->opaque, h->addr, fn->ep_in, packet,
                       MIN(fn->maxp_in, sizeof(packet)));
        if (r < 0) {
            break;
        }
        *bytes = r;
        if (r != USB_GADGET_HOST_CSW_LEN ||
            ldl_le_p(packet) != MSC_CSW_SIGNATURE ||
            ldl_le_p(packet + 4) != h->msc_tag) {
            host_msc_fail(h, "no valid command status wrapper");
            return true;
        }
        trace_usb_gadget_host_msc_status(h->msc_tag, packet[12],
                                         ldl_le_p(packet + 8));
        host_msc_status(h, packet[12]);
        h->wake_ns = host_next_microframe(host_now());
        return true;
    default:
        return false;
    }
    if (r == USB_RET_STALL) {
        /*
         * usb-storage would clear the halt and read the status; the
         * commands of this test have no reason to be stalled
         */
        host_msc_fail(h, "the device stalled a bulk endpoint");
        return true;
    }
    /* NAKed: the device kicks us, or the command times out */
    host_arm(h, h->msc_deadline_ns);
    return false;
}

const char *usb_gadget_host_storage_state(USBGadgetHost *h)
{
    switch (h->msc_step) {
    case MSC_IDLE:
        return "idle";
    case MSC_DONE:
        return "done";
    case MSC_FAILED:
        return "failed";
    default:
        return "running";
    }
}

static bool host_data_run(USBGadgetHost *h, uint32_t *bytes)
{
    return (h->ecm.bound && host_ecm_run(h, bytes)) ||
           (h->acm.bound && host_acm_run(h, bytes)) ||
           (h->msc.bound && host_msc_run(h, bytes));
}

/*
 * The control transfer in flight: 1 if the device answered (or it
 * ended), 0 if it timed out now (its end is handled), -1 if it waits for
 * the device (the timer is set for its deadline)
 */
static int host_ctrl_poll(USBGadgetHost *h, int64_t now, uint32_t *bytes)
{
    if (host_ctrl_run(h, bytes) || h->stage == GADGET_CTRL_IDLE) {
        return 1;
    }
    if (now >= h->ctrl_deadline_ns) {
        host_step_done(h, USB_RET_NODEV);
        return 0;
    }
    /* Wait for the device, or give up at the deadline */
    host_arm(h, h->ctrl_deadline_ns);
    return -1;
}

static void host_run(USBGadgetHost *h)
{
    int64_t now = host_now();

    for (int budget = RUN_BUDGET; budget > 0; budget--) {
        uint32_t bytes = 0;
        int went;               /* as host_ctrl_poll() returns */

        switch (h->state) {
        case GADGET_HOST_DEBOUNCE:
            if (now < h->wake_ns) {
                host_arm(h, h->wake_ns);
                return;
            }
            host_bus_reset(h);
            continue;
        case GADGET_HOST_RECOVERY:
            if (now < h->wake_ns) {
                host_arm(h, h->wake_ns);
                return;
            }
            h->state = GADGET_HOST_ENUMERATING;
            h->step = STEP_DEVICE_64;
            h->wake_ns = 0;
            continue;
        case GADGET_HOST_ENUMERATING:
            if (h->stage == GADGET_CTRL_IDLE) {
                if (now < h->wake_ns) {
                    host_arm(h, h->wake_ns);
                    return;
                }
                host_start_step(h);
            }
            went = host_ctrl_poll(h, now, &bytes);
            break;
        case GADGET_HOST_RUNNING:
            /* A control transfer (the reset recovery) goes first */
            if (h->stage != GADGET_CTRL_IDLE) {
                went = host_ctrl_poll(h, now, &bytes);
            } else {
                went = host_data_run(h, &bytes) ? 1 : -1;
            }
            break;
        default:
            return;
        }
        if (went == 0) {
            continue;
        }
        if (went < 0) {
            return;
        }
        if (h->timing) {
            /* The next transaction follows when this one left the wire */
            host_arm(h, now + host_wire_ns(bytes));
            return;
        }
    }
    /*
     * Out of budget: carry on in the next microframe, after the rest of
     * the machine had its turn (and virtual time moved on, even without
     * timing: a device that never stops sending cannot stall the clock)
     */
    host_arm(h, now + MICROFRAME_NS);
}

static void host_timer_cb(void *opaque)
{
    host_run(opaque);
}

void usb_gadget_host_kick(USBGadgetHost *h)
{
    if (usb_gadget_host_present(h) && h->state != GADGET_HOST_DETACHED &&
        h->state != GADGET_HOST_FAILED) {
        host_arm(h, host_now());
    }
}

/* The device went or came: nothing of the last session stays */
static void host_forget_device(USBGadgetHost *h)
{
    h->stage = GADGET_CTRL_IDLE;
    h->addr = 0;
    h->in_len = 0;
    h->in_overflow = false;
    h->out_len = 0;
    h->out_pos = 0;
    h->out_zlp = false;
    h->serial_len = 0;
    h->ecm.bound = h->acm.bound = false;
    h->msc.bound = false;
    h->msc_recovery = MSC_RECOVERY_NONE;
    if (h->msc_step != MSC_DONE && h->msc_step != MSC_IDLE) {
        /* The device went in the middle of the test */
        h->msc_step = MSC_FAILED;
    }
}

void usb_gadget_host_set_connected(USBGadgetHost *h, bool connected)
{
    if (!usb_gadget_host_present(h) || connected == h->connected) {
        return;
    }
    h->connected = connected;
    trace_usb_gadget_host_connect(connected);
    host_forget_device(h);
    if (connected) {
        h->state = GADGET_HOST_DEBOUNCE;
        h->attempts = 0;
        h->wake_ns = host_now() + DEBOUNCE_NS;
        host_arm(h, h->wake_ns);
    } else {
        h->state = GADGET_HOST_DETACHED;
        timer_del(&h->timer);
    }
}

bool usb_gadget_host_present(USBGadgetHost *h)
{
    return h->nic || host_has_serial(h) || h->storage_bytes;
}

void usb_gadget_host_reset(USBGadgetHost *h)
{
    timer_del(&h->timer);
    h->state = GADGET_HOST_DETACHED;
    h->connected = false;
    h->wake_ns = 0;
    host_forget_device(h);
    h->msc_step = MSC_IDLE;
    h->msc_write_ns = h->msc_read_ns = 0;
    h->msc_tested_bytes = h->msc_bad_packets = 0;
    h->msc_resets = 0;
}

static bool host_can_receive(NetClientState *nc)
{
    USBGadgetHost *h = qemu_get_nic_opaque(nc);

    return h->state == GADGET_HOST_RUNNING && h->ecm.bound && !h->out_len;
}

static ssize_t host_receive(NetClientState *nc, const uint8_t *buf,
                            size_t size)
{
    USBGadgetHost *h = qemu_get_nic_opaque(nc);

    if (h->state != GADGET_HOST_RUNNING || !h->ecm.bound) {
        /* The PC's interface is down: the frame goes nowhere */
        return size;
    }
    if (h->out_len) {
        return 0;
    }
    if (size == 0 || size > USB_GADGET_HOST_FRAME_MAX) {
        return size;
    }
    memcpy(h->out_frame, buf, size);
    h->out_len = size;
    h->out_pos = 0;
    /* A frame of whole packets ends with a zero-length one (CDC 1.2, 3.8) */
    h->out_zlp = size % h->ecm.maxp_out == 0;
    usb_gadget_host_kick(h);
    return size;
}

static NetClientInfo usb_gadget_host_net_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .can_receive = host_can_receive,
    .receive = host_receive,
};

/* The chardev's bytes wait for the ACM function's OUT endpoint */
static int host_serial_can_read(void *opaque)
{
    USBGadgetHost *h = opaque;

    if (h->state != GADGET_HOST_RUNNING || !h->acm.bound) {
        return 0;
    }
    return USB_GADGET_HOST_SERIAL_MAX - h->serial_len;
}

static void host_serial_read(void *opaque, const uint8_t *buf, int size)
{
    USBGadgetHost *h = opaque;

    size = MIN(size, USB_GADGET_HOST_SERIAL_MAX - h->serial_len);
    memcpy(h->serial_out + h->serial_len, buf, size);
    h->serial_len += size;
    usb_gadget_host_kick(h);
}

void usb_gadget_host_init(USBGadgetHost *h, NICConf *conf,
                          CharBackend *serial, DeviceState *dev,
                          const USBGadgetPortOps *ops, void *opaque)
{
    h->ops = ops;
    h->opaque = opaque;
    timer_init_ns(&h->timer, QEMU_CLOCK_VIRTUAL, host_timer_cb, h);
    if (serial && qemu_chr_fe_backend_connected(serial)) {
        h->serial = serial;
        qemu_chr_fe_set_handlers(serial, host_serial_can_read,
                                 host_serial_read, NULL, NULL, h, NULL, true);
    }
    if (!conf->peers.ncs[0]) {
        return;
    }

    qemu_macaddr_default_if_unset(&conf->macaddr);
    h->nic = qemu_new_nic(&usb_gadget_host_net_info, conf,
                          object_get_typename(OBJECT(dev)), dev->id,
                          &dev->mem_reentrancy_guard, h);
    qemu_format_nic_info_str(qemu_get_queue(h->nic), conf->macaddr.a);
}

static int usb_gadget_host_post_load(void *opaque, int version_id)
{
    USBGadgetHost *h = opaque;

    if (h->state > GADGET_HOST_FAILED || h->stage > GADGET_CTRL_STATUS_OUT ||
        h->step > STEP_COUNT || h->ctrl_len > USB_GADGET_HOST_CTRL_MAX ||
        h->ctrl_pos > h->ctrl_len || h->in_len > USB_GADGET_HOST_FRAME_MAX ||
        h->out_len > USB_GADGET_HOST_FRAME_MAX || h->out_pos > h->out_len ||
        h->serial_len > USB_GADGET_HOST_SERIAL_MAX ||
        h->ecm.maxp_notify > sizeof(h->notify) ||
        h->acm.maxp_notify > sizeof(h->notify) ||
        (h->ecm.bound && (!h->ecm.maxp_out || !h->nic)) ||
        (h->acm.bound && (!h->acm.maxp_out || !host_has_serial(h))) ||
        (h->msc.bound && (!h->msc.maxp_out || !h->msc.maxp_in ||
                          !h->storage_bytes)) ||
        h->msc_step > MSC_FAILED || h->msc_phase > MSC_PHASE_CSW ||
        h->msc_recovery > MSC_RECOVERY_CLEAR_OUT ||
        (h->msc_recovery && h->state != GADGET_HOST_RUNNING) ||
        h->msc_data_pos > h->msc_data_len ||
        ((h->msc_step == MSC_WRITE || h->msc_step == MSC_READ) &&
         (!h->msc_block_size || h->msc_lba > h->msc_end_lba ||
          h->msc_data_len > MSC_COMMAND_MAX))) {
        return -EINVAL;
    }
    if (!usb_gadget_host_present(h)) {
        h->state = GADGET_HOST_DETACHED;
    }
    return 0;
}

static const VMStateDescription vmstate_usb_gadget_host_function = {
    .name = "usb-gadget-host-function",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_BOOL(bound, USBGadgetHostFunction),
        VMSTATE_UINT8(ctrl_iface, USBGadgetHostFunction),
        VMSTATE_UINT8(data_iface, USBGadgetHostFunction),
        VMSTATE_UINT8(data_alt, USBGadgetHostFunction),
        VMSTATE_UINT8(ep_in, USBGadgetHostFunction),
        VMSTATE_UINT8(ep_out, USBGadgetHostFunction),
        VMSTATE_UINT8(ep_notify, USBGadgetHostFunction),
        VMSTATE_UINT16(maxp_in, USBGadgetHostFunction),
        VMSTATE_UINT16(maxp_out, USBGadgetHostFunction),
        VMSTATE_UINT16(maxp_notify, USBGadgetHostFunction),
        VMSTATE_END_OF_LIST()
    }
};

static bool usb_gadget_host_msc_needed(void *opaque)
{
    USBGadgetHost *h = opaque;

    return h->msc_step != MSC_IDLE;
}

static const VMStateDescription vmstate_usb_gadget_host_msc = {
    .name = "usb-gadget-host/msc",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = usb_gadget_host_msc_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_STRUCT(msc, USBGadgetHost, 1,
                       vmstate_usb_gadget_host_function,
                       USBGadgetHostFunction),
        VMSTATE_UINT32(msc_step, USBGadgetHost),
        VMSTATE_UINT32(msc_phase, USBGadgetHost),
        VMSTATE_UINT32(msc_tag, USBGadgetHost),
        VMSTATE_UINT32(msc_tries, USBGadgetHost),
        VMSTATE_UINT8_ARRAY(msc_cbw, USBGadgetHost, USB_GADGET_HOST_CBW_LEN),
        VMSTATE_UINT32(msc_data_len, USBGadgetHost),
        VMSTATE_UINT32(msc_data_pos, USBGadgetHost),
        VMSTATE_UINT8_ARRAY(msc_reply, USBGadgetHost,
                            USB_GADGET_HOST_MSC_REPLY),
        VMSTATE_UINT32(msc_block_size, USBGadgetHost),
        VMSTATE_UINT64(msc_lba, USBGadgetHost),
        VMSTATE_UINT64(msc_end_lba, USBGadgetHost),
        VMSTATE_INT64(msc_start_ns, USBGadgetHost),
        VMSTATE_INT64(msc_deadline_ns, USBGadgetHost),
        VMSTATE_UINT32(msc_recovery, USBGadgetHost),
        VMSTATE_UINT32(msc_retries, USBGadgetHost),
        VMSTATE_UINT64(msc_resets, USBGadgetHost),
        VMSTATE_UINT64(msc_write_ns, USBGadgetHost),
        VMSTATE_UINT64(msc_read_ns, USBGadgetHost),
        VMSTATE_UINT64(msc_tested_bytes, USBGadgetHost),
        VMSTATE_UINT64(msc_bad_packets, USBGadgetHost),
        VMSTATE_END_OF_LIST()
    }
};

const VMStateDescription vmstate_usb_gadget_host = {
    .name = "usb-gadget-host",
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = usb_gadget_host_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_TIMER(timer, USBGadgetHost),
        VMSTATE_UINT32(state, USBGadgetHost),
        VMSTATE_BOOL(connected, USBGadgetHost),
        VMSTATE_UINT8(addr, USBGadgetHost),
        VMSTATE_UINT8(attempts, USBGadgetHost),
        VMSTATE_UINT8(step, USBGadgetHost),
        VMSTATE_UINT8(config_index, USBGadgetHost),
        VMSTATE_UINT8(config_count, USBGadgetHost),
        VMSTATE_UINT8(config_value, USBGadgetHost),
        VMSTATE_STRUCT(ecm, USBGadgetHost, 1,
                       vmstate_usb_gadget_host_function,
                       USBGadgetHostFunction),
        VMSTATE_STRUCT(acm, USBGadgetHost, 1,
                       vmstate_usb_gadget_host_function,
                       USBGadgetHostFunction),
        VMSTATE_INT64(wake_ns, USBGadgetHost),
        VMSTATE_UINT32(stage, USBGadgetHost),
        VMSTATE_UINT8_ARRAY(req, USBGadgetHost, 8),
        VMSTATE_UINT8_ARRAY(ctrl_buf, USBGadgetHost,
                            USB_GADGET_HOST_CTRL_MAX),
        VMSTATE_UINT32(ctrl_len, USBGadgetHost),
        VMSTATE_UINT32(ctrl_pos, USBGadgetHost),
        VMSTATE_INT64(ctrl_deadline_ns, USBGadgetHost),
        VMSTATE_UINT8_ARRAY(in_frame, USBGadgetHost,
                            USB_GADGET_HOST_FRAME_MAX),
        VMSTATE_UINT32(in_len, USBGadgetHost),
        VMSTATE_BOOL(in_overflow, USBGadgetHost),
        VMSTATE_UINT8_ARRAY(out_frame, USBGadgetHost,
                            USB_GADGET_HOST_FRAME_MAX),
        VMSTATE_UINT32(out_len, USBGadgetHost),
        VMSTATE_UINT32(out_pos, USBGadgetHost),
        VMSTATE_BOOL(out_zlp, USBGadgetHost),
        VMSTATE_UINT8_ARRAY(notify, USBGadgetHost, 16),
        VMSTATE_UINT8_ARRAY(serial_out, USBGadgetHost,
                            USB_GADGET_HOST_SERIAL_MAX),
        VMSTATE_UINT32(serial_len, USBGadgetHost),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * const []) {
        &vmstate_usb_gadget_host_msc,
        NULL
    }
};
