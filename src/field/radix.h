/* SPDX-License-Identifier: MIT */
/* MB_RADIX, the limb size of every field backend, fixed once per build: 16 on MSP430,
 * 64 on hosts with unsigned __int128, else 32 (override with -DMB_RADIX=16|32|64). */
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

#if MB_RADIX != 16 && MB_RADIX != 32 && MB_RADIX != 64
#  error "MB_RADIX must be 16, 32 or 64"
#endif

#endif
