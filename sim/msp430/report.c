// SPDX-License-Identifier: MIT
// End-of-run reports, one "name: value" line each on stderr (the Python runner and
// the tests parse them), and the --profile table.
#include <time.h>

#include "profile.h"
#include "report.h"
#include "sim.h"

double sim_seconds(void)
{
    return (double)clock() / CLOCKS_PER_SEC;
}

void print_reports(void)
{
    if (M.want_cycles) fprintf(stderr, "cycles: %llu\n", (unsigned long long)M.cyc);
    if (M.want_stack) fprintf(stderr, "stack: %u\n", M.sp_max ? M.sp_max - M.sp_min : 0);
    if (M.want_stats) {
        double secs = sim_seconds() - M.t0;
        fprintf(stderr, "instructions: %llu\nseconds: %.3f\nmips: %.1f\n", (unsigned long long)M.insns, secs,
                secs > 0 ? (double)M.insns / secs / 1e6 : 0.0);
    }
    if (M.profile) profile_report();
}
