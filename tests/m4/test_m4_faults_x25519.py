# SPDX-License-Identifier: MIT
"""The mb_x25519 and mb_box_stream_final fault campaigns on the Cortex-M4 model
(docs/FAULTS.md, "X25519" and "Stream final"; python/motebox_tools/fault_x25519.py,
tests/target/fault_x25519.c):
- the injector reaches an instruction of an IT block whose first instruction's condition
  failed (not counted, so the counted ones are not consecutive: the stream final's
  tag_equal has such a block);
- the classification against libsodium's outputs;
- a short sampled X25519 campaign (fixed seed) on the hardened portable -O2 build: no
  exploitable outcome; the unhardened build: some (so the check can fail);
- the stream final campaign on the hardened portable -O2 build: every skip and 4 bits of
  every register and load (seed 18), no exploitable outcome; the unhardened one's skips
  find some."""

import pytest

from fault_programs import EXIT, PRELUDE, build
from motebox_tools import fault_x25519 as FX
from motebox_tools.sim.m4.fault import Injector

# ITE whose first move's condition fails: the counted instructions skip it.
IT_GAP = PRELUDE + """
begin:
  movs r0, #1
  cmp r0, #1
  ite ne
l_ne:
  movne r0, #0x40
l_eq:
  addeq r0, r0, #0x10
l_after:
  adds r0, r0, #2
""" + EXIT


def test_injector_it_block_first_condition_fails(tmp_path):
    inj = Injector(build(IT_GAP, tmp_path, "itgap"), "begin", "end")
    assert inj.reference_status == 0x13
    pcs = [c.pc for c in inj.listing]
    eq = pcs.index(inj.symbol("l_eq")[0] & ~1)
    assert inj.symbol("l_ne")[0] & ~1 not in pcs
    assert inj.listing[eq - 1].text.startswith("ite")         # not at consecutive addresses
    assert inj.listing[eq - 1].pc + inj.listing[eq - 1].size != pcs[eq]
    skip = [(eq, "skip", 0)]
    assert [o.status for _, o in inj.run(skip)] == [0x03]
    assert [o.status for _, o in inj.run([(eq, "flip", 2)])] == [0x17]
    # in one run with the faults before and after it, each from its exact state (the
    # skipped ITE leaves both moves unconditional: 0x40 + 0x10 + 2)
    got = [o.status for _, o in inj.run([(eq - 1, "skip", 0), (eq, "skip", 0),
                                         (eq + 1, "skip", 0)])]
    assert got == [0x52, 0x03, 0x11]


def test_classify():
    _, want = FX.target_input("x25519")
    _, tag = FX.target_input("stream_final")
    assert len(want) == 32 and len(tag) == 16

    def con(ret, m):
        return f"return {ret}\nout {m.hex()}\ncycles 0\n"
    assert FX.classify(0, con("0", want), want) == ("correct", False)
    assert FX.classify(0, con("-1", bytes(32)), want) == ("error", False)
    assert FX.classify(0, con("0", bytes(32)), want) == ("wrong", True)       # zero key
    assert FX.classify(0, con("0", want[:31] + bytes([want[31] ^ 1])), want) == ("wrong", True)
    other = bytes(x ^ 0x5A for x in want)
    assert FX.classify(0, con("-1", other), want) == ("wrong", True)
    # -1 with the correct output, bits of it cleared, or one word changed: the release
    assert FX.classify(0, con("-1", want), want) == ("wrong", False)
    assert FX.classify(0, con("-1", bytes(x & 0x0F for x in want)), want) == ("wrong", False)
    assert FX.classify(0, con("-1", bytes(28) + b"\xff" * 4), want) == ("wrong", False)
    assert FX.classify(0, con("other", other), want) == ("wrong", True)
    assert FX.classify(1, con("0", want), want) == ("crash", False)
    assert FX.classify(0, con("0", tag), want) == ("crash", False)           # wrong length
    assert FX.classify(0, con("0", tag[:15] + bytes([tag[15] ^ 0x80])), tag) == ("wrong", True)


def _image(build_):
    try:
        return FX.image("O2", build_)
    except FileNotFoundError as e:
        pytest.fail(str(e))


SAMPLES = 40     # per model: about 10 s per build on one core


def _x25519(build_):
    return {m: FX.campaign(_image(build_), "x25519", m, samples=SAMPLES, seed=18, jobs=1)
            for m in ("skip", "flip", "load")}


def test_x25519_campaign_hardened_no_exploitable():
    for model, r in _x25519("hardened").items():
        assert r["faults"] == SAMPLES and r["window_instructions"] > 1_000_000
        assert r["crash"] + r["error"] + r["correct"] + r["wrong"] == SAMPLES
        assert r["error"] > SAMPLES // 2, (model, r)      # most faults are caught
        assert r["exploitable"] == 0, (model, r["exploits"])


def test_x25519_campaign_unhardened_finds_exploitable():
    res = _x25519("unhardened")
    assert all(r["exploitable"] > SAMPLES // 2 for r in res.values()), \
        {m: r["exploitable"] for m, r in res.items()}


def test_stream_final_campaign():
    hard = _image("hardened")
    for model in ("skip", "flip", "load"):
        r = FX.campaign(hard, "stream_final", model, bits="4", seed=18, jobs=1)
        assert r["window_instructions"] > 500 and r["faults"] > 400, (model, r["faults"])
        assert r["error"] > 0 and r["exploitable"] == 0, (model, r["exploits"])
    r = FX.campaign(_image("unhardened"), "stream_final", "skip", jobs=1)
    assert r["exploitable"] > 0
