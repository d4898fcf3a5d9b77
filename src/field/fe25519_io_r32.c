/* SPDX-License-Identifier: MIT */
/*
 * GF(2^255-19), radix 2^32: encoding, decoding and small constants (the arithmetic is
 * in fe25519_r32.c, or in arch/<chip>/ assembly). Same representation: any integer in
 * [0, 2^256), kept mod 2^256-38; fe25519_tobytes reduces mod p.
 * CT: every function here treats all of its inputs as secret.
 */
#include "field/fe25519.h"
#include "util/ct.h"

#if MB_RADIX == 32

#define NL 8   /* limbs */

/* Post: h = s mod 2^255 (bit 255 ignored), h < 2^255.
 * CT: s may be secret; loads at fixed positions. */
void fe25519_frombytes(fe25519 *h, const uint8_t s[32])
{
    int i;
    for (i = 0; i < NL; i++) h->v[i] = load32_le(s + 4 * i);
    h->v[NL - 1] &= 0x7fffffffu;
}

/* Fold bit 255 of h back in as 19 (2^255 = 19 mod p).
 * CT: h secret; bit 255 is multiplied in, not branched on. */
static void fold19(uint32_t h[NL])
{
    uint64_t w = (uint64_t)19 * (h[NL - 1] >> 31);
    int i;
    h[NL - 1] &= 0x7fffffffu;
    for (i = 0; i < NL; i++) {
        w += h[i];
        h[i] = (uint32_t)w;
        w >>= 32;
    }
}

/* Bounds: any 256-bit h. Post: s = h mod p, canonical (< p), little-endian.
 * Two folds bring h below 2^255 (the first leaves < 2^255 + 19); then h - p is taken
 * iff h + 19 reaches 2^255, selected by a mask.
 * CT: h secret; the choice between h and h - p is a mask. */
void fe25519_tobytes(uint8_t s[32], const fe25519 *h)
{
    uint32_t t[NL], u[NL], m;
    uint64_t w;
    int i;
    for (i = 0; i < NL; i++) t[i] = h->v[i];
    fold19(t);
    fold19(t);
    w = 19;
    for (i = 0; i < NL; i++) {
        w += t[i];
        u[i] = (uint32_t)w;
        w >>= 32;
    }
    m = ct_mask32(u[NL - 1] >> 31);          /* all ones iff t >= p */
    u[NL - 1] &= 0x7fffffffu;
    for (i = 0; i < NL; i++) store32_le(s + 4 * i, t[i] ^ (m & (t[i] ^ u[i])));
    mb_wipe(t, sizeof t);
    mb_wipe(u, sizeof u);
}

/* Post: h = c. c is a public constant. */
void fe25519_set(fe25519 *h, uint16_t c)
{
    int i;
    h->v[0] = c;
    for (i = 1; i < NL; i++) h->v[i] = 0;
}

#endif /* MB_RADIX == 32 */
