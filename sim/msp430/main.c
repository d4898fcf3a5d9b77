// SPDX-License-Identifier: MIT
// msp430sim [--mpy 32|16] [--cycles] [--stack] [--trace FILE] [--trace-hash]
//           [--max-cycles N] [--stats] [--profile [FILE]] [--fault-* ...]
//           [--leak FILE [--leak-* ...]] FIRMWARE.elf
// Runs an MSP430FR5969 firmware image; console to stdout, exit status = the
// program's (SIM_EXIT) or 201..210 for simulator errors (see sim.h, --help).
// The command line and the order of start-up; the modules do the work.
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "elf.h"
#include "inject.h"
#include "leak.h"
#include "mem.h"
#include "mpy.h"
#include "nvm.h"
#include "profile.h"
#include "report.h"
#include "sim.h"
#include "snap.h"
#include "trace.h"

#define LEAK_DEFAULT_SAMPLES 10000000 // --leak-samples: 40 MB of float32

static const char USAGE[] =
    "usage: msp430sim [--mpy 32|16] [--cycles] [--stack] [--trace FILE] [--trace-hash]\n"
    "                 [--max-cycles N] [--stats] [--profile [FILE]] [--protect-code]\n"
    "                 [--fault-window B:E] [--fault-range LO:HI]... [--fault-count]\n"
    "                 [--fault-list FILE] [--fault-skip N | --fault-flip N:REG:BIT |\n"
    "                  --fault-load N:BIT | --fault-batch IN OUT] [--power-cut N]\n"
    "                 [--nvm-load ADDR:FILE] [--nvm-dump ADDR:LEN:FILE]\n"
    "                 [--leak FILE [--leak-window B:E] [--leak-samples N] [--leak-u8]\n"
    "                  [--leak-noise SIGMA] [--leak-seed S]\n"
    "                  [--leak-batch FILE --leak-patch ADDR:LEN [--leak-full K]]] FIRMWARE.elf\n";

static void usage(void)
{
    fputs(USAGE, stderr);
    exit(ST_USAGE);
}

static void help(void)
{
    printf("%s\nRuns an MSP430FR5969 firmware image (docs/MSP430_TIMING.md); console on stdout.\n"
           "  --max-cycles N  cycle budget, default %llu; 0 = none\n"
           "  --protect-code  a write into the image's executable sections stops the run\n"
           "                  (213), as on a part whose MPU denies the code segment writes\n"
           "Fault injection (docs/FAULTS.md); addresses and counts decimal or 0x hex:\n"
           "  --fault-window B:E    count from the first instruction at B up to (excluding)\n"
           "                        the first at E (default: the whole run)\n"
           "  --fault-range LO:HI   count only instructions with LO <= PC < HI (repeatable, <= %d)\n"
           "  --fault-count         print 'fault-window: N' (counted instructions) at exit\n"
           "  --fault-list FILE     one line per counted instruction: 'index pc dest load'\n"
           "                        (dest: register written, -1 none; load: 1 if it reads data)\n"
           "  --fault-skip N        skip counted instruction N (from 0): no register or\n"
           "                        memory effect, PC moves past it\n"
           "  --fault-flip N:REG:BIT  flip BIT (0..19) of register REG (0..15, or d = the\n"
           "                        register instruction N wrote, SR if it only set flags) after N\n"
           "  --fault-load N:BIT    flip BIT of the first value instruction N reads from memory\n"
           "  --fault-batch IN OUT  many faults in one run: forks at each fault's instruction;\n"
           "                        IN: 'skip N' | 'flip N BIT' | 'load N BIT' per line; OUT:\n"
           "                        per line 'line status nbytes' and that run's console\n"
           "  --fault-ref-cycles N  with --fault-batch: the unfaulted run's cycles; a fault's\n"
           "                        run stops after 4x what was left of them, plus 1,000,000\n"
           "  --fault-snap-out FILE --fault-snap-every K  (unfaulted run) write the whole\n"
           "                        machine state before every K-th counted instruction\n"
           "  --fault-snap-in FILE  (faulted runs) a run whose state equals FILE's at such an\n"
           "                        instruction after its fault ends there, status 212\n"
           "  The injection is reported on stderr: 'fault-injected: ...'.\n"
           "Leakage model (docs/SIDE_CHANNELS.md), one sample per instruction:\n"
           "  --leak FILE           write the samples to FILE (float32 little-endian): the\n"
           "                        Hamming weight of each register/memory write plus the\n"
           "                        Hamming distance of successive data-bus values\n"
           "  --leak-window B:E     from the first instruction at B up to (excluding) the\n"
           "                        first at E (E = 0: no end; default: the whole run)\n"
           "  --leak-samples N      at most N samples per run (default %d)\n"
           "  --leak-u8             one byte per sample (rounded, saturated at 255)\n"
           "  --leak-noise SIGMA    add Gaussian noise of standard deviation SIGMA\n"
           "  --leak-seed S         noise seed (record i of a batch uses S + i)\n"
           "  --leak-batch FILE     one run per LEN-byte record of FILE, written at ADDR\n"
           "  --leak-patch ADDR:LEN (--leak-patch) after a reset of CPU, memory and\n"
           "                        peripherals; exactly N samples each (zero padded);\n"
           "                        stdout: each run's console, then 'leak-record I status\n"
           "                        S|stop samples K cycles C'\n"
           "  --leak-full K         records 0..K-1 run to their end, later ones stop when\n"
           "                        their window ends (default: all run to the end)\n\n"
           "Exit status: the program's (value written to SIM_EXIT, 0..199), or a simulator error\n"
           "(one line 'msp430sim: error at PC 0xPPPPP: ... (after N cycles)' or 'msp430sim: FILE: ...'):\n"
           "  201 illegal or reserved instruction        206 cycle budget spent (endless loop?)\n"
           "  202 access or instruction fetch outside    207 ELF unreadable, malformed, truncated\n"
           "      the map, write to ROM                      or not an MSP430 executable\n"
           "  203 word access at an odd address          208 bad command line\n"
           "  204 stack overflow: SP below               209 the program hangs (jump to itself\n"
           "      SIM_STACK_LIMIT or the image's data        with GIE = 0, CPUOFF)\n"
           "  205 multiplier misuse                      210 a section outside RAM/FRAM\n"
           "  211 power cut (--power-cut N; nvm.h)      212 converged (--fault-snap-in)\n"
           "  213 write into the code (--protect-code)\n",
           USAGE, (unsigned long long)SIM_DEFAULT_MAX_CYCLES, INJ_MAX_RANGES, LEAK_DEFAULT_SAMPLES);
    exit(0);
}

