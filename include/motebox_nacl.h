/* SPDX-License-Identifier: MIT */
/*
 * motebox_nacl.h: the classic NaCl / TweetNaCl names over motebox, so NaCl programs
 * compile unchanged (crypto_box_curve25519xsalsa20poly1305 and its parts).
 *
 * NaCl's zero-padding conventions: the crypto_box / crypto_secretbox input m starts with
 * crypto_box_ZEROBYTES (32) zero bytes and the output c starts with
 * crypto_box_BOXZEROBYTES (16) zero bytes followed by the 16-byte tag; the opens go the
 * other way and set m[0..32) to zero. Lengths include the padding. c may equal m.
 *
 * Every wrapper is `static inline` here rather than compiled into the library: the
 * library then has no undefined symbol randombytes() (crypto_box_keypair needs one
 * from the user, as TweetNaCl does), programs that never call crypto_box_keypair need
 * not provide it, and the padding shuffles cost nothing when unused.
 *
 * Differences from NaCl, all fail-closed in the way libsodium behaves:
 *  - crypto_scalarmult, crypto_box_beforenm and crypto_box (and _open) return -1, with
 *    the output zeroed, when the public key has low order (NaCl returned 0 with an
 *    all-zero shared secret).
 *  - crypto_core_hsalsa20 supports only NaCl's constant "expand 32-byte k" (sigma),
 *    the one every NaCl construction uses; another constant gives -1 and a zero output.
 *  - Lengths larger than size_t (16-bit targets) are rejected with -1.
 * Secrets: as the mb_* functions they call (include/motebox.h).
 */
#ifndef MOTEBOX_NACL_H
#define MOTEBOX_NACL_H

#include "motebox.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__cplusplus) || (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L)
#define MB_NACL_FN static inline
#elif defined(__GNUC__)
#define MB_NACL_FN static __inline__
#else
#define MB_NACL_FN static
#endif

/* ---- sizes -------------------------------------------------------------------- */
#define crypto_box_curve25519xsalsa20poly1305_PUBLICKEYBYTES 32
#define crypto_box_curve25519xsalsa20poly1305_SECRETKEYBYTES 32
#define crypto_box_curve25519xsalsa20poly1305_BEFORENMBYTES  32
#define crypto_box_curve25519xsalsa20poly1305_NONCEBYTES     24
#define crypto_box_curve25519xsalsa20poly1305_ZEROBYTES      32
#define crypto_box_curve25519xsalsa20poly1305_BOXZEROBYTES   16
#define crypto_box_PUBLICKEYBYTES crypto_box_curve25519xsalsa20poly1305_PUBLICKEYBYTES
#define crypto_box_SECRETKEYBYTES crypto_box_curve25519xsalsa20poly1305_SECRETKEYBYTES
#define crypto_box_BEFORENMBYTES  crypto_box_curve25519xsalsa20poly1305_BEFORENMBYTES
#define crypto_box_NONCEBYTES     crypto_box_curve25519xsalsa20poly1305_NONCEBYTES
#define crypto_box_ZEROBYTES      crypto_box_curve25519xsalsa20poly1305_ZEROBYTES
#define crypto_box_BOXZEROBYTES   crypto_box_curve25519xsalsa20poly1305_BOXZEROBYTES
#define crypto_box_PRIMITIVE      "curve25519xsalsa20poly1305"

#define crypto_secretbox_xsalsa20poly1305_KEYBYTES     32
#define crypto_secretbox_xsalsa20poly1305_NONCEBYTES   24
#define crypto_secretbox_xsalsa20poly1305_ZEROBYTES    32
#define crypto_secretbox_xsalsa20poly1305_BOXZEROBYTES 16
#define crypto_secretbox_KEYBYTES     crypto_secretbox_xsalsa20poly1305_KEYBYTES
#define crypto_secretbox_NONCEBYTES   crypto_secretbox_xsalsa20poly1305_NONCEBYTES
#define crypto_secretbox_ZEROBYTES    crypto_secretbox_xsalsa20poly1305_ZEROBYTES
#define crypto_secretbox_BOXZEROBYTES crypto_secretbox_xsalsa20poly1305_BOXZEROBYTES
#define crypto_secretbox_PRIMITIVE    "xsalsa20poly1305"

#define crypto_scalarmult_curve25519_BYTES       32
#define crypto_scalarmult_curve25519_SCALARBYTES 32
#define crypto_scalarmult_BYTES       crypto_scalarmult_curve25519_BYTES
#define crypto_scalarmult_SCALARBYTES crypto_scalarmult_curve25519_SCALARBYTES
#define crypto_scalarmult_PRIMITIVE   "curve25519"

#define crypto_stream_xsalsa20_KEYBYTES   32
#define crypto_stream_xsalsa20_NONCEBYTES 24
#define crypto_stream_KEYBYTES   crypto_stream_xsalsa20_KEYBYTES
#define crypto_stream_NONCEBYTES crypto_stream_xsalsa20_NONCEBYTES
#define crypto_stream_PRIMITIVE  "xsalsa20"

