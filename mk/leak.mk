# SPDX-License-Identifier: MIT
# The side-channel lab (docs/SIDE_CHANNELS.md, issue #15): `make bench` runs the leakage
# matrix (TVLA and CPA on simulated power traces; both chips, assembly and portable
# builds, X25519 and P-256 plain and randomized, the hw/ coprocessor) and writes
# bench/results/leakage.json plus one t-over-time plot per chip (about 10 minutes on
# 2 cores). `motebox leak` runs the same tests from the command line.

.PHONY: bench-leakage
bench-leakage: msp430 m4 $(MSP430_SIM) hw-leak-sim
	MOTEBOX_BUILD=$(abspath $(BUILD)) $(PY) -m motebox_tools.leak.bench --jobs 2
BENCH_STEPS += bench-leakage
