# SPDX-License-Identifier: MIT
# Host-side checks of the library, per radix NN (16, 32, 64):
#   hostcheck:
#     build/host/rNN/libfe25519_test.so   tests/host/fe25519_shim.c: the internal field API
#                                         for tests/test_fe25519.py
#     build/hostcheck/san/rNN/libmotebox.a   ASan+UBSan build of the library, and with it
#     build/hostcheck/san/rNN/sanitize_main  tests/host/sanitize_main.c (test_sanitizers.py)
#     build/hostcheck/ct/rNN/ct_check     valgrind constant-time harness (tests/ct/ cases)
#     build/hostcheck/clang/rNN/ct_check  the same against a clang build of the library
#     build/hostcheck/ct/ct_leaky         its negative control (valgrind must flag it)
#   p256-check:
#     build/host/rNN/libfep256_test.so    tests/p256/fep256_shim.c for tests/test_fep256.py
#     build/host/rNN/asan_p256            tests/p256/sanitize_p256.c on the ASan+UBSan build
#     build/host/rNN/ct_p256              P-256 constant-time harness (test_ct_p256.py),
#     build/host/r64/ct_p256_leaky        and its negative control
#   compile-check: every library source with gcc, clang, arm-none-eabi-gcc and
#     clang --target=msp430, all -Werror.
# A test shim is any tests/*/<name>_shim.c, built as build/host/rNN/lib<name>_test.so.

APT_PACKAGES += valgrind libsodium-dev libssl-dev gcc-arm-none-eabi libnewlib-arm-none-eabi clang

