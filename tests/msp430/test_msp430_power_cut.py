# SPDX-License-Identifier: MIT
"""The protocol node (demo/proto_node.c) on the simulated MSP430FR5969, and power cuts
(msp430sim --power-cut, --nvm-load/--nvm-dump on the FRAM information memory) sampled
over the NVM write function and the whole run: never a counter used twice. Exhaustive
over every write instruction: -m slow, and `make bench` (bench/results/powercut.json)."""
import pytest

import powercut_common as pc
from motebox_tools.boards import msp430 as t430
from motebox_tools import powercut


@pytest.fixture(autouse=True)
def _sim():
    if not t430.have_sim():
        pytest.fail(f"{t430.sim_path()} missing: run `make`")


def test_node_firmware():
    r = pc.check_firmware_node("msp430")
    assert r["cycles"]["seal_64"] < 60000


def test_power_cut_sampled():
    pc.check_sampled("msp430", samples=16, run_samples=8)


def test_rollback_is_caught():
    pc.check_rollback_is_caught("msp430")


def test_broken_reservation_is_caught(tmp_path):
    """The check can fail: a library that rewrites the slot holding the current bound
    (instead of the other one) reuses counters after some cuts."""
    import shutil
    import subprocess
    from conftest import REPO
    src = (REPO / "src" / "proto" / "node_msg.c").read_text()
    good = "target = (st->check & FLAG_SLOT) ? 0u : 1u;"
    assert good in src
    (tmp_path / "node_msg.c").write_text(src.replace(good, good.replace("0u : 1u", "1u : 0u")))
    variant = powercut.protonode.default_variant("msp430")
    lib = tmp_path / "libmotebox.a"
    shutil.copy(t430.library(variant)[0], lib)
    subprocess.run(["clang", *t430.CFLAGS, f"-I{REPO / 'include'}", f"-I{REPO / 'src'}", "-c",
                    str(tmp_path / "node_msg.c"), "-o", str(tmp_path / "node_msg.o")], check=True)
    subprocess.run(["llvm-ar", "d", str(lib), "node_msg.o"], check=True)
    subprocess.run(["llvm-ar", "r", str(lib), str(tmp_path / "node_msg.o")], check=True)
    row = powercut.campaign("msp430", variant, samples=16, run_samples=2, libmotebox=lib)
    assert row["reuses"] > 0


def test_cut_is_exact():
    pc.check_cut_is_exact("msp430", 0, 120)


def test_sim_options_checked(tmp_path):
    """Malformed --power-cut / --nvm-* arguments and a load outside FRAM: status 208."""
    from motebox_tools.sim.msp430 import run
    c = powercut.Campaign("msp430", workdir=tmp_path)
    elf = c.elf
    img = tmp_path / "img"
    img.write_bytes(b"\0" * 4)
    for extra in (["--power-cut", "x"], ["--nvm-load", "0x1800"], ["--nvm-dump", "0x1800:0:f"],
                  ["--nvm-load", f"0x1c00:{img}"], ["--power-cut", "1", "--fault-skip", "2"]):
        assert run(elf, extra=extra).status == 208, extra


@pytest.mark.slow
def test_power_cut_exhaustive():
    row = powercut.campaign("msp430", exhaustive=True, run_samples=20)
    assert row["reuses"] == 0 and row["reservation_points"] > 400
