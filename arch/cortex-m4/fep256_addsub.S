/* SPDX-License-Identifier: MIT */
#include "util/backend.h"
#if MB_ASM_CORTEX_M4   /* else this file is empty (util/backend.h) */
/*
 * Additive GF(p256) operations for the Cortex-M4, p = 2^256 - 2^224 + 2^192 + 2^96 - 1,
 * 8 x 32-bit little-endian limbs, every value fully reduced (< p) as fep256.h requires.
 *
 *   void mb_fep256_add(fep256 *h, const fep256 *f, const fep256 *g);   h = f + g mod p
 *   void mb_fep256_sub(fep256 *h, const fep256 *f, const fep256 *g);   h = f - g mod p
 *   (the ladder, p256_ladder.S, has its own in-register forms of both: SUBM, ADDM)
 *
 * Inputs: f, g < p. Output: h < p; h may alias f or g (all loads precede the store).
 * Clobbers: r0-r3, r12 (AAPCS; r4-r11 and lr saved: 36 bytes of stack).
 * CT: f, g secret. No branch, no data-dependent address; carries become masks via SBC
 *     ([SAK18], Algorithm 2), and p's words -1, -1, -1, 0, 0, 0, 1, -1 make the masked
 *     p the mask itself, zeros, and mask >> 31.
 * Register map: r4-r11 = f, then the result; r1/r3/r12 = g words (three at a time, so
 * lr stays free), then the top word and the mask; r0 = h, r2 = g.
 */
    .syntax unified
    .thumb
    .text

/* h = f op g over 8 words with op = adds/adcs or subs/sbcs; leaves the carry flag. */
    .macro  LOAD_OP op0, op
    ldm     r1, {r4-r11}
    ldm     r2!, {r1, r3, r12}
    \op0    r4, r4, r1
    \op     r5, r5, r3
    \op     r6, r6, r12
    ldm     r2!, {r1, r3, r12}
    \op     r7, r7, r1
    \op     r8, r8, r3
    \op     r9, r9, r12
    ldm     r2, {r1, r3}
    \op     r10, r10, r1
    \op     r11, r11, r3
    .endm

/* r4-r11 += p & mask (mask in r1); ADD_MASKED_P 0, r0 stores the result to [r0]. */
#include "fep256_masked.inc"

/* f + g = V < 2p with V = top 2^256 + s. Subtract p from V; if that borrows (V < p),
 * add p back under the mask. */
    .macro  FEP_ADD
    LOAD_OP adds, adcs
    REDUCE_SUM 0, r0
    .endm

/* f - g; a borrow means f - g + 2^256 was computed: adding p under the mask wraps back
 * below 2^256 to f - g + p. */
    .macro  FEP_SUB
    LOAD_OP subs, sbcs
    sbc     r1, r1, r1               /* f < g ? -1 : 0 */
    ADD_MASKED_P 0, r0
    .endm

    .global mb_fep256_add
    .type   mb_fep256_add, %function
    .thumb_func
mb_fep256_add:
    push    {r4-r11, lr}
    FEP_ADD
    pop     {r4-r11, pc}
    .size   mb_fep256_add, .-mb_fep256_add

    .global mb_fep256_sub
    .type   mb_fep256_sub, %function
    .thumb_func
mb_fep256_sub:
    push    {r4-r11, lr}
    FEP_SUB
    pop     {r4-r11, pc}
    .size   mb_fep256_sub, .-mb_fep256_sub
#endif /* MB_ASM_CORTEX_M4 */
