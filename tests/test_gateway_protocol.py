# SPDX-License-Identifier: MIT
"""Protocol v1 bytes (docs/PROTOCOL.md) of motebox_tools.gateway against an independent
implementation on PyNaCl (tests/gateway_support.py), and its CoAP subset against
aiocoap's codec."""
import os

import aiocoap
import pytest

from conftest import BUILD
from gateway_support import SpecNode, coap_message, nonce
import motebox
import nacl.bindings
from motebox_tools.gateway import coap, wire


@pytest.fixture(scope="module")
def sealer():
    return wire.Sealer(motebox.Library(BUILD / "host" / "libmotebox.so"))


@pytest.fixture(scope="module")
def keys():
    return nacl.bindings.crypto_box_keypair()


def test_nonces_are_the_spec_bytes():
    assert wire.nonce_up(1) == b"mbx1\x01" + bytes(11) + b"\x00" * 7 + b"\x01"
    assert wire.nonce_down(0x0102030405060708) == b"mbx1\x02" + bytes(11) + bytes(range(1, 9))
    assert len(wire.nonce_up(2**64 - 2)) == 24
    assert wire.nonce_up(7) != wire.nonce_down(7)


@pytest.mark.parametrize("size", [1, 64, 1024])
def test_uplink_equals_libsodium_crypto_box(sealer, keys, size):
    server_pk, _ = keys
    node = SpecNode(server_pk)
    k = sealer.precompute(server_pk, node.sk)
    reading = os.urandom(size)
    for c in (1, 2, 0x1234, 2**64 - 2):
        mine = sealer.seal_reading(k, node.kid, c, reading)
        assert mine == node.uplink(c, reading)
        assert len(mine) == 33 + size


def test_a_64_byte_reading_is_a_97_byte_datagram(sealer, keys):
    node = SpecNode(keys[0])
    assert len(sealer.seal_reading(sealer.precompute(keys[0], node.sk), node.kid, 1,
                                   bytes(64))) == 97


def test_server_opens_spec_uplinks_and_refuses_changes(sealer, keys):
    server_pk, server_sk = keys
    node = SpecNode(server_pk)
    k = sealer.precompute(node.pk, server_sk)
    data = node.uplink(42, b"reading")
    assert sealer.open_reading(k, 42, data) == b"reading"
    for i in range(len(data)):               # any flipped bit: counter, tag or ciphertext
        if i == 0 or 1 <= i < 9:
            continue                          # type and key id are checked before opening
        bad = bytearray(data)
        bad[i] ^= 0x40
        assert sealer.open_reading(k, int.from_bytes(bad[9:17], "big"), bytes(bad)) is None
    assert sealer.open_reading(k, 43, data) is None


def test_receipt_opens_with_libsodium_at_the_node(sealer, keys):
    server_pk, server_sk = keys
    node = SpecNode(server_pk)
    k = sealer.precompute(node.pk, server_sk)
    r = sealer.seal_receipt(k, node.kid, 99)
    assert len(r) == 65 and r[0] == 0x12
    assert node.open_receipt(99, r) == bytes(32)              # status 0 = stored, no command
    assert node.open_receipt(98, r) is None
    # and the node-side opener of the load generator agrees with libsodium's box
    kn = sealer.precompute(server_pk, node.sk)
    assert sealer.open_receipt(kn, node.kid, 99, r) == bytes(32)
    forged = bytearray(r)
    forged[40] ^= 1
    assert sealer.open_receipt(kn, node.kid, 99, bytes(forged)) is None
    box = nacl.bindings.crypto_box(bytes(32), nonce(2, 99), node.pk, server_sk)
    assert r[17:] == box


def test_coap_decodes_aiocoap_requests():
    for mtype in (aiocoap.CON, aiocoap.NON):
        m = coap_message(mtype, aiocoap.POST, 0xBEEF, b"\xaa\xbb\xcc", uri_path=("r",),
                         payload=b"\x11payload")
        d = coap.decode(m.encode())
        assert (d.mtype, d.code, d.mid, d.token, d.path, d.payload) == \
            (int(mtype), coap.POST, 0xBEEF, b"\xaa\xbb\xcc", ("r",), b"\x11payload")
    long = coap_message(aiocoap.CON, aiocoap.GET, 1, uri_path=("x" * 300, "stats"),
                        uri_host="gateway.example")
    assert coap.decode(long.encode()).path == ("x" * 300, "stats")


def test_coap_responses_decode_in_aiocoap():
    resp = coap.response_prefix(coap.CON, 0x1234, b"\x01\x02") + b"\xff" + b"receipt"
    m = aiocoap.Message.decode(resp)
    assert (m.mtype, m.code, m.mid, m.token, m.payload) == \
        (aiocoap.ACK, aiocoap.CHANGED, 0x1234, b"\x01\x02", b"receipt")
    req = coap.encode(coap.NON, coap.POST, 7, b"t", b"body", path=("r",))
    m = aiocoap.Message.decode(req)
    assert (m.mtype, m.code, m.opt.uri_path, m.payload) == (aiocoap.NON, aiocoap.POST, ("r",), b"body")


@pytest.mark.parametrize("data", [b"", b"\x40\x02", b"\x00\x02\x00\x01",        # short, version 0
                                  b"\x49\x02\x00\x01",                          # token length 9
                                  b"\x4c\x02\x00\x01" + bytes(12) + b"\xb1r\xffx",  # ... 12
                                  b"\x42\x02\x00\x01\xaa",                      # token cut short
                                  b"\x40\x02\x00\x01\xff",                      # marker, no payload
                                  b"\x40\x02\x00\x01\xbd",                      # option cut short
                                  b"\x40\x02\x00\x01\xf0",                      # delta 15
                                  b"\x40\x00\x00\x01\xffx"])                    # empty with payload
def test_coap_refuses_malformed(data):
    assert coap.decode(data) is None


def test_library_c_node_sends_the_same_bytes(sealer, keys):
    """The C node (mb_node_*, helper of the load generator's c_nodes) and the gateway's
    wire module produce the spec's bytes, and the C node takes the gateway's receipt."""
    server_pk, server_sk = keys
    spec = SpecNode(server_pk)
    node = sealer.lib.node_for(server_pk, spec.sk)
    c = node.next
    data = node.seal(b"r" * 64)
    k = sealer.precompute(server_pk, spec.sk)
    assert data == spec.uplink(c, b"r" * 64) == sealer.seal_reading(k, spec.kid, c, b"r" * 64)
    receipt = sealer.seal_receipt(sealer.precompute(spec.pk, server_sk), spec.kid, c)
    assert node.open_receipt(receipt) == (0, bytes(31))
