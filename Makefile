# SPDX-License-Identifier: MIT
# motebox top-level build. Two commands matter to users: `make demo` and `make test`.
# Each area of the tree adds itself through one fragment in mk/ (host library, boards,
# simulators, hardware); this file only holds the shared plumbing.

BUILD   ?= build
VENV    := .venv
PY      := $(VENV)/bin/python
PYTEST_ARGS ?=

# Fragments append to these.
APT_PACKAGES := build-essential python3-venv clang lld llvm libsodium-dev libssl-dev valgrind
TEST_DEPS    :=   # things `make test` builds before running pytest
BENCH_STEPS  :=   # phony targets, each writes bench/results/<target>.json
DEMO_TARGET  ?= demo-host

.PHONY: all setup apt venv test demo bench clean
all: host

include $(sort $(wildcard mk/*.mk))

# --- installation: quick no-op when everything is present --------------------
setup: apt venv
apt:
	@tools/ensure-apt.sh $(sort $(APT_PACKAGES))
venv: $(VENV)/.installed
$(VENV)/.installed: requirements.txt pyproject.toml
	@test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -r requirements.txt
	$(PY) -m pip install -q --disable-pip-version-check --no-deps -e .
	@touch $@

# --- the two user commands ---------------------------------------------------
test: setup all $(TEST_DEPS)
	$(PY) -m pytest $(PYTEST_ARGS) tests

demo: setup all
	@$(MAKE) --no-print-directory $(DEMO_TARGET)

bench: setup all $(BENCH_STEPS)
	$(PY) -m motebox.bench_report

clean:
	rm -rf $(BUILD)
