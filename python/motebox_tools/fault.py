# SPDX-License-Identifier: MIT
"""`motebox fault`: single-fault campaigns on the MSP430 simulator (docs/FAULTS.md).

    motebox fault [--variant V] [--target secretbox_open|box_open] [--models skip,flip,load]
                  [--bits K|all] [--seed S] [--jobs J] [--functions F,...|all]
                  [--json FILE]          (exit status 1 if a fault was exploitable)
    motebox fault --target p256_ecdh ...  (the sampled P-256 campaign: fault_p256.py)
    motebox fault --target x25519|stream_final ...  (fault_x25519_msp430.py)

The fault-target firmware (tests/target/fault.c, build/msp430/<variant>/fault.elf) opens
a FORGED box (a real libsodium box with the first tag byte complemented). One unfaulted
run lists the dynamic instructions of the target's functions between fault_begin() and
fault_end() (msp430sim --fault-list); then every one of them is faulted in its own run:
  skip   the instruction has no effect (exhaustive);
  flip   one bit of the register it wrote (SR when it only set flags): all 16 low bits
         (default), or with --bits K a sample of K per instruction drawn with
         random.Random(f"{seed}:{model}:{index}") (rate K/16);
  load   one bit of the first value it read from memory (K bits as for flip).
Each run is classified: crash (a simulator error status, hang or budget, or no
output), error (returned -1 with an all-zero message: the correct outcome for a
forgery), or wrong (anything else). Exploitable = the forgery accepted (return 0) or
plaintext released: an output byte that is nonzero and equal to the plaintext byte or
one bit from it (a bit flipped into a cleared byte releases nothing: wrong only).
"""
import argparse
import concurrent.futures
import json
import random
import re
import sys
import tempfile
from pathlib import Path

TARGETS = {
    # name: (op code of tests/target/fault.c, functions faulted by default: the tag check
    # and everything that turns its outcome into the return value and the output mask;
    # those absent from a build (inlined) are left out)
    "secretbox_open": (1, ["mb_secretbox_open", "mb_secretbox_open_detached", "open_masked",
                           "xor_masked", "mb_verify16", "verify_n", "tag_check2",
                           "mac_key_check"]),
    "box_open": (2, ["mb_box_open", "mb_box_open_detached", "open_masked", "xor_masked",
                     "mb_verify16", "verify_n", "tag_check2", "mac_key_check", "beforenm",
                     "zero_check"]),
    # the same open of a box "from" a low-order public key, made with the key a zero
    # shared secret gives (HSalsa20 of zeros: known to anyone): it must be refused
    "box_open_low_order": (2, ["mb_box_open", "mb_box_open_detached", "open_masked",
                               "xor_masked", "mb_verify16", "verify_n", "tag_check2",
                               "mac_key_check", "beforenm", "zero_check"]),
}
MODELS = {"skip": "instruction skip", "flip": "register bit flip", "load": "load bit flip"}
KEY = bytes(range(32))
NONCE = bytes(range(100, 124))
# every byte has >= 3 bits set: a bit flipped into a cleared byte (one bit) is never
# within one bit of a plaintext byte, so `released` tells them apart
MSG = bytes(0xC1 | ((7 * i) & 0x3E) for i in range(64))
# box: the receiver's secret key and the sender's (pk from a fixed secret, by libsodium)
BOX_SK = bytes((3 * i + 7) & 0xFF for i in range(32))
BOX_SENDER_SK = bytes((11 * i + 5) & 0xFF for i in range(32))
# a point of order 8 (libsodium's list of low-order points): X25519 with it gives 0
LOW_ORDER_PK = bytes.fromhex("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800")


def zero_shared_box_key():
    """HSalsa20(key 0^32, input 0^16): the box key of a zero shared secret, from the
    system libsodium (PyNaCl does not expose crypto_core_hsalsa20)."""
    import ctypes
    import ctypes.util
    so = ctypes.CDLL(ctypes.util.find_library("sodium") or "libsodium.so.23")
    out = ctypes.create_string_buffer(32)
    if so.crypto_core_hsalsa20(out, bytes(16), bytes(32), b"expand 32-byte k") != 0:
        raise RuntimeError("crypto_core_hsalsa20 failed")
    return out.raw


