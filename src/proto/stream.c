/* SPDX-License-Identifier: MIT */
/* Streaming secretbox ([HSSW15]'s INIT / UPDATE / FINALIZE, any chunk sizes) and the
 * two-pass open of long boxes kept in external memory. */
#include "util/ct.h"
#include "sym/salsa20.h"
#include "sym/poly1305.h"

/* The private layout behind mb_box_stream. ks holds the current keystream block, of
 * which ks[pos..64) is still unused; in holds the counter of the next block. */
struct stream_state {
    poly1305_state mac;   /* 76 bytes */
    uint8_t subkey[32];   /* HSalsa20(k, n[0..16)) */
    uint8_t in[16];       /* n[16..24) || next block counter */
    uint8_t ks[64];
    uint32_t pos;         /* public: a function of the lengths seen so far */
};

/* Compile-time check that the private state fits the public opaque type. (Alignment:
 * both hold uint32_t members, nothing wider.) */
typedef char stream_state_fits[(sizeof(struct stream_state) <= sizeof(mb_box_stream)) ? 1 : -1];

static struct stream_state *state_of(mb_box_stream *s)
{
    return (struct stream_state *)(void *)s;
}

size_t mb_box_stream_size(void)
{
    return sizeof(mb_box_stream);
}

/* INIT (and [HSSW15]'s FIRST, folded in): block 0 gives the Poly1305 key from its first
 * 32 bytes; its last 32 bytes are the first keystream bytes of the message.
 * CT: k secret; the Poly1305 key is wiped from ks once absorbed. */
void mb_box_stream_init(mb_box_stream *s, const uint8_t k[32], const uint8_t n[24])
{
    struct stream_state *st = state_of(s);
    mb_wipe(s, sizeof *s);
    mb_xsalsa20_setup(st->subkey, st->in, n, k);
    mb_salsa20_block(st->ks, st->in, st->subkey);
    mb_salsa20_next(st->in);
    mb_poly1305_init(&st->mac, st->ks);
    mb_wipe(st->ks, 32);
    st->pos = 32;
}

#if defined(__GNUC__) || defined(__clang__)
typedef uint32_t __attribute__((may_alias)) word32;   /* may alias the byte buffers */
#endif

/* c = m ^ ks over n bytes, zeroing the used keystream (it is not kept). Whole words when
 * all three addresses are word-aligned: the byte loop was most of a 64-byte update on
 * the Cortex-M4. c may equal m. CT: m, ks secret; the addresses and n are public. */
static void xor_used_keystream(uint8_t *c, const uint8_t *m, uint8_t *ks, size_t n)
{
    size_t i = 0;
#if defined(__GNUC__) || defined(__clang__)
    if ((((uintptr_t)c | (uintptr_t)m | (uintptr_t)ks) & 3u) == 0) {
        for (; i + 4 <= n; i += 4) {
            *(word32 *)(void *)(c + i) = *(const word32 *)(const void *)(m + i) ^
                                         *(word32 *)(void *)(ks + i);
            *(word32 *)(void *)(ks + i) = 0;
        }
    }
#endif
    for (; i < n; i++) {
        c[i] = (uint8_t)(m[i] ^ ks[i]);
        ks[i] = 0;
    }
}

/* UPDATE. The bytes are encrypted first, then the ciphertext just written is fed to
 * Poly1305, so c == m works and the tag covers exactly what was output.
 * CT: m, the keystream and the state secret; branches depend on len and pos only. */
void mb_box_stream_update(mb_box_stream *s, uint8_t *c, const uint8_t *m, size_t len)
{
    struct stream_state *st = state_of(s);
    size_t n;
    while (len > 0) {
        if (st->pos == 64) {
            mb_salsa20_block(st->ks, st->in, st->subkey);
            mb_salsa20_next(st->in);
            st->pos = 0;
        }
        n = 64 - (size_t)st->pos;
        if (n > len) n = len;
        xor_used_keystream(c, m, st->ks + st->pos, n);
        mb_poly1305_update(&st->mac, c, n);
        st->pos += (uint32_t)n;
        c += n;
        m += n;
        len -= n;
    }
}

