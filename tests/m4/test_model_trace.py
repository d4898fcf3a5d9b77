# SPDX-License-Identifier: MIT
"""Cycle model's constant-time trace and per-function profile.

The trace hash covers executed blocks, IT-skipped instructions, every data address
(with size and direction) and divide operand widths, never data values; a program
whose secret changes only data must give the same hash and cycles when its code is
branch-free and table-free, and a different one when it branches or indexes on it."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "asm"))
from m4build import build_c, run_model  # noqa: E402


def traced(tmp_path_factory, secret, **flags):
    d = tmp_path_factory.mktemp("ct")
    defines = [f"SECRET={secret}"] + [f"{k}={v}" for k, v in flags.items()]
    return run_model(build_c(d, "ctcheck.c", defines=defines), trace=True)


@pytest.mark.parametrize("flags", [{}, {"BRANCHY": 0, "LOOKUP": 0}], ids=["default", "zero"])
def test_branch_free_code_same_trace(tmp_path_factory, flags):
    # both secrets nonzero: a zero initialiser would move `secret` from .data to .bss
    a = traced(tmp_path_factory, 0x5A, **flags)
    b = traced(tmp_path_factory, 0xA5, **flags)
    assert a.stdout == b.stdout == b"done\n"
    assert a.trace_hash == b.trace_hash
    assert a.cycles == b.cycles


def test_secret_branch_changes_trace(tmp_path_factory):
    a = traced(tmp_path_factory, 0x5A, BRANCHY=1)
    b = traced(tmp_path_factory, 0xA5, BRANCHY=1)
    assert a.trace_hash != b.trace_hash


def test_secret_index_changes_trace(tmp_path_factory):
    # same instructions, same cycles: only the data address differs
    a = traced(tmp_path_factory, 0x03, LOOKUP=1)
    b = traced(tmp_path_factory, 0x0C, LOOKUP=1)
    assert a.trace_hash != b.trace_hash
    assert a.cycles == b.cycles


def test_secret_it_select_changes_trace(tmp_path_factory):
    # instructions failing their IT condition are part of the trace (block-level
    # tracers miss this: the same blocks run and touch the same data)
    a = traced(tmp_path_factory, 0x5A, ITSELECT=1)
    b = traced(tmp_path_factory, 0xA5, ITSELECT=1)
    assert a.trace_hash != b.trace_hash
    assert a.cycles == b.cycles


def test_secret_divide_changes_trace(tmp_path_factory):
    # UDIV's time depends on its operands (TRM 3.3.1); the model charges a fixed 12
    # cycles but traces the operands' bit lengths
    a = traced(tmp_path_factory, 0x5A, DIVIDE=1)
    b = traced(tmp_path_factory, 0xA5, DIVIDE=1)
    assert a.trace_hash != b.trace_hash
    assert a.cycles == b.cycles


def test_trace_window(tmp_path_factory):
    # the secret branch runs after ct_end: outside the window the traces differ
    elfs = [build_c(tmp_path_factory.mktemp("ct"), "ctcheck.c",
                    defines=[f"SECRET={s}", "BRANCHY=1"]) for s in (0x5A, 0xA5)]
    whole = [run_model(e, trace=True).trace_hash for e in elfs]
    window = [run_model(e, trace_window=("ct_begin", "ct_end")).trace_hash for e in elfs]
    assert whole[0] != whole[1]
    assert window[0] == window[1] and window[0] not in whole


def test_trace_does_not_change_timing(tmp_path_factory):
    d = tmp_path_factory.mktemp("ct")
    elf = build_c(d, "ctcheck.c", defines=["SECRET=7", "BRANCHY=1"])
    assert run_model(elf, trace=True).cycles == run_model(elf).cycles


def test_profile(tmp_path_factory):
    d = tmp_path_factory.mktemp("prof")
    elf = build_c(d, "ctcheck.c", defines=["SECRET=7", "BRANCHY=1"])
    plain = run_model(elf)
    res = run_model(elf, profile=True)
    assert res.cycles == plain.cycles
    prof = res.profile
    assert prof["select_ct"]["calls"] == 50
    assert prof["select_branchy"]["calls"] == 1
    assert sum(e["self"] for e in prof.values()) == res.cycles
    assert sum(e["instructions"] for e in prof.values()) == res.instructions
    # the per-rule breakdown accounts for every cycle
    assert sum(res.rules.values()) == res.cycles
    assert res.rules["refill"] > 0 and res.rules["ls_pipelined"] < 0
    # a leaf's inclusive time is its own time
    assert prof["select_ct"]["inclusive"] == prof["select_ct"]["self"]
    assert prof["main"]["inclusive"] >= prof["select_ct"]["inclusive"] + prof["main"]["self"]
