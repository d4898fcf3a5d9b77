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

# P-256 ECDH on the MSP430 (tests/target/fault_p256.c, motebox_tools.fault_p256): faults
# sampled over the whole call (fixed seed), hardened 6,700 a model (the issue's 20,000 a
# build) and unhardened 200 (assembly) / 100 (portable) a model, the assembly and portable
# r16 -O2 builds, the hardening's cost in cycles; two simulator processes at a time
# (the portable build's faults cost ten times the assembly's: about 1.5 hours on two idle
# cores in all); replaces only the msp430 P-256 rows of bench/results/faults.json.
.PHONY: bench-faults-p256-msp430
bench-faults-p256-msp430: msp430 $(MSP430_SIM)
	MOTEBOX_BUILD=$(abspath $(BUILD)) $(PY) -m motebox_tools.fault_p256 bench --jobs 2
BENCH_STEPS += bench-faults-p256-msp430

# X25519 and the stream final on the MSP430 (tests/target/fault_x25519.c,
# motebox_tools.fault_x25519_msp430): the stream final exhaustive (every skip, every
# flip and load bit), X25519 sampled over the whole call (fixed seed; 1,000 a model on
# the portable hardened build, 4,000 on the assembly two-computation one, 150 on the
# others),
# hardened and unhardened, mpy32 and mpy32-asm, the hardening's cost in cycles; one
# simulator process at a time; replaces only the msp430 mb_x25519 /
# mb_box_stream_final rows of bench/results/faults.json.
.PHONY: bench-faults-x25519-msp430
bench-faults-x25519-msp430: msp430 $(MSP430_SIM)
	MOTEBOX_BUILD=$(abspath $(BUILD)) $(PY) -m motebox_tools.fault_x25519_msp430 bench --jobs 1
BENCH_STEPS += bench-faults-x25519-msp430
