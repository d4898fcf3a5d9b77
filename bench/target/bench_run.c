/* SPDX-License-Identifier: MIT */
/* The measuring loop of the bench firmware (bench_run.h). */
#include "bench_run.h"
#include "hal.h"
#include "common/tprint.h"

static uint32_t seed = 0x2545F491u;
void bench_fill(uint8_t *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        p[i] = (uint8_t)seed;
    }
}

static void op_empty(void) {}

static uint32_t measure(void (*fn)(void))
{
    uint32_t t0, t1;
    t0 = hal_cycles();
    fn();
    t1 = hal_cycles();
    return t1 - t0;
}

static void sort(uint32_t *v, unsigned n)
{
    unsigned i, j;
    for (i = 1; i < n; i++) {
        uint32_t x = v[i];
        for (j = i; j > 0 && v[j - 1] > x; j--) v[j] = v[j - 1];
        v[j] = x;
    }
}

static void field(const char *name, uint32_t v)
{
    tp_str(" ");
    tp_str(name);
    tp_str("=");
    tp_u32(v);
}

void bench_run(const struct bench_op *ops, unsigned count)
{
    uint32_t c[BENCH_RUNS > BENCH_RUNS_SLOW ? BENCH_RUNS : BENCH_RUNS_SLOW];
    uint32_t overhead;
    unsigned i, k, n;
    size_t stack;

    for (k = 0; k < BENCH_RUNS; k++) c[k] = measure(op_empty);
    sort(c, BENCH_RUNS);
    overhead = c[0];
    tp_str("bench overhead=");
    tp_u32(overhead);
    tp_nl();

    for (i = 0; i < count; i++) {
        n = ops[i].slow ? BENCH_RUNS_SLOW : BENCH_RUNS;
        hal_stack_paint();
        ops[i].fn();
        stack = hal_stack_used();
        for (k = 0; k < n; k++) c[k] = measure(ops[i].fn) - overhead;
        sort(c, n);
        tp_str("bench op=");
        tp_str(ops[i].name);
        field("runs", n);
        field("min", c[0]);
        field("median", c[n / 2]);
        field("max", c[n - 1]);
        field("stack", (uint32_t)stack);
        if (ops[i].bytes) field("bytes", ops[i].bytes);
        tp_nl();
    }
    tp_str("bench done");
    tp_nl();
}
