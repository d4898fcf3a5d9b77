# SPDX-License-Identifier: MIT
"""The MSP430FR5969 board (MSP430X; platforms/msp430fr5969/), built by mk/msp430.mk into
build/msp430/<variant>/ (suite*.elf, ct*.elf, rt_check.elf, bench*.elf), and run on the
motebox MSP430X simulator (build/sim/msp430sim, `motebox_tools.sim.msp430`).

- runners: `run` (the simulator, optionally hashing a window of the execution trace),
  `firmware` paths, `patch_elf` / `symbol` for input symbols, `first_divergence`;
- the demo's sensor node (`run_node`): demo/node.c compiled with its inputs in a
  generated header, run on the simulator, what it sent parsed;
- the bench step (`bench`): bench/target/bench.c of each variant on the simulator, code
  size per operation from per-operation links, bench/results/msp430x-mpy{32,16}.json.

Variants (`VARIANTS`): one per firmware build directory, each naming its multiplier,
optimisation level and library build (build/msp430/<lib>/libmotebox.a). The `-asm` rows
are the builds with the board's chip folder (arch/<chip>/, the one line MSP430_ARCH of
mk/msp430.mk; `chip()`): they exist only when that line names a chip, and their labels
take the chip's name from the build's config stamp, so no chip is named here.
"""
import argparse
import json
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..elf import patch_elf, symbol  # noqa: F401  (re-exported for the tests and bench)
from ..node_io import (NODE_INCLUDES, NODE_SOURCES, check_args, node_header,
                       parse_node_output)
from ..paths import build_root, repo
from ..sim.msp430 import MPYS, Run, first_divergence, have_sim, run, sim_path  # noqa: F401

TITLE = "MSP430FR5969 (MSP430X; motebox simulator)"
PLATFORM = "platforms/msp430fr5969"


@dataclass(frozen=True)
class Variant:
    mpy: int            # hardware multiplier of the firmware and runtime (32: MPY32, 16: MPY)
    opt: str            # optimisation level of the firmware and library
    lib: str            # library build: build/msp430/<lib>/libmotebox.a
    asm: bool = False   # with the board's chip folder (arch/<chip>/, MSP430_ARCH)

    @property
    def impl(self):
        """How the bench rows describe the code: "portable r16 -O2", or for an assembly
        build "arch/<chip> asm + C, -O2" with the chip its config stamp records."""
        if not self.asm:
            return f"portable r16 -{self.opt}"
        return f"arch/{built_chip(self.lib) or '?'} asm + C, -{self.opt}"


# build/msp430/<name>: the portable C builds (radix 2^16), and the same with the chip's
# assembly (built only when mk/msp430.mk's MSP430_ARCH names a chip).
VARIANTS = {
    "mpy32": Variant(32, "O2", "O2"),
    "mpy16": Variant(16, "O2", "O2"),
    "mpy32-Os": Variant(32, "Os", "Os"),
    "mpy16-Os": Variant(16, "Os", "Os"),
    "mpy32-asm": Variant(32, "O2", "mpy32-asm", asm=True),
    "mpy16-asm": Variant(16, "O2", "mpy16-asm", asm=True),
    "mpy32-Os-asm": Variant(32, "Os", "mpy32-Os-asm", asm=True),
    "mpy16-Os-asm": Variant(16, "Os", "mpy16-Os-asm", asm=True),
}


def build_dir():
    """build/msp430 of the tree (or of $MOTEBOX_BUILD)."""
    return build_root() / "msp430"


def chip():
    """The chip folder the board builds with (arch/<chip>/), "" for portable C only:
    $MSP430_ARCH when set (make passes a command-line MSP430_ARCH= on to the tests), else
    the `MSP430_ARCH ?= <chip>` line of mk/msp430.mk."""
    if "MSP430_ARCH" in os.environ:
        return os.environ["MSP430_ARCH"].strip()
    mk = (repo() / "mk" / "msp430.mk").read_text()
    m = re.search(r"^MSP430_ARCH\s*\?=[ \t]*(\S*)", mk, re.M)
    return m.group(1) if m else ""


