# SPDX-License-Identifier: MIT
"""Run MSP430FR5969 firmware (platforms/msp430fr5969/, built by mk/msp430.mk) on the
motebox MSP430X simulator (build/sim/msp430sim, SIM430), patch input symbols of an ELF,
and hash a window of the simulator's execution trace.

Used by the target tests (tests/msp430/test_msp430_*.py), the bench
(motebox.bench_msp430) and the MSP430 demo node (motebox.demo_msp430)."""
import hashlib
import os
import re
import subprocess
import tempfile
import threading
from pathlib import Path

from .elf import patch_elf, symbol  # noqa: F401  (re-exported for the tests and bench)

REPO = Path(__file__).resolve().parents[2]
MPYS = (32, 16)


def build_root():
    return Path(os.environ.get("MOTEBOX_BUILD", REPO / "build"))


def build_dir():
    """build/msp430 of the tree (or of $MOTEBOX_BUILD)."""
    return build_root() / "msp430"


def sim_path():
    return build_root() / "sim" / "msp430sim"


def have_sim():
    return os.access(sim_path(), os.X_OK)


def firmware(name, mpy=32, opt="O2"):
    """Path of a firmware image: build/msp430/mpy32/suite.elf, .../mpy16-Os/bench.elf."""
    sub = f"mpy{mpy}" + ("" if opt == "O2" else f"-{opt}")
    return build_dir() / sub / f"{name}.elf"


class Run:
    """Outcome of one simulator run."""

    def __init__(self, status, stdout, stderr):
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.cycles = _stat(stderr, "cycles")
        self.stack = _stat(stderr, "stack")
        m = re.search(r"^trace-hash: ([0-9a-f]+)", stderr, re.M)
        self.trace_hash = m.group(1) if m else None
        self.window = None      # (sha256 hex, instructions) of a trace window, if asked

    def __repr__(self):
        return (f"Run(status={self.status}, cycles={self.cycles}, stack={self.stack}, "
                f"stderr={self.stderr[-300:]!r})")


def _stat(text, name):
    m = re.search(rf"^{name}: (\d+)", text, re.M)
    return int(m.group(1)) if m else None


def run(elf, mpy=32, timeout=900, max_cycles=None, window=None, extra=()):
    """Run elf on the simulator with --cycles --stack (and --mpy). With window =
    (begin_pc, end_pc), the execution trace is streamed through a pipe and the part from
    the first instruction at begin_pc up to (excluding) the first instruction at end_pc
    is hashed: executed addresses and data addresses, in order (Run.window)."""
    if mpy not in MPYS:
        raise ValueError(f"mpy must be 32 or 16, not {mpy!r}")
    cmd = [str(sim_path()), "--mpy", str(mpy), "--cycles", "--stack"]
    if max_cycles:
        cmd += ["--max-cycles", str(max_cycles)]
    cmd += list(extra)
    if window is None:
        p = subprocess.run(cmd + [str(elf)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           stdin=subprocess.DEVNULL, timeout=timeout)
        return Run(p.returncode, p.stdout.decode(errors="replace"),
                   p.stderr.decode(errors="replace"))
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
        r = Run(p.returncode, out["stdout"].decode(errors="replace"),
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


def function_at(elf, addr):
    """Name of the function symbol of elf containing addr (or the nearest one below)."""
    from elftools.elf.elffile import ELFFile
    best = (None, -1)
    with open(elf, "rb") as f:
        for s in ELFFile(f).get_section_by_name(".symtab").iter_symbols():
            if s["st_info"]["type"] == "STT_FUNC" and best[1] < s["st_value"] <= addr:
                best = (s.name, s["st_value"])
    return best[0]


def first_divergence(elf_a, elf_b, mpy, workdir, begin_pc):
    """Where the traces of two runs first differ, from the first instruction at begin_pc:
    (instruction number, line of a, line of b, function of a's PC). For diagnostics of a
    failed constant-time check (writes both traces to workdir; can be large)."""
    paths = []
    for k, elf in enumerate((elf_a, elf_b)):
        path = Path(workdir) / f"trace{k}.txt"
        subprocess.run([str(sim_path()), "--mpy", str(mpy), "--trace", str(path), str(elf)],
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
            p.unlink(missing_ok=True)


