# SPDX-License-Identifier: MIT
"""Cycle model as a tool: newlib semihosting console, exit status, faults, limits, the
command line, and agreement with QEMU (mps2-an386) on the same ELF files."""
import os
import re
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "asm"))
from m4build import REPO, build_asm, build_c, run_model, run_qemu  # noqa: E402

ADP_APPLICATION_EXIT = 0x20026


def expected_crc():
    # Python's zlib CRC-32 is the outside reference for the program's arithmetic.
    data = bytes((i * 7 + 1) & 0xFF for i in range(1024))
    c = 0
    for _ in range(10):
        c = zlib.crc32(data, c)
    return c


@pytest.fixture(scope="module")
def hello(tmp_path_factory):
    return build_c(tmp_path_factory.mktemp("hello"), "hello.c", "hello.elf")


def test_printf_console_and_status(hello):
    res = run_model(hello)
    assert res.error is None
    assert res.stdout == b"hello from the M4, crc=%08x rounds=10\n" % expected_crc()
    assert res.stderr == b"to stderr 42\n"
    assert res.exit_code == 7
    assert res.cycles > res.instructions > 400_000   # every instruction costs >= 1
    assert 0 < res.max_stack < 4096


def test_same_as_qemu(hello):
    res = run_model(hello)
    assert run_qemu(hello) == (res.exit_code, res.stdout, res.stderr)


@pytest.mark.parametrize("status,how", [(0, 0), (3, 0), (5, 1), (0, 2)],
                         ids=["return0", "return3", "exit5", "abort"])
def test_exit_status_like_qemu(tmp_path, status, how):
    elf = build_c(tmp_path, "exits.c", defines=[f"STATUS={status}", f"EXIT_HOW={how}"])
    res = run_model(elf)
    assert run_qemu(elf) == (res.exit_code, res.stdout, res.stderr)
    if how < 2:
        assert res.exit_code == status
    else:
        assert res.exit_code != 0


@pytest.mark.parametrize("reason,status", [(ADP_APPLICATION_EXIT, 0), (0x20023, 1)])
def test_plain_sys_exit(tmp_path, reason, status):
    elf = build_asm(tmp_path, "sysexit.S", defines=[f"REASON={reason}"])
    res = run_model(elf)
    assert (res.exit_code, res.stdout) == (status, b"plain exit\n")
    assert run_qemu(elf) == (status, b"plain exit\n", b"")


def test_instruction_limit(tmp_path):
    res = run_model(build_asm(tmp_path, "faults.S", defines=["KIND=0"]),
                    max_instructions=100_000)
    assert res.exit_code == 124 and "limit" in res.error
    assert 100_000 <= res.instructions <= 100_100


def test_fault_is_reported(tmp_path):
    res = run_model(build_asm(tmp_path, "faults.S", defines=["KIND=1"]))
    assert res.exit_code == 125
    assert "UC_ERR_READ_UNMAPPED" in res.error or "unmapped" in res.error.lower()


def test_command_line(hello, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    trace = tmp_path / "t.trace"
    p = subprocess.run([sys.executable, "-m", "motebox_tools.sim.m4", "--cycles", "--stack",
                        "--trace", str(trace), str(hello)], capture_output=True, env=env)
    res = run_model(hello)
    assert p.returncode == 7
    assert p.stdout == res.stdout
    err = p.stderr.decode()
    assert f"cycles: {res.cycles}\n" in err
    assert f"stack: {res.max_stack}\n" in err
    text = trace.read_text()
    assert text.startswith("X") and re.search(r"^H [0-9a-f]{64}$", text, re.M)


def test_command_line_missing_file(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    p = subprocess.run([sys.executable, "-m", "motebox_tools.sim.m4", str(tmp_path / "nope.elf")],
                       capture_output=True, env=env)
    assert p.returncode == 125 and b"cannot open" in p.stderr
