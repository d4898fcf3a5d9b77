/* SPDX-License-Identifier: MIT */
/*
 * The co-Z ladder's two steps for the Cortex-M4 (replaces src/curve/p256_ladder.c; the
 * same formulas, Rivain Algorithm 9, see that file and p256.h), with the field values
 * kept in registers from one operation to the next where the formulas allow.
 *
 *   void p256_ladder_cswap_addc(p256_ladder *w, uint32_t bit);
 *       masked swap of R[0] and R[1], then XYCZ-ADDC (5M + 3S)
 *   void p256_ladder_add(p256_ladder *w);             XYCZ-ADD (4M + 2S)
 *
 * Every multiplication and squaring is fep256_mul_reg / fep256_sqr_reg (fep256_mul.S),
 * which leave their result in r4-r11; the additions and subtractions below work on that
 * accumulator in place (one operand from memory), so a product is stored only where
 * the formulas need it again, and a difference feeds a squaring without a round trip.
 * Inputs: w as p256.h lays it out: R[0].x @0, R[0].y @32, R[1].x @64, R[1].y @96,
 * t[0..4] @128..256; coordinates < p, bit in {0, 1}. Output: w updated in place, every
 * coordinate < p. p256_ladder_add uses only t[0], t[2], t[3] (p256_coz.c keeps values in
 * t[1] and t[4] across it).
 * Clobbers: r0-r3, r12 (AAPCS; r4-r11 and lr saved).
 * Stack: 36 (saves) + 36 (slot table) + 72 (the kernels' frame) = 144 bytes;
 * ct_swap128_fast adds 4 below that.
 * Cycles: measured, not typed: `motebox sim m4 --profile` on the bench firmware.
 * CT: the state and bit are secret. Straight-line code; the swap is SEL on flags derived
 *     from the bit (ct_swap.S); every address is w plus a constant.
 * Register map: sp[72..107] = the slots' addresses (w + 32 i); r4-r11 = the accumulator
 * (a field element, word i in r(4+i)); r0, r1, r3, r12 = the memory operand's words,
 * four at a time; r2 = its address; lr = the address of the slot the result goes to;
 * r1 = the borrow/carry mask.
 */
    .syntax unified
    .thumb
    .text

    .set    P0X, 0
    .set    P0Y, 32
    .set    P1X, 64
    .set    P1Y, 96
    .set    TA, 128
    .set    TB, 160
    .set    TC, 192
    .set    TD, 224
    .set    TF, 256

