# SPDX-License-Identifier: MIT
"""python -m motebox_tools.bench.merge OUT FIRST.json MORE.json...: one bench result from
several programs run on the same machine in the same step. Parts with the same "target"
are one program run once per build (e.g. per radix): their conditions are given once and
their rows merged op by op (ops in order of first appearance, parts in argument order).
Other parts follow, their conditions kept per part."""
import json
import sys
from pathlib import Path


def main(out, first, *more):
    groups = {}
    for path in (first, *more):
        part = json.loads(Path(path).read_text())
        groups.setdefault(part["target"], []).append(part)
    result = None
    for group in groups.values():
        ops = list(dict.fromkeys(r["op"] for part in group for r in part["rows"]))
        rows = [r for op in ops for part in group for r in part["rows"] if r["op"] == op]
        if result is None:
            result = dict(group[0], rows=rows)
        else:
            result["conditions"] += f" || {group[0]['title']}: {group[0]['conditions']}"
            result["rows"] += rows
    Path(out).write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
