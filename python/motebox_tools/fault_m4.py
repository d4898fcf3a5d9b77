# SPDX-License-Identifier: MIT
"""`motebox fault --chip m4`: single-fault campaigns in the Cortex-M4 model
(sim/m4/fault.py), as fault.py runs them on the MSP430 simulator (docs/FAULTS.md).

The firmware is tests/target/fault.c built for the board (mk/m4_fault.mk:
build/m4/<variant>/fault.elf, and fault-unhardened.elf with MB_FAULT_HARDENED=0), with
the same forged box, the same counted functions and the same classification
(fault.classify). Target p256_ecdh: tests/target/fault_p256.c (fault-p256*.elf), a
valid key, faults sampled over the whole mb_p256_ecdh call (SampledInjector,
--samples K per model), outcomes against OpenSSL's secret (classify_p256).
Bits: a register flip tries the 32 bits of the destination register (the 4 flags
N Z C V when it is APSR), a load flip the 8, 16 or 32 bits of the value read; --bits K
samples K of them per instruction with random.Random(f"{seed}:{model}:{index}").
"""
import argparse
import array
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
TITLE = ("Single-fault campaigns (MSP430 simulator, Cortex-M4 model; forged boxes, "
         "P-256 ECDH)")

# P-256 ECDH (tests/target/fault_p256.c): a whole-window sampled campaign
# (SampledInjector), a valid input whose correct outcome is 0 and OpenSSL's secret.
P256 = "p256_ecdh"
# the same call with an off-curve peer key (the invalid-curve attack's input): it must be
# refused whatever single fault hits the call; short (the decoding refuses it), so every
# dynamic instruction of the window is faulted
P256_OFF = "p256_ecdh_off_curve"
P256_TARGETS = (P256, P256_OFF)
P256_SK = bytes((5 * i + 17) & 0xFF for i in range(32))         # < n (top byte 0x11)
P256_PEER_SK = bytes((7 * i + 3) & 0xFF for i in range(32))
P256_SAMPLES = 6700       # faults per model: >= 20,000 per build over the three (#18)
P256_CHECKS = "result_check"     # a symbol only the hardened ecdh has


