# SPDX-License-Identifier: MIT
"""Generates arch/msp430x/fep256_mul_mpy32.S and fep256_mul_mpy16.S: GF(p256) Montgomery
multiplication and squaring (R = 2^256) for the MSP430X with the 32-bit (MPY32) or the
16-bit hardware multiplier, [SAK18]'s interleaved reduction; fep256_addsub.S (masked
addition and subtraction) and p256_ladder.S (the co-Z ladder's steps and loop over the
kernels' cores). The .S files are the output of this script (a test checks they match):
edit here, then
    python3 arch/msp430x/gen_fep256.py          (--check: compare only)

Method (both multipliers; W = 32-bit digits with MPY32, 16-bit digits with MPY16):
  * Product scanning: column k of f*g is accumulated in the multiplier (the first
    product with MPY, the others with MAC; every MAC's carry-out SUMEXT is added to a
    register c), then read into a CPU window (w0, w1, w2) that holds the carry from the
    column before.
  * Montgomery digits with the ALU ([SAK18]): p = -1 mod W, so the digit of column k is
    its low digit q_k, and adding q_k p clears it; what remains is q_k (p + 1), whose only
    non-zero digits are 1 and 2^32 - 1: with 32-bit digits q_j goes to columns j+3, j+6,
    j+8 and -q_j to column j+7; with 16-bit digits q_j to j+6, j+12, j+16 and -q_j to
    j+14. No multiplication: each is an ADD/ADDC (SUB/SUBC) chain into the window, placed
    by the generator in the cycles the CPU would otherwise wait for the multiplier.
  * Columns 8..15 (32-bit) / 16..31 (16-bit) are the result r; r - p is formed as they
    appear (one borrow kept in a register) and written to h at once (h may alias f: the
    digit of h written at column k is no longer read); top * 2^256 + r < 2p, so the end
    adds p back under the mask "borrow and not top" (seed Algorithm 2).
  * Squaring without doubling: f^2 = sum_i F_i 2^(Wi) T_i with T_i's digits
    [F_i, E'_(i+1), E_(i+2), .., E_n], E = 2f (E' = E without the carry in), so every
    product simply accumulates; E is built once (reversed, on the stack), E_n (the top
    bit of f) adds F_i masked to column i + n with the ALU.
Multiplier discipline (docs/MSP430_TIMING.md): a result is read only when the user's
guide says it is ready. 16-bit multiplier: no multiplier register is written before the
previous operation's whole result is ready; a MAC's carry SUMEXT is read after the next
product's OP1 write (an OP1 write starts nothing: only OP2 does), through a register that
holds &SUMEXT (2 cycles instead of 3). MPY32 with USE_DLYWRTEN (off in the shipped build):
the cores run with MPYDLYWRTEN set (MPY32CTL0 bit 8; SLAU367: "writes are delayed until
the 64-bit result (RES0 to RES3) is available"; the C entries and the ladder set it and
clear it again): the next product's
OP1 (MPY32L/H, MAC32L/H) is written while the previous 32x32 result is pending, the
previous SUMEXT is read after that (when ready), then OP2L/OP2H once the previous result
is complete, so only OP1 writes are ever delayed, at most one at a time (the guide gives
no queue depth). The generator's cycle model enforces
all of it (the simulator checks the reads, not the writes).
Fused subtraction (mb_fep256_mulsub_core, ladder only): h = f (a - b), the difference
formed with its masked correction straight into the reversed copy of g.
"""
import sys
from pathlib import Path

from gen_common import (OP2_LAT16, OP2_LAT32, OP2H_LAT32, OP2H_NAMES, chain,
                        fmt1_cycles, header, ins_text, opclass, popm_word, pushm_word)
from gen_common import mreg as mpy_addr
import gen_common

HERE = Path(__file__).resolve().parent

OP1REGS = ("MPY32L", "MPY32H", "MAC32L", "MAC32H")
MPYDLYWRTEN = 0x0100
# MPY32 kernels with MPYDLYWRTEN, the guide's delayed write. Off: SLAU367 promises that a
# delayed write takes effect when the result is ready, not that the CPU runs on meanwhile
# (the simulator counts it as buffered), and our cycle counts rely only on what the guide
# promises. On, the simulator measures ECDH about 2.6% faster; check on a board first.
USE_DLYWRTEN = False

# p in 16-bit words, little-endian.
P16 = [0xFFFF] * 6 + [0] * 6 + [1, 0, 0xFFFF, 0xFFFF]


