@ SPDX-License-Identifier: MIT
@ Timing harness for the cycle-model tests: reads DWT_CYCCNT, runs the sequence in
@ seq.inc, reads DWT_CYCCNT again and prints the difference in hex via semihosting
@ SYS_WRITEC, then exits with SYS_EXIT_EXTENDED (status 0).
@ Inputs to the sequence: r0 = r1 = r2 = r3 = address of `buf` (RAM, 64 words),
@ r4 = 3, r5 = 5, r6..r8 = 0; r11 = &DWT_CYCCNT, r10 = first reading (do not touch).
@ The difference is: 2 (the first reading, an LDR after an ALU instruction) + the
@ sequence; the second reading's own cycles are not included (CYCCNT reads return the
@ count before the reading instruction). funcs.inc holds routines the sequence calls.
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
    ldr r0, =0xE000EDFC          @ DEMCR: TRCENA
    ldr r1, =0x01000000
    str r1, [r0]
    ldr r0, =0xE0001000          @ DWT_CTRL: CYCCNTENA
    movs r1, #1
    str r1, [r0]
    ldr r11, =0xE0001004         @ DWT_CYCCNT
    ldr r0, =buf
    mov r1, r0
    mov r2, r0
    mov r3, r0
    movs r4, #3
    movs r5, #5
    movs r6, #0
    movs r7, #0
    movs r8, #0
    .balign 4                    @ the sequence starts word aligned (ldr.w is 4 bytes)
    ldr r10, [r11]               @ follows a non-memory instruction: 2 cycles
#include "seq.inc"
    ldr r9, [r11]
    subs r9, r9, r10
    movs r7, #28                 @ print r9 as 8 hex digits
1:  lsr r6, r9, r7
    and r6, r6, #15
    cmp r6, #10
    ite lo
    addlo r6, r6, #'0'
    addhs r6, r6, #'a' - 10
    ldr r1, =chr
    str r6, [r1]
    movs r0, #3                  @ SYS_WRITEC
    bkpt 0xab
    subs r7, r7, #4
    bpl 1b
    ldr r1, =chr
    movs r6, #'\n'
    str r6, [r1]
    movs r0, #3
    bkpt 0xab
    ldr r1, =exitblk
    movs r0, #0x20               @ SYS_EXIT_EXTENDED, ADP_Stopped_ApplicationExit, 0
    bkpt 0xab
    b .
#include "funcs.inc"
    .ltorg
    .balign 4
exitblk: .word 0x20026, 0        @ ADP_Stopped_ApplicationExit, status 0

    .bss
    .balign 4
chr: .word 0
buf: .space 256
