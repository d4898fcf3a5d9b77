# SPDX-License-Identifier: MIT
"""Cycle-model validation: hand-written sequences whose cycle counts are derived by hand
from the Cortex-M4 TRM (Table 3-1 and section 3.3.2, rules in docs/M4_TIMING.md) and
matched exactly through DWT_CYCCNT reads, as firmware would measure itself on a board.

Harness (tests/m4/asm/timing.S): `ldr r10, [r11]` reads CYCCNT, the sequence runs, a
second read follows; the printed difference = 2 (first read: an LDR after an ALU
instruction, not pipelined) + the sequence, where the sequence's first instruction may
pipeline with that LDR. The sequence starts at a word-aligned address A; inputs:
r0 = r1 = r2 = r3 = &buf (RAM, zeroed), r4 = 3, r5 = 5, r6 = r7 = r8 = 0.
"""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "asm"))
from m4build import build_timing, run_model  # noqa: E402

# (id, sequence, routines for funcs.inc, expected cycles with the derivation)
CASES = [
    ("empty", "", "",
     # first read LDR: 2
     2),
    ("alu_run", """
        adds r4, r4, r5
        mov r6, r4
        eors r6, r6, r5
        lsls r7, r6, #3
        orr.w r8, r7, r4, lsl #2
        bic r6, r6, r5
        rsb r7, r6, #0
        mvns r6, r7
    """, "",
     # 2 + 8 single-cycle data-processing instructions (Table 3-1: 1 each)
     2 + 8),
    ("multiply_mix", """
        mul r6, r4, r5
        mla r7, r4, r5, r6
        mls r8, r4, r5, r7
        umull r6, r7, r4, r5
        umlal r6, r7, r4, r5
        umaal r6, r7, r4, r5
        smull r6, r7, r4, r5
        smlal r6, r7, r4, r5
    """, "",
     # Table 3-1: MUL, MLA, MLS, UMULL, UMLAL, UMAAL, SMULL, SMLAL: 1 each
     2 + 8),
    ("load_run_pipelined", """
        ldr r6, [r0]
        ldr r7, [r1, #4]
        ldr r8, [r2, #8]
        ldrb r4, [r3, #1]
    """, "",
     # 5 neighbouring loads (the CYCCNT read included): 1 + N = 6
     6),
    ("load_run_after_alu", """
        nop
        ldr r6, [r0]
        ldrh r7, [r1, #2]
        ldrsb r8, [r2, #3]
    """, "",
     # first read 2, nop 1, three loads 2 + 1 + 1
     2 + 1 + 2 + 1 + 1),
    ("load_dependent_base", """
        nop
        ldr r6, [r0]
        ldr r7, [r6]
        ldr r8, [r1]
    """, "",
     # 2, nop 1, ldr 2; ldr [r6] uses the previous load's destination: not pipelined, 2;
     # ldr [r1] pipelines with it: 1
     2 + 1 + 2 + 2 + 1),
    ("str_after_ldr", """
        nop
        ldr r6, [r0]
        str r6, [r1, #4]
    """, "",
     # TRM 3.3.2 example "LDR R0,[R1,R2]; STR R0,[R3,#20]: three cycles"
     2 + 1 + 3),
    ("store_run", """
        nop
        str r4, [r0]
        strh r5, [r0, #4]
        strb r6, [r0, #8]
    """, "",
     # 2, nop 1, STR 2, then two pipelined stores 1 + 1
     2 + 1 + 2 + 1 + 1),
    ("address_from_alu", """
        nop
        adds r1, r0, #4
        ldr r6, [r1]
    """, "",
     # 3.3.2: address depends on the preceding data-processing result: 2 + 1 stall
     2 + 1 + 1 + 3),
    ("multiple_load_store", """
        stmia r0, {r4-r7}
        ldmia r0, {r4-r7}
        push {r4-r8}
        pop {r4-r8}
        ldm r1, {r6}
    """, "",
     # LDM/STM/PUSH/POP 1 + N, never pipelined: 5 + 5 + 6 + 6 + 2
     2 + 5 + 5 + 6 + 6 + 2),
    ("ldrd_strd", """
        strd r4, r5, [r0]
        ldrd r6, r7, [r0]
    """, "",
     # LDRD/STRD 1 + N (N = 2), not pipelined with neighbours
     2 + 3 + 3),
    ("branch_taken_aligned", """
        b 1f
        nop
    1:  adds r4, r4, r5
    """, "",
     # b at A (16-bit), target A+4 16-bit: 1 + P (P = 1, target known at decode); adds 1
     2 + 2 + 1),
    ("branch_to_unaligned_wide", """
        b 1f
    1:  add.w r4, r4, r5
    """, "",
     # target A+2 is a 32-bit instruction not word aligned: P = 1 + 1; add.w 1
     2 + 3 + 1),
    ("branch_conditional_not_taken", """
        cmp r4, r5
        beq 1f
        adds r4, r4, r5
    1:  adds r4, r4, r5
    """, "",
     # cmp 1, beq not taken 1, adds 1, adds 1
     2 + 1 + 1 + 1 + 1),
    ("branch_conditional_taken", """
        cmp r4, r4
        beq 1f
        nop
    1:  adds r4, r4, r5
    """, "",
     # cmp 1, beq taken 1 + P(1), target A+6 is 16-bit; adds 1
     2 + 1 + 2 + 1),
    ("cbz_taken", """
        cbz r6, 1f
        nop
    1:  adds r4, r4, r5
    """, "",
     # CBZ taken: 1 + P(1); adds 1
     2 + 2 + 1),
    ("call_return", """
        bl leaf
    """, """
        .balign 4
        .thumb_func
    leaf:
        adds r4, r4, r5
        bx lr
    """,
     # BL 1 + P(1) to a 16-bit target; adds 1; BX LR 1 + P(1), returning to the second
     # read, a 32-bit LDR at A+4 (word aligned, so no +1)
     2 + 2 + 1 + 2),
    ("return_to_unaligned_wide", """
        nop
        bl leaf2
        add.w r4, r4, r5
    """, """
        .balign 4
        .thumb_func
    leaf2:
        adds r4, r4, r5
        bx lr
    """,
     # nop 1; BL (at A+2) 1 + P(1); adds 1; BX LR returns to A+6, a 32-bit instruction
     # not word aligned: 1 + P(1 + 1); add.w 1
     2 + 1 + 2 + 1 + 3 + 1),
    ("call_push_pop_pc", """
        bl framed
    """, """
        .balign 4
        .thumb_func
    framed:
        push {r4, lr}
        adds r4, r4, r5
        pop {r4, pc}
    """,
     # BL 2; PUSH 1 + 2; adds 1; POP with PC 1 + 2 + P (P = 3, a load to PC, 3.3.2)
     2 + 2 + 3 + 1 + 6),
    ("load_pc", """
        ldr r6, =2f + 1
        str r6, [r0]
        ldr pc, [r0]
        nop
    2:  adds r4, r4, r5
    """, "",
     # literal LDR pipelines with the read: 1; STR (address r0, not r6) pipelines: 1;
     # LDR PC 2 + P (3); adds 1
     2 + 1 + 1 + 5 + 1),
    ("it_return_executed", """
        bl ret_eq
    """, """
        .balign 4
        .thumb_func
    ret_eq:
        cmp r4, r4
        it eq
        bxeq lr
        bx lr
    """,
     # BL 2; cmp 1; IT 1; BXEQ executes: 1 + P(1)
     2 + 2 + 1 + 1 + 2),
    ("it_return_skipped", """
        bl ret_ne
    """, """
        .balign 4
        .thumb_func
    ret_ne:
        cmp r4, r4
        it ne
        bxne lr
        bx lr
    """,
     # BL 2; cmp 1; IT 1; BXNE fails its condition 1; BX LR 1 + P(1)
     2 + 2 + 1 + 1 + 1 + 2),
    ("it_alu", """
        cmp r4, r5
        ite eq
        moveq r6, #1
        movne r6, #2
    """, "",
     # cmp 1, IT 1, moveq fails its condition (1), movne 1
     2 + 1 + 1 + 1 + 1),
    ("it_loads_skipped", """
        cmp r4, r4
        itt ne
        ldrne r6, [r0]
        ldrne r7, [r1]
    """, "",
     # cmp 1, IT 1, both loads fail their condition: 1 each
     2 + 1 + 1 + 1 + 1),
    ("it_loads_executed", """
        cmp r4, r4
        itt eq
        ldreq r6, [r0]
        ldreq r7, [r1]
    """, "",
     # cmp 1, IT 1, ldr 2, pipelined ldr 1
     2 + 1 + 1 + 2 + 1),
    ("it_load_after_skipped", """
        cmp r4, r4
        ite ne
        ldrne r6, [r0]
        ldreq r7, [r1]
    """, "",
     # cmp 1, IT 1, ldrne skipped 1, ldreq executes after a skipped slot: 2
     2 + 1 + 1 + 1 + 2),
    ("it_block_across_page", """
        b 2f
        .org 0x3f2              @ .text starts at 8: the IT block straddles 0x400
    2:  cmp r4, r4
        itttt ne
        ldrne r6, [r0]
        ldrne r7, [r1]
        ldrne r6, [r0]
        ldrne r7, [r1]
    """, "",
     # b 1 + P(1); cmp 1; IT 1; four loads failing their condition 1 each (unicorn ends
     # its translation block at the 1 KB page boundary, inside the IT block)
     2 + 2 + 1 + 1 + 4),
    ("loads_across_page", """
        b 2f
        .org 0x3f2              @ .text starts at 8: the loads straddle 0x400
    2:  nop
        ldr r6, [r0]
        ldr r7, [r1]
        ldr r6, [r0]
        ldr r7, [r1]
    """, "",
     # b 1 + P(1); nop 1; four neighbouring loads 2 + 1 + 1 + 1, pipelining also across
     # unicorn's block boundary at 0x400
     2 + 2 + 1 + 2 + 1 + 1 + 1),
    ("loop", """
        movs r6, #10
    1:  subs r6, r6, #1
        bne 1b
    """, "",
     # movs 1; 10 x subs 1; 9 taken bne 1 + P(1) (target A+2 is 16-bit); last bne 1
     2 + 1 + 10 + 9 * 2 + 1),
    ("divide", """
        udiv r6, r5, r4
    """, "",
     # Table 3-1: UDIV 2..12; the model charges the maximum, 12 (docs/M4_TIMING.md)
     2 + 12),
]


