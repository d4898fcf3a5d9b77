# SPDX-License-Identifier: MIT
"""Tiny Cortex-M4 programs for the fault injectors' tests (test_m4_faults.py,
test_m4_faults_p256.py): a vector table and reset, an exit through semihosting with the
status in r0, and the build of a program made of them."""
import subprocess

# vectors and reset; the program follows
PRELUDE = """
  .syntax unified
  .thumb
  .section .vectors, "a"
  .word 0x20010000
  .word reset + 1
  .text
  .thumb_func
reset:
  nop
"""
# exit: SYS_EXIT_EXTENDED (0x20) with the block {ADP_Stopped_ApplicationExit, r0}; a word
# 4 at val for the programs' loads
EXIT = """
end:
  ldr r1, =0x20000000
  ldr r2, =0x20026
  str r2, [r1]
  str r0, [r1, #4]
  movs r0, #0x20
  bkpt 0xab
  .ltorg
val:
  .word 4
"""


def build(src, tmp_path, name):
    """Assemble and link src (PRELUDE + code + EXIT) at 0x100; returns the ELF."""
    s = tmp_path / f"{name}.S"
    s.write_text(src)
    elf = tmp_path / f"{name}.elf"
    subprocess.run(["arm-none-eabi-gcc", "-mcpu=cortex-m4", "-mthumb", "-nostdlib",
                    "-nostartfiles", "-Wl,-ereset", "-Wl,--section-start=.vectors=0",
                    "-Wl,-Ttext=0x100", "-o", str(elf), str(s)], check=True)
    return elf
