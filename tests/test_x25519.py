# SPDX-License-Identifier: MIT
"""X25519 (mb_x25519, mb_x25519_base, mb_x25519_randomized) on every field backend against
outside references only: RFC 7748 section 5.2, Wycheproof x25519_test.json, libsodium
(PyNaCl) and OpenSSL (cryptography)."""
import ctypes
import os
import random

import nacl.bindings as sodium
import pytest
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

import motebox
from vectors import RFC7748_ITERATED, rfc7748, wycheproof

N_INTEROP = 1000          # random key pairs per backend and direction
ZERO = bytes(32)

WYCHEPROOF = wycheproof("x25519_test.json")


def rnd_cases():
    """rnd values for the randomized ladder: the degenerate ones (lambda = rnd with bits 0
    and 255 cleared: those that leave 0 must be mapped to nonzero), values around p (p
    itself, odd, becomes p - 1), one half zero, all ones, and random."""
    r = random.Random(2)
    p = 2**255 - 19
    fixed = [ZERO, b"\xff" * 32, bytes(16) + b"\xff" * 16, b"\xff" * 16 + bytes(16),
             b"\x01" + bytes(31), bytes(31) + b"\x80", b"\x01" + bytes(30) + b"\x80",
             bytes(16) + b"\x01" + bytes(15), p.to_bytes(32, "little"),
             (p + 1).to_bytes(32, "little"), (2**255 - 2).to_bytes(32, "little")]
    return fixed + [r.randbytes(32) for _ in range(10)]


# ---- RFC 7748 ----------------------------------------------------------------------------

@pytest.mark.parametrize("k,u,out", rfc7748(), ids=lambda v: v.hex()[:8])
def test_rfc7748(lib, k, u, out):
    assert lib.x25519(k, u) == out
    for rnd in rnd_cases():
        assert lib.x25519_randomized(k, u, rnd) == out


def iterate(lib, n):
    k = u = (9).to_bytes(32, "little")
    for _ in range(n):
        k, u = lib.x25519(k, u), k
    return k


@pytest.mark.parametrize("n", [1, 1000])
def test_rfc7748_iterated(lib, n):
    assert iterate(lib, n) == RFC7748_ITERATED[n]


@pytest.mark.slow
def test_rfc7748_iterated_million(lib):
    assert iterate(lib, 1_000_000) == RFC7748_ITERATED[1_000_000]


# ---- Wycheproof ----------------------------------------------------------------------------

def test_wycheproof_loaded():
    assert len(WYCHEPROOF) > 500
    # The file has no "invalid" X25519 cases: all are valid or acceptable, and the only
    # ones we refuse are those whose shared secret is all zero (RFC 7748 section 6.1).
    assert {t["result"] for t in WYCHEPROOF} <= {"valid", "acceptable"}
    for t in WYCHEPROOF:
        assert ("ZeroSharedSecret" in t["flags"]) == (bytes.fromhex(t["shared"]) == ZERO), t["tcId"]


@pytest.mark.parametrize("randomized", [False, True], ids=["plain", "randomized"])
def test_wycheproof(lib, randomized):
    r = random.Random(3)
    failures = []
    for t in WYCHEPROOF:
        sk, pk, shared = (bytes.fromhex(t[k]) for k in ("private", "public", "shared"))
        call = (lambda: lib.x25519_randomized(sk, pk, r.randbytes(32))) if randomized else \
            (lambda: lib.x25519(sk, pk))
        try:
            got = call()
        except motebox.BadKey:
            got = None
        want = None if shared == ZERO else shared
        if got != want:
            failures.append((t["tcId"], t["flags"], got and got.hex()))
    assert not failures, f"{len(failures)} Wycheproof cases failed, first: {failures[:3]}"


def c_call(lib, fn, *args):
    """Call the C function directly with an output pre-filled with 0xAA: (rc, out)."""
    out = ctypes.create_string_buffer(b"\xaa" * 32, 32)
    rc = getattr(lib.c, fn)(out, *args)
    return rc, out.raw


def test_zero_shared_returns_minus_one_and_zeroes(lib):
    """Every all-zero Wycheproof case: -1 and out zeroed by all three entry points."""
    cases = [t for t in WYCHEPROOF if bytes.fromhex(t["shared"]) == ZERO]
    assert len(cases) >= 20
    for t in cases:
        sk, pk = bytes.fromhex(t["private"]), bytes.fromhex(t["public"])
        assert c_call(lib, "mb_x25519", sk, pk) == (-1, ZERO)
        for rnd in (ZERO, b"\xff" * 32, os.urandom(32)):
            assert c_call(lib, "mb_x25519_randomized", sk, pk, rnd) == (-1, ZERO)
        with pytest.raises(motebox.BadKey):
            lib.x25519(sk, pk)


def test_success_returns_zero(lib):
    sk, pk = os.urandom(32), sodium.crypto_scalarmult_base(os.urandom(32))
    rc, out = c_call(lib, "mb_x25519", sk, pk)
    assert rc == 0 and out == sodium.crypto_scalarmult(sk, pk)
    rc, out = c_call(lib, "mb_x25519_base", sk)
    assert rc == 0 and out == sodium.crypto_scalarmult_base(sk)


