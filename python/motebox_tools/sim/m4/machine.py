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
import io
import os
import re
import stat
import struct
import time
from dataclasses import dataclass, field

import capstone
from elftools.elf.elffile import ELFFile
from elftools.elf.sections import SymbolTableSection
from unicorn import (UC_ARCH_ARM, UC_ERR_EXCEPTION, UC_ERR_FETCH_PROT, UC_ERR_FETCH_UNMAPPED,
                     UC_ERR_INSN_INVALID, UC_HOOK_BLOCK, UC_HOOK_CODE, UC_HOOK_INTR,
                     UC_HOOK_MEM_READ, UC_HOOK_MEM_UNMAPPED, UC_HOOK_MEM_WRITE,
                     UC_MEM_FETCH_UNMAPPED, UC_MEM_WRITE, UC_MEM_WRITE_UNMAPPED, UC_MODE_MCLASS,
                     UC_MODE_THUMB, Uc, UcError)
from unicorn import arm_const as U
from unicorn.unicorn_py3.unicorn import HOOK_CODE_CFUNC, uc_hook_h, uclib

from ...elf import EM_ARM, ElfError, check_elf32
from . import timing as T
from .dwt import PPB_BASE, PPB_SIZE, SystemControlSpace
from .profile import Profiler
from .semihosting import Semihosting
from .trace import Tracer, scan_divides

CODE_BASE, CODE_SIZE = 0x00000000, 4 << 20
RAM_BASE, RAM_SIZE = 0x20000000, 4 << 20


def bare_board(ppb=True):
    """A unicorn Cortex-M4 with the board's flash and RAM mapped (and the System Control
    Space as plain memory when ppb: DEMCR/DWT writes land there, DWT_CYCCNT reads 0) and
    no hooks: the leakage engine and the fault injector build on it."""
    uc = Uc(UC_ARCH_ARM, UC_MODE_THUMB | UC_MODE_MCLASS)
    uc.ctl_set_cpu_model(U.UC_CPU_ARM_CORTEX_M4)
    uc.mem_map(CODE_BASE, CODE_SIZE)
    uc.mem_map(RAM_BASE, RAM_SIZE)
    if ppb:
        uc.mem_map(PPB_BASE, PPB_SIZE)
    return uc


def load_image(uc, path):
    """Write an ELF's loadable segments at their load addresses (.data's initial values
    live in flash). Returns (symbols {name: (value, size)}, top of the image's RAM,
    [(vaddr, filesz, paddr)] of the loaded segments)."""
    from elftools.elf.elffile import ELFFile
    from elftools.elf.sections import SymbolTableSection
    syms, ram_top, loads = {}, RAM_BASE, []
    with open(path, "rb") as f:
        e = ELFFile(f)
        for seg in e.iter_segments():
            if seg["p_type"] == "PT_LOAD" and seg["p_filesz"]:
                uc.mem_write(seg["p_paddr"], seg.data())
                loads.append((seg["p_vaddr"], seg["p_filesz"], seg["p_paddr"]))
            if seg["p_type"] == "PT_LOAD" and seg["p_vaddr"] >= RAM_BASE:
                ram_top = max(ram_top, seg["p_vaddr"] + seg["p_memsz"])
        for sec in e.iter_sections():
            if isinstance(sec, SymbolTableSection):
                for s in sec.iter_symbols():
                    if s.name and s["st_shndx"] != "SHN_UNDEF":
                        syms.setdefault(s.name, (s["st_value"], s["st_size"]))
    return syms, ram_top, loads

