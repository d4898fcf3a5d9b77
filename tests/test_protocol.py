# SPDX-License-Identifier: MIT
"""The node side of the protocol (docs/PROTOCOL.md, src/proto/node_msg.c) against the
spec, through a second, independent implementation written here: datagrams are opened
and receipts made with libsodium (PyNaCl's crypto_box_easy / crypto_box_open_easy), the
NVM slots are encoded and checked with an HSalsa20 written from the Salsa20
specification (itself checked against libsodium's crypto_box_beforenm). Expected values
never come from motebox."""
import ctypes
import os
import struct

import nacl.bindings as nb
import nacl.exceptions
import pytest

import motebox
from motebox.node import BLOCK, NVM, OVERHEAD, RECEIPT, STATE

READING, RECEIPT_TYPE = 0x11, 0x12


# ---- the independent side ------------------------------------------------------------
def nonce(direction, c):
    return b"mbx1" + bytes([direction]) + bytes(11) + c.to_bytes(8, "big")


def open_uplink(dgram, server_sk, registry):
    """(key id, counter, reading) of a datagram, as a server following the spec would
    open it; raises ValueError / CryptoError otherwise."""
    if len(dgram) < 34 or len(dgram) > 33 + 1024 or dgram[0] != READING:
        raise ValueError("malformed")
    kid, c = dgram[1:9], int.from_bytes(dgram[9:17], "big")
    if c == 0 or c == 2**64 - 1:
        raise ValueError("counter out of range")
    reading = nb.crypto_box_open_easy(dgram[17:], nonce(1, c), registry[kid], server_sk)
    return kid, c, reading


def make_receipt(server_sk, node_pk, c, status=0, command=bytes(31), key_id=None):
    r = bytes([status]) + command
    return (bytes([RECEIPT_TYPE]) + (key_id or node_pk[:8]) + c.to_bytes(8, "big")
            + nb.crypto_box_easy(r, nonce(2, c), node_pk, server_sk))


def _rotl(v, n):
    return ((v << n) | (v >> (32 - n))) & 0xffffffff


def hsalsa20(key, inp):
    """HSalsa20 (Bernstein, "Extending the Salsa20 nonce", 2.): 20 rounds, no
    feed-forward, output words 0, 5, 10, 15, 6, 7, 8, 9."""
    k = struct.unpack("<8I", key)
    i = struct.unpack("<4I", inp)
    c = struct.unpack("<4I", b"expand 32-byte k")
    x = [c[0], k[0], k[1], k[2], k[3], c[1], i[0], i[1], i[2], i[3], c[2], k[4], k[5],
         k[6], k[7], c[3]]

    def qr(a, b, cc, d):
        x[b] ^= _rotl((x[a] + x[d]) & 0xffffffff, 7)
        x[cc] ^= _rotl((x[b] + x[a]) & 0xffffffff, 9)
        x[d] ^= _rotl((x[cc] + x[b]) & 0xffffffff, 13)
        x[a] ^= _rotl((x[d] + x[cc]) & 0xffffffff, 18)

    for _ in range(10):
        qr(0, 4, 8, 12); qr(5, 9, 13, 1); qr(10, 14, 2, 6); qr(15, 3, 7, 11)
        qr(0, 1, 2, 3); qr(5, 6, 7, 4); qr(10, 11, 8, 9); qr(15, 12, 13, 14)
    return struct.pack("<8I", *(x[j] for j in (0, 5, 10, 15, 6, 7, 8, 9)))


SLOT_KEY = b"motebox NVM slot check, version1"


def slot(k, bound, seq):
    """One NVM slot as docs/PROTOCOL.md specifies it (k: unused, the check is public)."""
    body = bound.to_bytes(8, "big") + seq.to_bytes(4, "big")
    return body + hsalsa20(SLOT_KEY, b"mbnv" + body)[:8]


