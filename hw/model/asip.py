# SPDX-License-Identifier: MIT
"""Instruction-level reference model of the motebox ASIP.

Runs the assembled program image (the same words as the program ROM) and counts cycles
with the pipeline rule of hw/README.md ("Timing"):
  * two stages: stage 1 decodes, does control flow and issues the RAM read of the operand;
    stage 2 executes.  An instruction advances from stage 1 when stage 2 finishes, and a
    RAM-reading instruction cannot advance in a cycle whose port is used by stage 2 (a
    store, or the last cycle of MUL): that costs one bubble.
  * stage-2 durations: MUL 2 + la*lb*n + (la+lb-1) + 1, MAC n, everything else 1,
    with n = ceil(32 / W) digit steps per 32x32 product.
  * busy cycles of a command = (cycle in which HALT leaves stage 1) + 1.
"""
import sys
import os

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "asm"))
from isa import BY_CODE, ROL_AMOUNTS, READS, SWAP_BANKS  # noqa: E402

M32 = 0xFFFFFFFF
ACC_BITS = 68
CMD = {"DH1": 1, "DH2": 2, "INIT": 3, "FIRST": 4, "UPDATE": 5, "FINALIZE": 6, "DECRYPT": 7}


class ModelError(Exception):
    pass


def wrap(v):
    v &= (1 << ACC_BITS) - 1
    return v - (1 << ACC_BITS) if v >> (ACC_BITS - 1) else v


def snake(la, lb):
    """Product order of the multiplication controller: (k, i, j) per product."""
    out = []
    for k in range(la + lb - 1):
        lo, hi = max(0, k - (lb - 1)), min(k, la - 1)
        rng = range(lo, hi + 1) if k % 2 == 0 else range(hi, lo - 1, -1)
        out += [(k, i, k - i) for i in rng]
    return out


class ASIP:
    def __init__(self, img, W):
        self.prog, self.consts, self.pages = img["prog"], img["consts"], img["pages"]
        self.entries, self.W = img["entries"], W
        self.n = -(-32 // W)
        self.ns = -(-8 // W)          # MACS digit steps
        self.ram = [[0] * 8 for _ in range(9)]
        self.acc = 0
        self.cnt = self.page = self.swap = self.flag = self.ret = 0
        self.trace = None

    # --- host interface (R0 = words 0..7, R1 = words 8..15) ---
    def write(self, bank, data):
        assert bank in (0, 1) and len(data) == 32
        self.ram[bank] = [int.from_bytes(data[4 * i:4 * i + 4], "little") for i in range(8)]

    def read(self, bank):
        assert bank in (0, 1)
        return b"".join(w.to_bytes(4, "little") for w in self.ram[bank])

    def _bank(self, slot):
        b = self.pages[self.page][slot]
        return SWAP_BANKS.get(b, b) if self.swap else b

    def _operand(self, low):
        if low & 0x20:
            return self.consts[low & 0x1F], False
        return self.ram[self._bank((low >> 3) & 3)][low & 7], True

    def _mul(self, la, lb):
        A, B = self._bank(1), self._bank(2)
        D, H = self._bank(0), self._bank(3)
        if {A, B} & {D, H} or D == H:
            raise ModelError(f"MUL aliasing: dst {D} hi {H} a {A} b {B}")
        acc, prods = 0, snake(la, lb)
        for t, (k, i, j) in enumerate(prods):
            acc += self.ram[A][i] * self.ram[B][j]
            if t + 1 == len(prods) or prods[t + 1][0] != k:
                self._mulwrite(k, acc & M32, D, H)
                acc >>= 32
        self._mulwrite(la + lb - 1, acc & M32, D, H)
        self.acc = 0
        return 2 + la * lb * self.n + (la + lb - 1) + 1

    def _mulwrite(self, w, v, D, H):
        if w < 8:
            self.ram[D][w] = v
        else:
            self.ram[H][w - 8] = v

    def run(self, cmd, max_instr=50_000_000):
        pc = self.entries[CMD[cmd] - 1]
        t = 0                  # cycle in which the current instruction leaves stage 1
        prev_port = False      # last stage-2 cycle of the previous instruction used the port
        prev_d = 0
        after_ldsw = False
        for _ in range(max_instr):
            word = self.prog[pc]
            op, low = BY_CODE[word >> 11], word & 0x7FF
            reads_ram = op in READS and not (low & 0x20)
            if after_ldsw and (reads_ram or op in ("ST", "STS", "MUL", "MAC", "MACS")):
                raise ModelError(f"pc {pc}: RAM access right after LDSW")
            after_ldsw = False
            t += prev_d + (1 if (prev_port and reads_ram) else 0)
            if self.trace is not None:
                self.trace.append((t, pc, op))
            nxt, d, port = pc + 1, 1, False
            if op == "HALT":
                return t + 1
            elif op == "NOP":
                pass
            elif op in ("LD", "ADD", "SUB", "AND", "OR", "XOR"):
                v, _ = self._operand(low)
                a = self.acc
                self.acc = {"LD": lambda: v, "ADD": lambda: wrap(a + v),
                            "SUB": lambda: wrap(a - v), "AND": lambda: (a & M32) & v,
                            "OR": lambda: (a & M32) | v, "XOR": lambda: (a & M32) ^ v}[op]()
            elif op in ("ST", "STS"):
                self.ram[self._bank((low >> 3) & 3)][low & 7] = self.acc & M32
                if op == "STS":
                    self.acc >>= 32
                port = True
            elif op in ("MAC", "MACS"):
                v, _ = self._operand(low & 0x3F)
                k = self.consts[(low >> 6) & 0x1F]
                if op == "MACS" and k >= 256:
                    raise ModelError(f"pc {pc}: MACS constant {k} >= 256")
                if self.acc < 0:
                    raise ModelError(f"pc {pc}: MAC with negative accumulator")
                self.acc += v * k
                if self.acc >> (ACC_BITS - 1):
                    raise ModelError(f"pc {pc}: MAC overflow")
                d = self.n if op == "MAC" else self.ns
            elif op == "ROL":
                r = ROL_AMOUNTS[low & 3]
                x = self.acc & M32
                self.acc = ((x << r) | (x >> (32 - r))) & M32
            elif op == "SHR":
                self.acc >>= 32
            elif op == "CLR":
                self.acc = 0
            elif op == "MUL":
                d = self._mul(((low >> 3) & 7) + 1, (low & 7) + 1)
                port = True
            elif op == "MPS":
                self.page = low & 0x3F
            elif op == "JMP":
                nxt = low
            elif op == "CALL":
                self.ret, nxt = pc + 1, low
            elif op == "RET":
                nxt = self.ret
            elif op == "LOOP":
                if self.cnt:
                    self.cnt -= 1
                    nxt = low
            elif op == "SETC":
                self.cnt = low & 0xFF
            elif op == "LDSW":
                b = self._bank((low >> 3) & 3)
                self.swap = (self.ram[b][self.cnt >> 5] >> (self.cnt & 31)) & 1
                after_ldsw = True
            elif op == "SF":
                self.flag = 1
            elif op == "CF":
                self.flag = 0
            elif op == "JF":
                if self.flag:
                    nxt = low
            elif op == "CSW":
                self.swap = 0
            else:
                raise ModelError(f"pc {pc}: bad opcode {word:#06x}")
            prev_d, prev_port, pc = d, port, nxt
        raise ModelError("instruction limit")
