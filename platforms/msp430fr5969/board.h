/* SPDX-License-Identifier: MIT */
/* MSP430FR5969 addresses this board uses, for C and for preprocessed assembly (.S).
 * Multiplier: MPY32 at 0x04C0 (SLAU367, "MPY32 registers"; addresses as in the msp430mcu
 * package's periph.x). The 16-bit-only configuration keeps MPY..SUMEXT at the same
 * addresses and lacks the 32-bit registers. Simulator control: team contract (SIM430). */
#ifndef MB_FR5969_BOARD_H
#define MB_FR5969_BOARD_H

/* Simulator-control peripheral (16-bit words, unused peripheral space). */
#define SIM_CONSOLE      0x0FF0  /* write: low byte to stdout */
#define SIM_EXIT         0x0FF2  /* write: stop, exit status = value */
#define SIM_CYCLES_LO    0x0FF4  /* read: cycle counter bits 0..15, latches bits 16..31 */
#define SIM_CYCLES_HI    0x0FF6  /* read: latched bits 16..31 */
#define SIM_STACK_LIMIT  0x0FF8  /* write: lowest allowed SP (0 = off) */

/* Watchdog: WDTCTL = WDTPW | WDTHOLD stops it. */
#define WDTCTL_ADDR      0x015C
#define WDT_STOP         0x5A80

/* Hardware multiplier, 16-bit registers (MPY16 and MPY32). MB_MPY_BASE is 0x04C0 on
 * the FR5969; only the cross-check against mspdebug 0.22's simulator (whose multiplier
 * sits at the original MSP430 address 0x0130) rebuilds the 16-bit runtime with 0x0130. */
#ifndef MB_MPY_BASE
#define MB_MPY_BASE 0x04C0
#endif
#define MPY      (MB_MPY_BASE + 0x0)  /* unsigned multiply, OP1 */
#define MPYS     (MB_MPY_BASE + 0x2)  /* signed multiply, OP1 */
#define MAC      (MB_MPY_BASE + 0x4)  /* unsigned multiply-accumulate, OP1 */
#define MACS     (MB_MPY_BASE + 0x6)  /* signed multiply-accumulate, OP1 */
#define OP2      (MB_MPY_BASE + 0x8)  /* second operand: writing it starts the operation */
#define RESLO    (MB_MPY_BASE + 0xA)  /* 16x16 result bits 0..15 */
#define RESHI    (MB_MPY_BASE + 0xC)  /* 16x16 result bits 16..31 */
#define SUMEXT   (MB_MPY_BASE + 0xE)  /* sum extension: carry of the last MAC */
/* 32-bit registers (MPY32 only). */
#define MPY32L   0x04D0
#define MPY32H   0x04D2
#define MPYS32L  0x04D4
#define MPYS32H  0x04D6
#define MAC32L   0x04D8
#define MAC32H   0x04DA
#define MACS32L  0x04DC
#define MACS32H  0x04DE
#define OP2L     0x04E0
#define OP2H     0x04E2  /* writing it completes a 32-bit OP2 and starts the operation */
#define RES0     0x04E4
#define RES1     0x04E6
#define RES2     0x04E8
#define RES3     0x04EA
#define MPY32CTL0 0x04EC

#endif