#define crypto_onetimeauth_poly1305_BYTES    16
#define crypto_onetimeauth_poly1305_KEYBYTES 32
#define crypto_onetimeauth_BYTES     crypto_onetimeauth_poly1305_BYTES
#define crypto_onetimeauth_KEYBYTES  crypto_onetimeauth_poly1305_KEYBYTES
#define crypto_onetimeauth_PRIMITIVE "poly1305"

#define crypto_core_hsalsa20_OUTPUTBYTES 32
#define crypto_core_hsalsa20_INPUTBYTES  16
#define crypto_core_hsalsa20_KEYBYTES    32
#define crypto_core_hsalsa20_CONSTBYTES  16

#define crypto_verify_16_BYTES 16
#define crypto_verify_32_BYTES 32

/* ---- the user supplies this (TweetNaCl convention): fill x with xlen random bytes */
extern void randombytes(unsigned char *x, unsigned long long xlen);

/* ---- helpers (not part of NaCl) ------------------------------------------------- */

/* 1 if a NaCl length fits size_t on this target (always on 32/64-bit). */
MB_NACL_FN int mb_nacl_len_ok(unsigned long long n)
{
    return n <= (unsigned long long)(size_t)-1;
}

MB_NACL_FN void mb_nacl_zero(unsigned char *p, unsigned long long n)
{
    mb_wipe(p, (size_t)n);
}

/* ---- verify ---------------------------------------------------------------------- */

MB_NACL_FN int crypto_verify_16(const unsigned char *x, const unsigned char *y)
{
    return mb_verify16(x, y);
}

MB_NACL_FN int crypto_verify_32(const unsigned char *x, const unsigned char *y)
{
    return mb_verify32(x, y);
}

/* ---- core, stream, onetimeauth ----------------------------------------------------- */

MB_NACL_FN int crypto_core_hsalsa20(unsigned char *out, const unsigned char *in,
                                    const unsigned char *k, const unsigned char *c)
{
    static const unsigned char sigma[16] = {
        'e', 'x', 'p', 'a', 'n', 'd', ' ', '3', '2', '-', 'b', 'y', 't', 'e', ' ', 'k'
    };
    unsigned d = 0;
    int i;
    for (i = 0; i < 16; i++) d |= (unsigned)(c[i] ^ sigma[i]);   /* c is public */
    if (d != 0) {
        mb_nacl_zero(out, 32);
        return -1;
    }
    mb_hsalsa20(out, in, k);
    return 0;
}

MB_NACL_FN int crypto_stream_xsalsa20(unsigned char *c, unsigned long long clen,
                                      const unsigned char *n, const unsigned char *k)
{
    if (!mb_nacl_len_ok(clen)) return -1;
    mb_xsalsa20(c, (size_t)clen, n, k);
    return 0;
}

MB_NACL_FN int crypto_stream_xsalsa20_xor(unsigned char *c, const unsigned char *m,
                                          unsigned long long mlen, const unsigned char *n,
                                          const unsigned char *k)
{
    if (!mb_nacl_len_ok(mlen)) return -1;
    mb_xsalsa20_xor(c, m, (size_t)mlen, n, k);
    return 0;
}

MB_NACL_FN int crypto_onetimeauth_poly1305(unsigned char *out, const unsigned char *m,
                                           unsigned long long mlen, const unsigned char *k)
{
    if (!mb_nacl_len_ok(mlen)) return -1;
    mb_poly1305(out, m, (size_t)mlen, k);
    return 0;
}

MB_NACL_FN int crypto_onetimeauth_poly1305_verify(const unsigned char *h,
                                                  const unsigned char *m,
                                                  unsigned long long mlen,
                                                  const unsigned char *k)
{
    if (!mb_nacl_len_ok(mlen)) return -1;
    return mb_poly1305_verify(h, m, (size_t)mlen, k);
}

/* ---- scalarmult ------------------------------------------------------------------ */

MB_NACL_FN int crypto_scalarmult_curve25519(unsigned char *q, const unsigned char *n,
                                            const unsigned char *p)
{
    return mb_x25519(q, n, p);
}

MB_NACL_FN int crypto_scalarmult_curve25519_base(unsigned char *q, const unsigned char *n)
{
    return mb_x25519_base(q, n);
}

/* ---- secretbox (zero-padded) ------------------------------------------------------- */

/* m: 32 zero bytes || message (mlen >= 32 in all); c: 16 zero bytes || tag || ct. */
MB_NACL_FN int crypto_secretbox_xsalsa20poly1305(unsigned char *c, const unsigned char *m,
                                                 unsigned long long mlen,
                                                 const unsigned char *n,
                                                 const unsigned char *k)
{
    int r;
    if (mlen < 32 || !mb_nacl_len_ok(mlen)) return -1;
    r = mb_secretbox_detached(c + 32, c + 16, m + 32, (size_t)mlen - 32, n, k);
    mb_nacl_zero(c, 16);
    return r;   /* 0: mlen - 32 is below MB_SECRETBOX_MESSAGEBYTES_MAX */
}

