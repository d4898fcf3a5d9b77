# SPDX-License-Identifier: MIT
"""GF(p256) of every field backend (r16, r32, r64) against Python integers.

The test-only shim tests/p256/fep256_shim.c (built by mk/checks.mk into
build/host/rNN/libfep256_test.so) passes raw limb values as 32 big-endian bytes, so each
operation's exact result is checked: Montgomery products f*g/2^256 mod p, results always
fully reduced below p, flags exact."""
import ctypes
import random

import pytest
from conftest import BUILD, RADIXES

P = 2**256 - 2**224 + 2**192 + 2**96 - 1
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
R = 2**256
RINV = pow(R, -1, P)
RANDOM = 10_000          # random cases per operation and backend (mul, sqr, add, sub)


@pytest.fixture(scope="module", params=RADIXES, ids=lambda r: f"r{r}")
def fe(request):
    path = BUILD / "host" / f"r{request.param}" / "libfep256_test.so"
    if not path.exists():
        pytest.fail(f"{path} missing: run `make` (mk/checks.mk builds it)")
    c = ctypes.CDLL(str(path))
    assert c.t_radix() == request.param
    assert c.t_size() == 32
    for name in ("t_frombytes", "t_sqrt", "t_iszero", "t_equal", "t_isodd", "t_scalar_ok"):
        getattr(c, name).restype = ctypes.c_uint
    return c


def b32(x):
    return x.to_bytes(32, "big")


def i32(b):
    return int.from_bytes(b, "big")


def call(fe, name, *args):
    out = ctypes.create_string_buffer(32)
    getattr(fe, name)(out, *[b32(a) for a in args])
    return i32(out.raw)


# Values below p that stress carries and the special reduction: word patterns of p,
# both ends of the range, powers of two at the pattern boundaries.
EDGES_BELOW_P = sorted({0, 1, 2, 3, P - 1, P - 2, P - 3, (P - 1) // 2, (P + 1) // 2,
                        R - P, R % P * 2 % P, 2**255, 2**255 - 1, 2**224, 2**224 - 1,
                        2**192, 2**192 - 1, 2**96, 2**96 - 1, 2**128 - 1, 2**64 - 1,
                        2**32 - 1, 2**16 - 1, P - 2**96, P - 2**192, 2**256 - 2**224 - 1,
                        RINV, R * R % P})
# Raw 256-bit values around p and 2^256 (for the byte loaders and reduce_once).
EDGES_RAW = sorted({0, 1, P - 2, P - 1, P, P + 1, P + 2, 2 * P - R if 2 * P > R else 0,
                    R - 1, R - 2, R - P, 2**255, 2**224 - 1, R - 2**224})


def patterned(rng):
    """A random value built from whole 16-bit words 0, 1, 0xFFFF or random: carries."""
    v = 0
    for _ in range(16):
        v = (v << 16) | rng.choice((0, 1, 0xFFFF, 0xFFFE, 0x8000, rng.getrandbits(16)))
    return v


def operands(seed, count):
    rng = random.Random(seed)
    vals = []
    for i in range(count):
        v = patterned(rng) if i % 4 == 0 else rng.randrange(P)
        vals.append(v % P)
    return vals


def pairs(seed, count):
    a, b = operands(seed, count), operands(seed + 1, count)
    edge = [(x, y) for x in EDGES_BELOW_P for y in EDGES_BELOW_P]
    return edge + list(zip(a, b))


def test_mul(fe):
    for a, b in pairs(1, RANDOM):
        assert call(fe, "t_mul", a, b) == a * b * RINV % P, (hex(a), hex(b))


def test_sqr(fe):
    for a in EDGES_BELOW_P + operands(3, RANDOM):
        assert call(fe, "t_sqr", a) == a * a * RINV % P, hex(a)


def test_add_sub_neg(fe):
    for a, b in pairs(5, RANDOM):
        assert call(fe, "t_add", a, b) == (a + b) % P, (hex(a), hex(b))
        assert call(fe, "t_sub", a, b) == (a - b) % P, (hex(a), hex(b))
    for a in EDGES_BELOW_P + operands(7, 1000):
        assert call(fe, "t_neg", a) == (-a) % P


def test_frombytes_tobytes_range_flag(fe):
    rng = random.Random(9)
    vals = EDGES_RAW + [rng.getrandbits(256) for _ in range(2000)] + \
        [P + rng.randrange(-1000, 1000) for _ in range(200)]
    for v in vals:
        out = ctypes.create_string_buffer(32)
        lt = fe.t_frombytes(out, b32(v))
        assert i32(out.raw) == v          # raw load/store round trip
        assert lt == (1 if v < P else 0), hex(v)


def test_reduce_once(fe):
    rng = random.Random(11)
    for v in EDGES_RAW + [rng.getrandbits(256) for _ in range(2000)]:
        assert call(fe, "t_reduce_once", v) == v % P, hex(v)


def test_montgomery_conversion(fe):
    for a in EDGES_BELOW_P + operands(13, 1000):
        assert call(fe, "t_tomont", a) == a * R % P
        assert call(fe, "t_frommont", a) == a * RINV % P


def test_invert(fe):
    # Montgomery form: input a represents a/R; 1/(a/R) in Montgomery form is R^2/a.
    for a in EDGES_BELOW_P + operands(17, 300):
        expect = 0 if a == 0 else R * R * pow(a, -1, P) % P
        assert call(fe, "t_invert", a) == expect, hex(a)


def test_sqrt(fe):
    rng = random.Random(19)
    for a in EDGES_BELOW_P + operands(21, 300):
        plain = a * RINV % P
        out = ctypes.create_string_buffer(32)
        ok = fe.t_sqrt(out, b32(a))
        is_square = plain == 0 or pow(plain, (P - 1) // 2, P) == 1
        assert ok == (1 if is_square else 0), hex(a)
        if is_square:
            root = i32(out.raw) * RINV % P
            assert root * root % P == plain
    # squares of random elements always have roots
    for _ in range(100):
        x = rng.randrange(P)
        a = x * x % P * R % P
        out = ctypes.create_string_buffer(32)
        assert fe.t_sqrt(out, b32(a)) == 1
        assert i32(out.raw) * RINV % P in (x, P - x)


def test_predicates_and_selects(fe):
    for a in EDGES_BELOW_P + operands(23, 500):
        assert fe.t_iszero(b32(a)) == (1 if a == 0 else 0)
        assert fe.t_isodd(b32(a)) == (a * RINV % P) & 1
        assert fe.t_equal(b32(a), b32(a)) == 1
        b = (a + 1) % P
        assert fe.t_equal(b32(a), b32(b)) == 0
        for bit in (0, 1):
            x, y = ctypes.create_string_buffer(b32(a), 32), ctypes.create_string_buffer(b32(b), 32)
            fe.t_cswap(x, y, bit)
            assert (i32(x.raw), i32(y.raw)) == ((b, a) if bit else (a, b))
            x = ctypes.create_string_buffer(b32(a), 32)
            fe.t_cmov(x, b32(b), bit)
            assert i32(x.raw) == (b if bit else a)


def test_scalar_range(fe):
    rng = random.Random(29)
    vals = [0, 1, 2, N - 2, N - 1, N, N + 1, R - 1, 2**255, N - 2**128, N + 2**128] + \
        [rng.getrandbits(256) for _ in range(2000)] + [N + rng.randrange(-500, 500) for _ in range(200)]
    for k in vals:
        assert fe.t_scalar_ok(b32(k)) == (1 if 0 < k < N else 0), hex(k)
