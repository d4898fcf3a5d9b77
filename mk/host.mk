# SPDX-License-Identifier: MIT
# The library on the host, and the host benchmark:
#   build/host/rNN/libmotebox.{so,a}   one build per field radix (NN = 16, 25, 32, 64)
#   build/host/libmotebox.{so,a}       the default build (radix 64)
#   bench-host: build/bench/host/host_bench_rNN, host_bench_p256_rNN (one binary per
#       radix, each linked to that radix's libmotebox.a) beside libsodium and OpenSSL
#       -> bench/results/host.json

HOST_CFLAGS ?= -O2 -fPIC

.PHONY: host host-all
host: $(BUILD)/host/libmotebox.so $(BUILD)/host/libmotebox.a
host-all: $(foreach r,$(RADIXES),$(BUILD)/host/r$(r)/libmotebox.so $(BUILD)/host/r$(r)/libmotebox.a)
all: host-all

# $(1) = radix
define host_radix
$(call lib_archive,$(BUILD)/host/r$(1),$(HOST_CC) $(HOST_CFLAGS),$(1))
$(BUILD)/host/r$(1)/libmotebox.so: $(call lib_obj,$(BUILD)/host/r$(1)/obj,$(1)) $(BUILD)/host/r$(1)/obj/config.stamp
	$(HOST_CC) -shared -o $$@ $$(filter %.o,$$^)
endef
$(foreach r,$(RADIXES),$(eval $(call host_radix,$(r))))

$(BUILD)/host/libmotebox.%: $(BUILD)/host/r64/libmotebox.%
	cp $< $@

# --- host benchmark -------------------------------------------------------------------
# Every radix's library exports the same API names, so each radix gets its own bench
# binaries; the reference rows (libsodium, OpenSSL) come from the r64 run. The parts
# are merged into one result, rows op by op (the same rows as one run of all radixes).
HB := $(BUILD)/bench/host
HB_CFLAGS := -std=c99 -O2 $(MB_WARN) -Wno-missing-prototypes -Iinclude
HB_LIBS_host_bench      := -lsodium
HB_LIBS_host_bench_p256 := -lcrypto
# $(1) = bench program (host_bench | host_bench_p256), $(2) = radix
define host_bench
$(HB)/$(1)_r$(2): bench/$(1).c bench/host_bench.h include/motebox.h $(BUILD)/host/r$(2)/libmotebox.a
	@mkdir -p $$(@D)
	$(HOST_CC) $(HB_CFLAGS) -DMB_RADIX=$(2) -o $$@ $$< $(BUILD)/host/r$(2)/libmotebox.a $(HB_LIBS_$(1))
endef
$(foreach p,host_bench host_bench_p256,$(foreach r,$(RADIXES),$(eval $(call host_bench,$(p),$(r)))))
HB_CC_X25519 = $$($(HOST_CC) --version | head -n 1), $(filter -O% -m%,$(HOST_CFLAGS)) -fPIC
HB_CC_P256   = $(HOST_CC) $(HOST_CFLAGS) $(LIB_CFLAGS)

.PHONY: bench-host
bench-host: $(foreach p,host_bench host_bench_p256,$(foreach r,$(RADIXES),$(HB)/$(p)_r$(r)))
	@mkdir -p bench/results
	$(HB)/host_bench_r16 "$(HB_CC_X25519)" > $(HB)/host-x25519-r16.json
	$(HB)/host_bench_r25 "$(HB_CC_X25519)" > $(HB)/host-x25519-r25.json
	$(HB)/host_bench_r32 "$(HB_CC_X25519)" > $(HB)/host-x25519-r32.json
	$(HB)/host_bench_r64 "$(HB_CC_X25519)" ref > $(HB)/host-x25519-r64.json
	$(HB)/host_bench_p256_r16 "$(HB_CC_P256)" > $(HB)/host-p256-r16.json
	$(HB)/host_bench_p256_r25 "$(HB_CC_P256)" > $(HB)/host-p256-r25.json
	$(HB)/host_bench_p256_r32 "$(HB_CC_P256)" > $(HB)/host-p256-r32.json
	$(HB)/host_bench_p256_r64 "$(HB_CC_P256)" ref > $(HB)/host-p256-r64.json
	$(PY) -m motebox_tools.bench.merge bench/results/host.json $(foreach p,x25519 p256,$(foreach r,$(RADIXES),$(HB)/host-$(p)-r$(r).json))
BENCH_STEPS += bench-host
