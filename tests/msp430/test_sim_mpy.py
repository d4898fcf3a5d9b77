# SPDX-License-Identifier: MIT
"""The multiplier peripheral (MPY32 at 0x04C0, SLAU367 chapter "32-Bit Hardware
Multiplier"; and the 16-bit-only configuration --mpy 16): every mode (MPY, MPYS,
MAC, MACS) and operand width (8, 16, 24, 32 bits each side) against Python
integer arithmetic; the user's guide worked examples for fractional and saturation
modes; and the result latency: reading too early stops the run naming the PC."""
import random
import re
import subprocess

import pytest

from sim430_asm import build, have_toolchain, run

pytestmark = pytest.mark.skipif(not have_toolchain(), reason="needs clang and ld.lld")

MPY, MPYS, MAC, MACS, OP2, RESLO, RESHI, SUMEXT = (0x4C0 + 2 * i for i in range(8))
MPY32L, MPY32H = 0x4D0, 0x4D2
OP2L, OP2H, RES0, RES1, RES2, RES3, CTL0 = 0x4E0, 0x4E2, 0x4E4, 0x4E6, 0x4E8, 0x4EA, 0x4EC
MPYC, MPYFRAC, MPYSAT, MPYDLYWRTEN, MPYDLY32 = 0x1, 0x4, 0x8, 0x100, 0x200
MODES = ["MPY", "MPYS", "MAC", "MACS"]
M64 = (1 << 64) - 1


