/* SPDX-License-Identifier: MIT */
/*
 * GF(p256), p = 2^256 - 2^224 + 2^192 + 2^96 - 1: the interface every backend provides
 * (layer 1), plus the scalar range check mod the group order n.
 *
 * Backends, chosen at build time by MB_RADIX (never by function pointers):
 *   16  fep256_r16.c + fep256_arith_r16.c  16 x 16-bit limbs (MSP430, [SAK18])
 *   32  fep256_r32.c + fep256_arith_r32.c   8 x 32-bit limbs (Cortex-M4)
 *   64  fep256_r64.c + fep256_arith_r64.c   4 x 64-bit limbs (hosts with __int128)
 * All three share one portable body: the limbs in fep256_limbs.inc, the arithmetic (add,
 * sub, mul, sqr, sqr_n) in fep256_mont_arith.inc, the rest in fep256_mont.inc; r32 has
 * its own add, sub, mul and sqr (operand scanning, one UMLAL per product: C on 32-bit
 * cores) in fep256_arith_r32.c. MB_RADIX=25 builds use the r32 files.
 * arch/<chip>/ may replace the arithmetic file fep256_arith_rNN.c with assembly
 * exporting the same symbols.
 *
 * Representation: little-endian limbs, full radix, Montgomery form with R = 2^256
 * (element a is stored as a*R mod p), ALWAYS fully reduced: every value is in [0, p).
 * That makes equality, zero tests and parity plain limb operations.
 * Exceptions: mb_fep256_frombytes / mb_fep256_tobytes move raw integers (no Montgomery
 * conversion); mb_fep256_tomont / mb_fep256_frommont convert.
 *
 * Every operation allows the output to alias any input and runs in time independent of
 * the values (CT: all inputs may be secret).
 */
#ifndef MB_FEP256_H
#define MB_FEP256_H

#include <stdint.h>

#include "util/backend.h"

#if MB_RADIX == 16
typedef struct { uint16_t v[16]; } fep256;
#elif MB_RADIX == 32
typedef struct { uint32_t v[8]; } fep256;
#elif MB_RADIX == 64
typedef struct { uint64_t v[4]; } fep256;
#endif

/* ---- backend arithmetic (fep256_arith_rNN.c, or arch/<chip>/) ---- */
/* Bounds: f, g < p. Post: h = f + g mod p, h < p. */
void mb_fep256_add(fep256 *h, const fep256 *f, const fep256 *g);
/* Bounds: f, g < p. Post: h = f - g mod p, h < p. */
void mb_fep256_sub(fep256 *h, const fep256 *f, const fep256 *g);
/* Bounds: f, g < p. Post: h = f * g / 2^256 mod p, h < p (Montgomery product). */
void mb_fep256_mul(fep256 *h, const fep256 *f, const fep256 *g);
/* Bounds: f < p. Post: h = f^2 / 2^256 mod p, h < p. */
void mb_fep256_sqr(fep256 *h, const fep256 *f);
/* Bounds: f < p; k >= 1, public. Post: h = f^(2^k) through k Montgomery squarings (a
 * Montgomery-form input a R gives a^(2^k) R), h < p. */
void mb_fep256_sqr_n(fep256 *h, const fep256 *f, int k);

/* ---- the rest of a backend (fep256_rNN.c) ---- */
/* h = f if bit == 1, unchanged if bit == 0; bit in {0,1}. CT: bit is secret. */
void mb_fep256_cmov(fep256 *h, const fep256 *f, uint32_t bit);
/* Swap f and g if bit == 1; bit in {0,1}. CT: bit is secret. */
void mb_fep256_cswap(fep256 *f, fep256 *g, uint32_t bit);
/* h = s read big-endian, raw (no reduction, no conversion). Returns 1 if s < p, else 0.
 * Post: h < 2^256 (callers reject or reduce h when 0 is returned). */
uint32_t mb_fep256_frombytes(fep256 *h, const uint8_t s[32]);
/* s = h big-endian, raw. */
void mb_fep256_tobytes(uint8_t s[32], const fep256 *h);
/* Pre: f < 2^256. Post: h = f mod p (one conditional subtraction of p). */
void mb_fep256_reduce_once(fep256 *h, const fep256 *f);
/* 1 if f == 0 (the limbs, i.e. the element, as values are reduced), else 0. */
uint32_t mb_fep256_iszero(const fep256 *f);

/* ---- radix-independent operations (fep256.c) ---- */
void mb_fep256_copy(fep256 *h, const fep256 *f);
/* h = 1 in Montgomery form (2^256 mod p). */
void mb_fep256_one(fep256 *h);
/* Bounds: f < p. h = -f mod p. */
void mb_fep256_neg(fep256 *h, const fep256 *f);
/* Pre: f < p, plain. Post: h = f * 2^256 mod p (Montgomery form). */
void mb_fep256_tomont(fep256 *h, const fep256 *f);
/* Pre: f < p, Montgomery. Post: h = f / 2^256 mod p (plain). */
void mb_fep256_frommont(fep256 *h, const fep256 *f);
/* h = 1/f = f^(p-2) (0 for f = 0): 255 squarings and 12 multiplications. */
void mb_fep256_invert(fep256 *h, const fep256 *f);
/* h = f^((p+1)/4) (p = 3 mod 4): a square root of f when f is a square. Returns 1 if
 * h^2 == f (f is a square), else 0. 253 + 1 squarings, 9 multiplications. */
uint32_t mb_fep256_sqrt(fep256 *h, const fep256 *f);
/* 1 if f == g else 0. */
uint32_t mb_fep256_equal(const fep256 *f, const fep256 *g);
/* Parity (bit 0) of the plain value of Montgomery-form f. */
uint32_t mb_fep256_isodd(const fep256 *f);
/* Load a 32-byte big-endian constant that is already < p (and already in the form the
 * caller wants). */
void mb_fep256_load(fep256 *h, const uint8_t s[32]);

/* ---- scalars mod n (the group order) ---- */
/* 1 if 1 <= k < n for k read big-endian, else 0. CT: k is secret. */
uint32_t mb_p256_scalar_ok(const uint8_t k[32]);

#endif
