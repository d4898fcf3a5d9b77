// SPDX-License-Identifier: MIT
// --profile: cycles per function symbol, exclusive ("self") and inclusive, and calls.
#ifndef MSP430SIM_PROFILE_H
#define MSP430SIM_PROFILE_H

#include <stdint.h>

// One code symbol of the image (the elf_sym_fn of elf.h); before profile_start.
void profile_symbol(const char *name, uint32_t addr, uint32_t size, int is_func, int is_global,
                    uint32_t sec_end);
// Builds the address map and opens the output (path NULL: stderr), once the reset PC
// is in M.r[0]; sets M.profile. 0, or -1 if the file cannot be written.
int profile_start(const char *path);
// After each instruction: op its first word, cycles its cost (already in M.cyc).
void profile_step(uint16_t op, int cycles);
// Writes the table (at the end of the run, also after a simulator error).
void profile_report(void);

#endif
