# SPDX-License-Identifier: MIT
# X25519 and stream-final fault target on the MSP430 (tests/target/fault_x25519.c,
# docs/FAULTS.md "X25519 and the stream final", motebox_tools.fault_x25519 --chip msp430),
# for the builds the campaign runs (mpy32 portable -O2, mpy32-asm); after mk/msp430.mk
# (its library lists and flags). Per build directory:
#   fault-x25519.elf             the library as built (the countermeasures on)
#   fault-x25519-unhardened.elf  relinked with the files that carry the countermeasures
#                                compiled MB_FAULT_HARDENED=0 (taken before the library's)
#   fault-x25519-dual.elf        assembly only: src/proto/x25519.c compiled
#                                MB_FAULT_HARDENED_X25519_TWICE=1 (two computations)
# Data in FRAM (fr5969_framdata.ld): the whole SRAM is stack, as for fault-p256.elf.

FAULT_X25519_MSP430_SRC := src/proto/x25519.c src/curve/x25519_scalarmult.c \
                           src/curve/x25519_ladder_steps.c src/proto/stream.c
MSP430_FX_LDS := $(MSP430_PLAT)/fr5969_framdata.ld
# $(1) = firmware dir, $(2) = mpy32 | mpy16, $(3) = library build
define msp430_fault_x25519
MSP430_FX_FW_$(1)  := $(MSP430_DIR)/$(3)/obj/tests/target/fault_x25519.o $(MSP430_DIR)/$(3)/obj/platforms/common/tprint.o
MSP430_FX_LINK_$(1) := $(MSP430_DIR)/$(3)/libmotebox.a $(MSP430_DIR)/rt/$(2)/libfr5969.a
MSP430_FX_UNH_$(1) := $$(patsubst %,$(MSP430_DIR)/$(3)/obj/fault-unhardened/x25519/%.o,$$(filter $(FAULT_X25519_MSP430_SRC),$$(MSP430_SRC_$(3))))
$(MSP430_DIR)/$(3)/obj/fault-unhardened/x25519/%.c.o: %.c $(LIB_HEADERS) $$(MSP430_STAMP_$(3))
	@mkdir -p $$(@D)
	$(MSP430_CC) $$(MSP430_CF_$(3)) -DMB_FAULT_HARDENED=0 -c $$< -o $$@
$(MSP430_DIR)/$(3)/obj/fault-dual/x25519.o: src/proto/x25519.c $(LIB_HEADERS) $$(MSP430_STAMP_$(3))
	@mkdir -p $$(@D)
	$(MSP430_CC) $$(MSP430_CF_$(3)) -DMB_FAULT_HARDENED_X25519_TWICE=1 -c $$< -o $$@
$(MSP430_DIR)/$(1)/fault-x25519.elf: $$(MSP430_FX_FW_$(1)) $$(MSP430_FX_LINK_$(1)) $(MSP430_FX_LDS)
	@mkdir -p $$(@D)
	$(MSP430_LD) -T $(MSP430_FX_LDS) $(MSP430_LDFLAGS) -Map $$(@:.elf=.map) -o $$@ $$(filter %.o,$$^) $$(MSP430_FX_LINK_$(1))
$(MSP430_DIR)/$(1)/fault-x25519-unhardened.elf: $$(MSP430_FX_FW_$(1)) $$(MSP430_FX_UNH_$(1)) $$(MSP430_FX_LINK_$(1)) $(MSP430_FX_LDS)
	@mkdir -p $$(@D)
	$(MSP430_LD) -T $(MSP430_FX_LDS) $(MSP430_LDFLAGS) -o $$@ $$(filter %.o,$$^) $$(MSP430_FX_LINK_$(1))
$(MSP430_DIR)/$(1)/fault-x25519-dual.elf: $$(MSP430_FX_FW_$(1)) $(MSP430_DIR)/$(3)/obj/fault-dual/x25519.o $$(MSP430_FX_LINK_$(1)) $(MSP430_FX_LDS)
	@mkdir -p $$(@D)
	$(MSP430_LD) -T $(MSP430_FX_LDS) $(MSP430_LDFLAGS) -o $$@ $$(filter %.o,$$^) $$(MSP430_FX_LINK_$(1))
MSP430_FX_ELFS += $(MSP430_DIR)/$(1)/fault-x25519.elf $(MSP430_DIR)/$(1)/fault-x25519-unhardened.elf
endef
ifneq ($(wildcard tests/target/fault_x25519.c),)
$(eval $(call msp430_fault_x25519,mpy32,mpy32,O2))
ifneq ($(MSP430_ARCH),)
$(eval $(call msp430_fault_x25519,mpy32-asm,mpy32,mpy32-asm))
# the two computations are for the assembly backend (the portable ladder checks itself)
MSP430_FX_ELFS += $(MSP430_DIR)/mpy32-asm/fault-x25519-dual.elf
endif
endif

.PHONY: fault-x25519-msp430
fault-x25519-msp430: $(MSP430_FX_ELFS)
msp430: fault-x25519-msp430
