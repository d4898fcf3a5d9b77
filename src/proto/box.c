/* SPDX-License-Identifier: MIT */
/* secretbox (XSalsa20-Poly1305) and box (X25519 + HSalsa20 + secretbox), NaCl layout
 * rules with libsodium's "easy" placement: c = tag(16) || ciphertext.
 *
 * The Poly1305 key is the first 32 bytes of keystream block 0; the message is
 * encrypted with the rest of block 0 and the following blocks; the tag covers the
 * ciphertext only.
 *
 * Failures never branch: a low-order public key or a wrong tag turns into an all-zero
 * byte mask that is ANDed into every output byte as it is produced. So an open checks
 * the tag before it produces any plaintext byte, a forged box yields zeros (never
 * unverified plaintext, not even transiently), and the time taken does not depend on
 * whether the check passed.
 *
 * Overlap: as libsodium's _easy functions, an output may overlap its input in any way
 * (c == m included). When they overlap at different addresses the input is first moved
 * to the output's place, so the work itself always runs in place. */
#include "util/ct.h"
#include "sym/salsa20.h"
#include "sym/poly1305.h"
#include "util/fault.h"
#include <limits.h>

static const uint8_t zeros[32] = { 0 };

/* Fault hardening of the opens (util/fault.h, docs/FAULTS.md): a second, complementary
 * tag check, a check of the MAC key and a second output mask, so that no single skipped
 * instruction or flipped register bit makes a forgery accepted or releases plaintext. */

/* Moves n bytes from s to d (any overlap), low to high when d is below s, else high to
 * low. CT: the data is secret; only the public addresses and n steer it. */
static void move_bytes(uint8_t *d, const uint8_t *s, size_t n)
{
    size_t i;
    if ((uintptr_t)d < (uintptr_t)s) {
        for (i = 0; i < n; i++) d[i] = s[i];
    } else {
        for (i = n; i > 0; i--) d[i - 1] = s[i - 1];
    }
}

/* x, or its n bytes moved to out when [out, out+n) and [x, x+n) overlap without being
 * equal (then out is the input from here on). Differences, not sums, so nothing wraps.
 * CT: addresses and n public. */
static const uint8_t *in_place(uint8_t *out, const uint8_t *x, size_t n)
{
    uintptr_t o = (uintptr_t)out, i = (uintptr_t)x;
    if (o != i && (o > i ? o - i : i - o) < n) {
        move_bytes(out, x, n);
        return out;
    }
    return x;
}

/* Keystream of the secretbox under (n, k): subkey and input of block 1 into subkey/in,
 * block 0 into block0 (its first 32 bytes are the Poly1305 key).
 * CT: k, subkey, block0 secret. */
static void secretbox_start(uint8_t subkey[32], uint8_t in[16], uint8_t block0[64],
                            const uint8_t n[24], const uint8_t k[32])
{
    mb_xsalsa20_setup(subkey, in, n, k);
    mb_salsa20_block(block0, in, subkey);
    mb_salsa20_next(in);
}

/* out[i] = (x[i] ^ keystream[i]) & mask over the message keystream: block[32..64) of
 * block 0, then blocks 1, 2, ..., each generated into block (its Poly1305-key half
 * has been absorbed already, so the buffer is reused: 64 bytes less stack).
 * out may equal x. CT: keystream, x and mask secret; loops depend on len only. */
static void xor_masked(uint8_t *out, const uint8_t *x, size_t len, uint8_t block[64],
                       uint8_t in[16], const uint8_t subkey[32], uint8_t mask)
{
    size_t i, n = len < 32 ? len : 32;
    for (i = 0; i < n; i++) out[i] = (uint8_t)((x[i] ^ block[32 + i]) & mask);
    for (len -= n; len > 0; len -= n) {
        out += n;
        x += n;
        mb_salsa20_block(block, in, subkey);
        mb_salsa20_next(in);
        n = len < 64 ? len : 64;
        for (i = 0; i < n; i++) out[i] = (uint8_t)((x[i] ^ block[i]) & mask);
    }
}

/* Seal; every output byte ANDed with mask (0xff, or 0 to produce all zeros). c may
 * overlap m; tag is written last, so it may overlap m too (the easy layout with c == m).
 * CT: k, m and mask secret. */
