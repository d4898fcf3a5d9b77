# SPDX-License-Identifier: MIT
"""`motebox leak tvla|cpa|record`: the side-channel lab from the command line
(docs/SIDE_CHANNELS.md). The same functions are in campaign.py for Python use."""
import argparse
import json
import sys

import numpy as np

from . import campaign
from .inputs import OPS
from .stats import THRESHOLD


def plot_t(t, path, title, window=None):
    """t over time (first order, and second order if given) with the +-4.5 lines."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(9, 3.2))
    for order, style in ((1, "-"), (2, ":")):
        if order in t:
            v = np.nan_to_num(np.asarray(t[order]), posinf=1e3, neginf=-1e3)
            ax.plot(v, style, lw=0.6, label=f"order {order}")
    for s in (THRESHOLD, -THRESHOLD):
        ax.axhline(s, color="red", lw=0.8)
    ax.set_xlabel("sample" + (f" ({window})" if window else ""))
    ax.set_ylabel("Welch's t")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _hex_point(text):
    """argparse type of --fixed-point: hex digits (spaces and colons allowed)."""
    try:
        return bytes.fromhex(text.replace(":", "").replace(" ", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not hex: {text!r}") from None


def _locate(a, t):
    """Print where the samples over the threshold are: PC and function (locate.py)."""
    from collections import Counter
    from . import locate
    idx = sorted(set().union(*(np.flatnonzero(np.abs(v) > THRESHOLD).tolist()
                               for v in t.values())))
    rec = campaign.get_recorder(a.target, a.impl, a.function)
    inp = campaign.tvla_inputs(a.function, 1, a.seed, a.vary, a.fixed_point)[0][0]
    hits = locate.locate(rec, inp, idx, a.samples)
    for i, pc, fn in hits[:40]:
        print(f"  sample {i}: pc {pc:#x} {fn}  t = {t[1][i]:.1f}" if pc is not None
              else f"  sample {i}: not mapped")
    print("  by function:", dict(Counter(fn for _, _, fn in hits)))


def _parser():
    p = argparse.ArgumentParser(prog="motebox leak", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    for name, help in (("tvla", "fixed-vs-random t-test (ISO 17825 / TVLA)"),
                       ("cpa", "correlation power analysis (X25519 bits; M4 asm P-256 digit)"),
                       ("record", "record raw traces (random inputs) into a .npz file")):
        s = sub.add_parser(name, help=help)
        s.add_argument("--target", required=True, choices=sorted(campaign.RECORDERS))
        s.add_argument("--impl", default="asm", help="the build (recorder's names)")
        s.add_argument("--function", required=True, choices=sorted(OPS))
        s.add_argument("--traces", type=int, required=True)
        s.add_argument("--samples", type=int, help="samples per trace (recorder's default)")
        s.add_argument("--snr", type=float, help="add Gaussian noise of this SNR")
        s.add_argument("--seed", type=int, default=0)
        s.add_argument("--json", help="write the result row to this file")
        if name == "tvla":
            s.add_argument("--order", type=int, choices=(1, 2), default=1)
            s.add_argument("--plot", help="PNG of t over time")
            s.add_argument("--vary", choices=("input", "secret"), default="input",
                           help="the random set's random part: the input point (TVLA, "
                                "default) or the secret (fixed point)")
            s.add_argument("--fixed-point", type=_hex_point, metavar="HEX",
                           help="the fixed set's input point, hex (X25519: 32 bytes, "
                                "u little-endian, e.g. 09 and 31 zero bytes; P-256: 65 bytes "
                                "04 || X || Y); default a random-looking point from --seed")
            s.add_argument("--locate", action="store_true",
                           help="map the samples with |t| > 4.5 to PC and function")
        if name == "cpa":
            s.add_argument("--bits", type=int, default=4, help="scalar bits to attack")
            s.add_argument("--model", choices=("hw16", "hw32", "r25"),
                           help="word size of the prediction (default: the build's)")
        if name == "record":
            s.add_argument("--out", required=True, help=".npz: traces, pub, secret, rnd, group")
            s.add_argument("--kind", choices=("tvla", "cpa"), default="cpa",
                           help="tvla: fixed/random interleaved; cpa: all random")
    return p


def main(argv=None):
    p = _parser()
    a = p.parse_args(argv)
    if getattr(a, "fixed_point", None) is not None:
        want = 65 if a.function.startswith("p256") else 32
        if len(a.fixed_point) != want:
            p.error(f"--fixed-point: {a.function} takes {want} bytes, got {len(a.fixed_point)}")
    if a.cmd == "tvla":
        row, t = campaign.tvla(a.target, a.impl, a.function, a.traces, a.samples, a.order,
                               a.snr, a.seed, vary=a.vary, fixed_pub=a.fixed_point,
                               progress=lambda i, n: print(f"\r{i}/{n} traces", end="",
                                                           file=sys.stderr))
        print(file=sys.stderr)
        verdict = ("LEAKS (confirmed in both halves)" if row["leaks"] else
                   "exceeds 4.5 but not in both halves" if row["exceeds"] else
                   "no leak detected")
        print(f"{a.target} {a.impl} {a.function}: {row['traces']} traces x {row['samples']} "
              f"samples ({row['window']}); max |t| = {row['max_abs_t']} at sample "
              f"{row['argmax']}" + (f", second order {row['max_abs_t2']}" if a.order == 2
                                    else "") + f" -> {verdict} (threshold {THRESHOLD})")
        if a.locate and row["exceeds"]:
            _locate(a, t)
        if a.plot:
            plot_t(t, a.plot, f"TVLA {a.target} {a.impl} {a.function} ({a.traces} traces)",
                   row["window"])
    elif a.cmd == "cpa":
        row = campaign.cpa(a.target, a.impl, a.function, a.traces, a.samples, a.bits,
                           a.snr, a.seed, a.model)
        for d in row["details"]:
            last = d["rho"][max(d["rho"], key=int)]
            state = (f"recovered with {d['traces_needed']} traces" if d["traces_needed"]
                     else f"not recovered at {row['traces']}")
            print(f"bit {d['bit']}: max|rho| guess0 {last[0]:.3f} guess1 {last[1]:.3f} -> "
                  f"{state}")
        print(f"{row['bits_recovered']}/{row['bits_attacked']} bits recovered "
              f"(model {row['model']})")
    else:
        inputs, groups, x = campaign.record(a.target, a.impl, a.function, a.traces,
                                            a.samples, a.snr, a.seed, a.kind)
        np.savez_compressed(a.out, traces=x,
                            pub=np.array([list(i.pub) for i in inputs], dtype=np.uint8),
                            rnd=np.array([list(i.rnd) for i in inputs], dtype=np.uint8),
                            secret=np.frombuffer(inputs[0].secret, dtype=np.uint8),
                            group=np.array([] if groups is None else groups))
        row = {"target": a.target, "impl": a.impl, "function": a.function,
               "test": "record", "traces": len(x), "samples": x.shape[1], "out": a.out}
        print(f"{len(x)} traces x {x.shape[1]} samples -> {a.out}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(row, f, indent=1)
    return 0
