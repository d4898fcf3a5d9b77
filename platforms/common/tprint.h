/* SPDX-License-Identifier: MIT */
/* Console output for the portable firmware (suite, bench, demo) on top of hal_write.
 * No libc and no division: decimal digits come from subtracting powers of ten, which
 * costs the same on a 16-bit MSP430 as on a Cortex-M4. */
#ifndef MBT_TPRINT_H
#define MBT_TPRINT_H

#include <stddef.h>
#include <stdint.h>

void tp_str(const char *s);                      /* NUL-terminated text */
void tp_u32(uint32_t v);                         /* decimal */
void tp_hex(const uint8_t *p, size_t len);       /* lower-case hex, no separators */
void tp_nl(void);
void tp_cycles(const char *name, uint32_t n);   /* the line "cycles NAME N" */

#endif
