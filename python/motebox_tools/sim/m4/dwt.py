# SPDX-License-Identifier: MIT
"""System Control Space of the modelled Cortex-M4: CPUID, DEMCR and the DWT cycle counter
(ARMv7-M ARM C1.8). DWT_CYCCNT counts modelled cycles while DEMCR.TRCENA and
DWT_CTRL.CYCCNTENA are set; a read reports the cycles up to the reading instruction."""

PPB_BASE, PPB_SIZE = 0xE0000000, 0x00100000

DEMCR = 0xE000EDFC
DEMCR_TRCENA = 1 << 24
DWT_CTRL = 0xE0001000
DWT_CTRL_CYCCNTENA = 1
DWT_CTRL_RO = 4 << 28          # NUMCOMP = 4; NOCYCCNT = 0: the cycle counter exists
DWT_CYCCNT = 0xE0001004
CPUID = 0xE000ED00
CPUID_M4 = 0x410FC241          # Cortex-M4 r0p1


class SystemControlSpace:
    """Registers of the PPB as plain storage, except CPUID, DWT_CTRL's read-only fields
    and DWT_CYCCNT. now(): modelled cycles before the instruction accessing it."""

    def __init__(self, now):
        self.now = now
        self.regs = {}
        self.cyc_frozen = 0          # counter value at cyc_mark (or while stopped)
        self.cyc_mark = None         # modelled cycle when it last started, None: stopped

    def _running(self):
        return bool(self.regs.get(DEMCR, 0) & DEMCR_TRCENA and
                    self.regs.get(DWT_CTRL, 0) & DWT_CTRL_CYCCNTENA)

    def _cyccnt(self, now):
        if self.cyc_mark is None:
            return self.cyc_frozen
        return (self.cyc_frozen + now - self.cyc_mark) & 0xFFFFFFFF

    def read(self, uc, offset, size, _):
        """unicorn MMIO read callback (offset from PPB_BASE)."""
        addr = PPB_BASE + offset
        if addr == DWT_CYCCNT:
            return self._cyccnt(self.now())
        if addr == DWT_CTRL:
            return self.regs.get(DWT_CTRL, 0) | DWT_CTRL_RO
        if addr == CPUID:
            return CPUID_M4
        return self.regs.get(addr, 0)

    def write(self, uc, offset, size, value, _):
        """unicorn MMIO write callback: any write may start, stop or set the counter."""
        addr = PPB_BASE + offset
        now = self.now()
        count = self._cyccnt(now)
        if addr == DWT_CYCCNT:
            count = value & 0xFFFFFFFF
        else:
            self.regs[addr] = value
        self.cyc_frozen = count
        self.cyc_mark = now if self._running() else None
