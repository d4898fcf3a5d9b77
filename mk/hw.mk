# SPDX-License-Identifier: MIT
# crypto_box ASIP (hw/): program ROM from assembly, Verilator testbenches per digit size,
# Yosys area/depth per digit size (bench only).
APT_PACKAGES += iverilog verilator yosys
TEST_DEPS    += hw-sim
BENCH_STEPS  += bench-hw

HW_BUILD := $(BUILD)/hw
HW_WS    := 2 4 8 12 16
HW_RTL   := hw/rtl/mb_asip.v hw/rtl/mb_ram.v
HW_ASM   := $(wildcard hw/programs/*.s) hw/asm/asm.py hw/asm/isa.py
HW_SIMS  := $(foreach w,$(HW_WS),$(HW_BUILD)/W$(w)/vasip)

.PHONY: hw-rom hw-sim hw-lint bench-hw
hw-rom: $(HW_BUILD)/rom.v
hw-sim: $(HW_SIMS)

$(HW_BUILD)/rom.v $(HW_BUILD)/rom.json &: $(HW_ASM)
	@mkdir -p $(HW_BUILD)
	$(PY) hw/asm/asm.py hw/programs/main.s $(HW_BUILD)/rom.v $(HW_BUILD)/rom.json

define hw_sim_rule
$(HW_BUILD)/W$(1)/vasip: $(HW_RTL) $(HW_BUILD)/rom.v hw/tb/tb_main.cpp
	@mkdir -p $(HW_BUILD)/W$(1)
	verilator --cc --exe --build -O2 -Wall -Wno-DECLFILENAME -GW=$(1) --top-module mb_asip \
	  -Mdir $(abspath $(HW_BUILD))/W$(1) -o vasip -CFLAGS -O2 \
	  $(abspath $(HW_RTL) $(HW_BUILD)/rom.v hw/tb/tb_main.cpp) > $(HW_BUILD)/W$(1)/build.log 2>&1 \
	  || (cat $(HW_BUILD)/W$(1)/build.log; exit 1)
endef
$(foreach w,$(HW_WS),$(eval $(call hw_sim_rule,$(w))))

hw-lint: $(HW_BUILD)/rom.v
	for w in $(HW_WS); do verilator --lint-only -Wall -Wno-DECLFILENAME -GW=$$w \
	  --top-module mb_asip $(HW_RTL) $(HW_BUILD)/rom.v || exit 1; done

bench-hw: $(HW_SIMS)
	@mkdir -p bench/results
	$(PY) hw/bench.py --build $(HW_BUILD) --out bench/results/hw.json
