# SPDX-License-Identifier: MIT
"""Single-fault campaigns on mb_x25519 and mb_box_stream_final in the Cortex-M4 model
(docs/FAULTS.md, "X25519" and "Stream final"; issue #18).

The firmware is tests/target/fault_x25519.c (mk/m4_fault.mk: build/m4/<variant>/
fault-x25519.elf; fault-x25519-unhardened.elf with the files of the countermeasures
compiled MB_FAULT_HARDENED=0; on the assembly build fault-x25519-dual.elf, x25519.c
compiled MB_FAULT_HARDENED_X25519_TWICE=1: two computations compared).

  x25519        mb_x25519 of a fixed secret and a valid public key; faults sampled
                uniformly over the whole call (SampledInjector, --samples K per model,
                random.Random(f"{seed}:x25519:{model}"), one random bit each), as the
                P-256 campaign (fault_m4._p256_plan). Correct output: libsodium's
                crypto_scalarmult (PyNaCl).
  stream_final  mb_box_stream_final after init and one 64-byte update (outside the
                window); every instruction of the call faulted (Injector over the whole
                window): every skip, every register / load flip bit (--bits K samples K
                per instruction, random.Random(f"{seed}:{model}:{index}")). Correct
                output: the tag of libsodium's crypto_secretbox of the same message.

Classes: crash, error (-1 and an all-zero output), correct (0 and libsodium's output),
wrong (anything else). Exploitable: 0 returned with any other output, or an output
released with another return value whose bytes are two words or more away both from
zero and from the correct output (as fault_m4.classify_p256) and are not the correct
output with bits cleared (byte by byte, out & ~correct == 0): a result of another
point or scalar, a tag other than the correct one (Poly1305 key material), other
memory. -1 with the correct output, with it or zero one word changed, or with bits of
it cleared, is a fault in the release after every computation, which the last check
saw: wrong, not exploitable (a random wrong output passes the bit test with
probability (3/4)^(8n)).

    python -m motebox_tools.fault_x25519 run [--variant O2|O2-asm] [--build hardened|
        unhardened|dual] [--target x25519|stream_final] [--models skip,flip,load]
        [--samples K] [--bits K|all] [--seed S] [--jobs J] [--json FILE]
    python -m motebox_tools.fault_x25519 bench        (make bench-faults-x25519-m4)
"""
import argparse
import array
import json
import random
import sys
import tempfile

from . import fault as F
from . import fault_m4 as M

TARGET = "cortex-m4"
OPS = {"x25519": 1, "stream_final": 2, "x25519_own": 1}
FUNCTION = {"x25519": "mb_x25519", "stream_final": "mb_box_stream_final",
            "x25519_own": "mb_x25519 (own code)"}
# x25519_own: mb_x25519's own code exhaustively (the sample over the whole call almost
# never hits it: the ladder is most of the window): every instruction of these functions
# in the window (those absent from a build are left out), callees such as the field
# operations and the ladder steps not counted; a compiler's clone of one
# (scalarmult_verified.constprop.0) counts as the function
OWN_FUNCTIONS = ["mb_x25519", "x25519_checked", "scalarmult_verified", "result_check",
                 "release", "equal32", "zero_check", "clamp",
                 "mb_x25519_scalarmult_checked", "ladder_check"]


def _own_ranges(elf):
    """[(name, lo, hi)] of OWN_FUNCTIONS (and their clones) in elf."""
    from elftools.elf.elffile import ELFFile
    out = []
    with open(elf, "rb") as f:
        for s in ELFFile(f).get_section_by_name(".symtab").iter_symbols():
            base = s.name.split(".")[0]
            if base in OWN_FUNCTIONS and s["st_size"] and s["st_info"]["type"] == "STT_FUNC":
                lo = s["st_value"] & ~1
                out.append((s.name, lo, lo + s["st_size"]))
    return sorted(out, key=lambda r: r[1])
X_SK = bytes((13 * i + 1) & 0xFF for i in range(32))
X_PEER_SK = bytes((29 * i + 77) & 0xFF for i in range(32))
X_SAMPLES = 4000          # faults per model on a hardened build (#18 brief: 3 x 2,000 or more)
X_UNHARDENED_SAMPLES = 500
BUILDS = {"hardened": "fault-x25519.elf", "unhardened": "fault-x25519-unhardened.elf",
          "dual": "fault-x25519-dual.elf"}
DUAL_IMPL = ", MB_FAULT_HARDENED_X25519_TWICE=1"
COND = ("mb_x25519 and mb_box_stream_final on the Cortex-M4 (python -m "
        "motebox_tools.fault_x25519): X25519 of a valid key with faults sampled uniformly "
        "over the whole call (fixed seed), and mb_x25519's own code (own code) and the "
        "stream final faulted at every instruction (bits of flips sampled as in each "
        "row's sampling), exploitable = 0 returned with an output other than "
        "libsodium's, or an output released with -1 that is two words or more away from "
        "zero and from libsodium's and not libsodium's with bits cleared")


