// SPDX-License-Identifier: MIT
// The leakage model (--leak FILE, docs/SIDE_CHANNELS.md "Leakage model (MSP430X ISS)"):
// one sample per executed instruction inside a window, the sum of the Hamming weight
// of every value the instruction writes to a register or a memory word and the Hamming
// distance between successive values on the data bus (every data read and write), plus
// optional Gaussian noise. Batch mode (--leak-batch) runs the image once per record of
// an input file, patched into memory, after resetting CPU, memory and peripherals.
#ifndef MSP430SIM_LEAK_H
#define MSP430SIM_LEAK_H

#include <stdint.h>
#include <stdio.h>

typedef struct {
    const char *path;        // --leak FILE: samples, little-endian float32 (or uint8)
    int u8;                  // --leak-u8: one byte per sample, rounded, saturated at 255
    uint32_t begin, end;     // --leak-window B:E (have_window); end 0 = no end
    int have_window;
    uint64_t max_samples;    // --leak-samples N: per run/record (batch: exactly N, zero padded)
    double sigma;            // --leak-noise SIGMA: Gaussian noise standard deviation
    uint64_t seed;           // --leak-seed S: record i's noise comes from seed + i
    const char *batch;       // --leak-batch FILE: records to patch, one run each
    uint32_t patch_addr;     // --leak-patch ADDR:LEN: where each record goes, its length
    uint32_t patch_len;
    uint64_t full;           // --leak-full K: records < K run to the end (default all)
} leak_opts_t;

extern leak_opts_t LEAK;

// Hot-path state, read by mem.h and cpu.c: leak_on is nonzero only when --leak is given.
extern int leak_on;
extern uint32_t leak_acc;  // this instruction's sample so far
extern uint32_t leak_bus;  // the last value on the data bus

static inline uint32_t leak_hw(uint32_t v) { return (uint32_t)__builtin_popcount(v); }

// A data access: the bus changes from its last value to v.
static inline void leak_data(uint32_t v)
{
    leak_acc += leak_hw(leak_bus ^ v);
    leak_bus = v;
}

// A write of v to a register (v already cut to the register's width).
static inline void leak_reg(uint32_t v) { leak_acc += leak_hw(v); }

// A write of v to memory: its weight and the bus transition.
static inline void leak_write(uint32_t v)
{
    leak_acc += leak_hw(v);
    leak_data(v);
}

// After each instruction (pc0 = its address): window bookkeeping, one sample if
// inside. May set M.halted to end a run whose window is complete (batch mode).
void leak_step(uint32_t pc0);

// Runs the booted image once, or (--leak-batch) once per record: memory back to the
// loaded image, the record patched in, boot() for the reset state of CPU and
// peripherals. Returns the run's exit status (batch: 0 after the last record; a
// simulator error ends the process as in any run).
int leak_main(void (*boot)(void));

#endif
