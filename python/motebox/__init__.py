# SPDX-License-Identifier: MIT
"""motebox: NaCl crypto_box, X25519 and P-256 for tiny devices, from Python.

    import motebox
    pk = motebox.x25519_base(sk)
    c = motebox.box(m, nonce, their_pk, my_sk)

Every function of `Library` is available at module level on the default build
(build/host/libmotebox.so, or $MOTEBOX_LIB).
"""
from ._native import BadBox, BadKey, BoxStream, Library, MoteboxError, default_lib_path
from . import p256  # noqa: E402,F401  (attaches the P-256 methods to Library)

__all__ = ["BadBox", "BadKey", "BoxStream", "Library", "MoteboxError", "default_lib_path", "lib"]

_default = None


def lib():
    """The default Library, loaded on first use."""
    global _default
    if _default is None:
        _default = Library()
    return _default


def __getattr__(name):
    # Module-level x25519(), box(), ... forward to the default library.
    if name.startswith("_") or not hasattr(Library, name):
        raise AttributeError(f"module 'motebox' has no attribute {name!r}")
    return getattr(lib(), name)
