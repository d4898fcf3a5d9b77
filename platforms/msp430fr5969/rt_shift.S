/* SPDX-License-Identifier: MIT */
/* Variable-count shift helpers the compiler calls for 32- and 64-bit shifts
 * (__mspabi_slll/srll/sral, __ashldi3/__lshrdi3/__ashrdi3).
 *
 * NOT CONSTANT TIME IN THE COUNT: the MSP430 shifts one bit per instruction, so each
 * helper loops `count` times. The count must be public (never derived from a secret);
 * the shifted value may be secret (the loop body does not depend on it). The constant-
 * time rules in README.md forbid secret shift counts; llvm-objdump of the library shows
 * which functions call these (see `make msp430-calls`).
 *
 * Calling convention (MSP430 EABI as clang 14 emits it): 32-bit value in r12:r13,
 * count in r14; 64-bit value in r12..r15, count at 2(SP). Results in the value
 * registers. Clobbers the count register (r14 or r11). Stack: 2.
 * Cycles, including CALL and RET, for a count n > 0: 32-bit shifts 12 + 5n (left,
 * arithmetic right) or 12 + 6n (logical right); 64-bit shifts 15 + 7n (left,
 * arithmetic right) or 15 + 8n (logical right). */

/* uint32_t __mspabi_slll(uint32_t x, int n): x << n, 0 <= n < 32. */
        .section .text.__mspabi_slll,"ax",@progbits
        .global __mspabi_slll
        .type   __mspabi_slll,@function
__mspabi_slll:
        and     #31, r14
        jz      2f
1:      rla     r12
        rlc     r13
        dec     r14
        jnz     1b
2:      ret
        .size   __mspabi_slll, .-__mspabi_slll

/* uint32_t __mspabi_srll(uint32_t x, int n): x >> n (logical), 0 <= n < 32. */
        .section .text.__mspabi_srll,"ax",@progbits
        .global __mspabi_srll
        .type   __mspabi_srll,@function
__mspabi_srll:
        and     #31, r14
        jz      2f
1:      clrc
        rrc     r13
        rrc     r12
        dec     r14
        jnz     1b
2:      ret
        .size   __mspabi_srll, .-__mspabi_srll

/* int32_t __mspabi_sral(int32_t x, int n): x >> n (arithmetic), 0 <= n < 32. */
        .section .text.__mspabi_sral,"ax",@progbits
        .global __mspabi_sral
        .type   __mspabi_sral,@function
__mspabi_sral:
        and     #31, r14
        jz      2f
1:      rra     r13
        rrc     r12
        dec     r14
        jnz     1b
2:      ret
        .size   __mspabi_sral, .-__mspabi_sral

/* uint64_t __ashldi3(uint64_t x, int n): x << n, 0 <= n < 64. */
        .section .text.__ashldi3,"ax",@progbits
        .global __ashldi3
        .type   __ashldi3,@function
__ashldi3:
        mov     2(r1), r11
        and     #63, r11
        jz      2f
1:      rla     r12
        rlc     r13
        rlc     r14
        rlc     r15
        dec     r11
        jnz     1b
2:      ret
        .size   __ashldi3, .-__ashldi3

/* uint64_t __lshrdi3(uint64_t x, int n): x >> n (logical), 0 <= n < 64. */
        .section .text.__lshrdi3,"ax",@progbits
        .global __lshrdi3
        .type   __lshrdi3,@function
__lshrdi3:
        mov     2(r1), r11
        and     #63, r11
        jz      2f
1:      clrc
        rrc     r15
        rrc     r14
        rrc     r13
        rrc     r12
        dec     r11
        jnz     1b
2:      ret
        .size   __lshrdi3, .-__lshrdi3

/* int64_t __ashrdi3(int64_t x, int n): x >> n (arithmetic), 0 <= n < 64. */
        .section .text.__ashrdi3,"ax",@progbits
        .global __ashrdi3
        .type   __ashrdi3,@function
__ashrdi3:
        mov     2(r1), r11
        and     #63, r11
        jz      2f
1:      rra     r15
        rrc     r14
        rrc     r13
        rrc     r12
        dec     r11
        jnz     1b
2:      ret
        .size   __ashrdi3, .-__ashrdi3
