// SPDX-License-Identifier: MIT
// Cycle-model test program: newlib semihosting printf, some work, an exit status.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static uint32_t crc32(const uint8_t *p, size_t n, uint32_t c)
{
    c = ~c;
    while (n--) {
        c ^= *p++;
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xEDB88320u & -(c & 1));
    }
    return ~c;
}

int main(int argc, char **argv)
{
    static uint8_t buf[1024];
    unsigned rounds = 10;
    uint32_t c = 0;
    (void)argc; (void)argv;
    for (unsigned i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)(i * 7 + 1);
    for (unsigned r = 0; r < rounds; r++)
        c = crc32(buf, sizeof buf, c);
    printf("hello from the M4, crc=%08lx rounds=%u\n", (unsigned long)c, rounds);
    fprintf(stderr, "to stderr %d\n", 42);
    return 7;
}
