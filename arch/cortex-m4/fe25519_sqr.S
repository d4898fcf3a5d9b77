/* SPDX-License-Identifier: MIT */
/*
 * fe25519_sqr for the Cortex-M4: h = f^2 mod 2^256-38.
 *
 *   void fe25519_sqr(fe25519 *h, const fe25519 *f);
 *   fe25519_sqr_fast: the same for assembly callers; clobbers r0-r12, keeps lr.
 *
 * Squaring is the column-wise multiplication with g = f (fe25519_mul.S): measured in
 * the cycle model it beats the dedicated cross-products-then-double squaring we had,
 * whose doubling pass cost more than the 28 products it saved.
 * Inputs, outputs, stack, CT: as fe25519_mul.
 */
    .syntax unified
    .thumb
    .text

    .global fe25519_sqr
    .type   fe25519_sqr, %function
    .thumb_func
fe25519_sqr:
    mov     r2, r1
    b       fe25519_mul

    .global fe25519_sqr_fast
    .type   fe25519_sqr_fast, %function
    .thumb_func
fe25519_sqr_fast:
    mov     r2, r1
    b       fe25519_mul_fast
    .size   fe25519_sqr_fast, .-fe25519_sqr_fast
    .size   fe25519_sqr, .-fe25519_sqr
