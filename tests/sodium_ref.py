# SPDX-License-Identifier: MIT
"""The outside reference for primitives PyNaCl does not expose: the system libsodium
(Debian package libsodium-dev / libsodium23) called through ctypes. Used by the SYM
tests (test_sym.py, test_box.py, test_stream.py, test_nacl.py)."""
import ctypes
import ctypes.util

_path = ctypes.util.find_library("sodium") or "libsodium.so.23"
so = ctypes.CDLL(_path)
assert so.sodium_init() >= 0

_u8p = ctypes.c_char_p
_ull = ctypes.c_ulonglong
for _name, _args in {
    "crypto_core_hsalsa20": [_u8p, _u8p, _u8p, _u8p],
    "crypto_stream_xsalsa20": [_u8p, _ull, _u8p, _u8p],
    "crypto_stream_xsalsa20_xor": [_u8p, _u8p, _ull, _u8p, _u8p],
    "crypto_onetimeauth_poly1305": [_u8p, _u8p, _ull, _u8p],
    "crypto_secretbox_detached": [_u8p, _u8p, _u8p, _ull, _u8p, _u8p],
    "crypto_secretbox_open_detached": [_u8p, _u8p, _u8p, _ull, _u8p, _u8p],
    "crypto_box_detached": [_u8p, _u8p, _u8p, _ull, _u8p, _u8p, _u8p],
    "crypto_box_open_detached": [_u8p, _u8p, _u8p, _ull, _u8p, _u8p, _u8p],
    "crypto_box_open_detached_afternm": [_u8p, _u8p, _u8p, _ull, _u8p, _u8p],
}.items():
    getattr(so, _name).argtypes = _args
    getattr(so, _name).restype = ctypes.c_int

SIGMA = b"expand 32-byte k"


def _buf(n):
    return ctypes.create_string_buffer(max(n, 1))


def hsalsa20(inp, k, const=SIGMA):
    out = _buf(32)
    assert so.crypto_core_hsalsa20(out, inp, k, const) == 0
    return out.raw[:32]


def xsalsa20(length, n, k):
    out = _buf(length)
    assert so.crypto_stream_xsalsa20(out, length, n, k) == 0
    return out.raw[:length]


def xsalsa20_xor(m, n, k):
    out = _buf(len(m))
    assert so.crypto_stream_xsalsa20_xor(out, m, len(m), n, k) == 0
    return out.raw[:len(m)]


def poly1305(m, k):
    out = _buf(16)
    assert so.crypto_onetimeauth_poly1305(out, m, len(m), k) == 0
    return out.raw[:16]


def secretbox_detached(m, n, k):
    c, tag = _buf(len(m)), _buf(16)
    assert so.crypto_secretbox_detached(c, tag, m, len(m), n, k) == 0
    return c.raw[:len(m)], tag.raw[:16]


def secretbox_open_detached(c, tag, n, k):
    """Plaintext, or None if libsodium rejects the box."""
    m = _buf(len(c))
    if so.crypto_secretbox_open_detached(m, c, tag, len(c), n, k) != 0:
        return None
    return m.raw[:len(c)]


def box_detached(m, n, pk, sk):
    c, tag = _buf(len(m)), _buf(16)
    if so.crypto_box_detached(c, tag, m, len(m), n, pk, sk) != 0:
        return None
    return c.raw[:len(m)], tag.raw[:16]


def box_open_detached(c, tag, n, pk, sk):
    m = _buf(len(c))
    if so.crypto_box_open_detached(m, c, tag, len(c), n, pk, sk) != 0:
        return None
    return m.raw[:len(c)]


def box_open_detached_afternm(c, tag, n, k):
    m = _buf(len(c))
    if so.crypto_box_open_detached_afternm(m, c, tag, len(c), n, k) != 0:
        return None
    return m.raw[:len(c)]
