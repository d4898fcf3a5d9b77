/* SPDX-License-Identifier: MIT */
/*
 * ASan+UBSan driver for the P-256 code (built by mk/checks.mk per radix, linked to the
 * library built with -fsanitize=address,undefined; run by tests/test_p256_sanitizers.py).
 * Reads lines "op sk-hex pk-hex rnd-hex" from stdin (ops: base, ecdh, ecdhr, comp,
 * decomp; "-" for an unused field, pk of any length) and prints "rc out-hex" per line,
 * so the Python side checks the results against OpenSSL while the sanitizers watch
 * every access. Heap copies of exactly the input length let ASan catch any over-read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "motebox.h"

static size_t unhex(uint8_t **out, const char *s)
{
    size_t n = strcmp(s, "-") == 0 ? 0 : strlen(s) / 2, i;
    unsigned v;
    *out = malloc(n ? n : 1);
    for (i = 0; i < n; i++) {
        sscanf(s + 2 * i, "%2x", &v);
        (*out)[i] = (uint8_t)v;
    }
    return n;
}

int main(void)
{
    char op[16], a[200], b[400], c[200];
    while (scanf("%15s %199s %399s %199s", op, a, b, c) == 4) {
        uint8_t *sk, *pk, *rnd, *out = malloc(65);
        size_t sklen = unhex(&sk, a), pklen = unhex(&pk, b), outlen = 0, i;
        int rc = -2;
        (void)unhex(&rnd, c);
        (void)sklen;
        if (!strcmp(op, "base")) { rc = mb_p256_base(out, sk); outlen = 65; }
        else if (!strcmp(op, "ecdh")) { rc = mb_p256_ecdh(out, sk, pk, pklen); outlen = 32; }
        else if (!strcmp(op, "ecdhr")) { rc = mb_p256_ecdh_randomized(out, sk, pk, pklen, rnd); outlen = 32; }
        else if (!strcmp(op, "comp")) { rc = mb_p256_compress(out, pk); outlen = 33; }
        else if (!strcmp(op, "decomp")) { rc = mb_p256_decompress(out, pk); outlen = 65; }
        printf("%d ", rc);
        for (i = 0; i < outlen; i++) printf("%02x", out[i]);
        printf("\n");
        free(sk); free(pk); free(rnd); free(out);
    }
    return 0;
}
