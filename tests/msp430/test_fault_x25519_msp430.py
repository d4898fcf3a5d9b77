# SPDX-License-Identifier: MIT
"""The stream-final and X25519 fault campaigns on the MSP430 simulator (docs/FAULTS.md,
"X25519 and the stream final"; python/motebox_tools/fault_x25519_msp430.py):
- a short campaign on mb_box_stream_final of the hardened assembly build (every skip,
  one bit per register flip): no exploitable outcome but the two documented residuals,
  both a fault of the tag pointer before the library holds a second copy of it (the
  caller's `mov #out, r13`, and the callee's entry copy of r13); the unhardened build
  has exploitable ones (so the check can fail);
- the X25519 plan: fixed seed, sorted, inside the eligible instructions; a few sampled
  faults on the two-computation build, none exploitable.
Expected outputs come from libsodium (fault_x25519.target_input)."""
import bisect

import pytest

from motebox_tools import fault_x25519_msp430 as XM
from motebox_tools.boards import msp430 as t430
from motebox_tools.elf import read_bytes, symbol


def _campaign(build, target, tmp_path, variant="mpy32-asm"):
    if not t430.have_sim():
        pytest.fail("msp430sim missing: run `make msp430sim`")
    try:
        elf = XM.image(variant, build)
    except FileNotFoundError as e:
        pytest.fail(str(e))
    return XM.X25519Campaign(elf, t430.VARIANTS[variant].mpy, tmp_path / build,
                             target).prepare()


def _residual(c, i, pc, fn):
    """The tag pointer faulted before a second copy exists: the caller's code in the
    window before the call, or the entry's `mov r13, rN` (MOV Rs, Rd: 0x4D0d)."""
    word = int.from_bytes(read_bytes(c.elf, pc, 2), "little")
    return fn == "main" and i < 10 or \
        fn == "mb_box_stream_final" and i < 20 and word & 0xFFF0 == 0x4D00


def test_stream_final_short_campaign(tmp_path):
    total = {}
    for build in ("hardened", "unhardened"):
        c = _campaign(build, "stream_final", tmp_path)
        total[build] = 0
        for model, bits in (("skip", "all"), ("flip", "1")):
            res = c.run(model, bits)
            assert res["faults"] == sum(res[k] for k in ("crash", "error", "correct",
                                                         "wrong"))
            assert res["faults"] > 1000 and res["correct"] > 0 and res["error"] > 0
            left = [e for e in res["exploits"] if not _residual(c, *e[:3])]
            total[build] += len(left)
            if build == "hardened":
                assert left == [], left
    assert total["unhardened"] > 0


def test_x25519_plan_and_dual_sample(tmp_path):
    c = _campaign("dual", "x25519", tmp_path)
    for model in ("skip", "flip", "load"):
        plan = c.plan(model, 30)
        assert plan == c.plan(model, 30) and plan != c.plan(model, 30, seed=19)
        idx = [i for i, _ in plan]
        assert idx == sorted(set(idx)) and len(idx) == 30
        if model != "skip":
            assert set(idx) <= set(c.eligible(model))
    res = c.run("skip", 30)
    assert res["faults"] == 30 and res["exploitable"] == 0, res["exploits"]


def _in_sorted(seq, x):
    """x in the sorted sequence seq (array, list or range)."""
    k = bisect.bisect_left(seq, x)
    return k < len(seq) and seq[k] == x


def _indices_in(c, names):
    """Window indices of the dynamic instructions inside the named functions of c.elf
    (those it has)."""
    spans = []
    for n in names:
        try:
            spans.append(symbol(c.elf, n))
        except KeyError:
            pass
    return [i for i, pc in enumerate(c.pcs) if any(lo <= pc < lo + n for lo, n in spans)]


@pytest.mark.parametrize("variant,build", [("mpy32-asm", "dual"), ("mpy32", "hardened")])
def test_x25519_release_every_fault(tmp_path, variant, build):
    """Every skip, and a register and a load bit flip (bit i mod 16) of every eligible
    instruction, inside release and the checks around it (equal32, result_check, and the
    portable build's rebuild of c) and in everything after release (the wipes, the
    return value) of the hardened X25519: none exploitable. A skipped pointer load in
    release's byte loops once sent a write into r, which out then matched (the sampled
    campaign found it after the kernels changed: the dual build returned 0 with one byte
    of the secret damaged); release's passes into out are now ANDs only and out is
    checked against c too."""
    c = _campaign(build, "x25519", tmp_path, variant)
    idx = _indices_in(c, ("release", "equal32", "result_check", "rebuild"))
    assert len(idx) > 300, len(idx)
    # and everything after release's last instruction (the wipes, the return value, the
    # caller's code to the window's end): found from the end, release runs near it
    lo, n = symbol(c.elf, "release")
    last = next(i for i in range(len(c.pcs) - 1, -1, -1) if lo <= c.pcs[i] < lo + n)
    idx = sorted(set(idx) | set(range(last + 1, len(c.pcs))))
    for model in ("skip", "flip", "load"):
        elig = c.eligible(model)      # sorted; millions of entries on the portable build:
        plan = [(i, 0 if model == "skip" else i % 16)    # binary search, no set (memory)
                for i in idx if _in_sorted(elig, i)]
        res = c.run_plan(model, plan)
        assert res["exploitable"] == 0, (model, res["exploits"], res)
        assert res["error"] > 0, (model, res)        # the checks stop some
