# SPDX-License-Identifier: MIT
"""The side-channel lab on real builds (docs/SIDE_CHANNELS.md): the plain X25519 ladder
fails TVLA with a few hundred traces and loses its first scalar bits to CPA (negative
control: the pipeline can fail); the randomized ladder, at the same trace count, shows
no sample with |t| > 4.5 inside the ladder window. Noise-free traces (the worst case
for the device). A recorder whose build is missing fails the test: `make` builds them."""
import importlib

import pytest

from motebox_tools.leak import campaign, stats

TRACES = 300
# (target, impl, samples): samples cover the first 2.5 ladder steps (bits 254, 253 and
# half of 252; instructions per step: 7.3k, 10.8k, 1.4k)
BUILDS = [
    ("msp430x-mpy32", "asm", 18000),
    ("msp430x-mpy16", "asm", 27000),
    ("cortex-m4", "asm", 3600),
]


def _recorder(target, impl, function):
    mod = campaign.RECORDERS[target]
    try:
        importlib.import_module(f"motebox_tools.leak.{mod}")
    except ImportError:
        pytest.skip(f"no recorder module {mod} yet")
    return campaign.get_recorder(target, impl, function)


@pytest.mark.parametrize("target,impl,samples", BUILDS, ids=lambda v: str(v))
def test_plain_x25519_fails_tvla_and_loses_first_bit(target, impl, samples):
    rec = _recorder(target, impl, "x25519")
    row, _ = campaign.tvla(target, impl, "x25519", TRACES, samples, rec=rec)
    assert row["leaks"], row
    row = campaign.cpa(target, impl, "x25519", 50, samples, bits=1, rec=rec)
    assert row["bits_recovered"] == 1, row["details"]


@pytest.mark.parametrize("target,impl,samples", BUILDS, ids=lambda v: str(v))
def test_randomized_x25519_passes_tvla(target, impl, samples):
    rec = _recorder(target, impl, "x25519_randomized")
    row, t = campaign.tvla(target, impl, "x25519_randomized", TRACES, samples, rec=rec)
    # No sample over 4.5 in both halves (the campaign's `leaks`): 4.5 is a per-sample
    # threshold, and over 27,000 independent samples of pure noise one of them exceeds
    # it in about one run in six (seen on mpy16 asm: 4.65 at one sample, unconfirmed;
    # 4.22 at 2,000 traces per set). A real leak over 4.5 in each half still fails.
    assert not row["leaks"], row
    assert stats.max_abs(t[1]) <= 2 * stats.THRESHOLD, row


def test_portable_randomized_x25519_has_even_lambda():
    """Regression: the portable field works mod 2p = 2^256 - 38, and with an odd lambda
    the parity of lambda (u + 1) in the first step's A showed through (|t| 8.7 at 2,000
    traces, first ladder step; docs/SIDE_CHANNELS.md). x25519_scalarmult.c now makes
    lambda and rho even: no sample of the first 36,000 (most of step 254) exceeds 4.5."""
    rec = _recorder("msp430x-mpy32", "portable", "x25519_randomized")
    row, t = campaign.tvla("msp430x-mpy32", "portable", "x25519_randomized", 2000, 36000,
                           rec=rec)
    assert stats.max_abs(t[1]) <= stats.THRESHOLD, row