def target_input(target):
    """(the patched fault_input of fault_x25519.c, the correct output), the output
    computed by libsodium (PyNaCl), never by motebox."""
    import nacl.bindings as nb
    pk = nb.crypto_scalarmult_base(X_PEER_SK)
    blob = bytes([OPS[target]]) + X_SK + pk + F.KEY + F.NONCE + F.MSG
    if target != "stream_final":
        want = nb.crypto_scalarmult(X_SK, pk)
    else:
        want = nb.crypto_secretbox(F.MSG, F.NONCE, F.KEY)[:16]   # tag || ciphertext
    return blob, want


def classify(status, stdout, want):
    """crash | error | correct | wrong, and whether it is exploitable (module doc)."""
    out = F.parse_output(stdout) if status == 0 else None
    if out is None or len(out[1]) != len(want):
        return "crash", False
    ret, m = out
    if ret == "0" and m == want:
        return "correct", False
    if ret == "-1" and not any(m):
        return "error", False
    cleared = all(x & ~w == 0 for x, w in zip(m, want))   # want with bits cleared
    other = M.words_apart(m, bytes(len(m))) >= 2 and M.words_apart(m, want) >= 2
    return "wrong", ret == "0" or (other and not cleared)


def image(variant, build="hardened"):
    from .boards import m4
    p = m4.build_dir() / variant / BUILDS[build]
    if not p.exists():
        raise FileNotFoundError(f"{p} missing: run `make fault-m4`")
    return p


def _injector(elf, target, sampled):
    from .sim.m4.fault import Injector, SampledInjector
    blob, want = target_input(target)
    if sampled:
        inj = SampledInjector(elf, "fault_begin", "fault_end", patch=("fault_input", blob))
    elif target == "x25519_own":
        ranges = _own_ranges(elf)
        inj = Injector(elf, "fault_begin", "fault_end", patch=("fault_input", blob),
                       ranges=[(lo, hi) for _, lo, hi in ranges])
        inj.own = [n for n, _, _ in ranges]
    else:
        inj = Injector(elf, "fault_begin", "fault_end", patch=("fault_input", blob))
    if classify(0, inj.reference_console, want) != ("correct", False):
        raise RuntimeError(f"unfaulted run of {elf} does not give libsodium's output:\n"
                           f"{inj.reference_console}")
    inj.want = want
    return inj


def _worker(args):
    """One task (elf, target, listing entries {index: pc} or None, faults)."""
    elf, target, entries, faults = args
    inj = _injector(elf, target, entries is not None)
    if entries is not None:
        inj.set_listing(entries)
    res = []
    for (i, model, bit), o in inj.run(faults):
        cls, expl = classify(0 if o.status == 0 else 1, o.console, inj.want)
        res.append((i, inj.listing[i].pc, model, bit, cls, expl, o.injected))
    return res


def _x25519_plan(elf, model, seed, samples):
    """K faults drawn uniformly among the window's dynamic instructions the model
    applies to, one uniformly drawn bit each (as fault_m4._p256_plan)."""
    from .sim.m4.fault import APSR, FLAG_BITS
    inj = _injector(elf, "x25519", True)
    pcs = inj.trace()
    info = {pc: inj.decode(pc) for pc in set(pcs)}
    if model == "skip":
        elig = range(len(pcs))
    else:
        col = 1 if model == "flip" else 2
        ok = {pc for pc, d in info.items() if (d[col] >= 0 if col == 1 else d[col] > 0)}
        elig = array.array("I", (i for i, pc in enumerate(pcs) if pc in ok))
    rng = random.Random(f"{seed}:x25519:{model}")
    faults = []
    for i in sorted(rng.sample(elig, min(samples, len(elig)))):
        _, dest, load, _ = info[pcs[i]]
        bit = 0 if model == "skip" else rng.randrange(8 * load) if model == "load" else \
            rng.choice(FLAG_BITS if dest == APSR else range(32))
        faults.append((i, model, bit))
    ranges = M._code_ranges(inj.syms)
    return {"faults": faults,
            "entries": lambda part: {k: pcs[k] for i, _, _ in part
                                     for k in range(max(0, i - 4), i + 1)},
            "function_of": lambda pc: M.function_of(ranges, pc),
            "text": lambda i: info[pcs[i]][3],
            "window_instructions": len(pcs), "faulted_functions": ["mb_x25519 (window)"],
            "sampling": f"{len(faults)} of {len(elig)} instructions "
                        f"({100.0 * len(faults) / max(1, len(elig)):.3g}%), one random bit "
                        f"each, seed {seed}"}