def forged_input(target):
    """The patched fault_input of tests/target/fault.c: a box made by libsodium with the
    first byte of its tag complemented (one byte wrong: a fault that drops one byte
    from a comparison shows), or for box_open_low_order the attacker's box, genuine
    under the key of a zero shared secret, "from" a low-order key. Returns (blob, the
    genuine box)."""
    import nacl.bindings as nb
    import nacl.exceptions
    op = TARGETS[target][0]
    pk = bytes(32)
    if target == "box_open_low_order":
        try:    # libsodium refuses it: the point is of low order
            nb.crypto_scalarmult(BOX_SK, LOW_ORDER_PK)
            raise AssertionError("libsodium accepted the low-order point")
        except nacl.exceptions.RuntimeError:
            pass
        box = nb.crypto_secretbox(MSG, NONCE, zero_shared_box_key())
        return bytes([op]) + KEY + NONCE + LOW_ORDER_PK + BOX_SK + box, box
    if target == "secretbox_open":
        box = nb.crypto_secretbox(MSG, NONCE, KEY)
    else:
        pk = nb.crypto_scalarmult_base(BOX_SENDER_SK)
        box = nb.crypto_box(MSG, NONCE, nb.crypto_scalarmult_base(BOX_SK), BOX_SENDER_SK)
    forged = bytes([box[0] ^ 0xFF]) + box[1:]   # 8 bits: no single bit flip repairs it
    return bytes([op]) + KEY + NONCE + pk + BOX_SK + forged, box


def genuine_input(target):
    blob, box = forged_input(target)
    return blob[:-len(box)] + box


def parse_output(text):
    """(return value string, message bytes) from the firmware's console, or None."""
    r = re.search(r"^return (\S+)$", text, re.M)
    o = re.search(r"^out ([0-9a-f]*)$", text, re.M)
    if not r or not o:
        return None
    return r.group(1), bytes.fromhex(o.group(1))


def released(m, plain=MSG):
    """Bytes of the output that give plaintext away: nonzero and equal to the plaintext
    byte or one bit from it (a flipped bit of a released byte). Other nonzero bytes (a
    bit flipped into a cleared byte) carry nothing of the plaintext: wrong, not
    exploitable."""
    return [i for i, (x, p) in enumerate(zip(m, plain)) if x and bin(x ^ p).count("1") <= 1]


def classify(status, stdout):
    """crash | error | wrong, and whether it is exploitable (forged box accepted, or
    plaintext released)."""
    out = parse_output(stdout) if status == 0 else None
    if out is None:
        return "crash", False
    ret, m = out
    if ret == "-1" and not any(m):
        return "error", False
    return "wrong", ret == "0" or bool(released(m))


