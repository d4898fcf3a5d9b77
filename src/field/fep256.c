/* SPDX-License-Identifier: MIT */
/*
 * GF(p256) operations common to every backend, built on fep256.h: constants, Montgomery
 * conversion, inversion and square root by fixed addition chains, and the scalar range
 * check mod n. CT: time depends on nothing but the (fixed) chains.
 */
#include "field/fep256.h"
#include "util/ct.h"

/* 2^256 mod p (1 in Montgomery form) and 2^512 mod p (for conversion into it). */
static const uint8_t R_MOD_P[32] = {
    0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xfe,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01
};
static const uint8_t R2_MOD_P[32] = {
    0x00, 0x00, 0x00, 0x04, 0xff, 0xff, 0xff, 0xfd,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe,
    0xff, 0xff, 0xff, 0xfb, 0xff, 0xff, 0xff, 0xff,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03
};
/* n, the order of the base point. */
static const uint8_t N_BYTES[32] = {
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84,
    0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51
};

void mb_fep256_load(fep256 *h, const uint8_t s[32])
{
    (void)mb_fep256_frombytes(h, s);
}

void mb_fep256_copy(fep256 *h, const fep256 *f)
{
    *h = *f;
}

void mb_fep256_one(fep256 *h)
{
    mb_fep256_load(h, R_MOD_P);
}

void mb_fep256_neg(fep256 *h, const fep256 *f)
{
    fep256 z;
    mb_wipe(&z, sizeof z);           /* z = 0 */
    mb_fep256_sub(h, &z, f);
}

void mb_fep256_tomont(fep256 *h, const fep256 *f)
{
    fep256 r2;
    mb_fep256_load(&r2, R2_MOD_P);
    mb_fep256_mul(h, f, &r2);
}

void mb_fep256_frommont(fep256 *h, const fep256 *f)
{
    static const uint8_t one[32] = { [31] = 1 };
    fep256 t;
    mb_fep256_load(&t, one);
    mb_fep256_mul(h, f, &t);
}

/* x32 = f^(2^32 - 1) and x30 = f^(2^30 - 1) (the shared prefix of both chains):
 * 31 squarings, 7 multiplications. x2 = f^3 is also returned. */
static void pow_ones(fep256 *x32, fep256 *x30, fep256 *x2, const fep256 *f)
{
    fep256 x3, x6, t;
    mb_fep256_sqr(&t, f);
    mb_fep256_mul(x2, &t, f);        /* 2^2 - 1 */
    mb_fep256_sqr(&t, x2);
    mb_fep256_mul(&x3, &t, f);       /* 2^3 - 1 */
    mb_fep256_sqr_n(&t, &x3, 3);
    mb_fep256_mul(&x6, &t, &x3);     /* 2^6 - 1 */
    mb_fep256_sqr_n(&t, &x6, 6);
    mb_fep256_mul(&t, &t, &x6);      /* 2^12 - 1 */
    mb_fep256_sqr_n(&t, &t, 3);
    mb_fep256_mul(x30, &t, &x3);     /* 2^15 - 1 (x30 used as scratch) */
    mb_fep256_sqr_n(&t, x30, 15);
    mb_fep256_mul(x30, &t, x30);     /* 2^30 - 1 */
    mb_fep256_sqr_n(&t, x30, 2);
    mb_fep256_mul(x32, &t, x2);      /* 2^32 - 1 */
    mb_wipe(&x3, sizeof x3);
    mb_wipe(&x6, sizeof x6);
    mb_wipe(&t, sizeof t);
}

/* p - 2 = ffffffff 00000001 00000000 00000000 00000000 ffffffff ffffffff fffffffd:
 * 32 ones, 31 zeros and a one, 96 zeros, 64 ones, 30 ones, 0, 1.
 * 31 + 32 + 96 + 32 + 32 + 30 + 2 = 255 squarings, 7 + 5 = 12 multiplications. */
void mb_fep256_invert(fep256 *h, const fep256 *f)
{
    fep256 x32, x30, x2, t;
    pow_ones(&x32, &x30, &x2, f);
    mb_fep256_sqr_n(&t, &x32, 32);
    mb_fep256_mul(&t, &t, f);        /* ffffffff 00000001 */
    mb_fep256_sqr_n(&t, &t, 96);     /* ... 96 zero bits */
    mb_fep256_sqr_n(&t, &t, 32);
    mb_fep256_mul(&t, &t, &x32);     /* ffffffff */
    mb_fep256_sqr_n(&t, &t, 32);
    mb_fep256_mul(&t, &t, &x32);     /* ffffffff */
    mb_fep256_sqr_n(&t, &t, 30);
    mb_fep256_mul(&t, &t, &x30);     /* 30 ones */
    mb_fep256_sqr_n(&t, &t, 2);
    mb_fep256_mul(h, &t, f);         /* 01 */
    mb_wipe(&x32, sizeof x32);
    mb_wipe(&x30, sizeof x30);
    mb_wipe(&x2, sizeof x2);
    mb_wipe(&t, sizeof t);
}

/* (p+1)/4 = 2^254 - 2^222 + 2^190 + 2^94: 32 ones (bits 253..222), a one at bit 190,
 * a one at bit 94. 31 + 32 + 96 + 94 = 253 squarings, 7 + 2 = 9 multiplications. */
uint32_t mb_fep256_sqrt(fep256 *h, const fep256 *f)
{
    fep256 x32, x30, x2, t;
    uint32_t ok;
    pow_ones(&x32, &x30, &x2, f);
    mb_fep256_sqr_n(&t, &x32, 32);
    mb_fep256_mul(&t, &t, f);
    mb_fep256_sqr_n(&t, &t, 96);
    mb_fep256_mul(&t, &t, f);
    mb_fep256_sqr_n(&t, &t, 94);
    mb_fep256_sqr(&x2, &t);
    ok = mb_fep256_equal(&x2, f);
    mb_fep256_copy(h, &t);
    mb_wipe(&x32, sizeof x32);
    mb_wipe(&x30, sizeof x30);
    mb_wipe(&x2, sizeof x2);
    mb_wipe(&t, sizeof t);
    return ok;
}

uint32_t mb_fep256_equal(const fep256 *f, const fep256 *g)
{
    fep256 d;
    uint32_t z;
    mb_fep256_sub(&d, f, g);
    z = mb_fep256_iszero(&d);
    mb_wipe(&d, sizeof d);
    return z;
}

uint32_t mb_fep256_isodd(const fep256 *f)
{
    fep256 t;
    uint8_t s[32];
    uint32_t odd;
    mb_fep256_frommont(&t, f);
    mb_fep256_tobytes(s, &t);
    odd = s[31] & 1u;
    mb_wipe(&t, sizeof t);
    mb_wipe(s, sizeof s);
    return odd;
}

/* CT: k secret. A borrow chain of k - n from the last byte decides k < n; the OR of
 * all bytes decides k != 0; neither branches nor indexes on k. */
uint32_t mb_p256_scalar_ok(const uint8_t k[32])
{
    uint32_t borrow = 0, acc = 0, d;
    int i;
    for (i = 31; i >= 0; i--) {
        d = (uint32_t)k[i] - N_BYTES[i] - borrow;
        borrow = (d >> 31) & 1u;
        acc |= k[i];
    }
    return borrow & ct_nonzero32(ct_barrier32(acc));
}
