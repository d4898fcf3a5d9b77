#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Run the libFuzzer harnesses of `make fuzz` and write bench/results/fuzz.json.

Each harness (every program in BUILD/bin) runs --seconds seconds on one core over its
corpus (--jobs harnesses at a time, default one per core) fuzz/corpus/<harness>/ (read-only: new inputs go to BUILD/work/<harness>/corpus).
Executions come from libFuzzer's final stats; a finding is any crash-/leak-/timeout-/oom-
file it leaves (a disagreement with libsodium/OpenSSL aborts, so it is a crash file).
Coverage: the -fprofile-instr-generate build of the harness (BUILD/cov/<harness>)
replays both corpora; llvm-cov reports covered/instrumented lines per source folder.
A last row, "all harnesses", is the union over every harness.

  python3 fuzz/run.py --build build/fuzz --seconds 60 --out bench/results/fuzz.json
  python3 fuzz/run.py --build build/fuzz --merge     # re-minimize fuzz/corpus/* (-merge=1)
Exit status 1 if any harness had a finding.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "fuzz" / "corpus"
# Coverage is reported for these trees (the library; the simulator for its harness).
COVERED_ROOTS = ("src/", "sim/")
FUZZ_FLAGS = ["-timeout=60", "-rss_limit_mb=2560", "-max_len=4096", "-print_final_stats=1"]


def harnesses(build, names):
    found = sorted(p.name for p in (build / "bin").iterdir() if os.access(p, os.X_OK))
    return [h for h in found if not names or h in names]


def run_harness(build, h, seconds):
    work = build / "work" / h
    shutil.rmtree(work, ignore_errors=True)
    (work / "corpus").mkdir(parents=True)
    (work / "artifacts").mkdir()
    seeds = CORPUS / h
    seeds.mkdir(parents=True, exist_ok=True)
    cmd = [str(build / "bin" / h), f"-max_total_time={seconds}", *FUZZ_FLAGS,
           f"-artifact_prefix={work / 'artifacts'}/", str(work / "corpus"), str(seeds)]
    with open(work / "log.txt", "w") as log:
        rc = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT).returncode
    (work / "exit").write_text(f"{rc}\n")
    return collect(build, h, seconds)


def collect(build, h, seconds):
    """The row of a finished run from BUILD/work/<harness>: executions from libFuzzer's
    final stats; findings = crash-, leak-, timeout- and oom- files. A slow-unit- file is
    not a finding (an input over 10 s, which on a loaded machine can be any input: it
    is listed under slow_units, with its time alone, so that it can be told apart)."""
    work = build / "work" / h
    rc = int((work / "exit").read_text()) if (work / "exit").exists() else 0
    text = (work / "log.txt").read_text(errors="replace")
    m = re.search(r"stat::number_of_executed_units:\s*(\d+)", text)
    execs = int(m.group(1)) if m else 0
    name = lambda p: str(p.relative_to(build.parent)) if build.parent in p.parents else str(p)  # noqa: E731
    files = sorted((work / "artifacts").iterdir())
    artifacts = [name(p) for p in files if not p.name.startswith("slow-unit-")]
    slow = []
    for p in files:
        if p.name.startswith("slow-unit-"):
            t0 = time.monotonic()
            r = subprocess.run([str(build / "bin" / h), str(p)], capture_output=True)
            slow.append({"input": name(p), "alone_s": round(time.monotonic() - t0, 2),
                         "alone_exit": r.returncode})
    findings = len(artifacts) + sum(1 for u in slow if u["alone_exit"] != 0) or \
        (1 if rc != 0 else 0)
    return {"harness": h, "seconds": seconds, "execs": execs, "findings": findings,
            "artifacts": artifacts, "slow_units": slow, "exit": rc}


