/* SPDX-License-Identifier: MIT */
/* X25519 scalar multiplication: the ladder's start (plain or randomized, [DS16]
 * Algorithm 1) around mb_x25519_ladder_steps, then the projective-to-affine conversion. */
#include "curve/x25519_ladder.h"
#include "util/ct.h"
#include "util/backend.h"
#include "util/fault.h"

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

#if MB_FAULT_HARDENED_X25519
/* 2A = 2 * 486662, little-endian. */
static const uint8_t two_a[32] = { 0x0c, 0xda, 0x0e };

/* Copies the result o (X0/Z0 encoded) to out; returns 1 if x(R0) = X0/Z0 and
 * x(R1) = X1/Z1 (w after the ladder) have u as the u-coordinate of their difference,
 * out (read back after the copy) = X0/Z0, Z0 is nonzero (R0 = O only for a u of small
 * order, whose result 0 is refused anyway) and R1 is not (0 : 0), where the relation
 * holds trivially (R1 = (X1 : 0) = O is legitimate: k = -1 mod the order, a Wycheproof
 * case; the relation then says x(R0) = u, as it should); else 0. u is read before out
 * is written (out may alias u). Points R0, R1 with
 * R1 - R0 = P satisfy (x(P) is a root of it; x(R0 + R1) is the other)
 *   (X0 Z1 - X1 Z0)^2 u^2 + (X0 X1 - Z0 Z1)^2
 *     = 2 u ((X0 X1 + Z0 Z1)(X0 Z1 + X1 Z0) + 2A X0 X1 Z0 Z1),
 * bihomogeneous, so it holds whatever the projective scale (randomized ladder too).
 * A fault in the ladder's data breaks R1 - R0 = P for every later step (the
 * differential additions use P), a faulted u load or a ladder run on another u fails it
 * against u read again, a faulted inversion or encoding fails out * Z0 = X0. Out of line
 * (util/fault.h). CT: w, out secret; u public; sums and products only. */
static MB_NOINLINE uint32_t ladder_check(const fe25519 w[6], const uint8_t u[32],
                                         const uint8_t o[32], uint8_t out[32])
{
    enum { P, Q, R, S, A, B, U };
    fe25519 f[7];
    uint8_t b1[32], b2[32];
    uint32_t d = 0;
    int i;
    const fe25519 *x0 = &w[X25519_X2], *z0 = &w[X25519_Z2];
    const fe25519 *x1 = &w[X25519_X3], *z1 = &w[X25519_Z3];

    mb_fe25519_frombytes(&f[U], u);
    mb_fe25519_mul(&f[P], x0, z1);
    mb_fe25519_mul(&f[Q], x1, z0);
    mb_fe25519_mul(&f[R], x0, x1);
    mb_fe25519_mul(&f[S], z0, z1);
    mb_fe25519_sub(&f[A], &f[P], &f[Q]);
    mb_fe25519_sqr(&f[A], &f[A]);
    mb_fe25519_sqr(&f[B], &f[U]);
    mb_fe25519_mul(&f[A], &f[A], &f[B]);         /* (X0 Z1 - X1 Z0)^2 u^2 */
    mb_fe25519_add(&f[P], &f[P], &f[Q]);         /* X0 Z1 + X1 Z0 */
    mb_fe25519_mul(&f[Q], &f[R], &f[S]);
    mb_fe25519_frombytes(&f[B], two_a);
    mb_fe25519_mul(&f[Q], &f[Q], &f[B]);         /* 2A X0 X1 Z0 Z1 */
    mb_fe25519_sub(&f[B], &f[R], &f[S]);
    mb_fe25519_sqr(&f[B], &f[B]);                /* (X0 X1 - Z0 Z1)^2 */
    mb_fe25519_add(&f[R], &f[R], &f[S]);
    mb_fe25519_mul(&f[R], &f[R], &f[P]);
    mb_fe25519_add(&f[R], &f[R], &f[Q]);
    mb_fe25519_mul(&f[R], &f[R], &f[U]);
    mb_fe25519_add(&f[A], &f[A], &f[B]);         /* left side */
    mb_fe25519_add(&f[R], &f[R], &f[R]);         /* right side */
    mb_fe25519_tobytes(b1, &f[A]);
    mb_fe25519_tobytes(b2, &f[R]);
    for (i = 0; i < 32; i++) d |= (uint32_t)(b1[i] ^ b2[i]);
    mb_copy(out, o, 32);
    mb_fe25519_frombytes(&f[P], out);
    mb_fe25519_mul(&f[P], &f[P], z0);
    mb_fe25519_tobytes(b1, &f[P]);
    mb_fe25519_tobytes(b2, x0);
    for (i = 0; i < 32; i++) d |= (uint32_t)(b1[i] ^ b2[i]);
    d = (1u ^ ct_nonzero32(d)) & (1u ^ mb_fe25519_iszero(z0)) &
        (1u ^ (mb_fe25519_iszero(x1) & mb_fe25519_iszero(z1)));
    mb_wipe(f, sizeof f);
    mb_wipe(b1, sizeof b1);
    mb_wipe(b2, sizeof b2);
    return d;
}
#endif

