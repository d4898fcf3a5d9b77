# SPDX-License-Identifier: MIT
# Cortex-M4 builds (board mps2-an386: QEMU and the motebox cycle model):
#   build/m4/<variant>/libmotebox.a      the library, radix 32
#   build/m4/<variant>/suite-full.elf    target suite, every case    (tests/target/)
#   build/m4/<variant>/suite-small.elf   target suite, small profile (as on the MSP430)
#   build/m4/<variant>/suite-tiny.elf    target suite, fewest scalar mults (model in make test)
#   build/m4/<variant>/ct.elf            constant-time trace firmware (tests/target/ct.c)
#   build/m4/<variant>/bench.elf         bench firmware (bench/target/)
# Variants: O2 and Os (portable C); O2-asm and Os-asm with the chip's assembly,
# arch/$(M4_ARCH)/ through mk/arch.mk. `make M4_ARCH=` builds the portable variants only.

APT_PACKAGES += gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm

# The board's chip (its arch/<chip>/ folder; empty: portable C only).
M4_ARCH ?= cortex-m4

M4_CC     := arm-none-eabi-gcc
M4_AR     := arm-none-eabi-ar
M4_CPU    := -mcpu=cortex-m4 -mthumb
# -fno-tree-loop-distribute-patterns: keep gcc from turning our loops into memcpy/memset.
M4_CFLAGS := $(M4_CPU) -ffreestanding -ffunction-sections -fdata-sections \
             -fno-tree-loop-distribute-patterns -DMB_RADIX=32 $(LIB_CFLAGS)
M4_LDFLAGS = $(M4_CPU) -nostdlib -nostartfiles -T $(M4_PLAT)/link.ld -Wl,--gc-sections
M4_DIR    := $(BUILD)/m4
M4_PLAT   := platforms/mps2-an386
# Firmware and board code (not the library) also see the board interface.
M4_FW_INC := -Iplatforms

