# SPDX-License-Identifier: MIT
"""Generate the target suite's test cases as a C header (tests/target/suite_vectors.h).

Every expected value comes from outside motebox: RFC 7748 and Wycheproof through
tests/vectors.py, libsodium through PyNaCl, OpenSSL through `cryptography`. Random inputs
are drawn from a fixed-seed PRNG so the header is reproducible.

    gen_vectors.py --profile small|full -o suite_vectors.h

`full` (Cortex-M4: megabytes of flash) holds every Wycheproof case and longer messages;
`small` fits a 64 KB FRAM / 2 KB RAM MSP430: one Wycheproof case per category, messages of
at most 100 bytes (the suite's RAM buffers are sized by MBT_MAX_MSG). `tiny` is `small`
with fewer scalar multiplications (at most 6 Wycheproof cases per curve, one interop key
pair): what the slower cycle model runs in `make test`. All data is `const`.
P-256 cases are emitted under `#if MB_HAVE_P256`, so the suite builds without P-256.
"""
import argparse
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # tests/, for vectors.py

import nacl.bindings as sodium  # noqa: E402
import nacl.public  # noqa: E402
import nacl.secret  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat  # noqa: E402

import vectors  # noqa: E402

P256_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551

PROFILES = {
    "tiny": dict(max_msg=100, msg_lens=[0, 1, 16, 31, 64, 65, 100], iterations=[1],
                 wycheproof_all=False, wycheproof_max=6, box_lens=[0, 100],
                 stream_lens=[0, 1, 64, 200], x25519_nacl=1, p256_interop=1),
    "small": dict(max_msg=100, msg_lens=[0, 1, 16, 31, 64, 65, 100], iterations=[1],
                  wycheproof_all=False, box_lens=[0, 33, 100], stream_lens=[0, 1, 64, 200],
                  x25519_nacl=3, p256_interop=2),
    "full": dict(max_msg=1024, msg_lens=[0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128,
                                         129, 255, 256, 300, 1000, 1024],
                 iterations=[1, 1000], wycheproof_all=True, box_lens=[0, 1, 16, 64, 65, 300, 1024],
                 stream_lens=[0, 1, 63, 64, 65, 128, 200, 1000, 4096], x25519_nacl=16,
                 p256_interop=8),
}
# Chunk-size patterns for the stream, applied cyclically (last chunk cut to what remains).
CHUNKINGS = [[1], [64], [63, 1], [17, 31, 80], [200], [5, 64, 3, 128]]


class Emitter:
    """Collects C declarations; byte strings of variable length become named arrays."""

    def __init__(self):
        self.out = []
        self.count = 0

    @staticmethod
    def arr(b):
        return "{" + ",".join(f"0x{x:02x}" for x in b) + "}"

    def blob(self, b):
        """A (pointer, length) initialiser for mbt_bytes."""
        if not b:
            return "{mbt_empty, 0}"
        self.count += 1
        name = f"mbt_blob{self.count}"
        self.out.append(f"static const uint8_t {name}[{len(b)}] = {self.arr(b)};")
        return f"{{{name}, {len(b)}}}"

    def u16s(self, values):
        self.count += 1
        name = f"mbt_u16s{self.count}"
        self.out.append(f"static const uint16_t {name}[{len(values)}] = "
                        "{" + ",".join(str(v) for v in values) + "};")
        return f"{{{name}, {len(values)}}}"

    def table(self, ctype, name, rows, guard=None):
        if guard:
            self.out.append(f"#if {guard}")
        if rows:
            self.out.append(f"static const {ctype} {name}[] = {{")
            self.out.extend(f"    {{{r}}}," for r in rows)
            self.out.append("};")
            self.out.append(f"#define {name}_count {len(rows)}u")
        else:
            self.out.append(f"static const {ctype} {name}[1];")
            self.out.append(f"#define {name}_count 0u")
        if guard:
            self.out.append("#endif")


