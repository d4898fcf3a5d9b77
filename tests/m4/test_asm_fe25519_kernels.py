# SPDX-License-Identifier: MIT
"""The GF(2^255-19) multiplication and squaring kernels of arch/cortex-m4/ (fe25519_mul.S,
fe25519_sqr.S) against Python big integers, on the unicorn Thumb-2 (M-class) engine.

Register entries (the X25519 ladder's interface): mb_fe25519_mul_reg (r1 = &f, r2 = &g ->
h in r0-r7) and mb_fe25519_sqr_reg (f in r0-r7 -> h in r0-r7), clobbering only r8-r12,
sp balanced, nothing written above sp, at most 48 bytes below it. C entries
mb_fe25519_mul/_sqr (AAPCS): results, aliasing, callee-saved registers.
Every output must be < 2^256 (it is read from 8 words) and congruent mod p = 2^255-19."""
import random

import pytest
from unicorn import arm_const as A

from arm_harness import RAM, STOP, arm_cpu, get, put
from conftest import REPO

P = 2**255 - 19
W32 = 2**32 - 1
EDGES = sorted(set(
    [0, 1, 2, 19, 38, 121666, P - 1, P, P + 1, 2 * P - 1, 2 * P, 2**255 - 1, 2**255,
     2**255 + 1, 2**256 - 1, W32, 2**128 - 1, 2**128, 2**224, 2**224 - 1]
    + [2**256 - 38 + k for k in range(38)]                       # 2^256-38 .. 2^256-1
    + [W32 << (32 * i) for i in range(8)]                        # single-word values
    + [1 << (32 * i) for i in range(8)]
    + [sum(W32 << (64 * i) for i in range(4)), sum(W32 << (64 * i + 32) for i in range(4))]
    + [2**256 - 1 - (W32 << (32 * i)) for i in range(8)]))       # all-ones but one word
REGS = [getattr(A, f"UC_ARM_REG_R{i}") for i in range(13)]
SP0 = RAM + 0x80000
FRAME = 48                  # bytes below sp a _reg routine may use
GUARD = 256                 # bytes checked around the frame


@pytest.fixture(scope="module")
def cpu(tmp_path_factory):
    ac = REPO / "arch" / "cortex-m4"
    return arm_cpu(tmp_path_factory.mktemp("kern"),
                   [ac / "fe25519_mul.S", ac / "fe25519_sqr.S"], ("mb_fe25519_",))


def words(x):
    return [(x >> (32 * i)) & W32 for i in range(8)]


def run_reg(uc, call, name, regs, above=b""):
    """Run a _reg routine with r0..r12 = regs (missing ones get marker values) and
    `above` stored at sp. Returns r0-r7 as an integer. Checks that it returns to lr with
    sp balanced (r0-r12 are all outputs or allowed clobbers, so nothing else is left to
    keep) and that memory outside [sp - 48, sp) is unchanged: nothing written above sp,
    at most 48 bytes below it."""
    init = [0x5A5A_0000 + i for i in range(13)]
    init[:len(regs)] = regs
    for r, v in zip(REGS, init):
        uc.reg_write(r, v)
    lo, hi = SP0 - FRAME - GUARD, SP0 + GUARD
    fill = bytes((i * 7 + 3) & 0xFF for i in range(hi - lo))
    uc.mem_write(lo, fill)
    uc.mem_write(SP0, above)
    before = bytes(uc.mem_read(lo, hi - lo))
    uc.reg_write(A.UC_ARM_REG_SP, SP0)
    uc.reg_write(A.UC_ARM_REG_LR, STOP | 1)
    uc.emu_start(call.syms[name] | 1, STOP, count=100_000)
    assert uc.reg_read(A.UC_ARM_REG_PC) == STOP, f"{name} did not return"
    assert uc.reg_read(A.UC_ARM_REG_SP) == SP0, f"{name} unbalanced stack"
    after = bytes(uc.mem_read(lo, hi - lo))
    f0 = SP0 - FRAME - lo
    assert after[:f0] == before[:f0], f"{name} wrote more than {FRAME} bytes below sp"
    assert after[f0 + FRAME:] == before[f0 + FRAME:], f"{name} wrote above sp"
    out = [uc.reg_read(r) for r in REGS[:8]]
    return sum(w << (32 * i) for i, w in enumerate(out))


def check(h, expect, what):
    assert 0 <= h < 2**256
    assert h % P == expect % P, what


