/* SPDX-License-Identifier: MIT */
/*
 * Portable body of the GF(p256) backends: included exactly once by each fep256_rNN.c,
 * after it has defined
 *   limb, dlimb   unsigned limb type and one twice as wide
 *   LB, NL        bits per limb, number of limbs (LB * NL = 256)
 *   MB_P[NL]      p, little-endian limbs
 *   red_col(q, k)  the sum of the words that the Montgomery digits q_0..q_{k-1}
 *                 contribute to column k through q_j * (p + 1) (see below).
 * Not an interface: only fep256.h is.
 *
 * Montgomery multiplication (seed 001, Algorithms 3/4), product scanning with the
 * reduction interleaved column by column. With W = 2^LB, p = -1 mod W, so
 * -1/p = 1 mod W: the Montgomery digit of column k is simply q_k = (column k) mod W.
 * Adding q_k * p = q_k * (p+1) - q_k clears the low word exactly (the "- q_k" part), so
 * nothing is subtracted at all; what is left is q_k * (p+1), and
 *   p + 1 = 2^256 - 2^224 + 2^192 + 2^96
 * is 2^96 + 2^192 + (2^32 - 1) * 2^224: in 16- and 32-bit words only the patterns
 * 0x00..01 and 0xFF..FF. Each q_k lands in a few later columns as q_k itself, or as the
 * words of (2^32 - 1) * q_k = q_k * 2^32 - q_k: (-q_k mod W), with 16-bit limbs then
 * 0xFFFF if q_k != 0, and (q_k - [q_k != 0]); 64-bit words need 32-bit shifts too
 * (fep256_r64.c). None by
 * multiplication: red_col adds those words, from the digits kept in q[] (the seed keeps
 * them on the stack too). Plain additions; only the public column index selects them.
 *
 * Column accumulator: products are split into low and high halves summed separately
 * (lo, hi), so carries are never detected by comparisons: the value of a column is
 * lo + hi * W, both far below the width of dlimb. After column k, lo := (lo >> LB) + hi.
 *
 * Result bound: (f*g + Q*p) / 2^256 < p^2/2^256 + p < 2p, so one masked subtraction of
 * p (seed Algorithm 2: borrow -> mask -> masked add-back of p) ends in [0, p).
 * CT: every function here treats all of its inputs as secret.
 */

#define BYTES_PER_LIMB (LB / 8)

static limb limb_mask(limb bit)
{
    limb m = (limb)(0u - (limb)(bit & 1u));
    MB_BARRIER(m);
    return m;
}

/* Bounds: s < 2^256, top in {0,1}, top * 2^256 + s < 2p.
 * Post: out = top * 2^256 + s mod p, out < p.
 * Subtract p; a borrow beyond top means the value was already < p: add p back under
 * a mask (seed Algorithm 2). */
static void sub_p_masked(limb out[NL], const limb s[NL], limb top)
{
    limb d[NL], borrow = 0, mask;
    dlimb w;
    int i;
    for (i = 0; i < NL; i++) {
        w = (dlimb)s[i] - MB_P[i] - borrow;
        d[i] = (limb)w;
        borrow = (limb)(w >> (2 * LB - 1));
    }
    mask = limb_mask((limb)(borrow & (top ^ 1u)));
    w = 0;
    for (i = 0; i < NL; i++) {
        w += (dlimb)d[i] + (MB_P[i] & mask);
        out[i] = (limb)w;
        w >>= LB;
    }
}

/* An architecture backend that provides add, sub, mul and sqr itself (e.g.
 * arch/cortex-m4/fep256_r32_arch.c) defines MB_FEP256_ARCH_ARITH to leave them out. */
#ifndef MB_FEP256_ARCH_ARITH
void fep256_add(fep256 *h, const fep256 *f, const fep256 *g)
{
    limb s[NL];
    dlimb w = 0;
    int i;
    for (i = 0; i < NL; i++) {
        w += (dlimb)f->v[i] + g->v[i];
        s[i] = (limb)w;
        w >>= LB;
    }
    sub_p_masked(h->v, s, (limb)w);   /* f + g < 2p */
}

/* f - g; a borrow means f - g + 2^256 was computed: add p under the borrow's mask,
 * which wraps back below 2^256 to f - g + p (seed Algorithm 2, subtraction). */
void fep256_sub(fep256 *h, const fep256 *f, const fep256 *g)
{
    limb d[NL], borrow = 0, mask;
    dlimb w;
    int i;
    for (i = 0; i < NL; i++) {
        w = (dlimb)f->v[i] - g->v[i] - borrow;
        d[i] = (limb)w;
        borrow = (limb)(w >> (2 * LB - 1));
    }
    mask = limb_mask(borrow);
    w = 0;
    for (i = 0; i < NL; i++) {
        w += (dlimb)d[i] + (MB_P[i] & mask);
        h->v[i] = (limb)w;
        w >>= LB;
    }
}

