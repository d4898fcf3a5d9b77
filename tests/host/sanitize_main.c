/* SPDX-License-Identifier: MIT */
/* Runs the public API on cases read from a file (written by tests/test_sanitizers.py from
 * outside references: PyNaCl/libsodium and RFC/Wycheproof vectors) in a build with
 * -fsanitize=address,undefined. Every buffer is heap-allocated at its exact size so an
 * out-of-bounds byte is caught. One case per line, fields separated by spaces, byte
 * strings in hex ("=" for empty, "-" for "this call must fail"):
 *   x25519      SK PK OUT          x25519_base  SK OUT
 *   x25519_rnd  SK PK RND OUT
 *   box         M N PK SK C        box_open     C N PK SK M
 *   secretbox   M N K C            secretbox_open C N K M
 *   stream      K N M CHUNKS C     (CHUNKS: comma-separated lengths; C = tag || ct)
 *   secretbox_at M N K C D         box_at M N PK SK C D      (seal with m at c + D:
 *   secretbox_open_at C N K M D    box_open_at C N PK SK M D  overlap, D decimal; for
 *                                  the opens m at c + D)
 *   stream_misuse K N M            zeroed, random, finished and corrupted states
 *   unstream    K N M C            the receiving stream, in and out of order
 *   maxlen      K N PK SK          lengths beyond MB_*_MESSAGEBYTES_MAX
 * Prints "ok N" and exits 0 iff every case matched. */
#define _POSIX_C_SOURCE 200809L   /* strtok_r */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "motebox.h"

static int failures, lineno;

typedef struct { uint8_t *p; size_t n; int fail; } buf;

static buf unhex(const char *s)
{
    buf b = { 0, 0, 0 };
    size_t i;
    if (strcmp(s, "-") == 0) { b.fail = 1; return b; }
    if (strcmp(s, "=") != 0) b.n = strlen(s) / 2;
    b.p = malloc(b.n ? b.n : 1);
    for (i = 0; i < b.n; i++) {
        unsigned v;
        if (sscanf(s + 2 * i, "%2x", &v) != 1) { fprintf(stderr, "line %d: bad hex\n", lineno); exit(2); }
        b.p[i] = (uint8_t)v;
    }
    return b;
}

static uint8_t *alloc(size_t n) { return malloc(n ? n : 1); }

static void expect(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "line %d: %s mismatch\n", lineno, what);
        failures++;
    }
}

/* Result check: rc and output against the expected buffer (or expected failure, in
 * which case the output must be all zero). */
static void check(const char *what, int rc, const uint8_t *out, size_t n, buf want)
{
    size_t i;
    if (want.fail) {
        int zero = 1;
        for (i = 0; i < n; i++) zero &= out[i] == 0;
        expect(rc == -1 && zero, what);
    } else {
        expect(rc == 0 && want.n == n && memcmp(out, want.p, n) == 0, what);
    }
}

static int all_zero(const uint8_t *p, size_t n)
{
    size_t i;
    int z = 1;
    for (i = 0; i < n; i++) z &= p[i] == 0;
    return z;
}

/* One region holding both buffers at a distance d (out at base, in at base + d), so the
 * overlap is real memory ASan watches; 64 bytes of slack on each side. */
typedef struct { uint8_t *mem, *out, *in; } overlap;

static overlap place(const uint8_t *x, size_t xlen, size_t outlen, long d)
{
    overlap o;
    size_t span = (xlen > outlen ? xlen : outlen) + (size_t)(d < 0 ? -d : d) + 128;
    o.mem = calloc(span, 1);
    o.out = o.mem + 64 + (d < 0 ? (size_t)-d : 0);
    o.in = o.out + d;
    memcpy(o.in, x, xlen);
    return o;
}

/* A state that update/final must refuse: rc -1, zeros out (c == m: the plaintext in
 * place is overwritten with zeros), and refused again afterwards. */
static void expect_refused(mb_box_stream *s, const uint8_t *m, size_t mlen, const char *what)
{
    uint8_t *c = alloc(mlen), tag[16];
    memcpy(c, m, mlen);
    memset(tag, 0xa5, 16);
    expect(mb_box_stream_update(s, c, c, mlen) == -1 && all_zero(c, mlen), what);
    expect(mb_box_stream_final(s, tag) == -1 && all_zero(tag, 16), what);
    expect(mb_box_unstream_auth(s, m, mlen) == -1, what);
    free(c);
}

/* Zeroed, random and finished states; then every 32-bit word of a live state replaced
 * by values that put any offset out of range: never a sanitizer report, and either a
 * refusal with zeros or a normal result. */
