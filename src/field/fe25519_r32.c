/* SPDX-License-Identifier: MIT */
/*
 * GF(2^255-19), radix 2^32: 8 x 32-bit limbs, full radix ([DS16]'s Cortex-M4
 * representation). A value is any integer in [0, 2^256); results are reduced mod
 * 2^256-38 = 2p only (they fit in 256 bits); mb_fe25519_tobytes reduces mod p.
 *
 * Encoding and decoding live in fe25519_io_r32.c, so that arch/cortex-m4/ replaces this
 * arithmetic file whole and keeps those.
 *
 * Products are 32x32->64 bits; carries are propagated with shifts of the 64-bit
 * accumulator, never with comparisons, so nothing branches on data.
 * CT: every function here treats all of its inputs as secret.
 */
#include "field/fe25519.h"
#include "util/ct.h"
#include "util/backend.h"

/* Replaced whole by arch/cortex-m4/ when that backend is active (util/backend.h). */
#if !MB_ASM_CORTEX_M4

#if MB_RADIX == 32 && !MB_FE25519_R25

#define NL 8   /* limbs */

/* h += 38 * c (a value carried out of bit 256, c < 2^26), mod 2^256-38.
 * If the addition wraps past 2^256, the wrapped value is below 38c, so adding 38 to
 * limb 0 once more cannot carry (38c + 38 < 2^32).
 * CT: h, c secret; the final carry is multiplied in, not branched on. */
static void fold38(uint32_t h[NL], uint32_t c)
{
    uint64_t w = (uint64_t)38 * c;
    int i;
    for (i = 0; i < NL; i++) {
        w += h[i];
        h[i] = (uint32_t)w;
        w >>= 32;
    }
    h[0] += (uint32_t)w * 38u;
}

/* Bounds: any 256-bit f, g. Post: h = f + g mod 2^256-38, h < 2^256.
 * CT: f, g secret; straight-line adds, carries by shifts. */
void mb_fe25519_add(fe25519 *h, const fe25519 *f, const fe25519 *g)
{
    uint64_t w = 0;
    int i;
    for (i = 0; i < NL; i++) {
        w += (uint64_t)f->v[i] + g->v[i];
        h->v[i] = (uint32_t)w;
        w >>= 32;
    }
    fold38(h->v, (uint32_t)w);   /* w <= 1 */
}

/* Bounds: any 256-bit f, g. Post: h = f - g mod 2^256-38, h < 2^256.
 * A borrow out of bit 256 means we computed f - g + 2^256; subtracting 38 gives
 * f - g + (2^256-38). If that borrows again, the value is >= 2^256-38 after wrapping,
 * so limb 0 is >= 2^32-38 and the last subtraction of 38 cannot borrow.
 * CT: f, g secret; borrows are taken from the sign bit, never compared. */
void mb_fe25519_sub(fe25519 *h, const fe25519 *f, const fe25519 *g)
{
    uint64_t w = 0;
    uint32_t b;
    int i;
    for (i = 0; i < NL; i++) {
        w = (uint64_t)f->v[i] - g->v[i] - (w >> 63);
        h->v[i] = (uint32_t)w;
    }
    b = (uint32_t)(w >> 63);
    w = (uint64_t)h->v[0] - (uint64_t)38 * b;
    h->v[0] = (uint32_t)w;
    for (i = 1; i < NL; i++) {
        w = (uint64_t)h->v[i] - (w >> 63);
        h->v[i] = (uint32_t)w;
    }
    h->v[0] -= (uint32_t)(w >> 63) * 38u;
}

/* t[0..16) (a 512-bit product) mod 2^256-38 into h: 2^256 = 38.
 * CT: t secret; fixed sequence of multiply-adds. */
