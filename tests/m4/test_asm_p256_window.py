# SPDX-License-Identifier: MIT
"""The Cortex-M4 Jacobian point routines of the windowed P-256 scalar multiplication
(arch/cortex-m4/p256_jac.S: mb_p256_jdbl, mb_p256_jadd, mb_p256_jmadd, mb_p256_asel),
executed on the unicorn Thumb-2 (M-class) engine.

Points come from OpenSSL (cryptography) as k G, and the expected results too: 2^n P is
(2^n k) G and P + Q is (k1 + k2) G, computed by OpenSSL; the routines' Jacobian output is
compared after X / Z^2, Y / Z^3 in Python, with random Z on the inputs. A second test
runs the formulas on arbitrary field elements (edges such as 0, 1, p - 1, odd and even
values for the halving) against the same formulas evaluated in Python, so that every
carry and masked correction in the fused chain is exercised."""
import random

import pytest

from arm_harness import RAM, arm_cpu, get, put
from conftest import REPO

P = 2**256 - 2**224 + 2**192 + 2**96 - 1
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
R = 2**256
RINV = pow(R, -1, P)
RP, TP, WT, TAB, OUT = RAM + 0x1000, RAM + 0x1100, RAM + 0x1200, RAM + 0x2000, RAM + 0x3000


@pytest.fixture(scope="module")
def cpu(tmp_path_factory):
    arch = REPO / "arch" / "cortex-m4"
    work = tmp_path_factory.mktemp("m4p256w")
    return arm_cpu(work, [arch / "fep256_mul.S", arch / "p256_jac.S"], ("mb_",))


def kG(k):
    """Affine k G from OpenSSL (1 <= k < n)."""
    from cryptography.hazmat.primitives.asymmetric import ec
    pub = ec.derive_private_key(k, ec.SECP256R1()).public_key().public_numbers()
    return pub.x, pub.y


def put_jac(uc, addr, pt, z):
    x, y = pt
    for i, v in enumerate((x * z * z % P, y * z * z * z % P, z)):
        put(uc, addr + 32 * i, v * R % P)


def get_raw(uc, addr):
    return [get(uc, addr + 32 * i) for i in range(3)]


def get_affine(uc, addr):
    x, y, z = (v * RINV % P for v in get_raw(uc, addr))
    assert z != 0
    zi = pow(z, -1, P)
    return x * zi * zi % P, y * zi * zi * zi % P


def test_jdbl_and_jadd_against_openssl(cpu):
    uc, call = cpu
    rng = random.Random(1)
    for _ in range(12):
        k1, k2 = rng.randrange(1, N), rng.randrange(1, N)
        z1, z2 = rng.randrange(1, P), rng.choice([1, rng.randrange(1, P)])
        for n in (1, 4):
            put_jac(uc, RP, kG(k1), z1)
            call("mb_p256_jdbl", RP, WT, n)
            assert get_affine(uc, RP) == kG(k1 * 2**n % N)
            for v in get_raw(uc, RP):
                assert v < P
        put_jac(uc, RP, kG(k1), z1)
        put_jac(uc, TP, kG(k2), z2)
        call("mb_p256_jadd", RP, TP, WT)
        assert get_affine(uc, RP) == kG((k1 + k2) % N)
        assert [v * RINV % P for v in get_raw(uc, TP)] == \
            [kG(k2)[0] * z2 * z2 % P, kG(k2)[1] * z2**3 % P, z2], "T changed"
        put_jac(uc, RP, kG(k1), z1)
        put_jac(uc, TP, kG(k2), 1)             # mixed: T's x, y only
        put(uc, TP + 64, 0xDEADBEEF)           # (Z2 is never read)
        call("mb_p256_jmadd", RP, TP, WT)
        assert get_affine(uc, RP) == kG((k1 + k2) % N)
    # Small multiples, as the table and the windows use them (3P = P + 2P, ...).
    put_jac(uc, RP, kG(1), 1)
    put_jac(uc, TP, kG(2), 5)
    for j in range(3, 32, 2):
        call("mb_p256_jadd", RP, TP, WT)
        assert get_affine(uc, RP) == kG(j)


