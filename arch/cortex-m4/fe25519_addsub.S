/* SPDX-License-Identifier: MIT */
#include "util/backend.h"
#if MB_ASM_CORTEX_M4   /* else this file is empty (util/backend.h) */
/*
 * Additive GF(2^255-19) operations for the Cortex-M4, values mod 2^256-38 (fe25519.h).
 *
 *   void mb_fe25519_add(fe25519 *h, const fe25519 *f, const fe25519 *g);   h = f + g
 *   void mb_fe25519_sub(fe25519 *h, const fe25519 *f, const fe25519 *g);   h = f - g
 *   void mb_fe25519_mul121666(fe25519 *h, const fe25519 *f);               h = 121666 f
 *   void mb_fe25519_cswap(fe25519 *f, fe25519 *g, uint32_t bit);           swap if bit
 * (the C entries; x25519_scalarmult.S has the ladder's own fused operations).
 *
 * Inputs: any 256-bit values; outputs < 2^256 and congruent mod 2^256-38. Outputs may
 * alias inputs (all loads happen before the stores).
 * Clobbers: r0-r3, r12 (r4-r11, lr saved: 36 bytes of stack).
 * CT: all inputs secret, bit too. No branch; carries become masks via SBC.
 */
    .syntax unified
    .thumb
    .text

/* [r0] = [r1] + [r2]. A carry out of bit 256 is worth 38. Folding 38*carry can carry
 * out once more only if the sum wrapped to below 38, and then +38 on word 0 cannot
 * overflow. Register map: r4-r11 = f then h, r1/r3/r12/lr = g words. */
    .macro  FE_ADD
    ldm     r1, {r4-r11}
    ldm     r2!, {r1, r3, r12, lr}
    adds    r4, r4, r1
    adcs    r5, r5, r3
    adcs    r6, r6, r12
    adcs    r7, r7, lr
    ldm     r2, {r1, r3, r12, lr}
    adcs    r8, r8, r1
    adcs    r9, r9, r3
    adcs    r10, r10, r12
    adcs    r11, r11, lr
    mov     r12, #38
    sbc     r3, r3, r3           /* carry ? 0 : -1 */
    bic     r3, r12, r3          /* carry ? 38 : 0 */
    adds    r4, r4, r3
    adcs    r5, r5, #0
    adcs    r6, r6, #0
    adcs    r7, r7, #0
    adcs    r8, r8, #0
    adcs    r9, r9, #0
    adcs    r10, r10, #0
    adcs    r11, r11, #0
    sbc     r3, r3, r3
    bic     r3, r12, r3
    add     r4, r4, r3
    stm     r0, {r4-r11}
    .endm

/* [r0] = [r1] - [r2]. A borrow out of bit 256 means we hold f - g + 2^256; subtract 38
 * to get f - g + (2^256-38). If that borrows again the value wrapped to >= 2^256-38,
 * so word 0 is >= 2^32-38 and subtracting 38 once more cannot borrow. */
    .macro  FE_SUB
    ldm     r1, {r4-r11}
    ldm     r2!, {r1, r3, r12, lr}
    subs    r4, r4, r1
    sbcs    r5, r5, r3
    sbcs    r6, r6, r12
    sbcs    r7, r7, lr
    ldm     r2, {r1, r3, r12, lr}
    sbcs    r8, r8, r1
    sbcs    r9, r9, r3
    sbcs    r10, r10, r12
    sbcs    r11, r11, lr
    mov     r12, #38
    sbc     r3, r3, r3           /* borrow ? -1 : 0 */
    and     r3, r3, r12          /* borrow ? 38 : 0 */
    subs    r4, r4, r3
    sbcs    r5, r5, #0
    sbcs    r6, r6, #0
    sbcs    r7, r7, #0
    sbcs    r8, r8, #0
    sbcs    r9, r9, #0
    sbcs    r10, r10, #0
    sbcs    r11, r11, #0
    sbc     r3, r3, r3
    and     r3, r3, r12
    sub     r4, r4, r3
    stm     r0, {r4-r11}
    .endm

