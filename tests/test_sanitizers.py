# SPDX-License-Identifier: MIT
"""The public API under AddressSanitizer + UndefinedBehaviorSanitizer, every field backend.

build/hostcheck/san/rNN/sanitize_main (tests/host/sanitize_main.c, built by
mk/checks.mk with -fsanitize=address,undefined and every buffer heap-allocated at its
exact size) runs cases written here from outside references (RFC 7748, Wycheproof,
libsodium via PyNaCl) and checks every output; any sanitizer report aborts the run."""
import os
import random
import subprocess

import nacl.bindings as sodium
import pytest

from conftest import BUILD, RADIXES
from vectors import rfc7748, wycheproof

ENV = dict(os.environ,
           ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:exitcode=77",
           UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=78")


def h(b):
    return b.hex() if b else "="


def case_lines():
    r = random.Random(11)
    lines = []
    for k, u, out in rfc7748():
        lines.append(f"x25519 {h(k)} {h(u)} {h(out)}")
    for t in wycheproof("x25519_test.json"):
        want = "-" if t["shared"] == "00" * 32 else t["shared"]
        lines.append(f"x25519 {t['private']} {t['public']} {want}")
        lines.append(f"x25519_rnd {t['private']} {t['public']} {h(r.randbytes(32))} {want}")
    for rnd in (bytes(32), b"\xff" * 32):
        sk, pk = r.randbytes(32), r.randbytes(32)
        lines.append(f"x25519_rnd {h(sk)} {h(pk)} {h(rnd)} {h(sodium.crypto_scalarmult(sk, pk))}")
    for _ in range(40):
        sk = r.randbytes(32)
        lines.append(f"x25519_base {h(sk)} {h(sodium.crypto_scalarmult_base(sk))}")
    # box / box_open / secretbox / stream, lengths around block and tag boundaries.
    lengths = [0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 1000, 4096]
    for mlen in lengths:
        ska, skb = r.randbytes(32), r.randbytes(32)
        pka, pkb = sodium.crypto_scalarmult_base(ska), sodium.crypto_scalarmult_base(skb)
        n, m, k = r.randbytes(24), r.randbytes(mlen), r.randbytes(32)
        c = sodium.crypto_box(m, n, pkb, ska)
        lines.append(f"box {h(m)} {h(n)} {h(pkb)} {h(ska)} {h(c)}")
        lines.append(f"box_open {h(c)} {h(n)} {h(pka)} {h(skb)} {h(m)}")
        forged = bytearray(c)
        forged[r.randrange(len(forged))] ^= 1 << r.randrange(8)
        lines.append(f"box_open {h(bytes(forged))} {h(n)} {h(pka)} {h(skb)} -")
        sc = sodium.crypto_secretbox(m, n, k)
        lines.append(f"secretbox {h(m)} {h(n)} {h(k)} {h(sc)}")
        lines.append(f"secretbox_open {h(sc)} {h(n)} {h(k)} {h(m)}")
        lines.append(f"secretbox_open {h(sc[:-1] + bytes([sc[-1] ^ 0x80]) if sc[16:] else bytes([sc[0] ^ 1]) + sc[1:])} {h(n)} {h(k)} -")
        chunks, left = [], mlen
        while left:
            c_len = min(left, r.choice((1, 7, 63, 64, 65, 200, left)))
            chunks.append(c_len)
            left -= c_len
        chunks.insert(r.randrange(len(chunks) + 1), 0)      # an empty update too
        lines.append(f"stream {h(k)} {h(n)} {h(m)} {','.join(map(str, chunks))} {h(sc)}")
    # Short ciphertexts (< 16 bytes) must fail, and a low-order pk must fail the box.
    n, k, sk = r.randbytes(24), r.randbytes(32), r.randbytes(32)
    for clen in (0, 1, 15):
        lines.append(f"secretbox_open {h(r.randbytes(clen))} {h(n)} {h(k)} -")
        lines.append(f"box_open {h(r.randbytes(clen))} {h(n)} {h(sodium.crypto_scalarmult_base(sk))} {h(sk)} -")
    lines.append(f"box {h(b'hello')} {h(n)} {h(bytes(32))} {h(sk)} -")
    lines += misuse_lines(r)
    return lines


# Output at distance D from the input (c == m, the easy layout's in place, and partial
# overlaps both ways), against PyNaCl's bytes.
OVERLAPS = [0, 16, -16, 1, -1, 7, -7, 17, 40, -40]


def misuse_lines(r):
    """Overlapping buffers, stream misuse (zeroed, random, finished, corrupted states),
    the receiving stream in and out of order, and the maximum lengths."""
    lines = []
    for mlen in (0, 1, 15, 16, 17, 33, 64, 65, 200):
        ska, skb = r.randbytes(32), r.randbytes(32)
        pka, pkb = sodium.crypto_scalarmult_base(ska), sodium.crypto_scalarmult_base(skb)
        n, m, k = r.randbytes(24), r.randbytes(mlen), r.randbytes(32)
        sc = sodium.crypto_secretbox(m, n, k)
        bc = sodium.crypto_box(m, n, pkb, ska)
        for d in OVERLAPS:
            lines.append(f"secretbox_at {h(m)} {h(n)} {h(k)} {h(sc)} {d}")
            lines.append(f"secretbox_open_at {h(sc)} {h(n)} {h(k)} {h(m)} {d}")
            forged = bytes([sc[0] ^ 4]) + sc[1:]
            lines.append(f"secretbox_open_at {h(forged)} {h(n)} {h(k)} - {d}")
        for d in OVERLAPS[:4]:
            lines.append(f"box_at {h(m)} {h(n)} {h(pkb)} {h(ska)} {h(bc)} {d}")
            lines.append(f"box_open_at {h(bc)} {h(n)} {h(pka)} {h(skb)} {h(m)} {d}")
        lines.append(f"stream_misuse {h(k)} {h(n)} {h(m)}")
        lines.append(f"unstream {h(k)} {h(n)} {h(m)} {h(sc)}")
    sk = r.randbytes(32)
    lines.append(f"maxlen {h(r.randbytes(32))} {h(r.randbytes(24))} "
                 f"{h(sodium.crypto_scalarmult_base(r.randbytes(32)))} {h(sk)}")
    return lines


@pytest.fixture(scope="module")
def case_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("san") / "cases.txt"
    lines = case_lines()
    path.write_text("\n".join(lines) + "\n")
    return path, len(lines)


def binary(radix):
    path = BUILD / "hostcheck" / "san" / f"r{radix}" / "sanitize_main"
    if not path.exists():
        pytest.fail(f"{path} missing: run `make hostcheck`")
    return path


@pytest.mark.parametrize("radix", RADIXES, ids=lambda r: f"r{r}")
def test_api_under_asan_ubsan(radix, case_file):
    path, n = case_file
    p = subprocess.run([binary(radix), path], capture_output=True, text=True, env=ENV, timeout=600)
    assert p.returncode == 0, f"rc={p.returncode}\n{p.stdout}\n{p.stderr[-4000:]}"
    assert "runtime error" not in p.stderr and "AddressSanitizer" not in p.stderr
    assert p.stdout.strip() == f"ok {n} cases, 0 failures"


def test_harness_detects_mismatch(tmp_path):
    """The comparison itself can fail: a wrong expected value is reported."""
    sk = bytes(range(32))
    good = sodium.crypto_scalarmult_base(sk)
    bad = bytes([good[0] ^ 1]) + good[1:]
    f = tmp_path / "bad.txt"
    f.write_text(f"x25519_base {sk.hex()} {good.hex()}\nx25519_base {sk.hex()} {bad.hex()}\n")
    p = subprocess.run([binary(64), f], capture_output=True, text=True, env=ENV, timeout=60)
    assert p.returncode == 1 and "line 2: x25519_base mismatch" in p.stderr
