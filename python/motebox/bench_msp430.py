# SPDX-License-Identifier: MIT
"""`make bench` step for the MSP430FR5969: runs the portable bench firmware
(bench/target/bench.c, built by mk/msp430.mk as build/msp430/mpy{32,16}/bench.elf) on the
simulator with each multiplier, measures code size per operation from per-operation
links, and writes bench/results/msp430x-mpy32.json and msp430x-mpy16.json.

    python -m motebox.bench_msp430 [--build build/msp430] [--sim build/sim/msp430sim]

Cycles and stack come from the firmware (hal_cycles / hal_stack_used around each call,
min/median/max over its repetitions); code size is measured here: for each operation a
stub that calls only that function is linked with --gc-sections against the library
and the runtime, and the size of the operation is the link's text+rodata+data minus
that of a stub calling nothing (so crt0, hal and main are excluded, the runtime helpers
the operation pulls in are included)."""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from . import target_msp430 as t430

REPO = t430.REPO
PLAT = REPO / "platforms" / "msp430fr5969"
RESULTS = REPO / "bench" / "results"

# Published figures (../shared/REFERENCE.md): seed 000 (X25519 on an MSP430FR5969 at
# 8 MHz, assembly) and seed 001 (P-256 on an MSP430F5529). Per multiplier.
REFERENCE = {
    32: {"fe_add": "186 (seed 000, asm)", "fe_sub": "199 (seed 000, asm)",
         "fe_mul": "2,079 (seed 000, asm)", "fe_sqr": "1,563 (seed 000, asm)",
         "fe_mul121666": "352 (seed 000, asm)",
         "x25519": "5,301,792 cycles, 10,088 B (seed 000, asm)",
         "p256_ecdh": "9,122,988 - 9,285,578 (seed 001, MSP430F5529, co-Z ladder)",
         "p256_base": "9,122,988 - 9,285,578 scalar mult. (seed 001, MSP430F5529)"},
    16: {"fe_add": "186 (seed 000, asm)", "fe_sub": "199 (seed 000, asm)",
         "fe_mul": "3,193 (seed 000, asm)", "fe_sqr": "2,426 (seed 000, asm)",
         "fe_mul121666": "512 (seed 000, asm)",
         "x25519": "7,933,296 cycles, 13,112 B (seed 000, asm)"},
}

# Per-operation stubs for the code-size links: declarations and one call each. The
# operands are volatile-qualified globals so nothing is folded away.
_DECL = """
#include <stdint.h>
#include <stddef.h>
#include "motebox.h"
#include "field/fe25519.h"
#include "sym/salsa20.h"
#include "sym/poly1305.h"
volatile uint8_t sink;
static uint8_t a[65], b[65], c[65], d[64];
static fe25519 f, g, h;
static poly1305_state ps;
static mb_box_stream bs;
"""
SIZE_STUBS = {
    "fe_add": "fe25519_add(&h, &f, &g);",
    "fe_sub": "fe25519_sub(&h, &f, &g);",
    "fe_mul": "fe25519_mul(&h, &f, &g);",
    "fe_sqr": "fe25519_sqr(&h, &f);",
    "fe_mul121666": "fe25519_mul121666(&h, &f);",
    "fe_invert": "fe25519_invert(&h, &f);",
    "x25519": "sink = (uint8_t)mb_x25519(a, b, c);",
    "x25519_randomized": "sink = (uint8_t)mb_x25519_randomized(a, b, c, d);",
    "p256_base": "sink = (uint8_t)mb_p256_base(a, b);",
    "p256_ecdh": "sink = (uint8_t)mb_p256_ecdh(a, b, c, 65);",
    "salsa20_block": "salsa20_block(d, a, b);",
    "poly1305": "poly1305_init(&ps, a); poly1305_update(&ps, d, 64); poly1305_final(&ps, b);",
    "box_stream": "mb_box_stream_init(&bs, a, b); mb_box_stream_update(&bs, d, d, 64); "
                  "mb_box_stream_final(&bs, c);",
    "x25519_base": "sink = (uint8_t)mb_x25519_base(a, b);",
    "secretbox": "mb_secretbox(d, a, 32, b, c);",
    "box": "sink = (uint8_t)mb_box(d, a, 32, b, c, a);",
}
# What each row measures, where the name alone does not say it.
NOTES = {"poly1305": "per 16 bytes (poly1305_update)", "box_stream": "per 64-byte block (update)",
         "secretbox": "64-byte message", "box": "64-byte message, incl. X25519"}