def slot_value(k, raw):
    """bound of a valid slot, 1 for a blank one, None for an invalid one."""
    if raw in (bytes(20), b"\xff" * 20):
        return 1
    return int.from_bytes(raw[:8], "big") if slot(k, int.from_bytes(raw[:8], "big"),
                                                  int.from_bytes(raw[8:12], "big")) == raw else None


class Keys:
    def __init__(self):
        self.server_pk, self.server_sk = nb.crypto_box_keypair()
        self.node_pk, self.node_sk = nb.crypto_box_keypair()
        self.k = nb.crypto_box_beforenm(self.server_pk, self.node_sk)
        self.key_id = self.node_pk[:8]
        self.registry = {self.key_id: self.node_pk}


@pytest.fixture
def keys():
    return Keys()


@pytest.fixture(scope="module")
def plib():
    from conftest import BUILD
    return motebox.Library(BUILD / "host" / "libmotebox.so")


# ---- tests -----------------------------------------------------------------------------
def test_our_hsalsa20_is_libsodiums():
    """The test's HSalsa20 against libsodium: beforenm = HSalsa20(X25519(sk, pk), 0)."""
    pk, _ = nb.crypto_box_keypair()
    _, sk = nb.crypto_box_keypair()
    assert hsalsa20(nb.crypto_scalarmult(sk, pk), bytes(16)) == nb.crypto_box_beforenm(pk, sk)


def test_sizes(plib, keys):
    assert plib.node_state_size() == STATE == 64          # issue #17: <= 64 bytes
    assert plib.c.mb_box_stream_size() == 224
    node = plib.node(keys.k, keys.key_id)
    d = node.seal(bytes(64))
    assert len(d) == 97 == OVERHEAD + 64
    assert len(node.nvm) == NVM == 40


def test_uplink_opens_with_libsodium(plib, keys):
    node = plib.node(keys.k, keys.key_id)
    for i, n in enumerate((1, 15, 16, 17, 63, 64, 65, 1000, 1024)):
        m = os.urandom(n)
        d = node.seal(m)
        kid, c, reading = open_uplink(d, keys.server_sk, keys.registry)
        assert (kid, c, reading) == (keys.key_id, i + 1, m)
        assert len(d) == 33 + n


def test_uplink_fields_bound(plib, keys):
    """Type byte, key id (through the key) and counter (through the nonce): any change
    fails libsodium's open."""
    d = bytearray(plib.node(keys.k, keys.key_id).seal(b"reading"))
    other = Keys()
    for pos in (0, 9, 16, 17, 32, 33, len(d) - 1):
        t = bytearray(d)
        t[pos] ^= 1
        with pytest.raises((ValueError, nacl.exceptions.CryptoError)):
            open_uplink(bytes(t), keys.server_sk, keys.registry)
    with pytest.raises(nacl.exceptions.CryptoError):   # another node's key id
        open_uplink(bytes(d[:1] + other.key_id + d[9:]), keys.server_sk,
                    {other.key_id: other.node_pk})


def test_stream_equals_oneshot(plib, keys):
    m = os.urandom(1000)
    a = plib.node(keys.k, keys.key_id, bytes(40)).seal(m)
    b = plib.node(keys.k, keys.key_id, bytes(40)).seal_stream([m[:1], m[1:64], m[64:500], m[500:]])
    assert a == b
    assert open_uplink(b, keys.server_sk, keys.registry)[2] == m


def test_seal_too_long_and_bad_state(plib, keys):
    node = plib.node(keys.k, keys.key_id)
    out = ctypes.create_string_buffer(b"\xaa" * 1100, 1100)
    assert plib.c.mb_node_seal(node._state, out, bytes(1025), 1025, node._write, None) == -1
    assert out.raw[:33] == bytes(33) and out.raw[33:] == b"\xaa" * 1067
    out = ctypes.create_string_buffer(b"\xaa" * 40, 40)
    assert plib.c.mb_node_seal(node._state, out, b"", 0, node._write, None) == -1
    assert out.raw[:33] == bytes(33)                         # the server drops empty ones
    assert node.next == 1
    state = ctypes.create_string_buffer(64)                  # never booted
    out = ctypes.create_string_buffer(b"\xaa" * 97, 97)
    assert plib.c.mb_node_seal(state, out, bytes(64), 64, node._write, None) == -1
    assert out.raw == bytes(97)
    assert plib.c.mb_node_next(state) == 0 and plib.c.mb_node_pending(state) == 0