static void reduce512(uint32_t h[NL], const uint32_t t[2 * NL])
{
    uint64_t w = 0;
    int i;
    for (i = 0; i < NL; i++) {
        w += (uint64_t)t[i + NL] * 38u + t[i];
        h[i] = (uint32_t)w;
        w >>= 32;
    }
    fold38(h, (uint32_t)w);      /* w < 39 */
}

/* Bounds: any 256-bit f, g. Post: h = f * g mod 2^256-38, h < 2^256.
 * Operand scanning: each step a*b + t + c <= (2^32-1)^2 + 2(2^32-1) = 2^64-1.
 * CT: f, g secret; fixed loops, no data-dependent index or branch. */
void mb_fe25519_mul(fe25519 *h, const fe25519 *f, const fe25519 *g)
{
    uint32_t t[2 * NL];
    uint64_t w;
    int i, j;
    for (i = 0; i < 2 * NL; i++) t[i] = 0;
    for (i = 0; i < NL; i++) {
        w = 0;
        for (j = 0; j < NL; j++) {
            w += (uint64_t)f->v[i] * g->v[j] + t[i + j];
            t[i + j] = (uint32_t)w;
            w >>= 32;
        }
        t[i + NL] = (uint32_t)w;
    }
    reduce512(h->v, t);
    mb_wipe(t, sizeof t);
}

/* Bounds: any 256-bit f. Post: h = f^2 mod 2^256-38, h < 2^256.
 * Cross products f_i f_j (i < j) once, doubled by a shift, then the squares added.
 * CT: f secret; fixed loops, no data-dependent index or branch. */
void mb_fe25519_sqr(fe25519 *h, const fe25519 *f)
{
    uint32_t t[2 * NL];
    uint64_t w;
    uint32_t top;
    int i, j;
    for (i = 0; i < 2 * NL; i++) t[i] = 0;
    for (i = 0; i < NL - 1; i++) {
        w = 0;
        for (j = i + 1; j < NL; j++) {
            w += (uint64_t)f->v[i] * f->v[j] + t[i + j];
            t[i + j] = (uint32_t)w;
            w >>= 32;
        }
        t[i + NL] = (uint32_t)w;
    }
    /* Double: the cross sum is < 2^511, so no bit leaves t. */
    top = 0;
    for (i = 0; i < 2 * NL; i++) {
        uint32_t x = t[i];
        t[i] = (x << 1) | top;
        top = x >> 31;
    }
    w = 0;
    for (i = 0; i < NL; i++) {
        uint64_t s = (uint64_t)f->v[i] * f->v[i];
        w += (uint64_t)t[2 * i] + (uint32_t)s;
        t[2 * i] = (uint32_t)w;
        w >>= 32;
        w += (uint64_t)t[2 * i + 1] + (uint32_t)(s >> 32);
        t[2 * i + 1] = (uint32_t)w;
        w >>= 32;
    }
    reduce512(h->v, t);
    mb_wipe(t, sizeof t);
}

/* Bounds: any 256-bit f. Post: h = 121666 f mod 2^256-38, h < 2^256.
 * CT: f secret; fixed loop. */
void mb_fe25519_mul121666(fe25519 *h, const fe25519 *f)
{
    uint64_t w = 0;
    int i;
    for (i = 0; i < NL; i++) {
        w += (uint64_t)f->v[i] * 121666u;
        h->v[i] = (uint32_t)w;
        w >>= 32;
    }
    fold38(h->v, (uint32_t)w);   /* w < 121666 */
}

/* Pre: bit in {0,1}. CT: bit is secret; a mask, never a branch. */
void mb_fe25519_cswap(fe25519 *f, fe25519 *g, uint32_t bit)
{
    uint32_t m = ct_mask32(bit);
    int i;
    for (i = 0; i < NL; i++) {
        uint32_t x = (f->v[i] ^ g->v[i]) & m;
        f->v[i] ^= x;
        g->v[i] ^= x;
    }
}

#endif /* MB_RADIX == 32 */
#endif /* !MB_ASM_CORTEX_M4 */
