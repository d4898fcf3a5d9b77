# SPDX-License-Identifier: MIT
"""The README table of bench/results/faults.json (`make bench`, motebox_tools.fault):
per build and fault model, faults tried and exploitable outcomes before and after the
hardening of the opens, and the hardening's cost in cycles."""


def _n(v):
    return f"{v:,}" if isinstance(v, int) else str(v)


def fault_table(result):
    lines = [f"#### {result.get('title', 'Fault campaigns')}", "",
             f"Conditions: {result.get('conditions', 'not stated')}", "",
             "| chip | build | function | model | faults (unhardened / hardened) | "
             "crash (hardened) | exploitable unhardened | exploitable hardened |",
             "|---|---|---|---|---|---|---|---|"]
    rows = result.get("rows", [])
    keys = []
    for r in rows:
        k = (r.get("target", "msp430"), r["impl"], r["function"], r["model"])
        if k not in keys:
            keys.append(k)
    for k in keys:
        by = {r["hardened"]: r for r in rows
              if (r.get("target", "msp430"), r["impl"], r["function"], r["model"]) == k}
        before, after = by.get(False), by.get(True)
        faults = " / ".join(_n(x["faults"]) if x else "—" for x in (before, after))
        excluded = max((x.get("excluded", 0) for x in (before, after) if x), default=0)
        if excluded:    # faults on the return into the caller, not run (docs/FAULTS.md)
            faults += f" (+{_n(excluded)} excluded)"
        crash = _n(after["crash"]) if after else "—"
        lines.append(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} | {faults} | {crash} | "
                     f"{_n(before['exploitable']) if before else '—'} | "
                     f"{_n(after['exploitable']) if after else '—'} |")
    if result.get("cost"):
        # code bytes: the rows that measured them (fault_x25519.py), "—" elsewhere
        code = any("code_hardened" in c for c in result["cost"])
        lines += ["", "| chip | build | operation | cycles unhardened | cycles hardened | cost |"
                  + (" code unhardened | code hardened |" if code else ""),
                  "|---|---|---|---|---|---|" + ("---|---|" if code else "")]
        for c in result["cost"]:
            extra = ""
            if code:
                extra = " " + " | ".join(_n(c[k]) if k in c else "—"
                                         for k in ("code_unhardened", "code_hardened")) + " |"
            lines.append(f"| {c.get('target', 'msp430')} | {c['impl']} | {c['function']} | "
                         f"{_n(c['cycles_unhardened'])} | "
                         f"{_n(c['cycles_hardened'])} | {c['overhead_percent']:+.2f}% |" + extra)
    return "\n".join(lines)
