# SPDX-License-Identifier: MIT
"""python -m motebox_tools.leak.bench: the leakage matrix of `make bench-leakage` ->
bench/results/leakage.json and one plot of t over time per chip (leakage-<target>.png).

Per target and build: TVLA (first and second order) of X25519 and P-256 ECDH, plain and
randomized, at the same trace count; CPA on the plain X25519 ladder (and the Cortex-M4
assembly P-256 windows: cpa_p256.py), then on the randomized one at 10 times the traces
the plain one needed (at least as many as the plain run). Noise-free traces. Windows:
the first ladder steps (MATRIX below, from the recorders' instructions per step),
enough for the CPA's bits; trace counts are sized so that the matrix runs in about 10
minutes on 2 cores (docs/SIDE_CHANNELS.md). Entries whose recorder or build is missing
are skipped and listed under "skipped"; a job that fails is listed under "failed" (and
the exit status is 1).
Options: --only SUBSTRING (entries whose "target/impl" contains it), --jobs N, --out."""
import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from ..paths import repo
from . import campaign

X = ("x25519", "x25519_randomized")
P = ("p256_ecdh", "p256_ecdh_randomized")
# instructions (cycles on hw) per ladder step, measured: MSP430 asm 7.3k (mpy32) and
# 11.1k (mpy16), portable 81k; P-256 12k / 179k; M4 asm 1.4k, portable 3.7k; P-256
# 8.7k (one 4-bit window) / 11.4k
MATRIX = [
    # target, impl, functions, TVLA traces, CPA traces, CPA bits, samples per curve,
    # plain functions attacked by CPA
    ("msp430x-mpy32", "asm", X + P, 400, 200, 4, {"x25519": 40000, "p256": 24000}, X[:1]),
    ("msp430x-mpy32", "portable", X + P, 400, 200, 2, {"x25519": 250000, "p256": 180000},
     X[:1]),
    ("msp430x-mpy16", "asm", X + P, 400, 200, 4, {"x25519": 56000, "p256": 36000}, X[:1]),
    ("cortex-m4", "asm", X + P, 400, 200, 4, {"x25519": 7100, "p256": 8700}, X[:1] + P[:1]),
    ("cortex-m4", "portable", X + P, 400, 200, 4, {"x25519": 19000, "p256": 11500}, X[:1]),
    ("hw", "rtl", X, 400, 400, 3, {"x25519": None}, X[:1]),
]
PLOTS = {"msp430x-mpy32": "asm", "cortex-m4": "asm", "hw": "rtl"}   # chip -> build plotted


def _samples(entry, function):
    return entry[6]["p256" if function.startswith("p256") else "x25519"]


def _tvla_job(target, impl, function, traces, samples):
    row, t = campaign.tvla(target, impl, function, traces, samples, order=2)
    return row, t[1].astype(np.float32)


def _cpa_job(target, impl, function, traces, samples, bits):
    row = campaign.cpa(target, impl, function, traces, samples, bits=bits)
    row.pop("details", None)
    return row


def _available(target, impl, function):
    try:
        campaign.get_recorder(target, impl, function)
        return True
    except Exception as e:     # a recorder or build that is not there: skipped, said so
        return f"{type(e).__name__}: {e}"


def _result(fut, what, failed):
    """The job's result, or None with the failure listed (one broken build or recorder
    must not lose the rest of the matrix; the failures are in the JSON file)."""
    try:
        return fut.result()
    except Exception as e:
        failed.append(f"{what}: {type(e).__name__}: {str(e)[:300]}")
        return None


def plot(target, curves, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(len(curves), 1, figsize=(9, 1.9 * len(curves) + 0.6),
                             squeeze=False)
    for ax, (label, t) in zip(axes[:, 0], curves):
        ax.plot(np.clip(np.nan_to_num(t, posinf=1e3, neginf=-1e3), -100, 100), lw=0.4)
        for s in (4.5, -4.5):
            ax.axhline(s, color="red", lw=0.7)
        ax.set_title(label, fontsize=8)
        ax.set_ylabel("t", fontsize=8)
    axes[-1, 0].set_xlabel("sample from the start of the ladder window (|t| clipped at 100)")
    fig.suptitle(f"TVLA, t over time: {target}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m motebox_tools.leak.bench")
    ap.add_argument("--only", default="")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=str(repo() / "bench" / "results" / "leakage.json"))
    a = ap.parse_args(argv)
    t0 = time.time()
    results = Path(a.out).parent       # the plots go beside the JSON file
    results.mkdir(parents=True, exist_ok=True)
    rows, skipped, failed, curves = [], [], [], {}
    entries = [e for e in MATRIX if a.only in f"{e[0]}/{e[1]}"]
    with ProcessPoolExecutor(a.jobs) as pool:
        tv, plain_cpa, rand_cpa = {}, {}, {}
        for e in entries:
            target, impl, functions, n_tvla, n_cpa, bits, _, attacked = e
            for f in functions:
                ok = _available(target, impl, f)
                if ok is not True:
                    skipped.append(f"{target} {impl} {f}: {ok}")
                    continue
                if f in attacked and n_cpa:     # first: the randomized CPA waits for it
                    plain_cpa[(target, impl, f)] = (pool.submit(
                        _cpa_job, target, impl, f, n_cpa, _samples(e, f), bits), e)
                tv[(target, impl, f)] = pool.submit(_tvla_job, target, impl, f, n_tvla,
                                                    _samples(e, f))
        for (target, impl, f), (fut, e) in plain_cpa.items():
            row = _result(fut, f"cpa {target} {impl} {f}", failed)
            if row is None:
                continue
            rows.append(row)
            need = max(row["traces_to_recover"] or [row["traces"]])
            fr = f + "_randomized"
            if _available(target, impl, fr) is True:
                rand_cpa[(target, impl, fr)] = pool.submit(
                    _cpa_job, target, impl, fr, max(10 * need, e[4]), _samples(e, f), e[5])
        for (target, impl, f), fut in tv.items():
            res = _result(fut, f"tvla {target} {impl} {f}", failed)
            if res is None:
                continue
            row, t = res
            rows.append(row)
            if PLOTS.get(target) == impl:
                label = (f"{impl} {f}: max |t| {row['max_abs_t']} "
                         f"({row['traces']} traces x {row['samples']} samples)")
                curves.setdefault(target, []).append((label, t))
        for (target, impl, f), fut in rand_cpa.items():
            row = _result(fut, f"cpa {target} {impl} {f}", failed)
            if row is not None:
                rows.append(row)
    order = {(e[0], e[1]): i for i, e in enumerate(MATRIX)}
    fn_order = {f: i for i, f in enumerate(X + P)}
    rows.sort(key=lambda r: (order.get((r["target"], r["impl"]), 99),
                             fn_order.get(r["function"], 9), r["test"] != "tvla"))
    plots = []
    for target, cs in curves.items():
        name = f"leakage-{target}.png"
        plot(target, cs, results / name)
        plots.append({"title": f"TVLA t over time, {target} {PLOTS[target]}", "file": name})
    out = {"kind": "leakage", "target": "leakage", "plot": "own",
           "title": "Side-channel leakage (simulated power traces: TVLA and CPA)",
           "conditions": ("`make bench-leakage` (motebox_tools.leak.bench, "
                          "docs/SIDE_CHANNELS.md); noise-free leakage models; TVLA: fixed "
                          "vs random input point, secret fixed, max |t| over the window "
                          "(the first ladder steps), leak if > 4.5 (first or second "
                          "order); CPA: Hamming weight of the doubling's words, first "
                          "unknown scalar bits of X25519 (253, 252, ...); Cortex-M4 asm "
                          "P-256: the 4-bit digit u_62 from the selected table point in "
                          "the first mixed addition; the randomized functions at 10x the "
                          "traces the plain one needed (at least the same count); "
                          f"{time.time() - t0:.0f} s with {a.jobs} jobs"),
           "rows": rows, "plots": plots, "skipped": skipped, "failed": failed}
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1)
    print(f"leakage bench: {len(rows)} rows, {len(skipped)} skipped, {len(failed)} failed, "
          f"{time.time() - t0:.0f} s -> {a.out}")
    for s in skipped:
        print("  skipped:", s, file=sys.stderr)
    for s in failed:
        print("  FAILED:", s, file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
