/* SPDX-License-Identifier: MIT */
/*
 * motebox: public-key authenticated encryption for the smallest devices.
 *
 * The one public header. C99, no heap, no RNG: functions that need randomness take
 * random bytes as an argument. Every function that can fail returns 0 on success and
 * -1 on failure, and on failure every output buffer named in its documentation has been
 * zeroed. Buffers are caller-owned.
 *
 * Secrets: each function states which inputs are secret ("Secret:"). Execution time,
 * branches and memory addresses depend on public inputs (lengths, public keys, nonces)
 * only, never on secret ones. All secret temporaries are wiped before return.
 *
 * Aliasing: unless a function says otherwise, output buffers must not overlap inputs.
 * The secretbox and box functions (sealing and opening, easy and detached) accept any
 * overlap of their output with their input, c == m included, as libsodium's _easy
 * functions do; two outputs (c and tag) must not overlap each other.
 */
#ifndef MOTEBOX_H
#define MOTEBOX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define MB_MUST_CHECK __attribute__((warn_unused_result))
#else
#define MB_MUST_CHECK
#endif

/* The declarations below are the library's exported interface: a shared build compiled
 * with -fvisibility=hidden (CMakeLists.txt) exports exactly these, every internal mb_
 * symbol stays hidden. Closed at the end of the file. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* ---- sizes --------------------------------------------------------------------- */
#define MB_X25519_BYTES            32  /* secret keys, public keys, shared secrets */
#define MB_X25519_RANDOMBYTES      32  /* random input of the randomized ladder */
#define MB_BOX_PUBLICKEYBYTES      32
#define MB_BOX_SECRETKEYBYTES      32
#define MB_BOX_BEFORENMBYTES       32
#define MB_BOX_NONCEBYTES          24
#define MB_BOX_MACBYTES            16  /* the tag: c = tag(16) || ciphertext */
#define MB_SECRETBOX_KEYBYTES      32
#define MB_SECRETBOX_NONCEBYTES    24
#define MB_SECRETBOX_MACBYTES      16
/* Longest message the sealing functions take, so that mlen + 16 cannot wrap (as
 * libsodium: SIZE_MAX - 16; 65519 where size_t has 16 bits). Beyond it they return -1. */
#define MB_SECRETBOX_MESSAGEBYTES_MAX (SIZE_MAX - MB_SECRETBOX_MACBYTES)
#define MB_BOX_MESSAGEBYTES_MAX       (SIZE_MAX - MB_BOX_MACBYTES)
#define MB_POLY1305_KEYBYTES       32
#define MB_POLY1305_BYTES          16
#define MB_HSALSA20_OUTPUTBYTES    32
#define MB_HSALSA20_INPUTBYTES     16
#define MB_P256_SECRETKEYBYTES     32  /* big-endian scalar in [1, n-1] */
#define MB_P256_PUBLICKEYBYTES     65  /* SEC1 uncompressed: 04 || X || Y */
#define MB_P256_COMPRESSEDBYTES    33  /* SEC1 compressed: 02/03 || X */
#define MB_P256_SHAREDBYTES        32  /* big-endian x-coordinate */
#define MB_P256_RANDOMBYTES        32

/* ---- utilities ----------------------------------------------------------------- */

/* Overwrite len bytes at p with zeros in a way the compiler cannot remove. */
void mb_wipe(void *p, size_t len);

/* Constant-time comparison of 16 / 32 bytes: 0 if equal, -1 otherwise.
 * Secret: both inputs (time does not depend on where they differ). */
int mb_verify16(const uint8_t a[16], const uint8_t b[16]) MB_MUST_CHECK;
int mb_verify32(const uint8_t a[32], const uint8_t b[32]) MB_MUST_CHECK;

/* ---- X25519 (RFC 7748) ---------------------------------------------------------- */

/* out = X25519(sk, pk). sk is clamped as RFC 7748 says; the top bit of pk is ignored.
 * Returns -1 and zeroes out when the result is all zero (pk of low order), else 0.
 * Secret: sk, out. Public: pk. out may alias pk. */
