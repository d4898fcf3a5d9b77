# SPDX-License-Identifier: MIT
"""Single-fault injection in the Cortex-M4 model (docs/FAULTS.md, "Cortex-M4"): the
three fault models of the MSP430 simulator, on unicorn, without the cycle model.

Counted instructions: between the first arrival at `begin` (before it) and the first at
`end`, the executed instructions whose address lies in one of `ranges` (default: all
code). IT-conditional instructions whose condition fails are not counted (they do
nothing: unicorn does not report them). Index N is the N-th counted one, from 0.

  skip N        instruction N has no effect: it is replaced by a NOP of its size for one
                step, so PC moves past it, a skipped branch is not taken, and inside an
                IT block the IT state still advances (the instructions after it keep
                their conditions). A skipped IT instruction leaves its block
                unconditional: every instruction of it runs.
  flip N:B      after instruction N, bit B of its destination is inverted: the
                lowest-numbered core register it wrote (r0..r12, sp, lr; never pc), or
                APSR (number 16; B one of the flags, 28..31 = V C Z N) when it only set
                flags (cmp, tst, ...); no destination: nothing is flipped. An
                instruction under IT whose condition fails still has its destination.
  load N:B      bit B of the first value instruction N reads from data memory is
                inverted before it uses it (in memory for that one instruction: a byte
                or halfword load has 8 or 16 bits; instruction fetches are not data
                reads).

How (fast): the ELF is loaded once, the flash write-protected (a faulted store into it
stops the run), and the machine is snapshotted (context + RAM) on arrival at `begin`.
The unfaulted reference run of the window stops at each counted instruction that has
faults to inject (an address-range code hook on the counted functions, installed before
any code is translated: unicorn does not call hooks added later from code it translated
before); there the state is saved, and each fault run restores it, injects, and runs on
to the program's exit (semihosting) with an instruction budget. No per-instruction
hook runs outside the counted functions; a load flip adds a memory hook for one dry
step (it finds the address), then writes the flipped value for the real step.

SampledInjector (below) faults a whole long window by sampling, without any
per-instruction hook (P-256 ECDH: docs/FAULTS.md).
"""
import struct
from dataclasses import dataclass

import capstone
from unicorn import (UC_HOOK_BLOCK, UC_HOOK_CODE, UC_HOOK_INTR, UC_HOOK_MEM_READ, UC_PROT_EXEC,
                     UC_PROT_READ, UcError)
from unicorn import arm_const as U

from .machine import CODE_BASE, CODE_SIZE, RAM_BASE, bare_board, load_image
from .semihosting import Semihosting

STACK_SNAPSHOT = 64 << 10        # the board's MB_STACK_SIZE (platforms/mps2-an386/link.ld)
APSR = 16                        # dest number of the flags
FLAG_BITS = (28, 29, 30, 31)     # V C Z N
NOP16, NOP32 = b"\x00\xbf", b"\xaf\xf3\x00\x80"
_REGS = [U.UC_ARM_REG_R0 + i for i in range(13)] + [U.UC_ARM_REG_SP, U.UC_ARM_REG_LR]
_CS_REG = {"r%d" % i: i for i in range(13)}
_CS_REG.update(sb=9, sl=10, fp=11, ip=12, sp=13, lr=14, pc=15)
# outcomes besides the program's own exit status
CRASH_BUDGET, CRASH_FAULT = "budget", "fault"


class FaultError(Exception):
    """The window or a symbol cannot be found, or the unfaulted run misbehaves."""


@dataclass(frozen=True)
class Counted:
    """One counted instruction: index, address, size, destination (register number,
    APSR = 16, -1 none), load (bytes read by its first data access, 0 none)."""
    index: int
    pc: int
    size: int
    dest: int
    load: int
    text: str

    def line(self):
        """--fault-list format: index pc dest load."""
        return f"{self.index} {self.pc:08x} {self.dest} {self.load}"


