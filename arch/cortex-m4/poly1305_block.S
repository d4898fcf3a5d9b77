/* SPDX-License-Identifier: MIT */
/*
 * One Poly1305 block for the Cortex-M4, on the portable 26-bit-limb state
 * (src/sym/poly1305.h: r[5] at +0, h[5] at +20), so init/update/final stay portable.
 *
 *   void poly1305_block(poly1305_state *st, const uint8_t b[16], uint32_t hibit);
 *   h = (h + b + hibit * 2^128) * r mod 2^130-5, partially reduced
 *
 * Bounds: as the portable poly1305_block (same arithmetic): h limbs < 2^26 (h1 < 2^26 +
 * 2^6) on entry and exit; r clamped, so 5*r fits in 29 bits and each column sums to
 * < 2^57, whose carry (>> 26) fits in 31 bits. b need not be word-aligned.
 * Clobbers r0-r3, r12; r4-r11, lr saved. Stack: 36 bytes.
 * CT: b, h, r secret; fixed sequence of UMULL/UMLAL (single cycle, TRM table 3-1),
 * shifts by constants, loads and stores at fixed offsets.
 *
 * Register map: r0 = st, r4-r8 = h0..h4, r9-r12, lr = r0..r4, r3:r2 = column sum,
 * r1 = 5*r_j computed on the fly (the state has no room for it).
 */
    .syntax unified
    .thumb
    .text

    /* new h_j = column & (2^26-1) to st->h[j]; r3:r2 = column >> 26 */
    .macro  LIMB j
    ubfx    r1, r2, #0, #26
    str     r1, [r0, #20+4*\j]
    lsr     r2, r2, #26
    orr     r2, r2, r3, lsl #6
    mov     r3, #0
    .endm
    .macro  S5 rj
    add     r1, \rj, \rj, lsl #2
    .endm

    .section .text.poly1305_block,"ax",%progbits
    .p2align 2
    .global poly1305_block
    .type   poly1305_block, %function
    .thumb_func
poly1305_block:
    push    {r4-r11, lr}
    add     r3, r0, #20
    ldm     r3, {r4-r8}
    ldr     r9, [r1, #0]
    ldr     r10, [r1, #4]
    ldr     r11, [r1, #8]
    ldr     r12, [r1, #12]
    /* h += block split at bits 0, 26, 52, 78, 104, plus hibit at bit 128 */
    ubfx    r3, r9, #0, #26
    add     r4, r4, r3
    lsr     r3, r9, #26
    orr     r3, r3, r10, lsl #6
    bfc     r3, #26, #6
    add     r5, r5, r3
    lsr     r3, r10, #20
    orr     r3, r3, r11, lsl #12
    bfc     r3, #26, #6
    add     r6, r6, r3
    lsr     r3, r11, #14
    orr     r3, r3, r12, lsl #18
    bfc     r3, #26, #6
    add     r7, r7, r3
    lsr     r3, r12, #8
    orr     r3, r3, r2, lsl #24
    add     r8, r8, r3
    ldm     r0, {r9-r12, lr}
    /* d0 = h0 r0 + 5 (h1 r4 + h2 r3 + h3 r2 + h4 r1) */
    umull   r2, r3, r4, r9
    S5      lr
    umlal   r2, r3, r5, r1
    S5      r12
    umlal   r2, r3, r6, r1
    S5      r11
    umlal   r2, r3, r7, r1
    S5      r10
    umlal   r2, r3, r8, r1
    LIMB    0
    /* d1 = c + h0 r1 + h1 r0 + 5 (h2 r4 + h3 r3 + h4 r2) */
    umlal   r2, r3, r4, r10
    umlal   r2, r3, r5, r9
    S5      lr
    umlal   r2, r3, r6, r1
    S5      r12
    umlal   r2, r3, r7, r1
    S5      r11
    umlal   r2, r3, r8, r1
    LIMB    1
    /* d2 = c + h0 r2 + h1 r1 + h2 r0 + 5 (h3 r4 + h4 r3) */
    umlal   r2, r3, r4, r11
    umlal   r2, r3, r5, r10
    umlal   r2, r3, r6, r9
    S5      lr
    umlal   r2, r3, r7, r1
    S5      r12
    umlal   r2, r3, r8, r1
    LIMB    2
    /* d3 = c + h0 r3 + h1 r2 + h2 r1 + h3 r0 + 5 h4 r4 */
    umlal   r2, r3, r4, r12
    umlal   r2, r3, r5, r11
    umlal   r2, r3, r6, r10
    umlal   r2, r3, r7, r9
    S5      lr
    umlal   r2, r3, r8, r1
    LIMB    3
    /* d4 = c + h0 r4 + h1 r3 + h2 r2 + h3 r1 + h4 r0 */
    umlal   r2, r3, r4, lr
    umlal   r2, r3, r5, r12
    umlal   r2, r3, r6, r11
    umlal   r2, r3, r7, r10
    umlal   r2, r3, r8, r9
    LIMB    4
    /* The carry out of limb 4 (< 2^29.1) re-enters limb 0 times 5 (2^130 = 5). */
    ldr     r4, [r0, #20]
    ldr     r5, [r0, #24]
    add     r2, r2, r2, lsl #2
    add     r4, r4, r2
    lsr     r3, r4, #26
    bfc     r4, #26, #6
    add     r5, r5, r3
    str     r4, [r0, #20]
    str     r5, [r0, #24]
    pop     {r4-r11, pc}
    .size   poly1305_block, .-poly1305_block
