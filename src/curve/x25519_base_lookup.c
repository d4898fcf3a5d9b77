/* SPDX-License-Identifier: MIT */
/* The fixed-base comb's masked table lookup without the sign (x25519_base.h), portable C
 * for every radix; arch/msp430x/ replaces this file (x25519_base_lookup.S, 8 entries). */
#include "curve/x25519_base.h"
#include "util/ct.h"
#include "util/backend.h"

/* Replaced whole by arch/msp430x/ when that backend is active (util/backend.h). */
#if !MB_ASM_MSP430X

#ifndef MB_NO_FIXED_BASE

#if MB_RADIX == 16
typedef uint16_t limb;
#elif MB_RADIX == 32
typedef uint32_t limb;
#else
typedef uint64_t limb;
#endif
#define NLIMBS (sizeof(fe25519) / sizeof(limb))

#if MB_RADIX == 16
/* r = row[idx] (all three coordinates), reading every entry. 16-bit targets have too few
 * registers for an accumulator: r itself accumulates, one limb of each coordinate per
 * step. CT: idx secret; each entry is ANDed with a mask (all ones iff its index is idx)
 * and ORed into r: the same addresses and operations for every idx. */
void mb_x25519_base_lookup(mb_x25519_base_entry *r, const mb_x25519_base_entry *row,
                           unsigned idx)
{
    unsigned i, w;
    for (w = 0; w < NLIMBS; w++) r->yp.v[w] = r->ym.v[w] = r->td.v[w] = 0;
    for (i = 0; i < MB_X25519_BASE_ENTRIES; i++) {
        limb m = (limb)((limb)0 - (limb)(1u ^ ct_nonzero32((uint32_t)i ^ idx)));
        MB_BARRIER(m);
        for (w = 0; w < NLIMBS; w++) {
            r->yp.v[w] |= row[i].yp.v[w] & m;
            r->ym.v[w] |= row[i].ym.v[w] & m;
            r->td.v[w] |= row[i].td.v[w] & m;
        }
    }
}
#else
/* r = coordinate c (0: yp, 1: ym, 2: td; public) of row[idx], reading that coordinate of
 * every entry (one coordinate at a time, so that the accumulator fits in registers).
 * CT: idx secret; each entry is ANDed with a mask (all ones iff its index is idx) and
 * ORed into the accumulator: the same addresses and operations for every idx. */
static inline void select_fe(fe25519 *r, const mb_x25519_base_entry *row, int c,
                             uint32_t idx)
{
    limb acc[NLIMBS];
    unsigned i, w;
    for (w = 0; w < NLIMBS; w++) acc[w] = 0;
    for (i = 0; i < MB_X25519_BASE_ENTRIES; i++) {
        const fe25519 *f = c == 0 ? &row[i].yp : c == 1 ? &row[i].ym : &row[i].td;
        limb m = (limb)((limb)0 - (limb)(1u ^ ct_nonzero32((uint32_t)i ^ idx)));
        MB_BARRIER(m);
        /* Unrolled, so that acc stays in registers (gcc and clang know the pragma). */
#pragma GCC unroll 16
        for (w = 0; w < NLIMBS; w++) acc[w] |= f->v[w] & m;
    }
    for (w = 0; w < NLIMBS; w++) r->v[w] = acc[w];
    mb_wipe(acc, sizeof acc);
}

/* CT: see select_fe. */
void mb_x25519_base_lookup(mb_x25519_base_entry *r, const mb_x25519_base_entry *row,
                           unsigned idx)
{
    select_fe(&r->yp, row, 0, idx);
    select_fe(&r->ym, row, 1, idx);
    select_fe(&r->td, row, 2, idx);
}
#endif

#else
typedef int mb_x25519_base_lookup_omitted;
#endif
#endif /* !MB_ASM_MSP430X */
