/* SPDX-License-Identifier: MIT */
/*
 * GF(p256), radix 2^16: 16 x 16-bit limbs (MSP430 representation, [SAK18]).
 * The arithmetic: add, sub, mul, sqr and sqr_n, the shared portable Montgomery code of
 * fep256_mont_arith.inc; this file fixes where p256's 16-bit word pattern (0xFFFF,
 * 0x0000, 0x0001) sends each digit.
 * Products are 16x16->32 bits; on MSP430 they become calls to the __mspabi_mpy*
 * runtime of platforms/msp430fr5969/ (constant time there).
 * CT: every function treats all of its inputs as secret.
 */
#include "field/fep256.h"
#include "util/ct.h"
#include "util/backend.h"

/* Replaced whole by arch/msp430x/ when that backend is active (util/backend.h). */
#if !MB_ASM_MSP430X

#if MB_RADIX == 16

#include "field/fep256_limbs.inc"

/* p + 1 in 16-bit words has a 1 in words 6 and 12 and 0xFFFF in words 14 and 15:
 * digit q_j adds q_j to columns j+6 and j+12, and (2^32-1) q_j = q_j * 2^32 - q_j as
 * three words to columns j+14 (-q_j mod 2^16), j+15 (0xFFFF if q_j != 0, else 0) and
 * j+16 (q_j - [q_j != 0]).
 * Bounds: returns < 5 * 2^16. CT: q secret; k is a public column index. */
static dlimb red_col(const limb q[NL], int k)
{
    dlimb s = 0, m;
    if (k >= 6 && k - 6 < NL) s += q[k - 6];
    if (k >= 12 && k - 12 < NL) s += q[k - 12];
    if (k >= 14 && k - 14 < NL) s += (limb)(0u - q[k - 14]);
    if (k >= 15 && k - 15 < NL) s += (limb)(((dlimb)0 - q[k - 15]) >> LB);
    if (k >= 16 && k - 16 < NL) {
        m = ((dlimb)0 - q[k - 16]) >> LB;
        s += (limb)(q[k - 16] + m);
    }
    return s;
}

#include "field/fep256_mont_arith.inc"

#endif
#endif /* !MB_ASM_MSP430X */
