/* SPDX-License-Identifier: MIT */
/*
 * P-256 variable-base scalar multiplication for the Cortex-M4 (replaces
 * src/curve/p256_coz.c, whose co-Z ladder stays the portable and MSP430 method):
 * fixed windows of 4 bits with signed odd digits in Jacobian coordinates, the point
 * operations in assembly (p256_jac.S). About 11 field multiplications per bit against
 * the ladder's 14: 4 doublings (4M + 4S each) and one mixed addition (8M + 3S) per
 * window, the table P, 3P, ..., 15P made per call (one doubling, 7 Jacobian additions)
 * and converted to affine with one inversion.
 *
 * Recoding. k (1 <= k < n) is made odd first: k' = k if k is odd, else n - k (odd, as
 * n is; the result is then negated, (n - k) P = -kP), by masks. An odd k' < 2^256 is
 * k' = sum d_i 16^i, i = 0..63, with every digit odd: d_63 = (k' >> 252) | 1 in [1, 15]
 * and, for i < 63, d_i = 2 u_i - 15 in [-15, 15], u_i = bits 4i+1..4i+4 of k'
 * (the regular recoding d = (k mod 32) - 16, k <- (k - d) / 16 keeps k odd, and
 * (k - d) / 16 = (k >> 4) | 1, so the digits read straight off the bits). Every
 * window runs the same operations: 4 doublings, a scan of all 8 table entries
 * (|d| = 2 idx + 1), a masked negation of the entry's y and one addition.
 *
 * Exceptional cases (docs/CONSTANT_TIME.md, "P-256 ECDH on the Cortex-M4"). Before
 * the addition of window i the accumulator is 16 m P, m = sum_{j>i} d_j 16^(j-i-1) >= 1
 * (every prefix of an odd recoding with a positive top digit is positive and odd).
 * (|sum_{j<=i} d_j 16^j| < 16^(i+1), so 16 m <= k' / 16^i + 16.)
 * For i >= 1, 16 <= 16 m < n / 16 + 16, so 16 m +- d_i is
 * never 0 mod n: the addition never meets T = +-acc, and no doubling meets infinity.
 * For i = 0, 16 m = k' - d_0 lies in [16, n + 15), and 16 m = d_0 + n (acc = T,
 * the doubling case) needs k' = n + 2 d_0 with d_0 = (k' mod 32) - 16; n = 17 mod 32
 * leaves only d_0 = -1: k' = n - 2, i.e. k = n - 2 or k = 2 (acc = -T would need
 * k' = 0). So the last addition is followed by a constant-time fix-up: the
 * addition of equal points leaves Z = 0 (H = r = 0), and the doubling of the
 * accumulator, computed before it every time, is selected by the mask of that zero.
 * The table (P, 3P, ..., 15P from P + 2P + 2P ...) never meets (2j - 1) P = +-2P.
 *
 * Randomized (rnd != NULL): lambda from rnd mod p (1 if 0) scales every table entry to
 * (lambda^2 x, lambda^3 y) with the shared Z = lambda, so the entry the secret digit
 * selects is a random representative too, not a multiple of the public P that a
 * power model could predict (randomizing only the accumulator left the scan and the
 * mixed addition leaking the digit: TVLA |t| 36 on the Cortex-M4 model,
 * docs/SIDE_CHANNELS.md). The additions are then general ones (T's Z = lambda):
 * 16 multiplications once and 4M + 1S more per window. The result is converted with
 * one inversion of Z; x(P) = 0 needs no special path here.
 * CT: k, rnd and R are secret; P is public. Secrets in the frame are wiped.
 */
#include "curve/p256.h"
#include "util/ct.h"
#include "util/backend.h"
#include "util/fault.h"

#if MB_ASM_CORTEX_M4

/* p256_jac.S: R = 2^n R; R = R + T (R != +-T, neither infinity), T Jacobian or affine;
 * out = table[idx] of 8 affine points scanning all of them, its y negated if neg.
 * Points are X, Y, Z (x, y) in Montgomery form. CT: all but n. */
uint32_t mb_p256_jdbl(fep256 R[3], fep256 t[4], uint32_t n);  /* hardened: returns n */
uint32_t mb_p256_jadd(fep256 R[3], const fep256 T[3], fep256 t[3]);   /* hardened: 1 */
uint32_t mb_p256_jmadd(fep256 R[3], const fep256 T[2], fep256 t[3]);  /* hardened: 1 */
void mb_p256_asel(fep256 out[2], const fep256 table[16], uint32_t idx, uint32_t neg);

