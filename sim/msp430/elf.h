// SPDX-License-Identifier: MIT
// The firmware image: an ELF32 MSP430 executable. Every header field is checked
// against the file before it is used, so any file gives a one-line error at worst.
#ifndef MSP430SIM_ELF_H
#define MSP430SIM_ELF_H

#include <stdint.h>

#define ELF_MAX_CODE 32 // executable sections whose bounds elf_load keeps (--protect-code)

// What the loader learnt from the image besides its contents.
typedef struct {
    uint32_t entry;       // e_entry (the reset vector at 0xFFFE wins if the image sets it)
    uint32_t stack_floor; // lowest legal SP once SP is above it: the symbol __stack_low,
                          // else the end of the writable sections in RAM; 0 if none
    uint32_t code_lo[ELF_MAX_CODE], code_hi[ELF_MAX_CODE]; // executable sections [lo, hi)
    unsigned n_code;      // how many there are (may exceed ELF_MAX_CODE: only the first kept)
} elf_info_t;

// Copies the allocated sections into memory. 0, or an exit status after a one-line
// message on stderr: ST_LOAD (unreadable, malformed, truncated, not MSP430) or
// ST_MAP (a section outside RAM/FRAM).
int elf_load(const char *path, elf_info_t *info);

// A code symbol (STT_FUNC or STT_NOTYPE, defined in an executable section): name,
// address, st_size (0 if the assembly gave none), is_func (STT_FUNC), is_global
// (STB_GLOBAL or STB_WEAK), and the end address of its section.
typedef void elf_sym_fn(const char *name, uint32_t addr, uint32_t size, int is_func, int is_global,
                        uint32_t sec_end);

// Calls fn for each code symbol of the image; 0, or ST_LOAD after a message on stderr.
int elf_symbols(const char *path, elf_sym_fn *fn);

#endif
