# SPDX-License-Identifier: MIT
"""Fault injection in the Cortex-M4 model (python/motebox_tools/sim/m4/fault.py,
docs/FAULTS.md "Cortex-M4") and the `motebox fault --chip m4` campaign:
- the injector against tiny programs whose outcome under each fault is known by hand: a
  skipped taken branch changes the exit status, a bit flipped in a dead register does
  not, a flipped flag turns a branch, a flipped bit of a loaded word shows; inside an IT
  block a skip keeps the IT state going, a skipped IT makes its block unconditional;
- the exhaustive skip campaign and a sampled register-flip campaign (fixed seed) on the
  secretbox open (tag check and output masking) of the hardened portable -O2 build with a
  forged box (libsodium's, one tag byte complemented): zero accepted forgeries, zero
  released plaintext; the skip campaign on the unhardened open must find some."""

import pytest

from motebox_tools import fault as F
from motebox_tools import fault_m4 as FM
from motebox_tools.boards import m4
from fault_programs import EXIT, PRELUDE, build
from motebox_tools.sim.m4.fault import APSR, FaultError, Injector


# counted: i0 movs r0,#1; i1 cmp r0,#0; i2 bne; i3 movs r5,#0 (r5 is dead);
# i4 ldr r1,=val; i5 ldr r2,[r1]; i6 adds. Exit 1 + 4 = 5; 7 + 4 = 11 when the
# branch falls through.
BRANCH = PRELUDE + """
begin:
  movs r0, #1
  cmp r0, #0
  bne done
  movs r0, #7
done:
  movs r5, #0
  ldr r1, =val
l_val:
  ldr r2, [r1]
  adds r0, r0, r2
""" + EXIT
# i0 movs r0,#1; i1 cmp; i2 ite eq; i3 moveq r0,#2; movne r0,#3 (its condition fails:
# not counted); i4 adds #0x10. Exit 0x12 (exit statuses are 8 bits)
IT = PRELUDE + """
begin:
  movs r0, #1
  cmp r0, #1
  ite eq
l_eq:
  moveq r0, #2
l_ne:
  movne r0, #3
l_add:
  adds r0, #0x10
""" + EXIT


def one(inj, index, model, bit=0):
    (_, out), = list(inj.run([(index, model, bit)]))
    return out.status


def at(inj, label):
    """Index of the first counted instruction at label."""
    addr = inj.symbol(label)[0] & ~1
    return next(c.index for c in inj.listing if c.pc == addr)


def test_injector_on_known_program(tmp_path):
    inj = Injector(build(BRANCH, tmp_path, "branch"), "begin", "end")
    assert inj.reference_status == 5
    assert [c.text.split()[0] for c in inj.listing] == \
        ["movs", "cmp", "bne", "movs", "ldr", "ldr", "adds"]
    assert one(inj, 6, "flip", 0) == 4           # the exit status is r0 ^ 1
    # skipping the taken branch runs the movs #7; skipping the first movs leaves r0 = 0
    assert one(inj, 2, "skip") == 11
    assert one(inj, 0, "skip") == 11
    # a skipped write to a dead register, or a bit flipped in it, changes nothing
    assert inj.listing[3].dest == 5
    assert one(inj, 3, "skip") == 5 and one(inj, 3, "flip", 5) == 5
    # a bit flipped in r0 after the movs shows; cmp only sets flags: a flipped Z (bit
    # 30) turns the bne
    assert one(inj, 0, "flip", 1) == 7
    # exactly one instruction runs before the flip: r0 = 0 meets the cmp (4 if not)
    assert one(inj, 0, "flip", 0) == 11
    assert inj.listing[1].dest == APSR and one(inj, 1, "flip", 30) == 11
    assert one(inj, 1, "flip", 31) == 5          # N: bne does not look at it
    # several faults in one call, each in its own run from the same state
    got = {f: o.status for f, o in inj.run([(0, "skip", 0), (2, "skip", 0), (3, "flip", 7)])}
    assert got == {(0, "skip", 0): 11, (2, "skip", 0): 11, (3, "flip", 7): 5}
    with pytest.raises(FaultError):
        list(inj.run([(7, "skip", 0)]))


def test_injector_load_flip(tmp_path):
    inj = Injector(build(BRANCH, tmp_path, "load"), "begin", "end")
    i = at(inj, "l_val")
    assert inj.listing[i].load == 4 and inj.listing[i + 1].load == 0
    assert one(inj, i, "load", 0) == 6           # val 4 -> 5
    assert one(inj, i, "load", 3) == 13          # val 4 -> 12
    (_, out), = list(inj.run([(i + 1, "load", 0)]))
    assert out.status == 5 and "loads nothing" in out.injected
    # the flipped word is restored: the unfaulted run after it reads 4 again
    assert one(inj, i + 1, "skip") == 1


