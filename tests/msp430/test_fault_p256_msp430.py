# SPDX-License-Identifier: MIT
"""The sampled P-256 ECDH fault campaign on the MSP430 simulator (docs/FAULTS.md, "P-256
ECDH on the MSP430"; python/motebox_tools/fault_p256.py, msp430sim --fault-snap-*):
- the snapshot shortcut on a tiny program whose outcomes are known by hand: a flip of a
  register the program overwrites later ends as converged (status 212) once the state
  equals the unfaulted run's, a flip that changes the result or stays in a dead register
  forever runs to its own end, and without snapshots every run ends as before;
- the plan: the fixed-seed sample is reproducible, sorted, inside the eligible
  instructions, and skips the return into the caller for flips;
- the ladder loop's hardening of the assembly build (arch/msp430x/p256_ladder.S): a
  skipped loop-count decrement multiplies by another scalar, accepted (exploitable) when
  unhardened, refused (-1, zeros) when hardened;
- the portable loop's state pointer: a skipped spill of it, which sent the steps to
  other memory with every check of the loop passing, is refused by the caller's count
  of the steps done on its own state;
- a short sample (20 faults per model) over the whole call: no exploitable outcome on the
  hardened assembly build, some on the unhardened one (so the check can fail)."""
import subprocess

import pytest

from sim430_asm import SIM_EXIT, build, have_toolchain
from motebox_tools import fault_p256 as P
from motebox_tools.boards import msp430 as t430
from motebox_tools.elf import read_bytes, symbol
from motebox_tools.fault_m4 import classify_p256
from motebox_tools.sim import msp430 as sim

needs_tools = pytest.mark.skipif(not have_toolchain(), reason="needs clang and ld.lld")

# counted: 0 mov #0,r12; 1 mov #5,r14; 2 mov #0,r15 (dead, never written again);
# then 5 times: add #3,r12; mov #0,r13 (overwritten each turn); dec r14; jnz loop
# (indices 3..22); 23 mov r12,&SIM_EXIT: exit status 15.
LOOP = f"""
  mov #0, r12
  mov #5, r14
  mov #0, r15
loop:
  add #3, r12
  mov #0, r13
  dec r14
  jnz loop
  mov r12, &{SIM_EXIT:#x}
"""


def _sim(*opts):
    if not t430.have_sim():
        pytest.fail(f"{sim.sim_path()} missing: run `make msp430sim`")
    return subprocess.run([str(sim.sim_path()), *map(str, opts)], capture_output=True,
                          timeout=120)


def _batch(elf, tmp_path, lines, *opts):
    src, dst = tmp_path / "b.in", tmp_path / "b.out"
    src.write_text("".join(line + "\n" for line in lines))
    p = _sim(*opts, "--fault-batch", src, dst, elf)
    assert p.returncode == 15, p.stderr
    data, out, pos = dst.read_bytes(), [], 0
    while pos < len(data):
        nl = data.index(b"\n", pos)
        line, status, n = map(int, data[pos:nl].split())
        out.append(status)
        pos = nl + 1 + n
    return out


@needs_tools
def test_snapshot_shortcut_on_known_program(tmp_path):
    elf = build(LOOP, tmp_path, "loop")
    snap = tmp_path / "snap"
    p = _sim("--fault-snap-out", snap, "--fault-snap-every", 2, elf)
    assert p.returncode == 15 and snap.stat().st_size > 12 * 65536, p.stderr
    # r13 flipped in turn 1 (#4) is rewritten in turn 2; r12 flipped (#3) changes the
    # sum; r15 flipped (#2) is dead but differs to the end; a skip of turn 3's mov #0,r13
    # (#12: r13 already 0) changes nothing at all
    lines = ["flip 4 3", "flip 3 0", "flip 2 1", "skip 12"]
    assert _batch(elf, tmp_path, lines) == [15, 14, 15, 15]      # 3 ^ 1 = 2: 14
    got = _batch(elf, tmp_path, lines, "--fault-snap-in", snap)
    assert got == [P.CONVERGED, 14, 15, P.CONVERGED], got
    # one mode at a time; a snapshot file of another memory map is refused
    assert _sim("--fault-snap-out", snap, "--fault-snap-every", 2, "--fault-snap-in", snap,
                elf).returncode == 208
    assert _sim("--fault-snap-out", snap, elf).returncode == 208
    (tmp_path / "bad").write_bytes(b"MBSNAP1\0" + bytes(16))
    assert _sim("--fault-snap-in", tmp_path / "bad", elf).returncode == 208


