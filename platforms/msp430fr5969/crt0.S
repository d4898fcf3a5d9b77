/* SPDX-License-Identifier: MIT */
/* Reset code for the MSP430FR5969 (simulated).
 *
 * _start: stops the watchdog, sets SP to the top of RAM, tells the simulator the lowest
 * allowed SP (end of .bss: the stack may not run into data), copies .data from FRAM,
 * zeroes .bss, calls main and ends the run with main's return value as exit status.
 * Inputs: none. Outputs: never returns. Clobbers: everything. Secrets: none. */
#include "board.h"

        .section .text.crt0,"ax",@progbits
        .global _start
        .type   _start,@function
_start:
        mov     #WDT_STOP, &WDTCTL_ADDR
        mov     #__stack_top, r1
        mov     #__stack_low, &SIM_STACK_LIMIT

        mov     #__data_load, r12       /* .data: FRAM image -> RAM */
        mov     #__data_start, r13
        jmp     2f
1:      mov     @r12+, r14
        mov     r14, 0(r13)
        incd    r13
2:      cmp     #__data_end, r13
        jlo     1b

        mov     #__bss_start, r13       /* .bss: zero */
        jmp     4f
3:      mov     #0, 0(r13)
        incd    r13
4:      cmp     #__bss_end, r13
        jlo     3b

        call    #main
        mov     r12, &SIM_EXIT
        .global __crt0_halt             /* breakpoint for simulators without SIM_EXIT */
__crt0_halt:
        jmp     __crt0_halt
        .size   _start, .-_start

        .section .resetvec,"a",@progbits
        .word   _start
