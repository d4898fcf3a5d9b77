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
                       [arch / "p256_ladder.S"], ("mb_fep256_", "mb_p256_ladder_"))
    with open(work / "routines.elf", "rb") as f:
        syms = {s.name: s["st_value"] & ~1
                for s in ELFFile(f).get_section_by_name(".symtab").iter_symbols()}
    uc.p256_syms = syms
    return uc, call


REGS = [getattr(A, f"UC_ARM_REG_R{i}") for i in range(13)]
ACC = REGS[4:12]                      # r4-r11: the _reg routines' field element


def call_reg(uc, name, args=(), acc=None):
    """Run a register-interface routine (mb_fep256_mul_reg: r1 = &f, r2 = &g; mb_fep256_sqr_reg:
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
    "mb_fep256_mul": lambda f, g: f * g * RINV % P,
    "mb_fep256_add": lambda f, g: (f + g) % P,
    "mb_fep256_sub": lambda f, g: (f - g) % P,
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


@pytest.mark.parametrize("name", ["mb_fep256_sqr"])
def test_sqr(cpu, name):
    uc, call = cpu
    rng = random.Random(name)
    for f in EDGES + [rng.randrange(P) for _ in range(N_RANDOM)]:
        put(uc, F, f)
        call(name, H, F)
        assert get(uc, H) == f * f * RINV % P, f"{name}({f:#x})"


def test_register_interface(cpu):
    """mb_fep256_mul_reg (pointers in, h in r4-r11) and mb_fep256_sqr_reg (f in r4-r11, h in
    r4-r11), the entries the ladder uses, on edges and random values: exactly the
    reduced Montgomery product."""
    uc, _ = cpu
    for f, g in pairs(3000, "reg"):
        put(uc, F, f)
        put(uc, G, g)
        assert call_reg(uc, "mb_fep256_mul_reg", (F, G)) == f * g * RINV % P, f"mul_reg({f:#x}, {g:#x})"
        assert call_reg(uc, "mb_fep256_sqr_reg", acc=f) == f * f * RINV % P, f"sqr_reg({f:#x})"


def montgomery_v(t):
    """V = (t + Q p) / 2^256 with Q = -t / p mod 2^256: the kernels' value before the
    final conditional subtraction (V < 2p; the output is V - p when V >= p)."""
    q = -t * pow(P, -1, R) % R
    return (t + q * P) // R


def boundary_inputs(seed, sqr=False):
    """(f, g) (g = f for squaring) whose V sits at the edges of the final subtraction:
    V = p + d and V = p - 1 - d (just above / below p), V = 2^256 + d and 2^256 - 1 - d
    (bit 256 of V set / clear), small d. Built from Python's arithmetic: for a target V,
    f g = V 2^256 mod p fixes g for a random f (f for squaring: a square root, p = 3 mod
    4), and the candidates whose V is that representative are kept."""
    rng = random.Random(seed)
    out = {}
    for d in range(24):
        for v in (P + 1 + d, P - 1 - d, R + d, R - 1 - d):
            for _ in range(40):
                if sqr:
                    a = v * R % P
                    f = pow(a, (P + 1) // 4, P)
                    if f * f % P != a:
                        break                    # not a square: no f for this target
                    f = rng.choice((f, P - f))
                    g = f
                else:
                    f = rng.randrange(1, P)
                    g = v * R * pow(f, -1, P) % P
                if montgomery_v(f * g) == v:
                    out[v] = (f, g)
                    break
    return out


@pytest.mark.parametrize("sqr", [False, True], ids=["mul", "sqr"])
def test_final_subtraction_boundaries(cpu, sqr):
    """Inputs whose Montgomery value V lands just above or below p, and with bit 256 of
    V set or clear, through the register entries and the C entries: exactly the reduced
    product. The search must find every class (else the test itself is broken)."""
    uc, call = cpu
    cases = boundary_inputs(31 + sqr, sqr)
    classes = {"above p": [v for v in cases if P < v < P + 64],
               "below p": [v for v in cases if P - 64 < v < P],
               "bit 256": [v for v in cases if v >= R],
               "below 2^256": [v for v in cases if R - 64 < v < R]}
    assert all(len(vs) >= 4 for vs in classes.values()), {k: len(v) for k, v in classes.items()}
    for v, (f, g) in cases.items():
        want = f * g * RINV % P
        assert want == v % P
        put(uc, F, f)
        put(uc, G, g)
        if sqr:
            assert call_reg(uc, "mb_fep256_sqr_reg", acc=f) == want, f"sqr_reg({f:#x})"
            call("mb_fep256_sqr", H, F)
        else:
            assert call_reg(uc, "mb_fep256_mul_reg", (F, G)) == want, f"mul_reg({f:#x}, {g:#x})"
            call("mb_fep256_mul", H, F, G)
        assert get(uc, H) == want


def test_register_interface_same_operand(cpu):
    """mb_fep256_mul_reg with r1 = r2 (f = g, one pointer) equals the square and
    mb_fep256_sqr_reg; random and edge values."""
    uc, _ = cpu
    rng = random.Random(17)
    for f in EDGES + [rng.randrange(P) for _ in range(500)]:
        put(uc, F, f)
        want = f * f * RINV % P
        assert call_reg(uc, "mb_fep256_mul_reg", (F, F)) == want, f"mul_reg({f:#x}, same)"
        assert call_reg(uc, "mb_fep256_sqr_reg", acc=f) == want


def test_sqr_n(cpu):
    """mb_fep256_sqr_n (the C entry of the inversion's and square root's squaring runs):
    h = f^(2^k) in Montgomery form, i.e. m -> m^(2^k) / R^(2^k - 1), for the run lengths
    the chains use and on edges; h may alias f."""
    uc, call = cpu
    rng = random.Random(13)
    for k in (1, 2, 3, 6, 15, 30, 32, 94, 96):
        for f in EDGES[:8] + [rng.randrange(P) for _ in range(8)]:
            put(uc, F, f)
            call("mb_fep256_sqr_n", H, F, k)
            x = f
            for _ in range(k):
                x = x * x * RINV % P
            assert get(uc, H) == x, f"sqr_n({f:#x}, {k})"
            call("mb_fep256_sqr_n", F, F, k)
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
        call("mb_fep256_sqr", F, F)
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
        name = rng.choice(sorted(OPS) + ["mb_fep256_sqr"])
        if name == "mb_fep256_sqr":
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
        call("mb_p256_ladder_add", W)
        z = (p2[0] - p1[0]) % P
        assert jacobian_is(get_point(uc, W), affine_add(p1, p2), z)
        assert jacobian_is(get_point(uc, W + 64), p1, z)
        for bit in (0, 1):
            # cswap_addc: after the swap P = R[0], Q = R[1] -> R[1] = P + Q, R[0] = P - Q
            put_state(uc, W, [p1, p2] if bit == 0 else [p2, p1])
            call("mb_p256_ladder_cswap_addc", W, bit)
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
    The scratch words p256_coz.c keeps across mb_p256_ladder_add (t[1], t[4]) must survive."""
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
        call("mb_p256_ladder_add", W)
        (bx, by), (qx, qy) = xycz_add_model(x2, y2, x1, y1)   # P = R[1], Q = R[0]
        assert [get(uc, W + 32 * i) for i in range(4)] == [qx, qy, bx, by]
        assert get(uc, W + 128 + 32) == keep[1] and get(uc, W + 128 + 128) == keep[4]
        for bit in (0, 1):
            for i, v in enumerate((x1, y1, x2, y2)):
                put(uc, W + 32 * i, v)
            call("mb_p256_ladder_cswap_addc", W, bit)
            p, q = ((x1, y1), (x2, y2)) if bit == 0 else ((x2, y2), (x1, y1))
            (px, py), (qx, qy) = xycz_addc_model(*p, *q)
            assert [get(uc, W + 32 * i) for i in range(4)] == [px, py, qx, qy]



