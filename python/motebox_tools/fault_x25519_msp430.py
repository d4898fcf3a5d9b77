# SPDX-License-Identifier: MIT
"""`motebox fault --chip msp430 --target x25519|stream_final`: single-fault campaigns on
mb_x25519 and mb_box_stream_final in the MSP430 simulator (docs/FAULTS.md, "X25519 and
the stream final"; issue #18), as fault_x25519.py runs them in the Cortex-M4 model.

    motebox fault --chip msp430 --target x25519|stream_final [--variant V]
                  [--build hardened|unhardened|dual] [--models skip,flip,load]
                  [--samples K] [--bits K|all] [--seed S] [--json FILE]

The firmware is tests/target/fault_x25519.c (mk/msp430_fault_x25519.mk:
build/msp430/<variant>/fault-x25519.elf, fault-x25519-unhardened.elf relinked with the
countermeasures' files compiled MB_FAULT_HARDENED=0, and on the assembly build
fault-x25519-dual.elf, x25519.c compiled MB_FAULT_HARDENED_X25519_TWICE=1), patched with
fault_x25519.target_input() (libsodium's output) and classified by
fault_x25519.classify. The runner is fault_p256.P256Campaign (msp430sim --fault-batch,
one process at a time, and its snapshot/convergence shortcut):
  x25519        faults sampled uniformly over the whole mb_x25519 call: K per model
                drawn with random.Random(f"{seed}:x25519:{model}") among the window's
                dynamic instructions the model applies to, one of the 16 low bits each;
  stream_final  every dynamic instruction of the window (the final call): every skip,
                and per flip / load instruction all 16 low bits or, with --bits K, K of
                them drawn with random.Random(f"{seed}:{model}:{index}") (fault.py's
                rule, rate K/16).
A flip of PC after the call's return into the caller, or of the address it loads, is
the caller's control flow and is not run (fault_p256's rule; counted as excluded).
"""
import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from . import fault as F
from . import fault_p256 as P
from . import fault_x25519 as X

TARGET = "msp430"
TARGETS = ("x25519", "stream_final")
BUILDS = X.BUILDS            # the same image names as on the Cortex-M4
SAMPLES = 1000               # x25519 per model, hardened portable
DUAL_SAMPLES = 4000          # x25519 per model, the dual build (its faults cost little)
SMALL_SAMPLES = 150          # x25519 per model, unhardened and the asm default builds
STREAM_BITS = "all"          # stream final: flip / load bits per instruction
VARIANTS = ("mpy32", "mpy32-asm")


class X25519Campaign(P.P256Campaign):
    """fault_p256's campaign on fault_x25519.c's call (op 1 x25519, op 2 stream_final)."""
    TAG = "x25519"

    def __init__(self, elf_src, mpy, workdir, target, sim=None):
        self.target = target
        self.FUNCTION = X.FUNCTION[target]
        super().__init__(elf_src, mpy, workdir, sim)

    def target_input(self):
        return X.target_input(self.target)

    def classify(self, status, text):
        return X.classify(status, text, self.want)

    def plan(self, model, samples, seed=18):
        """x25519: fault_p256's sampled plan; stream_final: every eligible instruction,
        `samples` = bits per flip / load ("all" or K of 16, fault.py's draw)."""
        if self.target == "x25519":
            return super().plan(model, samples, seed)
        elig = self.eligible(model)
        out = []
        for i in elig:
            if model == "skip":
                out.append((i, 0))
                continue
            chosen = range(16) if samples == "all" else \
                sorted(random.Random(f"{seed}:{model}:{i}").sample(range(16), int(samples)))
            out += [(i, b) for b in chosen]
        self.rate = "exhaustive" if model == "skip" or samples == "all" else \
            f"{samples} of 16 bits per instruction, seed {seed}"
        return out

    def excluded(self, model, samples):
        """Faults not run on the call's return into the caller (PC flips)."""
        if model == "skip" or self.caller_return is None:
            return 0
        if self.target == "x25519":
            return 0              # a sample: that instruction is simply not drawn
        return 16 if samples == "all" else int(samples)


def image(variant, build="hardened"):
    from .boards import msp430 as t430
    p = t430.build_dir() / variant / BUILDS[build]
    if not p.exists():
        raise FileNotFoundError(f"{p} missing: run `make fault-x25519-msp430`")
    return p


def image_exists(variant, build):
    from .boards import msp430 as t430
    return (t430.build_dir() / variant / BUILDS[build]).exists()