def _open_raw(plib, node, r):
    status = ctypes.create_string_buffer(b"\xaa", 1)
    cmd = ctypes.create_string_buffer(b"\xaa" * 31, 31)
    rc = plib.c.mb_node_open_receipt(node._state, status, cmd, r, len(r))
    return rc, status.raw[0], cmd.raw


def test_receipt_accepted_once(plib, keys):
    node = plib.node(keys.k, keys.key_id)
    d = node.seal(b"t=21.5")
    _, c, _ = open_uplink(d, keys.server_sk, keys.registry)
    assert node.pending == c
    command = b"set-interval 60".ljust(31, b"\0")
    r = make_receipt(keys.server_sk, keys.node_pk, c, 0, command)
    assert _open_raw(plib, node, r) == (0, 0, command)
    assert node.pending == 0
    assert _open_raw(plib, node, r) == (-1, 0, bytes(31))    # replayed


def test_bad_receipts_rejected_with_zeroed_outputs(plib, keys):
    node = plib.node(keys.k, keys.key_id)
    assert _open_raw(plib, node, make_receipt(keys.server_sk, keys.node_pk, 1)) == \
        (-1, 0, bytes(31))                                    # nothing pending yet
    old = node.seal(b"first")
    old_receipt = make_receipt(keys.server_sk, keys.node_pk, 1)
    node.seal(b"second")                                     # pending = 2
    c = node.pending
    assert c == 2
    other = Keys()
    good = make_receipt(keys.server_sk, keys.node_pk, c, 0, b"\x07" * 31)
    bad = {
        "old receipt (previous counter)": old_receipt,
        "counter + 1": make_receipt(keys.server_sk, keys.node_pk, c + 1),
        "counter 0": make_receipt(keys.server_sk, keys.node_pk, 0),
        "wrong server key": make_receipt(other.server_sk, keys.node_pk, c),
        "for another node": make_receipt(keys.server_sk, other.node_pk, c, key_id=keys.key_id),
        "other key id": make_receipt(keys.server_sk, keys.node_pk, c, key_id=other.key_id),
        "uplink direction": bytes([RECEIPT_TYPE]) + keys.key_id + c.to_bytes(8, "big")
        + nb.crypto_box_easy(bytes(32), nonce(1, c), keys.node_pk, keys.server_sk),
        "truncated": good[:64],
        "extended": good + b"\0",
        "empty": b"",
        "reading type": bytes([READING]) + good[1:],
        "uplink datagram echoed": old[:65],
    }
    for pos in range(RECEIPT):
        t = bytearray(good)
        t[pos] ^= 0x80
        bad[f"bit flipped at {pos}"] = bytes(t)
    for what, r in bad.items():
        assert _open_raw(plib, node, r) == (-1, 0, bytes(31)), what
        assert node.pending == c, what                      # no effect
    assert _open_raw(plib, node, good) == (0, 0, b"\x07" * 31)


def test_nvm_format_and_reboot(plib, keys):
    """The NVM after boot is the spec's slot encoding; reboots never reuse a counter."""
    nvm = bytearray(40)
    node = plib.node(keys.k, keys.key_id, nvm)
    # first boot: both slots written (bounds 17 and 33), counters from 1
    assert nvm[20:] == slot(keys.k, 1 + BLOCK, 1) and nvm[:20] == slot(keys.k, 1 + 2 * BLOCK, 2)
    assert node.next == 1
    used = []
    for boot in range(6):
        node = plib.node(keys.k, keys.key_id, nvm)
        for _ in range(boot * 7):                            # crosses block boundaries
            _, c, _ = open_uplink(node.seal(b"r"), keys.server_sk, keys.registry)
            used.append(c)
        durable = max(slot_value(keys.k, bytes(nvm[:20])), slot_value(keys.k, bytes(nvm[20:])))
        assert node.next < durable                           # the next one is reserved
    assert used == sorted(set(used))                         # strictly increasing, unique
    assert used[0] == 1 + 3 * BLOCK        # a first boot (2 blocks) and one that sent nothing


