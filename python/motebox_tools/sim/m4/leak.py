# SPDX-License-Identifier: MIT
"""The Cortex-M4 model's leakage model (docs/SIDE_CHANNELS.md, "Leakage model (Cortex-M4
model)"): simulated power traces, one sample per executed instruction inside a window.

Sample of instruction i (the first-order CMOS model of ELMO [McCann et al., USENIX
Security 2017] and Rosita [Shelton et al., NDSS 2021]; default weights 1, `Model`):
    w_hw  * sum HW(value written to each destination register r0-r12, sp, lr)
  + w_bus * sum HD(previous, current value on the data bus), one term per transferred
            word (LDM/STM/PUSH/POP/LDRD/STRD: each register in bus order; byte and
            halfword transfers: the value zero-extended)
  + w_hd  * sum HD(old, new value of each destination register)   (0 by default)
plus, optionally, Gaussian noise N(0, sigma^2) seeded per trace (`add_noise`; the
recorder derives sigma from an SNR, docs/SIDE_CHANNELS.md).

How: unicorn runs at full speed up to the window start (a hook on that one address);
inside the window a per-instruction hook (registered through unicorn's C API; in C,
leak_hook.c compiled on first use, else in Python) copies r0-r12, sp, lr into a
preallocated buffer with one uc_reg_read_batch call, and the
samples are computed afterwards with numpy from the per-address decode (capstone, once
per address): an instruction's destination values are the next row's registers, a
store's data its source registers before it runs, a load's data its destinations after.
No memory hooks are needed. The window closes at its end address, at the sample cap or
at the program's exit; the hook is then removed.

Two users:
  * `Engine`: a fast recorder for campaigns (no cycle model): loads the ELF once, takes
    a snapshot (unicorn context + RAM) at `main`, and per trace restores it, patches the
    input symbol in RAM, runs to the window, records, and stops (or runs on to the exit
    when the output is to be checked);
  * `Probe`: the same recording inside the cycle model (`M4(..., leak=Probe(...))`), for
    runs whose cycle counts must stay those of the model (they do: tests/m4/test_model_leak.py).

Windows are given as "symbol", "symbol+0x10", "symbol@loop" (the function's loop head:
the earliest target of a backward branch inside it, for loops whose head has no label),
each optionally followed by "#n" (the n-th time execution reaches it); see `resolve`.
"""
import ctypes
import hashlib
import os
import re
import struct
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import capstone
import numpy as np
from unicorn import UC_HOOK_CODE, UC_HOOK_INTR
from unicorn import arm_const as U
from unicorn.unicorn_py3.unicorn import HOOK_CODE_CFUNC, uc_hook_h, uclib

from .machine import RAM_BASE, bare_board, load_image
from .semihosting import Semihosting

STACK_SNAPSHOT = 64 << 10        # the board's MB_STACK_SIZE (platforms/mps2-an386/link.ld)
NREGS = 15                       # r0-r12, sp, lr; column 15 holds pc | 1
PC_COL = 15
_REG_IDS = [U.UC_ARM_REG_R0 + i for i in range(13)] + [U.UC_ARM_REG_SP, U.UC_ARM_REG_LR]
assert _REG_IDS[12] == U.UC_ARM_REG_R12
# uc_reg_read_batch with plain pointers (the binding's prototype wants ctypes objects)
_read_batch = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
                               ctypes.c_void_p, ctypes.c_int)(
    ctypes.cast(uclib.uc_reg_read_batch, ctypes.c_void_p).value)
_CS_REG = {"r%d" % i: i for i in range(13)}
_CS_REG.update(sb=9, sl=10, fp=11, ip=12, sp=13, lr=14, pc=15)


class LeakError(Exception):
    """The window cannot be found, or the run did not reach it."""


@dataclass(frozen=True)
class Model:
    """Weights of the three terms (see the module text)."""
    hw_dest: float = 1.0
    hd_bus: float = 1.0
    hd_dest: float = 0.0


