# SPDX-License-Identifier: MIT
"""Instruction-set simulators with cycle models: m4 (Cortex-M4 on unicorn, in Python),
msp430 (the wrapper of the C simulator sim/msp430, build/sim/msp430sim)."""
