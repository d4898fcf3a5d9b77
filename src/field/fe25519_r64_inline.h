/* SPDX-License-Identifier: MIT */
/*
 * GF(2^255-19), radix 2^51, as static inline functions: the arithmetic of the r64
 * backend (fe25519_r64.c wraps these as the mb_fe25519_* symbols), visible to the hot
 * loops (x25519_ladder_steps.c, fe25519_invert.c through field/fe25519_ops.h) so that
 * the compiler keeps limbs in registers across operations instead of calling out and
 * going through memory for every one (the host build has no LTO; the host bench's
 * x25519 row measured the inlined ladder well ahead of the calls).
 *
 * 5 limbs in uint64_t, products in unsigned __int128 (64-bit hosts).
 * value = v0 + v1 2^51 + v2 2^102 + v3 2^153 + v4 2^204.
 *
 * Bounds, in two classes (fiat-crypto style), so that add and sub need no carry pass:
 *   tight: every limb < 2^52. Output of mul, sqr, mul121666, frombytes, set.
 *   loose: every limb < 2^54. Output of add and sub.
 * add and sub take tight inputs; mul, sqr, mul121666 (and cswap, copy) take loose ones.
 * CT: every function here treats all of its inputs as secret. Multiplications by the
 * constants 19 and 121666 and 64x64->128 multiplies are constant time on the 64-bit
 * hosts this backend is for.
 */
#ifndef MB_FE25519_R64_INLINE_H
#define MB_FE25519_R64_INLINE_H

#include "field/fe25519.h"
#include "util/ct.h"

#if MB_RADIX == 64

typedef unsigned __int128 fe51_u128;
#define FE51_MASK51 (((uint64_t)1 << 51) - 1)
/* Forced: at -O2 gcc does not inline the 25-product mul by itself, and inlining only
 * some of the operations measured no better than calls. */
#if defined(__GNUC__)
#define FE51_INLINE static inline __attribute__((always_inline))
#else
#define FE51_INLINE static inline
#endif

/* Bounds: f, g tight. Post: h = f + g, loose (limbs < 2^53). No carry pass.
 * CT: f, g secret; five adds. */
FE51_INLINE void fe51_add(fe25519 *h, const fe25519 *f, const fe25519 *g)
{
    h->v[0] = f->v[0] + g->v[0];
    h->v[1] = f->v[1] + g->v[1];
    h->v[2] = f->v[2] + g->v[2];
    h->v[3] = f->v[3] + g->v[3];
    h->v[4] = f->v[4] + g->v[4];
}

/* Bounds: f, g tight. Post: h = f - g mod p, loose (limbs < 2^52 + 2^53).
 * Adds 4p limb by limb (2^53-76, 2^53-4, ...), each above any tight limb: no underflow.
 * CT: f, g secret; straight-line arithmetic. */
FE51_INLINE void fe51_sub(fe25519 *h, const fe25519 *f, const fe25519 *g)
{
    h->v[0] = (f->v[0] + 0x1fffffffffffb4u) - g->v[0];
    h->v[1] = (f->v[1] + 0x1ffffffffffffcu) - g->v[1];
    h->v[2] = (f->v[2] + 0x1ffffffffffffcu) - g->v[2];
    h->v[3] = (f->v[3] + 0x1ffffffffffffcu) - g->v[3];
    h->v[4] = (f->v[4] + 0x1ffffffffffffcu) - g->v[4];
}

/* Carry the five 128-bit column sums r into h (tight). Columns are below
 * 95 * 2^108 < 2^114.6 (see fe51_mul), so every carry is < 2^63.6 and fits in 64 bits
 * with room for a 51-bit limb beside it. Two chains start together (donna-64 style):
 * r0 -> r1 -> r2 -> h3 and r3 -> r4 -> h0 (times 19: r4 has no factor 19 and is below
 * 5 * 2^108 + 2^64 < 2^111, so 19 times its carry is < 2^64), then h0 -> h1 and h3 -> h4
 * once more. The serial path is four carries instead of seven (the inversion, a chain
 * of squarings, waits on it).
 * Post: h0, h2, h3 < 2^51; h1, h4 < 2^51 + 2^14 (tight).
 * CT: r secret; shifts and masks only. */
