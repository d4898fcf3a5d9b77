# SPDX-License-Identifier: MIT
"""Assemble the lab's randomized-DH ROM (hw/leak/dh1_rand.s): hw/asm/asm.py, except that
page entries may name a tenth RAM bank, R9 (lambda), which only the lab's RAM variant
has (the shipped assembler checks banks 0..8 for the shipped 9-bank RAM).

usage: asm_rand.py SRC.s OUT.v OUT.json"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "asm"))
from asm import Assembler, write_verilog  # noqa: E402

BANKS = 10


def main(src, out_v, out_json):
    a = Assembler()
    a.load(src)
    pages = [list(p) for p in a.pages]
    if any(not 0 <= b < BANKS for p in pages for b in p):
        raise SystemExit(f"asm_rand.py: banks 0..{BANKS - 1}")
    a.pages = [[b if b < 9 else 0 for b in p] for p in pages]   # past asm's 0..8 check
    img = a.assemble()
    img["pages"] = pages
    write_verilog(img, out_v)
    with open(out_json, "w") as f:
        json.dump(img, f)


if __name__ == "__main__":
    main(*sys.argv[1:4])