static void stream_misuse(const uint8_t *k, const uint8_t *n, const uint8_t *m, size_t mlen)
{
    static const uint32_t bad[] = { 0xffffffffu, 0x80000000u, 65, 16, 0x10000u };
    mb_box_stream *s = malloc(sizeof *s);
    uint8_t *c = alloc(mlen), tag[16];
    size_t w, v, i;
    memset(s, 0, sizeof *s);
    expect_refused(s, m, mlen, "zeroed state");
    srand((unsigned)mlen);
    for (i = 0; i < sizeof *s; i++) ((uint8_t *)s)[i] = (uint8_t)rand();
    expect_refused(s, m, mlen, "random state");
    mb_box_stream_init(s, k, n);
    expect(mb_box_stream_update(s, c, m, mlen) == 0, "update");
    expect(mb_box_stream_final(s, tag) == 0, "final");
    expect_refused(s, m, mlen, "finished state");
    mb_box_unstream_init(s, k, n);
    expect_refused(s, m, mlen, "unstream state given to the sender");
    for (w = 0; w < sizeof *s / 4; w++) {
        for (v = 0; v < sizeof bad / sizeof bad[0]; v++) {
            uint32_t word = bad[v];
            int r;
            mb_box_stream_init(s, k, n);
            expect(mb_box_stream_update(s, c, m, mlen / 2) == 0, "update before corruption");
            memcpy((uint8_t *)s + 4 * w, &word, 4);
            memcpy(c, m, mlen);
            r = mb_box_stream_update(s, c, c, mlen);
            expect(r == 0 || (r == -1 && all_zero(c, mlen)), "corrupted state update");
            memset(tag, 0xa5, 16);
            r = mb_box_stream_final(s, tag);
            expect(r == 0 || (r == -1 && all_zero(tag, 16)), "corrupted state final");
        }
    }
    free(s);
    free(c);
}

/* The receiving stream on box = tag || ct of m: in order (chunks of 1, 7, 64, ...,
 * pass 2 in place), then each out-of-order or tampered sequence. */
static void unstream(const uint8_t *k, const uint8_t *n, const uint8_t *m, size_t mlen,
                     const uint8_t *box)
{
    static const size_t cuts[] = { 1, 7, 64, 100, 3 };
    mb_box_stream *s = malloc(sizeof *s);
    uint8_t *p = alloc(mlen), *ct = alloc(mlen), tag[16], bad[16];
    size_t off, len, j;
    memcpy(tag, box, 16);
    memcpy(bad, box, 16);
    bad[15] ^= 0x80;
    memcpy(ct, box + 16, mlen);

    mb_box_unstream_init(s, k, n);
    for (off = 0, j = 0; off < mlen; off += len, j++) {
        len = cuts[j % 5] < mlen - off ? cuts[j % 5] : mlen - off;
        expect(mb_box_unstream_auth(s, ct + off, len) == 0, "unstream auth");
    }
    expect(mb_box_unstream_verify(s, tag) == 0, "unstream verify");
    memcpy(p, ct, mlen);
    for (off = 0, j = 1; off < mlen; off += len, j++) {
        len = cuts[j % 5] < mlen - off ? cuts[j % 5] : mlen - off;
        expect(mb_box_unstream_update(s, p + off, p + off, len) == 0, "unstream update");
    }
    expect(memcmp(p, m, mlen) == 0, "unstream plaintext");
    expect(mb_box_unstream_final(s, tag) == 0, "unstream final");
    expect(mb_box_unstream_final(s, tag) == -1, "unstream second final");

    /* update before verify: zeros, and the state is dead (a right tag is refused). */
    mb_box_unstream_init(s, k, n);
    expect(mb_box_unstream_auth(s, ct, mlen) == 0, "auth");
    memcpy(p, ct, mlen);
    expect(mb_box_unstream_update(s, p, p, mlen) == -1 && all_zero(p, mlen), "update before verify");
    expect(mb_box_unstream_verify(s, tag) == -1, "verify after misuse");
    /* final before verify; verify twice; auth after verify */
    mb_box_unstream_init(s, k, n);
    expect(mb_box_unstream_final(s, tag) == -1, "final before verify");
    mb_box_unstream_init(s, k, n);
    expect(mb_box_unstream_auth(s, ct, mlen) == 0 && mb_box_unstream_verify(s, tag) == 0, "verify");
    expect(mb_box_unstream_verify(s, tag) == -1, "verify twice");
    expect(mb_box_unstream_update(s, p, ct, mlen) == -1 && all_zero(p, mlen), "update after double verify");
    mb_box_unstream_init(s, k, n);
    expect(mb_box_unstream_auth(s, ct, mlen) == 0 && mb_box_unstream_verify(s, tag) == 0, "verify");
    expect(mb_box_unstream_auth(s, ct, mlen) == -1, "auth after verify");
    /* a wrong tag: -1, then nothing decrypts */
    mb_box_unstream_init(s, k, n);
    expect(mb_box_unstream_auth(s, ct, mlen) == 0, "auth");
    expect(mb_box_unstream_verify(s, bad) == -1, "forged tag");
    expect(mb_box_unstream_update(s, p, ct, mlen) == -1 && all_zero(p, mlen), "update after forged tag");
    /* the ciphertext changes between the passes; a different tag at final */
    if (mlen > 0) {
        mb_box_unstream_init(s, k, n);
        expect(mb_box_unstream_auth(s, ct, mlen) == 0 && mb_box_unstream_verify(s, tag) == 0, "verify");
        ct[mlen - 1] ^= 1;
        expect(mb_box_unstream_update(s, p, ct, mlen) == 0, "update");
        expect(mb_box_unstream_final(s, tag) == -1, "change between passes");
        ct[mlen - 1] ^= 1;
    }
    mb_box_unstream_init(s, k, n);
    expect(mb_box_unstream_auth(s, ct, mlen) == 0 && mb_box_unstream_verify(s, tag) == 0, "verify");
    expect(mb_box_unstream_update(s, p, ct, mlen) == 0, "update");
    expect(mb_box_unstream_final(s, bad) == -1, "other tag at final");
    /* the sender's state is refused, and the receiver's by the sender */
    mb_box_stream_init(s, k, n);
    expect(mb_box_unstream_auth(s, ct, mlen) == -1, "stream state given to unstream");
    free(s);
    free(p);
    free(ct);
}

