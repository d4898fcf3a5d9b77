# SPDX-License-Identifier: MIT
"""The bench figures (python/motebox_tools/bench/plots.py), from the committed
bench/results/*.json: the labels they parse (implementations, published figures), the
colours that keep motebox, peers and published work apart, and each figure drawn into a
temporary folder (never into bench/results)."""
import json

import pytest

from conftest import REPO
from motebox_tools.bench import plots

RESULTS = REPO / "bench" / "results"


def load(target):
    path = RESULTS / f"{target}.json"
    if not path.exists():
        pytest.skip(f"{path} not there (make bench)")
    return json.loads(path.read_text())


def test_series_groups_implementations():
    assert plots.series("arch/cortex-m4 asm + C, -O2") == ("asm", "motebox asm, -O2")
    assert plots.series("arch/msp430x asm + C, -Os, 64-byte message") == ("asm", "motebox asm, -Os")
    # one radix, two spellings (host bench and P-256 host bench): one series
    assert plots.series("portable r64 (5x51-bit limbs)") == \
        plots.series("motebox r64 (portable C, 64-bit limbs)") == ("c", "motebox C r64")
    assert plots.series("portable C r25, -O2") == ("c", "motebox C r25, -O2")
    assert plots.series("libsodium 1.0.18 (system)")[0] == "peer"
    assert plots.series("Monocypher 4.0.3 (peer, portable C), -O2") == ("peer", "Monocypher")


def test_published_figures():
    assert plots.published("1,423,667 cycles, 3,750 B code, 740 B stack ([DS16], asm)") == \
        (1423667.0, "DS16")
    assert plots.published("9,122,988 - 9,285,578 scalar mult. ([SAK18], MSP430F5529)") == \
        (9122988.0, "SAK18")
    assert plots.published("290 flip-flops") is None          # no citation: not a figure
    assert plots.published(None) is None
    assert plots.published_bytes("1,423,667 cycles, 3,750 B code, 740 B stack ([DS16])") == \
        {"code": 3750, "stack": 740}
    assert plots.published_bytes("5,301,792 cycles, 10,088 B ([DHH+15], asm)") == {"code": 10088}


def test_colours_keep_groups_apart():
    keys = [("c", "motebox C r16"), ("c", "motebox C r25"), ("asm", "motebox asm, -O2"),
            ("peer", "libsodium"), ("peer", "OpenSSL")]
    colours = plots._colours(keys)
    assert len(set(colours.values())) == len(keys)
    assert colours["motebox asm, -O2"] in plots.ORANGES
    assert {colours["motebox C r16"], colours["motebox C r25"]} <= set(plots.BLUES)
    assert {colours["libsodium"], colours["OpenSSL"]} <= set(plots.PEERS)
    assert plots.PUBLISHED not in colours.values()


def test_hw_published_points():
    points = plots._hssw15(load("hw")["rows"])
    assert set(points) == {2, 16}
    (a2, c2), (a16, c16) = points[2], points[16]
    assert a2 < a16 and c2 > c16          # wider datapath: more area, fewer cycles


def test_summary_rows_put_motebox_beside_published():
    ops = dict(plots._summary_rows(load("cortex-m4")))
    x = ops["X25519"]
    slots = [b[0] for b in x]
    assert slots[0] == plots.MOTEBOX_SLOT and plots.PUBLISHED_SLOT in slots
    hz = plots.CLOCKS["cortex-m4"][0]
    ds16 = next(b for b in x if b[0] == plots.PUBLISHED_SLOT)
    assert ds16[3] == pytest.approx(1423667 / hz * 1e3) and ds16[4:6] == (3750, 740)
    # the fastest motebox build is the one shown
    rows = [r for r in load("cortex-m4")["rows"] if r["op"] == "X25519"
            and plots.series(r["impl"])[0] != "peer"]
    assert x[0][3] == pytest.approx(min(r["cycles"]["median"] for r in rows) / hz * 1e3)


@pytest.mark.parametrize("target", ["cortex-m4", "msp430x-mpy32", "host", "hw"])
def test_figures_render(target, tmp_path):
    pytest.importorskip("matplotlib")
    plots.render(load(target), tmp_path)
    assert (tmp_path / f"{target}.png").stat().st_size > 10_000
    assert (tmp_path / f"summary-{target}.png").exists() == (target in plots.CLOCKS)
    md = plots.summary_markdown([load(target)], tmp_path)
    assert (f"summary-{target}.png" in md) == (target in plots.CLOCKS)
