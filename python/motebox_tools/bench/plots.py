# SPDX-License-Identifier: MIT
"""The bench plots, drawn from bench/results/*.json alone (python -m
motebox_tools.bench.report calls them; nothing is measured here):

- bars(result, path): per operation, one bar per implementation, and the published
  figure of the row's "reference" (the first number in it, the lower end of a range)
  as a hatched bar; motebox builds in blues (portable C) and oranges (a chip's assembly),
  other libraries measured beside them in greens/purples, published work in grey;
- hw(result, path): the coprocessor (bench/results/hw.json), cycles of a command against
  total area for each datapath width W, beside [HSSW15]'s published end points;
- summary(result, path): one figure per chip: milliseconds at a stated clock, code and
  stack bytes per operation, motebox's fastest build beside the best published work
  (and any peer library measured on the same model).
"""
import re

# Chips of the summary figures: the clock their milliseconds assume.
# Cortex-M4: 64 MHz (nRF52840, STM32L4 class) with zero wait states, as the cycle model
# counts; MSP430FR5969: 8 MHz, the simulator's MCLK (no FRAM wait states).
CLOCKS = {"cortex-m4": (64e6, "64 MHz"), "msp430x-mpy32": (8e6, "8 MHz"),
          "msp430x-mpy16": (8e6, "8 MHz")}
CHIPS = {"cortex-m4": "Cortex-M4", "msp430x-mpy32": "MSP430FR5969",
         "msp430x-mpy16": "MSP430FR5969"}
# The operations of a summary: (label, the op names the bench results use).
SUMMARY_OPS = [
    ("X25519", ("X25519", "x25519")),
    ("X25519 key generation", ("X25519 public key (base point)", "x25519_base")),
    ("P-256 ECDH", ("P-256 ECDH", "p256_ecdh")),
    ("P-256 key generation", ("P-256 public key (base point)", "p256_base")),
    ("box (incl. X25519)", ("box of 1 KiB (incl. X25519)", "box")),
    ("secretbox", ("secretbox of 1 KiB", "secretbox")),
]
# Dark to light, given out in sorted order (radix 16 darkest ... 64 lightest).
BLUES = ["#0b2f6b", "#1f5fbf", "#5b8fe0", "#a9c6f2", "#d3e2f8"]
ORANGES = ["#d35f1a", "#f2a36b", "#9c3d06"]
PEERS = ["#2e9e4f", "#8e5cc4", "#b8860b", "#17becf"]
PUBLISHED = "#6b6b6b"
HATCHES = ["////", "xxxx", "\\\\\\\\", "...."]


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def series(impl):
    """(group, key) of an implementation label: group "asm" (motebox with a chip's
    assembly), "c" (motebox portable C) or "peer" (another library); key names one
    colour and legend entry (builds of one radix and level share it whatever the text
    around them: "portable r64 (5x51-bit limbs)", "motebox r64 (portable C, ...)")."""
    opt = re.search(r"-O[0-3sz]\b", impl)
    opt = f", {opt[0]}" if opt else ""
    if re.search(r"arch/[\w-]+ asm", impl):
        return "asm", f"motebox asm{opt}"
    radix = re.search(r"\br(16|25|32|64)\b", impl)
    if radix and re.match(r"(portable|motebox)\b", impl):
        return "c", f"motebox C r{radix[1]}{opt}"
    return "peer", impl.split()[0]


def published(text):
    """(value, key) of a published figure ("1,423,667 cycles, ... ([DS16], asm)",
    "9,122,988 - 9,285,578 ... ([SAK18], ...)": the first number, the lower end of a
    range), or None when the text has no number or no citation key."""
    key = re.search(r"\[([^\]]+)\]", text or "")
    num = re.search(r"\d[\d,]*(?:\.\d+)?", text or "")
    if not key or not num:
        return None
    return float(num[0].replace(",", "")), key[1]


