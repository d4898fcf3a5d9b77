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
from .node import NodeMethods
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
    "mb_secretbox": (_int, [_u8p, _u8p, _sz, _u8p, _u8p]),
    "mb_secretbox_open": (_int, [_u8p, _u8p, _sz, _u8p, _u8p]),
    "mb_secretbox_detached": (_int, [_u8p, _u8p, _u8p, _sz, _u8p, _u8p]),
    "mb_secretbox_open_detached": (_int, [_u8p, _u8p, _sz, _u8p, _u8p, _u8p]),
    "mb_box_beforenm": (_int, [_u8p, _u8p, _u8p]),
    "mb_box": (_int, [_u8p, _u8p, _sz, _u8p, _u8p, _u8p]),
    "mb_box_open": (_int, [_u8p, _u8p, _sz, _u8p, _u8p, _u8p]),
    "mb_box_detached": (_int, [_u8p, _u8p, _u8p, _sz, _u8p, _u8p, _u8p]),
    "mb_box_open_detached": (_int, [_u8p, _u8p, _sz, _u8p, _u8p, _u8p, _u8p]),
    "mb_box_stream_size": (_sz, []),
    "mb_box_stream_init": (_void, [ctypes.c_void_p, _u8p, _u8p]),
    "mb_box_stream_update": (_int, [ctypes.c_void_p, _u8p, _u8p, _sz]),
    "mb_box_stream_final": (_int, [ctypes.c_void_p, _u8p]),
    "mb_box_unstream_init": (_void, [ctypes.c_void_p, _u8p, _u8p]),
    "mb_box_unstream_auth": (_int, [ctypes.c_void_p, _u8p, _sz]),
    "mb_box_unstream_verify": (_int, [ctypes.c_void_p, _u8p]),
    "mb_box_unstream_update": (_int, [ctypes.c_void_p, _u8p, _u8p, _sz]),
    "mb_box_unstream_final": (_int, [ctypes.c_void_p, _u8p]),
    "mb_secretbox_open_twopass": (_int, [_u8p, _sz, _u8p, _u8p, READ_FN, WRITE_FN, ctypes.c_void_p]),
    "mb_p256_base": (_int, [_u8p, _u8p]),
    "mb_p256_ecdh": (_int, [_u8p, _u8p, _u8p, _sz]),
    "mb_p256_ecdh_randomized": (_int, [_u8p, _u8p, _u8p, _sz, _u8p]),
    "mb_p256_compress": (_int, [_u8p, _u8p]),
    "mb_p256_decompress": (_int, [_u8p, _u8p]),
}


class Library(P256, NodeMethods):
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
        return out.raw if length else b""

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
        if self.c.mb_secretbox(out, m, len(m), n, k) != 0:
            raise MoteboxError(f"message of {len(m)} bytes is longer than the secretbox maximum")
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
        if self.c.mb_secretbox_detached(c, tag, m, len(m), n, k) != 0:
            raise MoteboxError(f"message of {len(m)} bytes is longer than the secretbox maximum")
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

    def unstream(self, k, n):
        """A BoxUnstream opening tag || ciphertext under key k and nonce n in two passes:
        auth(c)... verify(tag), then update(c)... -> plaintext, final(tag)."""
        return BoxUnstream(self, k, n)

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


def _as_buffer(name, data):
    """A read-only pointer to bytes / bytearray / memoryview without copying a large
    bytearray (ctypes' from_buffer); bytes go through as they are."""
    if isinstance(data, bytes):
        return data, len(data)
    if isinstance(data, (bytearray, memoryview)):
        mv = memoryview(data).cast("B")
        if mv.readonly:
            b = mv.tobytes()
            return b, len(b)
        arr = (ctypes.c_char * len(mv)).from_buffer(mv) if len(mv) else b""
        return arr, len(mv)
    raise TypeError(f"{name} must be bytes, not {type(data).__name__}")


class StreamMisuse(MoteboxError):
    """A stream or unstream call out of order (after final, before verify, ...). The
    C state has been wiped: the object cannot be used any more."""


