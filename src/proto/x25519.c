/* SPDX-License-Identifier: MIT */
/* X25519 key agreement (RFC 7748): clamping, the all-zero check, wiping. */
#include "motebox.h"
#include "curve/x25519_ladder.h"
#include "curve/x25519_base.h"
#include "util/ct.h"
#include "util/backend.h"
#include "util/fault.h"
#include <limits.h>

#ifdef MB_NO_FIXED_BASE
static const uint8_t base_u[32] = { 9 };
#endif

/* clamp and zero_check serve both the ladder's and the comb's paths; on the MSP430 they
 * stay out of line (two inlined copies of each cost about 300 bytes of code there;
 * elsewhere inlining saves about 200 cycles a call). */
#if defined(__MSP430__) && (defined(__GNUC__) || defined(__clang__))
#define X25519_NOINLINE __attribute__((noinline))
#else
#define X25519_NOINLINE
#endif

/* MB_FAULT_HARDENED_X25519_TWICE (util/fault.h): with an assembly backend, whose
 * mb_x25519_scalarmult has no internal checks, mb_x25519 computes the result twice and
 * compares (twice the cost, hence a switch of its own; docs/FAULTS.md, "X25519"). */
#define X25519_ASM (MB_ASM_CORTEX_M4 || MB_ASM_MSP430X)

/* 32-bit int: release's second pass in words at fixed offsets. 16-bit int (MSP430):
 * byte loops through computed pointers, and the extra steps of the hardened X25519 that
 * they need (release, rebuild, x25519_checked). */
#if (defined(__GNUC__) || defined(__clang__)) && UINT_MAX > 0xffffu
#define RELEASE_WORDS 1
#else
#define RELEASE_WORDS 0
#endif

/* e = sk clamped (RFC 7748). CT: sk, e secret; fixed bit operations. */
static X25519_NOINLINE void clamp(uint8_t e[32], const uint8_t sk[32])
{
    mb_copy(e, sk, 32);
    e[0] &= 248;
    e[31] &= 127;
    e[31] |= 64;
}

/* 0, or -1 when out is all zero (then out is already zero: nothing to clear).
 * CT: out secret. The return value is computed arithmetically from out: it is
 * declassified here, as the API says a low-order pk (public) is the only cause. */
static X25519_NOINLINE int zero_check(const uint8_t out[32])
{
    uint32_t nz = ct_nonzero32(ct_or_bytes(out, 32));     /* arithmetic, no comparison */
    return (int)nz - 1;
}

#if MB_FAULT_HARDENED_X25519
/* r = X25519(sk clamped, u) and c[32], the check bytes result_check verifies; returns 1
 * if the backend's own checks passed, else 0. Portable: the ladder's checks, and c =
 * the scalar rebuilt from the ladder's swaps XOR the result it encoded XOR the bytes
 * of u it read (mb_x25519_scalarmult_checked). Assembly with
 * MB_FAULT_HARDENED_X25519_TWICE: c = a second computation, from sk2 clamped again and
 * u2 (sk's and u's addresses as the caller kept them in memory: a faulted pointer to
 * sk, e or u or a faulted copy then changes one computation only). Assembly without
 * it: c = the clamped scalar (only a faulted clamp or copy shows). r, c do not alias u
 * (x25519_checked passes locals). CT: sk, rnd, r, c secret. */
static MB_NOINLINE uint32_t scalarmult_verified(uint8_t r[32], uint8_t c[32],
                                                const uint8_t sk[32], const uint8_t sk2[32],
                                                const uint8_t u[32], const uint8_t u2[32],
                                                const uint8_t *rnd)
{
    uint8_t e[32];
    uint32_t ok = 1;
    clamp(e, sk);
#if !X25519_ASM
    (void)sk2;
    (void)u2;
    ok = mb_x25519_scalarmult_checked(r, e, u, rnd, c);
#elif MB_FAULT_HARDENED_X25519_TWICE
    mb_x25519_scalarmult(r, e, u, rnd);
    clamp(e, sk2);
    mb_x25519_scalarmult(c, e, u2, rnd);
#else
    (void)sk2;
    (void)u2;
    mb_x25519_scalarmult(r, e, u, rnd);
    mb_copy(c, e, 32);
#endif
    mb_wipe(e, sizeof e);
    return ok;
}

