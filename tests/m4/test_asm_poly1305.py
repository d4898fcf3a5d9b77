# SPDX-License-Identifier: MIT
"""The Cortex-M4 Poly1305 backend (arch/cortex-m4/poly1305_block.S, poly1305_r32.c:
radix 2^32, r in st->r[0..3], h in st->h[0..4] with h[4] <= 4) against Python big
integers, executed on the unicorn Thumb-2 (M-class) engine; then the generic
src/sym/poly1305.c over it, through the C entry points (mb_poly1305 of src/proto/sym.c),
against RFC 8439 (7539) vectors and libsodium (PyNaCl).

Edges: h near and above 2^130 (up to the representation's bound 5 2^128 - 1), h words
all ones, all-ones and zero blocks, hibit 0 and 1, the largest clamped r, r = 0, several
blocks per call, unaligned messages."""
import random
import subprocess

import pytest

import sodium_ref
from arm_harness import RAM, arm_cpu
from conftest import REPO
from vectors import poly1305_rfc

P = 2**130 - 5
CLAMP = 0x0ffffffc0ffffffc0ffffffc0fffffff
R_MAX = CLAMP                               # every bit clamping allows
H_MAX = 5 * 2**128 - 1                      # h[4] <= 4, other words anything
ST, MSG, TAG, KEY = RAM + 0x1000, RAM + 0x2001, RAM + 0x3000, RAM + 0x3100   # MSG unaligned
CFLAGS = ["-std=c99", "-O2", "-mcpu=cortex-m4", "-mthumb", "-ffreestanding",
          "-Wall", "-Wextra", "-Werror", f"-I{REPO / 'include'}", f"-I{REPO / 'src'}"]


@pytest.fixture(scope="module")
def cpu(tmp_path_factory):
    work = tmp_path_factory.mktemp("m4poly")
    objs = []
    # src/proto/sym.c holds mb_poly1305 beside the Salsa20 wrappers, hence the Salsa20
    # files (portable C here) to resolve them.
    for src in (REPO / "arch/cortex-m4/poly1305_r32.c", REPO / "src/sym/poly1305.c",
                REPO / "src/proto/sym.c", REPO / "src/sym/xsalsa20.c",
                REPO / "src/sym/salsa20_core.c", REPO / "src/util/util.c"):
        obj = work / (src.stem + ".o")
        # src/ files as the portable C (salsa20_core.c would give way to salsa20.S).
        portable = ["-DMB_PORTABLE"] if src.parts[-3] == "src" else []
        subprocess.run(["arm-none-eabi-gcc", *CFLAGS, *portable, "-c", str(src), "-o", str(obj)],
                       check=True)
        objs.append(obj)
    return arm_cpu(work, [REPO / "arch/cortex-m4/poly1305_block.S", *objs],
                   ("mb_poly1305",))


def words(x, n):
    return b"".join(((x >> (32 * i)) & 0xFFFFFFFF).to_bytes(4, "little") for i in range(n))


def put_state(uc, r, h, pad=0, tail=b""):
    """r, h in the radix-2^32 layout: r[0..3], r[4] = 0, h[0..4], pad[4], buf, used."""
    uc.mem_write(ST, words(r, 4) + bytes(4) + words(h, 5) + words(pad, 4) + tail.ljust(20, b"\0"))


def get_words(uc, addr, n):
    return [int.from_bytes(uc.mem_read(addr + 4 * i, 4), "little") for i in range(n)]


def value(ws):
    return sum(w << (32 * i) for i, w in enumerate(ws))


def h_cases(rng):
    edges = [0, 1, P - 1, P, P + 1, 2**130 - 1, 2**130, 2**130 + 4, H_MAX, H_MAX - 4,
             2**128 - 1, 2**128, 4 * 2**128 - 1, 2**32 - 1]
    return edges + [rng.getrandbits(128) + (rng.randrange(5) << 128) for _ in range(8)]


def test_setkey(cpu):
    uc, call = cpu
    rng = random.Random(1)
    for key in [b"\xff" * 16, bytes(16)] + [rng.randbytes(16) for _ in range(50)]:
        uc.mem_write(ST, b"\xa5" * 76)
        uc.mem_write(KEY, key)
        call("mb_poly1305_setkey", ST, KEY)
        out = get_words(uc, ST, 19)
        assert value(out[:4]) == int.from_bytes(key, "little") & CLAMP
        assert out[4:10] == [0] * 6                       # r[4] = 0, h = 0
        assert out[10:] == [0xa5a5a5a5] * 9               # pad, buf, used untouched