// A decimal or 0x cycle count, digits only (strtoull alone would take "-1").
static uint64_t parse_count(const char *s)
{
    char *end;
    if (!(s[0] >= '0' && s[0] <= '9')) usage();
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end || errno) usage();
    return v;
}

// "A:B" as two counts.
static void parse_pair(const char *s, uint64_t *a, uint64_t *b)
{
    const char *c = strchr(s, ':');
    if (!c || c == s) usage();
    char first[32];
    size_t n = (size_t)(c - s);
    if (n >= sizeof first) usage();
    memcpy(first, s, n);
    first[n] = 0;
    *a = parse_count(first);
    *b = parse_count(c + 1);
}

// A non-negative decimal number (--leak-noise).
static double parse_real(const char *s)
{
    char *end;
    if (!(s[0] >= '0' && s[0] <= '9')) usage();
    double v = strtod(s, &end);
    if (*end || !(v >= 0 && v < 1e9)) usage();
    return v;
}

static void set_fault(int kind)
{
    if (INJ.kind != INJ_NONE) usage(); // one fault per run
    INJ.kind = kind;
    INJ.enabled = 1;
}

// --fault-flip N:REG:BIT, REG 0..15 or d.
static void parse_flip(const char *s)
{
    const char *c1 = strchr(s, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c1 || !c2) usage();
    char buf[32];
    size_t n = (size_t)(c1 - s);
    if (!n || n >= sizeof buf) usage();
    memcpy(buf, s, n);
    buf[n] = 0;
    INJ.at = parse_count(buf);
    n = (size_t)(c2 - c1 - 1);
    if (!n || n >= sizeof buf) usage();
    memcpy(buf, c1 + 1, n);
    buf[n] = 0;
    if (!strcmp(buf, "d")) INJ.reg = INJ_REG_DEST;
    else {
        uint64_t r = parse_count(buf);
        if (r > 15) usage();
        INJ.reg = (int)r;
    }
    uint64_t bit = parse_count(c2 + 1);
    if (bit > 19) usage();
    INJ.bit = (int)bit;
    set_fault(INJ_FLIP);
}

static elf_info_t info;

