/* SPDX-License-Identifier: MIT */
/* The public symmetric primitives of motebox.h (mb_hsalsa20, mb_xsalsa20,
 * mb_xsalsa20_xor, mb_poly1305, mb_poly1305_verify): thin wrappers over src/sym/. */
#include "motebox.h"
#include "util/ct.h"
#include "sym/poly1305.h"
#include "sym/salsa20.h"

/* CT: k and out secret; see mb_hsalsa20_core. */
void mb_hsalsa20(uint8_t out[32], const uint8_t in[16], const uint8_t k[32])
{
    mb_hsalsa20_core(out, in, k, mb_salsa20_sigma);
}

/* CT: k and m secret; the subkey is wiped. */
void mb_xsalsa20_xor(uint8_t *c, const uint8_t *m, size_t len, const uint8_t n[24],
                     const uint8_t k[32])
{
    uint8_t subkey[32], in[16];
    mb_xsalsa20_setup(subkey, in, n, k);
    mb_salsa20_xor(c, m, len, in, subkey);
    mb_wipe(subkey, sizeof subkey);
}

/* The keystream is the encryption of zeros: clear c, then xor it in place.
 * CT: k secret. */
void mb_xsalsa20(uint8_t *c, size_t len, const uint8_t n[24], const uint8_t k[32])
{
    mb_wipe(c, len);   /* a loop the compiler cannot turn into a memset call */
    mb_xsalsa20_xor(c, c, len, n, k);
}

/* CT: k and m secret; the state is wiped by mb_poly1305_final. */
void mb_poly1305(uint8_t tag[16], const uint8_t *m, size_t len, const uint8_t k[32])
{
    poly1305_state st;
    mb_poly1305_init(&st, k);
    mb_poly1305_update(&st, m, len);
    mb_poly1305_final(&st, tag);
}

/* CT: k secret; the comparison is mb_verify16 (constant time); the computed tag is
 * wiped. The result (accept/reject) is public. */
int mb_poly1305_verify(const uint8_t tag[16], const uint8_t *m, size_t len,
                       const uint8_t k[32])
{
    uint8_t t[16];
    int r;
    mb_poly1305(t, m, len, k);
    r = mb_verify16(t, tag);
    mb_wipe(t, sizeof t);
    return r;
}
