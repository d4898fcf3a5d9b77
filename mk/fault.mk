# SPDX-License-Identifier: MIT
# Fault-injection campaigns (docs/FAULTS.md, issue #18): `make bench` runs the single-fault
# campaigns (skip, register bit flip, load bit flip) on the MSP430 simulator against the
# secretbox open of build/msp430/<variant>/fault.elf, hardened and unhardened, and writes
# bench/results/faults.json (about 2 minutes on one core per build, 2 parallel runs).
# `motebox fault` runs the same campaigns from the command line.

.PHONY: bench-faults
bench-faults: msp430 $(MSP430_SIM)
	MOTEBOX_BUILD=$(abspath $(BUILD)) $(PY) -m motebox_tools.fault bench --jobs 2
BENCH_STEPS += bench-faults
