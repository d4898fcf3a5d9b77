# SPDX-License-Identifier: MIT
# `make docs`: the API reference of include/motebox.h (Doxygen, docs/Doxyfile, one page
# per section of the header) in $(BUILD)/docs/html/index.html. Any Doxygen warning (an
# undocumented public symbol, a broken doc command) fails it; tests/test_docs.py runs the
# same check in `make test`.

APT_PACKAGES += doxygen

DOCS_OUT := $(BUILD)/docs

.PHONY: docs
docs:
	@rm -rf $(DOCS_OUT) && mkdir -p $(DOCS_OUT)
	MB_DOCS_OUT=$(abspath $(DOCS_OUT)) MB_VERSION=$(MB_VERSION) doxygen docs/Doxyfile
	@echo "API reference: $(DOCS_OUT)/html/index.html"
