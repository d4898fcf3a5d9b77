# SPDX-License-Identifier: MIT
"""What gen_fe25519.py and gen_fep256.py share: the multiplier's register map, operand
classes and Format I cycles (docs/MSP430_TIMING.md), the multiplier's result latencies
(guide table "Result Availability"), the .word encodings LLVM's assembler lacks, the
f +- g word chain of the add/sub kernels, the 16-bit multiplier's column end, a
function's header and the write/--check driver. Imported by both (their folder is on sys.path when run as scripts or by tests).
"""
import sys

# Multiplier registers (MSP430FR5969 addresses; the generators use only the names).
MPYREG = {"MPY": 0x4C0, "MAC": 0x4C4, "OP2": 0x4C8, "RESLO": 0x4CA, "RESHI": 0x4CC,
          "SUMEXT": 0x4CE, "MPY32L": 0x4D0, "MPY32H": 0x4D2, "MAC32L": 0x4D8,
          "MAC32H": 0x4DA, "OP2L": 0x4E0, "OP2H": 0x4E2, "RES0": 0x4E4, "RES1": 0x4E6,
          "RES2": 0x4E8, "RES3": 0x4EA}
CG = {0, 1, 2, 4, 8, -1, 0xFFFF}        # constant-generator immediates (no extension word)

# Result latency after the OP2 write (16 x 16; the MPY32 adds RES0-RES3).
OP2_LAT16 = {"RESLO": 3, "RESHI": 3, "SUMEXT": 3}
OP2_LAT32 = dict(OP2_LAT16, RES0=3, RES1=3, RES2=4, RES3=4)
# After OP2L / OP2H of a 32 x 32 product: (RES0, RES1, RES2, RES3, SUMEXT).
OP2H_NAMES = ("RES0", "RES1", "RES2", "RES3", "SUMEXT")
OP2H_LAT32 = ((3, 8, 10, 11, 11), (0, 3, 5, 6, 6))


def opclass(op):
    """(class, extension words): R register/CG, I immediate, N @Rn, P @Rn+, X x(Rn)/&abs."""
    op = op.strip()
    if op.startswith("#"):
        try:
            v = int(op[1:], 0)
        except ValueError:          # a symbol (an address from board.h)
            return ("I", 1)
        return ("R", 0) if v in CG else ("I", 1)
    if op.startswith("@"):
        return ("P", 0) if op.endswith("+") else ("N", 0)
    if op.startswith("&") or "(" in op:
        return ("X", 1)
    return ("R", 0)


def mreg(op):
    """The multiplier register an &abs operand names, else None."""
    op = op.strip()
    return op[1:] if op.startswith("&") and op[1:] in MPYREG else None


def fmt1_cycles(op, sc, mem):
    """Format I cycles for source class sc, destination in memory or not (MOV, CMP and
    BIT to memory one less: no write back)."""
    c = {"R": (1, 4), "N": (2, 5), "P": (2, 5), "I": (2, 5), "X": (3, 6)}[sc][1 if mem else 0]
    return c - 1 if mem and op in ("mov", "cmp", "bit") else c


def pushm_word(n, rd):
    """PUSHM.W #n, Rd (SLAU367; LLVM's assembler lacks it): saves r(rd-n+1)..r(rd), 2 + n cycles."""
    return 0x1500 | ((n - 1) << 4) | rd


def popm_word(n, rlow):
    """POPM.W #n, r(rlow+n-1): restores r(rlow)..r(rlow+n-1), 2 + n cycles."""
    return 0x1700 | ((n - 1) << 4) | rlow


def chain(first, rest, where):
    """(op, src, dst) of the word chain f +- g: r13 = f, r14 = g walk up; where[i] =
    (register word i is formed in, where it is stored or None)."""
    out = []
    for i, (r, store) in enumerate(where):
        out += [("mov", "@r13+", r), (first if i == 0 else rest, "@r14+", r)]
        if store is not None:
            out.append(("mov", r, store))
    return out


def column_end16(ins, rp, lo, hi, top, last_carry, hi_kw=None):
    """16-bit multiplier, a column's end (both generators): lo, hi += RESLO, RESHI, read
    through rp stepped back by 4 from &SUMEXT (2 cycles a read instead of 3; rp is
    &SUMEXT again after them), then top += the chain's carry and, if last_carry, the
    column's last MAC carry (SUMEXT) in the same `addc @rp`. ins: the emitter's `ins`;
    hi_kw: more keywords for the RESHI read's ins (the GF(p256) emitter's fill)."""
    ins("sub", "#4", rp)
    ins("add", f"@{rp}+", lo, rd="RESLO")
    ins("addc", f"@{rp}+", hi, rd="RESHI", **(hi_kw or {}))
    if last_carry:
        ins("addc", f"@{rp}", top, rd="SUMEXT")
    else:
        ins("addc", "#0", top)


def ins_text(op, a, b):
    return f"        {op:7s} {a}, {b}"


def header(name, text):
    """A global function in its own section, after a comment."""
    return f"""
/* {text} */
        .section .text.{name},"ax",@progbits
        .global {name}
        .type   {name},@function
{name}:"""


def backend_guard(path, text):
    """text wrapped in the macros of src/util/backend.h (after its SPDX line): the file
    assembles to nothing unless this backend, and for a *_mpy32/*_mpy16 file its
    multiplier, is the build's."""
    cond = "MB_ASM_MSP430X"
    for mpy in ("32", "16"):
        if f"_mpy{mpy}" in path.name:
            cond += f" && MB_MSP430_MPY == {mpy}"
    first, rest = text.split("\n", 1)
    return (f'{first}\n#include "util/backend.h"\n'
            f"#if {cond}   /* else this file is empty (util/backend.h) */\n"
            f"{rest.rstrip(chr(10))}\n#endif /* {cond} */\n")


def main(argv, outputs):
    """Write outputs {path: text}, each wrapped by backend_guard; with --check only
    compare (1 if any differs)."""
    check = "--check" in argv
    bad = 0
    for path, text in outputs.items():
        text = backend_guard(path, text)
        if check:
            if not path.exists() or path.read_text() != text:
                print(f"{path} is not the generator's output", file=sys.stderr)
                bad = 1
        else:
            path.write_text(text)
    return bad
