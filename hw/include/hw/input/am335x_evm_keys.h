/*
 * The AM335x EVM's user keys: a 3 x 2 keypad matrix on GPIO1 and two
 * volume buttons on GPIO0
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_INPUT_AM335X_EVM_KEYS_H
#define HW_INPUT_AM335X_EVM_KEYS_H

#include "hw/sysbus.h"
#include "qom/object.h"
#include "ui/input.h"

#define TYPE_AM335X_EVM_KEYS "am335x-evm-keys"
OBJECT_DECLARE_SIMPLE_TYPE(AM335xEvmKeysState, AM335X_EVM_KEYS)

#define AM335X_EVM_KEYPAD_ROWS      3
#define AM335X_EVM_KEYPAD_COLS      2
#define AM335X_EVM_VOLUME_KEYS      2

/*
 * GPIO lines: inputs "col" (the column lines the SoC drives), outputs
 * "row" (the row lines, pulled down) and "volume" (the buttons' lines,
 * pulled up, low while pressed)
 */
#define AM335X_EVM_KEYS_COL         "col"
#define AM335X_EVM_KEYS_ROW         "row"
#define AM335X_EVM_KEYS_VOLUME      "volume"

struct AM335xEvmKeysState {
    SysBusDevice parent_obj;

    qemu_irq row[AM335X_EVM_KEYPAD_ROWS];
    qemu_irq volume[AM335X_EVM_VOLUME_KEYS];
    QemuInputHandlerState *input;

    /* Bit r * COLS + c: the key at row r, column c is down */
    uint8_t keypad_down;
    /* Bit n: volume key n (0 up, 1 down) is down */
    uint8_t volume_down;
    /* Bit c: column line c is driven high */
    uint8_t cols_high;
};

#endif
