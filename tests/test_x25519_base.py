# SPDX-License-Identifier: MIT
"""X25519 key generation by the fixed-base comb (mb_x25519_base, src/curve/x25519_base.c)
on every field backend, against libsodium (PyNaCl crypto_scalarmult_base): random keys
and the edges of RFC 7748 clamping and of the comb's recoding; and the committed table
against its generator (tools/gen_x25519_base_table.py)."""
import random
import subprocess
import sys
from pathlib import Path

import nacl.bindings as sodium
import pytest

import motebox
from conftest import BUILD
from vectors import x25519_base_edges

REPO = Path(__file__).resolve().parents[1]
N_RANDOM = 3000           # random keys per backend

BASE_U = (9).to_bytes(32, "little")


def test_random_keys(lib):
    rng = random.Random(12)
    for _ in range(N_RANDOM):
        sk = rng.randbytes(32)
        assert lib.x25519_base(sk) == sodium.crypto_scalarmult_base(sk), sk.hex()


@pytest.mark.parametrize("sk", x25519_base_edges(), ids=lambda b: b.hex()[:8] + b.hex()[-4:])
def test_edges(lib, sk):
    expected = sodium.crypto_scalarmult_base(sk)
    assert lib.x25519_base(sk) == expected
    # The variable-base ladder from u = 9 agrees too.
    assert lib.x25519(sk, BASE_U) == expected


def test_every_clamped_bit(lib):
    """Every single bit the clamping keeps, alone beside bit 254 (each tooth and round of
    the comb carries the only nonzero digit difference once)."""
    for b in range(3, 254):
        sk = ((1 << 254) | (1 << b)).to_bytes(32, "little")
        assert lib.x25519_base(sk) == sodium.crypto_scalarmult_base(sk), b


def test_table_matches_generator():
    p = subprocess.run([sys.executable, str(REPO / "tools" / "gen_x25519_base_table.py"),
                        "--check"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


def other_build(name):
    path = BUILD / "host" / name / "libmotebox.so"
    if not path.exists():
        pytest.fail(f"{path} missing: run `make hostcheck` first")
    return path


def test_msp430_table_shape():
    """The 16-bit targets' table (4 blocks, spacing 16) on the host's radix-16 backend
    (build/host/x25519-b4, mk/checks.mk)."""
    lib = motebox.Library(other_build("x25519-b4"))
    rng = random.Random(13)
    for sk in x25519_base_edges() + [rng.randbytes(32) for _ in range(500)]:
        assert lib.x25519_base(sk) == sodium.crypto_scalarmult_base(sk), sk.hex()


def test_no_fixed_base_build():
    """MB_NO_FIXED_BASE (build/host/nofb, mk/checks.mk): no table, the ladder's keys."""
    path = other_build("nofb")
    nm = subprocess.run(["nm", "-D", "--defined-only", str(path)], capture_output=True,
                        text=True, check=True).stdout
    assert "mb_x25519_base_table" not in nm and "mb_x25519_base_scalarmult" not in nm
    nofb = motebox.Library(path)
    for sk in x25519_base_edges()[:6]:
        assert nofb.x25519_base(sk) == sodium.crypto_scalarmult_base(sk)
