# SPDX-License-Identifier: MIT
"""Leakage tests per target, build and function -> result rows (the Python API of
`motebox leak`; docs/SIDE_CHANNELS.md).

    from motebox_tools.leak import campaign
    row, t = campaign.tvla("msp430x-mpy32", "asm", "x25519", traces=300, samples=4000)
    row = campaign.cpa("msp430x-mpy32", "asm", "x25519", traces=200, samples=4000)

tvla: fixed-vs-random input (the secret fixed; the randomized functions get a fresh rnd
per trace in both sets), the two sets randomly interleaved, Welch's t per sample over
the recorder's window; leaks = some |t| > 4.5 at the same sample in two independent
halves of the traces. cpa: random inputs, the attack of cpa.py on the first X25519
scalar bits (cpa_p256.py: a P-256 window digit on the Cortex-M4 assembly build)."""
import importlib
import time

import numpy as np

from . import cpa as cpa_mod
from .inputs import LeakInput, OPS
from .stats import THRESHOLD, TTest, confirmed, max_abs

# target -> recorder module (each has recorder(target, impl, function))
RECORDERS = {
    "msp430x-mpy32": "record_msp430",
    "msp430x-mpy16": "record_msp430",
    "cortex-m4": "record_m4",
    "hw": "record_hw",
    "synthetic": "synthetic",
}
BATCH = 256         # traces recorded per recorder call (bounds memory for long runs)
BATCH_VALUES = 2e7  # ... and at most about this many samples per call


