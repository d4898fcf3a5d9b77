# SPDX-License-Identifier: MIT
"""Helpers for the simulator tests (tests/msp430/test_sim_*.py): assemble tiny
MSP430 programs with clang/ld.lld, encode the MSP430X instructions LLVM's
assembler lacks (as .word directives, from the SLAU367 "Extended Instruction
Binary Descriptions"), and run them on build/sim/msp430sim."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
from motebox_tools.sim import msp430 as sim  # noqa: E402  (python/ is on sys.path: conftest)

SIM_CONSOLE, SIM_EXIT, SIM_CYCLES_LO, SIM_CYCLES_HI, SIM_STACK_LIMIT = 0x0FF0, 0x0FF2, 0x0FF4, 0x0FF6, 0x0FF8

LINK_LD = """
MEMORY {
  ram (wx)  : ORIGIN = 0x1c00, LENGTH = 0x0800
  rom (rx)  : ORIGIN = 0x4400, LENGTH = 0xbb7e
  reset     : ORIGIN = 0xfffe, LENGTH = 2
  far (rx)  : ORIGIN = 0x10000, LENGTH = 0x4000
}
SECTIONS {
  .text : { *(.text.start) *(.text .text.*) } > rom
  .data : { *(.data .data.*) } > rom
  .bufs 0xb000 : { *(.bufs) } > rom
  .far : { *(.far .far.*) } > far
  .reset : { SHORT(_start) } > reset
}
"""


def have_toolchain():
    return all(shutil.which(t) for t in ("clang", "ld.lld"))


def build(asm, workdir, name="t"):
    """Assemble `asm` (placed at _start in FRAM 0x4400) and link; returns the ELF path."""
    workdir = Path(workdir)
    src = workdir / f"{name}.s"
    src.write_text('  .section .text.start,"ax",@progbits\n  .globl _start\n_start:\n' + asm + "\n")
    ld = workdir / "link.ld"
    ld.write_text(LINK_LD)
    obj, elf = workdir / f"{name}.o", workdir / f"{name}.elf"
    subprocess.run(["clang", "--target=msp430", "-c", str(src), "-o", str(obj)], check=True,
                   capture_output=True)
    subprocess.run(["ld.lld", "-m", "msp430elf", "-T", str(ld), str(obj), "-o", str(elf)], check=True,
                   capture_output=True)
    return elf


def run(elf, **kw):
    return sim.run(elf, **kw)


def words(ws):
    """A .word directive line for a list of 16-bit words."""
    return "  .word " + ", ".join(f"0x{w & 0xFFFF:04x}" for w in ws)


# ---- MSP430X encoder (SLAU367 section "Extended Instruction Binary Descriptions") ---------
# Addressing modes for format I/II fields: (as_or_ad, register, extension words needed)

def ext_reg(al=1, rpt=1, rpt_reg=None, zc=0):
    """Register-mode extension word: ZC, repeat count (1..16) or repeat count in Rn."""
    w = 0x1800 | (zc << 8) | (al << 6)
    if rpt_reg is not None:
        w |= 0x80 | rpt_reg
    else:
        assert 1 <= rpt <= 16
        w |= rpt - 1
    return w


def ext_mem(al=1, src_hi=0, dst_hi=0):
    """Non-register-mode extension word: bits 19:16 of the source and destination."""
    return 0x1800 | ((src_hi & 0xF) << 7) | (al << 6) | (dst_hi & 0xF)


def fmt1(opc, src, As, bw, ad, dst):
    return (opc << 12) | (src << 8) | (ad << 7) | (bw << 6) | (As << 4) | dst


def fmt2(opc2, bw, As, reg):
    return 0x1000 | (opc2 << 7) | (bw << 6) | (As << 4) | reg


OPS = {"mov": 4, "add": 5, "addc": 6, "subc": 7, "sub": 8, "cmp": 9, "dadd": 10, "bit": 11,
       "bic": 12, "bis": 13, "xor": 14, "and": 15}


def mova_ind(rs, rd):      return [0x0000 | (rs << 8) | rd]
def mova_inc(rs, rd):      return [0x0010 | (rs << 8) | rd]
def mova_abs(a, rd):       return [0x0020 | ((a >> 16) << 8) | rd, a & 0xFFFF]
def mova_idx(x, rs, rd):   return [0x0030 | (rs << 8) | rd, x & 0xFFFF]
def mova_to_abs(rs, a):    return [0x0060 | (rs << 8) | (a >> 16), a & 0xFFFF]
def mova_to_idx(rs, x, rd): return [0x0070 | (rs << 8) | rd, x & 0xFFFF]
def mova_imm(v, rd):       return [0x0080 | ((v >> 16) << 8) | rd, v & 0xFFFF]
def cmpa_imm(v, rd):       return [0x0090 | ((v >> 16) << 8) | rd, v & 0xFFFF]
def adda_imm(v, rd):       return [0x00A0 | ((v >> 16) << 8) | rd, v & 0xFFFF]
def suba_imm(v, rd):       return [0x00B0 | ((v >> 16) << 8) | rd, v & 0xFFFF]
def mova_reg(rs, rd):      return [0x00C0 | (rs << 8) | rd]
def cmpa_reg(rs, rd):      return [0x00D0 | (rs << 8) | rd]
def adda_reg(rs, rd):      return [0x00E0 | (rs << 8) | rd]
def suba_reg(rs, rd):      return [0x00F0 | (rs << 8) | rd]


def shift_m(kind, n, rd, a=False):
    """RRCM (0), RRAM (1), RLAM (2), RRUM (3) by n = 1..4; .A or .W."""
    assert 1 <= n <= 4
    return [((n - 1) << 10) | (kind << 8) | (0x40 if a else 0x50) | rd]


def pushm(n, rd, a=False):  return [(0x1400 if a else 0x1500) | ((n - 1) << 4) | rd]
def popm(n, rd, a=False):   return [(0x1600 if a else 0x1700) | ((n - 1) << 4) | (rd - n + 1)]
def calla_reg(rd):          return [0x1340 | rd]
def calla_idx(x, rd):       return [0x1350 | rd, x & 0xFFFF]
def calla_ind(rd):          return [0x1360 | rd]
def calla_inc(rd):          return [0x1370 | rd]
def calla_abs(a):           return [0x1380 | (a >> 16), a & 0xFFFF]
def calla_imm(a):           return [0x13B0 | (a >> 16), a & 0xFFFF]
RETA = [0x0110]             # MOVA @SP+, PC
RETI = [0x1300]
