/* SPDX-License-Identifier: MIT */
#include "util/backend.h"
#if MB_ASM_MSP430X   /* else this file is empty (util/backend.h) */
/*
 * The Salsa20 core for the MSP430X (same contract as src/sym/salsa20.h; replaces
 * src/sym/salsa20_core.c). Base-ISA code plus PUSHM/POPM as .word (LLVM's assembler
 * lacks the MSP430X mnemonics); no multiplier, so one object serves MPY32 and MPY16.
 *
 *   void mb_salsa20_block(uint8_t out[64], const uint8_t in[16], const uint8_t k[32]);
 *        r12 = out, r13 = in, r14 = k
 *   void mb_hsalsa20_core(uint8_t out[32], const uint8_t in[16], const uint8_t k[32],
 *                         const uint8_t c[16]);
 *        r12 = out, r13 = in, r14 = k, r15 = c
 *
 * Pointers may be odd: their parity (public) picks word or byte copies. mb_salsa20_block
 * reads k and in by words when both are even (else it copies them to its frame first)
 * and writes out by words when out is even (else the feed-forward goes to the frame and
 * is copied out bytewise). mb_hsalsa20_core (once per message) always copies bytewise.
 * Clobbers r11-r15 (returned zero) and the flags; r4-r10 saved (PUSHM/POPM). Stack:
 * 14 (saves) + 172 (frame) + 2 (call of the rounds) = 188 bytes (190 with the caller's
 * call) for mb_salsa20_block, 14 + 120 + 2 = 136 (138) for mb_hsalsa20_core. The whole
 * frame is zeroed before return.
 * Cycles incl. call (tests/msp430/test_asm430_sym.py -s): mb_salsa20_block 7,440 with even
 * pointers (8,357 all odd); mb_hsalsa20_core 7,856.
 * CT: k, in (the Salsa20 input) and the state are secret; straight-line add, addc, xor,
 * swpb, rrc/rlc, bit #1 and byte-wide xor on registers and fixed frame offsets. The only
 * branches test pointer parity (public) and the round counter (public).
 *
 * Method. A 32-bit word is a register pair (lo, hi). Quarter-round steps are
 * b ^= (a + d) <<< 7, c ^= (b + a) <<< 9, d ^= (c + b) <<< 13, a ^= (d + c) <<< 18, with
 *   <<< 16  renaming the pair (no instruction),
 *   <<< 1   rla lo; rlc hi; adc lo                 (3 cycles)
 *   >>> 1   bit #1, lo (C = bit 0); rrc hi; rrc lo  (3)
 *   <<< 8   swpb both halves, then exchange their low bytes; the exchange is folded
 *           into the xor with the destination word: dst_hi ^= swpb(hi), dst_lo ^=
 *           swpb(lo), x = (swpb(hi) ^ swpb(lo)) & 0xff (one xor.b), dst_hi ^= x,
 *           dst_lo ^= x.
 * so 7 = 8 - 1, 9 = 8 + 1, 13 = 16 - 3, 18 = 16 + 2. A quarter-round holds a in r4:r5
 * and works in r6-r10; the words in memory are read through r11 (layouts below). Two
 * words that are the "c" of both their column and row quarter-round (x2 and x7) stay in
 * r12:r13 and r14:r15 for all 20 rounds; the column round ends with the quarter-round
 * whose a (x15) starts the row round's first, and the row round ends with x10, the a of
 * the next column round's first (order C2 C0 C1 C3 R3 R0 R1 R2), so those a words stay
 * in r4:r5.
 */
    .text

#include "msp430x.inc"

    .equ    SIG0L, 0x7865                   /* "expand 32-byte k" as words */
    .equ    SIG0H, 0x6170
    .equ    SIG1L, 0x646e
    .equ    SIG1H, 0x3320
    .equ    SIG2L, 0x2d32
    .equ    SIG2H, 0x7962
    .equ    SIG3L, 0x6574
    .equ    SIG3H, 0x6b20

/* mov(.b) @Rs+, off(Rd): LLVM's assembler rejects this valid form (Format I, As = 3,
 * Ad = 1; SLAU367 4.5.1.1), so it is emitted as words. s, d: register numbers. */
    .macro  MOVPI s, off, d, bw=0
    .word   0x40B0 | (\s << 8) | (\bw << 6) | \d, \off
    .endm

