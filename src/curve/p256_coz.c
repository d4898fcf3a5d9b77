/* SPDX-License-Identifier: MIT */
/*
 * P-256 scalar multiplication: a regular Montgomery ladder in co-Z Jacobian coordinates
 * that keeps only X and Y (Goundar-Joye-Miyaji-Rivain-Venelli co-Z formulae; Rivain's
 * "Fast and regular algorithms for scalar multiplication", Algorithm 9), as [SAK18]
 * uses. Both ladder points always share one Z, which is never computed: it is recovered
 * at the end from the known input point, with a single inversion.
 *
 * Regularity: every scalar runs the same 257 iterations of XYCZ-ADDC + XYCZ-ADD
 * (5M+3S and 4M+2S); the only secret-dependent steps are masked swaps and selects.
 * The two steps are in p256_ladder.c and the loop over the bits in p256_ladder_loop.c
 * (an architecture may replace those files); the ladder's state, scratch included, is
 * one p256_ladder wiped once at the end.
 *
 * Exceptional cases. The co-Z formulas fail when the two points have equal X (or one is
 * the point at infinity). With R0 = mP, R1 = (m+1)P that happens iff m = 0, -1 or
 * -1/2 (mod n). The scalar is first recoded to k' = k + 2n or k + 3n, whichever has
 * bit 257 set (k' = k mod n, fixed length 258 bits, so the ladder starts at its top
 * bit with R0 = P, R1 = 2P from one initial doubling and has no leading zeros). For
 * 1 <= k < n the prefixes m = floor(k' / 2^j), j >= 1, of such k' lie in [2^256,
 * 1.5 * 2^256] (j = 1) or below 2^256 (j >= 2), and the only prefix that hits a bad
 * residue is m = (3n-1)/2 (= -1/2 mod n) for k = n - 1. That one scalar is computed as
 * 1 * P and the result negated ((n-1)P = -P), with masks. tests/test_p256.py checks this
 * interval argument exactly over all k (test_recoding_has_exactly_one_exceptional_scalar)
 * and runs k = 1, 2, n-2, n-1, (n+-1)/2 and neighbours against OpenSSL.
 *
 * The final Z recovery needs x(P) != 0. P-256 has the points (0, +-sqrt(b)); for them
 * (a public property of the public key) the ladder runs on 2P with k/2 mod n instead.
 */
#include "curve/p256.h"
#include "util/ct.h"
#include "util/backend.h"
#include "util/fault.h"

/* Replaced whole by arch/cortex-m4/ when that backend is active (util/backend.h). */
#if !MB_ASM_CORTEX_M4

/* arch/cortex-m4/p256_ladder.S addresses the ladder state by fixed offsets (p256.h). */
#if !MB_P256_STEP_COUNT
typedef char p256_ladder_layout_check[sizeof(p256_ladder) == 9 * 32 ? 1 : -1];
#else
typedef char p256_ladder_layout_check[offsetof(p256_ladder, steps) == 9 * 32 ? 1 : -1];
#endif

/* n, 2n and 3n as little-endian 32-bit words. */
static const uint32_t N1[9] = {
    0xfc632551u, 0xf3b9cac2u, 0xa7179e84u, 0xbce6faadu,
    0xffffffffu, 0xffffffffu, 0x00000000u, 0xffffffffu, 0x00000000u
};
static const uint32_t N2[9] = {
    0xf8c64aa2u, 0xe7739585u, 0x4e2f3d09u, 0x79cdf55bu,
    0xffffffffu, 0xffffffffu, 0x00000001u, 0xfffffffeu, 0x00000001u
};
static const uint32_t N3[9] = {
    0xf5296ff3u, 0xdb2d6048u, 0xf546db8eu, 0x36b4f008u,
    0xffffffffu, 0xffffffffu, 0x00000002u, 0xfffffffdu, 0x00000002u
};

/* out = a + (b & mask) mod 2^288, 9 words. The carry is the majority of the top bits
 * (bitwise only): clang for the MSP430 compiles a 64-bit accumulator's carries into
 * conditional jumps. CT: a, mask secret. */
static void add9_masked(uint32_t out[9], const uint32_t a[9], const uint32_t b[9],
                        uint32_t mask)
{
    uint32_t c = 0, x, y, s;
    int i;
    for (i = 0; i < 9; i++) {
        x = a[i];
        y = b[i] & mask;
        s = x + y + c;
        c = ((x & y) | ((x | y) & ~s)) >> 31;
        out[i] = s;
    }
}

/* kw = k' as above (k read big-endian), *flip = 1 iff k = n - 1.
 * halve: first replace k by k/2 mod n (for the x(P) = 0 path; public flag).
 * CT: k secret; only masks. */
