# SPDX-License-Identifier: MIT
"""The boards the tools know, one module each, registered in `BOARDS` (name -> module).

A board module provides:
  TITLE                      one line for help texts
  VARIANTS                   {name: description} of its builds (build/<board>/<name>/)
  run_node(server_pk, node_sk, readings, variant=None) -> dict
                             the demo's sensor node: {"node_pk", "nonce", "ciphertext",
                             "tag", "cycles" (dict or None), "where"}
and, for a chip: build_dir(), firmware(name, ...), its runners, and
  bench(argv) -> status      its `make bench` step (bench/results/<target>.json)

Adding a chip's Python side = one module here and one line in BOARDS; `motebox demo
--node`, `python -m motebox_tools.bench` and the tests take the names from this table.
Modules are imported on first use, so listing the boards imports none of them.
"""
import importlib

BOARDS = {
    "m4": "motebox_tools.boards.m4",            # Cortex-M4, QEMU mps2-an386 + cycle model
    "msp430": "motebox_tools.boards.msp430",    # MSP430FR5969 on the motebox simulator
    "host": "motebox_tools.boards.host",        # the host library (no firmware)
}


def board(name):
    """The module of board `name` (KeyError naming the known boards if there is none)."""
    if name not in BOARDS:
        raise KeyError(f"no board {name!r}: known boards are {', '.join(BOARDS)}")
    return importlib.import_module(BOARDS[name])