@dataclass(frozen=True)
class Insn:
    """What one instruction leaks: dest (register columns written, r0..lr),
    transfers ((column, width mask, is_load) in bus order); size, and whether it may
    change the flow (branch, call, PC write, IT) for the plan's check."""
    dest: tuple
    transfers: tuple
    size: int = 2
    flow: bool = False
    it: bool = False
    target: int = None
    always: bool = False           # an unconditional direct branch: next is its target


class Decoder:
    """Per-address decode (capstone, cached) and the per-window plan built from it."""

    def __init__(self, read_code):
        self.read_code = read_code          # read_code(addr, n) -> bytes
        self.md = capstone.Cs(capstone.CS_ARCH_ARM,
                              capstone.CS_MODE_THUMB | capstone.CS_MODE_MCLASS)
        self.md.detail = True
        self.cache = {}
        self.plans = {}

    def _col(self, reg):
        return _CS_REG.get(self.md.reg_name(reg))

    def insn(self, addr):
        hit = self.cache.get(addr)
        if hit is None:
            hit = self.cache[addr] = self._decode(addr)
        return hit

    def _decode(self, addr):
        insn = next(self.md.disasm(self.read_code(addr, 4), addr, 1), None)
        if insn is None:
            raise LeakError(f"cannot decode the instruction at {addr:#x}")
        _, written = insn.regs_access()
        dest = tuple(sorted({c for c in map(self._col, written) if c is not None and c < PC_COL}))
        name = insn.mnemonic.split(".")[0]
        regs = [self._col(op.reg) for op in insn.operands if op.type == capstone.arm.ARM_OP_REG]
        transfers = ()
        width = 0xFF if re.match(r"(ld|st)r(s?b|exb)", name) else \
            0xFFFF if re.match(r"(ld|st)r(s?h|exh)", name) else 0xFFFFFFFF
        if name in ("pop", "push"):
            transfers = tuple((r, width, name == "pop") for r in sorted(regs))
        elif re.match(r"(ldm|stm)", name):
            transfers = tuple((r, width, name[0] == "l") for r in sorted(regs[1:]))
        elif re.match(r"ldr", name):        # ldr, ldrb/h, ldrsb/h, ldrd, ldrex*, ldrt
            n = 2 if name.startswith("ldrd") else 1
            transfers = tuple((r, width, True) for r in regs[:n])
        elif re.match(r"strex", name):      # strex rd, rt, [rn]: rt is the data
            transfers = ((regs[1], width, False),)
        elif re.match(r"str", name):
            n = 2 if name.startswith("strd") else 1
            transfers = tuple((r, width, False) for r in regs[:n])
        flow = (insn.group(capstone.arm.ARM_GRP_JUMP) or insn.group(capstone.arm.ARM_GRP_CALL)
                or insn.group(capstone.arm.ARM_GRP_INT)
                or any(self.md.reg_name(r) == "pc" for r in written))
        target = None               # a direct branch's target (b, bl, cbz, ...)
        if flow and insn.operands and insn.operands[-1].type == capstone.arm.ARM_OP_IMM \
                and not name.startswith(("bkpt", "svc", "udf")):
            target = insn.operands[-1].imm
        return Insn(dest, transfers, insn.size, bool(flow), name.startswith("it"), target,
                    name == "bl" or (name == "b" and insn.cc in (0, capstone.arm.ARM_CC_AL)))

    def check_flow(self, pcs):
        """Each recorded instruction must follow the previous one (fall-through, a
        branch, or instructions skipped under IT): a hook that missed instructions would
        otherwise pass for a quiet trace."""
        pcs = pcs.tolist()
        for i in range(len(pcs) - 1):
            ins = self.insn(pcs[i])
            nxt = pcs[i + 1]
            if ins.target is not None:       # direct: its target or (if conditional) on
                if nxt == ins.target or (nxt == pcs[i] + ins.size and not ins.always):
                    continue
            elif nxt == pcs[i] + ins.size or ins.flow:
                continue
            if any(self.insn(a).it for a in pcs[max(0, i - 4):i + 1]):
                continue
            raise LeakError(f"the leakage hook missed instructions after {pcs[i]:#x} "
                            f"(next recorded: {pcs[i + 1]:#x})")

    def plan(self, pcs):
        """For the executed addresses pcs[0..n): (dest mask (n, 16) bool, transfer rows,
        columns, width masks, owner instruction). Cached: a constant-time window has one
        address sequence for every input."""
        key = pcs.tobytes()
        hit = self.plans.get(key)
        if hit is not None:
            return hit
        n = len(pcs)
        self.check_flow(pcs)
        dmask = np.zeros((n, 16), dtype=bool)
        rows, cols, masks, owner = [], [], [], []
        for i, a in enumerate(pcs.tolist()):
            ins = self.insn(a)
            dmask[i, list(ins.dest)] = True
            for col, width, load in ins.transfers:
                rows.append(i + 1 if load else i)
                cols.append(col)
                masks.append(width)
                owner.append(i)
        hit = (dmask, np.array(rows, dtype=np.intp), np.array(cols, dtype=np.intp),
               np.array(masks, dtype=np.uint32), np.array(owner, dtype=np.intp))
        if len(self.plans) > 64:
            self.plans.clear()
        self.plans[key] = hit
        return hit

    def samples(self, regs, pcs, model=Model()):
        """Leakage of the n = len(pcs) - 1 instructions pcs[0..n) given the register rows
        regs[0..n] (row i: before instruction i; column 15 is filled with pc | 1 here,
        the value a load to PC brings over the bus)."""
        n = len(pcs) - 1
        if n <= 0:
            return np.zeros(0, dtype=np.float32)
        regs[:n + 1, PC_COL] = pcs | 1
        dmask, rows, cols, masks, owner = self.plan(pcs[:n])
        before, after = regs[:n], regs[1:n + 1]
        out = np.zeros(n, dtype=np.float64)
        if model.hw_dest:
            out += model.hw_dest * (np.bitwise_count(after) * dmask).sum(1)
        if model.hd_dest:
            out += model.hd_dest * (np.bitwise_count(before ^ after) * dmask).sum(1)
        if model.hd_bus and len(rows):
            v = regs[rows, cols] & masks
            prev = np.concatenate(([0], v[:-1])).astype(np.uint32)
            out += model.hd_bus * np.bincount(owner, weights=np.bitwise_count(v ^ prev),
                                              minlength=n)
        return out.astype(np.float32)


