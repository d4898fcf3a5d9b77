# SPDX-License-Identifier: MIT
"""Per-function profile of the Cortex-M4 model (`motebox sim m4 --profile`): calls, self
cycles, inclusive cycles (outermost activation only, from a shadow call stack of BL/BLX
return addresses) and instructions per function; and the cycles by timing rule
(docs/M4_TIMING.md), which add up to the total."""


def _entry():
    return {"calls": 0, "self": 0, "inclusive": 0, "instructions": 0}


class Profiler:
    """func_name(addr): the function holding addr."""

    def __init__(self, func_name):
        self.func_name = func_name
        self.prof = {}               # name -> {"calls", "self", "inclusive", "instructions"}
        self.shadow = []             # (return address, function, cycles at call, outermost)
        self.rules = {}              # cycles by timing rule
        self.why_memo = {}           # block cost breakdowns by rule, per timing context

    def add_rules(self, why):
        for k, v in why.items():
            self.rules[k] = self.rules.get(k, 0) + v

    def block(self, p, c, taken, nxt_addr, cycles):
        """Block p cost c cycles and went to nxt_addr; cycles: total after it."""
        e = self.prof.get(p.func)
        if e is None:
            e = self.prof[p.func] = _entry()
        e["self"] += c
        e["instructions"] += p.n
        sh = self.shadow
        while sh and sh[-1][0] == nxt_addr:
            _, fn, start, outer = sh.pop()
            if outer:
                self.prof[fn]["inclusive"] += cycles - start
        if p.is_call and taken and nxt_addr is not None:
            fn = self.func_name(nxt_addr)
            f = self.prof.setdefault(fn, _entry())
            f["calls"] += 1
            outer = all(s[1] != fn for s in sh)
            sh.append((p.fall, fn, cycles, outer))

    def tail(self, b, c, n, cycles):
        """The run ended after the first n instructions of block b (c cycles): close
        every open activation."""
        e = self.prof.setdefault(b.func, _entry())
        e["self"] += c
        e["instructions"] += n
        for _, fn, start, outer in self.shadow:
            if outer:
                self.prof[fn]["inclusive"] += cycles - start
        self.shadow.clear()


def format_profile(prof, total):
    rows = sorted(prof.items(), key=lambda kv: -kv[1]["self"])
    lines = [f"{'function':40} {'calls':>8} {'self':>12} {'self%':>6} {'inclusive':>12}"]
    for name, e in rows:
        pct = 100.0 * e["self"] / total if total else 0.0
        lines.append(f"{name[:40]:40} {e['calls']:8d} {e['self']:12d} {pct:6.2f} "
                     f"{e['inclusive']:12d}")
    return "\n".join(lines)
