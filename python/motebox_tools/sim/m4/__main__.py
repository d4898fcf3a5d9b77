# SPDX-License-Identifier: MIT
"""python -m motebox_tools.sim.m4 [options] FIRMWARE.elf"""
import sys

from .cli import main

sys.exit(main())
