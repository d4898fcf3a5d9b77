# SPDX-License-Identifier: MIT
"""Recorder for the crypto_box coprocessor (hw/, seed 003): the Verilator model of
mb_asip with the register-toggle power model of hw/leak/tb_leak.cpp.

One sample per clock cycle: the number of flip-flops that change at that edge (Hamming
distance of the whole register state between successive cycles), summed over the
channels asked for: "datapath" (accumulator, multiplier operands, prefetch buffer,
constant and RAM output registers), "control" (pc, instruction register, page, swap,
counters, multiplier state) and "ram" (the RAM's bit cells, written words only).

function "x25519" is the DH-1 command (R0 = secret, R1 = u; R1 = X25519(secret, u)).
function "x25519_randomized" is the lab's variant (hw/leak/dh1_rand.s, a 10-bank RAM; not
the shipped ROM): DH-1 with Coron's randomized projective coordinates. lambda comes
from the input's rnd as in mb_x25519_randomized (`lambda_of`: even, full width) and is
poked into R9 (a real design would need a write-only host port for it); the program
sets rho = lambda^2.

The window starts at the first clock edge at which stage 1 fetches the ladder's first
instruction (the ladder label of the ROM) and holds `samples` cycles; one ladder step is
LADDER_STEP_CYCLES[function][W] cycles; default_samples covers the first five steps
(bits 254..250: what cpa.py's attack on four bits needs). Runs are cut short after the
window (the model is reset); the first input of every record() call and every
`check_every`-th one also run to the end, and the result is compared with libsodium's
(PyNaCl). One simulator process serves all traces."""
import json
import os
import subprocess
from pathlib import Path

import numpy as np

from .inputs import Recorder

REPO = Path(__file__).resolve().parents[3]
CHANNELS = ("datapath", "control", "ram")
CMD_DH1 = 1
W_DEFAULT = 16
DEFAULT_STEPS = 5
# function -> (testbench directory under leak/W*, ROM image, ladder label)
VARIANTS = {
    "x25519": ("", "rom.json", "ladder"),
    "x25519_randomized": ("rand", "leak/rom_rand.json", "rladder"),
}


def build_dir():
    return Path(os.environ.get("MOTEBOX_BUILD", REPO / "build")) / "hw"


def expected(secret, pub):
    """X25519(secret, u) from libsodium (PyNaCl); None for the all-zero result (a
    low-order point, which libsodium refuses)."""
    from nacl.bindings import crypto_scalarmult
    from nacl.exceptions import RuntimeError as NaclError
    try:
        return crypto_scalarmult(secret, pub)
    except NaclError:
        return None