def built_chip(lib):
    """The chip a library build was made with (`arch=<chip>` in build/msp430/<lib>/
    config.stamp), None when it is not built or portable."""
    try:
        stamp = (build_dir() / lib / "config.stamp").read_text()
    except OSError:
        return None
    m = re.search(r"(?:^|\s)arch=(\S+)", stamp)
    return m.group(1) if m else None


def variants(asm=None):
    """The variants the board builds: the portable ones, plus the assembly ones when
    chip() names a chip (asm=True: only those, asm=False: only portable)."""
    with_asm = bool(chip())
    return [v for v, d in VARIANTS.items()
            if (d.asm and with_asm and asm is not False) or (not d.asm and asm is not True)]


def demo_variant():
    """The demo's node build: the assembly one with the 32-bit multiplier when the board
    builds one, else the portable mpy32."""
    return "mpy32-asm" if chip() else "mpy32"


def variant_name(mpy=32, opt="O2"):
    """The portable variant for a multiplier and optimisation level: mpy32, mpy16-Os."""
    return f"mpy{mpy}" + ("" if opt == "O2" else f"-{opt}")


def firmware(name, mpy=32, opt="O2", variant=None):
    """Path of a firmware image: build/msp430/mpy32/suite.elf, .../mpy16-Os/bench.elf;
    `variant` (a VARIANTS name) overrides mpy and opt."""
    return build_dir() / (variant or variant_name(mpy, opt)) / f"{name}.elf"


def library(variant):
    """(libmotebox.a, runtime libfr5969.a) a variant's firmware links."""
    v = VARIANTS[variant]
    return (build_dir() / v.lib / "libmotebox.a",
            build_dir() / "rt" / f"mpy{v.mpy}" / "libfr5969.a")


# ---- the demo's sensor node ----------------------------------------------------------
CFLAGS = ["--target=msp430", "-std=c99", "-O2", "-ffreestanding", "-ffunction-sections",
          "-fdata-sections", "-DMB_RADIX=16", "-Wall", "-Wextra", "-Werror"]
# FRAM below the vectors is 48 KB; the node firmware and library take about 15 KB.
MAX_READINGS = 24 * 1024


def _libraries(variant):
    lib, rt = library(variant)
    missing = [str(p) for p in (lib, rt) if not p.exists()]
    if missing:
        subprocess.run(["make", "-s", "-C", str(repo()), f"BUILD={build_root()}", *missing],
                       check=True)
    return lib, rt


def build_node(server_pk, node_sk, nonce, readings, workdir, variant="mpy32"):
    """Compile demo/node.c with these inputs for the FR5969, against the library and
    runtime of `variant`; returns the ELF path."""
    root, work = repo(), Path(workdir)
    header = node_header(server_pk, node_sk, nonce, readings, "motebox_tools.boards.msp430")
    (work / "node_input.h").write_text(header)
    lib, rt = _libraries(variant)
    inc = [f"-I{p}" for p in (work, *(root / d for d in NODE_INCLUDES))]
    objs = []
    for src in (root / p for p in NODE_SOURCES):
        obj = work / (src.stem + ".o")
        subprocess.run(["clang", *CFLAGS, *inc, "-c", str(src), "-o", str(obj)], check=True)
        objs.append(str(obj))
    elf = work / "node.elf"
    subprocess.run(["ld.lld", "-m", "msp430elf", "-T", str(root / PLATFORM / "fr5969.ld"),
                    "--gc-sections",
                    "-o", str(elf), *objs, str(lib), str(rt)], check=True)
    return elf