def test_torn_reservation_every_byte(plib, keys):
    """Every reservation write torn after every byte (old bytes beyond it): booting from
    that image never hands out a counter already used."""
    nvm = bytearray(40)
    writes = []
    node = plib.node(keys.k, keys.key_id, nvm,
                     on_write=lambda off, data: writes.append((off, data)))
    used = []
    images = []
    for i in range(4 * BLOCK + 3):        # three reservations ahead (at 32, 48, 64)
        before = bytes(nvm)
        n_writes = len(writes)
        used.append(node.next)
        node.seal(b"x")
        for off, data in writes[n_writes:]:
            for p in range(len(data) + 1):
                img = bytearray(before)
                img[off:off + p] = data[:p]
                images.append((bytes(img), max(used)))
    assert len(images) >= 3 * 21
    for img, last in images:
        n = plib.node(keys.k, keys.key_id, bytearray(img))
        assert n.next > last


def test_refuses_corrupt_nvm(plib, keys):
    nvm = bytearray(40)
    plib.node(keys.k, keys.key_id, nvm).seal(b"x")
    other = Keys()                       # the image holds no key: a new key goes on counting
    assert plib.node(other.k, keys.key_id, bytearray(nvm)).next > 2 * BLOCK
    corrupt = bytearray(nvm)
    corrupt[0] ^= 1
    corrupt[25] ^= 1                                        # both slots broken
    with pytest.raises(motebox.node.NodeRefused):
        plib.node(keys.k, keys.key_id, corrupt)
    assert plib.node(keys.k, keys.key_id, b"\xff" * 40).next == 1   # erased flash: new
    torn_first = bytearray(40)
    torn_first[20:30] = slot(keys.k, 1 + BLOCK, 1)[:10]     # a first boot cut mid-write
    assert plib.node(keys.k, keys.key_id, torn_first).next == 1


def test_write_failure(plib, keys):
    def fail(off, data):
        raise OSError("NVM write failed")
    with pytest.raises(motebox.node.NodeRefused):
        plib.node(keys.k, keys.key_id, None, on_write=fail)
    state = {"fail": False}

    def flaky(off, data):
        if state["fail"]:
            raise OSError("NVM write failed")
    nvm = bytearray(40)
    node = plib.node(keys.k, keys.key_id, nvm, on_write=flaky)
    for _ in range(2 * BLOCK - 1):        # the first boot reserved 1..32
        node.seal(b"x")
    state["fail"] = True
    node.seal(b"x")                       # the last reserved counter; reserving ahead fails
    with pytest.raises(motebox.node.NodeRefused):
        node.seal(b"y")                   # no reserved counter left: refused
    state["fail"] = False
    _, c, _ = open_uplink(node.seal(b"z"), keys.server_sk, keys.registry)
    assert c == 1 + 2 * BLOCK and plib.node(keys.k, keys.key_id, nvm).next > c


def test_counter_exhaustion(plib, keys):
    top = 2**64 - 1
    nvm = bytearray(slot(keys.k, top - 3, 5) + bytes(20))
    node = plib.node(keys.k, keys.key_id, nvm)
    got = [open_uplink(node.seal(b"x"), keys.server_sk, keys.registry)[1] for _ in range(3)]
    assert got == [top - 3, top - 2, top - 1]
    with pytest.raises(motebox.node.NodeRefused):
        node.seal(b"x")                   # 2^64 - 1 is never used
    with pytest.raises(motebox.node.NodeRefused):
        plib.node(keys.k, keys.key_id, nvm)
