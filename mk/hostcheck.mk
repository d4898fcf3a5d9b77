# SPDX-License-Identifier: MIT
# Host-side checks of the field/X25519 layer and everything above it (FIELD's fragment):
#   - per radix, build/host/rNN/libfe25519_test.so: the internal field API exposed to
#     tests/test_fe25519.py (test-only shim, tests/host/fe25519_shim.c)
#   - per radix, an ASan+UBSan build of the library and tests/host/sanitize_main.c
#   - per radix, tests/ct/ (valgrind memcheck constant-time harness) linked to the normal
#     library, plus one deliberately leaky binary that must fail (the negative control)
#   - compile-check: every src/ file with gcc, clang, arm-none-eabi-gcc (Cortex-M4, r32)
#     and clang --target=msp430 (r16), all -Werror
#   - bench-host: bench/host_bench.c beside libsodium -> bench/results/host.json

APT_PACKAGES += valgrind libsodium-dev gcc-arm-none-eabi libnewlib-arm-none-eabi clang

HC_CC     ?= $(HOST_CC)
HC_CFLAGS := -std=c99 -O2 -g $(HOST_WARN) -Iinclude -Isrc

# --- field test shim ----------------------------------------------------------------
define hc_shim
$(BUILD)/host/r$(1)/libfe25519_test.so: tests/host/fe25519_shim.c $(BUILD)/host/r$(1)/libmotebox.a $(LIB_HEADERS)
	$$(HC_CC) $$(HC_CFLAGS) -fPIC -shared -DMB_RADIX=$(1) -o $$@ $$< $(BUILD)/host/r$(1)/libmotebox.a
endef
$(foreach r,$(RADIXES),$(eval $(call hc_shim,$(r))))
HC_SHIMS := $(foreach r,$(RADIXES),$(BUILD)/host/r$(r)/libfe25519_test.so)

.PHONY: hostcheck
hostcheck: $(HC_SHIMS)
TEST_DEPS += hostcheck

# --- ASan + UBSan build of the whole library, per radix ------------------------------
HC_SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
define hc_san
$(BUILD)/hostcheck/san/r$(1)/obj/%.o: src/%.c $(LIB_HEADERS)
	@mkdir -p $$(dir $$@)
	$$(HC_CC) $$(HC_CFLAGS) $(HC_SAN_FLAGS) -DMB_RADIX=$(1) -c $$< -o $$@
HC_SAN_OBJ_r$(1) := $$(patsubst src/%.c,$(BUILD)/hostcheck/san/r$(1)/obj/%.o,$$(call lib_src,$(1)))
$(BUILD)/hostcheck/san/r$(1)/sanitize_main: tests/host/sanitize_main.c $$(HC_SAN_OBJ_r$(1))
	$$(HC_CC) $$(HC_CFLAGS) $(HC_SAN_FLAGS) -DMB_RADIX=$(1) -o $$@ $$^
endef
$(foreach r,$(RADIXES),$(eval $(call hc_san,$(r))))
HC_SAN_BINS := $(foreach r,$(RADIXES),$(BUILD)/hostcheck/san/r$(r)/sanitize_main)
hostcheck: $(HC_SAN_BINS)

