# SPDX-License-Identifier: MIT
"""Cycle counts per instruction format and addressing mode, against numbers taken
by hand from the CPUX chapter of the MSP430FR58xx/59xx user's guide (SLAU367;
same CPUXV2 tables in SLAU445 section 4.5): Table 4-8 (RETI/RET), 4-9 (Format II),
4-10 (Format I, note [1]: MOV, BIT, CMP one cycle less to memory), jumps (2),
4-17 (MSP430X Format II), 4-18 (MSP430X Format I, notes [1]-[4]),
4-19 (address instructions). See docs/MSP430_TIMING.md.

All cases run in one program: each timed snippet sits between two reads of
SIM_CYCLES_LO (`mov &0x0ff4, r15` ... `mov &0x0ff4, r14`); the difference minus
that of an empty snippet is the snippet's cycle count, written as one console byte.
"""
import pytest

from sim430_asm import (OPS, RETA, RETI, adda_imm, adda_reg, build, calla_abs, calla_idx, calla_imm,
                        calla_ind, calla_reg, cmpa_imm, ext_mem, ext_reg, fmt1, fmt2, have_toolchain,
                        mova_abs, mova_idx, mova_imm, mova_ind, mova_inc, mova_reg, mova_to_abs,
                        mova_to_idx, popm, pushm, run, shift_m, suba_reg, words)

pytestmark = pytest.mark.skipif(not have_toolchain(), reason="needs clang and ld.lld")

W = words
SETUP = "  mov #0x2300, sp\n  mov #0x1c00, r5\n  mov #0x1c20, r6\n  mov #2, r7\n  mov #0x1c40, &0x1c00\n"
B, WD, A = 1, 0, 1  # B/W bit values; A/L: .A is A/L = 0 with B/W = 1


def X(op, s, As, d, ad, size="w", idx=()):
    """MSP430X Format I with a non-register extension word (bits 19:16 = 0)."""
    al, bw = {"w": (1, 0), "b": (1, 1), "a": (0, 1)}[size]
    return W([ext_mem(al=al), fmt1(OPS[op], s, As, bw, ad, d), *idx])


def XR(op, s, d, size="w", rpt=1, rpt_reg=None):
    """MSP430X Format I, register mode (optionally repeated)."""
    al, bw = {"w": (1, 0), "b": (1, 1), "a": (0, 1)}[size]
    return W([ext_reg(al=al, rpt=rpt, rpt_reg=rpt_reg), fmt1(OPS[op], s, 0, bw, 0, d)])


def X2(opc2, As, reg, size="w", idx=(), rpt=1):
    al, bw = {"w": (1, 0), "b": (1, 1), "a": (0, 1)}[size]
    if opc2 in (1, 3) and size == "a":
        bw = 0  # SWPBX.A/SXTX.A: A/L = 0, B/W = 0 (SLAU367 4.5.2.2 note)
    ext = ext_reg(al=al, rpt=rpt) if As == 0 else ext_mem(al=al)
    return W([ext, fmt2(opc2, bw, As, reg), *idx])


