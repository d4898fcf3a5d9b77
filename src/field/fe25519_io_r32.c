/* SPDX-License-Identifier: MIT */
/*
 * GF(2^255-19), radix 2^32: encoding, decoding and small constants (the arithmetic is
 * in fe25519_r32.c, or in arch/<chip>/ assembly). Same representation: any integer in
 * [0, 2^256), kept mod 2^256-38; mb_fe25519_tobytes reduces mod p.
 * CT: every function here treats all of its inputs as secret.
 */
#include "field/fe25519.h"
#include "util/ct.h"

#if MB_RADIX == 32 && !MB_FE25519_R25

#define NL 8   /* limbs */

/* Post: h = s mod 2^255 (bit 255 ignored), h < 2^255.
 * CT: s may be secret; loads at fixed positions. */
void mb_fe25519_frombytes(fe25519 *h, const uint8_t s[32])
{
    int i;
    for (i = 0; i < NL; i++) h->v[i] = load32_le(s + 4 * i);
    h->v[NL - 1] &= 0x7fffffffu;
}

/* Post: s = h mod p, canonical (< p), little-endian. CT: h secret. */
void mb_fe25519_tobytes(uint8_t s[32], const fe25519 *h)
{
    int i;
    for (i = 0; i < NL; i++) store32_le(s + 4 * i, h->v[i]);
    mb_fe25519_canonical_bytes(s);
}

/* Post: h = c. c is a public constant. */
void mb_fe25519_set(fe25519 *h, uint16_t c)
{
    int i;
    h->v[0] = c;
    for (i = 1; i < NL; i++) h->v[i] = 0;
}

#endif /* MB_RADIX == 32 */
