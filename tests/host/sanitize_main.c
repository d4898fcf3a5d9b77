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
            mb_secretbox(out, a[1].p, a[1].n, a[2].p, a[3].p);
            check("secretbox", 0, out, a[1].n + 16, a[4]);
            free(out);
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
                mb_box_stream_update(s, chunk_out, chunk_in, len);
                memcpy(c + 16 + off, chunk_out, len);
                free(chunk_in);
                free(chunk_out);
                off += len;
            }
            expect(off == mlen, "stream chunk sum");
            mb_box_stream_final(s, c);
            check("stream", 0, c, mlen + 16, a[5]);
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
