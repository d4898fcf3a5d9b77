# SPDX-License-Identifier: MIT
"""Power cuts and an NVM image in the Cortex-M4 model (the protocol's power-cut test,
docs/PROTOCOL.md). The board's NVM is a flash page standing in the model's code memory
(protonode.NVM_ADDR); `run` loads an image there before reset, optionally cuts the power
before counted instruction N, and returns the NVM as it was at the cut (or at exit).

Counting: every executed instruction whose address lies in one of `ranges` ((lo, hi)
pairs, e.g. the firmware's NVM write function; default: all code), in program order,
from 0. The NVM is read in the code hook of instruction N, before it runs, so the image
holds exactly what instructions 0..N-1 wrote, whatever unicorn does after emu_stop.
"""
from unicorn import UC_HOOK_CODE

from .machine import CODE_BASE, CODE_SIZE, DEFAULT_MAX_CYCLES, M4

EXIT_POWERCUT = 212      # (211 is the model's internal error)


class CutResult:
    """A model Result plus: nvm (bytes at the cut or at exit), counted (instructions
    counted), cut (True if the power was cut), stdout (console up to the cut)."""

    def __init__(self, res, nvm, counted, cut, stdout):
        self.result = res
        self.nvm = nvm
        self.counted = counted
        self.cut = cut
        self.stdout = stdout
        self.exit_code = EXIT_POWERCUT if cut else res.exit_code
        self.cycles = res.cycles


def run(elf, nvm_addr, nvm, cut_at=None, ranges=None, max_cycles=DEFAULT_MAX_CYCLES,
        count=True):
    """Run elf in the cycle model with `nvm` at nvm_addr; cut before counted instruction
    cut_at (None: no cut, just count; count=False: not even that, full model speed).
    Returns a CutResult (counted None when not counted)."""
    sim = M4(elf, max_cycles=max_cycles)
    sim.uc.mem_write(nvm_addr, bytes(nvm))
    state = {"n": 0, "nvm": None, "out": None}

    def hook(uc, addr, size, _):
        if state["nvm"] is not None:
            return
        if state["n"] == cut_at:
            state["nvm"] = bytes(uc.mem_read(nvm_addr, len(nvm)))
            state["out"] = bytes(sim.semi.out)
            sim._stop(EXIT_POWERCUT, f"power cut before counted instruction #{state['n']}", addr)
            return
        state["n"] += 1

    if cut_at is not None or count:
        for lo, hi in ranges or [(CODE_BASE, CODE_BASE + CODE_SIZE)]:
            sim.uc.hook_add(UC_HOOK_CODE, hook, None, lo, hi - 1)
    else:
        state["n"] = None
    res = sim.run()
    cut = state["nvm"] is not None
    image = state["nvm"] if cut else bytes(sim.uc.mem_read(nvm_addr, len(nvm)))
    return CutResult(res, image, state["n"], cut, state["out"] if cut else res.stdout)
