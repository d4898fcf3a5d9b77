/* SPDX-License-Identifier: MIT */
#include "util/backend.h"
#if MB_ASM_MSP430X && MB_MSP430_MPY == 32   /* else this file is empty (util/backend.h) */
/*
 * Poly1305 blocks for the MSP430X with the 32-bit multiplier MPY32 (replaces
 * src/sym/poly1305_block.c with poly1305_keys.S's setkey and emit; the state layout is
 * the Cortex-M4's radix 2^32). The state's words:
 *   st->r[0..3] (+0)  r, clamped: r0 < 2^28, r1..r3 < 2^28 and multiples of 4; r[4] = 0
 *   st->h[0..4] (+20) h = h0 + h1 2^32 + h2 2^64 + h3 2^96 + h4 2^128, h4 <= 4
 *
 *   void mb_poly1305_blocks(poly1305_state *st, const uint8_t *m, size_t nblocks,
 *                           uint32_t hibit);
 *        r12 = st, r13 = m, r14 = nblocks, r15 = hibit's low word (its high word, on the
 *        stack, is 0: hibit is 0 or 1)
 *   per block: h = (h + block + hibit 2^128) * r mod 2^130-5, partially reduced
 *   (nblocks < 2^15: the loop tests the count's sign; m fits in 64 KB anyway)
 *
 * Product (as arch/cortex-m4/poly1305_block.S): 2^130 = 5 (mod p) and r_j = 4 (r_j/4) for
 * j >= 1, so a term h_i r_j at 2^(32(i+j)) >= 2^128 returns as h_i s_j at 2^(32(i+j-4)),
 * s_j = r_j + r_j/4:
 *   d0 = h3 s1 + h2 s2 + h1 s3 + h0 r0
 *   d1 = h3 s2 + h2 s3 + h1 r0 + h0 r1 + h4 s1
 *   d2 = h3 s3 + h2 r0 + h1 r1 + h0 r2 + h4 s2
 *   d3 = h3 r0 + h2 r1 + h1 r2 + h0 r3 + h4 s3
 *   d4 = h4 r0
 * each column plus the previous column's carry. In the order h3, h2, h1, h0 the
 * coefficients of column k are the four consecutive words T[k..k+3] of the frame table
 * T = (s1, s2, s3, r0, r1, r2, r3), read through one pointer with @r15+ (4 cycles per
 * operand word written to the multiplier). Each column accumulates in RES3..RES0 with
 * MAC32 (h_i: 32-bit OP1 from registers; T word: OP2L/OP2H) and h4 s_k with a 16x32 MAC;
 * its low 32 bits are the new h_k, the high 32 bits are moved down into RES1:RES0 to start
 * the next column. Then q = d4 >> 2 returns as 5 q = (d4 & ~3) + (d4 >> 2) and h4 = d4 & 3.
 * Bounds (the M4's): h_i < 2^32, r_j < 2^28, s_j < 1.25 2^28, h4 <= 4 + 1 (carry of the
 * block addition) + 1 (hibit) = 6: every column < 4.75 2^60 + 2^33 < 2^63; the carry out
 * of column 3 < 2^30 + 1, so d4 < 6 2^28 + 2^30 + 1 < 2^31 and 5 q < 2^32; after adding
 * 5 q, h4 = (d4 & 3) + carry <= 4.
 *
 * Multiplier timing (the backend's discipline, arch/msp430x/README.md): no multiplier
 * register is written before the previous operation's RES3 is ready (WAIT4 between the
 * products of a column; the RES shift at a column's end comes after its reads), and
 * every result read comes after the guide's latency (the simulator checks the reads).
 * MPY32CTL0 stays at its reset value. Interrupt handlers must not use the multiplier
 * while this runs.
 *
 * Registers (loop): r4:r5 .. r10:r11 = h0..h3 (lo, hi), r12 = h4, r13 = m, r15 = table
 * pointer, then r14:r15 = 5 q between blocks. Frame (sp): +0 T (28 bytes), +28 new
 * h0..h3 (16), +44 blocks left, +46 hibit, +48 st; 50 bytes, zeroed before return, and
 * r4-r15.
 * m must be even here; an odd m is copied block by block to a frame buffer (public
 * branch on the address parity) and passed to the even path.
 * Stack: 14 (saves) + 50 + 2 (odd path: + 18 + 2) bytes.
 * Cycles incl. call (tests/msp430/test_asm430_sym.py -s): 830 for one block, 2,435 for four
 * (about 535 per block plus 295 per call).
 * CT: m, h, r secret: one straight-line path per block; the multiplier's time does not
 * depend on operand values (the operand widths are fixed: always 32x32 or 16x32);
 * addresses from st, m and sp only; the loop count is nblocks (public).
 */
#include "board.h"

#include "msp430x.inc"

    .equ    F_T, 0
    .equ    F_NH, 28
    .equ    F_N, 44
    .equ    F_HIBIT, 46
    .equ    F_ST, 48
    .equ    F_SIZE, 50

/* mov @Rs+, &abs (LLVM's assembler rejects the form; Format I, As = 3, Ad = 1, Rd = SR). */
    .macro  MOVPA s, addr
    .word   0x40B2 | (\s << 8), \addr
    .endm

/* mov @Rs+, off(Rd) (rejected likewise; As = 3, Ad = 1). */
    .macro  MOVPI s, off, d
    .word   0x40B0 | (\s << 8) | \d, \off
    .endm

/* The previous 32x32 operation's RES3 is ready 7 cycles after its OP2H write (11 after
 * OP2L, written 4 cycles before OP2H); the next operand write (3 cycles after) waits 4. */
    .macro  WAIT4
    nop
    nop
    nop
    nop
    .endm

