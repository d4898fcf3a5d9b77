/* SPDX-License-Identifier: MIT */
#include "util/backend.h"
#if MB_ASM_CORTEX_M4   /* else this file is empty (util/backend.h) */
/*
 * X25519 scalar multiplication for the Cortex-M4: the whole of mb_x25519_scalarmult
 * (src/curve/x25519_ladder.h; replaces src/curve/x25519_scalarmult.c) and
 * mb_fe25519_invert (src/field/fe25519.h; replaces src/field/fe25519_invert.c),
 * over the register interface of the field kernels:
 *   mb_fe25519_mul_reg  r1 = &f, r2 = &g -> r0-r7 = f g     (clobbers r8-r12, lr)
 *   mb_fe25519_sqr_reg  r0-r7 = f        -> r0-r7 = f^2     (clobbers r8-r12, lr)
 * Values stay in r0-r7 from one operation to the next where the dataflow allows, and
 * are stored (one STM) only where a product needs them in memory.
 *
 * Representation: 8 words, any value in [0, 2^256), congruent mod p = 2^255-19 (the
 * additions fold bits 255 and up as 19 each, 2^255 = 19 mod p; the subtraction folds a
 * borrow as 2^256 - 38); canonical mod p only when the result is written out.
 *
 * Ladder (RFC 7748 section 5, projective difference (x1 : z1)). The state is two slots,
 * P = (xP : zP) and Q = (xQ : zQ); after the step for bit k_t, P = R_(k_t) (the double)
 * and Q = R_(1-k_t) (the sum). Instead of swapping P and Q (4 elements), each step forms
 * A = xP + zP, B = xP - zP, C = xQ + zQ, D' = zQ - xQ from both slots unconditionally
 * and selects only the doubling's inputs, (A, B) or (C, D') by s = k_t xor k_(t+1):
 * the differential addition is symmetric in the two points (D'A and CB are the same
 * products either way, up to the sign of D', which only exchanges the roles of
 * CB + D'A and CB - D'A, and both are squared). So:
 *   P' = (AA BB, E (BB + 121666 E)), E = AA - BB, AA = sel(A, C)^2, BB = sel(B, D')^2
 *   Q' = (z1 (CB - D'A)^2, x1 (CB + D'A)^2)
 * The select is SEL on the GE flags (set by UADD8 of the mask with itself): one cycle
 * a word, no branch, no secret address.
 *
 * Frame (sp-relative, 32-byte slots): the five working slots hold the state and one
 * temporary; their roles through a step are listed at each operation (at most five
 * values are alive at once). zQ passes from one step to the next in r0-r7, and CB
 * from its product straight into mb_x25519_addsub_reg. Slot 0 is the one stored to most
 * often (STM sp needs no address computation).
 */
    .syntax unified
    .thumb
    .text

    .equ    SZQ, 0               /* D'; BB; t; (CB + D'A)^2 (zQ itself: in r0-r7) */
    .equ    SXP, 32              /* xP; B; xP' */
    .equ    SZP, 64              /* zP; A; AA; E; zP' */
    .equ    SXQ, 96              /* xQ; C; xQ' */
    .equ    ST, 128              /* D'A; CB + D'A */
    .equ    SX1, 160             /* x1 (u, or lambda u) */
    .equ    F_T, 192             /* bit position t (public); inversion: squarings left */
    .equ    F_K, 196             /* k; inversion: table pointer */
    .equ    F_PREV, 200          /* -k_(t+1) (secret); inversion: current table entry */
    .equ    F_MASK, 204          /* -(k_t xor k_(t+1)) (secret) */
    .equ    F_LR, 204            /* inversion: its return address (the mask is dead) */
    .equ    F_OUT, 208
    .equ    F_RND, 212           /* rnd pointer; NULL for the plain ladder (public) */
    .equ    FRAME, 216           /* + 36 saved = 252: sp stays word aligned */
    .equ    SZ1, 216             /* z1 = lambda: randomized only (frame 248) */
    .equ    WIPE_BELOW, 48       /* the kernels' stack below sp (interface bound) */
    /* inversion slots (the ladder's, once it is done; x stays in SXP) */
    .equ    IZ, 0
    .equ    IT0, 64
    .equ    IT1, 96
    .equ    IT2, 128

    .macro  PTR reg, off
    .if \off == 0
    mov     \reg, sp
    .else
    add     \reg, sp, #\off
    .endif
    .endm

    .macro  STORE off
    .if \off == 0
    stm     sp, {r0-r7}
    .else
    add     r8, sp, #\off
    stm     r8, {r0-r7}
    .endif
    .endm

    .macro  LOAD off
    .if \off == 0
    ldm     sp, {r0-r7}
    .else
    add     r8, sp, #\off
    ldm     r8, {r0-r7}
    .endif
    .endm

    .macro  MUL a, b
    PTR     r1, \a
    PTR     r2, \b
    bl      mb_fe25519_mul_reg
    .endm

