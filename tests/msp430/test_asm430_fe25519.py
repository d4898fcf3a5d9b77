# SPDX-License-Identifier: MIT
"""arch/msp430x GF(2^255-19) kernels (mb_fe25519_mul/_sqr/_mul121666/_add/_sub/_cswap,
the ladder's internal mb_fe25519_mul121665_add and mb_fe25519_cmov)
against Python integers, on the simulated MSP430FR5969 with each multiplier: random
inputs and the edges of the radix-2^16 contract (any 256-bit input: 0, 1, p-1, p, p+k,
2^255-19+k, 2^256-38.., 2^256-1), outputs < 2^256 and congruent mod p, h aliasing f;
callee-saved registers and SP kept (checked by the harness's trampoline); cycles
including the call are printed (pytest -s) and bounded."""
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import asm_harness as H  # noqa: E402

P = 2**255 - 19
M = 2**256 - 1
SRC = {32: ["arch/msp430x/fe25519_mul_mpy32.S", "arch/msp430x/fe25519_addsub.S"],
       16: ["arch/msp430x/fe25519_mul_mpy16.S", "arch/msp430x/fe25519_addsub.S"]}

pytestmark = pytest.mark.skipif(not H.have_tools(), reason="clang/ld.lld/msp430sim missing")

EDGES = [0, 1, 2, 19, 38, P - 1, P, P + 1, P + 18, P + 19, 2 * P - 1, 2 * P, 2**255 - 1,
         2**255, 2**256 - 38, 2**256 - 39, 2**256 - 37, 2**256 - 2, M, 0xFFFF, 2**128 - 1,
         2**240, 0x8000 << 240, int("0001" * 16, 16), int("ffff0000" * 8, 16)]

NCASE = 48

DECLS = """
void mb_fe25519_mul(void *h, const void *f, const void *g);
void mb_fe25519_sqr(void *h, const void *f);
void mb_fe25519_mul121666(void *h, const void *f);
void mb_fe25519_mul121665_add(void *h, const void *f, const void *g);
void mb_fe25519_add(void *h, const void *f, const void *g);
void mb_fe25519_sub(void *h, const void *f, const void *g);
void mb_fe25519_cswap(void *f, void *g, uint32_t bit);
void mb_fe25519_cmov(void *h, const void *g, uint16_t bit);
static uint16_t h[16], f2[16], g2[16];
static void cp(uint16_t *d, const uint8_t *s)
{ int k; for (k = 0; k < 16; k++) d[k] = (uint16_t)(s[2 * k] | (s[2 * k + 1] << 8)); }
"""
DRIVER = f"""
    for (i = 0; i < {NCASE}; i++) {{
        const uint8_t *f = cases + 64 * i, *g = f + 32;
        H_CALL("mul", mb_fe25519_mul, h, f, g, 0); h_out("mul", h, 32);
        H_CALL("sqr", mb_fe25519_sqr, h, f, 0, 0); h_out("sqr", h, 32);
        H_CALL("add", mb_fe25519_add, h, f, g, 0); h_out("add", h, 32);
        H_CALL("sub", mb_fe25519_sub, h, f, g, 0); h_out("sub", h, 32);
        H_CALL("m121666", mb_fe25519_mul121666, h, f, 0, 0); h_out("m121666", h, 32);
        cp(f2, f); cp(g2, g);
        H_CALL("cswap", mb_fe25519_cswap, f2, g2, (uint16_t)(i & 1), 0);
        h_out("csf", f2, 32); h_out("csg", g2, 32);
        cp(f2, f); cp(g2, g);
        H_CALL("cmov", mb_fe25519_cmov, f2, g2, (uint16_t)((i >> 1) & 1), 0);
        h_out("cmf", f2, 32); h_out("cmg", g2, 32);
        /* outputs aliasing inputs */
        cp(f2, f); cp(g2, g);
        H_CALL("mul_a", mb_fe25519_mul, f2, f2, g2, 0); h_out("mul_a", f2, 32);
        cp(f2, f); cp(g2, g);
        H_CALL("mul_b", mb_fe25519_mul, g2, f2, g2, 0); h_out("mul_b", g2, 32);
        cp(f2, f);
        H_CALL("sqr_a", mb_fe25519_sqr, f2, f2, 0, 0); h_out("sqr_a", f2, 32);
        cp(f2, f); cp(g2, g);
        H_CALL("add_a", mb_fe25519_add, g2, f2, g2, 0); h_out("add_a", g2, 32);
        cp(f2, f); cp(g2, g);
        H_CALL("sub_a", mb_fe25519_sub, f2, f2, g2, 0); h_out("sub_a", f2, 32);
        cp(f2, f);
        H_CALL("m121666_a", mb_fe25519_mul121666, f2, f2, 0, 0); h_out("m121666_a", f2, 32);
        H_CALL("m121665add", mb_fe25519_mul121665_add, h, f, g, 0); h_out("m121665add", h, 32);
        cp(f2, f); cp(g2, g);
        H_CALL("m121665add_a", mb_fe25519_mul121665_add, g2, f2, g2, 0);
        h_out("m121665add_a", g2, 32);
        cp(f2, f); cp(g2, g);
        H_CALL("m121665add_b", mb_fe25519_mul121665_add, f2, f2, g2, 0);
        h_out("m121665add_b", f2, 32);
    }}
"""