P256_OPS = {"p256_base", "p256_ecdh"}


def _size(elf):
    out = subprocess.run(["llvm-size", "-A", str(elf)], check=True, stdout=subprocess.PIPE,
                         text=True).stdout
    total = 0
    for line in out.splitlines():
        m = re.match(r"^\.(text|rodata|data)\s+(\d+)", line)
        if m:
            total += int(m.group(2))
    return total


def code_sizes(build, mpy, opt="O2", have_p256=True):
    """{op: bytes} of library + runtime code each operation pulls in."""
    lib = build / opt / "libmotebox.a"
    rt = build / "rt" / f"mpy{mpy}" / "libfr5969.a"
    cc = ["clang", "--target=msp430", "-std=c99", f"-{opt}", "-ffreestanding",
          "-ffunction-sections", "-fdata-sections", "-DMB_RADIX=16", f"-I{REPO / 'include'}",
          f"-I{REPO / 'src'}", f"-I{REPO / 'platforms'}"]
    sizes = {}
    with tempfile.TemporaryDirectory(prefix="msp430size") as d:
        def link(name, body):
            src = Path(d) / f"{name}.c"
            src.write_text(_DECL + "int main(void);\nint main(void)\n{\n    " + body +
                           "\n    return 0;\n}\n")
            obj, elf = src.with_suffix(".o"), src.with_suffix(".elf")
            subprocess.run(cc + ["-c", str(src), "-o", str(obj)], check=True)
            subprocess.run(["ld.lld", "-m", "msp430elf", "-T", str(PLAT / "fr5969.ld"),
                            "--gc-sections", "-o", str(elf), str(obj), str(lib), str(rt)],
                           check=True)
            return _size(elf)
        base = link("empty", "")
        for op, body in SIZE_STUBS.items():
            if op in P256_OPS and not have_p256:
                continue
            sizes[op] = link(op, body) - base
    return sizes


# ---- bench firmware output ---------------------------------------------------------
# bench/target/bench.c prints one line per operation:
#   bench op=NAME runs=N min=A median=B max=C stack=S [bytes=L]
_LINE = re.compile(r"^bench op=(\w+)((?: \w+=\d+)+)\s*$", re.M)


def parse_bench(text):
    """{op: {"cycles": {"min", "median", "max"}, "stack": int, "runs": int, "bytes": int|None}}"""
    rows = {}
    for m in _LINE.finditer(text):
        kv = dict(f.split("=") for f in m.group(2).split())
        kv = {k: int(v) for k, v in kv.items()}
        rows[m.group(1)] = {"cycles": {"min": kv["min"], "median": kv["median"], "max": kv["max"]},
                            "stack": kv.get("stack"), "runs": kv.get("runs"),
                            "bytes": kv.get("bytes")}
    return rows


# Firmware names -> ours (the rows of the issue: Poly1305 per 16 bytes, stream per block).
_NAMES = {"poly1305_16": "poly1305", "box_stream_64": "box_stream"}


def _canon(op):
    return _NAMES.get(op, op)


def run_bench(build, sim, mpy, opt="O2"):
    elf = build / (f"mpy{mpy}" + ("" if opt == "O2" else f"-{opt}")) / "bench.elf"
    if not elf.exists():
        raise SystemExit(f"{elf} missing: run `make msp430` (needs bench/target/bench.c)")
    cmd = [str(sim), "--mpy", str(mpy), "--cycles", "--stack", str(elf)]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       stdin=subprocess.DEVNULL, timeout=7200)
    if p.returncode != 0:
        raise SystemExit(f"bench on --mpy {mpy} failed ({p.returncode}):\n{p.stdout}\n{p.stderr}")
    return p.stdout


