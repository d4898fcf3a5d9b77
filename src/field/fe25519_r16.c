/* SPDX-License-Identifier: MIT */
/*
 * GF(2^255-19), radix 2^16: 16 x 16-bit limbs ([DHH+15]'s MSP430 representation).
 * A value is any integer in [0, 2^256); results are reduced mod 2^256-38 = 2p only
 * (they fit in 256 bits); mb_fe25519_tobytes reduces mod p.
 *
 * Encoding and decoding live in fe25519_io_r16.c, so that an arch/<chip>/ backend
 * replaces this arithmetic file whole and keeps those.
 *
 * Written for a 16-bit int: every product is formed as uint32_t * uint32_t of values
 * below 2^16 (a 16x16->32 multiply), every intermediate is uint32_t, and no shift
 * count depends on data (on MSP430 a variable shift is a loop). A 0/1 carry or borrow
 * is never multiplied or selected on directly: it becomes a mask through the value
 * barrier first, because clang for MSP430 (no conditional moves) turns such selects
 * into branches.
 * CT: every function here treats all of its inputs as secret.
 */
#include "field/fe25519.h"
#include "util/ct.h"
#include "util/backend.h"

/* Replaced whole by arch/msp430x/ when that backend is active (util/backend.h). */
#if !MB_ASM_MSP430X

#if MB_RADIX == 16

#define NL 16   /* limbs */

/* 38 x (x < 2^26). Compilers may turn these back into a multiply, which on
 * MSP430 is a call into the constant-time __mspabi_* runtime: either is fine. */
static inline uint32_t mul38(uint32_t x) { return (x << 5) + (x << 2) + (x << 1); }

/* h += 38 * c (c < 2^17, carried out of bit 256), mod 2^256-38.
 * If the addition wraps past 2^256, the wrapped value is below 38c < 2^23, so limb 1 is
 * below 2^7 and adding 38 once more to limbs 0..1 cannot carry further.
 * CT: h, c secret; the final carry is multiplied in, not branched on. */
static void fold38(uint16_t h[NL], uint32_t c)
{
    uint32_t w = mul38(c);
    int i;
    for (i = 0; i < NL; i++) {
        w += h[i];
        h[i] = (uint16_t)w;
        w >>= 16;
    }
    w = (uint32_t)h[0] + mul38(w);
    h[0] = (uint16_t)w;
    h[1] = (uint16_t)(h[1] + (w >> 16));
}

/* Bounds: any 256-bit f, g. Post: h = f + g mod 2^256-38, h < 2^256.
 * CT: f, g secret; straight-line adds, carries by shifts. */
void mb_fe25519_add(fe25519 *h, const fe25519 *f, const fe25519 *g)
{
    uint32_t w = 0;
    int i;
    for (i = 0; i < NL; i++) {
        w += (uint32_t)f->v[i] + g->v[i];
        h->v[i] = (uint16_t)w;
        w >>= 16;
    }
    fold38(h->v, w);             /* w <= 1 */
}

/* Bounds: any 256-bit f, g. Post: h = f - g mod 2^256-38, h < 2^256.
 * A borrow out of bit 256 means we computed f - g + 2^256; subtracting 38 gives
 * f - g + (2^256-38). If that borrows again, the value is >= 2^256-38 after wrapping,
 * so limb 0 is >= 2^16-38 and the last subtraction of 38 cannot borrow.
 * CT: f, g secret; borrows are taken from the sign bit, never compared. */
void mb_fe25519_sub(fe25519 *h, const fe25519 *f, const fe25519 *g)
{
    uint32_t w = 0;
    uint32_t b;
    int i;
    for (i = 0; i < NL; i++) {
        w = (uint32_t)f->v[i] - g->v[i] - (w >> 31);
        h->v[i] = (uint16_t)w;
    }
    b = ct_mask32(w >> 31);             /* all ones iff borrow: a mask, so no select */
    w = (uint32_t)h->v[0] - (b & 38u);
    h->v[0] = (uint16_t)w;
    for (i = 1; i < NL; i++) {
        w = (uint32_t)h->v[i] - (w >> 31);
        h->v[i] = (uint16_t)w;
    }
    h->v[0] = (uint16_t)(h->v[0] - (uint16_t)(ct_mask32(w >> 31) & 38u));
}

/* t[0..32) (a 512-bit product) mod 2^256-38 into h: 2^256 = 38.
 * Each step 38 t_hi + t_lo + c < 39 * 2^16 + 2^16: fits, and c stays below 40.
 * CT: t secret; fixed sequence of multiply-adds. */
static void reduce512(uint16_t h[NL], const uint16_t t[2 * NL])
{
    uint32_t w = 0;
    int i;
    for (i = 0; i < NL; i++) {
        w += mul38(t[i + NL]) + t[i];
        h[i] = (uint16_t)w;
        w >>= 16;
    }
    fold38(h, w);
}

