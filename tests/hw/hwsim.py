# SPDX-License-Identifier: MIT
"""Helpers for the crypto_box ASIP tests: assembled program image, one Verilator
testbench process per digit size W (shared by a whole test session), reference model."""
import atexit
import json
import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("MOTEBOX_BUILD", REPO / "build")) / "hw"
sys.path.insert(0, str(REPO / "hw" / "model"))
sys.path.insert(0, str(REPO / "hw" / "asm"))

from asip import ASIP  # noqa: E402
from rtl import RTL    # noqa: E402

ALL_W = (2, 4, 8, 12, 16)


def need(path):
    if not path.exists():
        pytest.fail(f"{path} missing: run `make hw-sim`")
    return path


def image():
    with open(need(BUILD / "rom.json")) as f:
        return json.load(f)


_sims = {}


def rtl_for(W):
    if W not in _sims:
        _sims[W] = RTL(str(need(BUILD / f"W{W}" / "vasip")))
    return _sims[W]


def model_for(W):
    return ASIP(image(), W)


@atexit.register
def _close():
    for sim in _sims.values():
        try:
            sim.close()
        except OSError:
            pass
