/* SPDX-License-Identifier: MIT */
/*
 * Poly1305 one-time authenticator, internal incremental interface (layer: sym).
 * Public wrappers: mb_poly1305, mb_poly1305_verify.
 *
 * Arithmetic mod 2^130-5 in five 26-bit limbs held in uint32_t, with 32x32->64-bit
 * products and no data-dependent branch: the same code is constant time on 16-, 32-
 * and 64-bit targets provided the multiply is. On MSP430, clang lowers each product
 * to a call of the runtime's __mspabi_mpyll (and x*5 to __mspabi_mpyl), which must
 * therefore be constant time (platforms/msp430fr5969 provides it). 5*r is recomputed
 * per block instead of stored, to keep the state small (76 bytes).
 */
#ifndef MB_SYM_POLY1305_H
#define MB_SYM_POLY1305_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t r[5];     /* clamped r, 26-bit limbs */
    uint32_t h[5];     /* accumulator, limbs < 2^26 (+ small) between blocks */
    uint32_t pad[4];   /* s: second key half, added at the end */
    uint8_t buf[16];   /* partial block */
    uint32_t used;     /* bytes in buf (public: depends on lengths only) */
} poly1305_state;

/* Start with the 32-byte one-time key k. CT: k secret. */
void poly1305_init(poly1305_state *st, const uint8_t k[32]);

/* Absorb len bytes; any split gives the same result. CT: m and the state secret;
 * time depends on len and st->used only. */
void poly1305_update(poly1305_state *st, const uint8_t *m, size_t len);

/* h = (h + b + hibit * 2^128) * r mod 2^130-5, partially reduced: one 16-byte block
 * (hibit = 1) or the padded last block (hibit = 0). poly1305_block.c, or arch/<chip>/.
 * CT: b and the state secret. */
void poly1305_block(poly1305_state *st, const uint8_t b[16], uint32_t hibit);

/* Write the tag and wipe the state. CT: the state secret. */
void poly1305_final(poly1305_state *st, uint8_t tag[16]);

#endif
