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
from elftools.elf.elffile import ELFFile
from unicorn import arm_const as A

from arm_harness import RAM, STOP, arm_cpu, get, put
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
    work = tmp_path_factory.mktemp("m4p256")
    uc, call = arm_cpu(work, sorted(arch.glob("fep256_*.S")) +
                       [arch / "p256_ladder.S", arch / "ct_swap.S"], ("fep256_", "p256_ladder_"))
    with open(work / "routines.elf", "rb") as f:
        syms = {s.name: s["st_value"] & ~1
                for s in ELFFile(f).get_section_by_name(".symtab").iter_symbols()}
    uc.p256_syms = syms
    return uc, call


REGS = [getattr(A, f"UC_ARM_REG_R{i}") for i in range(13)]
ACC = REGS[4:12]                      # r4-r11: the _reg routines' field element


def call_reg(uc, name, args=(), acc=None):
    """Run a register-interface routine (fep256_mul_reg: r1 = &f, r2 = &g; fep256_sqr_reg:
    f in r4-r11) and return h from r4-r11. The caller reserves the routine's 72-byte
    frame at sp; checks the return, that sp is unchanged, and that nothing outside
    [sp, sp + 72) was written (below sp in particular: an interrupt would own it)."""
    for reg in REGS:
        uc.reg_write(reg, 0xDEAD0000)
    for reg, v in zip((A.UC_ARM_REG_R1, A.UC_ARM_REG_R2), args):
        uc.reg_write(reg, v)
    if acc is not None:
        for i, reg in enumerate(ACC):
            uc.reg_write(reg, (acc >> (32 * i)) & 0xFFFFFFFF)
    sp = RAM + 0x80000 - 72
    guard = bytes(range(256)) * 2
    uc.mem_write(sp - len(guard), guard)
    uc.mem_write(sp + 72, guard)
    uc.reg_write(A.UC_ARM_REG_SP, sp)
    uc.reg_write(A.UC_ARM_REG_LR, STOP | 1)
    uc.emu_start(uc.p256_syms[name] | 1, STOP, count=100_000)
    assert uc.reg_read(A.UC_ARM_REG_PC) == STOP, f"{name} did not return"
    assert uc.reg_read(A.UC_ARM_REG_SP) == sp, f"{name} moved sp"
    assert bytes(uc.mem_read(sp - len(guard), len(guard))) == guard, f"{name} wrote below sp"
    assert bytes(uc.mem_read(sp + 72, len(guard))) == guard, f"{name} wrote beyond its frame"
    return sum(uc.reg_read(reg) << (32 * i) for i, reg in enumerate(ACC))


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


@pytest.mark.parametrize("name", sorted(OPS))
def test_binary_ops(cpu, name):
    uc, call = cpu
    op = OPS[name]
    for f, g in pairs(N_RANDOM, name):
        put(uc, F, f)
        put(uc, G, g)
        call(name, H, F, G)
        assert get(uc, H) == op(f, g), f"{name}({f:#x}, {g:#x})"


@pytest.mark.parametrize("name", ["fep256_sqr"])
def test_sqr(cpu, name):
    uc, call = cpu
    rng = random.Random(name)
    for f in EDGES + [rng.randrange(P) for _ in range(N_RANDOM)]:
        put(uc, F, f)
        call(name, H, F)
        assert get(uc, H) == f * f * RINV % P, f"{name}({f:#x})"


def test_register_interface(cpu):
    """fep256_mul_reg (pointers in, h in r4-r11) and fep256_sqr_reg (f in r4-r11, h in
    r4-r11), the entries the ladder uses, on edges and random values: exactly the
    reduced Montgomery product."""
    uc, _ = cpu
    for f, g in pairs(3000, "reg"):
        put(uc, F, f)
        put(uc, G, g)
        assert call_reg(uc, "fep256_mul_reg", (F, G)) == f * g * RINV % P, f"mul_reg({f:#x}, {g:#x})"
        assert call_reg(uc, "fep256_sqr_reg", acc=f) == f * f * RINV % P, f"sqr_reg({f:#x})"


