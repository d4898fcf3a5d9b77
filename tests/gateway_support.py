# SPDX-License-Identifier: MIT
"""An independent node and decoder for protocol v1 (docs/PROTOCOL.md), written from
the spec on PyNaCl (libsodium) and aiocoap only, to test the gateway against: nothing
here comes from motebox_tools.gateway."""
import socket

import aiocoap
import nacl.bindings
import nacl.exceptions

UPLINK, RECEIPT = 0x11, 0x12


def nonce(direction, counter):
    # "mbx1" || direction || 11 zero bytes || counter (8 bytes, big-endian)
    return b"mbx1" + bytes((direction,)) + b"\x00" * 11 + counter.to_bytes(8, "big")


class SpecNode:
    def __init__(self, server_pk, sk=None):
        if sk is None:
            self.pk, self.sk = nacl.bindings.crypto_box_keypair()
        else:
            self.sk, self.pk = sk, nacl.bindings.crypto_scalarmult_base(sk)
        self.server_pk = server_pk
        self.kid = self.pk[:8]

    def uplink(self, counter, reading, kid=None):
        box = nacl.bindings.crypto_box(reading, nonce(1, counter), self.server_pk, self.sk)
        return bytes((UPLINK,)) + (kid or self.kid) + counter.to_bytes(8, "big") + box

    def open_receipt(self, counter, data):
        """R (32 bytes) of a receipt for counter; None if it is not one."""
        if len(data) != 65 or data[0] != RECEIPT or data[1:9] != self.kid \
                or data[9:17] != counter.to_bytes(8, "big"):
            return None
        try:
            return nacl.bindings.crypto_box_open(data[17:], nonce(2, counter),
                                                 self.server_pk, self.sk)
        except nacl.exceptions.CryptoError:
            return None


_mid = [100]


def coap_message(mtype, code, mid, token=b"", **options):
    """An aiocoap Message with the header fields set (as a node's stack would)."""
    m = aiocoap.Message(code=code, **options)
    m.mtype, m.mid, m.token = mtype, mid, token
    return m


def coap_post(payload, confirmable=True, token=b"\x01\x02"):
    _mid[0] = (_mid[0] + 1) & 0xFFFF
    return coap_message(aiocoap.CON if confirmable else aiocoap.NON, aiocoap.POST, _mid[0],
                        token, uri_path=("r",), payload=payload).encode()


def coap_decode(data):
    return aiocoap.Message.decode(data)


class Client:
    """A UDP socket towards the gateway."""

    def __init__(self, port):
        self.s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.s.connect(("127.0.0.1", port))
        self.s.settimeout(2.0)

    def send(self, data):
        self.s.send(data)

    def ask(self, data, timeout=2.0):
        """Send; the first answer's bytes, or None if none came within timeout."""
        self.s.settimeout(timeout)
        self.s.send(data)
        try:
            return self.s.recv(4096)
        except socket.timeout:
            return None

    def close(self):
        self.s.close()
