/* SPDX-License-Identifier: MIT */
/* Shared by the host bench programs (host_bench.c, host_bench_p256.c): a serialized TSC
 * read, and one JSON row of the bench schema (python/motebox_tools/bench/report.py). */
#ifndef MB_HOST_BENCH_H
#define MB_HOST_BENCH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

/* TSC ticks (constant rate, not core cycles); the fences keep the work inside. */
static uint64_t ticks(void)
{
    unsigned aux;
    uint64_t t;
    _mm_lfence();
    t = __rdtscp(&aux);
    _mm_lfence();
    return t;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int first_row = 1;

/* Print one row (min/median/max of the runs samples, sorted in place). */
static void row(const char *op, const char *impl, uint64_t *v, int runs)
{
    qsort(v, (size_t)runs, sizeof v[0], cmp_u64);
    printf("%s\n    {\"op\": \"%s\", \"impl\": \"%s\", \"cycles\": {\"min\": %llu, \"median\": %llu, "
           "\"max\": %llu}, \"unit\": \"TSC ticks\", \"code\": null, \"stack\": null, \"reference\": null}",
           first_row ? "" : ",", op, impl, (unsigned long long)v[0],
           (unsigned long long)v[runs / 2], (unsigned long long)v[runs - 1]);
    first_row = 0;
}

static void cpu_model(char *buf, size_t n)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    snprintf(buf, n, "unknown CPU");
    if (!f) return;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *p = strchr(line, ':');
            if (p) {
                p += 2;
                p[strcspn(p, "\n")] = 0;
                snprintf(buf, n, "%s", p);
            }
            break;
        }
    }
    fclose(f);
}

#endif
