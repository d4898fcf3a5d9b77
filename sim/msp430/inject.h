// SPDX-License-Identifier: MIT
// Fault injection (--fault-*, docs/FAULTS.md): one fault at one dynamic instruction of
// a window of the run: skip it, flip a bit of the register it wrote, or flip a bit of
// the first word it loaded. Also counts (and lists) the window's instructions so a
// campaign can enumerate them.
#ifndef MSP430SIM_INJECT_H
#define MSP430SIM_INJECT_H

#include <stdint.h>
#include <stdio.h>

// Fault kinds.
enum { INJ_NONE = 0, INJ_SKIP, INJ_FLIP, INJ_LOAD, INJ_CUT }; // INJ_CUT: power cut (nvm.c)
// Bits of inj_mem, nonzero only while the current instruction is watched: the memory
// and register hooks of mem.h / cpu.c test this one global, so an unfaulted run pays a
// predictable branch per access.
#define INJ_M_NOWRITE 1 // the instruction is skipped: its writes are dropped
#define INJ_M_LOAD 2    // flip inj_load_bit of the next value read
#define INJ_M_WATCH 4   // record the register written and whether memory is read
#define INJ_REG_DEST (-1)

#define INJ_MAX_RANGES 16

typedef struct {
    int enabled;             // any --fault-* option given
    uint32_t begin, end;     // window: from the first instruction at begin up to the first at end
    int have_window;
    uint32_t lo[INJ_MAX_RANGES], hi[INJ_MAX_RANGES]; // counted PCs (none: all)
    int nranges;
    int state;               // 0 before the window, 1 inside, 2 after
    uint64_t count;          // counted instructions so far
    int kind;                // INJ_*
    uint64_t at;             // index (from 0) of the faulted counted instruction
    int reg, bit;            // INJ_FLIP: register (INJ_REG_DEST = the one written), bit
    int want_count;          // print "fault-window: N" at exit
    FILE *list;              // --fault-list: "index pc dest load" per counted instruction
    int done;                // the fault happened (or was impossible: see msg)
} inject_t;

extern inject_t INJ;
extern int inj_mem;          // INJ_M_* for the current instruction
extern uint32_t inj_pc_next; // address after the current instruction's last fetched word
extern int inj_last_reg;     // register set by the current instruction (-1: none)
extern int inj_loaded;       // the current instruction read data memory
extern int inj_load_bit;

// Called by cpu_run around every instruction when INJ.enabled: before returns nonzero
// if `after` must run (the instruction is counted and watched).
int inject_before(uint32_t pc);
void inject_after(void);
uint32_t inject_load(uint32_t v, int bits); // flips the bit once, then disarms
void inject_finish(void);                   // the count line, close the list

// --fault-batch IN OUT: many faults from one run. IN has one fault per line, "skip N",
// "flip N BIT" (the register written) or "load N BIT". The run itself is unfaulted; on
// reaching counted instruction N it forks one child per fault at N, which injects it
// and runs on to its end with its console on a pipe (stderr discarded). OUT gets, per
// fault in IN's order, "line status nbytes\n" and the console bytes (status: the child's
// exit status, 128 + signal, or -1 if N was never reached). ref_cycles (0: none) is the
// unfaulted run's length: a child then stops, as a hang, after 4 times the cycles the
// unfaulted run had left from its fault point plus 1,000,000 (what a campaign allows
// a faulted run; a fixed --max-cycles would let a late fault loop as long as a whole
// X25519). Returns NULL, or a message.
const char *inject_batch_open(const char *in, const char *out, uint64_t ref_cycles);

#endif