def test_sqr_n(cpu):
    """fep256_sqr_n (the C entry of the inversion's and square root's squaring runs):
    h = f^(2^k) in Montgomery form, i.e. m -> m^(2^k) / R^(2^k - 1), for the run lengths
    the chains use and on edges; h may alias f."""
    uc, call = cpu
    rng = random.Random(13)
    for k in (1, 2, 3, 6, 15, 30, 32, 94, 96):
        for f in EDGES[:8] + [rng.randrange(P) for _ in range(8)]:
            put(uc, F, f)
            call("fep256_sqr_n", H, F, k)
            x = f
            for _ in range(k):
                x = x * x * RINV % P
            assert get(uc, H) == x, f"sqr_n({f:#x}, {k})"
            call("fep256_sqr_n", F, F, k)
            assert get(uc, F) == x


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


def xycz_add_model(x1, y1, x2, y2):
    """XYCZ-ADD of p256_ladder.c on arbitrary field elements (Montgomery form cancels:
    every formula is a polynomial, evaluated here on the plain values with the Montgomery
    factor R carried along, i.e. on m = a R mod p with products m m' / R)."""
    mul = lambda a, b: a * b * RINV % P
    a = mul((x2 - x1) % P, (x2 - x1) % P)
    b = mul(x1, a)
    c = mul(x2, a)
    d = (y2 - y1) % P
    e = mul(y1, (c - b) % P)
    x3 = (mul(d, d) - b - c) % P
    y3 = (mul(d, (b - x3) % P) - e) % P
    return (b, e), (x3, y3)


def xycz_addc_model(x1, y1, x2, y2):
    mul = lambda a, b: a * b * RINV % P
    a = mul((x2 - x1) % P, (x2 - x1) % P)
    b = mul(x1, a)
    c = mul(x2, a)
    d = (y2 - y1) % P
    f = (y2 + y1) % P
    e = mul(y1, (c - b) % P)
    x3 = (mul(d, d) - b - c) % P
    y3 = (mul(d, (b - x3) % P) - e) % P
    x3p = (mul(f, f) - b - c) % P
    y3p = (mul(f, (x3p - b) % P) - e) % P
    return (x3p, y3p), (x3, y3)


def test_ladder_steps_on_any_field_elements(cpu):
    """The steps' chain of fused field operations against the formulas evaluated in
    Python on arbitrary coordinates (not points): edges (0, 1, p-1, R mod p, ...) and
    random values, so every carry and masked correction inside the chain is exercised.
    The scratch words p256_coz.c keeps across p256_ladder_add (t[1], t[4]) must survive."""
    uc, call = cpu
    W = RAM + 0x4000
    rng = random.Random(5)
    vals = EDGES + [rng.randrange(P) for _ in range(40)]
    for _ in range(300):
        x1, y1, x2, y2 = (rng.choice(vals) for _ in range(4))
        for i, v in enumerate((x1, y1, x2, y2)):
            put(uc, W + 32 * i, v)
        keep = [rng.randrange(2**256) for _ in range(5)]
        for i, v in enumerate(keep):
            put(uc, W + 128 + 32 * i, v)
        call("p256_ladder_add", W)
        (bx, by), (qx, qy) = xycz_add_model(x2, y2, x1, y1)   # P = R[1], Q = R[0]
        assert [get(uc, W + 32 * i) for i in range(4)] == [qx, qy, bx, by]
        assert get(uc, W + 128 + 32) == keep[1] and get(uc, W + 128 + 128) == keep[4]
        for bit in (0, 1):
            for i, v in enumerate((x1, y1, x2, y2)):
                put(uc, W + 32 * i, v)
            call("p256_ladder_cswap_addc", W, bit)
            p, q = ((x1, y1), (x2, y2)) if bit == 0 else ((x2, y2), (x1, y1))
            (px, py), (qx, qy) = xycz_addc_model(*p, *q)
            assert [get(uc, W + 32 * i) for i in range(4)] == [px, py, qx, qy]
