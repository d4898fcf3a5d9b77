/* SPDX-License-Identifier: MIT */
/*
 * GF(2^255-19), radix 2^25.5: 10 limbs in uint32_t, 26 and 25 bits alternating
 * (limb i weighs 2^ceil(25.5 i): 0, 26, 51, 77, 102, 128, 153, 179, 204, 230), products
 * 32x32->64. Made for C on 32-bit cores, where C has no carry flag (Cortex-M4/M33,
 * RV32IM; Cortex-M3: see docs/CONSTANT_TIME.md): a column sum is a chain of UMULL/UMLAL-style multiply-accumulates and carries
 * are delayed to one pass per multiplication. Selected by MB_RADIX=25 (util/backend.h:
 * this file for GF(2^255-19), the radix-2^32 files for everything else).
 *
 * Bounds, in two classes (as r64), so that add and sub need no carry pass:
 *   tight: even limbs < 2^26, odd limbs < 2^25 + 2^16. Output of mul, sqr, mul121666,
 *          frombytes, set (and so invert).
 *   loose: even limbs < 3 * 2^26, odd limbs < 3 * 2^25 + 2^16. Output of add and sub.
 * add and sub take tight inputs; mul, sqr, mul121666, tobytes (and cswap, copy, iszero)
 * take loose ones. mul/sqr column sums of loose inputs stay below 125 * (3 * 2^26)^2
 * < 2^63 (see mb_fe25519_mul), and 19 times a loose limb is < 2^32.
 * CT: every function here treats all of its inputs as secret: straight-line code, shifts
 * and masks by constants, 32x32->64 multiplies (constant time on the cores this is for;
 * see docs/CONSTANT_TIME.md for the cores whose multiplier is not).
 */
#include "field/fe25519.h"
#include "util/ct.h"

#if MB_FE25519_R25

#define MASK26 0x3ffffffu
#define MASK25 0x1ffffffu

/* A 32x32->64 product (UMULL on ARMv7-M, MUL/MULHU on RV32M). */
#define M(a, b) ((uint64_t)(a) * (b))

/* Bounds: f, g tight. Post: h = f + g, loose (even limbs < 2^27, odd < 2^26 + 2^17).
 * CT: f, g secret; ten adds. */
void mb_fe25519_add(fe25519 *h, const fe25519 *f, const fe25519 *g)
{
#if defined(__OPTIMIZE_SIZE__)
    int i;
    for (i = 0; i < 10; i++) h->v[i] = f->v[i] + g->v[i];
#else
    /* Unrolled: a loop costs a compare and a taken branch per limb on in-order cores. */
    h->v[0] = f->v[0] + g->v[0]; h->v[1] = f->v[1] + g->v[1];
    h->v[2] = f->v[2] + g->v[2]; h->v[3] = f->v[3] + g->v[3];
    h->v[4] = f->v[4] + g->v[4]; h->v[5] = f->v[5] + g->v[5];
    h->v[6] = f->v[6] + g->v[6]; h->v[7] = f->v[7] + g->v[7];
    h->v[8] = f->v[8] + g->v[8]; h->v[9] = f->v[9] + g->v[9];
#endif
}

/* Bounds: f, g tight. Post: h = f - g mod p, loose (even < 3 * 2^26, odd < 3 * 2^25 + 2^16).
 * Adds 2p limb by limb (2^27 - 38, 2^26 - 2, 2^27 - 2, ...), each at least any tight
 * limb of its position: no limb underflows.
 * CT: f, g secret; straight-line arithmetic. */
void mb_fe25519_sub(fe25519 *h, const fe25519 *f, const fe25519 *g)
{
#if defined(__OPTIMIZE_SIZE__)
    int i;
    h->v[0] = (f->v[0] + 0x7ffffdau) - g->v[0];
    for (i = 1; i < 10; i++) h->v[i] = (f->v[i] + ((i & 1) ? 0x3fffffeu : 0x7fffffeu)) - g->v[i];
#else
    h->v[0] = (f->v[0] + 0x7ffffdau) - g->v[0]; h->v[1] = (f->v[1] + 0x3fffffeu) - g->v[1];
    h->v[2] = (f->v[2] + 0x7fffffeu) - g->v[2]; h->v[3] = (f->v[3] + 0x3fffffeu) - g->v[3];
    h->v[4] = (f->v[4] + 0x7fffffeu) - g->v[4]; h->v[5] = (f->v[5] + 0x3fffffeu) - g->v[5];
    h->v[6] = (f->v[6] + 0x7fffffeu) - g->v[6]; h->v[7] = (f->v[7] + 0x3fffffeu) - g->v[7];
    h->v[8] = (f->v[8] + 0x7fffffeu) - g->v[8]; h->v[9] = (f->v[9] + 0x3fffffeu) - g->v[9];
#endif
}