void fep256_mul(fep256 *h, const fep256 *f, const fep256 *g)
{
    limb q[NL], r[NL];
    dlimb lo = 0, hi = 0, pr;
    int i, k;
    for (k = 0; k < 2 * NL; k++) {
        int i0 = k < NL ? 0 : k - NL + 1;
        int i1 = k < NL ? k : NL - 1;
        for (i = i0; i <= i1; i++) {
            pr = (dlimb)f->v[i] * g->v[k - i];
            lo += (limb)pr;
            hi += pr >> LB;
        }
        lo += red_col(q, k);
        if (k < NL) q[k] = (limb)lo;       /* adding q_k * p makes the column 0 mod W */
        else r[k - NL] = (limb)lo;
        lo = (lo >> LB) + hi;
        hi = 0;
    }
    sub_p_masked(h->v, r, (limb)lo);
    mb_wipe(q, sizeof q);
    mb_wipe(r, sizeof r);
}

/* As fep256_mul with f = g, each cross product f_i f_j (i < j) computed once and doubled
 * (seed Algorithm 4). */
void fep256_sqr(fep256 *h, const fep256 *f)
{
    limb q[NL], r[NL];
    dlimb lo = 0, hi = 0, lo2, hi2, pr;
    int i, k;
    for (k = 0; k < 2 * NL; k++) {
        int i0 = k < NL ? 0 : k - NL + 1;
        lo2 = 0;
        hi2 = 0;
        for (i = i0; i < k - i; i++) {
            pr = (dlimb)f->v[i] * f->v[k - i];
            lo2 += (limb)pr;
            hi2 += pr >> LB;
        }
        lo += lo2 << 1;
        hi += hi2 << 1;
        if ((k & 1) == 0 && k / 2 < NL) {
            pr = (dlimb)f->v[k / 2] * f->v[k / 2];
            lo += (limb)pr;
            hi += pr >> LB;
        }
        lo += red_col(q, k);
        if (k < NL) q[k] = (limb)lo;
        else r[k - NL] = (limb)lo;
        lo = (lo >> LB) + hi;
        hi = 0;
    }
    sub_p_masked(h->v, r, (limb)lo);
    mb_wipe(q, sizeof q);
    mb_wipe(r, sizeof r);
}

#endif /* MB_FEP256_ARCH_ARITH */

void fep256_cmov(fep256 *h, const fep256 *f, uint32_t bit)
{
    limb m = limb_mask((limb)bit);
    int i;
    for (i = 0; i < NL; i++) h->v[i] ^= m & (h->v[i] ^ f->v[i]);
}

void fep256_cswap(fep256 *f, fep256 *g, uint32_t bit)
{
    limb m = limb_mask((limb)bit), t;
    int i;
    for (i = 0; i < NL; i++) {
        t = m & (f->v[i] ^ g->v[i]);
        f->v[i] ^= t;
        g->v[i] ^= t;
    }
}

uint32_t fep256_frombytes(fep256 *h, const uint8_t s[32])
{
    limb v, borrow = 0;
    dlimb w;
    int i, j;
    for (i = 0; i < NL; i++) {
        v = 0;
        for (j = 0; j < BYTES_PER_LIMB; j++)
            v = (limb)((v << 8) | s[32 - (i + 1) * BYTES_PER_LIMB + j]);
        h->v[i] = v;
        w = (dlimb)v - MB_P[i] - borrow;
        borrow = (limb)(w >> (2 * LB - 1));
    }
    return (uint32_t)borrow;    /* 1 iff s - p borrowed, i.e. s < p */
}

void fep256_tobytes(uint8_t s[32], const fep256 *h)
{
    limb v;
    int i, j;
    for (i = 0; i < NL; i++) {
        v = h->v[i];
        for (j = BYTES_PER_LIMB - 1; j >= 0; j--) {
            s[32 - (i + 1) * BYTES_PER_LIMB + j] = (uint8_t)v;
            v = (limb)(v >> 8);
        }
    }
}

void fep256_reduce_once(fep256 *h, const fep256 *f)
{
    limb s[NL];
    int i;
    for (i = 0; i < NL; i++) s[i] = f->v[i];
    sub_p_masked(h->v, s, 0);
}

uint32_t fep256_iszero(const fep256 *f)
{
    limb acc = 0;
    uint32_t a32;
    int i;
    for (i = 0; i < NL; i++) acc |= f->v[i];
#if LB == 64
    a32 = (uint32_t)acc | (uint32_t)(acc >> 32);
#else
    a32 = (uint32_t)acc;
#endif
    return 1u ^ ct_nonzero32(ct_barrier32(a32));
}
