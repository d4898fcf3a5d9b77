# SPDX-License-Identifier: MIT
"""The P-256 code under AddressSanitizer + UndefinedBehaviorSanitizer: the driver
tests/p256/sanitize_p256.c (built per radix by mk/checks.mk, linked to the sanitized library) gets valid
and invalid inputs, each in a heap buffer of exactly its length; any over-read, overflow,
shift or signed-overflow bug aborts the run. Results are checked against OpenSSL."""
import random
import subprocess

import pytest
from conftest import BUILD, RADIXES
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
P = 2**256 - 2**224 + 2**192 + 2**96 - 1
X962 = serialization.Encoding.X962
FMT = {65: serialization.PublicFormat.UncompressedPoint, 33: serialization.PublicFormat.CompressedPoint}


def pub(k, size=65):
    return ec.derive_private_key(k, ec.SECP256R1()).public_key().public_bytes(X962, FMT[size])


def shared(k, pk):
    peer = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), pk)
    return ec.derive_private_key(k, ec.SECP256R1()).exchange(ec.ECDH(), peer)


def h(b):
    return b.hex() if b else "-"


@pytest.mark.parametrize("radix", RADIXES, ids=lambda r: f"r{r}")
def test_asan_ubsan(radix):
    path = BUILD / "host" / f"r{radix}" / "asan_p256"
    if not path.exists():
        pytest.fail(f"{path} missing: run `make` (mk/checks.mk builds it)")
    rng = random.Random(radix)
    jobs = []                                   # (line, expected output)
    for k in [1, 2, N - 1, N - 2] + [rng.randrange(1, N) for _ in range(12)]:
        peer = rng.randrange(1, N)
        jobs.append((f"base {k:064x} - -", f"0 {pub(k).hex()}"))
        for size in (65, 33):
            pk = pub(peer, size)
            jobs.append((f"ecdh {k:064x} {pk.hex()} -", f"0 {shared(k, pk).hex()}"))
            jobs.append((f"ecdhr {k:064x} {pk.hex()} {rng.randbytes(32).hex()}",
                         f"0 {shared(k, pk).hex()}"))
        jobs.append((f"comp - {pub(peer).hex()} -", f"0 {pub(peer, 33).hex()}"))
        jobs.append((f"decomp - {pub(peer, 33).hex()} -", f"0 {pub(peer).hex()}"))
    good = pub(99)
    for bad in (b"\x00", good[:64], good + b"\x00", good[:32], b"\x04" + P.to_bytes(32, "big") + good[33:],
                b"\x04" + good[1:33] + bytes(32), b"\x02" + b"\xff" * 32, b"\x05" + good[1:33]):
        jobs.append((f"ecdh {5:064x} {h(bad)} -", "-1 " + "00" * 32))
    for k in (0, N, 2**256 - 1):
        jobs.append((f"base {k:064x} - -", "-1 " + "00" * 65))
        jobs.append((f"ecdh {k:064x} {good.hex()} -", "-1 " + "00" * 32))
    stdin = "\n".join(line for line, _ in jobs) + "\n"
    r = subprocess.run([str(path)], input=stdin, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert "runtime error" not in r.stderr and "AddressSanitizer" not in r.stderr
    got = r.stdout.splitlines()
    assert got == [want for _, want in jobs]
