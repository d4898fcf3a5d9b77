/* SPDX-License-Identifier: MIT */
/* Host benchmark of P-256: TSC ticks per mb_p256_base / mb_p256_ecdh for one field
 * backend (the radix of the libmotebox.a it is linked to, MB_RADIX) beside the system
 * OpenSSL (EVP API). Writes one part of bench/results/host.json (schema:
 * python/motebox_tools/bench/report.py) to stdout; the make step runs it once per radix.
 * OpenSSL rows: "base" is EVP_PKEY_keygen (a fresh random scalar times G, what OpenSSL
 * does to make a key pair); "ecdh" is EVP_PKEY_derive_init + set_peer (which validates
 * the peer key, as motebox does on every call) + derive.
 *
 * Usage: host_bench_p256 "COMPILER AND FLAGS" [runs] [ref]
 *   ref: also time OpenSSL (after motebox, same process) and print its rows. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include "motebox.h"
#include "host_bench.h"

#if MB_RADIX == 16
#define MB_IMPL_NAME "r16 (portable C, 16-bit limbs)"
#elif MB_RADIX == 25   /* P-256 is radix 32 in this build */
#define MB_IMPL_NAME "r25 (portable C, 32-bit limbs)"
#elif MB_RADIX == 32
#define MB_IMPL_NAME "r32 (portable C, 32-bit limbs)"
#elif MB_RADIX == 64
#define MB_IMPL_NAME "r64 (portable C, 64-bit limbs)"
#else
#error "build with -DMB_RADIX=16, 25, 32 or 64 (the radix of the linked libmotebox.a)"
#endif

struct impl {
    const char *name;
    int (*base)(uint8_t *, const uint8_t *);
    int (*ecdh)(uint8_t *, const uint8_t *, const uint8_t *, size_t);
    int (*ecdh_r)(uint8_t *, const uint8_t *, const uint8_t *, size_t, const uint8_t *);
    int (*compress)(uint8_t *, const uint8_t *);
};

static void fail(const char *what)
{
    fprintf(stderr, "host_bench_p256: %s failed\n", what);
    exit(1);
}

/* A valid scalar from a simple generator (values only need to be in range). */
static void scalar(uint8_t sk[32], uint32_t *seed)
{
    int i;
    for (i = 0; i < 32; i++) {
        *seed = *seed * 1664525u + 1013904223u;
        sk[i] = (uint8_t)(*seed >> 24);
    }
    sk[0] &= 0x7f;
    sk[31] |= 1;
}

static void bench_motebox(const struct impl *im, int runs, uint64_t *s)
{
    uint8_t sk[32], peer_sk[32], pk[65], pkc[33], out[65], rnd[32];
    char label[96];
    uint32_t seed = 1;
    uint64_t t;
    int i;

    scalar(peer_sk, &seed);
    if (im->base(pk, peer_sk) != 0 || im->compress(pkc, pk) != 0) fail("peer key");
    memset(rnd, 0x5a, sizeof rnd);

    for (i = 0; i < runs; i++) {
        scalar(sk, &seed);
        t = ticks();
        if (im->base(out, sk) != 0) fail("mb_p256_base");
        s[i] = ticks() - t;
    }
    snprintf(label, sizeof label, "motebox %s", im->name);
    row("p256_base", label, s, runs);
    for (i = 0; i < runs; i++) {
        scalar(sk, &seed);
        t = ticks();
        if (im->ecdh(out, sk, pk, sizeof pk) != 0) fail("mb_p256_ecdh");
        s[i] = ticks() - t;
    }
    row("p256_ecdh", label, s, runs);
    for (i = 0; i < runs; i++) {
        scalar(sk, &seed);
        t = ticks();
        if (im->ecdh(out, sk, pkc, sizeof pkc) != 0) fail("mb_p256_ecdh (compressed)");
        s[i] = ticks() - t;
    }
    row("p256_ecdh (compressed pk)", label, s, runs);
    for (i = 0; i < runs; i++) {
        scalar(sk, &seed);
        t = ticks();
        if (im->ecdh_r(out, sk, pk, sizeof pk, rnd) != 0) fail("mb_p256_ecdh_randomized");
        s[i] = ticks() - t;
    }
    row("p256_ecdh_randomized", label, s, runs);
}

static void bench_openssl(int runs, uint64_t *s)
{
    char label[128];
    EVP_PKEY *me = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
    EVP_PKEY *peer = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
    unsigned char secret[64];
    size_t len;
    uint64_t t;
    int i;
    if (!me || !peer) fail("OpenSSL keygen");
    snprintf(label, sizeof label, "%s (system, EVP)", OpenSSL_version(OPENSSL_VERSION));

    for (i = 0; i < runs; i++) {
        EVP_PKEY *k;
        t = ticks();
        k = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
        s[i] = ticks() - t;
        if (!k) fail("EVP_PKEY_Q_keygen");
        EVP_PKEY_free(k);
    }
    row("p256_base", label, s, runs);
    for (i = 0; i < runs; i++) {
        EVP_PKEY_CTX *ctx;
        t = ticks();
        ctx = EVP_PKEY_CTX_new(me, NULL);
        len = sizeof secret;
        if (!ctx || EVP_PKEY_derive_init(ctx) <= 0 || EVP_PKEY_derive_set_peer(ctx, peer) <= 0 ||
            EVP_PKEY_derive(ctx, secret, &len) <= 0)
            fail("EVP_PKEY_derive");
        EVP_PKEY_CTX_free(ctx);
        s[i] = ticks() - t;
    }
    row("p256_ecdh", label, s, runs);
    EVP_PKEY_free(me);
    EVP_PKEY_free(peer);
}

int main(int argc, char **argv)
{
    static const struct impl motebox = { MB_IMPL_NAME, mb_p256_base, mb_p256_ecdh,
                                         mb_p256_ecdh_randomized, mb_p256_compress };
    int runs = 101, ref = 0, i;
    uint64_t *s;
    char cpu[128];
    for (i = 2; i < argc; i++) {
        if (strcmp(argv[i], "ref") == 0) ref = 1;
        else runs = atoi(argv[i]);
    }
    if (runs < 1) runs = 1;
    s = malloc((size_t)runs * sizeof *s);
    if (!s) fail("malloc");
    cpu_model(cpu, sizeof cpu);
    printf("{\"target\": \"host-p256\", \"title\": \"Host x86-64: NIST P-256 ECDH\",\n"
           " \"conditions\": \"%s, TSC ticks (rdtscp) per call, %d runs each, one process per "
           "motebox radix (each linked to that radix's static archive); motebox built with %s; "
           "OpenSSL through its EVP API, in one of these processes after motebox; "
           "max includes preemption by other processes\",\n"
           " \"rows\": [", cpu, runs, argc > 1 ? argv[1] : "unknown compiler");
    bench_motebox(&motebox, runs, s);
    if (ref) bench_openssl(runs, s);
    printf("\n]}\n");
    free(s);
    return 0;
}