def cases(seed):
    rnd = random.Random(seed)
    out = []
    for a in EDGES:
        out.append((a, rnd.choice(EDGES)))
        out.append((a, a))
    while len(out) < 2 * NCASE:
        kind = rnd.randrange(3)
        if kind == 0:
            out.append((rnd.getrandbits(256), rnd.getrandbits(256)))
        elif kind == 1:
            out.append((M - rnd.getrandbits(40), M - rnd.getrandbits(rnd.randrange(1, 256))))
        else:
            out.append((rnd.choice(EDGES), rnd.getrandbits(256)))
    return [out[:NCASE], out[NCASE:2 * NCASE], carry_cases(rnd)]


def words(ws):
    return sum(w << (16 * i) for i, w in enumerate(ws))


def carry_cases(rnd):
    """One batch: (1) every 8x8 Karatsuba product's column 1 and column 13 (two
    products each) with a low word 0xFFFF and a sum of the other words 0x10001, so that
    the column's high word overflows into the carry word: f = g = 0xFFFF at words
    0, 8 (L, H), 7 and 15 (columns 13 of L, H), f_1 = 0x8000, g_1 = 0x8001 and so on;
    (2) words drawn mostly from H.CARRY_WORDS."""
    out = []
    for lo, hi in ((0, 1), (8, 9), (7, 6), (15, 14)):
        for a, b in ((0x8000, 0x8001), (0x8001, 0x8000), (0xFFFF, 0x0002)):
            f = [rnd.getrandbits(16) for _ in range(16)]
            g = [rnd.getrandbits(16) for _ in range(16)]
            f[lo] = g[lo] = 0xFFFF
            f[hi], g[hi] = a, b
            out.append((words(f), words(g)))
    while len(out) < NCASE:
        out.append((H.carry_element(rnd), H.carry_element(rnd)))
    return out


def run_batch(fw, batch):
    blob = b"".join(H.le(f) + H.le(g) for f, g in batch)
    r = fw.run(cases=blob).check()
    return r


def expect(name, f, g, i):
    return {"mul": f * g, "mul_a": f * g, "mul_b": f * g, "sqr": f * f, "sqr_a": f * f,
            "add": f + g, "add_a": f + g, "sub": f - g, "sub_a": f - g,
            "m121666": 121666 * f, "m121666_a": 121666 * f, "m121665add": 121665 * f + g,
            "m121665add_a": 121665 * f + g, "m121665add_b": 121665 * f + g}[name] % P


@pytest.fixture(scope="module", params=[32, 16], ids=["mpy32", "mpy16"])
def fw(request):
    return H.Firmware(sources=SRC[request.param], mpy=request.param, decls=DECLS,
                      inputs={"cases": 64 * NCASE}, driver=DRIVER, name="fe25519")


def test_kernels(fw):
    stats = {}
    for bi, batch in enumerate(cases(1234)):
        r = run_batch(fw, batch)
        for i, (f, g) in enumerate(batch):
            for name in ("mul", "mul_a", "mul_b", "sqr", "sqr_a", "add", "add_a", "sub",
                         "sub_a", "m121666", "m121666_a", "m121665add", "m121665add_a",
                         "m121665add_b"):
                h = H.from_le(r.out[name][i])
                assert h < 2**256
                assert h % P == expect(name, f, g, i), (name, hex(f), hex(g))
            sw = i & 1
            assert H.from_le(r.out["csf"][i]) == (g if sw else f)
            assert H.from_le(r.out["csg"][i]) == (f if sw else g)
            mv = (i >> 1) & 1
            assert H.from_le(r.out["cmf"][i]) == (g if mv else f)
            assert H.from_le(r.out["cmg"][i]) == g
        for name, calls in r.calls.items():
            cyc = {c.cycles for c in calls}
            # constant time: the same count for every input
            assert len(cyc) == 1, (name, cyc)
            stats[name] = (cyc.pop(), max(c.stack for c in calls))
    print(f"\nmpy{fw.mpy}: cycles incl. call / stack bytes:",
          {k: v for k, v in stats.items() if not k.endswith(("_a", "_b"))})
    # bounds that would catch a large regression (the README has the figures)
    lim = {32: {"mul": 2300, "sqr": 2300, "add": 260, "sub": 260, "m121666": 520,
                 "m121665add": 620},
           16: {"mul": 4300, "sqr": 4300, "add": 260, "sub": 260, "m121666": 520,
                 "m121665add": 620}}[fw.mpy]
    for k, v in lim.items():
        assert stats[k][0] <= v, (k, stats[k])
    assert stats["mul"][1] <= 160 and stats["sqr"][1] <= 160


def test_generated_files_match():
    """The committed .S files are the generator's output."""
    import subprocess
    p = subprocess.run([sys.executable, str(H.REPO / "arch/msp430x/gen_fe25519.py"), "--check"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
