/* SPDX-License-Identifier: MIT */
/* The target test suite: runs the generated cases (suite_vectors.h, made on the host from
 * RFC 7748, Wycheproof, libsodium and OpenSSL) through the library on the chip, prints
 * "suite NAME: N passed, M failed" per suite and a summary, and exits with status 0 iff
 * every case passed. Portable: uses only hal.h, and keeps RAM small (two buffers sized
 * by the profile's longest message; all cases stay in flash / FRAM). */
#include <stdint.h>
#include "motebox.h"
#include "hal.h"
#include "common/tprint.h"
#include "suite.h"
#include "suite_vectors.h"

#ifndef MBT_NO_STREAM
#define MBT_NO_STREAM 0
#endif
#ifndef MB_HAVE_P256
#define MB_HAVE_P256 0
#endif

static uint8_t buf[MBT_MAX_MSG + 16];

static const char *suite_name;
static uint16_t case_index;
static uint16_t suite_passed, suite_failed;
static uint32_t total_passed, total_failed;

static void suite_begin(const char *name)
{
    suite_name = name;
    suite_passed = suite_failed = 0;
}

static void suite_end(void)
{
    tp_str("suite ");
    tp_str(suite_name);
    tp_str(": ");
    tp_u32(suite_passed);
    tp_str(" passed, ");
    tp_u32(suite_failed);
    tp_str(" failed");
    tp_nl();
    total_passed += suite_passed;
    total_failed += suite_failed;
}

/* One check of the current case: prints what failed, returns cond. */
static int expect(int cond, const char *what)
{
    if (!cond) {
        tp_str("FAIL ");
        tp_str(suite_name);
        tp_str(" case ");
        tp_u32(case_index);
        tp_str(": ");
        tp_str(what);
        tp_nl();
    }
    return cond;
}

static void case_done(int ok)
{
    if (ok)
        suite_passed++;
    else
        suite_failed++;
}

static int eq(const uint8_t *a, const uint8_t *b, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

static int all_zero(const uint8_t *a, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (a[i]) return 0;
    return 1;
}

static void fill(uint8_t *a, size_t n, uint8_t v)
{
    size_t i;
    for (i = 0; i < n; i++) a[i] = v;
}

static void copy(uint8_t *d, const uint8_t *s, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) d[i] = s[i];
}

/* ---- X25519 ------------------------------------------------------------------------ */

static void run_x25519(const char *name, const mbt_x25519_case *cases, uint16_t count)
{
    uint8_t out[32];
    uint16_t i;
    suite_begin(name);
    for (i = 0; i < count; i++) {
        const mbt_x25519_case *t = &cases[i];
        int ok = 1;
        case_index = i;
        fill(out, 32, 0xAA);
        ok &= expect(mb_x25519(out, t->sk, t->pk) == t->ret, "mb_x25519 return");
        ok &= expect(eq(out, t->out, 32), "mb_x25519 output");
        fill(out, 32, 0xAA);
        ok &= expect(mb_x25519_randomized(out, t->sk, t->pk, t->rnd) == t->ret,
                     "mb_x25519_randomized return");
        ok &= expect(eq(out, t->out, 32), "mb_x25519_randomized output");
        case_done(ok);
    }
    suite_end();
}

static void run_x25519_alias(void)
{
    uint16_t i;
    suite_begin("x25519_alias");
    for (i = 0; i < mbt_nacl_x25519_count; i++) {
        const mbt_x25519_case *t = &mbt_nacl_x25519[i];
        int ok = 1;
        case_index = i;
        copy(buf, t->pk, 32);  /* out may alias pk */
        ok &= expect(mb_x25519(buf, t->sk, buf) == 0, "return");
        ok &= expect(eq(buf, t->out, 32), "output");
        case_done(ok);
    }
    suite_end();
}

