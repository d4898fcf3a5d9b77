# SPDX-License-Identifier: MIT
"""GF(2^255-19): every operation of every field backend against Python integers.

The backend is reached through build/host/rNN/libfe25519_test.so (tests/host/fe25519_shim.c),
which takes and returns raw representations in batches. Each operation runs on >= 10,000
random inputs (biased towards carry-heavy limb patterns) plus every pair of edge values.

Representations: r16/r32 hold any integer in [0, 2^256) in 16/8 little-endian limbs (the
struct's bytes are the integer's 32 little-endian bytes on this little-endian host), and
every operation takes any value. r64 holds 5 limbs in radix 2^51 with two bound classes
(src/field/fe25519.h): "tight" (limbs < 2^52: outputs of mul, sqr, mul121666, frombytes,
set, invert; the only inputs add and sub accept) and "loose" (limbs < 2^54: outputs of add
and sub; accepted by everything else). r25 holds 10 limbs in radix 2^25.5 (26, 25, 26, ...
bits, uint32_t) with the same two classes, bounds per limb parity (src/field/fe25519_r25.c):
tight even < 2^26, odd < 2^25 + 2^16; loose even < 3 * 2^26, odd < 3 * 2^25 + 2^16.
Each op is tested on the widest inputs its contract allows, and its outputs are checked
against its output bound.
"""
import ctypes
import random

import pytest

P = 2**255 - 19
N_RANDOM = 10_000

OPS = dict(add=0, sub=1, mul=2, sqr=3, mul121666=4, invert=5, copy=6, frombytes=7,
           tobytes=8, iszero=9, set=10, cswap=11)
ALIAS_F, ALIAS_G = 0x100, 0x200
TIGHT, LOOSE = 2**52, 2**54          # r64 limb bounds (exclusive)
OUT_BOUND = dict(add=LOOSE, sub=LOOSE)   # every other op returns tight values
# r25: limb widths, offsets and per-limb bounds of the two classes.
W25 = [26, 25] * 5
OFF25 = [sum(W25[:i]) for i in range(10)]
TIGHT25 = [2**26, 2**25 + 2**16] * 5
LOOSE25 = [3 * 2**26, 3 * 2**25 + 2**16] * 5
P25 = [2**26 - 19] + [2**w - 1 for w in W25[1:]]       # p in r25 limbs

EDGES = sorted({0, 1, 2, 19, 38, 121665, 121666, P - 1, P, P + 1, P + 19, 2 * P - 1, 2 * P,
                2 * P + 1, 2**255 - 1, 2**255, 2**255 + 18, 2**255 + 19, 2**256 - 39,
                2**256 - 38, 2**256 - 37, 2**256 - 1, 2**128, 2**128 - 1, P // 2,
                (2**256 - 1) // 3, 2**256 - 2**128}
               | {2**k + d for k in range(15, 256, 16) for d in (-1, 0, 1) if 0 <= 2**k + d < 2**256}
               | {2**k + d for k in (51, 102, 153, 204) for d in (-1, 0, 1)}
               | {(2**256 - 1) ^ (2**k - 1) for k in (16, 32, 51, 64, 128, 204, 240)})


class Field:
    """One backend through its shim."""

    def __init__(self, path):
        self.so = ctypes.CDLL(str(path))
        self.so.fet_size.restype = ctypes.c_size_t
        self.so.fet_run.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_char_p,
                                    ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p]
        self.radix = self.so.fet_radix()
        self.size = self.so.fet_size()
        assert self.size == (40 if self.radix in (25, 64) else 32)
        self.limbed = self.radix in (25, 64)   # limb lists with bound classes

    # ---- representation <-> integer ------------------------------------------------
    def enc(self, x):
        """The representation of x (0 <= x < 2^256; for r64/r25 also any list of limbs)."""
        if self.radix == 25:
            if isinstance(x, (list, tuple)):
                limbs = list(x)
            else:
                assert 0 <= x < 2**256
                limbs = [(x >> o) & (2**w - 1) for o, w in zip(OFF25[:9], W25)] + [x >> 230]
            assert len(limbs) == 10 and all(0 <= v < b for v, b in zip(limbs, LOOSE25)), limbs
            return b"".join(v.to_bytes(4, "little") for v in limbs)
        if self.radix == 64:
            if isinstance(x, (list, tuple)):
                limbs = list(x)
            else:
                assert 0 <= x < 2**256
                limbs = [(x >> (51 * i)) & (2**51 - 1) for i in range(4)] + [x >> 204]
            assert all(0 <= v < LOOSE for v in limbs)
            return b"".join(v.to_bytes(8, "little") for v in limbs)
        return x.to_bytes(32, "little")

    def dec(self, raw):
        """(value, limbs) of one representation."""
        if self.radix == 25:
            limbs = [int.from_bytes(raw[4 * i:4 * i + 4], "little") for i in range(10)]
            return sum(v << o for v, o in zip(limbs, OFF25)), limbs
        if self.radix == 64:
            limbs = [int.from_bytes(raw[8 * i:8 * i + 8], "little") for i in range(5)]
            return sum(v << (51 * i) for i, v in enumerate(limbs)), limbs
        w = self.radix // 8
        return int.from_bytes(raw, "little"), [int.from_bytes(raw[i:i + w], "little")
                                              for i in range(0, 32, w)]

    def value(self, x):
        if isinstance(x, (list, tuple)):
            if self.radix == 25:
                return sum(v << o for v, o in zip(x, OFF25))
            return sum(v << (51 * i) for i, v in enumerate(x))
        return x

    def run(self, op, n, a, b=None, bits=None, out_stride=None):
        out = ctypes.create_string_buffer(n * (out_stride or self.size))
        rc = self.so.fet_run(op, n, a, b, bits, out)
        assert rc == 0
        return out.raw

    def results(self, raw, bound=TIGHT):
        """Decoded outputs, each checked against the output bound (r64 limbs)."""
        vals = []
        for i in range(0, len(raw), self.size):
            v, limbs = self.dec(raw[i:i + self.size])
            if self.radix == 64:
                assert all(l < bound for l in limbs), f"r64 limb bound {bound:#x} violated: {limbs}"
            if self.radix == 25:
                b25 = LOOSE25 if bound == LOOSE else TIGHT25
                assert all(l < b for l, b in zip(limbs, b25)), f"r25 limb bound violated: {limbs}"
            vals.append(v)
        return vals


