# SPDX-License-Identifier: MIT
# NIST P-256 (P256's fragment):
#   - per radix, build/host/rNN/libfep256_test.so: the internal GF(p256) API exposed to
#     tests/test_fep256.py (test-only shim tests/p256/fep256_shim.c)
#   - per radix, build/host/rNN/ct_p256: valgrind constant-time harness tests/ct/ct_p256.c
#     (run by tests/test_ct_p256.py), and (r64 only) ct_p256_leaky: the same harness with
#     a deliberately secret-dependent branch (negative control, must be flagged).
#     tests/ct/ct_p256_cases.c adds P-256 cases to FIELD's shared harness as well.
#   - per radix, build/host/rNN/asan_p256: ASan+UBSan build of the library's P-256 code
#     with the driver tests/p256/sanitize_p256.c (run by tests/test_p256_sanitizers.py)
#   - bench/host_bench_p256.c (all radixes, one binary) beside OpenSSL: its rows go into
#     bench/results/host.json with the X25519 ones (bench-host, mk/hostcheck.mk)

APT_PACKAGES += valgrind libssl-dev

P256_CFLAGS := -std=c99 -O2 -g $(HOST_WARN) -Iinclude -Isrc
P256_SRC    = $(filter %/fep256.c %/p256_coz.c %/p256_ladder.c %/p256_point.c %/p256_ecdh.c %/util.c,$(LIB_COMMON_SRC)) src/field/fep256_r$(1).c

define p256_radix
$(BUILD)/host/r$(1)/libfep256_test.so: tests/p256/fep256_shim.c $(BUILD)/host/r$(1)/libmotebox.a $(LIB_HEADERS)
	$$(HOST_CC) $(P256_CFLAGS) -fPIC -shared -DMB_RADIX=$(1) -o $$@ $$< $(BUILD)/host/r$(1)/libmotebox.a
$(BUILD)/host/r$(1)/ct_p256: tests/ct/ct_p256.c $(BUILD)/host/r$(1)/libmotebox.a $(LIB_HEADERS)
	$$(HOST_CC) $(P256_CFLAGS) -DMB_RADIX=$(1) -o $$@ $$< $(BUILD)/host/r$(1)/libmotebox.a
$(BUILD)/host/r$(1)/ct_p256_leaky: tests/ct/ct_p256.c $(BUILD)/host/r$(1)/libmotebox.a $(LIB_HEADERS)
	$$(HOST_CC) $(P256_CFLAGS) -DMB_RADIX=$(1) -DCT_LEAKY_CONTROL -o $$@ $$< $(BUILD)/host/r$(1)/libmotebox.a
$(BUILD)/host/r$(1)/asan_p256: tests/p256/sanitize_p256.c $(call P256_SRC,$(1)) $(LIB_HEADERS)
	$$(HOST_CC) $(P256_CFLAGS) -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
	    -fno-sanitize-recover=all -DMB_RADIX=$(1) -o $$@ $$< $(call P256_SRC,$(1))
endef
$(foreach r,$(RADIXES),$(eval $(call p256_radix,$(r))))

P256_TEST_BINS := $(foreach r,$(RADIXES),$(addprefix $(BUILD)/host/r$(r)/,libfep256_test.so ct_p256 asan_p256)) \
                  $(BUILD)/host/r64/ct_p256_leaky

.PHONY: p256-check
p256-check: $(P256_TEST_BINS)
TEST_DEPS += p256-check

# --- host benchmark: the symbol-prefixed copies of each radix's library (r16_..., made
# by mk/hostcheck.mk in $(HB)) link into one binary beside -lcrypto, one process.
$(HB)/host_bench_p256: bench/host_bench_p256.c bench/host_bench.h $(foreach r,$(RADIXES),$(HB)/libmb_r$(r).a) include/motebox.h
	$(HOST_CC) -std=c99 -O2 $(HOST_WARN) -Wno-missing-prototypes -Iinclude -o $@ $< $(filter %.a,$^) -lcrypto
.PHONY: bench-p256
bench-p256: bench-host
