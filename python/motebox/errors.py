# SPDX-License-Identifier: MIT
"""The exceptions motebox raises, and the argument check every binding function uses."""


class MoteboxError(Exception):
    """Base class of every error motebox raises besides ValueError/TypeError."""
    exit_status = 1     # what the `motebox` command exits with for this error


class BadBox(MoteboxError):
    """A box, tag or stream failed authentication: nothing was decrypted."""
    exit_status = 1


# The command line's failures: each class carries the `motebox` exit status it maps to
# (listed in `motebox --help`), so scripts can tell a forged file from a bad argument.
class KeyFileError(MoteboxError):
    """A key file is missing, unreadable, malformed, or of the wrong kind."""
    exit_status = 3


class InputError(MoteboxError):
    """An input file is missing, unreadable or a directory."""
    exit_status = 4


class EmptyInput(InputError):
    """`open` was given an empty input."""
    exit_status = 5


class TruncatedInput(BadBox):
    """A sealed file shorter than its header: nothing was decrypted."""
    exit_status = 6


class NotSealed(BadBox):
    """The input is not a motebox sealed file (wrong magic): nothing was decrypted."""
    exit_status = 7


class OutputRefused(MoteboxError):
    """An output path that motebox will not write: it exists (without --force), it is
    a directory, device, pipe or dangling symbolic link, or its directory is missing."""
    exit_status = 8


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
