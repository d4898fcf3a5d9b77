# SPDX-License-Identifier: MIT
"""Constant time: every command's busy-cycle count is the same for different secrets."""
import os

import nacl.bindings as nb
import pytest

from hwsim import ALL_W, rtl_for
from run import box_stream, decrypt, dh1, dh2


@pytest.mark.parametrize("W", ALL_W)
def test_cycles_independent_of_secrets(W):
    sim = rtl_for(W)
    seen = {}

    def note(name, cycles):
        seen.setdefault(name, set()).add(cycles)

    keys = [bytes(32), b"\xff" * 32, os.urandom(32)]     # extreme and random scalars
    for sk in keys:
        note("DH1", dh1(sim, sk)[1])
        peer = nb.crypto_scalarmult_base(os.urandom(32))
        note("DH2", dh2(sim, sk, peer))
        k = nb.crypto_box_beforenm(peer, sk)
        for msg in (bytes(96), b"\xff" * 96, os.urandom(96)):
            nonce = os.urandom(24)
            _, cyc = box_stream(sim, nonce, msg)
            for name, c in cyc.items():
                note(name, c)
            good = nb.crypto_box_afternm(msg[:32], nonce, k)
            note("DECRYPT", decrypt(sim, nonce, good[:16], good[16:])[2])
            note("DECRYPT", decrypt(sim, nonce, bytes(16), good[16:])[2])   # forged
    assert all(len(v) == 1 for v in seen.values()), seen