int mb_x25519(uint8_t out[32], const uint8_t sk[32], const uint8_t pk[32]) MB_MUST_CHECK;

/* pk = X25519(sk, 9): the public key of sk. Returns 0 (-1 cannot happen for the base
 * point, but callers should check). Secret: sk. */
int mb_x25519_base(uint8_t pk[32], const uint8_t sk[32]) MB_MUST_CHECK;

/* Same result as mb_x25519, computed with randomized projective coordinates
 * ([DS16], Algorithm 1): the starting point is scaled by a nonzero lambda (all 32 bytes
 * of rnd, bits 0 and 255 cleared) and the neutral element by rho = lambda^2. rnd MUST be
 * fresh random bytes for every call (it is the side-channel countermeasure, not a key).
 * Secret: sk, rnd, out. */
int mb_x25519_randomized(uint8_t out[32], const uint8_t sk[32], const uint8_t pk[32],
                         const uint8_t rnd[32]) MB_MUST_CHECK;

/* ---- Salsa20 family and Poly1305 (NaCl primitives) ------------------------------ */

/* HSalsa20: out = HSalsa20(k, in), with the standard constant "expand 32-byte k".
 * Secret: k, out. */
void mb_hsalsa20(uint8_t out[32], const uint8_t in[16], const uint8_t k[32]);

/* XSalsa20 keystream: c[0..len) = keystream(k, n). Secret: k. */
void mb_xsalsa20(uint8_t *c, size_t len, const uint8_t n[24], const uint8_t k[32]);

/* XSalsa20 encryption: c = m XOR keystream(k, n). c may equal m (in place).
 * Secret: k, m. */
void mb_xsalsa20_xor(uint8_t *c, const uint8_t *m, size_t len, const uint8_t n[24],
                     const uint8_t k[32]);

/* One-time authenticator: tag = Poly1305(k, m). A key MUST NOT be used twice.
 * Secret: k, m. */
void mb_poly1305(uint8_t tag[16], const uint8_t *m, size_t len, const uint8_t k[32]);

/* 0 if tag == Poly1305(k, m) (compared in constant time), else -1. Secret: k. */
int mb_poly1305_verify(const uint8_t tag[16], const uint8_t *m, size_t len,
                       const uint8_t k[32]) MB_MUST_CHECK;

/* ---- secretbox: XSalsa20-Poly1305, libsodium "easy" layout ----------------------- */

/* c[0..16) = tag, c[16..16+mlen) = ciphertext; c holds mlen + 16 bytes. Returns 0, or
 * -1 when mlen > MB_SECRETBOX_MESSAGEBYTES_MAX (c[0..16) zeroed, nothing else written).
 * The nonce MUST NOT repeat under one key. Secret: k, m. Public: mlen, n. c may overlap
 * m in any way (c == m: seal in place; the buffer must hold mlen + 16 bytes). */
int mb_secretbox(uint8_t *c, const uint8_t *m, size_t mlen, const uint8_t n[24],
                 const uint8_t k[32]) MB_MUST_CHECK;

/* Verifies the tag of c (clen = 16 + mlen bytes) in constant time before decrypting
 * anything; m receives clen - 16 bytes. Returns -1 (m zeroed: clen - 16 bytes, if
 * clen >= 16) on a bad tag or clen < 16. The outcome is applied as a mask to every
 * output byte, so a forged box never puts plaintext in m (not even transiently) and
 * takes the same time as a genuine one. Secret: k (and the plaintext). Public: c, clen,
 * n. m may overlap c in any way (m == c: the plaintext starts at c[0]). */
int mb_secretbox_open(uint8_t *m, const uint8_t *c, size_t clen, const uint8_t n[24],
                      const uint8_t k[32]) MB_MUST_CHECK;

/* Detached layout: ciphertext of mlen bytes in c, tag separately. c may overlap m, and
 * m may overlap c (and tag) for the open. The seal returns -1 when mlen >
 * MB_SECRETBOX_MESSAGEBYTES_MAX (tag zeroed, c untouched), else 0. Secret: k, m (the
 * seal), k (the open). Public: lengths, n, c, tag. */
