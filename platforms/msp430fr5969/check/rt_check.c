/* SPDX-License-Identifier: MIT */
/* Runtime check firmware: exercises every helper of the MSP430 runtime through plain C
 * operators (so that the compiler emits the calls) against Python-integer results from
 * gen_rt_cases.py. Prints one line per helper group and exits with the number of
 * failures. Also usable without a console: rt_fail holds the count (mspdebug check). */
#include <stdint.h>
#include <stddef.h>
void *memcpy(void *d, const void *s, size_t n);
void *memmove(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
#include "hal.h"

typedef struct { uint16_t a, b, p; } rt_mul16_case;
typedef struct { uint32_t a, b, p; } rt_mul32_case;
typedef struct { uint64_t a, b, p; } rt_mul64_case;
typedef struct { uint16_t a, b; uint32_t p; } rt_wide16_case;
typedef struct { uint32_t a, b; uint64_t p; } rt_wide32_case;
typedef struct { uint32_t x; uint16_t s; uint32_t shl, shr, sra; } rt_sh32_case;
typedef struct { uint64_t x; uint16_t s; uint64_t shl, shr, sra; } rt_sh64_case;
typedef struct { uint16_t a, b, q, r; } rt_div16_case;
typedef struct { uint32_t a, b, q, r; } rt_div32_case;
#include "rt_cases.h"

#define N(t) (sizeof(t) / sizeof((t)[0]))

volatile uint16_t rt_fail;            /* total failures, read by the mspdebug check */
volatile uint16_t rt_fail_group[4];   /* mul, shift, div, mem */
static volatile uint16_t sink16;      /* volatile round trips stop constant folding */
static volatile uint32_t sink32;
static volatile uint64_t sink64;

static void put(const char *s)
{
    size_t n = 0;
    while (s[n]) n++;
    hal_write(s, n);
}

static void report(const char *what, uint16_t bad)
{
    char num[6];
    int i = 5;
    num[5] = 0;
    do { num[--i] = (char)('0' + bad % 10); bad /= 10; } while (bad && i > 0);
    put(what);
    if (num[4] == '0' && i == 4) {
        put(": ok\n");
    } else {
        put(": ");
        put(&num[i]);
        put(" FAILED\n");
    }
}

static uint16_t check_mul(void)
{
    uint16_t bad = 0;
    size_t i;
    for (i = 0; i < N(rt_mul16); i++) {
        sink16 = rt_mul16[i].a;
        bad += (uint16_t)(sink16 * rt_mul16[i].b) != rt_mul16[i].p;
    }
    for (i = 0; i < N(rt_mul32); i++) {
        sink32 = rt_mul32[i].a;
        bad += sink32 * rt_mul32[i].b != rt_mul32[i].p;
    }
    for (i = 0; i < N(rt_mul64); i++) {
        sink64 = rt_mul64[i].a;
        bad += sink64 * rt_mul64[i].b != rt_mul64[i].p;
    }
    for (i = 0; i < N(rt_wide16); i++) {
        sink16 = rt_wide16[i].a;
        bad += (uint32_t)sink16 * rt_wide16[i].b != rt_wide16[i].p;
    }
    for (i = 0; i < N(rt_wide32); i++) {
        sink32 = rt_wide32[i].a;
        bad += (uint64_t)sink32 * rt_wide32[i].b != rt_wide32[i].p;
    }
    return bad;
}

static uint16_t check_shift(void)
{
    uint16_t bad = 0;
    size_t i;
    for (i = 0; i < N(rt_sh32); i++) {
        const rt_sh32_case *c = &rt_sh32[i];
        sink16 = c->s;
        bad += (c->x << sink16) != c->shl;
        bad += (c->x >> sink16) != c->shr;
        bad += (uint32_t)((int32_t)c->x >> sink16) != c->sra;
    }
    for (i = 0; i < N(rt_sh64); i++) {
        const rt_sh64_case *c = &rt_sh64[i];
        sink16 = c->s;
        bad += (c->x << sink16) != c->shl;
        bad += (c->x >> sink16) != c->shr;
        bad += (uint64_t)((int64_t)c->x >> sink16) != c->sra;
    }
    return bad;
}

static uint16_t check_div(void)
{
    uint16_t bad = 0;
    size_t i;
    for (i = 0; i < N(rt_div16); i++) {
        sink16 = rt_div16[i].a;
        bad += sink16 / rt_div16[i].b != rt_div16[i].q;
        sink16 = rt_div16[i].a;
        bad += sink16 % rt_div16[i].b != rt_div16[i].r;
    }
    for (i = 0; i < N(rt_div32); i++) {
        sink32 = rt_div32[i].a;
        bad += sink32 / rt_div32[i].b != rt_div32[i].q;
        sink32 = rt_div32[i].a;
        bad += sink32 % rt_div32[i].b != rt_div32[i].r;
    }
    return bad;
}

static uint16_t check_mem(void)
{
    static uint8_t buf[64], ref[64];
    uint16_t bad = 0;
    size_t i;
    for (i = 0; i < sizeof buf; i++) buf[i] = ref[i] = (uint8_t)(i * 7 + 1);
    memmove(buf + 3, buf, 40);              /* overlapping, copies backwards */
    for (i = 0; i < 40; i++) bad += buf[i + 3] != ref[i];
    for (i = 0; i < sizeof buf; i++) ref[i] = buf[i];
    memmove(buf, buf + 5, 30);              /* overlapping, copies forwards */
    for (i = 0; i < 30; i++) bad += buf[i] != ref[i + 5];
    for (i = 30; i < sizeof buf; i++) bad += buf[i] != ref[i];
    memset(buf, 0xC3, 17);
    for (i = 0; i < 17; i++) bad += buf[i] != 0xC3;
    bad += buf[17] == 0xC3;
    ref[0] = buf[27];
    memcpy(buf + 20, "motebox", 7);
    bad += buf[20] != 'm' || buf[26] != 'x' || buf[27] != ref[0];
    return bad;
}

/* hal_stack_paint/used: a function whose frame holds a 200-byte array must measure
 * 200 bytes plus its return address and the few words the compiler adds. */
__attribute__((noinline)) static void touch200(void)
{
    volatile uint8_t frame[200];
    size_t i;
    for (i = 0; i < sizeof frame; i++) frame[i] = (uint8_t)i;
}

static uint16_t check_stack(void)
{
    size_t used, again;
    hal_stack_paint();
    used = hal_stack_used();            /* only hal_stack_used's own return address */
    hal_stack_paint();
    touch200();
    again = hal_stack_used();
    return (uint16_t)((used > 4) + (again < 202) + (again > 232));
}

int main(void)
{
    uint16_t b;
    hal_setup();
    b = check_mul();   rt_fail += b; rt_fail_group[0] = b; report("rt mul", b);
    b = check_shift(); rt_fail += b; rt_fail_group[1] = b; report("rt shift", b);
    b = check_div();   rt_fail += b; rt_fail_group[2] = b; report("rt div", b);
    b = check_mem();   rt_fail += b; rt_fail_group[3] = b; report("rt mem", b);
    b = check_stack(); rt_fail += b; report("rt stack", b);
    return rt_fail != 0;
}
