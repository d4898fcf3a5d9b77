/* SPDX-License-Identifier: MIT */
/*
 * The Poly1305 backend of poly1305.h for the radix-2^16 build: r and h in ten 13-bit
 * limbs each (limb i at bit 13i, 130 bits), with 32-bit column sums only.
 *
 * Why not poly1305_block.c here: its 26-bit limbs need 64-bit column sums, and clang for
 * MSP430 lowers some 64-bit additions into a carry select with a jump on the data
 * (docs/CONSTANT_TIME.md rule 5). With 13-bit limbs every product is 16x16->32 bits and
 * every column fits in 32 bits (bounds at poly1305_block below), so no wide carry exists.
 *
 * Storage: the state's r[5] and h[5] words hold two limbs each, limb 2i in the low half
 * of word i and limb 2i+1 in the high half (on MSP430 each half is one memory word).
 * The size and layout of poly1305_state are unchanged (arch/msp430x/ replaces this file
 * whole, with its own use of the same words).
 *
 * Written for a 16-bit int like src/field/fe25519_r16.c: products are uint32_t * uint32_t
 * of values below 2^16, shift counts are constants, and the one 0/1 selection bit goes
 * through the value barrier (ct_mask32) before it is used.
 * CT: every function here treats the key, the message and the state as secret.
 */
#include "util/ct.h"
#include "sym/poly1305.h"
#include "util/backend.h"

/* Replaced whole by arch/msp430x/ when that backend is active (util/backend.h). */
#if !MB_ASM_MSP430X

#if MB_RADIX == 16

#define NL 10                   /* limbs */
#define M13 0x1fffu

static inline uint16_t ld16(const uint8_t *p) { return (uint16_t)(p[0] | ((unsigned)p[1] << 8)); }

/* The 16 bytes b as ten 13-bit limbs (the top limb holds bits 117..127, 11 bits), from
 * the eight little-endian 16-bit words w. Limb i starts at bit 13i = 16k + s of word k.
 * CT: w secret; constant shifts and masks. */
static void split13(uint16_t l[NL], const uint16_t w[8])
{
    l[0] = (uint16_t)(w[0] & M13);
    l[1] = (uint16_t)(((w[0] >> 13) | (w[1] << 3)) & M13);
    l[2] = (uint16_t)(((w[1] >> 10) | (w[2] << 6)) & M13);
    l[3] = (uint16_t)(((w[2] >> 7) | (w[3] << 9)) & M13);
    l[4] = (uint16_t)(((w[3] >> 4) | (w[4] << 12)) & M13);
    l[5] = (uint16_t)((w[4] >> 1) & M13);
    l[6] = (uint16_t)(((w[4] >> 14) | (w[5] << 2)) & M13);
    l[7] = (uint16_t)(((w[5] >> 11) | (w[6] << 5)) & M13);
    l[8] = (uint16_t)(((w[6] >> 8) | (w[7] << 8)) & M13);
    l[9] = (uint16_t)(w[7] >> 5);
}

static void load_limbs(uint16_t l[NL], const uint32_t v[5])
{
    int i;
    for (i = 0; i < 5; i++) {
        l[2 * i] = (uint16_t)v[i];
        l[2 * i + 1] = (uint16_t)(v[i] >> 16);
    }
}

static void store_limbs(uint32_t v[5], const uint16_t l[NL])
{
    int i;
    for (i = 0; i < 5; i++) v[i] = (uint32_t)l[2 * i] | ((uint32_t)l[2 * i + 1] << 16);
}

/* CT: r secret; loads, masks and shifts only. */
void mb_poly1305_setkey(poly1305_state *st, const uint8_t r[16])
{
    uint16_t w[8], l[NL];
    int i;
    for (i = 0; i < 8; i++) w[i] = ld16(r + 2 * i);
    /* Clamp (RFC 8439: r &= 0x0ffffffc0ffffffc0ffffffc0fffffff): top 4 bits of bytes 3,
     * 7, 11, 15 and low 2 bits of bytes 4, 8, 12. */
    w[1] &= 0x0fffu; w[2] &= 0xfffcu; w[3] &= 0x0fffu; w[4] &= 0xfffcu;
    w[5] &= 0x0fffu; w[6] &= 0xfffcu; w[7] &= 0x0fffu;
    split13(l, w);
    store_limbs(st->r, l);
    for (i = 0; i < 5; i++) st->h[i] = 0;
    mb_wipe(w, sizeof w);
    mb_wipe(l, sizeof l);
}

/* One carry pass over h (limbs < 2^14): 2^130 = 5 mod p, so the carry out of limb 9
 * re-enters limb 0 times 5. */
static void carry13(uint16_t h[NL])
{
    uint16_t c = 0;
    int i;
    for (i = 0; i < NL; i++) {
        h[i] = (uint16_t)(h[i] + c);
        c = (uint16_t)(h[i] >> 13);
        h[i] &= M13;
    }
    h[0] = (uint16_t)(h[0] + 5u * c);               /* c <= 1 */
}

/* h = (h + block + hibit * 2^128) * r mod 2^130-5, h partially reduced.
 * Bounds. On entry h limbs < 2^13 except h1 < 2^13 + 2^6 (the last carry below). Adding
 * the block (limbs < 2^13) gives limbs < 2^14.1, so they are carried once first: after
 * that h limbs <= 2^13 (h1 may be 2^13: the carry out of limb 0 after the 5x wrap).
 * r limbs < 2^13, and 5*r < 2^15.33 fits 16 bits. Column i sums h_j * r_(i-j) for j <= i
 * (i+1 products) and h_j * 5*r_(i-j+10) for j > i (9-i products), each below 2^26 or
 * 5 * 2^26, so column i < (46 - 4i) * 2^26 <= 46 * 2^26 < 2^31.6; with the carry from the
 * column below (< 2^18.6) it stays below 2^32. The carry out of limb 9 is below
 * (10 * 2^26 + 2^19) >> 13 < 2^16.4, times 5 below 2^18.8, so limb 0 stays below 2^19
 * and its carry into h1 below 2^6.
 * CT: block, h and r secret; fixed sequence of multiplies, adds and constant shifts;
 * indices depend on loop counters only. */
