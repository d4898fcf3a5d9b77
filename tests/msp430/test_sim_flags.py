# SPDX-License-Identifier: MIT
"""Status flags (V, N, Z, C) of every flag-setting MSP430 instruction, byte and
word, against a Python model written from the instruction descriptions of SLAU367
section 4.6.2 (e.g. SUB: C = 1 if no borrow; XOR: V = both operands negative;
AND/BIT/SXT: C = not Z, V = 0; RRA/RRC: C = LSB out, V = 0)."""
import random

import pytest

from sim430_asm import build, have_toolchain, run

pytestmark = pytest.mark.skipif(not have_toolchain(), reason="needs clang and ld.lld")
C, Z, N, V = 0x1, 0x2, 0x4, 0x100


def sx(v, bits):
    return v - (1 << bits) if v >> (bits - 1) & 1 else v


def nz(r, bits):
    return (N if r >> (bits - 1) & 1 else 0) | (Z if r == 0 else 0)


def model(op, s, d, cin, bits):
    """(result written or None, SR flags) for `op s, d` (or `op d` for format II)."""
    m = (1 << bits) - 1
    if op in ("add", "addc", "sub", "subc", "cmp"):
        s2 = s if op in ("add", "addc") else (~s & m)
        c0 = {"add": 0, "addc": cin, "sub": 1, "subc": cin, "cmp": 1}[op]
        t = d + s2 + c0
        r = t & m
        v = sx(d, bits) + sx(s2, bits) + c0 != sx(r, bits)
        return (None if op == "cmp" else r), nz(r, bits) | (C if t > m else 0) | (V if v else 0)
    if op in ("and", "bit"):
        r = s & d
        return (None if op == "bit" else r), nz(r, bits) | (C if r else 0)
    if op == "xor":
        r = s ^ d
        return r, nz(r, bits) | (C if r else 0) | (V if (s >> (bits - 1)) & (d >> (bits - 1)) & 1 else 0)
    if op == "rra":
        r = (d >> 1) | (d & (1 << (bits - 1)))
        return r, nz(r, bits) | (C if d & 1 else 0)
    if op == "rrc":
        r = (d >> 1) | (cin << (bits - 1))
        return r, nz(r, bits) | (C if d & 1 else 0)
    if op == "sxt":
        r = (d & 0xFF) | (0xFF00 if d & 0x80 else 0)
        return r, nz(r, 16) | (C if r else 0)
    raise ValueError(op)


OPS2 = ["add", "addc", "sub", "subc", "cmp", "and", "bit", "xor"]
OPS1 = ["rra", "rrc", "sxt"]


def test_flags_against_model(tmp_path):
    rng = random.Random(430)
    body, exp = ["  mov #0x2300, sp"], []
    for _ in range(400):
        op = rng.choice(OPS2 + OPS1)
        byte = op != "sxt" and rng.random() < 0.4
        bits = 8 if byte else 16
        pick = lambda: rng.choice([0, 1, (1 << bits) - 1, 1 << (bits - 1), (1 << (bits - 1)) - 1,  # noqa: E731
                                   rng.randrange(1 << bits)])
        s, d, cin, vin = pick(), pick(), rng.randrange(2), rng.randrange(2)
        sfx = ".b" if byte else ""
        body += [f"  mov #{d}, r6", f"  mov #{s}, r5", f"  mov #{cin | (V if vin else 0) | N | Z}, r2"]
        body.append(f"  {op}{sfx} r5, r6" if op in OPS2 else f"  {op}{sfx} r6")
        body += ["  mov r2, r7", "  mov.b r6, &0x0ff0", "  swpb r6", "  mov.b r6, &0x0ff0",
                 "  mov.b r7, &0x0ff0", "  swpb r7", "  mov.b r7, &0x0ff0"]
        r, f = model(op, s, d, cin, bits)
        exp.append((op, byte, s, d, cin, d if r is None else r, f))
    body.append("  mov #0, &0x0ff2")
    res = run(build("\n".join(body), tmp_path, "flags"))
    assert res.returncode == 0, res.stderr
    raw = res.stdout.encode("latin-1")
    bad = []
    for i, (op, byte, s, d, cin, r, f) in enumerate(exp):
        gr = int.from_bytes(raw[4 * i:4 * i + 2], "little")
        gf = int.from_bytes(raw[4 * i + 2:4 * i + 4], "little") & (C | Z | N | V)
        if (gr, gf) != (r, f):
            bad.append(f"{op}{'.b' if byte else ''} s={s:#x} d={d:#x} c={cin}: got {gr:#x} {gf:#x}, want {r:#x} {f:#x}")
    assert not bad, "\n".join(bad[:20])
