# SPDX-License-Identifier: MIT
"""Salsa20 family and Poly1305 against outside references: RFC 7539 Poly1305 vectors
(cryptography-vectors), the NaCl distribution's core1/core2/stream tests, libsodium
(system library via ctypes, and PyNaCl), and Poly1305 in Python big integers."""
import hashlib
import os
import random

import nacl.bindings as nb
import pytest

import sodium_ref
from vectors import P1305, poly1305_int, poly1305_rfc

# NaCl tests/core1.c, core2.c, stream.c (also libsodium test/default/*): the X25519
# shared secret of the box example, HSalsa20 of it ("firstkey"), HSalsa20 of firstkey
# and the nonce prefix ("secondkey"), and the SHA-256 of 4 MiB of XSalsa20 keystream.
# Each constant is also recomputed with libsodium below, so a typo cannot pass.
NACL_SHARED = bytes.fromhex("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742")
NACL_FIRSTKEY = bytes.fromhex("1b27556473e985d462cd51197a9a46c76009549eac6474f206c4ee0844f68389")
NACL_SECONDKEY = bytes.fromhex("dc908dda0b9344a953629b733820778880f3ceb421bb61b91cbd4c3e66256ce4")
NACL_NONCE = bytes.fromhex("69696ee955b62b73cd62bda875fc73d68219e0036b7a0b37")
NACL_STREAM_SHA256 = "662b9d0e3463029156069b12f918691a98f7dfb2ca0393c96bbfc6b1fbd630a2"
ALICE_SK = bytes.fromhex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")
BOB_PK = bytes.fromhex("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")


def test_nacl_constants_against_libsodium():
    assert nb.crypto_scalarmult(ALICE_SK, BOB_PK) == NACL_SHARED
    assert sodium_ref.hsalsa20(bytes(16), NACL_SHARED) == NACL_FIRSTKEY
    assert sodium_ref.hsalsa20(NACL_NONCE[:16], NACL_FIRSTKEY) == NACL_SECONDKEY
    assert nb.crypto_box_beforenm(BOB_PK, ALICE_SK) == NACL_FIRSTKEY


# ---- Poly1305 -------------------------------------------------------------------

def test_poly1305_rfc7539(lib):
    cases = poly1305_rfc()
    assert len(cases) >= 10
    for key, msg, tag in cases:
        assert lib.poly1305(msg, key) == tag
        assert lib.poly1305_verify(tag, msg, key)
        bad = bytearray(tag)
        bad[len(msg) % 16] ^= 1
        assert not lib.poly1305_verify(bytes(bad), msg, key)


def test_poly1305_random_vs_libsodium_and_ints(lib):
    rng = random.Random(1305 + lib.radix)
    for i in range(400):
        k = rng.randbytes(32)
        m = rng.randbytes(rng.choice([i % 70, rng.randrange(0, 1000)]))
        want = sodium_ref.poly1305(m, k)
        assert want == poly1305_int(m, k)
        assert lib.poly1305(m, k) == want, (k.hex(), m.hex())


@pytest.mark.parametrize("kbyte,mbyte", [(0xff, 0xff), (0xff, 0x00), (0x00, 0xff), (0xfc, 0xff)])
def test_poly1305_extreme_limbs(lib, kbyte, mbyte):
    # All-ones r (after clamping) and all-ones blocks drive every limb and carry to its
    # bound and h close to 2^130 - 5, where the final reduction matters.
    for n in (0, 1, 15, 16, 17, 32, 64, 1000):
        k, m = bytes([kbyte]) * 32, bytes([mbyte]) * n
        assert lib.poly1305(m, k) == sodium_ref.poly1305(m, k) == poly1305_int(m, k)


