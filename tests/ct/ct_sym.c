/* SPDX-License-Identifier: MIT */
/* Constant-time cases for the Salsa20 family, Poly1305 and the failure paths of
 * secretbox / box (SYM's cases; box, box_open, secretbox and the stream themselves are
 * in ct_box.c). Secret: keys, plaintexts, and every output until it is returned. */
#include <string.h>
#include "ct.h"
#include "motebox.h"

#define LEN 150   /* > 2 Salsa20 blocks, not a multiple of 16 */

CT_CASE(hsalsa20)
{
    uint8_t k[32], in[16], out[32];
    ct_random(k, 32);
    ct_random(in, 16);
    ct_secret(k, 32);
    mb_hsalsa20(out, in, k);
    ct_public(out, 32);
}

CT_CASE(xsalsa20_xor)
{
    uint8_t k[32], n[24], m[LEN], c[LEN], ks[LEN];
    size_t i;
    int same = 1;
    ct_random(k, 32);
    ct_random(n, 24);
    ct_random(m, LEN);
    ct_secret(k, 32);
    ct_secret(m, LEN);
    mb_xsalsa20_xor(c, m, LEN, n, k);
    mb_xsalsa20(ks, LEN, n, k);
    ct_public(c, LEN);
    ct_public(ks, LEN);
    ct_public(m, LEN);
    for (i = 0; i < LEN; i++) same &= (c[i] ^ ks[i]) == m[i];
    CT_EXPECT(same);
}

CT_CASE(poly1305)
{
    uint8_t k[32], m[LEN], tag[16];
    int rc;
    ct_random(k, 32);
    ct_random(m, LEN);
    ct_secret(k, 32);
    ct_secret(m, LEN);
    mb_poly1305(tag, m, LEN, k);
    rc = mb_poly1305_verify(tag, m, LEN, k);    /* tag still secret here */
    ct_public(&rc, sizeof rc);
    CT_EXPECT(rc == 0);
    tag[3] ^= 1;
    rc = mb_poly1305_verify(tag, m, LEN, k);
    ct_public(&rc, sizeof rc);
    CT_EXPECT(rc == -1);
}

/* Poly1305 with every limb at its maximum: all-ones key and message. */
CT_CASE(poly1305_extreme)
{
    uint8_t k[32], m[64], tag[16];
    memset(k, 0xff, 32);
    memset(m, 0xff, 64);
    ct_secret(k, 32);
    ct_secret(m, 64);
    mb_poly1305(tag, m, 64, k);
    ct_public(tag, 16);
}

CT_CASE(secretbox_open_forged)
{
    uint8_t k[32], n[24], m[LEN], c[LEN], tag[16], m2[LEN];
    int rc;
    ct_random(k, 32);
    ct_random(n, 24);
    ct_random(m, LEN);
    CT_EXPECT(mb_secretbox_detached(c, tag, m, LEN, n, k) == 0);
    c[LEN - 1] ^= 0x80;
    ct_secret(k, 32);
    rc = mb_secretbox_open_detached(m2, c, LEN, tag, n, k);
    ct_public(&rc, sizeof rc);
    ct_public(m2, LEN);
    CT_EXPECT(rc == -1 && m2[0] == 0 && m2[LEN - 1] == 0);
}

CT_CASE(box_detached)
{
    uint8_t ska[32], pka[32], skb[32], pkb[32], n[24], m[LEN], c[LEN], tag[16], m2[LEN];
    int rc;
    ct_random(ska, 32);
    ct_random(skb, 32);
    rc = mb_x25519_base(pka, ska) | mb_x25519_base(pkb, skb);
    CT_EXPECT(rc == 0);
    ct_random(n, 24);
    ct_random(m, LEN);
    ct_secret(ska, 32);
    ct_secret(m, LEN);
    rc = mb_box_detached(c, tag, m, LEN, n, pkb, ska);
    ct_public(&rc, sizeof rc);
    ct_public(c, LEN);
    ct_public(tag, 16);
    CT_EXPECT(rc == 0);
    ct_secret(skb, 32);
    rc = mb_box_open_detached(m2, c, LEN, tag, n, pka, skb);
    ct_public(&rc, sizeof rc);
    ct_public(m2, LEN);
    ct_public(m, LEN);
    CT_EXPECT(rc == 0 && memcmp(m, m2, LEN) == 0);
}

/* A low-order public key must fail without a branch on anything secret: the failure
 * flag comes out of the ladder's result, which valgrind sees as derived from sk. */
CT_CASE(box_low_order_pk)
{
    static const uint8_t low[32] = { 1 };   /* u = 1: order 1 after clamping */
    uint8_t sk[32], n[24], m[LEN], c[LEN + 16], m2[LEN], k[32];
    int rc;
    ct_random(sk, 32);
    ct_random(n, 24);
    ct_random(m, LEN);
    ct_secret(sk, 32);
    ct_secret(m, LEN);
    rc = mb_box(c, m, LEN, n, low, sk);
    ct_public(&rc, sizeof rc);
    ct_public(c, sizeof c);
    CT_EXPECT(rc == -1 && c[0] == 0 && c[LEN + 15] == 0);
    rc = mb_box_open(m2, c, sizeof c, n, low, sk);
    ct_public(&rc, sizeof rc);
    ct_public(m2, LEN);
    CT_EXPECT(rc == -1 && m2[0] == 0);
    rc = mb_box_beforenm(k, low, sk);
    ct_public(&rc, sizeof rc);
    ct_public(k, 32);
    CT_EXPECT(rc == -1 && k[0] == 0 && k[31] == 0);
}

/* Stream with empty and odd chunks; the state is wiped by final. */
CT_CASE(box_stream_odd_chunks)
{
    mb_box_stream s;
    uint8_t k[32], n[24], m[LEN], c[LEN], tag[16], ref[LEN + 16];
    static const size_t chunks[] = { 0, 33, 0, 31, 1, 85 };   /* sums to LEN */
    size_t i, off = 0;
    uint8_t acc = 0;
    int rc = 0;
    ct_random(k, 32);
    ct_random(n, 24);
    ct_random(m, LEN);
    CT_EXPECT(mb_secretbox(ref, m, LEN, n, k) == 0);
    ct_secret(k, 32);
    ct_secret(m, LEN);
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
    ct_public(c, LEN);
    ct_public(tag, 16);
    CT_EXPECT(off == LEN);
    CT_EXPECT(memcmp(tag, ref, 16) == 0 && memcmp(c, ref + 16, LEN) == 0);
    for (i = 0; i < sizeof s; i++) acc |= ((const uint8_t *)&s)[i];
    CT_EXPECT(acc == 0);
}
