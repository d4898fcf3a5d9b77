/* SPDX-License-Identifier: MIT */
/* Differential fuzzing of the symmetric layer against libsodium, arbitrary lengths:
 *   op 0  mb_poly1305 / mb_poly1305_verify vs crypto_onetimeauth(_verify)
 *   op 1  mb_xsalsa20 vs crypto_stream_xsalsa20
 *   op 2  mb_xsalsa20_xor vs crypto_stream_xsalsa20_xor (in place if flags & 8)
 *   op 3  mb_hsalsa20 vs crypto_core_hsalsa20
 *   op 4  mb_secretbox vs crypto_secretbox_easy, c and m overlapping in any way (and
 *         refusing a length over MB_SECRETBOX_MESSAGEBYTES_MAX)
 *   op 5  mb_secretbox_detached vs crypto_secretbox_detached, overlapping (and the limit)
 *   op 6  mb_secretbox_open vs crypto_secretbox_open_easy, overlapping
 *   op 7  mb_secretbox_open_detached vs crypto_secretbox_open_detached, overlapping
 * Input: flags(1) k(32) n(24) a(1) b(1) tag(16) data. a, b (mod 65): the offsets of the
 * input and output in one shared buffer; the opens box data first (libsodium), and XOR
 * b into the tag's first byte if flags & 16. */
#include <sodium.h>

#include "motebox.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (sodium_init() < 0) abort();
    return 0;
}

static void same(const char *what, const uint8_t *got, const uint8_t *want, size_t len)
{
    if (memcmp(got, want, len) != 0) {
        fz_hex("motebox", got, len);
        fz_hex("libsodium", want, len);
        FZ_FAIL("%s: different bytes (len %zu)", what, len);
    }
}

FZ_ENTRY(test_one)

static int test_one(const uint8_t *data, size_t size)
{
    fz_in in = { data, size };
    uint8_t k[32], n[24], tag[16], t2[16];
    uint32_t flags = fz_u8(&in), op = flags & 7, a, b;
    const uint8_t *m;
    size_t len, i;
    uint8_t *buf, *want, *want2;
    int r, r_sod;

    fz_take(&in, k, 32);
    fz_take(&in, n, 24);
    a = fz_u8(&in) % 65;
    b = fz_u8(&in) % 65;
    fz_take(&in, tag, 16);
    m = in.p;
    len = in.n;
    buf = malloc(len + 16 + 65);
    want = malloc(len + 32);
    want2 = malloc(len + 16);

    switch (op) {
    case 0:
        mb_poly1305(t2, m, len, k);
        crypto_onetimeauth(want, m, len, k);
        same("poly1305", t2, want, 16);
        FZ_CHECK(mb_poly1305_verify(t2, m, len, k) == 0, "poly1305_verify refused its tag");
        r = mb_poly1305_verify(tag, m, len, k);
        r_sod = crypto_onetimeauth_verify(tag, m, len, k);
        FZ_CHECK(r == r_sod, "poly1305_verify: motebox %d, libsodium %d", r, r_sod);
        break;
    case 1:
        mb_xsalsa20(buf, len, n, k);
        crypto_stream_xsalsa20(want, len, n, k);
        same("xsalsa20", buf, want, len);
        break;
    case 2:
        if (flags & 8) {
            memcpy(buf, m, len);
            mb_xsalsa20_xor(buf, buf, len, n, k);
        } else {
            mb_xsalsa20_xor(buf, m, len, n, k);
        }
        crypto_stream_xsalsa20_xor(want, m, len, n, k);
        same("xsalsa20_xor", buf, want, len);
        break;
    case 3:
        mb_hsalsa20(buf, n, k);
        crypto_core_hsalsa20(want, n, k, NULL);
        same("hsalsa20", buf, want, 32);
        break;
    case 4:
        memcpy(buf + a, m, len);
        r = mb_secretbox(buf + b, buf + a, len, n, k);
        crypto_secretbox_easy(want, m, len, n, k);
        FZ_CHECK(r == 0, "secretbox refused");
        same("secretbox (overlapping)", buf + b, want, len + 16);
        /* Over the limit (mlen + 16 would wrap): -1, the tag part zeroed, nothing read. */
        memset(t2, 0xa5, 16);
        r = mb_secretbox(t2, m, MB_SECRETBOX_MESSAGEBYTES_MAX + 1 + (a & 15), n, k);
        FZ_CHECK(r == -1 && fz_all_zero(t2, 16), "secretbox over the length limit");
        break;
    case 5:
        memcpy(buf + a, m, len);
        r = mb_secretbox_detached(buf + b, t2, buf + a, len, n, k);
        crypto_secretbox_detached(want, want2, m, len, n, k);
        FZ_CHECK(r == 0, "secretbox_detached refused");
        same("secretbox_detached ciphertext", buf + b, want, len);
        same("secretbox_detached tag", t2, want2, 16);
        memset(t2, 0xa5, 16);
        r = mb_secretbox_detached(buf, t2, m, MB_SECRETBOX_MESSAGEBYTES_MAX + 1 + (a & 15), n, k);
        FZ_CHECK(r == -1 && fz_all_zero(t2, 16), "secretbox_detached over the length limit");
        break;
    case 6:
        crypto_secretbox_easy(buf + b, m, len, n, k);
        if (flags & 16) buf[b] ^= (uint8_t)(b | 1);
        r_sod = crypto_secretbox_open_easy(want, buf + b, len + 16, n, k);
        r = mb_secretbox_open(buf + a, buf + b, len + 16, n, k);
        FZ_CHECK(r == r_sod, "secretbox_open: motebox %d, libsodium %d", r, r_sod);
        if (r == 0) same("secretbox_open (overlapping)", buf + a, m, len);
        else
            for (i = 0; i < len; i++) FZ_CHECK(buf[a + i] == 0, "open: not zeroed on reject");
        break;
    default:
        crypto_secretbox_detached(buf + b, t2, m, len, n, k);
        if (flags & 16) t2[0] ^= (uint8_t)(b | 1);
        r_sod = crypto_secretbox_open_detached(want, buf + b, t2, len, n, k);
        r = mb_secretbox_open_detached(buf + a, buf + b, len, t2, n, k);
        FZ_CHECK(r == r_sod, "secretbox_open_detached: motebox %d, libsodium %d", r, r_sod);
        if (r == 0) same("secretbox_open_detached (overlapping)", buf + a, m, len);
        else
            for (i = 0; i < len; i++) FZ_CHECK(buf[a + i] == 0, "open: not zeroed on reject");
        break;
    }
    free(buf);
    free(want);
    free(want2);
    return 0;
}
