/* SPDX-License-Identifier: MIT */
#include "util/backend.h"
#include "util/fault.h"
#if MB_ASM_CORTEX_M4   /* else this file is empty (util/backend.h) */
/*
 * P-256 points in Jacobian coordinates for the Cortex-M4's fixed-window scalar
 * multiplication (p256_window.c): doubling, addition and the masked table scan, over
 * the register entries of the field kernels (fep256_mul.S). A point is three field
 * elements X, Y, Z (Montgomery form, each < p), x = X/Z^2, y = Y/Z^3.
 *
 *   uint32_t mb_p256_jdbl(fep256 R[3], fep256 t[4], uint32_t n);
 *       R = 2^n R, n >= 1 public (a = -3: 4M + 4S per doubling, Z3 = 2 Y Z).
 *       R = infinity (Z = 0) stays Z = 0; P-256 has no point with y = 0.
 *       MB_FAULT_HARDENED: returns the doublings done, counted apart from the loop's
 *       count (p256_window.c checks the total: docs/FAULTS.md); else undefined.
 *   uint32_t mb_p256_jadd(fep256 R[3], const fep256 T[3], fep256 t[3]);
 *       R = R + T (12M + 4S).
 *   uint32_t mb_p256_jmadd(fep256 R[3], const fep256 T[2], fep256 t[3]);
 *       R = R + T for an affine T = (x, y) (8M + 3S).
 *       MB_FAULT_HARDENED: both return 1, which p256_window.c counts (a skipped call
 *       leaves R's address in r0); else undefined.
 *       Both additions: Pre: R, T not infinity and R != +-T (else the result has Z = 0:
 *       for R = T all of X, Y, Z are 0; p256_window.c's fix-up for its one reachable
 *       case relies on that). T may not alias R.
 *   void mb_p256_asel(fep256 out[2], const fep256 table[16], uint32_t idx, uint32_t neg);
 *       (x, y) = entry idx of 8 affine points (table[2 idx], table[2 idx + 1]), idx in
 *       [0, 8), reading every entry (SEL on GE flags), then y = -y if neg (neg in {0, 1};
 *       y != 0, as for every point of P-256).
 * Inputs and outputs < p. t is scratch (left holding secrets; the caller wipes it).
 * Clobbers: r0-r3, r12 (AAPCS; r4-r11 and lr saved).
 * Stack: mb_p256_jdbl / mb_p256_jadd / mb_p256_jmadd 36 (saves) + 44 (slot table, n)
 *     + 72 (the kernels' frame) = 152; mb_p256_asel 36 + 16.
 * Cycles: measured, not typed: `motebox sim m4 --profile` on the bench firmware.
 * CT: R, T, t, the table, idx and neg are secret; n is public (the only branches are
 *     the loops on n and on asel's coordinate; asel's entries are unrolled). Every
 *     address is an argument, sp or a slot address plus a constant. GE is cleared and
 *     asel's masks zeroed before return; stack residue otherwise: the kernels' frame,
 *     as in p256_ladder.S.
 *
 * Style as in p256_ladder.S: r4-r11 are the accumulator (a field element, word i in
 * r(4+i)); every addition, subtraction or doubling works on it in place with at most
 * one operand from memory and one masked add of p as its correction; a value is stored
 * only where a product (operands by pointer) or a later formula reads it. Slot
 * addresses come from a table in the frame (one pipelined LDR each).
 */
    .syntax unified
    .thumb
    .text