FE51_INLINE void fe51_carry128(fe25519 *h, fe51_u128 r0, fe51_u128 r1, fe51_u128 r2,
                               fe51_u128 r3, fe51_u128 r4)
{
    uint64_t h0, h1, h2, h3, h4, c;
    c = (uint64_t)(r0 >> 51); h0 = (uint64_t)r0 & FE51_MASK51; r1 += c;
    c = (uint64_t)(r3 >> 51); h3 = (uint64_t)r3 & FE51_MASK51; r4 += c;
    c = (uint64_t)(r1 >> 51); h1 = (uint64_t)r1 & FE51_MASK51; r2 += c;
    c = (uint64_t)(r4 >> 51); h4 = (uint64_t)r4 & FE51_MASK51; h0 += 19 * c;
    c = (uint64_t)(r2 >> 51); h2 = (uint64_t)r2 & FE51_MASK51; h3 += c;
    c = h0 >> 51; h0 &= FE51_MASK51; h1 += c;
    c = h3 >> 51; h3 &= FE51_MASK51; h4 += c;
    h->v[0] = h0; h->v[1] = h1; h->v[2] = h2; h->v[3] = h3; h->v[4] = h4;
}

/* Bounds: f, g loose. Post: h = f g mod p, tight.
 * 2^255 = 19: products landing at 2^255 and above come back times 19. Column sums are
 * below 5 * 2^54 * 19 * 2^54 < 2^115.
 * CT: f, g secret; straight-line 64x64->128 multiplies and adds. */
FE51_INLINE void fe51_mul(fe25519 *h, const fe25519 *f, const fe25519 *g)
{
    uint64_t f0 = f->v[0], f1 = f->v[1], f2 = f->v[2], f3 = f->v[3], f4 = f->v[4];
    uint64_t g0 = g->v[0], g1 = g->v[1], g2 = g->v[2], g3 = g->v[3], g4 = g->v[4];
    uint64_t g1_19 = 19 * g1, g2_19 = 19 * g2, g3_19 = 19 * g3, g4_19 = 19 * g4;
    fe51_u128 r0, r1, r2, r3, r4;

    r0 = (fe51_u128)f0 * g0 + (fe51_u128)f1 * g4_19 + (fe51_u128)f2 * g3_19
       + (fe51_u128)f3 * g2_19 + (fe51_u128)f4 * g1_19;
    r1 = (fe51_u128)f0 * g1 + (fe51_u128)f1 * g0 + (fe51_u128)f2 * g4_19
       + (fe51_u128)f3 * g3_19 + (fe51_u128)f4 * g2_19;
    r2 = (fe51_u128)f0 * g2 + (fe51_u128)f1 * g1 + (fe51_u128)f2 * g0
       + (fe51_u128)f3 * g4_19 + (fe51_u128)f4 * g3_19;
    r3 = (fe51_u128)f0 * g3 + (fe51_u128)f1 * g2 + (fe51_u128)f2 * g1
       + (fe51_u128)f3 * g0 + (fe51_u128)f4 * g4_19;
    r4 = (fe51_u128)f0 * g4 + (fe51_u128)f1 * g3 + (fe51_u128)f2 * g2
       + (fe51_u128)f3 * g1 + (fe51_u128)f4 * g0;
    fe51_carry128(h, r0, r1, r2, r3, r4);
}

/* Bounds: f loose. Post: h = f^2 mod p, tight. Cross terms once, doubled (38 = 2 * 19
 * factors are < 2^60, products < 2^114, columns < 2^115).
 * CT: f secret; straight-line multiplies and adds. */
FE51_INLINE void fe51_sqr(fe25519 *h, const fe25519 *f)
{
    uint64_t f0 = f->v[0], f1 = f->v[1], f2 = f->v[2], f3 = f->v[3], f4 = f->v[4];
    uint64_t f0_2 = 2 * f0, f1_2 = 2 * f1;
    uint64_t f1_38 = 38 * f1, f2_38 = 38 * f2, f3_38 = 38 * f3;
    uint64_t f3_19 = 19 * f3, f4_19 = 19 * f4;
    fe51_u128 r0, r1, r2, r3, r4;

    r0 = (fe51_u128)f0 * f0 + (fe51_u128)f1_38 * f4 + (fe51_u128)f2_38 * f3;
    r1 = (fe51_u128)f0_2 * f1 + (fe51_u128)f2_38 * f4 + (fe51_u128)f3_19 * f3;
    r2 = (fe51_u128)f0_2 * f2 + (fe51_u128)f1 * f1 + (fe51_u128)f3_38 * f4;
    r3 = (fe51_u128)f0_2 * f3 + (fe51_u128)f1_2 * f2 + (fe51_u128)f4_19 * f4;
    r4 = (fe51_u128)f0_2 * f4 + (fe51_u128)f1_2 * f3 + (fe51_u128)f2 * f2;
    fe51_carry128(h, r0, r1, r2, r3, r4);
}

