/* SPDX-License-Identifier: MIT */
/*
 * GF(2^255-19), radix 2^51: 5 limbs in uint64_t, products in unsigned __int128
 * (64-bit hosts). value = v0 + v1 2^51 + v2 2^102 + v3 2^153 + v4 2^204.
 *
 * Bounds, in two classes (fiat-crypto style), so that add and sub need no carry pass:
 *   tight: every limb < 2^52. Output of mul, sqr, mul121666, frombytes, set.
 *   loose: every limb < 2^54. Output of add and sub.
 * add and sub take tight inputs; mul, sqr, mul121666, tobytes (and cswap, copy) take
 * loose ones. A value is not necessarily reduced; mb_fe25519_tobytes reduces fully.
 * CT: every function here treats all of its inputs as secret. Multiplications by the
 * constant 19 and 121666 and 64x64->128 multiplies are constant time on the 64-bit
 * hosts this backend is for.
 */
#include "field/fe25519.h"
#include "util/ct.h"

#if MB_RADIX == 64

typedef unsigned __int128 u128;
#define MASK51 (((uint64_t)1 << 51) - 1)

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

/* Bounds: f, g tight. Post: h = f + g, loose (limbs < 2^53). No carry pass.
 * CT: f, g secret; five adds. */
void mb_fe25519_add(fe25519 *h, const fe25519 *f, const fe25519 *g)
{
    int i;
    for (i = 0; i < 5; i++) h->v[i] = f->v[i] + g->v[i];
}

/* Bounds: f, g tight. Post: h = f - g mod p, loose (limbs < 2^52 + 2^53).
 * Adds 4p limb by limb (2^53-76, 2^53-4, ...), each above any tight limb: no underflow.
 * CT: f, g secret; straight-line arithmetic. */
void mb_fe25519_sub(fe25519 *h, const fe25519 *f, const fe25519 *g)
{
    h->v[0] = (f->v[0] + 0x1fffffffffffb4u) - g->v[0];
    h->v[1] = (f->v[1] + 0x1ffffffffffffcu) - g->v[1];
    h->v[2] = (f->v[2] + 0x1ffffffffffffcu) - g->v[2];
    h->v[3] = (f->v[3] + 0x1ffffffffffffcu) - g->v[3];
    h->v[4] = (f->v[4] + 0x1ffffffffffffcu) - g->v[4];
}

/* Carry the five 128-bit column sums r into h (tight). Columns are < 2^115, so every
 * carry fits in 64 bits; the top column r4 carries no factor 19 and is below
 * 5 * 2^108 + 2^64 < 2^111, so 19 times its carry is < 2^64. h0 then gets one more
 * carry, so h0 < 2^51 and h1 < 2^51 + 2^13.
 * CT: r secret; shifts and masks only. */
static inline void carry128(uint64_t h[5], u128 r0, u128 r1, u128 r2, u128 r3, u128 r4)
{
    uint64_t c;
    c = (uint64_t)(r0 >> 51); h[0] = (uint64_t)r0 & MASK51; r1 += c;
    c = (uint64_t)(r1 >> 51); h[1] = (uint64_t)r1 & MASK51; r2 += c;
    c = (uint64_t)(r2 >> 51); h[2] = (uint64_t)r2 & MASK51; r3 += c;
    c = (uint64_t)(r3 >> 51); h[3] = (uint64_t)r3 & MASK51; r4 += c;
    c = (uint64_t)(r4 >> 51); h[4] = (uint64_t)r4 & MASK51;
    h[0] += 19 * c;
    c = h[0] >> 51; h[0] &= MASK51; h[1] += c;
}

/* Bounds: f, g loose. Post: h = f g mod p, tight.
 * 2^255 = 19: products landing at 2^255 and above come back times 19. Column sums are
 * below 5 * 2^54 * 19 * 2^54 < 2^115.
 * CT: f, g secret; straight-line 64x64->128 multiplies and adds. */
