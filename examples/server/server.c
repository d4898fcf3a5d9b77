/* SPDX-License-Identifier: MIT */
/* A host program using an installed motebox (pkg-config or find_package, see README.md):
 * checks X25519 against RFC 7748, then, given a box, opens it as the gateway of a sensor
 * network would.
 *   motebox-server                          RFC 7748 check only; exit 0 iff it passed
 *   motebox-server PK SK NONCE BOX          also print the plaintext of BOX (hex), a
 *                                           crypto_box made for SK by the holder of PK
 * Exit status: 0 ok, 1 a vector failed, 2 bad arguments, 3 the box did not open. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <motebox.h>

#include "../rfc7748_vectors.h"

static int check_rfc7748(void)
{
    int failed = 0;
    size_t i;
    for (i = 0; i < RFC7748_NVECTORS; i++) {
        uint8_t sk[32], u[32], want[32], got[32];
        if (rfc7748_unhex(sk, 32, rfc7748_vectors[i][0]) || rfc7748_unhex(u, 32, rfc7748_vectors[i][1])
            || rfc7748_unhex(want, 32, rfc7748_vectors[i][2]))
            return 1;
        if (mb_x25519(got, sk, u) != 0 || memcmp(got, want, 32) != 0) {
            printf("x25519 vector %u: FAIL\n", (unsigned)i);
            failed = 1;
        }
    }
    printf("x25519 rfc7748: %s\n", failed ? "FAIL" : "ok");
    return failed;
}

static int open_box(const char *pkh, const char *skh, const char *nh, const char *ch)
{
    uint8_t pk[32], sk[32], n[24];
    size_t clen = strlen(ch) / 2;
    uint8_t *c, *m;
    size_t i;
    int rc;
    if (clen < MB_BOX_MACBYTES || rfc7748_unhex(pk, 32, pkh) || rfc7748_unhex(sk, 32, skh)
        || rfc7748_unhex(n, 24, nh))
        return 2;
    c = malloc(clen);
    m = malloc(clen);
    if (c == NULL || m == NULL || rfc7748_unhex(c, clen, ch)) {
        free(c);
        free(m);
        return 2;
    }
    rc = mb_box_open(m, c, clen, n, pk, sk) == 0 ? 0 : 3;
    if (rc == 0) {
        for (i = 0; i < clen - MB_BOX_MACBYTES; i++)
            printf("%02x", m[i]);
        printf("\n");
    } else {
        printf("box: does not open\n");
    }
    mb_wipe(sk, sizeof sk);
    mb_wipe(m, clen);
    free(c);
    free(m);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 1 && argc != 5) {
        fprintf(stderr, "usage: %s [PK SK NONCE BOX] (hex)\n", argv[0]);
        return 2;
    }
    if (check_rfc7748() != 0)
        return 1;
    return argc == 5 ? open_box(argv[1], argv[2], argv[3], argv[4]) : 0;
}