M4_LIB_SRC   := $(call lib_src,32)
M4_FW_HEADERS = $(LIB_HEADERS) $(wildcard platforms/*.h platforms/common/*.h tests/target/*.h)
M4_HAVE_P256 := $(if $(wildcard src/proto/p256*.c),1,0)
M4_PLAT_SRC  := $(M4_PLAT)/startup.c $(M4_PLAT)/hal.c $(M4_PLAT)/mem.c platforms/common/tprint.c
M4_GEN       := $(M4_DIR)/gen

# $(1) = variant name, $(2) = optimisation flags, $(3) = the chip for an assembly variant
define m4_variant
M4_SRC_$(1)     := $(if $(3),$(call arch_src,$(3),,$(M4_LIB_SRC)),$(M4_LIB_SRC))
M4_LIBOBJ_$(1)  := $$(patsubst %,$(M4_DIR)/$(1)/obj/%.o,$$(basename $$(M4_SRC_$(1))))
M4_PLATOBJ_$(1) := $$(patsubst %.c,$(M4_DIR)/$(1)/obj/%.o,$(M4_PLAT_SRC))
M4_CF_$(1)      := $(M4_CFLAGS) $(2) -DMB_HAVE_P256=$(M4_HAVE_P256)
# Every object of the variant depends on its stamp, rewritten only when the configuration
# changes (P-256 sources appear, the source lists or the flags change).
M4_STAMP_$(1)   := $(call config_stamp,$(M4_DIR)/$(1),$(M4_CFLAGS) $(2) p256=$(M4_HAVE_P256) \
                     $(M4_LIB_SRC) $(if $(3),$(call arch_config,$(3))))

# the library (src/, arch/)
$(M4_DIR)/$(1)/obj/src/%.o: src/%.c $(LIB_HEADERS) $$(M4_STAMP_$(1))
	@mkdir -p $$(@D)
	$(M4_CC) $$(M4_CF_$(1)) -c $$< -o $$@
$(M4_DIR)/$(1)/obj/arch/%.o: arch/%.c $(LIB_HEADERS) $$(M4_STAMP_$(1))
	@mkdir -p $$(@D)
	$(M4_CC) $$(M4_CF_$(1)) -c $$< -o $$@
$(M4_DIR)/$(1)/obj/arch/%.o: arch/%.S $$(M4_STAMP_$(1))
	@mkdir -p $$(@D)
	$(M4_CC) $$(M4_CF_$(1)) -c $$< -o $$@
$(if $(3),$$(filter $(M4_DIR)/$(1)/obj/arch/%,$$(M4_LIBOBJ_$(1))): $(call arch_deps,$(3)))
$(M4_DIR)/$(1)/libmotebox.a: $$(M4_LIBOBJ_$(1))
	@rm -f $$@; $(M4_AR) rcs $$@ $$^
# board and firmware
$(M4_DIR)/$(1)/obj/%.o: %.c $$(M4_FW_HEADERS) $$(M4_STAMP_$(1))
	@mkdir -p $$(@D)
	$(M4_CC) $$(M4_CF_$(1)) $(M4_FW_INC) -c $$< -o $$@

$(M4_DIR)/$(1)/suite-%.elf: tests/target/suite.c $(M4_GEN)/%/suite_vectors.h $$(M4_PLATOBJ_$(1)) $(M4_DIR)/$(1)/libmotebox.a $$(M4_FW_HEADERS) $$(M4_STAMP_$(1))
	$(M4_CC) $$(M4_CF_$(1)) $(M4_FW_INC) -I$(M4_GEN)/$$* -c $$< -o $(M4_DIR)/$(1)/obj/suite-$$*.o
	$(M4_CC) $(M4_LDFLAGS) -o $$@ $(M4_DIR)/$(1)/obj/suite-$$*.o $$(M4_PLATOBJ_$(1)) $(M4_DIR)/$(1)/libmotebox.a -lgcc
$(M4_DIR)/$(1)/ct.elf: $(M4_DIR)/$(1)/obj/tests/target/ct.o $$(M4_PLATOBJ_$(1)) $(M4_DIR)/$(1)/libmotebox.a
	$(M4_CC) $(M4_LDFLAGS) -o $$@ $$(filter %.o %.a,$$^) -lgcc
$(M4_DIR)/$(1)/bench.elf: $(M4_DIR)/$(1)/obj/bench/target/bench.o $$(M4_PLATOBJ_$(1)) $(M4_DIR)/$(1)/libmotebox.a
	$(M4_CC) $(M4_LDFLAGS) -o $$@ $$(filter %.o %.a,$$^) -lgcc

M4_ALL += $(M4_DIR)/$(1)/libmotebox.a $(M4_DIR)/$(1)/bench.elf
endef
$(eval $(call m4_variant,O2,-O2,))
$(eval $(call m4_variant,Os,-Os,))
ifneq ($(M4_ARCH),)
$(eval $(call m4_variant,O2-asm,-O2,$(M4_ARCH)))
$(eval $(call m4_variant,Os-asm,-Os,$(M4_ARCH)))
M4_ALL += $(foreach p,full small tiny,$(M4_DIR)/O2-asm/suite-$(p).elf) $(M4_DIR)/O2-asm/ct.elf
endif
M4_ALL += $(foreach p,full small tiny,$(M4_DIR)/O2/suite-$(p).elf) $(M4_DIR)/O2/ct.elf

.PRECIOUS: $(M4_GEN)/%/suite_vectors.h
$(M4_GEN)/%/suite_vectors.h: tests/target/gen_vectors.py tests/vectors.py
	$(PY) tests/target/gen_vectors.py --profile $* -o $@

.PHONY: m4 bench-m4 demo-m4
m4: $(M4_ALL)
TEST_DEPS   += m4
DEMO_DEPS_m4 += m4
BENCH_STEPS += bench-m4

bench-m4: m4
	$(PY) -m motebox_tools.bench m4 --build $(M4_DIR)

demo-m4: m4
	$(PY) -m motebox_tools.demo --node m4
