# SPDX-License-Identifier: MIT
"""The MSP430FR5969 board runtime (platforms/msp430fr5969/): the __mspabi_* multiply
helpers (MPY32 and MPY16 builds), shifts, divisions and mem* helpers, checked by the
rt_check firmware against Python-integer results (gen_rt_cases.py); the MPY16 build also
on an independent simulator (mspdebug's `sim` with its hardware multiplier); and which
helpers the library calls (no variable-count shift or division may be reachable from
src/ or from the chip's assembly, since their time depends on the count), in the
portable libraries and, when mk/msp430.mk names the board's chip, in its assembly ones
(which must then exist)."""
import re
import shutil
import subprocess

import pytest

from conftest import REPO
from motebox_tools.boards import msp430 as t430

PLAT = REPO / "platforms" / "msp430fr5969"
GROUPS = ["rt mul", "rt shift", "rt div", "rt mem", "rt stack"]
# Helpers whose time depends on an operand (a loop count): never from library code.
VARIABLE_TIME = {"__mspabi_slll", "__mspabi_srll", "__mspabi_sral", "__ashldi3", "__lshrdi3",
                 "__ashrdi3", "__mspabi_divu", "__mspabi_remu", "__mspabi_divul",
                 "__mspabi_remul", "memmove"}
# Helpers the library may call: fixed-time multiplies; mem* whose time depends on the
# (public) length only.
ALLOWED = {"__mspabi_mpyi", "__mspabi_mpyl", "__mspabi_mpyll", "memcpy", "memset"}
# Reviewed call sites of variable-time helpers, each with why its count is public. A new
# call site fails the test until it is reviewed and listed here.
REVIEWED = {
    # src/curve/p256_ladder_loop.c: bit = (kw[i >> 5] >> (i & 31)) & 1: secret word,
    # count = the ladder's loop index (public); time depends on i only.
    ("mb_p256_ladder_loop", "__mspabi_srll"),
    # src/curve/p256_ladder_loop.c (fault hardening): rec[i >> 5] |= b << (i & 31):
    # secret 0/1 bit, count = the same loop index (public); time depends on i only.
    ("mb_p256_ladder_loop", "__mspabi_slll"),
    # src/curve/x25519_base.c: idx |= (secret bit) << n: secret 0/1 value, count = the
    # comb's tooth index n (public loop counter); time depends on n only.
    ("mb_x25519_base_scalarmult", "__mspabi_slll"),
}


def need(path):
    if not path.exists():
        pytest.fail(f"{path} missing: run `make msp430` first")
    return path


@pytest.mark.parametrize("variant", t430.variants())
def test_runtime_on_simulator(variant):
    if not t430.have_sim():
        pytest.fail(f"{t430.sim_path()} missing: run `make` (SIM430's simulator)")
    mpy = t430.VARIANTS[variant].mpy
    r = t430.run(need(t430.firmware("rt_check", variant=variant)), mpy=mpy, timeout=120)
    for g in GROUPS:
        assert f"{g}: ok\n" in r.stdout, r.stdout + r.stderr
    assert r.status == 0, r


@pytest.mark.skipif(shutil.which("mspdebug") is None, reason="mspdebug not installed")
def test_mpy16_runtime_on_mspdebug(tmp_path):
    """Cross-check with a simulator we did not write: mspdebug 0.22's `sim` (base MSP430
    ISA, 16-bit multiplier fixed at 0x0130). The 16-bit runtime is rebuilt with its
    registers at 0x0130; the same rt_check firmware must count zero failures."""
    cases = need(t430.build_dir() / "gen" / "rt_cases.h")
    cc = ["clang", "--target=msp430", "-std=c99", "-O2", "-ffreestanding", "-ffunction-sections",
          "-fdata-sections", f"-I{REPO / 'include'}", f"-I{REPO / 'platforms'}", f"-I{PLAT}",
          f"-I{cases.parent}", "-DMB_MPY_BASE=0x0130"]
    objs = []
    for src in ["crt0.S", "hal_stack.S", "rt_shift.S", "rt_mem.S", "rt_div.S", "rt_mpy16.S",
                "hal.c", "check/rt_check.c"]:
        o = tmp_path / (src.replace("/", "_") + ".o")
        subprocess.run(cc + ["-c", str(PLAT / src), "-o", str(o)], check=True)
        objs.append(str(o))
    elf = tmp_path / "rt_check.elf"
    subprocess.run(["ld.lld", "-m", "msp430elf", "-T", str(PLAT / "fr5969.ld"), "--gc-sections",
                    "-o", str(elf)] + objs, check=True)
    halt, _ = t430.symbol(elf, "__crt0_halt")
    fail, _ = t430.symbol(elf, "rt_fail")
    p = subprocess.run(["mspdebug", "-q", "sim", "simio add hwmult m", f"prog {elf}",
                        f"setbreak 0x{halt:04x}", "run", "regs", f"md 0x{fail:04x} 10"],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=300, cwd=tmp_path)
    out = p.stdout.decode(errors="replace")
    assert re.search(r"\(\s*PC:\s*0*%x\)" % halt, out, re.I), "did not reach __crt0_halt\n" + out
    m = re.search(r"^\s*0*%x:((?: [0-9a-f]{2}){10})" % fail, out, re.M | re.I)
    assert m, out
    words = bytes.fromhex(m.group(1).replace(" ", ""))
    total, *groups = [int.from_bytes(words[i:i + 2], "little") for i in range(0, 10, 2)]
    assert total == 0 and groups == [0, 0, 0, 0], f"failures: total {total}, per group {groups}"


# Every library build: the portable ones (shared by both multipliers) and the assembly
# ones (one per multiplier).
LIBS = sorted({t430.VARIANTS[v].lib for v in t430.variants()})


def library_calls(libs=LIBS):
    """{(function, helper)} for every call from the given library builds to a helper."""
    calls = set()
    for name in libs:
        lib = need(t430.build_dir() / name / "libmotebox.a")
        dis = subprocess.run(["llvm-objdump", "-dr", str(lib)], check=True,
                             stdout=subprocess.PIPE).stdout.decode()
        func = None
        for line in dis.splitlines():
            m = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
            if m:
                func = m.group(1)
            m = re.search(r"R_MSP430_\w+\s+(__\w+|mem\w+)$", line)
            if m:
                calls.add((func, m.group(1)))
    return calls


@pytest.mark.parametrize("lib", LIBS)
def test_library_calls_only_fixed_time_helpers(lib):
    calls = library_calls([lib])
    assert calls, "no helper calls found at all: the disassembly parse is broken"
    bad = sorted(c for c in calls
                 if (c[1] in VARIABLE_TIME or c[1] not in ALLOWED) and c not in REVIEWED)
    assert not bad, (f"library functions calling variable-time or unknown helpers: {bad}; "
                     "a variable shift count must be public: review and list the call site")
