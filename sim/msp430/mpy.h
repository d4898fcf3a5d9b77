// SPDX-License-Identifier: MIT
// The hardware multiplier (MPY32, or the 16-bit one with --mpy 16) at 0x04C0.
#ifndef MSP430SIM_MPY_H
#define MSP430SIM_MPY_H

#include <stddef.h>
#include <stdint.h>

#define MPY_BASE 0x04C0u
#define MPY_END  0x04F0u

void mpy_reset(void);
const uint8_t *mpy_state(size_t *n); // the whole multiplier state (snap.c), padding zeroed by mpy_reset
// off: offset from MPY_BASE (even); byte: a .B access. At cycle M.now.
uint16_t mpy_read(uint32_t off, int byte);
void mpy_write(uint32_t off, uint16_t v, int byte);

#endif