/* h = the ten 64-bit column sums (each < 2^63), carried to a tight value: one pass
 * 0 -> 1 -> ... -> 9, then 9 -> 0 with the factor 19 (2^255 = 19 mod p), then 0 -> 1
 * (11 carries; an in-order 32-bit core gains nothing from two interleaved chains).
 * Every carry out of a column < 2^63 (plus the carry in) is < 2^38, so 19 times it fits
 * in 64 bits; the top column has no factor 19 and is < 10 (3 * 2^26)^2 < 2^59, so the
 * last carry into limb 0 is < 19 * 2^35 and limb 1 ends < 2^25 + 2^14: tight.
 * CT: the sums are secret; shifts and masks only. */
static void carry_store(fe25519 *h, uint64_t h0, uint64_t h1, uint64_t h2, uint64_t h3,
                        uint64_t h4, uint64_t h5, uint64_t h6, uint64_t h7, uint64_t h8,
                        uint64_t h9)
{
    uint64_t c;
    c = h0 >> 26; h1 += c; h0 &= MASK26;
    c = h1 >> 25; h2 += c; h1 &= MASK25;
    c = h2 >> 26; h3 += c; h2 &= MASK26;
    c = h3 >> 25; h4 += c; h3 &= MASK25;
    c = h4 >> 26; h5 += c; h4 &= MASK26;
    c = h5 >> 25; h6 += c; h5 &= MASK25;
    c = h6 >> 26; h7 += c; h6 &= MASK26;
    c = h7 >> 25; h8 += c; h7 &= MASK25;
    c = h8 >> 26; h9 += c; h8 &= MASK26;
    c = h9 >> 25; h0 += 19 * c; h9 &= MASK25;
    c = h0 >> 26; h1 += c; h0 &= MASK26;
    h->v[0] = (uint32_t)h0; h->v[1] = (uint32_t)h1; h->v[2] = (uint32_t)h2;
    h->v[3] = (uint32_t)h3; h->v[4] = (uint32_t)h4; h->v[5] = (uint32_t)h5;
    h->v[6] = (uint32_t)h6; h->v[7] = (uint32_t)h7; h->v[8] = (uint32_t)h8;
    h->v[9] = (uint32_t)h9;
}

#if defined(__OPTIMIZE_SIZE__)
/* -Os (code size first): the same column sums as the unrolled code below, in loops over
 * public indices, each column carried as soon as it is complete (column k plus the
 * carry in stays < 2^63 + 2^38); the top carry c (< 2^35: column 9 has no factor 19)
 * comes back as 19 c into limb 0, whose carry (< 2^14) leaves limb 1 tight.
 * Bounds: f, g loose. Post: h = f g mod p, tight.
 * CT: f, g secret; the loop bounds and the doubling shift depend only on the public
 * indices; 19 g is precomputed (gg); the stack copies are wiped. */
void mb_fe25519_mul(fe25519 *h, const fe25519 *f, const fe25519 *g)
{
    /* gg[m] = 19 g_m (m < 10), g_(m-10) (m >= 10): column k takes f_i gg[k + 10 - i] for
     * every i. f2: f with its odd limbs doubled, for the even columns (there, i odd
     * means k - i odd too). */
    uint32_t tmp[40], *gg = tmp, *f2 = tmp + 20, *r = tmp + 30;   /* one wipe */
    const uint32_t *a, *b;
    uint64_t t, c = 0;
    unsigned i, k, w;
    for (i = 0; i < 10; i++) {
        gg[i] = 19 * g->v[i];
        gg[10 + i] = g->v[i];
        f2[i] = f->v[i] << (i & 1);
    }
    for (k = 0; k < 10; k++) {
        a = (k & 1) ? f->v : f2;
        b = gg + k + 10;
        t = c;
        for (i = 0; i < 10; i += 2) {
            t += M(a[i], b[-(int)i]);
            t += M(a[i + 1], b[-(int)i - 1]);
        }
        w = (k & 1) ? 25u : 26u;
        r[k] = (uint32_t)t & (((uint32_t)1 << w) - 1u);
        c = t >> w;
    }
    t = r[0] + 19 * c;
    h->v[0] = (uint32_t)t & MASK26;
    h->v[1] = r[1] + (uint32_t)(t >> 26);
    for (k = 2; k < 10; k++) h->v[k] = r[k];
    mb_wipe(tmp, sizeof tmp);
}

