/* SPDX-License-Identifier: MIT */
/* What every fault-injection target firmware shares (fault.c, fault_p256.c,
 * fault_x25519.c; docs/FAULTS.md): the window markers and the outcome lines the host
 * parses (motebox_tools/fault.py, parse_output). Included by exactly one file of an
 * image: it defines the markers. */
#ifndef MB_FAULT_COMMON_H
#define MB_FAULT_COMMON_H

#include <stdint.h>
#include "common/tprint.h"

/* The injector counts instructions only between these calls: noinline and a volatile
 * store, so that each is a real call at a known address. */
volatile uint32_t fault_marker;
__attribute__((noinline)) void fault_begin(void);
__attribute__((noinline)) void fault_end(void);
void fault_begin(void) { fault_marker = 1; }
void fault_end(void) { fault_marker = 2; }

/* "return 0|-1|other", "out <hex of n bytes>", "cycles <t>". */
static void fault_report(int r, const uint8_t *out, unsigned n, uint32_t cycles)
{
    tp_str("return ");
    tp_str(r == 0 ? "0" : r == -1 ? "-1" : "other");
    tp_str("\nout ");
    tp_hex(out, n);
    tp_str("\ncycles ");
    tp_u32(cycles);
    tp_nl();
}

#endif
