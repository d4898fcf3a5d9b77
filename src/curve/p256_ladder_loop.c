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

/* Replaced whole by arch/cortex-m4/ or arch/msp430x/ when that backend is active
 * (util/backend.h). */
#if !MB_ASM_CORTEX_M4 && !MB_ASM_MSP430X

void mb_p256_ladder_loop(p256_ladder *w, const uint32_t kw[9])
{
    uint32_t bit, swap = 0;
    int i;
    for (i = 256; i >= 1; i--) {
        bit = (kw[i >> 5] >> (i & 31)) & 1u;
        mb_p256_ladder_cswap_addc(w, swap ^ bit);
        swap = bit;
        mb_p256_ladder_add(w);
    }
    mb_wipe(&bit, sizeof bit);
    mb_wipe(&swap, sizeof swap);
}
#endif /* !MB_ASM_CORTEX_M4 && !MB_ASM_MSP430X */
