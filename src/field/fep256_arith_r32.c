/* SPDX-License-Identifier: MIT */
/*
 * GF(p256), radix 2^32: 8 x 32-bit limbs (Cortex-M4 representation).
 * The arithmetic: add, sub and sqr_n from the shared portable Montgomery code of
 * fep256_mont_arith.inc; mul and sqr here, operand scanning with one UMLAL per product
 * (the shared product scanning suits 16- and 64-bit limbs).
 * CT: every function treats all of its inputs as secret.
 */
#include "field/fep256.h"
#include "util/ct.h"
#include "util/backend.h"

/* Replaced whole by arch/cortex-m4/ when that backend is active (util/backend.h). */
#if !MB_ASM_CORTEX_M4

#if MB_RADIX == 32

/* The radix-32 multiplication is its own (below): the shared product scanning splits each
 * product into two accumulators, which costs C on a 32-bit core about four additions per
 * product; here every product is one 32x32->64 multiply-accumulate (UMLAL). add and sub
 * are unrolled 32-bit chains (the shared loops run on 64-bit words). */
#define MB_FEP256_OWN_MUL 1
#define MB_FEP256_OWN_ADDSUB 1
#include "field/fep256_limbs.inc"
#include "field/fep256_mont_arith.inc"

/* One step of a row: (c, t) = t + a b + c. Never overflows: (2^32-1)^2 + 2 (2^32-1) =
 * 2^64 - 1. */
#define MAC(t, a, b, c) do { uint64_t uv_ = (uint64_t)(a) * (b) + (t) + (c); \
                             (t) = (uint32_t)uv_; (c) = (uint32_t)(uv_ >> 32); } while (0)

/* p's words, low first: 2^32-1 three times, 0 three times, 1, 2^32-1. */
#define P0 0xFFFFFFFFu
#define P1 0xFFFFFFFFu
#define P2 0xFFFFFFFFu
#define P3 0u
#define P4 0u
#define P5 0u
#define P6 1u
#define P7 0xFFFFFFFFu

/* One word of a subtraction chain: d = x - y - b, b = the borrow out (0 or 1), taken
 * from bit 63 of the 64-bit difference: no comparison. */
#define SBB(d, x, y, b) do { uint64_t w_ = (uint64_t)(x) - (y) - (b); \
                             (d) = (uint32_t)w_; (b) = (uint32_t)(w_ >> 63); } while (0)
/* One word of an addition chain: d = x + y + c, c = the carry out. */
#define ADC(d, x, y, c) do { uint64_t w_ = (uint64_t)(x) + (y) + (c); \
                             (d) = (uint32_t)w_; (c) = (uint32_t)(w_ >> 32); } while (0)

/* Bounds: t (8 words) + top 2^256 < 2p, top in {0, 1}. Post: h = that value mod p, h < p.
 * d = t - p; keep t iff the subtraction borrowed beyond top ([SAK18] Algorithm 2), chosen
 * by a mask (through the value barrier) word by word: no branch, no add-back chain.
 * CT: t, top secret. */
static void reduce_store(fep256 *h, uint32_t t0, uint32_t t1, uint32_t t2, uint32_t t3,
                         uint32_t t4, uint32_t t5, uint32_t t6, uint32_t t7, uint32_t top)
{
    uint32_t d0, d1, d2, d3, d4, d5, d6, d7, b = 0, m;
    SBB(d0, t0, P0, b); SBB(d1, t1, P1, b); SBB(d2, t2, P2, b); SBB(d3, t3, P3, b);
    SBB(d4, t4, P4, b); SBB(d5, t5, P5, b); SBB(d6, t6, P6, b); SBB(d7, t7, P7, b);
    m = limb_mask(b & (top ^ 1u));          /* all ones: t < p, keep t */
    h->v[0] = d0 ^ (m & (d0 ^ t0)); h->v[1] = d1 ^ (m & (d1 ^ t1));
    h->v[2] = d2 ^ (m & (d2 ^ t2)); h->v[3] = d3 ^ (m & (d3 ^ t3));
    h->v[4] = d4 ^ (m & (d4 ^ t4)); h->v[5] = d5 ^ (m & (d5 ^ t5));
    h->v[6] = d6 ^ (m & (d6 ^ t6)); h->v[7] = d7 ^ (m & (d7 ^ t7));
}

/* Bounds: f, g < p. Post: h = f + g mod p, h < p. Unrolled carry chain, then
 * reduce_store (f + g < 2p).
 * CT: f, g secret. */
void mb_fep256_add(fep256 *h, const fep256 *f, const fep256 *g)
{
    uint32_t s0, s1, s2, s3, s4, s5, s6, s7, c = 0;
    ADC(s0, f->v[0], g->v[0], c); ADC(s1, f->v[1], g->v[1], c);
    ADC(s2, f->v[2], g->v[2], c); ADC(s3, f->v[3], g->v[3], c);
    ADC(s4, f->v[4], g->v[4], c); ADC(s5, f->v[5], g->v[5], c);
    ADC(s6, f->v[6], g->v[6], c); ADC(s7, f->v[7], g->v[7], c);
    reduce_store(h, s0, s1, s2, s3, s4, s5, s6, s7, c);
}

