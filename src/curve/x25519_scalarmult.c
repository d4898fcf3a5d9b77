/* SPDX-License-Identifier: MIT */
/* X25519 scalar multiplication: the ladder's start (plain or randomized, [DS16]
 * Algorithm 1) around mb_x25519_ladder_steps, then the projective-to-affine conversion. */
#include "curve/x25519_ladder.h"
#include "util/ct.h"

/* h = the 128-bit little-endian integer r, or 1 if r is 0: nonzero mod p as p > 2^128.
 * CT: r is secret; the zero case is ORed into bit 0, not branched on. */
static void nonzero_from16(fe25519 *h, const uint8_t r[16])
{
    uint8_t s[32];
    int i;
    for (i = 0; i < 16; i++) s[i] = r[i];
    for (i = 16; i < 32; i++) s[i] = 0;
    /* ~mask & 1 is 1 iff r == 0; the mask goes through the barrier so that no compiler
     * turns it back into a sign test (a predicated or branching instruction). */
    s[0] |= (uint8_t)(~ct_mask32(ct_nonzero32(ct_or_bytes(r, 16))) & 1u);
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
        nonzero_from16(&lambda, rnd);
        nonzero_from16(&w[X25519_X2], rnd + 16);        /* R0 = (rho : 0) */
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
