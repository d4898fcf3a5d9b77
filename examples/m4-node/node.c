/* SPDX-License-Identifier: MIT */
/* A Cortex-M4 firmware using an installed motebox (find_package, see CMakeLists.txt):
 * checks X25519 against RFC 7748 and derives a box key, printing through the board's
 * console (platforms/mps2-an386: QEMU semihosting). main's return value is the run's
 * exit status (0: every check passed). Built soft-float or hard-float alike. */
#include <stdint.h>
#include <string.h>

#include <motebox.h>

#include "common/tprint.h"
#include "../rfc7748_vectors.h"

#if defined(__ARM_FP)
/* Hard-float build: let the core execute FPU instructions (CPACR: CP10, CP11 full
 * access) before any code that may use them. The library itself has no floating point. */
static void fpu_enable(void)
{
    volatile uint32_t *cpacr = (volatile uint32_t *)0xE000ED88u;
    *cpacr |= (0xFu << 20);
    __asm__ volatile("dsb\n\tisb" ::: "memory");
}
#endif

int main(void)
{
    unsigned i, failed = 0;
    uint8_t a_pk[32], b_pk[32], k1[32], k2[32];
    static const uint8_t a_sk[32] = {1, 2, 3}, b_sk[32] = {4, 5, 6};
#if defined(__ARM_FP)
    fpu_enable();
    tp_str("m4-node: hard-float build");
#else
    tp_str("m4-node: soft-float build");
#endif
    tp_nl();
    for (i = 0; i < RFC7748_NVECTORS; i++) {
        uint8_t sk[32], u[32], want[32], got[32];
        if (rfc7748_unhex(sk, 32, rfc7748_vectors[i][0]) || rfc7748_unhex(u, 32, rfc7748_vectors[i][1])
            || rfc7748_unhex(want, 32, rfc7748_vectors[i][2])
            || mb_x25519(got, sk, u) != 0 || memcmp(got, want, 32) != 0)
            failed++;
    }
    tp_str("x25519 rfc7748 failed: ");
    tp_u32(failed);
    tp_nl();
    /* Both ends of a box agree on the key (fixed-base path against the ladder). */
    if (mb_x25519_base(a_pk, a_sk) != 0 || mb_x25519_base(b_pk, b_sk) != 0
        || mb_box_beforenm(k1, b_pk, a_sk) != 0 || mb_box_beforenm(k2, a_pk, b_sk) != 0
        || mb_verify32(k1, k2) != 0)
        failed++;
    tp_str("box key: ");
    tp_hex(k1, 32);
    tp_nl();
    tp_str(failed ? "m4-node: FAIL" : "m4-node: ok");
    tp_nl();
    return failed ? 1 : 0;
}