/* CT: see x25519_ladder.h; the only branch is on rnd == NULL (public). */
uint32_t mb_x25519_scalarmult_checked(uint8_t out[32], const uint8_t k[32],
                                      const uint8_t u[32], const uint8_t *rnd,
                                      uint8_t chk[32])
{
    fe25519 w[6], x1, lambda;
    uint32_t ok;
#if MB_FAULT_HARDENED_X25519
    uint8_t o[32];      /* the result, checked and copied to out (which may alias u) */
    uint8_t used[32];   /* the scalar rebuilt from the ladder's swaps */
    int i;
#else
    uint8_t *used = chk;                     /* not written when not hardened */
#endif

    mb_fe25519_frombytes(&x1, u);
    mb_fe25519_set(&w[X25519_Z2], 0);
    if (rnd) {
        lambda_from32(&lambda, rnd);
        mb_fe25519_sqr(&w[X25519_X2], &lambda);         /* R0 = (rho : 0), rho = lambda^2 */
        mb_fe25519_mul(&x1, &x1, &lambda);              /* P = (lambda u : lambda) */
        mb_fe25519_copy(&w[X25519_X3], &x1);
        mb_fe25519_copy(&w[X25519_Z3], &lambda);
        ok = mb_x25519_ladder_steps(w, k, &x1, &lambda, used);
    } else {
        mb_fe25519_set(&w[X25519_X2], 1);               /* R0 = (1 : 0) */
        mb_fe25519_copy(&w[X25519_X3], &x1);            /* R1 = (u : 1) */
        mb_fe25519_set(&w[X25519_Z3], 1);
        ok = mb_x25519_ladder_steps(w, k, &x1, 0, used);
    }
    /* u = x2 / z2; 1/0 = 0 maps the neutral element to 0. */
    mb_fe25519_invert(&w[X25519_T0], &w[X25519_Z2]);
    mb_fe25519_mul(&w[X25519_T1], &w[X25519_X2], &w[X25519_T0]);
#if MB_FAULT_HARDENED_X25519
    mb_fe25519_tobytes(o, &w[X25519_T1]);
    ok &= ladder_check(w, u, o, out);
    /* chk only written, from its own buffers: an XOR in place through a faulted chk
     * pointer turned the caller's result r into r ^ o ^ u = u with r ^ chk unchanged */
    for (i = 0; i < 32; i++) chk[i] = used[i] ^ o[i] ^ u[i];
    mb_wipe(o, sizeof o);
    mb_wipe(used, sizeof used);
#else
    mb_fe25519_tobytes(out, &w[X25519_T1]);
#endif

    mb_wipe(w, sizeof w);
    mb_wipe(&x1, sizeof x1);
    mb_wipe(&lambda, sizeof lambda);
    return ok;
}

void mb_x25519_scalarmult(uint8_t out[32], const uint8_t k[32], const uint8_t u[32],
                          const uint8_t *rnd)
{
    uint8_t chk[32];
    (void)mb_x25519_scalarmult_checked(out, k, u, rnd, chk);
    mb_wipe(chk, sizeof chk);
}
#endif /* !MB_ASM_CORTEX_M4 && !MB_ASM_MSP430X */