# Exit statuses besides the program's own (semihosting exit); as msp430sim where the
# two share a meaning (docs/M4_TIMING.md, `motebox sim m4 --help`).
EXIT_LIMIT = 124               # --max-instructions reached
EXIT_FAULT = 125               # data access to unmapped memory; file cannot be opened
EXIT_ILLEGAL = 201             # undefined instruction, invalid state, unhandled exception
EXIT_FETCH = 202               # instruction fetch from unmapped or non-executable memory
EXIT_STACK = 204               # stack overflow: SP below the end of .data/.bss
EXIT_BUDGET = 206              # cycle budget (--max-cycles) spent
EXIT_ELF = 207                 # malformed, truncated or not a 32-bit ARM executable
EXIT_USAGE = 208               # bad command line
EXIT_HANG = 209                # branch to itself / WFI: nothing can wake the model
EXIT_MAP = 210                 # image outside code/RAM, or no usable vector table
EXIT_INTERNAL = 211            # a simulator bug (one line, no traceback)
EXIT_STATUSES = {
    EXIT_LIMIT: "--max-instructions reached",
    EXIT_FAULT: "data access to unmapped memory, or the file cannot be opened",
    EXIT_ILLEGAL: "undefined instruction, invalid state (even branch target), unhandled exception",
    EXIT_FETCH: "instruction fetch from unmapped or non-executable memory",
    EXIT_STACK: "stack overflow: SP below the end of .data/.bss",
    EXIT_BUDGET: "cycle budget spent (--max-cycles): endless loop?",
    EXIT_ELF: "ELF unreadable, malformed, truncated or not a 32-bit ARM executable",
    EXIT_USAGE: "bad command line",
    EXIT_HANG: "the program hangs (branch to itself, WFI/WFE: the model has no interrupts)",
    EXIT_MAP: "image outside code (0x0, 4 MB) and RAM (0x20000000, 4 MB), or bad vector table",
    EXIT_INTERNAL: "internal simulator error",
}
# The default cycle budget: 3.7x the longest run of the repository's firmware (the O2
# test suite suite-full.elf, 1.64e10 cycles, 18 minutes of model CPU time at 11.5 M
# instructions/s); a stuck loop that is no `b .` ends with EXIT_BUDGET after about an hour.
DEFAULT_MAX_CYCLES = 60_000_000_000
MAX_FILE = 64 << 20            # far above any image for this board, even with debug info
# qemu's exception numbers (target/arm/cpu.h) seen by the interrupt hook
_EXC_NAMES = {1: "undefined instruction", 2: "SVC", 3: "prefetch abort", 4: "data abort",
              17: "no coprocessor", 18: "invalid state", 19: "stack limit",
              22: "unaligned access"}

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
    """The firmware could not be loaded or run; `status` is the exit status to report."""

    def __init__(self, message, status=EXIT_FAULT):
        super().__init__(message)
        self.status = status


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
    leak: object = None         # leakage samples (numpy float32) when run with leak=Probe
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
                 "dyn_bits", "extra", "hang")


def _wide_unaligned(addr, first):
    return (addr & 2) != 0 and (first & 0xE000) == 0xE000 and (first & 0x1800) != 0


