/* SPDX-License-Identifier: MIT */
/* The node side of the node-server protocol (docs/PROTOCOL.md): counters reserved ahead
 * in two NVM slots, readings sealed as datagrams (one-shot and streaming), receipts
 * opened for the pending counter only. Everything the code branches on is public: the
 * counters, the NVM contents, the lengths and headers of datagrams, and the outcome of
 * each check. */
#include "util/ct.h"

/* The private layout behind mb_node: 64 bytes, only byte arrays and 32-bit words (the
 * opaque type promises no wider alignment). Counters are kept as (high, low) words. */
struct node_state {
    uint8_t k[32];          /* secret: mb_box_beforenm(pk_server, sk_node) */
    uint8_t key_id[8];
    uint32_t next[2];       /* the counter the next seal uses */
    uint32_t reserved[2];   /* first counter not reserved in NVM: next < reserved once booted */
    uint32_t seq;           /* sequence number of the slot holding `reserved` */
    uint32_t check;         /* NODE_PHASE | flags (public) */
};

typedef char node_state_fits[(sizeof(struct node_state) == sizeof(mb_node) &&
                              sizeof(mb_node) == MB_NODE_STATEBYTES) ? 1 : -1];

/* Phase word of a booted state; its two low bits carry the flags below. An all-zero,
 * wiped or random state matches with probability ~2^-30. */
#define NODE_PHASE   0x9b3c5e40u
/* uint32_t, not unsigned: ~FLAGS must keep the high half where int has 16 bits. */
#define FLAG_PENDING ((uint32_t)1)   /* the message of counter next - 1 awaits its receipt */
#define FLAG_SLOT    ((uint32_t)2)   /* which NVM slot holds `reserved` */
#define FLAGS        ((uint32_t)3)

/* NVM slot: reserved bound (8, big-endian), sequence (4), check (8). */
#define SLOT_BYTES   20
#define SLOT_CHECK   12
#define COUNTER_MAX  UINT64_C(0xffffffffffffffff)   /* never used: the bound of 2^64-1 */

static struct node_state *node_of(mb_node *n) { return (struct node_state *)(void *)n; }

size_t mb_node_size(void) { return sizeof(mb_node); }

static uint64_t get64(const uint32_t w[2]) { return ((uint64_t)w[0] << 32) | w[1]; }

static void put64(uint32_t w[2], uint64_t v)
{
    w[0] = (uint32_t)(v >> 32);
    w[1] = (uint32_t)v;
}

static void store64_be(uint8_t *p, uint64_t v)
{
    int i;
    for (i = 7; i >= 0; i--) {
        p[i] = (uint8_t)v;
        v >>= 8;
    }
}

static uint64_t load64_be(const uint8_t *p)
{
    uint64_t v = 0;
    int i;
    for (i = 0; i < 8; i++) v = (v << 8) | p[i];
    return v;
}

/* 1 if the state is booted (its public fields consistent), else 0 after wiping it. */
static int node_ok(mb_node *n)
{
    struct node_state *st = node_of(n);
    if (n == 0) return 0;
    if ((st->check & ~FLAGS) == NODE_PHASE && get64(st->next) <= get64(st->reserved) &&
        get64(st->next) != 0)
        return 1;
    mb_wipe(n, sizeof *n);
    return 0;
}

/* The check of a slot: HSalsa20 under a fixed public key of "mbnv" || bound || seq, first
 * 8 bytes. A public hash, not a MAC: a torn write (old and new bytes mixed) or a damaged
 * slot passes with probability 2^-64, and no secret is involved in reading the NVM (the
 * boot may branch on what it finds). Safety does not rest on it: see the reservation
 * argument in docs/PROTOCOL.md. */
static const uint8_t slot_key[32] = {
    'm', 'o', 't', 'e', 'b', 'o', 'x', ' ', 'N', 'V', 'M', ' ', 's', 'l', 'o', 't',
    ' ', 'c', 'h', 'e', 'c', 'k', ',', ' ', 'v', 'e', 'r', 's', 'i', 'o', 'n', '1'};

static void slot_check(uint8_t out[8], const uint8_t slot[SLOT_BYTES])
{
    uint8_t in[16], h[32];
    in[0] = 'm'; in[1] = 'b'; in[2] = 'n'; in[3] = 'v';
    mb_copy(in + 4, slot, 12);
    mb_hsalsa20(h, in, slot_key);
    mb_copy(out, h, 8);
}

/* Parse one slot: 1 and *bound, *seq if it is valid; a blank slot (all 0x00 or all
 * 0xFF: never written) is valid with bound 1 (nothing used yet), seq 0. */
