# SPDX-License-Identifier: MIT
"""Recorder for the Cortex-M4 model (target "cortex-m4"): the leakage model of
motebox_tools.sim.m4.leak on build/m4/<variant>/ct.elf (tests/target/ct.c), its
`ct_input` patched in RAM per trace (docs/SIDE_CHANNELS.md, "Leakage model (Cortex-M4
model)").

impl "portable" = variant O2 (portable C, GF(2^255-19) in radix 2^25.5, P-256 radix 32),
"asm" = O2-asm (arch/cortex-m4/); any other variant name (Os, Os-asm) is taken as is.

Windows (WINDOWS): the ladder after the input point's decoding and the randomization,
before the final inversion; `samples` defaults to about its first four steps (bits).
  x25519*  asm       mb_x25519_scalarmult@loop (the `.Lstep` loop head of
                     arch/cortex-m4/x25519_scalarmult.S) .. mb_fe25519_invert_core
           portable  mb_x25519_ladder_steps .. mb_fe25519_invert
  p256*    asm       mb_p256_jdbl#2 (the first doubling of the window loop of
                     arch/cortex-m4/p256_window.c, after the table and lambda) .. mb_fep256_invert
           portable  mb_p256_ladder_loop .. mb_fep256_invert
Every `check_every`-th trace (and the first of each call) runs to the end and its output
is compared with libsodium (PyNaCl) or OpenSSL (cryptography). Traces are recorded by
`workers` processes (2 by default) once a call has at least PARALLEL_MIN inputs."""
import bisect
import os
import re
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from ..paths import build_root
from ..sim.m4 import leak as m4leak
from .inputs import LeakInput, Recorder

IMPLS = {"portable": "O2", "asm": "O2-asm"}
# (impl, curve) -> (start, end, instructions per ladder step (plain, randomized), steps
# in the default window); the randomized X25519 step has one more product (by z1)
WINDOWS = {
    ("asm", "x25519"): ("mb_x25519_scalarmult@loop", "mb_fe25519_invert_core", (1402, 1542), 4),
    ("portable", "x25519"): ("mb_x25519_ladder_steps", "mb_fe25519_invert", (3749, 4144), 4),
    # the asm P-256 is a 4-bit window loop: 1 window = 4 bits
    ("asm", "p256"): ("mb_p256_jdbl#2", "mb_fep256_invert", (8667, 8667), 1),
    ("portable", "p256"): ("mb_p256_ladder_loop", "mb_fep256_invert", (11423, 11423), 4),
}
# word size the field code works in, for cpa.py's hypotheses (O2: radix 2^25.5; Os: 32)
CPA_MODEL = {"portable": "r25", "O2": "r25", "asm": "hw32", "O2-asm": "hw32", "Os": "hw32",
             "Os-asm": "hw32"}
PARALLEL_MIN = 64


def variant(impl):
    return IMPLS.get(impl, impl)


def elf_path(impl):
    return build_root() / "m4" / variant(impl) / "ct.elf"


def expected(function, secret, pub):
    """(return text, output hex) from libsodium / OpenSSL for one input."""
    if function.startswith("x25519"):
        from nacl.bindings import crypto_scalarmult
        from nacl.exceptions import RuntimeError as NaclError
        try:
            return "0", crypto_scalarmult(secret, pub).hex()
        except NaclError:            # all-zero result: mb_x25519 fails closed
            return "-1", bytes(32).hex()
    from cryptography.hazmat.primitives.asymmetric import ec
    try:
        me = ec.derive_private_key(int.from_bytes(secret, "big"), ec.SECP256R1())
        peer = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), pub)
    except ValueError:
        return "-1", bytes(32).hex()
    return "0", me.exchange(ec.ECDH(), peer).hex()


def ct_input(inp):
    """The bytes of tests/target/ct.c's struct ct_input for one LeakInput."""
    if len(inp.secret) != 32 or len(inp.rnd) != 32 or len(inp.pub) > 65:
        raise ValueError("secret and rnd: 32 bytes; pub: at most 65")
    return bytes([inp.op]) + inp.secret + inp.rnd + inp.pub.ljust(65, b"\0")


# --- worker side (one Engine per process and window) ---------------------------------
_ENGINES = {}


def _engine(elf, window, model=m4leak.Model()):
    key = (str(elf), window, model)
    eng = _ENGINES.get(key)
    if eng is None:
        eng = _ENGINES[key] = m4leak.Engine(elf, window, model=model)
    return eng


