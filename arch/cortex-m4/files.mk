# SPDX-License-Identifier: MIT
# The Cortex-M4 backend: which portable files it replaces, and with what (mk/m4.mk
# builds the *-asm variants from these). Whole files only; symbols keep the C names.
M4ASM_REPLACES := src/field/fe25519_r32.c src/curve/x25519_steps.c src/sym/salsa20.c \
                  src/sym/poly1305_block.c
M4ASM_SOURCES  := arch/cortex-m4/fe25519_mul.S arch/cortex-m4/fe25519_sqr.S \
                  arch/cortex-m4/fe25519_addsub.S \
                  arch/cortex-m4/salsa20.S \
                  arch/cortex-m4/poly1305_block.S arch/cortex-m4/poly1305_r32.c
# GF(p256): Montgomery mul/sqr and add/sub in assembly; the rest of the portable r32
# backend is compiled from fep256_r32_arch.c (fep256_mont.h's MB_FEP256_ARCH_ARITH guard).
M4ASM_REPLACES += src/field/fep256_r32.c
M4ASM_SOURCES  += arch/cortex-m4/fep256_r32_arch.c arch/cortex-m4/fep256_mul.S \
                  arch/cortex-m4/fep256_addsub.S
# The co-Z ladder's steps in assembly over the _fast field entries (replaces the whole
# src/curve/p256_ladder.c).
M4ASM_REPLACES += src/curve/p256_ladder.c
M4ASM_SOURCES  += arch/cortex-m4/p256_ladder.S
# p256_coz.c's ladder loop is p256_ladder_loop of p256_ladder.S (one call, 256 bits).
M4ASM_CFLAGS   += -DMB_P256_ARCH_LADDER_LOOP
# X25519: the whole scalar multiplication (ladder, inversion, encoding) in assembly over
# the field kernels' register interface; replaces src/curve/x25519_ladder.c (and with it
# the ladder-steps interface, x25519_steps.c above) and fe25519.c's fe25519_invert.
M4ASM_REPLACES += src/curve/x25519_ladder.c
M4ASM_SOURCES  += arch/cortex-m4/x25519_scalarmult.S
M4ASM_CFLAGS   += -DMB_FE25519_ARCH_INVERT
# fep256.c's squaring chains (inversion, square root) call fep256_sqr_n of fep256_mul.S.
M4ASM_CFLAGS   += -DMB_FEP256_ARCH_SQR_N=1
