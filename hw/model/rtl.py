# SPDX-License-Identifier: MIT
"""Python handle on the Verilator testbench binary (same interface as asip.ASIP)."""
import subprocess

from asip import CMD


class RTL:
    def __init__(self, binary):
        self.p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)

    def _ask(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        out = self.p.stdout.readline().strip()
        if not out or out == "TIMEOUT":
            raise RuntimeError(f"testbench: {line!r} -> {out!r}")
        return out

    def write(self, bank, data):
        assert bank in (0, 1) and len(data) == 32
        self.p.stdin.write(f"W {bank} {data.hex()}\n")

    def read(self, bank):
        return bytes.fromhex(self._ask(f"R {bank}"))

    def run(self, cmd):
        return int(self._ask(f"C {CMD[cmd]}"))

    def close(self):
        self.p.stdin.write("Q\n")
        self.p.stdin.close()
        self.p.wait()
