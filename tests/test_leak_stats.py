# SPDX-License-Identifier: MIT
"""The side-channel lab's statistics and attack against synthetic traces with a known
planted leak (must be found) and pure noise (must not be): motebox_tools.leak.stats,
cpa and the synthetic target (docs/SIDE_CHANNELS.md)."""
import numpy as np
import pytest

from motebox_tools.leak import campaign, cpa, stats

N, S = 2000, 300
PLANT = 123


def _noise(seed, n=N, s=S, offset=0.0):
    return np.random.default_rng(seed).normal(offset, 1.0, (n, s))


def _groups(seed, n=N):
    return np.random.default_rng(seed).permutation(np.arange(n) % 2)


def test_streaming_moments_match_numpy():
    """Batched one-pass t (orders 1, 2) and rho equal the two-pass textbook formulas,
    also with a large offset (where sums of raw powers would lose the digits)."""
    x = _noise(1, offset=1e6)
    g = _groups(2)
    tt = stats.TTest(S)
    for i in range(0, N, 333):
        tt.add(x[i:i + 333], g[i:i + 333])
    a, b = x[g == 0], x[g == 1]
    ref1 = (a.mean(0) - b.mean(0)) / np.sqrt(a.var(0, ddof=1) / len(a) + b.var(0, ddof=1) / len(b))
    ca, cb = (a - a.mean(0)) ** 2, (b - b.mean(0)) ** 2
    ref2 = (ca.mean(0) - cb.mean(0)) / np.sqrt(ca.var(0) / len(a) + cb.var(0) / len(b))
    assert np.allclose(tt.t(1), ref1, atol=1e-6)
    assert np.allclose(tt.t(2), ref2, atol=1e-6)
    h = _noise(3, s=4)
    acc = stats.Correlation(4, S)
    for i in range(0, N, 500):
        acc.add(h[i:i + 500], x[i:i + 500])
    ref = np.corrcoef(np.hstack([h, x]).T)[:4, 4:]
    assert np.allclose(acc.rho(), ref, atol=1e-9)


def test_tvla_pure_noise_passes():
    t = stats.welch_t(*_split(_noise(4), _groups(5)))
    assert stats.max_abs(t) < stats.THRESHOLD


def _split(x, g):
    return x[g == 0], x[g == 1]


def test_tvla_finds_planted_first_order_leak():
    x, g = _noise(6), _groups(7)
    x[g == 1, PLANT] += 0.5          # the random set's mean differs at one sample
    t = stats.welch_t(*_split(x, g))
    assert stats.max_abs(t) > stats.THRESHOLD
    assert int(np.argmax(np.abs(t))) == PLANT
    t[PLANT] = 0
    assert stats.max_abs(t) < stats.THRESHOLD


def test_confirmation_needs_both_halves():
    a = np.array([5.0, 5.0, -6.0, 1.0, np.inf])
    b = np.array([4.9, -5.0, -7.0, 9.0, 5.0])
    assert stats.confirmed(a, b).tolist() == [0, 2, 4]


def test_second_order_finds_masked_leak():
    """A first-order masked value: the sample is m or 1 - m (m random), whichever the
    group selects; its mean is the same in both groups but its variance is not."""
    x, g = _noise(8), _groups(9)
    m = np.random.default_rng(10).integers(0, 2, N)
    share = np.where(g == 0, 0.5, np.where(m == 1, 1.5, -0.5))    # mean 0.5 in both
    x[:, PLANT] += share
    t1 = stats.welch_t(*_split(x, g), order=1)
    t2 = stats.welch_t(*_split(x, g), order=2)
    assert stats.max_abs(t1) < stats.THRESHOLD
    assert stats.max_abs(t2) > stats.THRESHOLD
    assert int(np.argmax(np.abs(t2))) == PLANT


def test_constant_samples_are_quiet_and_deterministic_differences_leak():
    x = np.zeros((10, 3))
    g = np.arange(10) % 2
    x[g == 1, 2] = 1.0
    t = stats.welch_t(*_split(x, g))
    assert t[0] == 0 and t[1] == 0 and np.isinf(t[2])


def test_pearson_finds_planted_hypothesis():
    rng = np.random.default_rng(11)
    h = rng.integers(0, 17, (N, 2)).astype(float)
    x = _noise(12)
    x[:, PLANT] += 0.3 * h[:, 1]
    r = stats.pearson(h, x)
    assert np.unravel_index(np.argmax(np.abs(r)), r.shape) == (1, PLANT)
    assert cpa.significant(r[1, PLANT], N, r.size)
    assert not cpa.significant(np.max(np.abs(r[0])), N, r.size)


def test_ladder_model_is_x25519():
    """The CPA's ladder model computes X25519 (checked against libsodium)."""
    nacl = pytest.importorskip("nacl.bindings")
    rng = np.random.default_rng(13)
    sk, u = (bytes(rng.integers(0, 256, 32, dtype=np.uint8)) for _ in range(2))
    k, x1 = cpa.clamp(sk), cpa.u_of(u)
    r0, r1 = (1, 0), (x1, 1)
    for t in range(254, -1, -1):
        r0, r1 = cpa.step(r0, r1, x1, (k >> t) & 1)
    got = r0[0] * pow(r0[1], cpa.P - 2, cpa.P) % cpa.P
    assert got.to_bytes(32, "little") == nacl.crypto_scalarmult(sk, u)


