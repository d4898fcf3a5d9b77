// SPDX-License-Identifier: MIT
// The MSP430X (CPUXV2) instruction set: decode, execute, count cycles.
#ifndef MSP430SIM_CPU_H
#define MSP430SIM_CPU_H

void cpu_init(void);
void cpu_run(void); // until SIM_EXIT is written (M.halted) or a fault

#endif
