# SPDX-License-Identifier: MIT
"""Key files that say what they hold.

A key file is one line of text naming the curve and the kind, then the key in
lowercase hex:

    motebox-x25519-secret:<64 hex digits>\\n      (mode 0600)
    motebox-x25519-public:<64 hex digits>\\n
    motebox-p256-secret:<64 hex digits>\\n
    motebox-p256-public:<66 or 130 hex digits>\\n  (SEC1 compressed or uncompressed)

so a public key handed over where a secret key belongs (or the other way round, or a
P-256 key where an X25519 key belongs) is refused with a message naming the file and
what it holds. Files written before this format are still read: 64 hex digits, or
exactly 32 raw bytes; their kind is taken from the name (`.sk` secret, `.pk` public, as
`motebox keygen` named them), unknown otherwise. 32 hex characters are refused rather
than taken as 32 raw bytes (they are a 16-byte key written as text).
"""
import os
import re
import stat
import string

from . import atomic
from .errors import KeyFileError

PREFIX = "motebox-"
CURVES = {"x25519": "X25519", "p256": "P-256"}
KINDS = ("secret", "public")
MAX_KEY_FILE = 512      # longest key file read; anything bigger is not a key file
_LINE = re.compile(r"motebox-([a-z0-9]+)-([a-z]+):([0-9a-fA-F]*)")
_HEX = set(string.hexdigits.encode())


def format_key(key, kind, curve="x25519"):
    """The text of a key file holding `key` (bytes) of `kind` ("secret"/"public")."""
    assert kind in KINDS and curve in CURVES
    return f"{PREFIX}{curve}-{kind}:{bytes(key).hex()}\n"


def describe(kind, curve):
    name = CURVES.get(curve, curve or "")
    return " ".join(w for w in (name, kind or "", "key") if w)


def parse_key(data, name=""):
    """(curve, kind, key) from a key file's bytes. curve/kind are None for an old
    untagged file whose name does not tell (see the module doc). KeyFileError if the
    bytes are no key file."""
    if len(data) == 32 and not set(data) <= _HEX:
        return None, _kind_from_name(name), bytes(data)       # old raw 32-byte file
    try:
        text = data.decode("ascii").strip()
    except UnicodeDecodeError:
        raise KeyFileError(f"{name}: not a key file ({len(data)} bytes, not text)") from None
    m = _LINE.fullmatch(text)
    if m:
        curve, kind, digits = m.groups()
        if curve not in CURVES or kind not in KINDS:
            raise KeyFileError(f"{name}: unknown key type motebox-{curve}-{kind}")
        if len(digits) % 2:
            raise KeyFileError(f"{name}: odd number of hex digits")
        key = bytes.fromhex(digits)
        sizes = (33, 65) if (curve, kind) == ("p256", "public") else (32,)
        if len(key) not in sizes:
            raise KeyFileError(f"{name}: {describe(kind, curve)} is {len(key)} bytes, "
                               f"expected {' or '.join(map(str, sizes))}")
        return curve, kind, key
    if re.fullmatch(r"[0-9a-fA-F]{64}", text):
        return None, _kind_from_name(name), bytes.fromhex(text)   # old 64-hex-digit file
    if re.fullmatch(r"[0-9a-fA-F]+", text):
        raise KeyFileError(f"{name}: {len(text)} hex digits; a key is 64 hex digits "
                           f"(32 bytes)")
    raise KeyFileError(f"{name}: not a key file (expected a line "
                       f"'motebox-x25519-public:<64 hex digits>' or 64 hex digits)")


def _kind_from_name(name):
    return {".sk": "secret", ".pk": "public"}.get(os.path.splitext(str(name))[1])


def read_key(path, kind, what, curve="x25519"):
    """The key in file `path`, which must hold a `curve` key of `kind`; `what` says
    what it is for ("recipient public key"). KeyFileError naming the file otherwise."""
    path = str(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError as e:
        raise KeyFileError(f"{what} {path}: {e.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise KeyFileError(f"{what} {path}: not a regular file")
        data = os.read(fd, MAX_KEY_FILE + 1)
    finally:
        os.close(fd)
    if len(data) > MAX_KEY_FILE:
        raise KeyFileError(f"{what} {path}: not a key file (too long)")
    got_curve, got_kind, key = parse_key(data, f"{what} {path}")
    if (got_curve or curve) != curve or (got_kind or kind) != kind:
        raise KeyFileError(f"{what} {path}: this file holds a "
                           f"{describe(got_kind, got_curve or curve)}, not a "
                           f"{describe(kind, curve)}")
    return key


def write_key(path, key, kind, force=False, curve="x25519"):
    """Write a key file. Secret keys get mode 0600 whatever the umask or an old file's
    mode; the file is new (O_EXCL / O_TMPFILE) and renamed into place, so a symbolic
    link at `path` is replaced, never followed. OutputRefused if path exists and not
    force."""
    text = format_key(key, kind, curve).encode()
    mode = 0o600 if kind == "secret" else 0o644 & ~atomic.umask()
    with atomic.create(path, force=force, mode=mode, follow_symlink=False) as out:
        out.file.write(text)
        out.commit()
