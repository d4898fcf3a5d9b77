# SPDX-License-Identifier: MIT
"""Constant time of P-256 under valgrind memcheck (tests/ct/ct_p256.c, built per radix by
mk/checks.mk): the secret scalar and randomizer are marked undefined, so any branch or
memory index derived from them is an error. Valid and invalid scalars (1, n-2, n-1, n,
2^256-1, random) and every public entry point (base, ECDH uncompressed / compressed /
randomized, the x = 0 point path) are covered. The leaky control binary adds one secret
branch and must be flagged. The harness's printed results are checked against OpenSSL."""
import shutil
import subprocess

import pytest
from conftest import BUILD, RADIXES
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
VALGRIND = ["valgrind", "-q", "--error-exitcode=99", "--track-origins=yes"]

pytestmark = pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind not installed")


def run(binary, *args):
    path = BUILD / "host" / binary
    if not path.exists():
        pytest.fail(f"{path} missing: run `make` (mk/checks.mk builds it)")
    return subprocess.run(VALGRIND + [str(path), *args], capture_output=True, text=True,
                          timeout=300)


@pytest.mark.parametrize("radix", RADIXES, ids=lambda r: f"r{r}")
def test_no_secret_dependent_branches_or_indexes(radix):
    r = run(f"r{radix}/ct_p256")
    assert r.returncode == 0, r.stderr[-3000:]
    assert "uninitialised" not in r.stderr
    lines = [ln.split() for ln in r.stdout.splitlines()]
    peer = bytes.fromhex([ln for ln in lines if ln[0] == "peer"][0][2])
    peer_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), peer)
    x0_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), bytes.fromhex(
        "04" + "00" * 32 + "66485c780e2f83d72433bd5d84a06bb6541c2af31dae871728bf856a174f93f4"))
    checked, block = 0, []
    for ln in lines:
        if ln[0] == "rnd" or ln[0] == "peer":
            continue
        if ln[0] != "sk":
            block.append(ln)
            continue
        k = int(ln[2], 16)
        res = {name: (int(rc), bytes.fromhex(out)) for name, rc, out in block}
        block = []
        if not 0 < k < N:
            assert all(rc == -1 and not any(out) for rc, out in res.values()), hex(k)
            continue
        key = ec.derive_private_key(k, ec.SECP256R1())
        assert res["base"] == (0, key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))
        shared = key.exchange(ec.ECDH(), peer_key)
        for name in ("ecdh", "ecdh_c", "ecdh_r"):
            assert res[name] == (0, shared), name
        assert res["ecdh_x0"] == (0, key.exchange(ec.ECDH(), x0_key))
        checked += 1
    assert checked >= 4


def test_leaky_control_is_flagged():
    # The harness itself can fail: one radix is enough for this negative control.
    r = run("r64/ct_p256_leaky", "1")
    assert r.returncode == 99
    assert "depends on uninitialised value" in r.stderr
