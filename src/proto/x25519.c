/* SPDX-License-Identifier: MIT */
/* X25519 key agreement (RFC 7748): clamping, the all-zero check, wiping. */
#include "motebox.h"
#include "curve/x25519_ladder.h"
#include "util/ct.h"

static const uint8_t base_u[32] = { 9 };

/* out = X25519(sk, u) with rnd (or NULL) passed to the ladder. Returns 0, or -1 when out
 * is all zero (then out is already zero: nothing to clear).
 * CT: sk, rnd, out secret. The return value is computed arithmetically from out: it is
 * declassified here, as the API says a low-order pk (public) is the only cause. */
static int x25519_checked(uint8_t out[32], const uint8_t sk[32], const uint8_t u[32],
                          const uint8_t *rnd)
{
    uint8_t e[32];
    uint32_t nz;
    mb_copy(e, sk, 32);
    e[0] &= 248;
    e[31] &= 127;
    e[31] |= 64;
    mb_x25519_scalarmult(out, e, u, rnd);
    mb_wipe(e, sizeof e);
    nz = ct_nonzero32(ct_or_bytes(out, 32));     /* arithmetic, no comparison */
    return (int)nz - 1;
}

/* CT (all three): see x25519_checked; secrets as documented in motebox.h. */
int mb_x25519(uint8_t out[32], const uint8_t sk[32], const uint8_t pk[32])
{
    return x25519_checked(out, sk, pk, 0);
}

int mb_x25519_base(uint8_t pk[32], const uint8_t sk[32])
{
    return x25519_checked(pk, sk, base_u, 0);
}

int mb_x25519_randomized(uint8_t out[32], const uint8_t sk[32], const uint8_t pk[32],
                         const uint8_t rnd[32])
{
    return x25519_checked(out, sk, pk, rnd);
}