// The reset state of CPU, peripherals and the counters (memory holds the image).
static void boot(void)
{
    mem_init();
    mpy_reset();
    memset(M.r, 0, sizeof M.r);
    M.cyc = M.now = M.insns = 0;
    M.halted = 0;
    M.exit_status = 0;
    M.cyc_hi_latch = 0;
    M.stack_limit = 0;
    M.stack_auto = 0;
    M.stack_floor = info.stack_floor;
    // Reset: PC from the reset vector (0xFFFE) if the image sets it.
    uint32_t rv = (uint32_t)mem[0xFFFE] | ((uint32_t)mem[0xFFFF] << 8);
    M.r[0] = ((rv != 0 && rv != 0xFFFF) ? rv : info.entry) & ADDR_MASK & ~1u;
    // SP is undefined after reset: 0 until the program sets it; the high-water mark
    // counts from the first value it sets (normally the top of the stack, by crt0).
    M.r[1] = 0;
    M.sp_min = 0xFFFFFFFFu;
    M.sp_max = 0;
}

int main(int argc, char **argv)
{
    const char *elf = NULL, *trace_path = NULL, *profile_path = NULL, *fault_list = NULL;
    const char *batch_in = NULL, *batch_out = NULL, *snap_out = NULL, *snap_in = NULL;
    uint64_t snap_k = 0;
    uint64_t batch_ref = 0;
    int trace_hash = 0, profile = 0, profile_took_elf = 0, protect_code = 0;
    M.max_cycles = SIM_DEFAULT_MAX_CYCLES;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) help();
        else if (!strcmp(a, "--mpy") && i + 1 < argc) {
            const char *v = argv[++i];
            if (!strcmp(v, "16")) M.mpy16 = 1;
            else if (!strcmp(v, "32")) M.mpy16 = 0;
            else usage();
        } else if (!strcmp(a, "--cycles")) M.want_cycles = 1;
        else if (!strcmp(a, "--stack")) M.want_stack = 1;
        else if (!strcmp(a, "--stats")) M.want_stats = 1;
        else if (!strcmp(a, "--protect-code")) protect_code = 1;
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
        } else if (!strcmp(a, "--max-cycles") && i + 1 < argc) M.max_cycles = parse_count(argv[++i]);
        else if (!strcmp(a, "--fault-window") && i + 1 < argc) {
            uint64_t b, e;
            parse_pair(argv[++i], &b, &e);
            INJ.begin = (uint32_t)b & ADDR_MASK;
            INJ.end = (uint32_t)e & ADDR_MASK;
            INJ.have_window = 1;
            INJ.enabled = 1;
        } else if (!strcmp(a, "--fault-range") && i + 1 < argc) {
            uint64_t lo, hi;
            parse_pair(argv[++i], &lo, &hi);
            if (INJ.nranges == INJ_MAX_RANGES) usage();
            INJ.lo[INJ.nranges] = (uint32_t)lo;
            INJ.hi[INJ.nranges++] = (uint32_t)hi;
            INJ.enabled = 1;
        } else if (!strcmp(a, "--fault-count")) INJ.want_count = INJ.enabled = 1;
        else if (!strcmp(a, "--fault-list") && i + 1 < argc) {
            fault_list = argv[++i];
            INJ.want_count = INJ.enabled = 1;
        } else if (!strcmp(a, "--fault-batch") && i + 2 < argc) {
            batch_in = argv[++i];
            batch_out = argv[++i];
        } else if (!strcmp(a, "--fault-snap-out") && i + 1 < argc) {
            snap_out = argv[++i];
            INJ.enabled = 1;
        } else if (!strcmp(a, "--fault-snap-every") && i + 1 < argc) {
            snap_k = parse_count(argv[++i]);
        } else if (!strcmp(a, "--fault-snap-in") && i + 1 < argc) {
            snap_in = argv[++i];
            INJ.enabled = 1;
        } else if (!strcmp(a, "--fault-ref-cycles") && i + 1 < argc) {
            batch_ref = parse_count(argv[++i]);
        } else if (!strcmp(a, "--fault-skip") && i + 1 < argc) {
            INJ.at = parse_count(argv[++i]);
            set_fault(INJ_SKIP);
        } else if (!strcmp(a, "--fault-flip") && i + 1 < argc) parse_flip(argv[++i]);
        else if (!strcmp(a, "--fault-load") && i + 1 < argc) {
            uint64_t bit;
            parse_pair(argv[++i], &INJ.at, &bit);
            if (bit > 15) usage();
            INJ.bit = (int)bit;
            set_fault(INJ_LOAD);
        } else if (!strcmp(a, "--leak") && i + 1 < argc) LEAK.path = argv[++i];
        else if (!strcmp(a, "--leak-window") && i + 1 < argc) {
            uint64_t b, e;
            parse_pair(argv[++i], &b, &e);
            LEAK.begin = (uint32_t)b & ADDR_MASK;
            LEAK.end = (uint32_t)e & ADDR_MASK;
            LEAK.have_window = 1;
        } else if (!strcmp(a, "--leak-samples") && i + 1 < argc) {
            LEAK.max_samples = parse_count(argv[++i]);
            if (!LEAK.max_samples) usage();
        } else if (!strcmp(a, "--leak-u8")) LEAK.u8 = 1;
        else if (!strcmp(a, "--leak-noise") && i + 1 < argc) LEAK.sigma = parse_real(argv[++i]);
        else if (!strcmp(a, "--leak-seed") && i + 1 < argc) LEAK.seed = parse_count(argv[++i]);
        else if (!strcmp(a, "--leak-batch") && i + 1 < argc) LEAK.batch = argv[++i];
        else if (!strcmp(a, "--leak-patch") && i + 1 < argc) {
            uint64_t addr, len;
            parse_pair(argv[++i], &addr, &len);
            if (!len || addr >= MEM_SIZE || len > MEM_SIZE - addr) usage();
            LEAK.patch_addr = (uint32_t)addr;
            LEAK.patch_len = (uint32_t)len;
        } else if (!strcmp(a, "--leak-full") && i + 1 < argc) LEAK.full = parse_count(argv[++i]);
        else if (nvm_option(argc, argv, &i, usage)) continue; // nvm.h: power cuts, NVM images
        else if (a[0] == '-') usage();
        else if (!elf) elf = a;
        else usage();
    }
    if (!elf && profile_took_elf) {
        elf = profile_path;
        profile_path = NULL;
    }
    if (!elf) usage();
    int leak_opts = LEAK.have_window || LEAK.max_samples || LEAK.u8 || LEAK.sigma > 0 || LEAK.batch ||
                    LEAK.patch_len || LEAK.full != UINT64_MAX;
    if (leak_opts && !LEAK.path) usage();
    // A batch run is the leakage model's alone: one stride per record, nothing else traced.
    if (LEAK.batch && (!LEAK.patch_len || !LEAK.max_samples || trace_path || trace_hash || profile ||
                       INJ.enabled))
        usage();
    if (!LEAK.max_samples) LEAK.max_samples = LEAK_DEFAULT_SAMPLES;

    static char outbuf[1 << 16];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    mem_init();
    mpy_reset();
    cpu_init();
    int rc = elf_load(elf, &info);
    if (rc) return rc;
    if (protect_code) {
        if (info.n_code > ELF_MAX_CODE) {
            fprintf(stderr, "msp430sim: %s: %u executable sections, --protect-code takes at most %d\n", elf,
                    info.n_code, ELF_MAX_CODE);
            return ST_USAGE;
        }
        code_protect(info.code_lo, info.code_hi, info.n_code);
    }
    boot();
    if ((rc = nvm_start()) != 0) return rc;
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
        if ((rc = elf_symbols(elf, profile_symbol)) != 0) return rc;
        if (profile_start(profile_path) != 0) return ST_USAGE;
    }

    if (batch_in) {
        const char *err = INJ.kind != INJ_NONE || fault_list ? "--fault-batch takes no other --fault-skip/flip/load/list"
                                                             : inject_batch_open(batch_in, batch_out, batch_ref);
        if (err) {
            fprintf(stderr, "msp430sim: %s\n", err);
            return ST_USAGE;
        }
    }
    if (snap_out || snap_in) { // after elf_load: the record holds the memory map's pages
        const char *err = (snap_out && snap_in) || (snap_out && (INJ.kind != INJ_NONE || batch_in)) ||
                                  (snap_in && fault_list) || (!snap_out) != (!snap_k)
                              ? "--fault-snap-out K (unfaulted) or --fault-snap-in (faulted), not both"
                          : snap_out ? snap_open_out(snap_out, snap_k)
                                     : snap_open_in(snap_in);
        if (err) {
            fprintf(stderr, "msp430sim: %s\n", err);
            return ST_USAGE;
        }
    }
    if (fault_list && !(INJ.list = fopen(fault_list, "w"))) {
        fprintf(stderr, "msp430sim: cannot write %s\n", fault_list);
        return ST_USAGE;
    }

    M.t0 = sim_seconds();
    if (LEAK.path) rc = leak_main(boot);
    else cpu_run();
    fflush(stdout);
    if (INJ.enabled) inject_finish();
    if (M.trace) trace_finish();
    print_reports();
    return LEAK.path ? rc : M.exit_status;
}
