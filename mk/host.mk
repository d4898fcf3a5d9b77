# SPDX-License-Identifier: MIT
# Host builds of the library: one per field radix (r16, r32, r64), each as .so and .a,
# plus the default build/host/libmotebox.{so,a} (radix 64).
# Backend sources are named *_r16.c / *_r32.c / *_r64.c in src/field; every other .c in
# src/ is radix-independent and goes into every build.

HOST_CC     ?= cc
HOST_WARN   := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
HOST_CFLAGS ?= -std=c99 -O2 -fPIC $(HOST_WARN) -Iinclude -Isrc
RADIXES     := 16 32 64

LIB_COMMON_SRC := $(filter-out %_r16.c %_r32.c %_r64.c,$(sort $(wildcard src/*/*.c)))
lib_src = $(LIB_COMMON_SRC) $(sort $(wildcard src/*/*_r$(1).c))
LIB_HEADERS := $(wildcard include/*.h src/*/*.h)

.PHONY: host host-all
host: $(BUILD)/host/libmotebox.so $(BUILD)/host/libmotebox.a
host-all: $(foreach r,$(RADIXES),$(BUILD)/host/r$(r)/libmotebox.so $(BUILD)/host/r$(r)/libmotebox.a)
all: host-all

define host_radix
$(BUILD)/host/r$(1)/obj/%.o: src/%.c $(LIB_HEADERS)
	@mkdir -p $$(dir $$@)
	$$(HOST_CC) $$(HOST_CFLAGS) -DMB_RADIX=$(1) -c $$< -o $$@
HOST_OBJ_r$(1) := $$(patsubst src/%.c,$(BUILD)/host/r$(1)/obj/%.o,$$(call lib_src,$(1)))
$(BUILD)/host/r$(1)/libmotebox.a: $$(HOST_OBJ_r$(1))
	@rm -f $$@; ar rcs $$@ $$^
$(BUILD)/host/r$(1)/libmotebox.so: $$(HOST_OBJ_r$(1))
	$$(HOST_CC) -shared -o $$@ $$^
endef
$(foreach r,$(RADIXES),$(eval $(call host_radix,$(r))))

$(BUILD)/host/libmotebox.%: $(BUILD)/host/r64/libmotebox.%
	cp $< $@
