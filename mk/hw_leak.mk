# SPDX-License-Identifier: MIT
# Power traces of the crypto_box ASIP (issue 15): Verilator builds of mb_asip with every
# flip-flop readable (--public-flat-rw) and the register-toggle testbench hw/leak/tb_leak.cpp.
# One digit size (the fastest, W = 16). Two models: the shipped ROM (vleak) and the lab's
# randomized-DH variant (vleak-rand: hw/leak/dh1_rand.s and a 10-bank RAM, never shipped).
TEST_DEPS += hw-leak-sim

HW_LEAK_W     ?= 16
HW_LEAK_BUILD := $(BUILD)/hw/leak/W$(HW_LEAK_W)
HW_LEAK_SIMS  := $(HW_LEAK_BUILD)/vleak $(HW_LEAK_BUILD)/rand/vleak
HW_LEAK_VFLAGS = --cc --exe --build -O2 -Wall -Wno-DECLFILENAME --public-flat-rw \
  -GW=$(HW_LEAK_W) --top-module mb_asip -o vleak -CFLAGS "-O2 -I$(abspath $(HW_LEAK_BUILD))"

.PHONY: hw-leak-sim
hw-leak-sim: $(HW_LEAK_SIMS)

$(HW_LEAK_BUILD)/regs.h: hw/leak/regs.py $(HW_RTL)
	@mkdir -p $(HW_LEAK_BUILD)
	$(PY) hw/leak/regs.py $@

$(HW_LEAK_BUILD)/vleak: $(HW_RTL) $(HW_BUILD)/rom.v hw/leak/tb_leak.cpp $(HW_LEAK_BUILD)/regs.h
	verilator $(HW_LEAK_VFLAGS) -Mdir $(abspath $(HW_LEAK_BUILD)) \
	  $(abspath $(HW_RTL) $(HW_BUILD)/rom.v hw/leak/tb_leak.cpp) > $(HW_LEAK_BUILD)/build.log 2>&1 \
	  || (cat $(HW_LEAK_BUILD)/build.log; exit 1)

# the variant: ROM from dh1_rand.s (includes main.s), RAM grown to 10 banks (R9 = lambda)
$(HW_BUILD)/leak/rom_rand.v $(HW_BUILD)/leak/rom_rand.json &: $(HW_ASM) hw/leak/dh1_rand.s hw/leak/asm_rand.py
	@mkdir -p $(HW_BUILD)/leak
	$(PY) hw/leak/asm_rand.py hw/leak/dh1_rand.s $(HW_BUILD)/leak/rom_rand.v $(HW_BUILD)/leak/rom_rand.json

$(HW_BUILD)/leak/mb_ram10.v: hw/rtl/mb_ram.v
	@mkdir -p $(HW_BUILD)/leak
	sed 's/mem \[0:71\]/mem [0:79]/' $< > $@.tmp && grep -q '0:79' $@.tmp && mv $@.tmp $@

$(HW_LEAK_BUILD)/rand/vleak: hw/rtl/mb_asip.v $(HW_BUILD)/leak/mb_ram10.v $(HW_BUILD)/leak/rom_rand.v \
    hw/leak/tb_leak.cpp $(HW_LEAK_BUILD)/regs.h
	@mkdir -p $(HW_LEAK_BUILD)/rand
	verilator $(HW_LEAK_VFLAGS) -Mdir $(abspath $(HW_LEAK_BUILD))/rand \
	  $(abspath hw/rtl/mb_asip.v $(HW_BUILD)/leak/mb_ram10.v $(HW_BUILD)/leak/rom_rand.v hw/leak/tb_leak.cpp) \
	  > $(HW_LEAK_BUILD)/rand/build.log 2>&1 || (cat $(HW_LEAK_BUILD)/rand/build.log; exit 1)

# cost and effect of the countermeasure (cycles per W, ROM area, TVLA) -> hw_dpa.json
BENCH_STEPS += bench-hw-dpa
.PHONY: bench-hw-dpa
bench-hw-dpa: $(HW_LEAK_SIMS)
	@mkdir -p bench/results
	$(PY) hw/leak/cost.py --build $(HW_BUILD) --out bench/results/hw_dpa.json
