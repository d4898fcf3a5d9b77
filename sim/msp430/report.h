// SPDX-License-Identifier: MIT
// The reports printed to stderr at the end of a run (also after a simulator error).
#ifndef MSP430SIM_REPORT_H
#define MSP430SIM_REPORT_H

double sim_seconds(void); // CPU time of the simulator process (for --stats)
void print_reports(void); // --cycles, --stack, --stats, then --profile

#endif
