# SPDX-License-Identifier: MIT
"""Streaming seal and two-pass open against libsodium: any chunking of any length gives
exactly PyNaCl's crypto_secretbox_easy bytes, which libsodium opens; the two-pass open
accepts genuine boxes, writes nothing for forged ones, and notices storage changes."""
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
        lib.c.mb_box_stream_update(state, p, p, len(piece))
        off += len(piece)
    tag = ctypes.create_string_buffer(16)
    lib.c.mb_box_stream_final(state, tag)
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
