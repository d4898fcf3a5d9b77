/* SPDX-License-Identifier: MIT */
/* mb_wipe and constant-time comparisons. */
#include "util/ct.h"

/* A machine word that may alias any object, so the wipe can write whole words. */
#if defined(__GNUC__) || defined(__clang__)
typedef unsigned int __attribute__((may_alias)) wipe_word;
#endif

/* Volatile stores cannot be dropped or merged into a memset call the freestanding
 * targets do not have. Whole words where the address allows (wiping is on the hot path
 * of the portable field code: a product buffer per multiplication); the address and
 * len are public. */
void mb_wipe(void *p, size_t len)
{
    volatile uint8_t *v = (volatile uint8_t *)p;
    size_t i = 0;
#if defined(__GNUC__) || defined(__clang__)
    if (((uintptr_t)p % sizeof(wipe_word)) == 0) {
        volatile wipe_word *w = (volatile wipe_word *)p;
        for (; i + sizeof(wipe_word) <= len; i += sizeof(wipe_word)) w[i / sizeof(wipe_word)] = 0;
    }
#endif
    for (; i < len; i++) v[i] = 0;
#if defined(__GNUC__) || defined(__clang__)
    /* Tell the compiler the zeros are observed, so the stores are never dropped. */
    __asm__ __volatile__("" : : "r"(p) : "memory");
#endif
}

/* CT: time depends on n only; the result is derived from the OR of all differences. */
static int verify_n(const uint8_t *a, const uint8_t *b, size_t n)
{
    uint32_t d = 0;
    size_t i;
    for (i = 0; i < n; i++) d |= (uint32_t)(a[i] ^ b[i]);
    return (int)(0u - ct_nonzero32(ct_barrier32(d)));   /* 0 or -1 */
}

int mb_verify16(const uint8_t a[16], const uint8_t b[16]) { return verify_n(a, b, 16); }
int mb_verify32(const uint8_t a[32], const uint8_t b[32]) { return verify_n(a, b, 32); }
