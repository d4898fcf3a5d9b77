# SPDX-License-Identifier: MIT
"""python -m motebox_tools.bench.report: render bench/results/*.json into the README's
results section and one PNG plot per target. The tables are regenerated from the
measurements on every `make bench`; the README text between the markers is never edited
by hand.

Input schema (one file per target):
  {"target": str, "title": str, "conditions": str,
   "rows": [{"op": str, "impl": str, "cycles": {"min", "median", "max"}, "unit": str?,
             "code": int|null, "stack": int|null, "reference": str|null}, ...],
   "plot": "own"?,     (the bench step drew bench/results/<target>.png itself)
   "goals": [{"op", "metric", "goal", "anchor", "measured", "met"}]?, "goals_title": str?}
  (a goal of null is rendered "report": the figure is reported, no goal is set)
A file with "kind": "fuzz" (bench/results/fuzz.json, `make fuzz`) has its own rows and
table: see fuzz_table.py; so has "kind": "faults" (bench/results/faults.json, the fault
campaigns): see fault_table.py; so has "kind": "leakage" (bench/results/leakage.json,
`make bench-leakage`): see leak_table.py; so has "kind": "powercut"
(bench/results/powercut.json, the protocol's power-cut campaigns): see powercut_table.py.
"""
import json
import sys

from ..paths import repo
from .fault_table import fault_table
from .fuzz_table import fuzz_table
from . import plots   # the figures (plots.py, issue #16)
from .gateway_table import gateway_table   # gateway hook (issue #17)
from .leak_table import leak_table
from .powercut_table import powercut_table

BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"


def _num(v):
    return "" if v is None else f"{v:,}" if isinstance(v, int) else str(v)


def _cycles(row):
    c = row.get("cycles") or {}
    med, lo, hi = c.get("median"), c.get("min"), c.get("max")
    if med is None:
        return ""
    text = _num(med)
    if lo is not None and hi is not None and (lo != med or hi != med):
        text += f" ({_num(lo)}–{_num(hi)})"
    return text


def _results():
    return repo() / "bench" / "results"


def table(result):
    if result.get("kind") == "fuzz":          # bench/results/fuzz.json, from `make fuzz`
        return fuzz_table(result)
    if result.get("kind") == "faults":        # bench/results/faults.json (motebox_tools.fault)
        return fault_table(result)
    if result.get("kind") == "gateway":       # bench/results/gateway.json (gateway hook, #17)
        return gateway_table(result)
    if result.get("kind") == "leakage":       # bench/results/leakage.json (motebox_tools.leak)
        return leak_table(result)
    if result.get("kind") == "powercut":      # bench/results/powercut.json (motebox_tools.powercut)
        return powercut_table(result)
    units = {r.get("unit", "cycles") for r in result["rows"]}
    mixed = len(units) > 1
    unit = "value" if mixed else units.pop()
    has_code = any(r.get("code") is not None for r in result["rows"])
    has_stack = any(r.get("stack") is not None for r in result["rows"])
    head = ["operation", "implementation", f"{unit}: median (min–max)"]
    head += ["code (B)"] * has_code + ["stack (B)"] * has_stack + ["published reference"]
    lines = [f"#### {result.get('title', result['target'])}", "",
             f"Conditions: {result.get('conditions', 'not stated')}", "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in result["rows"]:
        cells = [r["op"], r.get("impl", ""), _cycles(r)]
        if mixed:
            cells[2] += f" {r.get('unit', 'cycles')}"
        cells += [_num(r.get("code"))] * has_code + [_num(r.get("stack"))] * has_stack
        cells.append(r.get("reference") or "")
        lines.append("| " + " | ".join(cells) + " |")
    if result.get("goals"):
        lines += ["", f"**{result.get('goals_title', 'Goals')}**", "",
                  "| operation | metric | goal | measured | met | anchor |",
                  "|---|---|---|---|---|---|"]
        for g in result["goals"]:
            unit = "B" if g["metric"] in ("code", "stack") else "cycles"
            if g["goal"] is None:       # no goal set: the figure is reported
                goal, met = "report", "—"
            else:
                goal, met = f"≤ {_num(g['goal'])} {unit}", "yes" if g["met"] else "**no**"
            lines.append(f"| {g['op']} | {g['metric']} | {goal} | {_num(g['measured'])} | "
                         f"{met} | {g['anchor']} |")
    png = _results() / f"{result['target']}.png"
    if png.exists():
        lines += ["", f"![{result['target']} cycles](bench/results/{png.name})"]
    return "\n".join(lines)


def plot(result):
    """The result's plots (bars, the coprocessor's area plot, a chip's summary): plots.py."""
    plots.render(result, _results())


def main():
    results = [json.loads(p.read_text()) for p in sorted(_results().glob("*.json"))]
    if not results:
        print("bench_report: no results in bench/results", file=sys.stderr)
        return 1
    for r in results:
        if r.get("plot") != "own" and r.get("kind") != "gateway":   # gateway: no cycle plot      # a bench step that draws its own plot says so
            plot(r)
    body = "\n\n".join(table(r) for r in results)
    # The per-chip summary figures come before the long tables (plots.py).
    body = "\n\n".join(filter(None, [plots.summary_markdown(results, _results()), body]))
    readme = repo() / "README.md"
    text = readme.read_text()
    if BEGIN not in text or END not in text:
        print(f"bench_report: README.md lacks the {BEGIN} / {END} markers", file=sys.stderr)
        return 1
    pre, rest = text.split(BEGIN, 1)
    _, post = rest.split(END, 1)
    readme.write_text(f"{pre}{BEGIN}\n<!-- generated by `make bench` from bench/results/*.json; "
                      f"do not edit -->\n\n{body}\n\n{END}{post}")
    print(f"bench_report: {len(results)} result files rendered into README.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
