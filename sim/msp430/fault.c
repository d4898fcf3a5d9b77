// SPDX-License-Identifier: MIT
// A simulator error ends the run: the program's output so far, the message with the
// PC and cycle count, the trace hash and the reports asked for, then exit(status).
#include <stdarg.h>
#include <stdlib.h>

#include "fault.h"
#include "report.h"
#include "sim.h"
#include "trace.h"

void (*sim_fault_hook)(int status);

void sim_fault(int status, const char *fmt, ...)
{
    if (sim_fault_hook) sim_fault_hook(status); // does not return
    fflush(stdout);
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "msp430sim: error at PC 0x%05x: ", M.pc0);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (after %llu cycles)\n", (unsigned long long)M.cyc);
    if (M.trace) trace_finish();
    print_reports();
    exit(status);
}
