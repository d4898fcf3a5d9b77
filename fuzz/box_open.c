/* SPDX-License-Identifier: MIT */
/* Differential fuzzing of the open paths (attacker-supplied boxes, keys, nonces):
 * mb_box_open, mb_box_open_detached, mb_secretbox_open, mb_secretbox_open_detached
 * against libsodium's crypto_box_open_easy / _detached and crypto_secretbox_open_easy /
 * _detached: the same accept/reject decision, the same plaintext, and on reject every
 * output byte zeroed. Also mb_box_beforenm against crypto_box_beforenm.
 *
 * Input: flags(1) sk(32) pk(32) n(24) k(32) [pos(2) xor(1) if flags & CORRUPT] data.
 *   flags & 3: 0 box_open, 1 box_open_detached, 2 secretbox_open, 3 secretbox_open_detached
 *   SEAL: data is a plaintext, boxed by libsodium under the same keys first (so the accept
 *         path is reached), and by mb_box / mb_box_detached / mb_secretbox(_detached),
 *         which must give the same box; CORRUPT: then one byte of the box is XORed;
 *   INPLACE: the detached opens decrypt in place (m == c, documented as allowed).
 * A detached box is read as tag(16) || ciphertext. */
#include <sodium.h>

#include "motebox.h"
#include "fuzz.h"

enum { SEAL = 4, CORRUPT = 8, INPLACE = 16 };

/* motebox's seal of the same plaintext: the same box as libsodium's (r_sod, box),
 * or -1 with its outputs zeroed where libsodium refused (a low-order pk). */
static void seal_same(uint32_t op, int r_sod, const uint8_t *box, size_t blen,
                      const uint8_t *m, size_t mlen, const uint8_t n[24], const uint8_t pk[32],
                      const uint8_t sk[32], const uint8_t k[32])
{
    uint8_t *c = malloc(blen);
    int r;
    memset(c, 0xa5, blen);
    switch (op) {
    case 0: r = mb_box(c, m, mlen, n, pk, sk); break;
    case 1: r = mb_box_detached(c + 16, c, m, mlen, n, pk, sk); break;
    case 2: r = mb_secretbox(c, m, mlen, n, k); break;
    default: r = mb_secretbox_detached(c + 16, c, m, mlen, n, k); break;
    }
    FZ_CHECK(r == (r_sod == 0 ? 0 : -1), "seal op %u: motebox %d, libsodium %d", op, r, r_sod);
    if (r == 0) FZ_CHECK(memcmp(c, box, blen) == 0, "seal op %u: different box", op);
    else FZ_CHECK(fz_all_zero(c, blen), "seal op %u: refused box not zeroed", op);
    /* Over the length limit: -1 with the tag zeroed, nothing else touched. */
    memset(c, 0xa5, 16);
    if (op == 0) r = mb_box(c, m, MB_BOX_MESSAGEBYTES_MAX + 1, n, pk, sk);
    else r = mb_box_detached(c + 16, c, m, MB_BOX_MESSAGEBYTES_MAX + 1, n, pk, sk);
    FZ_CHECK(r == -1 && fz_all_zero(c, 16), "box over the length limit");
    free(c);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (sodium_init() < 0) abort();
    return 0;
}

FZ_ENTRY(test_one)

