// SPDX-License-Identifier: MIT
// MSP430FR5969 memory map and the peripheral slow path (simulator control, MPY32,
// generic peripheral registers).
#include <string.h>

#include "fault.h"
#include "mem.h"
#include "mpy.h"
#include "sim.h"

// Plain registers for peripherals we do not model (writes kept, reads return them).
static uint8_t periph_regs[0x1000];

const uint8_t *periph_state(size_t *n)
{
    *n = sizeof periph_regs;
    return periph_regs;
}

uint8_t code_page[MEM_SIZE >> 8];

static const uint32_t *code_lo, *code_hi;
static unsigned n_code;

void code_protect(const uint32_t *lo, const uint32_t *hi, unsigned n)
{
    code_lo = lo;
    code_hi = hi;
    n_code = n;
    for (unsigned k = 0; k < n; k++)
        for (uint32_t p = lo[k] >> 8; lo[k] < hi[k] && p <= ((hi[k] - 1) >> 8); p++) code_page[p] = 1;
}

void code_write_check(uint32_t a, uint32_t n)
{
    for (unsigned i = 0; i < n_code; i++)
        if (a < code_hi[i] && a + n > code_lo[i])
            sim_fault(ST_CODEWRITE, "write to 0x%05x in the image's code (--protect-code)", a);
}

static void map(uint32_t lo, uint32_t hi, int kind)
{
    for (uint32_t p = lo >> 8; p < (hi >> 8); p++) page_kind[p] = (uint8_t)kind;
}

// From /usr/msp430/lib/ldscripts/msp430fr5969/memory.x and the device header.
void mem_init(void)
{
    memset(page_kind, PG_NONE, sizeof page_kind);
    memset(periph_regs, 0, sizeof periph_regs);
    map(0x00000, 0x01000, PG_PERIPH); // SFRs and peripherals (0x0FF0: simulator control)
    map(0x01000, 0x01800, PG_ROM);    // bootloader (BSL) ROM
    map(0x01800, 0x01A00, PG_FRAM);   // information memory (FRAM)
    map(0x01A00, 0x01B00, PG_ROM);    // device descriptor (TLV)
    map(0x01C00, 0x02400, PG_RAM);    // 2 KB SRAM
    map(0x04400, 0x10000, PG_FRAM);   // FRAM incl. interrupt vectors 0xFF80-0xFFFF
    map(0x10000, 0x14000, PG_FRAM);   // FRAM above 64 KB
}


static uint16_t sim_ctl_read(uint32_t a)
{
    switch (a & ~1u) {
    case SIM_CYCLES_LO: {
        uint32_t c = (uint32_t)M.now;
        M.cyc_hi_latch = (uint16_t)(c >> 16);
        return (uint16_t)c;
    }
    case SIM_CYCLES_HI: return M.cyc_hi_latch;
    case SIM_STACK_LIMIT: return (uint16_t)M.stack_limit;
    default: return 0;
    }
}

static void sim_ctl_write(uint32_t a, uint16_t v)
{
    switch (a & ~1u) {
    case SIM_CONSOLE:
        putchar(v & 0xFF);
        M.console_bytes++;
        break;
    case SIM_EXIT:
        M.halted = 1;
        M.exit_status = v & 0xFF;
        break;
    case SIM_STACK_LIMIT: // the program's own limit replaces the one from the image
        M.stack_limit = v;
        M.stack_floor = 0;
        M.stack_auto = 0;
        break;
    default: break; // SIM_CYCLES_* are read-only
    }
}

static int is_sim_ctl(uint32_t a) { return a >= SIM_CONSOLE && a < SIM_STACK_LIMIT + 2; }
static int is_mpy(uint32_t a) { return a >= MPY_BASE && a < MPY_END; }

static void check_kind_read(uint32_t a)
{
    int k = page_kind[a >> 8];
    if (k == PG_NONE) sim_fault(ST_MEM, "read from unmapped address 0x%05x", a);
}

static void check_kind_write(uint32_t a)
{
    int k = page_kind[a >> 8];
    if (k == PG_NONE) sim_fault(ST_MEM, "write to unmapped address 0x%05x", a);
    if (k == PG_ROM) sim_fault(ST_MEM, "write to ROM at 0x%05x", a);
}

uint16_t slow_read16(uint32_t a)
{
    check_kind_read(a);
    if (page_kind[a >> 8] == PG_ROM) return (uint16_t)(mem[a] | (mem[a + 1] << 8));
    if (is_sim_ctl(a)) return sim_ctl_read(a);
    if (is_mpy(a)) return mpy_read(a - MPY_BASE, 0);
    return (uint16_t)(periph_regs[a] | (periph_regs[a + 1] << 8));
}

uint8_t slow_read8(uint32_t a)
{
    check_kind_read(a);
    if (page_kind[a >> 8] == PG_ROM) return mem[a];
    if (is_sim_ctl(a)) return (uint8_t)(sim_ctl_read(a) >> ((a & 1u) * 8));
    if (is_mpy(a)) return (uint8_t)(mpy_read((a & ~1u) - MPY_BASE, 1) >> ((a & 1u) * 8));
    return periph_regs[a];
}

void slow_write16(uint32_t a, uint16_t v)
{
    check_kind_write(a);
    if (is_sim_ctl(a)) {
        sim_ctl_write(a, v);
        return;
    }
    if (is_mpy(a)) {
        mpy_write(a - MPY_BASE, v, 0);
        return;
    }
    periph_regs[a] = (uint8_t)v;
    periph_regs[a + 1] = (uint8_t)(v >> 8);
}

void slow_write8(uint32_t a, uint8_t v)
{
    check_kind_write(a);
    if (is_sim_ctl(a)) {
        if ((a & 1u) == 0) sim_ctl_write(a, v);
        return;
    }
    if (is_mpy(a)) {
        // Byte writes go to the low byte of the register (8-bit operands).
        if (a & 1u) sim_fault(ST_MPY, "byte write to the high byte of multiplier register 0x%05x", a);
        mpy_write(a - MPY_BASE, v, 1);
        return;
    }
    periph_regs[a] = v;
}
