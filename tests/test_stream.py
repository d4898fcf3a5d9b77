# SPDX-License-Identifier: MIT
"""Streaming seal and two-pass open against libsodium: any chunking of any length gives
exactly PyNaCl's crypto_secretbox_easy bytes, which libsodium opens; the two-pass open
accepts genuine boxes, writes nothing for forged ones, and notices storage changes.
Misuse of the stream state (zeroed, random, finished, corrupted) fails closed: -1 and
zeros, never plaintext. The receiving stream (mb_box_unstream_*) opens PyNaCl's boxes
in any chunking and refuses every call out of order."""
import ctypes
import os
import random

import nacl.bindings as nb
import pytest

import motebox
import sodium_ref


def _chunks(rng, m):
    """Split m at random points; bias towards tiny and block-straddling pieces."""
    out, i = [], 0
    while i < len(m):
        n = rng.choice([0, 1, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, rng.randrange(0, 1500)])
        out.append(m[i:i + n])
        i += n
    if rng.random() < 0.3:
        out.append(b"")
    return out


def test_state_size(lib):
    assert lib.c.mb_box_stream_size() == 224


def test_stream_random_chunkings(lib):
    rng = random.Random(0x5712 + lib.radix)
    for i in range(60):
        k, n = rng.randbytes(32), rng.randbytes(24)
        m = rng.randbytes(rng.choice([i, rng.randrange(0, 8193)]))
        s = lib.stream(k, n)
        ct = b"".join(s.update(piece) for piece in _chunks(rng, m))
        tag = s.final()
        assert tag + ct == nb.crypto_secretbox_easy(m, n, k)
        assert sodium_ref.secretbox_open_detached(ct, tag, n, k) == m
        assert nb.crypto_secretbox_open_easy(tag + ct, n, k) == m


def test_stream_full_8k_and_box_key(lib):
    # A box key from box_beforenm: the server opens with crypto_box_open_easy_afternm.
    node_sk, server_sk = os.urandom(32), os.urandom(32)
    node_pk, server_pk = nb.crypto_scalarmult_base(node_sk), nb.crypto_scalarmult_base(server_sk)
    k = lib.box_beforenm(server_pk, node_sk)
    n = os.urandom(24)
    m = os.urandom(8192)
    s = lib.stream(k, n)
    ct = b"".join(s.update(m[i:i + 64]) for i in range(0, len(m), 64))
    tag = s.final()
    assert nb.crypto_box_open_easy(tag + ct, n, node_pk, server_sk) == m
    assert sodium_ref.box_open_detached_afternm(ct, tag, n, nb.crypto_box_beforenm(node_pk, server_sk)) == m


def test_stream_in_place_and_wipe(lib):
    rng = random.Random(99)
    k, n = os.urandom(32), os.urandom(24)
    m = os.urandom(3000)
    state = ctypes.create_string_buffer(lib.c.mb_box_stream_size())
    lib.c.mb_box_stream_init(state, k, n)
    buf = ctypes.create_string_buffer(m, len(m))
    off = 0
    for piece in _chunks(rng, m):
        p = ctypes.cast(ctypes.addressof(buf) + off, ctypes.c_char_p)
        assert lib.c.mb_box_stream_update(state, p, p, len(piece)) == 0
        off += len(piece)
    tag = ctypes.create_string_buffer(16)
    assert lib.c.mb_box_stream_final(state, tag) == 0
    assert tag.raw + buf.raw == nb.crypto_secretbox_easy(m, n, k)
    assert state.raw == bytes(len(state.raw)), "final must wipe the state"


class Storage:
    """External memory holding a ciphertext; records reads and writes."""

    def __init__(self, ct):
        self.ct = bytearray(ct)
        self.out = {}
        self.reads = []
        self.on_read = None

    def read(self, off, length):
        self.reads.append((off, length))
        if self.on_read:
            self.on_read(self, off)
        return bytes(self.ct[off:off + length])

    def write(self, off, data):
        assert off not in self.out
        self.out[off] = data

    def plaintext(self):
        return b"".join(self.out[o] for o in sorted(self.out))


