# SPDX-License-Identifier: MIT
"""The Cortex-M4 board: QEMU's mps2-an386 (platforms/mps2-an386/), built by mk/m4.mk into
build/m4/<variant>/ (suite-*.elf, ct.elf, bench.elf, libmotebox.a).

- runners: under QEMU (`run_qemu`) or in motebox's cycle model (`run_model`, as
  `motebox sim m4` in a child process); `patch_elf` / `symbol` for input symbols;
- the demo's sensor node (`run_node`): demo/node.c compiled with its inputs in a
  generated header, run in the cycle model (or QEMU), what it sent parsed;
- the bench step (`bench`): bench/target/bench.c of every built variant in the cycle
  model, code size per operation, bench/results/cortex-m4.json and its plot.

Variants (`VARIANTS`): the build directories, portable C and with arch/cortex-m4/.
"""
import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..elf import patch_elf, symbol  # noqa: F401  (re-exported for the tests and bench)
from ..node_io import (NODE_INCLUDES, NODE_SOURCES, check_args, node_header,
                       parse_node_output)
from ..paths import build_root, python_path, repo

TITLE = "Arm Cortex-M4 (QEMU mps2-an386; motebox cycle model)"
# build/m4/<variant> -> what the bench rows call it
VARIANTS = {"O2": "portable C r25, -O2", "Os": "portable C r32, -Os",
            "O2-asm": "arch/cortex-m4 asm + C, -O2", "Os-asm": "arch/cortex-m4 asm + C, -Os",
            "monocypher-O2": "Monocypher 4.0.3 (peer, portable C), -O2"}
# Peer variants (mk/m4.mk, bench/target/bench_peer.c): their library and the symbols each
# of their operations reaches, for the code-size column.
PEERS = {"monocypher-O2": ("libmonocypher.a", {"x25519": ["crypto_x25519"]})}
QEMU = "qemu-system-arm"
# Semihosting console on stdout, nothing else attached (QEMU 7.2 semihosting routing, checked on Debian 12).
QEMU_ARGS = ["-M", "mps2-an386", "-display", "none", "-monitor", "none", "-serial", "none",
             "-chardev", "stdio,id=c0",
             "-semihosting-config", "enable=on,target=native,chardev=c0", "-kernel"]


def build_dir():
    """build/m4 of the tree (or of $MOTEBOX_BUILD)."""
    return build_root() / "m4"


def firmware(name, variant="O2"):
    """Path of a firmware image: build/m4/O2-asm/bench.elf, .../O2/suite-full.elf."""
    return build_dir() / variant / f"{name}.elf"


def have_qemu():
    return shutil.which(QEMU) is not None


def have_model():
    """True when the cycle model (motebox_tools.sim.m4) and its dependencies import."""
    try:
        return all(importlib.util.find_spec(m) is not None
                   for m in ("motebox_tools.sim.m4", "unicorn", "capstone"))
    except ImportError:
        return False