def test_out_aliases_pk(lib):
    """The header allows out == pk."""
    sk, pk = os.urandom(32), sodium.crypto_scalarmult_base(os.urandom(32))
    buf = ctypes.create_string_buffer(pk, 32)
    assert lib.c.mb_x25519(buf, sk, buf) == 0
    assert buf.raw == sodium.crypto_scalarmult(sk, pk)
    buf = ctypes.create_string_buffer(pk, 32)
    assert lib.c.mb_x25519_randomized(buf, sk, buf, os.urandom(32)) == 0
    assert buf.raw == sodium.crypto_scalarmult(sk, pk)


# ---- interop with libsodium (PyNaCl) and OpenSSL --------------------------------------------

def test_base_vs_libsodium(lib):
    r = random.Random(4 + lib.radix)
    for _ in range(N_INTEROP):
        sk = r.randbytes(32)
        assert lib.x25519_base(sk) == sodium.crypto_scalarmult_base(sk), sk.hex()


def test_shared_both_directions_vs_libsodium(lib):
    """Our side and libsodium's side agree on the shared secret, both ways round."""
    r = random.Random(5 + lib.radix)
    for _ in range(N_INTEROP):
        a, b = r.randbytes(32), r.randbytes(32)
        pa = lib.x25519_base(a)                      # ours
        pb = sodium.crypto_scalarmult_base(b)        # libsodium's
        s1 = lib.x25519(a, pb)
        assert s1 == sodium.crypto_scalarmult(b, pa)
        assert s1 == sodium.crypto_scalarmult(a, pb)


def test_random_u_vs_libsodium(lib):
    """Arbitrary 32-byte u (top bit set half the time, non-canonical values included):
    libsodium also ignores bit 255 and reduces u mod p."""
    r = random.Random(6 + lib.radix)
    us = [r.randbytes(32) for _ in range(N_INTEROP)]
    P = 2**255 - 19
    us += [(P + i).to_bytes(32, "little") for i in range(1, 18)]          # non-canonical
    us += [(P + i + 2**255).to_bytes(32, "little") for i in range(1, 18)]  # and bit 255
    skipped = 0
    for u in us:
        sk = r.randbytes(32)
        try:
            want = sodium.crypto_scalarmult(sk, u)
        except Exception:       # libsodium refuses its small-order blacklist (p, p+1, ...)
            skipped += 1        # (those are Wycheproof's low-order cases, tested there)
            continue
        assert lib.x25519(sk, u) == want, (sk.hex(), u.hex())
    assert skipped <= 6


def test_vs_openssl(lib):
    r = random.Random(7 + lib.radix)
    for _ in range(300):
        a = X25519PrivateKey.from_private_bytes(r.randbytes(32))
        b = X25519PrivateKey.from_private_bytes(r.randbytes(32))
        pa = a.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        sk_b = b.private_bytes_raw()
        shared = b.exchange(X25519PublicKey.from_public_bytes(pa))
        assert lib.x25519(sk_b, pa) == shared


def test_randomized_equals_plain(lib):
    r = random.Random(8 + lib.radix)
    fixed = rnd_cases()
    for i in range(N_INTEROP // 3):
        sk, pk = r.randbytes(32), r.randbytes(32)
        want = sodium.crypto_scalarmult(sk, pk)
        rnd = fixed[i] if i < len(fixed) else r.randbytes(32)
        assert lib.x25519_randomized(sk, pk, rnd) == want
        assert lib.x25519(sk, pk) == want


def test_clamping_and_top_bit(lib):
    """Bits the RFC clamps (sk) or ignores (u bit 255) do not change the result."""
    r = random.Random(9)
    for _ in range(50):
        sk, pk = bytearray(r.randbytes(32)), bytearray(sodium.crypto_scalarmult_base(r.randbytes(32)))
        want = lib.x25519(bytes(sk), bytes(pk))
        sk2 = bytearray(sk)
        sk2[0] ^= 7
        sk2[31] ^= 0x80
        sk2[31] ^= 0x40
        pk2 = bytearray(pk)
        pk2[31] ^= 0x80
        assert lib.x25519(bytes(sk2), bytes(pk2)) == want
        assert want == sodium.crypto_scalarmult(bytes(sk), bytes(pk))


# ---- argument checking in the binding ----------------------------------------------------------

@pytest.mark.parametrize("bad", [b"", bytes(31), bytes(33), bytes(64)])
def test_wrong_lengths(lib, bad):
    good = bytes(range(32))
    with pytest.raises(ValueError, match="sk"):
        lib.x25519(bad, good)
    with pytest.raises(ValueError, match="pk"):
        lib.x25519(good, bad)
    with pytest.raises(ValueError, match="sk"):
        lib.x25519_base(bad)
    with pytest.raises(ValueError, match="rnd"):
        lib.x25519_randomized(good, good, bad)
    with pytest.raises(ValueError, match="pk"):
        lib.x25519_randomized(good, bad, good)
    with pytest.raises(ValueError, match="sk"):
        lib.x25519_randomized(bad, good, good)
