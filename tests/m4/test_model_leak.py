# SPDX-License-Identifier: MIT
"""The Cortex-M4 model's leakage model (python/motebox_tools/sim/m4/leak.py) and its
recorder (python/motebox_tools/leak/record_m4.py), docs/SIDE_CHANNELS.md.

  * a tiny instruction sequence leaks exactly the hand-computed Hamming weights and
    distances (ALU result, load, store, byte store, LDM);
  * the window opens where it is told (symbol, loop head, n-th entry) and closes at its
    end symbol or the sample cap;
  * traces are deterministic, noise is seeded;
  * the cycle model's counts do not change with leakage recording on, and recording
    inside the model gives the recorder's samples;
  * the recorder checks outputs against libsodium, and a first-order fixed-vs-random
    t-test sees the plain ladder (asm build) and not the randomized one."""
import numpy as np
import pytest

from conftest import REPO  # noqa: F401  (sys.path for motebox_tools)
from motebox_tools.boards import m4 as target_m4
from motebox_tools.elf import patch_elf

unicorn = pytest.importorskip("unicorn")
from motebox_tools.leak import campaign, record_m4  # noqa: E402
from motebox_tools.leak.inputs import LeakInput  # noqa: E402
from motebox_tools.sim import m4  # noqa: E402
from motebox_tools.sim.m4 import leak  # noqa: E402

from arm_harness import RAM, arm_cpu  # noqa: E402

SNIPPET = r"""
    .syntax unified
    .thumb
    .text
    .global leak_snip_fast
    .type   leak_snip_fast, %function
    .thumb_func
leak_snip_fast:                     @ r0 = 8 zero bytes; r1-r3 = 0
    movs    r1, #0x0f
    mov.w   r2, #0x00ff00ff
    str     r2, [r0]
    ldr     r3, [r0]
    strb    r1, [r0, #4]
    ldm     r0, {r4, r5}
    eors    r4, r4, r5
    bx      lr
"""


def hw(v):
    return bin(v & 0xFFFFFFFF).count("1")


def elf(variant):
    path = target_m4.build_dir() / variant / "ct.elf"
    if not path.exists():
        pytest.fail(f"{path} missing: run `make m4` first")
    return path


def x25519_input(seed, function="x25519"):
    rng = np.random.default_rng(seed)
    b = lambda n: bytes(rng.integers(0, 256, n, dtype=np.uint8))  # noqa: E731
    return LeakInput(function, b(32), b(32), b(32))


@pytest.fixture(scope="module")
def snippet(tmp_path_factory):
    d = tmp_path_factory.mktemp("leak")
    (d / "snip.S").write_text(SNIPPET)
    return arm_cpu(d, [d / "snip.S"], ("leak_",))


def run_snippet(snippet, model):
    uc, call = snippet
    buf = RAM + 0x100
    uc.mem_write(buf, bytes(8))
    cap = leak.Capture(uc, 100, gated=False)
    cap.install()
    call("leak_snip_fast", buf, 0, 0, 0)
    cap.remove()
    regs, pcs = cap.result()
    dec = leak.Decoder(lambda a, n: bytes(uc.mem_read(a, n)))
    return dec.samples(regs.copy(), pcs, model), pcs


def test_snippet_hw_and_bus_hd(snippet):
    """HW of each destination value + HD of successive bus words (bus starts at 0)."""
    x, pcs = run_snippet(snippet, leak.Model())
    w = 0x00FF00FF
    want = [hw(0x0F),                                     # movs r1: HW 4
            hw(w),                                        # mov.w r2: 16
            hw(0 ^ w),                                    # str: bus 0 -> w
            hw(w) + hw(w ^ w),                            # ldr r3: HW 16, bus w -> w
            hw(w ^ 0x0F),                                 # strb: bus w -> 0x0f
            hw(w) + hw(0x0F) + hw(0x0F ^ w) + hw(w ^ 0x0F),   # ldm r4, r5: 2 words
            hw(w ^ 0x0F)]                                 # eors r4
    assert x.tolist() == want
    assert len(pcs) == len(want) + 1                      # + the bx lr row


