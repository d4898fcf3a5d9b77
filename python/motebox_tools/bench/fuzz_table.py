# SPDX-License-Identifier: MIT
"""The README table of bench/results/fuzz.json (written by `make fuzz`, fuzz/run.py):
one row per libFuzzer harness with its executions, findings and line coverage per
source folder, and a last row for the union of all harnesses.

Schema: {"target": "fuzz", "kind": "fuzz", "title": str, "conditions": str,
         "rows": [{"harness", "seconds", "execs", "findings", "slow_units" (optional),
                   "line_coverage": {folder: fraction}}, ...]}"""


def _pct(v):
    return "" if v is None else f"{100 * v:.1f} %"


def fuzz_table(result):
    rows = result["rows"]
    folders = sorted({f for r in rows for f in r.get("line_coverage", {})})
    head = ["harness", "seconds", "executions", "findings"] + \
        [f"lines {f}" for f in folders]
    lines = [f"#### {result.get('title', 'fuzzing')}", "",
             f"Conditions: {result.get('conditions', 'not stated')}", "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cov = r.get("line_coverage", {})
        found = str(r["findings"]) if not r["findings"] else f"**{r['findings']}**"
        for u in r.get("slow_units", []):    # not findings: see fuzz/README.md
            found += f" (slow unit: {u['alone_s']} s alone)"
        cells = [r["harness"], f"{r['seconds']:,}", f"{r['execs']:,}", found]
        cells += [_pct(cov.get(f)) for f in folders]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