#if !RELEASE_WORDS && !X25519_ASM
/* Portable, byte-loop targets: c = the scalar ^ the result ^ u becomes the result
 * (c ^= sk clamped ^ u), a second copy of it that result_check compares with r and
 * x25519_checked with the released output. Before result_check: a fault here that
 * damages c or r then fails that check, and nothing is released. sk and u are read
 * before out is written (out may alias them). CT: c, sk secret; u public. */
static MB_NOINLINE void rebuild(uint8_t c[32], const uint8_t sk[32], const uint8_t u[32])
{
    uint8_t e[32];
    int i;
    clamp(e, sk);
    MB_NO_UNROLL
    for (i = 0; i < 32; i++) c[i] ^= e[i] ^ u[i];
    mb_wipe(e, sizeof e);
}
#endif

/* 1 if r and c agree with sk clamped again here and u (read through the address the
 * caller kept in memory), or for the two computations with each other, else 0:
 * portable, r ^ c = the scalar ^ u, so the ladder ran on this scalar and this u and its
 * result is in r (not at an address a fault moved; 16-bit int: r = c, c rebuilt into the
 * result first); two computations, r = c; otherwise c = the scalar. CT: r, c, sk
 * secret; u public. */
static MB_NOINLINE uint32_t result_check(const uint8_t r[32], const uint8_t c[32],
                                         const uint8_t sk[32], const uint8_t u[32])
{
    uint8_t e2[32];
    uint32_t d = 0;
    int i;
#if X25519_ASM || !RELEASE_WORDS
    (void)u;
#endif
#if X25519_ASM && !MB_FAULT_HARDENED_X25519_TWICE
    (void)r;
#endif
    clamp(e2, sk);
    for (i = 0; i < 32; i++) {
#if !X25519_ASM && RELEASE_WORDS
        d |= (uint32_t)(r[i] ^ c[i] ^ e2[i] ^ u[i]);
#elif !X25519_ASM || MB_FAULT_HARDENED_X25519_TWICE
        d |= (uint32_t)(r[i] ^ c[i]);
#else
        d |= (uint32_t)(c[i] ^ e2[i]);
#endif
    }
    mb_wipe(e2, sizeof e2);
    return 1u ^ ct_nonzero32(d);
}

/* 32-bit int: out[i] = r[i] & mask, then out2[i] &= r2[i] & mask2 (16-bit int: three
 * AND-only passes, below), out and out2 being the same
 * buffer passed twice, r and r2 too (each pass has its own pointers): a byte whose
 * first AND a fault skipped is still cleared, and whatever the first pass wrote (from a
 * faulted source pointer: other memory; through a faulted destination pointer: bytes
 * moved) keeps only the bits of r at its place. The second pass as words at fixed
 * offsets where the compiler knows unaligned words (no loop pointer whose flipped bit
 * moves the rest of the pass: stream.c's final had one). Out of line (util/fault.h).
 * CT: r, masks secret. */
static MB_NOINLINE void release(uint8_t out[32], uint8_t out2[32], const uint8_t r[32],
                                const uint8_t r2[32], uint8_t mask, uint8_t mask2)
{
    int i;
#if RELEASE_WORDS
    MB_NO_UNROLL
    for (i = 0; i < 32; i++) out[i] = r[i] & mask;
    {
        typedef uint32_t __attribute__((aligned(1), may_alias)) uword;
        uword *w = (uword *)(void *)out2;
        const uword *v = (const uword *)(const void *)r2;
        uint32_t m2 = ct_mask32(mask2);
        w[0] &= v[0] & m2;
        w[1] &= v[1] & m2;
        w[2] &= v[2] & m2;
        w[3] &= v[3] & m2;
        w[4] &= v[4] & m2;
        w[5] &= v[5] & m2;
        w[6] &= v[6] & m2;
        w[7] &= v[7] & m2;
    }
#else
    /* Byte loops through computed pointers (16-bit int: MSP430 has no register index):
     * a skipped pointer load sends a byte to r + 2i. So every pass into out is an AND
     * (out first set to all ones through a volatile pointer, which the compiler cannot
     * fold away): one fault then only clears bits, of out or of r, and the other pass
     * clears any bit a flip set (x25519_checked also checks out against c). */
    {
        volatile uint8_t *v = out;
        MB_NO_UNROLL
        for (i = 0; i < 32; i++) v[i] = 0xff;
    }
    MB_NO_UNROLL
    for (i = 0; i < 32; i++) out[i] &= r[i] & mask;
    MB_NO_UNROLL
    for (i = 0; i < 32; i++) out2[i] &= r2[i] & mask2;
#endif
}

