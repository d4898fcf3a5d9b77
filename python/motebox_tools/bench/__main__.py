# SPDX-License-Identifier: MIT
"""python -m motebox_tools.bench BOARD [options]: the `make bench` step of a board."""
import sys

from ..boards import BOARDS, board


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in BOARDS or not hasattr(board(argv[0]), "bench"):
        steps = [b for b in BOARDS if hasattr(board(b), "bench")]
        print(f"usage: python -m motebox_tools.bench {{{','.join(steps)}}} [options]",
              file=sys.stderr)
        return 2
    return board(argv[0]).bench(argv[1:])


sys.exit(main())
