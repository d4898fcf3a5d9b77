# SPDX-License-Identifier: MIT
"""The demo's sensor node (demo/node.c) on the simulated MSP430FR5969, with each
multiplier, portable and (when mk/msp430.mk names the board's chip) with the chip's
assembly: what it sends must open with libsodium (PyNaCl) as the server does in
`make demo`, its public key must be libsodium's for its secret, and a flipped bit must
be rejected. `make demo NODE=msp430` runs the assembly build when there is one."""
import nacl.bindings
import nacl.exceptions
import pytest

from motebox_tools import demo
from motebox_tools.boards import msp430 as t430
from motebox_tools.boards.msp430 import run_node_msp430


NODES = [(mpy, None) for mpy in t430.MPYS] + \
    [(t430.VARIANTS[v].mpy, v) for v in t430.variants(asm=True) if t430.VARIANTS[v].opt == "O2"]


@pytest.mark.parametrize("mpy,variant", NODES, ids=[v or f"mpy{m}" for m, v in NODES])
def test_node_box_opens_with_libsodium(mpy, variant):
    if not t430.have_sim():
        pytest.fail(f"{t430.sim_path()} missing: run `make` (SIM430's simulator)")
    server_pk, server_sk = nacl.bindings.crypto_box_keypair()
    node_sk = bytes(range(7, 39))
    readings = demo.sensor_readings(20)          # 160 bytes: 2 full chunks and a tail
    sent = run_node_msp430(server_pk, node_sk, readings, mpy=mpy, variant=variant)
    if variant is not None:         # the build it ran on is named in what the demo prints
        assert f"variant {variant} (arch/{t430.chip()} asm + C, -O2)" in sent["where"]
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
    with pytest.raises(ValueError, match="variant"):
        run_node_msp430(b"\0" * 32, b"\0" * 32, b"", variant="no-such-build")


def test_demo_runs_the_assembly_build_when_there_is_one():
    """The board's demo node: the chip's assembly build with the 32-bit multiplier when
    mk/msp430.mk names a chip, else the portable one."""
    want = "mpy32-asm" if t430.chip() else "mpy32"
    assert t430.demo_variant() == want and want in t430.variants()
