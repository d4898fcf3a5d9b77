/* SPDX-License-Identifier: MIT */
/*
 * NIST P-256 ECDH (the mb_p256_* functions of motebox.h): key generation from a
 * caller-chosen scalar, shared secret = x(sk * P), SEC1 compression helpers.
 * Fail closed: every failure zeroes the outputs before returning -1.
 */
#include "motebox.h"
#include "curve/p256.h"
#include "util/ct.h"

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

/* CT: sk, rnd and the shared point are secret; pk is public, so decoding it may branch.
 * sk's validity is handled as in mb_p256_base. */
static int ecdh(uint8_t shared[32], const uint8_t sk[32], const uint8_t *pk, size_t pklen,
                const uint8_t *rnd)
{
    p256_point P, R;
    fep256 x;
    uint8_t k[32];
    uint32_t ok;
    if (pk == NULL || mb_p256_decode(&P, pk, pklen) != 0) {
        mb_wipe(shared, 32);
        return -1;
    }
    ok = mb_p256_scalar_ok(sk);
    scalar_or_one(k, sk, ok);
    mb_p256_scalarmult(&R, k, &P, rnd);
    mb_fep256_frommont(&x, &R.x);
    mb_fep256_tobytes(shared, &x);
    keep_if(shared, 32, ok);
    mb_wipe(&R, sizeof R);
    mb_wipe(&x, sizeof x);
    mb_wipe(k, sizeof k);
    return (int)ok - 1;
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
