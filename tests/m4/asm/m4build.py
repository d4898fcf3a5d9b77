# SPDX-License-Identifier: MIT
"""Builds the cycle-model test programs (tests/m4/test_model_*.py) with arm-none-eabi-gcc
into a temporary directory, and runs them in the model or in QEMU."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]

from motebox_tools.sim import m4  # noqa: E402  (python/ is on sys.path: conftest)

CC = "arm-none-eabi-gcc"
CFLAGS = ["-mcpu=cortex-m4", "-mthumb", "-nostartfiles", "-T", str(HERE / "m4test.ld")]
QEMU = ["qemu-system-arm", "-M", "mps2-an386", "-display", "none", "-monitor", "none",
        "-serial", "none", "-chardev", "stdio,id=c0",
        "-semihosting-config", "enable=on,target=native,chardev=c0", "-kernel"]


def need(tool):
    if shutil.which(tool) is None:
        pytest.fail(f"{tool} not found: run `make setup` (apt package list in mk/m4.mk)")


def build_timing(tmp, seq, funcs=""):
    """The timing harness (asm/timing.S) around `seq`, with `funcs` after the code."""
    need(CC)
    (tmp / "seq.inc").write_text(seq + "\n")
    (tmp / "funcs.inc").write_text(funcs + "\n")
    elf = tmp / "timing.elf"
    subprocess.run([CC, *CFLAGS, "-nostdlib", f"-I{tmp}", str(HERE / "timing.S"),
                    "-o", str(elf)], check=True)
    return elf


def build_c(tmp, source, name="prog.elf", defines=(), opt="-O2"):
    """A C program (asm/<source>) with newlib's semihosting (rdimon) and asm/startup.S."""
    need(CC)
    elf = tmp / name
    subprocess.run([CC, *CFLAGS, opt, "--specs=rdimon.specs", *[f"-D{d}" for d in defines],
                    str(HERE / "startup.S"), str(HERE / source), "-o", str(elf)], check=True)
    return elf


def build_asm(tmp, source, name="prog.elf", defines=()):
    """A stand-alone assembly program (asm/<source>, with its own vector table)."""
    need(CC)
    elf = tmp / name
    subprocess.run([CC, *CFLAGS, "-nostdlib", *[f"-D{d}" for d in defines],
                    str(HERE / source), "-o", str(elf)], check=True)
    return elf


def run_model(elf, **kw):
    return m4.run(elf, **kw)


def run_qemu(elf, timeout=60):
    """(exit status, stdout, stderr) of QEMU mps2-an386: semihosting stdout goes to the
    chardev (our stdout), the stderr handle to QEMU's stderr."""
    need(QEMU[0])
    p = subprocess.run(QEMU + [str(elf)], capture_output=True, timeout=timeout,
                       stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr
