/*
 * TI AM335x board-ID EEPROM (an AT24C256 holding TI's board header)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_I2C_AM335X_BOARD_EEPROM_H
#define HW_I2C_AM335X_BOARD_EEPROM_H

#include "hw/i2c/i2c.h"

/* The board EEPROM's usual place: I2C0, address 0x50 */
#define AM335X_BOARD_EEPROM_ADDR    0x50

/*
 * Creates a 32 KiB AT24C256 ("at24c-eeprom", 2-byte addressing) at @addr
 * on @bus, holding TI's AM335x board header: the magic 0xEE3355AA, then
 * @board_name (at most 8 characters: "A335BNLT" for a BeagleBone Black,
 * "A33515BB" for the GP EVM), @version (at most 4, e.g. "000C" for a
 * BeagleBone Black rev C) and @serial (at most 12, or NULL for none).
 * Shorter strings are NUL-padded; the configuration field, the MAC address
 * fields and the rest of the EEPROM are erased (0xFF), as on the boards.
 * Returns NULL and sets @errp if a string does not fit.
 */
I2CSlave *am335x_board_eeprom_create(I2CBus *bus, uint8_t addr,
                                     const char *board_name,
                                     const char *version,
                                     const char *serial, Error **errp);

#endif