def pick(cases, prof):
    """Every case (full), or the first case of each (result, flags) category; with
    wycheproof_max, only that many categories: the first ones and the last two (the
    file's invalid cases come last)."""
    if prof["wycheproof_all"]:
        return cases
    seen, picked = set(), []
    for t in cases:
        key = (t["result"], tuple(t["flags"]))
        if key not in seen:
            seen.add(key)
            picked.append(t)
    limit = prof.get("wycheproof_max")
    if limit and len(picked) > limit:
        picked = picked[:limit - 2] + picked[-2:]
    return picked


def ret(ok):
    return "0" if ok else "-1"


def x25519_cases(e, prof, rng):
    A = Emitter.arr
    # RFC 7748 section 5.2; rnd for the randomized ladder is arbitrary.
    rows = [f"{A(k)}, {A(u)}, {A(o)}, {A(rng.randbytes(32))}, 0"
            for k, u, o in vectors.rfc7748()]
    e.table("mbt_x25519_case", "mbt_rfc7748", rows)
    rows = [f"{n}u, {A(vectors.RFC7748_ITERATED[n])}" for n in prof["iterations"]]
    e.table("mbt_iter_case", "mbt_rfc7748_iter", rows)

    # Wycheproof: the expected return is -1 exactly when the shared value is all zero
    # (the documented contract of mb_x25519).
    cases = pick(vectors.wycheproof("x25519_test.json"), prof)
    rows = []
    for t in cases:
        sk, pk, sh = (bytes.fromhex(t[f]) for f in ("private", "public", "shared"))
        rows.append(f"{A(sk)}, {A(pk)}, {A(sh)}, {A(rng.randbytes(32))}, {ret(any(sh))}")
    e.table("mbt_x25519_case", "mbt_wycheproof_x25519", rows)

    # libsodium: scalarmult and scalarmult_base on random keys.
    rows = []
    for _ in range(prof["x25519_nacl"]):
        sk, other = rng.randbytes(32), rng.randbytes(32)
        pk = sodium.crypto_scalarmult_base(other)
        out = sodium.crypto_scalarmult(sk, pk)
        rows.append(f"{A(sk)}, {A(pk)}, {A(out)}, {A(rng.randbytes(32))}, 0")
    e.table("mbt_x25519_case", "mbt_nacl_x25519", rows)
    # Fixed-base key generation (src/curve/x25519_base.c): RFC 7748 clamping edges and
    # long runs first, then random keys.
    rows = [f"{A(sk)}, {A(sodium.crypto_scalarmult_base(sk))}"
            for sk in vectors.x25519_base_edges()]
    for _ in range(prof["x25519_nacl"]):
        sk = rng.randbytes(32)
        rows.append(f"{A(sk)}, {A(sodium.crypto_scalarmult_base(sk))}")
    e.table("mbt_base_case", "mbt_nacl_x25519_base", rows)


