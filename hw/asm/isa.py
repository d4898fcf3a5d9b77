# SPDX-License-Identifier: MIT
"""motebox ASIP instruction set: opcodes and field layout (one table, used by the
assembler, the reference model and the ROM generator).

Instruction word: 16 bits, op = [15:11].  Operand src6 = [5:0]:
  src6[5] = 1 -> constant-ROM word src6[4:0]
  src6[5] = 0 -> RAM: page slot src6[4:3], word src6[2:0]
"""
OPS = {
    # name: (code, format)
    "NOP": (0, "none"),
    "HALT": (1, "none"),
    "LD": (2, "src"),     # acc = src
    "ADD": (3, "src"),    # acc = acc + src
    "SUB": (4, "src"),    # acc = acc - src
    "AND": (5, "src"),    # acc = acc[31:0] & src
    "OR": (6, "src"),
    "XOR": (7, "src"),
    "ST": (8, "dst"),     # mem = acc[31:0]
    "STS": (9, "dst"),    # mem = acc[31:0]; acc >>>= 32
    "MAC": (10, "mac"),   # acc = acc + src * crom[k]
    "ROL": (11, "rol"),   # acc = rotl32(acc[31:0], {7,9,13,18}[r])
    "SHR": (12, "none"),  # acc >>>= 32
    "CLR": (13, "none"),  # acc = 0
    "MUL": (14, "mul"),   # product scan slot1[0:la] x slot2[0:lb] -> slot0/slot3
    "MPS": (15, "imm6"),  # page = imm
    "JMP": (16, "addr"),
    "CALL": (17, "addr"),
    "RET": (18, "none"),
    "LOOP": (19, "addr"),  # if cnt: cnt -= 1, pc = addr
    "SETC": (20, "imm8"),  # cnt = imm
    "LDSW": (21, "src"),   # swap = bit cnt[4:0] of word cnt[7:5] of src's bank
    "SF": (22, "none"),    # flag = 1
    "CF": (23, "none"),    # flag = 0
    "JF": (24, "addr"),    # if flag: pc = addr
    "CSW": (25, "none"),   # swap = 0
    "MACS": (26, "mac"),   # MAC with a short constant (< 256): ceil(8/W) digit steps
}
BY_CODE = {c: n for n, (c, _) in OPS.items()}
ROL_AMOUNTS = (7, 9, 13, 18)
READS = {"LD", "ADD", "SUB", "AND", "OR", "XOR", "MAC", "MACS", "LDSW"}  # read src in stage 1
STORES = {"ST", "STS"}
PROG_BITS = 11          # program ROM address width
NBANKS = 9
SWAP_BANKS = {2: 4, 3: 5, 4: 2, 5: 3}   # X2<->X3, Z2<->Z3 when swap = 1


def fields(word):
    op = BY_CODE.get(word >> 11)
    return op, word & 0x7FF
