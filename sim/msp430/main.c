// SPDX-License-Identifier: MIT
// msp430sim [--mpy 32|16] [--cycles] [--stack] [--trace FILE] [--trace-hash]
//           [--max-cycles N] [--stats] FIRMWARE.elf
// Runs an MSP430FR5969 firmware image; console to stdout, exit status = the
// program's (SIM_EXIT) or 201..209 for simulator errors (see sim.h).
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim.h"

static double now_seconds(void)
{
    return (double)clock() / CLOCKS_PER_SEC;
}

void print_reports(void)
{
    if (M.want_cycles) fprintf(stderr, "cycles: %llu\n", (unsigned long long)M.cyc);
    if (M.want_stack) fprintf(stderr, "stack: %u\n", M.sp_max ? M.sp_max - M.sp_min : 0);
    if (M.want_stats) {
        double secs = now_seconds() - M.t0;
        fprintf(stderr, "instructions: %llu\nseconds: %.3f\nmips: %.1f\n", (unsigned long long)M.insns, secs,
                secs > 0 ? (double)M.insns / secs / 1e6 : 0.0);
    }
}

static void usage(void)
{
    fprintf(stderr, "usage: msp430sim [--mpy 32|16] [--cycles] [--stack] [--trace FILE] [--trace-hash]\n"
                    "                 [--max-cycles N] [--stats] FIRMWARE.elf\n");
    exit(ST_USAGE);
}

int main(int argc, char **argv)
{
    const char *elf = NULL, *trace_path = NULL;
    int trace_hash = 0;
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
        else if (!strcmp(a, "--max-cycles") && i + 1 < argc) {
            char *end;
            M.max_cycles = strtoull(argv[++i], &end, 0);
            if (*end) usage();
        } else if (a[0] == '-') usage();
        else if (!elf) elf = a;
        else usage();
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

    M.t0 = now_seconds();
    cpu_run();
    fflush(stdout);
    if (M.trace) trace_finish();
    print_reports();
    return M.exit_status;
}