def ladder_model(pts, kw, rounds):
    """p256_coz.c's loop on field elements: bits 256, 255, ... (rounds of them) of kw,
    each a masked swap (by prev ^ bit) + XYCZ-ADDC, then XYCZ-ADD (P = R[1], Q = R[0])."""
    (x1, y1), (x2, y2) = pts
    prev = 0
    for i in range(256, 256 - rounds, -1):
        bit = kw >> i & 1
        if prev ^ bit:
            (x1, y1), (x2, y2) = (x2, y2), (x1, y1)
        (x1, y1), (x2, y2) = xycz_addc_model(x1, y1, x2, y2)
        (x2, y2), (x1, y1) = xycz_add_model(x2, y2, x1, y1)
        prev = bit
    return (x1, y1), (x2, y2)


def test_ladder_loop_against_model(cpu):
    """mb_p256_ladder_loop (bits 256..1 of kw, the swaps folded into the formulas) against
    the Python model of cswap + XYCZ-ADDC + XYCZ-ADD per bit, on edge and random field
    elements with random, all-zero, all-one and alternating scalars (every swap pattern,
    junk in the scratch slots), and on OpenSSL's points: with R[0] = P, R[1] = 2P the
    loop must leave (R[0], R[1]) = (m P, (m + 1) P) for m = bits 257..1 (bit 257 = 1),
    exchanged if bit 1 is set (the slot R[0] holds R_b for the last bit b), co-Z."""
    uc, call = cpu
    W, KW = RAM + 0x4000, RAM + 0x5000
    rng = random.Random(6)
    vals = EDGES + [rng.randrange(P) for _ in range(40)]
    scalars = [0, 2**257 - 2, sum(1 << i for i in range(1, 257, 2)),
               sum(1 << i for i in range(2, 257, 2))] + [rng.getrandbits(257) for _ in range(4)]
    for kw in scalars:
        pts = [(rng.choice(vals), rng.choice(vals)) for _ in range(2)]
        put_state(uc, W, [(x * RINV % P, y * RINV % P) for x, y in pts])  # raw words
        for i in range(5):
            put(uc, W + 128 + 32 * i, rng.randrange(2**256))
        uc.mem_write(KW, (kw | 1 << 257).to_bytes(36, "little"))
        call("mb_p256_ladder_loop", W, KW)
        want = ladder_model(pts, kw, 256)
        assert (get(uc, W), get(uc, W + 32)) == want[0]
        assert (get(uc, W + 64), get(uc, W + 96)) == want[1]
    # real points: the base point of OpenSSL's curve, scalars m
    from cryptography.hazmat.primitives.asymmetric import ec
    for _ in range(3):
        k = rng.getrandbits(256) | 1 << 256 | 1 << 257
        pub = ec.derive_private_key(5, ec.SECP256R1()).public_key().public_numbers()
        g = (pub.x, pub.y)
        x, y = g
        lam = 3 * (x * x - 1) * pow(2 * y, -1, P) % P
        x2 = (lam * lam - 2 * x) % P
        two = (x2, (lam * (x - x2) - y) % P)
        put_state(uc, W, [g, two])
        uc.mem_write(KW, k.to_bytes(36, "little"))
        call("mb_p256_ladder_loop", W, KW)
        m = k >> 1
        n = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
        want = ec.derive_private_key(5 * m % n, ec.SECP256R1()).public_key().public_numbers()
        want1 = ec.derive_private_key(5 * (m + 1) % n, ec.SECP256R1()).public_key().public_numbers()
        r0, r1 = get_point(uc, W), get_point(uc, W + 64)
        if k >> 1 & 1:
            r0, r1 = r1, r0
        # co-Z: r = (x Z^2, y Z^3) for one Z; Z^2 = r0.x / x, Z^3 = r0.y / y
        z2 = r0[0] * pow(want.x, -1, P) % P
        z3 = r0[1] * pow(want.y, -1, P) % P
        assert r1[0] == want1.x * z2 % P and r1[1] == want1.y * z3 % P
        assert pow(z3, 2, P) == pow(z2, 3, P)