# (name, setup, timed code, cleanup, expected cycles)  -- derivation in the comment
CASES = [
    # Table 4-10, MSP430 Format I
    ("mov Rn,Rm", "", "mov r5, r6", "", 1),              # Rn -> Rm: 1
    ("add.b Rn,Rm", "", "add.b r5, r6", "", 1),          # byte = word timing
    ("add #1(CG),Rm", "", "add #1, r6", "", 1),          # constant generator = register mode
    ("mov @Rn,Rm", "", "mov @r5, r6", "", 2),            # @Rn -> Rm: 2
    ("add @Rn+,Rm", "", "add @r5+, r6", "", 2),          # @Rn+ -> Rm: 2
    ("mov #N,Rm", "", "mov #0x1234, r6", "", 2),         # #N -> Rm: 2
    ("mov x(Rn),Rm", "", "mov 2(r5), r6", "", 3),        # x(Rn) -> Rm: 3
    ("mov EDE,Rm", "", "mov .Lsym, r6", "", 3),          # EDE -> Rm: 3
    ("mov &EDE,Rm", "", "mov &0x1c02, r6", "", 3),       # &EDE -> Rm: 3
    ("add Rn,x(Rm)", "", "add r5, 0(r6)", "", 4),        # Rn -> x(Rm): 4
    ("mov Rn,x(Rm)", "", "mov r5, 0(r6)", "", 3),        # 4, note [1] MOV: 3
    ("cmp Rn,&EDE", "", "cmp r5, &0x1c10", "", 3),       # 4, note [1] CMP: 3
    ("xor Rn,EDE", "", "xor r5, .Lsym", "", 4),          # Rn -> EDE: 4
    ("add @Rn,x(Rm)", "", "add @r5, 0(r6)", "", 5),      # @Rn -> x(Rm): 5
    ("mov @Rn,x(Rm)", "", "mov @r5, 0(r6)", "", 4),      # 5, note [1]: 4
    ("add #N,x(Rm)", "", "add #0x1234, 0(r6)", "", 5),   # #N -> x(Rm): 5
    ("bit #N,x(Rm)", "", "bit #0x1234, 0(r6)", "", 4),   # 5, note [1] BIT: 4
    ("add x(Rn),x(Rm)", "", "add 2(r5), 4(r6)", "", 6),  # x(Rn) -> x(Rm): 6
    ("mov x(Rn),x(Rm)", "", "mov 2(r5), 4(r6)", "", 5),  # 6, note [1]: 5
    ("and &EDE,&TONI", "", "and &0x1c02, &0x1c04", "", 6),  # &EDE -> &TONI: 6
    ("br Rn", "mov #1f, r8", "br r8\n1:", "", 3),        # Rn -> PC: 3
    ("br #N", "", "br #1f\n1:", "", 3),                  # #N -> PC: 3
    ("mov @Rn,PC", "mov #1f, &0x1c00", "mov @r5, pc\n1:", "", 4),  # @Rn -> PC: 4
    ("ret", "push #1f", "ret\n1:", "", 4),               # Table 4-8 RET: 4 (= @SP+ -> PC)
    ("br &EDE", "mov #1f, &0x1c00", "br &0x1c00\n1:", "", 5),  # &EDE -> PC: 5
    ("br x(Rn)", "mov #1f, &0x1c02", "mov 2(r5), pc\n1:", "", 5),  # x(Rn) -> PC: 5
    # Table 4-9, MSP430 Format II
    ("rra Rn", "", "rra r6", "", 1),                     # Rn: 1
    ("rrc @Rn", "", W([fmt2(0, 0, 2, 5)]), "", 3),      # @Rn: 3
    ("swpb @Rn+", "", W([fmt2(1, 0, 3, 5)]), "", 3),    # @Rn+: 3
    ("sxt x(Rn)", "", "sxt 2(r5)", "", 4),               # x(Rn): 4
    ("rra &EDE", "", "rra &0x1c02", "", 4),              # &EDE: 4
    ("rrc.b EDE", "", "rrc.b .Lsym", "", 4),             # EDE: 4
    ("push Rn", "", "push r5", "incd sp", 3),            # PUSH Rn: 3
    ("push @Rn", "", W([fmt2(4, 0, 2, 5)]), "incd sp", 3),  # PUSH @Rn: 3
    ("push #N", "", "push #0x1234", "incd sp", 3),       # PUSH #N: 3
    ("push x(Rn)", "", W([fmt2(4, 0, 1, 5), 2]), "incd sp", 4),   # PUSH x(Rn): 4
    ("push &EDE", "", W([fmt2(4, 0, 1, 2), 0x1c00]), "incd sp", 4),  # PUSH &EDE: 4
    ("call Rn", "mov #1f, r8", "call r8\n1:", "incd sp", 4),          # CALL Rn: 4
    ("call #N", "", "call #1f\n1:", "incd sp", 4),                    # CALL #N: 4
    ("call @Rn", "mov #1f, &0x1c00", W([fmt2(5, 0, 2, 5)]) + "\n1:", "incd sp", 4),  # CALL @Rn: 4
    ("call x(Rn)", "mov #1f, &0x1c02", W([fmt2(5, 0, 1, 5), 2]) + "\n1:", "incd sp", 5),  # x(Rn): 5
    ("call &EDE", "mov #1f, &0x1c00", "call &0x1c00\n1:", "incd sp", 6),  # CALL &EDE: 6
    ("reti", "push #1f\n  push #0", W(RETI) + "\n1:", "", 5),  # Table 4-8 RETI: 5
    # Jumps: 2 cycles, taken or not
    ("jmp", "", "jmp 1f\n1:", "", 2),
    ("jne not taken", "clrz\n  setz", "jne 1f\n1:", "", 2),
    ("jeq taken", "setz", "jeq 1f\n  nop\n1:", "", 2),
    # Table 4-18, MSP430X Format I (.B/.W, .A)
    ("movx Rn,Rm", "", XR("mov", 5, 6), "", 2),                     # Rn -> Rm: 2
    ("addx.a Rn,Rm", "", XR("add", 5, 6, "a"), "", 2),              # .A: 2
    ("rpt #4 addx Rn,Rm", "", XR("add", 5, 6, rpt=4), "", 5),       # note [1]: n + 1 = 5
    ("rpt r7 addx Rn,Rm", "", XR("add", 5, 6, rpt_reg=7), "", 4),   # r7 = 2 -> n = 3: 4
    ("movx @Rn,Rm", "", X("mov", 5, 2, 6, 0), "", 3),               # @Rn -> Rm .W: 3
    ("movx.a @Rn,Rm", "", X("mov", 5, 2, 6, 0, "a"), "", 4),        # .A: 4
    ("addx.a @Rn+,Rm", "", X("add", 5, 3, 6, 0, "a"), "", 4),       # @Rn+ -> Rm .A: 4
    ("movx #N,Rm", "", X("mov", 0, 3, 6, 0, "w", [0x1234]), "", 3),  # #N -> Rm: 3
    ("movx.a #N,Rm", "", W([ext_mem(al=0, src_hi=1), fmt1(4, 0, 3, 1, 0, 6), 0x2345]), "", 3),  # 3
    ("movx x(Rn),Rm", "", X("mov", 5, 1, 6, 0, "w", [2]), "", 4),    # x(Rn) -> Rm .W: 4
    ("movx.a &EDE,Rm", "", X("mov", 2, 1, 6, 0, "a", [0x1c00]), "", 5),  # &EDE -> Rm .A: 5
    ("addx Rn,x(Rm)", "", X("add", 5, 0, 6, 1, "w", [0]), "", 5),    # Rn -> x(Rm) .W: 5
    ("movx Rn,x(Rm)", "", X("mov", 5, 0, 6, 1, "w", [0]), "", 4),    # 5, note [2] MOV: 4
    ("addx.a Rn,x(Rm)", "", X("add", 5, 0, 6, 1, "a", [0]), "", 7),  # .A: 7
    ("movx.a Rn,x(Rm)", "", X("mov", 5, 0, 6, 1, "a", [0]), "", 5),  # 7, note [3] MOV: 5
    ("addx @Rn,x(Rm)", "", X("add", 5, 2, 6, 1, "w", [0]), "", 6),   # @Rn -> x(Rm) .W: 6
    ("movx.a @Rn,x(Rm)", "", X("mov", 5, 2, 6, 1, "a", [0]), "", 7),  # 9, note [3]: 7
    ("addx #N,x(Rm)", "", X("add", 0, 3, 6, 1, "w", [7, 0]), "", 6),  # #N -> x(Rm) .W: 6
    ("cmpx.a #N,&EDE", "", X("cmp", 0, 3, 2, 1, "a", [7, 0x1c10]), "", 6),  # 8, note [3]: 6
    ("addx x(Rn),x(Rm)", "", X("add", 5, 1, 6, 1, "w", [2, 4]), "", 7),  # x(Rn) -> x(Rm) .W: 7
    ("movx.a x(Rn),x(Rm)", "", X("mov", 5, 1, 6, 1, "a", [0, 4]), "", 8),  # 10, note [3]: 8
    ("movx.a Rn,PC", "mov #1f, r8", XR("mov", 8, 0, "a") + "\n1:", "", 4),  # Rn -> PC: 4
    ("movx.a #N,PC", "", W([ext_mem(al=0), fmt1(4, 0, 3, 1, 0, 0)]) + ", 1f\n1:", "", 3),  # 4, note [4]: 3
    ("movx.a @Rn,PC", "mova #1f, r8\n  mova r8, &0x1c00", X("mov", 5, 2, 0, 0, "a") + "\n1:", "", 6),  # 6
    # Table 4-17, MSP430X Format II
    ("rrax Rn", "", X2(2, 0, 6), "", 2),                    # 1 + n, n = 1
    ("rpt #3 rrax.a Rn", "", X2(2, 0, 6, "a", rpt=3), "", 4),  # 1 + 3
    ("rrcx @Rn", "", X2(0, 2, 5), "", 4),                   # @Rn .W: 4
    ("rrax.a x(Rn)", "", X2(2, 1, 5, "a", [0]), "", 7),     # x(Rn) .A: 7
    ("swpbx.a Rn", "", X2(1, 0, 6, "a"), "", 2),            # register mode: 1 + n
    ("sxtx.a Rn", "", X2(3, 0, 6, "a"), "", 2),
    ("pushx Rn", "", X2(4, 0, 5), "incd sp", 4),            # PUSHX Rn .W: 4
    ("pushx.a Rn", "", X2(4, 0, 5, "a"), "add #4, sp", 5),  # .A: 5
    ("pushx.a #N", "", X2(4, 3, 0, "a", [0x1234]), "add #4, sp", 5),  # #N .A: 5
    ("pushx @Rn", "", X2(4, 2, 5), "incd sp", 4),           # @Rn .W: 4
    ("pushx.a x(Rn)", "", X2(4, 1, 5, "a", [0]), "add #4, sp", 7),  # x(Rn) .A: 7
    ("pushx.a x(SP)", "", X2(4, 1, 1, "a", [0]), "add #4, sp", 8),  # 7, note [1] Rn = SP: 8
    ("calla Rn", "mova #1f, r8", W(calla_reg(8)) + "\n1:", "add #4, sp", 5),  # CALLA Rn: 5
    ("calla #N", "", W(calla_imm(0)[:1]) + ", 1f\n1:", "add #4, sp", 5),      # #N: 5
    ("calla @Rn", "mova #1f, r8\n  mova r8, &0x1c00", W(calla_ind(5)) + "\n1:", "add #4, sp", 6),  # 6
    ("calla x(Rn)", "mova #1f, r8\n  mova r8, &0x1c04", W(calla_idx(4, 5)) + "\n1:", "add #4, sp", 5),  # 5
    ("calla &EDE", "mova #1f, r8\n  mova r8, &0x1c00", W(calla_abs(0x1c00)) + "\n1:", "add #4, sp", 7),  # 7
    ("pushm.w #3", "", W(pushm(3, 10)), "add #6, sp", 5),          # 2 + n
    ("pushm.a #2", "", W(pushm(2, 10, a=True)), "add #8, sp", 6),  # 2 + 2n
    ("popm.w #3", "sub #6, sp", W(popm(3, 10)), "", 5),             # 2 + n
    ("popm.a #2", "sub #8, sp", W(popm(2, 10, a=True)), "", 6),     # 2 + 2n
    ("rrcm.w #2", "", W(shift_m(0, 2, 6)), "", 2),                  # RRCM: n
    ("rlam.a #4", "", W(shift_m(2, 4, 6, a=True)), "", 4),          # RLAM: n
    # Table 4-19, address instructions
    ("mova Rn,Rm", "", W(mova_reg(5, 6)), "", 1),
    ("mova @Rn,Rm", "", W(mova_ind(5, 6)), "", 3),
    ("mova @Rn+,Rm", "", W(mova_inc(5, 6)), "", 3),
    ("mova &abs,Rm", "", W(mova_abs(0x1c00, 6)), "", 4),
    ("mova x(Rn),Rm", "", W(mova_idx(2, 5, 6)), "", 4),
    ("mova #N,Rm", "", W(mova_imm(0x12345, 6)), "", 2),
    ("mova Rn,&abs", "", W(mova_to_abs(5, 0x1c10)), "", 4),
    ("mova Rn,x(Rm)", "", W(mova_to_idx(5, 4, 6)), "", 4),
    ("adda Rn,Rm", "", W(adda_reg(5, 6)), "", 1),
    ("suba Rn,Rm", "", W(suba_reg(5, 6)), "", 1),
    ("adda #N,Rm", "", W(adda_imm(0x10000, 6)), "", 3),
    ("cmpa #N,Rm", "", W(cmpa_imm(0x10000, 6)), "", 3),
    ("bra Rn (mova Rn,PC)", "mova #1f, r8", W(mova_reg(8, 0)) + "\n1:", "", 3),
    ("bra #N (mova #N,PC)", "", W(mova_imm(0, 0)[:1]) + ", 1f\n1:", "", 3),
    ("mova @Rn,PC", "mova #1f, r8\n  mova r8, &0x1c00", W(mova_ind(5, 0)) + "\n1:", "", 5),
    ("reta (mova @SP+,PC)", "mova #1f, r8\n  " + W(pushm(1, 8, a=True)).strip(), W(RETA) + "\n1:", "", 5),
    ("mova &abs,PC", "mova #1f, r8\n  mova r8, &0x1c00", W(mova_abs(0x1c00, 0)) + "\n1:", "", 6),
    ("mova x(Rn),PC", "mova #1f, r8\n  mova r8, &0x1c04", W(mova_idx(4, 5, 0)) + "\n1:", "", 6),
]


