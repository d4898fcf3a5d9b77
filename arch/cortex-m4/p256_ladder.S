/* SPDX-License-Identifier: MIT */
#include "util/backend.h"
#if MB_ASM_CORTEX_M4   /* else this file is empty (util/backend.h) */
/*
 * The co-Z ladder's steps and loop for the Cortex-M4 (replaces src/curve/p256_ladder.c
 * and src/curve/p256_ladder_loop.c; the same formulas, Rivain Algorithm 9, see those
 * files and p256.h), with the field values kept in registers from one operation to the
 * next where the formulas allow.
 *
 *   void mb_p256_ladder_loop(p256_ladder *w, const uint32_t kw[9]);
 *       the ladder's bits 256 down to 1 of kw (called by p256_coz.c): for each,
 *       mb_p256_ladder_cswap_addc(w, prev ^ bit) then mb_p256_ladder_add(w), fused,
 *       prev = bit (0 before bit 256)
 *   void mb_p256_ladder_cswap_addc(p256_ladder *w, uint32_t bit);
 *       R[0] <-> R[1] if bit, then XYCZ-ADDC (5M + 3S, and one extra addition)
 *   void mb_p256_ladder_add(p256_ladder *w);
 *       XYCZ-ADD (4M + 2S, and the loop's extra square for the next bit, discarded)
 * All three run the one copy of each step in mb_p256_ladder_loop's body (code size: the
 * two last-bit entries are a few instructions each, not copies of the steps).
 *
 * Every multiplication and squaring is mb_fep256_mul_reg / mb_fep256_sqr_reg
 * (fep256_mul.S), which leave their result in r4-r11; the additions and subtractions
 * below work on that accumulator in place (one operand from memory), so a product is
 * stored only where the formulas need it again, and a difference feeds a squaring
 * without a round trip.
 * Inputs: w as p256.h lays it out: R[0].x @0, R[0].y @32, R[1].x @64, R[1].y @96,
 * t[0..4] @128..256; coordinates < p, bit in {0, 1}. Output: w updated in place, every
 * coordinate < p. mb_p256_ladder_add writes only t[0], t[2], t[3] (p256_coz.c keeps
 * values in t[1] and t[4] across it: the loop body's two values for the next bit go to
 * the dead kernel frame instead); mb_p256_ladder_loop and mb_p256_ladder_cswap_addc use
 * all of t.
 * Clobbers: r0-r3, r12 (AAPCS; r4-r11 and lr saved).
 * Stack: 36 (saves) + 52 (slot table, loop words) + 72 (the kernels' frame) = 160.
 * Cycles: measured, not typed: `motebox sim m4 --profile` on the bench firmware.
 * CT: the state, bit and kw's words are secret. Straight-line code but for the loop's
 *     branches on the public bit index (which also tell the entries apart: I = 0 is
 *     public); every address is w, sp or kw plus a constant or a public index. The
 *     swap is never done on memory: XYCZ-ADDC reads the two points only through
 *     (X2 - X1)^2, X1 A + X2 A and Y2 + Y1, which are symmetric, and through the pairs
 *     (X1 A, X2 A) and (Y1, Y2), which are exchanged word by word (SEL) while the
 *     difference of each pair is formed (SELSUB); SEL picks bytes by the APSR.GE
 *     flags, set once per bit from the mask -(prev ^ bit) by UADD8 (one cycle, no
 *     branch): the kernels and the additions
 *     never write GE (no parallel add/subtract, no MSR; tests/m4/test_asm_fep256.py
 *     checks the kernels keep it). GE is cleared and the previous bit zeroed before
 *     return (stack residue otherwise as fep256_mul.S describes: the kernels' frame,
 *     which mb_p256_ladder_add also uses for two dead values; p256_coz.c wipes w and kw).
 * The loop also passes values from one step to the next, which saves their additions:
 * XYCZ-ADD's B - X3 is the next XYCZ-ADDC's X2 - X1 up to sign (the new
 * R[1].x - R[0].x), squared there and passed on as A in t[1], XYCZ-ADD's product D (B - X3) = Y3 + E is the next
 * XYCZ-ADDC's F = Y1 + Y2, and XYCZ-ADDC's Y3' - Y3, XYCZ-ADD's D, is
 * F (X3' - B) - D (B - X3) (E cancels), so Y3' is never formed.
 * Register map: sp[72..107] = the slots' addresses (w + 32 i), sp[108..123] = PAD, KW,
 * I, PREV (below); r4-r11 = the accumulator (a field element, word i in r(4+i)); r0,
 * r1, r3, r12 (and lr in the selects) = the memory operand's words, four at a time;
 * r2 = its address; lr = the address of the slot the result goes to; r1 = the
 * borrow/carry mask; APSR.GE = the swap mask (one bit's two SELSUBs).
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

/* sp[0..71] is the frame of mb_fep256_mul_reg / mb_fep256_sqr_reg (reserved here once per
 * call); above it the steps keep a table of the nine slot addresses (slot off/32 at
 * sp[72 + 4 (off/32)]), so an address costs one load that pipelines with its
 * neighbours, never an ADD and its address-generation stall; then PAD, KW, I, PREV. */
    .set    KFRAME, 72
    .set    PAD, KFRAME + 36         /* (r10's copy: keeps sp 8-byte aligned) */
    .set    KW, KFRAME + 40          /* mb_p256_ladder_loop: the scalar's words */
    .set    I, KFRAME + 44           /* mb_p256_ladder_loop: the bit index (public) */
    .set    PREV, KFRAME + 48        /* mb_p256_ladder_loop: the previous bit (secret) */
    .set    LOCALS, KFRAME + 52      /* + 36 saved = 160: sp stays 8-byte aligned */
    .macro  PTR rd, off
    ldr     \rd, [sp, #(KFRAME + \off / 8)]
    .endm

/* Build the table from w = r0, then PAD, KW, I, PREV from r10, r11, r12, lr. */
    .macro  TABLE
    add     r2, r0, #P0Y
    add     r3, r0, #P1X
    add     r4, r0, #P1Y
    add     r5, r0, #TA
    add     r6, r0, #TB
    add     r7, r0, #TC
    add     r8, r0, #TD
    add     r9, r0, #TF
    stmdb   sp!, {r0, r2-r12, lr}    /* table, PAD, KW, I, PREV */
    sub     sp, sp, #KFRAME
    .endm

/* Zero the secret slot and the GE flags (the mask), release the frame, return. */
    .macro  EPILOGUE
    mov     r0, #0
    str     r0, [sp, #PREV]
    uadd8   r0, r0, r0
    add     sp, sp, #LOCALS
    pop     {r4-r11, pc}
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

/* ADD_MASKED_P: acc += p & r1 (mask), then, if st >= 0, [lr] = acc (the address
 * loaded by ACC_OP). */
#include "fep256_masked.inc"

/* acc = acc - [off] mod p (then stored to st if given): a borrow means acc - m + 2^256
 * was computed, and adding p under the borrow's mask wraps back below 2^256 to
 * acc - m + p (< p). */
    .macro  SUBM off, st=-1
    ACC_OP  \off, subs, sbcs, 0, \st
    sbcs    r1, r1                   /* borrow ? -1 : 0 (narrow; the flags are dead) */
    ADD_MASKED_P \st
    .endm

/* acc = [off] - acc mod p */
    .macro  RSUBM off, st=-1
    ACC_OP  \off, subs, sbcs, 1, \st
    sbcs    r1, r1
    ADD_MASKED_P \st
    .endm

/* acc = acc + [off] mod p: V = acc + m < 2p; V - p, and p added back if that borrowed
 * (V < p). */
    .macro  ADDM off, st=-1
    ACC_OP  \off, adds, adcs, 0, \st
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


/* One 4-word group of a conditional exchange between the accumulator words a0..a3 and
 * the memory words at r2 (loaded into r1, r3, r12, lr; the exchanged memory words leave
 * in r0, r1, r3, r12 and are stored back, r2 advanced): mem' = sel(a, m), a' = sel(m, a),
 * so with GE = swap the two exchange. sub: then a' -= mem' word by word (op0 on the
 * first word, op on the rest; the flags carry through SEL, LDM and STM). */
    .macro  XSEL4 a0, a1, a2, a3, sub=0, op0=subs, op=sbcs
    ldm     r2, {r1, r3, r12, lr}
    sel     r0, \a0, r1
    sel     \a0, r1, \a0
    .if \sub
    \op0    \a0, \a0, r0
    .endif
    sel     r1, \a1, r3
    sel     \a1, r3, \a1
    .if \sub
    \op     \a1, \a1, r1
    .endif
    sel     r3, \a2, r12
    sel     \a2, r12, \a2
    .if \sub
    \op     \a2, \a2, r3
    .endif
    sel     r12, \a3, lr
    sel     \a3, lr, \a3
    .if \sub
    \op     \a3, \a3, r12
    .endif
    stm     r2!, {r0, r1, r3, r12}
    .endm

/* acc = v, [src] = u: [src] = u', acc = [dst] = v' - u' mod p, with (u', v') = (u, v)
 * exchanged if swap. */
    .macro  SELSUB src, dst
    PTR     r2, \src
    XSEL4   r4, r5, r6, r7, 1, subs, sbcs
    XSEL4   r8, r9, r10, r11, 1, sbcs, sbcs
    sbcs    r1, r1
    PTR     lr, \dst
    ADD_MASKED_P \dst
    .endm

/* XYCZ-ADDC from A in slot sa; sb is the other scratch slot of the two (A, then C - B
 * go to sa; X1 A, then B to sb). */
    .macro  ADDC_REST fused, sa, sb
    MUL     P0X, \sa
    STACC   \sb                      /* X1 A */
    MUL     P1X, \sa                 /* X2 A */
    STACC   \sa                      /* (A is dead) */
    ADDM    \sb, TC                  /* B + C (symmetric) */
    LDACC   \sa
    SELSUB  \sb, \sa                 /* [sb] = B, [sa] = C - B (B = X1 A, C = X2 A of the
                                        swapped points) */
    .if \fused
    LDACC   TF                       /* F = Y2 + Y1 (symmetric), made by the last step */
    .else
    LDACC   P1Y
    ADDM    P0Y, TF                  /* F = Y2 + Y1 (symmetric) */
    .endif
    SQR
    SUBM    TC, P0X                  /* X3' = F^2 - (B + C) (X1 is dead) */
    SUBM    \sb, TD                  /* X3' - B */
    LDACC   P1Y
    SELSUB  P0Y, P1Y                 /* [P0Y] = Y1, acc = [P1Y] = D = Y2 - Y1 (swapped) */
    SQR
    SUBM    TC, P1X                  /* X3 = D^2 - (B + C) (X2 is dead) */
    RSUBM   \sb, \sb                 /* B - X3 (B is dead after this) */
    MUL     P0Y, \sa
    STACC   P0Y                      /* E = Y1 (C - B) */
    MUL     P1Y, \sb
    .if \fused
    STACC   \sa                      /* D (B - X3) */
    .endif
    SUBM    P0Y, P1Y                 /* Y3 = D (B - X3) - E */
    MUL     TF, TD                   /* F (X3' - B) */
    .if \fused
    SUBM    \sa, TD                  /* Y3' - Y3 = F (X3' - B) - D (B - X3): E cancels */
    .else
    SUBM    P0Y, P0Y                 /* Y3' = F (X3' - B) - E */
    .endif
    .endm

/* XYCZ-ADD with P = R[1] = (X1, Y1), Q = R[0] = (X2, Y2); scratch TA, TC, TD only.
 * fused = 1 (the loop): D = Y2 - Y1 is already in TD (ADDC_REST 1), and the step leaves
 * the next XYCZ-ADDC's A = (B - X3)^2 in TB and F = D (B - X3) = Y3 + E in TF. */
    .macro  ADD_BODY fused=0
    LDACC   P0X
    SUBM    P1X
    SQR
    STACC   TA                       /* A = (X2 - X1)^2 */
    MUL     P1X, TA
    STACC   P1X                      /* B = X1 A, P's new x */
    MUL     P0X, TA
    STACC   TC                       /* C = X2 A (X2 is dead) */
    SUBM    P1X, TA                  /* C - B */
    .if \fused
    LDACC   TD
    .else
    LDACC   P0Y
    SUBM    P1Y, TD                  /* D = Y2 - Y1 */
    .endif
    SQR
    SUBM    P1X
    SUBM    TC, P0X                  /* X3 = D^2 - B - C */
    RSUBM   P1X, TC                  /* B - X3 */
    .if \fused
    SQR
    STACC   TB                       /* (B - X3)^2: the next XYCZ-ADDC's A (the new
                                        (R[1].x - R[0].x)^2) */
    .endif
    MUL     P1Y, TA
    STACC   P1Y                      /* E = Y1 (C - B), P's new y */
    MUL     TD, TC                   /* D (B - X3) */
    .if \fused
    STACC   TF                       /* = Y3 + E: the next XYCZ-ADDC's F */
    .endif
    SUBM    P1Y, P0Y                 /* Y3 = D (B - X3) - E */
    .endm

/* The three entries share one copy of each step: the loop's body, entered by
 * mb_p256_ladder_cswap_addc with a one-bit "scalar" (I = 0, KW = &I so the bit read is 0,
 * PREV = bit, hence the mask -bit) and left after its XYCZ-ADDC (I goes negative), and
 * by mb_p256_ladder_add at XYCZ-ADD with D made first and the two values that step passes
 * on (TB, TF) pointed at the kernels' frame (dead there), so t[1], t[4] survive. Each
 * entry loads r11, r12, lr = KW, I, PREV for TABLE. */
    .global mb_p256_ladder_cswap_addc
    .type   mb_p256_ladder_cswap_addc, %function
    .thumb_func
mb_p256_ladder_cswap_addc:
    push    {r4-r11, lr}
    and     lr, r1, #1               /* PREV = bit */
    sub     r11, sp, #(LOCALS - I)   /* KW = &I, and I = 0: kw[0] reads 0 */
    mov     r12, #0
    b       .Lfirst
    .size   mb_p256_ladder_cswap_addc, .-mb_p256_ladder_cswap_addc

    .global mb_p256_ladder_loop
    .type   mb_p256_ladder_loop, %function
    .thumb_func
mb_p256_ladder_loop:
    push    {r4-r11, lr}
    mov     r11, r1                  /* KW = kw */
    mov     r12, #256                /* I */
    mov     lr, #0                   /* PREV */
.Lfirst:
    TABLE
    LDACC   P1Y
    ADDM    P0Y, TF                  /* F = Y2 + Y1 for the first bit */
    LDACC   P1X
    SUBM    P0X
    SQR
    STACC   TB                       /* A = (X2 - X1)^2 for the first bit */
    ldr     r0, [sp, #I]
.Lbit:                               /* r0 = I */
    lsr     r2, r0, #5               /* (ahead of the loads: no address-generation stall) */
    ldr     r1, [sp, #KW]
    ldr     r3, [sp, #PREV]
    ldr     r2, [r1, r2, lsl #2]     /* kw[i / 32]: public address */
    and     r0, r0, #31
    lsr     r2, r2, r0               /* public shift count */
    and     r2, r2, #1               /* bit i */
    eor     r3, r3, r2
    rsb     r3, r3, #0               /* mask = -(prev ^ bit) */
    uadd8   r3, r3, r3               /* GE = 1111 if the mask is -1 (swap), 0000 if 0:
                                        byte i of the sum carries out (0xFF + 0xFF) or
                                        not (0 + 0); the kernels and ADDS/ADCS/SEL never
                                        write GE, so both SELSUBs of the bit read it */
    str     r2, [sp, #PREV]
    ADDC_REST 1, TB, TA
    ldr     r0, [sp, #I]
    subs    r0, r0, #1
    str     r0, [sp, #I]
    bmi     .Laddc_out               /* public: mb_p256_ladder_cswap_addc's exit */
.Ladd:
    ADD_BODY 1
    ldr     r0, [sp, #I]
    cmp     r0, #0
    bne     .Lbit                    /* public: i */
.Lout:
    EPILOGUE
.Laddc_out:
    ADDM    P1Y, P0Y                 /* Y3' = (Y3' - Y3) + Y3 */
    b       .Lout
    .size   mb_p256_ladder_loop, .-mb_p256_ladder_loop

    .global mb_p256_ladder_add
    .type   mb_p256_ladder_add, %function
    .thumb_func
mb_p256_ladder_add:
    push    {r4-r11, lr}
    mov     r12, #0                  /* I = 0: one XYCZ-ADD (KW, PREV unused) */
    TABLE
    add     r0, sp, #0
    str     r0, [sp, #(KFRAME + TB / 8)]  /* (B - X3)^2 and D (B - X3) to dead frame */
    str     r0, [sp, #(KFRAME + TF / 8)]
    LDACC   P0Y
    SUBM    P1Y, TD                  /* D = Y2 - Y1 */
    b       .Ladd
    .size   mb_p256_ladder_add, .-mb_p256_ladder_add
#endif /* MB_ASM_CORTEX_M4 */