class Gen:
    """Straight-line emitter with the cycle model of docs/MSP430_TIMING.md (Format I/II)
    and the multiplier's result availability."""

    def __init__(self, mpy, dly=False):
        self.mpy = mpy
        self.dly = dly              # MPYDLYWRTEN set: OP1 writes may precede the result
        self.early_for = None       # `done` of the operation an early write waits for
        self.lines = []
        self.t = 0                  # cycle at which the next instruction starts
        self.ready = {}             # result register -> cycle it is ready
        self.done = 0               # cycle the whole running operation is complete
        self.op2l = None
        self.fill = []              # queue of filler chunks: lists of instructions

    def raw(self, s):
        self.lines.append(s)

    def cost(self, ins, a, b):
        sc, se = opclass(a)
        dc, de = opclass(b) if b is not None else (None, 0)
        mem = dc == "X"
        if ins in ("rla", "rlc"):           # emulated: add/addc dst, dst
            return (1 if not mem else 4), 1, 1
        if ins in ("swpb", "sxt"):          # Format II, register
            return 1, 1, 1
        c = fmt1_cycles(ins, sc, mem)
        return c, 1 + se, 1 + se + de

    def ins(self, ins, a, b=None, comment=None, fill=True, rd=None):
        """Emit one Format I instruction `ins a, b` (b None: single operand emulated
        forms are spelled out by the caller). rd: the multiplier register a
        register-indirect source reads (@r10)."""
        c, ws, _ = self.cost(ins, a, b)
        rd = rd or mpy_addr(a)
        wr = mpy_addr(b) if (b is not None and ins not in ("cmp", "bit")) else None
        # reads: source at t + ws + 1; the destination (RMW) is never a multiplier register
        if rd is not None:
            need = self.ready.get(rd, 0)
            while self.t + ws + 1 < need:
                self._wait(need - (self.t + ws + 1), fill)
        if self.dly and wr in OP1REGS and self.early_for == self.done:
            # at most one delayed write outstanding (the guide gives no queue depth);
            # no fillers: the operands may wait in t0/t1
            while self.t + c < self.done:
                self._wait(self.done - (self.t + c), False)
        if self.dly and wr in OP1REGS and self.t + c < self.done:
            self.early_for = self.done
        if wr is not None and wr != "OP2H" and not (self.dly and wr in OP1REGS):
            while self.t + c < self.done:
                self._wait(self.done - (self.t + c), fill)
        text = f"        {ins:7s} {a}" + (f", {b}" if b is not None else "")
        if ins == "mov" and a.startswith("@") and a.endswith("+") and opclass(b)[0] == "X":
            # LLVM's assembler rejects MOV @Rn+ to memory: encode it (Format I, As = 3,
            # Ad = 1; &abs is x(R2))
            rs = int(a[2:-1])
            if b.startswith("&"):
                rd, x = 2, b[1:]
            else:
                x, r = b[:-1].split("(")
                rd = int(r[1:])
            text = f"        .word   0x{0x40B0 | (rs << 8) | rd:04x}, {x}"
            comment = f"mov @r{rs}+, {b}" + (f"; {comment}" if comment else "")
        if comment:
            text = f"{text:40s}/* {comment} */"
        self.lines.append(text)
        tw = self.t + c
        self.t += c
        if wr is not None:
            self._mpy_write(wr, tw)
        return c

    def _wait(self, gap, fill=True):
        if self.fill and fill:
            e = self.fill[0]
            chunk = e["parts"].pop(0)
            e["whole"] = None
            if not e["parts"]:
                self.fill.pop(0)
            for (i, a, b) in chunk:
                self.ins(i, a, b)
        else:
            self.lines.append("        nop")
            self.t += 1

    def reserve(self, cycles):
        """Wait (fillers allowed) until a multiplier write `cycles` from now is allowed,
        so that registers loaded in between are not clobbered by a filler."""
        while self.t + cycles < self.done:
            self._wait(self.done - (self.t + cycles))

    def flush(self):
        while self.fill:
            e = self.fill.pop(0)
            for chunk in ([e["whole"]] if e["whole"] else e["parts"]):
                for (i, a, b) in chunk:
                    self.ins(i, a, b)

    def queue(self, parts, whole=None, front=False):
        e = {"parts": list(parts), "whole": whole}
        if front:
            self.fill.insert(0, e)
        else:
            self.fill.append(e)

    def _mpy_write(self, reg, tw):
        if reg in ("OP2",):
            lat = OP2_LAT16 if self.mpy == 16 else OP2_LAT32
            self.ready = {k: tw + v for k, v in lat.items()}
            self.done = max(self.ready.values())
        elif reg == "OP2L":
            self.op2l = tw
            self.ready = {k: 1 << 60 for k in ("RES0", "RES1", "RES2", "RES3", "SUMEXT")}
            self.done = 1 << 60
        elif reg == "OP2H":
            tl = self.op2l
            lat_l, lat_h = OP2H_LAT32
            self.ready = {n: max(tl + lat_l[i], tw + lat_h[i]) for i, n in enumerate(OP2H_NAMES)}
            self.done = max(self.ready.values())


