/* SPDX-License-Identifier: MIT */
/* The fault-hardening switch (docs/FAULTS.md): MB_FAULT_HARDENED 1 (default) adds the
 * redundant checks against single injected faults; 0 leaves them out (the campaigns'
 * "before" builds). MB_NOINLINE keeps a check out of line, so the compiler cannot merge
 * it with its twin and a campaign can name it. Layer 0: preprocessor only. */
#ifndef MB_UTIL_FAULT_H
#define MB_UTIL_FAULT_H

#include "util/backend.h"

#ifndef MB_FAULT_HARDENED
#define MB_FAULT_HARDENED 1
#endif

/* The checks of mb_x25519 (MB_FAULT_HARDENED_X25519) and of mb_box_stream_final
 * (MB_FAULT_HARDENED_STREAM), docs/FAULTS.md: on with MB_FAULT_HARDENED unless set,
 * except X25519 on the whole-assembly backends (arch/cortex-m4, arch/msp430x): their
 * ladders have no checks inside, so there only the two computations of
 * MB_FAULT_HARDENED_X25519_TWICE (default 0: twice the cycles) protect X25519; the
 * wrapper's checks alone stopped nothing the campaigns count and cost code and stack
 * (the X25519 code and stack goals of both chips), so they come only with it. */
#ifndef MB_FAULT_HARDENED_X25519_TWICE
#define MB_FAULT_HARDENED_X25519_TWICE 0
#endif
#ifndef MB_FAULT_HARDENED_X25519
#if MB_ASM_CORTEX_M4 || MB_ASM_MSP430X
#define MB_FAULT_HARDENED_X25519 (MB_FAULT_HARDENED && MB_FAULT_HARDENED_X25519_TWICE)
#else
#define MB_FAULT_HARDENED_X25519 MB_FAULT_HARDENED
#endif
#endif
#ifndef MB_FAULT_HARDENED_STREAM
#define MB_FAULT_HARDENED_STREAM MB_FAULT_HARDENED
#endif

#if defined(__GNUC__) || defined(__clang__)
#define MB_NOINLINE __attribute__((noinline))
#else
#define MB_NOINLINE
#endif

/* Before a loop of the hardening: keep it a loop. Compilers unroll short fixed loops
 * fully, which on a 16-bit core turns a 16-byte check into ~200 bytes of code (the
 * MSP430 test image has no room for that); the checks run once per call, so the loop
 * costs only a few cycles. */
#if defined(__clang__)
#define MB_NO_UNROLL _Pragma("clang loop unroll(disable)")
#elif defined(__GNUC__) && __GNUC__ >= 8
#define MB_NO_UNROLL _Pragma("GCC unroll 1")
#else
#define MB_NO_UNROLL
#endif

#endif