def test_snippet_register_hd(snippet):
    """The optional term: HD of each destination register's old and new value
    (arm_harness sets r4-r11 to 0x11110000 + i before the call)."""
    x, _ = run_snippet(snippet, leak.Model(hw_dest=0, hd_bus=0, hd_dest=1))
    w = 0x00FF00FF
    want = [hw(0x0F), hw(w), 0, hw(w), 0,
            hw(0x11110000 ^ w) + hw(0x11110001 ^ 0x0F), hw(w ^ (w ^ 0x0F))]
    assert x.tolist() == want


def test_window_loop_head_and_cap():
    """asm X25519: the window opens at the ladder's loop head (.Lstep, no symbol), one
    step is 1402 instructions, and the cap is honoured."""
    e = leak.Engine(elf("O2-asm"), leak.Window("mb_x25519_scalarmult@loop", None, 3000))
    lo, size = e.funcs["mb_x25519_scalarmult"]
    assert lo < e.start < lo + size
    data = record_m4.ct_input(x25519_input(1))
    x, out = e.run(data)
    _, pcs = e.capture.result()
    assert len(x) == 3000 and out is None
    assert pcs[0] == e.start and pcs[1402] == e.start     # the next step
    assert (pcs == e.start).sum() == 3                    # steps 0, 1, 2 (3000 = 2 x 1402 + 196)


def test_window_end_and_occurrence():
    """A window from mb_x25519 to the ladder's entry closes at the end symbol, before
    the cap; "#2" opens at the second entry."""
    e = leak.Engine(elf("O2-asm"), leak.Window("mb_x25519", "mb_x25519_scalarmult", 5000))
    x, _ = e.run(record_m4.ct_input(x25519_input(2)))
    _, pcs = e.capture.result()
    assert 0 < len(x) < 5000 and len(pcs) == len(x) + 1
    assert pcs[0] == e.funcs["mb_x25519"][0] & ~1
    assert pcs[-1] == e.funcs["mb_x25519_scalarmult"][0] & ~1
    data = record_m4.ct_input(x25519_input(3))
    first = leak.Engine(elf("O2-asm"), leak.Window("mb_fe25519_mul_reg", None, 200)).run(data)[0]
    second = leak.Engine(elf("O2-asm"), leak.Window("mb_fe25519_mul_reg#2", None, 200)).run(data)[0]
    assert len(first) == len(second) == 200 and not np.array_equal(first, second)


def test_python_hook_equals_native(monkeypatch):
    """The C hook (leak_hook.c) and the Python fallback record the same trace."""
    if leak.native_hook() is None:
        pytest.skip("no host C compiler: only the Python hook exists")
    data = record_m4.ct_input(x25519_input(10))
    window = leak.Window("mb_x25519_scalarmult@loop", None, 1000)
    e = leak.Engine(elf("O2-asm"), window)
    assert isinstance(e.capture, leak.NativeCapture)
    native = e.run(data)[0]
    monkeypatch.setattr(leak, "native_hook", lambda: None)
    e = leak.Engine(elf("O2-asm"), window)
    assert isinstance(e.capture, leak.Capture)
    assert np.array_equal(e.run(data)[0], native)


def test_deterministic_and_seeded_noise():
    e = leak.Engine(elf("O2-asm"), leak.Window("mb_x25519_scalarmult@loop", None, 800))
    a, b = (record_m4.ct_input(x25519_input(s)) for s in (4, 5))
    xa, xb, xa2 = e.run(a)[0], e.run(b)[0], e.run(a)[0]
    assert np.array_equal(xa, xa2) and not np.array_equal(xa, xb)
    t = np.stack([xa, xb])
    n1 = leak.add_noise(t.copy(), 2.0, seed=7, index=0)
    n2 = leak.add_noise(t.copy(), 2.0, seed=7, index=0)
    n3 = leak.add_noise(t.copy(), 2.0, seed=8, index=0)
    assert np.array_equal(n1, n2) and not np.array_equal(n1, n3)
    # trace k's noise depends on (seed, index + k) only: a split gives the same traces
    assert np.array_equal(leak.add_noise(t[1:].copy(), 2.0, seed=7, index=1), n1[1:])
    assert abs(np.std(n1 - t) - 2.0) < 0.15                # sigma


