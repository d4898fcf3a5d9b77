/* SPDX-License-Identifier: MIT */
/* Reset code and vector table for QEMU mps2-an386 (Cortex-M4). The core loads SP from
 * word 0 and jumps to word 1; we copy .data from flash, zero .bss and run main(). */
#include <stdint.h>
#include "hal.h"

extern uint32_t __stack_top, _sidata, _sdata, _edata, _sbss, _ebss;
int main(void);
void Reset_Handler(void) __attribute__((noreturn));
void Fault_Handler(void) __attribute__((noreturn));

__attribute__((section(".vectors"), used))
const void *const mb_vector_table[16] = {
    &__stack_top,                 /* initial SP */
    (const void *)Reset_Handler,  /* reset */
    (const void *)Fault_Handler,  /* NMI */
    (const void *)Fault_Handler,  /* HardFault */
    (const void *)Fault_Handler,  /* MemManage */
    (const void *)Fault_Handler,  /* BusFault */
    (const void *)Fault_Handler,  /* UsageFault */
    0, 0, 0, 0,
    (const void *)Fault_Handler,  /* SVCall */
    (const void *)Fault_Handler,  /* DebugMonitor */
    0,
    (const void *)Fault_Handler,  /* PendSV */
    (const void *)Fault_Handler,  /* SysTick */
};

void Reset_Handler(void)
{
    /* volatile pointers: keep gcc from turning these loops into memcpy/memset calls */
    volatile uint32_t *src = &_sidata, *dst = &_sdata;
    while (dst < &_edata) *dst++ = *src++;
    for (dst = &_sbss; dst < &_ebss; dst++) *dst = 0;
    hal_setup();
    hal_exit(main());
}

/* Any fault is a failed run: say so and stop with a status no test passes with. */
void Fault_Handler(void)
{
    static const char msg[] = "\n*** fault ***\n";
    hal_write(msg, sizeof msg - 1);
    hal_exit(125);
}
