/* SPDX-License-Identifier: MIT */
#include "util/backend.h"
#if MB_ASM_CORTEX_M4   /* else this file is empty (util/backend.h) */
/*
 * The X25519 fixed-base comb's inner operations (src/curve/x25519_base.h; replaces
 * src/curve/x25519_base_ops.c): the masked table lookup, the mixed addition and the
 * doubling.
 *
 * void mb_x25519_base_select8(mb_x25519_base_entry *r, const mb_x25519_base_entry *row,
 *                             uint32_t idx, uint32_t neg);
 * The masked lookup for 8 entries per block (MB_X25519_BASE_TEETH = 4, the default):
 * r = row[idx] (neg = 0) or -row[idx] = (ym, yp, 2^256 - 38 - td) (neg = 1).
 * An entry is 96 bytes: yp, ym, td, 8 words each. idx < 8, neg in {0, 1}.
 * Method: one pass per coordinate; the accumulator r4-r11 starts as entry 0's words and
 * every later entry i (in increasing order) replaces it iff i <= idx, so entry idx is
 * the last to do so. r12 = idx 0x01010101 - i 0x01010101 (32-bit): for i <= idx every
 * byte is idx - i <= 7; for i > idx it is 2^32 - (i - idx) 0x01010101, every byte
 * >= 0xf8. So UADD8 of r12 with itself sets all four GE flags exactly when i > idx, and
 * SEL keeps the accumulator then.
 * -td = ~td - 37 (= 2^256 - 38 - td; td < p, so no borrow out), chosen by SEL on GE
 * flags from neg's mask; yp and ym are exchanged the same way.
 * Register map: r12 = idx - i per byte, lr = entry pointer, r4-r11 accumulator, r0-r3
 * loaded words. Clobbers r0-r3, r12 (r4-r11, lr saved). Stack: 48 bytes.
 * CT: idx, neg and the result are secret. No branch; every entry is loaded at an address
 * that depends on row only; SEL/UADD8 take one cycle whatever the data.
 */
#ifndef MB_NO_FIXED_BASE
    .syntax unified
    .thumb