static void run_iterated(void)
{
    uint8_t k[32], u[32], r[32];
    uint16_t i;
    uint16_t n;
    suite_begin("rfc7748_iterated");
    for (i = 0; i < mbt_rfc7748_iter_count; i++) {
        const mbt_iter_case *t = &mbt_rfc7748_iter[i];
        int ok = 1;
        case_index = i;
        fill(k, 32, 0);
        fill(u, 32, 0);
        k[0] = u[0] = 9;
        for (n = 0; n < t->iterations; n++) {
            ok &= expect(mb_x25519(r, k, u) == 0, "return");
            copy(u, k, 32);
            copy(k, r, 32);
        }
        ok &= expect(eq(k, t->out, 32), "output");
        case_done(ok);
    }
    suite_end();
}

static void run_x25519_base(void)
{
    uint8_t pk[32];
    uint16_t i;
    suite_begin("nacl_x25519_base");
    for (i = 0; i < mbt_nacl_x25519_base_count; i++) {
        const mbt_base_case *t = &mbt_nacl_x25519_base[i];
        int ok = 1;
        case_index = i;
        fill(pk, 32, 0xAA);
        ok &= expect(mb_x25519_base(pk, t->sk) == 0, "return");
        ok &= expect(eq(pk, t->pk, 32), "output");
        case_done(ok);
    }
    suite_end();
}

/* ---- Poly1305, secretbox, box, stream ---------------------------------------------- */

static void run_poly1305(void)
{
    uint8_t tag[16];
    uint16_t i;
    suite_begin("rfc7539_poly1305");
    for (i = 0; i < mbt_poly1305_rfc_count; i++) {
        const mbt_poly1305_case *t = &mbt_poly1305_rfc[i];
        int ok = 1;
        case_index = i;
        mb_poly1305(tag, t->m.p, t->m.len, t->key);
        ok &= expect(eq(tag, t->tag, 16), "tag");
        ok &= expect(mb_poly1305_verify(t->tag, t->m.p, t->m.len, t->key) == 0, "verify good");
        copy(tag, t->tag, 16);
        tag[i & 15] ^= 0x01;
        ok &= expect(mb_poly1305_verify(tag, t->m.p, t->m.len, t->key) == -1, "verify bad");
        case_done(ok);
    }
    suite_end();
}

static void run_secretbox(void)
{
    uint8_t tag[16];
    uint16_t i;
    suite_begin("nacl_secretbox");
    for (i = 0; i < mbt_nacl_secretbox_count; i++) {
        const mbt_secretbox_case *t = &mbt_nacl_secretbox[i];
        size_t mlen = t->m.len;
        int ok = 1;
        case_index = i;
        ok &= expect(mb_secretbox(buf, t->m.p, mlen, t->n, t->k) == 0 &&
                     eq(buf, t->c.p, mlen + 16), "mb_secretbox");
        copy(buf, t->m.p, mlen);  /* detached, in place */
        ok &= expect(mb_secretbox_detached(buf, tag, buf, mlen, t->n, t->k) == 0 &&
                     eq(buf, t->c.p + 16, mlen) && eq(tag, t->c.p, 16), "mb_secretbox_detached");
        case_done(ok);
    }
    suite_end();

    suite_begin("nacl_secretbox_open");
    for (i = 0; i < mbt_nacl_secretbox_open_count; i++) {
        const mbt_open_case *t = &mbt_nacl_secretbox_open[i];
        size_t clen = t->c.len;
        int ok = 1;
        case_index = i;
        fill(buf, sizeof buf, 0xAA);
        ok &= expect(mb_secretbox_open(buf, t->c.p, clen, t->n, t->k) == t->ret, "open return");
        if (t->ret == 0)
            ok &= expect(eq(buf, t->m.p, clen - 16), "open output");
        else if (clen >= 16)
            ok &= expect(all_zero(buf, clen - 16), "open output zeroed");
        if (clen >= 16) {
            fill(buf, sizeof buf, 0xAA);
            ok &= expect(mb_secretbox_open_detached(buf, t->c.p + 16, clen - 16, t->c.p, t->n,
                                                    t->k) == t->ret, "open_detached return");
            ok &= expect(t->ret == 0 ? eq(buf, t->m.p, clen - 16) : all_zero(buf, clen - 16),
                         "open_detached output");
        }
        case_done(ok);
    }
    suite_end();
}

