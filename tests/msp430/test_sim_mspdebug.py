# SPDX-License-Identifier: MIT
"""Differential test of instruction semantics: thousands of random base-ISA
instruction sequences run on our simulator and on mspdebug's independent `sim`
driver (Debian mspdebug); registers, flags (SR) and memory must agree.
mspdebug models only the original MSP430, so timing is not compared here.

Each batch is one program: per sequence, registers and flags are set to random
values, 4..10 random instructions run on registers and a 32-byte initialised
buffer, then R4..R15 and SR are stored after the buffer. At the end the whole
data area is written to the console (our simulator) or dumped with `md` (mspdebug).
"""
import random
import re
import shutil
import subprocess

import pytest

from sim430_asm import OPS, SIM_CONSOLE, SIM_EXIT, build, have_toolchain, run

pytestmark = pytest.mark.skipif(not (have_toolchain() and shutil.which("mspdebug")),
                                reason="needs clang, ld.lld and mspdebug")

BATCHES = 20
SEQS = 150           # per batch: 3000 sequences in all
BLOCK = 64           # per sequence: 32-byte buffer, 13 stored registers
DATA_REGS = [4, 5, 6, 7, 8, 9, 12, 13, 14, 15]
FMT1 = ["mov", "add", "addc", "subc", "sub", "cmp", "bit", "bic", "bis", "xor", "and"]
FMT2 = ["rrc", "rra", "swpb", "sxt"]
JUMPS = ["jne", "jeq", "jnc", "jc", "jn", "jge", "jl", "jmp"]
FLAGS = [0x001, 0x002, 0x004, 0x100]  # C, Z, N, V


def rnd_src(rng, blk, byte):
    k = rng.randrange(8)
    if k == 0:
        return f"r{rng.choice(DATA_REGS + [10, 11])}"
    if k == 1:
        return f"@r{rng.choice([10, 11])}"
    if k == 2 and not byte:
        return "@r10+"  # word only: r10 stays even
    if k == 3:
        off = rng.randrange(0, 16, 1 if byte else 2)
        return f"{off}(r10)"
    if k == 4:
        return f"#{rng.choice([0, 1, 2, 4, 8, -1])}"
    if k == 5:
        off = rng.randrange(0, 32, 1 if byte else 2)
        return f"&{blk + off}"
    return f"#{rng.randrange(0x10000)}"


def rnd_dst(rng, blk, byte):
    k = rng.randrange(5)
    if k == 0:
        off = rng.randrange(0, 16, 1 if byte else 2)
        return f"{off}(r10)"
    if k == 1:
        off = rng.randrange(0, 32, 1 if byte else 2)
        return f"&{blk + off}"
    return f"r{rng.choice(DATA_REGS)}"


def encode_inc_to_mem(op, byte, dst):
    """`op @r10+, dst` with a memory destination, which LLVM's assembler rejects:
    encoded by hand (Format I: opcode, Rsrc, Ad, B/W, As, Rdst + index word)."""
    m = re.match(r"(\d+)\(r10\)$", dst)
    reg, index = (10, int(m.group(1))) if m else (2, int(dst[1:]))
    word = (OPS[op] << 12) | (10 << 8) | (1 << 7) | (int(byte) << 6) | (3 << 4) | reg
    return f".word 0x{word:04x}, 0x{index:04x}"


def rnd_insn(rng, blk):
    k = rng.randrange(10)
    if k < 7:
        op = rng.choice(FMT1)
        byte = rng.random() < 0.3
        src, dst = rnd_src(rng, blk, byte), rnd_dst(rng, blk, byte)
        if src == "@r10+" and not dst.startswith("r"):
            return encode_inc_to_mem(op, byte, dst)
        return f"{op}{'.b' if byte else ''} {src}, {dst}"
    if k < 9:
        op = rng.choice(FMT2)
        byte = op in ("rrc", "rra") and rng.random() < 0.3
        dst = rnd_dst(rng, blk, byte)
        return f"{op}{'.b' if byte else ''} {dst}"
    return None  # a conditional jump over the next instruction


