# SPDX-License-Identifier: MIT
"""Cortex-M4 cycle model, the machine: runs a firmware ELF for QEMU's mps2-an386 and
counts cycles.

Execution is unicorn's (Thumb-2, M-class, Cortex-M4); timing is ours: every basic block
is decoded once with capstone, each instruction classified by `timing` (the TRM's
Table 3-1 and 3.3.2, written down in docs/M4_TIMING.md), and the block's cost cached.
At run time a block hook charges the previous block (taken or not-taken end, branch
target alignment, pipelining across the block boundary); a code hook runs only on
instructions under IT whose cost depends on their condition.

Board: vector table at 0 (initial SP, reset vector), code at 0x0 (4 MB), RAM at
0x20000000 (4 MB), System Control Space with DEMCR/DWT (`dwt`: DWT_CYCCNT = modelled
cycles), semihosting through BKPT 0xAB (`semihosting`: console, exit status). `trace`
records the execution trace, `profile` the per-function profile.
"""
import bisect
import ctypes
import re
import struct
import time
from dataclasses import dataclass, field

import capstone
from elftools.elf.elffile import ELFFile
from elftools.elf.sections import SymbolTableSection
from unicorn import (UC_ARCH_ARM, UC_HOOK_BLOCK, UC_HOOK_CODE, UC_HOOK_INTR,
                     UC_HOOK_MEM_READ, UC_HOOK_MEM_WRITE, UC_MEM_WRITE, UC_MODE_MCLASS,
                     UC_MODE_THUMB, Uc, UcError)
from unicorn import arm_const as U
from unicorn.unicorn_py3.unicorn import HOOK_CODE_CFUNC, uc_hook_h, uclib

from . import timing as T
from .dwt import PPB_BASE, PPB_SIZE, SystemControlSpace
from .profile import Profiler
from .semihosting import Semihosting
from .trace import Tracer, scan_divides

CODE_BASE, CODE_SIZE = 0x00000000, 4 << 20
RAM_BASE, RAM_SIZE = 0x20000000, 4 << 20

EXIT_LIMIT = 124               # --max-instructions reached
EXIT_FAULT = 125               # the program faulted (unmapped access, undefined, ...)

# capstone condition code -> passes(flags nibble NZCV)
_CC_PASS = {}
for _cc in range(1, 16):
    for _f in range(16):
        n, z, c, v = _f >> 3 & 1, _f >> 2 & 1, _f >> 1 & 1, _f & 1
        _CC_PASS[_cc, _f] = {
            1: z, 2: not z, 3: c, 4: not c, 5: n, 6: not n, 7: v, 8: not v,
            9: c and not z, 10: (not c) or z, 11: n == v, 12: n != v,
            13: (not z) and n == v, 14: z or n != v, 15: True}[_cc]


class SimError(Exception):
    """The firmware could not be loaded or run."""


@dataclass
class Result:
    exit_code: int
    stdout: bytes
    stderr: bytes
    console: bytes              # stdout and stderr interleaved in program order
    cycles: int                 # modelled cycles from reset to exit
    instructions: int
    max_stack: int              # bytes below the initial SP reached (high-water mark)
    trace_hash: str = None      # sha256 of the instruction/data-address trace (trace=True)
    profile: dict = None        # name -> {"calls", "self", "inclusive", "instructions"}
    rules: dict = None          # cycles by timing rule (profile=True); sums to cycles
    seconds: float = 0.0        # wall time of the run
    cpu_seconds: float = 0.0    # process CPU time of the run
    error: str = None           # why the run stopped abnormally (fault, limit)
    warnings: list = field(default_factory=list)

    @property
    def mips(self):
        """Million instructions per CPU second."""
        return self.instructions / self.cpu_seconds / 1e6 if self.cpu_seconds else 0.0


