/* SPDX-License-Identifier: MIT */
/* The portable Poly1305 backend of poly1305.h for the radix-2^32 and 2^64 builds: r and
 * h in five 26-bit limbs each (st->r[0..4], st->h[0..4]). arch/<chip>/ may replace this
 * file whole (arch/cortex-m4/poly1305_block.S, radix 2^32). The radix-2^16 build uses
 * poly1305_block_r16.c instead: the 64-bit column sums here become carry selects with a
 * jump on the data under clang for MSP430 (docs/CONSTANT_TIME.md rule 5). */
#include "util/ct.h"
#include "sym/poly1305.h"
#include "util/backend.h"

/* Replaced whole by arch/cortex-m4/ when that backend is active (util/backend.h). */
#if !MB_ASM_CORTEX_M4

#if MB_RADIX != 16

#define M26 0x3ffffffu

/* 32x32 -> 64-bit product. Both factors fit in 32 bits by construction. */
static uint64_t mul32(uint32_t a, uint32_t b) { return (uint64_t)a * b; }

/* CT: r secret; loads and masks only. */
void mb_poly1305_setkey(poly1305_state *st, const uint8_t r[16])
{
    int i;
    /* r is clamped (RFC 8439: r &= 0x0ffffffc0ffffffc0ffffffc0fffffff) while it is split
     * into 26-bit limbs starting at bits 0, 26, 52, 78, 104. */
    st->r[0] = load32_le(r + 0) & 0x3ffffffu;
    st->r[1] = (load32_le(r + 3) >> 2) & 0x3ffff03u;
    st->r[2] = (load32_le(r + 6) >> 4) & 0x3ffc0ffu;
    st->r[3] = (load32_le(r + 9) >> 6) & 0x3f03fffu;
    st->r[4] = (load32_le(r + 12) >> 8) & 0x00fffffu;
    for (i = 0; i < 5; i++) st->h[i] = 0;
}

/* h = (h + block + hibit * 2^128) * r mod 2^130-5, h partially reduced.
 * Bounds: on entry h limbs < 2^26 except h[1] < 2^26 + 2^6 (from the last carry), so
 * after adding the block h limbs < 2^27; clamping gives r0..r3 < 2^26, r4 < 2^20, so
 * 5*r1..5*r3 < 2^28.33, 5*r4 < 2^22.33. Each column then sums to < 2^57 (the largest,
 * d0, to < 1.9 * 2^56), so every carry d >> 26 fits in 31 bits.
 * CT: block, h and r secret; fixed sequence of multiplies, adds and constant shifts. */
static void poly1305_block(poly1305_state *st, const uint8_t b[16], uint32_t hibit)
{
    uint32_t h0, h1, h2, h3, h4, r0, r1, r2, r3, r4, s1, s2, s3, s4, c;
    uint64_t d0, d1, d2, d3, d4;

    r0 = st->r[0]; r1 = st->r[1]; r2 = st->r[2]; r3 = st->r[3]; r4 = st->r[4];
    /* 2^130 = 5 mod p, so limb products that land at 2^130 and above come back times 5.
     * r limbs are clamped below 2^26, so 5*r fits in 29 bits. */
    s1 = r1 * 5u; s2 = r2 * 5u; s3 = r3 * 5u; s4 = r4 * 5u;

    h0 = st->h[0] + (load32_le(b + 0) & M26);
    h1 = st->h[1] + ((load32_le(b + 3) >> 2) & M26);
    h2 = st->h[2] + ((load32_le(b + 6) >> 4) & M26);
    h3 = st->h[3] + ((load32_le(b + 9) >> 6) & M26);
    h4 = st->h[4] + ((load32_le(b + 12) >> 8) | ((uint32_t)hibit << 24));

    d0 = mul32(h0, r0) + mul32(h1, s4) + mul32(h2, s3) + mul32(h3, s2) + mul32(h4, s1);
    d1 = mul32(h0, r1) + mul32(h1, r0) + mul32(h2, s4) + mul32(h3, s3) + mul32(h4, s2);
    d2 = mul32(h0, r2) + mul32(h1, r1) + mul32(h2, r0) + mul32(h3, s4) + mul32(h4, s3);
    d3 = mul32(h0, r3) + mul32(h1, r2) + mul32(h2, r1) + mul32(h3, r0) + mul32(h4, s4);
    d4 = mul32(h0, r4) + mul32(h1, r3) + mul32(h2, r2) + mul32(h3, r1) + mul32(h4, r0);

    /* Carry chain; the carry out of limb 4 re-enters limb 0 times 5. d4 has no 5*r
     * terms (d4 < 4 * 2^27 * 2^26 + 2^27 * 2^20 + 2^31 < 2^55.1), so its carry is
     * < 2^29.1 and carry * 5 < 2^31.5 fits. */
    c = (uint32_t)(d0 >> 26); h0 = (uint32_t)d0 & M26;
    d1 += c; c = (uint32_t)(d1 >> 26); h1 = (uint32_t)d1 & M26;
    d2 += c; c = (uint32_t)(d2 >> 26); h2 = (uint32_t)d2 & M26;
    d3 += c; c = (uint32_t)(d3 >> 26); h3 = (uint32_t)d3 & M26;
    d4 += c; c = (uint32_t)(d4 >> 26); h4 = (uint32_t)d4 & M26;
    h0 += c * 5u; c = h0 >> 26; h0 &= M26;
    h1 += c;

    st->h[0] = h0; st->h[1] = h1; st->h[2] = h2; st->h[3] = h3; st->h[4] = h4;
}

