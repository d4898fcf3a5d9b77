# SPDX-License-Identifier: MIT
# The assembly hook, the same for every board. A chip is one folder arch/<chip>/ with its
# sources and a files.mk that is a pure list (no flags, no rules):
#   ARCH_REPLACES          portable sources (src/...) the chip replaces, whole files only
#   ARCH_SOURCES           what replaces them: .S or .c files in arch/<chip>/
#   ARCH_SOURCES_<config>  optional, sources for one configuration of the board only (the
#                          MSP430 board's configurations: mpy32, mpy16)
# A board names its chip in one line (M4_ARCH in mk/m4.mk, MSP430_ARCH in mk/msp430.mk;
# empty: portable variants only) and, when it defines its assembly variants, calls
#   $(call arch_src,CHIP,CONFIG,PORTABLE SOURCES)  the variant's library sources:
#          PORTABLE SOURCES minus ARCH_REPLACES, plus ARCH_SOURCES and ARCH_SOURCES_CONFIG
#   $(call arch_deps,CHIP)    what each object of arch/CHIP/ depends on (its .inc, .h)
#   $(call arch_config,CHIP)  the chip's lists in one line (for a board's config stamp)
# arch_src reads arch/CHIP/files.mk the first time a chip is named (so it must be
# expanded while make reads the makefiles, e.g. in a :=) and keeps its lists as
# ARCH_REPLACES.CHIP, ARCH_SOURCES.CHIP and ARCH_SOURCES_<config>.CHIP: two boards of one
# make run with different chips never see each other's lists.

ARCH_CHIPS :=
# The generic names a files.mk sets (the per-chip copies carry a dot).
arch_generic = $(foreach v,$(filter ARCH_REPLACES ARCH_SOURCES ARCH_SOURCES_%,$(.VARIABLES)),$(if $(findstring .,$(v)),,$(v)))

define arch_read
$(foreach v,$(arch_generic),$(eval undefine $(v)))
include arch/$(1)/files.mk
$$(foreach v,$$(arch_generic),$$(eval $$(v).$(1) := $$$$($$(v)))$$(eval undefine $$(v)))
ARCH_CHIPS += $(1)
$$(foreach f,$$(filter-out $$(LIB_ALL_SRC),$$(ARCH_REPLACES.$(1))),$$(warning arch/$(1)/files.mk: warning: $$(f) replaces no library source))
$$(foreach f,$$(foreach v,$$(filter ARCH_SOURCES%.$(1),$$(.VARIABLES)),$$($$(v))),$$(if $$(wildcard $$(f)),,$$(warning arch/$(1)/files.mk: warning: $$(f) does not exist)))
endef
arch_load = $(if $(filter $(1),$(ARCH_CHIPS)),,$(if $(wildcard arch/$(1)/files.mk),$(eval $(call arch_read,$(1))),$(error arch/$(1)/files.mk not found (a board's *_ARCH names arch/<chip>/))))

arch_src    = $(call arch_load,$(1))$(strip $(filter-out $(ARCH_REPLACES.$(1)),$(3)) \
                $(ARCH_SOURCES.$(1)) $(ARCH_SOURCES_$(2).$(1)))
arch_deps   = $(wildcard arch/$(1)/*.inc arch/$(1)/*.h)
arch_config = $(call arch_load,$(1))arch=$(1) $(foreach v,$(sort $(filter %.$(1),$(.VARIABLES))),$(v)=$($(v)))
