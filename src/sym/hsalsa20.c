/* SPDX-License-Identifier: MIT */
/* mb_hsalsa20: HSalsa20 with the standard constant. */
#include "util/ct.h"
#include "sym/salsa20.h"

/* CT: k and out secret; see hsalsa20. */
void mb_hsalsa20(uint8_t out[32], const uint8_t in[16], const uint8_t k[32])
{
    hsalsa20(out, in, k, salsa20_sigma);
}
