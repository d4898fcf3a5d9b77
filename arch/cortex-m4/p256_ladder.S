/* SPDX-License-Identifier: MIT */
/*
 * The co-Z ladder's two steps for the Cortex-M4 (replaces src/curve/p256_ladder.c; the
 * same formulas and the same sequence of field operations, see that file and p256.h).
 *
 *   void p256_ladder_cswap_addc(p256_ladder *w, uint32_t bit);
 *       masked swap of R[0] and R[1], then XYCZ-ADDC (5M + 3S)
 *   void p256_ladder_add(p256_ladder *w);             XYCZ-ADD (4M + 2S)
 *
 * Why assembly: the C version pays the AAPCS register saves in every one of its 30 field
 * operations; here they are paid once per step and the field operations are the _fast
 * entries (fep256_mul.S, fep256_addsub.S) that clobber r0-r12 freely.
 * Inputs: w as p256.h lays it out: R[0].x @0, R[0].y @32, R[1].x @64, R[1].y @96,
 * t[0..4] @128..256; coordinates < p, bit in {0, 1}. Output: w updated in place.
 * Clobbers: r0-r3, r12 (AAPCS; r4-r11 and lr saved).
 * Stack: 40 (saves and w) + 76 (deepest callee, fep256_mul_fast/sqr_fast) = 116 bytes.
 * CT: the state and bit are secret. Straight-line code; the swap is masked (mask = -bit);
 *     every address is w plus a constant.
 * Register map: [sp] = w; r0/r1/r2 = h/f/g of each field operation (w + offset, via r3).
 */
    .syntax unified
    .thumb
    .text

    .set    P0X, 0
    .set    P0Y, 32
    .set    P1X, 64
    .set    P1Y, 96
    .set    TA, 128
    .set    TB, 160
    .set    TC, 192
    .set    TD, 224
    .set    TF, 256

/* fn(w + h, w + f, w + g) and fn(w + h, w + f) */
    .macro  OP fn, h, f, g
    ldr     r3, [sp]
    add     r0, r3, #\h
    add     r1, r3, #\f
    add     r2, r3, #\g
    bl      \fn
    .endm
    .macro  OP2 fn, h, f
    ldr     r3, [sp]
    add     r0, r3, #\h
    add     r1, r3, #\f
    bl      \fn
    .endm

    .global p256_ladder_cswap_addc
    .type   p256_ladder_cswap_addc, %function
    .thumb_func
p256_ladder_cswap_addc:
    push    {r0, r4-r11, lr}
    bl      ct_swap128_fast          /* R[0] <-> R[1] if bit (r0 = w, r1 = bit) */
    /* XYCZ-ADDC with P = R[0], Q = R[1] */
    OP      fep256_sub_fast, TA, P1X, P0X     /* A = (X2 - X1)^2 */
    OP2     fep256_sqr_fast, TA, TA
    OP      fep256_mul_fast, TB, P0X, TA      /* B = X1 A */
    OP      fep256_mul_fast, TC, P1X, TA      /* C = X2 A */
    OP      fep256_sub_fast, TD, P1Y, P0Y     /* D = Y2 - Y1 */
    OP      fep256_add_fast, TF, P1Y, P0Y     /* F = Y2 + Y1 */
    OP      fep256_sub_fast, TA, TC, TB
    OP      fep256_mul_fast, P0Y, P0Y, TA     /* E = Y1 (C - B) */
    OP      fep256_add_fast, TC, TB, TC       /* B + C */
    OP2     fep256_sqr_fast, TA, TD
    OP      fep256_sub_fast, P1X, TA, TC      /* X3 = D^2 - B - C */
    OP      fep256_sub_fast, TA, TB, P1X
    OP      fep256_mul_fast, TA, TD, TA
    OP      fep256_sub_fast, P1Y, TA, P0Y     /* Y3 = D (B - X3) - E */
    OP2     fep256_sqr_fast, TA, TF
    OP      fep256_sub_fast, P0X, TA, TC      /* X3' = F^2 - B - C */
    OP      fep256_sub_fast, TA, P0X, TB
    OP      fep256_mul_fast, TA, TF, TA
    OP      fep256_sub_fast, P0Y, TA, P0Y     /* Y3' = F (X3' - B) - E */
    pop     {r0, r4-r11, pc}
    .size   p256_ladder_cswap_addc, .-p256_ladder_cswap_addc

    .global p256_ladder_add
    .type   p256_ladder_add, %function
    .thumb_func
p256_ladder_add:
    push    {r0, r4-r11, lr}
    /* XYCZ-ADD with P = R[1], Q = R[0] */
    OP      fep256_sub_fast, TA, P0X, P1X     /* A = (X2 - X1)^2 */
    OP2     fep256_sqr_fast, TA, TA
    OP      fep256_mul_fast, P1X, P1X, TA     /* B = X1 A, P's new x */
    OP      fep256_mul_fast, TC, P0X, TA      /* C = X2 A */
    OP      fep256_sub_fast, TD, P0Y, P1Y     /* D = Y2 - Y1 */
    OP      fep256_sub_fast, TA, TC, P1X
    OP      fep256_mul_fast, P1Y, P1Y, TA     /* E = Y1 (C - B), P's new y */
    OP2     fep256_sqr_fast, TA, TD
    OP      fep256_sub_fast, TA, TA, P1X
    OP      fep256_sub_fast, P0X, TA, TC      /* X3 = D^2 - B - C */
    OP      fep256_sub_fast, TA, P1X, P0X
    OP      fep256_mul_fast, TA, TD, TA
    OP      fep256_sub_fast, P0Y, TA, P1Y     /* Y3 = D (B - X3) - E */
    pop     {r0, r4-r11, pc}
    .size   p256_ladder_add, .-p256_ladder_add
