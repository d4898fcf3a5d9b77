#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write the seed inputs of every harness into a directory per harness, in each
harness's input layout (see the comment at the top of fuzz/<harness>.c), from the
vectors the suite already uses (tests/vectors.py: Wycheproof, RFC 7748, RFC 7539) plus
the edges of each format. `make fuzz-seed` runs this and minimizes the result into
fuzz/corpus/<harness>/ with libFuzzer's -merge=1.

  python3 fuzz/seed.py OUTDIR
"""
import hashlib
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from vectors import poly1305_rfc, rfc7748, wycheproof  # noqa: E402

P25519 = 2**255 - 19
P256 = 2**256 - 2**224 + 2**192 + 2**96 - 1
N256 = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551
LENGTHS = (0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 300)


def msg(n):
    return bytes((7 * i + 1) & 0xff for i in range(n))


def x25519_cases():
    cases = [(bytes.fromhex(t["private"]), bytes.fromhex(t["public"]))
             for t in wycheproof("x25519_test.json")]
    return cases + [(k, u) for k, u, _ in rfc7748()]


def p256_cases():
    out = []
    for t in wycheproof("ecdh_secp256r1_ecpoint_test.json"):
        sk = int(t["private"], 16)
        out.append((sk.to_bytes(32, "big") if sk < 2**256 else b"\xff" * 32,
                    bytes.fromhex(t["public"])))
    return out


def seeds():
    s = {h: [] for h in ("box_open", "stream", "x25519", "p256", "sym",
                          "field_r16", "field_r25", "field_r32", "field_r64")}
    xc = x25519_cases()
    sk, pk = xc[0]
    k, n = bytes(range(32)), bytes(range(100, 124))

    # box_open: flags(1) sk pk n k [pos(2) xor(1)] data
    for op in range(4):
        for L in LENGTHS:
            s["box_open"].append(bytes([op | 4]) + sk + pk + n + k + msg(L))
            s["box_open"].append(bytes([op | 4 | 8 | 16]) + sk + pk + n + k +
                                 bytes([L & 0xff, 0, 1]) + msg(L))
        s["box_open"].append(bytes([op]) + sk + pk + n + k + msg(40))
    for lsk, lpk in xc[::25]:   # low-order and edge public keys among them
        s["box_open"].append(bytes([4]) + lsk + lpk + n + k + msg(20))

    # stream: flags(1) k n ncuts cuts pos(2) xor(1) data
    cuts = [b"", bytes([1, 0, 63, 64, 65]), bytes([32, 31, 1, 200]), bytes([7] * 15)]
    for op in range(3):
        for c in cuts:
            for L in (0, 1, 32, 33, 64, 97, 130, 300):
                for fl in (0, 4, 8, 16, 32, 64):
                    if fl and L % 3:
                        continue
                    s["stream"].append(bytes([op | fl]) + k + n + bytes([len(c)]) + c +
                                       bytes([L & 0xff, 0, 0x41]) + msg(L))
    for fl in (3, 3 | 128):   # misuse: zeroed or garbage state, then every call
        prog = bytes([2 + 8 * 3, 3, 0, 2 + 8 * 4, 3, 3, 2, 1, 4 + 8, 5]) + bytes(16) + \
            bytes([6 + 8, 7, 6, 0, 2, 3, 7])
        s["stream"].append(bytes([fl]) + k + n + bytes([0, 0, 0, 0]) + bytes(224) + prog)

    # x25519: flags(1) sk u rnd
    for ksk, u in xc:
        s["x25519"].append(bytes([0]) + ksk + u + bytes(32))
    for i in range(7):
        s["x25519"].append(bytes([1]) + sk + bytes([i, i & 1]) + bytes(30) + bytes(32))

    # p256: flags(1) sk rnd sk2 pos xor enc
    for psk, pub in p256_cases():
        if len(pub) == 65:
            s["p256"].append(bytes([2 | 4]) + psk + bytes(64) + bytes(2) + pub)
            s["p256"].append(bytes([1]) + psk + bytes(64) + bytes(2) + pub)
        elif len(pub) == 33:
            s["p256"].append(bytes([2]) + psk + bytes(64) + bytes(2) + pub)
            s["p256"].append(bytes([0]) + psk + bytes(64) + bytes(2) + pub)
    for fl in (3, 3 | 32, 3 | 64, 0 | 8, 1 | 8, 2 | 8, 2 | 4 | 8, 2 | 8 | 16, 2 | 8 | 32):
        s["p256"].append(bytes([fl]) + bytes(range(1, 33)) + bytes(32) + bytes(range(2, 34)) +
                         bytes([5, 1]))
    px = P256.to_bytes(32, "big")
    s["p256"] += [bytes([0]) + bytes(96) + bytes(2) + b"\x02" + px,
                  bytes([1]) + bytes(96) + bytes(2) + b"\x04" + px + px]

    # sym: flags(1) k n a b tag data
    for key, m, tag in poly1305_rfc():
        s["sym"].append(bytes([0]) + key + n + bytes([0, 0]) + tag + m)
    for op in range(1, 8):
        for L in (0, 1, 16, 63, 64, 65, 200):
            s["sym"].append(bytes([op | (8 if L % 2 else 0)]) + k + n + bytes([L % 65, 7]) +
                            bytes(16) + msg(L))

    # field: kind(1) class(1) regs(4 x 32 bytes) then op d s t
    edges = [b"\xff" * 32, (P25519 - 1).to_bytes(32, "little"), P25519.to_bytes(32, "little"),
             (2 * P25519).to_bytes(32, "little"), ((1 << 256) - 38).to_bytes(32, "little")]
    p256e = [(P256 - 1).to_bytes(32, "big"), P256.to_bytes(32, "big"), b"\xff" * 32, bytes(32)]
    for radix in (16, 25, 32, 64):
        size = {16: 32, 25: 40, 32: 32, 64: 40}[radix]
        regs = b"".join((e * 2)[:size] for e in edges[:4])
        prog = bytes(b for op in range(12) for b in (op, op % 4, (op + 1) % 4, (op + 2) % 4))
        s[f"field_r{radix}"].append(bytes([0, 0]) + regs + prog)
        s[f"field_r{radix}"].append(bytes([0, 0x0f]) + regs + prog[::-1])
        s[f"field_r{radix}"].append(bytes([0, 0]) + bytes(size * 4) + bytes([7, 1, 0, 0]) +
                                    edges[4] + bytes([8, 0, 1, 0, 8, 0, 0, 0]))
        prog = bytes(b for op in range(16) for b in (op, (op * 5) % 256, (op + 1) % 4, 2))
        s[f"field_r{radix}"].append(bytes([1, 0]) + b"".join(p256e) + prog)
        s[f"field_r{radix}"].append(bytes([1, 0]) + b"".join(p256e[::-1]) + prog[::-1])
    return s


def main():
    out = Path(sys.argv[1])
    for h, inputs in seeds().items():
        d = out / h
        d.mkdir(parents=True, exist_ok=True)
        for data in inputs:
            (d / hashlib.sha1(data).hexdigest()).write_bytes(data)
        print(f"seed: {h}: {len(inputs)} inputs")


if __name__ == "__main__":
    main()
