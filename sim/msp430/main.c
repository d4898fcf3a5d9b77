// SPDX-License-Identifier: MIT
// msp430sim [--mpy 32|16] [--cycles] [--stack] [--trace FILE] [--trace-hash]
//           [--max-cycles N] [--stats] [--profile [FILE]] FIRMWARE.elf
// Runs an MSP430FR5969 firmware image; console to stdout, exit status = the
// program's (SIM_EXIT) or 201..209 for simulator errors (see sim.h).
// The command line and the order of start-up; the modules do the work.
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "elf.h"
#include "mem.h"
#include "mpy.h"
#include "profile.h"
#include "report.h"
#include "sim.h"
#include "trace.h"

static void usage(void)
{
    fprintf(stderr, "usage: msp430sim [--mpy 32|16] [--cycles] [--stack] [--trace FILE] [--trace-hash]\n"
                    "                 [--max-cycles N] [--stats] [--profile [FILE]] FIRMWARE.elf\n");
    exit(ST_USAGE);
}

int main(int argc, char **argv)
{
    const char *elf = NULL, *trace_path = NULL, *profile_path = NULL;
    int trace_hash = 0, profile = 0, profile_took_elf = 0;
    M.max_cycles = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--mpy") && i + 1 < argc) {
            const char *v = argv[++i];
            if (!strcmp(v, "16")) M.mpy16 = 1;
            else if (!strcmp(v, "32")) M.mpy16 = 0;
            else usage();
        } else if (!strcmp(a, "--cycles")) M.want_cycles = 1;
        else if (!strcmp(a, "--stack")) M.want_stack = 1;
        else if (!strcmp(a, "--stats")) M.want_stats = 1;
        else if (!strcmp(a, "--trace-hash")) trace_hash = 1;
        else if (!strcmp(a, "--trace") && i + 1 < argc) trace_path = argv[++i];
        else if (!strcmp(a, "--profile")) {
            // Optional FILE: the next word if it is no option; if it turns out to be
            // the only non-option word, it was the firmware (profile to stderr).
            profile = 1;
            if (i + 1 < argc && argv[i + 1][0] != '-') {
                profile_path = argv[++i];
                profile_took_elf = 1;
            }
        } else if (!strncmp(a, "--profile=", 10) && a[10]) {
            profile = 1;
            profile_path = a + 10;
            profile_took_elf = 0;
        } else if (!strcmp(a, "--max-cycles") && i + 1 < argc) {
            char *end;
            M.max_cycles = strtoull(argv[++i], &end, 0);
            if (*end) usage();
        } else if (a[0] == '-') usage();
        else if (!elf) elf = a;
        else usage();
    }
    if (!elf && profile_took_elf) {
        elf = profile_path;
        profile_path = NULL;
    }
    if (!elf) usage();

    static char outbuf[1 << 16];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    mem_init();
    mpy_reset();
    cpu_init();
    uint32_t entry;
    if (elf_load(elf, &entry) != 0) return ST_LOAD;
    // Reset: PC from the reset vector (0xFFFE) if the image sets it.
    uint32_t rv = (uint32_t)mem[0xFFFE] | ((uint32_t)mem[0xFFFF] << 8);
    M.r[0] = (rv != 0 && rv != 0xFFFF) ? rv : (entry & ADDR_MASK);
    // SP is undefined after reset: 0 until the program sets it; the high-water mark
    // counts from the first value it sets (normally the top of the stack, by crt0).
    M.r[1] = 0;
    M.sp_min = 0xFFFFFFFFu;
    M.sp_max = 0;
    M.trace_hash = 0xcbf29ce484222325ull;
    if (trace_path) {
        M.trace_file = fopen(trace_path, "w");
        if (!M.trace_file) {
            fprintf(stderr, "msp430sim: cannot write %s\n", trace_path);
            return ST_USAGE;
        }
    }
    M.trace = trace_path || trace_hash;
    if (profile) {
        if (elf_symbols(elf, profile_symbol) != 0) return ST_LOAD;
        if (profile_start(profile_path) != 0) return ST_USAGE;
    }

    M.t0 = sim_seconds();
    cpu_run();
    fflush(stdout);
    if (M.trace) trace_finish();
    print_reports();
    return M.exit_status;
}
