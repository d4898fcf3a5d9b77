# SPDX-License-Identifier: MIT
# MSP430FR5969 builds (clang --target=msp430, ld.lld; run on SIM430's simulator):
#   build/msp430/<opt>/libmotebox.a        the library, radix 2^16 (opt = O2 or Os)
#   build/msp430/rt/<mpy>/libfr5969.a      board runtime: crt0, hal, __mspabi_* helpers
#   build/msp430/<mpy>/<fw>.elf            firmware at -O2, mpy = mpy32 | mpy16:
#       suite.elf (tests/target, small profile, without P-256), suite-p256.elf (its
#       P-256 suites), ct.elf (constant-time traces),
#       bench.elf (bench/target), rt_check.elf (runtime check)
#   (the demo node, demo/node.c, is compiled per run by python/motebox/demo_msp430.py)
#   build/msp430/<mpy>-Os/<fw>.elf          the same at -Os (sizes)
# The library objects do not depend on the multiplier; only the runtime does.

APT_PACKAGES += clang lld llvm msp430mcu mspdebug

MSP430_CC    := clang --target=msp430
MSP430_LD    := ld.lld -m msp430elf
MSP430_AR    := llvm-ar
MSP430_PLAT  := platforms/msp430fr5969
MSP430_DIR   := $(BUILD)/msp430
MSP430_SIM   := $(BUILD)/sim/msp430sim
MSP430_WARN  := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
MSP430_CFLAGS := -std=c99 -ffreestanding -ffunction-sections -fdata-sections -DMB_RADIX=16 \
                 $(MSP430_WARN) -Iinclude -Isrc -Iplatforms -I$(MSP430_PLAT) -Itests/target
MSP430_LDFLAGS := --gc-sections

