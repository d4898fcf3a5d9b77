/* SPDX-License-Identifier: MIT */
/* Differential fuzzing of the streaming API against libsodium's one-shot
 * crypto_box_easy_afternm (tag || ciphertext):
 *   op 0  mb_box_stream_*: the message cut into fuzzer-chosen chunks (in place or not,
 *         aligned or not) gives libsodium's ciphertext and tag; afterwards the finished
 *         state refuses update and final (-1, zeros out);
 *   op 1  mb_box_unstream_*: libsodium's box, maybe corrupted, maybe changed between the
 *         two passes, cut into chunks: accepted iff crypto_box_open_easy_afternm accepts
 *         (and unchanged), same plaintext;
 *   op 2  mb_secretbox_open_twopass: a reader that may return different bytes in the
 *         second pass (must be reported: -1), or fail; nothing written on a bad tag;
 *   op 3  misuse: a zeroed, garbage or finished state and any sequence of calls: no
 *         sanitizer report, -1 with zeros out on a state known dead.
 * Input: flags(1) k(32) n(24) ncuts(1) cuts[ncuts & 15] pos(2) xor(1) data. */
#include <sodium.h>

#include "motebox.h"
#include "fuzz.h"

enum { INPLACE = 4, MISALIGN = 8, CORRUPT = 16, CHANGE = 32, READFAIL = 64, GARBAGE = 128 };

typedef struct {
    const uint8_t *cut;
    size_t ncut, i;
} cutter;

/* The next chunk length (<= rem). Zero-length chunks only in the first round of cuts, so
 * the cuts always make progress. */
static size_t next_chunk(cutter *ct, size_t rem)
{
    size_t len = ct->ncut ? ct->cut[ct->i % ct->ncut] : rem;
    if (ct->i >= ct->ncut && len == 0) len = 1;
    ct->i++;
    return len < rem ? len : rem;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (sodium_init() < 0) abort();
    return 0;
}

static void seal_stream(const uint8_t k[32], const uint8_t n[24], cutter *ct,
                        uint32_t flags, const uint8_t *m, size_t mlen)
{
    mb_box_stream s;
    uint8_t *want = malloc(mlen + 16), *buf = malloc(mlen + 1), tag[16];
    uint8_t *c = buf + ((flags & MISALIGN) ? 1 : 0), *src = malloc(mlen + 1), tmp[8];
    const uint8_t *mm = src + ((flags & MISALIGN) ? 1 : 0);
    size_t off = 0, len;
    memcpy(src + ((flags & MISALIGN) ? 1 : 0), m, mlen);
    if (flags & INPLACE) {
        memcpy(c, m, mlen);
        mm = c;
    }
    FZ_CHECK(crypto_box_easy_afternm(want, m, mlen, n, k) == 0, "libsodium afternm failed");
    mb_box_stream_init(&s, k, n);
    while (off < mlen || ct->i == 0) {
        len = next_chunk(ct, mlen - off);
        FZ_CHECK(mb_box_stream_update(&s, c + off, mm + off, len) == 0, "update refused");
        off += len;
        if (mlen == 0) break;
    }
    FZ_CHECK(mb_box_stream_final(&s, tag) == 0, "final refused");
    FZ_CHECK(memcmp(tag, want, 16) == 0, "stream tag differs from libsodium");
    FZ_CHECK(memcmp(c, want + 16, mlen) == 0, "stream ciphertext differs from libsodium");
    /* A finished state: -1, zeros, never plaintext. */
    memset(tmp, 0xa5, sizeof tmp);
    FZ_CHECK(mb_box_stream_update(&s, tmp, m, mlen < 8 ? mlen : 8) == -1, "update after final");
    FZ_CHECK(fz_all_zero(tmp, mlen < 8 ? mlen : 8), "update after final wrote non-zeros");
    memset(tag, 0xa5, sizeof tag);
    FZ_CHECK(mb_box_stream_final(&s, tag) == -1, "second final accepted");
    FZ_CHECK(fz_all_zero(tag, 16), "second final: tag not zeroed");
    free(want);
    free(buf);
    free(src);
}