/* Bounds: f loose. Post: h = f^2 mod p, tight. The same sums as fe51_sqr, with the
 * cross terms doubled on one factor (2 f_i < 2^55) and times 19 on the other
 * (19 f_j < 2^58.3): products below 2^113.3, columns below 2^114.4, the top column r4
 * below 5 * 2^108 (fe51_carry128). Adds and LEAs instead of multiplications by 38: a
 * shorter path from f to the products, for the inversion's chain of squarings (in the
 * ladder, whose squarings overlap, fe51_sqr measured faster).
 * CT: f secret; straight-line multiplies and adds. */
FE51_INLINE void fe51_sqr_chain(fe25519 *h, const fe25519 *f)
{
    uint64_t f0 = f->v[0], f1 = f->v[1], f2 = f->v[2], f3 = f->v[3], f4 = f->v[4];
    uint64_t d0 = 2 * f0, d1 = 2 * f1, d2 = 2 * f2, d3 = 2 * f3;
    uint64_t f3_19 = 19 * f3, f4_19 = 19 * f4;
    fe51_u128 r0, r1, r2, r3, r4;

    r0 = (fe51_u128)f0 * f0 + (fe51_u128)d1 * f4_19 + (fe51_u128)d2 * f3_19;
    r1 = (fe51_u128)d0 * f1 + (fe51_u128)d2 * f4_19 + (fe51_u128)f3 * f3_19;
    r2 = (fe51_u128)d0 * f2 + (fe51_u128)f1 * f1 + (fe51_u128)d3 * f4_19;
    r3 = (fe51_u128)d0 * f3 + (fe51_u128)d1 * f2 + (fe51_u128)f4 * f4_19;
    r4 = (fe51_u128)d0 * f4 + (fe51_u128)d1 * f3 + (fe51_u128)f2 * f2;
    fe51_carry128(h, r0, r1, r2, r3, r4);
}

/* Pre: n >= 1 (public). Bounds: f loose. Post: h = f^(2^n), tight.
 * The limbs stay in a local between squarings (no memory round trip per squaring).
 * CT: f secret; the count n is public. */
FE51_INLINE void fe51_sqr_n(fe25519 *h, const fe25519 *f, int n)
{
    fe25519 t = *f;
    do fe51_sqr_chain(&t, &t); while (--n > 0);
    *h = t;
}

/* Bounds: f loose, g tight. Post: h = 121666 f + g mod p, tight: the ladder's
 * BB + 121666 E in one carry pass. Columns are below 2^17 * 2^54 + 2^52 < 2^72.
 * CT: f, g secret; straight-line multiplies by a constant. */
FE51_INLINE void fe51_mul121666_add(fe25519 *h, const fe25519 *f, const fe25519 *g)
{
    fe51_carry128(h, (fe51_u128)f->v[0] * 121666u + g->v[0],
                  (fe51_u128)f->v[1] * 121666u + g->v[1],
                  (fe51_u128)f->v[2] * 121666u + g->v[2],
                  (fe51_u128)f->v[3] * 121666u + g->v[3],
                  (fe51_u128)f->v[4] * 121666u + g->v[4]);
}

/* Bounds: f loose. Post: h = 121666 f mod p, tight.
 * CT: f secret; straight-line multiplies by a constant. */
FE51_INLINE void fe51_mul121666(fe25519 *h, const fe25519 *f)
{
    fe51_carry128(h, (fe51_u128)f->v[0] * 121666u, (fe51_u128)f->v[1] * 121666u,
                  (fe51_u128)f->v[2] * 121666u, (fe51_u128)f->v[3] * 121666u,
                  (fe51_u128)f->v[4] * 121666u);
}

/* Pre: bit in {0,1}. CT: bit is secret; a mask (through the value barrier of
 * ct_mask32), never a branch. */
FE51_INLINE void fe51_cswap(fe25519 *f, fe25519 *g, uint32_t bit)
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

#endif /* MB_RADIX == 64 */
#endif