def add_noise(x, sigma, seed, index):
    """x (float32 traces) plus N(0, sigma^2) per sample, in place; trace k's noise depends
    only on (seed, index + k), so any split of a campaign gives the same traces."""
    if not sigma:
        return x
    for k in range(len(x)):
        rng = np.random.default_rng([seed & 0xFFFFFFFFFFFF, index + k])
        x[k] += rng.normal(0.0, sigma, x.shape[1]).astype(np.float32)
    return x


def add_code_hook(uch, callback, data):
    """A UC_HOOK_CODE hook on every address through unicorn's C API (the Python binding's
    hooks cost a Python call per instruction); returns its handle. begin > end (1, 0)
    means all addresses; they are uint64_t in the variadic call, so passed as such."""
    h = uc_hook_h()
    err = uclib.uc_hook_add(uch, ctypes.byref(h), UC_HOOK_CODE, callback, data,
                            ctypes.c_uint64(1), ctypes.c_uint64(0))
    if err:
        raise LeakError(f"unicorn: cannot add the leakage hook ({err})")
    return h


def del_hook(uch, handle):
    """Remove a hook of add_code_hook (None: nothing to do); returns None."""
    if handle is not None:
        uclib.uc_hook_del(uch, handle)
    return None


class Capture:
    """The per-instruction hook: up to `cap` instructions (cap + 1 register rows) from
    install() until `end` (its address is reached) or the cap. on_close(): what to do
    when the window closes (stop the emulation); the owner removes the hook after the
    run, never inside a callback. gated: the
    hook checks `open` and `skip_first` (Probe); else it records every call (Engine
    installs it just before the window and removes it after)."""

    def __init__(self, uc, cap, end=None, on_close=None, gated=True):
        self.uc, self.uch = uc, uc._uch
        self.cap = cap
        self.end = -1 if end is None else end
        self.on_close = on_close
        self.buf = np.zeros((cap + 2, 16), dtype=np.uint32)
        ptrs = (self.buf.ctypes.data + np.arange(cap + 2, dtype=np.uint64)[:, None] * 64
                + np.arange(NREGS, dtype=np.uint64)[None, :] * 4)
        self.ptrs = np.ascontiguousarray(ptrs)
        self.ptr0 = self.ptrs.ctypes.data
        self.row = NREGS * 8
        self._ids = (ctypes.c_int * NREGS)(*_REG_IDS)
        self.ids = ctypes.addressof(self._ids)
        self.pcs = []
        self.handle = None
        self.open = False
        self.skip_first = None       # an address Probe's head hook has just recorded
        self._closed = [False]       # the ungated hook's own flag (reset by reset())
        self._cb = HOOK_CODE_CFUNC(self._hook if gated else self._fast_hook())

    def _fast_hook(self):
        """The ungated hook, everything it needs bound to locals (it runs per instruction)."""
        read, ids, ptr0, row, cap, end = _read_batch, self.ids, self.ptr0, self.row, \
            self.cap, self.end
        pcs = self.pcs
        append = pcs.append
        closed = self._closed

        def hook(uch, addr, size, _):
            if closed[0]:               # until emu_stop takes effect
                return
            i = len(pcs)
            read(uch, ids, ptr0 + i * row, NREGS)
            append(addr)
            if i >= cap or addr == end:
                closed[0] = True
                self._close()
        return hook

    def _close(self):
        # The hook is not removed here: uc_hook_del from inside a callback invalidates
        # the translation blocks of the hooked range, the running one included (a
        # segfault in unicorn 2.1.4, depending on the code layout). Closed, it returns at
        # once; the owner removes it after emu_start (Engine.run, Probe.samples).
        self.open = False
        if self.on_close:
            self.on_close()

    def reset(self):
        self.pcs.clear()
        self.open = False
        self._closed[0] = False

    def install(self):
        """Record from the next instruction (the next translation block, if installed
        while one runs) until the window closes."""
        self.open = True
        self.skip_first = None
        self.handle = add_code_hook(self.uch, ctypes.cast(self._cb, ctypes.c_void_p), None)

    def remove(self):
        self.handle = del_hook(self.uch, self.handle)

    def record(self, uch, addr):
        """Record the registers before the instruction at addr; False once closed."""
        i = len(self.pcs)
        _read_batch(uch, self.ids, self.ptr0 + i * self.row, NREGS)
        self.pcs.append(addr)
        if i >= self.cap or addr == self.end:
            self.open = False
            return False
        return True

    def _hook(self, uch, addr, size, _):
        if not self.open:
            return
        if self.skip_first is not None:
            skip, self.skip_first = self.skip_first, None
            if skip == addr:
                return
        if not self.record(uch, addr):
            self._close()

    def result(self):
        """(register rows, executed addresses) with one row more than instructions."""
        pcs = np.array(self.pcs, dtype=np.uint32)
        return self.buf[:len(pcs)], pcs