def _exhaustive_plan(elf, target, model, bits, seed):
    """Every counted instruction: the whole window (the final call), or mb_x25519's own
    functions (x25519_own)."""
    inj = _injector(elf, target, False)
    ranges = M._code_ranges(inj.syms)
    return {"faults": M.fault_list(inj.listing, model, bits, seed),
            "entries": lambda part: None,
            "function_of": lambda pc: M.function_of(ranges, pc),
            "text": lambda i: inj.listing[i].text,
            "window_instructions": len(inj.listing),
            "faulted_functions": inj.own if target == "x25519_own" else
                                 ["mb_box_stream_final (window)"],
            "sampling": "exhaustive" if model == "skip" or bits == "all" else
                        f"{bits} bits per instruction, seed {seed}"}


def campaign(elf, target, model, samples=X_SAMPLES, bits="all", seed=18, jobs=1):
    plan = _x25519_plan(elf, model, seed, samples) if target == "x25519" else \
        _exhaustive_plan(elf, target, model, bits, seed)
    return M.run_plan(plan, _worker, lambda part: (elf, target, plan["entries"](part), part),
                      jobs)


def _has(elf, name):
    """Whether elf has the function name (or a compiler's clone of it, name.*)."""
    from elftools.elf.elffile import ELFFile
    with open(elf, "rb") as f:
        return any(s.name.split(".")[0] == name
                   for s in ELFFile(f).get_section_by_name(".symtab").iter_symbols())


def campaign_rows(variant, target, build="hardened", models=("skip", "flip", "load"),
                  samples=X_SAMPLES, bits="all", seed=18, jobs=1, log=None):
    elf = image(variant, build)
    impl = M.VARIANTS.get(variant, variant) + (DUAL_IMPL if build == "dual" else "")
    # hardened: the image carries the checks (symbols only the hardened files have)
    hard = _has(elf, "tag_release" if target == "stream_final" else "result_check")
    rows = []
    for model in models:
        res = campaign(elf, target, model, samples, bits, seed, jobs)
        rows.append(M.make_row(impl, variant, target, model, res, hard, res["sampling"], log,
                               f"m4 {variant} {build}", FUNCTION[target]))
    return rows


def call_cycles(elf, target, workdir):
    """Modelled cycles (the cycle model) the firmware measures around the call
    (checked: libsodium's output)."""
    blob, want = target_input(target)
    return M.unfaulted_cycles(elf, workdir, blob,
                              lambda text: classify(0, text, want) == ("correct", False),
                              target)


CODE_SRC = {"x25519": ["src/proto/x25519.c", "src/curve/x25519_scalarmult.c",
                      "src/curve/x25519_ladder_steps.c"],
            "stream_final": ["src/proto/stream.c"]}


def code_objects(obj, build, target):
    """The objects of the files that carry the target's countermeasures as linked into
    a build's image (obj: the library build's obj folder; the unhardened relink's and
    the dual x25519.o for those builds); a file the assembly backend replaces (arch/,
    files.mk) has none."""
    out = []
    for src in CODE_SRC[target]:
        if build == "unhardened":
            o = obj / "fault-unhardened" / "x25519" / f"{src}.o"
        elif build == "dual" and src.endswith("proto/x25519.c"):
            o = obj / "fault-dual" / "x25519.o"
        else:
            o = obj / (src[:-2] + ".o")
        if o.exists():
            out.append(o)
    return out


def text_bytes(size_tool, objs):
    """Bytes of the .text* sections of objs, by `size_tool -A` (the chip's size)."""
    import subprocess
    total = 0
    for o in objs:
        out = subprocess.run([size_tool, "-A", str(o)], check=True, capture_output=True,
                             text=True).stdout
        total += sum(int(ln.split()[1]) for ln in out.splitlines() if ln.startswith(".text"))
    return total


def code_bytes(variant, build, target):
    """Bytes of code of the files that carry the target's countermeasures in the M4
    build (code_objects); unused functions of those files count in every build alike."""
    from .boards import m4
    return text_bytes("arm-none-eabi-size",
                      code_objects(m4.build_dir() / variant / "obj", build, target))


def _own(row):
    return row.get("target") == TARGET and \
        row.get("function", "").startswith(("mb_x25519", "mb_box_stream_final"))


def x25519_checked(variant, build):
    """Whether the build's mb_x25519 carries the checks: not the assembly backends'
    default build (util/fault.h: only with the two computations), which is then the
    unhardened one again."""
    return build != "unhardened" and _has(image(variant, build), "result_check")