/* Column k of a product scan: returns t_k, updates the carry c. lo and hi hold the sums
 * of the low and high halves of the column's (at most 16) 16x16->32 products, each sum
 * < 2^20, so no add can overflow and no carry needs detecting (no comparisons on secret
 * data); the column value is lo + 2^16 hi + c, and c stays < 2^21.
 * CT: all values secret; arithmetic only. */
static inline uint16_t column_out(uint32_t lo, uint32_t hi, uint32_t *c)
{
    lo += *c;
    *c = (lo >> 16) + hi;
    return (uint16_t)lo;
}

/* Bounds: any 256-bit f, g. Post: h = f * g mod 2^256-38, h < 2^256.
 * Product scanning, column by column (see column_out); then 2^256 = 38.
 * CT: f, g secret; loop bounds depend on the public column index only. */
void mb_fe25519_mul(fe25519 *h, const fe25519 *f, const fe25519 *g)
{
    uint16_t t[2 * NL];
    uint32_t c = 0, lo, hi, p;
    int i, k;
    for (k = 0; k < 2 * NL - 1; k++) {
        int i0 = k < NL ? 0 : k - (NL - 1), i1 = k < NL ? k : NL - 1;
        lo = hi = 0;
        for (i = i0; i <= i1; i++) {
            p = (uint32_t)f->v[i] * g->v[k - i];
            lo += p & 0xffffu;
            hi += p >> 16;
        }
        t[k] = column_out(lo, hi, &c);
    }
    t[2 * NL - 1] = (uint16_t)c;
    reduce512(h->v, t);
    mb_wipe(t, sizeof t);
}

/* Bounds: any 256-bit f. Post: h = f^2 mod 2^256-38, h < 2^256.
 * Cross products f_i f_j (i < j) once, doubled by a shift, then the squares added.
 * CT: f secret; fixed loops, no data-dependent index or branch. */
void mb_fe25519_sqr(fe25519 *h, const fe25519 *f)
{
    uint16_t t[2 * NL];
    uint32_t w;
    uint16_t top;
    int i, j;
    for (i = 0; i < 2 * NL; i++) t[i] = 0;
    for (i = 0; i < NL - 1; i++) {
        uint32_t fi = f->v[i];
        w = 0;
        for (j = i + 1; j < NL; j++) {
            w += fi * f->v[j] + t[i + j];
            t[i + j] = (uint16_t)w;
            w >>= 16;
        }
        t[i + NL] = (uint16_t)w;
    }
    /* Double: the cross sum is < 2^511, so no bit leaves t. */
    top = 0;
    for (i = 0; i < 2 * NL; i++) {
        uint16_t x = t[i];
        t[i] = (uint16_t)((uint16_t)(x << 1) | top);
        top = (uint16_t)(x >> 15);
    }
    w = 0;
    for (i = 0; i < NL; i++) {
        uint32_t fi = f->v[i];
        uint32_t s = fi * fi;
        w += (uint32_t)t[2 * i] + (s & 0xffffu);
        t[2 * i] = (uint16_t)w;
        w >>= 16;
        w += (uint32_t)t[2 * i + 1] + (s >> 16);
        t[2 * i + 1] = (uint16_t)w;
        w >>= 16;
    }
    reduce512(h->v, t);
    mb_wipe(t, sizeof t);
}

/* Bounds: any 256-bit f. Post: h = 121666 f mod 2^256-38, h < 2^256.
 * 121666 = 2^16 + 0xDB42 does not fit a limb, so 121666 f = 0xDB42 f + (f << 16):
 * limb i receives 0xDB42 f_i + f_(i-1) + c <= 2^32-1 (c < 2^16). What leaves bit 256
 * is c + f_15 < 2^17; it is folded back as 38 (c + f_15).
 * CT: f secret; fixed loop. */
void mb_fe25519_mul121666(fe25519 *h, const fe25519 *f)
{
    uint32_t w = 0, hi;
    uint16_t prev = 0, t[NL];
    int i;
    for (i = 0; i < NL; i++) {
        uint32_t fi = f->v[i];
        w += fi * 0xDB42u + prev;
        prev = f->v[i];
        t[i] = (uint16_t)w;
        w >>= 16;
    }
    hi = w + prev;
    fold38(t, hi);
    for (i = 0; i < NL; i++) h->v[i] = t[i];
    mb_wipe(t, sizeof t);
}

/* Pre: bit in {0,1}. CT: bit is secret; a mask, never a branch. */
void mb_fe25519_cswap(fe25519 *f, fe25519 *g, uint32_t bit)
{
    uint16_t m = (uint16_t)ct_mask32(bit);
    int i;
    for (i = 0; i < NL; i++) {
        uint16_t x = (uint16_t)((f->v[i] ^ g->v[i]) & m);
        f->v[i] ^= x;
        g->v[i] ^= x;
    }
}

#endif /* MB_RADIX == 16 */
#endif /* !MB_ASM_MSP430X */
