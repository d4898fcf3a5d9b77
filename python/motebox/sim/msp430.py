# SPDX-License-Identifier: MIT
"""The MSP430X (MSP430FR5969) cycle-accurate simulator, build/sim/msp430sim.

    motebox sim msp430 [--mpy 32|16] [--cycles] [--stack] [--trace FILE]
                       [--trace-hash] [--max-cycles N] FIRMWARE.elf

`main(argv)` runs the simulator binary with the options passed through and returns
its exit status: the program's own (written to SIM_EXIT), or 201..209 for a
simulator error (illegal instruction, bad memory access, unaligned access, stack
limit, multiplier result read too early, --max-cycles, ELF load, usage, hang).

`run(elf, ...)` is the API for tests and benchmarks.
"""
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]

# Simulator error statuses (sim/msp430/sim.h).
ERRORS = {
    201: "illegal instruction",
    202: "memory access outside RAM/FRAM/peripherals",
    203: "unaligned word access",
    204: "stack below SIM_STACK_LIMIT",
    205: "multiplier result read before ready",
    206: "max cycles reached",
    207: "ELF load error",
    208: "usage error",
    209: "program hangs",
}


def sim_path():
    """Path of the simulator binary ($MOTEBOX_BUILD/sim/msp430sim)."""
    build = Path(os.environ.get("MOTEBOX_BUILD", REPO / "build"))
    return build / "sim" / "msp430sim"


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str
    cycles: int
    stack: int
    trace_hash: str | None
    instructions: int | None

    @property
    def error(self):
        """The simulator's error message, or None."""
        m = re.search(r"^msp430sim: .*$", self.stderr, re.M)
        return m.group(0) if m else None


def run(elf, mpy=32, trace=False, trace_file=None, max_cycles=None, stats=False,
        timeout=600, sim=None):
    """Run `elf` on the simulator; returns a Result (exit code, console, cycles,
    stack high-water mark in bytes, trace hash if trace or trace_file)."""
    if mpy not in (16, 32):
        raise ValueError(f"mpy must be 16 or 32, not {mpy!r}")
    cmd = [str(sim or sim_path()), "--mpy", str(mpy), "--cycles", "--stack"]
    if trace_file is not None:
        cmd += ["--trace", str(trace_file)]
    elif trace:
        cmd += ["--trace-hash"]
    if max_cycles is not None:
        cmd += ["--max-cycles", str(int(max_cycles))]
    if stats:
        cmd += ["--stats"]
    cmd.append(str(elf))
    p = subprocess.run(cmd, capture_output=True, timeout=timeout)
    err = p.stderr.decode("utf-8", "replace")

    def field(name, conv=int):
        m = re.search(rf"^{name}: (\S+)$", err, re.M)
        return conv(m.group(1)) if m else None

    return Result(
        returncode=p.returncode,
        stdout=p.stdout.decode("latin-1"),
        stderr=err,
        cycles=field("cycles"),
        stack=field("stack"),
        trace_hash=field("trace-hash", str),
        instructions=field("instructions"),
    )


def main(argv):
    """`motebox sim msp430 ...`: pass the options to the simulator, return its status."""
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 0 if argv else 208
    exe = sim_path()
    if not exe.exists():
        print(f"motebox: {exe} missing: run `make msp430sim` first", file=sys.stderr)
        return 208
    return subprocess.run([str(exe), *argv]).returncode
