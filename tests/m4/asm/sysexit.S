@ SPDX-License-Identifier: MIT
@ Cycle-model test program: prints with SYS_WRITE0 and leaves with the original
@ SYS_EXIT (0x18), reason in r1 (AArch32 form): REASON decides the status (0 for
@ ADP_Stopped_ApplicationExit, 1 otherwise, as QEMU does).
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
    ldr r1, =msg
    movs r0, #4                  @ SYS_WRITE0
    bkpt 0xab
    ldr r1, =REASON
    movs r0, #0x18               @ SYS_EXIT
    bkpt 0xab
    b .
msg: .asciz "plain exit\n"
    .ltorg
