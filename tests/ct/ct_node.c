/* SPDX-License-Identifier: MIT */
/* Constant-time cases for the protocol node (mb_node_*, docs/PROTOCOL.md). Secret: the
 * key k (and so the node state), readings, receipt plaintexts. Public: key id, counters,
 * the NVM image, datagrams, receipts given to open; return values once returned. */
#include <string.h>
#include "ct.h"
#include "motebox.h"

static uint8_t nvm[MB_NODE_NVMBYTES];

static int nvm_write(void *ctx, size_t off, const uint8_t *buf, size_t len)
{
    (void)ctx;
    memcpy(nvm + off, buf, len);
    return 0;
}

/* Boot a node under a secret k from the current image; the image stays public. */
static void boot(mb_node *n, uint8_t k[32])
{
    static const uint8_t key_id[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    int rc;
    ct_secret(k, 32);
    rc = mb_node_boot(n, k, key_id, nvm, nvm_write, 0);
    ct_public(&rc, sizeof rc);
    ct_public(nvm, sizeof nvm);
    CT_EXPECT(rc == 0);
}

/* First boot (blank image), a second boot from what it wrote, then 40 seals: two
 * reservations ahead. */
CT_CASE(node_boot_and_seal)
{
    mb_node n;
    uint8_t k[32], m[64], out[MB_NODE_OVERHEADBYTES + 64];
    int i, rc;
    memset(nvm, 0, sizeof nvm);
    ct_random(k, 32);
    boot(&n, k);
    boot(&n, k);
    for (i = 0; i < 40; i++) {
        ct_random(m, sizeof m);
        ct_secret(m, sizeof m);
        rc = mb_node_seal(&n, out, m, sizeof m, nvm_write, 0);
        ct_public(&rc, sizeof rc);
        ct_public(out, sizeof out);
        ct_public(nvm, sizeof nvm);
        CT_EXPECT(rc == 0 && out[0] == MB_NODE_TYPE_READING);
    }
    mb_wipe(&n, sizeof n);
}

CT_CASE(node_seal_stream)
{
    mb_node n;
    mb_box_stream s;
    uint8_t k[32], m[100], c[100], head[MB_NODE_HEADBYTES], tag[16];
    int rc;
    memset(nvm, 0, sizeof nvm);
    ct_random(k, 32);
    boot(&n, k);
    ct_random(m, sizeof m);
    ct_secret(m, sizeof m);
    rc = mb_node_seal_stream_init(&n, &s, head, nvm_write, 0);
    rc |= mb_box_stream_update(&s, c, m, 37);
    rc |= mb_box_stream_update(&s, c + 37, m + 37, 63);
    rc |= mb_box_stream_final(&s, tag);
    ct_public(&rc, sizeof rc);
    ct_public(c, sizeof c);
    ct_public(tag, sizeof tag);
    CT_EXPECT(rc == 0);
    mb_wipe(&n, sizeof n);
}

/* A receipt for the pending counter, made with the public k before k turns secret. */
static void open_case(int forge)
{
    mb_node n;
    uint8_t k[32], m[16], out[MB_NODE_OVERHEADBYTES + 16], r[MB_NODE_RECEIPTBYTES];
    uint8_t plain[32], nonce[24], status, cmd[MB_NODE_COMMANDBYTES];
    int rc;
    memset(nvm, 0, sizeof nvm);
    ct_random(k, 32);
    ct_random(plain, sizeof plain);
    ct_random(m, sizeof m);
    memcpy(nonce, "mbx1\x02", 5);
    memset(nonce + 5, 0, 18);
    nonce[23] = 1;                               /* the first boot's first counter */
    r[0] = MB_NODE_TYPE_RECEIPT;
    CT_EXPECT(mb_secretbox(r + MB_NODE_HEADBYTES, plain, 32, nonce, k) == 0);
    if (forge) r[40] ^= 1;
    boot(&n, k);
    rc = mb_node_seal(&n, out, m, sizeof m, nvm_write, 0);
    ct_public(&rc, sizeof rc);
    ct_public(out, sizeof out);
    CT_EXPECT(rc == 0);
    memcpy(r + 1, out + 1, 16);                  /* key id and counter, as sent */
    rc = mb_node_open_receipt(&n, &status, cmd, r, sizeof r);
    ct_public(&rc, sizeof rc);
    ct_public(&status, 1);
    ct_public(cmd, sizeof cmd);
    CT_EXPECT(rc == (forge ? -1 : 0));
    CT_EXPECT(forge ? status == 0 && cmd[0] == 0 : status == plain[0] && memcmp(cmd, plain + 1, 31) == 0);
    mb_wipe(&n, sizeof n);
}

CT_CASE(node_open_receipt) { open_case(0); }
CT_CASE(node_open_receipt_forged) { open_case(1); }
