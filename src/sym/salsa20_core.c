/* SPDX-License-Identifier: MIT */
/* The Salsa20 core (20 rounds): the keystream block and HSalsa20. arch/<chip>/ may
 * replace this file whole (arch/cortex-m4/salsa20.S). */
#include "util/ct.h"
#include "sym/salsa20.h"
#include "util/backend.h"

/* Replaced whole by arch/cortex-m4/ or arch/msp430x/ when that backend is active
 * (util/backend.h). */
#if !MB_ASM_CORTEX_M4 && !MB_ASM_MSP430X

/* 32-bit rotate by a constant; the (uint32_t) casts keep 16-bit-int targets right. */
#define ROTL32(v, n) ((uint32_t)((uint32_t)(v) << (n)) | (uint32_t)((uint32_t)(v) >> (32 - (n))))

#define QUARTER(a, b, c, d)                  \
    do {                                     \
        b ^= ROTL32((uint32_t)(a + d), 7);   \
        c ^= ROTL32((uint32_t)(b + a), 9);   \
        d ^= ROTL32((uint32_t)(c + b), 13);  \
        a ^= ROTL32((uint32_t)(d + c), 18);  \
    } while (0)

/* Load the input matrix: constants on the diagonal, key around them, in in the middle. */
static void salsa20_load(uint32_t x[16], const uint8_t in[16], const uint8_t k[32],
                         const uint8_t c[16])
{
    int i;
    for (i = 0; i < 4; i++) {
        x[5 * i] = load32_le(c + 4 * i);
        x[1 + i] = load32_le(k + 4 * i);
        x[11 + i] = load32_le(k + 16 + 4 * i);
        x[6 + i] = load32_le(in + 4 * i);
    }
}

/* Size or speed, chosen at build time. MB_SALSA20_COMPACT=1 runs the quarter-rounds
 * from an index table: one QUARTER body instead of eight. Measured on 1 KiB of
 * XSalsa20 (sizes at -Os; cycles at -O2 on SIM430 with MPY32 and on the M4 cycle
 * model, python/motebox_tools/sim/m4/): on MSP430 it is 3.7x
 * smaller (1,220 vs 4,558 bytes at -Os) and slightly faster (360 k vs 372 k cycles),
 * since the state lives in memory there anyway; on Cortex-M4, where the unrolled
 * rounds keep most words in registers, it would be 58% slower (66.9 k vs 42.4 k
 * cycles). Default: compact for the 16-bit profile (MB_RADIX 16, which the r16 host
 * build tests too), unrolled otherwise. */
#ifndef MB_SALSA20_COMPACT
#  if defined(__MSP430__) || (defined(MB_RADIX) && MB_RADIX == 16)
#    define MB_SALSA20_COMPACT 1
#  else
#    define MB_SALSA20_COMPACT 0
#  endif
#endif

#if MB_SALSA20_COMPACT
/* The eight quarter-rounds of a double round (column round, then row round), as
 * indices (a, b, c, d) into the state. The indices are public constants. */
static const uint8_t salsa20_qr[8][4] = {
    { 0, 4, 8, 12 }, { 5, 9, 13, 1 }, { 10, 14, 2, 6 }, { 15, 3, 7, 11 },
    { 0, 1, 2, 3 }, { 5, 6, 7, 4 }, { 10, 11, 8, 9 }, { 15, 12, 13, 14 }
};

/* Ten double rounds in place.
 * CT: fixed sequence of add/xor/rotate by constants at public indices; x secret. */
static void salsa20_rounds(uint32_t x[16])
{
    int i, q;
    for (i = 0; i < 10; i++) {
        for (q = 0; q < 8; q++) {
            const uint8_t *t = salsa20_qr[q];
            QUARTER(x[t[0]], x[t[1]], x[t[2]], x[t[3]]);
        }
    }
}

#else
/* Ten double rounds (column round, then row round) in place.
 * CT: fixed sequence of add/xor/rotate by constants; x may be secret. */
static void salsa20_rounds(uint32_t x[16])
{
    int i;
    for (i = 0; i < 10; i++) {
        QUARTER(x[0], x[4], x[8], x[12]);
        QUARTER(x[5], x[9], x[13], x[1]);
        QUARTER(x[10], x[14], x[2], x[6]);
        QUARTER(x[15], x[3], x[7], x[11]);
        QUARTER(x[0], x[1], x[2], x[3]);
        QUARTER(x[5], x[6], x[7], x[4]);
        QUARTER(x[10], x[11], x[8], x[9]);
        QUARTER(x[15], x[12], x[13], x[14]);
    }
}
#endif

/* CT: k secret; only fixed-index word operations; the 64-byte working state is wiped. */
void mb_salsa20_block(uint8_t out[64], const uint8_t in[16], const uint8_t k[32])
{
    uint32_t x[16];
    int i;
    salsa20_load(x, in, k, mb_salsa20_sigma);
    salsa20_rounds(x);
    /* Feed-forward: add the input matrix again, reloading it instead of keeping a copy. */
    for (i = 0; i < 4; i++) {
        store32_le(out + 20 * i, x[5 * i] + load32_le(mb_salsa20_sigma + 4 * i));
        store32_le(out + 4 * (1 + i), x[1 + i] + load32_le(k + 4 * i));
        store32_le(out + 4 * (11 + i), x[11 + i] + load32_le(k + 16 + 4 * i));
        store32_le(out + 4 * (6 + i), x[6 + i] + load32_le(in + 4 * i));
    }
    mb_wipe(x, sizeof x);
}

/* HSalsa20 outputs the diagonal and the middle row (words 0,5,10,15,6,7,8,9) without
 * the feed-forward, which is what makes it a PRF usable for key derivation.
 * CT: k and out secret; as mb_salsa20_block. */
void mb_hsalsa20_core(uint8_t out[32], const uint8_t in[16], const uint8_t k[32],
                      const uint8_t c[16])
{
    uint32_t x[16];
    int i;
    salsa20_load(x, in, k, c);
    salsa20_rounds(x);
    for (i = 0; i < 4; i++) {
        store32_le(out + 4 * i, x[5 * i]);
        store32_le(out + 16 + 4 * i, x[6 + i]);
    }
    mb_wipe(x, sizeof x);
}
#endif /* !MB_ASM_CORTEX_M4 && !MB_ASM_MSP430X */
