# SPDX-License-Identifier: MIT
"""The README section of bench/results/leakage.json (`make bench-leakage`,
motebox_tools.leak.bench; docs/SIDE_CHANNELS.md): per target, build and function the
TVLA result (max |t| in the window, first and second order) and the CPA result (bits
recovered, traces needed), then the plots of t over time drawn by the bench step."""


def _n(v):
    return f"{v:,}" if isinstance(v, int) else "—" if v is None else str(v)


def _t(v):
    return "∞" if v == "inf" else f"{v:.1f}"    # "inf": constant in each set, different


def _tvla(r):
    if not r:
        return "—", "—", "—"
    t = _t(r["max_abs_t"])
    if r.get("max_abs_t2") is not None:
        t += f" / {_t(r['max_abs_t2'])}"
    verdict = ("**yes**" if r["leaks"] else
               "no (one half only)" if r.get("exceeds") else "no")
    return _n(r["traces"]), t, verdict


def _cpa(r):
    if not r:
        return "—", "—", "—"
    need = r.get("traces_to_recover")
    return (_n(r["traces"]), f"{r['bits_recovered']}/{r['bits_attacked']}",
            ", ".join(_n(n) for n in need) if need else f"not recovered at {_n(r['traces'])}")


def leak_table(result):
    lines = [f"#### {result.get('title', 'Side-channel leakage')}", "",
             f"Conditions: {result.get('conditions', 'not stated')}", "",
             "| target | build | function | TVLA traces | max \\|t\\| (1st / 2nd order) | "
             "leaks (> 4.5 in both halves) | CPA traces | bits recovered | traces to recover |",
             "|---|---|---|---|---|---|---|---|---|"]
    keys = []
    for r in result.get("rows", []):
        k = (r["target"], r["impl"], r["function"])
        if k not in keys:
            keys.append(k)
    for k in keys:
        by = {r["test"]: r for r in result["rows"]
              if (r["target"], r["impl"], r["function"]) == k}
        cells = list(k) + list(_tvla(by.get("tvla"))) + list(_cpa(by.get("cpa")))
        lines.append("| " + " | ".join(cells) + " |")
    for note in result.get("notes", []):
        lines += ["", note]
    for what in ("skipped", "failed"):
        if result.get(what):
            lines += ["", f"{what.capitalize()}: " + "; ".join(result[what])]
    for p in result.get("plots", []):
        lines += ["", f"![{p['title']}](bench/results/{p['file']})"]
    return "\n".join(lines)