/* n, little-endian 32-bit words. */
static const uint32_t N1[8] = {
    0xfc632551u, 0xf3b9cac2u, 0xa7179e84u, 0xbce6faadu,
    0xffffffffu, 0xffffffffu, 0x00000000u, 0xffffffffu
};

/* kw = k if k is odd, else n - k (k read big-endian, 1 <= k < n); kw[8] = 0.
 * Returns 1 iff k was even. CT: k secret; masks only. */
static uint32_t make_odd(uint32_t kw[9], const uint8_t k[32])
{
    uint32_t neg[8], b = 0, even, m;
    uint64_t d;
    int i;
    for (i = 0; i < 8; i++) kw[i] = load32_be(k + 28 - 4 * i);
    kw[8] = 0;
    for (i = 0; i < 8; i++) {
        d = (uint64_t)N1[i] - kw[i] - b;
        neg[i] = (uint32_t)d;
        b = (uint32_t)(d >> 63);
    }
    even = 1u ^ (kw[0] & 1u);
    m = ct_mask32(even);
    for (i = 0; i < 8; i++) kw[i] ^= m & (kw[i] ^ neg[i]);
    mb_wipe(neg, sizeof neg);
    return even;
}

/* u_i = bits 4i+1..4i+4 of kw, i <= 62 (public position; the bits are secret). */
static uint32_t window(const uint32_t kw[9], int i)
{
    int pos = 4 * i + 1, s = pos & 31;
    uint32_t u = kw[pos >> 5] >> s;
    if (s > 28) u |= kw[(pos >> 5) + 1] << (32 - s);     /* public */
    return u & 15u;
}

/* window(kw, i), hardened also ORed into rec at its place: the digits actually used,
 * compared with kw at the end (a faulted extraction gives another valid digit).
 * CT: kw, rec secret; i public. */
static uint32_t take(const uint32_t kw[9], uint32_t rec[9], int i)
{
    uint32_t u = window(kw, i);
#if MB_FAULT_HARDENED
    int pos = 4 * i + 1, s = pos & 31;
    rec[pos >> 5] |= u << s;
    if (s > 28) rec[(pos >> 5) + 1] |= u >> (32 - s);  /* public */
#else
    (void)rec;
#endif
    return u;
}

#if MB_FAULT_HARDENED
/* Entry tags: two words of x and of y XORed, for each table entry with y and with -y.
 * A second scan, in C, picks the tag of the digit's entry and sign and compares it with
 * the tag of the point mb_p256_asel returned: a scan a fault misled (its index,
 * coordinate count, sign, table or output pointer) returns another point (or leaves
 * the previous digit's), a valid point of another multiple. CT: the entries
 * (lambda-scaled), idx and the sign secret; masks only. */
static uint32_t tag_of(const fep256 P[2])
{
    return P[0].v[0] ^ P[0].v[7] ^ P[1].v[0] ^ P[1].v[7];
}

/* tags[2j + s]: entry j, its y negated if s = 1 (the scan negates y by the sign). */
static void entry_tags(uint32_t tags[16], const fep256 tab[16])
{
    fep256 e[2];
    int j;
    for (j = 0; j < 8; j++) {
        tags[2 * j] = tag_of(&tab[2 * j]);
        mb_fep256_copy(&e[0], &tab[2 * j]);
        mb_fep256_neg(&e[1], &tab[2 * j + 1]);
        tags[2 * j + 1] = tag_of(e);
    }
    mb_wipe(e, sizeof e);
}
#endif

/* Hardened: x(T) = 0 before its digit's point is selected, from the caller's own
 * address of T: a selection whose output pointer a fault moved leaves (0, y) with the
 * previous digit's y, off the curve, not the previous digit's valid point (the tag
 * check reads the moved pointer). */
static void clear_point(fep256 T[2])
{
#if MB_FAULT_HARDENED
    int j;
    for (j = 0; j < 8; j++) T[0].v[j] = 0;
#else
    (void)T;
#endif
}

/* T = d P for the digit 2u - 15: entry (|d| - 1) / 2 of the table, negated if u < 8.
 * Hardened: returns 1 if the point's tag does not match (see tag_of), else 0. The
 * tag's digit is read again from kw (window i; i = 63: the top digit as idx + 8), not
 * from u: a faulted copy of u would mislead the scan and the tag alike. Out of line, so
 * that the compiler cannot reuse take()'s read of the same bits.
 * CT: u, kw secret; i public. */
