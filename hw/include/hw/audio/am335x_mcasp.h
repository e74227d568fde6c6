/*
 * TI AM335x Multichannel Audio Serial Port (McASP)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_AUDIO_AM335X_MCASP_H
#define HW_AUDIO_AM335X_MCASP_H

#include "audio/audio.h"
#include "hw/clock.h"
#include "hw/sysbus.h"
#include "qemu/timer.h"
#include "qom/object.h"

#define TYPE_AM335X_MCASP "am335x-mcasp"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xMcaspState, AM335X_MCASP)

/* The configuration registers (incl. the AFIFO at 0x1000), the data port */
#define AM335X_MCASP_CFG_SIZE       0x2000
#define AM335X_MCASP_DATA_SIZE      0x400000

/* Serializers per McASP on the AM335x (AXR0-3) */
#define AM335X_MCASP_NUM_SER        4
/* The write and the read FIFO: 256 bytes each (TRM 22.3.9) */
#define AM335X_MCASP_FIFO_WORDS     64
/* Audio frames held for the audio backend */
#define AM335X_MCASP_OUT_FRAMES     4096
#define AM335X_MCASP_MAX_CHANNELS   8

/* Outputs: sysbus IRQ 0 = TX, 1 = RX; GPIOs "dma-request" 0 = TX, 1 = RX */
#define AM335X_MCASP_DMA_REQUEST    "dma-request"
/* Clock inputs: the ACLKX and AFSX pins, for a codec that is the master */
#define AM335X_MCASP_ACLKX          "aclkx"
#define AM335X_MCASP_AFSX           "afsx"

struct AM335xMcaspState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    MemoryRegion data;
    QEMUTimer slot_timer;
    qemu_irq irq[2];
    qemu_irq dma_request[2];
    QEMUSoundCard card;
    SWVoiceOut *voice;
    SWVoiceIn *voice_in;
    Clock *aclkx;
    Clock *afsx;

    /* AUXCLK (the functional clock) and the board's AHCLKX pin, in Hz */
    uint32_t auxclk_hz;
    uint32_t ahclkx_hz;

    uint32_t pwridle;
    uint32_t pfunc;
    uint32_t pdir;
    uint32_t pdout;
    uint32_t tlgc;
    uint32_t tlmr;
    uint32_t gblctl;
    uint32_t amute;
    uint32_t dlbctl;
    uint32_t ditctl;
    uint32_t rmask, rfmt, afsrctl, aclkrctl, ahclkrctl, rtdm, rintctl;
    uint32_t rstat, rclkchk, revtctl;
    uint32_t xmask, xfmt, afsxctl, aclkxctl, ahclkxctl, xtdm, xintctl;
    uint32_t xstat, xclkchk, xevtctl;
    uint32_t dit[24];
    uint32_t srctl[AM335X_MCASP_NUM_SER];
    uint32_t xbuf[AM335X_MCASP_NUM_SER];
    uint32_t xbuf_full;         /* bit n: XBUF n holds a word */
    uint32_t rfifoctl;
    uint32_t wfifoctl;
    uint32_t fifo[AM335X_MCASP_FIFO_WORDS];
    uint32_t fifo_head;
    uint32_t fifo_count;
    uint32_t port_ser;          /* the data port's next serializer */
    uint32_t dma_owed;          /* words the pending DMA request asks for */

    /* The receiver's serializer buffers and its read FIFO */
    uint32_t rbuf[AM335X_MCASP_NUM_SER];
    uint32_t rbuf_full;         /* bit n: RBUF n holds a word */
    uint32_t rfifo[AM335X_MCASP_FIFO_WORDS];
    uint32_t rfifo_head;
    uint32_t rfifo_count;
    uint32_t rport_ser;         /* the data port's next RBUF (no FIFO) */
    uint32_t rx_dma_owed;       /* words the pending RX request offers */

    /*
     * The frame engine (the transmit clock and frame sync, which the
     * receiver shares in synchronous mode): the slot it runs next, the
     * frame's samples.
     */
    bool running;
    bool tx_was_on;             /* the transmitter ran at the last look */
    bool rx_was_on;
    /* Each side works from the first frame sync after it started */
    bool tx_active;
    bool rx_active;
    int64_t frame_start;        /* virtual ns the current frame began */
    int64_t next_slot;          /* virtual ns of the next slot */
    int64_t stall_since;        /* waiting for the DMA since; -1: not */
    uint32_t slot;
    uint32_t frame_chan;
    int16_t frame[AM335X_MCASP_MAX_CHANNELS];
    /* The received frame's samples from the audio backend, and the next */
    uint32_t in_chan;
    int16_t in_frame[AM335X_MCASP_MAX_CHANNELS];

    /* What the audio backend has not taken yet, and its format */
    int16_t out[AM335X_MCASP_OUT_FRAMES * AM335X_MCASP_MAX_CHANNELS];
    uint32_t out_head;          /* in samples */
    uint32_t out_count;
    uint32_t out_rate;
    uint32_t out_channels;

    /* What the audio backend captured that no frame took yet */
    int16_t in[AM335X_MCASP_OUT_FRAMES * AM335X_MCASP_MAX_CHANNELS];
    uint32_t in_head;
    uint32_t in_count;
    uint32_t in_rate;
    uint32_t in_channels;
};

#endif