static void open_stream(const uint8_t k[32], const uint8_t n[24], cutter *ct,
                        uint32_t flags, uint32_t pos, uint32_t x, const uint8_t *m,
                        size_t mlen)
{
    mb_box_stream s;
    uint8_t *box = malloc(mlen + 16), *box2 = malloc(mlen + 16), *out = malloc(mlen + 1);
    uint8_t *want = malloc(mlen + 1);
    size_t off, len, blen = mlen + 16;
    int r, r_sod, changed;
    FZ_CHECK(crypto_box_easy_afternm(box, m, mlen, n, k) == 0, "libsodium afternm failed");
    if (flags & CORRUPT) box[pos % blen] ^= (uint8_t)x;
    /* What pass 2 reads: the same box, or one with a ciphertext byte changed. */
    memcpy(box2, box, blen);
    changed = (flags & CHANGE) && mlen > 0 && (x & 0xff) != 0;
    if (changed) box2[16 + pos % mlen] ^= (uint8_t)x;
    r_sod = crypto_box_open_easy_afternm(want, box, blen, n, k);

    mb_box_unstream_init(&s, k, n);
    for (off = 0; off < mlen;) {
        len = next_chunk(ct, mlen - off);
        FZ_CHECK(mb_box_unstream_auth(&s, box + 16 + off, len) == 0, "auth refused");
        off += len;
    }
    r = mb_box_unstream_verify(&s, box);
    FZ_CHECK(r == r_sod, "unstream verify %d, libsodium %d", r, r_sod);
    memset(out, 0xa5, mlen);
    ct->i = 0;
    for (off = 0; off < mlen;) {
        len = next_chunk(ct, mlen - off);
        if (flags & INPLACE) {
            memcpy(out + off, box2 + 16 + off, len);
            r = mb_box_unstream_update(&s, out + off, out + off, len);
        } else {
            r = mb_box_unstream_update(&s, out + off, box2 + 16 + off, len);
        }
        FZ_CHECK(r == (r_sod == 0 ? 0 : -1), "unstream update %d after verify %d", r, r_sod);
        if (r != 0)
            FZ_CHECK(fz_all_zero(out + off, len), "refused unstream update wrote non-zeros");
        off += len;
    }
    r = mb_box_unstream_final(&s, box);
    if (r_sod != 0) {
        FZ_CHECK(r == -1, "unstream final accepted a forged box");
    } else if (changed) {
        FZ_CHECK(r == -1, "unstream final missed a change between the passes");
    } else {
        FZ_CHECK(r == 0, "unstream final refused a genuine box");
        FZ_CHECK(memcmp(out, want, mlen) == 0, "unstream plaintext differs from libsodium");
    }
    FZ_CHECK(mb_box_unstream_update(&s, out, box, mlen < 8 ? mlen : 8) == -1,
             "unstream update after final");
    FZ_CHECK(fz_all_zero(out, mlen < 8 ? mlen : 8), "unstream update after final: non-zeros");
    free(box);
    free(box2);
    free(out);
    free(want);
}

/* ---- two-pass open ---- */
typedef struct {
    const uint8_t *c, *c2;   /* pass 1 and pass 2 views of the ciphertext */
    size_t clen, seen, reads, fail_at, writes;
    uint8_t *out;
} tp_ctx;

static int tp_read(void *vctx, size_t off, uint8_t *buf, size_t len)
{
    tp_ctx *t = vctx;
    FZ_CHECK(off <= t->clen && len <= t->clen - off, "twopass read out of range");
    if (t->reads++ == t->fail_at) return 1;
    /* The second pass starts once all clen bytes were read once. */
    memcpy(buf, (t->seen >= t->clen ? t->c2 : t->c) + off, len);
    t->seen += len;
    return 0;
}

static int tp_write(void *vctx, size_t off, const uint8_t *buf, size_t len)
{
    tp_ctx *t = vctx;
    FZ_CHECK(off <= t->clen && len <= t->clen - off, "twopass write out of range");
    memcpy(t->out + off, buf, len);
    t->writes++;
    return 0;
}

static void twopass(const uint8_t k[32], const uint8_t n[24], uint32_t flags, uint32_t pos,
                    uint32_t x, uint32_t failat, const uint8_t *m, size_t mlen)
{
    uint8_t *box = malloc(mlen + 16), *c2 = malloc(mlen + 1), *out = malloc(mlen + 1);
    tp_ctx t;
    int r, forged, changed;
    FZ_CHECK(crypto_secretbox_easy(box, m, mlen, n, k) == 0, "libsodium secretbox failed");
    forged = (flags & CORRUPT) && (x & 0xff) != 0;
    if (forged) box[pos % (mlen + 16)] ^= (uint8_t)x;
    memcpy(c2, box + 16, mlen);
    changed = (flags & CHANGE) && mlen > 0 && (x & 0xff) != 0;
    if (changed) c2[pos % mlen] ^= (uint8_t)x;
    memset(&t, 0, sizeof t);
    t.c = box + 16;
    t.c2 = c2;
    t.clen = mlen;
    t.out = out;
    t.fail_at = (flags & READFAIL) ? failat : (size_t)-1;
    r = mb_secretbox_open_twopass(box, mlen, n, k, tp_read, tp_write, &t);
    if (forged) {
        FZ_CHECK(r == -1, "twopass accepted a forged box");
        if (t.fail_at == (size_t)-1 || t.fail_at >= t.reads)
            FZ_CHECK(t.writes == 0, "twopass wrote plaintext of a forged box");
    } else if (t.fail_at < t.reads) {
        FZ_CHECK(r == -1, "twopass ignored a reader failure");
    } else if (changed) {
        FZ_CHECK(r == -1, "twopass missed a change between the passes");
    } else {
        FZ_CHECK(r == 0, "twopass refused a genuine box");
        FZ_CHECK(memcmp(out, m, mlen) == 0, "twopass plaintext differs");
    }
    free(box);
    free(c2);
    free(out);
}

