/* SPDX-License-Identifier: MIT */
/* Unsigned division helpers (__mspabi_divu/remu/divul/remul) for test and bench
 * firmware that prints decimal numbers. Restoring shift-subtract division with a fixed
 * number of iterations (16 or 32); the library (src/) never divides. Division by zero
 * returns quotient 0xFFFF.. and remainder = dividend (no trap).
 * NOT CONSTANT TIME: each step branches on the comparison; about 16 x 12 (16-bit) and
 * 32 x 22 (32-bit) cycles. Public operands only (decimal printing). */

/* uint16_t __mspabi_divu(uint16_t n, uint16_t d); __mspabi_remu: the remainder.
 * In: r12 = n, r13 = d. Out: r12 = n / d (divu) or n % d (remu). Clobbers: r13..r15.
 * Uses r14 = remainder, r15 = loop counter. Stack: 2. */
        .section .text.__mspabi_divu,"ax",@progbits
        .global __mspabi_divu, __mspabi_remu
        .type   __mspabi_divu,@function
        .type   __mspabi_remu,@function
__mspabi_divu:
        call    #udiv16
        ret
__mspabi_remu:
        call    #udiv16
        mov     r14, r12
        ret
/* r12 = n in, quotient out; r13 = d; r14 = remainder out. */
udiv16:
        clr     r14
        mov     #16, r15
1:      rla     r12                     /* quotient bit shifts in at the bottom */
        rlc     r14
        jc      3f                      /* remainder overflowed 16 bits: >= d */
        cmp     r13, r14
        jlo     2f
3:      sub     r13, r14
        bis     #1, r12
2:      dec     r15
        jnz     1b
        ret
        .size   __mspabi_divu, .-__mspabi_divu

/* uint32_t __mspabi_divul(uint32_t n, uint32_t d); __mspabi_remul: the remainder.
 * In: r12:r13 = n, r14:r15 = d. Out: r12:r13. Clobbers: r11, r14, r15.
 * Preserves r8..r10 (pushed). Stack: 10. */
        .section .text.__mspabi_divul,"ax",@progbits
        .global __mspabi_divul, __mspabi_remul
        .type   __mspabi_divul,@function
        .type   __mspabi_remul,@function
__mspabi_divul:
        push    r10
        push    r9
        push    r8
        call    #udiv32
        jmp     udiv32_out
__mspabi_remul:
        push    r10
        push    r9
        push    r8
        call    #udiv32
        mov     r10, r12
        mov     r11, r13
udiv32_out:
        pop     r8
        pop     r9
        pop     r10
        ret
/* r12:r13 = n in, quotient out; r14:r15 = d; r10:r11 = remainder out; r8 = counter. */
udiv32:
        clr     r10
        clr     r11
        mov     #32, r8
1:      rla     r12
        rlc     r13
        rlc     r10
        rlc     r11
        jc      2f                      /* remainder overflowed 32 bits: >= d */
        cmp     r15, r11                /* remainder >= d ? (high words first) */
        jlo     3f
        jne     2f
        cmp     r14, r10
        jlo     3f
2:      sub     r14, r10
        subc    r15, r11
        bis     #1, r12
3:      dec     r8
        jnz     1b
        ret
        .size   __mspabi_divul, .-__mspabi_divul
