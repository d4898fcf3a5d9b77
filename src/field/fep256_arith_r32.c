/* SPDX-License-Identifier: MIT */
/*
 * GF(p256), radix 2^32: 8 x 32-bit limbs (Cortex-M4 representation).
 * The arithmetic: add, sub, mul, sqr and sqr_n, the shared portable Montgomery code of
 * fep256_mont_arith.inc; this file fixes where p256's word pattern sends each
 * Montgomery digit.
 * CT: every function treats all of its inputs as secret.
 */
#include "field/fep256.h"
#include "util/ct.h"

#if MB_RADIX == 32

#include "field/fep256_limbs.inc"

/* p + 1 in 32-bit words is {0, 0, 0, 1, 0, 0, 1, 0xFFFFFFFF}: digit q_j adds q_j to
 * columns j+3 and j+6, and (2^32-1) q_j = q_j * 2^32 - q_j to columns j+7 (low word
 * -q_j mod 2^32) and j+8 (high word q_j - [q_j != 0]).
 * Bounds: returns < 4 * 2^32. CT: q secret; k is a public column index. */
static dlimb red_col(const limb q[NL], int k)
{
    dlimb s = 0;
    if (k >= 3 && k - 3 < NL) s += q[k - 3];
    if (k >= 6 && k - 6 < NL) s += q[k - 6];
    if (k >= 7 && k - 7 < NL) s += (limb)(0u - q[k - 7]);
    if (k >= 8 && k - 8 < NL) s += (limb)(q[k - 8] + (limb)(((dlimb)0 - q[k - 8]) >> LB));
    return s;
}

#include "field/fep256_mont_arith.inc"

#endif
