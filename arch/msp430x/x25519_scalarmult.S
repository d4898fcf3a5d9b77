/* SPDX-License-Identifier: MIT */
#include "util/backend.h"
#if MB_ASM_MSP430X   /* else this file is empty (util/backend.h) */
/*
 * X25519 scalar multiplication for the MSP430X: the whole of mb_x25519_scalarmult
 * (src/curve/x25519_ladder.h; replaces src/curve/x25519_scalarmult.c, and with it
 * x25519_ladder_steps.c, which nothing else calls, and src/field/fe25519_invert.c:
 * mb_fe25519_invert is the inversion below behind its own entry), over
 * the field kernels of fe25519_addsub.S and fe25519_mul_mpy32.S / _mpy16.S (this file is
 * multiplier-independent: it only calls them) and the portable encoding
 * (mb_fe25519_frombytes/_set/_copy/_tobytes, src/field/fe25519_io_r16.c, fe25519.c).
 *
 * Ladder: RFC 7748 section 5 with the difference projective, P = (x1 : z1):
 *   A = x2 + z2, B = x2 - z2, C = x3 + z3, D = x3 - z3, DA = D A, CB = C B,
 *   x3' = z1 (DA + CB)^2, z3' = x1 (DA - CB)^2,
 *   x2' = AA BB, z2' = E (AA + 121665 E), E = AA - BB
 * (AA + 121665 E = BB + 121666 E). The last one is one kernel, h = 121665 f + g in place
 * of AA, so the state needs one temporary only: five working slots (x2, z2, x3, z3, t0),
 * x1 and z1. z1 = 1 (plain ladder) skips its product; rnd == NULL is public.
 * Randomized ([DS16] Algorithm 1): P = (lambda u : lambda), R0 = (rho : 0), lambda = the
 * 32 bytes of rnd with bits 255 and 0 cleared (2 if that is 0), rho = lambda^2: full
 * width and even (src/curve/x25519_ladder.h; docs/SIDE_CHANNELS.md).
 * The conditional swap of R0 and R1 before each step (swap bit s = k_t xor k_(t+1)) is
 * a select, not a swap: A, B, C, D are computed from the unswapped R0, R1; DA + CB and
 * (DA - CB)^2, so x3' and z3', do not change if R0 and R1 trade places, and only the
 * doubling's A, B are taken from R1's (C, D) when s = 1 (mb_fe25519_cmov, a mask: 2
 * elements a step instead of swapping 4). The state after the step is the swapped
 * ladder's; the final swap is two selects too (x3, z3 are dead). Bits are read at public
 * positions (a byte pointer and a one-bit mask; the byte pointer reaching k - 1 ends
 * the loop: 255 steps).
 * Inversion: Fermat, z^(p-2) by the chain 254 S + 11 M (as src/field/fe25519_invert.c)
 * in the ladder's slots, then u = x2 z2^(p-2), encoded by mb_fe25519_tobytes.
 *
 * Calling convention: MSP430 EABI; r12 = out, r13 = k (clamped, bit 255 = 0),
 * r14 = u, r15 = rnd (or 0). r4-r10 saved (they hold the ladder's pointers, the bit
 * position and the pointers to the slots T0, Z2, Z3 across the kernel calls: the
 * kernels and the C functions preserve them).
 * Stack: FRAME (+ 32 randomized) + 16 bytes here (14 saved + return address) plus the
 * deepest callee (WIPE_BELOW, which the wipe writes): 352 / 384 bytes;
 * tests/msp430/test_asm430_x25519.py measures it.
 * Secrets: k, rnd, out, every slot and the kernels' scratch below sp. On return the
 * frame and the WIPE_BELOW bytes below it are zeroed (a loop with a constant count),
 * r11-r15 cleared; r4-r10 are restored (r6 held bits of k).
 * Constant time: the only branches are on the public loop counters, the bit position
 * and rnd == NULL.
 * Cycles and code size: measured through mb_x25519 by make bench-msp430 (README "Where
 * the cycles go"; not repeated here, where they would go stale).
 */
