/* SPDX-License-Identifier: MIT */
/*
 * NIST P-256 ECDH (the mb_p256_* functions of motebox.h): key generation from a
 * caller-chosen scalar, shared secret = x(sk * P), SEC1 compression helpers.
 * Fail closed: every failure zeroes the outputs before returning -1.
 */
#include "motebox.h"
#include "curve/p256.h"
#include "util/ct.h"
#include "util/fault.h"

/* k = sk if ok, else 1 (a valid stand-in, so the ladder's precondition holds and the
 * work done does not depend on validity). CT: sk, ok secret. */
static void scalar_or_one(uint8_t k[32], const uint8_t sk[32], uint32_t ok)
{
    uint8_t m = (uint8_t)ct_mask32(ok);
    int i;
    for (i = 0; i < 32; i++) k[i] = sk[i] & m;
    k[31] |= (uint8_t)(~m & 1u);
}

/* out[0..len) &= mask(ok): zero the output of an invalid scalar without a branch. */
static void keep_if(uint8_t *out, size_t len, uint32_t ok)
{
    uint8_t m = (uint8_t)ct_mask32(ok);
    size_t i;
    for (i = 0; i < len; i++) out[i] &= m;
}

/* CT: sk secret. Its validity is computed with masks and only becomes the return value
 * (0 or -1, public by contract): nothing branches on it inside the library.
 * Fixed-base comb (src/curve/p256_base.c) unless built with MB_NO_FIXED_BASE. */
int mb_p256_base(uint8_t pk[65], const uint8_t sk[32])
{
    p256_point R;
    uint8_t k[32];
    uint32_t ok = mb_p256_scalar_ok(sk);
    scalar_or_one(k, sk, ok);
#ifndef MB_NO_FIXED_BASE
    mb_p256_base_mul(&R, k);           /* comb over the table of multiples of G */
#else
    {                                  /* no table: the variable-base ladder */
        p256_point G;
        mb_p256_base_point(&G);
        mb_p256_scalarmult(&R, k, &G, NULL);
    }
#endif
    mb_p256_encode(pk, &R);
    keep_if(pk, 65, ok);
    mb_wipe(&R, sizeof R);
    mb_wipe(k, sizeof k);
    return (int)ok - 1;
}

#if MB_FAULT_HARDENED
/* The fault checks of ecdh (docs/FAULTS.md, "P-256 ECDH"), out of line so the compiler
 * keeps them apart from each other and from the first mask, and a campaign can name
 * them. Each returns 1 (pass) or 0.
 *
 * result_check: R on the curve and shared = x(R) exactly. The co-Z and Jacobian
 * formulas never use b, so a fault in the ladder's data (or a ladder run on a point a
 * fault moved) ends on a curve y^2 = x^3 - 3x + b' with b' != b: off P-256, as is a
 * result whose final Z inversion was faulted. Run after the encoding, so a fault in the
 * conversion or the byte stores shows as a mismatch. CT: R and shared secret. */
static MB_NOINLINE uint32_t result_check(const p256_point *R, const uint8_t shared[32])
{
    fep256 x;
    uint32_t ok = mb_fep256_frombytes(&x, shared);
    mb_fep256_tomont(&x, &x);
    ok &= mb_fep256_equal(&x, &R->x);
    ok &= mb_p256_on_curve(R);
    mb_wipe(&x, sizeof x);
    return ok;
}

/* input_check: after the ladder, the input point is still on the curve (one a fault
 * changed in memory before the ladder is not), and k is what sk gives: sk's validity
 * and sk-or-one are computed again and compared with k (a faulted copy or validity
 * would multiply by another scalar: a valid wrong point that no curve check sees).
 * CT: sk, k secret; P public. */
static MB_NOINLINE uint32_t input_check(const p256_point *P, const uint8_t k[32],
                                        const uint8_t sk[32])
{
    uint8_t k2[32];
    uint32_t ok = mb_p256_scalar_ok(sk), d = 0;
    int i;
    scalar_or_one(k2, sk, ok);
    for (i = 0; i < 32; i++) d |= (uint32_t)(k[i] ^ k2[i]);
    mb_wipe(k2, sizeof k2);
    return ok & (1u ^ ct_nonzero32(d)) & mb_p256_on_curve(P);
}

/* out[0..len) &= mask, after keep_if applied the first: a byte whose first AND a fault
 * skipped is still cleared (out of line: two inlined loops could be merged into one).
 * CT: out, mask secret. */
static MB_NOINLINE void remask(uint8_t *out, size_t len, uint8_t mask)
{
    size_t i;
    for (i = 0; i < len; i++) out[i] &= mask;
}