/* The state lives in two layouts, each the order in which a round reads it: the column
 * round reads X (frame 0..51) through r11 with @r11+ and stores into Y (52..103), the
 * row round reads Y and stores into X (every word is read and written once per round,
 * so the two never alias). x10, x2 and x7 are in registers across the rounds (x10 as the
 * a of the row round's last and the column round's first quarter-round), x15 between the
 * column and the row round. CPi / RPi: offset of x_i in X / Y; Si: where the entries put
 * x_i before and find it after the rounds (X, or 104/108/112 for x10, x2, x7).
 *   X: x6 x14 x0 x12 x4 x8 x5 x1 x9 x13 x15 x11 x3
 *   Y: x14 x12 x13 x0 x3 x1 x5 x4 x6 x10 x9 x11 x8 */
    .equ    CP0, 8
    .equ    CP1, 28
    .equ    CP3, 48
    .equ    CP4, 16
    .equ    CP5, 24
    .equ    CP6, 0
    .equ    CP8, 20
    .equ    CP9, 32
    .equ    CP11, 44
    .equ    CP12, 12
    .equ    CP13, 36
    .equ    CP14, 4
    .equ    CP15, 40
    .equ    RP0, 64
    .equ    RP1, 72
    .equ    RP3, 68
    .equ    RP4, 80
    .equ    RP5, 76
    .equ    RP6, 84
    .equ    RP8, 100
    .equ    RP9, 92
    .equ    RP10, 88
    .equ    RP11, 96
    .equ    RP12, 56
    .equ    RP13, 60
    .equ    RP14, 52
    .irp    i, 0, 1, 3, 4, 5, 6, 8, 9, 11, 12, 13, 14, 15
    .equ    S\i, CP\i
    .endr
    .equ    S10, 104
    .equ    S2, 108
    .equ    S7, 112
    .equ    F_CNT, 116              /* double-round counter (public) */
    .equ    F_STATE, 118

/* mb_salsa20_block's frame: the state area, then out/in/k, then the copies of k and in
 * (odd pointers only). */
    .equ    F_OUT, F_STATE
    .equ    F_IN, F_STATE+2
    .equ    F_K, F_STATE+4
    .equ    F_KC, F_STATE+6
    .equ    F_INC, F_STATE+38
    .equ    F_SIZE, F_STATE+54

/* Inside mb_salsa20_rounds the frame sits 2 bytes higher (the return address). */
    .equ    O, 2

/* Next word read through r11: PP tracks r11 - (sp + O) at assembly time and checks
 * that the layout matches the order of the reads. */
    .macro  RD op, pos, reg
    .if (\pos) != PP
    .error  "salsa20 layout out of order"
    .endif
    \op     @r11+, \reg
    .set    PP, PP+2
    .endm

/* One quarter-round on words a, b, c, d (indices), reading layout in (CP or RP) and
 * storing into layout out. lda/sta: load a into r4:r5 / store it; cp = 0: c in memory,
 * 1: c in r12:r13, 2: c in r14:r15. */
    .macro  QR a, b, c, d, lda, sta, cp, in, out
    .if \lda
    RD      mov, \in\()\a, r4
    RD      mov, \in\()\a+2, r5
    .endif
    /* b ^= (a + d) <<< 7: T = r6:r7, >>> 1, then <<< 8 folded into the xor with b */
    mov     r4, r6
    mov     r5, r7
    RD      add, \in\()\d, r6
    RD      addc, \in\()\d+2, r7
    bit     #1, r6
    rrc     r7
    rrc     r6
    swpb    r7
    swpb    r6
    mov     r7, r8
    xor.b   r6, r8                  /* r8 = exchanged byte (high byte cleared) */
    RD      xor, \in\()\b, r6
    xor     r8, r6
    RD      xor, \in\()\b+2, r7
    xor     r8, r7                  /* b' = r6:r7 */
    /* c ^= (b + a) <<< 9: T = r8:r9, <<< 1, then <<< 8 into c */
    mov     r6, r8
    mov     r7, r9
    add     r4, r8
    addc    r5, r9
    rla     r8
    rlc     r9
    adc     r8
    swpb    r9
    swpb    r8
    .if \cp == 0
    mov     r9, r10
    xor.b   r8, r10
    RD      xor, \in\()\c, r8
    xor     r10, r8
    RD      xor, \in\()\c+2, r9
    xor     r10, r9                 /* c' = r8:r9 */
    .else
    .if \cp == 1
    xor     r9, r13
    xor     r8, r12
    xor.b   r8, r9
    xor     r9, r13
    xor     r9, r12                 /* c' = r12:r13 */
    .else
    xor     r9, r15
    xor     r8, r14
    xor.b   r8, r9
    xor     r9, r15
    xor     r9, r14                 /* c' = r14:r15 */
    .endif
    .endif
    /* d ^= (c + b) <<< 13: T = r6:r7 (b stored first), <<< 16 = lo r7, hi r6, >>> 3 */
    mov     r6, \out\()\b+O(r1)
    mov     r7, \out\()\b+2+O(r1)
    .if \cp == 0
    add     r8, r6
    addc    r9, r7
    .else
    .if \cp == 1
    add     r12, r6
    addc    r13, r7
    .else
    add     r14, r6
    addc    r15, r7
    .endif
    .endif
    bit     #1, r7
    rrc     r6
    rrc     r7
    bit     #1, r7
    rrc     r6
    rrc     r7
    bit     #1, r7
    rrc     r6
    rrc     r7
    xor     \in\()\d-PP(r11), r7     /* d again, behind the read pointer */
    xor     \in\()\d+2-PP(r11), r6  /* d' = lo r7, hi r6 */
    /* a ^= (d + c) <<< 18: <<< 16 by renaming, then <<< 1 twice */
    .if \cp == 0
    mov     r8, \out\()\c+O(r1)     /* c stored; T = r8:r9 */
    mov     r9, \out\()\c+2+O(r1)
    add     r7, r8
    addc    r6, r9
    mov     r7, \out\()\d+O(r1)
    mov     r6, \out\()\d+2+O(r1)
    rla     r9                      /* lo r9, hi r8 */
    rlc     r8
    adc     r9
    rla     r9
    rlc     r8
    adc     r9
    xor     r9, r4
    xor     r8, r5
    .else
    mov     r7, \out\()\d+O(r1)     /* d stored; T = lo r7, hi r6 */
    mov     r6, \out\()\d+2+O(r1)
    .if \cp == 1
    add     r12, r7
    addc    r13, r6
    .else
    add     r14, r7
    addc    r15, r6
    .endif
    rla     r6                      /* lo r6, hi r7 */
    rlc     r7
    adc     r6
    rla     r6
    rlc     r7
    adc     r6
    xor     r6, r4
    xor     r7, r5
    .endif
    .if \sta
    mov     r4, \out\()\a+O(r1)
    mov     r5, \out\()\a+2+O(r1)
    .endif
    .endm

