/* SPDX-License-Identifier: MIT */
/* Differential fuzzing of X25519 against libsodium's crypto_scalarmult: arbitrary
 * scalars and u-coordinates (non-canonical u >= p, the top bit set, the low-order
 * points), the same accept/reject decision (-1 for an all-zero result), the same bytes,
 * zeros on reject; mb_x25519 (also with out aliasing pk), mb_x25519_randomized with any
 * rnd, and mb_x25519_base against crypto_scalarmult_base.
 * Input: flags(1) sk(32) u(32) rnd(32). flags & 1: u is a low-order point from the
 * table below, chosen by u[0], with bit 255 set if u[1] & 1 (libsodium ignores it too). */
#include <sodium.h>

#include "motebox.h"
#include "fuzz.h"

/* Points of order 1, 2, 4 or 8 on the curve or its twist, little-endian: 0, 1, the two
 * of order 8, p - 1, and the non-canonical p and p + 1 (libsodium's blocklist). */
static const uint8_t low_order[7][32] = {
    { 0 },
    { 1 },
    { 0xe0, 0xeb, 0x7a, 0x7c, 0x3b, 0x41, 0xb8, 0xae, 0x16, 0x56, 0xe3, 0xfa, 0xf1, 0x9f,
      0xc4, 0x6a, 0xda, 0x09, 0x8d, 0xeb, 0x9c, 0x32, 0xb1, 0xfd, 0x86, 0x62, 0x05, 0x16,
      0x5f, 0x49, 0xb8, 0x00 },
    { 0x5f, 0x9c, 0x95, 0xbc, 0xa3, 0x50, 0x8c, 0x24, 0xb1, 0xd0, 0xb1, 0x55, 0x9c, 0x83,
      0xef, 0x5b, 0x04, 0x44, 0x5c, 0xc4, 0x58, 0x1c, 0x8e, 0x86, 0xd8, 0x22, 0x4e, 0xdd,
      0xd0, 0x9f, 0x11, 0x57 },
    { 0xec, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
      0xff, 0xff, 0xff, 0x7f },
    { 0xed, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
      0xff, 0xff, 0xff, 0x7f },
    { 0xee, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
      0xff, 0xff, 0xff, 0x7f },
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (sodium_init() < 0) abort();
    return 0;
}

static void check(const char *what, int r, const uint8_t out[32], int r_sod,
                  const uint8_t want[32])
{
    FZ_CHECK(r == r_sod, "%s: motebox %d, libsodium %d", what, r, r_sod);
    if (r == 0)
        FZ_CHECK(memcmp(out, want, 32) == 0, "%s: different shared secret", what);
    else
        FZ_CHECK(fz_all_zero(out, 32), "%s: output not zeroed on reject", what);
}

FZ_ENTRY(test_one)

static int test_one(const uint8_t *data, size_t size)
{
    fz_in in = { data, size };
    uint8_t sk[32], u[32], rnd[32], out[32], want[32], alias[32];
    uint32_t flags = fz_u8(&in);
    int r_sod;
    fz_take(&in, sk, 32);
    fz_take(&in, u, 32);
    fz_take(&in, rnd, 32);
    if (flags & 1) {
        int top = u[1] & 1;
        memcpy(u, low_order[u[0] % 7], 32);
        if (top) u[31] |= 0x80;
    }
    r_sod = crypto_scalarmult(want, sk, u);
    if (r_sod != 0) memset(want, 0, 32);

    memset(out, 0xa5, 32);
    check("x25519", mb_x25519(out, sk, u), out, r_sod, want);
    memcpy(alias, u, 32);
    check("x25519 out == pk", mb_x25519(alias, sk, alias), alias, r_sod, want);
    memset(out, 0xa5, 32);
    check("x25519_randomized", mb_x25519_randomized(out, sk, u, rnd), out, r_sod, want);

    r_sod = crypto_scalarmult_base(want, sk);
    memset(out, 0xa5, 32);
    check("x25519_base", mb_x25519_base(out, sk), out, r_sod, want);
    return 0;
}