def program(cases):
    out = []
    for i, (_, setup, timed, cleanup, _) in enumerate(cases):
        out.append(SETUP)
        out += ["  " + l.strip() if not l.strip().endswith(":") else l.strip() for l in setup.split("\n") if l.strip()]
        out.append("  mov &0x0ff4, r15")
        out += ["  " + l.strip() if not l.strip().endswith(":") else l.strip() for l in timed.split("\n") if l.strip()]
        out.append("  mov &0x0ff4, r14")
        out += ["  " + l.strip() for l in cleanup.split("\n") if l.strip()]
        out += ["  sub r15, r14", "  mov.b r14, &0x0ff0"]
    out += ["  mov #0, &0x0ff2", "  .p2align 1", ".Lsym: .word 0x1234"]
    # "mova #label, rN" and "mova rN, &abs" in setups are written with the encoder.
    text = "\n".join(out)
    return text


def _expand_mova(text):
    lines = []
    for l in text.split("\n"):
        s = l.strip()
        if s.startswith("mova #1f, r8"):
            lines.append("  .word 0x0088, 1f")  # MOVA #imm20 (bits 19:16 = 0), R8
        elif s.startswith("mova r8, &0x1c0"):
            a = int(s.split("&")[1], 16)
            lines.append(W(mova_to_abs(8, a)))
        else:
            lines.append(l)
    return "\n".join(lines)


def test_cycles_per_format_and_mode(tmp_path):
    cases = [("empty", "", "", "", 0)] + CASES
    elf = build(_expand_mova(program(cases)), tmp_path, "cyc")
    res = run(elf)
    assert res.returncode == 0, res.stderr
    got = list(res.stdout.encode("latin-1"))
    assert len(got) == len(cases)
    base = got[0]
    assert base == 3  # the first `mov &abs, r15` itself: &EDE -> Rm = 3 (Table 4-10)
    bad = [(name, exp, got[i + 1] - base) for i, (name, _, _, _, exp) in enumerate(CASES) if got[i + 1] - base != exp]
    assert not bad, "cycle mismatches (name, expected, simulated):\n" + "\n".join(map(str, bad))
