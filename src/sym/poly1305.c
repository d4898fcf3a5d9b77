/* SPDX-License-Identifier: MIT */
/* Poly1305 (RFC 8439 section 2.5): the generic part (buffering, padding, wiping) over
 * the backend of poly1305.h. The public mb_poly1305* wrappers are in src/proto/sym.c. */
#include "util/ct.h"
#include "sym/poly1305.h"

/* CT: k secret; loads only. */
void mb_poly1305_init(poly1305_state *st, const uint8_t k[32])
{
    int i;
    mb_poly1305_setkey(st, k);
    for (i = 0; i < 4; i++) st->pad[i] = load32_le(k + 16 + 4 * i);
    for (i = 0; i < 16; i++) st->buf[i] = 0;
    st->used = 0;
}

/* CT: m secret; branches depend on len and st->used, both functions of lengths only. */
void mb_poly1305_update(poly1305_state *st, const uint8_t *m, size_t len)
{
    size_t full, i;
    if (st->used > 0) {
        while (len > 0 && st->used < 16) {
            st->buf[st->used++] = *m++;
            len--;
        }
        if (st->used < 16) return;
        mb_poly1305_blocks(st, st->buf, 1, 1);
        st->used = 0;
    }
    /* buf is empty here. The tail (len mod 16 bytes) is buffered first, so that the
     * full blocks end the function in one (tail) call. */
    full = len & ~(size_t)15;
    for (i = full; i < len; i++) st->buf[i - full] = m[i];
    st->used = (uint32_t)(len - full);
    mb_poly1305_blocks(st, m, full / 16, 1);
}

/* CT: h and pad secret (the backend's emit is constant time); used is public. */
void mb_poly1305_final(poly1305_state *st, uint8_t tag[16])
{
    uint32_t i;
    if (st->used > 0) {
        /* Last partial block: append 1, pad with zeros, no 2^128 bit. */
        st->buf[st->used] = 1;
        for (i = st->used + 1; i < 16; i++) st->buf[i] = 0;
        mb_poly1305_blocks(st, st->buf, 1, 0);
    }
    mb_poly1305_emit(st, tag);
    mb_wipe(st, sizeof *st);
}
