/* SPDX-License-Identifier: MIT */
/* Constant-time helpers, little/big-endian loads and stores. Layer 0: includes nothing
 * of motebox but the public header. Everything here is branch-free and index-free. */
#ifndef MB_CT_H
#define MB_CT_H

#include <stddef.h>
#include <stdint.h>
#include "motebox.h"

/* Value barrier: hides a value from the optimizer so that mask arithmetic is not turned
 * back into a branch. An empty asm with the value as in/out operand costs nothing. */
#if defined(__GNUC__) || defined(__clang__)
#define MB_BARRIER(x) __asm__("" : "+r"(x))
#else
#define MB_BARRIER(x) ((void)0)
#endif

static inline uint32_t ct_barrier32(uint32_t x) { MB_BARRIER(x); return x; }

/* 0xFFFFFFFF if bit (0 or 1) is 1, else 0. */
static inline uint32_t ct_mask32(uint32_t bit) { return ct_barrier32(0u - (bit & 1u)); }

/* 1 if x != 0 else 0, without a comparison the compiler could turn into a branch (the
 * barrier stops it from recognising x | -x as one: clang for MSP430 branched on it). */
static inline uint32_t ct_nonzero32(uint32_t x) { return ct_barrier32(x | (0u - x)) >> 31; }

/* Little-endian loads and stores, and the big-endian load P-256 scalars need. */
static inline uint32_t load32_le(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline void store32_le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
static inline uint32_t load32_be(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

/* Copy / zero without libc (freestanding builds have no memcpy guarantee). */
static inline void mb_copy(uint8_t *d, const uint8_t *s, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) d[i] = s[i];
}

/* OR of all bytes of a[0..n): 0 iff all zero. Time depends on n only. */
static inline uint32_t ct_or_bytes(const uint8_t *a, size_t n)
{
    uint32_t acc = 0;
    size_t i;
    for (i = 0; i < n; i++) acc |= a[i];
    return acc;
}

/* 1 if the words a[0..n) equal the complements of nb[0..n) (nb = a complemented copy of
 * the value to compare with, in the same layout), else 0: the AND of a[i] ^ nb[i] is all
 * ones iff every word matches. The second of two independent tag checks for fault
 * resistance (docs/FAULTS.md), in complementary form to mb_verify16 (which ORs
 * differences of plain copies): a single fault corrupts one of them, not both; a pointer
 * faulted onto the other buffer compares a value with itself, whose XOR is 0: a
 * mismatch. Callers use it beside mb_verify16, never alone. CT: time depends on n only. */
static inline uint32_t ct_equal_complement32(const uint32_t *a, const uint32_t *nb, size_t n)
{
    uint32_t acc = 0xffffffffu;
    size_t i;
    for (i = 0; i < n; i++) acc &= a[i] ^ nb[i];
    return 1u ^ ct_nonzero32(~acc);
}

#endif
