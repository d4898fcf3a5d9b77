# SPDX-License-Identifier: MIT
# The library's sources for one build, as the project's own make builds compute them
# (mk/lib.mk's lib_src, mk/arch.mk's arch_src over arch/<chip>/files.mk), printed one
# per line: the single source of truth CMake reads (cmake/MoteboxSources.cmake), so
# neither a list nor the radix rule is written twice.
#   make -s -f cmake/lib-sources.make RADIX=NN [CHIP=<chip> [CONFIG=<config>]]
# Reads only mk/lib.mk and mk/arch.mk (no builds, no stamps). Not named *.mk: the
# Makefile includes every mk/*.mk, and this file is not part of it.
include mk/lib.mk
include mk/arch.mk

ifeq ($(filter $(RADIX),$(RADIXES)),)
$(error RADIX=$(RADIX) is not one of RADIXES in mk/lib.mk: $(RADIXES))
endif
MB_SRC := $(if $(CHIP),$(call arch_src,$(CHIP),$(CONFIG),$(call lib_src,$(RADIX))),$(call lib_src,$(RADIX)))

.PHONY: print
print:
	@printf '%s\n' $(MB_SRC)
