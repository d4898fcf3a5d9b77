# SPDX-License-Identifier: MIT
"""The MSP430 simulator as a robust program (issue #13): malformed, truncated and
misplaced ELF images, jumps to nowhere, illegal opcodes, stack overflow into data and
endless loops each end with ONE line naming the problem (and the PC/cycle for run-time
errors) and their own exit status (msp430sim --help, docs/MSP430_TIMING.md); never a
crash. Run on the ASan/UBSan build (make msp430sim-asan), where any out-of-bounds read
or undefined behaviour aborts with a report that the checks below would see."""
import random
import re
import struct
import subprocess

import pytest

from sim430_asm import SIM_EXIT, build, have_toolchain, sim

pytestmark = pytest.mark.skipif(not have_toolchain(), reason="needs clang and ld.lld")

SAN_MARKS = ("AddressSanitizer", "runtime error", "LeakSanitizer", "Segmentation", "Aborted")


def asan():
    path = sim.asan_sim_path()
    if not path.exists():
        pytest.fail(f"{path} missing: run `make msp430sim-asan` first")
    return path


def simrun(*args, timeout=120):
    p = subprocess.run([str(asan()), *map(str, args)], capture_output=True, timeout=timeout,
                       stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout.decode("latin-1"), p.stderr.decode(errors="replace")


def one_error(status, err, want_status, *words):
    """Exactly one `msp430sim:` line, naming all `words`; no sanitizer report."""
    assert not any(m in err for m in SAN_MARKS), err[-3000:]
    lines = [l for l in err.splitlines() if l.startswith("msp430sim:")]
    assert status == want_status and len(lines) == 1, (status, err[-2000:])
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    """A valid image: prints "ok" and exits 0."""
    d = tmp_path_factory.mktemp("good")
    return build("  mov #0x2300, sp\n  mov.b #'o', &0x0ff0\n  mov.b #'k', &0x0ff0\n"
                 f"  mov #0, &{SIM_EXIT}\n", d, "good").read_bytes()


def test_good_image_runs(good, tmp_path):
    (tmp_path / "g.elf").write_bytes(good)
    status, out, err = simrun("--max-cycles", 0, tmp_path / "g.elf")
    assert (status, out) == (0, "ok"), err


def ehdr(blob):
    """(phoff, shoff, phentsize, phnum, shentsize, shnum) of an ELF32 header."""
    phoff, shoff = struct.unpack_from("<II", blob, 28)
    phent, phnum, shent, shnum = struct.unpack_from("<HHHH", blob, 42)
    return phoff, shoff, phent, phnum, shent, shnum


def patched(good, tmp_path, edits, name="bad.elf"):
    blob = bytearray(good)
    for off, fmt, val in edits:
        struct.pack_into(fmt, blob, off, val)
    path = tmp_path / name
    path.write_bytes(bytes(blob))
    return path


def first_section(good, sh_type):
    phoff, shoff, _, _, shent, shnum = ehdr(good)
    for i in range(shnum):
        if struct.unpack_from("<I", good, shoff + i * shent + 4)[0] == sh_type:
            return shoff + i * shent
    raise AssertionError(f"no section of type {sh_type}")


def first_load(good):
    phoff, _, phent, phnum, _, _ = ehdr(good)
    for i in range(phnum):
        if struct.unpack_from("<I", good, phoff + i * phent)[0] == 1:
            return phoff + i * phent
    raise AssertionError("no PT_LOAD")


# Each: (id, edits as (offset or callable(good) -> offset, struct format, value), words)
HEADER_CASES = [
    ("shentsize-0", [(46, "<H", 0)], ["e_shentsize 0"]),               # was: ASan overflow
    ("phentsize-4", [(42, "<H", 4)], ["e_phentsize 4"]),               # was: ASan overflow
    ("elf64", [(4, "B", 2)], ["32-bit little-endian"]),
    ("big-endian", [(5, "B", 2)], ["32-bit little-endian"]),
    ("version", [(6, "B", 0)], ["ELF version"]),
    ("not-exec", [(16, "<H", 1)], ["not an executable"]),
    ("arm", [(18, "<H", 40)], ["not an MSP430", "40"]),
    ("ehsize", [(40, "<H", 20)], ["e_ehsize"]),
    ("phoff", [(28, "<I", 0xFFFFFFF0)], ["program headers", "beyond the end"]),
    ("shoff", [(32, "<I", 0x7FFFFFFF)], ["section headers", "beyond the end"]),
    ("shnum", [(48, "<H", 0xFFFF)], ["section headers", "beyond the end"]),
    ("shnum-0", [(48, "<H", 0)], ["extended section numbering"]),
    ("seg-offset", [(lambda g: first_load(g) + 4, "<I", 0xFFFFFF00)], ["segment", "beyond the end"]),
    ("seg-filesz", [(lambda g: first_load(g) + 16, "<I", 0x7FFFFFFF)], ["segment", "beyond the end"]),
    ("seg-memsz", [(lambda g: first_load(g) + 20, "<I", 0)], ["p_filesz"]),
    ("sec-offset", [(lambda g: first_section(g, 1) + 16, "<I", 0xFFFFFFF0)], ["section", "beyond the end"]),
    ("sec-size", [(lambda g: first_section(g, 1) + 20, "<I", 0x10000000)], ["section", "beyond the end"]),
    ("symtab-link", [(lambda g: first_section(g, 2) + 24, "<I", 999)], ["symbol table"]),
    ("symtab-entsize", [(lambda g: first_section(g, 2) + 36, "<I", 1)], ["symbol table"]),
    ("strtab-unterminated", [(lambda g: first_section(g, 3) + 16, "<I", 1),   # "E"
                             (lambda g: first_section(g, 3) + 20, "<I", 1)], ["NUL"]),
]


@pytest.mark.parametrize("edits,words", [c[1:] for c in HEADER_CASES], ids=[c[0] for c in HEADER_CASES])
def test_malformed_header(good, tmp_path, edits, words):
    edits = [(off(good) if callable(off) else off, fmt, val) for off, fmt, val in edits]
    path = patched(good, tmp_path, edits)
    status, out, err = simrun(path)
    line = one_error(status, err, 207, str(path), *words)
    assert out == "", line


def test_section_outside_the_map(good, tmp_path):
    """A loaded section whose address lies in vacant memory: 210, naming the section."""
    off = first_section(good, 1)                  # .text (SHT_PROGBITS, allocated)
    path = patched(good, tmp_path, [(off + 12, "<I", 0x3000)])
    phoff = first_load(good)                      # and its segment, which gives the LMA
    path = patched(path.read_bytes(), tmp_path, [(phoff + 12, "<I", 0x3000), (phoff + 8, "<I", 0x3000)])
    status, _, err = simrun(path)
    one_error(status, err, 210, "outside RAM/FRAM", "0x03000")


@pytest.mark.parametrize("cut", [0, 10, 51, 52, 100, -1])
def test_truncated(good, tmp_path, cut):
    path = tmp_path / "cut.elf"
    path.write_bytes(good[:cut] if cut >= 0 else good[:len(good) // 2])
    status, _, err = simrun(path)
    one_error(status, err, 207, str(path))


def test_not_a_file(tmp_path):
    status, _, err = simrun(tmp_path)                          # was: malloc(LONG_MAX)
    one_error(status, err, 207, "is a directory")
    status, _, err = simrun(tmp_path / "missing.elf")
    one_error(status, err, 207, "cannot open")
    status, _, err = simrun("/dev/null")
    one_error(status, err, 207, "not a regular file")
    (tmp_path / "text.elf").write_text("#!/bin/sh\necho this is not an ELF file at all\n" * 3)
    status, _, err = simrun(tmp_path / "text.elf")
    one_error(status, err, 207, "not an ELF file")


def test_profile_reads_symbols_safely(good, tmp_path):
    path = patched(good, tmp_path, [(first_section(good, 2) + 36, "<I", 0)])
    status, _, err = simrun("--profile", tmp_path / "p.txt", path)
    one_error(status, err, 207, "symbol table")


def test_usage_errors(good, tmp_path):
    (tmp_path / "g.elf").write_bytes(good)
    for args in (["--max-cycles", "-1"], ["--max-cycles", "12x"], ["--max-cycles", ""], ["--nope"]):
        status, _, err = simrun(*args, tmp_path / "g.elf")
        assert status == 208 and "usage" in err, (args, err)
    p = subprocess.run([str(asan()), "--help"], capture_output=True, text=True)
    assert p.returncode == 0
    for st in range(201, 211):
        assert re.search(rf"\b{st}\b", p.stdout), st
    assert f"default {sim.DEFAULT_MAX_CYCLES}" in p.stdout


def test_random_corruption(good, tmp_path):
    """Seeded byte flips anywhere in the header region and tables: any outcome but a
    crash, a sanitizer report or a silent multi-line failure."""
    rng = random.Random(13)
    phoff, shoff, _, _, shent, shnum = ehdr(good)
    spots = list(range(52)) + list(range(phoff, phoff + 96)) + list(range(shoff, shoff + shent * shnum))
    path = tmp_path / "m.elf"
    for n in range(150):
        blob = bytearray(good)
        for _ in range(rng.randrange(1, 4)):
            blob[rng.choice(spots)] = rng.randrange(256)
        path.write_bytes(bytes(blob))
        status, _, err = simrun("--max-cycles", 200000, "--profile", tmp_path / "p.txt", path)
        assert not any(m in err for m in SAN_MARKS), (n, err[-3000:])
        errs = [l for l in err.splitlines() if l.startswith("msp430sim:")]
        if status in range(201, 211):
            assert len(errs) == 1, (n, status, err)
        else:
            assert status < 200 and not errs, (n, status, err)


# ---- run-time errors: each program names the PC in one line ---------------------------------

def prog(tmp_path, body, extra_ld="", data=""):
    asm = "  mov #0x2400, sp\n" + body + f"\n  mov #0, &{SIM_EXIT}\n" + data
    return build(asm, tmp_path, "p")


def nm(elf, name):
    out = subprocess.run(["llvm-nm", str(elf)], capture_output=True, text=True, check=True).stdout
    return int(re.search(rf"^([0-9a-f]+) \w {name}$", out, re.M).group(1), 16)


@pytest.mark.parametrize("body,status,words", [
    ("bad: br #0x3000", 202, ["fetch from 0x03000"]),          # vacant memory
    ("bad: br #0x1000", 202, ["fetch from 0x01000"]),          # bootloader ROM: not executable here
    ("bad: br #0x0200", 202, ["fetch from 0x00200"]),          # peripherals
    ("bad: .word 0x0f85, 0x0000, 0x05c0", 202, ["fetch from 0xf0000"]),   # MOVA #0xf0000, R5; BRA R5
    ("bad: .word 0x1800, 0x1800", 201, ["illegal instruction 0x1800"]),
    ("bad: .word 0x1840, 0x1280", 201, ["illegal instruction"]),   # extension word before CALL
    ("bad: mov &0x3000, r5", 202, ["read from unmapped address 0x03000"]),
    ("bad: jmp bad", 209, ["jump to itself"]),
    ("bad: nop\n  jmp bad", 206, ["cycle budget of 5000 cycles", "--max-cycles"]),
])
def test_runtime_errors(tmp_path, body, status, words):
    elf = prog(tmp_path, body)
    st, _, err = simrun("--max-cycles", 5000, elf)
    line = one_error(st, err, status, *words)
    m = re.search(r"error at PC 0x([0-9a-f]{5}): .* \(after (\d+) cycles\)$", line)
    assert m, line
    if status not in (202, 206) or "read" in line:
        assert int(m.group(1), 16) >= nm(elf, "bad"), line


STACK_LD = """
MEMORY {
  ram (wx)  : ORIGIN = 0x1c00, LENGTH = 0x0800
  rom (rx)  : ORIGIN = 0x4400, LENGTH = 0xbb7e
  reset     : ORIGIN = 0xfffe, LENGTH = 2
}
SECTIONS {
  .text : { *(.text.start) *(.text .text.*) } > rom
  .bss (NOLOAD) : { *(.bss .bss.*) } > ram
  .reset : { SHORT(_start) } > reset
}
"""


def stack_prog(tmp_path, recursion, symbol):
    """Recursion into the data: 1 KiB of .bss at the bottom of RAM, SP from the top."""
    src = tmp_path / "s.s"
    src.write_text(f"""  .section .text.start,"ax",@progbits
  .globl _start
_start:
  mov #0x2400, sp
  mov #{recursion}, r12
  call #rec
  mov #0, &{SIM_EXIT}
rec:
  push r12
  dec r12
  jz 1f
  call #rec
1:
  pop r12
  ret
  .section .bss,"aw",@nobits
buf: .space 1024
{"  .globl __stack_low" if symbol else ""}
{"  .set __stack_low, 0x2000" if symbol else ""}
""")
    (tmp_path / "s.ld").write_text(STACK_LD)
    obj, elf = tmp_path / "s.o", tmp_path / "s.elf"
    subprocess.run(["clang", "--target=msp430", "-c", str(src), "-o", str(obj)], check=True)
    subprocess.run(["ld.lld", "-m", "msp430elf", "-T", str(tmp_path / "s.ld"), str(obj), "-o", str(elf)],
                   check=True)
    return elf


@pytest.mark.parametrize("symbol", [False, True], ids=["bss-end", "__stack_low"])
def test_stack_overflow_into_data(tmp_path, symbol):
    """SP below the end of .bss (or the __stack_low symbol) once it was above: 204."""
    floor = 0x2000 if symbol else 0x1c00 + 1024
    st, _, err = simrun(stack_prog(tmp_path, 100, symbol))   # 4 bytes a level: fits
    assert st == 0, err
    st, _, err = simrun(stack_prog(tmp_path, 400, symbol))
    one_error(st, err, 204, "stack overflow", f"0x{floor:04x}")


@pytest.mark.parametrize("store", ["mov #0x431c, &code", "mov.b #0x1c, &code"])
def test_protect_code(tmp_path, store):
    """--protect-code: a word or byte write into the executable section stops the run
    with 213, naming the address; a write into data does not; without the option the
    same write runs on and changes the code (`mov #0, r12` becomes `mov #1, r12`)."""
    elf = prog(tmp_path, f"  mov #1, &data\n  {store}\ncode:\n  mov #0, r12\n"
                         f"  mov r12, &{SIM_EXIT}", data='  .section .data,"aw"\ndata: .word 0')
    st, _, err = simrun("--protect-code", elf)
    one_error(st, err, 213, f"write to 0x{nm(elf, 'code'):05x}", "code", "--protect-code")
    st, _, err = simrun(elf)
    assert st == 1, err


def test_python_runner_reports_status(good, tmp_path):
    """motebox_tools.sim.msp430.run: the status and the one-line error."""
    path = patched(good, tmp_path, [(46, "<H", 0)])
    r = sim.run(path, sim=asan())
    assert r.status == 207 and sim.ERRORS[207].startswith("ELF") and "e_shentsize" in r.error
