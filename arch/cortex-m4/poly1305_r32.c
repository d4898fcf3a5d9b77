/* SPDX-License-Identifier: MIT */
/* The Cortex-M4 Poly1305 backend's key setup and tag, in C: radix 2^32, the state's
 * words reinterpreted as poly1305_block.S describes (r in r[0..3], h in h[0..4],
 * h[4] <= 4). With poly1305_block.S it replaces src/sym/poly1305_block.c. */
#include "util/ct.h"
#include "sym/poly1305.h"
#include "util/backend.h"

#if MB_ASM_CORTEX_M4

/* CT: r secret; loads and masks only. */
void mb_poly1305_setkey(poly1305_state *st, const uint8_t r[16])
{
    int i;
    /* RFC 8439 clamp: r1..r3 become multiples of 4, which mb_poly1305_blocks relies on. */
    st->r[0] = load32_le(r + 0) & 0x0fffffffu;
    st->r[1] = load32_le(r + 4) & 0x0ffffffcu;
    st->r[2] = load32_le(r + 8) & 0x0ffffffcu;
    st->r[3] = load32_le(r + 12) & 0x0ffffffcu;
    st->r[4] = 0;
    for (i = 0; i < 5; i++) st->h[i] = 0;
}

/* Pre: h[4] <= 4 (mb_poly1305_blocks' bound), so h < 5 2^128 < 2p and one conditional
 * subtraction of p reduces it: g = h + 5 reaches 2^130 exactly when h >= p, and then
 * h - p = g - 2^130, whose low 128 bits are g's.
 * CT: h and pad secret; the selection is a mask through the value barrier. */
void mb_poly1305_emit(const poly1305_state *st, uint8_t tag[16])
{
    uint32_t g0, g1, g2, g3, keep_h;
    uint64_t f;

    f = (uint64_t)st->h[0] + 5u;     g0 = (uint32_t)f;
    f = (f >> 32) + st->h[1];        g1 = (uint32_t)f;
    f = (f >> 32) + st->h[2];        g2 = (uint32_t)f;
    f = (f >> 32) + st->h[3];        g3 = (uint32_t)f;
    f = (f >> 32) + st->h[4];        /* g4 <= 5: bit 2 set iff g >= 2^130 */
    keep_h = ct_mask32(~(uint32_t)f >> 2);    /* all ones if h < p */
    g0 = (st->h[0] & keep_h) | (g0 & ~keep_h);
    g1 = (st->h[1] & keep_h) | (g1 & ~keep_h);
    g2 = (st->h[2] & keep_h) | (g2 & ~keep_h);
    g3 = (st->h[3] & keep_h) | (g3 & ~keep_h);

    f = (uint64_t)g0 + st->pad[0];                 store32_le(tag + 0, (uint32_t)f);
    f = (uint64_t)g1 + st->pad[1] + (f >> 32);     store32_le(tag + 4, (uint32_t)f);
    f = (uint64_t)g2 + st->pad[2] + (f >> 32);     store32_le(tag + 8, (uint32_t)f);
    f = (uint64_t)g3 + st->pad[3] + (f >> 32);     store32_le(tag + 12, (uint32_t)f);
}
#endif /* MB_ASM_CORTEX_M4 */
