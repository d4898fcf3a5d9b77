/* SPDX-License-Identifier: MIT */
#include "tprint.h"
#include "hal.h"

void tp_str(const char *s)
{
    size_t n = 0;
    while (s[n]) n++;
    hal_write(s, n);
}

void tp_u32(uint32_t v)
{
    static const uint32_t pow10[10] = {
        1000000000ul, 100000000ul, 10000000ul, 1000000ul, 100000ul,
        10000ul, 1000ul, 100ul, 10ul, 1ul,
    };
    char buf[10];
    size_t n = 0;
    unsigned i;
    for (i = 0; i < 10; i++) {
        char d = '0';
        while (v >= pow10[i]) {
            v -= pow10[i];
            d++;
        }
        if (d != '0' || n > 0 || i == 9) buf[n++] = d;
    }
    hal_write(buf, n);
}

/* Public data only: the nibble indexes a table. */
void tp_hex(const uint8_t *p, size_t len)
{
    static const char digits[16] = "0123456789abcdef";
    char buf[32];
    size_t n = 0;
    while (len--) {
        buf[n++] = digits[*p >> 4];
        buf[n++] = digits[*p & 15];
        p++;
        if (n == sizeof buf) {
            hal_write(buf, n);
            n = 0;
        }
    }
    if (n) hal_write(buf, n);
}

void tp_nl(void)
{
    hal_write("\n", 1);
}

/* The line the host tools read a measured cycle count from (demo nodes). */
void tp_cycles(const char *name, uint32_t n)
{
    tp_str("cycles ");
    tp_str(name);
    tp_str(" ");
    tp_u32(n);
    tp_nl();
}
