/* SPDX-License-Identifier: MIT */
#include "util/backend.h"
#if MB_ASM_CORTEX_M4   /* else this file is empty (util/backend.h) */
/*
 * The fixed-base comb's inner operations for the Cortex-M4 (replaces
 * src/curve/p256_base_ops.c; the comb itself stays C, src/curve/p256_base.c):
 *
 *   void mb_p256_base_select(fep256 E[2], const uint32_t table[8][16], uint32_t idx,
 *                            uint32_t neg);
 *       E = table[idx] (x then y), y -> p - y if neg = 1. idx in [0, 8), neg in {0, 1}.
 *       Every word of every entry is loaded, in the same order for every idx; SEL on GE
 *       flags from UADD8 of SBFX(1 << idx, m) keeps entry m's words. The negation is
 *       (y ^ M) + (M & (p + 1)), M = -neg: p + 1 has words 0, 0, 0, 1, 0, 0, 1, -1.
 *       Registers: r4-r11 the selected half (x, then y), r0-r3 the loaded words, r12
 *       the table pointer, lr = 1 << idx. Stack: 36 (saves) + 8 (E, neg; the neg slot is
 *       zeroed before returning).
 *   void mb_p256_base_madd(fep256 Q[3], const fep256 P[2], fep256 t[6]);
 *       Q = Q + P, Q Jacobian (X, Y, Z), P affine (x, y), all Montgomery form < p:
 *       H = x Z^2 - X, r = y Z^3 - Y, Z3 = Z H, X3 = r^2 - H^3 - 2 X H^2,
 *       Y3 = r (X H^2 - X3) - Y H^3 (8M + 3S). Leaves H in t[1] and r in t[2].
 *       Pre: Q not at infinity, Q != -P (Q = P gives (0, 0, 0); the caller checks).
 *       Inputs r0 = Q, r1 = P, r2 = t (32-byte slots); t is left holding secrets (the
 *       caller wipes it). Stack: 36 (saves) + 44 (slot table) + 72 (the kernels'
 *       frame) = 152 bytes. Register map: r4-r11 the accumulator (a field element,
 *       word i in r(4+i)), in and out of the kernels; r0-r3, r12 the other operand's
 *       words and pointers; lr a store address.
 * Clobbers: r0-r3, r12 (AAPCS; r4-r11 and lr saved).
 * Cycles: measured, not typed (`motebox sim m4 --profile` on the bench firmware).
 * CT: idx, neg, Q, P, t secret. Straight-line code: no branch; every address is an
 *     argument plus a constant (the madd's slot table); the shift by idx is a one-cycle
 *     barrel shift (Cortex-M4 TRM table 3-1); UMULL/UMAAL in the kernels are
 *     single-cycle. A modular subtraction corrects its borrow by adding p under a mask
 *     (fep256_masked.inc). Stack residue: the kernels' frame, as in p256_ladder.S.
 */
#ifndef MB_NO_FIXED_BASE
    .syntax unified
    .thumb
    .text