@pytest.mark.parametrize("seq,funcs,expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_sequence_cycles(tmp_path, seq, funcs, expected):
    elf = build_timing(tmp_path, seq, funcs)
    res = run_model(elf)
    assert res.exit_code == 0, res.error
    assert int(res.stdout.strip(), 16) == expected


def test_cyccnt_write(tmp_path):
    """A write sets DWT_CYCCNT (at the start of the writing instruction)."""
    seq = """
        movw r6, #1000
        str r6, [r11]
        nop
        nop
        movs r10, #0
    """
    # the harness prints the second reading - 0 = 1000 + STR 2 (after an ALU
    # instruction) + nop + nop + movs
    res = run_model(build_timing(tmp_path, seq, ""))
    assert int(res.stdout.strip(), 16) == 1000 + 2 + 1 + 1 + 1


def test_cyccnt_stops_when_disabled(tmp_path):
    """Clearing DWT_CTRL.CYCCNTENA freezes the counter."""
    seq = """
        ldr r6, =0xE0001000
        movs r7, #0
        str r7, [r6]
        ldr r10, [r11]
        nop
        nop
    """
    res = run_model(build_timing(tmp_path, seq, ""))
    assert int(res.stdout.strip(), 16) == 0


def test_stack_high_water(tmp_path):
    """--stack: lowest SP, including dips inside one block and inside calls."""
    seq = """
        push {r4-r8}
        bl framed
        pop {r4-r8}
        sub sp, #64
        add sp, #64
    """
    funcs = """
        .balign 4
        .thumb_func
    framed:
        push {r4, lr}
        sub sp, sp, #16
        add sp, sp, #16
        pop {r4, pc}
    """
    res = run_model(build_timing(tmp_path, seq, funcs))
    # 20 (5 registers) + 8 (r4, lr) + 16 = 44 < 64
    assert res.max_stack == 64
    res = run_model(build_timing(tmp_path, seq.replace("#64", "#40"), funcs))
    assert res.max_stack == 44
