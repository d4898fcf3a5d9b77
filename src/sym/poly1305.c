/* SPDX-License-Identifier: MIT */
/* Poly1305 (RFC 8439 section 2.5) in 26-bit limbs; mb_poly1305 and mb_poly1305_verify. */
#include "util/ct.h"
#include "sym/poly1305.h"

#define M26 0x3ffffffu

/* CT: k secret; loads and masks only. */
void poly1305_init(poly1305_state *st, const uint8_t k[32])
{
    int i;
    /* r is clamped (RFC 8439: r &= 0x0ffffffc0ffffffc0ffffffc0fffffff) while it is split
     * into 26-bit limbs starting at bits 0, 26, 52, 78, 104. */
    st->r[0] = load32_le(k + 0) & 0x3ffffffu;
    st->r[1] = (load32_le(k + 3) >> 2) & 0x3ffff03u;
    st->r[2] = (load32_le(k + 6) >> 4) & 0x3ffc0ffu;
    st->r[3] = (load32_le(k + 9) >> 6) & 0x3f03fffu;
    st->r[4] = (load32_le(k + 12) >> 8) & 0x00fffffu;
    for (i = 0; i < 5; i++) st->h[i] = 0;
    for (i = 0; i < 4; i++) st->pad[i] = load32_le(k + 16 + 4 * i);
    for (i = 0; i < 16; i++) st->buf[i] = 0;
    st->used = 0;
}

/* CT: m secret; branches depend on len and st->used, both functions of lengths only. */
void poly1305_update(poly1305_state *st, const uint8_t *m, size_t len)
{
    if (st->used > 0) {
        while (len > 0 && st->used < 16) {
            st->buf[st->used++] = *m++;
            len--;
        }
        if (st->used < 16) return;
        poly1305_block(st, st->buf, 1);
        st->used = 0;
    }
    while (len >= 16) {
        poly1305_block(st, m, 1);
        m += 16;
        len -= 16;
    }
    while (len > 0) {
        st->buf[st->used++] = *m++;
        len--;
    }
}

/* CT: h and pad secret; the final reduction selects h or h - p with a mask. */
void poly1305_final(poly1305_state *st, uint8_t tag[16])
{
    uint32_t h0, h1, h2, h3, h4, g0, g1, g2, g3, g4, c, mask;
    uint64_t f;
    uint32_t i;

    if (st->used > 0) {
        /* Last partial block: append 1, pad with zeros, no 2^128 bit. */
        st->buf[st->used] = 1;
        for (i = st->used + 1; i < 16; i++) st->buf[i] = 0;
        poly1305_block(st, st->buf, 0);
    }

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

    mb_wipe(st, sizeof *st);
}

/* CT: k and m secret; the state is wiped by poly1305_final. */
void mb_poly1305(uint8_t tag[16], const uint8_t *m, size_t len, const uint8_t k[32])
{
    poly1305_state st;
    poly1305_init(&st, k);
    poly1305_update(&st, m, len);
    poly1305_final(&st, tag);
}

/* CT: k secret; the comparison is mb_verify16 (constant time); the computed tag is
 * wiped. The result (accept/reject) is public. */
int mb_poly1305_verify(const uint8_t tag[16], const uint8_t *m, size_t len,
                       const uint8_t k[32])
{
    uint8_t t[16];
    int r;
    mb_poly1305(t, m, len, k);
    r = mb_verify16(t, tag);
    mb_wipe(t, sizeof t);
    return r;
}
