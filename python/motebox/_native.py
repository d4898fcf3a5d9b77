# SPDX-License-Identifier: MIT
"""ctypes binding of libmotebox.so: bytes in, bytes out, clear exceptions.

`Library(path)` wraps one build of the library (tests load every field backend this way);
the module-level functions in `motebox` use the default build, found by
`default_lib_path()`.
"""
import ctypes
import os
from pathlib import Path

from .errors import BadBox, BadKey, LibraryNotFound, MoteboxError, check_bytes as _bytes
from .p256 import P256

LIBNAME = "libmotebox.so"
_HERE = Path(__file__).resolve().parent


def _checkout_build():
    """build/host/libmotebox.so of the source checkout this package runs from (the
    package dir is <checkout>/python/motebox), or of $MOTEBOX_BUILD; None when the
    package is not in a checkout (an installed wheel)."""
    build = os.environ.get("MOTEBOX_BUILD")
    if build:
        return Path(build) / "host" / LIBNAME
    root = _HERE.parent.parent
    if _HERE.parent.name == "python" and (root / "include" / "motebox.h").is_file():
        return root / "build" / "host" / LIBNAME
    return None


def lib_candidates():
    """Where the default library is looked for, in order: $MOTEBOX_LIB, a copy next to
    the package (a wheel that bundles it), the checkout's build directory."""
    env = os.environ.get("MOTEBOX_LIB")
    if env:
        return [Path(env)]
    found = [_HERE / LIBNAME]
    build = _checkout_build()
    if build is not None:
        found.append(build)
    return found


def default_lib_path():
    """The first existing candidate; LibraryNotFound (saying where it looked and what to
    do) if there is none."""
    cands = lib_candidates()
    for p in cands:
        if p.is_file():
            return p
    raise LibraryNotFound(
        f"{LIBNAME} not found (looked at: {', '.join(map(str, cands))}). Build it with "
        "`make` in a motebox checkout, or set MOTEBOX_LIB to the path of a libmotebox.so.")


_u8p = ctypes.c_char_p
_sz = ctypes.c_size_t
_int = ctypes.c_int
_void = None
READ_FN = ctypes.CFUNCTYPE(_int, ctypes.c_void_p, _sz, ctypes.POINTER(ctypes.c_uint8), _sz)
WRITE_FN = ctypes.CFUNCTYPE(_int, ctypes.c_void_p, _sz, ctypes.POINTER(ctypes.c_uint8), _sz)

# name -> (restype, argtypes). P-256 entries are bound only when the build has them.
_PROTOS = {
    "mb_wipe": (_void, [ctypes.c_void_p, _sz]),
    "mb_verify16": (_int, [_u8p, _u8p]),
    "mb_verify32": (_int, [_u8p, _u8p]),
    "mb_x25519": (_int, [_u8p, _u8p, _u8p]),
    "mb_x25519_base": (_int, [_u8p, _u8p]),
    "mb_x25519_randomized": (_int, [_u8p, _u8p, _u8p, _u8p]),
    "mb_hsalsa20": (_void, [_u8p, _u8p, _u8p]),
    "mb_xsalsa20": (_void, [_u8p, _sz, _u8p, _u8p]),
    "mb_xsalsa20_xor": (_void, [_u8p, _u8p, _sz, _u8p, _u8p]),
    "mb_poly1305": (_void, [_u8p, _u8p, _sz, _u8p]),
    "mb_poly1305_verify": (_int, [_u8p, _u8p, _sz, _u8p]),
    "mb_secretbox": (_void, [_u8p, _u8p, _sz, _u8p, _u8p]),
    "mb_secretbox_open": (_int, [_u8p, _u8p, _sz, _u8p, _u8p]),
    "mb_secretbox_detached": (_void, [_u8p, _u8p, _u8p, _sz, _u8p, _u8p]),
    "mb_secretbox_open_detached": (_int, [_u8p, _u8p, _sz, _u8p, _u8p, _u8p]),
    "mb_box_beforenm": (_int, [_u8p, _u8p, _u8p]),
    "mb_box": (_int, [_u8p, _u8p, _sz, _u8p, _u8p, _u8p]),
    "mb_box_open": (_int, [_u8p, _u8p, _sz, _u8p, _u8p, _u8p]),
    "mb_box_detached": (_int, [_u8p, _u8p, _u8p, _sz, _u8p, _u8p, _u8p]),
    "mb_box_open_detached": (_int, [_u8p, _u8p, _sz, _u8p, _u8p, _u8p, _u8p]),
    "mb_box_stream_size": (_sz, []),
    "mb_box_stream_init": (_void, [ctypes.c_void_p, _u8p, _u8p]),
    "mb_box_stream_update": (_void, [ctypes.c_void_p, _u8p, _u8p, _sz]),
    "mb_box_stream_final": (_void, [ctypes.c_void_p, _u8p]),
    "mb_secretbox_open_twopass": (_int, [_u8p, _sz, _u8p, _u8p, READ_FN, WRITE_FN, ctypes.c_void_p]),
    "mb_p256_base": (_int, [_u8p, _u8p]),
    "mb_p256_ecdh": (_int, [_u8p, _u8p, _u8p, _sz]),
    "mb_p256_ecdh_randomized": (_int, [_u8p, _u8p, _u8p, _sz, _u8p]),
    "mb_p256_compress": (_int, [_u8p, _u8p]),
    "mb_p256_decompress": (_int, [_u8p, _u8p]),
}


