/* SPDX-License-Identifier: MIT */
/* Fault-injection target of mb_x25519 and mb_box_stream_final (docs/FAULTS.md, "X25519"
 * and "Stream final"; `motebox fault --chip m4 --target x25519|stream_final`). The host
 * patches `fault_input` in the ELF file, runs the image with one fault between
 * fault_begin() and fault_end(), and reads what is printed after fault_end(): the return
 * value and the output (the 32-byte shared secret, or the 16-byte tag).
 *
 * Operations (public selector):
 *   1 x25519        mb_x25519(out, sk, pk): libsodium's result is the correct output
 *   2 stream_final  mb_box_stream_init(key, nonce) and one update of the 64-byte
 *                   message outside the window, then mb_box_stream_final(tag) in it:
 *                   the tag of libsodium's crypto_secretbox is the correct output
 * Portable (hal.h only). */
#include <stdint.h>
#include "motebox.h"
#include "hal.h"
#include "fault_common.h"

#define FAULT_MSG_BYTES 64

/* Patched by the host (motebox_tools/fault_x25519.py); volatile so it is read. */
struct fault_x25519_input {
    uint8_t op;
    uint8_t sk[32];    /* x25519 */
    uint8_t pk[32];
    uint8_t key[32];   /* stream */
    uint8_t nonce[24];
    uint8_t msg[FAULT_MSG_BYTES];
};
__attribute__((used)) const volatile struct fault_x25519_input fault_input =
    { 1, {1}, {9}, {0}, {0}, {0} };

static uint8_t sk[32], pk[32], key[32], nonce[24], msg[FAULT_MSG_BYTES], c[FAULT_MSG_BYTES];
static uint8_t out[32]; /* zero: a nonzero byte after a refused call was released */
static mb_box_stream st;

int main(void)
{
    uint8_t op = fault_input.op;
    uint32_t t0, t1;
    unsigned i, n = 32;
    int r;
    for (i = 0; i < 32; i++) sk[i] = fault_input.sk[i];
    for (i = 0; i < 32; i++) pk[i] = fault_input.pk[i];
    for (i = 0; i < 32; i++) key[i] = fault_input.key[i];
    for (i = 0; i < 24; i++) nonce[i] = fault_input.nonce[i];
    for (i = 0; i < FAULT_MSG_BYTES; i++) msg[i] = fault_input.msg[i];
    if (op == 2) {
        mb_box_stream_init(&st, key, nonce);
        if (mb_box_stream_update(&st, c, msg, FAULT_MSG_BYTES) != 0) {
            tp_str("update failed\n");
            return 2;
        }
        n = 16;
    }
    t0 = hal_cycles();
    fault_begin();
    switch (op) {
    case 1: r = mb_x25519(out, sk, pk); break;
    case 2: r = mb_box_stream_final(&st, out); break;
    default: r = -2; break;
    }
    fault_end();
    t1 = hal_cycles();
    if (r == -2) {
        tp_str("unknown op\n");
        return 2;
    }
    fault_report(r, out, n, t1 - t0);
    return 0;
}