@pytest.fixture(scope="module")
def field(lib):
    """The shim of the backend `lib` (conftest: each of r16, r32, r64) was built with."""
    path = lib.path.parent / "libfe25519_test.so"
    if not path.exists():
        pytest.fail(f"{path} missing: run `make hostcheck`")
    f = Field(path)
    assert f.radix == lib.radix
    return f


def random_inputs(field, rng, n, loose=False):
    """n inputs (as ints or r64 limb lists), carry-heavy: limbs drawn from boundary
    patterns as well as uniformly. loose: r64 limbs up to the loose bound."""
    out = []
    for i in range(n):
        kind = i % 4
        if field.radix == 25:
            bnd = LOOSE25 if loose else TIGHT25
            if kind == 0:      # tight ints stay below 2^255 (the top limb's tight bound)
                out.append(rng.getrandbits(256 if loose else 255))
            elif kind == 1:
                out.append(rng.randrange(P))
            else:
                out.append([rng.choice((0, 1, b - 1, b - 2, 2**w - 1, min(2**w, b - 1), rng.randrange(b),
                                        rng.getrandbits(w)))
                            for b, w in zip(bnd, W25)])
        elif field.radix == 64:
            if kind == 0:
                out.append(rng.getrandbits(256))
            elif kind == 1:
                out.append(rng.randrange(P))
            elif not loose:
                out.append([rng.choice((0, 1, 2**51 - 1, 2**51, 2**52 - 1, 2**52 - 2,
                                        rng.getrandbits(52), rng.getrandbits(51)))
                            for _ in range(5)])
            else:
                out.append([rng.choice((0, 1, 2**52 - 1, 2**53, 2**54 - 1, 2**54 - 2,
                                        rng.getrandbits(54), rng.getrandbits(53)))
                            for _ in range(5)])
        else:
            w = field.radix
            if kind == 0:
                out.append(rng.getrandbits(256))
            elif kind == 1:
                out.append(rng.randrange(P))
            elif kind == 2:
                out.append((rng.choice((1, 2, 3)) * P + rng.randrange(-40, 40)) % 2**256)
            else:
                limbs = [rng.choice((0, 1, 2**w - 1, 2**w - 2, 2**(w - 1), rng.getrandbits(w)))
                         for _ in range(256 // w)]
                out.append(sum(v << (w * j) for j, v in enumerate(limbs)))
    return out


def edge_inputs(field, loose=False):
    xs = list(EDGES)
    if field.radix == 25:
        bnd = LOOSE25 if loose else TIGHT25
        if not loose:
            xs = [x for x in xs if x < 2**255]
        top = [b - 1 for b in bnd]
        xs += [top, [top[0]] + [0] * 8 + [top[9]], [0] + top[1:9] + [0],
               [2**w - 1 for w in W25], P25]
        if loose:
            xs += [[2**w for w in W25], [2 * v for v in P25]]                 # 2p
    elif field.radix == 64:
        m = (LOOSE if loose else TIGHT) - 1
        xs += [[m] * 5, [m, 0, 0, 0, m], [0, m, m, m, 0], [2**51] * 5, [2**51 - 1] * 5,
               [2**51 - 19, 2**51 - 1, 2**51 - 1, 2**51 - 1, 2**51 - 1],       # p
               [2**52 - 38, 2**52 - 2, 2**52 - 2, 2**52 - 2, 2**52 - 2]]       # 2p
        if loose:
            xs += [[2**53 - 76, 2**53 - 4, 2**53 - 4, 2**53 - 4, 2**53 - 4],   # 4p
                   [2**54 - 1, 2**51 - 1, 0, 2**53, 2**54 - 1]]
    return xs


def make_cases(field, loose):
    rng = random.Random(0xF1E1D + field.radix + loose)
    a = random_inputs(field, rng, N_RANDOM, loose)
    b = random_inputs(field, rng, N_RANDOM, loose)
    edges = edge_inputs(field, loose)
    for x in edges:
        for y in edges:
            a.append(x)
            b.append(y)
    return a, b


@pytest.fixture(scope="module")
def cases(field):
    """(a, b) input lists of tight values: random pairs plus all pairs of edges."""
    return make_cases(field, False)


@pytest.fixture(scope="module")
def loose_cases(field, cases):
    """The same for loose values (r64 only; elsewhere every value is accepted alike)."""
    return make_cases(field, True) if field.limbed else cases


def check_binary(field, name, fn, a, b, alias=0):
    n = len(a)
    A = b"".join(field.enc(x) for x in a)
    B = b"".join(field.enc(y) for y in b)
    got = field.results(field.run(OPS[name] | alias, n, A, B), OUT_BOUND.get(name, TIGHT))
    bad = [(field.value(x), field.value(y), g) for x, y, g in zip(a, b, got)
           if g % P != fn(field.value(x), field.value(y)) % P]
    assert not bad, f"{name}: {len(bad)} wrong, first: a={bad[0][0]:#x} b={bad[0][1]:#x} got={bad[0][2]:#x}"


def check_unary(field, name, fn, a, alias=0):
    n = len(a)
    A = b"".join(field.enc(x) for x in a)
    got = field.results(field.run(OPS[name] | alias, n, A), LOOSE if name == "copy" else TIGHT)
    bad = [(field.value(x), g) for x, g in zip(a, got) if g % P != fn(field.value(x)) % P]
    assert not bad, f"{name}: {len(bad)} wrong, first: a={bad[0][0]:#x} got={bad[0][1]:#x}"


BINARY = [("add", lambda x, y: x + y), ("sub", lambda x, y: x - y), ("mul", lambda x, y: x * y)]
UNARY = [("sqr", lambda x: x * x), ("mul121666", lambda x: 121666 * x),
         ("invert", lambda x: pow(x, -1, P) if x % P else 0), ("copy", lambda x: x)]


def inputs_for(name, cases, loose_cases):
    """add and sub take tight inputs; everything else is tested on loose ones."""
    return cases if name in ("add", "sub") else loose_cases


@pytest.mark.parametrize("name,fn", BINARY)
def test_binary(field, cases, loose_cases, name, fn):
    a, b = inputs_for(name, cases, loose_cases)
    check_binary(field, name, fn, a, b)


@pytest.mark.parametrize("name,fn", BINARY)
@pytest.mark.parametrize("alias", [ALIAS_F, ALIAS_G], ids=["h=f", "h=g"])
def test_binary_aliased(field, cases, loose_cases, name, fn, alias):
    a, b = inputs_for(name, cases, loose_cases)
    check_binary(field, name, fn, a[:2000], b[:2000], alias)


@pytest.mark.parametrize("name,fn", UNARY)
@pytest.mark.parametrize("alias", [0, ALIAS_F], ids=["", "h=f"])
def test_unary(field, loose_cases, name, fn, alias):
    a, _ = loose_cases
    check_unary(field, name, fn, a if not alias else a[:2000], alias)


def test_invert_identity(field, loose_cases):
    """invert(x) * x == 1 for x != 0 mod p, and invert(0) == 0."""
    a, _ = loose_cases
    A = b"".join(field.enc(x) for x in a)
    inv = field.run(OPS["invert"], len(a), A)
    prod = field.results(field.run(OPS["mul"], len(a), A, inv))
    for x, v in zip(a, prod):
        assert v % P == (1 if field.value(x) % P else 0)


def test_copy_exact(field, loose_cases):
    a, _ = loose_cases
    A = b"".join(field.enc(x) for x in a[:2000])
    assert field.run(OPS["copy"], 2000, A) == A


def test_tobytes(field, loose_cases):
    """Canonical: exactly x mod p, little-endian, whatever the representation."""
    a, _ = loose_cases
    A = b"".join(field.enc(x) for x in a)
    out = field.run(OPS["tobytes"], len(a), A, out_stride=32)
    for i, x in enumerate(a):
        assert out[32 * i:32 * i + 32] == (field.value(x) % P).to_bytes(32, "little"), hex(field.value(x))


def test_frombytes(field):
    """h = s mod 2^255 exactly (bit 255 ignored), for random and edge byte strings."""
    rng = random.Random(7)
    xs = [rng.getrandbits(256) for _ in range(N_RANDOM)] + [x for x in EDGES]
    xs += [int.from_bytes(bytes(rng.choice((0, 0xFF, 0x80, 0x7F)) for _ in range(32)), "little")
           for _ in range(500)]
    A = b"".join(x.to_bytes(32, "little") for x in xs)
    got = field.results(field.run(OPS["frombytes"], len(xs), A))
    for x, g in zip(xs, got):
        assert g == x % 2**255, hex(x)


def test_roundtrip(field):
    """tobytes(frombytes(s)) == (s mod 2^255) mod p: canonical encodings survive."""
    rng = random.Random(8)
    xs = [rng.getrandbits(255) for _ in range(N_RANDOM)] + [x % 2**255 for x in EDGES]
    A = b"".join(x.to_bytes(32, "little") for x in xs)
    reps = field.run(OPS["frombytes"], len(xs), A)
    out = field.run(OPS["tobytes"], len(xs), reps, out_stride=32)
    for i, x in enumerate(xs):
        assert out[32 * i:32 * i + 32] == (x % P).to_bytes(32, "little")


def test_iszero(field, loose_cases):
    a, _ = loose_cases
    zeros = [0, P, 2 * P]
    if field.radix == 25:
        zeros += [P25, [2 * v for v in P25]]
    if field.radix == 64:
        zeros += [[2**51 - 19, 2**51 - 1, 2**51 - 1, 2**51 - 1, 2**51 - 1],
                  [2**52 - 38, 2**52 - 2, 2**52 - 2, 2**52 - 2, 2**52 - 2],
                  [2**53 - 76, 2**53 - 4, 2**53 - 4, 2**53 - 4, 2**53 - 4]]
    xs = list(a) + zeros * 10
    A = b"".join(field.enc(x) for x in xs)
    out = field.run(OPS["iszero"], len(xs), A, out_stride=4)
    for i, x in enumerate(xs):
        assert int.from_bytes(out[4 * i:4 * i + 4], "little") == (1 if field.value(x) % P == 0 else 0)


def test_set(field):
    cs = list(range(0, 65536, 7)) + [0, 1, 9, 65535]
    A = b"".join(c.to_bytes(2, "little") for c in cs)
    assert field.results(field.run(OPS["set"], len(cs), A)) == cs


def test_cswap(field, loose_cases):
    a, b = loose_cases
    n = len(a)
    rng = random.Random(9)
    bits = bytes(rng.getrandbits(1) for _ in range(n))
    A = b"".join(field.enc(x) for x in a)
    B = b"".join(field.enc(y) for y in b)
    out = field.run(OPS["cswap"], n, A, B, bits, out_stride=2 * field.size)
    S = field.size
    for i in range(n):
        f, g = out[2 * i * S:(2 * i + 1) * S], out[(2 * i + 1) * S:(2 * i + 2) * S]
        x, y = A[i * S:(i + 1) * S], B[i * S:(i + 1) * S]
        assert (f, g) == ((y, x) if bits[i] else (x, y))


def test_chains(field):
    """Long dependent chains (as in the ladder): every op fed by the others, tracked
    against Python integers, catch bounds that only break after many steps. add and sub
    are fed tight values only (the r64 contract); their loose outputs feed the rest."""
    rng = random.Random(10)
    n = 2000
    vals = [rng.getrandbits(255) for _ in range(n)]
    reps = b"".join(field.enc(x) for x in vals)
    others = [rng.getrandbits(255) for _ in range(n)]
    oreps = b"".join(field.enc(x) for x in others)
    fns = {"add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x * y,
           "sqr": lambda x, _: x * x, "mul121666": lambda x, _: 121666 * x}
    ops = ["add", "sqr", "sub", "mul", "mul121666", "sub", "mul121666", "add", "mul",
           "sub", "sqr", "mul", "add", "mul121666", "mul", "sqr"] * 4
    for i, name in enumerate(ops):
        if name in ("add", "sub", "mul"):
            reps = field.run(OPS[name], n, reps, oreps)
        else:
            reps = field.run(OPS[name], n, reps)
        vals = [fns[name](x, y) % P for x, y in zip(vals, others)]
        if name in ("mul", "sqr") and i % 3 == 0:
            oreps, others = reps, vals      # a tight result becomes the second input
        got = field.results(reps, OUT_BOUND.get(name, TIGHT))
        assert all(g % P == v for g, v in zip(got, vals)), name


def mul121666_wrap_inputs():
    """f whose 121666 f, folded once mod 2^256-38, wraps past 2^256 to a value just below
    a multiple of 2^16: the rare path where r16's last +38 carries out of limb 0.
    Found by solving 121666 f = 38 + w (mod 2^256-38) for w in [2^16-38, 2^16)."""
    M = 2**256
    inv = pow(121666 // 2, -1, P)
    out = []
    for w in range(2**16 - 38, 2**16, 2):
        f0 = (38 + w) // 2 * inv % P
        for f in (f0, f0 + P, f0 + 2 * P):
            X = 121666 * f
            s = X % M + 38 * (X >> 256)
            if f < M and s >= M and (s - M) % 2**16 >= 2**16 - 38:
                out.append(f)
    assert len(out) >= 10
    return out


def test_mul121666_wrap_edges(field):
    xs = mul121666_wrap_inputs()
    check_unary(field, "mul121666", lambda x: 121666 * x, xs)
    check_unary(field, "mul121666", lambda x: 121666 * x, xs, ALIAS_F)


def test_ladder_randomization_is_real(field):
    """The randomized ladder ([DS16] Algorithm 1) really changes the projective
    coordinates: (X : Z) differ from the plain ladder's and between rnd values, while X/Z
    stays X25519's answer (libsodium). lambda is rnd with bits 0 and 255 cleared, 2 if
    that is 0, and rho = lambda^2 (src/curve/x25519_ladder.h): rnd = 0 and the rnd values
    that only have those bits set all mean lambda = 2; a bit of the top word alone gives
    another lambda (the whole 32 bytes count)."""
    import nacl.bindings as sodium
    so = field.so
    so.fet_ladder.argtypes = [ctypes.c_char_p] * 5
    rng = random.Random(12)

    def ladder(k, u, rnd):
        x, z = ctypes.create_string_buffer(32), ctypes.create_string_buffer(32)
        so.fet_ladder(x, z, k, u, rnd)
        return int.from_bytes(x.raw, "little"), int.from_bytes(z.raw, "little")

    for _ in range(20):
        k = bytearray(rng.randbytes(32))
        k[0] &= 248
        k[31] = (k[31] & 127) | 64
        k = bytes(k)
        u = sodium.crypto_scalarmult_base(rng.randbytes(32))
        want = int.from_bytes(sodium.crypto_scalarmult(k, u), "little")
        plain = ladder(k, u, None)
        assert plain[0] * pow(plain[1], -1, P) % P == want
        two = ladder(k, u, bytes(32))
        assert two[0] * pow(two[1], -1, P) % P == want
        assert two[1] != plain[1]
        for rnd in (b"\x01" + bytes(31), bytes(31) + b"\x80", b"\x02" + bytes(31)):
            assert ladder(k, u, rnd) == two
        seen = {plain[1], two[1]}
        for _ in range(4):
            x, z = ladder(k, u, rng.randbytes(32))
            assert x * pow(z, -1, P) % P == want
            assert z not in seen
            seen.add(z)
        # a bit in the top word alone: another lambda
        assert ladder(k, u, bytes(31) + b"\x40")[1] not in (plain[1], two[1])
