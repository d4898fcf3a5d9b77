// SPDX-License-Identifier: MIT
// msp430sim: the state of the MSP430X (CPUXV2) simulator of an MSP430FR5969, shared
// by every module: one global machine `M`, the memory and its page map, the exit
// statuses. Data only: the bottom of the include graph (docs/MSP430_TIMING.md has
// the cycle table and the map; sim.c defines the state).
#ifndef MSP430SIM_H
#define MSP430SIM_H

#include <stdint.h>
#include <stdio.h>

#define MEM_SIZE  0x100000u /* 20-bit address space */
#define ADDR_MASK 0xFFFFFu

// Page kinds (256-byte pages).
enum { PG_NONE = 0, PG_RAM, PG_FRAM, PG_ROM, PG_PERIPH };

// Exit statuses of the simulator itself; programs should use 0..199.
enum {
    ST_ILLEGAL = 201,   // illegal or reserved instruction
    ST_MEM = 202,       // access outside RAM/FRAM/peripherals, or write to ROM
    ST_UNALIGNED = 203, // word access at an odd address
    ST_STACK = 204,     // SP below SIM_STACK_LIMIT, or below the image's data (stack_floor)
    ST_MPY = 205,       // multiplier result read before it is ready / absent register
    ST_MAXCYC = 206,    // cycle budget (--max-cycles, default SIM_DEFAULT_MAX_CYCLES) spent
    ST_LOAD = 207,      // ELF unreadable, malformed, truncated or not MSP430
    ST_USAGE = 208,     // bad command line
    ST_HANG = 209,      // jump-to-self or CPUOFF with no interrupt source
    ST_MAP = 210,       // a section of the image lies outside RAM/FRAM
    ST_POWERCUT = 211,  // --power-cut: the power was cut (nvm.h)
    ST_CONVERGED = 212, // a faulted run's state equals the unfaulted run's (snap.h)
    ST_CODEWRITE = 213, // --protect-code: a write into the image's code (mem.h)
};

// The default cycle budget: 4.3x the longest run of the repository's firmware (the
// mpy16-Os test suite, 4.64e9 cycles, 32 s of simulation), 42 minutes at 8 MHz.
#define SIM_DEFAULT_MAX_CYCLES 20000000000ull

// Status register bits.
#define SR_C 0x0001u
#define SR_Z 0x0002u
#define SR_N 0x0004u
#define SR_GIE 0x0008u
#define SR_CPUOFF 0x0010u
#define SR_V 0x0100u

typedef struct {
    uint32_t r[16];        // R0..R15, 20 bits each
    uint64_t cyc;          // cycles completed before the current instruction
    uint64_t now;          // cycle at which the current data access happens
    uint64_t insns;        // instructions executed
    uint64_t max_cycles;   // 0 = no limit
    uint32_t pc0;          // address of the current instruction
    uint32_t stack_limit;  // SIM_STACK_LIMIT (0 = off), or stack_floor once armed
    uint32_t stack_floor;  // from the ELF (elf_info_t); armed when SP first reaches it
    int stack_auto;        // 1: stack_limit came from stack_floor, not the program
    uint32_t sp_min, sp_max;
    uint16_t cyc_hi_latch;
    uint64_t console_bytes; // bytes written to SIM_CONSOLE (snap.h compares it)
    int mpy16;             // 1: only the 16-bit multiplier registers exist
    int trace;             // 1: hash (and maybe write) the execution trace
    FILE *trace_file;
    uint64_t trace_hash;   // FNV-1a 64
    int profile;           // 1: attribute cycles to functions (profile.c)
    int halted;
    int exit_status;
    int want_cycles, want_stack, want_stats; // reports printed at exit, also after errors
    double t0;
} machine_t;

extern machine_t M;
extern uint8_t mem[MEM_SIZE];
extern uint8_t page_kind[MEM_SIZE >> 8];

#endif