static void seal_masked(uint8_t *c, uint8_t tag[16], const uint8_t *m, size_t mlen,
                        const uint8_t n[24], const uint8_t k[32], uint8_t mask)
{
    uint8_t subkey[32], in[16], block0[64];
    poly1305_state mac;
    int i;

    m = in_place(c, m, mlen);
    secretbox_start(subkey, in, block0, n, k);
    mb_poly1305_init(&mac, block0);
    xor_masked(c, m, mlen, block0, in, subkey, mask);
    mb_poly1305_update(&mac, c, mlen);
    mb_poly1305_final(&mac, tag);
    for (i = 0; i < 16; i++) tag[i] &= mask;
    mb_wipe(subkey, sizeof subkey);
    mb_wipe(block0, sizeof block0);
}

#if MB_FAULT_HARDENED
/* Where int has 32 bits and the compiler knows unaligned words (gcc, clang: a Cortex-M4
 * loads them; a core that cannot gets byte accesses), the hardening reads the caller's
 * buffers as words; on 16-bit cores bytes are cheaper than 32-bit words. */
#if (defined(__GNUC__) || defined(__clang__)) && UINT_MAX > 0xffffu
typedef uint32_t word_unaligned __attribute__((aligned(1), may_alias));
#define MB_WORDS_UNALIGNED 1
#endif

/* nw = the complement of the 16 bytes at tag, in their memory layout (so that it can be
 * compared with a word-aligned copy of bytes as words, whatever the byte order). */
static void complement_tag(uint32_t nw[4], const uint8_t tag[16])
{
    int i;
#ifdef MB_WORDS_UNALIGNED
    for (i = 0; i < 4; i++) nw[i] = ~((const word_unaligned *)tag)[i];
#else
    MB_NO_UNROLL
    for (i = 0; i < 16; i++) ((uint8_t *)nw)[i] = (uint8_t)~tag[i];
#endif
}

/* The second check, out of line so the compiler cannot merge it with the first (and a
 * campaign can name it). nwant is the complemented tag (ct_equal_complement32). Returns 0
 * if ok_in and t == ~nwant, else -1: the API's sense, so that a CPU falling into it from
 * a skipped return above (clang places it after the public functions) returns failure.
 * CT: t secret; time depends on nothing. */
static MB_NOINLINE int tag_check2(const uint32_t t[4], const uint32_t nwant[4], uint32_t ok_in)
{
    return (int)(ok_in & ct_equal_complement32(t, nwant, 4)) - 1;
}

/* 0 if the MAC state's s half is k[16..32), else -1 (the API's sense, as tag_check2).
 * Both tag checks compare against the tag the MAC computed: a faulted key pointer (the
 * MSP430 campaign flipped one onto the frame's t and want, so that s was the forged tag
 * itself and r zero) makes them agree on a forgery. With s checked, a wrong r still
 * leaves the tag keyed by the secret s. CT: st, k secret. */
static MB_NOINLINE int mac_key_check(const poly1305_state *st, const uint8_t k[32])
{
    uint32_t diff = 0;
    int i;
    MB_NO_UNROLL
    for (i = 0; i < 4; i++) diff |= st->pad[i] ^ load32_le(k + 16 + 4 * i);
    return -(int)ct_nonzero32(diff);
}

/* out[0..len) &= mask, after the decryption applied the first check's mask: whatever a
 * single fault let into out (a skipped AND, a keystream block generated into out through
 * a faulted pointer) is cleared here. mask is 0 or all ones, so byte order does not
 * matter: 16 bytes a turn as words where they are cheap (MB_WORDS_UNALIGNED), else
 * byte-wise. Not out of line: a function after the public ones is where
 * a skipped return falls (see tag_check2). CT: out, mask secret; time depends on len. */
static void remask(uint8_t *out, size_t len, uint32_t mask)
{
    size_t i = 0;
#ifdef MB_WORDS_UNALIGNED
    for (; len - i >= 16; i += 16) {
        word_unaligned *w = (word_unaligned *)(out + i);
        w[0] &= mask;
        w[1] &= mask;
        w[2] &= mask;
        w[3] &= mask;
    }
#endif
    for (; i < len; i++) out[i] &= (uint8_t)mask;
}
#endif

