/* SPDX-License-Identifier: MIT */
/* Stack measurement for platforms/hal.h, in assembly so that no stack frame of ours
 * lies in the painted area while we paint it.  Secrets: none (stack contents are only
 * compared with the paint pattern, the result is a public count). */
#define PAINT 0xA5A5

        .section .bss.hal_paint_top,"aw",@nobits
        .p2align 1
hal_paint_top:
        .skip   2

/* void hal_stack_paint(void)
 * Fills every word from __stack_low up to (not including) our return address with
 * PAINT and remembers the caller's SP (the paint point).
 * In: none. Out: none. Clobbers: r12, r13. Stack: 2 (return address). */
        .section .text.hal_stack_paint,"ax",@progbits
        .global hal_stack_paint
        .type   hal_stack_paint,@function
hal_stack_paint:
        mov     r1, r12                 /* r12 -> our return address */
        mov     r12, r13
        incd    r13
        mov     r13, &hal_paint_top     /* caller's SP after we return */
        mov     #__stack_low, r13
        jmp     2f
1:      mov     #PAINT, 0(r13)
        incd    r13
2:      cmp     r12, r13
        jlo     1b
        ret
        .size   hal_stack_paint, .-hal_stack_paint

/* size_t hal_stack_used(void)
 * Bytes between the paint point and the lowest word that no longer holds PAINT
 * (0 if nothing below the paint point was touched).
 * In: none. Out: r12. Clobbers: r12, r13. Stack: 2. */
        .section .text.hal_stack_used,"ax",@progbits
        .global hal_stack_used
        .type   hal_stack_used,@function
hal_stack_used:
        mov     #__stack_low, r13
        mov     &hal_paint_top, r12
1:      cmp     r12, r13
        jhs     2f
        cmp     #PAINT, 0(r13)
        jne     2f
        incd    r13
        jmp     1b
2:      sub     r13, r12
        ret
        .size   hal_stack_used, .-hal_stack_used
