/* SPDX-License-Identifier: MIT */
/* Multiply helpers the compiler calls (__mspabi_mpy*, MSP430 EABI), for devices with
 * only the 16-bit hardware multiplier (MPY, MAC, OP2, RESLO, RESHI, SUMEXT). Built into
 * build/msp430/rt/mpy16/libfr5969.a. Wider products are assembled from 16x16 products.
 *
 * Calling convention, constant time and multiplier ownership as in rt_mpy32.S: all
 * operands may be secret; straight-line code; the same products are computed whatever
 * the values (zero high halves are multiplied too).
 *
 * Result latency: a 16x16 result (RESLO, RESHI, SUMEXT) is ready 3 cycles after OP2 is
 * written (SLAU367 "Result availability"); every read below follows an OP2 write by a
 * whole instruction that takes at least that long, or later. */
#include "board.h"

/* uint16_t __mspabi_mpyi(uint16_t a, uint16_t b): low 16 bits of a*b.
 * In: r12 = a, r13 = b. Out: r12. Clobbers: multiplier. Stack: 2.
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

/* uint32_t __mspabi_mpyl(uint32_t a, uint32_t b): low 32 bits of a*b.
 * a = a1 2^16 + a0, b = b1 2^16 + b0: a*b mod 2^32 = a0 b0 + ((a0 b1 + a1 b0) mod 2^16) 2^16.
 * In: r12:r13 = a, r14:r15 = b. Out: r12:r13. Clobbers: multiplier. Stack: 2.
 * Cycles: 35 including call and return. Secrets: a, b. */
        .section .text.__mspabi_mpyl,"ax",@progbits
        .global __mspabi_mpyl
        .type   __mspabi_mpyl,@function
__mspabi_mpyl:
        mov     r12, &MPY
        mov     r15, &OP2               /* a0 b1 */
        mov     r13, &MAC
        mov     r14, &OP2               /* + a1 b0 */
        mov     &RESLO, r13             /* cross terms mod 2^16 */
        mov     r12, &MPY
        mov     r14, &OP2               /* a0 b0 */
        mov     &RESLO, r12
        add     &RESHI, r13
        ret
        .size   __mspabi_mpyl, .-__mspabi_mpyl

/* uint64_t __mspabi_mpyll(uint64_t a, uint64_t b): low 64 bits of a*b, by columns of
 * 16x16 products (product scanning) in the MAC accumulator. Words a0..a3, b0..b3;
 * column k collects a_i b_j with i + j = k. Column 3 is needed mod 2^16 only, so it is
 * summed first. Column 1 starts from the high half of column 0 (< 2^16), so its first
 * MAC cannot carry out of 32 bits and its second carries at most 1 (SUMEXT), which
 * enters column 2 at its bit 16.
 * In: r12..r15 = a, r8..r11 = b (clang's convention for this helper). Out: r12..r15.
 * Preserves r4..r10. Clobbers: r11, multiplier. Stack: 4 (return address, r7).
 * Cycles: 108 including call and return. Secrets: a, b. */
        .section .text.__mspabi_mpyll,"ax",@progbits
        .global __mspabi_mpyll
        .type   __mspabi_mpyll,@function
__mspabi_mpyll:
        push    r7
        mov     r12, &MPY               /* column 3 mod 2^16 */
        mov     r11, &OP2               /* a0 b3 */
        mov     r13, &MAC
        mov     r10, &OP2               /* + a1 b2 */
        mov     r14, &MAC
        mov     r9, &OP2                /* + a2 b1 */
        mov     r15, &MAC
        mov     r8, &OP2                /* + a3 b0 */
        mov     &RESLO, r15             /* s3 (a3 and b3 are no longer needed) */
        mov     r12, &MPY               /* column 0 */
        mov     r8, &OP2                /* a0 b0 */
        mov     &RESLO, r11             /* w0 */
        mov     &RESHI, &RESLO          /* column 1 = high half of column 0 */
        mov     #0, &RESHI
        mov     r12, &MAC
        mov     r9, &OP2                /* + a0 b1 (no carry out) */
        mov     r13, &MAC
        mov     r8, &OP2                /* + a1 b0 (carry out in SUMEXT) */
        mov     &RESLO, r7              /* w1 */
        mov     &RESHI, &RESLO          /* column 2 = high half of column 1 ... */
        mov     &SUMEXT, &RESHI         /* ... plus its carry (bit 32 -> bit 16) */
        mov     r12, &MAC
        mov     r10, &OP2               /* + a0 b2 */
        mov     r13, &MAC
        mov     r9, &OP2                /* + a1 b1 */
        mov     r14, &MAC
        mov     r8, &OP2                /* + a2 b0 */
        mov     r11, r12
        mov     r7, r13
        mov     &RESLO, r14             /* w2 */
        add     &RESHI, r15             /* w3 = s3 + carry from column 2 */
        pop     r7
        ret
        .size   __mspabi_mpyll, .-__mspabi_mpyll

/* The names clang uses with -mhwmult=... for the 16- and 32-bit helpers (same
 * convention); no 64-bit *_hw* variants (see rt_mpy32.S). */
        .global __mspabi_mpyi_hw, __mspabi_mpyi_f5hw
        .global __mspabi_mpyl_hw, __mspabi_mpyl_hw32, __mspabi_mpyl_f5hw
        .set    __mspabi_mpyi_hw, __mspabi_mpyi
        .set    __mspabi_mpyi_f5hw, __mspabi_mpyi
        .set    __mspabi_mpyl_hw, __mspabi_mpyl
        .set    __mspabi_mpyl_hw32, __mspabi_mpyl
        .set    __mspabi_mpyl_f5hw, __mspabi_mpyl
