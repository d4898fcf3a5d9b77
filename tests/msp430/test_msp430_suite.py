# SPDX-License-Identifier: MIT
"""The target suite (tests/target/suite.c, small profile: cases from RFC 7748, Wycheproof,
libsodium and OpenSSL made by tests/target/gen_vectors.py) as firmware on the simulated
MSP430FR5969, with the 32-bit multiplier (--mpy 32) and with the 16-bit one (--mpy 16),
portable C and, when mk/msp430.mk names the board's chip (MSP430_ARCH), with its assembly.
Built by `make msp430`: build/msp430/mpy{32,16}[-Os][-asm]/suite.elf (every suite but
P-256 and the stream), suite-p256.elf (the P-256 suites) and suite-stream.elf (the stream
suite): all of them do not fit the 48 KB of FRAM in one image. One simulator run per image, one test per suite so each verdict is visible.
An assembly image missing while the board names a chip fails (it is not skipped)."""
import fcntl
import json
import os
import re

import pytest

from conftest import REPO
from motebox_tools.boards import msp430 as t430

HAVE_P256 = bool(list((REPO / "src" / "proto").glob("p256*.c")))
SUITES = ["rfc7748", "rfc7748_iterated", "wycheproof_x25519", "nacl_x25519", "x25519_alias",
          "nacl_x25519_base", "rfc7539_poly1305", "nacl_secretbox", "nacl_secretbox_open",
          "nacl_box", "nacl_box_open"]
STREAM_SUITES = ["nacl_stream"]
P256_SUITES = ["wycheproof_p256", "ossl_p256_ecdh", "ossl_p256_base", "ossl_p256_encode"]
FIRMWARE = {"suite": SUITES, "suite-p256": P256_SUITES if HAVE_P256 else [],
            "suite-stream": STREAM_SUITES}
# (firmware, variant). The default run covers every suite with both multipliers at -O2
# except portable P-256 with the 16-bit multiplier; that one and the -Os images are
# opt-in (-m slow): each portable one costs about a minute of simulation, and the
# multiplier runtime they add is checked on its own by test_msp430_runtime.py. The
# assembly builds at -O2 run whole (both images, both multipliers: seconds each).
IMAGES = [(fw, v) for v in t430.variants() for fw in FIRMWARE if FIRMWARE[fw]]
FAST = {("suite", "mpy32"), ("suite", "mpy16"), ("suite-p256", "mpy32"),
        ("suite-stream", "mpy32"), ("suite-stream", "mpy16")} | \
    {(fw, v) for fw in FIRMWARE for v in t430.variants(asm=True) if t430.VARIANTS[v].opt == "O2"}


def image_id(variant):
    v = t430.VARIANTS[variant]
    return f"mpy{v.mpy}-{v.opt}" + ("-asm" if v.asm else "")


def image_params(with_suites):
    out = []
    for fw, variant in IMAGES:
        marks = [] if (fw, variant) in FAST else [pytest.mark.slow]
        for s in (FIRMWARE[fw] if with_suites else [None]):
            args = (fw, variant, s) if with_suites else (fw, variant)
            out.append(pytest.param(*args, marks=marks,
                                    id=f"{fw}-{image_id(variant)}" + (f"-{s}" if s else "")))
    return out


LINE = re.compile(r"^suite (\w+): (\d+) passed, (\d+) failed$", re.M)
_runs = {}


def need(path):
    if not t430.have_sim():
        pytest.fail(f"{t430.sim_path()} missing: run `make` (SIM430's simulator)")
    if not path.exists():
        pytest.fail(f"{path} missing: run `make msp430` first")
    return path


def suite_run(fw, variant):
    """Run each suite image once per test session, also across pytest-xdist workers: the
    first worker runs it under a file lock and leaves the outcome beside the image, keyed
    by the xdist run id and the image's and simulator's identity (path, size, mtime)."""
    if (fw, variant) in _runs:
        return _runs[fw, variant]
    elf = need(t430.firmware(fw, variant=variant))
    mpy = t430.VARIANTS[variant].mpy
    run_id = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if not run_id:   # one process: the in-memory cache is enough
        _runs[fw, variant] = t430.run(elf, mpy=mpy, timeout=1800)
        return _runs[fw, variant]
    key = [run_id] + [str(p) + f":{p.stat().st_size}:{p.stat().st_mtime_ns}"
                      for p in (elf, t430.sim_path())]
    cache = elf.with_suffix(".run.json")
    with open(elf.with_suffix(".run.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            saved = json.loads(cache.read_text())
        except (OSError, ValueError):
            saved = None
        if not saved or saved.get("key") != key:
            r = t430.run(elf, mpy=mpy, timeout=1800)
            saved = {"key": key, "status": r.status, "stdout": r.stdout, "stderr": r.stderr}
            cache.write_text(json.dumps(saved))
    _runs[fw, variant] = t430.Run(saved["status"], saved["stdout"], saved["stderr"])
    return _runs[fw, variant]


@pytest.mark.parametrize("fw,variant,suite", image_params(True))
def test_suite(fw, variant, suite):
    r = suite_run(fw, variant)
    results = {m[1]: (int(m[2]), int(m[3])) for m in LINE.finditer(r.stdout)}
    assert suite in results, f"suite {suite} did not report\n{r.stdout}\n{r.stderr}"
    passed, failed = results[suite]
    fails = "\n".join(l for l in r.stdout.splitlines() if l.startswith(f"FAIL {suite} "))
    assert failed == 0 and passed > 0, f"suite {suite}: {passed} passed, {failed} failed\n{fails}"


@pytest.mark.parametrize("fw,variant", image_params(False))
def test_suite_summary(fw, variant):
    """Every suite reported, in order, the summary line and exit status 0."""
    r = suite_run(fw, variant)
    results = {m[1]: (int(m[2]), int(m[3])) for m in LINE.finditer(r.stdout)}
    assert list(results) == FIRMWARE[fw], r.stdout
    total = sum(p for p, _ in results.values())
    assert f"summary: {total} passed, 0 failed\nALL PASSED\n" in r.stdout, r.stdout + r.stderr
    assert r.status == 0, r


def test_suite_reports_failures(tmp_path):
    """The harness can fail: one corrupted expected byte gives one failed case, a FAIL
    line naming it and exit status 1 (on the simulator, with the 32-bit multiplier; on
    the assembly image when the board has one: seconds instead of half a minute)."""
    import vectors
    src = need(t430.firmware("suite", variant=t430.demo_variant()))
    wrong = bytes([vectors.rfc7748()[0][2][5] ^ 0xFF])   # case 0: sk[32] pk[32] out[32]
    bad = t430.patch_elf(src, tmp_path / "bad.elf", "mbt_rfc7748", wrong, offset=64 + 5)
    r = t430.run(bad, mpy=32, timeout=600)
    assert re.search(r"^suite rfc7748: \d+ passed, 1 failed$", r.stdout, re.M), r.stdout
    assert "FAIL rfc7748 case 0: mb_x25519 output" in r.stdout
    assert r.stdout.rstrip().endswith("FAILED") and r.status == 1


def test_asm_builds_name_the_chip():
    """When the board names a chip, each of its assembly variants is built with it (the
    config stamp says arch=<chip>) and its bench label names it; else there are none."""
    chip = t430.chip()
    asm = t430.variants(asm=True)
    assert len(asm) == (4 if chip else 0), asm
    for variant in asm:
        need(t430.build_dir() / variant / "libmotebox.a")
        assert t430.built_chip(variant) == chip, variant
        assert t430.VARIANTS[variant].impl == f"arch/{chip} asm + C, -{t430.VARIANTS[variant].opt}"
