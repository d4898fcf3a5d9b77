# SPDX-License-Identifier: MIT
"""The MSP430X simulator's leakage model (--leak, sim/msp430/leak.c; docs/SIDE_CHANNELS.md
"Leakage model (MSP430X ISS)"): per instruction, the Hamming weight of every register
and memory write plus the Hamming distance of successive data-bus values.

- a tiny program's samples equal the model computed by hand, instruction by instruction;
- the window opens at the first instruction at B and closes before the first at E, the
  sample cap holds, the uint8 output equals the float32 one;
- batch mode (one process, one record per run) gives the single runs' traces, noise
  included (record i with seed S = a single run with seed S + i);
- without noise the samples are deterministic; the noise has the asked deviation;
- the model does not change the cycles or the output of a run;
- the recorder (motebox_tools.leak.record_msp430) finds its ladder window in every build,
  checks the results against libsodium, and the plain X25519 ladder fails a small
  fixed-vs-random t-test that the randomized one passes."""
import subprocess

import numpy as np
import pytest

from conftest import REPO  # noqa: F401  (python/ on sys.path)
from motebox_tools.boards import msp430 as board
from motebox_tools.elf import patch_elf, symbol
from sim430_asm import build, have_toolchain

pytestmark = pytest.mark.skipif(not have_toolchain(), reason="needs clang and ld.lld")


def sim():
    if not board.have_sim():
        pytest.fail(f"{board.sim_path()} missing: run `make msp430sim`")
    return str(board.sim_path())


def leak(elf, tmp_path, *opts, name="l.bin", dtype="<f4"):
    """Run with --leak; returns (samples, CompletedProcess)."""
    out = tmp_path / name
    p = subprocess.run([sim(), "--cycles", "--leak", str(out), *opts, str(elf)],
                       capture_output=True, timeout=120)
    return np.fromfile(out, dtype=dtype), p


# Hand-computed: sample = sum HW(register / memory writes) + sum HD(bus before, value)
# over the instruction's data accesses. Fetches (and immediates) are not data accesses,
# nor are SR (flags) and the SP/Rn updates of push and @Rn+. The bus starts at 0.
PROGRAM = """
  mov #0x2300, sp
  mov #0x1c00, r5
  .globl begin
begin:
  mov #0x00ff, r6       ; HW(0x00ff) = 8                                      -> 8
  mov r6, 0(r5)         ; write 0x00ff: HW 8 + HD(0, 0x00ff) 8                 -> 16
  mov #0x0f0f, r7       ; HW 8                                                -> 8
  mov r7, 2(r5)         ; write 0x0f0f: HW 8 + HD(0x00ff, 0x0f0f) 8            -> 16
  mov @r5, r8           ; read 0x00ff: HD 8, r8 = 0x00ff: HW 8                 -> 16
  add 2(r5), r8         ; read 0x0f0f: HD 8, r8 = 0x100e: HW 4                 -> 12
  mov.b 1(r5), r9       ; read byte 0x00: HD(0x0f0f, 0) 8, r9 = 0: HW 0        -> 8
  push r8               ; write 0x100e: HW 4 + HD(0, 0x100e) 4                 -> 8
  pop r10               ; read 0x100e: HD 0, r10 = 0x100e: HW 4                -> 4
  mov #4, r11           ; HW 1                                                -> 1
  .globl loop
loop:
  add #1, r12           ; 4 iterations of 3 instructions
  dec r11
  jnz loop
  .globl end
end:
  mov #0, &0x0ff2       ; exit: write 0: HD(0x100e, 0) 4                       -> 4
"""
EXPECTED = [8, 16, 8, 16, 16, 12, 8, 8, 4, 1]
# add #1, r12: r12 = 1..4 (HW 1, 1, 2, 1); dec r11: r11 = 3..0 (HW 2, 1, 1, 0); jnz: 0
LOOP = [1, 2, 0, 1, 1, 0, 2, 1, 0, 1, 0, 0]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    d = tmp_path_factory.mktemp("leak")
    elf = build(PROGRAM, d)
    return elf, {n: symbol(elf, n)[0] for n in ("begin", "loop", "end")}


