# SPDX-License-Identifier: MIT
"""DH-1 / DH-2 on the RTL against RFC 7748 and libsodium (PyNaCl), W = 16 and W = 2."""
import os
import random

import nacl.bindings as nb
import pytest

from hwsim import model_for, rtl_for
from run import box_stream, dh1, dh2
from vectors import RFC7748_ITERATED, rfc7748

WS = (16, 2)


@pytest.mark.parametrize("W", WS)
def test_rfc7748_vectors(W):
    sim = rtl_for(W)
    for scalar, u, out in rfc7748():
        got, _ = dh1(sim, scalar, u)
        assert got == out


@pytest.mark.parametrize("W", WS)
def test_rfc7748_iterated_once(W):
    k = (9).to_bytes(32, "little")
    got, _ = dh1(rtl_for(W), k, k)
    assert got == RFC7748_ITERATED[1]


@pytest.mark.parametrize("W", WS)
def test_random_public_keys(W):
    sim = rtl_for(W)
    rng = random.Random(7000 + W)
    for _ in range(3):
        sk = rng.randbytes(32)
        got, _ = dh1(sim, sk)
        assert got == nb.crypto_scalarmult_base(sk)


@pytest.mark.parametrize("W", WS)
def test_dh1_keeps_scalar_clamped_and_u_top_bit(W):
    # u with bit 255 set must be treated as u mod 2^255 (RFC 7748 section 5)
    sim = rtl_for(W)
    sk, peer = os.urandom(32), bytearray(nb.crypto_scalarmult_base(os.urandom(32)))
    ref = nb.crypto_scalarmult(sk, bytes(peer))
    peer[31] |= 0x80
    got, _ = dh1(sim, sk, bytes(peer))
    assert got == ref


@pytest.mark.parametrize("W", WS)
def test_dh2_gives_box_key(W):
    """DH-2 leaves crypto_box_beforenm(pk, sk) in R6: a box streamed with it opens."""
    sim = rtl_for(W)
    a_sk, b_sk = os.urandom(32), os.urandom(32)
    b_pk = nb.crypto_scalarmult_base(b_sk)
    dh2(sim, a_sk, b_pk)
    nonce, msg = os.urandom(24), os.urandom(32 + 64)
    boxed, _ = box_stream(sim, nonce, msg)
    a_pk = nb.crypto_scalarmult_base(a_sk)
    assert nb.crypto_box_open(boxed, nonce, a_pk, b_sk) == msg


def test_model_runs_the_same_program():
    """The reference model (same ROM image) gives libsodium's answer and the RTL's cycles."""
    sk = os.urandom(32)
    m = model_for(16)
    got, cyc = dh1(m, sk)
    assert got == nb.crypto_scalarmult_base(sk)
    got_rtl, cyc_rtl = dh1(rtl_for(16), sk)
    assert (got_rtl, cyc_rtl) == (got, cyc)


@pytest.mark.slow
def test_rfc7748_iterated_1000():
    """Slow (~1-2 min): RFC 7748 section 5.2, 1,000 iterations, W = 16."""
    sim = rtl_for(16)
    k = u = (9).to_bytes(32, "little")
    for _ in range(1000):
        k, u = dh1(sim, k, u)[0], k
    assert k == RFC7748_ITERATED[1000]
