# SPDX-License-Identifier: MIT
"""The README table of bench/results/gateway.json (`make bench-gateway`,
motebox_tools.gateway.bench): throughput and latency per database, then the fault runs
with what was lost, stored twice or accepted as a replay, and the goals of issue #17."""


def _n(v):
    if v is None:
        return "—"
    return f"{v:,}" if isinstance(v, int) else f"{v:g}" if isinstance(v, float) else str(v)


def _replays(r):
    if r.get("replays_tried") is None:
        return "—"
    return f"{_n(r['replays_tried'])} / {_n(r.get('replays_received'))}"


def gateway_table(result):
    rows = result.get("rows", [])
    goals = result.get("goals", {})
    lines = [f"#### {result.get('title', 'Gateway')}", "",
             f"Conditions: {result.get('conditions', 'not stated')}", ""]
    load = [r for r in rows if "readings_per_s" in r]
    if load:
        lines += ["| database | run | nodes | readings | readings/s | p50 (ms) | p99 (ms) | "
                  "gateway CPU per reading (µs) | lost | stored twice |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        for r in load:
            lines.append(f"| {r['db']} | {r['run']} | {_n(r['nodes'])} | {_n(r['readings'])} | "
                         f"{_n(r['readings_per_s'])} | {_n(r['p50_ms'])} | {_n(r['p99_ms'])} | "
                         f"{_n(r.get('gateway_cpu_us_per_reading'))} | {_n(r.get('lost'))} | "
                         f"{_n(r.get('duplicates'))} |")
        lines.append("")
    faults = [r for r in rows if "readings_per_s" not in r]
    if faults:
        lines += ["| database | fault run | nodes | readings acknowledged | restarts | "
                  "replays sent / received | replays accepted | lost | stored twice |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for r in faults:
            lines.append(f"| {r['db']} | {r['run']} | {_n(r['nodes'])} | {_n(r['readings'])} | "
                         f"{_n(r.get('restarts'))} | {_replays(r)} | "
                         f"{_n(r.get('replays_accepted'))} | {_n(r.get('lost'))} | "
                         f"{_n(r.get('duplicates'))} |")
        lines.append("")
    bad_runs = [r for r in rows if "bad_inputs_sent" in r]
    for r in bad_runs:
        counted = ", ".join(f"{k} {_n(v)}" for k, v in r.get("counted", {}).items())
        lines += [f"Bad inputs ({r['db']}): {_n(r['bad_inputs_sent'])} sent, "
                  f"{_n(r['bad_inputs_counted'])} counted and dropped ({counted}), "
                  f"{_n(r['accepted'])} stored.", ""]
    if goals and rows:
        lines += ["| goal | target | measured | met |", "|---|---|---|---|"]
        rate_goal, p99_goal = goals.get("readings_per_s"), goals.get("p99_ms")
        for db in dict.fromkeys(r["db"] for r in load):
            runs = [r for r in load if r["db"] == db]
            if rate_goal is not None:          # capacity: the best of its load runs
                best = max(r["readings_per_s"] for r in runs)
                lines.append(f"| readings/s ({db}) | ≥ {_n(rate_goal)} | {_n(best)} | "
                             f"{'yes' if best >= rate_goal else '**no**'} |")
            at_goal = [r for r in runs if r.get("offered") == rate_goal]
            if p99_goal is not None and at_goal:   # latency at the goal's rate
                p99 = at_goal[0]["p99_ms"]
                met = p99 is not None and p99 <= p99_goal
                lines.append(f"| p99 at {_n(rate_goal)}/s offered ({db}) | ≤ {_n(p99_goal)} ms | "
                             f"{_n(p99)} ms | {'yes' if met else '**no**'} |")
        bad = sum((r.get("lost") or 0) + (r.get("duplicates") or 0)
                  + (r.get("replays_accepted") or 0) for r in rows)
        kills = max((r.get("restarts") or 0 for r in rows if r["db"] == "sqlite"), default=0)
        # replays the gateway received (some sent ones may be dropped by the socket)
        tried = max((r.get("replays_received", r.get("replays_tried")) or 0 for r in rows),
                    default=0)
        lines.append(f"| lost + stored twice + replays accepted, all runs | 0 | {bad} | "
                     f"{'yes' if bad == 0 else '**no**'} |")
        lines.append(f"| kill -9 restarts under load | ≥ {_n(goals.get('restarts'))} | {kills} | "
                     f"{'yes' if kills >= goals.get('restarts', 0) else '**no**'} |")
        lines.append(f"| replay attempts received by the gateway | ≥ {_n(goals.get('replays_tried'))} | {_n(tried)} | "
                     f"{'yes' if tried >= goals.get('replays_tried', 0) else '**no**'} |")
    return "\n".join(lines).rstrip()