def impl_of(variant, build):
    from .boards import msp430 as t430
    return t430.VARIANTS[variant].impl + (X.DUAL_IMPL if build == "dual" else "")


def campaign_rows(variant, target, build="hardened", models=("skip", "flip", "load"),
                  samples=SAMPLES, seed=18, jobs=1, log=None, workdir=None):
    """faults.json rows of one build and target, and the firmware's cycles of one call
    (unfaulted). samples: faults per model (x25519), bits per flip (stream_final)."""
    from .boards import msp430 as t430
    elf = image(variant, build)
    hard = X._has(elf, "tag_release" if target == "stream_final" else "result_check")
    with tempfile.TemporaryDirectory(prefix="motebox-fault-x25519-", dir=workdir) as d:
        c = X25519Campaign(elf, t430.VARIANTS[variant].mpy, d, target).prepare()
        rows = []
        for model in models:
            res = c.run(model, samples, seed, jobs, chunk=400,
                        log=log if target == "x25519" else None)
            res["excluded"] = c.excluded(model, samples)
            row = F.result_row(TARGET, impl_of(variant, build), variant, target, model, res,
                               hard, len(c.pcs), [f"{X.FUNCTION[target]} (window)"], c.rate)
            row["function"] = X.FUNCTION[target]
            row["correct"] = res["correct"]
            row["converged"] = res["converged"]
            row["seconds"] = res["seconds"]
            rows.append(row)
            if log:
                F.log_row(log, f"msp430 {variant} {build}", row)
                log(f"    correct {res['correct']}, converged {res['converged']}, "
                    f"{res['seconds']} s")
                for e in row["exploits"]:
                    log(f"    {e}")
        return rows, c.ecdh_cycles


def call_cycles(variant, build, target, workdir=None):
    """The firmware's cycles of one unfaulted call (libsodium's output checked)."""
    from .boards import msp430 as t430
    with tempfile.TemporaryDirectory(prefix="motebox-fault-x25519-", dir=workdir) as d:
        c = X25519Campaign(image(variant, build), t430.VARIANTS[variant].mpy, d, target)
        p = subprocess.run(c.base + ["--cycles", str(c.elf)], capture_output=True,
                           text=True, timeout=600)
        if p.returncode != 0 or c.classify(0, p.stdout) != ("correct", False):
            raise RuntimeError(f"{target} on {c.elf}: status {p.returncode}\n{p.stdout}")
        import re
        return int(re.search(r"^cycles (\d+)$", p.stdout, re.M).group(1))


def code_bytes(variant, build, target):
    """Bytes of code (.text*) of the files that carry the target's countermeasures as
    linked into the build's image (mk/msp430_fault_x25519.mk's objects; X.code_objects)."""
    from .boards import msp430 as t430
    return X.text_bytes("llvm-size", X.code_objects(
        t430.build_dir() / t430.VARIANTS[variant].lib / "obj", build, target))


def _own(row):
    return row.get("target") == TARGET and \
        row.get("function", "").startswith(("mb_x25519", "mb_box_stream_final"))


def plan_builds(variants):
    """(variant, build, target): the stream final on the unhardened and hardened builds,
    X25519 on every build that differs (the dual one on the assembly variant, whose
    default build has no X25519 checks: util/fault.h)."""
    out = []
    for v in variants:
        for b in ("unhardened", "hardened"):
            out.append((v, b, "stream_final"))
        for b in ("unhardened", "hardened", "dual"):
            if image_exists(v, b) and (b != "hardened" or
                                       X._has(image(v, b), "result_check")):
                out.append((v, b, "x25519"))
    return out


COND = ("mb_x25519 and mb_box_stream_final on the MSP430 (motebox fault --chip msp430 "
        "--target x25519|stream_final): X25519 of a valid key with faults sampled "
        "uniformly over the whole call (fixed seed), the stream final faulted at every "
        "instruction (bits of flips sampled as in each row's sampling), classified as on "
        "the Cortex-M4 (fault_x25519.classify); a faulted run whose whole machine state "
        "equals the unfaulted run's at a checkpoint ends there as correct (converged)")