/* Bounds: f loose. Post: h = f^2 mod p, tight. -Os: the multiplication's code. */
void mb_fe25519_sqr(fe25519 *h, const fe25519 *f)
{
    mb_fe25519_mul(h, f, f);
}

#else /* !__OPTIMIZE_SIZE__ */
/* Bounds: f, g loose. Post: h = f g mod p, tight.
 * Column k sums f_i g_j over i + j = k, and 19 f_i g_j over i + j = k + 10 (2^255 = 19);
 * a product of two odd limbs is doubled (its weight is 2^(26 i' + 25 ...) one bit above
 * the column's). Worst column (0): (1 + 19 * 4) even products and 38 * 5 odd ones,
 * < 77 (3 * 2^26)^2 + 190 (3 * 2^25 + 2^16)^2 < 2^63.
 * CT: f, g secret; fixed sequence of multiply-accumulates. */
void mb_fe25519_mul(fe25519 *h, const fe25519 *f, const fe25519 *g)
{
    uint32_t f0 = f->v[0], f1 = f->v[1], f2 = f->v[2], f3 = f->v[3], f4 = f->v[4];
    uint32_t f5 = f->v[5], f6 = f->v[6], f7 = f->v[7], f8 = f->v[8], f9 = f->v[9];
    uint32_t g0 = g->v[0], g1 = g->v[1], g2 = g->v[2], g3 = g->v[3], g4 = g->v[4];
    uint32_t g5 = g->v[5], g6 = g->v[6], g7 = g->v[7], g8 = g->v[8], g9 = g->v[9];
    uint32_t f1_2 = 2 * f1, f3_2 = 2 * f3, f5_2 = 2 * f5, f7_2 = 2 * f7, f9_2 = 2 * f9;
    uint32_t g1_19 = 19 * g1, g2_19 = 19 * g2, g3_19 = 19 * g3, g4_19 = 19 * g4;
    uint32_t g5_19 = 19 * g5, g6_19 = 19 * g6, g7_19 = 19 * g7, g8_19 = 19 * g8;
    uint32_t g9_19 = 19 * g9;
    uint64_t h0, h1, h2, h3, h4, h5, h6, h7, h8, h9;
    h0 = M(f0, g0) + M(f1_2, g9_19) + M(f2, g8_19) + M(f3_2, g7_19) + M(f4, g6_19) + M(f5_2, g5_19) + M(f6, g4_19) + M(f7_2, g3_19) + M(f8, g2_19) + M(f9_2, g1_19);
    h1 = M(f0, g1) + M(f1, g0) + M(f2, g9_19) + M(f3, g8_19) + M(f4, g7_19) + M(f5, g6_19) + M(f6, g5_19) + M(f7, g4_19) + M(f8, g3_19) + M(f9, g2_19);
    h2 = M(f0, g2) + M(f1_2, g1) + M(f2, g0) + M(f3_2, g9_19) + M(f4, g8_19) + M(f5_2, g7_19) + M(f6, g6_19) + M(f7_2, g5_19) + M(f8, g4_19) + M(f9_2, g3_19);
    h3 = M(f0, g3) + M(f1, g2) + M(f2, g1) + M(f3, g0) + M(f4, g9_19) + M(f5, g8_19) + M(f6, g7_19) + M(f7, g6_19) + M(f8, g5_19) + M(f9, g4_19);
    h4 = M(f0, g4) + M(f1_2, g3) + M(f2, g2) + M(f3_2, g1) + M(f4, g0) + M(f5_2, g9_19) + M(f6, g8_19) + M(f7_2, g7_19) + M(f8, g6_19) + M(f9_2, g5_19);
    h5 = M(f0, g5) + M(f1, g4) + M(f2, g3) + M(f3, g2) + M(f4, g1) + M(f5, g0) + M(f6, g9_19) + M(f7, g8_19) + M(f8, g7_19) + M(f9, g6_19);
    h6 = M(f0, g6) + M(f1_2, g5) + M(f2, g4) + M(f3_2, g3) + M(f4, g2) + M(f5_2, g1) + M(f6, g0) + M(f7_2, g9_19) + M(f8, g8_19) + M(f9_2, g7_19);
    h7 = M(f0, g7) + M(f1, g6) + M(f2, g5) + M(f3, g4) + M(f4, g3) + M(f5, g2) + M(f6, g1) + M(f7, g0) + M(f8, g9_19) + M(f9, g8_19);
    h8 = M(f0, g8) + M(f1_2, g7) + M(f2, g6) + M(f3_2, g5) + M(f4, g4) + M(f5_2, g3) + M(f6, g2) + M(f7_2, g1) + M(f8, g0) + M(f9_2, g9_19);
    h9 = M(f0, g9) + M(f1, g8) + M(f2, g7) + M(f3, g6) + M(f4, g5) + M(f5, g4) + M(f6, g3) + M(f7, g2) + M(f8, g1) + M(f9, g0);
    carry_store(h, h0, h1, h2, h3, h4, h5, h6, h7, h8, h9);
}

