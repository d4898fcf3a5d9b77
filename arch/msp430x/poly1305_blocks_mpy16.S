/* SPDX-License-Identifier: MIT */
#include "util/backend.h"
#if MB_ASM_MSP430X && MB_MSP430_MPY == 16   /* else this file is empty (util/backend.h) */
/*
 * Poly1305 blocks for the MSP430X with the 16-bit multiplier (MPY, MAC, OP2, RESLO,
 * RESHI, SUMEXT only: never an MPY32-only register), same contract and state layout as
 * poly1305_blocks_mpy32.S (radix 2^32 words = pairs of 16-bit words; h[4] = h8 <= 4).
 *
 *   void mb_poly1305_blocks(poly1305_state *st, const uint8_t *m, size_t nblocks,
 *                           uint32_t hibit);
 *        r12 = st, r13 = m, r14 = nblocks (< 2^15), r15 = hibit's low word
 *
 * Method: radix 2^16, h = h0..h7 (+ h8 2^128), r = r0..r7 (st->r as 16-bit words). The
 * full product P = h r is product-scanned in 16 columns (64 products h_i r_j, plus h8 r_j
 * in columns 8..15): each product is a MAC of h_i (OP1, from a register) and r_j (OP2,
 * from 2j(st)); a column ends with RESLO = P_c and RESHI:RESLO = the carry (RESHI, r14).
 * Column 0 is one MPY (no accumulation). The carry out of the 32-bit accumulator
 * (SUMEXT, the last MAC's) is added to r14 only after the products that can overflow:
 * a column first takes h8 r_j (< 2^19) and the products with odd j (r_j is the top half of
 * a clamped 32-bit word: < 2^12, so h_i r_j < 2^28), which start from the carry in
 * (< 9 2^16 + 16 < 2^20) and cannot reach 2^32 (at most 2^20 + 2^19 + 4 2^28 < 2^31);
 * then the products with even j (< 2^32), each followed by `add @r13, r14` (r13 =
 * &SUMEXT) after the next operand write or the column's RESLO read.
 * P_0..P_6 go to the frame; P_7..P_15 go into the registers of h_0..h_8 as those die
 * (h_i's last column is i + 7). Then, with L = P mod 2^128, H = P >> 128 and 2^130 = 5:
 *   h' = L + (H & ~3) + (H >> 2) + (H & 3) 2^128         (5 (H >> 2) = (H & ~3) + (H >> 2))
 * Bounds: h < 2^131 (h8 <= 4 + 1 carry + 1 hibit = 6 after the block addition),
 * r < 2^124, so P < 2^255 (16 words) and every column sum fits RESHI:RESLO plus r14 (at
 * most 9 products of < 2^32); H < 2^127, so L + (H & ~3) + (H >> 2) < 1.66 2^128 carries
 * at most 1 into h8 = (P_8 & 3) + carry <= 4.
 * Timing (SLAU367 / docs/MSP430_TIMING.md): a 16x16 result and SUMEXT are ready 3 cycles
 * after OP2 is written. The next operand write (`mov rN, &MAC`, 3 cycles) comes 3 or
 * more cycles after the OP2 write, so no multiplier register is written before the
 * previous result is ready; that OP1 write starts nothing (only OP2 does), so the
 * previous SUMEXT is still there and ready for `add @r13` (2 cycles; right after the
 * OP2 write it would need the 3-cycle absolute form).
 * Registers (columns): r4..r11 = h0..h7, r12 = h8, r13 = &SUMEXT, r14 = column carry
 * count, r15 = st.
 * Frame (sp): +0 h accumulator (16), +16 blocks left, +18 hibit, +20 st, +22 m; 24 bytes,
 * zeroed before return, and r4-r15. Odd m: as poly1305_blocks_mpy32.S (a copy per
 * block). Stack: 14 (saves) + 24 + 2 (odd path: + 26).
 * Cycles incl. call (tests/msp430/test_asm430_sym.py -s): 1,157 for one block, 4,136 for
 * four (about 993 per block plus 164 per call).
 * CT: m, h, r secret; one straight-line path per block, 16x16 operations only (fixed
 * operand width), addresses from st, m and sp; the loop count is public.
 */
#include "board.h"

#include "msp430x.inc"

    .equ    F_H, 0
    .equ    F_N, 16
    .equ    F_HB, 18
    .equ    F_ST, 20
    .equ    F_M, 22
    .equ    F_SIZE, 24

