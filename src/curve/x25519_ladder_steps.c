/* SPDX-License-Identifier: MIT */
/* The X25519 ladder steps in portable C. (arch/cortex-m4/ has no use for them: its
 * x25519_scalarmult.S replaces x25519_scalarmult.c, the only caller, and this file.) */
#include "curve/x25519_ladder.h"
#include "field/fe25519_ops.h"   /* r64: the field ops inlined into the loop */
#include "util/ct.h"
#include "util/backend.h"
#include "util/fault.h"

/* Replaced whole by arch/cortex-m4/ or arch/msp430x/ when that backend is active
 * (util/backend.h). */
#if !MB_ASM_CORTEX_M4 && !MB_ASM_MSP430X

/* CT: see x25519_ladder.h. One step is a differential addition R1 = R0 + R1 (the
 * difference R1 - R0 is always P = (x1 : z1)) and a doubling R0 = 2 R0: RFC 7748's
 * formulas with the difference projective (x3 = z1 (DA + CB)^2, z3 = x1 (DA - CB)^2)
 * and z2 = E (BB + 121666 E), equal to E (AA + 121665 E) since AA = BB + E.
 * Two temporaries only (t0, t1), in the same order as the assembly version. */
#if FE_OPS_INLINE && defined(__GNUC__)
/* r64 on x86-64: the inlined loop's speed depended on where the linker put it (host
 * bench with the code shifted by 16-byte steps: a few placements were far slower);
 * starting it on a 64-byte line made every placement tried equally fast. */
__attribute__((aligned(64)))
#endif
uint32_t mb_x25519_ladder_steps(fe25519 w[6], const uint8_t k[32], const fe25519 *x1,
                                const fe25519 *z1, uint8_t used[32])
{
    uint32_t swap = 0, bit;
    int t;
#if MB_FAULT_HARDENED_X25519
    /* A faulted loop count, bit, swap or k pointer multiplies by another scalar, with
     * every point consistent (no curve relation sees it). The steps are counted apart
     * from t, and the bits are rebuilt from the swap values actually passed (b ^= each
     * swap: the bit of that step; after the final swap b is 0 again) into used, which
     * the caller compares with the scalar it meant (x25519.c clamps sk again). The
     * barriers keep the compiler from deriving either from t or from bit.
     * CT: k, c, b, used secret; the count is public. */
    uint32_t steps = 0, b = 0, c, bad;
    int i;
    for (i = 0; i < 32; i++) used[i] = 0;
#else
    (void)used;
#endif
#if FE_OPS_INLINE
    /* r64 (field ops inlined): the state in locals that nothing else can alias, so the
     * compiler keeps limbs in registers across operations (measured faster than
     * working in w). Copied back and wiped at the end. */
    fe25519 l[6], x1c = *x1, z1c;
    fe25519 *x2 = &l[X25519_X2], *z2 = &l[X25519_Z2], *x3 = &l[X25519_X3];
    fe25519 *z3 = &l[X25519_Z3], *t0 = &l[X25519_T0], *t1 = &l[X25519_T1];
    l[X25519_X2] = w[X25519_X2]; l[X25519_Z2] = w[X25519_Z2];
    l[X25519_X3] = w[X25519_X3]; l[X25519_Z3] = w[X25519_Z3];
    x1 = &x1c;
    if (z1) {       /* public */
        z1c = *z1;
        z1 = &z1c;
    }
#else
    fe25519 *x2 = &w[X25519_X2], *z2 = &w[X25519_Z2], *x3 = &w[X25519_X3];
    fe25519 *z3 = &w[X25519_Z3], *t0 = &w[X25519_T0], *t1 = &w[X25519_T1];
#endif

    for (t = 254; t >= 0; t--) {
        /* Position t is public; only the bit's value is secret. */
        bit = (uint32_t)(k[t >> 3] >> (t & 7)) & 1u;
        swap ^= bit;
        fe_cswap(x2, x3, swap);
        fe_cswap(z2, z3, swap);
#if MB_FAULT_HARDENED_X25519
        c = ct_barrier32(swap);
        b ^= c;                                  /* the bit this step used */
        used[t >> 3] |= (uint8_t)(b << (t & 7));
        steps = ct_barrier32(steps + 1u);
#endif
        swap = bit;

        fe_add(t0, x2, z2);             /* t0 = A */
        fe_sub(x2, x2, z2);             /* x2 = B */
        fe_add(z2, x3, z3);             /* z2 = C */
        fe_sub(x3, x3, z3);             /* x3 = D */
        fe_mul(x3, x3, t0);             /* x3 = DA */
        fe_mul(z2, z2, x2);             /* z2 = CB */
        fe_sqr(t0, t0);                 /* t0 = AA */
        fe_sqr(x2, x2);                 /* x2 = BB */
        fe_add(t1, x3, z2);             /* t1 = DA + CB */
        fe_sub(z3, x3, z2);             /* z3 = DA - CB */
        fe_sqr(x3, t1);
        if (z1) fe_mul(x3, x3, z1);     /* x3 = z1 (DA + CB)^2 */
        fe_sqr(z3, z3);
        fe_mul(z3, z3, x1);             /* z3 = x1 (DA - CB)^2 */
        fe_sub(z2, t0, x2);             /* z2 = E = AA - BB */
        fe_mul121666_add(t1, z2, x2);   /* t1 = BB + 121666 E */
        fe_mul(x2, t0, x2);             /* x2 = AA BB */
        fe_mul(z2, z2, t1);             /* z2 = E (BB + 121666 E) */
    }
    fe_cswap(x2, x3, swap);
    fe_cswap(z2, z3, swap);
#if MB_FAULT_HARDENED_X25519
    b ^= ct_barrier32(swap);                     /* back to 0: R0 left in (x2 : z2) */
    bad = ct_nonzero32((steps ^ 255u) | b);
    c = b = 0;
    MB_BARRIER(c);
    MB_BARRIER(b);
#endif

#if FE_OPS_INLINE
    w[X25519_X2] = l[X25519_X2]; w[X25519_Z2] = l[X25519_Z2];
    w[X25519_X3] = l[X25519_X3]; w[X25519_Z3] = l[X25519_Z3];
    mb_wipe(l, sizeof l);
    mb_wipe(&x1c, sizeof x1c);
    mb_wipe(&z1c, sizeof z1c);
#endif
    swap = bit = 0;
    MB_BARRIER(swap);
    MB_BARRIER(bit);
#if MB_FAULT_HARDENED_X25519
    return 1u ^ bad;
#else
    return 1;
#endif
}
#endif /* !MB_ASM_CORTEX_M4 && !MB_ASM_MSP430X */
