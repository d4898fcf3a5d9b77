/* SPDX-License-Identifier: MIT */
#include "util/backend.h"
#if MB_ASM_CORTEX_M4   /* else this file is empty (util/backend.h) */
/*
 * Poly1305 blocks for the Cortex-M4 in radix 2^32 (replaces src/sym/poly1305_block.c
 * with poly1305_r32.c, which has setkey and emit). The state's words, reinterpreted:
 *   st->r[0..3] (+0)  r, clamped: r0 < 2^28, r1..r3 < 2^28 and multiples of 4; r[4] = 0
 *   st->h[0..4] (+20) h = h0 + h1 2^32 + h2 2^64 + h3 2^96 + h4 2^128, h4 <= 4
 *
 *   void mb_poly1305_blocks(poly1305_state *st, const uint8_t *m, size_t nblocks,
 *                           uint32_t hibit);
 *   per block: h = (h + block + hibit 2^128) * r mod 2^130-5, partially reduced
 *
 * Product. 2^130 = 5 (mod p) and r_j = 4 (r_j / 4) for j >= 1, so a term h_i r_j
 * at 2^(32(i+j)) >= 2^128 comes back as h_i s_j at 2^(32(i+j-4)), s_j = r_j + r_j/4:
 *   d0 = h0 r0 + h1 s3 + h2 s2 + h3 s1
 *   d1 = h0 r1 + h1 r0 + h2 s3 + h3 s2 + h4 s1
 *   d2 = h0 r2 + h1 r1 + h2 r0 + h3 s3 + h4 s2
 *   d3 = h0 r3 + h1 r2 + h2 r1 + h3 r0 + h4 s3
 *   d4 = h4 r0
 * Each column is a 64-bit UMULL/UMLAL sum whose high word carries into the next; a
 * column starts with UMAAL, which adds the carry and h4 s_j (a MUL: h4 <= 6 so it
 * fits 32 bits) for free. Then the bits from 130 up, q = d4 >> 2, come back as 5 q.
 * Bounds: h_i < 2^32, r_j < 2^28, s_j < 1.25 2^28, h4 <= 4 + 1 (carry) + 1 (hibit)
 * = 6: every column < 4.75 2^60 + 2^33 < 2^63 (no 64-bit overflow); the carry out of
 * column 3 < 2^30 + 1, so d4 < 6 2^28 + 2^30 + 1 < 2^31 and 5 q < 2^32; after adding
 * 5 q with a carry chain, h4 = (d4 & 3) + carry <= 4.
 *
 * Register map (loop): r0-r4 = h0..h4; r5-r8 = r0..r3; r9-r11 = s1..s3, each turned
 * into h4 s_j (MUL) when its last column starts and then holding a column's sum, so
 * they are recomputed per block; r12, lr = m and the block's words, then column sums.
 * The products end with new h0..h3 in r12, lr, r9, r10 and d4 in r11.
 * Stack: the pushed r0-r3 (st, m of the next block, end of m, hibit), r4-r11, lr:
 * 52 bytes. Clobbers r0-r3, r12, flags; r4-r11 saved. m need not be aligned (single
 * LDRs; CCR.UNALIGN_TRP clear, the reset value). Cycles: `make bench` (the model's
 * figures when written: 50 per block plus 54 per call, `bl` included).
 * CT: m, h, r secret: one straight-line path per block, single-cycle UMULL/UMLAL/
 * UMAAL/MUL/MLA (TRM table 3-1), shifts by constants, addresses from st, m and sp
 * only; the loop count is nblocks (public).
 */
    .syntax unified
    .thumb
    .text

    .section .text.mb_poly1305_blocks,"ax",%progbits
    .p2align 2
    .global mb_poly1305_blocks
    .type   mb_poly1305_blocks, %function
    .thumb_func
mb_poly1305_blocks:
    lsls    r2, r2, #4                  @ 16 nblocks (m fits in memory: no overflow)
    beq     .Lnone
    add     r2, r1, r2                  @ end of m
    push    {r0-r11, lr}                @ sp+0: st, +4: m, +8: end of m, +12: hibit
    ldm     r0, {r5-r8}                 @ r0..r3
    add     lr, r0, #20
    mov     r12, r1                     @ m
    ldm     lr, {r0-r4}                 @ h
.Lblock:
    /* h += block + hibit 2^128 (h4 <= 6 after this) */
    add     r12, r12, #16
    str     r12, [sp, #4]               @ m of the next block
    ldr     lr, [r12, #-16]
    ldr     r9, [r12, #-12]
    ldr     r10, [r12, #-8]
    ldr     r11, [r12, #-4]
    ldr     r12, [sp, #12]              @ hibit
    adds    r0, r0, lr
    adcs    r1, r1, r9
    adcs    r2, r2, r10
    adcs    r3, r3, r11
    adc     r4, r4, r12
    add     r9, r6, r6, lsr #2          @ s1 = 5 r1 / 4
    add     r10, r7, r7, lsr #2         @ s2
    add     r11, r8, r8, lsr #2         @ s3
    /* d0 -> new h0 in r12; then s1 is replaced by h4 s1 */
    umull   r12, lr, r0, r5
    umlal   r12, lr, r1, r11
    umlal   r12, lr, r2, r10
    umlal   r12, lr, r3, r9
    mul     r9, r4, r9
    /* d1 = carry + h4 s1 + ... -> new h1 in lr, carry in r9; s2 becomes h4 s2 */
    umaal   lr, r9, r0, r6
    umlal   lr, r9, r1, r5
    umlal   lr, r9, r2, r11
    umlal   lr, r9, r3, r10
    mul     r10, r4, r10
    /* d2 -> new h2 in r9, carry in r10; s3 becomes h4 s3 */
    umaal   r9, r10, r0, r7
    umlal   r9, r10, r1, r6
    umlal   r9, r10, r2, r5
    umlal   r9, r10, r3, r11
    mul     r11, r4, r11
    /* d3 -> new h3 in r10; d4 = carry + h4 r0 in r11 */
    umaal   r10, r11, r0, r8
    umlal   r10, r11, r1, r7
    umlal   r10, r11, r2, r6
    umlal   r10, r11, r3, r5
    mla     r11, r4, r5, r11
    /* h = d0..d3 + (d4 & 3) 2^128 + 5 (d4 >> 2) */
    bic     r3, r11, #3
    add     r3, r3, r11, lsr #2
    and     r4, r11, #3
    adds    r0, r12, r3
    adcs    r1, lr, #0
    adcs    r2, r9, #0
    adcs    r3, r10, #0
    adc     r4, r4, #0
    ldr     r12, [sp, #4]               @ m of the next block
    ldr     lr, [sp, #8]                @ end of m
    cmp     r12, lr
    bne     .Lblock
    ldr     r12, [sp, #0]               @ st
    str     r0, [r12, #20]
    str     r1, [r12, #24]
    str     r2, [r12, #28]
    str     r3, [r12, #32]
    str     r4, [r12, #36]
    add     sp, sp, #16
    pop     {r4-r11, pc}
.Lnone:
    bx      lr
    .size   mb_poly1305_blocks, .-mb_poly1305_blocks
#endif /* MB_ASM_CORTEX_M4 */