int mb_secretbox_detached(uint8_t *c, uint8_t tag[16], const uint8_t *m, size_t mlen,
                          const uint8_t n[24], const uint8_t k[32]) MB_MUST_CHECK;
int mb_secretbox_open_detached(uint8_t *m, const uint8_t *c, size_t clen,
                               const uint8_t tag[16], const uint8_t n[24],
                               const uint8_t k[32]) MB_MUST_CHECK;

/* ---- box: X25519 + HSalsa20 + secretbox (crypto_box_curve25519xsalsa20poly1305) -- */

/* k = HSalsa20(X25519(sk, pk), 0): the shared key for mb_secretbox*. Returns -1 (k
 * zeroed) when pk has low order. Secret: sk, k. */
int mb_box_beforenm(uint8_t k[32], const uint8_t pk[32], const uint8_t sk[32]) MB_MUST_CHECK;

/* Box m to the holder of pk from the holder of sk: layout, overlap rules and length
 * limit (MB_BOX_MESSAGEBYTES_MAX: -1, tag zeroed, nothing else written) as
 * mb_secretbox*. Returns -1 (c zeroed, mlen + 16 bytes; detached: mlen bytes and tag)
 * when pk has low order. The opens as mb_secretbox_open*, -1 also for a low-order pk.
 * Secret: sk, m, the plaintext. Public: pk, n, c, lengths. */
int mb_box(uint8_t *c, const uint8_t *m, size_t mlen, const uint8_t n[24],
           const uint8_t pk[32], const uint8_t sk[32]) MB_MUST_CHECK;
int mb_box_open(uint8_t *m, const uint8_t *c, size_t clen, const uint8_t n[24],
                const uint8_t pk[32], const uint8_t sk[32]) MB_MUST_CHECK;
int mb_box_detached(uint8_t *c, uint8_t tag[16], const uint8_t *m, size_t mlen,
                    const uint8_t n[24], const uint8_t pk[32],
                    const uint8_t sk[32]) MB_MUST_CHECK;
int mb_box_open_detached(uint8_t *m, const uint8_t *c, size_t clen, const uint8_t tag[16],
                         const uint8_t n[24], const uint8_t pk[32],
                         const uint8_t sk[32]) MB_MUST_CHECK;

/* ---- streaming sensor API ([HSSW15]'s INIT / UPDATE / FINALIZE) ------------------
 * Encrypts and authenticates any length with constant RAM. The bytes written by all
 * updates, in order, equal the ciphertext part of mb_secretbox(m, n, k), and the final
 * tag equals its first 16 bytes: the receiver opens tag || ciphertext with libsodium's
 * crypto_secretbox_open_easy (or _detached / crypto_box_open_detached_afternm).
 *
 * Fail-closed state: init writes a phase word into the state; a call on a state that
 * was never initialised (zeros, garbage), is finished, or is in the wrong phase (or
 * whose internal offsets are out of range) returns -1, writes zeros to its outputs
 * (len bytes of c or m, or the tag), never plaintext, and wipes the state, so every
 * later call fails too. Total length is unlimited in practice (2^70 bytes). */

/* The state of one sending or receiving stream, allocated by the caller. Secret. */
typedef struct mb_box_stream {
    uint32_t opaque[56];   /* 224 bytes; layout private to src/proto/stream.c */
} mb_box_stream;

/* sizeof(mb_box_stream), for bindings. */
size_t mb_box_stream_size(void);

/* Start a stream under key k (e.g. from mb_box_beforenm) and nonce n. Secret: k.
 * Public: n. The state holds secrets until final (or a failed call) wipes it. */
void mb_box_stream_init(mb_box_stream *s, const uint8_t k[32], const uint8_t n[24]);

/* Encrypt len bytes of m into c (len bytes). Any chunk sizes in any split give the same
 * bytes. c may equal m (in place), otherwise they must not overlap. Returns 0, or -1
 * (c zeroed) on a state not from mb_box_stream_init or already finished.
 * Secret: m, the state. Public: len. */