/* Bounds: f, g < p. Post: h = f - g mod p, h < p. f - g with a borrow chain; a borrow
 * means f - g + 2^256 was computed, and adding p under the borrow's mask wraps it back
 * to f - g + p ([SAK18] Algorithm 2, subtraction). p's words under the mask are m
 * (2^32-1), 0 or m & 1.
 * CT: f, g secret; the borrow becomes a mask through the value barrier. */
void mb_fep256_sub(fep256 *h, const fep256 *f, const fep256 *g)
{
    uint32_t d0, d1, d2, d3, d4, d5, d6, d7, b = 0, m, c = 0;
    SBB(d0, f->v[0], g->v[0], b); SBB(d1, f->v[1], g->v[1], b);
    SBB(d2, f->v[2], g->v[2], b); SBB(d3, f->v[3], g->v[3], b);
    SBB(d4, f->v[4], g->v[4], b); SBB(d5, f->v[5], g->v[5], b);
    SBB(d6, f->v[6], g->v[6], b); SBB(d7, f->v[7], g->v[7], b);
    m = limb_mask(b);
    ADC(h->v[0], d0, m, c); ADC(h->v[1], d1, m, c); ADC(h->v[2], d2, m, c);
    ADC(h->v[3], d3, 0u, c); ADC(h->v[4], d4, 0u, c); ADC(h->v[5], d5, 0u, c);
    ADC(h->v[6], d6, m & 1u, c); ADC(h->v[7], d7, m, c);
}

/* Bounds: f, g < p. Post: h = f g / 2^256 mod p, h < p (Montgomery product).
 * Operand scanning with interleaved reduction ([SAK18] Algorithm 3's word order): for each
 * word f_i, t += f_i g, then t = (t + m p) / 2^32 with m = t_0 (p = -1 mod 2^32, so
 * -1/p = 1 mod 2^32). m p = m (p + 1) - m and p + 1 = 2^96 + 2^192 - 2^224 + 2^256: the
 * "- m" clears word 0 exactly, and the rest is m added at (shifted) words 2 and 5,
 * m (2^32 - 1) at word 6 (its -2^224 and +2^256 together, non-negative): no
 * multiplication. t < 2p after every row ([SAK18]), and the row's top word t9 is 0 or 1
 * (t + f_i g < 2^257 + 2^288); one masked subtraction of p ends it.
 * CT: f, g secret; the same sequence of operations for all values. */
void mb_fep256_mul(fep256 *h, const fep256 *f, const fep256 *g)
{
    uint32_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0, t5 = 0, t6 = 0, t7 = 0, t8 = 0, t9;
    uint32_t g0 = g->v[0], g1 = g->v[1], g2 = g->v[2], g3 = g->v[3];
    uint32_t g4 = g->v[4], g5 = g->v[5], g6 = g->v[6], g7 = g->v[7];
    uint32_t a, c, m;
    uint64_t s;
    int i;
    for (i = 0; i < 8; i++) {
        a = f->v[i];
        c = 0;
        MAC(t0, a, g0, c); MAC(t1, a, g1, c); MAC(t2, a, g2, c); MAC(t3, a, g3, c);
        MAC(t4, a, g4, c); MAC(t5, a, g5, c); MAC(t6, a, g6, c); MAC(t7, a, g7, c);
        s = (uint64_t)t8 + c;
        t8 = (uint32_t)s;
        t9 = (uint32_t)(s >> 32);
        m = t0;
        s = t1;                                     t0 = (uint32_t)s; s >>= 32;
        s += t2;                                    t1 = (uint32_t)s; s >>= 32;
        s += (uint64_t)t3 + m;                      t2 = (uint32_t)s; s >>= 32;
        s += t4;                                    t3 = (uint32_t)s; s >>= 32;
        s += t5;                                    t4 = (uint32_t)s; s >>= 32;
        s += (uint64_t)t6 + m;                      t5 = (uint32_t)s; s >>= 32;
        s += (uint64_t)t7 + ((uint64_t)m << 32) - m; t6 = (uint32_t)s; s >>= 32;
        s += t8;                                    t7 = (uint32_t)s; s >>= 32;
        t8 = (uint32_t)s + t9;
    }
    reduce_store(h, t0, t1, t2, t3, t4, t5, t6, t7, t8);
}

/* Bounds: f < p. Post: h = f^2 / 2^256 mod p, h < p. The multiplication's code (the
 * operand-scanning rows have no cheap symmetric form). */
void mb_fep256_sqr(fep256 *h, const fep256 *f)
{
    mb_fep256_mul(h, f, f);
}

#endif
#endif /* !MB_ASM_CORTEX_M4 */
