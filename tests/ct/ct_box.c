/* SPDX-License-Identifier: MIT */
/* Constant-time cases for box, secretbox and the stream. Secret: secret keys, shared
 * keys, plaintexts (and outputs until returned). Public: public keys, nonces, lengths,
 * ciphertexts given to open. */
#include <string.h>
#include "ct.h"
#include "motebox.h"

#define MLEN 200   /* > 3 Salsa20 blocks, not a multiple of 64 or 16 */

/* A key pair made from public (defined) randomness; the caller marks sk secret. */
static void keypair(uint8_t pk[32], uint8_t sk[32])
{
    int rc;
    ct_random(sk, 32);
    rc = mb_x25519_base(pk, sk);
    CT_EXPECT(rc == 0);
}

CT_CASE(box)
{
    uint8_t pka[32], ska[32], pkb[32], skb[32], n[24], m[MLEN], c[MLEN + 16];
    int rc;
    keypair(pka, ska);
    keypair(pkb, skb);
    ct_random(n, 24);
    ct_random(m, MLEN);
    ct_secret(ska, 32);
    ct_secret(m, MLEN);
    rc = mb_box(c, m, MLEN, n, pkb, ska);
    ct_public(&rc, sizeof rc);
    ct_public(c, sizeof c);
    CT_EXPECT(rc == 0);
}

static void box_open_case(int forge)
{
    uint8_t pka[32], ska[32], pkb[32], skb[32], n[24], m[MLEN], c[MLEN + 16], m2[MLEN];
    int rc;
    keypair(pka, ska);
    keypair(pkb, skb);
    ct_random(n, 24);
    ct_random(m, MLEN);
    rc = mb_box(c, m, MLEN, n, pkb, ska);          /* all public here */
    CT_EXPECT(rc == 0);
    if (forge) c[20] ^= 1;
    ct_secret(skb, 32);
    rc = mb_box_open(m2, c, sizeof c, n, pka, skb);
    ct_public(&rc, sizeof rc);
    ct_public(m2, MLEN);
    CT_EXPECT(rc == (forge ? -1 : 0));
    CT_EXPECT(forge ? m2[0] == 0 && m2[MLEN - 1] == 0 : memcmp(m, m2, MLEN) == 0);
}

CT_CASE(box_open) { box_open_case(0); }
CT_CASE(box_open_forged) { box_open_case(1); }

CT_CASE(box_beforenm)
{
    uint8_t pka[32], ska[32], pkb[32], skb[32], k[32];
    int rc;
    keypair(pka, ska);
    keypair(pkb, skb);
    ct_secret(ska, 32);
    rc = mb_box_beforenm(k, pkb, ska);
    ct_public(&rc, sizeof rc);
    ct_public(k, 32);
    CT_EXPECT(rc == 0);
}

CT_CASE(secretbox)
{
    uint8_t k[32], n[24], m[MLEN], c[MLEN + 16], m2[MLEN];
    int rc;
    ct_random(k, 32);
    ct_random(n, 24);
    ct_random(m, MLEN);
    ct_secret(k, 32);
    ct_secret(m, MLEN);
    rc = mb_secretbox(c, m, MLEN, n, k);
    CT_EXPECT(rc == 0);
    ct_public(c, sizeof c);
    rc = mb_secretbox_open(m2, c, sizeof c, n, k);   /* k still secret */
    ct_public(&rc, sizeof rc);
    ct_public(m2, MLEN);
    ct_public(m, MLEN);
    CT_EXPECT(rc == 0);
    CT_EXPECT(memcmp(m, m2, MLEN) == 0);
}

CT_CASE(box_stream)
{
    mb_box_stream s;
    uint8_t k[32], n[24], m[MLEN], c[MLEN], tag[16], ref[MLEN + 16];
    static const size_t chunks[] = { 1, 63, 64, 7, 65 };   /* sums to MLEN */
    size_t i, off = 0;
    int rc = 0;
    ct_random(k, 32);
    ct_random(n, 24);
    ct_random(m, MLEN);
    CT_EXPECT(mb_secretbox(ref, m, MLEN, n, k) == 0);   /* public reference */
    ct_secret(k, 32);
    ct_secret(m, MLEN);
    mb_box_stream_init(&s, k, n);
    for (i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
        rc |= mb_box_stream_update(&s, c + off, m + off, chunks[i]);
        off += chunks[i];
    }
    rc |= mb_box_stream_final(&s, tag);
    /* the return value: public by contract; hardened (MB_FAULT_HARDENED_STREAM), it is
     * computed from the comparison of the tag with its second computation */
    ct_public(&rc, sizeof rc);
    CT_EXPECT(rc == 0);
    ct_public(c, MLEN);
    ct_public(tag, 16);
    CT_EXPECT(off == MLEN);
    CT_EXPECT(memcmp(tag, ref, 16) == 0 && memcmp(c, ref + 16, MLEN) == 0);
}

/* The receiving stream's pass 1 (init and auth in odd chunks) under a secret key, and
 * an in-place seal and open (the overlap path moves the input first). The tag check of
 * mb_box_unstream_verify branches on its outcome, which the API makes public, so it
 * is not run here; pass 2 shares its keystream code with the sending stream above. */
CT_CASE(unstream_auth_and_in_place)
{
    mb_box_stream s;
    uint8_t k[32], n[24], buf[MLEN + 16];
    static const size_t chunks[] = { 1, 63, 64, 7, 65 };   /* sums to MLEN */
    size_t i, off = 0;
    int rc = 0;
    ct_random(k, 32);
    ct_random(n, 24);
    ct_random(buf, sizeof buf);
    ct_secret(k, 32);
    mb_box_unstream_init(&s, k, n);
    for (i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
        rc |= mb_box_unstream_auth(&s, buf + off, chunks[i]);
        off += chunks[i];
    }
    mb_wipe(&s, sizeof s);
    ct_secret(buf, MLEN);                                   /* the plaintext */
    rc |= mb_secretbox(buf, buf, MLEN, n, k);               /* c == m */
    ct_public(buf, sizeof buf);
    rc |= mb_secretbox_open(buf, buf, sizeof buf, n, k);    /* m == c; k still secret */
    ct_public(&rc, sizeof rc);
    ct_public(buf, MLEN);
    CT_EXPECT(rc == 0 && off == MLEN);
}