void mb_fe25519_mul(fe25519 *h, const fe25519 *f, const fe25519 *g)
{
    uint64_t f0 = f->v[0], f1 = f->v[1], f2 = f->v[2], f3 = f->v[3], f4 = f->v[4];
    uint64_t g0 = g->v[0], g1 = g->v[1], g2 = g->v[2], g3 = g->v[3], g4 = g->v[4];
    uint64_t g1_19 = 19 * g1, g2_19 = 19 * g2, g3_19 = 19 * g3, g4_19 = 19 * g4;
    u128 r0, r1, r2, r3, r4;

    r0 = (u128)f0 * g0 + (u128)f1 * g4_19 + (u128)f2 * g3_19 + (u128)f3 * g2_19 + (u128)f4 * g1_19;
    r1 = (u128)f0 * g1 + (u128)f1 * g0 + (u128)f2 * g4_19 + (u128)f3 * g3_19 + (u128)f4 * g2_19;
    r2 = (u128)f0 * g2 + (u128)f1 * g1 + (u128)f2 * g0 + (u128)f3 * g4_19 + (u128)f4 * g3_19;
    r3 = (u128)f0 * g3 + (u128)f1 * g2 + (u128)f2 * g1 + (u128)f3 * g0 + (u128)f4 * g4_19;
    r4 = (u128)f0 * g4 + (u128)f1 * g3 + (u128)f2 * g2 + (u128)f3 * g1 + (u128)f4 * g0;
    carry128(h->v, r0, r1, r2, r3, r4);
}

/* Bounds: f loose. Post: h = f^2 mod p, tight. Cross terms once, doubled (38 = 2 * 19
 * factors are < 2^60, products < 2^114, columns < 2^115).
 * CT: f secret; straight-line multiplies and adds. */
void mb_fe25519_sqr(fe25519 *h, const fe25519 *f)
{
    uint64_t f0 = f->v[0], f1 = f->v[1], f2 = f->v[2], f3 = f->v[3], f4 = f->v[4];
    uint64_t f0_2 = 2 * f0, f1_2 = 2 * f1;
    uint64_t f1_38 = 38 * f1, f2_38 = 38 * f2, f3_38 = 38 * f3;
    uint64_t f3_19 = 19 * f3, f4_19 = 19 * f4;
    u128 r0, r1, r2, r3, r4;

    r0 = (u128)f0 * f0 + (u128)f1_38 * f4 + (u128)f2_38 * f3;
    r1 = (u128)f0_2 * f1 + (u128)f2_38 * f4 + (u128)f3_19 * f3;
    r2 = (u128)f0_2 * f2 + (u128)f1 * f1 + (u128)f3_38 * f4;
    r3 = (u128)f0_2 * f3 + (u128)f1_2 * f2 + (u128)f4_19 * f4;
    r4 = (u128)f0_2 * f4 + (u128)f1_2 * f3 + (u128)f2 * f2;
    carry128(h->v, r0, r1, r2, r3, r4);
}

/* Bounds: f loose. Post: h = 121666 f mod p, tight.
 * CT: f secret; fixed loop. */
void mb_fe25519_mul121666(fe25519 *h, const fe25519 *f)
{
    carry128(h->v, (u128)f->v[0] * 121666u, (u128)f->v[1] * 121666u,
             (u128)f->v[2] * 121666u, (u128)f->v[3] * 121666u, (u128)f->v[4] * 121666u);
}

/* Pre: bit in {0,1}. CT: bit is secret; a mask, never a branch. */
void mb_fe25519_cswap(fe25519 *f, fe25519 *g, uint32_t bit)
{
    uint32_t m32 = ct_mask32(bit);
    uint64_t m = ((uint64_t)m32 << 32) | m32;
    int i;
    for (i = 0; i < 5; i++) {
        uint64_t x = (f->v[i] ^ g->v[i]) & m;
        f->v[i] ^= x;
        g->v[i] ^= x;
    }
}

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
