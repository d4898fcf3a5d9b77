/* SPDX-License-Identifier: MIT */
/* platforms/hal.h on the simulated MSP430FR5969: console, exit and cycle counter are
 * the simulator-control peripheral (board.h); stack paint/check is in hal_stack.S. */
#include "hal.h"
#include "board.h"

#define REG16(a) (*(volatile uint16_t *)(a))

void hal_setup(void)
{
    /* crt0 has stopped the watchdog and set the stack limit; the clock is the
     * simulator's MCLK (8 MHz, no FRAM wait states). Nothing else to do. */
}

void hal_write(const char *s, size_t len)
{
    size_t i;
    for (i = 0; i < len; i++) REG16(SIM_CONSOLE) = (uint8_t)s[i];
}

uint32_t hal_cycles(void)
{
    uint16_t lo = REG16(SIM_CYCLES_LO);     /* latches the high word */
    uint16_t hi = REG16(SIM_CYCLES_HI);
    return ((uint32_t)hi << 16) | lo;
}

void hal_exit(int status)
{
    REG16(SIM_EXIT) = (uint16_t)status;
    for (;;) { }
}
