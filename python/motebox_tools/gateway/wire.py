# SPDX-License-Identifier: MIT
"""The bytes of protocol v1 (docs/PROTOCOL.md): the uplink message a node sends, the
receipt the server answers with, their nonces, and the sealing/opening of both through
the motebox library (crypto_box with the precomputed key k = crypto_box_beforenm, i.e.
secretbox under k).

    uplink  = 0x11 | key id (8) | counter (8, big-endian) | tag (16) | ciphertext (n)
    receipt = 0x12 | key id (8) | counter (8)             | tag (16) | ciphertext (32)
"""
import ctypes

TYPE_READING = 0x11      # version 1 (high nibble), kind 1: reading
TYPE_RECEIPT = 0x12      # version 1, kind 2: receipt
HEADER = 17              # type, key id, counter
TAG = 16
KEY_ID = 8
MAX_READING = 1024
MIN_UPLINK = HEADER + TAG + 1
MAX_UPLINK = HEADER + TAG + MAX_READING
RECEIPT_PLAIN = 32       # status byte + 31 command bytes
RECEIPT_LEN = HEADER + TAG + RECEIPT_PLAIN
MAX_COUNTER = 2**64 - 2  # counters are 1 .. 2^64-2
WINDOW = 1024            # a counter <= high water - WINDOW that is not stored is too old
STATUS_STORED = 0x00
RECEIPT_STORED = bytes(RECEIPT_PLAIN)   # status "stored", no command


_UP = b"mbx1\x01" + bytes(11)
_DOWN = b"mbx1\x02" + bytes(11)


def nonce_up(counter):
    """"mbx1" | 0x01 | 11 zero bytes | counter: node -> server."""
    return _UP + counter.to_bytes(8, "big")


def nonce_down(counter):
    """"mbx1" | 0x02 | 11 zero bytes | counter: server -> node (never equal to an uplink
    nonce, so the two directions never share a nonce under the one key k)."""
    return _DOWN + counter.to_bytes(8, "big")


def key_id(pk):
    """The 8-byte key id of a node: the first bytes of its public key."""
    return bytes(pk[:KEY_ID])


def header(kind, kid, counter):
    return bytes((kind,)) + kid + counter.to_bytes(8, "big")


def parse_header(data):
    """(type, key id, counter) of an uplink or receipt datagram (no length checks)."""
    return data[0], bytes(data[1:9]), int.from_bytes(data[9:17], "big")


class Sealer:
    """Seal and open protocol messages with one motebox Library, through reusable
    buffers (the gateway opens tens of thousands of messages a second; the binding's
    generic methods allocate per call). One Sealer per thread."""

    def __init__(self, lib):
        self.lib = lib
        self._open = lib.c.mb_secretbox_open
        self._seal = lib.c.mb_secretbox
        self._out = ctypes.create_string_buffer(MAX_READING + TAG)

    def precompute(self, their_pk, my_sk):
        """k = crypto_box_beforenm(their_pk, my_sk), kept per node."""
        return self.lib.box_beforenm(their_pk, my_sk)

    def _open_box(self, k, nonce, box):
        n = len(box) - TAG
        if n < 0 or n > MAX_READING:
            return None
        if self._open(self._out, box, len(box), nonce, k) != 0:
            return None
        return ctypes.string_at(self._out, n)

    def _seal_box(self, k, nonce, m):
        if len(m) > MAX_READING:
            raise ValueError(f"message of {len(m)} bytes is longer than {MAX_READING}")
        if self._seal(self._out, m, len(m), nonce, k) != 0:
            raise ValueError("secretbox refused the message")
        return ctypes.string_at(self._out, len(m) + TAG)

    # --- the node's side (host nodes of the load generator, tests) ----------------
    def seal_reading(self, k, kid, counter, reading):
        """The uplink datagram carrying `reading` under counter."""
        if not 1 <= counter <= MAX_COUNTER or not 1 <= len(reading) <= MAX_READING:
            raise ValueError("counter or reading length out of range")
        return header(TYPE_READING, kid, counter) + self._seal_box(k, nonce_up(counter), reading)

    def open_receipt(self, k, kid, counter, data):
        """The 32-byte plaintext R of a receipt for (kid, counter); None if it is not
        one (length, type, key id, counter or tag)."""
        if (len(data) != RECEIPT_LEN or data[0] != TYPE_RECEIPT or data[1:9] != kid
                or int.from_bytes(data[9:17], "big") != counter):
            return None
        return self._open_box(k, nonce_down(counter), data[HEADER:])

    # --- the server's side ----------------------------------------------------------
    def open_reading(self, k, counter, data):
        """The reading in an uplink datagram whose header was checked; None if the tag
        fails."""
        return self._open_box(k, nonce_up(counter), data[HEADER:])

    def seal_receipt(self, k, kid, counter, plain=RECEIPT_STORED):
        """The receipt datagram answering uplink `counter`."""
        if len(plain) != RECEIPT_PLAIN:
            raise ValueError("a receipt's plaintext is 32 bytes")
        return header(TYPE_RECEIPT, kid, counter) + self._seal_box(k, nonce_down(counter), plain)
