# SPDX-License-Identifier: MIT
# Cortex-M4 builds (QEMU mps2-an386 board and the motebox cycle model):
#   build/m4/<variant>/libmotebox.a      the library, radix 32
#   build/m4/<variant>/suite-full.elf    target suite, every case    (tests/target/)
#   build/m4/<variant>/suite-small.elf   target suite, small profile (as on the MSP430)
#   build/m4/<variant>/suite-tiny.elf    target suite, fewest scalar mults (model in make test)
#   build/m4/<variant>/ct.elf            constant-time trace firmware (tests/target/ct.c)
#   build/m4/<variant>/bench.elf         bench firmware (bench/target/)
# Variants: O2 and Os (portable C); O2-asm and Os-asm when an assembly backend exists.
#
# Assembly hook (arch/cortex-m4/, owned by M4ASM): when arch/cortex-m4/files.mk exists,
# M4_ARCH defaults to cortex-m4 and that file must set
#   M4ASM_REPLACES := src/field/fe25519_r32.c ...    portable sources it replaces
#   M4ASM_SOURCES  := arch/cortex-m4/fe25519_mul.S ...  what replaces them (.S or .c)
#   M4ASM_CFLAGS   := -D...   optional, added to every file of the *-asm variants (e.g. to
#                             compile a portable file without the functions it replaces)
# The *-asm variants are built from (portable sources - M4ASM_REPLACES) + M4ASM_SOURCES.
# `make M4_ARCH=` builds the portable variants only.

APT_PACKAGES += gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm

M4_CC     := arm-none-eabi-gcc
M4_AR     := arm-none-eabi-ar
M4_CPU    := -mcpu=cortex-m4 -mthumb
M4_WARN   := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
# -fno-tree-loop-distribute-patterns: keep gcc from turning our loops into memcpy/memset.
M4_CFLAGS := -std=c99 $(M4_CPU) -ffreestanding -ffunction-sections -fdata-sections \
             -fno-tree-loop-distribute-patterns -DMB_RADIX=32 $(M4_WARN) \
             -Iinclude -Isrc -Iplatforms -Itests/target
M4_LDFLAGS = $(M4_CPU) -nostdlib -nostartfiles -T $(M4_PLAT)/link.ld -Wl,--gc-sections
M4_DIR    := $(BUILD)/m4
M4_PLAT   := platforms/mps2-an386

M4_ARCH ?= $(if $(wildcard arch/cortex-m4/files.mk),cortex-m4,)
ifeq ($(M4_ARCH),cortex-m4)
include arch/cortex-m4/files.mk
M4_VARIANTS := O2 Os O2-asm Os-asm
else
M4_VARIANTS := O2 Os
endif

