/* SPDX-License-Identifier: MIT */
/* P-256 ECDH fault-injection target (docs/FAULTS.md, "P-256 ECDH", `motebox fault --chip
 * m4 --target p256_ecdh`). A file of its own: tests/target/fault.c is also the MSP430's
 * image, which has no room for P-256. The host patches `fault_input` (a secret scalar and
 * a valid uncompressed peer key) in the ELF file, runs the image in the Cortex-M4 model
 * with one fault between fault_begin() and fault_end(), and reads what is printed after
 * fault_end(): the return value and the 32-byte shared secret. The correct outcomes are
 * 0 with OpenSSL's secret, or -1 with 32 zero bytes. */
#include <stdint.h>
#include "motebox.h"
#include "hal.h"
#include "common/tprint.h"

/* Patched by the host (motebox_tools/fault_m4.py); volatile so it is read, not folded. */
struct fault_p256_input {
    uint8_t sk[32];
    uint8_t pk[65];
};
__attribute__((used)) const volatile struct fault_p256_input fault_input = { {1}, {4} };

/* Window markers, as in fault.c: real calls at known addresses. */
volatile uint32_t fault_marker;
__attribute__((noinline)) void fault_begin(void);
__attribute__((noinline)) void fault_end(void);
void fault_begin(void) { fault_marker = 1; }
void fault_end(void) { fault_marker = 2; }

static uint8_t sk[32], pk[65];
static uint8_t shared[32]; /* zero: a nonzero byte after a refused call was released */

int main(void)
{
    uint32_t t0, t1;
    unsigned i;
    int r;
    for (i = 0; i < 32; i++) sk[i] = fault_input.sk[i];
    for (i = 0; i < 65; i++) pk[i] = fault_input.pk[i];
    t0 = hal_cycles();
    fault_begin();
    r = mb_p256_ecdh(shared, sk, pk, 65);
    fault_end();
    t1 = hal_cycles();
    tp_str("return ");
    tp_str(r == 0 ? "0" : r == -1 ? "-1" : "other");
    tp_str("\nout ");
    tp_hex(shared, 32);
    tp_str("\ncycles ");
    tp_u32(t1 - t0);
    tp_nl();
    return 0;
}
