# SPDX-License-Identifier: MIT
"""The fault campaigns' `bench --variants` lists (make bench-faults-*): a name that is
not a build of that chip stops the run with the name in the error, before anything runs
or any row of bench/results/faults.json is replaced (a typo used to run nothing and
report success); a known build whose fault image is not built is skipped with a line
saying so. The same check (fault.parse_names) serves --targets and --models."""
import os
import subprocess
import sys

import pytest

from motebox_tools import fault

BENCHES = [("fault_m4", "bench-p256", "O2"),
           ("fault_p256", "bench", "mpy32"),
           ("fault_x25519_msp430", "bench", "mpy32")]


@pytest.mark.parametrize("module,cmd,known", BENCHES)
def test_unknown_variant_is_refused(tmp_path, module, cmd, known):
    out = tmp_path / "faults.json"
    env = dict(os.environ, MOTEBOX_BUILD=str(tmp_path / "build"))
    r = subprocess.run([sys.executable, "-m", f"motebox_tools.{module}", cmd,
                        "--variants", f"{known},no-such-build", "--out", str(out)],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "unknown no-such-build" in r.stderr and known in r.stderr
    assert not out.exists()


@pytest.mark.parametrize("argv,option", [
    (["-m", "motebox_tools.fault_x25519_msp430", "bench", "--targets", "x25519,nope"],
     "--targets"),
    (["-m", "motebox.cli", "fault", "--models", "skip,nope"], "--models")])
def test_unknown_target_or_model_is_refused(tmp_path, argv, option):
    env = dict(os.environ, MOTEBOX_BUILD=str(tmp_path / "build"))
    r = subprocess.run([sys.executable, *argv, "--out" if "bench" in argv else "--json",
                        str(tmp_path / "out.json")], capture_output=True, text=True,
                       env=env, timeout=120)
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"{option}: unknown nope" in r.stderr
    assert not (tmp_path / "out.json").exists()


def test_unbuilt_variant_is_skipped_and_said():
    class Ap:
        def error(self, msg):
            raise AssertionError(msg)
    said = []
    got = fault.pick_variants(Ap(), "a,b,c", ["a", "b", "c"], lambda v: v != "b",
                              said.append)
    assert got == ["a", "c"]
    assert said == ["skipped b: its fault image is not built"]
    with pytest.raises(AssertionError, match="unknown d"):
        fault.pick_variants(Ap(), "a,d", ["a", "b"], lambda v: True, said.append)
    with pytest.raises(AssertionError, match="none given"):
        fault.pick_variants(Ap(), ",", ["a"], lambda v: True, said.append)