def profile(build, h):
    """Replay both corpora through the coverage build; returns the .profdata or None."""
    cov = build / "cov" / h
    if not cov.exists():
        return None
    work = build / "work" / h
    raw = work / "profraw"
    shutil.rmtree(raw, ignore_errors=True)
    raw.mkdir(parents=True)
    env = dict(os.environ, LLVM_PROFILE_FILE=str(raw / "%p.profraw"))
    env.pop("MB_FUZZ_SELFTEST", None)
    subprocess.run([str(cov), "-runs=0", *FUZZ_FLAGS[:3], str(work / "corpus"), str(CORPUS / h)],
                   env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    files = sorted(raw.glob("*.profraw"))
    if not files:
        return None
    out = work / f"{h}.profdata"
    subprocess.run(["llvm-profdata", "merge", "-sparse", "-o", str(out), *map(str, files)],
                   check=True)
    return out


def line_coverage(objects, profdata):
    """{folder: covered/instrumented lines} over COVERED_ROOTS, from llvm-cov export."""
    cmd = ["llvm-cov", "export", "-summary-only", f"-instr-profile={profdata}", str(objects[0])]
    for o in objects[1:]:
        cmd += ["-object", str(o)]
    data = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    per = {}
    for f in data["data"][0]["files"]:
        name = os.path.relpath(f["filename"], REPO)
        if not name.startswith(COVERED_ROOTS):
            continue
        folder = os.path.dirname(name)
        lines = f["summary"]["lines"]
        c, n = per.get(folder, (0, 0))
        per[folder] = (c + lines["covered"], n + lines["count"])
    return {k: round(c / n, 3) for k, (c, n) in sorted(per.items()) if n}


def merge_corpora(build, names):
    """Minimize fuzz/corpus/<h> with everything the last runs found (-merge=1)."""
    for h in harnesses(build, names):
        seeds, new = CORPUS / h, build / "work" / h / "merged"
        shutil.rmtree(new, ignore_errors=True)
        new.mkdir(parents=True)
        dirs = [str(seeds)] + [str(d) for d in [build / "work" / h / "corpus"] if d.exists()]
        subprocess.run([str(build / "bin" / h), "-merge=1", *FUZZ_FLAGS[:3], str(new), *dirs],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        shutil.rmtree(seeds)
        shutil.copytree(new, seeds)
        print(f"fuzz: {h}: corpus {len(list(seeds.iterdir()))} inputs")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", type=Path, default=REPO / "build" / "fuzz")
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--merge", action="store_true")
    ap.add_argument("--rev", help="the commit fuzzed (default: git describe at the start; "
                                  "with --collect, the run's BUILD/work/rev)")
    ap.add_argument("--collect", action="store_true",
                    help="do not run: rebuild the rows (and coverage) from a finished run's "
                         "BUILD/work")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="harnesses run at the same time, one core each (default: cores)")
    ap.add_argument("names", nargs="*", help="harnesses (default: all)")
    a = ap.parse_args()
    build = a.build.resolve()
    if a.merge:
        merge_corpora(build, a.names)
        return 0
    # The sources fuzzed: the commit when the run starts (a long run outlives it), kept
    # in BUILD/work/rev for --collect.
    revfile = build / "work" / "rev"
    if a.collect:
        rev = a.rev or (revfile.read_text().strip() if revfile.exists() else "unknown")
    else:
        rev = a.rev or subprocess.run(["git", "-C", str(REPO), "describe", "--always",
                                       "--dirty"], capture_output=True,
                                      text=True).stdout.strip() or "unknown"
        revfile.parent.mkdir(parents=True, exist_ok=True)
        revfile.write_text(rev + "\n")
    rows, profiles, objects = [], [], []
    jobs = max(1, a.jobs)

    def one(h):
        row = collect(build, h, a.seconds) if a.collect else run_harness(build, h, a.seconds)
        prof = profile(build, h)
        row["line_coverage"] = line_coverage([build / "cov" / h], prof) if prof else {}
        print(f"fuzz: {h}: {row['execs']:,} executions in {a.seconds} s, "
              f"{row['findings']} findings, coverage {row['line_coverage']}", flush=True)
        return row, prof

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        done = list(pool.map(one, harnesses(build, a.names)))
    for row, prof in done:
        if prof:
            profiles.append(prof)
            objects.append(build / "cov" / row["harness"])
        rows.append(row)
    if len(profiles) > 1:
        union = build / "work" / "all.profdata"
        subprocess.run(["llvm-profdata", "merge", "-sparse", "-o", str(union),
                        *map(str, profiles)], check=True)
        rows.append({"harness": "all harnesses", "seconds": sum(r["seconds"] for r in rows),
                     "execs": sum(r["execs"] for r in rows),
                     "findings": sum(r["findings"] for r in rows),
                     "line_coverage": line_coverage(objects, union)})
    if a.out:
        clang = subprocess.run(["clang", "--version"], capture_output=True, text=True).stdout
        result = {"target": "fuzz", "kind": "fuzz",
                  "title": "Differential fuzzing (libFuzzer) against libsodium and OpenSSL",
                  "conditions": f"`make fuzz FUZZ_SECONDS={a.seconds}`: each harness "
                                f"{a.seconds} s on one core, {jobs} at a time on a "
                                f"{os.cpu_count()}-core machine, {clang.splitlines()[0]}, "
                                "-fsanitize=fuzzer,address,undefined; line coverage of "
                                "the corpora replayed on a -fcoverage-mapping build; "
                                f"sources at commit {rev}",
                  "rows": rows}
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text(json.dumps(result, indent=1) + "\n")
        print(f"fuzz: wrote {a.out}")
    bad = [r["harness"] for r in rows if r["findings"]]
    if bad:
        print(f"fuzz: FINDINGS in {', '.join(bad)}: see {build / 'work'}/<harness>/",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
