// SPDX-License-Identifier: MIT
// msp430sim: shared state of the MSP430X (CPUXV2) simulator of an MSP430FR5969.
// One global machine `M`; the hot memory paths are inline here so the CPU loop
// compiles them in place. docs/MSP430_TIMING.md has the cycle table and the map.
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
    ST_STACK = 204,     // SP below SIM_STACK_LIMIT
    ST_MPY = 205,       // multiplier result read before it is ready / absent register
    ST_MAXCYC = 206,    // --max-cycles reached
    ST_LOAD = 207,      // ELF could not be loaded
    ST_USAGE = 208,     // bad command line
    ST_HANG = 209,      // jump-to-self or CPUOFF with no interrupt source
};

// Simulator-control peripheral (team contract).
#define SIM_CONSOLE     0x0FF0u
#define SIM_EXIT        0x0FF2u
#define SIM_CYCLES_LO   0x0FF4u
#define SIM_CYCLES_HI   0x0FF6u
#define SIM_STACK_LIMIT 0x0FF8u

#define MPY_BASE 0x04C0u
#define MPY_END  0x04F0u

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
    uint32_t stack_limit;  // SIM_STACK_LIMIT (0 = off)
    uint32_t sp_min, sp_max;
    uint16_t cyc_hi_latch;
    int mpy16;             // 1: only the 16-bit multiplier registers exist
    int trace;             // 1: hash (and maybe write) the execution trace
    FILE *trace_file;
    uint64_t trace_hash;   // FNV-1a 64
    int halted;
    int exit_status;
    int want_cycles, want_stack, want_stats; // reports printed at exit, also after errors
    double t0;
} machine_t;

extern machine_t M;
extern uint8_t mem[MEM_SIZE];
extern uint8_t page_kind[MEM_SIZE >> 8];

// mem.c
void mem_init(void);
void sim_fault(int status, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
uint16_t slow_read16(uint32_t a);
uint8_t slow_read8(uint32_t a);
void slow_write16(uint32_t a, uint16_t v);
void slow_write8(uint32_t a, uint8_t v);
void trace_event(uint32_t kind, uint32_t addr);
void trace_finish(void);

// mpy.c
void mpy_reset(void);
uint16_t mpy_read(uint32_t off, int byte);
void mpy_write(uint32_t off, uint16_t v, int byte);

// main.c
void print_reports(void);

// cpu.c
void cpu_init(void);
void cpu_run(void);

// elf.c
int elf_load(const char *path, uint32_t *entry);

// timing.c (docs/MSP430_TIMING.md)
enum { SM_REG, SM_IND, SM_INC, SM_IMM, SM_IDX };   // source classes
enum { DM_REG, DM_PC, DM_MEM };                     // destination classes
enum { F2_REG, F2_IND, F2_INC, F2_IMM, F2_IDX, F2_SYM, F2_ABS }; // format II modes
int t_fmt1(int sm, int dm, int movbitcmp, int movaddsub);
int t_fmt1x(int sm, int dm, int is_a, int movbitcmp, int movaddsub, int rpt);
int t_fmt2(int op, int mode);                  // op: 0 shift/swpb/sxt, 1 push, 2 call
int t_fmt2x(int op, int mode, int is_a, int rpt, int sp_index); // op: 0 rrx, 1 pushx, 2 calla
int t_addr(int op, int sm, int dm);            // op: 0 mova, 1 cmpa/adda/suba
#define T_JUMP 2
#define T_RETI 5

// Trace kinds.
#define TR_PC 0u
#define TR_RD 1u
#define TR_WR 2u

static inline uint16_t rd16(uint32_t a)
{
    a &= ADDR_MASK;
    if (a & 1u) sim_fault(ST_UNALIGNED, "unaligned word read at 0x%05x", a);
    if (M.trace) trace_event(TR_RD, a);
    int k = page_kind[a >> 8];
    if (k == PG_RAM || k == PG_FRAM) return (uint16_t)(mem[a] | (mem[a + 1] << 8));
    return slow_read16(a);
}

static inline uint8_t rd8(uint32_t a)
{
    a &= ADDR_MASK;
    if (M.trace) trace_event(TR_RD, a);
    int k = page_kind[a >> 8];
    if (k == PG_RAM || k == PG_FRAM) return mem[a];
    return slow_read8(a);
}

static inline void wr16(uint32_t a, uint16_t v)
{
    a &= ADDR_MASK;
    if (a & 1u) sim_fault(ST_UNALIGNED, "unaligned word write at 0x%05x", a);
    if (M.trace) trace_event(TR_WR, a);
    int k = page_kind[a >> 8];
    if (k == PG_RAM || k == PG_FRAM) {
        mem[a] = (uint8_t)v;
        mem[a + 1] = (uint8_t)(v >> 8);
        return;
    }
    slow_write16(a, v);
}

static inline void wr8(uint32_t a, uint8_t v)
{
    a &= ADDR_MASK;
    if (M.trace) trace_event(TR_WR, a);
    int k = page_kind[a >> 8];
    if (k == PG_RAM || k == PG_FRAM) {
        mem[a] = v;
        return;
    }
    slow_write8(a, v);
}

// 20-bit data in memory: two words, bits 19:16 in the low nibble of the second.
static inline uint32_t rd20(uint32_t a)
{
    uint32_t lo = rd16(a);
    return lo | ((uint32_t)(rd16(a + 2) & 0xFu) << 16);
}

static inline void wr20(uint32_t a, uint32_t v)
{
    wr16(a, (uint16_t)v);
    wr16(a + 2, (uint16_t)((v >> 16) & 0xFu));
}

#endif
