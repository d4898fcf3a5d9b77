# SPDX-License-Identifier: MIT
"""The Python layer fails closed with errors that name what was wrong."""
import os

import pytest

import motebox

K, N, PK, SK = bytes(32), bytes(24), bytes(range(32)), bytes(range(1, 33))


@pytest.mark.parametrize("call, arg", [
    (lambda: motebox.x25519(b"short", PK), "sk"),
    (lambda: motebox.x25519(SK, PK + b"x"), "pk"),
    (lambda: motebox.x25519_randomized(SK, PK, b""), "rnd"),
    (lambda: motebox.secretbox(b"m", N[:23], K), "n"),
    (lambda: motebox.secretbox(b"m", N, K[:31]), "k"),
    (lambda: motebox.box(b"m", N, PK[:3], SK), "pk"),
    (lambda: motebox.box_open(bytes(40), N, PK, SK[:1]), "sk"),
    (lambda: motebox.secretbox_open_detached(b"c", bytes(15), N, K), "tag"),
    (lambda: motebox.stream(K, N[:1]), "n"),
])
def test_wrong_length_names_argument(call, arg):
    with pytest.raises(ValueError, match=rf"^{arg} must be \d+ bytes long"):
        call()


def test_wrong_type():
    with pytest.raises(TypeError, match="m must be bytes"):
        motebox.secretbox("text", N, K)


def test_short_ciphertext_is_badbox():
    with pytest.raises(motebox.BadBox, match="shorter than the 16-byte tag"):
        motebox.secretbox_open(bytes(15), N, K)


def test_low_order_key_is_badkey():
    # u = 0 is of order 1 on Curve25519 (RFC 7748 section 6.1 asks to check all-zero output).
    with pytest.raises(motebox.BadKey, match="low-order"):
        motebox.x25519(os.urandom(32), bytes(32))
    with pytest.raises(motebox.BadKey):
        motebox.box(b"m", N, bytes(32), os.urandom(32))
    assert issubclass(motebox.BadKey, ValueError)


def test_stream_cannot_be_reused():
    s = motebox.stream(K, N)
    s.update(b"abc")
    s.final()
    with pytest.raises(motebox.MoteboxError, match="finalised"):
        s.update(b"d")


def test_unknown_attribute():
    with pytest.raises(AttributeError):
        motebox.no_such_function  # noqa: B018
