# SPDX-License-Identifier: MIT
# Installing the host library for users who do not use CMake, with the same layout as
# `cmake --install` (CMakeLists.txt):
#   make install PREFIX=/usr/local [DESTDIR=/staging] [LIBDIR=...] [INCLUDEDIR=...]
#     $(INCLUDEDIR)/motebox.h, motebox_nacl.h
#     $(LIBDIR)/libmotebox.a, libmotebox.so -> .so.0 -> .so.<version>
#     $(LIBDIR)/pkgconfig/motebox.pc                 (from cmake/motebox.pc.in)
# The installed build is radix 64 like build/host/, compiled apart in $(BUILD)/install/
# with -fvisibility=hidden: its shared library exports only include/motebox.h (the
# test builds in $(BUILD)/host/ keep every mb_ symbol visible for tests/ through ctypes).

APT_PACKAGES += cmake pkg-config

PREFIX     ?= /usr/local
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MB_VERSION := $(shell sed -n 's/^__version__ *= *"\([0-9.]*\)".*/\1/p' python/motebox/__init__.py)
MB_SOMAJOR := $(firstword $(subst ., ,$(MB_VERSION)))
INST       := $(BUILD)/install

$(eval $(call lib_archive,$(INST),$(HOST_CC) $(HOST_CFLAGS) -fvisibility=hidden,64))
$(INST)/libmotebox.so.$(MB_VERSION): $(call lib_obj,$(INST)/obj,64) $(INST)/obj/config.stamp
	$(HOST_CC) -shared -Wl,-soname,libmotebox.so.$(MB_SOMAJOR) -o $@ $(filter %.o,$^)
$(INST)/motebox.pc: cmake/motebox.pc.in python/motebox/__init__.py $(call config_stamp,$(INST)/pc,$(PREFIX) $(LIBDIR) $(INCLUDEDIR))
	@mkdir -p $(@D)
	sed -e 's|@MB_PC_PREFIX@|$(PREFIX)|' -e 's|@MB_PC_LIBDIR@|$(LIBDIR)|' \
	    -e 's|@MB_PC_INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@MB_PC_VERSION@|$(MB_VERSION)|' \
	    -e 's|@MB_PC_ARCH@|portable|' -e 's|@MB_PC_RADIX@|64|' $< > $@

.PHONY: install
install: $(INST)/libmotebox.a $(INST)/libmotebox.so.$(MB_VERSION) $(INST)/motebox.pc
	install -d $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR)/pkgconfig
	install -m 644 include/motebox.h include/motebox_nacl.h $(DESTDIR)$(INCLUDEDIR)/
	install -m 644 $(INST)/libmotebox.a $(DESTDIR)$(LIBDIR)/
	install -m 755 $(INST)/libmotebox.so.$(MB_VERSION) $(DESTDIR)$(LIBDIR)/
	ln -sf libmotebox.so.$(MB_VERSION) $(DESTDIR)$(LIBDIR)/libmotebox.so.$(MB_SOMAJOR)
	ln -sf libmotebox.so.$(MB_SOMAJOR) $(DESTDIR)$(LIBDIR)/libmotebox.so
	install -m 644 $(INST)/motebox.pc $(DESTDIR)$(LIBDIR)/pkgconfig/