int mb_box_stream_update(mb_box_stream *s, uint8_t *c, const uint8_t *m,
                         size_t len) MB_MUST_CHECK;

/* Write the tag and wipe the state (it must be initialised again before reuse): a
 * second final returns -1 with tag zeroed, as does one on a state never initialised.
 * Secret: the state. Public: the tag. */
int mb_box_stream_final(mb_box_stream *s, uint8_t tag[16]) MB_MUST_CHECK;

/* Receiving stream: opens tag || ciphertext (as made by mb_box_stream_* or
 * mb_secretbox) that is too long to hold, in two passes over the ciphertext and with
 * no plaintext released before the whole of it is authenticated:
 *   mb_box_unstream_init(s, k, n);
 *   mb_box_unstream_auth(s, c, len) ...     pass 1: every ciphertext byte, any chunks
 *   mb_box_unstream_verify(s, tag)          0 iff the tag is right; else s is finished
 *   mb_box_unstream_update(s, m, c, len)... pass 2: the same bytes again, decrypted
 *   mb_box_unstream_final(s, tag)           0 iff pass 2 saw the bytes pass 1 saw
 * Calls out of this order return -1 (with zeros in m) and finish the state; so does a
 * state from mb_box_stream_init (and the sending functions refuse this one). If final
 * fails, the ciphertext changed between the passes: the caller MUST discard the
 * plaintext of pass 2 (keep it somewhere private until final says 0). The state takes
 * the same 224 bytes; k is not needed after init. All return values are public. */

/* Secret: k. Public: n. */
void mb_box_unstream_init(mb_box_stream *s, const uint8_t k[32], const uint8_t n[24]);

/* Pass 1: authenticate len more ciphertext bytes. -1 unless after init or another auth.
 * Secret: the state. Public: c, len. */
int mb_box_unstream_auth(mb_box_stream *s, const uint8_t *c, size_t len) MB_MUST_CHECK;

/* End of pass 1: 0 if tag (public) authenticates the ciphertext seen, and decryption
 * may start; -1 (state wiped) on a wrong tag or out of order. Constant time in the
 * computed tag. Secret: the state. */
int mb_box_unstream_verify(mb_box_stream *s, const uint8_t tag[16]) MB_MUST_CHECK;

/* Pass 2: decrypt len bytes of c into m (len bytes; m may equal c, otherwise no
 * overlap), authenticating them again. -1 with m zeroed unless verify said 0.
 * Secret: m (the plaintext), the state. Public: c, len. */
int mb_box_unstream_update(mb_box_stream *s, uint8_t *m, const uint8_t *c,
                           size_t len) MB_MUST_CHECK;

/* End of pass 2; wipes the state. 0 iff the bytes of pass 2 have the tag verified in
 * pass 1 and tag (the same 16 bytes again) equals it. Secret: the state. */
int mb_box_unstream_final(mb_box_stream *s, const uint8_t tag[16]) MB_MUST_CHECK;

/* Two-pass opening of a long box kept in external memory (the node never holds the
 * whole ciphertext). read(ctx, off, buf, len) must copy ciphertext bytes
 * [off, off+len) into buf and return 0 (nonzero aborts). Pass 1 authenticates all clen
 * bytes; only if the tag is right does pass 2 read them again, decrypt, and hand the
 * plaintext out through write(ctx, off, buf, len) in chunks. Pass 2 authenticates
 * again and returns -1 if the storage changed between passes: the storage MUST NOT be
 * writable by an attacker while this runs (see docs/DESIGN.md). Returns 0 on success,
 * -1 on a bad tag (nothing written) or a reader/writer failure. Secret: k. */
typedef int (*mb_read_fn)(void *ctx, size_t off, uint8_t *buf, size_t len);
typedef int (*mb_write_fn)(void *ctx, size_t off, const uint8_t *buf, size_t len);
int mb_secretbox_open_twopass(const uint8_t tag[16], size_t clen, const uint8_t n[24],
                              const uint8_t k[32], mb_read_fn read, mb_write_fn write,
                              void *ctx) MB_MUST_CHECK;

