/* SPDX-License-Identifier: MIT */
/*
 * P-256 fixed-base scalar multiplication k * G (key generation): a signed comb
 * (Hamburg, "Fast and compact elliptic-curve cryptography", 2012) over the table of
 * p256_base_table.c, Jacobian accumulator (a = -3 doubling), affine table entries
 * (mixed additions), one inversion at the end.
 *
 * Recoding. k is made odd: k <- n - k if k is even (the result is negated at the end).
 * An odd k < 2^256 is k = sum_{i<256} d_i 2^i with every d_i = +-1: d_i = 2 b_i - 1,
 * b = bits of k' = (k + 2^256 - 1) / 2 = (k >> 1) | 2^255.
 *
 * Comb. Position i = j + S (u + 4c): column j < S, tooth u < 4, comb c < COMBS,
 * COMBS * 4 * S = 256 (p256_base_table.h). For column j = S-1 down to 0: double (not
 * before the first column), then for each comb c add
 *   sum_u d_(j + S(u+4c)) 2^(S(u+4c)) G = sign * table[c][m],
 * sign = d of tooth 3, m_u = [d_u == sign] (u < 3). So S - 1 doublings and 64 mixed
 * additions (the very first one a load), the same for every k.
 *
 * Exceptional cases (docs/CONSTANT_TIME.md, "Fixed-base P-256"): only the last mixed
 * addition can meet Q = +-entry, and only as Q = entry (a doubling), for one scalar per
 * table size; that step also computes 2Q and selects it with masks when H = r = 0.
 *
 * The scan and the mixed addition are in p256_base_ops.c (an architecture may replace
 * that file; arch/cortex-m4/p256_base_ops.S does).
 *
 * CT: k and everything derived from it are secret. Every table entry of a comb is read
 * and selected with masks (no secret address), the sign is a masked negation, the bit
 * positions and the operation sequence are public. The secrets live in one workspace,
 * wiped once at the end.
 */
#include "curve/p256.h"
#include "curve/p256_base_table.h"
#include "util/ct.h"

#ifndef MB_NO_FIXED_BASE

#define COMBS MB_P256_BASE_COMBS
#define SPACING MB_P256_BASE_SPACING

/* n as little-endian 32-bit words. */
static const uint32_t NW[8] = {
    0xfc632551u, 0xf3b9cac2u, 0xa7179e84u, 0xbce6faadu,
    0xffffffffu, 0xffffffffu, 0x00000000u, 0xffffffffu
};

/* Everything secret of one scalar multiplication, wiped once at the end (the field
 * calls dominate; a wipe per helper would add about 10%). */
typedef struct {
    fep256 Q[3], D[3];   /* accumulator X, Y, Z; its doubling at the last step */
    fep256 E[2];         /* the selected table entry x, y (affine) */
    fep256 t[6];         /* scratch of dbl and madd */
    uint32_t kw[8];      /* k' = (k >> 1) | 2^255 (k made odd) */
    uint32_t nk[8];      /* n - k */
    uint32_t flip;       /* k was even: negate the result */
} base_ws;

/* out = a - b (8 words, a >= b); bitwise borrows: no 64-bit carries (clang for the
 * MSP430 branches on those). CT: a, b may be secret. */
static void sub8(uint32_t out[8], const uint32_t a[8], const uint32_t b[8])
{
    uint32_t x, y, d, c = 0, i, n = ct_barrier32(8);   /* opaque bound: no unrolling */
    for (i = 0; i < n; i++) {
        x = a[i];
        y = b[i];
        d = x - y - c;
        c = ((~x & y) | (~(x ^ y) & d)) >> 31;
        out[i] = d;
    }
}

/* ws->kw = k' for the odd representative of k (k or n - k), ws->flip = 1 iff k is
 * even. Pre: 1 <= k < n. CT: k secret. */
static void make_odd(base_ws *ws, const uint8_t k[32])
{
    uint32_t *kw = ws->kw, *nk = ws->nk, m, i, n = ct_barrier32(8);  /* opaque: sub8 */
    for (i = 0; i < 8; i++) kw[i] = load32_be(k + 28 - 4 * i);
    sub8(nk, NW, kw);                       /* n - k */
    ws->flip = (kw[0] & 1u) ^ 1u;
    m = ct_mask32(ws->flip);
    for (i = 0; i < n; i++) kw[i] ^= m & (kw[i] ^ nk[i]);
    for (i = 0; i + 1 < n; i++) kw[i] = (kw[i] >> 1) | (kw[i + 1] << 31);
    kw[7] = (kw[7] >> 1) | 0x80000000u;
}

/* 1 << i: a variable shift is a loop or a variable-time helper call on the MSP430
 * (docs/CONSTANT_TIME.md, rule 3), so the bit masks come from a table (public index). */
static const uint32_t BIT[32] = {
    0x1u, 0x2u, 0x4u, 0x8u, 0x10u, 0x20u, 0x40u, 0x80u, 0x100u, 0x200u, 0x400u,
    0x800u, 0x1000u, 0x2000u, 0x4000u, 0x8000u, 0x10000u, 0x20000u, 0x40000u,
    0x80000u, 0x100000u, 0x200000u, 0x400000u, 0x800000u, 0x1000000u, 0x2000000u,
    0x4000000u, 0x8000000u, 0x10000000u, 0x20000000u, 0x40000000u, 0x80000000u
};

/* Bit i of k' (public position i). */
static uint32_t kbit(const uint32_t kw[8], int i)
{
    return ct_nonzero32(kw[i >> 5] & BIT[i & 31]);
}

