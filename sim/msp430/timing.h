// SPDX-License-Identifier: MIT
// CPUXV2 instruction cycles (timing.c; the table in docs/MSP430_TIMING.md).
#ifndef MSP430SIM_TIMING_H
#define MSP430SIM_TIMING_H

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

#endif