/* CT: m and the state secret; the loop count is public. */
void mb_poly1305_blocks(poly1305_state *st, const uint8_t *m, size_t nblocks,
                        uint32_t hibit)
{
    for (; nblocks > 0; nblocks--, m += 16) poly1305_block(st, m, hibit);
}

/* CT: h and pad secret; the final reduction selects h or h - p with a mask. */
void mb_poly1305_emit(const poly1305_state *st, uint8_t tag[16])
{
    uint32_t h0, h1, h2, h3, h4, g0, g1, g2, g3, g4, c, mask;
    uint64_t f;

    /* Full carry: limbs below 2^26, h < 2^130 + small. */
    h0 = st->h[0]; h1 = st->h[1]; h2 = st->h[2]; h3 = st->h[3]; h4 = st->h[4];
    c = h1 >> 26; h1 &= M26; h2 += c;
    c = h2 >> 26; h2 &= M26; h3 += c;
    c = h3 >> 26; h3 &= M26; h4 += c;
    c = h4 >> 26; h4 &= M26; h0 += c * 5u;
    c = h0 >> 26; h0 &= M26; h1 += c;

    /* g = h + 5 - 2^130; if it does not borrow, h >= p and g is the reduced value. */
    g0 = h0 + 5u; c = g0 >> 26; g0 &= M26;
    g1 = h1 + c; c = g1 >> 26; g1 &= M26;
    g2 = h2 + c; c = g2 >> 26; g2 &= M26;
    g3 = h3 + c; c = g3 >> 26; g3 &= M26;
    g4 = h4 + c - ((uint32_t)1 << 26);
    mask = ct_mask32(g4 >> 31);     /* all ones if g4 borrowed: keep h */
    h0 = (h0 & mask) | (g0 & ~mask);
    h1 = (h1 & mask) | (g1 & ~mask);
    h2 = (h2 & mask) | (g2 & ~mask);
    h3 = (h3 & mask) | (g3 & ~mask);
    h4 = (h4 & mask) | (g4 & ~mask);

    /* h mod 2^128 as four 32-bit words, plus s, mod 2^128. */
    h0 = h0 | (h1 << 26);
    h1 = (h1 >> 6) | (h2 << 20);
    h2 = (h2 >> 12) | (h3 << 14);
    h3 = (h3 >> 18) | (h4 << 8);
    f = (uint64_t)h0 + st->pad[0];                     store32_le(tag + 0, (uint32_t)f);
    f = (uint64_t)h1 + st->pad[1] + (f >> 32);         store32_le(tag + 4, (uint32_t)f);
    f = (uint64_t)h2 + st->pad[2] + (f >> 32);         store32_le(tag + 8, (uint32_t)f);
    f = (uint64_t)h3 + st->pad[3] + (f >> 32);         store32_le(tag + 12, (uint32_t)f);
}

#endif
#endif /* !MB_ASM_CORTEX_M4 */