def plan_builds(variants):
    """(variant, build, target) of the bench: X25519 (sampled, and its own code
    exhaustive) on every build that differs (the dual one on the assembly variant, whose
    default build has no X25519 checks), the stream final on the hardened and unhardened
    ones."""
    out = []
    for v in variants:
        builds = ["unhardened"] + (["hardened"] if x25519_checked(v, "hardened") else []) + \
            (["dual"] if (image_exists(v, "dual")) else [])
        for b in builds:
            out.append((v, b, "x25519"))
            out.append((v, b, "x25519_own"))
        for b in ("unhardened", "hardened"):
            out.append((v, b, "stream_final"))
    return out


def image_exists(variant, build):
    from .boards import m4
    return (m4.build_dir() / variant / BUILDS[build]).exists()


def bench(argv=None):
    """make bench-faults-x25519-m4: the campaigns of plan_builds (X25519 sampled: --samples
    per model on the hardened and dual builds, --unhardened-samples on the others; the
    stream final exhaustive, --bits for the flips), the hardening's cost in modelled
    cycles; replaces only the cortex-m4 mb_x25519 / mb_box_stream_final rows."""
    from .boards import m4
    from .paths import repo
    ap = argparse.ArgumentParser(prog="python -m motebox_tools.fault_x25519 bench")
    ap.add_argument("--out", default=str(repo() / "bench" / "results" / "faults.json"))
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--samples", type=int, default=X_SAMPLES)
    ap.add_argument("--unhardened-samples", type=int, default=X_UNHARDENED_SAMPLES)
    ap.add_argument("--bits", default="all", help="stream final: bits per flip")
    ap.add_argument("--own-bits", default="all",
                    help="x25519_own: bits per flip (4 on the unhardened builds)")
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--targets", default="x25519,x25519_own,stream_final")
    a = ap.parse_args(argv)
    variants = [v for v in M.VARIANTS if image_exists(v, "hardened")]
    targets = a.targets.split(",")
    log = lambda s: print(s, flush=True)  # noqa: E731
    rows, cost = [], []
    for v, b, t in plan_builds(variants):
        if t not in targets:
            continue
        # the larger sample where the checks are (the assembly build's default hardened
        # image has none in its ladder: like the unhardened one)
        full = b == "dual" or (b == "hardened" and v != "O2-asm")
        n = a.samples if full else a.unhardened_samples
        bits = a.bits if t == "stream_final" else a.own_bits if full else "4"
        rows += campaign_rows(v, t, b, samples=n, bits=bits, seed=a.seed, jobs=a.jobs,
                              log=log)
    with tempfile.TemporaryDirectory(prefix="motebox-fault-x25519-") as d:
        for v in variants:
            for t in (t for t in targets if t != "x25519_own"):
                before = call_cycles(image(v, "unhardened"), t, d)
                for b in ("hardened", "dual"):
                    if (b == "dual" and t != "x25519") or not image_exists(v, b) or \
                            (t == "x25519" and not x25519_checked(v, b)):
                        continue
                    after = call_cycles(image(v, b), t, d)
                    impl = M.VARIANTS[v] + (DUAL_IMPL if b == "dual" else "")
                    what = "mb_x25519 (one shared secret)" if t == "x25519" else \
                        "mb_box_stream_final (after a 64-byte update)"
                    cost.append(F.cost_row(v, impl, what, before, after, TARGET))
                    cost[-1]["code_unhardened"] = code_bytes(v, "unhardened", t)
                    cost[-1]["code_hardened"] = code_bytes(v, b, t)
                    log(f"m4 {v} {b}: {what} {before} -> {after} cycles "
                        f"({cost[-1]['overhead_percent']:+.2f}%), code "
                        f"{cost[-1]['code_unhardened']} -> {cost[-1]['code_hardened']} bytes")
    out = F.merge_results(a.out, rows, cost, _own, M.TITLE, "mb_x25519", COND)
    log(f"wrote {out}")
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m motebox_tools.fault_x25519 run",
                                 description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", action="append")
    ap.add_argument("--build", choices=sorted(BUILDS), default="hardened")
    ap.add_argument("--target", choices=sorted(OPS), default="x25519")
    ap.add_argument("--models", default="skip,flip,load")
    ap.add_argument("--samples", type=int, default=X_SAMPLES)
    ap.add_argument("--bits", default="all")
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    models = F.parse_models(ap, a.models)
    rows = []
    for v in a.variant or [v for v in M.VARIANTS if image_exists(v, a.build)]:
        rows += campaign_rows(v, a.target, a.build, models, a.samples, a.bits, a.seed,
                              a.jobs, log=lambda s: print(s, flush=True))
    return F.finish_cli(rows, a.json)


if __name__ == "__main__":
    if sys.argv[1:2] == ["bench"]:
        sys.exit(bench(sys.argv[2:]))
    if sys.argv[1:2] == ["run"]:
        sys.exit(main(sys.argv[2:]))
    sys.exit(main(sys.argv[1:]))