/* mov @Rs+, off(Rd): a form LLVM's assembler rejects (As = 3, Ad = 1). */
    .macro  MOVPI s, off, d
    .word   0x40B0 | (\s << 8) | \d, \off
    .endm

    POLY1305_BLOCKS_ENTRY           /* n = 0: return; odd m: .Lodd; r4-r10 saved, F_ST(r1) = st */
    mov     r13, F_M(r1)
    mov     r14, F_N(r1)
    mov     r15, F_HB(r1)
    add     #20, r12                /* st->h */
    .irp    i, 0, 2, 4, 6, 8, 10, 12, 14
    MOVPI   12, F_H+\i, 1           /* mov @r12+, i(sp) */
    .endr
    mov     @r12, r12               /* h8 (< 2^16) */
    jmp     .Lblock
.Ldone:
    mov     F_ST(r1), r13
    add     #20, r13
    mov     r1, r15
    .irp    i, 0, 2, 4, 6, 8, 10, 12, 14
    MOVPI   15, \i, 13              /* mov @r15+, i(r13) */
    .endr
    mov     r12, 16(r13)
    clr     18(r13)
    WIPE_RETURN F_SIZE                 /* the frame (secret: T, h) and r4-r15 */
.Lblock:
    dec     F_N(r1)                 /* public block count */
    jn      .Ldone
    /* h += block + hibit 2^128 (h8 <= 6) */
    mov     F_M(r1), r15
    mov     F_H+0(r1), r4
    add     @r15+, r4
    mov     F_H+2(r1), r5
    addc    @r15+, r5
    mov     F_H+4(r1), r6
    addc    @r15+, r6
    mov     F_H+6(r1), r7
    addc    @r15+, r7
    mov     F_H+8(r1), r8
    addc    @r15+, r8
    mov     F_H+10(r1), r9
    addc    @r15+, r9
    mov     F_H+12(r1), r10
    addc    @r15+, r10
    mov     F_H+14(r1), r11
    addc    @r15+, r11
    adc     r12
    add     F_HB(r1), r12
    mov     r15, F_M(r1)
    mov     F_ST(r1), r15               /* r_j at 2j(r15) */
    clr     r14
    mov     #SUMEXT, r13            /* r13 = &SUMEXT through the columns */
    /* column 0 */
    mov     r4, &MPY                /* h0 r0: MPY starts the accumulator */
    mov     0(r15), &OP2
    mov     &RESLO, F_H+0(r1)
    mov     &RESHI, &RESLO
    mov     r14, &RESHI
    clr     r14
    /* column 1 */
    mov     r4, &MAC               /* h0 r1 */
    mov     2(r15), &OP2
    mov     r5, &MAC               /* h1 r0 */
    mov     0(r15), &OP2
    mov     &RESLO, F_H+2(r1)
    add     @r13, r14
    mov     &RESHI, &RESLO
    mov     r14, &RESHI
    clr     r14
    /* column 2 */
    mov     r5, &MAC               /* h1 r1 */
    mov     2(r15), &OP2
    mov     r6, &MAC               /* h2 r0 */
    mov     0(r15), &OP2
    mov     r4, &MAC               /* h0 r2 */
    add     @r13, r14
    mov     4(r15), &OP2
    mov     &RESLO, F_H+4(r1)
    add     @r13, r14
    mov     &RESHI, &RESLO
    mov     r14, &RESHI
    clr     r14
    /* column 3 */
    mov     r6, &MAC               /* h2 r1 */
    mov     2(r15), &OP2
    mov     r4, &MAC               /* h0 r3 */
    mov     6(r15), &OP2
    mov     r7, &MAC               /* h3 r0 */
    mov     0(r15), &OP2
    mov     r5, &MAC               /* h1 r2 */
    add     @r13, r14
    mov     4(r15), &OP2
    mov     &RESLO, F_H+6(r1)
    add     @r13, r14
    mov     &RESHI, &RESLO
    mov     r14, &RESHI
    clr     r14
    /* column 4 */
    mov     r7, &MAC               /* h3 r1 */
    mov     2(r15), &OP2
    mov     r5, &MAC               /* h1 r3 */
    mov     6(r15), &OP2
    mov     r8, &MAC               /* h4 r0 */
    mov     0(r15), &OP2
    mov     r6, &MAC               /* h2 r2 */
    add     @r13, r14
    mov     4(r15), &OP2
    mov     r4, &MAC               /* h0 r4 */
    add     @r13, r14
    mov     8(r15), &OP2
    mov     &RESLO, F_H+8(r1)
    add     @r13, r14
    mov     &RESHI, &RESLO
    mov     r14, &RESHI
    clr     r14
    /* column 5 */
    mov     r8, &MAC               /* h4 r1 */
    mov     2(r15), &OP2
    mov     r6, &MAC               /* h2 r3 */
    mov     6(r15), &OP2
    mov     r4, &MAC               /* h0 r5 */
    mov     10(r15), &OP2
    mov     r9, &MAC               /* h5 r0 */
    mov     0(r15), &OP2
    mov     r7, &MAC               /* h3 r2 */
    add     @r13, r14
    mov     4(r15), &OP2
    mov     r5, &MAC               /* h1 r4 */
    add     @r13, r14
    mov     8(r15), &OP2
    mov     &RESLO, F_H+10(r1)
    add     @r13, r14
    mov     &RESHI, &RESLO
    mov     r14, &RESHI
    clr     r14
    /* column 6 */
    mov     r9, &MAC               /* h5 r1 */
    mov     2(r15), &OP2
    mov     r7, &MAC               /* h3 r3 */
    mov     6(r15), &OP2
    mov     r5, &MAC               /* h1 r5 */
    mov     10(r15), &OP2
    mov     r10, &MAC               /* h6 r0 */
    mov     0(r15), &OP2
    mov     r8, &MAC               /* h4 r2 */
    add     @r13, r14
    mov     4(r15), &OP2
    mov     r6, &MAC               /* h2 r4 */
    add     @r13, r14
    mov     8(r15), &OP2
    mov     r4, &MAC               /* h0 r6 */
    add     @r13, r14
    mov     12(r15), &OP2
    mov     &RESLO, F_H+12(r1)
    add     @r13, r14
    mov     &RESHI, &RESLO
    mov     r14, &RESHI
    clr     r14
    /* column 7 */
    mov     r10, &MAC               /* h6 r1 */
    mov     2(r15), &OP2
    mov     r8, &MAC               /* h4 r3 */
    mov     6(r15), &OP2
    mov     r6, &MAC               /* h2 r5 */
    mov     10(r15), &OP2
    mov     r4, &MAC               /* h0 r7 */
    mov     14(r15), &OP2
    mov     r11, &MAC               /* h7 r0 */
    mov     0(r15), &OP2
    mov     r9, &MAC               /* h5 r2 */
    add     @r13, r14
    mov     4(r15), &OP2
    mov     r7, &MAC               /* h3 r4 */
    add     @r13, r14
    mov     8(r15), &OP2
    mov     r5, &MAC               /* h1 r6 */
    add     @r13, r14
    mov     12(r15), &OP2
    mov     &RESLO, r4
    add     @r13, r14
    mov     &RESHI, &RESLO
    mov     r14, &RESHI
    clr     r14
    /* column 8 */
    mov     r12, &MAC               /* h8 r0 */
    mov     0(r15), &OP2
    mov     r11, &MAC               /* h7 r1 */
    mov     2(r15), &OP2
    mov     r9, &MAC               /* h5 r3 */
    mov     6(r15), &OP2
    mov     r7, &MAC               /* h3 r5 */
    mov     10(r15), &OP2
    mov     r5, &MAC               /* h1 r7 */
    mov     14(r15), &OP2
    mov     r10, &MAC               /* h6 r2 */
    mov     4(r15), &OP2
    mov     r8, &MAC               /* h4 r4 */
    add     @r13, r14
    mov     8(r15), &OP2
    mov     r6, &MAC               /* h2 r6 */
    add     @r13, r14
    mov     12(r15), &OP2
    mov     &RESLO, r5
    add     @r13, r14
    mov     &RESHI, &RESLO
    mov     r14, &RESHI
    clr     r14
    /* column 9 */
    mov     r12, &MAC               /* h8 r1 */
    mov     2(r15), &OP2
    mov     r10, &MAC               /* h6 r3 */
    mov     6(r15), &OP2
    mov     r8, &MAC               /* h4 r5 */
    mov     10(r15), &OP2
    mov     r6, &MAC               /* h2 r7 */
    mov     14(r15), &OP2
    mov     r11, &MAC               /* h7 r2 */
    mov     4(r15), &OP2
    mov     r9, &MAC               /* h5 r4 */
    add     @r13, r14
    mov     8(r15), &OP2
    mov     r7, &MAC               /* h3 r6 */
    add     @r13, r14
    mov     12(r15), &OP2
    mov     &RESLO, r6
    add     @r13, r14
    mov     &RESHI, &RESLO
    mov     r14, &RESHI
    clr     r14
    /* column 10 */
    mov     r12, &MAC               /* h8 r2 */
    mov     4(r15), &OP2
    mov     r11, &MAC               /* h7 r3 */
    mov     6(r15), &OP2
    mov     r9, &MAC               /* h5 r5 */
    mov     10(r15), &OP2
    mov     r7, &MAC               /* h3 r7 */
    mov     14(r15), &OP2
    mov     r10, &MAC               /* h6 r4 */
    mov     8(r15), &OP2
    mov     r8, &MAC               /* h4 r6 */
    add     @r13, r14
    mov     12(r15), &OP2
    mov     &RESLO, r7
    add     @r13, r14
    mov     &RESHI, &RESLO
    mov     r14, &RESHI
    clr     r14
    /* column 11 */
    mov     r12, &MAC               /* h8 r3 */
    mov     6(r15), &OP2
    mov     r10, &MAC               /* h6 r5 */
    mov     10(r15), &OP2
    mov     r8, &MAC               /* h4 r7 */
    mov     14(r15), &OP2
    mov     r11, &MAC               /* h7 r4 */
    mov     8(r15), &OP2
    mov     r9, &MAC               /* h5 r6 */
    add     @r13, r14
    mov     12(r15), &OP2
    mov     &RESLO, r8
    add     @r13, r14
    mov     &RESHI, &RESLO
    mov     r14, &RESHI
    clr     r14
    /* column 12 */
    mov     r12, &MAC               /* h8 r4 */
    mov     8(r15), &OP2
    mov     r11, &MAC               /* h7 r5 */
    mov     10(r15), &OP2
    mov     r9, &MAC               /* h5 r7 */
    mov     14(r15), &OP2
    mov     r10, &MAC               /* h6 r6 */
    mov     12(r15), &OP2
    mov     &RESLO, r9
    add     @r13, r14
    mov     &RESHI, &RESLO
    mov     r14, &RESHI
    clr     r14
    /* column 13 */
    mov     r12, &MAC               /* h8 r5 */
    mov     10(r15), &OP2
    mov     r10, &MAC               /* h6 r7 */
    mov     14(r15), &OP2
    mov     r11, &MAC               /* h7 r6 */
    mov     12(r15), &OP2
    mov     &RESLO, r10
    add     @r13, r14
    mov     &RESHI, &RESLO
    mov     r14, &RESHI
    clr     r14
    /* column 14 */
    mov     r12, &MAC               /* h8 r6 */
    mov     12(r15), &OP2
    mov     r11, &MAC               /* h7 r7 */
    mov     14(r15), &OP2
    mov     &RESLO, r11
    mov     &RESHI, &RESLO
    mov     r14, &RESHI
    clr     r14
    /* column 15 */
    mov     r12, &MAC               /* h8 r7 */
    mov     14(r15), &OP2
    mov     &RESLO, r12

    /* fold: L = P_0..P_7 (frame), H = P_8..P_15 (r5..r12) */
    mov     r4, F_H+14(r1)
    mov     r5, r13
    and     #3, r13                 /* (H & 3): bits 128, 129 of h' */
    and     #-4, r5                 /* H & ~3 */
    add     r5, F_H+0(r1)
    addc    r6, F_H+2(r1)
    addc    r7, F_H+4(r1)
    addc    r8, F_H+6(r1)
    addc    r9, F_H+8(r1)
    addc    r10, F_H+10(r1)
    addc    r11, F_H+12(r1)
    addc    r12, F_H+14(r1)
    adc     r13
    .rept   2                       /* H >> 2 */
    clrc
    rrc     r12
    rrc     r11
    rrc     r10
    rrc     r9
    rrc     r8
    rrc     r7
    rrc     r6
    rrc     r5
    .endr
    add     r5, F_H+0(r1)
    addc    r6, F_H+2(r1)
    addc    r7, F_H+4(r1)
    addc    r8, F_H+6(r1)
    addc    r9, F_H+8(r1)
    addc    r10, F_H+10(r1)
    addc    r11, F_H+12(r1)
    addc    r12, F_H+14(r1)
    adc     r13
    mov     r13, r12                /* h8 */
    br      #.Lblock

    POLY1305_ODD_BLOCKS             /* .Lodd: odd m, block by block */
    .size   mb_poly1305_blocks, .-mb_poly1305_blocks
#endif /* MB_ASM_MSP430X && MB_MSP430_MPY == 16 */
