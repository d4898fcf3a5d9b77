# SPDX-License-Identifier: MIT
"""The demo's sensor node as Cortex-M4 firmware (motebox_tools.boards.m4.run_node_m4): what it
sends opens with libsodium (PyNaCl) under the server's key, in the cycle model and under
the QEMU fallback, and a tampered copy does not."""
import os

import nacl.bindings as sodium
import nacl.exceptions
import pytest

from motebox_tools.boards import m4 as demo_m4, m4 as target_m4


def check(sent, server_sk, node_sk, readings):
    assert sent["node_pk"] == sodium.crypto_scalarmult_base(node_sk)
    assert len(sent["nonce"]) == 24 and len(sent["tag"]) == 16
    assert len(sent["ciphertext"]) == len(readings)
    box = sent["tag"] + sent["ciphertext"]
    assert sodium.crypto_box_open(box, sent["nonce"], sent["node_pk"], server_sk) == readings
    bad = bytearray(box)
    bad[-1] ^= 0x40
    with pytest.raises(nacl.exceptions.CryptoError):
        sodium.crypto_box_open(bytes(bad), sent["nonce"], sent["node_pk"], server_sk)


@pytest.mark.skipif(not target_m4.have_model(), reason="cycle model motebox_tools.sim.m4 not present yet")
def test_node_in_model():
    server_pk, server_sk = sodium.crypto_box_keypair()
    node_sk, readings = os.urandom(32), os.urandom(1000)   # 15 full chunks and a partial one
    sent = demo_m4.run_node_m4(server_pk, node_sk, readings)
    check(sent, server_sk, node_sk, readings)
    cyc = sent["cycles"]
    assert set(cyc) >= {"x25519_base", "box_beforenm", "stream_init", "stream_update_total",
                        "stream_final"}
    assert all(v > 0 for v in cyc.values())
    assert cyc["stream_update_total"] >= cyc["stream_update_max_chunk"] * 15


@pytest.mark.skipif(not target_m4.have_qemu(), reason="qemu-system-arm not installed")
def test_node_qemu_fallback(monkeypatch):
    monkeypatch.setattr(target_m4, "have_model", lambda: False)
    server_pk, server_sk = sodium.crypto_box_keypair()
    node_sk, readings = os.urandom(32), os.urandom(200)
    sent = demo_m4.run_node_m4(server_pk, node_sk, readings)
    check(sent, server_sk, node_sk, readings)
    assert sent["cycles"] is None and "QEMU" in sent["where"]


def test_node_rejects_bad_arguments():
    with pytest.raises(ValueError, match="server_pk"):
        demo_m4.run_node_m4(b"x" * 31, bytes(32), b"")
    with pytest.raises(ValueError, match="node_sk"):
        demo_m4.run_node_m4(bytes(32), b"x" * 33, b"")