def check_blocks(uc, call, r, h, blocks, hibit):
    put_state(uc, r, h, pad=0x0123456789abcdef0123456789abcdef, tail=b"tail")
    uc.mem_write(MSG, b"".join(blocks))
    call("mb_poly1305_blocks", ST, MSG, len(blocks), hibit)
    out = get_words(uc, ST, 19)
    assert out[:5] == get_words(uc, ST, 4) + [0]          # r untouched
    assert out[9] <= 4, f"h[4] = {out[9]} out of bound"
    want = h
    for b in blocks:
        want = (want + int.from_bytes(b, "little") + (hibit << 128)) * r % P
    assert value(out[5:10]) % P == want, (hex(r), hex(h), blocks, hibit)
    assert value(out[10:14]) == 0x0123456789abcdef0123456789abcdef
    assert bytes(uc.mem_read(ST + 56, 4)) == b"tail"


def test_blocks_edges(cpu):
    uc, call = cpu
    rng = random.Random(2)
    rs = [R_MAX, 0, 1, 2**28 - 1, 0x0ffffffc << 96, CLAMP & ~0xffffffff] + \
         [rng.getrandbits(128) & CLAMP for _ in range(4)]
    ms = [b"\xff" * 16, bytes(16), (2**128 - 5).to_bytes(16, "little"), rng.randbytes(16)]
    for r in rs:
        for h in h_cases(rng):
            for m in ms:
                for hibit in (0, 1):
                    check_blocks(uc, call, r, h, [m], hibit)


def test_blocks_random(cpu):
    uc, call = cpu
    rng = random.Random(3)
    for n in range(3000):
        r = rng.choice([R_MAX, rng.getrandbits(128) & CLAMP])
        h = rng.choice([rng.randrange(H_MAX + 1), H_MAX - rng.getrandbits(8),
                        rng.getrandbits(130) | (2**128 - 1)]) % (H_MAX + 1)
        blocks = [rng.choice([b"\xff" * 16, rng.randbytes(16)]) for _ in range(1 + n % 5)]
        check_blocks(uc, call, r, h, blocks, rng.getrandbits(1))


def test_blocks_zero_count(cpu):
    uc, call = cpu
    put_state(uc, R_MAX, H_MAX)
    before = bytes(uc.mem_read(ST, 76))
    call("mb_poly1305_blocks", ST, MSG, 0, 1)
    assert bytes(uc.mem_read(ST, 76)) == before


def test_emit(cpu):
    uc, call = cpu
    rng = random.Random(4)
    pads = [0, 2**128 - 1, 5, rng.getrandbits(128)]
    hs = h_cases(rng) + [P + d for d in range(-3, 10)] + \
        [rng.randrange(H_MAX + 1) for _ in range(500)]
    for h in hs:
        for pad in pads:
            put_state(uc, rng.getrandbits(128) & CLAMP, h, pad)
            call("mb_poly1305_emit", ST, TAG)
            tag = int.from_bytes(uc.mem_read(TAG, 16), "little")
            assert tag == (h % P + pad) % 2**128, (hex(h), hex(pad))


def run_mb_poly1305(uc, call, m, k, align=1):
    uc.mem_write(MSG - 1 + align, m)
    uc.mem_write(KEY, k)
    call("mb_poly1305", TAG, MSG - 1 + align, len(m), KEY)
    return bytes(uc.mem_read(TAG, 16))


def test_rfc_vectors_through_c_entry(cpu):
    uc, call = cpu
    cases = poly1305_rfc()
    assert len(cases) >= 10
    for k, m, tag in cases:
        assert run_mb_poly1305(uc, call, m, k) == tag


def test_random_vs_libsodium_through_c_entry(cpu):
    uc, call = cpu
    rng = random.Random(5)
    lengths = list(range(0, 70)) + [127, 128, 129, 255, 256, 1000]
    for i, n in enumerate(lengths):
        k = rng.choice([b"\xff" * 32, rng.randbytes(32)])
        m = rng.choice([b"\xff" * n, rng.randbytes(n)])
        assert run_mb_poly1305(uc, call, m, k, align=i % 4) == \
            sodium_ref.poly1305(m, k)
