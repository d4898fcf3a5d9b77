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
#include "fault_common.h"

/* Patched by the host (motebox_tools/fault_m4.py); volatile so it is read, not folded. */
struct fault_p256_input {
    uint8_t sk[32];
    uint8_t pk[65];
};
__attribute__((used)) const volatile struct fault_p256_input fault_input = { {1}, {4} };

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
    fault_report(r, shared, 32, t1 - t0);
    return 0;
}