/* ws->E = sign * table[c][m] for column j of comb c (affine): the index and sign
 * from k's digits at public positions, then the masked scan of all 8 entries
 * (p256_base_ops.c). CT: kw secret; j, c public. */
static void select_entry(base_ws *ws, int c, int j)
{
    uint32_t top, idx;
    /* Secrets stay in registers or in ws (wiped once by the caller). */
    top = kbit(ws->kw, j + SPACING * (3 + 4 * c));
    idx = (kbit(ws->kw, j + SPACING * (4 * c)) ^ top ^ 1u)
        | (kbit(ws->kw, j + SPACING * (1 + 4 * c)) ^ top ^ 1u) << 1
        | (kbit(ws->kw, j + SPACING * (2 + 4 * c)) ^ top ^ 1u) << 2;
    mb_p256_base_select(ws->E, mb_p256_base_table[c], idx, top ^ 1u);
}

/* Q = 2Q, a = -3 (Bernstein-Lange dbl-2001-b with Z3 = 2YZ): 4M + 4S.
 * Pre: Q is not the point at infinity (P-256 has no point of order 2). Scratch t[0..4]. */
static void dbl(fep256 Q[3], fep256 t[6])
{
    fep256 *delta = &t[0], *gamma = &t[1], *beta = &t[2], *alpha = &t[3], *s = &t[4];
    mb_fep256_sqr(delta, &Q[2]);
    mb_fep256_sqr(gamma, &Q[1]);
    mb_fep256_mul(beta, &Q[0], gamma);
    mb_fep256_sub(s, &Q[0], delta);
    mb_fep256_add(alpha, &Q[0], delta);
    mb_fep256_mul(alpha, alpha, s);
    mb_fep256_add(s, alpha, alpha);
    mb_fep256_add(alpha, alpha, s);          /* alpha = 3 (X - delta)(X + delta) */
    mb_fep256_mul(&Q[2], &Q[1], &Q[2]);
    mb_fep256_add(&Q[2], &Q[2], &Q[2]);      /* Z3 = 2YZ */
    mb_fep256_add(beta, beta, beta);
    mb_fep256_add(beta, beta, beta);         /* 4 beta */
    mb_fep256_sqr(s, alpha);
    mb_fep256_sub(s, s, beta);
    mb_fep256_sub(&Q[0], s, beta);           /* X3 = alpha^2 - 8 beta */
    mb_fep256_sub(s, beta, &Q[0]);
    mb_fep256_mul(s, alpha, s);
    mb_fep256_sqr(gamma, gamma);
    mb_fep256_add(gamma, gamma, gamma);
    mb_fep256_add(gamma, gamma, gamma);
    mb_fep256_add(gamma, gamma, gamma);      /* 8 gamma^2 */
    mb_fep256_sub(&Q[1], s, gamma);          /* Y3 = alpha (4 beta - X3) - 8 gamma^2 */
}

void mb_p256_base_mul(p256_point *R, const uint8_t k[32])
{
    base_ws ws;
    uint32_t same;
    int j, c, last;

    make_odd(&ws, k);
    for (j = SPACING - 1; j >= 0; j--) {
        if (j < SPACING - 1) dbl(ws.Q, ws.t);
        for (c = 0; c < COMBS; c++) {
            select_entry(&ws, c, j);
            if (j == SPACING - 1 && c == 0) {   /* the first addition to O is a load */
                mb_fep256_copy(&ws.Q[0], &ws.E[0]);
                mb_fep256_copy(&ws.Q[1], &ws.E[1]);
                mb_fep256_one(&ws.Q[2]);
                continue;
            }
            /* Public: the last addition is the one step where Q = E can happen
             * (docs/CONSTANT_TIME.md); there 2Q is computed too and selected by masks. */
            last = j == 0 && c == COMBS - 1;
            if (last) {
                mb_fep256_copy(&ws.D[0], &ws.Q[0]);
                mb_fep256_copy(&ws.D[1], &ws.Q[1]);
                mb_fep256_copy(&ws.D[2], &ws.Q[2]);
                dbl(ws.D, ws.t);
            }
            mb_p256_base_madd(ws.Q, ws.E, ws.t);
            if (last) {
                same = mb_fep256_iszero(&ws.t[1]) & mb_fep256_iszero(&ws.t[2]);
                mb_fep256_cmov(&ws.Q[0], &ws.D[0], same);
                mb_fep256_cmov(&ws.Q[1], &ws.D[1], same);
                mb_fep256_cmov(&ws.Q[2], &ws.D[2], same);
                mb_wipe(&same, sizeof same);
            }
        }
    }

    mb_fep256_invert(&ws.t[0], &ws.Q[2]);
    mb_fep256_sqr(&ws.t[1], &ws.t[0]);
    mb_fep256_mul(&R->x, &ws.Q[0], &ws.t[1]);
    mb_fep256_mul(&ws.t[1], &ws.t[1], &ws.t[0]);
    mb_fep256_mul(&R->y, &ws.Q[1], &ws.t[1]);
    mb_fep256_neg(&ws.t[1], &R->y);
    mb_fep256_cmov(&R->y, &ws.t[1], ws.flip);   /* k was even: (n - k) G negated */
    mb_wipe(&ws, sizeof ws);
}

#else
typedef int mb_p256_base_omitted;   /* MB_NO_FIXED_BASE: ISO C needs a declaration */
#endif
