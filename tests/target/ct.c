/* SPDX-License-Identifier: MIT */
/* Constant-time trace firmware. The host patches `ct_input` in the ELF file (operation,
 * secret, public inputs), runs the same binary for several secrets in a tracer and in
 * the cycle model, and compares what happened between ct_begin() and ct_end(): the
 * sequence of executed instruction addresses, the sequence of data addresses, and the
 * cycle count must not depend on the secret. The output (printed after ct_end) lets the
 * host check the result against libsodium / OpenSSL and that the secrets really differed.
 *
 * Operations (public selector):
 *   1 x25519             out = X25519(secret, pub)
 *   2 x25519_randomized  out = X25519 with randomized coordinates, rnd = rnd (fixed)
 *   3 x25519_base        out = X25519(secret, 9)
 *   4 p256_ecdh          out = x(secret * P), pub[0..65) = P (uncompressed)
 *   5 p256_base          out = secret * G
 *   6 box_stream         key = secret, plaintext = secret-derived, chunks 64/37/100/0/55
 *   7 box_beforenm       k = HSalsa20(X25519(secret, pub))
 *   8 p256_ecdh_randomized  as 4 with the initial Z randomized from rnd (fixed)
 *  90 neg_branch         negative control: a branch on a secret bit
 *  91 neg_index          negative control: a table lookup at a secret index
 * Portable (hal.h only), small RAM. */
#include <stdint.h>
#include "motebox.h"
#include "hal.h"
#include "common/tprint.h"

#ifndef MB_HAVE_P256
#define MB_HAVE_P256 0
#endif
/* CT_P256_ONLY=1 keeps only the P-256 operations (and the controls): the MSP430FR5969
 * cannot hold both curves with their fixed-base tables in one image, so it runs one
 * built with MB_HAVE_P256=0 and one with this. */
#ifndef CT_P256_ONLY
#define CT_P256_ONLY 0
#endif
#if CT_P256_ONLY && !MB_HAVE_P256
#error "CT_P256_ONLY needs MB_HAVE_P256"
#endif

/* Patched by the host (tests/m4/test_target_ct.py); volatile so it is read, not folded. */
struct ct_input {
    uint8_t op;
    uint8_t secret[32];
    uint8_t rnd[32];
    uint8_t pub[65];
};
__attribute__((used)) const volatile struct ct_input ct_input = {
    1,
    {0x77, 0x07, 0x6d, 0x0a, 0x73, 0x18, 0xa5, 0x7d, 0x3c, 0x16, 0xc1, 0x72, 0x51, 0xb2, 0x66, 0x45,
     0xdf, 0x4c, 0x2f, 0x87, 0xeb, 0xc0, 0x99, 0x2a, 0xb1, 0x77, 0xfb, 0xa5, 0x1d, 0xb9, 0x2c, 0x2a},
    {0},
    {9},
};

/* Trace markers: the tracer records only between these calls. noinline and a volatile
 * store so that each is a real call at a known address. */
volatile uint32_t ct_marker;
__attribute__((noinline)) void ct_begin(void);
__attribute__((noinline)) void ct_end(void);
void ct_begin(void) { ct_marker = 1; }
void ct_end(void) { ct_marker = 2; }

/* Negative controls: deliberately NOT constant time (test-only, never in the library). */
__attribute__((noinline)) static uint32_t neg_branch(const uint8_t *s)
{
    uint32_t acc = 0;
    unsigned i, n;
    for (i = 0; i < 32; i++)
        for (n = s[i] & 7u; n > 0; n--)  /* loop count depends on the secret */
            acc = acc * 33u + n;
    return acc;
}

static volatile uint8_t neg_table[256];
__attribute__((noinline)) static uint32_t neg_index(const uint8_t *s)
{
    uint32_t acc = 0;
    unsigned i;
    for (i = 0; i < 32; i++) acc += neg_table[s[i]];  /* secret-dependent address */
    return acc;
}

static uint8_t secret[32], rnd[32], pub[65], out[65];
static uint8_t msg[256];
#if !CT_P256_ONLY
static mb_box_stream stream;
#endif

static void load_input(void)
{
    unsigned i;
    for (i = 0; i < 32; i++) secret[i] = ct_input.secret[i];
    for (i = 0; i < 32; i++) rnd[i] = ct_input.rnd[i];
    for (i = 0; i < 65; i++) pub[i] = ct_input.pub[i];
    for (i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)(secret[i & 31] ^ (uint8_t)(i * 7u));
}

#if !CT_P256_ONLY
static const uint8_t nonce[24] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                                  13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24};
static const uint16_t chunks[5] = {64, 37, 100, 0, 55};
#endif

/* Runs the operation; returns the number of output bytes (in out, or msg for the stream). */
static int run(uint8_t op, size_t *outlen)
{
    int r = 0;
    unsigned i;
    switch (op) {
#if !CT_P256_ONLY
    case 1: r = mb_x25519(out, secret, pub); *outlen = 32; break;
    case 2: r = mb_x25519_randomized(out, secret, pub, rnd); *outlen = 32; break;
    case 3: r = mb_x25519_base(out, secret); *outlen = 32; break;
#endif
#if MB_HAVE_P256
    case 4: r = mb_p256_ecdh(out, secret, pub, 65); *outlen = 32; break;
    case 5: r = mb_p256_base(out, secret); *outlen = 65; break;
    case 8: r = mb_p256_ecdh_randomized(out, secret, pub, 65, rnd); *outlen = 32; break;
#endif
#if !CT_P256_ONLY
    case 6: {
        unsigned off;
        mb_box_stream_init(&stream, secret, nonce);
        for (i = 0, off = 0; i < 5; off += chunks[i], i++)
            r |= mb_box_stream_update(&stream, msg + off, msg + off, chunks[i]);
        r |= mb_box_stream_final(&stream, out);
        *outlen = 16;
        break;
    }
    case 7: r = mb_box_beforenm(out, pub, secret); *outlen = 32; break;
#endif
    case 90: {
        uint32_t v = neg_branch(secret);
        for (i = 0; i < 4; i++) out[i] = (uint8_t)(v >> (8 * i));
        *outlen = 4;
        break;
    }
    case 91: {
        uint32_t v = neg_index(secret);
        for (i = 0; i < 4; i++) out[i] = (uint8_t)(v >> (8 * i));
        *outlen = 4;
        break;
    }
    default: r = -2; *outlen = 0; break;
    }
    return r;
}

int main(void)
{
    uint8_t op = ct_input.op;
    uint32_t t0, t1;
    size_t outlen = 0;
    int r;
    load_input();
    t0 = hal_cycles();
    ct_begin();
    r = run(op, &outlen);
    ct_end();
    t1 = hal_cycles();
    if (r == -2) {
        tp_str("unknown op\n");
        return 2;
    }
    tp_str("op ");
    tp_u32(op);
    tp_str(" return ");
    tp_str(r == 0 ? "0" : "-1");
    tp_str("\nout ");
    tp_hex(out, outlen);
    if (op == 6) {
        tp_str("\nciphertext ");
        tp_hex(msg, 256);
    }
    tp_str("\ncycles ");
    tp_u32(t1 - t0);
    tp_nl();
    return 0;
}