def _batch(samples):
    return int(max(8, min(BATCH, BATCH_VALUES // max(samples, 1))))


def get_recorder(target, impl, function):
    """The target's recorder for one build and function (raises if it or the build is
    missing)."""
    if target not in RECORDERS:
        raise ValueError(f"unknown target {target!r} (one of {', '.join(RECORDERS)})")
    if function not in OPS:
        raise ValueError(f"unknown function {function!r} (one of {', '.join(OPS)})")
    mod = importlib.import_module(f".{RECORDERS[target]}", __package__)
    return mod.recorder(target, impl, function)


def _bytes(rng, n):
    return bytes(rng.integers(0, 256, n, dtype=np.uint8))


def _p256_point(rng):
    """A random P-256 point, SEC1 uncompressed (OpenSSL through `cryptography`)."""
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    n = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551
    d = int.from_bytes(_bytes(rng, 32), "big") % (n - 1) + 1
    return ec.derive_private_key(d, ec.SECP256R1()).public_key().public_bytes(
        Encoding.X962, PublicFormat.UncompressedPoint)


def _secret(function, rng):
    s = _bytes(rng, 32)
    if function.startswith("p256"):     # top byte 1..127: 0 < k < n
        s = bytes([s[0] & 0x7f | 1]) + s[1:]
    return s


def random_pub(function, rng):
    return _p256_point(rng) if function.startswith("p256") else _bytes(rng, 32)


def tvla_inputs(function, n, seed=0, vary="input", fixed_pub=None):
    """n inputs, fixed and random interleaved at random; returns (inputs, groups) with
    group 0 = fixed, 1 = random. vary="input" (the TVLA non-specific test): the input
    point is fixed or random, the secret the same in all; vary="secret": the secret is
    fixed or random, the point the same in all (does the scalar's own handling leak?).
    fixed_pub: the fixed point (bytes: 32 for X25519, 65 for P-256; default random-
    looking, drawn from the seed), e.g. u = 9 (docs/SIDE_CHANNELS.md on that point)."""
    if vary not in ("input", "secret"):
        raise ValueError("vary: 'input' or 'secret'")
    want = 65 if function.startswith("p256") else 32
    if fixed_pub is not None and len(fixed_pub) != want:
        raise ValueError(f"fixed point: {function} takes {want} bytes, got {len(fixed_pub)}")
    rng = np.random.default_rng(seed)
    secret = _secret(function, rng)
    fixed = random_pub(function, rng)
    if fixed_pub is not None:
        fixed = bytes(fixed_pub)
    groups = rng.permutation(np.arange(n) % 2)
    randomized = function.endswith("_randomized")
    inputs = []
    for g in groups:
        pub, sec = fixed, secret
        if g == 1 and vary == "input":
            pub = random_pub(function, rng)
        if g == 1 and vary == "secret":
            sec = _secret(function, rng)
        inputs.append(LeakInput(function, sec, pub,
                                _bytes(rng, 32) if randomized else bytes(32)))
    return inputs, groups


def cpa_inputs(function, n, seed=0):
    """n inputs with one secret, random points and (randomized functions) fresh rnd."""
    rng = np.random.default_rng(seed + 1)
    secret = _secret(function, rng)
    randomized = function.endswith("_randomized")
    return [LeakInput(function, secret, random_pub(function, rng),
                      _bytes(rng, 32) if randomized else bytes(32)) for _ in range(n)]


def _samples(rec, samples):
    return samples or getattr(rec, "default_samples", None) or 4000


def record(target, impl, function, traces, samples=None, snr=None, seed=0, kind="tvla",
           rec=None):
    """Raw traces: (inputs, groups or None, array (traces, samples))."""
    rec = rec or get_recorder(target, impl, function)
    samples = _samples(rec, samples)
    if kind == "tvla":
        inputs, groups = tvla_inputs(function, traces, seed)
    else:
        inputs, groups = cpa_inputs(function, traces, seed), None
    b = _batch(samples)
    out = np.concatenate([rec.record(inputs[i:i + b], samples, noise_snr=snr,
                                     seed=seed * 1_000_003 + i)
                          for i in range(0, len(inputs), b)])
    return inputs, groups, out


def _json_t(v):
    """|t| for a JSON row: inf (a sample constant in each set but different) as "inf"."""
    return "inf" if np.isinf(v) else round(float(v), 2)


def tvla(target, impl, function, traces, samples=None, order=1, snr=None, seed=0,
         rec=None, progress=None, vary="input", fixed_pub=None):
    """The fixed-vs-random t-test. Returns (row, t) with t = {1: t1, 2: t2 (order 2)}
    over all traces. The traces are also split in two independent halves (even and
    odd trace numbers, each with its own fixed and random traces): `leaks` is true when
    some sample exceeds the threshold in both halves with the same sign (stats.confirmed),
    `exceeds` when max |t| over all traces does. vary: what the random set varies
    (tvla_inputs); fixed_pub: the fixed set's point (tvla_inputs). Streams: one batch in
    memory at a time."""
    rec = rec or get_recorder(target, impl, function)
    samples = _samples(rec, samples)
    inputs, groups = tvla_inputs(function, traces, seed, vary, fixed_pub)
    tt, halves = TTest(samples), (TTest(samples), TTest(samples))
    t0 = time.time()
    b = _batch(samples) & ~1        # even: trace i is in half i % 2
    b = max(b, 2)
    for i in range(0, traces, b):
        x = rec.record(inputs[i:i + b], samples, noise_snr=snr, seed=seed * 1_000_003 + i)
        g = groups[i:i + b]
        tt.add(x, g)
        for h in (0, 1):
            halves[h].add(x[h::2], g[h::2])
        if progress:
            progress(min(i + b, traces), traces)
    orders = (1, 2) if order >= 2 else (1,)
    t = {o: tt.t(o) for o in orders}
    conf = {o: confirmed(halves[0].t(o), halves[1].t(o)) for o in orders}
    m1 = max_abs(t[1])
    row = {"target": target, "impl": impl, "function": function,
           "test": "tvla" if vary == "input" else "tvla-secret", "traces": traces,
           "samples": samples, "window": rec.window,
           "max_abs_t": _json_t(m1), "argmax": int(np.nanargmax(np.abs(t[1]))),
           "threshold": THRESHOLD, "exceeds": m1 > THRESHOLD,
           "leaks": bool(len(conf[1])), "confirmed_samples": int(len(conf[1])),
           "snr": snr, "seconds": round(time.time() - t0, 1)}
    if order >= 2:
        m2 = max_abs(t[2])
        row["max_abs_t2"] = _json_t(m2)
        row["exceeds"] = row["exceeds"] or m2 > THRESHOLD
        row["leaks"] = row["leaks"] or bool(len(conf[2]))
        row["confirmed_samples2"] = int(len(conf[2]))
    return row, t


def default_model(target, impl):
    """The word size the build's field code works in (cpa.py's models): the recorder
    module's CPA_MODEL {impl: model} if it has one, else 16-bit words on MSP430."""
    mod = importlib.import_module(f".{RECORDERS[target]}", __package__)
    table = getattr(mod, "CPA_MODEL", {})
    if impl in table:
        return table[impl]
    if target.startswith("msp430") or target in ("synthetic", "hw"):   # hw: W = 16 digits
        return "hw16"
    return "r25" if "r25" in (impl or "") else "hw32"


def p256_subwindow(rec, inp, samples):
    """The samples from the first point addition after the first table scan
    (mb_p256_asel) in the window of the Cortex-M4 assembly P-256: where only the selected
    table point T of the digit is handled (the scan itself reads every entry, so every
    hypothesis would match). The addition is mb_p256_jmadd (affine T) or mb_p256_jadd
    (the randomized table's T with Z = lambda)."""
    from . import locate
    fns = [fn for _, _, fn in locate.locate(rec, inp, range(samples), samples)]
    scan = fns.index("mb_p256_asel") if "mb_p256_asel" in fns else None
    idx = [i for i, fn in enumerate(fns)
           if scan is not None and i > scan and fn in ("mb_p256_jmadd", "mb_p256_jadd")]
    if not idx:
        raise ValueError("no table scan and addition in the window: update "
                         "campaign.p256_subwindow")
    return idx[0], samples


def cpa(target, impl, function, traces, samples=None, bits=4, snr=None, seed=0,
        model=None, rec=None, points=None):
    """CPA: X25519, the first `bits` unknown scalar bits (cpa.py); P-256 on the
    Cortex-M4 assembly build, the digit u_62 of the window method (cpa_p256.py, 4 bits;
    `bits` is ignored). Returns the result row (per-bit details under "details")."""
    p256 = function.startswith("p256")
    if p256 and not (target == "cortex-m4" and "asm" in impl):
        raise ValueError("cpa: P-256 has a hypothesis model only for the Cortex-M4 "
                         "window method (impl asm; cpa_p256.py)")
    rec = rec or get_recorder(target, impl, function)
    t0 = time.time()
    inputs, _, x = record(target, impl, function, traces, samples, snr, seed, "cpa", rec)
    pubs, secret = [i.pub for i in inputs], inputs[0].secret
    if p256:
        from . import cpa_p256
        lo, hi = p256_subwindow(rec, inputs[0], x.shape[1])
        res = cpa_p256.attack(x[:, lo:hi], pubs, secret)
        model, bits, window = res["model"], 4, f"{rec.window}, samples {lo}..{hi} (addition)"
    else:
        model = model or default_model(target, impl)
        res = cpa_mod.attack(x, pubs, secret, bits=bits, model=model, points=points)
        window = rec.window
    return {"target": target, "impl": impl, "function": function, "test": "cpa",
            "traces": traces, "samples": x.shape[1], "window": window, "model": model,
            "bits_attacked": bits, "bits_recovered": res["bits_recovered"],
            "traces_to_recover": res["traces_to_recover"] or None, "snr": snr,
            "seconds": round(time.time() - t0, 1), "details": res["details"]}
