# SPDX-License-Identifier: MIT
"""The demo's sensor node (demo/node.c) on the simulated MSP430FR5969, with each
multiplier: what it sends must open with libsodium (PyNaCl) as the server does in
`make demo`, its public key must be libsodium's for its secret, and a flipped bit must
be rejected."""
import nacl.bindings
import nacl.exceptions
import pytest

from motebox_tools import demo
from motebox_tools.boards import msp430 as t430
from motebox_tools.boards.msp430 import run_node_msp430


@pytest.mark.parametrize("mpy", t430.MPYS, ids=lambda m: f"mpy{m}")
def test_node_box_opens_with_libsodium(mpy):
    if not t430.have_sim():
        pytest.fail(f"{t430.sim_path()} missing: run `make` (SIM430's simulator)")
    server_pk, server_sk = nacl.bindings.crypto_box_keypair()
    node_sk = bytes(range(7, 39))
    readings = demo.sensor_readings(20)          # 160 bytes: 2 full chunks and a tail
    sent = run_node_msp430(server_pk, node_sk, readings, mpy=mpy)
    assert sent["node_pk"] == nacl.bindings.crypto_scalarmult_base(node_sk)
    box = sent["tag"] + sent["ciphertext"]
    assert nacl.bindings.crypto_box_open(box, sent["nonce"], sent["node_pk"], server_sk) == readings
    forged = bytearray(box)
    forged[20] ^= 1
    with pytest.raises(nacl.exceptions.CryptoError):
        nacl.bindings.crypto_box_open(bytes(forged), sent["nonce"], sent["node_pk"], server_sk)
    assert sent["cycles"]["x25519_base"] > 0 and sent["stack"] > 0


def test_node_rejects_bad_arguments():
    with pytest.raises(ValueError, match="server_pk"):
        run_node_msp430(b"\0" * 31, b"\0" * 32, b"")
    with pytest.raises(ValueError, match="node_sk"):
        run_node_msp430(b"\0" * 32, b"\0" * 33, b"")
    with pytest.raises(ValueError, match="mpy"):
        run_node_msp430(b"\0" * 32, b"\0" * 32, b"", mpy=8)
