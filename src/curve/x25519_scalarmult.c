/* SPDX-License-Identifier: MIT */
/* X25519 scalar multiplication: the ladder's start (plain or randomized, [DS16]
 * Algorithm 1) around mb_x25519_ladder_steps, then the projective-to-affine conversion. */
#include "curve/x25519_ladder.h"
#include "util/ct.h"
#include "util/backend.h"

/* Replaced whole by arch/cortex-m4/ or arch/msp430x/ when that backend is active
 * (util/backend.h). */
#if !MB_ASM_CORTEX_M4 && !MB_ASM_MSP430X

/* h = lambda: the 32 bytes of r as a little-endian integer with bits 255 and 0 cleared,
 * or 2 if that leaves 0: even, below 2^255, so nonzero mod p (p is odd).
 * Full width (leak lab, docs/SIDE_CHANNELS.md): a 128-bit lambda left the top words of
 * lambda and of lambda u for a small u (u = 9, the base point) zero in every trace, a
 * fixed-vs-random t of ~90 inside the ladder.
 * Even: the portable r16/r32 fields keep values mod 2^256 - 38 = 2p, whose residue mod 2
 * an odd lambda does not randomize; it follows the ladder's formulas mod 2 (sums are
 * even, doublings keep X + Z): an odd u made lambda u + lambda even in every trace, and
 * the parity of the doubled x followed the run of 1 bits at the top of k (a first-order
 * leak, TVLA |t| 8.7 at 2,000 MSP430 traces). With lambda and rho = lambda^2 even, every coordinate is 0
 * mod 2 in every step.
 * CT: r is secret; the zero case is ORed into bit 1, not branched on. */
static void lambda_from32(fe25519 *h, const uint8_t r[32])
{
    uint8_t s[32];
    int i;
    for (i = 0; i < 32; i++) s[i] = r[i];
    s[0] &= 0xfeu;
    s[31] &= 0x7fu;     /* before the zero test: frombytes ignores bit 255 */
    /* ~mask & 2 is 2 iff s == 0; the mask goes through the barrier so that no compiler
     * turns it back into a sign test (a predicated or branching instruction). */
    s[0] |= (uint8_t)(~ct_mask32(ct_nonzero32(ct_or_bytes(s, 32))) & 2u);
    mb_fe25519_frombytes(h, s);
    mb_wipe(s, sizeof s);
}

/* CT: see x25519_ladder.h; the only branch is on rnd == NULL (public). */
void mb_x25519_scalarmult(uint8_t out[32], const uint8_t k[32], const uint8_t u[32],
                          const uint8_t *rnd)
{
    fe25519 w[6], x1, lambda;

    mb_fe25519_frombytes(&x1, u);
    mb_fe25519_set(&w[X25519_Z2], 0);
    if (rnd) {
        lambda_from32(&lambda, rnd);
        mb_fe25519_sqr(&w[X25519_X2], &lambda);         /* R0 = (rho : 0), rho = lambda^2 */
        mb_fe25519_mul(&x1, &x1, &lambda);              /* P = (lambda u : lambda) */
        mb_fe25519_copy(&w[X25519_X3], &x1);
        mb_fe25519_copy(&w[X25519_Z3], &lambda);
        mb_x25519_ladder_steps(w, k, &x1, &lambda);
    } else {
        mb_fe25519_set(&w[X25519_X2], 1);               /* R0 = (1 : 0) */
        mb_fe25519_copy(&w[X25519_X3], &x1);            /* R1 = (u : 1) */
        mb_fe25519_set(&w[X25519_Z3], 1);
        mb_x25519_ladder_steps(w, k, &x1, 0);
    }
    /* u = x2 / z2; 1/0 = 0 maps the neutral element to 0. */
    mb_fe25519_invert(&w[X25519_T0], &w[X25519_Z2]);
    mb_fe25519_mul(&w[X25519_T1], &w[X25519_X2], &w[X25519_T0]);
    mb_fe25519_tobytes(out, &w[X25519_T1]);

    mb_wipe(w, sizeof w);
    mb_wipe(&x1, sizeof x1);
    mb_wipe(&lambda, sizeof lambda);
}
#endif /* !MB_ASM_CORTEX_M4 && !MB_ASM_MSP430X */
