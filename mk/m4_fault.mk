# SPDX-License-Identifier: MIT
# Fault-injection target on the Cortex-M4 (docs/FAULTS.md, issue #18): the firmware
# tests/target/fault.c for the portable and assembly -O2 builds, hardened (the library
# as built) and unhardened (relinked with src/proto/box.c compiled MB_FAULT_HARDENED=0,
# which the linker takes before the library's box.o). `make bench-faults-m4` runs the
# campaigns in the Cortex-M4 model (motebox_tools.fault_m4) and writes the "cortex-m4"
# rows of bench/results/faults.json (the MSP430 rows are kept).

FAULT_P256_SRC := src/proto/p256_ecdh.c src/curve/p256_coz.c src/curve/p256_ladder_loop.c \
                  arch/cortex-m4/p256_window.c arch/cortex-m4/p256_jac.S

# $(1) = variant (build/m4/<variant>)
define fault_m4_variant
$(M4_DIR)/$(1)/fault.elf: $(M4_DIR)/$(1)/obj/tests/target/fault.o $$(M4_PLATOBJ_$(1)) $(M4_DIR)/$(1)/libmotebox.a
	$(M4_CC) $(M4_LDFLAGS) -o $$@ $$(filter %.o %.a,$$^) -lgcc
$(M4_DIR)/$(1)/obj/fault-unhardened/box.o: src/proto/box.c $(LIB_HEADERS) $$(M4_STAMP_$(1))
	@mkdir -p $$(@D)
	$(M4_CC) $$(M4_CF_$(1)) -DMB_FAULT_HARDENED=0 -c $$< -o $$@
$(M4_DIR)/$(1)/fault-unhardened.elf: $(M4_DIR)/$(1)/obj/tests/target/fault.o $(M4_DIR)/$(1)/obj/fault-unhardened/box.o $$(M4_PLATOBJ_$(1)) $(M4_DIR)/$(1)/libmotebox.a
	$(M4_CC) $(M4_LDFLAGS) -o $$@ $$(filter %.o %.a,$$^) -lgcc
FAULT_M4_ELFS += $(M4_DIR)/$(1)/fault.elf $(M4_DIR)/$(1)/fault-unhardened.elf
# P-256 ECDH (tests/target/fault_p256.c); unhardened: relinked with the files that hold
# its countermeasures compiled MB_FAULT_HARDENED=0 (FAULT_P256_SRC: a file the variant's
# backend does not use compiles to an empty object, util/backend.h)
$(M4_DIR)/$(1)/fault-p256.elf: $(M4_DIR)/$(1)/obj/tests/target/fault_p256.o $$(M4_PLATOBJ_$(1)) $(M4_DIR)/$(1)/libmotebox.a
	$(M4_CC) $(M4_LDFLAGS) -o $$@ $$(filter %.o %.a,$$^) -lgcc
$(M4_DIR)/$(1)/obj/fault-unhardened/p256/%.o: % $(LIB_HEADERS) $$(M4_STAMP_$(1))
	@mkdir -p $$(@D)
	$(M4_CC) $$(M4_CF_$(1)) -DMB_FAULT_HARDENED=0 -c $$< -o $$@
$(M4_DIR)/$(1)/fault-p256-unhardened.elf: $(M4_DIR)/$(1)/obj/tests/target/fault_p256.o $(patsubst %,$(M4_DIR)/$(1)/obj/fault-unhardened/p256/%.o,$(FAULT_P256_SRC)) $$(M4_PLATOBJ_$(1)) $(M4_DIR)/$(1)/libmotebox.a
	$(M4_CC) $(M4_LDFLAGS) -o $$@ $$(filter %.o %.a,$$^) -lgcc
FAULT_M4_ELFS += $(M4_DIR)/$(1)/fault-p256.elf $(M4_DIR)/$(1)/fault-p256-unhardened.elf
# X25519 and stream final (tests/target/fault_x25519.c): unhardened = relinked with
# FAULT_X25519_SRC compiled MB_FAULT_HARDENED=0; dual = x25519.c compiled
# MB_FAULT_HARDENED_X25519_TWICE=1 (the assembly backends' two computations)
$(M4_DIR)/$(1)/fault-x25519.elf: $(M4_DIR)/$(1)/obj/tests/target/fault_x25519.o $$(M4_PLATOBJ_$(1)) $(M4_DIR)/$(1)/libmotebox.a
	$(M4_CC) $(M4_LDFLAGS) -o $$@ $$(filter %.o %.a,$$^) -lgcc
