# SPDX-License-Identifier: MIT
"""`msp430sim --profile [FILE]`: cycles per function, against a small program whose
per-function cycles are added up by hand from the cycle table of
docs/MSP430_TIMING.md (SLAU367 Tables 4-9, 4-10, 4-17, 4-19; derivation beside each
instruction). The program has every kind of function symbol the profiler names (a
sized STT_FUNC, an STT_FUNC without size holding a local label, a global label, a
local label after a sized function), calls by CALL and CALLA, returns by RET, RETA
and a jump from one function into another's body, and a recursion (inclusive cycles
counted for the outermost activation only). Also: the table's layout is the Cortex-M4
model's (`format_profile`), the exclusive cycles add up to the run's cycles, the
profile is written after a simulator error too, and the option's argument forms."""
import re
import subprocess

import pytest

from sim430_asm import RETA, build, have_toolchain, sim, words

pytestmark = pytest.mark.skipif(not have_toolchain(), reason="needs clang and ld.lld")

PROGRAM = f"""
  mov #0x2400, sp          ; #N -> Rm                      2
  call #f                  ; CALL #N                       4
  call #f                  ;                               4
  .word 0x13b0, g          ; CALLA #N (imm20)              5
  mov #3, r5               ; #N -> Rm (3: no constant)     2
  call #r                  ; CALL #N                       4
  mov #42, &0x0ff2         ; #N -> mem 5, MOV -1           4  (exit 42)
                           ; _start: 25
  .globl f
  .type f, @function
f:
  add r5, r6               ; Rn -> Rm                      1
  call #h                  ; CALL #N                       4
  ret                      ; MOV @SP+, PC                  4  (f: 9 a call)
  .size f, .-f

  .type h, @function       ; no .size: runs to the next function symbol (k)
h:
  mov #0x1234, r7          ; #N -> Rm                      2
hmid:                      ; a local label inside h: not a function
  jmp .Lk_body             ; jump                          2  (h: 4 a call)

  .globl k                 ; a global label: a function of its own
k:
  add r5, r7               ; Rn -> Rm                      1
.Lk_body:
  add r6, r7               ; Rn -> Rm                      1
  ret                      ;                               4  (k: 6 called, 5 entered by h's jmp)

  .type r, @function
r:
  sub #1, r5               ; #1 = constant generator: Rn   1
  jz .Lr_done              ; jump                          2
  call #r                  ; CALL #N                       4
.Lr_done:
  ret                      ;                               4  (11, 11, 7 for r5 = 3)
  .size r, .-r

g:                         ; a local label after the sized r
  push r5                  ; PUSH Rn                       3
  pop r5                   ; MOV @SP+, Rm                  2
  call #k                  ; CALL #N                       4
{words(RETA)}               ; RETA = MOVA @SP+, PC          5  (g: 14)
"""

# name: (calls, self, inclusive), from the per-instruction cycles above.
EXPECTED = {
    "_start": (0, 25, 110),           # the run: inclusive = every cycle
    "r": (3, 11 + 11 + 7, 29),        # recursion: inclusive of the outermost only (not 29+18+7)
    "k": (1, 2 * 5 + 6, 6),           # called once by g; h's tail jumps are h's activations
    "f": (2, 2 * 9, 2 * (9 + 4 + 5)),
    "g": (1, 14, 14 + 6),
    "h": (2, 2 * 4, 2 * (4 + 5)),     # h's activation ends at k's RET
}
TOTAL = 25 + 29 + 16 + 18 + 14 + 8


def parse(text):
    """{name: (calls, self, inclusive)} and the rows in order, from a profile table."""
    lines = text.strip("\n").split("\n")
    assert lines[0].split() == ["function", "calls", "self", "self%", "inclusive"]
    rows = []
    for line in lines[1:]:
        m = re.fullmatch(r"(.{40}) +(\d+) +(\d+) +(\d+\.\d\d) +(\d+)", line)
        assert m, line
        rows.append((m.group(1).rstrip(), int(m.group(2)), int(m.group(3)), float(m.group(4)),
                     int(m.group(5))))
    return {r[0]: (r[1], r[2], r[4]) for r in rows}, rows


def table_of(stderr):
    """The profile table at the end of stderr (after the other reports)."""
    i = stderr.index("function ")
    return stderr[i:]


@pytest.fixture(scope="module")
def elf(tmp_path_factory):
    return build(PROGRAM, tmp_path_factory.mktemp("profile"), "prof")


def simrun(*args):
    p = subprocess.run([str(sim.sim_path()), *map(str, args)], capture_output=True, timeout=60)
    return p.returncode, p.stdout.decode("latin-1"), p.stderr.decode()


def test_profile_counts_exact(elf, tmp_path):
    out = tmp_path / "p.txt"
    status, _, err = simrun("--cycles", "--profile", out, elf)
    assert status == 42, err
    assert f"cycles: {TOTAL}\n" in err
    assert "function" not in err            # the table went to the file
    prof, rows = parse(out.read_text())
    assert prof == EXPECTED
    assert sum(r[2] for r in rows) == TOTAL                 # every cycle charged once
    assert [r[2] for r in rows] == sorted((r[2] for r in rows), reverse=True)
    for name, calls, self_, pct, incl in rows:
        assert pct == pytest.approx(round(100 * self_ / TOTAL, 2), abs=0.006)


def test_layout_is_the_m4_models(elf):
    from motebox_tools.sim.m4.profile import format_profile
    status, _, err = simrun("--cycles", "--profile", elf)       # no FILE: stderr
    assert status == 42
    table = table_of(err)
    assert err.index(f"cycles: {TOTAL}") < err.index(table)     # after the other reports
    _, rows = parse(table)
    prof = {name: {"calls": c, "self": s, "inclusive": i, "instructions": 0}
            for name, c, s, _, i in rows}
    assert table.rstrip("\n") == format_profile(prof, TOTAL)


@pytest.mark.parametrize("form", ["before", "after", "equals"])
def test_option_forms(elf, tmp_path, form):
    out = tmp_path / "p.txt"
    args = {"before": ["--profile", out, elf], "after": [elf, "--profile", out],
            "equals": [f"--profile={out}", elf]}[form]
    status, _, err = simrun(*args)
    assert status == 42, err
    assert parse(out.read_text())[0] == EXPECTED


def test_no_profile_without_the_flag(elf):
    status, _, err = simrun("--cycles", elf)
    assert status == 42 and err == f"cycles: {TOTAL}\n"


def test_profile_after_a_fault(elf):
    # --max-cycles 40 stops after the instruction that reaches it: _start 2 + 4, f's
    # first call 9 + h 4 + k 5 (24), _start's second CALL (28), f's add and CALL (33),
    # h 4 (37), k's add and RET (42), which ends h's activation; f's and _start's are
    # still open and end at the fault.
    status, _, err = simrun("--cycles", "--max-cycles", 40, "--profile", elf)
    assert status == 206
    assert "cycles: 42\n" in err
    prof, rows = parse(table_of(err))
    assert prof == {"_start": (0, 10, 42), "f": (2, 9 + 5, 18 + 14), "h": (2, 8, 18), "k": (0, 10, 0)}


def test_python_passes_the_option_through(elf, tmp_path):
    out = tmp_path / "p.txt"
    r = sim.run(elf, extra=["--profile", str(out)])
    assert r.status == 42 and r.cycles == TOTAL
    assert parse(out.read_text())[0] == EXPECTED
