/* SPDX-License-Identifier: MIT */
/* hal.h for QEMU mps2-an386 and the motebox Cortex-M4 cycle model:
 * console and exit through ARM semihosting (BKPT 0xAB), cycles from DWT->CYCCNT
 * (QEMU reads 0 there; the model counts), stack depth by painting. */
#include <stdint.h>
#include "hal.h"

#define SYS_WRITE0          0x04
#define SYS_EXIT_EXTENDED   0x20
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u

#define DEMCR       (*(volatile uint32_t *)0xE000EDFCu)
#define DWT_CTRL    (*(volatile uint32_t *)0xE0001000u)
#define DWT_CYCCNT  (*(volatile uint32_t *)0xE0001004u)

#define STACK_PAINT 0xA5C3E11Eu

extern uint32_t __stack_limit;
static uint32_t *paint_top;

static uint32_t semihost(uint32_t op, const void *arg)
{
    register uint32_t r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

void hal_setup(void)
{
    DEMCR |= 1u << 24;      /* TRCENA: power the DWT */
    DWT_CYCCNT = 0;
    DWT_CTRL |= 1u;         /* CYCCNTENA */
}

/* SYS_WRITE0 prints a NUL-terminated string: send the text in NUL-terminated pieces. */
void hal_write(const char *s, size_t len)
{
    char buf[65];
    size_t i, n;
    while (len > 0) {
        n = len < 64 ? len : 64;
        for (i = 0; i < n; i++) buf[i] = s[i];
        buf[n] = 0;
        semihost(SYS_WRITE0, buf);
        s += n;
        len -= n;
    }
}

uint32_t hal_cycles(void)
{
    return DWT_CYCCNT;
}

/* Paints from the caller's SP down to __stack_limit. A leaf without a frame, so the
 * SP read here is the caller's: callees of the caller start right below it. */
void hal_stack_paint(void)
{
    uint32_t *p, *sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    paint_top = sp;
    for (p = &__stack_limit; p < sp; p++) *(volatile uint32_t *)p = STACK_PAINT;
}

size_t hal_stack_used(void)
{
    const uint32_t *p = &__stack_limit;
    while (p < paint_top && *p == STACK_PAINT) p++;
    return (size_t)((const char *)paint_top - (const char *)p);
}

void hal_exit(int status)
{
    uint32_t block[2];
    block[0] = ADP_STOPPED_APPLICATION_EXIT;
    block[1] = (uint32_t)status;
    for (;;) semihost(SYS_EXIT_EXTENDED, block);
}