static MB_NOINLINE uint32_t digit_point(fep256 T[2], const fep256 tab[16], uint32_t u,
                                        const uint32_t tags[16], const uint32_t kw[9],
                                        int i)
{
    uint32_t neg = (u >> 3) ^ 1u;
#if MB_FAULT_HARDENED
    uint32_t u2 = i == 63 ? (kw[7] >> 29) + 8u : window(kw, i);   /* public i */
    uint32_t nm, idx2, t = 0;
    int j;
    mb_p256_asel(T, tab, (u ^ (0u - neg)) & 7u, neg);
    nm = 0u - ((u2 >> 3) ^ 1u);
    idx2 = (u2 ^ nm) & 7u;
    for (j = 0; j < 8; j++) {
        /* (j ^ idx2) - 1 has its top bit set iff j == idx2 (both < 8) */
        t |= ((tags[2 * j] & ~nm) | (tags[2 * j + 1] & nm)) &
             (0u - ((((uint32_t)j ^ idx2) - 1u) >> 31));
    }
    return ct_nonzero32(t ^ tag_of(T));
#else
    (void)tags;
    (void)kw;
    (void)i;
    mb_p256_asel(T, tab, (u ^ (0u - neg)) & 7u, neg);
    return 0;
#endif
}

/* tab[3j..3j+2] (Jacobian, Z != 0) -> tab[2j..2j+1] (affine), j = 0..7, in place: entry
 * j's writes land on slots of entries already read. Montgomery's trick: one inversion,
 * c the prefix products, then the inverses. The multiples of the public P are public. */
static void normalize(fep256 tab[24], fep256 c[8])
{
    fep256 inv, u;
    int j;
    mb_fep256_copy(&c[0], &tab[2]);
    for (j = 1; j < 8; j++) mb_fep256_mul(&c[j], &c[j - 1], &tab[3 * j + 2]);
    mb_fep256_invert(&inv, &c[7]);
    for (j = 7; j >= 1; j--) {
        mb_fep256_mul(&c[j], &inv, &c[j - 1]);          /* 1 / Z_j */
        mb_fep256_mul(&inv, &inv, &tab[3 * j + 2]);     /* 1 / (Z_0 ... Z_(j-1)) */
    }
    mb_fep256_copy(&c[0], &inv);
    for (j = 0; j < 8; j++) {
        mb_fep256_sqr(&u, &c[j]);
        mb_fep256_mul(&tab[2 * j], &tab[3 * j], &u);
        mb_fep256_mul(&u, &u, &c[j]);
        mb_fep256_mul(&tab[2 * j + 1], &tab[3 * j + 1], &u);
    }
}

/* A = A + T: mixed addition when T is affine, general when T[2] = lambda (randomized).
 * randomized is public. Returns the addition's count (hardened: 1). */
static uint32_t add_entry(fep256 A[3], const fep256 T[3], fep256 t[3], int randomized)
{
    if (randomized) return mb_p256_jadd(A, T, t);
    return mb_p256_jmadd(A, T, t);
}

