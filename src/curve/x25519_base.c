/* SPDX-License-Identifier: MIT */
/*
 * X25519 fixed-base scalar multiplication: a signed comb ([Ham12], Lim-Lee style) on
 * edwards25519 (-x^2 + y^2 = 1 + d x^2 y^2), mapped to u = (Z + Y)/(Z - Y) at the end.
 *
 * Scalar. k is clamped, so k = 8 m with 2^251 <= m < 2^252, and [k]B = [m]B8 (B8 = 8B,
 * of prime order L). The comb wants an odd scalar: m' = m if m is odd, else L - m (odd,
 * 0 < L - m < 2^252); [L - m]B8 = -[m]B8 has the same u. With N = t b s >= 252 and
 * e = (m' - 1)/2 + 2^(N-1) (m' odd, so e < 2^N), m' = sum_{i<N} (2 e_i - 1) 2^i: every
 * bit of e is a digit +-1 ("signed all-bits" form; no zero digit, no carry, no branch).
 * Comb. Bit i + s (k + t j) of e is tooth k of block j in round i. Block j's table holds
 * sum_k sigma_k 2^(s (k + t j)) B8 for the 2^(t-1) sign vectors sigma with top tooth +1;
 * a round's lookup uses the other teeth (xored with the top's complement) as the index
 * and negates the entry when the top tooth is -1. acc = sum over rounds i = s-1 .. 0 of
 * 2^i (sum_j entry): s - 1 doublings, b s additions.
 * Formulas ([HWCD08], a = -1, extended coordinates X Y Z T, T = XY/Z):
 *   mixed addition with an entry at Z2 = 1/2: 7M (6M when T is not needed next);
 *   doubling: 7M + 1S, arranged so that every input of mb_fe25519_add/sub is an output
 *   of mul/sqr/set (the rule of fe25519.h; the textbook 4M + 4S form subtracts sums).
 * Both are complete on this curve (d is not a square, -1 is): docs/CONSTANT_TIME.md,
 * "Fixed-base scalar multiplication". The result is never the neutral element
 * (0 < m' < L), so Z - Y != 0.
 *
 * [Ham12] M. Hamburg, "Fast and compact elliptic-curve cryptography", 2012.
 * [HWCD08] H. Hisil, K. Wong, G. Carter, E. Dawson, "Twisted Edwards curves revisited".
 */
#include "curve/x25519_base.h"
#include "util/ct.h"

#ifndef MB_NO_FIXED_BASE

#define TEETH   MB_X25519_BASE_TEETH
#define BLOCKS  MB_X25519_BASE_BLOCKS
#define SPACING MB_X25519_BASE_SPACING
#define NBITS   (TEETH * BLOCKS * SPACING)
#define EBYTES  ((NBITS + 7) / 8)

/* L = 2^252 + 27742317777372353535851937790883648493, little-endian. */
static const uint8_t order[32] = {
    0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9,
    0xde, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x10
};

typedef mb_x25519_base_point point;

/* e = the signed all-bits form of k (see the top of the file), EBYTES bytes.
 * CT: k, e secret; the choice between m and L - m is a mask, bits move by fixed shifts. */
static void recode(uint8_t e[EBYTES], const uint8_t k[32])
{
    uint8_t m[32], n[32], mask;
    uint16_t w, borrow = 0;
    int i;
    for (i = 0; i < 32; i++)
        m[i] = (uint8_t)((k[i] >> 3) | (i < 31 ? k[i + 1] << 5 : 0));
    for (i = 0; i < 32; i++) {                       /* n = L - m, m < 2^252 < L */
        w = (uint16_t)(order[i] - m[i] - borrow);
        n[i] = (uint8_t)w;
        borrow = (uint16_t)((w >> 8) & 1u);
    }
    mask = (uint8_t)ct_mask32((m[0] & 1u) ^ 1u);      /* all ones iff m is even */
    for (i = 0; i < 32; i++) m[i] = (uint8_t)(m[i] ^ ((m[i] ^ n[i]) & mask));
    for (i = 0; i < EBYTES; i++)                     /* (m' - 1)/2 = m' >> 1 */
        e[i] = (uint8_t)((i < 32 ? m[i] >> 1 : 0) | (i < 31 ? m[i + 1] << 7 : 0));
    e[(NBITS - 1) / 8] |= (uint8_t)(1u << ((NBITS - 1) % 8));   /* m' >> 1 < 2^251 */
    mb_wipe(m, sizeof m);
    mb_wipe(n, sizeof n);
}

/* Bit pos of e. CT: e secret, pos public (the address depends on pos only). */
static uint32_t bit(const uint8_t *e, unsigned pos)
{
    return (uint32_t)(e[pos >> 3] >> (pos & 7)) & 1u;
}

/* CT: see x25519_base.h. Loop bounds, bit positions and table rows are public; the
 * secret digits only become masks (mb_x25519_base_select). */
void mb_x25519_base_scalarmult(uint8_t out[32], const uint8_t k[32])
{
    uint8_t e[EBYTES];
    point p;
    mb_x25519_base_entry q;
    fe25519 t[4];
    int i, j, n;

    recode(e, k);
    mb_fe25519_set(&p.X, 0);                         /* the neutral element */
    mb_fe25519_set(&p.Y, 1);
    mb_fe25519_set(&p.Z, 1);
    mb_fe25519_set(&p.T, 0);
    for (i = SPACING - 1; i >= 0; i--) {
        if (i != SPACING - 1) mb_x25519_base_dbl(&p, t);
        for (j = 0; j < BLOCKS; j++) {
            unsigned base = (unsigned)i + (unsigned)(SPACING * TEETH * j);
            uint32_t neg = bit(e, base + SPACING * (TEETH - 1)) ^ 1u;
            uint32_t idx = 0;
            for (n = 0; n < TEETH - 1; n++)
                idx |= (bit(e, base + (unsigned)(SPACING * n)) ^ neg) << n;
            mb_x25519_base_select(&q, mb_x25519_base_table[j], idx, neg);
            /* T is only read by the next addition (a doubling recomputes it). */
            mb_x25519_base_madd(&p, &q, j != BLOCKS - 1, t);
        }
    }
    /* u = (1 + y)/(1 - y) = (Z + Y)/(Z - Y). */
    mb_fe25519_sub(&t[0], &p.Z, &p.Y);
    mb_fe25519_invert(&t[0], &t[0]);
    mb_fe25519_add(&t[1], &p.Z, &p.Y);
    mb_fe25519_mul(&t[1], &t[1], &t[0]);
    mb_fe25519_tobytes(out, &t[1]);

    mb_wipe(e, sizeof e);
    mb_wipe(&p, sizeof p);
    mb_wipe(&q, sizeof q);
    mb_wipe(t, sizeof t);
}

#else
/* MB_NO_FIXED_BASE: mb_x25519_base uses the ladder (ISO C wants a declaration). */
typedef int mb_x25519_base_omitted;
#endif
