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
    # --chip m4: the Cortex-M4 model's campaigns (fault_m4.py); default the MSP430's
    argv = list(argv or [])
    if argv[:2] == ["--chip", "m4"] or argv[:1] == ["--chip=m4"]:
        from . import fault_m4
        return fault_m4.main(argv[2 if argv[0] == "--chip" else 1:])
    if argv[:2] == ["--chip", "msp430"] or argv[:1] == ["--chip=msp430"]:
        argv = argv[2 if argv[0] == "--chip" else 1:]
    from . import fault
    return fault.main(argv)


def _leak(argv):
    from .leak import cli
    return cli.main(argv)


def _serve(argv):
    from .gateway import cli
    return cli.serve_main(argv)


def _nodes(argv):
    from .gateway import cli
    return cli.nodes_main(argv)


def _loadgen(argv):
    from .gateway import cli
    return cli.loadgen_main(argv)


sim = _Command("run firmware in a simulator", _sim)
fault = _Command("single-fault campaigns on the simulated MSP430 (--chip m4 first: the "
                 "Cortex-M4 model) (docs/FAULTS.md)", _fault)
demo = _Command("sensor node and libsodium server demo", _demo)
leak = _Command("simulated power traces: TVLA and CPA (docs/SIDE_CHANNELS.md)", _leak)
serve = _Command("the gateway: open node messages into SQLite or PostgreSQL (docs/PROTOCOL.md)",
                 _serve)
nodes = _Command("the gateway's registry of node public keys: add, list, revoke", _nodes)
loadgen = _Command("load generator for the gateway (loopback, bounded)", _loadgen)
