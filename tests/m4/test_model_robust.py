# SPDX-License-Identifier: MIT
"""The Cortex-M4 model as a robust program (issue #13): malformed, truncated and
misplaced ELF images, bad vector tables, jumps to nowhere, undefined instructions, stack
overflow into .bss and endless loops each end with one `m4sim:` line naming the
address and a distinct exit status (machine.EXIT_STATUSES, docs/M4_TIMING.md); never a
Python traceback."""
import os
import random
import struct
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "asm"))
from m4build import CC, HERE, REPO, need  # noqa: E402

from motebox_tools.sim import m4  # noqa: E402
from motebox_tools.sim.m4 import machine as M  # noqa: E402

PROLOGUE = """
    .syntax unified
    .cpu cortex-m4
    .thumb
    .section .vectors, "a"
    .word __stack_top
    .word reset_handler
    .text
    .thumb_func
    .global reset_handler
reset_handler:
"""
EXIT = """
    movs r0, #0x18          @ SYS_EXIT, ADP_Stopped_ApplicationExit
    ldr r1, =0x20026
    bkpt 0xab
    .ltorg
"""


def build(tmp, body, name="p", data=""):
    need(CC)
    src = tmp / f"{name}.S"
    src.write_text(PROLOGUE + body + EXIT + data)
    elf = tmp / f"{name}.elf"
    subprocess.run([CC, "-mcpu=cortex-m4", "-mthumb", "-nostartfiles", "-nostdlib", "-T",
                    str(HERE / "m4test.ld"), str(src), "-o", str(elf)], check=True)
    return elf


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    return build(tmp_path_factory.mktemp("good"), "    movs r0, #1\n").read_bytes()


def cli(*args):
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    p = subprocess.run([sys.executable, "-m", "motebox_tools.sim.m4", *map(str, args)],
                       capture_output=True, env=env, stdin=subprocess.DEVNULL, timeout=120)
    return p.returncode, p.stderr.decode(errors="replace")


def one_line(err):
    assert "Traceback" not in err, err
    lines = [l for l in err.splitlines() if l.startswith("m4sim:")]
    assert len(lines) == 1, err
    return lines[0]


def load_error(path):
    """The SimError that loading path raises (anything else fails the test)."""
    with pytest.raises(m4.SimError) as e:
        m4.run(path)
    assert "\n" not in str(e.value)
    return e.value


def test_good_image(good, tmp_path):
    (tmp_path / "g.elf").write_bytes(good)
    r = m4.run(tmp_path / "g.elf")
    assert r.exit_code == 0 and r.error is None


def ehdr(blob):
    phoff, shoff = struct.unpack_from("<II", blob, 28)
    phent, phnum, shent, shnum = struct.unpack_from("<HHHH", blob, 42)
    return phoff, shoff, phent, phnum, shent, shnum


def first_load(blob):
    phoff, _, phent, phnum, _, _ = ehdr(blob)
    return next(phoff + i * phent for i in range(phnum)
                if struct.unpack_from("<I", blob, phoff + i * phent)[0] == 1)


def section(blob, sh_type):
    _, shoff, _, _, shent, shnum = ehdr(blob)
    return next(shoff + i * shent for i in range(shnum)
                if struct.unpack_from("<I", blob, shoff + i * shent + 4)[0] == sh_type)


def patched(blob, tmp_path, edits):
    b = bytearray(blob)
    for off, fmt, val in edits:
        struct.pack_into(fmt, b, off(blob) if callable(off) else off, val)
    path = tmp_path / "bad.elf"
    path.write_bytes(bytes(b))
    return path


CASES = [  # id, edits, status, words
    ("shentsize-0", [(46, "<H", 0)], 207, "e_shentsize 0"),
    ("phentsize-4", [(42, "<H", 4)], 207, "e_phentsize 4"),
    ("elf64", [(4, "B", 2)], 207, "32-bit little-endian"),
    ("msp430", [(18, "<H", 105)], 207, "e_machine 105"),
    ("not-exec", [(16, "<H", 1)], 207, "not an executable"),
    ("phoff", [(28, "<I", 0xFFFFFF00)], 207, "program headers"),
    ("shoff", [(32, "<I", 0x7FFFFFFF)], 207, "section headers"),
    ("shstrndx", [(50, "<H", 0)], 207, "e_shstrndx"),
    ("p_offset", [(lambda b: first_load(b) + 4, "<I", 0x7FFFFF00)], 207, "segment"),   # was:
    ("p_filesz", [(lambda b: first_load(b) + 16, "<I", 0x7FFFFF00)], 207, "segment"),  # "reset
    ("p_memsz", [(lambda b: first_load(b) + 20, "<I", 0)], 207, "p_filesz"),            # vector 0x0"
    ("sh_offset", [(lambda b: section(b, 1) + 16, "<I", 0xFFFFFFF0)], 207, "section"),
    ("symtab-link", [(lambda b: section(b, 2) + 24, "<I", 500)], 207, "symbol table"),
    ("segment-outside", [(lambda b: first_load(b) + 12, "<I", 0x10000000)], 210, "outside code"),
    ("segment-vaddr-outside", [(lambda b: first_load(b) + 8, "<I", 0x40000000)], 210, "outside code"),
]


