/* SPDX-License-Identifier: MIT */
/* GF(2^255-19) operations that need no knowledge of the representation. */
#include "field/fe25519.h"
#include "util/ct.h"

/* Post: h = f (same representation). */
void mb_fe25519_copy(fe25519 *h, const fe25519 *f)
{
    *h = *f;
}

#if MB_RADIX != 64   /* the 51-bit backend has its own mb_fe25519_tobytes */
/* s = s mod 2^255 + 19 * (bit 255 of s): 2^255 = 19 mod p.
 * CT: s secret; bit 255 becomes a mask, not a branch or a multiplier operand. */
static void fold19_bytes(uint8_t s[32])
{
    uint16_t w = (uint16_t)(ct_mask32((uint32_t)(s[31] >> 7)) & 19u);
    int i;
    s[31] &= 0x7f;
    for (i = 0; i < 32; i++) {
        w = (uint16_t)(w + s[i]);
        s[i] = (uint8_t)w;
        w >>= 8;
    }
}

/* Bounds: any 256-bit s. Post: s < p, s = its old value mod p.
 * Byte-wise, so the same code serves every limb size (it runs once per scalar
 * multiplication). Two folds bring s below 2^255 (the first leaves < 2^255 + 19).
 * Then s >= p iff s + 19 reaches 2^255, and in that case s - p = (s + 19) mod 2^255;
 * otherwise s < 2^255 - 19 and s + 0 keeps bit 255 clear. So: add 19 under a mask,
 * clear bit 255.
 * CT: s secret; the choice is a mask through the value barrier. */
void mb_fe25519_canonical_bytes(uint8_t s[32])
{
    uint16_t w = 19;
    uint32_t m;
    int i;
    fold19_bytes(s);
    fold19_bytes(s);
    for (i = 0; i < 31; i++) w = (uint16_t)((w + s[i]) >> 8);
    m = ct_mask32((uint32_t)(((w + s[31]) >> 7) & 1u));   /* all ones iff s >= p */
    w = (uint16_t)(m & 19u);
    for (i = 0; i < 32; i++) {
        w = (uint16_t)(w + s[i]);
        s[i] = (uint8_t)w;
        w >>= 8;
    }
    s[31] &= 0x7f;
}
#endif

/* Bounds: any value. Post: 1 if f = 0 mod p, else 0.
 * CT: f is secret; the canonical bytes are ORed together, never compared early. */
uint32_t mb_fe25519_iszero(const fe25519 *f)
{
    uint8_t s[32];
    uint32_t acc;
    mb_fe25519_tobytes(s, f);
    acc = ct_or_bytes(s, 32);
    mb_wipe(s, sizeof s);
    return ~ct_mask32(ct_nonzero32(acc)) & 1u;
}
