# SPDX-License-Identifier: MIT
"""Assembler for the motebox ASIP.  Source syntax (one statement a line, ';' comments):

  label:                     a program address
  .define NAME text          token substitution (applied repeatedly)
  .const NAME value[, ...]   constant-ROM words (index = order of definition)
  .page NAME b0 b1 b2 b3     page-table entry: slots 0..3 -> RAM banks
  .entry CMD label           command entry point (CMD = DH1 DH2 INIT FIRST UPDATE FINALIZE DECRYPT)
  .macro NAME a b ... / .endm  with \\a substitution;  .rept N / .endr
  .include file
  OPC operands               operands: S.W (slot.word), #CONST, page name, label, number
"""
import os
import re
import sys

from isa import OPS, PROG_BITS, ROL_AMOUNTS

COMMANDS = ("DH1", "DH2", "INIT", "FIRST", "UPDATE", "FINALIZE", "DECRYPT")


class AsmError(Exception):
    pass


def _num(s):
    return int(s, 0)


class Assembler:
    def __init__(self):
        self.defines, self.consts, self.const_names = {}, [], {}
        self.pages, self.page_names = [], {}
        self.entries, self.labels = {}, {}
        self.stmts = []          # (file, line, opcode, [operands])
        self.macros = {}

    # --- pass 0: expand text ---------------------------------------------------
    def _lines(self, path):
        with open(path) as f:
            for n, raw in enumerate(f, 1):
                yield path, n, raw.split(";")[0].strip()

    def _subst(self, text):
        for _ in range(8):
            new = re.sub(r"[A-Za-z_][A-Za-z0-9_]*",
                         lambda m: self.defines.get(m.group(0), m.group(0)), text)
            if new == text:
                return new
            text = new
        return text

    def load(self, path):
        lines = list(self._lines(path))
        self._process(lines, os.path.dirname(path))

    def _process(self, lines, base):
        i = 0
        while i < len(lines):
            fn, ln, text = lines[i]
            i += 1
            if not text:
                continue
            low = text.split()[0].lower()
            if low == ".macro":
                parts = text.split()
                body = []
                while lines[i][2].split()[:1] != [".endm"]:
                    body.append(lines[i])
                    i += 1
                i += 1
                self.macros[parts[1].upper()] = (parts[2:], body)
                continue
            if low == ".rept":
                count = _num(self._subst(text.split()[1]))
                body, depth = [], 1
                while True:
                    t = lines[i][2].split()[:1]
                    depth += t == [".rept"]
                    depth -= t == [".endr"]
                    if depth == 0:
                        break
                    body.append(lines[i])
                    i += 1
                i += 1
                for _ in range(count):
                    self._process(body, base)
                continue
            if low == ".include":
                self.load(os.path.join(base, text.split()[1]))
                continue
            self._statement(fn, ln, text)

    def _statement(self, fn, ln, text):
        where = f"{fn}:{ln}"
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*):\s*(.*)$", text)
        if m:
            if m.group(1) in self.labels:
                raise AsmError(f"{where}: duplicate label {m.group(1)}")
            self.labels[m.group(1)] = len(self.stmts)
            text = m.group(2)
            if not text:
                return
        parts = text.split(None, 1)
        op = parts[0]
        args = [a.strip() for a in parts[1].split(",")] if len(parts) > 1 else []
        if op.upper() in self.macros and len(args) == 1:
            args = args[0].split()
        if op == ".define":
            name, val = parts[1].split(None, 1)
            self.defines[name] = val.strip()
        elif op == ".const":
            name, vals = parts[1].split(None, 1)
            self.const_names[name] = len(self.consts)
            for v in vals.split(","):
                self.consts.append(_num(self._subst(v.strip())) & 0xFFFFFFFF)
        elif op == ".page":
            f = parts[1].split()
            self.page_names[f[0]] = len(self.pages)
            self.pages.append([_num(self._subst(b)) for b in f[1:5]])
        elif op == ".entry":
            c, lab = parts[1].split()
            self.entries[c.upper()] = lab
        elif op.upper() in self.macros:
            params, body = self.macros[op.upper()]
            if len(params) != len(args):
                raise AsmError(f"{where}: macro {op} wants {len(params)} args")
            exp = []
            for f2, l2, t in body:
                for p, a in zip(params, args):
                    t = re.sub(r"\\" + p + r"\b", a, t)
                exp.append((f2, l2, t))
            self._process(exp, os.path.dirname(fn))
        else:
            if op.upper() not in OPS:
                raise AsmError(f"{where}: unknown opcode {op}")
            self.stmts.append((where, op.upper(), [self._subst(a) for a in args]))

    # --- pass 1: encode ---------------------------------------------------------
    def _src(self, where, a, store=False):
        if a.startswith("#"):
            if store:
                raise AsmError(f"{where}: cannot store to ROM")
            name = a[1:]
            if name in self.const_names:
                idx = self.const_names[name]
            else:
                m = re.match(r"^([A-Za-z_]\w*)\+(\d+)$", name)
                if not m or m.group(1) not in self.const_names:
                    raise AsmError(f"{where}: unknown constant {a}")
                idx = self.const_names[m.group(1)] + int(m.group(2))
            if idx >= 32:
                raise AsmError(f"{where}: constant index {idx} >= 32")
            return 0x20 | idx
        m = re.match(r"^([0-3])\.([0-7])$", a)
        if not m:
            raise AsmError(f"{where}: bad memory operand {a!r}")
        return (int(m.group(1)) << 3) | int(m.group(2))

    def _addr(self, where, a):
        if a not in self.labels:
            raise AsmError(f"{where}: unknown label {a}")
        return self.labels[a]

    def assemble(self):
        words, src_map = [], []
        for where, op, args in self.stmts:
            code, fmt = OPS[op]
            need = {"none": 0, "src": 1, "dst": 1, "mac": 2, "rol": 1, "mul": 2,
                    "imm6": 1, "imm8": 1, "addr": 1}[fmt]
            if len(args) != need:
                raise AsmError(f"{where}: {op} takes {need} operands")
            low = 0
            if fmt in ("src", "dst"):
                low = self._src(where, args[0], fmt == "dst")
            elif fmt == "mac":
                low = self._src(where, args[0])
                k = self._src(where, args[1])
                if not k & 0x20:
                    raise AsmError(f"{where}: MAC multiplier must be a #constant")
                if op == "MACS" and self.consts[k & 0x1F] >= 256:
                    raise AsmError(f"{where}: MACS constant must be < 256")
                low |= (k & 0x1F) << 6
            elif fmt == "rol":
                low = ROL_AMOUNTS.index(_num(args[0]))
            elif fmt == "mul":
                la, lb = _num(args[0]), _num(args[1])
                if not (1 <= la <= 8 and 1 <= lb <= 8):
                    raise AsmError(f"{where}: MUL lengths 1..8")
                low = ((la - 1) << 3) | (lb - 1)
            elif fmt == "imm6":
                low = self.page_names[args[0]] if args[0] in self.page_names else _num(args[0])
                if low >= 64:
                    raise AsmError(f"{where}: page {low} >= 64")
            elif fmt == "imm8":
                low = _num(args[0])
                if not 0 <= low < 256:
                    raise AsmError(f"{where}: SETC 0..255")
            elif fmt == "addr":
                low = self._addr(where, args[0])
            words.append((code << 11) | low)
            src_map.append(where)
        if len(words) > (1 << PROG_BITS):
            raise AsmError(f"program too long: {len(words)} words")
        for p in self.pages:
            if any(not 0 <= b < 9 for b in p):
                raise AsmError(f"page {p}: banks 0..8")
        missing = [c for c in COMMANDS if c not in self.entries]
        if missing:
            raise AsmError(f"missing .entry for {missing}")
        entries = [self._addr("entry", self.entries[c]) for c in COMMANDS]
        consts = self.consts + [0] * (32 - len(self.consts))
        return {"prog": words, "consts": consts, "pages": self.pages, "entries": entries,
                "labels": dict(self.labels), "src": src_map}