def pairs(n, seed):
    rng = random.Random(seed)
    ps = [(a, b) for a in EDGES for b in EDGES[::3]]
    ps += [(rng.getrandbits(256), rng.getrandbits(256)) for _ in range(n)]
    ps += [(rng.choice(EDGES), rng.getrandbits(256)) for _ in range(n // 4)]
    return ps


def singles(n, seed):
    rng = random.Random(seed)
    return EDGES + [rng.getrandbits(256) for _ in range(n)] + \
        [sum(rng.choice((0, W32, 1, W32 - 1)) << (32 * i) for i in range(8)) for _ in range(200)]


def test_mul_reg(cpu):
    uc, call = cpu
    F, G = RAM + 0x1000, RAM + 0x1100
    for f, g in pairs(3000, "mul_reg"):
        put(uc, F, f)
        put(uc, G, g)
        h = run_reg(uc, call, "mb_fe25519_mul_reg", [0xDEAD, F, G])
        check(h, f * g, f"mul_reg({f:#x}, {g:#x})")


def test_mul_reg_operands_on_callers_stack(cpu):
    """f and g at sp and sp + 32 (the ladder keeps them in its frame), also f == g."""
    uc, call = cpu
    rng = random.Random(5)
    for _ in range(300):
        f, g = rng.getrandbits(256), rng.choice([rng.getrandbits(256)] + EDGES)
        above = f.to_bytes(32, "little") + g.to_bytes(32, "little")
        h = run_reg(uc, call, "mb_fe25519_mul_reg", [0, SP0, SP0 + 32], above)
        check(h, f * g, "mul_reg on stack")
        h = run_reg(uc, call, "mb_fe25519_mul_reg", [0, SP0 + 32, SP0 + 32], above)
        check(h, g * g, "mul_reg f == g")


def test_sqr_reg(cpu):
    uc, call = cpu
    for f in singles(4000, "sqr_reg"):
        h = run_reg(uc, call, "mb_fe25519_sqr_reg", words(f))
        check(h, f * f, f"sqr_reg({f:#x})")


def test_reg_chains(cpu):
    """Outputs fed back as inputs (the ladder never reduces in between)."""
    uc, call = cpu
    F, G = RAM + 0x1000, RAM + 0x1100
    rng = random.Random(9)
    x = 2**256 - 1
    for _ in range(1000):
        if rng.random() < 0.5:
            h = run_reg(uc, call, "mb_fe25519_sqr_reg", words(x))
            check(h, x * x, "sqr chain")
        else:
            g = rng.choice(EDGES + [rng.getrandbits(256)])
            put(uc, F, x)
            put(uc, G, g)
            h = run_reg(uc, call, "mb_fe25519_mul_reg", [0, F, G])
            check(h, x * g, "mul chain")
        x = h


def test_c_entries(cpu):
    """mb_fe25519_mul/_sqr: results, callee-saved registers (call() checks r4-r11
    and sp), and every aliasing of h with f and g."""
    uc, call = cpu
    H, F, G = RAM + 0x2000, RAM + 0x2100, RAM + 0x2200
    for f, g in pairs(800, "c_entries"):
        put(uc, F, f)
        put(uc, G, g)
        call("mb_fe25519_mul", H, F, G)
        check(get(uc, H), f * g, "mb_fe25519_mul")
        call("mb_fe25519_sqr", H, F)
        check(get(uc, H), f * f, "mb_fe25519_sqr")
    rng = random.Random(13)
    for _ in range(100):
        f, g = rng.getrandbits(256), rng.getrandbits(256)
        put(uc, F, f)
        put(uc, G, g)
        call("mb_fe25519_mul", F, F, G)           # h == f
        check(get(uc, F), f * g, "mul h == f")
        put(uc, F, f)
        call("mb_fe25519_mul", G, F, G)           # h == g
        check(get(uc, G), f * g, "mul h == g")
        put(uc, F, f)
        call("mb_fe25519_mul", F, F, F)           # h == f == g
        check(get(uc, F), f * f, "mul h == f == g")
        put(uc, F, f)
        call("mb_fe25519_sqr", F, F)              # h == f
        check(get(uc, F), f * f, "sqr h == f")


def test_c_entries_write_only_h(cpu):
    uc, call = cpu
    H, F, G = RAM + 0x3020, RAM + 0x3100, RAM + 0x3200
    uc.mem_write(RAM + 0x3000, b"\xa5" * 0x300)
    put(uc, F, 3)
    put(uc, G, 5)
    call("mb_fe25519_mul", H, F, G)
    mem = bytes(uc.mem_read(RAM + 0x3000, 0x300))
    assert mem[:0x20] == b"\xa5" * 0x20 and mem[0x40:0x100] == b"\xa5" * 0xC0
    assert get(uc, H) % P == 15