MSP430_LIB_SRC   := $(filter-out %_r32.c %_r64.c,$(sort $(wildcard src/*/*.c)))
MSP430_HEADERS    = $(wildcard include/*.h src/*/*.h platforms/*.h $(MSP430_PLAT)/*.h tests/target/*.h)
MSP430_HAVE_P256 := $(if $(wildcard src/proto/p256*.c),1,0)
MSP430_GEN       := $(MSP430_DIR)/gen
MSP430_RT_COMMON := crt0 hal hal_stack rt_shift rt_mem rt_div

# ---- board runtime, one per multiplier ------------------------------------------------
# $(1) = mpy32 | mpy16
define msp430_rt
MSP430_RTOBJ_$(1) := $$(patsubst %,$(MSP430_DIR)/rt/$(1)/%.o,$(MSP430_RT_COMMON) rt_$(1))
$(MSP430_DIR)/rt/$(1)/%.o: $(MSP430_PLAT)/%.S $(MSP430_PLAT)/board.h
	@mkdir -p $$(dir $$@)
	$(MSP430_CC) $(MSP430_CFLAGS) -c $$< -o $$@
$(MSP430_DIR)/rt/$(1)/%.o: $(MSP430_PLAT)/%.c $$(MSP430_HEADERS)
	@mkdir -p $$(dir $$@)
	$(MSP430_CC) $(MSP430_CFLAGS) -O2 -c $$< -o $$@
$(MSP430_DIR)/rt/$(1)/libfr5969.a: $$(MSP430_RTOBJ_$(1))
	@rm -f $$@; $(MSP430_AR) rcs $$@ $$^
endef
$(eval $(call msp430_rt,mpy32))
$(eval $(call msp430_rt,mpy16))

# ---- library and firmware objects, one set per optimisation level ----------------------
# The whole small-profile suite with P-256 needs ~52 KB at -O2, more than the 48 KB of
# FRAM below the vectors (16-bit code cannot reach the FRAM above 0x10000): suite.elf
# runs it without P-256, suite-p256.elf (check/suite_p256.c) only the P-256 suites.
# $(1) = O2 | Os
define msp430_opt
MSP430_LIBOBJ_$(1) := $$(patsubst %.c,$(MSP430_DIR)/$(1)/obj/%.o,$(MSP430_LIB_SRC))
MSP430_CF_$(1) := $(MSP430_CFLAGS) -$(1) -DMB_HAVE_P256=$(MSP430_HAVE_P256)
$(MSP430_DIR)/$(1)/obj/%.o: %.c $$(MSP430_HEADERS)
	@mkdir -p $$(dir $$@)
	$(MSP430_CC) $$(MSP430_CF_$(1)) $$(MSP430_XFLAGS) -c $$< -o $$@
# 2 KB of RAM: the bench's box messages are 64 bytes here (bench.c's default is 1 KB).
$(MSP430_DIR)/$(1)/obj/bench/target/bench.o: MSP430_XFLAGS := -DBENCH_BOX_BYTES=64
$(MSP430_DIR)/$(1)/libmotebox.a: $$(MSP430_LIBOBJ_$(1))
	@rm -f $$@; $(MSP430_AR) rcs $$@ $$^
$(MSP430_DIR)/$(1)/obj/suite.o: tests/target/suite.c $(MSP430_GEN)/small/suite_vectors.h $$(MSP430_HEADERS) mk/msp430.mk
	@mkdir -p $$(dir $$@)
	$(MSP430_CC) $$(MSP430_CF_$(1)) -UMB_HAVE_P256 -DMB_HAVE_P256=0 -I$(MSP430_GEN)/small -c $$< -o $$@
$(MSP430_DIR)/$(1)/obj/suite_p256.o: $(MSP430_PLAT)/check/suite_p256.c tests/target/suite.c $(MSP430_GEN)/small/suite_vectors.h $$(MSP430_HEADERS) mk/msp430.mk
	@mkdir -p $$(dir $$@)
	$(MSP430_CC) $$(MSP430_CF_$(1)) -UMB_HAVE_P256 -I$(MSP430_GEN)/small -c $$< -o $$@
$(MSP430_DIR)/$(1)/obj/rt_check.o: $(MSP430_PLAT)/check/rt_check.c $(MSP430_GEN)/rt_cases.h
	@mkdir -p $$(dir $$@)
	$(MSP430_CC) $$(MSP430_CF_$(1)) -I$(MSP430_GEN) -c $$< -o $$@
endef
$(eval $(call msp430_opt,O2))
$(eval $(call msp430_opt,Os))

# ---- firmware ----------------------------------------------------------------------
MSP430_FW_OBJ_suite    = obj/suite.o obj/tests/target/tprint.o
MSP430_FW_OBJ_suite-p256 = obj/suite_p256.o obj/tests/target/tprint.o
MSP430_FW_OBJ_ct       = obj/tests/target/ct.o obj/tests/target/tprint.o
MSP430_FW_OBJ_bench    = obj/bench/target/bench.o obj/tests/target/tprint.o
MSP430_FW_OBJ_rt_check = obj/rt_check.o
# (demo/node.c is compiled per run by motebox.demo_msp430: its inputs are a header.)
MSP430_FWS := suite rt_check $(if $(filter 1,$(MSP430_HAVE_P256)),suite-p256) \
              $(if $(wildcard tests/target/ct.c),ct) \
              $(if $(wildcard bench/target/bench.c),bench)
# Linker script per firmware: fr5969.ld (data in SRAM), except the constant-time trace
# and bench firmware, whose static buffers plus the stack of P-256 exceed the 2 KB of
# SRAM: their .data/.bss go to FRAM (fr5969_framdata.ld; same access time at 8 MHz, so
# the cycle counts do not change), the whole SRAM is stack.
MSP430_LDS_ct    := $(MSP430_PLAT)/fr5969_framdata.ld
MSP430_LDS_bench := $(MSP430_PLAT)/fr5969_framdata.ld
msp430_lds = $(or $(MSP430_LDS_$(1)),$(MSP430_PLAT)/fr5969.ld)
# $(1) = output dir name, $(2) = mpy32 | mpy16, $(3) = O2 | Os, $(4) = firmware name
define msp430_fw
$(MSP430_DIR)/$(1)/$(4).elf: $(addprefix $(MSP430_DIR)/$(3)/,$(MSP430_FW_OBJ_$(4))) $(MSP430_DIR)/$(3)/libmotebox.a $(MSP430_DIR)/rt/$(2)/libfr5969.a $(call msp430_lds,$(4))
	@mkdir -p $$(dir $$@)
	$(MSP430_LD) -T $(call msp430_lds,$(4)) $(MSP430_LDFLAGS) -Map $$(@:.elf=.map) -o $$@ $$(filter %.o,$$^) $(MSP430_DIR)/$(3)/libmotebox.a $(MSP430_DIR)/rt/$(2)/libfr5969.a
MSP430_ALL += $(MSP430_DIR)/$(1)/$(4).elf
endef
$(foreach f,$(MSP430_FWS),$(eval $(call msp430_fw,mpy32,mpy32,O2,$(f))))
$(foreach f,$(MSP430_FWS),$(eval $(call msp430_fw,mpy16,mpy16,O2,$(f))))
$(foreach f,$(MSP430_FWS),$(eval $(call msp430_fw,mpy32-Os,mpy32,Os,$(f))))
$(foreach f,$(MSP430_FWS),$(eval $(call msp430_fw,mpy16-Os,mpy16,Os,$(f))))

.PRECIOUS: $(MSP430_GEN)/%/suite_vectors.h
.SECONDARY: $(foreach o,O2 Os,$(foreach f,$(MSP430_FWS),$(addprefix $(MSP430_DIR)/$(o)/,$(MSP430_FW_OBJ_$(f)))))
$(MSP430_GEN)/%/suite_vectors.h: tests/target/gen_vectors.py tests/vectors.py
	@mkdir -p $(dir $@)
	$(PY) tests/target/gen_vectors.py --profile $* -o $@
$(MSP430_GEN)/rt_cases.h: $(MSP430_PLAT)/check/gen_rt_cases.py
	@mkdir -p $(dir $@)
	$(PY) $< -o $@

.PHONY: msp430 msp430-calls bench-msp430 demo-msp430
msp430: $(MSP430_ALL)
TEST_DEPS   += msp430
BENCH_STEPS += bench-msp430
DEMO_DEPS_msp430 += msp430 $(BUILD)/sim/msp430sim

# Which runtime helpers the library calls, from the disassembly (see the README's
# constant-time rules: variable shifts only with public counts).
msp430-calls: $(MSP430_DIR)/O2/libmotebox.a
	@llvm-objdump -dr $< | awk '/^[0-9a-f]+ <.*>:/{f=$$2} /R_MSP430.*(__mspabi|__ashl|__ashr|__lshr|memcpy|memset|memmove)/{print f, $$NF}' | sort | uniq -c

bench-msp430: msp430 $(MSP430_SIM)
	$(PY) -m motebox.bench_msp430 --build $(MSP430_DIR) --sim $(MSP430_SIM)

demo-msp430: msp430 $(MSP430_SIM)
	$(PY) -m motebox.demo --node msp430
