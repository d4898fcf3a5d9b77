# SPDX-License-Identifier: MIT
"""`motebox fault --target p256_ecdh`: the sampled P-256 ECDH campaign on the MSP430
simulator (docs/FAULTS.md, "P-256 ECDH on the MSP430"), as fault_m4.py runs it in the
Cortex-M4 model.

    motebox fault --chip msp430 --target p256_ecdh [--variant V] [--samples K]
                  [--unhardened] [--models skip,flip,load] [--seed S] [--jobs J]

The firmware is tests/target/fault_p256.c (build/msp430/<variant>/fault-p256.elf, and
fault-p256-unhardened.elf relinked with the countermeasures' files compiled
MB_FAULT_HARDENED=0; mk/msp430.mk), patched with fault_m4.p256_input() (a fixed scalar
and a valid peer key, the expected secret from OpenSSL). The window is the whole
mb_p256_ecdh call. Per model, K faults are drawn uniformly with
random.Random(f"{seed}:p256:{model}") among the window's dynamic instructions the model
applies to (every one for a skip, those writing a register for a flip, those reading
data for a load flip), one of the 16 low bits drawn uniformly for each (the
_p256_plan rule). They run in `msp430sim --fault-batch` processes (forked at each
fault, faults sorted by index) and are classified by fault_m4.classify_p256.

Shortcut (sound): the unfaulted run writes its whole machine state every S counted
instructions (--fault-snap-out); a faulted child whose state equals it there, byte for
byte, ends (status 212, "converged"): the simulator is deterministic, so it would have
run on exactly as the unfaulted run and printed its output; it is classified with the
unfaulted run's console.
"""
import argparse
import array
import json
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import fault as F

P256 = "p256_ecdh"
SAMPLES = 6700          # per model: >= 20,000 per build over the three models (#18)
CONVERGED = 212         # msp430sim's ST_CONVERGED (snap.h)
SNAPSHOTS = 400         # about this many reference states per window
CHECKS = "result_check"  # a symbol only the hardened ecdh has


def image_path(variant, hardened=True):
    """build/msp430/<variant>/fault-p256.elf or its unhardened relink (built or not)."""
    from .boards import msp430 as t430
    return t430.build_dir() / variant / ("fault-p256.elf" if hardened
                                         else "fault-p256-unhardened.elf")


def image(variant, hardened=True):
    """image_path(variant, hardened), which must exist."""
    p = image_path(variant, hardened)
    if not p.exists():
        raise FileNotFoundError(f"{p} missing: run `make msp430`")
    return p


def is_hardened(elf):
    from .elf import symbol
    try:
        symbol(elf, CHECKS)
        return True
    except KeyError:
        return False


