# SPDX-License-Identifier: MIT
"""The execution trace of the Cortex-M4 model (docs/M4_TIMING.md, "Trace"): one text
record per executed block (X addr n), IT-skipped instruction mask (S addr mask), data
access (R/W addr size) and divide operand widths (D addr wn wm), ending with the exit
record; hashed (SHA-256) and optionally written to a file. With a window, only what runs
from entering the window's first address until entering its second is recorded: the
constant-time checks compare the traces of runs with different secrets."""
import hashlib
import struct

FLUSH_RECORDS = 65536


class Tracer:
    def __init__(self, trace_file=None, window=None):
        self.hash = hashlib.sha256()
        self.buf = []
        self.out = open(trace_file, "w") if trace_file else None
        self.window = window            # (begin address, end address) or None
        self.on = window is None

    def record(self, rec):
        if not self.on:
            return
        self.buf.append(rec)
        if len(self.buf) >= FLUSH_RECORDS:
            self.flush()

    def block(self, addr, n):
        """A block of n instructions at addr is entered (opens or closes the window)."""
        if self.window:
            if addr == self.window[0]:
                self.on = True
            elif addr == self.window[1]:
                self.on = False
        self.record(b"X%08x %d\n" % (addr, n))

    def flush(self):
        data = b"".join(self.buf)
        self.buf.clear()
        self.hash.update(data)
        if self.out:
            self.out.write(data.decode())

    def finish(self, exit_code, cycles):
        """Record the exit (with the cycles unless windowed), close; returns the hash."""
        self.on = True
        self.record(b"E %d\n" % exit_code if self.window else
                    b"E %d %d\n" % (exit_code, cycles))
        self.flush()
        digest = self.hash.hexdigest()
        if self.out:
            self.out.write(f"H {digest}\n")
            self.out.close()
        return digest


def scan_divides(exec_ranges):
    """Addresses of SDIV/UDIV (T1 encodings) in the executable segments [(base, bytes)]:
    their time depends on the operands (TRM 3.3.1), so the trace records operand widths."""
    found = []
    for base, data in exec_ranges:
        for off in range(0, len(data) - 3, 2):
            hw1, hw2 = struct.unpack_from("<HH", data, off)
            if hw1 & 0xFFD0 == 0xFB90 and hw2 & 0xF0F0 == 0xF0F0:
                found.append(base + off)
    return found