#include "board.h"
#include "msp430x.inc"

        .equ    X2, 0           /* x2; B; B selected; BB; AA BB */
        .equ    Z2, 32          /* z2; C; CB; E; z2' */
        .equ    X3, 64          /* x3; D; DA + CB; x3' */
        .equ    Z3, 96          /* z3; DA; DA - CB; z3' */
        .equ    T0, 128         /* A; A selected; AA; AA + 121665 E */
        .equ    X1, 160         /* x1 = u or lambda u */
        .equ    OUTP, 192       /* out (r7 holds a slot pointer in the ladder) */
        .equ    KEND, 194       /* k - 1: where the bit position ends (public) */
        .equ    Z1, 196         /* z1 = lambda (randomized only) */
        .equ    FRAME, 196      /* + 32 for Z1 when randomized (rnd != NULL: public) */
        /* The deepest callee below our sp, return address included: the 16-bit
         * multiplier's mb_fe25519_mul (138 bytes) called from .Linvert (2 more; MPY32's
         * deepest kernel, sqr, takes 130 and the C encoders less: the test checks the
         * whole call stays inside what is wiped). */
        .equ    WIPE_BELOW, 140
        /* inversion slots (x2 stays in X2, z in Z2; z^9 is dead when b starts) */
        .equ    IZ2, X3         /* z^2, then the result */
        .equ    IZ9, Z3
        .equ    IZ11, T0
        .equ    IA, X1
        .equ    IB, Z3

        /* reg = sp + off; in the ladder loop (LREGS = 1) Z2, Z3 and T0, the most used
         * slots, are r7, r10 and r9 (one cycle and no extension word instead of three) */
        .set    LREGS, 0
        .macro  PTR reg, off
        .if LREGS && (\off == Z2)
        mov     r7, \reg
        .elseif LREGS && (\off == Z3)
        mov     r10, \reg
        .elseif LREGS && (\off == T0)
        mov     r9, \reg
        .else
        mov     r1, \reg
        .if \off
        add     #\off, \reg
        .endif
        .endif
        .endm

        /* h = f op g: kernel call with pointers into the frame */
        .macro  OP3 fn, h, f, g
        PTR     r12, \h
        PTR     r13, \f
        PTR     r14, \g
        call    #\fn
        .endm

        .macro  SQR h, f
        PTR     r12, \h
        PTR     r13, \f
        call    #mb_fe25519_sqr
        .endm

        /* h = s ? g : h (s in r6) */
        .macro  CMOV h, g
        PTR     r12, \h
        PTR     r13, \g
        mov     r6, r14
        call    #mb_fe25519_cmov
        .endm

        /* one section: the two entry points share the inversion and the wipe */
        .section .text.mb_x25519_scalarmult,"ax",@progbits
        .global mb_x25519_scalarmult
        .type   mb_x25519_scalarmult,@function
mb_x25519_scalarmult:
        PUSHM_R4_R10
        mov     r15, r8                 /* rnd (public whether 0) */
        sub     #FRAME, r1
        tst     r8
        jz      1f
        sub     #32, r1                 /* Z1 */
1:      mov     r12, OUTP(r1)           /* out */
        mov     r13, r4
        dec     r13
        mov     r13, KEND(r1)
        add     #31, r4                 /* byte of bit 254 */
        mov     #0x40, r5               /* its mask */
        mov     #0, r6                  /* k_(t+1), then s */
        PTR     r12, X1
        mov     r14, r13
        call    #mb_fe25519_frombytes   /* x1 = u mod 2^255 */
        PTR     r12, Z2
        mov     #0, r13
        call    #mb_fe25519_set         /* z2 = 0 */
        tst     r8
        jz      .Lplain
        PTR     r12, Z1
        mov     r8, r13
        call    #.Llambda               /* z1 = lambda */
        SQR     X2, Z1                  /* x2 = rho = lambda^2 */
        OP3     mb_fe25519_mul, X1, X1, Z1      /* x1 = lambda u */
        PTR     r12, Z3
        PTR     r13, Z1
        call    #mb_fe25519_copy        /* z3 = lambda */
        jmp     .Lstart
.Lplain:
        PTR     r12, X2
        mov     #1, r13
        call    #mb_fe25519_set         /* x2 = 1 */
        PTR     r12, Z3
        mov     #1, r13
        call    #mb_fe25519_set         /* z3 = 1 */
.Lstart:
        PTR     r12, X3
        PTR     r13, X1
        call    #mb_fe25519_copy        /* x3 = x1 */
        PTR     r9, T0
        PTR     r7, Z2
        PTR     r10, Z3
        .set    LREGS, 1