/* ---- node side of the node-server protocol (docs/PROTOCOL.md) ---------------------
 * A sensor node sends each reading as one datagram
 *     0x11 || key id (8) || counter c (8, big-endian) || tag (16) || ciphertext
 * = crypto_box_easy(reading, nonce_up(c), pk_server, sk_node) behind a 17-byte header,
 * and accepts a 65-byte receipt for its pending counter. The counter is the nonce: it
 * is used only after it has been reserved in non-volatile memory (NVM), so a power cut
 * at any instruction never makes the node reuse one. NVM is MB_NODE_NVMBYTES the
 * caller keeps (FRAM, a flash page, a file): the node reads it once, at boot, from a
 * pointer, and writes it through a callback, mb_write_fn(ctx, off, buf, len) (return 0
 * once the bytes are durable, nonzero on failure). Two slots (reserved bound, sequence,
 * check) so that a torn write leaves the other slot valid; a blank image (all 0x00 or
 * all 0xFF) is a new node. The node state is MB_NODE_STATEBYTES, no heap, no RNG.
 *
 * Fail-closed state: boot writes a phase word; a call on a state not from a successful
 * boot (zeros, garbage, a failed boot) returns -1 with its outputs zeroed and wipes the
 * state. Secret: the key k and the state (it holds k); readings and receipt plaintexts.
 * Public: counters, key id, NVM contents, lengths, datagrams. */
#define MB_NODE_KEYIDBYTES     8     /* key id = pk_node[0..8) */
#define MB_NODE_HEADBYTES      17    /* type || key id || counter */
#define MB_NODE_OVERHEADBYTES  33    /* head + Poly1305 tag: datagram = 33 + reading */
#define MB_NODE_READINGBYTES_MAX 1024 /* longest reading of one datagram */
#define MB_NODE_RECEIPTBYTES   65    /* head || tag || 32 bytes: status, command */
#define MB_NODE_COMMANDBYTES   31    /* command bytes of a receipt (after its status) */
#define MB_NODE_NVMBYTES       40    /* two 20-byte slots */
#define MB_NODE_BLOCK          16    /* counters reserved per NVM write */
#define MB_NODE_TYPE_READING   0x11  /* first byte of an uplink datagram (version 1) */
#define MB_NODE_TYPE_RECEIPT   0x12  /* first byte of a receipt (version 1) */
#define MB_NODE_STATEBYTES     64    /* sizeof(mb_node) */

/* The state of one node (caller-allocated, MB_NODE_STATEBYTES). Secret. */
typedef struct mb_node {
    uint32_t opaque[16];   /* layout private to src/proto/node_msg.c */
} mb_node;

/* sizeof(mb_node), for bindings. */
size_t mb_node_size(void);

/* Start the node: k = mb_box_beforenm(pk_server, sk_node) (computed once and kept),
 * key_id = pk_node[0..8), nvm = the MB_NODE_NVMBYTES image as it is now. Restores the
 * reserved bound from the newest valid slot and reserves the next block of counters
 * at once (one write through `write`; two on the first boot, from a blank image), so
 * every counter handed out after boot is reserved before it is used. Returns -1 (state
 * wiped) when neither slot is valid nor blank (a corrupt image), the counters are
 * exhausted, or the write fails. Secret: k. Public: key_id, nvm (its checks are a
 * public hash: the image holds no secret). */
int mb_node_boot(mb_node *n, const uint8_t k[32], const uint8_t key_id[8],
                 const uint8_t nvm[MB_NODE_NVMBYTES], mb_write_fn write,
                 void *ctx) MB_MUST_CHECK;