static int test_one(const uint8_t *data, size_t size)
{
    fz_in in = { data, size };
    uint8_t sk[32], pk[32], n[24], k[32], kmb[32], ksod[32], tag[16];
    uint32_t flags = fz_u8(&in), op = flags & 3, pos = 0, x = 0;
    size_t blen, clen, mlen, i;
    uint8_t *box, *c, *m, *want;
    int r_mb, r_sod;

    fz_take(&in, sk, 32);
    fz_take(&in, pk, 32);
    fz_take(&in, n, 24);
    fz_take(&in, k, 32);
    if (flags & CORRUPT) {
        pos = fz_u16(&in);
        x = fz_u8(&in);
    }

    /* The shared key: same decision, same bytes, zeroed on reject. */
    memset(kmb, 0xa5, sizeof kmb);
    r_mb = mb_box_beforenm(kmb, pk, sk);
    r_sod = crypto_box_beforenm(ksod, pk, sk);
    FZ_CHECK(r_mb == r_sod, "box_beforenm: motebox %d, libsodium %d", r_mb, r_sod);
    if (r_mb == 0)
        FZ_CHECK(memcmp(kmb, ksod, 32) == 0, "box_beforenm: different keys");
    else
        FZ_CHECK(fz_all_zero(kmb, 32), "box_beforenm: key not zeroed on reject");

    /* The box: the rest of the input, or libsodium's box of it. */
    blen = in.n + (flags & SEAL ? crypto_box_MACBYTES : 0);
    box = malloc(blen ? blen : 1);
    if (!(flags & SEAL)) {
        memcpy(box, in.p, in.n);
    } else {
        int r = 0;
        switch (op) {
        case 0: r = crypto_box_easy(box, in.p, in.n, n, pk, sk); break;
        case 1: r = crypto_box_detached(box + 16, box, in.p, in.n, n, pk, sk); break;
        case 2: r = crypto_secretbox_easy(box, in.p, in.n, n, k); break;
        default: r = crypto_secretbox_detached(box + 16, box, in.p, in.n, n, k); break;
        }
        if (r != 0) memset(box, 0, blen);   /* low-order pk: an all-zero "box" */
        seal_same(op, r, box, blen, in.p, in.n, n, pk, sk, k);
    }
    if ((flags & CORRUPT) && blen > 0) box[pos % blen] ^= (uint8_t)x;

    /* Exact-size buffers so that ASan sees any write past the plaintext. */
    mlen = blen >= 16 ? blen - 16 : 0;
    m = malloc(mlen ? mlen : 1);
    want = malloc(mlen ? mlen : 1);
    memset(m, 0xa5, mlen);
    memset(tag, 0, sizeof tag);
    memcpy(tag, box, blen < 16 ? blen : 16);
    clen = blen >= 16 ? blen - 16 : 0;
    c = malloc(clen ? clen : 1);
    memcpy(c, box + (blen >= 16 ? 16 : blen), clen);

    switch (op) {
    case 0:
        r_mb = mb_box_open(m, box, blen, n, pk, sk);
        r_sod = crypto_box_open_easy(want, box, blen, n, pk, sk);
        break;
    case 1:
        if (flags & INPLACE) {
            r_mb = mb_box_open_detached(c, c, clen, tag, n, pk, sk);
            memcpy(m, c, clen);
        } else {
            r_mb = mb_box_open_detached(m, c, clen, tag, n, pk, sk);
        }
        r_sod = crypto_box_open_detached(want, box + (blen >= 16 ? 16 : blen), tag, clen, n,
                                         pk, sk);
        break;
    case 2:
        r_mb = mb_secretbox_open(m, box, blen, n, k);
        r_sod = crypto_secretbox_open_easy(want, box, blen, n, k);
        break;
    default:
        if (flags & INPLACE) {
            r_mb = mb_secretbox_open_detached(c, c, clen, tag, n, k);
            memcpy(m, c, clen);
        } else {
            r_mb = mb_secretbox_open_detached(m, c, clen, tag, n, k);
        }
        r_sod = crypto_secretbox_open_detached(want, box + (blen >= 16 ? 16 : blen), tag, clen,
                                               n, k);
        break;
    }
    /* libsodium's easy opens refuse clen < 16 before touching m; its detached opens of
     * a short box saw a zero-padded tag, as motebox did. */
    FZ_CHECK(r_mb == r_sod, "op %u: motebox %d, libsodium %d (blen %zu)", op, r_mb, r_sod, blen);
    if (r_mb == 0) {
        FZ_CHECK(memcmp(m, want, mlen) == 0, "op %u: different plaintext", op);
    } else {
        for (i = 0; i < mlen; i++)
            if (m[i] != 0) {
                fz_hex("m", m, mlen);
                FZ_FAIL("op %u: plaintext byte %zu not zeroed on reject", op, i);
            }
    }
    free(box);
    free(m);
    free(want);
    free(c);
    return 0;
}