/* r0-r7 = d, the raw f - g with the borrow in C clear: add 2^256 - 38 (that is, -38 mod
 * 2^256 on top of the wrapped value). If that does not carry out, the wrapped value was
 * below 38, the sum is >= 2^256 - 38, and subtracting 38 once more from word 0 cannot
 * borrow. Clobbers r8, r9. */
    .macro  FOLD_BORROW
    sbc     r8, r8, r8           /* borrow ? -1 : 0 */
    bic     r9, r8, #37          /* borrow ? -38 : 0 */
    adds    r0, r0, r9
    adcs    r1, r1, r8
    adcs    r2, r2, r8
    adcs    r3, r3, r8
    adcs    r4, r4, r8
    adcs    r5, r5, r8
    adcs    r6, r6, r8
    adcs    r7, r7, r8
    adc     r8, r8, #0           /* -1 only if the mask was set and nothing carried */
    bic     r9, r8, #37
    add     r0, r0, r9
    .endm

/* One word of mb_x25519_addsub: g_i -> r8, s_i = f_i + g_i + carry stored over g_i,
 * d_i = f_i - g_i - borrow into f_i's register. */
    .macro  ADDSUB_WORD i, f, first
    ldr     r8, [r12, #4*\i]
    mov     r9, r8
    umaal   r9, r10, \f, r11
    .if \first
    subs    \f, \f, r8
    .else
    sbcs    \f, \f, r8
    .endif
    str     r9, [r12, #4*\i]
    .endm

/*
 * mb_x25519_addsub: s = f + g stored over g, d = f - g returned.
 *   in: r8 = &f (mb_x25519_addsub_reg: f in r0-r7), r12 = &g (word-aligned, not
 *   overlapping f). out: [r12] = s (mod p),
 *   r0-r7 = d (mod 2p), both < 2^256. Clobbers r8-r11, flags; r12, lr kept. Stack: 0.
 * The sum folds first: q = (f7 + g7) >> 31 (0..3) is worth 19q at the bottom, so the
 * UMAAL chain (x + carry + f_i * 1, no flags) starts from 19q, and the top word gets
 * (f7 + g7) mod 2^31 plus the chain's last carry: one pass, no overflow. The flags carry
 * the subtraction's borrow alongside; d keeps f's registers.
 * CT: f, g secret; straight-line.
 */
    .section .text.mb_x25519_addsub,"ax",%progbits
    .p2align 2
    .type   mb_x25519_addsub, %function
    .thumb_func
mb_x25519_addsub:
    ldm     r8, {r0-r7}
    .thumb_func
mb_x25519_addsub_reg:            /* the same with f already in r0-r7 */
    ldr     r9, [r12, #28]
    adds    r10, r7, r9
    rrx     r10, r10             /* carry:bits 31..1 */
    lsr     r10, r10, #30        /* q = bits 256, 255 of f7 + g7 */
    add     r9, r10, r10, lsl #1
    add     r10, r9, r10, lsl #4 /* 19 q */
    mov     r11, #1
    ADDSUB_WORD 0, r0, 1
    ADDSUB_WORD 1, r1, 0
    ADDSUB_WORD 2, r2, 0
    ADDSUB_WORD 3, r3, 0
    ADDSUB_WORD 4, r4, 0
    ADDSUB_WORD 5, r5, 0
    ADDSUB_WORD 6, r6, 0
    ldr     r8, [r12, #28]
    add     r9, r7, r8
    bic     r9, r9, #0x80000000
    add     r9, r9, r10
    sbcs    r7, r7, r8
    str     r9, [r12, #28]
    FOLD_BORROW
    bx      lr
    .size   mb_x25519_addsub, .-mb_x25519_addsub

/*
 * mb_x25519_sel: r0-r7 = m ? Y : X, word by word with SEL.
 *   in: r0 = m (0 or 0xffffffff), r10 = &X, r11 = &Y. Clobbers r8-r12, GE. Stack: 0.
 * UADD8 m + m carries out of every byte iff m is all ones: GE = 1111 selects Y.
 * CT: m, X, Y secret; straight-line, fixed addresses.
 */
    .section .text.mb_x25519_sel,"ax",%progbits
    .p2align 2
    .type   mb_x25519_sel, %function
    .thumb_func
mb_x25519_sel:
    uadd8   r0, r0, r0
    ldm     r10, {r0-r7}
    ldm     r11!, {r8, r9, r10, r12}
    sel     r0, r8, r0
    sel     r1, r9, r1
    sel     r2, r10, r2
    sel     r3, r12, r3
    ldm     r11, {r8, r9, r10, r12}
    sel     r4, r8, r4
    sel     r5, r9, r5
    sel     r6, r10, r6
    sel     r7, r12, r7
    bx      lr
    .size   mb_x25519_sel, .-mb_x25519_sel

/* Zero [sp - WIPE_BELOW, r6), r6 = the frame's end; sp must be the frame's base.
 * Clobbers r0-r3, r5. */
    .macro  WIPE
    movs    r0, #0
    movs    r1, #0
    movs    r2, #0
    movs    r3, #0
    sub     r5, sp, #WIPE_BELOW
1:  stm     r5!, {r0, r1}        /* the area is a multiple of 8 bytes */
    cmp     r5, r6
    bne     1b
    .endm

/*
 * void mb_x25519_scalarmult(uint8_t out[32], const uint8_t k[32], const uint8_t u[32],
 *                           const uint8_t *rnd);
 * Contract of src/curve/x25519_ladder.h (plain ladder from R0 = (1 : 0), R1 = (u : 1);
 * with rnd, [DS16]'s Algorithm 1: P = (lambda u : lambda), R0 = (rho : 0)). out, k,
 * u, rnd may be unaligned (single LDR/STR only on them); out may alias u.
 * AAPCS: r4-r11 saved. Stack: 36 + 216 (plain) or 248 (randomized) + the kernels' 48
 * below the frame. Cycles: see `make bench`.
 * CT: k, rnd, out secret; u public. Branches: the loop over the public bit position,
 * and rnd == NULL (public). The bit k_t is read at a public address and only feeds the
 * SEL mask. Before returning, the frame and the WIPE_BELOW bytes below it (the
 * kernels' stack) are zeroed, and so are r0-r3, r12 and the GE flags.
 */
    .section .text.mb_x25519_scalarmult,"ax",%progbits
    .p2align 2
    .global mb_x25519_scalarmult
    .type   mb_x25519_scalarmult, %function
    .thumb_func
mb_x25519_scalarmult:
    push    {r4-r11, lr}
    sub     sp, sp, #FRAME
    cbz     r3, 1f
    sub     sp, sp, #32          /* room for z1 (public branch) */
1:  str     r0, [sp, #F_OUT]
    str     r1, [sp, #F_K]
    str     r3, [sp, #F_RND]
    ldr     r0, [r2, #0]         /* u: single loads, it may be unaligned */
    ldr     r1, [r2, #4]
    ldr     r3, [r2, #12]
    ldr     r4, [r2, #16]
    ldr     r5, [r2, #20]
    ldr     r6, [r2, #24]
    ldr     r7, [r2, #28]
    ldr     r2, [r2, #8]
    bic     r7, r7, #0x80000000  /* RFC 7748: bit 255 of u is ignored */
    STORE   SX1
    movs    r0, #0
    movs    r1, #0
    movs    r2, #0
    movs    r3, #0
    movs    r4, #0
    movs    r5, #0
    movs    r6, #0
    movs    r7, #0
    STORE   SZP                  /* zP = 0 */
    /* lambda = rnd with bits 255 and 0 cleared (2 if that is 0), rho = lambda^2
     * (src/curve/x25519_ladder.h: full width, even). Both 1 without rnd: the plain
     * ladder is the randomized one with lambda = rho = 1, except that it skips the
     * products by z1 = 1. */
    ldr     r10, [sp, #F_RND]
    cmp     r10, #0
    beq     2f                   /* public condition */
    bl      .Llambda
    STORE   SZQ                  /* zQ = lambda */
    STORE   SZ1                  /* z1 = lambda */
    bl      mb_fe25519_sqr_reg   /* rho = lambda^2 */
    b       3f
2:  movs    r0, #1               /* r1-r7 are still 0 */
    STORE   SZQ                  /* zQ = 1 */
3:  STORE   SXP                  /* P = R0 = (rho : 0) */
    MUL     SX1, SZQ
    STORE   SX1                  /* x1 = lambda u */
    STORE   SXQ                  /* Q = R1 = (lambda u : lambda) */
    movs    r0, #254
    movs    r1, #0
    str     r0, [sp, #F_T]
    str     r1, [sp, #F_PREV]    /* -k_255 = 0 */
    LOAD    SZQ

    .p2align 2                   /* the loop's return targets are word aligned (.w below) */
.Lstep:                          /* r0-r7 = zQ */
    PTR     r12, SXQ
    bl      mb_x25519_addsub_reg  /* SXQ = C = xQ + zQ */
    STORE   SZQ                  /* SZQ = D' = zQ - xQ */
    ldr     r0, [sp, #F_T]
    ldr     r1, [sp, #F_K]
    lsrs    r2, r0, #3
    and     r3, r0, #7
    ldrb    r2, [r1, r2]         /* k[t / 8]: public address */
    lsrs    r2, r2, r3           /* register shift: one cycle whatever the count */
    lsls    r2, r2, #31
    asrs    r2, r2, #31          /* -k_t */
    ldr     r3, [sp, #F_PREV]
    str     r2, [sp, #F_PREV]
    eors.w  r3, r3, r2           /* .w: keeps the return targets below word aligned */
    str     r3, [sp, #F_MASK]    /* s = k_t xor k_(t+1) as a mask */
    PTR     r8, SXP
    PTR     r12, SZP
    bl      mb_x25519_addsub     /* SZP = A = xP + zP */
    STORE   SXP                  /* SXP = B = xP - zP */
    MUL     SZQ, SZP
    STORE   ST                   /* ST = D'A */
    ldr.w   r0, [sp, #F_MASK]
    PTR     r10, SZP
    PTR     r11, SXQ
    bl      mb_x25519_sel        /* s ? C : A */
    bl      mb_fe25519_sqr_reg
    STORE   SZP                  /* SZP = AA */
    MUL     SXQ, SXP             /* CB, kept in registers */
    PTR     r12, ST
    bl      mb_x25519_addsub_reg  /* ST = CB + D'A */
    bl      mb_fe25519_sqr_reg   /* (CB - D'A)^2 */
    STORE   SXQ
    ldr     r0, [sp, #F_RND]
    cbz     r0, 2f
    MUL     SXQ, SZ1
    STORE   SXQ                  /* xQ' = z1 (CB - D'A)^2 */
2:
    ldr     r0, [sp, #F_MASK]
    PTR     r10, SXP
    PTR     r11, SZQ
    bl      mb_x25519_sel        /* s ? D' : B */
    bl      mb_fe25519_sqr_reg
    STORE   SZQ                  /* SZQ = BB */
    MUL     SZP, SZQ
    STORE   SXP                  /* xP' = AA BB */

    /* E = AA - BB -> SZP, then t = 121666 E + BB -> SZQ, top word first as in
     * mb_x25519_addsub: q = bits >= 255 of 121666 E7 + BB7, worth 19 q at the bottom. */
    LOAD    SZP
    ldm     sp, {r8-r11}
    subs    r0, r0, r8
    sbcs    r1, r1, r9
    sbcs    r2, r2, r10
    sbcs    r3, r3, r11
    ldr     r8, [sp, #16]
    ldr     r9, [sp, #20]
    ldr     r10, [sp, #24]
    ldr     r11, [sp, #28]
    sbcs    r4, r4, r8
    sbcs    r5, r5, r9
    sbcs    r6, r6, r10
    sbcs    r7, r7, r11
    FOLD_BORROW
    STORE   SZP                  /* SZP = E */
    movw    r12, #:lower16:121666
    movt    r12, #:upper16:121666
    ldr     r11, [sp, #28]
    movs    r10, #0
    umaal   r11, r10, r7, r12    /* r10:r11 = 121666 E7 + BB7 */
    lsl     r10, r10, #1
    orr     r10, r10, r11, lsr #31
    bic     r11, r11, #0x80000000
    add     r9, r10, r10, lsl #1
    add     r10, r9, r10, lsl #4 /* 19 q */
    ldm     sp, {r7, r8, r9, lr} /* BB0..3 (E7 is used up) */
    umaal   r7, r10, r0, r12
    umaal   r8, r10, r1, r12
    umaal   r9, r10, r2, r12
    umaal   lr, r10, r3, r12
    ldr     r0, [sp, #16]
    ldr     r1, [sp, #20]
    ldr     r2, [sp, #24]
    umaal   r0, r10, r4, r12
    umaal   r1, r10, r5, r12
    umaal   r2, r10, r6, r12
    add     r11, r11, r10
    stm     sp, {r7, r8, r9, lr}
    str     r0, [sp, #16]
    str     r1, [sp, #20]
    str     r2, [sp, #24]
    str     r11, [sp, #28]       /* SZQ = t = BB + 121666 E */
    MUL     SZP, SZQ
    STORE   SZP                  /* zP' = E t */

    LOAD    ST
    bl      mb_fe25519_sqr_reg
    STORE   SZQ
    MUL     SZQ, SX1             /* zQ' = x1 (CB + D'A)^2, kept in registers */
    ldr     r8, [sp, #F_T]
    subs    r8, r8, #1
    str     r8, [sp, #F_T]
    bpl     .Lstep
    STORE   SZQ

    /* P = R_(k_0); R0 = k_0 ? Q : P. */
    ldr     r0, [sp, #F_PREV]    /* -k_0 */
    PTR     r10, SXP
    PTR     r11, SXQ
    bl      mb_x25519_sel
    STORE   SXP                  /* x */
    ldr     r0, [sp, #F_PREV]
    PTR     r10, SZP
    PTR     r11, SZQ
    bl      mb_x25519_sel
    STORE   IZ                   /* z */
    bl      mb_fe25519_invert_core  /* IT1 = 1/z (0 for z = 0) */
    MUL     SXP, IT1             /* x / z */

    /* Canonical mod p: fold bit 255 (19 b), then add 19 more and see whether that
     * reaches 2^255 (value >= p): m = bits 256, 255 of v + 19 (b + 1); the result is
     * v + 19 m mod 2^255. */
    lsr     r8, r7, #31
    add     r8, r8, #1
    add     r9, r8, r8, lsl #1
    add     r8, r9, r8, lsl #4   /* 19 (b + 1) */
    adds    r9, r0, r8
    adcs    r9, r1, #0
    adcs    r9, r2, #0
    adcs    r9, r3, #0
    adcs    r9, r4, #0
    adcs    r9, r5, #0
    adcs    r9, r6, #0
    adcs    r9, r7, #0
    rrx     r9, r9
    lsr     r9, r9, #30          /* m */
    add     r8, r9, r9, lsl #1
    add     r8, r8, r9, lsl #4   /* 19 m */
    adds    r0, r0, r8
    adcs    r1, r1, #0
    adcs    r2, r2, #0
    adcs    r3, r3, #0
    adcs    r4, r4, #0
    adcs    r5, r5, #0
    adcs    r6, r6, #0
    adc     r7, r7, #0
    bic     r7, r7, #0x80000000
    STORE   ST
    ldr     r1, [sp, #F_OUT]
    add     r2, sp, #ST
    movs    r3, #8
4:  ldm     r2!, {r0}
    str     r0, [r1], #4         /* out may be unaligned: single stores */
    subs    r3, r3, #1
    bne     4b

    ldr     r4, [sp, #F_RND]
    add     r6, sp, #FRAME
    cbz     r4, 3f
    add     r6, r6, #32
3:  WIPE
    uadd8   r0, r0, r0           /* GE = 0000 */
    mov     r12, #0
    mov     sp, r6
    pop     {r4-r11, pc}

/* r0-r7 = lambda: the 32 bytes at [r10] (any alignment: single LDRs) as a little-endian
 * integer with bits 255 and 0 cleared, or 2 if that leaves 0 (even and nonzero mod p).
 * Clobbers r8, r9.
 * CT: the value is secret; "is zero" is ~(v | -v) >> 31, shifted into bit 1. */
.Llambda:
    ldr     r0, [r10, #0]
    ldr     r1, [r10, #4]
    ldr     r2, [r10, #8]
    ldr     r3, [r10, #12]
    ldr     r4, [r10, #16]
    ldr     r5, [r10, #20]
    ldr     r6, [r10, #24]
    ldr     r7, [r10, #28]
    bic     r0, r0, #1
    bic     r7, r7, #0x80000000
    orr     r8, r0, r1
    orr     r8, r8, r2
    orr     r8, r8, r3
    orr     r8, r8, r4
    orr     r8, r8, r5
    orr     r8, r8, r6
    orr     r8, r8, r7
    rsbs    r9, r8, #0
    orrs    r8, r8, r9
    mvns    r8, r8
    lsrs    r8, r8, #31          /* 1 iff v = 0 */
    orr     r0, r0, r8, lsl #1
    bx      lr
    .size   mb_x25519_scalarmult, .-mb_x25519_scalarmult

/*
 * mb_fe25519_invert_core: r0-r7 = z^(p-2) = 1/z (0 for z = 0), also stored at [sp + IT1].
 *   in: z at [sp + IZ]; uses the caller's frame: slots IZ, IT0, IT1, IT2 and the words
 *   F_T, F_K, F_PREV, F_LR (mb_x25519_scalarmult's layout). Clobbers r0-r12, lr.
 * Chain: z^2, then entries (n, tmp, b, dst): square the running value n times, store it
 * at tmp, multiply by b, store the product at dst (254 squarings, 11 products). The
 * table and the squaring counts are public; the only branches are on them.
 * CT: z secret.
 */
    .section .text.mb_fe25519_invert_core,"ax",%progbits
    .p2align 2
    .type   mb_fe25519_invert_core, %function
    .thumb_func
mb_fe25519_invert_core:
    str     lr, [sp, #F_LR]
    LOAD    IZ
    bl      mb_fe25519_sqr_reg
    STORE   IT0                  /* z^2 */
    adr     r8, .Linv_table
    str     r8, [sp, #F_K]
.Linv_entry:
    ldr     r8, [sp, #F_K]
    ldr     r9, [r8], #4
    str     r8, [sp, #F_K]
    str     r9, [sp, #F_PREV]
    ands    r10, r9, #0xff
    beq     .Linv_mul
    str     r10, [sp, #F_T]
    .p2align 2                   /* branch and return targets word aligned */
.Linv_sqr:
    bl      mb_fe25519_sqr_reg
    ldr     r10, [sp, #F_T]
    subs    r10, r10, #1
    str     r10, [sp, #F_T]
    bne     .Linv_sqr
.Linv_mul:
    ldr     r9, [sp, #F_PREV]
    ubfx    r8, r9, #8, #8
    add     r8, sp, r8
    stm     r8, {r0-r7}          /* tmp */
    ubfx    r1, r9, #8, #8
    add     r1, sp, r1
    ubfx    r2, r9, #16, #8
    add     r2, sp, r2
    bl      mb_fe25519_mul_reg
    ldr     r9, [sp, #F_PREV]
    add     r8, sp, r9, lsr #24
    stm     r8, {r0-r7}          /* dst */
    ldr     r8, [sp, #F_K]
    adr     r9, .Linv_end
    cmp     r8, r9
    bne     .Linv_entry
    ldr     pc, [sp, #F_LR]
    .p2align 2
    /* n, tmp, b, dst: z^(2^k - 1) = a_k by doubling runs of ones */
.Linv_table:
    .byte   2, IT1, IZ, IT1      /* z^9 */
    .byte   0, IT1, IT0, IT0     /* z^11 */
    .byte   1, IT2, IT1, IT1     /* a5 = z^22 z^9 */
    .byte   5, IT2, IT1, IT1     /* a10 */
    .byte   10, IT2, IT1, IT2    /* a20 */
    .byte   20, IZ, IT2, IT2     /* a40 */
    .byte   10, IT2, IT1, IT1    /* a50 */
    .byte   50, IT2, IT1, IT2    /* a100 */
    .byte   100, IZ, IT2, IT2    /* a200 */
    .byte   50, IT2, IT1, IT1    /* a250 */
    .byte   5, IT1, IT0, IT1     /* z^(2^255 - 32) z^11 = z^(p-2) */
.Linv_end:
    .size   mb_fe25519_invert_core, .-mb_fe25519_invert_core

/*
 * void mb_fe25519_invert(fe25519 *h, const fe25519 *f);   h = 1/f (0 for f = 0)
 * AAPCS entry over mb_fe25519_invert_core; h may alias f. Stack: 36 + 216 + 48.
 * CT: f secret; the frame and the kernels' stack below it are zeroed before returning.
 */
    .section .text.mb_fe25519_invert,"ax",%progbits
    .p2align 2
    .global mb_fe25519_invert
    .type   mb_fe25519_invert, %function
    .thumb_func
mb_fe25519_invert:
    push    {r4-r11, lr}
    sub     sp, sp, #FRAME
    str     r0, [sp, #F_OUT]
    ldm     r1, {r0-r7}
    stm     sp, {r0-r7}          /* IZ */
    bl      mb_fe25519_invert_core
    ldr     r8, [sp, #F_OUT]
    stm     r8, {r0-r7}
    add     r6, sp, #FRAME
    WIPE
    mov     r12, #0
    add     sp, sp, #FRAME
    pop     {r4-r11, pc}
    .size   mb_fe25519_invert, .-mb_fe25519_invert
#endif /* MB_ASM_CORTEX_M4 */
