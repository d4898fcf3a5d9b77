/* SPDX-License-Identifier: MIT */
/* The fixed-base comb's inner operations (x25519_base.h): the signed table lookup, the
 * mixed addition and the doubling, portable C for every radix; arch/cortex-m4/ replaces
 * this file (x25519_base_ops.S: the same three over the register kernels). */
#include "curve/x25519_base.h"
#include "util/ct.h"
#include "util/backend.h"

/* Replaced whole by arch/cortex-m4/ when that backend is active (util/backend.h). */
#if !MB_ASM_CORTEX_M4

#ifndef MB_NO_FIXED_BASE

/* CT: see x25519_base.h; the negation is a subtraction from 0 and a masked swap. */
void mb_x25519_base_select(mb_x25519_base_entry *r, const mb_x25519_base_entry *row,
                           uint32_t idx, uint32_t neg)
{
    fe25519 n;
    mb_x25519_base_lookup(r, row, (unsigned)idx);
    mb_fe25519_cswap(&r->yp, &r->ym, neg);
    mb_fe25519_set(&n, 0);
    mb_fe25519_sub(&n, &n, &r->td);                  /* set and table values: tight */
    mb_fe25519_cswap(&r->td, &n, neg);
    mb_wipe(&n, sizeof n);
}

/* CT: see x25519_base.h. */
void mb_x25519_base_madd(mb_x25519_base_point *p, const mb_x25519_base_entry *q,
                         int want_t, fe25519 t[4])
{
    mb_fe25519_sub(&t[0], &p->Y, &p->X);
    mb_fe25519_add(&t[1], &p->Y, &p->X);
    mb_fe25519_mul(&t[0], &t[0], &q->ym);            /* A = (Y - X)(y - x)/2 */
    mb_fe25519_mul(&t[1], &t[1], &q->yp);            /* B = (Y + X)(y + x)/2 */
    mb_fe25519_mul(&t[2], &p->T, &q->td);            /* C = T d x y */
    mb_fe25519_sub(&t[3], &t[1], &t[0]);             /* E = B - A */
    mb_fe25519_add(&t[1], &t[1], &t[0]);             /* H = B + A */
    mb_fe25519_sub(&t[0], &p->Z, &t[2]);             /* F = Z - C */
    mb_fe25519_add(&t[2], &p->Z, &t[2]);             /* G = Z + C */
    mb_fe25519_mul(&p->X, &t[3], &t[0]);             /* E F */
    mb_fe25519_mul(&p->Y, &t[2], &t[1]);             /* G H */
    mb_fe25519_mul(&p->Z, &t[0], &t[2]);             /* F G */
    if (want_t) mb_fe25519_mul(&p->T, &t[3], &t[1]); /* E H */
}

/* p = 2p. The [HWCD08] doubling E = 2XY, G = Y^2 - X^2, H = -(X^2 + Y^2), F = G - 2Z^2
 * with (F, H) negated (a projective scaling of the result by -1):
 * E = (X + X) Y, H' = (X + Y)^2 - E, G = (Y - X)(Y + X), F' = Z (Z + Z) - G.
 * CT: see x25519_base.h. */
void mb_x25519_base_dbl(mb_x25519_base_point *p, fe25519 t[4])
{
    mb_fe25519_add(&t[0], &p->X, &p->Y);
    mb_fe25519_sqr(&t[0], &t[0]);                    /* (X + Y)^2 */
    mb_fe25519_add(&t[1], &p->X, &p->X);
    mb_fe25519_mul(&t[1], &t[1], &p->Y);             /* E = 2XY */
    mb_fe25519_sub(&t[0], &t[0], &t[1]);             /* H' = X^2 + Y^2 */
    mb_fe25519_sub(&t[2], &p->Y, &p->X);
    mb_fe25519_add(&t[3], &p->Y, &p->X);
    mb_fe25519_mul(&t[2], &t[2], &t[3]);             /* G = Y^2 - X^2 */
    mb_fe25519_add(&t[3], &p->Z, &p->Z);
    mb_fe25519_mul(&t[3], &t[3], &p->Z);             /* 2 Z^2 */
    mb_fe25519_sub(&t[3], &t[3], &t[2]);             /* F' = 2Z^2 - G */
    mb_fe25519_mul(&p->X, &t[1], &t[3]);             /* E F' */
    mb_fe25519_mul(&p->Y, &t[2], &t[0]);             /* G H' */
    mb_fe25519_mul(&p->Z, &t[3], &t[2]);             /* F' G */
    mb_fe25519_mul(&p->T, &t[1], &t[0]);             /* E H' */
}

#else
typedef int mb_x25519_base_ops_omitted;
#endif
#endif /* !MB_ASM_CORTEX_M4 */