$(M4_DIR)/$(1)/obj/fault-unhardened/x25519/%.o: % $(LIB_HEADERS) $$(M4_STAMP_$(1))
	@mkdir -p $$(@D)
	$(M4_CC) $$(M4_CF_$(1)) -DMB_FAULT_HARDENED=0 -c $$< -o $$@
$(M4_DIR)/$(1)/fault-x25519-unhardened.elf: $(M4_DIR)/$(1)/obj/tests/target/fault_x25519.o $(patsubst %,$(M4_DIR)/$(1)/obj/fault-unhardened/x25519/%.o,$(FAULT_X25519_SRC)) $$(M4_PLATOBJ_$(1)) $(M4_DIR)/$(1)/libmotebox.a
	$(M4_CC) $(M4_LDFLAGS) -o $$@ $$(filter %.o %.a,$$^) -lgcc
$(M4_DIR)/$(1)/obj/fault-dual/x25519.o: src/proto/x25519.c $(LIB_HEADERS) $$(M4_STAMP_$(1))
	@mkdir -p $$(@D)
	$(M4_CC) $$(M4_CF_$(1)) -DMB_FAULT_HARDENED_X25519_TWICE=1 -c $$< -o $$@
$(M4_DIR)/$(1)/fault-x25519-dual.elf: $(M4_DIR)/$(1)/obj/tests/target/fault_x25519.o $(M4_DIR)/$(1)/obj/fault-dual/x25519.o $$(M4_PLATOBJ_$(1)) $(M4_DIR)/$(1)/libmotebox.a
	$(M4_CC) $(M4_LDFLAGS) -o $$@ $$(filter %.o %.a,$$^) -lgcc
FAULT_M4_ELFS += $(M4_DIR)/$(1)/fault-x25519.elf $(M4_DIR)/$(1)/fault-x25519-unhardened.elf
endef
FAULT_X25519_SRC := src/proto/x25519.c src/curve/x25519_scalarmult.c \
                    src/curve/x25519_ladder_steps.c src/proto/stream.c
FAULT_M4_VARIANTS := O2 $(if $(M4_ARCH),O2-asm)
$(foreach v,$(FAULT_M4_VARIANTS),$(eval $(call fault_m4_variant,$(v))))
# the two computations are for the assembly backend (the portable ladder checks itself)
FAULT_M4_ELFS += $(if $(M4_ARCH),$(M4_DIR)/O2-asm/fault-x25519-dual.elf)

.PHONY: fault-m4 bench-faults-m4
fault-m4: $(FAULT_M4_ELFS)
TEST_DEPS += fault-m4

# runs after bench-faults (mk/fault.mk comes first in BENCH_STEPS); each step replaces
# only its own chip's rows of faults.json
bench-faults-m4: fault-m4
	MOTEBOX_BUILD=$(abspath $(BUILD)) $(PY) -m motebox_tools.fault_m4 bench --jobs 2
BENCH_STEPS += bench-faults-m4

# P-256 ECDH (tests/target/fault_p256.c): sampled campaigns over the whole call, hardened
# and unhardened, and the hardening's cost; replaces only the cortex-m4 P-256 rows
.PHONY: bench-faults-p256-m4
bench-faults-p256-m4: fault-m4
	MOTEBOX_BUILD=$(abspath $(BUILD)) $(PY) -m motebox_tools.fault_m4 bench-p256 --jobs 2
BENCH_STEPS += bench-faults-p256-m4

# X25519 and stream final (tests/target/fault_x25519.c, motebox_tools.fault_x25519):
# X25519 sampled over the whole call, the stream final exhaustive, hardened and
# unhardened (and the assembly build's two computations), the hardening's cost;
# replaces only the cortex-m4 rows of mb_x25519 and mb_box_stream_final
.PHONY: bench-faults-x25519-m4
bench-faults-x25519-m4: fault-m4
	MOTEBOX_BUILD=$(abspath $(BUILD)) $(PY) -m motebox_tools.fault_x25519 bench --jobs 1
BENCH_STEPS += bench-faults-x25519-m4
