/* SPDX-License-Identifier: MIT */
/* Host benchmark: TSC ticks per operation for one field backend (the radix of the
 * libmotebox.a it is linked to, MB_RADIX) beside the system libsodium. Writes one part of
 * bench/results/host.json (schema: python/motebox_tools/bench/report.py) to stdout; the
 * make step runs it once per radix and merges the parts op by op.
 *
 * Usage: host_bench "COMPILER AND FLAGS" [runs] [ref]
 *   ref: also time libsodium (interleaved call by call with motebox) and print its rows. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "motebox.h"
#include "host_bench.h"

#if MB_RADIX == 16
#define MB_IMPL_NAME "portable r16 (16x16-bit limbs)"
#elif MB_RADIX == 25
#define MB_IMPL_NAME "portable r25 (10x25.5-bit limbs)"
#elif MB_RADIX == 32
#define MB_IMPL_NAME "portable r32 (8x32-bit limbs)"
#elif MB_RADIX == 64
#define MB_IMPL_NAME "portable r64 (5x51-bit limbs)"
#else
#error "build with -DMB_RADIX=16, 25, 32 or 64 (the radix of the linked libmotebox.a)"
#endif

struct impl {
    const char *name;
    int (*x25519)(uint8_t *, const uint8_t *, const uint8_t *);
    int (*x25519_base)(uint8_t *, const uint8_t *);
    int (*x25519_randomized)(uint8_t *, const uint8_t *, const uint8_t *, const uint8_t *);
    int (*box)(uint8_t *, const uint8_t *, size_t, const uint8_t *, const uint8_t *, const uint8_t *);
    int (*box_open)(uint8_t *, const uint8_t *, size_t, const uint8_t *, const uint8_t *, const uint8_t *);
    int (*secretbox)(uint8_t *, const uint8_t *, size_t, const uint8_t *, const uint8_t *);
    void (*stream_init)(mb_box_stream *, const uint8_t *, const uint8_t *);
    int (*stream_update)(mb_box_stream *, uint8_t *, const uint8_t *, size_t);
    int (*stream_final)(mb_box_stream *, uint8_t *);
};

/* libsodium through the same signatures. */
static int so_x25519(uint8_t *o, const uint8_t *k, const uint8_t *u) { return crypto_scalarmult(o, k, u); }
static int so_x25519_base(uint8_t *o, const uint8_t *k) { return crypto_scalarmult_base(o, k); }
static int so_box(uint8_t *c, const uint8_t *m, size_t n, const uint8_t *nn, const uint8_t *pk, const uint8_t *sk)
{ return crypto_box_easy(c, m, n, nn, pk, sk); }
static int so_box_open(uint8_t *m, const uint8_t *c, size_t n, const uint8_t *nn, const uint8_t *pk, const uint8_t *sk)
{ return crypto_box_open_easy(m, c, n, nn, pk, sk); }
static int so_secretbox(uint8_t *c, const uint8_t *m, size_t n, const uint8_t *nn, const uint8_t *k)
{ return crypto_secretbox_easy(c, m, n, nn, k); }

#define MAXRUNS 2001
#define NIMPL 2
static uint64_t samples[NIMPL][MAXRUNS];
static uint8_t sk[32], pk[32], pk2[32], out[32], rnd[32], nonce[24], key[32];
static uint8_t msg[4096], ct[4096 + 16], pt[4096];
static volatile int sink;

enum { OP_X25519, OP_BASE, OP_RND, OP_BOX, OP_BOX_OPEN, OP_SECRETBOX, OP_STREAM, NOPS };
static const char *const op_names[NOPS] = { "x25519", "x25519_base", "x25519 randomized",
    "box 1 KiB", "box_open 1 KiB", "secretbox 1 KiB", "stream 4 KiB (64 B chunks)" };

/* 1 if im implements op (libsodium's stream row is its one-shot secretbox). */
static int has(const struct impl *im, int op)
{
    switch (op) {
    case OP_X25519: case OP_BASE: return 1;
    case OP_RND: return im->x25519_randomized != NULL;
    case OP_BOX: return im->box != NULL;
    case OP_BOX_OPEN: return im->box != NULL && im->box_open != NULL;
    case OP_SECRETBOX: return im->secretbox != NULL;
    default: return (im->stream_init && im->stream_update && im->stream_final) || im->secretbox;
    }
}