/* sp[0..71] is the frame of fep256_mul_reg / fep256_sqr_reg (reserved here once per
 * step); above it the steps keep a table of the nine slot addresses (slot off/32 at
 * sp[72 + 4 (off/32)]), so an address costs one load that pipelines with its
 * neighbours, never an ADD and its address-generation stall. */
    .set    KFRAME, 72
    .macro  PTR rd, off
    ldr     \rd, [sp, #(KFRAME + \off / 8)]
    .endm

/* Build the table from w = r0 (r1 is kept: the swap bit). */
    .macro  TABLE
    add     r2, r0, #P0Y
    add     r3, r0, #P1X
    add     r4, r0, #P1Y
    add     r5, r0, #TA
    add     r6, r0, #TB
    add     r7, r0, #TC
    add     r8, r0, #TD
    add     r9, r0, #TF
    stmdb   sp!, {r0, r2-r9}
    sub     sp, sp, #KFRAME
    .endm

/* acc = [slot] */
    .macro  LDACC off
    PTR     r0, \off
    ldm     r0, {r4-r11}
    .endm

/* [slot] = acc */
    .macro  STACC off
    PTR     r0, \off
    stm     r0, {r4-r11}
    .endm

/* acc op= [slot] word by word (op0 on word 0, op on the rest), flags carry through;
 * rev: operands of op reversed (acc = mem - acc). The operand comes in two LDMs of four
 * words (r0, r1, r3, r12). */
    .macro  ACC_OP off, op0, op, rev=0, st=-1
    PTR     r2, \off
    .if \st >= 0
    PTR     lr, \st                  /* pipelines with the load above */
    .endif
    ldm     r2!, {r0, r1, r3, r12}
    .if \rev
    \op0    r4, r0, r4
    \op     r5, r1, r5
    \op     r6, r3, r6
    \op     r7, r12, r7
    .else
    \op0    r4, r4, r0
    \op     r5, r5, r1
    \op     r6, r6, r3
    \op     r7, r7, r12
    .endif
    ldm     r2, {r0, r1, r3, r12}
    .if \rev
    \op     r8, r0, r8
    \op     r9, r1, r9
    \op     r10, r3, r10
    \op     r11, r12, r11
    .else
    \op     r8, r8, r0
    \op     r9, r9, r1
    \op     r10, r10, r3
    \op     r11, r11, r12
    .endif
    .endm

/* acc += p & r1 (mask): p's words are -1, -1, -1, 0, 0, 0, 1, -1 (seed Algorithm 2);
 * then, if st is given, [st] = acc (its address in lr, loaded by ACC_OP). */
    .macro  ADD_MASKED_P st=-1
    adds    r4, r4, r1
    adcs    r5, r5, r1
    adcs    r6, r6, r1
    adcs    r7, r7, #0
    adcs    r8, r8, #0
    adcs    r9, r9, #0
    adcs    r10, r10, r1, lsr #31
    adc     r11, r11, r1
    .if \st >= 0
    stm     lr, {r4-r11}
    .endif
    .endm

/* acc = acc - [off] mod p (then stored to st if given): a borrow means acc - m + 2^256
 * was computed, and adding p under the borrow's mask wraps back below 2^256 to
 * acc - m + p (< p). */
    .macro  SUBM off, st=-1
    ACC_OP  \off, subs, sbcs, 0, \st
    sbc     r1, r1, r1               /* borrow ? -1 : 0 */
    ADD_MASKED_P \st
    .endm

/* acc = [off] - acc mod p */
    .macro  RSUBM off, st=-1
    ACC_OP  \off, subs, sbcs, 1, \st
    sbc     r1, r1, r1
    ADD_MASKED_P \st
    .endm

/* acc = acc + [off] mod p: V = acc + m < 2p; V - p, and p added back if that borrowed
 * (V < p). */
    .macro  ADDM off, st=-1
    ACC_OP  \off, adds, adcs, 0, \st
    mov     r1, #0
    adc     r1, r1, #0               /* bit 256 of V */
    subs    r4, r4, #0xFFFFFFFF
    sbcs    r5, r5, #0xFFFFFFFF
    sbcs    r6, r6, #0xFFFFFFFF
    sbcs    r7, r7, #0
    sbcs    r8, r8, #0
    sbcs    r9, r9, #0
    sbcs    r10, r10, #1
    sbcs    r11, r11, #0xFFFFFFFF
    sbcs    r1, r1, #0
    sbc     r1, r1, r1               /* V < p ? -1 : 0 */
    ADD_MASKED_P \st
    .endm

/* acc = [f] [g] / 2^256 mod p */
    .macro  MUL f, g
    PTR     r1, \f
    PTR     r2, \g
    bl      fep256_mul_reg
    .endm

    .macro  SQR
    bl      fep256_sqr_reg
    .endm

    .global p256_ladder_cswap_addc
    .type   p256_ladder_cswap_addc, %function
    .thumb_func
p256_ladder_cswap_addc:
    push    {r4-r11, lr}
    TABLE
    bl      ct_swap128_fast          /* R[0] <-> R[1] if bit (r0 = w, r1 = bit) */
    /* XYCZ-ADDC with P = R[0] = (X1, Y1), Q = R[1] = (X2, Y2) */
    LDACC   P1X
    SUBM    P0X
    SQR
    STACC   TA                       /* A = (X2 - X1)^2 */
    MUL     P0X, TA
    STACC   TB                       /* B = X1 A */
    MUL     P1X, TA                  /* C = X2 A */
    STACC   TA                       /* (A is dead) */
    ADDM    TB, TC                   /* B + C */
    LDACC   TA
    SUBM    TB, TA                   /* C - B */
    LDACC   P1Y
    ADDM    P0Y, TF                  /* F = Y2 + Y1 */
    SQR
    SUBM    TC, P0X                  /* X3' = F^2 - (B + C) (X1 is dead) */
    SUBM    TB, TD                   /* X3' - B */
    LDACC   P1Y
    SUBM    P0Y, P1Y                 /* D = Y2 - Y1 (Y2 is dead) */
    SQR
    SUBM    TC, P1X                  /* X3 = D^2 - (B + C) (X2 is dead) */
    RSUBM   TB, TB                   /* B - X3 (B is dead after this) */
    MUL     P0Y, TA
    STACC   P0Y                      /* E = Y1 (C - B) */
    MUL     P1Y, TB
    SUBM    P0Y, P1Y                 /* Y3 = D (B - X3) - E */
    MUL     TF, TD
    SUBM    P0Y, P0Y                 /* Y3' = F (X3' - B) - E */
    add     sp, sp, #(KFRAME + 36)
    pop     {r4-r11, pc}
    .size   p256_ladder_cswap_addc, .-p256_ladder_cswap_addc

    .global p256_ladder_add
    .type   p256_ladder_add, %function
    .thumb_func
p256_ladder_add:
    push    {r4-r11, lr}
    TABLE
    /* XYCZ-ADD with P = R[1] = (X1, Y1), Q = R[0] = (X2, Y2); scratch TA, TC, TD only */
    LDACC   P0X
    SUBM    P1X
    SQR
    STACC   TA                       /* A = (X2 - X1)^2 */
    MUL     P1X, TA
    STACC   P1X                      /* B = X1 A, P's new x */
    MUL     P0X, TA
    STACC   TC                       /* C = X2 A (X2 is dead) */
    SUBM    P1X, TA                  /* C - B */
    LDACC   P0Y
    SUBM    P1Y, TD                  /* D = Y2 - Y1 */
    SQR
    SUBM    P1X
    SUBM    TC, P0X                  /* X3 = D^2 - B - C */
    RSUBM   P1X, TC                  /* B - X3 */
    MUL     P1Y, TA
    STACC   P1Y                      /* E = Y1 (C - B), P's new y */
    MUL     TD, TC
    SUBM    P1Y, P0Y                 /* Y3 = D (B - X3) - E */
    add     sp, sp, #(KFRAME + 36)
    pop     {r4-r11, pc}
    .size   p256_ladder_add, .-p256_ladder_add