.Lstep:
        mov     #0, r15
        bit.b   r5, 0(r4)               /* C = k_t (the position is public) */
        addc    #0, r15                 /* r15 = k_t (cleared by the next call) */
        xor     r15, r6                 /* r6 = s = k_t xor k_(t+1) */
        OP3     mb_fe25519_add, T0, X2, Z2      /* A (of R0 before the swap) */
        OP3     mb_fe25519_sub, X2, X2, Z2      /* B */
        OP3     mb_fe25519_add, Z2, X3, Z3      /* C (of R1 before the swap) */
        OP3     mb_fe25519_sub, X3, X3, Z3      /* D */
        OP3     mb_fe25519_mul, Z3, X3, T0      /* DA (CB if swapped) */
        CMOV    T0, Z2                          /* A of the swapped R0 */
        OP3     mb_fe25519_mul, Z2, Z2, X2      /* CB (DA if swapped) */
        CMOV    X2, X3                          /* B of the swapped R0 */
        SQR     T0, T0                          /* AA */
        SQR     X2, X2                          /* BB */
        OP3     mb_fe25519_add, X3, Z3, Z2      /* DA + CB */
        OP3     mb_fe25519_sub, Z3, Z3, Z2      /* DA - CB (its sign squares away) */
        SQR     X3, X3
        tst     r8
        jz      1f
        OP3     mb_fe25519_mul, X3, X3, Z1      /* x3' = z1 (DA + CB)^2 */
1:      SQR     Z3, Z3
        OP3     mb_fe25519_mul, Z3, Z3, X1      /* z3' = x1 (DA - CB)^2 */
        OP3     mb_fe25519_sub, Z2, T0, X2      /* E = AA - BB */
        OP3     mb_fe25519_mul, X2, T0, X2      /* x2' = AA BB */
        OP3     mb_fe25519_mul121665_add, T0, Z2, T0    /* AA + 121665 E */
        OP3     mb_fe25519_mul, Z2, Z2, T0      /* z2' = E (AA + 121665 E) */
        mov     #0, r6
        bit.b   r5, 0(r4)
        addc    #0, r6                  /* k_t for the next step */
        rra     r5                      /* next bit (public position) */
        jnz     .Lstep
        mov     #0x80, r5
        dec     r4
        cmp     KEND(r1), r4            /* 255 steps: bits 254..0 */
        jne     .Lstep
        .set    LREGS, 0
        CMOV    X2, X3                  /* the last swap: only R0 is read after it */
        CMOV    Z2, Z3

        call    #.Linvert               /* IZ2 = 1/z2 */
        OP3     mb_fe25519_mul, IZ2, X2, IZ2    /* u = x2 / z2 */
        mov     OUTP(r1), r12
        PTR     r13, IZ2
        call    #mb_fe25519_tobytes

        /* wipe: WIPE_BELOW bytes below sp (the callees' frames) and the frame */
.Lwipe_ret:
        mov     r1, r12
        sub     #WIPE_BELOW, r12
        mov     r1, r13
        add     #FRAME, r13
        tst     r8
        jz      3f
        add     #32, r13
3:      mov     #0, 0(r12)
        incd    r12
        cmp     r13, r12
        jlo     3b
        tst     r8
        jz      5f
        add     #32, r1
5:
        mov     #0, r11
        mov     #0, r12
        mov     #0, r13
        mov     #0, r14
        mov     #0, r15
        add     #FRAME, r1
        POPM_R4_R10
        ret
        .size   mb_x25519_scalarmult, .-mb_x25519_scalarmult

/* void mb_fe25519_invert(fe25519 *h, const fe25519 *f) (src/field/fe25519.h; replaces
 * src/field/fe25519_invert.c): h = f^(p-2) = 1/f mod p (0 if f = 0 mod p). The same
 * frame, inversion and wipe as mb_x25519_scalarmult. Clobbers r11-r15. */
        .global mb_fe25519_invert
        .type   mb_fe25519_invert,@function
mb_fe25519_invert:
        PUSHM_R4_R10
        sub     #FRAME, r1
        mov     #0, r8                  /* no Z1 */
        mov     r12, r7
        PTR     r12, Z2
        call    #mb_fe25519_copy        /* z = f (h may alias f) */
        call    #.Linvert
        mov     r7, r12
        PTR     r13, IZ2
        call    #mb_fe25519_copy
        jmp     .Lwipe_ret
        .size   mb_fe25519_invert, .-mb_fe25519_invert

