/* SPDX-License-Identifier: MIT */
/* Constant-time cases for P-256 in the shared harness (ct.h). Secret: sk, rnd (and the
 * outputs until returned); the validity of sk only leaves as the return code. The
 * standalone tests/ct/ct_p256.c additionally checks edge scalars against OpenSSL. */
#include "ct.h"
#include "motebox.h"

static const uint8_t N_BYTES[32] = {
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84,
    0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51
};

static void peer_key(uint8_t pk[65])
{
    uint8_t k[32] = { 0 };
    k[31] = 77;
    CT_EXPECT(mb_p256_base(pk, k) == 0);
}

CT_CASE(p256_base)
{
    uint8_t sk[32], pk[65];
    int rc;
    ct_random(sk, 32);
    sk[0] &= 0x7f;                    /* below n */
    ct_secret(sk, 32);
    rc = mb_p256_base(pk, sk);
    ct_public(&rc, sizeof rc);
    ct_public(pk, 65);
    CT_EXPECT(rc == 0 && pk[0] == 0x04);
}

CT_CASE(p256_base_invalid_scalar)
{
    /* sk = n: rejected by masks, the same work as a valid scalar. */
    uint8_t sk[32], pk[65];
    int rc, i;
    for (i = 0; i < 32; i++) sk[i] = N_BYTES[i];
    ct_secret(sk, 32);
    rc = mb_p256_base(pk, sk);
    ct_public(&rc, sizeof rc);
    ct_public(pk, 65);
    CT_EXPECT(rc == -1 && pk[0] == 0 && pk[64] == 0);
}

CT_CASE(p256_ecdh)
{
    uint8_t sk[32], pk[65], pkc[33], out[32], outc[32];
    int rc, rcc;
    peer_key(pk);
    CT_EXPECT(mb_p256_compress(pkc, pk) == 0);
    ct_random(sk, 32);
    sk[0] &= 0x7f;
    ct_secret(sk, 32);
    rc = mb_p256_ecdh(out, sk, pk, 65);
    rcc = mb_p256_ecdh(outc, sk, pkc, 33);
    ct_public(&rc, sizeof rc);
    ct_public(&rcc, sizeof rcc);
    ct_public(out, 32);
    ct_public(outc, 32);
    CT_EXPECT(rc == 0 && rcc == 0 && mb_verify32(out, outc) == 0);
}

CT_CASE(p256_ecdh_randomized)
{
    uint8_t sk[32], rnd[32], pk[65], out[32], ref[32];
    int rc;
    peer_key(pk);
    ct_random(sk, 32);
    ct_random(rnd, 32);
    sk[0] &= 0x7f;
    CT_EXPECT(mb_p256_ecdh(ref, sk, pk, 65) == 0);
    ct_secret(sk, 32);
    ct_secret(rnd, 32);
    rc = mb_p256_ecdh_randomized(out, sk, pk, 65, rnd);
    ct_public(&rc, sizeof rc);
    ct_public(out, 32);
    CT_EXPECT(rc == 0 && mb_verify32(out, ref) == 0);
}
