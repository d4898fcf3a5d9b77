# SPDX-License-Identifier: MIT
"""arch/msp430x GF(p256) kernels (fep256_mul_mpy32.S / _mpy16.S, fep256_addsub.S) and
co-Z ladder (p256_ladder.S) on the simulator, both multiplier configurations: every
field routine against Python integers mod p on the edges and random inputs (outputs
aliasing inputs included), the ladder's fused h = f (a - b) core likewise, MPY32CTL0's
delayed-write bit cleared on return, the ladder's steps against the co-Z formulas in Python,
callee-saved registers and SP kept, the generator's output committed; and P-256 ECDH
(p256_coz.c over these files) against OpenSSL (`cryptography`)."""
import random
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from asm_harness import (Firmware, carry_element, from_le, have_tools, le,  # noqa: E402
                         portable_sources)

REPO = Path(__file__).resolve().parents[2]
P = 2**256 - 2**224 + 2**192 + 2**96 - 1
RINV = pow(2**256, -1, P)

pytestmark = pytest.mark.skipif(not have_tools(), reason="clang/ld.lld/msp430sim missing")

DECLS = """
void mb_fep256_mul(void *h, const void *f, const void *g);
void mb_fep256_sqr(void *h, const void *f);
void mb_fep256_sqr_n(void *h, const void *f, int k);
void mb_fep256_add(void *h, const void *f, const void *g);
void mb_fep256_sub(void *h, const void *f, const void *g);
static uint16_t h[16];
__attribute__((unused)) static void cp(void *d, const void *s) { int k; for (k = 0; k < 16; k++) ((uint16_t *)d)[k] = ((const uint16_t *)s)[k]; }
"""

N = 24
SQRN_K = 5


def kernel_fw(mpy):
    driver = f"""
    for (i = 0; i < {N}; i++) {{
        const uint8_t *f = fg + 64 * i, *g = fg + 64 * i + 32;
        H_CALL("mul", mb_fep256_mul, h, f, g, 0); h_out("mul", h, 32);
        H_CALL("sqr", mb_fep256_sqr, h, f, 0, 0); h_out("sqr", h, 32);
        H_CALL("add", mb_fep256_add, h, f, g, 0); h_out("add", h, 32);
        H_CALL("sub", mb_fep256_sub, h, f, g, 0); h_out("sub", h, 32);
        H_CALL("sqrn", mb_fep256_sqr_n, h, f, {SQRN_K}, 0); h_out("sqrn", h, 32);
        cp(h, f); H_CALL("mul_hf", mb_fep256_mul, h, h, g, 0); h_out("mul_hf", h, 32);
        cp(h, g); H_CALL("mul_hg", mb_fep256_mul, h, f, h, 0); h_out("mul_hg", h, 32);
        cp(h, f); H_CALL("sqr_hf", mb_fep256_sqr, h, h, 0, 0); h_out("sqr_hf", h, 32);
        cp(h, f); H_CALL("add_hf", mb_fep256_add, h, h, g, 0); h_out("add_hf", h, 32);
        cp(h, g); H_CALL("sub_hg", mb_fep256_sub, h, f, h, 0); h_out("sub_hg", h, 32);
    }}"""
    return Firmware(sources=[f"arch/msp430x/fep256_mul_mpy{mpy}.S",
                             "arch/msp430x/fep256_addsub.S"],
                    mpy=mpy, decls=DECLS, inputs={"fg": 64 * N}, driver=driver,
                    name=f"fep256_{mpy}")