def test_twopass_genuine(lib):
    rng = random.Random(0x2 + lib.radix)
    for length in [0, 1, 31, 32, 33, 95, 96, 97, 1000, rng.randrange(0, 8193)]:
        k, n, m = rng.randbytes(32), rng.randbytes(24), rng.randbytes(length)
        box = nb.crypto_secretbox_easy(m, n, k)
        st = Storage(box[16:])
        lib.secretbox_open_twopass(st.read, st.write, length, box[:16], n, k)
        assert st.plaintext() == m
        # both passes read every byte
        assert sum(x for _, x in st.reads) == 2 * length


def test_twopass_forged_writes_nothing(lib):
    rng = random.Random(0x3 + lib.radix)
    k, n, m = rng.randbytes(32), rng.randbytes(24), rng.randbytes(500)
    box = nb.crypto_secretbox_easy(m, n, k)
    for pos in [0, 1, 16, 17, 200, 515]:
        bad = bytearray(box)
        bad[pos] ^= 0x40
        st = Storage(bad[16:])
        with pytest.raises(motebox.BadBox):
            lib.secretbox_open_twopass(st.read, st.write, len(m), bytes(bad[:16]), n, k)
        assert st.out == {}
        assert sum(x for _, x in st.reads) == len(m), "only pass 1 may run"
    st = Storage(box[16:])
    with pytest.raises(motebox.BadBox):  # wrong key
        lib.secretbox_open_twopass(st.read, st.write, len(m), box[:16], n, bytes(32))
    assert st.out == {}


def test_twopass_detects_storage_change(lib):
    k, n, m = os.urandom(32), os.urandom(24), os.urandom(700)
    box = nb.crypto_secretbox_easy(m, n, k)
    st = Storage(box[16:])
    seen = set()

    def flip_after_pass1(s, off):
        # The second time offset 0 is read, pass 2 has begun: change a later byte.
        if off == 0 and off in seen:
            s.ct[400] ^= 1
        seen.add(off)

    st.on_read = flip_after_pass1
    with pytest.raises(motebox.BadBox):
        lib.secretbox_open_twopass(st.read, st.write, len(m), box[:16], n, k)


def test_twopass_reader_failure(lib):
    k, n, m = os.urandom(32), os.urandom(24), os.urandom(100)
    box = nb.crypto_secretbox_easy(m, n, k)

    def bad_read(off, length):
        raise OSError("flash read error")

    with pytest.raises(OSError):
        lib.secretbox_open_twopass(bad_read, lambda o, d: None, len(m), box[:16], n, k)


@pytest.mark.slow
def test_stream_random_chunkings_extended(lib):
    """Opt-in (-m slow): 2,000 more random chunkings per backend."""
    rng = random.Random(0x5713 + lib.radix)
    for _ in range(2000):
        k, n = rng.randbytes(32), rng.randbytes(24)
        m = rng.randbytes(rng.randrange(0, 8193))
        s = lib.stream(k, n)
        ct = b"".join(s.update(piece) for piece in _chunks(rng, m))
        assert s.final() + ct == nb.crypto_secretbox_easy(m, n, k)


def test_twopass_writer_failure_stops(lib):
    k, n, m = os.urandom(32), os.urandom(24), os.urandom(300)
    box = nb.crypto_secretbox_easy(m, n, k)
    st = Storage(box[16:])
    calls = []

    def bad_write(off, data):
        calls.append(off)
        if off >= 96:
            raise OSError("flash full")
        st.write(off, data)

    with pytest.raises(OSError):
        lib.secretbox_open_twopass(st.read, bad_write, len(m), box[:16], n, k)
    assert calls == [0, 32, 96], "chunks follow the keystream blocks; none after the failure"
    assert st.plaintext() == m[:96]


