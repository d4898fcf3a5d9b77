# SPDX-License-Identifier: MIT
"""Instruction-set simulators with cycle models: m4 (Cortex-M4 on unicorn), msp430."""
