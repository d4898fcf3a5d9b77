# SPDX-License-Identifier: MIT
"""Where a leaking sample comes from: sample index -> instruction -> PC -> function.

MSP430 (one sample per instruction from the first instruction at the window's begin):
the simulator's fault-injection instruction list (`--fault-window B:E --fault-list`)
counts instructions from the same point, so sample i is its instruction i. The image
is run once with the input's ct_input record patched in (the instruction sequence does
not depend on the data: docs/CONSTANT_TIME.md). Cortex-M4: the model's engine records
the executed addresses of the window. Used by `motebox leak tvla --locate`."""
import bisect
import subprocess
import tempfile
from pathlib import Path

from elftools.elf.elffile import ELFFile

from ..elf import patch_elf


def functions(elf):
    """pc -> name of the function symbol at or below pc (Thumb bit cleared), read once."""
    syms = []
    with open(elf, "rb") as f:
        for s in ELFFile(f).get_section_by_name(".symtab").iter_symbols():
            if s["st_info"]["type"] == "STT_FUNC":
                syms.append((s["st_value"] & ~1, s.name))
    syms.sort()
    addrs = [a for a, _ in syms]

    def name(pc):
        i = bisect.bisect_right(addrs, pc) - 1
        return syms[i][1] if i >= 0 else None
    return name


def msp430(rec, inp, indices):
    """[(index, pc, function)] for the sample indices of a record_msp430 recorder."""
    from . import record_msp430 as r
    with tempfile.TemporaryDirectory(prefix="leakloc") as d:
        elf = patch_elf(rec.elf, Path(d) / "ct.elf", "ct_input", r.pack(inp))
        lst = Path(d) / "list.txt"
        cmd = [str(rec.sim or r.board.sim_path()), "--mpy", str(rec.mpy),
               "--fault-window", f"{rec.begin:#x}:{rec.end:#x}", "--fault-list", str(lst),
               str(elf)]
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        pcs = {}
        want = set(int(i) for i in indices)
        with open(lst) as f:
            for line in f:
                parts = line.split()
                if parts and parts[0].isdigit() and int(parts[0]) in want:
                    pcs[int(parts[0])] = int(parts[1], 16)
    fn = functions(rec.elf)
    return [(i, pcs.get(i), fn(pcs[i]) if i in pcs else None) for i in indices]


def m4(rec, inp, indices, samples):
    """The same for a record_m4 recorder: its engine's executed addresses (one sample per
    instruction from the window's start)."""
    from . import record_m4 as r
    eng = r._engine(rec.elf, rec._window(samples))
    eng.run(r.ct_input(inp))
    pcs = eng.capture.result()[1]
    fn = functions(rec.elf)
    return [(i, int(pcs[i]) & ~1, fn(int(pcs[i]) & ~1)) if i < len(pcs)
            else (i, None, None) for i in indices]


def locate(rec, inp, indices, samples=None):
    """Per recorder type; a recorder may offer its own `locate(inp, indices)`."""
    if hasattr(rec, "locate"):
        return rec.locate(inp, indices)
    if rec.target.startswith("msp430"):
        return msp430(rec, inp, indices)
    if rec.target == "cortex-m4":
        return m4(rec, inp, indices, samples or rec.default_samples)
    raise NotImplementedError(f"no sample -> PC map for target {rec.target}")
