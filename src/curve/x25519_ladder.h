/* SPDX-License-Identifier: MIT */
/* X25519 scalar multiplication on the Montgomery u-line (layer 2, internal): the ladder
 * steps (x25519_ladder_steps.c) and the whole ladder (x25519_scalarmult.c). */
#ifndef MB_X25519_LADDER_H
#define MB_X25519_LADDER_H

#include <stdint.h>
#include "field/fe25519.h"

/* Indices into the ladder state w[6] of mb_x25519_ladder_steps. */
enum { X25519_X2, X25519_Z2, X25519_X3, X25519_Z3, X25519_T0, X25519_T1 };

/* The 255 steps of the Montgomery ladder (RFC 7748 section 5) over bits k_254..k_0 of k.
 * w = {x2, z2, x3, z3, t0, t1}: on entry R0 = (x2 : z2) and R1 = (x3 : z3) with
 * R1 - R0 = P = (x1 : z1); on return (x2 : z2) = R0 after the steps, i.e. [k]P when the
 * ladder starts from R0 = neutral (rho : 0), R1 = P. z2 = 0 when the result is the
 * neutral element. x3, z3, t0, t1 are scratch; the caller wipes w.
 * z1 == NULL means z1 = 1 (affine P: one multiplication per step less).
 * Portable C in x25519_ladder_steps.c. (The Cortex-M4 backend replaces
 * mb_x25519_scalarmult whole, arch/cortex-m4/x25519_scalarmult.S, and has no use for
 * this interface.)
 * Pre: bit 255 of k is 0; w[0..3], x1, z1 are outputs of mb_fe25519_mul/sqr/frombytes/set
 * (the add/sub input rule of fe25519.h).
 * Returns 1; with MB_FAULT_HARDENED_X25519 (util/fault.h), 0 when the steps counted
 * apart are not 255 or the swaps do not bring R0 back to (x2 : z2) (a fault), and
 * used[32] = the scalar rebuilt from the swaps actually done (bits 254..0), for the
 * caller to compare with the one it meant (unused when not hardened).
 * CT: k, w, x1, z1 secret; each swap is a mask of k_i xor k_(i+1) ([DS16]), bits are
 * read at public positions. Whether z1 is NULL is public. */
uint32_t mb_x25519_ladder_steps(fe25519 w[6], const uint8_t k[32], const fe25519 *x1,
                                const fe25519 *z1, uint8_t used[32]);

/* out = u([k]P) for the u-coordinate u (bit 255 ignored, values >= p reduced), canonical
 * little-endian; all zero for the neutral element. rnd == NULL: plain ladder from
 * R0 = (1 : 0), R1 = (u : 1). Otherwise [DS16]'s Algorithm 1: P = (lambda u : lambda)
 * (both as the ladder's start R1 and as the difference of every step) and
 * R0 = (rho : 0), with lambda = the 32 bytes of rnd as a little-endian integer with bits
 * 255 and 0 cleared (2 if that is 0) and rho = lambda^2: both even and nonzero mod p.
 * Full width, so that lambda u and lambda fill every word of the field elements even
 * for a small u such as 9; even, because the radix 2^16/2^32 fields work mod
 * 2^256 - 38 = 2p, where an odd lambda leaves the residue mod 2 unrandomized (the
 * reasons in x25519_scalarmult.c and docs/SIDE_CHANNELS.md; every backend, C or
 * assembly, derives lambda and rho the same way).
 * Pre: k is already clamped (bit 255 = 0). out may alias u.
 * CT: k, rnd, out are secret; u is public. */
void mb_x25519_scalarmult(uint8_t out[32], const uint8_t k[32], const uint8_t u[32],
                          const uint8_t *rnd);

/* Portable backend only (not with MB_ASM_CORTEX_M4 / MB_ASM_MSP430X, whose assembly
 * replaces mb_x25519_scalarmult whole): as mb_x25519_scalarmult, and returns 1, or with
 * MB_FAULT_HARDENED_X25519 0 when a fault check fails (docs/FAULTS.md, "X25519"): the
 * ladder's own (step count, swaps), the final R0 and R1 satisfying the Kummer relation
 * of a difference u decoded again from u's bytes, out * z(R0) = x(R0), z(R0) nonzero
 * (so 0 for a low-order u too) and R1 not (0 : 0). chk[32] (hardened only) = the
 * scalar the ladder used (rebuilt from its swaps) XOR the result it encoded XOR the
 * bytes of u it read: the caller checks out ^ chk against k and u as it meant them,
 * which a result written to a faulted address or a ladder run on a faulted k or u
 * pointer fails. Pre and CT as above (out may alias
 * u; chk secret). */
uint32_t mb_x25519_scalarmult_checked(uint8_t out[32], const uint8_t k[32],
                                      const uint8_t u[32], const uint8_t *rnd,
                                      uint8_t chk[32]);

#endif
