# SPDX-License-Identifier: MIT
"""The Cortex-M4 cycle model (docs/M4_TIMING.md): unicorn executes, capstone decodes, and
the timing rules of the Cortex-M4 TRM charge the cycles.

    from motebox_tools.sim import m4
    r = m4.run("fw.elf", trace=False, trace_file=None, trace_window=None, profile=False,
               stack=True, max_instructions=None, max_cycles=DEFAULT_MAX_CYCLES,
               stdin=b"", console=None)

Modules: `machine` (the CPU and board, block costs, hooks: `M4`, `run`, `Result`),
`timing` (the TRM's table as data), `dwt` (System Control Space: DEMCR, DWT_CYCCNT),
`semihosting` (console and exit), `trace` (execution trace and its hash), `profile`
(per-function cycles), `cli` (`motebox sim m4`); beside the cycle model, on the same
board: `leak` (power samples, docs/SIDE_CHANNELS.md), `fault` (fault injection,
docs/FAULTS.md), `powercut` (power cuts with an NVM image, docs/PROTOCOL.md).
"""
from .cli import main
from .machine import (DEFAULT_MAX_CYCLES, EXIT_FAULT, EXIT_LIMIT, EXIT_STATUSES, M4, Result,
                      SimError, run)
from .profile import format_profile

__all__ = ["DEFAULT_MAX_CYCLES", "EXIT_FAULT", "EXIT_LIMIT", "EXIT_STATUSES", "M4", "Result",
           "SimError", "format_profile", "main", "run"]
