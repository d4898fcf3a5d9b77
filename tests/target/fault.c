/* SPDX-License-Identifier: MIT */
/* Fault-injection target firmware (docs/FAULTS.md, `motebox fault`). The host patches
 * `fault_input` in the ELF file (operation, keys, nonce, a box: normally a FORGED one),
 * runs the image on a simulator that injects one fault between fault_begin() and
 * fault_end(), and reads the outcome printed after fault_end(): the return value and
 * the message buffer. A forged box must give -1 and an all-zero message whatever
 * single fault hits the open.
 *
 * Operations (public selector):
 *   1 secretbox_open   mb_secretbox_open(m, box, 80, nonce, key): 64-byte message
 *   2 box_open         mb_box_open(m, box, 80, nonce, pk, sk): 64-byte message
 * Portable (hal.h only), small RAM: no P-256 in this image. */
#include <stdint.h>
#include "motebox.h"
#include "hal.h"
#include "fault_common.h"

#define FAULT_BOX_BYTES 80 /* 16-byte tag + 64-byte message */

/* Patched by the host (motebox_tools/fault.py); volatile so it is read, not folded. */
struct fault_input {
    uint8_t op;
    uint8_t key[32];   /* secretbox key */
    uint8_t nonce[24];
    uint8_t pk[32];    /* box: the sender's public key */
    uint8_t sk[32];    /* box: the receiver's secret key */
    uint8_t box[FAULT_BOX_BYTES];
};
__attribute__((used)) const volatile struct fault_input fault_input = { 1, {0}, {0}, {9}, {0}, {0} };

static uint8_t key[32], nonce[24], pk[32], sk[32], box[FAULT_BOX_BYTES];
static uint8_t m[FAULT_BOX_BYTES]; /* zero: any nonzero byte after an open was released */

static void load_input(void)
{
    unsigned i;
    for (i = 0; i < 32; i++) key[i] = fault_input.key[i];
    for (i = 0; i < 24; i++) nonce[i] = fault_input.nonce[i];
    for (i = 0; i < 32; i++) pk[i] = fault_input.pk[i];
    for (i = 0; i < 32; i++) sk[i] = fault_input.sk[i];
    for (i = 0; i < FAULT_BOX_BYTES; i++) box[i] = fault_input.box[i];
}

int main(void)
{
    uint8_t op = fault_input.op;
    uint32_t t0, t1;
    int r;
    load_input();
    mb_wipe(m, sizeof m);
    t0 = hal_cycles();
    fault_begin();
    switch (op) {
    case 1: r = mb_secretbox_open(m, box, FAULT_BOX_BYTES, nonce, key); break;
    case 2: r = mb_box_open(m, box, FAULT_BOX_BYTES, nonce, pk, sk); break;
    default: r = -2; break;
    }
    fault_end();
    t1 = hal_cycles();
    if (r == -2) {
        tp_str("unknown op\n");
        return 2;
    }
    fault_report(r, m, FAULT_BOX_BYTES - 16, t1 - t0);
    return 0;
}
