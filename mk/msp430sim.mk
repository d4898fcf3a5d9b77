# SPDX-License-Identifier: MIT
# The MSP430X (MSP430FR5969) instruction-set simulator: build/sim/msp430sim.
# Tests (tests/msp430/test_sim_*.py) also need the MSP430 toolchain and mspdebug.

SIM430_CC     ?= cc
SIM430_CFLAGS ?= -std=c99 -O2 -Wall -Wextra -Werror
SIM430_SRC    := $(sort $(wildcard sim/msp430/*.c))
SIM430_HDR    := $(wildcard sim/msp430/*.h)

APT_PACKAGES += clang lld llvm mspdebug msp430mcu

.PHONY: msp430sim
msp430sim: $(BUILD)/sim/msp430sim
$(BUILD)/sim/msp430sim: $(SIM430_SRC) $(SIM430_HDR)
	@mkdir -p $(dir $@)
	$(SIM430_CC) $(SIM430_CFLAGS) -o $@ $(SIM430_SRC)

all: $(BUILD)/sim/msp430sim
TEST_DEPS += $(BUILD)/sim/msp430sim
