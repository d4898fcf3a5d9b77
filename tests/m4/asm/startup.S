@ SPDX-License-Identifier: MIT
@ Minimal mps2-an386 reset code for the cycle-model test programs written in C
@ (newlib with --specs=rdimon.specs): copy .data, zero .bss, open the semihosting
@ console, run main, exit with its status.
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
    ldr r0, =__data_start
    ldr r1, =__data_end
    ldr r2, =__data_load
1:  cmp r0, r1
    bhs 2f
    ldr r3, [r2], #4
    str r3, [r0], #4
    b 1b
2:  ldr r0, =__bss_start
    ldr r1, =__bss_end
    movs r3, #0
3:  cmp r0, r1
    bhs 4f
    str r3, [r0], #4
    b 3b
4:  bl initialise_monitor_handles
    bl main
    bl exit
    b .

    .thumb_func
    .global _init
_init:
    bx lr
    .thumb_func
    .global _fini
_fini:
    bx lr