def assemble_file(path):
    a = Assembler()
    a.load(path)
    return a.assemble()


def _case_rom(name, abits, dbits, values, default=0):
    out = [f"// Generated by hw/asm/asm.py from hw/programs: do not edit.",
           f"module {name}(input wire [{abits-1}:0] a, output reg [{dbits-1}:0] d);",
           "  always @(*) begin", "    case (a)"]
    for i, v in enumerate(values):
        if v != default:
            out.append(f"      {abits}'d{i}: d = {dbits}'h{v:x};")
    out += [f"      default: d = {dbits}'h{default:x};", "    endcase", "  end", "endmodule", ""]
    return "\n".join(out)


def write_verilog(img, path):
    pages = img["pages"] + [[0, 0, 0, 0]] * (64 - len(img["pages"]))
    page_words = [p[0] | (p[1] << 4) | (p[2] << 8) | (p[3] << 12) for p in pages]
    text = (_case_rom("prog_rom", PROG_BITS, 16, img["prog"])
            + _case_rom("const_rom", 5, 32, img["consts"])
            + _case_rom("page_rom", 6, 16, page_words)
            + _case_rom("entry_rom", 3, PROG_BITS, [0] + img["entries"]))
    if os.path.exists(path) and open(path).read() == text:
        return          # unchanged ROMs: keep the timestamp, no Verilator rebuild
    with open(path, "w") as f:
        f.write(text)


def main(argv):
    import json
    src, out_v, out_json = argv[1], argv[2], argv[3]
    img = assemble_file(src)
    write_verilog(img, out_v)
    with open(out_json, "w") as f:
        json.dump(img, f)
    print(f"{src}: {len(img['prog'])} instructions, {len(img['pages'])} pages, "
          f"{len(img['consts'])} constant words")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
