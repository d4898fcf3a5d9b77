# SPDX-License-Identifier: MIT
"""ELF helpers shared by the boards and simulators: look up a symbol, the function at
an address, and copy a firmware with a constant patched (how the constant-time checks and
negative tests feed firmware different secrets without recompiling); `check_elf32`
validates an untrusted file before anything parses it (the M4 model's loader)."""
import struct
from pathlib import Path

from elftools.elf.elffile import ELFFile


def symbol(elf, name):
    """(address, size) of a symbol of elf."""
    with open(elf, "rb") as f:
        e = ELFFile(f)
        for s in e.get_section_by_name(".symtab").iter_symbols():
            if s.name == name:
                return s["st_value"], s["st_size"]
    raise KeyError(f"{name} not in {elf}")


def read_bytes(elf, addr, n):
    """n bytes of elf's loaded image at addr (from a section with file contents)."""
    with open(elf, "rb") as f:
        for sec in ELFFile(f).iter_sections():
            if (sec["sh_type"] == "SHT_PROGBITS" and sec["sh_addr"] <= addr
                    and addr + n <= sec["sh_addr"] + sec["sh_size"]):
                return sec.data()[addr - sec["sh_addr"]:addr - sec["sh_addr"] + n]
    raise ValueError(f"{addr:#x} is not in a section with file contents")


def patch_elf(src, dst, name, data, offset=0):
    """Copy src to dst with the bytes of symbol `name` (+offset) replaced by data. The
    symbol must be in a section with file contents (.rodata, or a .data image)."""
    addr, size = symbol(src, name)
    if offset + len(data) > size:
        raise ValueError(f"{len(data)} bytes at +{offset} overflow {name} ({size} bytes)")
    addr += offset
    fileoff = None
    with open(src, "rb") as f:
        e = ELFFile(f)
        for sec in e.iter_sections():
            if (sec["sh_type"] == "SHT_PROGBITS" and sec["sh_addr"] <= addr
                    and addr + len(data) <= sec["sh_addr"] + sec["sh_size"]):
                fileoff = sec["sh_offset"] + addr - sec["sh_addr"]
                break
    if fileoff is None:
        raise ValueError(f"{name} is not in a section with file contents")
    blob = bytearray(Path(src).read_bytes())
    blob[fileoff:fileoff + len(data)] = data
    Path(dst).write_bytes(bytes(blob))
    return Path(dst)


def function_at(elf, addr):
    """Name of the function symbol of elf containing addr (or the nearest one below)."""
    best = (None, -1)
    with open(elf, "rb") as f:
        for s in ELFFile(f).get_section_by_name(".symtab").iter_symbols():
            if s["st_info"]["type"] == "STT_FUNC" and best[1] < s["st_value"] <= addr:
                best = (s.name, s["st_value"])
    return best[0]


# ---- validation of untrusted files ---------------------------------------------------
EM_ARM, EM_MSP430 = 40, 105


class ElfError(ValueError):
    """A file that is not a well-formed ELF32 little-endian executable; the message is
    one line naming the offending field."""


def check_elf32(blob, machine):
    """Check every header field, table and section range of the ELF image `blob`
    (bytes) against its size before pyelftools or a loader reads it: class, data,
    version, e_type (executable), e_machine, program and section header tables, each
    PT_LOAD's file range (and p_filesz <= p_memsz), each section's contents, section
    names, symbol and string tables. Raises ElfError; returns None."""
    n = len(blob)
    if n < 52:
        raise ElfError(f"{n} bytes: too short for an ELF header")
    if blob[:4] != b"\x7fELF":
        raise ElfError("not an ELF file")
    if blob[4] != 1 or blob[5] != 1:
        raise ElfError("not a 32-bit little-endian ELF file")
    e_type, e_machine, e_version = struct.unpack_from("<HHI", blob, 16)
    if blob[6] != 1 or e_version != 1:
        raise ElfError("unknown ELF version")
    if e_type != 2:
        raise ElfError(f"not an executable (e_type {e_type})")
    if e_machine != machine:
        raise ElfError(f"wrong machine (e_machine {e_machine}, expected {machine})")
    phoff, shoff = struct.unpack_from("<II", blob, 28)
    ehsize, phent, phnum, shent, shnum, shstrndx = struct.unpack_from("<6H", blob, 40)
    if ehsize < 52:
        raise ElfError(f"e_ehsize {ehsize} < 52")

    def inside(off, size):
        return 0 <= off <= n and size <= n - off

    if phnum and phent < 32:
        raise ElfError(f"e_phentsize {phent} < 32")
    if phnum and not inside(phoff, phnum * phent):
        raise ElfError(f"program headers ({phnum} x {phent} bytes at {phoff:#x}) beyond the "
                       f"end of the file ({n} bytes)")
    if shnum == 0 and shoff:
        raise ElfError("extended section numbering is not supported")
    if shnum and shent < 40:
        raise ElfError(f"e_shentsize {shent} < 40")
    if shnum and not inside(shoff, shnum * shent):
        raise ElfError(f"section headers ({shnum} x {shent} bytes at {shoff:#x}) beyond the "
                       f"end of the file ({n} bytes)")
    for i in range(phnum):
        p_type, off, _, _, filesz, memsz = struct.unpack_from("<6I", blob, phoff + i * phent)
        if p_type == 1 and not inside(off, filesz):
            raise ElfError(f"segment {i}: file bytes {off:#x}..+{filesz:#x} beyond the end of "
                           f"the file ({n} bytes)")
        if p_type == 1 and filesz > memsz:
            raise ElfError(f"segment {i}: p_filesz {filesz:#x} > p_memsz {memsz:#x}")
    secs = [struct.unpack_from("<10I", blob, shoff + i * shent) for i in range(shnum)]
    for i, (_, sh_type, _, _, off, size, link, _, _, entsize) in enumerate(secs):
        if i == 0 or sh_type in (0, 8):        # SHT_NULL, SHT_NOBITS: no file contents
            continue
        if not inside(off, size):
            raise ElfError(f"section {i}: contents {off:#x}..+{size:#x} beyond the end of the "
                           f"file ({n} bytes)")
        if sh_type in (2, 11) and (entsize < 16 or link >= shnum or secs[link][1] != 3):
            raise ElfError(f"section {i}: malformed symbol table header")
        if sh_type == 3 and size and blob[off + size - 1] != 0:
            raise ElfError(f"section {i}: string table not NUL-terminated")
    if shnum:
        if shstrndx >= shnum or secs[shstrndx][1] != 3:
            raise ElfError(f"e_shstrndx {shstrndx} is not a string table")
        strsize = secs[shstrndx][5]
        for i, sec in enumerate(secs):
            if sec[0] >= max(strsize, 1):
                raise ElfError(f"section {i}: name offset {sec[0]:#x} outside the section names")