/* Open; ok_in and ok_in2 are 1 (go ahead) or 0 (fail anyway), the same verdict computed
 * twice, one for each tag check; k_wipe: NULL, or a key buffer of the caller wiped once k
 * is no longer needed (public choice). Returns 0 if both ok and the tag is right, else
 * -1; m holds the plaintext, or zeros. m may overlap c and tag (the tag is copied before
 * anything is written). Hardened: -1 is the OR of both checks' "ok - 1",
 * so one skipped decrement or OR still leaves -1.
 * CT: k, the keystream and the outcome are secret here (the outcome becomes public
 * only through the return value); no branch depends on them. */
static int open_masked(uint8_t *m, const uint8_t *c, size_t clen, const uint8_t tag[16],
                       const uint8_t n[24], const uint8_t k[32], uint32_t ok_in,
                       uint32_t ok_in2, uint8_t *k_wipe)
{
    uint8_t subkey[32], in[16], block0[64], want[16];
    uint32_t t32[4];                  /* the computed tag, word-aligned for tag_check2 */
    uint8_t *t = (uint8_t *)t32;
    poly1305_state mac;
    uint32_t ok;
#if MB_FAULT_HARDENED
    uint32_t nwant[4];   /* the tag complemented, read separately: for the second check */
    uint32_t key_ok;
#endif
    /* Each check's verdict, 1 = the tag matched, kept in memory from the start (0) and
     * stored right after its check. The output masks and the result are computed from
     * them, the result last, straight into the return register: a skipped load,
     * decrement or OR there leaves -1, a wipe whose pointer a fault moved onto them
     * writes 0 = mismatch, and a return address faulted past the checks finds them 0.
     * (The campaigns found a skipped final register move returning 0, wipes zeroing a
     * 0 / -1 result, and LR bit flips returning past the checks.) */
    volatile unsigned verdict[2];
    int r;

    verdict[0] = 0;
    verdict[1] = MB_FAULT_HARDENED ? 0 : 1;

    mb_copy(want, tag, 16);
#if MB_FAULT_HARDENED
    complement_tag(nwant, tag);
#endif
    c = in_place(m, c, clen);
    secretbox_start(subkey, in, block0, n, k);
    mb_poly1305_init(&mac, block0);
#if MB_FAULT_HARDENED
    key_ok = (uint32_t)(mac_key_check(&mac, block0) + 1);
    ok_in &= key_ok;
    ok_in2 &= key_ok;
#endif
    mb_poly1305_update(&mac, c, clen);
    mb_poly1305_final(&mac, t);
    ok = ok_in & (uint32_t)(mb_verify16(t, want) + 1);   /* verify16: 0 or -1 */
    verdict[0] = (unsigned)(ok & 1u);
#if MB_FAULT_HARDENED
    verdict[1] = (unsigned)((uint32_t)(tag_check2(t32, nwant, ok_in2) + 1) & 1u);
#else
    (void)ok_in2;
#endif
    xor_masked(m, c, clen, block0, in, subkey, (uint8_t)ct_mask32(verdict[0]));
#if MB_FAULT_HARDENED
    remask(m, clen, ct_mask32(verdict[1]));
#endif
    mb_wipe(subkey, sizeof subkey);
    mb_wipe(block0, sizeof block0);
    mb_wipe(t, 16);
    if (k_wipe) mb_wipe(k_wipe, 32);   /* the caller's own key (box) */
    r = ((int)verdict[0] - 1) | ((int)verdict[1] - 1);
    return r;
}

/* CT: k and m secret; see seal_masked. mlen is public. */
int mb_secretbox_detached(uint8_t *c, uint8_t tag[16], const uint8_t *m, size_t mlen,
                          const uint8_t n[24], const uint8_t k[32])
{
    if (mlen > MB_SECRETBOX_MESSAGEBYTES_MAX) {
        mb_wipe(tag, 16);
        return -1;
    }
    seal_masked(c, tag, m, mlen, n, k, 0xff);
    return 0;
}

/* CT: as mb_secretbox_detached. */
int mb_secretbox(uint8_t *c, const uint8_t *m, size_t mlen, const uint8_t n[24],
                 const uint8_t k[32])
{
    return mb_secretbox_detached(c + 16, c, m, mlen, n, k);
}