/* Bounds: f loose. Post: h = f^2 mod p, tight. The columns of mb_fe25519_mul with
 * f = g, each cross product f_i f_j (i != j) taken once and doubled: 55 products, not
 * 100. Same column bounds as mul.
 * CT: f secret; fixed sequence of multiply-accumulates. */
void mb_fe25519_sqr(fe25519 *h, const fe25519 *f)
{
    uint32_t f0 = f->v[0], f1 = f->v[1], f2 = f->v[2], f3 = f->v[3], f4 = f->v[4];
    uint32_t f5 = f->v[5], f6 = f->v[6], f7 = f->v[7], f8 = f->v[8], f9 = f->v[9];
    uint32_t f0_2 = 2 * f0, f1_2 = 2 * f1, f2_2 = 2 * f2, f3_2 = 2 * f3, f4_2 = 2 * f4;
    uint32_t f5_2 = 2 * f5, f6_2 = 2 * f6, f7_2 = 2 * f7, f8_2 = 2 * f8, f9_2 = 2 * f9;
    uint32_t f1_4 = 4 * f1, f3_4 = 4 * f3, f5_4 = 4 * f5, f7_4 = 4 * f7;
    uint32_t f5_19 = 19 * f5, f6_19 = 19 * f6, f7_19 = 19 * f7, f8_19 = 19 * f8;
    uint32_t f9_19 = 19 * f9;
    uint64_t h0, h1, h2, h3, h4, h5, h6, h7, h8, h9;
    h0 = M(f0, f0) + M(f1_4, f9_19) + M(f2_2, f8_19) + M(f3_4, f7_19) + M(f4_2, f6_19) + M(f5_2, f5_19);
    h1 = M(f0_2, f1) + M(f2_2, f9_19) + M(f3_2, f8_19) + M(f4_2, f7_19) + M(f5_2, f6_19);
    h2 = M(f0_2, f2) + M(f1_2, f1) + M(f3_4, f9_19) + M(f4_2, f8_19) + M(f5_4, f7_19) + M(f6, f6_19);
    h3 = M(f0_2, f3) + M(f1_2, f2) + M(f4_2, f9_19) + M(f5_2, f8_19) + M(f6_2, f7_19);
    h4 = M(f0_2, f4) + M(f1_4, f3) + M(f2, f2) + M(f5_4, f9_19) + M(f6_2, f8_19) + M(f7_2, f7_19);
    h5 = M(f0_2, f5) + M(f1_2, f4) + M(f2_2, f3) + M(f6_2, f9_19) + M(f7_2, f8_19);
    h6 = M(f0_2, f6) + M(f1_4, f5) + M(f2_2, f4) + M(f3_2, f3) + M(f7_4, f9_19) + M(f8, f8_19);
    h7 = M(f0_2, f7) + M(f1_2, f6) + M(f2_2, f5) + M(f3_2, f4) + M(f8_2, f9_19);
    h8 = M(f0_2, f8) + M(f1_4, f7) + M(f2_2, f6) + M(f3_4, f5) + M(f4, f4) + M(f9_2, f9_19);
    h9 = M(f0_2, f9) + M(f1_2, f8) + M(f2_2, f7) + M(f3_2, f6) + M(f4_2, f5);
    carry_store(h, h0, h1, h2, h3, h4, h5, h6, h7, h8, h9);
}

#endif /* __OPTIMIZE_SIZE__ */

/* Bounds: f loose. Post: h = 121666 f mod p, tight (products < 2^17 * 3 * 2^26 < 2^63).
 * CT: f secret; multiplications by a public constant. */
void mb_fe25519_mul121666(fe25519 *h, const fe25519 *f)
{
    carry_store(h, M(f->v[0], 121666u), M(f->v[1], 121666u), M(f->v[2], 121666u),
                M(f->v[3], 121666u), M(f->v[4], 121666u), M(f->v[5], 121666u),
                M(f->v[6], 121666u), M(f->v[7], 121666u), M(f->v[8], 121666u),
                M(f->v[9], 121666u));
}

