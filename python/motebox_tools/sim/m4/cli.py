# SPDX-License-Identifier: MIT
"""`motebox sim m4` / `python -m motebox_tools.sim.m4`: run a Cortex-M4 (mps2-an386)
firmware ELF in the cycle model.

    motebox sim m4 [--cycles] [--stack] [--profile] [--trace FILE]
                   [--trace-window BEGIN,END] [--max-instructions N] [--speed] FIRMWARE.elf
"""
import argparse
import sys

from .machine import EXIT_FAULT, EXIT_LIMIT, SimError, run
from .profile import format_profile


def main(argv=None):
    ap = argparse.ArgumentParser(prog="motebox sim m4",
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
    ap.add_argument("--speed", action="store_true", help="print instructions/s to stderr")
    args = ap.parse_args(argv)

    def console(fd, data):
        stream = sys.stderr if fd == 2 else sys.stdout
        stream.buffer.write(data)
        stream.flush()

    try:
        window = tuple(args.trace_window.split(",")) if args.trace_window else None
        if window is not None and len(window) != 2:
            print("m4sim: --trace-window takes BEGIN,END", file=sys.stderr)
            return 2
        res = run(args.firmware, max_instructions=args.max_instructions, trace_file=args.trace,
                  trace_window=window, profile=args.profile, stack=args.stack,
                  console=console)
    except SimError as e:
        print(f"m4sim: {e}", file=sys.stderr)
        return EXIT_FAULT
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
