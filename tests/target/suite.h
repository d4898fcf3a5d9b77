/* SPDX-License-Identifier: MIT */
/* Case layouts of the generated suite_vectors.h (tests/target/gen_vectors.py). Fixed-size
 * fields are inline; variable data is a (pointer, 16-bit length) pair. Everything is
 * const so it stays in flash / FRAM. */
#ifndef MBT_SUITE_H
#define MBT_SUITE_H

#include <stdint.h>

typedef struct { const uint8_t *p; uint16_t len; } mbt_bytes;
typedef struct { const uint16_t *p; uint16_t len; } mbt_u16s;

/* out = X25519(sk, pk); ret is mb_x25519's expected return; rnd feeds the randomized
 * ladder, which must give the same out. */
typedef struct { uint8_t sk[32], pk[32], out[32], rnd[32]; int8_t ret; } mbt_x25519_case;
typedef struct { uint16_t iterations; uint8_t out[32]; } mbt_iter_case;
typedef struct { uint8_t sk[32], pk[32]; } mbt_base_case;
typedef struct { uint8_t key[32]; mbt_bytes m; uint8_t tag[16]; } mbt_poly1305_case;
/* c = tag || ciphertext, as libsodium's crypto_secretbox_easy writes it. */
typedef struct { uint8_t k[32], n[24]; mbt_bytes m, c; } mbt_secretbox_case;
typedef struct { uint8_t k[32], n[24]; mbt_bytes c, m; int8_t ret; } mbt_open_case;
/* a boxes m to b: pk_b, sk_a; k is libsodium's beforenm key. */
typedef struct {
    uint8_t sk_a[32], pk_a[32], pk_b[32], k[32], n[24];
    mbt_bytes m, c;
} mbt_box_case;
typedef struct { uint8_t sk[32], pk[32], n[24]; mbt_bytes c, m; int8_t ret; } mbt_box_open_case;
/* Encrypt m in chunks of chunks.p[0], chunks.p[1], ... (cyclically), in place or not. */
typedef struct { uint8_t k[32], n[24]; mbt_bytes m, c; mbt_u16s chunks; uint8_t inplace; } mbt_stream_case;
typedef struct { uint8_t sk[32]; mbt_bytes pk; uint8_t shared[32], rnd[32]; int8_t ret; } mbt_p256_ecdh_case;
typedef struct { uint8_t sk[32], pk[65]; int8_t ret; } mbt_p256_base_case;
typedef struct { uint8_t pk65[65], pk33[33]; } mbt_p256_enc_case;

#endif