def program(rng, base, xprefix=False):
    code, data = [], []
    for i in range(SEQS):
        blk = base + i * BLOCK
        data.append("  .byte " + ", ".join(str(rng.randrange(256)) for _ in range(32)))
        data.append("  .space 32")
        for r in DATA_REGS:
            code.append(f"  mov #{rng.randrange(0x10000)}, r{r}")
        code.append(f"  mov #{blk + 8}, r10")
        code.append(f"  mov #{blk + 16}, r11")
        sr = sum(f for f in FLAGS if rng.random() < 0.5)
        code.append(f"  mov #{sr}, r2")
        # With xprefix every Format I/II instruction gets an MSP430X extension word
        # 0x1840 (A/L = 1, no repeat, bits 19:16 = 0): MOVX.W/.B etc. must then behave
        # exactly like the base instruction in the lower 64 KB.
        x = "  .word 0x1840\n" if xprefix else ""
        for j in range(rng.randrange(4, 11)):
            ins = rnd_insn(rng, blk)
            if ins is None:
                code.append(f"  {rng.choice(JUMPS)} .Ls{i}_{j}")
                code.append(x + "  " + (rnd_insn(rng, blk) or "nop"))
                code.append(f".Ls{i}_{j}:")
            else:
                code.append(x + "  " + ins)
        for n, r in enumerate([4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 2]):
            code.append(f"  mov r{r}, &{blk + 32 + 2 * n}")
    end = base + SEQS * BLOCK
    code += [f"  mov #{base}, r4",
             f"1: cmp #{end}, r4",
             "  jhs 2f",
             "  mov.b @r4+, r5",
             f"  mov.b r5, &{SIM_CONSOLE}",
             "  jmp 1b",
             f"2: mov #0, &{SIM_EXIT}",
             "done: jmp done"]
    asm = "\n".join(code) + f"\n  .section .bufs,\"aw\"\n" + "\n".join(data) + "\n"
    return asm


def mspdebug_dump(elf, start, length):
    nm = subprocess.run(["llvm-nm", str(elf)], capture_output=True, text=True, check=True).stdout
    done = int(re.search(r"^([0-9a-f]+) \w done$", nm, re.M).group(1), 16)
    out = subprocess.run(["mspdebug", "-q", "sim", f"prog {elf}", f"setbreak 0x{done:x}", "run",
                          f"md 0x{start:x} {length}"], stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, timeout=120).stdout
    mem = {}
    for m in re.finditer(r"^\s+([0-9a-f]{5}):((?: [0-9a-f]{2})+)", out, re.M):
        a = int(m.group(1), 16)
        for k, b in enumerate(m.group(2).split()):
            mem[a + k] = int(b, 16)
    return bytes(mem[start + k] for k in range(length))


@pytest.mark.parametrize("batch", range(BATCHES))
def test_random_sequences_match_mspdebug(batch, tmp_path):
    rng = random.Random(1000 + batch)
    base = 0xB000  # the .bufs section of the test linker script
    state = rng.getstate()
    asm = program(rng, base)
    elf = build(asm, tmp_path, "seq")
    theirs = mspdebug_dump(elf, base, SEQS * BLOCK)
    rng.setstate(state)
    xelf = build(program(rng, base, xprefix=True), tmp_path, "seqx")
    for e in (elf, xelf):
        ours = run(e)
        assert ours.returncode == 0, ours.stderr
        mine = ours.stdout.encode("latin-1")
        assert len(mine) == SEQS * BLOCK
        compare(asm, base, mine, theirs, extended=e is xelf)


def compare(asm, base, mine, theirs, extended):
    for i in range(SEQS):
        a, b = mine[i * BLOCK:(i + 1) * BLOCK], theirs[i * BLOCK:(i + 1) * BLOCK]
        if a != b:
            seq = asm.split(f"mov #{base + i * BLOCK + 8}, r10")[1].split(f"&{base + i * BLOCK + 32},")[0]
            regs = [int.from_bytes(x[32 + 2 * n:34 + 2 * n], "little") for x in (a, b) for n in range(13)]
            pytest.fail(f"sequence {i} differs (extended: {extended})\n{seq}\nours   {[hex(v) for v in regs[:13]]}\n"
                        f"theirs {[hex(v) for v in regs[13:]]}\nbuf ours {a[:32].hex()}\nbuf thrs {b[:32].hex()}")
