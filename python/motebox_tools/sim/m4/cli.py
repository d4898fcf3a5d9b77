# SPDX-License-Identifier: MIT
"""`motebox sim m4` / `python -m motebox_tools.sim.m4`: run a Cortex-M4 (mps2-an386)
firmware ELF in the cycle model.

    motebox sim m4 [--cycles] [--stack] [--profile] [--trace FILE]
                   [--trace-window BEGIN,END] [--max-instructions N] [--max-cycles N]
                   [--speed] FIRMWARE.elf

Every error ends the run with one line `m4sim: ...` on stderr and its own exit status
(the table in --help, machine.EXIT_STATUSES); never a traceback.
"""
import argparse
import sys

from .machine import (DEFAULT_MAX_CYCLES, EXIT_INTERNAL, EXIT_LIMIT, EXIT_STATUSES, EXIT_USAGE,
                      SimError, run)
from .profile import format_profile


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"m4sim: {message}\n")


def _epilog():
    return ("exit status: the program's (semihosting exit), or\n" + "\n".join(
        f"  {k}  {v}" for k, v in sorted(EXIT_STATUSES.items())))


def main(argv=None):
    try:
        return _main(argv)
    except SimError as e:
        print(f"m4sim: {e}", file=sys.stderr)
        return e.status
    except Exception as e:  # noqa: BLE001  (a bug of ours: one line, not a traceback)
        print(f"m4sim: internal error: {type(e).__name__}: {e}".splitlines()[0], file=sys.stderr)
        return EXIT_INTERNAL


def _main(argv):
    ap = _Parser(prog="motebox sim m4", epilog=_epilog(),
                 formatter_class=argparse.RawDescriptionHelpFormatter,
                 description="Run a Cortex-M4 (mps2-an386) ELF in the cycle model.")
    ap.add_argument("firmware", help="ELF file (vector table at 0: initial SP, reset vector)")
    ap.add_argument("--cycles", action="store_true", help="print 'cycles: N' to stderr at exit")
    ap.add_argument("--stack", action="store_true", help="print 'stack: N' (bytes) to stderr")
    ap.add_argument("--trace", metavar="FILE", help="write the instruction/data-address trace")
    ap.add_argument("--trace-window", metavar="BEGIN,END",
                    help="trace only from entering function BEGIN until entering END")
    ap.add_argument("--profile", action="store_true", help="per-function cycles to stderr")
    ap.add_argument("--max-instructions", type=int, metavar="N", default=None,
                    help=f"stop after N instructions (exit status {EXIT_LIMIT})")
    ap.add_argument("--max-cycles", type=int, metavar="N", default=DEFAULT_MAX_CYCLES,
                    help=f"cycle budget (exit status 206 when spent); default "
                    f"{DEFAULT_MAX_CYCLES}, 0 = none")
    ap.add_argument("--speed", action="store_true", help="print instructions/s to stderr")
    args = ap.parse_args(argv)

    def console(fd, data):
        stream = sys.stderr if fd == 2 else sys.stdout
        stream.buffer.write(data)
        stream.flush()

    window = tuple(args.trace_window.split(",")) if args.trace_window else None
    if window is not None and len(window) != 2:
        ap.error("--trace-window takes BEGIN,END")
    if args.max_cycles < 0 or (args.max_instructions or 0) < 0:
        ap.error("limits must be >= 0")
    res = run(args.firmware, max_instructions=args.max_instructions,
              max_cycles=args.max_cycles, trace_file=args.trace, trace_window=window,
              profile=args.profile, stack=True, console=console)   # also: overflow check
    for w in res.warnings:
        print(f"m4sim: warning: {w}", file=sys.stderr)
    if res.error:
        print(f"m4sim: {res.error}", file=sys.stderr)
    if args.cycles:
        print(f"cycles: {res.cycles}", file=sys.stderr)
    if args.stack:
        print(f"stack: {res.max_stack}", file=sys.stderr)
    if args.profile:
        print(format_profile(res.profile, res.cycles), file=sys.stderr)
        print("cycles by timing rule (docs/M4_TIMING.md): " + ", ".join(
            f"{k} {v}" for k, v in sorted(res.rules.items(), key=lambda kv: -abs(kv[1]))),
            file=sys.stderr)
    if args.trace or args.trace_window:
        print(f"trace: {res.trace_hash}", file=sys.stderr)
    if args.speed:
        print(f"speed: {res.instructions} instructions in {res.cpu_seconds:.3f} s CPU "
              f"({res.seconds:.3f} s wall) = {res.mips:.2f} M instructions/s",
              file=sys.stderr)
    return res.exit_code


if __name__ == "__main__":
    sys.exit(main())
