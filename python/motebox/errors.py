# SPDX-License-Identifier: MIT
"""The exceptions motebox raises, and the argument check every binding function uses."""


class MoteboxError(Exception):
    """Base class of every error motebox raises besides ValueError/TypeError."""


class BadBox(MoteboxError):
    """A box, tag or stream failed authentication: nothing was decrypted."""


class BadKey(MoteboxError, ValueError):
    """A key or point was rejected (low-order X25519 key, invalid P-256 point, scalar out of range)."""


class LibraryNotFound(MoteboxError):
    """No libmotebox shared library where motebox looked (the message says where it
    looked, and what to do)."""


def check_bytes(name, value, size=None):
    """One argument: bytes-like, and exactly `size` long when given. Returns it as bytes;
    TypeError / ValueError naming the argument otherwise."""
    if isinstance(value, (bytearray, memoryview)):
        value = bytes(value)
    if not isinstance(value, bytes):
        raise TypeError(f"{name} must be bytes, not {type(value).__name__}")
    if size is not None and len(value) != size:
        raise ValueError(f"{name} must be {size} bytes long, got {len(value)}")
    return value
