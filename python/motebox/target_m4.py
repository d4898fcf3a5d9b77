# SPDX-License-Identifier: MIT
"""Run Cortex-M4 firmware built for the mps2-an386 board (platforms/mps2-an386/): under
QEMU, or in motebox's cycle model (`motebox sim m4`), and patch input symbols of an ELF.

Used by the target tests (tests/m4/test_target_*.py), the bench script (bench/run_m4.py)
and the Cortex-M4 demo node (motebox.demo_m4)."""
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

from .elf import patch_elf, symbol  # noqa: F401  (re-exported for the tests and bench)

REPO = Path(__file__).resolve().parents[2]
QEMU = "qemu-system-arm"
# Semihosting console on stdout, nothing else attached (docs: /work/shared/TOOLCHAIN.md).
QEMU_ARGS = ["-M", "mps2-an386", "-display", "none", "-monitor", "none", "-serial", "none",
             "-chardev", "stdio,id=c0",
             "-semihosting-config", "enable=on,target=native,chardev=c0", "-kernel"]


def build_dir():
    """build/m4 of the tree (or of $MOTEBOX_BUILD)."""
    return Path(os.environ.get("MOTEBOX_BUILD", REPO / "build")) / "m4"


def have_qemu():
    return shutil.which(QEMU) is not None


def have_model():
    """True when the cycle model (motebox.sim.m4) is importable."""
    try:
        return importlib.util.find_spec("motebox.sim.m4") is not None
    except ImportError:
        return False


def run_qemu(elf, timeout=600):
    """Run elf under QEMU; returns (exit status, stdout text)."""
    p = subprocess.run([QEMU, *QEMU_ARGS, str(elf)], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout, stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout.decode(errors="replace")


def run_model(elf, timeout=1200, options=()):
    """Run elf in the cycle model, as `motebox sim m4 [options] elf` does, in a child
    process; returns (exit status, stdout text, stderr text)."""
    code = "import sys; from motebox.sim.m4 import main; sys.exit(main(sys.argv[1:]))"
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO / "python") + os.pathsep + env.get("PYTHONPATH", "")
    p = subprocess.run([sys.executable, "-c", code, *options, str(elf)], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout, env=env,
                       stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


