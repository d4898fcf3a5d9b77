// SPDX-License-Identifier: MIT
// Cycle-model test program for the trace: the same code runs on a secret that differs
// only in data (a volatile initialised from -DSECRET). select_ct is branch-free,
// select_branchy is not; the test compares trace hashes and cycle counts.
#include <stdint.h>
#include <stdio.h>

volatile uint32_t secret = SECRET;
volatile uint32_t sink;
volatile uint32_t table[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

__attribute__((noinline)) uint32_t select_ct(uint32_t bit, uint32_t a, uint32_t b)
{
    uint32_t mask = 0u - (bit & 1);
    __asm__ volatile("" : "+r"(mask));
    return (a & mask) | (b & ~mask);
}

__attribute__((noinline)) uint32_t select_branchy(uint32_t bit, uint32_t a, uint32_t b)
{
    uint32_t r = 0;
    for (uint32_t i = 0; i < 8; i++) {
        if ((bit >> i) & 1)
            r += a * i;
        else
            r ^= b;
    }
    return r;
}

__attribute__((noinline)) void ct_begin(void) { __asm__ volatile(""); }
__attribute__((noinline)) void ct_end(void) { __asm__ volatile(""); }

__attribute__((noinline)) uint32_t lookup(uint32_t i)
{
    return table[i & 15];
}

int main(void)
{
    uint32_t s = secret;
    uint32_t r = 0;
    ct_begin();
    for (int i = 0; i < 50; i++)
        r += select_ct(s >> (i % 8), 0x1234u + (uint32_t)i, 0x5678u);
    ct_end();
#if BRANCHY
    r += select_branchy(s, 3, 5);
#endif
#if LOOKUP
    r += lookup(s);
#endif
#if ITSELECT
    {   // a conditional select under IT: same cycles either way, not the same execution
        uint32_t t;
        __asm__ volatile("tst %1, #1\n\tite ne\n\tmovne %0, #3\n\tmoveq %0, #5"
                         : "=r"(t) : "r"(s) : "cc");
        r += t;
    }
#endif
#if DIVIDE
    r += 1000000u / (s | 1u);
#endif
    sink = r;             // not printed: printf's own time depends on the digits
    printf("done\n");
    return 0;
}