class LeakSim:
    """Handle on one tb_leak process (its line protocol is documented in tb_leak.cpp)."""

    def __init__(self, binary):
        if not Path(binary).exists():
            raise FileNotFoundError(f"{binary} missing: run `make hw-leak-sim`")
        self.p = subprocess.Popen([str(binary)], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def send(self, line):
        self.p.stdin.write(line.encode() + b"\n")

    def _line(self):
        self.p.stdin.flush()
        out = self.p.stdout.readline().decode().strip()
        if not out or out == "TIMEOUT":
            raise RuntimeError(f"tb_leak: unexpected answer {out!r}")
        return out

    def write(self, bank, data):
        assert bank in (0, 1) and len(data) == 32
        self.send(f"W {bank} {data.hex()}")

    def poke(self, bank, data):
        assert 0 <= bank <= 9 and len(data) == 32
        self.send(f"M {bank} {data.hex()}")

    def read(self, bank):
        self.send(f"R {bank}")
        return bytes.fromhex(self._line())

    def _samples(self):
        cycles, n = map(int, self._line().split())
        raw = self.p.stdout.read(6 * n)
        if len(raw) != 6 * n:
            raise RuntimeError("tb_leak: short trace")
        return cycles, np.frombuffer(raw, dtype="<u2").reshape(3, n)

    def trace(self, cmd, trig, samples, full):
        """Run command cmd; (busy cycles or 0 if cut short, uint16 array (3, samples))."""
        self.send(f"P {cmd} {trig} {samples} {int(full)}")
        return self._samples()

    def arm(self, samples):
        self.send(f"A {samples}")

    def recorded(self):
        """The (3, n) toggles of the n edges since arm()."""
        self.send("T")
        return self._samples()[1]

    def close(self):
        try:
            self.send("Q")
            self.p.stdin.close()
        except OSError:
            pass
        self.p.wait()


class HwRecorder(Recorder):
    target = "hw"

    def __init__(self, impl="rtl", function="x25519", W=W_DEFAULT, channels=CHANNELS,
                 check_every=256, build=None, even_lambda=True):
        if impl != "rtl":
            raise ValueError(f"hw target: no build {impl!r} (only 'rtl')")
        if function not in VARIANTS:
            raise ValueError(f"hw target: no {function!r} (one of {', '.join(VARIANTS)})")
        bad = set(channels) - set(CHANNELS)
        if bad:
            raise ValueError(f"unknown channels {sorted(bad)}")
        self.impl, self.function, self.W = impl, function, W
        self.mask = np.array([c in channels for c in CHANNELS])
        self.check_every = check_every
        self.even_lambda = even_lambda
        self.build = Path(build) if build else build_dir()
        subdir, rom, label = VARIANTS[function]
        with open(self.build / rom) as f:
            self.trig = json.load(f)["labels"][label]
        self.binary = self.build / "leak" / f"W{W}" / subdir / "vleak"
        self.default_samples = DEFAULT_STEPS * LADDER_STEP_CYCLES[function][W]
        cmd = "randomized DH-1 (lab variant)" if subdir else "DH-1"
        self.window = (f"{cmd} (W={W}): from the first cycle of the Montgomery ladder "
                       f"(pc = ladder), one sample per cycle = flip-flop toggles "
                       f"({'+'.join(c for c in CHANNELS if c in channels)})")
        self._sim = None
        self._primed = None

    @property
    def sim(self):
        if self._sim is None:
            self._sim = LeakSim(self.binary)
        return self._sim

    def run(self, inp, samples, full):
        """One DH-1 command: (busy cycles or 0, (3, samples) toggles, result or None)."""
        sim = self.sim
        sim.write(0, inp.secret)
        sim.write(1, inp.pub)
        if self.function == "x25519_randomized":
            sim.poke(9, lambda_of(inp.rnd, self.even_lambda))
        cycles, x = sim.trace(CMD_DH1, self.trig, samples, full)
        return cycles, x, (sim.read(1) if full else None)

    def record(self, inputs, samples, noise_snr=None, seed=0):
        out = np.empty((len(inputs), samples), dtype=np.float32)
        for i, inp in enumerate(inputs):
            if inp.function != self.function:
                raise ValueError(f"input for {inp.function}, recorder for {self.function}")
            # Registers the ladder has not written yet still hold what the previous run
            # left: every recorded run follows a run cut at the same cycle, or the
            # traces after a checked (full) run would differ from the others.
            if self._primed != samples:
                self.run(inp, samples, False)
                self._primed = samples
            _, x, _ = self.run(inp, samples, False)
            out[i] = x[self.mask].sum(axis=0)
            if self.check_every and i % self.check_every == 0:
                self.check(inp)
                self.run(inp, samples, False)
        if noise_snr:
            # SNR = var(signal) / var(noise), var(signal) over all samples of this batch
            rng = np.random.default_rng(seed)
            sd = np.sqrt(max(float(out.var()), 1e-12) / noise_snr)
            out += rng.normal(0.0, sd, out.shape).astype(np.float32)
        return out

    def check(self, inp):
        """Run inp to the end and compare the result with libsodium's (the randomized
        variant computes the same X25519)."""
        _, _, result = self.run(inp, 1, True)
        want = expected(inp.secret, inp.pub) or bytes(32)    # low order: all zero
        if result != want:
            raise RuntimeError(f"coprocessor DH-1 wrong: X25519({inp.secret.hex()}, "
                               f"{inp.pub.hex()}) = {result.hex()}, libsodium {want.hex()}")

    def close(self):
        if getattr(self, "_sim", None) is not None:   # __init__ may have failed before it
            self._sim.close()
            self._sim = None
            self._primed = None

    def __del__(self):
        self.close()


# busy cycles of one ladder step (from one ladder fetch to the next; constant time, so
# the same for every input), measured with the model: tests/hw/test_hw_leak.py checks it
LADDER_STEP_CYCLES = {
    "x25519": {2: 10930, 4: 6062, 8: 3628, 12: 3044, 16: 2460},
    "x25519_randomized": {2: 12069, 4: 6669, 8: 3969, 12: 3321, 16: 2673},
}


def lambda_of(rnd, even=True):
    """lambda as mb_x25519_randomized makes it (src/curve/x25519_scalarmult.c): the 32
    bytes of rnd with bit 255 and (even) bit 0 cleared, or 2 if that leaves 0; nonzero
    mod p. Why even: the ladder computes mod 2^256 - 38 = 2p, and Z/2p = Z/2 x F_p (CRT),
    so every stored value carries a parity that the ladder's formulas compute over Z/2
    from the parities of its inputs. With lambda odd, lambda u has the parity of u (a
    fixed u fixes low bits: TVLA fails, 6.2 at 3,000 traces); with lambda and rho =
    lambda^2 even every value of the ladder is even, whatever u and the scalar.
    even=False keeps bit 0 (the negative control)."""
    v = int.from_bytes(rnd, "little") & ((1 << 255) - 1)
    if even:
        v &= ~1
    return (v or 2).to_bytes(32, "little")


def recorder(target="hw", impl="rtl", function="x25519"):
    if target != "hw":
        raise ValueError(f"record_hw: target {target!r} is not 'hw'")
    return HwRecorder(impl, function)