def _record_chunk(elf, window, model, items):
    """items: [(data, function, secret, pub, check)] -> (array, [error or None])."""
    eng = _engine(elf, window, model)
    out = np.zeros((len(items), window.samples), dtype=np.float32)
    errors = []
    for k, (data, function, secret, pub, check) in enumerate(items):
        x, console = eng.run(data, check)
        out[k, :len(x)] = x[:window.samples]
        err = None
        if check:
            fields = dict(line.split(" ", 1) for line in console.strip().splitlines()
                          if " " in line)
            ret, want = expected(function, secret, pub)
            got = (fields.get("op", "").split(" return ")[-1], fields.get("out"))
            if got != (ret, want):
                err = f"{function}: output {got} but {(ret, want)} expected (libsodium/OpenSSL)"
        errors.append(err)
    return out, errors


class M4Recorder(Recorder):
    """Traces of ct.elf of one Cortex-M4 build in the leakage model (see the module)."""
    target = "cortex-m4"

    def __init__(self, impl="asm", function="x25519", check_every=64, workers=2,
                 model=m4leak.Model(), elf=None):
        curve = "p256" if function.startswith("p256") else "x25519"
        key = (impl if impl in IMPLS else ("asm" if impl.endswith("-asm") else "portable"),
               curve)
        self.impl, self.function = impl, function
        self.start, self.end, step, steps = WINDOWS[key]
        self.default_samples = step[function.endswith("_randomized")] * steps + 32
        self.elf = elf or elf_path(impl)
        if not os.path.exists(self.elf):
            raise FileNotFoundError(f"{self.elf} missing: run `make m4`")
        self.check_every = check_every
        self.workers = workers
        self.model = model
        self.cpa_model = CPA_MODEL.get(impl)
        self.window = f"{self.start} .. {self.end} (first S instructions)"
        self.pool = None
        self.signal_var = None

    def _window(self, samples):
        return m4leak.Window(self.start, self.end, samples)

    def record(self, inputs, samples=None, noise_snr=None, seed=0):
        samples = samples or self.default_samples
        window = self._window(samples)
        items = [(ct_input(inp), inp.function, inp.secret, inp.pub,
                  bool(self.check_every) and k % self.check_every == 0)
                 for k, inp in enumerate(inputs)]
        if self.workers > 1 and len(items) >= PARALLEL_MIN:
            if self.pool is None:
                self.pool = ProcessPoolExecutor(self.workers)
            n = -(-len(items) // self.workers)
            chunks = [items[i:i + n] for i in range(0, len(items), n)]
            parts = list(self.pool.map(_record_chunk, [self.elf] * len(chunks),
                                       [window] * len(chunks), [self.model] * len(chunks),
                                       chunks))
        else:
            parts = [_record_chunk(self.elf, window, self.model, items)]
        errors = [e for _, errs in parts for e in errs if e]
        if errors:
            raise AssertionError(f"cortex-m4 {self.impl}: {errors[0]}")
        x = np.concatenate([p for p, _ in parts]) if parts else \
            np.zeros((0, samples), dtype=np.float32)
        if noise_snr and len(x):
            if self.signal_var is None:     # the Method section's SNR: var(signal) / var(noise)
                self.signal_var = float(np.var(x[:16]))
            m4leak.add_noise(x, np.sqrt(self.signal_var / noise_snr), seed, 0)
        return x

    def sample_pcs(self, samples=None, inp=None):
        """The instruction address of each sample (constant-time code: the same for every
        input) and a function mapping an address to its function's name, for locating
        a leak (sample -> pc -> function)."""
        samples = samples or self.default_samples
        eng = _engine(self.elf, self._window(samples), self.model)
        inp = inp or self._probe_input()
        eng.run(ct_input(inp))
        _, pcs = eng.capture.result()
        funcs = sorted((a & ~1, name) for name, (a, size) in eng.funcs.items()
                       if a < m4leak.RAM_BASE and not name.startswith("$"))
        starts = [a for a, _ in funcs]

        def function_of(pc):
            j = bisect.bisect_right(starts, int(pc)) - 1
            return funcs[j][1] if j >= 0 else "?"
        return pcs[:samples], function_of

    def _probe_input(self):
        from .campaign import random_pub
        rng = np.random.default_rng(0)
        secret = bytes(rng.integers(1, 128, 32, dtype=np.uint8))
        return LeakInput(self.function, secret, random_pub(self.function, rng),
                         bytes(rng.integers(0, 256, 32, dtype=np.uint8)))

    def close(self):
        if self.pool is not None:
            self.pool.shutdown()
            self.pool = None

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001  (interpreter shutdown)
            pass


def recorder(target="cortex-m4", impl="asm", function="x25519", **kw):
    """The recorder of campaign.get_recorder for target "cortex-m4"."""
    if target != "cortex-m4":
        raise ValueError(f"record_m4 records target cortex-m4, not {target!r}")
    if not re.fullmatch(r"portable|asm|O[2s](-asm)?", impl):
        raise ValueError(f"cortex-m4 impl {impl!r}: one of portable, asm, O2, O2-asm, Os, Os-asm")
    return M4Recorder(impl, function, **kw)
