# SPDX-License-Identifier: MIT
"""Generates the GF(2^255-19) kernels of arch/msp430x/ (radix 2^16, 16 words):
    fe25519_mul_mpy32.S  mb_fe25519_mul, mb_fe25519_sqr, mb_fe25519_mul121666 (MPY32)
    fe25519_mul_mpy16.S  the same for the 16-bit multiplier (no MPY32-only register)
    fe25519_addsub.S     mb_fe25519_add, mb_fe25519_sub, mb_fe25519_cswap, the ladder's
                         mb_fe25519_cmov (no multiplier)
The .S files are this script's output (a test checks they match): edit here, then
    python3 arch/msp430x/gen_fe25519.py

Contract (src/field/fe25519.h, r16): every input is any 256-bit value; outputs are
< 2^256 and congruent mod p = 2^255-19 (the reductions fold bit 255 as 19); h may alias
f or g (h is written after the last read of f and g).

Method:
  * MPY32 product: product scanning over 32-bit digits (8 x 8 products of 32x32 bits).
    Column k accumulates in the multiplier (first product MPY, the others MAC; each MAC's
    carry-out SUMEXT is added to a CPU register), then is added into a CPU window
    (a0..a4) holding the carry of the columns before; two words leave per column. The
    multiplier works while the CPU loads the next OP1 digit (the guide's 11-cycle 32x32
    latency is filled with those loads). f is copied digit-reversed onto the stack
    (PUSHM) so that both operands stream with @Rn+ (OP1 over the copy, OP2 over g).
  * MPY16 product: one-level Karatsuba over 8-word halves (karatsuba16): three 8x8
    products scanned by columns with one operand's 8 words in registers (9 cycles a
    MAC), all three by one subroutine (mul8x8: its code once, not three times);
    the middle sum feeds the reduction directly (words 16..23 never stored);
    the square: the scheme of the MPY32 square with 16-bit digits, f_0..f_3 in
    registers. A MAC's carry
    SUMEXT is read after the next product's OP1 write, through a register holding
    &SUMEXT (2 cycles; right after the OP2 write it would need the 3-cycle &SUMEXT).
  * Reduction: the 512-bit t = tl + 2^256 th becomes tl + 38 th with the multiplier
    (OP1 = 38). The top digit goes first: its bits from 255 up, q, are cleared and 19 q
    enters the bottom digit, so the carry chain ends inside the top digit and h < 2^256
    without a second pass.
Multiplier discipline (docs/MSP430_TIMING.md): a result is read only when the user's
guide says it is ready, and no multiplier register is written before the previous
operation's whole result is ready (RES3/SUMEXT with MPY32, RESHI with the 16-bit one):
the cycle model below enforces both by inserting NOPs, which it counts (the simulator
checks the reads). An OP1 write starts nothing (only OP2 does), so a result may still
be read after the next operation's OP1 write. Result registers are also read
register-indirect (`@r11+` from r11 = &RES0, `@r8` = SUMEXT: 2 cycles instead of 3);
`Em.ins(..., rd=...)` names the register such a read takes, so the model checks it like
an absolute one. MPY32CTL0 is
never written (no delayed write: the schedules have no write waiting on a result).
Constant time: straight-line code; no branch, no secret-dependent address, operand width
or instruction; every value may be secret.
"""
import functools
import sys
from pathlib import Path

from gen_common import (CG, OP2_LAT16, OP2_LAT32, OP2H_LAT32, OP2H_NAMES, chain,
                        fmt1_cycles, header, ins_text, mreg, opclass, popm_word, pushm_word)
import gen_common

HERE = Path(__file__).resolve().parent


class Em:
    """Straight-line emitter with the cycle model of docs/MSP430_TIMING.md (Format I)
    and the multiplier's result availability (guide table "Result Availability")."""

    def __init__(self, mpy):
        self.mpy = mpy
        self.lines = []
        self.t = 0
        self.ready = {}
        self.done = 0
        self.op2l = None
        self.op1_32 = False
        self.nops = 0
        self.subs = []              # subroutines called (emitted after the kernel)

    def raw(self, s, cycles=0):
        self.lines.append(s)
        self.t += cycles

    def ins(self, op, a, b, comment=None, rd=None):
        """rd: the multiplier register a register-indirect source reads (@r11+)."""
        sc, se = opclass(a)
        dc, de = opclass(b)
        mem = dc == "X"
        c = fmt1_cycles(op, sc, mem)
        ws = 1 + se
        rd, wr = rd or mreg(a), (mreg(b) if op not in ("cmp", "bit") else None)
        assert mreg(b) is None or op == "mov", "no read-modify-write of the multiplier"
        if rd is not None:
            need = self.ready.get(rd)
            assert need is not None, f"{rd} read with no operation"
            while self.t + ws + 1 < need:
                self.nop()
        if wr is not None:
            while self.t + c < self.done:
                self.nop()
        text = ins_text(op, a, b)
        if sc == "P" and mem:
            text = encode_pmem(op, a, b)
        if comment:
            text = f"{text:44s}/* {comment} */"
        self.lines.append(text)
        self.t += c
        if wr is not None:
            self._write(wr, self.t)

    def call_sub(self, label):
        """CALL #label (4 cycles, Table 4-9) of a subroutine of SUBS: its model cycles
        (ret included) and NOPs count at each call. It ends with its result read, so
        the multiplier is idle after it; the caller must write before it reads."""
        sub = SUBS[label]()
        self.lines.append(f"        call    #{label}")
        self.t += 4 + sub.t
        self.nops += sub.nops
        self.ready, self.done = {}, 0
        if label not in self.subs:
            self.subs.append(label)

    def nop(self):
        self.lines.append("        nop")
        self.t += 1
        self.nops += 1

    def _write(self, reg, tw):
        if reg in ("MPY", "MAC"):
            self.op1_32 = False
        elif reg in ("MPY32L", "MAC32L"):
            self.op1_32 = False
        elif reg in ("MPY32H", "MAC32H"):
            self.op1_32 = True
        elif reg == "OP2":
            assert not self.op1_32
            lat = OP2_LAT32 if self.mpy == 32 else OP2_LAT16
            self.ready = {k: tw + v for k, v in lat.items()}
            self.done = max(self.ready.values())
        elif reg == "OP2L":
            assert self.mpy == 32
            self.op2l = tw
            self.ready = {}         # nothing readable until OP2H completes the operand
        elif reg == "OP2H":
            tl = self.op2l
            if self.op1_32:       # 32 x 32
                lat_l, lat_h = OP2H_LAT32
            else:                 # 16 x 32
                lat_l, lat_h = (3, 5, 6, 7, 7), (0, 3, 4, 4, 4)
            self.ready = {n: max(tl + lat_l[i], tw + lat_h[i]) for i, n in enumerate(OP2H_NAMES)}
            self.done = max(self.ready.values())
        elif reg.startswith("RES"):
            raise AssertionError("result registers are not written")