static void run_box(void)
{
    uint8_t k[32], tag[16];
    uint16_t i;
    suite_begin("nacl_box");
    for (i = 0; i < mbt_nacl_box_count; i++) {
        const mbt_box_case *t = &mbt_nacl_box[i];
        size_t mlen = t->m.len;
        int ok = 1;
        case_index = i;
        ok &= expect(mb_box_beforenm(k, t->pk_b, t->sk_a) == 0 && eq(k, t->k, 32), "beforenm");
        ok &= expect(mb_box(buf, t->m.p, mlen, t->n, t->pk_b, t->sk_a) == 0, "mb_box return");
        ok &= expect(eq(buf, t->c.p, mlen + 16), "mb_box output");
        ok &= expect(mb_box_detached(buf, tag, t->m.p, mlen, t->n, t->pk_b, t->sk_a) == 0 &&
                     eq(buf, t->c.p + 16, mlen) && eq(tag, t->c.p, 16), "mb_box_detached");
        case_done(ok);
    }
    suite_end();

    suite_begin("nacl_box_open");
    for (i = 0; i < mbt_nacl_box_open_count; i++) {
        const mbt_box_open_case *t = &mbt_nacl_box_open[i];
        size_t clen = t->c.len;
        int ok = 1;
        case_index = i;
        fill(buf, sizeof buf, 0xAA);
        ok &= expect(mb_box_open(buf, t->c.p, clen, t->n, t->pk, t->sk) == t->ret, "open return");
        ok &= expect(t->ret == 0 ? eq(buf, t->m.p, clen - 16) : all_zero(buf, clen - 16),
                     "open output");
        fill(buf, sizeof buf, 0xAA);
        ok &= expect(mb_box_open_detached(buf, t->c.p + 16, clen - 16, t->c.p, t->n, t->pk,
                                          t->sk) == t->ret, "open_detached return");
        ok &= expect(t->ret == 0 ? eq(buf, t->m.p, clen - 16) : all_zero(buf, clen - 16),
                     "open_detached output");
        if (all_zero(t->pk, 32)) {  /* low-order key: sealing must fail too, c zeroed */
            fill(buf, sizeof buf, 0xAA);
            ok &= expect(mb_box(buf, t->c.p, clen - 16, t->n, t->pk, t->sk) == -1 &&
                         all_zero(buf, clen), "mb_box to a low-order key");
        }
        case_done(ok);
    }
    suite_end();
}

#if !MBT_NO_STREAM
static void run_stream(void)
{
    mb_box_stream s;
    uint8_t tag[16];
    uint16_t i;
    suite_begin("nacl_stream");
    for (i = 0; i < mbt_nacl_stream_count; i++) {
        const mbt_stream_case *t = &mbt_nacl_stream[i];
        size_t off = 0, len, mlen = t->m.len;
        uint16_t j = 0;
        int ok = 1;
        case_index = i;
        ok &= expect(mb_box_stream_size() == sizeof(mb_box_stream), "mb_box_stream_size");
        mb_box_stream_init(&s, t->k, t->n);
        while (off < mlen) {
            len = t->chunks.p[j % t->chunks.len];
            if (len > mlen - off) len = mlen - off;
            if (len > sizeof buf) len = sizeof buf;  /* small profile: RAM-bounded chunks */
            if (t->inplace) {
                copy(buf, t->m.p + off, len);
                ok &= expect(mb_box_stream_update(&s, buf, buf, len) == 0, "update return");
            } else {
                ok &= expect(mb_box_stream_update(&s, buf, t->m.p + off, len) == 0, "update return");
            }
            ok &= expect(eq(buf, t->c.p + 16 + off, len), "update output");
            off += len;
            j++;
        }
        ok &= expect(mb_box_stream_final(&s, tag) == 0 && eq(tag, t->c.p, 16), "final tag");
        case_done(ok);
    }
    suite_end();
}
#endif

