/* SPDX-License-Identifier: MIT */
/*
 * SEC1 point encoding, decoding and validation for P-256. Decoding handles public keys
 * only; branches on their validity are fine (the outcome is public). mb_p256_on_curve
 * and the encoders are branch-free (they also see secret points).
 */
#include "curve/p256.h"
#include "util/ct.h"

/* b, Gx, Gy of P-256 (FIPS 186-4 D.1.2.3), each already in Montgomery form (x 2^256 mod p). */
static const uint8_t B_MONT[32] = {
    0xdc, 0x30, 0x06, 0x1d, 0x04, 0x87, 0x48, 0x34,
    0xe5, 0xa2, 0x20, 0xab, 0xf7, 0x21, 0x2e, 0xd6,
    0xac, 0xf0, 0x05, 0xcd, 0x78, 0x84, 0x30, 0x90,
    0xd8, 0x9c, 0xdf, 0x62, 0x29, 0xc4, 0xbd, 0xdf
};
static const uint8_t GX_MONT[32] = {
    0x18, 0x90, 0x5f, 0x76, 0xa5, 0x37, 0x55, 0xc6,
    0x79, 0xfb, 0x73, 0x2b, 0x77, 0x62, 0x25, 0x10,
    0x75, 0xba, 0x95, 0xfc, 0x5f, 0xed, 0xb6, 0x01,
    0x79, 0xe7, 0x30, 0xd4, 0x18, 0xa9, 0x14, 0x3c
};
static const uint8_t GY_MONT[32] = {
    0x85, 0x71, 0xff, 0x18, 0x25, 0x88, 0x5d, 0x85,
    0xd2, 0xe8, 0x86, 0x88, 0xdd, 0x21, 0xf3, 0x25,
    0x8b, 0x4a, 0xb8, 0xe4, 0xba, 0x19, 0xe4, 0x5c,
    0xdd, 0xf2, 0x53, 0x57, 0xce, 0x95, 0x56, 0x0a
};

void mb_p256_base_point(p256_point *G)
{
    mb_fep256_load(&G->x, GX_MONT);
    mb_fep256_load(&G->y, GY_MONT);
}

/* rhs = x^3 - 3x + b = (x^2 - 3) x + b. CT (x may be secret: see mb_p256_on_curve). */
static void curve_rhs(fep256 *rhs, const fep256 *x)
{
    fep256 t, three, b;
    mb_fep256_one(&three);
    mb_fep256_add(&t, &three, &three);
    mb_fep256_add(&three, &t, &three);
    mb_fep256_sqr(&t, x);
    mb_fep256_sub(&t, &t, &three);
    mb_fep256_mul(&t, &t, x);
    mb_fep256_load(&b, B_MONT);
    mb_fep256_add(rhs, &t, &b);
    mb_wipe(&t, sizeof t);
}

/* Also the fault checks' test of a secret result (p256_ecdh.c): CT, locals wiped. */
uint32_t mb_p256_on_curve(const p256_point *P)
{
    fep256 lhs, rhs;
    uint32_t ok;
    mb_fep256_sqr(&lhs, &P->y);
    curve_rhs(&rhs, &P->x);
    ok = mb_fep256_equal(&lhs, &rhs);
    mb_wipe(&lhs, sizeof lhs);
    mb_wipe(&rhs, sizeof rhs);
    return ok;
}

int mb_p256_decode(p256_point *P, const uint8_t *in, size_t len)
{
    uint32_t ok = 0;
    fep256 t;
    if (len == 65 && in[0] == 0x04) {
        ok = mb_fep256_frombytes(&P->x, in + 1) & mb_fep256_frombytes(&P->y, in + 33);
        if (ok) {
            mb_fep256_tomont(&P->x, &P->x);
            mb_fep256_tomont(&P->y, &P->y);
            ok = mb_p256_on_curve(P);
        }
    } else if (len == 33 && (in[0] == 0x02 || in[0] == 0x03)) {
        ok = mb_fep256_frombytes(&P->x, in + 1);
        if (ok) {
            mb_fep256_tomont(&P->x, &P->x);
            curve_rhs(&t, &P->x);
            ok = mb_fep256_sqrt(&P->y, &t);
            /* y = 0 is impossible (no point of order 2), so -y has the other parity. */
            mb_fep256_neg(&t, &P->y);
            mb_fep256_cmov(&P->y, &t, mb_fep256_isodd(&P->y) ^ (uint32_t)(in[0] & 1u));
        }
    }
    if (!ok) {
        mb_wipe(P, sizeof *P);
        return -1;
    }
    return 0;
}

void mb_p256_encode(uint8_t out[65], const p256_point *P)
{
    fep256 t;
    out[0] = 0x04;
    mb_fep256_frommont(&t, &P->x);
    mb_fep256_tobytes(out + 1, &t);
    mb_fep256_frommont(&t, &P->y);
    mb_fep256_tobytes(out + 33, &t);
    mb_wipe(&t, sizeof t);
}

void mb_p256_encode_compressed(uint8_t out[33], const p256_point *P)
{
    fep256 t;
    out[0] = (uint8_t)(0x02u | mb_fep256_isodd(&P->y));
    mb_fep256_frommont(&t, &P->x);
    mb_fep256_tobytes(out + 1, &t);
    mb_wipe(&t, sizeof t);
}
