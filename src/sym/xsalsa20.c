/* SPDX-License-Identifier: MIT */
/* Salsa20 keystream xor and the XSalsa20 setup (HSalsa20 subkey, then Salsa20 with the
 * last 8 nonce bytes); the public mb_xsalsa20* wrappers are in src/proto/sym.c. */
#include "util/ct.h"
#include "sym/salsa20.h"

const uint8_t mb_salsa20_sigma[16] = {
    'e', 'x', 'p', 'a', 'n', 'd', ' ', '3', '2', '-', 'b', 'y', 't', 'e', ' ', 'k'
};


/* The counter is public (it counts blocks), so the carry loop may stop early. */
void mb_salsa20_next(uint8_t in[16])
{
    int i;
    for (i = 8; i < 16; i++) {
        in[i] = (uint8_t)(in[i] + 1u);
        if (in[i] != 0) break;
    }
}

/* CT: k, m and the keystream are secret; the loop structure depends on len only. */
void mb_salsa20_xor(uint8_t *c, const uint8_t *m, size_t len, uint8_t in[16],
                    const uint8_t k[32])
{
    uint8_t block[64];
    size_t i, n;
    while (len > 0) {
        mb_salsa20_block(block, in, k);
        mb_salsa20_next(in);
        n = len < 64 ? len : 64;
        for (i = 0; i < n; i++) c[i] = (uint8_t)(m[i] ^ block[i]);
        c += n;
        m += n;
        len -= n;
    }
    mb_wipe(block, sizeof block);
}

/* CT: k and subkey secret. */
void mb_xsalsa20_setup(uint8_t subkey[32], uint8_t in[16], const uint8_t n[24],
                       const uint8_t k[32])
{
    int i;
    mb_hsalsa20_core(subkey, n, k, mb_salsa20_sigma);
    for (i = 0; i < 8; i++) {
        in[i] = n[16 + i];
        in[8 + i] = 0;
    }
}