/* Bounds: any f, g; bit in {0,1}. Post: f, g swapped iff bit == 1.
 * CT: bit secret; it becomes a mask (through the value barrier), the swap is XORs. */
void mb_fe25519_cswap(fe25519 *f, fe25519 *g, uint32_t bit)
{
    uint32_t m = ct_mask32(bit), t;
#if defined(__OPTIMIZE_SIZE__)
    int i;
    for (i = 0; i < 10; i++) {
        t = m & (f->v[i] ^ g->v[i]);
        f->v[i] ^= t;
        g->v[i] ^= t;
    }
#else
#define MB_CSWAP_LIMB(i) t = m & (f->v[i] ^ g->v[i]); f->v[i] ^= t; g->v[i] ^= t
    MB_CSWAP_LIMB(0); MB_CSWAP_LIMB(1); MB_CSWAP_LIMB(2); MB_CSWAP_LIMB(3); MB_CSWAP_LIMB(4);
    MB_CSWAP_LIMB(5); MB_CSWAP_LIMB(6); MB_CSWAP_LIMB(7); MB_CSWAP_LIMB(8); MB_CSWAP_LIMB(9);
#undef MB_CSWAP_LIMB
#endif
}

/* Little-endian 32-bit load of s[0..3]. */
static uint32_t load32(const uint8_t *s)
{
    return (uint32_t)s[0] | ((uint32_t)s[1] << 8) | ((uint32_t)s[2] << 16) |
           ((uint32_t)s[3] << 24);
}

/* Post: h = s mod 2^255 (bit 255 ignored), tight (every limb exactly its width).
 * Limb i is the 26/25 bits at its offset, read from the 4 bytes around it (the offset
 * within the first byte plus the width never exceeds 32 bits).
 * CT: s secret; fixed loads, shifts and masks. */
void mb_fe25519_frombytes(fe25519 *h, const uint8_t s[32])
{
    h->v[0] = load32(s + 0) & MASK26;
    h->v[1] = (load32(s + 3) >> 2) & MASK25;
    h->v[2] = (load32(s + 6) >> 3) & MASK26;
    h->v[3] = (load32(s + 9) >> 5) & MASK25;
    h->v[4] = (load32(s + 12) >> 6) & MASK26;
    h->v[5] = load32(s + 16) & MASK25;
    h->v[6] = (load32(s + 19) >> 1) & MASK26;
    h->v[7] = (load32(s + 22) >> 3) & MASK25;
    h->v[8] = (load32(s + 25) >> 4) & MASK26;
    h->v[9] = (load32(s + 28) >> 6) & MASK25;
}

/* Bounds: f loose. Post: s = f mod p, canonical, little-endian.
 * One sequential carry pass (the top carry folded back times 19) leaves limbs 1..9
 * within their widths and limb 0 < 2^26 + 2^10, so the value is < 2^256; it is packed
 * into bytes by adding each limb at its bit offset into a 64-bit accumulator, and
 * mb_fe25519_canonical_bytes reduces that 256-bit integer.
 * CT: f secret; shifts, masks and fixed loops; the temporary is wiped. */
void mb_fe25519_tobytes(uint8_t s[32], const fe25519 *f)
{
    uint32_t t[10], c = 0;
    uint64_t acc = 0;
    unsigned i, nbits = 0, k = 0;
    for (i = 0; i < 10; i++) {
        unsigned w = (i & 1) ? 25u : 26u;
        t[i] = f->v[i] + c;
        c = t[i] >> w;
        t[i] &= ((uint32_t)1 << w) - 1u;
    }
    t[0] += 19 * c;
    for (i = 0; i < 10; i++) {
        acc += (uint64_t)t[i] << nbits;
        nbits += (i & 1) ? 25u : 26u;
        while (nbits >= 8) {
            s[k++] = (uint8_t)acc;
            acc >>= 8;
            nbits -= 8;
        }
    }
    s[k] = (uint8_t)acc;   /* k == 31: the last 7 bits (and limb 0's excess, carried) */
    mb_wipe(t, sizeof t);
    mb_fe25519_canonical_bytes(s);
}

/* Post: h = c (c < 2^16), tight. */
void mb_fe25519_set(fe25519 *h, uint16_t c)
{
    int i;
    h->v[0] = c;
    for (i = 1; i < 10; i++) h->v[i] = 0;
}

#endif /* MB_FE25519_R25 */