/* ---- P-256 ------------------------------------------------------------------------- */
#if MB_HAVE_P256
static void run_p256_ecdh(const char *name, const mbt_p256_ecdh_case *cases, uint16_t count)
{
    uint8_t out[65];
    uint16_t i;
    suite_begin(name);
    for (i = 0; i < count; i++) {
        const mbt_p256_ecdh_case *t = &cases[i];
        int ok = 1;
        case_index = i;
        fill(out, 32, 0xAA);
        ok &= expect(mb_p256_ecdh(out, t->sk, t->pk.p, t->pk.len) == t->ret, "ecdh return");
        ok &= expect(eq(out, t->shared, 32), "ecdh output");
        fill(out, 32, 0xAA);
        ok &= expect(mb_p256_ecdh_randomized(out, t->sk, t->pk.p, t->pk.len, t->rnd) == t->ret,
                     "ecdh_randomized return");
        ok &= expect(eq(out, t->shared, 32), "ecdh_randomized output");
        /* Encodings validate the point like ECDH does. */
        if (t->pk.len == 65) {
            fill(out, 33, 0xAA);
            ok &= expect(mb_p256_compress(out, t->pk.p) == t->ret &&
                         (t->ret == 0 || all_zero(out, 33)), "compress validity");
        } else if (t->pk.len == 33) {
            fill(out, 65, 0xAA);
            ok &= expect(mb_p256_decompress(out, t->pk.p) == t->ret &&
                         (t->ret == 0 || all_zero(out, 65)), "decompress validity");
        }
        case_done(ok);
    }
    suite_end();
}

static void run_p256_base(void)
{
    uint8_t pk[65];
    uint16_t i;
    suite_begin("ossl_p256_base");
    for (i = 0; i < mbt_ossl_p256_base_count; i++) {
        const mbt_p256_base_case *t = &mbt_ossl_p256_base[i];
        int ok = 1;
        case_index = i;
        fill(pk, 65, 0xAA);
        ok &= expect(mb_p256_base(pk, t->sk) == t->ret, "return");
        ok &= expect(eq(pk, t->pk, 65), "output");
        case_done(ok);
    }
    suite_end();

    suite_begin("ossl_p256_encode");
    for (i = 0; i < mbt_ossl_p256_encode_count; i++) {
        const mbt_p256_enc_case *t = &mbt_ossl_p256_encode[i];
        int ok = 1;
        case_index = i;
        ok &= expect(mb_p256_compress(pk, t->pk65) == 0 && eq(pk, t->pk33, 33), "compress");
        ok &= expect(mb_p256_decompress(pk, t->pk33) == 0 && eq(pk, t->pk65, 65), "decompress");
        case_done(ok);
    }
    suite_end();
}
#endif

/* The closing lines of every suite image; exit status 0 iff something ran and all passed. */
static int summary(void)
{
    tp_str("summary: ");
    tp_u32(total_passed);
    tp_str(" passed, ");
    tp_u32(total_failed);
    tp_str(" failed");
    tp_nl();
    tp_str(total_failed == 0 && total_passed > 0 ? "ALL PASSED" : "FAILED");
    tp_nl();
    return total_failed == 0 && total_passed > 0 ? 0 : 1;
}

int main(void)
{
    tp_str("motebox target suite, profile " MBT_PROFILE);
    tp_str(MB_HAVE_P256 ? ", with P-256" : ", without P-256");
    tp_nl();
    run_x25519("rfc7748", mbt_rfc7748, mbt_rfc7748_count);
    run_iterated();
    run_x25519("wycheproof_x25519", mbt_wycheproof_x25519, mbt_wycheproof_x25519_count);
    run_x25519("nacl_x25519", mbt_nacl_x25519, mbt_nacl_x25519_count);
    run_x25519_alias();
    run_x25519_base();
    run_poly1305();
    run_secretbox();
    run_box();
#if !MBT_NO_STREAM      /* the MSP430 runs it in an image of its own (check/suite_stream.c) */
    run_stream();
#endif
#if MB_HAVE_P256
    run_p256_ecdh("wycheproof_p256", mbt_wycheproof_p256, mbt_wycheproof_p256_count);
    run_p256_ecdh("ossl_p256_ecdh", mbt_ossl_p256_ecdh, mbt_ossl_p256_ecdh_count);
    run_p256_base();
#endif
    return summary();
}
