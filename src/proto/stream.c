/* SPDX-License-Identifier: MIT */
/* Streaming secretbox ([HSSW15]'s INIT / UPDATE / FINALIZE, any chunk sizes), its
 * receiving side (authenticate all, then decrypt: the "unstream"), and the two-pass open
 * of long boxes kept in external memory. Every state carries a phase word, so a call on
 * a zeroed, finished, garbage or wrong-phase state fails closed: -1, zeros out, and the
 * state wiped. */
#include "util/ct.h"
#include "sym/salsa20.h"
#include "sym/poly1305.h"
#include "util/fault.h"
#include <limits.h>

/* The private layout behind mb_box_stream. ks holds the current keystream block, of
 * which ks[pos..64) is still unused; in holds the counter of the next block. check says
 * which functions may use the state (one of the STATE_* words below); any other value,
 * such as the zeros that init's caller may have left or that final writes, makes every
 * call fail closed. */
struct stream_state {
    poly1305_state mac;   /* 76 bytes */
    uint8_t subkey[32];   /* HSalsa20(k, n[0..16)) */
    uint8_t in[16];       /* n[16..24) || next block counter */
    uint8_t ks[64];
    uint32_t pos;         /* public: a function of the lengths seen so far, <= 64 */
    uint32_t check;       /* public: the phase, STATE_* */
    uint8_t tag[16];      /* receiving: the tag verified after pass 1 (public) */
};

/* Phase words. Arbitrary 32-bit values far from 0 and from each other: an all-zero,
 * wiped or random state holds one with probability ~2^-30. */
#define STATE_SEAL   0x6d62a5c3u   /* mb_box_stream_init done: update / final */
#define STATE_AUTH   0x3c5a9e17u   /* mb_box_unstream_init done: auth / verify */
#define STATE_OPEN   0xd1e84b69u   /* tag verified: unstream update / final */

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

/* 1 if the state is in phase `want` and its public indices are in range (a garbage
 * state holding the right phase word must still not index out of bounds), else 0
 * after wiping the state: one misuse ends the stream. CT: branches on public fields. */
static int state_ok(mb_box_stream *s, uint32_t want)
{
    const struct stream_state *st = state_of(s);
    if (s == 0) return 0;
    if (st->check == want && st->pos <= 64 && st->mac.used < 16) return 1;
    mb_wipe(s, sizeof *s);
    return 0;
}

/* Keystream block 0 under the current subkey and in: its first 32 bytes key Poly1305
 * (wiped once absorbed); its last 32 are the first message keystream bytes.
 * Pre: in holds counter 0. CT: subkey and keystream secret. */
static void start_block0(struct stream_state *st)
{
    mb_salsa20_block(st->ks, st->in, st->subkey);
    mb_salsa20_next(st->in);
    mb_poly1305_init(&st->mac, st->ks);
    mb_wipe(st->ks, 32);
    st->pos = 32;
}

/* CT: k secret; the subkey and keystream stay in the state (the caller wipes it by
 * finishing the stream). */
static void stream_start(mb_box_stream *s, const uint8_t k[32], const uint8_t n[24],
                         uint32_t phase)
{
    struct stream_state *st = state_of(s);
    mb_wipe(s, sizeof *s);
    mb_xsalsa20_setup(st->subkey, st->in, n, k);
    start_block0(st);
    st->check = phase;
}