class Campaign:
    """One build and target: the patched image, the window, the instruction list."""

    def __init__(self, elf_src, mpy, target, functions=None, workdir=None, sim=None):
        from .elf import patch_elf, symbol
        from .sim import msp430 as s430
        self.sim = str(sim or s430.sim_path())
        self.mpy = mpy
        self.target = target
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix="motebox-fault-"))
        self.workdir.mkdir(parents=True, exist_ok=True)
        blob, _ = forged_input(target)
        self.elf = patch_elf(elf_src, self.workdir / f"fault-{target}.elf", "fault_input", blob)
        self.begin = symbol(self.elf, "fault_begin")[0]
        self.end = symbol(self.elf, "fault_end")[0]
        names = TARGETS[target][1] if functions is None else functions
        self.ranges = []        # (name, lo, hi)
        for name in names:
            try:
                lo, size = symbol(self.elf, name)
            except KeyError:
                continue
            if size:
                self.ranges.append((name, lo, lo + size))
        if functions is not None and not self.ranges and functions:
            raise ValueError(f"none of {functions} in {elf_src}")
        self.base = sim_command(self.sim, mpy, self.begin, self.end)
        for _, lo, hi in self.ranges:
            self.base += ["--fault-range", f"{lo:#x}:{hi:#x}"]
        self.insns = None
        self.reference = None
        self.excluded = {}      # model: faults not run on the return to the caller

    def function_of(self, pc):
        for name, lo, hi in self.ranges:
            if lo <= pc < hi:
                return name
        return "?"

    def prepare(self):
        """The unfaulted run: the instruction list and the reference cycles; the forged
        box must be refused (-1, zeros) or the firmware and simulator are broken."""
        import subprocess
        lst = self.workdir / "insns.txt"
        p = subprocess.run(self.base + ["--cycles", "--fault-list", str(lst), str(self.elf)],
                           capture_output=True, text=True, timeout=600)
        if p.returncode != 0 or classify(0, p.stdout) != ("error", False):
            raise RuntimeError(f"unfaulted run of {self.elf}: status {p.returncode}\n"
                               f"{p.stdout}\n{p.stderr}")
        self.cycles = int(re.search(r"^cycles: (\d+)", p.stderr, re.M).group(1))
        self.insns = []
        for line in lst.read_text().splitlines():
            i, pc, dest, load = line.split()
            self.insns.append((int(i), int(pc, 16), int(dest), int(load)))
        self.caller_return = self._caller_return()
        return self.insns

    def _caller_return(self):
        """Index of the window's last counted instruction if it is the return to the
        caller (RET or RETA), else None. A flip of PC after it, or of the return address
        it loads, lands in the caller's code: a fault of the caller's control flow, which
        the library cannot protect (the M4 model never flips PC either); those faults are
        not run and are counted as excluded. Skipping it is run (the CPU then falls into
        the next function of the library)."""
        from .elf import read_bytes
        if not self.insns:
            return None
        i, pc, _, _ = self.insns[-1]
        word = int.from_bytes(read_bytes(self.elf, pc, 2), "little")
        return i if word in (0x4130, 0x0110) else None

    def faults(self, model, bits="all", seed=18):
        """The option lists of one model's runs, each with (index, pc, detail)."""
        out = []
        for i, pc, dest, load in self.insns:
            if model == "skip":
                out.append(((i, pc, ""), ["--fault-skip", str(i)]))
                continue
            if (model == "flip" and (dest < 0 or dest == 3)) or (model == "load" and not load):
                continue
            if i == self.caller_return:
                self.excluded[model] = len(range(16) if bits == "all" else range(int(bits)))
                continue
            chosen = range(16) if bits == "all" else \
                sorted(random.Random(f"{seed}:{model}:{i}").sample(range(16), int(bits)))
            for b in chosen:
                if model == "flip":
                    out.append(((i, pc, f"R{dest} bit {b}"), ["--fault-flip", f"{i}:d:{b}"]))
                else:
                    out.append(((i, pc, f"bit {b}"), ["--fault-load", f"{i}:{b}"]))
        return out

    @staticmethod
    def batch_line(opts):
        """A --fault-batch line from one run's options (see faults())."""
        kind, arg = opts
        if kind == "--fault-skip":
            return f"skip {arg}"
        n, _, bit = arg.rpartition(":")
        if kind == "--fault-flip":
            return f"flip {n.split(':')[0]} {bit}"
        return f"load {n} {bit}"

    def run_batch(self, todo):
        """One simulator process for many faults (--fault-batch: it forks at each fault's
        instruction, so the work before it, an X25519 in a box open, runs once):
        the (class, exploitable) of each."""
        # a fault that loops ends as a crash (run_fault_batch's budget)
        runs = run_fault_batch(self.base, self.elf, self.cycles, self.workdir,
                               [self.batch_line(o) for _, o in todo], timeout=3600)
        out = []
        for status, text in runs:
            out.append(("crash", False) if int(status) < 0 else classify(int(status), text))
        return out

    def run(self, model, bits="all", seed=18, jobs=2):
        """Counts by class and the exploitable faults [(index, pc, function, detail)].
        The faults go to `jobs` batch processes (every jobs-th fault to each)."""
        todo = self.faults(model, bits, seed)
        counts = {"crash": 0, "error": 0, "wrong": 0}
        bad = []
        jobs = max(1, min(jobs, len(todo) or 1))
        parts = [todo[j::jobs] for j in range(jobs)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
            results = list(ex.map(self.run_batch, parts))
        merged = [None] * len(todo)
        for j, res in enumerate(results):
            merged[j::jobs] = res
        for (where, _), (cls, expl) in zip(todo, merged):
            counts[cls] += 1
            if expl:
                i, pc, detail = where
                bad.append((i, pc, self.function_of(pc), detail))
        return {"faults": len(todo), **counts, "exploitable": len(bad), "exploits": bad,
                "excluded": self.excluded.get(model, 0)}


BOX_CFLAGS = ["--target=msp430", "-std=c99", "-ffreestanding", "-ffunction-sections",
              "-fdata-sections", "-DMB_RADIX=16", "-Wall", "-Wextra", "-Werror"]


def unhardened_image(variant, workdir):
    """The variant's fault.elf relinked with src/proto/box.c compiled with
    MB_FAULT_HARDENED=0 (the linker takes that object before the library's box.o):
    the "before" of the countermeasure, built on the fly like the bench's size links."""
    import subprocess
    from .boards import msp430 as t430
    from .paths import repo
    v = t430.VARIANTS[variant]
    root, lib_dir = repo(), t430.build_dir() / v.lib
    workdir = Path(workdir)
    box = workdir / f"box-unhardened-{variant}.o"
    subprocess.run(["clang", *BOX_CFLAGS, f"-{v.opt}", "-I", str(root / "include"),
                    "-I", str(root / "src"), "-DMB_FAULT_HARDENED=0", "-c",
                    str(root / "src" / "proto" / "box.c"), "-o", str(box)], check=True)
    lib, rt = t430.library(variant)
    out = workdir / f"fault-unhardened-{variant}.elf"
    objs = [lib_dir / "obj" / "tests" / "target" / "fault.o",
            lib_dir / "obj" / "platforms" / "common" / "tprint.o"]
    subprocess.run(["ld.lld", "-m", "msp430elf", "-T",
                    str(root / "platforms" / "msp430fr5969" / "fr5969.ld"), "--gc-sections",
                    "-o", str(out), *map(str, objs), str(box), str(lib), str(rt)], check=True)
    return out


def open_cycles(elf, mpy, target, workdir):
    """Cycles the firmware measures around one open of a genuine 64-byte box (checked:
    returns 0 and releases libsodium's plaintext)."""
    from .elf import patch_elf
    from .sim import msp430 as s430
    img = patch_elf(elf, Path(workdir) / f"genuine-{Path(elf).stem}.elf", "fault_input",
                    genuine_input(target))
    r = s430.run(img, mpy=mpy, timeout=600)
    ret, m = parse_output(r.stdout) or (None, None)
    if r.status != 0 or ret != "0" or m != MSG:
        raise RuntimeError(f"genuine open failed on {elf}: {r}\n{r.stdout}")
    return int(re.search(r"^cycles (\d+)$", r.stdout, re.M).group(1))


def hardened(elf):
    """Whether the library build carries the redundant tag check (docs/FAULTS.md)."""
    from .elf import symbol
    try:
        symbol(elf, "tag_check2")
        return True
    except KeyError:
        return False


def campaign_rows(variant, target, models=("skip", "flip"), bits="all", seed=18, jobs=2,
                  functions=None, log=None, elf=None):
    """bench/results/faults.json rows of one MSP430 build (a VARIANTS name) and target
    (elf: another image of that build, e.g. unhardened_image's)."""
    from .boards import msp430 as t430
    v = t430.VARIANTS[variant]
    src = Path(elf) if elf else t430.firmware("fault", variant=variant)
    if not src.exists():
        raise FileNotFoundError(f"{src} missing: run `make msp430`")
    with tempfile.TemporaryDirectory(prefix="motebox-fault-") as d:
        c = Campaign(src, v.mpy, target, functions, d)
        c.prepare()
        rows = []
        for model in models:
            res = c.run(model, bits, seed, jobs)
            row = result_row("msp430", v.impl, variant, target, model, res, hardened(c.elf),
                             len(c.insns), [n for n, _, _ in c.ranges],
                             "exhaustive" if model == "skip" or bits == "all"
                             else f"{bits} of 16 bits per instruction, seed {seed}")
            rows.append(row)
            if log:
                log_row(log, variant, row)
                for e in row["exploits"]:
                    log(f"    {e}")
        return rows


def sim_command(sim, mpy, begin, end):
    """The simulator command of every MSP430 campaign (this module's, fault_p256's and
    fault_x25519_msp430's): its multiplier, the window from the first instruction at
    begin up to the first at end, and --protect-code (the image's code refuses writes,
    as with the MPU; docs/FAULTS.md)."""
    return [str(sim), "--mpy", str(mpy), "--protect-code", "--fault-window",
            f"{begin:#x}:{end:#x}"]


def run_fault_batch(base, elf, cycles, workdir, lines, extra=(), timeout=3600):
    """One `msp430sim --fault-batch` process (base: the simulator's command and options)
    for the faults of `lines`: it forks at each fault's instruction, so the work before
    it runs once. The budget of a faulted run is 4 times what the unfaulted run (cycles)
    had left from the fault's point (--fault-ref-cycles), at most 4 cycles + 1,000,000.
    Returns [(status, console)] in the order of lines."""
    import subprocess
    budget = str(cycles * 4 + 1_000_000)
    with tempfile.TemporaryDirectory(prefix="batch-", dir=workdir) as d:
        src, dst = Path(d) / "in", Path(d) / "out"
        src.write_text("".join(line + "\n" for line in lines))
        p = subprocess.run(list(base) + ["--max-cycles", budget, "--fault-ref-cycles",
                                         str(cycles), *extra, "--fault-batch", str(src),
                                         str(dst), str(elf)],
                           capture_output=True, timeout=timeout)
        data = dst.read_bytes() if dst.exists() else b""
    if p.returncode != 0 and not data:
        raise RuntimeError(f"fault batch on {elf}: status {p.returncode}: "
                           f"{p.stderr.decode(errors='replace')[-500:]}")
    out, pos = [], 0
    for k in range(len(lines)):
        nl = data.index(b"\n", pos)
        line, status, n = data[pos:nl].split()
        assert int(line) == k, "fault batch results out of order"
        out.append((int(status), data[nl + 1:nl + 1 + int(n)].decode(errors="replace")))
        pos = nl + 1 + int(n)
    return out


def parse_names(ap, option, text, known):
    """The comma-separated names of `option` (each one of `known`), or ap.error naming
    the unknown ones: a typo must stop the run, not make it run nothing."""
    names = [v.strip() for v in text.split(",") if v.strip()]
    unknown = [v for v in names if v not in known]
    if not names or unknown:
        ap.error(f"{option}: unknown {', '.join(unknown) or '(none given)'}; "
                 f"known: {', '.join(known)}")
    return names


def parse_models(ap, text):
    """The --models list (of skip, flip, load)."""
    return parse_names(ap, "--models", text, MODELS)


def pick_variants(ap, text, known, built, log=print):
    """The builds a `bench --variants A,B` run covers: every name must be one of `known`
    (parse_names: a typo would otherwise run nothing and replace no rows); a known one
    whose fault image is not built (built(v) false) is skipped with a line saying so."""
    names = parse_names(ap, "--variants", text, known)
    chosen = [v for v in names if built(v)]
    for v in names:
        if v not in chosen:
            log(f"skipped {v}: its fault image is not built")
    return chosen


def finish_cli(rows, json_path):
    """Writes {"rows": rows} to json_path (if given) and returns the exit status of a
    `motebox fault` run: 1 if a fault was exploitable, else 0."""
    if json_path:
        Path(json_path).parent.mkdir(parents=True, exist_ok=True)
        Path(json_path).write_text(json.dumps({"rows": rows}, indent=1) + "\n")
        print(f"wrote {json_path}")
    return 1 if any(r["exploitable"] for r in rows) else 0


def result_row(chip, impl, variant, target, model, res, is_hardened, window_instructions,
               faulted_functions, sampling):
    """One row of bench/results/faults.json from a campaign's counts (both chips)."""
    return {"target": chip, "impl": impl, "variant": variant, "function": f"mb_{target}",
            "model": MODELS[model], "faults": res["faults"], "crash": res["crash"],
            "error": res["error"], "wrong": res["wrong"], "exploitable": res["exploitable"],
            "hardened": is_hardened, "window_instructions": window_instructions,
            "faulted_functions": faulted_functions, "sampling": sampling,
            "excluded": res.get("excluded", 0),
            "exploits": [f"#{i} 0x{pc:05x} {fn} {det}".rstrip()
                         for i, pc, fn, det in res["exploits"][:20]]}


def log_row(log, variant, row):
    """The one-line summary of a row."""
    log(f"{variant} {row['function'][3:]} {row['model']}"
        f"{'' if row['hardened'] else ' (unhardened)'}: {row['faults']} faults, "
        f"crash {row['crash']}, error {row['error']}, wrong {row['wrong']}, "
        f"exploitable {row['exploitable']}")


def cost_row(variant, impl, function, before, after, target=None):
    """A cost row of bench/results/faults.json: modelled cycles without and with the
    hardening (target: the chip, None for the MSP430's rows, which predate the field)."""
    row = {"variant": variant, "impl": impl, "function": function,
           "cycles_unhardened": before, "cycles_hardened": after,
           "overhead_percent": round(100.0 * (after - before) / before, 2)}
    return {"target": target, **row} if target else row


def merge_results(out, rows, cost, owned, title, cond_marker, cond_text):
    """Replace the rows and cost rows of bench/results/faults.json that `owned(row)`
    selects (one bench step's) by rows and cost, keeping the other steps' rows; the
    conditions get cond_text unless cond_marker is already in them."""
    out = Path(out)
    result = json.loads(out.read_text()) if out.exists() else {
        "kind": "faults", "target": "faults", "plot": "own", "rows": [], "cost": []}
    result["rows"] = [r for r in result.get("rows", []) if not owned(r)] + rows
    result["cost"] = [c for c in result.get("cost", []) if not owned(c)] + cost
    result["title"] = title
    cond = result.get("conditions", "")
    if cond_marker not in cond:
        result["conditions"] = (cond + "; " if cond else "") + cond_text
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    return out


def bench(argv=None):
    """The `make bench` step: hardened and unhardened campaigns (skip, flip, load) on the
    secretbox and box opens (and the box open of a low-order key's box) of the portable
    -O2 and -Os and the assembly -O2 builds with the 32-bit multiplier, the cost of the
    hardening in cycles, bench/results/faults.json."""
    from .boards import msp430 as t430
    from .paths import repo
    ap = argparse.ArgumentParser(prog="python -m motebox_tools.fault bench")
    ap.add_argument("--out", default=str(repo() / "bench" / "results" / "faults.json"))
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args(argv)
    variants = ["mpy32", "mpy32-Os"] + [v for v in ("mpy32-asm",) if v in t430.variants()]
    rows, cost = [], []
    models = ("skip", "flip", "load")
    with tempfile.TemporaryDirectory(prefix="motebox-fault-bench-") as d:
        for v in variants:
            mpy = t430.VARIANTS[v].mpy
            before = unhardened_image(v, d)
            for target in ("secretbox_open", "box_open", "box_open_low_order"):
                for elf in (before, None):
                    rows += campaign_rows(v, target, models, jobs=a.jobs, elf=elf,
                                          log=lambda s: print(s, flush=True))
            c_after = open_cycles(t430.firmware("fault", variant=v), mpy, "secretbox_open", d)
            c_before = open_cycles(before, mpy, "secretbox_open", d)
            cost.append(cost_row(v, t430.VARIANTS[v].impl, "mb_secretbox_open (64-byte message)",
                                 c_before, c_after))
            print(f"{v}: open 64 B {c_before} -> {c_after} cycles "
                  f"({cost[-1]['overhead_percent']:+.2f}%)", flush=True)
    result = {"kind": "faults", "target": "faults", "plot": "own",
              "title": "Single-fault campaigns (MSP430 simulator, forged boxes)",
              "conditions": "motebox fault: one fault per run between fault_begin and "
                            "fault_end of tests/target/fault.c, in the open's tag check and "
                            "output masking (docs/FAULTS.md); exhaustive over instructions "
                            "and the 16 low bits (one simulator process per batch of faults, "
                            "forked at each fault's instruction); flips of PC and of the "
                            "loaded return address on the open's final return into the "
                            "caller are not run (column excluded); the MSP430 runs with "
                            "msp430sim --protect-code (a write into the image's code is a "
                            "crash, as on a part whose MPU protects the code segment)",
              "rows": rows, "cost": cost}
    # keep the other chips' rows (fault_m4.py, bench-faults-m4 writes the cortex-m4 ones)
    # and the MSP430's P-256, X25519 and stream-final ones (fault_p256.py,
    # fault_x25519_msp430.py: bench-faults-p256-msp430, bench-faults-x25519-msp430)
    if Path(a.out).exists():
        old = json.loads(Path(a.out).read_text())
        p256 = lambda r: r.get("function", "").startswith(  # noqa: E731
            ("mb_p256_ecdh", "mb_x25519", "mb_box_stream_final"))
        result["rows"] += [r for r in old.get("rows", []) if r.get("target") != "msp430"
                           or p256(r)]
        result["cost"] += [c for c in old.get("cost", []) if c.get("target")
                           not in (None, "msp430") or p256(c)]
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {a.out}")
    return 0


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if "p256_ecdh" in argv or "--target=p256_ecdh" in argv:   # sampled: fault_p256.py
        from . import fault_p256
        return fault_p256.main(argv)
    if any(t in argv for t in ("x25519", "stream_final", "--target=x25519",
                               "--target=stream_final")):     # fault_x25519_msp430.py
        from . import fault_x25519_msp430
        return fault_x25519_msp430.main(argv)
    ap = argparse.ArgumentParser(prog="motebox fault", description=__doc__.split("\n\n")[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", action="append",
                    help="MSP430 build(s) (build/msp430/<variant>; default mpy32 and, when "
                         "built, mpy32-asm)")
    ap.add_argument("--target", action="append", choices=sorted(TARGETS),
                    help="function under attack (default secretbox_open)")
    ap.add_argument("--models", default="skip,flip",
                    help="comma-separated: skip, flip, load (default skip,flip)")
    ap.add_argument("--bits", default="all", help="bits per instruction for flip/load, or all")
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--jobs", type=int, default=2, help="parallel runs (at most 2)")
    ap.add_argument("--functions", help="comma-separated symbols to fault, or all (the whole "
                    "window between fault_begin and fault_end)")
    ap.add_argument("--json", help="write the rows there (bench/results/faults.json)")
    a = ap.parse_args(argv)
    from .boards import msp430 as t430
    models = parse_models(ap, a.models)
    if a.bits != "all" and not (a.bits.isdigit() and 1 <= int(a.bits) <= 16):
        ap.error("--bits: 1..16 or all")
    functions = None
    if a.functions:
        functions = [] if a.functions == "all" else a.functions.split(",")
    variants = a.variant or ["mpy32"] + [v for v in ("mpy32-asm",)
                                         if t430.firmware("fault", variant=v).exists()]
    rows = []
    for v in variants:
        for t in a.target or ["secretbox_open"]:
            rows += campaign_rows(v, t, models, a.bits, a.seed, a.jobs, functions,
                                  log=lambda s: print(s, flush=True))
    return finish_cli(rows, a.json)


if __name__ == "__main__":
    if sys.argv[1:2] == ["bench"]:
        sys.exit(bench(sys.argv[2:]))
    sys.exit(main())
