# SPDX-License-Identifier: MIT
"""The coprocessor's power traces (hw/leak, python/motebox_tools/leak/record_hw.py): the
register-toggle model counts the right flip-flops, the plain DH-1 fails TVLA and the
lab's randomized DH-1 passes it, and both compute X25519 (RFC 7748, libsodium)."""
import json
import os
import sys

import pytest

from hwsim import BUILD, need
from motebox_tools.leak import campaign
from motebox_tools.leak.inputs import LeakInput
from motebox_tools.leak.record_hw import (LADDER_STEP_CYCLES, HwRecorder, LeakSim,
                                          lambda_of)
from motebox_tools.leak.stats import THRESHOLD, max_abs
from vectors import rfc7748

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "hw", "leak"))
import regs  # noqa: E402

W = 16
PLAIN_SIM = BUILD / "leak" / f"W{W}" / "vleak"


def popcount(x):
    return bin(x).count("1")


def le_words(b):
    return [int.from_bytes(b[4 * i:4 * i + 4], "little") for i in range(8)]


@pytest.fixture(scope="module")
def sim():
    s = LeakSim(need(PLAIN_SIM))
    yield s
    s.close()


def test_toggle_counts_of_host_writes_and_reads(sim):
    """Host writes flip only RAM cells (popcount of old ^ new per word); host reads flip
    only the RAM output register (distance between successive words); nothing else."""
    p = bytes(range(1, 33))
    q = bytes((0xA5 ^ (7 * i)) & 0xFF for i in range(32))
    sim.write(1, q)
    sim.write(0, bytes(32))
    sim.arm(8)
    sim.write(0, p)
    x = sim.recorded()
    assert list(x[2]) == [popcount(w) for w in le_words(p)]
    assert not x[0].any() and not x[1].any()
    sim.write(0, q)                       # over p: old ^ new
    sim.arm(8)
    sim.write(0, p)
    assert list(sim.recorded()[2]) == [popcount(a ^ b) for a, b in zip(le_words(q), le_words(p))]
    assert sim.read(1) == q               # the output register now holds q's last word
    sim.arm(8)
    assert sim.read(0) == p
    x = sim.recorded()
    prev = [le_words(q)[7]] + le_words(p)[:7]
    assert list(x[0]) == [popcount(a ^ b) for a, b in zip(prev, le_words(p))]
    assert not x[1].any() and not x[2].any()


def test_register_list_is_the_rtl_flip_flops():
    got = {name.split("__DOT__")[-1]: ch for ch, name in regs.registers()}
    # every register of the pipeline, the ALU, the multiplier controller and the RAM
    for name in ("pc", "ret", "cnt", "page", "swap", "flag", "s2_valid", "ir2", "s2_addr",
                 "rom_q", "s2_bit", "acc", "rot", "ma", "pf", "mb", "step", "mstate",
                 "mk", "wi", "mi", "a_src", "b_src", "mlast", "busy", "mem", "rdata"):
        assert name in got, name
    assert len(got) == 27                 # nothing combinational (m_rd, m_addr...)
    assert got["acc"] == got["rdata"] == "datapath"
    assert got["pc"] == got["swap"] == "control"
    assert got["mem"] == "ram"


@pytest.mark.parametrize("function,rom,label", [
    ("x25519", "rom.json", "ladder"),
    ("x25519_randomized", "leak/rom_rand.json", "rladder")])
def test_ladder_step_cycles(function, rom, label):
    """The recorder's step length is the reference model's (first three steps)."""
    from asip import ASIP, ModelError
    with open(need(BUILD / rom)) as f:
        img = json.load(f)
    m = ASIP(img, W)
    m.ram.append([0] * 8)                 # the variant's tenth bank (unused by DH-1)
    m.ram[9] = [2] + [0] * 7
    m.trace = []
    m.write(0, bytes(range(32)))
    m.write(1, bytes([9]) + bytes(31))
    with pytest.raises(ModelError):
        m.run("DH1", max_instr=4000)
    t = [c for c, pc, _ in m.trace if pc == img["labels"][label]]
    assert len(t) >= 3
    assert t[1] - t[0] == t[2] - t[1] == LADDER_STEP_CYCLES[function][W]


@pytest.mark.parametrize("function", ["x25519", "x25519_randomized"])
def test_dh1_results(function):
    """RFC 7748 section 5.2 vectors (and libsodium, in check) on both ROMs."""
    rec = HwRecorder(function=function)
    try:
        for i, (scalar, u, out) in enumerate(rfc7748()):
            inp = LeakInput(function, scalar, u, bytes([i + 1]) * 32)
            _, _, got = rec.run(inp, 1, True)
            assert got == out
        rec.check(LeakInput(function, os.urandom(32), os.urandom(32), os.urandom(32)))
    finally:
        rec.close()


def test_lambda_is_even_and_nonzero():
    assert lambda_of(bytes(32)) == (2).to_bytes(32, "little")
    assert lambda_of(b"\x01" + bytes(31)) == (2).to_bytes(32, "little")
    assert lambda_of(b"\x07" + bytes(31)) == (6).to_bytes(32, "little")
    assert lambda_of(b"\xff" * 32) == ((1 << 255) - 2).to_bytes(32, "little")
    assert lambda_of(b"\x07" + bytes(31), even=False) == (7).to_bytes(32, "little")


def tvla(function, traces, steps, **kw):
    rec = HwRecorder(function=function, check_every=traces, **kw)
    try:
        row, t = campaign.tvla("hw", "rtl", function, traces=traces, seed=3, rec=rec,
                               samples=steps * LADDER_STEP_CYCLES[function][W])
    finally:
        rec.close()
    return row, t[1]


def test_plain_dh1_fails_tvla():
    row, t = tvla("x25519", 300, 1)
    assert row["max_abs_t"] > 5 * THRESHOLD
    # constant time: the control registers toggle identically for every input
    _, tc = tvla("x25519", 100, 1, channels=("control",))
    assert max_abs(tc) == 0


def test_randomized_dh1_passes_tvla():
    row, t = tvla("x25519_randomized", 300, 2)
    assert row["max_abs_t"] <= THRESHOLD, row


@pytest.mark.slow
def test_odd_lambda_leaks_the_parity_of_u():
    """The negative control of lambda_of's even lambda (about 3 min on one core)."""
    row, t = tvla("x25519_randomized", 4000, 2, even_lambda=False)
    assert row["max_abs_t"] > THRESHOLD
    row, t = tvla("x25519_randomized", 4000, 2)
    assert row["max_abs_t"] <= THRESHOLD
