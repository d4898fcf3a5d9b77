// SPDX-License-Identifier: MIT
// Stopping the run on a simulator error: message, reports, exit status (sim.h ST_*).
#ifndef MSP430SIM_FAULT_H
#define MSP430SIM_FAULT_H

void sim_fault(int status, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));

// Set by a harness (fuzz/sim430_fuzz.c) to take errors instead of exit(): called first,
// with the status; it must not return (longjmp). NULL in the simulator.
extern void (*sim_fault_hook)(int status);

#endif