static void recode(uint32_t kw[9], uint32_t *flip, const uint8_t k[32], int halve)
{
    uint32_t a[9], b[9], d = 0, sel;
    int i;
    for (i = 0; i < 8; i++) kw[i] = load32_be(k + 28 - 4 * i);
    kw[8] = 0;
    if (halve) {        /* (k + (k odd ? n : 0)) / 2 */
        add9_masked(a, kw, N1, ct_mask32(kw[0]));
        for (i = 0; i < 8; i++) kw[i] = (a[i] >> 1) | (a[i + 1] << 31);
        kw[8] = a[8] >> 1;
    }
    d = kw[0] ^ (N1[0] - 1u);                          /* k == n - 1 ? */
    for (i = 1; i < 9; i++) d |= kw[i] ^ N1[i];
    *flip = 1u ^ ct_nonzero32(ct_barrier32(d));
    kw[0] ^= ct_mask32(*flip) & (kw[0] ^ 1u);          /* k = n-1 -> 1 */
    for (i = 1; i < 9; i++) kw[i] &= ~ct_mask32(*flip);
    add9_masked(a, kw, N2, 0xFFFFFFFFu);
    add9_masked(b, kw, N3, 0xFFFFFFFFu);
    sel = ct_mask32(a[8] >> 1);                        /* k + 2n >= 2^257 */
    for (i = 0; i < 9; i++) kw[i] = b[i] ^ (sel & (a[i] ^ b[i]));
    mb_wipe(a, sizeof a);
    mb_wipe(b, sizeof b);
}

/* XYCZ-IDBL: from affine P, R0 = P and R1 = 2P sharing Z = 2y. With M = 3x^2 - 3,
 * S = 4xy^2: R0 = (S, 8y^4), R1 = (M^2 - 2S, M(S - X(R1)) - 8y^4). */
static void xycz_idbl(p256_point *R0, p256_point *R1, const p256_point *P)
{
    fep256 m, s, t, u;
    mb_fep256_one(&u);
    mb_fep256_sqr(&t, &P->x);
    mb_fep256_sub(&t, &t, &u);
    mb_fep256_add(&m, &t, &t);
    mb_fep256_add(&m, &m, &t);         /* M = 3(x^2 - 1) */
    mb_fep256_sqr(&t, &P->y);
    mb_fep256_mul(&s, &P->x, &t);
    mb_fep256_add(&s, &s, &s);
    mb_fep256_add(&s, &s, &s);         /* S = 4xy^2 */
    mb_fep256_sqr(&t, &t);
    mb_fep256_add(&t, &t, &t);
    mb_fep256_add(&t, &t, &t);
    mb_fep256_add(&t, &t, &t);         /* 8y^4 */
    mb_fep256_sqr(&u, &m);
    mb_fep256_sub(&u, &u, &s);
    mb_fep256_sub(&R1->x, &u, &s);
    mb_fep256_sub(&u, &s, &R1->x);
    mb_fep256_mul(&u, &m, &u);
    mb_fep256_sub(&R1->y, &u, &t);
    mb_fep256_copy(&R0->x, &s);
    mb_fep256_copy(&R0->y, &t);
    mb_wipe(&m, sizeof m);
    mb_wipe(&s, sizeof s);
    mb_wipe(&t, sizeof t);
    mb_wipe(&u, sizeof u);
}

/* Scale both co-Z points by lambda (X by lambda^2, Y by lambda^3), lambda from rnd
 * reduced mod p, 1 if that is 0. CT: rnd secret. */
static void randomize(p256_point *R0, p256_point *R1, const uint8_t rnd[32])
{
    fep256 l, l2, l3, one;
    (void)mb_fep256_frombytes(&l, rnd);
    mb_fep256_reduce_once(&l, &l);
    mb_fep256_one(&one);
    mb_fep256_cmov(&l, &one, mb_fep256_iszero(&l));
    mb_fep256_sqr(&l2, &l);
    mb_fep256_mul(&l3, &l2, &l);
    mb_fep256_mul(&R0->x, &R0->x, &l2);
    mb_fep256_mul(&R1->x, &R1->x, &l2);
    mb_fep256_mul(&R0->y, &R0->y, &l3);
    mb_fep256_mul(&R1->y, &R1->y, &l3);
    mb_wipe(&l, sizeof l);
    mb_wipe(&l2, sizeof l2);
    mb_wipe(&l3, sizeof l3);
}

/* 2P in affine coordinates (public P; used only when x(P) = 0). */
static void double_affine(p256_point *D, const p256_point *P)
{
    p256_point R0, R1;
    fep256 z, zi, t;
    xycz_idbl(&R0, &R1, P);
    mb_fep256_add(&z, &P->y, &P->y);   /* Z = 2y */
    mb_fep256_invert(&zi, &z);
    mb_fep256_sqr(&t, &zi);
    mb_fep256_mul(&D->x, &R1.x, &t);
    mb_fep256_mul(&t, &t, &zi);
    mb_fep256_mul(&D->y, &R1.y, &t);
}

