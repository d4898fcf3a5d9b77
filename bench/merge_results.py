# SPDX-License-Identifier: MIT
"""merge_results.py OUT FIRST.json MORE.json...: one bench result from several programs
run on the same machine in the same step (rows concatenated, conditions kept per part)."""
import json
import sys
from pathlib import Path


def main(out, first, *more):
    result = json.loads(Path(first).read_text())
    for path in more:
        part = json.loads(Path(path).read_text())
        result["conditions"] += f" || {part['title']}: {part['conditions']}"
        result["rows"] += part["rows"]
    Path(out).write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
