# SPDX-License-Identifier: MIT
"""ELF helpers shared by the boards and simulators: look up a symbol, the function at
an address, and copy a firmware with a constant patched (how the constant-time checks and
negative tests feed firmware different secrets without recompiling)."""
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