class _Block:
    __slots__ = ("addr", "size", "n", "fall", "tms", "addrs", "dyn", "ends_branch",
                 "always_taken", "c_fall", "c_taken", "p_var", "exit_fall", "exit_taken",
                 "first_mem", "wide_unal", "min_sp", "sp_dynamic", "func", "is_call", "index",
                 "dyn_bits", "extra")


def _wide_unaligned(addr, first):
    return (addr & 2) != 0 and (first & 0xE000) == 0xE000 and (first & 0x1800) != 0


class M4:
    def __init__(self, elf_path, *, max_instructions=None, trace=False, trace_file=None,
                 trace_window=None, profile=False, stack=True, stdin=b""):
        self.elf_path = str(elf_path)
        self.limit = max_instructions or (1 << 62)
        self.limited = max_instructions is not None
        self.tracing = trace or trace_file is not None
        self.trace_file = trace_file
        self.profiling = profile
        self.track_stack = stack
        self.warnings = []

        self.uc = uc = Uc(UC_ARCH_ARM, UC_MODE_THUMB | UC_MODE_MCLASS)
        uc.ctl_set_cpu_model(U.UC_CPU_ARM_CORTEX_M4)
        uc.mem_map(CODE_BASE, CODE_SIZE)
        uc.mem_map(RAM_BASE, RAM_SIZE)
        self._load_elf()
        self.md = capstone.Cs(capstone.CS_ARCH_ARM,
                              capstone.CS_MODE_THUMB | capstone.CS_MODE_MCLASS)
        self.md.detail = True

        self.blocks = {}
        self.memo = {}
        self.cycles = 0              # settled: every block before the current one
        self.icount = 0
        self.cur = None
        self.entry = T.NEUTRAL       # timing state before the current block
        self.mask = 0                # IT-skipped instructions of the current block
        self.fast = True
        self.exit_code = None
        self.error = None
        self.min_sp = None
        self.t0 = None
        self.unhooked_cond = 0

        self.semi = Semihosting(uc, self._now, self.ram_top, self.sp0, stdin, self.warnings)
        self.scs = SystemControlSpace(self._now)
        self.tracer = None
        if trace_window:
            self.tracing = True
            window = tuple(self._symbol(name) for name in trace_window)
        else:
            window = None
        if self.tracing:
            self.tracer = Tracer(trace_file, window)
            self._trace = self.tracer.record
        self.profiler = Profiler(self._func_name) if self.profiling else None

        uc.mmio_map(PPB_BASE, PPB_SIZE, self.scs.read, None, self.scs.write, None)
        # A memory hook on the PPB makes unicorn keep PC exact at every access, which
        # the DWT_CYCCNT read needs (it reports cycles up to the reading instruction).
        uc.hook_add(UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, self._hook_nothing, None,
                    PPB_BASE, PPB_BASE + PPB_SIZE - 1)
        # The block hook is registered through the C API directly: the binding's
        # generic wrapper costs more than the hook itself.
        self._spbuf = ctypes.c_uint32()
        self._spbuf_ref = ctypes.byref(self._spbuf)
        self.sp_unknown = False
        self.hook_error = None
        self._block_cb = HOOK_CODE_CFUNC(self._hook_block)
        self._block_h = uc_hook_h()
        err = uclib.uc_hook_add(uc._uch, ctypes.byref(self._block_h), UC_HOOK_BLOCK,
                                ctypes.cast(self._block_cb, ctypes.c_void_p), None, 1, 0)
        if err:
            raise SimError(f"unicorn: cannot add the block hook ({err})")
        uc.hook_add(UC_HOOK_INTR, self._hook_intr)
        self.cond_addrs = set()
        self.it_tail = {}
        for lo, hi in self._scan_it_blocks():
            uc.hook_add(UC_HOOK_CODE, self._hook_cond, None, lo, hi)
        if self.tracing:
            uc.hook_add(UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, self._hook_mem_trace)
            for addr in scan_divides(self.exec_ranges):
                uc.hook_add(UC_HOOK_CODE, self._hook_div_trace, None, addr, addr)

    # --- loading ------------------------------------------------------------------
    def _load_elf(self):
        try:
            f = open(self.elf_path, "rb")
        except OSError as e:
            raise SimError(f"cannot open {self.elf_path}: {e.strerror}") from None
        with f:
            try:
                elf = ELFFile(f)
            except Exception as e:  # pyelftools raises several types
                raise SimError(f"{self.elf_path}: not an ELF file ({e})") from None
            if elf["e_machine"] != "EM_ARM" or elf.elfclass != 32:
                raise SimError(f"{self.elf_path}: not a 32-bit ARM ELF file")
            self.exec_ranges = []
            for seg in elf.iter_segments():
                if seg["p_type"] != "PT_LOAD" or seg["p_memsz"] == 0:
                    continue
                addr, data = seg["p_paddr"], seg.data()
                if not (self._mapped(addr, seg["p_filesz"])):
                    raise SimError(f"segment at {addr:#x} (+{seg['p_filesz']:#x}) is "
                                   "outside code (0x0, 4 MB) and RAM (0x20000000, 4 MB)")
                self.uc.mem_write(addr, data)
                if seg["p_flags"] & 1:
                    self.exec_ranges.append((addr, data))
            self.funcs, labels = [], []
            for sec in elf.iter_sections():
                if isinstance(sec, SymbolTableSection):
                    for sym in sec.iter_symbols():
                        kind = sym["st_info"]["type"]
                        if kind == "STT_FUNC" and sym.name:
                            a = sym["st_value"] & ~1
                            self.funcs.append((a, a + sym["st_size"], sym.name))
                        elif (kind == "STT_NOTYPE" and sym.name and sym.name[0] != "$"
                              and sym["st_shndx"] != "SHN_UNDEF"
                              and sym["st_value"] < CODE_SIZE):
                            labels.append((sym["st_value"] & ~1, sym.name))
            self.funcs.sort()
            # assembly routines often have no size: they run to the next function
            self.funcs = [(a, e if e > a else (self.funcs[k + 1][0] if k + 1 < len(self.funcs)
                                               else a + 2), name)
                          for k, (a, e, name) in enumerate(self.funcs)]
            self.func_starts = [fn[0] for fn in self.funcs]
            labels.sort()
            self.labels = labels
            self.label_starts = [lb[0] for lb in labels]
            self.ram_top = max((s["p_vaddr"] + s["p_memsz"] for s in elf.iter_segments()
                                if s["p_type"] == "PT_LOAD"
                                and RAM_BASE <= s["p_vaddr"] < RAM_BASE + RAM_SIZE),
                               default=RAM_BASE)
        self.sp0, reset = struct.unpack("<II", self.uc.mem_read(0, 8))
        if not reset & 1:
            raise SimError(f"reset vector {reset:#x} is not a Thumb address")
        self.reset = reset

    def _symbol(self, name):
        for a, _, fn in self.funcs:
            if fn == name:
                return a
        for a, fn in self.labels:
            if fn == name:
                return a
        raise SimError(f"{self.elf_path}: no symbol {name!r} for the trace window")

    @staticmethod
    def _mapped(addr, size):
        end = addr + size
        return (CODE_BASE <= addr and end <= CODE_BASE + CODE_SIZE) or \
            (RAM_BASE <= addr and end <= RAM_BASE + RAM_SIZE)

    def _scan_it_blocks(self):
        """Address ranges of instructions under IT (every even offset of the executable
        segments that could be an IT; false candidates only add hooks never hit)."""
        ranges = []
        md = capstone.Cs(capstone.CS_ARCH_ARM, capstone.CS_MODE_THUMB | capstone.CS_MODE_MCLASS)
        md.detail = True
        for base, data in self.exec_ranges:
            for m in re.finditer(rb"[\x01-\xff]\xbf", data):
                off = m.start()
                if off & 1 or not data[off] & 0x0F:
                    continue
                insns = list(md.disasm(data[off:off + 18], base + off, 5))
                if not insns or not insns[0].mnemonic.startswith("it"):
                    continue
                count = len(insns[0].mnemonic) - 1   # it, itt, itte, ...
                body = insns[1:1 + count]
                if len(body) == count:
                    ranges.append((body[0].address, body[-1].address))
                    self.cond_addrs.update(i.address for i in body)
                    conds = self._it_conditions(insns[0])
                    for k, i in enumerate(body[1:], 1):   # a TB may start mid-block
                        self.it_tail[i.address] = (insns[0].address, conds[k:])
        return ranges

    # --- decoding and block costs -----------------------------------------------
    def _decode(self, addr, size):
        code = bytes(self.uc.mem_read(addr, size))
        b = _Block()
        b.addr, b.size, b.fall = addr, size, addr + size
        tms, addrs, dyn = [], [], {}
        it_left, it_conds = 0, []
        tail = self.it_tail.get(addr)
        p = self.cur
        if tail and p is not None and p.fall == addr and tail[0] in p.addrs:
            # unicorn ended the previous block inside an IT block (at a page boundary):
            # the first instructions here still carry its conditions
            it_conds = list(tail[1])
            it_left = len(it_conds)
        for insn in self.md.disasm(code, addr):
            cond = 0
            name = insn.insn_name()
            if it_left:
                cond = it_conds.pop(0)
                it_left -= 1
            tm = T.classify(insn, cond)
            if name == "it":
                it_conds = self._it_conditions(insn)
                it_left = len(it_conds)
            if cond and not tm.writes_pc:
                if insn.address in self.cond_addrs:
                    dyn[insn.address] = len(tms)
                else:
                    self.unhooked_cond += 1   # timed as executed
            tms.append(tm)
            addrs.append(insn.address)
        if sum(t.size for t in tms) != size:
            raise SimError(f"capstone could not decode the block at {addr:#x}")
        b.tms, b.addrs, b.dyn, b.n, b.index = tms, addrs, dyn, len(tms), None
        b.dyn_bits = sum(1 << i for i in dyn.values())
        last = tms[-1]
        b.ends_branch = last.kind == T.BR
        b.always_taken = b.ends_branch and not last.cond_branch and not last.it_cond
        b.is_call = last.name in ("bl", "blx")
        c, b.exit_fall = self._cost(b, T.NEUTRAL, 0, False, False)
        b.c_fall = c
        if b.ends_branch:
            c, b.exit_taken = self._cost(b, T.NEUTRAL, 0, True, False)
            b.c_taken = c
            b.p_var = last.pkind != "load"
        else:
            b.c_taken, b.exit_taken, b.p_var = b.c_fall, b.exit_fall, False
        b.first_mem = bool(tms[0].addr_regs)
        b.wide_unal = _wide_unaligned(addr, struct.unpack_from("<H", code)[0])
        low = sp = 0
        b.sp_dynamic = False
        for tm in tms:
            if tm.sp_delta is None:
                b.sp_dynamic = True
                break
            sp += tm.sp_delta
            low = min(low, sp)
        b.min_sp = low
        b.extra = bool((self.track_stack and b.min_sp) or self.tracing or self.limited)
        b.func = None
        if self.profiling:
            b.func = self._func_name(addr)
        self.blocks[addr] = b
        return b

    def _func_name(self, addr):
        """The function (ELF STT_FUNC) holding addr, else the nearest label before it."""
        i = bisect.bisect_right(self.func_starts, addr) - 1
        if i >= 0 and addr < self.funcs[i][1]:
            return self.funcs[i][2]
        j = bisect.bisect_right(self.label_starts, addr) - 1
        return self.labels[j][1] if j >= 0 else f"?{addr:#x}"

    @staticmethod
    def _it_conditions(insn):
        first = insn.cc
        inverse = first + 1 if first % 2 else first - 1   # EQ(1)<->NE(2), ...
        conds = [first]
        for ch in insn.mnemonic[2:].split(".")[0]:
            conds.append(first if ch == "t" else inverse)
        return conds

    def _cost(self, b, entry, mask, taken, tgt_wu, upto=None, why=None):
        """Cycles of block b (or of its first `upto` instructions) and the exit state.
        taken: the last instruction, a branch or PC write, was executed (else skipped /
        not taken). why: a dict to add the cycles to by rule (not memoised)."""
        key = (b.addr, b.size, entry, mask, taken, tgt_wu, upto)
        if why is None:
            hit = self.memo.get(key)
            if hit is not None:
                return hit
        total, prev = 0, entry
        tms = b.tms if upto is None else b.tms[:upto]
        last = len(b.tms) - 1
        for i, tm in enumerate(tms):
            skipped = bool(mask >> i & 1)
            if i == last and upto is None and tm.kind == T.BR and not taken:
                if tm.it_cond:
                    skipped = True
            c, prev = T.step(tm, prev, skipped, why)
            total += c
            if i == last and upto is None and tm.kind == T.BR and taken and not skipped:
                total += T.refill(tm, tgt_wu, why)
                prev = T.NEUTRAL
        if why is None:
            self.memo[key] = (total, prev)
        return total, prev

    def _breakdown(self, b, entry, mask, taken, tgt_wu):
        key = (b.addr, b.size, entry, mask, taken, tgt_wu)
        memo = self.profiler.why_memo
        hit = memo.get(key)
        if hit is None:
            hit = {}
            self._cost(b, entry, mask, taken, tgt_wu, why=hit)
            memo[key] = hit
        return hit

    # --- hooks ------------------------------------------------------------------
    def _settle(self, nxt_addr, nxt):
        """Charge the current block, given where execution went next."""
        p = self.cur
        taken = p.ends_branch and (p.always_taken or nxt_addr != p.fall)
        if self.fast:
            if taken:
                c = p.c_taken + (p.p_var and nxt is not None and nxt.wide_unal)
                self.entry = p.exit_taken
            else:
                c = p.c_fall
                self.entry = p.exit_fall
        else:
            wu = bool(taken and nxt is not None and nxt.wide_unal)
            skips = p.dyn_bits & ~self.mask
            c, self.entry = self._cost(p, self._entry_of_cur, skips, taken, wu)
            if self.tracing and p.dyn_bits:
                self._trace(b"S%08x %x\n" % (p.addr, skips))
        self.cycles += c
        if self.profiling:
            wu = bool(taken and nxt is not None and nxt.wide_unal)
            why = self._breakdown(p, self._entry_of_cur, p.dyn_bits & ~self.mask, taken, wu)
            self.profiler.add_rules(why)
            self.profiler.block(p, c, taken, nxt_addr, self.cycles)

    def _hook_block(self, uch, addr, size, _):
        """Charge the previous block; enter block `addr`. Runs once per executed block,
        so the common case (no IT skips, no pairing across the boundary) is kept short.
        Registered through the C API: exceptions must not escape into unicorn."""
        try:
            b = self.blocks.get(addr)
            if b is None or b.size != size:
                b = self._decode(addr, size)
            p = self.cur
            if p is not None:
                if self.fast:
                    if p.ends_branch and (p.always_taken or addr != p.fall):
                        self.cycles += p.c_taken + (p.p_var and b.wide_unal)
                        self.entry = p.exit_taken
                    else:
                        self.cycles += p.c_fall
                        self.entry = p.exit_fall
                else:
                    self._settle(addr, b)
            self.cur = b
            self._entry_of_cur = entry = self.entry
            if b.dyn:
                self.mask = 0
                self.fast = False
            else:
                self.fast = (entry is None or not b.first_mem) and not self.profiling
            self.icount += b.n
            if b.extra or self.sp_unknown:
                self._block_extras(b, addr)
        except Exception as e:  # noqa: BLE001
            self.hook_error = e
            self.uc.emu_stop()

    def _block_extras(self, b, addr):
        if self.track_stack and (b.min_sp or self.sp_unknown):
            self._note_sp(b)
        if self.tracing:
            self.tracer.block(addr, b.n)
        if self.icount > self.limit:
            self.error = f"instruction limit reached ({self.limit})"
            self.exit_code = EXIT_LIMIT
            self._finish(None)
            self.uc.emu_stop()

    def _note_sp(self, b):
        """Stack high-water mark: SP at block start plus the block's lowest static SP
        offset; read only in blocks that lower SP or after a run-time SP write."""
        uclib.uc_reg_read(self.uc._uch, U.UC_ARM_REG_SP, self._spbuf_ref)
        low = self._spbuf.value + b.min_sp
        if low < self.min_sp:
            self.min_sp = low
        self.sp_unknown = b.sp_dynamic

    def _hook_cond(self, uc, addr, size, _):
        """An instruction under IT is executing. unicorn calls this hook only when the
        condition passes (the check is re-done here in case a version calls it always);
        instructions of the block never seen here failed their condition."""
        b = self.cur
        i = b.dyn.get(addr) if b is not None else None
        if i is None:
            return
        flags = uc.reg_read(U.UC_ARM_REG_XPSR) >> 28
        if _CC_PASS[b.tms[i].it_cond, flags]:
            self.mask |= 1 << i

    def _hook_nothing(self, uc, access, addr, size, value, _):
        pass

    def _hook_mem_trace(self, uc, access, addr, size, value, _):
        self._trace(b"%c%08x %d\n" % (87 if access == UC_MEM_WRITE else 82, addr, size))

    def _hook_div_trace(self, uc, addr, size, _):
        hw1, hw2 = struct.unpack("<HH", uc.mem_read(addr, 4))
        rn = uc.reg_read(U.UC_ARM_REG_R0 + (hw1 & 15)) if hw1 & 15 < 13 else 0
        rm = uc.reg_read(U.UC_ARM_REG_R0 + (hw2 & 15)) if hw2 & 15 < 13 else 0
        # 3.3.1: divide time depends on the operands' leading zeros/ones
        self._trace(b"D%08x %d %d\n" % (addr, rn.bit_length(), rm.bit_length()))

    def _now(self):
        """Modelled cycles before the instruction at PC (in the current block)."""
        b = self.cur
        if b is None:
            return self.cycles
        pc = self.uc.reg_read(U.UC_ARM_REG_PC) & ~1
        if b.index is None:
            b.index = {a: i for i, a in enumerate(b.addrs)}
        i = b.index.get(pc)
        if i is None:
            return self.cycles
        c, _ = self._cost(b, self._entry_of_cur, b.dyn_bits & ~self.mask, False, False,
                          upto=i)
        return self.cycles + c

    def _finish(self, pc):
        """Close the books at the instruction at pc (included), or at the block end."""
        b = self.cur
        if b is not None:
            if pc is None:
                i = b.n
            else:
                if b.index is None:
                    b.index = {a: j for j, a in enumerate(b.addrs)}
                i = b.index.get(pc, b.n - 1) + 1
            skips = b.dyn_bits & ~self.mask & ((1 << i) - 1)
            c, _ = self._cost(b, self._entry_of_cur, skips, False, False, upto=i)
            self.cycles += c
            if self.tracing and b.dyn_bits:
                self._trace(b"S%08x %x\n" % (b.addr, skips))
            self.icount -= b.n - i
            if self.profiling:
                why = {}
                self._cost(b, self._entry_of_cur, skips, False, False, upto=i, why=why)
                self.profiler.add_rules(why)
                self.profiler.tail(b, c, i, self.cycles)
        self.cur = None

    # --- semihosting ----------------------------------------------------------------
    def _hook_intr(self, uc, intno, _):
        pc = uc.reg_read(U.UC_ARM_REG_PC) & ~1
        try:
            hw = struct.unpack("<H", uc.mem_read(pc, 2))[0]
        except UcError:
            hw = 0
        if intno != 7 or hw != 0xBEAB:   # EXCP_BKPT with the semihosting immediate
            self.error = f"exception {intno} at pc={pc:#010x} (not a semihosting call)"
            self.exit_code = EXIT_FAULT
            self._finish(pc)
            uc.emu_stop()
            return
        op = uc.reg_read(U.UC_ARM_REG_R0)
        arg = uc.reg_read(U.UC_ARM_REG_R1)
        try:
            ret = self.semi.call(op, arg, pc)
        except UcError as e:
            self.error = f"semihosting call {op:#x} at pc={pc:#010x}: bad pointer ({e})"
            self.exit_code = EXIT_FAULT
            ret = None
        else:
            if ret is None:             # the program exited
                self.exit_code = self.semi.exit_code
        if ret is None:                 # exit or error: stop here
            self._finish(pc)
            uc.emu_stop()
            return
        uc.reg_write(U.UC_ARM_REG_R0, ret & 0xFFFFFFFF)
        uc.reg_write(U.UC_ARM_REG_PC, (pc + 2) | 1)

    # --- running ----------------------------------------------------------------------
    def run(self):
        uc = self.uc
        uc.reg_write(U.UC_ARM_REG_SP, self.sp0)
        self.min_sp = self.sp0
        self.t0 = time.perf_counter()
        cpu0 = time.process_time()
        try:
            uc.emu_start(self.reset, 0xFFFFFFFF)
        except UcError as e:
            pc = uc.reg_read(U.UC_ARM_REG_PC) & ~1
            self.error = f"{e} at pc={pc:#010x}"
            self.exit_code = EXIT_FAULT
            self._finish(None)
        if self.hook_error is not None:
            raise self.hook_error
        if self.exit_code is None:
            self.error = "emulation stopped without an exit call"
            self.exit_code = EXIT_FAULT
            self._finish(None)
        seconds = time.perf_counter() - self.t0
        cpu = time.process_time() - cpu0
        trace_hash = self.tracer.finish(self.exit_code, self.cycles) if self.tracing else None
        if self.unhooked_cond:
            self.warnings.append(f"{self.unhooked_cond} IT-conditional instructions outside "
                                 "the executable segments were timed as executed")
        semi = self.semi
        return Result(exit_code=self.exit_code, stdout=bytes(semi.out), stderr=bytes(semi.err),
                      console=bytes(semi.both),
                      cycles=self.cycles, instructions=self.icount,
                      max_stack=self.sp0 - self.min_sp if self.track_stack else 0,
                      trace_hash=trace_hash,
                      profile=self.profiler.prof if self.profiling else None,
                      rules=self.profiler.rules if self.profiling else None,
                      seconds=seconds, cpu_seconds=cpu, error=self.error,
                      warnings=self.warnings)


def run(elf, *, max_instructions=None, trace=False, trace_file=None, trace_window=None,
        profile=False, stack=True, stdin=b"", console=None):
    """Run firmware `elf` to its semihosting exit. Returns a Result (never raises for
    program faults: see Result.error); raises SimError if the file cannot be loaded.

    trace: compute Result.trace_hash over executed blocks, IT-skipped instructions, data
    addresses and divide operand widths (docs/M4_TIMING.md); trace_file: also write it;
    trace_window=("begin_fn", "end_fn"): record only from entering begin_fn until entering
    end_fn. profile: Result.profile per function. stack: Result.max_stack."""
    sim = M4(elf, max_instructions=max_instructions, trace=trace, trace_file=trace_file,
             trace_window=trace_window, profile=profile, stack=stack, stdin=stdin)
    sim.semi.console = console
    return sim.run()
