# SPDX-License-Identifier: MIT
"""Recorder for the MSP430X ISS (build/sim/msp430sim, its leakage model `--leak`; the
section "Leakage model (MSP430X ISS)" of docs/SIDE_CHANNELS.md).

One sample per executed instruction: the Hamming weight of every value the instruction
writes to a register or memory plus the Hamming distance between successive data-bus
values. The firmware is tests/target/ct.c (ct.elf: X25519, ct-p256.elf: P-256) of the
build; one simulator process per `record` call loads it once and, per input, resets
CPU and memory, writes the 130-byte `ct_input` record (op, secret, rnd, pub) and runs
until the window has `samples` samples (`--leak-batch`). The first `check` inputs of
each call run to the end and their output is compared with libsodium (PyNaCl) or
OpenSSL (`cryptography`).

The window is the scalar multiplication's ladder loop, from its first instruction
(after the input point's decoding and, for the randomized functions, its
randomization) to the first instruction after it (before the final inversion):
  x25519*, portable:  mb_x25519_ladder_steps .. mb_fe25519_invert (the next call)
  x25519*, asm:       .Lstep .. the instruction after the loop's last `jne .Lstep`
                      (local labels of arch/msp430x/x25519_scalarmult.S, found in
                      mb_x25519_scalarmult by their machine code)
  p256_ecdh*, both:   mb_p256_ladder_loop .. the return address of its call in
                      mb_p256_scalarmult
"""
import os
import re
import subprocess
import tempfile

import numpy as np

from ..boards import msp430 as board
from ..elf import patch_elf, symbol
from .inputs import OPS, LeakInput, Recorder

TARGETS = {"msp430x-mpy32": 32, "msp430x-mpy16": 16}
IMPLS = ("portable", "asm")
RECORD = 130                  # sizeof(struct ct_input): op, secret[32], rnd[32], pub[65]
SNR_PILOT = 16                # noise-free traces that measure the signal's variance
DEFAULT_SAMPLES = 20000       # a quarter of a portable X25519 ladder step (mpy32)
_RECORD_LINE = re.compile(rb"\n?leak-record (\d+) status (-?\d+|stop) samples (\d+) cycles (\d+)\n")


def variant(target, impl):
    """The build directory name: mpy32, mpy16-asm, ..."""
    if target not in TARGETS:
        raise ValueError(f"unknown target {target!r} (one of {', '.join(TARGETS)})")
    if impl not in IMPLS:
        raise ValueError(f"unknown impl {impl!r} (one of {', '.join(IMPLS)})")
    return f"mpy{TARGETS[target]}" + ("-asm" if impl == "asm" else "")


def firmware(target, impl, function):
    """build/msp430/<variant>/ct.elf (X25519) or ct-p256.elf (P-256), under MOTEBOX_BUILD."""
    name = "ct-p256" if function.startswith("p256") else "ct"
    return board.firmware(name, variant=variant(target, impl))


def _text(elf, name):
    """(address, bytes) of the function symbol `name`."""
    from elftools.elf.elffile import ELFFile
    addr, size = symbol(elf, name)
    with open(elf, "rb") as f:
        for sec in ELFFile(f).iter_sections():
            lo = sec["sh_addr"]
            if sec["sh_type"] == "SHT_PROGBITS" and lo <= addr < lo + sec["sh_size"]:
                data = sec.data()[addr - lo:addr - lo + size]
                return addr, data
    raise ValueError(f"{name}: no code in {elf}")


def _once(code, pattern, what):
    hits = [m.start() for m in re.finditer(re.escape(pattern), code)]
    if len(hits) != 1:
        raise ValueError(f"{what}: {len(hits)} matches of {pattern.hex()} (expected 1): "
                         "the assembly changed, update record_msp430.window()")
    return hits[0]


def _call_return(elf, caller, callee):
    """Return address of the one `call #callee` (0x12b0, addr) in function `caller`."""
    base, code = _text(elf, caller)
    target, _ = symbol(elf, callee)
    pat = bytes([0xb0, 0x12, target & 0xff, target >> 8])
    return base + _once(code, pat, f"call #{callee} in {caller}") + 4


def window(elf, impl, function):
    """(begin, end, description) of the ladder window in this image."""
    if function.startswith("p256"):
        begin, _ = symbol(elf, "mb_p256_ladder_loop")
        end = _call_return(elf, "mb_p256_scalarmult", "mb_p256_ladder_loop")
        return begin, end, "mb_p256_ladder_loop .. its return"
    if impl == "portable":
        begin, _ = symbol(elf, "mb_x25519_ladder_steps")
        end, _ = symbol(elf, "mb_fe25519_invert")
        return begin, end, "mb_x25519_ladder_steps .. mb_fe25519_invert"
    base, code = _text(elf, "mb_x25519_scalarmult")
    # .Lstep: mov #0, r15; bit.b r5, 0(r4)
    begin = base + _once(code, bytes.fromhex("0f43c4b50000"), ".Lstep")
    # the loop's end: cmp KEND(r1), r4 (KEND = 194); jne .Lstep
    k = _once(code, bytes.fromhex("1491c200"), "cmp KEND(r1), r4")
    if code[k + 5] & 0xfc != 0x20:
        raise ValueError("no jne after cmp KEND(r1), r4: update record_msp430.window()")
    return begin, base + k + 6, "x25519_scalarmult.S .Lstep .. the loop's exit"


