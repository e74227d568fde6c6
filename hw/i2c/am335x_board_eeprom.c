/*
 * TI AM335x board-ID EEPROM
 *
 * TI's AM335x boards carry an I2C EEPROM on I2C0 at 0x50 (an AT24C256 on
 * the BeagleBone Black and the GP EVM) whose first bytes identify the
 * board.  U-Boot's SPL reads it before anything else to choose the DDR
 * setup and the device tree; Linux exposes it through at24.  The layout is
 * the one of U-Boot's struct ti_am_eeprom (board/ti/common/board_detect.h):
 *
 *   0x00  header    0xEE3355AA, little-endian
 *   0x04  name      8 characters, e.g. "A335BNLT"
 *   0x0C  version   4 characters, e.g. "000C"
 *   0x10  serial    12 characters
 *   0x1C  config    32 bytes
 *   0x3C  mac_addr  3 x 6 bytes
 *
 * The EEPROM itself is QEMU's at24c-eeprom; this file only builds its
 * initial contents.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "hw/i2c/am335x_board_eeprom.h"
#include "hw/nvram/eeprom_at24c.h"

/* AT24C256: 32 KiB, two address bytes */
#define BOARD_EEPROM_SIZE       (32 * KiB)

#define TI_EEPROM_MAGIC         0xee3355aa
#define TI_EEPROM_NAME_OFFSET   0x04
#define TI_EEPROM_NAME_LEN      8
#define TI_EEPROM_REV_OFFSET    0x0c
#define TI_EEPROM_REV_LEN       4
#define TI_EEPROM_SERIAL_OFFSET 0x10
#define TI_EEPROM_SERIAL_LEN    12

/* An erased EEPROM byte */
#define EEPROM_ERASED           0xff

static bool am335x_board_eeprom_put(uint8_t *rom, unsigned offset,
                                    unsigned len, const char *field,
                                    const char *value, Error **errp)
{
    size_t n;

    if (!value) {
        return true;
    }
    n = strlen(value);
    if (n > len) {
        error_setg(errp, "board EEPROM: %s \"%s\" is longer than %u "
                   "characters", field, value, len);
        return false;
    }
    memset(rom + offset, 0, len);
    memcpy(rom + offset, value, n);
    return true;
}

I2CSlave *am335x_board_eeprom_create(I2CBus *bus, uint8_t addr,
                                     const char *board_name,
                                     const char *version,
                                     const char *serial, Error **errp)
{
    g_autofree uint8_t *rom = g_malloc(BOARD_EEPROM_SIZE);

    if (!board_name || !version) {
        error_setg(errp, "board EEPROM: a board name and a version are "
                   "required");
        return NULL;
    }
    memset(rom, EEPROM_ERASED, BOARD_EEPROM_SIZE);
    stl_le_p(rom, TI_EEPROM_MAGIC);
    if (!am335x_board_eeprom_put(rom, TI_EEPROM_NAME_OFFSET,
                                 TI_EEPROM_NAME_LEN, "board name",
                                 board_name, errp) ||
        !am335x_board_eeprom_put(rom, TI_EEPROM_REV_OFFSET,
                                 TI_EEPROM_REV_LEN, "version", version,
                                 errp) ||
        !am335x_board_eeprom_put(rom, TI_EEPROM_SERIAL_OFFSET,
                                 TI_EEPROM_SERIAL_LEN, "serial", serial,
                                 errp)) {
        return NULL;
    }
    /*
     * at24c-eeprom copies the initial contents into its own memory when it
     * is realized, which at24c_eeprom_init_rom() does before returning; the
     * buffer is not used after that.
     */
    return at24c_eeprom_init_rom(bus, addr, BOARD_EEPROM_SIZE, rom,
                                 BOARD_EEPROM_SIZE);
}