def test_poly1305_final_reduction_edge(lib):
    # r = 1, s = 0: multiplying by r changes nothing, so h ends as the exact sum of the
    # blocks (each plus 2^128). Three blocks summing to p-1, p, p+1, p+4 or 2^130-1
    # put h right at the edge of the final "h >= p" selection.
    k = (1).to_bytes(16, "little") + bytes(16)
    top = (1 << 128) - 1
    for target in (P1305 - 1, P1305, P1305 + 1, P1305 + 4, (1 << 130) - 1):
        need = target - 3 * (1 << 128)
        x = min(top, need)
        y = need - x
        assert 0 <= y <= top
        m = x.to_bytes(16, "little") + y.to_bytes(16, "little") + bytes(16)
        want = poly1305_int(m, k)
        assert want == (target % P1305 % (1 << 128)).to_bytes(16, "little")
        assert lib.poly1305(m, k) == want == sodium_ref.poly1305(m, k)


# ---- HSalsa20 / XSalsa20 ----------------------------------------------------------

def test_hsalsa20_nacl_vectors(lib):
    assert lib.hsalsa20(bytes(16), NACL_SHARED) == NACL_FIRSTKEY
    assert lib.hsalsa20(NACL_NONCE[:16], NACL_FIRSTKEY) == NACL_SECONDKEY


def test_hsalsa20_random(lib):
    rng = random.Random(20 + lib.radix)
    for _ in range(300):
        inp, k = rng.randbytes(16), rng.randbytes(32)
        assert lib.hsalsa20(inp, k) == sodium_ref.hsalsa20(inp, k)
    # HSalsa20(0, X25519(sk, pk)) is crypto_box_beforenm (PyNaCl).
    for _ in range(20):
        sk, pk = os.urandom(32), nb.crypto_scalarmult_base(os.urandom(32))
        assert lib.hsalsa20(bytes(16), nb.crypto_scalarmult(sk, pk)) == nb.crypto_box_beforenm(pk, sk)


def test_xsalsa20_nacl_stream_vector(lib):
    # 4 MiB: 65,536 blocks, so the block counter carries into its second byte and beyond.
    ks = lib.xsalsa20(4194304, NACL_NONCE, NACL_FIRSTKEY)
    assert hashlib.sha256(ks).hexdigest() == NACL_STREAM_SHA256
    assert hashlib.sha256(sodium_ref.xsalsa20(4194304, NACL_NONCE, NACL_FIRSTKEY)).hexdigest() \
        == NACL_STREAM_SHA256


def test_xsalsa20_random_vs_libsodium(lib):
    rng = random.Random(2020 + lib.radix)
    for i in range(200):
        n, k = rng.randbytes(24), rng.randbytes(32)
        length = rng.choice([i, rng.randrange(0, 3000)])
        ks = lib.xsalsa20(length, n, k)
        assert ks == sodium_ref.xsalsa20(length, n, k)
        m = rng.randbytes(length)
        assert lib.xsalsa20_xor(m, n, k) == sodium_ref.xsalsa20_xor(m, n, k)


def test_xsalsa20_vs_pynacl_secretbox(lib):
    # PyNaCl has no raw stream: secretbox of zeros is keystream bytes 32.. (after the
    # 32-byte Poly1305 key), so it checks the keystream independently of libsodium's
    # stream API.
    for length in (0, 1, 31, 32, 33, 63, 64, 65, 200, 1000):
        n, k = os.urandom(24), os.urandom(32)
        box = nb.crypto_secretbox_easy(bytes(length), n, k)
        assert lib.xsalsa20(32 + length, n, k)[32:] == box[16:]


def test_xsalsa20_xor_in_place(lib):
    import ctypes
    n, k = os.urandom(24), os.urandom(32)
    m = os.urandom(777)
    buf = ctypes.create_string_buffer(m, len(m))
    lib.c.mb_xsalsa20_xor(buf, buf, len(m), n, k)
    assert buf.raw == sodium_ref.xsalsa20_xor(m, n, k)


def test_lengths_checked(lib):
    with pytest.raises(ValueError, match=r"^k must be"):
        lib.poly1305(b"x", bytes(31))
    with pytest.raises(ValueError, match=r"^tag must be"):
        lib.poly1305_verify(bytes(15), b"x", bytes(32))
    with pytest.raises(ValueError, match=r"^n must be"):
        lib.xsalsa20(10, bytes(23), bytes(32))
    with pytest.raises(ValueError, match=r"^in must be"):
        lib.hsalsa20(bytes(15), bytes(32))
