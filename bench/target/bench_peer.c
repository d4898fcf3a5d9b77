/* SPDX-License-Identifier: MIT */
/* Peer bench firmware: Monocypher's X25519 (crypto_x25519, from the pymonocypher 4.0.3.4
 * source distribution that `make bench` downloads into the build tree; never committed)
 * on the same board, flags and cycle counter as bench.c, so that its row sits beside
 * ours in the same run. Same output format as bench.c:
 *   bench overhead=N
 *   bench op=x25519 runs=N min=A median=B max=C stack=S
 *   bench done
 * Only the bench loop (bench_run.c), the board and the peer's header; no motebox code. */
#include <stdint.h>
#include "bench_run.h"
#include "monocypher.h"

static uint8_t sk[32], pk[32], out[32];

static void op_x25519(void) { crypto_x25519(out, sk, pk); }

static const struct bench_op ops[] = {{"x25519", op_x25519, 1, 0}};

int main(void)
{
    uint8_t b[32];
    bench_fill(sk, 32);
    bench_fill(b, 32);
    crypto_x25519_public_key(pk, b);
    bench_run(ops, 1);
    return 0;
}