class M4:
    def __init__(self, elf_path, *, max_instructions=None, max_cycles=DEFAULT_MAX_CYCLES,
                 trace=False, trace_file=None, trace_window=None, profile=False, stack=True,
                 stdin=b"", leak=None):
        self.elf_path = str(elf_path)
        self.limit = max_instructions or (1 << 62)
        self.limited = max_instructions is not None
        self.budget = max_cycles or (1 << 62)
        self.max_cycles = max_cycles
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
        self.unmapped = None         # (access, address) of the last unmapped access
        uc.hook_add(UC_HOOK_MEM_UNMAPPED, self._hook_unmapped)
        self.cond_addrs = set()
        self.it_tail = {}
        for lo, hi in self._scan_it_blocks():
            uc.hook_add(UC_HOOK_CODE, self._hook_cond, None, lo, hi)
        if self.tracing:
            uc.hook_add(UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, self._hook_mem_trace)
            for addr in scan_divides(self.exec_ranges):
                uc.hook_add(UC_HOOK_CODE, self._hook_div_trace, None, addr, addr)
        # leakage model (leak.py): hooks of its own, none on the timing path
        self.leak = leak
        if leak is not None:
            leak.attach(self)

    # --- loading ------------------------------------------------------------------
    def _load_elf(self):
        """Check the file completely (elf.check_elf32) before pyelftools parses it, then
        load it; anything wrong ends in a SimError naming the file and the problem."""
        path = self.elf_path
        try:
            st = os.stat(path)
            if not stat.S_ISREG(st.st_mode):
                raise SimError(f"{path}: not a regular file", EXIT_ELF)
            if st.st_size > MAX_FILE:
                raise SimError(f"{path}: {st.st_size} bytes: too large for an image", EXIT_ELF)
            with open(path, "rb") as f:
                blob = f.read(MAX_FILE + 1)
        except OSError as e:
            raise SimError(f"cannot open {path}: {e.strerror}") from None
        try:
            check_elf32(blob, EM_ARM)
        except ElfError as e:
            raise SimError(f"{path}: {e}", EXIT_ELF) from None
        try:
            self._parse_elf(ELFFile(io.BytesIO(blob)))
        except SimError:
            raise
        except Exception as e:  # noqa: BLE001  (pyelftools raises several types)
            raise SimError(f"{path}: malformed ELF ({type(e).__name__}: {e})", EXIT_ELF) from None
        self._check_vectors()

    def _parse_elf(self, elf):
        self.exec_ranges, self.load_ranges = [], []
        for seg in elf.iter_segments():
            if seg["p_type"] != "PT_LOAD" or seg["p_memsz"] == 0:
                continue
            addr, data = seg["p_paddr"], seg.data()
            for what, a, size in (("loaded", addr, seg["p_filesz"]),
                                  ("run", seg["p_vaddr"], seg["p_memsz"])):
                if not self._mapped(a, size):
                    raise SimError(f"{self.elf_path}: segment {what} at {a:#x} (+{size:#x}) is "
                                   "outside code (0x0, 4 MB) and RAM (0x20000000, 4 MB)",
                                   EXIT_MAP)
            self.uc.mem_write(addr, data)
            self.load_ranges.append((addr, addr + len(data), bool(seg["p_flags"] & 1)))
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
        ram_ends = [s["p_vaddr"] + s["p_memsz"] for s in elf.iter_segments()
                    if s["p_type"] == "PT_LOAD"
                    and RAM_BASE <= s["p_vaddr"] < RAM_BASE + RAM_SIZE]
        self.ram_top = max(ram_ends, default=RAM_BASE)
        self.has_ram_data = bool(ram_ends)

    def _check_vectors(self):
        """The vector table at 0 (initial SP, reset vector) must come from the image and
        point into RAM and into loaded executable code."""
        where = self.elf_path
        if not any(lo <= 0 and 8 <= hi for lo, hi, _ in self.load_ranges):
            raise SimError(f"{where}: no vector table at 0x0 (no segment loads it)", EXIT_MAP)
        self.sp0, reset = struct.unpack("<II", self.uc.mem_read(0, 8))
        if not reset & 1:
            raise SimError(f"{where}: reset vector {reset:#x} is not a Thumb address", EXIT_MAP)
        if not any(lo <= reset & ~1 < hi and x for lo, hi, x in self.load_ranges):
            raise SimError(f"{where}: reset vector {reset:#x} is outside the loaded code",
                           EXIT_MAP)
        if not RAM_BASE < self.sp0 <= RAM_BASE + RAM_SIZE:
            raise SimError(f"{where}: initial SP {self.sp0:#x} is outside RAM", EXIT_MAP)
        self.reset = reset
        # SP may not go below the end of .data/.bss when the stack starts above them
        self.stack_floor = self.ram_top if self.has_ram_data and self.sp0 > self.ram_top else 0

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
        self._decoding = addr
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
        # `b .` (after nothing but NOPs): with no interrupts in the model, a hang
        b.hang = (last.name == "b" and not last.cond_branch and not last.it_cond
                  and all(t.name in ("nop", "hint") and c == 0xBF00    # NOP.N only
                          for t, c in zip(tms[:-1], struct.unpack_from(f"<{len(tms) - 1}H", code)))
                  and self._branch_target(code, addrs[-1]) == addr)
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
        b.extra = bool((self.track_stack and b.min_sp) or self.tracing or self.limited
                       or b.hang)
        b.func = None
        if self.profiling:
            b.func = self._func_name(addr)
        self.blocks[addr] = b
        return b

    def _branch_target(self, code, addr):
        insn = next(self.md.disasm(code[addr - self._decoding:], addr, 1), None)
        ops = insn.operands if insn is not None else ()
        return ops[0].imm if len(ops) == 1 and ops[0].type == capstone.arm.ARM_OP_IMM else None

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
            if self.cycles >= self.budget and self.exit_code is None:
                self._stop(EXIT_BUDGET, f"cycle budget of {self.max_cycles} cycles spent "
                           f"(--max-cycles N to change, 0 for none): endless loop? "
                           f"(block at pc={addr:#010x})")
        except Exception as e:  # noqa: BLE001
            self.hook_error = e
            self.uc.emu_stop()

    def _stop(self, status, error, pc=None):
        """End the run with status and a one-line error (closing the books at pc)."""
        self.error = error
        self.exit_code = status
        self._finish(pc)
        self.uc.emu_stop()

    def _block_extras(self, b, addr):
        if self.track_stack and (b.min_sp or self.sp_unknown):
            self._note_sp(b)
            if self.exit_code is not None:
                return
        if self.tracing:
            self.tracer.block(addr, b.n)
        if b.hang:
            self._stop(EXIT_HANG, f"program hangs: branch to itself at pc={b.addrs[-1]:#010x} "
                       "(the model has no interrupts)")
        elif self.icount > self.limit:
            self._stop(EXIT_LIMIT, f"instruction limit reached ({self.limit})")

    def _note_sp(self, b):
        """Stack high-water mark: SP at block start plus the block's lowest static SP
        offset; read only in blocks that lower SP or after a run-time SP write."""
        uclib.uc_reg_read(self.uc._uch, U.UC_ARM_REG_SP, self._spbuf_ref)
        low = self._spbuf.value + b.min_sp
        if low < self.min_sp:
            self.min_sp = low
        self.sp_unknown = b.sp_dynamic
        if low < self.stack_floor:
            self._stop(EXIT_STACK, f"stack overflow: SP goes to {low:#010x} in the block at "
                       f"pc={b.addr:#010x}, below {self.stack_floor:#010x} (end of .data/.bss)")

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

    def _hook_unmapped(self, uc, access, addr, size, value, _):
        self.unmapped = (access, addr)
        return False                 # unicorn stops with UC_ERR_*_UNMAPPED

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
            name = _EXC_NAMES.get(intno, "BKPT" if intno == 7 else "exception")
            status = {3: EXIT_FETCH, 4: EXIT_FAULT}.get(intno, EXIT_ILLEGAL)
            what = "instruction fetch from non-executable memory: " if intno == 3 else ""
            self._stop(status, f"{what}exception {intno} ({name}) at pc={pc:#010x} "
                       "(not a semihosting call)", pc)
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
    def _describe(self, e):
        """(one-line error, exit status) for unicorn stopping with UcError e."""
        pc = self.uc.reg_read(U.UC_ARM_REG_PC) & ~1
        access, addr = self.unmapped or (None, None)
        if e.errno in (UC_ERR_FETCH_UNMAPPED, UC_ERR_FETCH_PROT) or access == UC_MEM_FETCH_UNMAPPED:
            at = addr if addr is not None else pc
            return f"instruction fetch from unmapped address {at:#010x} (pc={pc:#010x}; {e})", \
                EXIT_FETCH
        if addr is not None:
            kind = "write to" if access == UC_MEM_WRITE_UNMAPPED else "read from"
            return f"{kind} unmapped address {addr:#010x} at pc={pc:#010x} ({e})", EXIT_FAULT
        if e.errno in (UC_ERR_INSN_INVALID, UC_ERR_EXCEPTION):
            return (f"undefined instruction or invalid state (Thumb bit clear?) at "
                    f"pc={pc:#010x} ({e})", EXIT_ILLEGAL)
        return f"{e} at pc={pc:#010x}", EXIT_FAULT

    def run(self):
        uc = self.uc
        uc.reg_write(U.UC_ARM_REG_SP, self.sp0)
        self.min_sp = self.sp0
        self.t0 = time.perf_counter()
        cpu0 = time.process_time()
        try:
            uc.emu_start(self.reset, 0xFFFFFFFF)
        except UcError as e:
            self.error, self.exit_code = self._describe(e)
            self._finish(None)
        if self.hook_error is not None:
            raise self.hook_error
        if self.exit_code is None:
            pc = uc.reg_read(U.UC_ARM_REG_PC) & ~1
            try:
                hws = struct.unpack("<HH", uc.mem_read(pc - 2, 4))
            except UcError:
                hws = ()
            if 0xBF30 in hws or 0xBF20 in hws:    # unicorn stops at WFI/WFE
                self.error = (f"program hangs: WFI/WFE at pc={pc:#010x} "
                              "(the model has no interrupts)")
                self.exit_code = EXIT_HANG
            else:
                self.error = f"emulation stopped without an exit call at pc={pc:#010x}"
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
                      leak=self.leak.samples() if self.leak is not None else None,
                      seconds=seconds, cpu_seconds=cpu, error=self.error,
                      warnings=self.warnings)


def run(elf, *, max_instructions=None, max_cycles=DEFAULT_MAX_CYCLES, trace=False,
        trace_file=None, trace_window=None, profile=False, stack=True, stdin=b"",
        console=None, leak=None):
    """Run firmware `elf` to its semihosting exit. Returns a Result (never raises for
    program faults: see Result.error and Result.exit_code, EXIT_STATUSES); raises
    SimError (with .status) if the file cannot be loaded. max_cycles: the cycle budget
    (0 or None: none); stack=True also stops a stack overflow into .data/.bss.

    trace: compute Result.trace_hash over executed blocks, IT-skipped instructions, data
    addresses and divide operand widths (docs/M4_TIMING.md); trace_file: also write it;
    trace_window=("begin_fn", "end_fn"): record only from entering begin_fn until entering
    end_fn. profile: Result.profile per function. stack: Result.max_stack.
    leak: a leak.Probe (leakage model inside a window): Result.leak, the samples."""
    sim = M4(elf, max_instructions=max_instructions, max_cycles=max_cycles, trace=trace,
             trace_file=trace_file, trace_window=trace_window, profile=profile, stack=stack,
             stdin=stdin, leak=leak)
    sim.semi.console = console
    return sim.run()
