/* SPDX-License-Identifier: MIT */
/*
 * The co-Z ladder's loop over bits 256..1 of the recoded scalar (p256_coz.c), over the
 * two steps of p256_ladder.c. A file of its own so that an architecture replaces it
 * whole (arch/cortex-m4/p256_ladder.S runs the loop in one routine, the swap folded in).
 * CT: the bits of kw are secret; they reach the steps only as the masked swap's bit.
 */
#include "curve/p256.h"
#include "util/ct.h"
#include "util/backend.h"
#include "util/fault.h"

/* Replaced whole by arch/cortex-m4/ or arch/msp430x/ when that backend is active
 * (util/backend.h). */
#if !MB_ASM_CORTEX_M4 && !MB_ASM_MSP430X

void mb_p256_ladder_loop(p256_ladder *w, const uint32_t kw[9])
{
    uint32_t bit, swap = 0, c;
    int i;
#if MB_FAULT_HARDENED
    /* A faulted loop count, bit or swap multiplies by another scalar: a valid wrong
     * point no curve check sees. The steps are counted apart, and the bits are rebuilt
     * from the swap values actually passed (b = c ^ previous b) and compared with kw
     * (the barriers keep the compiler from deriving either from i or from bit); on a
     * difference the ladder's points become (0, 0), so the result is off the curve and
     * p256_ecdh.c's check refuses it. CT: kw, c, rec secret; the count is public. */
    uint32_t steps = 0, bad, b = 0, pos, rec[9] = { 0 };
    fep256 zero;
#endif
    for (i = 256; i >= 1; i--) {
        bit = (kw[i >> 5] >> (i & 31)) & 1u;
        c = ct_barrier32(swap ^ bit);
        mb_p256_ladder_cswap_addc(w, c);
        swap = bit;
        mb_p256_ladder_add(w);
#if MB_FAULT_HARDENED
        /* The bit this step used, recorded at the position the step count gives (256 -
         * steps = i, through the barrier): indexed with i's own word index, which the
         * compiler shares with the bit's load, a flipped index (the M4 sample) read a
         * bit of other memory and recorded it in other memory, so that rec still
         * matched kw at the right place. */
        b ^= c;
        pos = 256u - steps;
        rec[pos >> 5] |= b << (pos & 31);
        steps = ct_barrier32(steps + 1u);
#endif
    }
#if MB_FAULT_HARDENED
    bad = steps ^ 256u;
    bad |= rec[0] ^ (kw[0] & ~(uint32_t)1);      /* bits 256..1: bit 0 is the caller's */
    for (i = 1; i < 8; i++) bad |= rec[i] ^ kw[i];
    bad |= rec[8] ^ (kw[8] & 1u);
    bad = ct_nonzero32(bad);
    mb_wipe(&zero, sizeof zero);
    for (i = 0; i < 2; i++) {
        mb_fep256_cmov(&w->R[i].x, &zero, bad);
        mb_fep256_cmov(&w->R[i].y, &zero, bad);
    }
    mb_wipe(rec, sizeof rec);
    mb_wipe(&b, sizeof b);
#endif
    mb_wipe(&bit, sizeof bit);
    mb_wipe(&swap, sizeof swap);
    mb_wipe(&c, sizeof c);
}
#endif /* !MB_ASM_CORTEX_M4 && !MB_ASM_MSP430X */
