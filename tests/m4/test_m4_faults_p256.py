# SPDX-License-Identifier: MIT
"""The sampled P-256 ECDH fault campaign (docs/FAULTS.md, "P-256 ECDH";
python/motebox_tools/sim/m4/fault.py SampledInjector, fault_m4.py target p256_ecdh):
- the sampled injector (no per-instruction hook, indices reached by instruction count)
  gives, at every instruction of a tiny program with a loop and an IT block, the same
  outcome for every model as the hooked Injector whose rules test_m4_faults.py checks;
- the classification against OpenSSL's shared secret;
- a short sampled campaign (fixed seed) over the whole mb_p256_ecdh call of the hardened
  portable -O2 build: no exploitable outcome; the same sample on the unhardened build
  finds some (so the check can fail)."""

import pytest

from motebox_tools import fault_m4 as FM
from fault_programs import EXIT, PRELUDE, build
from motebox_tools.sim.m4.fault import Injector, SampledInjector

# A loop of 3 (r1 counts down, r0 += 5 each time), an IT block whose second move's
# condition fails, a load; exit status r0 (SYS_EXIT_EXTENDED).
PROGRAM = PRELUDE + """
begin:
  movs r0, #0
  movs r1, #3
loop:
  adds r0, r0, #5
  subs r1, r1, #1
  bne loop
  cmp r0, #15
  ite eq
  addeq r0, r0, #1
  addne r0, r0, #64
  ldr r2, =val
  ldr r3, [r2]
  adds r0, r0, r3
""" + EXIT


def _build(tmp_path):
    return build(PROGRAM, tmp_path, "loop")


def test_sampled_injector_agrees_with_hooked(tmp_path):
    elf = _build(tmp_path)
    hooked = Injector(elf, "begin", "end")
    sampled = SampledInjector(elf, "begin", "end")
    assert hooked.reference_status == sampled.reference_status == 20   # 15 + 1 + 4
    pcs = sampled.trace()
    # the same instructions, in the same order (addne, whose condition fails, in neither)
    assert list(pcs) == [c.pc for c in hooked.listing]
    assert sampled.symbol("end")[0] & ~1 not in pcs
    sampled.set_listing(dict(enumerate(pcs)))
    faults = [(c.index, "skip", 0) for c in hooked.listing]
    faults += [(c.index, "flip", b) for c in hooked.listing if c.dest >= 0
               for b in ((0, 2, 6) if c.dest != 16 else (30, 31))]
    faults += [(c.index, "load", b) for c in hooked.listing if c.load for b in (0, 3)]
    want = {f: o.status for f, o in hooked.run(faults)}
    got = {f: o.status for f, o in sampled.run(faults)}
    assert got == want
    # the outcomes differ from the reference: the check above can fail
    assert sum(s != 20 for s in want.values()) > len(faults) // 3
    # one fault alone, from the window start, after IT-block faults as before
    it = next(c.index for c in hooked.listing if c.text.startswith("ite"))
    for f in [(it + 1, "skip", 0), (it + 2, "flip", 0)]:
        (_, o), = list(sampled.run([f]))
        assert o.status == want[f]


