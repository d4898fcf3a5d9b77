/* SPDX-License-Identifier: MIT */
/* Multiply helpers the compiler calls (__mspabi_mpy*, MSP430 EABI), for devices with
 * the 32-bit hardware multiplier MPY32. Built into build/msp430/rt/mpy32/libfr5969.a.
 *
 * Calling convention (MSP430 EABI as clang 14 emits it): arguments in r12..r15, the
 * second operand of __mspabi_mpyll in r8..r11; results in r12 (16 bit), r12:r13 (32 bit),
 * r12..r15 (64 bit), low word first; r11..r15 may be clobbered, r4..r10 are preserved.
 *
 * Constant time: straight-line code, no branch and no memory index depends on the
 * operands; every call performs the same multiplier operations whatever the values
 * (the compiler zero-extends 16-bit operands; we do not skip zero halves). All operands
 * may be secret. The multiplier is shared state: see README.md (interrupts must not use
 * it, or must save and restore it).
 *
 * Result latency (SLAU367 "Result availability"; docs/MSP430_TIMING.md): 16x16 results
 * 3 cycles after OP2 is written; 32x32: RES0 3 cycles after OP2L, RES1/RES2/RES3 the
 * later of 8/10/11 cycles after OP2L and 3/5/6 after OP2H. Here OP2H follows OP2L by 3
 * cycles, so RES1 is ready 5 and RES3 8 cycles after OP2H. Every read below comes at
 * least that late, and a new operation starts only after the previous one's RES3 is
 * ready (a MAC accumulates onto it). */
#include "board.h"

/* uint16_t __mspabi_mpyi(uint16_t a, uint16_t b): low 16 bits of a*b.
 * In: r12 = a, r13 = b. Out: r12. Clobbers: multiplier. Stack: 2 (return address).
 * Cycles: 17 including the call (4) and return (4). Secrets: a, b. */
        .section .text.__mspabi_mpyi,"ax",@progbits
        .global __mspabi_mpyi
        .type   __mspabi_mpyi,@function
__mspabi_mpyi:
        mov     r12, &MPY
        mov     r13, &OP2
        mov     &RESLO, r12
        ret
        .size   __mspabi_mpyi, .-__mspabi_mpyi

/* uint32_t __mspabi_mpyl(uint32_t a, uint32_t b): low 32 bits of a*b (signed or not).
 * In: r12:r13 = a, r14:r15 = b. Out: r12:r13. Clobbers: multiplier.
 * Stack: 2. Cycles: 26 including call and return. Secrets: a, b. */
        .section .text.__mspabi_mpyl,"ax",@progbits
        .global __mspabi_mpyl
        .type   __mspabi_mpyl,@function
__mspabi_mpyl:
        mov     r12, &MPY32L
        mov     r13, &MPY32H
        mov     r14, &OP2L
        mov     r15, &OP2H              /* starts the 32x32 multiplication */
        mov     &RES0, r12              /* RES0: 3 cycles */
        mov     &RES1, r13              /* RES1: 5 cycles */
        ret
        .size   __mspabi_mpyl, .-__mspabi_mpyl

/* uint64_t __mspabi_mpyll(uint64_t a, uint64_t b): low 64 bits of a*b.
 * a = A1*2^32 + A0, b = B1*2^32 + B0:  a*b mod 2^64 = A0*B0 + ((A1*B0 + A0*B1) mod 2^32) 2^32.
 * In: r12..r15 = a, r8..r11 = b (clang's helper convention for this one function: the
 * second operand in r8..r11, not on the stack). Out: r12..r15. Preserves r8..r10.
 * Clobbers: r11, multiplier. Stack: 2. Cycles: 62 including call and return.
 * Secrets: a, b. */
        .section .text.__mspabi_mpyll,"ax",@progbits
        .global __mspabi_mpyll
        .type   __mspabi_mpyll,@function
__mspabi_mpyll:
        mov     r14, &MPY32L            /* A1 * B0 */
        mov     r15, &MPY32H
        mov     r8, &OP2L
        mov     r9, &OP2H
        mov     r12, &MAC32L            /* + A0 * B1 (8 cycles of OP1 writes: the */
        mov     r13, &MAC32H            /*   previous product is complete) */
        mov     r10, &OP2L
        mov     r11, &OP2H
        mov     &RES0, r14              /* cross terms mod 2^32 */
        mov     &RES1, r15
        mov     r12, &MPY32L            /* A0 * B0, full 64 bits */
        mov     r13, &MPY32H
        mov     r8, &OP2L
        mov     r9, &OP2H
        mov     &RES0, r12
        mov     &RES1, r13
        add     &RES2, r14
        addc    &RES3, r15
        ret
        .size   __mspabi_mpyll, .-__mspabi_mpyll

/* The names clang uses with -mhwmult=16bit/32bit/f5series for the 16- and 32-bit
 * helpers (same convention). The 64-bit *_hw* variants are deliberately absent: clang 14
 * passes their second operand on the stack, unlike __mspabi_mpyll; we build without
 * -mhwmult, so they are never called. */
        .global __mspabi_mpyi_hw, __mspabi_mpyi_f5hw
        .global __mspabi_mpyl_hw, __mspabi_mpyl_hw32, __mspabi_mpyl_f5hw
        .set    __mspabi_mpyi_hw, __mspabi_mpyi
        .set    __mspabi_mpyi_f5hw, __mspabi_mpyi
        .set    __mspabi_mpyl_hw, __mspabi_mpyl
        .set    __mspabi_mpyl_hw32, __mspabi_mpyl
        .set    __mspabi_mpyl_f5hw, __mspabi_mpyl
