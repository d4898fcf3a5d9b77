/* SPDX-License-Identifier: MIT */
/* GF(2^255-19) inversion by Fermat's little theorem over the backend's mul and sqr
 * (representation-independent; arch/cortex-m4/ replaces this file with its in-register
 * chain in x25519_scalarmult.S). */
#include "field/fe25519.h"
#include "field/fe25519_ops.h"   /* r64: mul and sqr inlined into the chain */
#include "util/ct.h"
#include "util/backend.h"

/* Replaced whole by arch/cortex-m4/ or arch/msp430x/ when that backend is active
 * (util/backend.h). */
#if !MB_ASM_CORTEX_M4 && !MB_ASM_MSP430X

#if FE_OPS_INLINE
#define sqr_n fe_sqr_n   /* r64: the limbs stay in registers through the run */
#else
/* h = f^(2^n). Pre: n >= 1 (public). */
static void sqr_n(fe25519 *h, const fe25519 *f, int n)
{
    fe_sqr(h, f);
    while (--n > 0) fe_sqr(h, h);
}
#endif

/* Bounds: any value. Post: h = f^(p-2) = 1/f mod p (0 if f = 0 mod p).
 * p - 2 = 2^255 - 21 = (2^250 - 1) 2^5 + 11. The chain builds z^(2^k - 1) for
 * k = 5, 10, 20, 40, 50, 100, 200, 250 by doubling runs of ones: 254 S + 11 M.
 * CT: a fixed sequence of operations; f is secret. */
void mb_fe25519_invert(fe25519 *h, const fe25519 *f)
{
    fe25519 z2, z9, z11, a, b;

    fe_sqr(&z2, f);                     /* z^2 */
    sqr_n(&a, &z2, 2);                  /* z^8 */
    fe_mul(&z9, &a, f);                 /* z^9 */
    fe_mul(&z11, &z9, &z2);             /* z^11 */
    fe_sqr(&a, &z11);                   /* z^22 */
    fe_mul(&a, &a, &z9);                /* z^(2^5 - 1) */
    sqr_n(&b, &a, 5);
    fe_mul(&a, &b, &a);                 /* z^(2^10 - 1) */
    sqr_n(&b, &a, 10);
    fe_mul(&b, &b, &a);                 /* z^(2^20 - 1) */
    sqr_n(&z2, &b, 20);
    fe_mul(&b, &z2, &b);                /* z^(2^40 - 1) */
    sqr_n(&b, &b, 10);
    fe_mul(&a, &b, &a);                 /* z^(2^50 - 1) */
    sqr_n(&b, &a, 50);
    fe_mul(&b, &b, &a);                 /* z^(2^100 - 1) */
    sqr_n(&z2, &b, 100);
    fe_mul(&b, &z2, &b);                /* z^(2^200 - 1) */
    sqr_n(&b, &b, 50);
    fe_mul(&a, &b, &a);                 /* z^(2^250 - 1) */
    sqr_n(&a, &a, 5);                   /* z^(2^255 - 32) */
    fe_mul(h, &a, &z11);                /* z^(2^255 - 21) */

    mb_wipe(&z2, sizeof z2);
    mb_wipe(&z9, sizeof z9);
    mb_wipe(&z11, sizeof z11);
    mb_wipe(&a, sizeof a);
    mb_wipe(&b, sizeof b);
}
#endif /* !MB_ASM_CORTEX_M4 && !MB_ASM_MSP430X */
