/* SPDX-License-Identifier: MIT */
/*
 * Test-only shim: exposes the internal GF(p256) interface (src/field/fep256.h) of one
 * radix build to tests/test_fep256.py as a shared object. Every value crosses as 32
 * big-endian bytes holding the RAW limb value (no Montgomery conversion), so the test
 * checks each operation's exact arithmetic against Python integers.
 * Not part of the library.
 */
#include "field/fep256.h"

int t_radix(void);
int t_size(void);
unsigned t_frombytes(uint8_t out[32], const uint8_t a[32]);
void t_add(uint8_t out[32], const uint8_t a[32], const uint8_t b[32]);
void t_sub(uint8_t out[32], const uint8_t a[32], const uint8_t b[32]);
void t_mul(uint8_t out[32], const uint8_t a[32], const uint8_t b[32]);
void t_sqr(uint8_t out[32], const uint8_t a[32]);
void t_neg(uint8_t out[32], const uint8_t a[32]);
void t_invert(uint8_t out[32], const uint8_t a[32]);
unsigned t_sqrt(uint8_t out[32], const uint8_t a[32]);
void t_tomont(uint8_t out[32], const uint8_t a[32]);
void t_frommont(uint8_t out[32], const uint8_t a[32]);
void t_reduce_once(uint8_t out[32], const uint8_t a[32]);
unsigned t_iszero(const uint8_t a[32]);
unsigned t_equal(const uint8_t a[32], const uint8_t b[32]);
unsigned t_isodd(const uint8_t a[32]);
void t_cswap(uint8_t a[32], uint8_t b[32], unsigned bit);
void t_cmov(uint8_t a[32], const uint8_t b[32], unsigned bit);
unsigned t_scalar_ok(const uint8_t k[32]);

int t_radix(void) { return MB_FE25519_R25 ? 25 : MB_RADIX; }   /* the build's name */
int t_size(void) { return (int)sizeof(fep256); }

unsigned t_frombytes(uint8_t out[32], const uint8_t a[32])
{
    fep256 f;
    unsigned lt = mb_fep256_frombytes(&f, a);
    mb_fep256_tobytes(out, &f);
    return lt;
}

#define BIN(name, op)                                                         \
    void name(uint8_t out[32], const uint8_t a[32], const uint8_t b[32])      \
    {                                                                         \
        fep256 f, g;                                                          \
        mb_fep256_frombytes(&f, a);                                              \
        mb_fep256_frombytes(&g, b);                                              \
        op(&f, &f, &g);                                                       \
        mb_fep256_tobytes(out, &f);                                              \
    }
#define UN(name, op)                                                          \
    void name(uint8_t out[32], const uint8_t a[32])                           \
    {                                                                         \
        fep256 f;                                                             \
        mb_fep256_frombytes(&f, a);                                              \
        op(&f, &f);                                                           \
        mb_fep256_tobytes(out, &f);                                              \
    }
BIN(t_add, mb_fep256_add)
BIN(t_sub, mb_fep256_sub)
BIN(t_mul, mb_fep256_mul)
UN(t_sqr, mb_fep256_sqr)
UN(t_neg, mb_fep256_neg)
UN(t_invert, mb_fep256_invert)
UN(t_tomont, mb_fep256_tomont)
UN(t_frommont, mb_fep256_frommont)
UN(t_reduce_once, mb_fep256_reduce_once)

unsigned t_sqrt(uint8_t out[32], const uint8_t a[32])
{
    fep256 f, h;
    unsigned ok;
    mb_fep256_frombytes(&f, a);
    ok = mb_fep256_sqrt(&h, &f);
    mb_fep256_tobytes(out, &h);
    return ok;
}

unsigned t_iszero(const uint8_t a[32])
{
    fep256 f;
    mb_fep256_frombytes(&f, a);
    return mb_fep256_iszero(&f);
}

unsigned t_equal(const uint8_t a[32], const uint8_t b[32])
{
    fep256 f, g;
    mb_fep256_frombytes(&f, a);
    mb_fep256_frombytes(&g, b);
    return mb_fep256_equal(&f, &g);
}

unsigned t_isodd(const uint8_t a[32])
{
    fep256 f;
    mb_fep256_frombytes(&f, a);
    return mb_fep256_isodd(&f);
}

void t_cswap(uint8_t a[32], uint8_t b[32], unsigned bit)
{
    fep256 f, g;
    mb_fep256_frombytes(&f, a);
    mb_fep256_frombytes(&g, b);
    mb_fep256_cswap(&f, &g, bit);
    mb_fep256_tobytes(a, &f);
    mb_fep256_tobytes(b, &g);
}

void t_cmov(uint8_t a[32], const uint8_t b[32], unsigned bit)
{
    fep256 f, g;
    mb_fep256_frombytes(&f, a);
    mb_fep256_frombytes(&g, b);
    mb_fep256_cmov(&f, &g, bit);
    mb_fep256_tobytes(a, &f);
}

unsigned t_scalar_ok(const uint8_t k[32]) { return mb_p256_scalar_ok(k); }
