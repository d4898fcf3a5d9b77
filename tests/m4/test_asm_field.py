# SPDX-License-Identifier: MIT
"""The Cortex-M4 assembly GF(2^255-19) routines (arch/cortex-m4/) against Python big
integers, executed instruction by instruction on the unicorn Thumb-2 (M-class) engine.

Inputs cover random 256-bit values and the edges of the lazy-reduction bounds (values
are any 256-bit integers, kept mod 2^256-38): 0, 1, p-1, p, p+1, 2^255-1, 2^256-39,
2^256-38, 2^256-1, and values with all-ones / all-zero limbs."""
import random
import subprocess
import sys

import pytest

from arm_harness import RAM, arm_cpu, get, put
from conftest import REPO

P = 2**255 - 19
M = 2**256 - 38
EDGES = [0, 1, 2, 19, 38, P - 1, P, P + 1, 2**255 - 1, 2**255, M - 1, M, M + 1, 2**256 - 1,
         2**32 - 1, 2**224, sum(0xFFFFFFFF << (64 * i) for i in range(4))]


@pytest.fixture(scope="module")
def cpu(tmp_path_factory):
    srcs = [p for p in sorted((REPO / "arch" / "cortex-m4").glob("*.S"))
            if not p.name.startswith(("fep256_", "p256_"))]
    return arm_cpu(tmp_path_factory.mktemp("m4asm"), srcs,
                   ("mb_fe25519_", "mb_x25519_", "mb_salsa20_", "mb_hsalsa20_core", "mb_poly1305_"))


H, F, G = RAM + 0x100, RAM + 0x200, RAM + 0x300


def cases(n, seed):
    rng = random.Random(seed)
    pairs = [(a, b) for a in EDGES for b in EDGES]
    pairs += [(rng.getrandbits(256), rng.getrandbits(256)) for _ in range(n)]
    return pairs


def check(uc, call, name, f, g, expect):
    put(uc, F, f)
    put(uc, G, g)
    call(name, H, F, G)
    h = get(uc, H)
    m = P if name == "mb_fe25519_mul" else M  # mul/sqr reduce with 2^255 = 19: mod p only
    assert h % m == expect % m, f"{name}({f:#x}, {g:#x})"


@pytest.mark.parametrize("name, op", [
    ("mb_fe25519_add", lambda f, g: f + g),
    ("mb_fe25519_sub", lambda f, g: f - g),
    ("mb_fe25519_mul", lambda f, g: f * g),
])
def test_binary_ops(cpu, name, op):
    uc, call = cpu
    for f, g in cases(3000, name):
        check(uc, call, name, f, g, op(f, g))


def test_unary_ops(cpu):
    uc, call = cpu
    for f, _ in cases(3000, "unary"):
        put(uc, F, f)
        call("mb_fe25519_sqr", H, F)
        assert get(uc, H) % P == f * f % P
        call("mb_fe25519_mul121666", H, F)
        assert get(uc, H) % M == 121666 * f % M


def test_outputs_alias_inputs(cpu):
    uc, call = cpu
    rng = random.Random(7)
    for name, op in (("mb_fe25519_mul", lambda f, g: f * g), ("mb_fe25519_add", lambda f, g: f + g),
                     ("mb_fe25519_sub", lambda f, g: f - g)):
        f, g = rng.getrandbits(256), rng.getrandbits(256)
        put(uc, F, f)
        put(uc, G, g)
        m = P if name == "mb_fe25519_mul" else M
        call(name, F, F, G)          # h == f
        assert get(uc, F) % m == op(f, g) % m
        put(uc, F, f)
        call(name, G, F, G)          # h == g
        assert get(uc, G) % m == op(f, g) % m
    f = rng.getrandbits(256)
    put(uc, F, f)
    call("mb_fe25519_sqr", F, F)
    assert get(uc, F) % P == f * f % P


