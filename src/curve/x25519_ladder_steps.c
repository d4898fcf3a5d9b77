/* SPDX-License-Identifier: MIT */
/* The X25519 ladder steps in portable C. (arch/cortex-m4/ has no use for them: its
 * x25519_scalarmult.S replaces x25519_scalarmult.c, the only caller, and this file.) */
#include "curve/x25519_ladder.h"
#include "util/ct.h"
#include "util/backend.h"

/* Replaced whole by arch/cortex-m4/ or arch/msp430x/ when that backend is active
 * (util/backend.h). */
#if !MB_ASM_CORTEX_M4 && !MB_ASM_MSP430X

/* CT: see x25519_ladder.h. One step is a differential addition R1 = R0 + R1 (the
 * difference R1 - R0 is always P = (x1 : z1)) and a doubling R0 = 2 R0: RFC 7748's
 * formulas with the difference projective (x3 = z1 (DA + CB)^2, z3 = x1 (DA - CB)^2)
 * and z2 = E (BB + 121666 E), equal to E (AA + 121665 E) since AA = BB + E.
 * Two temporaries only (t0, t1), in the same order as the assembly version. */
void mb_x25519_ladder_steps(fe25519 w[6], const uint8_t k[32], const fe25519 *x1,
                            const fe25519 *z1)
{
    fe25519 *x2 = &w[X25519_X2], *z2 = &w[X25519_Z2], *x3 = &w[X25519_X3];
    fe25519 *z3 = &w[X25519_Z3], *t0 = &w[X25519_T0], *t1 = &w[X25519_T1];
    uint32_t swap = 0, bit;
    int t;

    for (t = 254; t >= 0; t--) {
        /* Position t is public; only the bit's value is secret. */
        bit = (uint32_t)(k[t >> 3] >> (t & 7)) & 1u;
        swap ^= bit;
        mb_fe25519_cswap(x2, x3, swap);
        mb_fe25519_cswap(z2, z3, swap);
        swap = bit;

        mb_fe25519_add(t0, x2, z2);     /* t0 = A */
        mb_fe25519_sub(x2, x2, z2);     /* x2 = B */
        mb_fe25519_add(z2, x3, z3);     /* z2 = C */
        mb_fe25519_sub(x3, x3, z3);     /* x3 = D */
        mb_fe25519_mul(x3, x3, t0);     /* x3 = DA */
        mb_fe25519_mul(z2, z2, x2);     /* z2 = CB */
        mb_fe25519_sqr(t0, t0);         /* t0 = AA */
        mb_fe25519_sqr(x2, x2);         /* x2 = BB */
        mb_fe25519_add(t1, x3, z2);     /* t1 = DA + CB */
        mb_fe25519_sub(z3, x3, z2);     /* z3 = DA - CB */
        mb_fe25519_sqr(x3, t1);
        if (z1) mb_fe25519_mul(x3, x3, z1);     /* x3 = z1 (DA + CB)^2 */
        mb_fe25519_sqr(z3, z3);
        mb_fe25519_mul(z3, z3, x1);             /* z3 = x1 (DA - CB)^2 */
        mb_fe25519_sub(z2, t0, x2);     /* z2 = E = AA - BB */
        mb_fe25519_mul121666(t1, z2);
        mb_fe25519_add(t1, t1, x2);     /* t1 = BB + 121666 E */
        mb_fe25519_mul(x2, t0, x2);     /* x2 = AA BB */
        mb_fe25519_mul(z2, z2, t1);     /* z2 = E (BB + 121666 E) */
    }
    mb_fe25519_cswap(x2, x3, swap);
    mb_fe25519_cswap(z2, z3, swap);

    swap = bit = 0;
    MB_BARRIER(swap);
    MB_BARRIER(bit);
}
#endif /* !MB_ASM_CORTEX_M4 && !MB_ASM_MSP430X */
