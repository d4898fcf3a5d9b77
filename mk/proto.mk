# SPDX-License-Identifier: MIT
# The node-server protocol (docs/PROTOCOL.md, issue #17), node side: src/proto/node_msg.c
# is a library source like any other (mk/lib.mk takes every src/*/*.c), so every build
# has it. Its firmware (demo/proto_node.c) is compiled per run by
# python/motebox_tools/protonode.py against the boards' libraries, which `make test`
# builds already (m4, msp430, the simulator).
#   bench-powercut: power cuts before every instruction of the NVM write function and at
#       sampled instructions of a whole run, on the MSP430 simulator and the Cortex-M4
#       model, and the node's cycles per 64-byte reading -> bench/results/powercut.json
#       (a few minutes on one core, most of it the M4 model).

.PHONY: bench-powercut
bench-powercut: m4 msp430 $(MSP430_SIM)
	MOTEBOX_BUILD=$(abspath $(BUILD)) $(PY) -m motebox_tools.powercut bench
BENCH_STEPS += bench-powercut
