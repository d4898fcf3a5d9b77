/* SPDX-License-Identifier: MIT */
/*
 * The field operations of the hot loops (the X25519 ladder steps, the inversion chain),
 * by short names: with the radix-2^51 backend, its static inline arithmetic
 * (fe25519_r64_inline.h), so that the compiler keeps limbs in registers across
 * operations (the host build has no LTO); with every other backend, the backend's
 * functions (which arch/<chip>/ may replace with assembly).
 * Same contracts and bound rules as fe25519.h. fe_mul121666_add(h, f, g) is
 * h = 121666 f + g (f any value, g tight, h tight): one carry pass on r64, a
 * multiplication and an addition elsewhere. fe_sqr_n (h = f^(2^n), n >= 1) only with
 * FE_OPS_INLINE (the inversion has its own loop of calls otherwise).
 */
#ifndef MB_FE25519_OPS_H
#define MB_FE25519_OPS_H

#include "field/fe25519.h"

#if MB_RADIX == 64
#include "field/fe25519_r64_inline.h"
#define FE_OPS_INLINE 1   /* callers may keep their state in locals (registers) */
#define fe_add            fe51_add
#define fe_sub            fe51_sub
#define fe_mul            fe51_mul
#define fe_sqr            fe51_sqr
#define fe_sqr_n          fe51_sqr_n
#define fe_mul121666_add  fe51_mul121666_add
#define fe_cswap          fe51_cswap
#else
#define FE_OPS_INLINE 0
#define fe_add            mb_fe25519_add
#define fe_sub            mb_fe25519_sub
#define fe_mul            mb_fe25519_mul
#define fe_sqr            mb_fe25519_sqr
#define fe_cswap          mb_fe25519_cswap
/* Pre: h does not alias g (the ladder's use). */
static inline void fe_mul121666_add(fe25519 *h, const fe25519 *f, const fe25519 *g)
{
    mb_fe25519_mul121666(h, f);
    mb_fe25519_add(h, h, g);
}
#endif

#endif