/* Masked swap of 4n words at [r0] and [r1], mask in r2: t = (f ^ g) & m; f ^= t;
 * g ^= t. Register map: r3-r6 = f words, r7-r10 = g words, r11/r12 = temporaries. */
    .macro  CSWAP_WORDS n
    .rept   \n
    ldm     r0, {r3-r6}
    ldm     r1, {r7-r10}
    eor     r11, r3, r7
    and     r11, r11, r2
    eor     r3, r3, r11
    eor     r7, r7, r11
    eor     r12, r4, r8
    and     r12, r12, r2
    eor     r4, r4, r12
    eor     r8, r8, r12
    eor     r11, r5, r9
    and     r11, r11, r2
    eor     r5, r5, r11
    eor     r9, r9, r11
    eor     r12, r6, r10
    and     r12, r12, r2
    eor     r6, r6, r12
    eor     r10, r10, r12
    stm     r0!, {r3-r6}
    stm     r1!, {r7-r10}
    .endr
    .endm

    .section .text.mb_fe25519_add,"ax",%progbits
    .p2align 2
    .global mb_fe25519_add
    .type   mb_fe25519_add, %function
    .thumb_func
mb_fe25519_add:
    push    {r4-r11, lr}
    FE_ADD
    pop     {r4-r11, pc}
    .size   mb_fe25519_add, .-mb_fe25519_add

    .section .text.mb_fe25519_sub,"ax",%progbits
    .p2align 2
    .global mb_fe25519_sub
    .type   mb_fe25519_sub, %function
    .thumb_func
mb_fe25519_sub:
    push    {r4-r11, lr}
    FE_SUB
    pop     {r4-r11, pc}
    .size   mb_fe25519_sub, .-mb_fe25519_sub

/* h = 121666 f: one UMAAL chain with the constant, then the carry word (< 121666)
 * times 38 folded in as for a product. Register map: r4-r11 = f then h, r2 = carry,
 * r3 = 121666, r12 = 38. */
    .section .text.mb_fe25519_mul121666,"ax",%progbits
    .p2align 2
    .global mb_fe25519_mul121666
    .type   mb_fe25519_mul121666, %function
    .thumb_func
mb_fe25519_mul121666:
    push    {r4-r11, lr}
    ldm     r1, {r4-r11}
    movw    r3, #:lower16:121666
    movt    r3, #:upper16:121666
    umull   r4, r2, r4, r3
    .irp    f, r5, r6, r7, r8, r9, r10, r11
    mov     r1, #0
    umaal   r1, r2, \f, r3
    mov     \f, r1
    .endr
    mov     r12, #38
    mov     r1, #0
    umaal   r4, r1, r2, r12      /* r4 += 38 * carry; r1 = its carry */
    adds    r5, r5, r1
    adcs    r6, r6, #0
    adcs    r7, r7, #0
    adcs    r8, r8, #0
    adcs    r9, r9, #0
    adcs    r10, r10, #0
    adcs    r11, r11, #0
    sbc     r3, r3, r3
    bic     r3, r12, r3
    add     r4, r4, r3
    stm     r0, {r4-r11}
    pop     {r4-r11, pc}
    .size   mb_fe25519_mul121666, .-mb_fe25519_mul121666

    .section .text.mb_fe25519_cswap,"ax",%progbits
    .p2align 2
    .global mb_fe25519_cswap
    .type   mb_fe25519_cswap, %function
    .thumb_func
mb_fe25519_cswap:
    push    {r4-r11, lr}
    and     r2, r2, #1
    rsb     r2, r2, #0
    CSWAP_WORDS 2
    pop     {r4-r11, pc}
    .size   mb_fe25519_cswap, .-mb_fe25519_cswap
#endif /* MB_ASM_CORTEX_M4 */