class Library(P256):
    """One loaded build of libmotebox. Methods mirror the C API with bytes in and out."""

    def __init__(self, path=None):
        self.path = Path(path) if path else default_lib_path()
        if not self.path.exists():
            raise LibraryNotFound(f"motebox library not found at {self.path}: run `make` "
                                  "in the checkout, or pass the path of a libmotebox.so")
        self.c = ctypes.CDLL(str(self.path))
        for name, (res, args) in _PROTOS.items():
            fn = getattr(self.c, name, None)
            if fn is not None:
                fn.restype, fn.argtypes = res, args

    def has(self, name):
        return hasattr(self.c, name)

    # ---- X25519 --------------------------------------------------------------
    def x25519(self, sk, pk):
        """Shared secret X25519(sk, pk); BadKey if pk has low order."""
        sk, pk = _bytes("sk", sk, 32), _bytes("pk", pk, 32)
        out = ctypes.create_string_buffer(32)
        if self.c.mb_x25519(out, sk, pk) != 0:
            raise BadKey("pk is a low-order point: the shared secret would be all zero")
        return out.raw

    def x25519_base(self, sk):
        """Public key of the secret key sk."""
        sk = _bytes("sk", sk, 32)
        out = ctypes.create_string_buffer(32)
        if self.c.mb_x25519_base(out, sk) != 0:
            raise MoteboxError("mb_x25519_base failed")
        return out.raw

    def x25519_randomized(self, sk, pk, rnd):
        """X25519 with randomized projective coordinates; rnd: 32 fresh random bytes."""
        sk, pk, rnd = _bytes("sk", sk, 32), _bytes("pk", pk, 32), _bytes("rnd", rnd, 32)
        out = ctypes.create_string_buffer(32)
        if self.c.mb_x25519_randomized(out, sk, pk, rnd) != 0:
            raise BadKey("pk is a low-order point: the shared secret would be all zero")
        return out.raw

    # ---- primitives ------------------------------------------------------------
    def hsalsa20(self, inp, k):
        inp, k = _bytes("in", inp, 16), _bytes("k", k, 32)
        out = ctypes.create_string_buffer(32)
        self.c.mb_hsalsa20(out, inp, k)
        return out.raw

    def xsalsa20(self, length, n, k):
        if length < 0:
            raise ValueError("length must not be negative")
        n, k = _bytes("n", n, 24), _bytes("k", k, 32)
        out = ctypes.create_string_buffer(max(length, 1))
        self.c.mb_xsalsa20(out, length, n, k)
        return out.raw[:length]

    def xsalsa20_xor(self, m, n, k):
        m, n, k = _bytes("m", m), _bytes("n", n, 24), _bytes("k", k, 32)
        out = ctypes.create_string_buffer(max(len(m), 1))
        self.c.mb_xsalsa20_xor(out, m, len(m), n, k)
        return out.raw[:len(m)]

    def poly1305(self, m, k):
        m, k = _bytes("m", m), _bytes("k", k, 32)
        out = ctypes.create_string_buffer(16)
        self.c.mb_poly1305(out, m, len(m), k)
        return out.raw

    def poly1305_verify(self, tag, m, k):
        """True iff tag authenticates m under k."""
        tag, m, k = _bytes("tag", tag, 16), _bytes("m", m), _bytes("k", k, 32)
        return self.c.mb_poly1305_verify(tag, m, len(m), k) == 0

    # ---- secretbox -------------------------------------------------------------
    def secretbox(self, m, n, k):
        """tag(16) || ciphertext, as libsodium's crypto_secretbox_easy."""
        m, n, k = _bytes("m", m), _bytes("n", n, 24), _bytes("k", k, 32)
        out = ctypes.create_string_buffer(len(m) + 16)
        self.c.mb_secretbox(out, m, len(m), n, k)
        return out.raw

    def secretbox_open(self, c, n, k):
        """Plaintext of c; BadBox if c is forged or shorter than 16 bytes."""
        c, n, k = _bytes("c", c), _bytes("n", n, 24), _bytes("k", k, 32)
        if len(c) < 16:
            raise BadBox(f"ciphertext is {len(c)} bytes, shorter than the 16-byte tag")
        out = ctypes.create_string_buffer(max(len(c) - 16, 1))
        if self.c.mb_secretbox_open(out, c, len(c), n, k) != 0:
            raise BadBox("secretbox authentication failed")
        return out.raw[:len(c) - 16]

    def secretbox_detached(self, m, n, k):
        """(ciphertext, tag)."""
        m, n, k = _bytes("m", m), _bytes("n", n, 24), _bytes("k", k, 32)
        c = ctypes.create_string_buffer(max(len(m), 1))
        tag = ctypes.create_string_buffer(16)
        self.c.mb_secretbox_detached(c, tag, m, len(m), n, k)
        return c.raw[:len(m)], tag.raw

    def secretbox_open_detached(self, c, tag, n, k):
        c, tag = _bytes("c", c), _bytes("tag", tag, 16)
        n, k = _bytes("n", n, 24), _bytes("k", k, 32)
        out = ctypes.create_string_buffer(max(len(c), 1))
        if self.c.mb_secretbox_open_detached(out, c, len(c), tag, n, k) != 0:
            raise BadBox("secretbox authentication failed")
        return out.raw[:len(c)]

    # ---- box -------------------------------------------------------------------
    def box_beforenm(self, pk, sk):
        pk, sk = _bytes("pk", pk, 32), _bytes("sk", sk, 32)
        out = ctypes.create_string_buffer(32)
        if self.c.mb_box_beforenm(out, pk, sk) != 0:
            raise BadKey("pk is a low-order point")
        return out.raw

    def box(self, m, n, pk, sk):
        m, n = _bytes("m", m), _bytes("n", n, 24)
        pk, sk = _bytes("pk", pk, 32), _bytes("sk", sk, 32)
        out = ctypes.create_string_buffer(len(m) + 16)
        if self.c.mb_box(out, m, len(m), n, pk, sk) != 0:
            raise BadKey("pk is a low-order point")
        return out.raw

    def box_open(self, c, n, pk, sk):
        c, n = _bytes("c", c), _bytes("n", n, 24)
        pk, sk = _bytes("pk", pk, 32), _bytes("sk", sk, 32)
        if len(c) < 16:
            raise BadBox(f"ciphertext is {len(c)} bytes, shorter than the 16-byte tag")
        out = ctypes.create_string_buffer(max(len(c) - 16, 1))
        if self.c.mb_box_open(out, c, len(c), n, pk, sk) != 0:
            raise BadBox("box authentication failed (or pk is a low-order point)")
        return out.raw[:len(c) - 16]

    def box_detached(self, m, n, pk, sk):
        m, n = _bytes("m", m), _bytes("n", n, 24)
        pk, sk = _bytes("pk", pk, 32), _bytes("sk", sk, 32)
        c = ctypes.create_string_buffer(max(len(m), 1))
        tag = ctypes.create_string_buffer(16)
        if self.c.mb_box_detached(c, tag, m, len(m), n, pk, sk) != 0:
            raise BadKey("pk is a low-order point")
        return c.raw[:len(m)], tag.raw

    def box_open_detached(self, c, tag, n, pk, sk):
        c, tag, n = _bytes("c", c), _bytes("tag", tag, 16), _bytes("n", n, 24)
        pk, sk = _bytes("pk", pk, 32), _bytes("sk", sk, 32)
        out = ctypes.create_string_buffer(max(len(c), 1))
        if self.c.mb_box_open_detached(out, c, len(c), tag, n, pk, sk) != 0:
            raise BadBox("box authentication failed (or pk is a low-order point)")
        return out.raw[:len(c)]

    # ---- streaming -------------------------------------------------------------
    def stream(self, k, n):
        """A BoxStream sealing under key k and nonce n."""
        return BoxStream(self, k, n)

    def secretbox_open_twopass(self, read, write, clen, tag, n, k):
        """Two-pass open: read(off, length) -> bytes; write(off, data). BadBox if forged."""
        tag, n, k = _bytes("tag", tag, 16), _bytes("n", n, 24), _bytes("k", k, 32)
        errors = []

        def _read(_ctx, off, buf, length):
            try:
                data = read(off, length)
                if len(data) != length:
                    return -1
                ctypes.memmove(buf, data, length)
                return 0
            except Exception as e:  # noqa: BLE001 - reported after the C call returns
                errors.append(e)
                return -1

        def _write(_ctx, off, buf, length):
            try:
                write(off, ctypes.string_at(buf, length))
                return 0
            except Exception as e:  # noqa: BLE001
                errors.append(e)
                return -1

        rc = self.c.mb_secretbox_open_twopass(tag, clen, n, k, READ_FN(_read), WRITE_FN(_write), None)
        if errors:
            raise errors[0]
        if rc != 0:
            raise BadBox("two-pass open: authentication failed")


class BoxStream:
    """Streaming seal: update() any chunks, final() the 16-byte tag."""

    def __init__(self, lib, k, n):
        k, n = _bytes("k", k, 32), _bytes("n", n, 24)
        self._lib = lib
        self._state = ctypes.create_string_buffer(lib.c.mb_box_stream_size())
        lib.c.mb_box_stream_init(self._state, k, n)
        self._done = False

    def update(self, m):
        if self._done:
            raise MoteboxError("stream already finalised")
        m = _bytes("m", m)
        out = ctypes.create_string_buffer(max(len(m), 1))
        self._lib.c.mb_box_stream_update(self._state, out, m, len(m))
        return out.raw[:len(m)]

    def final(self):
        if self._done:
            raise MoteboxError("stream already finalised")
        tag = ctypes.create_string_buffer(16)
        self._lib.c.mb_box_stream_final(self._state, tag)
        self._done = True
        return tag.raw