/* One 32x32 MAC after another: OP1 = lo:hi (registers), OP2 = the next table word. */
    .macro  MAC32 lo, hi
    WAIT4
    mov     \lo, &MAC32L
    mov     \hi, &MAC32H
    MOVPA   15, OP2L
    MOVPA   15, OP2H
    .endm

/* Column k: the four h_i T products (+ h4 s_k for k >= 1), h_k' to the frame, the carry
 * down into RES1:RES0 for the next column. */
    .macro  COLUMN k
    mov     r1, r15
    add     #F_T+4*\k, r15
    .if \k == 0
    mov     r10, &MPY32L            /* first product: MPY (no accumulation) */
    mov     r11, &MPY32H
    MOVPA   15, OP2L
    MOVPA   15, OP2H
    .else
    mov     r10, &MAC32L            /* after the RES writes: the last operation is done */
    mov     r11, &MAC32H
    MOVPA   15, OP2L
    MOVPA   15, OP2H
    .endif
    MAC32   r8, r9
    MAC32   r6, r7
    MAC32   r4, r5
    .if \k > 0
    WAIT4
    mov     r12, &MAC               /* h4 s_k: 16x32 */
    mov     F_T+4*(\k-1)(r1), &OP2L
    mov     F_T+4*(\k-1)+2(r1), &OP2H
    .endif
    mov     &RES0, F_NH+4*\k(r1)
    mov     &RES1, F_NH+4*\k+2(r1)
    mov     &RES2, &RES0
    mov     &RES3, &RES1
    clr     &RES2
    clr     &RES3
    .endm

    POLY1305_BLOCKS_ENTRY           /* n = 0: return; odd m: .Lodd; r4-r10 saved, F_ST(r1) = st */
    mov     r14, F_N(r1)
    mov     r15, F_HIBIT(r1)
    /* T = (s1, s2, s3, r0, r1, r2, r3), s_j = r_j + (r_j >> 2) */
    mov     r1, r15
    add     #F_T+12, r15
    mov     @r12+, r4               /* r0 */
    mov     r4, 0(r15)
    mov     @r12+, r4
    mov     r4, 2(r15)
    .irp    j, 1, 2, 3
    mov     @r12+, r4
    mov     @r12+, r5
    mov     r4, 4*\j(r15)           /* r_j */
    mov     r5, 4*\j+2(r15)
    mov     r4, r6
    mov     r5, r7
    clrc
    rrc     r7
    rrc     r6
    clrc
    rrc     r7
    rrc     r6
    add     r6, r4
    addc    r7, r5
    mov     r4, 4*(\j-1)-12(r15)   /* s_j */
    mov     r5, 4*(\j-1)-10(r15)
    .endr
    add     #4, r12                 /* st->h */
    mov     r1, r15
    add     #F_NH, r15
    .irp    i, 0, 2, 4, 6, 8, 10, 12, 14
    MOVPI   12, \i, 15              /* mov @r12+, i(r15) */
    .endr
    mov     @r12, r12               /* h4 (< 2^16: its high word is 0) */
    clr     r14                     /* 5 q = 0 before the first block */
    clr     r15
.Lblock:
    /* h = h' + 5 q (carry into h4) */
    mov     F_NH(r1), r4
    add     r14, r4
    mov     F_NH+2(r1), r5
    addc    r15, r5
    mov     F_NH+4(r1), r6
    adc     r6
    mov     F_NH+6(r1), r7
    adc     r7
    mov     F_NH+8(r1), r8
    adc     r8
    mov     F_NH+10(r1), r9
    adc     r9
    mov     F_NH+12(r1), r10
    adc     r10
    mov     F_NH+14(r1), r11
    adc     r11
    adc     r12
    dec     F_N(r1)                 /* public block count */
    jn      .Ldone
    br      #.Lmul
.Ldone:
    mov     F_ST(r1), r13
    add     #20, r13
    mov     r4, 0(r13)
    mov     r5, 2(r13)
    mov     r6, 4(r13)
    mov     r7, 6(r13)
    mov     r8, 8(r13)
    mov     r9, 10(r13)
    mov     r10, 12(r13)
    mov     r11, 14(r13)
    mov     r12, 16(r13)
    clr     18(r13)
    WIPE_RETURN F_SIZE                 /* the frame (secret: T, h) and r4-r15 */
.Lmul:
    /* h += block + hibit 2^128 (h4 <= 6) */
    add     @r13+, r4
    addc    @r13+, r5
    addc    @r13+, r6
    addc    @r13+, r7
    addc    @r13+, r8
    addc    @r13+, r9
    addc    @r13+, r10
    addc    @r13+, r11
    adc     r12
    add     F_HIBIT(r1), r12
    COLUMN  0
    COLUMN  1
    COLUMN  2
    COLUMN  3
    /* d4 = h4 r0 + carry (< 2^31), in RES1:RES0 */
    mov     r12, &MAC
    mov     F_T+12(r1), &OP2L
    mov     F_T+14(r1), &OP2H
    mov     &RES0, r14
    mov     &RES1, r15
    mov     r14, r12
    and     #3, r12                 /* h4 = d4 & 3 */
    and     #-4, r14                /* 5 q = (d4 & ~3) + (d4 >> 2) */
    mov     r14, r4
    mov     r15, r5
    clrc
    rrc     r5
    rrc     r4
    clrc
    rrc     r5
    rrc     r4
    add     r4, r14
    addc    r5, r15
    br      #.Lblock

    POLY1305_ODD_BLOCKS             /* .Lodd: odd m, block by block */
    .size   mb_poly1305_blocks, .-mb_poly1305_blocks
#endif /* MB_ASM_MSP430X && MB_MSP430_MPY == 32 */
