/*
 * What the AM335x boards share: the SoC, DDR and the Linux boot path.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef AM335X_BOARD_H
#define AM335X_BOARD_H

#include "hw/boards.h"
#include "hw/arm/am335x_soc.h"

/* Creates and realizes the SoC, maps DDR and loads -kernel/-dtb/-initrd. */
AM335xSoCState *am335x_board_init(MachineState *machine);

/* Machine-class defaults common to both boards. */
void am335x_board_class_init(MachineClass *mc);

#endif
