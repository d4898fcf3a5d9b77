/* SPDX-License-Identifier: MIT */
/*
 * The two steps of the co-Z ladder of p256_coz.c, on the state p256_ladder (p256.h), in
 * a file of their own so that an architecture backend can replace them as a whole
 * (arch/cortex-m4/p256_ladder.S keeps the same sequence of field operations).
 * Formulas: Goundar-Joye-Miyaji-Rivain-Venelli co-Z addition, Rivain Algorithm 9.
 * CT: no branch or index on the state or the swap bit; masked swap only.
 */
#include "curve/p256.h"
#include "util/ct.h"
#include "util/backend.h"

/* Replaced whole by arch/cortex-m4/ or arch/msp430x/ when that backend is active
 * (util/backend.h). */
#if !MB_ASM_CORTEX_M4 && !MB_ASM_MSP430X

/* XYCZ-ADD, 4M + 2S: co-Z P, Q -> Q := P + Q, P := P with the new Z = Z (xQ - xP).
 * A = (X2-X1)^2, B = X1 A, C = X2 A, E = Y1 (C - B):
 * X3 = (Y2-Y1)^2 - B - C, Y3 = (Y2-Y1)(B - X3) - E; P becomes (B, E), computed in
 * place. t: scratch (t[0], t[2], t[3], as the assembly version uses them). */
static void xycz_add(p256_point *P, p256_point *Q, fep256 t[5])
{
    fep256 *a = &t[0], *c = &t[2], *d = &t[3];
    mb_fep256_sub(a, &Q->x, &P->x);
    mb_fep256_sqr(a, a);
    mb_fep256_mul(&P->x, &P->x, a);    /* B */
    mb_fep256_mul(c, &Q->x, a);        /* C */
    mb_fep256_sub(d, &Q->y, &P->y);
    mb_fep256_sub(a, c, &P->x);
    mb_fep256_mul(&P->y, &P->y, a);    /* E */
    mb_fep256_sqr(a, d);
    mb_fep256_sub(a, a, &P->x);
    mb_fep256_sub(&Q->x, a, c);        /* X3 */
    mb_fep256_sub(a, &P->x, &Q->x);
    mb_fep256_mul(a, d, a);
    mb_fep256_sub(&Q->y, a, &P->y);    /* Y3 */
}

/* XYCZ-ADDC, 5M + 3S: co-Z P, Q -> Q := P + Q, P := P - Q, sharing Z (xQ - xP).
 * As XYCZ-ADD, plus X3' = (Y1+Y2)^2 - B - C, Y3' = (Y1+Y2)(X3' - B) - E; B + C is
 * formed once for X3 and X3', E is kept in P's y. t: 5 scratch elements. */
static void xycz_addc(p256_point *P, p256_point *Q, fep256 t[5])
{
    fep256 *a = &t[0], *b = &t[1], *c = &t[2], *d = &t[3], *f = &t[4];
    mb_fep256_sub(a, &Q->x, &P->x);
    mb_fep256_sqr(a, a);
    mb_fep256_mul(b, &P->x, a);        /* B */
    mb_fep256_mul(c, &Q->x, a);        /* C */
    mb_fep256_sub(d, &Q->y, &P->y);    /* Y2 - Y1 */
    mb_fep256_add(f, &Q->y, &P->y);    /* Y2 + Y1 */
    mb_fep256_sub(a, c, b);
    mb_fep256_mul(&P->y, &P->y, a);    /* E */
    mb_fep256_add(c, b, c);            /* B + C */
    mb_fep256_sqr(a, d);
    mb_fep256_sub(&Q->x, a, c);        /* X3 */
    mb_fep256_sub(a, b, &Q->x);
    mb_fep256_mul(a, d, a);
    mb_fep256_sub(&Q->y, a, &P->y);    /* Y3 */
    mb_fep256_sqr(a, f);
    mb_fep256_sub(&P->x, a, c);        /* X3' */
    mb_fep256_sub(a, &P->x, b);
    mb_fep256_mul(a, f, a);
    mb_fep256_sub(&P->y, a, &P->y);    /* Y3' */
}

void mb_p256_ladder_cswap_addc(p256_ladder *w, uint32_t bit)
{
    mb_fep256_cswap(&w->R[0].x, &w->R[1].x, bit);
    mb_fep256_cswap(&w->R[0].y, &w->R[1].y, bit);
    xycz_addc(&w->R[0], &w->R[1], w->t);
#if MB_P256_STEP_COUNT
    w->steps = ct_barrier32(w->steps + 1u);    /* p256.h: counted on the state itself */
#endif
}

void mb_p256_ladder_add(p256_ladder *w)
{
    xycz_add(&w->R[1], &w->R[0], w->t);
#if MB_P256_STEP_COUNT
    w->steps = ct_barrier32(w->steps + 1u);
#endif
}
#endif /* !MB_ASM_CORTEX_M4 && !MB_ASM_MSP430X */
