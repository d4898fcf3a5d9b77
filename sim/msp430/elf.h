// SPDX-License-Identifier: MIT
// The firmware image: an ELF32 MSP430 executable.
#ifndef MSP430SIM_ELF_H
#define MSP430SIM_ELF_H

#include <stdint.h>

// Copies the allocated sections into memory; 0, or -1 with a message on stderr.
int elf_load(const char *path, uint32_t *entry);

// A code symbol (STT_FUNC or STT_NOTYPE, defined in an executable section): name,
// address, st_size (0 if the assembly gave none), is_func (STT_FUNC), is_global
// (STB_GLOBAL or STB_WEAK), and the end address of its section.
typedef void elf_sym_fn(const char *name, uint32_t addr, uint32_t size, int is_func, int is_global,
                        uint32_t sec_end);

// Calls fn for each code symbol of the image; 0, or -1 with a message on stderr.
int elf_symbols(const char *path, elf_sym_fn *fn);

#endif
