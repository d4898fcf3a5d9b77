/* SPDX-License-Identifier: MIT */
/*
 * GF(p256), radix 2^16: 16 x 16-bit limbs (MSP430 representation, [SAK18]).
 * The backend's operations other than the arithmetic (fep256_mont.inc); add, sub, mul,
 * sqr and sqr_n are in fep256_arith_r16.c, which arch/<chip>/ may replace whole.
 * CT: every function treats all of its inputs as secret.
 */
#include "field/fep256.h"
#include "util/ct.h"

#if MB_RADIX == 16

#include "field/fep256_limbs.inc"
#include "field/fep256_mont.inc"

#endif