def run_qemu(elf, timeout=600):
    """Run elf under QEMU; returns (exit status, stdout text)."""
    p = subprocess.run([QEMU, *QEMU_ARGS, str(elf)], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout, stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout.decode(errors="replace")


def run_model(elf, timeout=1200, options=()):
    """Run elf in the cycle model, as `motebox sim m4 [options] elf` does, in a child
    process; returns (exit status, stdout text, stderr text)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(python_path()) + os.pathsep + env.get("PYTHONPATH", "")
    p = subprocess.run([sys.executable, "-m", "motebox_tools.sim.m4", *options, str(elf)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                       env=env, stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


# ---- the demo's sensor node ----------------------------------------------------------
PLATFORM = "platforms/mps2-an386"
CFLAGS = ["-std=c99", "-mcpu=cortex-m4", "-mthumb", "-O2", "-ffreestanding",
          "-ffunction-sections", "-fdata-sections", "-fno-tree-loop-distribute-patterns",
          "-DMB_RADIX=32", "-Wall", "-Wextra", "-Werror"]


def demo_variant():
    """The fastest build: with the assembly backend when this tree has one."""
    return "O2-asm" if (repo() / "arch" / "cortex-m4" / "files.mk").exists() else "O2"


def _library(variant):
    lib = build_dir() / variant / "libmotebox.a"
    if not lib.exists():
        subprocess.run(["make", "-s", "-C", str(repo()), f"BUILD={build_root()}", str(lib)],
                       check=True)
    return lib


def build_node(server_pk, node_sk, nonce, readings, workdir, variant=None):
    """Compile demo/node.c with these inputs against the library of `variant`; returns
    the ELF path."""
    root, work = repo(), Path(workdir)
    plat = root / PLATFORM
    header = node_header(server_pk, node_sk, nonce, readings, "motebox_tools.boards.m4")
    (work / "node_input.h").write_text(header)
    elf = work / "node.elf"
    srcs = [root / p for p in NODE_SOURCES] + [plat / "startup.c", plat / "hal.c",
                                               plat / "mem.c"]
    inc = [f"-I{p}" for p in (work, *(root / d for d in NODE_INCLUDES))]
    subprocess.run(["arm-none-eabi-gcc", *CFLAGS, *inc, *map(str, srcs),
                    str(_library(variant or demo_variant())),
                    "-nostdlib", "-nostartfiles", "-T", str(plat / "link.ld"),
                    "-Wl,--gc-sections", "-lgcc", "-o", str(elf)], check=True)
    return elf


def run_node_m4(server_pk: bytes, node_sk: bytes, readings: bytes, variant=None) -> dict:
    """Run the sensor node on the emulated Cortex-M4: inputs in a generated header
    (node_input.h: the server's public key, the node's 32 secret bytes and a fresh nonce
    from os.urandom, standing in for its TRNG, and the readings), demo/node.c compiled
    against build/m4/<variant>/libmotebox.a (made if missing; default: the fastest), run
    in the cycle model (cycle figures per step) or, without it, under QEMU (`cycles` None).
    Returns what the node sent: {"node_pk", "nonce", "ciphertext", "tag": bytes,
    "cycles": {name: int} or None, "stack": int, "where": str}. Verifies nothing: the
    server side (motebox_tools.demo) opens the box with libsodium."""
    check_args(server_pk, node_sk)
    variant = variant or demo_variant()
    nonce = os.urandom(24)
    with tempfile.TemporaryDirectory(prefix="motebox-node-") as tmp:
        elf = build_node(server_pk, node_sk, nonce, bytes(readings), tmp, variant)
        if have_model():
            from ..sim import m4
            r = m4.run(elf)
            status, out = r.exit_code, r.stdout.decode(errors="replace")
            where = (f"Cortex-M4 firmware (demo/node.c, gcc -O2, library build {variant}) "
                     f"in the motebox cycle model, {r.cycles:,} cycles in all")
            model = True
        else:
            status, out = run_qemu(elf, timeout=600)
            where = (f"Cortex-M4 firmware (demo/node.c, gcc -O2, library build {variant}) "
                     "under QEMU mps2-an386 (no cycle model)")
            model = False
    if status != 0:
        raise RuntimeError(f"node firmware exited with status {status}:\n{out}")
    sent = parse_node_output(out, nonce)
    sent["cycles"] = sent["cycles"] if model else None
    sent["where"] = where
    return sent


run_node = run_node_m4      # the boards table's name


# ---- the bench step ------------------------------------------------------------------
# firmware op -> (row label, library entry points whose code is counted)
OPS = {
    "fe_add": ("field addition", ["mb_fe25519_add"]),
    "fe_sub": ("field subtraction", ["mb_fe25519_sub"]),
    "fe_mul": ("field multiplication", ["mb_fe25519_mul"]),
    "fe_sqr": ("field squaring", ["mb_fe25519_sqr"]),
    "fe_mul121666": ("field multiplication by 121666", ["mb_fe25519_mul121666"]),
    "fe_invert": ("field inversion", ["mb_fe25519_invert"]),
    "x25519": ("X25519", ["mb_x25519"]),
    "x25519_randomized": ("X25519, randomized projective coordinates", ["mb_x25519_randomized"]),
    "x25519_base": ("X25519 public key (base point)", ["mb_x25519_base"]),
    "p256_base": ("P-256 public key (base point)", ["mb_p256_base"]),
    "p256_ecdh": ("P-256 ECDH", ["mb_p256_ecdh"]),
    "p256_ecdh_randomized": ("P-256 ECDH, randomized projective coordinates",
                             ["mb_p256_ecdh_randomized"]),
    "salsa20_block": ("Salsa20 block (64 bytes)", ["mb_salsa20_block"]),
    "poly1305_16": ("Poly1305 per 16 bytes", ["mb_poly1305"]),
    "box_stream_64": ("box stream per 64-byte block",
                      ["mb_box_stream_init", "mb_box_stream_update", "mb_box_stream_final"]),
    "secretbox": ("secretbox of {kib}", ["mb_secretbox"]),
    "box": ("box of {kib} (incl. X25519)", ["mb_box"]),
}
# [DS16] (De Santis & Sigl, STM32F411 Cortex-M4, gcc 4.9.3 -O2, assembly field
# arithmetic), as quoted in docs/REFERENCES.md.
REFERENCE = {
    "fe_add": "138 ([DS16], asm)",
    "fe_sub": "108 ([DS16], asm)",
    "fe_mul": "546 ([DS16], asm)",
    "fe_sqr": "362 ([DS16], asm)",
    "fe_mul121666": "72 ([DS16], asm)",
    "fe_invert": "96,337 ([DS16], asm)",
    "x25519": "1,423,667 cycles, 3,750 B code, 740 B stack ([DS16], asm)",
    "x25519_randomized": "1,563,582 cycles, 3,786 B code, 744 B stack ([DS16], asm)",
}
REFERENCE_CYCLES = {"fe_add": 138, "fe_sub": 108, "fe_mul": 546, "fe_sqr": 362,
                    "fe_mul121666": 72, "fe_invert": 96337, "x25519": 1423667,
                    "x25519_randomized": 1563582}
# Issue #6's goals for the assembly build (O2-asm), with the anchors it names; the table
# `make bench` renders compares them with this run's measurements.
GOAL_VARIANT = "O2-asm"
GOALS = [  # (op, metric, goal, anchor)
    ("x25519", "cycles", 520000,
     "548,873 (Lenngren, X25519-Cortex-M4, best published; his code takes 549,412 in this "
     "model, docs/M4_TIMING.md); 1,423,667 ([DS16])"),
    ("x25519_randomized", "cycles", 560000, "1,563,582 ([DS16])"),
    ("x25519", "code", 2500, "1,892 B (Lenngren)"),
    ("x25519", "stack", 400, "368 B (Lenngren)"),
    ("fe_mul", "cycles", 200, "546 ([DS16])"),
    ("fe_sqr", "cycles", 160, "362 ([DS16])"),
    ("p256_ecdh", "cycles", 850000, "about 906,000 (Lenngren, P256-Cortex-M4)"),
    ("p256_base", "cycles", 290000,
     "322,584 (Lenngren's P256-Cortex-M4 keygen in this model; published 327k); 932,533 "
     "(ours, ladder); issue #12, table <= 8 KB"),
    ("x25519_base", "cycles", 190000,
     "473,601 (ours, ladder); issue #12, fixed-base comb, table <= 8 KB (6,912 B)"),
    ("box_stream_64", "cycles", 2000, "7,443 ([HSSW15]'s coprocessor)"),
]


def goal_rows(rows):
    """One row per goal: the measured O2-asm value beside the goal, when that variant ran."""
    out = []
    for op, metric, goal, anchor in GOALS:
        row = next((r for r in rows if r["key"] == op and r["variant"] == GOAL_VARIANT), None)
        if row is None:
            continue
        value = row["cycles"]["median"] if metric == "cycles" else row[metric]
        out.append({"op": OPS[op][0].format(kib=""), "metric": metric, "goal": goal,
                    "anchor": anchor, "measured": value,
                    "met": value is not None and value <= goal})
    return out


LINE = re.compile(r"^bench op=(\w+) runs=(\d+) min=(\d+) median=(\d+) max=(\d+) stack=(\d+)"
                  r"(?: bytes=(\d+))?$")


def parse(out):
    rows, overhead = [], None
    for line in out.splitlines():
        if line.startswith("bench overhead="):
            overhead = int(line.split("=")[1])
        m = LINE.match(line.strip())
        if m:
            rows.append(dict(op=m[1], runs=int(m[2]), min=int(m[3]), median=int(m[4]),
                             max=int(m[5]), stack=int(m[6]), bytes=int(m[7] or 0)))
    if "bench done" not in out or not rows:
        raise RuntimeError(f"bench firmware did not finish:\n{out}")
    return rows, overhead


def code_size(lib, symbols):
    """(bytes, undefined symbols) of the library code reachable from symbols."""
    with tempfile.TemporaryDirectory() as tmp:
        obj = Path(tmp) / "op.o"
        args = ["arm-none-eabi-ld", "-r", "--gc-sections", "-e", symbols[0], "-o", str(obj)]
        for s in symbols:
            args += ["-u", s]
        subprocess.run(args + [str(lib)], check=True, capture_output=True)
        text, data, bss = map(int, subprocess.run(
            ["arm-none-eabi-size", "-B", str(obj)], check=True, capture_output=True,
            text=True).stdout.splitlines()[1].split()[:3])
        undef = subprocess.run(["arm-none-eabi-nm", "-u", str(obj)], check=True,
                               capture_output=True, text=True).stdout.split()
    return text + data + bss, [u for u in undef if u != "U"]


def kib(n):
    return f"{n // 1024} KiB" if n % 1024 == 0 else f"{n} bytes"


def bench_variant(build, variant):
    elf = build / variant / "bench.elf"
    status, out, err = run_model(elf, timeout=3600)
    if status != 0:
        raise RuntimeError(f"{elf}: exit status {status}\n{out}\n{err}")
    return parse(out)


def gcc_version():
    return subprocess.run(["arm-none-eabi-gcc", "-dumpversion"], capture_output=True,
                          text=True).stdout.strip()


def plot(result, path):
    """The board's bar plot and summary figure beside path (motebox_tools.bench.plots:
    the published rows come from each row's "reference")."""
    from ..bench import plots
    plots.render(result, Path(path).parent)


def bench(argv=None):
    """The `make bench` step: bench.elf of every built variant in the cycle model, code size
    per operation; writes bench/results/cortex-m4.json (schema: motebox_tools.bench.report)
    and its plot."""
    ap = argparse.ArgumentParser(prog="motebox_tools.bench m4",
                                 description=bench.__doc__.split("\n")[0])
    ap.add_argument("--build", type=Path, default=build_dir())
    ap.add_argument("--variants", nargs="*", help="default: every built variant")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    if args.out is None:
        args.out = repo() / "bench" / "results" / "cortex-m4.json"
    variants = args.variants or [v for v in VARIANTS if (args.build / v / "bench.elf").exists()]
    if not variants:
        print(f"bench m4: no bench.elf under {args.build}: run `make m4`", file=sys.stderr)
        return 1
    if not have_model():
        print("bench m4: the cycle model motebox_tools.sim.m4 is missing", file=sys.stderr)
        return 1

    with ThreadPoolExecutor(max_workers=max(1, min(len(variants), os.cpu_count() or 1))) as ex:
        measured = dict(zip(variants, ex.map(lambda v: bench_variant(args.build, v), variants)))

    rows, overheads = [], {}
    by_op = {}
    for v in variants:
        meas, overheads[v] = measured[v]
        for m in meas:
            by_op.setdefault(m["op"], []).append((v, m))
    for op, entries in by_op.items():
        label, symbols = OPS.get(op, (op, None))
        for k, (v, m) in enumerate(entries):
            code = None
            lib, syms = args.build / v / "libmotebox.a", symbols
            if v in PEERS:
                lib, syms = args.build / v / PEERS[v][0], PEERS[v][1].get(op)
            if syms:
                code, undef = code_size(lib, syms)
                if undef:
                    print(f"bench m4: warning: {op} ({v}) needs {', '.join(undef)} from outside "
                          "the library", file=sys.stderr)
            rows.append({"op": label.format(kib=kib(m["bytes"])), "key": op, "variant": v,
                         "impl": VARIANTS[v],
                         "cycles": {"min": m["min"], "median": m["median"], "max": m["max"]},
                         "runs": m["runs"], "code": code, "stack": m["stack"],
                         "reference": REFERENCE.get(op) if k == 0 else None})
    over = ", ".join(f"{v}: {o}" for v, o in overheads.items())
    result = {
        "target": "cortex-m4",
        "title": "ARM Cortex-M4 (motebox cycle model)",
        "plot": "own",        # this step draws its plot (with the [DS16] bars)
        "conditions": (
            "motebox Cortex-M4 cycle model (python/motebox_tools/sim/m4/: unicorn execution, "
            "Cortex-M4 TRM r0p1 Table 3-1 timings, zero wait states; docs/M4_TIMING.md) running "
            "bench/target/bench.c built for the QEMU mps2-an386 board; "
            f"arm-none-eabi-gcc {gcc_version()} -mcpu=cortex-m4 -mthumb; O2 "
            "MB_RADIX=25 (GF(2^255-19) in radix 2^25.5, the rest radix 32), Os and the "
            "assembly variants MB_RADIX=32. Peer row: Monocypher 4.0.3's crypto_x25519 (pymonocypher 4.0.3.4 "
            "source distribution, downloaded by make bench) built -O2 with the same CPU flags, "
            "board and model (bench/target/bench_peer.c). "
            "Cycles: DWT_CYCCNT around one call incl. argument set-up, call and return "
            f"(counter-read overhead subtracted: {over} cycles; operations returning a "
            "status are called through a wrapper that stores it, adding a few cycles and "
            "8 bytes of stack); min/median/max over the listed runs. Code: .text+.data+.bss of the library code reachable from the "
            "operation (arm-none-eabi-ld -r --gc-sections, arm-none-eabi-size), same build. "
            "Stack: painted-stack high-water mark of one call, caller-owned buffers excluded. "
            "Reference: [DS16] on an STM32F411 with hand-written assembly field arithmetic."),
        "rows": rows,
        "goals": goal_rows(rows),
        "goals_title": f"Issue #6 goals, measured on the {VARIANTS[GOAL_VARIANT]} build",
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    plot(result, args.out.with_suffix(".png"))
    for r in rows:
        print(f"{r['op']:<45} {r['impl']:<28} {r['cycles']['median']:>12,} cycles "
              f"{r['code'] if r['code'] is not None else '':>6} B code {r['stack']:>5} B stack")
    print(f"bench m4: wrote {args.out} and {args.out.with_suffix('.png').name}")
    return 0
