# SPDX-License-Identifier: MIT
"""P-256 ECDH of every field backend against outside references: Wycheproof
(ecdh_secp256r1_ecpoint_test.json, ecdh_secp256r1_test.json) and OpenSSL through
`cryptography` (public keys, shared secrets, point compression). Also the invalid inputs
of motebox.h: scalars 0, n, n+1, 2^256-1; points off the curve, on the twist, with a
coordinate >= p, truncated / oversized encodings, the point at infinity."""
import ctypes
import random

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from vectors import wycheproof

import motebox

P = 2**256 - 2**224 + 2**192 + 2**96 - 1
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
AGREEMENTS = 600          # random OpenSSL agreements per backend (x2 encodings)
X962 = serialization.Encoding.X962
UNCOMPRESSED = serialization.PublicFormat.UncompressedPoint
COMPRESSED = serialization.PublicFormat.CompressedPoint


def b32(x):
    return x.to_bytes(32, "big")


def ossl_key(k):
    return ec.derive_private_key(k, ec.SECP256R1())


def ossl_pub(k, fmt=UNCOMPRESSED):
    return ossl_key(k).public_key().public_bytes(X962, fmt)


def ossl_shared(k, pk_bytes):
    peer = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), pk_bytes)
    return ossl_key(k).exchange(ec.ECDH(), peer)


def c_ecdh(lib, sk, pk, rnd=None):
    """The C function itself, any pk length: (rc, output), output pre-filled with 0xA5
    so that 'zeroed on failure' is checked."""
    out = ctypes.create_string_buffer(b"\xa5" * 32, 32)
    if rnd is None:
        rc = lib.c.mb_p256_ecdh(out, sk, pk, len(pk))
    else:
        rc = lib.c.mb_p256_ecdh_randomized(out, sk, pk, len(pk), rnd)
    return rc, out.raw


def c_base(lib, sk):
    out = ctypes.create_string_buffer(b"\xa5" * 65, 65)
    return lib.c.mb_p256_base(out, sk), out.raw


