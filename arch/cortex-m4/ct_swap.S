/* SPDX-License-Identifier: MIT */
/*
 * Constant-time conditional swap of two adjacent 64-byte blocks, for the ladders.
 *
 *   ct_swap128_fast(w = r0, bit = r1): swap w[0..63] with w[64..127] if bit (0 or 1)
 *
 * Internal convention of the assembly ladders: clobbers r0-r12, keeps lr. Stack: 4.
 * CT: bit and the data are secret; no branch, fixed addresses, single-cycle SEL.
 */
    .syntax unified
    .thumb
    .text

/* Both ladders keep the two points they swap adjacent ((x2, z2), (x3, z3) for X25519;
 * R[0] = (X, Y), R[1] for P-256): one call swaps the 64 bytes at w with the 64 at w + 64,
 * with SEL (one cycle, byte-wise select on the APSR.GE flags) instead of three masked
 * EORs a word.
 * USUB8 of 0 - mask sets GE = 1111 for bit 0 (no borrow) and 0000 for bit 1: GE is
 * derived arithmetically from the secret bit, never branched on.
 * Register map: r3-r6 = x words, r7-r10 = the other pair's words, then the swapped
 * ones; r2, r11, r12, lr = selected x words. */
    .section .text.ct_swap128_fast,"ax",%progbits
    .p2align 2
    .global ct_swap128_fast
    .type   ct_swap128_fast, %function
    .thumb_func
ct_swap128_fast:
    push    {lr}
    and     r2, r1, #1
    rsb     r2, r2, #0
    mov     r3, #0
    usub8   r3, r3, r2
    add     r1, r0, #64
    .rept   4
    ldm     r0, {r3-r6}
    ldm     r1, {r7-r10}
    sel     r2, r3, r7
    sel     r7, r7, r3
    sel     r11, r4, r8
    sel     r8, r8, r4
    sel     r12, r5, r9
    sel     r9, r9, r5
    sel     lr, r6, r10
    sel     r10, r10, r6
    stm     r0!, {r2, r11, r12, lr}
    stm     r1!, {r7-r10}
    .endr
    pop     {pc}
    .size   ct_swap128_fast, .-ct_swap128_fast