void mb_p256_scalarmult(p256_point *R, const uint8_t k[32], const p256_point *P,
                        const uint8_t *rnd)
{
    fep256 tab[24], w[13];
    fep256 *A = w, *D = w + 3, *t = w + 6, *T = w + 10;  /* normalize's c[8] = w[0..7]:
                                                          D and t are dead by then;
                                                          T[2] = lambda if randomized */
    uint32_t kw[9], even, z, dbl = 0, adds = 0;
    uint32_t rec[9] = { 0 };          /* hardened: the digits used (take) */
    uint32_t tags[16] = { 0 }, sel = 0; /* hardened: entry tags, a mismatch seen */
#if MB_FAULT_HARDENED
    uint32_t kw2[9];
#endif
    int i, j;

    even = make_odd(kw, k);

    /* (2j + 1) P, j = 0..7: Jacobian from P + 2P + 2P ..., then affine */
    mb_fep256_copy(&tab[0], &P->x);
    mb_fep256_copy(&tab[1], &P->y);
    mb_fep256_one(&tab[2]);
    for (j = 0; j < 3; j++) mb_fep256_copy(&D[j], &tab[j]);
    dbl += mb_p256_jdbl(D, t, 1);                           /* 2P */
    for (i = 1; i < 8; i++) {
        for (j = 0; j < 3; j++) mb_fep256_copy(&tab[3 * i + j], &tab[3 * i - 3 + j]);
        adds += mb_p256_jadd(&tab[3 * i], D, t);
    }
    normalize(tab, w);

    mb_fep256_one(&T[2]);
    if (rnd) {                      /* every entry (lambda^2 x, lambda^3 y), Z = lambda */
        fep256 *l = &T[2], *l2 = &t[0], *l3 = &t[1], *one = &t[2];
        (void)mb_fep256_frombytes(l, rnd);
        mb_fep256_reduce_once(l, l);
        mb_fep256_one(one);
        mb_fep256_cmov(l, one, mb_fep256_iszero(l));
        mb_fep256_sqr(l2, l);
        mb_fep256_mul(l3, l2, l);
        for (j = 0; j < 8; j++) {
            mb_fep256_mul(&tab[2 * j], &tab[2 * j], l2);
            mb_fep256_mul(&tab[2 * j + 1], &tab[2 * j + 1], l3);
        }
    }
    rec[7] = kw[7] & 0xE0000000u;                          /* d_63 (bits 253..255) */
#if MB_FAULT_HARDENED
    entry_tags(tags, tab);
    /* d_63 = 2 idx + 1 > 0: the same as digit u = idx + 8 */
    sel = digit_point(A, tab, (rec[7] >> 29) + 8u, tags, kw, 63);
#else
    mb_p256_asel(A, tab, rec[7] >> 29, 0);                 /* d_63 > 0 */
#endif
    mb_fep256_copy(&A[2], &T[2]);
    for (i = 62; i >= 1; i--) {
        dbl += mb_p256_jdbl(A, t, 4);
        clear_point(T);
        sel |= digit_point(T, tab, take(kw, rec, i), tags, kw, i);
        adds += add_entry(A, T, t, rnd != NULL);
    }
    dbl += mb_p256_jdbl(A, t, 4);
    clear_point(T);
    sel |= digit_point(T, tab, take(kw, rec, 0), tags, kw, 0);
    /* The last addition may be a doubling (see the top): D = 2A first, taken iff the
     * addition's Z came out 0 (Z3 = Z1 Z2 H in both additions). */
    for (j = 0; j < 3; j++) mb_fep256_copy(&D[j], &A[j]);
    dbl += mb_p256_jdbl(D, t, 1);
    adds += add_entry(A, T, t, rnd != NULL);
    z = mb_fep256_iszero(&A[2]);
    for (j = 0; j < 3; j++) mb_fep256_cmov(&A[j], &D[j], z);

    /* Affine: x = X / Z^2, y = Y / Z^3, y negated if k was even. */
    mb_fep256_invert(&t[0], &A[2]);
    mb_fep256_sqr(&t[1], &t[0]);
    mb_fep256_mul(&R->x, &A[0], &t[1]);
    mb_fep256_mul(&t[1], &t[1], &t[0]);
    mb_fep256_mul(&R->y, &A[1], &t[1]);
    mb_fep256_neg(&t[2], &R->y);
    mb_fep256_cmov(&R->y, &t[2], even);
#if MB_FAULT_HARDENED
    /* A faulted loop count (this loop's or a doubling loop's), recoding or digit
     * extraction multiplies by another scalar: a valid wrong point no curve check sees.
     * Every doubling and addition is counted apart (the assembly's returns: a skipped
     * call of either counts nothing), the recoding is done again, and
     * both it and the digits used (rec) are compared with kw: on a wrong total or a
     * difference the result becomes (0, 0), off the curve, which the caller's check
     * refuses (p256_ecdh.c). CT: kw, rec secret; the count is public. */
    z = make_odd(kw2, k) ^ even;
    rec[0] |= 1u;                                          /* kw is odd */
    for (j = 0; j < 9; j++) z |= (kw2[j] ^ kw[j]) | (rec[j] ^ kw[j]);
    mb_wipe(kw2, sizeof kw2);
    z = ct_nonzero32(z) | ct_nonzero32(ct_barrier32(dbl) ^ (1u + 4u * 63u + 1u)) |
        ct_nonzero32(ct_barrier32(adds) ^ (7u + 63u)) |  /* a skipped addition */
        ct_nonzero32(sel);               /* sel: any nonzero (a skipped call leaves r0) */
    mb_wipe(&t[2], sizeof t[2]);
    mb_fep256_cmov(&R->x, &t[2], z);
    mb_fep256_cmov(&R->y, &t[2], z);
#else
    (void)dbl;
    (void)adds;
#endif

    mb_wipe(tab, sizeof tab);
    mb_wipe(w, sizeof w);
    mb_wipe(kw, sizeof kw);
    mb_wipe(rec, sizeof rec);
    mb_wipe(tags, sizeof tags);
    mb_wipe(&sel, sizeof sel);
    mb_wipe(&even, sizeof even);
    mb_wipe(&z, sizeof z);
}
#endif /* MB_ASM_CORTEX_M4 */