/* ---- misuse: a state machine of the documented phases ---- */
enum { DEAD, SEAL, AUTH, OPEN, UNKNOWN };

static void misuse(const uint8_t k[32], const uint8_t n[24], uint32_t flags, fz_in *in)
{
    mb_box_stream s;
    uint8_t buf[300], out[300], tag[16];
    int phase, r;
    if (flags & GARBAGE) {
        fz_take(in, (uint8_t *)&s, sizeof s);
        phase = UNKNOWN;
    } else {
        memset(&s, 0, sizeof s);
        phase = DEAD;
    }
    memset(buf, 0x5a, sizeof buf);
    while (in->n > 0) {
        uint32_t b = fz_u8(in), op = b % 8, len = (b / 8) * 9;   /* len <= 279 */
        int want_ok = 0, out_kind = 0;   /* 1: len bytes of out, 2: the tag */
        memset(out, 0xa5, sizeof out);
        memset(tag, 0xa5, sizeof tag);
        switch (op) {
        case 0: mb_box_stream_init(&s, k, n); phase = SEAL; continue;
        case 1: mb_box_unstream_init(&s, k, n); phase = AUTH; continue;
        case 2: r = mb_box_stream_update(&s, out, buf, len); want_ok = phase == SEAL;
                out_kind = 1; break;
        case 3: r = mb_box_stream_final(&s, tag); want_ok = phase == SEAL; out_kind = 2;
                if (r == 0) phase = DEAD;
                break;
        case 4: r = mb_box_unstream_auth(&s, buf, len); want_ok = phase == AUTH; break;
        case 5: fz_take(in, tag, 16);
                r = mb_box_unstream_verify(&s, tag); want_ok = -1;   /* depends on the tag */
                if (phase == AUTH || phase == UNKNOWN) phase = r == 0 ? OPEN : DEAD;
                else {
                    FZ_CHECK(r == -1, "verify accepted in phase %d", phase);
                    phase = DEAD;
                }
                continue;
        case 6: r = mb_box_unstream_update(&s, out, buf, len); want_ok = phase == OPEN;
                out_kind = 1; break;
        default: r = mb_box_unstream_final(&s, buf); want_ok = -1;
                 if (phase != OPEN && phase != UNKNOWN)
                     FZ_CHECK(r == -1, "unstream final accepted in phase %d", phase);
                 phase = DEAD;
                 continue;
        }
        if (phase == UNKNOWN) {
            if (r != 0) phase = DEAD;
        } else {
            FZ_CHECK(r == (want_ok ? 0 : -1), "op %u in phase %d returned %d", op, phase, r);
            if (r != 0) phase = DEAD;
        }
        if (r != 0 && out_kind == 1) FZ_CHECK(fz_all_zero(out, len), "op %u: non-zeros out", op);
        if (r != 0 && out_kind == 2) FZ_CHECK(fz_all_zero(tag, 16), "op %u: tag not zeroed", op);
    }
    mb_wipe(&s, sizeof s);
}

FZ_ENTRY(test_one)

static int test_one(const uint8_t *data, size_t size)
{
    fz_in in = { data, size };
    uint8_t k[32], n[24], cuts[16];
    uint32_t flags = fz_u8(&in), op = flags & 3, pos, x, failat;
    cutter ct;
    fz_take(&in, k, 32);
    fz_take(&in, n, 24);
    ct.ncut = fz_u8(&in) & 15;
    fz_take(&in, cuts, ct.ncut);
    ct.cut = cuts;
    ct.i = 0;
    pos = fz_u16(&in);
    x = fz_u8(&in);
    failat = x % 16;
    switch (op) {
    case 0: seal_stream(k, n, &ct, flags, in.p, in.n); break;
    case 1: open_stream(k, n, &ct, flags, pos, x, in.p, in.n); break;
    case 2: twopass(k, n, flags, pos, x, failat, in.p, in.n); break;
    default: misuse(k, n, flags, &in); break;
    }
    return 0;
}