def test_classify_p256():
    blob, want = FM.p256_input()
    assert len(blob) == 32 + 65 and blob[32] == 4 and len(want) == 32
    other = bytes([want[0] ^ 1]) + want[1:]

    def con(ret, m):
        return f"return {ret}\nout {m.hex()}\ncycles 0\n"
    assert FM.classify_p256(0, con("0", want), want) == ("correct", False)
    assert FM.classify_p256(0, con("-1", bytes(32)), want) == ("error", False)
    assert FM.classify_p256(0, con("0", other), want) == ("wrong", True)
    # -1 with bytes of another result is exploitable; -1 with the correct secret or
    # zero, one word changed (a fault in the release after every check), is not
    another = bytes(x ^ 0x5A for x in want)
    assert FM.classify_p256(0, con("-1", another), want) == ("wrong", True)
    assert FM.classify_p256(0, con("-1", want), want) == ("wrong", False)
    one_word = bytes(4 * [0xA5]) + want[4:]
    assert FM.classify_p256(0, con("-1", one_word), want) == ("wrong", False)
    assert FM.classify_p256(0, con("-1", bytes(28) + b"\x01\x02\x03\x04"), want) == \
        ("wrong", False)
    two_words = bytes(4 * [0xA5]) + want[4:28] + bytes(4 * [0x5A])
    assert FM.classify_p256(0, con("-1", two_words), want) == ("wrong", True)
    assert FM.classify_p256(0, con("0", one_word), want) == ("wrong", True)
    assert FM.classify_p256(0, con("other", want), want) == ("wrong", False)
    assert FM.classify_p256(0, con("0", bytes(32)), want) == ("wrong", True)
    assert FM.classify_p256(1, con("0", other), want) == ("crash", False)
    assert FM.classify_p256(0, "return 0\n", want) == ("crash", False)


def _image(hardened):
    try:
        return FM.image("O2", hardened, FM.P256)
    except FileNotFoundError as e:
        pytest.fail(str(e))


SAMPLES = 60     # per model: about 30 s per build on one core


def _campaign(hardened):
    out = {}
    for model in ("skip", "flip", "load"):
        out[model] = FM.campaign(_image(hardened), FM.P256, model, seed=18, jobs=1,
                                 samples=SAMPLES)
    return out


def test_p256_campaign_hardened_no_exploitable():
    res = _campaign(True)
    for model, r in res.items():
        assert r["faults"] == SAMPLES and r["window_instructions"] > 1_000_000
        assert r["crash"] + r["error"] + r["correct"] + r["wrong"] == SAMPLES
        assert r["error"] > SAMPLES // 2, (model, r)      # most faults are caught
        assert r["exploitable"] == 0, (model, r["exploits"])


def test_p256_campaign_unhardened_finds_exploitable():
    res = _campaign(False)
    assert res["skip"]["exploitable"] > 0 and res["flip"]["exploitable"] > 0, \
        {m: r["exploitable"] for m, r in res.items()}


def test_classify_p256_off_curve():
    blob, want = FM.p256_input(off_curve=True)
    assert want == bytes(32) and blob[32] == 4
    # OpenSSL refuses the key (p256_input checks it); the valid key differs in y only
    assert blob[:65] == FM.p256_input()[0][:65] and blob[65:] != FM.p256_input()[0][65:]

    def con(ret, m):
        return f"return {ret}\nout {m.hex()}\ncycles 0\n"
    some = bytes(range(1, 33))
    assert FM.classify_p256_off_curve(0, con("-1", bytes(32))) == ("error", False)
    assert FM.classify_p256_off_curve(0, con("0", bytes(32))) == ("wrong", True)
    assert FM.classify_p256_off_curve(0, con("-1", some)) == ("wrong", True)
    assert FM.classify_p256_off_curve(0, con("-1", bytes(28) + b"\x01\x02\x03\x04")) == \
        ("wrong", False)
    assert FM.classify_p256_off_curve(0, con("-1", bytes.fromhex("64000020") * 8)) == \
        ("wrong", False)                              # a faulted wipe: one word repeated
    assert FM.classify_p256_off_curve(1, con("0", some)) == ("crash", False)


def test_p256_off_curve_skips_exhaustive():
    """Every instruction of the refusal of an off-curve key skipped in turn: never
    accepted by the hardened build; the unhardened one runs the multiplication on the
    invalid point (a skipped branch of the decoding) and returns 0."""
    hard = FM.campaign(_image(True), FM.P256_OFF, "skip", seed=18, jobs=1)
    assert hard["sampling"].startswith("exhaustive") and hard["faults"] > 1000
    assert hard["exploitable"] == 0, hard["exploits"]
    assert hard["error"] > hard["faults"] // 2
    soft = FM.campaign(_image(False), FM.P256_OFF, "skip", seed=18, jobs=1)
    assert soft["exploitable"] > 0