def test_model_by_hand(tiny, tmp_path):
    elf, sym = tiny
    x, p = leak(elf, tmp_path, "--leak-window", f"{sym['begin']:#x}:{sym['end']:#x}")
    assert p.returncode == 0, p.stderr
    assert x.tolist() == EXPECTED + LOOP
    assert b"leak-samples: 22" in p.stderr


def test_whole_run_and_u8(tiny, tmp_path):
    elf, sym = tiny
    x, p = leak(elf, tmp_path)        # no window: every instruction, the exit included
    assert p.returncode == 0, p.stderr
    # mov #0x2300, sp: HW 3; mov #0x1c00, r5: HW 3; ...; the exit's write: 4
    assert x.tolist() == [3, 3] + EXPECTED + LOOP + [4]
    y, _ = leak(elf, tmp_path, "--leak-u8", name="u8.bin", dtype=np.uint8)
    assert y.tolist() == x.tolist()


def test_window_first_execution_and_cap(tiny, tmp_path):
    elf, sym = tiny
    # begins at the loop head's first execution, ends before `end`
    x, _ = leak(elf, tmp_path, "--leak-window", f"{sym['loop']:#x}:{sym['end']:#x}")
    assert x.tolist() == LOOP
    # an end that comes first is only an end once the window is open; 0 = no end
    x, _ = leak(elf, tmp_path, "--leak-window", f"{sym['loop']:#x}:{sym['begin']:#x}")
    assert x.tolist() == LOOP + [4]
    x, _ = leak(elf, tmp_path, "--leak-window", f"{sym['begin']:#x}:0", "--leak-samples", "5")
    assert x.tolist() == EXPECTED[:5]
    # a window that never opens (0x4402: the second word of the first instruction, at
    # _start = 0x4400): no samples, the run is unaffected
    x, p = leak(elf, tmp_path, "--leak-window", "0x4402:0")
    assert p.returncode == 0 and b"leak-samples: 0\n" in p.stderr and x.size == 0


def test_leak_options_need_leak(tiny):
    elf, _ = tiny
    for opts in (["--leak-u8"], ["--leak-samples", "3"], ["--leak-window", "1:2"]):
        assert subprocess.run([sim(), *opts, str(elf)], capture_output=True).returncode == 208


# ---- the ct firmware: batch mode, noise, cycles -----------------------------------------
def ct(variant=None):
    v = variant or ("mpy32-asm" if "mpy32-asm" in board.variants() else "mpy32")
    elf = board.firmware("ct", variant=v)
    if not elf.exists():
        pytest.fail(f"{elf} missing: run `make msp430`")
    return elf


def records(n, seed=7):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        b = rng.integers(0, 256, 97, dtype=np.uint8)   # op, secret, rnd, u
        b[0] = 2                                         # x25519_randomized
        out.append(bytes(b) + bytes(33))
    return out


def ladder_window(elf, impl):
    from motebox_tools.leak.record_msp430 import window
    b, e, _ = window(elf, impl, "x25519")
    return f"{b:#x}:{e:#x}"


def test_batch_equals_single_runs(tmp_path):
    elf = ct()
    impl = "asm" if "asm" in elf.parent.name else "portable"
    win, S = ladder_window(elf, impl), 3000
    recs = records(3)
    addr, size = symbol(elf, "ct_input")
    batch = tmp_path / "in.bin"
    batch.write_bytes(b"".join(recs))
    for noise in ([], ["--leak-noise", "1.5", "--leak-seed", "40"]):
        xb, p = leak(elf, tmp_path, "--leak-window", win, "--leak-samples", str(S),
                     "--leak-batch", str(batch), "--leak-patch", f"{addr:#x}:{size}",
                     "--leak-full", "1", *noise, name="b.bin")
        assert p.returncode == 0, p.stderr
        xb = xb.reshape(3, S)
        lines = [ln for ln in p.stdout.decode().splitlines() if ln.startswith("leak-record")]
        assert lines[0].startswith("leak-record 0 status 0 ")      # ran to the end
        assert [ln.split()[3] for ln in lines[1:]] == ["stop", "stop"]
        assert b"op 2 return 0" in p.stdout
        for i, r in enumerate(recs):
            one = patch_elf(elf, tmp_path / f"ct{i}.elf", "ct_input", r)
            opts = ["--leak-seed", str(40 + i)] if noise else []
            xs, q = leak(one, tmp_path, "--leak-window", win, "--leak-samples", str(S),
                         "--leak-full", "0", *noise[:2], *opts, name=f"s{i}.bin")
            assert q.returncode == 0, q.stderr
            assert np.array_equal(xs, xb[i]), f"record {i}, noise {noise}"
        assert not np.array_equal(xb[0], xb[1])       # different inputs, different traces


