/* SPDX-License-Identifier: MIT */
/*
 * The fixed-base comb's two inner operations (p256_base.c): the masked table scan and
 * the mixed addition. A file of its own so that an architecture replaces it whole
 * (arch/cortex-m4/p256_base_ops.S: the scan with SEL, the addition over the field
 * kernels' register entries).
 */
#include "curve/p256.h"
#include "util/ct.h"
#include "util/backend.h"

/* Replaced whole by arch/cortex-m4/ when that backend is active (util/backend.h). */
#if !MB_ASM_CORTEX_M4

#ifndef MB_NO_FIXED_BASE

/* out[i] = OR over m of t[m][first + i] & mask[m], i < count: every word of every entry
 * is read (public addresses). The entry count goes through a barrier: clang -O2 for
 * the MSP430 unrolls the constant loop nest into kilobytes of code, and the FRAM is
 * short. CT: mask secret. */
static void scan(mb_p256_base_word *out, const mb_p256_base_word t[8][MB_P256_BASE_WORDS],
                 const mb_p256_base_word mask[8], int first, int count)
{
    mb_p256_base_word acc;
    uint32_t m, n = ct_barrier32(8);
    int i;
    for (i = 0; i < count; i++) {
        acc = 0;
        for (m = 0; m < n; m++) acc |= t[m][first + i] & mask[m];
        out[i] = acc;
    }
}

#if MB_RADIX == 64
/* 8 little-endian 32-bit words -> 4 64-bit limbs. */
static void words_to_fe(fep256 *h, const uint32_t w[8])
{
    int i;
    for (i = 0; i < 4; i++) h->v[i] = (uint64_t)w[2 * i] | ((uint64_t)w[2 * i + 1] << 32);
}
#endif

void mb_p256_base_select(fep256 E[2], const mb_p256_base_word table[8][MB_P256_BASE_WORDS],
                         uint32_t idx, uint32_t neg)
{
    mb_p256_base_word mask[8];
    fep256 ny;
    uint32_t i, n = ct_barrier32(8);
    for (i = 0; i < n; i++)
        mask[i] = (mb_p256_base_word)ct_mask32(ct_nonzero32(idx ^ i) ^ 1u);
#if MB_RADIX == 64
    {
        uint32_t w[16];
        scan(w, table, mask, 0, 16);
        words_to_fe(&E[0], w);
        words_to_fe(&E[1], w + 8);
        mb_wipe(w, sizeof w);
    }
#else   /* the table words are the limbs */
    scan(E[0].v, table, mask, 0, MB_P256_BASE_WORDS / 2);
    scan(E[1].v, table, mask, MB_P256_BASE_WORDS / 2, MB_P256_BASE_WORDS / 2);
#endif
    mb_fep256_neg(&ny, &E[1]);               /* y != 0: no point of order 2 */
    mb_fep256_cmov(&E[1], &ny, neg);
    mb_wipe(mask, sizeof mask);
    mb_wipe(&ny, sizeof ny);
}

/* Q = Q + P (Jacobian + affine, 8M + 3S, the order the assembly follows):
 * H = x2 Z1^2 - X1, r = y2 Z1^3 - Y1, Z3 = Z1 H, X3 = r^2 - H^3 - 2 X1 H^2,
 * Y3 = r (X1 H^2 - X3) - Y1 H^3. H is left in t[1] and r in t[2]. */
void mb_p256_base_madd(fep256 Q[3], const fep256 P[2], fep256 t[6])
{
    fep256 *zz = &t[0], *h = &t[1], *r = &t[2], *hh = &t[3], *v = &t[4], *y = &t[5];
    mb_fep256_sqr(zz, &Q[2]);
    mb_fep256_mul(h, &P[0], zz);
    mb_fep256_sub(h, h, &Q[0]);              /* H = x2 Z1^2 - X1 */
    mb_fep256_sqr(hh, h);                    /* H^2 */
    mb_fep256_mul(v, &Q[0], hh);             /* V = X1 H^2 */
    mb_fep256_mul(hh, hh, h);                /* H^3 */
    mb_fep256_mul(y, &Q[1], hh);             /* Y1 H^3 */
    mb_fep256_mul(zz, zz, &Q[2]);            /* Z1^3 */
    mb_fep256_mul(&Q[2], &Q[2], h);          /* Z3 = Z1 H */
    mb_fep256_mul(r, &P[1], zz);
    mb_fep256_sub(r, r, &Q[1]);              /* r = y2 Z1^3 - Y1 */
    mb_fep256_sqr(&Q[0], r);
    mb_fep256_sub(&Q[0], &Q[0], hh);
    mb_fep256_sub(&Q[0], &Q[0], v);
    mb_fep256_sub(&Q[0], &Q[0], v);          /* X3 = r^2 - H^3 - 2V */
    mb_fep256_sub(v, v, &Q[0]);
    mb_fep256_mul(v, v, r);
    mb_fep256_sub(&Q[1], v, y);              /* Y3 = r (V - X3) - Y1 H^3 */
}

#else
typedef int mb_p256_base_ops_omitted;   /* MB_NO_FIXED_BASE: ISO C needs a declaration */
#endif
#endif /* !MB_ASM_CORTEX_M4 */
