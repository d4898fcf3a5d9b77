# SPDX-License-Identifier: MIT
"""fuzz/run.py's reading of a finished libFuzzer run (collect): executions from the
final stats, crash-/leak-/timeout-/oom- files as findings, a slow-unit- file not a
finding unless it fails when run alone (fuzz/README.md)."""
import importlib.util
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("fuzz_run", REPO / "fuzz" / "run.py")
run = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run)


def fake_run(tmp_path, harness_exit, artifacts):
    build = tmp_path / "fuzz"
    (build / "bin").mkdir(parents=True)
    h = build / "bin" / "h"
    h.write_text(f"#!/bin/sh\nexit {harness_exit}\n")
    h.chmod(0o755)
    work = build / "work" / "h"
    (work / "artifacts").mkdir(parents=True)
    (work / "log.txt").write_text("Done 1234 runs\nstat::number_of_executed_units: 1234\n")
    for name in artifacts:
        (work / "artifacts" / name).write_bytes(b"x")
    return build


def test_slow_unit_is_not_a_finding(tmp_path):
    row = run.collect(fake_run(tmp_path, 0, ["slow-unit-abc"]), "h", 60)
    assert row["execs"] == 1234 and row["findings"] == 0 and row["artifacts"] == []
    assert [u["alone_exit"] for u in row["slow_units"]] == [0]


def test_crash_and_failing_slow_unit_are_findings(tmp_path):
    row = run.collect(fake_run(tmp_path, 1, ["crash-1", "slow-unit-2"]), "h", 60)
    assert row["findings"] == 2 and len(row["artifacts"]) == 1
    assert row["slow_units"][0]["alone_exit"] == 1
