# SPDX-License-Identifier: MIT
"""The `motebox` plug-in commands of the tools (entry points `motebox.commands` in
pyproject.toml): each an object with `help` and `main(argv) -> exit status`. Nothing
heavy is imported until a command runs."""
import sys


class _Command:
    def __init__(self, help, main):
        self.help = help
        self.main = main


SIMULATORS = {
    "m4": "motebox_tools.sim.m4",           # Cortex-M4 cycle model (Python)
    "msp430": "motebox_tools.sim.msp430",   # wrapper of build/sim/msp430sim (C)
}


def _sim(argv):
    """motebox sim CHIP [options] FIRMWARE.elf: the simulator's own options follow CHIP."""
    import importlib
    if not argv or argv[0] not in SIMULATORS:
        print(f"usage: motebox sim {{{','.join(SIMULATORS)}}} [options] FIRMWARE.elf "
              "(motebox sim CHIP --help for the options)", file=sys.stderr)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    return importlib.import_module(SIMULATORS[argv[0]]).main(argv[1:])


def _demo(argv):
    from . import demo
    return demo.main(argv)


def _fault(argv):
    from . import fault
    return fault.main(argv)


sim = _Command("run firmware in a simulator", _sim)
fault = _Command("single-fault campaigns on the simulated MSP430 (docs/FAULTS.md)", _fault)
demo = _Command("sensor node and libsodium server demo", _demo)
