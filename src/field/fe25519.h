/* SPDX-License-Identifier: MIT */
/*
 * GF(2^255-19): the interface every backend provides (layer 1).
 *
 * Backends, chosen at build time by MB_RADIX (never by function pointers):
 *   16  fe25519_r16.c  16 x 16-bit limbs, radix 2^16  (MSP430 representation, [DHH+15])
 *   32  fe25519_r32.c   8 x 32-bit limbs, radix 2^32  (Cortex-M4 representation, [DS16])
 *   64  fe25519_r64.c   5 x 51-bit limbs in uint64_t   (64-bit hosts)
 *   25  fe25519_r25.c  10 x 26/25-bit limbs in uint32_t, radix 2^25.5 (portable C on
 *                      32-bit cores; MB_RADIX=25 sets MB_FE25519_R25, see util/backend.h)
 * r16 and r32 keep encoding, decoding and set in fe25519_io_r16.c / fe25519_io_r32.c, so
 * that the arithmetic file alone is replaced by arch/<chip>/ assembly.
 * arch/<chip>/ may replace a portable backend file with assembly exporting the same
 * symbols.
 *
 * Value convention of the r16/r32 backends: an fe25519 holds any 256-bit integer; it is
 * only kept reduced mod 2^256-38 (= 2 * (2^255-19)) during the ladder, and reduced mod
 * 2^255-19 only in mb_fe25519_tobytes. Every r16/r32 operation accepts any value.
 *
 * The r64 and r25 backends save the carry pass of add and sub (fiat-crypto style bounds):
 * "tight" values (limbs < 2^52) come out of mul, sqr, mul121666, frombytes, set and
 * invert; "loose" values (limbs < 2^54) come out of add and sub. Hence the rule every
 * caller follows, whatever the backend:
 *   the inputs of mb_fe25519_add and mb_fe25519_sub are outputs of mul, sqr, mul121666,
 *   frombytes, set or invert (directly, or through copy/cswap);
 *   every other operation accepts any value.
 * Callers never look inside an fe25519.
 *
 * Every operation allows the output to alias any input, and runs in time independent of
 * the values (CT: all inputs may be secret).
 */
#ifndef MB_FE25519_H
#define MB_FE25519_H

#include <stdint.h>

#include "util/backend.h"

#if MB_FE25519_R25
typedef struct { uint32_t v[10]; } fe25519;
#elif MB_RADIX == 16
typedef struct { uint16_t v[16]; } fe25519;
#elif MB_RADIX == 32
typedef struct { uint32_t v[8]; } fe25519;
#elif MB_RADIX == 64
typedef struct { uint64_t v[5]; } fe25519;
#endif

/* Backend operations (fe25519_rNN.c or arch/<chip>/). */
void mb_fe25519_add(fe25519 *h, const fe25519 *f, const fe25519 *g);  /* h = f + g */
void mb_fe25519_sub(fe25519 *h, const fe25519 *f, const fe25519 *g);  /* h = f - g */
void mb_fe25519_mul(fe25519 *h, const fe25519 *f, const fe25519 *g);  /* h = f * g */
void mb_fe25519_sqr(fe25519 *h, const fe25519 *f);                   /* h = f^2 */
void mb_fe25519_mul121666(fe25519 *h, const fe25519 *f);             /* h = 121666 f */
/* Swap f and g if bit == 1, leave them if bit == 0; bit in {0,1}. CT: bit is secret. */
void mb_fe25519_cswap(fe25519 *f, fe25519 *g, uint32_t bit);
/* h = s (little-endian); bit 255 of s is ignored (RFC 7748). */
void mb_fe25519_frombytes(fe25519 *h, const uint8_t s[32]);
/* s = h fully reduced mod 2^255-19, little-endian. */
void mb_fe25519_tobytes(uint8_t s[32], const fe25519 *h);
/* h = small constant c (c < 2^16). */
void mb_fe25519_set(fe25519 *h, uint16_t c);

/* Radix-independent operations (fe25519.c; the inversion in fe25519_invert.c, which
 * arch/<chip>/ may replace), built on the above. */
void mb_fe25519_copy(fe25519 *h, const fe25519 *f);
/* s, any 256-bit little-endian integer, becomes its canonical value mod 2^255-19 (< p).
 * The r16 and r32 backends' mb_fe25519_tobytes store their limbs and call this (not built
 * for r64, which has its own). */
void mb_fe25519_canonical_bytes(uint8_t s[32]);
/* h = f^(p-2) = 1/f (0 for f = 0): 254 squarings, 11 multiplications. */
void mb_fe25519_invert(fe25519 *h, const fe25519 *f);
/* 1 if f == 0 mod 2^255-19, else 0. CT: f may be secret. */
uint32_t mb_fe25519_iszero(const fe25519 *f);

#endif