@pytest.mark.parametrize("edits,status,words", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_malformed(good, tmp_path, edits, status, words):
    path = patched(good, tmp_path, edits)
    e = load_error(path)
    assert e.status == status and words in str(e) and str(path) in str(e), (e.status, str(e))


@pytest.mark.parametrize("cut", [0, 20, 52, 60, 200, -1])
def test_truncated(good, tmp_path, cut):
    path = tmp_path / "cut.elf"
    path.write_bytes(good[:cut] if cut >= 0 else good[:len(good) * 2 // 3])
    assert load_error(path).status == 207


def test_files_that_are_not_images(tmp_path):
    assert load_error(tmp_path).status == 207                    # a directory
    assert load_error(tmp_path / "missing.elf").status == 125    # as before: cannot open
    (tmp_path / "t.elf").write_text("not an ELF file, just text\n" * 4)
    assert "not an ELF file" in str(load_error(tmp_path / "t.elf"))


@pytest.mark.parametrize("vectors,words", [
    ("    .word __stack_top\n    .word 0x100\n", "not a Thumb address"),
    ("    .word __stack_top\n    .word 0x00300001\n", "outside the loaded code"),
    ("    .word 0x10000000\n    .word reset_handler\n", "initial SP"),
])
def test_bad_vector_table(tmp_path, vectors, words):
    elf = build(tmp_path, "    movs r0, #1\n")
    src = (tmp_path / "p.S").read_text().replace(
        "    .word __stack_top\n    .word reset_handler\n", vectors)
    (tmp_path / "v.S").write_text(src)
    subprocess.run([CC, "-mcpu=cortex-m4", "-mthumb", "-nostartfiles", "-nostdlib", "-T",
                    str(HERE / "m4test.ld"), str(tmp_path / "v.S"), "-o", str(elf)], check=True)
    e = load_error(elf)
    assert e.status == 210 and words in str(e), str(e)


def test_random_corruption(good, tmp_path):
    """Seeded byte flips in the headers and tables: a Result or a SimError, nothing else."""
    rng = random.Random(13)
    phoff, shoff, phent, phnum, shent, shnum = ehdr(good)
    spots = list(range(52)) + list(range(phoff, phoff + phent * phnum)) + \
        list(range(shoff, shoff + shent * shnum))
    path = tmp_path / "m.elf"
    for n in range(120):
        blob = bytearray(good)
        for _ in range(rng.randrange(1, 4)):
            blob[rng.choice(spots)] = rng.randrange(256)
        path.write_bytes(bytes(blob))
        try:
            r = m4.run(path, max_cycles=100_000)
        except m4.SimError as e:
            assert e.status in M.EXIT_STATUSES and "\n" not in str(e), (n, e)
        else:
            assert r.exit_code in M.EXIT_STATUSES or r.error is None, (n, r.error)


RUNTIME = [  # id, body, status, words
    ("udf", "bad: udf #0\n", 201, "undefined instruction"),
    ("thumb-bit", "    ldr r1, =0x100\nbad: bx r1\n", 201, "invalid state"),
    ("svc", "bad: svc #1\n", 201, "SVC"),
    ("fetch-unmapped", "    ldr r1, =0x10000001\nbad: bx r1\n", 202, "fetch from unmapped address 0x10000000"),
    ("fetch-ppb", "    ldr r1, =0xE000E001\nbad: bx r1\n", 202, "non-executable"),
    ("read-unmapped", "    ldr r1, =0x60000000\nbad: ldr r0, [r1]\n", 125, "read from unmapped address 0x60000000"),
    ("write-unmapped", "    ldr r1, =0x60000000\nbad: str r0, [r1]\n", 125, "write to unmapped address 0x60000000"),
    ("branch-self", "bad: b bad\n", 209, "branch to itself"),
    ("nop-loop", "bad: nop\n    nop\n    b bad\n", 209, "branch to itself"),
    ("wfi", "bad: wfi\n    b bad\n", 209, "WFI"),
    ("endless", "bad: adds r0, #1\n    b bad\n", 206, "cycle budget of 200000 cycles"),
]


@pytest.mark.parametrize("body,status,words", [c[1:] for c in RUNTIME], ids=[c[0] for c in RUNTIME])
def test_runtime_errors(tmp_path, body, status, words):
    r = m4.run(build(tmp_path, "    movs r0, #0\n" + body), max_cycles=200_000)
    assert r.exit_code == status and words in r.error and "pc=0x" in r.error, (r.exit_code, r.error)
    assert "\n" not in r.error


def test_stack_overflow_into_bss(tmp_path):
    """Recursion from the top of RAM down into 3.9 MB of .bss: 204 naming the end of
    .bss; a shallow recursion runs clean."""
    body = """    ldr r0, =DEPTH
    bl rec
    b done
rec:
    push {r4, lr}
    subs r0, #1
    beq 1f
    bl rec
1:  pop {r4, pc}
done:
"""
    data = "    .bss\n    .space 0x3F0000\n"
    r = m4.run(build(tmp_path, body.replace("DEPTH", "100"), data=data))
    assert r.exit_code == 0, r.error
    r = m4.run(build(tmp_path, body.replace("DEPTH", "100000"), data=data))
    assert r.exit_code == 204 and "stack overflow" in r.error and "0x203f" in r.error, r.error


def test_command_line(good, tmp_path):
    """One line and the status through `python -m motebox_tools.sim.m4`; usage errors 208;
    --help lists the statuses and the default budget."""
    path = patched(good, tmp_path, [(46, "<H", 0)])
    status, err = cli(path)
    assert status == 207 and "e_shentsize" in one_line(err)
    status, err = cli(tmp_path)
    assert status == 207 and "not a regular file" in one_line(err)
    loop = build(tmp_path, "bad: adds r0, #1\n    b bad\n", name="loop")
    status, err = cli("--max-cycles", 5000, loop)
    assert status == 206 and "cycle budget" in one_line(err)
    status, err = cli("--max-cycles", -1, loop)
    assert status == 208
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    out = subprocess.run([sys.executable, "-m", "motebox_tools.sim.m4", "--help"], env=env,
                         capture_output=True, text=True).stdout
    assert all(str(k) in out for k in M.EXIT_STATUSES) and str(M.DEFAULT_MAX_CYCLES) in out
