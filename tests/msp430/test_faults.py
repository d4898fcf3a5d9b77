# SPDX-License-Identifier: MIT
"""Fault injection on the MSP430 simulator (msp430sim --fault-*, docs/FAULTS.md) and the
single-fault campaign of `motebox fault` (python/motebox_tools/fault.py):
- the injector against tiny programs whose outcome under each fault is known by hand: a
  skipped taken branch changes the exit status, a bit flipped in a dead register does
  not, a flipped bit of a register or of a loaded word shows in the result;
- the batch mode (--fault-batch: one process forks per fault) gives each fault the
  status of its own run;
- the exhaustive skip and register-bit-flip campaigns on the secretbox open (tag check and
  output masking) of the portable mpy32 build with a forged box (made by libsodium, one
  tag byte complemented): zero accepted forgeries and zero released plaintext; the same
  skip campaign on the unhardened open (MB_FAULT_HARDENED=0) must find some, so the
  campaign can fail; the box open's skip and register flip campaigns on the assembly
  build (its skipped final return and a flipped MAC key pointer were exploitable), and
  the skips of the open of a box from a low-order key (made with the key of a zero
  shared secret): refused whatever single instruction is skipped."""
import subprocess

import pytest

from sim430_asm import SIM_EXIT, build, have_toolchain
from motebox_tools import fault
from motebox_tools.boards import msp430 as t430
from motebox_tools.elf import symbol
from motebox_tools.sim import msp430 as sim

needs_tools = pytest.mark.skipif(not have_toolchain(), reason="needs clang and ld.lld")

# counted instructions: 0 mov #1,r12; 1 tst r12; 2 jnz done; 3 mov #0,r15 (r15 is dead);
# 4 mov r12,&SIM_EXIT. Exit status 1; 7 when the branch is not taken.
BRANCH = f"""
  mov #1, r12
  tst r12
  jnz done
  mov #7, r12
done:
  mov #0, r15
end:
  mov r12, &{SIM_EXIT:#x}
"""
# 0 mov &val,r12; 1 mov r12,&SIM_EXIT: exit status 4.
LOAD = f"""
  mov &val, r12
  mov r12, &{SIM_EXIT:#x}
val:
  .word 4
"""


def fsim(elf, *opts):
    if not t430.have_sim():
        pytest.fail(f"{sim.sim_path()} missing: run `make msp430sim`")
    p = subprocess.run([str(sim.sim_path()), *opts, str(elf)], capture_output=True, text=True,
                       timeout=60)
    return p.returncode, p.stderr


@needs_tools
def test_injector_on_known_program(tmp_path):
    elf = build(BRANCH, tmp_path, "branch")
    assert fsim(elf)[0] == 1
    rc, err = fsim(elf, "--fault-count")
    assert rc == 1 and "fault-window: 5" in err, err
    # skipping the taken branch runs the mov #7
    rc, err = fsim(elf, "--fault-skip", "2")
    assert rc == 7 and "fault-injected: skip #2" in err, err
    # skipping the first mov leaves r12 = 0: the branch is not taken either
    assert fsim(elf, "--fault-skip", "0")[0] == 7
    # a skipped instruction that writes a dead register changes nothing
    assert fsim(elf, "--fault-skip", "3")[0] == 1
    # a bit flipped in the dead register r15 changes nothing; in r12 it shows
    rc, err = fsim(elf, "--fault-flip", "3:d:5")
    assert rc == 1 and "flip R15 bit 5" in err, err
    assert fsim(elf, "--fault-flip", "0:d:1")[0] == 3
    assert fsim(elf, "--fault-flip", "0:12:2")[0] == 5
    # a flag flip after tst (SR is its destination): Z set, the jnz falls through
    rc, err = fsim(elf, "--fault-flip", "1:d:1")
    assert rc == 7 and "flip R2 bit 1" in err, err
    # a window between two addresses, and the list of its instructions
    done, end = symbol(elf, "done")[0], symbol(elf, "end")[0]
    lst = tmp_path / "list.txt"
    rc, err = fsim(elf, "--fault-window", f"{done:#x}:{end:#x}", "--fault-list", str(lst))
    assert rc == 1 and "fault-window: 1" in err, err
    assert lst.read_text().split() == ["0", f"{done:05x}", "15", "0"]
    # and an instruction outside the window is never faulted
    assert fsim(elf, "--fault-window", f"{done:#x}:{end:#x}", "--fault-skip", "1")[0] == 1


@needs_tools
def test_injector_load_flip(tmp_path):
    elf = build(LOAD, tmp_path, "load")
    assert fsim(elf)[0] == 4
    rc, err = fsim(elf, "--fault-load", "0:0")
    assert rc == 5 and "fault-injected: load bit 0" in err, err
    # the store reads nothing: no fault, and the report says so
    rc, err = fsim(elf, "--fault-load", "1:0")
    assert rc == 4 and "loads nothing" in err, err