/* r4-r11 = coordinate at lr of row[idx]; lr advances by 8 entries (768 bytes).
 * [sp, #4] = idx in each byte. */
    .macro  SELPASS
    ldr     r12, [sp, #4]
    ldm     lr, {r4-r11}
    add     lr, lr, #96
    .rept   7
    sub     r12, r12, #0x01010101
    uadd8   r0, r12, r12         /* GE = 1111 iff i > idx */
    ldm     lr!, {r0-r3}
    sel     r4, r4, r0
    sel     r5, r5, r1
    sel     r6, r6, r2
    sel     r7, r7, r3
    ldm     lr, {r0-r3}
    sel     r8, r8, r0
    sel     r9, r9, r1
    sel     r10, r10, r2
    sel     r11, r11, r3
    add     lr, lr, #80
    .endr
    .endm

    .section .text.mb_x25519_base_select8,"ax",%progbits
    .p2align 2
    .global mb_x25519_base_select8
    .type   mb_x25519_base_select8, %function
    .thumb_func
mb_x25519_base_select8:
    push    {r0, r2-r11, lr}     /* [sp] = r, [sp, #4] = idx, [sp, #8] = neg */
    mov     r12, #0x01010101
    mul     r12, r2, r12
    str     r12, [sp, #4]        /* idx in each byte */
    mov     lr, r1
    SELPASS                      /* yp */
    ldr     r0, [sp]
    stm     r0, {r4-r11}
    sub     lr, lr, #736         /* back 768, on to the next coordinate */
    SELPASS                      /* ym */
    ldr     r0, [sp]
    add     r0, r0, #32
    stm     r0, {r4-r11}
    sub     lr, lr, #736
    SELPASS                      /* td */
    ldr     r0, [sp, #8]
    rsb     r0, r0, #0
    uadd8   r0, r0, r0           /* GE = 1111 iff neg */
    mvn     r0, r4               /* ~td - 37, borrow chain in the C flag (SEL keeps it) */
    subs    r0, r0, #37
    mvn     r1, r5
    sbcs    r1, r1, #0
    mvn     r2, r6
    sbcs    r2, r2, #0
    mvn     r3, r7
    sbcs    r3, r3, #0
    sel     r4, r0, r4
    sel     r5, r1, r5
    sel     r6, r2, r6
    sel     r7, r3, r7
    mvn     r0, r8
    sbcs    r0, r0, #0
    mvn     r1, r9
    sbcs    r1, r1, #0
    mvn     r2, r10
    sbcs    r2, r2, #0
    mvn     r3, r11
    sbc     r3, r3, #0
    sel     r8, r0, r8
    sel     r9, r1, r9
    sel     r10, r2, r10
    sel     r11, r3, r11
    ldr     r12, [sp]
    add     r0, r12, #64
    stm     r0, {r4-r11}
    /* yp <-> ym under the same GE flags, four words at a time. */
    add     lr, r12, #32
    .rept   2
    ldm     r12, {r0-r3}
    ldm     lr, {r4-r7}
    sel     r8, r4, r0
    sel     r9, r5, r1
    sel     r10, r6, r2
    sel     r11, r7, r3
    sel     r4, r0, r4
    sel     r5, r1, r5
    sel     r6, r2, r6
    sel     r7, r3, r7
    stm     r12!, {r8-r11}
    stm     lr!, {r4-r7}
    .endr
    pop     {r0, r2-r11, pc}
    .size   mb_x25519_base_select8, .-mb_x25519_base_select8

/*
 * void mb_x25519_base_madd(mb_x25519_base_point *p, const mb_x25519_base_entry *q,
 *                          int want_t, fe25519 t[4]);
 * p = p + q, the same field operations as the portable C (x25519_base_ops.c) with the
 * products by mb_fe25519_mul_reg (r1 = &f, r2 = &g -> r0-r7) and the sums and differences
 * by FE_ADD / FE_SUB (as in fe25519_addsub.S), all from and to memory: p (X Y Z T at 0,
 * 32, 64, 96), q (yp ym td at 0, 32, 64), the caller's scratch t (4 slots).
 * Frame: [sp] p, [sp, #4] q, [sp, #8] want_t, [sp, #12] t, then r4-r11, lr (52 bytes),
 * and the kernel's 44 bytes below sp. Clobbers r0-r3, r12.
 * CT: p, q, t secret; the only branch is on want_t (public: the comb's block index).
 * The kernel's frame below sp keeps product words, as after the C entry mb_fe25519_mul.
 */

/* [r0] = [r1] + [r2] mod 2^256 - 38 (fe25519_addsub.S's FE_ADD): a carry out of bit 256
 * is worth 38; folding it can carry once more only if the sum wrapped below 38. */
    .macro  BADD
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
    sbc     r3, r3, r3
    bic     r3, r12, r3
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

/* [r0] = [r1] - [r2] mod 2^256 - 38 (FE_SUB): a borrow out of bit 256 subtracts 38
 * more; a second borrow leaves word 0 >= 2^32 - 38, so a last -38 cannot borrow. */
    .macro  BSUB
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
    sbc     r3, r3, r3
    and     r3, r3, r12
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

/* Load the address frame slot \slot + \off into \reg. */
    .macro  ADR_OF reg, slot, off
    ldr     \reg, [sp, #\slot]
    .if \off
    add     \reg, \reg, #\off
    .endif
    .endm

#define FP 0
#define FQ 4
#define FW 8
#define FT 12

/* [out] = [f] op [g], each an (frame slot, offset) pair. */
    .macro  ADDSUB op, os, oo, fs, fo, gs, go
    ADR_OF  r0, \os, \oo
    ADR_OF  r1, \fs, \fo
    ADR_OF  r2, \gs, \go
    \op
    .endm

/* [out] = [f] [g] by the register kernel. */
    .macro  BMUL os, oo, fs, fo, gs, go
    ADR_OF  r1, \fs, \fo
    ADR_OF  r2, \gs, \go
    bl      mb_fe25519_mul_reg
    ADR_OF  r8, \os, \oo
    stm     r8, {r0-r7}
    .endm

    .section .text.mb_x25519_base_madd,"ax",%progbits
    .p2align 2
    .global mb_x25519_base_madd
    .type   mb_x25519_base_madd, %function
    .thumb_func
mb_x25519_base_madd:
    push    {r0-r11, lr}
    ADDSUB  BSUB, FT, 0, FP, 32, FP, 0      /* t0 = Y - X */
    ADDSUB  BADD, FT, 32, FP, 32, FP, 0     /* t1 = Y + X */
    BMUL    FT, 0, FT, 0, FQ, 32            /* A = t0 ym */
    BMUL    FT, 32, FT, 32, FQ, 0           /* B = t1 yp */
    ADDSUB  BSUB, FT, 64, FT, 32, FT, 0     /* E = B - A */
    ADDSUB  BADD, FT, 32, FT, 32, FT, 0     /* H = B + A */
    BMUL    FT, 0, FP, 96, FQ, 64           /* C = T td */
    ADDSUB  BSUB, FT, 96, FP, 64, FT, 0     /* F = Z - C */
    ADDSUB  BADD, FT, 0, FP, 64, FT, 0      /* G = Z + C */
    BMUL    FP, 0, FT, 64, FT, 96           /* X = E F */
    BMUL    FP, 32, FT, 0, FT, 32           /* Y = G H */
    BMUL    FP, 64, FT, 96, FT, 0           /* Z = F G */
    ldr     r0, [sp, #FW]
    cbz     r0, 1f                          /* want_t is public */
    BMUL    FP, 96, FT, 64, FT, 32          /* T = E H */
1:
    add     sp, sp, #16
    pop     {r4-r11, pc}
    .size   mb_x25519_base_madd, .-mb_x25519_base_madd

/*
 * void mb_x25519_base_dbl(mb_x25519_base_point *p, fe25519 t[4]);
 * p = 2p, the portable C's field operations (x25519_base_ops.c) over the register kernels
 * as in mb_x25519_base_madd (same frame layout: [sp] p, [sp, #12] t).
 * CT: p, t secret; straight-line code.
 */
    .section .text.mb_x25519_base_dbl,"ax",%progbits
    .p2align 2
    .global mb_x25519_base_dbl
    .type   mb_x25519_base_dbl, %function
    .thumb_func
mb_x25519_base_dbl:
    push    {r0-r11, lr}
    str     r1, [sp, #FT]
    ADDSUB  BADD, FT, 0, FP, 0, FP, 32      /* t0 = X + Y */
    ADR_OF  r8, FT, 0
    ldm     r8, {r0-r7}
    bl      mb_fe25519_sqr_reg
    ADR_OF  r8, FT, 0
    stm     r8, {r0-r7}                     /* (X + Y)^2 */
    ADDSUB  BADD, FT, 32, FP, 0, FP, 0      /* t1 = X + X */
    BMUL    FT, 32, FT, 32, FP, 32          /* E = 2XY */
    ADDSUB  BSUB, FT, 0, FT, 0, FT, 32      /* H' = (X + Y)^2 - E */
    ADDSUB  BSUB, FT, 64, FP, 32, FP, 0     /* t2 = Y - X */
    ADDSUB  BADD, FT, 96, FP, 32, FP, 0     /* t3 = Y + X */
    BMUL    FT, 64, FT, 64, FT, 96          /* G */
    ADDSUB  BADD, FT, 96, FP, 64, FP, 64    /* t3 = Z + Z */
    BMUL    FT, 96, FT, 96, FP, 64          /* 2 Z^2 */
    ADDSUB  BSUB, FT, 96, FT, 96, FT, 64    /* F' = 2 Z^2 - G */
    BMUL    FP, 0, FT, 32, FT, 96           /* X = E F' */
    BMUL    FP, 32, FT, 64, FT, 0           /* Y = G H' */
    BMUL    FP, 64, FT, 96, FT, 64          /* Z = F' G */
    BMUL    FP, 96, FT, 32, FT, 0           /* T = E H' */
    add     sp, sp, #16
    pop     {r4-r11, pc}
    .size   mb_x25519_base_dbl, .-mb_x25519_base_dbl
#endif
#endif /* MB_ASM_CORTEX_M4 */