static int slot_read(uint64_t *bound, uint32_t *seq, const uint8_t *slot)
{
    uint8_t c[8];
    unsigned zeros = 0, ones = 0, diff = 0;
    int i;
    for (i = 0; i < SLOT_BYTES; i++) {
        zeros |= slot[i];
        ones |= (uint8_t)~slot[i];
    }
    if (zeros == 0 || ones == 0) {
        *bound = 1;
        *seq = 0;
        return 1;
    }
    slot_check(c, slot);
    for (i = 0; i < 8; i++) diff |= (unsigned)(c[i] ^ slot[SLOT_CHECK + i]);
    *bound = load64_be(slot);
    *seq = load32_be(slot + 8);
    return diff == 0 && *bound != 0;
}

/* Reserve the next block: write bound + MB_NODE_BLOCK (at most 2^64-1) with seq + 1 to
 * the slot not holding the current bound, so a torn write leaves that one intact; only
 * once the callback says the bytes are durable does the state move on. 0 or -1. */
static int reserve(struct node_state *st, mb_write_fn write, void *ctx)
{
    uint8_t slot[SLOT_BYTES];
    uint64_t cur = get64(st->reserved), nb;
    uint32_t seq = st->seq + 1u, target = (st->check & FLAG_SLOT) ? 0u : 1u;
    if (cur == COUNTER_MAX || write == 0) return -1;
    nb = cur > COUNTER_MAX - MB_NODE_BLOCK ? COUNTER_MAX : cur + MB_NODE_BLOCK;
    store64_be(slot, nb);
    slot[8] = (uint8_t)(seq >> 24);
    slot[9] = (uint8_t)(seq >> 16);
    slot[10] = (uint8_t)(seq >> 8);
    slot[11] = (uint8_t)seq;
    slot_check(slot + SLOT_CHECK, slot);
    if (write(ctx, (size_t)target * SLOT_BYTES, slot, SLOT_BYTES) != 0) return -1;
    put64(st->reserved, nb);
    st->seq = seq;
    st->check = (st->check & ~FLAG_SLOT) | (target ? FLAG_SLOT : 0u);
    return 0;
}

int mb_node_boot(mb_node *n, const uint8_t k[32], const uint8_t key_id[8],
                 const uint8_t nvm[MB_NODE_NVMBYTES], mb_write_fn write, void *ctx)
{
    struct node_state *st = node_of(n);
    uint64_t b0, b1;
    uint32_t s0, s1;
    int v0, v1, cur;
    mb_wipe(n, sizeof *n);
    mb_copy(st->k, k, 32);
    v0 = slot_read(&b0, &s0, nvm);
    v1 = slot_read(&b1, &s1, nvm + SLOT_BYTES);
    if (!v0 && !v1) goto fail;
    cur = !v0 || (v1 && (b1 > b0 || (b1 == b0 && s1 > s0)));
    mb_copy(st->key_id, key_id, 8);
    put64(st->next, cur ? b1 : b0);
    put64(st->reserved, cur ? b1 : b0);
    st->seq = cur ? s1 : s0;
    st->check = NODE_PHASE | (cur ? FLAG_SLOT : 0u);
    if (reserve(st, write, ctx) != 0) goto fail;
    /* First boot (the bound came from a blank slot): write the other slot too, so that
     * from now on neither slot is blank. A blank slot beside an invalid one then means a
     * first boot that never finished (no counter used), never a corrupted image. */
    if (get64(st->next) == 1 && reserve(st, write, ctx) != 0) goto fail;
    return 0;
fail:
    mb_wipe(n, sizeof *n);
    return -1;
}

/* nonce_up(c) / nonce_down(c): "mbx1" || direction || 11 zero bytes || c. */
static void make_nonce(uint8_t nonce[24], uint8_t dir, uint64_t c)
{
    int i;
    nonce[0] = 'm'; nonce[1] = 'b'; nonce[2] = 'x'; nonce[3] = '1';
    nonce[4] = dir;
    for (i = 5; i < 16; i++) nonce[i] = 0;
    store64_be(nonce + 16, c);
}

/* Take the next counter for a message: reserve first if the block ran out (only after a
 * failed write: normally a block is reserved as soon as the last one is used), write
 * the head, make it pending. Returns the counter, 0 on failure. */
static uint64_t take_counter(mb_node *n, uint8_t head[MB_NODE_HEADBYTES], mb_write_fn write,
                             void *ctx)
{
    struct node_state *st = node_of(n);
    uint64_t c;
    if (!node_ok(n)) return 0;
    if (get64(st->next) >= get64(st->reserved) && reserve(st, write, ctx) != 0) return 0;
    c = get64(st->next);
    head[0] = MB_NODE_TYPE_READING;
    mb_copy(head + 1, st->key_id, 8);
    store64_be(head + 9, c);
    put64(st->next, c + 1u);
    st->check |= FLAG_PENDING;
    return c;
}