OPC = {"mov": 4, "add": 5, "addc": 6, "subc": 7, "sub": 8, "cmp": 9, "bit": 11, "bic": 12,
       "bis": 13, "xor": 14, "and": 15}


def encode_pmem(op, a, b):
    """Format I with source @Rn+ and a memory destination, which LLVM's assembler
    rejects: As = 3, Ad = 1 (x(Rm), or &abs as x(r2)), then the destination word."""
    rs = int(a.strip()[2:-1])
    b = b.strip()
    if b.startswith("&"):
        rd, word = 2, b[1:]
    else:
        word, rd = b[:-1].split("(")
        rd = int(rd[1:])
    w = (OPC[op] << 12) | (rs << 8) | 0x80 | 0x30 | rd
    return f"        .word   0x{w:04x}, {word:14s}/* {op} {a}, {b} */"


def pushm(n, rd):
    """PUSHM.W #n, Rd (SLAU367 4.6.2.x; LLVM's assembler lacks it): 2 + n cycles."""
    return f"        .word   0x{pushm_word(n, rd):04x}              /* pushm.w #{n}, r{rd} */"


def popm(n, rd):
    """POPM.W #n, Rd+n-1 (restores r(rd)..r(rd+n-1)): 2 + n cycles."""
    return f"        .word   0x{popm_word(n, rd):04x}              /* popm.w #{n}, r{rd + n - 1} */"


def push_idx(off, r):
    """PUSH off(Rn) (LLVM's assembler rejects it): 4 cycles."""
    return f"        .word   0x{0x1210 | r:04x}, {off}             /* push {off}(r{r}) */"