@pytest.mark.parametrize("variant,start,samples", [("O2-asm", "mb_x25519_scalarmult@loop", 3000),
                                                   ("O2", "mb_x25519_ladder_steps", 2000)])
def test_cycles_unchanged_and_model_matches_recorder(variant, start, samples, tmp_path):
    inp = x25519_input(6)
    data = record_m4.ct_input(inp)
    fw = patch_elf(elf(variant), tmp_path / "ct.elf", "ct_input", data)
    plain = m4.run(fw)
    probe = leak.Probe(leak.Window(start, None, samples))
    with_leak = m4.run(fw, leak=probe)
    assert plain.exit_code == with_leak.exit_code == 0
    assert (plain.cycles, plain.instructions, plain.stdout) == \
        (with_leak.cycles, with_leak.instructions, with_leak.stdout)
    assert plain.leak is None and len(with_leak.leak) == samples
    x, _ = leak.Engine(elf(variant), leak.Window(start, None, samples)).run(data)
    assert np.array_equal(with_leak.leak, x)


def test_recorder_checks_outputs(monkeypatch):
    rec = record_m4.recorder("cortex-m4", "asm", "x25519_randomized", check_every=1,
                             workers=1)
    inputs = [x25519_input(s, "x25519_randomized") for s in (7, 8, 9)]
    x = rec.record(inputs, 300)
    assert x.shape == (3, 300) and x.dtype == np.float32
    # SNR = var(signal) / var(noise), the signal's variance from the first traces
    y = rec.record(inputs, 300, noise_snr=0.5, seed=3)
    assert np.array_equal(y, rec.record(inputs, 300, noise_snr=0.5, seed=3))
    assert 0.8 < np.var(y - x) / (rec.signal_var / 0.5) < 1.2
    other = record_m4.recorder("cortex-m4", "asm", "x25519_randomized", workers=1,
                               model=leak.Model(hw_dest=0, hd_bus=0, hd_dest=1))
    assert not np.array_equal(other.record(inputs[:1], 300), x[:1])
    monkeypatch.setattr(record_m4, "expected", lambda f, s, p: ("0", "00" * 32))
    with pytest.raises(AssertionError, match="libsodium"):
        rec.record(inputs[:1], 300)


def test_recorder_workers_keep_order():
    """Two worker processes give the traces of one process, in input order."""
    inputs = [x25519_input(100 + s) for s in range(record_m4.PARALLEL_MIN)]
    serial = record_m4.recorder("cortex-m4", "asm", "x25519", workers=1)
    pooled = record_m4.recorder("cortex-m4", "asm", "x25519", workers=2)
    try:
        assert np.array_equal(pooled.record(inputs, 400), serial.record(inputs, 400))
    finally:
        pooled.close()


def welch_t(x, groups):
    a, b = x[groups == 0], x[groups == 1]
    with np.errstate(all="ignore"):
        t = (a.mean(0) - b.mean(0)) / np.sqrt(a.var(0, ddof=1) / len(a) + b.var(0, ddof=1) / len(b))
    return np.nan_to_num(t)


@pytest.mark.parametrize("function,leaks", [("x25519", True), ("x25519_randomized", False)])
def test_tvla_first_ladder_step_asm(function, leaks):
    """Negative control and the countermeasure, 150 traces per set over the first ladder
    step of the asm build: the plain ladder's fixed point shows (|t| far above 4.5),
    the randomized ladder's does not."""
    rec = record_m4.recorder("cortex-m4", "asm", function, check_every=100, workers=1)
    inputs, groups = campaign.tvla_inputs(function, 300, seed=11)
    t = welch_t(rec.record(inputs, 1402), groups)
    if leaks:
        assert np.abs(t).max() > 20
    else:
        assert np.abs(t).max() < 4.5
