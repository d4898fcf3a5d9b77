# SPDX-License-Identifier: MIT
"""motebox_tools: everything around the motebox binding that needs a source checkout and
third-party packages (`pip install motebox[tools]`): the simulators (`sim`), the boards
(`boards`: firmware paths and variants, runners, demo node, bench step; one module per
board, registered in `boards.BOARDS`), the demo's server side (`demo`), bench reports
(`bench`) and the `motebox sim|demo` plug-in commands (`commands`)."""