/* Slot addresses in the frame: Q's X, Y, Z; P's x, y; t[0..5]. */
    .set    SX1, 0
    .set    SY1, 1
    .set    SZ1, 2
    .set    SX2, 3
    .set    SY2, 4
    .set    ST0, 5
    .set    ST1, 6
    .set    ST2, 7
    .set    ST3, 8
    .set    ST4, 9
    .set    ST5, 10
    .set    KFRAME, 72               /* the kernels' frame at sp[0..71] */
    .set    LOCALS, KFRAME + 44      /* + 36 saved = 152: sp stays 8-byte aligned */

    .macro  SLOT rd, s
    ldr     \rd, [sp, #(KFRAME + 4 * \s)]
    .endm

    .macro  LOAD s                   /* acc = [s] */
    SLOT    r0, \s
    ldm     r0, {r4-r11}
    .endm

    .macro  STORE s                  /* [s] = acc */
    SLOT    r0, \s
    stm     r0, {r4-r11}
    .endm

    .macro  MUL f, g                 /* acc = [f] [g] / 2^256 mod p */
    SLOT    r1, \f
    SLOT    r2, \g
    bl      mb_fep256_mul_reg
    .endm

    .macro  SQR                      /* acc = acc^2 / 2^256 mod p */
    bl      mb_fep256_sqr_reg
    .endm

#include "fep256_masked.inc"

/* One entry's half (8 words at r12, advancing r12 by 64): keep it if bit m of lr. */
    .macro  PICK m
    sbfx    r0, lr, #\m, #1          /* -1 if idx == m, else 0 */
    uadd8   r0, r0, r0               /* GE = 1111 or 0000 */
    ldm     r12!, {r0-r3}
    sel     r4, r0, r4
    sel     r5, r1, r5
    sel     r6, r2, r6
    sel     r7, r3, r7
    ldm     r12!, {r0-r3}
    sel     r8, r0, r8
    sel     r9, r1, r9
    sel     r10, r2, r10
    sel     r11, r3, r11
    add     r12, r12, #32
    .endm

/* r4-r11 = half of table[idx]: entry 0's half at r12, then entries 1..7. */
    .macro  SCAN
    ldm     r12, {r4-r11}
    add     r12, r12, #64
    PICK    1
    PICK    2
    PICK    3
    PICK    4
    PICK    5
    PICK    6
    PICK    7
    .endm

    .global mb_p256_base_select
    .type   mb_p256_base_select, %function
    .thumb_func
mb_p256_base_select:
    push    {r4-r11, lr}
    sub     sp, sp, #8
    strd    r0, r3, [sp]             /* E, neg */
    movs    r0, #1
    lsl     lr, r0, r2               /* lr = 1 << idx */
    mov     r12, r1
    SCAN                             /* x */
    ldr     r0, [sp]
    stm     r0, {r4-r11}
    sub     r12, r12, #480           /* back to entry 0, y: table + 32 */
    SCAN                             /* y */
    ldr     r3, [sp, #4]
    rsbs    r3, r3, #0               /* M = -neg */
    eor     r4, r4, r3
    eor     r5, r5, r3
    eor     r6, r6, r3
    eor     r7, r7, r3
    eor     r8, r8, r3
    eor     r9, r9, r3
    eor     r10, r10, r3
    eor     r11, r11, r3
    and     r0, r3, #1
    adds    r7, r7, r0               /* + M & (p + 1): words 3, 6, 7 */
    adcs    r8, r8, #0
    adcs    r9, r9, #0
    adcs    r10, r10, r0
    adc     r11, r11, r3
    ldr     r0, [sp]
    add     r0, r0, #32
    stm     r0, {r4-r11}
    movs    r0, #0
    str     r0, [sp, #4]             /* no neg left on the stack */
    add     sp, sp, #8
    pop     {r4-r11, pc}
    .size   mb_p256_base_select, .-mb_p256_base_select

/* acc = acc - [s] mod p (rev = 1: [s] - acc); a borrow adds p back under its mask.
 * st >= 0: the result is also stored to slot st. */
    .macro  SUBM s, st=-1, rev=0
    SLOT    r2, \s
    .if \st >= 0
    SLOT    lr, \st
    .endif
    ldm     r2!, {r0, r1, r3, r12}
    .if \rev
    subs    r4, r0, r4
    sbcs    r5, r1, r5
    sbcs    r6, r3, r6
    sbcs    r7, r12, r7
    .else
    subs    r4, r4, r0
    sbcs    r5, r5, r1
    sbcs    r6, r6, r3
    sbcs    r7, r7, r12
    .endif
    ldm     r2, {r0, r1, r3, r12}
    .if \rev
    sbcs    r8, r0, r8
    sbcs    r9, r1, r9
    sbcs    r10, r3, r10
    sbcs    r11, r12, r11
    .else
    sbcs    r8, r8, r0
    sbcs    r9, r9, r1
    sbcs    r10, r10, r3
    sbcs    r11, r11, r12
    .endif
    sbc     r1, r1, r1               /* borrow ? -1 : 0 */
    ADD_MASKED_P \st
    .endm

    .global mb_p256_base_madd
    .type   mb_p256_base_madd, %function
    .thumb_func
mb_p256_base_madd:
    push    {r4-r11, lr}
    sub     sp, sp, #LOCALS
    add     r3, r0, #32              /* the slot table: X1 Y1 Z1 x2 y2 t0..t5 */
    add     r4, r0, #64
    mov     r5, r1
    add     r6, r1, #32
    mov     r7, r2
    add     r8, r2, #32
    add     r9, r2, #64
    add     r10, r2, #96
    add     r11, r2, #128
    add     r12, r2, #160
    add     lr, sp, #KFRAME
    stm     lr, {r0, r3-r12}

    LOAD    SZ1
    SQR
    STORE   ST0                      /* t0 = Z1^2 */
    MUL     SX2, ST0
    SUBM    SX1, ST1                 /* t1 = H = x2 Z1^2 - X1 */
    SQR
    STORE   ST3                      /* t3 = H^2 */
    MUL     SX1, ST3
    STORE   ST4                      /* t4 = V = X1 H^2 */
    MUL     ST3, ST1
    STORE   ST3                      /* t3 = H^3 */
    MUL     SY1, ST3
    STORE   ST5                      /* t5 = Y1 H^3 */
    MUL     ST0, SZ1
    STORE   ST0                      /* t0 = Z1^3 */
    MUL     SZ1, ST1
    STORE   SZ1                      /* Z3 = Z1 H */
    MUL     SY2, ST0
    SUBM    SY1, ST2                 /* t2 = r = y2 Z1^3 - Y1 */
    SQR
    SUBM    ST3
    SUBM    ST4
    SUBM    ST4, SX1                 /* X3 = r^2 - H^3 - 2V */
    SUBM    ST4, ST4, 1              /* t4 = V - X3 */
    MUL     ST2, ST4
    SUBM    ST5, SY1                 /* Y3 = r (V - X3) - Y1 H^3 */

    add     sp, sp, #LOCALS
    pop     {r4-r11, pc}
    .size   mb_p256_base_madd, .-mb_p256_base_madd
#endif
#endif /* MB_ASM_CORTEX_M4 */
