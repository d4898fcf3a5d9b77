/* SPDX-License-Identifier: MIT */
/* X25519 key agreement (RFC 7748): clamping, the all-zero check, wiping. */
#include "motebox.h"
#include "curve/x25519_ladder.h"
#include "curve/x25519_base.h"
#include "util/ct.h"

#ifdef MB_NO_FIXED_BASE
static const uint8_t base_u[32] = { 9 };
#endif

/* clamp and zero_check serve both the ladder's and the comb's paths; on the MSP430 they
 * stay out of line (two inlined copies of each cost about 300 bytes of code there;
 * elsewhere inlining saves about 200 cycles a call). */
#if defined(__MSP430__) && (defined(__GNUC__) || defined(__clang__))
#define MB_NOINLINE __attribute__((noinline))
#else
#define MB_NOINLINE
#endif

/* e = sk clamped (RFC 7748). CT: sk, e secret; fixed bit operations. */
static MB_NOINLINE void clamp(uint8_t e[32], const uint8_t sk[32])
{
    mb_copy(e, sk, 32);
    e[0] &= 248;
    e[31] &= 127;
    e[31] |= 64;
}

/* 0, or -1 when out is all zero (then out is already zero: nothing to clear).
 * CT: out secret. The return value is computed arithmetically from out: it is
 * declassified here, as the API says a low-order pk (public) is the only cause. */
static MB_NOINLINE int zero_check(const uint8_t out[32])
{
    uint32_t nz = ct_nonzero32(ct_or_bytes(out, 32));     /* arithmetic, no comparison */
    return (int)nz - 1;
}

/* out = X25519(sk, u) with rnd (or NULL) passed to the ladder; return as zero_check.
 * CT: sk, rnd, out secret. */
static int x25519_checked(uint8_t out[32], const uint8_t sk[32], const uint8_t u[32],
                          const uint8_t *rnd)
{
    uint8_t e[32];
    clamp(e, sk);
    mb_x25519_scalarmult(out, e, u, rnd);
    mb_wipe(e, sizeof e);
    return zero_check(out);
}

/* CT (all three): see x25519_checked; secrets as documented in motebox.h. */
int mb_x25519(uint8_t out[32], const uint8_t sk[32], const uint8_t pk[32])
{
    return x25519_checked(out, sk, pk, 0);
}

/* The fixed-base comb (src/curve/x25519_base.c), or the ladder from u = 9 with
 * MB_NO_FIXED_BASE. Kept apart from mb_x25519's path, so that key agreement alone does
 * not link the table. */
int mb_x25519_base(uint8_t pk[32], const uint8_t sk[32])
{
#ifndef MB_NO_FIXED_BASE
    uint8_t e[32];
    clamp(e, sk);
    mb_x25519_base_scalarmult(pk, e);
    mb_wipe(e, sizeof e);
    return zero_check(pk);
#else
    return x25519_checked(pk, sk, base_u, 0);
#endif
}

int mb_x25519_randomized(uint8_t out[32], const uint8_t sk[32], const uint8_t pk[32],
                         const uint8_t rnd[32])
{
    return x25519_checked(out, sk, pk, rnd);
}