/* 20 rounds on the state area at 2(sp) (called from the entries below). Clobbers
 * r4-r15. CT: as above; F_CNT is the public round counter. */
    .section .text.mb_salsa20_rounds,"ax",@progbits
    .p2align 1
    .type   mb_salsa20_rounds, @function
mb_salsa20_rounds:
    mov     S10+O(r1), r4           /* x10: a of the first quarter-round */
    mov     S10+2+O(r1), r5
    mov     S2+O(r1), r12           /* x2, x7 stay in registers */
    mov     S2+2+O(r1), r13
    mov     S7+O(r1), r14
    mov     S7+2+O(r1), r15
    mov     #10, F_CNT+O(r1)
    mov     r1, r11
    add     #O, r11                 /* read pointer: X */
1:  .set    PP, 0
    QR      10, 14, 2, 6, 0, 1, 1, CP, RP       /* column round */
    QR      0, 4, 8, 12, 1, 1, 0, CP, RP
    QR      5, 9, 13, 1, 1, 1, 0, CP, RP
    QR      15, 3, 7, 11, 1, 0, 2, CP, RP
    QR      15, 12, 13, 14, 0, 1, 0, RP, CP     /* row round (r11 is at Y now) */
    QR      0, 1, 2, 3, 1, 1, 1, RP, CP
    QR      5, 6, 7, 4, 1, 1, 2, RP, CP
    QR      10, 11, 8, 9, 1, 0, 0, RP, CP
    .if PP != 104
    .error  "salsa20 layout size"
    .endif
    sub     #104, r11               /* back to X */
    dec     F_CNT+O(r1)
    jz      2f
    br      #1b                     /* the body is beyond a jump's reach */
2:  mov     r4, S10+O(r1)
    mov     r5, S10+2+O(r1)
    mov     r12, S2+O(r1)
    mov     r13, S2+2+O(r1)
    mov     r14, S7+O(r1)
    mov     r15, S7+2+O(r1)
    ret
    .size   mb_salsa20_rounds, .-mb_salsa20_rounds

/* n bytes from @src to @dst (both advanced); r10 counts. Public lengths and addresses. */
    .macro  BCOPY src, dst, n
    mov     #\n, r10
9:  MOVPI   \src, 0, \dst, 1          /* mov.b @src+, 0(dst) */
    inc     r\dst
    dec     r10
    jnz     9b
    .endm

/* Feed-forward of one word: out[4i..] = x_i + src, src an immediate pair or @reg+. */
    .macro  FF_IMM i, lo, hi
    mov     S\i(r1), r8
    add     #\lo, r8
    mov     r8, 4*\i(r12)
    mov     S\i+2(r1), r8
    addc    #\hi, r8
    mov     r8, 4*\i+2(r12)
    .endm
    .macro  FF_PTR i, p
    mov     S\i(r1), r8
    add     @\p+, r8
    mov     r8, 4*\i(r12)
    mov     S\i+2(r1), r8
    addc    @\p+, r8
    mov     r8, 4*\i+2(r12)
    .endm

