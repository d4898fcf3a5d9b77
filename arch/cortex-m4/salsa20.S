/* SPDX-License-Identifier: MIT */
#include "util/backend.h"
#if MB_ASM_CORTEX_M4   /* else this file is empty (util/backend.h) */
/*
 * The Salsa20 core for the Cortex-M4 (same contract as src/sym/salsa20.h).
 *
 *   void mb_salsa20_block(uint8_t out[64], const uint8_t in[16], const uint8_t k[32]);
 *   void mb_hsalsa20_core(uint8_t out[32], const uint8_t in[16], const uint8_t k[32],
 *                         const uint8_t c[16]);
 *
 * Pointers need not be word-aligned (single LDR/STR only: the M4 allows unaligned
 * ones; never LDM/LDRD on them). Clobbers r0-r3, r12; r4-r11, lr saved.
 * Stack: 48 (saves) + 32 (spill slots, counter) + 4 = 84 bytes; the spill slots are
 * zeroed before return.
 * CT: k, in (Salsa20 input) and the state are secret; only add, eor with a constant
 * rotation, and loads/stores at fixed offsets.
 *
 * Method: a quarter-round step b ^= (a + d) <<< n is "add lr, a, d; eor b, b, lr,
 * ror #(32-n)": two single-cycle instructions. 13 state words live in registers, 3 in
 * stack slots. A double round runs column quarter-rounds C1-C3 with {x3, x7, x11}
 * spilled, swaps them for {x12, x13, x14} (registers r10-r12 change words), runs C4 and
 * row quarter-rounds R1-R3, and swaps back before R4: {x12, x13, x14} all sit in R4
 * and {x3, x7, x11} in C4, so two 3-word swaps per double round suffice.
 *
 * Register map: x0 r0, x1 r1, x2 r2, x4 r3, x5 r4, x6 r5, x8 r6, x9 r7, x10 r8, x15 r9;
 * r10/r11/r12 = x12/x13/x14 (or x3/x7/x11 between the swaps); lr = sum temporary.
 * Slots (from sp inside salsa20_rounds_fast): +4 x3, +8 x7, +12 x11, +16 x12, +20 x13,
 * +24 x14, +28 round counter.
 */
    .syntax unified
    .thumb
    .text

    .macro  QR a, b, c, d
    add     lr, \a, \d
    eor     \b, \b, lr, ror #25
    add     lr, \b, \a
    eor     \c, \c, lr, ror #23
    add     lr, \c, \b
    eor     \d, \d, lr, ror #19
    add     lr, \d, \c
    eor     \a, \a, lr, ror #14
    .endm

    .macro  DOUBLEROUND
    QR      r0, r3, r6, r10          /* C1: x0 x4 x8 x12 */
    QR      r4, r7, r11, r1          /* C2: x5 x9 x13 x1 */
    QR      r8, r12, r2, r5          /* C3: x10 x14 x2 x6 */
    str     r10, [sp, #16]           /* swap: x12 x13 x14 out, x3 x7 x11 in */
    ldr     r10, [sp, #4]
    str     r11, [sp, #20]
    ldr     r11, [sp, #8]
    str     r12, [sp, #24]
    ldr     r12, [sp, #12]
    QR      r9, r10, r11, r12        /* C4: x15 x3 x7 x11 */
    QR      r0, r1, r2, r10          /* R1: x0 x1 x2 x3 */
    QR      r4, r5, r11, r3          /* R2: x5 x6 x7 x4 */
    QR      r8, r12, r6, r7          /* R3: x10 x11 x8 x9 */
    str     r10, [sp, #4]            /* swap back */
    ldr     r10, [sp, #16]
    str     r11, [sp, #8]
    ldr     r11, [sp, #20]
    str     r12, [sp, #12]
    ldr     r12, [sp, #24]
    QR      r9, r10, r11, r12        /* R4: x15 x12 x13 x14 */
    .endm

/* 20 rounds on the state in r0-r12 and the slots. Internal: clobbers lr only as
 * scratch (saved first), keeps the register map. */
    .section .text.salsa20_rounds_fast,"ax",%progbits
    .p2align 2
    .type   salsa20_rounds_fast, %function
    .thumb_func
salsa20_rounds_fast:
    push    {lr}
    mov     lr, #5                   /* 5 x 2 double rounds */
    str     lr, [sp, #28]
1:  DOUBLEROUND
    DOUBLEROUND
    ldr     lr, [sp, #28]
    subs    lr, lr, #1               /* public round counter */
    str     lr, [sp, #28]
    bne     1b
    pop     {pc}
    .size   salsa20_rounds_fast, .-salsa20_rounds_fast

/* Key and input words into the register map and slots; r1 = in, r2 = k on entry.
 * Slots are addressed from sp before the call (salsa20_rounds_fast's +4 is +0 here). */
    .macro  LOAD_KEY_IN
    mov     lr, r1
    mov     r12, r2
    ldr     r1, [r12, #0]            /* x1..x4 = k[0..15] */
    ldr     r2, [r12, #4]
    ldr     r10, [r12, #8]
    str     r10, [sp, #0]            /* x3 */
    ldr     r3, [r12, #12]
    ldr     r5, [lr, #0]             /* x6..x9 = in */
    ldr     r10, [lr, #4]
    str     r10, [sp, #4]            /* x7 */
    ldr     r6, [lr, #8]
    ldr     r7, [lr, #12]
    ldr     r10, [r12, #16]          /* x11..x14 = k[16..31] */
    str     r10, [sp, #8]            /* x11 */
    ldr     r10, [r12, #20]
    ldr     r11, [r12, #24]
    ldr     r12, [r12, #28]
    .endm

    .macro  ZERO_SLOTS
    mov     r0, #0
    mov     r1, #0
    mov     r2, #0
    mov     r3, #0
    stm     sp, {r0-r3}
    add     r12, sp, #16
    stm     r12, {r0-r3}
    .endm

    .equ    SIGMA0, 0x61707865       /* "expa" */
    .equ    SIGMA1, 0x3320646e       /* "nd 3" */
    .equ    SIGMA2, 0x79622d32       /* "2-by" */
    .equ    SIGMA3, 0x6b206574       /* "te k" */

/* Frame: sp+0..31 slots/counter, sp+32 out, +36 in, +40 k, then r4-r11, lr. */
    .section .text.mb_salsa20_block,"ax",%progbits
    .p2align 2
    .global mb_salsa20_block
    .type   mb_salsa20_block, %function
    .thumb_func
mb_salsa20_block:
    push    {r0-r2, r4-r11, lr}
    sub     sp, sp, #32
    LOAD_KEY_IN
    movw    r0, #:lower16:SIGMA0
    movt    r0, #:upper16:SIGMA0
    movw    r4, #:lower16:SIGMA1
    movt    r4, #:upper16:SIGMA1
    movw    r8, #:lower16:SIGMA2
    movt    r8, #:upper16:SIGMA2
    movw    r9, #:lower16:SIGMA3
    movt    r9, #:upper16:SIGMA3
    bl      salsa20_rounds_fast

    /* Feed-forward: out = state + input, re-reading the input instead of keeping it. */
    movw    lr, #:lower16:SIGMA0
    movt    lr, #:upper16:SIGMA0
    add     r0, r0, lr
    ldr     lr, [sp, #32]
    str     r0, [lr, #0]
    mov     r0, lr                   /* r0 = out from here on */
    movw    lr, #:lower16:SIGMA1
    movt    lr, #:upper16:SIGMA1
    add     r4, r4, lr
    str     r4, [r0, #20]            /* r4 is free: the loaded input word */
    movw    lr, #:lower16:SIGMA2
    movt    lr, #:upper16:SIGMA2
    add     r8, r8, lr
    str     r8, [r0, #40]
    movw    lr, #:lower16:SIGMA3
    movt    lr, #:upper16:SIGMA3
    add     r9, r9, lr
    str     r9, [r0, #60]
    ldr     lr, [sp, #40]            /* k */
    .macro  FF x, off, src
    ldr     r4, [lr, #\src]
    add     \x, \x, r4
    str     \x, [r0, #\off]
    .endm
    FF      r1, 4, 0
    FF      r2, 8, 4
    ldr     r1, [sp, #0]             /* x3 */
    FF      r1, 12, 8
    FF      r3, 16, 12
    ldr     r1, [sp, #8]             /* x11 */
    FF      r1, 44, 16
    FF      r10, 48, 20
    FF      r11, 52, 24
    FF      r12, 56, 28
    ldr     lr, [sp, #36]            /* in */
    FF      r5, 24, 0
    ldr     r1, [sp, #4]             /* x7 */
    FF      r1, 28, 4
    FF      r6, 32, 8
    FF      r7, 36, 12
    ZERO_SLOTS
    add     sp, sp, #44
    pop     {r4-r11, pc}
    .size   mb_salsa20_block, .-mb_salsa20_block

/* HSalsa20: the constants come from c (r3); the output is x0 x5 x10 x15 x6 x7 x8 x9
 * with no feed-forward. Frame as mb_salsa20_block (+32 out). */
    .section .text.mb_hsalsa20_core,"ax",%progbits
    .p2align 2
    .global mb_hsalsa20_core
    .type   mb_hsalsa20_core, %function
    .thumb_func
mb_hsalsa20_core:
    push    {r0-r2, r4-r11, lr}
    sub     sp, sp, #32
    ldr     r0, [r3, #0]             /* constants first: r3 is x4's register */
    ldr     r4, [r3, #4]
    ldr     r8, [r3, #8]
    ldr     r9, [r3, #12]
    LOAD_KEY_IN
    bl      salsa20_rounds_fast
    ldr     lr, [sp, #32]
    str     r0, [lr, #0]
    str     r4, [lr, #4]
    str     r8, [lr, #8]
    str     r9, [lr, #12]
    str     r5, [lr, #16]
    ldr     r1, [sp, #4]             /* x7 */
    str     r1, [lr, #20]
    str     r6, [lr, #24]
    str     r7, [lr, #28]
    ZERO_SLOTS
    add     sp, sp, #44
    pop     {r4-r11, pc}
    .size   mb_hsalsa20_core, .-mb_hsalsa20_core
#endif /* MB_ASM_CORTEX_M4 */