EDGES = [0, 1, 2, P - 1, P - 2, 2**255, 2**256 - P, 2**224, 2**32 - 1, 2**96,
         P - 2**96, 2**192 - 1, (P - 1) // 2, 2**256 - 2**224 - 1]


def cases(seed):
    rnd = random.Random(seed)
    pairs = [(P - 1, P - 1), (0, 0), (1, P - 1), (P - 1, 1), (2**255, P - 1), (P - 2, P - 1),
             (2**256 - P, 2**256 - P), (P - 1, 0), (0, P - 1), (2**32 - 1, 2**224),
             (2**32 - 1, 1), (2**16 - 1, 1)]     # f g = 2^32 - 1: the window goes negative
    while len(pairs) < N - 6:
        pairs.append((rnd.choice(EDGES), rnd.choice(EDGES)))
    while len(pairs) < N:
        pairs.append((rnd.randrange(P), rnd.randrange(P)))
    assert all(a < P and b < P for a, b in pairs)
    return pairs


def expected(a, b):
    m = a * b * RINV % P
    s = a * a * RINV % P
    n = a
    for _ in range(SQRN_K):
        n = n * n * RINV % P
    return {"mul": m, "sqr": s, "add": (a + b) % P, "sub": (a - b) % P, "sqrn": n,
            "mul_hf": m, "mul_hg": m, "sqr_hf": s, "add_hf": (a + b) % P,
            "sub_hg": (a - b) % P}


def carry_cases(seed):
    """Elements below p whose words are mostly from the harness's CARRY_WORDS."""
    rnd = random.Random(seed)
    out = []
    while len(out) < N:
        a, b = carry_element(rnd), carry_element(rnd)
        if a < P and b < P:
            out.append((a, b))
    return out


@pytest.mark.parametrize("mpy", [32, 16])
@pytest.mark.parametrize("kind", ["edges", "carries"])
def test_kernels_against_python(mpy, kind):
    pairs = cases(mpy) if kind == "edges" else carry_cases(100 + mpy)
    r = kernel_fw(mpy).run(fg=b"".join(le(a) + le(b) for a, b in pairs))
    r.check()
    for idx, (a, b) in enumerate(pairs):
        for name, want in expected(a, b).items():
            got = from_le(r.out[name][idx])
            assert got == want, f"mpy{mpy} {name}({a:#x}, {b:#x}): {got:#x} != {want:#x}"
    # Constant time in the cycle count (the trace check is tests/msp430/test_msp430_ct.py's
    # job on the whole library): every call of a routine takes the same time.
    for name, calls in r.calls.items():
        assert len({c.cycles for c in calls}) == 1, (name, sorted({c.cycles for c in calls}))
        assert len({c.stack for c in calls}) == 1, name
    # Stack as documented in the headers: frame 64, saved 14, two return addresses (entry
    # and core), + 2 for sqr_n's count.
    assert r.calls["mul"][0].stack == 82 and r.calls["sqrn"][0].stack == 84


@pytest.mark.parametrize("mpy", [32, 16])
def test_mulsub_core_against_python(mpy):
    """mb_fep256_mulsub_core (the ladder's h = f (a - b)) through a small wrapper that
    saves r4-r10 and brackets it with mb_fep256_mpy_begin/_end: the kernels' edge pairs
    as (a, b), f random, h aliasing f, a or b."""
    fw = Firmware(sources=[f"arch/msp430x/fep256_mul_mpy{mpy}.S"], mpy=mpy,
                  decls=DECLS + """void t_mulsub(void *h, const void *f, const void *a, const void *b);
__asm__(".section .text.t_mulsub,\\"ax\\",@progbits\\n.global t_mulsub\\nt_mulsub:\\n"
        ".word 0x156a\\ncall #mb_fep256_mpy_begin\\ncall #mb_fep256_mulsub_core\\n"
        "call #mb_fep256_mpy_end\\n.word 0x1764\\nret\\n");""",
                  inputs={"fab": 96 * N},
                  driver=f"""
    for (i = 0; i < {N}; i++) {{
        const uint8_t *f = fab + 96 * i, *a = f + 32, *b = f + 64;
        H_CALL("ms", t_mulsub, h, f, a, b); h_out("ms", h, 32);
        cp(h, f); H_CALL("ms_hf", t_mulsub, h, h, a, b); h_out("ms_hf", h, 32);
        cp(h, a); H_CALL("ms_ha", t_mulsub, h, f, h, b); h_out("ms_ha", h, 32);
        cp(h, b); H_CALL("ms_hb", t_mulsub, h, f, a, h); h_out("ms_hb", h, 32);
    }}""", name=f"mulsub_{mpy}")
    rnd = random.Random(20 + mpy)
    trip = [(rnd.choice([rnd.randrange(P), P - 1, 0, 1]), a, b) for a, b in cases(mpy)]
    r = fw.run(fab=b"".join(le(f) + le(a) + le(b) for f, a, b in trip))
    r.check()
    for name in ("ms", "ms_hf", "ms_ha", "ms_hb"):
        got = [from_le(x) for x in r.out[name]]
        assert got == [f * (a - b) * RINV % P for f, a, b in trip], name
    assert len({c.cycles for c in r.calls["ms"]}) == 1


def test_generated_files_are_current():
    p = subprocess.run([sys.executable, str(REPO / "arch/msp430x/gen_fep256.py"), "--check"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


P256_FILES = ["arch/msp430x/fep256_addsub.S", "arch/msp430x/p256_ladder.S"]
P256_REPLACES = ["src/field/fep256_arith_r16.c", "src/curve/p256_ladder.c",
                 "src/curve/p256_ladder_loop.c"]


def mont(x):
    return x * 2**256 % P


def xycz_addc(x1, y1, x2, y2):
    """Rivain's XYCZ-ADDC in plain field arithmetic (p256_ladder.c's formulas)."""
    a = (x2 - x1) ** 2 % P
    b, c = x1 * a % P, x2 * a % P
    d, f = (y2 - y1) % P, (y2 + y1) % P
    e = y1 * (c - b) % P
    x3 = (d * d - b - c) % P
    y3 = (d * (b - x3) - e) % P
    x3p = (f * f - b - c) % P
    y3p = (f * (x3p - b) - e) % P
    return (x3p, y3p), (x3, y3)


def xycz_add(x1, y1, x2, y2):
    a = (x2 - x1) ** 2 % P
    b, c = x1 * a % P, x2 * a % P
    d = (y2 - y1) % P
    e = y1 * (c - b) % P
    x3 = (d * d - b - c) % P
    y3 = (d * (b - x3) - e) % P
    return (x3, y3), (b, e)


@pytest.mark.parametrize("mpy", [32, 16])
def test_ladder_steps_against_python(mpy):
    """mb_p256_ladder_cswap_addc (both bits) and mb_p256_ladder_add on random states
    (Montgomery form), against the formulas; the field values need not be points."""
    n = 4
    fw = Firmware(sources=[f"arch/msp430x/fep256_mul_mpy{mpy}.S"] + P256_FILES, mpy=mpy,
                  decls="""void mb_p256_ladder_cswap_addc(void *w, uint32_t bit);
void mb_p256_ladder_add(void *w);
static uint8_t w[288];
static void cpy(uint8_t *d, const uint8_t *s, int k) { while (k--) *d++ = *s++; }""",
                  inputs={"st": 128 * n},
                  driver=f"""for (i = 0; i < {n}; i++) {{
        cpy(w, st + 128 * i, 128);
        H_CALL("addc", mb_p256_ladder_cswap_addc, w, (uint32_t)(i & 1), 0, 0);
        h_out("addc", w, 128);
        cpy(w, st + 128 * i, 128);
        H_CALL("add", mb_p256_ladder_add, w, 0, 0, 0);
        h_out("add", w, 128);
    }}""", name=f"ladder_{mpy}")
    rnd = random.Random(7 + mpy)
    states = [[rnd.randrange(P) for _ in range(4)] for _ in range(n)]
    r = fw.run(st=b"".join(b"".join(le(mont(v)) for v in st) for st in states))
    r.check()
    for i, (x0, y0, x1, y1) in enumerate(states):
        if i & 1:
            x0, y0, x1, y1 = x1, y1, x0, y0
        (px, py), (qx, qy) = xycz_addc(x0, y0, x1, y1)
        got = r.out["addc"][i]
        assert [from_le(got[32 * j:32 * j + 32]) for j in range(4)] == \
            [mont(v) for v in (px, py, qx, qy)]
        x0, y0, x1, y1 = states[i]
        (qx, qy), (px, py) = xycz_add(x1, y1, x0, y0)       # P = R[1], Q = R[0]
        got = r.out["add"][i]
        assert [from_le(got[32 * j:32 * j + 32]) for j in range(4)] == \
            [mont(v) for v in (qx, qy, px, py)]
    assert len({c.cycles for c in r.calls["addc"]}) == 1


@pytest.mark.parametrize("mpy", [32, 16])
def test_trace_independent_of_values(mpy):
    """Same instruction and data-address trace (simulator trace hash) and cycle count for
    different field values and swap bits: every kernel, the ladder steps and 2 bits of
    the whole loop (no printing of secrets in this driver)."""
    fw = Firmware(sources=[f"arch/msp430x/fep256_mul_mpy{mpy}.S"] + P256_FILES, mpy=mpy,
                  decls=DECLS + """void mb_p256_ladder_cswap_addc(void *w, uint32_t bit);
void mb_p256_ladder_add(void *w);
void mb_p256_ladder_loop(void *w, const void *kw);
static uint8_t w[288];""", inputs={"v": 64 + 128 + 2 + 36},
                  driver="""
        mb_fep256_mul(h, v, v + 32); mb_fep256_sqr(h, v); mb_fep256_sqr_n(h, v + 32, 2);
        mb_fep256_add(h, v, v + 32); mb_fep256_sub(h, v, v + 32);
        for (i = 0; i < 128; i++) w[i] = v[64 + i];
        mb_p256_ladder_cswap_addc(w, v[64 + 128] & 1u); mb_p256_ladder_add(w);
        mb_p256_ladder_loop(w, v + 64 + 128 + 2);""",
                  name=f"trace_{mpy}")
    rnd = random.Random(3)
    hashes = set()
    for f, g, bit in ((0, 0, 0), (P - 1, P - 1, 1), (rnd.randrange(P), rnd.randrange(P), 1),
                      (1, 2**255, 0)):
        st = b"".join(le(rnd.randrange(P)) for _ in range(4))
        kw = rnd.getrandbits(257).to_bytes(36, "little")
        r = fw.run(trace=True, v=le(f) + le(g) + st + bytes([bit, 0]) + kw)
        assert r.sim.returncode == 0, r.sim.error
        assert r.sim.trace_hash and r.sim.cycles > 7_000_000
        hashes.add((r.sim.trace_hash, r.sim.cycles))
    assert len(hashes) == 1, hashes


def test_frames_wiped():
    """The kernels' frame (a copy of g or of 2f, the digits q) is zeroed below the stack
    after the C entries, sqr_n and the ladder loop return."""
    fw = Firmware(sources=["arch/msp430x/fep256_mul_mpy32.S"] + P256_FILES, mpy=32,
                  decls=DECLS + """void mb_p256_ladder_loop(void *w, const void *kw);
static uint8_t w[288];
__attribute__((noinline)) static void below(int from, int to)
{
    uint16_t *sp;
    __asm__ volatile ("mov r1, %0" : "=r"(sp));
    /* this function's frame is above sp; its caller's sp is sp + 1 word (return) */
    h_out("below", sp + 1 - from / 2, (size_t)(from - to));
}""", inputs={"v": 64 + 36},
                  driver="""
        mb_fep256_mul(h, v, v + 32); below(82, 18);
        mb_fep256_sqr(h, v); below(82, 18);
        mb_fep256_sqr_n(h, v, 3); below(84, 20);
        for (i = 0; i < 288; i++) w[i] = v[i & 63];
        mb_p256_ladder_loop(w, v + 64); below(136, 72); below(68, 16);""",
                  name="wipe")
    rnd = random.Random(11)
    r = fw.run(v=le(rnd.randrange(P)) + le(rnd.randrange(P)) + rnd.getrandbits(257).to_bytes(36, "little"))
    assert r.sim.returncode == 0, r.sim.error
    # loop: the kernels' frame below two return addresses, and the loop's own 52-byte
    # frame below its 7 saved registers (the shifted word of kw, the previous bit and,
    # hardened, the rebuilt scalar and the swap record)
    assert len(r.out["below"]) == 5
    for b in r.out["below"]:
        assert b == bytes(len(b)), b.hex()


def test_mpy32ctl0_dlywrten_cleared():
    """The MPY32 kernels run with MPYDLYWRTEN (MPY32CTL0 bit 8) set: every C entry and
    ladder entry sets it and clears it before returning (the backend's convention:
    MPY32CTL0 at its reset value between calls), whether or not the caller had set it."""
    fw = Firmware(sources=["arch/msp430x/fep256_mul_mpy32.S"] + P256_FILES, mpy=32,
                  decls=DECLS + """void mb_p256_ladder_cswap_addc(void *w, uint32_t bit);
void mb_p256_ladder_add(void *w);
void mb_p256_ladder_loop(void *w, const void *kw);
static uint8_t w[288];
static uint16_t ctl[12];""", inputs={"v": 64 + 36},
                  driver="""
        for (j = 0; j < 2; j++) {
            uint16_t c0 = j ? 0x0100u : 0;
            REG16(0x04EC) = c0; mb_fep256_mul(h, v, v + 32); ctl[6 * j] = REG16(0x04EC);
            REG16(0x04EC) = c0; mb_fep256_sqr(h, v); ctl[6 * j + 1] = REG16(0x04EC);
            REG16(0x04EC) = c0; mb_fep256_sqr_n(h, v, 2); ctl[6 * j + 2] = REG16(0x04EC);
            for (i = 0; i < 288; i++) w[i] = v[i & 63];
            REG16(0x04EC) = c0; mb_p256_ladder_cswap_addc(w, 1); ctl[6 * j + 3] = REG16(0x04EC);
            REG16(0x04EC) = c0; mb_p256_ladder_add(w); ctl[6 * j + 4] = REG16(0x04EC);
            REG16(0x04EC) = c0; mb_p256_ladder_loop(w, v + 64); ctl[6 * j + 5] = REG16(0x04EC);
        }
        REG16(0x04EC) = 0;
        h_out("ctl", ctl, sizeof ctl);""", name="ctl0")
    rnd = random.Random(5)
    r = fw.run(v=le(rnd.randrange(P)) + le(rnd.randrange(P)) + rnd.getrandbits(257).to_bytes(36, "little"))
    assert r.sim.returncode == 0, r.sim.error
    got = r.out["ctl"][0]
    vals = [got[2 * i] | got[2 * i + 1] << 8 for i in range(12)]
    # MPYM (bits 5:4) and the operand widths (6, 7) follow the last operation
    sys.path.insert(0, str(REPO / "arch/msp430x"))
    import gen_fep256                                               # noqa: E402
    # (with gen_fep256.USE_DLYWRTEN False the kernels leave MPY32CTL0 alone)
    want = [0] * 12 if gen_fep256.USE_DLYWRTEN else [0] * 6 + [0x0100] * 6
    assert [v & 0x0300 for v in vals] == want, [hex(v) for v in vals]


@pytest.mark.parametrize("mpy", [32, 16])
def test_p256_ecdh_against_openssl(mpy):
    ec = pytest.importorskip("cryptography.hazmat.primitives.asymmetric.ec")
    ser = pytest.importorskip("cryptography.hazmat.primitives.serialization")
    n = 2
    fw = Firmware(sources=[f"arch/msp430x/fep256_mul_mpy{mpy}.S"] + P256_FILES,
                  mpy=mpy, lib=portable_sources(exclude=P256_REPLACES),
                  decls='#include "motebox.h"\nstatic uint8_t sh[32];', inputs={"kp": 97 * n},
                  driver=f"""for (i = 0; i < {n}; i++) {{
        H_CALL("ecdh", mb_p256_ecdh, sh, kp + 97 * i, kp + 97 * i + 32, 65);
        h_out("sh", sh, 32); }}""", name=f"ecdh_{mpy}")
    blob, want = b"", []
    for _ in range(n):
        a = ec.generate_private_key(ec.SECP256R1())
        b = ec.generate_private_key(ec.SECP256R1())
        pk = b.public_key().public_bytes(ser.Encoding.X962, ser.PublicFormat.UncompressedPoint)
        blob += a.private_numbers().private_value.to_bytes(32, "big") + pk
        want.append(a.exchange(ec.ECDH(), b.public_key()))
    r = fw.run(kp=blob)
    r.check()
    assert r.out["sh"] == want
    assert all(c.ret & 0xFFFF == 0 for c in r.calls["ecdh"])