class P256Campaign:
    """One image: the patched ELF, the reference run (instruction list, snapshots,
    console, cycles), the sampled plans and their batch runs. Another call's campaign
    (fault_x25519_msp430.py) subclasses it: FUNCTION (the call whose return ends
    the window), TAG (of the plan's seed), target_input() and classify()."""
    FUNCTION = "mb_p256_ecdh"
    TAG = "p256"

    def target_input(self):
        """(the patched fault_input, the correct output)."""
        from .fault_m4 import p256_input
        return p256_input()

    def classify(self, status, text):
        from .fault_m4 import classify_p256
        return classify_p256(status, text, self.want)

    def __init__(self, elf_src, mpy, workdir, sim=None):
        from .elf import patch_elf, symbol
        from .sim import msp430 as s430
        self.sim = str(sim or s430.sim_path())
        self.mpy = mpy
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        blob, self.want = self.target_input()
        self.elf = patch_elf(elf_src, self.workdir / f"p256-{Path(elf_src).stem}.elf",
                             "fault_input", blob)
        begin, end = symbol(self.elf, "fault_begin")[0], symbol(self.elf, "fault_end")[0]
        self.base = F.sim_command(self.sim, mpy, begin, end)
        self.snap = self.workdir / f"snap-{Path(elf_src).stem}.bin"

    def prepare(self):
        """The unfaulted run (twice: the count, then the list and the snapshots); it must
        return 0 and OpenSSL's secret."""
        p = subprocess.run(self.base + ["--fault-count", str(self.elf)], capture_output=True,
                           text=True, timeout=3600)
        n = int(re.search(r"^fault-window: (\d+)", p.stderr, re.M).group(1))
        # snapshot spacing: a power of two, about SNAPSHOTS records (70 KB each)
        self.every = max(1024, 1 << max(0, (n // SNAPSHOTS).bit_length()))
        lst = self.workdir / "insns.txt"
        p = subprocess.run(self.base + ["--cycles", "--fault-list", str(lst), "--fault-snap-out",
                                        str(self.snap), "--fault-snap-every", str(self.every),
                                        str(self.elf)],
                           capture_output=True, text=True, timeout=3600)
        if p.returncode != 0 or self.classify(0, p.stdout) != ("correct", False):
            raise RuntimeError(f"unfaulted run of {self.elf}: status {p.returncode}\n"
                               f"{p.stdout}\n{p.stderr}")
        self.console = p.stdout
        self.cycles = int(re.search(r"^cycles: (\d+)", p.stderr, re.M).group(1))
        self.ecdh_cycles = int(re.search(r"^cycles (\d+)$", p.stdout, re.M).group(1))
        # pcs of every counted instruction; eligible indices per model (arrays: the
        # portable build's window is tens of millions of instructions)
        self.pcs = array.array("I")
        self.flip_ok, self.load_ok = array.array("I"), array.array("I")
        self.dest = {}
        with open(lst, "rb") as f:
            for line in f:
                i, pc, dest, load = line.split()
                i = int(i)
                self.pcs.append(int(pc, 16))
                d = int(dest)
                if d >= 0 and d != 3:                # r3 (CG2) holds nothing
                    self.flip_ok.append(i)
                if load == b"1":
                    self.load_ok.append(i)
        lst.unlink()
        if len(self.pcs) != n:
            raise RuntimeError(f"window {n} instructions, list {len(self.pcs)}")
        self.caller_return = self._caller_return()
        return self

    def _caller_return(self):
        """The index of mb_p256_ecdh's return into the caller (its last RET/RETA in the
        window, which also holds fault_begin's tail and the caller's code around the
        call): a PC flip after it or a flip of the address it loads is the caller's
        control flow, not run (fault.Campaign._caller_return's rule)."""
        from .elf import read_bytes, symbol
        lo, size = symbol(self.elf, self.FUNCTION)
        for i in range(len(self.pcs) - 1, -1, -1):
            pc = self.pcs[i]
            if lo <= pc < lo + size:
                word = int.from_bytes(read_bytes(self.elf, pc, 2), "little")
                return i if word in (0x4130, 0x0110) else None
        return None

    def eligible(self, model):
        if model == "skip":
            return range(len(self.pcs))
        elig = self.flip_ok if model == "flip" else self.load_ok
        r = self.caller_return
        if r is not None:         # binary search: the arrays are sorted
            import bisect
            k = bisect.bisect_left(elig, r)
            if k < len(elig) and elig[k] == r:
                elig = elig[:k] + elig[k + 1:]
        return elig

    def plan(self, model, samples, seed=18):
        """[(index, bit)]: `samples` indices drawn uniformly among the eligible ones with
        random.Random(f"{seed}:p256:{model}"), sorted, then one bit each (0 for a skip)."""
        elig = self.eligible(model)
        rng = random.Random(f"{seed}:{self.TAG}:{model}")
        out = []
        for i in sorted(rng.sample(elig, min(samples, len(elig)))):
            out.append((i, 0 if model == "skip" else rng.randrange(16)))
        self.rate = f"{len(out)} of {len(elig)} instructions " \
                    f"({100.0 * len(out) / max(1, len(elig)):.3g}%), one random bit of 16 " \
                    f"each, seed {seed}" if model != "skip" else \
                    f"{len(out)} of {len(elig)} instructions " \
                    f"({100.0 * len(out) / max(1, len(elig)):.3g}%), seed {seed}"
        return out

    def run_batch(self, model, faults):
        """One simulator process: [(status, console)] in the order of faults."""
        return F.run_fault_batch(
            self.base, self.elf, self.cycles, self.workdir,
            [f"{model} {i}" + ("" if model == "skip" else f" {b}") for i, b in faults],
            extra=("--fault-snap-in", str(self.snap)), timeout=4 * 3600)

    def run(self, model, samples, seed=18, jobs=1, chunk=400, log=None):
        """run_plan of plan(model, samples, seed)."""
        return self.run_plan(model, self.plan(model, samples, seed), jobs, chunk, log)

    def run_plan(self, model, todo, jobs=1, chunk=400, log=None):
        """Counts by class (crash, error, correct, wrong), converged runs, exploitable
        faults [(index, pc, function, detail)] of the faults todo [(index, bit)]. Chunks
        of `chunk` faults, one simulator process each, `jobs` at a time."""
        import concurrent.futures
        from .elf import function_at
        parts = [todo[k:k + chunk] for k in range(0, len(todo), chunk)]
        counts = {"crash": 0, "error": 0, "correct": 0, "wrong": 0}
        converged, bad, t0 = 0, [], time.time()
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
            for part, res in zip(parts, ex.map(lambda p: self.run_batch(model, p), parts)):
                for (i, b), (status, text) in zip(part, res):
                    if status == CONVERGED:    # ran on as the unfaulted run
                        converged += 1
                        status, text = 0, self.console
                    cls, expl = ("crash", False) if status < 0 else \
                        self.classify(status, text)
                    counts[cls] += 1
                    if expl:
                        pc = self.pcs[i]
                        detail = "" if model == "skip" else f"bit {b}"
                        bad.append((i, pc, function_at(self.elf, pc) or "?", detail))
                if log:
                    done = sum(counts.values())
                    log(f"  {model}: {done}/{len(todo)} faults, {time.time() - t0:.0f} s")
        return {"faults": len(todo), **counts, "converged": converged,
                "exploitable": len(bad), "exploits": bad,
                "seconds": round(time.time() - t0, 1)}


def campaign_rows(variant, models=("skip", "flip", "load"), samples=SAMPLES, seed=18, jobs=1,
                  unhardened=False, log=None, workdir=None):
    """bench/results/faults.json rows of one MSP430 build's P-256 ECDH, and the
    campaign (its ecdh_cycles: the firmware's count of one call)."""
    from .boards import msp430 as t430
    v = t430.VARIANTS[variant]
    elf = image(variant, not unhardened)
    with tempfile.TemporaryDirectory(prefix="motebox-fault-p256-", dir=workdir) as d:
        c = P256Campaign(elf, v.mpy, d).prepare()
        rows = []
        for model in models:
            res = c.run(model, samples, seed, jobs, log=log)
            row = F.result_row("msp430", v.impl, variant, P256, model, res, is_hardened(elf),
                               len(c.pcs), ["mb_p256_ecdh (window)"], c.rate)
            row["correct"] = res["correct"]
            row["converged"] = res["converged"]
            row["seconds"] = res["seconds"]
            rows.append(row)
            if log:
                F.log_row(log, variant, row)
                log(f"    converged {res['converged']}, {res['seconds']} s "
                    f"({res['seconds'] / max(1, res['faults']):.3f} s a fault)")
                for e in row["exploits"]:
                    log(f"    {e}")
        return rows, c.ecdh_cycles


def _own(row, variants):
    """The rows and cost rows this step writes: the MSP430's P-256 ones of `variants`."""
    return row.get("target") == "msp430" and row.get("variant") in variants and \
        row.get("function", "").startswith("mb_p256_ecdh")


def bench(argv=None):
    """The `make bench` step bench-faults-p256-msp430: the sampled campaigns (skip, flip,
    load) on mb_p256_ecdh of the assembly -O2 build with MPY32 (hardened --samples per
    model, unhardened --unhardened-samples) and of the portable r16 -O2 build
    (--portable-samples, --portable-unhardened-samples: its calls are ten times longer),
    the hardening's cost (the firmware's cycles of one call); replaces only the msp430
    P-256 rows of bench/results/faults.json."""
    from .boards import msp430 as t430
    from .paths import repo
    ap = argparse.ArgumentParser(prog="python -m motebox_tools.fault_p256 bench")
    ap.add_argument("--out", default=str(repo() / "bench" / "results" / "faults.json"))
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--samples", type=int, default=SAMPLES)
    ap.add_argument("--unhardened-samples", type=int, default=200)
    ap.add_argument("--portable-samples", type=int, default=SAMPLES)   # the goal: 20,000
    ap.add_argument("--portable-unhardened-samples", type=int, default=100)
    ap.add_argument("--variants", default="mpy32-asm,mpy32")
    ap.add_argument("--seed", type=int, default=18)
    a = ap.parse_args(argv)
    log = lambda s: print(s, flush=True)  # noqa: E731
    rows, cost, done = [], [], []
    for v in F.pick_variants(ap, a.variants, list(t430.VARIANTS),
                             lambda v: image_path(v).exists(), log):
        asm = t430.VARIANTS[v].asm
        cyc = {}
        for unh in (True, False):
            k = (a.unhardened_samples if unh else a.samples) if asm else \
                (a.portable_unhardened_samples if unh else a.portable_samples)
            r, cyc[unh] = campaign_rows(v, samples=k, seed=a.seed, jobs=a.jobs,
                                        unhardened=unh, log=log)
            rows += r
        cost.append(F.cost_row(v, t430.VARIANTS[v].impl, "mb_p256_ecdh (one shared secret)",
                               cyc[True], cyc[False], "msp430"))
        done.append(v)
        log(f"{v}: ECDH {cyc[True]} -> {cyc[False]} cycles "
            f"({cost[-1]['overhead_percent']:+.2f}%)")
    out = F.merge_results(
        a.out, rows, cost, lambda r: _own(r, done), F_TITLE, "P-256 ECDH on the MSP430",
        "P-256 ECDH on the MSP430 (motebox fault --target p256_ecdh): a valid key, faults "
        "sampled uniformly over the whole call (fixed seed, rate in each row's sampling), "
        "classified as on the Cortex-M4 (classify_p256); a faulted run whose whole machine "
        "state equals the unfaulted run's at a checkpoint ends there as correct (column "
        "converged)")
    log(f"wrote {out}")
    return 0


F_TITLE = ("Single-fault campaigns (MSP430 simulator, Cortex-M4 model; forged boxes, "
           "P-256 ECDH)")


def main(argv=None):
    """`motebox fault [--chip msp430] --target p256_ecdh ...`."""
    ap = argparse.ArgumentParser(prog="motebox fault --target p256_ecdh",
                                 description=__doc__.split("\n\n")[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target", choices=[P256], default=P256)
    ap.add_argument("--variant", action="append",
                    help="build/msp430/<variant> (default mpy32-asm when built, else mpy32)")
    ap.add_argument("--unhardened", action="store_true",
                    help="fault-p256-unhardened.elf (MB_FAULT_HARDENED=0)")
    ap.add_argument("--samples", type=int, default=SAMPLES, help="faults per model")
    ap.add_argument("--models", default="skip,flip,load")
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", help="write the rows there")
    a = ap.parse_args(argv)
    models = F.parse_models(ap, a.models)
    variants = a.variant or [next(v for v in ("mpy32-asm", "mpy32") if image_path(v).exists())]
    rows = []
    for v in variants:
        r, _ = campaign_rows(v, models, a.samples, a.seed, a.jobs, a.unhardened,
                             log=lambda s: print(s, flush=True))
        rows += r
    return F.finish_cli(rows, a.json)


if __name__ == "__main__":
    if sys.argv[1:2] == ["bench"]:
        sys.exit(bench(sys.argv[2:]))
    sys.exit(main())
