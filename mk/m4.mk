# SPDX-License-Identifier: MIT
# Cortex-M4 builds (board mps2-an386: QEMU and the motebox cycle model):
#   build/m4/<variant>/libmotebox.a      the library (O2: radix 25; Os, -asm: radix 32)
#   build/m4/<variant>/suite-full.elf    target suite, every case    (tests/target/)
#   build/m4/<variant>/suite-small.elf   target suite, small profile (as on the MSP430)
#   build/m4/<variant>/suite-tiny.elf    target suite, fewest scalar mults (model in make test)
#   build/m4/<variant>/ct.elf            constant-time trace firmware (tests/target/ct.c)
#   build/m4/<variant>/bench.elf         bench firmware (bench/target/)
#   build/m4/monocypher-O2/bench.elf     peer bench (`make m4-peer`, part of bench-m4)
# Variants: O2 and Os (portable C); O2-asm and Os-asm with the chip's assembly,
# arch/$(M4_ARCH)/ through mk/arch.mk. `make M4_ARCH=` builds the portable variants only.

APT_PACKAGES += gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm
# curl: the peer row's source download (bench-m4 only).
APT_PACKAGES += curl

# The board's chip (its arch/<chip>/ folder; empty: portable C only).
M4_ARCH ?= cortex-m4
# The field radix of each portable variant, chosen by measurement (docs/DESIGN.md):
# at -O2, 25 (GF(2^255-19) in radix 2^25.5, the rest radix 32) runs X25519 in a third of
# radix 32's cycles; at -Os radix 32 is both smaller and faster (r25's compact loops and
# their wiped stack buffers). The assembly variants are radix 32 (their kernels').
M4_RADIX_O2 ?= 25
M4_RADIX_Os ?= 32

M4_CC     := arm-none-eabi-gcc
M4_AR     := arm-none-eabi-ar
M4_CPU    := -mcpu=cortex-m4 -mthumb
# -fno-tree-loop-distribute-patterns: keep gcc from turning our loops into memcpy/memset.
M4_CFLAGS := $(M4_CPU) -ffreestanding -ffunction-sections -fdata-sections \
             -fno-tree-loop-distribute-patterns $(LIB_CFLAGS)
M4_LDFLAGS = $(M4_CPU) -nostdlib -nostartfiles -T $(M4_PLAT)/link.ld -Wl,--gc-sections
M4_DIR    := $(BUILD)/m4
M4_PLAT   := platforms/mps2-an386
# Firmware and board code (not the library) also see the board interface.
M4_FW_INC := -Iplatforms