M4_LIB_SRC   := $(filter-out %_r16.c %_r64.c,$(sort $(wildcard src/*/*.c)))
M4_HEADERS    = $(wildcard include/*.h src/*/*.h platforms/*.h tests/target/*.h)
M4_HAVE_P256 := $(if $(wildcard src/proto/p256*.c),1,0)
M4_PLAT_SRC  := $(M4_PLAT)/startup.c $(M4_PLAT)/hal.c $(M4_PLAT)/mem.c tests/target/tprint.c
M4_GEN       := $(M4_DIR)/gen
# Firmware objects depend on this stamp, rewritten only when the configuration changes
# (P-256 sources appear, the assembly file lists change), so they are rebuilt then.
M4_STAMP     := $(M4_DIR)/config.stamp
M4_CONFIG    := p256=$(M4_HAVE_P256) arch=$(M4_ARCH) $(M4ASM_REPLACES) $(M4ASM_SOURCES) \
                $(M4ASM_CFLAGS) $(M4_CFLAGS)
ifneq ($(filter m4 bench-m4 demo-m4 test bench all $(BUILD)/m4/%,$(or $(MAKECMDGOALS),all)),)
$(shell mkdir -p $(M4_DIR) && (echo '$(M4_CONFIG)' | cmp -s - $(M4_STAMP) || echo '$(M4_CONFIG)' > $(M4_STAMP)))
endif
$(M4_STAMP):
	@mkdir -p $(dir $@) && echo '$(M4_CONFIG)' > $@

# $(1) = variant name, $(2) = optimisation flags, $(3) = nonempty for the assembly backend
define m4_variant
M4_SRC_$(1) := $(if $(3),$(filter-out $(M4ASM_REPLACES),$(M4_LIB_SRC)) $(M4ASM_SOURCES),$(M4_LIB_SRC))
M4_LIBOBJ_$(1) := $$(patsubst %,$(M4_DIR)/$(1)/obj/%.o,$$(basename $$(M4_SRC_$(1))))
M4_PLATOBJ_$(1) := $$(patsubst %.c,$(M4_DIR)/$(1)/obj/%.o,$(M4_PLAT_SRC))
M4_CF_$(1) := $(M4_CFLAGS) $(2) -DMB_HAVE_P256=$(M4_HAVE_P256) $(if $(3),$(M4ASM_CFLAGS))

$(M4_DIR)/$(1)/obj/%.o: %.c $$(M4_HEADERS) $(M4_STAMP)
	@mkdir -p $$(dir $$@)
	$(M4_CC) $$(M4_CF_$(1)) -c $$< -o $$@
$(M4_DIR)/$(1)/obj/%.o: %.S $$(wildcard arch/*/*.inc) $(M4_STAMP)
	@mkdir -p $$(dir $$@)
	$(M4_CC) $$(M4_CF_$(1)) -c $$< -o $$@
$(M4_DIR)/$(1)/libmotebox.a: $$(M4_LIBOBJ_$(1))
	@rm -f $$@; $(M4_AR) rcs $$@ $$^

$(M4_DIR)/$(1)/suite-%.elf: tests/target/suite.c $(M4_GEN)/%/suite_vectors.h $$(M4_PLATOBJ_$(1)) $(M4_DIR)/$(1)/libmotebox.a $$(M4_HEADERS) $(M4_STAMP)
	$(M4_CC) $$(M4_CF_$(1)) -I$(M4_GEN)/$$* -c $$< -o $(M4_DIR)/$(1)/obj/suite-$$*.o
	$(M4_CC) $(M4_LDFLAGS) -o $$@ $(M4_DIR)/$(1)/obj/suite-$$*.o $$(M4_PLATOBJ_$(1)) $(M4_DIR)/$(1)/libmotebox.a -lgcc
$(M4_DIR)/$(1)/ct.elf: $(M4_DIR)/$(1)/obj/tests/target/ct.o $$(M4_PLATOBJ_$(1)) $(M4_DIR)/$(1)/libmotebox.a
	$(M4_CC) $(M4_LDFLAGS) -o $$@ $$(filter %.o %.a,$$^) -lgcc
$(M4_DIR)/$(1)/bench.elf: $(M4_DIR)/$(1)/obj/bench/target/bench.o $$(M4_PLATOBJ_$(1)) $(M4_DIR)/$(1)/libmotebox.a
	$(M4_CC) $(M4_LDFLAGS) -o $$@ $$(filter %.o %.a,$$^) -lgcc

M4_ALL += $(M4_DIR)/$(1)/libmotebox.a $(M4_DIR)/$(1)/bench.elf
endef
$(eval $(call m4_variant,O2,-O2,))
$(eval $(call m4_variant,Os,-Os,))
ifeq ($(M4_ARCH),cortex-m4)
$(eval $(call m4_variant,O2-asm,-O2,asm))
$(eval $(call m4_variant,Os-asm,-Os,asm))
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
	$(PY) bench/run_m4.py --build $(M4_DIR)

demo-m4: m4
	$(PY) -m motebox.demo_m4