def sym_cases(e, prof, rng):
    A = Emitter.arr
    rows = [f"{A(k)}, {e.blob(m)}, {A(tag)}" for k, m, tag in vectors.poly1305_rfc()]
    e.table("mbt_poly1305_case", "mbt_poly1305_rfc", rows)

    # secretbox by libsodium; open cases: the good box, then tampered and short ones.
    seal, opens = [], []
    for n_ in prof["msg_lens"]:
        k, n, m = rng.randbytes(32), rng.randbytes(24), rng.randbytes(n_)
        c = nacl.secret.SecretBox(k).encrypt(m, n).ciphertext  # tag || ciphertext
        seal.append(f"{A(k)}, {A(n)}, {e.blob(m)}, {e.blob(c)}")
        opens.append(f"{A(k)}, {A(n)}, {e.blob(c)}, {e.blob(m)}, 0")
        bad = bytearray(c)
        bad[rng.randrange(len(c))] ^= 1 << rng.randrange(8)
        opens.append(f"{A(k)}, {A(n)}, {e.blob(bytes(bad))}, {e.blob(m)}, -1")
    k, n = rng.randbytes(32), rng.randbytes(24)
    for short in (b"", rng.randbytes(15)):  # shorter than a tag
        opens.append(f"{A(k)}, {A(n)}, {e.blob(short)}, {e.blob(b'')}, -1")
    e.table("mbt_secretbox_case", "mbt_nacl_secretbox", seal)
    e.table("mbt_open_case", "mbt_nacl_secretbox_open", opens)

    # box by libsodium (crypto_box_curve25519xsalsa20poly1305) between two key pairs.
    rows, opens = [], []
    for n_ in prof["box_lens"]:
        a, b = nacl.public.PrivateKey(rng.randbytes(32)), nacl.public.PrivateKey(rng.randbytes(32))
        n, m = rng.randbytes(24), rng.randbytes(n_)
        box = nacl.public.Box(a, b.public_key)
        c = box.encrypt(m, n).ciphertext
        rows.append(f"{A(bytes(a))}, {A(bytes(a.public_key))}, {A(bytes(b.public_key))}, "
                    f"{A(box.shared_key())}, {A(n)}, {e.blob(m)}, {e.blob(c)}")
        # Opened by b, from a's public key.
        opens.append(f"{A(bytes(b))}, {A(bytes(a.public_key))}, {A(n)}, {e.blob(c)}, {e.blob(m)}, 0")
        bad = bytearray(c)
        bad[rng.randrange(len(c))] ^= 1 << rng.randrange(8)
        opens.append(f"{A(bytes(b))}, {A(bytes(a.public_key))}, {A(n)}, {e.blob(bytes(bad))}, "
                     f"{e.blob(m)}, -1")
        wrong_n = bytearray(n)
        wrong_n[0] ^= 0x80
        opens.append(f"{A(bytes(b))}, {A(bytes(a.public_key))}, {A(bytes(wrong_n))}, {e.blob(c)}, "
                     f"{e.blob(m)}, -1")
    # A low-order public key (u = 0: X25519 gives all zeros): opening must fail.
    opens.append(f"{A(rng.randbytes(32))}, {A(bytes(32))}, {A(rng.randbytes(24))}, "
                 f"{e.blob(rng.randbytes(40))}, {e.blob(bytes(24))}, -1")
    e.table("mbt_box_case", "mbt_nacl_box", rows)
    e.table("mbt_box_open_case", "mbt_nacl_box_open", opens)

    # stream: the ciphertext part and tag of libsodium's secretbox, in many chunkings.
    rows = []
    for i, n_ in enumerate(prof["stream_lens"]):
        k, n, m = rng.randbytes(32), rng.randbytes(24), rng.randbytes(n_)
        c = nacl.secret.SecretBox(k).encrypt(m, n).ciphertext
        mb, cb = e.blob(m), e.blob(c)
        for j, chunks in enumerate(CHUNKINGS):
            if n_ == 0 and j > 0:
                break
            rows.append(f"{A(k)}, {A(n)}, {mb}, {cb}, {e.u16s(chunks)}, {(i + j) & 1}")
    e.table("mbt_stream_case", "mbt_nacl_stream", rows)


