# SPDX-License-Identifier: MIT
"""The MSP430X (MSP430FR5969) cycle-accurate simulator, build/sim/msp430sim (sim/msp430/).

    motebox sim msp430 [--mpy 32|16] [--cycles] [--stack] [--trace FILE]
                       [--trace-hash] [--max-cycles N] [--stats]
                       [--profile [FILE]] FIRMWARE.elf

`main(argv)` runs the simulator binary with the options passed through unchanged (new
simulator options need no change here) and returns its exit status: the program's own
(written to SIM_EXIT), or 201..213 for a simulator error (`ERRORS`; `msp430sim --help`).
Every run has a cycle budget (`DEFAULT_MAX_CYCLES` unless --max-cycles says otherwise;
0 = none): a program that never exits ends with status 206.

`run(elf, ...)` is the API for tests, boards and benchmarks: it returns a `Run` (exit
status, console, cycles, stack, trace hash, and optionally the hash of a window of the
execution trace, streamed through a pipe).
"""
import hashlib
import os
import re
import subprocess
import sys
import tempfile
import threading

from ..paths import build_root

MPYS = (32, 16)

# Simulator error statuses (sim/msp430/sim.h).
ERRORS = {
    201: "illegal instruction",
    202: "memory access or instruction fetch outside RAM/FRAM/peripherals",
    203: "unaligned word access",
    204: "stack overflow (below SIM_STACK_LIMIT or the image's data)",
    205: "multiplier result read before ready",
    206: "cycle budget spent (--max-cycles)",
    207: "ELF unreadable, malformed or not MSP430",
    208: "usage error",
    209: "program hangs",
    210: "ELF section outside RAM/FRAM",
    211: "power cut (--power-cut N, sim/msp430/nvm.h)",
    212: "converged with the unfaulted run (--fault-snap-in)",
    213: "write into the image's code (--protect-code)",
}
DEFAULT_MAX_CYCLES = 20_000_000_000   # SIM_DEFAULT_MAX_CYCLES of sim/msp430/sim.h


def sim_path():
    """Path of the simulator binary ($MOTEBOX_BUILD/sim/msp430sim)."""
    return build_root() / "sim" / "msp430sim"


def asan_sim_path():
    """The same simulator built with ASan/UBSan ($MOTEBOX_BUILD/sim/msp430-sim-asan,
    `make msp430sim-asan`), for the robustness tests."""
    return build_root() / "sim" / "msp430-sim-asan"


def have_sim():
    return os.access(sim_path(), os.X_OK)


class Run:
    """Outcome of one simulator run: status (also `returncode`), stdout (the firmware's
    console, latin-1 so every byte survives), stderr, and what the simulator reported on
    stderr: cycles, stack, trace_hash, instructions (None when not reported)."""

    def __init__(self, status, stdout, stderr):
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.cycles = _stat(stderr, "cycles")
        self.stack = _stat(stderr, "stack")
        self.instructions = _stat(stderr, "instructions")
        m = re.search(r"^trace-hash: ([0-9a-f]+)$", stderr, re.M)
        self.trace_hash = m.group(1) if m else None
        self.window = None      # (sha256 hex, instructions) of a trace window, if asked

    @property
    def returncode(self):
        return self.status

    @property
    def error(self):
        """The simulator's error message, or None."""
        m = re.search(r"^msp430sim: .*$", self.stderr, re.M)
        return m.group(0) if m else None

    def __repr__(self):
        return (f"Run(status={self.status}, cycles={self.cycles}, stack={self.stack}, "
                f"stderr={self.stderr[-300:]!r})")


Result = Run


def _stat(text, name):
    m = re.search(rf"^{name}: (\d+)", text, re.M)
    return int(m.group(1)) if m else None