@dataclass
class Outcome:
    """A run's end: status (exit status, or CRASH_* on a model error), console text,
    what was injected."""
    status: object
    console: str
    injected: str


def _decode_dest_load(md, insn):
    _, written = insn.regs_access()
    names = [md.reg_name(r) for r in written]
    cols = sorted({_CS_REG[n] for n in names if n in _CS_REG and _CS_REG[n] < 15})
    flags = any(n in ("cpsr", "apsr", "apsr_nzcv", "itstate") for n in names) \
        or (insn.update_flags and not cols)
    if insn.mnemonic.startswith("it"):
        flags = False                      # IT writes only ITSTATE
    dest = cols[0] if cols else (APSR if flags else -1)
    name = insn.mnemonic.split(".")[0]
    load = 0
    if name.startswith(("ldr", "ldm", "pop", "tbb", "tbh", "ldaex", "lda")):
        load = 1 if name.startswith(("ldrb", "ldrsb", "ldrexb", "tbb")) else \
            2 if name.startswith(("ldrh", "ldrsh", "ldrexh", "tbh")) else 4
    return dest, load


class Injector:
    """One firmware image, one input, one window. elf: path; begin/end: symbol names or
    addresses; ranges: [(lo, hi)) address ranges whose instructions are counted (None:
    all); patch: (symbol, bytes) written into the image (flash or RAM) before it runs;
    budget_factor: a fault run may execute this many times the unfaulted run's
    instructions from the window start before it counts as hung."""

    def __init__(self, elf, begin, end, ranges=None, patch=None, budget_factor=4):
        uc = self.uc = bare_board()
        self.syms, ram_top, loads = load_image(uc, elf)   # .data's values live in flash
        if patch:
            name, data = patch
            addr, size = self.symbol(name)
            if len(data) > size:
                raise FaultError(f"{len(data)} bytes for the {size}-byte {name}")
            # into the load image (an initialised variable is copied to RAM at reset)
            for vaddr, filesz, paddr in loads:
                if vaddr <= addr and addr + len(data) <= vaddr + filesz:
                    addr += paddr - vaddr
                    break
            uc.mem_write(addr, bytes(data))
        # flash is read-only to the program (a store there is a bus fault on the chip)
        uc.mem_protect(CODE_BASE, CODE_SIZE, UC_PROT_READ | UC_PROT_EXEC)
        self.begin = self._addr(begin)
        self.end = self._addr(end)
        self.ranges = [(lo & ~1, hi & ~1) for lo, hi in ranges] if ranges is not None \
            else [(CODE_BASE, CODE_BASE + CODE_SIZE)]
        self.md = capstone.Cs(capstone.CS_ARCH_ARM,
                              capstone.CS_MODE_THUMB | capstone.CS_MODE_MCLASS)
        self.md.detail = True
        self.decoded = {}
        self.sp0, reset = struct.unpack("<II", uc.mem_read(0, 8))
        self.ram = [(RAM_BASE, ram_top - RAM_BASE), (self.sp0 - STACK_SNAPSHOT, STACK_SNAPSHOT)]
        self.semi = Semihosting(uc, lambda: 0, ram_top, self.sp0)
        self.exit_code = None
        self.stopped = False
        self.trap = None
        uc.hook_add(UC_HOOK_INTR, self._hook_intr)
        # counting hooks first, before anything is translated
        self.counting = False
        self.n = 0
        self.resume_pc = None
        self.stop_at = None
        self.pcs = None
        for lo, hi in self.ranges:
            uc.hook_add(UC_HOOK_CODE, self._hook_count, None, lo, hi - 1)
        uc.reg_write(U.UC_ARM_REG_SP, self.sp0)
        self._go(reset, self.begin, 200_000_000)
        if self.exit_code is not None or uc.reg_read(U.UC_ARM_REG_PC) & ~1 != self.begin:
            raise FaultError(f"the window start {begin!r} was not reached: "
                             f"{bytes(self.semi.out)[-200:]!r}")
        self.start = self._save()
        self.budget, self.budget_factor = None, budget_factor
        self.listing = self._reference()

    # --- machine state -----------------------------------------------------------------
    def symbol(self, name):
        if name not in self.syms:
            raise FaultError(f"no symbol {name}")
        return self.syms[name]

    def _addr(self, where):
        return where & ~1 if isinstance(where, int) else self.symbol(where)[0] & ~1

    def _save(self):
        return (self.uc.context_save(),
                [(a, bytes(self.uc.mem_read(a, n))) for a, n in self.ram],
                bytes(self.semi.out), bytes(self.semi.err), bytes(self.semi.both))

    def _restore(self, snap):
        ctx, ram, out, err, both = snap
        self.uc.context_restore(ctx)
        for a, blob in ram:
            self.uc.mem_write(a, blob)
        self.semi.out[:] = out
        self.semi.err[:] = err
        self.semi.both[:] = both
        self.semi.exit_code = None
        self.exit_code = None

    def _go(self, pc, until=0xFFFFFFFF, count=1 << 40):
        """Run from pc; None, or CRASH_FAULT on a model error (memory, instruction).
        Always with a count: unicorn drops its counting hook on a run without one, and
        code translated then would not count a later run's instructions (a step)."""
        try:
            self.uc.emu_start(pc | 1, until, count=count)
        except UcError:
            return CRASH_FAULT
        return None

    def _pc(self):
        return self.uc.reg_read(U.UC_ARM_REG_PC) & ~1

    def _hook_intr(self, uc, intno, _):
        pc = self._pc()
        if intno == 7 and pc == self.trap:
            self.trap = None                     # _reach's breakpoint
            uc.emu_stop()
            return
        if intno != 7 or bytes(uc.mem_read(pc, 2)) != b"\xab\xbe":
            self.exit_code = CRASH_FAULT
            uc.emu_stop()
            return
        try:
            running = self.semi.serve(uc, pc)
        except UcError:
            self.exit_code = CRASH_FAULT
            uc.emu_stop()
            return
        if not running:
            self.exit_code = self.semi.exit_code
            uc.emu_stop()

    def _hook_count(self, uc, addr, size, _):
        if not self.counting:
            return
        if self.resume_pc is not None:
            r, self.resume_pc = self.resume_pc, None
            if r == addr:
                return                       # counted when the run stopped before it
        i = self.n
        self.n += 1
        if self.pcs is not None:
            self.pcs.append(addr)
            self.progress.append(self.executed[0])
        if i == self.stop_at:
            self.stopped = addr
            uc.emu_stop()                    # before the instruction at addr

    def decode(self, pc):
        hit = self.decoded.get(pc)
        if hit is None:
            insn = next(self.md.disasm(bytes(self.uc.mem_read(pc, 4)), pc, 1), None)
            if insn is None:
                raise FaultError(f"cannot decode the instruction at {pc:#x}")
            dest, load = _decode_dest_load(self.md, insn)
            hit = self.decoded[pc] = (insn.size, dest, load, f"{insn.mnemonic} {insn.op_str}")
        return hit

    # --- the unfaulted run -----------------------------------------------------------
    def _reference(self):
        """Counted instructions of the unfaulted window, and the instruction budget."""
        self._restore(self.start)
        self.pcs, self.progress, self.n, self.stop_at, self.counting = [], [], 0, None, True
        total = self.executed = [0]         # instructions so far (estimated per block)

        def block(uc, addr, size, _):
            total[0] += size // 2           # an estimate: enough for a budget
        h = self.uc.hook_add(UC_HOOK_BLOCK, block)
        try:
            err = self._go(self.begin, self.end)
            if err or self._pc() != self.end:
                raise FaultError(f"the unfaulted run did not reach the window end ({err})")
            self.window_estimate = total[0]
            self.counting = False
            err = self._go(self.end)
            if err or not isinstance(self.exit_code, int):
                raise FaultError(f"the unfaulted run failed: {self.exit_code or err}")
            self.reference_status = self.exit_code
        finally:
            self.uc.hook_del(h)
            self.counting = False
        # a fault run's budget: budget_factor times what the unfaulted run executes
        # from the fault to the exit (a box open's X25519 counts only before it)
        self.budget = [self.budget_factor * (total[0] - p) + 10_000 for p in self.progress]
        self.reference_console = bytes(self.semi.out).decode(errors="replace")
        out = []
        for i, pc in enumerate(self.pcs):
            size, dest, load, text = self.decode(pc)
            out.append(Counted(i, pc, size, dest, load, text))
        self.pcs = self.progress = None
        return out

    # --- faults ----------------------------------------------------------------------
    def _check_index(self, index):
        if not 0 <= index < len(self.listing):
            raise FaultError(f"fault index {index} outside the window "
                             f"(0..{len(self.listing) - 1})")

    def _by_index(self, faults):
        """{index: [its faults]}, every index checked (_check_index)."""
        byidx = {}
        for f in faults:
            self._check_index(f[0])
            byidx.setdefault(f[0], []).append(f)
        return byidx

    def run(self, faults):
        """Run each fault of `faults` ((index, model, bit) with model "skip", "flip" (bit
        of the destination) or "load"; sorted or not) in its own run. Yields
        ((index, model, bit), Outcome) in index order."""
        byidx = self._by_index(faults)
        self._restore(self.start)
        self.n, self.counting, self.resume_pc = 0, True, None
        pc = self.begin
        for idx in sorted(byidx):
            pc = self._reach(pc, idx)
            here = self._save()
            for f in byidx[idx]:
                self.counting = False
                yield f, self._one(here, self.listing[idx], f[1], f[2])
            self._restore(here)
            self.n, self.resume_pc = idx + 1, pc
        self.counting = False

    def _reach(self, pc, idx):
        """Run the reference on from pc to just before counted instruction idx; returns
        its address. A code hook cannot stop unicorn on an IT instruction or inside its
        block (the stop request is lost there), so those are reached from the last
        counted instruction before the IT through a BKPT written over the target: an
        exception leaves the IT state exact, and BKPT ignores IT conditions."""
        j = idx
        while j > 0 and self._in_it(j):
            j -= 1
        if j >= self.n:                  # else: already in the IT run-up (at j or after)
            self.stop_at, self.stopped, self.counting = j, False, True
            err = self._go(pc, self.end)
            if err or self.stopped is False:
                raise FaultError(f"the reference run did not reach instruction #{j}")
            # unicorn leaves PC at its block's start when a hook stops it: set it
            pc = self.stopped
            self.uc.reg_write(U.UC_ARM_REG_PC, pc | 1)
        if j != idx:
            pc = self._bkpt_to(pc, idx)
        if pc != self.listing[idx].pc:
            raise FaultError(f"instruction #{idx} at {pc:#x}, listed at "
                             f"{self.listing[idx].pc:#x}: the run is not reproducible")
        return pc

    def _bkpt_to(self, pc, idx):
        """Run on from pc (in the IT run-up of counted instruction idx) to just before
        idx through a BKPT written over it; returns its address."""
        target = self.listing[idx].pc
        orig = bytes(self.uc.mem_read(target, 2))
        self.uc.mem_write(target, b"\x00\xbe")           # bkpt #0
        self.uc.ctl_remove_cache(target, target + 2)
        self.counting, self.trap = False, target
        try:
            err = self._go(pc, self.end)
        finally:
            self.uc.mem_write(target, orig)
            self.uc.ctl_remove_cache(target, target + 2)
            hit, self.trap = self.trap is None, None
        if err or not hit:
            raise FaultError(f"the reference run did not reach instruction #{idx}")
        pc = target
        self.uc.reg_write(U.UC_ARM_REG_PC, pc | 1)
        self.n, self.resume_pc = idx, None
        return pc

    def _in_it(self, idx):
        """Whether counted instruction idx is an IT instruction or in the block of one
        (an IT counted up to four instructions before, whose block's addresses, decoded
        from the IT on, include idx's: an instruction of the block whose condition
        failed is not counted, so the counted ones need not be consecutive)."""
        c = self.listing[idx]
        if c.text.startswith("it"):
            return True
        for k in range(idx - 1, max(-1, idx - 5), -1):
            p = self.listing[k]
            if p.text.startswith("it"):
                addr = p.pc + p.size
                for _ in range(len(p.text.split()[0]) - 1):    # "itte": 3 instructions
                    if addr == c.pc:
                        return True
                    addr += self.decode(addr)[0]
                return False
        return False

    def _step(self, pc):
        """Execute the one instruction at pc; None or a crash status."""
        return self._go(pc, 0xFFFFFFFF, count=1)

    def _one(self, snap, c, model, bit):
        uc = self.uc
        self._restore(snap)
        pc = c.pc
        injected = ""
        if model == "skip":
            orig = bytes(uc.mem_read(pc, c.size))
            uc.mem_write(pc, NOP16 if c.size == 2 else NOP32)
            uc.ctl_remove_cache(pc, pc + c.size)
            try:
                err = self._step(pc)
            finally:
                uc.mem_write(pc, orig)
                uc.ctl_remove_cache(pc, pc + c.size)
            injected = f"skip #{c.index}"
        elif model == "flip":
            err = self._step(pc)
            if c.dest < 0:
                injected = "none (no destination)"
            elif err is None and self.exit_code is None:
                if c.dest == APSR:
                    if bit not in FLAG_BITS:
                        raise ValueError(f"APSR bit {bit}: the flags are bits 28..31")
                    v = uc.reg_read(U.UC_ARM_REG_APSR_NZCV)
                    uc.reg_write(U.UC_ARM_REG_APSR_NZCV, v ^ (1 << bit))
                    injected = f"flip APSR bit {bit}"
                else:
                    r = _REGS[c.dest]
                    uc.reg_write(r, uc.reg_read(r) ^ (1 << bit))
                    injected = f"flip r{c.dest} bit {bit}"
        elif model == "load":
            # a dry step records the first data read (address, size); the flipped value is
            # then written before the real step and restored after it. Writing it from
            # the read hook itself crashed unicorn on a literal in flash (the page of
            # the code being executed).
            seen = []

            def on_read(uc_, access, addr, size, value, _):
                if not seen:
                    seen.append((addr, size))
            h = uc.hook_add(UC_HOOK_MEM_READ, on_read)
            uc.ctl_remove_cache(pc, pc + c.size)
            try:
                err = self._step(pc)
            finally:
                uc.hook_del(h)
                uc.ctl_remove_cache(pc, pc + c.size)
            self._restore(snap)
            if seen:
                addr, size = seen[0]
                old = bytes(uc.mem_read(addr, size))
                v = int.from_bytes(old, "little") ^ (1 << (bit % (8 * size)))
                uc.mem_write(addr, v.to_bytes(size, "little"))
                uc.ctl_remove_cache(addr, addr + size)
                try:
                    err = self._step(pc)
                finally:
                    uc.mem_write(addr, old)    # memory holds the unfaulted value again
                    uc.ctl_remove_cache(addr, addr + size)
                injected = f"load bit {bit} at {addr:#x}"
            else:
                err = self._step(pc)
                injected = "none (loads nothing)"
        else:
            raise ValueError(model)
        if err is None and self.exit_code is None:
            err = self._go(self._pc(), 0xFFFFFFFF, count=self.budget[c.index])
            if err is None and self.exit_code is None:
                err = CRASH_BUDGET
        status = err if err is not None else self.exit_code
        return Outcome(status, bytes(self.semi.out).decode(errors="replace"), injected)


