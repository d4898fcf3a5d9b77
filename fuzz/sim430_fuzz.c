/* SPDX-License-Identifier: MIT */
/* libFuzzer harness of the MSP430X simulator's decoder and executor (sim/msp430/, minus
 * main.c). The input is a machine state and a program: 16 registers (20 bits each, PC
 * and SP forced even as the CPU keeps them), a control byte (multiplier, where the code
 * goes), then instruction words, copied to the code address and, as data, to the
 * bottom of RAM and to FRAM above 64 KB. The run is bounded by a small cycle budget.
 *
 * Documented behaviour (docs/MSP430_TIMING.md, "Simulator errors"): every input ends
 * either with the program writing SIM_EXIT or with one simulator error of status
 * 201..206 or 209 (illegal encodings: 201). Anything else (another status, a register
 * wider than 20 bits, an odd PC, a crash or a sanitizer report) is a finding: abort().
 *
 * Build and run: make BUILD=... $BUILD/fuzz/bin/sim430 (mk/fuzz.mk), then
 *   $BUILD/fuzz/bin/sim430 -max_total_time=60 fuzz/corpus/sim430   (or `make fuzz`). */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "fault.h"
#include "fuzz.h"
#include "mem.h"
#include "mpy.h"
#include "sim.h"

#define BUDGET 20000 /* cycles per input: thousands of instructions, loops included */

static jmp_buf back;
static int fault_status;

static void on_fault(int status)
{
    fault_status = status;
    longjmp(back, 1);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (!freopen("/dev/null", "w", stdout)) abort(); /* the programs' console output */
    cpu_init();
    sim_fault_hook = on_fault;
    return 0;
}

/* Clears what a previous input could have written (RAM, FRAM, information FRAM). */
static void reset_memory(void)
{
    memset(mem + 0x01800, 0, 0x00200);
    memset(mem + 0x01C00, 0, 0x00800);
    memset(mem + 0x04400, 0, 0x14000 - 0x04400);
}

static void place(uint32_t addr, uint32_t limit, const uint8_t *p, size_t n)
{
    size_t k = n < limit - addr ? n : limit - addr;
    memcpy(mem + addr, p, k);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = { data, size };
    memset(&M, 0, sizeof M);
    reset_memory();
    mem_init();
    for (int i = 0; i < 16; i++) {
        uint32_t v = fz_u8(&in) | (fz_u8(&in) << 8) | (fz_u8(&in) << 16);
        M.r[i] = v & ADDR_MASK;
    }
    uint32_t ctl = fz_u8(&in);
    M.mpy16 = ctl & 1;
    mpy_reset();
    static const uint32_t code_at[4] = { 0x04400, 0x0C000, 0x10000, 0x01C00 };
    uint32_t pc = code_at[(ctl >> 1) & 3];
    place(pc, pc == 0x01C00 ? 0x02400 : 0x14000, in.p, in.n); /* the program */
    place(0x01C00, 0x02400, in.p, in.n);                      /* and as data */
    place(0x13000, 0x14000, in.p, in.n);
    M.r[0] = pc;
    M.r[1] &= ~1u;
    M.r[3] = 0;
    M.stack_limit = (ctl & 8) ? 0x01C00 : 0;
    M.stack_floor = (ctl & 16) ? 0x01D00 : 0;
    M.max_cycles = BUDGET;
    M.sp_min = 0xFFFFFFFFu;
    fault_status = 0;
    if (setjmp(back) == 0) cpu_run();
    int st = fault_status;
    if (st == 0 && !M.halted) abort(); /* cpu_run returns only after SIM_EXIT */
    if (st != 0 && !((st >= ST_ILLEGAL && st <= ST_MAXCYC) || st == ST_HANG)) abort();
    for (int i = 0; i < 16; i++)
        if (M.r[i] > ADDR_MASK) abort();
    if (M.r[0] & 1u) abort(); /* PC is always even */
    if (st == ST_MAXCYC && M.cyc < BUDGET) abort();
    return 0;
}
