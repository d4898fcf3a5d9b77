/* SPDX-License-Identifier: MIT */
/*
 * GF(p256), radix 2^64: 4 x 64-bit limbs, for 64-bit hosts with unsigned __int128.
 * The arithmetic: add, sub, mul, sqr and sqr_n, the shared portable Montgomery code of
 * fep256_mont_arith.inc; this file fixes how p256's pattern looks in 64-bit words.
 * CT: every function treats all of its inputs as secret.
 */
#include "field/fep256.h"
#include "util/ct.h"

#if MB_RADIX == 64

#include "field/fep256_limbs.inc"

/* p + 1 in 64-bit words is {0, 2^32, 0, 2^64 - 2^32 + 1}. Digit q_j adds q_j * 2^32 to
 * columns j+1 (q_j << 32) and j+2 (q_j >> 32), and q_j * (2^64 - 2^32 + 1)
 * = (q_j - (q_j >> 32)) * 2^64 + (q_j - (q_j << 32 mod 2^64)) to columns j+3 and j+4,
 * the low part's borrow taken from the high part. Shifts and subtractions only.
 * Bounds: returns < 4 * 2^64. CT: q secret; k is a public column index. */
static dlimb red_col(const limb q[NL], int k)
{
    dlimb s = 0, d;
    limb t;
    if (k >= 1 && k - 1 < NL) s += (limb)(q[k - 1] << 32);
    if (k >= 2 && k - 2 < NL) s += q[k - 2] >> 32;
    if (k >= 3 && k - 3 < NL) {
        t = q[k - 3];
        s += (limb)(t - (limb)(t << 32));
    }
    if (k >= 4 && k - 4 < NL) {
        t = q[k - 4];
        d = (dlimb)t - (limb)(t << 32);             /* negative: borrow from the high word */
        s += (limb)(t - (t >> 32) + (limb)(d >> 64));
    }
    return s;
}

#include "field/fep256_mont_arith.inc"

#endif
