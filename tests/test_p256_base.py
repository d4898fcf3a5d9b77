# SPDX-License-Identifier: MIT
"""P-256 fixed-base key generation (src/curve/p256_base.c, the signed comb) against OpenSSL
through `cryptography`, on every host radix build (r16 builds use the 4-comb 2 KB table,
r32/r64 the 16-comb 8 KB one): random scalars, every scalar < 2^8, 1, 2, n-1, n-2, long
runs of zero / one bits, the comb's exceptional scalars; the same points as the co-Z
ladder (ECDH with G); the table generator's output equals the committed table; and the
exceptional-case argument of docs/CONSTANT_TIME.md ("Fixed-base P-256") checked with
Python integers."""
import ctypes
import importlib.util
import random
import subprocess

import pytest
from conftest import BUILD, REPO
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

import motebox

N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
GX = 0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296
GY = 0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5
RANDOM = 2000                 # random scalars per radix build
COMB_SIZES = {16: 4, 4: 16}    # combs -> spacing (4 teeth, combs * 4 * spacing = 256)


def b32(x):
    return x.to_bytes(32, "big")


def ossl_pub(k):
    return ec.derive_private_key(k, ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def c_base(lib, k):
    out = ctypes.create_string_buffer(b"\xa5" * 65, 65)
    return lib.c.mb_p256_base(out, b32(k)), out.raw


def digits(k):
    """The comb's recoding, independently: k odd -> d_i = +-1 with k = sum d_i 2^i."""
    kp = (k + 2**256 - 1) // 2
    return [1 if (kp >> i) & 1 else -1 for i in range(256)]


def exceptional(combs):
    """Odd k in [1, n) for which the last mixed addition (column 0, top comb) meets
    Q = entry (k = 2e mod n) or Q = O (k = e mod n), e the entry's integer: all 16 sign
    patterns of the entry enumerated, each kept iff k's own digits produce it."""
    s = COMB_SIZES[combs]
    pos = [s * (u + 4 * (combs - 1)) for u in range(4)]
    found = set()
    for m in range(16):
        d = [1 if (m >> u) & 1 else -1 for u in range(4)]
        e = sum(di << p for di, p in zip(d, pos))
        for k in (2 * e % N, e % N):
            if k % 2 and [digits(k)[p] for p in pos] == d:
                found.add(k)
    return found


def original_scalars(k_odd):
    """The scalars the library maps to k_odd: itself and n - k_odd (even)."""
    return {k_odd, N - k_odd}


EXCEPTIONAL = sorted(set().union(*(original_scalars(k) for c in COMB_SIZES
                                   for k in exceptional(c))))
EDGES = sorted(k for k in set(range(1, 256)) | {N - 1, N - 2, N - 3, N - 256, (N - 1) // 2, (N + 1) // 2}
               | {2**i for i in range(256)} | {2**i - 1 for i in range(1, 257) if 2**i - 1 < N}
               | {N - 2**i for i in range(256)} | {2**255 + 2**i for i in range(255)}
               | {(2**256 - 1) ^ ((2**64 - 1) << 96), (2**128 - 1) << 64, N >> 1 << 1}
               | set(EXCEPTIONAL) if 0 < k < N)


def test_exceptional_case_argument():
    """docs/CONSTANT_TIME.md: for every step but the last, the accumulator Q and the
    entry E are sums of +-2^(i-j) over disjoint position sets whose total weight is < n,
    so Q != +-E and Q != O for every k; at the last step only k = 2e (mod n) can occur,
    for exactly one odd k per table size."""
    for combs, s in COMB_SIZES.items():
        order = [(j, c) for j in range(s - 1, -1, -1) for c in range(combs)]
        over = []
        for j, c in order[1:]:
            weight = sum(2**(i - j) for i in range(256)
                         if i % s > j or (i % s == j and i // (4 * s) <= c))
            if weight >= N:
                over.append((j, c))
        assert over == [(0, combs - 1)], (combs, over)
        exc = exceptional(combs)
        assert len(exc) == 1, (combs, exc)
        (k,) = exc
        assert (N - k) == {16: 0x2222 << 240, 4: 0x20001FFFDFFFE << 192}[combs]


@pytest.mark.parametrize("k", EXCEPTIONAL, ids=hex)
def test_exceptional_scalars(lib, k):
    assert c_base(lib, k) == (0, ossl_pub(k))


def test_edge_scalars(lib):
    for k in EDGES:
        assert c_base(lib, k) == (0, ossl_pub(k)), hex(k)


def test_random_scalars(lib):
    rng = random.Random(1200 + lib.radix)
    for _ in range(RANDOM):
        k = rng.randrange(1, N)
        assert c_base(lib, k) == (0, ossl_pub(k)), hex(k)


def test_rejects_out_of_range(lib):
    for k in (0, N, N + 1, 2**256 - 1):
        assert c_base(lib, k) == (-1, bytes(65)), hex(k)
        with pytest.raises(motebox.BadKey):
            lib.p256_base(b32(k))


def test_equals_ladder(lib):
    """ECDH with G runs the co-Z ladder: its x must be the comb's."""
    g = b"\x04" + b32(GX) + b32(GY)
    rng = random.Random(1300 + lib.radix)
    for k in [1, 2, N - 1, N - 2] + [rng.randrange(1, N) for _ in range(50)]:
        assert lib.p256_ecdh(b32(k), g) == c_base(lib, k)[1][1:33], hex(k)


def test_generator_matches_committed_table(tmp_path):
    gen = REPO / "tools" / "gen_p256_base_table.py"
    subprocess.run(["python3", str(gen), str(tmp_path)], check=True, timeout=120)
    for name in ("p256_base_table.h", "p256_base_table.c"):
        assert (tmp_path / name).read_text() == (REPO / "src" / "curve" / name).read_text(), name


def test_table_entries_are_the_claimed_multiples():
    """The generator's points, checked against OpenSSL (its own arithmetic)."""
    spec = importlib.util.spec_from_file_location("gen", REPO / "tools" / "gen_p256_base_table.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    for combs in COMB_SIZES:
        rows = gen.table(combs)
        for c in (0, combs // 2, combs - 1):
            for m in range(8):
                e = gen.entry_scalar(combs, c, m)
                x, y = rows[c][m]
                ref = ossl_pub(e % N)
                assert ref == b"\x04" + b32(x) + b32(y), (combs, c, m)


NOFB = BUILD / "host" / "nofb" / "libmotebox.so"


@pytest.mark.skipif(not NOFB.exists(), reason="MB_NO_FIXED_BASE build not made (mk/checks.mk)")
def test_no_fixed_base_build():
    """MB_NO_FIXED_BASE: no table in the library, mb_p256_base through the ladder."""
    lib = motebox.Library(NOFB)
    assert not hasattr(lib.c, "mb_p256_base_table")
    rng = random.Random(1400)
    for k in [1, 2, N - 1, N - 2] + EXCEPTIONAL + [rng.randrange(1, N) for _ in range(50)]:
        assert c_base(lib, k) == (0, ossl_pub(k)), hex(k)
    assert c_base(lib, 0) == (-1, bytes(65))
