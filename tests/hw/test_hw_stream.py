# SPDX-License-Identifier: MIT
"""INIT / FIRST / UPDATE... / FINALIZE and DECRYPT on the RTL, checked with libsodium."""
import os

import nacl.bindings as nb
import pytest

from hwsim import rtl_for
from run import box_stream, decrypt, dh2

WS = (16, 2)


def session(sim):
    """DH-2 with fresh keys; returns (box key from libsodium, our pk, peer sk)."""
    a_sk, b_sk = os.urandom(32), os.urandom(32)
    b_pk = nb.crypto_scalarmult_base(b_sk)
    dh2(sim, a_sk, b_pk)
    return nb.crypto_box_beforenm(b_pk, a_sk), nb.crypto_scalarmult_base(a_sk), b_sk


@pytest.fixture(scope="module", params=WS, ids=lambda w: f"W{w}")
def keyed(request):
    sim = rtl_for(request.param)
    return sim, session(sim)


@pytest.mark.parametrize("blocks", [0, 1, 3, 6])
def test_stream_opens_with_libsodium(keyed, blocks):
    sim, (k, a_pk, b_sk) = keyed
    for _ in range(2):
        nonce, msg = os.urandom(24), os.urandom(32 + 64 * blocks)
        boxed, _ = box_stream(sim, nonce, msg)       # tag || ciphertext
        assert nb.crypto_box_open_afternm(boxed, nonce, k) == msg
        assert nb.crypto_secretbox_open(boxed, nonce, k) == msg
        assert nb.crypto_box_open(boxed, nonce, a_pk, b_sk) == msg


def test_stream_tag_is_zero_padded(keyed):
    sim, (k, _, _) = keyed
    nonce, msg = os.urandom(24), os.urandom(96)
    box_stream(sim, nonce, msg)
    assert sim.read(0)[:16] == bytes(16)


def test_decrypt_accepts_libsodium_boxes(keyed):
    sim, (k, _, _) = keyed
    for _ in range(3):
        nonce, msg = os.urandom(24), os.urandom(32)
        boxed = nb.crypto_box_afternm(msg, nonce, k)
        ok, plain, _ = decrypt(sim, nonce, boxed[:16], boxed[16:])
        assert ok and plain == msg


@pytest.mark.parametrize("where", [0, 15, 16, 47])
def test_decrypt_flags_tampering(keyed, where):
    sim, (k, _, _) = keyed
    nonce, msg = os.urandom(24), os.urandom(32)
    boxed = bytearray(nb.crypto_box_afternm(msg, nonce, k))
    boxed[where] ^= 0x01
    ok, plain, _ = decrypt(sim, nonce, bytes(boxed[:16]), bytes(boxed[16:]))
    assert not ok
    assert plain == bytes(32)          # fail closed: no plaintext released


def test_decrypt_flags_wrong_nonce(keyed):
    sim, (k, _, _) = keyed
    nonce, msg = os.urandom(24), os.urandom(32)
    boxed = nb.crypto_box_afternm(msg, nonce, k)
    ok, plain, _ = decrypt(sim, os.urandom(24), boxed[:16], boxed[16:])
    assert not ok and plain == bytes(32)


def test_decrypt_box_from_peer_keypair(keyed):
    """A box the peer makes with crypto_box(m, n, our_pk, peer_sk) decrypts on the chip."""
    sim, (k, a_pk, b_sk) = keyed
    nonce, msg = os.urandom(24), os.urandom(32)
    boxed = nb.crypto_box(msg, nonce, a_pk, b_sk)
    ok, plain, _ = decrypt(sim, nonce, boxed[:16], boxed[16:])
    assert ok and plain == msg
