/* SPDX-License-Identifier: MIT */
/* Portable bench firmware: for each operation, cycles (min / median / max over N runs,
 * from hal_cycles) and stack (hal_stack_paint / hal_stack_used around one call; inputs
 * and outputs are static buffers, so the caller's memory is not counted). One line per
 * operation, machine-readable:
 *   bench op=NAME runs=N min=A median=B max=C stack=S [bytes=L]
 * Cycles include the call (argument set-up, call, return: as [DS16] counts them);
 * the cost of reading the counter itself, measured on an empty call, is subtracted and
 * printed as `bench overhead=N` (the loop: bench_run.c). Small RAM (MSP430: 2 KB). */
#include <stdint.h>
#include "motebox.h"
#include "bench_run.h"
#include "field/fe25519.h"
#include "sym/salsa20.h"
#include "sym/poly1305.h"

#ifndef MB_HAVE_P256
#define MB_HAVE_P256 0
#endif
/* BENCH_P256_ONLY=1 measures the P-256 operations alone: a board whose flash cannot
 * hold both curves with their fixed-base tables (the MSP430FR5969's 48 KB below the
 * vectors) runs one image built with MB_HAVE_P256=0 and one with this. */
#ifndef BENCH_P256_ONLY
#define BENCH_P256_ONLY 0
#endif
#if BENCH_P256_ONLY && !MB_HAVE_P256
#error "BENCH_P256_ONLY needs MB_HAVE_P256"
#endif
#define BENCH_REST (!BENCH_P256_ONLY)
#ifndef BENCH_BOX_BYTES
#define BENCH_BOX_BYTES 1024u  /* box / secretbox message length; >= 64 (a smaller board may lower it) */
#endif

static uint8_t out[65];
#if BENCH_REST
static fe25519 fe_f, fe_g, fe_h;
static uint8_t sk[32], pk[32], rnd[32], nonce[24], key[32];
#endif
#if MB_HAVE_P256
static uint8_t p256_pk[65], p256_sk[32], p256_rnd[32];
#endif
/* The buffers the stream and box operations run over are word-aligned on purpose: the
 * stream's xor takes its word path only then, and otherwise the link's .bss layout
 * decides (a rename of library symbols once moved msg to 2 mod 4 on MSP430: +464
 * cycles per 64-byte update). */
#if defined(__GNUC__) || defined(__clang__)
#define BENCH_ALIGNED __attribute__((aligned(4)))
#else
#define BENCH_ALIGNED
#endif
#if BENCH_REST
static uint8_t msg[BENCH_BOX_BYTES + 16] BENCH_ALIGNED, box[BENCH_BOX_BYTES + 16] BENCH_ALIGNED;
static mb_box_stream stream BENCH_ALIGNED;
static poly1305_state poly;
#endif
static volatile int sink;

/* One wrapper per operation: gcc turns most into a tail call, so the measured call is
 * the library call with its arguments loaded. */
#if BENCH_REST
static void op_fe_add(void) { mb_fe25519_add(&fe_h, &fe_f, &fe_g); }
static void op_fe_sub(void) { mb_fe25519_sub(&fe_h, &fe_f, &fe_g); }
static void op_fe_mul(void) { mb_fe25519_mul(&fe_h, &fe_f, &fe_g); }
static void op_fe_sqr(void) { mb_fe25519_sqr(&fe_h, &fe_f); }
static void op_fe_mul121666(void) { mb_fe25519_mul121666(&fe_h, &fe_f); }
static void op_fe_invert(void) { mb_fe25519_invert(&fe_h, &fe_f); }
static void op_x25519(void) { sink = mb_x25519(out, sk, pk); }
static void op_x25519_randomized(void) { sink = mb_x25519_randomized(out, sk, pk, rnd); }
static void op_x25519_base(void) { sink = mb_x25519_base(out, sk); }
#endif
#if MB_HAVE_P256
static void op_p256_base(void) { sink = mb_p256_base(out, p256_sk); }
static void op_p256_ecdh(void) { sink = mb_p256_ecdh(out, p256_sk, p256_pk, 65); }
static void op_p256_ecdh_randomized(void)
{
    sink = mb_p256_ecdh_randomized(out, p256_sk, p256_pk, 65, p256_rnd);
}
#endif
#if BENCH_REST
static void op_salsa20_block(void) { mb_salsa20_block(msg, nonce, key); }
static void op_poly1305_16(void) { mb_poly1305_update(&poly, msg, 16); }
static void op_box_stream_64(void) { sink = mb_box_stream_update(&stream, msg, msg, 64); }
static void op_secretbox(void) { sink = mb_secretbox(box, msg, BENCH_BOX_BYTES, nonce, key); }
static void op_box(void) { sink = mb_box(box, msg, BENCH_BOX_BYTES, nonce, pk, sk); }
#endif

static const struct bench_op ops[] = {
#if BENCH_REST
    {"fe_add", op_fe_add, 0, 0},
    {"fe_sub", op_fe_sub, 0, 0},
    {"fe_mul", op_fe_mul, 0, 0},
    {"fe_sqr", op_fe_sqr, 0, 0},
    {"fe_mul121666", op_fe_mul121666, 0, 0},
    {"fe_invert", op_fe_invert, 1, 0},
    {"x25519", op_x25519, 1, 0},
    {"x25519_randomized", op_x25519_randomized, 1, 0},
    {"x25519_base", op_x25519_base, 1, 0},
#endif
#if MB_HAVE_P256
    {"p256_base", op_p256_base, 1, 0},
    {"p256_ecdh", op_p256_ecdh, 1, 0},
    {"p256_ecdh_randomized", op_p256_ecdh_randomized, 1, 0},
#endif
#if BENCH_REST
    {"salsa20_block", op_salsa20_block, 0, 0},
    {"poly1305_16", op_poly1305_16, 0, 0},
    {"box_stream_64", op_box_stream_64, 0, 0},
    {"secretbox", op_secretbox, 1, BENCH_BOX_BYTES},
    {"box", op_box, 1, BENCH_BOX_BYTES},
#endif
};

static void setup(void)
{
    uint8_t b[32];
#if BENCH_REST
    bench_fill(b, 32);
    mb_fe25519_frombytes(&fe_f, b);
    bench_fill(b, 32);
    mb_fe25519_frombytes(&fe_g, b);
    bench_fill(sk, 32);
    bench_fill(rnd, 32);
    bench_fill(nonce, 24);
    bench_fill(key, 32);
    bench_fill(msg, sizeof msg);
    bench_fill(b, 32);
    sink = mb_x25519_base(pk, b);
    mb_box_stream_init(&stream, key, nonce);
    mb_poly1305_init(&poly, key);
#endif
#if MB_HAVE_P256
    bench_fill(p256_sk, 32);
    p256_sk[0] &= 0x7F;  /* below the group order */
    bench_fill(p256_rnd, 32);
    bench_fill(b, 32);
    b[0] &= 0x7F;
    sink = mb_p256_base(p256_pk, b);
#endif
}

int main(void)
{
    setup();
    bench_run(ops, sizeof ops / sizeof ops[0]);
    return 0;
}