def test_noise_deterministic_and_sized(tmp_path):
    elf = ct()
    win = ladder_window(elf, "asm" if "asm" in elf.parent.name else "portable")
    base = ["--leak-window", win, "--leak-samples", "20000", "--leak-full", "0"]
    x0, _ = leak(elf, tmp_path, *base, name="a.bin")
    x1, _ = leak(elf, tmp_path, *base, name="b.bin")
    assert np.array_equal(x0, x1) and x0.size == 20000          # noise off: deterministic
    n1, _ = leak(elf, tmp_path, *base, "--leak-noise", "2", "--leak-seed", "1", name="c.bin")
    n2, _ = leak(elf, tmp_path, *base, "--leak-noise", "2", "--leak-seed", "1", name="d.bin")
    n3, _ = leak(elf, tmp_path, *base, "--leak-noise", "2", "--leak-seed", "2", name="e.bin")
    assert np.array_equal(n1, n2) and not np.array_equal(n1, n3)
    d = (n1 - x0).astype(np.float64)
    assert abs(d.mean()) < 0.05 and abs(d.std() - 2) < 0.05    # 20,000 N(0, 4) deviates
    assert abs(((d / 2) ** 4).mean() - 3) < 0.3                 # Gaussian kurtosis


def test_leakage_does_not_change_the_run(tmp_path):
    elf = ct("mpy32")
    plain = subprocess.run([sim(), "--cycles", str(elf)], capture_output=True, timeout=120)
    _, p = leak(elf, tmp_path, "--leak-window", ladder_window(elf, "portable"),
                "--leak-samples", "1000")
    assert plain.returncode == p.returncode == 0
    assert plain.stdout == p.stdout
    cyc = [ln for ln in plain.stderr.splitlines() if ln.startswith(b"cycles:")]
    assert cyc and cyc == [ln for ln in p.stderr.splitlines() if ln.startswith(b"cycles:")]


# ---- the recorder -----------------------------------------------------------------------
def recorders():
    impls = ["portable"] + (["asm"] if board.variants(asm=True) else [])
    return [(t, i) for t in ("msp430x-mpy32", "msp430x-mpy16") for i in impls]


@pytest.mark.parametrize("target,impl", recorders())
def test_recorder_windows(target, impl):
    from motebox_tools.leak import record_msp430 as R
    for fn in ("x25519", "x25519_randomized", "p256_ecdh", "p256_ecdh_randomized"):
        rec = R.recorder(target, impl, fn)
        assert rec.begin != rec.end and rec.window
        assert rec.elf.parent.name == R.variant(target, impl)


def welch(x, g):
    a, b = x[g == 0].astype(np.float64), x[g == 1].astype(np.float64)
    v = a.var(0, ddof=1) / len(a) + b.var(0, ddof=1) / len(b)
    d = a.mean(0) - b.mean(0)
    return np.where(v > 0, d / np.sqrt(np.where(v > 0, v, 1)), np.where(d == 0, 0, np.inf))