def sx(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def write(addr, v, byte=False):
    return f"  mov{'.b' if byte else ''} #{v & (0xFF if byte else 0xFFFF)}, &{addr}"


def emit_reads(regs):
    """Read each register after a pause long enough for every result, print 2 bytes each."""
    out = ["  nop"] * 12
    for r in regs:
        out += [f"  mov &{r}, r14", "  mov.b r14, &0x0ff0", "  swpb r14", "  mov.b r14, &0x0ff0"]
    return out


def op1_writes(mode, a, w1):
    """OP1 of width w1 (8, 16, 24, 32) for a mode, as the guide describes (byte
    accesses give 8/24-bit operands, sign-extended in signed modes)."""
    k = MODES.index(mode)
    if w1 <= 16:
        return [write(MPY + 2 * k, a, byte=w1 == 8)]
    lo, hi = MPY32L + 4 * k, MPY32L + 4 * k + 2
    return [write(lo, a), write(hi, a >> 16, byte=w1 == 24)]


def op2_writes(b, w2):
    if w2 <= 16:
        return [write(OP2, b, byte=w2 == 8)]
    return [write(OP2L, b), write(OP2H, b >> 16, byte=w2 == 24)]


def expected(mode, a, b, w1, w2, pre, prec):
    """Python model of one operation from the guide's description: returns
    (RES 64-bit as read, SUMEXT, MPYC) for the width used."""
    signed = mode in ("MPYS", "MACS")
    acc = mode in ("MAC", "MACS")
    wide = w1 > 16 or w2 > 16
    n = 64 if wide else 32
    ea = sx(a, w1) if signed else a & ((1 << w1) - 1)
    eb = sx(b, w2) if signed else b & ((1 << w2) - 1)
    p = ea * eb
    if not acc:
        res = p & ((1 << n) - 1)
        sumext = (0xFFFF if p < 0 else 0) if signed else 0
        c = int(p < 0) if signed else 0
        return res, sumext, c
    prior = pre & ((1 << n) - 1)
    if signed:
        total = prior + p  # low n bits and SUMEXT do not depend on MPYC
        res = total & ((1 << n) - 1)
        return res, 0xFFFF if res >> (n - 1) else 0, None
    total = prior + p
    return total & ((1 << n) - 1), total >> n, total >> n


def run_prog(tmp_path, body, mpy=32, name="m"):
    asm = "  mov #0x2300, sp\n" + "\n".join(body) + "\n  mov #0, &0x0ff2\n"
    elf = build(asm, tmp_path, name)
    return run(elf, mpy=mpy), elf


def unpack(stdout, n):
    raw = stdout.encode("latin-1")
    return [int.from_bytes(raw[2 * i:2 * i + 2], "little") for i in range(len(raw) // 2)]


WIDTHS = [(8, 8), (16, 16), (8, 16), (16, 8), (24, 16), (32, 16), (16, 24), (16, 32), (24, 24), (32, 32),
          (32, 8), (8, 32)]


@pytest.mark.parametrize("mode", MODES)
def test_mpy32_modes_and_widths(mode, tmp_path):
    rng = random.Random(hash(mode) & 0xFFFF)
    body, exp = [], []
    for w1, w2 in WIDTHS:
        for _ in range(6):
            a, b = rng.randrange(1 << 32), rng.randrange(1 << 32)
            if rng.random() < 0.3:  # extreme operands
                a, b = rng.choice([0, (1 << 32) - 1, 1 << 31, (1 << 31) - 1]), rng.choice([(1 << 32) - 1, 1 << 31])
            pre = rng.randrange(1 << 64)
            body.append(write(CTL0, 0))
            for i, r in enumerate((RES0, RES1, RES2, RES3)):
                body.append(write(r, pre >> (16 * i)))
            body += op1_writes(mode, a, w1) + op2_writes(b, w2)
            body += emit_reads([RES0, RES1, RES2, RES3, SUMEXT, CTL0])
            exp.append((w1, w2, a, b, pre, expected(mode, a, b, w1, w2, pre, 0)))
    res, _ = run_prog(tmp_path, body)
    assert res.returncode == 0, res.stderr
    got = unpack(res.stdout, 6 * len(exp))
    for i, (w1, w2, a, b, pre, (r, se, c)) in enumerate(exp):
        g = got[6 * i:6 * i + 6]
        wide = w1 > 16 or w2 > 16
        gres = g[0] | g[1] << 16 | g[2] << 32 | g[3] << 48
        what = f"{mode} {w1}x{w2} a={a:#x} b={b:#x} pre={pre:#x}"
        if wide:
            assert gres == r, what
        else:
            assert gres & 0xFFFFFFFF == r, what  # 16x16: RES1:RES0 (RESHI:RESLO)
        assert g[4] == se, what
        assert (g[5] & 0xF0) == (MODES.index(mode) << 4) | (0x40 if w1 > 16 else 0) | (0x80 if w2 > 16 else 0), what
        if c is not None:
            assert g[5] & MPYC == c, what


def test_mpy32_16bit_registers_alias_res(tmp_path):
    # RESLO/RESHI are the 16-bit views of RES0/RES1.
    body = [write(MPY, 0xFFFF), write(OP2, 0xFFFF)] + emit_reads([RESLO, RESHI, RES0, RES1, SUMEXT])
    res, _ = run_prog(tmp_path, body)
    p = 0xFFFF * 0xFFFF
    assert unpack(res.stdout, 5) == [p & 0xFFFF, p >> 16, p & 0xFFFF, p >> 16, 0]


def test_mac_keeps_op1_and_accumulates(tmp_path):
    # The [DHH+15] trick: load MAC once, then only OP2 writes accumulate.
    body = [write(RESLO, 0), write(RESHI, 0), write(MAC, 56130)]
    vals = [0xFFFF, 0x1234, 0xFFFF, 7]
    for v in vals:
        body += [write(OP2, v), "  nop", "  nop"]
    body += emit_reads([RESLO, RESHI, SUMEXT])
    res, _ = run_prog(tmp_path, body)
    total = 56130 * sum(vals)
    assert unpack(res.stdout, 3) == [total & 0xFFFF, (total >> 16) & 0xFFFF, 0]


# ---- fractional and saturation modes: the user's guide examples (SLAU367 5.2.4) --------

def test_guide_example_saturation_24x32_then_macs(tmp_path):
    # "Mixing 32x24 multiplication with 16x16 MACS operation" (MPYSAT set).
    body = [write(CTL0, MPYSAT), write(MPY32L, 0x52C5), write(MPY32H, 0x6153), write(OP2L, 0x01AB),
            write(OP2H, 0x23, byte=True)] + emit_reads([RES0, RES1, RES2, RES3])
    body += [write(MACS, 0xCCC3), write(OP2, 0xFFB6)] + emit_reads([RESLO, RESHI])
    res, _ = run_prog(tmp_path, body)
    got = unpack(res.stdout, 6)
    assert got[:4] == [0x0E97, 0xA6EA, 0x4F06, 0x000D]  # guide: R6..R9
    assert 0x615352C5 * 0x2301AB == 0x000D4F06A6EA0E97  # Python agrees with the guide
    assert got[4:] == [0xFFFF, 0x7FFF]  # guide: saturated, previous result was saturated


def test_guide_example_saturation_with_mpyc(tmp_path):
    # Preloaded zero result with MPYC = 1 (sign), 8-bit MACS: guide gives 0x8000:0000.
    body = [write(RES3, 0), write(RES2, 0), write(RES1, 0), write(RES0, 0), write(CTL0, MPYSAT | MPYC),
            write(MACS, 0x82, byte=True), write(OP2, 0x4F, byte=True)] + emit_reads([RES0, RES1])
    res, _ = run_prog(tmp_path, body)
    assert unpack(res.stdout, 2) == [0x0000, 0x8000]


def test_guide_example_fractional_saturation(tmp_path):
    # "Saturation in fractional mode": RES1:RES0 preloaded 7FFF:FA60, 8-bit MACS 50h x 12h.
    body = [write(CTL0, MPYFRAC | MPYSAT), write(RES3, 0), write(RES2, 0), write(RES1, 0x7FFF),
            write(RES0, 0xFA60), write(MACS, 0x50, byte=True), write(OP2, 0x12, byte=True)]
    body += emit_reads([RES0, RES1])
    res, _ = run_prog(tmp_path, body)
    assert unpack(res.stdout, 2) == [0xFFFF, 0x7FFF]


def test_fractional_q15_products(tmp_path):
    rng = random.Random(15)
    body, exp = [], []
    for _ in range(40):
        a, b = rng.randrange(1 << 16), rng.randrange(1 << 16)
        body += [write(CTL0, MPYFRAC), write(MPYS, a), write(OP2, b)] + emit_reads([RES0, RES1])
        q31 = (sx(a, 16) * sx(b, 16) * 2) & 0xFFFFFFFF  # Q15 x Q15 -> Q31
        exp += [q31 & 0xFFFF, q31 >> 16]
    # -1.0 x -1.0 saturates to the most positive value in fractional + saturation mode.
    body += [write(CTL0, MPYFRAC | MPYSAT), write(MPYS, 0x8000), write(OP2, 0x8000)] + emit_reads([RES0, RES1])
    exp += [0xFFFF, 0x7FFF]
    res, _ = run_prog(tmp_path, body)
    assert unpack(res.stdout, len(exp)) == exp


# ---- latency: Table "Result Availability" ------------------------------------------------

def _bad_pc(elf):
    nm = subprocess.run(["llvm-nm", str(elf)], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"^([0-9a-f]+) \w bad$", nm, re.M).group(1), 16)


def test_16x16_result_ready_for_next_instruction(tmp_path):
    # Guide: a 16x16 result can be read by the next instruction (absolute mode, 3rd cycle).
    body = [write(MPY, 1234), write(OP2, 5678), f"  mov &{RESLO}, r14", f"  mov &{RESHI}, r13",
            "  mov.b r14, &0x0ff0", "  swpb r14", "  mov.b r14, &0x0ff0"]
    res, _ = run_prog(tmp_path, body)
    assert res.returncode == 0, res.stderr
    assert unpack(res.stdout, 1) == [(1234 * 5678) & 0xFFFF]


@pytest.mark.parametrize("mpy", [32, 16])
def test_16x16_indirect_read_needs_a_nop(mpy, tmp_path):
    # Guide: with indirect addressing a NOP is required before reading the result.
    body = [f"  mov #{RESLO}, r5", write(MPY, 3), write(OP2, 5), "bad:", "  mov @r5, r6"]
    res, elf = run_prog(tmp_path, body, mpy=mpy)
    assert res.returncode == 205
    assert f"error at PC 0x{_bad_pc(elf):05x}" in res.stderr and "before it is ready" in res.stderr
    body = [f"  mov #{RESLO}, r5", write(MPY, 3), write(OP2, 5), "  nop", "  mov @r5, r6"]
    res, _ = run_prog(tmp_path, body, mpy=mpy, name="ok")
    assert res.returncode == 0, res.stderr


# nops_ok = max(lat_L, 4 + lat_H) - 7: RES0 max(3, 4) - 7 -> 0, RES1 max(8, 7) - 7 = 1,
# RES2 max(10, 9) - 7 = 3, RES3 max(11, 10) - 7 = 4.
@pytest.mark.parametrize("reg,nops_ok", [(RES0, 0), (RES1, 1), (RES2, 3), (RES3, 4)])
def test_32x32_latency(reg, nops_ok, tmp_path):
    # 32x32: after OP2L 3/8/10/11 cycles, after OP2H -/3/5/6 (RES0..RES3). OP2H is written
    # by `mov #N, &EDE` (4 cycles) after OP2L; the read `mov &RESx, r6` reads in its 3rd
    # cycle: ready iff 4 + nops + 3 >= max(lat_L, 4 + lat_H).
    for nops, ok in [(nops_ok, True), (nops_ok - 1, False)]:
        if nops < 0:
            continue
        # operands are not constant-generator values, so each `mov #N, &EDE` takes 4 cycles
        body = [write(MPY32L, 0x111), write(MPY32H, 0x222), write(OP2L, 0x333), write(OP2H, 0x444)]
        body += ["  nop"] * nops
        body += ["bad:", f"  mov &{reg}, r6"]
        res, elf = run_prog(tmp_path, body, name=f"l{nops}")
        if ok:
            assert res.returncode == 0, (nops, res.stderr)
        else:
            assert res.returncode == 205 and f"PC 0x{_bad_pc(elf):05x}" in res.stderr, (nops, res.stderr)


def test_op2h_missing_is_an_error(tmp_path):
    body = [write(MPY32L, 1), write(MPY32H, 2), write(OP2L, 3)] + ["  nop"] * 20 + ["bad:", f"  mov &{RES0}, r6"]
    res, elf = run_prog(tmp_path, body)
    assert res.returncode == 205 and "OP2H" in res.stderr


def test_delayed_write_waits_for_result(tmp_path):
    # MPYDLYWRTEN: a new operand written while a 32x32 result is pending is delayed
    # until the result is ready, so back-to-back operations need no NOPs.
    body = [write(CTL0, MPYDLYWRTEN), write(MPY32L, 0xFFFF), write(MPY32H, 0xFFFF), write(OP2L, 0xFFFF),
            write(OP2H, 0xFFFF), write(MPY, 3), write(OP2, 5)] + emit_reads([RESLO])
    res, _ = run_prog(tmp_path, body)
    assert res.returncode == 0 and unpack(res.stdout, 1) == [15]


# ---- --mpy 16: only MPY..SUMEXT ----------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_mpy16_modes(mode, tmp_path):
    rng = random.Random(16 + MODES.index(mode))
    body, exp = [], []
    k = MODES.index(mode)
    for _ in range(30):
        a, b, pre = rng.randrange(1 << 16), rng.randrange(1 << 16), rng.randrange(1 << 32)
        byte = rng.random() < 0.25
        body += [write(RESLO, pre), write(RESHI, pre >> 16), write(MPY + 2 * k, a, byte), write(OP2, b, byte)]
        body += emit_reads([RESLO, RESHI, SUMEXT])
        w = 8 if byte else 16
        signed, acc = k in (1, 3), k >= 2
        ea, eb = (sx(a, w), sx(b, w)) if signed else (a & ((1 << w) - 1), b & ((1 << w) - 1))
        t = (pre if acc else 0) + ea * eb
        r = t & 0xFFFFFFFF
        se = (0xFFFF if r >> 31 else 0) if signed else (t >> 32 if acc else 0)
        exp += [r & 0xFFFF, r >> 16, se]
    res, _ = run_prog(tmp_path, body, mpy=16)
    assert res.returncode == 0, res.stderr
    assert unpack(res.stdout, len(exp)) == exp


@pytest.mark.parametrize("mpy", [32, 16])
def test_op1_write_keeps_the_result(mpy, tmp_path):
    # Guide: writing OP1 selects the operation, only the OP2 write starts it, so the
    # previous result (SUMEXT included) is still there after the next OP1 write (the
    # 16-bit kernels of arch/msp430x read a MAC's carry there) and is replaced by the
    # next OP2 write.
    body = [write(RESLO, 0xFFFF), write(RESHI, 0xFFFF), write(MAC, 0xFFFF), write(OP2, 0xFFFF),
            "  nop", "  nop", write(MAC, 3), write(MPY, 5)]
    body += emit_reads([RESLO, RESHI, SUMEXT])
    body += [write(OP2, 7)] + emit_reads([RESLO, RESHI, SUMEXT])
    res, _ = run_prog(tmp_path, body, mpy=mpy)
    assert res.returncode == 0, res.stderr
    t = 0xFFFFFFFF + 0xFFFF * 0xFFFF
    assert unpack(res.stdout, 6) == [t & 0xFFFF, (t >> 16) & 0xFFFF, 1, 35, 0, 0]


def test_mpy16_has_no_mpy32_registers(tmp_path):
    body = ["bad:", write(MPY32L, 1)]
    res, elf = run_prog(tmp_path, body, mpy=16)
    assert res.returncode == 205 and "--mpy 16" in res.stderr and f"PC 0x{_bad_pc(elf):05x}" in res.stderr
    res, _ = run_prog(tmp_path, body, mpy=32, name="m32")
    assert res.returncode == 0
