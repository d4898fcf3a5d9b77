# SPDX-License-Identifier: MIT
"""The Cortex-M4 assembly GF(p256) routines (arch/cortex-m4/fep256_*.S) against Python
big integers, executed on the unicorn Thumb-2 (M-class) engine.

The interface (src/field/fep256.h) keeps every value fully reduced, so inputs are in
[0, p) and every output must be exactly the reduced result (not just congruent):
h = f g / 2^256 mod p for the Montgomery product, f +- g mod p for add/sub. Inputs: 10,000+
random values plus edges: 0, 1, 2, p-1, p-2, R mod p = 2^256 - p and its neighbours,
(p +- 1)/2, powers of two at p's word boundaries, values with all-ones limbs below p."""
import random

import pytest

from arm_harness import RAM, arm_cpu, get, put
from conftest import REPO

P = 2**256 - 2**224 + 2**192 + 2**96 - 1
R = 2**256
RINV = pow(R, -1, P)
EDGES = sorted({0, 1, 2, 3, P - 1, P - 2, P - 3, R % P, R % P - 1, R % P + 1, (P - 1) // 2,
                (P + 1) // 2, 2**32 - 1, 2**32, 2**64 - 1, 2**96 - 1, 2**96, 2**128 - 1,
                2**192, 2**192 - 1, 2**224, 2**224 - 1, 2**255, 2**255 - 1, P - 2**96,
                P - 2**192, P - 2**224 + 1, 2**256 - 2**224, R * R % P, (R * R % P) * RINV % P,
                sum(0xFFFFFFFF << (64 * i) for i in range(4)) % P,
                sum(0xFFFFFFFF << (64 * i + 32) for i in range(4)) % P})
assert all(0 <= e < P for e in EDGES)
H, F, G = RAM + 0x100, RAM + 0x200, RAM + 0x300
N_RANDOM = 10_000


@pytest.fixture(scope="module")
def cpu(tmp_path_factory):
    arch = REPO / "arch" / "cortex-m4"
    return arm_cpu(tmp_path_factory.mktemp("m4p256"), sorted(arch.glob("fep256_*.S")) +
                   [arch / "p256_ladder.S", arch / "ct_swap.S"], ("fep256_", "p256_ladder_"))


def pairs(n, seed):
    rng = random.Random(seed)
    out = [(a, b) for a in EDGES for b in EDGES]
    near = [P - 1 - rng.getrandbits(32) for _ in range(50)] + [rng.getrandbits(32) for _ in range(50)]
    out += [(rng.choice(near), rng.choice(near)) for _ in range(500)]
    out += [(rng.randrange(P), rng.randrange(P)) for _ in range(n)]
    return out


OPS = {
    "fep256_mul": lambda f, g: f * g * RINV % P,
    "fep256_add": lambda f, g: (f + g) % P,
    "fep256_sub": lambda f, g: (f - g) % P,
}
OPS.update({name + "_fast": op for name, op in list(OPS.items())})


@pytest.mark.parametrize("name", sorted(OPS))
def test_binary_ops(cpu, name):
    uc, call = cpu
    op = OPS[name]
    for f, g in pairs(N_RANDOM, name):
        put(uc, F, f)
        put(uc, G, g)
        call(name, H, F, G)
        assert get(uc, H) == op(f, g), f"{name}({f:#x}, {g:#x})"


@pytest.mark.parametrize("name", ["fep256_sqr", "fep256_sqr_fast"])
def test_sqr(cpu, name):
    uc, call = cpu
    rng = random.Random(name)
    for f in EDGES + [rng.randrange(P) for _ in range(N_RANDOM)]:
        put(uc, F, f)
        call(name, H, F)
        assert get(uc, H) == f * f * RINV % P, f"{name}({f:#x})"


def test_outputs_alias_inputs(cpu):
    uc, call = cpu
    rng = random.Random(7)
    for _ in range(50):
        f, g = rng.randrange(P), rng.randrange(P)
        for name, op in OPS.items():
            put(uc, F, f)
            put(uc, G, g)
            call(name, F, F, G)          # h == f
            assert get(uc, F) == op(f, g)
            put(uc, F, f)
            call(name, G, F, G)          # h == g
            assert get(uc, G) == op(f, g)
            put(uc, F, f)
            call(name, F, F, F)          # all three
            assert get(uc, F) == op(f, f)
        put(uc, F, f)
        call("fep256_sqr", F, F)
        assert get(uc, F) == f * f * RINV % P


def test_montgomery_chain(cpu):
    """A long chain of mixed operations, each output fed back as an input, stays equal to
    Python's: a lost carry or a result left in [p, 2^256) would show up here."""
    uc, call = cpu
    rng = random.Random(11)
    x = P - 1
    put(uc, F, x)
    for _ in range(3000):
        g = rng.choice(EDGES + [rng.randrange(P)])
        put(uc, G, g)
        name = rng.choice(sorted(OPS) + ["fep256_sqr"])
        if name == "fep256_sqr":
            call(name, F, F)
            x = x * x * RINV % P
        else:
            call(name, F, F, G)
            x = OPS[name](x, g)
        assert get(uc, F) == x


def random_points(n, seed):
    """Affine points of P-256 from OpenSSL (cryptography): public keys of fresh keys."""
    from cryptography.hazmat.primitives.asymmetric import ec
    out = []
    for _ in range(n):
        pub = ec.generate_private_key(ec.SECP256R1()).public_key().public_numbers()
        out.append((pub.x, pub.y))
    return out


def affine_add(p1, p2):
    (x1, y1), (x2, y2) = p1, p2
    lam = (y2 - y1) * pow(x2 - x1, -1, P) % P
    x3 = (lam * lam - x1 - x2) % P
    return x3, (lam * (x1 - x3) - y1) % P


def put_state(uc, w, pts):
    for i, (x, y) in enumerate(pts):
        put(uc, w + 64 * i, x * R % P)
        put(uc, w + 64 * i + 32, y * R % P)


def get_point(uc, addr):
    return get(uc, addr) * RINV % P, get(uc, addr + 32) * RINV % P


def jacobian_is(got, affine, z):
    return got == (affine[0] * z * z % P, affine[1] * z * z * z % P)


def test_ladder_steps_against_affine_arithmetic(cpu):
    """p256_ladder.S on co-Z points (Z = 1 for affine inputs) against affine addition in
    Python with OpenSSL's points: XYCZ-ADD gives P + Q and P, XYCZ-ADDC P + Q and P - Q,
    all with the common Z multiplied by x(Q) - x(P); the swap bit exchanges P and Q."""
    uc, call = cpu
    W = RAM + 0x4000
    pts = random_points(24, 0)
    for i in range(0, len(pts), 2):
        p1, p2 = pts[i], pts[i + 1]
        # add: P = R[1], Q = R[0] -> R[0] = P + Q, R[1] = P
        put_state(uc, W, [p2, p1])
        call("p256_ladder_add", W)
        z = (p2[0] - p1[0]) % P
        assert jacobian_is(get_point(uc, W), affine_add(p1, p2), z)
        assert jacobian_is(get_point(uc, W + 64), p1, z)
        for bit in (0, 1):
            # cswap_addc: after the swap P = R[0], Q = R[1] -> R[1] = P + Q, R[0] = P - Q
            put_state(uc, W, [p1, p2] if bit == 0 else [p2, p1])
            call("p256_ladder_cswap_addc", W, bit)
            z = (p2[0] - p1[0]) % P
            assert jacobian_is(get_point(uc, W + 64), affine_add(p1, p2), z)
            assert jacobian_is(get_point(uc, W), affine_add(p1, (p2[0], P - p2[1])), z)
