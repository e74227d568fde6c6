/*
 * A 4-wire resistive touch panel
 *
 * Two resistive plates: X, between its terminals XP and XN, and Y,
 * between YP and YN.  A touch at (x, y) joins the plates at that point
 * through the contact resistance.  A controller drives some terminals to
 * VDD or ground and senses the voltage at another; the panel is a
 * resistor network and gives that voltage.  QEMU's absolute pointer
 * (a display's mouse, or QMP input-send-event) is the finger: the left
 * button touches, the axes move.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_ADC_TOUCH_PANEL_4WIRE_H
#define HW_ADC_TOUCH_PANEL_4WIRE_H

#include "ui/input.h"

enum {
    TOUCH_PANEL_XP,
    TOUCH_PANEL_XN,
    TOUCH_PANEL_YP,
    TOUCH_PANEL_YN,
    TOUCH_PANEL_TERMINALS
};

/* What a controller does to a terminal */
typedef enum TouchPanelDrive {
    TOUCH_PANEL_OPEN,
    TOUCH_PANEL_VDD,
    TOUCH_PANEL_GND,
} TouchPanelDrive;

typedef struct TouchPanel4Wire {
    /* Properties of the panel (its owner's) */
    uint32_t x_plate_ohms;
    uint32_t y_plate_ohms;
    uint32_t touch_ohms;

    /* Migrated: the finger, its axes as QEMU's (0 to INPUT_EVENT_ABS_MAX) */
    bool touched;
    uint16_t x;
    uint16_t y;

    /* Events since the last input sync */
    bool next_touched;
    uint16_t next_x;
    uint16_t next_y;
} TouchPanel4Wire;

extern const VMStateDescription vmstate_touch_panel_4wire;

/* The input mask of the panel's owner's QemuInputHandler */
#define TOUCH_PANEL_INPUT_MASK  (INPUT_EVENT_MASK_BTN | INPUT_EVENT_MASK_ABS)

/*
 * The owner's QemuInputHandler passes its events here, then calls
 * touch_panel_4wire_sync() at the sync, which returns true if the finger
 * touched, moved or lifted.
 */
void touch_panel_4wire_event(TouchPanel4Wire *p, InputEvent *evt);
bool touch_panel_4wire_sync(TouchPanel4Wire *p);

/*
 * The voltage at terminal @sense, as a fraction of VDD, with the
 * terminals driven as @drive says; negative if @sense floats (nothing
 * driven reaches it).
 */
double touch_panel_4wire_sense(const TouchPanel4Wire *p,
                               const TouchPanelDrive *drive, int sense);

#endif