def run_node_msp430(server_pk: bytes, node_sk: bytes, readings: bytes, mpy: int = 32,
                    variant=None) -> dict:
    """Run the sensor node on the simulated MSP430FR5969 with the 32- or 16-bit multiplier
    (or the firmware variant named): inputs in a generated header (node_input.h: the
    server's public key, the node's 32 secret bytes, a fresh nonce from os.urandom
    standing in for its TRNG, and the readings, which stay in FRAM), demo/node.c compiled
    with clang -O2 against the variant's library and runtime (made if missing). Returns
    what the node sent: {"node_pk", "nonce", "ciphertext", "tag": bytes,
    "cycles": {name: int}, "stack": int, "where": str}. Verifies nothing: the server side
    (motebox_tools.demo) opens the box with libsodium."""
    check_args(server_pk, node_sk)
    if variant is None:
        if mpy not in MPYS:
            raise ValueError("mpy must be 32 or 16")
        variant = variant_name(mpy)
    if variant not in variants():       # the assembly ones only when the board names a chip
        raise ValueError(f"variant must be one of {', '.join(variants())}")
    mpy = VARIANTS[variant].mpy
    readings = bytes(readings)
    if len(readings) > MAX_READINGS:
        raise ValueError(f"readings: at most {MAX_READINGS} bytes fit the node's FRAM")
    if not have_sim():
        raise RuntimeError(f"{sim_path()} missing: run `make` (builds the MSP430 simulator)")
    nonce = os.urandom(24)
    with tempfile.TemporaryDirectory(prefix="motebox-node430-") as tmp:
        elf = build_node(server_pk, node_sk, nonce, readings, tmp, variant)
        r = run(elf, mpy=mpy, timeout=1800)
    if r.status != 0:
        raise RuntimeError(f"node firmware exited with status {r.status}:\n{r.stdout}\n{r.stderr}")
    sent = parse_node_output(r.stdout, nonce)
    sent["where"] = (f"MSP430FR5969 firmware (demo/node.c, clang -O2) on the motebox MSP430X "
                     f"simulator, {mpy}-bit multiplier, library variant {variant} "
                     f"({VARIANTS[variant].impl}), "
                     f"{r.cycles:,} cycles in all ({r.cycles / 8e6:.2f} s at 8 MHz)")
    return sent


def run_node(server_pk, node_sk, readings, variant=None):
    """The boards table's demo node: run_node_msp430 on `variant` (default: demo_variant(),
    the assembly build when the board has one)."""
    return run_node_msp430(server_pk, node_sk, readings, variant=variant or demo_variant())


# ---- the bench step ------------------------------------------------------------------
# Published figures (docs/REFERENCES.md): [DHH+15] (X25519 on an MSP430FR5969 at
# 8 MHz, assembly) and [SAK18] (P-256 on an MSP430F5529). Per multiplier.
REFERENCE = {
    32: {"fe_add": "186 ([DHH+15], asm)", "fe_sub": "199 ([DHH+15], asm)",
         "fe_mul": "2,079 ([DHH+15], asm)", "fe_sqr": "1,563 ([DHH+15], asm)",
         "fe_mul121666": "352 ([DHH+15], asm)",
         "x25519": "5,301,792 cycles, 10,088 B ([DHH+15], asm)",
         "p256_ecdh": "9,122,988 - 9,285,578 ([SAK18], MSP430F5529, co-Z ladder)",
         "p256_base": "9,122,988 - 9,285,578 scalar mult. ([SAK18], MSP430F5529)"},
    16: {"fe_add": "186 ([DHH+15], asm)", "fe_sub": "199 ([DHH+15], asm)",
         "fe_mul": "3,193 ([DHH+15], asm)", "fe_sqr": "2,426 ([DHH+15], asm)",
         "fe_mul121666": "512 ([DHH+15], asm)",
         "x25519": "7,933,296 cycles, 13,112 B ([DHH+15], asm)"},
}

