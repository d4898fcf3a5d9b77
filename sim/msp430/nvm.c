// SPDX-License-Identifier: MIT
// Non-volatile memory images and power cuts (nvm.h). A power cut is the fault
// injector's counting (inject.c) with one more kind, INJ_CUT: the run stops before the
// counted instruction, so memory holds exactly what the instructions before it wrote;
// the dump taken at exit is then the FRAM as it was at the cut.
#include <stdlib.h>
#include <string.h>

#include "inject.h"
#include "nvm.h"
#include "sim.h"

static const char *load_path, *dump_path;
static uint32_t load_addr, dump_addr, dump_len;

// "A:B..." -> A (decimal or 0x hex) and the rest after the colon, or NULL.
static const char *split_num(const char *s, uint32_t *v)
{
    char *end;
    if (!(s[0] >= '0' && s[0] <= '9')) return NULL;
    unsigned long long x = strtoull(s, &end, 0);
    if (*end != ':' || x >= MEM_SIZE) return NULL;
    *v = (uint32_t)x;
    return end + 1;
}

int nvm_option(int argc, char **argv, int *i, void (*usage)(void))
{
    const char *a = argv[*i], *rest;
    if (*i + 1 >= argc) return 0;
    if (!strcmp(a, "--nvm-load")) {
        rest = split_num(argv[++*i], &load_addr);
        if (!rest || !*rest) usage();
        load_path = rest;
    } else if (!strcmp(a, "--nvm-dump")) {
        rest = split_num(argv[++*i], &dump_addr);
        if (!rest || !(rest = split_num(rest, &dump_len)) || !*rest || dump_len == 0 ||
            dump_len > MEM_SIZE - dump_addr)
            usage();
        dump_path = rest;
    } else if (!strcmp(a, "--power-cut")) {
        char *end;
        const char *s = argv[++*i];
        if (!(s[0] >= '0' && s[0] <= '9')) usage();
        INJ.at = strtoull(s, &end, 0);
        if (*end || INJ.kind != INJ_NONE) usage();
        INJ.kind = INJ_CUT;
        INJ.enabled = 1;
    } else {
        return 0;
    }
    return 1;
}

static void dump(void)
{
    FILE *f = fopen(dump_path, "wb");
    if (!f || fwrite(mem + dump_addr, 1, dump_len, f) != dump_len || fclose(f) != 0)
        fprintf(stderr, "msp430sim: cannot write %s\n", dump_path);
}

int nvm_start(void)
{
    if (load_path) {
        FILE *f = fopen(load_path, "rb");
        if (!f) {
            fprintf(stderr, "msp430sim: cannot read %s\n", load_path);
            return ST_USAGE;
        }
        size_t n = fread(mem + load_addr, 1, MEM_SIZE - load_addr, f);
        fclose(f);
        for (size_t k = 0; k < n; k++)
            if (page_kind[(load_addr + k) >> 8] != PG_FRAM) {
                fprintf(stderr, "msp430sim: --nvm-load: 0x%05x is not FRAM\n", (unsigned)(load_addr + k));
                return ST_USAGE;
            }
    }
    if (dump_path) atexit(dump);   // also after sim_fault's exit(): errors and power cuts
    return 0;
}
