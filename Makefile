# SPDX-License-Identifier: MIT
# motebox top-level build. Two commands matter to users: `make demo` and `make test`.
# Each purpose has one fragment in mk/: lib.mk (the library's sources and flags) and
# arch.mk (the assembly hook) come first, then the builds that use them (host, checks,
# boards, simulators, hardware); this file only holds the shared plumbing.

BUILD   ?= build
VENV    := .venv
PY      := $(VENV)/bin/python
PYTEST_ARGS ?=

# Fragments append to these.
APT_PACKAGES := build-essential python3-venv clang lld llvm libsodium-dev libssl-dev valgrind
# things `make test` builds before running pytest
TEST_DEPS    :=
# phony targets, each writes bench/results/<target>.json
BENCH_STEPS  :=
# what the demo's node needs, per NODE (DEMO_DEPS_m4, DEMO_DEPS_msp430)
DEMO_DEPS_host :=
# Where `make demo` runs the sensor node: m4 (emulated Cortex-M4, the default), msp430
# (simulated MSP430FR5969) or host (the host library).
NODE         ?= m4

.PHONY: all setup apt venv test demo bench clean
all: host

MK_FIRST := mk/lib.mk mk/arch.mk
include $(MK_FIRST)
include $(filter-out $(MK_FIRST),$(sort $(wildcard mk/*.mk)))

# --- installation: quick no-op when everything is present --------------------
setup: apt venv
apt:
	@tools/ensure-apt.sh $(sort $(APT_PACKAGES))
venv: $(VENV)/.installed
# $(call venv_install,REQUIREMENTS): the venv with those pinned packages and motebox
# (editable) in it.
venv_install = { test -x $(PY) || python3 -m venv $(VENV); } && \
	$(PY) -m pip install -q --disable-pip-version-check -r $(1) && \
	$(PY) -m pip install -q --disable-pip-version-check --no-deps -e .
$(VENV)/.installed: requirements.txt pyproject.toml
	$(call venv_install,requirements.txt)
	@touch $@

# `make demo NODE=host` installs only what the host demo needs: a C compiler and the
# packages of requirements-demo.txt (no cross compilers, simulators or plotting). When the
# full setup is there already, nothing more is installed.
DEMO_APT_host := build-essential python3-venv
.PHONY: demo-setup-host
demo-setup-host:
	@tools/ensure-apt.sh $(DEMO_APT_host)
	@test -f $(VENV)/.installed || test -f $(VENV)/.installed-demo || { \
	  $(call venv_install,requirements-demo.txt) && touch $(VENV)/.installed-demo; }

# --- the two user commands ---------------------------------------------------
# Installation first, then the builds in parallel.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
test: setup
	@$(MAKE) --no-print-directory -j$(JOBS) all $(TEST_DEPS)
	MOTEBOX_BUILD=$(abspath $(BUILD)) $(PY) -m pytest $(PYTEST_ARGS) tests

demo: $(if $(DEMO_APT_$(NODE)),demo-setup-$(NODE),setup)
	@$(MAKE) -s --no-print-directory -j$(JOBS) all $(DEMO_DEPS_$(NODE))
	@MOTEBOX_BUILD=$(abspath $(BUILD)) $(PY) -m motebox_tools.demo --node $(NODE)

bench: setup
	@$(MAKE) --no-print-directory -j$(JOBS) all
	@$(MAKE) --no-print-directory $(BENCH_STEPS)
	$(PY) -m motebox_tools.bench.report

clean:
	rm -rf $(BUILD)
