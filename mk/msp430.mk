# SPDX-License-Identifier: MIT
# MSP430FR5969 builds (board fr5969: clang --target=msp430, ld.lld; run on the motebox
# MSP430X simulator), radix 2^16:
#   build/msp430/<opt>/libmotebox.a        the portable library (opt = O2 | Os); it does not
#                                          depend on the multiplier, only the runtime does
#   build/msp430/rt/<mpy>/libfr5969.a      board runtime: crt0, hal, __mspabi_* helpers
#   build/msp430/<mpy>/<fw>.elf            firmware at -O2, mpy = mpy32 | mpy16:
#       suite.elf (tests/target, small profile, without P-256 and the stream),
#       suite-p256.elf (its P-256 suites), suite-stream.elf (its stream suite),
#       ct.elf and ct-p256.elf (constant-time traces),
#       bench.elf and bench-p256.elf (bench/target), rt_check.elf (runtime check),
#       fault.elf (fault-injection target, tests/target/fault.c, docs/FAULTS.md),
#       fault-p256.elf (the P-256 ECDH one, tests/target/fault_p256.c; data in FRAM), and
#       for mpy32 and mpy32-asm fault-p256-unhardened.elf (MB_FAULT_HARDENED=0)
#   build/msp430/<mpy>-Os/<fw>.elf          the same at -Os (sizes)
# With the chip's assembly (MSP430_ARCH names arch/<chip>/, mk/arch.mk), whose objects may
# differ per multiplier (ARCH_SOURCES_mpy32, ARCH_SOURCES_mpy16), one library per
# multiplier and optimisation level, beside the firmware linked to it:
#   build/msp430/<mpy>-asm/libmotebox.a, <fw>.elf       -O2
#   build/msp430/<mpy>-Os-asm/libmotebox.a, <fw>.elf    -Os
#   (the demo node, demo/node.c, is compiled per run by python/motebox_tools/boards/msp430.py)

APT_PACKAGES += clang lld llvm msp430mcu mspdebug

# The board's chip (its arch/<chip>/ folder; empty: portable C only).
MSP430_ARCH ?= msp430x

MSP430_CC    := clang --target=msp430
MSP430_LD    := ld.lld -m msp430elf
MSP430_AR    := llvm-ar
MSP430_PLAT  := platforms/msp430fr5969
MSP430_DIR   := $(BUILD)/msp430
MSP430_SIM   := $(BUILD)/sim/msp430sim
MSP430_CFLAGS := -ffreestanding -ffunction-sections -fdata-sections -DMB_RADIX=16 $(LIB_CFLAGS)
# Firmware and board code (not the library) also see the board interface.
MSP430_FW_INC := -Iplatforms -I$(MSP430_PLAT)
MSP430_LDFLAGS := --gc-sections

