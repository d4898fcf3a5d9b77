/* SPDX-License-Identifier: MIT */
/* GCC may emit calls to these four even in freestanding code (struct copies, zeroing);
 * the board provides them, as the GCC manual requires of freestanding environments.
 * The library itself is written not to need them: the M4 bench step (motebox_tools.boards.m4)
 * reports any library object that still references one in its size measurement. */
#include <stddef.h>

void *memcpy(void *d, const void *s, size_t n);
void *memmove(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

void *memcpy(void *d, const void *s, size_t n)
{
    volatile unsigned char *dp = d;
    const unsigned char *sp = s;
    while (n--) *dp++ = *sp++;
    return d;
}

void *memmove(void *d, const void *s, size_t n)
{
    volatile unsigned char *dp = d;
    const unsigned char *sp = s;
    if (dp < sp) {
        while (n--) *dp++ = *sp++;
    } else {
        while (n--) dp[n] = sp[n];
    }
    return d;
}

void *memset(void *d, int c, size_t n)
{
    volatile unsigned char *dp = d;
    while (n--) *dp++ = (unsigned char)c;
    return d;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *ap = a, *bp = b;
    for (; n; n--, ap++, bp++)
        if (*ap != *bp) return *ap < *bp ? -1 : 1;
    return 0;
}
