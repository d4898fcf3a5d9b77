# SPDX-License-Identifier: MIT
"""CPA on a 4-bit digit of the Cortex-M4 assembly P-256 scalar multiplication
(arch/cortex-m4/p256_window.c; docs/SIDE_CHANNELS.md).

Each window adds T = d P, the table entry of the signed odd digit d = 2u - 15 picked
by a masked scan (mb_p256_asel) from the affine multiples P, 3P, ..., 15P of the
public input point. T depends only on P and the secret digit: the projective
randomization of the accumulator (mb_p256_ecdh_randomized) does not touch it. So the
attacker predicts, for each of the 16 values of u, the Hamming weights of the 32-bit
words of T's coordinates as stored (Montgomery form x 2^256 mod p, y negated for
u < 8), correlates them with every sample and takes the best; the first window after
the top digit is i = 62 (u = bits 249..252 of k' = k or n - k, whichever is odd)."""
import numpy as np

from .cpa import significant
from .stats import Correlation

P = 2 ** 256 - 2 ** 224 + 2 ** 192 + 2 ** 96 - 1
N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551
R = 2 ** 256


def _add(a, b):
    """Affine addition of distinct, non-opposite points (or doubling when a == b)."""
    (x1, y1), (x2, y2) = a, b
    if a == b:
        m = (3 * x1 * x1 - 3) * pow(2 * y1, -1, P) % P
    else:
        m = (y2 - y1) * pow(x2 - x1, -1, P) % P
    x3 = (m * m - x1 - x2) % P
    return x3, (m * (x1 - x3) - y1) % P


def odd_multiples(pt):
    """[P, 3P, ..., 15P] (affine)."""
    two = _add(pt, pt)
    out = [pt]
    for _ in range(7):
        out.append(_add(out[-1], two))
    return out


def digit(secret, i):
    """u_i of the recoding: bits 4i+1 .. 4i+4 of k' (k if odd, else n - k)."""
    k = int.from_bytes(secret, "big")
    kw = k if k & 1 else N - k
    return (kw >> (4 * i + 1)) & 15


def predictions(pubs):
    """(16 hypotheses) arrays (n, 16): HW of the 8 words of x R and of y R of T(u)."""
    pts = [(int.from_bytes(p[1:33], "big"), int.from_bytes(p[33:65], "big")) for p in pubs]
    mults = [odd_multiples(p) for p in pts]
    hyp = []
    for u in range(16):
        neg = u < 8
        j = (u ^ (15 if neg else 0)) & 7          # entry (|d| - 1) / 2
        rows = []
        for m in mults:
            x, y = m[j]
            y = (P - y) % P if neg else y
            words = [(v * R % P) >> (32 * w) & 0xffffffff for v in (x, y) for w in range(8)]
            rows.append([bin(w).count("1") for w in words])
        hyp.append(np.array(rows, dtype=np.float32))
    return hyp


def attack(traces, pubs, secret, i=62, chunk=8192):
    """CPA on digit u_i. Returns a dict like cpa.attack's: bits_attacked 4,
    bits_recovered 4 or 0, traces_to_recover ([N] or []), details."""
    from .cpa import schedule
    traces = np.asarray(traces)
    points = schedule(len(traces))
    truth = digit(secret, i)
    hyp = predictions(pubs)
    # per hypothesis and column: max |rho| over the samples. Score = the mean over the
    # 16 columns: u and 15 - u share x (T and -T), only the y words tell them apart
    colmax = {n: np.zeros((16, 16)) for n in points}
    for c0 in range(0, traces.shape[1], chunk):
        xc = traces[:, c0:c0 + chunk]
        for u, h in enumerate(hyp):
            acc, lo = Correlation(h.shape[1], xc.shape[1]), 0
            for n in points:
                acc.add(h[lo:n], xc[lo:n])
                lo = n
                colmax[n][u] = np.maximum(colmax[n][u], np.max(np.abs(acc.rho()), axis=1))
    best = {n: colmax[n].mean(axis=1) for n in points}
    tests = 16 * traces.shape[1]

    def wins(n):
        r = best[n]
        return int(np.argmax(r)) == truth and r[truth] > np.max(np.delete(r, truth)) and \
            significant(float(colmax[n][truth].max()), n, tests)

    needed = None
    for n in reversed(points):
        if wins(n):
            needed = n
        else:
            break
    ok = wins(points[-1])
    return {"bits_attacked": 4, "bits_recovered": 4 if ok else 0,
            "traces_to_recover": [needed] if ok else [], "model": "hw32-mont",
            "details": [{"digit": i, "truth": truth,
                         "guess": int(np.argmax(best[points[-1]])),
                         "rho": {str(n): [round(float(v), 4) for v in best[n]] for n in points},
                         "traces_needed": needed if ok else None}]}