# --- the same hook in C (leak_hook.c) ------------------------------------------------
class _CaptureStruct(ctypes.Structure):
    _fields_ = [("read_batch", ctypes.c_void_p), ("emu_stop", ctypes.c_void_p),
                ("rows", ctypes.c_void_p), ("pcs", ctypes.c_void_p), ("end", ctypes.c_int64),
                ("n", ctypes.c_uint32), ("cap", ctypes.c_uint32), ("stop", ctypes.c_int32),
                ("closed", ctypes.c_int32), ("ids", ctypes.c_int * NREGS)]


_NATIVE = []          # [hook function address or None], once per process


def _hook_dir():
    try:
        from ...paths import build_root
        return build_root() / "m4" / "leak_hook"
    except Exception:  # noqa: BLE001  (no checkout: a private temporary directory)
        return Path(tempfile.gettempdir()) / f"motebox-leak-hook-{os.getuid()}"


def native_hook():
    """Address of leak_hook() from leak_hook.c, compiled on first use into the build
    directory ($MOTEBOX_BUILD/m4/leak_hook/, named by the source's hash) with $CC or cc;
    None if that fails (MOTEBOX_LEAK_PYTHON=1 also says None): the Python hook is used."""
    if _NATIVE:
        return _NATIVE[0]
    addr = None
    if os.environ.get("MOTEBOX_LEAK_PYTHON") != "1":
        src = Path(__file__).with_name("leak_hook.c")
        try:
            tag = hashlib.sha256(src.read_bytes()).hexdigest()[:16]
            lib = _hook_dir() / f"leak_hook-{tag}.so"
            if not lib.exists():
                lib.parent.mkdir(parents=True, exist_ok=True)
                tmp = lib.with_suffix(f".{os.getpid()}.tmp")
                subprocess.run([os.environ.get("CC", "cc"), "-std=c99", "-O2", "-Wall", "-Wextra",
                                "-Werror", "-shared", "-fPIC", "-o", str(tmp), str(src)],
                               check=True, capture_output=True, timeout=120)
                os.replace(tmp, lib)
            addr = ctypes.cast(ctypes.CDLL(str(lib)).leak_hook, ctypes.c_void_p).value
        except (OSError, subprocess.SubprocessError, AttributeError):
            addr = None
    _NATIVE.append(addr)
    return addr


