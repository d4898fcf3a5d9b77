/* SPDX-License-Identifier: MIT */
/* The build's backend, decided by the compiler's predefined macros (and a few -D a user
 * may set), so that every source file of src/ and arch/<chip>/ can be compiled: a file
 * that this backend does not use compiles to nothing. That is what "compile every file
 * in the folder" build systems need (Arduino, PlatformIO, Zephyr, vendor IDEs); the
 * project's own builds compile the same files from explicit lists (arch/<chip>/files.mk,
 * mk/arch.mk; tests/test_compile_all.py checks that both agree). Preprocessor only: C
 * and assembly (.S) files include it alike.
 *
 * MB_RADIX, the limb size of every field backend: 16 on MSP430, 64 on hosts with
 * unsigned __int128, else 32 (override with -DMB_RADIX=16|25|32|64). MB_RADIX=25 is the
 * radix-32 build with GF(2^255-19) in radix 2^25.5 (fe25519_r25.c, ten 26/25-bit limbs:
 * made for C on 32-bit cores): it sets MB_FE25519_R25 to 1 and MB_RADIX to 32 for every
 * other backend.
 *
 * Assembly backends (each 1 when active, else 0):
 *   MB_ASM_CORTEX_M4  arch/cortex-m4/: an ARMv7E-M core (Cortex-M4, also M7: same
 *                     instructions; cycle counts are the M4's), MB_RADIX unset or 32
 *   MB_ASM_MSP430X    arch/msp430x/: an MSP430X in the small code model, MB_RADIX unset
 *                     or 16; the files include the board's board.h (multiplier address)
 *   MB_MSP430_MPY     the MSP430X hardware multiplier the assembly drives: 32 (MPY32,
 *                     the default) or 16 (MPY16: never touches an MPY32-only register)
 * -DMB_PORTABLE: portable C only on any target (both backends 0). A build that sets
 * MB_RADIX to another radix than the backend's is portable too (e.g. MB_RADIX=25 on the
 * Cortex-M4). */
#ifndef MB_UTIL_BACKEND_H
#define MB_UTIL_BACKEND_H

/* ---- assembly backend (before the radix default: it reads what the user set) ---- */
#if defined(MB_PORTABLE)
#  define MB_ASM_CORTEX_M4 0
#  define MB_ASM_MSP430X 0
#else
/* gcc and clang name the architecture; ACLE compilers (armclang, IAR) its parts. */
#  if defined(__ARM_ARCH_7EM__) || \
      (defined(__ARM_ARCH) && defined(__ARM_ARCH_PROFILE) && defined(__ARM_FEATURE_DSP) && \
       __ARM_ARCH == 7 && __ARM_ARCH_PROFILE == 'M')
#    if !defined(MB_RADIX)
#      define MB_ASM_CORTEX_M4 1
#    elif MB_RADIX == 32
#      define MB_ASM_CORTEX_M4 1
#    endif
#  endif
/* gcc defines __MSP430X__ for MSP430X CPUs (-mcpu=msp430x, or an -mmcu that has one) and
 * __MSP430X_LARGE__ for the large model (20-bit calls, which the assembly does not use);
 * clang --target=msp430 defines only __MSP430__: no CPU choice, no large model, and its
 * assembler takes the MSP430X instructions. */
#  if (defined(__MSP430X__) && !defined(__MSP430X_LARGE__)) || \
      (defined(__MSP430__) && defined(__clang__))
#    if !defined(MB_RADIX)
#      define MB_ASM_MSP430X 1
#    elif MB_RADIX == 16
#      define MB_ASM_MSP430X 1
#    endif
#  endif
#endif
#ifndef MB_ASM_CORTEX_M4
#  define MB_ASM_CORTEX_M4 0
#endif
#ifndef MB_ASM_MSP430X
#  define MB_ASM_MSP430X 0
#endif

#ifndef MB_MSP430_MPY
#  define MB_MSP430_MPY 32
#endif
#if MB_MSP430_MPY != 32 && MB_MSP430_MPY != 16
#  error "MB_MSP430_MPY must be 32 (MPY32) or 16 (MPY16)"
#endif

/* ---- field radix ---- */
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
#  error "MB_RADIX must be 16, 25, 32 or 64"
#endif

#endif