/* FINALIZE. CT: the state secret; all of it is wiped. */
void mb_box_stream_final(mb_box_stream *s, uint8_t tag[16])
{
    struct stream_state *st = state_of(s);
    mb_poly1305_final(&st->mac, tag);
    mb_wipe(s, sizeof *s);
}

/* Chunk size of the two-pass open: one keystream block, so pass 2 decrypts each chunk
 * with exactly one block (the first chunk is the 32 message bytes of block 0). */
#define TWOPASS_CHUNK 64

/* Poly1305 over all clen bytes from the reader; tag into t. Returns -1 if the reader
 * failed. CT: the one-time key secret; the reader sees public offsets and lengths. */
static int twopass_mac(uint8_t t[16], const uint8_t polykey[32], size_t clen,
                       mb_read_fn read, void *ctx, uint8_t buf[TWOPASS_CHUNK])
{
    poly1305_state mac;
    size_t off = 0, n;
    mb_poly1305_init(&mac, polykey);
    while (off < clen) {
        n = clen - off < TWOPASS_CHUNK ? clen - off : TWOPASS_CHUNK;
        if (read(ctx, off, buf, n) != 0) {
            mb_wipe(&mac, sizeof mac);
            return -1;
        }
        mb_poly1305_update(&mac, buf, n);
        off += n;
    }
    mb_poly1305_final(&mac, t);
    return 0;
}

/* CT: k, the subkey, the keystream and the plaintext secret; the outcome of each tag
 * check is public. Pass 2 MACs the bytes it actually decrypts, so a change of storage
 * between the passes is detected (after the fact: see the header). */
int mb_secretbox_open_twopass(const uint8_t tag[16], size_t clen, const uint8_t n[24],
                              const uint8_t k[32], mb_read_fn read, mb_write_fn write,
                              void *ctx)
{
    uint8_t subkey[32], in[16], block0[64], buf[TWOPASS_CHUNK], t[16];
    poly1305_state mac;
    size_t off, len, i;
    int r = -1;

    mb_xsalsa20_setup(subkey, in, n, k);
    mb_salsa20_block(block0, in, subkey);
    mb_salsa20_next(in);

    /* Pass 1: authenticate only. */
    if (twopass_mac(t, block0, clen, read, ctx, buf) != 0) goto done;
    if (mb_verify16(t, tag) != 0) goto done;

    /* Pass 2: read again, MAC, decrypt, write. Chunks follow the keystream blocks:
     * 32 bytes against block0[32..64), then 64 bytes per block, each generated into
     * block0 (whose Poly1305-key half is absorbed first). */
    mb_poly1305_init(&mac, block0);
    off = 0;
    while (off < clen) {
        len = off == 0 ? 32 : TWOPASS_CHUNK;
        if (len > clen - off) len = clen - off;
        if (read(ctx, off, buf, len) != 0) goto fail2;
        mb_poly1305_update(&mac, buf, len);
        if (off != 0) {
            mb_salsa20_block(block0, in, subkey);
            mb_salsa20_next(in);
        }
        for (i = 0; i < len; i++) buf[i] ^= block0[(off == 0 ? 32 : 0) + i];
        if (write(ctx, off, buf, len) != 0) goto fail2;
        off += len;
    }
    mb_poly1305_final(&mac, t);
    r = mb_verify16(t, tag);   /* -1 if the storage changed between the passes */
    goto done;
fail2:
    mb_wipe(&mac, sizeof mac);
done:
    mb_wipe(subkey, sizeof subkey);
    mb_wipe(block0, sizeof block0);
    mb_wipe(buf, sizeof buf);
    mb_wipe(t, sizeof t);
    return r;
}
