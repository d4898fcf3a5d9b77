# SPDX-License-Identifier: MIT
"""The sealed-file format of `motebox seal` / `motebox open`, and key files.

A sealed file is

    offset  size  field
    0       4     magic b"MBX1"
    4       32    sender's X25519 public key (ephemeral unless --from was given)
    36      24    nonce (random)
    60      16    Poly1305 tag
    76      n     XSalsa20 ciphertext of the n-byte plaintext

so bytes [60:] are exactly libsodium's crypto_box_easy output: any libsodium user opens
a file with crypto_box_open_easy(file[60:], nonce, sender_pk, recipient_sk). Sealing
streams (constant memory, any size); opening authenticates the whole file before it
writes a single plaintext byte (two passes), into a temporary file renamed on success.
"""
import os
import tempfile
from pathlib import Path

from .errors import BadBox, MoteboxError

MAGIC = b"MBX1"
HEADER = 4 + 32 + 24 + 16
CHUNK = 1 << 16


def write_key(path, key, secret):
    """Write a 32-byte key as 64 hex digits; secret keys are created mode 0600."""
    path = Path(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    fd = os.open(path, flags, 0o600 if secret else 0o644)
    with os.fdopen(fd, "w") as f:
        f.write(key.hex() + "\n")


def read_key(path, what):
    """Read a key file (64 hex digits, or 32 raw bytes); `what` names it in errors."""
    data = Path(path).read_bytes()
    if len(data) == 32:
        return data
    text = data.strip()
    try:
        key = bytes.fromhex(text.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        raise MoteboxError(f"{what} {path}: not a key file (expected 64 hex digits)") from None
    if len(key) != 32:
        raise MoteboxError(f"{what} {path}: key is {len(key)} bytes, expected 32")
    return key


def seal_file(lib, src, dst, recipient_pk, sender_sk=None, progress=None):
    """Seal file src into dst for recipient_pk. Returns the sender public key."""
    if sender_sk is None:
        sender_sk = os.urandom(32)   # anonymous sender: a fresh ephemeral key
    sender_pk = lib.x25519_base(sender_sk)
    nonce = os.urandom(24)
    k = lib.box_beforenm(recipient_pk, sender_sk)
    stream = lib.stream(k, nonce)
    src, dst = Path(src), Path(dst)
    tmp = _tempfile_beside(dst)
    try:
        with open(src, "rb") as fin, os.fdopen(tmp[0], "wb") as fout:
            fout.write(MAGIC + sender_pk + nonce + bytes(16))
            while True:
                chunk = fin.read(CHUNK)
                if not chunk:
                    break
                fout.write(stream.update(chunk))
                if progress:
                    progress(len(chunk))
            fout.seek(60)
            fout.write(stream.final())
        os.replace(tmp[1], dst)
    except BaseException:
        _unlink(tmp[1])
        raise
    return sender_pk


def open_file(lib, src, dst, recipient_sk, expect_sender_pk=None, progress=None):
    """Open sealed file src into dst. Raises BadBox (dst untouched) if anything is wrong.
    Returns the sender's public key."""
    src, dst = Path(src), Path(dst)
    size = src.stat().st_size
    with open(src, "rb") as fin:
        header = fin.read(HEADER)
        if len(header) < HEADER or header[:4] != MAGIC:
            raise BadBox(f"{src}: not a motebox sealed file (bad magic or truncated header)")
        sender_pk, nonce, tag = header[4:36], header[36:60], header[60:76]
        if expect_sender_pk is not None and sender_pk != expect_sender_pk:
            raise BadBox(f"{src}: sealed by a different sender key")
        k = lib.box_beforenm(sender_pk, recipient_sk)
        fd, tmpname = _tempfile_beside(dst)
        try:
            with os.fdopen(fd, "wb") as fout:
                def read(off, length):
                    fin.seek(HEADER + off)
                    data = fin.read(length)
                    if progress:
                        progress(len(data))
                    return data

                def write(off, data):
                    fout.seek(off)
                    fout.write(data)

                lib.secretbox_open_twopass(read, write, size - HEADER, tag, nonce, k)
            os.replace(tmpname, dst)
        except BaseException:
            _unlink(tmpname)
            raise
    return sender_pk


def _tempfile_beside(dst):
    return tempfile.mkstemp(prefix=".motebox-", dir=str(Path(dst).resolve().parent))


def _unlink(name):
    try:
        os.unlink(name)
    except FileNotFoundError:
        pass
