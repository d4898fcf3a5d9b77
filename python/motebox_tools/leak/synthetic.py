# SPDX-License-Identifier: MIT
"""A synthetic target (`--target synthetic`): the first steps of the X25519 ladder
computed in Python, one sample per 16-bit word written (its Hamming weight), with
Gaussian noise. It runs the whole TVLA / CPA pipeline without a simulator: the tests
use it for planted-leak checks, and it is a quick way to try `motebox leak`.

The plain function starts from R0 = (1 : 0), R1 = (u : 1) like mb_x25519; the randomized
one from R0 = (rho : 0), R1 = (lambda u : lambda) with lambda, rho from rnd (as
mb_x25519_randomized). Every step writes A, B, C, D, DA, CB, AA, BB, the sums' squares,
E, t1 and the new x2, z2, x3, z3 (16 words each)."""
import numpy as np

from . import cpa
from .inputs import Recorder

STEPS = 4           # ladder steps simulated: bits 254 .. 251
VALUES = 16         # values written per step
SAMPLES = STEPS * VALUES * 16


def _nonzero(b):
    v = int.from_bytes(b, "little")
    return v if v else 1


def _step_values(r0, r1, x1, z1, bit):
    """The values one step writes (in order), and the next (R0, R1)."""
    (x2, z2), (x3, z3) = (r1, r0) if bit else (r0, r1)     # after the cswap
    P = cpa.P
    a, b, c, d = (x2 + z2) % P, (x2 - z2) % P, (x3 + z3) % P, (x3 - z3) % P
    da, cb = d * a % P, c * b % P
    s, df = (da + cb) ** 2 % P, (da - cb) ** 2 % P
    aa, bb, e, nx2, t1, nz2 = cpa.double(x2, z2)
    nx3, nz3 = z1 * s % P, x1 * df % P
    vals = [a, b, c, d, da, cb, aa, bb, s, df, e, t1, nx2, nz2, nx3, nz3]
    dbl, sm = (nx2, nz2), (nx3, nz3)
    return vals, ((sm, dbl) if bit else (dbl, sm))


class SyntheticRecorder(Recorder):
    target = "synthetic"
    window = f"ladder steps 254..{255 - STEPS} (Python model, one sample per 16-bit word)"
    default_samples = SAMPLES

    def __init__(self, impl="model", function="x25519"):
        if function not in ("x25519", "x25519_randomized"):
            raise ValueError(f"synthetic target: no model of {function}")
        self.impl, self.function = impl, function

    def _trace(self, inp):
        k = cpa.clamp(inp.secret)
        x1 = cpa.u_of(inp.pub)
        if inp.function == "x25519_randomized":
            lam, rho = _nonzero(inp.rnd[:16]), _nonzero(inp.rnd[16:])
            z1, x1 = lam, x1 * lam % cpa.P
            r0, r1 = (rho, 0), (x1, z1)
        else:
            z1, r0, r1 = 1, (1, 0), (x1, 1)
        out = []
        for t in range(254, 254 - STEPS, -1):
            vals, (r0, r1) = _step_values(r0, r1, x1, z1, (k >> t) & 1)
            out += [w for v in vals for w in cpa.words(v, "hw16")]
        return out

    def record(self, inputs, samples, noise_snr=None, seed=0):
        words = np.array([self._trace(i) for i in inputs], dtype=np.uint16)
        x = cpa._POP[words].astype(np.float32)
        if noise_snr:
            # SNR = var(signal) / var(noise); a word's HW has variance 16/4 = 4
            rng = np.random.default_rng(seed)
            x += rng.normal(0.0, np.sqrt(4.0 / noise_snr), x.shape).astype(np.float32)
        out = np.zeros((len(inputs), samples), dtype=np.float32)
        m = min(samples, x.shape[1])
        out[:, :m] = x[:, :m]
        return out


def recorder(target="synthetic", impl="model", function="x25519"):
    return SyntheticRecorder(impl, function)
