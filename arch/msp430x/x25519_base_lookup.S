/* SPDX-License-Identifier: MIT */
#include "util/backend.h"
#if MB_ASM_MSP430X   /* else this file is empty (util/backend.h) */
/*
 * void mb_x25519_base_lookup8(mb_x25519_base_entry *r, const mb_x25519_base_entry *row,
 *                             unsigned idx);
 * The X25519 fixed-base comb's masked table lookup for 8 entries per block (the MSP430
 * default, MB_X25519_BASE_TEETH = 4; src/curve/x25519_base.h, replaces
 * src/curve/x25519_base_lookup.c): r = row[idx], idx < 8. No multiplier.
 * An entry is 48 words (yp, ym, td). The lookup runs over 12 groups of 4 words: four
 * accumulator registers, and for each of the 8 entries the group's words ANDed with a
 * mask (0xffff iff i == idx: CMP #1 leaves C = (i ^ idx != 0), SUBC m, m is C - 1) and
 * ORed in; then the group is stored. 28 cycles per entry and group (about 3,000 a call).
 * In: r12 = r, r13 = row, r14 = idx. Register map: r4-r7 accumulator, r8 word,
 * r9 mask, r10 i, r11 groups left, r12 output pointer, r13 entry pointer.
 * Clobbers r11-r13 (r4-r10 saved: 14 bytes of stack, restored).
 * CT: idx and r secret. The loops count public numbers; every entry's every word is
 * read at an address that depends on row only; the mask is arithmetic.
 */
#include "msp430x.inc"

#ifndef MB_NO_FIXED_BASE
        .section .text.mb_x25519_base_lookup8,"ax",@progbits
        .global mb_x25519_base_lookup8
        .type   mb_x25519_base_lookup8,@function
mb_x25519_base_lookup8:
        PUSHM_R4_R10
        mov     #12, r11
1:
        clr     r4
        clr     r5
        clr     r6
        clr     r7
        clr     r10
2:
        mov     r14, r9
        xor     r10, r9
        cmp     #1, r9                  /* C = (i != idx) */
        subc    r9, r9                  /* C - 1: 0xffff iff i == idx */
        mov     @r13+, r8
        and     r9, r8
        bis     r8, r4
        mov     @r13+, r8
        and     r9, r8
        bis     r8, r5
        mov     @r13+, r8
        and     r9, r8
        bis     r8, r6
        mov     @r13+, r8
        and     r9, r8
        bis     r8, r7
        add     #88, r13                /* the same group of the next entry */
        inc     r10
        cmp     #8, r10
        jne     2b                      /* public count */
        mov     r4, 0(r12)
        mov     r5, 2(r12)
        mov     r6, 4(r12)
        mov     r7, 6(r12)
        add     #8, r12
        sub     #760, r13               /* back 8 entries, on to the next group */
        dec     r11
        jne     1b                      /* public count */
        POPM_R4_R10                     /* r4-r10 get the caller's values back */
        ret
        .size   mb_x25519_base_lookup8, .-mb_x25519_base_lookup8
#endif
#endif /* MB_ASM_MSP430X */