def bench(argv=None):
    """make bench-faults-x25519-msp430: plan_builds' campaigns (X25519: --samples per
    model on the hardened portable build, --dual-samples on the dual one,
    --small-samples on the others;
    the stream final exhaustive with --bits per flip), the hardening's cost (the
    firmware's cycles of one call); replaces only the msp430 mb_x25519 /
    mb_box_stream_final rows of bench/results/faults.json."""
    from .boards import msp430 as t430
    from .paths import repo
    ap = argparse.ArgumentParser(prog="python -m motebox_tools.fault_x25519_msp430 bench")
    ap.add_argument("--out", default=str(repo() / "bench" / "results" / "faults.json"))
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--samples", type=int, default=SAMPLES)
    ap.add_argument("--small-samples", type=int, default=SMALL_SAMPLES)
    ap.add_argument("--dual-samples", type=int, default=DUAL_SAMPLES)
    ap.add_argument("--bits", default=STREAM_BITS)
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--targets", default=",".join(TARGETS))
    a = ap.parse_args(argv)
    log = lambda s: print(s, flush=True)  # noqa: E731
    variants = F.pick_variants(ap, a.variants, VARIANTS,
                               lambda v: image_exists(v, "hardened"), log)
    targets = F.parse_names(ap, "--targets", a.targets, TARGETS)
    rows, cost, cyc = [], [], {}
    for v, b, t in plan_builds(variants):
        if t not in targets:
            continue
        asm = t430.VARIANTS[v].asm
        full = b == "dual" or (b == "hardened" and not asm)
        k = a.bits if t == "stream_final" else a.dual_samples if b == "dual" else \
            a.samples if full else a.small_samples
        r, cyc[v, b, t] = campaign_rows(v, t, b, samples=k, seed=a.seed, jobs=a.jobs, log=log)
        rows += r
    for (v, b, t), after in sorted(cyc.items()):
        if b == "unhardened":
            continue
        before = cyc.get((v, "unhardened", t)) or call_cycles(v, "unhardened", t)
        what = "mb_x25519 (one shared secret)" if t == "x25519" else \
            "mb_box_stream_final (after a 64-byte update)"
        cost.append(F.cost_row(v, impl_of(v, b), what, before, after, TARGET))
        cost[-1]["code_unhardened"] = code_bytes(v, "unhardened", t)
        cost[-1]["code_hardened"] = code_bytes(v, b, t)
        log(f"msp430 {v} {b}: {what} {before} -> {after} cycles "
            f"({cost[-1]['overhead_percent']:+.2f}%), code "
            f"{cost[-1]['code_unhardened']} -> {cost[-1]['code_hardened']} bytes")
    out = F.merge_results(a.out, rows, cost, _own, P.F_TITLE, "mb_x25519 and "
                          "mb_box_stream_final on the MSP430", COND)
    log(f"wrote {out}")
    return 0


def main(argv=None):
    """`motebox fault [--chip msp430] --target x25519|stream_final ...`."""
    ap = argparse.ArgumentParser(prog="motebox fault --chip msp430 --target x25519",
                                 description=__doc__.split("\n\n")[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target", choices=TARGETS, default="x25519")
    ap.add_argument("--variant", action="append",
                    help="build/msp430/<variant> (default mpy32-asm when built, else mpy32)")
    ap.add_argument("--build", choices=sorted(BUILDS), default="hardened")
    ap.add_argument("--models", default="skip,flip,load")
    ap.add_argument("--samples", type=int, default=SAMPLES, help="x25519: faults per model")
    ap.add_argument("--bits", default="all", help="stream_final: bits per flip / load")
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", help="write the rows there")
    a = ap.parse_args(argv)
    models = [m.strip() for m in a.models.split(",") if m.strip()]
    if any(m not in F.MODELS for m in models):
        ap.error(f"models: {', '.join(F.MODELS)}")
    if a.bits != "all" and not (a.bits.isdigit() and 1 <= int(a.bits) <= 16):
        ap.error("--bits: 1..16 or all")
    variants = a.variant or [next((v for v in ("mpy32-asm", "mpy32")
                                   if image_exists(v, a.build)), "mpy32")]
    rows = []
    for v in variants:
        r, _ = campaign_rows(v, a.target, a.build, models,
                             a.bits if a.target == "stream_final" else a.samples, a.seed,
                             a.jobs, log=lambda s: print(s, flush=True))
        rows += r
    if a.json:
        Path(a.json).parent.mkdir(parents=True, exist_ok=True)
        Path(a.json).write_text(json.dumps({"rows": rows}, indent=1) + "\n")
        print(f"wrote {a.json}")
    return 1 if any(r["exploitable"] for r in rows) else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["bench"]:
        sys.exit(bench(sys.argv[2:]))
    sys.exit(main())