/* IZ2 = z^(p-2), z in Z2 (unchanged), by 254 S + 11 M over the slots IZ2..IB of the
 * caller's frame (2 bytes above our sp: the return address): p - 2 =
 * (2^250 - 1) 2^5 + 11, z^(2^k - 1) for k = 5, 10, 20, 40, 50, 100, 200, 250.
 * A table of operations (h, f, g, n): n = 0 is h = f g, n >= 1 is h = f^(2^n); all
 * public, one entry read per operation (code size: the chain unrolled took ~700 bytes).
 * Clobbers r4, r9, r10, r11-r15. */
.Linvert:
        mov     #.Linv_table, r9
1:      mov     r1, r4
        incd    r4                      /* the caller's sp: the slots */
        mov     r4, r13
        mov     r4, r14
        mov.b   @r9+, r12
        add     r12, r4                 /* h */
        mov.b   @r9+, r12
        add     r12, r13                /* f */
        mov.b   @r9+, r12
        add     r12, r14                /* g */
        mov.b   @r9+, r10               /* n */
        mov     r4, r12
        tst     r10
        jnz     2f
        call    #mb_fe25519_mul
        jmp     3f
2:      call    #mb_fe25519_sqr         /* h = f^2, then h = h^2 n - 1 times */
        mov     r4, r12
        mov     r4, r13
        dec     r10
        jnz     2b
3:      cmp     #.Linv_end, r9
        jne     1b
        ret

        .macro  INV h, f, g, n
        .byte   \h, \f, \g, \n
        .endm
        .p2align 1
.Linv_table:
        INV     IZ2, Z2, 0, 1           /* z^2 */
        INV     IA, IZ2, 0, 2           /* z^8 */
        INV     IZ9, IA, Z2, 0          /* z^9 */
        INV     IZ11, IZ9, IZ2, 0       /* z^11 */
        INV     IA, IZ11, 0, 1          /* z^22 */
        INV     IA, IA, IZ9, 0          /* z^(2^5 - 1); z^9 dead: IB = IZ9 */
        INV     IB, IA, 0, 5
        INV     IA, IB, IA, 0           /* z^(2^10 - 1) */
        INV     IB, IA, 0, 10
        INV     IB, IB, IA, 0           /* z^(2^20 - 1) */
        INV     IZ2, IB, 0, 20
        INV     IB, IZ2, IB, 0          /* z^(2^40 - 1) */
        INV     IB, IB, 0, 10
        INV     IA, IB, IA, 0           /* z^(2^50 - 1) */
        INV     IB, IA, 0, 50
        INV     IB, IB, IA, 0           /* z^(2^100 - 1) */
        INV     IZ2, IB, 0, 100
        INV     IB, IZ2, IB, 0          /* z^(2^200 - 1) */
        INV     IB, IB, 0, 50
        INV     IA, IB, IA, 0           /* z^(2^250 - 1) */
        INV     IA, IA, 0, 5            /* z^(2^255 - 32) */
        INV     IZ2, IA, IZ11, 0        /* z^(2^255 - 21) */
.Linv_end:

/* h (r12) = lambda: the 32 bytes at r13 (any alignment) as a little-endian integer with
 * bits 255 and 0 cleared, or 2 if that leaves 0 (even, and nonzero mod p: p is odd and
 * lambda < 2^255; src/curve/x25519_ladder.h). CT: the zero test is arithmetic (the
 * borrow of OR - 1), not a branch; the loops count public lengths. Clobbers r10 (a
 * pointer), r11-r15 (cleared: secret bytes). */
.Llambda:
        mov     r12, r10
        add     #32, r10                /* the end of h */
1:      mov.b   @r13+, r14
        mov.b   @r13+, r15
        swpb    r15
        bis     r15, r14
        mov     r14, 0(r12)
        incd    r12
        cmp     r10, r12
        jne     1b
        bic     #1, -32(r12)            /* even */
        bic     #0x8000, -2(r12)        /* below 2^255 */
        sub     #32, r12
        mov     #0, r11
2:      bis     @r12+, r11              /* the OR of the words */
        cmp     r10, r12
        jne     2b
        mov     #0, r14
        sub     #1, r11                 /* C = 0 iff the OR was 0 */
        addc    #0, r14                 /* 1 iff nonzero */
        xor     #1, r14                 /* 1 iff zero */
        rla     r14                     /* 2 iff zero */
        bis     r14, -32(r12)
        mov     #0, r11
        mov     #0, r14
        mov     #0, r15
        ret
#endif /* MB_ASM_MSP430X */