class NativeCapture:
    """Capture (ungated) with the per-instruction work in C (leak_hook.c)."""

    def __init__(self, uc, cap, end=None, stop=True):
        self.uc, self.uch = uc, uc._uch
        self.cap = cap
        self.buf = np.zeros((cap + 2, 16), dtype=np.uint32)
        self.pcbuf = np.zeros(cap + 2, dtype=np.uint32)
        c = self.c = _CaptureStruct()
        c.read_batch = ctypes.cast(uclib.uc_reg_read_batch, ctypes.c_void_p).value
        c.emu_stop = ctypes.cast(uclib.uc_emu_stop, ctypes.c_void_p).value
        c.rows, c.pcs = self.buf.ctypes.data, self.pcbuf.ctypes.data
        c.end = -1 if end is None else end
        c.cap, c.stop = cap, int(stop)
        c.ids[:] = _REG_IDS
        self.fn = native_hook()
        self.handle = None

    def reset(self):
        self.c.n, self.c.closed = 0, 0

    def install(self):
        self.handle = add_code_hook(self.uch, ctypes.c_void_p(self.fn),
                                    ctypes.c_void_p(ctypes.addressof(self.c)))

    def remove(self):
        self.handle = del_hook(self.uch, self.handle)

    def result(self):
        n = self.c.n
        return self.buf[:n], self.pcbuf[:n].copy()


# --- the window -------------------------------------------------------------------------
def _loop_head(md, code, start):
    """The earliest target of a backward branch inside the function code at start."""
    heads = []
    for insn in md.disasm(code, start):
        if insn.group(capstone.arm.ARM_GRP_JUMP) and insn.operands \
                and insn.operands[-1].type == capstone.arm.ARM_OP_IMM:
            target = insn.operands[-1].imm
            if start <= target < insn.address:
                heads.append(target)
    if not heads:
        raise LeakError(f"no loop in the function at {start:#x}")
    return min(heads)


def resolve(spec, funcs, read_code):
    """(address, occurrence) of a window point: "sym", "sym+0x10", "sym@loop", each with
    an optional "#n"; an int is an address. funcs: {name: (address, size)}."""
    if isinstance(spec, int):
        return spec & ~1, 1
    m = re.fullmatch(r"([A-Za-z_.$][\w.$]*)(?:\+(0x[0-9a-fA-F]+|\d+))?(@loop)?(?:#(\d+))?", spec)
    if not m or m[1] not in funcs:
        raise LeakError(f"window point {spec!r}: no such symbol")
    addr, size = funcs[m[1]]
    addr &= ~1
    if m[2]:
        addr += int(m[2], 0)
    if m[3]:
        md = capstone.Cs(capstone.CS_ARCH_ARM, capstone.CS_MODE_THUMB | capstone.CS_MODE_MCLASS)
        md.detail = True
        addr = _loop_head(md, read_code(addr, size), addr)
    return addr, int(m[4] or 1)


