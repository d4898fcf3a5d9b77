/* SPDX-License-Identifier: MIT */
/* GF(2^255-19) operations that need no knowledge of the representation. */
#include "field/fe25519.h"
#include "util/ct.h"

/* Post: h = f (same representation). */
void fe25519_copy(fe25519 *h, const fe25519 *f)
{
    *h = *f;
}

#if MB_RADIX != 64   /* the 51-bit backend has its own fe25519_tobytes */
/* s = s mod 2^255 + 19 * (bit 255 of s): 2^255 = 19 mod p.
 * CT: s secret; bit 255 becomes a mask, not a branch or a multiplier operand. */
static void fold19_bytes(uint8_t s[32])
{
    uint16_t w = (uint16_t)(ct_mask32((uint32_t)(s[31] >> 7)) & 19u);
    int i;
    s[31] &= 0x7f;
    for (i = 0; i < 32; i++) {
        w = (uint16_t)(w + s[i]);
        s[i] = (uint8_t)w;
        w >>= 8;
    }
}

/* Bounds: any 256-bit s. Post: s < p, s = its old value mod p.
 * Byte-wise, so the same code serves every limb size (it runs once per scalar
 * multiplication). Two folds bring s below 2^255 (the first leaves < 2^255 + 19).
 * Then s >= p iff s + 19 reaches 2^255, and in that case s - p = (s + 19) mod 2^255;
 * otherwise s < 2^255 - 19 and s + 0 keeps bit 255 clear. So: add 19 under a mask,
 * clear bit 255.
 * CT: s secret; the choice is a mask through the value barrier. */
void fe25519_canonical_bytes(uint8_t s[32])
{
    uint16_t w = 19;
    uint32_t m;
    int i;
    fold19_bytes(s);
    fold19_bytes(s);
    for (i = 0; i < 31; i++) w = (uint16_t)((w + s[i]) >> 8);
    m = ct_mask32((uint32_t)(((w + s[31]) >> 7) & 1u));   /* all ones iff s >= p */
    w = (uint16_t)(m & 19u);
    for (i = 0; i < 32; i++) {
        w = (uint16_t)(w + s[i]);
        s[i] = (uint8_t)w;
        w >>= 8;
    }
    s[31] &= 0x7f;
}
#endif

#ifndef MB_FE25519_ARCH_INVERT   /* arch/cortex-m4/x25519_scalarmult.S provides it */
/* h = f^(2^n). Pre: n >= 1 (public). */
static void sqr_n(fe25519 *h, const fe25519 *f, int n)
{
    fe25519_sqr(h, f);
    while (--n > 0) fe25519_sqr(h, h);
}

/* Bounds: any value. Post: h = f^(p-2) = 1/f mod p (0 if f = 0 mod p).
 * p - 2 = 2^255 - 21 = (2^250 - 1) 2^5 + 11. The chain builds z^(2^k - 1) for
 * k = 5, 10, 20, 40, 50, 100, 200, 250 by doubling runs of ones: 254 S + 11 M.
 * CT: a fixed sequence of operations; f is secret. */
void fe25519_invert(fe25519 *h, const fe25519 *f)
{
    fe25519 z2, z9, z11, a, b;

    fe25519_sqr(&z2, f);                /* z^2 */
    sqr_n(&a, &z2, 2);                  /* z^8 */
    fe25519_mul(&z9, &a, f);            /* z^9 */
    fe25519_mul(&z11, &z9, &z2);        /* z^11 */
    fe25519_sqr(&a, &z11);              /* z^22 */
    fe25519_mul(&a, &a, &z9);           /* z^(2^5 - 1) */
    sqr_n(&b, &a, 5);
    fe25519_mul(&a, &b, &a);            /* z^(2^10 - 1) */
    sqr_n(&b, &a, 10);
    fe25519_mul(&b, &b, &a);            /* z^(2^20 - 1) */
    sqr_n(&z2, &b, 20);
    fe25519_mul(&b, &z2, &b);           /* z^(2^40 - 1) */
    sqr_n(&b, &b, 10);
    fe25519_mul(&a, &b, &a);            /* z^(2^50 - 1) */
    sqr_n(&b, &a, 50);
    fe25519_mul(&b, &b, &a);            /* z^(2^100 - 1) */
    sqr_n(&z2, &b, 100);
    fe25519_mul(&b, &z2, &b);           /* z^(2^200 - 1) */
    sqr_n(&b, &b, 50);
    fe25519_mul(&a, &b, &a);            /* z^(2^250 - 1) */
    sqr_n(&a, &a, 5);                   /* z^(2^255 - 32) */
    fe25519_mul(h, &a, &z11);           /* z^(2^255 - 21) */

    mb_wipe(&z2, sizeof z2);
    mb_wipe(&z9, sizeof z9);
    mb_wipe(&z11, sizeof z11);
    mb_wipe(&a, sizeof a);
    mb_wipe(&b, sizeof b);
}
#endif

/* Bounds: any value. Post: 1 if f = 0 mod p, else 0.
 * CT: f is secret; the canonical bytes are ORed together, never compared early. */
uint32_t fe25519_iszero(const fe25519 *f)
{
    uint8_t s[32];
    uint32_t acc;
    fe25519_tobytes(s, f);
    acc = ct_or_bytes(s, 32);
    mb_wipe(s, sizeof s);
    return ~ct_mask32(ct_nonzero32(acc)) & 1u;
}
