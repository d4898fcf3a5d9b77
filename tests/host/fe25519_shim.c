/* SPDX-License-Identifier: MIT */
/* Test-only shim (never part of libmotebox): exposes the internal GF(2^255-19) backend
 * to Python in batches, as raw representation bytes in and out, so tests/test_fe25519.py
 * can check every operation against Python integers. Built per radix into
 * build/host/rNN/libfe25519_test.so by mk/checks.mk. */
#include <stdint.h>
#include <string.h>
#include "field/fe25519.h"
#include "curve/x25519_ladder.h"

enum { OP_ADD, OP_SUB, OP_MUL, OP_SQR, OP_MUL121666, OP_INVERT, OP_COPY, OP_FROMBYTES,
       OP_TOBYTES, OP_ISZERO, OP_SET, OP_CSWAP };
#define ALIAS_F 0x100   /* compute in place: h aliases f */
#define ALIAS_G 0x200   /* h aliases g */

int fet_radix(void);
size_t fet_size(void);
int fet_run(int op, size_t n, const uint8_t *a, const uint8_t *b, const uint8_t *bits,
            uint8_t *out);

void fet_ladder(uint8_t x[32], uint8_t z[32], const uint8_t k[32], const uint8_t u[32],
                const uint8_t *rnd);

/* 25 for the radix-2^25.5 backend (built as MB_RADIX=25, which util/backend.h turns into 32). */
int fet_radix(void) { return MB_FE25519_R25 ? 25 : MB_RADIX; }

/* The projective result (X : Z) of the ladder, canonical bytes, as mb_x25519_scalarmult
 * sets it up: plain (rnd == NULL) or randomized (lambda, rho from rnd as documented in
 * src/curve/x25519_ladder.h, re-derived here from the documented rule). k must be
 * clamped. */
void fet_ladder(uint8_t x[32], uint8_t z[32], const uint8_t k[32], const uint8_t u[32],
                const uint8_t *rnd)
{
    fe25519 w[6], x1, lambda;
    uint8_t used[32];       /* the swaps the ladder did (fault hardening): unused here */
    mb_fe25519_frombytes(&x1, u);
    mb_fe25519_set(&w[X25519_Z2], 0);
    if (rnd) {
        uint8_t s[32];
        int i, nz = 0;
        for (i = 0; i < 32; i++) s[i] = rnd[i];
        s[0] &= 0xfe;
        s[31] &= 0x7f;
        for (i = 0; i < 32; i++) nz |= s[i];
        if (!nz) s[0] = 2;
        mb_fe25519_frombytes(&lambda, s);
        mb_fe25519_sqr(&w[X25519_X2], &lambda);
        mb_fe25519_mul(&x1, &x1, &lambda);
        w[X25519_X3] = x1;
        w[X25519_Z3] = lambda;
        (void)mb_x25519_ladder_steps(w, k, &x1, &lambda, used);
    } else {
        mb_fe25519_set(&w[X25519_X2], 1);
        w[X25519_X3] = x1;
        mb_fe25519_set(&w[X25519_Z3], 1);
        (void)mb_x25519_ladder_steps(w, k, &x1, 0, used);
    }
    mb_fe25519_tobytes(x, &w[X25519_X2]);
    mb_fe25519_tobytes(z, &w[X25519_Z2]);
}
size_t fet_size(void) { return sizeof(fe25519); }

/* a, b: n representations (sizeof(fe25519) bytes each; 32 bytes for FROMBYTES, 2 bytes
 * little-endian for SET). out: n results (32 bytes for TOBYTES, 4 for ISZERO, two
 * representations for CSWAP). Returns -1 for an unknown op. */
int fet_run(int op, size_t n, const uint8_t *a, const uint8_t *b, const uint8_t *bits,
            uint8_t *out)
{
    const size_t S = sizeof(fe25519);
    int base = op & 0xff, alias = op & ~0xff;
    size_t i;
    for (i = 0; i < n; i++) {
        fe25519 f, g, h;
        const uint8_t *ai = a + i * S, *bi = b ? b + i * S : 0;
        switch (base) {
        case OP_FROMBYTES: mb_fe25519_frombytes(&h, a + 32 * i); memcpy(out + i * S, &h, S); continue;
        case OP_SET: mb_fe25519_set(&h, (uint16_t)(a[2 * i] | (a[2 * i + 1] << 8)));
                     memcpy(out + i * S, &h, S); continue;
        default: break;
        }
        memcpy(&f, ai, S);
        if (bi) memcpy(&g, bi, S);
        switch (base) {
        case OP_ADD: case OP_SUB: case OP_MUL: {
            void (*fn)(fe25519 *, const fe25519 *, const fe25519 *) =
                base == OP_ADD ? mb_fe25519_add : base == OP_SUB ? mb_fe25519_sub : mb_fe25519_mul;
            if (alias == ALIAS_F) { fn(&f, &f, &g); h = f; }
            else if (alias == ALIAS_G) { fn(&g, &f, &g); h = g; }
            else fn(&h, &f, &g);
            break;
        }
        case OP_SQR: case OP_MUL121666: case OP_INVERT: case OP_COPY: {
            void (*fn)(fe25519 *, const fe25519 *) =
                base == OP_SQR ? mb_fe25519_sqr : base == OP_MUL121666 ? mb_fe25519_mul121666 :
                base == OP_INVERT ? mb_fe25519_invert : mb_fe25519_copy;
            if (alias) { fn(&f, &f); h = f; } else fn(&h, &f);
            break;
        }
        case OP_TOBYTES: mb_fe25519_tobytes(out + 32 * i, &f); continue;
        case OP_ISZERO: {
            uint32_t z = mb_fe25519_iszero(&f);
            memcpy(out + 4 * i, &z, 4);
            continue;
        }
        case OP_CSWAP:
            mb_fe25519_cswap(&f, &g, bits[i]);
            memcpy(out + 2 * i * S, &f, S);
            memcpy(out + (2 * i + 1) * S, &g, S);
            continue;
        default: return -1;
        }
        memcpy(out + i * S, &h, S);
    }
    return 0;
}
