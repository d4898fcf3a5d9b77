# SPDX-License-Identifier: MIT
"""The side-channel lab (docs/SIDE_CHANNELS.md): simulated power traces from the
simulators' leakage model, the TVLA t-test and a correlation power attack.

Modules: `inputs` (what one trace runs: `LeakInput`; the recorder interface),
`stats` (Welch's t, first and second order; Pearson correlation), `cpa` (hypotheses
on the Montgomery ladder), `record_msp430` / `record_m4` / `record_hw` (recorders per
target), `campaign` (tests per target, build and function -> result rows), `cli`
(`motebox leak`)."""
