/*
 * A 4-wire resistive touch panel
 *
 * The plates are resistors from terminal to terminal: X from XN (x = 0)
 * to XP (x = 1), Y from YN (y = 0) to YP (y = 1).  A touch at (x, y)
 * splits each plate at the point it presses and joins the two points
 * through the contact resistance.  The terminals a controller drives
 * are held at VDD or ground; the voltage at a sensed terminal follows
 * from Kirchhoff's current law at each node the drives reach.  A node
 * nothing driven reaches floats.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "hw/adc/touch_panel_4wire.h"
#include "migration/vmstate.h"
#include "trace.h"

/* The terminals, then the points the finger presses on each plate */
enum { NODE_XC = TOUCH_PANEL_TERMINALS, NODE_YC, NODES };

/* A plate's end at the finger has a little resistance left, never none */
#define MIN_OHMS    0.001

typedef struct PanelEdge {
    int a, b;
    double ohms;
} PanelEdge;

double touch_panel_4wire_sense(const TouchPanel4Wire *p,
                               const TouchPanelDrive *drive, int sense)
{
    double x = (double)p->x / INPUT_EVENT_ABS_MAX;
    double y = (double)p->y / INPUT_EVENT_ABS_MAX;
    PanelEdge edge[] = {
        { TOUCH_PANEL_XN, NODE_XC, MAX(p->x_plate_ohms * x, MIN_OHMS) },
        { NODE_XC, TOUCH_PANEL_XP, MAX(p->x_plate_ohms * (1 - x), MIN_OHMS) },
        { TOUCH_PANEL_YN, NODE_YC, MAX(p->y_plate_ohms * y, MIN_OHMS) },
        { NODE_YC, TOUCH_PANEL_YP, MAX(p->y_plate_ohms * (1 - y), MIN_OHMS) },
        { NODE_XC, NODE_YC, MAX(p->touch_ohms, MIN_OHMS) },
    };
    int edges = p->touched ? ARRAY_SIZE(edge) : ARRAY_SIZE(edge) - 1;
    bool fixed[NODES] = { false }, reached[NODES] = { false };
    double v[NODES] = { 0 };
    double a[NODES][NODES + 1];
    int index[NODES], n = 0, row;
    bool grew = true;

    for (int t = 0; t < TOUCH_PANEL_TERMINALS; t++) {
        if (drive[t] != TOUCH_PANEL_OPEN) {
            fixed[t] = reached[t] = true;
            v[t] = drive[t] == TOUCH_PANEL_VDD ? 1.0 : 0.0;
        }
    }
    /* The nodes a driven terminal reaches through the plates */
    while (grew) {
        grew = false;
        for (int e = 0; e < edges; e++) {
            if (reached[edge[e].a] != reached[edge[e].b]) {
                reached[edge[e].a] = reached[edge[e].b] = true;
                grew = true;
            }
        }
    }
    if (!reached[sense]) {
        return -1;
    }
    if (fixed[sense]) {
        return v[sense];
    }

    /* KCL at each free reached node: sum of G * (Vi - Vj) = 0 */
    for (int i = 0; i < NODES; i++) {
        index[i] = reached[i] && !fixed[i] ? n++ : -1;
    }
    memset(a, 0, sizeof(a));
    for (int e = 0; e < edges; e++) {
        double g = 1.0 / edge[e].ohms;
        int ends[2] = { edge[e].a, edge[e].b };

        for (int k = 0; k < 2; k++) {
            int i = index[ends[k]], other = ends[!k];

            if (i < 0) {
                continue;
            }
            a[i][i] += g;
            if (index[other] >= 0) {
                a[i][index[other]] -= g;
            } else {
                a[i][n] += g * v[other];
            }
        }
    }
    /* Gaussian elimination with partial pivoting */
    for (int c = 0; c < n; c++) {
        int pivot = c;

        for (int r = c + 1; r < n; r++) {
            if (fabs(a[r][c]) > fabs(a[pivot][c])) {
                pivot = r;
            }
        }
        for (int k = 0; k <= n; k++) {
            double t = a[c][k];

            a[c][k] = a[pivot][k];
            a[pivot][k] = t;
        }
        for (int r = 0; r < n; r++) {
            double f;

            if (r == c || a[c][c] == 0) {
                continue;
            }
            f = a[r][c] / a[c][c];
            for (int k = c; k <= n; k++) {
                a[r][k] -= f * a[c][k];
            }
        }
    }
    row = index[sense];
    return a[row][row] == 0 ? -1 : a[row][n] / a[row][row];
}

void touch_panel_4wire_event(TouchPanel4Wire *p, InputEvent *evt)
{
    InputBtnEvent *btn;
    InputMoveEvent *move;

    switch (evt->type) {
    case INPUT_EVENT_KIND_BTN:
        btn = evt->u.btn.data;
        if (btn->button == INPUT_BUTTON_LEFT) {
            p->next_touched = btn->down;
        }
        break;
    case INPUT_EVENT_KIND_ABS:
        move = evt->u.abs.data;
        if (move->axis == INPUT_AXIS_X) {
            p->next_x = MIN(move->value, INPUT_EVENT_ABS_MAX);
        } else if (move->axis == INPUT_AXIS_Y) {
            p->next_y = MIN(move->value, INPUT_EVENT_ABS_MAX);
        }
        break;
    default:
        break;
    }
}

bool touch_panel_4wire_sync(TouchPanel4Wire *p)
{
    bool changed = p->next_touched != p->touched ||
                   (p->next_touched && (p->next_x != p->x ||
                                        p->next_y != p->y));

    p->touched = p->next_touched;
    p->x = p->next_x;
    p->y = p->next_y;
    if (changed) {
        trace_touch_panel_4wire(p->touched, p->x, p->y);
    }
    return changed;
}

static int touch_panel_4wire_post_load(void *opaque, int version_id)
{
    TouchPanel4Wire *p = opaque;

    if (p->x > INPUT_EVENT_ABS_MAX || p->y > INPUT_EVENT_ABS_MAX) {
        return -EINVAL;
    }
    p->next_touched = p->touched;
    p->next_x = p->x;
    p->next_y = p->y;
    return 0;
}

const VMStateDescription vmstate_touch_panel_4wire = {
    .name = "touch-panel-4wire",
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = touch_panel_4wire_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_BOOL(touched, TouchPanel4Wire),
        VMSTATE_UINT16(x, TouchPanel4Wire),
        VMSTATE_UINT16(y, TouchPanel4Wire),
        VMSTATE_END_OF_LIST()
    }
};