class _Remaining:
    """A sampled run's instruction budget at window index i: budget_factor times what the
    unfaulted run executes from i to the exit (total: an upper estimate)."""

    def __init__(self, factor, total):
        self.factor, self.total = factor, total

    def __getitem__(self, i):
        return self.factor * max(self.total - i, 0) + 10_000


class SampledInjector(Injector):
    """Faults anywhere in a long window (a scalar multiplication: millions of
    instructions), sampled. Injector's per-instruction hook would run a Python call for
    every instruction of every fault run (a P-256 ECDH ran 40 times slower with it), so
    here nothing is hooked per instruction:

      - index N is the N-th instruction unicorn executes from the window start; it is
        reached with emu_start(count=...), which counts as the code hook does (IT
        instructions whose condition fails are not counted);
      - trace() records the window's addresses once (a code hook, then removed and the
        translation cache flushed), from which a campaign draws its sample and the
        instructions' destinations and loads;
      - the listing holds only the sampled instructions and the four before each (for
        the IT rule of Injector._reach: an IT block is reached through a BKPT).

    The fault runs themselves are Injector's (_one): the same three models."""

    def __init__(self, elf, begin, end, patch=None, budget_factor=4):
        super().__init__(elf, begin, end, ranges=[], patch=patch, budget_factor=budget_factor)
        self.listing = {}
        # window_estimate: block sizes / 2 from the window start to the exit, >= the count
        self.budget = _Remaining(budget_factor, self.window_estimate)

    def trace(self):
        """The addresses of the unfaulted window's instructions, in order (array 'I')."""
        import array
        pcs = array.array("I")
        h = self.uc.hook_add(UC_HOOK_CODE, lambda uc, a, s, _: pcs.append(a))
        self.uc.ctl_flush_tb()            # code translated before has no call to the hook
        try:
            self._restore(self.start)
            err = self._go(self.begin, self.end)
            if err or self._pc() != self.end:
                raise FaultError(f"the unfaulted window did not reach its end ({err})")
        finally:
            self.uc.hook_del(h)
            self.uc.ctl_flush_tb()
        return pcs

    def set_listing(self, entries):
        """entries: {index: pc} of the sampled instructions and their run-up."""
        self.listing = {}
        for i, pc in entries.items():
            size, dest, load, text = self.decode(pc)
            self.listing[i] = Counted(i, pc, size, dest, load, text)

    def _in_it(self, idx):
        return all(k in self.listing for k in range(max(0, idx - 4), idx)) and \
            super()._in_it(idx)

    def _reach(self, pc, idx):
        j = idx
        while j > 0 and self._in_it(j):
            j -= 1
        if j > self.n:                    # else: already in the IT run-up (at j or after)
            err = self._go(pc, 0xFFFFFFFF, count=j - self.n)
            if err or self.exit_code is not None:
                raise FaultError(f"the reference run did not reach instruction #{j}")
            pc, self.n = self._pc(), j
        if j != idx:
            pc = self._bkpt_to(pc, idx)
        if pc != self.listing[idx].pc:
            raise FaultError(f"instruction #{idx} at {pc:#x}, listed at "
                             f"{self.listing[idx].pc:#x}: the run is not reproducible")
        return pc

    def _check_index(self, index):
        if index not in self.listing:
            raise FaultError(f"fault index {index} is not in the listing")

    def run(self, faults):
        """As Injector.run, over sampled indices (set_listing first)."""
        byidx = self._by_index(faults)
        self._restore(self.start)
        self.n, self.counting, self.resume_pc = 0, False, None
        pc = self.begin
        for idx in sorted(byidx):
            pc = self._reach(pc, idx)
            here = self._save()
            for f in byidx[idx]:
                yield f, self._one(here, self.listing[idx], f[1], f[2])
            if self._in_it(idx):
                # a count started inside an IT block miscounts by one (seen): go on
                # from the window start instead (rare: IT blocks are few)
                self._restore(self.start)
                self.n, pc = 0, self.begin
            else:
                self._restore(here)
                self.n = idx
