/* SPDX-License-Identifier: MIT */
/* Poly1305 (RFC 8439 section 2.5): the generic part (buffering, padding, wiping) over
 * the backend of poly1305.h; mb_poly1305 and mb_poly1305_verify. */
#include "util/ct.h"
#include "sym/poly1305.h"

/* CT: k secret; loads only. */
void poly1305_init(poly1305_state *st, const uint8_t k[32])
{
    int i;
    poly1305_setkey(st, k);
    for (i = 0; i < 4; i++) st->pad[i] = load32_le(k + 16 + 4 * i);
    for (i = 0; i < 16; i++) st->buf[i] = 0;
    st->used = 0;
}

/* CT: m secret; branches depend on len and st->used, both functions of lengths only. */
void poly1305_update(poly1305_state *st, const uint8_t *m, size_t len)
{
    size_t full, i;
    if (st->used > 0) {
        while (len > 0 && st->used < 16) {
            st->buf[st->used++] = *m++;
            len--;
        }
        if (st->used < 16) return;
        poly1305_blocks(st, st->buf, 1, 1);
        st->used = 0;
    }
    /* buf is empty here. The tail (len mod 16 bytes) is buffered first, so that the
     * full blocks end the function in one (tail) call. */
    full = len & ~(size_t)15;
    for (i = full; i < len; i++) st->buf[i - full] = m[i];
    st->used = (uint32_t)(len - full);
    poly1305_blocks(st, m, full / 16, 1);
}

/* CT: h and pad secret (the backend's emit is constant time); used is public. */
void poly1305_final(poly1305_state *st, uint8_t tag[16])
{
    uint32_t i;
    if (st->used > 0) {
        /* Last partial block: append 1, pad with zeros, no 2^128 bit. */
        st->buf[st->used] = 1;
        for (i = st->used + 1; i < 16; i++) st->buf[i] = 0;
        poly1305_blocks(st, st->buf, 1, 0);
    }
    poly1305_emit(st, tag);
    mb_wipe(st, sizeof *st);
}

/* CT: k and m secret; the state is wiped by poly1305_final. */
void mb_poly1305(uint8_t tag[16], const uint8_t *m, size_t len, const uint8_t k[32])
{
    poly1305_state st;
    poly1305_init(&st, k);
    poly1305_update(&st, m, len);
    poly1305_final(&st, tag);
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