# Issue #11's goals for the assembly builds (GOAL_VARIANT of each multiplier), with the
# anchors it names; each bench/results/msp430x-mpy*.json carries them beside this run's
# measurements and the report renders the table. goal None: "report" (no goal set).
GOAL_VARIANT = {32: "mpy32-asm", 16: "mpy16-asm"}
GOALS = {  # mpy: [(op, label, metric, goal, anchor)]
    32: [("fe_mul", "field mul incl. call", "cycles", 1700, "2,079 ([DHH+15])"),
         ("fe_sqr", "field sqr incl. call", "cycles", 1250, "1,563 ([DHH+15])"),
         ("x25519", "X25519", "cycles", 4500000, "5,301,792 ([DHH+15])"),
         ("x25519_randomized", "X25519 randomized", "cycles", 4900000, "—"),
         ("x25519", "X25519", "code", 8000,
          "10,088 B ([DHH+15]); 4,717 B (IoTDisco, 10.8 M cycles)"),
         ("x25519", "X25519", "stack", 400, "384 B ([DHH+15])"),
         ("p256_ecdh", "P-256 ECDH, constant time", "cycles", 7000000, "9,122,988 ([SAK18])"),
         ("p256_base", "P-256 public key (fixed base)", "cycles", 3250000,
          "40% of 8,131,029 (ours, ladder; issue #12: table <= 4 KB); IoTDisco: 41%"),
         ("x25519_base", "X25519 public key (fixed base)", "cycles", 2032000,
          "40% of 5,080,641 (ours, ladder; issue #12: table <= 4 KB); IoTDisco: 41%"),
         ("box_stream", "box stream per 64 B", "cycles", 12000,
          "7,443 ([HSSW15]'s hardware)")],
    16: [("fe_mul", "field mul incl. call", "cycles", 2600, "3,193 ([DHH+15])"),
         ("fe_sqr", "field sqr incl. call", "cycles", 1950, "2,426 ([DHH+15])"),
         ("x25519", "X25519", "cycles", 6500000, "7,933,296 ([DHH+15])"),
         ("x25519_randomized", "X25519 randomized", "cycles", 7000000, "—"),
         ("x25519", "X25519", "code", 9000,
          "13,112 B ([DHH+15]); 4,717 B (IoTDisco, 10.8 M cycles)"),
         ("x25519", "X25519", "stack", 400, "384 B ([DHH+15])"),
         ("p256_ecdh", "P-256 ECDH, constant time", "cycles", None, "9,122,988 ([SAK18])"),
         ("p256_base", "P-256 public key (fixed base)", "cycles", 5390000,
          "40% of 13,489,731 (ours, ladder; issue #12: table <= 4 KB); IoTDisco: 41%"),
         ("x25519_base", "X25519 public key (fixed base)", "cycles", 3155000,
          "40% of 7,889,009 (ours, ladder; issue #12: table <= 4 KB); IoTDisco: 41%"),
         ("box_stream", "box stream per 64 B", "cycles", None, "7,443 ([HSSW15]'s hardware)")],
}


def goal_rows(mpy, runs):
    """One row per goal of the multiplier: the measured GOAL_VARIANT value beside the goal
    (met None when the goal is "report"), when that variant ran."""
    run = next(((m, z) for v, m, z in runs if v == GOAL_VARIANT[mpy]), None)
    if run is None:
        return []
    measured, sizes = run
    out = []
    for op, label, metric, goal, anchor in GOALS[mpy]:
        if op not in measured:
            continue
        value = (measured[op]["cycles"]["median"] if metric == "cycles"
                 else sizes.get(op) if metric == "code" else measured[op]["stack"])
        out.append({"op": label, "metric": metric, "goal": goal, "anchor": anchor,
                    "measured": value,
                    "met": None if goal is None else value is not None and value <= goal})
    return out


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
    "fe_add": "mb_fe25519_add(&h, &f, &g);",
    "fe_sub": "mb_fe25519_sub(&h, &f, &g);",
    "fe_mul": "mb_fe25519_mul(&h, &f, &g);",
    "fe_sqr": "mb_fe25519_sqr(&h, &f);",
    "fe_mul121666": "mb_fe25519_mul121666(&h, &f);",
    "fe_invert": "mb_fe25519_invert(&h, &f);",
    "x25519": "sink = (uint8_t)mb_x25519(a, b, c);",
    "x25519_randomized": "sink = (uint8_t)mb_x25519_randomized(a, b, c, d);",
    "p256_base": "sink = (uint8_t)mb_p256_base(a, b);",
    "p256_ecdh": "sink = (uint8_t)mb_p256_ecdh(a, b, c, 65);",
    "p256_ecdh_randomized": "sink = (uint8_t)mb_p256_ecdh_randomized(a, b, c, 65, d);",
    "salsa20_block": "mb_salsa20_block(d, a, b);",
    "poly1305": "mb_poly1305_init(&ps, a); mb_poly1305_update(&ps, d, 64); mb_poly1305_final(&ps, b);",
    "box_stream": "mb_box_stream_init(&bs, a, b); sink = (uint8_t)mb_box_stream_update(&bs, d, d, 64); "
                  "sink = (uint8_t)mb_box_stream_final(&bs, c);",
    "x25519_base": "sink = (uint8_t)mb_x25519_base(a, b);",
    "secretbox": "sink = (uint8_t)mb_secretbox(d, a, 32, b, c);",
    "box": "sink = (uint8_t)mb_box(d, a, 32, b, c, a);",
}
# What each row measures, where the name alone does not say it.
NOTES = {"poly1305": "per 16 bytes (poly1305_update)", "box_stream": "per 64-byte block (update)",
         "secretbox": "64-byte message", "box": "64-byte message, incl. X25519"}