def expected(inp):
    """What ct.c must print as `out` for this input (libsodium / OpenSSL)."""
    if inp.function.startswith("x25519"):
        import nacl.bindings
        from nacl.exceptions import RuntimeError as NaclError
        try:
            return nacl.bindings.crypto_scalarmult(inp.secret, inp.pub[:32])
        except NaclError:       # all-zero result (low-order point): libsodium refuses
            return bytes(32)
    from cryptography.hazmat.primitives.asymmetric import ec
    sk = ec.derive_private_key(int.from_bytes(inp.secret, "big"), ec.SECP256R1())
    peer = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), inp.pub)
    return sk.exchange(ec.ECDH(), peer)


def pack(inp):
    """The ct_input record of one input."""
    if len(inp.secret) != 32 or len(inp.rnd) != 32 or len(inp.pub) > 65:
        raise ValueError("secret and rnd are 32 bytes, pub at most 65")
    return bytes([inp.op]) + inp.secret + inp.rnd + inp.pub.ljust(65, b"\0")


def run_batch(elf, mpy, records, samples, begin, end, full=0, sigma=0.0, seed=0,
              u8=False, sim=None, timeout=3600):
    """One simulator process over `records` (list of ct_input bytes): returns (samples
    array (len(records), samples), list of (status, samples, cycles, console bytes))."""
    addr, size = symbol(elf, "ct_input")
    if size != RECORD:
        raise ValueError(f"ct_input is {size} bytes in {elf}, expected {RECORD}")
    with tempfile.TemporaryDirectory(prefix="leak430") as d:
        batch, out = os.path.join(d, "in.bin"), os.path.join(d, "out.bin")
        with open(batch, "wb") as f:
            f.write(b"".join(records))
        cmd = [str(sim or board.sim_path()), "--mpy", str(mpy), "--leak", out,
               "--leak-window", f"{begin:#x}:{end:#x}", "--leak-samples", str(samples),
               "--leak-batch", batch, "--leak-patch", f"{addr:#x}:{RECORD}",
               "--leak-full", str(full)]
        if sigma > 0:
            cmd += ["--leak-noise", repr(float(sigma)), "--leak-seed", str(seed)]
        if u8:
            cmd += ["--leak-u8"]
        p = subprocess.run(cmd + [str(elf)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           stdin=subprocess.DEVNULL, timeout=timeout)
        if p.returncode != 0:
            raise RuntimeError(f"msp430sim --leak-batch: status {p.returncode}: "
                               f"{p.stderr.decode(errors='replace')[-500:]}")
        x = np.fromfile(out, dtype=np.uint8 if u8 else "<f4")
    runs, pos = [], 0
    for m in _RECORD_LINE.finditer(p.stdout):
        st = m.group(2)
        runs.append((None if st == b"stop" else int(st), int(m.group(3)), int(m.group(4)),
                     p.stdout[pos:m.start()]))
        pos = m.end()
    if len(runs) != len(records) or x.size != len(records) * samples:
        raise RuntimeError(f"msp430sim --leak-batch: {len(runs)} runs, {x.size} samples for "
                           f"{len(records)} records of {samples}")
    return x.reshape(len(records), samples), runs


class Msp430Recorder(Recorder):
    """Traces of one function on one MSP430 build (module docstring). check: how many
    inputs of each record() call run to the end with their output verified."""

    default_samples = DEFAULT_SAMPLES

    def __init__(self, target, impl, function, check=2, sim=None):
        if function not in OPS:
            raise ValueError(f"unknown function {function!r} (one of {', '.join(OPS)})")
        variant(target, impl)       # validates both
        self.target, self.impl, self.function = target, impl, function
        self.mpy = TARGETS[target]
        self.elf = firmware(target, impl, function)
        if not self.elf.exists():
            raise FileNotFoundError(f"{self.elf} missing: run `make msp430`")
        self.sim = sim
        self.check = check
        self.begin, self.end, self.window = window(self.elf, impl, function)
        self._signal_var = {}
        self._step = None

    def record(self, inputs, samples, noise_snr=None, seed=0):
        for inp in inputs:
            if inp.function != self.function:
                raise ValueError(f"input for {inp.function}, recorder for {self.function}")
        sigma = 0.0
        if noise_snr:
            sigma = float(np.sqrt(self.signal_var(inputs, samples) / noise_snr))
        x, runs = run_batch(self.elf, self.mpy, [pack(i) for i in inputs], samples,
                            self.begin, self.end, full=self.check, sigma=sigma, seed=seed,
                            sim=self.sim)
        for k, (inp, (status, n, _, console)) in enumerate(zip(inputs, runs)):
            if n == 0:
                raise RuntimeError(f"input {k}: the window {self.window} never opened")
            if k < self.check:
                self._verify(k, inp, status, console)
            elif status is not None and status != 0:
                raise RuntimeError(f"input {k}: firmware exit status {status}")
        return x

    def _verify(self, k, inp, status, console):
        text = console.decode("latin-1")
        fields = dict(line.split(" ", 1) for line in text.splitlines() if " " in line)
        want = expected(inp)
        # an all-zero X25519 result (low-order point) is refused: -1, output zeroed
        ret = "return -1" if not any(want) else "return 0"
        if status != 0 or "out" not in fields or ret not in fields.get("op", ""):
            raise RuntimeError(f"input {k}: status {status}, console {text!r}")
        got = bytes.fromhex(fields["out"])
        if got != want:
            raise RuntimeError(f"input {k}: {self.function} gave {got.hex()}, "
                               f"reference {want.hex()}")

    def step_samples(self):
        """Samples per ladder step of this build and function (the whole window of one
        run, counted once, over its 255 (X25519) or 256 (P-256) steps; constant-time code
        makes it the same for every input): for windows of whole steps, e.g. CPA on the
        first k bits needs about (k + 1) * step_samples() samples."""
        if self._step is None:
            from .campaign import random_pub
            rng = np.random.default_rng(0)
            inp = LeakInput(self.function, bytes([1]) + bytes(31),
                            random_pub(self.function, rng), bytes(range(32)))
            with tempfile.TemporaryDirectory(prefix="leak430") as d:
                elf = patch_elf(self.elf, os.path.join(d, "ct.elf"), "ct_input", pack(inp))
                p = subprocess.run([str(self.sim or board.sim_path()), "--mpy", str(self.mpy),
                                    "--leak", os.devnull, "--leak-u8", "--leak-window",
                                    f"{self.begin:#x}:{self.end:#x}", "--leak-samples",
                                    str(1 << 40), "--leak-full", "0", str(elf)],
                                   capture_output=True, timeout=600)
            m = re.search(rb"^leak-samples: (\d+)$", p.stderr, re.M)
            if p.returncode != 0 or not m:
                raise RuntimeError(f"msp430sim: {p.stderr.decode(errors='replace')[-300:]}")
            steps = 256 if self.function.startswith("p256") else 255
            self._step = int(m.group(1)) // steps
        return self._step

    def sample_pcs(self, inp, samples):
        """sample_pcs() of this recorder's window, for input inp (its operation)."""
        return sample_pcs(self.elf, self.mpy, self.begin, samples, pack(inp), sim=self.sim)

    def signal_var(self, inputs, samples):
        """The variance of the noise-free samples (over all samples of the first
        SNR_PILOT inputs of the first noisy call, kept for later calls: the noise level
        must not change between the batches of one campaign). SNR = it / sigma^2."""
        if samples not in self._signal_var:
            x, _ = run_batch(self.elf, self.mpy, [pack(i) for i in inputs[:SNR_PILOT]],
                             samples, self.begin, self.end, sim=self.sim)
            self._signal_var[samples] = max(float(x.var()), 1e-12)
        return self._signal_var[samples]


def recorder(target, impl, function, **kw):
    """A Msp430Recorder: target msp430x-mpy32 | msp430x-mpy16, impl portable | asm."""
    return Msp430Recorder(target, impl, function, **kw)


def sample_pcs(elf, mpy, begin, samples, record=None, sim=None, timeout=600):
    """The address of the instruction behind each of the first `samples` samples of a
    window starting at `begin`, in a run of elf with `ct_input` = record (bytes of
    pack(); None: the image as it is). The operation is public and selects the code, so
    pass an input of the campaign's function; the secret and the points do not change
    the instruction sequence of constant-time code, so any such input gives the map for
    every trace. For locating a leak: sample -> PC -> function_of()."""
    with tempfile.TemporaryDirectory(prefix="leak430") as d:
        if record is not None:
            elf = patch_elf(elf, os.path.join(d, "ct.elf"), "ct_input", record)
        fifo = os.path.join(d, "trace")
        os.mkfifo(fifo)       # the trace streams through a pipe, read until enough
        p = subprocess.Popen([str(sim or board.sim_path()), "--mpy", str(mpy), "--trace", fifo,
                              str(elf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             stdin=subprocess.DEVNULL)
        pcs, inside = [], False
        try:
            with open(fifo, "rb") as f:
                for line in f:
                    pc = int(line[:5], 16)
                    inside = inside or pc == begin
                    if inside:
                        pcs.append(pc)
                        if len(pcs) == samples:
                            break
        finally:
            p.kill()
            p.wait(timeout=timeout)
    return np.array(pcs, dtype=np.uint32)


def function_of(elf):
    """A function addr -> name of the function symbol containing addr (or below it)."""
    from elftools.elf.elffile import ELFFile
    with open(elf, "rb") as f:
        syms = sorted((s["st_value"], s.name) for s in ELFFile(f).get_section_by_name(".symtab")
                      .iter_symbols() if s["st_info"]["type"] == "STT_FUNC")
    addrs = np.array([a for a, _ in syms])

    def name(addr):
        i = int(np.searchsorted(addrs, addr, side="right")) - 1
        return syms[i][1] if i >= 0 else None
    return name
