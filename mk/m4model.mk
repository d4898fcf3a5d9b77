# SPDX-License-Identifier: MIT
# Cortex-M4 cycle model (python/motebox/sim/m4.py). Its validation tests
# (tests/m4/test_model_*.py) build their small programs themselves, in pytest's temporary
# directories, with the cross compiler and newlib below, and compare with QEMU.
APT_PACKAGES += gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm

.PHONY: m4model-test
m4model-test:
	$(PY) -m pytest $(PYTEST_ARGS) tests/m4/test_model_timing.py tests/m4/test_model_semihost.py tests/m4/test_model_trace.py
