# SPDX-License-Identifier: MIT
"""`motebox fault --chip m4`: single-fault campaigns in the Cortex-M4 model
(sim/m4/fault.py), as fault.py runs them on the MSP430 simulator (docs/FAULTS.md).

The firmware is tests/target/fault.c built for the board (mk/m4_fault.mk:
build/m4/<variant>/fault.elf, and fault-unhardened.elf with MB_FAULT_HARDENED=0), with
the same forged box, the same counted functions and the same classification
(fault.classify). Bits: a register flip tries the 32 bits of the destination register
(the 4 flags N Z C V when it is APSR), a load flip the 8, 16 or 32 bits of the value
read; --bits K samples K of them per instruction with random.Random(f"{seed}:{model}:{index}").
"""
import argparse
import concurrent.futures
import json
import random
import re
import sys
import tempfile
from pathlib import Path

from . import fault as F

VARIANTS = {"O2": "portable C r25, -O2", "O2-asm": "arch/cortex-m4 asm + C, -O2"}
TARGET = "cortex-m4"


def image(variant, hardened=True):
    """build/m4/<variant>/fault.elf, or its MB_FAULT_HARDENED=0 relink."""
    from .boards import m4
    p = m4.build_dir() / variant / ("fault.elf" if hardened else "fault-unhardened.elf")
    if not p.exists():
        raise FileNotFoundError(f"{p} missing: run `make fault-m4`")
    return p


def _ranges(elf, names):
    from .elf import symbol
    out = []
    for name in names:
        try:
            lo, size = symbol(elf, name)
        except KeyError:
            continue
        if size:
            out.append((name, lo & ~1, (lo & ~1) + size))
    return out


def injector(elf, target, functions=None):
    """An Injector on elf with the forged input of `target` over its counted functions
    (functions: names, [] = the whole window, None = fault.TARGETS' list)."""
    from .sim.m4.fault import Injector
    blob, _ = F.forged_input(target)
    names = F.TARGETS[target][1] if functions is None else functions
    ranges = _ranges(elf, names) if names else None
    if names and not ranges:
        raise ValueError(f"none of {names} in {elf}")
    inj = Injector(elf, "fault_begin", "fault_end",
                   ranges=[(lo, hi) for _, lo, hi in ranges] if ranges else None,
                   patch=("fault_input", blob))
    inj.named_ranges = ranges or [("window", 0, 1 << 32)]
    if F.classify(0, inj.reference_console) != ("error", False):
        raise RuntimeError(f"unfaulted run of {elf} does not refuse the forgery:\n"
                           f"{inj.reference_console}")
    return inj


def function_of(ranges, pc):
    for name, lo, hi in ranges:
        if lo <= pc < hi:
            return name
    return "?"


def fault_list(listing, model, bits="all", seed=18):
    """[(index, model, bit)] of one model over the counted instructions."""
    from .sim.m4.fault import APSR, FLAG_BITS
    out = []
    for c in listing:
        if model == "skip":
            out.append((c.index, "skip", 0))
            continue
        if model == "flip":
            if c.dest < 0:
                continue
            space = list(FLAG_BITS) if c.dest == APSR else list(range(32))
        else:
            if not c.load:
                continue
            space = list(range(8 * c.load))
        if bits != "all":
            rng = random.Random(f"{seed}:{model}:{c.index}")
            space = sorted(rng.sample(space, min(len(space), int(bits))))
        chosen = space
        out += [(c.index, model, b) for b in chosen]
    return out


def _worker(args):
    elf, target, functions, faults = args
    inj = injector(elf, target, functions)
    res = []
    for (i, model, bit), o in inj.run(faults):
        cls, expl = F.classify(0 if o.status == 0 else 1, o.console)
        c = inj.listing[i]
        res.append((i, c.pc, model, bit, cls, expl, o.injected))
    return res


