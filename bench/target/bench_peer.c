/* SPDX-License-Identifier: MIT */
/* Peer bench firmware: Monocypher's X25519 (crypto_x25519, from the pymonocypher 4.0.3.4
 * source distribution that `make bench` downloads into the build tree; never committed)
 * on the same board, flags and cycle counter as bench.c, so that its row sits beside
 * ours in the same run. Same output format as bench.c:
 *   bench overhead=N
 *   bench op=x25519 runs=N min=A median=B max=C stack=S
 *   bench done
 * Only the board interface (hal.h) and the peer's header; no motebox code. */
#include <stdint.h>
#include "hal.h"
#include "common/tprint.h"
#include "monocypher.h"

#ifndef BENCH_RUNS_SLOW
#define BENCH_RUNS_SLOW 3u
#endif

static uint8_t sk[32], pk[32], out[32];

static void op_empty(void) {}
static void op_x25519(void) { crypto_x25519(out, sk, pk); }

/* Deterministic filler (xorshift32), as bench.c: inputs need only not be special. */
static uint32_t seed = 0x2545F491u;
static void fill(uint8_t *p, unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++) {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        p[i] = (uint8_t)seed;
    }
}

static uint32_t measure(void (*fn)(void))
{
    uint32_t t0 = hal_cycles();
    fn();
    return hal_cycles() - t0;
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

int main(void)
{
    uint32_t c[BENCH_RUNS_SLOW], overhead;
    unsigned k;
    size_t stack;
    uint8_t b[32];

    fill(sk, 32);
    fill(b, 32);
    crypto_x25519_public_key(pk, b);
    for (k = 0; k < BENCH_RUNS_SLOW; k++) c[k] = measure(op_empty);
    sort(c, BENCH_RUNS_SLOW);
    overhead = c[0];
    tp_str("bench overhead=");
    tp_u32(overhead);
    tp_nl();

    hal_stack_paint();
    op_x25519();
    stack = hal_stack_used();
    for (k = 0; k < BENCH_RUNS_SLOW; k++) c[k] = measure(op_x25519) - overhead;
    sort(c, BENCH_RUNS_SLOW);
    tp_str("bench op=x25519");
    field("runs", BENCH_RUNS_SLOW);
    field("min", c[0]);
    field("median", c[BENCH_RUNS_SLOW / 2]);
    field("max", c[BENCH_RUNS_SLOW - 1]);
    field("stack", (uint32_t)stack);
    tp_nl();
    tp_str("bench done");
    tp_nl();
    return 0;
}