M4_LIB_SRC   := $(call lib_src,32)
M4_FW_HEADERS = $(LIB_HEADERS) $(wildcard platforms/*.h platforms/common/*.h tests/target/*.h bench/target/*.h)
M4_HAVE_P256 := $(if $(wildcard src/proto/p256*.c),1,0)
M4_PLAT_SRC  := $(M4_PLAT)/startup.c $(M4_PLAT)/hal.c $(M4_PLAT)/mem.c platforms/common/tprint.c
M4_GEN       := $(M4_DIR)/gen

# $(1) = variant name, $(2) = optimisation flags, $(3) = the chip for an assembly variant
define m4_variant
M4_SRC_$(1)     := $(if $(3),$(call arch_src,$(3),,$(M4_LIB_SRC)),$(call lib_src,$(M4_RADIX_$(1))))
M4_LIBOBJ_$(1)  := $$(patsubst %,$(M4_DIR)/$(1)/obj/%.o,$$(basename $$(M4_SRC_$(1))))
M4_PLATOBJ_$(1) := $$(patsubst %.c,$(M4_DIR)/$(1)/obj/%.o,$(M4_PLAT_SRC))
# MB_PORTABLE: the portable variants' files must not give way to the assembly (their
# replaced files compile to nothing when the chip's backend is active: util/backend.h).
M4_CF_$(1)      := $(M4_CFLAGS) $(2) -DMB_RADIX=$(if $(3),32,$(M4_RADIX_$(1))) -DMB_HAVE_P256=$(M4_HAVE_P256) \
                   $(if $(3),,-DMB_PORTABLE)
# Every object of the variant depends on its stamp, rewritten only when the configuration
# changes (P-256 sources appear, the source lists or the flags change).
M4_STAMP_$(1)   := $(call config_stamp,$(M4_DIR)/$(1),$(M4_CFLAGS) $(2) p256=$(M4_HAVE_P256) $(if $(3),,-DMB_PORTABLE) \
                     radix=$(if $(3),32,$(M4_RADIX_$(1))) \
                     $(if $(3),$(M4_LIB_SRC),$(call lib_src,$(M4_RADIX_$(1)))) \
                     $(if $(3),$(call arch_config,$(3))))

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
$(M4_DIR)/$(1)/bench.elf: $(M4_DIR)/$(1)/obj/bench/target/bench.o $(M4_DIR)/$(1)/obj/bench/target/bench_run.o $$(M4_PLATOBJ_$(1)) $(M4_DIR)/$(1)/libmotebox.a
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

# --- peer row: Monocypher's X25519, same board, flags and cycle model -----------------
# `make bench` downloads the pymonocypher 4.0.3.4 source distribution (hash checked) into
# the build tree, never into the repository, and builds bench/target/bench_peer.c with
# its monocypher.c as the variant monocypher-O2 (python/motebox_tools/boards/m4.py).
MONO_SDIST := pymonocypher-4.0.3.4
MONO_URL   := https://files.pythonhosted.org/packages/41/72/f9016219c9048baed54adee5c006ff140cf30a44fcab26713a3ad1fc521b/$(MONO_SDIST).tar.gz
MONO_SHA   := 5e56e3d3eb770a53e0b9f6274146663c11a11f3d0de5cd48e3be0428d1b07a4a
MONO_DIR   := $(BUILD)/peer/monocypher
# The peer's own code is compiled as our portable variant is, minus our warning set.
MONO_CF    := -std=c99 $(M4_CPU) -O2 -ffreestanding -ffunction-sections -fdata-sections \
              -fno-tree-loop-distribute-patterns
M4_PEER    := $(M4_DIR)/monocypher-O2

$(MONO_DIR)/$(MONO_SDIST).tar.gz:
	@mkdir -p $(@D)
	curl -fsSL -o $@.part $(MONO_URL)
	echo "$(MONO_SHA)  $@.part" | sha256sum -c --quiet -
	mv $@.part $@
$(MONO_DIR)/monocypher.c $(MONO_DIR)/monocypher.h &: $(MONO_DIR)/$(MONO_SDIST).tar.gz
	tar -xzf $< -C $(MONO_DIR) --strip-components=1 $(MONO_SDIST)/monocypher.c $(MONO_SDIST)/monocypher.h
	touch $(MONO_DIR)/monocypher.c $(MONO_DIR)/monocypher.h
$(M4_PEER)/libmonocypher.a: $(MONO_DIR)/monocypher.c $(MONO_DIR)/monocypher.h
	@mkdir -p $(@D)
	$(M4_CC) $(MONO_CF) -c $< -o $(@D)/monocypher.o
	@rm -f $@; $(M4_AR) rcs $@ $(@D)/monocypher.o
$(M4_PEER)/bench.elf: bench/target/bench_peer.c $(M4_DIR)/O2/obj/bench/target/bench_run.o $(M4_PEER)/libmonocypher.a $(M4_PLATOBJ_O2)
	$(M4_CC) $(M4_CF_O2) $(M4_FW_INC) -I$(MONO_DIR) -c $< -o $(M4_PEER)/bench_peer.o
	$(M4_CC) $(M4_LDFLAGS) -o $@ $(M4_PEER)/bench_peer.o $(M4_DIR)/O2/obj/bench/target/bench_run.o $(M4_PLATOBJ_O2) $(M4_PEER)/libmonocypher.a -lgcc

.PHONY: m4 bench-m4 demo-m4 m4-peer
m4: $(M4_ALL)
m4-peer: $(M4_PEER)/bench.elf
TEST_DEPS   += m4
DEMO_DEPS_m4 += m4
BENCH_STEPS += bench-m4

bench-m4: m4 m4-peer
	$(PY) -m motebox_tools.bench m4 --build $(M4_DIR)

demo-m4: m4
	$(PY) -m motebox_tools.demo --node m4