def p256_cases(e, prof, rng):
    A = Emitter.arr
    guard = "MB_HAVE_P256"
    # Wycheproof ECDH with raw SEC1 points: valid and acceptable (compressed) succeed,
    # invalid ones must fail with the output zeroed.
    cases = pick(vectors.wycheproof("ecdh_secp256r1_ecpoint_test.json"), prof)
    rows = []
    for t in cases:
        sk = int(t["private"], 16).to_bytes(32, "big")
        pk = bytes.fromhex(t["public"])
        ok = t["result"] in ("valid", "acceptable")
        sh = bytes.fromhex(t["shared"]) if ok else bytes(32)
        rows.append(f"{A(sk)}, {e.blob(pk)}, {A(sh)}, {A(rng.randbytes(32))}, {ret(ok)}")
    e.table("mbt_p256_ecdh_case", "mbt_wycheproof_p256", rows, guard)

    # OpenSSL (cryptography): public keys of random scalars, ECDH with both encodings.
    base, ecdh, enc = [], [], []
    for _ in range(prof["p256_interop"]):
        d = rng.randrange(1, P256_N)
        peer = ec.derive_private_key(rng.randrange(1, P256_N), ec.SECP256R1())
        me = ec.derive_private_key(d, ec.SECP256R1())
        sk = d.to_bytes(32, "big")
        pk65 = me.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        base.append(f"{A(sk)}, {A(pk65)}, 0")
        shared = me.exchange(ec.ECDH(), peer.public_key())
        for fmt in (PublicFormat.UncompressedPoint, PublicFormat.CompressedPoint):
            ppk = peer.public_key().public_bytes(Encoding.X962, fmt)
            ecdh.append(f"{A(sk)}, {e.blob(ppk)}, {A(shared)}, {A(rng.randbytes(32))}, 0")
        enc.append(f"{A(pk65)}, "
                   f"{A(me.public_key().public_bytes(Encoding.X962, PublicFormat.CompressedPoint))}")
    # ECDH edge scalars against one peer: tiny scalars and scalars near n (where a
    # windowed method's additions can meet their exceptional cases), long runs of zero
    # and one bits. Every scalar < 2^8 in the full profile.
    peer = ec.derive_private_key(rng.randrange(1, P256_N), ec.SECP256R1())
    ppk = peer.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    edges = [1, 2, 3, 4, 6, P256_N - 1, P256_N - 2, P256_N - 3, 2**255, 2**255 - 1]
    if prof["wycheproof_all"]:
        edges = sorted(set(edges) | set(range(1, 256)) | {P256_N - j for j in range(1, 33)}
                       | {2**224 - 1, 2**256 - 2**224 - 1, 2**128, 2**192 + 1})
    for d in edges:
        shared = ec.derive_private_key(d, ec.SECP256R1()).exchange(ec.ECDH(), peer.public_key())
        ecdh.append(f"{A(d.to_bytes(32, 'big'))}, {e.blob(ppk)}, {A(shared)}, "
                    f"{A(rng.randbytes(32))}, 0")
    # Scalars out of [1, n-1] are rejected (pk zeroed).
    for d in (0, P256_N, P256_N + 1, 2**256 - 1):
        base.append(f"{A(d.to_bytes(32, 'big'))}, {A(bytes(65))}, -1")
    # Fixed-base key generation edges (src/curve/p256_base.c): 1, 2, n-1, n-2, the comb's
    # exceptional scalars (0x2222 2^240, 0x20001fffdfffe 2^192 and n minus them: the last
    # addition is a doubling), long runs of zero / one bits; every scalar < 2^8 in full.
    bedges = [1, 2, 3, P256_N - 1, P256_N - 2, 0x2222 << 240, P256_N - (0x2222 << 240),
              0x20001FFFDFFFE << 192, P256_N - (0x20001FFFDFFFE << 192)]
    if prof["wycheproof_all"]:
        bedges += [d for d in range(4, 256)] + [2**255, 2**255 - 1, 2**128, 2**224 - 1,
                                                P256_N - 2**128, (2**128 - 1) << 64]
    for d in bedges:
        pk65 = ec.derive_private_key(d, ec.SECP256R1()).public_key().public_bytes(
            Encoding.X962, PublicFormat.UncompressedPoint)
        base.append(f"{A(d.to_bytes(32, 'big'))}, {A(pk65)}, 0")
    e.table("mbt_p256_base_case", "mbt_ossl_p256_base", base, guard)
    e.table("mbt_p256_ecdh_case", "mbt_ossl_p256_ecdh", ecdh, guard)
    e.table("mbt_p256_enc_case", "mbt_ossl_p256_encode", enc, guard)


def generate(profile, seed=7748):
    prof = PROFILES[profile]
    rng = random.Random(seed)
    e = Emitter()
    x25519_cases(e, prof, rng)
    sym_cases(e, prof, rng)
    p256_cases(e, prof, rng)
    head = [
        f"/* Generated by tests/target/gen_vectors.py --profile {profile}: do not edit. */",
        "/* Sources: RFC 7748, Wycheproof (x25519, ecdh_secp256r1_ecpoint), RFC 7539 Poly1305,",
        " * libsodium via PyNaCl, OpenSSL via cryptography. */",
        "#ifndef MBT_SUITE_VECTORS_H",
        "#define MBT_SUITE_VECTORS_H",
        f'#define MBT_PROFILE "{profile}"',
        f"#define MBT_MAX_MSG {prof['max_msg']}u",
        "static const uint8_t mbt_empty[1] = {0};",
    ]
    return "\n".join(head + e.out + ["#endif", ""])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", choices=sorted(PROFILES), default="full")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args(argv)
    text = generate(args.profile)
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
