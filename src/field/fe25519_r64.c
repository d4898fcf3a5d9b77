/* SPDX-License-Identifier: MIT */
/*
 * GF(2^255-19), radix 2^51: 5 limbs in uint64_t, products in unsigned __int128
 * (64-bit hosts). value = v0 + v1 2^51 + v2 2^102 + v3 2^153 + v4 2^204.
 * The arithmetic lives in fe25519_r64_inline.h (static inline, so that the ladder and
 * the inversion inline it); this file exports it as the backend's mb_fe25519_*
 * functions and adds encoding, decoding and constants.
 *
 * Bounds, in two classes (fiat-crypto style), so that add and sub need no carry pass:
 *   tight: every limb < 2^52. Output of mul, sqr, mul121666, frombytes, set.
 *   loose: every limb < 2^54. Output of add and sub.
 * add and sub take tight inputs; mul, sqr, mul121666, tobytes (and cswap, copy) take
 * loose ones. A value is not necessarily reduced; mb_fe25519_tobytes reduces fully.
 * CT: every function here treats all of its inputs as secret.
 */
#include "field/fe25519.h"
#include "field/fe25519_r64_inline.h"
#include "util/ct.h"

#if MB_RADIX == 64

#define MASK51 FE51_MASK51

/* Carry pass over 5 limbs each < 2^63: afterwards limbs 1..4 < 2^51 and limb 0 is
 * < 2^51 + 19 * 2^12, which is < 2^52.
 * CT: h secret; shifts and masks only. */
static inline void carry(uint64_t h[5])
{
    uint64_t c;
    c = h[0] >> 51; h[0] &= MASK51; h[1] += c;
    c = h[1] >> 51; h[1] &= MASK51; h[2] += c;
    c = h[2] >> 51; h[2] &= MASK51; h[3] += c;
    c = h[3] >> 51; h[3] &= MASK51; h[4] += c;
    c = h[4] >> 51; h[4] &= MASK51; h[0] += 19 * c;
}

/* The arithmetic: contracts and CT notes at the inline definitions. */
void mb_fe25519_add(fe25519 *h, const fe25519 *f, const fe25519 *g) { fe51_add(h, f, g); }
void mb_fe25519_sub(fe25519 *h, const fe25519 *f, const fe25519 *g) { fe51_sub(h, f, g); }
void mb_fe25519_mul(fe25519 *h, const fe25519 *f, const fe25519 *g) { fe51_mul(h, f, g); }
void mb_fe25519_sqr(fe25519 *h, const fe25519 *f) { fe51_sqr(h, f); }
void mb_fe25519_mul121666(fe25519 *h, const fe25519 *f) { fe51_mul121666(h, f); }
void mb_fe25519_cswap(fe25519 *f, fe25519 *g, uint32_t bit) { fe51_cswap(f, g, bit); }

static uint64_t load64_le(const uint8_t *p)
{
    return (uint64_t)load32_le(p) | ((uint64_t)load32_le(p + 4) << 32);
}

/* Post: h = s mod 2^255 (bit 255 ignored), limbs < 2^51 (tight).
 * CT: s may be secret; loads at fixed positions. */
void mb_fe25519_frombytes(fe25519 *h, const uint8_t s[32])
{
    uint64_t w0 = load64_le(s), w1 = load64_le(s + 8), w2 = load64_le(s + 16), w3 = load64_le(s + 24);
    h->v[0] = w0 & MASK51;
    h->v[1] = ((w0 >> 51) | (w1 << 13)) & MASK51;
    h->v[2] = ((w1 >> 38) | (w2 << 26)) & MASK51;
    h->v[3] = ((w2 >> 25) | (w3 << 39)) & MASK51;
    h->v[4] = (w3 >> 12) & MASK51;
}

/* Bounds: h loose. Post: s = h mod p, canonical, little-endian.
 * Two carry passes leave limbs 1..4 < 2^51 and limb 0 < 2^51 + 19 (the first leaves
 * limb 0 < 2^51 + 19 * 8, the second carries at most 1 out of limb 4), so the value is
 * below 2^255 + 19 < 2p. The q chain is the carry of h + 19 into bit 255: q = 1 iff
 * h >= p. Adding 19q, carrying and dropping bit 255 then subtracts qp.
 * CT: h secret; the choice between h and h - p is a mask. */
void mb_fe25519_tobytes(uint8_t s[32], const fe25519 *h)
{
    uint64_t t[5], q, c;
    int i;
    for (i = 0; i < 5; i++) t[i] = h->v[i];
    carry(t);
    carry(t);
    q = (t[0] + 19) >> 51;
    q = (t[1] + q) >> 51;
    q = (t[2] + q) >> 51;
    q = (t[3] + q) >> 51;
    q = (t[4] + q) >> 51;
    t[0] += 19 * q;
    c = t[0] >> 51; t[0] &= MASK51; t[1] += c;
    c = t[1] >> 51; t[1] &= MASK51; t[2] += c;
    c = t[2] >> 51; t[2] &= MASK51; t[3] += c;
    c = t[3] >> 51; t[3] &= MASK51; t[4] += c;
    t[4] &= MASK51;
    {
        uint64_t w[4];
        w[0] = t[0] | (t[1] << 51);
        w[1] = (t[1] >> 13) | (t[2] << 38);
        w[2] = (t[2] >> 26) | (t[3] << 25);
        w[3] = (t[3] >> 39) | (t[4] << 12);
        for (i = 0; i < 4; i++) {
            store32_le(s + 8 * i, (uint32_t)w[i]);
            store32_le(s + 8 * i + 4, (uint32_t)(w[i] >> 32));
        }
        mb_wipe(w, sizeof w);
    }
    mb_wipe(t, sizeof t);
}

/* Post: h = c (tight). c is a public constant. */
void mb_fe25519_set(fe25519 *h, uint16_t c)
{
    h->v[0] = c;
    h->v[1] = h->v[2] = h->v[3] = h->v[4] = 0;
}

#endif /* MB_RADIX == 64 */
