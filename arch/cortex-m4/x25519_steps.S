/* SPDX-License-Identifier: MIT */
/*
 * The 255 steps of the X25519 Montgomery ladder for the Cortex-M4.
 *
 *   void x25519_ladder_steps(fe25519 w[6], const uint8_t k[32], const fe25519 *x1,
 *                            const fe25519 *z1);
 *
 * w = {x2, z2, x3, z3, t0, t1}: on entry R0 = (x2 : z2), R1 = (x3 : z3) = P; on return
 * (x2 : z2) = [k]P over bits k_254..k_0 (same contract as src/curve/x25519_steps.c).
 * The base point is (x1 : z1); z1 == NULL means z1 = 1 (public, fixed per call).
 * Clobbers: r0-r3, r12 (AAPCS). Stack: 36 (saves) + 24 (frame) + 108 (deepest callee).
 * CT: k, w, x1, z1 secret. The loop counter and the byte/bit positions read from k are
 * public; the bit itself only feeds a mask (ct_swap128_fast). The only branches are
 * the loop and z1 == NULL. Before returning, the 128 bytes below the frame that the
 * field routines used for their products are zeroed.
 *
 * One step, temporaries kept to t0 and t1 (RFC 7748 formulas, z2 = E (BB + 121666 E)):
 *   t0 = A = x2 + z2, x2 = B = x2 - z2      z2 = C = x3 + z3, x3 = D = x3 - z3
 *   x3 = DA, z2 = CB, t0 = AA, x2 = BB      t1 = DA + CB, z3 = DA - CB
 *   x3 = t1^2 (* z1), z3 = z3^2 * x1        z2 = E = AA - BB
 *   t1 = 121666 E + BB, x2 = AA BB, z2 = E t1
 * Internal routines use the _fast convention (clobber r0-r12, keep lr), so nothing is
 * saved around the 18 calls of a step; operands are addressed from w each time.
 */
    .syntax unified
    .thumb
    .text

    .equ    X2, 0
    .equ    Z2, 32
    .equ    X3, 64
    .equ    Z3, 96
    .equ    T0, 128
    .equ    T1, 160
    .equ    F_W, 0          /* frame: w, k, x1, z1, loop counter t, swap bit */
    .equ    F_K, 4
    .equ    F_X1, 8
    .equ    F_Z1, 12
    .equ    F_T, 16
    .equ    F_SWAP, 20

    /* r0..r2 = w + a, w + b, w + c */
    .macro  ARGS3 a, b, c
    ldr     r12, [sp, #F_W]
    add     r0, r12, #\a
    add     r1, r12, #\b
    add     r2, r12, #\c
    .endm

    .section .text.x25519_ladder_steps,"ax",%progbits
    .p2align 2
    .global x25519_ladder_steps
    .type   x25519_ladder_steps, %function
    .thumb_func
x25519_ladder_steps:
    push    {r4-r11, lr}
    sub     sp, sp, #24
    stm     sp, {r0-r3}
    mov     r4, #254
    mov     r5, #0
    strd    r4, r5, [sp, #F_T]

.Lstep:
    ldrd    r4, r5, [sp, #F_T]   /* t (public), swap (secret) */
    ldr     r6, [sp, #F_K]
    lsr     r7, r4, #3
    ldrb    r7, [r6, r7]         /* k[t / 8]: public address */
    and     r8, r4, #7
    lsr     r7, r7, r8           /* register shift: one cycle whatever the value */
    and     r7, r7, #1           /* k_t */
    eor     r1, r5, r7           /* swap iff k_t != k_(t+1) */
    str     r7, [sp, #F_SWAP]
    ldr     r0, [sp, #F_W]
    bl      ct_swap128_fast

    ARGS3   T0, X2, X2
    add     r3, r12, #Z2
    bl      fe25519_addsub_fast  /* t0 = A, x2 = B */
    ARGS3   Z2, X3, X3
    add     r3, r12, #Z3
    bl      fe25519_addsub_fast  /* z2 = C, x3 = D */
    ARGS3   X3, X3, T0
    bl      fe25519_mul_fast     /* x3 = DA */
    ARGS3   Z2, Z2, X2
    bl      fe25519_mul_fast     /* z2 = CB */
    ARGS3   T0, T0, T0
    bl      fe25519_sqr_fast     /* t0 = AA */
    ARGS3   X2, X2, X2
    bl      fe25519_sqr_fast     /* x2 = BB */
    ARGS3   T1, Z3, X3
    add     r3, r12, #Z2
    bl      fe25519_addsub_fast  /* t1 = DA + CB, z3 = DA - CB */
    ARGS3   X3, T1, T1
    bl      fe25519_sqr_fast
    ARGS3   Z3, Z3, Z3
    bl      fe25519_sqr_fast
    ARGS3   Z3, Z3, Z3
    ldr     r2, [sp, #F_X1]
    bl      fe25519_mul_fast     /* z3 = x1 (DA - CB)^2 */
    ldr     r2, [sp, #F_Z1]
    cbz     r2, 1f               /* z1 == NULL: public, the same in every step */
    ARGS3   X3, X3, X3
    ldr     r2, [sp, #F_Z1]
    bl      fe25519_mul_fast     /* x3 = z1 (DA + CB)^2 */
1:  ARGS3   Z2, T0, X2
    bl      fe25519_sub_fast     /* z2 = E = AA - BB */
    ARGS3   T1, Z2, X2
    bl      fe25519_mul121666add_fast   /* t1 = 121666 E + BB */
    ARGS3   X2, T0, X2
    bl      fe25519_mul_fast     /* x2 = AA BB */
    ARGS3   Z2, Z2, T1
    bl      fe25519_mul_fast     /* z2 = E (BB + 121666 E) */

    ldr     r4, [sp, #F_T]
    subs    r4, r4, #1
    str     r4, [sp, #F_T]
    bpl     .Lstep

    ldr     r0, [sp, #F_W]
    ldr     r1, [sp, #F_SWAP]
    bl      ct_swap128_fast

    /* Zero the secret swap bit and what the callees left below our frame. */
    mov     r0, #0
    str     r0, [sp, #F_SWAP]
    mov     r1, #0
    mov     r2, #0
    mov     r3, #0
    sub     r12, sp, #128
    .rept   8
    stm     r12!, {r0-r3}
    .endr
    add     sp, sp, #24
    pop     {r4-r11, pc}
    .size   x25519_ladder_steps, .-x25519_ladder_steps