def run_contained(worker, tasks, jobs):
    """worker(task) for each task = (elf, target, functions, faults) in worker processes.
    unicorn can crash the process on a wild faulted state (a native segfault, seen once
    on a register flip): a task whose process died is rerun alone, and split until the
    fault that kills it is found. Returns (results of the tasks that ran, [faults whose
    run crashed the simulator]); those count as crashes (the device's outcome is unknown,
    but no output was released)."""
    from concurrent.futures.process import BrokenProcessPool
    results, crashed, retry = [], [], []
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs) as ex:
        futs = [(t, ex.submit(worker, t)) for t in tasks if t[3]]
        for t, f in futs:
            try:
                results.append(f.result())
            except BrokenProcessPool:
                retry.append(t)
    while retry:
        t = retry.pop()
        try:
            with concurrent.futures.ProcessPoolExecutor(max_workers=1) as ex:
                results.append(ex.submit(worker, t).result())
        except BrokenProcessPool:
            faults = t[3]
            if len(faults) == 1:
                crashed.append(faults[0])
            else:
                half = len(faults) // 2
                retry += [t[:3] + (faults[:half],), t[:3] + (faults[half:],)]
    return results, sorted(crashed)


def campaign(elf, target, model, bits="all", seed=18, jobs=2, functions=None):
    """Counts by class and the exploitable faults [(index, pc, function, detail)]."""
    inj = injector(elf, target, functions)
    todo = fault_list(inj.listing, model, bits, seed)
    jobs = max(1, min(jobs, 2))
    chunks = 8 * jobs
    parts = [[f for f in todo if f[0] % chunks == k] for k in range(chunks)]
    counts = {"crash": 0, "error": 0, "wrong": 0}
    bad = []
    results, sim_crashes = run_contained(_worker, [(elf, target, functions, p) for p in parts],
                                         jobs)
    counts["crash"] += len(sim_crashes)
    for part in results:
        for i, pc, model_, bit, cls, expl, injected in part:
            counts[cls] += 1
            if expl:
                bad.append((i, pc, function_of(inj.named_ranges, pc),
                            f"{inj.listing[i].text}: {injected}"))
    bad.sort()
    return {"faults": len(todo), **counts, "exploitable": len(bad), "exploits": bad,
            "simulator_crashes": [f"#{i} {m} bit {b}" for i, m, b in sim_crashes],
            "window_instructions": len(inj.listing),
            "faulted_functions": [n for n, _, _ in inj.named_ranges]}


def hardened(elf):
    return F.hardened(elf)


def campaign_rows(variant, target, models=("skip", "flip"), bits="all", seed=18, jobs=2,
                  functions=None, log=None, unhardened=False):
    """bench/results/faults.json rows of one M4 build and target."""
    elf = image(variant, not unhardened)
    rows = []
    for model in models:
        res = campaign(elf, target, model, bits, seed, jobs, functions)
        row = F.result_row(TARGET, VARIANTS.get(variant, variant), variant, target, model, res,
                           hardened(elf), res["window_instructions"],
                           res["faulted_functions"],
                           "exhaustive" if model == "skip" or bits == "all"
                           else f"{bits} bits per instruction, seed {seed}")
        row["simulator_crashes"] = res["simulator_crashes"]
        rows.append(row)
        if log:
            F.log_row(log, f"m4 {variant}", row)
            for e in row["exploits"]:
                log(f"    {e}")
    return rows


def open_cycles(elf, target, workdir):
    """Modelled cycles (the cycle model, sim/m4/machine.py) the firmware measures around
    one open of a genuine 64-byte box (checked: returns 0 and releases the plaintext)."""
    from .elf import patch_elf
    from .sim.m4 import machine
    img = patch_elf(elf, Path(workdir) / f"genuine-{Path(elf).parent.name}-{Path(elf).stem}.elf",
                    "fault_input", F.genuine_input(target))
    r = machine.run(img)
    text = r.stdout.decode(errors="replace")
    ret, m = F.parse_output(text) or (None, None)
    if r.exit_code != 0 or ret != "0" or m != F.MSG:
        raise RuntimeError(f"genuine open failed on {elf}: {r.error}\n{text}")
    return int(re.search(r"^cycles (\d+)$", text, re.M).group(1))


