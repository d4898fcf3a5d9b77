# SPDX-License-Identifier: MIT
"""Shared fixtures: every field backend's build of the library, and the vectors."""
import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BUILD = Path(os.environ.get("MOTEBOX_BUILD", REPO / "build"))
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "python"))

import motebox  # noqa: E402

# 25: the radix-32 build with GF(2^255-19) in radix 2^25.5 (src/field/fe25519_r25.c).
RADIXES = (16, 25, 32, 64)


def backend_path(radix):
    return BUILD / "host" / f"r{radix}" / "libmotebox.so"


@pytest.fixture(scope="session", params=RADIXES, ids=lambda r: f"r{r}")
def lib(request):
    """The library built with each field backend in turn."""
    path = backend_path(request.param)
    if not path.exists():
        pytest.fail(f"{path} missing: run `make` first")
    library = motebox.Library(path)
    library.radix = request.param
    return library


@pytest.fixture(scope="session")
def default_lib():
    return motebox.Library(BUILD / "host" / "libmotebox.so")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """With MOTEBOX_NO_SKIP=1 (set by .ci/run) a skipped test fails: every skip here
    means a tool or build that `make` should have provided is missing, and a green run
    must not hide that."""
    outcome = yield
    rep = outcome.get_result()
    if os.environ.get("MOTEBOX_NO_SKIP") == "1" and rep.skipped and not hasattr(rep, "wasxfail"):
        rep.outcome = "failed"
        rep.longrepr = f"skipped under MOTEBOX_NO_SKIP=1 (missing tool or build?): {rep.longrepr}"
