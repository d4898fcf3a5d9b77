# SPDX-License-Identifier: MIT
"""The README table of bench/results/powercut.json (`make bench`, motebox_tools.powercut):
per chip, power-cut points tried and counters used twice after the reboot, with the
protocol node's cycles per 64-byte reading, boot and receipt, and its state size."""


def _n(v):
    return f"{v:,}" if isinstance(v, int) else ("—" if v is None else str(v))


def powercut_table(result):
    lines = [f"#### {result.get('title', 'Power cuts')}", "",
             f"Conditions: {result.get('conditions', 'not stated')}", "",
             "| target | cut points (write function / whole run) | counters reused | "
             "seal, 64-byte reading (cycles) | boot (cycles) | open receipt (cycles) | "
             "node state (B) |",
             "|---|---|---|---|---|---|---|"]
    for r in result.get("rows", []):
        lines.append(f"| {r['target']} | {_n(r['points'])} ({_n(r.get('reservation_points'))} / "
                     f"{_n(r.get('run_points'))}) | {_n(r['reuses'])} | "
                     f"{_n(r.get('seal_64_cycles'))} | {_n(r.get('boot_cycles'))} | "
                     f"{_n(r.get('open_receipt_cycles'))} | {_n(r.get('state_bytes'))} |")
    return "\n".join(lines)