CHK_CC     ?= $(HOST_CC)
CHK_CFLAGS := -O2 -g $(LIB_CFLAGS)
CHK_SAN    := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# The compiler decides where branches appear, so the harness also runs on a clang build
# (-gdwarf-4: valgrind 3.19 cannot read clang 14's DWARF 5).
CHK_CLANG  := clang -O2 -gdwarf-4 -fPIC
CHK_SHIMS  := $(sort $(wildcard tests/*/*_shim.c))
# Case files of the shared harness: every tests/ct/*.c using CT_CASE (stand-alone
# harnesses such as ct_p256.c have their own main); ct_leaky.c only in the control.
CHK_CT_CASES := $(filter-out tests/ct/ct_leaky.c tests/ct/ct_check.c,$(shell grep -l '^CT_CASE' tests/ct/*.c 2>/dev/null))
CHK_CT_SRC   := tests/ct/ct_check.c $(CHK_CT_CASES)

# $(call chk_prog,OUTPUT,SOURCES,ARCHIVE,COMPILER AND FLAGS): a test program or shim.
define chk_prog
$(1): $(2) $(3) $(LIB_HEADERS) $(wildcard tests/ct/*.h)
	@mkdir -p $$(@D)
	$(4) -o $$@ $(2) $(3)
CHK_ALL += $(1)

endef

# $(1) = radix. HOST_rNN, SAN_rNN, CLANG_rNN: the library builds the programs link to.
define check_radix
HOST_r$(1)  := $(BUILD)/host/r$(1)/libmotebox.a
SAN_r$(1)   := $(BUILD)/hostcheck/san/r$(1)/libmotebox.a
CLANG_r$(1) := $(BUILD)/hostcheck/clang/r$(1)/libmotebox.a
CF_r$(1)    := $(CHK_CFLAGS) -DMB_RADIX=$(1)
$(call lib_archive,$(BUILD)/hostcheck/san/r$(1),$(CHK_CC) -O2 -g $(CHK_SAN),$(1))
$(call lib_archive,$(BUILD)/hostcheck/clang/r$(1),$(CHK_CLANG),$(1))
endef
$(foreach r,$(RADIXES),$(eval $(call check_radix,$(r))))

# $(1) = radix
define check_radix_progs
$(foreach s,$(CHK_SHIMS),$(call chk_prog,$(BUILD)/host/r$(1)/lib$(notdir $(s:_shim.c=))_test.so,$(s),$(HOST_r$(1)),$(CHK_CC) $(CF_r$(1)) -fPIC -shared))
$(call chk_prog,$(BUILD)/hostcheck/san/r$(1)/sanitize_main,tests/host/sanitize_main.c,$(SAN_r$(1)),$(CHK_CC) $(CF_r$(1)) $(CHK_SAN))
$(call chk_prog,$(BUILD)/host/r$(1)/asan_p256,tests/p256/sanitize_p256.c,$(SAN_r$(1)),$(CHK_CC) $(CF_r$(1)) $(CHK_SAN))
$(call chk_prog,$(BUILD)/hostcheck/ct/r$(1)/ct_check,$(CHK_CT_SRC),$(HOST_r$(1)),$(CHK_CC) $(CF_r$(1)) -Wno-missing-prototypes)
$(call chk_prog,$(BUILD)/hostcheck/clang/r$(1)/ct_check,$(CHK_CT_SRC),$(CLANG_r$(1)),$(CHK_CLANG) $(LIB_CFLAGS) -DMB_RADIX=$(1) -Wno-missing-prototypes)
$(call chk_prog,$(BUILD)/host/r$(1)/ct_p256,tests/ct/ct_p256.c,$(HOST_r$(1)),$(CHK_CC) $(CF_r$(1)))
endef
$(foreach r,$(RADIXES),$(eval $(call check_radix_progs,$(r))))

# The negative controls.
$(eval $(call chk_prog,$(BUILD)/hostcheck/ct/ct_leaky,tests/ct/ct_check.c tests/ct/ct_leaky.c,,$(CHK_CC) $(CHK_CFLAGS) -Wno-missing-prototypes))
$(eval $(call chk_prog,$(BUILD)/host/r64/ct_p256_leaky,tests/ct/ct_p256.c,$(HOST_r64),$(CHK_CC) $(CF_r64) -DCT_LEAKY_CONTROL))

.PHONY: hostcheck p256-check compile-check
hostcheck: $(filter-out %p256 %p256_leaky %fep256_test.so,$(CHK_ALL))
p256-check: $(filter %p256 %p256_leaky %fep256_test.so,$(CHK_ALL))
TEST_DEPS += hostcheck p256-check compile-check

# --- compile-check: every library source, every compiler the project supports --------
# gcc and clang build each radix's files; the Cortex-M4 cross build uses r32 (assembly
# variants) and r25 (portable variants), the MSP430 build r16 (the r64 backend needs unsigned __int128, a 64-bit host only).
CCK := $(BUILD)/compile-check
# $(1) = name, $(2) = compiler and flags, $(3) = radix
define cc_check
$(call lib_rules,$(CCK)/$(1),$(2),$(3))
compile-check: $(call lib_obj,$(CCK)/$(1),$(3))
endef
$(foreach r,$(RADIXES),$(eval $(call cc_check,gcc-r$(r),gcc -O2,$(r))))
$(foreach r,$(RADIXES),$(eval $(call cc_check,clang-r$(r),clang -O2,$(r))))
# MB_PORTABLE (helper G, issue #16): the portable files, which would give way to the chip's
# assembly here (src/util/backend.h); tests/test_compile_all.py compiles the assembly builds.
$(eval $(call cc_check,m4-r32,arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -O2 -ffreestanding -DMB_PORTABLE,32))
# The Cortex-M4 portable builds' radix 25, both code paths of fe25519_r25.c (-O2, -Os).
$(eval $(call cc_check,m4-r25,arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -O2 -ffreestanding,25))
$(eval $(call cc_check,m4-r25-Os,arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -Os -ffreestanding,25))
$(eval $(call cc_check,clang-r25-Os,clang -Os,25))
$(eval $(call cc_check,msp430-r16,clang --target=msp430 -O2 -ffreestanding -DMB_PORTABLE,16))

# --- MB_NO_FIXED_BASE (issue #12): the library without the fixed-base tables (key
# generation through the ladders). build/host/nofb/libmotebox.so (radix 64) for
# tests/test_p256_base.py, and every compiler's compile check of that configuration.
NOFB := $(BUILD)/host/nofb
$(eval $(call lib_rules,$(NOFB)/obj,$(CHK_CC) -O2 -fPIC -DMB_NO_FIXED_BASE,64))
$(NOFB)/libmotebox.so: $(call lib_obj,$(NOFB)/obj,64)
	$(CHK_CC) -shared -o $@ $^
hostcheck: $(NOFB)/libmotebox.so
$(eval $(call cc_check,gcc-r32-nofb,gcc -O2 -DMB_NO_FIXED_BASE,32))
$(eval $(call cc_check,gcc-r64-nofb,gcc -O2 -DMB_NO_FIXED_BASE,64))
# The X25519 comb's 16-bit table shape (4 teeth, 4 blocks: the MSP430 default,
# src/curve/x25519_base.h) on the host's radix-16 backend, for tests/test_x25519_base.py.
XB4 := $(BUILD)/host/x25519-b4
$(eval $(call lib_rules,$(XB4)/obj,$(CHK_CC) -O2 -fPIC -DMB_X25519_BASE_TEETH=4 -DMB_X25519_BASE_BLOCKS=4,16))
$(XB4)/libmotebox.so: $(call lib_obj,$(XB4)/obj,16)
	$(CHK_CC) -shared -o $@ $^
hostcheck: $(XB4)/libmotebox.so
$(eval $(call cc_check,clang-r16-nofb,clang -O2 -DMB_NO_FIXED_BASE,16))
$(eval $(call cc_check,m4-r32-nofb,arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -O2 -ffreestanding -DMB_PORTABLE -DMB_NO_FIXED_BASE,32))
$(eval $(call cc_check,msp430-r16-nofb,clang --target=msp430 -O2 -ffreestanding -DMB_PORTABLE -DMB_NO_FIXED_BASE,16))
