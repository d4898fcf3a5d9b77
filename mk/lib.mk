# SPDX-License-Identifier: MIT
# The library itself, as every build of it (host, checks, Cortex-M4, MSP430) sees it:
# its sources, the field radix selection, its warning flags and include paths.
#
# Every .c in src/*/ is a library source. A field backend is named *_rNN.c (NN = 16, 32,
# 64); a build compiles the backends of one radix and every radix-independent file.
# Radix 25 is the radix-32 build with GF(2^255-19) in radix 2^25.5: fe25519*_r25.c
# replace fe25519*_r32.c, every other backend is *_r32.c (src/util/backend.h).

RADIXES     := 16 25 32 64
# The host's C compiler (host library, checks, host bench).
HOST_CC     ?= cc
# Warnings of every C compile in the project (library, firmware, tests), all -Werror.
MB_WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
MB_INC      := -Iinclude -Isrc
LIB_CFLAGS  := -std=c99 $(MB_WARN) $(MB_INC)

LIB_ALL_SRC := $(sort $(wildcard src/*/*.c))
# $(call lib_src,NN): the library's sources for radix NN (portable, no arch/ files).
lib_src      = $(filter-out $(foreach r,$(RADIXES),%_r$(r).c),$(LIB_ALL_SRC)) \
               $(if $(filter 25,$(1)),$(filter %_r25.c,$(LIB_ALL_SRC)) \
                 $(filter-out src/field/fe25519%,$(filter %_r32.c,$(LIB_ALL_SRC))), \
                 $(filter %_r$(1).c,$(LIB_ALL_SRC)))
# What a library object may include (.inc: bodies shared by several backends).
LIB_HEADERS := $(wildcard include/*.h src/*/*.h src/*/*.inc)

# $(call lib_obj,DIR,NN): object paths of lib_src NN under DIR (src/a/b.c -> DIR/a/b.o).
lib_obj      = $(patsubst src/%.c,$(1)/%.o,$(call lib_src,$(2)))
# $(eval $(call lib_rules,DIR,COMPILER AND FLAGS,NN)): how DIR's objects are compiled,
# for a build of the portable library from src/ alone (host and check builds).
define lib_rules
$(1)/%.o: src/%.c $(LIB_HEADERS) $(call config_stamp,$(1),$(2) $(LIB_CFLAGS) $(call lib_src,$(3)))
	@mkdir -p $$(@D)
	$(2) $(LIB_CFLAGS) -DMB_RADIX=$(3) -c $$< -o $$@
endef

# $(eval $(call lib_archive,DIR,COMPILER AND FLAGS,NN)): DIR/libmotebox.a from DIR/obj/.
define lib_archive
$(call lib_rules,$(1)/obj,$(2),$(3))
$(1)/libmotebox.a: $(call lib_obj,$(1)/obj,$(3)) $(1)/obj/config.stamp
	@rm -f $$@; ar rcs $$@ $$(filter %.o,$$^)
endef

# $(call config_stamp,DIR,TEXT): DIR/config.stamp, rewritten (when make reads the
# makefiles) only if TEXT changed. Objects and archives that depend on it are rebuilt
# when their flags or their file list change (a removed source leaves no stale object
# in an archive).
config_stamp = $(shell mkdir -p $(1) && (echo '$(strip $(2))' | cmp -s - $(1)/config.stamp || \
                 echo '$(strip $(2))' > $(1)/config.stamp))$(1)/config.stamp