P256_OPS = {"p256_base", "p256_ecdh", "p256_ecdh_randomized"}


def _size(elf):
    out = subprocess.run(["llvm-size", "-A", str(elf)], check=True, stdout=subprocess.PIPE,
                         text=True).stdout
    total = 0
    for line in out.splitlines():
        m = re.match(r"^\.(text|rodata|data)\s+(\d+)", line)
        if m:
            total += int(m.group(2))
    return total


def code_sizes(build, variant, have_p256=True):
    """{op: bytes} of library + runtime code each operation pulls in, for a variant."""
    v, root = VARIANTS[variant], repo()
    lib = build / v.lib / "libmotebox.a"
    rt = build / "rt" / f"mpy{v.mpy}" / "libfr5969.a"
    cc = ["clang", "--target=msp430", "-std=c99", f"-{v.opt}", "-ffreestanding",
          "-ffunction-sections", "-fdata-sections", "-DMB_RADIX=16", f"-I{root / 'include'}",
          f"-I{root / 'src'}", f"-I{root / 'platforms'}"]
    sizes = {}
    with tempfile.TemporaryDirectory(prefix="msp430size") as d:
        def link(name, body):
            src = Path(d) / f"{name}.c"
            src.write_text(_DECL + "int main(void);\nint main(void)\n{\n    " + body +
                           "\n    return 0;\n}\n")
            obj, elf = src.with_suffix(".o"), src.with_suffix(".elf")
            subprocess.run(cc + ["-c", str(src), "-o", str(obj)], check=True)
            subprocess.run(["ld.lld", "-m", "msp430elf", "-T", str(root / PLATFORM / "fr5969.ld"),
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


def run_bench(build, sim, variant):
    """The output of the variant's bench images: bench.elf, then bench-p256.elf (the
    P-256 operations, in an image of their own: both curves do not fit in FRAM)."""
    mpy = VARIANTS[variant].mpy
    elf = build / variant / "bench.elf"
    if not elf.exists():
        raise SystemExit(f"{elf} missing: run `make msp430` (needs bench/target/bench.c)")
    text = ""
    for image in (elf, build / variant / "bench-p256.elf"):
        if not image.exists():
            continue
        cmd = [str(sim), "--mpy", str(mpy), "--cycles", "--stack", str(image)]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           stdin=subprocess.DEVNULL, timeout=7200)
        if p.returncode != 0:
            raise SystemExit(f"bench {image.name} on --mpy {mpy} failed ({p.returncode}):\n"
                             f"{p.stdout}\n{p.stderr}")
        text += p.stdout
    return text


def clang_version():
    try:
        out = subprocess.run(["clang", "--version"], stdout=subprocess.PIPE, text=True).stdout
        return out.splitlines()[0]
    except OSError:
        return "clang"


def write_json(mpy, runs):
    """runs: [(variant, measured, sizes)] of one multiplier; the first carries the
    published reference figures."""
    name = f"msp430x-mpy{mpy}"
    mult = ("32-bit hardware multiplier MPY32" if mpy == 32
            else "16-bit hardware multiplier only (MPY, MAC, RESLO/RESHI, SUMEXT)")
    doc = {
        "target": name,
        "title": f"MSP430FR5969 (MSP430X), {mult.split(' (')[0]} (simulated)",
        "conditions": (f"motebox msp430sim --mpy {mpy} (CPUX cycle tables of SLAU367, "
                       f"docs/MSP430_TIMING.md), MCLK 8 MHz, no FRAM wait states; {mult}; "
                       f"{clang_version()} --target=msp430 -O2 or -Os -DMB_RADIX=16, ld.lld; "
                       "portable C (radix 2^16) with motebox's __mspabi_* runtime, and in the "
                       "rows labelled `arch/<chip> asm + C` the same with the chip's assembly "
                       "replacing whole portable files (one build per multiplier); cycles per "
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
        for k, (variant, measured, sizes) in enumerate(runs):
            if op not in measured:
                continue
            m = measured[op]
            doc["rows"].append({
                "op": op,
                "impl": VARIANTS[variant].impl + (f", {NOTES[op]}" if op in NOTES else ""),
                "cycles": m["cycles"],
                "code": sizes.get(op),
                "stack": m["stack"],
                "reference": REFERENCE.get(mpy, {}).get(op) if k == 0 else None,
            })
    goals = goal_rows(mpy, runs)
    if goals:
        doc["goals"] = goals
        doc["goals_title"] = (f"Issue #11 goals, {mult.split(' (')[0]}, measured on the "
                              f"{VARIANTS[GOAL_VARIANT[mpy]].impl} build "
                              f"({GOAL_VARIANT[mpy]})")
    results = repo() / "bench" / "results"
    results.mkdir(parents=True, exist_ok=True)
    path = results / f"{name}.json"
    path.write_text(json.dumps(doc, indent=1) + "\n")
    return path


def bench(argv=None):
    """The `make bench` step: bench.elf of each variant on the simulator, code size per
    operation; writes bench/results/msp430x-mpy{32,16}.json (one per multiplier, rows of
    its variants in VARIANTS order, and issue #11's goals for its assembly build)."""
    ap = argparse.ArgumentParser(prog="motebox_tools.bench msp430",
                                 description=bench.__doc__.split("\n")[0])
    ap.add_argument("--build", type=Path, default=build_dir())
    ap.add_argument("--sim", type=Path, default=sim_path())
    ap.add_argument("--mpy", type=int, choices=list(MPYS), action="append")
    ap.add_argument("--variants", nargs="*", choices=list(VARIANTS),
                    help="variants to measure (default: every one the board builds)")
    args = ap.parse_args(argv)
    root = repo()
    have_p256 = bool(list((root / "src" / "proto").glob("p256*.c")))
    if args.variants:
        chosen = args.variants
    else:
        chosen = [v for v in variants() if (args.build / v / "bench.elf").exists()]
        missing = [v for v in variants(asm=True) if v not in chosen]
        if missing:     # the board names a chip: its rows are part of the step
            raise SystemExit(f"no bench.elf for {', '.join(missing)} under {args.build} although "
                             f"mk/msp430.mk builds arch/{chip()}/: run `make msp430`")
    for mpy in args.mpy or list(MPYS):
        runs = []
        for variant in (v for v in chosen if VARIANTS[v].mpy == mpy):
            text = run_bench(args.build, args.sim, variant)
            measured = {_canon(op): row for op, row in parse_bench(text).items()}
            if not measured:
                raise SystemExit(f"no `bench op=...` lines in the firmware output:\n{text}")
            sizes = code_sizes(args.build, variant, have_p256=have_p256)
            runs.append((variant, measured, sizes))
            print(f"MSP430FR5969 {variant} ({VARIANTS[variant].impl}):")
            for op, m in measured.items():
                print(f"  {op:20s} {m['cycles']['median']:>12,} cycles  "
                      f"code {sizes.get(op, '-')!s:>6}  stack {m['stack']!s:>5}")
        if not runs:
            raise SystemExit(f"no bench.elf for --mpy {mpy} under {args.build}: run `make msp430`")
        path = write_json(mpy, runs)
        print(f"wrote {path.relative_to(root)}")
    return 0