def head_range(read_code, start, limit=64):
    """[start, last] of the straight-line code from start up to its first branch: the
    translation block the window opens in (Probe records it with an address-range hook,
    as a hook added while it runs takes effect from the next block on)."""
    md = capstone.Cs(capstone.CS_ARCH_ARM, capstone.CS_MODE_THUMB | capstone.CS_MODE_MCLASS)
    md.detail = True
    last = start
    for k, insn in enumerate(md.disasm(read_code(start, 4 * limit), start)):
        last = insn.address
        _, written = insn.regs_access()
        if k + 1 >= limit or insn.group(capstone.arm.ARM_GRP_JUMP) \
                or insn.group(capstone.arm.ARM_GRP_CALL) or insn.group(capstone.arm.ARM_GRP_INT) \
                or any(md.reg_name(r) == "pc" for r in written):
            break
    return start, last


@dataclass(frozen=True)
class Window:
    """start / end: window points (see `resolve`; end None: until the cap or the exit);
    samples: the cap (instructions recorded)."""
    start: object
    end: object = None
    samples: int = 4000


# --- inside the cycle model ---------------------------------------------------------
class Probe:
    """Leakage recording inside the cycle model: M4(elf, leak=Probe(Window(...))). After
    the run, samples() is the trace (Result.leak). The model's own hooks are untouched:
    a code hook on the window's first block (a few addresses) opens the window; the
    per-instruction hook is installed closed from the start and removed after the run."""

    def __init__(self, window, model=Model()):
        self.window = window
        self.model = model
        self.count = 0
        self.capture = None

    def attach(self, m4):
        uc = m4.uc
        read = lambda a, n: bytes(uc.mem_read(a, n))  # noqa: E731
        funcs = {name: (a, e - a) for a, e, name in m4.funcs}
        funcs.update({name: (a, 0) for a, name in m4.labels if name not in funcs})
        self.start, self.occurrence = resolve(self.window.start, funcs, read)
        end = resolve(self.window.end, funcs, read)[0] if self.window.end is not None else None
        self.decoder = Decoder(read)
        self.capture = Capture(uc, self.window.samples, end)
        # The capture's hook is there from the start, closed: adding it when the window
        # opens needs the translated code flushed, and removing it when it closes
        # invalidates the running block; unicorn 2.1.4 can crash on either inside a
        # callback. Closed, it costs one Python call per instruction.
        self.capture.install()
        self.capture.open = False
        lo, hi = head_range(read, self.start)
        uc.hook_add(UC_HOOK_CODE, self._hook_head, None, lo, hi)

    def _hook_head(self, uc, addr, size, _):
        cap = self.capture
        if addr == self.start and not cap.open and self.count < self.occurrence:
            self.count += 1
            if self.count == self.occurrence:
                # open, and record this first instruction here: the capture's hook may
                # have run for it already (closed); if it runs after, skip_first keeps
                # it from recording it twice
                cap.open = True
                cap.skip_first = addr
                if not cap.record(uc._uch, addr):
                    cap.open = False

    def samples(self):
        """The trace, after the run (the capture's hook is removed here, outside every
        callback)."""
        if self.capture is not None:
            self.capture.remove()
        if self.capture is None or not self.capture.pcs:
            return np.zeros(0, dtype=np.float32)
        regs, pcs = self.capture.result()
        return self.decoder.samples(regs.copy(), pcs, self.model)