def published_bytes(text):
    """{"code": n, "stack": n} a published figure states ("3,750 B code, 740 B stack";
    a bare "10,088 B" is code)."""
    out = {}
    for n, what in re.findall(r"(\d[\d,]*) B\b(?: (code|stack))?", text or ""):
        out[what or "code"] = int(n.replace(",", ""))
    return out


def _colours(keys):
    """{key: colour} for (group, key) pairs in order of appearance."""
    pools = {"asm": list(ORANGES), "c": list(BLUES), "peer": list(PEERS)}
    out = {}
    for group, key in sorted(keys, key=lambda k: (k[0] == "peer", k)):
        if key not in out:
            pool = pools[group]
            out[key] = pool.pop(0) if pool else "#999999"
            pools[group] = pool or ["#999999"]
    return out


def _median(row):
    return (row.get("cycles") or {}).get("median")


def bars(result, path):
    """Grouped horizontal bars (log scale): per operation, each implementation's median
    and the published reference."""
    plt = _pyplot()
    rows = [r for r in result["rows"] if _median(r)]
    if not rows:
        return False
    ops = list(dict.fromkeys(r["op"] for r in rows))
    keys = list(dict.fromkeys(series(r.get("impl", "")) for r in rows))
    colour = _colours(keys)
    # A peer's legend entry: the shortest of its labels ("libsodium 1.0.18 (system)").
    legend = {key: key for _, key in keys}
    for r in rows:
        group, key = series(r.get("impl", ""))
        if group == "peer" and (legend[key] == key or len(r["impl"]) < len(legend[key])):
            legend[key] = r["impl"]
    refs = {}
    for r in rows:
        pub = published(r.get("reference"))
        if pub and r["op"] not in refs:
            refs[r["op"]] = pub
    # Published work in one slot below motebox's bars, one hatch per paper.
    hatch = {k: HATCHES[i % len(HATCHES)]
             for i, k in enumerate(dict.fromkeys(k for _, k in refs.values()))}
    slots = [k for _, k in keys] + ["published"] * bool(refs)
    h = 0.84 / len(slots)
    fig, ax = plt.subplots(figsize=(10, 0.16 * len(ops) * len(slots) + 1.8))
    drawn = set()
    for i, op in enumerate(ops):
        for r in (r for r in rows if r["op"] == op):
            _, key = series(r.get("impl", ""))
            j = slots.index(key)
            ax.barh(i + j * h, _median(r), height=h, color=colour[key],
                    label=None if key in drawn else legend[key])
            drawn.add(key)
        if op in refs:
            value, key = refs[op]
            j = slots.index("published")
            ax.barh(i + j * h, value, height=h, color="white", edgecolor=PUBLISHED,
                    hatch=hatch[key], label=None if key in drawn else f"[{key}] published")
            drawn.add(key)
    ax.set_yticks([i + h * (len(slots) - 1) / 2 for i in range(len(ops))], ops, fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel(rows[0].get("unit", "cycles") + " (median, log scale)")
    ax.set_title(result.get("title", result["target"]), fontsize=10)
    ax.grid(axis="x", which="major", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return True


def _hssw15(rows):
    """[HSSW15]'s published points of the coprocessor: {W: (area GE, DH cycles)} from the
    rows' reference texts ("811,170 – 3,455,394 ([HSSW15], W=16..2)", "14.6 kGE at w=2")."""
    cycles, area = {}, {}
    for r in rows:
        text = r.get("reference") or ""
        if "HSSW15" not in text:
            continue
        m = re.search(r"(\d[\d,]*)\s*[–-]\s*(\d[\d,]*).*W=(\d+)\.\.(\d+)", text)
        if r["op"] == "DH-1" and m:
            cycles[int(m[3])] = int(m[1].replace(",", ""))
            cycles[int(m[4])] = int(m[2].replace(",", ""))
        m = re.search(r"([\d.]+) kGE at w=(\d+)", text)
        if r["op"] == "area: total" and m:
            area[int(m[2])] = float(m[1]) * 1000
    return {w: (area[w], cycles[w]) for w in sorted(set(cycles) & set(area))}


def _w(row):
    return int(row["impl"].split("=")[1])


def hw(result, path):
    """Two panels against total area (kGE), one point per datapath width W: the
    Diffie-Hellman command's cycles (left) and a 64-byte UPDATE's (right)."""
    plt = _pyplot()
    rows = result["rows"]
    area = {_w(r): _median(r) for r in rows if r["op"] == "area: total"}
    if not area:
        return False
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.4))
    for ax, op, what in ((axes[0], "DH-1", "DH-1 (X25519) cycles"),
                         (axes[1], "UPDATE", "UPDATE cycles per 64-byte block")):
        pts = sorted((area[_w(r)] / 1000, _median(r), _w(r)) for r in rows
                     if r["op"] == op and _w(r) in area)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "-o", color=ORANGES[0],
                label="motebox coprocessor (hw/)")
        for x, y, w in pts:
            ax.annotate(f"W={w}", (x, y), textcoords="offset points", xytext=(6, 4), fontsize=8)
        if op == "DH-1":
            ref = _hssw15(rows)
            if ref:
                ax.plot([a / 1000 for a, _ in ref.values()], [c for _, c in ref.values()], "s",
                        color=PUBLISHED, mfc="white", ms=8, label="[HSSW15] published")
                for w, (a, c) in ref.items():
                    ax.annotate(f"W={w}", (a / 1000, c), textcoords="offset points",
                                xytext=(6, -12), fontsize=8, color=PUBLISHED)
            ax.set_yscale("log")
        else:
            pub = next((published(r.get("reference")) for r in rows
                        if r["op"] == op and published(r.get("reference"))), None)
            rng = next((re.findall(r"\d[\d,]*", r["reference"]) for r in rows
                        if r["op"] == op and pub), [])
            if len(rng) >= 2:
                lo, hi = (int(v.replace(",", "")) for v in rng[:2])
                ax.axhspan(lo, hi, color=PUBLISHED, alpha=0.2,
                           label=f"[{pub[1]}] published range")
            ax.set_ylim(bottom=0)
        ax.set_xlabel("total area (kGE: logic, registers, ROMs, RAM macro)")
        ax.set_ylabel(what)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(result.get("title", result["target"]), fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


MOTEBOX_SLOT = "motebox, fastest build (beside its bar)"
PUBLISHED_SLOT = "best published work, cycles at the same clock (key beside its bar)"


def _detail(mine):
    """The message size a summary operation was measured with ("1 KiB", "64-byte message")."""
    text = " ".join(r["op"] + " " + r.get("impl", "") for r in mine)
    m = re.search(r"\b(\d+ KiB|\d+-byte message)", text)
    return f" ({m[1]})" if m else ""


def _summary_rows(result):
    """[(label, [(slot, colour, hatch, ms, code, stack, note)])] of a chip's result."""
    hz, _ = CLOCKS[result["target"]]
    rows = [r for r in result["rows"] if _median(r)]
    out, peer_colours, peers = [], iter(PEERS), {}
    for label, names in SUMMARY_OPS:
        mine = [r for r in rows if r["op"] in names]
        if not mine:
            continue
        bars_ = []
        ours = [r for r in mine if series(r.get("impl", ""))[0] != "peer"]
        if ours:
            best = min(ours, key=_median)
            group, key = series(best["impl"])
            bars_.append((MOTEBOX_SLOT, ORANGES[0] if group == "asm" else BLUES[0], None,
                          _median(best) / hz * 1e3, best.get("code"), best.get("stack"),
                          key[len("motebox "):]))
        for r in mine:
            group, key = series(r.get("impl", ""))
            if group == "peer":
                peers.setdefault(key, next(peer_colours, "#999999"))
                bars_.append((f"{r['impl']} (measured here)", peers[key], None,
                              _median(r) / hz * 1e3, r.get("code"), r.get("stack"), ""))
        refs = [published(r.get("reference")) + (r.get("reference"),) for r in mine
                if published(r.get("reference"))]
        if refs:
            value, key, text = min(refs)
            b = published_bytes(text)
            bars_.append((PUBLISHED_SLOT, "white", "////", value / hz * 1e3,
                          b.get("code"), b.get("stack"), f"[{key}]"))
        out.append((label + _detail(mine), bars_))
    return out


def _fmt(v):
    return f"{v:,.1f}" if v < 100 else f"{v:,.0f}"


def summary(result, path):
    """Three panels per operation: milliseconds at CLOCKS' clock (log), code bytes and
    stack bytes, motebox's fastest build beside the published work."""
    if result["target"] not in CLOCKS:
        return False
    plt = _pyplot()
    ops = _summary_rows(result)
    if not ops:
        return False
    _, clock = CLOCKS[result["target"]]
    slots = list(dict.fromkeys(b[0] for _, bs in ops for b in bs))
    h = 0.8 / len(slots)
    fig, axes = plt.subplots(1, 3, figsize=(12, 0.3 * len(ops) * len(slots) + 2.4),
                             sharey=True, gridspec_kw={"width_ratios": [1.5, 1, 1]})
    titles = (f"milliseconds at {clock} (log)", "code bytes", "stack bytes")
    for k, ax in enumerate(axes):
        for i, (_, bs) in enumerate(ops):
            for slot, colour, hatch, ms, code, stack, note in bs:
                value = (ms, code, stack)[k]
                if value is None:
                    continue
                y = i + slots.index(slot) * h
                ax.barh(y, value, height=h, color=colour, hatch=hatch,
                        edgecolor=PUBLISHED if hatch else colour, label=slot)
                text = (_fmt(value) if k == 0 else f"{value:,}") + (f"  {note}" if note else "")
                ax.annotate(text, (value, y), xytext=(3, 0), textcoords="offset points",
                            va="center", fontsize=6.5)
        ax.set_title(titles[k], fontsize=9)
        ax.grid(axis="x", alpha=0.3)
        ax.margins(x=0.35)
        if k == 0:
            ax.set_xscale("log")
    axes[0].set_yticks([i + h * (len(slots) - 1) / 2 for i in range(len(ops))],
                       [label for label, _ in ops], fontsize=8)
    axes[0].invert_yaxis()
    handles, labels = axes[0].get_legend_handles_labels()
    uniq = dict(zip(labels, handles))
    fig.legend(uniq.values(), uniq.keys(), fontsize=8, loc="lower center", ncol=1,
               bbox_to_anchor=(0.5, 0.0))
    fig.suptitle(f"{result.get('title', result['target'])}: summary "
                 f"(ms = cycles / {clock}; code and stack bytes as measured)", fontsize=10)
    fig.tight_layout(rect=(0, 0.04 + 0.035 * len(uniq), 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def render(result, folder):
    """Every plot of one result file into folder: hw.json's area plot, the bars of any
    other measured target, and a chip's summary (summary-<target>.png)."""
    if result.get("kind"):               # fuzz, faults, leakage, ...: tables only
        return
    if result["target"] == "hw":
        hw(result, folder / "hw.png")
    else:
        bars(result, folder / f"{result['target']}.png")
    summary(result, folder / f"summary-{result['target']}.png")


def summary_markdown(results, folder):
    """The README block of the summary figures (one per chip), before the long tables."""
    chips = [r for r in results if r.get("target") in CLOCKS and not r.get("kind")
             and (folder / f"summary-{r['target']}.png").exists()]
    if not chips:
        return ""
    clocks = dict.fromkeys(f"{CHIPS[r['target']]} at {CLOCKS[r['target']][1]}" for r in chips)
    lines = ["#### Summary per chip", "",
             f"Milliseconds ({', '.join(clocks)}), code and stack bytes per operation: "
             "motebox's fastest build beside the best published work (its cycle counts "
             "converted at the same clock) and any peer measured on the same model. The "
             "tables below have every build and the conditions.", ""]
    for r in chips:
        lines += [f"![{r['target']} summary](bench/results/summary-{r['target']}.png)", ""]
    return "\n".join(lines).rstrip()
