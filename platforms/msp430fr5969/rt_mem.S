/* SPDX-License-Identifier: MIT */
/* memcpy, memmove and memset: the compiler emits calls to them for struct copies and
 * zeroing loops even in freestanding code. Byte loops: time depends on the length only,
 * never on the data, so the data may be secret; lengths and addresses must be public.
 * In: r12 = dst, r13 = src (or fill byte), r14 = length. Out: r12 = dst.
 * Clobbers: r11, r13, r14, r15. Stack: 2. Cycles for n bytes, including CALL and RET:
 * memcpy 12 + 9n, memset 12 + 7n, memmove 15 + 9n (forwards) or 17 + 9n (backwards). */

/* void *memcpy(void *d, const void *s, size_t n) */
        .section .text.memcpy,"ax",@progbits
        .global memcpy
        .type   memcpy,@function
memcpy:
        mov     r12, r15
        tst     r14
        jz      2f
1:      mov.b   @r13+, r11              /* (LLVM's assembler lacks @Rn+ -> x(Rm)) */
        mov.b   r11, 0(r15)
        inc     r15
        dec     r14
        jnz     1b
2:      ret
        .size   memcpy, .-memcpy

/* void *memmove(void *d, const void *s, size_t n): copies backwards when d > s. */
        .section .text.memmove,"ax",@progbits
        .global memmove
        .type   memmove,@function
memmove:
        cmp     r13, r12
        jlo     memcpy                  /* d < s: forward copy is safe */
        tst     r14
        jz      2f
        add     r14, r13                /* copy backwards from the end */
        mov     r12, r15
        add     r14, r15
1:      dec     r13
        dec     r15
        mov.b   @r13, 0(r15)
        dec     r14
        jnz     1b
2:      ret
        .size   memmove, .-memmove

/* void *memset(void *d, int c, size_t n) */
        .section .text.memset,"ax",@progbits
        .global memset
        .type   memset,@function
memset:
        mov     r12, r15
        tst     r14
        jz      2f
1:      mov.b   r13, 0(r15)
        inc     r15
        dec     r14
        jnz     1b
2:      ret
        .size   memset, .-memset
