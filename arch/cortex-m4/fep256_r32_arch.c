/* SPDX-License-Identifier: MIT */
/* The portable radix-2^32 GF(p256) backend without add, sub, mul and sqr, which
 * fep256_mul.S and fep256_addsub.S provide (files.mk replaces fep256_r32.c by this). */
#define MB_FEP256_ARCH_ARITH 1
#include "field/fep256_r32.c"