# --- valgrind constant-time harness, per radix, against the normal library ----------
# Case files: every tests/ct/*.c using CT_CASE (other areas may keep their own
# stand-alone harnesses in tests/ct/); ct_leaky.c only goes into the negative control.
HC_CT_CASES := $(filter-out tests/ct/ct_leaky.c tests/ct/ct_check.c,$(shell grep -l '^CT_CASE' tests/ct/*.c 2>/dev/null))
define hc_ct
$(BUILD)/hostcheck/ct/r$(1)/ct_check: tests/ct/ct_check.c $(HC_CT_CASES) tests/ct/ct.h $(BUILD)/host/r$(1)/libmotebox.a
	@mkdir -p $$(dir $$@)
	$$(HC_CC) $$(HC_CFLAGS) -Wno-missing-prototypes -DMB_RADIX=$(1) -o $$@ tests/ct/ct_check.c $(HC_CT_CASES) $(BUILD)/host/r$(1)/libmotebox.a
endef
$(foreach r,$(RADIXES),$(eval $(call hc_ct,$(r))))
# The same harness against a clang build of the library (the compiler decides where
# branches appear; -gdwarf-4 because valgrind 3.19 cannot read clang 14's DWARF 5).
HC_CLANG_CFLAGS := -std=c99 -O2 -gdwarf-4 -fPIC $(HOST_WARN) -Iinclude -Isrc
define hc_ct_clang
$(BUILD)/hostcheck/clang/r$(1)/obj/%.o: src/%.c $(LIB_HEADERS)
	@mkdir -p $$(dir $$@)
	clang $(HC_CLANG_CFLAGS) -DMB_RADIX=$(1) -c $$< -o $$@
HC_CLANG_OBJ_r$(1) := $$(patsubst src/%.c,$(BUILD)/hostcheck/clang/r$(1)/obj/%.o,$$(call lib_src,$(1)))
$(BUILD)/hostcheck/clang/r$(1)/ct_check: tests/ct/ct_check.c $(HC_CT_CASES) tests/ct/ct.h $$(HC_CLANG_OBJ_r$(1))
	clang $(HC_CLANG_CFLAGS) -Wno-missing-prototypes -DMB_RADIX=$(1) -o $$@ tests/ct/ct_check.c $(HC_CT_CASES) $$(HC_CLANG_OBJ_r$(1))
endef
$(foreach r,$(RADIXES),$(eval $(call hc_ct_clang,$(r))))
hostcheck: $(foreach r,$(RADIXES),$(BUILD)/hostcheck/clang/r$(r)/ct_check)

$(BUILD)/hostcheck/ct/ct_leaky: tests/ct/ct_check.c tests/ct/ct_leaky.c tests/ct/ct.h
	@mkdir -p $(dir $@)
	$(HC_CC) $(HC_CFLAGS) -Wno-missing-prototypes -o $@ tests/ct/ct_check.c tests/ct/ct_leaky.c
HC_CT_BINS := $(foreach r,$(RADIXES),$(BUILD)/hostcheck/ct/r$(r)/ct_check) $(BUILD)/hostcheck/ct/ct_leaky
hostcheck: $(HC_CT_BINS)

# --- compile-check: every src/ file, every compiler the project supports --------------
# gcc and clang build each radix's files; the Cortex-M4 cross build uses r32 and the
# MSP430 build r16 (the r64 backend needs unsigned __int128, a 64-bit host only).
CCK := $(BUILD)/compile-check
CCK_SRC := $(sort $(wildcard src/*/*.c))
cck_src = $(filter-out %_r16.c %_r32.c %_r64.c,$(CCK_SRC)) $(filter %_r$(1).c,$(CCK_SRC))
CCK_COMMON := -std=c99 $(HOST_WARN) -Iinclude -Isrc
define cc_check
CCK_OBJ_$(1) := $$(patsubst src/%.c,$(CCK)/$(1)/%.o,$$(call cck_src,$(3)))
$(CCK)/$(1)/%.o: src/%.c $(LIB_HEADERS)
	@mkdir -p $$(dir $$@)
	$(2) $(CCK_COMMON) -DMB_RADIX=$(3) -c $$< -o $$@
compile-check: $$(CCK_OBJ_$(1))
endef
.PHONY: compile-check
$(eval $(call cc_check,gcc-r16,gcc -O2,16))
$(eval $(call cc_check,gcc-r32,gcc -O2,32))
$(eval $(call cc_check,gcc-r64,gcc -O2,64))
$(eval $(call cc_check,clang-r16,clang -O2,16))
$(eval $(call cc_check,clang-r32,clang -O2,32))
$(eval $(call cc_check,clang-r64,clang -O2,64))
$(eval $(call cc_check,m4-r32,arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -O2 -ffreestanding,32))
$(eval $(call cc_check,msp430-r16,clang --target=msp430 -O2 -ffreestanding,16))
TEST_DEPS += compile-check

# --- host benchmark: every backend beside libsodium, one binary, one run ---------------
# Each radix's archive is copied with its global symbols prefixed (r16_mb_x25519, ...) so
# all three link together with -lsodium.
HB := $(BUILD)/bench/host
define hc_bench_lib
$(HB)/libmb_r$(1).a: $(BUILD)/host/r$(1)/libmotebox.a
	@mkdir -p $$(dir $$@)
	nm -g --defined-only $$< | awk 'NF == 3 { print $$$$3 " r$(1)_" $$$$3 }' | sort -u > $$@.syms
	objcopy --redefine-syms=$$@.syms $$< $$@
endef
$(foreach r,$(RADIXES),$(eval $(call hc_bench_lib,$(r))))
$(HB)/host_bench: bench/host_bench.c bench/host_bench.h $(foreach r,$(RADIXES),$(HB)/libmb_r$(r).a) include/motebox.h
	$(HC_CC) -std=c99 -O2 $(HOST_WARN) -Wno-missing-prototypes -Iinclude -o $@ $< -Wl,--whole-archive $(filter %.a,$^) -Wl,--no-whole-archive -lsodium
# One result for the host: X25519/box beside libsodium, then P-256 beside OpenSSL
# ($(HB)/host_bench_p256, mk/p256.mk), both run in this step.
.PHONY: bench-host
bench-host: $(HB)/host_bench $(HB)/host_bench_p256
	@mkdir -p bench/results
	$(HB)/host_bench "$$($(HOST_CC) --version | head -n 1), $(filter -O% -m%,$(HOST_CFLAGS)) -fPIC" > $(HB)/host-x25519.json
	$(HB)/host_bench_p256 "$(HOST_CC) $(HOST_CFLAGS)" > $(HB)/host-p256.json
	$(PY) bench/merge_results.py bench/results/host.json $(HB)/host-x25519.json $(HB)/host-p256.json
BENCH_STEPS += bench-host
