// SPDX-License-Identifier: MIT
// The machine state declared in sim.h, defined once here so that no module that
// reads it depends on another module's code.
#include "sim.h"

machine_t M;
uint8_t mem[MEM_SIZE];
uint8_t page_kind[MEM_SIZE >> 8];