# ---- misuse of the sending state: -1 and zeros, never plaintext -----------------------

def _state(lib, raw=None):
    size = lib.c.mb_box_stream_size()
    return ctypes.create_string_buffer(raw if raw is not None else bytes(size), size)


def _refused(lib, state, m=b"secret plaintext" * 5):
    """update in place and final on state must return -1, leave zeros (not the
    plaintext) in the buffer and tag, and keep refusing."""
    buf = ctypes.create_string_buffer(m, len(m))
    tag = ctypes.create_string_buffer(b"\xa5" * 16, 16)
    assert lib.c.mb_box_stream_update(state, buf, buf, len(m)) == -1
    assert buf.raw == bytes(len(m)), "plaintext released"
    out = ctypes.create_string_buffer(b"\xa5" * len(m), len(m))
    assert lib.c.mb_box_stream_update(state, out, m, len(m)) == -1 and out.raw == bytes(len(m))
    assert lib.c.mb_box_stream_final(state, tag) == -1 and tag.raw == bytes(16)
    assert lib.c.mb_box_stream_final(state, tag) == -1 and tag.raw == bytes(16)


def test_zeroed_state_refused(lib):
    _refused(lib, _state(lib))


def test_random_states_refused(lib):
    rng = random.Random(0xBAD + lib.radix)
    for _ in range(200):
        _refused(lib, _state(lib, rng.randbytes(lib.c.mb_box_stream_size())))


def test_update_and_final_after_final(lib):
    k, n, m = os.urandom(32), os.urandom(24), os.urandom(100)
    state = _state(lib)
    lib.c.mb_box_stream_init(state, k, n)
    c = ctypes.create_string_buffer(100)
    tag = ctypes.create_string_buffer(16)
    assert lib.c.mb_box_stream_update(state, c, m, 100) == 0
    assert lib.c.mb_box_stream_final(state, tag) == 0
    assert tag.raw + c.raw == nb.crypto_secretbox_easy(m, n, k)
    _refused(lib, state)   # a second final used to give an all-zero "tag"