# ---------------------------------------------------------------------------------
# Products. Registers: r13 = f, after the copy of g: rA = r14 (f walker), rB = r15 (g
# walker), window a0..a4, x0/x1 = OP1 digit (next), r11 = scratch. (The MPY32 product
# copies f instead: rA walks the copy, r13 = g, rB walks g.)
def product(e, mpy, square):
    """Emit the body of h = f*g (r12 = h, r13 = f, r14 = g) or h = f^2 after the
    prologue; the 512-bit product is left in t (stack) except the top, then reduced.
    Square: f^2 = sum_i f_i W^i (f_i W^i + sum_(j>i) E_j W^j - b_i W^(i+1)) with E = 2f
    (n+1 digits) and b_i the top bit of f_i: every product accumulates, none is doubled.
    Column k takes f_i f_i (k = 2i), f_i E'_(i+1) (k = 2i+1; E' = 2 f_j mod W, E without
    the carry-in b_i) and f_i E_j (j >= i+2); E_n = b_(n-1) adds f_i under a mask to
    column i+n (i <= n-2: for i = n-1 the term is E'_n = 0) in the ALU."""
    W = 32 if mpy == 32 else 16
    n = 256 // W                 # digits
    dw = W // 16                 # words per digit
    db = 2 * dw                  # bytes per digit
    a = ["r4", "r5", "r6", "r7", "r8"][: (5 if W == 32 else 3)]
    x = ["r9", "r10"][:dw]
    rA, rB = "r14", "r15"
    direct = W == 16             # OP1 straight from @rA+ (no load latency to hide)
    # Stack after the prologue: t (2n digits minus the two top ones, kept in registers)
    # at 0(sp); above it f reversed (MPY32) or g reversed (16-bit schoolbook; n digits),
    # or for a square E reversed (digits 1..n-1); then h.
    tbytes = (2 * n - 2) * db
    # square: E'_j is formed from E_j when used (its one product f_(j-1) E'_j, the last
    # of its column, where the walk of E stops at E_j: no cycle more than a stored E'),
    # not stored in the build (7 cycles a digit and 28 bytes of stack with MPY32).
    #
    # MPY32 product: f is copied instead, 8 words at a time loaded into r11..r4 and
    # pushed by one PUSHM (3.25 cycles a word; a digit-reversed g needs PUSH x(r14), 4,
    # to keep each digit's low word below its high word, which OP2L-before-OP2H needs):
    # the copy holds f_7 .. f_0 upward, each digit's high word below its low word, which
    # only changes the order of the OP1 loads. Then OP1 walks the copy (i descending)
    # and OP2 walks g in place (j ascending), r13 = g. (PUSH @r13+, 3 cycles, would be
    # cheaper, but LLVM 14's llvm-objdump crashes on PUSH @Rn and @Rn+.)
    rev_f = W == 32 and not square
    rev = tbytes                # the reversed copy: f, g or E (digits 1..n-1 of a square)
    hoff = rev + (n - 1 if square else n) * db
    if rev_f:
        for _ in range(2):
            for r in range(11, 3, -1):
                e.ins("mov", "@r13+", f"r{r}")
            e.raw(pushm(8, 11), 10)
        e.ins("sub", f"#{tbytes}", "r1")
        e.ins("mov", "r14", "r13")
    elif not square:
        # copy g digit-reversed: digit 0 first (ends highest), each digit's high word first
        for d in range(n):
            for w in reversed(range(dw)):
                e.raw(push_idx(d * db + 2 * w, 14), 4)
        e.ins("sub", f"#{tbytes}", "r1")
    else:
        e.ins("sub", f"#{hoff}", "r1")
        # E = 2f by one rotate-through-carry chain over the digits (C carries b_(j-1)
        # into E_j). r14 walks f.
        y = ["r9", "r10"][:dw]
        e.ins("mov", "r13", "r14")
        for j in range(n):
            for w in range(dw):
                e.ins("mov", "@r14+", y[w])
            for w in range(dw):
                e.ins("add" if j == 0 and w == 0 else "addc", y[w], y[w])   # C = b_j
            if j > 0:
                for w in range(dw):
                    e.ins("mov", y[w], f"{rev + (n - 1 - j) * db + 2 * w}(r1)")
        e.ins("mov", "#0", "r12")
        e.ins("addc", "#-1", "r12")       # r12 = b_(n-1) - 1 = ~mask of E_n (h is on the stack)

    def rev_addr(j):            # stack offset of digit j in the digit-reversed copy
        return rev + (n - 1 - j) * db   # (of f: MPY32 product; g: 16-bit; E: a square)

    def plan(k):                # column k: [(i, OP2 source)]
        i0 = max(0, k - (n - 1))
        if not square:
            return [(i, "walk") for i in range(i0, min(k, n - 1) + 1)][::-1 if rev_f else 1]
        out = []
        for i in range(i0, k // 2 + 1):
            j = k - i
            out.append((i, "walk" if j >= i + 2 else ("epr" if j == i + 1 else "self")))
        return out

    pos = {rA: None, rB: None}  # walker offsets from r13 / r1 (None: unknown)
    if square:
        pos[rA] = n * db        # the E build walked r14 = rA over f

    def point(r, base, want):   # r = base + want, by the cheaper of a reset or a step
        def cc(v):              # (base None: no reset, r13 holds a digit of f)
            return 0 if v == 0 else (1 if v in CG or -v in CG else 2)
        if pos[r] is not None and (base is None or cc(want - pos[r]) <= 1 + cc(want)):
            d = want - pos[r]
            if d:
                e.ins("add" if d > 0 else "sub", f"#{abs(d)}", r)
        else:
            e.ins("mov", base, r)
            if want:
                e.ins("add", f"#{want}", r)
        pos[r] = want

    def setup(k):               # walkers and OP1 digit for column k's first product
        pl = plan(k)
        i0 = pl[0][0]
        iw = [i for i, _ in pl if i not in cache]    # the OP1 digits rA walks
        if rev_f:               # OP1 from the copy of f, OP2 from g in place (r13)
            point(rA, "r1", rev_addr(iw[0]))
            point(rB, "r13", db * (k - i0))
        else:
            if iw:
                point(rA, f_base, db * iw[0])
            if pl[0][1] == "walk":
                point(rB, "r1", rev_addr(k - i0))
        if not direct:
            load_op1()

    def load_op1():             # the next OP1 digit into x (the copy of f: high word first)
        for w in (reversed(range(dw)) if rev_f else range(dw)):
            e.ins("mov", f"@{rA}+", x[w])
        pos[rA] += db

    mpyr = ("MPY32L", "MPY32H") if W == 32 else ("MPY",)
    macr = ("MAC32L", "MAC32H") if W == 32 else ("MAC",)
    op2r = ("OP2L", "OP2H") if W == 32 else ("OP2",)
    resr = ("RES0", "RES1", "RES2", "RES3") if W == 32 else ("RESLO", "RESHI")
    for r in a:                 # (column 0 has one product: a[-1] must be 0 too)
        e.ins("mov", "#0", r)
    # 16-bit digits: r8 = &SUMEXT; the column ends step it back to RESLO and read RESLO,
    # RESHI, then the last product's carry through it (2 cycles each). f_0..f_2 wait in
    # the registers this leaves free (OP1 from a register, 3 cycles instead of 4; the
    # square's E' is formed in r11), and in a square f_3 in r13 (f's other words are
    # then reached through rA, whose position pos[rA] is known): 58 products, the f_i^2
    # of those (OP2) and the masked E_16 f_i additions.
    rp = "r11" if W == 32 else "r8"
    cache = {}
    if W == 16:
        cache = {0: "r7", 1: "r9", 2: "r10"}
        if square:              # r13 too: the square reaches f through rA (pos known)
            cache[3] = "r13"
        e.ins("mov", "#SUMEXT", "r8")
        for i, r in cache.items():
            e.ins("mov", f"{i * db}(r13)", r)

    f_base = None if "r13" in cache.values() else "r13"   # None: f only through rA

    def f_word(i, w):           # word w of f_i in memory: through r13, or rA if r13 is taken
        if f_base is None:
            return f"{i * db + 2 * w - pos[rA]}({rA})"
        return f"{i * db + 2 * w}(r13)"

    setup(0)
    r11_res = False

    def carry_count(p):         # a[-1] (+)= the SUMEXT of the column's product p (p >= 1)
        # 16-bit: r8 = &SUMEXT, 2 cycles instead of 3, where the result is ready by
        # then (otherwise the 3-cycle form costs the same as a NOP, less code)
        if W == 16 and e.t + 2 >= e.ready["SUMEXT"]:
            e.ins("mov" if p == 1 else "add", "@r8", a[-1], rd="SUMEXT")
        else:
            e.ins("mov" if p == 1 else "add", "&SUMEXT", a[-1])

    for k in range(2 * n - 1):
        pl = plan(k)
        deferred = None
        for p, (i, src) in enumerate(pl):
            op1 = cache.get(i, f"@{rA}+" if direct else None)
            for w in range(dw):
                e.ins("mov", op1 or x[w], "&" + (mpyr if p == 0 else macr)[w])
            if deferred is not None:
                # the previous product's SUMEXT, read after this product's OP1 write:
                # only the OP2 write starts an operation (SLAU367 "Operand Registers"),
                # so the result stays; by now it is ready for the 2-cycle @r8 read
                carry_count(deferred)
                deferred = None
            if direct and i not in cache:
                pos[rA] += db
            if src == "walk":
                pos[rB] += db
            for w in range(dw):
                if src == "walk":
                    s2 = f"@{rB}+"
                elif src == "epr":
                    # E'_j = E_j with bit 0 cleared, its low word in a free register
                    # (16-bit: r11; MPY32: x[0], written to OP1 already); E_j read
                    # through rB where its walk stopped there (the column's last product)
                    if w == 0:
                        ep_walk = pos[rB] == rev_addr(k - i)
                        if ep_walk:
                            pos[rB] += db
                    ep = f"@{rB}+" if ep_walk else f"{rev_addr(k - i) + 2 * w}(r1)"
                    if w == 0:
                        s2 = "r11" if W == 16 else x[0]
                        e.ins("mov", ep, s2)
                        e.ins("bic", "#1", s2)
                    else:
                        s2 = ep
                elif i in cache:
                    s2 = cache[i]
                else:
                    s2 = f_word(i, w) if direct else x[w]
                e.ins("mov", s2, "&" + op2r[w])
            if p + 1 < len(pl):
                if not direct:
                    load_op1()
            elif k + 1 < 2 * n - 1:
                setup(k + 1)
            if p > 0:            # the column's first carry count replaces a[-1] (not cleared)
                if W == 16 or (p + 1 == len(pl) and p > 1):
                    deferred = p     # read after the next product's OP1 write, or after
                else:                # the column's result registers (below)
                    carry_count(p)
        # column k into the window; two (one) words leave. MPY32: RES0..RES3 through
        # r11 = &RES0 and @r11+ (2 cycles a read instead of 3 for &RESn); r11 steps
        # back by 8 (a constant-generator value) unless the square's masked add used it.
        # 16-bit digits: column_end16 (r8 from &SUMEXT back to RESLO).
        if W == 16:
            column_end16(e, rp, a, deferred)
        else:
            if k == 0 or not r11_res:
                e.ins("mov", f"#{resr[0]}", rp)
            else:
                e.ins("sub", f"#{2 * len(resr)}", rp)
            for w, r in enumerate(resr):
                e.ins("add" if w == 0 else "addc", f"@{rp}+", a[w], rd=r)
            if deferred is not None:  # the last carry with the RES3 read's
                e.ins("addc", "&SUMEXT", a[-1])
            else:
                e.ins("addc", "#0", a[len(resr)])
        r11_res = True
        if k < 2 * n - 2:
            for w in range(dw):
                e.ins("mov", a[w], f"{k * db + 2 * w}(r1)")
            a = a[dw:] + a[:dw]
            for w in range(dw):
                if w > 0 or len(plan(k + 1)) == 1:
                    e.ins("mov", "#0", a[-1 - w])
            if square and k + 1 >= n:
                # column k+1's E_n f_i term (i = k+1-n), added before its products: the
                # window is then the low words and the small carry word a[dw] only
                i = k + 1 - n
                masked_add(e, i, a[:dw + 1], dw, cache.get(i) or f_word(i, 0))
                r11_res = rp != "r11"
    # a[0:dw] = digit 2n-2, a[dw:2dw] = digit 2n-1 (the top), in registers.
    reduce(e, mpy, W, n, dw, db, a, hoff)
    e.ins("add", f"#{hoff + 2}", "r1")
    e.frame = hoff + 2 + 14 + 2               # + h, r4-r10, return address


def column_end16(e, rp, a, last):
    """16-bit multiplier, a column's end: window a[0..2] += RESLO, RESHI, read through rp
    stepped back from &SUMEXT (it is &SUMEXT again after them), then the last product's
    carry with the chain's in one `addc @rp`. last: the index of the column's last
    product whose carry is still to read (None: a one-product column); a 2-product
    column's a[2] holds a dead word, as no carry count set it."""
    if last == 1:
        e.ins("mov", "#0", a[2])
    gen_common.column_end16(e.ins, rp, a[0], a[1], a[2], last is not None)


def next_word(op):
    """The memory operand 2 bytes above op (`N(rX)`)."""
    off, reg = op[:-1].split("(")
    return f"{int(off) + 2}({reg})"


def masked_add(e, i, a, dw, fi):
    """a += f_i & mask (r12 = ~mask; BIC keeps the carry flag, AND would not), r11
    scratch: the E_n f_i term of a square. a: the window's registers from the term's
    weight up to the one the carry cannot leave. fi: f_i's low word (a register or a
    memory operand; the high word, dw = 2, 2 bytes above)."""
    for w in range(dw):
        e.ins("mov", fi if w == 0 else next_word(fi), "r11")
        e.ins("bic", "r12", "r11")
        e.ins("add" if w == 0 else "addc", "r11", a[w])
    for r in a[dw:]:
        e.ins("addc", "#0", r)


def fold_top(e, top, q, c):
    """The top word's bits from 255 up leave as 19 q: q = (q:top) >> 15 (q holds the bits
    above the word, < 2^8), top &= 0x7fff, c = 19 q (q clobbered)."""
    e.ins("mov", top, c)
    e.ins("add", c, c)                       # C = bit 255
    e.ins("addc", q, q)
    e.ins("and", "#0x7fff", top)
    e.ins("mov", q, c)                       # 19 q = 16 q + 2 q + q
    e.ins("add", q, q)
    e.ins("add", q, c)
    e.ins("add", q, q)
    e.ins("add", q, q)
    e.ins("add", q, q)
    e.ins("add", q, c)


def reduce_word(e, y, c, cn, res):
    """16-bit digits, one step of h = tl + 38 th after its MPY: y (tl_K) += c and RESLO,
    cn = RESHI + the carries; res = the RESLO and RESHI operands (through registers)."""
    e.ins("add", c, y)
    e.ins("mov", res[1], cn, rd="RESHI")         # flags kept
    e.ins("addc", "#0", cn)
    e.ins("add", res[0], y, rd="RESLO")
    e.ins("addc", "#0", cn)


def reduce(e, mpy, W, n, dw, db, a, hoff):
    """h = tl + 38 th with bit 255 folded as 19, tl = t digits 0..n-1 (stack), th = digits
    n..2n-1 (n..2n-3 on the stack, 2n-2 and 2n-1 in a). Top digit first (see module doc)."""
    lo = a[0:dw]                 # digit 2n-2 = th[n-2]
    top = a[dw:2 * dw]           # digit 2n-1 = th[n-1]
    op2r = ("OP2L", "OP2H") if W == 32 else ("OP2",)
    resr = ("RES0", "RES1", "RES2") if W == 32 else ("RESLO", "RESHI")
    e.ins("mov", "#38", "&MPY")
    # top: X = tl[n-1] + 38 th[n-1]
    for w in range(dw):
        e.ins("mov", top[w], "&" + op2r[w])
    y = ["r9", "r10"][:dw]
    q, c = "r11", "r15"
    for w in range(dw):
        e.ins("mov", f"{(n - 1) * db + 2 * w}(r1)", y[w])
    for w in range(dw):
        e.ins("add" if w == 0 else "addc", "&" + resr[w], y[w])
    e.ins("mov", "&" + resr[dw], q)          # high part (< 2^6), flags kept
    e.ins("addc", "#0", q)
    fold_top(e, y[-1], q, c)
    # keep the top digit in r4.. (free now that a is consumed into OP2/lo)
    ytop = ["r4", "r5"][:dw] if lo[0] not in ("r4", "r5") else ["r6", "r7"][:dw]
    assert not set(ytop) & set(lo)
    for w in range(dw):
        e.ins("mov", y[w], ytop[w])
    hp, tp = "r12", "r13"
    e.ins("mov", f"{hoff}(r1)", hp)
    e.ins("mov", "r1", tp)                   # tl walker
    e.ins("mov", "r1", "r14")                # th walker
    e.ins("add", f"#{n * db}", "r14")
    cn = "r8" if "r8" not in lo + ytop else "r11"
    # The result registers read through registers (@Rn, 2 cycles instead of 3 for
    # &RESxx), of r4-r10 that lo, ytop and cn leave free. 16-bit: RESLO and RESHI, one
    # register each; MPY32: RES0, RES1, RES2 through one, stepped back by 4.
    res, rp = None, None
    if W == 16:
        free = [r for r in ("r10", "r7", "r6", "r5", "r4") if r not in lo + ytop + [cn]]
        for r, name in zip(free[:2], resr[:2]):
            e.ins("mov", f"#{name}", r)
        res = [f"@{free[0]}", f"@{free[1]}"]
    else:
        rp = [r for r in ("r8", "r7", "r6", "r5", "r4") if r not in lo + ytop + [cn]][0]
        e.ins("mov", "#RES0", rp)
    for K in range(n - 1):
        src = [f"@r14+"] * dw if K < n - 2 else lo
        for w in range(dw):
            e.ins("mov", src[w], "&" + op2r[w])
        for w in range(dw):
            e.ins("mov", f"@{tp}+", y[w])
        if rp:                   # y += RES1:RES0, cn = RES2 + carries, y += c
            e.ins("add", f"@{rp}+", y[0], rd="RES0")
            e.ins("addc", f"@{rp}+", y[1], rd="RES1")
            e.ins("mov", f"@{rp}", cn, rd="RES2")     # flags kept
            e.ins("addc", "#0", cn)
            e.ins("add", c, y[0])
            e.ins("addc", "#0", y[1])
            e.ins("addc", "#0", cn)
            e.ins("sub", "#4", rp)
        else:
            reduce_word(e, y[0], c, cn, res)
        for w in range(dw):
            e.ins("mov", y[w], f"{K * db + 2 * w}({hp})")
        c, cn = cn, c
    e.ins("add", c, ytop[0])
    for w in range(1, dw):
        e.ins("addc", "#0", ytop[w])
    for w in range(dw):
        e.ins("mov", ytop[w], f"{(n - 1) * db + 2 * w}({hp})")


def kernel_mul(mpy, square):
    e = Em(mpy)
    e.raw(pushm(7, 10), 9)
    e.raw("        push    r12", 3)
    if mpy == 16 and not square and KARATSUBA16:
        karatsuba16(e)
    else:
        product(e, mpy, square)
    e.raw(popm(7, 4), 9)
    e.raw("        ret", 4)
    return e


KARATSUBA16 = True


def karatsuba16(e):
    """16-bit multiplier: h = f g by one-level Karatsuba over 8-word halves,
    f g = L + W^8 (L + H - (f_L - f_H)(g_L - g_H)) + W^16 H, L = f_L g_L, H = f_H g_H,
    (f_L - f_H)(g_L - g_H) = (-1)^s M, M = |f_L - f_H| |g_L - g_H| (W = 2^128 here).
    Each 8x8 product (mul8x8) scans columns with one operand's words in registers (OP2
    from a register: 9 cycles a MAC). The signs and the choice between adding and
    subtracting M are masks. The middle sum and the reduction are one pass (below)."""
    # stack: T (L, H: 32 words) 0, M (16 words) 64, DF (8 words) 96, SG 112; g 114, f 116
    T, MO, DF, SG, GP, FP = 0, 64, 96, 112, 114, 116
    e.raw("        push    r13", 3)
    e.raw("        push    r14", 3)
    e.ins("sub", f"#{114 - MO}", "r1")         # sp = &M: the frame below M is allocated
                                               # when the products need it
    regs = [f"r{4 + i}" for i in range(8)]

    def absdiff(base):          # r4..r11 = |X_L - X_H| for X at base (walked past X: the
        # pointers are on the stack); r15 = borrow mask
        for i in range(8):
            e.ins("mov", f"@{base}+", regs[i])
        for i in range(8):
            e.ins("sub" if i == 0 else "subc", f"@{base}+", regs[i])
        e.ins("mov", "#0", "r15")
        e.ins("subc", "#0", "r15")             # 0xffff iff X_L < X_H
        for r in regs:
            e.ins("xor", "r15", r)
        e.ins("mov", "r15", "r12")
        e.ins("and", "#1", "r12")
        for i, r in enumerate(regs):
            e.ins("add" if i == 0 else "addc", "r12" if i == 0 else "#0", r)

    absdiff("r13")
    for i in range(8):
        e.ins("mov", regs[i], f"{DF - MO + 2 * i}(r1)")
    e.ins("mov", "r15", f"{SG - MO}(r1)")
    absdiff("r14")
    e.ins("xor", "r15", f"{SG - MO}(r1)")      # SG = 0xffff iff the signs differ

    # The three 8x8 products are one subroutine (MUL8X8, emitted after the kernel's
    # ret): one copy of its ~1,000 bytes instead of three, for 3 calls and 2 stack
    # moves (16 cycles a product h = f g). It writes its 16 words just above its return
    # address, so sp is moved to each product's place first: M (64), H (32), L (0),
    # downwards, so every live word stays above sp (interrupt-safe stack).
    e.ins("mov", "r1", "r15")
    e.ins("add", f"#{DF - MO}", "r15")         # r15 = &DF (walked by MUL8X8)
    e.call_sub(MUL8X8)                         # M = |f_L - f_H| |g_L - g_H|
    for half, sp in ((1, T + 32), (0, T)):      # H = f_H g_H at 32, then L = f_L g_L at 0
        e.ins("sub", "#32", "r1")              # sp = that product's place
        e.ins("mov", f"{GP - sp}(r1)", "r15")
        if half:
            e.ins("add", "#16", "r15")
        for i in range(8):
            e.ins("mov", "@r15+", regs[i])
        e.ins("mov", f"{FP - sp}(r1)", "r15")
        if half:
            e.ins("add", "#16", "r15")
        e.call_sub(MUL8X8)
    # The middle sum and the reduction, merged. Word j of the product is t_j = L_j
    # (j < 8), L_j + X_(j-8) (8 <= j < 24, X = L + H + (M ^ m) + cin, m = ~SG, cin = m & 1,
    # less 2^256 cin), H_(j-16) (j >= 24), and h = tl + 38 th (tl = t_0..15, th =
    # t_16..31) with the bits from 255 up folded as 19, top word first, as reduce() does.
    # Middle words 8..15 (k < 8) go where M_k was (read first); middle words 16..23 are
    # th_0..7 and go straight to OP2 (MPY by 38): reduce steps 0..7 run in the same loop.
    # Its carry into word 24, c_mid, enters the reduction as 38 c_mid at step 8, so th_8..15
    # is H_8..15 as it stands and the top word is known before the loop.
    e.ins("mov", f"{SG}(r1)", "r14")
    e.ins("xor", "#-1", "r14")                 # m
    e.ins("mov", "r14", "r12")
    e.ins("and", "#1", "r12")                  # lo = cin
    e.raw("        push    r12", 3)            # keep cin (T, M offsets + 2 below)
    o = 2
    lo, hi = "r12", "r13"
    e.ins("mov", "#0", hi)

    def middle(k, walk):        # lo (+)= word 8+k of the middle sum; hi its carry
        if walk:                # M_k, T_(8+k), T_k, T_(16+k) walked by r7, r5, r4, r6
            src = ("@r7+", "@r5+", "@r4+", "@r6+")
        else:
            src = tuple(f"{o + off}(r1)" for off in (MO + 2 * k, T + 2 * (8 + k), T + 2 * k,
                                                     T + 2 * (16 + k)))
        e.ins("mov", src[0], "r15")
        e.ins("xor", "r14", "r15")
        for s in src[1:] + ("r15",):
            e.ins("add", s, lo)
            e.ins("addc", "#0", hi)

    # words 8..15 with walkers (2 cycles a read instead of 3): r4..r11 are free until
    # the reduction starts
    e.ins("mov", "r1", "r4")
    e.ins("add", f"#{o + T}", "r4")
    for r, off in (("r5", 16), ("r6", 32), ("r7", MO - T)):
        e.ins("mov", "r4", r)
        e.ins("add", f"#{off}", r)
    for k in range(8):
        middle(k, True)
        e.ins("mov", lo, f"{o + MO + 2 * k}(r1)")   # tl_(8+k), where M_k was
        lo, hi = hi, lo
        e.ins("mov", "#0", hi)
    # top word first: X = tl_15 + 38 th_15 (th_15 = H_15); r11 = its low 15 bits, r9 = 19 q
    top, q, c, cn, y, plo, phi, tl, hp = "r11", "r10", "r9", "r10", "r7", "r6", "r5", "r4", "r8"
    e.ins("mov", "#38", "&MPY")
    e.ins("mov", f"{o + T + 62}(r1)", "&OP2")
    e.ins("mov", f"{o + MO + 14}(r1)", top)
    e.ins("add", "&RESLO", top)
    e.ins("mov", "&RESHI", q)                  # flags kept
    e.ins("addc", "#0", q)
    fold_top(e, top, q, c)
    e.ins("mov", "#RESLO", plo)                # RESLO, RESHI read through registers
    e.ins("mov", "#RESHI", phi)
    e.ins("mov", "r1", tl)
    e.ins("add", f"#{o + T}", tl)
    e.ins("mov", f"{o + 118}(r1)", hp)

    def step(K, th):            # h_K = tl_K + 38 th_K + c (tl at @tl+); carry to cn
        nonlocal c, cn
        e.ins("mov", th, "&OP2")
        e.ins("mov", f"@{tl}+", y)
        reduce_word(e, y, c, cn, (f"@{plo}", f"@{phi}"))
        e.ins("mov", y, f"{2 * K}({hp})")
        c, cn = cn, c

    for k in range(8, 16):
        middle(k, False)
        step(k - 8, lo)         # th_(k-8) = middle word 8+k, straight from lo
        lo, hi = hi, lo
        e.ins("mov", "#0", hi)
    e.raw("        pop     r15", 2)            # cin
    e.ins("sub", "r15", lo)                    # c_mid: the 2^256 of the complement out
    for doublings in (1, 1, 3):                # c += 38 c_mid = (2 + 4 + 32) c_mid
        for _ in range(doublings):
            e.ins("add", lo, lo)
        e.ins("add", lo, c)
    o = 0
    e.ins("mov", "r1", "r15")
    e.ins("add", f"#{T + 48}", "r15")          # th_8..14 = H_8..14
    e.ins("mov", "r1", tl)
    e.ins("add", f"#{MO}", tl)                 # tl_8..15: the middle words 8..15
    for K in range(8, 15):
        step(K, "@r15+")
    e.ins("add", c, top)                       # the carry ends inside the top word
    e.ins("mov", top, f"30({hp})")
    e.ins("add", "#120", "r1")
    e.frame = 120 + 2 + 14 + 2                # + cin pushed in the middle sum


MUL8X8 = ".Lmb_fe25519_mul8x8"


@functools.lru_cache(maxsize=None)     # one body, however many calls (Em is only read)
def mul8x8():
    """The 16-bit multiplier's 8x8 product, Karatsuba's three (a subroutine of
    mb_fe25519_mul): out[0..16) = (8 words at r15) * r4..r11, out = the caller's sp
    (2(r1) here), columns scanned with r15 stepped, not reset. Clobbers r11-r15.
    r11's word (digit 7) waits in out[15], written last, so that r11 can hold &SUMEXT:
    each MAC's carry is then read in 2 cycles (@r11) after the next product's OP1 write
    or after the column's RESLO/RESHI (read through r11 too), instead of 3 (&SUMEXT)
    right after its OP2."""
    e = Em(16)
    regs = [f"r{4 + i}" for i in range(7)] + [f"{2 + 30}(r1)"]
    a = ["r12", "r13", "r14"]
    rA, pos, out = "r15", 0, 2
    e.ins("mov", "r11", regs[7])
    e.ins("mov", "#SUMEXT", "r11")
    e.ins("mov", "#0", "r14")

    def carry(p):                # a[2] (+)= the SUMEXT of the column's product p >= 1
        e.ins("mov" if p == 1 else "add", "@r11", a[2], rd="SUMEXT")

    for k in range(15):
        i0, i1 = max(0, k - 7), min(k, 7)
        want = 2 * i0
        if want != pos:
            e.ins("add" if want > pos else "sub", f"#{abs(want - pos)}", rA)
        pos = want
        deferred = None
        for p, i in enumerate(range(i0, i1 + 1)):
            e.ins("mov", f"@{rA}+", "&" + ("MPY" if p == 0 else "MAC"))
            if deferred is not None:
                carry(deferred)  # only OP2 starts an operation: the result stays
                deferred = None
            pos += 2
            e.ins("mov", regs[k - i], "&OP2")
            if p > 0:
                deferred = p
        if k == 0:              # the window is empty: the column is the product
            e.ins("mov", "&RESLO", f"{out}(r1)")
            e.ins("mov", "&RESHI", a[1])
        else:
            column_end16(e, "r11", a, deferred)
            e.ins("mov", a[0], f"{out + 2 * k}(r1)")
        a = a[1:] + a[:1]
        if k + 1 < 15 and len(range(max(0, k + 1 - 7), min(k + 1, 7) + 1)) == 1:
            e.ins("mov", "#0", a[2])
    e.ins("mov", a[0], f"{out + 30}(r1)")
    e.raw("        ret", 4)
    return e


SUBS = {MUL8X8: mul8x8}


def emit_mul_file(mpy):
    out = [f"""/* SPDX-License-Identifier: MIT */
/* GF(2^255-19) product, square and product by 121666 for the MSP430X with the
 * {'32-bit multiplier MPY32' if mpy == 32 else '16-bit hardware multiplier (no MPY32-only register is touched)'}.
 * GENERATED by arch/msp430x/gen_fe25519.py: edit the generator (its docstring has the
 * method and the multiplier discipline), not this file.
 * Contract: any 256-bit inputs; h < 2^256, h = result mod p; h may alias f, g.
 * Calling convention: MSP430 EABI (r12 = h, r13 = f, r14 = g); r4-r10 saved and
 * restored; r11-r15 and the multiplier clobbered (interrupt handlers may not use the
 * multiplier during a call: arch/msp430x/README.md).
 * Secrets: f, g, h; the product digits and copies (or differences) of the operands
 * stay on the stack below sp after the return (the kernel frames are wiped by the
 * caller, x25519_scalarmult.S: README "Threat model").
 * Cycles: the model counts below are the body without the call; measured counts incl.
 * call are in the README (tests/msp430/test_asm430_fe25519.py prints them). */
#include "board.h"
"""]
    for name, sq in (("mb_fe25519_mul", False), ("mb_fe25519_sqr", True)):
        e = kernel_mul(mpy, sq)
        out.append(header(name, f"void {name}(fe25519 *h, const fe25519 *f{'' if sq else ', const fe25519 *g'}): "
                          f"model {e.t} cycles after the call ({e.nops} NOPs for the multiplier), "
                          f"stack {e.frame} bytes incl. return address."))
        out += e.lines
        for label in e.subs:        # inside the kernel's .size: profiled as its own
            out.append(f"{label}:")
            out += SUBS[label]().lines
        out.append(f"        .size   {name}, .-{name}")
    e = kernel_121665_add(mpy)
    name = "mb_fe25519_mul121665_add"
    out.append(header(name, f"void {name}(fe25519 *h, const fe25519 *f, const fe25519 *g): "
                      f"h = 121665 f + g (internal, x25519_scalarmult.S); model {e.t} cycles "
                      f"after the call ({e.nops} NOPs). Stack {8 if mpy == 32 else 10} bytes incl. "
                      f"return address. Clobbers r11-r15, multiplier."))
    out += e.lines
    out.append(f"        .size   {name}, .-{name}")
    e = kernel_121666(mpy)
    name = "mb_fe25519_mul121666"
    out.append(header(name, f"void {name}(fe25519 *h, const fe25519 *f): h = 121666 f; model {e.t} "
                      f"cycles after the call ({e.nops} NOPs). Stack 2 bytes. Clobbers r11-r15, multiplier."))
    out += e.lines
    out.append(f"        .size   {name}, .-{name}")
    return "\n".join(out) + "\n"


def kernel_121666(mpy):
    """h = 121666 f = 0xDB42 f + 2^16 f: per 16-bit word i, u_i = 0xDB42 f_i + f_(i-1) + c
    (< 2^32: the multiplier's MPY with OP1 = 0xDB42, then ALU adds); the top digit
    f_15 + c leaves bit 256 and the bits 255.. of the result are folded as 19 q at the
    end with one carry pass over h (16 words in registers would need r4-r10: memory)."""
    e = Em(mpy)
    if mpy == 32:
        return kernel_121666_32(e)
    # registers: r12 = h, r13 = f walker, r14 = prev f word, r15 = lo, r11 = carry
    e.ins("mov", "#0xdb42", "&MPY")
    e.ins("mov", "#0", "r14")
    e.ins("mov", "#0", "r11")
    for i in range(16):
        e.ins("mov", "@r13+", "&OP2")
        e.ins("add", "r14", "r11")             # c + f_(i-1) < 2^17: carry into the high word
        e.ins("mov", f"{-2}(r13)", "r14")      # f_i for the next word (f may alias h)
        e.ins("mov", "&RESHI", "r15")          # flags kept
        e.ins("addc", "#0", "r15")
        e.ins("add", "&RESLO", "r11")
        e.ins("addc", "#0", "r15")
        e.ins("mov", "r11", f"{2 * i}(r12)")
        e.ins("mov", "r15", "r11")
    # what leaves bit 256: r11 + f_15 (< 2^17); q = 2 (that) + bit 255 of h (< 2^18)
    e.ins("add", "r14", "r11")
    e.ins("mov", "#0", "r15")
    e.ins("addc", "#0", "r15")                 # r15:r11 = out of bit 256
    fold_out256(e)
    e.raw("        ret", 4)
    return e


def kernel_121666_32(e):
    """MPY32: OP1 = 121666 (32 bits, written once), per 32-bit digit of f a 32x32 MPY:
    u_K = 121666 F_K + c (< 2^49), h digit K = u_K mod 2^32, c = u_K >> 32 (< 2^17, in
    r15:r11); then the same fold as the 16-bit version (q = 2c + bit 255, 19 q)."""
    e.ins("mov", "#0xdb42", "&MPY32L")
    e.ins("mov", "#1", "&MPY32H")
    e.ins("mov", "#0", "r11")
    e.ins("mov", "#0", "r15")
    for K in range(8):
        e.ins("mov", "@r13+", "&OP2L")
        e.ins("mov", "@r13+", "&OP2H")
        e.ins("mov", "&RES0", "r14")
        e.ins("add", "r11", "r14")
        e.ins("mov", "&RES1", "r11")           # flags kept
        e.ins("addc", "r15", "r11")
        e.ins("mov", "r14", f"{4 * K}(r12)")  # h may alias f: digit K of f is read
        e.ins("mov", "r11", f"{4 * K + 2}(r12)")
        e.ins("mov", "&RES2", "r11")
        e.ins("mov", "&RES3", "r15")
        e.ins("addc", "#0", "r11")
        e.ins("addc", "#0", "r15")
    # r15:r11 = out of bit 256 (< 2^17); q = 2 (that) + bit 255 of h (< 2^18)
    fold_out256(e)
    e.raw("        ret", 4)
    return e


def fold_out256(e):
    """r15:r11 = what left bit 256 (< 2^18); h = 32 bytes at r12 (its bit 255 and up
    folded as 19 each: q = 2 (r15:r11) + bit 255, h += 19 q with one carry pass that
    ends inside the top word). Clobbers r11, r13-r15 and the multiplier (OP1 = 19)."""
    e.ins("mov", "30(r12)", "r14")
    e.ins("mov", "r14", "r13")
    e.ins("add", "r13", "r13")                 # C = bit 255
    e.ins("addc", "r11", "r11")
    e.ins("addc", "r15", "r15")                # r15:r11 = q
    e.ins("and", "#0x7fff", "r14")             # top word without bit 255
    # 19 q = 19 q_lo (multiplier) + 2^16 19 q_hi (q_hi <= 7: shifts); 19 q < 2^24
    e.ins("mov", "#19", "&MPY")
    e.ins("mov", "r11", "&OP2")
    e.ins("mov", "r15", "r11")
    e.ins("add", "r15", "r15")
    e.ins("add", "r15", "r11")
    e.ins("add", "r15", "r15")
    e.ins("add", "r15", "r15")
    e.ins("add", "r15", "r15")
    e.ins("add", "r15", "r11")                 # 19 q_hi
    e.ins("mov", "&RESHI", "r13")
    e.ins("add", "r11", "r13")                 # < 2^8: no carry
    e.ins("add", "&RESLO", "0(r12)")
    e.ins("addc", "r13", "2(r12)")
    for i in range(2, 15):
        e.ins("addc", "#0", f"{2 * i}(r12)")
    e.ins("addc", "#0", "r14")                 # ends inside the top word (< 2^15 + 1)
    e.ins("mov", "r14", "30(r12)")


def kernel_121665_add(mpy):
    """h = 121665 f + g (the ladder's z2 = E (AA + 121665 E) with h = g = AA: no
    temporary for 121666 E). 121665 f + g < 2^274. 121665 = 2^16 + 0xDB41, per 16-bit
    word u = 0xDB41 f_i + f_(i-1) + g_i + c < 2^32 (so c < 2^16), then fold_out256.
    h may alias f or g (word i of both is read before word i of h is written).
    Both multipliers run these 16x16 products (MPY32 has the 16-bit registers): 405
    cycles, where MPY32's loop over eight 32x32 digits took 445 (a pass of the loop
    cost 4 cycles, and each digit's 64-bit result three carry adds). Unrolled, saving
    r7-r10 (the loop was 28 cycles a word)."""
    e = Em(mpy)
    # unrolled: f_i is loaded into a register and written to OP2 from it, so it is
    # still there as the next word's f_(i-1); RESLO and RESHI are read through r8, r7
    e.raw(pushm(4, 10), 6)                  # r7-r10
    e.ins("mov", "#0xdb41", "&MPY")
    e.ins("mov", "#RESLO", "r8")
    e.ins("mov", "#RESHI", "r7")
    lo, hi, fr = "r11", "r15", ("r9", "r10")
    for i in range(16):
        e.ins("mov", "@r13+", fr[i % 2])
        e.ins("mov", fr[i % 2], "&OP2")
        e.ins("mov", "#0", hi)
        if i == 0:
            e.ins("mov", "@r14+", lo)
        else:
            e.ins("add", fr[(i + 1) % 2], lo)    # c + f_(i-1) < 2^17
            e.ins("addc", "#0", hi)
            e.ins("add", "@r14+", lo)
            e.ins("addc", "#0", hi)
        e.ins("add", "@r8", lo, rd="RESLO")
        e.ins("addc", "@r7", hi, rd="RESHI")
        e.ins("mov", lo, f"{2 * i}(r12)")
        lo, hi = hi, lo                          # c = the high word (< 2^16)
    e.ins("mov", "#0", "r15")
    e.ins("add", fr[1], "r11")                   # out of bit 256: c + f_15 < 2^17
    e.ins("addc", "#0", "r15")
    fold_out256(e)
    e.raw(popm(4, 7), 6)
    e.raw("        ret", 4)
    return e


def emit_addsub_file():
    out = ["""/* SPDX-License-Identifier: MIT */
/* GF(2^255-19) addition, subtraction and conditional swap for the MSP430X (no
 * multiplier). GENERATED by arch/msp430x/gen_fe25519.py: edit the generator.
 * Contract: any 256-bit inputs; h < 2^256, h = result mod p; h may alias f, g.
 * Calling convention: MSP430 EABI; only r11-r15 clobbered, no stack beyond the return
 * address. Constant time: straight-line; the borrow and the swap bit become masks. */
#include "board.h"
"""]
    # add: chain f + g into h (words 0..15), then q = 2 carry + bit 255, h += 19 q over
    # words 0..14 (bit 255 cleared first, so the last carry ends inside word 15).
    e = Em(32)
    for t in chain("add", "addc", [("r15", f"{2 * i}(r12)" if i < 15 else None) for i in range(16)]):
        e.ins(*t)
    e.ins("mov", "#0", "r14")
    e.ins("addc", "#0", "r14")                 # carry out of bit 256
    e.ins("mov", "r15", "r13")
    e.ins("add", "r13", "r13")                 # C = bit 255
    e.ins("addc", "r14", "r14")                # q = 2 carry + bit 255 (0..3)
    e.ins("and", "#0x7fff", "r15")
    e.ins("mov", "r14", "r13")                 # 19 q = 16q + 2q + q
    e.ins("add", "r14", "r14")
    e.ins("add", "r14", "r13")
    e.ins("add", "r14", "r14")
    e.ins("add", "r14", "r14")
    e.ins("add", "r14", "r14")
    e.ins("add", "r14", "r13")
    e.ins("add", "r13", "0(r12)")
    for i in range(1, 15):
        e.ins("addc", "#0", f"{2 * i}(r12)")
    e.ins("addc", "#0", "r15")
    e.ins("mov", "r15", "30(r12)")
    e.raw("        ret", 4)
    name = "mb_fe25519_add"
    out.append(header(name, f"void {name}(fe25519 *h, const fe25519 *f, const fe25519 *g): "
                      f"{e.t} cycles after the call. Clobbers r13-r15."))
    out += e.lines
    out.append(f"        .size   {name}, .-{name}")
    # sub: chain f - g (borrow b): value f - g + 2^256 b; subtract 38 b (= 2^256 - (2^256
    # - 38)); a second borrow (value < 38 b) wraps to >= 2^256 - 38, where one more 38
    # cannot borrow (as the portable r16 code).
    e = Em(32)
    for t in chain("sub", "subc", [("r15", f"{2 * i}(r12)") for i in range(16)]):
        e.ins(*t)
    e.ins("mov", "#0", "r14")
    e.ins("subc", "#0", "r14")                 # 0xffff iff borrow (C = no borrow)
    e.ins("and", "#38", "r14")
    e.ins("sub", "r14", "0(r12)")
    for i in range(1, 16):
        e.ins("subc", "#0", f"{2 * i}(r12)")
    e.ins("mov", "#0", "r14")
    e.ins("subc", "#0", "r14")
    e.ins("and", "#38", "r14")
    e.ins("sub", "r14", "0(r12)")
    e.raw("        ret", 4)
    name = "mb_fe25519_sub"
    out.append(header(name, f"void {name}(fe25519 *h, const fe25519 *f, const fe25519 *g): "
                      f"{e.t} cycles after the call. Clobbers r14, r15."))
    out += e.lines
    out.append(f"        .size   {name}, .-{name}")
    def masked(name, word_ops, doc):
        """A routine over 16 word pairs under the mask 0 - bit (bit in r14): the mask and
        the difference words are cleared from r14, r15 before `ret`."""
        e = Em(32)
        e.ins("mov", "#0", "r15")
        e.ins("sub", "r14", "r15")                 # mask: 0 - bit
        for i in range(16):
            for op in word_ops(i):
                e.ins(*op)
        e.ins("mov", "#0", "r14")
        e.ins("mov", "#0", "r15")
        e.raw("        ret", 4)
        out.append(header(name, doc.format(t=e.t)))
        out.extend(e.lines)
        out.append(f"        .size   {name}, .-{name}")

    # cswap(f = r12, g = r13, bit = r15:r14)
    masked("mb_fe25519_cswap",
           lambda i: [("mov", "@r12+", "r14"), ("xor", f"{2 * i}(r13)", "r14"),
                      ("and", "r15", "r14"), ("xor", "r14", "-2(r12)"),
                      ("xor", "r14", f"{2 * i}(r13)")],
           "void mb_fe25519_cswap(fe25519 *f, fe25519 *g, uint32_t bit): swap iff bit "
           "(0 or 1); {t} cycles after the call. Clobbers r12-r15; the mask and "
           "the difference words are cleared from the registers they used.")
    # cmov(h = r12, g = r13, bit = r14): h ^= (h ^ g) & (0 - bit), the ladder's select
    # (x25519_scalarmult.S: the doubling's inputs, 2 elements a step instead of swapping 4)
    masked("mb_fe25519_cmov",
           lambda i: [("mov", "@r13+", "r14"), ("xor", f"{2 * i}(r12)", "r14"),
                      ("and", "r15", "r14"), ("xor", "r14", f"{2 * i}(r12)")],
           "void mb_fe25519_cmov(fe25519 *h, const fe25519 *g, uint16_t bit): h = g "
           "iff bit (0 or 1), else h unchanged (internal, the ladder's); {t} "
           "cycles after the call. Clobbers r13-r15; the mask and the difference "
           "words are cleared from the registers they used.")
    return "\n".join(out) + "\n"


def files():
    return {"fe25519_mul_mpy32.S": emit_mul_file(32), "fe25519_mul_mpy16.S": emit_mul_file(16),
            "fe25519_addsub.S": emit_addsub_file()}


def main(argv):
    return gen_common.main(argv, {HERE / name: text for name, text in files().items()})


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
