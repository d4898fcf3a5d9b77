# SPDX-License-Identifier: MIT
"""Bench tooling: `python -m motebox_tools.bench BOARD [options]` runs a board's bench
step (its `bench(argv)`, see motebox_tools.boards); `report` renders bench/results/*.json
into the README and plots; `merge` joins results of several programs of one step."""