# ---------------------------------------------------------------------------------
class Kernel:
    """One Montgomery product or square. Registers:
    r12 = h, r13 = f (r14 = g: copied, then reused), rf = r15, rg = r14.
    Window and temporaries from r4..r11."""

    def __init__(self, mpy, square, fsub=False):
        self.fsub = fsub            # g = a - b mod p (r14 = a, r15 = b), formed in the frame
        # MPYDLYWRTEN (MPY32 product only): the next product's OP1 is written while the
        # previous 32x32 result is still pending, in the cycles the SUMEXT read waits.
        self.dly = mpy == 32 and USE_DLYWRTEN
        self.g = Gen(mpy, self.dly)
        self.mpy = mpy
        self.sq = square
        self.dw = 2 if mpy == 32 else 1          # 16-bit words per digit
        self.n = 16 // self.dw                   # digits
        # mul: r14 walks g for the lazy reversed copy, r11 walks the copy
        self.rf, self.rg = "r15", ("r14" if square else "r11")
        self.pool = ["r4", "r5", "r6", "r7", "r8", "r9", "r10"] + (["r11"] if square else [])

    # frame: [0, 32) reversed copy of g (or of E = 2f), [32, 64) Montgomery digits q
    REV, Q = 0, 32
    FRAME = 64

    def emit(self):
        g, n, dw = self.g, self.n, self.dw
        W = 16 * dw
        # window registers: w[0..dw] (dw low words + carry word), c = SUMEXT count
        regs = list(self.pool)
        w = [regs.pop(0) for _ in range(dw + 1)]
        c = regs.pop(0)
        bb = regs.pop(0)        # borrow of r - p between columns (1 = no borrow)
        t0 = regs.pop(0)
        t1 = regs.pop(0)
        m7 = regs.pop(0) if self.sq else None
        # 16-bit multiplier: sx = &SUMEXT, so that a MAC's carry is read in 2 cycles
        # (@sx) after the next product's OP1 write instead of 3 (&SUMEXT) before it
        sx = regs.pop(0) if dw == 1 else None
        self.regs = dict(w=w, c=c, bb=bb, t0=t0, t1=t1, m7=m7)

        # ---- reversed copy: g, or E = 2f (bit by bit: RLC chain) ----
        if self.fsub:
            # the ladder's subtraction fused into the copy: g = a - b, then p AND the
            # borrow mask added back, both straight into the reversed copy
            # words 0-8 through r4 into the frame, 9-15 in r5-r11 until corrected
            hold = {9 + i: f"r{5 + i}" for i in range(7)}

            def fr(x):
                j, h = divmod(x, dw)
                return f"{self.rev_off(j) + 2 * h}(r1)"
            for x in range(16):
                r = hold.get(x, "r4")
                g.ins("mov", "@r14+", r)
                g.ins("sub" if x == 0 else "subc", "@r15+", r)
                if x not in hold:
                    g.ins("mov", r, fr(x))
            g.ins("mov", "#0", "r15")
            g.ins("subc", "#0", "r15")             # mask = C - 1: a < b
            g.ins("mov", "r15", "r14")
            g.ins("and", "#1", "r14")
            for x in range(16):
                src = "r15" if P16[x] == 0xFFFF else ("r14" if P16[x] == 1 else "#0")
                g.ins("add" if x == 0 else "addc", src, hold.get(x, fr(x)))
            for x in sorted(hold):
                g.ins("mov", hold[x], fr(x))
        elif not self.sq:
            # digits 0 and 1 now; digit k+1 during column k (filler chunks)
            for j in range(2):
                for h in range(dw):
                    g.ins("mov", "@r14+", f"{self.rev_off(j) + 2 * h}(r1)")
        else:
            # E_j for j = 1..n-1 reversed (E_0 = 2 F_0 is never used: T_i starts at F_i),
            # E'_j = E_j with bit 0 cleared is formed on the fly.
            for j in range(n):
                for h in range(dw):
                    g.ins("mov", "@r13+" if (j, h) != (n - 1, dw - 1) else "@r13", t0)
                    g.ins("rla" if (j, h) == (0, 0) else "rlc", t0)
                    if j >= 1:
                        off = self.REV + 2 * dw * (n - 1 - j) + 2 * h
                        g.ins("mov", t0, f"{off}(r1)")
            # top bit of f (= E_n): mask m7 = -bit
            g.ins("mov", "#0", m7)
            g.ins("subc", "#0", m7)                 # m7 = C - 1
            g.ins("xor", "#-1", m7)                 # m7 = -C
            g.ins("sub", f"#{2 * (16 - 1)}", "r13")
        # window = 0
        for r in w + [c]:
            g.ins("mov", "#0", r)
        if sx:
            g.ins("mov", "#SUMEXT", sx)

        rf_off = None
        rg_off = None
        ncol = 2 * n
        def col_pairs(k):
            if not self.sq:
                return [(i, k - i) for i in range(max(0, k - n + 1), min(k, n - 1) + 1)]
            return [(i, k - i) for i in range(max(0, k - n + 1), k // 2 + 1)]

        def ptr_ins(r, cur, want, base):
            if cur is None:
                return [("mov", base, r)] + ([("add", f"#{want}", r)] if want else [])
            d = want - cur
            return [("add", f"#{d}", r)] if d > 0 else ([("sub", f"#{-d}", r)] if d < 0 else [])

        def ptrs_for(k):
            i, j = col_pairs(k)[0]
            return 2 * dw * i, self.REV + 2 * dw * (n - 1 - j)

        for k in range(ncol):
            g.raw(f"/* column {k} (cycle {g.t}) */")
            # --- products of column k ---
            pairs = col_pairs(k)
            # reduction terms for this column: (sign, j)
            terms = self.terms(k)
            if not self.sq and not self.fsub and 2 <= k + 1 < n:
                g.queue([[("mov", "@r14+", f"{self.rev_off(k + 1) + 2 * h}(r1)")
                          for h in range(dw)]])
            for (sgn, j) in terms:
                self.queue_term(sgn, j)
            if self.sq and n <= k - 0 < 2 * n - 1 and k - n <= n - 2:
                self.queue_top(k - n)
            pend = False
            for idx, (i, j) in enumerate(pairs):
                first = idx == 0
                # pointers
                want_f = 2 * dw * i
                want_g = self.REV + 2 * dw * (n - 1 - j)
                if first and (rf_off, rg_off) != (want_f, want_g):
                    for (a_, b_, c_) in (ptr_ins(self.rf, rf_off, want_f, "r13")
                                         + ptr_ins(self.rg, rg_off, want_g, "r1")):
                        g.ins(a_, b_, c_)
                    rf_off, rg_off = want_f, want_g
                sqterm = self.sq and i == j
                epr = self.sq and j == i + 1
                op1 = ("MPY32" if first else "MAC32") if dw == 2 else ("MPY" if first else "MAC")
                if (sqterm or (epr and dw == 1)) and not self.dly:
                    g.reserve(2 * dw + 3 + (1 if epr else 0))
                if sqterm:
                    for h in range(dw):
                        g.ins("mov", f"@{self.rf}+", [t0, t1][h])
                    rf_off += 2 * dw
                    ops1 = [t0, t1][:dw]
                    ops2 = [t0, t1][:dw]
                else:
                    ops1 = [f"@{self.rf}+"] * dw
                    rf_off += 2 * dw
                    if epr:
                        g.ins("mov", f"@{self.rg}+", t0 if dw == 1 else t1)
                        g.ins("bic", "#1", t0 if dw == 1 else t1)
                        ops2 = [t0 if dw == 1 else t1] + [f"@{self.rg}+"] * (dw - 1)
                    else:
                        ops2 = [f"@{self.rg}+"] * dw
                    rg_off += 2 * dw
                if dw == 2:
                    g.ins("mov", ops1[0], f"&{op1}L")
                    g.ins("mov", ops1[1], f"&{op1}H")
                    if pend:
                        # the previous product's carry: after its result is ready, before
                        # this product's OP2L starts the next operation
                        # (no fillers here when OP2 waits in t0/t1: they use them)
                        g.ins("add", "&SUMEXT", c, fill=not (sqterm or epr))
                        pend = False
                    g.ins("mov", ops2[0], "&OP2L")
                    g.ins("mov", ops2[1], "&OP2H")
                else:
                    g.ins("mov", ops1[0], f"&{op1}")
                    if pend:
                        # the previous product's carry, after this product's OP1 write:
                        # only the OP2 write starts an operation (SLAU367 "Operand
                        # Registers"), so the result stays, and it is ready by now
                        g.ins("add", f"@{sx}", c, rd="SUMEXT")
                        pend = False
                    g.ins("mov", ops2[0], "&OP2")
                if idx == len(pairs) - 1 and k + 1 < ncol and col_pairs(k + 1):
                    # the next column's pointers, in this product's wait
                    nf, ng = ptrs_for(k + 1)
                    ch = ptr_ins(self.rf, rf_off, nf, "r13") + ptr_ins(self.rg, rg_off, ng, "r1")
                    if ch:
                        g.queue([ch], front=True)
                    rf_off, rg_off = nf, ng
                if not first:
                    if self.dly or dw == 1:
                        pend = True      # 16-bit: the last one at the column end
                    else:
                        g.ins("add", "&SUMEXT", c)
            # --- column end ---
            if pend and dw == 2:
                g.ins("add", "&SUMEXT", c)
                pend = False
            if pairs:
                if dw == 2:
                    g.ins("add", "&RES0", w[0])
                    g.ins("addc", "&RES1", w[1], fill=False)
                    g.ins("addc", "#0", w[2])
                else:
                    # RESLO, RESHI through sx, then the last MAC's carry with the
                    # chain's in one addc (gen_common.column_end16)
                    gen_common.column_end16(g.ins, sx, w[0], w[1], c, pend,
                                            hi_kw={"fill": False})
                    pend = False
            g.flush()
            self.out_digit(k)
            if k == ncol - 1:
                break
            # next window
            signed = self.may_be_negative(k)
            if dw == 2:
                hi = w[2]
                if pairs:
                    g.ins("mov", "&RES2", w[0])
                    g.ins("mov", "&RES3", w[1])
                else:
                    g.ins("mov", "#0", w[0])
                    g.ins("mov", "#0", w[1])
                if signed:
                    # t0 = sign of hi (|hi| < 256): its high byte, sign-extended
                    g.ins("mov", hi, t0)
                    g.ins("swpb", t0)
                    g.ins("sxt", t0)
                    g.ins("add", hi, w[0])
                    g.ins("addc", t0, w[1])
                    g.ins("addc", t0, c)
                else:
                    g.ins("add", hi, w[0])
                    g.ins("addc", "#0", w[1])
                    g.ins("addc", "#0", c)
                w = [w[0], w[1], c]
                c = hi
                g.ins("mov", "#0", c)
            else:
                # window (w0 done, w1, c) -> (w1, c, sext(c))
                old = w[0]
                if signed:
                    g.ins("mov", c, old)
                    g.ins("swpb", old)
                    g.ins("sxt", old)
                else:
                    g.ins("mov", "#0", old)
                w = [w[1], c]
                c = old
            self.regs["w"] = w
            self.regs["c"] = c
        self.final(w, c)

    def rev_off(self, j):
        return self.REV + 2 * self.dw * (self.n - 1 - j)

    def may_be_negative(self, k):
        """Column k's carry out may be negative (a subtracted digit at or before k)."""
        first_neg = 7 if self.dw == 2 else 14
        return k >= first_neg

    def terms(self, k):
        n = self.n
        if self.dw == 2:
            spec = [(1, 3), (1, 6), (-1, 7), (1, 8)]
        else:
            spec = [(1, 6), (1, 12), (-1, 14), (1, 16)]
        out = []
        for sgn, d in spec:
            j = k - d
            if 0 <= j < n:
                out.append((sgn, j))
        return out

    def queue_term(self, sgn, j):
        """Column += sgn * q_j: filler chunks that keep no flag from one to the next."""
        w, c, dw = self.regs["w"], self.regs["c"], self.dw
        q = [f"{self.Q + 2 * dw * j + 2 * h}(r1)" for h in range(dw)]
        a, ac = ("add", "addc") if sgn > 0 else ("sub", "subc")
        # top = the register above the digit's words (w[dw]) for 32-bit, c for 16-bit
        top = w[dw] if dw == 2 else c
        if dw == 2:
            self.g.queue([[(a, q[0], w[0]), (ac, "#0", w[1]), (ac, "#0", top)],
                          [(a, q[1], w[1]), (ac, "#0", top)]],
                         [(a, q[0], w[0]), (ac, q[1], w[1]), (ac, "#0", top)])
        else:
            self.g.queue([[(a, q[0], w[0]), (ac, "#0", w[1]), (ac, "#0", top)]])

    def queue_top(self, i):
        """Squaring: column i + n += F_i if the top bit of f is set (E_n = 1)."""
        w, c, dw = self.regs["w"], self.regs["c"], self.dw
        t0, m7 = self.regs["t0"], self.regs["m7"]
        top = w[dw] if dw == 2 else c
        f = [f"{2 * dw * i + 2 * h}(r13)" for h in range(dw)]
        t1 = self.regs["t1"]
        if dw == 2:
            self.g.queue([[("mov", f[0], t0), ("and", m7, t0), ("add", t0, w[0]),
                           ("addc", "#0", w[1]), ("addc", "#0", top)],
                          [("mov", f[1], t0), ("and", m7, t0), ("add", t0, w[1]),
                           ("addc", "#0", top)]],
                         [("mov", f[0], t0), ("mov", f[1], t1), ("and", m7, t0),
                          ("and", m7, t1), ("add", t0, w[0]), ("addc", t1, w[1]),
                          ("addc", "#0", top)])
        else:
            self.g.queue([[("mov", f[0], t0), ("and", m7, t0), ("add", t0, w[0]),
                           ("addc", "#0", w[1]), ("addc", "#0", top)]])

    def out_digit(self, k):
        """Store column k's digit: q_k (k < n) or r_(k-n) - p (k >= n, into h)."""
        g, n, dw = self.g, self.n, self.dw
        w, bb = self.regs["w"], self.regs["bb"]
        if k < n:
            for h in range(dw):
                g.ins("mov", w[h], f"{self.Q + 2 * dw * k + 2 * h}(r1)")
            return
        i = k - n
        if i > 0:
            g.ins("cmp", "#1", bb)                  # C = bb (1: no borrow)
        for h in range(dw):
            pw = P16[dw * i + h]
            pw = -1 if pw == 0xFFFF else pw
            g.ins("sub" if (i == 0 and h == 0) else "subc", f"#{pw}", w[h])
        if k < 2 * n - 1:
            g.ins("mov", "#0", bb)
            g.ins("addc", "#0", bb)
            for h in range(dw):
                g.ins("mov", w[h], f"{2 * (dw * i + h)}(r12)")

    def final(self, w, c):
        """h = d + (p & mask), mask = -(borrow and not top); d's last digit in w."""
        g, dw = self.g, self.dw
        g.raw(f"/* final (cycle {g.t}) */")
        top = w[dw]
        m, m1 = self.regs["bb"], self.regs["t0"]
        # C holds "no borrow" of the last subtraction
        g.ins("mov", "#0", m)
        g.ins("addc", top, m)
        g.ins("sub", "#1", m)                      # mask = C + top - 1
        g.ins("mov", m, m1)
        g.ins("and", "#1", m1)
        for x in range(16):
            pw = P16[x]
            src = m if pw == 0xFFFF else (m1 if pw == 1 else "#0")
            op = "add" if x == 0 else "addc"
            if x >= 16 - dw:
                g.ins(op, src, w[x - (16 - dw)])
            else:
                g.ins(op, src, f"{2 * x}(r12)")
        for h in range(dw):
            g.ins("mov", w[h], f"{2 * (16 - dw + h)}(r12)")
        # The frame (reversed copy, digits) is wiped by the caller: the C entries after
        # each call, sqr_n and the ladder once at their end (WIPE_BELOW in the .S).


pushm = pushm_word


def popm(n, rd):
    """POPM.W #n, Rd (rd the highest register restored)."""
    return popm_word(n, rd - n + 1)


def wipe_below(nbytes):
    """Zero the nbytes below r1 (a callee's frame; nbytes a multiple of 16 plus 2, the
    callee's return address first): PUSHM of zeroed r4-r11, 1 cycle a word. Clobbers
    r4-r11 (the C entries restore r4-r10 after it)."""
    assert nbytes % 16 == 2
    lines = [f"        mov     #0, r{r}" for r in range(4, 12)]
    lines.append("        decd    r1                      /* skip the return address */")
    lines += [f"        .word   0x{pushm(8, 11):04x}                  /* pushm.w #8, r11 */"] * (nbytes // 16)
    lines.append(f"        add     #{nbytes}, r1")
    return "\n".join(lines)


def c_entry(name, body):
    """A C entry around a core: r4-r10 saved (the cores clobber r4-r11), body, restored."""
    return f"""
        .section .text.{name},"ax",@progbits
        .global {name}
        .type   {name},@function
{name}:
        .word   0x{pushm(7, 10):04x}                  /* pushm.w #7, r10 */
{body}        .word   0x{popm(7, 10):04x}                  /* popm.w #7, r10 */
        ret
        .size   {name}, .-{name}"""


def body(mpy, square, fsub=False):
    k = Kernel(mpy, square, fsub)
    k.emit()
    return k.g


HEADER = """/* SPDX-License-Identifier: MIT */
/* GENERATED by arch/msp430x/gen_fep256.py ({mpy}) -- do not edit; see the generator's
 * docstring for the method and arch/msp430x/README.md for the figures.
 *
 * GF(p256) Montgomery kernels, R = 2^256, {desc}.
 *   mb_fep256_mul(h, f, g)   r12 = h, r13 = f, r14 = g: h = f g / 2^256 mod p
 *   mb_fep256_sqr(h, f)      r12 = h, r13 = f: h = f^2 / 2^256 mod p
 *   mb_fep256_sqr_n(h, f, k) r14 = k >= 1 (public): k squarings (h = f first)
 * Bounds: f, g < p (16 little-endian words); h < p. h may alias f or g.
 * Clobbers: r11-r15 (callee-saved r4-r10 restored), the multiplier, the flags.{dlyh}
 * Stack: {stack} bytes (frame {frame}, saved registers 14, two return addresses{extra}).
 * Cycles (incl. call and return, measured): see arch/msp430x/README.md.
 * CT: f, g and h secret. Straight-line code (sqr_n's loop runs k times, k public); no
 * data-dependent address; every multiplier operand is written whole ({width}), so the
 * operand width never depends on data. The cores leave their 64-byte frame (a copy of g
 * or of 2f, the digits q) below the stack: the C entries zero it after each call
 * (PUSHM of zeroed registers), sqr_n and p256_ladder.S once at their end. The
 * multiplier is shared: no interrupt handler may use it while these run
 * (arch/msp430x/README.md).
 * Internal entries (p256_ladder.S): mb_fep256_mul_core, mb_fep256_sqr_core, the same
 * arguments, and mb_fep256_mulsub_core (r14 = a, r15 = b: g = a - b mod p), keep r12,
 * clobber r4-r11 and r13-r15, 66 bytes of stack, need mb_fep256_mpy_begin (before) and
 * mb_fep256_mpy_end (after) around them.
 */
#include "board.h"
"""


def emit_file(mpy):
    out = []
    desc = ("MPY32: 32-bit digits, 32x32 MAC product scanning" if mpy == 32 else
            "16-bit multiplier: 16-bit digits, 16x16 MAC product scanning")
    out.append(HEADER.format(mpy=f"MPY{mpy}", desc=desc, stack=4 + 14 + Kernel.FRAME,
                             frame=Kernel.FRAME, extra="; sqr_n: +2, its count",
                             width="32 bits" if mpy == 32 else "16 bits",
                             dlyh=("\n * MPY32CTL0: MPYDLYWRTEN set during each call, clear "
                                   "again on return (reset value\n * assumed on entry)."
                                   if mpy == 32 else "")))
    out.append("        .text")
    for name, sq, fs in (("mul", False, False), ("mulsub", False, True), ("sqr", True, False)):
        gen = body(mpy, sq, fs)
        core = f"mb_fep256_{name}_core"
        arg = (", r14 = a, r15 = b: h = f (a - b) / 2^256 (a, b < p;\n"
               " * h may alias f, a or b; only for p256_ladder.S)") if fs else \
            (", r14 = g" if not sq else "")
        out.append(f"""
/* {core}: the kernel without the register save. In: r12 = h, r13 = f{arg}.
 * Out: h. Keeps r12; clobbers r4-r11, r13-r15. Model cycles (body, ret included):
 * {gen.t + 6}, of which {sum(1 for l in gen.lines if l.strip() == "nop")} NOPs (waits for the multiplier). */
        .section .text.{core},"ax",@progbits
        .global {core}
        .type   {core},@function
{core}:
        sub     #{Kernel.FRAME}, r1""")
        out.extend(gen.lines)
        out.append(f"""        add     #{Kernel.FRAME}, r1
        ret
        .size   {core}, .-{core}""")
    if mpy == 32 and USE_DLYWRTEN:
        ctl = f"#0x{MPYDLYWRTEN:04x}, &MPY32CTL0"
        dly_on = f"        bis     {ctl}        /* MPYDLYWRTEN, for the cores */\n"
        dly_off = f"        bic     {ctl}        /* MPY32CTL0 at its reset value again */\n"
        dly_what = ("set and clear\n * MPYDLYWRTEN (MPY32CTL0 bit 8), which the cores "
                    "rely on (MPY32CTL0 is at its reset\n * value between calls of the "
                    "backend: no fractional, saturated or delayed-write mode).")
    else:
        dly_on = dly_off = ""
        dly_what = "nothing with the 16-bit multiplier\n * (the MPY32 kernels set MPYDLYWRTEN)."
    entry = {nm: c_entry(f"mb_fep256_{nm}", f"{dly_on}        call    #mb_fep256_{nm}_core\n"
                                            f"{dly_off}{wipe_below(66)}\n") for nm in ("mul", "sqr")}
    out.append(f"""{entry["mul"]}

/* mb_fep256_mpy_begin, _end: what the multiplier needs around calls of the cores (the
 * ladder calls them once): {dly_what} */
        .section .text.mb_fep256_mpy_begin,"ax",@progbits
        .global mb_fep256_mpy_begin
        .type   mb_fep256_mpy_begin,@function
mb_fep256_mpy_begin:
{dly_on}        ret
        .size   mb_fep256_mpy_begin, .-mb_fep256_mpy_begin

        .section .text.mb_fep256_mpy_end,"ax",@progbits
        .global mb_fep256_mpy_end
        .type   mb_fep256_mpy_end,@function
mb_fep256_mpy_end:
{dly_off}        ret
        .size   mb_fep256_mpy_end, .-mb_fep256_mpy_end
{entry["sqr"]}

/* k squarings: the first from f, the others in place on h (k public: the loop count). */
        .section .text.mb_fep256_sqr_n,"ax",@progbits
        .global mb_fep256_sqr_n
        .type   mb_fep256_sqr_n,@function
mb_fep256_sqr_n:
        .word   0x{pushm(7, 10):04x}                  /* pushm.w #7, r10 */
        push    r14
{dly_on}1:      call    #mb_fep256_sqr_core
        mov     r12, r13
        sub     #1, 0(r1)
        jnz     1b
{dly_off}{wipe_below(66)}
        incd    r1
        .word   0x{popm(7, 10):04x}                  /* popm.w #7, r10 */
        ret
        .size   mb_fep256_sqr_n, .-mb_fep256_sqr_n
""")
    return "\n".join(out) + "\n"


ADDSUB_HEADER = """/* SPDX-License-Identifier: MIT */
/* GENERATED by arch/msp430x/gen_fep256.py -- do not edit.
 *
 * GF(p256) addition and subtraction, masked ([SAK18], Algorithm 2); no multiplier.
 *   mb_fep256_add(h, f, g)   r12 = h, r13 = f, r14 = g: h = f + g mod p
 *   mb_fep256_sub(h, f, g)   h = f - g mod p
 * Bounds: f, g < p (16 little-endian words); h < p; h may alias f or g (each word of f
 * and g is read before the same word of h is written).
 * Words 0-7 of the intermediate go through h, words 8-15 stay in r4-r11.
 * Clobbers: r11-r15 (r4-r10 saved with PUSHM/POPM), the flags. Stack: 16 bytes.
 * Cycles (incl. call and return, measured): see arch/msp430x/README.md.
 * CT: f, g, h secret; straight-line code, the correction is p AND a mask made from the
 * carry/borrow (p's words are 0xFFFF, 0 and 1: the masked words are the mask, 0 and
 * the mask's low bit).
 */
"""


def emit_addsub():
    regs = ["r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11"]
    out = [ADDSUB_HEADER, "        .text"]

    def pword(x, m, m1):
        return m if P16[x] == 0xFFFF else (m1 if P16[x] == 1 else "#0")

    for name in ("add", "sub"):
        a, ac = ("add", "addc") if name == "add" else ("sub", "subc")
        out.append(header(f"mb_fep256_{name}_core", f"mb_fep256_{name}_core: r12 = h (kept), "
                          "r13 = f, r14 = g; clobbers r4-r11, r13-r15."))
        # pass 1: s = f +- g, words 0-7 to h, 8-15 in registers
        out += [ins_text(*t) for t in chain(a, ac, [("r15", f"{2 * x}(r12)") for x in range(8)]
                                               + [(r, None) for r in regs])]
        if name == "add":
            # top carry; then d = s - p (borrow -> C = 0)
            out.append("        mov     #0, r13")
            out.append("        addc    #0, r13                 /* top: bit 256 of f + g */")
            for x in range(16):
                pw = {0xFFFF: "#-1", 0: "#0", 1: "#1"}[P16[x]]
                op = "sub" if x == 0 else "subc"
                dst = f"{2 * x}(r12)" if x < 8 else regs[x - 8]
                out.append(f"        {op:7s} {pw}, {dst}")
            # keep s (add p back) iff borrow and not top: mask = C + top - 1
            out.append("        mov     #0, r15")
            out.append("        addc    r13, r15")
            out.append("        sub     #1, r15                 /* mask: f + g < p */")
        else:
            out.append("        mov     #0, r15")
            out.append("        subc    #0, r15                 /* mask = C - 1: f < g */")
        out.append("        mov     r15, r14")
        out.append("        and     #1, r14")
        for x in range(16):
            op = "add" if x == 0 else "addc"
            dst = f"{2 * x}(r12)" if x < 8 else regs[x - 8]
            out.append(f"        {op:7s} {pword(x, 'r15', 'r14')}, {dst}")
        for x in range(8, 16):
            out.append(f"        mov     {regs[x - 8]}, {2 * x}(r12)")
        entry = c_entry(f"mb_fep256_{name}", f"        call    #mb_fep256_{name}_core\n")
        out.append(f"""        ret
        .size   mb_fep256_{name}_core, .-mb_fep256_{name}_core
{entry}""")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------
# The co-Z ladder (replaces src/curve/p256_ladder.c and p256_ladder_loop.c): the same
# sequence of field operations as p256_ladder.c, over the kernels' cores.
R0X, R0Y, R1X, R1Y, T0, T1, T2, T3, T4 = (32 * i for i in range(9))

# XYCZ-ADDC (P = R0, Q = R1) and XYCZ-ADD (P = R1, Q = R0): (op, h, f, g)
ADDC = [("sub", T0, R1X, R0X), ("sqr", T0, T0), ("mul", T1, R0X, T0), ("mul", T2, R1X, T0),
        ("sub", T3, R1Y, R0Y), ("add", T4, R1Y, R0Y), ("sub", T0, T2, T1),
        ("mul", R0Y, R0Y, T0), ("add", T2, T1, T2), ("sqr", T0, T3), ("sub", R1X, T0, T2),
        ("sub", T0, T1, R1X), ("mul", T0, T3, T0), ("sub", R1Y, T0, R0Y), ("sqr", T0, T4),
        ("sub", R0X, T0, T2), ("sub", T0, R0X, T1), ("mul", T0, T4, T0),
        ("sub", R0Y, T0, R0Y)]
ADD = [("sub", T0, R0X, R1X), ("sqr", T0, T0), ("mul", R1X, R1X, T0), ("mul", T2, R0X, T0),
       ("sub", T3, R0Y, R1Y), ("sub", T0, T2, R1X), ("mul", R1Y, R1Y, T0), ("sqr", T0, T3),
       ("sub", T0, T0, R1X), ("sub", R0X, T0, T2), ("sub", T0, R1X, R0X),
       ("mul", T0, T3, T0), ("sub", R0Y, T0, R1Y)]

# The loop's fused step (bits 256..1): the same formulas with three values passed on
# (as the Cortex-M4 ladder does). XYCZ-ADD leaves B - X3 in t1 (the next XYCZ-ADDC's
# X2 - X1 up to sign: only its square is used) and D (B - X3) = Y3 + E in t4 (the next
# F = Y1 + Y2; the swap between them exchanges only the two points); in XYCZ-ADDC,
# Y3' - Y3 = F (X3' - B) - D (B - X3) (E cancels) is XYCZ-ADD's D, so Y3' is never
# formed. 3 additions/subtractions fewer per bit; the state after each step is the plain
# one (R[0], R[1] as p256_ladder.c leaves them), plus t1, t4.
PRO = [("sub", T1, R1X, R0X), ("add", T4, R1Y, R0Y)]
# A difference used only as a product's g is formed by the product's copy of g
# ("mulsub", h, f, a, b: h = f (a - b)), 4 per bit.
ADDC_F = [("sqr", T0, T1), ("mul", T1, R0X, T0), ("mul", T2, R1X, T0),
          ("sub", T3, R1Y, R0Y), ("mulsub", R0Y, R0Y, T2, T1),
          ("add", T2, T1, T2), ("sqr", T0, T3), ("sub", R1X, T0, T2),
          ("mulsub", T3, T3, T1, R1X), ("sub", R1Y, T3, R0Y), ("sqr", T0, T4),
          ("sub", R0X, T0, T2), ("mulsub", T0, T4, R0X, T1)]
ADD_F = [("sub", T3, T0, T3), ("sub", T0, R0X, R1X), ("sqr", T0, T0), ("mul", R1X, R1X, T0),
         ("mul", T2, R0X, T0), ("mulsub", R1Y, R1Y, T2, R1X), ("sqr", T0, T3),
         ("sub", T0, T0, R1X), ("sub", R0X, T0, T2), ("sub", T1, R1X, R0X),
         ("mul", T4, T3, T1), ("sub", R0Y, T4, R1Y)]

LADDER_HEADER = """/* SPDX-License-Identifier: MIT */
/* GENERATED by arch/msp430x/gen_fep256.py -- do not edit.
 *
 * The P-256 co-Z ladder's steps and loop for the MSP430X (replaces src/curve/p256_ladder.c
 * and src/curve/p256_ladder_loop.c): the C entries run exactly p256_ladder.c's sequence of
 * field operations (XYCZ-ADDC 5M + 3S + 11 add/sub, XYCZ-ADD 4M + 2S + 7 sub); the loop's
 * step passes three values from step to step (gen_fep256.py, ADDC_F/ADD_F: 15 add/sub
 * instead of 18, the state after each step as p256_ladder.c leaves it, plus t[1], t[4]),
 * and 4 of its subtractions are done by the product that uses them
 * (mb_fep256_mulsub_core: 11 add/sub calls per bit).
 * mb_fep256_mpy_begin/_end (the kernel file's) bracket every entry: MPYDLYWRTEN with
 * MPY32, nothing with the 16-bit multiplier.
 * Every field operation is a direct call of a
 * kernel's core (mb_fep256_mul_core, mb_fep256_sqr_core of fep256_mul_mpy32.S or _mpy16.S;
 * mb_fep256_add_core, mb_fep256_sub_core of fep256_addsub.S), which keep r12 = h: every
 * pointer is r12 plus a constant of the state layout (p256.h: R[0].x, R[0].y, R[1].x,
 * R[1].y, t[0..4], 32 bytes each), so the steps need no frame.
 *   mb_p256_ladder_cswap_addc(w, bit)  r12 = w, r13 = bit in {{0, 1}}
 *   mb_p256_ladder_add(w)              r12 = w
 *   mb_p256_ladder_loop(w, kw)         r12 = w, r13 = kw (9 little-endian 32-bit words):
 *                                      bits 256..1, each cswap_addc(prev ^ bit) + add;
 *                                      with MB_FAULT_HARDENED (util/fault.h, default 1)
 *                                      the steps counted apart and the scalar rebuilt
 *                                      from the swaps passed and compared with kw, as
 *                                      p256_ladder_loop.c does (docs/FAULTS.md)
 * Clobbers: r11-r15; r4-r10 restored. Stack: {stack} bytes (loop).
 * CT: the state, bit and kw are secret. The swap is a masked exchange (mask = -bit);
 * the loop's branches and addresses depend only on the public bit position. The kernels'
 * frame below the stack and this routine's frame are zeroed before return.
 */
"""


# mb_p256_ladder_loop's frame (bytes): the loop's 10, and the hardening's b, steps, kw and
# the 256-bit rebuilt scalar (its size whether or not MB_FAULT_HARDENED: one layout).
LOOP_FRAME = 10 + 6 + 32 + 4


def emit_ladder():
    out = [LADDER_HEADER.format(stack=2 + 14 + LOOP_FRAME + 4 + 64),
           '#include "util/fault.h"           /* MB_FAULT_HARDENED */', "        .text"]

    def adj(reg, d):
        if d > 0:
            out.append(f"        add     #{d}, {reg}")
        elif d < 0:
            out.append(f"        sub     #{-d}, {reg}")

    def ops(seq, cur):
        """Emit the calls; r12 = w + cur on entry; returns the final cur."""
        for op in seq:
            name, h, f = op[0], op[1], op[2]
            g = op[3] if len(op) > 3 else None
            adj("r12", h - cur)
            cur = h
            out.append("        mov     r12, r13")
            adj("r13", f - h)
            if g is not None:
                out.append("        mov     r12, r14")
                adj("r14", g - h)
            if len(op) > 4:
                out.append("        mov     r12, r15")
                adj("r15", op[4] - h)
            out.append(f"        call    #mb_fep256_{name}_core")
        return cur

    out.append("""
/* p256_swap_int: r12 = w (kept), r15 = mask (0 or 0xffff, the caller's -bit), r11 = where
 * the exchange is recorded (MB_FAULT_HARDENED: *r11 ^= mask & 1, the swap bit the loop
 * rebuilds the scalar from: made from the mask actually applied, after applying it, so
 * a faulted mask or a skipped swap shows): masked exchange of R[0] and R[1] (32 words).
 * Clobbers r13, r14. */
        .section .text.p256_swap_int,"ax",@progbits
        .type   p256_swap_int,@function
p256_swap_int:
        mov     r12, r13""")
    for x in range(32):
        out.append("        mov     @r13+, r14")
        out.append("        xor     62(r13), r14")
        out.append("        and     r15, r14")
        out.append("        xor     r14, -2(r13)")
        out.append("        xor     r14, 62(r13)")
    out.append("""#if MB_FAULT_HARDENED
        mov     r15, r14
        and     #1, r14                 /* the exchange just made */
        xor     r14, 0(r11)             /* b ^= it: a skipped swap shows in the loop's check */
#endif
        ret
        .size   p256_swap_int, .-p256_swap_int

/* p256_step_int: r12 = w (kept), r15 = the swap's mask: swap, then the fused XYCZ-ADDC and XYCZ-ADD
 * (t1, t4 passed on, see gen_fep256.py). Clobbers r4-r11, r13-r15. */
        .section .text.p256_step_int,"ax",@progbits
        .type   p256_step_int,@function
p256_step_int:
        call    #p256_swap_int""")
    cur = ops(ADDC_F + ADD_F, 0)
    adj("r12", -cur)
    out.append("""#if MB_FAULT_HARDENED
        add     #1, 14(r1)              /* the loop's steps (12 of its frame): counted by the
                                         * step itself, so a skipped or repeated one shows */
#endif
        ret
        .size   p256_step_int, .-p256_step_int

/* p256_addc_int: r12 = w (kept), r13 = bit: swap, then XYCZ-ADDC (plain, as
 * p256_ladder.c). Clobbers r4-r11, r13-r15. */
        .section .text.p256_addc_int,"ax",@progbits
        .type   p256_addc_int,@function
p256_addc_int:
        mov     #0, r15
        sub     r13, r15                /* mask = -bit */
#if MB_FAULT_HARDENED
        push    #0                      /* the swap's record (the last bit is p256_coz.c's) */
        mov     r1, r11
#endif
        call    #p256_swap_int
#if MB_FAULT_HARDENED
        incd    r1
#endif""")
    cur = ops(ADDC, 0)
    adj("r12", -cur)
    out.append("""        ret
        .size   p256_addc_int, .-p256_addc_int

/* p256_add_int: r12 = w (kept). XYCZ-ADD. Clobbers r4-r11, r13-r15. */
        .section .text.p256_add_int,"ax",@progbits
        .type   p256_add_int,@function
p256_add_int:""")
    cur = ops(ADD, 0)
    adj("r12", -cur)
    mark = len(out)
    cur = ops(PRO, 0)
    adj("r12", -cur)
    pro = "\n".join(out[mark:])
    del out[mark:]
    out.append(f"""        ret
        .size   p256_add_int, .-p256_add_int

        .section .text.mb_p256_ladder_cswap_addc,"ax",@progbits
        .global mb_p256_ladder_cswap_addc
        .type   mb_p256_ladder_cswap_addc,@function
mb_p256_ladder_cswap_addc:
        .word   0x{pushm(7, 10):04x}                  /* pushm.w #7, r10 */
        call    #mb_fep256_mpy_begin
        call    #p256_addc_int
        call    #mb_fep256_mpy_end
        decd    r1                      /* the kernels' frame: below two return addresses */
{wipe_below(66)}
        incd    r1
        .word   0x{popm(7, 10):04x}                  /* popm.w #7, r10 */
        ret
        .size   mb_p256_ladder_cswap_addc, .-mb_p256_ladder_cswap_addc

        .section .text.mb_p256_ladder_add,"ax",@progbits
        .global mb_p256_ladder_add
        .type   mb_p256_ladder_add,@function
mb_p256_ladder_add:
        .word   0x{pushm(7, 10):04x}                  /* pushm.w #7, r10 */
        call    #mb_fep256_mpy_begin
        call    #p256_add_int
        call    #mb_fep256_mpy_end
        decd    r1
{wipe_below(66)}
        incd    r1
        .word   0x{popm(7, 10):04x}                  /* popm.w #7, r10 */
        ret
        .size   mb_p256_ladder_add, .-mb_p256_ladder_add

/* Frame: 0 = address of the current 16-bit word of kw, 2 = its bits not yet used,
 * shifted to the top (secret), 4 = how many are left, 6 = the previous bit (secret),
 * 8 = iterations left. Bits come from the top of each word by RLA, bit 256 first (bit 0
 * is p256_coz.c's). Branches: on the public counts only.
 * MB_FAULT_HARDENED: a faulted count, bit, swap, word pointer, a skipped or repeated
 * step, or a step on another w multiplies by another scalar, a valid wrong point no
 * curve check sees. So, as p256_ladder_loop.c: 10 = the bit each step used, rebuilt by
 * p256_swap_int from the mask it applied (b ^= mask & 1, secret), 12 = the steps,
 * counted by p256_step_int itself, 14 = kw as passed, 16..47 = the rebuilt scalar
 * (secret), shifted left one bit a step with b entering at the bottom, 48 = w as passed,
 * 50 = nonzero if a step returned another w (r12, which the steps keep). After the loop
 * the rebuilt scalar must equal bits 256..1 of kw, the steps 256 and 50 zero; otherwise
 * R[0] and R[1] of w become (0, 0) (masked, CT), so the result is off the curve and
 * p256_ecdh.c's check refuses it. */
        .section .text.mb_p256_ladder_loop,"ax",@progbits
        .global mb_p256_ladder_loop
        .type   mb_p256_ladder_loop,@function
mb_p256_ladder_loop:
        .word   0x{pushm(7, 10):04x}                  /* pushm.w #7, r10 */
        sub     #{LOOP_FRAME}, r1
        mov     r1, r14                 /* b, steps and the rebuilt scalar start at 0 */
        mov     #{LOOP_FRAME // 2}, r15
3:      mov     #0, 0(r14)
        incd    r14
        sub     #1, r15
        jnz     3b
        mov     r13, 14(r1)
        mov     r12, 48(r1)
        add     #32, r13                /* kw's 16-bit word 16: bit 256 is its bit 0 */
        mov     r13, 0(r1)
        mov     @r13, r15
        swpb    r15
        .rept 7
        add     r15, r15                /* bit 0 -> bit 15 */
        .endr
        mov     r15, 2(r1)
        mov     #1, 4(r1)
        mov     #0, 6(r1)
        mov     #256, 8(r1)
        call    #mb_fep256_mpy_begin    /* MPYDLYWRTEN for the MPY32 mul core */
{pro}
1:      tst     4(r1)
        jnz     2f
        sub     #2, 0(r1)               /* the next lower word */
        mov     0(r1), r13
        mov     @r13, 2(r1)
        mov     #16, 4(r1)
2:      mov     #0, r13
        rla     2(r1)                   /* C = the bit */
        addc    #0, r13
        sub     #1, 4(r1)
        mov     6(r1), r14
        mov     r13, 6(r1)              /* prev = bit */
        xor     r14, r13                /* swap = prev ^ bit */
        mov     #0, r15
        sub     r13, r15                /* mask = -swap */
        mov     r1, r11
        add     #10, r11                /* &b: p256_swap_int records its exchange there */
        call    #p256_step_int
#if MB_FAULT_HARDENED
        mov     r12, r14
        xor     48(r1), r14
        bis     r14, 50(r1)             /* the step lost w */
        mov     48(r1), r12
        mov     10(r1), r14
        rra     r14                     /* C = b */
        .irp    o,16,18,20,22,24,26,28,30,32,34,36,38,40,42,44,46
        rlc     \\o(r1)                 /* rebuilt = rebuilt << 1 | b */
        .endr
#endif
        sub     #1, 8(r1)
        jnz     1b
#if MB_FAULT_HARDENED
        mov     12(r1), r15
        xor     #256, r15               /* bad = steps ^ 256 | (rebuilt ^ (kw >> 1)) | lost w */
        bis     50(r1), r15
        mov     14(r1), r13
        mov     r1, r14
        add     #16, r14
        .rept 16
        mov     2(r13), r10
        mov     @r13+, r9
        rra     r10                     /* C = bit 0 of the next word */
        rrc     r9                      /* this word of kw >> 1 */
        xor     @r14+, r9
        bis     r9, r15
        .endr
        mov     r15, r14
        inv     r14
        inc     r14
        bis     r15, r14                /* bit 15 = (bad != 0) */
        rla     r14
        subc    r15, r15                /* keep = bad ? 0 : 0xffff */
        mov     48(r1), r14             /* w as passed (r12 may be another) */
        mov     #64, r13                /* R[0] and R[1]: 64 words from w */
4:      and     r15, 0(r14)
        incd    r14
        sub     #1, r13
        jnz     4b
        mov     #0, r9
        mov     #0, r10
#endif
        mov     r1, r14                 /* wipe the frame (the rebuilt scalar, b, bits) */
        mov     #{LOOP_FRAME // 2}, r15
5:      mov     #0, 0(r14)
        incd    r14
        sub     #1, r15
        jnz     5b
        call    #mb_fep256_mpy_end
        decd    r1                      /* the kernels' frame: below two return addresses */
{wipe_below(66)}
        incd    r1
        add     #{LOOP_FRAME}, r1
        mov     #0, r11
        mov     #0, r13
        mov     #0, r14
        mov     #0, r15
        .word   0x{popm(7, 10):04x}                  /* popm.w #7, r10 */
        ret
        .size   mb_p256_ladder_loop, .-mb_p256_ladder_loop
""")
    return "\n".join(out) + "\n"


RET2 = """        ret
#if MB_FAULT_HARDENED
        ret                             /* a skipped ret falls into a ret (docs/FAULTS.md) */
#endif"""
FAULT_H = '#include "util/fault.h"           /* MB_FAULT_HARDENED */'


def ret_twice(text):
    """Every routine's RET doubled under MB_FAULT_HARDENED (util/fault.h): a skipped RET
    otherwise falls into the next routine in memory, e.g. a kernel's C entry that runs
    the kernel again on advanced pointers (a valid wrong P-256 result in the fault
    campaign). No cycle on the unfaulted path."""
    out, inc = [], FAULT_H in text
    for line in text.split("\n"):
        if not inc and line.startswith(("        .text", "        .section")):
            out.append(FAULT_H)
            inc = True
        out.append(RET2 if line == "        ret" else line)
    return "\n".join(out)


def main(argv):
    return gen_common.main(argv, {**{HERE / f"fep256_mul_mpy{m}.S": ret_twice(emit_file(m))
                                     for m in (32, 16)},
                                  HERE / "fep256_addsub.S": ret_twice(emit_addsub()),
                                  HERE / "p256_ladder.S": ret_twice(emit_ladder())})


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
