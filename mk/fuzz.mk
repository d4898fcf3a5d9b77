# SPDX-License-Identifier: MIT
# Coverage-guided differential fuzzing (libFuzzer), fuzz/:
#   build/fuzz/bin/<harness>      clang -fsanitize=fuzzer,address,undefined, linked to the
#                                 library compiled with the same sanitizers
#                                 (build/fuzz/lib/rNN/libmotebox.a), libsodium and OpenSSL
#   build/fuzz/cov/<harness>      the same harness on a -fprofile-instr-generate
#                                 -fcoverage-mapping build (no sanitizers), to replay corpora
#   make fuzz-seed                seed inputs from the suite's vectors into fuzz/corpus/
#   make fuzz [FUZZ_SECONDS=60]   builds both, runs every harness FUZZ_SECONDS seconds on one
#                                 core (FUZZ_JOBS at a time, default nproc) over fuzz/corpus/<harness>/, replays the corpora for
#                                 llvm-cov line coverage per source folder and writes
#                                 bench/results/fuzz.json (fuzz/run.py)
# `make test` builds build/fuzz/bin/* and tests/test_fuzz.py runs each harness 10 s.
# Harnesses: fuzz/<name>.c on the r64 library; fuzz/field.c once per radix (field_rNN);
# fuzz/sim430_fuzz.c (the MSP430X ISS, sim/msp430/ minus its main.c) when it exists.

APT_PACKAGES += clang llvm libclang-rt-14-dev libsodium-dev libssl-dev

FZ           := $(BUILD)/fuzz
FUZZ_SECONDS ?= 60
FUZZ_JOBS    ?= $(shell nproc 2>/dev/null || echo 1)
FZ_CC        ?= clang
FZ_SAN       := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FZ_COV       := -fprofile-instr-generate -fcoverage-mapping
FZ_HFLAGS    := -std=c99 -O1 -g $(MB_WARN) $(MB_INC) -Ifuzz
FZ_LIBS      := -lsodium -lcrypto
# OpenSSL 3 deprecates the EC_KEY/ECDH_compute_key API the P-256 harness compares with.
FZ_FLAGS_p256 := -Wno-deprecated-declarations

# The library, per radix: sanitized (sanitizer coverage for libFuzzer too) and profiled.
$(foreach r,$(RADIXES),$(eval $(call lib_archive,$(FZ)/lib/r$(r),$(FZ_CC) -O1 -g $(FZ_SAN) -fsanitize=fuzzer-no-link,$(r))))
$(foreach r,$(RADIXES),$(eval $(call lib_archive,$(FZ)/covlib/r$(r),$(FZ_CC) -O1 -g $(FZ_COV),$(r))))

# $(1) = harness name, $(2) = source, $(3) = radix
define fuzz_harness
$(FZ)/bin/$(1): $(2) fuzz/fuzz.h $(LIB_HEADERS) $(FZ)/lib/r$(3)/libmotebox.a
	@mkdir -p $$(@D)
	$(FZ_CC) $(FZ_HFLAGS) $(FZ_FLAGS_$(1)) $(FZ_SAN) -fsanitize=fuzzer -DMB_RADIX=$(3) -o $$@ $(2) $(FZ)/lib/r$(3)/libmotebox.a $(FZ_LIBS)
$(FZ)/cov/$(1): $(2) fuzz/fuzz.h $(LIB_HEADERS) $(FZ)/covlib/r$(3)/libmotebox.a
	@mkdir -p $$(@D)
	$(FZ_CC) $(FZ_HFLAGS) $(FZ_FLAGS_$(1)) $(FZ_COV) -fsanitize=fuzzer -DMB_RADIX=$(3) -o $$@ $(2) $(FZ)/covlib/r$(3)/libmotebox.a $(FZ_LIBS)
FUZZ_BINS += $(FZ)/bin/$(1)
FUZZ_COV_BINS += $(FZ)/cov/$(1)
endef
FUZZ_BINS :=
FUZZ_COV_BINS :=
FUZZ_LIB_HARNESSES := box_open stream x25519 p256 sym
$(foreach h,$(FUZZ_LIB_HARNESSES),$(eval $(call fuzz_harness,$(h),fuzz/$(h).c,64)))
$(foreach r,$(RADIXES),$(eval $(call fuzz_harness,field_r$(r),fuzz/field.c,$(r))))

# The simulator's harness (engineer b's fuzz/sim430_fuzz.c), built with the ISS sources.
ifneq ($(wildcard fuzz/sim430_fuzz.c),)
FZ_SIM430_SRC ?= $(filter-out sim/msp430/main.c,$(sort $(wildcard sim/msp430/*.c)))
FZ_SIM430_FLAGS := -std=c99 -O1 -g -Wall -Wextra -Werror -Isim/msp430 -Ifuzz
$(FZ)/bin/sim430: fuzz/sim430_fuzz.c $(FZ_SIM430_SRC) $(wildcard sim/msp430/*.h)
	@mkdir -p $(@D)
	$(FZ_CC) $(FZ_SIM430_FLAGS) $(FZ_SAN) -fsanitize=fuzzer -o $@ fuzz/sim430_fuzz.c $(FZ_SIM430_SRC)
$(FZ)/cov/sim430: fuzz/sim430_fuzz.c $(FZ_SIM430_SRC) $(wildcard sim/msp430/*.h)
	@mkdir -p $(@D)
	$(FZ_CC) $(FZ_SIM430_FLAGS) $(FZ_COV) -fsanitize=fuzzer -o $@ fuzz/sim430_fuzz.c $(FZ_SIM430_SRC)
FUZZ_BINS += $(FZ)/bin/sim430
FUZZ_COV_BINS += $(FZ)/cov/sim430
endif

.PHONY: fuzz fuzz-bins fuzz-cov fuzz-seed
fuzz-bins: $(FUZZ_BINS)
fuzz-cov: $(FUZZ_COV_BINS)
fuzz: fuzz-bins fuzz-cov
	$(PY) fuzz/run.py --build $(FZ) --seconds $(FUZZ_SECONDS) --jobs $(FUZZ_JOBS) --out bench/results/fuzz.json
TEST_DEPS += fuzz-bins

# Seed inputs from the suite's vectors (fuzz/seed.py), merged into fuzz/corpus/<harness>/
# where they add coverage (libFuzzer -merge=1 keeps the corpora small).
FZ_SEEDED := $(FUZZ_LIB_HARNESSES) $(foreach r,$(RADIXES),field_r$(r))
fuzz-seed: fuzz-bins
	rm -rf $(FZ)/seeds
	$(PY) fuzz/seed.py $(FZ)/seeds
	for h in $(FZ_SEEDED); do mkdir -p fuzz/corpus/$$h && \
	  $(FZ)/bin/$$h -merge=1 fuzz/corpus/$$h $(FZ)/seeds/$$h 2>&1 | grep 'MERGE-OUTER: [0-9]* new' ; done