def bench(argv=None):
    """The `make bench` step (bench-faults-m4): hardened and unhardened campaigns (skip,
    flip, load) on the secretbox and box opens of the portable and assembly -O2 builds,
    the hardening's cost in modelled cycles; replaces the cortex-m4 rows of
    bench/results/faults.json (the MSP430 rows stay)."""
    from .boards import m4
    from .paths import repo
    ap = argparse.ArgumentParser(prog="python -m motebox_tools.fault_m4 bench")
    ap.add_argument("--out", default=str(repo() / "bench" / "results" / "faults.json"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--targets", default="secretbox_open,box_open")
    a = ap.parse_args(argv)
    variants = [v for v in VARIANTS if (m4.build_dir() / v / "fault.elf").exists()]
    rows, cost = [], []
    targets = a.targets.split(",")
    log = lambda s: print(s, flush=True)  # noqa: E731
    with tempfile.TemporaryDirectory(prefix="motebox-fault-m4-") as d:
        for v in variants:
            for t in targets:
                for unh in (True, False):
                    rows += campaign_rows(v, t, ("skip", "flip", "load"), jobs=a.jobs,
                                          log=log, unhardened=unh)
            c_after = open_cycles(image(v), "secretbox_open", d)
            c_before = open_cycles(image(v, False), "secretbox_open", d)
            cost.append({"target": TARGET, "variant": v,
                         "impl": VARIANTS[v],
                         "function": "mb_secretbox_open (64-byte message)",
                         "cycles_unhardened": c_before, "cycles_hardened": c_after,
                         "overhead_percent": round(100.0 * (c_after - c_before) / c_before, 2)})
            log(f"m4 {v}: open 64 B {c_before} -> {c_after} cycles "
                f"({cost[-1]['overhead_percent']:+.2f}%)")
    out = Path(a.out)
    result = json.loads(out.read_text()) if out.exists() else {
        "kind": "faults", "target": "faults", "plot": "own", "rows": [], "cost": []}
    result["rows"] = [r for r in result.get("rows", []) if r.get("target") != TARGET] + rows
    result["cost"] = [c for c in result.get("cost", []) if c.get("target") != TARGET] + cost
    result["title"] = "Single-fault campaigns (MSP430 simulator, Cortex-M4 model; forged boxes)"
    cond = result.get("conditions", "")
    if "Cortex-M4" not in cond:
        result["conditions"] = (cond + "; " if cond else "") + (
            "Cortex-M4 (motebox fault --chip m4): the same firmware, window, functions and "
            "classification in the unicorn model, all 32 bits of the destination register "
            "(the 4 flags for APSR) and all 8/16/32 bits of the loaded value, secretbox and "
            "box opens")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    log(f"wrote {out}")
    return 0


def main(argv=None):
    """`motebox fault --chip m4 ...` (the options of fault.main; --variant: O2, O2-asm)."""
    ap = argparse.ArgumentParser(prog="motebox fault --chip m4", description=__doc__)
    ap.add_argument("--variant", action="append", help="build/m4/<variant> (default O2, O2-asm)")
    ap.add_argument("--unhardened", action="store_true",
                    help="fault-unhardened.elf (MB_FAULT_HARDENED=0) instead of fault.elf")
    ap.add_argument("--target", action="append", choices=sorted(F.TARGETS))
    ap.add_argument("--models", default="skip,flip")
    ap.add_argument("--bits", default="all")
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--functions")
    ap.add_argument("--fault-list", metavar="FILE",
                    help="write the counted instructions (index pc dest load) and stop")
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    models = [m.strip() for m in a.models.split(",") if m.strip()]
    if any(m not in F.MODELS for m in models):
        ap.error(f"models: {', '.join(F.MODELS)}")
    if a.bits != "all" and not (a.bits.isdigit() and 1 <= int(a.bits) <= 32):
        ap.error("--bits: 1..32 or all")
    functions = None
    if a.functions:
        functions = [] if a.functions == "all" else a.functions.split(",")
    variants = a.variant or [v for v in VARIANTS if _dir(v).exists()]
    if a.fault_list:
        inj = injector(image(variants[0], not a.unhardened), (a.target or ["secretbox_open"])[0],
                       functions)
        Path(a.fault_list).write_text("".join(c.line() + "\n" for c in inj.listing))
        print(f"fault-window: {len(inj.listing)}")
        return 0
    rows = []
    for v in variants:
        for t in a.target or ["secretbox_open"]:
            rows += campaign_rows(v, t, models, a.bits, a.seed, a.jobs, functions,
                                  log=lambda s: print(s, flush=True), unhardened=a.unhardened)
    if a.json:
        Path(a.json).parent.mkdir(parents=True, exist_ok=True)
        Path(a.json).write_text(json.dumps({"rows": rows}, indent=1) + "\n")
        print(f"wrote {a.json}")
    return 1 if any(r["exploitable"] for r in rows) else 0


def _dir(variant):
    from .boards import m4
    return m4.build_dir() / variant / "fault.elf"


if __name__ == "__main__":
    if sys.argv[1:2] == ["bench"]:
        sys.exit(bench(sys.argv[2:]))
    sys.exit(main())
