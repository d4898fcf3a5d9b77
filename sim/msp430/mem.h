// SPDX-License-Identifier: MIT
// The MSP430FR5969 memory map: RAM/FRAM accesses inline (the CPU loop compiles them
// in place), everything else through the slow path of mem.c (simulator control,
// multiplier, other peripherals, faults).
#ifndef MSP430SIM_MEM_H
#define MSP430SIM_MEM_H

#include <stddef.h>
#include <stdint.h>

#include "fault.h"
#include "inject.h"
#include "leak.h"
#include "sim.h"
#include "trace.h"

// Simulator-control peripheral (team contract).
#define SIM_CONSOLE     0x0FF0u
#define SIM_EXIT        0x0FF2u
#define SIM_CYCLES_LO   0x0FF4u
#define SIM_CYCLES_HI   0x0FF6u
#define SIM_STACK_LIMIT 0x0FF8u

void mem_init(void);

// --protect-code: a write into the image's executable sections stops the run
// (ST_CODEWRITE), as on a part whose MPU gives the code segment no write access
// (SLAU367P 9.3, MPUSEGxWE = 0): there the write is not executed and an NMI, or with
// MPUSEGxVS = 1 a PUC, follows (9.4.2), so a stray write (after a fault, say) cannot
// change the code. Exact section bounds; a device's borders are 1 KB steps.
// code_page[p] is 1 for the 256-byte pages holding protected bytes (checked inline on
// every write; code_write_check then looks at the byte ranges).
extern uint8_t code_page[MEM_SIZE >> 8];
// Protects the n ranges [lo[k], hi[k]) (the loader's elf_info_t, read from then on:
// the arrays must outlive the run).
void code_protect(const uint32_t *lo, const uint32_t *hi, unsigned n);
void code_write_check(uint32_t a, uint32_t n);        // a write of n bytes at a
const uint8_t *periph_state(size_t *n); // the plain peripheral registers (snap.c)
uint16_t slow_read16(uint32_t a);
uint8_t slow_read8(uint32_t a);
void slow_write16(uint32_t a, uint16_t v);
void slow_write8(uint32_t a, uint8_t v);

static inline uint16_t rd16(uint32_t a)
{
    a &= ADDR_MASK;
    if (a & 1u) sim_fault(ST_UNALIGNED, "unaligned word read at 0x%05x", a);
    if (M.trace) trace_event(TR_RD, a);
    int k = page_kind[a >> 8];
    uint16_t v = (k == PG_RAM || k == PG_FRAM) ? (uint16_t)(mem[a] | (mem[a + 1] << 8)) : slow_read16(a);
    if (inj_mem) v = (uint16_t)inject_load(v, 16); // fault injection (inject.h)
    if (leak_on) leak_data(v);                      // leakage model (leak.h)
    return v;
}

static inline uint8_t rd8(uint32_t a)
{
    a &= ADDR_MASK;
    if (M.trace) trace_event(TR_RD, a);
    int k = page_kind[a >> 8];
    uint8_t v = (k == PG_RAM || k == PG_FRAM) ? mem[a] : slow_read8(a);
    if (inj_mem) v = (uint8_t)inject_load(v, 8);
    if (leak_on) leak_data(v);
    return v;
}

static inline void wr16(uint32_t a, uint16_t v)
{
    if (inj_mem & INJ_M_NOWRITE) return; // a skipped instruction writes nothing
    a &= ADDR_MASK;
    if (a & 1u) sim_fault(ST_UNALIGNED, "unaligned word write at 0x%05x", a);
    if (M.trace) trace_event(TR_WR, a);
    if (leak_on) leak_write(v);
    if (code_page[a >> 8]) code_write_check(a, 2);
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
    if (inj_mem & INJ_M_NOWRITE) return; // a skipped instruction writes nothing
    a &= ADDR_MASK;
    if (M.trace) trace_event(TR_WR, a);
    if (leak_on) leak_write(v);
    if (code_page[a >> 8]) code_write_check(a, 1);
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
