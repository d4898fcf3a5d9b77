# SPDX-License-Identifier: MIT
"""Semihosting for the modelled board (ARM "Semihosting for AArch32 and AArch64" 2.0):
the console (:tt, stdout/stderr), the feature file, clock/elapsed/tick frequency on the
modelled cycles, heap info and the exit calls. No host file access."""
import struct
import time

CLOCK_HZ = 25_000_000          # mps2-an386 system clock, for SYS_CLOCK/SYS_ELAPSED
ADP_APPLICATION_EXIT = 0x20026
SEMIHOST_FEATURES = b"SHFB\x03"  # EXIT_EXTENDED | STDOUT_STDERR


class Semihosting:
    """The host side of the semihosting calls of one run. uc: the unicorn engine (memory);
    now(): modelled cycles; ram_top / sp0: heap start and initial SP for SYS_HEAPINFO;
    warnings: a list to report unsupported calls in. Output collects in out, err and
    both (interleaved, as QEMU's console) and goes to console(fd, data) if set."""

    def __init__(self, uc, now, ram_top, sp0, stdin=b"", warnings=None):
        self.uc = uc
        self.now = now
        self.ram_top = ram_top
        self.sp0 = sp0
        self.stdin = bytearray(stdin)
        self.out = bytearray()
        self.err = bytearray()
        self.both = bytearray()
        self.console = None
        self.warnings = [] if warnings is None else warnings
        self.handles = {}
        self.next_handle = 1
        self.exit_code = None

    def _words(self, addr, n):
        return struct.unpack("<%dI" % n, self.uc.mem_read(addr, 4 * n))

    def _cstr(self, addr, limit=1 << 16):
        out = bytearray()
        while len(out) < limit:
            chunk = bytes(self.uc.mem_read(addr + len(out), 64))
            z = chunk.find(b"\0")
            if z >= 0:
                out += chunk[:z]
                return bytes(out)
            out += chunk
        return bytes(out)

    def _emit(self, fd, data):
        (self.err if fd == 2 else self.out).extend(data)
        self.both.extend(data)
        if self.console:
            self.console(fd, data)

    def serve(self, uc, pc):
        """Serve the BKPT 0xAB at pc on unicorn `uc` (operation in r0, argument in r1):
        the result goes to r0 and execution resumes after the BKPT. Returns False when
        the program exited (exit_code set)."""
        from unicorn import arm_const as U
        ret = self.call(uc.reg_read(U.UC_ARM_REG_R0), uc.reg_read(U.UC_ARM_REG_R1), pc)
        if ret is None:
            return False
        uc.reg_write(U.UC_ARM_REG_R0, ret & 0xFFFFFFFF)
        uc.reg_write(U.UC_ARM_REG_PC, (pc + 2) | 1)
        return True

    def call(self, op, arg, pc):
        """Serve semihosting operation op (r0) with argument block arg (r1), called by
        BKPT 0xAB at pc. Returns the value for r0, or None when the program exited
        (exit_code set). UcError on a bad pointer."""
        rd = self._words
        if op == 0x01:                                   # SYS_OPEN
            name_p, mode, length = rd(arg, 3)
            name = bytes(self.uc.mem_read(name_p, length))
            if name == b":tt":
                kind = ("tt", 0 if mode < 4 else 1 if mode < 8 else 2)
            elif name == b":semihosting-features":
                kind = ("feat", 0)
            else:
                return -1                                # no host file access
            h = self.next_handle
            self.next_handle += 1
            self.handles[h] = [kind[0], kind[1]]
            return h
        if op == 0x02:                                   # SYS_CLOSE
            return 0 if self.handles.pop(arg, None) is not None else -1
        if op == 0x03:                                   # SYS_WRITEC
            self._emit(1, bytes(self.uc.mem_read(arg, 1)))
            return 0
        if op == 0x04:                                   # SYS_WRITE0
            self._emit(1, self._cstr(arg))
            return 0
        if op == 0x05:                                   # SYS_WRITE
            h, buf, n = rd(arg, 3)
            kind = self.handles.get(h)
            if kind is None or kind[0] != "tt" or kind[1] == 0:
                return n
            self._emit(kind[1], bytes(self.uc.mem_read(buf, n)))
            return 0
        if op == 0x06:                                   # SYS_READ
            h, buf, n = rd(arg, 3)
            kind = self.handles.get(h)
            if kind is None:
                return -1
            if kind[0] == "feat":
                data = SEMIHOST_FEATURES[kind[1]:kind[1] + n]
                kind[1] += len(data)
            elif kind[1] == 0:
                data = bytes(self.stdin[:n])
                del self.stdin[:n]
            else:
                return -1
            self.uc.mem_write(buf, data)
            return n - len(data)
        if op == 0x07:                                   # SYS_READC
            if self.stdin:
                return self.stdin.pop(0)
            return -1
        if op == 0x08:                                   # SYS_ISERROR
            return 0
        if op == 0x09:                                   # SYS_ISTTY
            kind = self.handles.get(arg)
            return 1 if kind and kind[0] == "tt" else 0
        if op == 0x0A:                                   # SYS_SEEK
            h, pos = rd(arg, 2)
            kind = self.handles.get(h)
            if kind is None:
                return -1
            if kind[0] == "feat":
                kind[1] = pos
            return 0
        if op == 0x0C:                                   # SYS_FLEN
            h = rd(arg, 1)[0]
            kind = self.handles.get(h)
            if kind is None:
                return -1
            return len(SEMIHOST_FEATURES) if kind[0] == "feat" else 0
        if op == 0x10:                                   # SYS_CLOCK: centiseconds (model)
            return self.now() * 100 // CLOCK_HZ
        if op == 0x11:                                   # SYS_TIME
            return int(time.time())
        if op == 0x13:                                   # SYS_ERRNO
            return 0
        if op == 0x15:                                   # SYS_GET_CMDLINE: empty
            buf, n = rd(arg, 2)
            if n:
                self.uc.mem_write(buf, b"\0")
            self.uc.mem_write(arg + 4, struct.pack("<I", 0))
            return 0
        if op == 0x16:                                   # SYS_HEAPINFO
            block = rd(arg, 1)[0]
            heap = (self.ram_top + 7) & ~7
            self.uc.mem_write(block, struct.pack("<4I", heap, self.sp0 - 0x10000 if
                                                 self.sp0 - 0x10000 > heap else heap,
                                                 self.sp0, heap))
            return 0
        if op == 0x18:                                   # SYS_EXIT (AArch32: r1 = reason)
            self.exit_code = 0 if arg == ADP_APPLICATION_EXIT else 1
            return None
        if op == 0x20:                                   # SYS_EXIT_EXTENDED
            reason, sub = rd(arg, 2)
            self.exit_code = (sub & 0xFF) if reason == ADP_APPLICATION_EXIT else 1
            return None
        if op == 0x30:                                   # SYS_ELAPSED: 64-bit ticks
            self.uc.mem_write(arg, struct.pack("<Q", self.now()))
            return 0
        if op == 0x31:                                   # SYS_TICKFREQ
            return CLOCK_HZ
        self.warnings.append(f"unsupported semihosting call {op:#x} at pc={pc:#x}")
        return -1
