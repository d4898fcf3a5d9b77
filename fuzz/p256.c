/* SPDX-License-Identifier: MIT */
/* Differential fuzzing of P-256 against OpenSSL: mb_p256_decompress (33-byte SEC1),
 * mb_p256_compress (65-byte SEC1), mb_p256_ecdh and mb_p256_ecdh_randomized (33 or 65
 * bytes, any scalar) and mb_p256_base, on arbitrary encodings and scalars: the same
 * accept/reject decision as EC_POINT_oct2point (restricted to the one prefix each
 * function documents; OpenSSL also takes the hybrid 06/07 form) and the scalar range
 * [1, n-1], the same bytes as EC_POINT_point2oct / ECDH_compute_key, zeros on reject.
 * Input: flags(1) sk(32) rnd(32) sk2(32) pos(1) xor(1) encoding(70: the first 33 or 65 used).
 *   flags & 3: 0 decompress, 1 compress, 2 ecdh (+ randomized), 3 base
 *   & 4: 65-byte encoding for ecdh; & 8: the encoding is sk2 * G (OpenSSL's), so valid
 *   points are reached; & 16: then one byte XORed; & 32: sk = n - (sk[31] & 3);
 *   & 64: sk = sk[31] & 3 (the ends of the scalar range); & 128 (ecdh): the encoding
 *   length is pos % 70 (every length but 33 and 65 must be refused). */
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/ecdh.h>
#include <openssl/obj_mac.h>

#include "motebox.h"
#include "fuzz.h"

static EC_GROUP *group;
static BN_CTX *bnctx;
static const uint8_t order_n[32] = {
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2,
    0xfc, 0x63, 0x25, 0x51 };

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    bnctx = BN_CTX_new();
    if (!group || !bnctx) abort();
    return 0;
}

/* OpenSSL's reading of an encoding, refused unless its prefix is one of `prefixes`.
 * Returns the point or NULL. */
static EC_POINT *ossl_decode(const uint8_t *enc, size_t len, const char *prefixes)
{
    EC_POINT *p;
    if (!strchr(prefixes, enc[0]) || enc[0] == 0) return NULL;
    p = EC_POINT_new(group);
    if (EC_POINT_oct2point(group, p, enc, len, bnctx) != 1 ||
        EC_POINT_is_on_curve(group, p, bnctx) != 1 || EC_POINT_is_at_infinity(group, p)) {
        EC_POINT_free(p);
        return NULL;
    }
    return p;
}

/* 1 if 1 <= sk < n (big-endian). */
static int scalar_ok(const uint8_t sk[32])
{
    return !fz_all_zero(sk, 32) && memcmp(sk, order_n, 32) < 0;
}

static void check(const char *what, int r, const uint8_t *out, int want_r,
                  const uint8_t *want, size_t len)
{
    FZ_CHECK(r == want_r, "%s: motebox %d, OpenSSL %d", what, r, want_r);
    if (r == 0) {
        if (memcmp(out, want, len) != 0) {
            fz_hex("motebox", out, len);
            fz_hex("OpenSSL", want, len);
            FZ_FAIL("%s: different bytes", what);
        }
    } else {
        FZ_CHECK(fz_all_zero(out, len), "%s: output not zeroed on reject", what);
    }
}

static void derive(uint8_t *enc, size_t len, const uint8_t sk2[32])
{
    EC_POINT *p = EC_POINT_new(group);
    BIGNUM *k = BN_bin2bn(sk2, 32, NULL);
    memset(enc, 0, len);
    if (!BN_is_zero(k) && EC_POINT_mul(group, p, k, NULL, NULL, bnctx) == 1 &&
        !EC_POINT_is_at_infinity(group, p))
        EC_POINT_point2oct(group, p, len == 33 ? POINT_CONVERSION_COMPRESSED :
                           POINT_CONVERSION_UNCOMPRESSED, enc, len, bnctx);
    EC_POINT_free(p);
    BN_free(k);
}

FZ_ENTRY(test_one)