def run(elf, mpy=32, timeout=900, max_cycles=None, window=None, trace=False,
        trace_file=None, stats=False, extra=(), sim=None, profile_file=None):
    """Run elf on the simulator with --cycles --stack and --mpy. trace: --trace-hash;
    trace_file: write the trace there; stats: --stats; profile_file: write the
    per-function profile there (--profile FILE); extra: more simulator options.
    With window = (begin_pc, end_pc), the execution trace is streamed through a pipe and
    the part from the first instruction at begin_pc up to (excluding) the first
    instruction at end_pc is hashed: executed addresses and data addresses, in order
    (Run.window)."""
    if mpy not in MPYS:
        raise ValueError(f"mpy must be 32 or 16, not {mpy!r}")
    cmd = [str(sim or sim_path()), "--mpy", str(mpy), "--cycles", "--stack"]
    if trace_file is not None:
        cmd += ["--trace", str(trace_file)]
    elif trace:
        cmd += ["--trace-hash"]
    if max_cycles is not None:
        cmd += ["--max-cycles", str(int(max_cycles))]
    if stats:
        cmd += ["--stats"]
    if profile_file is not None:
        cmd += ["--profile", str(profile_file)]
    cmd += list(extra)
    if window is None:
        p = subprocess.run(cmd + [str(elf)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           stdin=subprocess.DEVNULL, timeout=timeout)
        return Run(p.returncode, p.stdout.decode("latin-1"), p.stderr.decode(errors="replace"))
    with tempfile.TemporaryDirectory(prefix="msp430trace") as d:
        fifo = os.path.join(d, "trace")
        os.mkfifo(fifo)
        p = subprocess.Popen(cmd + ["--trace", fifo, str(elf)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        out = {}
        readers = [threading.Thread(target=lambda k, f: out.__setitem__(k, f.read()),
                                    args=(k, f), daemon=True)
                   for k, f in (("stdout", p.stdout), ("stderr", p.stderr))]
        for t in readers:
            t.start()
        try:
            with open(fifo, "rb") as f:
                win = _window_hash(f, *window)
            p.wait(timeout=timeout)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
        for t in readers:
            t.join()
        r = Run(p.returncode, out["stdout"].decode("latin-1"),
                out["stderr"].decode(errors="replace"))
        r.window = win
        return r


def _window_hash(f, begin_pc, end_pc):
    """SHA-256 of the text trace (one line per instruction: PC then its data accesses)
    from the line of the first instruction at begin_pc to the line of the first at
    end_pc; returns (hexdigest, number of instructions) or None if a marker is missing."""
    begin = b"\n%05x" % begin_pc
    end = b"\n%05x" % end_pc
    h = hashlib.sha256()
    state = 0          # 0: before begin, 1: inside, 2: done
    carry = b"\n"      # the trace starts without a newline before the first PC
    lines = 0
    while True:
        chunk = f.read(1 << 20)
        if not chunk:
            break
        if state == 2:
            continue   # drain the pipe
        buf = carry + chunk
        keep = len(begin)  # markers may straddle chunks: keep a tail
        if state == 0:
            i = _line_find(buf, begin)
            if i < 0:
                carry = buf[-keep:]
                continue
            buf = buf[i:]
            state = 1
        j = _line_find(buf, end, 1)
        if j >= 0:
            h.update(buf[:j])
            lines += buf.count(b"\n", 0, j)
            state = 2
            continue
        h.update(buf[:-keep])
        lines += buf.count(b"\n", 0, len(buf) - keep)
        carry = buf[-keep:]
    if state != 2:
        return None
    return h.hexdigest(), lines


def _line_find(buf, marker, start=0):
    """Index of marker (b'\\nPPPPP') at a line start, followed by ' ' or a newline."""
    i = buf.find(marker, start)
    while i >= 0:
        k = i + len(marker)
        if k >= len(buf) or buf[k:k + 1] in (b" ", b"\n"):
            return i
        i = buf.find(marker, i + 1)
    return -1


def first_divergence(elf_a, elf_b, mpy, workdir, begin_pc):
    """Where the traces of two runs first differ, from the first instruction at begin_pc:
    (instruction number, line of a, line of b, function of a's PC). For diagnostics of a
    failed constant-time check (writes both traces to workdir; can be large)."""
    from ..elf import function_at
    paths = []
    for k, elf in enumerate((elf_a, elf_b)):
        path = os.path.join(workdir, f"trace{k}.txt")
        subprocess.run([str(sim_path()), "--mpy", str(mpy), "--trace", path, str(elf)],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=1800)
        paths.append(path)
    start = b"%05x" % begin_pc
    try:
        with open(paths[0], "rb") as fa, open(paths[1], "rb") as fb:
            n, inside = 0, False
            for la, lb in zip(fa, fb):
                inside = inside or (la.startswith(start) and lb.startswith(start))
                if inside:
                    n += 1
                    if la != lb:
                        pc = int(la[:5], 16)
                        return n, la.decode().strip(), lb.decode().strip(), function_at(elf_a, pc)
        return None
    finally:
        for p in paths:
            if os.path.exists(p):
                os.unlink(p)


def main(argv):
    """`motebox sim msp430 ...`: pass the options to the simulator, return its status."""
    exe = sim_path()
    if argv and argv[0] in ("-h", "--help") and exe.exists():
        return subprocess.run([str(exe), "--help"]).returncode   # options, exit statuses
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 0 if argv else 208
    if not exe.exists():
        print(f"motebox: {exe} missing: run `make msp430sim` first", file=sys.stderr)
        return 208
    return subprocess.run([str(exe), *argv]).returncode