def clang_version():
    try:
        out = subprocess.run(["clang", "--version"], stdout=subprocess.PIPE, text=True).stdout
        return out.splitlines()[0]
    except OSError:
        return "clang"


def write_json(mpy, runs):
    """runs: [(opt, measured, sizes)], -O2 first."""
    name = f"msp430x-mpy{mpy}"
    mult = ("32-bit hardware multiplier MPY32" if mpy == 32
            else "16-bit hardware multiplier only (MPY, MAC, RESLO/RESHI, SUMEXT)")
    doc = {
        "target": name,
        "title": f"MSP430FR5969 (MSP430X), {mult.split(' (')[0]} (simulated)",
        "conditions": (f"motebox msp430sim --mpy {mpy} (CPUX cycle tables of SLAU367, "
                       f"docs/MSP430_TIMING.md), MCLK 8 MHz, no FRAM wait states; {mult}; "
                       f"{clang_version()} --target=msp430 -O2 or -Os -DMB_RADIX=16, ld.lld; "
                       "portable C (radix 2^16) with motebox's __mspabi_* runtime; cycles per "
                       "call including call overhead, min/median/max over the firmware's "
                       "repetitions; stack = painted bytes touched below the caller; code = "
                       "text+rodata+data the operation pulls in from the library and runtime "
                       "(per-operation --gc-sections links)."),
        "rows": [],
    }
    ops = []     # the order (SIZE_STUBS) first, then anything else measured; once each
    for _, measured, _ in runs:
        for op in list(SIZE_STUBS) + list(measured):
            if op in measured and op not in ops:
                ops.append(op)
    for op in ops:
        for opt, measured, sizes in runs:
            if op not in measured:
                continue
            m = measured[op]
            doc["rows"].append({
                "op": op,
                "impl": f"portable r16 -{opt}" + (f", {NOTES[op]}" if op in NOTES else ""),
                "cycles": m["cycles"],
                "code": sizes.get(op),
                "stack": m["stack"],
                "reference": REFERENCE.get(mpy, {}).get(op) if opt == "O2" else None,
            })
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(doc, indent=1) + "\n")
    return path


def main(argv=None):
    ap = argparse.ArgumentParser(prog="motebox.bench_msp430", description=__doc__.split("\n")[0])
    ap.add_argument("--build", type=Path, default=t430.build_dir())
    ap.add_argument("--sim", type=Path, default=t430.sim_path())
    ap.add_argument("--mpy", type=int, choices=[32, 16], action="append")
    ap.add_argument("--opt", choices=["O2", "Os"], action="append",
                    help="optimisation levels to measure (default: O2 and Os)")
    args = ap.parse_args(argv)
    have_p256 = bool(list((REPO / "src" / "proto").glob("p256*.c")))
    for mpy in args.mpy or [32, 16]:
        runs = []
        for opt in args.opt or ["O2", "Os"]:
            text = run_bench(args.build, args.sim, mpy, opt)
            measured = {_canon(op): row for op, row in parse_bench(text).items()}
            if not measured:
                raise SystemExit(f"no `bench op=...` lines in the firmware output:\n{text}")
            sizes = code_sizes(args.build, mpy, opt, have_p256=have_p256)
            runs.append((opt, measured, sizes))
            print(f"MSP430FR5969 --mpy {mpy}, -{opt}:")
            for op, m in measured.items():
                print(f"  {op:20s} {m['cycles']['median']:>12,} cycles  "
                      f"code {sizes.get(op, '-')!s:>6}  stack {m['stack']!s:>5}")
        path = write_json(mpy, runs)
        print(f"wrote {path.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
