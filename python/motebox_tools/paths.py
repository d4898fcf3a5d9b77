# SPDX-License-Identifier: MIT
"""Where the source checkout and its build directory are: the tools compile and run
firmware from the tree, so they need one (unlike the `motebox` binding)."""
import os
from pathlib import Path

_HERE = Path(__file__).resolve().parent


class NoCheckout(RuntimeError):
    """The tools run outside a motebox source checkout and MOTEBOX_REPO is not set."""


def _is_checkout(path):
    return (path / "include" / "motebox.h").is_file() and (path / "mk").is_dir()


def repo():
    """The checkout: $MOTEBOX_REPO, the tree this package lies in (python/motebox_tools),
    or the current directory."""
    env = os.environ.get("MOTEBOX_REPO")
    if env:
        return Path(env).resolve()
    for cand in (_HERE.parent.parent, Path.cwd()):
        if _is_checkout(cand):
            return cand
    raise NoCheckout("motebox_tools needs a motebox source checkout: run it from one, "
                     "or set MOTEBOX_REPO to its path")


def build_root():
    """The build directory: $MOTEBOX_BUILD, else <checkout>/build."""
    env = os.environ.get("MOTEBOX_BUILD")
    return Path(env) if env else repo() / "build"


def python_path():
    """The directory holding the motebox and motebox_tools packages (for child processes
    run with `python -m`)."""
    return _HERE.parent