def p256_input(off_curve=False):
    """(the patched fault_input: sk || the peer's uncompressed public key, the expected
    shared secret), both computed by OpenSSL (cryptography), never by motebox. off_curve:
    the key's y + 1 instead (not on P-256: OpenSSL refuses it, checked) and 32 zero
    bytes, the output of the refusal."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    me = ec.derive_private_key(int.from_bytes(P256_SK, "big"), ec.SECP256R1())
    peer = ec.derive_private_key(int.from_bytes(P256_PEER_SK, "big"),
                                 ec.SECP256R1()).public_key()
    pk = peer.public_bytes(serialization.Encoding.X962,
                           serialization.PublicFormat.UncompressedPoint)
    if not off_curve:
        return P256_SK + pk, me.exchange(ec.ECDH(), peer)
    p = 2**256 - 2**224 + 2**192 + 2**96 - 1
    bad = pk[:33] + ((int.from_bytes(pk[33:], "big") + 1) % p).to_bytes(32, "big")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), bad)
    except ValueError:
        return P256_SK + bad, bytes(32)
    raise RuntimeError("the off-curve key is on the curve")


def words_apart(a, b):
    """How many of the aligned 32-bit words of a and b differ."""
    return sum(a[i:i + 4] != b[i:i + 4] for i in range(0, len(a), 4))


def classify_p256(status, stdout, want):
    """crash | error | correct | wrong, and whether it is exploitable (issue #18: a
    result computed on another point or scalar, or an output other than the correct one
    while 0 is returned): returned 0 with a secret other than `want`; or returned -1
    with bytes that differ from zero and from `want` in two words or more. A -1 whose
    bytes are zero or `want` with at most one word changed is a fault in the release
    itself, after every computation (ecdh's release check saw it): it carries no result
    of another point, so it is wrong, not exploitable. A return value that is neither
    0 nor -1, "other", is an error to the caller: wrong, not exploitable."""
    out = F.parse_output(stdout) if status == 0 else None
    if out is None:
        return "crash", False
    ret, m = out
    if ret == "0" and m == want:
        return "correct", False
    if ret == "-1" and not any(m):
        return "error", False
    other = words_apart(m, bytes(len(m))) >= 2 and words_apart(m, want) >= 2
    return "wrong", ret == "0" or (ret == "-1" and other)


def repeated_word(m):
    """Whether m is one 32-bit word repeated (what a wipe writes from a faulted zero
    register); an x-coordinate is that with probability 2^-224."""
    return all(m[i:i + 4] == m[:4] for i in range(0, len(m), 4))


def classify_p256_off_curve(status, stdout, want=None):
    """As classify_p256 for an off-curve key, whose only correct outcome is the refusal
    (-1 and zero bytes: error): returning 0 is exploitable whatever the bytes (the
    caller would use a secret of the attacker's choosing), and so is -1 with bytes two
    words or more from zero (a result computed on the invalid point released), unless
    they are one word repeated: the refusal's wipe of the output, faulted, writing a
    stale register (the caller's: nothing of the key, which the refusal never reads),
    wrong, not exploitable."""
    out = F.parse_output(stdout) if status == 0 else None
    if out is None:
        return "crash", False
    ret, m = out
    if ret == "-1" and not any(m):
        return "error", False
    spilled = words_apart(m, bytes(len(m))) >= 2 and not repeated_word(m)
    return "wrong", ret == "0" or (ret == "-1" and spilled)


def p256_injector(elf, target=P256):
    """A SampledInjector on the P-256 image with p256_input(); the unfaulted run must
    return 0 and OpenSSL's secret (off-curve key: -1 and zero bytes). inj.judge(status,
    console) classifies a run."""
    from .sim.m4.fault import SampledInjector
    off = target == P256_OFF
    blob, want = p256_input(off)
    inj = SampledInjector(elf, "fault_begin", "fault_end", patch=("fault_input", blob))
    classify = classify_p256_off_curve if off else classify_p256
    if classify(0, inj.reference_console, want) != (("error" if off else "correct"), False):
        raise RuntimeError(f"unfaulted run of {elf} does not give OpenSSL's outcome:\n"
                           f"{inj.reference_console}")
    inj.want = want
    inj.judge = lambda st, con: classify(st, con, want)  # noqa: E731
    return inj


def _code_ranges(syms):
    """(name, lo, hi) of the sized symbols in flash, for naming a fault's function."""
    from .sim.m4.machine import CODE_BASE, CODE_SIZE
    return sorted(((n, v & ~1, (v & ~1) + sz) for n, (v, sz) in syms.items()
                   if sz and CODE_BASE <= v < CODE_BASE + CODE_SIZE and not n.startswith("$")),
                  key=lambda r: r[1])


def image(variant, hardened=True, target=None):
    """build/m4/<variant>/fault.elf, or its MB_FAULT_HARDENED=0 relink (fault-p256*.elf
    for the P-256 target)."""
    from .boards import m4
    stem = "fault-p256" if target in P256_TARGETS else "fault"
    p = m4.build_dir() / variant / (f"{stem}.elf" if hardened else f"{stem}-unhardened.elf")
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
    """Runs one task (elf, target, opts, faults): opts are the open's functions, or the
    P-256 listing entries {index: pc}."""
    elf, target, opts, faults = args
    if target in P256_TARGETS:
        inj = p256_injector(elf, target)
        inj.set_listing(opts)
        judge = inj.judge
    else:
        inj = injector(elf, target, opts)
        judge = F.classify
    res = []
    for (i, model, bit), o in inj.run(faults):
        cls, expl = judge(0 if o.status == 0 else 1, o.console)
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


def _open_plan(elf, target, model, bits, seed, functions):
    """The exhaustive (or bit-sampled) plan of an open: every counted instruction."""
    inj = injector(elf, target, functions)
    return {"faults": fault_list(inj.listing, model, bits, seed),
            "opts": lambda part: functions,
            "function_of": lambda pc: function_of(inj.named_ranges, pc),
            "text": lambda i: inj.listing[i].text,
            "window_instructions": len(inj.listing),
            "faulted_functions": [n for n, _, _ in inj.named_ranges],
            "sampling": None, "classes": ("crash", "error", "wrong")}


def _p256_plan(elf, model, seed, samples, target=P256):
    """The sampled plan of the P-256 ECDH: `samples` faults drawn uniformly, with
    random.Random(f"{seed}:p256:{model}"), among the window's dynamic instructions that
    the model applies to (all for a skip, those with a destination for a flip, loads
    for a load flip), one uniformly drawn bit each; samples=None: every one of them
    (exhaustive over the instructions, one bit each)."""
    from .sim.m4.fault import APSR, FLAG_BITS
    inj = p256_injector(elf, target)
    pcs = inj.trace()
    info = {pc: inj.decode(pc) for pc in set(pcs)}            # (size, dest, load, text)
    if model == "skip":
        elig = range(len(pcs))
    else:                                     # an array: millions of indices
        col = 1 if model == "flip" else 2     # dest >= 0 / load > 0
        ok = {pc for pc, d in info.items() if (d[col] >= 0 if col == 1 else d[col] > 0)}
        elig = array.array("I", (i for i, pc in enumerate(pcs) if pc in ok))
    rng = random.Random(f"{seed}:p256:{model}")
    faults = []
    every = samples is None or samples >= len(elig)
    for i in (elig if every else sorted(rng.sample(elig, samples))):
        _, dest, load, _ = info[pcs[i]]
        bit = 0 if model == "skip" else rng.randrange(8 * load) if model == "load" else \
            rng.choice(FLAG_BITS if dest == APSR else range(32))
        faults.append((i, model, bit))
    ranges = _code_ranges(inj.syms)
    return {"faults": faults,
            "opts": lambda part: {k: pcs[k] for i, _, _ in part
                                  for k in range(max(0, i - 4), i + 1)},
            "function_of": lambda pc: function_of(ranges, pc),
            "text": lambda i: info[pcs[i]][3],
            "window_instructions": len(pcs), "faulted_functions": ["mb_p256_ecdh (window)"],
            "sampling": (f"exhaustive: every one of the {len(elig)} instructions, one random "
                         f"bit each, seed {seed}") if every else
                        (f"{len(faults)} of {len(elig)} instructions "
                         f"({100.0 * len(faults) / max(1, len(elig)):.3g}%), one random bit "
                         f"each, seed {seed}"), "classes": ("crash", "error", "correct", "wrong")}


def campaign(elf, target, model, bits="all", seed=18, jobs=2, functions=None, samples=None):
    """Counts by class and the exploitable faults [(index, pc, function, detail)].
    P-256 (target p256_ecdh): `samples` faults per model (default P256_SAMPLES)."""
    if target == P256:
        plan = _p256_plan(elf, model, seed, samples or P256_SAMPLES)
    elif target == P256_OFF:
        plan = _p256_plan(elf, model, seed, samples, P256_OFF)
    else:
        plan = _open_plan(elf, target, model, bits, seed, functions)
    return run_plan(plan, _worker, lambda part: (elf, target, plan["opts"](part), part), jobs)


def run_plan(plan, worker, args_of, jobs):
    """Runs a campaign plan's faults in `jobs` processes (worker(args_of(part)) for each
    of 8 x jobs interleaved parts) and sums the outcomes: the row fields of campaign()."""
    todo = plan["faults"]
    jobs = max(1, min(jobs, 2))
    chunks = 8 * jobs
    parts = [[f for f in todo if f[0] % chunks == k] for k in range(chunks)]
    counts = dict.fromkeys(plan.get("classes", ("crash", "error", "correct", "wrong")), 0)
    bad = []
    results, sim_crashes = run_contained(worker, [args_of(p) for p in parts], jobs)
    counts["crash"] += len(sim_crashes)
    for part in results:
        for i, pc, model_, bit, cls, expl, injected in part:
            counts[cls] += 1
            if expl:
                bad.append((i, pc, plan["function_of"](pc), f"{plan['text'](i)}: {injected}"))
    bad.sort()
    return {"faults": len(todo), **counts, "exploitable": len(bad), "exploits": bad,
            "simulator_crashes": [f"#{i} {m} bit {b}" for i, m, b in sim_crashes],
            "window_instructions": plan["window_instructions"],
            "faulted_functions": plan["faulted_functions"], "sampling": plan["sampling"]}


def hardened(elf, target=None):
    if target not in P256_TARGETS:
        return F.hardened(elf)
    from .elf import symbol
    try:
        symbol(elf, P256_CHECKS)
        return True
    except KeyError:
        return False


def campaign_rows(variant, target, models=("skip", "flip"), bits="all", seed=18, jobs=2,
                  functions=None, log=None, unhardened=False, samples=None):
    """bench/results/faults.json rows of one M4 build and target."""
    elf = image(variant, not unhardened, target)
    rows = []
    for model in models:
        res = campaign(elf, target, model, bits, seed, jobs, functions, samples)
        rows.append(make_row(VARIANTS.get(variant, variant), variant, target, model, res,
                             hardened(elf, target),
                             res["sampling"] or ("exhaustive" if model == "skip" or bits == "all"
                                                 else f"{bits} bits per instruction, seed {seed}"),
                             log, f"m4 {variant}"))
    return rows


def make_row(impl, variant, target, model, res, is_hardened, sampling, log=None, label="",
             function=None):
    """The faults.json row of one M4 campaign (function: the row's name if not
    mb_<target>), logged with its exploits when log is given."""
    row = F.result_row(TARGET, impl, variant, target, model, res, is_hardened,
                       res["window_instructions"], res["faulted_functions"], sampling)
    if function:
        row["function"] = function
    if "correct" in res:
        row["correct"] = res["correct"]
    row["simulator_crashes"] = res["simulator_crashes"]
    if log:
        F.log_row(log, label, row)
        for e in row["exploits"]:
            log(f"    {e}")
    return row


def unfaulted_cycles(elf, workdir, blob, ok, what):
    """Modelled cycles (the cycle model, sim/m4/machine.py) the firmware measures around
    its call in one unfaulted run with fault_input = blob; ok(console) must hold."""
    from .elf import patch_elf
    from .sim.m4 import machine
    img = patch_elf(elf, Path(workdir) / f"{what}-{Path(elf).parent.name}-{Path(elf).stem}.elf",
                    "fault_input", blob)
    r = machine.run(img)
    text = r.stdout.decode(errors="replace")
    if r.exit_code != 0 or not ok(text):
        raise RuntimeError(f"{what} failed on {elf}: {r.error}\n{text}")
    return int(re.search(r"^cycles (\d+)$", text, re.M).group(1))


def open_cycles(elf, target, workdir):
    """Cycles of one open of a genuine 64-byte box (checked: returns 0 and releases the
    plaintext)."""
    return unfaulted_cycles(elf, workdir, F.genuine_input(target),
                            lambda text: F.parse_output(text) == ("0", F.MSG), "genuine")


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
    ap.add_argument("--targets", default="secretbox_open,box_open,box_open_low_order")
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
            cost.append(F.cost_row(v, VARIANTS[v], "mb_secretbox_open (64-byte message)",
                                   c_before, c_after, TARGET))
            log(f"m4 {v}: open 64 B {c_before} -> {c_after} cycles "
                f"({cost[-1]['overhead_percent']:+.2f}%)")
    # bench-faults-p256-m4 (bench_p256) writes the cortex-m4 P-256 rows: kept
    out = F.merge_results(
        a.out, rows, cost, lambda r: _own(r, TARGET), TITLE, "Cortex-M4",
        "Cortex-M4 (motebox fault --chip m4): the same firmware, window, functions and "
        "classification in the unicorn model, all 32 bits of the destination register "
        "(the 4 flags for APSR) and all 8/16/32 bits of the loaded value, secretbox and "
        "box opens")
    log(f"wrote {out}")
    return 0


def _own(row, target, p256=False):
    """Whether a faults.json row or cost row belongs to a step: the chip's open rows
    (bench) or its P-256 ones (bench_p256)."""
    fn = row.get("function", "")
    if fn.startswith(("mb_x25519", "mb_box_stream_final")):
        return False             # bench-faults-x25519-m4's rows (fault_x25519.py)
    return row.get("target") == target and fn.startswith("mb_p256_ecdh") == p256


def ecdh_cycles(elf, workdir):
    """Cycles of one mb_p256_ecdh of p256_input() (checked: returns 0 and OpenSSL's
    secret)."""
    blob, want = p256_input()
    return unfaulted_cycles(elf, workdir, blob,
                            lambda text: classify_p256(0, text, want) == ("correct", False),
                            "ecdh")


def bench_p256(argv=None):
    """The `make bench` step bench-faults-p256-m4: sampled campaigns (skip, flip, load) on
    mb_p256_ecdh of the portable and assembly -O2 builds, hardened (--samples per model)
    and unhardened (--unhardened-samples per model: enough to show the exploitable
    outcomes the hardening removes), the hardening's cost in modelled cycles; replaces
    only the cortex-m4 P-256 rows of bench/results/faults.json."""
    from .boards import m4
    from .paths import repo
    ap = argparse.ArgumentParser(prog="python -m motebox_tools.fault_m4 bench-p256")
    ap.add_argument("--out", default=str(repo() / "bench" / "results" / "faults.json"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--samples", type=int, default=P256_SAMPLES)
    ap.add_argument("--unhardened-samples", type=int, default=500)
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--variants", default=",".join(VARIANTS),
                    help="the builds to run (their rows only are replaced)")
    a = ap.parse_args(argv)
    log = lambda s: print(s, flush=True)  # noqa: E731
    variants = F.pick_variants(ap, a.variants, list(VARIANTS),
                               lambda v: (m4.build_dir() / v / "fault-p256.elf").exists(), log)
    rows, cost = [], []
    with tempfile.TemporaryDirectory(prefix="motebox-fault-p256-") as d:
        for v in variants:
            for unh in (True, False):
                rows += campaign_rows(v, P256, ("skip", "flip", "load"), seed=a.seed,
                                      jobs=a.jobs, log=log, unhardened=unh,
                                      samples=a.unhardened_samples if unh else a.samples)
                rows += campaign_rows(v, P256_OFF, ("skip", "flip", "load"), seed=a.seed,
                                      jobs=a.jobs, log=log, unhardened=unh)
            c_after = ecdh_cycles(image(v, True, P256), d)
            c_before = ecdh_cycles(image(v, False, P256), d)
            cost.append(F.cost_row(v, VARIANTS[v], "mb_p256_ecdh (one shared secret)",
                                   c_before, c_after, TARGET))
            log(f"m4 {v}: ECDH {c_before} -> {c_after} cycles "
                f"({cost[-1]['overhead_percent']:+.2f}%)")
    out = F.merge_results(
        a.out, rows, cost, lambda r: _own(r, TARGET, True) and r.get("variant") in variants,
        TITLE, "P-256",
        "P-256 ECDH on the Cortex-M4 (motebox fault --chip m4 --target p256_ecdh): a "
        "valid key, faults sampled uniformly over the whole call (fixed seed), "
        "exploitable = 0 returned with a secret other than OpenSSL's, or -1 with bytes "
        "two words or more away from both zero and OpenSSL's secret (classify_p256)")
    log(f"wrote {out}")
    return 0


def main(argv=None):
    """`motebox fault --chip m4 ...` (the options of fault.main; --variant: O2, O2-asm)."""
    ap = argparse.ArgumentParser(prog="motebox fault --chip m4", description=__doc__)
    ap.add_argument("--variant", action="append", help="build/m4/<variant> (default O2, O2-asm)")
    ap.add_argument("--unhardened", action="store_true",
                    help="fault-unhardened.elf (MB_FAULT_HARDENED=0) instead of fault.elf")
    ap.add_argument("--target", action="append", choices=sorted(F.TARGETS) + list(P256_TARGETS))
    ap.add_argument("--samples", type=int,
                    help=f"p256_ecdh: faults per model (default {P256_SAMPLES})")
    ap.add_argument("--models", default="skip,flip")
    ap.add_argument("--bits", default="all")
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--functions")
    ap.add_argument("--fault-list", metavar="FILE",
                    help="write the counted instructions (index pc dest load) and stop")
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    models = F.parse_models(ap, a.models)
    if a.bits != "all" and not (a.bits.isdigit() and 1 <= int(a.bits) <= 32):
        ap.error("--bits: 1..32 or all")
    functions = None
    if a.functions:
        functions = [] if a.functions == "all" else a.functions.split(",")
    variants = a.variant or [v for v in VARIANTS if _dir(v).exists()]
    if a.fault_list:
        t = (a.target or ["secretbox_open"])[0]
        if t in P256_TARGETS:
            ap.error("--fault-list: not for the p256_ecdh targets")
        inj = injector(image(variants[0], not a.unhardened), t, functions)
        Path(a.fault_list).write_text("".join(c.line() + "\n" for c in inj.listing))
        print(f"fault-window: {len(inj.listing)}")
        return 0
    rows = []
    for v in variants:
        for t in a.target or ["secretbox_open"]:
            rows += campaign_rows(v, t, models, a.bits, a.seed, a.jobs, functions,
                                  log=lambda s: print(s, flush=True), unhardened=a.unhardened,
                                  samples=a.samples)
    return F.finish_cli(rows, a.json)


def _dir(variant):
    from .boards import m4
    return m4.build_dir() / variant / "fault.elf"


if __name__ == "__main__":
    if sys.argv[1:2] == ["bench"]:
        sys.exit(bench(sys.argv[2:]))
    if sys.argv[1:2] == ["bench-p256"]:
        sys.exit(bench_p256(sys.argv[2:]))
    sys.exit(main())