# Scalars where ladders go wrong: the ends of the range, the recoding's boundaries
# (k + 2n crossing 2^257), the halfway point (exceptional-case candidates).
EDGE_SCALARS = sorted({1, 2, 3, 4, 5, N - 1, N - 2, N - 3, N - 4, (N - 1) // 2, (N + 1) // 2,
                       (N + 3) // 2, (N - 3) // 2, 2**257 - 2 * N, 2**257 - 2 * N - 1,
                       2**257 - 2 * N + 1, 2**256 - N, 2**255, 2**224, 2**128, N // 3,
                       2 * N // 3, 2**256 - 2**224 - 1})


def test_recoding_has_exactly_one_exceptional_scalar():
    """The claim src/curve/p256_coz.c relies on, checked with Python integers: with
    k' = k + 2n if that is >= 2^257, else k + 3n, the ladder state (mP, (m+1)P),
    m = floor(k' / 2^j) for j = 1..257, hits m = 0, -1 or -1/2 (mod n) (equal X or the
    point at infinity in a co-Z addition) for k = n - 1 only. Exact interval arithmetic
    over all k in [1, n-1]."""
    reach = [(max(2 * N + 1, 2**257), 3 * N - 1, 2 * N),      # k' = k + 2n
             (3 * N + 1, 2**257 + N - 1, 3 * N)]               # k' = k + 3n
    bad = set()
    for j in range(1, 258):
        lo_m, hi_m = 2**(257 - j), 2**(258 - j)                 # prefixes keep bit 257
        for r in (0, N - 1, (N - 1) // 2):
            t = max(0, (lo_m - r) // N - 1)
            while r + t * N < hi_m:
                m = r + t * N
                t += 1
                if m < lo_m:
                    continue
                for a, b, off in reach:
                    x, y = max(a, m << j), min(b, ((m + 1) << j) - 1)
                    if x <= y:
                        assert y - x < 16, "an exceptional interval should be tiny"
                        bad.update(kp - off for kp in range(x, y + 1))
    assert bad == {N - 1}


# ---- key generation ------------------------------------------------------------------
def test_base_matches_openssl(lib):
    rng = random.Random(100 + lib.radix)
    for k in EDGE_SCALARS + [rng.randrange(1, N) for _ in range(200)]:
        assert lib.p256_base(b32(k)) == ossl_pub(k), hex(k)


@pytest.mark.parametrize("k", [0, N, N + 1, 2**256 - 1, 2**255 + N if 2**255 + N < 2**256 else N + 5])
def test_base_rejects_out_of_range(lib, k):
    rc, out = c_base(lib, b32(k))
    assert rc == -1 and out == bytes(65)
    with pytest.raises(motebox.BadKey, match="sk"):
        lib.p256_base(b32(k))


# ---- ECDH interop ----------------------------------------------------------------------
def test_ecdh_interop_openssl(lib):
    rng = random.Random(200 + lib.radix)
    for _ in range(AGREEMENTS):
        a, b = rng.randrange(1, N), rng.randrange(1, N)
        ref = ossl_key(a).exchange(ec.ECDH(), ossl_key(b).public_key())
        assert lib.p256_ecdh(b32(a), ossl_pub(b)) == ref
        assert lib.p256_ecdh(b32(a), ossl_pub(b, COMPRESSED)) == ref


def test_ecdh_edge_scalars(lib):
    rng = random.Random(300 + lib.radix)
    peer = rng.randrange(1, N)
    pk = ossl_pub(peer)
    for k in EDGE_SCALARS:
        assert lib.p256_ecdh(b32(k), pk) == ossl_shared(k, pk), hex(k)
        # the peer's side with the edge scalar as public key
        pk2 = ossl_pub(k)
        assert lib.p256_ecdh(b32(peer), pk2) == ossl_shared(peer, pk2), hex(k)


def test_ecdh_point_with_x_zero(lib):
    # (0, +-sqrt(b)) are on the curve; the ladder's Z recovery needs x != 0, so these
    # take the "2P and k/2" path.
    y = pow(B, (P + 1) // 4, P)
    assert y * y % P == B
    for yy in (y, P - y):
        pk = b"\x04" + b32(0) + b32(yy)
        for k in EDGE_SCALARS + [random.Random(yy).randrange(1, N) for _ in range(10)]:
            assert lib.p256_ecdh(b32(k), pk) == ossl_shared(k, pk), hex(k)
        assert lib.p256_ecdh(b32(7), lib.p256_compress(pk)) == ossl_shared(7, pk)


def test_randomized_equals_plain(lib):
    rng = random.Random(400 + lib.radix)
    rnds = [bytes(32), b"\xff" * 32, b32(P), b32(P + 1), b32(1)] + \
        [rng.randbytes(32) for _ in range(60)]
    for i, rnd in enumerate(rnds):
        k, peer = rng.randrange(1, N), rng.randrange(1, N)
        if i < 5:
            k = EDGE_SCALARS[i]
        pk = ossl_pub(peer, COMPRESSED if i % 2 else UNCOMPRESSED)
        ref = ossl_shared(k, pk)
        assert lib.p256_ecdh_randomized(b32(k), pk, rnd) == ref
        assert lib.p256_ecdh(b32(k), pk) == ref


# ---- invalid inputs -------------------------------------------------------------------
def test_ecdh_rejects_bad_scalars(lib):
    pk = ossl_pub(12345)
    for k in (0, N, N + 1, 2**256 - 1):
        for rnd in (None, b"\x11" * 32):
            rc, out = c_ecdh(lib, b32(k), pk, rnd)
            assert rc == -1 and out == bytes(32), hex(k)
        with pytest.raises(motebox.BadKey, match="sk"):
            lib.p256_ecdh(b32(k), pk)


def bad_points():
    """(name, encoding) pairs every decoder must reject."""
    rng = random.Random(7)
    k = rng.randrange(1, N)
    good = ossl_pub(k)
    x, y = int.from_bytes(good[1:33], "big"), int.from_bytes(good[33:], "big")
    cases = [
        ("infinity 00", b"\x00"),
        ("infinity 00 padded", b"\x00" * 65),
        ("empty", b""),
        ("y + 1 (off curve)", b"\x04" + b32(x) + b32((y + 1) % P)),
        ("x + 1 (off curve)", b"\x04" + b32((x + 1) % P) + b32(y)),
        ("zeros", b"\x04" + bytes(64)),
        ("x = p", b"\x04" + b32(P) + good[33:]),
        ("y = p", b"\x04" + good[1:33] + b32(P)),
        ("x = 2^256 - 1", b"\x04" + b"\xff" * 32 + good[33:]),
        ("compressed x = p", b"\x02" + b32(P)),
        ("compressed x = 2^256 - 1", b"\x03" + b"\xff" * 32),
        ("truncated 64", good[:64]),
        ("truncated 33 with 04", good[:33]),
        ("oversized 66", good + b"\x00"),
        ("oversized 34 compressed", ossl_pub(k, COMPRESSED) + b"\x00"),
        ("truncated 32 compressed", ossl_pub(k, COMPRESSED)[:32]),
        ("prefix 05", b"\x05" + good[1:]),
        ("hybrid 06", b"\x06" + good[1:]),
        ("hybrid 07", b"\x07" + good[1:]),
        ("compressed prefix, 65 bytes", b"\x02" + good[1:]),
        ("uncompressed prefix, 33 bytes", b"\x04" + good[1:33]),
    ]
    if x + P < 2**256:
        cases.append(("x + p (same x mod p)", b"\x04" + b32(x + P) + good[33:]))
    if y + P < 2**256:
        cases.append(("y + p (same y mod p)", b"\x04" + good[1:33] + b32(y + P)))
    # Invalid-curve points: on y^2 = x^3 - 3x + b' for other b' (what an invalid-curve
    # attack sends); and twist x-coordinates (x^3 - 3x + b not a square) compressed.
    found_twist = 0
    while found_twist < 6:
        xx = rng.randrange(P)
        rhs = (xx**3 - 3 * xx + B) % P
        if pow(rhs, (P - 1) // 2, P) == P - 1:
            cases.append((f"twist x #{found_twist}", bytes([2 + found_twist % 2]) + b32(xx)))
            yy = rng.randrange(P)
            cases.append((f"twist x, any y #{found_twist}", b"\x04" + b32(xx) + b32(yy)))
            found_twist += 1
    for i in range(6):
        xx, yy = rng.randrange(P), rng.randrange(P)   # on y^2 = x^3 - 3x + b' for some b'
        assert (yy * yy - (xx**3 - 3 * xx + B)) % P != 0
        cases.append((f"invalid curve #{i}", b"\x04" + b32(xx) + b32(yy)))
    return cases


@pytest.mark.parametrize("name,pk", bad_points(), ids=[c[0] for c in bad_points()])
def test_ecdh_rejects_bad_points(lib, name, pk):
    sk = b32(0x1234567)
    for rnd in (None, b"\x22" * 32):
        rc, out = c_ecdh(lib, sk, pk, rnd)
        assert rc == -1 and out == bytes(32), name
    if len(pk) in (33, 65):
        with pytest.raises(motebox.BadKey, match="pk"):
            lib.p256_ecdh(sk, pk)
    else:
        with pytest.raises(ValueError, match="pk"):
            lib.p256_ecdh(sk, pk)
    if len(pk) == 65:
        out = ctypes.create_string_buffer(b"\xa5" * 33, 33)
        assert lib.c.mb_p256_compress(out, pk) == -1 and out.raw == bytes(33)
    if len(pk) == 33:
        out = ctypes.create_string_buffer(b"\xa5" * 65, 65)
        assert lib.c.mb_p256_decompress(out, pk) == -1 and out.raw == bytes(65)


def test_python_argument_errors(lib):
    pk = ossl_pub(5)
    with pytest.raises(ValueError, match="sk"):
        lib.p256_base(b"\x01" * 31)
    with pytest.raises(ValueError, match="sk"):
        lib.p256_ecdh(b"\x01" * 33, pk)
    with pytest.raises(ValueError, match="pk"):
        lib.p256_ecdh(b32(3), pk[:40])
    with pytest.raises(ValueError, match="rnd"):
        lib.p256_ecdh_randomized(b32(3), pk, b"\x00" * 31)
    with pytest.raises(ValueError, match="pk"):
        lib.p256_compress(pk[:33])
    with pytest.raises(ValueError, match="pk"):
        lib.p256_decompress(pk)


# ---- compression ------------------------------------------------------------------------
def test_compress_decompress_openssl(lib):
    rng = random.Random(500 + lib.radix)
    for k in EDGE_SCALARS[:6] + [rng.randrange(1, N) for _ in range(200)]:
        u, c = ossl_pub(k), ossl_pub(k, COMPRESSED)
        assert lib.p256_compress(u) == c
        assert lib.p256_decompress(c) == u


# ---- Wycheproof -----------------------------------------------------------------------
def _sk(case):
    k = int(case["private"], 16)
    assert 0 < k < N          # every Wycheproof secp256r1 private key is in range
    return b32(k)


def _check_case(lib, case, pk):
    """pk: the raw SEC1 point. valid/acceptable: our result must equal 'shared' when we
    accept; valid must be accepted. invalid: must be rejected (-1, output zeroed)."""
    sk = _sk(case)
    rc, out = c_ecdh(lib, sk, pk)
    rc_r, out_r = c_ecdh(lib, sk, pk, b"\x5a" * 32)
    assert (rc, out) == (rc_r, out_r), case["tcId"]
    if case["result"] == "valid":
        assert rc == 0 and out.hex() == case["shared"], case["tcId"]
    elif case["result"] == "acceptable":
        assert (rc == 0 and out.hex() == case["shared"]) or (rc == -1 and out == bytes(32))
    else:
        assert rc == -1 and out == bytes(32), (case["tcId"], case["comment"])


def test_wycheproof_ecpoint(lib):
    cases = wycheproof("ecdh_secp256r1_ecpoint_test.json")
    assert len(cases) > 300
    for case in cases:
        _check_case(lib, case, bytes.fromhex(case["public"]))


def _der_bit_string(der):
    """The BIT STRING contents (the SEC1 point) of a DER SubjectPublicKeyInfo that
    `cryptography` already accepted: SEQUENCE { AlgorithmIdentifier, BIT STRING }."""
    def tlv(buf, pos):
        tag, length = buf[pos], buf[pos + 1]
        pos += 2
        if length & 0x80:
            nbytes, length = length & 0x7F, 0
            for _ in range(nbytes):
                length = (length << 8) | buf[pos]
                pos += 1
        return tag, buf[pos:pos + length], pos + length
    tag, body, _ = tlv(der, 0)
    assert tag == 0x30
    tag, _, pos = tlv(body, 0)
    assert tag == 0x30
    tag, bits, _ = tlv(body, pos)
    assert tag == 0x03 and bits[0] == 0    # no unused bits
    return bits[1:]


def test_wycheproof_der(lib):
    """Public keys are DER SubjectPublicKeyInfo, which motebox (raw SEC1 points only)
    does not parse. Mapping: the DER is decoded by `cryptography`. (1) If it cannot load
    the key (malformed or non-DER ASN.1, explicit/unnamed curve parameters), a DER
    parser rejects it before motebox is reached: the case must be 'invalid' or
    'acceptable', never 'valid'. (2) If it loads a key on another curve, that is a wrong
    curve, rejected before motebox: the case must be 'invalid'. (3) A secp256r1 key:
    its SEC1 point, as encoded in the DER (compressed or not), goes through motebox and
    the result must match Wycheproof exactly as in the ecpoint file."""
    cases = wycheproof("ecdh_secp256r1_test.json")
    counts = {"unloadable": 0, "other curve": 0, "secp256r1": 0}
    for case in cases:
        der = bytes.fromhex(case["public"])
        try:
            key = serialization.load_der_public_key(der)
        except Exception:   # noqa: BLE001 - any refusal (ValueError, UnsupportedAlgorithm) counts
            assert case["result"] in ("invalid", "acceptable"), case["tcId"]
            counts["unloadable"] += 1
            continue
        if not isinstance(key, ec.EllipticCurvePublicKey) or key.curve.name != "secp256r1":
            assert case["result"] == "invalid", case["tcId"]
            counts["other curve"] += 1
            continue
        pk = _der_bit_string(der)
        assert pk in (key.public_bytes(X962, UNCOMPRESSED), key.public_bytes(X962, COMPRESSED))
        _check_case(lib, case, pk)
        counts["secp256r1"] += 1
    assert counts["secp256r1"] >= 330 and counts["unloadable"] > 200