static void run_once(const struct impl *im, int op)
{
    mb_box_stream st;
    size_t off;
    switch (op) {
    case OP_X25519: sink += im->x25519(out, sk, pk); break;
    case OP_BASE: sink += im->x25519_base(out, sk); break;
    case OP_RND: sink += im->x25519_randomized(out, sk, pk, rnd); break;
    case OP_BOX: sink += im->box(ct, msg, 1024, nonce, pk2, sk); break;
    case OP_BOX_OPEN: sink += im->box_open(pt, ct, 1024 + 16, nonce, pk2, sk); break;
    case OP_SECRETBOX: sink += im->secretbox(ct, msg, 1024, nonce, key); break;
    default:
        if (im->stream_init) {
            im->stream_init(&st, key, nonce);
            for (off = 0; off < 4096; off += 64) sink += im->stream_update(&st, ct + 16 + off, msg + off, 64);
            sink += im->stream_final(&st, ct);
        } else {
            sink += im->secretbox(ct, msg, 4096, nonce, key);
        }
    }
}

/* All implementations of one operation, interleaved call by call, so that load from
 * other processes on the machine hits them alike. */
static void bench_op(const struct impl *impls, int n, int op, int runs)
{
    int i, r;
    for (i = 0; i < n; i++) {
        if (!has(&impls[i], op)) continue;
        if (op == OP_BOX_OPEN) sink += impls[i].box(ct, msg, 1024, nonce, pk2, sk);
        for (r = 0; r < 5; r++) run_once(&impls[i], op);           /* warm-up */
    }
    for (r = 0; r < runs; r++)
        for (i = 0; i < n; i++) {
            uint64_t t0;
            if (!has(&impls[i], op)) continue;
            if (op == OP_BOX_OPEN) {
                /* box_open needs a box of this implementation's making (untimed). */
                sink += impls[i].box(ct, msg, 1024, nonce, pk2, sk);
            }
            t0 = ticks();
            run_once(&impls[i], op);
            samples[i][r] = ticks() - t0;
        }
    for (i = 0; i < n; i++) {
        if (!has(&impls[i], op)) continue;
        row(op_names[op], (op == OP_STREAM && !impls[i].stream_init)
                ? "libsodium one-shot crypto_secretbox_easy (it has no streaming API)"
                : impls[i].name, samples[i], runs);
    }
}

int main(int argc, char **argv)
{
    const char *cc = argc > 1 ? argv[1] : "cc -O2";
    int runs = 201, nimpl = 1, op, r, i;
    char cpu[160], so_name[64];
    struct impl impls[NIMPL] = { { MB_IMPL_NAME, mb_x25519, mb_x25519_base, mb_x25519_randomized,
                                   mb_box, mb_box_open, mb_secretbox, mb_box_stream_init,
                                   mb_box_stream_update, mb_box_stream_final },
                                 { so_name, so_x25519, so_x25519_base, NULL, so_box, so_box_open,
                                   so_secretbox, NULL, NULL, NULL } };

    for (i = 2; i < argc; i++) {
        if (strcmp(argv[i], "ref") == 0) nimpl = 2;
        else runs = atoi(argv[i]);
    }
    if (runs < 11 || runs > MAXRUNS) runs = 201;
    if (sodium_init() < 0) return 1;
    snprintf(so_name, sizeof so_name, "libsodium %s (system)", sodium_version_string());
    randombytes_buf(sk, sizeof sk);
    randombytes_buf(rnd, sizeof rnd);
    randombytes_buf(nonce, sizeof nonce);
    randombytes_buf(key, sizeof key);
    randombytes_buf(msg, sizeof msg);
    crypto_scalarmult_base(pk, rnd);
    randombytes_buf(rnd, sizeof rnd);
    crypto_scalarmult_base(pk2, rnd);
    randombytes_buf(rnd, sizeof rnd);

    cpu_model(cpu, sizeof cpu);
    printf("{\"target\": \"host\", \"title\": \"Host (x86-64), motebox backends beside libsodium\",\n");
    printf(" \"conditions\": \"%s; TSC ticks via rdtscp (constant-rate timestamp counter, not core "
           "clock cycles) per call, min/median/max over %d runs (x4 for secretbox and stream) after "
           "5 warm-up runs, one process per motebox radix (each linked to that radix's static "
           "archive), libsodium interleaved call by call with one radix in its process, on a "
           "shared machine (max includes preemption); motebox: "
           "%s, static archives; libsodium: the system build (its own optimized code paths)\",\n",
           cpu, runs, cc);
    printf(" \"rows\": [");
    for (op = 0; op < NOPS; op++) {
        r = (op == OP_SECRETBOX || op == OP_STREAM) ? runs * 4 : runs;
        bench_op(impls, nimpl, op, r > MAXRUNS ? MAXRUNS : r);
    }
    printf("\n]}\n");
    return sink == 12345 ? 0 : 0;
}
