# SPDX-License-Identifier: MIT
"""Run assembly routines of arch/cortex-m4/ one call at a time on the unicorn Thumb-2
(M-class) engine: shared by the tests of the field, ladder and Salsa20/Poly1305 code."""
import subprocess
from pathlib import Path

from elftools.elf.elffile import ELFFile
from unicorn import UC_ARCH_ARM, UC_MODE_MCLASS, UC_MODE_THUMB, Uc
from unicorn import arm_const as A

REPO = Path(__file__).resolve().parents[2]
RAM, STOP = 0x20000000, 0x00100000
ARGS = (A.UC_ARM_REG_R0, A.UC_ARM_REG_R1, A.UC_ARM_REG_R2, A.UC_ARM_REG_R3)
SAVED = (A.UC_ARM_REG_R4, A.UC_ARM_REG_R5, A.UC_ARM_REG_R6, A.UC_ARM_REG_R7,
         A.UC_ARM_REG_R8, A.UC_ARM_REG_R9, A.UC_ARM_REG_R10, A.UC_ARM_REG_R11)


def arm_cpu(workdir, sources, prefixes):
    """Link sources at 0x1000, load them; returns (uc, call). call(name, *args) runs one
    routine with up to four register arguments and checks that it returned, left the
    stack balanced and (unless it is a _fast internal entry) kept r4-r11."""
    elf = workdir / "routines.elf"
    # -Isrc: the assembly includes util/backend.h (its backend guard).
    subprocess.run(["arm-none-eabi-gcc", "-mcpu=cortex-m4", "-mthumb", "-nostdlib",
                    f"-I{REPO / 'src'}",
                    "-Wl,-Ttext=0x1000", "-Wl,--entry=0x1000", "-o", str(elf),
                    *map(str, sources)], check=True)
    uc = Uc(UC_ARCH_ARM, UC_MODE_THUMB | UC_MODE_MCLASS)
    uc.mem_map(0, 0x200000)
    uc.mem_map(RAM, 0x100000)
    syms = {}
    with open(elf, "rb") as f:
        e = ELFFile(f)
        for seg in e.iter_segments():
            if seg["p_type"] == "PT_LOAD":
                uc.mem_write(seg["p_paddr"], seg.data())
        for s in e.get_section_by_name(".symtab").iter_symbols():
            if s.name.startswith(prefixes):
                syms[s.name] = s["st_value"] & ~1
    uc.mem_write(STOP, b"\x00\xbe")   # bkpt, never executed: emulation stops at STOP

    def call(name, *args):
        for reg, v in zip(ARGS, args):
            uc.reg_write(reg, v)
        for i, reg in enumerate(SAVED):
            uc.reg_write(reg, 0x1111_0000 + i)
        sp = RAM + 0x80000
        uc.reg_write(A.UC_ARM_REG_SP, sp)
        uc.reg_write(A.UC_ARM_REG_LR, STOP | 1)
        uc.emu_start(syms[name] | 1, STOP, count=10_000_000)
        assert uc.reg_read(A.UC_ARM_REG_PC) == STOP, f"{name} did not return"
        assert uc.reg_read(A.UC_ARM_REG_SP) == sp, f"{name} unbalanced stack"
        if not name.endswith("_fast"):      # _fast entries may clobber r0-r12
            assert [uc.reg_read(r) for r in SAVED] == [0x1111_0000 + i for i in range(8)], \
                f"{name} clobbered r4-r11"
    call.syms = syms                  # for tests that drive registers directly
    return uc, call


def put(uc, addr, x):
    uc.mem_write(addr, x.to_bytes(32, "little"))


def get(uc, addr):
    return int.from_bytes(uc.mem_read(addr, 32), "little")