static void poly1305_block(poly1305_state *st, const uint8_t b[16], uint16_t hibit)
{
    uint16_t w[8], m[NL], h[NL], t[2 * NL - 1];
    uint32_t d, c;
    int i, j;

    for (i = 0; i < 8; i++) w[i] = ld16(b + 2 * i);
    split13(m, w);
    m[9] = (uint16_t)(m[9] | (hibit << 11));        /* bit 128 = limb 9's bit 11 */

    load_limbs(h, st->h);
    for (i = 0; i < NL; i++) h[i] = (uint16_t)(h[i] + m[i]);   /* < 2^14.1 */
    carry13(h);
    h[1] = (uint16_t)(h[1] + (h[0] >> 13));
    h[0] &= M13;

    /* t[9 + k] = r_k for k = 0..9, t[k - 1] = 5 * r_k for k = 1..9: column i multiplies h_j
     * by t[9 + i - j], products at 2^130 and above coming back times 5. */
    load_limbs(t + NL - 1, st->r);
    for (i = 1; i < NL; i++) t[i - 1] = (uint16_t)((t[NL - 1 + i] << 2) + t[NL - 1 + i]);

    c = 0;
    for (i = 0; i < NL; i++) {
        d = c;
        for (j = 0; j < NL; j++) d += (uint32_t)h[j] * t[NL - 1 + i - j];
        m[i] = (uint16_t)(d & M13);                 /* m: the new h */
        c = d >> 13;
    }
    d = m[0] + 5u * c;                              /* < 2^19 */
    m[0] = (uint16_t)(d & M13);
    m[1] = (uint16_t)(m[1] + (d >> 13));            /* < 2^13 + 2^6 */
    store_limbs(st->h, m);

    mb_wipe(w, sizeof w);
    mb_wipe(h, sizeof h);
    mb_wipe(m, sizeof m);
    mb_wipe(t, sizeof t);
}

/* CT: m and the state secret; the loop count is public. */
void mb_poly1305_blocks(poly1305_state *st, const uint8_t *m, size_t nblocks,
                        uint32_t hibit)
{
    for (; nblocks > 0; nblocks--, m += 16) poly1305_block(st, m, (uint16_t)(hibit & 1u));
}

/* CT: h and pad secret; the final reduction selects h or h - p with a mask. */
void mb_poly1305_emit(const poly1305_state *st, uint8_t tag[16])
{
    uint16_t h[NL], g[NL], w[8], c, mask;
    uint32_t f;
    int i;

    /* Two passes: after the first, limbs < 2^13 but h0 < 2^13 + 5, so h < 2^130 + 5.
     * In the second, a carry out of limb 9 means h was >= 2^130 and leaves h < 10, so
     * after it all limbs are < 2^13 and h < 2^130. */
    load_limbs(h, st->h);
    carry13(h);
    carry13(h);

    /* g = h + 5 - 2^130: h >= p exactly when h + 5 reaches 2^130 (bit 13 of g9). Then
     * h - p = g mod 2^130 (< 5). */
    c = 5;
    for (i = 0; i < NL; i++) {
        g[i] = (uint16_t)(h[i] + c);
        c = (uint16_t)(g[i] >> 13);
        g[i] &= M13;
    }
    mask = (uint16_t)ct_mask32(c);                  /* all ones if h >= p: take g */
    for (i = 0; i < NL; i++) h[i] = (uint16_t)((h[i] & ~mask) | (g[i] & mask));

    /* h mod 2^128 as eight 16-bit words (limb 9's bits 11, 12 are bits 128, 129). */
    w[0] = (uint16_t)(h[0] | (h[1] << 13));
    w[1] = (uint16_t)((h[1] >> 3) | (h[2] << 10));
    w[2] = (uint16_t)((h[2] >> 6) | (h[3] << 7));
    w[3] = (uint16_t)((h[3] >> 9) | (h[4] << 4));
    w[4] = (uint16_t)((h[4] >> 12) | (h[5] << 1) | (h[6] << 14));
    w[5] = (uint16_t)((h[6] >> 2) | (h[7] << 11));
    w[6] = (uint16_t)((h[7] >> 5) | (h[8] << 8));
    w[7] = (uint16_t)((h[8] >> 8) | (h[9] << 5));

    /* + s, mod 2^128, 16 bits at a time (constant shifts only). */
    f = 0;
    for (i = 0; i < 4; i++) {
        f += (uint32_t)w[2 * i] + (uint16_t)st->pad[i];
        tag[4 * i] = (uint8_t)f;
        tag[4 * i + 1] = (uint8_t)(f >> 8);
        f = (f >> 16) + w[2 * i + 1] + (uint16_t)(st->pad[i] >> 16);
        tag[4 * i + 2] = (uint8_t)f;
        tag[4 * i + 3] = (uint8_t)(f >> 8);
        f >>= 16;
    }

    mb_wipe(h, sizeof h);
    mb_wipe(g, sizeof g);
    mb_wipe(w, sizeof w);
}

#endif
#endif /* !MB_ASM_MSP430X */