/* 1 if the 32 bytes at a and b are equal, else 0 (out of line). CT: a, b secret. */
static MB_NOINLINE uint32_t equal32(const uint8_t a[32], const uint8_t b[32])
{
    uint32_t d = 0;
    int i;
    for (i = 0; i < 32; i++) d |= (uint32_t)(a[i] ^ b[i]);
    return 1u ^ ct_nonzero32(d);
}
#endif

/* out = X25519(sk, u) with rnd (or NULL) passed to the ladder; return as zero_check.
 * Hardened (MB_FAULT_HARDENED_X25519, util/fault.h; docs/FAULTS.md "X25519"): the
 * result goes to a local r (out may alias u); three verdicts (r not zero, the
 * backend's checks, result_check), each stored in volatile memory (0 until its check
 * stores it); out released from r through a mask from all three, then one from the
 * stored verdicts (release); then out is compared with r, and where release works in
 * byte loops (16-bit int) with c too, the result again (a fault in the release returns
 * -1); the return value is computed from the four verdicts last (as box.c's open: a
 * skipped store, load, decrement or OR leaves -1).
 * CT: sk, rnd, out secret. */
static int x25519_checked(uint8_t out[32], const uint8_t sk[32], const uint8_t u[32],
                          const uint8_t *rnd)
{
#if MB_FAULT_HARDENED_X25519
    uint8_t r[32], c[32];
    uint32_t ok0, ok1, ok2;
    volatile uint32_t verdict[4];
    /* the caller's out kept in memory from the entry: the release and the last
     * comparison go through it, not through a register copy (as in stream.c's final,
     * where the campaign found a flipped copy) */
    uint8_t *volatile out_at = out;
    const uint8_t *volatile u_at = u;   /* likewise u and sk (result_check, the */
    const uint8_t *volatile sk_at = sk; /* second computation) */
    uint8_t *volatile r_at = r;         /* r's address for release's second pass */
    verdict[0] = 0;
    verdict[1] = 0;
    verdict[2] = 0;
    verdict[3] = 0;
    ok1 = scalarmult_verified(r, c, sk, sk_at, u, u_at, rnd);
    verdict[1] = ok1 & 1u;
#if !RELEASE_WORDS && !X25519_ASM
    rebuild(c, sk_at, u_at);            /* c = the result, checked against r next */
#endif
    ok2 = result_check(r, c, sk_at, u_at);
    verdict[2] = ok2 & 1u;
    ok0 = (uint32_t)(zero_check(r) + 1);
    verdict[0] = ok0 & 1u;
    release(out_at, out_at, r, r_at, (uint8_t)ct_mask32(ok0 & ok1 & ok2),
            (uint8_t)ct_mask32(verdict[0] & verdict[1] & verdict[2]));
#if RELEASE_WORDS
    verdict[3] = equal32(out_at, r) & 1u;
#else
    /* The byte loops address through computed pointers (MSP430: no register index):
     * one skipped pointer load made a pass write into r itself (the campaign found
     * r[2i] = r[i] & mask, then out matched the damaged r), so out is also compared
     * with c, the result again (the second computation; portable: rebuilt above),
     * which release does not touch. */
    verdict[3] = (equal32(out_at, r) & equal32(out_at, c)) & 1u;
#endif
    /* the wipes last: nothing writes near r between the checks and the release (a
     * faulted pointer of an earlier wipe of c cleared part of r, then released) */
    mb_wipe(c, sizeof c);
    mb_wipe(r, sizeof r);
    return ((int)verdict[0] - 1) | ((int)verdict[1] - 1) | ((int)verdict[2] - 1) |
           ((int)verdict[3] - 1);
#else
    uint8_t e[32];
    clamp(e, sk);
    mb_x25519_scalarmult(out, e, u, rnd);
    mb_wipe(e, sizeof e);
    return zero_check(out);
#endif
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