/* Slots: R's X, Y, Z; T's X, Y, Z; scratch t[0..3]. */
    .set    X1, 0
    .set    Y1, 1
    .set    Z1, 2
    .set    X2, 3
    .set    Y2, 4
    .set    Z2, 5
    .set    T0, 6
    .set    T1, 7
    .set    T2, 8
    .set    T3, 9

    .set    KFRAME, 72               /* the kernels' frame at sp[0..71] */
    .set    CNT, KFRAME + 40         /* mb_p256_jdbl: doublings left (public) */
    .set    DONE, KFRAME + 4 * X2    /* mb_p256_jdbl, hardened: doublings done (no T) */
    .set    LOCALS, KFRAME + 44      /* + 36 saved = 152: sp stays 8-byte aligned */

    .macro  PTR rd, s
    ldr     \rd, [sp, #(KFRAME + 4 * \s)]
    .endm

/* r3..r12 = the ten slot addresses, lr = the count: to the frame. */
    .macro  TABLE
    stmdb   sp!, {r3-r12, lr}
    sub     sp, sp, #KFRAME
    .endm

    .macro  EPILOGUE
    add     sp, sp, #LOCALS
    pop     {r4-r11, pc}
    .endm

    .macro  LDACC s
    PTR     r0, \s
    ldm     r0, {r4-r11}
    .endm

    .macro  STACC s
    PTR     r0, \s
    stm     r0, {r4-r11}
    .endm

/* acc op= [slot] (rev: acc = [slot] op acc), flags carried; st: the result's slot
 * address in lr for the correction's store. */
    .macro  ACC_OP s, op0, op, rev=0, st=-1
    PTR     r2, \s
    .if \st >= 0
    PTR     lr, \st
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

#include "fep256_masked.inc"

/* acc = acc - [s] mod p (a borrow: p added back under its mask) */
    .macro  SUBM s, st=-1
    ACC_OP  \s, subs, sbcs, 0, \st
    sbcs    r1, r1
    ADD_MASKED_P \st
    .endm

/* acc = [s] - acc mod p */
    .macro  RSUBM s, st=-1
    ACC_OP  \s, subs, sbcs, 1, \st
    sbcs    r1, r1
    ADD_MASKED_P \st
    .endm

/* acc = acc + [s] mod p */
    .macro  ADDM s, st=-1
    ACC_OP  \s, adds, adcs, 0, \st
    REDUCE_SUM \st
    .endm

/* acc = 2 acc mod p (V = 2 acc < 2p, then as ADDM) */
    .macro  DBL st=-1
    .if \st >= 0
    PTR     lr, \st
    .endif
    adds    r4, r4, r4
    adcs    r5, r5, r5
    adcs    r6, r6, r6
    adcs    r7, r7, r7
    adcs    r8, r8, r8
    adcs    r9, r9, r9
    adcs    r10, r10, r10
    adcs    r11, r11, r11
    REDUCE_SUM \st
    .endm

/* acc = [f] [g] / 2^256 mod p */
    .macro  MUL f, g
    PTR     r1, \f
    PTR     r2, \g
    bl      mb_fep256_mul_reg
    .endm

    .macro  SQR
    bl      mb_fep256_sqr_reg
    .endm

/* acc = acc / 2 mod p: acc + (p if acc is odd), 257 bits, shifted right through the
 * carry (RRX from the top word down). acc < p gives a result < p. */
    .macro  HALVE st=-1
    .if \st >= 0
    PTR     lr, \st
    .endif
    lsl     r1, r4, #31
    asr     r1, r1, #31              /* acc odd ? -1 : 0 */
    adds    r4, r4, r1
    adcs    r5, r5, r1
    adcs    r6, r6, r1
    adcs    r7, r7, #0
    adcs    r8, r8, #0
    adcs    r9, r9, #0
    adcs    r10, r10, r1, lsr #31
    adcs    r11, r11, r1
    rrxs    r11, r11
    rrxs    r10, r10
    rrxs    r9, r9
    rrxs    r8, r8
    rrxs    r7, r7
    rrxs    r6, r6
    rrxs    r5, r5
    rrx     r4, r4
    .if \st >= 0
    stm     lr, {r4-r11}
    .endif
    .endm

/* Doubling, a = -3, Z3 = 2 Y Z (after the Explicit-Formulas Database's dbl-2001-b):
 * with Y' = 2Y, S = X Y'^2 (= 4 X Y^2), M = 3 (X - Z^2) (X + Z^2): X3 = M^2 - 2S,
 * Y3 = M (S - X3) - Y'^4 / 2, Z3 = Y' Z (4M + 4S). Entered with acc = Y (the previous
 * doubling leaves Y3 there); the order keeps a value in the accumulator from the
 * operation that makes it to the next that uses it where it can. */
    .global mb_p256_jdbl
    .type   mb_p256_jdbl, %function
    .thumb_func
mb_p256_jdbl:
    push    {r4-r11, lr}
    mov     lr, r2                   /* CNT */
    mov     r3, r0
    add     r4, r0, #32
    add     r5, r0, #64
#if MB_FAULT_HARDENED
    movs    r6, #0                   /* DONE (no T: X2, Y2, Z2 unused) */
#else
    mov     r6, r0                   /* (no T: X2, Y2, Z2 unused) */
#endif
    mov     r7, r0
    mov     r8, r0
    mov     r9, r1
    add     r10, r1, #32
    add     r11, r1, #64
    add     r12, r1, #96
    TABLE
    LDACC   Y1
.Ldbl:
    DBL     Y1                       /* Y' = 2Y (Y is dead) */
    SQR
    STACC   T2                       /* Y'^2 */
    SQR
    HALVE   T3                       /* Y'^4 / 2 = 8 Y^4 */
    MUL     X1, T2
    STACC   T2                       /* S = X Y'^2 */
    LDACC   Z1
    SQR
    STACC   T0                       /* delta = Z^2 */
    RSUBM   X1, T1                   /* X - delta */
    DBL
    ADDM    T1, T1                   /* 3 (X - delta) */
    MUL     Y1, Z1
    STACC   Z1                       /* Z3 = Y' Z */
    LDACC   X1
    ADDM    T0, T0                   /* X + delta */
    MUL     T0, T1
    STACC   T1                       /* M */
    SQR
    SUBM    T2
    SUBM    T2, X1                   /* X3 = M^2 - 2S */
    RSUBM   T2, T2                   /* S - X3 */
    MUL     T1, T2
    SUBM    T3, Y1                   /* Y3 = M (S - X3) - 8 Y^4 */
#if MB_FAULT_HARDENED
    ldr     r1, [sp, #DONE]          /* a second count: a faulted CNT shows in it */
    adds    r1, r1, #1
    str     r1, [sp, #DONE]
#endif
    ldr     r0, [sp, #CNT]
    subs    r0, r0, #1
    str     r0, [sp, #CNT]
    bne     .Ldbl                    /* public: n */
#if MB_FAULT_HARDENED
    ldr     r0, [sp, #DONE]
#endif
    EPILOGUE
    .size   mb_p256_jdbl, .-mb_p256_jdbl

/* Addition (the Explicit-Formulas Database's add-1998-cmo-2): U1 = X1 Z2^2,
 * U2 = X2 Z1^2, S1 = Y1 Z2^3, S2 = Y2 Z1^3, H = U2 - U1, r = S2 - S1,
 * X3 = r^2 - H^3 - 2 U1 H^2, Y3 = r (U1 H^2 - X3) - S1 H^3, Z3 = Z1 Z2 H. */
    .global mb_p256_jadd
    .type   mb_p256_jadd, %function
    .thumb_func
mb_p256_jadd:
    push    {r4-r11, lr}
    mov     r3, r0
    add     r4, r0, #32
    add     r5, r0, #64
    mov     r6, r1
    add     r7, r1, #32
    add     r8, r1, #64
    mov     r9, r2
    add     r10, r2, #32
    add     r11, r2, #64
    mov     r12, r2                  /* (no t[3]) */
    mov     lr, #0
    TABLE
    LDACC   Z1
    SQR
    STACC   T0                       /* Z1^2 */
    MUL     X2, T0
    STACC   T1                       /* U2 */
    MUL     Z1, T0
    STACC   T0                       /* Z1^3 */
    MUL     Y2, T0
    STACC   T0                       /* S2 */
    LDACC   Z2
    SQR
    STACC   T2                       /* Z2^2 */
    MUL     X1, T2
    STACC   X1                       /* U1 */
    RSUBM   T1, T1                   /* H = U2 - U1 */
    MUL     Z2, T2
    STACC   T2                       /* Z2^3 */
    MUL     Y1, T2
    STACC   Y1                       /* S1 */
    RSUBM   T0, T0                   /* r = S2 - S1 */
    MUL     Z1, Z2
    STACC   Z1
    MUL     Z1, T1
    STACC   Z1                       /* Z3 = Z1 Z2 H */
    LDACC   T1
    SQR
    STACC   T2                       /* H^2 */
    MUL     T1, T2
    STACC   T1                       /* H^3 */
    MUL     X1, T2
    STACC   T2                       /* V = U1 H^2 */
    LDACC   T0
    SQR
    SUBM    T1
    SUBM    T2
    SUBM    T2, X1                   /* X3 = r^2 - H^3 - 2 V */
    RSUBM   T2, T2                   /* V - X3 */
    MUL     Y1, T1
    STACC   T1                       /* S1 H^3 */
    MUL     T0, T2
    SUBM    T1, Y1                   /* Y3 = r (V - X3) - S1 H^3 */
#if MB_FAULT_HARDENED
    movs    r0, #1                   /* counted by the caller */
#endif
    EPILOGUE
    .size   mb_p256_jadd, .-mb_p256_jadd

/* Mixed addition, T affine (Z2 = 1; add-1998-cmo-2 with Z2 = 1): U2 = X2 Z1^2,
 * S2 = Y2 Z1^3, H = U2 - X1, r = S2 - Y1, X3 = r^2 - H^3 - 2 X1 H^2,
 * Y3 = r (X1 H^2 - X3) - Y1 H^3, Z3 = Z1 H (8M + 3S). */
    .global mb_p256_jmadd
    .type   mb_p256_jmadd, %function
    .thumb_func
mb_p256_jmadd:
    push    {r4-r11, lr}
    mov     r3, r0
    add     r4, r0, #32
    add     r5, r0, #64
    mov     r6, r1
    add     r7, r1, #32
    mov     r8, r1                   /* (no Z2) */
    mov     r9, r2
    add     r10, r2, #32
    add     r11, r2, #64
    mov     r12, r2                  /* (no t[3]) */
    mov     lr, #0
    TABLE
    LDACC   Z1
    SQR
    STACC   T0                       /* Z1^2 */
    MUL     X2, T0
    SUBM    X1, T1                   /* H = U2 - X1 */
    MUL     Z1, T0
    STACC   T0                       /* Z1^3 */
    MUL     Y2, T0
    SUBM    Y1, T0                   /* r = S2 - Y1 */
    MUL     Z1, T1
    STACC   Z1                       /* Z3 = Z1 H */
    LDACC   T1
    SQR
    STACC   T2                       /* H^2 */
    MUL     T1, T2
    STACC   T1                       /* H^3 */
    MUL     X1, T2
    STACC   T2                       /* V = X1 H^2 */
    LDACC   T0
    SQR
    SUBM    T1
    SUBM    T2
    SUBM    T2, X1                   /* X3 = r^2 - H^3 - 2 V */
    RSUBM   T2, T2                   /* V - X3 */
    MUL     Y1, T1
    STACC   T1                       /* Y1 H^3 */
    MUL     T0, T2
    SUBM    T1, Y1                   /* Y3 = r (V - X3) - Y1 H^3 */
#if MB_FAULT_HARDENED
    movs    r0, #1                   /* counted by the caller */
#endif
    EPILOGUE
    .size   mb_p256_jmadd, .-mb_p256_jmadd

/* One entry of the scan, i >= 1: GE = 1111 iff bit i of r2 = 1 << idx is set (SBFX
 * gives -1 or 0; UADD8 of it with itself sets GE from its bytes), then acc = sel(entry
 * i's 8 words at r1 + 64 i, acc). The loads are single LDRs in runs of four (one cycle
 * each plus one per run). */
    .macro  SEL_ENTRY i
    sbfx    r3, r2, #\i, #1
    uadd8   r3, r3, r3
    ldr     r0, [r1, #(64 * \i)]
    ldr     r3, [r1, #(64 * \i + 4)]
    ldr     r12, [r1, #(64 * \i + 8)]
    ldr     lr, [r1, #(64 * \i + 12)]
    sel     r4, r0, r4
    sel     r5, r3, r5
    sel     r6, r12, r6
    sel     r7, lr, r7
    ldr     r0, [r1, #(64 * \i + 16)]
    ldr     r3, [r1, #(64 * \i + 20)]
    ldr     r12, [r1, #(64 * \i + 24)]
    ldr     lr, [r1, #(64 * \i + 28)]
    sel     r8, r0, r8
    sel     r9, r3, r9
    sel     r10, r12, r10
    sel     r11, lr, r11
    .endm

/* out[c] for c = 0, 1 (x, y): the loop on c is public; the entries are unrolled.
 * Y is negated under the mask m = -neg as (Y ^ m) + (m & (p + 1)) mod 2^256 (= p - Y
 * for m = -1, Y for 0; p + 1 = 2^96 + 2^192 + (2^32 - 1) 2^224 mod 2^256). */
    .global mb_p256_asel
    .type   mb_p256_asel, %function
    .thumb_func
mb_p256_asel:
    push    {r4-r11, lr}
    rsb     r3, r3, #0
    push    {r0-r3}                  /* out (advancing), c, (idx), the mask -neg */
    mov     r0, #1
    lsl     r2, r0, r2               /* 1 << idx (LSL by a register: one cycle) */
    mov     r0, #2
    str     r0, [sp, #4]
.Lsel:
    ldm     r1, {r4-r11}             /* entry 0 unless a later one matches */
    SEL_ENTRY 1
    SEL_ENTRY 2
    SEL_ENTRY 3
    SEL_ENTRY 4
    SEL_ENTRY 5
    SEL_ENTRY 6
    SEL_ENTRY 7
    add     r1, r1, #32              /* the next coordinate of entry 0 */
    ldr     r0, [sp, #4]
    cmp     r0, #1
    bne     1f                       /* public: c (y is coordinate 1) */
    ldr     r3, [sp, #12]
    eor     r4, r4, r3
    eor     r5, r5, r3
    eor     r6, r6, r3
    eor     r7, r7, r3
    eor     r8, r8, r3
    eor     r9, r9, r3
    eor     r10, r10, r3
    eor     r11, r11, r3
    adds    r7, r7, r3, lsr #31
    adcs    r8, r8, #0
    adcs    r9, r9, #0
    adcs    r10, r10, r3, lsr #31
    adc     r11, r11, r3
1:
    ldr     r0, [sp]
    stm     r0!, {r4-r11}
    str     r0, [sp]
    ldr     r0, [sp, #4]
    subs    r0, r0, #1
    str     r0, [sp, #4]
    bne     .Lsel                    /* public: c */
    mov     r0, #0
    str     r0, [sp, #8]             /* the secret one-hot and mask */
    str     r0, [sp, #12]
    uadd8   r0, r0, r0               /* clear GE (it held idx's match) */
    add     sp, sp, #16
    pop     {r4-r11, pc}
    .size   mb_p256_asel, .-mb_p256_asel
#endif /* MB_ASM_CORTEX_M4 */
