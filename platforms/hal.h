/* SPDX-License-Identifier: MIT */
/* The board interface: every board in platforms/<board>/ implements exactly this, and
 * the test suite (tests/target/) and bench firmware (bench/target/) call only this. */
#ifndef MB_HAL_H
#define MB_HAL_H

#include <stddef.h>
#include <stdint.h>

void hal_setup(void);                            /* clocks, console, cycle counter */
void hal_write(const char *s, size_t len);       /* console output */
uint32_t hal_cycles(void);                       /* free-running cycle counter */
void hal_stack_paint(void);                      /* fill the unused stack with a pattern */
size_t hal_stack_used(void);                     /* bytes touched below the paint point */
void hal_exit(int status) __attribute__((noreturn)); /* end the run with a status */

#endif