def test_results_stay_below_2_256(cpu):
    """Lazy reduction must never lose a carry: every output is a 256-bit value (checked
    implicitly by the congruence above) that is a valid input to the next operation;
    here: long chains of operations on edge values agree with Python."""
    uc, call = cpu
    rng = random.Random(11)
    x = 2**256 - 1
    put(uc, F, x)
    for _ in range(500):
        g = rng.choice(EDGES + [rng.getrandbits(256)])
        put(uc, G, g)
        name = rng.choice(["mb_fe25519_add", "mb_fe25519_sub", "mb_fe25519_mul"])
        call(name, F, F, G)
        x = {"mb_fe25519_add": x + g, "mb_fe25519_sub": x - g, "mb_fe25519_mul": x * g}[name] % P
        assert get(uc, F) % P == x                # mul reduces mod p (2^255 = 19)


def test_cswap(cpu):
    uc, call = cpu
    rng = random.Random(3)
    for bit in (0, 1, 0, 1):
        f, g = rng.getrandbits(256), rng.getrandbits(256)
        put(uc, F, f)
        put(uc, G, g)
        call("mb_fe25519_cswap", F, G, bit)
        assert (get(uc, F), get(uc, G)) == ((g, f) if bit else (f, g))


SIGMA = b"expand 32-byte k"


def test_salsa20_against_libsodium(cpu):
    """mb_hsalsa20_core and mb_salsa20_block in assembly, composed into XSalsa20 as
    src/sym/xsalsa20.c does, against libsodium: crypto_box_beforenm is
    HSalsa20(X25519 shared, 0), and crypto_secretbox of zeros reveals the XSalsa20
    keystream from byte 32 on. Unaligned buffers on purpose (the M4 allows single
    unaligned LDR/STR; LDM/LDRD would fault)."""
    import nacl.bindings as nb
    uc, call = cpu
    rng = random.Random(13)
    OUT, IN, K, C = RAM + 0x2001, RAM + 0x2103, RAM + 0x2202, RAM + 0x2301
    for _ in range(20):
        sk, pk = rng.randbytes(32), nb.crypto_scalarmult_base(rng.randbytes(32))
        shared = nb.crypto_scalarmult(sk, pk)
        uc.mem_write(IN, bytes(16))
        uc.mem_write(K, shared)
        uc.mem_write(C, SIGMA)
        call("mb_hsalsa20_core", OUT, IN, K, C)
        assert bytes(uc.mem_read(OUT, 32)) == nb.crypto_box_beforenm(pk, sk)

        key, nonce = rng.randbytes(32), rng.randbytes(24)
        uc.mem_write(IN, nonce[:16])
        uc.mem_write(K, key)
        call("mb_hsalsa20_core", OUT, IN, K, C)
        subkey = bytes(uc.mem_read(OUT, 32))
        stream = b""
        for ctr in range(4):
            uc.mem_write(IN, nonce[16:] + ctr.to_bytes(8, "little"))
            uc.mem_write(K, subkey)
            call("mb_salsa20_block", OUT, IN, K)
            stream += bytes(uc.mem_read(OUT, 64))
        box = nb.crypto_secretbox(bytes(224), nonce, key)       # tag || keystream[32:256]
        assert stream[32:] == box[16:]


@pytest.mark.parametrize("gen, output", [("gen_mul.py", "fe25519_mul.S"),
                                         ("gen_sqr.py", "fe25519_sqr.S"),
                                         ("gen_fep256_mul.py", "fep256_mul.S")])
def test_generated_assembly_is_current(gen, output):
    """The unrolled routines are generated (arch/cortex-m4/gen_*.py are the source): the
    committed output must be what the committed generator prints."""
    arch = REPO / "arch" / "cortex-m4"
    out = subprocess.run([sys.executable, str(arch / gen)], capture_output=True, text=True,
                         check=True).stdout
    assert out == (arch / output).read_text()
