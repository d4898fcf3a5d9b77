/* SPDX-License-Identifier: MIT */
#include "util/backend.h"
#if MB_ASM_MSP430X   /* else this file is empty (util/backend.h) */
/*
 * Poly1305 key setup and tag for the MSP430X backend (no multiplier, both builds): the
 * radix-2^32 state words of poly1305_blocks_mpy32.S / _mpy16.S (r in r[0..3], r[4] = 0,
 * h in h[0..4] with h[4] <= 4), read and written as 16-bit halves. With the blocks
 * function it replaces src/sym/poly1305_block.c.
 *
 *   void mb_poly1305_setkey(poly1305_state *st, const uint8_t r[16]);   r12 = st, r13 = r
 *   void mb_poly1305_emit(const poly1305_state *st, uint8_t tag[16]);   r12 = st, r13 = tag
 *
 * st is even (it holds uint32_t); r and tag may be odd (byte accesses).
 * setkey: st->r = r clamped (RFC 8439: r &= 0x0ffffffc0ffffffc0ffffffc0fffffff, which
 * makes r1..r3 multiples of 4 and every top half < 2^12, as the blocks functions
 * require), st->r[4] = 0, st->h = 0. Clobbers r13-r15. Stack 2. Cycles incl. call: 210
 * (once per message; tests/msp430/test_asm430_sym.py -s).
 * emit: h < 5 2^128 (h[4] <= 4), so one conditional subtraction of p reduces it:
 * h + 5 reaches 2^130 exactly when h >= p, and then h - p = (h + 5) - 2^130 has the low
 * 128 bits of h + 5. So tag = (h + 5 b + s) mod 2^128 with b = bit 130 of h + 5, taken
 * as 5 b = (b << 2) + b without a branch. Clobbers r11-r15; r4-r10 saved. Stack 16.
 * Cycles incl. call: 192.
 * CT: r, h, s secret; straight-line code, addresses from st, r, tag; the byte loops
 * count to 16 (public).
 */
#include "msp430x.inc"

    .equ    ST_H, 20
    .equ    ST_PAD, 40

    .section .text.mb_poly1305_setkey,"ax",@progbits
    .p2align 1
    .global mb_poly1305_setkey
    .type   mb_poly1305_setkey, @function
mb_poly1305_setkey:
    mov     r12, r14
    mov     #16, r15
1:  .word   0x40FE | (13 << 8), 0   /* mov.b @r13+, 0(r14) (LLVM rejects the form) */
    inc     r14
    dec     r15
    jnz     1b
    and     #0x0fff, 2(r12)         /* the clamp, 16 bits at a time */
    and     #0xfffc, 4(r12)
    and     #0x0fff, 6(r12)
    and     #0xfffc, 8(r12)
    and     #0x0fff, 10(r12)
    and     #0xfffc, 12(r12)
    and     #0x0fff, 14(r12)
    .irp    off, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38
    clr     \off(r12)               /* r[4], h[0..4] */
    .endr
    ret
    .size   mb_poly1305_setkey, .-mb_poly1305_setkey

    .section .text.mb_poly1305_emit,"ax",@progbits
    .p2align 1
    .global mb_poly1305_emit
    .type   mb_poly1305_emit, @function
mb_poly1305_emit:
    PUSHM_R4_R10
    /* b = bit 130 of h + 5: the carry chain of h + 5 into h8 (<= 5) */
    mov     ST_H(r12), r14
    add     #5, r14
    .irp    off, 2, 4, 6, 8, 10, 12, 14, 16
    mov     ST_H+\off(r12), r14
    adc     r14
    .endr
    rra     r14
    rra     r14
    and     #1, r14                 /* b */
    mov     r14, r15
    rla     r15
    rla     r15
    add     r14, r15                /* 5 b */
    /* tag = h + 5 b + s mod 2^128 */
    mov     ST_H(r12), r4
    add     r15, r4
    mov     ST_H+2(r12), r5
    adc     r5
    mov     ST_H+4(r12), r6
    adc     r6
    mov     ST_H+6(r12), r7
    adc     r7
    mov     ST_H+8(r12), r8
    adc     r8
    mov     ST_H+10(r12), r9
    adc     r9
    mov     ST_H+12(r12), r10
    adc     r10
    mov     ST_H+14(r12), r11
    adc     r11
    add     ST_PAD(r12), r4
    addc    ST_PAD+2(r12), r5
    addc    ST_PAD+4(r12), r6
    addc    ST_PAD+6(r12), r7
    addc    ST_PAD+8(r12), r8
    addc    ST_PAD+10(r12), r9
    addc    ST_PAD+12(r12), r10
    addc    ST_PAD+14(r12), r11
    .irp    r, r4, r5, r6, r7, r8, r9, r10, r11
    mov.b   \r, 0(r13)              /* little-endian bytes, any alignment */
    swpb    \r
    mov.b   \r, 1(r13)
    incd    r13
    .endr
    clr     r14
    clr     r15
    POPM_R4_R10
    ret
    .size   mb_poly1305_emit, .-mb_poly1305_emit
#endif /* MB_ASM_MSP430X */
