/* SPDX-License-Identifier: MIT */
/* A classic NaCl program (names and zero padding as in NaCl's tests/box.c, box2.c,
 * core1.c, core2.c, stream.c, onetimeauth.c), built against motebox_nacl.h only.
 * Input values come from the command line (hex) so this file holds no expected
 * results: it prints "name hex" lines that tests/test_nacl.py checks against the
 * NaCl distribution's outputs and against PyNaCl. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "motebox_nacl.h"

static unsigned char rnd_src[32];

/* The user-supplied randombytes() of TweetNaCl; here deterministic for the test. */
void randombytes(unsigned char *x, unsigned long long xlen)
{
    unsigned long long i;
    for (i = 0; i < xlen; i++) x[i] = rnd_src[i % 32];
}

static void unhex(unsigned char *out, const char *hex, size_t n)
{
    size_t i;
    unsigned v;
    if (strlen(hex) != 2 * n) { fprintf(stderr, "bad hex length\n"); exit(2); }
    for (i = 0; i < n; i++) { sscanf(hex + 2 * i, "%2x", &v); out[i] = (unsigned char)v; }
}

static void show(const char *name, int rc, const unsigned char *p, size_t n)
{
    size_t i;
    printf("%s %d ", name, rc);
    for (i = 0; i < n; i++) printf("%02x", p[i]);
    printf("\n");
}

/* argv: alicesk bobsk alicepk bobpk nonce msg(131 bytes) */
int main(int argc, char **argv)
{
    static const unsigned char sigma[16] = "expand 32-byte k";
    unsigned char alicesk[32], bobsk[32], alicepk[32], bobpk[32], nonce[24];
    unsigned char m[163], c[163], m2[163], k[32], shared[32], key2[32], zero[32] = { 0 };
    unsigned char pk[32], sk[32], rs[32], a[16], ks[200], buf[163];
    unsigned char badc[4] = { 1, 2, 3, 4 };
    int rc;

    if (argc != 7) return 2;
    unhex(alicesk, argv[1], 32);
    unhex(bobsk, argv[2], 32);
    unhex(alicepk, argv[3], 32);
    unhex(bobpk, argv[4], 32);
    unhex(nonce, argv[5], 24);
    memset(m, 0, 32);
    unhex(m + 32, argv[6], 131);

    rc = crypto_box(c, m, 163, nonce, bobpk, alicesk);             /* box.c */
    show("box", rc, c, 163);
    rc = crypto_box_open(m2, c, 163, nonce, alicepk, bobsk);       /* box2.c */
    show("box_open", rc, m2, 163);
    rc = crypto_box_beforenm(k, bobpk, alicesk);
    show("beforenm", rc, k, 32);
    memset(c, 0xa5, sizeof c);
    rc = crypto_box_afternm(c, m, 163, nonce, k);
    show("afternm", rc, c, 163);
    memset(m2, 0xa5, sizeof m2);
    rc = crypto_box_open_afternm(m2, c, 163, nonce, k);
    show("open_afternm", rc, m2, 163);
    rc = crypto_secretbox(c, m, 163, nonce, k);
    show("secretbox", rc, c, 163);
    rc = crypto_secretbox_open(m2, c, 163, nonce, k);
    show("secretbox_open", rc, m2, 163);
    memcpy(buf, m, 163);                                            /* c == m */
    rc = crypto_secretbox(buf, buf, 163, nonce, k);
    show("secretbox_inplace", rc, buf, 163);
    rc = crypto_secretbox_open(buf, buf, 163, nonce, k);
    show("secretbox_open_inplace", rc, buf, 163);

    c[100] ^= 1;                                                    /* forged */
    memset(m2, 0xa5, sizeof m2);
    rc = crypto_box_open(m2, c, 163, nonce, alicepk, bobsk);
    show("box_open_forged", rc, m2, 163);
    c[100] ^= 1;
    memset(m2, 0xa5, sizeof m2);
    rc = crypto_secretbox_open(m2, c, 163, nonce, zero);
    show("secretbox_open_wrongkey", rc, m2, 163);
    rc = crypto_secretbox(c, m, 31, nonce, k);
    show("secretbox_short", rc, badc, 0);
    rc = crypto_secretbox_open(m2, c, 31, nonce, k);
    show("secretbox_open_short", rc, badc, 0);

    rc = crypto_scalarmult(shared, alicesk, bobpk);
    show("scalarmult", rc, shared, 32);
    rc = crypto_scalarmult_base(pk, bobsk);
    show("scalarmult_base", rc, pk, 32);
    rc = crypto_scalarmult(key2, alicesk, zero);
    show("scalarmult_zero", rc, key2, 32);
    memcpy(rnd_src, alicesk, 32);
    rc = crypto_box_keypair(pk, sk);
    show("keypair_pk", rc, pk, 32);
    show("keypair_sk", rc, sk, 32);

    rc = crypto_core_hsalsa20(key2, zero, shared, sigma);          /* core1.c */
    show("core1", rc, key2, 32);
    rc = crypto_core_hsalsa20(key2, nonce, k, sigma);              /* core2.c */
    show("core2", rc, key2, 32);
    rc = crypto_core_hsalsa20(key2, nonce, k, zero);
    show("core_badconst", rc, key2, 32);

    rc = crypto_stream(ks, sizeof ks, nonce, k);                   /* stream.c */
    show("stream", rc, ks, sizeof ks);
    rc = crypto_stream_xor(ks, m + 32, 131, nonce, k);
    show("stream_xor", rc, ks, 131);
    rc = crypto_stream(rs, 32, nonce, k);                          /* onetimeauth.c */
    rc |= crypto_secretbox(c, m, 163, nonce, k);
    rc |= crypto_onetimeauth(a, c + 32, 131, rs);
    show("onetimeauth", rc, a, 16);
    rc = crypto_onetimeauth_verify(a, c + 32, 131, rs);
    show("onetimeauth_verify", rc, a, 0);
    a[0] ^= 1;
    rc = crypto_onetimeauth_verify(a, c + 32, 131, rs);
    show("onetimeauth_verify_bad", rc, a, 0);

    rc = crypto_verify_16(k, k);
    show("verify16_same", rc, a, 0);
    rc = crypto_verify_32(k, shared);
    show("verify32_diff", rc, a, 0);
    printf("sizes %d %d %d %d %d %d %d %d\n", crypto_box_PUBLICKEYBYTES,
           crypto_box_SECRETKEYBYTES, crypto_box_BEFORENMBYTES, crypto_box_NONCEBYTES,
           crypto_box_ZEROBYTES, crypto_box_BOXZEROBYTES, crypto_secretbox_KEYBYTES,
           crypto_onetimeauth_BYTES);
    return 0;
}
