/* SPDX-License-Identifier: MIT */
/* MB_RADIX, the limb size of every field backend, fixed once per build: 16 on MSP430,
 * 64 on hosts with unsigned __int128, else 32 (override with -DMB_RADIX=16|25|32|64).
 * MB_RADIX=25 is the radix-32 build with GF(2^255-19) in radix 2^25.5 (fe25519_r25.c,
 * ten 26/25-bit limbs: made for C on 32-bit cores): it sets MB_FE25519_R25 to 1 and
 * MB_RADIX to 32 for every other backend. */
#ifndef MB_FIELD_RADIX_H
#define MB_FIELD_RADIX_H

#ifndef MB_RADIX
#  if defined(__MSP430__)
#    define MB_RADIX 16
#  elif defined(__SIZEOF_INT128__)
#    define MB_RADIX 64
#  else
#    define MB_RADIX 32
#  endif
#endif

#if MB_RADIX == 25
#  undef MB_RADIX
#  define MB_RADIX 32
#  define MB_FE25519_R25 1
#endif
#ifndef MB_FE25519_R25
#  define MB_FE25519_R25 0
#endif

#if MB_RADIX != 16 && MB_RADIX != 32 && MB_RADIX != 64
#  error "MB_RADIX must be 16, 32 or 64"
#endif

#endif