def test_corrupted_state_words(lib):
    """Each 32-bit word of a live state set to values that put an offset out of range
    (the old code indexed the keystream with an unchecked pos): either refused with
    zeros, or a normal (wrong-key) result; never a crash. The library is not built
    with sanitizers here; tests/test_sanitizers.py runs the same under ASan/UBSan."""
    k, n, m = os.urandom(32), os.urandom(24), os.urandom(150)
    size = lib.c.mb_box_stream_size()
    refused = 0
    for w in range(size // 4):
        for bad in (0xFFFFFFFF, 0x80000000, 65, 16):
            state = _state(lib)
            lib.c.mb_box_stream_init(state, k, n)
            out = ctypes.create_string_buffer(64)
            assert lib.c.mb_box_stream_update(state, out, m, 50) == 0
            raw = bytearray(state.raw)
            raw[4 * w:4 * w + 4] = bad.to_bytes(4, "little")
            ctypes.memmove(state, bytes(raw), size)
            buf = ctypes.create_string_buffer(m[50:], 100)
            rc = lib.c.mb_box_stream_update(state, buf, buf, 100)
            assert rc == 0 or (rc == -1 and buf.raw == bytes(100))
            refused += rc == -1
    assert refused >= 6, "the phase word, pos and the MAC's buffered count must be checked"


def test_python_stream_misuse(lib):
    s = lib.stream(os.urandom(32), os.urandom(24))
    s.update(b"abc")
    s.final()
    with pytest.raises(motebox.StreamMisuse, match="already finalised"):
        s.update(b"x")
    with pytest.raises(motebox.StreamMisuse):
        s.final()
    assert issubclass(motebox.StreamMisuse, motebox.MoteboxError)


def test_stream_takes_bytearray_and_memoryview(lib):
    k, n, m = os.urandom(32), os.urandom(24), os.urandom(500)
    s = lib.stream(k, n)
    ct = s.update(bytearray(m[:100])) + s.update(memoryview(m)[100:]) + s.update(b"")
    assert s.final() + ct == nb.crypto_secretbox_easy(m, n, k)


# ---- the receiving stream ---------------------------------------------------------------

def _unstream_open(lib, box, n, k, rng, in_place=False):
    """Opens box = tag || ct with the C API, random chunkings in both passes; returns
    (rc of final, plaintext)."""
    tag, ct = box[:16], box[16:]
    state = _state(lib)
    lib.c.mb_box_unstream_init(state, k, n)
    off = 0
    for piece in _chunks(rng, ct):
        assert lib.c.mb_box_unstream_auth(state, piece, len(piece)) == 0
        off += len(piece)
    if lib.c.mb_box_unstream_verify(state, tag) != 0:
        return -1, None
    buf = ctypes.create_string_buffer(ct, max(len(ct), 1))
    out = ctypes.create_string_buffer(max(len(ct), 1))
    off = 0
    for piece in _chunks(rng, ct):
        src = ctypes.cast(ctypes.addressof(buf) + off, ctypes.c_char_p)
        dst = src if in_place else ctypes.cast(ctypes.addressof(out) + off, ctypes.c_char_p)
        assert lib.c.mb_box_unstream_update(state, dst, src, len(piece)) == 0
        off += len(piece)
    rc = lib.c.mb_box_unstream_final(state, tag)
    assert state.raw == bytes(len(state.raw)), "final must wipe the state"
    return rc, (buf if in_place else out).raw[:len(ct)]


def test_unstream_opens_pynacl_boxes(lib):
    rng = random.Random(0x0E5 + lib.radix)
    for i in range(60):
        k, n = rng.randbytes(32), rng.randbytes(24)
        m = rng.randbytes(rng.choice([i, rng.randrange(0, 5000)]))
        box = nb.crypto_secretbox_easy(m, n, k)
        assert _unstream_open(lib, box, n, k, rng, in_place=bool(i & 1)) == (0, m)


def test_unstream_box_key_python(lib):
    """A server opens what crypto_box_easy sealed, through the Python object."""
    node_sk, server_sk = os.urandom(32), os.urandom(32)
    node_pk = nb.crypto_scalarmult_base(node_sk)
    server_pk = nb.crypto_scalarmult_base(server_sk)
    n, m = os.urandom(24), os.urandom(70000)
    box = nb.crypto_box_easy(m, n, server_pk, node_sk)
    k = lib.box_beforenm(node_pk, server_sk)
    u = lib.unstream(k, n)
    ct = bytearray(box[16:])
    for i in range(0, len(ct), 4099):
        u.auth(memoryview(ct)[i:i + 4099])
    u.verify(box[:16])
    out = b"".join(u.update(ct[i:i + 1000]) for i in range(0, len(ct), 1000))
    u.final(box[:16])
    assert out == m


def test_unstream_forged_releases_nothing(lib):
    rng = random.Random(0xF0 + lib.radix)
    k, n, m = rng.randbytes(32), rng.randbytes(24), rng.randbytes(300)
    box = nb.crypto_secretbox_easy(m, n, k)
    for pos in (0, 15, 16, 17, 200, len(box) - 1):
        bad = bytearray(box)
        bad[pos] ^= 0x20
        assert _unstream_open(lib, bytes(bad), n, k, rng) == (-1, None)
        u = lib.unstream(k, n)
        u.auth(bad[16:])
        with pytest.raises(motebox.BadBox):
            u.verify(bad[:16])
        with pytest.raises(motebox.StreamMisuse):
            u.update(bad[16:])
    # C level: after a failed verify, update writes zeros
    state = _state(lib)
    lib.c.mb_box_unstream_init(state, k, n)
    assert lib.c.mb_box_unstream_auth(state, box[16:], 300) == 0
    assert lib.c.mb_box_unstream_verify(state, bytes(16)) == -1
    out = ctypes.create_string_buffer(b"\xa5" * 300, 300)
    assert lib.c.mb_box_unstream_update(state, out, box[16:], 300) == -1 and out.raw == bytes(300)
    assert lib.c.mb_box_unstream_verify(state, box[:16]) == -1, "a failed state stays failed"


def test_unstream_change_between_passes(lib):
    k, n, m = os.urandom(32), os.urandom(24), os.urandom(700)
    box = nb.crypto_secretbox_easy(m, n, k)
    u = lib.unstream(k, n)
    u.auth(box[16:])
    u.verify(box[:16])
    changed = bytearray(box[16:])
    changed[400] ^= 1
    u.update(changed)
    with pytest.raises(motebox.BadBox, match="changed"):
        u.final(box[:16])
    u = lib.unstream(k, n)        # final's tag must be the verified one
    u.auth(box[16:])
    u.verify(box[:16])
    u.update(box[16:])
    with pytest.raises(motebox.BadBox):
        u.final(bytes([box[0] ^ 1]) + box[1:16])


ORDER_CASES = [
    ("update", []),                    # decrypt before anything was authenticated
    ("final", []),
    ("update", ["auth"]),              # decrypt before the tag was checked
    ("final", ["auth"]),
    ("verify", ["auth", "verify"]),
    ("auth", ["auth", "verify"]),      # pass 1 again after the tag was checked
    ("auth", ["auth", "verify", "update"]),
    ("verify", ["auth", "verify", "update"]),
    ("update", ["auth", "verify", "update", "final"]),
    ("final", ["auth", "verify", "update", "final"]),
]


@pytest.mark.parametrize("bad,before", ORDER_CASES, ids=lambda v: str(v))
def test_unstream_out_of_order(lib, bad, before):
    """Each call out of order: the C function returns -1 with zeros in m and kills the
    state; the Python object raises StreamMisuse naming the call."""
    k, n, m = os.urandom(32), os.urandom(24), os.urandom(90)
    box = nb.crypto_secretbox_easy(m, n, k)
    tag, ct = box[:16], box[16:]
    state = _state(lib)
    lib.c.mb_box_unstream_init(state, k, n)
    out = ctypes.create_string_buffer(90)
    calls = {
        "auth": lambda: lib.c.mb_box_unstream_auth(state, ct, 90),
        "verify": lambda: lib.c.mb_box_unstream_verify(state, tag),
        "update": lambda: lib.c.mb_box_unstream_update(state, out, ct, 90),
        "final": lambda: lib.c.mb_box_unstream_final(state, tag),
    }
    for step in before:
        assert calls[step]() == 0, step
    ctypes.memmove(out, b"\xa5" * 90, 90)
    assert calls[bad]() == -1
    if bad == "update":
        assert out.raw == bytes(90), "plaintext or garbage released"
    assert state.raw == bytes(len(state.raw)), "a refused call must wipe the state"
    for step in calls:
        assert calls[step]() == -1, f"{step} after a refused call"

    u = lib.unstream(k, n)
    py = {"auth": lambda: u.auth(ct), "verify": lambda: u.verify(tag),
          "update": lambda: u.update(ct), "final": lambda: u.final(tag)}
    for step in before:
        py[step]()
    with pytest.raises(motebox.StreamMisuse, match=rf"unstream\.{bad}\(\)"):
        py[bad]()
    with pytest.raises(motebox.StreamMisuse):
        py["auth"]()


def test_states_do_not_cross(lib):
    """A sending state is refused by the receiving functions and the other way round."""
    k, n = os.urandom(32), os.urandom(24)
    state = _state(lib)
    lib.c.mb_box_stream_init(state, k, n)
    assert lib.c.mb_box_unstream_auth(state, b"abc", 3) == -1
    lib.c.mb_box_unstream_init(state, k, n)
    _refused(lib, state)
