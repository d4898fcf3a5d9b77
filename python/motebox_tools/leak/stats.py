# SPDX-License-Identifier: MIT
"""Statistics of the side-channel lab: Welch's t per sample (first and second order, the
TVLA / ISO 17825 non-specific test) and Pearson correlation of hypotheses with every
sample (CPA).

Both accumulate in one pass over batches of traces, so 10,000+ traces never have to be
in memory at once. Batches are merged with the pairwise update formulas for central
moments (Chan et al. 1979; Pebay 2008, as used for leakage assessment by Schneider and
Moradi, CHES 2015): no sums of raw powers, whose differences lose all precision when the
mean is large against the spread."""
import numpy as np

THRESHOLD = 4.5     # TVLA: |t| > 4.5 on any sample = leakage detected (about 1e-5 per test)


class Moments:
    """Per-sample count, mean and central sums M2, M3, M4 of one group of traces."""

    def __init__(self, samples):
        self.n = 0
        self.mean = np.zeros(samples)
        self.m2 = np.zeros(samples)
        self.m3 = np.zeros(samples)
        self.m4 = np.zeros(samples)
        self.lo = np.full(samples, np.inf)      # per-sample min and max: a sample that is
        self.hi = np.full(samples, -np.inf)     # constant stays exactly so (no roundoff)

    def add(self, traces):
        """Add a batch (2-D array: one trace per row)."""
        x = np.asarray(traces, dtype=np.float64)
        if x.ndim != 2 or x.shape[1] != self.mean.shape[0]:
            raise ValueError(f"expected (n, {self.mean.shape[0]}) traces, got {x.shape}")
        nb = x.shape[0]
        if nb == 0:
            return
        mb = x.mean(axis=0)
        d = x - mb
        d2 = d * d
        b2, b3, b4 = d2.sum(axis=0), (d2 * d).sum(axis=0), (d2 * d2).sum(axis=0)
        na, n = self.n, self.n + nb
        delta = mb - self.mean
        a2, a3 = self.m2, self.m3
        # the merge of (na, mean, M2..M4) and (nb, mb, b2..b4); M4, M3 use the old M2, M3
        self.m4 = (self.m4 + b4 + delta ** 4 * na * nb * (na * na - na * nb + nb * nb) / n ** 3
                   + 6 * delta ** 2 * (na * na * b2 + nb * nb * a2) / n ** 2
                   + 4 * delta * (na * b3 - nb * a3) / n)
        self.m3 = (a3 + b3 + delta ** 3 * na * nb * (na - nb) / n ** 2
                   + 3 * delta * (na * b2 - nb * a2) / n)
        self.m2 = a2 + b2 + delta ** 2 * na * nb / n
        self.mean = self.mean + delta * nb / n
        self.n = n
        self.lo = np.minimum(self.lo, x.min(axis=0))
        self.hi = np.maximum(self.hi, x.max(axis=0))
        c = self.lo == self.hi
        self.mean[c] = self.lo[c]
        self.m2[c] = self.m3[c] = self.m4[c] = 0.0

    def var(self):
        """Sample variance (n - 1)."""
        return self.m2 / max(self.n - 1, 1)

    def centred_square(self):
        """Mean and variance of the centred squared traces (x - mean)^2: the statistic of
        the univariate second-order test (population moments, as in Schneider-Moradi)."""
        n = max(self.n, 1)
        m = self.m2 / n
        return m, np.maximum(self.m4 / n - m * m, 0.0)


def _welch(m0, v0, n0, m1, v1, n1):
    den = np.sqrt(v0 / max(n0, 1) + v1 / max(n1, 1))
    # a sample with no variance in either group (up to rounding: 1e-9 of its scale):
    # t = 0 if the means agree (a constant sample leaks nothing), else infinite (a
    # deterministic difference is a leak)
    tol = 1e-9 * (np.abs(m0) + np.abs(m1) + 1.0)
    const = den <= tol
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (m0 - m1) / np.where(const, 1.0, den)
    t[const] = np.where(np.abs(m0[const] - m1[const]) <= tol[const], 0.0, np.inf)
    return t


