// SPDX-License-Identifier: MIT
// CPUXV2 cycle counts, transcribed from the one table in docs/MSP430_TIMING.md
// (MSP430FR58xx/59xx user's guide SLAU367 / FR2xx-4xx SLAU445, chapter "CPUX",
// section "Instruction Cycles and Lengths"). FRAM at 8 MHz: no wait states.
#include <stdint.h>

#include "timing.h"

// Table 4-10, MSP430 Format I: [source class][destination class].
static const uint8_t fmt1[5][3] = {
    /*            Rm PC mem */
    /* Rn    */ { 1, 3, 4 },
    /* @Rn   */ { 2, 4, 5 },
    /* @Rn+  */ { 2, 4, 5 },
    /* #N    */ { 2, 3, 5 },
    /* x(Rn), EDE, &EDE */ { 3, 5, 6 },
};

// Table 4-18, MSP430X Format I: .B/.W and .A columns.
static const uint8_t fmt1x_bw[5][3] = {
    { 2, 4, 5 }, { 3, 5, 6 }, { 3, 5, 6 }, { 3, 4, 6 }, { 4, 6, 7 },
};
static const uint8_t fmt1x_a[5][3] = {
    { 2, 4, 7 }, { 4, 6, 9 }, { 4, 6, 9 }, { 3, 4, 8 }, { 5, 7, 10 },
};

int t_fmt1(int sm, int dm, int movbitcmp, int movaddsub)
{
    (void)movaddsub;
    int c = fmt1[sm][dm];
    if (dm == DM_MEM && movbitcmp) c -= 1; // note [1] of Table 4-10
    return c;
}

int t_fmt1x(int sm, int dm, int is_a, int movbitcmp, int movaddsub, int rpt)
{
    if (sm == SM_REG && dm == DM_REG) return rpt + 1; // note [1]: n + 1 cycles
    int c = is_a ? fmt1x_a[sm][dm] : fmt1x_bw[sm][dm];
    if (dm == DM_MEM && movbitcmp) c -= is_a ? 2 : 1;                     // notes [2], [3]
    if (dm == DM_PC && (sm == SM_IMM || sm == SM_IDX) && movaddsub) c -= 1; // note [4]
    return c;
}

// Table 4-9, MSP430 Format II: [op][mode], op 0 = RRA/RRC/SWPB/SXT, 1 = PUSH, 2 = CALL.
static const int8_t fmt2[3][7] = {
    /*        Rn @Rn @Rn+ #N x(Rn) EDE &EDE */
    /* rr */ { 1, 3, 3, -1, 4, 4, 4 },
    /* push*/{ 3, 3, 3, 3, 4, 4, 4 },
    /* call*/{ 4, 4, 4, 4, 5, 5, 6 },
};

int t_fmt2(int op, int mode)
{
    return fmt2[op][mode];
}

// Table 4-17a, MSP430X Format II: op 0 = RRAX/RRCX/RRUX/SWPBX/SXTX, 1 = PUSHX, 2 = CALLA.
static const int8_t fmt2x_bw[3][7] = {
    { 1, 4, 4, -1, 5, 5, 5 }, // register mode: 1 + n (added below)
    { 4, 4, 4, 4, 5, 5, 5 },
    { 5, 6, 6, 5, 5, 7, 7 },
};
static const int8_t fmt2x_a[3][7] = {
    { 1, 6, 6, -1, 7, 7, 7 },
    { 5, 6, 6, 5, 7, 7, 7 },
    { 5, 6, 6, 5, 5, 7, 7 },
};

int t_fmt2x(int op, int mode, int is_a, int rpt, int sp_index)
{
    int c = is_a ? fmt2x_a[op][mode] : fmt2x_bw[op][mode];
    if (op == 0 && mode == F2_REG) c += rpt;       // "1 + n"
    if (op != 0 && mode == F2_IDX && sp_index) c += 1; // note [1]: add one when Rn = SP
    return c;
}

// Table 4-19a, address instructions: op 0 = MOVA/BRA, 1 = CMPA/ADDA/SUBA.
int t_addr(int op, int sm, int dm)
{
    if (op == 1) {
        if (sm == SM_REG) return dm == DM_PC ? 3 : 1;
        return 3; // #N -> Rm or PC
    }
    switch (sm) {
    case SM_REG: return dm == DM_REG ? 1 : dm == DM_PC ? 3 : 4;
    case SM_IND:
    case SM_INC: return dm == DM_PC ? 5 : 3;
    case SM_IMM: return dm == DM_PC ? 3 : 2;
    default: return dm == DM_PC ? 6 : 4; // x(Rn), &abs20
    }
}
