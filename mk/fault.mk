# SPDX-License-Identifier: MIT
# Fault-injection campaigns (docs/FAULTS.md, issue #18): `make bench` runs the single-fault
# campaigns (skip, register bit flip, load bit flip) on the MSP430 simulator against the
# secretbox and box opens (and a low-order key's box) of build/msp430/<variant>/fault.elf,
# hardened and unhardened, and writes bench/results/faults.json (about 27 CPU-minutes:
# some 15 minutes on two idle cores).
# `motebox fault` runs the same campaigns from the command line.

.PHONY: bench-faults
bench-faults: msp430 $(MSP430_SIM)
	MOTEBOX_BUILD=$(abspath $(BUILD)) $(PY) -m motebox_tools.fault bench --jobs 2
BENCH_STEPS += bench-faults
