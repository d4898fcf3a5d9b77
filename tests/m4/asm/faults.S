@ SPDX-License-Identifier: MIT
@ Cycle-model test program that never exits properly: KIND=0 spins forever,
@ KIND=1 reads unmapped memory.
    .syntax unified
    .cpu cortex-m4
    .thumb
    .section .vectors, "a"
    .word __stack_top
    .word reset_handler
    .text
    .thumb_func
    .global reset_handler
reset_handler:
#if KIND == 0
1:  adds r0, r0, #1
    b 1b
#else
    ldr r1, =0x60000000
    ldr r0, [r1]
    b .
#endif
    .ltorg
