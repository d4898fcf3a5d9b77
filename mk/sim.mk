# SPDX-License-Identifier: MIT
# The simulators the boards run on:
#   build/sim/msp430sim   the MSP430X (MSP430FR5969) instruction-set simulator, sim/msp430/
#                         (tests/msp430/test_sim_*.py also need the MSP430 toolchain and mspdebug)
#   the Cortex-M4 cycle model is Python (unicorn + capstone); its validation tests
#   (m4model-test: tests/m4/test_model_*.py) build their small programs themselves, in
#   pytest's temporary directories, and compare with QEMU.

APT_PACKAGES += clang lld llvm mspdebug msp430mcu gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm

SIM430_CC     ?= cc
SIM430_CFLAGS ?= -std=c99 -O2 -Wall -Wextra -Werror
SIM430_SRC    := $(sort $(wildcard sim/msp430/*.c))
SIM430_HDR    := $(wildcard sim/msp430/*.h)

.PHONY: msp430sim m4model-test
msp430sim: $(BUILD)/sim/msp430sim
$(BUILD)/sim/msp430sim: $(SIM430_SRC) $(SIM430_HDR)
	@mkdir -p $(dir $@)
	$(SIM430_CC) $(SIM430_CFLAGS) -o $@ $(SIM430_SRC)

all: $(BUILD)/sim/msp430sim
TEST_DEPS += $(BUILD)/sim/msp430sim

# The same simulator under ASan/UBSan (any report aborts): the robustness tests
# (tests/msp430/test_sim_robust.py) feed it malformed images and programs.
SIM430_SAN_CFLAGS ?= -std=c99 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
                     -fno-sanitize-recover=all -Wall -Wextra -Werror
.PHONY: msp430sim-asan
msp430sim-asan: $(BUILD)/sim/msp430-sim-asan
$(BUILD)/sim/msp430-sim-asan: $(SIM430_SRC) $(SIM430_HDR)
	@mkdir -p $(dir $@)
	$(SIM430_CC) $(SIM430_SAN_CFLAGS) -o $@ $(SIM430_SRC)
TEST_DEPS += $(BUILD)/sim/msp430-sim-asan


m4model-test:
	$(PY) -m pytest $(PYTEST_ARGS) tests/m4/test_model_timing.py tests/m4/test_model_semihost.py tests/m4/test_model_trace.py