/* Seal one reading m (1 <= mlen <= MB_NODE_READINGBYTES_MAX) into the datagram out
 * (MB_NODE_OVERHEADBYTES + mlen bytes) under the next counter, which becomes the
 * pending one (the previous pending message, if any, can no longer be acknowledged).
 * When the reserved block runs out, the next block is reserved through `write` before
 * return. Retransmit the same bytes until mb_node_open_receipt accepts the receipt: a
 * new seal is a new message. out may overlap m in any way. Returns -1 (out zeroed:
 * 33 + mlen bytes; only its first 33 bytes when mlen is 0 or too long) on a bad state,
 * exhausted counters or a failed reservation. Secret: m, the state. Public: mlen, out. */
int mb_node_seal(mb_node *n, uint8_t *out, const uint8_t *m, size_t mlen,
                 mb_write_fn write, void *ctx) MB_MUST_CHECK;

/* Streaming seal of a reading too long to hold: takes the next counter as mb_node_seal
 * does, writes the 17-byte head and starts s under (k, nonce_up(counter)); then
 *   mb_box_stream_update(s, ...)...  the ciphertext, any chunks;
 *   mb_box_stream_final(s, tag)      the tag.
 * The datagram head || tag || ciphertext equals mb_node_seal's bytes for the same
 * counter and reading. The reading must be 1..MB_NODE_READINGBYTES_MAX bytes for the
 * server to take it (the stream cannot check). Returns -1 (head zeroed, s wiped so that
 * the updates fail closed) as mb_node_seal. Secret: the state. */
int mb_node_seal_stream_init(mb_node *n, mb_box_stream *s, uint8_t head[MB_NODE_HEADBYTES],
                             mb_write_fn write, void *ctx) MB_MUST_CHECK;

/* Open the receipt r (rlen must be MB_NODE_RECEIPTBYTES) for the pending counter:
 * type 0x12, our key id, counter = pending, and a tag that verifies under
 * nonce_down(pending). On success *status = R[0] (0x00: stored), cmd = R[1..32), the
 * message is no longer pending (the same receipt again is refused), returns 0. Any
 * other receipt (no message pending, another counter, a bad tag, a wrong length or
 * type) returns -1 with *status = 0 and cmd zeroed, and leaves the state as it was.
 * Secret: the state, *status and cmd. Public: r, rlen. */
int mb_node_open_receipt(mb_node *n, uint8_t *status, uint8_t cmd[MB_NODE_COMMANDBYTES],
                         const uint8_t *r, size_t rlen) MB_MUST_CHECK;

/* The counter the next seal will use, and the pending one (0: none); both 0 on a state
 * not from a successful boot. Public. */
uint64_t mb_node_next(const mb_node *n);
uint64_t mb_node_pending(const mb_node *n);

/* ---- NIST P-256 ECDH ------------------------------------------------------------- */

/* pk = sk * G, SEC1 uncompressed. Returns -1 (pk zeroed) if sk, read big-endian, is 0 or
 * >= n. Secret: sk. */
int mb_p256_base(uint8_t pk[65], const uint8_t sk[32]) MB_MUST_CHECK;

/* shared = x(sk * P), big-endian, where pk encodes P in SEC1 (65 bytes uncompressed or
 * 33 bytes compressed). Returns -1 with shared zeroed when sk is out of range, the
 * encoding is malformed, a coordinate is >= p, or P is not on the curve.
 * Secret: sk, shared. Public: pk. */
int mb_p256_ecdh(uint8_t shared[32], const uint8_t sk[32], const uint8_t *pk,
                 size_t pklen) MB_MUST_CHECK;

/* As mb_p256_ecdh, with the initial Z randomized from rnd (fresh random bytes per call).
 * Secret: sk, rnd, shared. */
int mb_p256_ecdh_randomized(uint8_t shared[32], const uint8_t sk[32], const uint8_t *pk,
                            size_t pklen, const uint8_t rnd[32]) MB_MUST_CHECK;

/* SEC1 point encodings. Both validate the point (on the curve, coordinates < p) and
 * return -1 with the output zeroed if it is not valid. Public data only. */
int mb_p256_compress(uint8_t out[33], const uint8_t pk[65]) MB_MUST_CHECK;
int mb_p256_decompress(uint8_t out[65], const uint8_t pk[33]) MB_MUST_CHECK;

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif /* MOTEBOX_H */
