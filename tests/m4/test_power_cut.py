# SPDX-License-Identifier: MIT
"""The protocol node (demo/proto_node.c) in the Cortex-M4 model, and power cuts
(motebox_tools.sim.m4.powercut, a flash page at 0x003FF000 standing for the NVM) sampled
over the NVM write function and the whole run: never a counter used twice. Exhaustive
over every write instruction: -m slow, and `make bench` (bench/results/powercut.json)."""
import pytest

import powercut_common as pc
from motebox_tools.boards import m4
from motebox_tools import powercut

pytestmark = pytest.mark.skipif(not m4.have_model(), reason="the cycle model needs unicorn")


def test_node_firmware():
    r = pc.check_firmware_node("m4")
    assert r["cycles"]["seal_64"] < 20000


def test_power_cut_sampled():
    pc.check_sampled("m4", samples=6, run_samples=2)


def test_rollback_is_caught():
    pc.check_rollback_is_caught("m4")


def test_cut_is_exact():
    pc.check_cut_is_exact("m4", 44, 24)


@pytest.mark.slow
def test_power_cut_exhaustive():
    row = powercut.campaign("m4", exhaustive=True, run_samples=10)
    assert row["reuses"] == 0 and row["reservation_points"] > 400
