// SPDX-License-Identifier: MIT
// Stopping the run on a simulator error: message, reports, exit status (sim.h ST_*).
#ifndef MSP430SIM_FAULT_H
#define MSP430SIM_FAULT_H

void sim_fault(int status, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));

#endif
