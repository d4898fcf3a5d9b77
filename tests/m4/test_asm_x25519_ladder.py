# SPDX-License-Identifier: MIT
"""The X25519 scalar multiplication of arch/cortex-m4/x25519_scalarmult.S on the unicorn
Thumb-2 (M-class) engine, against outside references: RFC 7748 vectors, libsodium
(PyNaCl) and Python big integers.

  * mb_x25519_addsub / mb_x25519_addsub_reg (s = f + g over g, d = f - g in r0-r7) and
    mb_x25519_sel (r0-r7 = mask ? Y : X): edge and random inputs, congruence mod p, outputs
    < 2^256 (read from 8 words), the documented clobber set, no stack use.
  * mb_fe25519_invert (AAPCS): 1/f mod p, 0 for f = 0 mod p, aliasing.
  * mb_x25519_scalarmult (AAPCS), plain and with [DS16]'s randomized start: RFC 7748
    section 5.2 vectors (tests/vectors.py) and the first iterated value, random keys
    against libsodium, u >= p, bit 255 set, u = 0, unaligned buffers, out aliasing u, a
    key with k_0 = 1 against RFC 7748's ladder in Python. Every AAPCS call is checked
    for stack balance and r4-r11 (arm_harness), and that all the stack it used is zero
    afterwards (the wipe) with nothing touched below the wiped area."""
import random

import pytest
from unicorn import arm_const as A

from arm_harness import RAM, STOP, arm_cpu, get, put
from conftest import REPO

P = 2**255 - 19
W32 = 2**32 - 1
REGS = [getattr(A, f"UC_ARM_REG_R{i}") for i in range(13)]
SP0 = RAM + 0x80000          # arm_harness's sp at every call
EDGES = sorted(set(
    [0, 1, 2, 19, 38, 121666, P - 1, P, P + 1, 2 * P - 1, 2 * P, 2**255 - 1, 2**255,
     2**256 - 39, 2**256 - 38, 2**256 - 1, W32, 2**224, 2**224 - 1]
    + [W32 << (32 * i) for i in range(8)]
    + [2**256 - 1 - (W32 << (32 * i)) for i in range(8)]))


@pytest.fixture(scope="module")
def cpu(tmp_path_factory):
    srcs = [p for p in sorted((REPO / "arch" / "cortex-m4").glob("*.S"))
            if not p.name.startswith(("fep256_", "p256_"))]
    return arm_cpu(tmp_path_factory.mktemp("x25519asm"), srcs, ("mb_fe25519_", "mb_x25519_"))


def words(x):
    return [(x >> (32 * i)) & W32 for i in range(8)]


def run_internal(uc, call, name, regs):
    """Run an internal routine with r0..r12 preset (missing ones get markers); returns
    the registers after it. Checks sp balance and that nothing was written below sp."""
    init = [0x5A5A_0000 + i for i in range(13)]
    for i, v in regs.items():
        init[i] = v
    for r, v in zip(REGS, init):
        uc.reg_write(r, v)
    below = bytes(range(256))
    uc.mem_write(SP0 - 256, below)
    uc.reg_write(A.UC_ARM_REG_SP, SP0)
    uc.reg_write(A.UC_ARM_REG_LR, STOP | 1)
    uc.emu_start(call.syms[name] | 1, STOP, count=100_000)
    assert uc.reg_read(A.UC_ARM_REG_PC) == STOP, f"{name} did not return"
    assert uc.reg_read(A.UC_ARM_REG_SP) == SP0, f"{name} unbalanced stack"
    assert bytes(uc.mem_read(SP0 - 256, 256)) == below, f"{name} used the stack"
    return [uc.reg_read(r) for r in REGS], init


def regval(out):
    return sum(v << (32 * i) for i, v in enumerate(out[:8]))


F, G = RAM + 0x1000, RAM + 0x1100


def test_addsub(cpu):
    uc, call = cpu
    rng = random.Random(1)
    pairs = [(a, b) for a in EDGES for b in EDGES]
    pairs += [(rng.getrandbits(256), rng.getrandbits(256)) for _ in range(1500)]
    for f, g in pairs:
        for name, regs in (("mb_x25519_addsub", {8: F, 12: G}),
                           ("mb_x25519_addsub_reg", {**dict(enumerate(words(f))), 12: G})):
            put(uc, F, f)
            put(uc, G, g)
            out, _ = run_internal(uc, call, name, regs)
            s, d = get(uc, G), regval(out)
            assert s % P == (f + g) % P and d % P == (f - g) % P, (name, hex(f), hex(g))
            assert out[12] == G and get(uc, F) == f      # r12 kept, f untouched


def test_sel(cpu):
    uc, call = cpu
    rng = random.Random(2)
    for mask in (0, W32, 0, W32):
        x, y = rng.getrandbits(256), rng.getrandbits(256)
        put(uc, F, x)
        put(uc, G, y)
        out, _ = run_internal(uc, call, "mb_x25519_sel", {0: mask, 10: F, 11: G})
        assert regval(out) == (y if mask else x)
        assert (get(uc, F), get(uc, G)) == (x, y)


WIPE_BELOW = 48             # x25519_scalarmult.S: bytes below its frame it zeroes


def stack_is_wiped(uc, frame):
    """Everything the call used on the stack is zero afterwards: its frame and the
    callees' area below it (the 36 bytes of saved registers just below the caller's sp
    are not secret), and nothing below that area was touched."""
    depth = 36 + frame + WIPE_BELOW
    used = bytes(uc.mem_read(SP0 - depth, depth - 36)) == bytes(depth - 36)
    untouched = bytes(uc.mem_read(SP0 - 0x800, 0x800 - depth)) == b"\xa5" * (0x800 - depth)
    return used and untouched