/* release_check: after both masks, shared is exactly x's encoding masked by the
 * verdicts, encoded again here. Any single fault in the mask passes (a flipped load or
 * AND, a skipped store) changes at most one word of shared, after every computation:
 * it shows here, and the call returns -1 (the bytes stay as the faulted pass left
 * them: clearing them would branch on the outcome). Returns 1 (pass) or 0.
 * CT: shared, x, mask secret. */
static MB_NOINLINE uint32_t release_check(const uint8_t shared[32], const fep256 *x,
                                          uint8_t mask)
{
    uint8_t b[32];
    uint32_t d = 0;
    int i;
    mb_fep256_tobytes(b, x);
    for (i = 0; i < 32; i++) d |= (uint32_t)(shared[i] ^ (b[i] & mask));
    mb_wipe(b, sizeof b);
    return 1u ^ ct_nonzero32(d);
}
#endif

/* CT: sk, rnd and the shared point are secret; pk is public, so decoding it may branch.
 * sk's validity is handled as in mb_p256_base. Hardened (MB_FAULT_HARDENED): the output
 * is released through two masks, the first from every check, the second from the
 * verdicts in memory (1 = pass, 0 until each check stores its own), then checked
 * (release_check: a fault in a mask pass returns -1); the return value is computed
 * from the verdicts last (as box.c's open_masked: a skipped store, load, decrement or
 * OR leaves -1). */
static int ecdh(uint8_t shared[32], const uint8_t sk[32], const uint8_t *pk, size_t pklen,
                const uint8_t *rnd)
{
    p256_point P, R;
    fep256 x;
    uint8_t k[32];
    uint32_t ok;
#if MB_FAULT_HARDENED
    uint32_t ok1, ok2;
    volatile uint32_t verdict[4];
#endif
    if (pk == NULL || mb_p256_decode(&P, pk, pklen) != 0) {
        mb_wipe(shared, 32);
        return -1;
    }
#if MB_FAULT_HARDENED
    verdict[0] = 0;
    verdict[1] = 0;
    verdict[2] = 0;
    verdict[3] = 0;
#endif
    ok = mb_p256_scalar_ok(sk);
#if MB_FAULT_HARDENED
    verdict[0] = ok & 1u;
#endif
    scalar_or_one(k, sk, ok);
    mb_p256_scalarmult(&R, k, &P, rnd);
    mb_fep256_frommont(&x, &R.x);
    mb_fep256_tobytes(shared, &x);
#if MB_FAULT_HARDENED
    ok1 = result_check(&R, shared);
    verdict[1] = ok1 & 1u;
    ok2 = input_check(&P, k, sk);
    verdict[2] = ok2 & 1u;
    keep_if(shared, 32, ok & ok1 & ok2);
    remask(shared, 32, (uint8_t)ct_mask32(verdict[0] & verdict[1] & verdict[2]));
    verdict[3] = release_check(shared, &x,
                               (uint8_t)ct_mask32(verdict[0] & verdict[1] & verdict[2])) & 1u;
#else
    keep_if(shared, 32, ok);
#endif
    mb_wipe(&R, sizeof R);
    mb_wipe(&x, sizeof x);
    mb_wipe(k, sizeof k);
#if MB_FAULT_HARDENED
    return ((int)verdict[0] - 1) | ((int)verdict[1] - 1) | ((int)verdict[2] - 1) |
           ((int)verdict[3] - 1);
#else
    return (int)ok - 1;
#endif
}

int mb_p256_ecdh(uint8_t shared[32], const uint8_t sk[32], const uint8_t *pk, size_t pklen)
{
    return ecdh(shared, sk, pk, pklen, NULL);
}

int mb_p256_ecdh_randomized(uint8_t shared[32], const uint8_t sk[32], const uint8_t *pk,
                            size_t pklen, const uint8_t rnd[32])
{
    return ecdh(shared, sk, pk, pklen, rnd);
}

int mb_p256_compress(uint8_t out[33], const uint8_t pk[65])
{
    p256_point P;
    if (mb_p256_decode(&P, pk, 65) != 0) {
        mb_wipe(out, 33);
        return -1;
    }
    mb_p256_encode_compressed(out, &P);
    return 0;
}

int mb_p256_decompress(uint8_t out[65], const uint8_t pk[33])
{
    p256_point P;
    if (mb_p256_decode(&P, pk, 33) != 0) {
        mb_wipe(out, 65);
        return -1;
    }
    mb_p256_encode(out, &P);
    return 0;
}
