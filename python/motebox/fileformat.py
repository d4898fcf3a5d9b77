# SPDX-License-Identifier: MIT
"""The sealed-file format of `motebox seal` / `motebox open`.

A sealed file is

    offset  size  field
    0       4     magic b"MBX1"
    4       32    sender's X25519 public key (ephemeral unless --from was given)
    36      24    nonce (random)
    60      16    Poly1305 tag
    76      n     XSalsa20 ciphertext of the n-byte plaintext

so bytes [60:] are exactly libsodium's crypto_box_easy output: any libsodium user opens
a file with crypto_box_open_easy(file[60:], nonce, sender_pk, recipient_sk).

Both directions work on file objects in CHUNK-sized pieces (memory bounded whatever
the size). Sealing is one pass; the tag, which precedes the ciphertext, is written last
(so the output must be seekable). Opening authenticates every byte (pass 1) before it
decrypts any (pass 2); the second pass authenticates again and fails if the bytes
changed in between, so the caller must discard the output then (atomic.Output does).
Key files are in keyfile.py, output files in atomic.py.
"""
import os

from .errors import BadBox, BadKey, EmptyInput, NotSealed, TruncatedInput

MAGIC = b"MBX1"
HEADER = 4 + 32 + 24 + 16
CHUNK = 1 << 20          # bytes per read: bounds memory, amortises the C calls


def seal(lib, fin, fout, recipient_pk, sender_sk=None, progress=None):
    """Seal everything read from fin into fout (seekable, written from its current
    position). Returns (sender public key, plaintext bytes sealed)."""
    if sender_sk is None:
        sender_sk = os.urandom(32)   # anonymous sender: a fresh ephemeral key
    sender_pk = lib.x25519_base(sender_sk)
    nonce = os.urandom(24)
    stream = lib.stream(lib.box_beforenm(recipient_pk, sender_sk), nonce)
    start = fout.tell()
    fout.write(MAGIC + sender_pk + nonce + bytes(16))
    total = 0
    while True:
        chunk = fin.read(CHUNK)
        if not chunk:
            break
        fout.write(stream.update(chunk))
        total += len(chunk)
        if progress:
            progress(len(chunk))
    end = fout.tell()
    fout.seek(start + 60)
    fout.write(stream.final())
    fout.seek(end)
    return sender_pk, total


def read_header(fin, name):
    """(sender_pk, nonce, tag) from the first HEADER bytes of fin, or the error saying
    why this is no sealed file (EmptyInput, NotSealed, TruncatedInput)."""
    header = _read_exact(fin, HEADER)
    if not header:
        raise EmptyInput(f"{name}: empty file (not a sealed file)")
    if header[:4] != MAGIC[:len(header)]:
        raise NotSealed(f"{name}: not a motebox sealed file (no MBX1 magic)")
    if len(header) < HEADER:
        raise TruncatedInput(f"{name}: truncated: {len(header)} bytes, shorter than the "
                             f"{HEADER}-byte header of a sealed file")
    return header[4:36], header[36:60], header[60:76]


def open_sealed(lib, fin, fout, recipient_sk, expect_sender_pk=None, progress=None,
                spool=None, name="input"):
    """Verify and decrypt the sealed file read from fin into fout; returns the sender's
    public key. BadBox (or a subclass naming the problem) if anything is wrong; then no
    byte has been written to fout, except when the input changed between the passes
    (pass 2 fails at its end: discard fout). fin must be seekable unless `spool` (a
    private seekable file) is given: pass 1 then copies the ciphertext there and pass 2
    reads it back, so nothing but this process can change it between passes."""
    sender_pk, nonce, tag = read_header(fin, name)
    if expect_sender_pk is not None and sender_pk != expect_sender_pk:
        raise BadBox(f"{name}: sealed by a different sender key")
    try:
        k = lib.box_beforenm(sender_pk, recipient_sk)
    except BadKey:
        raise BadBox(f"{name}: the sender key in the file is a low-order point") from None
    src = fin if spool is None else spool
    start = src.tell()
    opener = lib.unstream(k, nonce)
    while True:                                   # pass 1: authenticate only
        chunk = fin.read(CHUNK)
        if not chunk:
            break
        opener.auth(chunk)
        if spool is not None:
            spool.write(chunk)
        if progress:
            progress(len(chunk))
    try:
        opener.verify(tag)
    except BadBox:
        raise BadBox(f"{name}: authentication failed (tampered or truncated, or not "
                     f"sealed to this key)") from None
    src.seek(start)
    while True:                                   # pass 2: decrypt what pass 1 checked
        chunk = src.read(CHUNK)
        if not chunk:
            break
        fout.write(opener.update(chunk))
        if progress:
            progress(len(chunk))
    try:
        opener.final(tag)
    except BadBox:
        raise BadBox(f"{name}: changed while it was being opened; output discarded") from None
    return sender_pk


def _read_exact(f, n):
    """Up to n bytes, fewer only at end of file (pipes return short reads)."""
    parts, got = [], 0
    while got < n:
        b = f.read(n - got)
        if not b:
            break
        parts.append(b)
        got += len(b)
    return b"".join(parts)
