/* SPDX-License-Identifier: MIT */
/*
 * Poly1305 one-time authenticator, internal incremental interface (layer: sym).
 * Public wrappers: mb_poly1305, mb_poly1305_verify.
 *
 * Two parts. poly1305.c is generic: buffering of partial blocks, the padded last
 * block, wiping. The arithmetic on r and h lives behind three functions (below) in
 * poly1305_block.c / poly1305_block_r16.c, or in arch/<chip>/ files replacing one whole,
 * which alone know how r and h are stored in the state's r[5] and h[5] words:
 * - radix 2^32 and 2^64 (poly1305_block.c): five 26-bit limbs each, 32x32->64-bit
 *   products and 64-bit column sums, no data-dependent branch. 5*r is recomputed per
 *   block.
 * - radix 2^16 (poly1305_block_r16.c): ten 13-bit limbs each, two to a word (limb 2i
 *   in the low half of word i), 16x16->32-bit products and 32-bit sums only: clang for
 *   MSP430 turns some 64-bit additions into branches (docs/CONSTANT_TIME.md rule 5).
 *   On MSP430 the products are calls of the runtime's __mspabi_mpyl, which must be
 *   constant time (platforms/msp430fr5969 provides it).
 * - arch/cortex-m4/: radix 2^32, r in r[0..3] (r[4] = 0), h in h[0..4] with h[4] <= 4
 *   (arch/cortex-m4/poly1305_block.S); arch/msp430x/ the same words (poly1305_keys.S).
 * The state's size and layout stay the same for every backend (76 bytes; it is part
 * of the public mb_box_stream).
 */
#ifndef MB_SYM_POLY1305_H
#define MB_SYM_POLY1305_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t r[5];     /* clamped r, in the backend's representation */
    uint32_t h[5];     /* accumulator, in the backend's representation */
    uint32_t pad[4];   /* s: second key half, added at the end */
    uint8_t buf[16];   /* partial block */
    uint32_t used;     /* bytes in buf (public: depends on lengths only) */
} poly1305_state;

/* Start with the 32-byte one-time key k. CT: k secret. */
void mb_poly1305_init(poly1305_state *st, const uint8_t k[32]);

/* Absorb len bytes; any split gives the same result. CT: m and the state secret;
 * time depends on len and st->used only. */
void mb_poly1305_update(poly1305_state *st, const uint8_t *m, size_t len);

/* Write the tag and wipe the state. CT: the state secret. */
void mb_poly1305_final(poly1305_state *st, uint8_t tag[16]);

/* --- The backend (poly1305_block.c or arch/<chip>/); only poly1305.c calls these. --- */

/* st->r = r clamped (RFC 8439: r &= 0x0ffffffc0ffffffc0ffffffc0fffffff), st->h = 0.
 * Only st->r and st->h are written. CT: r secret. */
void mb_poly1305_setkey(poly1305_state *st, const uint8_t r[16]);

/* For each of nblocks 16-byte blocks of m: h = (h + block + hibit * 2^128) * r mod
 * 2^130-5, partially reduced. hibit = 1 for full blocks, 0 for the padded last block;
 * nblocks = 0 does nothing. m need not be aligned.
 * CT: m and the state secret; time depends on nblocks only. */
void mb_poly1305_blocks(poly1305_state *st, const uint8_t *m, size_t nblocks,
                        uint32_t hibit);

/* tag = ((h mod 2^130-5) + pad) mod 2^128, little-endian. Does not wipe (the caller
 * does). CT: h and pad secret; the final reduction selects with a mask. */
void mb_poly1305_emit(const poly1305_state *st, uint8_t tag[16]);

#endif