@pytest.mark.parametrize("impl", ["portable", "asm"])
def test_recorder_tvla_plain_vs_randomized(impl):
    """A small fixed-vs-random t-test (60 traces a set, the window's first 3000
    samples, no noise): the plain ladder leaks the input point at once (|t| >> 4.5),
    the randomized one shows nothing (a random-looking fixed point: see the docs for a
    small one, u = 9)."""
    from motebox_tools.leak import record_msp430 as R
    from motebox_tools.leak.inputs import LeakInput
    if impl == "asm" and not board.variants(asm=True):
        pytest.skip("no assembly build (MSP430_ARCH empty)")
    rng = np.random.default_rng(11)

    def rb(n):
        return bytes(rng.integers(0, 256, n, dtype=np.uint8))
    secret, fixed = rb(32), rb(32)
    g = rng.permutation(np.arange(120) % 2)
    for fn, leaks in (("x25519", True), ("x25519_randomized", False)):
        rec = R.recorder("msp430x-mpy32", impl, fn, check=2)
        ins = [LeakInput(fn, secret, fixed if k == 0 else rb(32), rb(32)) for k in g]
        t = np.abs(welch(rec.record(ins, 3000), g))
        assert (t.max() > 20) if leaks else (t.max() < 4.5), (fn, float(t.max()))


def test_recorder_noise_snr_and_locate():
    """noise_snr = var(signal) / var(noise), the signal's variance measured once per
    recorder; sample_pcs maps samples back to code (sample 0 is the window's start)."""
    from motebox_tools.leak import record_msp430 as R
    from motebox_tools.leak.inputs import LeakInput
    impl = "asm" if board.variants(asm=True) else "portable"
    rec = R.recorder("msp430x-mpy32", impl, "x25519", check=1)
    rng = np.random.default_rng(3)
    ins = [LeakInput("x25519", bytes(rng.integers(0, 256, 32, dtype=np.uint8)),
                     bytes(rng.integers(0, 256, 32, dtype=np.uint8))) for _ in range(4)]
    clean = rec.record(ins, 4000)
    noisy = rec.record(ins, 4000, noise_snr=0.5, seed=9)
    var = rec.signal_var(ins, 4000)
    assert abs((noisy - clean).var() / (var / 0.5) - 1) < 0.05
    assert np.array_equal(noisy, rec.record(ins, 4000, noise_snr=0.5, seed=9))
    pcs = rec.sample_pcs(ins[0], 4000)
    assert len(pcs) == 4000 and pcs[0] == rec.begin
    name = R.function_of(rec.elf)
    want = "mb_x25519_scalarmult" if impl == "asm" else "mb_x25519_ladder_steps"
    assert name(int(pcs[0])) == want


def test_recorder_checks_results(monkeypatch):
    """The checked inputs' outputs are compared with libsodium: a low-order point
    (X25519 refuses it: -1, output zeroed) passes, a wrong reference fails."""
    from motebox_tools.leak import record_msp430 as R
    from motebox_tools.leak.inputs import LeakInput
    impl = "asm" if board.variants(asm=True) else "portable"
    rec = R.recorder("msp430x-mpy32", impl, "x25519", check=1)
    low = bytes.fromhex("5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157")
    rec.record([LeakInput("x25519", bytes(range(32)), low)], 100)
    monkeypatch.setattr(R, "expected", lambda inp: bytes(31) + b"\1")
    with pytest.raises(RuntimeError, match="reference"):
        rec.record([LeakInput("x25519", bytes(range(32)), bytes([9]) + bytes(31))], 100)


def test_recorder_step_samples():
    """step_samples() is the ladder's period: the second step runs the first one's
    instructions about step_samples() samples later (the bit position's bookkeeping,
    e.g. the portable code's shift by t mod 8, moves it by a few samples)."""
    from motebox_tools.leak import record_msp430 as R
    from motebox_tools.leak.inputs import LeakInput
    impl = "asm" if board.variants(asm=True) else "portable"
    rec = R.recorder("msp430x-mpy32", impl, "x25519_randomized", check=0)
    step = rec.step_samples()
    assert 5000 < step < 120000
    n = step // 2
    pcs = rec.sample_pcs(LeakInput("x25519_randomized", bytes(32), bytes([9]) + bytes(31)),
                         step + n + 64)
    best = max((pcs[100:n] == pcs[100 + d:n + d]).mean() for d in range(step - 32, step + 33))
    assert best > 0.99
