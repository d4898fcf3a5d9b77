/* SPDX-License-Identifier: MIT */
/* The bench firmware's measuring loop, shared by bench.c (motebox) and bench_peer.c
 * (a peer library on the same board): hal.h and tprint only, no library code. */
#ifndef BENCH_RUN_H
#define BENCH_RUN_H

#include <stddef.h>
#include <stdint.h>

#ifndef BENCH_RUNS
#define BENCH_RUNS 15u      /* cheap operations */
#endif
#ifndef BENCH_RUNS_SLOW
#define BENCH_RUNS_SLOW 3u  /* scalar multiplications, inversion */
#endif

struct bench_op {
    const char *name;
    void (*fn)(void);
    uint8_t slow;
    uint16_t bytes;  /* message length for the box operations, else 0 */
};

/* Deterministic filler (xorshift32): inputs need not be random, only not special. */
void bench_fill(uint8_t *p, size_t n);

/* Prints `bench overhead=N`, then for each operation
 *   bench op=NAME runs=N min=A median=B max=C stack=S [bytes=L]
 * (cycles minus the overhead of reading the counter around an empty call), then
 * `bench done`. */
void bench_run(const struct bench_op *ops, unsigned n);

#endif
