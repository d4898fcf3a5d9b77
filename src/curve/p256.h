/* SPDX-License-Identifier: MIT */
/*
 * NIST P-256 points (layer 2): y^2 = x^3 - 3x + b over GF(p256), prime order n, no
 * cofactor. Points are affine (x, y) with both coordinates in Montgomery form (fep256).
 */
#ifndef MB_P256_H
#define MB_P256_H

#include <stddef.h>
#include <stdint.h>
#include "util/backend.h"
#include "field/fep256.h"
#include "curve/p256_base_table.h"

typedef struct { fep256 x, y; } p256_point;

/* ---- p256_point.c: SEC1 encodings and validation (public data only) ---- */

/* The base point G. */
void mb_p256_base_point(p256_point *G);
/* Decode SEC1: 65 bytes 04 || X || Y or 33 bytes 02/03 || X, big-endian coordinates.
 * Returns 0 for a valid point (coordinates < p, on the curve); -1 (P zeroed) for any
 * other length, a different first byte (00 = infinity included), a coordinate >= p, a
 * point off the curve, or (compressed) an X with no square root of X^3 - 3X + b. */
int mb_p256_decode(p256_point *P, const uint8_t *in, size_t len);
/* 1 if P (Montgomery form, coordinates < p) satisfies y^2 = x^3 - 3x + b, else 0.
 * CT: P may be secret (the fault checks of p256_ecdh.c test the result with it). */
uint32_t mb_p256_on_curve(const p256_point *P);
/* 04 || X || Y. */
void mb_p256_encode(uint8_t out[65], const p256_point *P);
/* 02/03 || X (03 iff y is odd). */
void mb_p256_encode_compressed(uint8_t out[33], const p256_point *P);

/* ---- p256_coz.c: scalar multiplication ---- */

/* R = k * P, k read big-endian. Pre: P valid (decoded/base), 1 <= k < n
 * (mb_p256_scalar_ok). rnd: NULL, or 32 bytes randomizing the initial Z.
 * Regular co-Z Montgomery ladder: the same sequence of field operations for every k.
 * MB_FAULT_HARDENED (util/fault.h): R = (0, 0), off the curve, when a check of the
 * scalar's recoding, bits or loop counts fails (a fault: docs/FAULTS.md).
 * CT: k, rnd and R are secret; P is public (only whether x(P) = 0 selects a path). */
void mb_p256_scalarmult(p256_point *R, const uint8_t k[32], const p256_point *P,
                        const uint8_t *rnd);

/* ---- p256_base.c: fixed-base scalar multiplication (absent with MB_NO_FIXED_BASE) ---- */

/* R = k * G, k read big-endian. Pre: 1 <= k < n (mb_p256_scalar_ok). Signed comb over
 * the generated table p256_base_table.c: the same operation sequence for every k.
 * CT: k and R are secret. */
void mb_p256_base_mul(p256_point *R, const uint8_t k[32]);

/* ---- p256_base_ops.c: its scan and mixed addition (arch/<chip>/ may replace the
 * file) ---- */

/* E = (x, y) of table[idx] (8 entries of little-endian words: x then y, Montgomery
 * form; p256_base_table.h), y negated (p - y) if neg = 1. Reads every word of every
 * entry. idx in [0, 8), neg in {0, 1}. CT: idx, neg and E secret; the table public. */
void mb_p256_base_select(fep256 E[2], const mb_p256_base_word table[8][MB_P256_BASE_WORDS],
                         uint32_t idx, uint32_t neg);

/* Q = Q + P: Q Jacobian (X, Y, Z), P affine (x, y), 8M + 3S. Leaves H = x Z^2 - X in
 * t[1] and r = y Z^3 - Y in t[2] (both 0 iff Q = P, when Q becomes (0, 0, 0) instead
 * of 2P: the caller checks). Pre: Q not at infinity, Q != -P. t: scratch, left holding
 * secrets (the caller wipes it). CT: Q, P, t secret. */
void mb_p256_base_madd(fep256 Q[3], const fep256 P[2], fep256 t[6]);

/* ---- p256_ladder.c: the ladder's two steps (arch/<chip>/ may replace the file) ---- */

/* The ladder's state: two co-Z points (X, Y only; Z is implicit) and scratch space.
 * Assembly relies on this layout: R[0].x, R[0].y, R[1].x, R[1].y, t[0..4], 32 bytes each.
 * steps (after them, so no offset moves): the portable steps (p256_ladder.c) add 1 to
 * it each, for the caller to count the steps done on its own state (docs/FAULTS.md:
 * a loop whose state pointer a fault moved goes on elsewhere, with every check of
 * its own passing); not in the MSP430X assembly build, whose steps and loop are
 * assembly (its loop keeps w in its frame and checks every step's). */
#ifndef MB_P256_STEP_COUNT      /* whether the steps count themselves in `steps` */
#define MB_P256_STEP_COUNT (!MB_ASM_MSP430X)
#endif
typedef struct {
    p256_point R[2];
    fep256 t[5];
#if MB_P256_STEP_COUNT
    uint32_t steps;
#endif
} p256_ladder;

/* Swap R[0] and R[1] if bit == 1, then XYCZ-ADDC (Rivain, Algorithm 9; 5M + 3S):
 * (R[0], R[1]) <- (R[0] - R[1], R[0] + R[1]), co-Z with Z multiplied by x1 - x0.
 * Pre: R[0], R[1] co-Z with different X. CT: bit and the whole state are secret;
 * t is left holding secrets (the caller wipes w once). */
void mb_p256_ladder_cswap_addc(p256_ladder *w, uint32_t bit);
/* XYCZ-ADD (4M + 2S): R[0] <- R[0] + R[1], R[1] <- R[1] with the new common Z.
 * Uses only t[0], t[2], t[3] as scratch (mb_p256_scalarmult keeps values in t[1], t[4]).
 * Pre, CT: as above. */
void mb_p256_ladder_add(p256_ladder *w);

/* ---- p256_ladder_loop.c: the ladder's loop (arch/<chip>/ may replace the file) ---- */

/* The ladder's bits 256 down to 1 of kw (little-endian words) in one call: for each,
 * mb_p256_ladder_cswap_addc(w, prev ^ bit) and mb_p256_ladder_add(w), prev = bit (0
 * before bit 256), so the caller continues with prev = bit 1 of kw. All of t is scratch.
 * CT: kw and the state are secret (bit positions public). */
void mb_p256_ladder_loop(p256_ladder *w, const uint32_t kw[9]);

#endif