def test_jadd_of_equal_points_gives_z_zero(cpu):
    """p256_window.c's last-window fix-up selects the doubling when the addition's Z is 0:
    R = T must give Z = 0 (and R = -T too), for both additions."""
    uc, call = cpu
    for k in (1, 2, 12345, N - 1):
        for neg in (0, 1):
            for name, z2 in (("mb_p256_jadd", 11), ("mb_p256_jmadd", 1)):
                x, y = kG(k)
                put_jac(uc, RP, (x, y), 7)
                put_jac(uc, TP, (x, (P - y) % P if neg else y), z2)
                call(name, RP, TP, WT)
                assert get_raw(uc, RP)[2] == 0


def model_dbl(x, y, z):
    """mb_p256_jdbl's formulas on Montgomery-form values (products m m' / R)."""
    mul = lambda a, b: a * b * RINV % P
    y2 = 2 * y % P
    yy = mul(y2, y2)
    half = mul(yy, yy) * pow(2, -1, P) % P
    s = mul(x, yy)
    d = mul(z, z)
    m = mul(3 * (x - d) % P, (x + d) % P)
    x3 = (mul(m, m) - 2 * s) % P
    return x3, (mul(m, (s - x3) % P) - half) % P, mul(y2, z)


def model_add(x1, y1, z1, x2, y2, z2):
    mul = lambda a, b: a * b * RINV % P
    z11, z22 = mul(z1, z1), mul(z2, z2)
    u1, u2 = mul(x1, z22), mul(x2, z11)
    s1, s2 = mul(y1, mul(z2, z22)), mul(y2, mul(z1, z11))
    h, r = (u2 - u1) % P, (s2 - s1) % P
    hh = mul(h, h)
    hhh, v = mul(h, hh), mul(u1, hh)
    x3 = (mul(r, r) - hhh - 2 * v) % P
    return x3, (mul(r, (v - x3) % P) - mul(s1, hhh)) % P, mul(mul(z1, z2), h)


def test_formulas_on_any_field_elements(cpu):
    uc, call = cpu
    rng = random.Random(2)
    edges = [0, 1, 2, 3, P - 1, P - 2, (P - 1) // 2, (P + 1) // 2, R % P, 2**255, 2**224]
    for i in range(400):
        vals = [rng.choice(edges) if i % 2 else rng.randrange(P) for _ in range(6)]
        for j in range(3):
            put(uc, RP + 32 * j, vals[j])
            put(uc, TP + 32 * j, vals[3 + j])
        call("mb_p256_jdbl", RP, WT, 1)
        assert tuple(get_raw(uc, RP)) == model_dbl(*vals[:3]), vals
        for j in range(3):
            put(uc, RP + 32 * j, vals[j])
        call("mb_p256_jadd", RP, TP, WT)
        assert tuple(get_raw(uc, RP)) == model_add(*vals), vals
        for j in range(3):
            put(uc, RP + 32 * j, vals[j])
        call("mb_p256_jmadd", RP, TP, WT)
        assert tuple(get_raw(uc, RP)) == model_add(*vals[:5], R % P), vals


def test_asel_every_index_and_sign(cpu):
    uc, call = cpu
    rng = random.Random(3)
    table = [[rng.randrange(1, P) for _ in range(2)] for _ in range(8)]
    table[5][1] = P - 1
    table[6][1] = 1
    for i, e in enumerate(table):
        for j, v in enumerate(e):
            put(uc, TAB + 64 * i + 32 * j, v)
    for idx in range(8):
        for neg in (0, 1):
            put(uc, OUT + 64, 0x1234)
            call("mb_p256_asel", OUT, TAB, idx, neg)
            x, y = table[idx]
            assert get_raw(uc, OUT) == [x, (P - y) if neg else y, 0x1234]