void mb_p256_scalarmult(p256_point *R, const uint8_t k[32], const p256_point *P,
                        const uint8_t *rnd)
{
    uint32_t kw[9], flip, bit, swap;
#if MB_FAULT_HARDENED
    uint32_t kw2[9], flip2, d;
    int i;
#endif
    p256_point base;
    p256_ladder w;
    fep256 *num = &w.t[1], *den = &w.t[4];   /* scratch mb_p256_ladder_add leaves alone */
    int halve = 0;

    base = *P;
    if (mb_fep256_iszero(&P->x)) {     /* public: x(P) = 0 */
        double_affine(&base, P);
        halve = 1;
    }
    recode(kw, &flip, k, halve);

#if MB_P256_STEP_COUNT
    w.steps = 0;
#endif
    xycz_idbl(&w.R[0], &w.R[1], &base); /* bit 257 of k' is 1: R0 = P, R1 = 2P */
    if (rnd) randomize(&w.R[0], &w.R[1], rnd);

    /* Invariant: R1 - R0 = P. Slot R0 holds R_b for the current bit b (masked swaps,
     * merged between iterations): (R_b, R_{1-b}) <- (R_b - R_{1-b}, R_b + R_{1-b}),
     * then (R_b, R_{1-b}) <- (2 R_b, R_b + R_{1-b}). */
    mb_p256_ladder_loop(&w, kw);       /* bits 256..1 (p256_ladder_loop.c) */
    swap = (kw[0] >> 1) & 1u;
    bit = kw[0] & 1u;
    mb_p256_ladder_cswap_addc(&w, swap ^ bit);

    /* Now R0 = R_b - R_{1-b} = (-1)^(1-b) P = (xP Z^2, +-yP Z^3) for the unknown common
     * Z, and the last XYCZ-ADD multiplies Z by (X0 - X1). So
     * 1/Z_final = (+-yP) X0 / (xP Y0 (X0 - X1)): one inversion gives the affine result. */
    mb_fep256_neg(den, &base.y);
    mb_fep256_copy(num, &base.y);
    mb_fep256_cmov(num, den, bit ^ 1u);
    mb_fep256_mul(num, num, &w.R[0].x);
    mb_fep256_sub(den, &w.R[0].x, &w.R[1].x);
    mb_fep256_mul(den, den, &w.R[0].y);
    mb_fep256_mul(den, den, &base.x);
    mb_p256_ladder_add(&w);            /* R0 = 2 R_b, R1 = R_b + R_{1-b} */
    mb_fep256_cswap(&w.R[0].x, &w.R[1].x, bit);  /* the result is R_0 of the ladder */
    mb_fep256_cswap(&w.R[0].y, &w.R[1].y, bit);

    mb_fep256_invert(den, den);
    mb_fep256_mul(num, num, den);   /* 1/Z */
    mb_fep256_sqr(den, num);
    mb_fep256_mul(&R->x, &w.R[0].x, den);
    mb_fep256_mul(den, den, num);
    mb_fep256_mul(&R->y, &w.R[0].y, den);
    mb_fep256_neg(den, &R->y);
    mb_fep256_cmov(&R->y, den, flip);  /* k = n-1 was computed as 1: negate */
#if MB_FAULT_HARDENED
    /* A faulted recoding multiplies by another scalar: a valid wrong point no curve
     * check sees. It is done again and compared; on a difference the result becomes
     * (0, 0), off the curve, which p256_ecdh.c's check refuses. CT: kw secret. */
    recode(kw2, &flip2, k, halve);
    d = flip2 ^ flip;
    for (i = 0; i < 9; i++) d |= kw2[i] ^ kw[i];
#if MB_P256_STEP_COUNT
    /* Every step of the loop and the last two ran on this w (p256.h). A loop whose
     * pointer to w a fault moved (a stray store into a saved register) went on with
     * the other state, rebuilding and checking the same bits: this w kept the points
     * of an earlier step, consistent, hence a valid point of a shorter scalar. The
     * assembly loop (arch/msp430x) keeps w in its frame and checks every step's. */
    d |= w.steps ^ (2u * 256u + 2u);
#endif
    d = ct_nonzero32(d);
    mb_wipe(den, sizeof *den);
    mb_fep256_cmov(&R->x, den, d);
    mb_fep256_cmov(&R->y, den, d);
    mb_wipe(kw2, sizeof kw2);
    mb_wipe(&flip2, sizeof flip2);
#endif

    mb_wipe(kw, sizeof kw);
    mb_wipe(&w, sizeof w);
    mb_wipe(&flip, sizeof flip);
    mb_wipe(&bit, sizeof bit);
    mb_wipe(&swap, sizeof swap);
}
#endif /* !MB_ASM_CORTEX_M4 */
