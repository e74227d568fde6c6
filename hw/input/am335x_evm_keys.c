/*
 * The AM335x EVM's user keys
 *
 * Six keys in a matrix of three rows and two columns, and two volume
 * buttons, as the EVM's DT wires them:
 *
 * - the columns are GPIO1_21-22, which the SoC drives (high to select one,
 *   or all while it waits for a key); the rows are GPIO1_25-27, pulled
 *   down: a row is high while a key that joins it to a high column is
 *   down;
 * - the volume buttons pull GPIO0_2 (up) and GPIO0_3 (down) low while
 *   pressed; external pull-ups hold them high otherwise.
 *
 * The keys are QEMU's keyboard input (a display's keyboard, or QMP's
 * send-key and input-send-event with "device" this device's id), by the
 * key the stock DT's keymap gives each place:
 *
 *   row 0, column 0: menu          row 0, column 1: right
 *   row 1, column 0: ac_back, esc  row 1, column 1: ret, kp_enter
 *   row 2, column 0: left          row 2, column 1: down
 *   GPIO0_2: volumeup              GPIO0_3: volumedown
 *
 * A reset lets every key go.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/module.h"
#include "hw/input/am335x_evm_keys.h"
#include "hw/irq.h"
#include "migration/vmstate.h"
#include "trace.h"

/* Where a key is: a place in the matrix, or a volume button (row -1) */
static const struct {
    QKeyCode qcode;
    int8_t row;
    int8_t col;
} am335x_evm_keymap[] = {
    { Q_KEY_CODE_MENU, 0, 0 },
    { Q_KEY_CODE_AC_BACK, 1, 0 },
    { Q_KEY_CODE_ESC, 1, 0 },
    { Q_KEY_CODE_LEFT, 2, 0 },
    { Q_KEY_CODE_RIGHT, 0, 1 },
    { Q_KEY_CODE_RET, 1, 1 },
    { Q_KEY_CODE_KP_ENTER, 1, 1 },
    { Q_KEY_CODE_DOWN, 2, 1 },
    { Q_KEY_CODE_VOLUMEUP, -1, 0 },
    { Q_KEY_CODE_VOLUMEDOWN, -1, 1 },
};

/* Drive the row and volume lines from the keys and the columns */
static void am335x_evm_keys_update(AM335xEvmKeysState *s)
{
    for (int r = 0; r < AM335X_EVM_KEYPAD_ROWS; r++) {
        uint8_t keys = extract32(s->keypad_down, r * AM335X_EVM_KEYPAD_COLS,
                                 AM335X_EVM_KEYPAD_COLS);

        qemu_set_irq(s->row[r], (keys & s->cols_high) != 0);
    }
    for (int n = 0; n < AM335X_EVM_VOLUME_KEYS; n++) {
        qemu_set_irq(s->volume[n], !extract32(s->volume_down, n, 1));
    }
}

static void am335x_evm_keys_set_col(void *opaque, int col, int level)
{
    AM335xEvmKeysState *s = AM335X_EVM_KEYS(opaque);

    s->cols_high = deposit32(s->cols_high, col, 1, level != 0);
    am335x_evm_keys_update(s);
}

static void am335x_evm_keys_event(DeviceState *dev, QemuConsole *src,
                                  InputEvent *evt)
{
    AM335xEvmKeysState *s = AM335X_EVM_KEYS(dev);
    InputKeyEvent *key = evt->u.key.data;
    int qcode = qemu_input_key_value_to_qcode(key->key);

    for (int i = 0; i < ARRAY_SIZE(am335x_evm_keymap); i++) {
        int row = am335x_evm_keymap[i].row;
        int col = am335x_evm_keymap[i].col;

        if (am335x_evm_keymap[i].qcode != qcode) {
            continue;
        }
        trace_am335x_evm_keys_key(QKeyCode_str(qcode), row, col, key->down);
        if (row < 0) {
            s->volume_down = deposit32(s->volume_down, col, 1, key->down);
        } else {
            s->keypad_down = deposit32(s->keypad_down,
                                       row * AM335X_EVM_KEYPAD_COLS + col, 1,
                                       key->down);
        }
        am335x_evm_keys_update(s);
        return;
    }
}

static const QemuInputHandler am335x_evm_keys_handler = {
    .name = "AM335x EVM keys",
    .mask = INPUT_EVENT_MASK_KEY,
    .event = am335x_evm_keys_event,
};

static void am335x_evm_keys_reset_enter(Object *obj, ResetType type)
{
    AM335xEvmKeysState *s = AM335X_EVM_KEYS(obj);

    s->keypad_down = 0;
    s->volume_down = 0;
}

static void am335x_evm_keys_reset_hold(Object *obj, ResetType type)
{
    am335x_evm_keys_update(AM335X_EVM_KEYS(obj));
}

static int am335x_evm_keys_post_load(void *opaque, int version_id)
{
    AM335xEvmKeysState *s = AM335X_EVM_KEYS(opaque);

    if (s->keypad_down >> (AM335X_EVM_KEYPAD_ROWS * AM335X_EVM_KEYPAD_COLS) ||
        s->volume_down >> AM335X_EVM_VOLUME_KEYS ||
        s->cols_high >> AM335X_EVM_KEYPAD_COLS) {
        return -EINVAL;
    }
    return 0;
}

static const VMStateDescription vmstate_am335x_evm_keys = {
    .name = TYPE_AM335X_EVM_KEYS,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = am335x_evm_keys_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT8(keypad_down, AM335xEvmKeysState),
        VMSTATE_UINT8(volume_down, AM335xEvmKeysState),
        VMSTATE_UINT8(cols_high, AM335xEvmKeysState),
        VMSTATE_END_OF_LIST()
    }
};

static void am335x_evm_keys_realize(DeviceState *dev, Error **errp)
{
    AM335xEvmKeysState *s = AM335X_EVM_KEYS(dev);

    /*
     * Not activated: a keyboard the user adds (usb-kbd) takes the
     * keyboard input first, as it activates itself.
     */
    s->input = qemu_input_handler_register(dev, &am335x_evm_keys_handler);
}

static void am335x_evm_keys_init(Object *obj)
{
    AM335xEvmKeysState *s = AM335X_EVM_KEYS(obj);
    DeviceState *dev = DEVICE(obj);

    qdev_init_gpio_in_named(dev, am335x_evm_keys_set_col,
                            AM335X_EVM_KEYS_COL, AM335X_EVM_KEYPAD_COLS);
    qdev_init_gpio_out_named(dev, s->row, AM335X_EVM_KEYS_ROW,
                             AM335X_EVM_KEYPAD_ROWS);
    qdev_init_gpio_out_named(dev, s->volume, AM335X_EVM_KEYS_VOLUME,
                             AM335X_EVM_VOLUME_KEYS);
}

static void am335x_evm_keys_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->desc = "AM335x EVM keypad and volume keys";
    dc->realize = am335x_evm_keys_realize;
    dc->vmsd = &vmstate_am335x_evm_keys;
    rc->phases.enter = am335x_evm_keys_reset_enter;
    rc->phases.hold = am335x_evm_keys_reset_hold;
}

static const TypeInfo am335x_evm_keys_info = {
    .name = TYPE_AM335X_EVM_KEYS,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AM335xEvmKeysState),
    .instance_init = am335x_evm_keys_init,
    .class_init = am335x_evm_keys_class_init,
};

static void am335x_evm_keys_register_types(void)
{
    type_register_static(&am335x_evm_keys_info);
}

type_init(am335x_evm_keys_register_types)