/* INIT (and [HSSW15]'s FIRST, folded in). CT: k secret. */
void mb_box_stream_init(mb_box_stream *s, const uint8_t k[32], const uint8_t n[24])
{
    stream_start(s, k, n, STATE_SEAL);
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

/* out = in ^ keystream over len bytes, with Poly1305 over the ciphertext: after the
 * XOR when sealing (the ciphertext is out), before it when opening (it is in), chunk by
 * chunk, so out == in works either way. Pre: state_ok. CT: in, out, the keystream and
 * the state secret; branches depend on len and pos only. */
static void stream_xor(struct stream_state *st, uint8_t *out, const uint8_t *in,
                       size_t len, int sealing)
{
    size_t n;
    while (len > 0) {
        if (st->pos == 64) {
            mb_salsa20_block(st->ks, st->in, st->subkey);
            mb_salsa20_next(st->in);
            st->pos = 0;
        }
        n = 64 - (size_t)st->pos;
        if (n > len) n = len;
        if (!sealing) mb_poly1305_update(&st->mac, in, n);
        xor_used_keystream(out, in, st->ks + st->pos, n);
        if (sealing) mb_poly1305_update(&st->mac, out, n);
        st->pos += (uint32_t)n;
        out += n;
        in += n;
        len -= n;
    }
}

/* UPDATE. CT: m and the state secret; the phase check is on public fields. */
int mb_box_stream_update(mb_box_stream *s, uint8_t *c, const uint8_t *m, size_t len)
{
    if (!state_ok(s, STATE_SEAL)) {
        mb_wipe(c, len);
        return -1;
    }
    stream_xor(state_of(s), c, m, len, 1);
    return 0;
}

#if MB_FAULT_HARDENED_STREAM
/* 1 if the 16 bytes at a and b are equal and not all zero, else 0 (a correct tag is 0
 * with probability 2^-128; both computations give 0 on a wiped state, which a faulted
 * return address into final's start reached). Out of line (util/fault.h): the two
 * comparisons of final stay apart. CT: a, b secret until released. */
static MB_NOINLINE uint32_t tag_equal(const uint8_t a[16], const uint8_t b[16])
{
    uint32_t d = 0, nz = 0;
    int i;
    for (i = 0; i < 16; i++) {
        d |= (uint32_t)(a[i] ^ b[i]);
        nz |= a[i];
    }
    return (1u ^ ct_nonzero32(d)) & ct_nonzero32(nz);
}

/* tag[i] = t1[i] & mask, then tag2[i] &= t2[i] & mask2, tag and tag2 being the same
 * buffer passed twice (so that each pass has its own pointer): a byte whose first AND a
 * fault skipped is still cleared, and whatever the first pass wrote (from a faulted
 * source pointer: other memory; through a faulted destination pointer: bytes of t1
 * moved) keeps only the bits of t2 at its place: never more than the tag's bits.
 * CT: t1, t2, masks secret. */
static MB_NOINLINE void tag_release(uint8_t tag[16], uint8_t tag2[16], const uint8_t t1[16],
                                    const uint8_t t2[16], uint8_t mask, uint8_t mask2)
{
    int i;
    MB_NO_UNROLL
    for (i = 0; i < 16; i++) tag[i] = t1[i] & mask;
#if (defined(__GNUC__) || defined(__clang__)) && UINT_MAX > 0xffffu
    {   /* four words at fixed offsets: no loop pointer whose faulted bit moves the rest
         * of the pass (the campaign found one) */
        typedef uint32_t __attribute__((aligned(1), may_alias)) uword;
        uword *w = (uword *)(void *)tag2;
        const uword *v = (const uword *)(const void *)t2;
        uint32_t m2 = ct_mask32(mask2);
        w[0] &= v[0] & m2;
        w[1] &= v[1] & m2;
        w[2] &= v[2] & m2;
        w[3] &= v[3] & m2;
    }
#else
    MB_NO_UNROLL
    for (i = 0; i < 16; i++) tag2[i] &= t2[i] & mask2;
#endif
}
#endif

/* whether tag_release's second pass is four words at fixed offsets (else byte loops) */
#if (defined(__GNUC__) || defined(__clang__)) && UINT_MAX > 0xffffu
#define STREAM_RELEASE_WORDS 1
#else
#define STREAM_RELEASE_WORDS 0
#endif

/* FINALIZE. Hardened (MB_FAULT_HARDENED_STREAM, util/fault.h; docs/FAULTS.md "Stream
 * final"): the tag is computed twice, from the state and from a copy of it taken
 * before (a fault in either computation, such as a skipped addition of s that would
 * release h, material for the Poly1305 key, or in the copy makes them differ),
 * released through two masks, the second from the comparison's verdict in volatile
 * memory (0 until stored), and the released tag is compared again with the second one
 * (a fault in the release itself then returns -1); the return value is computed from
 * both verdicts last.
 * CT: the state secret; all of it is wiped (which also ends the stream). */
int mb_box_stream_final(mb_box_stream *s, uint8_t tag[16])
{
#if MB_FAULT_HARDENED_STREAM
    poly1305_state mac2;
    uint8_t t1[16], t2[16];
    uint32_t ok;
    volatile uint32_t verdict[2];
    /* the caller's tag pointer kept in memory from the entry: the release and the last
     * comparison go through it, not through a register copy of tag (the campaign found
     * a flipped copy that sent the release 8 bytes off) */
    uint8_t *volatile tag_at = tag;
    verdict[0] = 0;
    verdict[1] = 0;
#endif
    if (!state_ok(s, STATE_SEAL)) {
        mb_wipe(tag, 16);
        return -1;
    }
#if MB_FAULT_HARDENED_STREAM
    mb_copy((uint8_t *)&mac2, (const uint8_t *)&state_of(s)->mac, sizeof mac2);
    mb_poly1305_final(&state_of(s)->mac, t1);
    mb_poly1305_final(&mac2, t2);
    ok = tag_equal(t1, t2);
    verdict[0] = ok & 1u;
    mb_wipe(s, sizeof *s);
    tag_release(tag_at, tag_at, t1, t2, (uint8_t)ct_mask32(ok),
                (uint8_t)ct_mask32(verdict[0]));
#if STREAM_RELEASE_WORDS
    verdict[1] = tag_equal(tag_at, t2) & 1u;
#else
    /* the release's byte loops (16-bit int): a skipped pointer move of the second pass
     * wrote t2 itself, so the tag is compared with t1 too; and tag_at with the argument
     * (a skipped store or a faulted copy or wipe over the frame sent the whole release
     * to another address; MSP430 campaign, docs/FAULTS.md) */
    verdict[1] = tag_equal(tag_at, t2) & tag_equal(tag_at, t1) &
                 (uint32_t)(tag_at == tag) & 1u;
#endif
    mb_wipe(t1, sizeof t1);
    mb_wipe(t2, sizeof t2);
    return ((int)verdict[0] - 1) | ((int)verdict[1] - 1);
#else
    mb_poly1305_final(&state_of(s)->mac, tag);
    mb_wipe(s, sizeof *s);
    return 0;
#endif
}

/* ---- receiving stream: authenticate everything, then decrypt ------------------------ */

/* CT: k secret. */
void mb_box_unstream_init(mb_box_stream *s, const uint8_t k[32], const uint8_t n[24])
{
    stream_start(s, k, n, STATE_AUTH);
}

/* Pass 1: MAC only. CT: the state secret; c and len public. */
int mb_box_unstream_auth(mb_box_stream *s, const uint8_t *c, size_t len)
{
    if (!state_ok(s, STATE_AUTH)) return -1;
    mb_poly1305_update(&state_of(s)->mac, c, len);
    return 0;
}

/* End of pass 1. On success the keystream restarts at block 0 for pass 2 (the subkey
 * is kept, so k is not needed again) and the tag is kept for the final comparison.
 * CT: the computed tag is secret until compared (mb_verify16); the outcome is public. */
int mb_box_unstream_verify(mb_box_stream *s, const uint8_t tag[16])
{
    struct stream_state *st = state_of(s);
    uint8_t t[16];
    int i, r;
    if (!state_ok(s, STATE_AUTH)) return -1;
    mb_poly1305_final(&st->mac, t);
    r = mb_verify16(t, tag);
    mb_wipe(t, sizeof t);
    if (r != 0) {
        mb_wipe(s, sizeof *s);
        return -1;
    }
    for (i = 0; i < 16; i++) st->tag[i] = tag[i];
    for (i = 8; i < 16; i++) st->in[i] = 0;   /* block counter back to 0 */
    start_block0(st);
    st->check = STATE_OPEN;
    return 0;
}

/* Pass 2. CT: the plaintext, keystream and state secret; branches on len and pos. */
int mb_box_unstream_update(mb_box_stream *s, uint8_t *m, const uint8_t *c, size_t len)
{
    if (!state_ok(s, STATE_OPEN)) {
        mb_wipe(m, len);
        return -1;
    }
    stream_xor(state_of(s), m, c, len, 0);
    return 0;
}

/* End of pass 2: the MAC of the bytes decrypted must equal the tag verified after pass
 * 1 and the tag given here. CT: as verify; the state is wiped. */
int mb_box_unstream_final(mb_box_stream *s, const uint8_t tag[16])
{
    struct stream_state *st = state_of(s);
    uint8_t t[16];
    int r;
    if (!state_ok(s, STATE_OPEN)) return -1;
    mb_poly1305_final(&st->mac, t);
    r = mb_verify16(t, st->tag) | mb_verify16(t, tag);
    mb_wipe(t, sizeof t);
    mb_wipe(s, sizeof *s);
    return r;   /* 0 or -1: both comparisons must pass */
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