/* The block is used up: reserve the next one now, so the counter a later seal takes is
 * already durable when it starts (a failure is retried by that seal). */
static void reserve_ahead(mb_node *n, mb_write_fn write, void *ctx)
{
    struct node_state *st = node_of(n);
    if (get64(st->next) >= get64(st->reserved)) (void)reserve(st, write, ctx);
}

int mb_node_seal(mb_node *n, uint8_t *out, const uint8_t *m, size_t mlen,
                 mb_write_fn write, void *ctx)
{
    uint8_t head[MB_NODE_HEADBYTES], nonce[24];
    uint64_t c;
    if (mlen == 0 || mlen > MB_NODE_READINGBYTES_MAX) {   /* the server drops both */
        mb_wipe(out, MB_NODE_OVERHEADBYTES);
        return -1;
    }
    c = take_counter(n, head, write, ctx);
    if (c == 0) {
        mb_wipe(out, MB_NODE_OVERHEADBYTES + mlen);
        return -1;
    }
    make_nonce(nonce, 1, c);
    /* The box first: m may overlap the head's bytes, which are written after it. */
    if (mb_secretbox(out + MB_NODE_HEADBYTES, m, mlen, nonce, node_of(n)->k) != 0) {
        mb_wipe(out, MB_NODE_OVERHEADBYTES + mlen);   /* cannot happen: mlen <= 1024 */
        return -1;
    }
    mb_copy(out, head, MB_NODE_HEADBYTES);
    reserve_ahead(n, write, ctx);
    return 0;
}

int mb_node_seal_stream_init(mb_node *n, mb_box_stream *s, uint8_t head[MB_NODE_HEADBYTES],
                             mb_write_fn write, void *ctx)
{
    uint8_t nonce[24];
    uint64_t c = take_counter(n, head, write, ctx);
    if (c == 0) {
        mb_wipe(head, MB_NODE_HEADBYTES);
        mb_wipe(s, sizeof *s);
        return -1;
    }
    make_nonce(nonce, 1, c);
    mb_box_stream_init(s, node_of(n)->k, nonce);
    reserve_ahead(n, write, ctx);
    return 0;
}

int mb_node_open_receipt(mb_node *n, uint8_t *status, uint8_t cmd[MB_NODE_COMMANDBYTES],
                         const uint8_t *r, size_t rlen)
{
    struct node_state *st = node_of(n);
    uint8_t plain[32], nonce[24];
    uint64_t pending;
    uint32_t mask;
    unsigned diff = 0;
    int i, rc;
    *status = 0;
    mb_wipe(cmd, MB_NODE_COMMANDBYTES);
    if (!node_ok(n) || !(st->check & FLAG_PENDING) || rlen != MB_NODE_RECEIPTBYTES ||
        r[0] != MB_NODE_TYPE_RECEIPT)
        return -1;
    pending = get64(st->next) - 1u;
    for (i = 0; i < 8; i++) diff |= (unsigned)(r[1 + i] ^ st->key_id[i]);
    if (diff != 0 || load64_be(r + 9) != pending) return -1;
    make_nonce(nonce, 2, pending);
    /* No branch on the outcome: it is the caller's to declassify, as with mb_box_open.
     * mask = all ones iff the tag verified (the open zeroes plain otherwise). */
    rc = mb_secretbox_open(plain, r + MB_NODE_HEADBYTES, MB_NODE_RECEIPTBYTES - MB_NODE_HEADBYTES,
                           nonce, st->k);
    mask = (uint32_t)(rc + 1);                 /* rc is 0 or -1 */
    mask = ct_mask32(mask);
    *status = (uint8_t)(plain[0] & mask);
    for (i = 0; i < MB_NODE_COMMANDBYTES; i++) cmd[i] = (uint8_t)(plain[1 + i] & mask);
    st->check &= ~(FLAG_PENDING & mask);
    mb_wipe(plain, sizeof plain);
    return rc;
}

uint64_t mb_node_next(const mb_node *n)
{
    const struct node_state *st = (const struct node_state *)(const void *)n;
    if (n == 0 || (st->check & ~FLAGS) != NODE_PHASE) return 0;
    return get64(st->next);
}

uint64_t mb_node_pending(const mb_node *n)
{
    const struct node_state *st = (const struct node_state *)(const void *)n;
    if (n == 0 || (st->check & ~FLAGS) != NODE_PHASE || !(st->check & FLAG_PENDING)) return 0;
    return get64(st->next) - 1u;
}