class TTest:
    """Welch's t-test per sample between group 0 (fixed input) and group 1 (random input).

    add(traces, groups): groups is an array of 0/1 per trace (interleaved sets).
    t(order=1): first order, difference of means; t(order=2): second order, the same test
    on the centred squared traces (detects leakage of a variance, e.g. a first-order
    masked value)."""

    def __init__(self, samples):
        self.g = (Moments(samples), Moments(samples))

    def add(self, traces, groups):
        traces = np.asarray(traces)
        groups = np.asarray(groups)
        for k in (0, 1):
            sel = groups == k
            if sel.any():
                self.g[k].add(traces[sel])

    @property
    def n(self):
        return self.g[0].n, self.g[1].n

    def t(self, order=1):
        a, b = self.g
        if order == 1:
            return _welch(a.mean, a.var(), a.n, b.mean, b.var(), b.n)
        if order == 2:
            (ma, va), (mb, vb) = a.centred_square(), b.centred_square()
            return _welch(ma, va, a.n, mb, vb, b.n)
        raise ValueError("order must be 1 or 2")


def welch_t(fixed, random, order=1):
    """Welch's t per sample of two sets of traces (all in memory: a convenience)."""
    fixed, random = np.asarray(fixed), np.asarray(random)
    tt = TTest(fixed.shape[1])
    tt.add(fixed, np.zeros(len(fixed), int))
    tt.add(random, np.ones(len(random), int))
    return tt.t(order)


def max_abs(t, window=None):
    """max |t| over the samples (or over the slice `window`); inf counts, nan does not."""
    t = np.asarray(t)
    if window is not None:
        t = t[window]
    a = np.abs(t[~np.isnan(t)])
    return float(a.max()) if a.size else 0.0


def confirmed(t_a, t_b, threshold=THRESHOLD):
    """Samples where two t-tests on independent trace sets both exceed the threshold
    with the same sign (the TVLA rule of Goodwill et al. 2011: a leak counts when it
    repeats at the same time point; a single |t| > 4.5 among 10^5 samples can be
    chance, about 7e-6 per sample). Returns their indices."""
    t_a, t_b = np.asarray(t_a), np.asarray(t_b)
    with np.errstate(invalid="ignore"):
        hit = (np.abs(t_a) > threshold) & (np.abs(t_b) > threshold) & (np.sign(t_a) == np.sign(t_b))
    return np.flatnonzero(hit)


class Correlation:
    """Pearson correlation of H hypothesis columns with every sample, in one pass.

    add(h, traces): h is (n, H) (predicted leakage per trace and hypothesis column),
    traces (n, S). rho() is (H, S); a column or sample without variance gives 0."""

    def __init__(self, columns, samples):
        self.n = 0
        self.mh = np.zeros(columns)
        self.mx = np.zeros(samples)
        self.sh = np.zeros(columns)
        self.sx = np.zeros(samples)
        self.c = np.zeros((columns, samples))

    def add(self, h, traces):
        h = np.asarray(h, dtype=np.float64)
        x = np.asarray(traces, dtype=np.float64)
        if h.ndim == 1:
            h = h[:, None]
        nb = x.shape[0]
        if nb == 0:
            return
        if h.shape != (nb, self.mh.shape[0]) or x.shape[1] != self.mx.shape[0]:
            raise ValueError("hypothesis / trace shapes do not match the accumulator")
        bh, bx = h.mean(axis=0), x.mean(axis=0)
        dh, dx = h - bh, x - bx
        na, n = self.n, self.n + nb
        eh, ex = bh - self.mh, bx - self.mx
        f = na * nb / n
        self.c += dh.T @ dx + f * np.outer(eh, ex)
        self.sh += (dh * dh).sum(axis=0) + f * eh * eh
        self.sx += (dx * dx).sum(axis=0) + f * ex * ex
        self.mh += eh * nb / n
        self.mx += ex * nb / n
        self.n = n

    def rho(self):
        den = np.sqrt(np.outer(self.sh, self.sx))
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.where(den > 0, self.c / np.where(den > 0, den, 1.0), 0.0)
        return r


def pearson(h, traces):
    """Correlation (H, S) of hypothesis columns h (n, H) with traces (n, S), in memory."""
    h = np.asarray(h, dtype=np.float64)
    acc = Correlation(1 if h.ndim == 1 else h.shape[1], np.asarray(traces).shape[1])
    acc.add(h, traces)
    return acc.rho()
