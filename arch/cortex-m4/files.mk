# SPDX-License-Identifier: MIT
# The Cortex-M4 backend: which portable files it replaces, and with what (mk/arch.mk;
# mk/m4.mk builds the *-asm variants from these). Whole files only; symbols keep the C names.
ARCH_REPLACES := src/field/fe25519_r32.c src/curve/x25519_ladder_steps.c \
                 src/sym/salsa20_core.c src/sym/poly1305_block.c
ARCH_SOURCES  := arch/cortex-m4/fe25519_mul.S arch/cortex-m4/fe25519_sqr.S \
                 arch/cortex-m4/fe25519_addsub.S \
                 arch/cortex-m4/salsa20.S \
                 arch/cortex-m4/poly1305_block.S arch/cortex-m4/poly1305_r32.c
# GF(p256): Montgomery mul/sqr/sqr_n and add/sub in assembly; the rest of the portable
# r32 backend (src/field/fep256_r32.c) stays C.
ARCH_REPLACES += src/field/fep256_arith_r32.c
ARCH_SOURCES  += arch/cortex-m4/fep256_mul.S arch/cortex-m4/fep256_addsub.S
# The co-Z ladder, steps and loop (one call for 256 bits), in assembly over the register
# entries of the field kernels.
ARCH_REPLACES += src/curve/p256_ladder.c src/curve/p256_ladder_loop.c
ARCH_SOURCES  += arch/cortex-m4/p256_ladder.S
# X25519: the whole scalar multiplication (ladder, inversion, encoding) in assembly over
# the field kernels' register interface; replaces src/curve/x25519_scalarmult.c (and with
# it the ladder-steps interface, x25519_ladder_steps.c above) and fe25519_invert.c.
ARCH_REPLACES += src/curve/x25519_scalarmult.c src/field/fe25519_invert.c
ARCH_SOURCES  += arch/cortex-m4/x25519_scalarmult.S
# P-256 variable-base scalar multiplication (ECDH): fixed signed windows of 4 bits in
# Jacobian coordinates (about 12 multiplications per bit against the co-Z ladder's 14),
# the point operations in assembly; replaces src/curve/p256_coz.c (the ladder, which
# stays the portable and MSP430 method; p256_ladder.S above keeps its tests).
ARCH_REPLACES += src/curve/p256_coz.c
ARCH_SOURCES  += arch/cortex-m4/p256_window.c arch/cortex-m4/p256_jac.S
# X25519 fixed-base comb: the masked table lookup for 8 entries per block (the default
# table shape, MB_X25519_BASE_TEETH = 4; SEL on GE flags) and the mixed addition over
# the register kernels.
ARCH_REPLACES += src/curve/x25519_base_ops.c
ARCH_SOURCES  += arch/cortex-m4/x25519_base_ops.S
# P-256 fixed-base comb (key generation): its masked table scan (SEL) and mixed addition
# over the register kernels; the comb stays C (src/curve/p256_base.c).
ARCH_REPLACES += src/curve/p256_base_ops.c
ARCH_SOURCES  += arch/cortex-m4/p256_base_ops.S