/* Input word i from @reg+ (even) into its place. */
    .macro  LDW reg, i
    MOVPI   \reg, S\i, 1            /* mov @reg+, S_i(sp) */
    MOVPI   \reg, S\i+2, 1
    .endm

    .section .text.mb_salsa20_block,"ax",@progbits
    .p2align 1
    .global mb_salsa20_block
    .type   mb_salsa20_block, @function
mb_salsa20_block:
    PUSHM_R4_R10
    sub     #F_SIZE, r1
    mov     r12, F_OUT(r1)
    bit     #1, r14                 /* odd k: copy it to the frame (public parity) */
    jz      1f
    mov     r1, r15
    add     #F_KC, r15
    BCOPY   14, 15, 32
    mov     r1, r14
    add     #F_KC, r14
1:  bit     #1, r13                 /* odd in: likewise */
    jz      2f
    mov     r1, r15
    add     #F_INC, r15
    BCOPY   13, 15, 16
    mov     r1, r13
    add     #F_INC, r13
2:  mov     r13, F_IN(r1)
    mov     r14, F_K(r1)
    /* input matrix: sigma on the diagonal, k around it, in in the middle */
    mov     #SIG0L, S0(r1)
    mov     #SIG0H, S0+2(r1)
    mov     #SIG1L, S5(r1)
    mov     #SIG1H, S5+2(r1)
    mov     #SIG2L, S10(r1)
    mov     #SIG2H, S10+2(r1)
    mov     #SIG3L, S15(r1)
    mov     #SIG3H, S15+2(r1)
    .irp    i, 1, 2, 3, 4, 11, 12, 13, 14
    LDW     14, \i
    .endr
    .irp    i, 6, 7, 8, 9
    LDW     13, \i
    .endr
    call    #mb_salsa20_rounds
    /* feed-forward: out = x + input, the input re-read from sigma, k and in */
    mov     F_OUT(r1), r12
    bit     #1, r12
    jz      3f
    mov     r1, r12                 /* odd out: into the frame at 52..115, copied below */
    add     #52, r12                /* (Y is dead; x10, x2, x7 there are read first) */
3:  mov     F_IN(r1), r13
    mov     F_K(r1), r14
    FF_IMM  0, SIG0L, SIG0H
    FF_PTR  1, r14
    FF_PTR  2, r14
    FF_PTR  3, r14
    FF_PTR  4, r14
    FF_IMM  5, SIG1L, SIG1H
    FF_PTR  6, r13
    FF_PTR  7, r13
    FF_PTR  8, r13
    FF_PTR  9, r13
    FF_IMM  10, SIG2L, SIG2H
    FF_PTR  11, r14
    FF_PTR  12, r14
    FF_PTR  13, r14
    FF_PTR  14, r14
    FF_IMM  15, SIG3L, SIG3H
    mov     F_OUT(r1), r15
    cmp     r12, r15
    jeq     4f
    BCOPY   12, 15, 64              /* odd out: copy (wiped with the state below) */
4:  WIPE_RETURN F_SIZE                 /* state, copies of k and in, registers */
    .size   mb_salsa20_block, .-mb_salsa20_block

/* HSalsa20: constants from c, output x0 x5 x10 x15 x6 x7 x8 x9, no feed-forward; every
 * word is copied bytewise (pointers of any parity). Frame: the state area, out at
 * F_STATE. */
    .macro  HLD src, i
    mov     r1, r12
    add     #S\i, r12
    BCOPY   \src, 12, 4
    .endm
    .macro  HST i
    mov     r1, r13
    add     #S\i, r13
    BCOPY   13, 12, 4
    .endm

    .section .text.mb_hsalsa20_core,"ax",@progbits
    .p2align 1
    .global mb_hsalsa20_core
    .type   mb_hsalsa20_core, @function
mb_hsalsa20_core:
    PUSHM_R4_R10
    sub     #F_STATE+2, r1
    mov     r12, F_STATE(r1)        /* out */
    .irp    i, 0, 5, 10, 15
    HLD     15, \i
    .endr
    .irp    i, 1, 2, 3, 4, 11, 12, 13, 14
    HLD     14, \i
    .endr
    .irp    i, 6, 7, 8, 9
    HLD     13, \i
    .endr
    call    #mb_salsa20_rounds
    mov     F_STATE(r1), r12
    .irp    i, 0, 5, 10, 15, 6, 7, 8, 9
    HST     \i
    .endr
    WIPE_RETURN F_STATE+2
    .size   mb_hsalsa20_core, .-mb_hsalsa20_core
#endif /* MB_ASM_MSP430X */