def test_bad_fault_options():
    if not t430.have_sim():
        pytest.fail(f"{sim.sim_path()} missing: run `make msp430sim`")
    for opts in (["--fault-skip", "-1"], ["--fault-flip", "1:16:0"], ["--fault-flip", "1:d:20"],
                 ["--fault-load", "1"], ["--fault-skip", "1", "--fault-skip", "2"],
                 ["--fault-window", "12"]):
        p = subprocess.run([str(sim.sim_path()), *opts, "x.elf"], capture_output=True, timeout=30)
        assert p.returncode == 208, opts


def _batch(elf, tmp_path, lines):
    src, dst = tmp_path / "batch.in", tmp_path / "batch.out"
    src.write_text("".join(line + "\n" for line in lines))
    p = subprocess.run([str(sim.sim_path()), "--fault-batch", str(src), str(dst), str(elf)],
                       capture_output=True, timeout=60)
    assert p.returncode == 1, p.stderr    # the unfaulted run's own status
    data, out, pos = dst.read_bytes(), [], 0
    while pos < len(data):
        nl = data.index(b"\n", pos)
        line, status, n = map(int, data[pos:nl].split())
        assert line == len(out) and n == 0    # in the input's order; no console output
        out.append(status)
        pos = nl + 1
    return out


@needs_tools
def test_fault_batch_matches_single_runs(tmp_path):
    elf = build(BRANCH, tmp_path, "branch")
    lines = ["skip 3", "skip 2", "flip 3 0", "flip 0 1", "skip 0", "skip 9", "flip 2 0"]
    single = {"skip 3": ["--fault-skip", "3"], "skip 2": ["--fault-skip", "2"],
              "flip 3 0": ["--fault-flip", "3:d:0"], "flip 0 1": ["--fault-flip", "0:d:1"],
              "skip 0": ["--fault-skip", "0"], "flip 2 0": ["--fault-flip", "2:d:0"]}
    got = _batch(elf, tmp_path, lines)
    want = [fsim(elf, *single[line])[0] if line in single else -1 for line in lines]
    assert got == want and 7 in got and -1 in got, (got, want)   # skip 9: never reached
    for bad in (["skip"], ["flip 1"], ["load 1 16"], ["jump 1"]):
        (tmp_path / "bad.in").write_text("\n".join(bad) + "\n")
        p = subprocess.run([str(sim.sim_path()), "--fault-batch", str(tmp_path / "bad.in"),
                            str(tmp_path / "bad.out"), str(elf)], capture_output=True, timeout=30)
        assert p.returncode == 208 and b"fault batch" in p.stderr, (bad, p.stderr)


def _firmware(variant="mpy32"):
    elf = t430.firmware("fault", variant=variant)
    if not elf.exists():
        pytest.fail(f"{elf} missing: run `make msp430`")
    return elf


@pytest.mark.parametrize("model", ["skip", "flip"])
def test_open_campaign_no_exploitable(tmp_path, model):
    c = fault.Campaign(_firmware(), 32, "secretbox_open", workdir=tmp_path)
    c.prepare()
    assert {n for n, _, _ in c.ranges} >= {"open_masked", "mb_verify16", "tag_check2"}
    assert len(c.insns) > 500
    res = c.run(model)
    assert res["faults"] >= len(c.insns)
    assert res["error"] > 0.5 * res["faults"]
    assert res["exploitable"] == 0, res["exploits"][:20]


def test_campaign_finds_unhardened_exploits(tmp_path):
    _firmware()
    elf = fault.unhardened_image("mpy32", tmp_path)
    c = fault.Campaign(elf, 32, "secretbox_open", workdir=tmp_path / "c")
    c.prepare()
    res = c.run("skip")
    fns = {f for _, _, f, _ in res["exploits"]}
    assert res["exploitable"] > 0 and "mb_verify16" in fns, res


@pytest.mark.parametrize("target,model", [("box_open", "skip"), ("box_open", "flip"),
                                          ("box_open_low_order", "skip")])
def test_box_open_campaign_asm_no_exploitable(tmp_path, target, model):
    if "mpy32-asm" not in t430.variants():
        pytest.skip("no MSP430X assembly build")
    c = fault.Campaign(_firmware("mpy32-asm"), 32, target, workdir=tmp_path)
    c.prepare()
    assert {n for n, _, _ in c.ranges} >= {"mb_box_open", "open_masked", "mac_key_check"}
    assert c.caller_return == c.insns[-1][0]     # ends with mb_box_open's ret
    res = c.run(model)
    assert res["faults"] >= len(c.insns) - 1
    assert res["exploitable"] == 0, res["exploits"][:20]


def test_genuine_open_on_target(tmp_path):
    # the unfaulted firmware opens libsodium's genuine box to its plaintext
    assert fault.open_cycles(_firmware(), 32, "secretbox_open", tmp_path) > 0