def test_injector_it_block(tmp_path):
    inj = Injector(build(IT, tmp_path, "it"), "begin", "end")
    assert inj.reference_status == 0x12
    assert at(inj, "l_add") == 4 and inj.symbol("l_ne")[0] not in [c.pc for c in inj.listing]
    assert one(inj, at(inj, "l_add"), "flip", 3) == 0x12 ^ 8
    # skipping ITE: both moves run unconditionally
    assert one(inj, 2, "skip") == 0x13
    # skipping moveq inside the block: the IT state still advances, movne still fails
    assert one(inj, at(inj, "l_eq"), "skip") == 0x11
    assert one(inj, at(inj, "l_eq"), "flip", 2) == 0x16
    # faults inside the block, in one call and in order, each from the exact state
    got = [o.status for _, o in inj.run([(2, "skip", 0), (at(inj, "l_eq"), "skip", 0),
                                         (at(inj, "l_add"), "skip", 0)])]
    assert got == [0x13, 0x11, 2]


def _firmware(hardened=True):
    try:
        return FM.image("O2", hardened)
    except FileNotFoundError as e:
        pytest.fail(str(e))


def test_unfaulted_window_and_list():
    inj = FM.injector(_firmware(), "secretbox_open")
    assert {n for n, _, _ in inj.named_ranges} >= {"open_masked", "mb_verify16", "tag_check2"}
    assert len(inj.listing) > 500
    assert F.classify(0, inj.reference_console) == ("error", False)


def test_skip_campaign_no_exploitable():
    res = FM.campaign(_firmware(), "secretbox_open", "skip", jobs=1)
    assert res["faults"] == res["window_instructions"] > 500
    assert res["error"] > 0.5 * res["faults"]
    assert res["exploitable"] == 0, res["exploits"][:20]


def test_flip_campaign_sampled_no_exploitable():
    # 8 of 32 bits per instruction (seed 18): the exhaustive one is in `make bench`
    res = FM.campaign(_firmware(), "secretbox_open", "flip", bits="8", seed=18, jobs=1)
    assert res["faults"] > 5000
    assert res["exploitable"] == 0, res["exploits"][:20]


def test_campaign_finds_unhardened_exploits():
    res = FM.campaign(_firmware(False), "secretbox_open", "skip", jobs=1)
    fns = {f for _, _, f, _ in res["exploits"]}
    assert res["exploitable"] > 0 and "mb_verify16" in fns, res


def test_genuine_open_in_cycle_model(tmp_path):
    # the unfaulted firmware opens libsodium's genuine box to its plaintext in the
    # cycle model too
    if not m4.have_model():
        pytest.fail("the Cortex-M4 model needs unicorn and capstone")
    assert FM.open_cycles(_firmware(), "secretbox_open", tmp_path) > 0


def test_cli_fault_list(tmp_path, capsys):
    from motebox_tools import commands
    _firmware()
    out = tmp_path / "list.txt"
    assert commands._fault(["--chip", "m4", "--variant", "O2", "--fault-list", str(out)]) == 0
    lines = [line.split() for line in out.read_text().splitlines()]
    assert len(lines) > 500 and f"fault-window: {len(lines)}" in capsys.readouterr().out
    assert [int(x[0]) for x in lines] == list(range(len(lines)))
    assert all(int(x[2]) in range(-1, 17) and int(x[3]) in (0, 1, 2, 4) for x in lines)


def _dies_on_fault_7(task):
    """A stand-in for the campaign worker: its process dies (as on a unicorn segfault)
    when fault index 7 is in its list, else it returns the faults it got."""
    import os
    if any(f[0] == 7 for f in task[3]):
        os._exit(139)
    return list(task[3])


def test_a_fault_that_kills_the_simulator_is_isolated():
    """run_contained: the task whose process dies is split until the fault is found; all
    the other faults still run, once each."""
    from motebox_tools.fault_m4 import run_contained
    faults = [(i, "flip", 0) for i in range(12)]
    tasks = [(None, None, None, faults[k::3]) for k in range(3)]
    results, crashed = run_contained(_dies_on_fault_7, tasks, 2)
    assert crashed == [(7, "flip", 0)]
    ran = sorted(f for part in results for f in part)
    assert ran == [f for f in faults if f[0] != 7]