def test_synthetic_plain_ladder_leaks_and_loses_bits():
    row, _ = campaign.tvla("synthetic", "model", "x25519", traces=200, snr=0.5)
    assert row["leaks"] and row["max_abs_t"] > stats.THRESHOLD
    row = campaign.cpa("synthetic", "model", "x25519", traces=200, bits=3, snr=0.5)
    assert row["bits_recovered"] == 3
    assert all(n <= 200 for n in row["traces_to_recover"])


def test_synthetic_randomized_ladder_is_quiet():
    row, _ = campaign.tvla("synthetic", "model", "x25519_randomized", traces=200, snr=0.5,
                           order=2)
    assert not row["leaks"] and not row["exceeds"], row
    row = campaign.cpa("synthetic", "model", "x25519_randomized", traces=400, bits=3, snr=0.5)
    assert row["bits_recovered"] == 0


def test_cpa_without_leak_recovers_nothing():
    """Pure noise traces: no bit is claimed, whatever the inputs."""
    inputs = campaign.cpa_inputs("x25519", 300)
    res = cpa.attack(_noise(14, n=300), [i.pub for i in inputs], inputs[0].secret, bits=2)
    assert res["bits_recovered"] == 0 and res["details"][0]["guess"] is None


def test_cli_tvla_cpa_record(tmp_path, capsys):
    """`motebox leak` end to end on the synthetic target: rows, plot, raw traces."""
    import json
    from motebox_tools.leak import cli
    common = ["--target", "synthetic", "--impl", "model", "--function", "x25519",
              "--snr", "1"]
    assert cli.main(["tvla", *common, "--traces", "100", "--order", "2",
                     "--plot", str(tmp_path / "t.png"), "--json", str(tmp_path / "t.json")]) == 0
    row = json.loads((tmp_path / "t.json").read_text())
    assert row["test"] == "tvla" and row["leaks"] and (tmp_path / "t.png").stat().st_size > 0
    assert cli.main(["cpa", *common, "--traces", "100", "--bits", "2",
                     "--json", str(tmp_path / "c.json")]) == 0
    assert json.loads((tmp_path / "c.json").read_text())["bits_recovered"] == 2
    assert cli.main(["record", *common, "--traces", "10", "--out", str(tmp_path / "r.npz")]) == 0
    z = np.load(tmp_path / "r.npz")
    assert z["traces"].shape[0] == 10 and z["pub"].shape == (10, 32)
    assert "2/2 bits recovered" in capsys.readouterr().out


def test_leak_table_renders_rows():
    from motebox_tools.bench.leak_table import leak_table
    rows = [{"target": "t", "impl": "i", "function": "x25519", "test": "tvla", "traces": 400,
             "max_abs_t": "inf", "max_abs_t2": 5.0, "leaks": True, "exceeds": True},
            {"target": "t", "impl": "i", "function": "x25519", "test": "cpa", "traces": 200,
             "bits_attacked": 4, "bits_recovered": 4, "traces_to_recover": [5, 10, 10, 25]},
            {"target": "t", "impl": "i", "function": "x25519_randomized", "test": "tvla",
             "traces": 400, "max_abs_t": 4.6, "leaks": False, "exceeds": True}]
    text = leak_table({"rows": rows, "plots": [{"title": "p", "file": "leakage-t.png"}]})
    assert "| t | i | x25519 | 400 | ∞ / 5.0 | **yes** | 200 | 4/4 | 5, 10, 10, 25 |" in text
    assert "no (one half only)" in text and "leakage-t.png" in text


def test_fixed_vs_random_secret():
    """--vary secret: one point, fixed or random scalar. The plain synthetic ladder's
    values after step 254 depend on the scalar bits, so the test must fail."""
    inputs, groups = campaign.tvla_inputs("x25519", 20, vary="secret")
    assert len({i.pub for i in inputs}) == 1
    assert len({i.secret for i, g in zip(inputs, groups) if g == 1}) == 10
    row, _ = campaign.tvla("synthetic", "model", "x25519", 200, snr=0.5, vary="secret")
    assert row["test"] == "tvla-secret" and row["leaks"]
    with pytest.raises(ValueError):
        campaign.tvla_inputs("x25519", 2, vary="rnd")


def test_tvla_inputs_take_the_given_fixed_point():
    """--fixed-point: the fixed set uses exactly that point, the random set never does,
    and a point of the wrong size for the function is refused."""
    from motebox_tools.leak import campaign
    u9 = bytes([9]) + bytes(31)
    inputs, groups = campaign.tvla_inputs("x25519_randomized", 64, seed=3, fixed_pub=u9)
    assert {i.pub for i, g in zip(inputs, groups) if g == 0} == {u9}
    assert all(i.pub != u9 for i, g in zip(inputs, groups) if g == 1)
    with pytest.raises(ValueError, match="32 bytes"):
        campaign.tvla_inputs("x25519", 4, fixed_pub=bytes(31))
    with pytest.raises(ValueError, match="65 bytes"):
        campaign.tvla_inputs("p256_ecdh", 4, fixed_pub=u9)
