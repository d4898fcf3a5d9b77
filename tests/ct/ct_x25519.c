/* SPDX-License-Identifier: MIT */
/* Constant-time cases for X25519. Secret: sk, rnd (and the outputs until returned). */
#include "ct.h"
#include "motebox.h"

CT_CASE(x25519)
{
    uint8_t sk[32], pk[32], out[32];
    int rc;
    ct_random(sk, 32);
    ct_random(pk, 32);
    ct_secret(sk, 32);
    rc = mb_x25519(out, sk, pk);
    ct_public(&rc, sizeof rc);
    ct_public(out, 32);
    CT_EXPECT(rc == 0);
}

CT_CASE(x25519_low_order)
{
    /* A low-order pk (u = 0): the all-zero result and -1 must not be computed by
     * branching on the secret-derived output. */
    uint8_t sk[32], pk[32] = { 0 }, out[32];
    int rc;
    ct_random(sk, 32);
    ct_secret(sk, 32);
    rc = mb_x25519(out, sk, pk);
    ct_public(&rc, sizeof rc);
    ct_public(out, 32);
    CT_EXPECT(rc == -1);
    CT_EXPECT(out[0] == 0 && out[31] == 0);
}

CT_CASE(x25519_base)
{
    uint8_t sk[32], pk[32];
    int rc;
    ct_random(sk, 32);
    ct_secret(sk, 32);
    rc = mb_x25519_base(pk, sk);
    ct_public(&rc, sizeof rc);
    ct_public(pk, 32);
    CT_EXPECT(rc == 0);
}

CT_CASE(x25519_randomized)
{
    uint8_t sk[32], pk[32], rnd[32], out[32], ref[32];
    int rc, rc2;
    ct_random(sk, 32);
    ct_random(pk, 32);
    ct_random(rnd, 32);
    rc2 = mb_x25519(ref, sk, pk);          /* reference, all public: not checked for CT */
    ct_secret(sk, 32);
    ct_secret(rnd, 32);
    rc = mb_x25519_randomized(out, sk, pk, rnd);
    ct_public(&rc, sizeof rc);
    ct_public(out, 32);
    ct_public(sk, 32);
    CT_EXPECT(rc == rc2);
    CT_EXPECT(out[0] == ref[0] && out[17] == ref[17] && out[31] == ref[31]);
}

CT_CASE(x25519_randomized_zero_rnd)
{
    /* rnd = 0 exercises the lambda = 0 -> 2 mapping, which must be branch-free. */
    uint8_t sk[32], pk[32], rnd[32] = { 0 }, out[32];
    int rc;
    ct_random(sk, 32);
    ct_random(pk, 32);
    ct_secret(sk, 32);
    ct_secret(rnd, 32);
    rc = mb_x25519_randomized(out, sk, pk, rnd);
    ct_public(&rc, sizeof rc);
    ct_public(out, 32);
    CT_EXPECT(rc == 0);
}
