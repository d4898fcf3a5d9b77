/* SPDX-License-Identifier: MIT */
/* Protocol node firmware (portable: hal.h only; docs/PROTOCOL.md). Its inputs are a
 * generated header (proto_input.h, python/motebox_tools/protonode.py): the server's
 * public key and the node's secret (or, as a deployed node keeps them, the precomputed
 * key k and key id), the readings and receipts to open. Its NVM is PROTO_NVM_BYTES at
 * PROTO_NVM_ADDR (FRAM information memory on the MSP430FR5969, a flash page in the
 * M4 board's code memory), whose contents the simulator loads before the run and saves
 * after it, also after a power cut. The node
 *   1. (keys mode) computes its public key and k = mb_box_beforenm(pk_S, sk_N),
 *   2. boots from the NVM (mb_node_boot: one reservation written through nvm_write),
 *   3. seals each reading (mb_node_seal; above PROTO_STREAM_ABOVE bytes through
 *      mb_node_seal_stream_init and mb_box_stream_* in 64-byte chunks), and after each
 *      offers itself every receipt not yet accepted (mb_node_open_receipt accepts the one
 *      for its pending counter),
 * and reports on the console, one line each:
 *   pk HEX / use C (before each seal: the counter it takes, 16 hex digits) / msg HEX | shead HEX,
 *   sct HEX..., stag HEX / seal LEN CYCLES / acc J STATUS CMDHEX / nvm HEX /
 *   cycles NAME N / stack N / end */
#include <stdint.h>
#include "motebox.h"
#include "hal.h"
#include "common/tprint.h"
#include "proto_input.h"

#ifndef PROTO_NVM_ADDR
#error "PROTO_NVM_ADDR: where the board keeps the node's NVM (protonode.py sets it)"
#endif
#ifndef PROTO_STREAM_ABOVE
#define PROTO_STREAM_ABOVE 256u   /* longer readings go through the stream (2 KB of RAM) */
#endif
#define NVM ((volatile uint8_t *)(uintptr_t)PROTO_NVM_ADDR)
#define CHUNK 64u

static mb_node node;
static mb_box_stream stream;
static uint8_t out[MB_NODE_OVERHEADBYTES + PROTO_STREAM_ABOVE];
static uint8_t accepted[PROTO_NRECEIPTS + 1];

/* The write-NVM callback: byte by byte, in order, as a FRAM or flash driver would; a
 * power cut between two stores leaves a torn slot. Not inlined: the power-cut test
 * counts the instructions of this function. */
__attribute__((noinline)) static int nvm_write(void *ctx, size_t off, const uint8_t *buf,
                                               size_t len)
{
    size_t i;
    (void)ctx;
    if (off > MB_NODE_NVMBYTES || len > MB_NODE_NVMBYTES - off) return -1;
    for (i = 0; i < len; i++) NVM[off + i] = buf[i];
    return 0;
}

/* v as 16 hex digits (no 64-bit division: the MSP430 runtime has none). */
static void print_u64(uint64_t v)
{
    uint8_t be[8];
    int i;
    for (i = 7; i >= 0; i--) {
        be[i] = (uint8_t)v;
        v >>= 8;
    }
    tp_hex(be, 8);
}

/* Seal reading r (len bytes) and send it; returns 0 or -1. */
static int seal_one(const uint8_t *r, size_t len)
{
    uint32_t t, c;
    size_t off, n;
    int ok;
    tp_str("use ");
    print_u64(mb_node_next(&node));
    tp_nl();
    if (len <= PROTO_STREAM_ABOVE) {
        t = hal_cycles();
        ok = mb_node_seal(&node, out, r, len, nvm_write, 0) == 0;
        c = hal_cycles() - t;
        if (!ok) return -1;
        tp_str("msg ");
        tp_hex(out, MB_NODE_OVERHEADBYTES + len);
        tp_nl();
    } else {   /* chunks read one at a time into RAM, as from a sensor */
        uint8_t head[MB_NODE_HEADBYTES], chunk[CHUNK], tag[16];
        uint32_t busy;
        t = hal_cycles();
        ok = mb_node_seal_stream_init(&node, &stream, head, nvm_write, 0) == 0;
        busy = hal_cycles() - t;
        if (!ok) return -1;
        tp_str("shead ");
        tp_hex(head, sizeof head);
        tp_nl();
        for (off = 0; off < len; off += n) {
            n = len - off < CHUNK ? len - off : CHUNK;
            for (size_t i = 0; i < n; i++) chunk[i] = r[off + i];
            t = hal_cycles();
            ok &= mb_box_stream_update(&stream, chunk, chunk, n) == 0;
            busy += hal_cycles() - t;
            tp_str("sct ");
            tp_hex(chunk, n);
            tp_nl();
        }
        t = hal_cycles();
        ok &= mb_box_stream_final(&stream, tag) == 0;
        c = busy + (hal_cycles() - t);
        if (!ok) return -1;
        tp_str("stag ");
        tp_hex(tag, 16);
        tp_nl();
    }
    tp_str("seal ");
    tp_u32((uint32_t)len);
    tp_str(" ");
    tp_u32(c);
    tp_nl();
    return 0;
}

