// SPDX-License-Identifier: MIT
// The execution trace (--trace FILE, --trace-hash): every executed PC and data address.
#ifndef MSP430SIM_TRACE_H
#define MSP430SIM_TRACE_H

#include <stdint.h>

// Trace kinds.
#define TR_PC 0u
#define TR_RD 1u
#define TR_WR 2u

void trace_event(uint32_t kind, uint32_t addr);
void trace_finish(void); // close the file, print "trace-hash:"; tracing stops

#endif
