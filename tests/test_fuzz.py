# SPDX-License-Identifier: MIT
"""The libFuzzer harnesses of fuzz/ (built by `make`'s fuzz-bins into BUILD/fuzz/bin):
each runs a short fixed time over its corpus and must finish without a crash, sanitizer
report or disagreement with libsodium/OpenSSL; every saved regression input
(fuzz/regressions/<harness>/*) must pass; and each harness must fail when told that
every input disagrees (MB_FUZZ_SELFTEST), so a broken harness cannot pass silently.
The long runs with coverage are `make fuzz` (fuzz/run.py)."""
import os
import resource
import subprocess

import pytest

from conftest import BUILD, REPO

FUZZ_TIME = int(os.environ.get("MOTEBOX_FUZZ_TEST_SECONDS", "10"))
HARNESSES = ["box_open", "stream", "x25519", "p256", "sym", "field_r16", "field_r25",
             "field_r32", "field_r64"]
if (REPO / "fuzz" / "sim430_fuzz.c").exists():
    HARNESSES.append("sim430")
RSS_LIMIT_MB = 2560


def flags():
    """libFuzzer's flags. Its -rss_limit_mb compares with the peak RSS of the process,
    which Linux carries across fork and exec (getrusage ru_maxrss): a fuzzer started
    from a pytest worker that once held a large campaign starts above the limit. So the
    limit is RSS_LIMIT_MB above this process's own peak."""
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    return ["-timeout=30", f"-rss_limit_mb={RSS_LIMIT_MB + peak_mb}", "-max_len=4096"]


def harness(name):
    path = BUILD / "fuzz" / "bin" / name
    if not path.exists():
        pytest.fail(f"{path} missing: run `make fuzz-bins` (part of `make test`)")
    return path


def run(cmd, **kw):
    env = dict(os.environ)
    env.pop("MB_FUZZ_SELFTEST", None)
    env.update(kw.pop("env", {}))
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, env=env,
                          timeout=FUZZ_TIME + 120, **kw)


def verdict(proc, artifacts):
    """(ok, message): ok iff libFuzzer exited 0 and left no crash/leak/timeout file."""
    found = sorted(p.name for p in artifacts.iterdir()) if artifacts.exists() else []
    tail = "\n".join(proc.stderr.splitlines()[-30:])
    return proc.returncode == 0 and not found, f"exit {proc.returncode}, artifacts {found}\n{tail}"


@pytest.mark.parametrize("name", HARNESSES)
def test_fuzz_short_run(name, tmp_path):
    exe = harness(name)
    seeds = REPO / "fuzz" / "corpus" / name
    work = tmp_path / "corpus"
    art = tmp_path / "artifacts"
    work.mkdir()
    art.mkdir()
    dirs = [work] + ([seeds] if seeds.is_dir() else [])
    proc = run([exe, f"-max_total_time={FUZZ_TIME}", *flags(), f"-artifact_prefix={art}/",
                *dirs])
    ok, msg = verdict(proc, art)
    assert ok, f"{name}: finding in a {FUZZ_TIME} s run:\n{msg}"
    assert "stat::number_of_executed_units" in proc.stderr or "Done" in proc.stderr


REGRESSIONS = REPO / "fuzz" / "regressions"


@pytest.mark.parametrize("name", [h for h in HARNESSES if (REGRESSIONS / h).is_dir()])
def test_fuzz_regressions(name):
    """Minimized inputs of past findings (and of the issue's reproduced bugs)."""
    exe = harness(name)
    inputs = sorted((REGRESSIONS / name).glob("*"))
    assert inputs, f"{REGRESSIONS / name} is empty"
    proc = run([exe, *flags(), *inputs])
    assert proc.returncode == 0, f"{name}: a regression input fails again:\n" + \
        "\n".join(proc.stderr.splitlines()[-30:])


@pytest.mark.parametrize("name", [h for h in HARNESSES if h != "sim430"])
def test_fuzz_harness_can_fail(name, tmp_path):
    """Negative control: with MB_FUZZ_SELFTEST every input is a disagreement, and the
    verdict used above must report it."""
    exe = harness(name)
    art = tmp_path / "artifacts"
    art.mkdir()
    proc = run([exe, "-runs=10", *flags(), f"-artifact_prefix={art}/"],
               env={"MB_FUZZ_SELFTEST": "1"})
    ok, msg = verdict(proc, art)
    assert not ok, f"{name}: the self-test disagreement went unnoticed"
    assert "DISAGREEMENT" in proc.stderr