/* CT: k secret; see open_masked. */
int mb_secretbox_open_detached(uint8_t *m, const uint8_t *c, size_t clen,
                               const uint8_t tag[16], const uint8_t n[24],
                               const uint8_t k[32])
{
    return open_masked(m, c, clen, tag, n, k, 1, 1, NULL);
}

/* CT: as mb_secretbox_open_detached; clen is public. */
int mb_secretbox_open(uint8_t *m, const uint8_t *c, size_t clen, const uint8_t n[24],
                      const uint8_t k[32])
{
    if (clen < 16) return -1;
    return open_masked(m, c + 16, clen - 16, c, n, k, 1, 1, NULL);
}

/* k = HSalsa20(X25519(sk, pk), 0), or zeros. Returns 1 if pk was fine, else 0; ok2, if
 * not NULL, gets the same verdict computed again from the shared secret's bytes: the
 * open feeds one to each of its two tag checks, so that no single fault turns a
 * low-order key (shared secret 0, box key HSalsa20(0) known to anyone) into an accepted
 * one. CT: sk, the shared secret and k secret; mb_x25519's result is used as a mask. */
static uint32_t beforenm(uint8_t k[32], const uint8_t pk[32], const uint8_t sk[32],
                         uint32_t *ok2)
{
    uint8_t s[32], mask;
    uint32_t ok;
    int i;
    ok = (uint32_t)(mb_x25519(s, sk, pk) + 1);   /* 0 or -1 -> 1 or 0 */
    if (ok2) *ok2 = (uint32_t)-mb_verify32(s, zeros);   /* 0 iff s is all zero */
    mb_hsalsa20_core(k, zeros, s, mb_salsa20_sigma);
    mask = (uint8_t)ct_mask32(ok);
    for (i = 0; i < 32; i++) k[i] &= mask;
    mb_wipe(s, sizeof s);
    return ok;
}

/* CT: sk, k secret; see beforenm. */
int mb_box_beforenm(uint8_t k[32], const uint8_t pk[32], const uint8_t sk[32])
{
    return (int)beforenm(k, pk, sk, NULL) - 1;
}

/* CT: sk, m and the shared key secret; the key is wiped. */
int mb_box_detached(uint8_t *c, uint8_t tag[16], const uint8_t *m, size_t mlen,
                    const uint8_t n[24], const uint8_t pk[32], const uint8_t sk[32])
{
    uint8_t k[32];
    uint32_t ok;
    if (mlen > MB_BOX_MESSAGEBYTES_MAX) {
        mb_wipe(tag, 16);
        return -1;
    }
    ok = beforenm(k, pk, sk, NULL);
    seal_masked(c, tag, m, mlen, n, k, (uint8_t)ct_mask32(ok));
    mb_wipe(k, sizeof k);
    return (int)ok - 1;
}

/* CT: as mb_box_detached. */
int mb_box(uint8_t *c, const uint8_t *m, size_t mlen, const uint8_t n[24],
           const uint8_t pk[32], const uint8_t sk[32])
{
    return mb_box_detached(c + 16, c, m, mlen, n, pk, sk);
}

/* CT: sk and the shared key secret; see open_masked. */
int mb_box_open_detached(uint8_t *m, const uint8_t *c, size_t clen, const uint8_t tag[16],
                         const uint8_t n[24], const uint8_t pk[32], const uint8_t sk[32])
{
    uint8_t k[32];
    uint32_t ok, ok2;
    ok = beforenm(k, pk, sk, &ok2);
    /* open_masked wipes k itself, so that its result is the last value computed (a
     * skipped move after a wipe here would return what the wipe left in the register). */
    return open_masked(m, c, clen, tag, n, k, ok, ok2, k);
}

/* CT: as mb_box_open_detached; clen is public. */
int mb_box_open(uint8_t *m, const uint8_t *c, size_t clen, const uint8_t n[24],
                const uint8_t pk[32], const uint8_t sk[32])
{
    if (clen < 16) return -1;
    return mb_box_open_detached(m, c + 16, clen - 16, c, n, pk, sk);
}