/* c: 16 bytes (ignored) || tag || ct (clen >= 32); m: 32 zero bytes || message.
 * -1 on a forged box, with m[0..clen) zeroed. */
MB_NACL_FN int crypto_secretbox_xsalsa20poly1305_open(unsigned char *m,
                                                      const unsigned char *c,
                                                      unsigned long long clen,
                                                      const unsigned char *n,
                                                      const unsigned char *k)
{
    unsigned char tag[16];
    int i, r;
    if (clen < 32 || !mb_nacl_len_ok(clen)) return -1;
    for (i = 0; i < 16; i++) tag[i] = c[16 + i];   /* m may equal c */
    r = mb_secretbox_open_detached(m + 32, c + 32, (size_t)clen - 32, tag, n, k);
    mb_nacl_zero(m, 32);
    return r;
}

/* ---- box (zero-padded) ---------------------------------------------------------- */

MB_NACL_FN int crypto_box_curve25519xsalsa20poly1305_beforenm(unsigned char *k,
                                                              const unsigned char *pk,
                                                              const unsigned char *sk)
{
    return mb_box_beforenm(k, pk, sk);
}

MB_NACL_FN int crypto_box_curve25519xsalsa20poly1305_afternm(unsigned char *c,
                                                             const unsigned char *m,
                                                             unsigned long long mlen,
                                                             const unsigned char *n,
                                                             const unsigned char *k)
{
    return crypto_secretbox_xsalsa20poly1305(c, m, mlen, n, k);
}

MB_NACL_FN int crypto_box_curve25519xsalsa20poly1305_open_afternm(unsigned char *m,
                                                                  const unsigned char *c,
                                                                  unsigned long long clen,
                                                                  const unsigned char *n,
                                                                  const unsigned char *k)
{
    return crypto_secretbox_xsalsa20poly1305_open(m, c, clen, n, k);
}

MB_NACL_FN int crypto_box_curve25519xsalsa20poly1305(unsigned char *c,
                                                     const unsigned char *m,
                                                     unsigned long long mlen,
                                                     const unsigned char *n,
                                                     const unsigned char *pk,
                                                     const unsigned char *sk)
{
    unsigned char k[32];
    int r;
    if (mlen < 32 || !mb_nacl_len_ok(mlen)) return -1;
    if (mb_box_beforenm(k, pk, sk) != 0) {
        mb_nacl_zero(c, mlen);
        return -1;
    }
    r = crypto_secretbox_xsalsa20poly1305(c, m, mlen, n, k);
    mb_wipe(k, sizeof k);
    return r;
}

MB_NACL_FN int crypto_box_curve25519xsalsa20poly1305_open(unsigned char *m,
                                                          const unsigned char *c,
                                                          unsigned long long clen,
                                                          const unsigned char *n,
                                                          const unsigned char *pk,
                                                          const unsigned char *sk)
{
    unsigned char k[32];
    int r;
    if (clen < 32 || !mb_nacl_len_ok(clen)) return -1;
    if (mb_box_beforenm(k, pk, sk) != 0) {
        mb_nacl_zero(m, clen);
        return -1;
    }
    r = crypto_secretbox_xsalsa20poly1305_open(m, c, clen, n, k);
    mb_wipe(k, sizeof k);
    return r;
}

/* sk from randombytes(), pk = X25519(sk, 9). */
MB_NACL_FN int crypto_box_curve25519xsalsa20poly1305_keypair(unsigned char *pk,
                                                             unsigned char *sk)
{
    randombytes(sk, 32);
    return mb_x25519_base(pk, sk);
}

/* ---- the generic names ------------------------------------------------------------ */
#define crypto_box                crypto_box_curve25519xsalsa20poly1305
#define crypto_box_open           crypto_box_curve25519xsalsa20poly1305_open
#define crypto_box_keypair        crypto_box_curve25519xsalsa20poly1305_keypair
#define crypto_box_beforenm       crypto_box_curve25519xsalsa20poly1305_beforenm
#define crypto_box_afternm        crypto_box_curve25519xsalsa20poly1305_afternm
#define crypto_box_open_afternm   crypto_box_curve25519xsalsa20poly1305_open_afternm
#define crypto_secretbox          crypto_secretbox_xsalsa20poly1305
#define crypto_secretbox_open     crypto_secretbox_xsalsa20poly1305_open
#define crypto_scalarmult         crypto_scalarmult_curve25519
#define crypto_scalarmult_base    crypto_scalarmult_curve25519_base
#define crypto_stream             crypto_stream_xsalsa20
#define crypto_stream_xor         crypto_stream_xsalsa20_xor
#define crypto_onetimeauth        crypto_onetimeauth_poly1305
#define crypto_onetimeauth_verify crypto_onetimeauth_poly1305_verify

#ifdef __cplusplus
}
#endif
#endif /* MOTEBOX_NACL_H */