class BoxStream:
    """Streaming seal: update() any chunks, final() the 16-byte tag. Any misuse raises
    StreamMisuse (a MoteboxError), and the stream is then finished."""

    def __init__(self, lib, k, n):
        k, n = _bytes("k", k, 32), _bytes("n", n, 24)
        self._lib = lib
        self._state = ctypes.create_string_buffer(lib.c.mb_box_stream_size())
        lib.c.mb_box_stream_init(self._state, k, n)
        self._done = False

    def _check(self, what):
        if self._done:
            raise StreamMisuse(f"stream already finalised: {what}() after final()")

    def update(self, m):
        self._check("update")
        m, length = _as_buffer("m", m)
        out = ctypes.create_string_buffer(max(length, 1))
        if self._lib.c.mb_box_stream_update(self._state, out, m, length) != 0:
            self._done = True
            raise StreamMisuse("mb_box_stream_update refused the state")
        return out.raw if length else b""

    def final(self):
        self._check("final")
        tag = ctypes.create_string_buffer(16)
        self._done = True
        if self._lib.c.mb_box_stream_final(self._state, tag) != 0:
            raise StreamMisuse("mb_box_stream_final refused the state")
        return tag.raw


class BoxUnstream:
    """Two-pass open of a long box: auth(c) over every ciphertext chunk, verify(tag),
    then update(c) over the same bytes again -> plaintext chunks, final(tag). verify
    raises BadBox on a forged box; final raises BadBox if pass 2 saw other bytes (then
    the plaintext handed out MUST be discarded). Calls out of order raise StreamMisuse;
    any failure finishes the object."""

    _NEXT = {"auth": ("auth", "verify"), "verify": ("update", "final"),
             "update": ("update", "final"), "final": ()}

    def __init__(self, lib, k, n):
        k, n = _bytes("k", k, 32), _bytes("n", n, 24)
        self._lib = lib
        self._state = ctypes.create_string_buffer(lib.c.mb_box_stream_size())
        lib.c.mb_box_unstream_init(self._state, k, n)
        self._allowed = ("auth", "verify")

    def _enter(self, what):
        if what not in self._allowed:
            allowed = self._allowed
            self._fail()
            order = "the box is finished" if not allowed else \
                "expected " + " or ".join(f"{a}()" for a in allowed)
            raise StreamMisuse(f"unstream.{what}() out of order: {order}")
        self._allowed = self._NEXT[what]

    def _fail(self):
        self._allowed = ()
        self._lib.c.mb_wipe(self._state, len(self._state))

    def auth(self, c):
        """Pass 1: authenticate the next chunk of ciphertext."""
        self._enter("auth")
        c, length = _as_buffer("c", c)
        if self._lib.c.mb_box_unstream_auth(self._state, c, length) != 0:
            self._fail()
            raise StreamMisuse("mb_box_unstream_auth refused the state")

    def verify(self, tag):
        """End of pass 1; BadBox if tag does not authenticate the ciphertext."""
        self._enter("verify")
        tag = _bytes("tag", tag, 16)
        if self._lib.c.mb_box_unstream_verify(self._state, tag) != 0:
            self._fail()
            raise BadBox("authentication failed: nothing was decrypted")

    def update(self, c):
        """Pass 2: the plaintext of the next chunk (the same bytes as pass 1)."""
        self._enter("update")
        c, length = _as_buffer("c", c)
        out = ctypes.create_string_buffer(max(length, 1))
        if self._lib.c.mb_box_unstream_update(self._state, out, c, length) != 0:
            self._fail()
            raise StreamMisuse("mb_box_unstream_update refused the state")
        return out.raw if length else b""

    def final(self, tag):
        """End of pass 2; BadBox if the ciphertext changed between the passes."""
        self._enter("final")
        tag = _bytes("tag", tag, 16)
        if self._lib.c.mb_box_unstream_final(self._state, tag) != 0:
            self._fail()
            raise BadBox("the ciphertext changed between the two passes: discard the plaintext")
