/* SPDX-License-Identifier: MIT */
/*
 * valgrind memcheck constant-time harness for P-256 (run by tests/test_ct_p256.py).
 * Secret inputs (scalars, randomizers) are marked undefined; memcheck then reports any
 * branch ("Conditional jump ... depends on uninitialised value") or memory address
 * ("Use of uninitialised value" in an address) derived from them. Only results that are
 * public by contract are declassified (marked defined) before the harness looks at them:
 * return codes and, after the calls, the outputs.
 * Built with -DCT_LEAKY_CONTROL it adds one deliberate secret branch: that binary must
 * be flagged, proving the check can fail.
 * Prints one line per call: "<name> <rc> <output hex>" for the test to verify.
 * Usage: ct_p256 [number of scalars, default all 7]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/memcheck.h>
#include "motebox.h"

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

static void hex(const char *name, int rc, const uint8_t *b, size_t n)
{
    size_t i;
    printf("%s %d ", name, rc);
    for (i = 0; i < n; i++) printf("%02x", b[i]);
    printf("\n");
}

static void fill(uint8_t *b, size_t n, uint32_t seed)
{
    size_t i;
    for (i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        b[i] = (uint8_t)(seed >> 16);
    }
}

/* n - 1, n - 2, n, 1, 2^256 - 1 and a random one: valid and invalid scalars alike must
 * run without secret-dependent branches. */
static const char *const SCALARS[] = {
    "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550",
    "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc63254f",
    "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551",
    "0000000000000000000000000000000000000000000000000000000000000001",
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    NULL,
};

static void unhex(uint8_t *out, const char *s)
{
    size_t i;
    unsigned v;
    for (i = 0; i < 32; i++) {
        sscanf(s + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
}

int main(int argc, char **argv)
{
    uint8_t sk[32], rnd[32], peer_sk[32], peer[65], peer_c[33], pk[65], shared[32];
    /* (0, sqrt(b)): the x = 0 point takes the public "run on 2P" path. */
    static const char *const X0_POINT =
        "0400000000000000000000000000000000000000000000000000000000000000"
        "0066485c780e2f83d72433bd5d84a06bb6541c2af31dae871728bf856a174f93f4";
    uint8_t x0[65];
    int rc, i, s, count = argc > 1 ? atoi(argv[1]) : 7;

    fill(peer_sk, 32, 7);
    peer_sk[0] &= 0x7f;
    if (mb_p256_base(peer, peer_sk) != 0 || mb_p256_compress(peer_c, peer) != 0) return 2;
    for (i = 0; i < 65; i++) {
        unsigned v;
        sscanf(X0_POINT + 2 * i, "%2x", &v);
        x0[i] = (uint8_t)v;
    }

    for (s = 0; s < count && s < 7; s++) {
        if (s < 5) unhex(sk, SCALARS[s]);
        else fill(sk, 32, 1000u + (uint32_t)s);
        fill(rnd, 32, 2000u + (uint32_t)s);
        SECRET(sk, 32);
        SECRET(rnd, 32);

        rc = mb_p256_base(pk, sk);
        PUBLIC(&rc, sizeof rc);
        PUBLIC(pk, sizeof pk);
        hex("base", rc, pk, sizeof pk);

        rc = mb_p256_ecdh(shared, sk, peer, sizeof peer);
        PUBLIC(&rc, sizeof rc);
        PUBLIC(shared, sizeof shared);
        hex("ecdh", rc, shared, sizeof shared);

        rc = mb_p256_ecdh(shared, sk, peer_c, sizeof peer_c);
        PUBLIC(&rc, sizeof rc);
        PUBLIC(shared, sizeof shared);
        hex("ecdh_c", rc, shared, sizeof shared);

        rc = mb_p256_ecdh_randomized(shared, sk, peer, sizeof peer, rnd);
        PUBLIC(&rc, sizeof rc);
        PUBLIC(shared, sizeof shared);
        hex("ecdh_r", rc, shared, sizeof shared);

        rc = mb_p256_ecdh(shared, sk, x0, sizeof x0);
        PUBLIC(&rc, sizeof rc);
        PUBLIC(shared, sizeof shared);
        hex("ecdh_x0", rc, shared, sizeof shared);

#ifdef CT_LEAKY_CONTROL
        if (sk[31] & 1) printf("leak\n");     /* deliberate secret branch */
#endif
        PUBLIC(sk, 32);
        PUBLIC(rnd, 32);
        hex("sk", 0, sk, 32);
        hex("rnd", 0, rnd, 32);
    }
    hex("peer", 0, peer, sizeof peer);
    return 0;
}