def dirty_stack(uc):
    uc.mem_write(SP0 - 0x800, b"\xa5" * 0x800)


def test_invert(cpu):
    uc, call = cpu
    rng = random.Random(3)
    for f in EDGES + [rng.getrandbits(256) for _ in range(12)]:
        put(uc, F, f)
        dirty_stack(uc)
        call("mb_fe25519_invert", G, F)
        want = pow(f, P - 2, P)
        assert get(uc, G) % P == want, hex(f)
        assert stack_is_wiped(uc, 216)
    put(uc, F, 12345)
    call("mb_fe25519_invert", F, F)                 # h aliases f
    assert get(uc, F) % P == pow(12345, P - 2, P)


OUT, K, U, RND = RAM + 0x2000, RAM + 0x2100, RAM + 0x2200, RAM + 0x2300


def scalarmult(uc, call, k, u, rnd=None, align=0):
    out, kk, uu, rr = OUT + align, K + align, U + align, RND + align
    uc.mem_write(kk, bytes(k))
    uc.mem_write(uu, bytes(u))
    if rnd is not None:
        uc.mem_write(rr, bytes(rnd))
    dirty_stack(uc)
    call("mb_x25519_scalarmult", out, kk, uu, rr if rnd is not None else 0)
    assert stack_is_wiped(uc, 248 if rnd is not None else 216)
    return bytes(uc.mem_read(out, 32))


def clamp(k):
    k = bytearray(k)
    k[0] &= 248
    k[31] &= 127
    k[31] |= 64
    return bytes(k)


def test_rfc7748_vectors(cpu):
    """RFC 7748 section 5.2 (cryptography_vectors' copy, tests/vectors.py) and the first
    iterations of its iterated test, plain and randomized."""
    from vectors import RFC7748_ITERATED, rfc7748
    uc, call = cpu
    rnd = bytes(range(100, 132))
    for k, u, want in rfc7748():
        assert scalarmult(uc, call, clamp(k), u) == want
        assert scalarmult(uc, call, clamp(k), u, rnd, align=1) == want
    k = u = (9).to_bytes(32, "little")
    for _ in range(1):
        k, u = scalarmult(uc, call, clamp(k), u), k
    assert k == RFC7748_ITERATED[1]


def test_against_libsodium(cpu):
    """Random keys and u (including u >= p, bit 255 set, u = 0, small-order points),
    plain and randomized (lambda random; rnd = 0, or only bits 0 and 255 set, meaning
    lambda = 2; only the top half random), unaligned buffers."""
    import nacl.bindings as nb
    uc, call = cpu
    rng = random.Random(4)
    us = [rng.randbytes(32) for _ in range(6)]
    us += [(P + 5).to_bytes(32, "little"), (2**256 - 1).to_bytes(32, "little"), bytes(32),
           (1).to_bytes(32, "little"),
           bytes.fromhex("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800")]
    for i, u in enumerate(us):
        k = clamp(rng.randbytes(32))
        u_masked = u[:31] + bytes([u[31] & 127])
        try:
            want = nb.crypto_scalarmult(k, u_masked)
        except Exception:       # libsodium refuses an all-zero result
            want = bytes(32)
        assert scalarmult(uc, call, k, u, align=i % 4) == want, i
        rnd = [rng.randbytes(32), bytes(32), bytes(16) + rng.randbytes(16),
               b"\x01" + bytes(30) + b"\x80"][i % 4]
        assert scalarmult(uc, call, k, u, rnd, align=(i + 1) % 4) == want, i


def test_out_aliases_u_and_low_bit(cpu):
    """out may alias u (libsodium); a key with k_0 = 1 (not clamped there) takes the
    other side of the final select: compared with RFC 7748's ladder in Python."""
    uc, call = cpu
    rng = random.Random(5)
    k = clamp(rng.randbytes(32))
    u = (9).to_bytes(32, "little")
    uc.mem_write(U, u)
    uc.mem_write(K, k)
    call("mb_x25519_scalarmult", U, K, U, 0)
    import nacl.bindings as nb
    assert bytes(uc.mem_read(U, 32)) == nb.crypto_scalarmult(k, u)
    # k_0 = 1: compare with a Python Montgomery ladder (RFC 7748 pseudo-code).
    k_odd = bytearray(k)
    k_odd[0] |= 1
    assert scalarmult(uc, call, bytes(k_odd), u) == rfc7748_ladder(int.from_bytes(k_odd, "little"), 9)


def rfc7748_ladder(k, u):
    """RFC 7748 section 5's pseudo-code over Python integers (bits 254..0 of k)."""
    x1, x2, z2, x3, z3, swap = u, 1, 0, u, 1, 0
    for t in reversed(range(255)):
        kt = (k >> t) & 1
        swap ^= kt
        if swap:
            x2, x3, z2, z3 = x3, x2, z3, z2
        swap = kt
        A_ = (x2 + z2) % P; AA = A_ * A_ % P; B_ = (x2 - z2) % P; BB = B_ * B_ % P
        E = (AA - BB) % P; C = (x3 + z3) % P; D = (x3 - z3) % P
        DA, CB = D * A_ % P, C * B_ % P
        x3, z3 = (DA + CB) ** 2 % P, x1 * (DA - CB) ** 2 % P
        x2, z2 = AA * BB % P, E * (AA + 121665 * E) % P
    if swap:
        x2, z2 = x3, z3
    return (x2 * pow(z2, P - 2, P) % P).to_bytes(32, "little")
