# SPDX-License-Identifier: MIT
"""`make bench` for the crypto_box ASIP: busy cycles per command (Verilator, every W) and
Yosys area / logic depth per W -> bench/results/hw.json."""
import argparse
import json
import os
import statistics
import sys
from concurrent.futures import ThreadPoolExecutor

import nacl.bindings as nb

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "model"))
sys.path.insert(0, os.path.join(HERE, "synth"))
from rtl import RTL                                  # noqa: E402
from run import box_stream, decrypt, dh1, dh2        # noqa: E402
from synth import synth                              # noqa: E402

WS = (2, 4, 8, 12, 16)
RAM_BITS = 9 * 256
# RAM macro estimate from [HSSW15] itself: Faraday 130 nm single-port register-file RAM,
# 2048 bits = 0.023 mm^2 (section 3.1); 1 GE = 5.12 um^2 (UMC 130 nm, section 5).
GE_PER_RAM_BIT = 0.023e6 / 5.12 / 2048
REF = {  # [HSSW15], section 5 (Table 2 ranges over w = 2..16)
    "DH-1": "811,170 – 3,455,394 ([HSSW15], W=16..2)",
    "DH-2": "DH-1 + 34 ([HSSW15])",
    "INIT": "6,641 ([HSSW15])",
    "UPDATE": "7,443 – 9,291 per 64 B ([HSSW15])",
    "FIRST": None,
    "FINALIZE": "62 ([HSSW15])",
    "DECRYPT": "7,271 – 9,085 ([HSSW15])",
}
AREA_REF = {2: "14.6 kGE at w=2 ([HSSW15], incl. RAM macro)",
            16: "18 kGE at w=16 ([HSSW15], incl. RAM macro)"}


def stats(values):
    return {"min": min(values), "median": int(statistics.median(values)), "max": max(values)}


def measure(binary, runs):
    sim = RTL(binary)
    got = {k: [] for k in REF}
    for _ in range(runs):
        sk, peer_sk = os.urandom(32), os.urandom(32)
        got["DH-1"].append(dh1(sim, sk)[1])
        peer = nb.crypto_scalarmult_base(peer_sk)
        got["DH-2"].append(dh2(sim, sk, peer))
        k = nb.crypto_box_beforenm(peer, sk)
        nonce, msg = os.urandom(24), os.urandom(32 + 64 * 2)
        boxed, cyc = box_stream(sim, nonce, msg)
        assert nb.crypto_box_open_afternm(boxed, nonce, k) == msg
        for name in ("INIT", "FIRST", "UPDATE", "FINALIZE"):
            got[name].append(cyc[name])
        good = nb.crypto_box_afternm(msg[:32], nonce, k)
        ok, _, c = decrypt(sim, nonce, good[:16], good[16:])
        assert ok
        got["DECRYPT"].append(c)
    sim.close()
    return got


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    rom_v = os.path.join(a.build, "rom.v")
    with open(os.path.join(a.build, "rom.json")) as f:
        prog_words = len(json.load(f)["prog"])
    with ThreadPoolExecutor(max_workers=2) as ex:
        syn = dict(zip(WS, ex.map(lambda w: synth(w, rom_v), WS)))
    rows = []
    for W in WS:
        got = measure(os.path.join(a.build, f"W{W}", "vasip"), a.runs)
        for name, vals in got.items():
            rows.append({"op": name, "impl": f"W={W}", "unit": "cycles", "cycles": stats(vals), "code": None,
                         "stack": None, "reference": REF[name] if W in (2, 16) else None})
    for W in WS:
        s = syn[W]
        ar = s["area"]
        roms = sum(ar.get(m, 0) for m in ("prog_rom", "page_rom", "entry_rom")) + 2 * ar.get("const_rom", 0)
        regs = round(s["dff"] * 4.67)
        logic = round(ar["mb_asip"] - regs)
        ram = round(RAM_BITS * GE_PER_RAM_BIT)
        total = logic + regs + round(roms) + ram
        for op, v, ref in (("area: logic (datapath + control)", logic, None),
                           ("area: registers", regs, f"{s['dff']} flip-flops"),
                           ("area: program/constant/page ROMs (as logic)", round(roms),
                            f"{prog_words} x 16-bit program words"),
                           ("area: RAM macro estimate", ram, f"{RAM_BITS} bits x {GE_PER_RAM_BIT:.2f} GE"),
                           ("area: total", total, AREA_REF.get(W))):
            rows.append({"op": op, "impl": f"W={W}", "unit": "GE",
                         "cycles": {"min": v, "median": v, "max": v},
                         "code": None, "stack": None, "reference": ref})
        rows.append({"op": "logic depth (gates, longest path)", "impl": f"W={W}", "unit": "gates",
                     "cycles": {"min": s["depth"], "median": s["depth"], "max": s["depth"]},
                     "code": None, "stack": None, "reference": "critical path 53.4–82.6 ns ([HSSW15])"})
    result = {
        "target": "hw",
        "title": "crypto_box ASIP (RTL, Verilator cycle counts; Yosys area)",
        "conditions": (f"mb_asip.v, busy cycles per command from the Verilator testbench "
                       f"({a.runs} random inputs per W); area: Yosys 0.23 synth + abc to "
                       "hw/synth/ge.lib (NAND2 = 1 GE, weights in hw/README.md), ROMs "
                       "synthesized as logic, RAM as a macro estimate"),
        "rows": rows,
    }
    with open(a.out, "w") as f:
        json.dump(result, f, indent=1)
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