/* Offer every receipt not accepted yet; the node takes only the one for its pending
 * counter. Returns the cycles of the longest attempt. */
static uint32_t offer_receipts(void)
{
    uint8_t status, cmd[MB_NODE_COMMANDBYTES];
    uint32_t t, c, worst = 0;
    unsigned j;
    for (j = 0; j != PROTO_NRECEIPTS; j++) {   /* != : the count may be 0 */
        int rc;
        if (accepted[j]) continue;
        t = hal_cycles();
        rc = mb_node_open_receipt(&node, &status, cmd, proto_receipts + j * MB_NODE_RECEIPTBYTES,
                                  MB_NODE_RECEIPTBYTES);
        c = hal_cycles() - t;
        if (c > worst) worst = c;
        if (rc != 0) continue;
        accepted[j] = 1;
        tp_str("acc ");
        tp_u32(j);
        tp_str(" ");
        tp_u32(status);
        tp_str(" ");
        tp_hex(cmd, sizeof cmd);
        tp_nl();
    }
    mb_wipe(cmd, sizeof cmd);
    return worst;
}

int main(void)
{
    uint8_t k[32], key_id[8];
    uint32_t t, receipt_max = 0;
    size_t i, off;
    int ok = 1;

    hal_stack_paint();
#if PROTO_KEYS
    {
        uint8_t sk[32], pk[32];
        for (i = 0; i < 32; i++) sk[i] = proto_node_sk[i];   /* "read the key store" */
        t = hal_cycles();
        ok &= mb_x25519_base(pk, sk) == 0;
        tp_cycles("x25519_base", hal_cycles() - t);
        t = hal_cycles();
        ok &= mb_box_beforenm(k, proto_server_pk, sk) == 0;
        tp_cycles("box_beforenm", hal_cycles() - t);
        mb_wipe(sk, sizeof sk);
        for (i = 0; i < 8; i++) key_id[i] = pk[i];
        tp_str("pk ");
        tp_hex(pk, 32);
        tp_nl();
    }
#else
    for (i = 0; i < 32; i++) k[i] = proto_k[i];   /* kept since the node was set up */
    for (i = 0; i < 8; i++) key_id[i] = proto_key_id[i];
#endif
    t = hal_cycles();
    ok &= mb_node_boot(&node, k, key_id, (const uint8_t *)(uintptr_t)PROTO_NVM_ADDR,
                       nvm_write, 0) == 0;
    tp_cycles("boot", hal_cycles() - t);
    mb_wipe(k, sizeof k);
    if (!ok) {
        tp_str("error: boot refused\n");
        return 1;
    }
    for (i = 0, off = 0; i != PROTO_NREADINGS; off += proto_reading_len[i], i++) {
        uint32_t c;
        if (seal_one(proto_readings + off, proto_reading_len[i]) != 0) {
            tp_str("error: seal refused\n");
            return 1;
        }
        c = offer_receipts();
        if (c > receipt_max) receipt_max = c;
    }
    if (PROTO_NRECEIPTS) tp_cycles("open_receipt_max", receipt_max);
    tp_str("nvm ");
    for (i = 0; i < MB_NODE_NVMBYTES; i++) {
        uint8_t b = NVM[i];
        tp_hex(&b, 1);
    }
    tp_str("\nstack ");
    tp_u32((uint32_t)hal_stack_used());
    tp_str("\nend\n");
    return 0;
}
