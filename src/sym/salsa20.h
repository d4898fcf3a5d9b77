/* SPDX-License-Identifier: MIT */
/*
 * Salsa20 family, internal interface (layer: sym). Public wrappers are mb_hsalsa20,
 * mb_xsalsa20 and mb_xsalsa20_xor in include/motebox.h.
 *
 * The Salsa20 input matrix is built from a 32-byte key k, a 16-byte input in (for
 * Salsa20: 8-byte nonce || 8-byte little-endian block counter; for HSalsa20: the first
 * 16 nonce bytes) and the constant "expand 32-byte k". The 20-round working state is 16
 * words (64 bytes); the input words are reloaded from k and in for the final addition
 * rather than copied, so no second 64-byte matrix lives on the stack ([HSSW15], 4.2).
 */
#ifndef MB_SYM_SALSA20_H
#define MB_SYM_SALSA20_H

#include <stddef.h>
#include <stdint.h>

/* out = Salsa20(k, in): one 64-byte keystream block.
 * CT: k and out secret; pure add/rotate/xor on fixed indices. */
void mb_salsa20_block(uint8_t out[64], const uint8_t in[16], const uint8_t k[32]);

/* out = HSalsa20(k, in) with the constant c (16 bytes, "expand 32-byte k" in NaCl).
 * CT: k and out secret; same rounds as mb_salsa20_block, no final addition. */
void mb_hsalsa20_core(uint8_t out[32], const uint8_t in[16], const uint8_t k[32],
                      const uint8_t c[16]);

/* The Salsa20 constant "expand 32-byte k" (sigma), 16 bytes. */
extern const uint8_t mb_salsa20_sigma[16];

/* c[0..len) = m XOR Salsa20 keystream(k, in), starting at the first byte of the block
 * whose counter is in[8..16); on return in[8..16) holds the counter of the next unused
 * block. c may equal m. CT: k and m secret; len and in public. */
void mb_salsa20_xor(uint8_t *c, const uint8_t *m, size_t len, uint8_t in[16],
                    const uint8_t k[32]);

/* XSalsa20 under (k, n): subkey = HSalsa20(k, n[0..16)), in = n[16..24) || counter 0.
 * The keystream is then mb_salsa20_block(in, subkey) for counters 0, 1, ...
 * CT: k and subkey secret. */
void mb_xsalsa20_setup(uint8_t subkey[32], uint8_t in[16], const uint8_t n[24],
                       const uint8_t k[32]);

/* Add one to the little-endian 64-bit block counter in[8..16) (public). */
void mb_salsa20_next(uint8_t in[16]);

#endif
