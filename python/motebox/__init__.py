# SPDX-License-Identifier: MIT
"""motebox: NaCl crypto_box, X25519 and P-256 for tiny devices, from Python.

    import motebox
    pk = motebox.x25519_base(sk)
    c = motebox.box(m, nonce, their_pk, my_sk)

Every method of `Library` is available at module level on the default build, loaded on
first use from $MOTEBOX_LIB, a libmotebox.so next to this package, or the source
checkout's build/host/libmotebox.so (`default_lib_path`). Standard library only: the
simulators, demo and bench tools are the separate `motebox_tools` package
(`pip install motebox[tools]`).
"""
from ._native import (BoxStream, BoxUnstream, Library, StreamMisuse, default_lib_path,
                      lib_candidates)
from .errors import BadBox, BadKey, LibraryNotFound, MoteboxError
from .node import Node, NodeRefused

__version__ = "0.1.0"
__all__ = ["BadBox", "BadKey", "BoxStream", "BoxUnstream", "Library", "LibraryNotFound",
           "MoteboxError", "Node", "NodeRefused", "StreamMisuse", "default_lib_path", "lib",
           "lib_candidates", "__version__"]

_default = None


def lib():
    """The default Library, loaded on first use (LibraryNotFound if there is none)."""
    global _default
    if _default is None:
        _default = Library()
    return _default


def __getattr__(name):
    # Module-level x25519(), box(), ... forward to the default library.
    if name.startswith("_") or not hasattr(Library, name):
        raise AttributeError(f"module 'motebox' has no attribute {name!r}")
    return getattr(lib(), name)
