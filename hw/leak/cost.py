# SPDX-License-Identifier: MIT
"""`make bench-hw-dpa`: what Coron's randomized projective coordinates cost and buy on
the coprocessor, from the lab's variant (dh1_rand.s, 10-bank RAM) against the shipped
ROM -> bench/results/hw_dpa.json.

cycles: busy cycles of DH-1 per W from the reference model (= the RTL, tests/hw), plus
the 8 host write cycles for lambda. area: Yosys on both ROMs (the ROMs are all that
changes in the synthesized design; the RAM is a macro) and one more RAM bank at
hw/bench.py's macro estimate. leakage: fixed-vs-random TVLA (first order) over the first
two ladder steps: plain, randomized with lambda of either parity, randomized with lambda
even (the fix: record_hw.lambda_of)."""
import argparse
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(HERE.parent / "model"), str(HERE.parent / "synth"), str(HERE.parent),
                str(REPO / "python")]
from asip import ASIP                                  # noqa: E402
from bench import GE_PER_RAM_BIT, WS                   # noqa: E402  (hw/bench.py)
from synth import synth                                # noqa: E402

HOST_WRITES = 8             # lambda: 8 words, one host cycle a word


def model_cycles(img, W):
    m = ASIP(img, W)
    m.ram.append([0] * 8)
    m.ram[9] = [2] + [0] * 7
    m.write(0, os.urandom(32))
    m.write(1, bytes([9]) + bytes(31))
    return m.run("DH1")


def rom_area(rom_v):
    a = synth(16, str(rom_v))["area"]
    return sum(a.get(m, 0) for m in ("prog_rom", "page_rom", "entry_rom"))


def row(op, impl, v, unit, ref=None):
    return {"op": op, "impl": impl, "unit": unit, "cycles": {"min": v, "median": v, "max": v},
            "code": None, "stack": None, "reference": ref}


def tvla_rows(traces):
    from motebox_tools.leak import campaign
    from motebox_tools.leak.record_hw import LADDER_STEP_CYCLES, HwRecorder
    out = []
    for fn, even, name in (("x25519", True, "plain DH-1"),
                           ("x25519_randomized", False, "randomized, lambda odd or even"),
                           ("x25519_randomized", True, "randomized, lambda even")):
        rec = HwRecorder(function=fn, even_lambda=even)
        r, _ = campaign.tvla("hw", "rtl", fn, traces=traces, seed=1, rec=rec,
                             samples=2 * LADDER_STEP_CYCLES[fn][16])
        rec.close()
        out.append(row(f"TVLA max abs(t), {name}", "W=16", r["max_abs_t"], "abs(t)",
                       f"{traces} traces, ladder steps 1-2; fails if > 4.5"))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True, help="$(BUILD)/hw")
    ap.add_argument("--out", required=True)
    ap.add_argument("--traces", type=int, default=4000)
    a = ap.parse_args()
    build = Path(a.build)
    os.environ["MOTEBOX_BUILD"] = str(build.parent)
    plain = json.loads((build / "rom.json").read_text())
    rand = json.loads((build / "leak" / "rom_rand.json").read_text())
    rows = []
    for W in WS:
        c0, c1 = model_cycles(plain, W), model_cycles(rand, W) + HOST_WRITES
        rows.append(row("DH-1 busy cycles, plain", f"W={W}", c0, "cycles"))
        rows.append(row("DH-1 busy cycles, randomized", f"W={W}", c1, "cycles",
                        f"+{c1 - c0:,} (+{100 * (c1 - c0) / c0:.1f} %), incl. "
                        f"{HOST_WRITES} host writes"))
    r0, r1 = rom_area(build / "rom.v"), rom_area(build / "leak" / "rom_rand.v")
    bank = round(256 * GE_PER_RAM_BIT)
    rows.append(row("area: ROMs, randomized minus plain", "any W", round(r1 - r0), "GE",
                    f"{len(rand['prog']) - len(plain['prog'])} more program words"))
    rows.append(row("area: one more RAM bank (lambda)", "any W", bank, "GE",
                    f"256 bits x {GE_PER_RAM_BIT:.2f} GE (macro estimate, hw/bench.py)"))
    rows += tvla_rows(a.traces)
    result = {
        "target": "hw-dpa",
        "title": "crypto_box ASIP: cost of randomized projective coordinates (lab variant)",
        "conditions": ("hw/leak/dh1_rand.s (Coron / [DS16] Algorithm 1: R0 = (rho : 0), "
                       "difference point (lambda u : lambda) kept projective, one fmul "
                       "more per ladder step) against the shipped ROM; cycles from the "
                       "reference model; ROM area from Yosys (ge.lib); TVLA on the "
                       "register-toggle model (docs/SIDE_CHANNELS.md)"),
        "plot": "own",
        "rows": rows,
    }
    Path(a.out).write_text(json.dumps(result, indent=1))
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
