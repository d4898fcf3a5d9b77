# SPDX-License-Identifier: MIT
"""secretbox / box against libsodium: the NaCl box example (tests/box.c, box2.c of the
NaCl distribution, also in libsodium's test suite), random interop with PyNaCl both
ways, detached layout via the system libsodium, tampering, bad lengths, bad keys,
overlapping buffers and the maximum message length."""
import ctypes
import os
import random

import nacl.bindings as nb
import pytest

import motebox
import sodium_ref

ALICE_SK = bytes.fromhex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")
ALICE_PK = bytes.fromhex("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
BOB_SK = bytes.fromhex("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb")
BOB_PK = bytes.fromhex("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")
NONCE = bytes.fromhex("69696ee955b62b73cd62bda875fc73d68219e0036b7a0b37")
# The 131-byte message of NaCl's box.c (after its 32 zero bytes) and the expected
# box.out / box2.c ciphertext: tag (16) || ciphertext (131), i.e. the libsodium "easy"
# layout, which is also c[16..163) of NaCl's zero-padded crypto_box output.
MSG = bytes.fromhex(
    "be075fc53c81f2d5cf141316ebeb0c7b5228c52a4c62cbd44b66849b64244ffce5ecbaaf33bd751a"
    "1ac728d45e6c61296cdc3c01233561f41db66cce314adb310e3be8250c46f06dceea3a7fa1348057"
    "e2f6556ad6b1318a024a838f21af1fde048977eb48f59ffd4924ca1c60902e52f0a089bc76897040"
    "e082f937763848645e0705")
BOX = bytes.fromhex(
    "f3ffc7703f9400e52a7dfb4b3d3305d98e993b9f48681273c29650ba32fc76ce48332ea7164d96a4"
    "476fb8c531a1186ac0dfc17c98dce87b4da7f011ec48c97271d2c20f9b928fe2270d6fb863d51738"
    "b48eeee314a7cc8ab932164548e526ae90224368517acfeabd6bb3732bc0e9da99832b61ca01b6de"
    "56244a9e88d5f9b37973f622a43d14a6599b1f654cb45a74e355a5")
# libsodium test/default/box.c: a point of small order.
SMALL_ORDER = bytes.fromhex("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800")
LOW_ORDER_POINTS = [bytes(32), (1).to_bytes(32, "little"), SMALL_ORDER]


def test_nacl_constants_against_pynacl():
    assert len(MSG) == 131 and len(BOX) == 147
    assert nb.crypto_scalarmult_base(ALICE_SK) == ALICE_PK
    assert nb.crypto_scalarmult_base(BOB_SK) == BOB_PK
    assert nb.crypto_box_easy(MSG, NONCE, BOB_PK, ALICE_SK) == BOX


def test_nacl_box_vector(lib):
    assert lib.box(MSG, NONCE, BOB_PK, ALICE_SK) == BOX
    assert lib.box_open(BOX, NONCE, ALICE_PK, BOB_SK) == MSG
    k = lib.box_beforenm(BOB_PK, ALICE_SK)
    assert k == lib.box_beforenm(ALICE_PK, BOB_SK) == nb.crypto_box_beforenm(BOB_PK, ALICE_SK)
    assert lib.secretbox(MSG, NONCE, k) == BOX
    assert lib.secretbox_open(BOX, NONCE, k) == MSG
    c, tag = lib.box_detached(MSG, NONCE, BOB_PK, ALICE_SK)
    assert tag + c == BOX
    assert lib.box_open_detached(c, tag, NONCE, ALICE_PK, BOB_SK) == MSG


def _keypair(rng):
    sk = rng.randbytes(32)
    return sk, nb.crypto_scalarmult_base(sk)


def test_box_interop_random(lib):
    rng = random.Random(0xB0C5 + lib.radix)
    for i in range(1000):
        a_sk, a_pk = _keypair(rng)
        b_sk, b_pk = _keypair(rng)
        n = rng.randbytes(24)
        m = rng.randbytes(rng.choice([i % 80, rng.randrange(0, 2000)]))
        # motebox seals, libsodium opens
        c = lib.box(m, n, b_pk, a_sk)
        assert nb.crypto_box_open_easy(c, n, a_pk, b_sk) == m
        # libsodium seals, motebox opens
        c2 = nb.crypto_box_easy(m, n, a_pk, b_sk)
        assert c2 == c
        assert lib.box_open(c2, n, b_pk, a_sk) == m
        if i % 4 == 0:
            cd, tag = lib.box_detached(m, n, b_pk, a_sk)
            assert (cd, tag) == sodium_ref.box_detached(m, n, b_pk, a_sk)
            assert sodium_ref.box_open_detached(cd, tag, n, a_pk, b_sk) == m
            assert lib.box_open_detached(cd, tag, n, a_pk, b_sk) == m


def test_secretbox_interop_random(lib):
    rng = random.Random(0x5EC + lib.radix)
    for i in range(1500):
        k, n = rng.randbytes(32), rng.randbytes(24)
        m = rng.randbytes(rng.choice([i % 100, rng.randrange(0, 3000)]))
        c = lib.secretbox(m, n, k)
        assert c == nb.crypto_secretbox_easy(m, n, k)
        assert nb.crypto_secretbox_open_easy(c, n, k) == m
        c2 = nb.crypto_secretbox_easy(m, n, k)
        assert lib.secretbox_open(c2, n, k) == m
        if i % 3 == 0:
            cd, tag = lib.secretbox_detached(m, n, k)
            assert (cd, tag) == sodium_ref.secretbox_detached(m, n, k)
            assert lib.secretbox_open_detached(cd, tag, n, k) == m
            assert sodium_ref.secretbox_open_detached(cd, tag, n, k) == m


def test_detached_in_place(lib):
    k, n = os.urandom(32), os.urandom(24)
    m = os.urandom(300)
    buf = ctypes.create_string_buffer(m, len(m))
    tag = ctypes.create_string_buffer(16)
    assert lib.c.mb_secretbox_detached(buf, tag, buf, len(m), n, k) == 0
    assert (buf.raw, tag.raw) == sodium_ref.secretbox_detached(m, n, k)
    assert lib.c.mb_secretbox_open_detached(buf, buf, len(m), tag, n, k) == 0
    assert buf.raw == m


# ---- overlapping buffers (libsodium's _easy functions allow c == m) -----------------

# Output at input + D: c == m, the easy layout sealed in place (the ciphertext lands 16
# bytes after the message start), and partial overlaps either way.
OVERLAPS = [0, 16, -16, 1, -1, 3, 15, 17, -17, 64, -64, 100]


def _region(data, outlen, d):
    """A ctypes buffer holding data at `inp` and room for outlen bytes at `out` = inp + d;
    returns (buffer, out pointer, in pointer, out offset)."""
    size = max(len(data), outlen) + abs(d) + 64
    buf = ctypes.create_string_buffer(b"\xa5" * size, size)
    out_off = 32 + max(-d, 0)
    in_off = out_off + d
    ctypes.memmove(ctypes.addressof(buf) + in_off, data, len(data))
    ptr = lambda off: ctypes.cast(ctypes.addressof(buf) + off, ctypes.c_char_p)  # noqa: E731
    return buf, ptr(out_off), ptr(in_off), out_off


@pytest.mark.parametrize("d", OVERLAPS)
def test_secretbox_overlap_matches_pynacl(lib, d):
    rng = random.Random(0x0B + d + lib.radix)
    for mlen in (0, 1, 15, 16, 17, 31, 32, 33, 100, 300):
        k, n, m = rng.randbytes(32), rng.randbytes(24), rng.randbytes(mlen)
        want = nb.crypto_secretbox_easy(m, n, k)
        buf, out, inp, o = _region(m, mlen + 16, d)
        assert lib.c.mb_secretbox(out, inp, mlen, n, k) == 0
        assert buf.raw[o:o + mlen + 16] == want, (mlen, d)
        # open with m at c + d
        buf, out, inp, o = _region(want, mlen, d)
        assert lib.c.mb_secretbox_open(out, inp, mlen + 16, n, k) == 0
        assert buf.raw[o:o + mlen] == m, (mlen, d)
        forged = bytes([want[0] ^ 1]) + want[1:]
        buf, out, inp, o = _region(forged, mlen, d)
        assert lib.c.mb_secretbox_open(out, inp, mlen + 16, n, k) == -1
        assert buf.raw[o:o + mlen] == bytes(mlen)
        # detached, both directions
        buf, out, inp, o = _region(m, mlen, d)
        tag = ctypes.create_string_buffer(16)
        assert lib.c.mb_secretbox_detached(out, tag, inp, mlen, n, k) == 0
        assert tag.raw + buf.raw[o:o + mlen] == want
        buf, out, inp, o = _region(want[16:], mlen, d)
        assert lib.c.mb_secretbox_open_detached(out, inp, mlen, want[:16], n, k) == 0
        assert buf.raw[o:o + mlen] == m


@pytest.mark.parametrize("d", OVERLAPS[:6])
def test_box_overlap_matches_pynacl(lib, d):
    rng = random.Random(0x0C + d + lib.radix)
    for mlen in (0, 1, 17, 33, 200):
        a_sk, a_pk = _keypair(rng)
        b_sk, b_pk = _keypair(rng)
        n, m = rng.randbytes(24), rng.randbytes(mlen)
        want = nb.crypto_box_easy(m, n, b_pk, a_sk)
        buf, out, inp, o = _region(m, mlen + 16, d)
        assert lib.c.mb_box(out, inp, mlen, n, b_pk, a_sk) == 0
        assert buf.raw[o:o + mlen + 16] == want, (mlen, d)
        buf, out, inp, o = _region(want, mlen, d)
        assert lib.c.mb_box_open(out, inp, mlen + 16, n, a_pk, b_sk) == 0
        assert buf.raw[o:o + mlen] == m, (mlen, d)


def test_secretbox_in_place_easy(lib):
    """The finding: mb_secretbox(c, m) with c == m opened to corrupt plaintext."""
    k, n, m = os.urandom(32), os.urandom(24), os.urandom(1000)
    buf = ctypes.create_string_buffer(m, len(m) + 16)
    assert lib.c.mb_secretbox(buf, buf, len(m), n, k) == 0
    assert buf.raw == nb.crypto_secretbox_easy(m, n, k)
    assert nb.crypto_secretbox_open_easy(buf.raw, n, k) == m
    assert lib.c.mb_secretbox_open(buf, buf, len(m) + 16, n, k) == 0
    assert buf.raw[:len(m)] == m


def test_message_length_limit(lib):
    """Lengths beyond MB_SECRETBOX_MESSAGEBYTES_MAX (SIZE_MAX - 16) are refused before
    anything is read: -1 and the tag zeroed (the buffers here are far too short)."""
    size_max = (1 << (8 * ctypes.sizeof(ctypes.c_size_t))) - 1
    k, n, sk = os.urandom(32), os.urandom(24), os.urandom(32)
    pk = nb.crypto_scalarmult_base(os.urandom(32))
    for mlen in (size_max - 15, size_max):
        c = ctypes.create_string_buffer(b"\xa5" * 16, 16)
        tag = ctypes.create_string_buffer(b"\xa5" * 16, 16)
        assert lib.c.mb_secretbox(c, b"m", mlen, n, k) == -1 and c.raw == bytes(16)
        assert lib.c.mb_secretbox_detached(c, tag, b"m", mlen, n, k) == -1 and tag.raw == bytes(16)
        c = ctypes.create_string_buffer(b"\xa5" * 16, 16)
        assert lib.c.mb_box(c, b"m", mlen, n, pk, sk) == -1 and c.raw == bytes(16)
        tag = ctypes.create_string_buffer(b"\xa5" * 16, 16)
        assert lib.c.mb_box_detached(c, tag, b"m", mlen, n, pk, sk) == -1 and tag.raw == bytes(16)


# ---- failure: forged input, output zeroed -------------------------------------------

def _open_raw(lib, fn, c, *args, clen=None):
    """Call an open function straight from C with an output buffer pre-filled with 0xA5;
    return (rc, output bytes)."""
    clen = len(c) if clen is None else clen
    outlen = max(clen - 16, 0) if fn in ("mb_secretbox_open", "mb_box_open") else clen
    out = ctypes.create_string_buffer(b"\xa5" * (outlen + 8), outlen + 8)
    rc = getattr(lib.c, fn)(out, c, clen, *args)
    return rc, out.raw[:outlen], out.raw[outlen:]


def _flips(data, bit):
    for i in range(len(data)):
        b = bytearray(data)
        b[i] ^= bit
        yield i, bytes(b)


def test_secretbox_tamper_zeroes_output(lib):
    rng = random.Random(7 + lib.radix)
    k, n = rng.randbytes(32), rng.randbytes(24)
    m = rng.randbytes(70)
    c = lib.secretbox(m, n, k)
    rc, out, guard = _open_raw(lib, "mb_secretbox_open", c, n, k)
    assert rc == 0 and out == m and guard == b"\xa5" * 8
    for what, vals in (("c", c), ("n", n), ("k", k)):
        for i, bad in _flips(vals, 0x01):
            args = {"c": c, "n": n, "k": k}
            args[what] = bad
            rc, out, guard = _open_raw(lib, "mb_secretbox_open", args["c"], args["n"], args["k"])
            assert rc == -1, (what, i)
            assert out == bytes(len(out)), (what, i)
            assert guard == b"\xa5" * 8
            with pytest.raises(motebox.BadBox):
                lib.secretbox_open(args["c"], args["n"], args["k"])


def test_secretbox_detached_tamper(lib):
    k, n, m = os.urandom(32), os.urandom(24), os.urandom(50)
    c, tag = lib.secretbox_detached(m, n, k)
    for i, bad in _flips(tag, 0x80):
        rc, out, _ = _open_raw(lib, "mb_secretbox_open_detached", c, bad, n, k)
        assert rc == -1 and out == bytes(len(c))
    for i, bad in _flips(c, 0x80):
        rc, out, _ = _open_raw(lib, "mb_secretbox_open_detached", bad, tag, n, k)
        assert rc == -1 and out == bytes(len(c))


def test_box_tamper_zeroes_output(lib):
    rng = random.Random(11 + lib.radix)
    a_sk, a_pk = _keypair(rng)
    b_sk, b_pk = _keypair(rng)
    n, m = rng.randbytes(24), rng.randbytes(45)
    c = lib.box(m, n, b_pk, a_sk)
    rc, out, _ = _open_raw(lib, "mb_box_open", c, n, a_pk, b_sk)
    assert rc == 0 and out == m
    # 0x10 changes a bit X25519 uses in every byte of a key (clamping ignores bits 0-2
    # of sk[0] and bits 6-7 of sk[31]; the top bit of pk is ignored).
    for what, vals, bit in (("c", c, 0x01), ("n", n, 0x04), ("pk", a_pk, 0x10), ("sk", b_sk, 0x10)):
        for i, bad in _flips(vals, bit):
            args = {"c": c, "n": n, "pk": a_pk, "sk": b_sk}
            args[what] = bad
            rc, out, guard = _open_raw(lib, "mb_box_open", args["c"], args["n"], args["pk"], args["sk"])
            assert rc == -1, (what, i)
            assert out == bytes(len(out)) and guard == b"\xa5" * 8, (what, i)
    with pytest.raises(motebox.BadBox):
        lib.box_open(c[:-1] + bytes([c[-1] ^ 1]), n, a_pk, b_sk)
    cd, tag = lib.box_detached(m, n, b_pk, a_sk)
    with pytest.raises(motebox.BadBox):
        lib.box_open_detached(cd, bytes([tag[0] ^ 1]) + tag[1:], n, a_pk, b_sk)


def test_short_ciphertext_rejected(lib):
    k, n = os.urandom(32), os.urandom(24)
    sk, pk = _keypair(random.Random(3))
    for clen in range(16):
        c = bytes(clen)
        assert lib.c.mb_secretbox_open(ctypes.create_string_buffer(16), c, clen, n, k) == -1
        assert lib.c.mb_box_open(ctypes.create_string_buffer(16), c, clen, n, pk, sk) == -1
        with pytest.raises(motebox.BadBox):
            lib.secretbox_open(c, n, k)
        with pytest.raises(motebox.BadBox):
            lib.box_open(c, n, pk, sk)
    # exactly 16 bytes: the empty message
    assert lib.secretbox_open(lib.secretbox(b"", n, k), n, k) == b""


def test_low_order_public_keys(lib):
    sk = os.urandom(32)
    n, m = os.urandom(24), b"attack at dawn"
    for pk in LOW_ORDER_POINTS:
        with pytest.raises(motebox.BadKey):
            lib.box_beforenm(pk, sk)
        with pytest.raises(motebox.BadKey):
            lib.box(m, n, pk, sk)
        with pytest.raises(motebox.BadKey):
            lib.box_detached(m, n, pk, sk)
        with pytest.raises(motebox.BadBox):
            lib.box_open(bytes(16) + m, n, pk, sk)
        # C level: every output zeroed.
        k = ctypes.create_string_buffer(b"\xa5" * 32, 32)
        assert lib.c.mb_box_beforenm(k, pk, sk) == -1 and k.raw == bytes(32)
        c = ctypes.create_string_buffer(b"\xa5" * (len(m) + 16), len(m) + 16)
        assert lib.c.mb_box(c, m, len(m), n, pk, sk) == -1 and c.raw == bytes(len(m) + 16)
        c, tag = ctypes.create_string_buffer(b"\xa5" * 14, 14), ctypes.create_string_buffer(b"\xa5" * 16, 16)
        assert lib.c.mb_box_detached(c, tag, m, len(m), n, pk, sk) == -1
        assert c.raw == bytes(14) and tag.raw == bytes(16)
        rc, out, _ = _open_raw(lib, "mb_box_open", bytes(16) + m, n, pk, sk)
        assert rc == -1 and out == bytes(len(m))
        rc, out, _ = _open_raw(lib, "mb_box_open_detached", m, bytes(16), n, pk, sk)
        assert rc == -1 and out == bytes(len(m))
        # libsodium agrees these keys are unusable
        assert sodium_ref.box_detached(m, n, pk, sk) is None


@pytest.mark.parametrize("call,arg", [
    (lambda L: L.secretbox(b"m", bytes(23), bytes(32)), "n"),
    (lambda L: L.secretbox(b"m", bytes(24), bytes(33)), "k"),
    (lambda L: L.secretbox_open(bytes(20), bytes(25), bytes(32)), "n"),
    (lambda L: L.secretbox_open_detached(b"c", bytes(15), bytes(24), bytes(32)), "tag"),
    (lambda L: L.box(b"m", bytes(24), bytes(31), bytes(32)), "pk"),
    (lambda L: L.box(b"m", bytes(24), bytes(32), bytes(0)), "sk"),
    (lambda L: L.box_open(bytes(20), bytes(24), bytes(32), bytes(31)), "sk"),
    (lambda L: L.box_beforenm(bytes(30), bytes(32)), "pk"),
    (lambda L: L.box_open_detached(b"c", bytes(17), bytes(24), bytes(32), bytes(32)), "tag"),
])
def test_wrong_lengths_name_the_argument(lib, call, arg):
    with pytest.raises(ValueError, match=rf"^{arg} must be"):
        call(lib)


@pytest.mark.slow
def test_box_interop_extended(lib):
    """Opt-in (-m slow): 20,000 more random boxes each way per backend."""
    rng = random.Random(0x510 + lib.radix)
    for i in range(20000):
        a_sk, a_pk = _keypair(rng)
        b_sk, b_pk = _keypair(rng)
        n, m = rng.randbytes(24), rng.randbytes(rng.randrange(0, 300))
        c = lib.box(m, n, b_pk, a_sk)
        assert c == nb.crypto_box_easy(m, n, b_pk, a_sk)
        assert lib.box_open(c, n, a_pk, b_sk) == m