MSP430_LIB_SRC   := $(call lib_src,16)
MSP430_FW_HEADERS = $(LIB_HEADERS) $(wildcard platforms/*.h platforms/common/*.h $(MSP430_PLAT)/*.h tests/target/*.h bench/target/*.h)
MSP430_HAVE_P256 := $(if $(wildcard src/proto/p256*.c),1,0)
MSP430_GEN       := $(MSP430_DIR)/gen
MSP430_RT_COMMON := crt0 hal hal_stack rt_shift rt_mem rt_div
MSP430_MPYS      := mpy32 mpy16

# ---- board runtime, one per multiplier ------------------------------------------------
# $(1) = mpy32 | mpy16
define msp430_rt
MSP430_RTOBJ_$(1) := $$(patsubst %,$(MSP430_DIR)/rt/$(1)/%.o,$(MSP430_RT_COMMON) rt_$(1))
$(MSP430_DIR)/rt/$(1)/%.o: $(MSP430_PLAT)/%.S $(MSP430_PLAT)/board.h
	@mkdir -p $$(dir $$@)
	$(MSP430_CC) $(MSP430_CFLAGS) $(MSP430_FW_INC) -c $$< -o $$@
$(MSP430_DIR)/rt/$(1)/%.o: $(MSP430_PLAT)/%.c $$(MSP430_FW_HEADERS)
	@mkdir -p $$(dir $$@)
	$(MSP430_CC) $(MSP430_CFLAGS) $(MSP430_FW_INC) -O2 -c $$< -o $$@
$(MSP430_DIR)/rt/$(1)/libfr5969.a: $$(MSP430_RTOBJ_$(1))
	@rm -f $$@; $(MSP430_AR) rcs $$@ $$^
endef
$(foreach m,$(MSP430_MPYS),$(eval $(call msp430_rt,$(m))))

# ---- a library build and the firmware objects compiled beside it ---------------------
# The whole small-profile suite with P-256 needs ~52 KB at -O2, more than the 48 KB of
# FRAM below the vectors (16-bit code cannot reach the FRAM above 0x10000): suite.elf
# runs it without P-256, suite-p256.elf (check/suite_p256.c) only the P-256 suites; with
# the fault hardening the rest did not fit the 16-bit multiplier's assembly build either,
# so the stream suite has an image of its own too (suite-stream.elf, check/suite_stream.c).
# $(1) = directory name, $(2) = O2 | Os, $(3) = the chip of an assembly build, $(4) = mpy32 | mpy16
define msp430_lib
MSP430_SRC_$(1)    := $(if $(3),$(call arch_src,$(3),$(4),$(MSP430_LIB_SRC)),$(MSP430_LIB_SRC))
MSP430_LIBOBJ_$(1) := $$(patsubst %,$(MSP430_DIR)/$(1)/obj/%.o,$$(basename $$(MSP430_SRC_$(1))))
# The backend's macros (util/backend.h): portable builds opt out of the assembly, an
# assembly build names its multiplier (mpy32 | mpy16 -> MB_MSP430_MPY=32 | 16).
MSP430_BK_$(1)     := $(if $(3),-DMB_MSP430_MPY=$(patsubst mpy%,%,$(4)),-DMB_PORTABLE)
MSP430_CF_$(1)     := $(MSP430_CFLAGS) -$(2) -DMB_HAVE_P256=$(MSP430_HAVE_P256) $$(MSP430_BK_$(1))
# Every object of the build depends on its stamp, rewritten only when the configuration
# changes (P-256 sources appear, the source lists or the flags change).
MSP430_STAMP_$(1)  := $(call config_stamp,$(MSP430_DIR)/$(1),$(MSP430_CFLAGS) -$(2) $(if $(3),-DMB_MSP430_MPY=$(patsubst mpy%,%,$(4)),-DMB_PORTABLE) \
                        p256=$(MSP430_HAVE_P256) $(MSP430_LIB_SRC) $(if $(3),$(call arch_config,$(3))))
# the library (src/, arch/)
$(MSP430_DIR)/$(1)/obj/src/%.o: src/%.c $(LIB_HEADERS) $$(MSP430_STAMP_$(1))
	@mkdir -p $$(@D)
	$(MSP430_CC) $$(MSP430_CF_$(1)) -c $$< -o $$@
# The chip's files see the board's header too: the board says where the memory-mapped
# multiplier sits (MPY32 at 0x04C0 on the FR5969, board.h).
$(MSP430_DIR)/$(1)/obj/arch/%.o: arch/%.c $(LIB_HEADERS) $(MSP430_PLAT)/board.h $$(MSP430_STAMP_$(1))
	@mkdir -p $$(@D)
	$(MSP430_CC) $$(MSP430_CF_$(1)) -I$(MSP430_PLAT) -c $$< -o $$@
$(MSP430_DIR)/$(1)/obj/arch/%.o: arch/%.S $(MSP430_PLAT)/board.h $$(MSP430_STAMP_$(1))
	@mkdir -p $$(@D)
	$(MSP430_CC) $$(MSP430_CF_$(1)) -I$(MSP430_PLAT) -c $$< -o $$@
$(if $(3),$$(filter $(MSP430_DIR)/$(1)/obj/arch/%,$$(MSP430_LIBOBJ_$(1))): $(call arch_deps,$(3)))
$(MSP430_DIR)/$(1)/libmotebox.a: $$(MSP430_LIBOBJ_$(1))
	@rm -f $$@; $(MSP430_AR) rcs $$@ $$^
# firmware
$(MSP430_DIR)/$(1)/obj/%.o: %.c $$(MSP430_FW_HEADERS) $$(MSP430_STAMP_$(1))
	@mkdir -p $$(@D)
	$(MSP430_CC) $$(MSP430_CF_$(1)) $(MSP430_FW_INC) $$(MSP430_XFLAGS) -c $$< -o $$@
# 2 KB of RAM: the bench's box messages are 64 bytes here (bench.c's default is 1 KB).
# 48 KB of FRAM: the bench and trace firmware come in two images each, one without
# P-256 and one with only P-256 (both curves' code and fixed-base tables do not fit).
$(MSP430_DIR)/$(1)/obj/bench/target/bench.o: MSP430_XFLAGS := -DBENCH_BOX_BYTES=64 -UMB_HAVE_P256 -DMB_HAVE_P256=0
$(MSP430_DIR)/$(1)/obj/tests/target/ct.o: MSP430_XFLAGS := -UMB_HAVE_P256 -DMB_HAVE_P256=0
$(MSP430_DIR)/$(1)/obj/tests/target/fault.o: MSP430_XFLAGS := -UMB_HAVE_P256 -DMB_HAVE_P256=0
$(MSP430_DIR)/$(1)/obj/bench_p256.o: bench/target/bench.c $$(MSP430_FW_HEADERS) $$(MSP430_STAMP_$(1))
	@mkdir -p $$(@D)
	$(MSP430_CC) $$(MSP430_CF_$(1)) $(MSP430_FW_INC) -DBENCH_P256_ONLY=1 -c $$< -o $$@
$(MSP430_DIR)/$(1)/obj/ct_p256.o: tests/target/ct.c $$(MSP430_FW_HEADERS) $$(MSP430_STAMP_$(1))
	@mkdir -p $$(@D)
	$(MSP430_CC) $$(MSP430_CF_$(1)) $(MSP430_FW_INC) -DCT_P256_ONLY=1 -c $$< -o $$@
$(MSP430_DIR)/$(1)/obj/suite.o: tests/target/suite.c $(MSP430_GEN)/small/suite_vectors.h $$(MSP430_FW_HEADERS) $$(MSP430_STAMP_$(1))
	@mkdir -p $$(@D)
	$(MSP430_CC) $$(MSP430_CF_$(1)) $(MSP430_FW_INC) -UMB_HAVE_P256 -DMB_HAVE_P256=0 -DMBT_NO_STREAM=1 -I$(MSP430_GEN)/small -c $$< -o $$@
$(MSP430_DIR)/$(1)/obj/suite_stream.o: $(MSP430_PLAT)/check/suite_stream.c tests/target/suite.c $(MSP430_GEN)/small/suite_vectors.h $$(MSP430_FW_HEADERS) $$(MSP430_STAMP_$(1))
	@mkdir -p $$(@D)
	$(MSP430_CC) $$(MSP430_CF_$(1)) $(MSP430_FW_INC) -Itests/target -UMB_HAVE_P256 -I$(MSP430_GEN)/small -c $$< -o $$@
$(MSP430_DIR)/$(1)/obj/suite_p256.o: $(MSP430_PLAT)/check/suite_p256.c tests/target/suite.c $(MSP430_GEN)/small/suite_vectors.h $$(MSP430_FW_HEADERS) $$(MSP430_STAMP_$(1))
	@mkdir -p $$(@D)
	$(MSP430_CC) $$(MSP430_CF_$(1)) $(MSP430_FW_INC) -Itests/target -UMB_HAVE_P256 -I$(MSP430_GEN)/small -c $$< -o $$@
$(MSP430_DIR)/$(1)/obj/rt_check.o: $(MSP430_PLAT)/check/rt_check.c $(MSP430_GEN)/rt_cases.h $$(MSP430_STAMP_$(1))
	@mkdir -p $$(@D)
	$(MSP430_CC) $$(MSP430_CF_$(1)) $(MSP430_FW_INC) -I$(MSP430_GEN) -c $$< -o $$@
MSP430_LIBS += $(1)
endef

# ---- firmware ----------------------------------------------------------------------
MSP430_FW_OBJ_suite    = obj/suite.o obj/platforms/common/tprint.o
MSP430_FW_OBJ_suite-p256 = obj/suite_p256.o obj/platforms/common/tprint.o
MSP430_FW_OBJ_suite-stream = obj/suite_stream.o obj/platforms/common/tprint.o
MSP430_FW_OBJ_ct       = obj/tests/target/ct.o obj/platforms/common/tprint.o
MSP430_FW_OBJ_bench    = obj/bench/target/bench.o obj/bench/target/bench_run.o obj/platforms/common/tprint.o
MSP430_FW_OBJ_ct-p256  = obj/ct_p256.o obj/platforms/common/tprint.o
MSP430_FW_OBJ_fault    = obj/tests/target/fault.o obj/platforms/common/tprint.o
MSP430_FW_OBJ_bench-p256 = obj/bench_p256.o obj/bench/target/bench_run.o obj/platforms/common/tprint.o
MSP430_FW_OBJ_fault-p256 = obj/tests/target/fault_p256.o obj/platforms/common/tprint.o
MSP430_FW_OBJ_rt_check = obj/rt_check.o
MSP430_FWS := suite suite-stream rt_check $(if $(filter 1,$(MSP430_HAVE_P256)),suite-p256 ct-p256 bench-p256 \
                                 $(if $(wildcard tests/target/fault_p256.c),fault-p256)) \
              $(if $(wildcard tests/target/ct.c),ct) \
              $(if $(wildcard tests/target/fault.c),fault) \
              $(if $(wildcard bench/target/bench.c),bench)
# Linker script per firmware: fr5969.ld (data in SRAM), except the constant-time trace
# and bench firmware, whose static buffers plus the stack of P-256 exceed the 2 KB of
# SRAM: their .data/.bss go to FRAM (fr5969_framdata.ld; same access time at 8 MHz, so
# the cycle counts do not change), the whole SRAM is stack.
MSP430_LDS_ct    := $(MSP430_PLAT)/fr5969_framdata.ld
MSP430_LDS_bench := $(MSP430_PLAT)/fr5969_framdata.ld
MSP430_LDS_ct-p256    := $(MSP430_PLAT)/fr5969_framdata.ld
MSP430_LDS_bench-p256 := $(MSP430_PLAT)/fr5969_framdata.ld
MSP430_LDS_fault-p256 := $(MSP430_PLAT)/fr5969_framdata.ld
msp430_lds = $(or $(MSP430_LDS_$(1)),$(MSP430_PLAT)/fr5969.ld)
# $(1) = output dir name, $(2) = mpy32 | mpy16, $(3) = library build (dir name), $(4) = firmware name
define msp430_fw
$(MSP430_DIR)/$(1)/$(4).elf: $(addprefix $(MSP430_DIR)/$(3)/,$(MSP430_FW_OBJ_$(4))) $(MSP430_DIR)/$(3)/libmotebox.a $(MSP430_DIR)/rt/$(2)/libfr5969.a $(call msp430_lds,$(4))
	@mkdir -p $$(dir $$@)
	$(MSP430_LD) -T $(call msp430_lds,$(4)) $(MSP430_LDFLAGS) -Map $$(@:.elf=.map) -o $$@ $$(filter %.o,$$^) $(MSP430_DIR)/$(3)/libmotebox.a $(MSP430_DIR)/rt/$(2)/libfr5969.a
MSP430_ALL += $(MSP430_DIR)/$(1)/$(4).elf
endef

# portable: one library per optimisation level, shared by both multipliers
$(eval $(call msp430_lib,O2,O2,,))
$(eval $(call msp430_lib,Os,Os,,))
$(foreach m,$(MSP430_MPYS),$(foreach f,$(MSP430_FWS),$(eval $(call msp430_fw,$(m),$(m),O2,$(f)))))
$(foreach m,$(MSP430_MPYS),$(foreach f,$(MSP430_FWS),$(eval $(call msp430_fw,$(m)-Os,$(m),Os,$(f)))))
# assembly: one library per multiplier and optimisation level, in the firmware's folder
ifneq ($(MSP430_ARCH),)
$(foreach m,$(MSP430_MPYS),$(eval $(call msp430_lib,$(m)-asm,O2,$(MSP430_ARCH),$(m))))
$(foreach m,$(MSP430_MPYS),$(eval $(call msp430_lib,$(m)-Os-asm,Os,$(MSP430_ARCH),$(m))))
$(foreach m,$(MSP430_MPYS),$(foreach f,$(MSP430_FWS),$(eval $(call msp430_fw,$(m)-asm,$(m),$(m)-asm,$(f)))))
$(foreach m,$(MSP430_MPYS),$(foreach f,$(MSP430_FWS),$(eval $(call msp430_fw,$(m)-Os-asm,$(m),$(m)-Os-asm,$(f)))))
endif

# P-256 ECDH fault target (tests/target/fault_p256.c, docs/FAULTS.md) unhardened: relinked
# with the variant's files that carry the countermeasures compiled MB_FAULT_HARDENED=0
# (the linker takes them before the library's objects); for the builds the campaign runs.
FAULT_P256_MSP430_SRC := src/proto/p256_ecdh.c src/curve/p256_coz.c src/curve/p256_ladder_loop.c \
                         arch/msp430x/p256_ladder.S arch/msp430x/fep256_addsub.S \
                         arch/msp430x/fep256_mul_mpy32.S arch/msp430x/fep256_mul_mpy16.S
# $(1) = firmware dir, $(2) = mpy32 | mpy16, $(3) = library build
define msp430_fault_p256_unhardened
MSP430_UNH_OBJ_$(1) := $$(patsubst %,$(MSP430_DIR)/$(3)/obj/fault-unhardened/%.o,$$(filter $(FAULT_P256_MSP430_SRC),$$(MSP430_SRC_$(3))))
$(MSP430_DIR)/$(3)/obj/fault-unhardened/%.c.o: %.c $(LIB_HEADERS) $(MSP430_PLAT)/board.h $$(MSP430_STAMP_$(3))
	@mkdir -p $$(@D)
	$(MSP430_CC) $$(MSP430_CF_$(3)) -I$(MSP430_PLAT) -DMB_FAULT_HARDENED=0 -c $$< -o $$@
$(MSP430_DIR)/$(3)/obj/fault-unhardened/%.S.o: %.S $(MSP430_PLAT)/board.h $$(MSP430_STAMP_$(3)) $(if $(filter %-asm,$(3)),$(call arch_deps,$(MSP430_ARCH)))
	@mkdir -p $$(@D)
	$(MSP430_CC) $$(MSP430_CF_$(3)) -I$(MSP430_PLAT) -DMB_FAULT_HARDENED=0 -c $$< -o $$@
$(MSP430_DIR)/$(1)/fault-p256-unhardened.elf: $(addprefix $(MSP430_DIR)/$(3)/,$(MSP430_FW_OBJ_fault-p256)) $$(MSP430_UNH_OBJ_$(1)) $(MSP430_DIR)/$(3)/libmotebox.a $(MSP430_DIR)/rt/$(2)/libfr5969.a $(MSP430_PLAT)/fr5969_framdata.ld
	@mkdir -p $$(@D)
	$(MSP430_LD) -T $(MSP430_PLAT)/fr5969_framdata.ld $(MSP430_LDFLAGS) -o $$@ $$(filter %.o,$$^) $(MSP430_DIR)/$(3)/libmotebox.a $(MSP430_DIR)/rt/$(2)/libfr5969.a
MSP430_ALL += $(MSP430_DIR)/$(1)/fault-p256-unhardened.elf
endef
ifneq ($(wildcard tests/target/fault_p256.c),)
$(eval $(call msp430_fault_p256_unhardened,mpy32,mpy32,O2))
ifneq ($(MSP430_ARCH),)
$(eval $(call msp430_fault_p256_unhardened,mpy32-asm,mpy32,mpy32-asm))
endif
endif

.PRECIOUS: $(MSP430_GEN)/%/suite_vectors.h
.SECONDARY: $(foreach l,$(MSP430_LIBS),$(foreach f,$(MSP430_FWS),$(addprefix $(MSP430_DIR)/$(l)/,$(MSP430_FW_OBJ_$(f)))))
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
	$(PY) -m motebox_tools.bench msp430 --build $(MSP430_DIR) --sim $(MSP430_SIM)

demo-msp430: msp430 $(MSP430_SIM)
	$(PY) -m motebox_tools.demo --node msp430