# --- the fast recorder ---------------------------------------------------------------
class Engine:
    """Runs one firmware ELF again and again with different bytes in `input_symbol`,
    recording the leakage inside `window`; no cycle model. run(data, check) returns
    (samples (float32, up to window.samples), console output or None)."""

    def __init__(self, elf, window, input_symbol="ct_input", model=Model(),
                 max_instructions=200_000_000):
        self.window = window
        self.model = model
        self.limit = max_instructions
        uc = self.uc = bare_board()
        self.funcs, ram_top, _ = load_image(uc, elf)
        read = self.read_code
        self.start, self.occurrence = resolve(window.start, self.funcs, read)
        self.end = resolve(window.end, self.funcs, read)[0] if window.end is not None else None
        self.input_addr, self.input_size = self.funcs[input_symbol]
        self.decoder = Decoder(read)
        self.sp0, self.reset = struct.unpack("<II", uc.mem_read(0, 8))
        self.ram_top = ram_top
        self.semi = Semihosting(uc, lambda: 0, ram_top, self.sp0)
        uc.hook_add(UC_HOOK_INTR, self._hook_intr)
        self.exit_code = None
        self.count = 0
        uc.hook_add(UC_HOOK_CODE, self._hook_start, None, self.start, self.start)
        if native_hook() is not None:
            self.capture = NativeCapture(uc, window.samples, self.end)
        else:
            self.capture = Capture(uc, window.samples, self.end, on_close=uc.emu_stop,
                                   gated=False)
        # snapshot at main: startup (.data copy, .bss clear) done, input not yet read
        uc.reg_write(U.UC_ARM_REG_SP, self.sp0)
        uc.emu_start(self.reset, self.funcs["main"][0] & ~1, count=self.limit)
        self.ctx = uc.context_save()
        self.ram = [(RAM_BASE, bytes(uc.mem_read(RAM_BASE, ram_top - RAM_BASE))),
                    (self.sp0 - STACK_SNAPSHOT,
                     bytes(uc.mem_read(self.sp0 - STACK_SNAPSHOT, STACK_SNAPSHOT)))]

    def read_code(self, addr, n):
        return bytes(self.uc.mem_read(addr, n))

    def _hook_start(self, uc, addr, size, _):
        if self.count < self.occurrence:
            self.count += 1
            if self.count == self.occurrence:
                uc.emu_stop()           # stops before the instruction at addr

    def _hook_intr(self, uc, intno, _):
        pc = uc.reg_read(U.UC_ARM_REG_PC) & ~1
        if intno != 7 or bytes(uc.mem_read(pc, 2)) != b"\xab\xbe":
            self.exit_code = -intno
            uc.emu_stop()
            return
        if not self.semi.serve(uc, pc):
            self.exit_code = self.semi.exit_code
            uc.emu_stop()

    def run(self, data, check=False):
        """One trace with `data` in the input symbol. check: run on to the exit and
        return the console output too (else None)."""
        uc = self.uc
        if len(data) > self.input_size:
            raise ValueError(f"{len(data)} input bytes for a {self.input_size}-byte symbol")
        uc.context_restore(self.ctx)
        for addr, blob in self.ram:
            uc.mem_write(addr, blob)
        uc.mem_write(self.input_addr, bytes(data))
        self.semi.out.clear()
        self.semi.err.clear()
        self.semi.both.clear()
        self.exit_code = None
        self.count = 0
        main = self.funcs["main"][0] | 1
        # count= makes unicorn instrument every block it translates (its counting hook),
        # so the capture hook installed below is called, with registers in sync, in code
        # translated before it existed; without it such blocks would be skipped silently
        # (check_flow would then fail). The cost is small: the counting runs in C.
        uc.emu_start(main, 0xFFFFFFFF, count=self.limit)
        if self.count < self.occurrence:
            raise LeakError(f"the window start {self.window.start!r} was not reached "
                            f"(exit {self.exit_code}): {bytes(self.semi.out)[-200:]!r}")
        cap = self.capture
        cap.reset()
        cap.install()
        try:
            uc.emu_start(self.start | 1, 0xFFFFFFFF, count=self.limit)
        finally:
            cap.remove()
        regs, pcs = cap.result()
        x = self.decoder.samples(regs, pcs, self.model)
        out = None
        if check:
            if self.exit_code is None:
                uc.emu_start(uc.reg_read(U.UC_ARM_REG_PC) | 1, 0xFFFFFFFF, count=self.limit)
            if self.exit_code != 0:
                raise LeakError(f"the firmware exited with {self.exit_code}: "
                                f"{bytes(self.semi.out)[-200:]!r}")
            out = bytes(self.semi.out).decode(errors="replace")
        return x, out