@pytest.mark.parametrize("name", ["mb_fep256_mul_reg", "mb_fep256_sqr_reg"])
def test_kernels_keep_ge_flags(cpu, name):
    """p256_ladder.S sets APSR.GE (its swap mask) once per bit and reads it in two SELSUBs
    with kernel calls in between: the kernels must leave GE alone (they are straight-line
    code, so one run per GE value covers every input)."""
    uc, _ = cpu
    rng = random.Random(7)
    for ge in (0x0, 0xF, 0x5):
        f, g = rng.randrange(P), rng.randrange(P)
        put(uc, F, f)
        put(uc, G, g)
        for reg in REGS:
            uc.reg_write(reg, 0xDEAD0000)
        uc.reg_write(A.UC_ARM_REG_R1, F)
        uc.reg_write(A.UC_ARM_REG_R2, G)
        for i, reg in enumerate(ACC):
            uc.reg_write(reg, (f >> (32 * i)) & 0xFFFFFFFF)
        uc.reg_write(A.UC_ARM_REG_SP, RAM + 0x80000 - 72)
        uc.reg_write(A.UC_ARM_REG_LR, STOP | 1)
        cpsr = uc.reg_read(A.UC_ARM_REG_CPSR)
        uc.reg_write(A.UC_ARM_REG_CPSR, cpsr & ~(0xF << 16) | ge << 16)   # GE = bits 19:16
        assert uc.reg_read(A.UC_ARM_REG_CPSR) >> 16 & 0xF == ge  # the harness can set it
        uc.emu_start(uc.p256_syms[name] | 1, STOP, count=100_000)
        assert uc.reg_read(A.UC_ARM_REG_PC) == STOP
        want = f * (g if name == "mb_fep256_mul_reg" else f) * RINV % P
        assert sum(uc.reg_read(r) << (32 * i) for i, r in enumerate(ACC)) == want
        assert uc.reg_read(A.UC_ARM_REG_CPSR) >> 16 & 0xF == ge, f"{name} wrote GE"