def _campaign(variant, hardened, tmp_path):
    try:
        elf = P.image(variant, hardened)
    except FileNotFoundError as e:
        pytest.fail(str(e))
    return P.P256Campaign(elf, t430.VARIANTS[variant].mpy, tmp_path / str(hardened)).prepare()


def test_plan_is_fixed_and_eligible(tmp_path):
    c = _campaign("mpy32-asm", True, tmp_path)
    for model in ("skip", "flip", "load"):
        plan = c.plan(model, 50)
        assert plan == c.plan(model, 50) and plan != c.plan(model, 50, seed=19)
        idx = [i for i, _ in plan]
        assert idx == sorted(set(idx)) and len(idx) == 50
        assert all(0 <= b < 16 for _, b in plan) and (model != "skip" or not any(
            b for _, b in plan))
        if model != "skip":
            elig = set(c.eligible(model))
            assert set(idx) <= elig and c.caller_return not in elig
    # mb_p256_ecdh's RET: after it the caller's code (the window ends at fault_end)
    lo, size = symbol(c.elf, "mb_p256_ecdh")
    r = c.caller_return
    assert r is not None and lo <= c.pcs[r] < lo + size
    assert not any(lo <= pc < lo + size for pc in c.pcs[r + 1:])


def _loop_count_skip(c):
    """The index of the skip of mb_p256_ladder_loop's `sub #1, 8(r1)` in its 100th turn."""
    lo, size = symbol(c.elf, "mb_p256_ladder_loop")
    code = read_bytes(c.elf, lo, size)
    # SUB #1, 8(r1): 0x8391 0x0008 (the constant generator's #1, indexed destination)
    at = next(lo + k for k in range(0, size - 3, 2)
              if code[k:k + 4] == bytes.fromhex("91830800"))
    hits = [i for i, pc in enumerate(c.pcs) if pc == at]
    assert len(hits) == 256
    return hits[99]


def test_ladder_loop_count_fault(tmp_path):
    for hardened in (False, True):
        c = _campaign("mpy32-asm", hardened, tmp_path)
        (status, text), = c.run_batch("skip", [(_loop_count_skip(c), 0)])
        got = classify_p256(status, text, c.want)
        assert got == (("error", False) if hardened else ("wrong", True)), (hardened, text)


def test_portable_loop_state_pointer_fault(tmp_path):
    """The portable build's ladder loop (src/curve/p256_ladder_loop.c, -O2) keeps w in
    its frame: a skipped spill of it at the entry sends all 256 steps to whatever the
    slot held, while the loop's own checks (steps, bits rebuilt from its swaps) pass and
    the caller's state keeps its first points, a valid point of a short scalar: 0 and a
    wrong secret before the caller counted the steps done on its own state (p256.h's
    `steps`, found by the campaign as a stray wipe store into that slot). Now -1."""
    try:
        elf = P.image("mpy32", True)
    except FileNotFoundError as e:
        pytest.fail(str(e))
    c = P.P256Campaign(elf, 32, tmp_path)
    lo, size = symbol(c.elf, "mb_p256_ladder_loop")
    code = read_bytes(c.elf, lo, size)
    # the prologue: push (one word each), sub #N, r1, mov r13, x(r1), mov r12, x(r1)
    # (MOV r12 to an indexed destination: 0x4c81 and the offset word)
    k, n = 0, 0
    while code[k:k + 2] != bytes.fromhex("814c"):
        k += 2 if code[k + 1] == 0x12 else 4          # push rN; the others take a word
        n += 1
        assert k < 40, "no spill of w in mb_p256_ladder_loop's prologue"
    p = _sim(*c.base[1:], "--fault-range", f"{lo:#x}:{lo + size:#x}", "--fault-skip", n,
             c.elf)
    assert f"skip #{n} at {lo + k:#07x}".encode() in p.stderr, p.stderr
    assert classify_p256(p.returncode, p.stdout.decode(), c.want) == ("error", False), \
        p.stdout


@pytest.mark.parametrize("hardened", [True, False])
def test_short_campaign_asm(tmp_path, hardened):
    c = _campaign("mpy32-asm", hardened, tmp_path)
    total = 0
    for model in ("skip", "flip", "load"):
        res = c.run(model, 20)
        assert res["faults"] == 20 and sum(res[k] for k in ("crash", "error", "correct",
                                                             "wrong")) == 20
        total += res["exploitable"]
        if hardened:
            assert res["exploitable"] == 0, res["exploits"]
    assert hardened or total > 0