/* Beyond the maximum: -1, the tag zeroed, and nothing else read or written (c and m are
 * 16-byte / 1-byte buffers: ASan reports any access past them). */
static void maxlen(const uint8_t *k, const uint8_t *n, const uint8_t *pk, const uint8_t *sk)
{
    static const size_t lens[] = { MB_SECRETBOX_MESSAGEBYTES_MAX + 1, SIZE_MAX };
    uint8_t *c = alloc(16), *m = alloc(1), tag[16];
    size_t i;
    expect(MB_SECRETBOX_MESSAGEBYTES_MAX == SIZE_MAX - 16 && MB_BOX_MESSAGEBYTES_MAX == SIZE_MAX - 16,
           "MESSAGEBYTES_MAX");
    for (i = 0; i < 2; i++) {
        memset(c, 0xa5, 16);
        expect(mb_secretbox(c, m, lens[i], n, k) == -1 && all_zero(c, 16), "secretbox max");
        memset(tag, 0xa5, 16);
        expect(mb_secretbox_detached(c, tag, m, lens[i], n, k) == -1 && all_zero(tag, 16),
               "secretbox_detached max");
        memset(c, 0xa5, 16);
        expect(mb_box(c, m, lens[i], n, pk, sk) == -1 && all_zero(c, 16), "box max");
        memset(tag, 0xa5, 16);
        expect(mb_box_detached(c, tag, m, lens[i], n, pk, sk) == -1 && all_zero(tag, 16),
               "box_detached max");
    }
    free(c);
    free(m);
}

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "r") : stdin;
    static char line[1 << 20];
    int cases = 0;
    if (!f) { perror(argv[1]); return 2; }
    while (fgets(line, sizeof line, f)) {
        char *tok[8];
        buf a[8];
        int nt = 0, i;
        lineno++;
        for (char *t = strtok(line, " \n"); t && nt < 8; t = strtok(0, " \n")) tok[nt++] = t;
        if (nt == 0) continue;
        for (i = 1; i < nt; i++) {
            if (strcmp(tok[0], "stream") == 0 && i == 4) { a[i].p = 0; continue; }
            if (strstr(tok[0], "_at") && i == nt - 1) { a[i].p = 0; continue; }   /* D */
            a[i] = unhex(tok[i]);
        }
        cases++;
        if (strcmp(tok[0], "x25519") == 0) {
            uint8_t *out = alloc(32);
            check("x25519", mb_x25519(out, a[1].p, a[2].p), out, 32, a[3]);
            free(out);
        } else if (strcmp(tok[0], "x25519_base") == 0) {
            uint8_t *out = alloc(32);
            check("x25519_base", mb_x25519_base(out, a[1].p), out, 32, a[2]);
            free(out);
        } else if (strcmp(tok[0], "x25519_rnd") == 0) {
            uint8_t *out = alloc(32);
            check("x25519_rnd", mb_x25519_randomized(out, a[1].p, a[2].p, a[3].p), out, 32, a[4]);
            free(out);
        } else if (strcmp(tok[0], "box") == 0) {
            uint8_t *out = alloc(a[1].n + 16);
            check("box", mb_box(out, a[1].p, a[1].n, a[2].p, a[3].p, a[4].p), out, a[1].n + 16, a[5]);
            free(out);
        } else if (strcmp(tok[0], "box_open") == 0) {
            size_t n = a[1].n >= 16 ? a[1].n - 16 : 0;
            uint8_t *out = alloc(n);
            check("box_open", mb_box_open(out, a[1].p, a[1].n, a[2].p, a[3].p, a[4].p), out, n, a[5]);
            free(out);
        } else if (strcmp(tok[0], "secretbox") == 0) {
            uint8_t *out = alloc(a[1].n + 16);
            check("secretbox", mb_secretbox(out, a[1].p, a[1].n, a[2].p, a[3].p), out,
                  a[1].n + 16, a[4]);
            free(out);
        } else if (strcmp(tok[0], "secretbox_at") == 0 || strcmp(tok[0], "box_at") == 0) {
            int is_box = tok[0][0] == 'b';
            long d = strtol(tok[is_box ? 6 : 5], 0, 10);
            overlap o = place(a[1].p, a[1].n, a[1].n + 16, d);
            int r = is_box ? mb_box(o.out, o.in, a[1].n, a[2].p, a[3].p, a[4].p)
                           : mb_secretbox(o.out, o.in, a[1].n, a[2].p, a[3].p);
            check(tok[0], r, o.out, a[1].n + 16, a[is_box ? 5 : 4]);
            free(o.mem);
        } else if (strcmp(tok[0], "secretbox_open_at") == 0 || strcmp(tok[0], "box_open_at") == 0) {
            int is_box = tok[0][0] == 'b';
            long d = strtol(tok[is_box ? 6 : 5], 0, 10);
            size_t n = a[1].n - 16;
            overlap o = place(a[1].p, a[1].n, n, -d);   /* m at c + d */
            int r = is_box ? mb_box_open(o.out, o.in, a[1].n, a[2].p, a[3].p, a[4].p)
                           : mb_secretbox_open(o.out, o.in, a[1].n, a[2].p, a[3].p);
            check(tok[0], r, o.out, n, a[is_box ? 5 : 4]);
            free(o.mem);
        } else if (strcmp(tok[0], "stream_misuse") == 0) {
            stream_misuse(a[1].p, a[2].p, a[3].p, a[3].n);
        } else if (strcmp(tok[0], "unstream") == 0) {
            expect(a[4].n == a[3].n + 16, "unstream box length");
            unstream(a[1].p, a[2].p, a[3].p, a[3].n, a[4].p);
        } else if (strcmp(tok[0], "maxlen") == 0) {
            maxlen(a[1].p, a[2].p, a[3].p, a[4].p);
        } else if (strcmp(tok[0], "secretbox_open") == 0) {
            size_t n = a[1].n >= 16 ? a[1].n - 16 : 0;
            uint8_t *out = alloc(n);
            check("secretbox_open", mb_secretbox_open(out, a[1].p, a[1].n, a[2].p, a[3].p), out, n, a[4]);
            free(out);
        } else if (strcmp(tok[0], "stream") == 0) {
            size_t mlen = a[3].n, off = 0;
            uint8_t *c = alloc(mlen + 16);
            mb_box_stream *s = malloc(mb_box_stream_size());
            char *save = 0, *t;
            mb_box_stream_init(s, a[1].p, a[2].p);
            for (t = strtok_r(tok[4], ",", &save); t; t = strtok_r(0, ",", &save)) {
                size_t len = (size_t)strtoul(t, 0, 10);
                uint8_t *chunk_in, *chunk_out;
                if (off + len > mlen) { fprintf(stderr, "line %d: chunks too long\n", lineno); exit(2); }
                chunk_in = alloc(len);
                chunk_out = alloc(len);
                memcpy(chunk_in, a[3].p + off, len);
                expect(mb_box_stream_update(s, chunk_out, chunk_in, len) == 0, "stream update");
                memcpy(c + 16 + off, chunk_out, len);
                free(chunk_in);
                free(chunk_out);
                off += len;
            }
            expect(off == mlen, "stream chunk sum");
            check("stream", mb_box_stream_final(s, c), c, mlen + 16, a[5]);
            free(s); free(c);
        } else {
            fprintf(stderr, "line %d: unknown case %s\n", lineno, tok[0]);
            return 2;
        }
        for (i = 1; i < nt; i++) free(a[i].p);
    }
    printf("ok %d cases, %d failures\n", cases, failures);
    return failures ? 1 : 0;
}