static int test_one(const uint8_t *data, size_t size)
{
    fz_in in = { data, size };
    uint8_t sk[32], rnd[32], sk2[32], enc[70], out[65], want[65];
    uint32_t flags = fz_u8(&in), op = flags & 3, pos, x;
    size_t len = (op == 1 || (op == 2 && (flags & 4))) ? 65 : 33;
    EC_POINT *p = NULL;
    int want_r;

    fz_take(&in, sk, 32);
    fz_take(&in, rnd, 32);
    fz_take(&in, sk2, 32);
    pos = fz_u8(&in);
    x = fz_u8(&in);
    if (op == 2 && (flags & 128)) len = pos % 70;   /* any length: only 33 and 65 are valid */
    fz_take(&in, enc, sizeof enc);
    if ((flags & 8) && (len == 33 || len == 65)) derive(enc, len, sk2);
    if ((flags & 16) && len > 0) enc[pos % len] ^= (uint8_t)x;
    if (flags & 32) {   /* n - (0..3), big-endian subtraction with borrow */
        unsigned d = sk[31] & 3, borrow = 0, i;
        for (i = 32; i-- > 0;) {
            int v = (int)order_n[i] - (int)(i == 31 ? d : 0) - (int)borrow;
            borrow = v < 0;
            sk[i] = (uint8_t)(v + (borrow ? 256 : 0));
        }
    } else if (flags & 64) {
        uint8_t v = sk[31] & 3;
        memset(sk, 0, 32);
        sk[31] = v;
    }

    memset(out, 0xa5, sizeof out);
    memset(want, 0, sizeof want);
    switch (op) {
    case 0:
        p = ossl_decode(enc, 33, "\x02\x03");
        want_r = p ? 0 : -1;
        if (p) EC_POINT_point2oct(group, p, POINT_CONVERSION_UNCOMPRESSED, want, 65, bnctx);
        check("decompress", mb_p256_decompress(out, enc), out, want_r, want, 65);
        break;
    case 1:
        p = ossl_decode(enc, 65, "\x04");
        want_r = p ? 0 : -1;
        if (p) EC_POINT_point2oct(group, p, POINT_CONVERSION_COMPRESSED, want, 33, bnctx);
        check("compress", mb_p256_compress(out, enc), out, want_r, want, 33);
        break;
    case 2: {
        EC_KEY *key = NULL;
        BIGNUM *k = NULL;
        p = len == 33 ? ossl_decode(enc, len, "\x02\x03") :
            len == 65 ? ossl_decode(enc, len, "\x04") : NULL;
        want_r = -1;
        if (p && scalar_ok(sk)) {
            key = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1);
            k = BN_bin2bn(sk, 32, NULL);
            FZ_CHECK(key && k && EC_KEY_set_private_key(key, k) == 1, "OpenSSL EC_KEY");
            want_r = ECDH_compute_key(want, 32, p, key, NULL) == 32 ? 0 : -1;
            FZ_CHECK(want_r == 0, "OpenSSL ECDH_compute_key failed on a valid input");
        }
        check("ecdh", mb_p256_ecdh(out, sk, enc, len), out, want_r, want, 32);
        memset(out, 0xa5, sizeof out);
        check("ecdh_randomized", mb_p256_ecdh_randomized(out, sk, enc, len, rnd), out,
              want_r, want, 32);
        EC_KEY_free(key);
        BN_free(k);
        break;
    }
    default: {
        BIGNUM *k = BN_bin2bn(sk, 32, NULL);
        want_r = -1;
        if (scalar_ok(sk)) {
            p = EC_POINT_new(group);
            FZ_CHECK(EC_POINT_mul(group, p, k, NULL, NULL, bnctx) == 1, "OpenSSL mul");
            EC_POINT_point2oct(group, p, POINT_CONVERSION_UNCOMPRESSED, want, 65, bnctx);
            want_r = 0;
        }
        check("base", mb_p256_base(out, sk), out, want_r, want, 65);
        BN_free(k);
        break;
    }
    }
    EC_POINT_free(p);
    return 0;
}
