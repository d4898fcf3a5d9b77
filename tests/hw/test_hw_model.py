# SPDX-License-Identifier: MIT
"""Reference model vs RTL at the interface (outputs and busy-cycle counts), every W;
plus libsodium checks at the intermediate digit sizes."""
import os

import nacl.bindings as nb
import pytest

from hwsim import ALL_W, model_for, rtl_for
from run import box_stream, decrypt, dh1, dh2


@pytest.mark.parametrize("W", ALL_W)
def test_model_agrees_with_rtl(W):
    sim, m = rtl_for(W), model_for(W)
    sk, peer_sk = os.urandom(32), os.urandom(32)
    pk_r, c_r = dh1(sim, sk)
    pk_m, c_m = dh1(m, sk)
    assert pk_r == pk_m == nb.crypto_scalarmult_base(sk)
    assert c_r == c_m
    peer = nb.crypto_scalarmult_base(peer_sk)
    assert dh2(sim, sk, peer) == dh2(m, sk, peer)
    k = nb.crypto_box_beforenm(peer, sk)
    nonce, msg = os.urandom(24), os.urandom(32 + 64 * 2)
    out_r, cyc_r = box_stream(sim, nonce, msg)
    out_m, cyc_m = box_stream(m, nonce, msg)
    assert out_r == out_m
    assert cyc_r == cyc_m
    assert nb.crypto_box_open_afternm(out_r, nonce, k) == msg
    boxed = nb.crypto_box_afternm(msg[:32], nonce, k)
    assert decrypt(sim, nonce, boxed[:16], boxed[16:]) == decrypt(m, nonce, boxed[:16], boxed[16:])
    for bank in (0, 1):
        assert sim.read(bank) == m.read(bank)
